"""Tests that kill the mutants of ``leaves/record.py`` and ``reports/compare.py`` that their
other tests let live (``benchmarks/bench_mutation.py``), each against a truth worked out here."""

from __future__ import annotations

import array
from types import SimpleNamespace

import pandas as pd
import pytest

from leaves import GameRecord
from leaves.players.play import deal_state, play_game
from leaves.record import replay
from reports.compare import _change, _findings
from reports.numbers import TOO_FEW

NAN = float("nan")


TABLE = ["random", "low", "high"]


# ------------------------------------------------------------------ leaves.record
def test_a_game_dealt_from_deal_seed_0_is_recorded_and_replays():
    """0 is a deal seed as any other (the kernels' seeds are 0 to 2**64 - 1): its game's
    record keeps it, and replays to the game's final state from the deal it names."""
    result = play_game(TABLE, deal_seed=0, play_seed=5, record=True)
    record = result.record
    assert record.seed == 0
    again = GameRecord.from_json(record.to_json())
    assert again == record
    states = replay(again)
    assert states[0] == deal_state(len(TABLE), 0) and states[-1] == result.final_state
    initial = states[0]
    assert GameRecord.from_states(initial, result.final_state, seed=0).seed == 0
    for bad in (-1, -2):
        with pytest.raises(ValueError, match=rf"^seed must be 0 to 2\*\*64 - 1, got {bad}$"):
            GameRecord.from_states(initial, result.final_state, seed=bad)
        with pytest.raises(
            ValueError, match=rf"^bad record: its seed must be 0 to 2\*\*64 - 1, got {bad}$"
        ):
            replay(GameRecord.from_dict({**record.to_dict(), "seed": bad}))


def test_a_records_turn_limit_alone_sets_the_limit_its_rules_do_not_name():
    """A record whose ``rules`` leave the turn limit out (or are None: today's rules) plays
    under its ``turn_limit``: 20 turns, then the game is unfinished; only rules that name
    another limit contradict it."""
    record = play_game(TABLE, seed=3, rules="turn_limit=20", record=True).record
    assert record.rules == {"turn_limit": 20} and record.unfinished
    for rules in (None, {"hand_size": record.game_rules().hand_size}):
        same = GameRecord.from_dict({**record.to_dict(), "rules": rules})
        assert same.game_rules().turn_limit == 20
        states = replay(same)
        assert len(states) == 21 and states[-1].turn == 20 and states[-1].unfinished
    with pytest.raises(ValueError, match=r"^its rules say turn_limit=30, its turn_limit is 20$"):
        GameRecord.from_dict({**record.to_dict(), "rules": {"turn_limit": 30}}).game_rules()


def test_a_forfeit_or_stop_whose_actions_end_the_game_is_refused_without_an_error():
    """Only a forfeit with its error (a seat that failed in ``end_game``) may follow the last
    move; a forfeit with no error, or a stop, said of a game its actions end is refused."""
    good = play_game(TABLE, seed=3, record=True).record.to_dict()
    for cut in ({"forfeit_seat": 1}, {"stopped": "the player quit", "unfinished": True,
                                      "winner": None}):  # fmt: skip
        with pytest.raises(ValueError, match=r"^record says the game was cut short"):
            replay(GameRecord.from_dict({**good, **cut}))
    replay(GameRecord.from_dict({**good, "forfeit_seat": 1, "error": "end_game failed"}))


def test_a_reason_for_a_stop_of_blanks_is_no_words():
    good = play_game(TABLE, seed=3, record=True).record.to_dict()
    for blank in ("", "   ", "\t"):
        with pytest.raises(ValueError, match=r"^bad record: its reason for stopping is .*words$"):
            replay(GameRecord.from_dict({**good, "stopped": blank}))


def test_a_sequence_of_actions_of_any_kind_is_kept_as_a_tuple_of_plain_ints():
    """The class's contract: any sequence of actions that is not text (a list, numpy's array,
    an ``array.array``) becomes a tuple of Python ints, so the record writes the JSON it
    reads back equal."""
    good = play_game(TABLE, seed=3, record=True).record.to_dict()
    given = array.array("q", good["actions"])
    got = GameRecord.from_dict({**good, "actions": given})
    assert got.actions == tuple(given) and type(got.actions) is tuple
    assert GameRecord.from_json(got.to_json()) == got


# ------------------------------------------------------------------ reports.compare
def _row(**kw) -> dict:
    base = {"strategy": "s", "diff": 0.1, "ci_low": 0.05, "ci_high": 0.15, "no_spread": False,
            "p_value": 0.01, "p_holm": 0.01, "significant": True, "units": 3}  # fmt: skip
    return {**base, **kw}


def test_a_change_with_too_few_deals_says_so_not_that_its_sets_showed_no_spread():
    """No interval for want of deals (``no_spread`` false) is "too few deals", paired or not;
    only a difference whose sets showed no spread says that."""
    few = _row(diff=0.5, ci_low=NAN, ci_high=NAN, p_value=NAN, p_holm=NAN, significant=False)
    for paired in (True, False):
        assert _change(SimpleNamespace(**few), paired) == ("+50.0 percentage points",
                                                           f"({TOO_FEW})")  # fmt: skip
    # the largest change named in the sentence, beside a smaller one measured
    other = _row(strategy="t", diff=0.1, ci_low=-0.1, ci_high=0.3, p_value=0.3, p_holm=0.3,
                 significant=False)  # fmt: skip
    (text,) = _findings(pd.DataFrame([{**few, "strategy": "f"}, other]), identical=False)
    assert text == (
        f"no strategy changed significantly (largest: f +50.0 percentage points ({TOO_FEW}))"
    )
