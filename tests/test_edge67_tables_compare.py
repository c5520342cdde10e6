"""``leaves compare``'s table writes each run's win rate and its interval rounded outward, with
the decimals a narrow interval needs, so two rates whose difference is significant never read as
the same whole-percent interval ("0.3 [0-1]" beside "0.7 [0-1]"), and in whole percent where that
says enough, so the table fits an 80-column terminal."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pandas as pd


def _printed(capsys, monkeypatch, **kw) -> str:
    from leaves_cli.compare_cmd import _print

    monkeypatch.setenv("COLUMNS", "200")
    row = {"strategy": "random", "win_rate_a": 0.00292, "ci_low_a": 0.00118, "ci_high_a": 0.00713,
           "win_rate_b": 0.00698, "ci_low_b": 0.0052, "ci_high_b": 0.00936, "diff": 0.00406,
           "ci_low": 0.0021, "ci_high": 0.0060, "no_spread": False, "p_value": 0.001,
           "p_holm": 0.004, "significant": True, **kw}  # fmt: skip
    _print(SimpleNamespace(findings=[], table=pd.DataFrame([row])))
    return capsys.readouterr().out


def test_rates_below_one_percent_keep_their_decimals(capsys, monkeypatch):
    out = _printed(capsys, monkeypatch)
    (line,) = [x for x in out.splitlines() if re.match(r"\W*random\W", x)]
    cells = [c.strip() for c in re.split(r"[│|]", line) if c.strip()]
    assert cells == ["random", "0.3 [0.1-0.8]", "0.7 [0.5-1.0]", "+0.4 [+0.2, +0.6]",
                     "0.004", "yes"]  # fmt: skip


def test_the_heading_says_what_the_brackets_hold(capsys, monkeypatch):
    out = _printed(capsys, monkeypatch)
    assert "Win rates in % (95% intervals rounded outward) and B - A in percentage points" in out


def test_a_rate_without_an_interval_is_written_alone(capsys, monkeypatch):
    out = _printed(capsys, monkeypatch, ci_low_a=float("nan"), ci_high_a=float("nan"))
    (line,) = [x for x in out.splitlines() if re.match(r"\W*random\W", x)]
    assert re.search(r"[│|]\s+0\.3\s+[│|]", line), line


def test_wide_intervals_stay_in_whole_percent_rounded_outward(capsys, monkeypatch):
    out = _printed(capsys, monkeypatch, win_rate_a=0.273, ci_low_a=0.2481, ci_high_a=0.2991,
                   win_rate_b=0.269, ci_low_b=0.2401, ci_high_b=0.30)  # fmt: skip
    (line,) = [x for x in out.splitlines() if re.match(r"\W*random\W", x)]
    assert "27.3 [24-30]" in line and "26.9 [24-30]" in line, line


def test_an_interval_narrower_than_a_tenth_of_a_point_keeps_two_decimals(capsys, monkeypatch):
    out = _printed(capsys, monkeypatch, win_rate_a=0.5012, ci_low_a=0.50091, ci_high_a=0.50149)
    (line,) = [x for x in out.splitlines() if re.match(r"\W*random\W", x)]
    assert "50.1 [50.09-50.15]" in line, line
