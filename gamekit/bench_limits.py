"""What a benchmark may ask of the machine: results that fit in its memory, a lower bound on
time within a day. Each game's ``run_bench`` refuses a size past them before it plays, and
``leaves bench`` refuses it before it calls the game, in the same sentence (``refusal``), from
the same figures (a game's ``needs``, its plug-in's ``bench_needs``)."""

from __future__ import annotations

import os
import re

__all__ = ["MOST_S", "WARN_S", "duration_words", "memory", "refusal", "size_words"]

MOST_S = 86_400.0
"""The longest benchmark played, in seconds of its lower bound (a day): a size past it is a
mistake (a figure of throughput settles within seconds, and repeats give more runs)."""
WARN_S = 600.0
"""A benchmark whose lower bound passes this many seconds is played after a warning (one of
an hour may be wanted; one typed a few digits too long learns it at once)."""
UNITS = (("second", 1.0), ("minute", 60.0), ("hour", 3600.0), ("day", 86_400.0),
         ("year", 365.25 * 86_400))  # fmt: skip
"""The units a duration is said in, shortest first, by their length in seconds."""


def memory() -> int | None:
    """This machine's memory in bytes, swap included where the system says it (Linux); None
    where it cannot be told."""
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (AttributeError, ValueError, OSError):  # a system without these names
        return None
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            swap = re.search(r"^SwapTotal:\s+(\d+) kB", fh.read(), re.MULTILINE)
    except OSError:
        swap = None
    return total + (int(swap.group(1)) * 1024 if swap else 0)


def refusal(size: int, seconds: float, machine: int | None, units: int | None,
            unit: str) -> str | None:  # fmt: skip
    """The sentence refusing a benchmark that holds ``size`` bytes at its peak and takes at
    least ``seconds`` on one core, on a machine of ``machine`` bytes (None: unknown): one it
    cannot hold (with the most ``units``, named ``unit`` in the plural, that fit), or one past
    ``MOST_S``; None where it may be played."""
    if machine is not None and size > machine:
        most = f": at most {units * machine // size:,} {unit}" if units else ""
        return (f"the benchmark needs {size_words(size)} of memory; this machine has "
                f"{size_words(machine)}, swap included{most}")  # fmt: skip
    if seconds > MOST_S:
        longest, said = duration_words(MOST_S), duration_words(seconds)
        takes = f"more than {said}" if said == longest else f"at least {said}"  # not "1 day"
        return (f"the benchmark takes {takes} on one core; one of more than {longest} is "
                "refused: ask for fewer")  # fmt: skip
    return None


def size_words(size: float) -> str:
    """Bytes in the largest binary unit that holds at least one ("43.7 TiB")."""
    unit = "bytes"
    for name in ("KiB", "MiB", "GiB", "TiB", "PiB", "EiB"):
        if size < 1024:
            break
        size, unit = size / 1024, name
    return f"{size:,.1f} {unit}" if unit != "bytes" else f"{size:,.0f} bytes"


def duration_words(seconds: float) -> str:
    """Seconds in the largest unit that holds at least one, to the nearest whole (a tenth
    below 10: "231 days", "6.3 years"); a figure that rounds to the next unit's length is
    said in that unit ("1 hour" for 3,599 s, never "60 minutes")."""
    at = max([0, *(i for i, (_, length) in enumerate(UNITS) if seconds >= length)])
    text = _figure(seconds / UNITS[at][1])
    if at + 1 < len(UNITS) and float(text.replace(",", "")) * UNITS[at][1] >= UNITS[at + 1][1]:
        at += 1
        text = _figure(seconds / UNITS[at][1])
    return f"{text} {UNITS[at][0]}{'' if text == '1' else 's'}"


def _figure(value: float) -> str:
    """A duration's figure: whole from 10 up, else to a tenth ("1.5", "1", not "1.0")."""
    return f"{value:,.0f}" if value >= 10 else f"{value:.1f}".removesuffix(".0")
