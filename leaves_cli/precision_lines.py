"""What ``leaves tournament --precision`` says about where its run stands and how it goes on:
its target reached or not, what plays on where a resume had nothing to do, the command that
continues a run stopped partway, and what the run's manifest keeps so that the advice an
unfinished run gets anywhere (``tournaments.run_state``) names that same command.

Imports inside functions: start-up. ``tournaments.run_state`` loads numpy; the command's
``--help`` and a bad option answer before it is needed.
"""

from __future__ import annotations

import contextlib
import math
from pathlib import Path
from typing import Any

from .origins import whose
from .request import Request
from .tournament_checks import room_for_a_deal

__all__ = ["again", "below", "grows", "keep_flags", "kept_flags", "precision_line"]


def grows(request: Request, t: Any, widest: float | None) -> str:
    """What grows a run that had nothing to do: --add or --games; a --precision run (no --add)
    plays on with a --precision below its widest half-width where its target is reached, and
    a --max-games with room for a deal more where its cap has none (``room_for_a_deal``)."""
    if request.precision is None or widest is None:
        return "--add GAMES or --games N grows it"
    from tournaments.run_state import typed_number  # start-up: it loads numpy

    from .sequential import PRECISION_MAX_GAMES

    cap = request.max_games or PRECISION_MAX_GAMES
    least = room_for_a_deal(t.schedule.stages[-1], t.schedule.seats_per_set)
    room = f"--max-games {least} or more"
    full = f"{whose(request.values, 'max_games')} ({cap:,}) leaves room for no further deal"
    if math.isnan(widest) or widest > request.precision:
        return f"{full}: {room} plays on"
    target = f"--precision {typed_number(request.precision)} is reached"
    if cap >= least:
        return f"{target}: --precision {below(widest)} or less plays on"
    return f"{target} and {full}: --precision {below(widest)} or less with {room} plays on"


def below(x: float) -> str:
    """A --precision under ``x`` > 0 (a Wilson interval is never of width 0), as typed: ``x``
    rounded down at two decimals (more where it is under 1), a step lower where that is it."""
    d = max(2, 2 - math.floor(math.log10(x)))
    k = math.floor(x * 10**d)
    return f"{(k - (k / 10**d >= x)) / 10**d:.{d}f}"


def again(out: Path, request: Request) -> str:
    """The command that continues the run in ``out`` as it played: a --precision run's with
    its target and cap (``run_state.precision_flags``, which the advice on an unfinished run
    names too)."""
    from tournaments.run_state import precision_flags, shell_word  # start-up: it loads numpy

    more = precision_flags(request.precision, request.max_games)
    return f"'leaves tournament --out {shell_word(out)} --resume{more}' continues it"


def kept_flags(request: Request) -> dict[str, Any]:
    """What the run's manifest keeps of this command (``run_state.PRECISION_RUN``: its
    --precision and --max-games; None: drop what an earlier command kept), for the runner to
    write with its first save (``Tournament.run``'s ``keep``) and ``keep_flags`` after."""
    from tournaments.run_state import PRECISION_RUN  # start-up: it loads numpy

    if request.precision is None:
        return {PRECISION_RUN: None}
    return {PRECISION_RUN: {"precision": request.precision, "max_games": request.max_games}}


def keep_flags(out: Path, request: Request) -> None:
    """Keep in the manifest of the run in ``out`` this command's --precision and --max-games
    (``run_state.PRECISION_RUN``; none: drop what an earlier command kept), so that the
    advice an unfinished run gets continues it as this command plays it. Nothing where no
    manifest is there yet, or one that cannot be read (the run itself then says so)."""
    from tournaments import storage  # start-up: it loads numpy
    from tournaments.run_state import PRECISION_RUN

    kept = kept_flags(request)[PRECISION_RUN]
    try:
        manifest = storage.read_manifest(out) if (out / storage.MANIFEST).is_file() else None
    except (OSError, ValueError):
        return
    if manifest is None or manifest.get(PRECISION_RUN) == kept:
        return
    manifest.pop(PRECISION_RUN, None)
    if kept is not None:
        manifest[PRECISION_RUN] = kept
    with contextlib.suppress(OSError):  # a folder that cannot be written: the run says so
        storage.write_manifest(out, manifest)


def precision_line(target: float, widest: float, n_games: int, unit: str) -> str:
    """What the precision target came to, in one line (the width with the decimals that show
    which side of the target it lies, ``sequential.half_width``)."""
    from reports.numbers import in_percentage_points
    from tournaments.run_state import typed_number  # start-up: it loads numpy

    from .sequential import half_width

    if math.isnan(widest):
        return f"precision: {n_games:,} {unit}; too few deals for an interval (cap reached)"
    reached = "reached" if widest <= target else f"NOT reached (cap on {unit})"
    return (
        f"precision +-{in_percentage_points(typed_number(target))} {reached}: {n_games:,} "
        f"{unit}, widest 95% half-width {half_width(widest, target)}"
    )
