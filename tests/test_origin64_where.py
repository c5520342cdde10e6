"""Where an option's value came from is worked out by one rule (``leaves_cli.origins``): its
flag typed, its key in the config file, or neither; a key the file gives and the command line
types again is the flag's, and every line names it so."""

from __future__ import annotations

import click
import pytest

from leaves_cli.origins import DEFAULT, FILE, FLAG, in_file, origin
from tests.helpers import precision_config_refusal


def _context(args: list[str]) -> click.Context:
    command = click.Command("c", params=[click.Option(["--games"]), click.Option(["--jobs"])])
    return command.make_context("c", args)


def test_a_value_is_the_typed_flags_the_files_or_neithers():
    ctx = _context(["--games", "3"])
    filed = {"from_config": frozenset({"jobs"})}
    assert origin(filed, "games", ctx) == FLAG
    assert origin(filed, "jobs", ctx) == FILE
    assert origin({}, "jobs", ctx) == DEFAULT
    assert origin({}, "games") == DEFAULT  # no command running: nothing was typed
    with ctx:  # the command running is asked where none is handed in
        assert origin({}, "games") == FLAG


def test_a_files_value_beside_a_typed_flag_is_named_by_its_key_in_the_file():
    assert in_file("max_games", "c.toml") == "max_games in c.toml"


@pytest.mark.parametrize(
    ("config", "args", "said"),
    [
        ("max_games = 100\ngames = 200\n", ["--max-games", "50"],
         "--max-games (50) must be at least games in {c} (200)"),
        ("max_games = 100\ngames = 200\n", ["--games", "300"],
         "max_games in {c} (100) must be at least --games (300)"),
        ("jobs = 0\n", ["--jobs", "0"], "--jobs must be a positive number (or -1), got 0"),
        ("jobs = 0\n", [], "{c}: jobs must be a positive number (or -1), got 0"),
    ],
)  # fmt: skip
def test_a_key_in_the_file_typed_again_is_named_by_its_flag(
    tmp_path, capsys, monkeypatch, config, args, said
):
    monkeypatch.setenv("COLUMNS", "200")
    refused = precision_config_refusal(capsys, tmp_path, config, *args)
    assert refused == "leaves: error: " + said
