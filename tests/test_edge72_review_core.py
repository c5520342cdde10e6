"""Review of the last stop's changes to the game cores and the research adapters: what they
claimed and did not do, each fixed.

- ``pettingzoo_policy`` asked to act once an illegal action ended the game under ``env()``
  chose a move (its strategy's ``choose`` after its ``end_game``), or said the agent asking was
  the one to act ('player_0 is not to act here: player_0 is to act'), where the environment
  says nobody is to play and its docstring says a finished game is refused in one line.
- The golden values' guard compares two constants set by hand: values regenerated after a
  change of play, with neither constant touched, pass it, and a resume then takes the runs the
  old play played as its own.
- A tuning's size past a run's most games was refused in a sentence of its own, a copy of the
  schedule's (``check_size``) that drifted from it.
"""

from __future__ import annotations

import importlib
import os

import numpy as np
import pytest


def _cut_short_by_an_illegal_action():
    """A 3-player game under ``env()`` whose second move is illegal: (env, act, cheater)."""
    if not os.environ.get("CI"):  # CI installs the research extra: there this must run
        pytest.importorskip("pettingzoo")
    # the research extra, imported only by the test that needs it (the others run without)
    from interop.agents import pettingzoo_policy
    from interop.pettingzoo import env

    e = env(n_players=3)
    act = pettingzoo_policy("greedy", seed=1)
    e.reset(seed=4)
    e.step(act(e, e.agent_selection))
    cheater = e.agent_selection
    mask = e.last()[0]["action_mask"]
    e.step(int(np.flatnonzero(mask == 0)[0]))
    return e, act, cheater


@pytest.mark.filterwarnings("ignore")
def test_the_policy_refuses_every_agent_once_an_illegal_action_ended_the_game():
    e, act, cheater = _cut_short_by_an_illegal_action()
    assert e.unwrapped.observe(cheater)["action_mask"].sum() == 0  # nobody is to play
    for agent in e.unwrapped.possible_agents:  # the cheater chose 42 here; player_0 was told
        with pytest.raises(ValueError, match=f"^{agent} is not to act here: the game is over$"):
            act(e, agent)  # ... 'player_0 is to act'


def test_golden_values_regenerated_without_a_new_play_version_fail_the_guard(monkeypatch):
    """Regenerating ``GOLDEN`` (play changed) and forgetting both constants must fail."""
    golden = importlib.import_module("tests.test_golden")
    regenerated = dict(golden.GOLDEN)
    _, shown = regenerated["compiled/a3"]
    regenerated["compiled/a3"] = ("0123456789abcdef", shown)  # another digest: play changed
    monkeypatch.setattr(golden, "GOLDEN", regenerated)
    with pytest.raises(AssertionError):
        golden.test_golden_values_are_the_play_version_s()


def _never(out) -> None:
    raise AssertionError(f"the tuning was to be refused before it made {out}")


def test_a_tuning_size_past_a_runs_most_games_is_refused_in_the_schedules_words():
    """One sentence for a run past 2**32 - 1 games, whichever argument asks for it."""
    from gamekit.errors import ParameterError
    from tournaments import Tournament
    from tuning import tune

    with pytest.raises(ParameterError) as run:
        Tournament(["weighted", "greedy", "random"], players=3, games=2**32 - 1)
    assert str(run.value).startswith("games asks for 4,294,967,298 games in all (rounded up")
    for name in ("candidate_games", "verify_games"):
        with pytest.raises(ParameterError) as tuned:
            tune("weighted", ["greedy", "random"], players=3, seed=1, ready=_never,
                 **{name: 2**32 - 1})  # fmt: skip
        assert str(tuned.value) == str(run.value).replace("games", name, 1)
