"""Defects a review of the edges found, each pinned: a long digit string typed at the play
prompt, two p-value formats in one tune output, a large run's median, the unit words and the
quoting of replay commands, Ligretto's deal check, and intervals of win-rate differences that
reached past 100 points."""

from __future__ import annotations

import math
import shlex

import numpy as np
import pytest

from leaves.commands.moves import MoveError, parse_move
from leaves.players.play import deal_state
from reports.charts import _weighted_quantiles
from reports.gauntlet import fixed_verdict, forfeit_sentence
from tournaments.run_state import replay_command

NAN = math.nan


def test_a_number_of_thousands_of_digits_at_the_prompt_is_no_key():
    """int() refuses 4,300 digits or more: the prompt ended the game (and --save wrote
    nothing) instead of saying that no move has that key."""
    state = deal_state(4, 1)
    with pytest.raises(MoveError, match=r"No move has the key 111111111111\.\.\. \(5,000 digits\)"):
        parse_move("1" * 5000, state)
    assert parse_move("01", state) == parse_move("1", state)  # a short key still reads


def test_the_tune_verdict_writes_its_p_value_as_the_paired_line_does():
    from leaves.commands.tune import _p
    from reports.numbers import p_text

    for p in (0.0034, 4.2e-6, 0.047, 0.4, 1e-20):
        assert _p(p) == p_text(p)


def test_a_large_runs_median_is_not_a_midpoint_it_does_not_lie_on():
    """np.isclose's relative tolerance took a share just above 0.5 for exactly 0.5."""
    values = np.array([1.0, 2.0])
    assert _weighted_quantiles(values, np.array([100_001, 100_000]), [0.5])[0] == 1.0
    assert _weighted_quantiles(values, np.array([100_000, 100_000]), [0.5])[0] == 1.5
    many = np.array([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5] * 1000, np.float64)
    got = _weighted_quantiles(np.unique(many), np.unique(many, return_counts=True)[1], [0.5])
    assert got[0] == np.median(many)


def test_a_gauntlet_too_small_says_the_games_unit():
    row = {"strategy": "a", "baseline": "b", "diff": 0.0, "diff_ci_low": NAN,
           "diff_ci_high": NAN, "deals": 1, "p_value": NAN}  # fmt: skip
    assert "play more rounds to tell them apart" in fixed_verdict(row, "rounds")
    assert "play more games to tell them apart" in fixed_verdict(row)


def test_the_summary_lead_of_a_tiny_run_says_the_games_unit():
    import pandas as pd

    from reports.sections import LEADS, _lead
    from tournaments.declaration import Declaration
    from tournaments.games import get_game

    sec = type("S", (), {"tables": [("summary", None)]})()
    tables = {"summary": pd.DataFrame({"ci_low": [NAN]})}
    for d in (Declaration.of(get_game("leaves")), Declaration.of(get_game("ligretto"))):
        lead = _lead(sec, tables, d)
        assert lead.startswith(LEADS["summary"].split(", with 95% intervals")[0])
        assert f"(play more {d.units()})" in lead


def test_replay_commands_quote_a_folder_a_shell_would_split():
    where = "runs/my runs [2]"
    command = replay_command(where, 7)
    assert shlex.split(command) == ["leaves", "replay", where, "--game", "7"]
    row = {"strategy": "bot", "baseline": "b", "games": 8, "forfeited": 2, "forfeits": 2,
           "baseline_forfeited": 0, "baseline_forfeits": 0,
           "first_error": "game 3: seat 0 (bot): ValueError: x", "win_rate": 0.5}  # fmt: skip
    said = forfeit_sentence(row, where)
    assert f"'{replay_command(where, 3)}'" in said


def test_a_ligretto_deal_names_the_seat_that_holds_no_card_list():
    from ligretto.engine import _dealt

    with pytest.raises(TypeError, match="seat 0 holds 1, not a list of card ids"):
        _dealt([1, 2, 3], 2)
    with pytest.raises(TypeError, match="got 'ab'"):
        _dealt("ab", 2)


def test_a_win_rate_difference_keeps_its_interval_inside_100_points():
    """A t interval over few duplicate sets reached past 100 points ("65.7 points [30.2,
    101.1]"): a difference of two win rates lies in [-1, 1]."""
    from reports.stats import RATE_DIFFERENCE
    from reports.variants_metrics import difference_intervals, estimate, intervals
    from reports.variants_sets import Measure

    n = 8
    key, stratum = np.arange(n), np.zeros(n, int)
    u = np.array([1, 1, 1, 1, 1, 1, 0, 1]) / n  # eight sets: 0.875 with a wide t interval
    m = Measure("skill_spread", "all", -1, 0.875, key, stratum, u, False, n,
                bounds=RATE_DIFFERENCE)  # fmt: skip
    lo, hi = intervals([m], estimate(m))
    assert lo[0] >= -1 and hi[0] == 1.0
    free = Measure("turns", "all", -1, 0.875, key, stratum, u, False, n)
    assert intervals([free], estimate(free))[1][0] > 1  # no range declared: not cut
    base = Measure("skill_spread", "all", -1, -0.875, key, stratum, -u, False, n,
                   bounds=RATE_DIFFERENCE)  # fmt: skip
    from reports.variants_metrics import difference

    est = difference(base, m, True)
    d_lo, d_hi = difference_intervals([(base, m)], est)
    assert d_lo[0] >= -2 and d_hi[0] <= 2


def test_a_kernel_seed_is_a_whole_number_in_64_bits_wherever_it_is_given():
    """One check (gamekit.seed_check) for the seeds of both games' public APIs."""
    import ligretto
    import strategies
    from gamekit.seed_check import MAX_SEED, check_seed

    for ok in (0, 1, MAX_SEED, np.uint64(MAX_SEED), np.int64(7)):
        assert check_seed(ok, "s") == int(ok) and type(check_seed(ok, "s")) is int
    for bad, kind in ((-1, ValueError), (MAX_SEED + 1, ValueError), (1.5, TypeError),
                      (True, TypeError), ("3", TypeError), (np.float64(2.0), TypeError)):  # fmt: skip
        with pytest.raises(kind, match="^s must be "):
            check_seed(bad, "s")
        with pytest.raises(kind, match="^deal seed must be "):
            strategies.play_game("random", n_players=3, deal_seed=bad, play_seed=1)
        with pytest.raises(kind, match="^deal_seed must be "):
            ligretto.State.new(2, deal_seed=bad)
    with pytest.raises(ValueError, match=r"^deal seed must be 0 to 2\*\*64 - 1, got a number of "
                                         r"about 5,001 digits$"):  # fmt: skip
        strategies.play_game("random", n_players=3, deal_seed=10**5000, play_seed=1)


def test_the_reports_forfeit_caution_says_whom_a_forfeited_game_counts_against():
    """It said 'they count as games the forfeiting seat lost': a forfeited game has no
    winner, so every seat at its table lost it."""
    import reports
    from reports.findings import key_findings
    from reports.synthetic import synthetic_games

    games = synthetic_games({"a": 0.3, "b": 0.0, "c": -0.2}, players=(3,), deals=40, seed=4,
                            unfinished_p=0.0, forfeit_p=0.05)  # fmt: skip
    tables, method = reports.compute_tables(reports.as_run(games))
    (text,) = [f.text for f in key_findings(tables, method) if f.topic == "completion"]
    assert (
        "a forfeited game has no winner, so it counts as lost by every seat at its table, "
        "the forfeiting one included"
    ) in text and "the forfeiting seat lost" not in text
    forfeited = games["forfeit"].to_numpy() >= 0
    assert forfeited.any() and (games["winner_seat"].to_numpy()[forfeited] < 0).all()


def test_a_gauntlets_paired_difference_stays_inside_100_points():
    """'-87.5 points [-101.9, -73.1]': a paired t interval over few duplicate sets. An interval,
    where one is stated, stays inside [-100, 100] points. Most of these runs have a win 100
    points ahead in every set: no spread, so no interval at all (a zero-width one claimed
    certainty), and the exact sign test's p-value, 2 * 0.5**6 for six sets all one way."""
    from reports.clusters import seat_sums
    from reports.loading import as_games
    from reports.significance import paired
    from reports.stats import within
    from reports.synthetic import synthetic_games

    found, flat = False, 0
    for seed in range(40):
        g = as_games(synthetic_games({"a": 4.0, "b": -4.0, "c": 0.0}, players=(3,), deals=6,
                                     seed=seed, unfinished_p=0.0, forfeit_p=0.0))  # fmt: skip
        r = paired(g, seat_sums(g, g.n_strategies), g.labels.index("a"), g.labels.index("b"))
        assert r is not None and -1 <= r["diff"] <= 1
        if np.isnan(r["ci_low"]):  # every set the same: no spread to give an interval from
            assert np.isnan(r["ci_high"]) and r["se"] == 0 and r["diff"] == 1.0
            assert r["p_value"] == pytest.approx(2 * 0.5 ** r["units"])
            flat += 1
            continue
        assert -1 <= r["ci_low"] <= r["diff"] <= r["ci_high"] <= 1
        found |= r["ci_high"] == 1.0  # the t interval reached past 100 points, and was cut
    assert found and 0 < flat < 40
    lo, hi = within(np.array([-1.2, np.nan, 0.1]), np.array([-0.9, np.nan, 1.3]))
    assert lo[0] == -1 and hi[2] == 1 and np.isnan(lo[1]) and (lo[2], hi[0]) == (0.1, -0.9)


def test_a_kernel_seed_at_its_edges():
    from gamekit.seed_check import MAX_SEED, check_seed

    assert check_seed(np.uint64(0), "s") == 0 and check_seed(np.uint64(MAX_SEED), "s") == MAX_SEED
    assert check_seed(0, "s") == 0 and check_seed(MAX_SEED, "s") == MAX_SEED
    with pytest.raises(ValueError, match=rf"^s must be 0 to 2\*\*64 - 1, got {2**256 - 1}$"):
        check_seed(2**256 - 1, "s")  # 256 bits: written out
    with pytest.raises(ValueError, match=r"^s must be 0 to 2\*\*64 - 1, got a number of about "
                                         r"78 digits$"):  # fmt: skip
        check_seed(2**256, "s")
    with pytest.raises(ValueError, match=r"got a negative number of about 78 digits$"):
        check_seed(-(2**256), "s")
    with pytest.raises(TypeError, match=r"^s must be a whole number 0 to 2\*\*64 - 1, got "
                                        r"'xxxxxxxxx.*x\.\.\. \(str\)$"):  # fmt: skip
        check_seed("x" * 100, "s")
