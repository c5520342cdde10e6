"""A difference's interval is written as the tables write it, its bounds signed, wherever a
sentence writes it ('+1.7 percentage points [-4.4, +7.8]', never '[-4.4, 7.8]', whose unsigned
7.8 beside a signed figure reads as another kind of number), but where the variants' words
carry the direction of a size ('4.0 turns shorter [3.0, 5.0]': the size's interval, clear of
0); a level (a win rate, a share) keeps unsigned bounds; and the figures a sentence writes
read as the table's cells for the same quantity, to the digits both show, each a rounding of
the CSV's full value."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from reports.compare import compare
from reports.findings import key_findings
from reports.gauntlet import fixed_verdict, sequential_sentence
from reports.numbers import difference_interval, fixed, interval, p_text
from reports.page import readable
from reports.variants_display import value_text
from reports.variants_text import findings
from tests.helpers import (
    VARIANT_LABELS,
    cli_output,
    compared_rule_sets,
    variants_diffs,
    variants_metrics,
)
from tournaments.sequential import NOT_BETTER

NUMBER = r"[+-]?\d+(?:\.\d+)?"
DIFF_SPAN = re.compile(
    rf"(?P<fig>{NUMBER}) percentage points?(?P<words>(?: [a-zA-Z]+){{0,4}}) "
    rf"\[(?P<lo>{NUMBER}), (?P<hi>{NUMBER})\]"
)
LEVEL_SPAN = re.compile(rf"\d%(?: of the mass)? \[(?P<lo>{NUMBER}), (?P<hi>{NUMBER})\]")


def _signed(figure: str) -> bool:
    return figure[0] in "+-"


DIRECTION = re.compile(
    r"(?:\b(?:grows|shrinks|rises|falls|raises its win rate|ahead of \S+) by )$"
    r"|^ (?:less|more|shorter|longer|fewer)\b"
)
"""Words that carry a difference's direction, before its size ('grows by') or after its unit
('less'): the interval beside them is of the size (the variants' words)."""


def _spans_signed(text: str) -> list[re.Match]:
    """Every difference's interval of ``text`` has signed bounds, as its table cell writes
    them, but where words carry the direction of a size: then, clear of 0, its bounds are the
    size's, unsigned and above 0, and only across 0 signed; every level's bounds are unsigned.
    The differences' matches."""
    found = list(DIFF_SPAN.finditer(text))
    for m in found:
        said = DIRECTION.search(text[max(0, m.start() - 40) : m.start()]) or DIRECTION.search(
            m["words"]
        )
        if said and not _signed(m["fig"]) and not m["lo"].startswith("-"):  # a size, clear
            assert not _signed(m["lo"]) and not _signed(m["hi"]), m.group(0)
            assert 0 <= float(m["lo"]) <= float(m["fig"]) <= float(m["hi"]), m.group(0)
            continue
        assert _signed(m["lo"]) and _signed(m["hi"]), m.group(0)
    for m in LEVEL_SPAN.finditer(text):
        assert not m["lo"].startswith("+") and not m["hi"].startswith("+"), m.group(0)
    return found


def _decimals(figure: str) -> int:
    return len(figure.split(".")[1]) if "." in figure else 0


def _reads(figure: str, value: float, sign: str = "+") -> None:
    """``figure`` is ``value`` (a rate's fraction) in percentage points, rounded to the
    decimals it shows (signed where ``sign``)."""
    assert figure == fixed(100 * value, _decimals(figure), sign), (figure, value)


def _md_rows(page: str, first: str) -> list[dict[str, str]]:
    """The rows of the page's first Markdown table whose header opens with ``first``."""
    lines = page.splitlines()
    for i, line in enumerate(lines):
        if line.startswith(f"| {first} |"):
            head = [c.strip() for c in line.strip("|").split("|")]
            rows = []
            for row in lines[i + 2 :]:
                if not row.startswith("|"):
                    break
                rows.append(
                    dict(zip(head, (c.strip() for c in row.strip("|").split("|")), strict=True))
                )
            return rows
    raise AssertionError(f"no table opening with {first}")


def _cell(cell: str) -> str:
    """A table cell's figure, without its unit ('+6.5 pp' -> '+6.5')."""
    return cell.removesuffix(" pp")


def test_a_difference_s_interval_has_signed_bounds_and_a_level_s_unsigned():
    assert difference_interval(-0.044, 0.078) == "[-4.4, +7.8]"
    assert difference_interval(0.012, 0.034) == "[+1.2, +3.4]"
    assert difference_interval(-0.0004, 0.0005, digits=2) == "[-0.04, +0.05]"
    assert difference_interval(-0.00001, 0.02) == "[-0.001, +2.000]"  # its side of 0 shown
    assert difference_interval(float("nan"), 0.1) == "(too few deals for an interval)"
    assert interval(0.41, 0.446) == "[41.0, 44.6]"


@pytest.fixture(scope="module")
def tournament(tmp_path_factory) -> tuple[str, str]:
    """A small round robin's report (Markdown) and key findings: 648 games."""
    out = tmp_path_factory.mktemp("t") / "run"
    code, _, err = cli_output("tournament", "greedy", "random", "counter", "--games", "600",
                              "--seed", "1", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    code, said, err = cli_output("report", str(out), "--format", "md")
    assert code == 0, err
    return out / "report", said


@pytest.mark.slow
def test_a_round_robin_s_findings_sign_every_difference_s_interval(tournament):
    folder, said = tournament
    text = (folder / "findings.txt").read_text()
    assert len(_spans_signed(text)) >= 2, text  # the margin and the neighbour effect
    _spans_signed(said)  # as printed
    assert "[-0.5, +19.8]" in text, text  # the neighbour effect, across 0


def test_a_round_robin_s_margin_reads_as_its_significance_cells(tournament):
    folder, _ = tournament
    text = (folder / "findings.txt").read_text()
    m = re.search(rf"It beats the runner-up, (\w+), by (?P<fig>{NUMBER}) percentage points "
                  rf"\[(?P<lo>{NUMBER}), (?P<hi>{NUMBER})\]", text)  # fmt: skip
    assert m, text
    sig = pd.read_csv(folder / "significance.csv").iloc[0]
    assert sig["b"] == m[1]
    _reads(m["fig"], sig["diff"], "")
    _reads(m["lo"], sig["ci_low"])
    _reads(m["hi"], sig["ci_high"])
    (row,) = [r for r in _md_rows((folder / "report.md").read_text(), "a")
              if (r["a"], r["b"]) == (sig["a"], sig["b"])]  # fmt: skip
    _reads(_cell(row["diff"]), sig["diff"])
    _reads(_cell(row["ci_low"]), sig["ci_low"])
    _reads(_cell(row["ci_high"]), sig["ci_high"])


def test_a_round_robin_s_neighbour_effect_reads_as_its_table_cells(tournament):
    folder, _ = tournament
    text = (folder / "findings.txt").read_text()
    m = re.search(rf"Neighbours: (?P<a>\w+) wins .* when (?P<b>\w+) sits before it.*?\("
                  rf"(?P<fig>{NUMBER}) percentage points \[(?P<lo>{NUMBER}), "
                  rf"(?P<hi>{NUMBER})\] within", text)  # fmt: skip
    assert m, text
    nb = pd.read_csv(folder / "neighbours.csv")
    truth = nb[(nb["strategy"] == m["a"]) & (nb["before"] == m["b"])].iloc[0]
    (row,) = [r for r in _md_rows((folder / "report.md").read_text(), "strategy | before")
              if (r["strategy"], r["before"]) == (m["a"], m["b"])]  # fmt: skip
    for figure, cell, col in ((m["fig"], row["vs_elsewhere"], "vs_elsewhere"),
                              (m["lo"], row["vs_elsewhere_low"], "vs_elsewhere_low"),
                              (m["hi"], row["vs_elsewhere_high"], "vs_elsewhere_high")):  # fmt: skip
        _reads(figure, truth[col])
        _reads(_cell(cell), truth[col])


@pytest.fixture(scope="module")
def gauntlet(tmp_path_factory) -> tuple[str, str]:
    """A small gauntlet whose difference is not significant (its interval across 0): its
    report (Markdown) and what the command printed."""
    out = tmp_path_factory.mktemp("g") / "run"
    code, said, err = cli_output("gauntlet", "greedy:keep_pairs=True", "--against", "random",
                                 "--baseline", "greedy", "--games", "200", "--seed", "1",
                                 "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    code, _, err = cli_output("report", str(out), "--format", "md")
    assert code == 0, err
    return out / "report", said


@pytest.mark.slow
def test_a_gauntlet_s_verdict_signs_its_interval_as_its_table(gauntlet):
    folder, said = gauntlet
    text = (folder / "findings.txt").read_text()
    for words in (text, said):
        m = re.search(rf"No significant difference between .*?: (?P<fig>{NUMBER}) percentage "
                      rf"points? \[(?P<lo>{NUMBER}), (?P<hi>{NUMBER})\]", words)  # fmt: skip
        assert m, words
        _spans_signed(words)
        truth = pd.read_csv(folder / "gauntlet.csv").iloc[0]
        (row,) = _md_rows((folder / "report.md").read_text(), "strategy | baseline")
        for figure, col in ((m["fig"], "diff"), (m["lo"], "diff_ci_low"),
                            (m["hi"], "diff_ci_high")):  # fmt: skip
            _reads(figure, truth[col])
            _reads(_cell(row[col]), truth[col])
        assert truth["diff_ci_low"] < 0 < truth["diff_ci_high"]


@pytest.mark.parametrize(
    ("diff", "low", "high", "said"),
    [(0.017, -0.044, 0.078, "b: +1.7 percentage points [-4.4, +7.8] (paired"),
     (0.012, 0.004, 0.02, "a beats b by 1.2 percentage points [+0.4, +2.0] (paired"),
     (-0.0003, -0.0005, -0.0001,
      "a loses to b: the difference is -0.03 percentage points [-0.05, -0.01] (paired")],
)  # fmt: skip
def test_every_verdict_of_a_gauntlet_signs_its_bounds(diff, low, high, said):
    row = {"strategy": "a", "baseline": "b", "deals": 500, "diff": diff,
           "diff_ci_low": low, "diff_ci_high": high, "p_value": 0.3}  # fmt: skip
    assert said in fixed_verdict(row), fixed_verdict(row)


def test_a_sequential_estimate_signs_its_bounds():
    row = {"sequential_decision": NOT_BETTER, "sequential_margin": 1.0, "strategy": "a",
           "baseline": "b", "sequential_batches": 1, "diff": 0.004, "diff_ci_low": -0.003,
           "diff_ci_high": 0.011, "sequential_llr": -3.2, "p_value": 0.3, "deals": 500,
           "games": 8000, "sequential_lower": -2.94, "sequential_upper": 2.94,
           "sequential_alpha": 0.05, "sequential_beta": 0.05}  # fmt: skip
    text = sequential_sentence(row)
    assert (
        "not 1 percentage point better than b: +0.4 percentage points [-0.3, +1.1] over "
        "8,000 games per side" in text
    ), text


@pytest.fixture(scope="module")
def compared(tmp_path_factory) -> tuple[str, pd.DataFrame]:
    """What 'leaves compare' prints of two small runs on the same deals under other rules, and
    the comparison's table at full precision."""
    root = tmp_path_factory.mktemp("c")
    said = compared_rule_sets(root)
    return said, compare(root / "a", root / "b").table


def test_compare_s_sentence_reads_as_its_table_row(compared):
    """The largest change (random: +1.67 [+0.036, +3.30] percentage points, p = 0.045 before
    Holm's correction) read '[+0.0, +3.3], p = 0.05 before the correction': a bound clear of 0
    written 0, and a p below 0.05 written 0.05, beside words saying the interval alone would
    call it a change."""
    said, table = compared
    m = re.search(rf"largest: (?P<who>\w+) (?P<fig>{NUMBER}) percentage points? "
                  rf"\[(?P<lo>{NUMBER}), (?P<hi>{NUMBER})\], (?P<p>p [=<] \S+) before", said)  # fmt: skip
    assert m, said
    _spans_signed(said)
    truth = table.set_index("strategy").loc[m["who"]]
    (line,) = [x for x in said.splitlines() if re.match(rf"\W*{m['who']}\W", x)]
    cells = re.search(rf"(?P<fig>{NUMBER}) \[(?P<lo>{NUMBER}), (?P<hi>{NUMBER})\]", line)
    for part, col in (("fig", "diff"), ("lo", "ci_low"), ("hi", "ci_high")):
        _reads(m[part], truth[col])  # the words and the table: each the same value, rounded
        _reads(cells[part], truth[col])
    assert truth["ci_low"] > 0 and float(m["lo"]) > 0, m.group(0)  # clear of 0, and reads so
    assert m["p"] == p_text(truth["p_value"]) != "p = 0.05", m.group(0)


@pytest.mark.parametrize(
    ("p", "said"),
    [(0.0454, "p = 0.045"), (0.0499, "p = 0.0499"), (0.04, "p = 0.04"), (0.05, "p = 0.05"),
     (0.0504, "p = 0.05"), (0.21, "p = 0.21"), (0.003, "p = 0.003")],
)  # fmt: skip
def test_a_p_value_below_0_05_never_reads_0_05(p, said):
    assert p_text(p) == said


def test_a_table_writes_a_bound_clear_of_0_as_the_sentence_beside_it():
    """A margin of [+0.01, +0.05] percentage points, which the findings write so, read '+0.0
    pp' in the page's table: a bound clear of 0 as 0, beside words that call it a win."""
    sig = pd.DataFrame([{"a": "x", "b": "y", "win_rate_a": 0.3, "win_rate_b": 0.2997,
                         "diff": 0.0003, "ci_low": 0.0001, "ci_high": 0.0005, "p_value": 1e-4,
                         "p_holm": 1e-4, "significant": True}])  # fmt: skip
    summary = pd.DataFrame([{"strategy": s, "win_rate": r, "ci_low": r - 0.01,
                             "ci_high": r + 0.01, "fair_share": 0.25, "relative": r / 0.25}
                            for s, r in (("x", 0.3), ("y", 0.2997))])  # fmt: skip
    text = key_findings({"summary": summary, "significance": sig}, "paired")[0].text
    assert "by 0.03 percentage points [+0.01, +0.05]" in text, text
    cells = readable("significance", sig).iloc[0]
    assert [cells[c] for c in ("diff", "ci_low", "ci_high")] == ["+0.03 pp", "+0.01 pp",
                                                                  "+0.05 pp"]  # fmt: skip
    gauntlet = pd.DataFrame([{"diff": -0.0003, "diff_ci_low": -0.0005,
                              "diff_ci_high": -0.0001}])  # fmt: skip
    assert list(readable("gauntlet", gauntlet).iloc[0]) == ["-0.03 pp", "-0.05 pp", "-0.01 pp"]
    wide = pd.DataFrame([{"diff": 0.012, "diff_ci_low": -0.004, "diff_ci_high": 0.028}])
    assert list(readable("gauntlet", wide).iloc[0]) == ["+1.2 pp", "-0.4 pp", "+2.8 pp"]


# --- the variants' words: a difference's interval signed, a size's in words unsigned ----------


def _variant_metrics(rows: list[tuple]) -> pd.DataFrame:
    metrics = variants_metrics(rows)
    cost = metrics["metric"] == "restricted_single"
    metrics.loc[cost, "detail"] = "weighted: never plays more than one card"
    return metrics


def _variant_said(rows: list[tuple], diffs: list[tuple]) -> str:
    metrics = _variant_metrics(rows)
    return " ".join(
        s for s, _ in findings(metrics, variants_diffs(diffs), VARIANT_LABELS, "Paired")
    )


def test_a_restriction_cost_across_0_signs_its_bounds_in_words_and_table():
    """'costs it no clear win rate (-3.5 percentage points [-8.9, 1.8])': a cost is a
    difference of win rates, and its table cell read '-3.5 [-8.9, 1.8] pp'."""
    rows = [("default", "restricted_single", "all", -1, -0.035, -0.089, 0.018),
            ("hand_size=9", "restricted_single", "all", -1, -0.03, -0.08, 0.02),
            ("default", "turns", "all", -1, 44.0, 43.0, 45.0),
            ("hand_size=9", "turns", "all", -1, 40.0, 39.0, 41.0)]  # fmt: skip
    said = _variant_said(rows, [("hand_size=9", "turns", "all", -1, -4.0, -5.0, -3.0, True)])
    assert (
        "never plays more than one card costs it no clear win rate (-3.5 percentage points "
        "[-8.9, +1.8])" in said
    ), said
    _spans_signed(said)
    cost = _variant_metrics(rows).iloc[0]
    assert value_text(cost) == "-3.5 [-8.9, +1.8] pp"


def test_a_clear_change_in_words_writes_the_size_s_bounds_unsigned():
    rows = [("default", "turns", "all", -1, 44.0, 43.0, 45.0),
            ("hand_size=9", "turns", "all", -1, 40.0, 39.0, 41.0),
            ("default", "seat", "4", 0, 0.02, 0.01, 0.03),
            ("hand_size=9", "seat", "4", 0, 0.06, 0.05, 0.07)]  # fmt: skip
    said = _variant_said(rows, [("hand_size=9", "turns", "all", -1, -4.0, -5.0, -3.0, True),
                                ("hand_size=9", "seat", "4", 0, 0.04, 0.03, 0.05, True)])  # fmt: skip
    assert "games are 4.0 turns shorter [3.0, 5.0]" in said, said
    assert "the first player's edge grows by 4.0 percentage points [3.0, 5.0]" in said, said
    assert len(_spans_signed(said)) == 1
    wrong = [
        "edge grows by 4.0 percentage points [+3.0, +5.0]",  # reads as an increase
        "edge grows by 4.0 percentage points [3.0, +5.0]",
        "a beats b by 1.2 percentage points [0.4, 2.0]",  # no direction word: a difference's
    ]
    for text in wrong:
        with pytest.raises(AssertionError):
            _spans_signed(text)
