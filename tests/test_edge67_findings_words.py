"""The key findings of ``reports.findings`` on hand-made tables, at each threshold the
sentences turn on: an interval touching the fair share, a seat's best and worst whose
intervals only touch, a Bonferroni-adjusted p-value of exactly 0.05, the count of units at
which a length is given by its range (``SPREAD_FROM``), whole percentiles, forfeits and
unfinished units counted by limit, outcome shares and the expert matches' ties. Each
expected sentence is written out from the figures its table gives."""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from ligretto.plugin import LigrettoGame
from reports.data import default_declaration
from reports.findings import (
    SPREAD_FROM,
    _best_worst,
    _completion,
    _expert,
    _lengths,
    _limit_words,
    _neighbours,
    _outcomes,
    _seats,
    key_findings,
    overall,
    unfinished_words,
)
from tournaments.declaration import Declaration

D = default_declaration()  # 13 Leaves: games, turns then rounds, no limit columns
LIGRETTO = Declaration.of(LigrettoGame())  # rounds; two limits told apart; blockade shares
NAN = float("nan")


# ------------------------------------------------------------------------------ overall
def test_overall_is_the_all_row_or_none():
    table = pd.DataFrame({"n_players": [3, 4, "all"], "games": [1, 2, 3]})
    assert overall(table)["games"] == 3
    assert overall(None) is None and overall(table.iloc[:0]) is None


# -------------------------------------------------------------------------------- seats
def _seat_table(n: int, rates: list[float], lo: list[float], hi: list[float],
                order: list[int] | None = None, par: float | None = None) -> pd.DataFrame:  # fmt: skip
    """One table size's seats: position i wins ``rates[i]`` [lo, hi]; fair 1/n, and ``par``
    (default: fair, every game won); rows in ``order`` of positions."""
    rows = [{"n_players": n, "position": i, "win_rate": rates[i], "ci_low": lo[i],
             "ci_high": hi[i], "fair": 1 / n, "par": 1 / n if par is None else par}
            for i in (order or range(n))]  # fmt: skip
    return pd.DataFrame(rows)


@pytest.mark.parametrize(("lo", "hi", "verdict"), [
    (0.5, 0.7, "no clear effect"),  # the lower bound at the fair share: not above it
    (0.3, 0.5, "no clear effect"),  # the upper bound at it: not below it
    (0.51, 0.7, "an advantage"),
    (0.3, 0.49, "a disadvantage"),
    (NAN, 0.7, "too few deals for an interval, so no verdict"),
])  # fmt: skip
def test_the_first_seat_s_verdict_at_the_fair_share(lo, hi, verdict):
    seats = pd.concat([_seat_table(2, [0.6, 0.4], [lo, 0.3], [hi, 0.5]),
                       _seat_table(3, [1 / 3] * 3, [0.2] * 3, [0.45] * 3)])  # fmt: skip
    (found,) = _seats(seats, D)
    first = found.text.split(";")[0]
    assert first.endswith(f": {verdict}") and "osition" not in found.text  # two sizes: no best


def test_the_first_seat_is_position_0_whatever_the_rows_order():
    """Rows in the order 2, 0, 1: the first to play is position 0 (50.0%)."""
    seats = _seat_table(3, [0.5, 0.3, 0.2], [0.4, 0.2, 0.1], [0.6, 0.4, 0.3], order=[2, 0, 1])
    (found,) = _seats(seats, D)
    assert found.text == (
        "Seat: at 3 players the first to play wins 50.0% [40.0, 60.0] of games against a fair "
        "share of 33.3%: an advantage. Best position 0 (50.0%), worst position 2 (20.0%), "
        "counting from the first player."
    )


def test_two_players_name_the_best_and_the_worst():
    (found,) = _seats(_seat_table(2, [0.6, 0.4], [0.55, 0.35], [0.65, 0.45]), D)
    assert found.text.endswith(
        "an advantage. Best position 0 (60.0%), worst position 1 (40.0%), counting from the "
        "first player."
    )


def test_a_table_of_one_seat_compares_no_position():
    """A game a plug-in declares for one player: its one position has nothing to be set
    against."""
    (found,) = _seats(_seat_table(1, [0.7], [0.6], [0.8]), D)
    assert found.text == ("Seat: at 1 players the first to play wins 70.0% [60.0, 80.0] of "
                          "games against a fair share of 100.0%: a disadvantage.")  # fmt: skip


def test_no_game_won_at_a_size_compares_no_seat():
    seats = _seat_table(2, [0.0, 0.0], [0.0, 0.0], [0.1, 0.1], par=0.0)
    assert _seats(seats, D)[0].text == (
        "Seat: at 2 players no game was won, so the seats cannot be compared."
    )
    assert _seats(None, D) == [] and _seats(seats.iloc[:0], D) == []


def test_positions_whose_intervals_only_touch_are_not_told_apart():
    """The best's lower bound 0.4 is the worst's upper bound: not apart."""
    at = _seat_table(3, [0.5, 0.3, 0.2], [0.4, 0.2, 0.1], [0.6, 0.4, 0.4])
    assert _best_worst(at, 1) == ("Highest position 0 (50.0%), lowest position 2 (20.0%), "
                                  "counting from the first player: the 95% intervals cannot "
                                  "tell them apart")  # fmt: skip


def test_positions_sharing_a_rate_are_named_together():
    at = _seat_table(3, [0.4, 0.4, 0.2], [0.35, 0.35, 0.1], [0.45, 0.45, 0.3])
    assert _best_worst(at, 1) == ("Best positions 0 and 1 (40.0%), worst position 2 (20.0%), "
                                  "counting from the first player")  # fmt: skip
    same = _seat_table(3, [0.3] * 3, [0.2] * 3, [0.4] * 3)
    assert _best_worst(same, 1) == "Every position won 30.0%, counting from the first player"


def test_positions_one_bit_apart_share_their_rate():
    """Rates that rounding set one bit apart (a weighted mean's sums) are one rate: tied at
    the top, and every position alike."""
    up = float(np.nextafter(0.4, 1.0))
    at = _seat_table(3, [0.4, up, 0.2], [0.35, 0.35, 0.1], [0.45, 0.45, 0.3])
    assert _best_worst(at, 1).startswith("Best positions 0 and 1 (40.0%), worst position 2")
    near = float(np.nextafter(0.3, 1.0))
    same = _seat_table(3, [0.3, near, 0.3], [0.2] * 3, [0.4] * 3)
    assert _best_worst(same, 1) == "Every position won 30.0%, counting from the first player"


# --------------------------------------------------------------------------- neighbours
NEED = {"strategy": ["b", "a", "a"], "before": ["a", "b", "a"], "win_rate": [0.4, 0.3, 0.9],
        "ci_low": [0.3, 0.2, 0.8], "ci_high": [0.5, 0.4, 1.0], "elsewhere_rate": [0.3] * 3,
        "vs_elsewhere": [0.1, 0.0, 0.6], "vs_elsewhere_low": [0.05, -0.05, 0.5],
        "vs_elsewhere_high": [0.15, 0.05, 0.7], "vs_elsewhere_p": [0.025, 0.5, 0.0]}  # fmt: skip
"""Exactly the columns the neighbour finding reads: b after a (+10 points, p = 0.025), a
after b (none), and a after its own copy (+60 points), which says nothing of whom to sit
after."""


def test_a_bonferroni_adjusted_p_of_exactly_0_05_is_not_significant():
    """b after a is the strongest of the 2 pairs (a after a left out): 0.025 x 2 = 0.05."""
    (found,) = _neighbours(pd.DataFrame(NEED), None)
    assert found.text == (
        "Neighbours: b wins 40.0% [30.0, 50.0] when a sits before it, against 30.0% when it "
        "sits elsewhere at the table (+10.0 percentage points [+5.0, +15.0] within the same "
        "deals, p = 0.03), the strongest neighbour effect; not significant after correction "
        "over the 2 pairs: it may be chance."
    )


def test_a_bonferroni_adjusted_p_below_0_05_holds():
    nb = pd.DataFrame(dict(NEED, vs_elsewhere_p=[0.02, 0.5, 0.0]))
    assert _neighbours(nb, None)[0].text.endswith(
        "the strongest neighbour effect; it holds after Bonferroni correction over the 2 pairs."
    )


def test_only_pairs_of_ranked_strategies_count():
    """c is not ranked (no valid game): its pair is left out though its effect is the
    largest; without a summary every strategy of the table counts."""
    nb = pd.concat([pd.DataFrame(NEED), pd.DataFrame({**{k: v[:1] for k, v in NEED.items()},
                                                      "strategy": ["c"], "vs_elsewhere": [0.3],
                                                      "vs_elsewhere_p": [0.001]})],
                   ignore_index=True)  # fmt: skip
    summ = pd.DataFrame({"strategy": ["a", "b", "c"], "valid_games": [5, 5, 0]})
    assert _neighbours(nb, summ)[0].text.startswith("Neighbours: b wins 40.0%")
    assert _neighbours(nb, None)[0].text.startswith("Neighbours: c wins 40.0%")


def test_no_neighbour_table_or_too_few_columns_gives_no_finding():
    assert _neighbours(None, None) == [] and _neighbours(pd.DataFrame(), None) == []
    assert _neighbours(pd.DataFrame(NEED).drop(columns="elsewhere_rate"), None) == []


# ------------------------------------------------------------------------------ lengths
def _length(measure: str, games: int, lo: float, median: float, hi: float, by: str = "all",
            group: str = "all", **kw: float) -> dict:  # fmt: skip
    return {"by": by, "group": group, "measure": measure, "games": games, "min": lo,
            "median": median, "max": hi, "mean": kw.pop("mean", median), **kw}  # fmt: skip


def _lengths_of(*rows: dict, d: Declaration = D) -> str:
    (found,) = _lengths(pd.DataFrame(list(rows)), d)
    return found.text


@pytest.mark.parametrize(("games", "lo", "median", "hi", "said"), [
    (1, 30, 30, 30, "the one game lasted 30 turns"),
    (2, 30, 30, 30, "both games lasted 30 turns"),
    (3, 30, 30, 30, "all 3 games lasted 30 turns"),
    (2, 30, 35, 40, "the 2 games lasted 30 and 40 turns"),
    (3, 30, 34.5, 40, "the 3 games lasted 30, 34.5 and 40 turns"),
    (4, 30, 35, 40, "a game lasts 35 turns on median (all 4 games between 30 and 40)"),
])  # fmt: skip
def test_few_games_give_each_length_or_the_lowest_and_highest(games, lo, median, hi, said):
    assert _lengths_of(_length("turns", games, lo, median, hi)) == f"Game length: {said}."


def test_from_spread_from_games_the_middle_80_percent_is_given():
    """Whole percentiles are whole lengths as they are (31, 40), not one more or less; a
    p10 a hair above a whole length reads as the next whole one."""
    assert SPREAD_FROM == 10
    nine = _length("turns", 9, 20, 35, 50, p10=31.0, p90=40.0, p10_p90_share=0.8)
    assert _lengths_of(nine) == (
        "Game length: a game lasts 35 turns on median (all 9 games between 20 and 50)."
    )
    ten = dict(nine, games=10)
    assert _lengths_of(ten) == (
        "Game length: a game lasts 35 turns on median (80.0% of games between 31 and 40)."
    )
    assert _lengths_of(dict(ten, p10=31.2, p90=39.9)) == (
        "Game length: a game lasts 35 turns on median (80.0% of games between 32 and 39)."
    )
    assert _lengths_of(dict(ten, p10=35.0, p90=35.0)).endswith("(80.0% of games lasted 35).")
    without = {k: v for k, v in ten.items() if k != "p10_p90_share"}
    assert _lengths_of(without).endswith("(all 10 games between 20 and 50).")


def test_the_second_length_column_is_its_mean_or_its_one_value():
    turns = _length("turns", 2, 30, 35, 40)
    rounds = _length("rounds", 2, 3, 4, 5, mean=4.25)
    assert _lengths_of(turns, rounds) == (
        "Game length: the 2 games lasted 30 and 40 turns, 4.2 rounds on average."
    )
    one = _length("rounds", 1, 3, 3, 3, mean=3.0)
    assert _lengths_of(_length("turns", 1, 30, 30, 30), one) == (
        "Game length: the one game lasted 30 turns, 3 rounds."
    )
    assert _lengths_of(turns) == "Game length: the 2 games lasted 30 and 40 turns."


def test_only_the_second_of_three_length_columns_is_given():
    d = dataclasses.replace(D, length_columns=("turns", "rounds", "plays"))
    rows = [_length("turns", 2, 30, 35, 40), _length("rounds", 2, 3, 4, 5, mean=4.0),
            _length("plays", 2, 90, 95, 100)]  # fmt: skip
    assert _lengths_of(*rows, d=d) == (
        "Game length: the 2 games lasted 30 and 40 turns, 4.0 rounds on average."
    )
    without = [rows[0], rows[2]]  # no rounds: nothing of the second column, plays or not
    assert _lengths_of(*without, d=d) == "Game length: the 2 games lasted 30 and 40 turns."
    one = dataclasses.replace(D, length_columns=("turns",))
    assert _lengths_of(*rows, d=one) == "Game length: the 2 games lasted 30 and 40 turns."


def test_sizes_are_given_apart_only_where_the_run_mixes_them():
    every = _length("turns", 4, 30, 35, 40)
    three = _length("turns", 2, 30, 35, 40, by="n_players", group="3")
    four = _length("turns", 2, 36, 38, 40, by="n_players", group="4")
    rounds = _length("rounds", 2, 3, 4, 5, by="n_players", group="5")
    assert _lengths_of(every, three, four, rounds) == (
        "Game length: at 3 players the 2 games lasted 30 and 40 turns; at 4 players the 2 "
        "games lasted 36 and 40 turns."
    )
    assert _lengths_of(every, three, rounds) == (
        "Game length: a game lasts 35 turns on median (all 4 games between 30 and 40)."
    )


def test_no_length_of_the_first_column_gives_no_finding():
    assert _lengths(pd.DataFrame([_length("rounds", 2, 3, 4, 5)]), D) == []
    assert _lengths(None, D) == [] and _lengths(pd.DataFrame(), D) == []


# ----------------------------------------------------------------- forfeits, unfinished
def _done(games: int, forfeited: int, unfinished: int, **kw: int) -> pd.DataFrame:
    """A completion table: one table size (3) and the "all" row, which the findings read."""
    row = {"games": games, "forfeited": forfeited, "unfinished": unfinished, **kw}
    return pd.DataFrame([{"n_players": 3, **row}, {"n_players": "all", **row}])


SUMM = pd.DataFrame({"strategy": ["a", "b", "c"], "forfeits": [0, 1, 4]})


def test_forfeits_name_each_strategy_that_forfeited_and_the_findings_that_leave_them_out():
    tables = {"completion": _done(20, 5, 0), "summary": SUMM}
    (found,) = _completion(tables, D, {"seats"})
    assert found.text == (
        "Caution: 5 of 20 games (25.0%) ended by a forfeit (by c: 4, b: 1): a forfeited game "
        "has no winner, so it counts as lost by every seat at its table, the forfeiting one "
        "included; the seat finding leaves them out."
    )


def test_every_game_forfeited_leaves_none_out():
    (found,) = _completion({"completion": _done(5, 5, 0)}, D, {"seats"})
    assert found.text == (
        "Caution: 5 of 5 games (100.0%) ended by a forfeit: a forfeited game has no winner, so "
        "it counts as lost by every seat at its table, the forfeiting one included."
    )


def test_no_forfeit_and_nothing_unfinished_is_no_caution():
    assert _completion({"completion": _done(5, 0, 0)}, D, set()) == []
    assert _completion({}, D, set()) == []
    tables = {"completion": _done(5, 0, 0), "summary": SUMM.drop(columns="forfeits")}
    assert _completion(tables, D, set()) == []


@pytest.mark.parametrize(("method", "gauntlet", "said", "words"), [
    ("paired t", False, {"seats", "lengths"},
     "; the paired comparisons leave them out, as do the seat and length findings"),
    ("paired t", False, {"means"},
     "; the paired comparisons leave them out, as does the mean cards left finding"),
    ("paired t", True, {"neighbours"}, "; the comparisons between strategies leave them out, "
     "as does the neighbour finding; the gauntlet's comparison counts them"),
    ("unpaired", False, set(), "; the comparisons between strategies leave them out"),
    (None, False, {"seats", "neighbours"}, "; the seat and neighbour findings leave them out"),
    (None, False, {"lengths"}, "; the length finding leaves them out"),
    (None, True, set(), "; the gauntlet's comparison counts them"),
])  # fmt: skip
def test_the_caution_names_what_leaves_forfeits_out(method, gauntlet, said, words):
    tables = {"completion": _done(20, 5, 0)}
    if method is not None:
        tables["significance"] = pd.DataFrame({"method": [method]})
    if gauntlet:
        tables["gauntlet"] = pd.DataFrame()
    (found,) = _completion(tables, D, said)
    assert found.text.endswith(f"the forfeiting one included{words}.")


def test_an_empty_comparison_table_is_none():
    tables = {"completion": _done(20, 5, 0), "significance": pd.DataFrame({"method": []})}
    assert _completion(tables, D, {"seats"})[0].text.endswith("; the seat finding leaves them out.")


@pytest.mark.parametrize(("unfinished", "won", "said"), [
    (1, None, "1 game (50.0%) stopped unfinished at a limit of the game (1,000 turns a game) "
              "and counts as nobody's win"),
    (2, None, "2 games (100.0%) stopped unfinished at a limit of the game (1,000 turns a game) "
              "and count as nobody's win"),
    (1, 1, "1 game (50.0%) stopped unfinished at a limit of the game (1,000 turns a game) and "
           "is scored as it stood, won by whoever was ahead (fewer cards left) when it stopped"),
    (2, 2, "2 games (100.0%) stopped unfinished at a limit of the game (1,000 turns a game) and "
           "are scored as they stood, won by whoever was ahead (fewer cards left) when they "
           "stopped"),
    (2, 1, "2 games (100.0%) stopped unfinished at a limit of the game (1,000 turns a game) and "
           "count: 1 as won by whoever was ahead (fewer cards left) when they stopped, the "
           "other 1 as nobody's win"),
])  # fmt: skip
def test_unfinished_games_and_how_they_count(unfinished, won, said):
    row = pd.Series({"games": 2, "unfinished": unfinished}
                    | ({} if won is None else {"unfinished_won": won}))  # fmt: skip
    assert unfinished_words(row, D) == said


CLOCK, ACTIONS = "10 minutes of game time", "2,000,000 actions"


@pytest.mark.parametrize(("at", "said"), [
    ({"unfinished_at_0": 3, "unfinished_at_1": 0}, f"a limit of the game ({CLOCK} a round)"),
    ({"unfinished_at_0": 0, "unfinished_at_1": 3}, f"a limit of the game ({ACTIONS} a round)"),
    ({"unfinished_at_0": 1, "unfinished_at_1": 2},
     f"the limits of the game (1 at {CLOCK}, 2 at {ACTIONS} a round)"),
    ({"unfinished_at_0": 1, "unfinished_at_1": 1}, f"a limit of the game ({CLOCK} or {ACTIONS} "
     "a round)"),  # counts that do not add up to the unfinished: not told apart
    ({"unfinished_at_0": 3}, f"a limit of the game ({CLOCK} or {ACTIONS} a round)"),
    ({"unfinished_at_0": 4}, f"a limit of the game ({CLOCK} or {ACTIONS} a round)"),
])  # fmt: skip
def test_the_limit_that_stopped_each_unfinished_round(at, said):
    assert _limit_words(pd.Series({"games": 9, "unfinished": 3, **at}), LIGRETTO) == said


def test_a_game_without_limits_names_its_length_limit():
    d = dataclasses.replace(D, limits="")
    assert _limit_words(pd.Series({"games": 9, "unfinished": 3}), d) == (
        "the game's limit on game length"
    )


# ------------------------------------------------------------------------------ outcomes
def test_each_declared_share_is_said_over_every_round():
    out = pd.DataFrame({"n_players": [2, "all"], "rounds": [5, 40], "valid_rounds": [5, 40],
                        "blockade_share": [0.2, 0.25], "blockade_ci_low": [0.1, 0.125],
                        "blockade_ci_high": [0.3, 0.4]})  # fmt: skip
    assert [f.text for f in _outcomes(out, LIGRETTO)] == [
        "Rounds ended by blockade: 25.0% [12.5, 40.0] of 40 rounds."
    ]
    assert _outcomes(out.drop(columns="blockade_share"), LIGRETTO) == []
    assert _outcomes(None, LIGRETTO) == []


# -------------------------------------------------------------------------------- expert
def _expert_table(rates: list[float], **kw: list) -> pd.DataFrame:
    n = len(rates)
    return pd.DataFrame({"strategy": ["a", "b", "c"][:n], "match_win_rate": rates,
                         "ci_low": [0.4] * n, "ci_high": [0.7] * n,
                         "match_win_rate_split": [0.5] * n, "fair_share": [0.25] * n,
                         "shared_wins": [1, 0, 0][:n], "match_wins": [11, 9, 8][:n],
                         "matches": [20] * n, **kw})  # fmt: skip


EXPERT = ("Expert matches: a wins 55.0% [40.0, 70.0] of its matches, counting shared wins as "
          "wins (50.0% with each shared win split); fair share 25.0%; 1 of its 11 wins was "
          "shared.")  # fmt: skip


def test_the_expert_leader_alone():
    assert _expert(_expert_table([0.55, 0.45, 0.40]), D)[0].text == EXPERT
    assert _expert(None, D) == [] and _expert(_expert_table([]), D) == []


def test_the_expert_leader_tied_with_the_second_leads_none():
    text = _expert(_expert_table([0.55, 0.55, 0.40]), D)[0].text
    assert text == EXPERT + " b has the same match win rate, 55.0%: no strategy leads."
    text = _expert(_expert_table([0.55, 0.45, 0.55]), D)[0].text
    assert text == EXPERT + " c has the same match win rate, 55.0%: no strategy leads."


def test_expert_rates_one_bit_apart_are_a_tie():
    down = float(np.nextafter(0.55, 0.0))
    text = _expert(_expert_table([0.55, down, 0.40]), D)[0].text
    assert text == EXPERT + " b has the same match win rate, 55.0%: no strategy leads."


def test_forfeited_matches_are_said_where_the_table_counts_them():
    text = _expert(_expert_table([0.55, 0.45], forfeited_matches=[2, 0]), D)[0].text
    assert text == EXPERT + " 2 of its 20 matches held a forfeited game and were won by nobody."


# ------------------------------------------------------------------------- key_findings
def test_key_findings_put_the_caution_first_in_the_default_game_s_words():
    tables = {"summary": pd.DataFrame({"strategy": ["a"], "win_rate": [0.5], "ci_low": [0.4],
                                       "ci_high": [0.6], "fair_share": [0.5],
                                       "relative": [1.0]}),
              "completion": _done(20, 5, 0)}  # fmt: skip
    found = key_findings(tables)
    assert [f.topic for f in found] == ["completion", "summary"]
    assert found[0].text.startswith("Caution: 5 of 20 games (25.0%)")
    assert found[1].text.startswith("Only one strategy played: a wins 50.0% [40.0, 60.0] of")
