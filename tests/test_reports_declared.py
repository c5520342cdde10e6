"""Reports read a run through its game's declaration: properties that must hold for any game."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st

import reports
from reports.data import MISSING, default_declaration
from reports.loading import games_from_frame
from reports.synthetic import synthetic_games
from tournaments.game import Declaration

STRENGTHS = {"a": 1.0, "b": 0.4, "c": 0.0, "d": -0.6}


def _flipped(df: pd.DataFrame) -> tuple[pd.DataFrame, Declaration]:
    """The same games with the rank value negated ("gap", higher is better)."""
    d = default_declaration()
    out = df.rename(columns={c: c.replace("cards_left_", "gap_") for c in df.columns})
    for c in out.columns:
        if c.startswith("gap_"):
            out[c] = -out[c]
    return out, replace(d, rank_value="gap", seat_columns=("gap",), higher_is_better=True)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([(3,), (4,), (3, 5)]))
def test_the_declared_direction_is_only_an_order(seed, players):
    """Negating the rank value and declaring higher is better changes no finishing order: the
    same wins, head to head, patterns and ratings."""
    df = synthetic_games(STRENGTHS, players=players, deals=15, seed=seed)
    flipped, higher = _flipped(df)
    low, high = games_from_frame(df), games_from_frame(flipped, higher)
    assert np.array_equal(low.ranks_key(), high.ranks_key())  # the same finishing keys
    cols = ["strategy", "games", "wins", "win_rate", "forfeits"]
    pd.testing.assert_frame_equal(reports.summary(low)[cols], reports.summary(high)[cols])
    pd.testing.assert_frame_equal(reports.head_to_head(low), reports.head_to_head(high))
    a, b = reports.rating(low), reports.rating(high)
    assert a["strategy"].tolist() == b["strategy"].tolist()
    np.testing.assert_allclose(a["rating"], b["rating"], atol=1e-9)


@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.sampled_from([(3,), (4,), (3, 5)]))
def test_shared_wins_go_to_every_seat_tied_for_the_best_value(seed, players):
    """Under a declaration with shared wins, a game's winners are exactly the occupied seats
    with the best rank value (at least one), and nobody wins a forfeited game."""
    df = synthetic_games(STRENGTHS, players=players, deals=10, seed=seed, forfeit_p=0.05)
    flipped, higher = _flipped(df)
    g = games_from_frame(flipped, replace(higher, shared_wins=True))
    won = g.wins()
    occupied = (g.seats >= 0) & (g.values != MISSING)
    best = np.where(occupied, g.values, np.iinfo(np.int16).min).max(axis=1)
    for i in range(len(g)):
        if g.forfeited[i]:
            assert not won[i].any()
            continue
        expected = occupied[i] & (g.values[i] == best[i])
        assert won[i].any() and (won[i] == expected).all()
    summary = reports.summary(g).set_index("strategy")
    shares = won / won.sum(axis=1, keepdims=True).clip(min=1)
    for code, label in enumerate(g.labels):
        assert summary.loc[label, "wins"] == int(won[g.seats == code].sum())
        share = shares[g.seats == code].sum() / summary.loc[label, "seats"]
        assert np.isclose(summary.loc[label, "win_share"], share)
