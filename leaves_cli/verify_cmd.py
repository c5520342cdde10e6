"""``leaves verify``: check a run directory's files against its manifest, changing nothing."""

from __future__ import annotations

from pathlib import Path

import click

from .errors import CLIError

RESUME_HINT = "rerun the same 'leaves tournament' command with --resume to replay them"


def bad_run_message(run_dir: Path, problems: list) -> str:
    """One line naming the first bad file of a run and what to do (shared with ``report``)."""
    first = problems[0]
    others = f" (and {len(problems) - 1} more: 'leaves verify {run_dir}' lists them)"
    return (
        f"{run_dir / first.path} is bad: {first.reason}"
        f"{others if len(problems) > 1 else ''}; {RESUME_HINT}"
    )


@click.command("verify")
@click.argument("run_dir", type=click.Path(path_type=Path))
def verify(run_dir: Path) -> None:
    """Check a tournament run: every file of every finished chunk against the size and
    checksum its manifest recorded, the merged files of a finished run, and files that do not
    belong to the run. Changes nothing.

    Exit code 0 when every file checks out (an unfinished run is fine: --resume finishes it);
    1 with the list of bad files (missing, truncated, corrupt, or copied from another run).

    \b
    Examples:
      leaves verify runs/a
      leaves verify runs/a || leaves tournament ... --out runs/a --resume
    """
    from tournaments.verify import verify_run

    if not run_dir.exists():
        raise CLIError(f"run directory not found: {run_dir}", usage=True)
    if not run_dir.is_dir():
        raise CLIError(f"not a run directory: {run_dir}", usage=True)
    result = verify_run(run_dir)
    if not result.ok:
        for problem in result.problems:
            click.echo(f"bad: {run_dir / problem.path}: {problem.reason}")
        n = len(result.problems)
        raise CLIError(f"{n} bad file(s) in {run_dir}: {RESUME_HINT}")
    state = "complete" if result.complete else "unfinished (--resume finishes it)"
    click.echo(
        f"ok: {len(result.done)} of {result.n_chunks} chunks verified "
        f"({result.files_checked} files); run {state}"
    )
