"""A game plug-in at the command line: a declaration a run cannot use is refused when
``--game`` loads it, before anything is announced or created; a fault of the plug-in's own
code is one line that names it (exit 1), never the bare key of a KeyError; a Python warning
raised while a command runs is one ``leaves: warning:`` line, without Python's path and source
line."""

from __future__ import annotations

import importlib
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.toygame import ToyGame


class NoRank(ToyGame):
    rank_value = None


class LengthColumnsOnly(ToyGame):
    """The length declared by ``length_columns`` alone: the runner reads ``length_value``."""

    length_columns = ("steps",)
    length_value = None


class RankElsewhere(ToyGame):
    rank_value = "nothere"


class LooksUpAMissingKey(ToyGame):
    def play(self, *args: Any, **kwargs: Any) -> Any:
        raise KeyError("score")


@pytest.fixture
def cli(monkeypatch, capsys):
    """``leaves ARGS`` in this process: (exit code, stdout, stderr)."""
    from leaves_cli.main import main

    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")
    monkeypatch.setenv("COLUMNS", "200")

    def run(*args: str) -> tuple[int, str, str]:
        code = 0
        try:
            main(list(args))  # a command that succeeds returns
        except SystemExit as stop:
            code = stop.code or 0
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.mark.parametrize(
    ("game", "why"),
    [
        ("NoRank", "the game declaration's rank_value is None, expected text"),
        ("LengthColumnsOnly", "the game declaration's length_value is None, expected text"),
        ("RankElsewhere", "the game declaration's rank_value names 'nothere', not one of its "
                          "seat_columns ('points', 'bonus')"),
    ],
)  # fmt: skip
def test_a_bad_declaration_is_refused_before_the_run_is_announced(cli, tmp_path, game, why):
    out = tmp_path / "run"
    spec = f"{__name__}:{game}"
    code, said, err = cli("tournament", "--game", spec, "a", "b", "--players", "2",
                          "--games", "20", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert (code, said) == (2, "")
    assert err == f"leaves: error: --game: game {spec!r}: {why}\n"
    assert not out.exists()


def test_every_game_here_passes_the_declaration_check():
    from tournaments.declaration import declared
    from tournaments.games import game_names, get_game

    for name in game_names():
        assert declared(get_game(name)).name == name
    assert declared(ToyGame()).name == "toy"


@pytest.mark.parametrize(
    ("game", "why"),
    [
        (ToyGame, None),
        (type("Ok", (ToyGame,), {"match_score": "bonus", "mean_columns": ()}), None),
        (type("Score", (ToyGame,), {"match_score": "x"}), "match_score names 'x'"),
        (type("Mean", (ToyGame,), {"mean_columns": ("points", "x")}), "mean_columns names 'x'"),
        (type("Len", (ToyGame,), {"length_value": "x"}), "length_value names 'x'"),
        (type("Cols", (ToyGame,), {"length_columns": ("tied", "steps")}),
         "length_columns ('tied', 'steps') do not start with its length_value 'steps'"),
        (type("Share", (ToyGame,), {"share_columns": {"x": "y"}}), "share_columns names 'x'"),
        (type("Lim", (ToyGame,), {"limits": "a or b",
                                  "limit_columns": {"a": ("x", 3), "b": None}}),
         "limit_columns names 'x'"),
        (type("Seats", (ToyGame,), {"seat_columns": ()}), "seat_columns is empty"),
        (type("Min", (ToyGame,), {"min_players": 0}), "min_players 0 and max_players 8"),
        (type("Max", (ToyGame,), {"min_players": 3, "max_players": 2}),
         "min_players 3 and max_players 2 are not in 1..12"),
    ],
)  # fmt: skip
def test_the_declaration_check_names_each_column_a_run_looks_up(game, why):
    from tournaments.declaration import declared

    if why is None:
        assert declared(game()).name == "toy"
        return
    with pytest.raises(ValueError) as refused:
        declared(game())
    assert why in str(refused.value) and "\n" not in str(refused.value)


def test_a_declaration_field_not_set_is_named():
    from tournaments.declaration import declared

    class Bare:
        name = "bare"

    with pytest.raises(ValueError, match="^the game declaration lacks title$"):
        declared(Bare())


def test_a_key_error_inside_a_plugin_is_said_as_one_and_exits_1(cli, tmp_path):
    spec = f"{__name__}:LooksUpAMissingKey"
    code, _, err = cli("tournament", "--game", spec, "a", "b", "--players", "2",
                       "--games", "20", "--jobs", "1", "--out", str(tmp_path / "run"))  # fmt: skip
    errors = [line for line in err.splitlines() if line.startswith("leaves: error:")]
    assert code == 1 and len(errors) == 1, err
    assert "KeyError: 'score'" in errors[0] and errors[0] != "leaves: error: 'score'"
    assert err.endswith(errors[0] + "\n")  # the last line, one line


def test_a_key_error_is_never_said_as_its_bare_key():
    from leaves_cli.errors import CLIError, worded

    assert worded(KeyError("score")) == "KeyError: 'score'"
    assert CLIError.of(KeyError("score")).format_message() == "KeyError: 'score'"
    assert worded(ValueError("bad")) == "bad"


def test_an_error_that_is_no_bad_usage_is_its_own_line_exit_1(cli, monkeypatch):
    entry = importlib.import_module("leaves_cli.main")  # the package names its function main

    class Fault(RuntimeError):
        usage_error = False

        def __str__(self) -> str:
            return "game nim: play() raised KeyError: 'score'"

    def fails(**kwargs: Any) -> None:
        raise Fault

    monkeypatch.setattr(entry.cli, "main", fails)
    assert cli("strategies") == (1, "", "leaves: error: game nim: play() raised KeyError: "
                                        "'score'\n")  # fmt: skip


def test_a_warning_is_one_line_without_path_or_source(cli, monkeypatch):
    from strategies import registry

    class Broken:
        value = "mypkg.nothere:X"

        def load(self) -> Any:
            raise ModuleNotFoundError("No module named 'mypkg'")

    monkeypatch.setattr(registry, "_entry_points", lambda game="leaves": {"broken": Broken()})
    code, said, err = cli("strategies", "--filter", "stochastic=false", "--names")
    assert code == 0 and "broken" not in said.split() and said.split()
    assert err == ("leaves: warning: cannot load strategy 'broken' from entry point "
                   "'mypkg.nothere:X': ModuleNotFoundError: No module named 'mypkg'\n")  # fmt: skip


def test_a_warning_of_another_kind_is_named_and_on_one_line(cli, monkeypatch):
    import warnings

    entry = importlib.import_module("leaves_cli.main")  # the package names its function main

    def warns(**kwargs: Any) -> None:
        warnings.warn("invalid value\nencountered", RuntimeWarning, stacklevel=1)

    monkeypatch.setattr(entry.cli, "main", warns)
    assert cli("strategies") == (0, "", "leaves: warning: RuntimeWarning: invalid value "
                                        "encountered\n")  # fmt: skip


def test_a_games_commands_that_cannot_load_are_worded_without_a_stray_quote(monkeypatch, capsys):
    from leaves_cli import game_commands as gc

    class Broken:
        name, value = "broken", "no_such_module_of_commands"

    monkeypatch.setattr(gc.importlib.metadata, "entry_points", lambda group=None: [Broken()])
    gc.game_commands.cache_clear()
    try:
        assert gc.game_commands(frozenset({"report"})) == ()
    finally:
        gc.game_commands.cache_clear()  # the installed games' again for the other tests
    assert capsys.readouterr().err == (
        "leaves: warning: the commands of game 'broken' cannot load: "
        "No module named 'no_such_module_of_commands'\n"
    )


ARCHITECTURE = Path(__file__).resolve().parents[1] / "docs" / "architecture.md"


def _architecture() -> str:
    return " ".join(ARCHITECTURE.read_text(encoding="utf-8").split())


def test_the_refusal_architecture_md_quotes_is_the_one_said(cli, tmp_path):
    quoted = re.search(r'refuses a bad one in one line \("(--game: game \'mygame:Game\'[^"]*)", '
                       r"exit code (\d)\)", _architecture())  # fmt: skip
    assert quoted, "docs/architecture.md no longer quotes the refusal of a bad declaration"
    spec = f"{__name__}:NoRank"
    code, _, err = cli("tournament", "--game", spec, "a", "b", "--players", "2",
                       "--games", "20", "--out", str(tmp_path / "run"))  # fmt: skip
    line = quoted[1].replace("'mygame:Game'", repr(spec))
    assert (code, err) == (int(quoted[2]), f"leaves: error: {line}\n")


class WinnerBehind:
    """Its winner is the seat with the most cards left: not the best rank value (Climb's is
    lower, ``cards_left``)."""

    def play(self, seats, deal_seeds, play_seeds, record=False):
        b = super().play(seats, deal_seeds, play_seeds, record)
        worst = np.asarray(b.seat_values["cards_left"]).argmax(axis=1)
        b.winner_seat = np.where(np.asarray(b.winner_seat) >= 0, worst, -1).astype(np.int8)
        return b


def test_check_game_fails_a_winner_without_the_best_rank_value_as_the_docs_say(monkeypatch):
    from tournaments import games
    from tournaments.testing import check_game

    assert "a game's winner (`winner_seat`) holds the best rank value at its table" in (
        _architecture()
    )
    quoted = re.search(r"\(\"game 0('s winner has not the best) taken\"", _architecture())
    assert quoted, "docs/architecture.md no longer quotes check_game's line"
    monkeypatch.syspath_prepend(str(Path(__file__).resolve().parent / "plugins"))
    games._entry_points.cache_clear()
    from climb.plugin import ClimbGame

    name = "ClimbWinnerBehind"
    behind = type(name, (WinnerBehind, ClimbGame), {"__module__": __name__, "__qualname__": name})
    monkeypatch.setitem(globals(), name, behind)  # pickle finds it here, as a worker would
    try:
        with pytest.raises(AssertionError, match=rf"game \d+{quoted[1]} cards_left$"):
            check_game(behind, games=16, matches=4, players=2)
    finally:
        games._entry_points.cache_clear()


def test_a_game_declaring_its_length_by_length_columns_alone_is_refused_as_the_docs_say():
    from tournaments.declaration import declared

    assert "set it, not `length_columns`, which `GameBase` builds from it" in _architecture()
    assert declared(ToyGame()).length_columns == ("steps",)  # built from length_value
    with pytest.raises(ValueError, match="length_value is None"):
        declared(LengthColumnsOnly())
