"""A match holding a forfeited game has no winner (a Ligretto game of rounds holding a forfeited
round, a 13 Leaves expert match holding a forfeited game), so the matches' win rates sum short
of 100%: the terminal's 'Partly forfeited' line counted only the forfeited rounds ('13 of 72
rounds') and left that drop unexplained. It now says how many matches held one, from the
aggregates (``match_aggregates.FORFEITED_MATCHES``), counted alike by a resumed run, and said
unknown, never 0, of a run written before that count."""

from __future__ import annotations

import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from tests.helpers import (
    SOMETIMES,
    cli_output,
    copied_run,
    doc_says,
    stopped,
)
from tournaments import TournamentResult, aggregates
from tournaments.declaration import plural
from tournaments.match_aggregates import FORFEITED_MATCHES
from tournaments.run_state import run_state

SOMETIMES_LEAVES = """
from strategies import Strategy


class Sometimes(Strategy, register=False):
    def choose(self, view, legal, rng):
        if view.hand[12] and view.turn >= 4:  # a 13 in hand: a forfeit in some games only
            raise RuntimeError("a 13")
        return min(legal, key=lambda a: (a.is_pass, a.value))
"""
COMMON = ("--players", "3", "--games", "24", "--seed", "3", "--jobs", "1", "--chunk-size", "6",
          "--no-progress")  # fmt: skip
"""24 matches in 4 chunks of 6: a run stopped after two chunks holds half of them."""
RUNS = {
    "ligretto-rounds": ("--game", "ligretto", SOMETIMES, "stack", "row", "--rounds", "3"),
    "ligretto-target": ("--game", "ligretto", SOMETIMES, "stack", "row", "--expert"),
    "leaves-expert": ("{leaves}:Sometimes", "greedy", "low", "--expert"),
}
"""Runs of matches in which ``Sometimes`` forfeits some games (rounds) only."""


@pytest.fixture(autouse=True)
def _one_blas_thread(monkeypatch):
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # the CLI sets it


def _args(name: str, folder: Path) -> list[str]:
    leaves = folder / "sometimes_leaves.py"
    if not leaves.exists():
        leaves.write_text(SOMETIMES_LEAVES)
    return [a.format(leaves=leaves) for a in RUNS[name]] + list(COMMON)


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[str, tuple[Path, str]]:
    """Each of ``RUNS`` played whole: (its folder, what the command printed)."""
    root = tmp_path_factory.mktemp("rounds")
    played = {}
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("OPENBLAS_NUM_THREADS", "1")  # the CLI sets it
        mp.setenv("COLUMNS", "200")
        for name in RUNS:
            out = root / name
            code, text, err = cli_output("tournament", *_args(name, root), "--out", str(out))
            assert code == 0, err
            played[name] = (out, text)
    return played


def _truth(out: Path) -> tuple[int, int, int, int]:
    """(forfeited games, games, matches that held one, matches) of the run in ``out``, by hand
    from its rows."""
    result = TournamentResult(out)
    games = result.games(["match", "forfeit_seat"])
    held = games.groupby("match")["forfeit_seat"].max() >= 0
    return int((games["forfeit_seat"] >= 0).sum()), len(games), int(held.sum()), len(held)


def _said(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("Partly forfeited: ")]


def _without_count(out: Path) -> None:
    """The run in ``out`` as a version before ``FORFEITED_MATCHES`` wrote it: no such array in
    its aggregates, the run's (where it has them) or any chunk's, and the manifest's checksums
    of those files as that version recorded them."""
    from tournaments import storage

    manifest = json.loads((out / "manifest.json").read_text())
    part = manifest["integrity"]
    entries = [part["files"], *part["chunks"].values()]
    merged = [out / "aggregates.npz"] if (out / "aggregates.npz").exists() else []
    for path in [*merged, *sorted(out.rglob("chunk*.npz"))]:
        agg, extra = aggregates.load(path)
        assert FORFEITED_MATCHES in agg
        aggregates.save(path, {k: v for k, v in agg.items() if k != FORFEITED_MATCHES}, **extra)
        rel = path.relative_to(out).as_posix()
        for where in entries:
            if rel in where:
                where[rel] = storage.file_entry(path.read_bytes())
    (out / "manifest.json").write_text(json.dumps(manifest))


def _pct(n: int, of: int) -> str:
    return f"{100 * n / of:.1f}%"


def test_the_aggregates_count_each_match_that_held_a_forfeit_once():
    """By hand: three matches of a seating, the first holding two forfeited games, the third
    one: two matches held a forfeit. Matches of a set number of games are counted as those to a
    target are, and a seating with no match adds the count's array all the same, so every part
    of a run of matches holds it."""
    from tournaments.game import SeatedBatch, SeatedMatches

    forfeit = np.array([0, -1, 2, -1, -1, -1, 1], np.int8)
    of_match = np.array([0, 0, 0, 1, 1, 2, 2], np.int32)
    g = len(forfeit)
    games = SeatedBatch(first_player=None, winner_seat=np.full(g, -1, np.int8),
                        forfeit_seat=forfeit, seat_values={}, game_values={}, errors=[None] * g)  # fmt: skip
    winners = np.array([[False] * 3, [True, False, False], [False] * 3])
    three = SeatedMatches(games=games, game_match=of_match, game_scores=np.zeros((g, 3), np.int16),
                          match_games=np.array([3, 2, 2], np.int16),
                          match_totals=np.zeros((3, 3), np.int16), match_winners=winners)  # fmt: skip
    for target in (20, None):
        agg = aggregates.empty(3, 1, 10, max_seats=3)
        aggregates.add_matches(agg, [0, 1, 2], three, target=target)
        assert agg[FORFEITED_MATCHES].tolist() == [0, 0, 0, 2]
    none = SeatedBatch(first_player=None, winner_seat=np.zeros(0, np.int8),
                       forfeit_seat=np.zeros(0, np.int8), seat_values={}, game_values={},
                       errors=[])  # fmt: skip
    empty = SeatedMatches(games=none, game_match=np.zeros(0, np.int32),
                          game_scores=np.zeros((0, 3), np.int16), match_games=np.zeros(0, np.int16),
                          match_totals=np.zeros((0, 3), np.int16),
                          match_winners=np.zeros((0, 3), bool))  # fmt: skip
    nothing = aggregates.empty(3, 1, 10, max_seats=3)
    aggregates.add_matches(nothing, [0, 1, 2], empty)
    assert nothing[FORFEITED_MATCHES].tolist() == [0, 0, 0, 0]


@pytest.mark.slow
@pytest.mark.parametrize("name", list(RUNS))
def test_the_line_says_how_many_matches_held_a_forfeit(name, runs):
    """The line names the matches that held a forfeited game, as the rows count them by hand;
    they are exactly the matches without a winner (the rest split one whole win each), which
    the line says, so the matches' win rates fall short of 100% by that share."""
    out, text = runs[name]
    lost, games, held, matches = _truth(out)
    assert 0 < held < matches == 24
    declared = TournamentResult(out).manifest["game_declaration"]
    unit, match_unit = declared["unit"], declared["match_unit"]
    said = _said(text)
    assert len(said) == 1
    assert said[0].startswith(f"Partly forfeited: {lost} of {games} {plural(unit)} ({_pct(lost, games)}) "
                              "ended by a forfeit (the first, ")  # fmt: skip
    assert (
        f", and {held} of {matches} {plural(match_unit)} ({_pct(held, matches)}) held one; a "
        f"forfeited "
        f"{unit} has no winner, nor has a {match_unit} that held one, so each counts as lost by "
        "every seat at its table, the forfeiting one included; replay it with 'leaves replay "
    ) in said[0]
    assert int(TournamentResult(out).aggregates()[FORFEITED_MATCHES].sum()) == held
    rows = pd.read_parquet(out / "matches")
    assert int((rows["match_winners"].map(len) == 0).sum()) == held
    share = TournamentResult(out).summary()["match_win_share"].sum()
    assert share == pytest.approx(matches - held)


def test_the_page_quotes_the_ligretto_run_of_rounds(runs):
    """docs/tournaments.md quotes the line of the Ligretto run of 3 rounds a game as that run
    prints it (its '...' left out), with the rows' counts and the sum of its games' win rates."""
    out, text = runs["ligretto-rounds"]
    lost, games, held, matches = _truth(out)
    rates = TournamentResult(out).summary()["match_win_rate"].sum()
    found = doc_says(
        "tournaments.md",
        r"`(Partly forfeited: (\d+) of (\d+) rounds \(([\d.]+)%\) ended by a forfeit \(\.\.\.\), "
        r"and (\d+) of (\d+) games \(([\d.]+)%\) held one; a forfeited round has no winner, nor "
        r"has a game that held one, so each counts as lost by every seat at its table, \.\.\.)` "
        r"\(Ligretto, `--rounds 3`: the games' win rates then sum to ([\d.]+)%, not 100%\)",
    )
    assert found.groups()[1:] == (str(lost), str(games), _pct(lost, games)[:-1], str(held),
                              str(matches), _pct(held, matches)[:-1], f"{100 * rates:.1f}")  # fmt: skip
    line, at = _said(text)[0], 0
    for part in re.split(r"\(\.\.\.\)|\.\.\.", found.group(1)):  # the quote's parts, in order
        at = line.index(part, at) + len(part)
    doc_says("tournaments.md", r"A run whose aggregates lack that count \(written by an earlier "
             r"version\) says how many is not known, never 0\.")  # fmt: skip


def test_a_resumed_run_counts_as_an_uninterrupted_one(runs, tmp_path):
    """A run stopped after two of its four chunks says how many of the matches it holds held a
    forfeit; resumed, it counts what the uninterrupted run counts, and says the same line."""
    out = tmp_path / "stopped"
    code, _, _ = stopped("tournament", *_args("ligretto-rounds", tmp_path), "--out", str(out))
    assert code != 0
    _, _, held, matches = _truth(out)
    assert matches == 12 and 0 < held < matches
    lines = run_state(out).lines()
    assert f", and {held} of 12 games ({_pct(held, 12)}) held one; " in lines[1]
    code, text, err = cli_output("tournament", "--resume", "--out", str(out), "--no-progress")
    assert code == 0, err
    whole, whole_text = runs["ligretto-rounds"]
    count = TournamentResult(out).aggregates()[FORFEITED_MATCHES]
    assert count.tolist() == TournamentResult(whole).aggregates()[FORFEITED_MATCHES].tolist()
    assert run_state(out).lines() == [
        line.replace(str(whole), str(out)) for line in run_state(whole).lines()
    ]
    assert _said(text) == [line.replace(str(whole), str(out)) for line in _said(whole_text)]


def test_a_run_written_before_the_count_says_it_is_unknown(runs, tmp_path):
    """A run whose aggregates lack the count loads, and its line says how many matches held a
    forfeit is not known, never '0 of'; so does one resumed from chunks without it (a sum over
    some chunks is no count of the run)."""
    old = copied_run(runs["ligretto-rounds"][0], tmp_path, name="old")
    _without_count(old)
    assert FORFEITED_MATCHES not in TournamentResult(old).aggregates()
    line = run_state(old).lines()[0]
    assert ", and how many of its 24 games held one is not known (a run written before that " \
           "count); a forfeited round has no winner, nor has a game that held one, so each " \
           "counts as lost" in line  # fmt: skip
    assert " of 24 games (" not in line
    out = tmp_path / "stopped"
    code, _, _ = stopped("tournament", *_args("ligretto-rounds", tmp_path), "--out", str(out))
    assert code != 0
    _without_count(out)
    code, text, err = cli_output("tournament", "--resume", "--out", str(out), "--no-progress")
    assert code == 0, err
    assert FORFEITED_MATCHES not in TournamentResult(out).aggregates()
    assert ", and how many of its 24 games held one is not known" in _said(text)[0]
