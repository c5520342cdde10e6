"""A hand-made gauntlet whose field is one strategy (W): the strategy C and the baseline B each
sit at tables of C (or B) and three W, on the same deals, every seat in turn. C and B sit
after W at every table, and W holds every other seat too: no other seat to compare."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from reports.synthetic import SEATS, write_run


def gauntlet_rows(deals: int = 40, seed: int = 1) -> pd.DataFrame:
    """Games of C with W, W, W and of B with W, W, W, on the same deals (``table`` 0), each
    deal under four rotated seatings, a random seat winning each game."""
    rng = np.random.default_rng(seed)
    rows = []
    for side in ("C", "B"):
        lineup = [side, "W", "W", "W"]
        for d in range(deals):
            for r in range(4):
                seats = lineup[r:] + lineup[:r]
                won = int(rng.integers(4))
                row = {"n_players": 4, "first_player": 0, "winner_seat": won, "turns": 40,
                       "rounds": 5, "deal": d, "table": 0, "unfinished": False}  # fmt: skip
                for s in range(SEATS):
                    row[f"seat_{s}"] = seats[s] if s < 4 else None
                    row[f"cards_left_{s}"] = (0 if s == won else 3) if s < 4 else -1
                rows.append(row)
    df = pd.DataFrame(rows)
    df.insert(0, "game", np.arange(len(df)))
    return df


def gauntlet_run(out: Path) -> Path:
    """The hand-made gauntlet as a run a report reads (its manifest names the gauntlet)."""
    spec = {"strategies": ["B", "C", "W"],
            "gauntlet": {"strategy": "C", "baseline": "B", "field": ["W"]}}  # fmt: skip
    return write_run(out, gauntlet_rows(), manifest={"spec": spec})


def test_the_hand_made_gauntlet_seats_w_before_every_side_and_beside_it():
    df = gauntlet_rows()
    seats = df[[f"seat_{s}" for s in range(4)]].to_numpy()
    side = np.isin(seats, ["B", "C"])
    assert (side.sum(axis=1) == 1).all()  # one side a table, three W with it
    before = np.roll(seats, 1, axis=1)[side]  # the seat before the side's, round the table
    assert (before == "W").all() and ((seats == "W").sum(axis=1) == 3).all()
