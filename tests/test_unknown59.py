"""A strategy name that no strategy of the game played has, but another installed game's does:
one message, the registry's, says whose strategy it is and how to ask for that game, on every
command path that resolves names (and a misspelt name of no game keeps its suggestion)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.helpers import cli

CLI_WORDS = "commands that take --game play it with --game"


def _truth(name: str, game: str) -> str:
    """The game that has ``name`` among the installed games other than ``game`` (the truth,
    from the registries themselves)."""
    from strategies import registry
    from tournaments.games import game_names

    (owner,) = [g for g in game_names() if g != game and name in registry.names(g)]
    assert name not in registry.names(game)
    return owner


def _said(name: str, game: str, *, flag: bool = True) -> str:
    from strategies import registry

    owner = _truth(name, game)
    ask = f"{CLI_WORDS} {owner}" if flag else f"pass game={owner!r} to play it"
    return (f"unknown strategy {name!r}: it is a {registry.title(owner)} strategy, not a "
            f"{registry.title(game)} one; {ask}")  # fmt: skip


# --- the registry: one message for every caller ------------------------------------------


def test_the_registry_says_whose_strategy_a_name_is_through_the_api():
    import strategies
    from strategies.registry import OtherGameStrategy

    with pytest.raises(OtherGameStrategy) as exc:
        strategies.get("stack")
    assert str(exc.value) == _said("stack", "leaves", flag=False)
    assert (exc.value.name, exc.value.game, exc.value.owners) == ("stack", "leaves", ("ligretto",))
    with pytest.raises(OtherGameStrategy) as exc:
        strategies.get("weighted", game="ligretto")
    assert str(exc.value) == _said("weighted", "ligretto", flag=False)


def test_a_misspelt_name_of_no_game_keeps_its_suggestion_through_the_api():
    import strategies
    from strategies.registry import OtherGameStrategy

    with pytest.raises(ValueError, match=r"did you mean 'taker'\?") as exc:
        strategies.get("stak")
    assert not isinstance(exc.value, OtherGameStrategy)


def test_other_games_registries_load_only_on_the_error_path():
    """A run of known names never loads another game's players; an unknown name does, to say
    whose it is (checked in fresh processes: this one has loaded every game)."""
    code = (
        "import sys, strategies\n"
        "strategies.get('greedy'); strategies.get('low')\n"
        "print('ligretto.players' in sys.modules)\n"
        "try:\n"
        "    strategies.get('stack')\n"
        "except ValueError:\n"
        "    print('ligretto.players' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]


@pytest.mark.slow
def test_a_tournament_of_known_names_loads_no_other_games_players(tmp_path):
    args = ["tournament", "greedy", "low", "--players", "3", "--games", "10", "--out",
            str(tmp_path / "t")]  # fmt: skip
    code = f"import sys; from leaves_cli.main import main\ntry:\n    main({args!r})\n" \
           "except SystemExit:\n    pass\nprint('ligretto.players' in sys.modules)"  # fmt: skip
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split()[-1] == "False", out.stderr


# --- every command path that resolves names ----------------------------------------------


def _error(capsys, *args: str) -> str:
    code, _, err = cli(capsys, *args)
    assert code == 2, err
    return err.strip().removeprefix("leaves: error: ")


def test_tournament_says_whose_strategy(capsys, tmp_path):
    err = _error(capsys, "tournament", "stack", "row", "--players", "2", "--games", "10",
                 "--out", str(tmp_path / "t"))  # fmt: skip
    assert err == _said("stack", "leaves")
    assert not (tmp_path / "t").exists()


def test_tournament_of_the_other_game_says_whose_strategy(capsys, tmp_path):
    err = _error(capsys, "tournament", "--game", "ligretto", "weighted", "stack", "--players",
                 "2", "--games", "10", "--out", str(tmp_path / "t"))  # fmt: skip
    assert err == _said("weighted", "ligretto")


@pytest.mark.parametrize("where", ["spec", "--against", "--baseline"])
def test_gauntlet_says_whose_strategy(capsys, tmp_path, where):
    spec, against, baseline = {"spec": ("stack", "greedy", "low"),
                               "--against": ("greedy", "stack", "low"),
                               "--baseline": ("greedy", "low", "stack")}[where]  # fmt: skip
    err = _error(capsys, "gauntlet", spec, "--against", against, "--baseline", baseline,
                 "--players", "3", "--games", "10", "--out", str(tmp_path / "g"))  # fmt: skip
    assert err == _said("stack", "leaves")


def test_gauntlet_of_the_other_game_says_whose_strategy(capsys, tmp_path):
    err = _error(capsys, "gauntlet", "--game", "ligretto", "stack", "--against", "weighted",
                 "--players", "2", "--games", "10", "--out", str(tmp_path / "g"))  # fmt: skip
    assert err == _said("weighted", "ligretto")


def test_variants_says_whose_strategy(capsys, tmp_path):
    """variants plays 13 Leaves only: the words claim --game of commands that take it."""
    err = _error(capsys, "variants", "greedy", "stack", "--rules", "hand_size=9", "--games",
                 "10", "--out", str(tmp_path / "v"))  # fmt: skip
    assert err == _said("stack", "leaves")


def test_play_says_whose_strategy(capsys):
    err = _error(capsys, "play", "--against", "stack", "--seed", "1")
    assert err.startswith("--against: unknown strategy 'stack': it is a Ligretto strategy, "
                          "not a 13 Leaves one; "), err  # fmt: skip
    assert "taker" not in err
    assert "game=" not in err and "--game ligretto" in err, err  # the command line's words


@pytest.mark.parametrize("args", [["stack", "--against", "greedy"],
                                  ["weighted", "--against", "greedy,row"]])  # fmt: skip
def test_tune_says_whose_strategy_in_the_registrys_words(capsys, tmp_path, args):
    """tune plays 13 Leaves only: the registry's words for the strategy, then tune's own."""
    name = args[0] if args[0] == "stack" else "row"
    head = _said(name, "leaves").split(", not a ")[0]
    err = _error(capsys, "tune", *args, "--out", str(tmp_path / "t"))
    assert err == (f"{head}, and leaves tune plays 13 Leaves only; commands that take --game "
                   "ligretto: leaves bench, leaves gauntlet, leaves strategies, leaves "
                   "tournament")  # fmt: skip


# --- the Python API's match target, in the game's words ----------------------------------


def test_a_target_below_one_point_is_refused_in_the_games_unit():
    from gamekit.errors import ParameterError
    from tournaments import Tournament
    from tournaments.games import get_game

    game = get_game("ligretto")
    assert game.match_unit == "game"
    with pytest.raises(ParameterError) as exc:
        Tournament(["stack", "row"], players=2, games=10, game=game, target=0)
    assert str(exc.value) == "target 0: a game runs to at least 1 point"
    assert exc.value.worded({"target": "--target"}) == "--target 0: a game runs to at least 1 point"
    with pytest.raises(ParameterError, match=r"^target 0: a match runs to at least 1 point$"):
        Tournament(["greedy", "low"], players=3, games=10, expert=True, target=0)
