"""The best-strategy finding names what the summary ranks by, the win rate (against the fair
share where table sizes differ), also where unfinished games make the strategies' pars
differ: par, which a strategy's own play moves, is neither ranked by nor quoted."""

from __future__ import annotations

import re

from reports.findings import key_findings
from reports.report import compute_tables
from tests.test_designer64_relative import HALF, WON, _games


def test_strategies_level_on_win_rate_share_the_lead_whatever_their_pars():
    tables = compute_tables(_games([WON, HALF]))[0]
    summ = tables["summary"].set_index("strategy")
    assert summ.loc["s", "par"] < summ.loc["c", "par"]  # s's games went unfinished, not c's
    (best,) = [f.text for f in key_findings(tables, "paired") if "highest" in f.text]
    assert best.startswith("No strategy leads: c and s share the highest win rate (c 33.3% ")
    assert not re.search(r"\bpar\b", best)
