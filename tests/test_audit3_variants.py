"""The designer's workbench (``leaves variants``) at its edges: each test runs a small case
whose truth is known (the files written, the docs' own definitions) and checks the page or the
sentence against it."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from leaves_cli.main import cli
from tests.helpers import usage_error

DOCS = Path(__file__).resolve().parents[1] / "docs" / "variants.md"


def _variants(out: Path, *extra: str, field: tuple[str, ...] = ("weighted", "taker", "greedy",
              "random"), rules: str = "hand_size=9", restricted: int = 0) -> str:  # fmt: skip
    """``leaves variants`` of ``field`` against ``rules``, one deal a table, seed 1."""
    res = CliRunner().invoke(cli, ["variants", *field, "--rules", rules, "--games", "1",
                                   "--seed", "1", "--jobs", "1", "--trace-games", "0",
                                   "--restricted-games", str(restricted), "--out", str(out),
                                   *extra])  # fmt: skip
    assert res.exit_code == 0, res.output
    return res.output


def _default_field(out: Path, rules: str, restricted: int) -> None:
    """The default field (``low`` too) against ``rules``, its page in Markdown."""
    field = ("weighted", "taker", "greedy", "low", "random")
    _variants(out, "--format", "md", field=field, rules=rules, restricted=restricted)


def test_every_csv_the_page_links_is_written(tmp_path):
    """The page's first section links variants_overview.csv (its table of every difference),
    but only the later sections' tables were written: a dead link (the Markdown page is the
    faster to build; the HTML one lists the same sections)."""
    out = tmp_path / "o"
    _variants(out, "--format", "md")
    text = (out / "report.md").read_text(encoding="utf-8")
    linked = set(re.findall(r"\(([\w.-]+\.csv)\)", text))
    assert "variants_overview.csv" in linked
    missing = sorted(name for name in linked if not (out / name).exists())
    assert not missing, f"report.md links files never written: {missing}"


def test_the_skill_spread_is_defined_as_computed(tmp_path):
    """Five strategies at four seats: weighted and random share only some tables. The spread
    is the mean, over the duplicate sets where both sat, of their win-rate difference, not the
    difference of their run-wide win rates; the guide's table said the latter."""
    _default_field(tmp_path / "o", "hand_size=9", 0)
    g = pd.read_parquet(tmp_path / "o" / "default" / "games")
    seats = [c for c in g.columns if c.startswith("seat_") and g[c].notna().any()]
    rows = pd.concat(pd.DataFrame({"s": g[c].astype(str), "w": g["winner_seat"] == i,
                                   "t": g["table"], "d": g["deal"]})
                     for i, c in enumerate(seats))  # fmt: skip
    per_set = rows.groupby(["t", "d", "s"])["w"].mean().unstack()
    both = per_set[["weighted", "random"]].dropna()
    truth = (both["weighted"] - both["random"]).mean()
    overall = rows.groupby("s")["w"].mean()
    assert abs(truth - (overall["weighted"] - overall["random"])) > 0.01  # they differ here
    m = pd.read_csv(tmp_path / "o" / "variants_metrics.csv")
    got = m.loc[(m["rules"] == "default") & (m["metric"] == "skill_spread"), "value"]
    assert abs(float(got.iloc[0]) - truth) < 1e-9
    row = next(line for line in DOCS.read_text().splitlines() if line.startswith("| skill spread"))
    assert "duplicate sets where both sat" in row, row


def test_a_variant_that_plays_as_today_is_refused_before_any_game(capsys, tmp_path):
    """At 4 players hand_size=11 is today's hand: --sweep merges such a value into today's run
    and refuses a sweep of nothing else, but --rules hand_size=11 played a whole second run of
    the same games to say 'every measure is the same'. One check (``plays_as``) for both."""
    from leaves.commands.variants_sweep import plays_as
    from leaves.ruleset import DEFAULT_RULES, Rules

    assert plays_as(Rules.parse("hand_size=11"), DEFAULT_RULES, [4])  # the truth
    for rules in ("hand_size=11", "hand_size=4:11,take=any"):
        out = tmp_path / rules
        err = usage_error(capsys, ["variants", "low", "weighted", "--rules", rules, "--players",
                                "4", "--games", "1", "--out", str(out)])  # fmt: skip
        assert "plays as today's rules at 4 players" in err, err
        assert not out.exists()
    # at 3 and 4 players hand_size=11 deals 11 cards, not today's 12, at 3: a real variant
    assert not plays_as(Rules.parse("hand_size=11"), DEFAULT_RULES, [3, 4])


def test_two_variants_that_play_alike_are_refused(capsys, tmp_path):
    """hand_size=9 and hand_size=4:9 deal the same hands at 4 players: one run twice."""
    err = usage_error(capsys, ["variants", "low", "weighted", "--rules", "hand_size=9", "--rules",
                            "hand_size=4:9", "--players", "4", "--games", "1",
                            "--out", str(tmp_path / "o")])  # fmt: skip
    assert "plays as --rules 'hand_size=9' at 4 players" in err, err
    assert not (tmp_path / "o").exists()


def test_two_sweep_values_that_play_alike_are_refused():
    """hand_size=9 and 4:9 deal the same hands at 4 players: the sweep played one run twice
    as two points (the check asked only whether the rule sets were equal)."""
    from leaves.commands.variants_sweep import sweep_sets
    from leaves_cli.errors import CLIError

    with pytest.raises(CLIError, match="the value 4:9 plays as 9 at 4 players"):
        sweep_sets("hand_size=9,4:9", (), [4])
    sets, _ = sweep_sets("hand_size=9,3:10/4:9", (), [3, 4])  # 10 cards, not 9, at 3 players
    assert len(sets) == 3


def _chart_rows() -> pd.DataFrame:
    """Two rule sets: today's with an interval, the variant's too few deals for one (NaN)."""
    return pd.DataFrame({
        "rules": ["default", "hand_size=9"], "metric": ["lead_changes"] * 2,
        "n_players": ["all"] * 2, "position": [-1, -1], "value": [5.0, 4.0],
        "ci_low": [4.5, np.nan], "ci_high": [5.5, np.nan], "detail": [np.nan, np.nan],
    })  # fmt: skip


def test_a_chart_draws_no_interval_where_there_is_none():
    """Too few deals for an interval: the bar chart drew a zero-width error bar at the value
    under the legend '95% interval', which reads as an exact figure; now no bar, and the
    rule set's label says there is no interval."""
    from matplotlib.collections import LineCollection

    from reports.variants_charts import measure

    fig = measure(_chart_rows(), "lead_changes")
    ax = fig.axes[0]
    spans = [seg for c in ax.collections if isinstance(c, LineCollection)
             for seg in c.get_segments()]  # fmt: skip
    assert len(spans) == 1 and abs(spans[0][0][0] - 4.5) < 1e-9  # today's interval only
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert any("hand_size=9" in t and "no interval" in t for t in labels), labels
    assert not any("default" in t and "no interval" in t for t in labels), labels


def test_never_passing_changes_no_game_where_random_does_not_sit(tmp_path):
    """The guide said that on 400 games of today's rules weighted 'won exactly as often' with
    the no-pass restriction as without. In the default field random sits at about half of
    the tables and draws other dice on the Python path, so those outcomes move; the claim
    holds only where random does not sit, which the guide now says."""
    _default_field(tmp_path / "o", "take=ends", 72)
    run = tmp_path / "o" / "default"
    r = pd.read_csv(run / "designer_restricted.csv")
    g = pd.read_parquet(run / "games")
    seats = [c for c in g.columns if c.startswith("seat_")]
    r = r[r["restriction"] == "no_pass"].merge(g[["game", *seats]], on="game")
    without = ~r[seats].astype(str).eq("random").any(axis=1)
    assert without.any()
    same = r.loc[without]
    assert (same["base_win"] == same["restricted_win"]).all()  # the truth the guide states
    text = " ".join(DOCS.read_text().split())
    assert "won exactly as often" not in text
    assert "where `random` does not sit" in text
