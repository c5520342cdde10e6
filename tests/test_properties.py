"""Hypothesis property tests: invariants of the rules over random positions and games."""

from __future__ import annotations

import pickle

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

import leaves
from leaves import DECK, Action, GameRecord, IllegalActionError, State
from leaves.testing import action_sequences, games, positions


def _conserved(s: State) -> bool:
    return all(
        sum(h[v] for h in s.hands) + s.table[v] + s.removed[v] + s.undealt[v] == DECK[v]
        for v in range(13)
    )


@given(games())
def test_cards_conserved_after_every_action(states):
    for s in states:
        assert _conserved(s)
        assert s.hand_sizes == tuple(sum(h) for h in s.hands)
        assert all(s.known[p][v] <= s.hand(p)[v] for p in range(s.n_players) for v in range(13))


@given(games())
def test_game_invariants(states):
    final = states[-1]
    assert final.is_terminal
    assert (final.winner is None) == final.unfinished
    if final.winner is not None:
        assert final.hand_sizes[final.winner] == 0
        assert sum(1 for x in final.hand_sizes if x == 0) == 1
    for a, b in zip(states, states[1:], strict=False):
        assert b.turn == a.turn + 1
        assert b.round in (a.round, a.round + 1)
        assert not a.is_terminal


@given(positions())
def test_legal_plays_respect_the_ends(s):
    ends = s.ends
    hand = s.hand(s.current_player)
    for a in s.legal_actions():
        if a.is_pass:
            assert ends is not None and s.table[a.value - 1] > 0  # P1, takes from any stack
            continue
        assert hand[a.value - 1] >= a.count
        if ends is not None:
            (lv, ls), (rv, rs) = ends
            assert not (lv < a.value < rv), "never a play between the ends"
            need = ls if a.value <= lv else rs
            assert a.count >= need
    if ends is None:
        assert not any(a.is_pass for a in s.legal_actions())  # P1
    else:
        # every stack is a take option (P2: the pass always takes)
        takes = {a.value for a in s.legal_actions() if a.is_pass}
        assert takes == {v + 1 for v in range(13) if s.table[v]}


@given(positions(), st.integers(0, 116))
def test_apply_accepts_exactly_the_legal_actions(s, aid):
    legal = {a.id for a in s.legal_actions()}
    before = s.to_dict()
    if aid in legal:
        nxt = s.apply(aid)
        assert nxt is not s
    else:
        try:
            s.apply(aid)
        except IllegalActionError as exc:
            assert str(exc)
        else:
            raise AssertionError(f"illegal action {Action.from_id(aid)} was accepted")
    assert s.to_dict() == before, "apply must never change the old state"


@given(positions())
def test_takes_and_end_moving_inward(s):
    for a in s.legal_actions():
        if not a.is_pass:
            continue
        nxt = s.apply(a)
        p = s.current_player
        assert nxt.hand(p)[a.value - 1] == s.hand(p)[a.value - 1] + 1
        if nxt.round == s.round:
            assert nxt.table[a.value - 1] == s.table[a.value - 1] - 1
            assert nxt.passed[p]
            stacks = nxt.stacks
            if stacks:
                assert nxt.ends == (stacks[0], stacks[-1])
        else:  # round end: survivor clears, leads, everyone plays again
            survivor = [i for i in range(s.n_players) if not s.passed[i] and i != p]
            assert [nxt.current_player] == survivor
            assert nxt.table == (0,) * 13 and not any(nxt.passed)
            removed = [nxt.removed[v] - s.removed[v] for v in range(13)]
            expected = list(s.table)
            expected[a.value - 1] -= 1
            assert removed == expected


@given(positions())
def test_turn_passes_to_next_active_seat(s):
    for a in s.legal_actions():
        nxt = s.apply(a)
        if nxt.is_terminal or nxt.round != s.round:
            continue
        n = s.n_players
        q = (s.current_player + 1) % n
        while nxt.passed[q]:
            q = (q + 1) % n
        assert nxt.current_player == q


@given(positions(), st.integers(0, 2**32))
def test_views_leak_nothing(s, seed):
    """Two states that differ only in hidden cards give equal views."""
    rng = np.random.default_rng(seed)
    for p in range(s.n_players):
        v = s.view(p)
        other = v.sample_state(rng)  # hidden cards reshuffled
        assert other.view(p) == v
        assert v.hand == s.hand(p)


@given(positions(), st.integers(0, 2**32))
def test_determinized_states_agree_with_the_view(s, seed):
    p = s.current_player
    v = s.view(p)
    d = v.sample_state(np.random.default_rng(seed))
    assert _conserved(d)
    assert d.hand(p) == s.hand(p)
    assert d.hand_sizes == s.hand_sizes and d.table == s.table and d.removed == s.removed
    assert d.passed == s.passed and d.current_player == s.current_player
    for o in range(s.n_players):
        assert all(d.hand(o)[x] >= s.known[o][x] for x in range(13))
    assert d.legal_actions() == s.legal_actions()
    State.from_dict(d.to_dict())  # a valid position


def test_determinizer_varies_hidden_cards():
    s = leaves.new_game(4, seed=1)
    v = s.view(0)
    samples = {v.sample_state(np.random.default_rng(i)).hand(1) for i in range(10)}
    assert len(samples) > 1


@given(action_sequences())
def test_replay_round_trips(seq):
    start, ids = seq
    s = start
    for aid in ids:
        s = s.apply(aid)
    rec = GameRecord.from_states(start, s, seed=1, strategies=["x"] * s.n_players)
    back = GameRecord.from_json(rec.to_json())
    assert back == rec
    states = leaves.replay(back)
    assert states[0] == start and states[-1] == s
    assert [b.history[-1][1].id for b in states[1:]] == ids


@given(action_sequences(max_turns=30))
def test_replay_refuses_illegal_records(seq):
    start, ids = seq
    s = start
    for aid in ids:
        s = s.apply(aid)
    if s.is_terminal:
        return
    illegal = next(i for i in range(117) if not s.is_legal(i))
    rec = GameRecord.from_states(start, s, stopped="left")  # it has not ended
    bad = GameRecord(**{**rec.to_dict(), "actions": ids + [illegal], "turns": len(ids) + 1})
    try:
        leaves.replay(bad)
    except IllegalActionError as exc:
        assert f"record action {len(ids)}" in str(exc)
    else:
        raise AssertionError("an illegal record was replayed")


@given(positions())
def test_states_hashable_and_dict_round_trip(s):
    d = s.to_dict()
    back = State.from_dict(d)
    assert back == s and hash(back) == hash(s)
    assert back.legal_actions() == s.legal_actions()


@given(positions())
def test_a_pickled_state_is_the_same_game(s):
    # a worker process receives the position and the history behind it: same views, moves
    back = pickle.loads(pickle.dumps(s))
    assert back == s and back.legal_actions() == s.legal_actions()
    for p in range(s.n_players):
        mine, theirs = back.view(p), s.view(p)
        assert mine.history == theirs.history and mine.hand == theirs.hand
    if not s.is_terminal:
        a = s.legal_actions()[-1]
        assert back.apply(a).view(0).history == s.apply(a).view(0).history


@given(st.integers(1, 12), st.integers(0, 2**32))
def test_turn_limit_is_respected(limit, seed):
    s = leaves.new_game(4, seed=seed, rules=leaves.Rules(turn_limit=limit))
    rng = np.random.default_rng(seed)
    while not s.is_terminal:
        legal = s.legal_actions()
        s = s.apply(legal[rng.integers(len(legal))])
    assert s.turn <= limit
    assert s.winner is not None or (s.unfinished and s.turn == limit)
