"""Audit of forfeits and entrants, command side: two versions of a bot in a tournament and a
gauntlet, a field of multi-parameter labels, a strategy that forfeits all its games (exit 1),
a sequential gauntlet that stops after a batch with nothing valid, a constructor that fails
for a later game, a --load error's exit code."""

from __future__ import annotations

import json
from pathlib import Path

from tests.helpers import cli, one_error_line
from tests.test_audit_forfeit_edges import MYBOT
from tournaments.loading import load

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


def test_a_strategy_in_several_seats_of_its_games_is_counted_once_a_game(tmp_path, capsys):
    """Bad and greedy at 3 seats: tables of three Bad, two Bad and greedy, ... A game ends at
    its first forfeit, so Bad forfeits each of its 9 games once, though it took 18 seats."""
    bad = _file(tmp_path, "bad.py", BAD, "Bad")
    out = tmp_path / "t"
    code, stdout, err = cli(capsys, "tournament", bad, "greedy", "--players", "3", "--games",
                            "6", "--seed", "1", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 1, err
    rows = load(out).games()
    with_bad = rows[(rows[["seat_0", "seat_1", "seat_2"]] == "Bad").any(axis=1)]
    assert len(with_bad) == 9 and with_bad["forfeit"].all()
    assert stdout.splitlines()[1].startswith("Nothing valid from Bad: it forfeited all 9 of its")


def test_a_sequential_gauntlet_stops_after_a_batch_with_nothing_valid(tmp_path, capsys):
    bad = _file(tmp_path, "bad.py", BAD, "Bad")
    out = tmp_path / "s"
    code, stdout, err = cli(capsys, "gauntlet", bad, "--against", "taker", "--sequential",
                            "--games", "40", "--max-games", "400", "--jobs", "1", "--out",
                            str(out))  # fmt: skip
    assert code == 1
    batches = [line for line in err.splitlines() if line.startswith("batch ")]
    assert batches == ["batch 1: 40 games per side, nothing valid played: every one of Bad's "
                       "games ended by a forfeit (its own or the field's), so the test stops "
                       "here, undecided"]  # fmt: skip
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


LOW = """
from leaves.players.builtin.simple import LowStrategy


class Low(LowStrategy, register=False):
    name = "low"

    def choose(self, view, legal, rng):
        return legal[-1]
"""


def test_a_built_in_and_a_file_class_of_its_name_resume(tmp_path, capsys, monkeypatch):
    """The built-in is told apart by its module (leaves.players.builtin.simple:low): its
    resume looked that label up as a strategy name and refused the run."""
    mine = _file(tmp_path, "low.py", LOW, "Low")
    out = tmp_path / "t"
    code, stdout, err = cli(capsys, "tournament", "low", mine, "high", "--players", "3",
                            "--games", "12", "--seed", "1", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    labels = sorted(load(out).games()["seat_0"].astype(str).unique())
    assert labels == ["high", "leaves.players.builtin.simple:low", "low.py:low"]
    code, _, err = cli(capsys, "tournament", "--resume", "--out", str(out), "--add", "12")
    assert code == 0, err
    g = tmp_path / "g"
    code, _, err = cli(capsys, "gauntlet", mine, "--baseline", "low", "--against", "high",
                       "--players", "3", "--games", "12", "--jobs", "1", "--out", str(g))  # fmt: skip
    assert code == 0, err
    code, _, err = cli(capsys, "gauntlet", "--resume", "--out", str(g))
    assert code == 0, err


def test_a_file_name_with_brackets_resumes_its_own_file_and_replays_under_its_label(
    tmp_path, capsys, monkeypatch
):
    """'ok (1).py:MyBot' read as unqualified: the resume loaded a file of that name where
    the command ran; the replay named both versions 'MyBot'."""
    a = _file(tmp_path, "ok (1).py", MYBOT.format(index=0), "MyBot")
    b = _file(tmp_path, "ok.py", MYBOT.format(index=-1), "MyBot")
    out = tmp_path / "t"
    code, _, err = cli(capsys, "tournament", a, b, "low", "--players", "3", "--games", "12",
                       "--seed", "1", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "ok (1).py").write_text(MYBOT.format(index=1))  # another file, same name
    monkeypatch.chdir(elsewhere)
    code, _, err = cli(capsys, "tournament", "--resume", "--out", str(out), "--add", "12")
    assert code == 0, err
    code, shown, err = cli(capsys, "replay", str(out), "--game", "0")
    assert code == 0, err
    seats = {s for s in load(out).games().loc[0, ["seat_0", "seat_1", "seat_2"]].astype(str)}
    for label in seats:
        assert f"({label})" in shown
    assert "(MyBot)" not in shown


def test_a_subclass_of_a_built_in_keeps_its_own_constructor():
    import strategies
    from leaves.players.builtin.simple import LowStrategy

    class Counting(LowStrategy, register=False):
        def __init__(self):
            super().__init__()
            self.count = 0

        def choose(self, view, legal, rng):
            self.count += 1
            return super().choose(view, legal, rng)

    result = strategies.play_game([Counting(), "high", "low"], deal_seed=1, play_seed=2)
    assert result.forfeit_seat is None and Counting().count == 0


def test_a_constructor_error_for_a_later_game_is_cut_as_other_errors_are():
    import numpy as np

    import strategies
    from strategies import Strategy

    class Long(Strategy, register=False):
        made = [0]

        def __init__(self):
            type(self).made[0] += 1
            if type(self).made[0] > 1:
                raise RuntimeError("x" * 1000)

        def choose(self, view, legal, rng):
            return legal[0]

    seeds = np.arange(1, 4, dtype=np.uint64)
    batch = strategies.play_batch([Long(), "greedy", "low"], seeds, seeds)
    errors = [e for e in batch.errors if e]
    assert errors and all(e.endswith("...") and "x" * 250 not in e for e in errors)
