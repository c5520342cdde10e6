"""A run says, once, which strategy draws from the global random state (Python's ``random``,
``numpy.random``): no seed of the run sets it, so its games do not replay from their seeds."""

from __future__ import annotations

import random
import threading
import warnings

import numpy as np
import pytest

import strategies
from leaves.plugin import LeavesGame
from ligretto.players.play import play_round
from strategies import global_random, registry
from tests.helpers import cli, workers_play_at_once
from tournaments import Tournament
from tournaments.notices import Notes, Notices, Watched
from tournaments.work import run_chunk

STRATS = """
import random

import numpy as np

from leaves.players.builtin.simple import GreedyStrategy
from strategies import Strategy


class Roller(Strategy, register=False):
    def choose(self, view, legal, rng):
        return legal[random.randrange(len(legal))]


class NpRoller(Strategy, register=False):
    def choose(self, view, legal, rng):
        return legal[np.random.randint(len(legal))]


class Seeded(Strategy, register=False):
    def choose(self, view, legal, rng):
        return legal[int(rng.integers(len(legal)))]


class MyGreedy(GreedyStrategy, register=False):
    pass
"""

SAID = "draws from the global random state"


@pytest.fixture(scope="module")
def strats(tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("strats") / "rolling.py"
    path.write_text(STRATS)
    return str(path)


@pytest.fixture(autouse=True)
def global_states_put_back():
    """The tests draw from the global states: each leaves them as it found them."""
    py, np_state = random.getstate(), np.random.get_state()
    yield
    random.setstate(py)
    np.random.set_state(np_state)


def test_a_draw_from_either_global_state_is_seen_and_a_look_is_none():
    before = global_random.snapshot()
    assert global_random.drawn(before) == ()
    random.random()
    assert global_random.drawn(before) == ("Python's random module",)
    before = global_random.snapshot()
    np.random.standard_normal()
    assert global_random.drawn(before) == ("numpy.random",)


def test_what_a_helper_noted_is_taken_once_by_its_thread():
    global_random.take_noted()
    global_random.note(("numpy.random",))
    global_random.note(("Python's random module", "numpy.random"))
    other = []
    thread = threading.Thread(target=lambda: other.append(global_random.take_noted()))
    thread.start()
    thread.join()
    assert other == [()]
    assert global_random.take_noted() == ("Python's random module", "numpy.random")
    assert global_random.take_noted() == ()


def test_built_ins_are_own_code_and_a_users_subclass_of_one_is_not(strats):
    assert global_random.own_code(strategies.get("greedy"))
    assert not global_random.own_code(strategies.get(f"{strats}:MyGreedy"))
    assert not global_random.own_code(strategies.get(f"{strats}:Seeded"))


POLICY = """
import numpy as np


def np_global(obs):
    return int(np.random.choice(np.flatnonzero(obs["action_mask"])))
"""


def test_an_adapter_is_judged_by_the_code_it_runs(tmp_path, monkeypatch):
    """``observation`` is built in, but a user's policy runs in it: its draws went unseen."""
    (tmp_path / "globpol.py").write_text(POLICY)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert global_random.own_code(strategies.get("observation"))  # the first legal id: ours
    spec = "observation:policy=globpol.np_global"
    assert not global_random.own_code(strategies.get(spec))
    said, _ = _run([spec, "greedy", "low"], seed=9)
    assert said and said[0].startswith(f"observation(policy=globpol.np_global) {SAID}"), said


SLOW_BUILT_INS = {"openspiel"}  # an adapter: seconds a game


@pytest.mark.parametrize(
    "name",
    [pytest.param(n, marks=pytest.mark.slow) if n in SLOW_BUILT_INS else n
     for n in registry.names()],
)  # fmt: skip
def test_a_built_in_draws_only_from_its_rng(name):
    """Why a run compares no table of built-ins: each is own code and leaves both states be."""
    assert global_random.own_code(strategies.get(name))
    before = global_random.snapshot()
    strategies.play_game([name, "random", "low"], seed=3)
    assert global_random.drawn(before) == ()


def test_ligrettos_built_ins_draw_only_from_their_rng_too():
    names = registry.names("ligretto")
    assert names and all(global_random.own_code(registry.get(n, game="ligretto")) for n in names)
    before = global_random.snapshot()
    for name in names:
        play_round([name] * 3, 1, 2)
    assert global_random.drawn(before) == ()


def _run(entrants, seed, jobs=1):
    """The warnings of a small tournament of ``entrants`` (3 seats, chunks of 6)."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        t = Tournament(entrants, players=3, games=18, seed=seed, chunk_size=6)
        stats = t.run(n_jobs=jobs).manifest["sessions"][-1]["players"]
    return [str(w.message) for w in caught if SAID in str(w.message)], stats


def test_a_run_says_once_which_strategy_draws_from_pythons_random(strats):
    said, _ = _run([f"{strats}:Roller", "greedy", "low"], seed=5)
    assert said == [
        "Roller draws from the global random state (Python's random module), which no seed "
        "sets: its games do not replay from their seeds, and the run is not reproducible from "
        "its seed; draw all randomness from the rng a strategy is given"
    ]


def test_numpys_global_state_is_named_too(strats):
    assert _run([f"{strats}:NpRoller", "greedy", "low"], seed=6)[0] == [
        f"NpRoller {SAID} (numpy.random), which no seed sets: its games do not replay from "
        "their seeds, and the run is not reproducible from its seed; draw all randomness from "
        "the rng a strategy is given"
    ]


def test_two_strategies_at_every_table_are_named_together(strats):
    (said,), _ = _run([f"{strats}:Roller", f"{strats}:NpRoller", "greedy"], seed=7)
    assert said.startswith(
        f"at least one of NpRoller, Roller (they played the same games) {SAID} "
        "(Python's random module and numpy.random)"
    )


def test_strategies_that_draw_from_their_rng_are_not_named(strats):
    assert _run([f"{strats}:Seeded", f"{strats}:MyGreedy", "greedy", "low"], seed=8)[0] == []


def test_watching_changes_no_output_and_the_states_stay_as_they_were(strats):
    t = Tournament([f"{strats}:Seeded", "greedy", "low"], players=3, games=6, seed=9)
    (task,) = t._tasks([0], 0)
    before = global_random.snapshot()
    noted = Watched(run_chunk)(task)
    assert global_random.drawn(before) == ()
    assert noted.notes.sources == () and noted.notes.games == {"Seeded": 6, "greedy": 6, "low": 6}
    assert noted.output.chunk_file == run_chunk(task).chunk_file


def test_a_strategy_named_alone_is_not_named_again_among_others():
    notices = Notices()
    src = ("Python's random module",)
    assert len(notices.heard(Notes({}, sources=src, drew=("A", "B")))) == 1
    assert len(notices.heard(Notes({}, sources=src, drew=("A",)))) == 1  # now known: said
    assert notices.heard(Notes({}, sources=src, drew=("A",))) == []
    assert notices.heard(Notes({}, sources=src, drew=("A", "C"))) == []
    assert notices.heard(Notes({}, sources=src, drew=("B", "C"))) != []


@pytest.mark.slow
def test_the_command_line_says_it_as_one_warning_line(strats, capsys, tmp_path):
    code, _, err = cli(capsys, "tournament", f"{strats}:Roller", "greedy", "low",
                       "--players", "3", "--games", "12", "--chunk-size", "6", "--seed", "1",
                       "--no-progress", "--out", str(tmp_path / "run"))  # fmt: skip
    assert code == 0, err
    lines = [line for line in err.splitlines() if SAID in line]
    assert lines == [f"leaves: warning: Roller {SAID} (Python's random module), which no seed "
                     "sets: its games do not replay from their seeds, and the run is not "
                     "reproducible from its seed; draw all randomness from the rng a strategy "
                     "is given"]  # fmt: skip


@pytest.mark.slow
def test_a_worker_process_sees_it(strats, monkeypatch):
    """Chunks played in loky worker processes (the driver waits for them) say it too."""
    workers_play_at_once(monkeypatch)
    said, stats = _run([f"{strats}:Roller", "greedy", "low"], seed=10, jobs=2)
    assert len(said) == 1 and stats["worker_tasks"] > 0

    from joblib.externals.loky import get_reusable_executor

    t = Tournament([f"{strats}:Roller", "greedy", "low"], players=3, games=6, seed=11)
    (task,) = t._tasks([0], 0)
    noted = get_reusable_executor(max_workers=1).submit(Watched(run_chunk), task).result()
    assert noted.notes.sources == ("Python's random module",)
    assert noted.notes.drew == ("Roller",)


@pytest.mark.slow
def test_a_chunk_played_off_the_main_thread_is_compared_in_the_timeouts_helper(strats):
    """A Dask worker's thread bounds decisions in a helper process: the helper compares."""
    t = Tournament([f"{strats}:Roller", "greedy", "low"], players=3, games=6, seed=12,
                   game=LeavesGame(decision_timeout=30))  # fmt: skip
    (task,) = t._tasks([0], 0)
    got = {}
    thread = threading.Thread(target=lambda: got.update(noted=Watched(run_chunk)(task)))
    thread.start()
    thread.join()
    assert got["noted"].notes.sources == ("Python's random module",)
    assert got["noted"].notes.drew == ("Roller",)
