"""A label of wide characters (two terminal cells each) was measured by its length in
characters, so the fitted table split it across lines where it fits whole, and cut nothing
but folded it mid-word. Widths are counted in terminal cells."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from leaves_cli.fitted import printed_table

LABEL = "日本語の戦略名前"  # 8 characters, 16 cells


@pytest.mark.parametrize("width", [40, 60, 80, 120])
def test_a_wide_label_is_whole_on_its_line_where_it_fits(width):
    table = printed_table("Tournament summary", [("strategy", "left"), ("win rate", "right")],
                          [[LABEL, "51.0%"], ["greedy", "49.0%"]])  # fmt: skip
    out = io.StringIO()
    Console(file=out, width=width, color_system=None, legacy_windows=False).print(table)
    text = out.getvalue()
    assert LABEL in text, text
    assert all(len(line) <= width for line in text.splitlines())
