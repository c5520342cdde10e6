"""A plug-in's length column is worded as its unit in the key findings: "all 300 games lasted
3 tricks played", never its name ("3 tricks_played"), the singular where one is counted ("1
trick played"). 13 Leaves' and Ligretto's words are as they were (their golden tests)."""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest

from reports.data import default_declaration
from reports.finding import measure_words
from reports.findings import _lengths

D = dataclasses.replace(default_declaration(), length_value="tricks_played",
                        length_columns=("tricks_played", "cards_moved"))  # fmt: skip


def _row(measure: str, games: int, lo: float, median: float, hi: float) -> dict:
    return {"by": "all", "group": "all", "measure": measure, "games": games, "min": lo,
            "median": median, "max": hi, "mean": median + 0.25}  # fmt: skip


def _said(*rows: dict) -> str:
    (found,) = _lengths(pd.DataFrame(list(rows)), D)
    return found.text


@pytest.mark.parametrize(
    ("column", "words"),
    [
        ("turns", ("turns", "turn")),  # a word is as it was
        ("seconds", ("seconds", "second")),
        ("tricks_played", ("tricks played", "trick played")),
        ("cards__moved_", ("cards moved", "card moved")),
        ("time_ms", ("time ms", "time ms")),  # no plural to take off
    ],
)
def test_measure_words(column, words):
    assert measure_words(column) == words


def test_a_plugin_s_length_column_reads_as_words():
    assert _said(_row("tricks_played", 300, 3, 3, 3)) == (
        "Game length: all 300 games lasted 3 tricks played."
    )
    assert _said(_row("tricks_played", 2, 1, 2, 3), _row("cards_moved", 2, 9, 9, 9)) == (
        "Game length: the 2 games lasted 1 trick played and 3 tricks played, 9.2 cards moved "
        "on average."
    )
