"""Built-in strategies and the compiled game loop (leaves.players.builtin, leaves.players.compiled)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strategies
from leaves import Action, Rules, State, kernels
from leaves.board import M_CUR, META, public_board
from leaves.players import compiled as C
from leaves.players.builtin import BUILTINS, WeightedStrategy
from leaves.players.compiled import engine
from leaves.players.play import deal_state
from leaves.players.policy import counting
from leaves.players.policy import features as F
from leaves.players.testing import check_strategy, random_position
from leaves.testing import positions as reached_positions

NAMES = [cls.name for cls in BUILTINS]
DETERMINISTIC = [cls.name for cls in BUILTINS if not cls.classifier["stochastic"]]


def table_arrays(names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    compiled = [strategies.get(n).compiled() for n in names]
    return (
        np.array([k for k, _ in compiled], dtype=np.int64),
        np.stack([v for _, v in compiled]),
    )


def full_board(state: State) -> tuple[np.ndarray, np.ndarray]:
    """The complete board of ``state`` (every hand, undealt) and its hand sizes."""
    board = kernels.board_from_state(state)
    sizes = np.zeros(8, dtype=np.int64)
    sizes[: state.n_players] = state.hand_sizes
    return board, sizes


def decide_full(name: str, state: State, seed: int = 0) -> int:
    """The compiled policy's choice on the full board: the C engine's (numba's without it;
    tests/test_engine_c.py shows both choose alike)."""
    kind, params = strategies.get(name).compiled()
    board, sizes = full_board(state)
    work = np.zeros(C.WORK_SIZE, dtype=np.int64)
    if engine.available():
        rng = engine.rng_new(seed)
        return engine.decide(kind, params, board, state.current_player, sizes, rng, work)
    rng = kernels.rng_new(np.uint64(seed))
    return int(C.decide(kind, params, board, state.current_player, sizes, rng, work))


# ----------------------------------------------------------------------------- identity
def test_at_least_eight_distinct_builtins_registered():
    assert len(set(NAMES)) >= 8
    kinds = {strategies.get(n).compiled()[0] for n in NAMES}
    assert len(kinds) == len(NAMES)
    for cls in BUILTINS:
        assert cls.__doc__ and len(cls.__doc__.split()) > 30, cls.name
        assert cls.classifier["compiled"] and not cls.classifier["search"]
    assert strategies.get("random").classifier["stochastic"]
    assert strategies.get("counter").classifier["uses_card_counting"]


@pytest.mark.parametrize("name", NAMES)
def test_builtin_passes_check_strategy(name):
    check_strategy(name, max_examples=8, games=2)


def test_weighted_parameters_reach_the_policy_and_bad_values_are_refused():
    w = strategies.get("weighted:w_pass=5.0")
    kind, vec = w.compiled()
    assert kind == WeightedStrategy.kind and vec.shape == (C.N_PARAMS,)
    assert vec[WeightedStrategy.PARAMS.index.w_pass] == 5.0
    assert w.label == "weighted(w_pass=5.0)"
    with pytest.raises(ValueError, match="w_shed must be a number"):
        type(w)(w_shed="abc")
    with pytest.raises(ValueError, match="w_shed"):
        strategies.get("weighted:w_shed=abc")


# ----------------------------------------------------------------------------- same decisions
positions = st.builds(
    random_position,
    st.integers(3, 6),
    st.integers(0, 2**31),
    st.sampled_from(["lead", "follow", "forced_take", "last_two", "any"]),
)


@settings(max_examples=40)
@given(pos=positions, name=st.sampled_from(DETERMINISTIC))
def test_compiled_policy_on_full_board_equals_python_choose(pos, name):
    _, state = pos
    if state.is_terminal:
        return
    strat = strategies.get(name)
    legal = state.legal_actions()
    view = state.view(state.current_player)
    chosen = strat.choose(view, legal, np.random.default_rng(0))
    assert chosen in legal
    assert decide_full(name, state) == chosen.id


@settings(max_examples=40)
@given(pos=positions, name=st.sampled_from(NAMES), seed=st.integers(0, 2**32), k=st.integers(0, 9))
def test_policies_ignore_hidden_cards(pos, name, seed, k):
    """Re-dealing the hidden cards among opponents and the undealt pile keeps the decision."""
    _, state = pos
    if state.is_terminal:
        return
    view = state.view(state.current_player)
    other = view.sample_state(np.random.default_rng(k))
    assert other.view(state.current_player) == view
    assert decide_full(name, state, seed) == decide_full(name, other, seed)


def test_random_choose_is_uniform_over_legal_ids():
    _, state = random_position(4, 3, "follow")
    legal = state.legal_actions()
    assert len(legal) >= 3
    view = state.view(state.current_player)
    strat = strategies.get("random")
    rng = np.random.default_rng(1)
    draws = 300 * len(legal)
    counts = {a: 0 for a in legal}
    for _ in range(draws):
        counts[strat.choose(view, legal, rng)] += 1
    sd = (300 * (1 - 1 / len(legal))) ** 0.5
    assert all(abs(c - 300) < 5 * sd for c in counts.values()), counts


def test_winning_play_is_always_taken():
    # seat 0 holds three 9s and the right end is two 8s: playing all three wins.
    from tests.helpers import counts, position

    state = position(
        [counts(v9=3), counts(v1=1, v2=2), counts(v3=1, v4=1), counts(v5=2)],
        table=counts(v6=1, v8=2),
    )
    for name in DETERMINISTIC:
        assert decide_full(name, state) == Action.play(9, 3).id, name


# ----------------------------------------------------------------------------- compiled loop
def _seeds(g: int, salt: int) -> tuple[np.ndarray, np.ndarray]:
    return (
        np.random.SeedSequence([salt, 0]).generate_state(g, dtype=np.uint64),
        np.random.SeedSequence([salt, 1]).generate_state(g, dtype=np.uint64),
    )


@pytest.mark.parametrize(
    "table",
    [
        ["counter", "taker", "weighted", "random"],
        ["low", "high", "minimal"],
        ["greedy", "patient", "blocker", "random", "counter", "weighted"],
    ],
)
def test_batch_results_are_consistent_and_reproducible(table):
    kinds, params = table_arrays(table)
    d, p = _seeds(300, len(table))
    res = C.play_batch_compiled(kinds, params, d, p)
    first, left, winner, turns, rounds, unfinished = res
    n = len(table)
    assert left.shape == (300, n) and (left >= 0).all()
    assert ((first >= 0) & (first < n)).all()
    done = ~unfinished
    assert (winner[done] >= 0).all() and (winner[unfinished] == -1).all()
    assert (left[done, winner[done]] == 0).all()
    assert ((left == 0).sum(axis=1) == done).all()  # only the winner has emptied its hand
    assert (turns >= 1).all() and (rounds >= 1).all()
    again = C.play_batch_compiled(kinds, params, d, p)
    for a, b in zip(res, again, strict=True):
        np.testing.assert_array_equal(a, b)


def test_batch_records_replay_with_the_state_api():
    """Cards conserved and every action legal: State.apply replays each recorded game."""
    table = ["random", "counter", "taker", "weighted"]
    kinds, params = table_arrays(table)
    d, p = _seeds(40, 9)
    first, left, winner, turns, rounds, unfinished, actions = C.play_batch_compiled_records(
        kinds, params, d, p
    )
    for g in range(40):
        state = deal_state(4, int(d[g]))
        assert state.current_player == first[g]
        for aid in actions[g, : turns[g]]:
            state = state.apply(int(aid))
        assert state.is_terminal and state.turn == turns[g] and state.round == rounds[g]
        assert state.winner == (None if winner[g] < 0 else winner[g])
        assert list(state.hand_sizes) == left[g].tolist()


@pytest.mark.parametrize("table", [["counter", "taker", "weighted", "low"], DETERMINISTIC[:5]])
def test_compiled_loop_agrees_with_python_play(table):
    """Deterministic tables: the Python path (State API + choose) plays the same games."""
    kinds, params = table_arrays(table)
    d, p = _seeds(8, 3)
    _, left, winner, turns, rounds, _ = C.play_batch_compiled(kinds, params, d, p)
    strats = [strategies.get(n) for n in table]
    rng = np.random.default_rng(0)
    for g in range(8):
        state = deal_state(len(table), int(d[g]))
        while not state.is_terminal:
            seat = state.current_player
            state = state.apply(strats[seat].choose(state.view(seat), state.legal_actions(), rng))
        assert (state.winner, state.turn, state.round) == (
            None if winner[g] < 0 else winner[g],
            turns[g],
            rounds[g],
        )
        assert list(state.hand_sizes) == left[g].tolist()


def test_turn_limit_makes_games_unfinished():
    kinds, params = table_arrays(["random"] * 4)
    d, p = _seeds(20, 4)
    _, _, winner, turns, _, unfinished = C.play_batch_compiled(
        kinds, params, d, p, Rules(turn_limit=5)
    )
    assert unfinished.all() and (winner == -1).all() and (turns == 5).all()


def test_bad_tables_are_refused_with_clear_messages():
    kinds, params = table_arrays(["random"] * 4)
    d, p = _seeds(2, 6)
    with pytest.raises(ValueError, match="3 to 6 players"):
        C.play_batch_compiled(kinds[:2], params[:2], d, p)
    with pytest.raises(ValueError, match="policy kinds"):
        C.play_batch_compiled(kinds + 50, params, d, p)
    with pytest.raises(ValueError, match="same length"):
        C.play_batch_compiled(kinds, params, d, p[:1])
    with pytest.raises(ValueError, match="params must have shape"):
        C.play_batch_compiled(kinds, params[:, :3], d, p)


def test_python_board_shows_only_the_owners_cards():
    _, state = random_position(5, 11, "follow")
    seat = state.current_player
    board, sizes = public_board(state.view(seat))
    full, full_sizes = full_board(state)
    np.testing.assert_array_equal(sizes, full_sizes)
    assert board[META, M_CUR] == seat
    for i in range(5):
        expect = full[i] if i == seat else np.zeros(13)
        np.testing.assert_array_equal(board[i], expect)
    np.testing.assert_array_equal(board[6:8], full[6:8])  # table, removed
    assert not board[8].any()  # undealt hidden
    np.testing.assert_array_equal(board[9:15], full[9:15])  # known


def test_greedy_keep_pairs_variant_from_kwargs_and_spec():
    import strategies
    from leaves import Action

    from .helpers import counts, position

    a = strategies.get("greedy", keep_pairs=True)
    b = strategies.get("greedy:keep_pairs=true")
    assert (
        a == b
        and a.label == "greedy(keep_pairs=True)"
        and strategies.get("greedy").label == "greedy"
    )
    # leading with a pair of 9s and a single 4: plain greedy dumps the pair, keep_pairs keeps it
    s = position([counts(v9=2, v4=1), counts(v1=1), counts(v2=1)])
    v = s.view(0)
    rng = np.random.default_rng(0)
    assert strategies.get("greedy").choose(v, s.legal_actions(), rng) == Action.play(9, 2)
    assert a.choose(v, s.legal_actions(), rng) == Action.play(4, 1)
    # a pair that empties the hand is always played
    s2 = position([counts(v9=2), counts(v1=1), counts(v2=1)])
    assert a.choose(s2.view(0), s2.legal_actions(), rng) == Action.play(9, 2)


# ----------------------------------------------------------------------------- declarations
def test_builtins_are_the_dispatched_policies_in_kind_order():
    assert tuple(BUILTINS) == C.POLICIES
    assert [cls.kind for cls in C.POLICIES] == list(range(C.N_KINDS))


@pytest.mark.slow
@settings(max_examples=30)
@given(pos=positions, seed=st.integers(0, 2**32))
def test_decide_calls_the_kernel_of_each_kind(pos, seed):
    _, state = pos
    if state.is_terminal:
        return
    board, sizes = full_board(state)
    seat = state.current_player
    for cls in C.POLICIES:
        vec = cls().compiled()[1]
        work = np.zeros(C.WORK_SIZE, dtype=np.int64)
        rng = kernels.rng_new(np.uint64(seed))
        via_decide = C.decide(cls.kind, vec, board, seat, sizes, rng, work)
        rng = kernels.rng_new(np.uint64(seed))
        direct = cls.policy(board, seat, sizes, vec, rng, work)
        assert via_decide == direct, cls.name


@pytest.mark.parametrize("cls", BUILTINS, ids=lambda c: c.name)
def test_parameters_come_from_the_one_declaration(cls):
    decl = cls.PARAMS
    s = cls()
    assert s.params == decl.defaults()
    vec = s.compiled()[1]
    assert vec.shape == (C.N_PARAMS,) and not vec[len(decl) :].any()
    for i, p in enumerate(decl):
        assert decl.index[i] == i and getattr(decl.index, p.name) == i
        assert vec[i] == float(p.default)
        if p.range is not None:
            low, high = p.range
            assert low < high and low <= p.default <= high, p.name
            # a changed value lands at its declared position, and only there
            x = high if p.default != high else low
            moved = cls(**{p.name: x}).compiled()[1]
            assert moved[i] == x and np.count_nonzero(moved != vec) == 1, p.name
    assert set(decl.tunable()) == {p.name for p in decl if p.range is not None}


def test_tunable_parameters_are_declared_for_every_numeric_parameter():
    for cls in BUILTINS:
        for p in cls.PARAMS:
            assert p.is_flag or p.range is not None, f"{cls.name}.{p.name} has no range"


def test_weighted_has_one_weight_per_feature_in_feature_order():
    from leaves.players.builtin import PLAY_FEATURES, TAKE_FEATURES

    want = tuple(f"w_{f}" for f in PLAY_FEATURES + TAKE_FEATURES)
    assert WeightedStrategy.PARAMS.names == want


def test_flag_parameters_refuse_non_booleans():
    with pytest.raises(ValueError, match="keep_pairs must be true or false"):
        type(strategies.get("greedy"))(keep_pairs=1)
    with pytest.raises(ValueError, match="min_hand must be finite"):
        type(strategies.get("patient"))(min_hand=float("inf"))


@settings(max_examples=200)
@given(
    avail=st.lists(st.integers(0, 8), min_size=13, max_size=13),
    ends=st.tuples(st.integers(0, 12), st.integers(0, 12)).map(sorted),
    a=st.integers(1, 9),
    b=st.integers(1, 9),
)
def test_threat_counts_the_values_that_could_answer_each_end(avail, ends, a, b):
    """A value answers an end when an opponent might hold at least the end's size of it."""
    lo_v, hi_v = ends
    work = np.zeros(F.WORK_SIZE, np.int64)
    work[F.AVAIL : F.AVAIL + 13] = avail
    counting.fill_masks(work)
    if lo_v == hi_v:
        expected = sum(x >= min(a, b) for x in avail)
    else:
        expected = sum(x >= a for x in avail[: lo_v + 1]) + sum(x >= b for x in avail[hi_v:])
    assert F.threat(work, lo_v, a, hi_v, b) == expected


@settings(max_examples=60, deadline=None)
@given(state=reached_positions())
def test_fill_avail_counts_unseen_cards_plus_the_most_an_opponent_in_the_round_shows(state):
    me = state.current_player
    players = state.n_players
    view = state.view(me)
    work = np.full(F.WORK_SIZE, -7, np.int64)  # stale scratch must not leak into the counts
    board, _ = public_board(view)
    F.fill_avail(board, me, work)
    in_round = [i for i in range(players) if i != me and not view.passed[i]]
    unseen = view.unseen()
    for u in range(13):
        shown = max((view.known[i][u] for i in in_round), default=0)
        assert work[F.AVAIL + u] == unseen[u] + shown


EXTREME = st.sampled_from([-1e300, -1e30, -1e17, 0.0, 1e17, 1e30, 1e300])


@settings(max_examples=80)
@given(pos=positions, name=st.sampled_from(["weighted", "counter", "taker"]), data=st.data())
def test_scored_policies_choose_legal_actions_at_extreme_weights(pos, name, data):
    """Scores below any sentinel (the -1e18 that once stood for "nothing chosen yet") still
    choose a legal action: the first action scored is kept whatever its score."""
    _, state = pos
    if state.is_terminal:
        return
    cls = type(strategies.get(name))
    weights = {p.name: data.draw(EXTREME, label=p.name) for p in cls.PARAMS if p.is_number}
    kind, params = cls(**weights).compiled()
    board, sizes = full_board(state)
    work = np.zeros(C.WORK_SIZE, dtype=np.int64)
    rng = kernels.rng_new(np.uint64(0))
    aid = int(C.decide(kind, params, board, state.current_player, sizes, rng, work))
    assert aid in {a.id for a in state.legal_actions()}


_NEW_BUILTIN = """
import numpy as np
import strategies
import leaves.players.builtin as B
from gamekit.jit import njit
from leaves.players.builtin._base import CompiledBuiltin, in_kind_order
from leaves.players.builtin.simple import policy_low


@njit
def policy_mirror(board, seat, sizes, params, rng, work):
    return policy_low(board, seat, sizes, params, rng, work)


class MirrorStrategy(CompiledBuiltin):
    name = "mirror"
    description = "low's kernel as a new built-in"
    policy = policy_mirror


B.BUILTINS = in_kind_order(*B.BUILTINS, MirrorStrategy)  # the one line in BUILTINS
from leaves.players.compiled import engine, loops
from leaves.players.play import play_game

kind = MirrorStrategy.kind
assert kind == len(B.BUILTINS) - 1 and not engine.covers(kind)
seeds = np.arange(3, dtype=np.uint64)
games = [
    loops.play_batch_compiled_records(
        np.array([[k, 2, 3]]), np.zeros((1, 3, 12)), seeds, seeds, "turn_limit=300"
    )
    for k in (kind, B.LowStrategy.kind)
]
for a, b in zip(*games, strict=True):
    assert np.array_equal(a, b)
table = [strategies.get("high"), strategies.get("minimal")]
mirror = play_game([strategies.get("mirror"), *table], seed=4).record
low = play_game([strategies.get("low"), *table], seed=4).record
assert mirror.actions == low.actions and len(low.actions) > 10
print("ok", kind)
"""


@pytest.mark.slow
def test_a_new_builtin_is_its_module_and_one_line_in_builtins(tmp_path):
    """A kernel and its class, added to ``BUILTINS`` and nowhere else, play in the compiled
    loops (numba's, until it has a C form) and through ``choose``, as the kernel it calls."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "NUMBA_DISABLE_JIT": "1"}
    run = subprocess.run(
        [sys.executable, "-c", _NEW_BUILTIN], capture_output=True, text=True, env=env, timeout=300
    )
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split() == ["ok", str(len(BUILTINS))]
