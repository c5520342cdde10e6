"""A table cell's difference of rates in percentage points at a size where a scale one off
shows (``benchmarks/bench_mutation.py reports/numbers.py``): the small differences of the
other tests read the same at 99 or 101 points to the unit."""

from __future__ import annotations

from reports.numbers import PP, pp_cell


def test_a_cell_writes_a_difference_of_rates_as_100_points_to_the_unit():
    assert pp_cell(0.5) == f"+50.0 {PP}"
    assert pp_cell(-0.25, 0) == f"-25 {PP}"
    assert pp_cell(0.5, bound=True) == f"+50.0 {PP}"
    assert pp_cell(-0.25, 2, bound=True) == f"-25.00 {PP}"
