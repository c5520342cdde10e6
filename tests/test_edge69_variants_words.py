"""What the variants findings and tables say, as their own numbers are: the best against
random counted 'of the games they share' where the figure counts seat pairs (greedy ahead of
random in 11 of 12 seat pairs over 6 games, a table seating random twice), and
variants_runs.csv's ``changes`` written as Python values (``hand_size={'3': 10, '4': 11}``,
``min_count=False``; a turn limit not at all) instead of the rules' own words."""

from __future__ import annotations

import numpy as np

from reports.data import Games
from reports.variants import _changes
from reports.variants_metrics import _ahead
from reports.variants_sets import PER_SEAT_PAIR, design, shared_units
from reports.variants_text import findings
from tests.helpers import variants_diffs, variants_metrics


def _games(seats: list[list[int]], cards: list[list[int]]) -> Games:
    """Finished games, one deal each at its own table, won by the seat with no card left."""
    seats_, values = np.asarray(seats, np.int16), np.asarray(cards, np.int16)
    n = len(seats_)
    return Games(labels=("greedy", "random"), seats=seats_, values=values,
                 n_players=np.full(n, seats_.shape[1], np.int8), first=np.zeros(n, np.int8),
                 winner=np.argmin(values, axis=1).astype(np.int8),
                 unfinished=np.zeros(n, bool), forfeited=np.zeros(n, bool),
                 forfeit_seat=np.full(n, -1, np.int8), deal=np.zeros(n, np.int64),
                 table=np.arange(n, dtype=np.int64))  # fmt: skip


def test_a_table_seating_random_twice_counts_seat_pairs():
    # game 0: greedy (0 cards) ahead of both randoms: 2 pairs, both ahead; game 1: two greedy
    # and one random, random ahead of one greedy: 2 pairs, 1 ahead. 3 of 4 seat pairs
    g = _games([[0, 1, 1], [0, 0, 1]], [[0, 3, 5], [0, 6, 2]])
    got, pairs = _ahead(design(g), 0, 1, np.ones(2, bool))
    assert got[0] == 3 / 4 and got[3] == 4 and pairs


def test_one_of_each_at_every_table_counts_games():
    g = _games([[0, 1], [1, 0]], [[0, 3], [0, 2]])
    got, pairs = _ahead(design(g), 0, 1, np.ones(2, bool))
    assert got[0] == 1 / 2 and got[3] == 2 and not pairs


def _said(detail: str, clear: bool) -> str:
    metrics = variants_metrics([("default", "best_vs_random", "all", -1, 0.917, 0.9, 0.95),
                                ("v", "best_vs_random", "all", -1, 0.6, 0.55, 0.65)])  # fmt: skip
    metrics["detail"] = detail
    diffs = variants_diffs([("v", "best_vs_random", "all", -1, -0.317, -0.4, -0.2, clear)])
    diffs["detail"], diffs["default"], diffs["value"] = detail, 0.917, 0.6
    return " ".join(t for t, _ in findings(metrics, diffs, ["default", "v"], "Paired"))


def test_the_findings_say_seat_pairs_where_the_figure_counts_them():
    text = _said(f"greedy ahead of random{PER_SEAT_PAIR}", clear=True)
    assert "greedy finishes ahead of random in 91.7% [90.0, 95.0] of the seat pairs they " in text
    assert "greedy finishes ahead of random in 60.0% [55.0, 65.0] of the seat pairs they " in text
    assert "of the games they share" not in text


def test_the_findings_say_games_where_each_game_is_one_pair():
    text = _said("greedy ahead of random", clear=True)
    assert "in 91.7% [90.0, 95.0] of the games they share" in text
    assert "seat pairs" not in text
    assert shared_units("greedy ahead of random") == "games"


def test_the_runs_table_writes_the_rules_in_their_own_words():
    played = {"game_config": {"turn_limit": 1000, "rules": {"hand_size": {"3": 10, "4": 11},
                                                            "min_count": False}}}  # fmt: skip
    words = {"game_settings": {"rules": "hand_size=3:10/4:11, min_count=off"}}
    assert _changes(words, played) == "hand_size=3:10/4:11, min_count=off"
    limit = {"game_config": {"turn_limit": 30}}  # the turn limit is no key of the stored rules
    assert _changes({"game_settings": {"rules": "turn_limit=30"}}, limit) == "turn_limit=30"
    assert _changes({"game_settings": {"rules": "today's rules"}}, {}) == "today's rules"


def test_a_run_that_records_no_words_keeps_its_stored_changes():
    assert _changes({}, {"game_config": {"rules": {"take": "ends"}}}) == "take=ends"
    assert _changes({"game_settings": {}}, {}) == "none"
