"""End-to-end tournament speed, scaling and memory, through the real command line.

Runs ``leaves tournament`` in a subprocess (startup, workers, Parquet and manifest included)
and samples the resident memory of the whole process tree (driver + workers) from /proc.

    python benchmarks/bench_tournament.py                    # 1M games, --jobs 2 (the target)
    python benchmarks/bench_tournament.py --scaling          # also 1 vs 2 jobs on the same run
    python benchmarks/bench_tournament.py --flat             # --no-rows memory, 1x vs 4x games
    python benchmarks/bench_tournament.py --games 200000     # quick look
    python benchmarks/bench_tournament.py --compare          # balanced vs rotations seating
    python benchmarks/bench_tournament.py --integrity        # cost of checksums and fsync
    python benchmarks/bench_tournament.py --worker-start     # a fresh worker's start-up CPU

Targets: 1,000,000 four-player games among four heuristics with --jobs 2 in <= 3.5 s wall on
two cores (``bench_all.py`` holds the floors), 1 -> 2 jobs >= 1.8x, peak memory < 1 GB and
flat with --no-rows. The machine must be otherwise idle for the figures to mean anything (the
load average is printed).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEURISTICS = ["greedy", "low", "high", "minimal"]


def _proc_stats():
    """(pid, fields of /proc/PID/stat after the command name) of every live process."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                yield entry, f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue


def _tree_rss(session: int) -> int:
    """Summed resident memory (bytes) of every process in session ``session``."""
    total = 0
    for pid, fields in _proc_stats():
        if int(fields[3]) != session:  # field 6 of stat: session id
            continue
        try:
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1]) * 1024
        except (OSError, ValueError, IndexError):
            continue
    return total


SEATING = ["balanced"]  # --seating of every run (set from the command line)


def run(games: int, jobs: int, rows: bool = True, seed: int = 1) -> dict[str, float]:
    """One CLI run into a fresh directory: wall seconds, peak tree memory, output size."""
    out = Path(tempfile.mkdtemp(prefix="bench-tournament-")) / "run"
    cmd = [
        sys.executable, "-m", "leaves_cli", "tournament", *HEURISTICS, "--players", "4",
        "--games", str(games), "--seed", str(seed), "--jobs", str(jobs), "--out", str(out),
        "--no-progress", "--seating", SEATING[0], *([] if rows else ["--no-rows"]),
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    peak = [0]
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        cmd, cwd=ROOT, env=env, start_new_session=True,
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )  # fmt: skip

    def sample() -> None:
        while proc.poll() is None:
            peak[0] = max(peak[0], _tree_rss(proc.pid))
            time.sleep(0.1)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    _, err = proc.communicate()
    wall = time.perf_counter() - t0
    sampler.join()
    if proc.returncode != 0:
        raise SystemExit(f"tournament failed: {err.strip().splitlines()[-1:]}")
    size = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
    players = json.loads((out / "manifest.json").read_text())["sessions"][-1]["players"]
    shutil.rmtree(out.parent, ignore_errors=True)
    return {"wall": wall, "peak": peak[0], "size": size, "games": games, "players": players}


def helpers(players: dict[str, int]) -> str:
    """Who played besides the driver: "1 thread", "1 worker" or "driver only"."""
    for kind in ("threads", "workers"):
        n = players.get(kind, 0)
        if n:
            return f"{n} {kind[:-1]}{'s' if n > 1 else ''}"
    return "driver only"


def show(label: str, r: dict[str, float]) -> None:
    print(
        f"{label:<28} {r['games']:>11,} games  {r['wall']:7.1f} s  "
        f"{r['games'] / r['wall']:>9,.0f} games/s  peak {r['peak'] / 2**20:6.0f} MiB  "
        f"output {r['size'] / 2**20:6.1f} MiB  ({helpers(r['players'])})"
    )


def run_in_process(games: int, jobs: int) -> float:
    """Wall seconds of ``Tournament.run`` alone, in this (already warm) process.

    Leaves out what every command pays once whatever the number of jobs (interpreter start,
    imports, the summary print), so it isolates how well the play itself scales.
    """
    sys.path.insert(0, str(ROOT))
    from tournaments import Tournament

    out = Path(tempfile.mkdtemp(prefix="bench-tournament-")) / "run"
    t0 = time.perf_counter()
    Tournament(HEURISTICS, players=4, games=games, seed=1, seating=SEATING[0]).run(
        n_jobs=jobs, out=out
    )
    wall = time.perf_counter() - t0
    shutil.rmtree(out.parent, ignore_errors=True)
    return wall


def integrity_cost(games: int, jobs: int, repeats: int = 3) -> None:
    """What verified, durable storage costs a run, measured in this (warm) process.

    Times the driver's checksumming (``storage.file_entry``) and ``fsync`` calls during
    ``Tournament.run``, then ``verify_run`` over the finished run (what ``--resume`` adds), and
    compares whole runs with both replaced by no-ops (alternating, best of ``repeats``).
    """
    sys.path.insert(0, str(ROOT))
    from tournaments import Tournament, storage
    from tournaments.verify import verify_run

    spent = {"hash_s": 0.0, "hash_bytes": 0, "fsync_s": 0.0, "fsyncs": 0}
    real_entry, real_fsync = storage.file_entry, storage.os.fsync

    def timed_entry(data: bytes) -> list:
        t = time.perf_counter()
        try:
            return real_entry(data)
        finally:
            spent["hash_s"] += time.perf_counter() - t
            spent["hash_bytes"] += len(data)

    def timed_fsync(fd: int) -> None:
        t = time.perf_counter()
        try:
            real_fsync(fd)
        finally:
            spent["fsync_s"] += time.perf_counter() - t
            spent["fsyncs"] += 1

    def one(patch_entry, patch_fsync) -> tuple[float, float]:
        storage.file_entry, storage.os.fsync = patch_entry, patch_fsync
        out = Path(tempfile.mkdtemp(prefix="bench-integrity-")) / "run"
        try:
            t0 = time.perf_counter()
            Tournament(HEURISTICS, players=4, games=games, seed=1).run(n_jobs=jobs, out=out)
            wall = time.perf_counter() - t0
            t0 = time.perf_counter()
            ok = verify_run(out).ok
            check = time.perf_counter() - t0
            assert ok or patch_entry is not real_entry
            return wall, check
        finally:
            storage.file_entry, storage.os.fsync = real_entry, real_fsync
            shutil.rmtree(out.parent, ignore_errors=True)

    one(real_entry, real_fsync)  # warm workers, imports and numba caches
    wall, check = one(timed_entry, timed_fsync)
    print(
        f"one run of {games:,} games (--jobs {jobs}, {wall:.2f} s): checksums "
        f"{spent['hash_s'] * 1e3:.0f} ms over {spent['hash_bytes'] / 2**20:.1f} MiB, "
        f"fsync {spent['fsync_s'] * 1e3:.0f} ms in {spent['fsyncs']} calls; "
        f"leaves verify of the finished run {check * 1e3:.0f} ms"
    )
    with_, without = [], []
    for _ in range(repeats):
        with_.append(one(real_entry, real_fsync)[0])
        without.append(one(lambda data: [len(data), ""], lambda fd: None)[0])
    best_with, best_without = min(with_), min(without)
    print(
        f"Tournament.run best of {repeats}: {best_with:.2f} s with checksums and fsync, "
        f"{best_without:.2f} s without ({(best_with / best_without - 1) * 100:+.1f}%)"
    )


def _first_chunk(task) -> tuple[float, float, float]:
    """In a fresh worker: its CPU seconds once its first chunk was played, that chunk's CPU
    seconds played again (warm), and the time its first chunk ended."""
    import time as clock

    from tournaments.work import run_chunk

    run_chunk(task)  # loads the compiled loop, as a worker's first chunk does
    first, ended = clock.process_time(), clock.time()  # the process's CPU since it started
    t0 = clock.process_time()
    run_chunk(task)
    return first, clock.process_time() - t0, ended


def _worker_start_once() -> None:
    """One measurement in this fresh process, as a run starts its worker: the driver plays
    chunks while the worker (and loky's resource tracker, the first time) starts. Prints
    ``{"cpu": .., "wall": ..}``: the worker's CPU seconds and the wall seconds from asking
    for it to the end of its first (tiny) chunk."""
    sys.path.insert(0, str(ROOT))

    from joblib.externals.loky import get_reusable_executor

    from tournaments import Tournament
    from tournaments.work import run_chunk

    t = Tournament(HEURISTICS, players=4, games=24 * 40, seed=1, chunk_size=24 * 20)
    busy = next(t._tasks([1]))
    small = next(Tournament(HEURISTICS, players=4, games=24, seed=1)._tasks([0]))
    run_chunk(busy)  # this process plays already, as a driver does when workers start
    t0 = time.time()
    future = get_reusable_executor(max_workers=1).submit(_first_chunk, small)
    while not future.done():
        run_chunk(busy)
    first, again, ended = future.result()
    children = _children_cpu(os.getpid())  # the worker, loky's and multiprocessing's trackers
    print(json.dumps({"cpu": first - again, "children": children, "wall": ended - t0}))


def _children_cpu(parent: int) -> float:
    """CPU seconds (user + system) of the live child processes of ``parent`` (from /proc)."""
    total = 0
    for _, fields in _proc_stats():
        if int(fields[1]) == parent:  # field 4 of stat: the parent's id
            total += int(fields[11]) + int(fields[12])  # fields 14, 15: utime, stime
    return total / os.sysconf("SC_CLK_TCK")


def worker_start(repeats: int = 5) -> None:
    """What a fresh loky worker costs before its first game (``local.WORKER_START_S``).

    Each repeat is a fresh process that starts one worker as a run does, while it plays
    chunks itself (``_worker_start_once``): the worker's CPU seconds before its first game
    (interpreter, imports, unpickling the task, loading the compiled loop), the CPU seconds
    of every process loky started (the worker and the resource trackers a first executor
    starts: on two cores they share the core the driver leaves), and the wall seconds until
    the worker has played (on an idle machine about that CPU time).
    """
    cpu, wall, children = [], [], []
    for _ in range(repeats):
        done = subprocess.run(
            [sys.executable, __file__, "--worker-start-once"], cwd=ROOT, capture_output=True,
            text=True, check=True, env={**os.environ, "PYTHONPATH": str(ROOT)},
        )  # fmt: skip
        one = json.loads(done.stdout.strip().splitlines()[-1])
        cpu.append(one["cpu"])
        wall.append(one["wall"])
        children.append(one["children"])
    cpu.sort()
    wall.sort()
    children.sort()
    mid = len(cpu) // 2
    print(
        f"worker start-up over {repeats} fresh runs (medians): the worker's CPU "
        f"{cpu[mid]:.2f} s (min {cpu[0]:.2f}, max {cpu[-1]:.2f}); with the resource trackers "
        f"loky starts {children[mid]:.2f} s; wall from asking for it to its first game "
        f"{wall[mid]:.2f} s (min {wall[0]:.2f}, max {wall[-1]:.2f})"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1_000_000)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--scaling", action="store_true", help="also time --jobs 1")
    ap.add_argument("--flat", action="store_true", help="--no-rows memory at 1x and 4x games")
    ap.add_argument("--seating", default="balanced", help="balanced, all or rotations")
    ap.add_argument("--compare", action="store_true", help="also time --seating rotations")
    ap.add_argument(
        "--integrity", action="store_true", help="only the cost of checksums, fsync, verify"
    )
    ap.add_argument(
        "--worker-start", action="store_true", help="only what a fresh worker costs to start"
    )
    ap.add_argument("--worker-start-once", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker_start_once:
        _worker_start_once()
        return
    SEATING[0] = args.seating
    print(f"load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    if args.worker_start:
        worker_start()
        print(f"load average after: {os.getloadavg()[0]:.2f}")
        return
    if args.integrity:
        integrity_cost(args.games, args.jobs)
        print(f"load average after: {os.getloadavg()[0]:.2f}")
        return
    main_run = run(args.games, args.jobs)
    show(f"rows, --jobs {args.jobs}, {args.seating}", main_run)
    if args.compare:
        SEATING[0] = "rotations"
        show(f"rows, --jobs {args.jobs}, rotations", run(args.games, args.jobs))
        SEATING[0] = args.seating
    if args.scaling:
        single = run(args.games, 1)
        show("rows, --jobs 1", single)
        print(f"scaling 1 -> {args.jobs} jobs: {single['wall'] / main_run['wall']:.2f}x end to end")
        run_in_process(20_000, 1)  # warm this process: imports and numba cache loads
        one = min(run_in_process(args.games, 1) for _ in range(2))
        many = min(run_in_process(args.games, args.jobs) for _ in range(2))
        print(
            f"Tournament.run alone (best of 2): --jobs 1 {one:.2f} s, --jobs {args.jobs} "
            f"{many:.2f} s, scaling {one / many:.2f}x"
        )
    if args.flat:
        small = run(args.games, args.jobs, rows=False)
        show(f"no rows, --jobs {args.jobs}", small)
        big = run(4 * args.games, args.jobs, rows=False)
        show(f"no rows, --jobs {args.jobs}, 4x games", big)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
