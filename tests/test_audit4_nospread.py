"""Estimates with no spread (every duplicate set gave the same value) in the sentences that
read a missing interval: a gauntlet's verdict and progress line, ``leaves compare``, the
variants' words and a declared mean. No interval is stated there, yet the run was not too
small: the sentence says which, and a paired difference is tested by the exact sign test."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from tests.helpers import cli, forget_loaded_files  # noqa: F401 - a fixture

# users' files loaded here are forgotten after each test: another file's 'never' would clash
pytestmark = pytest.mark.usefixtures("forget_loaded_files")

NAN = float("nan")
WORDS = (
    "every one of the 20 duplicate sets gave the same difference: no spread to give an "
    "interval from"
)

NEVER = '''
from strategies import Strategy


class Never(Strategy):
    """Passes whenever it may."""

    name = "never"
    description = "passes whenever it may"
    classifier = {"stochastic": False, "uses_card_counting": False}

    def choose(self, view, legal, rng):
        passes = [a for a in legal if a.is_pass]
        return passes[0] if passes else legal[0]


class Nobody(Never):
    """Passes whenever it may, too."""

    name = "nobody"
'''


def _flat(diff: float, sets: int = 20) -> dict[str, float]:
    """A paired estimate whose ``sets`` duplicate sets all gave ``diff`` (as ``paired``
    gives it: no interval, the sign test's p)."""
    p = 1.0 if diff == 0 else 2 * 0.5**sets
    return {"diff": diff, "se": 0.0, "ci_low": NAN, "ci_high": NAN, "p_value": p,
            "units": sets, "df": sets - 1.0}  # fmt: skip


# ------------------------------------------------------------------ the gauntlet's words
def test_a_gauntlet_with_no_spread_is_not_called_too_few_deals(tmp_path, capsys):
    """greedy against two strategies that never win, with one that never wins as baseline:
    +100 points in each of the 20 sets. It said 'Too few deals to compare greedy with
    nobody: ... too few deals for an interval'; the sign test over 20 sets all one way gives
    p = 2 * 0.5**20 = 2e-06."""
    spec = tmp_path / "never.py"
    spec.write_text(NEVER)
    args = ["greedy", "--against", f"{spec}:Never", "--baseline", f"{spec}:Nobody", "--players",
            "3", "--games", "60", "--jobs", "1", "--out", str(tmp_path / "g")]  # fmt: skip
    code, out, _ = cli(capsys, "gauntlet", *args)
    assert code == 0
    assert (
        f"greedy beats nobody by 100.0 percentage points ({WORDS}; paired over 20 deals, p = "
        f"2e-06)." in out
    )
    assert "too few deals" not in out.lower(), out


def test_the_fixed_verdict_of_no_spread_follows_the_sign_test():
    from reports.gauntlet import fixed_verdict

    row = {"strategy": "a", "baseline": "b", "deals": 20, "diff": -1.0, "df": 19.0,
           "diff_ci_low": NAN, "diff_ci_high": NAN, "p_value": 2 * 0.5**20}  # fmt: skip
    assert fixed_verdict(row) == (f"a loses to b: the difference is -100.0 percentage points "
                                  f"({WORDS}; "
                                  "paired over 20 deals, p = 2e-06).")  # fmt: skip
    row.update(diff=0.0, p_value=1.0)  # no set differs: no evidence either way
    assert fixed_verdict(row) == (f"No significant difference between a and b: +0.0 percentage "
                                  f"points "
                                  f"({WORDS}; paired over 20 deals, p = 1.00).")  # fmt: skip
    row.update(deals=2, p_value=NAN)  # too few deals: no test at all
    assert fixed_verdict(row).startswith("Too few deals to compare a with b")


def test_a_sequential_batch_with_no_spread_says_so_and_is_weighed():
    """It said '(too few deals for an interval), so no test yet' on a batch of 20 sets that
    all gave +100 points, and the test then played on to --max-games, undecided."""
    from leaves_cli.sequential import batch_line, weighable
    from tournaments.sequential import BETTER, Sequential

    r = _flat(1.0)
    test = Sequential(0.01)
    w = weighable(r)
    assert w["se"] == 0.0 and test.update(w["diff"], w["se"]) == BETTER
    assert batch_line(test, 60, r) == (
        "batch 1: 60 games per side, difference +100.00 percentage points over 20 duplicate "
        "sets, LLR "
        "+inf, as every duplicate set gave the same difference (stop at -2.94 or 2.94)"
    )
    few = {**r, "p_value": NAN, "units": 3}  # too few deals: no variance to weigh by
    assert math.isnan(weighable(few)["se"])
    assert batch_line(Sequential(0.01), 12, few).endswith("(too few deals for an interval), so "
                                                          "no test yet")  # fmt: skip


def test_a_sequential_sentence_with_no_spread_states_no_interval():
    from reports.gauntlet import sequential_sentence
    from reports.numbers import NO_SPREAD_WITHIN, TOO_FEW
    from tournaments.sequential import Sequential

    test = Sequential(0.01)
    test.update(1.0, 0.0)
    rec = test.record(60)
    row = {"strategy": "a", "baseline": "b", "games": 60, "diff": 1.0, "diff_ci_low": NAN,
           "diff_ci_high": NAN, "p_value": 2 * 0.5**20, "deals": 20, "df": 19.0,
           **{f"sequential_{k}": v for k, v in rec.items()}}  # fmt: skip
    text = sequential_sentence(row)
    assert (
        f"+100.0 percentage points ({WORDS}) over 60 games per side" in text and TOO_FEW not in text
    )
    # interrupted after that batch: its record keeps the estimate in points, no interval
    row.update(sequential_decision="running", sequential_difference=100.0, sequential_ci_low=None,
               sequential_ci_high=None, sequential_games_per_side=60)  # fmt: skip
    text = sequential_sentence(row, run="g")
    assert (
        f"+100.0 percentage points ({NO_SPREAD_WITHIN}) over 60 games per side, after batch 1"
        in text
    ), text


# --------------------------------------------------------------------------- leaves compare
def test_compare_words_a_change_with_no_spread_without_an_interval():
    """A strategy 100 points ahead in B in every one of 20 sets paired: significant by the
    sign test, with no interval ('[+nan, +nan]' before); a flat difference that is not
    significant is named without one too."""
    from reports.compare import _findings

    t = pd.DataFrame({"strategy": ["s0", "s1"], "diff": [1.0, 0.02], "ci_low": [NAN, -0.03],
                      "ci_high": [NAN, 0.07], "units": [20, 20], "df": [19.0, 19.0],
                      "no_spread": [True, False],
                      "p_value": [2 * 0.5**20, 0.4], "p_holm": [4 * 0.5**20, 0.4],
                      "significant": [True, False]})  # fmt: skip
    (text,) = _findings(t, identical=False)
    assert text == (f"s0 wins 100.0 percentage points more in B ({WORDS}); no other strategy "
                    f"changed "
                    "significantly")  # fmt: skip
    t.loc[0, ["significant", "p_holm"]] = [False, 0.06]
    (text,) = _findings(t, identical=False)
    assert (
        "[+nan" not in text and f"s0 +100.0 percentage points ({WORDS}), p = 2e-06 before" in text
    ), text


def test_compare_of_a_run_with_itself_shows_no_spread_not_a_point_interval(tmp_path, capsys):
    run = str(tmp_path / "a")
    code, _, _ = cli(capsys, "tournament", "greedy", "low", "high", "--players", "3",
                     "--games", "60", "--jobs", "1", "--out", run)  # fmt: skip
    assert code == 0
    code, out, _ = cli(capsys, "compare", run, run)
    assert code == 0
    rows = [x for x in out.splitlines() if x.startswith(("│ greedy", "│ low", "│ high"))]
    cells = [[c.strip() for c in x.strip("│").split("│")] for x in rows]
    assert len(rows) == 3 and all("no spread" in x for x in rows), out
    assert [c[-2] for c in cells] == ["1.00"] * 3, out  # no set differs: the sign test's p is 1
    assert "+0.0 to +0.0" not in out


# ------------------------------------------------------------------- variants and means
@pytest.mark.parametrize("value,se,df", [(0.5, 0.0, 7.0), (0.5, 1e-14, 7.0), (0.5, 0.01, 7.0),
                                         (0.5, 0.0, 3.0), (0.5, 0.0, NAN), (NAN, 0.0, 7.0),
                                         (40.0, 1e-12, 7.0)])  # fmt: skip
def test_the_variants_flat_is_the_estimates_flat(value, se, df):
    from reports.clusters import Estimates
    from reports.variants_words import flat

    est = Estimates(np.array([value]), np.array([se]), np.array([df]), np.array([8.0]))
    assert flat(value, se, df) == bool(est.flat()[0])


def test_stacked_variant_estimates_keep_their_signs():
    from reports.clusters import Estimates
    from reports.variants_metrics import stack

    one = Estimates(np.array([0.5]), np.array([0.0]), np.array([7.0]), np.array([8.0]),
                    signs=(np.array([8.0]), np.array([0.0])))  # fmt: skip
    two = Estimates(np.array([0.0]), np.array([0.0]), np.array([7.0]), np.array([8.0]),
                    signs=(np.array([0.0]), np.array([0.0])))  # fmt: skip
    p = stack([one, two]).p_value()
    assert p[0] == pytest.approx(2 * 0.5**8) and p[1] == 1.0
    assert stack([one, Estimates(*(np.array([x]) for x in (0.5, 0.0, 7.0, 8.0)))]).signs is None


def test_a_declared_mean_with_no_spread_is_not_too_few_deals():
    """Every duplicate set gave the same mean: no interval, which is not a small run."""
    import dataclasses

    from reports.clusters import Estimates
    from reports.data import default_declaration
    from reports.declared import _mean_ci
    from reports.findings import _means
    from reports.numbers import TOO_FEW

    est = Estimates(np.array([3.5, 2.0, 1.0]), np.array([0.0, 0.1, 0.0]),
                    np.array([6.0, 6.0, 2.0]), np.array([7.0, 7.0, 3.0]))  # fmt: skip
    cols = _mean_ci(est, "score")
    assert cols["score_no_spread"].tolist() == [7, 0, 0]  # too few deals is not no spread
    means = pd.DataFrame({"strategy": ["a", "b", "c"], **cols})
    decl = dataclasses.replace(default_declaration(), rank_value="score")
    (found,) = _means(means, decl)
    assert found.text.startswith(
        "a has the best mean score per game: 3.50 (within each table every duplicate set gave "
        "the same mean score, 7 duplicate sets in all: no spread to give an interval from)"
    ), found.text
    assert f"3.50 ({TOO_FEW}" not in found.text  # a's no spread is not too few deals (c's is)
    (found,) = _means(means.iloc[[2]], decl)
    assert TOO_FEW in found.text
