"""docs/cli.md's command table as a user reads it beside ``--help``: every flag a command
takes, short ones included (``-n`` is ``--players`` in one command and ``--games`` in
another), is named in its row; a synopsis brackets what may be left out and shows a table
size list where ``--players`` takes one; the page names ``-h`` as ``--help``."""

from __future__ import annotations

import re

import click
import pytest

from leaves_cli.main import all_commands, cli

from .helpers import doc_page
from .test_edge68_help_width import _row

REQUIRED_WITHOUT_CLICK = {("tournament", "--out")}
"""Options the command refuses to go without though click does not require them: a
tournament's ``--out`` (which a ``--config`` file may give instead)."""


def _command(name: str) -> click.Command:
    return cli.get_command(click.Context(cli), name)


def _named(flag: str, text: str) -> bool:
    """``flag`` appears in ``text`` as a flag of its own (not inside ``--players-x``)."""
    return re.search(r"(?<![\w-])" + re.escape(flag) + r"(?![\w-])", text) is not None


def _options(name: str) -> list[click.Option]:
    return [p for p in _command(name).params if isinstance(p, click.Option) and not p.hidden]


def _synopsis(name: str) -> str:
    """The first code span of the command's row: its usage line."""
    return re.match(r"\| `([^`]*)`", _row(name))[1]


def _depths(text: str) -> list[int]:
    """How deep in ``[...]`` each character of ``text`` stands."""
    depth, out = 0, []
    for char in text:
        depth += char == "["
        out.append(depth)
        depth -= char == "]"
    return out


@pytest.mark.parametrize("name", sorted(all_commands()))
def test_every_flag_short_ones_included_is_in_the_commands_row(name):
    row = _row(name)
    missing = [
        flag
        for p in _options(name)
        for flag in p.opts  # a switch's pair (--rows/--no-rows): either names it
        if not _named(flag, row) and not any(_named(f, row) for f in p.secondary_opts)
    ]
    assert not missing, f"docs/cli.md's row of leaves {name} leaves out {missing}"


@pytest.mark.parametrize("name", sorted(all_commands()))
def test_a_synopsis_brackets_every_option_that_may_be_left_out(name):
    synopsis = _synopsis(name)
    depths = _depths(synopsis)
    bare = []
    for p in _options(name):
        if p.required or p.is_flag or (name, p.opts[-1]) in REQUIRED_WITHOUT_CLICK:
            continue
        for flag in (f for f in p.opts if f.startswith("--")):
            spots = [m.start() for m in re.finditer(r"(?<![\w-])" + re.escape(flag) +
                                                    r"(?![\w-])", synopsis)]  # fmt: skip
            bare += [flag for at in spots[:1] if depths[at] == 0]
    assert not bare, f"docs/cli.md's usage of leaves {name} shows {bare} as required"


@pytest.mark.parametrize("name", sorted(all_commands()))
def test_players_that_takes_table_sizes_shows_a_list_in_the_synopsis(name):
    players = next((p for p in _options(name) if "--players" in p.opts), None)
    if players is None or '"3,4,5"' not in (players.help or ""):
        return  # one table size: N is what it takes
    assert "--players N[,N...]" in _synopsis(name)


def test_the_page_names_the_short_help_flag():
    names = cli.context_settings["help_option_names"]  # every command inherits them
    assert "-h" in names
    assert all(f"`{n}`" in doc_page("cli.md") for n in names)
