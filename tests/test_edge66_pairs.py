"""Runs dealt the same deals whose duplicate sets hold forfeited games (``leaves compare`` of a
run with itself, or of two runs on the same seeds): a set whose forfeits fall on the same
games (the same seatings of the same deal) in both runs is paired over its other games, which
are then the same seatings in both, and never called unpaired as if the deals differed. Every
figure is worked out here from the sets' own games."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from reports import compare
from reports.compare_deals import overlap
from reports.loading import as_run
from tests.helpers import cli
from tests.test_audit4_compare import BOOM, _spec, play, rows
from tests.test_mutation_gauntlet60 import duo, frame
from tournaments import Gauntlet

ROT = [("x", "y", "z"), ("y", "z", "x"), ("z", "x", "y")]


def trio(seed: int, winners: tuple[int, int, int], forfeit: int) -> tuple:
    """One set of a three-seat table of x, y, z: its three seatings, ``winners`` the winning
    seat of each game, the game ``forfeit`` (-1: none) ended by a forfeit of its seat 0."""
    return (0, seed, [(s, -1 if i == forfeit else w, 0 if i == forfeit else -1)
                      for i, (s, w) in enumerate(zip(ROT, winners, strict=True))])  # fmt: skip


def sentence(sets_a: list[tuple], sets_b: list[tuple]) -> str:
    ga, gb = as_run(frame(sets_a)).games, as_run(frame(sets_b)).games
    seeds = [np.array([s for _, s, gs in x for _ in gs], dtype=np.uint64) for x in (sets_a, sets_b)]
    return overlap(ga, gb, (seeds[0], seeds[1]), (list(ga.labels), list(gb.labels))).sentence


# Per deal seed: the game (seating) forfeited in both runs, A's winners, B's winners.
DEALS = {1: (0, (0, 1, 2), (0, 2, 2)), 2: (1, (1, 0, 0), (1, 0, 1)), 3: (2, (2, 2, 0), (0, 2, 0)),
         4: (0, (0, 0, 1), (0, 1, 1)), 5: (1, (2, 1, 0), (2, 1, 2)), 6: (2, (1, 0, 2), (1, 0, 0)),
         7: (0, (1, 2, 1), (0, 2, 1))}  # fmt: skip


def _sets(side: int) -> list[tuple]:
    return [trio(seed, won[side], f) for seed, (f, *won) in DEALS.items()]


def by_hand(who: str) -> tuple[float, float, float, float, int]:
    """(A's rate, B's, B - A, its standard error, sets) of ``who`` over the games played to
    the end: per set d = B's wins less A's over its seats there (the same seatings in both),
    weighed by those seats; contributions n (d - diff) / N, one table: D / (D - 1) times
    their squared deviations from their mean."""
    per = []
    for f, won_a, won_b in DEALS.values():
        games = [(s, wa, wb) for i, (s, wa, wb) in enumerate(zip(ROT, won_a, won_b, strict=True))
                 if i != f]  # fmt: skip
        n = sum(who in s for s, _, _ in games)
        wa = sum(s[w] == who for s, w, _ in games)
        wb = sum(s[w] == who for s, _, w in games)
        per.append((wa, wb, n))
    total = sum(n for _, _, n in per)
    ra, rb = sum(p[0] for p in per) / total, sum(p[1] for p in per) / total
    u = [(wb - wa - (rb - ra) * n) / total for wa, wb, n in per]
    mean = sum(u) / len(u)
    se = math.sqrt(len(u) / (len(u) - 1) * sum((x - mean) ** 2 for x in u))
    return ra, rb, rb - ra, se, len(per)


def test_sets_forfeited_on_the_same_games_in_both_runs_pair_over_their_other_games():
    """Before: 'unpaired: ... each of the 7 both played holds a game ended by a forfeit: the
    two runs' variances add', each run's own rate over its sets and their variances added."""
    c = compare(frame(_sets(0)), frame(_sets(1)))
    assert c.paired
    assert c.pairing == (
        "paired: both runs dealt the same 7 deals (their deal seeds are identical) at the same "
        "tables: B - A is paired over the 7 duplicate sets; each holds games ended by a "
        "forfeit, the same seatings in both runs, and is paired over the games played to the "
        "end")  # fmt: skip
    t = c.table.set_index("strategy")
    for who in ("x", "y", "z"):
        ra, rb, diff, se, sets = by_hand(who)
        assert t.loc[who, "win_rate_a"] == pytest.approx(ra, abs=1e-12)
        assert t.loc[who, "win_rate_b"] == pytest.approx(rb, abs=1e-12)
        assert t.loc[who, "diff"] == pytest.approx(diff, abs=1e-12)
        assert t.loc[who, "se"] == pytest.approx(se, abs=1e-12) and se > 0
        assert t.loc[who, "units"] == sets and t.loc[who, "df"] == sets - 1


def test_a_run_with_itself_whose_every_set_holds_a_forfeit_changes_nothing():
    c = compare(frame(_sets(0)), frame(_sets(0)))
    assert c.paired and (c.table["diff"] == 0).all() and c.table["no_spread"].all()
    assert c.findings[0] == ("no strategy changed: each won as often in B as in A in every "
                             "duplicate set paired (B - A is 0, with no spread)")  # fmt: skip
    assert not any("unpaired" in f or "variances add" in f for f in c.findings)


def test_the_sets_kept_left_out_and_forfeited_whole_are_counted_apart():
    """Seed 1: the same game forfeited in both (paired over its other two); 2: A's forfeit
    only; 3: forfeits on other games in A than in B; 4: every game forfeited in both (none to
    pair); 5 and 6 clean."""
    won = (0, 1, 2)
    a = [trio(1, won, 0), trio(2, won, 1), trio(3, won, 2), trio(5, won, -1), trio(6, won, -1)]
    b = [trio(1, won, 0), trio(2, won, -1), trio(3, won, 0), trio(5, won, -1), trio(6, won, -1)]
    whole = [(0, 4, [(s, -1, 0) for s in ROT])]
    assert sentence(a + whole, b + whole) == (
        "paired where the deal seeds agree: A dealt 6 deals, B 6, 6 of them with the same seed; "
        "B - A is paired over the 3 duplicate sets both played at the same table (A has 6, B 6); "
        "1 of them holds games ended by a forfeit, the same seatings in both runs, and is "
        "paired over the games played to the end; 2 more, each holding a game ended by a "
        "forfeit, are left out; 1 more, every game of which both runs forfeited, has none to "
        "pair")  # fmt: skip
    assert sentence(a[:1] + a[3:] + whole, b[:1] + b[3:] + whole) == (
        "paired: both runs dealt the same 4 deals (their deal seeds are identical) at the same "
        "tables: B - A is paired over the 3 duplicate sets; 1 of them holds games ended by a "
        "forfeit, the same seatings in both runs, and is paired over the games played to the "
        "end; 1 more, every game of which both runs forfeited, has none to pair")  # fmt: skip


@pytest.mark.parametrize("own", [2, 3])
def test_sets_paired_over_their_other_games_count_in_the_smaller_runs_sets(own):
    """Two shared sets, both forfeited on the same game, and ``own`` clean sets each run
    alone played: 2 of 2 + 2 pairs (at least half), 2 of 2 + 3 does not."""
    shared = [duo(0, s, "x", "y", (0, 1), (-1, 0)) for s in (1, 2)]
    a = shared + [duo(0, s, "x", "y") for s in range(10, 10 + own)]
    b = shared + [duo(0, s, "x", "y") for s in range(20, 20 + own)]
    got = sentence(a, b)
    if own == 2:
        assert got.startswith("paired where the deal seeds agree: A dealt 4 deals, B 4, 2 of "
                              "them with the same seed; B - A is paired over the 2 duplicate sets")  # fmt: skip
    else:
        assert got == ("unpaired: only 2 duplicate sets (a deal seed at a table) are in both "
                       "runs (A has 5, B 5), too few to pair: the two runs' variances add")  # fmt: skip


@pytest.fixture(scope="module")
def gauntlet(tmp_path_factory) -> Path:
    """A gauntlet whose Boom forfeits some game of every duplicate set."""
    d = tmp_path_factory.mktemp("edge66")
    Gauntlet(_spec(d / "b", BOOM), ["low"], "high", players=3, games=120, seed=1).run(out=d / "g")
    return d / "g"


def test_a_tournament_with_itself_counts_the_sets_forfeited_whole_apart(tmp_path):
    """docs/reports.md: Boom, in a tournament of 240 games, forfeits every game of 29 of the
    30 sets it sits in; compared with itself, those have none to pair, the rest are paired."""
    boom = _spec(tmp_path / "b", BOOM)
    run = play(tmp_path / "t", [boom, "low", "high", "greedy"])
    g = rows(run)
    g["set"] = list(zip(g["deal_seed"], g["table"], strict=True))
    seated = g[[c for c in g.columns if c.startswith("seat_")]].eq("Boom").any(axis=1)
    whole = g.groupby("set")["forfeit"].all()
    assert (g.loc[seated, "set"].nunique(), int(whole.sum()), len(whole)) == (30, 29, 40)
    c = compare(run, run)
    assert c.pairing == (
        "paired: both runs dealt the same 40 deals (their deal seeds are identical) at the same "
        "tables: B - A is paired over the 11 duplicate sets; 1 of them holds games ended by a "
        "forfeit, the same seatings in both runs, and is paired over the games played to the "
        "end; 29 more, every game of which both runs forfeited, have none to pair")  # fmt: skip
    assert int(g.groupby("set")["forfeit"].any().sum()) - 29 == 1  # the one paired with some


def test_leaves_compare_of_a_gauntlet_with_itself_pairs_every_set(gauntlet, capsys, monkeypatch):
    """Before: 'unpaired: the runs share 40 deal seeds but each of the 40 both played holds a
    game ended by a forfeit: the two runs' variances add' and 'high +0.0 [-11.9, +11.9]'."""
    monkeypatch.setenv("COLUMNS", "200")
    g = rows(gauntlet)
    forfeits = g.groupby("deal_seed")["forfeit"].agg(["any", "all"])
    assert forfeits["any"].all() and not forfeits["all"].any()  # every set, never whole
    deals, forfeited = len(forfeits), int(g["forfeit"].sum())
    assert deals == 40  # docs/reports.md: the gauntlet's 40 sets
    code, out, err = cli(capsys, "compare", str(gauntlet), str(gauntlet))
    assert code == 0 and err == ""
    assert ("no strategy changed: each won as often in B as in A in every duplicate set paired "
            "(B - A is 0, with no spread)") in out  # fmt: skip
    assert (f"paired: both runs dealt the same {deals} deals (their deal seeds are identical) at "
            f"the same tables: B - A is paired over the {deals} duplicate sets; each holds games "
            "ended by a forfeit, the same seatings in both runs, and is paired over the games "
            "played to the end") in out  # fmt: skip
    assert (f"A {forfeited:,} of {len(g):,} games, B {forfeited:,} of {len(g):,}") in out
    assert "unpaired" not in out and "variances add" not in out and "[-" not in out
    cells = {r[0]: r[3] for line in out.splitlines() if line.startswith("│")
             for r in [[x.strip() for x in line.strip("│").split("│")]]}  # fmt: skip
    seated = g[[c for c in g.columns if c.startswith("seat_")]].eq("Boom").any(axis=1)
    boom_sets = g.loc[seated & ~g["forfeit"], "deal_seed"].nunique()  # Boom played to the end
    assert 0 < boom_sets < 6  # fewer than MIN_DF + 1 sets: no interval
    assert cells == {"Boom": "+0.0 (no interval)", "high": "+0.0 (no spread)",
                     "low": "+0.0 (no spread)"}  # fmt: skip
