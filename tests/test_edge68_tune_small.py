"""``leaves tune`` where its numbers are too small to say what they seem to: candidates scored
on too few games to be ranked, steps finer than the rounding, and a tunable range written as a
string."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from strategies import Strategy, Tunable, tunables
from tests.helpers import cli
from tuning import effect
from tuning.cautions import PAIRED_SHARE, WIDE_VERIFY, coarse_search

TOY = str(Path(__file__).with_name("toy_tunable.py")) + ":Toy"
INERT = str(Path(__file__).with_name("toy_tunable.py")) + ":Inert"


def _rows(wins: int, games: int) -> list[dict]:
    """A search of one generation: the start and one candidate, each ``wins`` of ``games``."""
    return [{"kind": kind, "generation": 0, "wins": wins, "games": games, "x": 5.0}
            for kind in ("start", "candidate")]  # fmt: skip


def test_a_candidate_on_24_games_cannot_be_ranked_and_the_line_says_why():
    """24 games at a third won: a rate +/-19 points, a difference between two candidates
    +/-13.3 even with a quarter of its variance left, wider than the 5 points looked for."""
    (line,) = coarse_search(_rows(8, 24), 24, True)
    assert line == (
        "each candidate's win rate rests on 24 games (+/-19 percentage points): two candidates "
        "5 percentage points apart cannot be told apart (their difference's 95% interval is "
        "+/-13.3 even if common deals leave 0.25 of its variance), so the search could not "
        "rank its candidates by differences that size; raise --budget"
    )
    assert coarse_search(_rows(8, 24), 24, False)[0].endswith("raise --candidate-games")


def test_the_line_keeps_to_its_side_of_the_threshold():
    """The threshold is where two candidates' difference's half-width reaches WIDE_VERIFY:
    at p = 1/2, n = 1.96^2 p (1 - p) 2 PAIRED_SHARE / WIDE_VERIFY^2 games."""
    n = 1.96**2 * 0.25 * 2 * PAIRED_SHARE / WIDE_VERIFY**2
    assert coarse_search(_rows(1000, 2000), math.floor(n), True)
    assert not coarse_search(_rows(1000, 2000), math.ceil(n), True)
    assert not coarse_search(_rows(0, 24), 24, True)  # no win: said by its own line


@pytest.mark.slow
def test_a_small_budget_says_its_candidates_could_not_be_ranked(capsys, monkeypatch,
                                                                     tmp_path):  # fmt: skip
    """The budget split into a few games a candidate: the warning follows the result."""
    monkeypatch.setenv("COLUMNS", "300")
    out = tmp_path / "t"
    code, stdout, err = cli(capsys, "tune", TOY, "--against", "random", "--players", "3",
                            "--budget", "300", "--seed", "3", "--popsize", "2", "--sigma",
                            "0.2", "--jobs", "1", "--verify-games", "24", "--out",
                            str(out))  # fmt: skip
    assert code == 0, err
    doc = json.loads((out / "tune.json").read_text())
    games = doc["settings"]["candidate_games"]
    said = [ln for ln in stdout.splitlines() if ln.startswith("warning: each candidate's")]
    assert said and said[0].startswith(
        f"warning: each candidate's win rate rests on {games} games (+/-"
    ), stdout
    assert said[0].endswith("raise --budget")
    assert any(w.startswith("each candidate's win rate rests on") for w in doc["warnings"])


def test_steps_finer_than_the_rounding_are_said_too_small_not_inert(capsys, monkeypatch,
                                                                    tmp_path):  # fmt: skip
    """--sigma 0.001 of knob's range (0, 1) moves each candidate a rounding unit (0.001) or
    two: the headline says the step was too small, never that the parameter changes no
    decision (at --sigma 0.2 knob is inert indeed, and said so)."""
    monkeypatch.setenv("COLUMNS", "300")
    out = tmp_path / "t"
    code, stdout, err = cli(capsys, "tune", INERT, "--against", "random", "--budget", "500",
                            "--seed", "4", "--popsize", "2", "--candidate-games", "24",
                            "--verify-games", "24", "--sigma", "0.001", "--jobs", "1",
                            "--out", str(out))  # fmt: skip
    assert code == 0, err
    head = stdout.splitlines()[0]
    assert "within 2 rounding steps of the start" in head, head
    assert head.endswith("too small a step to change a decision, so nothing is known of what "
                         "the parameter(s) knob change; raise --sigma")  # fmt: skip
    assert "seem to change no decision" not in stdout
    assert "changed no decision" not in stdout
    doc = json.loads((out / "tune.json").read_text())
    assert doc["settings"]["tiny_steps"] is True and doc["settings"]["untried"] is False


def test_tiny_steps_counts_rounding_units_of_each_parameter():
    """Within two units in every parameter: tiny; three in one of them: not."""
    units = {"a": 0.01, "n": 1.0}
    start = {"a": 0.5, "n": 4}

    def rows(*cands):
        return [{"kind": "candidate", "a": a, "n": n} for a, n in cands]

    assert effect.tiny_steps(rows((0.51, 4), (0.48, 6)), start, units)
    assert not effect.tiny_steps(rows((0.51, 4), (0.47, 4)), start, units)
    assert not effect.tiny_steps(rows((0.5, 7)), start, units)


def _declaring(tunable):
    ns: dict = {"Strategy": Strategy}
    exec("class X(Strategy, register=False):\n    def __init__(self, a=1.5): pass\n", ns)
    ns["X"].tunable = tunable
    return ns["X"]


@pytest.mark.parametrize("bounds", ["12", b"12", {0: 0, 1: 2}, "0,5"])
def test_a_range_that_only_iterates_to_two_numbers_is_refused(bounds):
    """'12' iterated to 1 and 2 and was read as the range (1.0, 2.0); a mapping to its keys."""
    with pytest.raises(ValueError, match=r"must be a \(low, high\) pair, got "):
        tunables(_declaring({"a": bounds}))


def test_a_tuple_or_list_range_is_read():
    assert tunables(_declaring({"a": [1, 2]})) == (Tunable("a", 1.0, 2.0, 1.5, False),)


def _tune(tmp_path: Path, name: str, *args: str) -> str:
    """``leaves tune weighted --against taker,low,high --budget 700 --seed 1 ARGS`` in a child
    process with numba's JIT (the quick suite's setting popped: weighted plays compiled)."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "COLUMNS": "300"}
    env.pop("NUMBA_DISABLE_JIT", None)
    command = [sys.executable, "-m", "leaves_cli", "tune", "weighted", "--against",
               "taker,low,high", "--budget", "700", "--seed", "1", "--jobs", "1", *args,
               "--out", str(tmp_path / name)]  # fmt: skip
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


@pytest.mark.slow  # two tunings in a child process that compiles weighted's numba code
def test_the_page_s_smallest_budget_and_finest_step_say_what_it_quotes(tmp_path):
    """docs/tuning.md quotes the warning of the 700-game budget (24 games a candidate, +/-19
    points) and says --sigma 0.0001 is called too small a step: the commands say so."""
    page = (Path(__file__).parents[1] / "docs" / "tuning.md").read_text(encoding="utf-8")
    page = " ".join(page.split())
    quoted = ("each candidate's win rate rests on 24 games (+/-19 percentage points): two "
              "candidates 5 percentage points apart cannot be told apart")  # fmt: skip
    assert quoted in page
    assert "`leaves tune weighted --against taker,low,high --budget 700 --seed 1`" in page
    assert f"warning: {quoted} (" in _tune(tmp_path, "b")
    head = _tune(tmp_path, "s", "--sigma", "0.0001").splitlines()[0]
    assert "within 2 rounding steps of the start" in head and "raise --sigma" in head, head
    assert "(`--sigma 0.0001`)" in page and "`settings.tiny_steps`" in page
