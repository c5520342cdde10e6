"""The neighbours seat effect where a strategy sits twice at a table: "after B" is a game with
a copy of B directly before the strategy, "B elsewhere" a game with B at the table and no copy
of it directly before, so no game is on both sides. Checked on a hand-made results frame with
a known truth and over many synthetic runs whose truth is known, where the intervals must
cover it about 95% of the time."""

from __future__ import annotations

import itertools

import numpy as np
import pandas as pd
import pytest

from reports.neighbours import neighbours

TWICE = ("A", "B", "B", "C")  # B twice: one copy before A and one elsewhere, or both elsewhere
ONCE = ("A", "B", "C", "D")


def _seatings(table: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every distinct seating of a table (a copy of a strategy is not told from another)."""
    return sorted(set(itertools.permutations(table)))


def _after_b(seating: tuple[str, ...], a_seat: int) -> bool:
    """Whether B sits directly before A's seat (play goes to the next seat)."""
    return seating[(a_seat - 1) % len(seating)] == "B"


def _frame(seats: np.ndarray, winner: np.ndarray, deal: np.ndarray) -> pd.DataFrame:
    """Finished games from seat labels (G, 4), the winning seat and each game's deal."""
    g = len(seats)
    df = pd.DataFrame({"game": np.arange(g), "n_players": 4, "first_player": 0,
                       "winner_seat": winner, "turns": 10, "rounds": 2, "unfinished": False,
                       "deal": deal})  # fmt: skip
    for s in range(4):
        df[f"seat_{s}"] = seats[:, s]
        df[f"cards_left_{s}"] = pd.array(np.where(winner == s, 0, 3), dtype="Int16")
    return df


def _hand_made() -> pd.DataFrame:
    """Eight deals of each table, each deal's every seating with A at seat 0 played five
    times. A wins 5 of its 10 games after B at odd deals and 3 at even ones (40% over all),
    and 20% of its games with B elsewhere at every deal: +20 points, in the sets that seat
    B twice as in those that seat it once."""
    games = []  # (seating, winning seat, deal)
    for t, table in enumerate((TWICE, ONCE)):
        orders = [o for o in _seatings(table) if o[0] == "A"]
        for d in range(8):
            after = [o for o in orders for _ in range(5) if _after_b(o, 0)]
            apart = [o for o in orders for _ in range(5) if not _after_b(o, 0)]
            won_after = 5 if d % 2 else 3
            games += [(o, 0 if i < won_after else 1, t * 8 + d) for i, o in enumerate(after)]
            won_apart = len(apart) // 5  # 20%
            games += [(o, 0 if i < won_apart else 1, t * 8 + d) for i, o in enumerate(apart)]
    seats, winner, deal = zip(*games, strict=True)
    return _frame(np.array(seats, dtype=object), np.array(winner), np.array(deal))


def test_a_known_plus_twenty_points_with_b_seated_twice_is_measured_as_twenty():
    df = _hand_made()
    row = neighbours(df).set_index(["strategy", "before"]).loc[("A", "B")]
    assert row["vs_elsewhere"] == pytest.approx(0.20)
    assert row["vs_elsewhere_low"] < 0.20 < row["vs_elsewhere_high"]
    assert row["shared_rate"] == pytest.approx(0.40)
    assert row["elsewhere_rate"] == pytest.approx(0.20)
    assert row["vs_elsewhere_sets"] == 16
    # per deal, B twice: 10 games after B, 5 with B elsewhere (its two seats there count
    # once); B once: 10 after, 20 elsewhere
    assert row["games"] == 8 * (10 + 10)
    assert row["elsewhere_games"] == 8 * (5 + 20)
    assert not row["no_other_seat"]


def test_b_seated_twice_counts_a_game_once_elsewhere_and_never_on_both_sides():
    # B twice at a table of four, A at seat 0: B C B puts a copy directly before A and one
    # elsewhere (after B only); B B C puts none before (one game elsewhere, not two)
    seats = np.array([("A", "B", "C", "B"), ("A", "B", "B", "C")] * 6, dtype=object)
    winner = np.array([0, 2] * 6)
    df = _frame(seats, winner, np.repeat(np.arange(6), 2))
    row = neighbours(df).set_index(["strategy", "before"]).loc[("A", "B")]
    assert (row["games"], row["wins"], row["elsewhere_games"]) == (6, 6, 6)
    assert (row["shared_rate"], row["elsewhere_rate"], row["vs_elsewhere"]) == (1.0, 0.0, 1.0)


def test_b_before_in_every_game_it_shares_has_no_game_elsewhere():
    # B twice at a table of four, a copy directly before A in every game: the other copy's
    # seat makes no game one with B elsewhere
    seats = np.array([("A", "B", "C", "B"), ("A", "C", "B", "B")] * 6, dtype=object)
    df = _frame(seats, np.array([0, 1] * 6), np.repeat(np.arange(6), 2))
    row = neighbours(df).set_index(["strategy", "before"]).loc[("A", "B")]
    assert row["games"] == 12 and row["elsewhere_games"] == 0 and bool(row["no_other_seat"])
    assert np.isnan(row["vs_elsewhere"]) and row["vs_elsewhere_sets"] == 0


def _synthetic(rng: np.random.Generator, effect: float, runs: int, deals: int = 8) -> pd.DataFrame:
    """``runs`` independent runs of both tables in one frame (run ``i``'s strategies are
    labelled ``A{i}``, ``B{i}``, ...: pairs of different runs never meet, so each run's
    estimate is the one it would have alone, and a few calls do the work of hundreds; the
    cells a call sums over grow fast with the runs in a frame: ten at a time), ``deals``
    deals of each table, every distinct seating once a deal. A wins with its deal's chance (drawn per deal, shared
    by the set's games) plus ``effect`` / 2 after B and less ``effect`` / 2 with B elsewhere;
    else a seat drawn at random."""
    one = [(t, o) for t, table in enumerate((TWICE, ONCE)) for o in _seatings(table)]
    order = np.array([o for _, o in one], dtype=object)
    a_seat = np.array([o.index("A") for _, o in one])
    after = np.array([_after_b(o, a) for (_, o), a in zip(one, a_seat, strict=True)])
    table = np.array([t for t, _ in one])
    run, d, i = (x.ravel() for x in np.indices((runs, deals, len(one))))
    deal = (run * 2 + table[i]) * deals + d  # each run's tables dealt apart
    seats = order[i] + run[:, None].astype(str).astype(object)
    chance = rng.uniform(0.2, 0.5, deal.max() + 1)[deal] + np.where(after[i], 0.5, -0.5) * effect
    other = (a_seat[i] + rng.integers(1, 4, len(i))) % 4
    winner = np.where(rng.random(len(i)) < chance, a_seat[i], other)
    return _frame(seats, winner, deal)


@pytest.mark.parametrize("effect", [0.0, 0.2])
def test_the_interval_covers_a_known_seat_effect_about_95_percent_of_the_time(effect):
    rng, rows = np.random.default_rng(68), []
    for _ in range(30):  # 300 runs, 10 a frame
        t = neighbours(_synthetic(rng, effect, 10)).set_index(["strategy", "before"])
        rows.append(t.loc[[(f"A{i}", f"B{i}") for i in range(10)]])
    r = pd.concat(rows)
    assert r["vs_elsewhere_sets"].eq(16).all() and r["vs_elsewhere_low"].notna().all()
    covered = (r["vs_elsewhere_low"] <= effect) & (effect <= r["vs_elsewhere_high"])
    # unbiased: each set's difference has mean ``effect``, whatever the deal's chance
    assert abs(r["vs_elsewhere"].mean() - effect) < 0.015
    assert 0.92 <= covered.mean() <= 0.98
