"""Every speed figure of the project in one run, with the machine it ran on.

    python benchmarks/bench_all.py                 # all figures (about a minute on 2 cores)
    python benchmarks/bench_all.py --quick         # smaller runs, for a look (never --write)
    python benchmarks/bench_all.py --cold          # also the first run's compile (minutes)
    python benchmarks/bench_all.py --markdown      # the performance table
    python benchmarks/bench_all.py --cold --write  # ... written into docs/performance.md
    python benchmarks/bench_all.py --json          # one JSON object
    python benchmarks/bench_all.py --markdown --from FILE   # the table from a saved --json

Figures and their floors:

- a 10,000-game tournament, default ``--jobs``, end to end through the command: <= 1.0 s;
- 1,000,000 four-player games among four heuristics, ``--jobs 2``, end to end: <= 3.5 s;
- compiled random play (4 players) against the C reference engine ``ref_engine.c`` of the
  same algorithm, timed in the same run, interleaved: >= 0.5x (the C engine is compiled with
  ``cc -O2 -march=native`` when a compiler is present; its game totals must equal the
  kernels', so both play the very same games);
- per-turn cost of ``counter`` and ``weighted`` against the simple heuristics;
- ``leaves run`` (the README's main job, 201,600 games and the report) warm, and an
  ``ismcts`` decision (defaults and ``preset=fast``, one core);
- with ``--cold``: the newcomer's first ``leaves run``, in a fresh process on empty caches
  (numba's and leaves', ``LEAVES_CACHE_DIR``), right after the install, which built the C
  engine: <= 10 s; and the second ``leaves run`` straight after it.

``--write`` saves the figures in ``docs/performance.json`` and writes the tables of
``docs/performance.md`` and of the README's Speed section from them; ``tests/test_docs.py``
renders both tables from that file again, so no figure in them is typed by hand. The warm
figures are of runs through the C engine the install built (``games_loop`` says which loop
played). The C engine also measures the machine: ``machine_speed`` is its games/s over the
600,000 of the machine the floors were set on; each ``*_s`` is printed again as ``*_s_scaled``
(times ``machine_speed``), an estimate of the figure on that machine.

Times are best-of-N wall seconds (N = ``--repeats``), because a shared machine only ever
adds time; the load average is printed next to them. Figures from a busy machine are noisy:
compare ratios taken in the same run, and measure absolute figures on an idle machine.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import numpy as np

from gamekit.machine import cpu_name

ROOT = Path(__file__).resolve().parent.parent
HEURISTICS = ["greedy", "low", "high", "minimal"]
TYPED = f"`leaves tournament {' '.join(HEURISTICS)} --games {{}} --out runs/bench-{{}}`"
"""A timed tournament as typed (--games, a name), into an --out of its own as each run's is."""
C_REFERENCE_GAMES_PER_S = 600_000
"""The C engine's speed on the machine the issue's floors were set on (4 players, one core)."""
FLOORS = {
    "tournament_10k_s": ("<=", 1.0),
    "tournament_1m_jobs2_s": ("<=", 3.5),
    "random_vs_c": (">=", 0.5),
    "cold_leaves_run_s": ("<=", 10.0),
    "cold_play_prompt_s": ("<=", 3.0),
    "cold_first_hint_s": ("<=", 5.0),
    "cold_ismcts_tournament_s": ("<=", 10.0),
}


def machine() -> dict[str, Any]:
    """CPU, cores, load, versions: what the figures depend on."""
    import numba

    cpu = cpu_name() or platform.machine()
    cc = shutil.which("cc")
    cc_version = None
    if cc:
        done = subprocess.run([cc, "--version"], capture_output=True, text=True)
        cc_version = done.stdout.splitlines()[0] if done.stdout else None
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "python": platform.python_version(),
        "numpy": np.__version__,
        "numba": numba.__version__,
        "cc": cc_version,
        "bytecode_kept_for_runs": True,  # PYTHONDONTWRITEBYTECODE is dropped for the CLI runs
    }


def _cli_seconds(
    args: list[str], env: dict[str, str] | None = None, base: dict[str, str] | None = None
) -> float:
    out = Path(tempfile.mkdtemp(prefix="bench-all-"))
    cmd = [sys.executable, "-m", "leaves_cli", *args, "--out", str(out / "run")]
    # A user's Python keeps compiled bytecode; with PYTHONDONTWRITEBYTECODE set every run
    # would compile every module of the project from source again (a few tenths of a second).
    base = {k: v for k, v in (base or os.environ).items() if k != "PYTHONDONTWRITEBYTECODE"}
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, capture_output=True, env={**base, **(env or {})})
    seconds = time.perf_counter() - t0
    shutil.rmtree(out, ignore_errors=True)
    return seconds


def tournament_seconds(games: int, jobs: int | None, repeats: int) -> float:
    """Best wall time of ``leaves tournament`` (4 heuristics, 4 players) end to end."""
    args = ["tournament", *HEURISTICS, "--players", "4", "--games", str(games), "--seed", "1",
            "--no-progress"]  # fmt: skip
    if jobs is not None:
        args += ["--jobs", str(jobs)]
    _cli_seconds([*args[:5], "--games", "100", "--no-progress"])  # numba's cache is warm
    return min(_cli_seconds(args) for _ in range(repeats))


def leaves_run_seconds(repeats: int, env: dict[str, str] | None = None) -> float:
    """Best wall time of ``leaves run`` with its defaults (the tournament and the report)."""
    return min(_cli_seconds(["run"], env=env) for _ in range(repeats))


def cold_leaves_run_seconds() -> dict[str, float]:
    """The first ``leaves run`` a newcomer meets: a fresh process on empty caches (numba's,
    the built loop's), then the second one on the caches the first left behind."""
    env, cache = _fresh_caches()
    try:
        first = _cli_seconds(["run"], base=env)
        second = _cli_seconds(["run"], base=env)
        return {"cold_leaves_run_s": first, "second_leaves_run_s": second}
    finally:
        shutil.rmtree(cache, ignore_errors=True)


def _fresh_caches() -> tuple[dict[str, str], str]:
    """(environment, folder): empty caches (numba's and leaves') in a new temporary folder."""
    cache = tempfile.mkdtemp(prefix="bench-all-cache-")
    env = {k: v for k, v in os.environ.items() if k not in ("NUMBA_CACHE_DIR", "LEAVES_ENGINE")}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.update(LEAVES_CACHE_DIR=f"{cache}/leaves", XDG_CACHE_HOME=f"{cache}/xdg")
    return env, cache


def cold_first_contact() -> dict[str, float]:
    """On empty caches, each in a fresh process: the first prompt of ``leaves play`` at every
    level (the slowest is kept), the first hint at the hardest, and a 48-game tournament of
    ``ismcts`` against three heuristics, end to end."""
    import pexpect

    env, cache = _fresh_caches()
    env.update(NO_COLOR="1", TERM="dumb")
    prompt, res = r"Your move \(\? for help\): ", {}
    try:
        for level in ("easy", "medium", "hard"):
            t0 = time.perf_counter()
            child = pexpect.spawn(sys.executable, ["-m", "leaves_cli", "play", "--level", level,
                                  "--seed", "3"], env=env, encoding="utf-8", timeout=300)  # fmt: skip
            child.expect(prompt)
            res[f"cold_play_prompt_{level}_s"] = time.perf_counter() - t0
            if level == "hard":
                t0 = time.perf_counter()
                child.sendline("h")
                child.expect(r"Hint: ")
                res["cold_first_hint_s"] = time.perf_counter() - t0
            child.terminate(force=True)
        res["cold_play_prompt_s"] = max(v for k, v in res.items() if k.startswith("cold_play_"))
        res["cold_ismcts_tournament_s"] = _cli_seconds(
            ["tournament", "ismcts", "weighted", "taker", "greedy", "--games", "48",
             "--no-progress"], base=env)  # fmt: skip
        return res
    finally:
        shutil.rmtree(cache, ignore_errors=True)


ISMCTS_GAMES = 40
"""Games of each ``ismcts`` decision time (the command its table row names plays as many)."""


def ismcts_decision_ms(games: int) -> dict[str, float]:
    """Mean wall milliseconds an ``ismcts`` decision takes (defaults, ``preset=fast``), one
    core, against three ``weighted``, as ``benchmarks/bench_ismcts.py`` measures them."""
    path = ROOT / "benchmarks" / "bench_ismcts.py"
    spec = importlib.util.spec_from_file_location("bench_ismcts", path)
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    return {
        "ismcts_decision_ms": bench.decision_ms(games, {}, "weighted", seed=5),
        "ismcts_fast_decision_ms": bench.decision_ms(games, {"preset": "fast"}, "weighted", seed=5),
    }


def _compile_c() -> Path | None:
    cc = shutil.which("cc")
    if cc is None:
        return None
    exe = Path(tempfile.mkdtemp(prefix="bench-all-c-")) / "ref_engine"
    src = ROOT / "benchmarks" / "ref_engine.c"
    for flags in (["-O2", "-march=native"], ["-O2"]):
        if subprocess.run([cc, *flags, "-o", str(exe), str(src)]).returncode == 0:
            return exe
    return None


def random_play(games: int, repeats: int, players: int = 4) -> dict[str, Any]:
    """Compiled random play against the C engine, interleaved, best of ``repeats`` each.

    ``fastplay.random_games`` (bitmask table) is the figure; ``kernels.random_games`` (the
    board every policy reads) is shown beside it. Both play the same games as the C engine.
    """
    from leaves import fastplay, kernels
    from leaves.rules import HAND_SIZES, TURN_LIMIT

    hand = HAND_SIZES[players]
    fastplay.random_games(players, hand, 10, 0, TURN_LIMIT)  # load or compile
    kernels.random_games(players, hand, 10, 0, TURN_LIMIT)
    exe = _compile_c()
    best_numba = best_board = best_c = float("inf")
    totals = None
    c_totals = None
    for _ in range(repeats):
        t0 = time.perf_counter()
        turns, rounds, winners = fastplay.random_games(players, hand, games, 0, TURN_LIMIT)
        best_numba = min(best_numba, time.perf_counter() - t0)
        t0 = time.perf_counter()
        kernels.random_games(players, hand, games, 0, TURN_LIMIT)  # the board-based loop
        best_board = min(best_board, time.perf_counter() - t0)
        totals = [int(turns.sum()), int(rounds.sum()), int((winners + 1).sum())]
        if exe is not None:
            cmd = [str(exe), str(players), str(hand), str(games), "0", str(TURN_LIMIT), "1"]
            fields = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
            seconds, *rest = fields.split()
            best_c = min(best_c, float(seconds))
            c_totals = [int(x) for x in rest]
    out: dict[str, Any] = {
        "random_games_per_s": games / best_numba,
        "board_random_games_per_s": games / best_board,
        "random_turns_per_s": totals[0] / best_numba,
        "mean_turns": totals[0] / games,
    }
    if exe is not None:
        if c_totals != totals:
            raise RuntimeError(f"the C engine played other games: {c_totals} != {totals}")
        out["c_games_per_s"] = games / best_c
        out["random_vs_c"] = best_c / best_numba
    return out


def per_turn(games: int, repeats: int) -> dict[str, Any]:
    """Nanoseconds per turn of each heuristic playing all four seats (compiled loop)."""
    import strategies

    deal = np.arange(games, dtype=np.uint64) * np.uint64(7919) + np.uint64(1)
    play = deal + np.uint64(104729)
    cost = {}
    for name in ["random", *HEURISTICS, "blocker", "patient", "taker", "counter", "weighted"]:
        table = [name] * 4
        strategies.play_batch(table, deal[:10], play[:10])  # load
        best = float("inf")
        turns = 1
        for _ in range(repeats):
            t0 = time.perf_counter()
            res = strategies.play_batch(table, deal, play)
            best = min(best, time.perf_counter() - t0)
            turns = int(np.asarray(res.turns).sum())
        cost[name] = 1e9 * best / turns
    simple = float(np.mean([cost[n] for n in HEURISTICS]))
    return {
        "ns_per_turn": {k: round(v, 1) for k, v in cost.items()},
        "counter_vs_simple": cost["counter"] / simple,
        "weighted_vs_simple": cost["weighted"] / simple,
    }


def run(quick: bool, cold: bool, repeats: int) -> dict[str, Any]:
    res: dict[str, Any] = {"machine": machine()}
    from leaves.players.compiled import engine

    # runs play in the C engine the install built; else in numba's loop (say which)
    res["games_loop"] = "C engine" if engine.available() else f"numba ({engine.why_not()})"
    res.update(random_play(50_000 if quick else 200_000, repeats))
    res.update(per_turn(5_000 if quick else 20_000, repeats))
    res["tournament_10k_s"] = tournament_seconds(10_000, None, repeats)
    big = res["tournament_big_games"] = 100_000 if quick else BIG_GAMES
    res["tournament_1m_jobs2_s"] = tournament_seconds(big, 2, 1 if quick else max(1, repeats - 1))
    res["leaves_run_s"] = leaves_run_seconds(1 if quick else repeats)
    res.update(ismcts_decision_ms(4 if quick else ISMCTS_GAMES))
    if cold:
        res.update(cold_leaves_run_seconds())
        res.update(cold_first_contact())
    res["machine"]["load_average_after"] = [round(x, 2) for x in os.getloadavg()]
    if "c_games_per_s" in res:
        speed = res["c_games_per_s"] / C_REFERENCE_GAMES_PER_S
        res["machine_speed"] = speed
        for key in [k for k in res if k.endswith("_s") and k in FLOORS]:
            res[f"{key}_scaled"] = res[key] * speed
    return res


BIG_GAMES = 1_000_000  # the big tournament's, its floor's; --quick's tenth is not judged


def _big(res: dict[str, Any]) -> tuple[int, str | None]:
    """The big tournament's games and the floor key that judges it (none for fewer games)."""
    quick = "tournament_1m_jobs2_s_note" in res  # how an earlier version marked a --quick run
    games = res.get("tournament_big_games", 100_000 if quick else BIG_GAMES)
    return games, "tournament_1m_jobs2_s" if games == BIG_GAMES else None


def _floor(key: str, value: float) -> str:
    op, target = FLOORS[key]
    ok = value <= target if op == "<=" else value >= target
    return f"floor {op} {target:g}: {'met' if ok else 'NOT met'}"


def markdown(res: dict[str, Any]) -> str:
    m, (big, judged) = res["machine"], _big(res)
    rows = [
        ("10,000-game tournament, default `--jobs`, end to end", f"{res['tournament_10k_s']:.2f} s",
         "tournament_10k_s", TYPED.format(10000, "10k")),
        (f"{big:,} four-player games, four heuristics, `--jobs 2`, end to end",
         f"{res['tournament_1m_jobs2_s']:.2f} s", judged, TYPED.format(f"{big} --jobs 2", "1m")),
        ("compiled random play, 4 players, one core",
         f"{res['random_games_per_s']:,.0f} games/s ({res['random_turns_per_s'] / 1e6:.1f} M turns/s;"
         f" the board loop `kernels.random_games`: {res['board_random_games_per_s']:,.0f})",
         None, "`LEAVES_ENGINE=numba leaves bench --players 4`"),
    ]  # fmt: skip
    if "random_vs_c" in res:
        rows.append(
            ("same, against the C reference `benchmarks/ref_engine.c` (same games)",
             f"{res['random_vs_c']:.2f}x C ({res['c_games_per_s']:,.0f} games/s)",
             "random_vs_c", "`python benchmarks/bench_all.py`")
        )  # fmt: skip
    ns = res["ns_per_turn"]
    rows.append(
        ("ns per turn, all four seats one strategy",
         ", ".join(f"{k} {v:.0f}" for k, v in ns.items())
         + f" (counter {res['counter_vs_simple']:.1f}x, weighted {res['weighted_vs_simple']:.1f}x"
         " the simple heuristics)", None, "`python benchmarks/bench_all.py`")
    )  # fmt: skip
    rows += _run_rows(res)
    speed = res.get("machine_speed")
    scaled = "" if not speed else (
        f" The C reference ran at {speed:.2f}x the 600,000 games/s quoted for a C engine on the"
        " machine the floors were set on; times in brackets are scaled by that ratio, an"
        " estimate only as good as the two engines are alike (the floors are judged unscaled).")  # fmt: skip
    lines = [
        f"Measured by `python benchmarks/bench_all.py` on {m['cpu']} ({m['cores']} cores), "
        f"Python {m['python']}, numpy {m['numpy']}, numba {m['numba']}; load average "
        f"{m['load_average'][0]:.2f} before, {m['load_average_after'][0]:.2f} after.{scaled}",
        "",
        "| what | figure | floor | command |",
        "|---|---|---|---|",
    ]
    for what, figure, key, cmd in rows:
        floor = _floor(key, res[key]) if key else ""
        if key and f"{key}_scaled" in res:
            figure += f" ({res[f'{key}_scaled']:.2f} s)"
        lines.append(f"| {what} | {figure} | {floor} | {cmd} |")
    return "\n".join(lines)


def _run_rows(res: dict[str, Any]) -> list[tuple[str, str, str | None, str]]:
    """The rows of the main job and the search, shared by both tables."""
    rows = []
    if "cold_leaves_run_s" in res:
        rows += [
            ("first `leaves run` right after the install (empty caches; the install built the C "
             "engine)",
             f"{res['cold_leaves_run_s']:.1f} s", "cold_leaves_run_s",
             "`python benchmarks/bench_all.py --cold`"),
            ("second `leaves run` straight after it", f"{res['second_leaves_run_s']:.1f} s", None,
             "`python benchmarks/bench_all.py --cold`"),
        ]  # fmt: skip
    if "cold_play_prompt_s" in res:
        rows += [
            ("first prompt of `leaves play` on empty caches, slowest of the three levels",
             f"{res['cold_play_prompt_s']:.1f} s", "cold_play_prompt_s",
             "`python benchmarks/bench_all.py --cold`"),
            ("its first hint (an `ismcts` search and weighted's reasons), empty caches",
             f"{res['cold_first_hint_s']:.1f} s", "cold_first_hint_s",
             "`python benchmarks/bench_all.py --cold`"),
            ("`leaves tournament ismcts weighted taker greedy --games 48 --out runs/bench-ismcts` on "
             "empty caches",
             f"{res['cold_ismcts_tournament_s']:.1f} s", "cold_ismcts_tournament_s",
             "`python benchmarks/bench_all.py --cold`"),
        ]  # fmt: skip
    if "leaves_run_s" in res:
        rows.append(
            ("`leaves run` once its caches are warm: 201,600 games and the report",
             f"{res['leaves_run_s']:.1f} s", None, "`time leaves run --out runs/main`")
        )  # fmt: skip
    if "ismcts_decision_ms" in res:
        rows.append(
            ("`ismcts` decision (defaults) / `preset=fast`, one core, against three `weighted`",
             f"{res['ismcts_decision_ms']:.1f} ms / {res['ismcts_fast_decision_ms']:.1f} ms",
             None, f"`python benchmarks/bench_ismcts.py --games {ISMCTS_GAMES} --jobs 1 "
             "--opponent weighted --seed 5 [--preset fast]`")
        )  # fmt: skip
    return rows


def readme_table(res: dict[str, Any]) -> str:
    """The README's Speed table: the figures a user meets, from the same run."""
    random = f"{res['random_games_per_s']:,.0f} games/s"
    if "random_vs_c" in res:
        random += f" ({res['random_vs_c']:.2f}x a C engine of the same algorithm, same run)"
    rows = [
        ("compiled random play, 4 players, one core", random, None, "`LEAVES_ENGINE=numba leaves bench --players 4`"),
        (f"tournament of {_big(res)[0]:,} four-player games, four heuristics, end to end",
         f"{res['tournament_1m_jobs2_s']:.2f} s", None,
         TYPED.format(f"{_big(res)[0]} --jobs 2", "1m")),
        ("10,000-game tournament, end to end through the command",
         f"{res['tournament_10k_s']:.2f} s", None,
         TYPED.format(10000, "10k")),
        *_run_rows(res),
    ]  # fmt: skip
    m = res["machine"]
    lines = [
        f"Measured by one run of `python benchmarks/bench_all.py{' --cold' if 'cold_leaves_run_s' in res else ''}`"
        f" on {m['cpu']} ({m['cores']} cores), load average {m['load_average'][0]:.2f} before",
        "",
        "| what | figure | command |",
        "|---|---|---|",
    ]
    lines += [f"| {what} | {figure} | {cmd} |" for what, figure, _key, cmd in rows]
    return "\n".join(lines)


PAGE = ROOT / "docs" / "performance.md"
README = ROOT / "README.md"
FIGURES = ROOT / "docs" / "performance.json"
BEGIN, END = "<!-- bench_all:begin", "<!-- bench_all:end -->"


def write_page(table: str, page: Path = PAGE) -> None:
    """Put ``table`` between the page's markers, keeping the hand-written text around it (how
    the figures came about): the page's measured table is this script's output, never typed."""
    text = page.read_text()
    start, stop = text.find(BEGIN), text.find(END)
    if start < 0 or stop < start:
        raise SystemExit(f"{page} has no {BEGIN} ... {END} markers")
    head = text[: text.index("\n", start) + 1]
    page.write_text(head + table.rstrip() + "\n" + text[stop:])


def write_all(res: dict[str, Any]) -> None:
    """Save the figures and write both tables from them (``--write``)."""
    FIGURES.write_text(json.dumps(res, indent=1) + "\n")
    write_page(markdown(res), PAGE)
    write_page(readme_table(res), README)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="smaller runs")
    parser.add_argument("--cold", action="store_true", help="also time a first run's compile")
    parser.add_argument("--repeats", type=int, default=3, help="best of this many")
    parser.add_argument("--markdown", action="store_true", help="print the performance table")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--from", dest="source", help="read figures from a saved --json run")
    parser.add_argument("--write", action="store_true", help="save the figures, write both tables")
    args = parser.parse_args()
    if args.write and args.quick:
        parser.error("--write keeps a full run's figures: drop --quick")
    if args.source:
        res = json.loads(Path(args.source).read_text())
    else:
        res = run(args.quick, args.cold, max(1, args.repeats))
    if args.json:
        print(json.dumps(res, indent=1))
    elif args.write and _big(res)[1] is None:
        raise SystemExit(f"{args.source}: a --quick run's figures; --write keeps a full run's")
    elif args.write:
        write_all(res)
        print(f"wrote {FIGURES.relative_to(ROOT)} and the tables of {PAGE.relative_to(ROOT)} "
              f"and {README.name}")  # fmt: skip
    elif args.markdown:
        print(markdown(res))
    else:
        m = res["machine"]
        print(f"machine: {m['cpu']}, {m['cores']} cores, load {m['load_average']} -> "
              f"{m['load_average_after']}; Python {m['python']}, numpy {m['numpy']}, "
              f"numba {m['numba']}, cc: {m['cc']}")  # fmt: skip
        for key, value in res.items():
            if key == "machine":
                continue
            # Floors are judged on the figure measured here; a scaled figure is an estimate.
            judged = key in FLOORS and (key != "tournament_1m_jobs2_s" or _big(res)[1])
            note = f"   ({_floor(key, value)})" if judged else ""
            print(f"{key:>24}: {value:,.3f}{note}" if isinstance(value, float) else
                  f"{key:>24}: {value}")  # fmt: skip


if __name__ == "__main__":
    main()
