"""A page's tables never write a figure that is not 0 as 0: a column of p-values is written
by ``reports.numbers.p_column`` in the full tables too (it read '0.00000' of 8.5e-11 beside
0.10849), and any other column whose figures six decimals cannot all show is written in
powers of ten."""

from __future__ import annotations

import math

import pandas as pd
from hypothesis import given
from hypothesis import strategies as st

from reports.numbers import p_column
from reports.page import Section, column, md_table, render_md

P = [0.10849, 8.5e-11, 1e-20, math.nan]


def _cells(table: str, name: str) -> list[str]:
    """The cells of the column ``name`` of a Markdown table."""
    head, _, *rows = table.splitlines()
    i = [c.strip() for c in head.strip("|").split("|")].index(name)
    return [[c.strip() for c in row.strip("|").split("|")][i] for row in rows]


def test_a_full_table_writes_its_p_values_as_p_column_does():
    table = md_table(pd.DataFrame({"a": list("wxyz"), "p_value": P, "p_holm": P}))
    assert _cells(table, "p_value") == p_column(P) == ["1.1e-01", "8.5e-11", "< 1e-16", ""]
    assert _cells(table, "p_holm") == p_column(P)


def test_the_page_never_writes_a_tiny_p_value_as_0():
    sig = pd.DataFrame({"a": ["w", "w"], "b": ["t", "c"], "diff": [0.01, 0.06],
                        "p_value": [0.10849, 8.5e-11], "p_holm": [0.10849, 1.7e-10]})  # fmt: skip
    page = render_md("t", [], [Section("S", tables=[("significance", sig)])], {})
    assert "0.00000" not in page and "8.5e-11" in page, page


def _read(cell: str) -> float:
    return float(cell.replace(",", ""))


@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False), min_size=1, max_size=6))
def test_a_column_writes_no_figure_but_0_as_0(figures):
    cells = column(figures)
    for x, cell in zip(figures, cells, strict=True):
        assert (_read(cell) == 0) == (x == 0), (figures, cells)


def test_a_column_six_decimals_cannot_show_is_in_powers_of_ten():
    assert column([0.10849, 8.5e-11]) == ["1.08e-01", "8.50e-11"]
    assert column([5.269, 0.00004]) == ["5.26900", "0.00004"]  # six decimals show it: as before
