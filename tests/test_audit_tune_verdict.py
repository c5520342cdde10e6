"""A tuning whose verification does not find the tuned parameters better than the start
recommends the start: ``best.txt``, ``tune.json``'s ``best_spec``/``best`` and the headline
hold the start and say why in words; the parameters the search found stay recorded apart, as
``tuned_spec``/``tuned`` (and in verification.csv's tuned arm). Where the verification finds
them better, they are the best, as before."""

from __future__ import annotations

import importlib
import json
import math
from pathlib import Path

import pandas as pd
import pytest

from strategies import spec_with
from tuning import tune
from tuning.tune import TuneResult
from tuning.verify import Arm, Verification

tune_module = importlib.import_module("tuning.tune")  # the package names its function tune
TOY = str(Path(__file__).with_name("toy_tunable.py")) + ":Toy"  # x = 5 plays greedy


def _tuned_to(monkeypatch, tmp_path: Path, x: float) -> TuneResult:
    """A small tuning of the toy whose selection is made to keep ``x`` (9.5 plays random,
    worse than the start's greedy; 3.0 plays low, better)."""
    monkeypatch.setattr(tune_module, "_select", lambda *args: {"x": x})
    return tune(TOY, ["random"], players=4, budget=1200, seed=2, n_jobs=1, out=tmp_path / "t",
                popsize=2, candidate_games=100, verify_games=400, sigma=0.2)  # fmt: skip


def test_a_worse_tuning_recommends_the_start_and_keeps_the_tuned_apart(monkeypatch, tmp_path):
    result = _tuned_to(monkeypatch, tmp_path, 9.5)
    tuned = spec_with(TOY, {"x": 9.5})
    assert result.verification.verdict == "worse"
    assert (result.best_spec, result.best) == (TOY, {"x": 5.0})
    assert (result.tuned_spec, result.tuned) == (tuned, {"x": 9.5})
    out = result.out
    assert (out / "best.txt").read_text() == TOY + "\n"  # never the worse parameters
    doc = json.loads((out / "tune.json").read_text())
    assert (doc["best_spec"], doc["best"], doc["recommended"]) == (TOY, {"x": 5.0}, "start")
    assert (doc["tuned_spec"], doc["tuned"]) == (tuned, {"x": 9.5})
    head = doc["headline"]
    assert head == result.headline() and not head.startswith("best:")
    assert head.startswith(f"keep the start: the tuned parameters ({tuned}) did worse than ")
    assert f"best.txt holds the start ({TOY})" in head and "tuned_spec in tune.json" in head
    arms = pd.read_csv(out / "verification.csv").set_index("arm")["spec"]
    assert (arms["tuned"], arms["start"]) == (tuned, TOY)  # the tuned arm is what was played


def test_a_better_tuning_is_still_the_best(monkeypatch, tmp_path):
    result = _tuned_to(monkeypatch, tmp_path, 3.0)
    assert result.verification.verdict == "improved"
    assert result.best_spec == result.tuned_spec == spec_with(TOY, {"x": 3.0})
    assert (result.out / "best.txt").read_text() == result.best_spec + "\n"
    doc = json.loads((result.out / "tune.json").read_text())
    assert doc["recommended"] == "tuned" and doc["headline"] == f"best: {result.best_spec}"


def _result(diff: float, low: float, high: float, p: float, differing: int = 9) -> TuneResult:
    tuned = Arm("taker:x=2", "taker:x=2", 400, 130, 0.325, 0.28, 0.37)
    start = Arm("taker", "taker", 400, 128, 0.32, 0.275, 0.365)
    v = Verification(seed=1, tuned=tuned, start=start, diff=diff, diff_low=low,
                     diff_high=high, p_value=p, units=100, games_differing=differing)  # fmt: skip
    settings = {"no_effect": False, "finalists": 5}
    return TuneResult(Path("t"), "taker", "taker", {"x": 1}, {"x": 1}, pd.DataFrame(),
                      pd.DataFrame(), v, settings, tuned_spec="taker:x=2",
                      tuned={"x": 2})  # fmt: skip


@pytest.mark.parametrize(
    ("args", "why"),
    [
        ((0.005, -0.01, 0.02, 0.4), "were not shown better than the start on 100 fresh deals "
                                    "(+0.5 percentage points [-1.0, +2.0], p = 0.40)"),
        ((-0.03, -0.05, -0.01, 0.003), "did worse than the start on 100 fresh deals (-3.0 "
                                       "percentage points [-5.0, -1.0], p = 0.003)"),
        ((0.01, math.nan, math.nan, math.nan), "were not shown better: 100 fresh deals are too "
                                               "few to tell"),
    ],
)  # fmt: skip
def test_the_headline_says_why_the_start_is_kept(args, why):
    head = _result(*args).headline()
    kept = "so best.txt holds the start (taker); the tuned ones are tuned_spec in tune.json"
    assert head == f"keep the start: the tuned parameters (taker:x=2) {why}, {kept}"


def test_no_game_differing_keeps_the_start_in_words():
    head = _result(0.0, 0.0, 0.0, 1.0, differing=0).headline()
    assert head.startswith("no better parameters found: taker:x=2 won exactly the games")
    assert head.endswith("so best.txt holds the start (taker); the tuned ones are tuned_spec in "
                         "tune.json")  # fmt: skip


def test_a_result_built_without_the_tuned_spec_takes_the_best():
    r = TuneResult(Path("t"), "taker", "taker:x=2", {"x": 2}, {"x": 1}, pd.DataFrame(),
                   pd.DataFrame(), _result(0.02, 0.01, 0.03, 0.01).verification,
                   {"no_effect": False})  # fmt: skip
    assert (r.tuned_spec, r.tuned) == ("taker:x=2", {"x": 2})
    assert r.headline() == "best: taker:x=2"
