"""How good one decision is: each legal move's win rate over deals the opponents' play allows,
and how much each strategy's move is worth over a heuristic's.

At the positions of ``--games`` games of one seat (``--driver``) against three ``--field``
(4 players, the seat in every place), every legal move of the seat is played out on ``--deals``
deals of the hidden cards (``bench_ceiling``'s exact posterior: chains at hard rejection that
contradict none of the opponents' past decisions), every seat then by its policy and the seat
by ``--own``. A move's *value* is its win rate over those deals: what the flat search's rule
estimates. Prints

- how much the deal decides a playout: the correlation of two moves' outcomes on the same
  deal (near 0: which cards are hidden where matters little next to which move is made, so
  evaluating every move on the same deals cancels almost none of a playout's noise);
- each of ``--specs``: the value of the move it makes (a fresh instance at each position,
  ``--reps`` seeds) over the value of the ``--own`` policy's move, in points of win rate a
  decision, and its difference with the first spec, each with a standard error over positions.

Both are unbiased: a spec chooses on its own deals, never on those that value the moves. (The
best move's value would not be: the largest of noisy estimates, it is too high by about as
much as the moves differ.) Values assume that everyone plays on by their policy, the flat
rule's view: a search that plans its own later moves (the defaults' tree) gains what this does
not measure. Needs the C engine.

    python benchmarks/bench_decisions.py --games 80 --jobs 2 --seed 601     # about 2 min
    python benchmarks/bench_decisions.py --specs ismcts:preset=fast ismcts:preset=fast,c=1.0
"""

from __future__ import annotations

import argparse
import time
from typing import NamedTuple

import numpy as np
from bench_ceiling import N_PLAYERS, own_move, posterior_deals, seat_table, wins_after
from joblib import Parallel, delayed

import strategies
from leaves import State
from leaves.board import board_from_state
from leaves.players.compiled import engine
from leaves.players.play import deal_state
from reports.numbers import PERCENTAGE_POINTS

SPECS = ("weighted", "ismcts:preset=fast", "ismcts:preset=flat", "ismcts")


class Position(NamedTuple):
    """A decision of the seat and what its moves are worth."""

    state: State
    seat: int
    ids: tuple[int, ...]  # the legal moves' action ids
    values: np.ndarray  # float64 (moves,): win rate of each move over the deals
    own: int  # the --own policy's move
    corr: float  # mean correlation of two moves' outcomes on the same deal (nan: undefined)


class Args(NamedTuple):
    field: str
    own: str
    driver: str
    deals: int
    steps: int
    min_deals: int  # positions with fewer deals kept (late, constrained ones) are left out
    seed: int


def _decisions(g: int, a: Args) -> tuple[int, list[State]]:
    """The seat of game ``g`` and its positions with a choice, the seat played by the driver."""
    seat = g % N_PLAYERS
    words = np.random.SeedSequence([a.seed, g // N_PLAYERS]).generate_state(1, np.uint64)
    state = deal_state(N_PLAYERS, int(words[0]))
    rng = np.random.default_rng([a.seed, g])
    players = [strategies.get(a.field) for _ in range(N_PLAYERS)]
    players[seat] = strategies.get(a.driver)
    for p, strat in enumerate(players):
        strat.start_game(state.view(p), rng)
    found = []
    while not state.is_terminal:
        p, legal = state.current_player, state.legal_actions()
        if p == seat and len(legal) > 1:
            found.append(state)
        state = state.apply(players[p].choose(state.view(p), legal, rng))
    return seat, found


def _mean_correlation(outcomes: np.ndarray) -> float:
    """Mean correlation over pairs of moves (columns) whose outcomes vary across deals."""
    varied = outcomes[:, outcomes.std(axis=0) > 0].astype(float)
    if varied.shape[1] < 2:
        return float("nan")
    upper = np.triu_indices(varied.shape[1], 1)
    return float(np.corrcoef(varied.T)[upper].mean())


def positions(g: int, a: Args) -> list[Position]:
    """Game ``g``'s positions of the seat, each move valued on the posterior deals."""
    seat, states = _decisions(g, a)
    table = seat_table(a.field, a.own, seat)
    krng = engine.rng_new(a.seed * 7919 + g)
    out = []
    for i, state in enumerate(states):
        legal = state.legal_actions()
        deals = posterior_deals(state, seat, table, a.deals, a.steps, a.seed * 1009 + g * 97 + i)
        if len(deals) < a.min_deals:
            continue
        won = np.array([[wins_after(d, m.id, seat, table, krng) for m in legal] for d in deals])
        own = own_move(board_from_state(state), seat, table, krng)  # reads only its own view
        ids = tuple(m.id for m in legal)
        out.append(Position(state, seat, ids, won.mean(axis=0), own, _mean_correlation(won)))
    return out


def gains(chunk: list[Position], first: int, spec: str, reps: int, seed: int) -> np.ndarray:
    """(positions, reps) value of ``spec``'s move over the ``--own`` policy's move at the
    positions of ``chunk`` (the first is position ``first`` of the run), a fresh instance for
    each; its RNG from the position's place in the run, so ``--jobs`` changes nothing."""
    out = np.zeros((len(chunk), reps))
    for row, pos in enumerate(chunk):
        k = first + row
        view, legal = pos.state.view(pos.seat), pos.state.legal_actions()
        for r in range(reps):
            strat = strategies.get(spec)
            rng = np.random.default_rng([seed, k, r])
            strat.start_game(view, rng)
            move = strat.choose(view, legal, rng)
            value = pos.values[pos.ids.index(move.id)]
            out[row, r] = value - pos.values[pos.ids.index(pos.own)]
    return out


def _report(found: list[Position], a: Args, specs: list[str], table: dict) -> None:
    corr = np.array([p.corr for p in found])
    moves = np.mean([len(p.ids) for p in found])
    print(f"  correlation of two moves' outcomes on the same deal: {np.nanmean(corr):.3f} "
          f"(mean over positions; {moves:.1f} legal moves a position)")  # fmt: skip
    print(
        f"  each one's move over {a.own}'s, {PERCENTAGE_POINTS} of win rate a decision "
        "(+- standard error):"
    )
    base = table[specs[0]].mean(axis=1)
    for spec in specs:
        per = table[spec].mean(axis=1)
        d = per - base
        se = d.std(ddof=1) / np.sqrt(len(d))
        own = per.std(ddof=1) / np.sqrt(len(per))
        print(f"  {spec:<40} {100 * per.mean():+5.2f} +- {100 * own:.2f}; "
              f"vs {specs[0]} {100 * d.mean():+5.2f} +- {100 * se:.2f}")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=80, help="games (a multiple of 4)")
    ap.add_argument("--field", default="weighted", help="the three opponents' compiled policy")
    ap.add_argument("--own", default="weighted", help="the seat's policy after its move")
    ap.add_argument("--driver", default="ismcts:preset=fast", help="the seat's play in games")
    ap.add_argument("--deals", type=int, default=300, help="posterior deals a position")
    ap.add_argument("--steps", type=int, default=150, help="swaps of each deal's chain")
    ap.add_argument("--min-deals", type=int, default=80, help="fewest deals kept a position")
    ap.add_argument("--reps", type=int, default=3, help="decisions of a spec a position")
    ap.add_argument("--seed", type=int, default=601)
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--specs", nargs="+", default=list(SPECS), help="strategy specs to score")
    args = ap.parse_args()
    for spec in [*args.specs, args.field, args.own, args.driver]:
        try:
            strategies.get(spec)  # a bad spec fails here, before the long part
        except ValueError as exc:
            ap.error(str(exc))
    if args.games < N_PLAYERS or min(args.deals, args.reps, args.steps) < 1:
        ap.error(f"--games must be at least {N_PLAYERS}; --deals, --steps and --reps at least 1")
    try:
        seat_table(args.field, args.own, 0)  # the playouts need compiled policies
    except ValueError as exc:
        ap.error(str(exc))
    a = Args(args.field, args.own, args.driver, args.deals, args.steps, args.min_deals, args.seed)
    start = time.perf_counter()
    games = args.games - args.games % N_PLAYERS
    parts = Parallel(n_jobs=args.jobs)(delayed(positions)(g, a) for g in range(games))
    found = [p for part in parts for p in part]
    if not found:
        raise SystemExit(f"no position kept {a.min_deals} deals: lower --min-deals")
    chunks = np.array_split(np.arange(len(found)), max(1, 4 * args.jobs))
    table = {}
    for spec in args.specs:
        done = Parallel(n_jobs=args.jobs)(
            delayed(gains)([found[i] for i in c], int(c[0]), spec, args.reps, args.seed)
            for c in chunks
            if len(c)
        )
        table[spec] = np.concatenate(done)
    print(f"{len(found)} positions of {games} games of {a.driver} against three {a.field} "
          f"({a.deals} deals a position, moves played on by {a.own}), seed {a.seed}")  # fmt: skip
    _report(found, a, args.specs, table)
    print(f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
