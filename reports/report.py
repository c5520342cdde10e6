"""The report: every table as CSV, every chart as PNG, and one self-contained HTML page (charts
embedded as base64 PNG, inline CSS, no scripts, no network) or a Markdown page."""

from __future__ import annotations

import io
import json
import multiprocessing as mp
import os
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pandas as pd

from gamekit.errors import shown
from tournaments.checks import make_out, optional_path
from tournaments.declaration import Declaration
from tournaments.run_state import RunState, run_state

from .data import Run
from .declared import by_parameter, means, outcomes
from .expert import expert, expert_lengths, expert_scores
from .findings import key_findings
from .gauntlet import design as gauntlet_design
from .gauntlet import gauntlet
from .loading import as_run
from .metagame_tables import metagame
from .neighbours import neighbours
from .page import Section, html_table, md_table, render_html, render_md
from .rating import rating
from .sections import overview, sections
from .significance import significance, top_count
from .tables import (
    completion,
    head_to_head,
    length_distribution,
    lengths,
    ranked,
    seats,
    summary,
)

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


def compute_tables(source: Any, top: int = 5, ready: Callable[[Tables], None] | None = None
                   ) -> tuple[Tables, str]:  # fmt: skip
    """All report tables of a run (keys = CSV stems) and the significance method used; which
    tables there are follows the run's game declaration. ``source`` is anything a report
    takes (``as_run``: a run directory, a results object, a Run, Games or a games DataFrame),
    as for every other report function. ``ready(tables so far)`` is called after each table
    (the report draws a chart as soon as its table exists); the tables whose charts take
    longest to draw come first. The paired comparisons and the neighbours leave the games
    ended by a forfeit out (``significance``, ``neighbours``), as the seats and the lengths do:
    where every game was, none of the four has a game to count (no neighbours or seats table,
    a lengths table of no rows)."""
    top = top_count(top)
    run = as_run(source)
    g = run.games
    d = run.declaration
    t: Tables = {}
    valid = not g.forfeited.all()  # else no game for the tables that leave forfeits out

    def add(name: str, table: pd.DataFrame | None) -> None:
        if table is not None:
            t[name] = table
            if ready is not None:
                ready(t)

    add("summary", summary(g))
    order = t["summary"]["strategy"].tolist()
    add("means", means(g))
    add("by_parameter", by_parameter(run))  # its manifest: what each entrant played at
    if d.turn_order and valid:
        add("neighbours", neighbours(g, order=order))
    add("head_to_head", head_to_head(g, order=order))
    if d.has_first_player and valid:
        add("seats", seats(g))
    add("completion", completion(g))
    add("lengths", lengths(g))
    if valid:
        add("lengths_hist", length_distribution(g))
    add("outcomes", outcomes(g))
    add("significance", significance(g, top=top, order=ranked(t["summary"])))
    add("rating", rating(g))
    if gauntlet_design(run) is not None:
        add("gauntlet", gauntlet(run))
    if g.match is not None:
        add(d.match_name, expert(run))
        add(f"{d.match_name}_scores", expert_scores(run))
        add(f"{d.match_name}_lengths", expert_lengths(run))
    for name, table in metagame(run).items():  # only where the tables cover every multiset
        add(name, table)
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
    if "metagame_trajectory" in t:
        jobs["metagame_trajectory"] = ("metagame_trajectory", (t["metagame_trajectory"],), {})
    return jobs


def _render(job: ChartJob) -> bytes:
    from . import charts  # start-up: matplotlib loads to draw

    name, args, kwargs = job
    return _png(getattr(charts, name)(*args, **kwargs))


def _warm() -> None:
    """Import matplotlib in the chart worker while the parent still reads the run."""
    import matplotlib.backends.backend_agg  # noqa: F401  # start-up: in the chart worker

    from . import charts  # noqa: F401  # start-up: as above


def _make_charts(t: dict[str, pd.DataFrame], d: Declaration) -> dict[str, Figure]:
    """The report's charts as Figures (for callers that want to draw more on them)."""
    from . import charts  # start-up: matplotlib loads to draw

    return {k: getattr(charts, f)(*a, **kw) for k, (f, a, kw) in _chart_jobs(t, d).items()}


def build_report(source: Any, out: str | Path | None = None, fmt: str = "html",
                 top: int = 5, state: RunState | None = None) -> Path:  # fmt: skip
    """Write the report of a run (directory, results object, Run or games DataFrame) into
    ``out`` (default: RUN_DIR/report, or ./report) and return the page's path: report.html
    or report.md, next to findings.txt (the key findings), summary.csv, head_to_head.csv,
    lengths.csv, rating.csv, significance.csv, the tables the game's declaration asks for
    (seats.csv, neighbours.csv, means.csv, by_parameter.csv, outcomes.csv, as it declares),
    the match tables of runs of matches (expert.csv, ...) and charts/*.png.
    With two cores or more, the charts are drawn in a worker process forked at the start
    (matplotlib imports there while the run loads here). ``state``: where the run stands
    (``tournaments.run_state``), as a command that also prints it read it (default: read now),
    so the page and the terminal say the same of a run still being written."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown report format {fmt!r}: choose html or md")
    top = top_count(top)
    out = optional_path(out, "out")  # an empty name is refused, not read as "."
    if state is not None and not isinstance(state, RunState):
        raise TypeError(f"state takes a tournaments.run_state.RunState or None, got {shown(state)}")
    start = time.perf_counter()
    pool = _fork_pool()
    futures: dict[str, Future] = {}
    try:
        if pool is not None:
            pool.submit(_warm)
        run = as_run(source)
        if out is None:
            out = (run.path / "report") if run.path is not None else Path("report")
        make_out(out)  # one ValueError for a folder under a file, or one the system refuses
        (out / "charts").mkdir(exist_ok=True)

        def draw(t: Tables) -> None:  # each chart to the worker once its tables exist
            for k, job in _chart_jobs(t, run.declaration).items():
                if k not in futures:
                    futures[k] = pool.submit(_render, job)

        tables, method = compute_tables(run, top=top, ready=draw if pool is not None else None)
        jobs = _chart_jobs(tables, run.declaration)
        for name, df in tables.items():
            df.to_csv(out / f"{name}.csv", index=False)
        secs = sections(tables, method, run.declaration, run.manifest.get("spec"))
        if state is None and run.path is not None:
            state = run_state(run.path)
        # where the run stands first, then what still says something: as the notebook's Report
        secs[0].bullets = [f.text for f in key_findings(tables, method, run.declaration, state)]
        secs[0].links = []  # per bullet: the key findings link nothing
        (out / FINDINGS_FILE).write_text("\n".join(secs[0].bullets) + "\n", encoding="utf-8")
        images = {k: _render(job) for k, job in jobs.items() if k not in futures}
        images.update(_results(futures, jobs))
    finally:
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)
    for name, png in images.items():
        (out / "charts" / f"{name}.png").write_bytes(png)
    page = write_page(
        out,
        fmt,
        _title(run),
        overview(run, out, state),
        secs,
        images,
        start,
        unit=run.declaration.unit,
    )
    written = {*(f"{name}.csv" for name in tables), *(f"charts/{k}.png" for k in images),
               FINDINGS_FILE, page.name}  # fmt: skip
    _clear_stale(out, written)
    return page


WRITTEN = ".report-files"
"""The list of the files a report wrote in its folder, for the next report there to remove
those it does not write again (and nothing else: a user's own files stay)."""


def _clear_stale(out: Path, written: set[str]) -> None:
    """Remove what the report written before in ``out`` left that this one did not write again
    (its own list, ``WRITTEN``), so every file of a report beside the page is this run's: a
    meta-game, a gauntlet's or another game's table from another run would contradict the
    page. A file no report of ours wrote is never touched."""
    listed = out / WRITTEN
    try:
        before = json.loads(listed.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        before = []  # none yet (or written by an older version): nothing is removed
    stale = (
        {r for r in before if isinstance(r, str)} - written if isinstance(before, list) else set()
    )
    folders = {out.resolve(), (out / "charts").resolve()}
    for rel in stale:
        path = out / rel
        if path.parent.resolve() in folders:  # a name of ours, never a path elsewhere
            path.unlink(missing_ok=True)
    listed.write_text(json.dumps(sorted(written)), encoding="utf-8")


def _results(futures: dict[str, Future], jobs: dict[str, ChartJob]) -> dict[str, bytes]:
    images = {}
    for k, fut in futures.items():
        try:
            images[k] = fut.result()
        except Exception:  # noqa: BLE001 - a lost worker: draw it here, the same chart
            images[k] = _render(jobs[k])
    return images


def write_page(out: Path, fmt: str, title: str, overview: list[tuple[str, str]],
               secs: list[Section], images: dict[str, bytes], start: float, *,
               unit: str = "game") -> Path:  # fmt: skip
    """Render the sections into OUT/report.html or OUT/report.md and return its path (the
    run summary follows the first section: the answers first, then what the run was);
    ``unit``: what one row is, as the game declares it, the word the tables' headings use."""
    overview = [*overview, ("report built in", f"{time.perf_counter() - start:.1f} s")]
    if fmt == "html":
        page, path = render_html(title, overview, secs, images, unit), out / "report.html"
    else:
        page, path = render_md(title, overview, secs, images, unit), out / "report.md"
    path.write_text(page, encoding="utf-8")
    return path


def _title(run: Run) -> str:
    name = run.manifest.get("name") or (run.path.name if run.path is not None else "run")
    return f"{'Gauntlet' if gauntlet_design(run) is not None else 'Tournament'} report: {name}"
