"""Ligretto's rows say one thing of each round's end: a forfeited round's ``ended_by`` is its
own code (ENDED_FORFEIT), never the code of a round stopped unfinished, whose ``unfinished``
a forfeit's row does not set."""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ligretto
from ligretto.players.builtin import StackFirst
from ligretto.plugin import LigrettoGame
from ligretto.rules import ENDED_BLOCKADE, ENDED_FORFEIT, ENDED_UNFINISHED
from reports.data import Run
from reports.declared import outcomes
from reports.expert import capped_words, expert_lengths
from reports.findings import _outcomes, key_findings
from reports.loading import games_from_frame
from reports.report import compute_tables
from reports.sections import sections
from tests.helpers import cli_output
from tests.test_edge68_ligretto_words_findings import D, _rounds


class Picky(StackFirst, register=False):
    """Plays as ``stack`` through the Python path; raises (forfeits) on a 6 atop its stack."""

    def decide(self, view: ligretto.PlayerView, rng: Any) -> ligretto.Decision:
        if ligretto.value_of(view.stack_top) == 6:
            raise KeyError("a 6")
        return super().decide(view, rng)


def test_a_forfeited_rounds_row_says_forfeited_and_nothing_else():
    """Every row's ``ended_by`` agrees with its ``blockade``, ``unfinished`` and forfeit: a
    forfeited round's said -2 (stopped unfinished) beside ``unfinished`` False."""
    seeds = np.arange(12, dtype=np.uint64)
    b = LigrettoGame().play([Picky(), "row"], seeds, seeds + np.uint64(1))
    ended = b.game_values["ended_by"]
    forfeited = b.forfeit_seat >= 0
    assert 0 < forfeited.sum() < len(seeds)
    np.testing.assert_array_equal(ended == ENDED_FORFEIT, forfeited)
    np.testing.assert_array_equal(ended == ENDED_UNFINISHED, b.game_values["unfinished"])
    np.testing.assert_array_equal(ended == ENDED_BLOCKADE, b.game_values["blockade"])
    assert (ended[~forfeited] >= 0).all()  # the others: a seat whose stack emptied


def test_the_forfeit_code_is_none_of_the_round_records():
    """A round record never holds a forfeit (a forfeited round keeps none): its code is
    refused there as any other number that is no seat, null or -2."""
    seeds = np.array([3], dtype=np.uint64)
    line = LigrettoGame().play(["stack", "row"], seeds, seeds, record=True).records[0]
    rec = ligretto.RoundRecord.from_json(line)
    rec.ended_by = ENDED_FORFEIT
    with pytest.raises(ligretto.RecordError, match=f"ended_by is {ENDED_FORFEIT}, neither a seat"):
        ligretto.replay(ligretto.RoundRecord.from_json(rec.to_json()))


# ----------------------------------------------------- the blockade share: of the rounds played
def _frame(blockade: list[bool], forfeited: list[bool]) -> pd.DataFrame:
    """Two-player Ligretto rows, a forfeited one with no winner and no blockade (as the
    plug-in writes it); a deal of its own each."""
    frame = _rounds(len(blockade))
    frame["blockade"] = [b and not f for b, f in zip(blockade, forfeited, strict=True)]
    frame["forfeit_seat"] = [1 if f else -1 for f in forfeited]
    frame["winner_seat"] = [-1 if f else 0 for f in forfeited]
    return frame


@settings(max_examples=25)  # each example computes a table: kept quick
@given(rows=st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=40))
def test_the_blockade_share_is_of_the_rounds_not_forfeited(rows):
    """A forfeited round could not end in a blockade: the share counted it in its denominator
    (10 blockades in 32 played rounds and 8 forfeited read 25.0%, not 31.2%)."""
    blockade, forfeited = [b for b, _ in rows], [f for _, f in rows]
    table = outcomes(games_from_frame(_frame(blockade, forfeited), D)).set_index("n_players")
    played = [not f for f in forfeited]
    hits = sum(b and p for b, p in zip(blockade, played, strict=True))
    if any(played):
        assert table.loc["all", "blockade_share"] == pytest.approx(hits / sum(played))
    else:
        assert np.isnan(table.loc["all", "blockade_share"])
    assert table.loc["all", "rounds"] == len(rows)
    assert table.loc["all", "valid_rounds"] == sum(played)


def test_the_findings_and_the_page_say_what_the_share_is_of():
    frame = _frame([i < 10 for i in range(40)], [i >= 32 for i in range(40)])
    g = games_from_frame(frame, D)
    tables, method = compute_tables(g)
    (found,) = _outcomes(tables["outcomes"], D)
    assert found.text.startswith("Rounds ended by blockade: 31.2% [")
    assert found.text.endswith("] of the 32 rounds not ended by a forfeit.")
    lead = _section(tables, method, "Round length and outcomes").text
    assert ("Outcomes: per table size, of the rounds not ended by a forfeit (valid_rounds), "
            "the share ended by blockade (95% intervals). The 8 forfeited rounds (cut short) "
            "are left out of the lengths and the outcomes' shares and means; the outcomes' "
            "rounds column counts every round.") in lead  # fmt: skip
    played = games_from_frame(_frame([i < 10 for i in range(40)], [False] * 40), D)
    (found,) = _outcomes(outcomes(played), D)  # none forfeited: every round, as before
    assert found.text.startswith("Rounds ended by blockade: 25.0% [")
    assert found.text.endswith("] of 40 rounds.")


def test_a_run_of_forfeits_only_states_no_share():
    g = games_from_frame(_frame([False] * 6, [True] * 6), D)
    assert _outcomes(outcomes(g), D) == []


def _section(tables: dict, method: str, title: str, spec: dict | None = None) -> Any:
    """The page's section of that title, as ``leaves report`` writes it."""
    (sec,) = [s for s in sections(tables, method, D, spec) if s.title == title]
    return sec


# ------------------------------------------------------------- games stopped at the cap of 64
def _games_run(games: list[int], best: list[int], target: int | None, **spec: Any) -> Run:
    """A Ligretto run of 2-player games to ``target`` (or of ``spec``'s rounds): each game a
    match of ``games`` rounds whose players end on ``best`` and 0 points."""
    n = sum(games)
    match = np.repeat(np.arange(len(games)), games)
    frame = _rounds(n)
    frame["match"] = match
    frame["score_0"], frame["score_1"] = 0, 0
    g = games_from_frame(frame, D)
    table = pd.DataFrame({"match": np.arange(len(games)), "games": games, "total_0": best,
                          "total_1": [0] * len(games)})  # fmt: skip
    return Run(games=g, matches=table, manifest={"spec": {"target": target, **spec}})


def test_games_stopped_at_the_cap_are_counted_and_said():
    """3 of 5 games to 100 reached round 64 with nobody at 100: the report said nothing of it,
    though their wins and final totals are in the table as the others' are."""
    run = _games_run([64, 64, 64, 64, 12], [40, 99, 80, 100, 101], 100)
    lengths = expert_lengths(run)
    assert lengths["stopped_at_cap"].tolist() == [3]
    said = ("3 of 5 games stopped at the cap of 64 rounds before anyone reached the target: "
            "each was won by the highest total then, and the matches table's wins and final "
            "totals count them, their totals short of the target.")  # fmt: skip
    assert capped_words(lengths, D) == said
    tables, method = compute_tables(run)
    assert said in [f.text for f in key_findings(tables, method, D)]
    page = _section(tables, method, D.match_title, run.manifest["spec"]).text
    assert page.startswith("Games to 100 points; ") and page.endswith(f" {said}")
    one = expert_lengths(_games_run([64, 30], [5, 100], 100))
    assert capped_words(one, D).startswith("1 of 2 games stopped at the cap of 64 rounds "
                                           "before anyone reached the target: it was won ")  # fmt: skip


@pytest.mark.parametrize("run", [
    _games_run([64, 12], [100, 101], 100),  # round 64 reached the target: it ended by the rule
    _games_run([64, 64], [5, 9], None, rounds=64),  # games of 64 rounds: no target, no cap
], ids=["reached", "rounds"])  # fmt: skip
def test_nothing_is_said_where_no_game_stopped_at_the_cap(run):
    lengths = expert_lengths(run)
    assert "stopped_at_cap" not in lengths and capped_words(lengths, D) == ""
    tables, method = compute_tables(run)
    assert not any("cap of" in f.text for f in key_findings(tables, method, D))
    assert "cap of" not in _section(tables, method, D.match_title, run.manifest["spec"]).text


@pytest.mark.slow
def test_a_report_says_the_games_the_tournament_said_stopped_at_the_cap(tmp_path):
    """End to end: the count the tournament prints is the report's, in its findings and on
    its page (games to 1,000 points at two players: every one reaches round 64 first)."""
    run, out = tmp_path / "run", tmp_path / "report"
    code, said, err = cli_output("tournament", "--game", "ligretto", "stack", "row", "--players",
                                 "2", "--target", "1000", "--games", "4", "--seed", "1",
                                 "--jobs", "1", "--out", str(run))  # fmt: skip
    assert code == 0, err
    assert "4 of 4 games stopped at the cap of 64 rounds before anyone reached 1,000" in said
    code, _, err = cli_output("report", str(run), "--format", "md", "--out", str(out))
    assert code == 0, err
    words = "4 of 4 games stopped at the cap of 64 rounds before anyone reached the target: "
    assert words in (out / "findings.txt").read_text()
    assert words in (out / "report.md").read_text()
    assert pd.read_csv(out / "matches_lengths.csv")["stopped_at_cap"].tolist() == [4]
