"""``leaves strategies --game`` takes what ``leaves tournament --game`` takes: a game given as
``module:Class`` lists the strategies the registry keeps under the game's name (the spec
went to the registry, which refused it as an unknown game, offering the registries' names as
the games to choose). A game
that declares no registry is said in one line; the help names both forms of --game."""

from __future__ import annotations

from pathlib import Path

import pytest

from tournaments import games

from .helpers import cli, forget_loaded_files  # noqa: F401  (a fixture, used by name)

SOMETIMES = Path(__file__).with_name("sometimes_strategy.py")  # a Ligretto class, no name


def _names(capsys, *args: str) -> list[str]:
    code, out, err = cli(capsys, "strategies", "--names", *args)
    assert (code, err) == (0, ""), err
    return out.split()


@pytest.mark.usefixtures("forget_loaded_files")
def test_a_game_given_as_module_class_lists_its_strategies_and_files(capsys):
    named = _names(capsys, "--game", "ligretto")
    assert named and _names(capsys, "--game", "ligretto.plugin:LigrettoGame") == named
    loaded = _names(capsys, "--game", "ligretto.plugin:LigrettoGame", "--load", str(SOMETIMES),
                    "--filter", "stochastic=false")  # fmt: skip
    assert f"{SOMETIMES}:Sometimes" in loaded


def test_a_game_that_declares_no_registry_is_said_in_one_line(capsys):
    code, out, err = cli(capsys, "strategies", "--game", "tests.toygame:ToyGame")
    assert code == 1 and out == ""
    assert err == ("leaves: error: Toy declares no strategy registry (strategies.declare_game): "
                   "it has no strategies to list\n")  # fmt: skip


def test_the_help_names_the_games_and_module_class(capsys):
    code, out, _ = cli(capsys, "strategies", "--help")
    said = " ".join(out.split())
    assert code == 0
    assert f"an installed game's id ({', '.join(games.game_names())}) or module:Class" in said
