"""Every bad input gives one clear line on stderr and a non-zero exit (2 for usage), no traceback."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from leaves_cli import main

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def files(tmp_path_factory):
    d = tmp_path_factory.mktemp("bad")
    from leaves import new_game
    from leaves.record import GameRecord

    s0 = new_game(3, seed=4)
    s = s0
    while not s.is_terminal:
        s = s.apply(s.legal_actions()[-1])
    good = GameRecord.from_states(s0, s, strategies=["a", "b", "c"])
    (d / "good.jsonl").write_text(good.to_json() + "\n")
    (d / "corrupt.jsonl").write_text('{"hands": [[1, 2\n')
    (d / "empty.jsonl").write_text("\n")
    (d / "binary.jsonl").write_bytes(b"\xff\xfe\x00\x81" * 10)
    rec = good.to_dict()
    rec["actions"] = [104] + rec["actions"]  # a pass on the empty table of the deal
    (d / "illegal.jsonl").write_text(json.dumps(rec) + "\n")
    (d / "broken.py").write_text("raise RuntimeError('this file is broken')\n")
    (d / "notpy.txt").write_text("x = 1\n")
    (d / "afile").write_text("not a directory\n")
    (d / "bad.toml").write_text("strategies = [\n")
    (d / "unknown.toml").write_text("bogus = 1\n")
    (d / "corrupt_run").mkdir()
    (d / "corrupt_run" / "manifest.json").write_text("{not json")
    (d / "corrupt_run" / "games").mkdir()
    (d / "corrupt_run" / "games" / "part-0.parquet").write_bytes(b"not parquet")
    (d / "notrun").mkdir()
    (d / "raises.py").write_text(
        "from strategies import Strategy\n\n"
        "class Raises(Strategy, register=False):\n"
        "    def __init__(self):\n"
        "        raise RuntimeError('no weights file')\n\n"
        "    def choose(self, view, legal, rng):\n"
        "        return legal[0]\n"
    )
    return d


@pytest.fixture(scope="module")
def run_dir(files):
    """A finished tiny tournament (for resume with a different spec)."""
    out = files / "run"
    args = ["tournament", "greedy", "low", "high", "--players", "3", "--games", "3"]
    try:
        main([*args, "--jobs", "1", "--seed", "1", "--out", str(out)])
    except SystemExit as exc:
        assert exc.code in (0, None), "the tiny tournament failed"
    return out


def _run(capsys, args):
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


# (arguments, exit code, text the one error line contains); "{d}" is the files folder.
CASES = [
    (["nosuch"], 2, "unknown command 'nosuch'"),
    (["play", "--bogus"], 2, "unknown option '--bogus'"),
    (["play", "--against", "nosuch"], 2, "unknown strategy 'nosuch'"),
    (["play", "--against", "gredy"], 2, "did you mean 'greedy'"),
    (["play", "--against", "greedy:depth=3"], 2, "strategy greedy has no parameter 'depth'"),
    (["play", "--against", "counter:threat_weight=abc"], 2, "expects float, got 'abc'"),
    (["play", "--against", "counter:threat_weight"], 2, "cannot read parameter"),
    (["play", "--against", "{d}/nothere.py:Bot"], 2, "no such strategy file"),
    (["play", "--against", "greedy,random"], 2, "--against needs 1 or 3 strategies"),
    (["play", "--players", "7"], 2, "--players 7: 13 Leaves is played by 3 to 6 players, got 7"),
    (["play", "--players", "2"], 2, "--players 2: 13 Leaves is played by 3 to 6 players, got 2"),
    (["play", "--players", "four"], 2, "--players takes a whole number, got 'four'"),
    (["play", "--seat", "4"], 2, "--seat must be 0 to 3 for 4 players, got 4"),
    (["play", "--target", "0"], 2, "--target"),
    (["play", "--seed", "-1"], 2, "--seed"),
    (["play", "--load", "{d}/missing.py"], 2, "--load: no such file"),
    (["play", "--load", "{d}/notpy.txt"], 2, "is not a Python (.py) file"),
    (["play", "--load", "{d}/broken.py"], 2, "RuntimeError: this file is broken"),
    (["strategies", "--filter", "stochastic"], 2, "--filter wants key=value"),
    (["strategies", "--filter", "bogus=1"], 2, "unknown classifier key 'bogus'"),
    (["strategies", "--filter", "search=maybe"], 2,
     "--filter search=maybe: 'maybe' is not a value of search, which is true or false"),
    (["replay", "{d}/missing.jsonl"], 2, "no such record file"),
    (["replay", "{d}/corrupt.jsonl"], 1, "line 1: bad game record: not a JSON game record"),
    (["replay", "{d}/empty.jsonl"], 1, "holds no game records"),
    (["replay", "{d}/binary.jsonl"], 1, "is not a text file of JSON game records"),
    (["replay", "{d}/illegal.jsonl"], 1, "record action 0 (id 104) is illegal"),
    (["replay", "{d}/good.jsonl", "--game", "3"], 2, "--game 3: "),
    (["replay", "{d}/good.jsonl", "--game", "0"], 2, "--game"),
    (["replay"], 2, "RECORD.jsonl|RUN_DIR is required (see 'leaves replay --help')"),
    (["run", "--games", "0"], 2, "--games"),
    (["run", "--jobs", "0"], 2, "--jobs"),
    (["run", "--players", "9"], 2, "--players"),
    (["run", "--out", "{d}/afile"], 1, "cannot write to {d}/afile: it is not a directory (--out)"),
    (["tournament", "nosuch", "greedy", "--out", "{d}/t1"], 2, "unknown strategy 'nosuch'"),
    (["tournament", "greedy", "low:x=1", "--out", "{d}/t1"], 2, "has no parameter 'x'"),
    (["tournament", "greedy", "low", "--players", "7", "--out", "{d}/t1"], 2, "got 7"),
    (["tournament", "--config", "{d}/missing.toml"], 2, "--config: no such file"),
    (["tournament", "--config", "{d}/bad.toml"], 2, "is not valid TOML"),
    (["tournament", "--config", "{d}/unknown.toml"], 2, "unknown key 'bogus'"),
    (
        [
            "tournament",
            "greedy",
            "low",
            "high",
            "--players",
            "3",
            "--games",
            "3",
            "--seed",
            "2",
            "--resume",
            "--out",
            "{d}/run",
        ],
        2,
        "cannot resume {d}/run: --seed 2 differs from this run's seed 1: resume with --seed 1, or "
        "drop --seed",
    ),  # fmt: skip
    (["bench", "--players", "9"], 2, "--players 9: 13 Leaves is played by 3 to 6 players, got 9"),
    (["bench", "--games", "0"], 2, "--games must be at least 1"),
    (["report", "{d}/nothere"], 2, "run directory not found"),
    (["report", "{d}/afile"], 2, "not a run directory"),
    (["report", "{d}/corrupt_run"], 1, "{d}/corrupt_run"),
    # a folder that holds no run is bad usage (2) everywhere, and advises nothing
    (["replay", "{d}/notrun"], 2, "{d}/notrun is a directory but not a tournament run"),
    (["verify", "{d}/notrun"], 2, "{d}/notrun holds no run (no manifest.json)"),
    # a bot whose constructor raises: its name, its file and the exception's message
    (["play", "--against", "{d}/raises.py:Raises"], 2,
     "cannot build strategy Raises ({d}/raises.py:Raises): RuntimeError: no weights file"),
    (["tournament", "{d}/raises.py:Raises", "greedy", "low", "--players", "3", "--out", "{d}/t1"],
     2, "cannot build strategy Raises ({d}/raises.py:Raises): RuntimeError: no weights file"),
    # options that would be accepted and then quietly not do what they say
    (["tournament", "greedy", "--players", "3", "--out", "{d}/t1"], 2,
     "a tournament needs at least 2 strategies, got 1 (greedy): alone, a strategy only plays "
     "itself"),
    (["tournament", "greedy", "low", "high", "--players", "3", "--out", "{d}/t1", "--record",
      "{d}/nodir/deeper/x.jsonl"], 2,
     "--record {d}/nodir/deeper/x.jsonl: the folder {d}/nodir/deeper does not exist"),
    (["tournament", "greedy", "low", "high", "--players", "3", "--out", "{d}/t1", "--record",
      "{d}/afile/x.jsonl"], 2, "--record {d}/afile/x.jsonl: the folder {d}/afile is a file"),
    (["tournament", "greedy", "low", "high", "--players", "3", "--out", "{d}/t1", "--expert",
      "--target", "10", "--rules", "expert_target=7"], 2,
     "--target 10 and --rules expert_target=7 disagree: give one"),
    (["tournament", "greedy", "low", "high", "--players", "3", "--out", "{d}/t1", "--target",
      "10"], 2, "--target 10 needs --expert: 13 Leaves plays single games, not matches to a "
     "target, without it"),
    (["tournament", "greedy", "low", "high", "--players", "3", "--out", "{d}/t1", "--rounds",
      "3"], 2, "--rounds: 13 Leaves matches run to a target (--target)"),
    # outputs that cannot be written: checked before anything is played or computed
    (["play", "--save", "{d}/nodir/games.jsonl"], 2,
     "--save {d}/nodir/games.jsonl: the folder {d}/nodir does not exist"),
    (["play", "--save", "{d}/afile/games.jsonl"], 2,
     "--save {d}/afile/games.jsonl: the folder {d}/afile is a file"),
    (["tune", "taker", "--against", "low", "--out", "{d}/afile/tune"], 1,
     "cannot write to {d}/afile/tune: {d}/afile is not a directory (--out)"),
    (["report", "{d}/run", "--out", "{d}/afile/report"], 1,
     "cannot write to {d}/afile/report: {d}/afile is not a directory (--out)"),
    # rules text: a count given twice, switches and choices exactly as 'leaves rules' lists
    (["play", "--rules", "hand_size=3:12/3:9"], 2,
     "--rules: hand_size names 3 players twice (3:12/3:9): give each count once"),
    (["play", "--rules", "players=3/3/5"], 2,
     "--rules: players names 3 twice (3/3/5): give each count once"),
    (["play", "--rules", "min_count=yes"], 2, "--rules: min_count must be on or off, got 'yes'"),
    (["play", "--rules", "min_count=1"], 2, "--rules: min_count must be on or off, got '1'"),
    (["play", "--rules", "min_count=On"], 2, "--rules: min_count must be on or off, got 'On'"),
    (["play", "--rules", "min_count=OFF"], 2, "--rules: min_count must be on or off, got 'OFF'"),
    (["play", "--rules", "take=ENDS"], 2,
     "--rules: take must be one of any, ends, nothing, got 'ENDS'"),
    (["play", "--rules", "hand_size=09"], 2,
     "--rules: hand_size must be a whole number 1..52, got '09'"),
    (["tournament", "greedy", "low", "high", "--players", "3", "--out", "{d}/t1", "--rules",
      "players=3/3/5"], 2, "players names 3 twice (3/3/5): give each count once"),
]  # fmt: skip


@pytest.mark.parametrize("args, code, message", CASES, ids=[" ".join(c[0]) for c in CASES])
def test_bad_input_is_one_clear_line(files, request, capsys, args, code, message, tmp_path,
                                    monkeypatch):  # fmt: skip
    if "--resume" in args or "{d}/run" in args:
        request.getfixturevalue("run_dir")
        capsys.readouterr()  # what building the run printed, when this test built it
    # from a folder where the quick start's 'leaves run' has left its run: every option is
    # checked before the state of --out (and nothing depends on where the suite starts)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "leaves-run").mkdir()
    (tmp_path / "leaves-run" / "manifest.json").write_text("{}")
    args = [a.replace("{d}", str(files)) for a in args]
    got, out, err = _run(capsys, args)
    assert got == code, err
    assert "Traceback" not in err
    errors = [line for line in err.splitlines() if line.startswith("leaves: error: ")]
    assert len(errors) == 1 and err.endswith(errors[0] + "\n"), err
    if args[0] != "tournament":  # tournament notes the rounded game count on stderr first
        assert err.count("\n") == 1, err
    assert message.replace("{d}", str(files)) in err, err


def test_debug_shows_the_traceback(files, capsys):
    code, _, err = _run(capsys, ["--debug", "play", "--load", str(files / "broken.py")])
    assert code == 2
    assert "Traceback (most recent call last)" in err
    assert err.rstrip().splitlines()[-1].startswith("leaves: error: --load:")


def test_errors_through_the_real_entry_point():
    proc = subprocess.run(
        [sys.executable, "-m", "leaves_cli", "play", "--against", "nosuch"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
    )
    assert proc.returncode == 2
    assert proc.stderr.startswith("leaves: error: --against: unknown strategy 'nosuch'")
    assert proc.stderr.count("\n") == 1
    assert proc.stdout == ""
