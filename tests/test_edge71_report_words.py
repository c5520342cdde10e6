"""The report says what its tables hold, as a reader checking them against the CSVs found:
head to head leaves forfeited games out (an all-forfeited run showed greedy ahead of taker 62%
beside 'nothing valid'); a length median where half or more games stopped at the limit is 'at
least' that, with their count; the differences' lead says they differ from the summary's rates only where
they do; a tiny run's head to head and neighbours say why they have no intervals; a sign test
over 55 sets or more is written 'p < 1e-16', as docs/reports.md says."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import reports
from reports import charts
from reports.clusters import sign_test
from reports.data import default_declaration
from reports.findings import _lengths
from reports.numbers import p_text
from reports.sections import sections
from reports.synthetic import synthetic_games
from reports.tables import completion
from tests.helpers import cli

THREE = {"a": 0.3, "b": 0.0, "c": -0.2}
D = default_declaration()


def _leads(tables, method) -> dict[str, str]:
    return {s.title: s.lead for s in sections(tables, method, D)}


# ------------------------------------------------------------------------- head to head


def test_head_to_head_leaves_the_forfeited_games_out():
    games = synthetic_games(THREE, players=(3,), deals=20, seed=4, unfinished_p=0.0,
                            forfeit_p=0.3)  # fmt: skip
    kept = games[games["forfeit"] < 0]
    got = reports.head_to_head(games).set_index(["strategy", "opponent"])
    want = reports.head_to_head(kept).set_index(["strategy", "opponent"])
    assert got.loc[want.index, "shared"].tolist() == want["shared"].tolist()
    pd.testing.assert_frame_equal(got.loc[want.index], want)
    assert got["shared"].sum() < reports.head_to_head(games.assign(forfeit=-1))["shared"].sum()


def test_a_run_every_game_of_which_was_forfeited_has_no_head_to_head():
    games = synthetic_games(THREE, players=(3,), deals=6, seed=4, unfinished_p=0.0,
                            forfeit_p=1.0)  # fmt: skip
    assert (games["forfeit"] >= 0).all()
    assert reports.head_to_head(games).empty
    tables, method = reports.compute_tables(reports.as_run(games))
    assert "Head to head" not in _leads(tables, method)


def test_the_head_to_head_lead_says_how_many_forfeited_games_it_leaves_out():
    games = synthetic_games(THREE, players=(3,), deals=20, seed=4, unfinished_p=0.0,
                            forfeit_p=0.3)  # fmt: skip
    tables, method = reports.compute_tables(reports.as_run(games))
    forfeited = int((games["forfeit"] >= 0).sum())
    lead = _leads(tables, method)["Head to head"]
    assert f"It leaves out the {forfeited:,} games ended by a forfeit" in lead, lead
    clean, method = reports.compute_tables(reports.as_run(games.assign(forfeit=-1)))
    assert "forfeit" not in _leads(clean, method)["Head to head"]


# ------------------------------------------------------------------------------ lengths


def _length_said(games: pd.DataFrame) -> str:
    (found,) = _lengths(reports.lengths(games), D, completion(games))
    return found.text


def _cut(games: pd.DataFrame, limit: int) -> pd.DataFrame:
    """``games`` as if stopped at ``limit`` turns: the longer ones unfinished there, unwon."""
    over = games["turns"] >= limit
    return games.assign(turns=np.minimum(games["turns"], limit),
                        unfinished=games["unfinished"] | over,
                        winner_seat=np.where(over, -1, games["winner_seat"]))  # fmt: skip


def test_a_median_where_most_games_stopped_at_the_limit_is_at_least_that():
    games = _cut(synthetic_games(THREE, players=(3,), deals=20, seed=4, unfinished_p=0.0,
                                 forfeit_p=0.0), 60)  # fmt: skip
    cut = int(games["unfinished"].sum())
    assert 2 * cut > len(games)  # most: the median is the limit
    text = _length_said(games)
    share = f"{100 * cut / len(games):.1f}%"
    assert text.startswith("Game length: a game lasts at least 60 turns on median ("), text
    assert f"; {cut} of the {len(games)} games ({share}) stopped unfinished, counted at the " \
           "length they reached)" in text  # fmt: skip


@settings(max_examples=20, deadline=None)
@given(limit=st.integers(45, 90), sizes=st.sampled_from([(3,), (3, 4)]))
def test_the_length_sentence_says_which_games_stopped_unfinished(limit, sizes):
    """Per table size: the count of games that stopped unfinished exactly where some did, and
    'at least' before a median where half or more did (the median may be a length cut short);
    a length given per game says how many."""
    base = synthetic_games(THREE | {"d": 0.1}, players=sizes, deals=4, seed=limit,
                           unfinished_p=0.0, forfeit_p=0.0)  # fmt: skip
    games = _cut(base, limit)
    text = _length_said(games).removeprefix("Game length: ")
    parts = text.split("; at ") if len(sizes) > 1 else [text]
    for part, (n, at) in zip(parts, games.groupby("n_players"), strict=True):
        cut, total = int(at["unfinished"].sum()), len(at)
        least = cut > 0 and 2 * cut >= total and "on median" in part
        assert ("at least" in part) == least, (n, text)
        if "on median" in part and cut:
            assert f"{cut} of the {total} games (" in part, (n, text)
        assert ("stopped unfinished" in part) == (cut > 0), (n, text)
        if "on median" not in part and cut:
            assert "all stopped" in part if cut == total else f"{cut} of them" in part, text


def test_the_length_lead_counts_the_units_stopped_unfinished():
    games = _cut(synthetic_games(THREE, players=(3,), deals=20, seed=4, unfinished_p=0.0,
                                 forfeit_p=0.0), 60)  # fmt: skip
    tables, method = reports.compute_tables(reports.as_run(games))
    cut = int(games["unfinished"].sum())
    lead = _leads(tables, method)["Game length"]
    assert lead == (f"How long a game lasts, per table size. {cut} games "
                    f"({100 * cut / len(games):.1f}%) stopped unfinished and count at the "
                    "length they reached, short of their end.")  # fmt: skip


# ------------------------------------------------------------------------ differences


def test_the_differences_of_one_table_are_not_said_to_differ_from_the_summarys():
    """Three strategies at three seats: one table, so a pair's two rates are the summary's."""
    games = synthetic_games(THREE, players=(3,), deals=20, seed=4, unfinished_p=0.0,
                            forfeit_p=0.0)  # fmt: skip
    tables, method = reports.compute_tables(reports.as_run(games))
    sig, summ = tables["significance"], tables["summary"].set_index("strategy")["win_rate"]
    assert np.allclose(sig["win_rate_a"], summ[sig["a"]].to_numpy(), rtol=0, atol=1e-12)
    lead = _leads(tables, method)["Differences that matter"]
    assert "differs from the difference of the summary's rates" not in lead
    assert lead.endswith("the second weighted by the first's seats).")


# ------------------------------------------------------------------------------ tiny run


def test_a_tiny_runs_head_to_head_and_neighbours_say_why_they_have_no_intervals():
    games = synthetic_games(THREE | {"d": 0.1}, players=(4,), deals=2, seed=4,
                            unfinished_p=0.0, forfeit_p=0.0)  # fmt: skip
    tables, method = reports.compute_tables(reports.as_run(games))
    assert tables["head_to_head"]["ci_low"].isna().all()
    leads = _leads(tables, method)
    said = " No 95% intervals: the run has too few deals for one (play more games)."
    assert leads["Summary"].count(said[:-1]) == 1  # the one clause the summary says too
    assert leads["Head to head"].endswith(said)
    assert leads["Neighbours: whom do you want to sit after?"].endswith(said)


def test_a_run_with_intervals_does_not_say_it_has_none():
    games = synthetic_games(THREE | {"d": 0.1}, players=(4,), deals=30, seed=4,
                            unfinished_p=0.0, forfeit_p=0.0)  # fmt: skip
    tables, method = reports.compute_tables(reports.as_run(games))
    leads = _leads(tables, method)
    both = leads["Head to head"] + leads["Neighbours: whom do you want to sit after?"]
    assert "No 95% intervals" not in both


# --------------------------------------------------------------------------- sign test


@pytest.mark.parametrize(("sets", "said"), [(54, "p = 1e-16"), (55, "p < 1e-16")])
def test_a_sign_test_with_no_spread_reads_below_the_floor_from_55_sets(sets, said):
    """docs/reports.md: a row with no spread gets the exact sign test's p, written as any p:
    'p < 1e-16' only from 55 sets all one way (2 x 0.5^55 = 5.6e-17)."""
    assert p_text(float(sign_test([sets], [0])[0])) == said


@pytest.mark.slow
def test_the_run_docs_reports_md_quotes_reads_as_quoted(tmp_path, capsys):
    """docs/reports.md's length finding of a run most of whose games stopped at the turn
    limit, and its summary chart's axis past the fair-share tick none of them reaches."""
    run = str(tmp_path / "d2")
    code, _, err = cli(capsys, "tournament", "taker", "counter", "greedy", "--players", "3",
                       "--games", "600", "--seed", "10", "--turn-limit", "28", "--jobs", "1",
                       "--out", run)  # fmt: skip
    assert code == 0, err
    code, out, err = cli(capsys, "report", run)
    assert code == 0, err
    assert ("a game lasts at least 28 turns on median (90.7% of games between 24 and 28; 424 "
            "of the 600 games (70.7%) stopped unfinished, counted at the length they "
            "reached)") in " ".join(out.split())  # fmt: skip
    tables, _ = reports.compute_tables(reports.load_run(run))
    summ = tables["summary"]
    assert (summ["ci_high"] < summ["fair_share"]).all()
    fig = charts.win_rates(summ)
    assert fig.axes[0].get_xlim()[1] > summ["fair_share"].max()
