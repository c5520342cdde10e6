"""Every ``--help`` as a user reads it in an 80-column terminal: no line wider than 80 (the
terminal would break it mid-word; a ``\\b`` block of examples or exit codes is printed as
written, never rewrapped), and every option a command's help lists has its place in that
command's row of docs/cli.md."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from leaves_cli.main import all_commands, cli

WIDTH = 80
DOCS = Path(__file__).resolve().parents[1] / "docs" / "cli.md"


def _command(name: str) -> click.Command:
    return cli.get_command(click.Context(cli), name)


def _help(args: list[str], monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("COLUMNS", str(WIDTH))
    result = CliRunner().invoke(cli, [*args, "--help"], terminal_width=WIDTH)
    assert result.exit_code == 0, result.output
    return result.output


@pytest.mark.parametrize("name", ["", *sorted(all_commands())])
def test_a_help_fits_80_columns(name, monkeypatch):
    text = _help([name] if name else [], monkeypatch)
    wide = [f"{len(line)}: {line}" for line in text.splitlines() if len(line) > WIDTH]
    assert not wide, "\n".join(wide)


def _row(name: str) -> str:
    """The row of docs/cli.md's command table that documents ``leaves NAME``."""
    rows = [ln for ln in DOCS.read_text(encoding="utf-8").splitlines()
            if ln.startswith(f"| `leaves {name} ") or ln.startswith(f"| `leaves {name}`")]  # fmt: skip
    assert len(rows) == 1, f"docs/cli.md has {len(rows)} rows for leaves {name}"
    return rows[0]


def _listed(command: click.Command) -> list[list[str]]:
    """The long flags of each option the command's help lists (hidden ones are not): a
    switch's two (``--rows/--no-rows``) together, either one naming it."""
    return [[f for f in [*param.opts, *param.secondary_opts] if f.startswith("--")]
            for param in command.params
            if isinstance(param, click.Option) and not param.hidden and param.name != "help"]  # fmt: skip


def _named(flag: str, row: str) -> bool:
    return re.search(re.escape(flag) + r"(?![\w-])", row) is not None


@pytest.mark.parametrize("name", sorted(all_commands()))
def test_every_option_a_help_lists_is_in_the_commands_docs_row(name):
    row = _row(name)
    missing = [f[0] for f in _listed(_command(name)) if not any(_named(x, row) for x in f)]
    assert not missing, f"docs/cli.md's row of leaves {name} leaves out {missing}"
