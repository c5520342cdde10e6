"""``leaves report``: build the HTML or Markdown report of a tournament run directory.

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from .errors import CLIError
from .options import FileName, WholeNumber, format_option
from .verify_cmd import (
    MANIFEST,
    NO_MANIFEST,
    bad_run_message,
    manifest_problem,
    no_run_message,
    resume_hint,
    runs_in,
)

TOP = (2, 20)
"""What ``--top`` takes: from the fewest strategies the paired tests compare
(``reports.significance.TOP_LEAST``, a pair; a test holds the two equal, as importing it here
would load pandas before ``--help`` answers) to 20."""


def refuse_without_manifest(run_dir: Path, then: str = "report each") -> None:
    """Refuse a folder without the manifest that vouches for its rows, as ``leaves verify``
    does (``report`` and ``compare`` share the line; exit 2): a run's folder that lost it in
    verify's words (``storage.lost_manifest``), a folder of runs (a comparison of variants, a
    tuning) naming them in verify's words too, ``then`` what to do with them."""
    from tournaments.storage import lost_manifest

    from .flags import message

    lost = lost_manifest(run_dir)
    if lost is not None:
        raise CLIError(message(lost), usage=True)
    if not (run_dir / "manifest.json").exists():
        if runs_in(run_dir) and not (run_dir / "games").exists():
            raise CLIError(no_run_message(run_dir, then), usage=True)
        what = "neither games/ nor manifest.json"
        if (run_dir / "games").exists():
            what = "no manifest.json (missing): nothing vouches for the rows under games/"
        raise CLIError(f"not a run directory: {run_dir} holds {what}", usage=True)


def _unread(run_dir: Path) -> str:
    """How a manifest that did not read is named, truthfully: corrupt where a file's text is
    bad; a directory in its place (or a file that cannot be opened) is no corrupt manifest,
    said as ``verify`` says it."""
    try:
        with (run_dir / MANIFEST).open("rb"):
            return "corrupt manifest"
    except OSError:  # a directory where the file belongs, no permission to read it
        return f"the manifest of {run_dir} cannot be used"


def check_parts(run_dir: Path, rows_only: bool = False) -> None:
    """Refuse a run that ``leaves verify`` fails, for verify's reason (``report`` and
    ``compare`` share it): a manifest that cannot be used, or files that do not match it
    (naming the bad part); ``rows_only``, only files of its rows (``replay`` reads nothing
    else). A manifest another tool wrote (no ``format``, e.g. ``reports.synthetic``, in a
    folder without the runner's own files) is checked only for what it holds."""
    from tournaments.manifest_fields import check_manifest
    from tournaments.storage import read_manifest, written_by_runner
    from tournaments.verify import verify_run

    if not (run_dir / "manifest.json").exists():
        return  # each caller refuses it first (``refuse_without_manifest``; replay reads it)
    try:  # the manifest first: the check of the files reads it
        manifest = read_manifest(run_dir)
    except ValueError as exc:
        raise CLIError(f"{_unread(run_dir)}: {exc}; {NO_MANIFEST}") from None
    if written_by_runner(run_dir, manifest):  # as verify reads it
        broken = manifest_problem(run_dir)
    else:
        try:
            check_manifest(manifest, spec=False)
            broken = None
        except ValueError as exc:
            broken = str(exc)
    if broken is not None:
        raise CLIError(f"corrupt manifest {run_dir / 'manifest.json'}: {broken}; {NO_MANIFEST}")
    result = verify_run(run_dir)
    if rows_only:
        result = _of_rows(result)
    if result.has_checksums and not result.ok:
        raise CLIError(bad_run_message(run_dir, result))


def _mend(run_dir: Path, said: str) -> str:
    """What replays the runner's run's unreadable part that ``said`` names, where it does
    not say so itself (another tool's run: nothing resumes it)."""
    from tournaments.storage import read_manifest, written_by_runner

    runners = written_by_runner(run_dir, read_manifest(run_dir))
    if " part " not in said or "--resume" in said or not runners:
        return ""
    return f" ({resume_hint(run_dir)})"


def _of_rows(result: Any) -> Any:
    """``result`` (a ``Verification``) with only the problems of the run's rows: of files in
    its row folders, and of the manifest's checksums (which vouch for the rows too)."""
    import dataclasses

    from tournaments.verify import ROW_FOLDERS

    def rows(problem: Any) -> bool:
        top = problem.path.split("/")[0]
        return top in ROW_FOLDERS or top == "manifest.json"

    bad = {cid: kept for cid, found in result.bad.items() if (kept := list(filter(rows, found)))}
    return dataclasses.replace(result, bad=bad, other=list(filter(rows, result.other)))


@click.command("report")
@click.argument("run_dir", type=FileName(path_type=Path, noun="run directory"))
@click.option(
    "--out",
    "out",
    type=FileName(path_type=Path, file_okay=False),
    default=None,
    help="Output directory (default: RUN_DIR/report).",
)
@format_option
@click.option(
    "--top",
    type=WholeNumber(*TOP),
    default=5,
    show_default=True,
    help="How many top strategies to compare pairwise for significance.",
)
def report(run_dir: Path, out: Path | None, fmt: str, top: int) -> None:
    """Build a report from a tournament run directory.

    Writes the page (report.html, self-contained: charts embedded, no network needed; or
    report.md), opening on the key findings in words (also in findings.txt, and printed),
    plus summary.csv, head_to_head.csv, lengths.csv, rating.csv, significance.csv, the
    tables the run's game declares (e.g. seats.csv and neighbours.csv for a game with turns;
    means.csv, by_parameter.csv and outcomes.csv where it declares those), match tables for
    runs of matches (expert.csv, expert_scores.csv, expert_lengths.csv, or the game's own
    match name) and charts/*.png. The game, its units and columns come from the run's manifest.

    \b
    Examples:
      leaves report runs/a                      # -> runs/a/report/report.html
      leaves report runs/a --out report/        # -> report/report.html
      leaves report runs/a --format md --out docs/results
      leaves report runs/a --top 8              # pairwise tests among the top 8

    \b
    Exit codes:
      0  the report was written
      1  the run cannot be reported: no games yet, an unreadable part, a corrupt
         manifest, files that do not match it, or the report cannot be written;
         or nothing valid was played: every game ended by a forfeit, a strategy
         forfeited every game it played, or one side of a gauntlet did (the report
         is written, and says so first)
      2  bad usage: an unknown option or bad value, or RUN_DIR that does not
         exist, is a file or holds no run (no manifest.json, as 'leaves verify'
         says: rows under games/ without it are vouched for by nothing)
    """
    from reports import ReportError, build_report

    if not run_dir.exists():
        raise CLIError(f"run directory not found: {run_dir}", usage=True)
    if not run_dir.is_dir():
        raise CLIError(f"not a run directory: {run_dir} is a file", usage=True)
    refuse_without_manifest(run_dir)
    check_parts(run_dir)
    from .writable import check_writable, unwritten

    try:
        check_writable(out if out is not None else run_dir / "report")
    except CLIError as exc:  # the default folder, in the run: another one can be named
        if out is not None:
            raise
        raise CLIError(f"{exc.format_message()}; --out DIR writes the report elsewhere") from None
    from tournaments.run_state import run_state

    state = run_state(run_dir)  # once: the page and the terminal say the same of it
    try:
        path = build_report(run_dir, out=out, fmt=fmt, top=top, state=state)
    except ReportError as exc:
        raise CLIError(f"{exc}{_mend(run_dir, str(exc))}") from exc
    except OSError as exc:
        raise CLIError(f"cannot write the report: {unwritten(exc)}") from exc
    echo_report(run_dir, path, state)
    if state is not None and state.nothing_valid:
        raise CLIError(f"no valid {state.game_unit} in {run_dir}: every one ended by a forfeit "
                       "(the report says so first)")  # fmt: skip
    if state is not None and state.all_forfeited and not state.gauntlet:  # as its tournament
        raise CLIError(f"{state.all_forfeited_error()} (the report says so first)")
    if state is not None and state.gauntlet and _void_gauntlet(run_dir):
        raise CLIError(f"nothing to compare in {run_dir}: one side of the gauntlet forfeited "
                       f"every {state.game_unit} (the report says so first)")  # fmt: skip


def _void_gauntlet(run_dir: Path) -> bool:
    """A gauntlet one side of which forfeited every game: the command that played it exits 1,
    and so does its report (the other side's games compare it with nothing)."""
    import reports
    from reports.gauntlet import nothing_valid

    return nothing_valid(reports.gauntlet(run_dir).iloc[0])


def echo_report(run_dir: Path, page: Path, state: Any = None) -> Any:
    """Print where the run stands first (unfinished, forfeited: ``tournaments.run_state``;
    ``state``, as the page said it, or read now), then the report's key findings and where the
    page is. Returns the run's state (None: no manifest to tell it)."""
    from tournaments.run_state import run_state

    if state is None:
        state = run_state(run_dir)
    first = state.lines(partial_forfeits=False) if state is not None else []
    for line in first:
        click.echo(line)
    echo_findings(page.parent, skip=first)
    click.echo(f"report: {page}")
    return state


def echo_findings(folder: Path, skip: list[str] | tuple[str, ...] = ()) -> None:
    """Print the key findings a report wrote next to its page: the answers, in the terminal
    (but those in ``skip``, already printed)."""
    from reports.report import FINDINGS_FILE

    lines = (folder / FINDINGS_FILE).read_text(encoding="utf-8").splitlines()
    left = [line for line in lines if line not in skip]
    if left:  # a run whose one finding was said first gets no empty header
        click.echo("Key findings:")
    for line in left:
        click.echo(f"- {line}")
