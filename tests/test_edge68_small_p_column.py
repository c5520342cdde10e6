"""A table's column of p-values is written in one form (``reports.numbers.p_column``): a tiny,
a middling and a large p in powers of ten alike, to one number of digits, the floor one way;
a column with none below 0.001 in decimals, each as a sentence writes it (a finding quoting a
p gives its cell's figure); the figures still read on their side of the level; the sentences'
``p_text`` keeps its forms."""

from __future__ import annotations

import math
import re

import pytest

from reports.numbers import P_FLOOR, p_column, p_text

POWER = re.compile(r"\d\.\d+e[+-]\d\d")
DECIMAL = re.compile(r"[01]\.\d+")


def test_a_tiny_a_middling_and_a_large_p_are_written_alike():
    cells = p_column([3e-5, 0.049, 0.21, 1e-20, math.nan])
    assert cells == ["3.0e-05", "4.9e-02", "2.1e-01", "< 1e-16", ""]
    assert p_text(1e-20) == f"p {cells[3]}"  # the floor, as the sentences write it


def test_without_a_tiny_p_the_column_is_decimals_as_the_sentences_write_them():
    """Two decimals, three below 0.01 ('0.05' would read as the level 0.049 is below)."""
    cells = p_column([0.21, 0.049, 0.003, 1.0, 0.0496])
    assert cells == ["0.21", "0.049", "0.003", "1.00", "0.0496"]
    assert [f"p = {c}" for c in cells] == [p_text(p) for p in (0.21, 0.049, 0.003, 1.0, 0.0496)]


@pytest.mark.parametrize(
    ("ps", "level"),
    [([0.0496, 0.21, 3e-5], 0.05), ([0.0496, 0.21], 0.05), ([0.0098, 0.4, 2e-9], 0.01)],
)
def test_every_cell_of_a_column_has_its_digits_and_reads_on_its_side(ps, level):
    cells = p_column(ps, level)
    power = any(p < 0.001 for p in ps)
    assert all((POWER if power else DECIMAL).fullmatch(c) for c in cells), cells
    digits = {len(c.split("e")[0]) for c in cells}  # powers of ten: one number of digits
    assert len(digits) == 1 if power else cells == [p_text(p, level)[4:] for p in ps], cells
    assert [float(c) < level for c in cells] == [p < level for p in ps], cells


def test_the_floor_is_the_sentences_floor():
    assert p_column([P_FLOOR / 2, P_FLOOR]) == ["< 1e-16", "1.0e-16"]
    assert p_text(P_FLOOR / 2) == "p < 1e-16" and p_text(4e-6) == "p = 4e-06"
