"""The best-strategy finding gives the p-value its verdict rests on, as the significance table
beside it gives it: adjusted by Holm's correction over the pairs compared. Where the
unadjusted figure reads otherwise, the sentence says which is which."""

from __future__ import annotations

import pandas as pd

from reports.findings import key_findings
from reports.page import readable
from reports.significance import significance
from reports.synthetic import synthetic_games
from reports.tables import summary


def _row(name: str, rate: float) -> dict:
    return {"strategy": name, "win_rate": rate, "ci_low": rate - 0.005,
            "ci_high": rate + 0.005, "fair_share": 0.25, "relative": rate / 0.25}  # fmt: skip


def _pair(a: str, b: str, diff: float, p: float, holm: float) -> dict:
    return {"a": a, "b": b, "win_rate_a": 0.30, "win_rate_b": 0.30 - diff, "diff": diff,
            "ci_low": diff - 0.02, "ci_high": diff + 0.02, "p_value": p, "p_holm": holm,
            "significant": holm < 0.05}  # fmt: skip


def _text(sig: list[dict]) -> str:
    tables = {"summary": pd.DataFrame([_row("high", 0.30), _row("counter", 0.29),
                                       _row("low", 0.20)]),
              "significance": pd.DataFrame(sig)}  # fmt: skip
    return key_findings(tables, "paired")[0].text


def test_a_margin_not_significant_after_holm_names_both_p_values():
    """Three pairs: high - counter has p = 0.10 unadjusted, 0.20 after Holm (the table's)."""
    text = _text([_pair("high", "counter", 0.01, 0.10, 0.20),
                  _pair("high", "low", 0.10, 0.01, 0.03),
                  _pair("counter", "low", 0.09, 0.5, 0.5)])  # fmt: skip
    assert "p = 0.10 before Holm's correction, p = 0.20 after" in text, text
    assert text.endswith("not significant."), text


def test_a_significant_margin_gives_the_adjusted_p_its_verdict_rests_on():
    text = _text([_pair("high", "counter", 0.04, 0.003, 0.009),
                  _pair("high", "low", 0.10, 0.001, 0.003),
                  _pair("counter", "low", 0.09, 0.5, 0.5)])  # fmt: skip
    assert "p = 0.003 before Holm's correction, p = 0.009 after" in text, text
    assert "it holds after Holm correction over the 3 pairs compared" in text, text


def test_one_pair_gives_one_p_value():
    """With one pair the adjusted p is the unadjusted one: one figure, as the table's."""
    text = _text([_pair("high", "counter", 0.01, 0.10, 0.10)])
    assert "p = 0.10)" in text and "before Holm" not in text, text


def test_a_run_s_finding_agrees_with_its_significance_table():
    """On a synthetic run whose top two have p = 0.10 unadjusted and 0.19 after Holm's
    correction over the three pairs: the sentence gives the table's figure, named."""
    g = synthetic_games({"a": 0.3, "b": 0.1, "c": -0.5}, players=(3,), deals=20, seed=2,
                        seating="balanced", unfinished_p=0.0, forfeit_p=0.0)  # fmt: skip
    sig = significance(g)
    text = key_findings({"summary": summary(g), "significance": sig}, "paired")[0].text
    shown = readable("significance", sig).set_index(["a", "b"])
    top = shown.loc[("a", "b")]
    assert (top["p_value"], top["p_holm"]) == ("0.10", "0.19")  # the case it checks
    assert "p = 0.10 before Holm's correction, p = 0.19 after" in text, text
