"""The report page, HTML or Markdown, as a document: the key findings, a short run summary,
then per section its chart, one sentence and the few numbers that matter, the full table
folded away (``<details>``) and linked as its CSV next to the page."""

from __future__ import annotations

import base64
import html
import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from tournaments.declaration import plural

from .numbers import PP, counted, p_column
from .page_cells import P_COLUMNS, readable, unit_note, void_cells, void_note

KEY_ROWS = 5
"""How many rows of a long table the page shows unfolded."""
ALL_ROWS = 12
"""A table this short is shown whole (a summary of ten strategies hides none of them)."""
WHOLE = ("variants_overview", "variants_sweep_values", "variants_seats", "variants_ladder")
"""Tables always shown whole: each row is an answer of its own (a measure, a value)."""

# per table: the columns that matter, the column to rank rows by (None: keep the table's
# order; a leading "|" ranks by size, largest first) and what the shown rows are
# fmt: off
KEY: dict[str, tuple[tuple[str, ...], str | None, str]] = {
    "summary": (("strategy", "games", "seats", "wins", "win_rate", "ci_low", "ci_high"), None, "strongest"),
    "means": ((), None, "best"),
    "rating": (("rank", "strategy", "rating", "ci_low", "ci_high", "worth"), None, "best rated"),
    "significance": (("a", "b", "win_rate_a", "win_rate_b", "diff", "ci_low", "ci_high", "p_holm",
                      "better"), None, "first"),
    "head_to_head": (("strategy", "opponent", "shared", "ahead_rate", "ci_low", "ci_high",
                      "score"), "|ahead_rate", "most one-sided"),
    "expert": (("strategy", "matches", "seats", "match_wins", "shared_wins", "match_win_rate",
                "ci_low", "ci_high", "match_win_rate_split"), None, "first"),
    "gauntlet": (("strategy", "baseline", "n_players", "games", "win_rate", "baseline_win_rate",
                  "diff", "diff_ci_low", "diff_ci_high", "p_value"), None, "first"),
    "seats": (("n_players", "position", "games", "win_rate", "ci_low", "ci_high", "fair", "par"),
              None, "first"),
    "neighbours": (("strategy", "before", "win_rate", "vs_elsewhere", "vs_elsewhere_low",
                    "vs_elsewhere_high", "vs_elsewhere_p"), "|vs_elsewhere", "strongest"),
    "lengths": (("by", "group", "measure", "games", "mean", "min", "p10", "median", "p90", "max",
                 "p10_p90_share"), None, "first"),
}
# fmt: on


@dataclass
class Section:
    title: str
    text: str = ""  # how it is computed: shown folded with the full tables
    tables: list[tuple[str, pd.DataFrame]] = field(default_factory=list)
    charts: list[str] = field(default_factory=list)  # chart file stems
    bullets: list[str] = field(default_factory=list)  # sentences shown as a list
    lead: str = ""  # the one sentence shown with the chart
    links: list[list[tuple[str, str]]] = field(default_factory=list)  # per bullet: (text, href)
    charts_first: bool = False  # the charts above the bullets (a page that opens with one)

    def empty(self, images: dict[str, bytes]) -> bool:
        """Nothing to show (a one-strategy run has no pairs): the page leaves it out."""
        return (
            not self.bullets
            and not any(len(df) for _, df in self.tables)
            and not any(c in images for c in self.charts)
        )


def fmt(v: Any) -> str:
    """A cell as the page writes it: every count with a thousands separator, whatever its size
    ('2,000' as '12,000'); a fractional figure to four digits, or in whole units with the
    separator from 1,000 on ('1,234', not '1.234e+04')."""
    if isinstance(v, (float, np.floating)):
        if not np.isfinite(v):
            return "" if np.isnan(v) else str(v)
        return f"{v:.4g}" if abs(v) < 1000 else f"{v:,.0f}"
    if isinstance(v, (int, np.integer)) and not isinstance(v, bool):
        return f"{v:,}"
    return str(v)


def _cells(df: pd.DataFrame) -> list[list[str]]:
    """Every cell of ``df`` as the page writes it, each column in one format (``column``); a
    seed is a name, not a count: written whole, with no separator ('123456'); a column of
    p-values not yet written (``P_COLUMNS``, floats) as every p-value column is
    (``p_column``), never '0.00000' of 8.5e-11 beside 0.10849."""
    ids = [str(c) == "seed" or str(c).endswith("_seed") for c in df.columns]
    cols = [_p_or_column(df.iloc[:, i], seed) for i, seed in enumerate(ids)]
    return [list(row) for row in zip(*cols, strict=True)] if cols else [[] for _ in range(len(df))]


def _p_or_column(values: pd.Series, seed: bool) -> list[str]:
    """A column's cells: ``p_column``'s of a column of p-values in floats, else ``column``'s."""
    if values.name in P_COLUMNS and pd.api.types.is_float_dtype(values):
        return p_column(values)
    return column(list(values), seed)


def column(values: list, seed: bool = False) -> list[str]:
    """A column's cells, its fractional figures all with one count of decimals (``decimals``):
    '5.269' above '0.070', never above '0.06975'; counts as ``fmt`` writes them; a ``seed``
    column's whole numbers written whole."""
    d = decimals([v for v in values if isinstance(v, float | np.floating) and np.isfinite(v)])

    def cell(v: Any) -> str:
        if seed and isinstance(v, (int, np.integer)):
            return str(v)
        if not isinstance(v, (float, np.floating)) or not np.isfinite(v):
            return fmt(v)
        text = f"{v:.2e}" if d is None else f"{v:,.{d}f}"
        return f"{0.0:.{d}f}" if d is not None and float(text.replace(",", "")) == 0 else text

    return [cell(v) for v in values]


MOST_DECIMALS = 6
"""The most decimals a column of figures is written with; a column that needs more is in
powers of ten."""


def decimals(figures: list[float]) -> int | None:
    """The decimals of a column of finite ``figures``: four significant digits of the largest
    (none from 1,000 on; fewer where no figure needs them: '0.85', not '0.8500'), more (up to
    ``MOST_DECIMALS``) while a figure not 0 would read 0; None (powers of ten) where all are
    below 0.001, or where one not 0 still reads 0 at the most decimals: '0.000000' of 8.5e-11
    would say it is none."""
    top = max((abs(x) for x in figures), default=0.0)
    if 0 < top < 0.001:
        return None
    d = max(0, 3 - int(np.floor(np.log10(top)))) if top else 0
    while d < MOST_DECIMALS and any(x and round(x, d) == 0 for x in figures):
        d += 1
    if any(x and round(x, d) == 0 for x in figures):
        return None
    return max((len(f"{x:.{d}f}".rstrip("0").partition(".")[2]) for x in figures), default=0)


_NUMBER = re.compile(
    r"(p [=<] |< )?[+-]?(\d[\d,]*(\.\d*)?|\.\d+)(e[+-]?\d+)?( ?(%|" + re.escape(PP) + "))?|[+-]?inf"
)


def numeric_columns(cells: list[list[str]]) -> list[bool]:
    """Per column of written cells (rows of strings): does it hold figures (counts, rates,
    intervals, p-values), set right so that digits line up, or text (names), set left? A
    column of empty cells counts as figures."""
    width = len(cells[0]) if cells else 0
    return [all(not row[i] or _NUMBER.fullmatch(row[i]) for row in cells) for i in range(width)]


def html_table(df: pd.DataFrame) -> str:
    """A table inside its own scrolling box (``tw``): a wide table never widens the page.
    Text columns are set left, figures right (class ``n``), each heading as its column."""
    cells = _cells(df)
    align = [' class="n"' if n else "" for n in numeric_columns(cells)] or [""] * df.shape[1]
    names = [html.escape(str(c)) for c in df.columns]
    head = "".join(f"<th{a}>{c}</th>" for a, c in zip(align, names, strict=True))
    rows = ("".join(f"<td{a}>{html.escape(v)}</td>" for a, v in zip(align, r, strict=True))
            for r in cells)  # fmt: skip
    body = "".join(f"<tr>{r}</tr>" for r in rows)
    return (
        f'<div class="tw"><table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table></div>'
    )


def md_table(df: pd.DataFrame) -> str:
    """A Markdown table, its text columns aligned left and its figures right (``:---``,
    ``---:``), as the HTML page sets them."""

    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    cells = _cells(df)
    rule = ["---:" if n else ":---" for n in numeric_columns(cells)] or ["---"] * df.shape[1]
    lines = ["| " + " | ".join(cell(fmt(c)) for c in df.columns) + " |"]
    lines.append("|" + "|".join(rule) + "|")
    lines += ["| " + " | ".join(cell(v) for v in row) + " |" for row in cells]
    return "\n".join(lines)


def key_rows(name: str, df: pd.DataFrame) -> tuple[pd.DataFrame, str]:
    """The few rows and columns of a table that matter, and a caption saying which; a table
    read as its maker marks it (``attrs["kind"]``: ``reports.expert.KIND``), else by name."""
    name = str(df.attrs.get("kind") or name)
    cols, by, what = KEY.get(name, ((), None, "first"))
    figures = [c for c in df.columns if not str(c).endswith("_no_spread")]  # counts for CSVs
    shown = [c for c in cols if c in df.columns] or _whole_intervals(
        figures[: 99 if name in WHOLE else 7], df
    )
    if name == "lengths" and "by" in df.columns:
        df = df[df["by"] == "n_players"]
    total = len(df)
    if name == "head_to_head" and {"strategy", "ahead_rate"} <= set(df.columns):
        top = df.loc[_closest(df), shown]  # in the strategies' order
        caption = f"each strategy against its closest opponent: {len(top)}"
        return readable(name, top), caption if total > len(top) else ""
    if name == "significance" and total > ALL_ROWS and {"a", "b"} <= set(df.columns):
        top = df.loc[_next_below(df), shown]  # the pairs in doubt, not the leader's wide wins
        return readable(name, top), f"each strategy against the next below it: {len(top)}"
    col = (by or "").lstrip("|")
    if col in df.columns:  # "|col": by size; ahead_rate: by distance from an even 50%
        key = df[col] - 0.5 if col == "ahead_rate" else df[col]
        key = key.abs() if by.startswith("|") else key
        df = df.loc[key.sort_values(ascending=False, na_position="last").index]
    top = df[shown].head(len(df) if len(df) <= ALL_ROWS or name in WHOLE else KEY_ROWS)
    caption = f"the {what} {len(top)}" if len(df) > len(top) else ""
    return _par_if_apart(void_cells(name, df, readable(name, top))), caption


def _par_if_apart(top: pd.DataFrame) -> pd.DataFrame:
    """``top`` without its ``par`` column where it reads as ``fair`` in every row (every game
    had one winner): one column of the fair share, not two alike; where they differ, both,
    ``fair`` headed ``ONE_PER`` (the fair share is then par, as the lead says: ``column_notes``
    says what par is)."""
    if not {"fair", "par"} <= set(top.columns):
        return top
    if list(top["fair"]) == list(top["par"]):
        return top.drop(columns="par")
    return top.rename(columns={"fair": ONE_PER})


ONE_PER = "1/players"
"""The page's heading of a seats table's ``fair`` column beside a ``par`` apart from it."""


def column_notes(df: pd.DataFrame, top: pd.DataFrame, unit: str = "game") -> str:
    """What the note above a table adds about its columns: what its figures count
    (``measured``, as the table's maker says it: 'match length in games', less what a match is,
    the key's headings' words), ``par`` beside ``fair``, the short unit ``PP`` (``unit_note``)."""
    words = str(df.attrs.get("match_words") or "")  # the key's headings say it (``full_note``)
    measured = str(df.attrs.get("measured") or "")  # the match words end it where it has them
    measured = measured.removesuffix(words).removesuffix("; ") if words else measured
    notes = [measured] if measured else []
    if {ONE_PER, "par"} <= set(top.columns):
        notes.append(PAR_MEANS.format(unit=unit))
    return "".join(f" ({n})" for n in notes) + unit_note(top)


PAR_MEANS = ("par: the win rate if each {unit}'s wins went to its seats at random, below "
             "1/players where a {unit} counts as nobody's win, above it where tied players "
             "share a win")  # fmt: skip
"""What a page writes beside a table that shows ``par`` apart from ``fair``."""


def _whole_intervals(shown: list[str], df: pd.DataFrame) -> list[str]:
    """``shown`` less a column cut from its pair (an ``x_ci_low`` whose ``x_ci_high`` fell
    past the columns shown): an interval's one end alone reads as a figure of its own."""
    return [c for c in shown if not (c.endswith("_low") and c[:-4] + "_high" in df.columns
                                     and c[:-4] + "_high" not in shown)]  # fmt: skip


def _next_below(sig: pd.DataFrame) -> list:
    """The rows comparing each strategy with the one ranked next below it (the table lists
    the pairs in the ranking's order): where "real or chance" is in question."""
    rank = {s: i for i, s in enumerate(dict.fromkeys([*sig["a"], *sig["b"]]))}
    return [i for i, a, b in zip(sig.index, sig["a"], sig["b"], strict=True)
            if rank[b] == rank[a] + 1]  # fmt: skip


def _closest(h2h: pd.DataFrame) -> list:
    """Per strategy (in the table's order) the row of the opponent it is most evenly matched
    with: the pairs a reader cannot guess, not random losing to everyone. Even is a score
    (ties count half, as the heatmap's) of 50%: ahead as often as behind; ``ahead_rate``
    counts ties as not ahead, so at 50% a strategy is ahead more often than behind."""
    gap = (h2h["score" if "score" in h2h.columns else "ahead_rate"] - 0.5).abs()
    return gap.groupby(h2h["strategy"], sort=False).idxmin().dropna().tolist()


CHART_MIN = 600
"""The narrowest a chart is drawn (``.cw`` in ``CSS``), in pixels: on a narrower screen (a
phone) it scrolls sideways in its box, as a wide table does, its labels still readable."""


CSS = (
    """
*{box-sizing:border-box}html,body{overflow-x:hidden}
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:2em auto;
max-width:1100px;padding:0 1em;color:#222;line-height:1.45}
h1{border-bottom:2px solid #0072B2;padding-bottom:.2em}h2{margin-top:2em;color:#0072B2}
.tw{overflow-x:auto;max-width:100%;margin:.6em 0}table{border-collapse:collapse;font-size:.85em}
th,td{border:1px solid #ccc;padding:.25em .6em;text-align:left;white-space:nowrap}
th{background:#eef4fa}th.n,td.n{text-align:right}
tr:nth-child(even){background:#fafafa}img{max-width:100%;height:auto;display:block;margin:1em 0}
.note{color:#555;font-size:.9em}.lead{font-size:1.05em}
details{margin:.6em 0 1.2em}summary{cursor:pointer;color:#0072B2}
dl.run{display:grid;grid-template-columns:max-content 1fr;gap:.15em 1em;margin:.5em 0}
dl.run dt{font-weight:bold}dl.run dd{margin:0}dd,li,p{overflow-wrap:anywhere}
"""
    + f".cw img{{min-width:{CHART_MIN}px}}\n"
)


def render_html(title: str, overview: list[tuple[str, str]], secs: list[Section],
                images: dict[str, bytes], unit: str = "game") -> str:  # fmt: skip
    """The self-contained HTML page (inline CSS, charts as base64 PNG, no scripts); ``unit``:
    what one row is, as the game declares it (``Declaration.unit``), the word its tables'
    columns of counts are headed by (``in_units``)."""
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
            parts.append('<h2>Run</h2><dl class="run">')
            parts += [f"<dt>{esc(k)}</dt><dd>{_link_or_text(k, v)}</dd>" for k, v in overview]
            parts.append("</dl>")
        parts.append(f"<h2>{esc(sec.title)}</h2>")
        if sec.lead:
            parts.append(f"<p class='lead'>{esc(sec.lead)}</p>")
        charts = [_html_image(stem, images[stem], sec.title) for stem in sec.charts
                  if stem in images]  # fmt: skip
        parts += charts if sec.charts_first else []
        if sec.bullets:
            parts.append(f"<p class='note'>{esc(sec.text)}</p>")
            items = [esc(b) + _html_links(sec.links[i] if i < len(sec.links) else [])
                     for i, b in enumerate(sec.bullets)]  # fmt: skip
            parts.append("<ul>" + "".join(f"<li>{b}</li>" for b in items) + "</ul>")
        parts += [] if sec.charts_first else charts
        parts += _html_tables(sec, unit)
    parts.append("</body></html>")
    return "\n".join(parts)


def _html_image(stem: str, png: bytes, title: str = "") -> str:
    """A chart inline; its alt text says in words what it shows (a screen reader, a page
    whose images are off), not its file name."""
    b64 = base64.b64encode(png).decode("ascii")
    esc = html.escape
    words = stem.replace("_", " ")
    alt = f"Chart: {title} ({words})" if title else f"Chart: {words}"
    img = f'<img id="chart-{esc(stem)}" alt="{esc(alt)}" src="data:image/png;base64,{b64}">'
    return f'<div class="{_chart_box(png)}">{img}</div>'


def _chart_box(png: bytes) -> str:
    """The classes of a chart's box: a scrolling box (``tw``), and ``cw`` (kept at
    ``CHART_MIN`` pixels at least) unless the picture is narrower than that (never
    enlarged); a picture whose width cannot be read counts as wide."""
    wide = png[12:16] != b"IHDR" or int.from_bytes(png[16:20], "big") >= CHART_MIN
    return "tw cw" if wide else "tw"


def _html_links(links: list[tuple[str, str]]) -> str:
    """' (chart, table.csv)' after a bullet: where its figures are drawn and kept."""
    if not links:
        return ""
    esc = html.escape
    return " <span class='note'>(" + ", ".join(
        f'<a href="{esc(href)}">{esc(text)}</a>' for text, href in links) + ")</span>"  # fmt: skip


def _link_or_text(key: str, value: str | list[tuple[str, str]]) -> str:
    if isinstance(value, list):  # (text, href) pairs: each a link
        return _html_links(value).removeprefix(" <span class='note'>(").removesuffix(")</span>")
    if key == "manifest":
        return f'<a href="{html.escape(value)}">{html.escape(value)}</a>'
    return html.escape(value)


def _html_tables(sec: Section, unit: str) -> list[str]:
    """The key rows of each table, then the method note and the full tables folded."""
    esc = html.escape
    parts, full = [], []
    for name, df in sec.tables:
        if not len(df):
            continue
        top, said = _key_table(name, df, unit)
        parts.append(f"<p class='note'>{esc(name + said)}</p>{html_table(top)}")
        full.append(f"<p class='note'><a href=\"{esc(name)}.csv\">{esc(name)}.csv</a>"
                    f"{esc(full_note(df))}</p>{html_table(in_units(df, unit))}")  # fmt: skip
    if full or (sec.text and not sec.bullets):
        text = "" if sec.bullets else f"<p class='note'>{esc(sec.text)}</p>"
        parts.append(
            "<details><summary>How it is computed, and the full table"
            + ("s" if len(full) > 1 else "")
            + f"</summary>{text}{''.join(full)}</details>"
        )
    return parts


def in_units(df: pd.DataFrame, unit: str, key: bool = False) -> pd.DataFrame:
    """``df`` with its columns headed in the game's units: a count the tables keep as
    ``games`` (``valid_games``, ``baseline_games``) headed ``rounds`` where a row is a round;
    a ``key`` table's match columns in the game's word for a match (``attrs["match_unit"]``:
    'game_win_rate'). The CSVs, and the full tables, keep the names every game's share."""
    match = str(df.attrs.get("match_unit") or "match") if key else "match"
    words = {"games": plural(unit), "matches": plural(match), "match": match}
    return df.rename(columns={c: "_".join(words.get(w, w) for w in c.split("_"))
                              for c in df.columns if isinstance(c, str)})  # fmt: skip


def _key_table(name: str, df: pd.DataFrame, unit: str) -> tuple[pd.DataFrame, str]:
    """A table's key rows headed in the game's words, and what its note says after its name:
    which rows (``key_rows``' caption) and about its columns (``column_notes``)."""
    top, caption = key_rows(name, df)
    said = f": {caption} of {counted(len(df), 'row')}" if caption else ""
    notes = column_notes(df, top, unit) + void_note(name, df, unit)
    return in_units(top, unit, True), said + notes


def full_note(df: pd.DataFrame) -> str:
    """The line above a full table after its CSV's name: its rows, what a match is in its
    columns where the game calls it otherwise (``match_words``), the short unit (``unit_note``)."""
    words = df.attrs.get("match_words", "")
    return f" ({counted(len(df), 'row')})" + (f" ({words})" if words else "") + unit_note(df)


def render_md(title: str, overview: list[tuple[str, str]], secs: list[Section],
              images: dict[str, bytes], unit: str = "game") -> str:  # fmt: skip
    """The Markdown page: the same order, full tables in a plain subsection per section;
    ``unit`` as for ``render_html``."""
    lines = [f"# {title}", ""]
    for i, sec in enumerate(secs):
        if i == 1:  # the answers first, then what the run was
            lines += ["## Run", ""] + [f"- **{k}**: {_md_value(v)}" for k, v in overview] + [""]
        lines += [f"## {sec.title}", ""]
        if sec.lead:
            lines += [sec.lead, ""]
        charts = []
        for stem in sec.charts:
            if stem in images:
                words = stem.replace("_", " ")  # the alt text the HTML page gives it
                charts += [f"![Chart: {sec.title} ({words})](charts/{stem}.png)", ""]
        lines += charts if sec.charts_first else []
        if sec.bullets:
            lines += [sec.text, ""] + [
                f"- {b}" + _md_links(sec.links[i] if i < len(sec.links) else [])
                for i, b in enumerate(sec.bullets)] + [""]  # fmt: skip
        lines += [] if sec.charts_first else charts
        full = []
        for name, df in sec.tables:
            if not len(df):
                continue
            top, said = _key_table(name, df, unit)
            lines += [f"`{name}`{said}", "", md_table(top), ""]
            full += [f"[`{name}.csv`]({name}.csv){full_note(df)}", "",
                     md_table(in_units(df, unit)), ""]  # fmt: skip
        if full or (sec.text and not sec.bullets):
            lines += [f"### {sec.title}: how it is computed", ""]
            lines += ([] if sec.bullets else [sec.text, ""]) + full
    return "\n".join(lines)


def _md_links(links: list[tuple[str, str]]) -> str:
    if not links:
        return ""

    def md(href: str) -> str:  # a chart's anchor on the HTML page is its file here
        return f"charts/{href[len('#chart-') :]}.png" if href.startswith("#chart-") else href

    return " (" + ", ".join(f"[{t}]({md(h)})" for t, h in links) + ")"


def _md_value(value: str | list[tuple[str, str]]) -> str:
    return _md_links(value)[2:-1] if isinstance(value, list) else value
