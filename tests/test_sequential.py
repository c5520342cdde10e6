"""The sequential gauntlet: the GSPRT arithmetic, growing a run by stages, the command."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest

import reports
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
    assert math.isnan(llr(0.0, 0.0, 0.0, 0.01)) and llr(0.02, 0.0, 0.0, 0.01) == math.inf
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


@pytest.mark.slow
def test_cli_sequential_prints_a_decision_and_writes_it(tmp_path, capsys):
    out = tmp_path / "g"
    code, stdout, stderr = run_cli(
        capsys, "gauntlet", "counter", "--against", "taker", "--baseline", "greedy",
        "--sequential", "--games", "400", "--jobs", "1", "--no-progress", "--out", str(out),
    )  # fmt: skip
    assert code == 0, stderr
    rec = json.loads((out / "manifest.json").read_text())["sequential"]
    assert rec["decision"] == BETTER and rec["margin"] == 1.0 and rec["finished"]
    assert rec["llr"] >= rec["upper"] == pytest.approx(math.log(19))  # H1's bound reached
    lines = stdout.splitlines()
    assert len(lines) == 3 and lines[1] == rec["sentence"]  # the rates, the decision, the folder
    row = reports.gauntlet(out).iloc[0]
    assert rec["difference"] == pytest.approx(100 * row["diff"])
    assert lines[1] == (
        f"counter is better than greedy: {100 * row['diff']:+.1f} percentage points "
        f"[{100 * row['diff_ci_low']:+.1f}, {100 * row['diff_ci_high']:+.1f}] over "
        f"{rec['games_per_side']:,} games per side; the sequential test (0 against +1 percentage "
        f"point, {rec['batches']} batch{'es' if rec['batches'] > 1 else ''}, LLR {rec['llr']:.2f}, "
        "bounds -2.94 and 2.94) favoured +1 over 0, which it does for two equally strong "
        "strategies at most 5% of the time (alpha)."
    )
    assert "beats" not in stdout and "by at least" not in stdout  # one verdict, the test's
    assert row["games"] == rec["games_per_side"] and rec["batches"] == stderr.count("batch ")
    page = reports.build_report(out, out=tmp_path / "r", fmt="md").read_text()
    assert rec["sentence"] in page[page.index("## Key findings") : page.index("## Run")]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--sequential", "--margin", "0"], "--margin must be a positive"),
        (["--sequential", "--alpha", "0.7"], "--alpha must be between"),
        (["--max-games", "1000"], "--max-games needs --sequential"),
        (["--margin", "2"], "--margin needs --sequential"),
        (["--alpha", "0.1", "--beta", "0.1"], "--alpha and --beta need --sequential"),
        (["--beta", "0.05"], "--beta needs --sequential"),
        (
            ["--sequential", "--max-games", "10"],
            "--max-games (10) must be at least the default --games (4,000)",
        ),
    ],
)
def test_bad_sequential_input_is_one_line(capsys, tmp_path, args, message):
    code, _, err = run_cli(capsys, "gauntlet", "counter", "--against", "taker",
                           "--out", str(tmp_path / "x"), *args)  # fmt: skip
    assert code == 2, err
    assert err.startswith("leaves: error: ") and message in err
    assert len(err.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()  # refused before anything was played


def _row(decision, diff, lo, hi, **seq):
    rec = {"decision": decision, "finished": decision != "running", "games_per_side": 8000,
           "llr": 1.5, "lower": -2.94, "upper": 2.94, "margin": 2.0, "alpha": 0.05,
           "beta": 0.1, "batches": 4, **seq}  # fmt: skip
    return {"strategy": "a", "baseline": "b", "games": 8000, "diff": diff, "diff_ci_low": lo,
            "diff_ci_high": hi, **{f"sequential_{k}": v for k, v in rec.items()}}  # fmt: skip


def test_the_sentence_of_each_decision():
    from reports.gauntlet import sequential_sentence

    test = (
        "the sequential test (0 against +2 percentage points, 4 batches, LLR 1.50, bounds -2.94 "
        "and 2.94)"
    )
    est = "+0.4 percentage points [-0.3, +1.1] over 8,000 games per side"
    assert sequential_sentence(_row("undecided", 0.004, -0.003, 0.011)) == (
        f"Undecided whether a is better than b: {est}; {test} reached --max-games before "
        "favouring 0 or +2."
    )
    assert sequential_sentence(_row("running", 0.004, -0.003, 0.011)) == (
        f"Not decided yet whether a is better than b: {est} so far; {test} was interrupted "
        "('leaves gauntlet --resume --out RUN' continues it)."
    )
    for decision in (NOT_BETTER, "not better"):  # what earlier versions recorded reads the same
        assert sequential_sentence(_row(decision, 0.004, -0.003, 0.011)) == (
            f"a is not 2 percentage points better than b: {est}; {test} favoured 0 over +2, "
            "which it does for a strategy 2 percentage points better at most 10% of the time "
            "(beta)."
        )
    assert sequential_sentence(_row(NOT_BETTER, 0.004, -0.003, 0.021)).endswith(
        "(beta), a laxer standard than the 95% interval, which still reaches +2."
    )
    assert sequential_sentence(_row(BETTER, 0.012, -0.001, 0.025)).endswith(
        "(alpha), a laxer standard than the 95% interval, which still includes 0."
    )
    assert sequential_sentence({"strategy": "a"}) is None  # a gauntlet of fixed size
