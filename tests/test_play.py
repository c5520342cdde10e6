"""Playing games: play_game, play_batch (both paths), forfeits, records, expert matches."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import leaves
import strategies
from gamekit.seeding import match_deal_seeds, match_play_seeds
from leaves import ExpertMatch, GameRecord, Rules, replay
from leaves.players.batch import _play_python
from leaves.players.play import deal_state
from strategies import PublicResult, Strategy, play_batch, play_game, play_match_batch


class Uniform(Strategy, register=False):
    """Uniform over the legal actions, drawing only from the given rng."""

    classifier = {"stochastic": True}

    def choose(self, view, legal, rng):
        return legal[int(rng.integers(len(legal)))]


class Lowest(Strategy, register=False):
    def choose(self, view, legal, rng):
        return legal[0]


class Hooked(Strategy, register=False):
    """Counts hook calls and checks what they receive."""

    def __init__(self):
        self.starts = 0
        self.ends = []

    def start_game(self, view, rng):
        assert view.turn == 0 and view.hand_size == sum(view.hand)
        self.starts += 1

    def choose(self, view, legal, rng):
        return legal[-1]

    def end_game(self, view, result):
        assert view.is_terminal or result.forfeit_seat is not None
        self.ends.append(result)


class RaisesAtTurn(Strategy, register=False):
    def __init__(self, turn: int = 5):
        self.turn = turn

    def choose(self, view, legal, rng):
        if view.turn >= self.turn:
            raise ValueError("gave up")
        return legal[0]


class PlaysIllegal(Strategy, register=False):
    def choose(self, view, legal, rng):
        illegal = [a for a in leaves.ALL_ACTIONS if a not in legal]
        return illegal[0]


def seeds(g, start=0):
    return np.arange(start, start + g, dtype=np.uint64)


def _replay_matches(batch, i, n):
    rec = batch.records[i]
    states = replay(rec)
    final = states[-1]
    assert rec.n_players == n
    assert batch.first_player[i] == rec.first_player == states[0].current_player
    assert batch.turns[i] == rec.turns == final.turn
    assert batch.rounds[i] == rec.rounds == final.round
    assert tuple(batch.cards_left[i]) == final.hand_sizes
    winner = -1 if final.winner is None else final.winner
    if batch.forfeit_seat[i] < 0:
        assert batch.winner_seat[i] == winner
        assert batch.unfinished[i] == final.unfinished
    return rec, final


# ---------------------------------------------------------------------- play_game
def test_play_game_result_and_record():
    r = play_game([Uniform(), Lowest(), Uniform(), Lowest()], seed=7)
    assert r.labels == ("Uniform", "Lowest", "Uniform", "Lowest")
    assert r.winner is not None and r.cards_left[r.winner] == 0
    assert r.forfeit_seat is None and r.error is None and not r.unfinished
    states = replay(r.record)
    assert states[-1] == r.final_state
    assert r.record.strategies == tuple(r.labels) and r.record.seed == r.deal_seed
    assert GameRecord.from_json(r.record.to_json()) == r.record
    assert r.scores == r.cards_left


def test_play_game_single_strategy_needs_n_players():
    r = play_game(Uniform(), seed=1, n_players=5, record=False)
    assert r.n_players == 5 and r.record is None
    with pytest.raises(ValueError, match="give n_players"):
        play_game(Uniform(), seed=1)
    with pytest.raises(ValueError, match="3 to 6 players"):
        play_game([Uniform()] * 2, seed=1)
    with pytest.raises(ValueError, match="unknown strategy"):
        play_game(["no-such-strategy"] * 3, seed=1)


def test_same_seed_same_game_and_deal_matches_kernels():
    a = play_game([Uniform()] * 4, seed=11)
    b = play_game([Uniform()] * 4, seed=11)
    assert a.record == b.record
    c = play_game([Uniform()] * 4, seed=12)
    assert c.record.hands != a.record.hands
    from leaves.kernels import deal_board, state_from_board

    dealt = state_from_board(deal_board(4, a.deal_seed))
    assert dealt.hands == replay(a.record)[0].hands
    assert dealt.current_player == a.first_player


def test_repeated_instance_is_cloned_per_seat():
    h = Hooked()
    play_game([h, h, h], seed=3)
    assert h.starts == 1 and len(h.ends) == 1  # the other seats got their own copies


def test_hooks_are_called_once_per_game():
    hooks = [Hooked() for _ in range(3)]
    r = play_game(hooks, seed=5)
    assert [h.starts for h in hooks] == [1, 1, 1]
    assert all(h.ends == [r.public()] for h in hooks)
    public = hooks[0].ends[0]  # the public result only: no hands, deal or seeds
    assert isinstance(public, PublicResult)
    for secret in ("final_state", "record", "deal_seed", "play_seed", "error"):
        assert not hasattr(public, secret)
    assert public.winner == r.winner and public.cards_left == r.cards_left


def test_turn_limit_makes_an_unfinished_game():
    r = play_game([Lowest()] * 3, seed=2, rules=Rules(turn_limit=5))
    assert r.unfinished and r.winner is None and r.turns == 5
    assert r.record.unfinished
    replay(r.record)


# ---------------------------------------------------------------------- forfeits
def test_raising_strategy_forfeits():
    r = play_game([Lowest(), RaisesAtTurn(turn=3), Lowest()], seed=4)
    assert r.forfeit_seat == 1 and r.winner is None and not r.unfinished
    assert r.error == "seat 1 (RaisesAtTurn(turn=3)): ValueError: gave up"
    assert r.record.forfeit_seat == 1 and r.record.error == r.error
    states = replay(r.record)
    assert states[-1].current_player == 1 and not states[-1].is_terminal


def test_illegal_action_forfeits():
    r = play_game([Lowest(), Lowest(), PlaysIllegal()], seed=9)
    assert r.forfeit_seat == 2 and r.winner is None
    assert r.error.startswith("seat 2 (PlaysIllegal): IllegalActionError: returned ")
    assert "not a legal action" in r.error


def test_failing_start_hook_forfeits():
    class BadStart(Lowest, register=False):
        def start_game(self, view, rng):
            raise RuntimeError("no")

    r = play_game([Lowest(), BadStart(), Lowest()], seed=1)
    assert r.forfeit_seat == 1 and r.turns == 0 and "RuntimeError: no" in r.error


def test_forfeits_are_recorded_in_batches():
    table = [Lowest(), Uniform(), RaisesAtTurn(turn=4)]
    b = play_batch(table, seeds(6), seeds(6, 100), record=True)
    assert len(b) == 6
    for i in range(6):
        if b.forfeit_seat[i] >= 0:
            assert b.forfeit_seat[i] == 2 and b.winner_seat[i] == -1
            assert b.errors[i].startswith("seat 2 (RaisesAtTurn(turn=4)): ValueError")
            assert b.records[i].forfeit_seat == 2
        else:
            assert b.errors[i] is None
        _replay_matches(b, i, 3)
    assert (b.forfeit_seat >= 0).any()


# ---------------------------------------------------------------------- play_batch
@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_python_batch_matches_records_and_play_game(n):
    table = [Uniform() if i % 2 else Lowest() for i in range(n)]
    deal, play = seeds(5, 1000 * n), seeds(5, 7)
    b = play_batch(table, deal, play, record=True)
    assert b.cards_left.shape == (5, n) and b.n_players == n
    assert b.first_player.dtype == np.int8 and b.cards_left.dtype == np.int16
    assert b.winner_seat.dtype == np.int8 and b.turns.dtype == np.int32
    assert b.rounds.dtype == np.int32 and b.unfinished.dtype == bool
    assert b.forfeit_seat.dtype == np.int8 and len(b.errors) == 5
    for i in range(5):
        rec, final = _replay_matches(b, i, n)
        assert rec.seed == int(deal[i])
        single = play_game(table, deal_seed=int(deal[i]), play_seed=int(play[i]))
        assert single.record == rec


def test_batch_is_reproducible_and_record_flag_does_not_change_results():
    table = [Uniform(), Lowest(), Uniform(), Uniform()]
    a = play_batch(table, seeds(8), seeds(8, 50))
    b = play_batch(table, seeds(8), seeds(8, 50), record=True)
    assert a.records is None and len(b.records) == 8
    for field in ("first_player", "cards_left", "winner_seat", "turns", "rounds", "unfinished"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    c = play_batch(table, seeds(8), seeds(8, 51))
    np.testing.assert_array_equal(a.first_player, c.first_player)  # same deals
    assert not np.array_equal(a.turns, c.turns)  # other decisions


def test_batch_input_errors():
    with pytest.raises(ValueError, match="differ in length"):
        play_batch([Lowest()] * 3, seeds(3), seeds(4))
    with pytest.raises(ValueError, match="non-negative"):
        play_batch([Lowest()] * 3, np.array([-1, 2]), seeds(2))
    with pytest.raises(ValueError, match="turn_limit"):
        play_batch([Lowest()] * 3, seeds(2), seeds(2), rules={"turn_limit": 0})
    with pytest.raises(ValueError, match="rules must be a leaves.Rules"):  # a bare limit: no
        play_batch([Lowest()] * 3, seeds(2), seeds(2), 500)
    with pytest.raises(ValueError, match="3 to 6 players"):
        play_batch([Lowest()] * 7, seeds(2), seeds(2))


def test_empty_batch():
    b = play_batch([Lowest()] * 3, seeds(0), seeds(0))
    assert len(b) == 0 and b.cards_left.shape == (0, 3)


@given(st.integers(0, 2**64 - 1), st.integers(0, 2**64 - 1), st.integers(3, 6))
def test_any_uint64_seed_plays_a_legal_game(deal_seed, play_seed, n):
    b = play_batch(
        [Uniform()] * n,
        np.array([deal_seed], np.uint64),
        np.array([play_seed], np.uint64),
        record=True,
    )
    _replay_matches(b, 0, n)
    assert b.winner_seat[0] >= 0 or b.unfinished[0]


# ---------------------------------------------------------------------- compiled dispatch
def _compiled_names():
    return [n for n in strategies.filtered(compiled=True)]


def _deterministic_compiled():
    return [
        n
        for n in strategies.filtered(compiled=True, stochastic=False)
        if strategies.get(n).compiled() is not None
    ]


def test_compiled_and_python_paths_agree_for_deterministic_strategies():
    names = _deterministic_compiled()
    assert len(names) >= 8  # every deterministic built-in
    table = [strategies.get(names[i % len(names)]) for i in range(4)]
    deal, play = seeds(20, 3), seeds(20, 9)
    fast = play_batch(table, deal, play, record=True)
    slow = _play_python(table, deal, play, leaves.Rules(), True)  # choose() on every seat
    assert not any(slow.errors)
    for field in ("first_player", "cards_left", "winner_seat", "turns", "rounds", "unfinished"):
        np.testing.assert_array_equal(getattr(fast, field), getattr(slow, field), err_msg=field)
    assert [r.actions for r in fast.records] == [r.actions for r in slow.records]


def test_compiled_path_records_replay():
    names = _compiled_names()
    assert len(names) >= 10  # every built-in
    tables = [[strategies.get(names[i % len(names)]) for i in range(5)]]
    tables += [[strategies.get(name)] * 4 for name in names]
    for table in tables:
        assert all(s.compiled() is not None for s in table)
        b = play_batch(table, seeds(20), seeds(20, 1), record=True)
        assert b.records[0].strategies == tuple(s.label for s in table)
        for i in range(20):
            try:
                _replay_matches(b, i, len(table))
            except (ValueError, AssertionError) as exc:
                raise AssertionError(f"compiled game {i} of {table}: {exc}") from exc


# ---------------------------------------------------------------------- expert matches
def test_match_deal_seeds_do_not_depend_on_play():
    ms = seeds(4, 77)
    a = play_match_batch([Uniform()] * 4, ms, seeds(4))
    b = play_match_batch([Lowest()] * 4, ms, seeds(4, 9))
    for m in range(4):
        k = min(a.games[m], b.games[m])
        da = a.deal_seeds[a.game_match == m][:k]
        db = b.deal_seeds[b.game_match == m][:k]
        np.testing.assert_array_equal(da, db)
        expected = [match_deal_seeds(ms[m : m + 1], i)[0] for i in range(k)]
        np.testing.assert_array_equal(da, expected)
    np.testing.assert_array_equal(
        match_deal_seeds(ms, 2), [match_deal_seeds(ms[i : i + 1], 2)[0] for i in range(4)]
    )
    assert not np.array_equal(match_deal_seeds(ms, 0), match_play_seeds(ms, 0))


def _check_matches(res, n, target):
    assert res.totals.shape == (len(res), n) and res.match_winners.shape == (len(res), n)
    assert res.games.dtype == np.int16 and res.totals.dtype == np.int16
    assert res.game_match.dtype == np.int32 and len(res.game_match) == int(res.games.sum())
    for m in range(len(res)):
        rows = np.flatnonzero(res.game_match == m)
        assert list(res.game_index[rows]) == list(range(len(rows)))
        match = ExpertMatch(n, target)
        for j in rows:
            winner = int(res.winner_seat[j])
            assert not match.is_over
            match = match.add(
                leaves.expert.scores_from_cards(res.cards_left[j], None if winner < 0 else winner)
            )
        assert match.is_over
        assert tuple(res.totals[m]) == match.totals
        assert tuple(np.flatnonzero(res.match_winners[m])) == match.winners
        assert res.totals[m].max() >= target


@pytest.mark.parametrize("n", [3, 6])
def test_match_scoring_agrees_with_expert_match(n):
    res = play_match_batch([Uniform()] * n, seeds(6, 40), seeds(6, 3), target=20)
    _check_matches(res, n, 20)


def test_match_games_replay_with_play_batch():
    table = [Uniform(), Lowest(), Uniform()]
    res = play_match_batch(table, seeds(3, 5), seeds(3, 6), record=True)
    again = play_batch(table, res.deal_seeds, res.play_seeds, record=True)
    np.testing.assert_array_equal(res.cards_left, again.cards_left)
    np.testing.assert_array_equal(res.turns, again.turns)
    assert [r.actions for r in res.records] == [r.actions for r in again.records]
    for j, rec in enumerate(res.records):
        assert rec.seed == int(res.deal_seeds[j])
        replay(rec)


def test_ties_share_the_match_win():
    # With turn_limit=1 every game is unfinished after the first player's one card, and every
    # seat scores its hand: two games make 22 points, less one per time a seat led, so seats
    # that led once each tie for the lowest total and share the win.
    res = play_match_batch([Lowest()] * 4, seeds(6), seeds(6), target=20, rules="turn_limit=1")
    assert res.unfinished.all()
    assert (res.games == 2).all()
    low = res.totals.min(axis=1, keepdims=True)
    np.testing.assert_array_equal(res.match_winners, res.totals == low)
    assert (res.match_winners.sum(axis=1) == 2).any()
    _check_matches(res, 4, 20)


def test_small_target_and_forfeits_in_matches():
    res = play_match_batch(
        [Lowest(), RaisesAtTurn(turn=2), Uniform()], seeds(4), seeds(4), target=1
    )
    assert (res.games == 1).all()
    assert (res.forfeit_seat == 1).all()
    # a forfeited game has no winner: everyone scores their cards left
    np.testing.assert_array_equal(res.totals, res.cards_left)


def test_match_batch_errors_and_empty():
    with pytest.raises(ValueError, match="target"):
        play_match_batch([Lowest()] * 3, seeds(2), seeds(2), target=0)
    with pytest.raises(ValueError, match="differ in length"):
        play_match_batch([Lowest()] * 3, seeds(2), seeds(3))
    res = play_match_batch([Lowest()] * 3, seeds(0), seeds(0))
    assert len(res) == 0 and len(res.game_match) == 0 and res.cards_left.shape == (0, 3)


def test_deal_state_is_the_kernel_deal():
    s = deal_state(5, 123)
    assert s.n_players == 5 and s.turn == 0 and all(h == 10 for h in s.hand_sizes)
    assert s == deal_state(5, 123)
