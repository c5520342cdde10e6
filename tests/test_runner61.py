"""Matches stopped at the cap on games: a run without per-match rows says the same line as the
same run with them (the aggregates count those matches), and a run written before that count
says nothing rather than a wrong 0."""

from __future__ import annotations

import numpy as np
import pytest

from tests.helpers import as_written_without, cli

CAPPED = ["greedy", "low", "random", "--players", "3", "--expert", "--target", "460", "--games",
          "12", "--seed", "2", "--jobs", "1", "--no-progress"]  # fmt: skip
"""Matches of which some stop at the cap of 64 games before anyone reaches 460 points."""


def _capped_said(text: str) -> list[str]:
    return [line for line in text.splitlines() if "stopped at the cap" in line]


def _truth(out) -> tuple[int, int]:
    """(matches stopped at the cap before anyone reached the target, matches), by hand from
    the match rows."""
    from tournaments import TournamentResult
    from tournaments.work import MAX_GAMES_PER_MATCH

    m = TournamentResult(out).matches(["games", "total_0", "total_1", "total_2"])
    best = m[["total_0", "total_1", "total_2"]].max(axis=1).to_numpy()
    return int(((m["games"].to_numpy() >= MAX_GAMES_PER_MATCH) & (best < 460)).sum()), len(m)


def test_a_run_without_rows_says_the_capped_line_a_run_with_rows_says(tmp_path, capsys):
    """The line was read from the match rows only: a --no-rows run of the same seed said
    nothing of its capped matches. The aggregates count them now, in both runs alike, as the
    rows tell by hand."""
    said = {}
    for rows in ("--rows", "--no-rows"):
        code, text, err = cli(capsys, "tournament", *CAPPED, rows, "--out", str(tmp_path / rows))
        assert code == 0, err
        said[rows] = _capped_said(text)
    n, of = _truth(tmp_path / "--rows")
    assert 0 < n < of
    assert said["--rows"] == [
        f"{n} of {of} matches stopped at the cap of 64 games before anyone reached 460 points: "
        "the best total then won; a lower --target keeps every match to its rule"
    ]
    assert said["--no-rows"] == said["--rows"]
    from tournaments import TournamentResult

    for rows in ("--rows", "--no-rows"):
        agg = TournamentResult(tmp_path / rows).aggregates()
        assert int(agg["size_capped"].sum()) == n and int(agg["size_matches"].sum()) == of


def _matches(games, totals):
    from tournaments.game import SeatedBatch, SeatedMatches

    totals = np.asarray(totals, np.int16)
    m, k = totals.shape
    games = np.asarray(games, np.int16)
    none = SeatedBatch(first_player=None, winner_seat=np.zeros(0, np.int8),
                       forfeit_seat=np.zeros(0, np.int8), seat_values={}, game_values={},
                       errors=[])  # fmt: skip
    winners = totals == totals.min(axis=1, keepdims=True) if m else np.zeros((0, k), bool)
    return SeatedMatches(games=none, game_match=np.zeros(0, np.int32),
                         game_scores=np.zeros((0, k), np.int16), match_games=games,
                         match_totals=totals, match_winners=winners)  # fmt: skip


def test_the_aggregates_count_matches_stopped_at_the_cap():
    """By hand, target 20: a match is capped when it played 64 games and nobody reached 20
    (19 is short of it); one that reached 20 in its 64th game, or stopped early, is not. Only a
    match to a target is counted; a seating with no match adds the count's array all the same,
    so every part of such a run holds it."""
    from tournaments import aggregates

    agg = aggregates.empty(3, 1, 10, max_seats=3)
    one = _matches([64, 64, 64, 12], [[19, 3, 5], [20, 1, 2], [0, 0, 0], [21, 4, 4]])
    aggregates.add_matches(agg, [0, 1, 2], one, target=20)
    assert agg["size_capped"].tolist() == [0, 0, 0, 2]
    assert agg["size_matches"].tolist() == [0, 0, 0, 4]
    aggregates.add_matches(agg, [2, 1, 0], _matches([64], [[7, 8, 9]]), target=20)
    assert agg["size_capped"].tolist() == [0, 0, 0, 3]
    bare = aggregates.empty(3, 1, 10, max_seats=3)
    aggregates.add_matches(bare, [0, 1, 2], one)  # a match of a set number of games
    assert "size_capped" not in bare
    nothing = aggregates.empty(3, 1, 10, max_seats=3)
    aggregates.add_matches(nothing, [0, 1, 2], _matches([], np.zeros((0, 3))), target=20)
    assert nothing["size_capped"].tolist() == [0, 0, 0, 0]


def _as_written_before_the_count(out) -> None:
    """The run in ``out`` as a version before ``size_capped`` wrote it: no such array in its
    aggregates, the run's or any chunk's."""
    as_written_without(out, ("size_capped",))


@pytest.mark.parametrize("rows", ["--rows", "--no-rows"])
def test_a_run_without_the_capped_count_tells_it_from_its_rows_or_not_at_all(rows, tmp_path,
                                                                              capsys):  # fmt: skip
    """A run written before the count: its aggregates load, a merge of an old part with a new
    one keeps no partial count, and the count is read from the match rows where the run kept
    them; without them it is unknown (None), never a wrong 0."""
    from tournaments import TournamentResult, aggregates
    from tournaments.capped import capped_matches

    out = tmp_path / rows
    code, _, err = cli(capsys, "tournament", *CAPPED, rows, "--out", str(out))
    assert code == 0, err
    _as_written_before_the_count(out)
    result = TournamentResult(out)
    assert "size_capped" not in result.aggregates()
    assert int(result.aggregates()["size_matches"].sum()) == 12
    told = capped_matches(result, 460, 3)
    assert told == (_truth(out) if rows == "--rows" else None)
    assert told is None or 0 < told[0] < told[1]
    old, new = {"size_matches": np.array([3])}, {"size_matches": np.array([3]),
                                                 "size_capped": np.array([1])}  # fmt: skip
    assert "size_capped" not in aggregates.merge([old, new])
    assert "size_capped" not in aggregates.merge([new, old])
    assert aggregates.merge([new, new])["size_capped"].tolist() == [2]


def test_a_run_without_rows_of_an_earlier_version_says_no_capped_line(tmp_path, capsys):
    """No rows and no count: the command's line on capped matches is left out (not '0 of');
    the same run with its count says it."""
    from leaves_cli.tournament_cmd import _capped_line
    from tournaments import Tournament, TournamentResult

    out = tmp_path / "old"
    code, text, err = cli(capsys, "tournament", *CAPPED, "--no-rows", "--out", str(out))
    assert code == 0, err
    t = Tournament(["greedy", "low", "random"], players=3, games=12, seed=2, expert=True,
                   target=460, rows=False)  # fmt: skip
    assert _capped_line(TournamentResult(out), t) in ["", *_capped_said(text)]
    _as_written_before_the_count(out)
    assert _capped_line(TournamentResult(out), t) == ""
