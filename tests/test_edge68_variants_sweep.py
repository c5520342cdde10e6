"""A rules designer's sweep and measures as they read them: a numeric sweep in order however
its values were typed (runs, chart, tables), the sweep chart's title inside its figure, the
skill spread's and the ladder's games counted as games (not duplicate sets), the page's sweep
table with its figures in their units and p-values as the other tables write them, and a
fixed --rules that changes no game of a sweep refused as it is alone."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from leaves.commands.variants_sweep import sweep_sets
from leaves_cli.errors import CLIError
from reports import variants_forest
from reports.data import Run
from reports.page import key_rows
from reports.variants import DIFF_COLUMNS, METRIC_COLUMNS
from reports.variants_metrics import measures
from reports.variants_page import _sweep
from reports.variants_sets import decided
from reports.variants_sweep import Sweep, sweep_table
from tests.test_variants_report import RULES_A, _latent, _play
from tests.test_visual60 import _outside

# --------------------------------------------------------------------- a sweep in order


def test_a_numeric_sweep_is_played_from_its_smallest_value_up():
    """'--sweep hand_size=10,8,9' played, and the findings read, 10, 8, 9; the points keep
    the values as given, each naming its rule set."""
    sets, points = sweep_sets("hand_size=10,8,9", (), [4], expert=False)
    assert [str(r) for r in sets[1:]] == ["hand_size=8", "hand_size=9", "hand_size=10"]
    assert points == [("10", 3), ("8", 1), ("9", 2)]
    sets, points = sweep_sets("hand_size=12,11,9", (), [4], expert=False)  # 11: today's
    assert [str(r) for r in sets[1:]] == ["hand_size=9", "hand_size=12"]
    assert points == [("12", 2), ("11", 0), ("9", 1)]


def test_a_sweep_of_words_keeps_the_order_given():
    sets, points = sweep_sets("take=nothing,ends", (), [4], expert=False)
    assert [str(r) for r in sets[1:]] == ["take=nothing", "take=ends"]
    assert points == [("nothing", 1), ("ends", 2)]


def _sweep_rows(values: list[int], band: bool = True) -> pd.DataFrame:
    nan = float("nan")
    return pd.DataFrame([dict(key="hand_size", value=str(v), x=float(v), rules=f"hand_size={v}",
                              metric="turns", n_players="all", position=-1, detail="",
                              estimate=float(v), ci_low=v - 0.5 if band else nan,
                              ci_high=v + 0.5 if band else nan, default=False)
                         for v in values])  # fmt: skip


def test_the_sweep_chart_draws_its_line_along_the_axis():
    """A table in the order 10, 8, 9 (a run swept before its values were put in order) drew
    a zig-zag: 10 -> 8 -> 9."""
    ax = variants_forest.sweep(_sweep_rows([10, 8, 9])).axes[0]
    assert list(ax.lines[0].get_xdata()) == [8.0, 9.0, 10.0]
    assert list(ax.lines[0].get_ydata()) == [8.0, 9.0, 10.0]


def test_the_sweep_chart_title_fits_where_a_panel_has_no_interval():
    """'Every measure against hand_size, with 95% bands where a run gives one (no interval:
    too few deals or no spread)' ran past both edges of the figure."""
    fig = variants_forest.sweep(_sweep_rows([8, 9, 10], band=False))
    assert "no interval" in " ".join(fig._suptitle.get_text().split())
    assert _outside(fig) == []


# ------------------------------------------------------------------ games, not sets


def test_the_skill_spread_and_the_ladder_count_games_not_duplicate_sets():
    """The skill spread's and every ladder step's games were the finished games of the
    duplicate sets the two strategies shared (24 here, each of 3 games: 72 games), as
    best_vs_random's are every game (it ranks them in an unfinished game too)."""
    g = _play(np.random.default_rng(5), RULES_A, _latent(np.random.default_rng(6)))
    ms = {m.id: m for m in measures(Run(games=g), ladder=["a", "b", "c", "d", "random"])}
    seats = g.seats[:, :3]

    def together(a: str, b: str, finished: bool = True) -> int:
        i, j = g.labels.index(a), g.labels.index(b)
        counted = decided(g) if finished else ~g.forfeited
        return int(((seats == i).any(axis=1) & (seats == j).any(axis=1) & counted).sum())

    spread = ms[("skill_spread", "all", -1)]
    assert spread.games == together("a", "random") == 72 and spread.u.size == 24
    assert ms[("best_vs_random", "all", -1)].games == together("a", "random", False) == 72
    steps = [m for m in ms.values() if m.metric == "ladder_step"]
    assert len(steps) == 4
    for m in steps:
        assert m.games == together(*m.detail.split(" - ")) <= 3 * m.u.size
    c_d = next(m for m in steps if m.detail == "c - d")  # 3 of its games were unfinished
    assert c_d.games == together("c", "d", False) - 3 == 69


# ----------------------------------------------------------------- the page's sweep table


def _tables() -> dict[str, pd.DataFrame]:
    def row(rules: str, value: float, lo: float, hi: float) -> dict:
        return {"rules": rules, "metric": "seat", "n_players": "4", "position": 0,
                "value": value, "ci_low": lo, "ci_high": hi, "se": 0.004, "df": 99.0,
                "deal_sets": 100, "games": 2400, "fair": 0.25, "detail": "",
                "conservative": False}  # fmt: skip

    metrics = pd.DataFrame([row("default", 0.025, 0.017, 0.033), row("hand_size=8", 0.1, 0.09,
                            0.11)], columns=METRIC_COLUMNS)  # fmt: skip
    diffs = pd.DataFrame([{"rules": "hand_size=8", "metric": "seat", "n_players": "4",
                           "position": 0, "default": 0.025, "value": 0.1, "diff": 0.075,
                           "ci_low": 0.065, "ci_high": 0.085, "se": 0.005, "df": 99.0,
                           "p_value": 7e-95, "p_holm": 7e-94, "significant": True,
                           "method": "paired", "detail": ""}], columns=DIFF_COLUMNS)  # fmt: skip
    sweep = Sweep("hand_size", [("11", "default"), ("8", "hand_size=8")])  # as typed
    return {"variants_metrics": metrics, "variants_differences": diffs,
            "variants_sweep": sweep_table(metrics, diffs, sweep, "default")}  # fmt: skip


def test_the_page_writes_the_sweep_table_with_its_figures_in_their_units():
    """The page's sweep table was the CSV's: a preview of labels alone (key | value | x |
    rules | metric | n_players | position), p_holm 0.000000 for 7e-94, the first player's
    edge 0.025 with no unit."""
    (section,) = _sweep(_tables())
    t = dict(section.tables)["variants_sweep"]
    assert list(t.columns) == ["hand_size", "measure", "estimate", "difference to today's",
                               "p (Holm)", "clear"]  # fmt: skip
    assert t["hand_size"].tolist() == ["8", "11"]  # along the axis, as the chart
    assert dict(section.tables)["variants_sweep_values"]["value"].tolist() == ["8", "11"]
    assert "hand_size (8, 11)" in section.text
    at = t.set_index("hand_size")
    assert at.loc["8", "p (Holm)"] == "< 1e-16"
    assert at.loc["8", "estimate"] == "+10.0 [+9.0, +11.0] pp"
    assert at.loc["8", "difference to today's"] == "+7.5 [+6.5, +8.5] pp"
    assert at.loc["8", "clear"] == "yes"
    assert at.loc["11", "estimate"] == "+2.5 [+1.7, +3.3] pp"
    assert at.loc["11", "difference to today's"] == "today's rules"
    assert at.loc["11", "p (Holm)"] == at.loc["11", "clear"] == ""
    preview, _ = key_rows("variants_sweep", t)
    assert "estimate" in preview.columns and "difference to today's" in preview.columns


# ------------------------------------------------------------ a fixed rule that does nothing


def test_a_fixed_rule_that_changes_no_game_of_the_sweep_is_refused():
    """'--sweep take=ends,nothing --rules expert_target=30' without --expert played, labelled
    'take=ends, expert_target=30', though '--rules expert_target=30' alone is refused."""
    with pytest.raises(CLIError) as exc:
        sweep_sets("take=ends,nothing", ("expert_target=30",), [4], expert=False)
    said = str(exc.value)
    assert said.startswith("--rules expert_target=30 changes no game of --sweep take at 4 "
                           "players (expert_target ends a match, never a game: --expert plays "
                           "matches)"), said  # fmt: skip


def test_a_fixed_rule_that_changes_the_games_is_kept():
    sweep_sets(
        "take=ends,nothing", ("expert_target=30",), [4], expert=True
    )  # matches: it ends them
    sets, _ = sweep_sets("hand_size=8,9", ("take=ends",), [4], expert=False)
    assert [str(r) for r in sets[1:]] == ["hand_size=8, take=ends", "hand_size=9, take=ends"]
