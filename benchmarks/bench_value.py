"""What a learned evaluation of a position would know: how well the hands at a turn predict
who wins, when every seat plays on by one policy.

A search can cut its playouts short and score the position where it stops (``ismcts``'s
``rollout_depth``, scored by the cards left). This fits the best such score of its kind, a
conditional logit over the seats (seat ``i`` wins with probability proportional to
``exp(w . f_i)``), on the features below, to self-play games of ``--policy`` (the board
before every turn and the game's winner), and measures it on other games: its log loss by
how many turns the game still had to go, beside the cards-left rule the search uses
(``settings.EVAL_BETA``) and the fair share (``log n``, no information). The information
it carries is the fair share's loss less its own, in bits.

Seat features (``FEATURES``): cards left, values held, the largest group, single cards,
passed this round, values it could play now, its place after the seat to move (one-hot),
and values held at each place. Needs the C engine (built at install).

    python benchmarks/bench_value.py --games 20000 --seed 56      # about 40 s
"""

from __future__ import annotations

import argparse
import time
from typing import NamedTuple

import numpy as np
from scipy.optimize import minimize

from leaves.board import (
    HANDS,
    M_CUR,
    M_HI,
    M_LIMIT,
    M_LO,
    M_PASSED,
    M_TURN,
    M_WINNER,
    META,
    SEAT_SLOTS,
    TABLE,
)
from leaves.deal_kernels import setup_for
from leaves.players.compiled import engine
from leaves.players.compiled.bridge import WORK_SIZE
from leaves.players.ismcts.settings import EVAL_BETA
from leaves.players.ismcts.strategy import _rollout_policy
from leaves.rules import N_VALUES
from leaves.ruleset import Rules

FEATURES = (
    "cards left", "values held", "largest group", "single cards", "passed", "playable values",
    "second to move", "third to move", "fourth to move",
    "values held, to move", "values held, second", "values held, third", "values held, fourth",
)  # fmt: skip
BINS = ((1, 2), (2, 3), (3, 5), (5, 8), (8, 100))
"""Cards in the smallest hand at the table, each bin ``[low, high)``: the evaluation is fitted
bin by bin (a position's bin is public)."""


class Positions(NamedTuple):
    """The board before every turn of some games, and each game's winner and end."""

    boards: np.ndarray  # int32 (N, BOARD_ROWS, N_VALUES)
    winners: np.ndarray  # int64 (N,): the seat that won the position's game
    to_go: np.ndarray  # int64 (N,): turns the game still had to go


def self_play(policy: str, players: int, games: int, seed: int) -> Positions:
    """``games`` games of ``players`` seats of ``policy``, game ``g`` dealt and played from
    seeds derived from ``seed`` and ``g`` alone. Games that reach the turn limit are left out
    (they have no winner)."""
    kind, params = _rollout_policy(policy)
    kinds = np.full(players, kind, np.int64)
    table = np.tile(params, (players, 1))
    setup = setup_for(Rules(), players)
    sizes, work = np.zeros(SEAT_SLOTS, np.int64), np.zeros(WORK_SIZE, np.int64)
    boards, winners, to_go = [], [], []
    for g in range(games):
        board = engine.deal(setup, seed * 1_000_003 + g)
        rng = engine.rng_new(seed * 1_000_033 + g)
        seen = []
        while board[META, M_WINNER] < 0 and board[META, M_TURN] < board[META, M_LIMIT]:
            seen.append(board.copy())
            engine.play_to_end(board, kinds, table, sizes, rng, work, None, 1)
        if board[META, M_WINNER] < 0:
            continue
        end = int(board[META, M_TURN])
        boards += seen
        winners += [int(board[META, M_WINNER])] * len(seen)
        to_go += [end - int(b[META, M_TURN]) for b in seen]
    return Positions(np.array(boards), np.array(winners), np.array(to_go))


def _playable(boards: np.ndarray, hands: np.ndarray) -> np.ndarray:
    """(N, n): the values each seat holds enough of to play now (any value on an empty table)."""
    rows = np.arange(len(boards))
    lo, hi = boards[:, META, M_LO], boards[:, META, M_HI]
    table = boards[:, TABLE, :]
    empty = table.sum(axis=1) == 0
    need_lo = np.where(lo >= 0, table[rows, np.clip(lo, 0, N_VALUES - 1)], 0)[:, None, None]
    need_hi = np.where(hi >= 0, table[rows, np.clip(hi, 0, N_VALUES - 1)], 0)[:, None, None]
    v = np.arange(N_VALUES)[None, None, :]
    left = (v <= lo[:, None, None]) & (hands >= need_lo)
    right = (v >= hi[:, None, None]) & (hands >= need_hi)
    return ((hands > 0) & (left | right | empty[:, None, None])).sum(axis=2)


def seat_features(boards: np.ndarray, players: int) -> np.ndarray:
    """(N, players, len(FEATURES)): each seat's features on each board."""
    hands = boards[:, HANDS : HANDS + players, :].astype(np.float64)
    held = (hands > 0).sum(axis=2)
    passed = (boards[:, META, M_PASSED][:, None] >> np.arange(players)[None, :]) & 1
    place = (np.arange(players)[None, :] - boards[:, META, M_CUR][:, None]) % players
    cols = [hands.sum(axis=2), held, hands.max(axis=2), (hands == 1).sum(axis=2), passed,
            _playable(boards, hands)]  # fmt: skip
    cols += [place == k for k in range(1, 4)]
    cols += [(place == k) * held for k in range(4)]
    return np.stack([np.asarray(c, np.float64) for c in cols], axis=2)


def _log_probs(scores: np.ndarray) -> np.ndarray:
    s = scores - scores.max(axis=1, keepdims=True)
    return s - np.log(np.exp(s).sum(axis=1, keepdims=True))


def fit_logit(x: np.ndarray, winners: np.ndarray) -> np.ndarray:
    """The weights ``w`` that maximize the likelihood of ``winners`` when seat ``i`` wins
    with probability proportional to ``exp(x[:, i] @ w)`` (L-BFGS, exact gradient)."""
    rows = np.arange(len(winners))
    chosen = x[rows, winners]

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        lp = _log_probs(x @ w)
        p = np.exp(lp)
        grad = -(chosen - (p[:, :, None] * x).sum(axis=1)).sum(axis=0)
        return float(-lp[rows, winners].sum()), grad

    return minimize(loss, np.zeros(x.shape[2]), jac=True, method="L-BFGS-B").x


def log_loss(scores: np.ndarray, winners: np.ndarray) -> np.ndarray:
    """Each position's log loss (nats) of the winner under seat scores ``scores`` (N, n)."""
    return -_log_probs(scores)[np.arange(len(winners)), winners]


def _cards_left_scores(boards: np.ndarray, players: int) -> np.ndarray:
    return -EVAL_BETA * boards[:, HANDS : HANDS + players, :].sum(axis=2).astype(np.float64)


def _smallest(p: Positions, players: int) -> np.ndarray:
    return p.boards[:, HANDS : HANDS + players, :].sum(axis=2).min(axis=1)


def report(train: Positions, test: Positions, players: int) -> list[str]:
    """The table of log losses by the smallest hand, as printed lines: the evaluation fitted
    on the training positions of each bin and measured on the test positions of that bin."""
    x_train, x_test = seat_features(train.boards, players), seat_features(test.boards, players)
    s_train, s_test = _smallest(train, players), _smallest(test, players)
    rule = log_loss(_cards_left_scores(test.boards, players), test.winners)
    fair = np.log(players)
    lines = ["| smallest hand | positions | median turns to go | learned | cards-left rule | "
             "fair share | learned's information |", "|---|---|---|---|---|---|---|"]  # fmt: skip
    for low, high in BINS:
        fit, m = (s_train >= low) & (s_train < high), (s_test >= low) & (s_test < high)
        if not fit.any() or not m.any():
            continue
        w = fit_logit(x_train[fit], train.winners[fit])
        learned = log_loss(x_test[m] @ w, test.winners[m]).mean()
        span = f"{low}+" if high >= 100 else f"{low}" if high == low + 1 else f"{low}-{high - 1}"
        bits = (fair - learned) / np.log(2)
        lines.append(f"| {span} | {int(m.sum()):,} | {np.median(test.to_go[m]):.0f} | "
                     f"{learned:.3f} | {rule[m].mean():.3f} | {fair:.3f} | {bits:.3f} bits |")  # fmt: skip
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20_000, help="training games (test: a quarter)")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--policy", default="weighted", help="the compiled policy of every seat")
    ap.add_argument("--seed", type=int, default=56)
    args = ap.parse_args()
    if args.players not in (3, 4, 5, 6) or args.games < 4:
        ap.error("--players must be 3..6 and --games at least 4")
    start = time.perf_counter()
    train = self_play(args.policy, args.players, args.games, args.seed)
    test = self_play(args.policy, args.players, args.games // 4, args.seed + 1)
    print(f"{len(train.winners):,} training positions ({args.games:,} games of {args.players}x "
          f"{args.policy}, seed {args.seed}), {len(test.winners):,} test positions "
          f"({args.games // 4:,} games, seed {args.seed + 1}); log loss in nats")  # fmt: skip
    print("\n".join(report(train, test, args.players)))
    print(f"run {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
