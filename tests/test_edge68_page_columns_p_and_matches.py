"""The page's tables write a column of p-values in one form (``reports.numbers.p_column``): a
real run's neighbours table holds a tiny, a middling and a large p and prints all three in
powers of ten to one number of digits, the floor as '< 1e-16', each set right as a figure;
with none below 0.001 each in decimals as a sentence writes it, so a finding's p is its cell's;
the variants' 'p (Holm)' columns likewise; the CSVs keep the floats. A game's match table is
read as what it is, whatever the game names its file: Ligretto's (``matches``) shows the
columns and percentages 13 Leaves' (``expert``) shows, headed in the game's words ('games',
'game_win_rate'), and the full table, which keeps the CSV's columns, says what a match is."""

from __future__ import annotations

import html
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from reports.numbers import p_column, p_text
from reports.variants_tables import every_differences, ladder_rows

from .helpers import cli, cli_output
from .test_variants64_words import SETS, _compare, _measure

POWER = re.compile(r"\d\.\d+e-\d\d")
FLOOR = "< 1e-16"


def _tables(page: str) -> dict[str, tuple[list[str], list[list[str]], list[str]]]:
    """Each key table of an HTML page by the first word of its note: (headings, rows of
    cells, each cell's class)."""
    found = {}
    for note, body in re.findall(r"<p class='note'>([^<]*)</p><div class=\"tw\"><table>(.*?)"
                                 r"</table>", page):  # fmt: skip
        heads = [html.unescape(h) for h in re.findall(r"<th(?: class=\"n\")?>(.*?)</th>", body)]
        rows = re.findall(r"<tr>(<td.*?)</tr>", body)
        cells = [[html.unescape(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", r)] for r in rows]
        classes = re.findall(r"<td( class=\"n\")?>", body)
        found.setdefault(html.unescape(note).split(" ")[0].rstrip(":"), (heads, cells, classes))
    return found


def _column(table: tuple[list[str], list[list[str]], list[str]], name: str) -> list[str]:
    heads, rows, _ = table
    return [r[heads.index(name)] for r in rows]


def _one_form(cells: list[str]) -> bool:
    """Every figure of a column in one form (the floor apart), in powers of ten to one number
    of digits; in decimals each has its own, as a sentence writes it ('0.21', '0.049')."""
    figures = [c for c in cells if c != FLOOR]
    power = {bool(POWER.fullmatch(c)) for c in figures}
    digits = {len(c.split("e")[0]) for c in figures}
    return len(power) <= 1 and (power != {True} or len(digits) == 1)


@pytest.fixture(scope="module")
def weighted(tmp_path_factory) -> Path:
    run = tmp_path_factory.mktemp("p") / "run"
    code, _, err = cli_output("tournament", "weighted", "taker", "counter", "random",
                              "--players", "4", "--games", "2000", "--seed", "3", "--jobs", "1",
                              "--out", str(run))  # fmt: skip
    assert code == 0, err
    code, _, err = cli_output("report", str(run))
    assert code == 0, err
    return run / "report"


def test_a_tiny_a_middling_and_a_large_p_print_in_one_form(weighted):
    tables = _tables((weighted / "report.html").read_text())
    kept = pd.read_csv(weighted / "neighbours.csv")["vs_elsewhere_p"]
    cells = _column(tables["neighbours"], "vs_elsewhere_p")
    assert len(cells) == len(kept)  # the whole table shown (ranked by the difference)
    assert kept.min() < 0.001 and ((kept > 0.001) & (kept < 0.05)).any() and kept.max() > 0.1
    assert all(POWER.fullmatch(c) for c in cells) and _one_form(cells), cells
    assert np.allclose(sorted(float(c) for c in cells), sorted(kept), rtol=0.06)  # rounded
    assert sum(float(c) < 0.05 for c in cells) == sum(kept < 0.05)
    sig = _column(tables["significance"], "p_holm")
    assert FLOOR in sig and _one_form(sig) and "0.21" in sig, sig  # the floor as sentences say
    said = (weighted / "findings.txt").read_text()  # weighted over taker: p 0.208, Holm's alike
    assert "over taker" in said and "p = 0.21): not significant" in said, said  # the cell's figure
    for name, col in (("neighbours", "vs_elsewhere_p"), ("significance", "p_holm")):
        heads, rows, classes = tables[name]
        width = len(heads)
        at = heads.index(col)
        assert all(classes[i * width + at] for i in range(len(rows))), name  # set right
    assert pd.read_csv(weighted / "significance.csv")["p_holm"].dtype == float  # floats kept


def _diffs(ps: list[float]) -> pd.DataFrame:
    turns = 40 + np.linspace(-1, 1, SETS)
    _, diffs = _compare(
        [_measure("unfinished", np.zeros(SETS), True), _measure("turns", turns, False)],
        [_measure("unfinished", np.r_[np.full(19, 0.25), 0.5], True),
         _measure("turns", turns[::-1] + 0.5, False)],
    )  # fmt: skip
    diffs = pd.concat([diffs, diffs.iloc[[0]]], ignore_index=True)
    return diffs.assign(p_holm=ps)


@pytest.mark.parametrize(
    ("ps", "said"),
    [([3e-5, 0.049, 0.21], ["3.0e-05", "4.9e-02", "2.1e-01"]),
     ([0.003, 0.049, 0.21], ["0.003", "0.049", "0.21"]),
     ([np.nan, 0.0496, 1e-20], ["", "0.0496", FLOOR])],  # below the level, so it reads
)  # fmt: skip
def test_the_variants_p_columns_are_written_whole(ps, said):
    assert list(every_differences(_diffs(ps))["p (Holm)"]) == said
    ladder = pd.DataFrame({
        "rules": "default", "upper": ["a", "b", "c"], "lower": ["b", "c", "d"],
        "diff": 0.05, "ci_low": 0.01, "ci_high": 0.09, "p_holm": ps, "significant": True,
        "needs": 0.02, "levels": 2, "rungs": 4, "level": True,
    })  # fmt: skip
    assert list(ladder_rows(ladder)["p (Holm)"]) == said


RUNS = {
    "ligretto": ["--game", "ligretto", "stack", "row", "--players", "2", "--target", "20"],
    "leaves": ["random", "counter", "taker", "--players", "3", "--target", "20"],
}
KEY = ["strategy", "matches", "seats", "match_wins", "shared_wins", "match_win_rate", "ci_low",
       "ci_high", "match_win_rate_split"]  # fmt: skip
SAID = "(a match in these columns is a game of rounds)"


@pytest.mark.parametrize(
    ("game", "name", "match"), [("ligretto", "matches", "game"), ("leaves", "expert", "match")]
)
def test_a_games_match_table_reads_as_every_games(game, name, match, tmp_path, capsys,
                                                    monkeypatch):  # fmt: skip
    monkeypatch.setenv("COLUMNS", "200")
    run, out = str(tmp_path / "run"), tmp_path / "report"
    code, _, err = cli(capsys, "tournament", *RUNS[game], "--games", "12", "--seed", "2",
                       "--jobs", "1", "--expert", "--out", run)  # fmt: skip
    assert code == 0, err
    code, _, err = cli(capsys, "report", run, "--out", str(out))
    assert code == 0, err
    page = (out / "report.html").read_text()
    heads, rows, _ = _tables(page)[name]
    plural = {"game": "games", "match": "matches"}
    words = [re.sub(r"match(es)?", lambda m: plural[match] if m[1] else match, h) for h in KEY]
    assert heads == words
    kept = pd.read_csv(out / f"{name}.csv")
    assert list(kept.columns[:4]) == KEY[:4]  # the CSV keeps every game's names
    assert [r[heads.index(f"{match}_win_rate")] for r in rows] == [
        f"{100 * x:.1f}%" for x in kept["match_win_rate"]
    ]
    lengths = _tables(page)[f"{name}_lengths"][0]
    assert lengths[:2] == ["n_players", "games" if match == "game" else "matches"]
    full = f'<a href="{name}.csv">{name}.csv</a> ({len(kept)} rows) {SAID}'
    assert (full in page) == (match == "game") == (SAID in page)
    keyed = re.search(rf"<p class='note'>{name}[^<]*</p>", page).group(0)
    assert SAID not in keyed  # said beside the CSV's columns only
    md_out = tmp_path / "md"
    code, _, err = cli(capsys, "report", run, "--format", "md", "--out", str(md_out))
    assert code == 0, err
    md = (md_out / "report.md").read_text()
    assert "| " + " | ".join(words) + " |" in md
    assert (f"[`{name}.csv`]({name}.csv) ({len(kept)} rows) {SAID}" in md) == (match == "game")


def test_the_reports_guide_says_what_the_page_writes():
    guide = " ".join((Path(__file__).parents[1] / "docs" / "reports.md").read_text().split())
    assert p_column([9.9e-4, 0.18, 1e-20]) == ["9.9e-04", "1.8e-01", FLOOR]
    assert p_column([0.21, 0.049, 0.003]) == ["0.21", "0.049", "0.003"]  # none below 0.001
    assert [p_text(p) for p in (0.21, 0.049, 0.003)] == ["p = 0.21", "p = 0.049", "p = 0.003"]
    assert ("a column of p-values in one form (where no figure is below 0.001, each in "
            "decimals as a sentence writes it, `0.21`, `0.049`, `0.003`; else every one in "
            "powers of ten, `9.9e-04` above `1.8e-01`, to one number of digits; `< 1e-16` "
            "below the floor)") in guide  # fmt: skip
    heads = ", ".join(f"`{h}`" for h in ("games", "game_wins", "game_win_rate"))
    assert f"heads the key rows above them in the game's word: {heads}" in guide
