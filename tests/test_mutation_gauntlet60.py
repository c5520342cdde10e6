"""Boundary tests of the comparison of two runs (``reports.compare``) and of the gauntlet
(``tournaments.gauntlet``, ``reports.gauntlet``), written against truths worked out here from
the rows of tiny synthetic runs, so that a wrong formula or rule in them fails a test
(``benchmarks/bench_mutation.py``)."""

from __future__ import annotations

import importlib
import math
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from reports import ReportError
from reports.compare import _alone, _change, _findings, compare
from tournaments.sequential import (
    BETTER,
    FORMER_NOT_BETTER,
    NOT_BETTER,
    NOTHING_VALID,
    RUNNING,
    UNDECIDED,
)

NAN = float("nan")
SEATS = 3  # seat columns of every synthetic run: a two-seat game leaves seat_2 empty (-1)


# ------------------------------------------------------------------ synthetic runs
def frame(sets: list[tuple], labels: list[str] | None = None) -> pd.DataFrame:
    """A games DataFrame in a run's layout: per duplicate set (table, deal seed, games), each
    game (seats, winner seat, forfeiting seat or -1). ``labels``: the seat columns'
    categories, which may name a strategy that never sat (as an unfinished run's do)."""
    rows = []
    for deal, (table, seed, games) in enumerate(sets):
        for seats, winner, forfeit in games:
            r = {"game": len(rows), "deal": deal, "table": table, "deal_seed": seed,
                 "n_players": len(seats), "first_player": 0, "winner_seat": winner,
                 "turns": 10, "rounds": 2, "forfeit_seat": forfeit}  # fmt: skip
            for i in range(SEATS):
                r[f"seat_{i}"] = seats[i] if i < len(seats) else None
                r[f"cards_left_{i}"] = (0 if i == winner else 3) if i < len(seats) else NAN
            rows.append(r)
    df = pd.DataFrame(rows)
    if labels:
        for i in range(SEATS):
            df[f"seat_{i}"] = pd.Categorical(df[f"seat_{i}"], categories=labels)
    return df


def duo(table: int, seed: int, a: str, b: str, wins=(0, 0), forfeit=(-1, -1)) -> tuple:
    """One duplicate set of a two-seat table: ``a`` first, then ``b`` first; ``wins`` the
    winning seat of each game (-1: none), ``forfeit`` the seat that forfeited (-1: none)."""
    return (table, seed, [((a, b), wins[0], forfeit[0]), ((b, a), wins[1], forfeit[1])])


TRIO = ("x", "y", "z")
ROTATIONS = [TRIO, ("y", "z", "x"), ("z", "x", "y")]


def trio_run(winners: list[tuple[str, str, str]], seed0: int) -> pd.DataFrame:
    """One three-seat table of x, y and z, a duplicate set per entry of ``winners`` (the
    winner of each of the set's three seatings), dealt seeds ``seed0``, ``seed0 + 1``..."""
    sets = []
    for d, won in enumerate(winners):
        games = [(seats, seats.index(w), -1) for seats, w in zip(ROTATIONS, won, strict=True)]
        sets.append((0, seed0 + d, games))
    return frame(sets)


def by_hand(winners: list[tuple[str, str, str]], who: str) -> tuple[float, float, float]:
    """(rate, variance, degrees of freedom) of ``who``'s win rate over one table's duplicate
    sets of three games each: each set's linearised contribution (w - p * 3) / N, the
    table's D / (D - 1) times their squared deviations from their mean, D - 1 df."""
    d = len(winners)
    w = [sum(x == who for x in won) for won in winners]
    n = 3 * d
    p = sum(w) / n
    u = [(wc - 3 * p) / n for wc in w]
    mean = sum(u) / d
    return p, d / (d - 1) * sum((x - mean) ** 2 for x in u), d - 1.0


def holm_by_hand(p: list[float]) -> list[float]:
    order = sorted(range(len(p)), key=lambda i: p[i])
    out, running = [0.0] * len(p), 0.0
    for rank, i in enumerate(order):
        running = max(running, (len(p) - rank) * p[i])
        out[i] = min(running, 1.0)
    return out


# A: six sets (5 df, exactly the fewest for an interval), B: nine sets (8 df), other seeds
WIN_A = [("x", "y", "z"), ("y", "y", "z"), ("z", "x", "x"), ("y", "z", "y"), ("x", "z", "z"),
         ("z", "y", "y")]  # fmt: skip
WIN_B = [("x", "x", "x"), ("x", "x", "y"), ("x", "z", "x"), ("x", "x", "x"), ("y", "x", "x"),
         ("x", "x", "z"), ("x", "y", "x"), ("x", "x", "x"), ("z", "x", "y")]  # fmt: skip
COLUMNS = ["strategy", "win_rate_a", "ci_low_a", "ci_high_a", "win_rate_b", "ci_low_b",
           "ci_high_b", "diff", "ci_low", "ci_high", "se", "df", "units", "no_spread", "p_value",
           "p_holm", "significant", "strategy_a", "strategy_b"]  # fmt: skip


def unpaired_truth(wa, wb) -> pd.DataFrame:
    """The unpaired comparison's numbers, per strategy, from the winners alone: B - A, the
    variances added, Welch's degrees of freedom (none below 5 df on either side), the t
    interval cut to [-1, 1], the two-sided t test, Holm over the three."""
    out = []
    for s in TRIO:
        pa, va, dfa = by_hand(wa, s)
        pb, vb, dfb = by_hand(wb, s)
        df = (va + vb) ** 2 / (va**2 / dfa + vb**2 / dfb) if min(dfa, dfb) >= 5 else NAN
        se = math.sqrt(va + vb)
        q = stats.t.ppf(0.975, df) if df == df else NAN
        p = 2 * stats.t.sf(abs((pb - pa) / se), df) if df == df else NAN
        out.append({"strategy": s, "win_rate_a": pa, "win_rate_b": pb, "diff": pb - pa,
                    "se": se, "df": df, "ci_low": max(-1.0, pb - pa - q * se),
                    "ci_high": min(1.0, pb - pa + q * se), "p_value": p,
                    "units": min(len(wa), len(wb))})  # fmt: skip
    t = pd.DataFrame(out)
    t["p_holm"] = holm_by_hand(t["p_value"].fillna(1.0).tolist())
    t.loc[t["p_value"].isna(), "p_holm"] = NAN
    return t.sort_values(["diff", "strategy"], ascending=[False, True], ignore_index=True)


# ------------------------------------------------------------------ reports.compare
def test_an_unpaired_difference_is_welchs_recomputed_from_the_rows():
    """Runs of other deals: B - A per strategy, its standard error the root of the two
    runs' variances added, Welch's degrees of freedom, the t interval and test, Holm's
    adjustment and significance at 0.05: every figure recomputed from the winners. A run of
    exactly 5 df (six sets at one table) still gets an interval, on either side."""
    a, b = trio_run(WIN_A, 100), trio_run(WIN_B, 500)
    c = compare(a, b)
    assert not c.paired and c.pairing.startswith("unpaired: the runs share no deal seed")
    assert (c.a, c.b) == ("A", "B")
    assert list(c.table.columns) == COLUMNS
    truth = unpaired_truth(WIN_A, WIN_B)
    t = c.table
    assert list(t["strategy"]) == list(truth["strategy"])
    for col in ["win_rate_a", "win_rate_b", "diff", "se", "df", "ci_low", "ci_high", "p_value",
                "p_holm"]:  # fmt: skip
        assert np.allclose(t[col], truth[col], rtol=1e-9, atol=1e-12), (col, t[col], truth[col])
    assert list(t["units"]) == [6, 6, 6]
    assert list(t["significant"]) == list(truth["p_holm"] < 0.05)
    assert t["significant"].any() and not t["significant"].all()  # both sides of 0.05
    assert not t["no_spread"].any()
    assert not any(f.startswith("not compared") for f in c.findings), c.findings
    # the other way round: the run of 5 df is B now, and every difference changes sign
    back = compare(b, a).table.set_index("strategy").loc[list(TRIO)]
    fwd = t.set_index("strategy").loc[list(TRIO)]
    assert np.allclose(back["diff"], -fwd["diff"]) and np.allclose(back["df"], fwd["df"])


def test_significance_is_a_holm_p_below_alpha_not_at_it():
    a, b = trio_run(WIN_A, 100), trio_run(WIN_B, 500)
    t = compare(a, b).table
    least = float(t["p_holm"].min())
    at = compare(a, b, alpha=least).table
    assert not at["significant"].any()  # p_holm == alpha is not below it
    above = compare(a, b, alpha=np.nextafter(least, 1)).table
    assert above["significant"].sum() == (t["p_holm"] == least).sum()


def _pair_runs():
    """A six-set table of x and y; B the same deals, x now winning both games of each set."""
    wins_a = [(s % 2, 0) for s in range(6)]
    a = frame([duo(0, 10 + s, "x", "y", w) for s, w in enumerate(wins_a)])
    b = frame([duo(0, 10 + s, "x", "y", (0, 1)) for s in range(6)])
    return a, b


def test_a_pair_renamed_in_b_is_still_paired_and_named_by_its_sentence():
    """``pairs`` matching x with B's x2: the runs dealt the same deals at tables of the same
    strategies once x2 reads as x, so B - A is paired; the pair's sentence is in the findings,
    the unchanged strategy's (matched as itself) is not."""
    a, b = _pair_runs()
    b2 = b.copy()
    for i in range(2):
        b2[f"seat_{i}"] = b2[f"seat_{i}"].replace({"x": "x2"})
    c = compare(a, b2, pairs=[("x", "x2")])
    assert c.paired
    d = c.table.set_index("strategy_a")
    # in A, x wins the first game of the even sets (seat 0); y, first in the second game,
    # wins that game of every set: 3 of x's 12 games
    x_a = sum(s % 2 == 0 for s in range(6)) / 12
    assert d.loc["x", "win_rate_a"] == pytest.approx(x_a)
    assert d.loc["x", "win_rate_b"] == pytest.approx(1.0)
    said = [m.sentence() for m in c.matches if m.how != "same"]
    assert len(said) == 1 and said[0] in c.findings and "x2" in said[0]
    assert not [m for m in c.matches if m.how == "same" and m.sentence() in c.findings]


def test_one_sided_fields_and_namesakes_paired_elsewhere_are_said():
    """A has z, B does not: the fields differ, only in A (and the other way round, only in
    B). With ``--pair`` giving x another partner, x's namesake is left out as such, and the
    fields do not differ."""
    big = frame([duo(0, 1, "x", "y", (0, 1)), duo(1, 2, "x", "z", (1, 0)),
                 duo(2, 3, "y", "z", (0, 0))])  # fmt: skip
    small = frame([duo(0, 1, "x", "y", (1, 1))])
    c = compare(big, small)
    assert (c.only_a, c.only_b) == (["z"], [])
    assert any("(only in A: z; only in B: -)" in f for f in c.findings), c.findings
    assert "not compared: only in A z; only in B -" in c.findings
    c = compare(small, big)
    assert (c.only_a, c.only_b) == ([], ["z"])
    assert any("(only in A: -; only in B: z)" in f for f in c.findings), c.findings
    assert "not compared: only in A -; only in B z" in c.findings
    # B's w partners A's x: B's own x is left without one, though A has an x
    w = frame([duo(0, 1, "x", "y", (0, 1)), duo(1, 2, "w", "y", (1, 0)),
               duo(2, 3, "x", "w", (0, 0))])  # fmt: skip
    c = compare(small, w, pairs=[("x", "w")])
    taken = ("not compared, as their namesakes in the other run were paired with another "
             "strategy: x of B")  # fmt: skip
    assert taken in c.findings
    assert not any("fields differ" in f or f.startswith("not compared: only") for f in c.findings)
    c = compare(w, small, pairs=[("w", "x")])
    assert taken.replace("x of B", "x of A") in c.findings
    assert not any("fields differ" in f for f in c.findings)


def test_a_strategy_that_never_sat_is_named_as_such_not_as_one_of_no_set():
    """z is among the runs' labels but sat at no table (as in an unfinished run); the games
    are of two seats with a third seat column empty (-1)."""
    a = frame([duo(0, s, "x", "y", (s % 2, 0)) for s in range(1, 7)], labels=list(TRIO))
    b = frame([duo(0, s, "x", "y", (0, s % 2)) for s in range(1, 7)], labels=list(TRIO))
    c = compare(a, b)
    assert sorted(c.table["strategy"]) == ["x", "y"]
    why = ("not compared, with no valid game (it played none there, as an unfinished run may "
           "not reach every table: z in A and B)")  # fmt: skip
    assert why in c.findings
    assert not any("having sat in none" in f or "ended by a forfeit" in f for f in c.findings)


def _forfeit_runs():
    """x, y and z at three two-seat tables, six sets each; in B z forfeits every game it
    sits in (the x-z and y-z tables), and the x-y sets are B's deals too."""
    a, b = [], []
    for s in range(6):
        for table, (p, q) in enumerate([("x", "y"), ("x", "z"), ("y", "z")]):
            seed = 100 * table + s
            a.append(duo(table, seed, p, q, (s % 2, (s // 2) % 2)))
            if q == "z":  # z sits second in the first game, first in the second
                b.append(duo(table, seed, p, q, (-1, -1), (1, 0)))
            else:
                b.append(duo(table, seed, p, q, ((s + 1) % 2, 0)))
    return frame(a), frame(b)


def test_a_strategy_whose_every_game_was_forfeited_is_not_compared_either_way():
    a, b = _forfeit_runs()
    why = ("not compared, with no valid game (every game it sat in there ended by a forfeit, so "
           "its win rate measures nothing: z in {})")  # fmt: skip
    for first, second, side in ((a, b, "B"), (b, a, "A")):
        c = compare(first, second)
        assert sorted(c.table["strategy"]) == ["x", "y"]
        assert why.format(side) in c.findings, c.findings
        lost = "games ended by a forfeit are left out, as in the report's paired comparisons: " + (
            "A 0 of 36 games, B 24 of 36" if side == "B" else "A 24 of 36 games, B 0 of 36"
        )
        assert any(f.startswith(lost) for f in c.findings), c.findings
        assert not any("played none" in f or "having sat in none" in f for f in c.findings)


def test_no_forfeit_line_without_forfeits():
    a, b = _pair_runs()
    assert not any("forfeit" in f for f in compare(a, b).findings)


def test_a_strategy_in_no_paired_set_is_left_out_and_one_in_a_single_set_kept():
    """Paired over the 7 of 9 sets both runs dealt at the same tables: z sat in one of them
    (1 unit, kept), w in none (left out and named)."""
    a = frame([duo(0, s, "x", "y", (s % 2, 1)) for s in range(1, 7)]
              + [duo(1, 7, "x", "z", (0, 1)), duo(1, 8, "x", "z"), duo(2, 9, "x", "w")])  # fmt: skip
    b = frame([duo(0, s, "x", "y", (0, s % 2)) for s in range(1, 7)]
              + [duo(1, 7, "x", "z", (1, 1)), duo(1, 18, "x", "z"), duo(2, 19, "x", "w")])  # fmt: skip
    c = compare(a, b)
    assert c.paired and "is paired over the 7 duplicate sets" in c.pairing, c.pairing
    t = c.table.set_index("strategy")
    assert sorted(t.index) == ["x", "y", "z"]
    assert t.loc["z", "units"] == 1 and t.loc["y", "units"] == 6 and t.loc["x", "units"] == 7
    gone = [f for f in c.findings if "having sat in none" in f]
    assert gone == ["not compared, having sat in none of the duplicate sets compared: w"]


def test_nothing_left_once_the_forfeited_tables_leave_both_runs_is_an_error():
    """Unpaired runs: B forfeited every game at the x-y table, so that table leaves A's rates
    too; x and y played validly only at B's other tables, which A lacks (A's other table is of
    strategies B lacks)."""
    a = frame([duo(0, s, "x", "y", (0, 1)) for s in range(1, 4)] + [duo(1, 9, "v", "w")])
    b = frame([duo(0, 50 + s, "x", "y", (-1, -1), (0, 0)) for s in range(3)]
              + [duo(1, 60, "x", "z"), duo(2, 61, "y", "z")])  # fmt: skip
    with pytest.raises(ReportError) as e:
        compare(a, b)
    msg = str(e.value)
    assert msg.startswith("nothing to compare between A and B: games ended by a forfeit are "
                          "left out"), msg  # fmt: skip
    assert "(x, y)" in msg and "\n" not in msg


# ------------------------------------------------------------------ its sentences
def row(**kw):
    base = {"strategy": "s", "diff": 0.1, "ci_low": 0.05, "ci_high": 0.15, "no_spread": False,
            "p_value": 0.01, "units": 20}  # fmt: skip
    return SimpleNamespace(**{**base, **kw})


def test_an_interval_is_clear_of_zero_only_when_zero_is_outside_it():
    assert _alone(row(), 0.05)
    assert not _alone(row(ci_low=0.0), 0.05)  # 0 is in [0, 0.15]
    assert not _alone(row(diff=-0.1, ci_low=-0.15, ci_high=0.0), 0.05)
    assert not _alone(row(ci_low=-0.5, ci_high=1.0), 0.05)
    assert not _alone(row(ci_low=-1.0, ci_high=0.5), 0.05)
    assert _alone(row(ci_low=0.5, ci_high=1.0), 0.05) and _alone(row(ci_low=-1.0, ci_high=-0.5),
                                                                 0.05)  # fmt: skip
    # no spread: the sign test's p must be below alpha, not at it
    flat = {"ci_low": NAN, "ci_high": NAN, "no_spread": True}
    assert _alone(row(**flat, p_value=0.049), 0.05)
    assert not _alone(row(**flat, p_value=0.05), 0.05)


def test_an_interval_is_written_in_signed_points_to_one_decimal():
    assert _change(row(ci_low=0.5, ci_high=-0.25), paired=True)[1] == "[+50.0, -25.0]"


def table(rows: list[dict]) -> pd.DataFrame:
    t = pd.DataFrame([{**vars(row()), "p_holm": 0.01, "significant": True, **r} for r in rows])
    return t


def test_a_significant_change_whose_interval_holds_zero_says_so():
    for lo, hi, says in ((0.0, 0.2, True), (-0.2, 0.0, True), (0.5, 1.0, False),
                         (-1.0, -0.5, False), (0.1, 0.3, False)):  # fmt: skip
        t = table([{"diff": (lo + hi) / 2, "ci_low": lo, "ci_high": hi}])
        (text,) = _findings(t, identical=False)
        assert ("(significant at alpha 0.05 after Holm correction, though its 95% interval "
                "includes 0)" in text) == says, (lo, hi, text)  # fmt: skip


def test_every_change_significant_leaves_no_other():
    t = table([{"strategy": "a"}, {"strategy": "b", "diff": 0.2}])
    (text,) = _findings(t, identical=False)
    assert "no other strategy" not in text and text.index("b wins") < text.index("a wins")


def test_the_largest_change_named_is_the_largest_then_the_surer():
    base = {"significant": False, "p_holm": 0.5, "p_value": 0.5}
    t = table([{"strategy": "a", "diff": 0.1, **base}, {"strategy": "b", "diff": -0.3, **base},
               {"strategy": "c", "diff": 0.2, **base}])  # fmt: skip
    (text,) = _findings(t, identical=False)
    assert "(largest: b " in text
    # equal sizes (to 9 decimals): the smaller p is named, a p that is NaN counting as none
    t = table([{"strategy": "a", "diff": 0.0, **base, "p_value": NAN},
               {"strategy": "b", "diff": 0.0, **base, "p_value": 1.0}])  # fmt: skip
    (text,) = _findings(t, identical=False)
    assert "(largest: b " in text, text
    t = table([{"strategy": "a", "diff": 0.3 + 4e-10, **base, "p_value": 0.6},
               {"strategy": "b", "diff": 0.3, **base, "p_value": 0.2}])  # fmt: skip
    assert "(largest: b " in _findings(t, identical=False)[0]
    t.loc[0, "diff"] = 0.3 + 4e-9  # larger at the 9th decimal
    assert "(largest: a " in _findings(t, identical=False)[0]


def test_a_flat_difference_with_no_p_is_not_too_few_deals():
    """Unpaired runs whose sets each gave the same rate: no interval and no test, but not for
    want of deals."""
    t = table([{"diff": 0.5, "ci_low": NAN, "ci_high": NAN, "no_spread": True, "p_value": NAN,
                "p_holm": NAN, "significant": False}])  # fmt: skip
    (text,) = _findings(t, identical=False, paired=False)
    assert "too few deals" not in text and text.startswith("no strategy changed significantly")
    t.loc[0, "no_spread"] = False
    assert _findings(t, identical=False) == [
        "too few deals for an interval: no difference can be told"
    ]


def test_the_default_alpha_is_five_percent():
    t = table([{"ci_low": -0.01, "ci_high": 0.2}])
    (text,) = _findings(t, identical=False)
    assert "significant at alpha 0.05 after Holm" in text
    flat = table([{"ci_low": NAN, "ci_high": NAN, "no_spread": True, "p_value": 0.04,
                   "p_holm": 0.08, "significant": False}])  # fmt: skip
    (text,) = _findings(flat, identical=False)
    assert "after Holm correction over the 1 strategy compared" in text, text


# ------------------------------------------------------------------ tournaments.gauntlet
def test_the_field_fills_the_other_seats_by_combination_or_in_turn():
    from tournaments.gauntlet import field_groups

    assert field_groups([1, 2, 3], 2) == [(1, 2), (1, 3), (2, 3)]
    assert field_groups([1, 2], 1) == [(1,), (2,)]  # a two-seat table: one field seat
    assert field_groups([1, 2], 2) == [(1, 2)]
    assert field_groups([1, 2], 3) == [(1, 2, 1)]  # repeated in turn
    for field, seats in (([], 2), ([], 0), ([1], 0), ([1], -1)):
        with pytest.raises(ValueError, match="at least one field strategy and one field seat"):
            field_groups(field, seats)


def test_a_gauntlets_tables_seatings_and_games_per_side():
    """Three of a field of three at a three-seat table: every two of them make a table, once
    with the strategy and once with the baseline in its seat, in the same seatings; the games
    asked are rounded up to whole duplicate sets of every table, as many for each side."""
    from tournaments.gauntlet import Gauntlet

    g = Gauntlet("greedy", ["low", "high", "counter"], baseline="taker", players=3, games=50,
                 seed=1)  # fmt: skip
    assert g.labels == ("counter", "greedy", "high", "low", "taker")
    me, other = 1, 4
    groups = [(0, 2), (0, 3), (2, 3)]
    assert g.tables == [(me, *x) for x in groups] + [(other, *x) for x in groups]
    mine, theirs = g.seatings[:3], g.seatings[3:]
    for d, x in zip(mine, groups, strict=True):
        assert sorted(d) == sorted(set(d)) and all(sorted(s) == sorted((me, *x)) for s in d)
    assert theirs == [tuple(tuple(other if e == me else e for e in s) for s in d) for d in mine]
    per_table = len(mine[0])  # the balanced design's seatings of a deal
    deals = math.ceil(50 / (3 * per_table))
    assert g.games_per_side == 3 * deals * per_table == 54
    assert g.schedule.n_games == 2 * g.games_per_side
    assert g.rounded_note == (f"54 games each for greedy and the baseline taker = 3 tables x "
                              f"{deals} deals x {per_table} seatings (balanced; asked 50, "
                              "rounded up to whole duplicate sets)")  # fmt: skip
    assert g.spec()["gauntlet"] == {"strategy": "greedy", "baseline": "taker",
                                    "field": ["counter", "high", "low"]}  # fmt: skip
    one = Gauntlet("greedy", ["low"], baseline="taker", players=3, games=6, seed=1)
    assert one.tables == [(0, 1, 1), (2, 1, 1)] and one.games_per_side == 6
    assert one.rounded_note.startswith("6 games each for greedy and the baseline taker = 1 table x")
    assert one.rounded_note.endswith("(balanced; asked 6)")


def test_a_gauntlets_defaults_and_the_checks_of_its_entrants():
    from tournaments.games import get_game
    from tournaments.gauntlet import Gauntlet

    g = Gauntlet("greedy", ["low"])
    game = get_game()
    assert g.gauntlet == {"strategy": "greedy", "baseline": game.default_baseline,
                          "field": ["low"]}  # fmt: skip
    assert g.games_asked == 20_000 and len(g.tables[0]) == 4  # four seats
    assert g.game.title == game.title
    assert "sequential" not in g.spec()["gauntlet"]
    seq = {"margin": 2.0, "alpha": 0.05, "beta": 0.05, "max_games": 100}
    s = Gauntlet("greedy", ["low"], baseline="taker", players=3, games=6, sequential=seq)
    assert s.spec()["gauntlet"]["sequential"] == seq
    with pytest.raises(ValueError, match=r"the strategy and its baseline are the same \(greedy\)"):
        Gauntlet("greedy", ["low"], baseline="greedy", players=3, games=6)
    same = Gauntlet("greedy", ["low"], baseline="greedy", players=3, games=6, allow_same=True)
    assert same.gauntlet["baseline"] == "greedy (baseline)"
    assert same.labels == ("greedy", "greedy (baseline)", "low")
    for strategy, baseline, param in (("low", "taker", "field"), ("greedy", "low", "baseline")):
        with pytest.raises(ValueError) as e:
            Gauntlet(strategy, ["low", "high"], baseline=baseline, players=3, games=6)
        assert e.value.params == (param,), str(e.value)
        assert f"is also in the field: pick another {param}" in str(e.value)
    assert Gauntlet("greedy", ["low"], baseline="taker", players=[3], games=6).tables[0] == (
        0, 1, 1)  # fmt: skip
    with pytest.raises(ValueError, match="takes one table size for a gauntlet"):
        Gauntlet("greedy", ["low"], baseline="taker", players=[3, 4], games=6)


def test_gauntlet_passes_its_defaults_on(monkeypatch):
    tg = importlib.import_module("tournaments.gauntlet")  # the module: the package's name
    seen = {}  # ``gauntlet`` is the function

    def run(self, n_jobs=None, out=None, resume=None):
        seen.update(self=self, n_jobs=n_jobs, out=out, resume=resume)
        return "ran"

    monkeypatch.setattr(tg.Gauntlet, "run", run)
    assert tg.gauntlet("greedy", ["low"], baseline="taker") == "ran"
    g = seen["self"]
    assert (g.games_asked, len(g.tables[0]), seen["n_jobs"], seen["resume"]) == (20_000, 4, 1,
                                                                                 False)  # fmt: skip


def test_a_played_gauntlet_gives_each_side_its_games_on_the_same_deals(tmp_path):
    from tournaments.gauntlet import Gauntlet

    res = Gauntlet("greedy", ["low", "high"], baseline="taker", players=3, games=10,
                   seed=3).run(out=tmp_path / "g")  # fmt: skip
    rows = res.games()
    seats = rows[[f"seat_{i}" for i in range(3)]].astype(str)
    mine = (seats == "greedy").any(axis=1)
    theirs = (seats == "taker").any(axis=1)
    assert not (mine & theirs).any() and (mine | theirs).all()
    assert mine.sum() == theirs.sum() == 12  # one table, 2 deals of 6 seatings
    assert sorted(rows.loc[mine, "deal_seed"]) == sorted(rows.loc[theirs, "deal_seed"])
    assert (res.strategy, res.baseline, res.field) == ("greedy", "taker", ["high", "low"])
    html = res._repr_html_()
    assert html.startswith("<p>Gauntlet: <b>greedy</b> and the baseline <b>taker</b> against "
                           "high, low") and len(html) > 200  # fmt: skip


# ------------------------------------------------------------------ reports.gauntlet
BOOM = """
from strategies import Strategy


class Boom(Strategy, register=False):
    classifier = {"stochastic": False}

    def choose(self, view, legal, rng):
        if view.turn >= 30 and len(legal) > 2:
            raise RuntimeError("boom")
        return legal[0]


class Bust(Boom, register=False):
    def choose(self, view, legal, rng):
        if view.turn >= 24 and len(legal) > 2:
            raise RuntimeError("bust")
        return legal[-1]
"""


@pytest.fixture(scope="module")
def forfeits(tmp_path_factory):
    """A gauntlet whose strategy and baseline both forfeit some of their games."""
    from tournaments.gauntlet import Gauntlet

    d = tmp_path_factory.mktemp("boom")
    (d / "boom.py").write_text(BOOM)
    return Gauntlet(f"{d}/boom.py:Boom", ["low"], baseline=f"{d}/boom.py:Bust", players=3,
                    games=18, seed=2).run(out=d / "g")  # fmt: skip


def test_a_gauntlets_row_counts_each_sides_games_and_forfeits_from_its_rows(forfeits):
    from reports.gauntlet import gauntlet

    t = gauntlet(forfeits)
    r = t.iloc[0]
    rows = forfeits.games()
    seats = rows[[f"seat_{i}" for i in range(3)]].astype(str)
    mine, theirs = (seats == "Boom").any(axis=1), (seats == "Bust").any(axis=1)
    lost = rows["forfeit_seat"] >= 0
    assert 0 < (lost & mine).sum() < mine.sum() and 0 < (lost & theirs).sum() < theirs.sum()
    assert (r["games"], r["baseline_games"]) == (mine.sum(), theirs.sum())
    assert (r["forfeited"], r["baseline_forfeited"]) == ((lost & mine).sum(), (lost & theirs).sum())
    who = [seats.to_numpy()[i, s] for i, s in enumerate(rows["forfeit_seat"]) if s >= 0]
    assert (r["forfeits"], r["baseline_forfeits"]) == (who.count("Boom"), who.count("Bust"))
    assert r["deals"] == rows.loc[mine, "deal_seed"].nunique() and r["n_players"] == 3
    first = rows.loc[lost].sort_values("game").iloc[0]
    assert r["first_error"] == f"game {first['game']}: {first['error']}"
    assert (r["strategy"], r["baseline"], r["field"]) == ("Boom", "Bust", "low")
    assert t.attrs["run"] == str(forfeits.out) and t.attrs["field"] == ["low"]
    frame_only = gauntlet(SimpleNamespace(games=forfeits.games(), manifest=forfeits.manifest))
    assert frame_only.attrs["run"] == "" and frame_only.iloc[0]["first_error"] == ""
    assert "sequential_decision" not in t.columns


def test_a_gauntlet_with_no_deal_in_common_says_why(monkeypatch):
    gmod = importlib.import_module("reports.gauntlet")
    state = SimpleNamespace(unfinished=True, extent=lambda: "12 of 48 games", resume="go on")
    monkeypatch.setattr(gmod, "run_state", lambda path: state)
    never = "the gauntlet's strategy and baseline never played the same deals"
    assert gmod._unpaired(SimpleNamespace(path=None)) == never
    assert gmod._unpaired(SimpleNamespace(path="g")) == (
        "the gauntlet's strategy and baseline have played no deal in common yet: "
        "12 of 48 games; go on")  # fmt: skip
    state.unfinished = False
    assert gmod._unpaired(SimpleNamespace(path="g")) == never


def test_a_sequential_gauntlet_stopped_in_its_first_batch_has_weighed_none():
    from reports.gauntlet import unweighed

    assert unweighed({"margin": 2, "alpha": 0.05, "beta": 0.1, "max_games": 9}) == {
        "decision": RUNNING, "finished": False, "batches": 0, "margin": 2, "alpha": 0.05,
        "beta": 0.1}  # fmt: skip


def test_nothing_valid_is_one_side_forfeiting_every_game():
    from reports.gauntlet import nothing_valid, void_gauntlet

    def r(games, mine, theirs):
        return {"games": games, "forfeited": mine, "baseline_forfeited": theirs}

    assert not nothing_valid(r(0, 0, 0))  # no game yet: nothing forfeited
    assert nothing_valid(r(1, 1, 0)) and nothing_valid(r(4, 0, 4)) and nothing_valid(r(4, 4, 1))
    assert not nothing_valid(r(4, 3, 3)) and not nothing_valid(r(4, 0, 0))
    one = pd.DataFrame([r(4, 4, 0)])
    assert void_gauntlet({"gauntlet": one}) and not void_gauntlet({})
    assert not void_gauntlet({"gauntlet": one.iloc[:0]})
    assert not void_gauntlet({"gauntlet": pd.DataFrame([r(4, 3, 0)])})


def test_each_sides_forfeits_in_words():
    from reports.gauntlet import _side_words, forfeit_sentence

    assert _side_words("a", 5, 5, 5) == "a forfeited all 5 of its games"
    assert _side_words("a", 3, 3, 5, "rounds") == "a forfeited 3 of its 5 rounds"
    assert _side_words("a", 4, 3, 5) == ("4 of a's 5 games ended by a forfeit (3 by a, 1 by "
                                         "the field)")  # fmt: skip
    r = {"strategy": "a", "baseline": "b", "games": 5, "forfeited": 2, "forfeits": 2,
         "baseline_forfeited": 0, "baseline_forfeits": 0,
         "first_error": "game 17: seat 1 (a): RuntimeError: x: y"}  # fmt: skip
    text = forfeit_sentence(r)
    assert "(the first, game 17: seat 1 (a): RuntimeError: x: y)" in text
    assert "'leaves replay RUN --game 17'" in text and text.startswith("Caution: a forfeited 2")
    assert forfeit_sentence({**r, "forfeited": 0, "forfeits": 0}) is None


def test_the_llr_in_words():
    from reports.gauntlet import llr_words

    assert llr_words(1.5) == "LLR 1.50" and llr_words(-1.0) == "LLR -1.00"
    assert llr_words(0.0, 3) == "LLR 0.00" and llr_words(-0.5, 3) == "LLR -0.50"
    assert llr_words(0.5, 3) == ("LLR 0.50, the test's cap for 3 duplicate sets with no "
                                 "spread within each table, (df + 1) / 2 at df = 0 degrees of "
                                 "freedom")  # fmt: skip
    assert llr_words(2.0, 4).startswith("LLR 2.00, N/2 for N = ")


def seq_row(decision: str, **kw) -> dict:
    """A sequential gauntlet's row: +50 points [+40, +60] after 3 batches, margin 2."""
    base = {"strategy": "a", "baseline": "b", "games": 600, "deals": 100, "diff": 0.5,
            "diff_ci_low": 0.4, "diff_ci_high": 0.6, "p_value": 1e-9,
            "sequential_decision": decision, "sequential_margin": 2.0, "sequential_batches": 3,
            "sequential_llr": 3.2, "sequential_lower": -2.9, "sequential_upper": 2.9,
            "sequential_alpha": 0.05, "sequential_beta": 0.05}  # fmt: skip
    return {**base, **kw}


LAXER0 = ", a laxer standard than the 95% interval, which still includes 0"
LAXER_M = ", a laxer standard than the 95% interval, which still reaches +2"


def test_a_sequential_decision_in_words():
    from reports.gauntlet import sequential_sentence as said

    text = said(seq_row(BETTER))
    assert text.startswith("a is better than b: +50.0 ") and "LLR 3.20" in text
    assert "favoured +2 over 0" in text and "earlier version" not in text and LAXER0 not in text
    assert LAXER0 in said(seq_row(BETTER, diff_ci_low=-0.01))
    assert LAXER0 in said(seq_row(BETTER, diff_ci_low=0.0))  # 0 is in [0, hi]
    assert LAXER0 not in said(seq_row(BETTER, diff_ci_low=1e-9))
    flat = {"diff_ci_low": NAN, "diff_ci_high": NAN, "p_value": 2 * 0.5**6, "deals": 6}
    old = "by an earlier version's rule for duplicate sets with no spread"
    for llr, upper, earlier in ((np.inf, 4.0, True), (np.inf, 3.0, False), (np.inf, 2.5, False),
                                (2.0, 4.0, False)):  # fmt: skip
        text = said(seq_row(BETTER, **flat, sequential_llr=llr, sequential_upper=upper))
        assert (old in text) == earlier, (llr, upper, text)
        assert LAXER0 not in text
    for decision in (NOT_BETTER, FORMER_NOT_BETTER):
        text = said(seq_row(decision, diff=0.0, diff_ci_low=-0.03, diff_ci_high=0.0199))
        assert text.startswith("a is not 2 ") and "favoured 0 over +2" in text
        assert LAXER_M not in text
        assert LAXER_M in said(seq_row(decision, diff_ci_low=-0.03, diff_ci_high=0.02))
        assert LAXER_M in said(seq_row(decision, diff_ci_low=-0.03, diff_ci_high=0.0201))
        assert LAXER_M not in said(seq_row(decision, **flat))
    assert "reached --max-games before favouring 0 or +2" in said(seq_row(UNDECIDED))
    assert said(seq_row(NOTHING_VALID)).startswith("Undecided whether a is better than b: the "
                                                   "sequential test stopped after batch 3")  # fmt: skip
    assert said({**seq_row(BETTER), "sequential_decision": None}) is None


def test_an_interrupted_sequential_gauntlet_in_words():
    from reports.gauntlet import sequential_sentence as said

    first = "was interrupted in its first batch, before it weighed anything"
    assert first in said(seq_row(RUNNING, sequential_batches=0, sequential_llr=None), run="g")
    for n in (1, 2):
        text = said(seq_row(RUNNING, sequential_batches=n))
        assert first not in text and "+50.0 " in text and "so far" in text, text
    assert "no LLR" in said(seq_row(RUNNING, sequential_llr=None))
    weighed = {"sequential_difference": 30.0, "sequential_ci_low": 20.0,
               "sequential_ci_high": 40.0, "sequential_games_per_side": 300}  # fmt: skip
    text = said(seq_row(RUNNING, **weighed))
    assert "+30.0 " in text and "[+20.0, +40.0]" in text.replace("[20.0, 40.0]", "[+20.0, +40.0]")
    assert "over 300 games per side, after batch 3" in text and "so far" not in text
    text = said(seq_row(RUNNING, **{**weighed, "sequential_ci_low": None,
                                    "sequential_ci_high": None}))  # fmt: skip
    assert "no spread" in text and "too few" not in text, text
    text = said(seq_row(RUNNING, sequential_llr=None, **{
        **weighed, "sequential_ci_low": None, "sequential_ci_high": None}))  # fmt: skip
    assert "too few deals" in text and "no spread" not in text, text


def test_the_field_in_words():
    from reports.gauntlet import field_words

    assert field_words(["t"], 4) == "three t" and field_words(["t"], 2) == "one t"
    assert field_words(["t"], 7) == "six t" and field_words(["t"], 8) == "7 t"
    assert field_words(["a", "b"], 4) == "a field of two a and one b"  # three seats: a, b, a
    assert field_words(["a", "b", "c"], 4) == "a field of a, b and c"


def verdict_row(lo, hi, diff, p=0.01, deals=40) -> dict:
    return {"strategy": "a", "baseline": "b", "deals": deals, "diff": diff, "diff_ci_low": lo,
            "diff_ci_high": hi, "p_value": p}  # fmt: skip


def test_a_fixed_gauntlets_verdict_follows_its_interval_or_sign_test():
    from reports.gauntlet import fixed_verdict

    def says(lo, hi, diff, p=0.01):
        text = fixed_verdict(verdict_row(lo, hi, diff, p))
        return text.split(" ")[1] if not text.startswith("No significant") else "none"

    assert says(0.1, 0.3, 0.2) == "beats" and says(-0.3, -0.1, -0.2) == "loses"
    for lo, hi in ((0.0, 0.2), (-0.1, 0.2), (-0.2, 0.0), (-1.0, 1.0)):
        assert says(lo, hi, (lo + hi) / 2) == "none", (lo, hi)
    assert says(1.0, 1.0, 1.0) == "beats" and says(-1.0, -1.0, -1.0) == "loses"
    # no spread: the sign test decides, below 0.05
    assert says(NAN, NAN, 0.5) == "beats" and says(NAN, NAN, -0.5) == "loses"
    assert says(NAN, NAN, 0.5, p=0.05) == "none" and says(NAN, NAN, -0.5, p=0.5) == "none"
    text = fixed_verdict(verdict_row(-0.1, 0.6, 0.5))
    assert "+50.0 " in text and "(paired over 40 deals, p = 0.01)" in text
    too_few = fixed_verdict(verdict_row(NAN, NAN, 0.5, p=NAN))
    assert too_few.startswith("Too few deals to compare a with b: +50.0 ")


def gauntlet_table(**kw) -> pd.DataFrame:
    r = {**verdict_row(0.1, 0.3, 0.2), "field": "t", "n_players": 3, "games": 60,
         "baseline_games": 60, "win_rate": 0.5, "ci_low": 0.4, "ci_high": 0.6,
         "baseline_win_rate": 0.3, "baseline_ci_low": 0.2, "baseline_ci_high": 0.4,
         "forfeited": 0, "forfeits": 0, "baseline_forfeited": 0, "baseline_forfeits": 0,
         "first_error": "", **kw}  # fmt: skip
    return pd.DataFrame([r])


def test_a_gauntlets_answer():
    from reports.gauntlet import answer, sentences

    head, said = answer(gauntlet_table())
    assert head is None and len(said) == 2
    assert said[0].startswith("a wins 50.0% [40.0, 60.0] of 60 games against two t; b, in the "
                              "same seats on the same deals, wins 30.0% [20.0, 40.0].")  # fmt: skip
    assert said[1].startswith("a beats b by 20.0 ")
    assert sentences(gauntlet_table()) == said
    _, said = answer(gauntlet_table(baseline_games=30))
    assert "in the same seats, wins 30.0% [20.0, 40.0] of the 30 games it has played so far" in (
        said[0])  # fmt: skip
    head, said = answer(gauntlet_table(forfeited=60, forfeits=60))
    assert head.startswith("Nothing valid was played") and said == []
    assert sentences(gauntlet_table(forfeited=60, forfeits=60)) == [head]
