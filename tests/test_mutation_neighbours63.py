"""Tests written where mutation testing found a rule of ``reports/neighbours.py`` no test
would notice going wrong (``python benchmarks/bench_mutation.py reports/neighbours.py``): the
seat before seat 0 at a table of six (the widest), a two-seat table (no seat elsewhere), the
rate with the other strategy elsewhere, the order of the rows and a pair met once. Each truth
is counted game by game in plain Python."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import reports
from reports.synthetic import synthetic_games


def _game_rows(seatings: list[tuple[str, ...]], winners: list[int], deals: list[int],
               columns: int = 6):  # fmt: skip
    """Rows of finished games from their seat labels, winners and deals (``columns`` seat
    columns: a run's rows have as many as its largest table)."""
    rows = []
    for i, (seats, winner, deal) in enumerate(zip(seatings, winners, deals, strict=True)):
        row = {"game": i, "n_players": len(seats), "first_player": 0, "winner_seat": winner,
               "turns": 10, "rounds": 2, "unfinished": False, "deal": deal}  # fmt: skip
        for s in range(columns):
            row[f"seat_{s}"] = seats[s] if s < len(seats) else None
            row[f"cards_left_{s}"] = (0 if s == winner else 3) if s < len(seats) else None
        rows.append(row)
    df = pd.DataFrame(rows)
    for s in range(columns):
        df[f"cards_left_{s}"] = df[f"cards_left_{s}"].astype("Int16")
    return df


def _by_set(df: pd.DataFrame) -> dict:
    """(strategy, other, deal) -> [games after other, wins, games with other at the table but
    no copy of it directly before, wins], counted by hand."""
    out: dict = {}
    for row in df.itertuples(index=False):
        n = row.n_players
        for s in range(n):
            me, prev = getattr(row, f"seat_{s}"), getattr(row, f"seat_{(s - 1) % n}")
            won = int(row.winner_seat == s)
            c = out.setdefault((me, prev, row.deal), [0, 0, 0, 0])
            c[0] += 1
            c[1] += won
            for other in {getattr(row, f"seat_{(s - b) % n}") for b in range(2, n)} - {prev}:
                c = out.setdefault((me, other, row.deal), [0, 0, 0, 0])
                c[2] += 1
                c[3] += won
    return out


def test_the_seat_before_seat_0_at_six_seats_is_the_last_and_elsewhere_rates_are_counted():
    df = synthetic_games({"a": 0.5, "b": 0.0, "c": -0.5, "d": 0.2}, players=(6,), deals=4,
                         seed=3, forfeit_p=0.0)  # fmt: skip
    t = reports.neighbours(df).set_index(["strategy", "before"])
    by_set = _by_set(df)
    games: dict = {}
    for (me, other, _), c in by_set.items():
        games[(me, other)] = games.get((me, other), 0) + c[0]
    assert {k: int(v) for k, v in t["seats"].items()} == {k: v for k, v in games.items() if v}
    for (me, other), r in t.iterrows():
        # a set is compared where it holds games of both kinds
        both = [c for (a, b, _), c in by_set.items() if (a, b) == (me, other) and c[0] and c[2]]
        if not both:
            continue
        weights = [c[0] for c in both]  # each set weighs as its games after the other
        assert r["shared_rate"] == pytest.approx(np.average([c[1] / c[0] for c in both],
                                                            weights=weights))  # fmt: skip
        assert r["elsewhere_rate"] == pytest.approx(np.average([c[3] / c[2] for c in both],
                                                               weights=weights))  # fmt: skip
        assert r["vs_elsewhere"] == pytest.approx(r["shared_rate"] - r["elsewhere_rate"])


def test_a_two_seat_table_has_a_seat_before_and_none_elsewhere():
    df = _game_rows([("a", "b"), ("b", "a"), ("a", "b")], [0, 0, 1], [0, 0, 1], columns=2)
    t = reports.neighbours(df).set_index(["strategy", "before"])
    assert {k: int(v) for k, v in t["games"].items()} == {("a", "b"): 3, ("b", "a"): 3}
    assert {k: int(v) for k, v in t["wins"].items()} == {("a", "b"): 1, ("b", "a"): 2}
    assert (t["elsewhere_games"] == 0).all() and t["vs_elsewhere"].isna().all()


def test_a_pair_met_in_one_game_has_its_row():
    df = _game_rows([("a", "b", "c")], [2], [0])
    t = reports.neighbours(df)
    got = {(r.strategy, r.before): (r.games, r.wins) for r in t.itertuples()}
    assert got == {("a", "c"): (1, 0), ("b", "a"): (1, 0), ("c", "b"): (1, 1)}
    assert t["vs_overall"].tolist() == [0.0, 0.0, 0.0]  # each its one game's rate


def test_rows_go_by_strategy_then_the_one_before_in_the_order_asked():
    df = synthetic_games({"a": 0.0, "b": 0.0, "c": 0.0, "d": 0.0}, players=(4,), deals=3,
                         seed=5, forfeit_p=0.0, seating="balanced")  # fmt: skip
    order = ["c", "a", "d", "b"]
    t = reports.neighbours(df, order=order)
    rank = {s: i for i, s in enumerate(order)}
    keys = [(rank[s], rank[b]) for s, b in zip(t["strategy"], t["before"], strict=True)]
    assert keys == sorted(keys) and len(keys) == len(set(keys)) == 12


def test_a_strategy_left_out_of_the_order_comes_last_and_its_rows_after_the_ones_asked():
    df = synthetic_games({"a": 0.0, "b": 0.0, "c": 0.0, "d": 0.0}, players=(4,), deals=3,
                         seed=5, forfeit_p=0.0, seating="balanced")  # fmt: skip
    order = ["c", "a", "d"]  # "b" left out: ranked after every strategy asked
    t = reports.neighbours(df, order=order)
    rank = {"c": 0, "a": 1, "d": 2, "b": 3}
    keys = [(rank[s], rank[b]) for s, b in zip(t["strategy"], t["before"], strict=True)]
    assert keys == sorted(keys) and len(keys) == 12
