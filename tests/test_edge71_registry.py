"""``strategies.get(spec, game=X)`` for a plug-in game X that is installed but keeps no
strategy registry said "unknown game 'X': choose one of ..." (the registries loaded so far,
none at first): X is said to keep none, with how its entrants are named; a game no one
installed is offered the installed games that keep a registry."""

from __future__ import annotations

import pytest

import strategies
from tests.toygame import ToyGame
from tournaments import games

NO_REGISTRY = (
    "game 'toy' (Toy) keeps no registry of strategies: its plug-in names its entrants itself, "
    "each spec read by its resolve (tournaments.games.get_game('toy').resolve(spec) gives the "
    "label a run plays), so there is no strategy to build"
)


@pytest.fixture
def toy_installed(tmp_path, monkeypatch):
    """The toy game (no strategy registry) installed as 'toy' while the test runs."""
    info = tmp_path / "edge71-0.1.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: edge71\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text("[leaves.games]\ntoy = tests.toygame:ToyGame\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    games._entry_points.cache_clear()
    yield
    games._entry_points.cache_clear()


@pytest.mark.usefixtures("toy_installed")
@pytest.mark.parametrize("ask", [
    lambda: strategies.get("a", game="toy"),
    lambda: strategies.registry.names("toy"),
])  # fmt: skip
def test_an_installed_game_with_no_registry_is_said_to_keep_none(ask):
    with pytest.raises(ValueError) as exc:
        ask()
    assert str(exc.value) == NO_REGISTRY


@pytest.mark.usefixtures("toy_installed")
def test_the_way_it_names_its_entrants_is_the_one_said():
    """The call the line names gives the entrant's label, as a run of the game plays it."""
    assert games.get_game("toy").resolve("a") == ("a", "a")
    assert games.game_class("toy") is ToyGame


@pytest.mark.usefixtures("toy_installed")
def test_an_unknown_game_is_offered_the_installed_games_that_keep_a_registry():
    with pytest.raises(ValueError) as exc:
        strategies.get("a", game="edge71-nosuch")
    said = str(exc.value)
    assert said.startswith("unknown game 'edge71-nosuch': choose one of ")
    offered = said.rpartition("choose one of ")[2].split(", ")
    assert {"leaves", "ligretto"} <= set(offered) and "toy" not in offered
    assert offered == sorted(offered)
