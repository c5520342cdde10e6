"""A strategy that draws from the global random state is named wherever its games fail to
replay: ``leaves replay`` says so (not "a strategy or the code changed"), ``leaves variants``
leaves such a table's traces out with the reason rather than fail after playing everything, a
Ligretto run's warning counts rounds, and a policy callable is told how to take the rng."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

from leaves.commands.variants_designer import replay_designer
from leaves.ruleset import Rules
from leaves_cli.replay_run import replay_run_game
from reports.designer_measures import GAMES_FILE
from tests.test_edge69_global_random import STRATS  # Roller and Seeded among its classes
from tournaments import Tournament
from tournaments.notices import Notices, Watched
from tournaments.work import run_chunk

LIGRETTO = """
import random

from ligretto import Decision
from ligretto.players import LigrettoStrategy


class LRoll(LigrettoStrategy, register=False):
    def decide(self, view, rng):
        card = view.stack_top
        pile = view.target(card)
        if pile is not None and random.random() < 0.9:
            return Decision("stack", 0, card, pile, 1)
        return Decision("flip" if view.can_flip else "wait", looked=1)
"""

POLICY = """
import numpy as np


def np_global(obs):
    return int(np.random.choice(np.flatnonzero(obs["action_mask"])))
"""

SAID = "Roller draws from the global random state (Python's random module), which no seed sets"


@pytest.fixture(autouse=True)
def global_states_put_back():
    """The tests draw from the global states: each leaves them as it found them."""
    py, np_state = random.getstate(), np.random.get_state()
    yield
    random.setstate(py)
    np.random.set_state(np_state)


@pytest.fixture
def strats(tmp_path) -> str:
    path = tmp_path / "rolling.py"
    path.write_text(STRATS)
    return str(path)


def _played(tmp_path, entrants, **kw):
    out = tmp_path / "run"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the run's own warning: another test's
        t = Tournament(entrants, players=3, games=6, seed=3, **kw)
        t.run(out=out)
    return t, out


def test_a_replay_names_the_strategy_that_drew_rather_than_a_change(strats, tmp_path):
    _, out = _played(tmp_path, [f"{strats}:Roller", "greedy", "low"])
    said = [replay_run_game(str(out), game).warnings for game in range(6)]
    assert all(len(w) == 1 and SAID in w[0] for w in said), said
    assert not any("changed since the run" in w[0] for w in said)
    differs = [w[0] for w in said if w[0].startswith("the replayed game differs")]
    assert differs and all(w.endswith("its games do not replay from their seeds") for w in differs)
    same = [w[0] for w in said if not w[0].startswith("the replayed game differs")]
    assert all(w.endswith(": the moves shown may not be the run's") for w in same)


def test_a_replay_of_strategies_that_draw_from_their_rng_says_nothing(strats, tmp_path):
    _, out = _played(tmp_path, [f"{strats}:Seeded", "greedy", "low"])
    assert [replay_run_game(str(out), game).warnings for game in range(6)] == [[]] * 6


def test_variants_leave_out_the_traces_of_a_table_that_drew(strats, tmp_path):
    rules = Rules()
    t, out = _played(tmp_path, [f"{strats}:Roller", "greedy", "taker"])
    said = replay_designer(t, rules, out, (6, 0), None)
    assert said.startswith(f"no games traced (6 left out: {SAID}: its games do not replay")
    assert not (out / GAMES_FILE).exists()


def test_variants_still_trace_tables_of_strategies_that_replay(strats, tmp_path):
    t, out = _played(tmp_path, [f"{strats}:Seeded", "greedy", "taker"])
    said = replay_designer(t, Rules(), out, (6, 0), None)
    assert said.startswith("6 games traced in ")
    assert (out / GAMES_FILE).is_file()


def test_a_ligretto_run_says_its_rounds_do_not_replay(tmp_path):
    path = tmp_path / "ligroll.py"
    path.write_text(LIGRETTO)
    t = Tournament([f"{path}:LRoll", "stack", "row"], players=3, games=6, seed=1,
                   game="ligretto")  # fmt: skip
    (task,) = t._tasks([0], 0)
    notes = Watched(run_chunk)(task).notes
    assert notes.drew == ("LRoll",)
    (line,) = Notices().heard(notes)
    assert "which no seed sets: its rounds do not replay from their seeds" in line


def test_a_policy_callable_is_told_to_take_the_rng(tmp_path, monkeypatch):
    (tmp_path / "globpol.py").write_text(POLICY)
    monkeypatch.syspath_prepend(str(tmp_path))
    t = Tournament(["observation:policy=globpol.np_global", "greedy", "low"], players=3,
                   games=6, seed=1)  # fmt: skip
    (task,) = t._tasks([0], 0)
    notes = Watched(run_chunk)(task).notes
    assert notes.advice == (
        "draw all randomness from the rng a strategy is given (a policy callable is given it "
        "as its second positional parameter)"
    )
