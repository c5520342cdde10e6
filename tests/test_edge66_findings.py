"""The key findings of small and odd runs, each sentence checked against what the games hold:
a length sentence of two rounds, a forfeit caution in a report without seats or neighbours."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import reports
from reports.findings import key_findings
from reports.numbers import pct
from reports.sections import sections
from reports.synthetic import synthetic_expert, synthetic_games
from tests.helpers import cli_output

CLEAN = {"unfinished_p": 0.0, "forfeit_p": 0.0}
SOMETIMES = Path(__file__).with_name("sometimes_strategy.py")  # a Ligretto player that forfeits
NAMES = {"means": "mean score", "seats": "seat", "neighbours": "neighbour", "lengths": "length"}
"""The findings whose tables leave forfeited units out, as a caution names them."""


def _lengths_said(games: pd.DataFrame) -> str:
    tables, method = reports.compute_tables(reports.as_run(games))
    return next(f.text for f in key_findings(tables, method) if f.topic == "lengths")


def _number(x: str) -> float:
    return float(x.replace(",", ""))


def _check_spread(text: str, values: np.ndarray) -> None:
    """That the turns sentence holds of ``values`` (the games' turns): each form it takes
    says only what they are."""
    values = np.sort(values)
    if m := re.search(r"(?:the one|both|all [\d,]+) games? lasted ([\d.]+) turns", text):
        assert (values == _number(m[1])).all(), (text, values)
    elif m := re.search(r"the ([\d,]+) games lasted ([\d., and]+?) turns", text):
        said = [_number(x) for x in re.split(r", | and ", m[2])]
        assert int(m[1]) == len(values) and said == values.tolist(), (text, values)
    elif m := re.search(r"lasts ([\d.]+) turns on median \(all ([\d,]+) games between (\d+) "
                        r"and (\d+)\)", text):  # fmt: skip
        assert _number(m[1]) == np.median(values) and int(m[2]) == len(values), (text, values)
        assert (_number(m[3]), _number(m[4])) == (values.min(), values.max()), (text, values)
    else:
        m = re.search(r"lasts ([\d.]+) turns on median \(([\d.]+)% of games (?:between (\d+) "
                      r"and (\d+)|lasted (\d+))\)", text)  # fmt: skip
        assert m, text
        assert _number(m[1]) == np.median(values), (text, values)
        lo, hi = (_number(m[3]), _number(m[4])) if m[3] else (_number(m[5]),) * 2
        inside = ((values >= lo) & (values <= hi)).mean()
        assert f"{100 * inside:.1f}" == m[2], (text, values)
        p10, p90 = np.percentile(values, [10, 90])  # the range is the 10th to 90th percentile's
        assert lo - 1 < p10 <= lo and hi <= p90 < hi + 1, (text, p10, p90)


@pytest.mark.parametrize("n", [1, 2, 3, 4, 6, 9, 10, 12, 23, 40])
def test_the_length_sentence_holds_of_the_games_it_counts(n):
    """Was: 'a game lasts 25.5 turns on median (80% of games between 24 and 43)' of six games
    of 22, 25, 25, 26, 41 and 45 turns, four of which lie between; of two rounds of 36 and 55
    seconds, '80% of rounds between 38 and 53', neither of them. A quantile range of so few
    says nothing it claims: the sentence now gives each length of up to three, the lowest
    and the highest of fewer than ten, and of more the share the range really holds."""
    games = synthetic_games({"a": 0.3, "b": 0.0, "c": -0.2}, players=(3,), deals=8, seed=3,
                            **CLEAN).head(n)  # fmt: skip
    _check_spread(_lengths_said(games), games["turns"].to_numpy())


def test_lengths_all_alike_are_said_as_one_length():
    """Was: '80% of games between 5 and 5' where every game stopped at the turn limit."""
    games = synthetic_games({"a": 0.3, "b": 0.0, "c": -0.2}, players=(3,), deals=8, seed=3,
                            **CLEAN)  # fmt: skip
    for n in (1, 2, 6, 24):
        few = games.head(n).assign(turns=5)
        text = _lengths_said(few)
        assert "between 5 and 5" not in text, text
        _check_spread(text, few["turns"].to_numpy())
    many = games.assign(turns=np.where(np.arange(len(games)) % 12 == 0, 9, 5))
    text = _lengths_said(many)  # 22 of 24 at 5 turns: both percentiles are 5
    assert "(91.7% of games lasted 5)" in text, text
    _check_spread(text, many["turns"].to_numpy())


def test_each_table_size_gets_words_true_of_its_count():
    """A run of several table sizes: per size, the same words as a run of one."""
    games = synthetic_games({"a": 0.3, "b": 0.0, "c": -0.2}, players=(3, 4), deals=6, seed=2,
                            **CLEAN)  # fmt: skip
    few = pd.concat([games[games["n_players"] == 3].head(2), games[games["n_players"] == 4]])
    text = _lengths_said(few)
    for n, said in re.findall(r"at (\d) players (.*?)(?:;|\.$)", text):
        _check_spread(said, few.loc[few["n_players"] == int(n), "turns"].to_numpy())
    assert re.search(r"at 3 players (the 2|both) games lasted", text), text


def test_the_page_shows_the_figures_the_length_sentence_gives(tmp_path):
    """The lengths table beside the sentence holds its figures: min, max and the share of the
    games between the 10th and 90th percentiles."""
    games = synthetic_games({"a": 0.3, "b": 0.0}, players=(3,), deals=2, seed=3, **CLEAN)
    page = reports.build_report(games, out=tmp_path / "r", fmt="md").read_text()
    view = page.split("`lengths`", 1)[1].split("###", 1)[0]
    assert re.search(r"\| by \| group \| measure \| games \| mean \| min \| p10 \| median \| "
                     r"p90 \| max \| p10_p90_share \|", view), view  # fmt: skip
    text = next(line for line in page.splitlines() if "Game length:" in line)
    low, high = games["turns"].min(), games["turns"].max()
    assert f"between {low} and {high})" in text, text


@pytest.fixture(scope="module")
def ligretto_run(tmp_path_factory) -> reports.Run:
    """Twelve Ligretto rounds of two players, four of them forfeited by Sometimes: too few
    deals for any interval."""
    run = tmp_path_factory.mktemp("ligretto") / "run"
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("OPENBLAS_NUM_THREADS", "1")  # the command sets it
        code, _, err = cli_output("tournament", "--game", "ligretto", f"{SOMETIMES}:Sometimes",
                                  "stack", "row", "--players", "2", "--games", "12", "--seed",
                                  "1", "--jobs", "1", "--out", str(run))  # fmt: skip
    assert code == 0, err
    return reports.as_run(run)


def test_a_ligretto_forfeit_caution_names_only_what_its_report_holds(ligretto_run):
    """Was: 'the paired comparisons and the seat, neighbour and length findings leave them
    out' in a Ligretto report, which has no seat nor neighbour finding. The caution names
    the findings the report gives, and each of them does leave the forfeited rounds out."""
    run = ligretto_run
    tables, method = reports.compute_tables(run)
    found = key_findings(tables, method, run.declaration)
    caution = found[0].text
    forfeited = int(run.games.forfeited.sum())
    assert caution.startswith(f"Caution: {forfeited} of {len(run.games)} rounds"), caution
    assert (
        "seat" not in caution.replace("every seat at its table", "") and "neighbour" not in caution
    )
    named = re.search(r"the paired comparisons leave them out, as do the (.*) findings", caution)
    assert named, caution
    topics = {f.topic for f in found}
    said = {t for t, w in NAMES.items() if w in named[1]}
    assert said == topics & set(NAMES) == {"means", "lengths"}, (said, topics)
    valid = len(run.games) - forfeited  # what they leave out, they do leave out
    lengths = tables["lengths"].query("by == 'all'")
    assert (lengths["games"] == valid).all()
    assert tables["means"]["valid_seats"].sum() == 2 * valid


def test_a_caution_names_no_finding_the_report_leaves_out():
    """A 13 Leaves run whose games nobody won has no seat finding: the caution does not name
    one (and names the seat finding where there is one)."""
    games = synthetic_games({"a": 0.3, "b": 0.0, "c": -0.2}, players=(3,), deals=40, seed=4,
                            unfinished_p=0.02, forfeit_p=0.3)  # fmt: skip
    tables, method = reports.compute_tables(reports.as_run(games))
    found = key_findings(tables, method)
    assert "as do the seat, neighbour and length findings" in found[0].text or (
        "as do the seat and length findings" in found[0].text
        and "neighbours" not in {f.topic for f in found}
    ), found[0].text
    tables = dict(tables)
    del tables["seats"]
    caution = key_findings(tables, method)[0].text
    assert "seat," not in caution and "seat and" not in caution, caution


def _leads(tables: dict, method: str, d) -> dict[str, str]:
    return {sec.title: sec.lead for sec in sections(tables, method, d)}


def test_a_means_lead_claims_no_interval_the_table_lacks(ligretto_run):
    """Was: 'Mean score per round by strategy, best on top, with 95% intervals.' above a
    means table of twelve rounds, none of whose means has one."""
    tables, method = reports.compute_tables(ligretto_run)
    assert tables["means"]["score_ci_low"].isna().all()
    lead = _leads(tables, method, ligretto_run.declaration)["Mean score per round"]
    assert "with 95% intervals" not in lead, lead
    assert "No 95% intervals: the run has too few deals for one (play more rounds)." in lead
    tables = dict(tables, means=tables["means"].assign(score_ci_low=1.0, score_ci_high=2.0))
    lead = _leads(tables, method, ligretto_run.declaration)["Mean score per round"]
    assert lead == "Mean score per round by strategy, best on top, with 95% intervals.", lead


def test_a_seats_lead_says_no_game_was_won_where_none_was():
    """Was: 'Some games count as nobody's win (unfinished)' where every one did; the table
    beside it has every win rate and par at 0."""
    games = synthetic_games({"a": 0.3, "b": 0.0, "c": -0.2}, players=(3,), deals=4, seed=3,
                            unfinished_p=1.0, forfeit_p=0.0)  # fmt: skip
    run = reports.as_run(games)
    tables, method = reports.compute_tables(run)
    assert (tables["seats"][["win_rate", "par"]] == 0).all().all()
    lead = _leads(tables, method, run.declaration)["Seat and first-player advantage"]
    assert "Some games" not in lead, lead
    assert "No game the table counts was won, so every position's win rate and its fair " in lead
    some = synthetic_games({"a": 0.3, "b": 0.0, "c": -0.2}, players=(3,), deals=40, seed=3,
                           unfinished_p=0.2, forfeit_p=0.0)  # fmt: skip
    tables, method = reports.compute_tables(reports.as_run(some))
    assert "Some games count as nobody's win" in _leads(tables, method, run.declaration)[
        "Seat and first-player advantage"]  # fmt: skip


def test_a_match_finding_says_when_the_first_match_win_rate_is_shared():
    """Was: 'Expert matches: high wins 46.7% of its matches ...' where low won as many of as
    many matches: the first row of a tie read as a leader."""
    games, matches = synthetic_expert({"x": 1.0, "y": 0.0, "z": -1.0}, players=(3,))
    run = reports.as_run(games)
    run.matches = matches
    tables, method = reports.compute_tables(run)
    ex = tables["expert"]
    found = {f.topic: f.text for f in key_findings(tables, method)}
    alone = ex["match_win_rate"].iloc[1] < ex["match_win_rate"].iloc[0]
    assert alone and "no strategy leads" not in found["expert"], found["expert"]
    tied = ex.assign(match_win_rate=[ex["match_win_rate"].iloc[0]] * 2 + [0.0])
    found = {f.topic: f.text for f in key_findings(dict(tables, expert=tied), method)}
    rate = pct(tied["match_win_rate"].iloc[0])
    assert (f"{ex['strategy'].iloc[1]} has the same match win rate, {rate}: no strategy "
            "leads.") in found["expert"], found["expert"]  # fmt: skip


def test_a_caution_naming_one_finding_reads_as_one():
    """Was: 'the paired comparisons leave them out, as do the length finding'."""
    games = synthetic_games({"a": 0.3, "b": 0.0, "c": -0.2}, players=(3,), deals=40, seed=4,
                            unfinished_p=0.02, forfeit_p=0.3)  # fmt: skip
    tables, method = reports.compute_tables(reports.as_run(games))
    tables = {k: v for k, v in tables.items() if k not in ("seats", "neighbours")}
    caution = key_findings(tables, method)[0].text
    assert "the paired comparisons leave them out, as does the length finding;" in caution


def test_a_run_every_game_of_which_was_forfeited_is_not_told_to_play_more():
    """Was: 'No 95% intervals: the run has too few deals for one (play more games)' above the
    summary and the seats of a run every game of which ended by a forfeit: more of them would
    have none either (the tournament's own line says to fix the strategy)."""
    games = synthetic_games({"a": 0.3, "b": 0.0, "c": -0.2}, players=(3,), deals=3, seed=4,
                            unfinished_p=0.0, forfeit_p=1.0)  # fmt: skip
    run = reports.as_run(games)
    assert run.games.forfeited.all()
    tables, method = reports.compute_tables(run)
    assert tables["summary"]["ci_low"].isna().all()
    assert "seats" not in tables  # the seats leave forfeited games out: none is left to show
    leads = _leads(tables, method, run.declaration)
    for title in ("Summary",):
        assert "play more" not in leads[title], leads[title]
        assert ("No 95% intervals: every game ended by a forfeit, so none counts toward one (fix "
                "the strategy and play the run again)") in leads[title], leads[title]  # fmt: skip
    few = synthetic_games({"a": 0.3, "b": 0.0, "c": -0.2}, players=(3,), deals=3, seed=4, **CLEAN)
    tables, method = reports.compute_tables(reports.as_run(few))
    lead = _leads(tables, method, run.declaration)["Summary"]
    assert "No 95% intervals: the run has too few deals for one (play more games)" in lead, lead


BOOM = Path(__file__).with_name("boom_strategy.py")  # forfeits every game that reaches turn 10


def test_a_gauntlet_lead_says_one_side_forfeited_everything(tmp_path, monkeypatch):
    """Was: 'This run cannot tell: it has too few deals for an interval of the difference
    (play more games)' above a gauntlet whose strategy forfeited every game, which more games
    would forfeit too (and nothing at all, with more deals, beside a p-value of 3e-05)."""
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # the command sets it
    out = tmp_path / "g"
    code, said, err = cli_output("gauntlet", f"{BOOM}:Boom", "--baseline", "greedy", "--against",
                              "low,high", "--players", "3", "--games", "6", "--seed", "1",
                              "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 1 and "Nothing valid was played" in said + err, err  # its first line
    run = reports.as_run(out)
    tables, method = reports.compute_tables(run)
    side = tables["gauntlet"].iloc[0]
    assert side["forfeited"] == side["games"] > 0  # every game of the strategy's side
    lead = _leads(tables, method, run.declaration)["Gauntlet"]
    assert "play more" not in lead, lead
    assert lead.endswith(
        "This run cannot tell: one side forfeited every one of its games, so "
        "the two cannot be compared (fix the strategy and play the run again)."
    )
