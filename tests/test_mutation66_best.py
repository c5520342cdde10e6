"""The best-strategy finding (``reports.findings_best``) on hand-made tables: every branch of
the verdict (a clear best, the runner-up ahead where both sat, too few deals, a margin not
significant before or only after Holm's correction, a tie at the top or for second place),
the strategies left out, and the best and worst mean of a declared rank value. Each
expected sentence is written out by hand from the figures the table gives; Holm's adjusted
p-values are worked by hand below, beside each."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from reports.data import default_declaration
from reports.findings_best import best_finding, means_finding, nobody_won

D = default_declaration()  # a game; the rank value "cards_left"
NAN = float("nan")
PAIRED = "paired by duplicate set at the tables both sat at"
A_RATE = "a wins 40.0% [35.0, 45.0] of its games (fair share 25.0%)"


def _s(name: str, rate: float, lo: float, hi: float, fair: float = 0.25, **kw) -> dict:
    """A summary row (its relative: the rate over the fair share, as ``summary`` ranks)."""
    return {"strategy": name, "win_rate": rate, "ci_low": lo, "ci_high": hi,
            "fair_share": fair, "relative": rate / fair, **kw}  # fmt: skip


def _p(a: str, b: str, ra: float, rb: float, lo: float, hi: float, p: float, **kw) -> dict:
    """A significance row, a - b; significant as the table says (Holm's p below 0.05)."""
    row = {"a": a, "b": b, "win_rate_a": ra, "win_rate_b": rb, "diff": ra - rb, "ci_low": lo,
           "ci_high": hi, "p_value": p, **kw}  # fmt: skip
    row.setdefault("significant", row.get("p_holm", p) < 0.05)
    return row


SUMM3 = [_s("a", 0.40, 0.35, 0.45), _s("b", 0.30, 0.25, 0.35), _s("c", 0.20, 0.15, 0.25)]


def _best(summ: list[dict], sig: list[dict] | None = None, method: str = "paired",
          **tables: pd.DataFrame) -> str:  # fmt: skip
    t = {"summary": pd.DataFrame(summ), **tables}
    if sig is not None:
        t["significance"] = pd.DataFrame(sig)
    (found,) = best_finding(t, method, D)
    return found.text


# ------------------------------------------------------------------------ a clear best
# Holm over p = 0.001, 0.01, 0.02 (three pairs), by hand: sorted, times 3, 2 and 1: 0.003,
# 0.02, 0.02, already rising: a - b's 0.01 is 0.02 after.
THREE = [_p("a", "b", 0.40, 0.30, 0.04, 0.16, 0.01), _p("a", "c", 0.40, 0.20, 0.1, 0.3, 0.001),
         _p("b", "c", 0.30, 0.20, 0.02, 0.18, 0.02)]  # fmt: skip
CLEAR = (f"a is the best strategy: {A_RATE}. It beats the runner-up, b, by 10.0 percentage "
         f"points [+4.0, +16.0] ({PAIRED}, p = 0.01 before Holm's correction, p = 0.02 after); "
         "it holds after Holm correction over the 3 pairs compared.")  # fmt: skip


def test_a_clear_best_with_holm_worked_out_where_the_table_lacks_it():
    assert _best(SUMM3, THREE) == CLEAR


def test_the_pair_found_the_other_way_round_is_turned_to_read_best_minus_next():
    """b - a stored second, c - a first: turned, a - b = +10.0 [+4.0, +16.0]."""
    turned = [_p("c", "a", 0.20, 0.40, -0.3, -0.1, 0.001),
              _p("b", "a", 0.30, 0.40, -0.16, -0.04, 0.01),
              _p("b", "c", 0.30, 0.20, 0.02, 0.18, 0.02)]  # fmt: skip
    assert _best(SUMM3, turned) == CLEAR


def test_the_table_s_own_adjusted_p_value_is_the_one_said():
    """A table that gives ``p_holm`` is read as it is (here 0.04, not Holm's 0.02)."""
    sig = [dict(THREE[0], p_holm=0.04), dict(THREE[1], p_holm=0.003),
           dict(THREE[2], p_holm=0.04)]  # fmt: skip
    assert "p = 0.01 before Holm's correction, p = 0.04 after)" in _best(SUMM3, sig)


def test_one_pair_unpaired_gives_one_p_value():
    text = _best(SUMM3[:2], [_p("a", "b", 0.40, 0.30, 0.04, 0.16, 0.01)], method="")
    assert text == (f"a is the best strategy: {A_RATE}. It beats the runner-up, b, by 10.0 "
                    "percentage points [+4.0, +16.0] (unpaired, p = 0.01); it holds after Holm "
                    "correction over the 1 pair compared.")  # fmt: skip


def test_a_positive_margin_not_significant_is_no_best():
    sig = [_p("a", "b", 0.40, 0.30, -0.01, 0.21, 0.2, significant=False)]
    assert _best(SUMM3[:2], sig).startswith("No strategy is clearly the best: a leads with")


# ----------------------------------------------------- the runner-up ahead where both sat
def test_the_runner_up_ahead_at_the_tables_both_sat_at_is_said_to_beat_the_leader():
    sig = [_p("a", "b", 0.28, 0.33, -0.08, -0.02, 0.004)]
    assert _best(SUMM3, sig) == (
        "No strategy is clearly the best: a has the highest win rate, a wins 40.0% [35.0, 45.0] "
        "of its games (fair share 25.0%), but at the tables both sat at b wins 33.0% against "
        f"its 28.0% and beats it by 5.0 percentage points [+2.0, +8.0] ({PAIRED}, p = 0.004); "
        "it holds after Holm correction over the 1 pair compared."
    )


# ------------------------------------------------------------------ no verdict to give
def test_no_pair_says_no_paired_comparison_was_made():
    assert _best(SUMM3) == (
        f"a has the highest win rate: {A_RATE}; b is next with 30.0% [25.0, 35.0]. They never "
        "sat at one table on the same deals, so no paired comparison was made."
    )


def test_too_few_deals_for_a_test_asks_for_more_games():
    sig = [_p("a", "b", 0.40, 0.30, NAN, NAN, NAN, significant=False)]
    assert _best(SUMM3, sig) == (
        f"a has the highest win rate: {A_RATE}; b is next with 30.0% [25.0, 35.0]. The run has "
        "too few deals for an interval of their difference: play more games to tell them apart."
    )


@pytest.mark.parametrize(("p", "holm", "after"), [
    (0.2, 0.4, "p = 0.20 before Holm's correction, p = 0.40 after): not significant."),
    (0.05, 0.1, "p = 0.05 before Holm's correction, p = 0.10 after): not significant."),
    (0.03, 0.06, "p = 0.03 before Holm's correction, p = 0.06 after): not significant after "
                 "Holm correction over the pairs compared."),
])  # fmt: skip
def test_a_margin_not_significant_says_whether_only_holm_made_it_so(p, holm, after):
    """p = 0.05 is not below the level: not significant before the correction either."""
    sig = [_p("a", "b", 0.40, 0.38, -0.01, 0.05, p, p_holm=holm)]
    summ = [SUMM3[0], _s("b", 0.38, 0.33, 0.43), SUMM3[2]]
    assert _best(summ, sig) == (
        "No strategy is clearly the best: a leads with 40.0% [35.0, 45.0] of its games won, but "
        "its margin over b (38.0% [33.0, 43.0]) is +2.0 percentage points [-1.0, +5.0] "
        f"({PAIRED}, {after}"
    )


# ------------------------------------------------- rates where both sat, fair shares
def test_rates_at_the_shared_tables_are_said_where_they_are_not_the_summary_s():
    sig = [_p("a", "b", 0.42, 0.29, 0.07, 0.19, 0.001, p_holm=0.001)]
    assert f"({PAIRED}, p = 0.001; there a won 42.0% and b 29.0%); it holds" in _best(SUMM3, sig)


def test_rates_at_the_shared_tables_equal_to_the_summary_s_are_not_repeated():
    sig = [_p("a", "b", 0.40, 0.30, 0.04, 0.16, 0.001, p_holm=0.001)]
    assert "there" not in _best(SUMM3, sig)


def test_fair_shares_that_differ_rank_against_them():
    """a 30% of a fair share of 25% (1.2 of it) leads b's 35% of 1/3 (1.05 of it)."""
    summ = [_s("a", 0.30, 0.26, 0.34), _s("b", 0.35, 0.30, 0.40, fair=1 / 3)]
    assert _best(summ).startswith(
        "a has the highest win rate against its fair share: a wins 30.0% [26.0, 34.0] of its "
        "games (fair share 25.0%); b is next with 35.0% [30.0, 40.0] (fair share 33.3%). They"
    )


# -------------------------------------------------------------------------------- ties
def test_a_tie_at_the_top_leads_nobody_and_gives_the_pair_s_difference():
    summ = [SUMM3[0], _s("b", 0.40, 0.34, 0.46), SUMM3[2]]
    sig = [_p("a", "b", 0.40, 0.40, -0.03, 0.03, 1.0, p_holm=1.0)]
    assert _best(summ, sig) == (
        "No strategy leads: a and b share the highest win rate (a 40.0% [35.0, 45.0]; b 40.0% "
        "[34.0, 46.0]); a - b = +0.0 percentage points [-3.0, +3.0] (paired, p = 1.00)."
    )
    assert _best(summ) == ("No strategy leads: a and b share the highest win rate (a 40.0% "
                           "[35.0, 45.0]; b 40.0% [34.0, 46.0]).")  # fmt: skip
    summ.insert(1, _s("c", 0.40, 0.33, 0.47))
    assert _best(summ[:3]).startswith("No strategy leads: a, c and b share the highest")


def test_a_tie_for_second_place_is_said_beside_the_runner_up():
    summ = [SUMM3[0], SUMM3[1], _s("c", 0.30, 0.26, 0.34), _s("d", 0.10, 0.05, 0.15)]
    assert "; b (tied with c) is next with 30.0% [25.0, 35.0]. They never" in _best(summ)
    sig = [_p("a", "b", 0.40, 0.30, -0.01, 0.21, 0.2, p_holm=0.2)]
    assert "its margin over b (30.0% [25.0, 35.0], tied with c) is" in _best(summ, sig)
    assert "tied" not in _best([*SUMM3, summ[3]])


# ------------------------------------------------------------ strategies left out, none
def test_strategies_with_no_valid_game_are_left_out_and_said_to_be():
    x = _s("x", 0.0, 0.0, 0.1, valid_games=0)
    valid = [dict(r, valid_games=10) for r in SUMM3[:2]]
    one = (" x is not ranked: every game it sat in ended by a forfeit, so its win rate of 0.0% "
           "measures nothing.")  # fmt: skip
    assert _best([*valid, x]) == _best(SUMM3[:2]) + one
    rated = pd.DataFrame({"strategy": ["a", "b"]})
    assert _best([*valid, x], rating=rated) == (_best(SUMM3[:2]) + one + " The rating leaves "
                                                "it out, with the games it sat in.")  # fmt: skip
    assert _best([*valid, x], rating=pd.DataFrame({"strategy": ["a", "b", "x"]})) == (
        _best(SUMM3[:2]) + one
    )
    y = dict(x, strategy="y", win_rate=0.05)
    assert _best([*valid, x, y]) == _best(SUMM3[:2]) + (
        " x and y are not ranked: every game they sat in ended by a forfeit, so their win rates "
        "measure nothing."
    )
    assert _best([valid[0], x]) == (f"a is the only strategy with a valid game: {A_RATE}." + one)


def test_one_strategy_none_valid_or_none_at_all():
    assert _best(SUMM3[:1]) == f"Only one strategy played: {A_RATE}."
    assert _best([dict(SUMM3[0], valid_games=0)]) == (
        "No strategy has a valid game: every one ended by a forfeit, so none is ranked."
    )
    empty = pd.DataFrame(columns=list(_s("a", 0.1, 0, 0.2)))
    (found,) = best_finding({"summary": empty}, "paired", D)
    assert found.text == "No strategy has played a game."


def test_a_run_nobody_won_ranks_nobody_and_one_win_is_a_win():
    nobody = ("No strategy is ranked: no game was won, so every win rate is 0 and win rates "
              "cannot compare strategies, seats or neighbours.")  # fmt: skip
    zero = [_s("a", 0.0, 0.0, 0.1, wins=0), _s("b", 0.0, 0.0, 0.1, wins=0)]
    assert _best(zero) == nobody
    assert _best(zero[:1]) == nobody
    assert _best([dict(SUMM3[0], wins=1), dict(SUMM3[1], wins=0)]) == _best(SUMM3[:2])
    assert not nobody_won(None)
    assert not nobody_won(pd.DataFrame({"strategy": [], "wins": []}))
    assert not nobody_won(pd.DataFrame(SUMM3))  # no count of wins: nothing to say it
    assert nobody_won(pd.DataFrame(zero))


# -------------------------------------------------------------------------- the means
def _m(rows: list[tuple], spread: list[int] | None = None) -> pd.DataFrame:
    """A means table of the rank value (cards left), one row per (strategy, mean, low, high,
    valid seats, seats), in the table's order (best first)."""
    cols = ["strategy", "cards_left_mean", "cards_left_ci_low", "cards_left_ci_high",
            "valid_seats", "seats"]  # fmt: skip
    df = pd.DataFrame([r if len(r) == 6 else (*r, 32, 32) for r in rows], columns=cols)
    return df if spread is None else df.assign(cards_left_no_spread=spread)


def _means(rows: list[tuple], spread: list[int] | None = None) -> str:
    (found,) = means_finding(_m(rows, spread), D)
    return found.text


BEST = "a has the best mean cards left per game: 2.00 [1.50, 2.50]"
NOT_BEST = "No strategy has a clearly best mean cards left per game: 2.00 [1.50, 2.50] (a), which"


def test_a_best_and_a_worst_told_apart():
    a, b, c = ("a", 2.0, 1.5, 2.5), ("b", 4.0, 3.5, 4.5), ("c", 6.0, 5.5, 6.5)
    assert _means([a]) == f"{BEST}."
    assert _means([a, b]) == f"{BEST}; b has the worst: 4.00."
    assert _means([a, b, c]) == f"{BEST}; c has the worst: 6.00."
    x = ("x", 0.0, NAN, NAN, 0, 32)  # no valid game: left out
    one = ("c", 6.0, 5.5, 6.5, 1, 1)  # one valid game of one seat: kept
    assert _means([x, a, b, one]) == f"{BEST}; c has the worst: 6.00."


def test_a_best_the_intervals_cannot_tell_from_the_next():
    a, b, c = ("a", 2.0, 1.5, 2.5), ("b", 2.4, 1.9, 2.9), ("c", 6.0, 5.5, 6.5)
    assert _means([a, b, c]) == (f"{NOT_BEST} the 95% intervals cannot tell from b's 2.40 "
                                 "[1.90, 2.90]; c has the worst: 6.00.")  # fmt: skip
    assert _means([a, b]) == (f"{NOT_BEST} the 95% intervals cannot tell from b, whose "
                              "estimate is the worst: 2.40.")  # fmt: skip


def test_a_worst_the_intervals_cannot_tell_from_the_one_above():
    rows = [("a", 2.0, 1.5, 2.5), ("b", 4.0, 3.5, 4.5), ("c", 5.6, 5.1, 6.1), ("d", 6.0, 5.5, 6.5)]
    assert _means(rows) == (f"{BEST}; the 95% intervals cannot tell d from c's 5.60, so d's "
                            "estimate is the worst: 6.00.")  # fmt: skip


def test_intervals_that_touch_tell_the_means_apart_either_way_up():
    """Touching 95% intervals of equal width set the means 2 x 1.96 standard errors apart,
    the difference 3.92 / sqrt(2) = 2.77 of its own: p = 0.0056, well under 5%."""
    from scipy.stats import norm  # scipy: a reference only the tests use

    assert 2 * norm.sf(2 * 1.959964 / np.sqrt(2)) == pytest.approx(0.0056, abs=1e-4)
    assert _means([("a", 2.0, 1.5, 3.0), ("b", 4.0, 3.0, 5.0)]) == (
        "a has the best mean cards left per game: 2.00 [1.50, 3.00]; b has the worst: 4.00."
    )
    assert _means([("a", 4.0, 3.0, 5.0), ("b", 2.0, 1.0, 3.0)]) == (
        "a has the best mean cards left per game: 4.00 [3.00, 5.00]; b has the worst: 2.00."
    )


def test_ties_at_either_end_or_everywhere():
    a, b = ("a", 3.0, 2.5, 3.5), ("b", 3.0, 2.5, 3.5)
    assert _means([a, b]) == "Both strategies have the same mean cards left per game: 3.00."
    assert _means([a, b, ("c", 3.0, 2.0, 4.0)]) == (
        "All 3 strategies have the same mean cards left per game: 3.00."
    )
    assert _means([a, b, ("c", 5.0, 4.5, 5.5)]) == (
        "a and b share the best mean cards left per game: 3.00; c has the worst: 5.00."
    )
    assert _means([("a", 1.0, 0.5, 1.5), b, ("c", 3.0, 2.5, 3.5)]) == (
        "a has the best mean cards left per game: 1.00 [0.50, 1.50]; b and c share the worst: 3.00."
    )


def test_decimals_are_added_where_two_figures_set_side_by_side_read_alike():
    hi = ("c", 5.0, 4.5, 5.5)
    assert _means([("a", 1.0, 0.5, 1.5), ("b", 3.001, 2.5, 3.5), ("c", 3.004, 2.5, 3.5)]) == (
        "a has the best mean cards left per game: 1.000 [0.500, 1.500]; the 95% intervals "
        "cannot tell c from b's 3.001, so c's estimate is the worst: 3.004."
    )
    assert _means([("a", 3.001, 2.5, 3.5), ("b", 3.004, 2.5, 3.5), hi]) == (
        "No strategy has a clearly best mean cards left per game: 3.001 [2.500, 3.500] (a), "
        "which the 95% intervals cannot tell from b's 3.004 [2.500, 3.500]; c has the worst: "
        "5.000."
    )
    assert _means([("a", 3.001, 2.5, 3.5), ("b", 3.004, 2.5, 3.5)]) == (
        "No strategy has a clearly best mean cards left per game: 3.001 [2.500, 3.500] (a), "
        "which the 95% intervals cannot tell from b, whose estimate is the worst: 3.004."
    )


def test_too_few_deals_tells_nothing_apart_and_no_spread_does():
    rows = [("a", 2.0, NAN, NAN), ("b", 4.0, NAN, NAN)]
    few = ("No strategy has a clearly best mean cards left per game: 2.00 (too few deals for an "
           "interval; a), which the run cannot tell from b, whose estimate is the "
           "worst: 4.00.")  # fmt: skip
    assert _means(rows) == few
    assert _means(rows, spread=[0, 0]) == few
    assert _means([rows[0], ("b", 4.0, 3.5, 4.5)], spread=[7, 0]) == (
        "a has the best mean cards left per game: 2.00 (within each table every duplicate set "
        "gave the same mean cards left, 7 duplicate sets in all: no spread to give an interval "
        "from); b has the worst: 4.00."
    )


def test_a_mean_over_fewer_games_than_seats_says_so():
    a = ("a", 2.0, 1.5, 2.5, 30, 32)
    assert _means([a, ("b", 4.0, 3.5, 4.5, 32, 32)]) == (
        f"{BEST} over its 30 seats in games not ended by a forfeit; b has the worst: 4.00."
    )


def test_no_means_to_speak_of():
    assert means_finding(None, D) == []
    assert means_finding(_m([]), D) == []
    assert means_finding(_m([("a", 2.0, 1.5, 2.5)]).drop(columns="valid_seats"), D) != []
    other = _m([("a", 2.0, 1.5, 2.5)]).rename(columns=lambda c: c.replace("cards_left", "score"))
    assert means_finding(other, D) == []


# ------------------------------------------------------- ties to the last bit, gaps
def test_a_tie_that_rounding_set_one_bit_apart_is_a_tie():
    """A tie is equal counts over equal counts, which sums in another order may round apart
    in the last bit: such values share their place, as equal ones do."""
    up = float(np.nextafter(1.6, 2.0))  # a's relative 1.6, one bit above
    summ = [SUMM3[0], dict(SUMM3[0], strategy="b", relative=up), SUMM3[2]]
    assert _best(summ).startswith("No strategy leads: a and b share the highest win rate")
    c = dict(SUMM3[1], strategy="c", relative=float(np.nextafter(1.2, 0.0)))
    assert "; b (tied with c) is next with 30.0%" in _best([SUMM3[0], SUMM3[1], c])
    both = [("a", 3.0, 2.5, 3.5), ("b", float(np.nextafter(3.0, 4.0)), 2.5, 3.5)]
    assert _means(both) == "Both strategies have the same mean cards left per game: 3.00."
