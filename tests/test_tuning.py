"""Tuning by tournament: declared tunables, the search space, focused tables, the search itself
(a toy strategy with a known best parameter), common random numbers, verification, the CLI."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import strategies
from leaves_cli import main
from strategies import Strategy, Tunable, spec_with, tunables
from tests.toy_tunable import BEST_X, TOLERANCE
from tournaments import Tournament, make_tables
from tuning import Space, tune
from tuning.evaluate import Field
from tuning.verify import compare

TOY = str(Path(__file__).with_name("toy_tunable.py")) + ":Toy"


def _tiny(out, seed=2, n_jobs=1, **kw):
    # the toy's win rate is a staircase (flat steps): wide first steps (sigma 0.2) find them
    args = dict(players=4, budget=8000, seed=seed, popsize=4, candidate_games=200, sigma=0.2)
    args.update(kw)
    return tune(TOY, ["random"], n_jobs=n_jobs, out=out, verify_games=400, **args)


@pytest.fixture(scope="module")
def toy_run(tmp_path_factory):
    return _tiny(tmp_path_factory.mktemp("tune") / "toy")


# ---------------------------------------------------------------- declarations


def test_builtins_declare_tunables_inside_their_ranges():
    for name in ("weighted", "taker", "counter"):
        params = tunables(name)
        cls = strategies.registry.get_class(name)
        assert [p.name for p in params] == list(cls.tunable)
        defaults = strategies.get(name).params
        for p in params:
            assert p.low < p.value < p.high or p.low <= p.value <= p.high
            assert p.value == defaults[p.name]


def test_spec_values_override_the_start():
    (p, *_) = tunables("taker:group_weight=1.5")
    assert (p.name, p.value) == ("group_weight", 1.5)


def test_strategies_without_tunables_are_refused():
    with pytest.raises(ValueError, match="declares no tunable parameters"):
        tunables("greedy")


def _declaring(tunable, **defaults):
    params = ", ".join(f"{k}={v!r}" for k, v in defaults.items())
    ns: dict = {"Strategy": Strategy}
    exec(f"class X(Strategy, register=False):\n    def __init__(self, {params}): pass\n", ns)
    ns["X"].tunable = tunable
    return ns["X"]


@pytest.mark.parametrize(
    ("tunable", "defaults", "message"),
    [
        ({"nope": (0, 1)}, {"a": 0.5}, "not a parameter"),
        ({"a": (1, 0)}, {"a": 0.5}, "low < high"),
        ({"a": (0, math.inf)}, {"a": 0.5}, "low < high"),
        ({"a": "x"}, {"a": 0.5}, "pair"),
        ({"a": (0, 1)}, {"a": True}, "numeric default"),
        ({"a": (0, 1)}, {"a": "s"}, "numeric default"),
        ({"a": (0, 1)}, {"a": 2.0}, "outside its tunable range"),
    ],
)
def test_bad_declarations_are_one_line_errors(tunable, defaults, message):
    with pytest.raises(ValueError, match=message):
        tunables(_declaring(tunable, **defaults))


def test_spec_with_keeps_the_target_and_round_trips():
    spec = spec_with("counter:keep_weight=3.0", {"safe_bonus": 1.25})
    assert spec == "counter:keep_weight=3.0,safe_bonus=1.25"
    assert strategies.get(spec).params["safe_bonus"] == 1.25
    with pytest.raises(ValueError, match="no parameter"):
        spec_with("counter", {"bogus": 1.0})


# ---------------------------------------------------------------- the space

_PARAMS = (
    Tunable("a", -5.0, 5.0, 0.0, False),
    Tunable("n", 1.0, 12.0, 6.0, True),
    Tunable("b", -30.0, 5.0, -13.0, False),
)


@given(st.lists(st.floats(-0.5, 1.5), min_size=3, max_size=3))
def test_decoded_values_lie_in_range_and_survive_a_round_trip(x):
    space = Space(_PARAMS)
    values = space.decode(x)
    for p in _PARAMS:
        assert p.low <= values[p.name] <= p.high
    assert isinstance(values["n"], int)
    again = space.decode(space.encode(values))
    for p in _PARAMS:
        assert abs(again[p.name] - values[p.name]) <= (p.high - p.low) / 1000 + 1e-12


def test_the_start_is_encoded_where_it_lies_in_each_range():
    assert np.allclose(Space(_PARAMS).start(), [0.5, 5 / 11, 17 / 35])


# ---------------------------------------------------------------- focused tables


@given(
    st.integers(2, 7), st.lists(st.integers(3, 6), min_size=1, max_size=4, unique=True), st.data()
)
def test_focused_tables_always_seat_the_focus_once(n, sizes, data):
    focus = data.draw(st.integers(0, n - 1))
    tables = make_tables(n, sizes, focus=focus)
    assert tables
    for t in tables:
        assert t.count(focus) == 1 and list(t) == sorted(t)
    others = n - 1
    for k in set(sizes):
        got = sum(1 for t in tables if len(t) == k)
        if others >= k - 1:
            assert got == math.comb(others, k - 1)
        else:
            assert got == math.comb(others + k - 2, k - 1)  # with replacement


def test_a_focused_tournament_plays_only_games_with_the_focus(tmp_path):
    t = Tournament(["low", "greedy", "high", "random", "minimal"], players=4, games=400, seed=3,
                   focus="low")  # fmt: skip
    assert len(t.tables) == 4 and t.spec()["focus"] == "low"
    df = t.run(out=tmp_path / "f").games()
    seats = df[[f"seat_{s}" for s in range(4)]].astype(str)
    assert ((seats == "low").sum(axis=1) == 1).all()
    with pytest.raises(ValueError, match="not one of"):
        Tournament(["low", "greedy"], players=3, games=10, focus="high")


# ---------------------------------------------------------------- the search


@pytest.mark.slow
def test_tune_recovers_the_toy_best_parameter(toy_run):
    assert abs(toy_run.best["x"] - BEST_X) < TOLERANCE
    assert toy_run.verification.verdict == "improved"
    assert toy_run.verification.diff_low > 0.03  # the start plays greedy; low wins ~10 points more


def test_every_candidate_of_a_generation_plays_the_same_deals(toy_run):
    cand = toy_run.candidates
    search = cand[cand["kind"] != "finalist"]
    per_gen = search.groupby("generation")["seed"].nunique()
    assert (per_gen == 1).all()
    assert search.groupby("generation")["seed"].first().is_unique
    kinds = search.groupby("generation")["kind"].value_counts().unstack()
    assert (kinds["start"] == 1).all() and (kinds["candidate"] == 4).all()
    # common random numbers: equal parameters in one generation score exactly alike
    toy_policy = (search["x"] - BEST_X).abs() >= 2.5  # plays random
    for _, g in search[toy_policy].groupby("generation"):
        assert g["wins"].nunique() == 1


def test_the_result_directory(toy_run):
    out = toy_run.out
    assert (out / "best.txt").read_text() == toy_run.best_spec + "\n"
    assert strategies.get(toy_run.best_spec).params["x"] == toy_run.best["x"]
    table = pd.read_csv(out / "candidates.csv")
    assert {"generation", "candidate", "kind", "x", "games", "wins", "win_rate", "spec"} <= set(
        table.columns
    )
    assert len(table) == len(toy_run.candidates)
    assert table["games"].sum() <= 8000
    assert (out / "convergence.png").stat().st_size > 10_000
    doc = json.loads((out / "tune.json").read_text())
    assert doc["best_spec"] == toy_run.best_spec
    assert doc["verification"]["verdict"] == "improved"
    ver = pd.read_csv(out / "verification.csv")
    assert list(ver["arm"]) == ["tuned", "start"]
    assert (ver["ci_low"] <= ver["win_rate"]).all() and (ver["win_rate"] <= ver["ci_high"]).all()
    for arm in ("tuned", "start"):
        assert json.loads((out / "verify" / arm / "manifest.json").read_text())["status"] == (
            "complete"
        )


@pytest.mark.slow
def test_tune_is_reproducible_and_leaves_global_numpy_state_alone(toy_run, tmp_path):
    before = np.random.get_state()[1].copy()
    again = _tiny(tmp_path / "again")
    assert np.array_equal(np.random.get_state()[1], before)
    cols = ["generation", "candidate", "kind", "x", "games", "wins", "seed", "spec"]
    pd.testing.assert_frame_equal(again.candidates[cols], toy_run.candidates[cols])
    assert again.best_spec == toy_run.best_spec


@pytest.mark.slow
def test_the_seed_matters(toy_run, tmp_path):
    other = _tiny(tmp_path / "other", seed=3)
    assert not other.candidates["seed"].isin(toy_run.candidates["seed"]).any()


@pytest.mark.slow
def test_tune_does_not_depend_on_jobs(toy_run, tmp_path):
    small = dict(budget=1200, candidate_games=100, popsize=2)
    two = _tiny(tmp_path / "two", n_jobs=2, **small)
    one = _tiny(tmp_path / "one", n_jobs=1, **small)
    pd.testing.assert_frame_equal(two.candidates, one.candidates)
    assert two.verification == one.verification


# ---------------------------------------------------------------- verification


def test_verification_pairs_games_and_finds_a_real_difference(tmp_path):
    field = Field(("low",), (3,))
    good = field.play("high", 600, 5, tmp_path / "a")
    bad = field.play("random", 600, 5, tmp_path / "b")
    v = compare(("high", "high", good), ("random", "random", bad), 5)
    assert v.tuned.games == v.start.games == 600
    assert v.verdict == "improved" and v.diff_low > 0.2
    assert v.diff == pytest.approx(v.tuned.win_rate - v.start.win_rate)
    same = compare(("random", "random", bad), ("random", "random", bad), 5)
    assert same.diff == 0 and same.verdict == "no game differed" and same.games_differing == 0
    worse = compare(("random", "random", bad), ("high", "high", good), 5)
    assert worse.verdict == "worse"


def test_the_verifications_difference_is_that_of_the_rates_it_prints(tmp_path):
    # tables of 3 and 4 seats: their duplicate sets hold different numbers of games, so a
    # mean of per-set differences (each set alike) would not be tuned - start
    field = Field(("low", "greedy"), (3, 4))
    a = field.play("high", 600, 7, tmp_path / "a")
    b = field.play("minimal", 600, 7, tmp_path / "b")
    v = compare(("high", "high", a), ("minimal", "minimal", b), 7)
    assert v.diff == pytest.approx(v.tuned.win_rate - v.start.win_rate, abs=1e-12)
    assert v.diff_low < v.diff < v.diff_high


def test_verification_refuses_arms_that_played_different_deals(tmp_path):
    field = Field(("low",), (3,))
    a = field.play("high", 300, 5, tmp_path / "a")
    b = field.play("random", 300, 6, tmp_path / "b")
    with pytest.raises(RuntimeError, match="same games"):
        compare(("high", "high", a), ("random", "random", b), 5)


# ---------------------------------------------------------------- command line


def _cli(capsys, args):
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["tune", "nosuch", "--against", "low"], "unknown strategy 'nosuch'"),
        (["tune", "greedy", "--against", "low"], "declares no tunable parameters"),
        (["tune", "taker", "--against", "nosuch"], "unknown strategy 'nosuch'"),
        (["tune", "taker", "--against", "taker"], "both the strategy tuned and an opponent"),
        (["tune", "taker", "--against", "low", "--budget", "50"], "too small"),
        (["tune", "taker", "--against", "low", "--budget", "0"], "--budget"),
        (["tune", "taker", "--against", "low", "--players", "9"], "3 to 6 players"),
        (["tune", "taker", "--against", "low", "--jobs", "0"], "--jobs"),
        (["tune", "taker"], "--against"),
        (["tune", "taker", "--against", "low", "--sigma", "0"], "--sigma"),
    ],
)
def test_cli_bad_input_is_one_line(capsys, args, message, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the default --out is relative: never the suite's own folder
    (tmp_path / "leaves-tune").mkdir()
    (tmp_path / "leaves-tune" / "best.txt").write_text("a former tuning\n")
    code, out, err = _cli(capsys, args)
    assert code == 2
    assert err.startswith("leaves: error: ") and message in err
    assert err.count("\n") == 1 and "Traceback" not in err


def test_cli_refuses_a_non_empty_out(capsys, tmp_path):
    (tmp_path / "x").write_text("keep me")
    code, _, err = _cli(capsys, ["tune", "taker", "--against", "low", "--out", str(tmp_path)])
    assert code == 2 and "is not empty" in err
    assert (tmp_path / "x").read_text() == "keep me"


def test_cli_tunes_and_reports(capsys, tmp_path):
    out = tmp_path / "t"
    args = ["tune", TOY, "--against", "random", "--budget", "2000", "--seed", "4",
            "--popsize", "4", "--candidate-games", "100", "--verify-games", "200", "--sigma", "0.2",
            "--jobs", "1", "--out", str(out)]  # fmt: skip
    code, stdout, err = _cli(capsys, args)
    assert code == 0, err
    v = json.loads((out / "tune.json").read_text())["verification"]
    best = (out / "best.txt").read_text().strip()
    verdict, parameters = stdout.splitlines()[:2]  # the verdict first, then what was found
    lead = {"improved": "Better than the start: ", "worse": "Worse than the start: "}
    assert verdict.startswith(lead.get(v["verdict"], "No significant difference over the start: "))
    assert verdict.startswith(lead["improved"]) == (v["diff_low"] > 0), v
    diff = f"{100 * v['diff']:+.1f} percentage points of win rate [{100 * v['diff_low']:+.1f}, "
    assert diff in verdict and f"on {v['units']:,} fresh deals" in verdict
    assert parameters == f"tuned parameters: {best} (in {out}/best.txt)"
    assert "paired difference" in stdout


def test_the_verdict_comes_before_the_parameters(tmp_path):
    """Where the tuned parameters proved better (the only case the headline says "best:"),
    the verdict with its interval comes first, then the parameters; any other headline is
    already the verdict (keep the start, and why) and is said as it is."""
    from types import SimpleNamespace

    from leaves.commands.tune import lines
    from tuning.verify import Arm, Verification

    arm = Arm("x", "x", 400, 200, 0.5, 0.45, 0.55)
    v = Verification(seed=1, tuned=arm, start=arm, diff=0.031, diff_low=0.012, diff_high=0.05,
                     p_value=0.004, units=100, games_differing=30)  # fmt: skip
    result = SimpleNamespace(spec="taker", best_spec="taker:x=2", out=tmp_path, verification=v,
                             lines=lambda: ["best: taker:x=2", "search: ..."])  # fmt: skip
    got = lines(result)
    assert got[0] == ("Better than the start: +3.1 percentage points of win rate [+1.2, +5.0] "
                      "over the start (taker) on 100 fresh deals, p = 0.004")  # fmt: skip
    assert got[1:] == [f"tuned parameters: taker:x=2 (in {tmp_path}/best.txt)", "search: ..."]
    result.lines = lambda: ["keep the start: the tuned parameters (taker:x=2) were not shown "
                            "better ...", "search: ..."]  # fmt: skip
    assert lines(result) == result.lines()  # a verdict already: said as it is


@pytest.mark.slow
def test_tune_refuses_a_strategy_without_tunables_in_one_line(tmp_path):
    import subprocess
    import sys

    root = Path(__file__).resolve().parents[1]
    proc = subprocess.run(
        [sys.executable, "-m", "leaves_cli", "tune", "greedy", "--against", "low"],
        capture_output=True, text=True, cwd=root, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 2
    assert proc.stderr == (
        "leaves: error: strategy greedy declares no tunable parameters "
        "(a class attribute tunable = {'name': (low, high), ...})\n"
    )


# ---------------------------------------------------------------- results that tell nothing

INERT = str(Path(__file__).with_name("toy_tunable.py")) + ":Inert"


def _inert_args(out, verify_games):
    return ["tune", INERT, "--against", "random", "--budget", "1200", "--seed", "4",
            "--popsize", "2", "--candidate-games", "100", "--verify-games", str(verify_games),
            "--jobs", "1", "--out", str(out)]  # fmt: skip


@pytest.mark.slow
def test_a_parameter_that_changes_nothing_has_no_best(tmp_path, capsys):
    code, stdout, err = _cli(capsys, _inert_args(tmp_path / "t", 48))
    assert code == 0, err
    lines = stdout.splitlines()
    assert lines[0].startswith("no candidate's wins differed from the start's over ")
    assert lines[0].endswith("games: the parameter(s) knob seem to change no decision")
    assert "best:" not in stdout
    assert any(ln.startswith("warning: the parameter(s) knob changed no decision") for ln in lines)
    assert "nothing to verify" in stdout and "the verification" not in stdout  # the start's
    out = tmp_path / "t"  # own parameters: nothing to verify, so no warning of its size
    assert (out / "best.txt").read_text().strip() == INERT
    doc = json.loads((out / "tune.json").read_text())
    assert doc["settings"]["no_effect"] is True and doc["best"] == {"knob": 0.5}
    assert doc["verification"] is None and len(doc["warnings"]) == 1


def test_a_real_result_has_a_best_and_no_warning_of_no_effect(toy_run):
    assert toy_run.headline() == f"best: {toy_run.best_spec}"
    assert not toy_run.settings["no_effect"]
    assert not any("changed no decision" in w for w in toy_run.warnings)
    assert toy_run.verification.games_differing > 0


def test_cli_tunes_a_strategy_registered_by_load(capsys, tmp_path):
    bot = tmp_path / "my_toy.py"
    bot.write_text(
        "import sys\n"
        f"sys.path.insert(0, {str(Path(__file__).resolve().parents[1])!r})\n"
        "from tests.toy_tunable import Toy\n\n\n"
        "class LoadedToy(Toy):\n"
        '    name = "loaded_toy"\n'
    )
    args = ["tune", "loaded_toy", "--load", str(bot), "--against", "random", "--budget", "1200",
            "--seed", "4", "--popsize", "2", "--candidate-games", "100", "--verify-games", "48",
            "--jobs", "1", "--out", str(tmp_path / "t")]  # fmt: skip
    try:
        code, stdout, err = _cli(capsys, args)
    finally:  # a name left registered would be a strategy every later test of the docs sees
        strategies.registry.unregister("loaded_toy")
    assert code == 0, err
    assert "loaded_toy" in stdout
