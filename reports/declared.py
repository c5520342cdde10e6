"""The report of a run whose game is not 13 Leaves, read only from the game's declaration.

The manifest keeps what the game declared (``tournaments.game.declaration``): its per-seat
columns, the rank column and whether higher or lower is better, whether tied players share a
win, its per-game columns. Everything here follows that: mean rank value per round with 95%
intervals, round win rates (shared wins counted for each winner, and split), match win rates
and games per match, per-game columns by table size (for Ligretto: the share of rounds ended
by blockade), the rank value by strategy and speed, and head to head in the declared direction.
"""

from __future__ import annotations

import json
import re
import time
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
from matplotlib.figure import Figure
from matplotlib.ticker import PercentFormatter

from . import charts
from .data import ReportError
from .stats import Z95, wilson

__all__ = [
    "build_declared_report",
    "load_long",
    "rank_table",
    "speed_table",
    "match_table",
    "game_columns_table",
    "length_table",
]

_LABEL = re.compile(r"^(?P<base>[^(]+)(?:\((?P<params>.*)\))?$")


def _parts(folder: Path) -> list[Path]:
    return sorted(p for p in folder.glob("part-*.parquet") if not p.name.startswith("."))


def load_long(run: Path, declared: dict) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(one row per seat taken: strategy, n_players, rank value, won; one row per game: its
    declared per-game columns and n_players), read column by column from the Parquet parts."""
    rank = declared["rank_value"]
    shared = bool(declared.get("shared_wins"))
    seats = int(declared["max_players"])
    game_cols = [c for c in declared.get("game_columns", [])]
    files = _parts(run / "games")
    if not files:
        raise ReportError(f"no games in {run} (expected Parquet parts under {run / 'games'})")
    long_parts, game_parts = [], []
    for f in files:
        names = set(pq.read_schema(f).names)
        want = ["n_players", "winner_seat", "forfeit"] + [c for c in game_cols if c in names]
        for s in range(seats):
            want += [c for c in (f"seat_{s}", f"{rank}_{s}", f"won_{s}") if c in names]
        table = pq.read_table(f, columns=want)
        k = table.column("n_players").to_numpy().astype(np.int64)
        winner = table.column("winner_seat").to_numpy().astype(np.int64)
        forfeit = table.column("forfeit").to_numpy(zero_copy_only=False).astype(bool)
        game_parts.append(
            pd.DataFrame(
                {"n_players": k, **{c: table.column(c).to_numpy() for c in game_cols if c in names}}
            )
        )
        for s in range(seats):
            if f"seat_{s}" not in names:
                continue
            here = k > s
            if not here.any():
                continue
            labels = table.column(f"seat_{s}").to_pandas().astype(object).to_numpy()
            value = table.column(f"{rank}_{s}").to_numpy(zero_copy_only=False)
            if shared and f"won_{s}" in names:
                won = table.column(f"won_{s}").to_numpy(zero_copy_only=False).astype(float)
                won = np.nan_to_num(won).astype(bool)
                n_won = np.zeros(len(k))
                for q in range(seats):
                    if f"won_{q}" in names:
                        col = table.column(f"won_{q}").to_numpy(zero_copy_only=False)
                        n_won += np.nan_to_num(col.astype(float))
            else:
                won = winner == s
                n_won = (winner >= 0).astype(float)
            long_parts.append(
                pd.DataFrame(
                    {
                        "strategy": labels[here],
                        "n_players": k[here],
                        "value": value[here].astype(float),
                        "won": won[here],
                        "share": np.where(won[here], 1.0 / np.maximum(n_won[here], 1), 0.0),
                        "forfeit": forfeit[here],
                    }
                )
            )
    return pd.concat(long_parts, ignore_index=True), pd.concat(game_parts, ignore_index=True)


def _mean_ci(values: pd.core.groupby.SeriesGroupBy) -> pd.DataFrame:
    agg = values.agg(["count", "mean", "std"])
    half = Z95 * agg["std"].fillna(0) / np.sqrt(agg["count"].clip(lower=1))
    return pd.DataFrame(
        {
            "seats": agg["count"],
            "mean": agg["mean"],
            "ci_low": agg["mean"] - half,
            "ci_high": agg["mean"] + half,
        }  # fmt: skip
    )


def rank_table(long: pd.DataFrame, declared: dict) -> pd.DataFrame:
    """Per strategy: seats taken, mean rank value with a 95% interval, wins (shared wins count
    for each winner) with a Wilson interval, win share (ties split), fair share; best first."""
    rank = declared["rank_value"]
    g = long.groupby("strategy", sort=True)
    df = _mean_ci(g["value"]).rename(
        columns={"mean": f"{rank}_mean", "ci_low": f"{rank}_ci_low", "ci_high": f"{rank}_ci_high"}
    )
    df["wins"] = g["won"].sum()
    df["win_rate"] = df["wins"] / df["seats"]
    low, high = wilson(df["wins"].to_numpy(), df["seats"].to_numpy())
    df["ci_low"], df["ci_high"] = low, high
    df["win_share"] = g["share"].sum() / df["seats"]
    df["fair_share"] = g["n_players"].apply(lambda k: float(np.mean(1.0 / k)))
    df["forfeits"] = g["forfeit"].sum().astype(int)
    df = df.reset_index()
    ascending = not declared.get("higher_is_better", False)
    return df.sort_values(f"{rank}_mean", ascending=ascending, kind="stable").reset_index(drop=True)


def split_label(label: str) -> tuple[str, dict[str, str]]:
    """``"stack(speed=1.1,look_ms=40)"`` -> ``("stack", {"speed": "1.1", "look_ms": "40"})``."""
    m = _LABEL.match(label)
    if not m:
        return label, {}
    params = {}
    for item in (m.group("params") or "").split(","):
        key, eq, value = item.partition("=")
        if eq:
            params[key.strip()] = value.strip()
    return m.group("base"), params


def speed_table(long: pd.DataFrame, declared: dict) -> pd.DataFrame:
    """Mean rank value by strategy (without its speed) and speed: is being faster worth more
    than playing smarter? Speed 1.0 where the label shows none."""
    rank = declared["rank_value"]
    labels = long["strategy"].unique()
    info = {lab: split_label(lab) for lab in labels}
    base = long["strategy"].map(
        lambda lab: (
            info[lab][0]
            + (
                "(" + ",".join(f"{k}={v}" for k, v in info[lab][1].items() if k != "speed") + ")"
                if any(k != "speed" for k in info[lab][1])
                else ""
            )
        )
    )
    speed = long["strategy"].map(lambda lab: float(info[lab][1].get("speed", 1.0)))
    frame = pd.DataFrame({"strategy": base, "speed": speed, "value": long["value"]})
    df = _mean_ci(frame.groupby(["strategy", "speed"])["value"]).reset_index()
    return df.rename(
        columns={"mean": f"{rank}_mean", "ci_low": f"{rank}_ci_low", "ci_high": f"{rank}_ci_high"}
    )


def match_table(run: Path, declared: dict) -> pd.DataFrame | None:
    """Per strategy: matches (games of rounds), wins (shared count for each), win rate with a
    Wilson interval, win share (ties split), mean total, mean games per match."""
    files = _parts(run / "matches")
    if not files:
        return None
    m = pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)
    seats = int(declared["max_players"])
    rows = []
    for s in range(seats):
        if f"seat_{s}" not in m:
            continue
        here = m["n_players"] > s
        if not here.any():
            continue
        sub = m[here]
        n_win = sub["match_winners"].map(len).to_numpy()
        won = sub["match_winners"].map(lambda w, s=s: s in list(w)).to_numpy()
        rows.append(
            pd.DataFrame(
                {
                    "strategy": sub[f"seat_{s}"].astype(str).to_numpy(),
                    "won": won,
                    "share": np.where(won, 1.0 / np.maximum(n_win, 1), 0.0),
                    "total": sub[f"total_{s}"].to_numpy(dtype=float),
                    "games": sub["games"].to_numpy(dtype=float),
                }
            )
        )
    long = pd.concat(rows, ignore_index=True)
    g = long.groupby("strategy")
    df = pd.DataFrame({"matches": g.size(), "match_wins": g["won"].sum()})
    df["match_win_rate"] = df["match_wins"] / df["matches"]
    low, high = wilson(df["match_wins"].to_numpy(), df["matches"].to_numpy())
    df["ci_low"], df["ci_high"] = low, high
    df["match_win_share"] = g["share"].sum() / df["matches"]
    df["total_mean"] = g["total"].mean()
    df["games_per_match"] = g["games"].mean()
    df = df.reset_index().sort_values("match_win_rate", ascending=False, kind="stable")
    return df.reset_index(drop=True)


def game_columns_table(games: pd.DataFrame, declared: dict) -> pd.DataFrame:
    """Per table size: rounds and the mean of every declared per-game column (a share for
    yes/no columns such as Ligretto's ``blockade``)."""
    cols = [c for c in declared.get("game_columns", []) if c in games]
    g = games.groupby("n_players")
    df = pd.DataFrame({"games": g.size()})
    for c in cols:
        name = f"{c}_share" if games[c].dtype == bool else f"{c}_mean"
        df[name] = g[c].mean()
    return df.reset_index()


def length_table(games: pd.DataFrame, run: Path, declared: dict) -> pd.DataFrame:
    """Percentiles of the game length (the declared length column) and of games per match."""
    rows = []
    length = declared.get("length_value")
    if length in games:
        v = games[length].to_numpy(dtype=float)
        rows.append(_percentiles(f"{length} per game", v))
    files = _parts(run / "matches")
    if files:
        m = pd.concat([pd.read_parquet(f, columns=["games"]) for f in files])
        rows.append(_percentiles("games per match", m["games"].to_numpy(dtype=float)))
    return pd.DataFrame(rows)


def _percentiles(what: str, v: np.ndarray) -> dict[str, Any]:
    p = np.percentile(v, [10, 50, 90]) if v.size else [np.nan] * 3
    return {"measure": what, "n": int(v.size), "mean": float(v.mean()) if v.size else np.nan,
            "p10": p[0], "p50": p[1], "p90": p[2], "max": float(v.max()) if v.size else np.nan}  # fmt: skip


def head_to_head_table(run: Path, manifest: dict) -> pd.DataFrame | None:
    """P(row finishes strictly ahead of column | same table), in the declared direction
    (from the run's aggregates)."""
    path = run / "aggregates.npz"
    if not path.exists():
        return None
    with np.load(path) as data:
        ahead, met = data["ahead"], data["met"]
    labels = manifest.get("labels", [])
    with np.errstate(invalid="ignore", divide="ignore"):
        rate = ahead / met
    df = pd.DataFrame(rate, index=labels, columns=labels)
    df.index.name = "strategy"
    return df.reset_index()


# ------------------------------------------------------------------ charts
def rank_chart(table: pd.DataFrame, declared: dict) -> Figure:
    rank = declared["rank_value"]
    df = table.iloc[::-1]
    fig, ax = charts._axes(None, (8.5, charts._height(len(df))))
    y = np.arange(len(df))
    mean = df[f"{rank}_mean"].to_numpy()
    err = np.vstack([mean - df[f"{rank}_ci_low"], df[f"{rank}_ci_high"] - mean])
    ax.barh(y, mean, color=charts.OKABE_ITO[0], alpha=0.85, height=0.6)
    ax.errorbar(mean, y, xerr=np.clip(err, 0, None), fmt="none", ecolor="black", capsize=3)
    ax.set_yticks(y, df["strategy"])
    better = "higher" if declared.get("higher_is_better") else "lower"
    ax.set_xlabel(f"mean {rank} per game (95% interval; {better} is better)")
    ax.axvline(0, color="grey", lw=0.8)
    ax.set_title(f"Mean {rank} by strategy")
    ax.grid(axis="x", alpha=0.3)
    return fig


def speed_chart(table: pd.DataFrame, declared: dict) -> Figure:
    rank = declared["rank_value"]
    fig, ax = charts._axes(None, (8.5, 4.5))
    for i, (name, sub) in enumerate(table.groupby("strategy")):
        sub = sub.sort_values("speed")
        mean = sub[f"{rank}_mean"].to_numpy()
        err = np.vstack([mean - sub[f"{rank}_ci_low"], sub[f"{rank}_ci_high"] - mean])
        ax.errorbar(sub["speed"], mean, yerr=np.clip(err, 0, None), marker="o", capsize=3,
                    color=charts.OKABE_ITO[i % len(charts.OKABE_ITO)], label=name)  # fmt: skip
    ax.set_xlabel("speed (1.1 = 10% faster)")
    ax.set_ylabel(f"mean {rank} per game")
    ax.set_title(f"{rank.capitalize()} by strategy and speed")
    ax.legend(**charts.OUTSIDE)
    ax.grid(alpha=0.3)
    return fig


def match_chart(table: pd.DataFrame) -> Figure:
    df = table.iloc[::-1]
    fig, ax = charts._axes(None, (8.5, charts._height(len(df))))
    y = np.arange(len(df))
    rate = df["match_win_rate"].to_numpy()
    err = np.vstack([rate - df["ci_low"], df["ci_high"] - rate])
    ax.barh(y, rate, color=charts.OKABE_ITO[2], alpha=0.85, height=0.6)
    ax.errorbar(rate, y, xerr=np.clip(err, 0, None), fmt="none", ecolor="black", capsize=3)
    ax.set_yticks(y, df["strategy"])
    ax.xaxis.set_major_formatter(PercentFormatter(1.0))
    ax.set_xlabel("match win rate (shared wins count for each winner; 95% interval)")
    ax.set_title("Match (game) win rate by strategy")
    ax.grid(axis="x", alpha=0.3)
    return fig


# ------------------------------------------------------------------ the page
def _findings(tables: dict[str, pd.DataFrame], declared: dict) -> list[str]:
    """A few sentences: the best strategy by mean rank value and by win rate, and matches."""
    rank = declared["rank_value"]
    s = tables["summary"]
    top = s.iloc[0]
    lines = [
        f"{top['strategy']} has the best mean {rank} per game: {top[f'{rank}_mean']:.2f} "
        f"(95% interval {top[f'{rank}_ci_low']:.2f} to {top[f'{rank}_ci_high']:.2f}).",
    ]
    w = s.sort_values("win_rate", ascending=False).iloc[0]
    lines.append(
        f"{w['strategy']} wins most often: {w['win_rate']:.1%} of its games "
        f"(fair share {w['fair_share']:.1%})."
    )
    if "matches" in tables:
        m = tables["matches"].iloc[0]
        lines.append(
            f"{m['strategy']} wins most matches: {m['match_win_rate']:.1%} "
            f"({m['games_per_match']:.1f} games per match on average)."
        )
    return lines


def build_declared_report(run: Path, declared: dict, out: str | Path | None = None,
                          fmt: str = "html", start: float | None = None) -> Path:  # fmt: skip
    """Write the report of ``run`` (see the module docstring) and return the page's path."""
    from .report import FINDINGS_FILE, Section, _png, write_page

    start = time.perf_counter() if start is None else start
    manifest = json.loads((run / "manifest.json").read_text())
    out = Path(out) if out is not None else run / "report"
    (out / "charts").mkdir(parents=True, exist_ok=True)
    long, games = load_long(run, declared)
    rank = declared["rank_value"]
    better = "higher" if declared.get("higher_is_better") else "lower"
    title = str(declared["name"]).capitalize()
    tables: dict[str, pd.DataFrame] = {"summary": rank_table(long, declared)}
    tables["speed"] = speed_table(long, declared)
    matches = match_table(run, declared)
    if matches is not None:
        tables["matches"] = matches
    tables["game_columns"] = game_columns_table(games, declared)
    tables["lengths"] = length_table(games, run, declared)
    h2h = head_to_head_table(run, manifest)
    if h2h is not None:
        tables["head_to_head"] = h2h
    for name, df in tables.items():
        df.to_csv(out / f"{name}.csv", index=False)
    figs = {
        "points": rank_chart(tables["summary"], declared),
        "win_rates": charts.win_rates(tables["summary"]),
        "speed": speed_chart(tables["speed"], declared),
    }
    if matches is not None:
        figs["match_win_rates"] = match_chart(matches)
    images = {}
    for name, fig in figs.items():
        images[name] = _png(fig)
        (out / "charts" / f"{name}.png").write_bytes(images[name])
    shared = " (tied players share a win: it counts for each, and win_share splits it)"
    secs = [
        Section(
            f"Mean {rank} per game and win rate",
            f"Per strategy: seats taken, mean {rank} per game ({better} is better) with a 95% "
            f"interval, wins{shared if declared.get('shared_wins') else ''} with a 95% Wilson "
            "interval, fair share (the win rate if all were equal). Best first.",
            [("summary", tables["summary"])],
            ["points", "win_rates"],
        ),
        Section(
            f"{rank.capitalize()} by strategy and speed",
            "The same strategies at different speeds (the speed parameter; 1.0 where the "
            "label shows none): is it better to be faster or to play smarter?",
            [("speed", tables["speed"])],
            ["speed"],
        ),
    ]
    if matches is not None:
        target = manifest.get("spec", {}).get("target")
        rounds = manifest.get("spec", {}).get("rounds")
        how = f"to {target} points" if target else f"of {rounds} games each"
        secs.append(
            Section(
                "Matches",
                f"Games of several rounds {how}; the best total wins, tied players share the "
                "win (counted for each in match_wins, split in match_win_share).",
                [("matches", matches)],
                ["match_win_rates"],
            )
        )
    secs += [
        Section(
            "How games go",
            "Per table size: the mean of every per-game column the game declares (a share for "
            "yes/no columns, e.g. rounds ended by blockade), and length percentiles (games per "
            "match when matches were played).",
            [("game_columns", tables["game_columns"]), ("lengths", tables["lengths"])],
        ),
    ]
    if h2h is not None:
        secs.append(
            Section(
                "Head to head",
                f"How often the row strategy finished strictly ahead of the column strategy "
                f"({better} {rank}) when they shared a table.",
                [("head_to_head", h2h)],
            )
        )
    findings = _findings(tables, declared)
    secs.insert(0, Section("Key findings", "The answers in words.", bullets=findings))
    (out / FINDINGS_FILE).write_text("\n".join(findings) + "\n", encoding="utf-8")
    overview = [
        ("game", str(declared["name"])),
        ("games", f"{len(games):,}"),
        ("strategies", ", ".join(manifest.get("labels", []))),
        ("players", ", ".join(str(p) for p in manifest.get("spec", {}).get("players", []))),
        ("seed", str(manifest.get("seed"))),
        ("run directory", str(run)),
    ]
    name = run.name
    return write_page(out, fmt, f"{title} tournament report: {name}", overview, manifest, secs,
                      images, start)  # fmt: skip
