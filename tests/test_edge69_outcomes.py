"""The report page's shares of a run's units (Ligretto's blockades, forfeited and unfinished
rounds) are written as the findings write them (``share_digits``): 3 blockades in 15,000
rounds read '0.02%' on the page as in the findings, never '0.0%', which reads as none."""

from __future__ import annotations

import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from reports.declared import outcomes
from reports.findings import _outcomes, overall, unfinished_words
from reports.loading import games_from_frame
from reports.numbers import pct, share_digits, share_pct
from reports.page import key_rows
from reports.tables import completion
from tests.test_edge68_ligretto_words_findings import D, _rounds


def _shown(name: str, table: pd.DataFrame) -> pd.Series:
    """The 'all' row of a table as the page writes its key rows."""
    top, _ = key_rows(name, table)
    return top[top["n_players"] == "all"].iloc[0]


def test_three_blockades_in_fifteen_thousand_rounds_read_as_the_findings_say():
    table = outcomes(games_from_frame(_rounds(15_000, 3), D))
    row = _shown("outcomes", table)
    cells = [row["blockade_share"], row["blockade_ci_low"], row["blockade_ci_high"]]
    assert cells == ["0.02%", "0.01%", "0.06%"]  # they read '0.0%', '0.0%', '0.1%'
    (found,) = _outcomes(table, D)
    assert "0.02% [0.01, 0.06] of 15,000 rounds" in found.text


def test_shares_that_need_no_more_decimals_keep_one_and_none_reads_as_none():
    row = _shown("outcomes", outcomes(games_from_frame(_rounds(40, 10), D)))
    assert [row["blockade_share"], row["blockade_ci_low"]] == ["25.0%", "13.8%"]
    row = _shown("outcomes", outcomes(games_from_frame(_rounds(3000, 0), D)))
    assert row["blockade_share"] == "0.0%"  # a true zero


def test_one_unfinished_round_in_fifteen_thousand_is_not_none_on_the_page_or_in_words():
    frame = _rounds(15_000)
    frame.loc[0, "unfinished"] = True
    table = completion(games_from_frame(frame, D))
    assert _shown("completion", table)["unfinished_share"] == "0.01%"  # it read '0.0%'
    assert "1 round (0.01%) stopped unfinished" in unfinished_words(overall(table), D)


def test_a_share_of_almost_all_is_not_written_as_all():
    assert share_pct(14_999 / 15_000) == "99.99%"  # not '100.0%'
    assert share_pct(1.0) == "100.0%" and share_pct(0.75) == "75.0%"


SHARES = st.floats(1e-9, 1 - 1e-9)
"""A share of a run's units that is neither none nor all: one in a billion at the least."""
BOUNDS = st.one_of(st.just(0.0), SHARES, st.just(1.0))


@given(share=SHARES, low=BOUNDS, high=BOUNDS, other=BOUNDS)
def test_a_share_that_is_not_zero_or_all_never_reads_as_either(share, low, high, other):
    """Every cell of a share's columns (every row's: another table size's too) reads on its
    own side of 0% and 100%, as many decimals as the findings give it or more."""
    lo, hi = min(low, share), max(high, share)
    table = pd.DataFrame({"n_players": [3, "all"], "rounds": [10, 10],
                          "blockade_share": [other, share], "blockade_ci_low": [other, lo],
                          "blockade_ci_high": [other, hi]})  # fmt: skip
    row = _shown("outcomes", table)
    written = float(row["blockade_share"].rstrip("%"))
    assert 0 < written < 100
    for x, cell in zip((lo, hi), (row["blockade_ci_low"], row["blockade_ci_high"]), strict=True):
        assert (float(cell.rstrip("%")) == 0) == (x == 0)
        assert (float(cell.rstrip("%")) == 100) == (x == 1)
    k = share_digits(share, lo, hi)  # the findings' decimals
    assert len(row["blockade_share"].rstrip("%").partition(".")[2]) >= k
    assert round(written, k) == float(pct(share, k).rstrip("%"))
