"""A run where nobody wins a game (every one stopped unfinished at a limit and counts as
nobody's win): every win rate and fair share is 0, so the findings must not rank, seat or
set neighbours against zeros ('0.0000% [0.0000, 18.3473] ... fair share of 0.0000%')."""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np

import reports

from .test_boundaries_clusters import games


def _rotations(deals: int, won: bool, seat: int = 0, first_deal: int = 0, table: int = 0):
    """Each deal at one table of a, b and c (and d at four seats) under every seating; the
    seat ``seat`` wins each, or nobody (``won`` False: every game unfinished)."""
    rows = []
    for d in range(deals):
        for p in itertools.permutations(range(3 if table == 0 else 4)):
            rows.append((list(p) + [-1] * (4 - len(p)), seat if won else -1, first_deal + d, table))
    return rows


def _games(rows):
    seats, winner, deal, table = (list(x) for x in zip(*rows, strict=True))
    g = games(seats, winner, deal=deal, table=table)
    length = np.full(len(seats), 3, np.int32)
    return dataclasses.replace(
        g, unfinished=np.asarray(winner) < 0, lengths={"turns": length, "rounds": length}
    )


def _findings(g) -> str:
    tables, method = reports.compute_tables(g)
    return "\n".join(f.text for f in reports.key_findings(tables, method))


def test_a_run_nobody_won_says_so_and_compares_nothing():
    text = _findings(_games(_rotations(7, won=False)))
    assert "No strategy is ranked: no game was won, so every win rate is 0" in text, text
    assert "Seat:" not in text and "Neighbours:" not in text, text
    assert "Meta-game" not in text and "leads" not in text and "fair share" not in text, text


def test_a_table_size_nobody_won_is_said_apart_from_one_with_winners():
    g = _games(_rotations(7, won=False) + _rotations(7, won=True, first_deal=7, table=1))
    text = _findings(g)
    assert "at 3 players no game was won, so the seats cannot be compared" in text, text
    assert "at 4 players the first to play wins 100.0%" in text, text
    assert "No strategy is ranked" not in text, text
