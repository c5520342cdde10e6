"""Answers about 13 Leaves, measured: writes ``docs/findings.md`` and its charts.

One command, fixed seeds: the same seeds give the same numbers (only the run-time line
changes). Every tournament uses duplicate deals and the runner's balanced seating, and every
rate comes with the reports' 95% interval (``reports.clusters``: the duplicate sets are the
independent units, the tables strata, t quantiles).

    python benchmarks/findings.py                        # docs/findings.md (a few minutes)
    python benchmarks/findings.py --scale 0.1 --players 4 --out quick   # a quicker look

Sections: first-player and seat advantage at 3-6 players (random play and the strongest
heuristics in self-play); the worth of the take choice (same play rule, different takes);
the best strategy per player count (round robin of the built-ins without search); the
neighbour effect (win rate by who sits directly before you); expert-variant match length and
how often a match win is shared.
"""

from __future__ import annotations

import argparse
import platform
import tempfile
import time
from pathlib import Path

import numpy as np
import pandas as pd

import reports
import strategies
from reports.clusters import clustered_rate
from reports.data import Games
from reports.numbers import (
    PERCENTAGE_POINTS,
    apart_digits,
    difference_interval,
    fixed,
    in_percentage_points,
    interval,
    pct,
)
from tournaments import Tournament, TournamentResult
from tuning.verify import compare

SEED = 20261130
INTERVALS = "every table dealt its own cards, 95% intervals that count the duplicate sets (a deal at a table) as the independent units and the tables as strata, with t quantiles (`reports.clusters`)"
PLAYER_COUNTS = (3, 4, 5, 6)
SELF_PLAY = ("random", "weighted", "taker")
TAKE_FIELD = ("counter", "high", "low", "minimal")
TAKE_PAIRS = (
    ("taker", "taker:group_weight=0.0,harm_weight=0.0,extreme_weight=0.0"),
    ("weighted", "weighted:w_take_group=0.0,w_take_harm=0.0,w_take_extreme=0.0"),
)
EXPERT_SELF_PLAY = ("random", "weighted")
GAMES = {"seats": 120_000, "take": 60_000, "round_robin": 120_000, "expert_matches": 4_000}


def _run(work: Path, name: str, jobs: int, **kw) -> TournamentResult:
    return Tournament(seed=SEED, **kw).run(n_jobs=jobs, out=work / name)


def _pct(x: float) -> str:
    return pct(x)


def _ci(lo: float, hi: float) -> str:
    """A level's 95% interval (a win rate, a share): unsigned bounds."""
    return interval(lo, hi)


def _signed(diff: float, lo: float, hi: float) -> str:
    """A difference in signed percentage points with the decimals of its interval
    (``reports.numbers.apart_digits``: never a bound clear of 0 written 0)."""
    return fixed(100 * diff, apart_digits(lo, hi), "+")


def _difference(diff: float, lo: float, hi: float, unit: bool = True) -> str:
    """A difference and its 95% interval as the reports write them, signed bounds and all
    (``reports.numbers.difference_interval``): '+11.0 percentage points [+10.5, +11.5]'
    (``unit`` false, for a table whose heading names it: '+1.30 [+0.03, +2.60]')."""
    figure = _signed(diff, lo, hi)
    span = difference_interval(lo, hi, digits=apart_digits(lo, hi))
    return f"{in_percentage_points(figure) if unit else figure} {span}"


def _md(df: pd.DataFrame) -> str:
    head = "| " + " | ".join(df.columns) + " |"
    rule = "|" + "|".join("---" for _ in df.columns) + "|"
    rows = ["| " + " | ".join(str(v) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join([head, rule, *rows])


def _clustered_seats(g: Games) -> pd.DataFrame:
    """``reports.seats`` (intervals over duplicate sets) with the deals per player count."""
    out = reports.seats(g)
    deals = pd.Series(g.deal).groupby(g.n_players).nunique()
    out["deals"] = out["n_players"].map(deals).astype(int)
    return out


def _clustered_rate(hits: np.ndarray, table: np.ndarray, deal: np.ndarray) -> tuple:
    """(lo, hi): 95% interval of the rate of ``hits`` (one per match), clustered by duplicate
    set and stratified by table as the summary's (a deterministic strategy replays a match
    identically under every seating)."""
    tables, deals = np.asarray(table, np.int64), np.asarray(deal, np.int64)
    return clustered_rate(hits, tables * (int(deals.max()) + 1) + deals, tables)


def seat_advantage(
    work: Path, charts: Path, scale: float, jobs: int, counts: tuple[int, ...]
) -> tuple[list[str], dict]:
    """Win rate by position after the first player, self-play of one strategy per table."""
    lines, head = [], {}
    for name in SELF_PLAY:
        res = _run(work, f"seats-{name}", jobs, strategies=[name], players=counts,
                   games=max(len(counts) * 60, int(GAMES["seats"] * scale)))  # fmt: skip
        seats = _clustered_seats(reports.as_games(reports.load_run(res.out)))
        fig = reports.charts.seat_advantage(seats)
        fig.axes[0].set_title(f"Seat advantage, every seat {name}")
        fig.savefig(charts / f"seats_{name}.png")
        table = pd.DataFrame(
            {
                "players": seats["n_players"],
                "position": ["first" if p == 0 else f"+{p}" for p in seats["position"]],
                "win rate": [_pct(r) for r in seats["win_rate"]],
                "95% CI": [
                    _ci(a, b) for a, b in zip(seats["ci_low"], seats["ci_high"], strict=True)
                ],
                "fair": [_pct(f) for f in seats["fair"]],
                "games": seats["games"],
                "deals": seats["deals"],
            }
        )
        first = seats[seats["position"] == 0].set_index("n_players")
        head[name] = first
        lines += [f"### Every seat `{name}`", "", _md(table), "",
                  f"![seat advantage, {name}](findings/seats_{name}.png)", ""]  # fmt: skip
    return lines, head


def take_worth(work: Path, scale: float, jobs: int) -> tuple[list[str], list[dict]]:
    """Same play rule, smart takes vs taking the lowest value, against one field, paired."""
    rows = []
    games = max(96, int(GAMES["take"] * scale))
    for smart, plain in TAKE_PAIRS:
        runs = []
        for arm in (smart, plain):
            res = Tournament([arm, *TAKE_FIELD], players=4, games=games, seed=SEED, focus=arm)
            runs.append(
                (arm, strategies.get(arm).label, res.run(n_jobs=jobs, out=work / f"take-{arm}"))
            )
        v = compare(runs[0], runs[1], SEED)
        rows.append(
            {
                "play rule": f"`{smart}`",
                "smart take": f"{_pct(v.tuned.win_rate)} {_ci(v.tuned.ci_low, v.tuned.ci_high)}",
                "lowest-value take": f"{_pct(v.start.win_rate)} {_ci(v.start.ci_low, v.start.ci_high)}",
                "difference (paired)": _difference(v.diff, v.diff_low, v.diff_high),
                "games each": f"{v.tuned.games:,}",
                "_figure": _signed(v.diff, v.diff_low, v.diff_high),
            }
        )
    df = pd.DataFrame(rows)
    lines = [
        "Each play rule is measured twice against the same field "
        f"({', '.join(f'`{f}`' for f in TAKE_FIELD)}; 4 players, one seat ours, same deals "
        "and seatings): once with its own take rule, once taking the lowest value it may "
        "(all take weights 0). The difference is paired deal by deal.",
        "",
        _md(df.drop(columns="_figure")),
        "",
    ]
    return lines, rows


def round_robin(
    work: Path, charts: Path, scale: float, jobs: int, counts: tuple[int, ...]
) -> tuple[list[str], dict, Path]:
    """Every built-in without search, round robin at each player count: the field of
    ``leaves run`` (``builtin_heuristics``), never an installed entry point's strategy (the
    outside-agent adapter would sit at the tables on the slow path and skew every figure)."""
    from leaves.commands.run import builtin_heuristics

    names = builtin_heuristics()
    lines, best, runs = [], {}, {}
    for k in counts:
        res = _run(work, f"rr-{k}", jobs, strategies=names, players=k,
                   games=max(1, int(GAMES["round_robin"] * scale)))  # fmt: skip
        runs[k] = res.out
        summ = reports.summary(reports.load_run(res.out))
        fig = reports.charts.win_rates(summ)
        fig.axes[0].set_title(f"Round robin, {k} players")
        fig.savefig(charts / f"round_robin_{k}.png")
        top = summ.iloc[0]
        best[k] = top
        table = pd.DataFrame(
            {
                "strategy": [f"`{s}`" for s in summ["strategy"]],
                "win rate": [_pct(r) for r in summ["win_rate"]],
                "95% CI": [_ci(a, b) for a, b in zip(summ["ci_low"], summ["ci_high"], strict=True)],
                "games": summ["games"],
            }
        )
        lines += [f"### {k} players ({int(res.spec['n_games']):,} games)", "", _md(table), "",
                  f"![round robin, {k} players](findings/round_robin_{k}.png)", ""]  # fmt: skip
    summary = pd.DataFrame(
        {
            "players": list(best),
            "best": [f"`{b['strategy']}`" for b in best.values()],
            "win rate": [_pct(b["win_rate"]) for b in best.values()],
            "95% CI": [_ci(b["ci_low"], b["ci_high"]) for b in best.values()],
            "fair share": [_pct(1 / k) for k in best],
        }
    )
    return ["Best per player count:", "", _md(summary), "", *lines], best, runs


def neighbours(run_dir: Path, k: int, top: int = 5) -> tuple[list[str], pd.DataFrame]:
    """Win rate of each strategy by the strategy seated directly before it (``k`` players),
    with the reports' intervals (``reports.neighbours``), then the seat alone: that win rate
    minus the one with the same strategy elsewhere at the table, within the same deals."""
    run = reports.load_run(run_dir)
    order = [s for s in reports.summary(run)["strategy"] if s != "random"][:top]
    nb = reports.neighbours(run).set_index(["strategy", "before"])
    rows, effects = [], []
    for me in order:
        cells = {"strategy": f"`{me}`"}
        seat = {"strategy": f"`{me}`"}
        for before in order:
            col = f"after `{before}`"
            if before == me or (me, before) not in nb.index:
                cells[col] = seat[col] = "-"
                continue
            r = nb.loc[(me, before)]
            cells[col] = f"{_pct(r['win_rate'])} {_ci(r['ci_low'], r['ci_high'])}"
            seat[col] = _difference(r["vs_elsewhere"], r["vs_elsewhere_low"],
                                    r["vs_elsewhere_high"], unit=False)  # fmt: skip
        rows.append(cells)
        effects.append(seat)
    df = pd.DataFrame(rows)
    lines = [
        f"The {top} strongest heuristics of the {k}-player round robin: row = the strategy, "
        "column = who sits directly before it (and so leaves it the ends it must answer); "
        "win rates with 95% intervals (as in the reports), over the games "
        "where that pair sat so.",
        "",
        _md(df),
        "",
        "These rates also say who shares the table: the round robin has more strategies than "
        "seats, so a row is higher after a weak strategy partly because that strategy is at "
        "the table at all. The seat alone: the same win rate minus the win rate with that "
        f"strategy at another seat of the table, within the same deals ({PERCENTAGE_POINTS}, 95% "
        "interval; "
        "`reports.neighbours`' `vs_elsewhere`):",
        "",
        _md(pd.DataFrame(effects)),
        "",
    ]
    return lines, df


def expert(work: Path, scale: float, jobs: int, counts: tuple[int, ...]) -> tuple[list[str], dict]:
    """Match length and shared match wins in the expert variant, self-play at 3-6 players."""
    rows, shared = [], {}
    for name in EXPERT_SELF_PLAY:
        res = _run(work, f"expert-{name}", jobs, strategies=[name], players=counts,
                   expert=True, games=max(len(counts) * 60,
                                          int(GAMES["expert_matches"] * scale)))  # fmt: skip
        m = res.matches(["n_players", "table", "deal", "games", "match_winners"])
        m["n_winners"] = m["match_winners"].map(len)
        for k, g in m.groupby("n_players"):
            n = len(g)
            shared_win = (g["n_winners"] > 1).to_numpy()
            s = int(shared_win.sum())
            lo, hi = _clustered_rate(shared_win, g["table"].to_numpy(), g["deal"].to_numpy())
            rows.append(
                {
                    "every seat": f"`{name}`",
                    "players": int(k),
                    "matches": n,
                    "games per match (mean)": f"{g['games'].mean():.2f}",
                    "median": f"{g['games'].median():.0f}",
                    "10-90%": f"{g['games'].quantile(0.1):.0f}-{g['games'].quantile(0.9):.0f}",
                    "match win shared": f"{_pct(s / n)} {_ci(lo, hi)}",
                }
            )
            shared[(name, int(k))] = (s / n, float(g["games"].mean()))
    lines = [
        "Matches to 20 points (a shared lowest total is a shared win, rule X1), every seat "
        "played by one strategy (intervals over duplicate sets: `weighted` replays a match "
        "identically under every seating of its deals):",
        "",
        _md(pd.DataFrame(rows)),
        "",
    ]
    return lines, shared


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scale", type=float, default=1.0, help="multiply every game count")
    ap.add_argument(
        "--jobs",
        type=int,
        default=2,
        help="players: this process and J - 1 threads or worker processes",
    )
    ap.add_argument("--out", type=Path, default=Path("docs"), help="folder for findings.md")
    ap.add_argument(
        "--players", default=",".join(map(str, PLAYER_COUNTS)), help="player counts to measure"
    )
    args = ap.parse_args()
    counts = tuple(sorted({int(k) for k in args.players.split(",")}))
    focus_k = 4 if 4 in counts else counts[0]  # the player count of the headlines
    t0 = time.perf_counter()
    out = args.out
    charts = out / "findings"
    charts.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="leaves-findings-") as tmp:
        work = Path(tmp)
        seat_lines, first = seat_advantage(work, charts, args.scale, args.jobs, counts)
        take_lines, takes = take_worth(work, args.scale, args.jobs)
        rr_lines, best, runs = round_robin(work, charts, args.scale, args.jobs, counts)
        nb_lines, _ = neighbours(runs[focus_k], focus_k)
        ex_lines, _ = expert(work, args.scale, args.jobs, counts)
        specs = [TournamentResult(p).spec for p in work.iterdir()]
        games = sum(int(s["n_games"]) for s in specs if not s["expert"])
    wall = time.perf_counter() - t0
    w4 = first["weighted"].loc[focus_k]
    r4 = first["random"].loc[focus_k]
    take_worth_taker = in_percentage_points(takes[0]["_figure"])  # as the table writes it
    headline = [
        f"- Going first at {focus_k} players: {_pct(r4['win_rate'])} "
        f"{_ci(r4['ci_low'], r4['ci_high'])} under random play and {_pct(w4['win_rate'])} "
        f"{_ci(w4['ci_low'], w4['ci_high'])} when every seat plays `weighted` (fair share "
        f"{_pct(1 / focus_k)}).",
        f"- A smart take is worth {take_worth_taker} of win rate to `taker` "
        f"and {takes[1]['_figure']} to `weighted` (same play rule, 4 players).",
        "- Best at each player count: "
        + ", ".join(f"{k}: `{b['strategy']}` {_pct(b['win_rate'])}" for k, b in best.items())
        + ".",
    ]
    doc = [
        "# Findings about 13 Leaves",
        "",
        "Generated by `python benchmarks/findings.py` (seed "
        f"{SEED}, scale {args.scale:g}, players {args.players}); the same command gives the same "
        "numbers. Duplicate "
        "deals, balanced seating, " + INTERVALS + ".",
        "",
        f"Run time: {wall:.0f} s for {games:,} games plus the expert matches, "
        f"--jobs {args.jobs}, Python {platform.python_version()}.",
        "",
        "## Headlines",
        "",
        *headline,
        "",
        "## First-player and seat advantage",
        "",
        "Win rate by seat position counted clockwise from the player who leads the first "
        "round, when every seat plays the same strategy (so only the seat differs). A "
        "deterministic strategy (`weighted`, `taker`) in self-play plays the very same game "
        "under every seating of a deal, so its distinct games are the deals; the intervals count "
        "them so (as in the reports' summary).",
        "",
        *seat_lines,
        "## The worth of the take choice",
        "",
        *take_lines,
        "## The best strategy per player count",
        "",
        *rr_lines,
        "## Whom do you want to sit after? The neighbour effect",
        "",
        *nb_lines,
        "## Expert variant: match length and shared wins",
        "",
        *ex_lines,
    ]
    text = "\n".join(doc).rstrip() + "\n"
    (out / "findings.md").write_text(text)
    print(f"wrote {out / 'findings.md'} in {wall:.0f} s")


if __name__ == "__main__":
    main()
