"""The words around the report's tables say what the tables show: the differences are
measured at the tables both strategies sat at (not the summary's rates), a gauntlet's
summary pools a field strategy's games at both sides, Ligretto's par is given where it is,
and the rating's note names its largest reorder in places."""

from __future__ import annotations

from dataclasses import replace

import pandas as pd
import pytest

import reports
from reports.data import default_declaration
from reports.sections import order_note, sections
from reports.synthetic import synthetic_games
from tests.test_edge67_charts_gauntlet_rows import gauntlet_run


def _leads(tables, method, d=None) -> dict[str, str]:
    return {s.title: s.lead for s in sections(tables, method, d or default_declaration())}


def _texts(tables, method, d=None) -> dict[str, str]:
    return {s.title: s.text for s in sections(tables, method, d or default_declaration())}


@pytest.fixture(scope="module")
def gauntlet(tmp_path_factory):
    return reports.compute_tables(gauntlet_run(tmp_path_factory.mktemp("g") / "run"))


def test_the_differences_are_said_to_be_measured_at_the_tables_both_sat_at(gauntlet):
    tables, method = gauntlet
    lead = _leads(tables, method)["Differences that matter"]
    assert "measured at the tables both sat at (the two win rates there beside it" in lead
    assert "differs from the difference of the summary's rates" in lead
    text = _texts(tables, method)["Differences that matter"]
    assert "win_rate_a is a's win rate at those tables and win_rate_b b's with each" in text
    assert "diff = win_rate_a - win_rate_b" in text


def test_the_pairs_truly_differ_from_the_summarys_rates(gauntlet):
    # the claim's truth: W's rate at C's tables is not its summary rate (pooled over both)
    tables, _ = gauntlet
    sig = tables["significance"].set_index(["a", "b"])
    summ = tables["summary"].set_index("strategy")["win_rate"]
    pair = next(p for p in sig.index if "W" in p)
    row = sig.loc[pair]
    w = row["win_rate_a"] if pair[0] == "W" else row["win_rate_b"]
    assert w != pytest.approx(summ["W"], abs=1e-6)


def test_a_gauntlets_summary_says_the_fields_rate_pools_both_sides(gauntlet):
    tables, method = gauntlet
    lead = _leads(tables, method)["Summary"]
    assert "a field strategy's win rate here pools its games at both sides' tables" in lead
    assert "(C's and B's)" in lead and "the Gauntlet section compares C with B" in lead


def test_a_gauntlets_differences_say_why_no_row_pairs_its_two_sides(gauntlet):
    tables, method = gauntlet
    sig = tables["significance"]
    pairs = {frozenset(p) for p in zip(sig["a"], sig["b"], strict=True)}
    assert frozenset({"C", "B"}) not in pairs  # the truth the sentence tells
    lead = _leads(tables, method)["Differences that matter"]
    assert "C and B never share a table" in lead and "no row compares the two" in lead


def test_a_round_robin_says_nothing_of_a_gauntlet():
    games = synthetic_games({"a": 1.0, "b": 0.0, "c": -0.5}, players=(3,), deals=6, seed=2)
    leads = _leads(*reports.compute_tables(games))
    assert "gauntlet" not in leads["Summary"] + leads["Differences that matter"]


def test_shared_wins_give_par_with_its_figure_and_where_it_is():
    # every game has one winner at tables of three: par is 1/3 for every strategy
    games = synthetic_games({"a": 1.0, "b": 0.0, "c": -0.5}, players=(3,), deals=6, seed=2,
                            unfinished_p=0.0, forfeit_p=0.0)  # fmt: skip
    tables, method = reports.compute_tables(games)
    assert tables["summary"]["par"].tolist() == pytest.approx([1 / 3] * 3)
    d = replace(default_declaration(), shared_wins=True)
    lead = _leads(tables, method, d)["Summary"]
    assert (
        "all alike would win par, here 33.3% (the par column of the summary's full table)" in lead
    )
    assert "(in the summary table)" not in lead


def test_par_that_differs_by_strategy_is_given_as_its_range():
    from reports.sections import _par_words  # the figure alone: its table is hand-made here

    summ = pd.DataFrame({"strategy": ["a", "b"], "par": [0.2562, 0.2568]})
    assert _par_words(summ).startswith(", here 25.6% to 25.7% by strategy (the par column")


NINE = ["weighted", "taker", "counter", "high", "low", "minimal", "blocker", "patient", "greedy"]


def _rated(order: list[str], width: float = 0.01) -> pd.DataFrame:
    """A rating table in ``order``, each rating 0.1 apart, intervals of +-``width``."""
    r = [1.0 - 0.1 * i for i in range(len(order))]
    return pd.DataFrame({"strategy": order, "rating": r, "ci_low": [x - width for x in r],
                         "ci_high": [x + width for x in r]})  # fmt: skip


def test_the_rating_note_names_the_largest_reorder_in_places():
    # the summary by win rate (equal fair shares); the rating moves counter down two
    # places and greedy up three, from 9th to 6th
    summary = pd.DataFrame({"strategy": NINE, "relative": [9 - i for i in range(9)],
                            "fair_share": 0.25})  # fmt: skip
    rated = ["weighted", "taker", "high", "low", "counter", "greedy", "patient", "minimal",
             "blocker"]  # fmt: skip
    note = order_note(summary, _rated(rated))
    assert "The largest reorder: the rating puts greedy above patient, minimal and blocker" in note
    assert "(greedy 9th by win rate, 6th by rating)" in note
    assert "whole finishing order" in note and "counter" not in note
    assert "the other way round" not in note


def test_the_rating_note_says_the_fair_share_where_it_orders_the_summary():
    summary = pd.DataFrame({"strategy": ["b", "a"], "win_rate": [0.25, 0.30],
                            "fair_share": [0.20, 0.40], "relative": [1.25, 0.75]})  # fmt: skip
    note = order_note(summary, pd.DataFrame({"strategy": ["a", "b"]}))
    assert "puts a above b (a 2nd by win rate over the fair share, 1st by rating)" in note


def test_a_reorder_within_the_intervals_is_said_to_be_maybe_chance():
    summary = pd.DataFrame({"strategy": ["a", "b", "c"], "relative": [3, 2, 1]})
    note = order_note(summary, _rated(["a", "c", "b"], width=0.5))
    assert "puts c above b (c 3rd by win rate, 2nd by rating)" in note
    assert "may be chance" in note and "whole finishing order" not in note


def test_a_swap_of_two_is_said_once_not_with_its_mirror():
    summary = pd.DataFrame({"strategy": ["a", "b", "c", "d"], "relative": [4, 3, 2, 1]})
    note = order_note(summary, _rated(["b", "a", "d", "c"]))
    assert note.count("the rating puts") == 2  # b above a, d above c: two reorders apart
    assert "puts b above a (b 2nd by win rate, 1st by rating)" in note
    assert "puts d above c (d 4th by win rate, 3rd by rating)" in note
    assert "below" not in note
    one = order_note(summary, _rated(["b", "a", "c", "d"]))
    assert one.count("the rating puts") == 1 and "puts b above a" in one
