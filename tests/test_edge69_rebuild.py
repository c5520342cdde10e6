"""A game plug-in built on ``GameBase`` describes its entrants in the run's manifest (class,
file, every parameter) and rebuilds them from it, so a game of its run with a user's file
strategy replays: the base resolved an entrant by its label, which names no strategy of a
file ("unknown Pin strategy 'Greedy'"). A game that keeps no strategy registry still records
labels and rebuilds by them.

The games: ``tests/test_edge68_plugin_runtime_faults.py``'s Pin, defined in a test module as
a third party's game would be, and ``tests/plugins/climb``, installed from outside the
project, through ``leaves replay``."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tests.test_edge68_plugin_runtime_faults import One, PinGame
from tests.toygame import ToyGame
from tournaments.runner import Tournament

ROOT = Path(__file__).resolve().parents[1]

PIN_FILE = """\
from tests.test_edge68_plugin_runtime_faults import PinPlayer


class Greedy(PinPlayer):
    def __init__(self, most: int = 3):
        pass

    def take(self, pile, rng):
        return min(self.params["most"], pile)
"""


@pytest.fixture
def pin_run(tmp_path) -> Path:
    """A Pin run of a user's file strategy (with a parameter) against a module's class."""
    (tmp_path / "takes.py").write_text(PIN_FILE)
    spec = f"{tmp_path / 'takes.py'}:Greedy:most=2"
    out = tmp_path / "run"
    Tournament([spec, One()], game=PinGame(), players=2, games=8, seed=1, rows=True).run(out=out)
    return out


def test_the_manifest_describes_a_plugin_game_s_file_strategy(pin_run):
    entrants = json.loads((pin_run / "manifest.json").read_text())["spec"]["entrants"]
    by_label = {e["label"]: e for e in entrants}
    assert set(by_label) == {"Greedy(most=2)", "One"}
    greedy = by_label["Greedy(most=2)"]
    assert (greedy["class"], greedy["params"]) == ("Greedy", {"most": 2})
    assert greedy["file"] == str(pin_run.parent / "takes.py") and greedy["file_sha256"]
    assert by_label["One"]["class"] == "tests.test_edge68_plugin_runtime_faults:One"


def test_every_game_of_the_run_replays_from_the_rebuilt_entrants(pin_run):
    """Was: ValueError "unknown Pin strategy 'Greedy'" (the label looked up)."""
    game = PinGame()
    spec = json.loads((pin_run / "manifest.json").read_text())["spec"]
    payloads = {e["label"]: game.rebuild(e) for e in spec["entrants"]}
    assert payloads["Greedy(most=2)"].params == {"most": 2}
    rows = pd.concat(pd.read_parquet(p) for p in sorted((pin_run / "games").glob("*.parquet")))
    for row in rows.to_dict("records"):
        seats = [payloads[row[f"seat_{s}"]] for s in range(int(row["n_players"]))]
        played = game.replay(seats, int(row["deal_seed"]), int(row["seed"]))
        assert played.outcome == (row["winner_seat"], row["turns"], row["forfeit_seat"])


def test_a_run_recorded_with_labels_only_resumes_and_is_described_from_then_on(pin_run):
    """A run of the game from before it described its entrants is the same run."""
    path = pin_run / "manifest.json"
    manifest = json.loads(path.read_text())
    spec = manifest["spec"]
    spec["entrants"] = [{"label": e["label"]} for e in spec["entrants"]]
    path.write_text(json.dumps(manifest))
    specs = [f"{pin_run.parent / 'takes.py'}:Greedy:most=2", One()]
    again = Tournament(specs, game=PinGame(), players=2, games=8, seed=1, rows=True)
    res = again.run(out=pin_run, resume=True)
    assert [e["class"] for e in res.spec["entrants"]] == [
        "Greedy", "tests.test_edge68_plugin_runtime_faults:One"]  # fmt: skip


def test_a_game_without_a_registry_records_and_rebuilds_labels(tmp_path):
    """The toy game resolves its entrants itself: nothing to describe them by, and ``rebuild``
    takes the label (its run's manifest as before)."""
    game = ToyGame()
    assert game.describe is None
    res = Tournament(["p1", "p3"], game=game, players=2, games=8, seed=1).run(out=tmp_path / "r")
    assert res.spec["entrants"] == [{"label": "p1"}, {"label": "p3"}]
    assert game.rebuild({"label": "p3"}) == "p3"


class Labelled:
    """An entrant that is no ``strategies.Player``, as a game's own ``lookup`` may find."""

    label = "plain"


class LooksUpPlain(PinGame):
    def lookup(self, spec):
        return Labelled() if spec == "plain" else super().lookup(spec)


def test_an_entrant_that_is_no_player_is_described_by_its_label():
    game = LooksUpPlain()
    assert game.describe("plain") == {"label": "plain"}
    assert game.describe(One())["class"].endswith(":One")


def _leaves(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests" / "plugins")]),
    }
    return subprocess.run([sys.executable, "-m", "leaves_cli", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300)  # fmt: skip


CLIMB_FILE = """\
from climb.players import ClimbPlayer


class Steady(ClimbPlayer):
    def __init__(self, high: int = 0):
        pass

    def move(self, hand, top, legal, rng):
        return legal[-1] if self.params["high"] else legal[0]
"""


@pytest.mark.slow
def test_leaves_replay_replays_a_file_strategy_of_an_installed_game(tmp_path):
    """Was: "leaves: error: cannot rebuild Steady(high=1): unknown Climb strategy 'Steady'"."""
    (tmp_path / "steady.py").write_text(CLIMB_FILE)
    done = _leaves("tournament", "--game", "climb", "low", "steady.py:Steady:high=1",
                   "--players", "2", "--games", "40", "--seed", "3", "--jobs", "1", "--out",
                   "run", cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    rows = pd.read_parquet(next((tmp_path / "run" / "games").glob("*.parquet")))
    game = int(np.flatnonzero(rows["seat_0"] == "Steady(high=1)")[0])
    done = _leaves("replay", "run", "--game", str(int(rows["game"].iloc[game])), "--all",
                   cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "warning" not in done.stderr
    assert "Steady(high=1):" in done.stdout
