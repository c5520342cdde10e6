"""The words of ``leaves variants`` say only what their numbers support: each test builds the
measures or tables of a case whose truth is known and checks the sentence against the figure
the table beside it writes."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from reports.variants import DIFF_COLUMNS, METRIC_COLUMNS, _diff_rows, _metric_rows
from reports.variants_sets import Measure
from reports.variants_tables import every_differences
from reports.variants_text import findings

SETS = 20


def _measure(metric: str, per_set: np.ndarray, rate: bool) -> Measure:
    """A measure whose value is the mean of ``per_set``, one value per duplicate set."""
    x = np.asarray(per_set, float)
    v = float(x.mean())
    return Measure(metric, "all", -1, v, np.arange(x.size), np.zeros(x.size, np.int64),
                   (x - v) / x.size, rate, 4 * x.size)  # fmt: skip


def _compare(base: list[Measure], variant: list[Measure]) -> tuple[pd.DataFrame, pd.DataFrame]:
    metrics = pd.DataFrame(_metric_rows("default", base) + _metric_rows("v", variant),
                           columns=METRIC_COLUMNS)  # fmt: skip
    diffs = pd.DataFrame(_diff_rows("v", base, variant, True), columns=DIFF_COLUMNS)
    return metrics, diffs


def _said(metrics: pd.DataFrame, diffs: pd.DataFrame) -> str:
    return " ".join(t for t, _ in findings(metrics, diffs, ["default", "v"], "Paired"))


def test_a_difference_whose_interval_crosses_zero_is_never_called_more():
    """No game ends unfinished under the default rules; under the variant 8 of 20 duplicate
    sets have a quarter of their games unfinished. The t-test's p-value was small (about
    0.002), but the interval of a difference of two shares one of which has no spread is
    Newcombe's, which crosses 0 here: the findings said '10.0 percentage points more [-8.5,
    +17.4]' and the table starred it. Now it is not clear, in words and in the table alike,
    and its p-value is the one that inverts that interval."""
    unfinished = np.zeros(SETS)
    unfinished[:8] = 0.25
    turns = 40 + np.linspace(-1, 1, SETS)
    metrics, diffs = _compare(
        [_measure("unfinished", np.zeros(SETS), True), _measure("turns", turns, False)],
        [_measure("unfinished", unfinished, True), _measure("turns", turns[::-1], False)],
    )
    row = diffs.set_index("metric").loc["unfinished"]
    assert row["ci_low"] < 0 < row["ci_high"] and row["p_holm"] > 0.05  # the case's truth
    assert not row["significant"]
    said = _said(metrics, diffs)
    assert "more games end unfinished" not in said
    assert "there is no clear difference in unfinished games" in said
    assert "and its interval excludes 0" in said
    cell = every_differences(diffs).set_index("measure").loc["unfinished games"]
    assert cell["difference"] == "+10.0 [-8.5, +17.4] pp" and cell["clear"] == "no"


def test_a_difference_clear_of_zero_is_still_called_by_its_direction():
    """The same variant with every set a quarter unfinished: its interval excludes 0, and the
    sentence says 'more' with the interval the table writes."""
    metrics, diffs = _compare(
        [_measure("unfinished", np.zeros(SETS), True)],
        [_measure("unfinished", np.r_[np.full(19, 0.25), 0.5], True)],
    )
    row = diffs.iloc[0]
    assert row["ci_low"] > 0 and row["significant"]
    cell = every_differences(diffs)["difference"].iloc[0]
    lo, hi = cell.split("[")[1].split("]")[0].split(", ")
    assert lo.startswith("+") and hi.startswith("+")  # the table's cell: a difference, signed
    said = f"percentage points more [{lo.lstrip('+')}, {hi.lstrip('+')}]"  # the words: a size
    assert said in _said(metrics, diffs)


def _row(rules: str, metric: str, value: float, lo: float, hi: float) -> dict:
    return {"rules": rules, "metric": metric, "n_players": "all", "position": -1,
            "value": value, "ci_low": lo, "ci_high": hi, "se": (hi - lo) / 4, "df": 29.0,
            "deal_sets": 30, "games": 120, "fair": 0.0, "detail": "",
            "conservative": False}  # fmt: skip


def _flip(cell: str) -> tuple[str, str, str]:
    """A difference cell ('-6.17 [-7.24, -5.10] rounds *'), clear of 0, as a sentence in words
    writes it: its size, then the size's interval, unsigned, as the words carry the direction
    ('6.17', '5.10', '7.24')."""
    figure, rest = cell.split(" [")
    lo, hi = rest.split("]")[0].split(", ")
    assert lo[0] == hi[0] == figure[0] in "+-"  # clear of 0: every figure on the same side
    if figure.startswith("-"):
        lo, hi = hi, lo
    return figure.lstrip("+-"), lo.lstrip("+-"), hi.lstrip("+-")


@pytest.mark.parametrize(("metric", "base", "diff", "words"), [
    ("rounds", 7.22, -6.17, "rounds fewer"),   # two decimals in the table: '6.2' was said
    ("turns", 40.0, 0.45, "turns longer"),     # one decimal in the table: '0.45' was said
    ("match_games", 3.0, -0.46, "games fewer"),  # one decimal in the table: '0.46' was said
    ("runner_up", 3.57, -0.5, "cards fewer"),
])  # fmt: skip
def test_a_difference_is_said_with_the_decimals_of_its_table_cell(metric, base, diff, words):
    """The sentence's size and bounds are its table cell's (``diff_text``) with the direction
    in words, and the default rules' rounds are written as their cell writes them."""
    from reports.variants_display import diff_text, value_text

    half = abs(diff) / 2
    rows = [_row("default", metric, base, base - 0.5, base + 0.5),
            _row("v", metric, base + diff, base + diff - 0.5, base + diff + 0.5)]  # fmt: skip
    if metric != "turns":  # every run of the game measures turns
        rows += [_row(rules, "turns", 40.0, 39.0, 41.0) for rules in ("default", "v")]
    metrics = pd.DataFrame(rows, columns=METRIC_COLUMNS)
    d = {"rules": "v", "metric": metric, "n_players": "all", "position": -1, "default": base,
         "value": base + diff, "diff": diff, "ci_low": diff - half, "ci_high": diff + half,
         "se": half / 2, "df": 29.0, "p_value": 1e-4, "p_holm": 1e-4, "significant": True,
         "method": "paired", "detail": ""}  # fmt: skip
    diffs = pd.DataFrame([d], columns=DIFF_COLUMNS)
    size, lo, hi = _flip(diff_text(diffs.iloc[0]))
    said = _said(metrics, diffs)
    assert f"{size} {words} [{lo}, {hi}]" in said, said
    if metric == "rounds":  # the default rules' own figure, as its cell writes it
        value = value_text(metrics.iloc[0]).split(" [")[0]
        assert value == "7.22" and f"games last 40.0 turns [39.0, 41.0] ({value} rounds)" in said


@pytest.mark.parametrize(("sets", "over"), [
    (1, "paired over the run's one duplicate set"),  # it said 'all 1 duplicate set of the run'
    (2, "paired over all 2 duplicate sets of the run"),
])  # fmt: skip
def test_the_skill_spread_over_every_set_of_the_run_reads_right_for_one_set(sets, over):
    nan = float("nan")
    rows = [_row("default", "turns", 40.0, nan, nan),
            _row("default", "skill_spread", 0.5, nan, nan)]  # fmt: skip
    for r in rows:
        r["deal_sets"], r["detail"] = sets, "greedy - random"
    metrics = pd.DataFrame(rows, columns=METRIC_COLUMNS)
    said = _said(metrics, pd.DataFrame(columns=DIFF_COLUMNS))
    assert f"the best strategy beats the worst by 50.0 percentage points, {over} " in said, said


def test_the_sweep_table_says_why_a_value_has_no_interval():
    """Every game of a turn limit of 5 lasts 5 turns: no spread between the sets, and the
    measures table says so; the sweep's table of values said 'too few deals' of the same
    figure (its rows did not carry the standard error that tells the two apart)."""
    from reports.variants_sweep import Sweep, sweep_table
    from reports.variants_tables import every_metrics, sweep_rows

    nan = float("nan")
    flat = _row("turn_limit=5", "turns", 5.0, nan, nan)
    flat["se"], flat["df"] = 0.0, 14.0
    few = _row("turn_limit=5", "rounds", 1.0, nan, nan)
    few["se"], few["df"] = nan, 1.0
    metrics = pd.DataFrame([_row("default", "turns", 40.0, 39.0, 41.0),
                            _row("default", "rounds", 7.0, 6.5, 7.5), flat, few],
                           columns=METRIC_COLUMNS)  # fmt: skip
    sweep = Sweep("turn_limit", [("5", "turn_limit=5"), ("1000", "default")])
    table = sweep_table(metrics, pd.DataFrame(columns=DIFF_COLUMNS), sweep, "default")
    row = sweep_rows(table).set_index("value").loc["5"]
    cells = every_metrics(metrics).set_index(["rules", "measure"])["value"]
    assert row["turns per game"] == cells["turn_limit=5", "turns per game"]
    assert row["turns per game"] == "5.0 turns (no spread within tables)"
    assert row["rounds per game"] == "1.00 rounds (too few deals)"


def test_the_ladder_table_writes_a_small_step_as_its_measure_cell_does():
    """A step of 0.04 percentage points [+0.01, +0.07], significant: the ladder table wrote
    it '+0.0 [+0.0, +0.1]' beside 'yes', a bound read as 0 beside a step called significant;
    the measures table writes '+0.04 [+0.01, +0.07] pp'."""
    from reports.designer_measures import ladder_table
    from reports.variants_display import value_text
    from reports.variants_tables import ladder_rows

    step = _row("default", "ladder_step", 0.0004, 0.0001, 0.0007)
    step.update(position=0, detail="greedy - random", se=0.00015)
    metrics = pd.DataFrame([step], columns=METRIC_COLUMNS)
    cell = ladder_rows(ladder_table(metrics)).iloc[0]
    assert cell["significant"] == "yes"
    assert cell["difference (percentage points)"] == "+0.04 [+0.01, +0.07]"
    assert value_text(metrics.iloc[0]) == "+0.04 [+0.01, +0.07] pp"


def test_a_change_with_a_small_p_value_but_an_interval_across_zero_is_not_called_insignificant():
    """The first player's edge, clear under the default rules, is not under the variant; the
    change has Holm's p = 0.01 but an interval across 0, so it is not clear. The sentence
    called it 'not significant', which its p-value belies; it is 'not clear'."""
    seat = {"metric": "seat", "n_players": "4", "position": 0, "fair": 0.25}
    metrics = pd.DataFrame([{**_row("default", "seat", 0.03, 0.02, 0.04), **seat},
                            {**_row("v", "seat", 0.0, -0.01, 0.01), **seat}],
                           columns=METRIC_COLUMNS)  # fmt: skip
    d = {"rules": "v", "metric": "seat", "n_players": "4", "position": 0, "default": 0.03,
         "value": 0.0, "diff": -0.03, "ci_low": -0.05, "ci_high": 0.001, "se": 0.01, "df": 29.0,
         "p_value": 0.01, "p_holm": 0.01, "significant": False, "method": "paired",
         "detail": ""}  # fmt: skip
    said = _said(metrics, pd.DataFrame([d], columns=DIFF_COLUMNS))
    assert "the first player's advantage is no longer clear" in said, said
    assert "the change, -3.0 percentage points [-5.0, +0.1], is not clear)" in said, said
    assert "not significant" not in said


def test_a_difference_of_two_shares_without_spread_is_said_with_the_interval_its_cell_states():
    """A turn limit that every game reaches: unfinished games go from none to all in every
    duplicate set. The table states Newcombe's interval of that difference; the sentence gave
    the figure alone, as if it had none, and then said no spread tested it beside it: that
    interval tests it, and the change is clear."""
    metrics, diffs = _compare([_measure("unfinished", np.zeros(SETS), True)],
                              [_measure("unfinished", np.ones(SETS), True)])  # fmt: skip
    cell = every_differences(diffs)["difference"].iloc[0]
    assert cell.startswith("+100.0 [") and cell.endswith("] pp"), cell
    bounds = cell.removeprefix("+100.0 ").removesuffix(" pp")
    said = _said(metrics, diffs)
    size = bounds.replace("+", "")  # the words carry the direction: the size's interval
    assert "more games end unfinished (at the turn limit): 100.0% [" in said, said
    assert f"100.0 percentage points more {size}" in said, said


def _ladder(rules: str, steps: list[tuple[str, str, bool]]) -> pd.DataFrame:
    """A ladder table (``designer_measures.ladder_table``) whose steps are significant or not
    as ``steps`` say."""
    from reports.designer_measures import LADDER_COLUMNS

    levels = 1 + sum(s for *_, s in steps)
    return pd.DataFrame([{"rules": rules, "step": i, "upper": a, "lower": b,
                          "diff": 0.2 if s else 0.02, "ci_low": 0.1 if s else -0.05,
                          "ci_high": 0.3 if s else 0.09, "p_value": 1e-4 if s else 0.5,
                          "p_holm": 1e-4 if s else 0.5, "significant": s, "needs": 0.08,
                          "levels": levels, "rungs": len(steps) + 1, "no_spread": False}
                         for i, (a, b, s) in enumerate(steps)], columns=LADDER_COLUMNS)  # fmt: skip


@pytest.mark.parametrize(("steps", "note"), [
    ([("low", "greedy", False), ("greedy", "random", True)],
     "(low - random; low not clearly ahead of greedy)"),
    ([("low", "greedy", True), ("greedy", "random", False)],
     "(low - random; random not clearly behind greedy)"),
    ([("low", "greedy", True), ("greedy", "random", True)], "(low - random)"),
    ([("low", "random", False)], "(low - random; low not clearly ahead of random)"),
])  # fmt: skip
def test_the_best_and_the_worst_are_named_as_such_only_where_the_ladder_tells_them_apart(
    steps, note
):
    """The spread names its best and worst by the run's win rates; where the ladder's step
    below the best (or above the worst) is not significant, the sentence says that it is not
    clearly the best (the worst): it named them bare."""
    spread = _row("default", "skill_spread", 0.5, 0.4, 0.6)
    spread["detail"] = "low - random"
    metrics = pd.DataFrame([_row("default", "turns", 40.0, 39.0, 41.0), spread],
                           columns=METRIC_COLUMNS)  # fmt: skip
    said = findings(metrics, pd.DataFrame(columns=DIFF_COLUMNS), ["default", "v"], "Paired",
                    _ladder("default", steps))  # fmt: skip
    assert f"duplicate sets of the run {note}" in " ".join(t for t, _ in said)


def test_an_untested_ladder_step_leaves_the_best_unqualified():
    """A step with no p-value (too few deals, or every set alike) is not 'not clearly
    ahead': the spread's own figure says why it has no interval."""
    spread = _row("default", "skill_spread", 1.0, float("nan"), float("nan"))
    spread.update(detail="low - random", se=0.0)
    metrics = pd.DataFrame([_row("default", "turns", 40.0, 39.0, 41.0), spread],
                           columns=METRIC_COLUMNS)  # fmt: skip
    ladder = _ladder("default", [("low", "random", False)])
    ladder["p_holm"] = float("nan")
    said = " ".join(t for t, _ in findings(metrics, pd.DataFrame(columns=DIFF_COLUMNS),
                                           ["default", "v"], "Paired", ladder))  # fmt: skip
    assert "(low - random; no interval: every duplicate set gave the same value" in said, said
