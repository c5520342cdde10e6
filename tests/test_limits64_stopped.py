"""Which limit stopped an unfinished unit: a game with several declares how its rows tell them
apart (``Declaration.limit_columns``: Ligretto's clock shows in ``time_ms``, its action limit
in a stop before it), and the reports count and name each; 13 Leaves declares its turn limit
as the run's rules set it. The truth is the rows' (or the hand-made rows' own)."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

import reports
from leaves.plugin import LeavesGame
from ligretto.plugin import LigrettoGame
from ligretto.record import _end_line
from ligretto.rules import ENDED_UNFINISHED, MAX_ACTIONS, MAX_ROUND_MS
from reports.data import run_declaration
from reports.findings import key_findings, overall, unfinished_words
from reports.loading import games_from_frame
from reports.tables import completion
from tests.helpers import cli
from tournaments.declaration import Declaration, check_kinds

ROOT = Path(__file__).resolve().parents[1]
FAST = "think_ms=0,look_ms=0,flip_ms=0,spread_ms=0,patience=9000000"
CLOCK, ACTIONS = "10 minutes of game time", "2,000,000 actions"
BOTH = f"{CLOCK} or {ACTIONS} a round"


def _rounds(time_ms: list[int], unfinished: list[bool]) -> pd.DataFrame:
    """Two-player Ligretto rows, seat 0 ahead in each (every round has a winner)."""
    n = len(time_ms)
    return pd.DataFrame({
        "seat_0": ["a"] * n, "seat_1": ["b"] * n, "score_0": [5] * n, "score_1": [-3] * n,
        "n_players": [2] * n, "winner_seat": [0] * n, "seconds": [t // 1000 for t in time_ms],
        "plays": [10] * n, "time_ms": time_ms, "unfinished": unfinished,
    })  # fmt: skip


def _all_row(frame: pd.DataFrame) -> pd.Series:
    return overall(completion(games_from_frame(frame, Declaration.of(LigrettoGame()))))


def test_ligretto_declares_which_row_shows_each_limit():
    assert (MAX_ROUND_MS, MAX_ACTIONS) == (600_000, 2_000_000)  # the words below are these
    d = Declaration.of(LigrettoGame())
    assert d.limits == BOTH
    assert d.limit_columns == {CLOCK: ["time_ms", MAX_ROUND_MS], ACTIONS: None}
    assert Declaration.from_dict(json.loads(json.dumps(d.to_dict()))) == d  # the manifest's


def test_rounds_are_counted_at_the_limit_their_time_shows():
    # 3 stopped at the clock, 5 before it (the actions), 2 finished (one at the clock's time)
    times = [600_000] * 3 + [1_234, 88_000, 599_999, 17, 250_000] + [40_000, 600_000]
    row = _all_row(_rounds(times, [True] * 8 + [False] * 2))
    assert (row["unfinished"], row["unfinished_at_0"], row["unfinished_at_1"]) == (8, 3, 5)
    text = unfinished_words(row, Declaration.of(LigrettoGame()))
    assert text == (
        f"8 rounds (80.0%) stopped unfinished at the limits of the game (3 at {CLOCK}, 5 at "
        f"{ACTIONS} a round) and are scored as they stood, won by whoever was ahead (a higher "
        "score) when they stopped"
    )
    docs = " ".join((ROOT / "docs" / "ligretto.md").read_text(encoding="utf-8").split())
    assert (
        f"`stopped unfinished at the limits of the game (3 at {CLOCK}, 5 at {ACTIONS} a round)`"
        in docs
    )


def test_rounds_all_at_one_limit_name_that_one_only():
    clock = _all_row(_rounds([600_000, 600_000], [True, True]))
    d = Declaration.of(LigrettoGame())
    assert f"stopped unfinished at a limit of the game ({CLOCK} a round) and" in unfinished_words(
        clock, d
    )
    early = _all_row(_rounds([5, 600_000], [True, False]))
    assert unfinished_words(early, d).startswith(
        f"1 round (50.0%) stopped unfinished at a limit of the game ({ACTIONS} a round) and is"
    )


def test_rows_without_the_column_name_both_limits():
    frame = _rounds([600_000, 5], [True, True]).drop(columns="time_ms")
    row = _all_row(frame)
    assert "unfinished_at_0" not in row
    assert f"stopped unfinished at a limit of the game ({BOTH}) and" in unfinished_words(
        row, Declaration.of(LigrettoGame())
    )


def test_a_run_stopped_by_the_clock_says_so_with_rows_or_without(capsys, tmp_path):
    args = ["tournament", "--game", "ligretto", f"cautious:{FAST}", f"cautious:speed=1.5,{FAST}",
            "--players", "2", "--games", "4", "--seed", "1", "--jobs", "1"]  # fmt: skip
    code, said, err = cli(capsys, *args, "--out", str(tmp_path / "rows"))
    assert code == 0, err
    rows = pd.concat(pd.read_parquet(p) for p in (tmp_path / "rows" / "games").rglob("*.parquet"))
    assert (rows["ended_by"] == ENDED_UNFINISHED).all() and (rows["time_ms"] == MAX_ROUND_MS).all()
    (line,) = [x for x in said.splitlines() if "stopped unfinished" in x]
    assert line.startswith(
        f"4 rounds (100.0%) stopped unfinished at a limit of the game ({CLOCK} a round) and"
    )
    code, said, err = cli(capsys, *args, "--no-rows", "--out", str(tmp_path / "none"))
    assert code == 0, err  # the aggregates count each limit, as the rows tell them apart
    assert [x for x in said.splitlines() if "stopped unfinished" in x] == [line]


def test_the_timeline_words_both_limits_from_the_same_source():
    assert _end_line(ENDED_UNFINISHED) == (
        f"round stopped unfinished at a safety limit ({CLOCK} or {ACTIONS}), scored as it stands"
    )


@pytest.mark.parametrize("given", ["turn_limit=5", None])
def test_leaves_says_the_turn_limit_of_its_run(capsys, tmp_path, given):
    out = tmp_path / "run"
    limit = ["--rules", given] if given else ["--turn-limit", "5"]
    code, said, err = cli(capsys, "tournament", "greedy", "low", "high", "--players", "3",
                          "--games", "6", *limit, "--seed", "1", "--jobs", "1",
                          "--out", str(out))  # fmt: skip
    assert code == 0, err
    run = reports.load_run(out)
    assert int(run.games.unfinished.sum()) == 6
    assert (run.games.lengths["turns"] == 5).all()  # the truth: every game at 5 turns
    words = "6 games (100.0%) stopped unfinished at a limit of the game (5 turns a game) and"
    (line,) = [x for x in said.splitlines() if "stopped unfinished" in x]
    assert line.startswith(words)
    tables, method = reports.compute_tables(run)
    (text,) = [f.text for f in key_findings(tables, method, run.declaration)
               if f.topic == "completion"]  # fmt: skip
    assert text.startswith(f"Caution: {words}")


def test_leaves_declares_the_limit_of_its_rules():
    assert Declaration.of(LeavesGame()).limits == "1,000 turns a game"
    assert Declaration.of(LeavesGame(turn_limit=50)).limits == "50 turns a game"
    assert Declaration.of(LeavesGame(rules="turn_limit=1")).limits == "1 turn a game"
    assert Declaration.of(LeavesGame).limits == "1,000 turns a game"  # the class: today's rules


def _older(config: dict) -> dict:
    """A manifest written before the limits were declared, of a run with ``config``."""
    declared = Declaration.of(LeavesGame()).to_dict()
    del declared["limits"], declared["limit_columns"]
    return {"game_declaration": declared, "spec": {"game_config": config}}


def test_an_older_manifest_reads_the_limit_of_its_own_run():
    assert run_declaration(_older({"turn_limit": 50})).limits == "50 turns a game"
    assert run_declaration(_older({})).limits == "1,000 turns a game"
    # settings the installed game no longer takes: no limit claimed, the length words said
    assert run_declaration(_older({"no_such_setting": 1})).limits is None


@pytest.mark.parametrize(
    "bad",
    [{}, {"a": None, "b": None}, {"a": ["time_ms", 1]}, {"a": ["time_ms", 1.5], "b": None},
     {"a": ["time_ms", True], "b": None}, {"a": [" ", 1], "b": None}, {" ": None},
     ["time_ms"], "time_ms"],
)  # fmt: skip
def test_limit_columns_of_another_kind_are_refused_in_one_line(bad):
    with pytest.raises(ValueError, match=r"^the game declaration's limit_columns is .*, expected "
                       r"null or a table of each limit's words to \[column, least value\], "
                       r"the last limit's null$"):  # fmt: skip
        check_kinds({"limit_columns": bad})
