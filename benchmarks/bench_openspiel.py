"""Speed of the OpenSpiel game (``interop.openspiel``) under OpenSpiel's own Python bots.

Prints the CPU seconds a decision of the strategy ``openspiel:bot=ismcts`` (OpenSpiel's
``ISMCTSBot``; ``--bots ismcts,mcts`` adds its ``MCTSBot``) takes at each of ``--simulations``
on fixed positions (4 players, ``--positions`` of them, ``--moves`` random moves into a deal
from ``--seed``; the best of ``--repeats`` tries of each, averaged over the positions), and
the game's own operations the bots repeat: clones a second (a drawn world's ``clone()``),
rollouts a second (``RandomRolloutEvaluator.evaluate`` from it: a clone and a random game to
the end) and resamples a second (``resample_from_infostate`` at the bot's root). A digest of
the actions chosen tells two versions that decide alike from one that does not.

Examples::

    python benchmarks/bench_openspiel.py
    python benchmarks/bench_openspiel.py --simulations 100 --repeats 5 --json
    python benchmarks/bench_openspiel.py --bots ismcts,mcts --before OLD_openspiel.py

``--before PATH`` times a copy of ``interop/openspiel.py`` kept before a change too, in the
same process, each try of it right after the same try of today's (fair on a shared machine):
each figure then has its ``before`` and the ratio, and the line says whether both versions
chose the same actions. One core; CPU time (a shared machine's waits left out).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import time
from collections.abc import Callable
from types import ModuleType

import numpy as np
from open_spiel.python.algorithms import mcts

import interop.openspiel
import leaves
from interop.variants import openspiel_text


def load_copy(path: str) -> ModuleType:
    """The copy of ``interop/openspiel.py`` at ``path`` as a module of its own, beside
    today's (named as today's, so its relative imports read the ``interop`` package and its
    strategy class takes the same registry name; it is not put in ``sys.modules``)."""
    spec = importlib.util.spec_from_file_location("interop.openspiel", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def positions(count: int, moves: int, seed: int) -> list[leaves.State]:
    """``count`` 4-player positions, each ``moves`` random legal moves into a deal (more
    while one legal action is left: a decision the bots do not search)."""
    found = []
    for k in range(count):
        state = leaves.new_game(4, seed=seed + k)
        rng = np.random.default_rng(seed + k)
        for _ in range(moves):
            state = state.apply(int(rng.choice(sorted(state.legal_action_ids()))))
        while len(state.legal_actions()) < 2:
            state = state.apply(int(rng.choice(sorted(state.legal_action_ids()))))
        found.append(state)
    return found


def _game(module: ModuleType, spot: leaves.State):
    """``module``'s own game of ``spot``'s table (not the one OpenSpiel registered: with a
    copy beside today's module, each searches its own game)."""
    rules = openspiel_text(spot.rules)
    return module.ThirteenLeavesGame({"players": spot.n_players, "rules": rules})


def decision(module: ModuleType, bot: str, sims: int, spot: leaves.State, seed: int):
    """A task: one decision of ``module``'s ``OpenSpielAgent`` at ``spot``; it returns the id
    of the action chosen."""
    view, legal = spot.view(spot.current_player), spot.legal_actions()
    game = _game(module, spot)

    def task() -> int:
        agent = module.OpenSpielAgent(bot=bot, max_simulations=sims)
        agent._games[(view.n_players, view.rules)] = game  # its own game, as said above
        return agent.choose(view, legal, np.random.default_rng(seed)).id

    return task


def operations(module: ModuleType, spot: leaves.State, count: int) -> dict[str, Callable]:
    """Tasks that run ``count`` clones, ``count // 10`` rollouts and ``count`` resamples from
    a bot's root at ``spot`` in ``module``'s game; each returns the count it ran."""
    root = _game(module, spot).new_initial_state()
    root.set_position(spot.view(spot.current_player), np.random.default_rng(0))
    rs = np.random.RandomState(0)
    evaluator = mcts.RandomRolloutEvaluator(1, rs)
    seat = root.current_player()
    world = root.resample_from_infostate(seat, rs.random_sample)  # a state with a history

    def repeat(step: Callable[[], object], n: int) -> Callable[[], int]:
        def task() -> int:
            for _ in range(n):
                step()
            return n

        return task

    return {
        "clones_per_s": repeat(world.clone, count),
        "rollouts_per_s": repeat(lambda: evaluator.evaluate(world), max(1, count // 10)),
        "resamples_per_s": repeat(lambda: root.resample_from_infostate(seat, rs.random_sample), count),
    }  # fmt: skip


def timed(tasks: dict[str, Callable[[], object]], repeats: int) -> dict[str, tuple]:
    """Each task's least CPU time over ``repeats`` tries and its last result; the tasks take
    turns at each try (today's, then the copy's: the same moment of a shared machine)."""
    times: dict[str, list[float]] = {name: [] for name in tasks}
    results: dict[str, object] = {}
    for _ in range(repeats):
        for name, task in tasks.items():
            start = time.process_time()
            results[name] = task()
            times[name].append(time.process_time() - start)
    return {name: (min(times[name]), results[name]) for name in tasks}


def measure(modules: dict[str, ModuleType], args: argparse.Namespace) -> dict:
    """The figures of every module in ``modules`` (today's, and the copy's under ``before``),
    timed in turns: decisions per bot and simulation count, then the operations."""
    spots = positions(args.positions, args.moves, args.seed)
    out: dict[str, dict] = {name: {"decisions": [], "actions": []} for name in modules}
    for bot in args.bots.split(","):
        for sims in map(int, args.simulations.split(",")):
            seconds = dict.fromkeys(modules, 0.0)
            for k, spot in enumerate(spots):
                tasks = {name: decision(m, bot, sims, spot, k) for name, m in modules.items()}
                for name, (cpu, action) in timed(tasks, args.repeats).items():
                    seconds[name] += cpu / len(spots)
                    out[name]["actions"].append(action)
            for name in modules:
                out[name]["decisions"].append(
                    {"bot": bot, "simulations": sims, "s_per_decision": seconds[name]}
                )
    ops = {name: operations(m, spots[0], args.ops) for name, m in modules.items()}
    for op in ops[next(iter(modules))]:
        tasks = {name: ops[name][op] for name in modules}
        for name, (cpu, count) in timed(tasks, args.repeats).items():
            out[name][op] = count / cpu
    for figures in out.values():
        actions = figures.pop("actions")
        figures["digest"] = hashlib.sha256(repr(actions).encode()).hexdigest()[:12]
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--bots", default="ismcts", help="comma-separated: ismcts, mcts")
    ap.add_argument("--simulations", default="100,1000", help="comma-separated counts")
    ap.add_argument("--positions", type=int, default=3)
    ap.add_argument("--moves", type=int, default=20, help="random moves into each deal")
    ap.add_argument("--repeats", type=int, default=3, help="tries of each figure (the best)")
    ap.add_argument("--ops", type=int, default=300, help="clones and resamples a try")
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--before", help="a copy of interop/openspiel.py to time beside today's")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    modules = {"today": interop.openspiel}
    if args.before:
        modules["before"] = load_copy(args.before)
    out = measure(modules, args)
    if args.json:
        print(json.dumps(out))
        return
    now, before = out["today"], out.get("before")
    for k, r in enumerate(now["decisions"]):
        line = f"{r['bot']:7s} {r['simulations']:5d} simulations: {r['s_per_decision']:.3f} s"
        if before:
            then = before["decisions"][k]["s_per_decision"]
            line += f" (before {then:.3f} s, {then / r['s_per_decision']:.2f}x)"
        print(line + " CPU a decision")
    for op in ("clones_per_s", "rollouts_per_s", "resamples_per_s"):
        line = f"{op.split('_')[0]:10s} {now[op]:9,.0f}/s"
        if before:
            line += f" (before {before[op]:,.0f}/s, {now[op] / before[op]:.2f}x)"
        print(line)
    same = (
        ""
        if not before
        else f"; before: {before['digest']}, "
        + ("the same actions" if before["digest"] == now["digest"] else "OTHER ACTIONS")
    )
    print(f"actions digest {now['digest']}{same}")


if __name__ == "__main__":
    main()
