"""The report: every table as CSV, every chart as PNG, and one self-contained HTML page (charts
embedded as base64 PNG, inline CSS, no scripts, no network) or a Markdown page."""

from __future__ import annotations

import io
import multiprocessing as mp
import os
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from tournaments.game import Declaration, plural

from .clusters import import_student_t
from .data import Run, as_run
from .declared import by_parameter, means, outcomes
from .expert import expert, expert_lengths, expert_scores
from .findings import key_findings
from .gauntlet import design as gauntlet_design
from .gauntlet import gauntlet
from .neighbours import neighbours
from .page import Section, html_table, md_table, render_html, render_md
from .rating import rating
from .significance import PAIRED, significance
from .tables import completion, head_to_head, length_distribution, lengths, seats, summary

if TYPE_CHECKING:
    from matplotlib.figure import Figure

FORMATS = ("html", "md")
FINDINGS_FILE = "findings.txt"
"""The key findings, one sentence a line, next to the page (the commands print them)."""


_html_table, _md_table = html_table, md_table  # the names the notebook view imports
DPI = 100
"""Chart resolution: 850 pixels wide at the report's 8.5 inches, the page's column width."""


def _png(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=DPI)
    return buf.getvalue()


def _sections(tables: dict[str, pd.DataFrame], method: str, d: Declaration,
              spec: dict | None = None) -> list[Section]:  # fmt: skip
    """The page's sections, in reading order; which ones and their words follow the game's
    declaration ``d`` (units, direction, columns)."""
    units, rank = d.units(), d.rank_value.replace("_", " ")
    shared = (
        " A win shared by tied players counts for each of them (win_share splits it)."
        if d.shared_wins
        else ""
    )
    secs = [
        Section(
            "Key findings",
            "In words, from the tables below; 95% intervals in brackets, numbers rounded "
            "(the CSVs keep full precision).",
            bullets=[f.text for f in key_findings(tables, method, d)],
        ),
        Section(
            "Summary",
            f"Per strategy: seats occupied ({units}), wins, win rate with a 95% Wilson interval, "
            "fair share (expected win rate if all were equal), relative = win rate / fair share, "
            f"mean {rank} when not winning, unfinished and forfeited {units}. Strongest first."
            + shared,
            [("summary", tables["summary"])],
            ["win_rates"],
        ),
    ]
    if "means" in tables:
        cols = ", ".join(c.replace("_", " ") for c in d.mean_columns)
        secs.append(
            Section(
                f"Mean {rank} per {d.unit}",
                f"Per strategy: the mean per seat of {cols}, with 95% intervals (normal, over "
                f"seats); {d.better} {rank} is better. Best first.",
                [("means", tables["means"])],
                ["means"],
            )
        )
    if "by_parameter" in tables:
        names = ", ".join(d.parameters)
        secs.append(
            Section(
                f"{rank.capitalize()} by strategy and {names}",
                f"The same strategies at different values of {names} (the default where the "
                f"label shows none), mean {rank} per {d.unit} with 95% intervals: is it better "
                "to be faster or to play smarter?",
                [("by_parameter", tables["by_parameter"])],
                [f"by_{p}" for p in d.parameters],
            )
        )
    if "gauntlet" in tables:
        secs.append(
            Section(
                "Gauntlet",
                "The strategy and the baseline in the same seats on the same deals against "
                "the field; diff = strategy - baseline win rate, paired by deal, 95% t "
                "interval.",
                [("gauntlet", tables["gauntlet"])],
            )
        )
    secs += [
        Section(
            "Rating (Plackett-Luce)",
            f"Fitted on the finishing order ({d.ahead_means} is better) of every {d.unit}; ties "
            "handled by Breslow's method; 95% intervals from the Hessian. worth = chance to "
            "finish first at a table holding one of each.",
            [("rating", tables["rating"])],
            ["rating"],
        ),
        Section(
            "Differences that matter",
            "Top strategies compared pairwise by win rate (diff = a - b, 95% t interval). "
            + (
                "Paired by deal at the tables both sat at: each deal was played under every "
                "seating of its duplicate set, so a and b are compared on the same deal "
                "against the same opponents; the t-test runs over deals."
                if method == PAIRED
                else f"Unpaired: the {units} carry no deal column, so each shared {d.unit} is "
                "a unit."
            )
            + " p-values Holm-adjusted over the pairs shown.",
            [("significance", tables["significance"])],
        ),
        Section(
            "Head to head",
            f"How often the row strategy finished ahead of the column strategy ({d.ahead_means}) "
            "over all seat pairs where they shared a table; heatmap counts ties as half.",
            [("head_to_head", tables["head_to_head"])],
            ["head_to_head"],
        ),
    ]
    secs += _game_sections(tables, d, spec)
    for sec in secs:
        sec.lead = _lead(sec, tables, d)
    return secs[:1] + [sec for sec in secs[1:] if any(len(t) for _, t in sec.tables)]


def _game_sections(tables: dict[str, pd.DataFrame], d: Declaration,
                   spec: dict | None) -> list[Section]:  # fmt: skip
    """The sections the game's declaration asks for: seats, neighbours, lengths, matches."""
    units = d.units()
    secs: list[Section] = []
    if "seats" in tables:
        secs.append(
            Section(
                "Seat and first-player advantage",
                "Win rate by seat position relative to the first player, per player count.",
                [("seats", tables["seats"])],
                ["seats"],
            )
        )
    if "neighbours" in tables:
        secs.append(
            Section(
                "Neighbours: whom do you want to sit after?",
                "Win rate of each strategy by the strategy seated directly before it (whose "
                "ends it faces), with 95% Wilson intervals; vs_overall = that win rate minus the "
                "strategy's win rate over all its games; vs_elsewhere = that win rate minus its "
                "win rate with the same strategy at another seat of its table (compared within "
                "each player count, with a 95% interval): the effect of the seat alone, when "
                "more strategies than seats make who shares the table vary. With the balanced "
                "seating design every strategy sits after every other equally often.",
                [("neighbours", tables["neighbours"])],
                ["neighbours"],
            )
        )
    measures = " and ".join(d.length_columns)
    length_tables = [("lengths", tables["lengths"])]
    length_text = (
        f"{measures.capitalize()} per {d.unit}, by player count and by strategy ({units} it "
        "took part in). Percentiles are exact."
    )
    if "outcomes" in tables:
        what = ", ".join(f"{plural(d.unit)} {v}" for v in d.share_columns.values())
        length_text += f" Outcomes: per table size, the share of {what} (95% intervals)."
        length_tables.insert(0, ("outcomes", tables["outcomes"]))
    secs.append(
        Section(
            f"{d.unit.capitalize()} length" + (" and outcomes" if "outcomes" in tables else ""),
            length_text,
            length_tables,
            [f"lengths_{m}" for m in d.length_columns],
        )
    )
    if d.match_name in tables:
        secs.append(Section(d.match_title, _match_text(d, spec or {}), [
            (d.match_name, tables[d.match_name]),
            (f"{d.match_name}_lengths", tables[f"{d.match_name}_lengths"]),
        ], [f"{d.match_name}_scores"]))  # fmt: skip
    return secs


LEADS = {
    "summary": "Win rate per strategy, strongest on top, with 95% intervals; the red mark is "
    "the fair share (the win rate if all were equal).",
    "gauntlet": "The strategy and the baseline on the same deals against the same field.",
    "rating": "Rating from the whole finishing order, strongest on top, with 95% intervals.",
    "significance": "Which differences in win rate between the top strategies are real, "
    "and which could be chance.",
    "head_to_head": "How often each strategy (row) finished ahead of each other one (column).",
    "seats": "Win rate by seat position after the first player, per table size; dashed: the "
    "fair share.",
    "neighbours": "Win rate of each strategy by the strategy seated directly before it; the grey "
    "bar is its win rate over all its seats.",
}


def _lead(sec: Section, tables: dict[str, pd.DataFrame], d: Declaration) -> str:
    """The one sentence shown with a section's chart."""
    if not sec.tables:
        return ""
    name = sec.tables[0][0]
    rank = d.rank_value.replace("_", " ")
    if name == "rating":
        return LEADS[name] + order_note(tables["summary"], tables["rating"])
    if name == "means":
        return f"Mean {rank} per {d.unit} by strategy, best on top, with 95% intervals."
    if name == "by_parameter":
        return f"Mean {rank} per {d.unit} of each strategy at each value of its parameters."
    if name in ("lengths", "outcomes"):
        return f"How long a {d.unit} lasts, per table size."
    if name == d.match_name:
        return f"{d.match_title}: the final totals per strategy."
    return LEADS.get(name, "")


def order_note(summary: pd.DataFrame, ratings: pd.DataFrame) -> str:
    """A sentence when the rating and the win rate order the strategies differently."""
    by_wins = summary["strategy"].tolist()
    by_rating = ratings["strategy"].tolist()
    pos = {s: i for i, s in enumerate(by_wins)}
    for i, a in enumerate(by_rating):
        for b in by_rating[i + 1 :]:
            if a in pos and b in pos and pos[a] > pos[b]:
                return (
                    f" The rating puts {a} above {b}, the win rate the other way round: the "
                    "rating uses the whole finishing order (who finishes ahead of whom), not "
                    "only who wins, so a strategy that often comes second can rank higher by "
                    "rating than one that wins more often but also finishes last more often."
                )
    return ""


def _match_text(d: Declaration, spec: dict) -> str:
    rounds = spec.get("rounds")
    target = spec.get("target") or d.match_target
    how = f"of {rounds} {d.units()} each" if rounds else f"to {target} points"
    best = "highest" if d.higher_is_better else "lowest"
    return (
        f"{plural(d.match_unit).capitalize()} {how}; the {best} total wins, ties share the win "
        f"(counted as wins, and in shared_wins). Points per {d.unit}: {d.better} is better."
    )


def _overview(run: Run, out: Path) -> list[tuple[str, str]]:
    """The run in a few lines (the manifest itself is linked, not printed)."""
    g, man, d = run.games, run.manifest, run.declaration
    items = [("game", d.title), (d.units(), f"{len(g):,}")]
    items.append(("strategies", f"{len(g.labels)}: " + ", ".join(g.labels)))
    counts = np.bincount(g.n_players.astype(np.int64))
    items.append(
        ("table sizes", ", ".join(f"{n} players: {c:,}" for n, c in enumerate(counts) if c))
    )
    if "seed" in man:
        items.append(("seed", str(man["seed"])))
    seating = man.get("seating_design")
    if isinstance(seating, dict) and seating.get("kind"):
        per_deal = sorted(set((seating.get("seatings_per_deal") or {}).values()))
        each = f", {'/'.join(map(str, per_deal))} seatings per deal" if per_deal else ""
        items.append(("seating", f"{seating['kind']}{each}"))
    items.append(("design", "duplicate deals (deal column)" if g.deal is not None else "own deals"))
    items.append(("unfinished", f"{int(g.unfinished.sum()):,}"))
    items.append(("forfeited", f"{int(g.forfeited.sum()):,}"))
    if isinstance(man.get("versions"), dict):
        items.append(("versions", ", ".join(f"{k} {v}" for k, v in man["versions"].items())))
    for key in ("wall_time_s", "wall_time", "wall_s", "elapsed_s"):
        if key in man:
            items.append(("wall time", f"{man[key]} s"))
            break
    for key in ("finished", "created"):
        if man.get(key):
            items.append(("date", str(man[key])))
            break
    if "expert" in man:
        items.append(("expert", str(man["expert"])))
    if run.path is not None:
        items.append(("run directory", str(run.path)))
        if (run.path / "manifest.json").exists():
            link = os.path.relpath(run.path / "manifest.json", out.resolve())
            items.append(("manifest", Path(link).as_posix()))
    return items


def _fork_pool() -> ProcessPoolExecutor | None:
    """A one-process pool forked from this one (nothing re-imported, the tables sent as they
    are made), or None where that is not possible or useful: one core, no fork, a daemonic
    worker, or LEAVES_REPORT_SERIAL set."""
    if (os.cpu_count() or 1) < 2 or os.environ.get("LEAVES_REPORT_SERIAL"):
        return None
    if "fork" not in mp.get_all_start_methods() or mp.current_process().daemon:
        return None
    try:
        return ProcessPoolExecutor(1, mp_context=mp.get_context("fork"))
    except (OSError, ValueError):
        return None


Tables = dict[str, pd.DataFrame]


def compute_tables(run: Run, top: int = 5, ready: Callable[[Tables], None] | None = None
                   ) -> tuple[Tables, str]:  # fmt: skip
    """All report tables of a run (keys = CSV stems) and the significance method used; which
    tables there are follows the run's game declaration. ``ready(tables so far)`` is called
    after each table (the report draws a chart as soon as its table exists); the tables whose
    charts take longest to draw come first."""
    g = run.games
    d = run.declaration
    t: Tables = {}

    def add(name: str, table: pd.DataFrame | None) -> None:
        if table is not None:
            t[name] = table
            if ready is not None:
                ready(t)

    add("summary", summary(g))
    order = t["summary"]["strategy"].tolist()
    add("means", means(g))
    add("by_parameter", by_parameter(g))
    if d.turn_order:
        add("neighbours", neighbours(g, order=order))
    add("head_to_head", head_to_head(g, order=order))
    if d.has_first_player:
        add("seats", seats(g))
    add("completion", completion(g))
    add("lengths", lengths(g))
    add("lengths_hist", length_distribution(g))
    add("outcomes", outcomes(g))
    add("significance", significance(g, top=top, order=order))
    add("rating", rating(g))
    if gauntlet_design(run) is not None:
        add("gauntlet", gauntlet(run))
    if g.match is not None:
        add(d.match_name, expert(run))
        add(f"{d.match_name}_scores", expert_scores(run))
        add(f"{d.match_name}_lengths", expert_lengths(run))
    method = t["significance"]["method"].iloc[0] if len(t["significance"]) else "none"
    return _in_order(t, d), method


def _in_order(t: Tables, d: Declaration) -> Tables:
    """The tables in the order the page and the CSV listing present them."""
    first = ["summary", "means", "by_parameter", "head_to_head", "seats", "neighbours"]
    keys = [k for k in first if k in t] + [k for k in t if k not in first]
    return {k: t[k] for k in keys}


ChartJob = tuple[str, tuple, dict]  # (function in reports.charts, args, keyword args)


def _chart_jobs(t: Tables, d: Declaration) -> dict[str, ChartJob]:
    """The charts of the tables made so far, as calls a worker process can make (tables pickle
    cheaply): each chart as soon as the tables it draws exist."""
    jobs: dict[str, ChartJob] = {}
    if "summary" in t:
        jobs["win_rates"] = ("win_rates", (t["summary"],), {"unit": d.unit})
    if "means" in t and d.rank_value in d.mean_columns:
        jobs["means"] = ("means", (t["means"], d.rank_value, d.better, d.unit), {})
    if "by_parameter" in t:
        for p, sub in t["by_parameter"].groupby("parameter"):
            jobs[f"by_{p}"] = ("by_parameter", (sub, d.rank_value, d.unit), {})
    if "rating" in t and len(t["rating"]) > 1:
        jobs["rating"] = ("rating", (t["rating"],), {})
    if "seats" in t:
        jobs["seats"] = ("seat_advantage", (t["seats"],), {})
    for m in d.length_columns if "lengths_hist" in t else ():
        jobs[f"lengths_{m}"] = ("length_distribution", (t["lengths_hist"], m), {"unit": d.unit})
    if "head_to_head" in t and len(t["head_to_head"]):
        jobs["head_to_head"] = ("head_to_head", (t["head_to_head"],), {})
    if "neighbours" in t and len(t["neighbours"]) and len(t["summary"]) > 1:
        jobs["neighbours"] = ("neighbours", (t["neighbours"],), {})
    scores = f"{d.match_name}_scores"
    if scores in t and d.match_name in t:
        order = t[d.match_name]["strategy"].tolist()
        kw = {"order": order, "better": d.better, "title": d.match_title}
        jobs[scores] = ("expert_scores", (t[scores],), kw)
    return jobs


def _render(job: ChartJob) -> bytes:
    from . import charts

    name, args, kwargs = job
    return _png(getattr(charts, name)(*args, **kwargs))


def _warm() -> None:
    """Import matplotlib in the chart worker while the parent still reads the run."""
    import matplotlib.backends.backend_agg  # noqa: F401

    from . import charts  # noqa: F401


def _make_charts(t: dict[str, pd.DataFrame], d: Declaration) -> dict[str, Figure]:
    """The report's charts as Figures (for callers that want to draw more on them)."""
    from . import charts

    return {k: getattr(charts, f)(*a, **kw) for k, (f, a, kw) in _chart_jobs(t, d).items()}


def build_report(source: Any, out: str | Path | None = None, fmt: str = "html",
                 top: int = 5) -> Path:  # fmt: skip
    """Write the report of a run (directory, results object, Run or games DataFrame) into
    ``out`` (default: RUN_DIR/report, or ./report) and return the page's path: report.html
    or report.md, next to findings.txt (the key findings), summary.csv, head_to_head.csv,
    lengths.csv, rating.csv, significance.csv, the tables the game's declaration asks for
    (13 Leaves: seats.csv, neighbours.csv; Ligretto: means.csv, by_parameter.csv,
    outcomes.csv), the match tables of runs of matches (expert.csv, ...) and charts/*.png.
    With two cores or more, the charts are drawn in a worker process forked at the start
    (matplotlib imports there while the run loads here)."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown report format {fmt!r}: choose html or md")
    start = time.perf_counter()
    pool = _fork_pool()
    futures: dict[str, Future] = {}
    try:
        if pool is not None:
            pool.submit(_warm)
        import_student_t()
        run = as_run(source)
        if out is None:
            out = (run.path / "report") if run.path is not None else Path("report")
        out = Path(out)
        (out / "charts").mkdir(parents=True, exist_ok=True)

        def draw(t: Tables) -> None:  # each chart to the worker once its tables exist
            for k, job in _chart_jobs(t, run.declaration).items():
                if k not in futures:
                    futures[k] = pool.submit(_render, job)

        tables, method = compute_tables(run, top=top, ready=draw if pool is not None else None)
        jobs = _chart_jobs(tables, run.declaration)
        for name, df in tables.items():
            df.to_csv(out / f"{name}.csv", index=False)
        secs = _sections(tables, method, run.declaration, run.manifest.get("spec"))
        (out / FINDINGS_FILE).write_text("\n".join(secs[0].bullets) + "\n", encoding="utf-8")
        images = {k: _render(job) for k, job in jobs.items() if k not in futures}
        images.update(_results(futures, jobs))
    finally:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
    for name, png in images.items():
        (out / "charts" / f"{name}.png").write_bytes(png)
    return write_page(out, fmt, _title(run), _overview(run, out), secs, images, start)


def _results(futures: dict[str, Future], jobs: dict[str, ChartJob]) -> dict[str, bytes]:
    images = {}
    for k, fut in futures.items():
        try:
            images[k] = fut.result()
        except Exception:  # noqa: BLE001 - a lost worker: draw it here, the same chart
            images[k] = _render(jobs[k])
    return images


def write_page(out: Path, fmt: str, title: str, overview: list[tuple[str, str]],
               secs: list[Section], images: dict[str, bytes], start: float) -> Path:  # fmt: skip
    """Render the sections into OUT/report.html or OUT/report.md and return its path (the
    run summary follows the first section: the answers first, then what the run was)."""
    overview = [*overview, ("report built in", f"{time.perf_counter() - start:.1f} s")]
    if fmt == "html":
        page, path = render_html(title, overview, secs, images), out / "report.html"
    else:
        page, path = render_md(title, overview, secs, images), out / "report.md"
    path.write_text(page, encoding="utf-8")
    return path


def _title(run: Run) -> str:
    name = run.manifest.get("name") or (run.path.name if run.path is not None else "run")
    return f"Tournament report: {name}"
