"""The page of a comparison of rule variants: it opens with every variant's difference to the
default rules on every measure in one chart (a forest plot), the findings in words (each
linking to its chart and table) and the same differences as a compact table; then a sweep's
chart of every measure against the swept value, and per topic a chart, one sentence, a row
per rule set with each value and its difference, and the full tables folded."""

from __future__ import annotations

import os
import shlex
import time
from pathlib import Path

import pandas as pd

from .data import Run
from .numbers import PERCENTAGE_POINTS, p_column
from .page import Section
from .report import _png, write_page
from .variants_display import diff_text, value_text, value_words
from .variants_forest import along_axis
from .variants_tables import (
    by_rules,
    every_differences,
    every_metrics,
    ladder_rows,
    overview_table,
    seat_table,
    sweep_rows,
)
from .variants_text import ALPHA
from .variants_words import clear_when, no_win_to_lose

__all__ = ["Rows", "chart_names", "every_point", "page_sections", "write_variants_page"]

Tables = dict[str, pd.DataFrame]
Said = tuple[str, list[str]]
MEASURES = "the variant's measures"
CLEAR = (
    f"* marks a clear difference, {clear_when(MEASURES)} (the variant less the default "
    "rules, 95% intervals in brackets, not corrected)."
)


class Rows:
    """Lookups of the metrics and differences tables by (rules, metric, n_players, position)."""

    def __init__(self, tables: Tables):
        self.m = {_k(r): r for _, r in tables["variants_metrics"].iterrows()}
        self.d = {_k(r): r for _, r in tables["variants_differences"].iterrows()}


def _k(r: pd.Series) -> tuple[str, str, str, int]:
    return str(r["rules"]), str(r["metric"]), str(r["n_players"]), int(r["position"])


def _lead(rows: Rows, labels: list[str], metric: str, what: str) -> str:
    """Each rule set's value as its table cell writes it, in words (``value_words``)."""
    parts = [f"{label} {value_words(rows.m[(label, metric, 'all', -1)])}"
             for label in labels if (label, metric, "all", -1) in rows.m]  # fmt: skip
    return f"{what}: " + "; ".join(parts) + "." if parts else ""


def _seat_lead(rows: Rows, labels: list[str]) -> str:
    sizes = sorted({k[2] for k in rows.m if k[1] == "seat"}, key=int)
    parts = [f"{label}{f' at {n} players' if len(sizes) > 1 else ''} "
             f"{value_words(rows.m[(label, 'seat', n, 0)])}"
             for n in sizes for label in labels if (label, "seat", n, 0) in rows.m]  # fmt: skip
    return "The first player's edge over the fair share: " + "; ".join(parts) + "."


ALL = "all"
TOPICS: list[tuple[str, str, str, list[str], list[str], tuple]] = [
    ("Game length",
     "Mean turns and rounds per game under each rule set, with 95% intervals over duplicate "
     "sets (games ended by a forfeit left out; an unfinished game counts with the turns it "
     "reached), and the distribution of turns. ",
     "variants_length", ["turns", "rounds"], ["turns", "turns_distribution", "rounds"],
     ("turns", "Mean turns per game")),
    ("How much skill matters",
     "The spread: the best strategy's win rate less the worst's (the run's own order), paired "
     f"within the duplicate sets where both sat, in {PERCENTAGE_POINTS}, over the games someone "
     "won (unfinished games left out, as the seats' edges leave them; so are the ladder's "
     "steps); how often the best "
     "strategy other than random finishes ahead of random in the games they share (per "
     "pair of their seats where a table seats one of them twice: the head-to-head table's "
     "ahead rate), in percent; and the skill ladder: the field in the "
     "default rules' order of strength, each step the win rate of a strategy less the next "
     "weaker one's, paired by deal, "
     "significant after Holm's correction over the rule set's steps; a level is a step "
     "significant with its interval above 0 (with no spread within tables, by its sets' sign "
     "test, more above 0 than below; one significant the other way is no level: the "
     "rule set orders that pair the other way round), and the levels a rule set tells apart are "
     "at least 1 + its levels, a one-sided bound at least 95% sure (Holm over the steps' "
     "one-sided tests, which a level passes too, keeps the chance that any step counted is in "
     "truth not upward under 5%; where no step goes down, nearer 97.5% sure, as a level's "
     "two-sided test spends half its 5% on each side); a step of the size in 'significant "
     "from' would be significant whatever the other steps. ",
     "variants_skill", ["skill_spread", "best_vs_random"],
     ["skill_spread", "best_vs_random", "ladder"],
     ("skill_spread", "Best less worst")),
    ("How close games are, and unfinished games",
     "The mean cards left by the runner-up (the second-best finisher) in finished games, and "
     "the share of games that reached the turn limit unfinished, in percent. ",
     "variants_close", ["runner_up", "unfinished"], ["runner_up", "unfinished"],
     ("runner_up", "The runner-up's cards left")),
    ("Lead changes, drama and when games are decided",
     "From a sample of whole duplicate sets replayed turn by turn (the same deals under every "
     "rule set), over its finished games: the lead is held by the player alone with the "
     "fewest cards; lead changes counts how often that player changes in a game; drama is the "
     "share of the turns after which the eventual winner is behind (after Browne 2008, "
     "Ludii's Drama); a win from behind is a game whose winner trailed at half-time; decided "
     "at is the share of the game played when the winner takes the lead for good (Ludii's "
     "decisiveness). docs/variants.md defines each. ",
     "variants_designer", ["lead_changes", "drama", "comeback", "decided_at"],
     ["lead_changes", "drama", "comeback", "decided_at"],
     ("lead_changes", "Lead changes per game")),
    ("Expert matches",
     "The share of expert matches won by tied players (a shared win), in percent, and the "
     "mean match length in games. ",
     "variants_expert", ["shared_wins", "match_games"], ["shared_wins", "match_games"],
     ("shared_wins", "Matches with a shared win")),
]  # fmt: skip
"""Per topic: title, what it shows, its table, its measures, its charts and its lead."""
LINKS = {"turns": ("turns", "variants_length"), "rounds": ("turns", "variants_length"),
         "seat": ("seats", "variants_seats"), "skill_spread": ("skill_spread", "variants_skill"),
         "best_vs_random": ("best_vs_random", "variants_skill"),
         "ladder_step": ("ladder", "variants_ladder"),
         "runner_up": ("runner_up", "variants_close"),
         "unfinished": ("unfinished", "variants_close"),
         "shared_wins": ("shared_wins", "variants_expert"),
         "match_games": ("match_games", "variants_expert"),
         "lead_changes": ("lead_changes", "variants_designer"),
         "drama": ("drama", "variants_designer"), "comeback": ("comeback", "variants_designer"),
         "decided_at": ("decided_at", "variants_designer"),
         "restricted": ("restricted", "variants_restricted")}  # fmt: skip
"""Per metric: the chart and the table a finding about it links to."""
EVERY = (
    "Every measure and difference in words and units; variants_differences.csv: per variant "
    "and measure the default rules' value, the variant's, the difference with its 95% "
    "interval, p-value, Holm's adjusted p-value over the variant's measures and whether it is "
    "significant; variants_metrics.csv: every measure per rule set with its 95% interval, "
    "standard error, degrees of freedom and duplicate sets (a seat's value is its edge over "
    "the fair share, fair); variants_runs.csv: the runs compared."
)


def _links(metrics: list[str], charts: set[str]) -> list[tuple[str, str]]:
    """(text, href) of the charts and tables a finding about ``metrics`` speaks of."""
    out: list[tuple[str, str]] = []
    for metric in metrics:
        chart, table = LINKS["restricted" if metric.startswith("restricted_") else metric]
        items = [(f"{chart} chart", f"#chart-{chart}")] if chart in charts else []
        out += [i for i in [*items, (f"{table}.csv", f"{table}.csv")] if i not in out]
    return out


def _opening(tables: Tables, labels: list[str], said: list[Said], charts: set[str]) -> Section:
    return Section(
        "Key findings",
        "In words, from the tables below; 95% intervals in brackets, numbers rounded (the "
        "CSVs keep full precision). The table under them: every difference of the chart, the "
        "default rules' value first. " + CLEAR,
        [
            (
                "variants_overview",
                overview_table(tables["variants_metrics"], tables["variants_differences"], labels),
            )
        ],
        ["overview"],
        bullets=[t for t, _ in said],
        lead="Every variant less the default rules on every measure, each in its own unit (a "
        f"share's difference in {PERCENTAGE_POINTS}), with 95% intervals: filled markers are clear "
        f"({clear_when(MEASURES)}), hollow ones are not; 0 is no change.",
        links=[_links(ms, charts) for _, ms in said],
        charts_first=True,
    )


def _keys(metrics: pd.DataFrame, names: list[str]) -> list[tuple[str, str, int]]:
    have = set(zip(metrics["metric"], metrics["n_players"], metrics["position"], strict=True))
    return [(m, ALL, -1) for m in names if (m, ALL, -1) in have]


def _topic(tables: Tables, rows: Rows, labels: list[str], topic: tuple) -> Section:
    title, text, name, names, charts, (metric, words) = topic
    m, d = tables["variants_metrics"], tables["variants_differences"]
    table = by_rules(m, d, labels, _keys(m, names))
    tabs = [(name, table)] if len(table.columns) > 1 else []
    if name == "variants_skill" and len(tables["variants_ladder"]):
        tabs.append(("variants_ladder", ladder_rows(tables["variants_ladder"])))
    return Section(title, text + CLEAR, tabs, charts,
                   lead=_lead(rows, labels, metric, words))  # fmt: skip


def _restricted(tables: Tables, labels: list[str]) -> Section:
    m = tables["variants_metrics"]
    keys = sorted({(r, ALL, -1) for r in m["metric"] if str(r).startswith("restricted_")})
    table = by_rules(m, tables["variants_differences"], labels, keys)
    costs = m[m["metric"].astype(str).str.startswith("restricted_")]
    unmeasured = [rules for rules in labels if len(costs) and rules not in set(costs["rules"])]
    lead = f"What each restriction costs the restricted strategy, per rule set, in {PERCENTAGE_POINTS}."
    if unmeasured:  # its replays ran, but the strategy won none of them: no win to lose
        who = str(costs["detail"].iloc[0]).partition(": ")[0]
        lead += f" Not measured under {', '.join(unmeasured)}: {no_win_to_lose(who)}."
    return Section(
        "Restricted play",
        "After Jaffe et al. (2012): the strategy restricted (by default weighted) plays in its "
        "own seats of a sample of the run's games, on the same deals against the same "
        "opponents, with its best action the restriction allows; the cost is its win rate "
        "in the run less the restricted one's, each over its games someone won (unfinished "
        "games left out, as the seats' edges leave them; a sample written before the replays "
        "recorded which finished counts every game, and its findings say so), in "
        f"{PERCENTAGE_POINTS} (a large cost: the game rewards what the restriction forbids; "
        "none: that freedom does not matter). " + CLEAR,
        [("variants_restricted", table)] if len(table.columns) > 1 else [],
        ["restricted"],
        lead=lead,
    )


def _sweep(tables: Tables) -> list[Section]:
    if "variants_sweep" not in tables or not len(tables["variants_sweep"]):
        return []
    t = along_axis(tables["variants_sweep"])
    key = str(t["key"].iloc[0])
    values = ", ".join(dict.fromkeys(t["value"].astype(str)))
    return [Section(
        f"Sweep over {key}",
        f"Every measure at each value of {key} ({values}), every other rule held fixed, on "
        "the same deal seeds: the line is the estimate, the band its 95% interval (a panel "
        "whose measure has none at a value says 'no interval' in its title); "
        "variants_sweep.csv has one row per value and measure with the difference to the "
        "default rules and its interval.",
        [("variants_sweep_values", sweep_rows(t)), ("variants_sweep", every_point(t, tables))],
        ["sweep"],
        lead=f"Each measure against {key}; {_rings(t)}",
    )]  # fmt: skip


def _rings(t: pd.DataFrame) -> str:
    """What the sweep chart's rings mark: the value played as today's rules, and, where a
    run mixes table sizes, a value that plays as today's at one size only, ringed on that
    size's line ('12 at 3 players')."""
    today = t[t["default"].astype(bool)]
    whole = set(today.loc[today["n_players"] == "all", "value"].astype(str))
    sized = today[~today["value"].astype(str).isin(whole) & (today["n_players"] != "all")]
    at = ", ".join(dict.fromkeys(f"{v} at {n} players" for v, n in
                                 zip(sized["value"], sized["n_players"], strict=True)))  # fmt: skip
    if whole:
        return "the ring marks the value played as today's rules" + (
            f"; a ring on a table size's line, a value that plays as today's at that size "
            f"only ({at})." if at else ".")  # fmt: skip
    if at:
        return (f"a ring on a table size's line marks a value that plays as today's rules at "
                f"that size ({at}); no value plays as today's at every size, so a measure over "
                "all tables has no ring.")  # fmt: skip
    return ("no value swept plays as today's rules (their run, the baseline of every "
            "difference, is not drawn).")  # fmt: skip


def every_point(t: pd.DataFrame, tables: Tables) -> pd.DataFrame:
    """The sweep's table as the page writes it (variants_sweep.csv keeps the numbers), the
    figures first: per value and measure the estimate with its interval in its unit
    (``value_text``), the difference to today's rules as the differences table writes it
    (``diff_text``; today's own value says so), Holm's p-value (the column in one form,
    ``p_column``: '< 1e-16', never '0.000000') and whether the difference is clear. ``t``:
    the sweep's table in the page's order (``along_axis``)."""
    d = tables["variants_differences"].set_index(
        ["rules", "metric", "n_players", "position"], drop=False
    )  # diff_text reads the metric
    key = str(t["key"].iloc[0]) if len(t) else "value"
    rows = []
    for (_, r), p in zip(t.iterrows(), p_column(t["p_holm"], ALPHA), strict=True):
        at = (r["rules"], r["metric"], r["n_players"], int(r["position"]))
        diff = d.loc[at] if not r["default"] and at in d.index else None
        rows.append({
            key: r["value"],
            "measure": r["measure"],
            "estimate": value_text(r.drop("value").rename({"estimate": "value"})),
            "difference to today's": "today's rules" if r["default"] else
            "" if diff is None else diff_text(diff, star=False),
            "p (Holm)": p,
            "clear": "" if diff is None else "yes" if r["significant"] else "no",
        })  # fmt: skip
    return pd.DataFrame(rows)


def page_sections(tables: Tables, rows: Rows, labels: list[str],
                  said: list[Said]) -> list[Section]:  # fmt: skip
    """The page's sections in reading order (a topic no run measured is left out)."""
    charts = set(chart_names(tables))
    m, d = tables["variants_metrics"], tables["variants_differences"]
    seats = Section(
        "First player and seats",
        f"Each seat's edge: its win rate less the fair share 1/players, in {PERCENTAGE_POINTS}, by "
        "position after the first player (first: the first to play) per table size, and each "
        "seat's difference to the default rules', over the games someone won (unfinished games "
        "left out). " + CLEAR,
        [("variants_seats", seat_table(m, d, labels))],
        ["seats"],
        lead=_seat_lead(rows, labels),
    )
    topics = [_topic(tables, rows, labels, t) for t in TOPICS]
    every = Section("Every measure and difference", EVERY, [
        ("variants_differences", every_differences(d)), ("variants_metrics", every_metrics(m)),
        ("variants_runs", tables["variants_runs"])])  # fmt: skip
    secs = [
        *_sweep(tables),
        topics[0],
        seats,
        topics[1],
        topics[2],
        topics[3],
        _restricted(tables, labels),
        topics[4],
        every,
    ]
    return [_opening(tables, labels, said, charts)] + [
        s for s in secs if any(len(t) and _filled(t) for _, t in s.tables)]  # fmt: skip


def _filled(df: pd.DataFrame) -> bool:
    """A table with something in it besides the rule sets' names."""
    rest = df.drop(columns=[c for c in ("rules", "n_players") if c in df.columns])
    return bool(len(rest.columns)) and bool((rest.astype(str) != "").to_numpy().any())


def chart_names(tables: Tables) -> list[str]:
    """The charts the page draws: a measure's where some run has it (unfinished games only
    where some game was), the seats, the turns, the overview, a sweep's, the ladder's and
    restricted play's."""
    from . import variants_charts as vc  # start-up: matplotlib loads to draw

    metrics = tables["variants_metrics"]
    present = set(metrics["metric"])
    out = ["overview"] if len(tables["variants_differences"]) else []
    zero = metrics[metrics["metric"] == "unfinished"]["value"].abs().sum() == 0
    out += [m for m in vc.CHARTS if m in present and not (m == "unfinished" and zero)]
    out += ["seats"] if "seat" in present else []
    out += ["turns_distribution"] if len(tables["variants_turns"]) else []
    out += ["sweep"] if len(tables.get("variants_sweep", ())) else []
    out += ["ladder"] if len(tables["variants_ladder"]) else []
    out += ["restricted"] if any(str(x).startswith("restricted_") for x in present) else []
    return out


def _charts(tables: Tables) -> dict[str, bytes]:
    """Every chart of ``chart_names``, as PNG."""
    from . import variants_charts as vc  # start-up: matplotlib loads to draw
    from . import variants_forest as vf  # start-up: matplotlib loads to draw

    metrics = tables["variants_metrics"]
    draw = {"overview": lambda: vf.forest(tables["variants_differences"]),
            "seats": lambda: vc.seats(metrics),
            "turns_distribution": lambda: vc.turns(tables["variants_turns"]),
            "sweep": lambda: vf.sweep(tables["variants_sweep"]),
            "ladder": lambda: vf.ladder(tables["variants_ladder"]),
            "restricted": lambda: vc.restricted(metrics)}  # fmt: skip
    return {name: _png(draw[name]() if name in draw else vc.measure(metrics, name))
            for name in chart_names(tables)}  # fmt: skip


def _overview(out: Path, tables: Tables, runs: list[tuple[str, Run]]
              ) -> list[tuple[str, object]]:  # fmt: skip
    info = tables["variants_runs"]
    first = info.iloc[0]
    games = ", ".join(f"{r.rules} {r.games:,}" for r in info.itertuples())
    here = {label: relative_to_page(run.path, out) for label, run in runs if run.path is not None}
    links = [(f"{label}: {here[label]}", f"{here[label]}/manifest.json") for label in here]
    items: list[tuple[str, object]] = [
        ("rule sets", "; ".join(info["rules"])),
        ("strategies", str(first["strategies"]).replace(",", ", ")),
        ("players", str(first["players"])),
        ("matches" if bool(first["expert"]) else "games", games),
        ("seed", str(first["seed"])),
        ("runs (manifests)", links),
        *_full_reports(out, runs),
    ]
    return [(k, v) for k, v in items if v]


def relative_to_page(path: Path, out: Path) -> str:
    """A run's folder as seen from the page's folder ``out`` ('default', '../default-rules'),
    so a link from the page still holds when the folders move together."""
    return Path(os.path.relpath(path.resolve(), out.resolve())).as_posix()


REPORT_PAGES = ("report.html", "report.md")
"""The page ``leaves report RUN`` writes into RUN/report by default, in either format."""


def _full_reports(out: Path, runs: list[tuple[str, Run]]) -> list[tuple[str, object]]:
    """Each run's own report: a link where it is written already (``leaves run --rules``
    writes the variant's into RUN/report), else the command that writes it, run in the
    page's folder."""
    done, todo = [], []
    for label, run in runs:
        if run.path is None:
            continue
        page = next((run.path / "report" / n for n in REPORT_PAGES
                     if (run.path / "report" / n).is_file()), None)  # fmt: skip
        if page is not None:
            link = relative_to_page(page, out)
            done.append((f"{label}: {link}", link))
        else:
            todo.append(f"{label}: leaves report {shlex.quote(relative_to_page(run.path, out))}")
    how = (
        "in this page's folder, " + "; ".join(todo) + " (each writes the run's report/report.html)"
    )
    return [("runs' full reports", done), ("a run's full report", how if todo else "")]


def write_variants_page(out: Path, fmt: str, tables: Tables, secs: list[Section],
                        runs: list[tuple[str, Run]], start: float) -> Path:  # fmt: skip
    """Draw the charts into out/charts and write the page; returns its path."""
    images = _charts(tables)
    for name, png in images.items():
        (out / "charts" / f"{name}.png").write_bytes(png)
    labels = [label for label, _ in runs]
    title = f"Rule variants: {labels[0]} against {', '.join(labels[1:])}"
    return write_page(out, fmt, title, _overview(out, tables, runs), secs, images,  # type: ignore[arg-type]
                      start if start else time.perf_counter())  # fmt: skip
