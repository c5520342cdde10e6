"""A figure written beside the level it is judged against reads on its own side of it: a p-value
beside the alpha that a 'sig' column or a sentence judges it by, a log-likelihood ratio beside
the bounds that stop its test, an interval's bound beside the margin a sentence weighs it
against. Rounding never writes a figure as the level it is not at, nor on the level's other
side."""

from __future__ import annotations

import math
import re
from types import SimpleNamespace

import pandas as pd
import pytest

from leaves_cli.sequential import batch_line
from reports.gauntlet import sequential_sentence
from reports.numbers import p_text
from tests.helpers import cli_output
from tournaments.sequential import BETTER, NOT_BETTER, RUNNING, Sequential

NUMBER = r"[+-]?\d+(?:\.\d+)?(?:e[+-]\d+)?"


def _figure(said: str) -> float:
    return float(said.removeprefix("p = "))


@pytest.mark.parametrize(
    ("p", "level", "said"),
    [(0.0098, 0.01, "p = 0.0098"), (0.00099, 0.001, "p = 9.9e-04"),
     (0.0496, 0.05, "p = 0.0496"), (0.0504, 0.05, "p = 0.05"), (0.0098, 0.05, "p = 0.010"),
     (0.0104, 0.01, "p = 0.01"), (0.01234, 0.0123, "p = 0.0123"), (0.21, 0.05, "p = 0.21")],
)  # fmt: skip
def test_a_p_value_reads_on_its_own_side_of_the_level_it_is_judged_against(p, level, said):
    """'p = 0.010' was written of 0.0098 beside 'sig yes' at --alpha 0.01: it read as the
    level, not below it. Above the level a p may read as the level (significance is below
    it), never below."""
    assert p_text(p, level) == said


def test_every_p_value_reads_on_its_side_of_every_level():
    levels = (0.1, 0.05, 0.0123, 0.01, 0.005, 0.001, 0.0005)
    ps = [level * f for level in levels for f in (0.97, 0.99, 0.999, 0.9999, 1.0001, 1.01)]
    for level in levels:
        for p in ps:
            said = p_text(p, level)
            assert (_figure(said) < level) == (p < level), (p, level, said)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two small runs of the same strategies on other deals, and their comparison's table."""
    root = tmp_path_factory.mktemp("levels")
    for name, seed in (("a", "1"), ("b", "2")):
        code, _, err = cli_output("tournament", "greedy", "random", "counter", "--games", "300",
                                  "--seed", seed, "--jobs", "1", "--out", str(root / name))  # fmt: skip
        assert code == 0, err
    code, _, err = cli_output("compare", str(root / "a"), str(root / "b"), "--out",
                              str(root / "c"))  # fmt: skip
    assert code == 0, err
    return root, pd.read_csv(root / "c" / "compare.csv")


def test_compare_s_holm_p_cell_reads_on_the_side_of_alpha_its_sig_cell_says(runs):
    """An --alpha between a Holm p and its three-decimal rounding: the cell must still read
    below alpha where 'sig' says yes (p_holm < alpha), and not below where it says no."""
    root, table = runs
    row = table.sort_values("p_holm").iloc[0]
    p = float(row["p_holm"])
    shown = round(p, 3)
    alpha = (p + shown) / 2 if shown != p else p * 1.0001  # between p and its rounding
    code, said, err = cli_output("compare", str(root / "a"), str(root / "b"), "--alpha",
                                 repr(alpha))  # fmt: skip
    assert code == 0, err
    who = re.escape(row["strategy"])
    (line,) = [x for x in said.splitlines() if re.match(rf"\W*{who}\W", x)]
    m = re.search(rf"(?P<p>{NUMBER}|<0\.001)\W+(?P<sig>yes|no)\W*$", line)
    assert m, line
    assert (m["sig"] == "yes") == (p < alpha)
    assert m["p"] != "<0.001" and (float(m["p"]) < alpha) == (p < alpha), (line, p, alpha)


def test_compare_s_table_writes_a_p_below_an_alpha_under_0_001_as_a_figure():
    """'<0.001' beside --alpha 0.0005 does not say which side of alpha a p lies on: the
    column is written in one form with the digits that keep each p on its side."""
    import pandas as pd

    from reports.compare import holm_column

    def column(ps: list[float], alpha: float) -> list[str]:
        return holm_column(pd.DataFrame({"p_holm": ps}), alpha)

    assert column([0.0008, 0.0004], 0.0005) == ["8.0e-04", "4.0e-04"]
    assert column([0.0004, float("nan")], 0.05) == ["4.0e-04", "n/a"]
    assert column([0.0496, 0.0098, 0.2134], 0.05) == ["0.0496", "0.010", "0.21"]
    assert column([0.0098], 0.01) == ["0.0098"]  # on its side of the level


def _llr_and_bounds(text: str, pattern: str) -> tuple[float, float, float]:
    m = re.search(pattern, text)
    assert m, text
    return float(m["llr"]), float(m["lo"]), float(m["hi"])


def _reads_on_its_side(written: tuple[float, float, float], llr: float, test: Sequential):
    w, lo, hi = written
    assert (w <= lo) == (llr <= test.lower) and (w >= hi) == (llr >= test.upper), (written, llr)


@pytest.mark.parametrize("llr", [-2.9415, -2.9444, -2.95, 2.9441, 2.9449, 2.96, 0.5, -2.9444389])
def test_a_batch_line_s_llr_reads_on_its_side_of_the_bounds(llr):
    """'LLR -2.94 (stop at -2.94 or 2.94)' was written of an LLR of -2.9415, short of its
    bound -2.9444: the test had not stopped, yet the line read as at its bound."""
    test = Sequential(0.01)
    line = batch_line(SimpleNamespace(batches=3, llr=llr, lower=test.lower, upper=test.upper),
                      4000, {"diff": -0.01, "ci_low": -0.02, "ci_high": 0.0})  # fmt: skip
    written = _llr_and_bounds(line, rf"LLR (?P<llr>{NUMBER}) \(stop at (?P<lo>{NUMBER}) or "
                                    rf"(?P<hi>{NUMBER})\)")  # fmt: skip
    _reads_on_its_side(written, llr, test)


def _row(test: Sequential, **extra) -> dict:
    rec = test.record(4000)
    row = {"strategy": "a", "baseline": "b", "games": 4000, "diff": -0.001,
           "diff_ci_low": -0.01, "diff_ci_high": 0.008, "p_value": 0.8, "deals": 1000,
           **{f"sequential_{k}": v for k, v in rec.items()}}  # fmt: skip
    return {**row, **extra}


@pytest.mark.parametrize(("llr", "decision"), [(-2.9415, RUNNING), (-2.9449, NOT_BETTER),
                                               (2.9441, RUNNING), (2.9444389, RUNNING)])  # fmt: skip
def test_the_final_sentence_s_llr_reads_on_its_side_of_the_bounds(llr, decision):
    """The sentence wrote 'LLR -2.94, bounds -2.94 and 2.94' of a test interrupted short of
    its bound."""
    test = Sequential(0.01)
    test.batches, test.llr, test.decision = 3, llr, decision
    text = sequential_sentence(_row(test, sequential_decision=decision))
    written = _llr_and_bounds(text, rf"LLR (?P<llr>{NUMBER}), bounds (?P<lo>{NUMBER}) and "
                                    rf"(?P<hi>{NUMBER})\)")  # fmt: skip
    _reads_on_its_side(written, llr, test)


def test_no_spread_s_n_over_2_reads_short_of_the_bound_it_is_short_of():
    """Six sets with no spread weigh N/2 = 3, short of an upper bound of 3.003 (alpha 0.0472,
    beta 0.05): 'N/2 = 3.00, short of its bound 3.00' read as at the bound."""
    test = Sequential(0.01, alpha=0.0472)
    assert 3 < test.upper < 3.005
    test.batches, test.llr, test.decision = 1, math.inf, BETTER
    row = _row(test, diff=0.5, diff_ci_low=math.nan, diff_ci_high=math.nan,
               p_value=2 * 0.5**6, deals=6)  # fmt: skip
    text = sequential_sentence(row)
    m = re.search(rf"N/2 = (?P<half>{NUMBER}), short of its bound (?P<up>{NUMBER})", text)
    assert m, text
    assert float(m["half"]) < float(m["up"]), m.group(0)


@pytest.mark.parametrize("hi", [0.00996, 0.01004, 0.0099996])
def test_an_interval_s_bound_reads_on_its_side_of_the_margin_it_is_weighed_against(hi):
    """'not 1 percentage point better ... [-1.2, +1.0]' of an interval up to +0.996: its
    bound read as the margin, while the sentence said nothing of the interval reaching it."""
    test = Sequential(0.01)
    test.batches, test.llr, test.decision = 3, -3.5, NOT_BETTER
    text = sequential_sentence(_row(test, diff=-0.001, diff_ci_low=-0.012, diff_ci_high=hi))
    m = re.search(rf"\[(?P<lo>{NUMBER}), (?P<hi>{NUMBER})\]", text)
    assert m, text
    reaches = "still reaches +1" in text
    assert reaches == (hi >= 0.01) == (float(m["hi"]) >= 1.0), (m.group(0), text)


def test_a_bound_at_the_margin_exactly_reads_as_it_in_the_usual_decimals():
    """A bound at the margin itself reads as it, truly: no decimals added to set it apart."""
    test = Sequential(0.01)
    test.batches, test.llr, test.decision = 3, -3.5, NOT_BETTER
    text = sequential_sentence(_row(test, diff=-0.001, diff_ci_low=-0.012, diff_ci_high=0.01))
    assert "[-1.2, +1.0]" in text and "still reaches +1" in text, text


@pytest.mark.parametrize("widest", [1.004, 1.00004, 0.99996, 1.0])
def test_a_half_width_reads_on_its_side_of_the_precision_target(widest):
    """'widest half-width 1.0000 percentage points' of 1.00004 beside --precision 1: the run
    played on, yet the line read as the target met (four decimals were the most)."""
    from leaves_cli.sequential import half_width

    shown = float(half_width(widest, 1.0).split()[0])
    assert (shown <= 1.0) == (widest <= 1.0), (widest, shown)


def test_an_llr_that_rounds_to_zero_reads_as_zero_not_minus_zero():
    """The LLR is written as every figure here is (``reports.numbers.fixed``): '-0.00' is a
    sign the number does not support."""
    from reports.gauntlet import weighed

    test = Sequential(0.01)
    said, low, high = weighed(-0.001, test.lower, test.upper)
    assert (said, low, high) == ("LLR 0.00", "-2.94", "2.94")
