"""What ``leaves tournament`` says once its run is played: where the run stands (nothing to
do, unfinished, forfeited), its summary and what this session played, and the next command
(its report, or what reads a run without rows).

Imports inside functions: start-up. The packages that read a played run load once it is
played, so the command's ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from . import tournament_parts as parts
from .errors import CLIError

__all__ = ["echo_next", "echo_outcome"]


def echo_outcome(result: Any, t: Any, wall: float, sessions: int, grows: str,
                 capped: str) -> None:  # fmt: skip
    """What the run came to: first its state (nothing to do, and what ``grows`` it; unfinished,
    forfeited), then the summary with intervals and what this session played in ``wall``
    seconds (the wall time it added to the manifest's, so never more than the total), and
    ``capped`` (the matches the cap on games stopped; "" for none). Raises
    CLIError (exit 1) when no game was played to its end: every result would be a forfeit's."""
    from gamekit.text import printable
    from tournaments.run_state import run_state

    out, unit = result.out, t.units
    where = printable(str(out))  # a name typed with a line break or an escape: shown, not obeyed
    played = sum(int(s.get("units_played", 0)) for s in result.manifest["sessions"][sessions:])
    state = run_state(out)
    if sessions and not played:
        click.echo(f"Nothing to do: {where} already holds all {t.n_games:,} {unit} of this run "
                   f"(every chunk verified, none played again); {grows}")  # fmt: skip
    for line in state.lines() if state is not None else ():
        click.echo(line)
    why_not = parts.summary_table(result, state is not None and state.nothing_valid)
    if why_not:
        click.echo(why_not)
    of = "" if played == t.n_games else f" of {t.n_games:,}"
    click.echo(f"{played:,}{of} {unit} in {wall:.1f} s this session "
               f"({result.manifest['wall_time_s']:.1f} s in all); results in {where}")  # fmt: skip
    changed = _versions_line(result.manifest) if sessions and played else ""
    if changed:
        click.echo(changed)
    if t.record is not None:
        click.echo(_records_line(t, state is not None and state.nothing_valid))
    if capped:
        click.echo(capped)
    if state is not None and state.nothing_valid:
        raise CLIError(f"no valid {t.game.unit} in {out}: every one ended by a forfeit")
    if state is not None and state.all_forfeited:  # said first, above
        raise CLIError(state.all_forfeited_error())


def _versions_line(manifest: dict[str, Any]) -> str:
    """A resumed session's versions where they differ from those the run began with (a
    release that plays alike resumes a run): the report names that part of the run too."""
    from reports.run_overview import version_change  # start-up: loaded once a run has played

    change = version_change(manifest.get("versions"), manifest["sessions"][-1].get("versions"))
    return f"this session played with {change}" if change else ""


def _records_line(t: Any, nothing_valid: bool) -> str:
    """Where the records went; a file left empty is said so ("round records in FILE" was said
    of a run every unit of which was forfeited: a forfeited one keeps none)."""
    from gamekit.text import printable  # start-up: loaded once a run has played

    unit, path = t.game.unit, t.record
    if path.is_file() and path.stat().st_size > 0:
        return f"{unit} records in {printable(str(path))}"
    why = (
        f": every {unit} ended by a forfeit, and a forfeited {unit} keeps none"
        if nothing_valid
        else ""
    )
    return f"no {unit} records in {printable(str(path))}{why}"


def echo_next(out: Path, t: Any, manifest: dict[str, Any]) -> None:
    """The next command: the report of the run; a run without rows (``t.rows`` false), which
    the report cannot read, names what reads its totals instead; files that are not the run's
    but that a report would read as its rows, to be removed first."""
    from reports.loading import totals_readers  # start-up: it loads pandas
    from tournaments.run_state import shell_word  # start-up: it loads numpy

    if not t.rows:
        click.echo(f"next: the run kept no per-{t.game.unit} rows (--no-rows), so not 'leaves "
                   f"report', which reports from them; its totals are read by "
                   f"tournaments.load({str(out)!r}) ({totals_readers(t.game)})")  # fmt: skip
        return
    page = out / "report" / "report.html"
    from gamekit.text import printable

    shown = printable(str(page))  # a name typed with a line break or an escape: shown, not obeyed
    report = f"'leaves report {shell_word(out)}' writes its report ({shown}) and key findings"
    from tournaments.verify import STRAY, row_strays

    for rel in row_strays(out, manifest):  # not the run's: no report reads it, pandas would
        click.echo(f"warning: {out / rel}: {STRAY.format(folder=out / rel.split('/')[0])}")
    click.echo(f"next: {report}")
