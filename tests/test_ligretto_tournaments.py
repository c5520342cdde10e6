"""Ligretto on the generic runner: rows, matches, records, reports and the command line."""

from __future__ import annotations

import json
import re

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ligretto
from ligretto.players import play_batch
from tests.helpers import cli
from tournaments import Tournament
from tournaments.games import game_names, get_game

FIVE = ["stack", "row", "cycler", "cautious", "scanner"]


def lig(players=4, games=400, seed=11, entrants=FIVE, **kw) -> Tournament:
    return Tournament(entrants, players=players, games=games, seed=seed,
                      game=get_game("ligretto"), **kw)  # fmt: skip


def test_both_games_are_registered_entry_points():
    assert {"leaves", "ligretto"} <= set(game_names())
    # one id per game: the entry point's name is the name the plug-in records
    assert get_game("leaves").name == "leaves" and get_game("ligretto").name == "ligretto"
    assert get_game("13leaves").name == "leaves"  # runs recorded before the id changed
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        get_game("chess")


def test_rows_do_not_depend_on_jobs_or_chunks_and_replay_from_their_seeds(tmp_path):
    one = lig(chunk_size=40).run(n_jobs=1, out=tmp_path / "one").games()
    two = lig(chunk_size=40).run(n_jobs=2, out=tmp_path / "two").games()
    big = lig(chunk_size=400).run(n_jobs=1, out=tmp_path / "big").games()
    pd.testing.assert_frame_equal(one, two)
    pd.testing.assert_frame_equal(one, big)
    assert "first_player" not in one and "cards_left_0" not in one
    assert {"score_11", "won_0", "blockade", "seconds"} <= set(one.columns)
    row = one.iloc[7]
    seats = [row[f"seat_{s}"] for s in range(4)]
    again = play_batch(seats, np.array([row["deal_seed"]], np.uint64),
                       np.array([row["seed"]], np.uint64))  # fmt: skip
    assert again.batch.scores[0].tolist() == [row[f"score_{s}"] for s in range(4)]
    # the round's winners: every seat with the highest score (ties share)
    scores = one[[f"score_{s}" for s in range(4)]].to_numpy()
    won = one[[f"won_{s}" for s in range(4)]].to_numpy().astype(bool)
    assert np.array_equal(won, scores == scores.max(axis=1, keepdims=True))


def test_summary_counts_shared_wins_for_each_winner(tmp_path):
    res = lig(games=800).run(out=tmp_path)
    df = res.games()
    summary = res.summary().set_index("strategy")
    for label in FIVE:
        wins = sum(((df[f"seat_{s}"] == label) & (df[f"won_{s}"] == 1)).sum() for s in range(4))
        assert summary.loc[label, "wins"] == wins
    agg = res.aggregates()
    n_with_winner = int((df[[f"won_{s}" for s in range(4)]].sum(axis=1) > 0).sum())
    from tournaments.aggregates import SHARE_UNITS

    assert agg["win_share_units"].sum() == n_with_winner * SHARE_UNITS


@pytest.mark.parametrize("how", [{"target": 60}, {"rounds": 3}])
def test_games_of_rounds_to_a_target_or_a_number_of_rounds(tmp_path, how):
    res = lig(players=3, games=30, entrants=FIVE[:3], expert=True, **how).run(out=tmp_path)
    games, matches = res.games(), res.matches()
    assert len(matches) == 30
    by_match = games.groupby("match")
    for m in matches.itertuples():
        g = by_match.get_group(m.match)
        totals = [int(g[f"score_{s}"].sum()) for s in range(3)]
        assert totals == [m.total_0, m.total_1, m.total_2]
        assert list(m.match_winners) == [s for s in range(3) if totals[s] == max(totals)]
        if "rounds" in how:
            assert m.games == 3
        else:
            assert max(totals) >= 60
            before = [int(g[f"score_{s}"].iloc[:-1].sum()) for s in range(3)]
            assert max(before) < 60  # it stopped at the first round reaching the target
    import reports

    # the report's section says which: its title was "Games (rounds to the target)" for both
    text = reports.build_report(res, fmt="md").read_text(encoding="utf-8")
    how_said = "Games of 3 rounds each;" if "rounds" in how else "Games to 60 points;"
    assert "## Games of rounds" in text and how_said in text
    assert "to the target" not in text


def test_records_are_pinned_round_records_that_replay(tmp_path):
    """The sample pinned: one game of each block of 40 (``record_stride``) at an offset drawn
    from the seed (``record_rule`` 2), in chunk order (table by table). The first game of
    each block, as the sample was before, put all five at table 0 and its first seating."""
    rec = tmp_path / "r.jsonl"
    res = lig(games=200, record=rec, record_sample=5).run(out=tmp_path / "o")
    lines = rec.read_text().splitlines()
    assert len(lines) == 5
    rows = res.games().set_index("game")
    assert res.spec["record_stride"] == 40 and res.spec["record_rule"] == 2
    games = [60, 143, 7, 88, 172]
    assert [int(rows.loc[g, "table"]) for g in games] == [0, 0, 1, 2, 3]
    assert [int(rows.loc[g, "rotation"]) for g in games] == [0, 3, 3, 0, 0]
    for i, line in enumerate(lines):
        assert list(json.loads(line)) == list(ligretto.record.RECORD_KEYS)  # no play_seed
        r = ligretto.RoundRecord.from_json(line)
        ligretto.replay(r)
        row = rows.loc[games[i]]
        assert r.seed == int(row["deal_seed"])
        assert r.scores == [int(row[f"score_{s}"]) for s in range(4)]
        assert r.strategies == [row[f"seat_{s}"] for s in range(4)]


@pytest.mark.slow
def test_report_of_a_ligretto_run_has_its_tables_and_charts(tmp_path):
    entrants = ["stack", "stack:speed=1.2", "cautious", "cautious:speed=1.2"]
    res = lig(games=400, entrants=entrants).run(out=tmp_path / "run")
    lig(players=3, games=12, entrants=FIVE[:3], expert=True).run(out=tmp_path / "m")
    import reports

    page = reports.build_report(tmp_path / "run")
    out = page.parent
    text = page.read_text()
    assert "Mean score per round" in text and "blockade_share" in text
    assert "first-player" not in text and "Neighbours" not in text  # no turns in Ligretto
    assert not (out / "seats.csv").exists() and not (out / "neighbours.csv").exists()
    summary = pd.read_csv(out / "summary.csv")
    assert {"win_share", "mean_score_when_losing"} <= set(summary.columns)
    assert not any("ended_by" in c for c in summary.columns)
    means = pd.read_csv(out / "means.csv")
    assert list(means["score_mean"]) == sorted(means["score_mean"], reverse=True)
    assert {"stack_left_mean", "centre_cards_ci_low", "score_ci_high"} <= set(means.columns)
    rows = res.games()
    speed = pd.read_csv(out / "by_parameter.csv")
    assert set(speed["parameter"]) == {"speed"} and set(speed["value"]) == {1.0, 1.2}
    assert set(speed["strategy"]) == {"stack", "cautious"}
    fast = speed[(speed["strategy"] == "stack") & (speed["value"] == 1.2)].iloc[0]
    pts = [rows[f"score_{s}"][rows[f"seat_{s}"] == "stack(speed=1.2)"] for s in range(4)]
    assert fast["score_mean"] == pytest.approx(pd.concat(pts).mean())
    outcomes = pd.read_csv(out / "outcomes.csv").set_index("n_players")
    assert outcomes.loc["all", "rounds"] == len(rows)
    assert outcomes.loc["all", "blockade_share"] == pytest.approx(rows["blockade"].mean())
    lengths = pd.read_csv(out / "lengths.csv")
    assert set(lengths["measure"]) == {"seconds", "plays"}
    findings = (out / "findings.txt").read_text()
    assert "of its rounds" in findings and "Rounds ended by blockade" in findings
    for chart in ("means", "win_rates", "by_speed", "lengths_seconds", "head_to_head", "rating"):
        assert (out / "charts" / f"{chart}.png").stat().st_size > 1000
    page = reports.build_report(tmp_path / "m", fmt="md")
    matches = pd.read_csv(page.parent / "matches.csv")
    assert matches["matches"].tolist() == [12, 12, 12]
    assert {"points_per_round", "mean_match_rounds"} <= set(matches.columns)
    text = page.read_text()
    assert "## Games of rounds" in text and "Games to 100 points; the highest total wins" in text
    assert (page.parent / "charts" / "matches_scores.png").exists()


@pytest.mark.slow
def test_command_line(tmp_path, capsys):
    out = tmp_path / "run"
    code, stdout, err = cli(
        capsys, "tournament", "--game", "ligretto", *FIVE, "--players", "4", "--games", "100",
        "--seed", "2", "--jobs", "1", "--out", str(out), "--record", str(tmp_path / "r.jsonl"),
        "--record-sample", "2",
    )  # fmt: skip
    assert code == 0, err
    assert "score mean" in stdout
    # the declared unit, not 13 Leaves' "games", in the closing line; the summary counts seats
    assert re.search(r"┃ seats\s+┃", stdout) and "games" not in stdout
    assert re.search(r"\d+ rounds in [\d.]+ s this session", stdout)
    assert "round records in" in stdout
    code, stdout, err = cli(capsys, "report", str(out))
    assert code == 0, err
    assert (out / "report" / "report.html").exists()
    code, stdout, err = cli(capsys, "replay", str(tmp_path / "r.jsonl"), "--game", "2")
    assert code == 0, err
    assert "plays" in stdout and "round over" in stdout
    code, stdout, err = cli(capsys, "strategies", "--game", "ligretto", "--names")
    assert stdout.split() == sorted(FIVE)
    code, stdout, err = cli(capsys, "bench", "--game", "ligretto", "--json", "--games", "200",
                            "--repeats", "1", "--api-games", "2")  # fmt: skip
    assert code == 0, err
    assert json.loads(stdout)["rounds_per_second"] > 0


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "13"], "2 to 12 players, got 13"),
        (["greedy"], "'greedy': it is a 13 Leaves strategy"),
        (["--turn-limit", "9"], "--turn-limit is not a Ligretto option"),
        (["--decision-timeout", "9"], "--decision-timeout is not a Ligretto option"),
        (["--rounds", "0"], "--rounds must be at least 1"),
        (["--rounds", "2", "--target", "50"], "not both"),
    ],
)
def test_bad_input_is_one_line(tmp_path, capsys, args, message):
    code, _, err = cli(capsys, "tournament", "--game", "ligretto", "stack", "row", *args,
                       "--out", str(tmp_path / "x"))  # fmt: skip
    assert code == 2 and err.count("\n") == 1 and message in err
    assert err.startswith("leaves: error: ")


def test_thirteen_leaves_refuses_ligretto_names_and_rounds(tmp_path, capsys):
    code, _, err = cli(capsys, "tournament", "greedy", "stack", "--out", str(tmp_path / "x"))
    assert code == 2 and "'stack': it is a Ligretto strategy" in err
    code, _, err = cli(capsys, "tournament", "greedy", "low", "--rounds", "2",
                       "--out", str(tmp_path / "y"))  # fmt: skip
    assert code == 2 and "--rounds: 13 Leaves matches run to a target (--target)" in err


_REFERENCE: dict[str, pd.DataFrame] = {}


def _ligretto_rows(entrants: list[str], players: int) -> pd.DataFrame:
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        res = lig(players=players, games=120, seed=5, entrants=entrants).run(out=tmp)
        return res.games().sort_values("game").reset_index(drop=True)


@settings(max_examples=4, deadline=None)
@given(order=st.permutations(FIVE), players=st.sampled_from([3, 5]))
def test_listing_order_cannot_change_ligretto_results(order, players):
    """Ligretto's default seating is the rotations of one order (it has no turn order, so no
    neighbour to balance, and balanced designs do not exist at a usable size for 7 to 12
    seats). That order is the canonical one (by label), never the listing: any listing of the
    same entrants plays the very same rounds at the very same seats."""
    assert get_game("ligretto").default_seating == "rotations"
    key = f"{players}"
    if key not in _REFERENCE:
        _REFERENCE[key] = _ligretto_rows(sorted(FIVE), players)
    got = _ligretto_rows(list(order), players)
    pd.testing.assert_frame_equal(got, _REFERENCE[key])
