"""The charts of ``leaves variants`` draw only what the numbers hold: a seat without an
interval (a run too small for one) gets no error bar."""

from __future__ import annotations

import numpy as np
import pandas as pd

from reports.variants import METRIC_COLUMNS


def test_a_seat_without_an_interval_draws_no_bar_to_zero():
    """Two seats of a run too small for intervals and one with its interval: the chart drew
    the first two a bar from their value to 0 ([0, +10] and [-5, 0] percentage points), an
    interval the run never gave. Now only the third has a bar, and the legend says why."""
    from reports.variants_charts import seats

    rows = [{"rules": "default", "metric": "seat", "n_players": "3", "position": p, "value": v,
             "ci_low": lo, "ci_high": hi, "se": np.nan, "df": 1.0, "deal_sets": 1, "games": 3,
             "fair": 1 / 3, "detail": "", "conservative": False}
            for p, (v, lo, hi) in enumerate([(0.1, np.nan, np.nan), (-0.05, np.nan, np.nan),
                                             (0.02, -0.01, 0.05)])]  # fmt: skip
    ax = seats(pd.DataFrame(rows, columns=METRIC_COLUMNS)).axes[0]
    (bars,) = ax.containers[0].lines[2]
    drawn = [np.round(s, 6).tolist() for s in bars.get_segments() if len(s)]
    assert drawn == [[[2.0, -0.01], [2.0, 0.05]]]
    assert ax.get_legend().get_texts()[0].get_text() == "default (no bar: no interval)"
