"""Run a round-robin tournament from Python, print the summary and write the HTML report.

    python examples/run_tournament.py [OUT_DIR]      # default: a new temporary directory

An OUT_DIR that holds this run already, stopped by Ctrl-C or finished, is continued: nothing
played is played again, and the results are those of a run never stopped (Ctrl-C says the
command that continues it, with the temporary folder where no OUT_DIR was given); a folder
holding anything else is refused in one line. ``LEAVES_EXAMPLE_GAMES`` sets the number of games
(default 20,000; the tests use 100), ``LEAVES_EXAMPLE_JOBS`` the worker processes (default 1).
Every example reads its sizes with ``size`` below, so a value that is no whole number of at
least 1 ends any of them with a one-line error before it plays; those that keep a run in a
folder say a stop by Ctrl-C with ``interrupted`` below: the command it gives sets the sizes
again (another number of games is another run, which the folder refuses).
"""

from __future__ import annotations

import os
import shlex
import sys
import tempfile
from pathlib import Path
from typing import NoReturn

import reports
from tournaments import Tournament


def size(name: str, default: int) -> int:
    """The size ``LEAVES_EXAMPLE_<name>`` sets (GAMES, JOBS, EXAMPLES), or ``default`` where it
    is unset or empty: a whole number of at least 1 (JOBS also -1, every core, as
    ``Tournament.run`` takes it), or the script ends with a one-line error. The examples beside
    this file read their sizes here (loaded by path, as check_my_strategy.py loads
    my_strategy.py)."""
    var = f"LEAVES_EXAMPLE_{name}"
    given = os.environ.get(var, "")
    text = given.strip()
    if not text:
        return default
    every_core = name == "JOBS" and text == "-1"
    if not (every_core or (text.isascii() and text.isdigit() and int(text) >= 1)):
        also = " (or -1, every core)" if name == "JOBS" else ""
        # the asking file's name: sys.argv[0] is the kernel's or pytest's in a notebook or a test
        asker = sys._getframe(1).f_globals.get("__file__")
        where = f"{Path(asker).name}: " if asker else ""
        sys.exit(f"{where}error: {var} must be a whole number of at least 1{also}, got {given!r}")
    return int(text)


def interrupted(*args: str, out: str | None = None) -> NoReturn:
    """Ctrl-C stopped a run: what was played is kept. Say in one line the command that
    continues it (this script again, with the ``LEAVES_EXAMPLE_*`` settings it was given,
    ``out`` as ``LEAVES_EXAMPLE_OUT`` where the folder comes from there, and ``args``) and exit
    130, as the command line does."""
    given = {k: v for k, v in os.environ.items() if k.startswith("LEAVES_EXAMPLE_") and v.strip()}
    if out is not None:
        given["LEAVES_EXAMPLE_OUT"] = out
    settings = [f"{k}={shlex.quote(v)}" for k, v in sorted(given.items())]
    command = " ".join([*settings, "python", *map(shlex.quote, [sys.argv[0], *args])])
    print(f"{Path(sys.argv[0]).name}: interrupted: '{command}' continues it", file=sys.stderr)
    raise SystemExit(130)


def main(out: str | None = None) -> None:
    games = size("GAMES", 20000)
    jobs = size("JOBS", 1)
    out = out or tempfile.mkdtemp(prefix="leaves-example-")

    # Four strategies at 4-player tables: one table, every deal under 24 balanced seatings.
    tournament = Tournament(["greedy", "low", "counter", "random"], players=4, games=games, seed=1)
    print(tournament.rounded_note)
    try:
        result = tournament.run(n_jobs=jobs, out=out, resume=True)  # this run in OUT: continued
    except KeyboardInterrupt:  # Ctrl-C: what was played is kept in OUT; say how to go on
        interrupted(out)

    print(result.summary().to_string(index=False))
    print()
    print("P(row finishes ahead of column):")
    print(result.head_to_head().round(3).to_string())

    page = reports.build_report(out)  # tables, charts and one page in OUT/report
    print(f"\nreport: {page}")


if __name__ == "__main__":
    if len(sys.argv) > 2:  # a second argument was dropped: say so, play nothing
        sys.exit("run_tournament.py: error: usage: run_tournament.py [OUT_DIR]")
    try:
        main(sys.argv[1] if len(sys.argv) > 1 else None)
    except ValueError as exc:  # an OUT_DIR that is a file or holds something else: one line
        sys.exit(f"run_tournament.py: error: {exc}")
