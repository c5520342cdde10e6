"""benchmarks/bench_ceiling.py: its open-hands seat makes a move that wins when the game is
played on by the strategies themselves, its posterior deals keep every public fact and
contradict none of the opponents' past decisions, and its games put the seat in every place."""

from __future__ import annotations

import sys

import numpy as np
import pytest

import strategies
from leaves.board import HANDS, KNOWN, REMOVED, TABLE, UNDEALT, board_from_state, public_board
from leaves.players.compiled import engine
from leaves.players.compiled.bridge import WORK_SIZE
from leaves.players.ismcts import cengine
from leaves.players.ismcts.evidence import evidence
from leaves.players.ismcts.inference import Check, seat_mismatches
from leaves.players.play import deal_state

from .helpers import load_benchmark

N = 4


def _bench():
    return load_benchmark("bench_ceiling")


def _positions(deal_seed: int, every: int = 3):
    """States of a game of four ``weighted``, every ``every`` turns."""
    state = deal_state(N, deal_seed)
    rng = np.random.default_rng(deal_seed)
    players = [strategies.get("weighted") for _ in range(N)]
    turn = 0
    while not state.is_terminal:
        if turn % every == 0 and len(state.legal_actions()) > 1:
            yield state
        p = state.current_player
        state = state.apply(players[p].choose(state.view(p), state.legal_actions(), rng))
        turn += 1


def _played_on(state, seat: int, first) -> bool:
    """Whether ``seat`` wins after ``first``, every seat then playing ``weighted`` through the
    strategies' own Python path (not the compiled playout the benchmark uses)."""
    state = state.apply(first)
    rng = np.random.default_rng(0)
    players = [strategies.get("weighted") for _ in range(N)]
    while not state.is_terminal:
        p = state.current_player
        state = state.apply(players[p].choose(state.view(p), state.legal_actions(), rng))
    return state.winner == seat


def test_open_hands_makes_a_move_that_wins_when_any_does():
    bench = _bench()
    krng = engine.rng_new(3)
    checked = winning = 0
    for deal_seed in (11, 12):
        for state in _positions(deal_seed):
            seat = state.current_player
            table = bench.seat_table("weighted", "weighted", seat)
            move = bench.open_hands(state, seat, table, krng)
            some_win = any(_played_on(state, seat, a) for a in state.legal_actions())
            assert _played_on(state, seat, move) == some_win
            checked += 1
            winning += some_win
    assert checked >= 10 and 0 < winning < checked  # both kinds of position were met


def test_posterior_deals_keep_the_public_facts_and_the_opponents_play():
    bench = _bench()
    states = list(_positions(21, every=1))
    state = states[len(states) // 2]  # mid-game: every opponent has decided
    seat = state.current_player
    table = bench.seat_table("weighted", "weighted", seat)
    deals = bench.posterior_deals(state, seat, table, deals=6, steps=400, seed=5)
    truth = board_from_state(state)
    view = state.view(seat)
    pub, _ = public_board(view)
    ev = evidence(view)
    assert len(ev.seats) > 0
    work = np.zeros(WORK_SIZE, np.int64)
    check = Check(ev, (table.kinds, table.params), cengine.C_KERNELS.rng_new(1), work)
    assert seat_mismatches(truth, check, np.zeros(8, np.int64)) == 0  # the truth is allowed
    assert deals
    for deal in deals:
        for row in (TABLE, REMOVED):
            assert (deal[row] == truth[row]).all()
        hidden = deal[UNDEALT].copy()
        for p in range(N):
            assert deal[HANDS + p].sum() == truth[HANDS + p].sum()
            assert (deal[HANDS + p] >= pub[KNOWN + p]).all()  # known cards stay where they are
            hidden += deal[HANDS + p]
        assert (deal[HANDS + seat] == truth[HANDS + seat]).all()
        assert (hidden == truth[UNDEALT] + truth[HANDS : HANDS + N].sum(axis=0)).all()
        assert seat_mismatches(deal, check, np.zeros(8, np.int64)) == 0


@pytest.mark.parametrize("line", ["own", "open"])
def test_every_deal_is_played_from_every_place(line):
    bench = _bench()
    args = bench.Args("weighted", "weighted", deals=4, steps=50, seed=7)
    wins = np.array([bench.play(line, g, args) for g in range(12)]).reshape(3, N)
    if line == "own":  # four identical deterministic seats: one place wins each deal
        assert (wins.sum(axis=1) == 1).all()
    else:
        assert wins.sum() >= 9  # open hands win almost every game


def test_the_flat_line_is_the_flat_search_and_lines_can_be_played_alone(monkeypatch, capsys):
    bench = _bench()
    flat, default = (strategies.get(bench.SEARCHES[k]).settings for k in ("flat", "ismcts"))
    assert flat["max_depth"] == 1 and default == strategies.get("ismcts").settings
    argv = ["bench_ceiling.py", "--games", "8", "--seed", "7", "--lines", "ismcts,flat"]
    monkeypatch.setattr(sys, "argv", argv)
    bench.main()
    out = capsys.readouterr().out
    assert "the flat search" in out and "ismcts (defaults)" in out
    assert "ismcts - flat search, paired" in out
    assert "open hands" not in out and "exact posterior" not in out
    # game g of a line depends only on the seed and g: the same games as the full run's
    args = bench.Args("weighted", "weighted", deals=100, steps=1000, seed=7)
    rate = np.mean([bench.play("flat", g, args) for g in range(8)])
    assert f"{100 * rate:5.1f}%" in out.split("the flat search")[1].splitlines()[0]
    monkeypatch.setattr(sys, "argv", ["bench_ceiling.py", "--lines", "flat,nope"])
    with pytest.raises(SystemExit):
        bench.main()
    assert "unknown nope" in capsys.readouterr().err
