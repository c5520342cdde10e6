"""Figures and the words about them: a whole number written with a point or an exponent, given
to a whole-number setting of a strategy spec, is refused in one line that says how to write it;
the best strategy's interval reads apart from the fair share written beside it."""

from __future__ import annotations

import pytest

from strategies.registry import build, resolve


@pytest.mark.parametrize(("spec", "shown"), [
    ("ismcts:iterations=1e3", "iterations=1000"),
    ("ismcts:iterations=1000.0", "iterations=1000"),
])  # fmt: skip
def test_a_whole_float_for_a_whole_number_setting_says_how_to_write_it(spec, shown):
    with pytest.raises(ValueError, match=rf"expects int, got 1000\.0 \(write it without a point "
                                         rf"or an exponent: {shown}\)$"):  # fmt: skip
        build(*resolve(spec))


@pytest.mark.parametrize("spec", ["ismcts:iterations=2.5", "ismcts:iterations=1e300"])
def test_a_float_no_whole_number_of_reasonable_size_gets_no_such_hint(spec):
    with pytest.raises(ValueError, match=r"expects int, got [0-9.e+]+$"):
        build(*resolve(spec))


def test_the_best_strategys_interval_reads_apart_from_the_fair_share_beside_it():
    """[24.996, 25.63] beside a fair share of 25% read '[25.0, 25.6] (fair share 25.0%)', as if
    the interval lay above it; the decimals that set them apart are written."""
    import pandas as pd

    from reports.data import default_declaration
    from reports.findings_best import best_finding

    summ = pd.DataFrame([{"strategy": "a", "win_rate": 0.2531, "ci_low": 0.24996,
                          "ci_high": 0.2563, "fair_share": 0.25, "games": 4000}])  # fmt: skip
    (found,) = best_finding({"summary": summ}, "paired", default_declaration())
    assert "a wins 25.310% [24.996, 25.630] of its games (fair share 25.000%)" in found.text


def test_compares_holm_sentence_reads_each_p_on_its_side_of_alpha():
    """With --alpha 0.012, a Holm p of 0.0124 (not significant) read 'p = 0.01 after', below
    the level the sentence says it did not pass."""
    import pandas as pd

    from reports.compare import _findings

    row = dict(strategy="x", diff=0.02, ci_low=0.005, ci_high=0.035, p_value=0.004,
               p_holm=0.0124, significant=False, no_spread=False, units=100)  # fmt: skip
    (said,) = _findings(pd.DataFrame([row]), False, alpha=0.012)
    assert "p = 0.004 before the correction, p = 0.012 after" in said, said  # not 0.01
