"""``leaves compare RUN_A RUN_B``: what changed for each strategy between two runs."""

from __future__ import annotations

from pathlib import Path

import click

from .errors import CLIError


def _rate(x: float, lo: float, hi: float) -> str:
    """A win rate and its 95% interval's half-width, in points ("32.9+-4.3")."""
    if x != x:
        return "n/a"
    return f"{100 * x:.1f}" + ("" if lo != lo else f"+-{100 * (hi - lo) / 2:.1f}")


def _span(lo: float, hi: float, sign: str = "") -> str:
    if lo != lo or hi != hi:
        return "n/a"
    return f"{100 * lo:{sign}.1f} to {100 * hi:{sign}.1f}"


def _p(p: float) -> str:
    return "n/a" if p != p else (f"{p:.3f}" if p >= 0.001 else "<0.001")


@click.command(name="compare")
@click.argument("run_a", type=click.Path(path_type=Path))
@click.argument("run_b", type=click.Path(path_type=Path))
@click.option("--alpha", type=float, default=0.05, show_default=True, help="Significance level.")
@click.option(
    "--out", type=click.Path(file_okay=False, path_type=Path), default=None,
    help="Write compare.csv (every column, unrounded) into this folder.",
)  # fmt: skip
def compare(run_a: Path, run_b: Path, alpha: float, out: Path | None) -> None:
    """Compare two runs of the same strategies (two code versions, parameters or rule sets):
    per strategy both have, its win rate in A and in B and the difference B - A, with 95%
    intervals and Holm-corrected significance; the changes that matter first, in words.

    Runs that played the same deals (same seed, tables, seatings and deal streams) are paired
    per duplicate set, which gives a much tighter interval; other runs are independent.

    \b
    Examples:
      leaves compare runs/before runs/after
      leaves compare runs/a runs/b --out cmp/
    """
    if not 0 < alpha < 1:
        raise CLIError(f"--alpha must be between 0 and 1, got {alpha}", usage=True)
    from reports import ReportError
    from reports.compare import compare as run_compare

    try:
        c = run_compare(run_a, run_b, alpha=alpha)
    except ReportError as exc:
        raise CLIError(str(exc), usage=True) from None
    click.echo(f"A: {c.a}\nB: {c.b}")
    for line in c.findings:
        click.echo(line)
    from .plain_table import print_table

    columns = [("strategy", "left"), ("A %", "right"), ("B %", "right"), ("B - A", "right"),
               ("95% interval", "right"), ("Holm p", "right"), ("sig", "left")]  # fmt: skip
    rows = [
        [str(r.strategy), _rate(r.win_rate_a, r.ci_low_a, r.ci_high_a),
         _rate(r.win_rate_b, r.ci_low_b, r.ci_high_b), f"{100 * r.diff:+.1f}",
         _span(r.ci_low, r.ci_high, "+"), _p(r.p_holm), "yes" if r.significant else "no"]
        for r in c.table.itertuples()
    ]  # fmt: skip
    print_table("Win rates (points, 95% half-width) and B - A", columns, rows)
    if out is not None:
        from .writable import check_writable

        check_writable(out)
        out.mkdir(parents=True, exist_ok=True)
        c.table.to_csv(out / "compare.csv", index=False)
        click.echo(f"table in {out / 'compare.csv'}")
