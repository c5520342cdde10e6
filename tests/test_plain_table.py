"""The summary table printed without rich is the text rich prints (where it prints plain text)."""

from __future__ import annotations

import io
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.table import Table

from leaves_cli import plain_table

words = st.text(st.characters(min_codepoint=32, max_codepoint=126), max_size=14)
columns = st.lists(st.tuples(words, st.sampled_from(["left", "right"])), min_size=1, max_size=7)


def _rich(title, cols, rows, width=400, **console) -> str:
    table = Table(title=title, title_justify="left")
    for header, justify in cols:
        table.add_column(header, justify=justify)
    for row in rows:
        table.add_row(*row)
    buf = io.StringIO()
    Console(file=buf, width=width, **console).print(table)
    return buf.getvalue()


@st.composite
def tables(draw):
    cols = draw(columns)
    rows = draw(st.lists(st.lists(words, min_size=len(cols), max_size=len(cols)), max_size=6))
    return (
        draw(st.text(st.characters(min_codepoint=33, max_codepoint=126), max_size=10)),
        cols,
        rows,
    )


@settings(max_examples=150)
@given(tables())
def test_plain_text_is_what_rich_prints(table):
    title, cols, rows = table
    words = [title, *(c[0] for c in cols), *(cell for row in rows for cell in row)]
    text = plain_table.render(title, cols, rows)
    if plain_table.plain_words(words) and len(title) <= len(text.splitlines()[-1]):
        assert text == _rich(title, cols, rows)


def test_print_table_writes_rich_text_or_hands_the_table_to_rich(monkeypatch):
    cols = [("strategy", "left"), ("games", "right")]
    rows = [["high", "1,000,008"], ["low", "12"]]
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    monkeypatch.setenv("COLUMNS", "80")
    out = io.StringIO()
    with monkeypatch.context() as m:
        m.setitem(sys.modules, "rich.console", None)  # importing rich now fails
        plain_table.print_table("Tournament summary", cols, rows, file=out)
    assert out.getvalue() == _rich("Tournament summary", cols, rows, width=80)
    assert out.getvalue().splitlines()[4] == "│ high     │ 1,000,008 │"

    monkeypatch.setenv("COLUMNS", "20")  # too narrow: rich lays the cells out, none cut
    out = io.StringIO()
    plain_table.print_table("Tournament summary", cols, rows, file=out)
    assert "1,000,008" in out.getvalue() and "…" not in out.getvalue()
    assert out.getvalue() != plain_table.render("Tournament summary", cols, rows)

    monkeypatch.setenv("COLUMNS", "80")
    monkeypatch.setenv("FORCE_COLOR", "1")  # a terminal forced: rich's styles
    out = io.StringIO()
    plain_table.print_table("Tournament summary", cols, rows, file=out)
    assert "\x1b[" in out.getvalue()


@pytest.mark.parametrize("cell", ["[bold]x[/bold]", ":smile:", "é", "tab\there"])
def test_cells_rich_would_change_go_through_rich(cell):
    assert not plain_table.plain_words(["ok", cell])
