"""docs/cli.md's exit-code table is what the commands do: every code it lists, and every kind
of error it names for a code, is triggered here and gives that code (one line, no traceback).
A row or a kind added to the table without a case here fails, and so does a case whose kind
the table no longer names."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from leaves_cli import main

from .helpers import cli
from .toygame import ToyGame

ROOT = Path(__file__).resolve().parents[1]
THREE = ["greedy", "low", "high"]


def _split(text: str) -> list[str]:
    """Clauses of a table cell: split on ',' and ';' outside parentheses and backticks."""
    clauses, depth, quoted, cur = [], 0, False, ""
    for ch in text:
        quoted ^= ch == "`"
        depth += (ch == "(") - (ch == ")")
        if ch in ",;" and depth == 0 and not quoted:
            clauses.append(cur)
            cur = ""
        else:
            cur += ch
    return [c.strip() for c in [*clauses, cur] if c.strip()]


def documented() -> dict[int, list[str]]:
    """code -> the kinds of error its row names (after the row's heading words and ':')."""
    text = (ROOT / "docs" / "cli.md").read_text(encoding="utf-8")
    table = text.split("| kind of error | exit code |", 1)[1].split("\n\n", 1)[0]
    rows = {}
    for line in table.strip().splitlines()[1:]:  # after the |---|---| line
        kind, code = (cell.strip() for cell in line.strip().strip("|").rsplit("|", 1))
        head, colon, rest = kind.partition(": ")
        rows[int(code)] = _split(rest) if colon else [kind]
    return rows


@pytest.fixture(scope="module")
def d(tmp_path_factory):
    """A finished tiny run, a second one with other strategies and files to point at."""
    d = tmp_path_factory.mktemp("codes")
    for name, specs in (("run", THREE), ("other", ["random", "counter", "taker"])):
        try:
            main(["tournament", *specs, "--players", "3", "--games", "6", "--seed", "1",
                  "--jobs", "1", "--out", str(d / name)])  # fmt: skip
        except SystemExit as exc:
            assert exc.code in (0, None)
    (d / "afile").write_text("not a folder\n")
    (d / "broken.py").write_text(BROKEN)
    (d / "raiser.py").write_text(RAISER)
    try:  # every game forfeited: a run with no valid game (the tournament itself exits 1)
        main(["tournament", f"{d}/raiser.py:Raiser", *THREE[:2], "--players", "3", "--games",
              "6", "--seed", "1", "--jobs", "1", "--out", str(d / "forfeited")])  # fmt: skip
    except SystemExit as exc:
        assert exc.code == 1
    (d / "empty").mkdir()
    (d / "unreadable" / "games").mkdir(parents=True)
    (d / "unreadable" / "games" / "part-0.parquet").write_bytes(b"not parquet")
    (d / "unreadable" / "manifest.json").write_text("{}")  # no checksums: every part is read
    for name in ("corrupt", "mismatch", "nogames"):
        shutil.copytree(d / "run", d / name)
    manifest = json.loads((d / "run" / "manifest.json").read_text())
    manifest["spec"]["players"] = "four"
    (d / "corrupt" / "manifest.json").write_text(json.dumps(manifest))
    part = next((d / "mismatch" / "games").glob("*.parquet"))
    part.write_bytes(part.read_bytes()[:-20])
    # killed before its first chunk was recorded: a manifest, no games yet
    manifest = json.loads((d / "run" / "manifest.json").read_text())
    manifest["status"] = "running"
    manifest["integrity"]["chunks"], manifest["integrity"]["files"] = {}, {}
    (d / "nogames" / "manifest.json").write_text(json.dumps(manifest))
    for sub in ("games", "chunks"):
        shutil.rmtree(d / "nogames" / sub)
    (d / "nogames" / "aggregates.npz").unlink()
    return d


BROKEN = """
import strategies


class Broken(strategies.Strategy, register=False):
    name = "broken"

    def __init__(self):
        raise RuntimeError("no model file")

    def choose(self, view, legal, rng):
        return legal[0]
"""

RAISER = """
import strategies


class Raiser(strategies.Strategy, register=False):
    name = "raiser"

    def choose(self, view, legal, rng):
        raise RuntimeError("always")
"""


class RaisingToy(ToyGame):
    """A game plug-in whose own ``play`` raises: a fault of the game's code, not of the input."""

    def play(self, *args, **kwargs):
        raise KeyError("score")


class NoRankToy(ToyGame):
    """A game plug-in whose declaration names no rank value: refused as ``--game`` is read."""

    rank_value = None


TOY = ["a", "b", "--players", "2", "--games", "4", "--jobs", "1"]

# code -> (words of the table's kind, the arguments that trigger it, words of the error line)
CASES: dict[int, list[tuple[str, list[str], str]]] = {
    0: [("done", ["rules"], "")],
    1: [
        ("a run with no games yet", ["report", "{d}/nogames"], "no games in {d}/nogames"),
        ("an unreadable part", ["report", "{d}/unreadable"],
         "{d}/unreadable/games/part-0.parquet is bad: not a Parquet part as a run writes them"),
        ("a corrupt manifest", ["report", "{d}/corrupt"], "corrupt manifest"),
        ("a corrupt manifest", ["tournament", "--out", "{d}/corrupt", "--resume"], "corrupt"),
        ("files that do not match the manifest", ["verify", "{d}/mismatch"], "1 bad file(s)"),
        ("with no valid game", ["compare", "{d}/forfeited", "{d}/run"],
         "no valid game in {d}/forfeited (A)"),
        ("with no valid game", ["report", "{d}/forfeited"], "no valid game in {d}/forfeited"),
        ("an output that cannot be written", ["report", "{d}/run", "--out", "{d}/afile/r"],
         "cannot write to {d}/afile/r"),
        ("any exception a game plug-in's `play` raises during a run", ["tournament", "--game",
         "tests.test_exit_codes:RaisingToy", *TOY, "--out", "{d}/pf"],
         "play() raised KeyError: 'score'"),
    ],
    2: [
        ("an unknown option", ["rules", "--bogus"], "unknown option '--bogus'"),
        ("a bad value", ["bench", "--games", "0"], "--games must be at least 1"),
        ("a strategy that cannot be built", ["tournament", "{d}/broken.py:Broken", "greedy",
         "low", "--players", "3", "--games", "6", "--out", "{d}/b"],
         "cannot build strategy broken ({d}/broken.py:Broken): RuntimeError: no model file"),
        ("a path that does not exist", ["report", "{d}/nothere"], "run directory not found"),
        ("is a file", ["report", "{d}/afile"], "not a run directory"),
        ("holds no run", ["report", "{d}/empty"], "holds neither games/ nor manifest.json"),
        ("holds no run", ["replay", "{d}/empty"], "not a tournament run"),
        ("holds no run", ["verify", "{d}/empty"], "holds no run"),
        ("holds no run", ["tournament", "--out", "{d}/empty", "--resume"], "holds no run"),
        ("two runs `leaves compare` cannot compare", ["compare", "{d}/run", "{d}/other"],
         "they share no strategy"),
        ("a game plug-in whose declaration is incomplete", ["tournament", "--game",
         "tests.test_exit_codes:NoRankToy", *TOY, "--out", "{d}/nr"], "rank_value is None"),
    ],
    130: [("interrupted", [], "interrupted")],  # a signal: test_ctrl_c_is_130_and_keeps_the_run
}  # fmt: skip


def test_every_code_and_kind_of_the_table_has_a_case_and_every_case_a_kind():
    table = documented()
    assert sorted(table) == sorted(CASES) == [0, 1, 2, 130]
    for code, kinds in table.items():
        for kind in kinds:
            assert any(words in kind for words, _, _ in CASES[code]), (code, kind)
        for words, _, _ in CASES[code]:
            assert any(words in kind for kind in kinds), (code, words)


def _run(capsys, args):
    return cli(capsys, *args)


@pytest.mark.parametrize(
    "code, args, words",
    [(code, args, words) for code, cases in CASES.items() for _, args, words in cases if args],
    ids=[" ".join(args) for cases in CASES.values() for _, args, _ in cases if args],
)
def test_each_kind_gives_its_documented_code(d, capsys, code, args, words):
    got, out, err = _run(capsys, [a.replace("{d}", str(d)) for a in args])
    assert got == code, err
    assert "Traceback" not in err
    if code == 0:
        assert err == "" and out
        return
    *said, line = err.splitlines()  # a run's fault may follow its announcement (design, seed)
    assert all(re.match(r"[\d,]+ games = |seed \d+; results in ", x) for x in said), err
    assert line.startswith("leaves: error: "), err
    assert words.replace("{d}", str(d)) in line, line


def _sigint_as_at_a_terminal() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.slow
def test_ctrl_c_is_130_and_keeps_the_run(tmp_path):
    """A tournament interrupted while it plays exits 130 with one line, and what it finished
    is a run that verifies (and --resume would continue)."""
    out = tmp_path / "big"
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    args = [sys.executable, "-m", "leaves_cli", "tournament", *THREE, "--players", "3",
            "--games", "3000000", "--seed", "1", "--jobs", "1", "--no-progress", "--out", str(out)]  # fmt: skip
    # Ctrl-C reaches the command as at a terminal, even where the suite itself was started in
    # the background of a script, whose children inherit SIGINT ignored (then Python installs
    # no KeyboardInterrupt handler, and the run would play on to its end)
    proc = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            cwd=tmp_path, env=env, preexec_fn=_sigint_as_at_a_terminal)  # fmt: skip
    try:
        while not any((out / "chunks").glob("chunk-*.npz")):  # playing: a chunk is finished
            assert proc.poll() is None, proc.stderr.read()
            time.sleep(0.05)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=120)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert lines[-1] == "leaves: error: interrupted", err
    assert re.search(rf"'leaves tournament --out {re.escape(str(out))} --resume' continues", err)
    check = subprocess.run([sys.executable, "-m", "leaves_cli", "verify", str(out)],
                           capture_output=True, text=True, cwd=tmp_path, env=env, timeout=120)  # fmt: skip
    assert check.returncode == 0 and "run unfinished" in check.stdout, check.stdout + check.stderr
    kept = int(re.match(r"ok: (\d+) of \d+ chunks verified", check.stdout).group(1))
    assert kept >= 1  # the chunk finished before the signal is kept
