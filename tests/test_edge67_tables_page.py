"""The report page's tables as a reader meets them: the two win rates a difference is taken
of beside it, the game's units in the column headings, one fair-share column where par reads
the same, one format per column, a match length's unit, and text that wraps on a phone."""

from __future__ import annotations

import json
import re
import subprocess

import pandas as pd
import pytest

from reports.expert import expert_lengths
from reports.page import CSS, Section, key_rows, readable, render_html, render_md
from reports.synthetic import synthetic_expert
from tests.test_browser_pages import FLAGS, _browser, needs_browser


def _cells(page: str) -> list[list[str]]:
    """The rows of the first table on an HTML page, headings first, as its cells read."""
    table = re.search(r"<table>(.*?)</table>", page, re.S).group(1)
    return [re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row)
            for row in re.findall(r"<tr>(.*?)</tr>", table)]  # fmt: skip


# --- the differences beside the two rates they are taken of ---------------------------------


def test_a_difference_is_shown_beside_the_two_win_rates_at_the_tables_both_sat_at():
    sig = pd.DataFrame({"a": ["weighted"], "b": ["taker"], "method": ["paired"], "units": [28],
                        "win_rate_a": [0.44642857], "win_rate_b": [0.37202381],
                        "diff": [0.07440476], "ci_low": [0.00318], "ci_high": [0.14563],
                        "p_holm": [0.165], "better": [""]})  # fmt: skip
    top, _ = key_rows("significance", sig)
    assert top.columns.tolist() == ["a", "b", "win_rate_a", "win_rate_b", "diff", "ci_low",
                                    "ci_high", "p_holm", "better"]  # fmt: skip
    assert top.iloc[0].tolist() == ["weighted", "taker", "44.6%", "37.2%", "+7.4 pp", "+0.3 pp",
                                    "+14.6 pp", "0.17", ""]  # fmt: skip


# --- the game's units -------------------------------------------------------------------------


def _unit_page(render, unit: str) -> str:
    summary = pd.DataFrame({"strategy": ["row"], "games": [3200], "wins": [1085],
                            "win_rate": [0.339], "ci_low": [0.324], "ci_high": [0.354]})  # fmt: skip
    means = pd.DataFrame({"strategy": ["row"], "seats": [3200], "valid_seats": [3200],
                          "score_mean": [5.168]})  # fmt: skip
    secs = [Section("Key findings"), Section("Summary", tables=[("summary", summary)]),
            Section("Means", tables=[("means", means)])]  # fmt: skip
    return render("t", [], secs, {}, unit=unit)


def test_a_game_of_rounds_heads_its_counts_rounds_on_the_page():
    page = _unit_page(render_html, "round")
    assert _cells(page)[0] == ["strategy", "rounds", "wins", "win_rate", "ci_low", "ci_high"]
    heads = re.findall(r"<th[^>]*>([^<]*)</th>", page)
    assert "valid_seats" in heads and "games" not in heads and "valid_games" not in heads
    md = _unit_page(render_md, "round")
    assert "| strategy | rounds | wins | win_rate | ci_low | ci_high |" in md
    assert "| strategy | seats | valid_seats | score_mean |" in md
    assert "games" not in md


def test_a_game_of_games_keeps_its_headings():
    page = _unit_page(render_html, "game")
    assert _cells(page)[0] == ["strategy", "games", "wins", "win_rate", "ci_low", "ci_high"]


# --- fair and par -----------------------------------------------------------------------------


def _seats(par: float) -> pd.DataFrame:
    return pd.DataFrame({"n_players": [4, 4], "position": [0, 1], "games": [5040, 5040],
                         "wins": [1391, 1275], "win_rate": [0.276, 0.253],
                         "ci_low": [0.258, 0.236], "ci_high": [0.294, 0.27], "fair": [0.25, 0.25],
                         "par": [par, par]})  # fmt: skip


def test_seats_show_one_fair_share_where_par_reads_as_fair():
    top, _ = key_rows("seats", _seats(0.25))
    assert top.columns.tolist() == ["n_players", "position", "games", "win_rate", "ci_low",
                                    "ci_high", "fair"]  # fmt: skip
    page = render_html("t", [], [Section("Seats", tables=[("seats", _seats(0.25))])], {})
    assert "<p class='note'>seats</p>" in page


def test_seats_show_par_beside_fair_where_it_differs_and_say_what_it_is():
    top, _ = key_rows("seats", _seats(0.2391))
    assert top[["1/players", "par"]].iloc[0].tolist() == ["25.0%", "23.9%"]
    page = render_html("t", [], [Section("Seats", tables=[("seats", _seats(0.2391))])], {},
                       unit="round")  # fmt: skip
    note = ("<p class='note'>seats (par: the win rate if each round&#x27;s wins went to its "
            "seats at random, below 1/players where a round counts as nobody&#x27;s win, above it "
            "where tied players share a win)</p>")  # fmt: skip
    assert note in page


# --- one format per column --------------------------------------------------------------------


def test_a_column_of_means_has_one_count_of_decimals():
    means = pd.DataFrame({"strategy": list("abcde"), "score_mean": [5.269, 5.14, 2.14, 0.1846,
                                                                   0.06975]})  # fmt: skip
    page = render_html("t", [], [Section("Means", tables=[("means", means)])], {})
    assert [row[1] for row in _cells(page)] == ["score_mean", "5.269", "5.140", "2.140", "0.185",
                                                "0.070"]  # fmt: skip


def test_whole_figures_stay_whole_and_no_figure_but_0_reads_0():
    df = pd.DataFrame({"p10": [3.0, 4.0], "mean": [4.4267, 12.5], "s": [1234.4, 2.6],
                       "t": [1234.4, 0.4], "u": [5.269, 0.00004]})  # fmt: skip
    page = render_html("t", [], [Section("L", tables=[("lens", df)])], {})
    assert _cells(page)[1:] == [["3", "4.43", "1,234", "1,234.4", "5.26900"],
                                ["4", "12.50", "3", "0.4", "0.00004"]]  # fmt: skip


def test_a_difference_column_writes_every_row_with_the_same_decimals():
    nb = pd.DataFrame({"strategy": ["w", "w", "w"], "before": ["t", "g", "w"],
                       "vs_elsewhere": [0.0205, 0.0175, -0.0095],
                       "vs_elsewhere_low": [0.00022, -0.01279, -0.01898],
                       "vs_elsewhere_high": [0.04078, 0.04779, -0.00002]})  # fmt: skip
    shown = readable("neighbours", nb)
    assert shown["vs_elsewhere"].tolist() == ["+2.050 pp", "+1.750 pp", "-0.950 pp"]
    assert shown["vs_elsewhere_low"].tolist() == ["+0.022 pp", "-1.279 pp", "-1.898 pp"]
    assert shown["vs_elsewhere_high"].tolist() == ["+4.078 pp", "+4.779 pp", "-0.002 pp"]


# --- a match's length -------------------------------------------------------------------------


def test_the_match_lengths_say_they_are_games_a_match():
    games, matches = synthetic_expert({"x": 1.0, "y": 0.0, "z": -1.0}, players=(3,), matches=30)
    lengths = expert_lengths(games, matches=matches)
    assert lengths.attrs["measured"] == "match length in games: mean, median, p10, p90, max"
    page = render_html("t", [], [Section("Matches", tables=[("expert_lengths", lengths)])], {})
    said = "expert_lengths (match length in games: mean, median, p10, p90, max)"
    assert f"<p class='note'>{said}</p>" in page
    md = render_md("t", [], [Section("Matches", tables=[("expert_lengths", lengths)])], {})
    assert f"`{said.replace(' (', '` (', 1)}" in md


# --- a phone's width --------------------------------------------------------------------------

SEED = "seed " + "1234567890" * 8


def test_the_css_lets_list_items_and_paragraphs_wrap_anywhere():
    rules = dict(re.findall(r"([^{}]+)\{([^}]*)\}", CSS))
    wraps = {s.strip() for sel, body in rules.items() if "overflow-wrap:anywhere" in body
             for s in sel.split(",")}  # fmt: skip
    assert {"li", "p", "dd"} <= wraps, rules


TEXT_CHECK = """<script>
window.addEventListener("load", () => {
  const width = document.documentElement.clientWidth;
  const past = [...document.querySelectorAll("li, p, dd")].filter(e => {
    const r = document.createRange();
    r.selectNodeContents(e);
    return r.getBoundingClientRect().right > width + 1;
  }).map(e => e.tagName);
  const out = document.createElement("pre");
  out.id = "text-check";
  out.textContent = JSON.stringify({width, past});
  document.body.appendChild(out);
});
</script>"""
"""Which paragraphs, list items and run values have text reaching past the window's right
edge (a text's own extent: its box stays inside while the words run out of it)."""


@needs_browser
@pytest.mark.slow
def test_a_long_seed_in_a_finding_stays_inside_a_phone_s_width(tmp_path):
    secs = [Section("Key findings", "In words.", bullets=[f"The run's {SEED} replays it."],
                    lead=f"Seed {SEED}.")]  # fmt: skip
    page = tmp_path / "report.html"
    html = render_html("t", [("seed", SEED)], secs, {})
    page.write_text(html.replace("</body>", TEXT_CHECK + "</body>"), encoding="utf-8")
    done = subprocess.run([_browser(), *FLAGS, f"--user-data-dir={tmp_path / 'profile'}",
                           "--window-size=420,900", "--dump-dom", page.as_uri()],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    found = re.search(r'<pre id="text-check">(.*?)</pre>', done.stdout, re.S)
    assert found, (done.returncode, done.stderr[-2000:])
    got = json.loads(found.group(1).replace("&quot;", '"'))
    assert got["width"] <= 500 and got["past"] == [], got  # headless lays out 500 px at least
