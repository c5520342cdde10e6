"""Tests of the ``ismcts`` strategy: legality, reproducibility, budget, hidden information."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import strategies
from leaves import DECK, Action, kernels
from leaves.board import M_TURN, META, public_board
from leaves.players import compiled as C
from leaves.players.ismcts import (
    ISMCTS,
    NO_MEMO,
    Check,
    Models,
    Position,
    carry_deal,
    determinize,
    evidence,
    fit_models,
    mismatches,
    seat_mismatches,
    swap_step,
    uniform_models,
)
from leaves.players.ismcts.evidence import Replay
from leaves.players.ismcts.strategy import _rollout_policy
from leaves.players.testing import PHASES, check_strategy, random_position

from .helpers import counts, load_benchmark, position


def _choose(strat: ISMCTS, state, seed: int) -> Action:
    seat = state.current_player
    return strat.choose(state.view(seat), state.legal_actions(), np.random.default_rng(seed))


def test_registered_with_classifier():
    s = strategies.get("ismcts")
    assert isinstance(s, ISMCTS)
    assert s.classifier == {
        "stochastic": True,
        "uses_card_counting": True,
        "search": True,
        "compiled": False,
    }
    assert s.compiled() is None
    assert strategies.get("ismcts:iterations=50,c=1.5").label == "ismcts(iterations=50,c=1.5)"


@pytest.mark.parametrize("model_opponents", [True, False])
@pytest.mark.parametrize("n_players", [3, 4, 5, 6])
def test_legal_in_every_phase(n_players, model_opponents):
    strat = ISMCTS(iterations=40, max_depth=0, model_opponents=model_opponents)
    for k, phase in enumerate(PHASES):
        _, state = random_position(n_players, 100 * n_players + k, phase)
        if state.is_terminal:
            continue
        action = _choose(strat, state, k)
        assert action in state.legal_actions(), (phase, str(action))


def test_reproducible_with_seed_and_iteration_budget():
    _, state = random_position(4, 7, "follow")
    a = ISMCTS(iterations=150)
    b = ISMCTS(iterations=150)
    assert _choose(a, state, 11) == _choose(b, state, 11)
    assert a.last_visits == b.last_visits and a.last_nodes == b.last_nodes
    # Different seeds sample different determinizations: the statistics differ.
    _choose(b, state, 12)
    assert a.last_visits != b.last_visits


def test_iteration_budget_is_used_exactly():
    _, state = random_position(4, 3, "lead")
    assert len(state.legal_actions()) > 1
    for depth in (0, 1):
        strat = ISMCTS(iterations=120, max_depth=depth, model_opponents=False, stop_early=False)
        _choose(strat, state, 0)
        assert strat.last_iterations == 120
        assert sum(strat.last_visits.values()) == 120  # every iteration passes the root
        assert 2 <= strat.last_nodes <= 4 * 120 + 1
        if depth == 1:
            assert strat.last_nodes == 1 + len(strat.last_visits)
    # A time budget with an iteration cap stops at the cap at the latest.
    capped = ISMCTS(iterations=30, time_ms=60_000)
    _choose(capped, state, 0)
    assert capped.last_iterations == 30


def test_single_legal_action_skips_search():
    # Seat 0 holds only a 5 and faces two 6s on one end: only the take is legal.
    state = position([counts(v5=1), counts(v2=1), counts(v3=1)], table=counts(v6=2))
    assert len(state.legal_actions()) == 1
    strat = ISMCTS(iterations=50)
    assert _choose(strat, state, 0) == state.legal_actions()[0]
    assert strat.last_iterations == 0


def test_takes_the_winning_play():
    # Seat 0 can shed its last two 9s at once; random playouts would rarely win otherwise.
    state = position(
        [counts(v9=2), counts(v1=1, v2=2, v3=3), counts(v4=2, v11=3)], table=counts(v8=2)
    )
    strat = ISMCTS(iterations=200, rollout="random")
    assert _choose(strat, state, 5) == Action.play(9, 2)


def _shuffle_hidden(state, seed: int):
    """A state with the same view for the player to act but other hidden cards, if any."""
    view = state.view(state.current_player)
    rng = np.random.default_rng(seed)
    for _ in range(20):
        other = view.sample_state(rng)
        if other.hands != state.hands:
            return other
    return None


@settings(max_examples=12)
@given(
    n_players=st.integers(3, 6),
    game_seed=st.integers(0, 2**32 - 1),
    play_seed=st.integers(0, 2**32 - 1),
)
def test_decision_depends_only_on_the_view(n_players, game_seed, play_seed):
    _, state = random_position(n_players, game_seed, "any")
    other = _shuffle_hidden(state, game_seed)
    if other is None or len(state.legal_actions()) < 2:
        return
    seat = state.current_player
    assert other.view(seat) == state.view(seat)
    a, b = ISMCTS(iterations=60), ISMCTS(iterations=60)
    assert _choose(a, state, play_seed) == _choose(b, other, play_seed)
    assert a.last_visits == b.last_visits


@settings(max_examples=25)
@given(
    n_players=st.integers(3, 6),
    game_seed=st.integers(0, 2**32 - 1),
    det_seed=st.integers(0, 2**63 - 1),
)
def test_determinization_is_consistent_with_the_view(n_players, game_seed, det_seed):
    _, state = random_position(n_players, game_seed, "any")
    seat = state.current_player
    view = state.view(seat)
    pub, sizes = public_board(view)
    out = np.empty_like(pub)
    determinize(pub, seat, sizes, kernels.rng_new(np.uint64(det_seed)), out)
    sample = kernels.state_from_board(out)  # validates card totals against the deck
    assert sample.hand(seat) == state.hand(seat)
    assert sample.hand_sizes == state.hand_sizes
    assert sample.known == state.known
    assert sample.table == state.table and sample.removed == state.removed
    assert sample.passed == state.passed and sample.current_player == state.current_player
    for i in range(n_players):
        assert all(h >= k for h, k in zip(sample.hand(i), state.known[i], strict=True))
    assert sum(sum(h) for h in sample.hands) + sum(sample.undealt) + sum(sample.table) + sum(
        sample.removed
    ) == sum(DECK)


def test_determinization_reaches_different_deals():
    _, state = random_position(4, 1, "follow")
    seat = state.current_player
    pub, sizes = public_board(state.view(seat))
    out = np.empty_like(pub)
    rng = kernels.rng_new(np.uint64(3))
    hands = set()
    for _ in range(20):
        determinize(pub, seat, sizes, rng, out)
        hands.add(out[:4].tobytes())
    assert len(hands) > 10


@pytest.mark.parametrize(
    "params, message",
    [
        ({"iterations": 0}, "set iterations or time_ms"),
        ({"iterations": -1}, "iterations must be between 0 and 10000000"),
        ({"c": -0.5}, "c must be >= 0"),
        ({"rollout": "nonsense"}, "bad rollout policy"),
        ({"rollout": "ismcts"}, "no compiled form"),
        ({"shaping": 2.0}, "shaping must be between 0 and 1"),
        ({"playouts": 0}, "playouts must be between 1 and 10000"),
        ({"time_ms": "soon"}, "time_ms must be a number"),
        ({"max_depth": -1}, "max_depth must be between 0 and 1000000"),
        ({"infer_steps": -2}, "infer_steps must be between 0 and 10000"),
        ({"infer_lambda": -1.0}, "infer_lambda must be >= 0"),
        ({"infer_lambda": "hard"}, "infer_lambda must be a number"),
        ({"model_opponents": "yes"}, "model_opponents must be true or false"),
        ({"models": "nonsense"}, "bad opponent model"),
        ({"models": "weighted,ismcts"}, "opponent model 'ismcts' has no compiled form"),
        ({"models": "weighted,,taker"}, "empty policy name"),
        ({"models": 3}, "models must be a text"),
        ({"model_min": -1}, "model_min must be between 0 and 1000000"),
        ({"model_steps": 1.5}, "model_steps must be an integer"),
        ({"model_pool": -0.5}, "model_pool must be >= 0"),
    ],
)
def test_bad_parameters_give_clear_errors(params, message):
    with pytest.raises(ValueError, match=message):
        ISMCTS(**params)


def _game(policy: str, seed: int):
    import leaves

    result = strategies.play_game([policy] * 4, seed=seed)
    return leaves.replay(result.record)


def _taker_game(seed: int):
    return _game("taker", seed)


def _models(spec: str):
    """Per-seat model arrays with ``spec`` playing every seat."""
    return uniform_models(*_rollout_policy(spec))


def test_evidence_is_consistent_with_the_true_deal():
    # Against the policy that really played, the true hands repeat every past decision.
    models = _models("taker")
    work = np.zeros(C.WORK_SIZE, np.int64)
    checked = 0
    for state in _taker_game(3)[1:-1]:
        ev = evidence(state.view(state.current_player))
        board = kernels.board_from_state(state)
        rng = kernels.rng_new(np.uint64(0))
        assert mismatches(board, Check(ev, models, rng, work), 1 << 30) == 0
        checked += len(ev[2])
    assert checked > 50
    # Another policy's model is contradicted by some of them (the check can fail).
    state = _taker_game(3)[-2]
    ev = evidence(state.view(state.current_player))
    board = kernels.board_from_state(state)
    bad = mismatches(board, Check(ev, _models("low"), rng, work), 1 << 30)
    assert bad > 0


def test_evidence_needs_the_history_from_the_deal():
    state = _taker_game(4)[10]
    assert len(evidence(state.view(state.current_player))[2]) > 0
    rebuilt = kernels.state_from_board(kernels.board_from_state(state))  # no history
    assert len(evidence(rebuilt.view(rebuilt.current_player))[2]) == 0


def _assert_seat_counts(deal, ev, models, per_seat) -> None:
    """The chain's per-seat counts are the true counts of its deal, seat by seat."""
    work = np.zeros(C.WORK_SIZE, np.int64)
    rng = kernels.rng_new(np.uint64(0))
    fresh = np.zeros(8, np.int64)
    seat_mismatches(deal, Check(ev, models, rng, work), fresh)
    assert fresh.tolist() == per_seat.tolist()


def _same_evidence(a, b) -> bool:
    return all(np.array_equal(x, y) and x.dtype == y.dtype for x, y in zip(a, b, strict=True))


def test_a_kept_replay_gives_each_view_the_evidence_of_a_fresh_one():
    # A seat's decisions in game order replay only the new turns; an earlier view, another
    # seat's, another game's, or a history from no deal start over: each is a fresh replay's.
    game, other = _taker_game(5), _taker_game(4)
    replay = Replay()
    views = [s.view(s.current_player) for s in game[1:-1:3]]
    views += [game[5].view(game[5].current_player), other[20].view(0), game[30].view(1)]
    rebuilt = kernels.state_from_board(kernels.board_from_state(game[12]))
    views += [rebuilt.view(rebuilt.current_player), game[-2].view(game[-2].current_player)]
    for view in views:
        assert _same_evidence(replay.evidence(view), evidence(view))
    assert len(evidence(views[-1]).seats) > 0


def test_evidence_is_grouped_by_seat_in_game_order():
    state = _taker_game(6)[-2]
    view = state.view(state.current_player)
    ev = evidence(view)
    seats = ev.seats.tolist()
    assert seats == sorted(seats) and view.player not in seats
    for p in range(8):
        assert set(seats[ev.starts[p] : ev.starts[p + 1]]) <= {p}
        turns = [int(b[META, M_TURN]) for b in ev.boards[ev.starts[p] : ev.starts[p + 1]]]
        assert turns == sorted(turns) and len(set(turns)) == len(turns)
    # every opponent decision of the history, each once
    others = [(w, a.id) for w, a in view.history if w != view.player]
    assert sorted(zip(seats, ev.actions.tolist(), strict=True)) == sorted(others)
    assert ev.starts[8] == len(others)


def test_deal_chain_stays_consistent_and_never_adds_mismatches():
    models = _models("taker")
    work = np.zeros(C.WORK_SIZE, np.int64)
    states = _taker_game(8)
    state = states[len(states) // 2]
    seat = state.current_player
    view = state.view(seat)
    ev = evidence(view)
    pub, sizes = public_board(view)
    deal = np.empty_like(pub)
    rng = kernels.rng_new(np.uint64(5))
    determinize(pub, seat, sizes, rng, deal)
    chk = Check(ev, models, rng, work)
    pos = Position(pub, seat, sizes)
    per_seat = np.zeros(8, np.int64)
    bad = seat_mismatches(deal, chk, per_seat)
    for _ in range(300):
        new = swap_step(deal, pos, chk, per_seat, 1e9, NO_MEMO)
        assert new <= bad
        bad = new
        assert mismatches(deal, chk, 1 << 30) == bad
        _assert_seat_counts(deal, ev, models, per_seat)
    sample = kernels.state_from_board(deal)  # validates card totals
    assert sample.hand(seat) == state.hand(seat)
    assert sample.hand_sizes == state.hand_sizes and sample.known == state.known


def test_asking_past_decisions_leaves_the_evidence_unchanged():
    # Each question writes a sampled hand into the kept board and clears it after.
    models = _models("taker")
    work = np.zeros(C.WORK_SIZE, np.int64)
    states = _taker_game(11)
    state = states[2 * len(states) // 3]
    seat = state.current_player
    ev = evidence(state.view(seat))
    assert len(ev.seats) > 0
    before = ev.boards.copy()
    pub, sizes = public_board(state.view(seat))
    deal = np.empty_like(pub)
    rng = kernels.rng_new(np.uint64(9))
    determinize(pub, seat, sizes, rng, deal)
    chk = Check(ev, models, rng, work)
    per_seat = np.zeros(8, np.int64)
    seat_mismatches(deal, chk, per_seat)
    for _ in range(50):
        swap_step(deal, Position(pub, seat, sizes), chk, per_seat, 2.0, NO_MEMO)
    assert np.array_equal(ev.boards, before)


def test_soft_deal_chain_accepts_some_contradictions_and_keeps_the_cards():
    # A wrong opponent model ("low" for taker players): with a finite lambda the chain must be
    # able to move to more contradicting deals (soft rejection), and every count it returns
    # must be the true count of the deal it keeps.
    models = _models("low")
    work = np.zeros(C.WORK_SIZE, np.int64)
    states = _taker_game(8)
    state = states[len(states) // 2]
    seat = state.current_player
    view = state.view(seat)
    ev = evidence(view)
    pub, sizes = public_board(view)
    deal = np.empty_like(pub)
    rng = kernels.rng_new(np.uint64(9))
    determinize(pub, seat, sizes, rng, deal)
    chk = Check(ev, models, rng, work)
    pos = Position(pub, seat, sizes)
    per_seat = np.zeros(8, np.int64)
    bad = seat_mismatches(deal, chk, per_seat)
    ups = downs = 0
    for _ in range(300):
        new = swap_step(deal, pos, chk, per_seat, 0.5, NO_MEMO)
        ups += new > bad
        downs += new < bad
        bad = new
        assert mismatches(deal, chk, 1 << 30) == bad
        _assert_seat_counts(deal, ev, models, per_seat)
    assert downs > 0
    assert ups > 0
    sample = kernels.state_from_board(deal)  # validates card totals
    assert sample.hand(seat) == state.hand(seat)
    assert sample.hand_sizes == state.hand_sizes and sample.known == state.known


def test_zero_lambda_ignores_the_opponent_model():
    state = _taker_game(5)[30]
    a = ISMCTS(iterations=80, infer_lambda=0.0, models="")
    b = ISMCTS(iterations=80, infer_tries=0, infer_steps=0, models="")
    on = ISMCTS(iterations=80, models="")  # inference with the default weight
    assert _choose(a, state, 3) == _choose(b, state, 3)
    assert a.last_visits == b.last_visits and a.last_rejects == 0
    _choose(on, state, 3)
    assert on.last_visits != a.last_visits  # so the equality above is not vacuous


@pytest.mark.slow
def test_passes_check_strategy():
    check_strategy("ismcts:iterations=20", max_examples=6, games=2)


def test_seat_mismatches_split_the_total():
    models = _models("weighted")
    models.kinds[2], models.params[2] = _models("taker").kinds[2], _models("taker").params[2]
    work = np.zeros(C.WORK_SIZE, np.int64)
    state = _taker_game(6)[-2]
    ev = evidence(state.view(state.current_player))
    board = kernels.board_from_state(state)
    chk = Check(ev, models, kernels.rng_new(np.uint64(1)), work)
    per_seat = np.zeros(8, np.int64)
    seat_mismatches(board, chk, per_seat)
    assert per_seat.sum() == mismatches(board, chk, 1 << 30)
    assert per_seat[2] == 0  # seat 2 is modelled by the policy that played it
    assert per_seat.sum() > 0  # the others are not
    assert per_seat[state.current_player] == 0  # the observer's own decisions are not evidence


@pytest.mark.parametrize("policy", ["taker", "weighted"])
def test_models_pick_the_policy_that_played(policy):
    states = _game(policy, 2)
    state = states[len(states) * 3 // 4]
    seat = state.current_player
    strat = ISMCTS(iterations=20, models="weighted,taker", model_steps=1000)
    _choose(strat, state, 0)
    assert strat.last_models == {p: policy for p in range(4) if p != seat}
    # Too little history (model_min): every opponent falls back to the rollout policy.
    few = ISMCTS(iterations=20, models="weighted,taker", model_min=10_000)
    _choose(few, state, 0)
    assert few.last_models == {p: "weighted" for p in range(4) if p != seat}


@pytest.mark.slow
def test_fit_models_scores_the_true_policy_best():
    # weighted's previous defaults: the tuned ones play this taker game as taker does
    old = "weighted:w_shed=-0.5,w_keep=-4.0,w_end=-0.8,w_extreme=-0.4,w_threat=-0.15,w_near_win=-2.0,w_pass=-13.0,w_take_group=1.2,w_take_harm=0.0,w_take_extreme=0.2"
    cands = [_rollout_policy(x) for x in (old, "taker")]
    cand_kinds = np.array([k for k, _ in cands], np.int64)
    cand_params = np.array([p for _, p in cands], np.float64)
    state = _taker_game(9)[-2]
    view = state.view(state.current_player)
    pub, sizes = public_board(view)
    fit = np.zeros((2, 8), np.int64)
    rng = kernels.rng_new(np.uint64(4))
    cand = Models(cand_kinds, cand_params)
    fit_models(Position(pub, view.player, sizes), rng, evidence(view), cand, 20, 500, fit)
    assert fit[1].sum() < fit[0].sum()
    assert fit[:, view.player].sum() == 0


def test_models_off_matches_a_single_candidate():
    # models="" and models naming only the rollout policy both skip selection: same search.
    state = _taker_game(5)[30]
    a = ISMCTS(iterations=80, models="")
    b = ISMCTS(iterations=80, models="weighted")
    assert _choose(a, state, 3) == _choose(b, state, 3)
    assert a.last_visits == b.last_visits
    assert set(a.last_models.values()) == {"weighted"}
    # a second candidate makes the same search select models (and here, differ)
    c = ISMCTS(iterations=80, models="weighted,taker")
    _choose(c, state, 3)
    assert "taker" in c.last_models.values() and c.last_visits != a.last_visits


def test_model_selection_changes_the_search_against_another_policy():
    states = _taker_game(5)
    state = states[len(states) * 3 // 4]
    a = ISMCTS(iterations=80, models="")
    b = ISMCTS(iterations=80, model_steps=150)  # a fit long enough to tell taker here
    _choose(a, state, 3)
    _choose(b, state, 3)
    assert "taker" in b.last_models.values()
    assert a.last_visits != b.last_visits


def test_models_all_considers_every_compiled_builtin():
    import strategies

    every = set(strategies.filtered(compiled=True, search=False))
    strat = ISMCTS(iterations=20, models="all")
    assert {label for _, _, label in strat._candidates} == every
    # with every built-in as a candidate, a taker table is still recognised as taker
    states = _game("taker", 2)
    state = states[len(states) * 3 // 4]
    _choose(strat, state, 0)
    seat = state.current_player
    assert set(strat.last_models) == {p for p in range(4) if p != seat}
    assert "taker" in strat.last_models.values()


def test_models_all_reads_the_installed_strategies_once_a_process(monkeypatch):
    # a gauntlet builds an instance a game: reading the entry points each time cost 4 ms
    import importlib.metadata

    from leaves.players.builtin.weighted import WeightedStrategy
    from leaves.players.ismcts import strategy
    from strategies import registry

    reads = []
    real = importlib.metadata.entry_points

    def counted(**kw):
        reads.append(kw.get("group"))
        return real(**kw)

    monkeypatch.setattr(registry.importlib.metadata, "entry_points", counted)
    monkeypatch.setattr(strategy, "_SCANNED", [False])
    first = {label for _, _, label in ISMCTS(iterations=20)._candidates}
    assert len(reads) == 1 and "weighted" in first
    ISMCTS(iterations=20)
    assert len(reads) == 1  # the second instance read none

    class Later(WeightedStrategy, register=False):  # a compiled strategy registered later
        name = "t-later-weighted"

    strategies.register(Later)
    try:
        later = strategy._compiled_policies()  # the names "all" gives, before duplicates go
    finally:
        registry.unregister("t-later-weighted")
    assert set(later) == first | {"t-later-weighted"} and len(reads) == 1


def test_fast_preset_sets_the_parameters_left_at_their_defaults():
    from leaves.players.ismcts.settings import PRESETS

    fast = strategies.get("ismcts:preset=fast")
    assert fast.label == "ismcts(preset=fast)"
    assert PRESETS["fast"]
    for key, value in PRESETS["fast"].items():
        assert fast.settings[key] == value != ISMCTS().settings[key]
    # a parameter given another value wins over the preset
    more = strategies.get("ismcts:preset=fast,iterations=500")
    assert more.settings["iterations"] == 500 and more.label == "ismcts(iterations=500,preset=fast)"
    # the preset changes the search: its iteration budget, not the default's
    _, state = random_position(4, 3, "lead")
    exact = strategies.get("ismcts:preset=fast,stop_early=false")
    _choose(exact, state, 0)
    assert exact.last_iterations == PRESETS["fast"]["iterations"]
    # a fresh instance (every game starts from one) keeps the preset
    assert strategies.fresh(fast).settings == fast.settings
    with pytest.raises(ValueError, match="unknown preset 'quick'.*fast"):
        ISMCTS(preset="quick")


def test_strong_preset_searches_more_than_the_defaults():
    from leaves.players.ismcts.settings import PRESETS

    strong = strategies.get("ismcts:preset=strong,stop_early=false")
    assert PRESETS["strong"]["iterations"] > ISMCTS().settings["iterations"]
    _, state = random_position(4, 3, "lead")
    _choose(strong, state, 0)
    assert strong.last_iterations == PRESETS["strong"]["iterations"]


def test_every_preset_is_valid_and_names_real_settings():
    from leaves.players.ismcts.settings import PRESETS, SETTINGS

    for name, values in PRESETS.items():
        assert set(values) <= set(SETTINGS.names) - {"preset"}
        ISMCTS(preset=name)  # validated like any other setting


def test_bench_counts_searched_decisions_across_fresh_instances():
    # Every game plays a fresh instance, so the timing totals must outlive instances.
    bench = _bench_ismcts()
    seeds = np.random.SeedSequence(3).generate_state(4, np.uint64).reshape(2, 2)
    params = {"iterations": 20, "models": "", "stop_early": False}
    wins, games, _, _, decisions, wall, cpu, iters = bench._run([0, 1], seeds, params, "low", 4)
    assert games == 2 and decisions > 0
    assert iters == 20 * decisions and wall > 0 and cpu > 0
    # a second run in the same process starts from zero
    again = bench._run([0, 1], seeds, params, "low", 4)
    assert again[4] == decisions and again[0] == wins


def _bench_ismcts():
    return load_benchmark("bench_ismcts")


def test_bench_compares_two_builds_of_the_engine_on_the_same_positions(tmp_path):
    from leaves.players.ismcts import cengine

    bench = _bench_ismcts()
    with pytest.raises(SystemExit, match="not a C engine with the search"):
        bench.other_engine(str(tmp_path / "missing.so"))
    lib = cengine.library()
    if lib is None:
        pytest.skip("no C engine built here")
    lines = bench.compare(["ismcts:iterations=30"], 2, 4, "low", 3, engine=lib._name)
    assert len(lines) == 3 and lines[2].endswith("the same decisions")
    with bench.on_engine(None):
        assert cengine.library() is lib
    assert bench.agreement([3, 7, 9], [3, 8, 9]) == "1 of 3 decisions differs"
    assert bench.agreement([3, 7, 9], [4, 8, 9]) == "2 of 3 decisions differ"
    assert bench.agreement([3, 7], [3, 7]) == "the same decisions"


@settings(max_examples=10, deadline=None)
@given(
    n_players=st.integers(3, 6),
    game_seed=st.integers(0, 2**32 - 1),
    phase=st.sampled_from(PHASES),
    seed=st.integers(0, 2**32 - 1),
)
def test_stopping_early_never_changes_the_move(n_players, game_seed, phase, seed):
    _, state = random_position(n_players, game_seed, phase)
    if state.is_terminal or len(state.legal_actions()) == 1:
        return
    full = ISMCTS(iterations=300, stop_early=False)
    early = ISMCTS(iterations=300)
    assert _choose(early, state, seed) == _choose(full, state, seed)
    assert full.last_iterations == 300 and early.last_iterations <= 300
    # what the early search visited, the full one visited at least as often
    assert all(full.last_visits[a] >= n for a, n in early.last_visits.items())


def test_stopping_early_saves_iterations_on_a_clear_choice():
    # Seat 0 can go out by shedding its last two 9s: the search settles on it long before 400.
    state = position(
        [counts(v9=2), counts(v1=1, v2=2, v3=3), counts(v4=2, v11=3)], table=counts(v8=2)
    )
    strat = ISMCTS(iterations=400)
    assert _choose(strat, state, 5) == Action.play(9, 2)
    assert strat.last_iterations < 400
    best = strat.last_visits[Action.play(9, 2)]
    others = max(n for a, n in strat.last_visits.items() if a != Action.play(9, 2))
    assert best - others > 400 - strat.last_iterations


def test_a_stop_margin_stops_a_clear_choice_sooner_at_the_lead_it_names():
    # With stop_margin m the search ends at the first check where the leader's lead exceeds
    # m x the iterations left: fewer iterations than the exact rule (m = 1) on a clear choice.
    state = position(
        [counts(v9=2), counts(v1=1, v2=2, v3=3), counts(v4=2, v11=3)], table=counts(v8=2)
    )
    exact, soon = ISMCTS(iterations=400), ISMCTS(iterations=400, stop_margin=0.25)
    assert _choose(exact, state, 5) == _choose(soon, state, 5) == Action.play(9, 2)
    assert soon.last_iterations < exact.last_iterations
    best = soon.last_visits[Action.play(9, 2)]
    others = max(n for a, n in soon.last_visits.items() if a != Action.play(9, 2))
    assert best - others > 0.25 * (400 - soon.last_iterations)
    assert best - others <= 400 - soon.last_iterations  # the exact rule would not have stopped
    with pytest.raises(ValueError, match="stop_margin"):
        ISMCTS(stop_margin=-0.5)


def test_prior_gives_the_rollout_policy_move_a_head_start():
    _, state = random_position(4, 11, "follow")
    seat = state.current_player
    legal = state.legal_actions()
    own = strategies.get("weighted").choose(state.view(seat), legal, np.random.default_rng(0))
    # a head start of twice the budget: no search can overturn it
    assert _choose(ISMCTS(iterations=100, prior=2.0), state, 1) == own
    # the head start is in the choice only: the searched visits are the plain search's
    plain = ISMCTS(iterations=100, stop_early=False)
    biased = ISMCTS(iterations=100, prior=0.2, stop_early=False)
    _choose(plain, state, 1)
    _choose(biased, state, 1)
    assert biased.last_visits == plain.last_visits
    with pytest.raises(ValueError, match="prior"):
        ISMCTS(prior=-1.0)


def test_the_head_start_is_the_own_playout_policys_move():
    """With ``own`` set, the prior favours the move the seat's own playouts would make, as the
    widened tree's first child does, not the rollout's (the opponents' default model)."""
    for seed in range(40):
        _, state = random_position(4, seed, "follow")
        seat = state.current_player
        legal = state.legal_actions()
        view = state.view(seat)
        moves = {s: strategies.get(s).choose(view, legal, np.random.default_rng(0)) for s in
                 ("weighted", "low")}  # fmt: skip
        if moves["weighted"] != moves["low"]:
            break
    else:
        pytest.fail("no position where low and weighted differ")
    assert _choose(ISMCTS(iterations=100, prior=2.0, own="low"), state, 1) == moves["low"]
    assert _choose(ISMCTS(iterations=100, prior=2.0, rollout="low"), state, 1) == moves["low"]
    assert _choose(ISMCTS(iterations=100, prior=2.0), state, 1) == moves["weighted"]


def test_the_head_start_decided_on_the_public_board_is_the_policys_own_choice():
    """A built-in that draws nothing gives the head start from the decision's public board
    (not a second one built from the view): the move its ``choose`` makes. A policy that
    draws, or a subclass with its own ``choose``, still chooses from the view, drawing from
    the decision's generator as before."""
    specs = ("weighted", "low", "counter", "taker", "greedy", "patient", "random")
    for seed in range(12):
        _, state = random_position(4, seed, PHASES[seed % len(PHASES)])
        view = state.view(state.current_player)
        legal = state.legal_actions()
        pub, sizes = public_board(view)
        for spec in specs:
            strat = ISMCTS(iterations=20, prior=0.5, own=spec)
            fast, slow = np.random.default_rng(seed), np.random.default_rng(seed)
            got = strat._prior_move(view, legal, fast, pub, sizes)
            assert got == strategies.get(spec).choose(view, legal, slow).id, (seed, spec)
            assert fast.integers(2**63) == slow.integers(2**63)  # the same draws, in order

    class Contrary(type(strategies.get("low")), register=False):
        def choose(self, view, legal, rng):
            return legal[-1]

    _, state = random_position(4, 3, "follow")
    view = state.view(state.current_player)
    legal = state.legal_actions()
    strat = ISMCTS(iterations=20, prior=0.5, own="low")
    strat._prior_policy = Contrary()
    rng = np.random.default_rng(0)
    assert strat._prior_move(view, legal, rng, *public_board(view)) == legal[-1].id


@settings(max_examples=8, deadline=None)
@given(
    game_seed=st.integers(0, 2**32 - 1),
    phase=st.sampled_from(PHASES),
    seed=st.integers(0, 2**32 - 1),
    prior=st.sampled_from([0.05, 0.2, 0.5]),
)
def test_stopping_early_with_a_prior_never_changes_the_move(game_seed, phase, seed, prior):
    _, state = random_position(4, game_seed, phase)
    if state.is_terminal or len(state.legal_actions()) == 1:
        return
    full = ISMCTS(iterations=200, prior=prior, stop_early=False)
    early = ISMCTS(iterations=200, prior=prior)
    assert _choose(early, state, seed) == _choose(full, state, seed)


@pytest.mark.slow
@settings(max_examples=25, deadline=None)
@given(
    n_players=st.integers(3, 6),
    seed=st.integers(0, 2**32 - 1),
    depth=st.integers(1, 40),
)
def test_a_cut_playout_scores_the_cards_left(n_players, seed, depth):
    """``rollout_depth`` plays at most that many turns, then shares a reward of 1 among the
    seats, more to fewer cards left; a game that ends sooner pays its winner as before."""
    from leaves.board import M_WINNER
    from leaves.players.compiled.loops import Seats, play_to_end
    from leaves.players.ismcts.settings import EVAL_BETA, SETTINGS, Config
    from leaves.players.ismcts.tree import playout_rewards

    kinds, params = _models("weighted")
    board = kernels.deal_board(n_players, seed)
    work = np.zeros(C.WORK_SIZE, np.int64)
    sizes = np.zeros(8, np.int64)
    rng = kernels.rng_new(np.uint64(seed))
    played = board.copy()
    rec = np.zeros(1, np.int8)
    turns = play_to_end(played, Seats(kinds, params), sizes, rng, work, rec, False, depth)
    assert played[META, M_TURN] == turns
    assert turns == depth or (turns < depth and kernels.is_terminal(played))
    d = SETTINGS.defaults()
    cfg = Config(
        c=0.7, shaping=0.0, rollout_depth=depth, dealt=10.0, infer_lambda=2.0, playouts=1,
        max_depth=1, model_opponents=True, infer_tries=1, infer_steps=0,
        stop_early=False, prior_action=-1, prior_visits=0.0, warm_deal=False, widen=0.0,
        stop_margin=1.0,
    )  # fmt: skip
    assert d["rollout_depth"] == 0  # the default plays to the end
    reward = np.zeros(8)
    rng = kernels.rng_new(np.uint64(seed))
    playout_rewards(board, kinds, params, rng, work, sizes, cfg, reward)
    assert np.array_equal(board[META], kernels.deal_board(n_players, seed)[META])  # unchanged
    if played[META, M_WINNER] >= 0:
        assert reward[played[META, M_WINNER]] == 1.0 and reward[:n_players].sum() == 1.0
        return
    if kernels.is_terminal(played):  # the turn limit: nobody won
        assert not reward.any()
        return
    left = sizes[:n_players]
    assert np.isclose(reward[:n_players].sum(), 1.0)
    want = np.exp(-EVAL_BETA * left) / np.exp(-EVAL_BETA * left).sum()
    assert np.allclose(reward[:n_players], want)


def _since(earlier, later) -> np.ndarray:
    """What each seat played minus took from ``earlier`` to ``later`` (same game)."""
    since = np.zeros((8, 13), np.int64)
    for who, act in later.history[len(earlier.history) :]:
        since[who, act.value - 1] += -1 if act.is_pass else act.count
    return since


@settings(max_examples=25, deadline=None)
@given(
    n_players=st.integers(3, 6),
    game_seed=st.integers(0, 2**32 - 1),
    picks=st.tuples(st.floats(0, 1), st.floats(0, 1)),
    seed=st.integers(0, 2**63 - 1),
)
def test_a_carried_deal_is_a_deal_of_the_view_and_keeps_the_truth(
    n_players, game_seed, picks, seed
):
    import leaves

    result = strategies.play_game(["weighted"] * n_players, seed=game_seed)
    states = leaves.replay(result.record)[:-1]
    i, j = sorted(int(x * (len(states) - 1)) for x in picks)
    earlier, state = states[i], states[j]
    seat = state.current_player
    pub, sizes = public_board(state.view(seat))
    since = _since(earlier, state)
    rng = kernels.rng_new(np.uint64(seed))
    out = np.empty_like(pub)
    # the true deal of an earlier position carries to the true deal now, whatever the rng
    carry_deal(kernels.board_from_state(earlier), since, pub, seat, sizes, rng, out)
    assert kernels.state_from_board(out) == state
    # any deal of the earlier position carries to a deal consistent with this view
    old_pub, old_sizes = public_board(earlier.view(earlier.current_player))
    old = np.empty_like(pub)
    determinize(old_pub, earlier.current_player, old_sizes, rng, old)
    carry_deal(old, since, pub, seat, sizes, rng, out)
    _assert_same_view(kernels.state_from_board(out), state, seat)  # validates card totals


def _assert_same_view(sample, state, seat: int) -> None:
    """``sample`` (a state from a board: no history) shows ``seat`` what ``state`` shows."""
    assert sample.hand(seat) == state.hand(seat)
    assert sample.hand_sizes == state.hand_sizes and sample.known == state.known
    assert sample.table == state.table and sample.removed == state.removed
    assert sample.passed == state.passed and sample.current_player == state.current_player


def test_a_carried_deal_keeps_what_it_can_and_deals_the_rest():
    # An opponent's old hand minus a card seen since: the rest of it stays, that card moves.
    states = _game("weighted", 4)
    earlier, state = states[10], states[14]
    seat = state.current_player
    pub, sizes = public_board(state.view(seat))
    old = kernels.board_from_state(earlier)
    truth = kernels.board_from_state(state)
    hands = set()
    for k in range(30):
        out = np.empty_like(pub)
        scrambled = old.copy()
        opp = (seat + 1) % 4
        v = int(np.flatnonzero(truth[opp] - truth[9 + opp] > 0)[0])  # a hidden card of opp
        scrambled[opp, v] -= 1  # the old deal lacked it: it must come from elsewhere
        scrambled[8, v] += 1
        carry_deal(scrambled, _since(earlier, state), pub, seat, sizes,
                   kernels.rng_new(np.uint64(k)), out)  # fmt: skip
        _assert_same_view(kernels.state_from_board(out), state, seat)
        # every other seat keeps exactly its true hand less at most the one moved card
        assert np.abs(out[:6] - truth[:6]).sum() <= 2 and np.abs(out[8] - truth[8]).sum() <= 2
        hands.add(out[:9].tobytes())
    assert len(hands) > 1  # the moved card goes to different places


def _play_decisions(strat: ISMCTS, seed: int, start: bool = True) -> list:
    """The moves and root visits of ``strat`` (seat 0) through one game against weighted,
    played by hand so the instance is the one given (no fresh copy)."""
    import leaves

    state = leaves.new_game(4, seed=seed)
    rng = np.random.default_rng(seed)
    if start:
        strat.start_game(state.view(0), rng)
    out = []
    others = strategies.get("weighted")
    while not state.is_terminal:
        seat = state.current_player
        legal = state.legal_actions()
        if seat == 0:
            action = strat.choose(state.view(0), legal, rng)
            out.append((action, dict(strat.last_visits)))
        else:
            action = others.choose(state.view(seat), legal, rng)
        state = state.apply(action)
    return out


@pytest.mark.parametrize("start", [True, False])
def test_reuse_never_carries_from_another_game(start):
    # Deals carry over between the decisions of one game only: an instance that has played
    # other games decides the next one as a new instance does, with or without start_game.
    spec = {"iterations": 60, "model_steps": 20, "infer_tries": 5}
    fresh = _play_decisions(ISMCTS(**spec), 21, start)
    used = ISMCTS(**spec)
    for seed in (5, 21, 8):
        _play_decisions(used, seed, start)
    assert _play_decisions(used, 21, start) == fresh
    # and reuse changes the search (the carried deals are used)
    off = _play_decisions(ISMCTS(**spec, reuse=False), 21, start)
    assert [a for a, _ in off] != [a for a, _ in fresh] or [v for _, v in off] != [
        v for _, v in fresh
    ]


def test_reuse_asked_twice_answers_the_same():
    # Asked again at a position it has decided, the search starts from the same deals.
    states = _game("weighted", 6)
    seat = states[20].current_player
    mine = [s for s in states[:-1] if s.current_player == seat and len(s.legal_actions()) > 1]
    spec = {"iterations": 60, "model_steps": 20, "stop_early": False}
    strat = ISMCTS(**spec)
    for s in mine[:4]:
        _choose(strat, s, 3)
    first = (_choose(strat, mine[4], 9), dict(strat.last_visits))
    for _ in range(2):
        assert (_choose(strat, mine[4], 9), dict(strat.last_visits)) == first
    cold = ISMCTS(**spec)
    _choose(cold, mine[4], 9)
    assert cold.last_visits != first[1]  # the warm answer is not the cold one


@settings(max_examples=10, deadline=None)
@given(
    policy=st.sampled_from(["taker", "weighted", "counter", "low"]),
    game_seed=st.integers(0, 2**16),
    lam=st.sampled_from([0.5, 2.0, 2e6]),
    seed=st.integers(0, 2**63 - 1),
)
def test_the_memo_answers_as_counting_does(policy, game_seed, lam, seed):
    # A deterministic model's count depends only on the seat's hand: a chain asking the memo
    # walks exactly the deals a chain counting every time walks, and the memo is used.
    from leaves.players.ismcts import new_memo

    models = _models(policy)
    states = _game(policy, game_seed)
    state = states[len(states) * 2 // 3]
    seat = state.current_player
    ev = evidence(state.view(seat))
    pub, sizes = public_board(state.view(seat))
    work = np.zeros(C.WORK_SIZE, np.int64)
    start = np.empty_like(pub)
    determinize(pub, seat, sizes, kernels.rng_new(np.uint64(seed)), start)
    memo = new_memo(6)  # small: collisions overwrite
    walks = []
    for m in (NO_MEMO, memo):
        deal = start.copy()
        chk = Check(ev, models, kernels.rng_new(np.uint64(seed)), work)
        per_seat = np.zeros(8, np.int64)
        seat_mismatches(deal, chk, per_seat)
        walk = []
        for _ in range(150):
            swap_step(deal, Position(pub, seat, sizes), chk, per_seat, lam, m)
            walk.append((deal.tobytes(), per_seat.tobytes()))
        walks.append(walk)
    assert walks[0] == walks[1]
    assert (memo.keys >= 0).any() or len(ev.seats) == 0


@pytest.mark.parametrize("phase", ["lead", "follow"])
def test_flat_preset_is_one_ply_where_widening_and_a_modelled_second_ply_add_nothing(phase):
    # The defaults search the full tree, widened; preset=flat one ply (flat Monte Carlo over
    # its own moves, the defaults before). Widening acts below the root only, and a second ply
    # holds only an opponent's modelled move, so neither changes the root's statistics.
    default = ISMCTS().settings
    assert (default["max_depth"], default["widen"], default["iterations"]) == (0, 2.0, 1600)
    flat_settings = ISMCTS(preset="flat").settings
    assert (flat_settings["max_depth"], flat_settings["widen"]) == (1, 0.0)
    assert flat_settings["iterations"] == 2000
    _, state = random_position(4, 17, phase)
    flat = ISMCTS(preset="flat", iterations=150)
    widened = ISMCTS(preset="flat", iterations=150, widen=8.0)
    two = ISMCTS(preset="flat", iterations=150, max_depth=2)
    assert widened.settings["widen"] == 8.0 and two.settings["max_depth"] == 2
    chosen = _choose(flat, state, 4)
    assert chosen == _choose(widened, state, 4) == _choose(two, state, 4)
    assert flat.last_visits == widened.last_visits == two.last_visits
    assert flat.last_nodes == 1 + len(flat.last_visits) < two.last_nodes  # one ply vs two
    tree = ISMCTS(iterations=150)
    _choose(tree, state, 4)
    assert tree.last_nodes > 1 + len(tree.last_visits)  # the defaults grow below the root
