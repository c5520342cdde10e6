"""A resume is refused where play changed, not on every release: a game's rules core declares
the version of how it plays (``PLAY_VERSION``, bumped by hand when a seed would play
otherwise), a run's manifest records it beside the package's own version, and a resume
compares the play version. A run recorded before play versions were keeps the package's version
alone: it resumes where that equals today's and is refused, in the same words, where it does
not. A plug-in's own ``versions()`` is compared as before."""

from __future__ import annotations

import json
import sys
import types
from pathlib import Path

import pytest

import leaves
import ligretto
import strategies.provenance
from ligretto.plugin import LigrettoGame
from tests.helpers import copied_run
from tournaments import Tournament
from tournaments.game import GameBase, play_key
from tournaments.games import get_game
from tournaments.same_run import OtherRun, entrant_change, game_change

ENTRANTS = ["random", "greedy", "low"]
ADVICE = "resume it with the version that played it, or play the run in a new out"


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A small complete run of 13 Leaves (2 chunks)."""
    out = tmp_path_factory.mktemp("play71") / "run"
    _tournament().run(out=out)
    return out


def _tournament() -> Tournament:
    return Tournament(ENTRANTS, players=3, games=12, seed=1, chunk_size=6)


def _resume(out: Path) -> None:
    """Grow the run in ``out`` by a deal of each seating, 6 games (a resume that plays)."""
    _tournament().with_stages([2, 3]).run(out=out, resume=True)


def _games(out: Path) -> int:
    return int(json.loads((out / "manifest.json").read_text())["spec"]["n_games"])


def _legacy(package: str):
    """The run as recorded before play versions were: 13 Leaves' package version alone."""

    def edit(m: dict) -> None:
        del m["versions"]["leaves play"]
        m["versions"]["leaves"] = package

    return edit


def _new_release(monkeypatch) -> None:
    """Another package version of the project, its built-ins' provenance included."""
    monkeypatch.setattr(leaves, "__version__", "0.2.0")
    monkeypatch.setattr(strategies.provenance, "_package_version", lambda _: "leaves 0.2.0")


def test_a_run_records_the_play_version_beside_the_package_version(run):
    recorded = json.loads((run / "manifest.json").read_text())["versions"]
    assert recorded["leaves play"] == leaves.PLAY_VERSION == "1"
    assert recorded["leaves"] == leaves.__version__
    assert play_key("leaves") == "leaves play"


def test_a_new_release_that_plays_alike_resumes_the_run(run, tmp_path, monkeypatch):
    """It was refused: 'random: package leaves 0.1.0 is now leaves 0.2.0', and the game's
    'leaves: 0.2.0 here, 0.1.0 in the run'."""
    copy = copied_run(run, tmp_path)
    _new_release(monkeypatch)
    _resume(copy)
    assert _games(copy) == 18


def test_another_play_version_is_refused_and_the_run_left_as_it_was(run, tmp_path, monkeypatch):
    copy = copied_run(run, tmp_path)
    before = (copy / "manifest.json").read_bytes()
    monkeypatch.setattr(leaves, "PLAY_VERSION", "2")
    with pytest.raises(OtherRun) as exc:
        _resume(copy)
    assert str(exc.value) == (
        f"cannot resume {copy}: the game changed (leaves play: 2 here, 1 in the run): {ADVICE}"
    )
    assert (copy / "manifest.json").read_bytes() == before


def test_another_play_version_is_refused_with_a_new_release_too(run, tmp_path, monkeypatch):
    copy = copied_run(run, tmp_path)
    _new_release(monkeypatch)
    monkeypatch.setattr(leaves, "PLAY_VERSION", "2")
    with pytest.raises(OtherRun, match=r"\(leaves play: 2 here, 1 in the run\)"):
        _resume(copy)


def test_a_run_recorded_before_play_versions_resumes_where_its_package_version_is_todays(
    run, tmp_path
):
    copy = copied_run(run, tmp_path, _legacy(leaves.__version__))
    _resume(copy)
    assert _games(copy) == 18


def test_a_run_recorded_before_play_versions_by_another_package_version_is_refused(run, tmp_path):
    copy = copied_run(run, tmp_path, _legacy("0.0.9"))
    with pytest.raises(OtherRun) as exc:
        _resume(copy)
    assert str(exc.value) == (
        f"cannot resume {copy}: the game changed (leaves: {leaves.__version__} here, 0.0.9 in "
        f"the run): {ADVICE}"
    )


def test_a_run_recorded_before_play_versions_is_refused_by_a_new_release(
    run, tmp_path, monkeypatch
):
    """It recorded no play version: nothing says the new release plays as it did."""
    copy = copied_run(run, tmp_path, _legacy(leaves.__version__))
    _new_release(monkeypatch)
    with pytest.raises(OtherRun, match=r"the game changed|an entrant changed"):
        _resume(copy)


def test_ligretto_records_and_compares_its_own_play_version(monkeypatch):
    game = LigrettoGame()
    assert game.versions() == {"ligretto": ligretto.__version__, "ligretto play": "1"}
    recorded = {"versions": {"ligretto": "0.0.1", "ligretto play": ligretto.PLAY_VERSION}}
    assert game_change(game, recorded) is None  # another package version, the same play
    monkeypatch.setattr(ligretto, "PLAY_VERSION", "2")
    assert game_change(game, recorded) == "ligretto play: 2 here, 1 in the run"


class Core71Game(GameBase):
    """A plug-in whose rules core declares no play version."""

    name, title, rules_core = "core71", "Core71", "core71"


def test_a_plugin_core_without_a_play_version_is_compared_by_its_package_version(monkeypatch):
    monkeypatch.setitem(sys.modules, "core71", types.SimpleNamespace(__version__="1.1"))
    game = Core71Game()
    assert game.versions() == {"core71": "1.1"}
    assert game_change(game, {"versions": {"core71": "1.1"}}) is None
    assert game_change(game, {"versions": {"core71": "1.0"}}) == "core71: 1.1 here, 1.0 in the run"


def _entrant(cls: str, package: str) -> dict:
    return {"label": "x", "class": cls, "params": {}, "package": package, "file_sha256": None}


def _change(cls: str, versions: dict) -> str | None:
    """How an entrant of class ``cls`` provided by leaves 0.1.0 then, 0.2.0 now, changed."""
    t = types.SimpleNamespace(
        game=get_game("leaves"), entrants=lambda: [_entrant(cls, "leaves 0.2.0")]
    )
    return entrant_change(t, [_entrant(cls, "leaves 0.1.0")], versions)


BUILT_IN = "leaves.players.builtin.simple:GreedyStrategy"
RECORDED = {"leaves": "0.1.0", "leaves play": "1"}


def test_only_a_built_in_of_the_rules_core_is_covered_by_its_play_version():
    assert _change(BUILT_IN, RECORDED) is None
    said = "x: package leaves 0.1.0 is now leaves 0.2.0"
    assert _change("interop.agents:ObservationStrategy", RECORDED) == said  # not the core's
    assert _change(BUILT_IN, {"leaves": "0.1.0"}) == said  # the run recorded no play version
    assert _change(BUILT_IN, None) == said
