"""Two sentences that must pick the case the tables hold: the neighbour finding leads with the
pairs that hold after Bonferroni's correction (not the largest pair whatever its p), and
``leaves compare`` says of every strategy whose 95% interval alone calls a change that Holm's
correction does not hold it; its 'Holm p' column is written in one form."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from reports.compare import _findings
from reports.findings import _neighbours
from tests.helpers import cli_output

FIELD = ["weighted", "taker", "greedy", "random", "--players", "4", "--games", "1200",
         "--seed", "21", "--jobs", "1"]  # fmt: skip


def _pairs(rows: list[tuple[str, str, float, float, float, float]]) -> pd.DataFrame:
    """A neighbours table with the columns the finding reads: (strategy, before, effect, its
    95% bounds, p), every rate alike (40.0% [30.0, 50.0] after, 30.0% elsewhere)."""
    cols = ["strategy", "before", "vs_elsewhere", "vs_elsewhere_low", "vs_elsewhere_high",
            "vs_elsewhere_p"]  # fmt: skip
    t = pd.DataFrame(rows, columns=cols)
    return t.assign(win_rate=0.4, ci_low=0.3, ci_high=0.5, elsewhere_rate=0.3)


LEAD = ("when it sits elsewhere at the table (-6.0 percentage points [-9.0, -3.0] within the "
        "same deals, p = 0.004), the strongest neighbour effect")  # fmt: skip


def test_the_neighbour_finding_leads_with_the_pairs_that_hold():
    """4 pairs, p x 4: a after b 0.16 (the largest effect, +10 points), b after a 0.016, c
    after a 0.04, a after c 1: two hold, b after a (-6 points) the larger of them."""
    t = _pairs([("a", "b", 0.10, 0.01, 0.19, 0.04), ("b", "a", -0.06, -0.09, -0.03, 0.004),
                ("c", "a", 0.05, 0.02, 0.08, 0.01), ("a", "c", 0.01, -0.05, 0.07, 0.8)])  # fmt: skip
    (found,) = _neighbours(t, None)
    assert found.text == (
        "Neighbours: b wins 40.0% [30.0, 50.0] when a sits before it, against 30.0% "
        + LEAD
        + " that holds after Bonferroni correction over the 4 pairs (p = 0.02 corrected); 2 of "
        "the 4 pairs hold; the larger a after b (+10.0 percentage points [+1.0, +19.0], p = "
        "0.04; p = 0.16 corrected) does not hold: it may be chance."
    )


def test_the_neighbour_finding_counts_the_pairs_that_hold_beside_the_largest():
    """6 pairs hold (p x 6 = 0.006): the largest leads, the five others counted (the table
    names them)."""
    rows = [(s, b, -0.06 + i / 100, -0.09 + i / 100, -0.03 + i / 100, 0.001)
            for i, (s, b) in enumerate(["ab", "ba", "ac", "ca", "bc", "cb"])]  # fmt: skip
    (found,) = _neighbours(_pairs(rows), None)
    assert found.text.startswith("Neighbours: a wins 40.0% [30.0, 50.0] when b sits before it")
    assert found.text.endswith("the strongest neighbour effect; it holds after Bonferroni "
                               "correction over the 6 pairs, as do 5 other pairs.")  # fmt: skip


def test_the_neighbour_finding_says_chance_only_when_no_pair_holds():
    """p x 2: 0.08 and 0.2: none holds, and the largest is named as it was."""
    t = _pairs([("b", "a", -0.06, -0.09, -0.03, 0.04), ("a", "b", 0.02, -0.01, 0.05, 0.1)])
    (found,) = _neighbours(t, None)
    assert found.text == (
        "Neighbours: b wins 40.0% [30.0, 50.0] when a sits before it, against 30.0% "
        "when it sits elsewhere at the table (-6.0 percentage points [-9.0, -3.0] within the "
        "same deals, p = 0.04), the strongest neighbour effect; not significant after "
        "correction over the 2 pairs: it may be chance."
    )
    alone = _pairs([("b", "a", -0.06, -0.09, -0.03, 0.004), ("a", "b", 0.02, -0.01, 0.05, 0.1)])
    assert _neighbours(alone, None)[0].text.endswith(
        "the strongest neighbour effect; it holds after Bonferroni correction over the 2 pairs."
    )


def _cmp(rows: list[tuple[str, float, float, float, float, float, bool]]) -> pd.DataFrame:
    """A compare table: (strategy, B - A, its 95% bounds, p, Holm p, significant)."""
    cols = ["strategy", "diff", "ci_low", "ci_high", "p_value", "p_holm", "significant"]
    return pd.DataFrame(rows, columns=cols).assign(no_spread=False, units=50)


def test_compare_names_a_change_its_interval_calls_though_it_is_not_the_largest():
    """taker's -2.7 points is the largest and its interval holds 0; random's +0.5 [+0.1,
    +0.9] excludes 0 (p = 0.013), not after Holm (0.0513, '0.05': the level, not below it): the
    sentence says so of random."""
    t = _cmp([("weighted", 0.022, -0.015, 0.060, 0.217, 0.651, False),
              ("random", 0.005, 0.001, 0.009, 0.0128, 0.0513, False),
              ("greedy", -0.001, -0.026, 0.024, 0.947, 0.947, False),
              ("taker", -0.027, -0.070, 0.016, 0.217, 0.651, False)])  # fmt: skip
    assert _findings(t, False) == [
        "no strategy changed significantly after Holm correction over the 4 strategies "
        "compared (largest: taker -2.7 percentage points [-7.0, +1.6]); random +0.5 percentage "
        "points [+0.1, +0.9] is a change by its 95% interval alone, not after the correction "
        "(p = 0.01 before the correction, p = 0.05 after)"
    ]
    none = t.assign(ci_low=[-0.015, -0.001, -0.026, -0.070], p_value=[0.2, 0.8, 0.9, 0.2])
    assert _findings(none, False) == [
        "no strategy changed significantly (largest: taker -2.7 percentage points [-7.0, +1.6])"
    ]


def test_compare_names_every_change_holm_does_not_hold():
    """The largest (s0, p 0.03 then 0.09) and a smaller one (s2, 0.04 then 0.09) both clear of
    0; then beside a significant change (s0), the one that is not (s1)."""
    t = _cmp([("s0", 0.073, 0.003, 0.143, 0.03, 0.09, False),
              ("s1", 0.01, -0.05, 0.07, 0.7, 1.0, False),
              ("s2", -0.02, -0.038, -0.002, 0.04, 0.09, False)])  # fmt: skip
    assert _findings(t, False) == [
        "no strategy changed significantly after Holm correction over the 3 strategies "
        "compared (largest: s0 +7.3 percentage points [+0.3, +14.3], p = 0.03 before the "
        "correction, p = 0.09 after); s2 -2.0 percentage points [-3.8, -0.2] is a change by "
        "its 95% interval alone, not after the correction (p = 0.04 before the correction, "
        "p = 0.09 after)"
    ]
    t = _cmp([("s0", 0.073, 0.053, 0.093, 0.001, 0.003, True),
              ("s1", 0.01, -0.05, 0.07, 0.7, 1.0, False),
              ("s2", -0.02, -0.038, -0.002, 0.04, 0.08, False)])  # fmt: skip
    assert _findings(t, False) == [
        "s0 wins 7.3 percentage points more in B [+5.3, +9.3]; no other strategy changed "
        "significantly after Holm correction over the 3 strategies compared; s2 -2.0 "
        "percentage points [-3.8, -0.2] is a change by its 95% interval alone, not after the "
        "correction (p = 0.04 before the correction, p = 0.08 after)"
    ]


def _print_rows(capsys, monkeypatch, table: pd.DataFrame, alpha: float, width: int) -> str:
    from types import SimpleNamespace

    from leaves_cli.compare_cmd import _print

    monkeypatch.setenv("COLUMNS", str(width))
    rates = {"win_rate_a": 0.446, "ci_low_a": 0.418, "ci_high_a": 0.474, "win_rate_b": 0.419,
             "ci_low_b": 0.381, "ci_high_b": 0.456}  # fmt: skip
    _print(SimpleNamespace(findings=_findings(table, False, alpha), table=table.assign(**rates)),
           alpha)  # fmt: skip
    return capsys.readouterr().out


def test_compare_s_holm_p_column_is_in_one_form_and_80_columns_wide(capsys, monkeypatch):
    """Holm p's of 0.0004, 0.0496 and 0.2134: '<0.001' beside '0.0496' and '0.213' mixed two
    forms; all three in powers of ten, to the digits that keep 0.0496 below 0.05."""
    t = _cmp([("weighted", 0.05, 0.03, 0.07, 0.0001, 0.0004, True),
              ("random", 0.02, 0.001, 0.039, 0.0248, 0.0496, True),
              ("taker", -0.01, -0.05, 0.03, 0.2134, 0.2134, False)])  # fmt: skip
    out = _print_rows(capsys, monkeypatch, t, 0.05, 80)
    cells = [line.split("│")[-3].strip() for line in out.splitlines() if line.startswith("│")]
    assert cells == ["4.00e-04", "4.96e-02", "2.13e-01"], out
    assert max(len(line) for line in out.splitlines() if line[:1] in "┏┃│└") <= 80, out


def test_compare_s_sentence_writes_the_holm_p_of_its_table_cell(capsys, monkeypatch):
    """At alpha 0.0005 a Holm p of 0.0009 is '9.0e-04' in its column; the sentence the same."""
    t = _cmp([("greedy", -0.031, -0.054, -0.009, 0.0003, 0.0009, False)])
    out = _print_rows(capsys, monkeypatch, t, 0.0005, 200)
    assert "[-5.4, -0.9], p = 3e-04 before the correction, p = 9.0e-04 after)" in out, out
    line = next(x for x in out.splitlines() if x.startswith("│ greedy"))
    assert " 9.0e-04 " in line, line


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """The field under today's rules (A) and with 9 cards a hand (B), on the same deals."""
    root = tmp_path_factory.mktemp("pick")
    for name, extra in (("a", ()), ("b", ("--rules", "hand_size=9"))):
        code, _, err = cli_output("tournament", *FIELD, *extra, "--out", str(root / name))
        assert code == 0, err
    return root


def test_the_report_s_neighbour_finding_names_the_pairs_its_table_holds(runs):
    """Read from neighbours.csv: every pair (not after its own copy) whose p times the pairs
    compared is below 0.05 holds; the finding leads with the largest of them and counts them."""
    code, _, err = cli_output("report", str(runs / "a"))
    assert code == 0, err
    nb = pd.read_csv(runs / "a" / "report" / "neighbours.csv")
    nb = nb[nb["vs_elsewhere"].notna() & nb["vs_elsewhere_p"].notna()
            & (nb["strategy"] != nb["before"])]  # fmt: skip
    held = nb[nb["vs_elsewhere_p"] * len(nb) < 0.05]
    (text,) = [x for x in (runs / "a" / "report" / "findings.txt").read_text().splitlines()
               if "Neighbours:" in x]  # fmt: skip
    if not len(held):
        assert text.endswith(f"over the {len(nb)} pairs: it may be chance."), text
        return
    lead = held.loc[held["vs_elsewhere"].abs().idxmax()]
    largest = nb.loc[nb["vs_elsewhere"].abs().idxmax()]
    assert f"{lead['strategy']} wins" in text and f"when {lead['before']} sits before" in text
    if lead.name == largest.name:
        others = len(held) - 1
        assert text.endswith(f"pairs, as do {others} other pairs." if others > 1 else
                             "pairs, as does 1 other pair." if others else "pairs."), text  # fmt: skip
        return
    assert "neighbour effect that holds" in text, text
    if len(held) > 1:
        assert f"{len(held)} of the {len(nb)} pairs hold" in text, text
    assert f"the larger {largest['strategy']} after {largest['before']} (" in text, text


def test_leaves_compare_names_every_change_its_interval_calls(runs):
    """Read from compare.csv: each strategy whose 95% interval excludes 0 but whose Holm p is
    not below 0.05 is named with its p before and after the correction, as its cell reads."""
    code, said, err = cli_output("compare", str(runs / "a"), str(runs / "b"), "--out",
                                 str(runs / "c"))  # fmt: skip
    assert code == 0, err
    table = pd.read_csv(runs / "c" / "compare.csv")
    apart = table[~table["significant"] & ((table["ci_low"] > 0) | (table["ci_high"] < 0))]
    assert len(apart), table  # the case the sentence must not hide
    (head,) = [x for x in said.splitlines() if "changed significantly" in x]
    for r in apart.itertuples():
        line = next(x for x in said.splitlines() if re.match(rf"\W*{r.strategy}\W", x))
        cell = line.split("│")[-3].strip()
        assert re.search(rf"{r.strategy} [+-][\d.]+ percentage points \[[^]]+\] is a change by "
                         rf"its 95% interval alone, not after the correction \(p = \S+ before "
                         rf"the correction, p = {re.escape(cell)} after\)", head), (head, line)  # fmt: skip
