"""Do the reports' 95% intervals cover the truth 95% of the time? Coverage over many runs.

For each design of a grid (table sizes 3-6, 3-10 strategies, 2 to 500 deals per table, mixed
table sizes, a gauntlet), plays ``--runs`` independent tournaments (seeds ``seed + i``), takes
every strategy's 95% win-rate interval from ``reports.summary`` and every paired difference's
from ``reports.significance`` (the gauntlet: ``reports.gauntlet``), and counts how often each
covers the truth, estimated by pooling the *other* runs (leave one out, so a run is never
judged against itself). One line per design: the coverage of win rates and of differences with
a 95% interval for that coverage, the mean stated half-width against the sd of the estimates
across runs (the precision a run really has), and how many intervals the run was too small to
state. Calibrated intervals cover 93-97% at every design size.

``--designs`` compares the default design (each table its own deals) with the shared deals of
earlier versions (every table of a size dealt the same cards) on the same budget.

``--variants`` does the same for ``leaves variants``' comparison of rule sets: each run plays
a field under today's rules and under one variant from the same seed (so paired by duplicate
set, as the command does), and the coverage of every measure's interval (length, seat edges,
skill spread, best against random, closeness, unfinished) and of every difference's interval
is counted against the other runs pooled; the line ends with the measure covered least. The
designers' measures are part of it: every game of a run is replayed turn by turn (lead
changes, drama, wins from behind, when the game is decided), ``--restricted`` games per
restriction play the restricted weighted, and the skill ladder's steps are measured; a
second line per design gives their coverage alone. Then every measure (per rule set) whose own
coverage lies outside 93-97%, with the binomial p-value of its count against 95% and Holm's
over the design's measures: with 400 runs one measure's coverage has an sd of 1.1 points, so a
few of some 40 calibrated measures fall outside by chance. ``--save DIR`` pickles each
design's runs (``--chunk N``: every N runs, so a run cut short keeps what it played).

    python benchmarks/bench_calibration.py                  # the grid, 200 runs a design
    python benchmarks/bench_calibration.py --runs 60 --only readme,default
    python benchmarks/bench_calibration.py --designs --runs 12
    python benchmarks/bench_calibration.py --variants       # the rule-variant comparison
    python benchmarks/bench_calibration.py --variants --runs 400 --only take=ends --chunk 20 \
        --save runs/cal                                      # one design, kept as it goes
"""

from __future__ import annotations

import argparse
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from joblib import Parallel, delayed

import reports
from reports.numbers import PERCENTAGE_POINTS, PP, PP_MEANS
from reports.stats import wilson
from tournaments import Gauntlet, Tournament
from tournaments.schedule import Schedule

BUILTINS = ["random", "low", "high", "minimal", "greedy", "patient", "blocker", "counter",
            "taker", "weighted"]  # fmt: skip
FIVE = ["weighted", "taker", "counter", "high", "low"]


@dataclass(frozen=True)
class Design:
    """One row of the grid: who plays, at which table sizes, how many deals per table."""

    name: str
    strategies: tuple[str, ...]
    players: str
    deals: int
    gauntlet: bool = False
    runs: float = 1.0  # share of --runs (the largest designs run fewer)


GRID = [
    Design("3p x 3 strategies, 2 deals", tuple(FIVE[:3]), "3", 2),
    Design("3p x 3 strategies, 6 deals", tuple(FIVE[:3]), "3", 6),
    Design("3p x 3 strategies, 20 deals", tuple(FIVE[:3]), "3", 20),
    Design("3p x 3 strategies, 500 deals", tuple(FIVE[:3]), "3", 500),
    Design("4p x 5 strategies, 2 deals", tuple(FIVE), "4", 2),
    Design("4p x 5 strategies, 50 deals", tuple(FIVE), "4", 50),
    Design("5p x 6 strategies, 10 deals", tuple(FIVE + ["minimal"]), "5", 10),
    Design("6p x 8 strategies, 2 deals", tuple(BUILTINS[2:]), "6", 2),
    Design("3-5p x 6 strategies, 4 deals", tuple(FIVE + ["greedy"]), "3,4,5", 4),
    Design("readme: 4p x 10 built-ins, 20,000 games", tuple(BUILTINS), "4", 4),
    Design("default: 4p x 10 built-ins, 201,600 games", tuple(BUILTINS), "4", 40, runs=0.25),
    Design(
        "gauntlet counter vs taker, 3 x weighted, 20 deals",
        ("counter", "taker", "weighted"),
        "4",
        20,
        gauntlet=True,
    ),  # fmt: skip
]


VARIANT_GRID = [
    Design("variants: 3p x 3 strategies, 6 deals, hand_size=9", ("weighted", "low", "random"),
           "3", 6),
    Design("variants: 3p x 3 strategies, 40 deals, take=ends", ("weighted", "low", "random"),
           "3", 40),
    Design("variants: 4p x 5 strategies, 4 deals, min_count=off",
           ("weighted", "taker", "low", "high", "random"), "4", 4),
]  # fmt: skip
"""The rule-variant designs: the variant is the text after the last comma of the name."""


def _tournament(d: Design, seed: int, shared: bool = False) -> Tournament:
    if d.gauntlet:
        strategy, baseline, *field = d.strategies
        t = Gauntlet(strategy, field, baseline, players=int(d.players), games=1, seed=seed)
        per = t.schedule.seats_per_set // 2
        return Gauntlet(strategy, field, baseline, players=int(d.players), games=d.deals * per,
                        seed=seed)  # fmt: skip
    t = Tournament(list(d.strategies), players=d.players, games=1, seed=seed)
    t = Tournament(list(d.strategies), players=d.players,
                   games=d.deals * t.schedule.seats_per_set, seed=seed)  # fmt: skip
    if shared:  # every table of a size dealt the same cards, as before each table had its own
        s = t.schedule
        streams = [len(table) for table in t.tables]
        t.schedule = Schedule(s.tables, s.n_games, s.chunk_games, s.set_sizes, streams)
    return t


def one_run(d: Design, seed: int, shared: bool = False) -> dict:
    """Play one run of ``d`` and return its rates and differences with their intervals."""
    t = _tournament(d, seed, shared)
    with tempfile.TemporaryDirectory(prefix="leaves-calibration-") as tmp:
        res = t.run(n_jobs=1, out=Path(tmp) / "run")
        run = reports.load_run(res.out)
    g = run.games
    s = reports.summary(g).set_index("strategy").reindex(sorted(g.labels))
    out = {
        "games": t.n_games,
        "units": int(s["deal_sets"].max()),
        "rate": (s["wins"].to_numpy(float), s["seats"].to_numpy(float)),
        "rate_ci": (s["ci_low"].to_numpy(), s["ci_high"].to_numpy()),
    }
    if d.gauntlet:
        row = reports.gauntlet(run).iloc[0]
        diff = np.array([row["diff"]])
        lo, hi = np.array([row["diff_ci_low"]]), np.array([row["diff_ci_high"]])
    else:
        sig = reports.significance(g, order=sorted(g.labels)).sort_values(["a", "b"])
        diff, lo, hi = (sig[c].to_numpy() for c in ("diff", "ci_low", "ci_high"))
    out["diff"], out["diff_ci"] = diff, (lo, hi)
    return out


def _coverage(est: np.ndarray, lo: np.ndarray, hi: np.ndarray, truth: np.ndarray) -> tuple:
    """(covered, stated, mean half-width, sd of the estimates over runs) over runs x groups."""
    stated = np.isfinite(lo) & np.isfinite(hi)
    covered = stated & (lo <= truth) & (truth <= hi)
    half = np.nanmean(np.where(stated, (hi - lo) / 2, np.nan)) if stated.any() else np.nan
    sd = float(np.nanmean(est.std(axis=0, ddof=1))) if len(est) > 1 else np.nan
    return int(covered.sum()), int(stated.sum()), int(stated.size), half, sd


def _leave_one_out(total: np.ndarray, per_run: np.ndarray) -> np.ndarray:
    return (total[None, :] - per_run) / (len(per_run) - 1)


def measure(d: Design, runs: int, seed: int, jobs: int, shared: bool = False) -> dict:
    """Coverage of ``d``'s win-rate and difference intervals over ``runs`` runs."""
    res = Parallel(n_jobs=jobs)(delayed(one_run)(d, seed + i, shared) for i in range(runs))
    wins = np.stack([r["rate"][0] for r in res])
    games = np.stack([r["rate"][1] for r in res])
    rate = wins / games
    truth = (wins.sum(0)[None, :] - wins) / (games.sum(0)[None, :] - games)
    lo, hi = (np.stack([r["rate_ci"][i] for r in res]) for i in range(2))
    diff = np.stack([r["diff"] for r in res])
    d_truth = _leave_one_out(diff.sum(0), diff)
    d_lo, d_hi = (np.stack([r["diff_ci"][i] for r in res]) for i in range(2))
    return {
        "games": res[0]["games"],
        "units": res[0]["units"],
        "rates": _coverage(rate, lo, hi, truth),
        "diffs": _coverage(diff, d_lo, d_hi, d_truth),
    }


def one_variant_run(d: Design, seed: int, restricted: int = 60) -> dict:
    """Play ``d`` under today's rules and its variant from one seed and return every
    measure and difference of the comparison with its interval, keyed by measure."""
    from leaves.plugin import LeavesGame
    from reports.variants import variant_tables

    rules = d.name.rsplit(", ", 1)[1]
    probe = Tournament(list(d.strategies), players=d.players, games=1, seed=seed)
    games = d.deals * probe.schedule.seats_per_set
    from leaves.commands.variants_designer import replay_designer

    runs = []
    who = "weighted" if "weighted" in d.strategies else None
    with tempfile.TemporaryDirectory(prefix="leaves-calibration-") as tmp:
        for label, text in (("default", None), (rules, rules)):
            t = Tournament(list(d.strategies), players=d.players, games=games, seed=seed,
                           game=LeavesGame(rules=text))  # fmt: skip
            res = t.run(n_jobs=1, out=Path(tmp) / label)
            replay_designer(t, t.game.rules, Path(res.out), (games, restricted), who)
            runs.append((label, reports.load_run(res.out)))
        tables, _ = variant_tables(runs)
    key = ["rules", "metric", "n_players", "position"]
    m = tables["variants_metrics"].sort_values(key)
    f = tables["variants_differences"].sort_values(key)
    return {
        "games": games,
        "units": int(m["deal_sets"].max()),
        "metrics": dict(_keyed(r, key, "value") for r in m.to_dict("records")),
        "diffs": dict(_keyed(r, key, "diff") for r in f.to_dict("records")),
    }


def _keyed(r: dict, key: list[str], value: str) -> tuple[tuple, tuple]:
    """A measure's key and (estimate, ci_low, ci_high). A ladder step is keyed by the pair it
    compares, oriented alphabetically, not by its position: each run orders the ladder by its
    own default run's win rates, so close strategies swap places from run to run, and pooling
    a position would pool different comparisons (a truth no run estimates)."""
    got = (r[value], r["ci_low"], r["ci_high"])
    if r["metric"] != "ladder_step":
        return tuple(r[k] for k in key), got
    upper, lower = str(r["detail"]).split(" - ")
    pair = " - ".join(sorted((upper, lower)))
    if upper > lower:  # the step as the pair's difference the other way round
        got = (-r[value], -r["ci_high"], -r["ci_low"])
    return (r["rules"], "ladder_step", "all", pair), got


DESIGNER = ("lead_changes", "drama", "comeback", "decided_at", "ladder_step")
"""The designers' measures (and every ``restricted_<name>``)."""


def _designer(key: tuple) -> bool:
    return key[1] in DESIGNER or str(key[1]).startswith("restricted_")


def _keyed_coverage(res: list[dict], what: str, designer: bool = False) -> str:
    """Coverage over runs x the measures every run has that vary, the median ratio of a measure's mean
    stated half-width to the sd of its estimate across runs (1.96 when the intervals are as
    wide as the runs vary), and the measure covered least; ``designer``: the designers'
    measures alone."""
    keys = sorted(set.intersection(*(set(r[what]) for r in res)), key=str)
    keys = [k for k in keys if _designer(k)] if designer else keys
    est, lo, hi = (np.array([[r[what][k][i] for k in keys] for r in res], float)
                   for i in range(3))  # fmt: skip
    varies = np.nanstd(est, axis=0) > 0  # a measure no run moves (no game unfinished) cannot miss
    est, lo, hi = est[:, varies], lo[:, varies], hi[:, varies]
    keys = [k for k, v in zip(keys, varies, strict=True) if v]
    truth = _leave_one_out(np.nansum(est, axis=0), np.nan_to_num(est))
    stated = np.isfinite(lo) & np.isfinite(hi)
    covered = stated & (lo <= truth) & (truth <= hi)
    if not stated.any():
        return f"{'too small: no interval stated':>30} {'':>6}"
    c_lo, c_hi = wilson(np.array([covered.sum()]), np.array([stated.sum()]))
    half = np.nanmean(np.where(stated, (hi - lo) / 2, np.nan), axis=0)
    sd = est.std(axis=0, ddof=1)
    ratio = float(np.nanmedian(np.where(sd > 0, half / np.where(sd > 0, sd, 1), np.nan)))
    rate = covered.sum(0) / np.maximum(stated.sum(0), 1)
    w = int(np.argmin(np.where(stated.sum(0) > 0, rate, 2)))
    where = _where(keys[w])
    text = f"{covered.sum() / stated.sum():6.1%} [{c_lo[0]:.1%}, {c_hi[0]:.1%}]"
    return f"{text:>24} {ratio:4.2f}  {where + f' {rate[w]:.0%}':<22}"


def _where(key: tuple) -> str:
    """A measure's name as the lines print it: metric, table size, position."""
    _, metric, n, pos = key
    where = "" if pos == -1 else f" +{pos}" if isinstance(pos, int | np.integer) else f" {pos}"
    return metric + ("" if str(n) == "all" else f" {n}p") + where


def _outside(res: list[dict], what: str) -> list[str]:
    """The measures whose own coverage lies outside 93-97%, each with its runs and the
    two-sided binomial p-value of its count against 95% (Holm's over the design's measures):
    with 400 runs one measure's coverage has an sd of 1.1 points, so among 40 calibrated
    measures one or two fall outside by chance, with a large p."""
    from scipy.stats import binomtest

    from reports.stats import holm

    keys = sorted(set.intersection(*(set(r[what]) for r in res)), key=str)
    rows = []
    for k in keys:
        est = np.array([r[what][k][0] for r in res], float)
        lo = np.array([r[what][k][1] for r in res], float)
        hi = np.array([r[what][k][2] for r in res], float)
        if not np.nanstd(est) > 0:
            continue
        truth = (np.nansum(est) - np.nan_to_num(est)) / (len(est) - 1)
        stated = np.isfinite(lo) & np.isfinite(hi)
        n, c = int(stated.sum()), int((stated & (lo <= truth) & (truth <= hi)).sum())
        if n:
            rows.append((k, c, n, binomtest(c, n, 0.95).pvalue))
    p_holm = holm(np.array([r[3] for r in rows])) if rows else []
    return [f"    {what} {k[0]}: {_where(k)}: {c}/{n} = {c / n:.1%} (p {p:.3f}, Holm {h:.2f})"
            for (k, c, n, p), h in zip(rows, p_holm, strict=True)
            if not 0.93 <= c / n <= 0.97]  # fmt: skip


def _variant_runs(d: Design, args: argparse.Namespace) -> list[dict]:
    """``args.runs`` runs of ``d``, played ``args.chunk`` at a time; with ``--save`` each
    chunk's results are pickled as they come (a run cut short keeps what it played)."""
    import pickle

    res: list[dict] = []
    step = args.chunk or args.runs
    for start in range(0, args.runs, step):
        seeds = range(args.seed + start, args.seed + min(start + step, args.runs))
        res += Parallel(n_jobs=args.jobs)(
            delayed(one_variant_run)(d, s, args.restricted) for s in seeds
        )
        if args.save:
            Path(args.save).mkdir(parents=True, exist_ok=True)
            name = d.name.split(", ")[-1].replace("=", "-")
            (Path(args.save) / f"{name}.pkl").write_bytes(pickle.dumps(res))
    return res


def variants(args: argparse.Namespace) -> None:
    """Coverage of ``leaves variants``' measures and differences, one line per design."""
    print(f"{args.runs} runs a design, seeds from {args.seed}; coverage of the truth (the other "
          "runs pooled) by the 95% intervals, the median of the mean stated half-width / the "
          "sd across runs (1.96 for intervals as wide as the runs vary), and the measure "
          "covered least")  # fmt: skip
    print(f"{'design':<52} {'games':>6} {'sets':>5} {'measures':>24} {'hw/sd':>5}  "
          f"{'least':<22} {'differences':>24} {'hw/sd':>5}  {'least':<22}")  # fmt: skip
    only = [s.strip() for s in args.only.split(",")] if args.only else None
    for d in VARIANT_GRID:
        if only and not any(o in d.name for o in only):
            continue
        t0 = time.perf_counter()
        res = _variant_runs(d, args)
        print(f"{d.name:<52} {res[0]['games']:>6,} {res[0]['units']:>5} "
              f"{_keyed_coverage(res, 'metrics')} {_keyed_coverage(res, 'diffs')} "
              f"({args.runs} runs, {time.perf_counter() - t0:.0f} s)", flush=True)  # fmt: skip
        print(f"{'  of which the designers measures':<52} {'':>6} {'':>5} "
              f"{_keyed_coverage(res, 'metrics', True)} {_keyed_coverage(res, 'diffs', True)}",
              flush=True)  # fmt: skip
        for line in _outside(res, "metrics") + _outside(res, "diffs"):
            print(line, flush=True)


def _cov_text(c: tuple) -> str:
    covered, stated, total, half, sd = c
    if not stated:
        return f"{'too small: no interval stated':>30} {'':>6}"
    lo, hi = wilson(np.array([covered]), np.array([stated]))
    text = f"{covered / stated:6.1%} [{lo[0]:.1%}, {hi[0]:.1%}]"
    if stated < total:
        text += f" ({total - stated} unstated)"
    return f"{text:>30} {100 * half:5.2f}/{100 * sd:4.2f}"


def grid(args: argparse.Namespace) -> None:
    only = [s.strip() for s in args.only.split(",")] if args.only else None
    print(f"{args.runs} runs a design (fewer for the largest), seeds from {args.seed}; "
          "coverage of the truth (the other runs pooled) by the 95% intervals, then the mean "
          f"stated half-width / the sd of the estimate across runs, in {PERCENTAGE_POINTS}")  # fmt: skip
    print(f"{'design':<52} {'games':>8} {'sets':>5} {'win rates':>30} {'hw/sd':>10} "
          f"{'paired differences':>30} {'hw/sd':>10}")  # fmt: skip
    for d in GRID:
        if only and not any(o in d.name for o in only):
            continue
        t0 = time.perf_counter()
        runs = max(20, int(args.runs * d.runs))
        m = measure(d, runs, args.seed, args.jobs)
        print(f"{d.name:<52} {m['games']:>8,} {m['units']:>5} {_cov_text(m['rates'])} "
              f"{_cov_text(m['diffs'])}   ({runs} runs, {time.perf_counter() - t0:.0f} s)",
              flush=True)  # fmt: skip


def designs(args: argparse.Namespace) -> None:
    """Own deals per table against shared deals per table size, on the same budget."""
    d = next(d for d in GRID if d.name.startswith("readme"))  # 10 built-ins, 20,160 games
    print(f"{d.name}: {args.runs} runs each (seeds from {args.seed}), same games ({PP_MEANS})")
    print(f"{'deals':<26} {'sd of win rates':>16} {'stated half-width':>18} {'coverage':>10} "
          f"{'sd of paired diffs':>19}")  # fmt: skip
    for shared, label in ((False, "each table its own"), (True, "shared by table size")):
        m = measure(d, args.runs, args.seed, args.jobs, shared)
        covered, stated, _, half, sd = m["rates"]
        print(f"{label:<26} {100 * sd:>13.2f} {PP} {100 * half:>15.2f} {PP} "
              f"{covered / max(stated, 1):>10.1%} {100 * m['diffs'][4]:>16.2f} {PP}")  # fmt: skip


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=200, help="runs per design")
    ap.add_argument("--seed", type=int, default=10_000, help="run i uses seed + i")
    ap.add_argument("--jobs", type=int, default=2, help="runs played at once")
    ap.add_argument("--only", default="", help="designs whose name contains one of these")
    ap.add_argument("--designs", action="store_true", help="own against shared deals instead")
    ap.add_argument("--variants", action="store_true", help="the rule-variant comparison")
    ap.add_argument("--restricted", type=int, default=60,
                    help="--variants: games per restriction for restricted play (0: none)")  # fmt: skip
    ap.add_argument("--chunk", type=int, default=0,
                    help="--variants: runs played (and saved) at a time (0: all at once)")  # fmt: skip
    ap.add_argument("--save", default="",
                    help="--variants: a folder to pickle each design's runs in (to analyse)")  # fmt: skip
    args = ap.parse_args()
    if args.variants:
        variants(args)
    else:
        designs(args) if args.designs else grid(args)


if __name__ == "__main__":
    main()
