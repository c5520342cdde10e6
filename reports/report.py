"""The report: every table as CSV, every chart as PNG, and one self-contained HTML page (charts
embedded as base64 PNG, inline CSS, no scripts, no network) or a Markdown page."""

from __future__ import annotations

import base64
import html
import io
import json
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from tournaments.game import Declaration, plural

from . import charts
from .data import Run, as_run
from .declared import by_parameter, means, outcomes
from .expert import expert, expert_lengths, expert_scores
from .findings import key_findings
from .gauntlet import design as gauntlet_design
from .gauntlet import gauntlet
from .neighbours import neighbours
from .rating import rating
from .significance import PAIRED, significance
from .tables import completion, head_to_head, length_distribution, lengths, seats, summary

FORMATS = ("html", "md")
FINDINGS_FILE = "findings.txt"
"""The key findings, one sentence a line, next to the page (the commands print them)."""


@dataclass
class Section:
    title: str
    text: str = ""
    tables: list[tuple[str, pd.DataFrame]] = field(default_factory=list)
    charts: list[str] = field(default_factory=list)  # chart file stems
    bullets: list[str] = field(default_factory=list)  # sentences shown as a list


def _fmt(v: Any) -> str:
    if isinstance(v, (float, np.floating)):
        if not np.isfinite(v):
            return "" if np.isnan(v) else str(v)
        return f"{v:.4g}" if abs(v) < 1e5 else f"{v:,.0f}"
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return f"{v:,}" if abs(v) >= 10_000 else str(v)
    return str(v)


def _html_table(df: pd.DataFrame) -> str:
    head = "".join(f"<th>{html.escape(str(c))}</th>" for c in df.columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{html.escape(_fmt(v))}</td>" for v in row) + "</tr>"
        for row in df.itertuples(index=False)
    )
    return (
        f'<div class="tw"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'
    )


def _md_table(df: pd.DataFrame) -> str:
    def cell(v: Any) -> str:
        return _fmt(v).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(cell(c) for c in df.columns) + " |"]
    lines.append("|" + "|".join("---" for _ in df.columns) + "|")
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in df.itertuples(index=False)]
    return "\n".join(lines)


def _png(fig: Figure) -> bytes:
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    return buf.getvalue()


CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2em auto;
max-width:1100px;padding:0 1em;color:#222;line-height:1.45}
h1{border-bottom:2px solid #0072B2;padding-bottom:.2em}h2{margin-top:2em;color:#0072B2}
.tw{overflow-x:auto;margin:.8em 0}table{border-collapse:collapse;font-size:.85em}
th,td{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th{background:#eef4fa}td:first-child,th:first-child{text-align:left}
tr:nth-child(even){background:#fafafa}img{max-width:100%;height:auto;display:block;margin:1em 0}
.note{color:#555;font-size:.9em}pre{background:#f6f6f6;padding:.8em;overflow-x:auto;font-size:.8em}
"""


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


def _match_text(d: Declaration, spec: dict) -> str:
    rounds = spec.get("rounds")
    target = spec.get("target") or d.match_target
    how = f"of {rounds} {d.units()} each" if rounds else f"to {target} points"
    best = "highest" if d.higher_is_better else "lowest"
    return (
        f"{plural(d.match_unit).capitalize()} {how}; the {best} total wins, ties share the win "
        f"(counted as wins, and in shared_wins). Points per {d.unit}: {d.better} is better."
    )


def _overview(run: Run) -> list[tuple[str, str]]:
    g = run.games
    man = run.manifest
    d = run.declaration
    items = [("game", d.title), (d.units(), f"{len(g):,}"), ("strategies", ", ".join(g.labels))]
    counts = np.bincount(g.n_players.astype(np.int64))
    items.append(("players", ", ".join(f"{n}: {c:,}" for n, c in enumerate(counts) if c)))
    items.append(("unfinished", f"{int(g.unfinished.sum()):,}"))
    items.append(("forfeited", f"{int(g.forfeited.sum()):,}"))
    items.append(("duplicate deals", "yes (deal column)" if g.deal is not None else "no"))
    for key in ("wall_time_s", "wall_time", "wall_s", "elapsed_s", "seed", "expert"):
        if key in man:
            items.append((key, str(man[key])))
    if run.path is not None:
        items.append(("run directory", str(run.path)))
    return items


def compute_tables(run: Run, top: int = 5) -> tuple[dict[str, pd.DataFrame], str]:
    """All report tables of a run (keys = CSV stems) and the significance method used; which
    tables there are follows the run's game declaration."""
    g = run.games
    d = run.declaration
    summ = summary(g)
    order = summ["strategy"].tolist()
    t: dict[str, pd.DataFrame] = {"summary": summ}
    for name, table in (("means", means(g)), ("by_parameter", by_parameter(g))):
        if table is not None:
            t[name] = table
    t["head_to_head"] = head_to_head(g, order=order)
    if d.has_first_player:
        t["seats"] = seats(g)
    if d.turn_order:
        t["neighbours"] = neighbours(g, order=order)
    t["completion"] = completion(g)
    t["lengths"] = lengths(g)
    t["lengths_hist"] = length_distribution(g)
    found = outcomes(g)
    if found is not None:
        t["outcomes"] = found
    t["rating"] = rating(g)
    t["significance"] = significance(g, top=top, order=order)
    if gauntlet_design(run) is not None:
        t["gauntlet"] = gauntlet(run)
    if g.match is not None:
        t[d.match_name] = expert(run)
        t[f"{d.match_name}_scores"] = expert_scores(run)
        t[f"{d.match_name}_lengths"] = expert_lengths(run)
    method = t["significance"]["method"].iloc[0] if len(t["significance"]) else "none"
    return t, method


def _make_charts(t: dict[str, pd.DataFrame], d: Declaration) -> dict[str, Figure]:
    figs = {"win_rates": charts.win_rates(t["summary"], unit=d.unit)}
    if "means" in t and d.rank_value in d.mean_columns:
        figs["means"] = charts.means(t["means"], d.rank_value, d.better, d.unit)
    if "by_parameter" in t:
        for p, sub in t["by_parameter"].groupby("parameter"):
            figs[f"by_{p}"] = charts.by_parameter(sub, d.rank_value, d.unit)
    figs["rating"] = charts.rating(t["rating"])
    if "seats" in t:
        figs["seats"] = charts.seat_advantage(t["seats"])
    for m in d.length_columns:
        figs[f"lengths_{m}"] = charts.length_distribution(t["lengths_hist"], m, unit=d.unit)
    if len(t["head_to_head"]):
        figs["head_to_head"] = charts.head_to_head(t["head_to_head"])
    if "neighbours" in t and len(t["neighbours"]):
        figs["neighbours"] = charts.neighbours(t["neighbours"])
    if f"{d.match_name}_scores" in t:
        figs[f"{d.match_name}_scores"] = charts.expert_scores(
            t[f"{d.match_name}_scores"], order=t[d.match_name]["strategy"].tolist(),
            better=d.better, title=d.match_title,
        )  # fmt: skip
    return figs


def build_report(source: Any, out: str | Path | None = None, fmt: str = "html",
                 top: int = 5) -> Path:  # fmt: skip
    """Write the report of a run (directory, results object, Run or games DataFrame) into
    ``out`` (default: RUN_DIR/report, or ./report) and return the page's path: report.html
    or report.md, next to findings.txt (the key findings), summary.csv, head_to_head.csv,
    lengths.csv, rating.csv, significance.csv, the tables the game's declaration asks for
    (13 Leaves: seats.csv, neighbours.csv; Ligretto: means.csv, by_parameter.csv,
    outcomes.csv), the match tables of runs of matches (expert.csv, ...) and charts/*.png."""
    if fmt not in FORMATS:
        raise ValueError(f"unknown report format {fmt!r}: choose html or md")
    start = time.perf_counter()
    run = as_run(source)
    if out is None:
        out = (run.path / "report") if run.path is not None else Path("report")
    out = Path(out)
    (out / "charts").mkdir(parents=True, exist_ok=True)
    tables, method = compute_tables(run, top=top)
    for name, df in tables.items():
        df.to_csv(out / f"{name}.csv", index=False)
    images: dict[str, bytes] = {}
    for name, fig in _make_charts(tables, run.declaration).items():
        images[name] = _png(fig)
        (out / "charts" / f"{name}.png").write_bytes(images[name])
    secs = _sections(tables, method, run.declaration, run.manifest.get("spec"))
    (out / FINDINGS_FILE).write_text("\n".join(secs[0].bullets) + "\n", encoding="utf-8")
    return write_page(out, fmt, _title(run), _overview(run), run.manifest, secs, images, start)


def write_page(out: Path, fmt: str, title: str, overview: list[tuple[str, str]],
               manifest: dict, secs: list[Section], images: dict[str, bytes],
               start: float) -> Path:  # fmt: skip
    """Render the sections into OUT/report.html or OUT/report.md and return its path (the
    overview follows the first section: the answers first, then what the run was)."""
    build_s = time.perf_counter() - start
    if fmt == "html":
        page = _render_html(title, overview, manifest, secs, images, build_s)
        path = out / "report.html"
    else:
        page = _render_md(title, overview, manifest, secs, images, build_s)
        path = out / "report.md"
    path.write_text(page, encoding="utf-8")
    return path


def _title(run: Run) -> str:
    name = run.manifest.get("name") or (run.path.name if run.path is not None else "run")
    return f"Tournament report: {name}"


def _render_html(title: str, overview: list[tuple[str, str]], manifest: dict,
                 secs: list[Section], images: dict[str, bytes], build_s: float) -> str:  # fmt: skip
    esc = html.escape
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(title)}</title><style>{CSS}</style></head><body>",
        f"<h1>{esc(title)}</h1>",
    ]
    for i, sec in enumerate(secs):
        if i == 1:  # the answers first, then what the run was
            parts.append(
                "<h2>Run</h2><ul>"
                + "".join(f"<li><b>{esc(k)}</b>: {esc(v)}</li>" for k, v in overview)
                + f"<li><b>report built in</b>: {build_s:.1f} s</li></ul>"
            )
        parts.append(f"<h2>{esc(sec.title)}</h2><p class='note'>{esc(sec.text)}</p>")
        if sec.bullets:
            parts.append("<ul>" + "".join(f"<li>{esc(b)}</li>" for b in sec.bullets) + "</ul>")
        for stem in sec.charts:
            if stem in images:
                b64 = base64.b64encode(images[stem]).decode("ascii")
                parts.append(f'<img alt="{esc(stem)}" src="data:image/png;base64,{b64}">')
        for name, df in sec.tables:
            parts.append(f"<p class='note'>{esc(name)}.csv</p>{_html_table(df)}")
    if manifest:
        spec = json.dumps(manifest, indent=2, default=str)
        parts.append(f"<h2>Tournament spec and versions</h2><pre>{esc(spec)}</pre>")
    parts.append("</body></html>")
    return "\n".join(parts)


def _render_md(title: str, overview: list[tuple[str, str]], manifest: dict,
               secs: list[Section], images: dict[str, bytes], build_s: float) -> str:  # fmt: skip
    lines = [f"# {title}", ""]
    for i, sec in enumerate(secs):
        if i == 1:  # the answers first, then what the run was
            lines += ["## Run", ""]
            lines += [f"- **{k}**: {v}" for k, v in overview]
            lines += [f"- **report built in**: {build_s:.1f} s", ""]
        lines += [f"## {sec.title}", "", sec.text, ""]
        if sec.bullets:
            lines += [f"- {b}" for b in sec.bullets] + [""]
        for stem in sec.charts:
            if stem in images:
                lines += [f"![{stem}](charts/{stem}.png)", ""]
        for name, df in sec.tables:
            lines += [f"`{name}.csv`", "", _md_table(df), ""]
    if manifest:
        spec = json.dumps(manifest, indent=2, default=str)
        lines += ["## Tournament spec and versions", "", "```json", spec, "```", ""]
    return "\n".join(lines)
