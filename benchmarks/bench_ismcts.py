"""Strength and speed of ``ismcts``: one ISMCTS seat against copies of a heuristic.

Plays ``--games`` games of ``--players`` players, ISMCTS in seat ``g % players`` of game ``g``
(so it leads first as often as any seat), the other seats all ``--opponent``. Prints the
ISMCTS win rate with its 95% Wilson interval, the parity rate (1 / players), and the mean
wall time, CPU time and iterations per searched decision (decisions with one legal action are
not searched). Games are split over ``--jobs`` processes with joblib.

Examples::

    python benchmarks/bench_ismcts.py --games 40 --iterations 200
    python benchmarks/bench_ismcts.py --games 400 --iterations 1000 --jobs 2 --opponent taker
    python benchmarks/bench_ismcts.py --games 100 --iterations 0 --time-ms 50
    python benchmarks/bench_ismcts.py --games 600 --jobs 2 --opponent weighted --infer-lambda 2
    python benchmarks/bench_ismcts.py --games 200 --jobs 2 --opponent taker --models weighted,taker
    python benchmarks/bench_ismcts.py --games 200 --jobs 2 --opponent taker --preset fast
    python benchmarks/bench_ismcts.py --games 10 --opponent weighted --compare ismcts ismcts:reuse=false
    python benchmarks/bench_ismcts.py --games 40 --opponent weighted --compare ismcts --engine OLD.so

Parameters left out take the ``ISMCTS`` defaults. ``--compare SPEC...`` times searches
instead of playing them: each game is played by ``--opponent`` in every seat, and every spec
(a fresh instance per game) decides each position of seat ``g % players`` in game order, the
specs taking turns at each position; it prints each spec's CPU time per searched decision and
its ratio to the first spec's (the same positions, interleaved, each spec first as often: fair
on a shared machine). ``--engine LIB`` adds each spec searched on another build of the C
engine (a copy of ``leaves/players/compiled/_engine*.so`` kept before a change, say): the
before and after of a change to the C search on the same positions, and whether the two
builds decided alike.
"""

from __future__ import annotations

import argparse
import contextlib
import ctypes
import inspect
import time
from collections.abc import Iterator
from pathlib import Path
from unittest import mock

import numpy as np
from joblib import Parallel, delayed

import strategies
from leaves.players.ismcts import ISMCTS, cengine
from reports.stats import wilson


class _TimedISMCTS(ISMCTS, register=False):
    """ISMCTS that adds up the wall time, CPU time and iterations of its searched decisions.

    The totals live on the class: every game plays a fresh instance (``strategies.fresh``), so
    counters on the instance would start from zero each game. ``_run`` resets them, since a
    worker process may run several parts.
    """

    totals = {"decisions": 0, "wall": 0.0, "cpu": 0.0, "iters": 0}

    def choose(self, view, legal, rng):
        t, c = time.perf_counter(), time.thread_time()
        action = super().choose(view, legal, rng)
        if len(legal) > 1:
            tot = _TimedISMCTS.totals
            tot["wall"] += time.perf_counter() - t
            tot["cpu"] += time.thread_time() - c
            tot["decisions"] += 1
            tot["iters"] += self.last_iterations
        return action


def _run(games: list[int], seeds: np.ndarray, params: dict, opponent: str, n: int) -> tuple:
    """Play the listed games; return (wins, games, unfinished, forfeits, decisions, wall s,
    CPU s, iterations)."""
    totals = _TimedISMCTS.totals
    totals.update(decisions=0, wall=0.0, cpu=0.0, iters=0)
    me = _TimedISMCTS(**params)
    wins = unfinished = forfeits = 0
    for g in games:
        seat = g % n
        table = [me if i == seat else opponent for i in range(n)]
        res = strategies.play_batch(table, seeds[g : g + 1, 0], seeds[g : g + 1, 1])
        wins += int(res.winner_seat[0] == seat)
        unfinished += int(res.unfinished[0])
        forfeits += int(res.forfeit_seat[0] >= 0)
        if res.errors[0]:
            print("error:", res.errors[0])
    return (
        wins,
        len(games),
        unfinished,
        forfeits,
        totals["decisions"],
        totals["wall"],
        totals["cpu"],
        totals["iters"],
    )


def decision_ms(games: int, params: dict, opponent: str, seed: int, players: int = 4) -> float:
    """Mean wall milliseconds a searched decision takes over ``games`` games on one core,
    after a warm-up game (``benchmarks/bench_all.py`` quotes it)."""
    seeds = np.random.SeedSequence(seed).generate_state(2 * (games + 1), np.uint64)
    seeds = seeds.reshape(games + 1, 2)
    _run([games], seeds, params, opponent, players)  # load or compile
    *_, decisions, wall, _cpu, _iters = _run(list(range(games)), seeds, params, opponent, players)
    return 1000 * wall / max(1, decisions)


def other_engine(path: str) -> ctypes.CDLL:
    """Another build of the C engine (``--engine``), checked to share this one's search
    structs: SystemExit with a one-line reason when it cannot be used."""
    try:
        lib = ctypes.CDLL(str(Path(path).resolve()))
        cengine._declare(lib)
    except (OSError, AttributeError) as exc:
        msg = f"bench_ismcts: --engine {path}: not a C engine with the search ({exc})"
        raise SystemExit(msg) from None
    if cengine.library() is None:
        raise SystemExit("bench_ismcts: --engine needs this checkout's C engine to compare with")
    ours = cengine.constants()
    with on_engine(lib):
        theirs = cengine.constants()
    if theirs != ours:
        raise SystemExit(f"bench_ismcts: --engine {path}: built with other search structs")
    return lib


@contextlib.contextmanager
def on_engine(lib: ctypes.CDLL | None) -> Iterator[None]:
    """The search's kernels call ``lib`` inside the block (None: this checkout's engine)."""
    if lib is None:
        yield
        return
    with mock.patch.object(cengine, "library", lambda: lib):
        yield


def agreement(these: list[int], those: list[int]) -> str:
    """Whether two runs chose the same action ids at the same positions, in words."""
    differ = sum(a != b for a, b in zip(these, those, strict=True))
    if differ == 0:
        return "the same decisions"
    return f"{differ} of {len(these)} decisions {'differ' if differ > 1 else 'differs'}"


def compare(
    specs: list[str], games: int, players: int, opponent: str, seed: int, engine: str = ""
) -> list[str]:
    """CPU time of each spec's searches on the same positions, interleaved (``--compare``);
    with ``engine`` (another build of the C engine) each spec runs on both, and its line says
    whether the two builds decided alike. Returns the lines printed."""
    import leaves

    other = other_engine(engine) if engine else None
    runs = [(s, lib) for s in specs for lib in ((None, other) if other else (None,))]
    seeds = np.random.SeedSequence(seed).generate_state(2 * games, np.uint64).reshape(games, 2)
    cpu = [0.0] * len(runs)
    iters = [0] * len(runs)
    picks: list[list[int]] = [[] for _ in runs]
    decisions = 0
    strategies.play_game([opponent] + [specs[0]] * (players - 1), seed=seed)  # warm-up
    for g in range(games):
        seat = g % players
        game = strategies.play_game([opponent] * players, seed=int(seeds[g, 0]))
        rng = [np.random.default_rng(int(seeds[g, 1])) for _ in runs]
        mine = [strategies.get(s) for s, _ in runs]
        states = leaves.replay(game.record)
        for k, m in enumerate(mine):
            m.start_game(states[0].view(seat), rng[k])
        for state in states[:-1]:
            legal = state.legal_actions()
            if state.current_player != seat or len(legal) < 2:
                continue
            decisions += 1
            order = range(len(runs)) if decisions % 2 else reversed(range(len(runs)))
            for k in order:  # each first as often: the second finds the caches warm
                with on_engine(runs[k][1]):
                    c0 = time.thread_time()
                    picks[k].append(mine[k].choose(state.view(seat), legal, rng[k]).id)
                    cpu[k] += time.thread_time() - c0
                iters[k] += mine[k].last_iterations
    lines = [
        f"{decisions} searched positions, {games} games of {players}x {opponent} (seed {seed})"
    ]
    for k, (spec, lib) in enumerate(runs):
        line = (f"  {spec}{f' on {engine}' if lib else ''}: {1000 * cpu[k] / decisions:.2f} ms "
                f"CPU a decision ({cpu[k] / cpu[0]:.3f} of the first), "
                f"{iters[k] / decisions:.0f} iterations")  # fmt: skip
        if lib is not None:  # runs[k - 1] is the same spec on this checkout's engine
            line += ", " + agreement(picks[k], picks[k - 1])
        lines.append(line)
    print("\n".join(lines))
    return lines


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=40)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--opponent", default="taker", help="strategy spec of the other seats")
    d = {k: v.default for k, v in inspect.signature(ISMCTS.__init__).parameters.items()}
    ap.add_argument("--iterations", type=int, default=d["iterations"])
    ap.add_argument("--time-ms", type=float, default=d["time_ms"])
    ap.add_argument("--c", type=float, default=d["c"])
    ap.add_argument("--rollout", default=d["rollout"])
    ap.add_argument("--playouts", type=int, default=d["playouts"])
    ap.add_argument("--shaping", type=float, default=d["shaping"])
    ap.add_argument("--max-depth", type=int, default=d["max_depth"])
    ap.add_argument("--widen", type=float, default=d["widen"], help="progressive widening")
    ap.add_argument("--rollout-depth", type=int, default=d["rollout_depth"])
    ap.add_argument("--tree-opponents", action="store_true", help="model_opponents=False")
    ap.add_argument("--infer-tries", type=int, default=d["infer_tries"])
    ap.add_argument("--infer-steps", type=int, default=d["infer_steps"])
    ap.add_argument(
        "--infer-lambda", type=float, default=d["infer_lambda"], help=">= 1e6: hard rejection"
    )
    ap.add_argument(
        "--models", default=d["models"], help="candidate opponent models, e.g. weighted,taker"
    )
    ap.add_argument("--model-min", type=int, default=d["model_min"])
    ap.add_argument("--model-steps", type=int, default=d["model_steps"])
    ap.add_argument("--preset", default=d["preset"], help="a named setting, e.g. fast")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--compare", nargs="+", metavar="SPEC", help="time these specs instead")
    ap.add_argument(
        "--engine", default="", metavar="LIB", help="with --compare: also time on this C build"
    )
    args = ap.parse_args()
    if args.engine and not args.compare:
        ap.error("--engine needs --compare")
    if args.compare:
        compare(args.compare, args.games, args.players, args.opponent, args.seed, args.engine)
        return

    params = dict(
        iterations=args.iterations,
        time_ms=args.time_ms,
        c=args.c,
        rollout=args.rollout,
        playouts=args.playouts,
        shaping=args.shaping,
        max_depth=args.max_depth,
        widen=args.widen,
        rollout_depth=args.rollout_depth,
        model_opponents=not args.tree_opponents,
        infer_tries=args.infer_tries,
        infer_steps=args.infer_steps,
        infer_lambda=args.infer_lambda,
        models=args.models,
        model_min=args.model_min,
        model_steps=args.model_steps,
        preset=args.preset,
    )
    label = ISMCTS(**params).label
    seeds = np.random.SeedSequence(args.seed).generate_state(2 * args.games, np.uint64)
    seeds = seeds.reshape(args.games, 2)
    jobs = max(1, args.jobs)
    parts = [list(range(j, args.games, jobs)) for j in range(jobs)]
    t0 = time.perf_counter()
    if jobs == 1:
        out = [_run(parts[0], seeds, params, args.opponent, args.players)]
    else:
        out = Parallel(n_jobs=jobs)(
            delayed(_run)(p, seeds, params, args.opponent, args.players) for p in parts
        )
    wall = time.perf_counter() - t0
    wins, games, unf, forf, dec, spent, cpu, iters = (sum(x[i] for x in out) for i in range(8))
    lo, hi = (float(x) for x in wilson(wins, games))
    print(f"{label} vs {args.players - 1}x {args.opponent}, {games} games (seed {args.seed})")
    print(
        f"  wins {wins}/{games} = {wins / games:.3f}  95% Wilson [{lo:.3f}, {hi:.3f}]  "
        f"parity {1 / args.players:.3f}  unfinished {unf}  forfeits {forf}"
    )
    if dec:
        print(
            f"  {dec} searched decisions: {1000 * spent / dec:.1f} ms wall clock "
            f"({1000 * cpu / dec:.1f} ms CPU) and {iters / dec:.0f} iterations each on average; "
            f"run {wall:.0f} s"
        )


if __name__ == "__main__":
    main()
