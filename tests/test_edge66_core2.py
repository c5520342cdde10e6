"""The last of the core's refusals that a huge value lost: the old player-count table's, the
expert match's, the property-test strategies' bounds, the seed check's and the benchmark's.
A whole number past the 4,300 digits Python writes out raised Python's own "Exceeds the
limit" error instead of the refusal meant, a long list spilled over the line, and a match of
a huge number of players failed filling memory with its totals. Each shows the value the one
way (``gamekit.errors.shown``), ordinary values as they were worded before."""

from __future__ import annotations

import numpy as np
import pytest

from leaves import ExpertMatch, testing
from leaves.bench import random_player, run_bench
from leaves.deal import check_seed
from leaves.ruleset import DEFAULT_RULES
from tests.test_edge66_core import HUGE, HUGE_SAID, LONG, LONG_SAID, _refusal

MINUS_SAID = "a negative whole number of about 5,001 digits"

PLAYED_BY = "13 Leaves is played by 3 to 6 players, got "
SEED = "seed must be a whole number >= 0 (or a numpy Generator/SeedSequence, or None), got "


@pytest.mark.parametrize(
    ("call", "said"),
    [
        (lambda: DEFAULT_RULES.hand_size_for(HUGE), PLAYED_BY + HUGE_SAID),
        (lambda: DEFAULT_RULES.hand_size_for(-HUGE), PLAYED_BY + MINUS_SAID),
        (lambda: DEFAULT_RULES.hand_size_for(LONG), PLAYED_BY + LONG_SAID),
        (lambda: ExpertMatch(-HUGE),
         f"a match is played by at least 2 players, got n_players={MINUS_SAID}"),
        (lambda: ExpertMatch(HUGE),
         f"a match is played by at most 6 players, got n_players={HUGE_SAID}"),
        (lambda: ExpertMatch(3, target=-HUGE),
         f"the match target must be at least 1 point, got {MINUS_SAID}"),
        (lambda: ExpertMatch(3, totals=(-HUGE, 0, 0)),
         f"totals cannot be negative, got a tuple that Python cannot write out: seat 0's is "
         f"{MINUS_SAID}"),
        (lambda: ExpertMatch(3, totals=(HUGE, -1, 0)),
         "totals cannot be negative, got a tuple that Python cannot write out: seat 1's is -1"),
        (lambda: testing.new_games(min_players=-HUGE),
         f"min_players must be at least 0, got {MINUS_SAID}"),
        (lambda: testing.positions(max_turns=-HUGE),
         f"max_turns must be at least 0, got {MINUS_SAID}"),
        (lambda: testing.player_counts(min_players=HUGE),
         f"no player count to draw: 13 Leaves is played by 3 to 6 players: "
         f"min_players={HUGE_SAID} leaves none of them"),
        (lambda: check_seed(-HUGE), SEED + MINUS_SAID),
        (lambda: check_seed([-HUGE]),
         "seed must be a list of whole numbers >= 0, got a list that Python cannot write out"),
        (lambda: run_bench(HUGE, 1, 0, 0, 1), f"players must be 3 to 6, got {HUGE_SAID}"),
        (lambda: run_bench(4, -HUGE, 0, 0, 1), f"games must be at least 1, got {MINUS_SAID}"),
        (lambda: run_bench(4, 1, 0, -HUGE, 1),
         f"api_games must be 0 or more, got {MINUS_SAID}"),
        (lambda: run_bench(4, 1, 0, 0, -HUGE),
         f"repeats must be at least 1, got {MINUS_SAID}"),
        (lambda: random_player(4, DEFAULT_RULES, HUGE),
         f"engine must be one of c, numba, got {HUGE_SAID}"),
        (lambda: random_player(4, DEFAULT_RULES, LONG),
         f"engine must be one of c, numba, got {LONG_SAID}"),
    ],
    ids=["hand-size", "hand-size-minus", "hand-size-long", "match-minus", "match-huge",
         "target", "totals", "totals-beside", "min-players", "max-turns", "no-count", "seed",
         "seed-list", "bench-players", "bench-games", "bench-api-games", "bench-repeats",
         "engine", "engine-long"],
)  # fmt: skip
def test_a_huge_or_long_value_is_refused_as_meant_in_one_short_line(call, said):
    assert _refusal(call) == said


def test_a_long_list_of_seeds_or_totals_is_cut_to_one_short_line():
    """A list of 100 bad seeds was written out whole (400 characters); totals the line cuts
    before their negative one name it by its seat."""
    said = _refusal(lambda: check_seed([-1] * 100))
    assert said == "seed must be a list of whole numbers >= 0, got [" + "-1, " * 14 + "..."
    said = _refusal(lambda: ExpertMatch(3, totals=(10**70, -1, 0)))
    assert said == "totals cannot be negative, got (" + "1" + "0" * 55 + "...: seat 1's is -1"


@pytest.mark.parametrize(
    ("call", "said"),
    [
        (lambda: DEFAULT_RULES.hand_size_for(7), PLAYED_BY + "7"),
        (lambda: DEFAULT_RULES.hand_size_for(np.int64(2)), PLAYED_BY + "2"),
        (lambda: DEFAULT_RULES.hand_size_for("4"), PLAYED_BY + "'4'"),
        (lambda: DEFAULT_RULES.hand_size_for([4]), PLAYED_BY + "[4]"),
        (lambda: ExpertMatch(1), "a match is played by at least 2 players, got n_players=1"),
        (lambda: ExpertMatch(7), "a match is played by at most 6 players, got n_players=7"),
        (lambda: ExpertMatch(3, target=0), "the match target must be at least 1 point, got 0"),
        (lambda: ExpertMatch(3, totals=(0, -2, 0)), "totals cannot be negative, got (0, -2, 0)"),
        (lambda: testing.player_counts(min_players=np.int64(-1)),
         "min_players must be at least 0, got -1"),
        (lambda: testing.player_counts(min_players=7, max_players=9),
         "no player count to draw: 13 Leaves is played by 3 to 6 players: min_players=7 and "
         "max_players=9 leave none of them"),
        (lambda: check_seed(np.int64(-3)), SEED + "-3"),
        (lambda: run_bench(7, 1, 0, 0, 1), "players must be 3 to 6, got 7"),
        (lambda: run_bench(4, 0, 0, 0, 1), "games must be at least 1, got 0"),
        (lambda: random_player(4, DEFAULT_RULES, "gpu"),
         "engine must be one of c, numba, got 'gpu'"),
    ],
    ids=["hand-size", "hand-size-numpy", "hand-size-text", "hand-size-list", "match-one",
         "match-seven", "target", "totals", "min-players-numpy", "no-count", "seed-numpy",
         "bench-players", "bench-games", "engine"],
)  # fmt: skip
def test_an_ordinary_bad_value_is_worded_as_before(call, said):
    """A list as a count of players raised TypeError (unhashable) instead of the refusal;
    numpy's integers are named as the numbers they are."""
    assert _refusal(call) == said


def test_a_match_of_every_count_a_game_seats_is_kept():
    for n in range(2, 7):
        match = ExpertMatch(n, target=HUGE)
        assert match.totals == (0,) * n and not match.is_over
        assert match.add([HUGE] + [0] * (n - 1)).winners == tuple(range(1, n))
