"""The OpenSpiel game (``interop.openspiel``) made quicker for OpenSpiel's own bots behaves
exactly as before: the bots' choices and searches for a seed, the worlds
``resample_from_infostate`` draws (their histories, serializations and positions), and clones
equal to and independent of their original. The pinned values were recorded from the game
before its clone and resample were made quicker."""

from __future__ import annotations

import hashlib
import os

import numpy as np
import pytest

if not os.environ.get("CI"):  # CI installs the research extra: there these tests must run
    pytest.importorskip("pyspiel")
import pyspiel  # noqa: E402

import leaves  # noqa: E402
from interop.openspiel import GAME_NAME, OpenSpielAgent, register  # noqa: E402
from interop.variants import openspiel_text  # noqa: E402

register()


def _position(players: int, seed: int, moves: int, rules: str = "") -> leaves.State:
    """A game of ``players`` dealt from ``seed``, ``moves`` random legal moves in."""
    state = leaves.new_game(players, seed=seed, rules=rules or None)
    rng = np.random.default_rng(seed)
    for _ in range(moves):
        if state.is_terminal:
            break
        state = state.apply(int(rng.choice(sorted(state.legal_action_ids()))))
    return state


def _game(inner: leaves.State):
    params = {"players": inner.n_players, "rules": openspiel_text(inner.rules)}
    return pyspiel.load_game(GAME_NAME, params)


def _rooted(inner: leaves.State, seed: int):
    """The game's state standing where ``inner``'s seat to play stands, as a bot sees it."""
    game = _game(inner)
    state = game.new_initial_state()
    state.set_position(inner.view(inner.current_player), np.random.default_rng(seed))
    return game, state


def _played(game, history: list[int]):
    """The state ``history`` reaches from the start, one ``apply_action`` an action."""
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


def _digest(values) -> str:
    return hashlib.sha256(repr(list(values)).encode()).hexdigest()[:16]


def _same(a, b) -> None:
    """``a`` and ``b`` are the same state in every form the game gives."""
    assert a.history() == b.history() and a.move_number() == b.move_number()
    assert a.serialize() == b.serialize() and str(a) == str(b)
    assert a.current_player() == b.current_player() and a.is_terminal() == b.is_terminal()
    if a.is_chance_node():
        assert a.chance_outcomes() == b.chance_outcomes()
    elif not a.is_terminal():
        assert a.legal_actions() == b.legal_actions()
    for seat in range(a.num_players()):
        assert a.information_state_string(seat) == b.information_state_string(seat)
        assert a.information_state_tensor(seat) == b.information_state_tensor(seat)
        assert a.observation_string(seat) == b.observation_string(seat)
        assert a.observation_tensor(seat) == b.observation_tensor(seat)
    if a.state is not None:  # the position, its history and its table ends too
        assert a.state._fields() == b.state._fields()


# (bot, players, seed, moves, rules): the action OpenSpielAgent chose at 50 simulations
CHOICES = [
    ("ismcts", 4, 3, 20, "", 0),
    ("ismcts", 3, 5, 6, "", 57),
    ("ismcts", 5, 8, 40, "", 40),
    ("ismcts", 4, 2, 9, "take=nothing", 74),
    ("ismcts", 3, 4, 9, "hand_size=7", 64),
    ("mcts", 4, 3, 20, "", 8),
    ("mcts", 3, 11, 0, "", 8),
    ("mcts", 6, 9, 30, "", 107),
]


@pytest.mark.parametrize(("bot", "players", "seed", "moves", "rules", "chosen"), CHOICES)
def test_openspiels_bots_choose_as_before(bot, players, seed, moves, rules, chosen):
    inner = _position(players, seed, moves, rules)
    agent = OpenSpielAgent(bot=bot, max_simulations=50)
    legal = inner.legal_actions()
    assert len(legal) > 1  # a searched decision
    action = agent.choose(inner.view(inner.current_player), legal, np.random.default_rng(seed))
    assert action.id == chosen


def test_their_searches_visit_as_before():
    """The visit counts of a whole search (one changed rollout or world would move them)."""
    from open_spiel.python.algorithms import ismcts, mcts

    game, state = _rooted(_position(4, 3, 20), seed=5)
    rs = np.random.RandomState(17)
    evaluator = mcts.RandomRolloutEvaluator(1, rs)
    bot = ismcts.ISMCTSBot(game, evaluator, 2.0, 60, random_state=rs)
    bot.set_resampler(lambda st, seat: st.resample_from_infostate(seat, rs.random_sample))
    bot.get_policy(state)
    visits = [(a, int(child.visits)) for a, child in bot._root_node.child_info.items()]
    assert visits == ISMCTS_VISITS
    root = mcts.MCTSBot(game, 2.0, 60, evaluator, random_state=rs).mcts_search(state)
    assert [(c.action, c.explore_count) for c in root.children] == MCTS_VISITS
    assert state.history() == [] and len(state.moves) == 20  # the root never changed


ISMCTS_VISITS = [(108, 7), (1, 8), (32, 10), (110, 8), (8, 5), (0, 5), (114, 16)]
MCTS_VISITS = [(108, 6), (0, 12), (110, 4), (32, 8), (114, 6), (1, 14), (8, 9)]

# (players, seed, moves, seat): digests of three worlds drawn with RandomState(7)'s sampler
WORLDS = [
    (4, 3, 20, None, ["c68f0357fec22631", "95ecd77c649c3666", "0f7066684b33b55c"]),
    (3, 6, 0, None, ["ec7ed47fb0a5d54f", "fbe050f2f8d51e3e", "474658e750a0f806"]),
    (5, 1, 55, None, ["0ea60da6b89b09f2", "03c075589d165714", "21f3002672d9271f"]),
    (
        4,
        2,
        37,
        1,
        ["90087e3ad8531a0a", "23525ea0490867fb", "ad74b6db068c398d"],
    ),  # resampled for a seat not to play
]


@pytest.mark.parametrize(("players", "seed", "moves", "seat", "digests"), WORLDS)
def test_resampled_worlds_are_the_same_and_played_out_alike(players, seed, moves, seat, digests):
    inner = _position(players, seed, moves)
    game, state = _rooted(inner, seed=seed)
    seat = inner.current_player if seat is None else seat
    rs = np.random.RandomState(7)
    drawn = []
    for _ in range(3):
        world = state.resample_from_infostate(seat, rs.random_sample)
        assert world.information_state_string(seat) == state.information_state_string(seat)
        _same(world, _played(game, world.history()))  # as dealt and played card by card
        drawn.append(_digest(world.history()))
    assert drawn == digests


def test_resampling_during_the_deal_is_unchanged():
    game = pyspiel.load_game(GAME_NAME)
    state = _played(game, [3, 7, 7, 0, 12, 5, 9, 1, 4])
    rs = np.random.RandomState(3)
    worlds = [state.resample_from_infostate(2, rs.random_sample) for _ in range(3)]
    for world in worlds:
        assert world.information_state_string(2) == state.information_state_string(2)
        _same(world, _played(game, world.history()))
    assert [_digest(w.history()) for w in worlds] == DEAL_DIGESTS


DEAL_DIGESTS = ["e40b907f86e6f7cb", "3a83b4628265a608", "8e936c9106e24bcc"]


def _states(game):
    """States along one game: mid-deal, at the first player's draw, in play, at the end."""
    rng = np.random.default_rng(4)
    state, seen = game.new_initial_state(), []
    while not state.is_terminal():
        if state.move_number() in (5, 44, 45, 60, 90):
            seen.append(state.clone())
        if state.is_chance_node():
            outcomes, probs = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(outcomes, p=probs)))
        else:
            state.apply_action(int(rng.choice(state.legal_actions())))
    return [*seen, state]  # the end


def test_a_clone_is_the_state_and_independent_of_it():
    game = pyspiel.load_game(GAME_NAME)
    for state in _states(game):
        before = state.serialize()
        clone = state.clone()
        _same(clone, state)
        _same(clone, _played(game, state.history()))
        if state.is_terminal():
            continue
        clone.apply_action(_any(clone))  # the clone moves on, the original stays
        assert state.serialize() == before and clone.history() != state.history()
        again = state.clone()
        state.apply_action(_any(state))  # the original moves on, the clone stays
        assert again.serialize() == before


def _any(state) -> int:
    actions = state.legal_actions()
    return actions[len(actions) // 2]


def test_a_clone_of_a_bots_root_and_of_a_deserialized_state():
    game, state = _rooted(_position(4, 3, 20), seed=5)
    clone = state.clone()
    _same(clone, state)
    clone.apply_action(_any(clone))
    assert len(state.moves) == 20 and state.history() == []
    loaded = game.deserialize_state(clone.serialize())
    _same(loaded, clone)
    _same(loaded.clone(), clone)


def _answer(ask, *args):
    try:
        return ask(*args)
    except (pyspiel.SpielError, TypeError) as exc:
        return type(exc), str(exc)


def test_legal_actions_and_chance_answered_as_openspiels_cpp_answers():
    """The game answers ``legal_actions`` and ``is_chance_node`` itself (quicker): as
    OpenSpiel's C++ does, for every player asked about, its errors included; but a seat asked
    during the deal has none, as OpenSpiel's C++ games answer (its binding of a Python game
    hands it the chance outcomes)."""
    game = pyspiel.load_game(GAME_NAME)
    for state in _states(game):
        assert state.is_chance_node() == pyspiel.State.is_chance_node(state)
        assert state.legal_actions() == pyspiel.State.legal_actions(state)
        for player in [*range(-5, 6), np.int64(state.current_player()), 1.0, "x"]:
            mine = _answer(state.legal_actions, player)
            theirs = _answer(pyspiel.State.legal_actions, state, player)
            seat = isinstance(player, int | np.integer) and player >= 0
            assert mine == ([] if seat and state.is_chance_node() else theirs), player


def test_the_benchmark_times_this_module_and_a_copy_of_it_on_the_same_decisions(tmp_path):
    """``benchmarks/bench_openspiel.py``: a decision it times is the strategy's own, its
    figures are there, and ``--before`` (a copy of the game's module, timed beside it) decides
    as the module itself on the same positions."""
    import argparse
    import json
    import shutil
    import subprocess
    import sys

    import interop.openspiel

    from .helpers import BENCHMARKS, load_benchmark

    bench = load_benchmark("bench_openspiel")
    spots = bench.positions(2, 20, 3)
    assert all(len(s.legal_actions()) > 1 and s.turn >= 20 for s in spots)
    spot = spots[1]
    timed = bench.decision(interop.openspiel, "ismcts", 5, spot, 4)()
    agent = OpenSpielAgent(bot="ismcts", max_simulations=5)
    view = spot.view(spot.current_player)
    assert timed == agent.choose(view, spot.legal_actions(), np.random.default_rng(4)).id
    args = argparse.Namespace(bots="ismcts,mcts", simulations="5", positions=2, moves=20,
                              seed=3, repeats=1, ops=5)  # fmt: skip
    out = bench.measure({"today": interop.openspiel}, args)["today"]
    assert [(r["bot"], r["simulations"]) for r in out["decisions"]] == [("ismcts", 5), ("mcts", 5)]
    assert all(r["s_per_decision"] > 0 for r in out["decisions"])
    assert all(out[op] > 0 for op in ("clones_per_s", "rollouts_per_s", "resamples_per_s"))
    copy = tmp_path / "openspiel_before.py"
    shutil.copy(interop.openspiel.__file__, copy)
    flags = ["--simulations", "5", "--positions", "2", "--repeats", "1", "--ops", "5", "--json"]
    ran = subprocess.run(
        [sys.executable, str(BENCHMARKS / "bench_openspiel.py"), *flags, "--before", str(copy)],
        capture_output=True, text=True, check=True, cwd=BENCHMARKS.parent,
    )  # fmt: skip
    both = json.loads(ran.stdout)
    assert both["today"]["digest"] == both["before"]["digest"]


def test_a_position_without_its_moves_is_searched_where_it_stands():
    """A position built from its dict form has no history: ``ISMCTSBot``'s worlds stand at
    the position with no history (as ``set_position`` stands), and ``MCTSBot`` searches it."""
    inner = _position(4, 3, 20)
    bare = leaves.State.from_dict(inner.to_dict())
    view = bare.view(bare.current_player)
    for bot in ("ismcts", "mcts"):
        chosen = OpenSpielAgent(bot=bot, max_simulations=5).choose(
            view, bare.legal_actions(), np.random.default_rng(1)
        )
        assert chosen in bare.legal_actions()
