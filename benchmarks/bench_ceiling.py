"""How much of the search's game is hidden information: one seat against three of a field,
played four ways on the same deals.

- the field's policy itself (``--own``, the search's playout policy): the fair share;
- ``ismcts:preset=flat``, the flat search: each move played out on deals the search infers,
  the move that wins most made (the decision rule of the two lines below);
- ``ismcts`` at its defaults: what the search wins with its tree over the seat's later moves;
- **exact posterior**: the seat sees what a player sees, and knows the field's true policy.
  Each decision draws ``--deals`` deals independently, each a chain of ``--steps`` card
  swaps that keeps no swap adding a contradiction of the opponents' past decisions (the
  search's own chain, ``infer_lambda`` at hard rejection, from a fresh draw); it keeps the
  deals that contradict fewest of them (nearly always none: the deals the opponents' play
  allows), plays each legal move out on each kept deal (every seat by its policy, itself
  continuing as ``--own``) and makes the move that wins most (ties: its policy's own). This
  is the flat search's way of deciding with inference made exact: if it wins no more than
  the flat search, a better reading of the opponents' cards has nothing left to give;
- **open hands**: the seat sees every hand. Each legal move is played out on the true deal
  the same way, and it makes one whose playout it wins (its policy's move first). Against a
  deterministic field this is exact one-move lookahead: the ceiling of the same decision
  rule without hidden cards.

4 players, game ``g`` on deal ``g // 4`` with the seat at place ``g % 4`` (every deal played
from all four places), a seed never used for tuning. Each line: win rate with the reports'
95% interval over duplicate sets; the exact posterior and the defaults also as paired
differences with the flat search on the same games. Game ``g`` of a line depends only on the
seed and ``g``, so ``--lines`` re-plays some lines of a run exactly. Needs the C engine (built
at install).

    python benchmarks/bench_ceiling.py --games 600 --jobs 2 --seed 48       # 3 min on two cores
    python benchmarks/bench_ceiling.py --games 600 --lines flat,ismcts       # two lines only
"""

from __future__ import annotations

import argparse
import time
from typing import NamedTuple

import numpy as np
from joblib import Parallel, delayed

import strategies
from leaves import Action, State
from leaves.board import HANDS, M_WINNER, META, SEAT_SLOTS, board_from_state, public_board
from leaves.players.compiled import engine
from leaves.players.compiled.bridge import WORK_SIZE
from leaves.players.ismcts import cengine
from leaves.players.ismcts.evidence import evidence
from leaves.players.ismcts.inference import (
    HARD,
    N_STATS,
    S_BAD,
    S_NODES,
    Models,
    Position,
    memo_bits,
    new_memo,
)
from leaves.players.ismcts.settings import Config
from leaves.players.ismcts.strategy import _rollout_policy
from leaves.players.ismcts.tree import SearchState, new_tree
from leaves.players.play import deal_state
from reports.clusters import clustered_rate, t_quantile
from reports.numbers import fixed, in_percentage_points, interval

N_PLAYERS = 4
LINES = ("own", "flat", "ismcts", "exact", "open")
SEARCHES = {"flat": "ismcts:preset=flat", "ismcts": "ismcts"}
"""The lines played by a strategy spec at the seat (``own`` plays the ``--own`` policy)."""


class Table(NamedTuple):
    """Every seat's compiled policy, the seat under test playing ``own``."""

    kinds: np.ndarray  # int64 (SEAT_SLOTS,)
    params: np.ndarray  # float64 (SEAT_SLOTS, N_PARAMS)


def seat_table(field: str, own: str, seat: int) -> Table:
    fk, fp = _rollout_policy(field)
    ok, op = _rollout_policy(own)
    kinds = np.full(SEAT_SLOTS, fk, np.int64)
    params = np.tile(fp, (SEAT_SLOTS, 1))
    kinds[seat], params[seat] = ok, op
    return Table(kinds, params)


def _sizes(board: np.ndarray) -> np.ndarray:
    """Every seat's hand size on ``board``, as the compiled policies read them."""
    sizes = np.zeros(SEAT_SLOTS, np.int64)
    sizes[:N_PLAYERS] = board[HANDS : HANDS + N_PLAYERS].sum(axis=1)
    return sizes


def wins_after(board: np.ndarray, aid: int, seat: int, table: Table, rng: np.ndarray) -> bool:
    """Whether ``seat`` wins the playout of ``board`` after move ``aid`` (every seat by its
    policy in ``table``)."""
    b = board.copy()
    cengine.C_KERNELS.apply(b, aid)
    if b[META, M_WINNER] < 0:
        n, work = N_PLAYERS, np.zeros(WORK_SIZE, np.int64)
        engine.play_to_end(b, table.kinds[:n], table.params[:n], _sizes(b), rng, work, None, 0)
    return int(b[META, M_WINNER]) == seat


def _best(legal: tuple[Action, ...], wins: dict[int, float], own: int) -> Action:
    """The legal move with the most wins; its policy's own move, then the lowest id, on ties."""
    top = max(wins.values())
    if wins[own] == top:
        return next(a for a in legal if a.id == own)
    return next(a for a in legal if wins[a.id] == top)


def own_move(board: np.ndarray, seat: int, table: Table, rng: np.ndarray) -> int:
    work = np.zeros(WORK_SIZE, np.int64)
    return engine.decide(
        table.kinds[seat], table.params[seat], board, seat, _sizes(board), rng, work
    )


def open_hands(state: State, seat: int, table: Table, rng: np.ndarray) -> Action:
    """One move ahead on the true deal: a move whose playout ``seat`` wins."""
    board = board_from_state(state)
    legal = state.legal_actions()
    own = own_move(board, seat, table, rng)
    wins = {a.id: float(wins_after(board, a.id, seat, table, rng)) for a in legal}
    return _best(legal, wins, own)


def posterior_deals(state: State, seat: int, table: Table, deals: int, steps: int,
                    seed: int) -> list[np.ndarray]:  # fmt: skip
    """``deals`` independent deals of the hidden cards, each the search's chain run ``steps``
    swaps at hard rejection from a fresh draw; those with the fewest contradictions."""
    view = state.view(seat)
    pub, sizes = public_board(view)
    ev = evidence(view)
    models = Models(table.kinds, table.params)
    kern = cengine.kernels(np.unique(table.kinds))
    cfg = Config(
        c=0.7, shaping=0.0, rollout_depth=0, dealt=1.0, infer_lambda=HARD, playouts=1,
        max_depth=1, model_opponents=True, infer_tries=50, infer_steps=steps,
        stop_early=False, prior_action=-1, prior_visits=0.0, warm_deal=False, widen=0.0,
        stop_margin=1.0,
    )  # fmt: skip
    found: list[tuple[int, np.ndarray]] = []
    for k in range(deals):
        stats = np.zeros(N_STATS, np.int64)
        stats[S_NODES] = 1
        deal = np.empty_like(pub)
        state_k = SearchState(new_tree(16), stats, deal, new_memo(memo_bits(2 * steps)))
        rng = kern.rng_new(np.uint64((seed + 7919 * k) % 2**64))
        kern.searcher(Position(pub, seat, sizes), cfg, models, ev, rng, state_k)(1)
        found.append((int(stats[S_BAD]), deal))  # one iteration: the chain's deal, its count
    least = min(bad for bad, _ in found)
    return [deal for bad, deal in found if bad == least]


def exact_posterior(state: State, seat: int, table: Table, rng: np.ndarray, deals: int,
                    steps: int, seed: int) -> Action:  # fmt: skip
    """The move that wins most playouts over deals the opponents' past play allows."""
    legal = state.legal_actions()
    if len(legal) == 1:
        return legal[0]
    kept = posterior_deals(state, seat, table, deals, steps, seed)
    wins = {a.id: 0.0 for a in legal}
    for deal in kept:
        for a in legal:
            wins[a.id] += wins_after(deal, a.id, seat, table, rng)
    seen, _ = public_board(state.view(seat))  # what the seat sees: the table and its hand
    seen[HANDS + seat] = state.hand(seat)
    return _best(legal, wins, own_move(seen, seat, table, rng))


class Args(NamedTuple):
    field: str
    own: str
    deals: int
    steps: int
    seed: int


def play(line: str, g: int, a: Args) -> int:
    """Game ``g`` of ``line``: 1 if the seat under test wins it."""
    seat = g % N_PLAYERS
    words = np.random.SeedSequence([a.seed, g // N_PLAYERS]).generate_state(1, np.uint64)
    state = deal_state(N_PLAYERS, int(words[0]))
    rng = np.random.default_rng([a.seed, g])
    krng = engine.rng_new(int(rng.integers(2**63)))
    table = seat_table(a.field, a.own, seat)
    players = [strategies.get(a.field) for _ in range(N_PLAYERS)]
    if line == "own" or line in SEARCHES:
        players[seat] = strategies.get(SEARCHES.get(line, a.own))
    for p, strat in enumerate(players):
        strat.start_game(state.view(p), rng)
    while not state.is_terminal:
        p = state.current_player
        if p == seat and line == "open":
            act = open_hands(state, seat, table, krng)
        elif p == seat and line == "exact":
            seed = int(rng.integers(2**63))
            act = exact_posterior(state, seat, table, krng, a.deals, a.steps, seed)
        else:
            act = players[p].choose(state.view(p), state.legal_actions(), rng)
        state = state.apply(act)
    return int(state.winner == seat)


def _play_range(line: str, lo: int, hi: int, a: Args) -> list[int]:
    return [play(line, g, a) for g in range(lo, hi)]


def _paired(what: str, hits: list[int], base: list[int]) -> None:
    """Print the paired difference of two lines, over duplicate sets, with its t interval."""
    d = (np.array(hits, float) - np.array(base, float)).reshape(-1, N_PLAYERS).mean(axis=1)
    half = float(t_quantile(len(d) - 1)) * d.std(ddof=1) / np.sqrt(len(d))
    print(f"  {what}, paired: {in_percentage_points(fixed(100 * d.mean(), sign='+'))} "
          f"{interval(d.mean() - half, d.mean() + half)}")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=600, help="games a line (a multiple of 4)")
    ap.add_argument("--field", default="weighted", help="the three opponents' compiled policy")
    ap.add_argument("--own", default="weighted", help="the seat's playout policy")
    ap.add_argument("--deals", type=int, default=100, help="exact posterior: deals a decision")
    ap.add_argument("--steps", type=int, default=1000, help="exact posterior: swaps a deal")
    ap.add_argument("--seed", type=int, default=48)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument(
        "--lines", default=",".join(LINES), help="comma-separated, of " + ", ".join(LINES)
    )
    args = ap.parse_args()
    asked = args.lines.split(",")
    if not set(asked) <= set(LINES):
        ap.error(f"--lines: unknown {', '.join(sorted(set(asked) - set(LINES)))}")
    lines = [ln for ln in LINES if ln in asked]
    games = args.games - args.games % N_PLAYERS
    a = Args(args.field, args.own, args.deals, args.steps, args.seed)
    chunk = max(N_PLAYERS, games // (8 * max(args.jobs, 1)) // N_PLAYERS * N_PLAYERS)
    tasks = [(line, lo, min(lo + chunk, games)) for line in lines for lo in range(0, games, chunk)]
    start = time.perf_counter()
    done = Parallel(n_jobs=args.jobs)(delayed(_play_range)(ln, lo, hi, a) for ln, lo, hi in tasks)
    hits: dict[str, list[int]] = {line: [] for line in lines}
    for (line, _, _), part in zip(tasks, done, strict=True):
        hits[line] += part
    deal = np.arange(games) // N_PLAYERS
    print(f"one seat against three {a.field}, {N_PLAYERS} players, {games} games a line "
          f"({games // N_PLAYERS} deals, every place), seed {a.seed}; fair share 25%")  # fmt: skip
    names = {
        "own": f"{a.own} (the playout policy)",
        "flat": "ismcts:preset=flat (the flat search)",
        "ismcts": "ismcts (defaults)",
        "exact": f"exact posterior ({a.deals} deals x {a.steps} swaps)",
        "open": "open hands, one move ahead",
    }
    for line in lines:
        h = np.array(hits[line], float)
        lo, hi = clustered_rate(h, deal)
        print(f"  {names[line]:<44} {100 * h.mean():5.1f}% {interval(lo, hi)}")
    for line in ("exact", "ismcts"):
        if line in hits and "flat" in hits:
            _paired(f"{names[line].split(' (')[0]} - flat search", hits[line], hits["flat"])
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
