"""Audit of the command line and the runner: a Ligretto run resumes (its entrants looked up in
its own game's registry), every line a command prints counts in the game's declared unit, the
unit words' plurals, the printed summary's mean saying over which seats it is taken, and a
table size the game is not played by naming --players."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.helpers import cli, one_error_line
from tournaments.declaration import plural

LIG = ["--game", "ligretto", "--players", "3", "--jobs", "1", "--seed", "5"]


def _manifest(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text())


def test_an_interrupted_ligretto_tournament_resumes_from_its_folder(tmp_path, capsys):
    out = tmp_path / "l1"
    args = ["tournament", *LIG, "stack", "row", "cycler", "--games", "60", "--chunk-size", "30"]
    code, _, err = cli(capsys, *args, "--out", out)
    assert code == 0, err
    whole = _manifest(out)
    (out / "games" / "part-000001.parquet").unlink()  # a chunk lost, as if interrupted
    code, stdout, err = cli(capsys, "tournament", "--resume", "--out", out, "--jobs", "1")
    assert code == 0, err  # was: the run's strategy 'cycler' is not registered here
    assert "1 replayed" in err or "resume:" in err
    assert _manifest(out)["spec"] == whole["spec"]
    assert "60 rounds in" in stdout and "games" not in stdout


def test_a_ligretto_gauntlet_resumes_and_counts_rounds(tmp_path, capsys):
    out = tmp_path / "g1"
    args = ["gauntlet", *LIG, "stack", "--against", "row", "--baseline", "cycler", "--games", "60"]
    code, said, err = cli(capsys, *args, "--out", out)
    assert code == 0, err
    assert "60 rounds each for stack and the baseline cycler" in err
    assert " of 60 rounds against two row; cycler, in the same seats" in said  # not "games"
    code, again, err = cli(capsys, "gauntlet", "--resume", "--out", out, "--jobs", "1")
    assert code == 0, err  # was: the run's strategy 'stack' is not registered here
    assert again == said


def test_a_sequential_ligretto_gauntlet_says_rounds_per_side(tmp_path, capsys):
    out = tmp_path / "sq"
    code, stdout, err = cli(capsys, "gauntlet", *LIG, "stack", "--against", "row", "--baseline",
                            "cycler", "--sequential", "--games", "3", "--max-games", "3",
                            "--out", out)  # fmt: skip
    assert code == 0, err
    assert "batch 1: 3 rounds per side" in err
    assert "No test was made: at 3 rounds per side" in stdout


def test_replaying_a_ligretto_run_names_a_round(tmp_path, capsys):
    out = tmp_path / "r"
    code, _, err = cli(capsys, "tournament", *LIG, "stack", "row", "--games", "30", "--out", out)
    assert code == 0, err
    code, stdout, err = cli(capsys, "replay", str(out), "--game", "5", "--all")
    assert code == 0, err
    assert stdout.startswith(f"Round 5 of run {out}, replayed from its seeds")
    code, _, err = cli(capsys, "replay", str(out), "--game", "999")
    line = one_error_line(err)
    assert code == 2 and "has no row for round 999 (its " in line
    assert "rows number their rounds 0 to " in line


@pytest.mark.parametrize(
    ("word", "words"),
    [("strategy", "strategies"), ("entry", "entries"), ("play", "plays"), ("day", "days"),
     ("game", "games"), ("round", "rounds"), ("match", "matches"), ("box", "boxes"),
     ("y", "ys")],
)  # fmt: skip
def test_plural_of_a_y_noun_after_a_consonant(word, words):
    assert plural(word) == words


def test_counted_strategies():
    from reports.numbers import counted

    assert counted(3, "strategy") == "3 strategies" and counted(1, "strategy") == "1 strategy"


def test_the_printed_mean_says_it_is_over_every_seat(tmp_path, capsys):
    out = tmp_path / "s"
    code, stdout, err = cli(capsys, "tournament", "low", "high", "greedy", "--players", "3",
                            "--games", "12", "--seed", "1", "--jobs", "1", "--out", out)  # fmt: skip
    assert code == 0, err
    header = next(line for line in stdout.splitlines() if "strategy" in line)
    # the report's summary column is the mean when losing: the printed one is not that
    assert "cards left mean, all seats" in header
    code, _, err = cli(capsys, "tournament", *LIG, "stack", "row", "--games", "6", "--out",
                       tmp_path / "l")  # fmt: skip
    assert code == 0, err


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["tournament", "greedy", "low", "--players", "7"],
         "--players 7: 13 Leaves is played by 3 to 6 players, got 7"),
        (["tournament", "greedy", "low", "--players", "3,7"],
         "--players 7: 13 Leaves is played by 3 to 6 players, got 7"),
        (["gauntlet", "greedy", "--against", "low", "--players", "7"],
         "--players 7: 13 Leaves is played by 3 to 6 players, got 7"),
        (["tournament", "--game", "ligretto", "stack", "row", "--players", "13"],
         "--players 13: Ligretto takes 2 to 12 players, got 13"),
    ],
)  # fmt: skip
def test_a_table_size_the_game_is_not_played_by_names_players(tmp_path, capsys, args, line):
    code, _, err = cli(capsys, *args, "--games", "10", "--out", tmp_path / "x")
    assert code == 2 and one_error_line(err) == f"leaves: error: {line}"


def test_a_label_only_ligretto_run_resumes_and_is_described_from_then_on(tmp_path, capsys):
    out = tmp_path / "old"
    args = ["tournament", *LIG, "stack", "row", "cycler", "--games", "60", "--chunk-size", "30"]
    assert cli(capsys, *args, "--out", out)[0] == 0
    manifest = _manifest(out)
    assert all("class" in e for e in manifest["spec"]["entrants"])  # Ligretto describes them
    manifest["spec"]["entrants"] = [{"label": e["label"]} for e in manifest["spec"]["entrants"]]
    (out / "manifest.json").write_text(json.dumps(manifest))  # as the earlier version wrote it
    (out / "games" / "part-000001.parquet").unlink()
    code, _, err = cli(capsys, "tournament", "--resume", "--out", out, "--jobs", "1")
    assert code == 0, err
    assert [e["class"] for e in _manifest(out)["spec"]["entrants"]] == [
        "ligretto.players.builtin:HandCycler", "ligretto.players.builtin:RowMover",
        "ligretto.players.builtin:StackFirst",
    ]  # fmt: skip


MINE = '''
from ligretto.players.builtin import StackFirst


class Mine(StackFirst, register=False):
    """StackFirst under a name of its own: a class the registry finds by its file only."""

    name = "mine"
'''


def test_a_ligretto_file_strategy_replays_and_an_edit_of_its_file_is_refused(tmp_path, capsys):
    mine, out = tmp_path / "mine.py", tmp_path / "f"
    mine.write_text(MINE)
    code, _, err = cli(capsys, "tournament", "--game", "ligretto", f"{mine}:Mine:speed=2.0",
                       "row", "--players", "2", "--games", "30", "--seed", "3", "--jobs", "1",
                       "--out", out)  # fmt: skip
    assert code == 0, err
    entrant = next(e for e in _manifest(out)["spec"]["entrants"] if e["label"] != "row")
    assert entrant["file"] == str(mine) and entrant["class"] == "Mine" and entrant["file_sha256"]
    (out / "games" / "part-000000.parquet").unlink()
    code, _, err = cli(capsys, "tournament", "--resume", "--out", out, "--jobs", "1")
    assert code == 0, err  # was: '.../mine.py' has no class 'mine(speed=2.0)'
    code, stdout, err = cli(capsys, "replay", str(out), "--game", "2", "--all")
    assert code == 0, err  # was: unknown strategy 'mine(speed=2.0)'
    assert "mine(speed=2.0)" in stdout and "warning" not in err
    mine.write_text(MINE + "# edited\n")
    code, _, err = cli(capsys, "tournament", "--resume", "--out", out, "--jobs", "1")
    line = one_error_line(err)
    assert code == 2 and f"an entrant changed (mine(speed=2.0): file {mine} changed" in line


def test_a_label_only_entrant_is_no_change_unless_its_label_is_another():
    from tournaments.stages import described_since

    after = {"label": "stack", "class": "ligretto.players.builtin:StackFirst", "params": {}}
    assert described_since({"label": "stack"}, after)
    assert not described_since({"label": "row"}, after)
    assert not described_since({"label": "stack", "class": "x:Y"}, after)
    assert not described_since(None, after)


def test_tune_names_players_too(tmp_path, capsys):
    code, _, err = cli(capsys, "tune", "taker", "--against", "low", "--players", "7", "--out",
                       tmp_path / "t")  # fmt: skip
    line = "--players 7: 13 Leaves is played by 3 to 6 players, got 7"
    assert code == 2 and one_error_line(err) == f"leaves: error: {line}"
