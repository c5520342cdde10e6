"""Every example ``leaves --help`` and each command's help print is a command the CLI accepts:
each line's command exists and its options and arguments parse (nothing is run). A game's
table of commands that cannot load is left out, the other commands still listed."""

from __future__ import annotations

import shlex

import click
import pytest

from leaves_cli.main import all_commands, cli, games


def _examples() -> list[str]:
    """The example lines of the group's help and of every installed game's table."""
    lines = [ln.strip() for ln in (cli.help or "").splitlines()]
    shared = [ln for ln in lines if ln.startswith("leaves ") and "_LEAVES_COMPLETE" not in ln]
    return shared + [ln for game in games() for ln in game.examples]


def _args(line: str) -> list[str]:
    words = shlex.split(line.split("#", 1)[0].split("|", 1)[0])  # the command, not a pipe
    assert words[0] == "leaves", line
    return words[1:]


def test_there_are_examples_of_the_shared_commands_and_of_each_game():
    assert len(_examples()) >= 10
    assert all(game.examples for game in games())


@pytest.mark.parametrize("line", _examples())
def test_an_example_parses(line):
    name, *args = _args(line)
    assert name in all_commands(), f"{line}: no command {name!r}"
    command = cli.get_command(click.Context(cli), name)
    with command.make_context(name, args) as ctx:  # raises on an unknown option or bad value
        assert ctx.params is not None


def _command_examples() -> list[str]:
    """The example lines of every command's own help (a line ending in '\\' goes on)."""
    found = []
    for name in all_commands():
        command = cli.get_command(click.Context(cli), name)
        text, line = command.help or "", ""
        for raw in text.splitlines():
            part = raw.strip()
            if line:
                line = f"{line[:-1].rstrip()} {part}"
            elif part.startswith("leaves "):
                line = part
            if line and not line.endswith("\\"):
                found.append(line)
                line = ""
    return found


@pytest.mark.parametrize("line", _command_examples())
def test_a_commands_example_parses(line):
    test_an_example_parses(line)


def test_a_games_table_that_cannot_load_is_left_out_with_a_warning(monkeypatch, capsys):
    from leaves_cli import game_commands as gc

    class Broken:
        name, value = "broken", "no_such_module_of_commands"

    monkeypatch.setattr(gc.importlib.metadata, "entry_points", lambda group=None: [Broken()])
    gc.game_commands.cache_clear()
    try:
        assert gc.game_commands(frozenset({"report"})) == ()
    finally:
        gc.game_commands.cache_clear()  # the installed games' again for the other tests
    err = capsys.readouterr().err
    assert err.startswith(
        "leaves: warning: the commands of game 'broken' cannot load: No module named"
    )
