"""Two designs of the games loop side by side on one machine: the C engine built by the
install (``leaves.players.compiled.engine``) and numba's JIT loop (``leaves.players.compiled.loops``,
``LEAVES_ENGINE=numba``), which every run used to compile at first use.

Usage: python benchmarks/bench_engines.py [--games N] [--rounds N] [--json]
       python benchmarks/bench_engines.py --wheel [--tree CHECKOUT] [--rounds N]

* cold: a fresh process on an empty cache folder plays a 1,000-game batch of every built-in
  (the first batch a newcomer's run plays): wall seconds from the interpreter's start, each
  design; and the C engine compiled from its sources, as an edited checkout does at first use;
* warm: ns per turn of the hot loop for three tables (four simple heuristics; counter,
  weighted, taker, greedy; random play), both loops in one process, interleaved round by
  round over the same deals (they play the very same games: the digests are compared), one
  core: the median of the rounds and the C/numba ratio;
* ``--wheel``: the install's build alone, ``pip wheel --no-deps`` of a fresh copy of the
  tracked files of ``--tree`` (this checkout by default; give a checkout of another commit
  to compare), each round in a new folder, so nothing built before is reused.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
TABLES = {
    "greedy, low, high, minimal": ["greedy", "low", "high", "minimal"],
    "counter, weighted, taker, greedy": ["counter", "weighted", "taker", "greedy"],
    "random x4": ["random"] * 4,
}
EVERY = ["random", "low", "high", "minimal", "greedy", "patient", "blocker", "counter", "taker"]

_FIRST_BATCH = f"""
import numpy as np, strategies
deal = np.arange(1000, dtype=np.uint64)
for i in range(0, {len(EVERY)}, 3):
    strategies.play_batch({EVERY!r}[i:i + 3] + ["weighted"], deal, deal + np.uint64(1))
"""


def cold_seconds(engine: str) -> float:
    """Wall seconds of a fresh process on empty caches playing the first batch."""
    with tempfile.TemporaryDirectory(prefix="bench-engines-") as cache:
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
        env.update(LEAVES_CACHE_DIR=cache, LEAVES_ENGINE=engine)
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", _FIRST_BATCH], env=env, cwd=ROOT, check=True)
        return time.perf_counter() - t0


def c_build_seconds() -> float:
    """Seconds to compile the C engine from its sources (an edited checkout's first use)."""
    from gamekit import cbuild
    from leaves.players.compiled import engine

    with tempfile.TemporaryDirectory(prefix="bench-engines-") as out:
        t0 = time.perf_counter()
        cbuild.build(engine.CSRC, Path(out) / "engine.so")
        return time.perf_counter() - t0


def wheel_seconds(tree: Path, rounds: int) -> list[float]:
    """Seconds of ``pip wheel --no-deps`` of a fresh copy of ``tree``'s tracked files."""
    files = subprocess.run(["git", "ls-files"], cwd=tree, capture_output=True, text=True,
                           check=True).stdout.split()  # fmt: skip
    times = []
    for _ in range(rounds):
        with tempfile.TemporaryDirectory(prefix="bench-engines-") as tmp:
            src = Path(tmp) / "src"
            for name in files:
                (src / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(tree / name, src / name)
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", str(src),
                            "-w", str(Path(tmp) / "out")], check=True, capture_output=True)  # fmt: skip
            times.append(time.perf_counter() - t0)
    return times


def _table(names: list[str]) -> tuple[np.ndarray, np.ndarray]:
    import strategies

    compiled = [strategies.get(n).compiled() for n in names]
    return np.array([k for k, _ in compiled], np.int64), np.stack([p for _, p in compiled])


def warm_ratios(games: int, rounds: int) -> dict[str, dict[str, float]]:
    """ns per turn (CPU, one core) of both loops per table, interleaved round by round."""
    from leaves.players.compiled import engine, loops

    deal = np.arange(games, dtype=np.uint64) * np.uint64(7919) + np.uint64(1)
    play = deal + np.uint64(104729)
    out = {}
    for label, names in TABLES.items():
        kinds, params = _table(names)
        loop = {"C": engine.play_games, "numba": loops._batch}
        loops._run(kinds, params, deal[:10], play[:10], None, False, loop=loops._batch)
        ns: dict[str, list[float]] = {"C": [], "numba": []}
        digests = {}
        for _ in range(rounds):
            for name in ("C", "numba") if _ % 2 == 0 else ("numba", "C"):
                t0 = time.process_time()
                res = loops._run(kinds, params, deal, play, None, False, loop=loop[name])
                turns = int(res.turns.sum())
                ns[name].append(1e9 * (time.process_time() - t0) / turns)
                digests[name] = (turns, int(res.winner.sum()), int(res.left.sum()))
        assert digests["C"] == digests["numba"], f"{label}: the loops played other games"
        med = {k: float(np.median(v)) for k, v in ns.items()}
        out[label] = {"c_ns": med["C"], "numba_ns": med["numba"], "ratio": med["C"] / med["numba"]}
    return out


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=20_000, help="games per table and round")
    ap.add_argument("--rounds", type=int, default=7, help="interleaved rounds per table")
    ap.add_argument("--json", action="store_true", help="print the figures as JSON")
    ap.add_argument("--wheel", action="store_true", help="time the install's build instead")
    ap.add_argument("--tree", type=Path, default=ROOT, help="the checkout --wheel builds")
    a = ap.parse_args(argv)
    if a.wheel:
        times = wheel_seconds(a.tree.resolve(), a.rounds)
        print(f"pip wheel --no-deps of {a.tree}: " + ", ".join(f"{t:.1f} s" for t in times))
        return {"wheel_s": times}
    res = {
        "cold_first_batch_c_s": cold_seconds("c"),
        "cold_first_batch_numba_s": cold_seconds("numba"),
        "c_build_s": c_build_seconds(),
        "warm": warm_ratios(a.games, a.rounds),
        "load_average_after": os.getloadavg()[0],
    }
    if a.json:
        print(json.dumps(res, indent=1))
        return res
    print("cold, first batch of every built-in (fresh process, empty caches):")
    print(f"  C engine (built by the install)  {res['cold_first_batch_c_s']:6.1f} s")
    print(f"  numba JIT                        {res['cold_first_batch_numba_s']:6.1f} s")
    print(f"  compiling the C engine from its sources: {res['c_build_s']:.1f} s")
    print("warm, ns per turn, one core, interleaved (median of rounds):")
    for label, r in res["warm"].items():
        print(
            f"  {label:<34} C {r['c_ns']:6.1f}  numba {r['numba_ns']:6.1f}  C/numba {r['ratio']:.2f}"
        )
    print(f"load average after: {res['load_average_after']:.2f}")
    return res


if __name__ == "__main__":
    main()
