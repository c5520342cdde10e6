"""The words of the variants, meta-game and gauntlet pages against the figures beside them:
each sentence is built from small synthetic tables (or a tiny run) whose truth is known, and
checked for the sign, unit, rounding and direction its table shows."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from reports.numbers import PERCENTAGE_POINTS
from tests.helpers import VARIANT_LABELS as LABELS
from tests.helpers import variants_diffs, variants_metrics

# --- the variants page's leads -----------------------------------------------------------------


def _page_rows(metrics: pd.DataFrame, diffs: pd.DataFrame):
    from reports.variants_page import Rows

    return Rows({"variants_metrics": metrics, "variants_differences": diffs})


def test_the_seat_lead_writes_each_edge_as_its_table_does_signed_and_in_its_unit():
    from reports.variants_page import _seat_lead
    from reports.variants_tables import seat_table

    metrics = variants_metrics([("default", "seat", "4", 0, 0.008, -0.009, 0.025),
                                ("hand_size=9", "seat", "4", 0, -0.012, -0.03, 0.006)])  # fmt: skip
    diffs = variants_diffs([("hand_size=9", "seat", "4", 0, -0.02, -0.04, 0.0, False)])
    lead = _seat_lead(_page_rows(metrics, diffs), LABELS)
    cells = seat_table(metrics, diffs, LABELS)["first"].tolist()
    assert cells == ["+0.8 [-0.9, +2.5] pp", "-1.2 [-3.0, +0.6] pp"]
    assert f"default +0.8 [-0.9, +2.5] {PERCENTAGE_POINTS}" in lead
    assert f"hand_size=9 -1.2 [-3.0, +0.6] {PERCENTAGE_POINTS}" in lead
    assert lead.count(PERCENTAGE_POINTS) == 2  # each figure with its unit, not a bare heading


def test_every_topic_lead_writes_its_figures_as_the_table_beside_it():
    from reports.variants_page import TOPICS, _lead
    from reports.variants_tables import by_rules

    rows = [("default", "turns", "all", -1, 44.04, 43.31, 44.62),
            ("hand_size=9", "turns", "all", -1, 37.1, 36.5, 37.7),
            ("default", "skill_spread", "all", -1, 0.567, 0.518, 0.616),
            ("hand_size=9", "skill_spread", "all", -1, 0.504, 0.449, 0.56),
            ("default", "shared_wins", "all", -1, 0.123, 0.101, 0.145),
            ("hand_size=9", "shared_wins", "all", -1, 0.2, np.nan, np.nan)]  # fmt: skip
    metrics = variants_metrics(rows)
    metrics.loc[5, "df"] = 2.0  # too few deals for an interval
    diffs = variants_diffs([])
    page = _page_rows(metrics, diffs)
    leads = {t[-1][0]: _lead(page, LABELS, *t[-1][:2]) for t in TOPICS}
    for metric in ("turns", "skill_spread", "shared_wins"):
        table = by_rules(metrics, diffs, LABELS, [(metric, "all", -1)])
        for rules, cell in zip(table["rules"], table.iloc[:, 1], strict=True):
            said = cell.replace(" pp", f" {PERCENTAGE_POINTS}")
            assert f"{rules} {said}" in leads[metric], (leads[metric], cell)
    assert "default 44.0 [43.3, 44.6] turns" in leads["turns"]
    assert f"default +56.7 [+51.8, +61.6] {PERCENTAGE_POINTS}" in leads["skill_spread"]
    assert "hand_size=9 20.0% (too few deals)" in leads["shared_wins"]


# --- the meta-game's cells and lead ------------------------------------------------------------


def _mix(weights, lo, hi, gains, same=0.95, regret=0.0) -> pd.DataFrame:
    k = len(weights)
    return pd.DataFrame({"strategy": list("abcdef"[:k]), "weight": weights, "ci_low": lo,
                         "ci_high": hi, "in_support": [1.0] * k, "payoff": [0.3] * k,
                         "gain": gains, "regret": regret, "replicates": 200,
                         "same_support": same, "at_rest": True,
                         "replicates_at_rest": 1.0})  # fmt: skip


def test_the_meta_game_gain_cell_has_one_decimal_as_every_other_difference_cell():
    from reports.metagame_text import readable
    from reports.page import readable as page_readable

    mix = _mix([0.6, 0.4, 0.0], [0.5, 0.3, 0.0], [0.7, 0.5, 0.02], [0.0, -0.0004, -0.0123],
               regret=0.00004)  # fmt: skip
    shown = readable("metagame_mix", mix)
    assert shown["gain"].tolist() == ["+0.0 pp", "+0.0 pp", "-1.2 pp"]  # never '-0.0'
    assert shown["regret"].tolist() == ["+0.0 pp"] * 3
    other = page_readable("significance", pd.DataFrame({"diff": [-0.0123]}))["diff"][0]
    assert other == shown["gain"][2]  # the same difference, the same cell


# --- the gauntlet's head-to-head table ---------------------------------------------------------


@pytest.fixture(scope="module")
def gauntlet_run(tmp_path_factory):
    """A tiny gauntlet: greedy, and taker on copies of greedy's deals, against two weighted."""
    from tests.helpers import cli_output

    out = tmp_path_factory.mktemp("g61") / "g"
    code, _, err = cli_output("gauntlet", "greedy", "--against", "weighted", "--baseline",
                              "taker", "--players", "3", "--games", "60", "--seed", "3",
                              "--out", str(out))  # fmt: skip
    assert code == 0, err
    return out


def test_the_gauntlets_head_to_head_says_why_strategy_and_baseline_have_no_cell(gauntlet_run):
    from reports.loading import as_run
    from reports.report import compute_tables
    from reports.sections import sections

    run = as_run(gauntlet_run)
    tables, method = compute_tables(run)
    h2h = tables["head_to_head"]
    pair = {("greedy", "taker"), ("taker", "greedy")}
    assert not pair & set(zip(h2h["strategy"], h2h["opponent"], strict=True))  # the truth
    (sec,) = [s for s in sections(tables, method, run.declaration) if s.title == "Head to head"]
    assert "greedy and taker never share a table" in sec.lead
    assert "blank" in sec.lead and "Gauntlet" in sec.lead


def _meta_tables(mix: pd.DataFrame, masses=(0.704, 0.296)) -> dict[str, pd.DataFrame]:
    pay = pd.DataFrame({"table": ["a+b"], "deal_sets": [20], "players": [2], "n_a": [1],
                        "n_b": [1]})  # fmt: skip
    rank = pd.DataFrame({"strategy": ["a", "b"], "mass": list(masses), "ci_low": [0.612, 0.2],
                         "ci_high": [0.8, 0.388], "first": [0.975, 0.025], "alpha": 8.0,
                         "replicates": 200})  # fmt: skip
    return {"metagame_payoffs": pay, "metagame_mix": mix, "metagame_alpharank": rank}


def test_the_meta_game_lead_rounds_as_its_tables_and_the_finding_do():
    from reports.findings import metagame_finding
    from reports.metagame_text import metagame_lead, readable

    mix = _mix([0.605, 0.395], [0.504, 0.288], [0.712, 0.496], [0.0, 0.0], same=0.995)
    tables = _meta_tables(mix)
    lead = metagame_lead(tables)
    shown = readable("metagame_mix", mix)
    assert shown["weight"].tolist() == ["60.5%", "39.5%"] and shown["same_support"][0] == "99.5%"
    assert "The stable mix is a 60.5% [50.4, 71.2] and b 39.5% [28.8, 49.6]" in lead
    assert "in 99.5% of 200 bootstrap replicates" in lead  # not '100%': one replicate differs
    mass = readable("metagame_alpharank", tables["metagame_alpharank"])
    assert mass["mass"][0] == "70.4%" and "a first with 70.4% of the mass [61.2, 80.0]" in lead
    assert "first in 97.5% of 200 bootstrap replicates" in lead
    (finding,) = metagame_finding(tables)
    assert "a 60.5% [50.4, 71.2]" in finding.text  # the page's finding says the same figures


# --- the variants' findings --------------------------------------------------------------------


def _seat_findings(default: tuple, variant: tuple, diff: tuple, clear: bool = True) -> str:
    from reports.variants_text import findings

    metrics = variants_metrics([("default", "seat", "4", 0, *default),
                                ("hand_size=9", "seat", "4", 0, *variant)])  # fmt: skip
    diffs = variants_diffs([("hand_size=9", "seat", "4", 0, *diff, clear)])
    return findings(metrics, diffs, LABELS, "Paired")[0][0]


def test_a_growing_disadvantage_is_not_called_a_growing_edge():
    # the first player is clearly behind its fair share under both rule sets, more so under the
    # variant: its win rate falls from 23.0% to 20.0%
    said = _seat_findings((-0.02, -0.03, -0.01), (-0.05, -0.06, -0.04), (-0.03, -0.04, -0.02))
    assert "the first player's disadvantage grows by 3.0 percentage points [2.0, 4.0]" in said
    assert "wins 20.0% [19.0, 21.0] against 23.0% [22.0, 24.0]" in said
    said = _seat_findings((-0.05, -0.06, -0.04), (-0.02, -0.03, -0.01), (0.03, 0.02, 0.04))
    assert "the first player's disadvantage shrinks by 3.0 percentage points [2.0, 4.0]" in said
    said = _seat_findings((0.03, 0.02, 0.04), (0.01, 0.005, 0.015), (-0.02, -0.03, -0.01))
    assert "the first player's edge shrinks by 2.0 percentage points [1.0, 3.0]" in said
    said = _seat_findings((0.02, 0.01, 0.03), (0.06, 0.05, 0.07), (0.04, 0.03, 0.05))
    assert "the first player's edge grows by 4.0 percentage points [3.0, 5.0]" in said


def test_an_edge_clear_under_neither_rule_set_rises_or_falls_but_neither_grows_nor_shrinks():
    # +1.0 under the default rules, -1.0 under the variant, neither clear of 0: the edge's size
    # is the same, its value 2.0 percentage points lower
    said = _seat_findings((0.01, -0.005, 0.025), (-0.01, -0.025, 0.005), (-0.02, -0.03, -0.01))
    assert "the first player's edge falls by 2.0 percentage points [1.0, 3.0]" in said
    said = _seat_findings((-0.01, -0.025, 0.005), (0.01, -0.005, 0.025), (0.02, 0.01, 0.03))
    assert "the first player's edge rises by 2.0 percentage points [1.0, 3.0]" in said


def test_the_method_sentence_counts_one_measure_in_the_singular():
    from reports.variants_text import findings

    metrics = variants_metrics([("default", "turns", "all", -1, 44.0, 43.0, 45.0),
                                ("hand_size=9", "turns", "all", -1, 40.0, 39.0, 41.0)])  # fmt: skip
    diffs = variants_diffs([("hand_size=9", "turns", "all", -1, -4.0, -5.0, -3.0, True)])
    said = findings(metrics, diffs, LABELS, "Paired")[-1][0]
    assert "after Holm's correction over the variant's 1 measure and its" in said
    three = ["default", "hand_size=9", "take=nothing"]
    metrics = pd.concat([metrics, variants_metrics([
        ("take=nothing", "turns", "all", -1, 40.0, 39.0, 41.0),
        ("take=nothing", "rounds", "all", -1, 5.0, 4.0, 6.0)])])  # fmt: skip
    diffs = pd.concat([diffs, variants_diffs([
        ("take=nothing", "turns", "all", -1, -4.0, -5.0, -3.0, True),
        ("take=nothing", "rounds", "all", -1, -1.0, -1.5, -0.5, True)])])  # fmt: skip
    said = findings(metrics, diffs, three, "Paired")[-1][0]
    assert "each variant's measures (1 for hand_size=9, 2 for take=nothing)" in said


def test_a_clear_difference_without_spread_says_so_not_too_few_deals():
    from reports.numbers import TOO_FEW
    from reports.variants_text import findings

    # every one of 40 duplicate sets: games 2 turns shorter, so no interval, and the sign test
    # makes the difference clear; the run had deals enough (40 degrees of freedom)
    metrics = variants_metrics([
        ("default", "turns", "all", -1, 44.0, 43.0, 45.0),
        ("hand_size=9", "turns", "all", -1, 42.0, 41.0, 43.0),
        ("default", "runner_up", "all", -1, 3.3, 3.2, 3.4),
        ("hand_size=9", "runner_up", "all", -1, 3.0, 2.9, 3.1)])  # fmt: skip
    diffs = variants_diffs(
        [
            ("hand_size=9", "turns", "all", -1, -2.0, np.nan, np.nan, True),
            ("hand_size=9", "runner_up", "all", -1, -0.3, np.nan, np.nan, True),
        ]
    )
    diffs["se"], diffs["deal_sets"] = 0.0, 41
    said = " ".join(t for t, _ in findings(metrics, diffs, LABELS, "Paired"))
    assert TOO_FEW not in said
    assert "games are 2.0 turns shorter (no interval: every duplicate set gave the same" in said
    assert "0.30 cards fewer (no interval: every duplicate set gave the same" in said


@pytest.mark.parametrize(
    ("se", "df", "why"),
    [(0.0, 40.0, "no interval: every duplicate set"), (0.01, 3.0, "too few deals for an interval")],
)
def test_an_unclear_change_without_an_interval_says_why_never_nan(se, df, why):
    from reports.variants_text import findings

    metrics = variants_metrics([("default", "seat", "4", 0, 0.03, 0.02, 0.04),
                                ("hand_size=9", "seat", "4", 0, 0.01, -0.005, 0.025)])  # fmt: skip
    diffs = variants_diffs([("hand_size=9", "seat", "4", 0, -0.02, np.nan, np.nan, False)])
    diffs["se"], diffs["df"], diffs["deal_sets"] = se, df, df + 1
    said = findings(metrics, diffs, LABELS, "Paired")[0][0]
    assert "nan" not in said
    assert f"the change, -2.0 percentage points ({why}" in said


def test_a_clear_difference_too_small_for_one_decimal_is_not_written_as_zero():
    from reports.variants_display import diff_text, value_text
    from reports.variants_text import findings

    # 0.03% of the variant's games end unfinished, none of the default rules': clear, and both
    # the words and the table must show it apart from 0, and on its side of 0
    metrics = variants_metrics([
        ("default", "unfinished", "all", -1, 0.0, 0.0, 0.00001),
        ("hand_size=9", "unfinished", "all", -1, 0.0003, 0.0002, 0.0004),
        ("default", "turns", "all", -1, 44.0, 43.0, 45.0),
        ("hand_size=9", "turns", "all", -1, 43.96, 42.96, 44.96)])  # fmt: skip
    diffs = variants_diffs([
        ("hand_size=9", "unfinished", "all", -1, 0.0003, 0.0002, 0.0004, True),
        ("hand_size=9", "turns", "all", -1, -0.04, -0.07, -0.01, True)])  # fmt: skip
    said = " ".join(t for t, _ in findings(metrics, diffs, LABELS, "Paired"))
    assert "0.03% [0.02, 0.04] against 0.00%, 0.03 percentage points more [0.02, 0.04]" in said
    assert "games are 0.04 turns shorter [0.01, 0.07] (43.96 turns against 44.00 turns)" in said
    assert value_text(metrics.iloc[1]) == "0.03% [0.02, 0.04]"  # the table's value, as said
    # an interval from 0 to 0.001%: its bounds differ, so they never read alike
    assert value_text(metrics.iloc[0]) == "0.000% [0.000, 0.001]"
    cells = [diff_text(r) for _, r in diffs.iterrows()]
    assert cells == ["+0.03 [+0.02, +0.04] pp *", "-0.04 [-0.07, -0.01] turns *"]
    unclear = diffs.iloc[0].copy()
    unclear["ci_low"], unclear["significant"] = -0.0001, False
    # across 0, narrower than a tenth: the decimals that show it across 0, never '[+0.0, +0.0]'
    assert diff_text(unclear) == "+0.03 [-0.01, +0.04] pp"
    unclear["ci_low"], unclear["ci_high"] = -0.0001, 0.002  # wider: still its side of 0 shown
    assert diff_text(unclear) == "+0.03 [-0.01, +0.20] pp"


def test_an_advantage_that_clearly_grows_is_not_said_gone_for_a_wide_interval():
    # the variant's own interval is wide enough to hold 0, but the paired change is clearly
    # upwards: the advantage grows, it is not said to be gone
    said = _seat_findings((0.02, 0.01, 0.03), (0.04, -0.005, 0.085), (0.02, 0.01, 0.03))
    assert "no longer shown" not in said
    assert "the first player's edge grows by 2.0 percentage points [1.0, 3.0]" in said
    said = _seat_findings((0.02, 0.01, 0.03), (0.005, -0.005, 0.015), (-0.015, -0.02, -0.01))
    # towards 0 and clear: it shrinks and is no longer shown, never shown to be gone
    assert ("the first player's advantage shrinks by 1.5 percentage points [1.0, 2.0] and "
            "is no longer shown") in said  # fmt: skip
    assert "vanish" not in said


def test_an_advantage_appears_only_with_a_clear_change_towards_it():
    # unclear under the default rules (+1.0, a wide interval), clear under the variant (+0.8,
    # a narrow one), and the paired change clearly down: nothing appeared, the edge fell
    said = _seat_findings((0.01, -0.005, 0.025), (0.008, 0.001, 0.015), (-0.002, -0.003, -0.001))
    assert "appears" not in said
    assert "the first player's edge falls by 0.2 percentage points [0.1, 0.3]" in said
    said = _seat_findings((0.0, -0.01, 0.01), (0.02, 0.01, 0.03), (0.02, 0.01, 0.03))
    assert "a first-player advantage appears" in said
