"""The page of a comparison of rule variants: its sections (the findings, then per topic a
chart, one sentence, a row per rule set with each value and its difference to the default
rules, and the full tables folded), the run summary and the charts drawn from the tables."""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
import pandas as pd

from .data import Run
from .page import Section
from .variants_text import num, ordinal

__all__ = ["Rows", "page_sections", "write_variants_page"]

Tables = dict[str, pd.DataFrame]
CLEAR = (
    "* marks a difference significant after Holm's correction over the variant's measures "
    "(the variant less the default rules, 95% intervals in brackets, not corrected)."
)


def _cell(row: pd.Series | None, scale: float = 1.0, digits: int | None = None,
          fair: bool = False) -> str:  # fmt: skip
    """A value with its interval for the page's tables ('' where there is none)."""
    if row is None:
        return ""
    add = row["fair"] if fair else 0.0
    v, lo, hi = (scale * (row[c] + add) for c in ("value", "ci_low", "ci_high"))
    return num(v, lo, hi, digits)


def _dcell(row: pd.Series | None, scale: float = 1.0, digits: int | None = None) -> str:
    """A difference with its interval, '*' when it is clear (Holm)."""
    if row is None:
        return ""
    d, lo, hi = (scale * row[c] for c in ("diff", "ci_low", "ci_high"))
    k = (1 if abs(d) >= 1 else 2) if digits is None else digits
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return f"{d:+.{k}f} (too few deals)"
    return f"{d:+.{k}f} [{lo:+.{k}f}, {hi:+.{k}f}]" + (" *" if row["significant"] else "")


class Rows:
    """Lookups of the metrics and differences tables by (rules, metric, n_players, position)."""

    def __init__(self, tables: Tables):
        self.m = {_k(r): r for _, r in tables["variants_metrics"].iterrows()}
        self.d = {_k(r): r for _, r in tables["variants_differences"].iterrows()}

    def row(self, labels: list[str], columns: dict[str, tuple], n: str = "all") -> pd.DataFrame:
        """One row per rule set: per column (metric, position, scale, digits, kind)."""
        out = []
        for label in labels:
            cells = {"rules": label}
            for name, (metric, pos, scale, digits, kind) in columns.items():
                key = (label, metric, n, pos)
                if kind == "diff":
                    cells[name] = _dcell(self.d.get(key), scale, digits)
                else:
                    cells[name] = _cell(self.m.get(key), scale, digits, fair=kind == "rate")
            out.append(cells)
        return pd.DataFrame(out)


def _k(r: pd.Series) -> tuple[str, str, str, int]:
    return str(r["rules"]), str(r["metric"]), str(r["n_players"]), int(r["position"])


def _lead(rows: Rows, labels: list[str], metric: str, what: str, scale: float = 1.0,
          digits: int | None = None) -> str:  # fmt: skip
    parts = [f"{label} {_cell(rows.m.get((label, metric, 'all', -1)), scale, digits)}"
             for label in labels if (label, metric, "all", -1) in rows.m]  # fmt: skip
    return f"{what}: " + "; ".join(parts) + "." if parts else ""


def _seat_lead(rows: Rows, labels: list[str]) -> str:
    sizes = sorted({k[2] for k in rows.m if k[1] == "seat"}, key=int)
    parts = [f"{label}{f' at {n} players' if len(sizes) > 1 else ''} "
             f"{_cell(rows.m.get((label, 'seat', n, 0)), 100.0, 1)}"
             for n in sizes for label in labels if (label, "seat", n, 0) in rows.m]  # fmt: skip
    return "The first player's edge over the fair share, in points: " + "; ".join(parts) + "."


def _seat_table(rows: Rows, labels: list[str]) -> pd.DataFrame:
    sizes = sorted({k[2] for k in rows.m if k[1] == "seat"}, key=int)
    out = []
    for n in sizes:
        cols = {("first" if p == 0 else f"{ordinal(p)}"): ("seat", p, 100.0, 1, "value")
                for p in range(int(n))}  # fmt: skip
        cols["vs default: first"] = ("seat", 0, 100.0, 1, "diff")
        df = rows.row(labels, cols, n)
        df.insert(1, "n_players", int(n))
        out.append(df)
    if not out:
        return pd.DataFrame()
    df = pd.concat(out, ignore_index=True).fillna("")
    return df[[c for c in df.columns if c != "vs default: first"] + ["vs default: first"]]


PTS = (100.0, 1)  # a share shown in percent (a difference in points), one decimal
TOPICS: list[tuple[str, str, str, dict[str, tuple], list[str], tuple]] = [
    (
        "Game length",
        "Mean turns and rounds per game under each rule set, with 95% intervals over "
        "duplicate sets (games ended by a forfeit left out; an unfinished game counts with the "
        "turns it reached), and the distribution of turns. ",
        "variants_length",
        {"turns": ("turns", -1, 1.0, None, "value"),
         "vs default": ("turns", -1, 1.0, None, "diff"),
         "rounds": ("rounds", -1, 1.0, 2, "value"),
         "rounds vs default": ("rounds", -1, 1.0, 2, "diff")},
        ["turns", "turns_distribution", "rounds"],
        ("turns", "Mean turns per game", 1.0, None),
    ),
    (
        "How much skill matters",
        "The spread: the best strategy's win rate less the worst's (the run's own order), "
        "paired within the duplicate sets where both sat, in points; and how often the best "
        "strategy other than random finishes ahead of random in the games they share (the "
        "head-to-head table's ahead rate, from the games where random sits), in percent. ",
        "variants_skill",
        {"best - worst (points)": ("skill_spread", -1, *PTS, "value"),
         "vs default": ("skill_spread", -1, *PTS, "diff"),
         "best ahead of random (%)": ("best_vs_random", -1, *PTS, "value"),
         "ahead vs default": ("best_vs_random", -1, *PTS, "diff")},
        ["skill_spread", "best_vs_random"],
        ("skill_spread", "Best less worst, in points", *PTS),
    ),
    (
        "How close games are, and unfinished games",
        "The mean cards left by the runner-up (the second-best finisher) in finished games, "
        "and the share of games that reached the turn limit unfinished, in percent. ",
        "variants_close",
        {"runner-up's cards": ("runner_up", -1, 1.0, 2, "value"),
         "vs default": ("runner_up", -1, 1.0, 2, "diff"),
         "unfinished (%)": ("unfinished", -1, *PTS, "value"),
         "unfinished vs default": ("unfinished", -1, *PTS, "diff")},
        ["runner_up", "unfinished"],
        ("runner_up", "The runner-up's cards left", 1.0, 2),
    ),
    (
        "Expert matches",
        "The share of expert matches won by tied players (a shared win), in percent, and the "
        "mean match length in games. ",
        "variants_expert",
        {"shared wins (%)": ("shared_wins", -1, *PTS, "value"),
         "vs default": ("shared_wins", -1, *PTS, "diff"),
         "games per match": ("match_games", -1, 1.0, None, "value"),
         "games vs default": ("match_games", -1, 1.0, None, "diff")},
        ["shared_wins", "match_games"],
        ("shared_wins", "Matches with a shared win, in percent", *PTS),
    ),
]  # fmt: skip
"""Per topic: title, what it shows, its table, the table's columns (metric, position, scale,
digits, value or difference), its charts and its lead (metric, words, scale, digits)."""
EVERY = (
    "variants_differences.csv: per variant and measure the default rules' value, the "
    "variant's, the difference with its 95% interval, p-value, Holm's adjusted p-value over "
    "the variant's measures and whether it is significant; variants_metrics.csv: every "
    "measure per rule set with its 95% interval, standard error, degrees of freedom and "
    "duplicate sets (a seat's value is its edge over the fair share, fair); variants_runs.csv: "
    "the runs compared."
)


def _topic(rows: Rows, labels: list[str], topic: tuple) -> Section:
    title, text, name, columns, charts, (metric, words, scale, digits) = topic
    return Section(title, text + CLEAR, [(name, rows.row(labels, columns))], charts,
                   lead=_lead(rows, labels, metric, words, scale, digits))  # fmt: skip


def page_sections(tables: Tables, rows: Rows, labels: list[str],
                  bullets: list[str]) -> list[Section]:  # fmt: skip
    """The page's sections in reading order (a topic no run measured is left out)."""
    findings = Section("Key findings", "In words, from the tables below; 95% intervals in "
                       "brackets, numbers rounded (the CSVs keep full precision).",
                       bullets=bullets)  # fmt: skip
    seats = Section(
        "First player and seats",
        "Each seat's edge: its win rate less the fair share 1/players, in points, by position "
        "after the first player (first: the first to play) per table size, and the first "
        "player's edge against the default rules', over the games someone won (unfinished "
        "games left out). " + CLEAR,
        [("variants_seats", _seat_table(rows, labels))],
        ["seats"],
        lead=_seat_lead(rows, labels),
    )
    topics = [_topic(rows, labels, t) for t in TOPICS]
    every = Section("Every measure and difference", EVERY, [(k, tables[k]) for k in (
        "variants_differences", "variants_metrics", "variants_runs")])  # fmt: skip
    secs = [topics[0], seats, *topics[1:], every]
    return [findings] + [s for s in secs if any(len(t) and _filled(t) for _, t in s.tables)]


def _filled(df: pd.DataFrame) -> bool:
    """A table with something in it besides the rule sets' names."""
    rest = df.drop(columns=[c for c in ("rules", "n_players") if c in df.columns])
    return bool(len(rest.columns)) and bool((rest.astype(str) != "").to_numpy().any())


def _charts(tables: Tables) -> dict[str, bytes]:
    """Every chart whose measure some run has, as PNG."""
    from . import variants_charts as vc
    from .report import _png

    metrics = tables["variants_metrics"]
    present = set(metrics["metric"])
    images = {m: _png(vc.measure(metrics, m)) for m in vc.CHARTS if m in present}
    if "seat" in present:
        images["seats"] = _png(vc.seats(metrics))
    if len(tables["variants_turns"]):
        images["turns_distribution"] = _png(vc.turns(tables["variants_turns"]))
    return images


def _overview(tables: Tables, runs: list[tuple[str, Run]]) -> list[tuple[str, str]]:
    info = tables["variants_runs"]
    first = info.iloc[0]
    games = ", ".join(f"{r.rules} {r.games:,}" for r in info.itertuples())
    where = "; ".join(f"{r.rules}: {r.run}" for r in info.itertuples() if r.run)
    items = [
        ("rule sets", "; ".join(info["rules"])),
        ("strategies", str(first["strategies"]).replace(",", ", ")),
        ("players", str(first["players"])),
        ("matches" if bool(first["expert"]) else "games", games),
        ("seed", str(first["seed"])),
        ("runs", where + " ('leaves report RUN' builds one run's full report)"),
    ]
    return [(k, v) for k, v in items if v]


def write_variants_page(out: Path, fmt: str, tables: Tables, secs: list[Section],
                        runs: list[tuple[str, Run]], start: float) -> Path:  # fmt: skip
    """Draw the charts into out/charts and write the page; returns its path."""
    from .report import write_page

    images = _charts(tables)
    for name, png in images.items():
        (out / "charts" / f"{name}.png").write_bytes(png)
    labels = [label for label, _ in runs]
    title = f"Rule variants: {labels[0]} against {', '.join(labels[1:])}"
    return write_page(out, fmt, title, _overview(tables, runs), secs, images,
                      start if start else time.perf_counter())  # fmt: skip
