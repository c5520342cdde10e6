"""Audit of forfeits and entrants, command side: two versions of a bot in a tournament and a
gauntlet, a field of multi-parameter labels, a strategy that forfeits all its games (exit 1),
a sequential gauntlet that stops after a batch with nothing valid, a constructor that fails
for a later game, a --load error's exit code."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import cli, one_error_line
from tournaments.loading import load

MYBOT = """
from strategies import Strategy


class MyBot(Strategy, register=False):
    classifier = {{"stochastic": False}}

    def choose(self, view, legal, rng):
        return legal[{index}]
"""

BAD = """
from strategies import Strategy


class Bad(Strategy, register=False):
    classifier = {"stochastic": False}

    def choose(self, view, legal, rng):
        raise RuntimeError("always")
"""

FLAKY = """
from strategies import Strategy

BUILT = [0]


class Flaky(Strategy, register=False):
    classifier = {"stochastic": False}

    def __init__(self):
        BUILT[0] += 1
        if BUILT[0] >= 6:
            raise RuntimeError(f"no instance {BUILT[0]}")

    def choose(self, view, legal, rng):
        return legal[0]
"""


def _file(tmp: Path, name: str, text: str, cls: str) -> str:
    path = tmp / name
    path.write_text(text)
    return f"{path}:{cls}"


def test_a_tournament_of_two_versions_of_a_bot_runs_and_resumes(tmp_path, capsys):
    a = _file(tmp_path, "ok.py", MYBOT.format(index=0), "MyBot")
    b = _file(tmp_path, "ok2.py", MYBOT.format(index=-1), "MyBot")
    out = tmp_path / "t"
    code, stdout, err = cli(capsys, "tournament", a, b, "low", "--players", "3", "--games",
                            "12", "--seed", "1", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    assert "ok.py:MyBot" in stdout and "ok2.py:MyBot" in stdout
    assert sorted(load(out).games()["seat_0"].astype(str).unique()) == [
        "low", "ok.py:MyBot", "ok2.py:MyBot"]  # fmt: skip
    code, _, err = cli(capsys, "tournament", "--resume", "--out", str(out), "--add", "12")
    assert code == 0, err


def test_a_gauntlet_of_a_bot_against_its_other_version_runs(tmp_path, capsys):
    a = _file(tmp_path, "ok.py", MYBOT.format(index=0), "MyBot")
    b = _file(tmp_path, "ok2.py", MYBOT.format(index=-1), "MyBot")
    out = tmp_path / "g"
    code, stdout, err = cli(capsys, "gauntlet", a, "--baseline", b, "--against", "low",
                            "--players", "3", "--games", "24", "--jobs", "1", "--out",
                            str(out))  # fmt: skip
    assert code == 0, err
    assert stdout.startswith("ok.py:MyBot wins ") and "; ok2.py:MyBot, in the same seats" in stdout
    code, _, err = cli(capsys, "gauntlet", "--resume", "--out", str(out))
    assert code == 0, err


def test_a_field_with_a_multi_parameter_label_is_named_whole(tmp_path, capsys):
    code, stdout, err = cli(capsys, "gauntlet", "low", "--against",
                            "taker,weighted(w_shed=1.0,w_keep=2.0)", "--players", "3",
                            "--games", "24", "--jobs", "1", "--out", str(tmp_path / "g"))  # fmt: skip
    assert code == 0, err
    assert "against a field of taker and weighted(w_shed=1.0,w_keep=2.0);" in stdout


def test_a_strategy_that_forfeits_every_game_it_plays_is_said_and_exits_1(tmp_path, capsys):
    bad = _file(tmp_path, "bad.py", BAD, "Bad")
    out = tmp_path / "t"
    code, stdout, err = cli(capsys, "tournament", bad, "low", "taker", "greedy", "--players",
                            "3", "--games", "48", "--seed", "1", "--jobs", "1", "--out",
                            str(out))  # fmt: skip
    assert code == 1
    rows = load(out).games()
    lost = rows[rows["forfeit"]]
    assert len(lost) == 36 and (lost["winner_seat"] == -1).all()  # nobody wins a forfeit
    lines = stdout.splitlines()
    assert lines[0].startswith("Partly forfeited: 36 of 48 games (75.0%)")
    assert "a forfeited game has no winner, so it counts as lost by every seat at its table" \
        in lines[0]  # fmt: skip
    assert lines[1] == ("Nothing valid from Bad: it forfeited all 36 of its games, so no "
                        "result says anything about it; fix the strategy and play the run "
                        "again.")  # fmt: skip
    assert one_error_line(err.splitlines()[-1]) == (
        f"leaves: error: no valid game of Bad in {out}: every one played ended by its own forfeit"
    )


def test_a_sequential_gauntlet_stops_after_a_batch_with_nothing_valid(tmp_path, capsys):
    bad = _file(tmp_path, "bad.py", BAD, "Bad")
    out = tmp_path / "s"
    code, stdout, err = cli(capsys, "gauntlet", bad, "--against", "taker", "--sequential",
                            "--games", "40", "--max-games", "400", "--jobs", "1", "--out",
                            str(out))  # fmt: skip
    assert code == 1
    batches = [line for line in err.splitlines() if line.startswith("batch ")]
    assert batches == ["batch 1: 40 games per side, nothing valid played: Bad forfeited every "
                       "one, so the test stops here, undecided"]  # fmt: skip
    assert stdout.startswith("Nothing valid was played: Bad forfeited all 40 of its games")
    record = json.loads((out / "manifest.json").read_text())["sequential"]
    assert (record["decision"], record["batches"], record["finished"]) == ("nothing valid", 1,
                                                                            True)  # fmt: skip
    code, stdout, _ = cli(capsys, "gauntlet", "--resume", "--out", str(out))
    assert code == 1 and stdout.startswith("Nothing valid was played")


def test_a_constructor_failing_in_a_later_game_forfeits_it_and_the_run_goes_on(tmp_path, capsys):
    flaky = _file(tmp_path, "flaky.py", FLAKY, "Flaky")
    out = tmp_path / "t"
    code, stdout, err = cli(capsys, "tournament", flaky, "low", "taker", "--players", "3",
                            "--games", "12", "--seed", "1", "--jobs", "1", "--out",
                            str(out))  # fmt: skip
    assert code == 0, err
    rows = load(out).games()
    assert len(rows) == 12 and 0 < int(rows["forfeit"].sum()) < 12
    forfeits = json.loads((out / "forfeits.json").read_text())
    assert all("(Flaky): cannot build a new Flaky for the next game: RuntimeError: no instance"
               in f["error"] for f in forfeits)  # fmt: skip
    assert stdout.startswith("Partly forfeited: ")


def test_a_load_error_exits_2_as_the_same_file_in_a_spec_does(tmp_path, capsys):
    broken = tmp_path / "broken.py"
    broken.write_text('raise RuntimeError("broken at import")\n')
    args = ("low", "taker", "--players", "3", "--games", "12", "--out", str(tmp_path / "x"))
    code, _, err = cli(capsys, "tournament", "--load", str(broken), *args)
    assert code == 2 and "--load: error while loading" in one_error_line(err)
    code, _, err = cli(capsys, "tournament", f"{broken}:X", *args)
    assert code == 2 and "error while loading" in one_error_line(err)
    code, _, err = cli(capsys, "gauntlet", "low", "--against", "taker", "--load", str(broken))
    assert code == 2
