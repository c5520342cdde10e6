"""The best-strategy finding names what the summary ranks by: where unfinished games make
the strategies' pars differ, the win rate against par (not the highest win rate, which the
leader may not have), with its par beside its fair share."""

from __future__ import annotations

from reports.findings import key_findings
from reports.report import compute_tables
from tests.test_designer64_relative import HALF, WON, _games


def test_a_leader_ranked_against_par_is_said_so_with_its_par():
    tables = compute_tables(_games([WON, HALF]))[0]
    summ = tables["summary"]
    assert summ["strategy"].iloc[0] == "s"  # 1/3 of its games, as c: ranked first against par
    (best,) = [f.text for f in key_findings(tables, "paired") if f.text.startswith("s ")]
    assert best.startswith("s has the highest win rate against its par: s wins 33.3%")
    assert "(fair share 33.3%, par 16.7%)" in best
