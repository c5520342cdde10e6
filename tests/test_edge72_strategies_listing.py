"""``leaves strategies`` listed a registered strategy that no use would play as a plain row: a
class registered in Python (``strategies.register``), by a loaded file's ``name``, or through
the game's entry-point group, whose constructor raises, that skips a built-in's
``super().__init__()``, or that the game's own check refuses (a Ligretto ``decide`` that is no
method, a reaction that is no reaction-time model), while ``leaves tournament`` refused it
before its first game. Each is now tagged ``(cannot play: WHY)`` in the use's words, as a
``--load`` file's unregistered class is, and with ``--filter`` warned about and left out. The
game's own strategies are trusted, not built: the listing costs what it did."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import strategies
from leaves_cli import strategies_cmd
from ligretto.players import LigrettoStrategy
from strategies import Strategy, registry
from tests.helpers import cli, forget_loaded_files, one_error_line  # noqa: F401 - a fixture

pytestmark = pytest.mark.usefixtures("forget_loaded_files")

TAG = "(cannot play: "
GREEDY = type(strategies.get("greedy"))


class Boom(Strategy, register=False):
    description = "raises as it is built"

    def __init__(self, x: int = 1):
        raise RuntimeError("no table today")

    def choose(self, view, legal, rng):
        return legal[0]


class NoSuper(GREEDY, register=False):
    def __init__(self, x: int = 1):
        self.x = x


class Fine(Strategy, register=False):
    description = "plays its first legal action"

    def choose(self, view, legal, rng):
        return legal[0]


class EpBoom(Boom, register=False):
    """``Boom`` installed as an entry point (a class of its own: a name is kept on the class)."""


class EpFine(Fine, register=False):
    """``Fine`` installed as an entry point."""


class BadReaction(LigrettoStrategy, register=False):
    reaction = object()

    def decide(self, view, rng):
        raise AssertionError("never asked: refused before a round")


class NoDecide(LigrettoStrategy, register=False):
    pass


class EntryPoint:
    """An installed entry point, as ``importlib.metadata`` gives it, loading ``cls``."""

    def __init__(self, cls: type) -> None:
        self.cls, self.value = cls, f"{__name__}:{cls.__qualname__}"

    def load(self) -> Any:
        return self.cls


IN_PYTHON = {"leaves": {"edge72_boom": Boom, "edge72_nosuper": NoSuper, "edge72_fine": Fine},
             "ligretto": {"edge72_badreaction": BadReaction}}  # fmt: skip
PLUGGED = {"leaves": {"edge72_ep_boom": EpBoom, "edge72_ep_fine": EpFine},
           "ligretto": {"edge72_ep_nodecide": NoDecide}}  # fmt: skip


@pytest.fixture
def registered(monkeypatch) -> Iterator[None]:
    """``IN_PYTHON`` registered with the registry's decorator, ``PLUGGED`` installed as entry
    points beside the real ones; the registries as they were afterwards."""
    registry.names("leaves"), registry.names("ligretto")  # the built-ins in, kept after
    before = {game: dict(registry._registry(game)) for game in IN_PYTHON}
    real = registry._entry_points

    def entry_points(game: str = registry.DEFAULT_GAME) -> dict[str, Any]:
        fakes = {name: EntryPoint(cls) for name, cls in PLUGGED.get(game, {}).items()}
        return {**real(game), **fakes}

    monkeypatch.setattr(registry, "_entry_points", entry_points)
    try:
        for classes in IN_PYTHON.values():
            for name, cls in classes.items():
                strategies.register(cls, name=name)
        yield
    finally:
        for game, held in before.items():
            registry._registry(game).clear()
            registry._registry(game).update(held)


def _listed(capsys, monkeypatch, *args: str) -> dict[str, str]:
    """Each listed strategy's row (the table as one line a row), by its name."""
    monkeypatch.setenv("COLUMNS", "500")
    code, out, err = cli(capsys, "strategies", *args)
    assert (code, err) == (0, ""), err
    return {line.split()[0]: " ".join(line.split()[1:]) for line in out.splitlines()
            if line.strip().startswith("edge72_")}  # fmt: skip


def _refusal(capsys, game: str, spec: str, other: str, *more: str) -> str:
    """The line ``leaves tournament`` refuses ``spec`` with, before a game is played."""
    code, _, err = cli(capsys, "tournament", "--game", game, spec, other, other, *more,
                       "--out", "edge72-never-written")  # fmt: skip
    assert code == 2
    return one_error_line(err).removeprefix("leaves: error: ")


@pytest.mark.usefixtures("registered")
@pytest.mark.parametrize(("game", "name", "other"), [
    ("leaves", "edge72_boom", "greedy,low"), ("leaves", "edge72_nosuper", "greedy,low"),
    ("leaves", "edge72_ep_boom", "greedy,low"),
    ("ligretto", "edge72_badreaction", "stack,row"),
])  # fmt: skip
def test_a_registered_class_a_use_refuses_is_tagged_in_the_uses_words(
    capsys, monkeypatch, game, name, other
):
    refused = _refusal(capsys, game, name, other)
    rows = _listed(capsys, monkeypatch, "--game", game)
    assert rows[name] == f"- {TAG}{refused})"


@pytest.mark.usefixtures("registered")
def test_each_says_why(capsys, monkeypatch):
    leaves = _listed(capsys, monkeypatch)
    source = f"{__name__}:Boom"
    assert leaves["edge72_boom"] == (f"- {TAG}cannot build strategy edge72_boom ({source}): "
                                     "RuntimeError: no table today)")  # fmt: skip
    assert "NoSuper.__init__ does not call super().__init__()" in leaves["edge72_nosuper"]
    ligretto = _listed(capsys, monkeypatch, "--game", "ligretto")
    assert "no reaction-time model" in ligretto["edge72_badreaction"]
    # a class a registration refuses: its entry point cannot load, said so (as it was)
    assert ligretto["edge72_ep_nodecide"].startswith("- (cannot load: entry point ")
    assert ligretto["edge72_ep_nodecide"].endswith("it implements no decide(view, rng), nor a "
                                                   "policy vector)")  # fmt: skip


@pytest.mark.usefixtures("registered")
def test_classes_that_play_keep_their_rows(capsys, monkeypatch):
    rows = _listed(capsys, monkeypatch)
    assert rows["edge72_fine"] == rows["edge72_ep_fine"] == "- plays its first legal action"


@pytest.mark.usefixtures("registered")
def test_with_a_filter_each_is_warned_about_once_and_left_out(capsys):
    code, out, err = cli(capsys, "strategies", "--filter", "stochastic=false", "--names")
    assert code == 0
    assert {"edge72_fine", "edge72_ep_fine", "greedy"} <= set(out.split())
    assert not {"edge72_boom", "edge72_nosuper", "edge72_ep_boom"} & set(out.split())
    warned = [line for line in err.splitlines() if line.startswith("leaves: warning: edge72_")]
    assert sorted(line.removeprefix("leaves: warning: ").split(":")[0] for line in warned) == [
        "edge72_boom", "edge72_ep_boom", "edge72_nosuper"]  # fmt: skip
    assert "leaves: warning: edge72_boom: cannot build strategy edge72_boom (" in err


def test_a_loaded_files_named_class_is_tagged(capsys, monkeypatch, tmp_path):
    path = tmp_path / "edge72_named.py"
    path.write_text(
        "from strategies import Strategy\n\n\n"
        "class Exits(Strategy):\n"
        '    name = "edge72_exits"\n\n'
        "    def __init__(self):\n"
        "        raise SystemExit(3)\n\n"
        "    def choose(self, view, legal, rng):\n"
        "        return legal[0]\n"
    )
    rows = _listed(capsys, monkeypatch, "--load", str(path))
    assert rows["edge72_exits"] == (f"- {TAG}cannot build strategy edge72_exits ({path}:Exits): "
                                    "it exited as it was built (SystemExit(3)): a strategy must "
                                    "not exit)")  # fmt: skip


@pytest.mark.usefixtures("registered")
def test_the_games_own_strategies_are_not_built(monkeypatch):
    asked: list[str] = []
    check = strategies_cmd._cannot_play

    def counting(spec: str, cls: type, plugin: Any) -> str | None:
        asked.append(spec)
        return check(spec, cls, plugin)

    monkeypatch.setattr(strategies_cmd, "_cannot_play", counting)
    strategies_cmd.strategy_rows({}, "leaves")
    assert {"edge72_boom", "edge72_nosuper", "edge72_fine", "edge72_ep_boom"} <= set(asked)
    home = registry.players_module("leaves").__name__
    own = [n for n in registry.names("leaves")
           if registry.get_class(n, "leaves").__module__.startswith(home + ".")]  # fmt: skip
    assert own and not set(own) & set(asked)
