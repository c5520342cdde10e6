"""``leaves compare RUN_A RUN_B``: what changed for each strategy between two runs.

Imports inside functions: start-up. The packages a command runs on load once its options are
checked, so ``--help`` and a bad option answer at once.
"""

from __future__ import annotations

import math
from pathlib import Path

import click

from .errors import CLIError
from .options import FileName, Number


def _rate(x: float, lo: float, hi: float) -> str:
    """A win rate and its 95% interval in percent, the bounds rounded outward so that they
    hold the interval ("17.8 [12-25]" for [12.9, 24.0]), in whole percent where the interval
    spans a point or more, else with the decimals that keep it from collapsing ("0.3
    [0.1-0.8]" for [0.118, 0.713], never "[0-1]" beside a difference that rests on its
    decimals): narrow enough for an 80-column terminal. A rate's interval is not centred on
    it (Wilson's, inside [0, 100]), so a half-width ("17.8+-5.6") would state other bounds."""
    if x != x:
        return "n/a"
    if lo != lo or hi != hi:
        return f"{100 * x:.1f}"
    width = 100 * (hi - lo)
    digits = 0 if width >= 1 else 1 if width >= 0.1 else 2
    scale = 10**digits
    low = math.floor(100 * lo * scale + 1e-9) / scale
    high = math.ceil(100 * hi * scale - 1e-9) / scale
    return f"{100 * x:.1f} [{low:.{digits}f}-{high:.{digits}f}]"


def _change(r) -> str:
    """B - A and its 95% interval in signed percentage points, as the sentence above the
    table writes them (``reports.numbers``: the decimals of ``apart_digits``, never a bound
    other than 0 written 0, clear of 0 or across it): '+1.67 [+0.04, +3.30]', '+0.08 [-0.04,
    +0.20]'; '(no spread)', '(no interval)' where
    there is none (its sets gave one difference; too few deals)."""
    from reports.numbers import apart_digits, difference_interval, fixed  # start-up: pandas

    k = apart_digits(r.ci_low, r.ci_high)
    if r.no_spread:
        span = "(no spread)"
    elif math.isfinite(r.ci_low) and math.isfinite(r.ci_high):
        span = difference_interval(r.ci_low, r.ci_high, digits=k)
    else:
        span = "(no interval)"
    return f"{fixed(100 * r.diff, k, '+')} {span}"


PARQUET_MAGIC = b"PAR1"


def _check_run(run_dir: Path) -> None:
    """Refuse, in one line naming the file, the first problem ``leaves verify`` would find, in
    its order: a path that holds no run (a folder of runs naming them, as verify does), or
    rows without the manifest that vouches for them (exit 2; a run's folder that lost it in
    verify's words); a run that ``leaves report`` refuses (exit 1: its manifest cannot be
    used, or its parts do not match it; a run without rows, said as the report says it,
    before any line of the comparison); then a part without Parquet's magic bytes at both
    ends (a truncated copy lacks the last)."""
    from reports import ReportError
    from reports.loading import load_run
    from tournaments.run_state import shell_word  # start-up: it loads numpy

    from .report_cmd import check_parts, refuse_without_manifest

    if not run_dir.exists():
        raise CLIError(f"run directory not found: {run_dir}", usage=True)
    if not run_dir.is_dir():
        raise CLIError(f"not a run directory: {run_dir} is a file", usage=True)
    refuse_without_manifest(run_dir, "compare one of them")  # as report and verify
    check_parts(run_dir)  # its manifest first: the check of its files reads it
    parts = sorted((run_dir / "games").rglob("*.parquet"))
    if not parts:  # no rows (kept none, or none played yet): reading it says why, at once
        try:
            load_run(run_dir)
        except ReportError as exc:
            raise CLIError.of(exc) from None
    for part in parts:
        with part.open("rb") as f:
            head = f.read(4)
            f.seek(max(part.stat().st_size - 4, 0))
            tail = f.read(4)
        if head != PARQUET_MAGIC or tail != PARQUET_MAGIC:
            check = f"'leaves verify {shell_word(run_dir)}'"
            raise CLIError(f"{part} is not a whole Parquet file (truncated or corrupt): check "
                           f"the run with {check}")  # fmt: skip


def _state_lines(runs: dict[str, Path]) -> list[str]:
    """Where each run stands (unfinished, forfeited: ``tournaments.run_state``, as every
    command that reads a run says it), each line naming its run."""
    from tournaments.run_state import run_state

    states = {name: run_state(run) for name, run in runs.items()}
    return [f"{name} ({runs[name]}): {line}" for name, state in states.items()
            for line in (state.lines() if state is not None else ())]  # fmt: skip


def _echo_head(runs: dict[str, Path], lines: list[str]) -> None:
    """The runs, then where they stand: before any number."""
    click.echo(f"A: {runs['A']}\nB: {runs['B']}")
    for line in lines:
        click.echo(line)


@click.command(name="compare")
@click.argument("run_a", type=FileName(path_type=Path, noun="run directory"))
@click.argument("run_b", type=FileName(path_type=Path, noun="run directory"))
@click.option(
    "--alpha", type=Number(0, 1, exclusive=True), default=0.05, show_default=True,
    help="Significance level.",
)  # fmt: skip
@click.option(
    "--pair", "pairs", multiple=True, metavar="A_LABEL=B_LABEL",
    help="Compare strategy A_LABEL of RUN_A with B_LABEL of RUN_B (repeatable).",
)  # fmt: skip
@click.option(
    "--out", type=FileName(file_okay=False, path_type=Path), default=None,
    help="Write compare.csv (every column, unrounded) into this folder.",
)  # fmt: skip
def compare(run_a: Path, run_b: Path, alpha: float, pairs: tuple[str, ...],
            out: Path | None) -> None:  # fmt: skip
    """Compare two runs of the same strategies (two code versions, parameters or rule sets):
    per strategy both have, its win rate in A and in B and the difference B - A, with 95%
    intervals and Holm-corrected significance; the changes that matter first, in words.

    A strategy whose parameters changed (taker, then taker(harm_weight=0.5)) is compared
    with its old self; --pair names any other two. Runs whose fields differ (a strategy only
    one has) say so first: a strategy's change may then come from the players it met. Runs
    whose deal seeds are the same are paired per duplicate set, which gives a tighter
    interval (both win rates are then over the sets both played, as B - A is); other runs are
    independent, and the output says which, from the seeds. Runs of other games or table
    sizes, or a gauntlet and a tournament, are refused; runs under other rules are compared.
    Games ended by a forfeit are left out (a set holding one is paired, over its other
    games, only where both runs forfeited the same games of it), and a strategy with no
    valid game in a run is not compared: the output says so.

    \b
    Examples:
      leaves compare runs/before runs/after
      leaves compare runs/a runs/b --pair "taker=taker(harm_weight=0.5)"
      leaves compare runs/a runs/b --out cmp/

    \b
    Exit codes:
      0  compared
      1  a run cannot be used (a bad part, a corrupt manifest, no per-game rows
         kept, no valid game: every one ended by a forfeit), no strategy both
         runs have has a valid game in both, or --out cannot be written
      2  bad usage: a path that holds no run (or rows without their
         manifest.json), a bad --pair, or runs that cannot be compared (other
         games, table sizes, a gauntlet and a tournament, no strategy in common)
    """
    from reports import ReportError
    from reports.compare import NotComparable
    from reports.compare import compare as run_compare
    from reports.compare_match import parse_pair

    from .writable import check_writable

    try:
        named = [parse_pair(p) for p in pairs]
    except NotComparable as exc:
        raise CLIError.of(exc, usage=True) from None
    if out is not None:
        check_writable(out)
    for run_dir in (run_a, run_b):
        _check_run(run_dir)
    runs = {"A": run_a, "B": run_b}
    states = _state_lines(runs)
    try:
        c = run_compare(run_a, run_b, alpha=alpha, pairs=named)
    except NotComparable as exc:
        raise CLIError.of(exc, usage=True) from None
    except ReportError as exc:  # e.g. no valid game to compare: said after where runs stand
        _echo_head(runs, states)
        raise CLIError.of(exc) from None
    if out is not None:  # before any line: output cut short (| head) must not lose it
        try:
            out.mkdir(parents=True, exist_ok=True)
            c.table.to_csv(out / "compare.csv", index=False)
        except OSError as exc:
            raise CLIError(f"cannot write {out / 'compare.csv'}: {exc.strerror or exc}") from None
    _echo_head(runs, states)
    _print(c, alpha)
    if out is not None:
        click.echo(f"table in {out / 'compare.csv'}")


def _print(c, alpha: float = 0.05) -> None:
    """The findings in words, then the table (its p-values read against ``alpha``)."""
    from reports.compare import holm_column  # start-up: pandas
    from reports.numbers import PERCENTAGE_POINTS

    from .plain_table import print_table

    for line in c.findings:
        click.echo(line)
    columns = [("strategy", "left"), ("A %", "right"), ("B %", "right"),
               ("B - A [95%]", "right"), ("Holm p", "right"), ("sig", "left")]  # fmt: skip
    rows = [
        [str(r.strategy), _rate(r.win_rate_a, r.ci_low_a, r.ci_high_a),
         _rate(r.win_rate_b, r.ci_low_b, r.ci_high_b),
         _change(r),
         p, "yes" if r.significant else "no"]
        for r, p in zip(c.table.itertuples(), holm_column(c.table, alpha), strict=True)
    ]  # fmt: skip
    print_table(f"Win rates in % (95% intervals rounded outward) and B - A in {PERCENTAGE_POINTS}",
                columns, rows)  # fmt: skip
