"""Hypothesis properties of Ligretto rounds, and the Python path against the compiled path."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ligretto
from ligretto.compiled import ENDED_BLOCKADE, play_rounds, round_events
from ligretto.policy import KIND_NAMES, N_PARAMS, PolicyPlayer
from ligretto.record import RoundRecord, replay
from ligretto.rules import N_VALUES, SET_SIZE, STACK_SIZE, colour_of, score, value_of

seeds = st.integers(0, 2**64 - 1)


@st.composite
def policies(draw) -> np.ndarray:
    return np.array(
        [
            draw(st.sampled_from([0.5, 0.9, 1.0, 1.1, 2.0])),  # speed
            draw(st.integers(0, 400)),  # think
            draw(st.integers(0, 100)),  # look
            draw(st.integers(0, 400)),  # flip
            draw(st.integers(0, 150)),  # spread
            draw(st.integers(0, 3)),  # order
            draw(st.integers(0, 1)),  # cautious
            draw(st.integers(0, 12)),  # patience
        ],
        dtype=np.float64,
    )


@st.composite
def tables(draw, min_players: int = 2, max_players: int = 12) -> np.ndarray:
    n = draw(st.integers(min_players, max_players))
    return np.stack([draw(policies()) for _ in range(n)])


def _round(params, deal_seed, play_seed):
    players = [PolicyPlayer(p) for p in params]
    labels = [f"p{s}" for s in range(len(players))]
    return ligretto.play_round(players, deal_seed, play_seed, record=True, labels=labels)


@settings(max_examples=40)
@given(tables(), seeds, seeds)
def test_round_invariants_in_every_state(params, deal_seed, play_seed):
    out = _round(params, deal_seed, play_seed)
    rec = RoundRecord.from_json(out.record.to_json())
    states = replay(rec)
    n = len(params)
    for i, s in enumerate(states):
        for p in range(n):  # cards conserved per player
            assert sorted(s.cards_of(p)) == list(range(SET_SIZE))
        for pile in s.piles:  # every centre pile is a run 1..k of one colour
            cards = [c for _, c in pile]
            assert [value_of(c) for c in cards] == list(range(1, len(cards) + 1))
            assert len({colour_of(c) for c in cards}) == 1
        if i < len(states) - 1:  # the round is not over before its last event
            assert not s.is_over()
        _check_views(s)
    final = states[-1]
    # scores follow the formula
    centre, left = final.centre_cards(), final.stack_left()
    assert list(final.scores()) == [score(c, k) for c, k in zip(centre, left, strict=True)]
    assert rec.scores == [c - 2 * k for c, k in zip(centre, left, strict=True)]
    # a round ends only by an empty stack or a true blockade
    if rec.ended_by is None:
        assert final.is_blockade() and out.ended_by == ENDED_BLOCKADE
    else:
        assert final.stacks[rec.ended_by] == ()
        assert sum(1 for st_ in final.stacks if not st_) == 1


def _check_views(s) -> None:
    """Views hold exactly the face-up cards and sizes, never a face-down card."""
    fields = {f.name for f in dataclasses.fields(ligretto.PlayerView)}
    assert fields == {
        "seat",
        "n_players",
        "pile_tops",
        "stack_tops",
        "stack_sizes",
        "rows",
        "hand_tops",
        "hand_pile",
        "hand_left",
        "idle",
    }
    for seat in range(s.n_players):
        v = s.view(seat)
        assert v.pile_tops == tuple(p[-1][1] for p in s.piles)
        assert v.stack_tops == tuple(st_[0] if st_ else -1 for st_ in s.stacks)
        assert v.stack_sizes == tuple(len(st_) for st_ in s.stacks)
        assert v.rows == s.rows
        assert v.hand_tops == tuple(h[-1] if h else -1 for h in s.hand_piles)
        assert v.hand_pile == s.hand_piles[seat]  # its own, face up
        assert v.hand_left == len(s.hands[seat])  # a size, not the cards


@pytest.mark.slow
@settings(max_examples=60)
@given(tables(), seeds, seeds)
def test_python_path_and_compiled_path_play_the_same_round(params, deal_seed, play_seed):
    out = _round(params, deal_seed, play_seed)
    ev, row = round_events(params, deal_seed, play_seed)
    n = len(params)
    compiled = [[int(t), int(s), KIND_NAMES[k], int(c), int(p)] for t, s, k, c, p in ev]
    assert compiled == out.events
    assert list(row[:n]) == list(out.scores)
    assert list(row[n : 2 * n]) == list(out.state.stack_left())
    assert list(row[2 * n : 3 * n]) == list(out.state.centre_cards())
    assert int(row[3 * n]) == out.ended_by
    assert int(row[3 * n + 1]) == out.time_ms
    batch = play_rounds(params, np.array([deal_seed], np.uint64), np.array([play_seed], np.uint64))
    assert batch.scores[0].tolist() == list(out.scores)
    assert int(batch.ended_by[0]) == out.ended_by


@settings(max_examples=20)
@given(tables(2, 6), st.lists(seeds, min_size=2, max_size=12), st.integers(1, 5))
def test_a_round_depends_on_its_seeds_only_not_on_the_batch(params, deal_list, split):
    deal = np.array(deal_list, np.uint64)
    play = deal[::-1].copy()
    whole = play_rounds(params, deal, play)
    parts = [
        play_rounds(params, deal[i : i + split], play[i : i + split])
        for i in range(0, len(deal), split)
    ]
    assert np.array_equal(whole.scores, np.concatenate([p.scores for p in parts]))
    assert np.array_equal(whole.time_ms, np.concatenate([p.time_ms for p in parts]))


@settings(max_examples=30)
@given(tables(), seeds, seeds)
def test_rounds_end_and_scores_are_bounded(params, deal_seed, play_seed):
    b = play_rounds(params, np.array([deal_seed], np.uint64), np.array([play_seed], np.uint64))
    assert int(b.ended_by[0]) >= ENDED_BLOCKADE  # never unfinished
    assert np.all(b.stack_left >= 0) and np.all(b.stack_left <= STACK_SIZE)
    assert np.all(b.centre_cards <= SET_SIZE)
    assert int(b.plays[0]) == int(b.centre_cards.sum())
    assert b.plays[0] <= len(params) * N_VALUES * 4


def test_policy_vector_length_is_checked():
    import pytest

    with pytest.raises(ValueError, match="parameters"):
        play_rounds(np.zeros((2, N_PARAMS + 1)), np.zeros(1, np.uint64), np.zeros(1, np.uint64))


@settings(max_examples=15)
@given(tables(), seeds, seeds, st.integers(0, 30))
def test_a_full_event_buffer_stops_writing_but_the_round_plays_on(params, deal, play, cap):
    full, row = round_events(params, deal, play)
    head, head_row = round_events(params, deal, play, cap=cap)
    assert np.array_equal(head, full[:cap])  # the first events, then no more written
    assert np.array_equal(head_row, row)  # the same round, every event counted
