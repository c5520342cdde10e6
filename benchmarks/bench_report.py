"""Benchmark: a full report over a large synthetic run (default 10 million games).

Generates the run (duplicate deals, 8 strategies, 3-6 players) as Parquet parts in a temporary
directory, then builds the report in a child process and prints its wall time and peak memory
(max RSS of the child alone, so the generator's memory does not count).

    python benchmarks/bench_report.py                 # 10M games
    python benchmarks/bench_report.py --games 1000000 --keep runs/run1m
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

STRENGTHS = {
    "greedy": 1.0,
    "counter(depth=2)": 0.7,
    "mcts(rollouts=200)": 0.9,
    "pairs": 0.3,
    "cautious": 0.0,
    "hoarder": -0.2,
    "random": -1.0,
    "first_legal": -0.6,
}
ROWS_PER_DEAL = 896  # sum over n=3..6 of n * C(8, n): games per deal index over all tables


def generate(out: Path, games: int, chunk_deals: int = 1100) -> int:
    """Write about ``games`` synthetic games as parts of ~1M rows; returns the row count."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    from reports.synthetic import synthetic_games

    (out / "games").mkdir(parents=True, exist_ok=True)
    rows, part, deal_base = 0, 0, 0
    while rows < games:
        deals = min(chunk_deals, -(-(games - rows) // ROWS_PER_DEAL))
        df = synthetic_games(STRENGTHS, players=(3, 4, 5, 6), deals=deals, seed=part)
        df = df.iloc[: games - rows]
        df["deal"] += deal_base
        df["game"] += rows
        deal_base = int(df["deal"].max()) + 1
        pq.write_table(pa.Table.from_pandas(df, preserve_index=False),
                       out / "games" / f"part-{part:05d}.parquet")  # fmt: skip
        rows += len(df)
        part += 1
        print(f"  generated {rows:,} rows", file=sys.stderr, flush=True)
    spec = {"strategies": list(STRENGTHS), "players": [3, 4, 5, 6], "games": rows, "seed": 0,
            "expert": False, "versions": {"leaves": "synthetic"}, "wall_time_s": 0.0,
            "chunks_done": part}  # fmt: skip
    (out / "manifest.json").write_text(json.dumps(spec, indent=2))
    return rows


CHILD = """
import sys, time, resource
t = time.perf_counter()
from reports import build_report
p = build_report(sys.argv[1], out=sys.argv[2], fmt=sys.argv[3])
print(f"{time.perf_counter() - t:.2f} {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}")
"""


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=10_000_000)
    ap.add_argument("--keep", type=Path, default=None, help="write the run here and keep it")
    ap.add_argument("--format", default="html", choices=["html", "md"])
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        run = args.keep or Path(tmp) / "run"
        if not (run / "manifest.json").exists():
            t = time.perf_counter()
            rows = generate(run, args.games)
            print(f"generated {rows:,} games in {time.perf_counter() - t:.1f} s")
        size = sum(f.stat().st_size for f in (run / "games").glob("*.parquet"))
        print(f"run: {run} ({size / 2**20:.0f} MiB of Parquet)")
        out = Path(tmp) / "report"
        res = subprocess.run([sys.executable, "-c", CHILD, str(run), str(out), args.format],
                             capture_output=True, text=True, check=False)  # fmt: skip
        if res.returncode:
            sys.exit(res.stderr)
        wall, rss_kib = res.stdout.split()
        child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        print(f"report: {float(wall):.1f} s wall (incl. imports), peak RSS "
              f"{int(rss_kib) / 2**20:.2f} GiB (child max {child / 2**20:.2f} GiB)")  # fmt: skip


if __name__ == "__main__":
    main()
