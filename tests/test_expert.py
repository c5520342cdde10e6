"""Expert variant: per-game scores, match end at 20 points, shared wins on ties (X1)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leaves import EXPERT_TARGET, Action, ExpertMatch, game_scores, new_game
from leaves.expert import scores_from_cards

from .helpers import counts, position


def test_game_scores_winner_zero_others_cards_left():
    s = position([counts(v10=2), counts(v2=2, v3=1), counts(v4=1)], table=counts(v9=2))
    s = s.apply(Action.play(10, 2))
    assert game_scores(s) == (0, 3, 1)
    with pytest.raises(ValueError):
        game_scores(new_game(4, seed=1))


def test_unfinished_game_everyone_scores_cards():
    assert scores_from_cards([3, 4, 5], None) == (3, 4, 5)


def test_match_ends_at_target_and_lowest_wins():
    m = ExpertMatch(3)
    assert m.target == EXPERT_TARGET == 20
    m = m.add([0, 10, 5])
    assert not m.is_over and m.winners == ()
    m = m.add([7, 10, 0])
    assert m.is_over and m.totals == (7, 20, 5) and m.winners == (2,) and m.games == 2
    with pytest.raises(ValueError):
        m.add([0, 0, 0])


def test_ties_share_the_match_win():
    m = ExpertMatch(4).add([5, 0, 5, 25])
    assert m.winners == (1,)
    m2 = ExpertMatch(4).add([0, 3, 3, 12]).add([3, 0, 9, 8])
    assert m2.totals == (3, 3, 12, 20) and m2.winners == (0, 1)
    m3 = ExpertMatch(4).add([4, 4, 20, 4])
    assert m3.winners == (0, 1, 3)  # a three-way tie: all three win


@given(st.lists(st.lists(st.integers(0, 12), min_size=4, max_size=4), min_size=1, max_size=30))
def test_match_properties(games):
    m = ExpertMatch(4)
    for g in games:
        if m.is_over:
            break
        m = m.add(g)
    if m.is_over:
        assert max(m.totals) >= 20
        # every player on the lowest total wins (X1), and nobody else
        low = min(m.totals)
        assert m.winners == tuple(i for i, t in enumerate(m.totals) if t == low)
    else:
        assert max(m.totals) < 20


def test_the_target_is_at_least_one_point():
    m = ExpertMatch(3, target=1)
    assert not m.is_over and m.add([0, 1, 0]).is_over  # one point ends a 1-point match
    assert not ExpertMatch(3, target=2).add([0, 1, 0]).is_over
    for bad in (0, -1):
        with pytest.raises(ValueError, match="at least 1 point"):
            ExpertMatch(3, target=bad)


def test_a_negative_score_is_refused():
    with pytest.raises(ValueError, match="cannot be negative"):
        ExpertMatch(3).add([0, -1, 2])
    assert ExpertMatch(3).add([0, 0, 0]).totals == (0, 0, 0)


def test_a_total_or_a_score_of_minus_1_is_refused_and_0_is_taken():
    """The bounds themselves: -1 (not only -2) is refused, 0 is a score and a total."""
    assert ExpertMatch(3, totals=(0, 5, 0)).totals == (0, 5, 0)
    with pytest.raises(ValueError, match=r"totals cannot be negative, got \(0, -1, 0\)"):
        ExpertMatch(3, totals=(0, -1, 0))
    m = ExpertMatch(3)
    assert m.add([0, 0, 0]).totals == (0, 0, 0)
    with pytest.raises(ValueError, match="scores cannot be negative"):
        m.add([0, -1, 2])


@pytest.mark.parametrize(
    ("args", "said"),
    [
        ((1,), "a match is played by at least 2 players, got n_players=1"),
        ((7,), "a match is played by at most 6 players, got n_players=7"),
        ((-(10**5000),),
         "a match is played by at least 2 players, got n_players=a negative whole number of "
         "about 5,001 digits"),
        ((10**5000,),
         "a match is played by at most 6 players, got n_players=a whole number of about 5,001 "
         "digits"),
        ((3, 0), "the match target must be at least 1 point, got 0"),
        ((3, 20, (0, -2, 0)), "totals cannot be negative, got (0, -2, 0)"),
        ((3, 20, (10**5000, -1, 0)),
         "totals cannot be negative, got a tuple that Python cannot write out: seat 1's is -1"),
        ((3, 20, (10**70, 0, -(10**100))),
         "totals cannot be negative, got (" + "1" + "0" * 55 + "...: seat 2's is a negative "
         "whole number of about 101 digits"),
    ],
    ids=["one", "seven", "minus-huge", "huge", "target", "totals", "beside-huge", "cut"],
)  # fmt: skip
def test_a_match_is_refused_in_one_line_showing_the_value_the_one_way(args, said):
    """A huge count, target or total is said by its digits (Python writes none past 4,300:
    its own error took the refusal's place; a huge count failed filling memory with totals);
    totals cut before their negative one name its seat. No game seats more than 6."""
    with pytest.raises(ValueError) as info:
        ExpertMatch(*args)
    assert str(info.value) == said
    assert ExpertMatch(6).totals == (0,) * 6 and ExpertMatch(2).totals == (0, 0)
