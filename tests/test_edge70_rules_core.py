"""The rules core's promises that no test held (docs/rules-core.md): ``new_game`` takes only
an integer count, and with a hand size given names a count no rules deal; ``State.initial``
checks its first player at tables of 2 and 6; ``from_dict`` names a lost ``removed`` only
where it is lost, takes an unfinished game's own dict form at its turn limit and reads
``passed`` as True/False or 0/1 only; ``ExpertMatch`` plays to its rules' target; and
``leaves.testing`` draws seeds and rule sets from their whole documented ranges."""

from __future__ import annotations

import pickle
import re
from pathlib import Path

import numpy as np
import pytest
from hypothesis import find, given, settings

from leaves import DEFAULT_RULES, ExpertMatch, Rules, State, new_game
from leaves.rules import DECK
from leaves.testing import rule_sets, seeds

from .helpers import counts

FIND = settings(database=None, max_examples=2000, derandomize=True)
"""``find``'s settings: a fixed search, so a test that finds an example finds it every run."""


# ------------------------------------------------------------------ new_game's arguments
@pytest.mark.parametrize("bad", [4.0, "4", None, True], ids=repr)
def test_new_game_takes_an_integer_count_only(bad):
    with pytest.raises(TypeError, match=r"^n_players must be an integer, got "):
        new_game(bad, seed=1)
    assert new_game(np.int64(4), seed=1).n_players == 4


@pytest.mark.parametrize("n", [7, 1, 0, -1])
def test_a_hand_size_given_names_a_count_no_rules_deal(n):
    # 7 said "hand_size's player count must be 2..6", 1 "cannot deal 2 cards to each of 1"
    with pytest.raises(ValueError) as info:
        new_game(n, seed=1, hand_size=2)
    assert str(info.value) == f"n_players must be 2..6 with a hand_size given, got {n}"


def test_a_hand_size_given_deals_every_count_from_2_to_6():
    assert new_game(2, seed=1, hand_size=2).hand_sizes == (2, 2)
    assert new_game(6, seed=1, hand_size=10).hand_sizes == (10,) * 6  # 60 of the 62 cards
    with pytest.raises(ValueError, match=r"^cannot deal 11 cards to each of 6 players from 62$"):
        new_game(6, seed=1, hand_size=11)


# ------------------------------------------------------------------ State.initial
def _hands(n: int) -> list[list[int]]:
    """``n`` hands of one 7 each (the deck holds eight): any count 1..8 of hands."""
    return [counts(v7=1) for _ in range(n)]


@pytest.mark.parametrize("n", [2, 6])
def test_initial_checks_the_first_player_at_the_smallest_and_largest_table(n):
    with pytest.raises(ValueError, match=rf"^first_player must be a seat 0\.\.{n - 1}, got {n}$"):
        State.initial(_hands(n), first_player=n)
    with pytest.raises(TypeError, match=r"^first_player must be a seat"):
        State.initial(_hands(n), first_player=True)
    assert State.initial(_hands(n), first_player=np.int64(n - 1)).current_player == n - 1


@pytest.mark.parametrize(("n", "said"), [(1, "at least 2"), (7, "at most 6")])
def test_initial_names_the_hands_of_a_table_no_rules_seat(n, said):
    """The hands are named, not a first player that would be a seat at such a table."""
    with pytest.raises(ValueError, match=rf"^hands must list {said} players' hands"):
        State.initial(_hands(n), first_player=n)


# ------------------------------------------------------------------ from_dict
def _removed_one() -> dict:
    """Two seats after a round that removed one 1: hands of a 7 and an 8, nothing on the
    table, the rest undealt."""
    hands, removed = [counts(v7=1), counts(v8=1)], counts(v1=1)
    undealt = [DECK[v] - sum(h[v] for h in hands) - removed[v] for v in range(13)]
    return {"hands": hands, "table": counts(), "removed": removed, "undealt": undealt,
            "current_player": 0}  # fmt: skip


def test_a_lost_removed_is_named_only_where_it_is_lost():
    d = _removed_one()
    assert State.from_dict(d).removed == tuple(counts(v1=1))
    lost = {k: v for k, v in d.items() if k != "removed"}
    with pytest.raises(ValueError, match=r"^state is missing removed \(none removed when left "
                                         r"out\): cards of value 1 add up to 1 "):  # fmt: skip
        State.from_dict(lost)
    with pytest.raises(ValueError, match=r"^cards of value 1 add up to 1 \(hands"):
        State.from_dict({**d, "removed": counts()})  # given, and wrong: nothing is missing


def test_an_unfinished_game_reads_back_at_its_own_turn_limit():
    s = new_game(3, seed=11, rules=Rules(turn_limit=3))
    for _ in range(3):
        s = s.apply(s.legal_actions()[0])
    assert s.unfinished and s.turn == s.turn_limit == 3
    assert State.from_dict(s.to_dict()) == s
    assert pickle.loads(pickle.dumps(s)) == s  # pickling goes through the dict form
    with pytest.raises(ValueError, match=r"^turn 4 is past the turn limit of 3"):
        State.from_dict({**s.to_dict(), "turn": 4})


def _four(passed: list) -> dict:
    hands = [counts(v1=1), counts(v2=1), counts(v3=1), counts(v4=1)]
    return {"hands": hands, "table": counts(), "current_player": 2, "passed": passed}


@pytest.mark.parametrize(
    ("flags", "read"),
    [([0, 1, 0, 0], (False, True, False, False)), ([1, 0, 0, 0], (True, False, False, False)),
     ([np.int64(1), np.False_, 0, False], (True, False, False, False))],
)  # fmt: skip
def test_passed_reads_0_and_1_as_flags(flags, read):
    assert State.from_dict(_four(flags)).passed == read


@pytest.mark.parametrize("bad", [2, -1, 1.0, 0.0], ids=repr)
def test_passed_refuses_a_number_that_is_no_flag(bad):
    with pytest.raises(ValueError, match=r"^passed must be 4 flags True/False, got "):
        State.from_dict(_four([bad, 0, 0, 0]))


# ------------------------------------------------------------------ ExpertMatch's target
def test_an_expert_match_plays_to_its_rules_target():
    rules = Rules(expert_target=30)
    assert ExpertMatch(4).target == DEFAULT_RULES.expert_target == 20
    assert ExpertMatch(4, rules=rules).target == ExpertMatch(4, rules="expert_target=30").target
    assert ExpertMatch(4, rules=rules).target == 30
    m = ExpertMatch(2, rules=rules).add([25, 0])
    assert not m.is_over and m.target == 30  # over at 20; the match keeps its target
    assert m.add([5, 0]).is_over and m.add([5, 0]).winners == (1,)
    assert ExpertMatch(4, 7, rules=rules).target == 7  # a target given wins


def test_an_expert_match_reads_its_rules_as_every_api_does():
    with pytest.raises(ValueError, match=r"^rules must be a leaves\.Rules"):
        ExpertMatch(3, 10, rules=5)  # refused beside a target too, not ignored
    with pytest.raises(ValueError, match=r"^expert_target must be 1\.\.1000, got 0"):
        ExpertMatch(3, rules={"expert_target": 0})
    with pytest.raises(TypeError, match=r"^target must be a whole number, got None"):
        ExpertMatch(3, None, rules=DEFAULT_RULES)  # None is no default
    with pytest.raises(TypeError, match="positional"):
        ExpertMatch(3, 20, (), 0, DEFAULT_RULES)  # keyword only


# ------------------------------------------------------------------ leaves.testing
def test_seeds_reach_the_upper_half_of_64_bits():
    high = find(seeds(), lambda s: s >= 2**63, settings=FIND)
    assert 2**63 <= high <= 2**64 - 1
    assert find(seeds(), lambda s: s > 2**64 - 2**16, settings=FIND) <= 2**64 - 1
    for seed in (2**63, 2**64 - 1):  # new_game, the one consumer, deals from them
        assert sum(new_game(4, seed=seed).hand_sizes) == 44


@settings(max_examples=30, database=None)
@given(seeds())
def test_seeds_stay_in_64_bits(seed):
    assert 0 <= seed <= 2**64 - 1


def test_rule_sets_draw_a_hand_size_per_player_count():
    r = find(rule_sets(), lambda r: len(r.hand_size) > 1, settings=FIND)
    assert all(n >= 2 for n, _ in r.hand_size)  # players:cards pairs, not one size (0)


def test_rule_sets_draw_players_left_to_follow_the_deck_and_hand_size():
    r = find(rule_sets(), lambda r: "players" not in r.changes(), settings=FIND)
    assert r.players and min(r.players) >= 3  # unset: the counts 3..6 the deck deals


def test_rule_sets_draw_expert_targets_past_60():
    assert find(rule_sets(), lambda r: r.expert_target > 60, settings=FIND).expert_target <= 1000


@settings(max_examples=60, database=None)
@given(rule_sets())
def test_every_drawn_rule_set_deals_each_count_it_allows(rules):
    assert Rules.from_dict(rules.to_dict()) == rules
    for n in rules.players:
        assert new_game(n, seed=0, rules=rules).hand_sizes == (rules.hand_size_for(n),) * n


def test_rules_md_points_up_to_the_pinned_encoding():
    """docs/rules.md's variants section names the 117 pinned ids of the section above it."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")
    said = re.search(r"the 117 pinned (above|below)", text)
    assert said and said[1] == "above"
    assert text.index("## Action encoding") < said.start()
