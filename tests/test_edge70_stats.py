"""Figures with no spread, checked against computations made here with scipy: an unpaired rate
that shows none gets Newcombe's interval and the p-value that inverts it (``leaves compare``,
``leaves variants``), a ladder step with none the exact sign test, and no sentence says that
every duplicate set gave the same value where only each table's did."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from scipy.optimize import brentq
from scipy.stats import binomtest
from scipy.stats import t as student

import reports
from reports.synthetic import synthetic_games
from reports.variants import DIFF_COLUMNS, METRIC_COLUMNS, _diff_rows, _metric_rows
from reports.variants_sets import Measure
from reports.variants_text import findings
from tests.helpers import cli, doc_says, forget_loaded_files  # noqa: F401 - a fixture
from tests.test_audit4_nospread import NEVER

# users' files loaded here are forgotten after each test: another file's 'never' would clash
pytestmark = pytest.mark.usefixtures("forget_loaded_files")

NAN = float("nan")


# ------------------------------------------------- Newcombe's interval, computed with scipy
def _wilson(p: float, n: float, z: float) -> tuple[float, float]:
    """Wilson's score interval of ``p`` over ``n`` trials at the quantile ``z``."""
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return (0.0 if p <= 0 else centre - half), (1.0 if p >= 1 else centre + half)


def _newcombe(a: tuple, b: tuple, level: float) -> tuple[float, float]:
    """B - A by Newcombe's square-and-add, each side (rate, trials, df) a Wilson interval on
    its own t quantile of ``level``."""
    (pa, na, da), (pb, nb, db) = a, b
    la, ua = _wilson(pa, na, student.ppf(0.5 + level / 2, da))
    lb, ub = _wilson(pb, nb, student.ppf(0.5 + level / 2, db))
    d = pb - pa
    return d - np.hypot(pb - lb, ua - pa), d + np.hypot(ub - pb, pa - la)


def _inverted_p(a: tuple, b: tuple) -> float:
    """The level at which Newcombe's interval of B - A touches 0, as a two-sided p-value."""
    d = b[0] - a[0]

    def gap(q: float) -> float:
        lo, hi = _newcombe(a, b, 1 - q)
        return lo if d > 0 else -hi

    return brentq(gap, 1e-12, 1 - 1e-12, xtol=1e-14)


def _per_deal(frame: pd.DataFrame, who: str) -> tuple[float, float, float]:
    """(rate, effective trials, df) of ``who``'s win rate over the deals of one table, from
    the rows: the ratio estimate's per-deal contributions, ``D / (D - 1)`` times their squared
    deviations; with no spread, one trial a deal (the reports' rule)."""
    seated = frame[[c for c in frame if c.startswith("seat_")]].astype(object).eq(who)
    per = pd.DataFrame({"deal": frame["deal"], "w": (frame["winner"] == who) & seated.any(axis=1),
                        "n": seated.sum(axis=1)}).groupby("deal")[["w", "n"]].sum()  # fmt: skip
    rate = per["w"].sum() / per["n"].sum()
    u = (per["w"] - rate * per["n"]) / per["n"].sum()
    d = len(per)
    var = d / (d - 1) * ((u - u.mean()) ** 2).sum()
    return rate, (d if var < 1e-24 else rate * (1 - rate) / var), d - 1.0


def _run(strengths: dict[str, float], deals: int, seed: int) -> pd.DataFrame:
    return synthetic_games(strengths, players=(3,), deals=deals, seed=seed, unfinished_p=0.0,
                           forfeit_p=0.0)  # fmt: skip


def test_a_rate_with_no_spread_in_one_run_carries_its_own_uncertainty():
    """a wins all 18 games of 6 deals in A (its interval [47.6, 100]) and 87% of 200 deals in
    B: B - A was -12.8 percentage points [-15.4, -10.6], significant, B's error alone; it is
    Newcombe's interval on the two rates' own, and the p-value the one that inverts it."""
    a = _run({"a": 100.0, "b": 0.0, "c": -100.0}, 6, 1)
    b = _run({"a": 2.0, "b": 0.0, "c": -100.0}, 200, 2)
    row = reports.compare(a, b).table.set_index("strategy").loc["a"]
    side_a, side_b = _per_deal(a, "a"), _per_deal(b, "a")
    assert side_a == (1.0, 6, 5.0)
    assert np.allclose([row.ci_low, row.ci_high], _newcombe(side_a, side_b, 0.95), atol=1e-9)
    assert row.ci_low < 0 < row.ci_high and not row.significant
    assert row.p_value == pytest.approx(_inverted_p(side_a, side_b), rel=1e-6)
    assert np.isnan(row.se) and not row.no_spread  # no t interval stated


def test_a_change_between_two_rates_without_spread_is_tested():
    """a wins every game in A and none in B, 6 deals each: no spread on either side gave no
    test ('p n/a'); Newcombe's interval excludes 0, and its p-value says so."""
    a = _run({"a": 100.0, "b": 0.0, "c": -100.0}, 6, 1)
    b = _run({"a": -100.0, "b": 100.0, "c": 0.0}, 6, 2)
    t = reports.compare(a, b).table.set_index("strategy")
    side_a, side_b = _per_deal(a, "a"), _per_deal(b, "a")
    assert side_b == (0.0, 6, 5.0)
    lo, hi = _newcombe(side_a, side_b, 0.95)
    assert np.allclose([t.loc["a", "ci_low"], t.loc["a", "ci_high"]], [max(lo, -1.0), hi])
    assert t.loc["a", "p_value"] == pytest.approx(_inverted_p(side_a, side_b), rel=1e-6)
    assert t.loc["a", "p_value"] < 0.05 and t.loc["a", "ci_high"] < 0


def test_the_guide_s_example_of_two_rates_without_spread_is_the_comparison_s():
    """docs/reports.md: a strategy that won no game in A and every game in B, ten deals at one
    table each, changes by "+100.0 [+52.1, +100.0]"."""
    from reports.compare import _change

    a = _run({"a": -100.0, "b": 100.0, "c": 0.0}, 10, 1)
    b = _run({"a": 100.0, "b": 0.0, "c": -100.0}, 10, 2)
    row = next(reports.compare(a, b).table.query("strategy == 'a'").itertuples())
    quoted = doc_says("reports.md", r'\("(\+100\.0 \[[^"]*\])"\s+for a strategy that won no')[1]
    assert " ".join(_change(row, False)).replace(" percentage points", "") == quoted
    assert np.allclose([row.ci_low, row.ci_high], _newcombe((0.0, 10, 9.0), (1.0, 10, 9.0), 0.95))


# ------------------------------------------------------------------ leaves variants' shares
def _measure(metric: str, per_set: np.ndarray, rate: bool) -> Measure:
    """A measure whose value is the mean of ``per_set``, one value per duplicate set."""
    x = np.asarray(per_set, float)
    v = float(x.mean())
    return Measure(metric, "all", -1, v, np.arange(x.size), np.zeros(x.size, np.int64),
                   (x - v) / x.size, rate, 4 * x.size)  # fmt: skip


def test_a_share_changing_with_no_spread_is_tested_by_its_newcombe_interval():
    """Unfinished games from none to all in every one of 20 sets: the interval was stated,
    yet p was NaN, the change never clear, and the words said 'no spread to test it by'."""
    base, other = (
        _measure("unfinished", np.zeros(20), True),
        _measure("unfinished", np.ones(20), True),
    )
    row = _diff_rows("v", [base], [other], True)[0]
    sides = (0.0, 20, 19.0), (1.0, 20, 19.0)
    assert np.allclose([row["ci_low"], row["ci_high"]], _newcombe(*sides, 0.95))
    assert row["p_value"] == pytest.approx(_inverted_p(*sides), rel=1e-6)
    assert row["significant"]
    metrics = pd.DataFrame(_metric_rows("default", [base]) + _metric_rows("v", [other]),
                           columns=METRIC_COLUMNS)  # fmt: skip
    said = " ".join(t for t, _ in findings(metrics, pd.DataFrame([row], columns=DIFF_COLUMNS),
                                           ["default", "v"], "Paired"))  # fmt: skip
    assert "more games end unfinished" in said and "no spread to test it by" not in said, said


def test_a_share_whose_other_side_varies_is_tested_as_its_interval_says():
    """None unfinished under the default rules, a quarter in 8 of 20 sets under the variant:
    the t test's p (0.002) called it significant beside an interval across 0."""
    x = np.zeros(20)
    x[:8] = 0.25
    row = _diff_rows("v", [_measure("unfinished", np.zeros(20), True)],
                     [_measure("unfinished", x, True)], True)[0]  # fmt: skip
    assert row["ci_low"] < 0 < row["ci_high"] and row["p_value"] > 0.05


# ------------------------------------------------------------------- the skill ladder's steps
def _step(value: float, se: float, above: float, below: float, position: int = 0) -> dict:
    names = "abcd"
    return {"rules": "default", "metric": "ladder_step", "position": position, "value": value,
            "se": se, "df": 8.0, "deal_sets": 10, "ci_low": NAN, "ci_high": NAN,
            "detail": f"{names[position]} - {names[position + 1]}", "sets_above": above,
            "sets_below": below}  # fmt: skip


def test_a_step_with_no_spread_gets_the_sign_test():
    """+100 in all 10 sets (2 tables): 'no spread to test it by', p NaN; the report tests the
    same pair by the sign test over the 10 sets, p = 0.002."""
    from reports.designer_measures import ladder_table
    from reports.designer_text import ladder_sentence

    t = ladder_table(pd.DataFrame([_step(1.0, 0.0, 10, 0), _step(0.5, 0.0, 5, 0, 1)]))
    exact = [binomtest(10, 10).pvalue, binomtest(5, 5).pvalue]
    assert np.allclose(t["p_value"], exact) and t["no_spread"].all()
    assert t["significant"].tolist() == [True, False] and t["level"].tolist() == [True, False]
    text = ladder_sentence(t, ["default"])
    assert "at least 2 skill levels" in text and "no spread to test it by" not in text
    assert "b over c (+50.0 percentage points; within each table every duplicate set gave" in text


def test_a_step_of_zero_with_no_spread_needs_no_size():
    """A step of 0 with a standard error of 0: 'needs' was t x 0 = 0 ('0.0 percentage points
    either way would be significant'), beside p = 1."""
    from reports.designer_measures import ladder_table
    from reports.designer_text import ladder_sentence

    t = ladder_table(pd.DataFrame([_step(0.0, 0.0, 0, 0)]))
    assert np.isnan(t["needs"].iloc[0]) and t["no_spread"].iloc[0] and t["p_value"].iloc[0] == 1
    assert "either way would be significant" not in ladder_sentence(t, ["default"])


def test_the_metrics_count_a_paired_step_s_sets_on_each_side_of_zero():
    diff = np.array([1.0] * 5 + [0.0] * 4 + [-0.5])
    m = Measure("ladder_step", "all", 0, float(diff.mean()), np.arange(10),
                np.zeros(10, np.int64), diff / 10, False, 60, detail="a - b")  # fmt: skip
    (row,) = _metric_rows("default", [m])
    assert (row["sets_above"], row["sets_below"]) == (5.0, 1.0)


# --------------------------------------------------- no spread within tables, in words
def test_no_spread_at_several_tables_is_said_within_each_table():
    from reports.gauntlet import fixed_verdict

    row = {"strategy": "w", "baseline": "r", "deals": 12, "diff": 1 / 3, "diff_ci_low": NAN,
           "diff_ci_high": NAN, "p_value": 2 * 0.5**8, "df": 9.0}  # fmt: skip
    said = fixed_verdict(row)
    assert "within each table every duplicate set gave the same difference" in said, said
    assert "every one of the 12" not in said
    one = fixed_verdict({**row, "df": 11.0})  # one table: every set did
    assert "every one of the 12 duplicate sets gave the same difference" in one


def test_the_llr_cap_of_sets_at_several_tables_is_said_as_it_is():
    """12 sets at 3 tables: the test weighs them (df + 1) / 2 = 5, not the N/2 = 6 of 12 sets
    all alike, nor 'the most 12 duplicate sets with no spread give'."""
    from reports.gauntlet import llr_words
    from tournaments.sequential import llr

    cap = llr(1 / 3, 0.0, 0.0, 0.05, 9.0)
    said = llr_words(cap, 12)
    assert cap == 5.0 and said.startswith("LLR 5.00, the test's cap for 12 duplicate sets")
    assert "(df + 1) / 2 at df = 9" in said and "the most" not in said
    assert llr_words(llr(1 / 3, 0.0, 0.0, 0.05, 11.0), 12).endswith(
        "N/2 for N = 12 duplicate sets with no spread"
    )


def test_a_variant_s_flat_measure_at_several_tables_says_within_each_table():
    from reports.variants_words import missing

    row = pd.Series({"value": 0.5, "se": 0.0, "df": 8.0, "deal_sets": 10})
    assert missing(row).startswith("no interval: within each table every duplicate set")
    row["df"] = 9.0
    assert missing(row).startswith("no interval: every duplicate set gave the same value")


@pytest.mark.slow
def test_the_gauntlet_of_tables_that_differ_says_within_each_table(tmp_path, capsys):
    """wtwin against random with never, weighted and zilch: 3 tables of 4 deals, 8 deals of
    +50 and 4 of 0. It said 'every one of the 12 duplicate sets gave the same difference' and
    'LLR 5.00, the most 12 duplicate sets with no spread give'."""
    spec = tmp_path / "never.py"
    spec.write_text(NEVER + "\n\nclass Zilch(Never):\n    name = 'zilch'\n")
    twin = tmp_path / "twin.py"
    twin.write_text("from leaves.players.builtin.weighted import WeightedStrategy\n\n\n"
                    "class WTwin(WeightedStrategy):\n    name = 'wtwin'\n")  # fmt: skip
    args = ["wtwin", "--against", "never,weighted,zilch", "--baseline", "random", "--load",
            str(spec), "--load", str(twin), "--players", "3", "--games", "60", "--seed", "5",
            "--jobs", "1"]  # fmt: skip
    code, out, _ = cli(capsys, "gauntlet", *args, "--out", str(tmp_path / "g"))
    assert code == 0, out
    games = pd.concat(pd.read_parquet(f) for f in sorted((tmp_path / "g").rglob("*.parquet")))
    seats = games[[c for c in games if c.startswith("seat_")]].astype(object)
    side = np.where(seats.eq("wtwin").any(axis=1), 1, -1)
    per_deal = pd.Series(side * (games["winner"].isin(["wtwin", "random"])).to_numpy())
    sums = per_deal.groupby(games["deal_seed"].to_numpy()).sum() / 6
    assert sorted(sums.round(6).unique().tolist()) == [0.0, 0.5]  # the deals do differ
    assert "within each table every duplicate set gave the same difference" in out, out
    code, out, _ = cli(capsys, "gauntlet", *args, "--sequential", "--margin", "5", "--out",
                       str(tmp_path / "s"))  # fmt: skip
    assert code == 0 and "(df + 1) / 2 at df = 9" in out and "the most 12" not in out, out


def test_a_variant_s_flat_difference_at_several_tables_says_within_each_table():
    """Games 2 turns shorter with no spread over 10 sets at 2 tables (df 8): each table's sets
    agree, not necessarily all ten."""
    metrics = pd.DataFrame([{"rules": r, "metric": "turns", "n_players": "all", "position": -1,
                             "value": v, "ci_low": v - 1, "ci_high": v + 1, "se": 0.5,
                             "df": 8.0, "deal_sets": 10, "games": 60, "fair": 0.0}
                            for r, v in (("default", 44.0), ("v", 42.0))],
                           columns=METRIC_COLUMNS)  # fmt: skip
    diff = {"rules": "v", "metric": "turns", "n_players": "all", "position": -1,
            "default": 44.0, "value": 42.0, "diff": -2.0, "ci_low": NAN, "ci_high": NAN,
            "se": 0.0, "df": 8.0, "p_value": NAN, "p_holm": NAN, "significant": False,
            "method": "paired", "deal_sets": 10}  # fmt: skip

    def said(df: float) -> str:
        diffs = pd.DataFrame([{**diff, "df": df}], columns=DIFF_COLUMNS)
        return " ".join(t for t, _ in findings(metrics, diffs, ["default", "v"], "Paired"))

    assert ("within each table every duplicate set gave the same difference (no spread to "
            "test it by) in game length in turns") in said(8.0)  # fmt: skip
    assert "With v, every duplicate set gave the same difference (no spread" in said(9.0)


def test_compare_says_within_each_table_of_a_paired_difference_at_several_tables():
    from types import SimpleNamespace

    from reports.compare import _change

    r = SimpleNamespace(diff=1.0, ci_low=NAN, ci_high=NAN, no_spread=True, units=12, df=9.0)
    assert _change(r, True)[1] == (
        "(within each table every duplicate set gave the same difference, 12 duplicate sets in "
        "all: no spread to give an interval from)"
    )
    r.df = 11.0
    assert _change(r, True)[1].startswith("(every one of the 12 duplicate sets gave the same")


def test_a_restriction_s_cost_with_no_spread_at_several_tables_says_of_each_table():
    row = {"rules": "default", "metric": "restricted_no_pass", "n_players": "all",
           "position": -1, "value": 0.5, "ci_low": NAN, "ci_high": NAN, "se": 0.0, "df": 8.0,
           "deal_sets": 10, "games": 60, "fair": 0.0,
           "detail": "weighted: never passes while it can play"}  # fmt: skip

    def said(df: float) -> str:
        metrics = pd.DataFrame([{**row, "df": df}], columns=METRIC_COLUMNS)
        return " ".join(t for t, _ in findings(metrics, pd.DataFrame(columns=DIFF_COLUMNS),
                                               ["default"], "Paired"))  # fmt: skip

    assert "no spread between the deals of each table to tell what it costs it" in said(8.0)
    assert "no spread between the deals to tell what it costs it" in said(9.0)
