"""The sequential gauntlet: the GSPRT arithmetic, growing a run by stages, the command."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

from tests.helpers import cli
from tournaments import Tournament
from tournaments.gauntlet import Gauntlet
from tournaments.sequential import (
    BETTER,
    NOT_BETTER,
    UNDECIDED,
    Sequential,
    bounds,
    decide,
    llr,
    next_precision_stage,
    next_stage,
)
from tournaments.stages import grows


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    return cli(capsys, *args)


# ------------------------------------------------------------------ the arithmetic


def test_llr_is_the_normal_log_likelihood_ratio():
    dbar, v, mu0, mu1 = 0.004, 2.5e-6, 0.0, 0.01
    direct = (-((dbar - mu1) ** 2) + (dbar - mu0) ** 2) / (2 * v)
    assert llr(dbar, v, mu0, mu1) == pytest.approx(direct)
    assert llr(dbar, v, mu0, mu1) == pytest.approx(0.01 * (0.008 - 0.01) / (2 * v))
    assert llr(0.005, v, 0.0, 0.01) == 0.0  # the midpoint favours neither
    assert llr(0.0, 0.0, 0.0, 0.01) == -math.inf and llr(0.02, 0.0, 0.0, 0.01) == math.inf
    assert math.isnan(llr(math.nan, v, 0.0, 0.01)) and math.isnan(llr(0.0, math.nan, 0, 0.01))


def test_bounds_and_decisions():
    lo, hi = bounds(0.05, 0.05)
    assert lo == pytest.approx(math.log(0.05 / 0.95)) and hi == pytest.approx(math.log(19))
    lo2, hi2 = bounds(0.01, 0.2)
    assert lo2 == pytest.approx(math.log(0.2 / 0.99)) and hi2 == pytest.approx(math.log(80))
    assert decide(hi, lo, hi) == BETTER and decide(lo, lo, hi) == NOT_BETTER
    assert decide(0.0, lo, hi) is None and decide(math.nan, lo, hi) is None
    for a, b in ((0.0, 0.05), (0.05, 1.0), (0.6, 0.5)):
        with pytest.raises(ValueError):
            bounds(a, b)


def test_the_test_decides_from_the_paired_estimate():
    t = Sequential(0.01)
    assert t.update(0.02, 0.002) == BETTER and t.batches == 1  # far above the margin
    t = Sequential(0.01)
    assert t.update(-0.01, 0.002) == NOT_BETTER
    t = Sequential(0.01)
    assert t.update(0.005, 0.001) is None  # at the midpoint: go on
    rec = t.record(1234)
    assert rec["decision"] == UNDECIDED and rec["games_per_side"] == 1234
    assert set(rec) == {"decision", "games_per_side", "llr", "lower", "upper", "margin",
                        "alpha", "beta", "batches"}  # fmt: skip
    assert rec["margin"] == 1.0 and json.dumps(rec)
    with pytest.raises(ValueError):
        Sequential(0.0)


def test_stages_grow_geometrically_up_to_the_cap():
    assert next_stage(100, 1000) == 125 and next_stage(1, 1000) == 2
    assert next_stage(900, 1000) == 1000 and next_stage(1000, 1000) is None
    assert next_precision_stage(100, 2.0, 1.0, 10**6) == math.ceil(100 * 1.1 * 4)
    assert next_precision_stage(100, 1.01, 1.0, 10**6) == 125  # at least x1.25
    assert next_precision_stage(100, math.nan, 1.0, 10**6) == 200
    assert next_precision_stage(100, 9.0, 1.0, 300) == 300
    assert next_precision_stage(300, 9.0, 1.0, 300) is None


# ------------------------------------------------------------------ growing by stages


def _sorted_games(res) -> pd.DataFrame:
    return res.games().sort_values("game").reset_index(drop=True)


def _aggregates(res) -> dict[str, np.ndarray]:
    with np.load(res.out / "aggregates.npz") as z:
        return {k: z[k] for k in z.files}


@pytest.mark.parametrize("kind", ["tournament", "gauntlet"])
def test_a_run_grown_by_stages_equals_one_run_at_once(tmp_path, kind):
    def make(games):
        if kind == "tournament":
            return Tournament(["greedy", "low", "taker"], players=3, games=games, seed=3)
        return Gauntlet("counter", ["taker"], "greedy", players=4, games=games, seed=3)

    first = make(60)
    d1 = first.schedule.stages[0]
    stages = [d1, d1 + 7, 2 * d1 + 11]
    grown = None
    for s in range(1, len(stages) + 1):
        grown = first.with_stages(stages[:s]).run(n_jobs=1 + s % 2, out=tmp_path / "g",
                                                  resume=s > 1)  # fmt: skip
    once = make(stages[-1] * first.schedule.seats_per_set // (2 if kind == "gauntlet" else 1))
    assert once.schedule.deals == stages[-1]
    at_once = once.run(n_jobs=2, out=tmp_path / "once")
    pd.testing.assert_frame_equal(_sorted_games(grown), _sorted_games(at_once))
    a, b = _aggregates(grown), _aggregates(at_once)
    assert a.keys() == b.keys()
    for key in a:
        np.testing.assert_array_equal(a[key], b[key], err_msg=key)
    assert grown.manifest["spec"]["deal_stages"] == stages
    assert grown.manifest["status"] == "complete"


def test_resume_accepts_only_a_grown_run(tmp_path):
    t = Tournament(["greedy", "low", "high"], players=3, games=40, seed=1)
    t.run(out=tmp_path / "a")
    d1 = t.schedule.stages[0]
    spec = t.spec()
    assert grows(spec, t.with_stages([d1, d1 + 5]).spec()) and grows(spec, spec)
    assert not grows(t.with_stages([d1, d1 + 5]).spec(), spec)  # shrinking is not growing
    other = Tournament(["greedy", "low", "high"], players=3, games=40, seed=2)
    other = other.with_stages([d1, d1 + 5])
    with pytest.raises(ValueError, match="differs in seed"):
        other.check_out(tmp_path / "a", resume=True)
    with pytest.raises(ValueError, match="first stage"):
        t.with_stages([d1 + 1])


# ------------------------------------------------------------------ the gauntlet


def test_a_strategy_against_itself_is_not_declared_better(tmp_path):
    with pytest.raises(ValueError, match="are the same"):
        Gauntlet("random", ["taker"], "random", games=40, seed=0)
    g = Gauntlet("random", ["taker"], "random", games=400, seed=0, allow_same=True)
    assert g.gauntlet["baseline"] == "random (baseline)"
    from leaves_cli.sequential import run_sequential

    def play(t, out, grow):
        return t.run(n_jobs=1, out=out, resume=grow)

    logged: list[str] = []
    test = Sequential(0.20, 0.05, 0.05)  # a 20-point margin
    _, rec, r = run_sequential(g, tmp_path / "s", play, test, 4000, logged.append)
    assert rec["decision"] == NOT_BETTER and abs(r["diff"]) < 0.2
    assert len(logged) == rec["batches"]


def test_cli_sequential_prints_a_decision_and_writes_it(tmp_path, capsys):
    out = tmp_path / "g"
    code, stdout, stderr = run_cli(
        capsys, "gauntlet", "counter", "--against", "taker", "--baseline", "greedy",
        "--sequential", "--games", "400", "--jobs", "1", "--no-progress", "--out", str(out),
    )  # fmt: skip
    assert code == 0, stderr
    line = next(x for x in stdout.splitlines() if x.startswith("Sequential test: "))
    assert "counter is better than greedy by at least 1 point" in line
    assert "LLR" in line and "games per side" in line
    rec = json.loads((out / "manifest.json").read_text())["sequential"]
    assert rec["decision"] == BETTER and rec["margin"] == 1.0 and rec["batches"] >= 1
    assert f"{rec['games_per_side']:,} games per side" in line


@pytest.mark.parametrize(
    "args, message",
    [
        (["--sequential", "--margin", "0"], "--margin must be a positive"),
        (["--sequential", "--alpha", "0.7"], "--alpha must be between"),
        (["--sequential", "--resume"], "--resume is not available with --sequential"),
        (["--max-games", "1000"], "--max-games needs --sequential"),
        (["--sequential", "--max-games", "10"], "--max-games (10) must be at least --games"),
    ],
)
def test_bad_sequential_input_is_one_line(capsys, tmp_path, args, message):
    code, _, err = run_cli(capsys, "gauntlet", "counter", "--against", "taker",
                           "--out", str(tmp_path / "x"), *args)  # fmt: skip
    assert code == 2, err
    assert err.startswith("leaves: error: ") and message in err
    assert len(err.strip().splitlines()) == 1
