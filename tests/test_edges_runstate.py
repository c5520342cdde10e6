"""Edges of a run's state, each said truly and in one line: a run too big to hold refused before
anything of it is built; ``leaves compare`` saying first where each run stands; a run whose
every game was forfeited told no false remedy; the time a session adds counted whole; a damaged
manifest named alike by verify, report, compare and resume; a game a file names that is not
installed blamed on the file, not on a flag.

``Raiser`` (below) raises at every decision: every game of a run it sits in is forfeited.
"""

from __future__ import annotations

import json
import re
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from strategies import Strategy
from tests.helpers import cli, one_error_line
from tournaments.manifest_fields import check_manifest

RAISER = f"{Path(__file__)}:Raiser"
FOUR = ["greedy", "random", "low", "high"]
TOO_MANY = "at most 2**32 - 1 games per tournament"
"""A run grown by stages past the most games a run holds; one asked for at once names its
--games (``ASKED_TOO_MANY``)."""
ASKED_TOO_MANY = (r"--games asks for [\d,]+ games (a side, [\d,]+ in all with the baseline's|in all"
                  r"( \(rounded up to whole duplicate sets\))?), past 2\*\*32 - 1 \(a run's most games\)")  # fmt: skip


class Raiser(Strategy, register=False):
    """A strategy whose every decision raises: every game it plays ends by its forfeit."""

    classifier = {"stochastic": False}

    def choose(self, view, legal, rng):
        raise RuntimeError("raiser always raises")


def _leaves(capsys, *args) -> tuple[int, str, str]:
    return cli(capsys, *(str(a) for a in args))


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Path:
    """A good run (``good``), one whose every game was forfeited (``raiser``) and one stopped
    after two of its four chunks (``stopped``)."""
    from tests.helpers import cli_output, stopped

    d = tmp_path_factory.mktemp("edges")
    base = ["--seed", "2", "--jobs", "1"]
    code, _, err = cli_output("tournament", *FOUR, "--games", "96", *base, "--out", str(d / "good"))
    assert code == 0, err
    code, _, err = cli_output("tournament", RAISER, "greedy", "low", "high", "--games", "48",
                              *base, "--out", str(d / "raiser"))  # fmt: skip
    assert code == 1 and "no valid game" in err
    code, _, _ = stopped("tournament", *FOUR, "--games", "96", "--chunk-size", "24", *base,
                         "--out", str(d / "stopped"))  # fmt: skip
    assert code == 130
    return d


def _copy(runs: Path, tmp_path: Path, edit) -> Path:
    """A copy of the good run, its manifest changed by ``edit``."""
    copy = tmp_path / "copy"
    shutil.copytree(runs / "good", copy)
    manifest = json.loads((copy / "manifest.json").read_text())
    edit(manifest)
    (copy / "manifest.json").write_text(json.dumps(manifest))
    return copy


# ------------------------------------------------------------------ 1: too many games
def _limited(*args: str) -> subprocess.CompletedProcess:
    """``leaves ARGS`` in a child process allowed 1.5 GB of memory: a run that lays out its
    chunks before checking its size runs out of it (or past the timeout)."""

    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))

    return subprocess.run([sys.executable, "-m", "leaves_cli", *args], capture_output=True,
                          text=True, timeout=120, preexec_fn=limit)  # fmt: skip


@pytest.mark.parametrize("command", [
    ["tournament", "greedy", "random"],
    ["gauntlet", "greedy", "--against", "random"],
    ["run"],
], ids=["tournament", "gauntlet", "run"])  # fmt: skip
def test_a_huge_games_is_refused_at_once_in_one_line(tmp_path, command):
    out = tmp_path / "r"
    done = _limited(*command, "--games", "10000000000000", "--jobs", "1", "--out", str(out))
    assert done.returncode == 2, done.stderr[-500:]
    assert re.fullmatch(f"leaves: error: {ASKED_TOO_MANY}\n", done.stderr), done.stderr
    assert not out.exists()


def test_every_schedule_checks_its_size_a_grown_one_too():
    from tournaments.schedule import Schedule

    with pytest.raises(ValueError, match="^games asks for 4,294,967,296 games in all, past"):
        Schedule([(0, 1)], 2**32)
    with pytest.raises(ValueError, match=re.escape(TOO_MANY)):  # grown by stages past it
        Schedule([(0, 1)], 2, 50_000, stages=[1, 2**31])
    assert Schedule([(0, 1)], 2, 50_000, stages=[1, 2**31 - 1]).n_games == 2**32 - 2


def test_a_max_games_past_the_limit_is_refused_before_playing(tmp_path, capsys):
    out = tmp_path / "p"
    code, _, err = _leaves(capsys, "tournament", "greedy", "random", "--precision", "1",
                           "--max-games", 10**13, "--games", 10, "--jobs", 1, "--out", out)  # fmt: skip
    assert code == 2
    assert one_error_line(err) == ("leaves: error: --max-games must be at most 2**32 - 1 "
                                   "(a run's most games), got 10,000,000,000,000")  # fmt: skip
    assert not out.exists()


# ------------------------------------------------------------------ 2, 3: compare, forfeits
def _nothing_valid(run: Path) -> str:
    return (f"Nothing valid: all 48 games ended by a forfeit (the first, game 0: seat 0 "
            f"(Raiser): RuntimeError: raiser always raises), so no result says anything about "
            f"the strategies; replay it with 'leaves replay {run} --game 0', fix the strategy "
            "and play the run again.")  # fmt: skip


def test_compare_refuses_a_run_with_no_valid_game_saying_so_first(runs, capsys):
    raiser, good = runs / "raiser", runs / "good"
    for a, b, name in ((raiser, raiser, "A"), (raiser, good, "A"), (good, raiser, "B")):
        code, out, err = _leaves(capsys, "compare", a, b)
        assert code == 1
        lines = out.splitlines()
        assert lines[:2] == [f"A: {a}", f"B: {b}"]
        assert f"{name} ({raiser}): {_nothing_valid(raiser)}" in lines
        assert "too few deals" not in out and "B - A" not in out  # no comparison, no number
        assert one_error_line(err) == (f"leaves: error: no valid game in {raiser} ({name}): "
                                       "every one ended by a forfeit, so there is nothing to "
                                       "compare")  # fmt: skip


def test_compare_says_first_that_a_run_is_unfinished(runs, capsys):
    stopped = runs / "stopped"
    code, out, err = _leaves(capsys, "compare", stopped, runs / "good")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[2] == (f"A ({stopped}): Unfinished run: 48 of 96 games played (50.0%), and "
                        "every result covers those only; continue it with 'leaves tournament "
                        f"--resume --out {stopped}'.")  # fmt: skip
    assert "Win rates" in lines[-1] or any("Win rates" in x for x in lines[3:])


def test_an_all_forfeited_run_is_not_told_to_play_more(runs, capsys, tmp_path):
    shutil.copytree(runs / "raiser", tmp_path / "again")
    code, out, err = _leaves(capsys, "tournament", "--out", tmp_path / "again", "--resume",
                             "--jobs", 1)  # fmt: skip
    assert code == 1
    assert "play more" not in out and "--add" not in out.replace("--add GAMES or", "")
    assert (
        "no intervals: every game ended by a forfeit, so none counts toward one (fix the "
        "strategy and play the run again)"
    ) in out.splitlines()


# ------------------------------------------------------------------ 4: the time in all
SESSION = re.compile(r"in (\d+\.\d) s this session \((\d+\.\d) s in all\)")
PAUSE = 0.3


def _slow_widths(monkeypatch) -> None:
    """Each look at the widths between stages takes ``PAUSE`` seconds more."""
    from leaves_cli import sequential

    real = sequential.widest_half_width

    def slow(result):
        time.sleep(PAUSE)
        return real(result)

    monkeypatch.setattr(sequential, "widest_half_width", slow)


def _times(out: str) -> tuple[float, float]:
    (match,) = SESSION.findall(out)
    return float(match[0]), float(match[1])


def test_a_precision_run_counts_every_stage_in_its_wall_time(tmp_path, capsys, monkeypatch):
    _slow_widths(monkeypatch)
    out = tmp_path / "p"
    code, stdout, err = _leaves(capsys, "tournament", "greedy", "random", "low", "--precision",
                                0.01, "--max-games", 3000, "--games", 100, "--seed", 1,
                                "--jobs", 1, "--out", out)  # fmt: skip
    assert code == 0, err
    stages = err.count("widest half-width")
    assert stages >= 2
    this, in_all = _times(stdout)
    assert this <= in_all
    manifest = json.loads((out / "manifest.json").read_text())
    assert len(manifest["sessions"]) == stages
    assert manifest["wall_time_s"] >= PAUSE * (stages - 1)  # the looks between stages too
    assert in_all == pytest.approx(manifest["wall_time_s"], abs=0.051)


def test_a_resumed_precision_run_says_no_more_this_session_than_in_all(runs, tmp_path, capsys,
                                                                       monkeypatch):  # fmt: skip
    _slow_widths(monkeypatch)
    copy = tmp_path / "copy"
    shutil.copytree(runs / "good", copy)
    before = json.loads((copy / "manifest.json").read_text())["wall_time_s"]
    code, stdout, err = _leaves(capsys, "tournament", "--out", copy, "--resume", "--precision",
                                3, "--jobs", 1)  # fmt: skip
    assert code == 0, err
    this, in_all = _times(stdout)
    after = json.loads((copy / "manifest.json").read_text())["wall_time_s"]
    assert this <= in_all and after - before >= PAUSE * (err.count("widest half-width") - 1)
    assert this == pytest.approx(after - before, abs=0.051)


# ------------------------------------------------------------------ 5: damaged manifests
def _refusals(capsys, run: Path) -> dict[str, tuple[int, str]]:
    """(exit code, error line) of every command that reads the run."""
    commands = {
        "verify": ["verify", run],
        "report": ["report", run],
        "compare": ["compare", run, run],
        "resume": ["tournament", "--out", run, "--resume", "--jobs", 1],
    }
    found = {}
    for name, args in commands.items():
        code, _, err = _leaves(capsys, *args)
        found[name] = (code, one_error_line(err))
    return found


@pytest.mark.parametrize("edit, reason", [
    (lambda m: m.pop("spec"), "spec is missing, expected a table of the run's settings"),
    (lambda m: m.__setitem__("labels", []),
     "labels is [], expected the spec's strategies ['greedy', 'high', 'low', 'random']"),
    (lambda m: m.__setitem__("tables", [[0, 1, 2, 7]]),
     "tables holds [0, 1, 2, 7], expected entrant numbers below 4 (the run's strategies)"),
    (lambda m: m["spec"]["entrants"].pop(),
     "spec.entrants describes 3 strategies, expected 4 (one per strategy)"),
], ids=["no-spec", "no-labels", "bad-table", "entrants"])  # fmt: skip
def test_a_damaged_manifest_gets_the_same_reason_from_every_command(runs, tmp_path, capsys,
                                                                     edit, reason):  # fmt: skip
    run = _copy(runs, tmp_path, edit)
    found = _refusals(capsys, run)
    assert {name: code for name, (code, _) in found.items()} == dict.fromkeys(found, 1)
    for name, (_, line) in found.items():
        assert line.endswith(reason) or f": {reason};" in line, (name, line)
    assert not (run / "report").exists()


def test_check_manifest_lets_another_tools_manifest_have_no_spec_but_not_the_runners():
    check_manifest({"strategies": ["a"], "games": 3}, spec=False)  # e.g. reports.synthetic
    with pytest.raises(ValueError, match="spec is missing"):
        check_manifest({"format": "leaves-tournament/1", "labels": ["a"]}, spec=False)


def test_a_manifest_naming_an_unknown_game_is_the_files_fault(runs, tmp_path, capsys):
    run = _copy(runs, tmp_path, lambda m: m["spec"].__setitem__("game", "nosuch"))
    where = run / "manifest.json"
    known = "unknown game 'nosuch' (installed: leaves, ligretto)"
    code, _, err = _leaves(capsys, "tournament", "--out", run, "--resume", "--jobs", 1)
    assert code == 1
    assert one_error_line(err) == (f"leaves: error: cannot resume {run}: its manifest {where} "
                                   f"names a game this installation cannot load: {known}")  # fmt: skip
    code, _, err = _leaves(capsys, "replay", run, "--all")
    assert code == 1
    assert one_error_line(err) == (f"leaves: error: the manifest {where} names a game this "
                                   f"installation cannot load: {known}")  # fmt: skip
    code, _, err = _leaves(capsys, "tournament", "--out", run, "--resume", "--game", "ligretto")
    assert (
        code == 2 and "--game ligretto differs from this run's game nosuch" in err
    )  # a flag's fault


# ------------------------------------------------------------------ 6: a record's game
def test_a_record_naming_an_unknown_game_names_the_file_and_line(tmp_path, capsys):
    from strategies import play_game

    record = play_game(["greedy", "random", "low", "high"], seed=1).record.to_dict()
    bad = {**record, "game": "nosuch"}
    path = tmp_path / "rec.jsonl"
    path.write_text(f"{json.dumps(record)}\n\n{json.dumps(bad)}\n")
    code, _, err = _leaves(capsys, "replay", path, "--game", 2, "--all")
    assert code == 1
    assert one_error_line(err) == (f"leaves: error: the record at {path}, line 3 names a game "
                                   "this installation cannot load: unknown game 'nosuch' "
                                   "(installed: leaves, ligretto)")  # fmt: skip


def test_a_record_naming_a_callable_that_is_no_game_never_calls_it(tmp_path, capsys):
    from strategies import play_game

    record = play_game(["greedy", "random", "low", "high"], seed=1).record.to_dict()
    path = tmp_path / "rec.jsonl"
    path.write_text(json.dumps({**record, "game": "builtins:print"}) + "\n")
    code, out, err = _leaves(capsys, "replay", path, "--all")
    assert code == 1 and "builtins" not in out
    assert one_error_line(err).endswith(
        "cannot load 'builtins:print': not a game plug-in class (a GamePlugin with a name and "
        "config, versions, resolve, play, play_matches)"
    )


# ------------------------------------------------------------------ a 13 Leaves record's actions
def _record_line(edit) -> str:
    from strategies import play_game

    record = play_game(["greedy", "random", "low", "high"], seed=1).record.to_dict()
    edit(record)
    return json.dumps(record)


def test_a_fractional_action_id_is_refused_not_rounded(tmp_path, capsys):
    path = tmp_path / "frac.jsonl"
    path.write_text(_record_line(lambda r: r["actions"].__setitem__(0, r["actions"][0] + 0.5)))
    code, _, err = _leaves(capsys, "replay", path, "--all")
    assert code == 1
    assert re.fullmatch(
        rf"leaves: error: {re.escape(str(path))}, game 1: record action 0 is \d+\.5, not an "
        r"action id \(a whole number\)",
        one_error_line(err),
    )


def test_a_record_cut_short_says_so_not_its_winner_none(tmp_path, capsys):
    path = tmp_path / "short.jsonl"
    path.write_text(_record_line(lambda r: r.__setitem__("actions", r["actions"][:5])))
    code, _, err = _leaves(capsys, "replay", path, "--all")
    assert code == 1
    assert one_error_line(err) == (
        f"leaves: error: {path}, game 1: record ends before the game is over"
    )
