"""Sentences and files that contradict the numbers beside them or the run's own rows, each
found by running small real runs and checking what they print (``test_edge72_claims``'s
checks). Each test holds the claim against the truth computed here."""

from __future__ import annotations

import re

import pandas as pd
import pytest

from tests.helpers import cli
from tests.test_edge72_claims import rows, seated


def test_precision_reached_holds_every_interval_within_the_target_on_either_side(tmp_path, capsys):
    code, said, err = cli(capsys, "tournament", "taker", "minimal", "random", "--players", "3",
                          "--games", "24", "--seed", "47", "--precision", "20", "--max-games",
                          "200", "--jobs", "1", "--out", str(tmp_path / "p"))  # fmt: skip
    assert code == 0, err
    line = re.search(r"precision \+-20 percentage points (NOT )?reached.*?widest 95% half-width "
                     r"([\d.]+)", said)  # fmt: skip
    table = re.findall(r"^│ (\S+) .*? ([\d.]+)% │ +\[([\d.]+), ([\d.]+)\]", said, re.M)
    assert line and len(table) == 3, said
    sides = [max(float(r) - float(lo), float(hi) - float(r)) for _, r, lo, hi in table]
    assert float(line.group(2)) == pytest.approx(max(sides), abs=0.06)  # the wider side
    assert (line.group(1) is None) == (max(sides) <= 20), line.group(0)


def test_a_neighbour_effect_interval_stays_within_a_hundred_points(tmp_path, capsys):
    out = tmp_path / "g"
    code, _, err = cli(capsys, "gauntlet", "low", "--against", "taker", "--baseline", "random",
                       "--players", "3", "--games", "18", "--seed", "2", "--jobs", "1",
                       "--out", str(out))  # fmt: skip
    assert code == 0, err
    from reports.neighbours import neighbours  # the library's table, as the report reads it

    t = neighbours(out).dropna(subset=["vs_elsewhere_low"])
    assert len(t) and (t["vs_elsewhere"].abs() <= 1).all()
    assert (t["vs_elsewhere_low"] >= -1).all() and (t["vs_elsewhere_high"] <= 1).all(), t


def test_two_gauntlets_are_not_said_to_share_no_table_they_share(tmp_path, capsys):
    for name, baseline in (("a", "greedy"), ("b", "low")):
        code, _, err = cli(capsys, "gauntlet", "weighted", "--against", "minimal", "--baseline",
                           baseline, "--players", "3", "--games", "24", "--seed", "3", "--jobs",
                           "1", "--out", str(tmp_path / name))  # fmt: skip
        assert code == 0, err
    mine = [_table(rows(tmp_path / name), "weighted") for name in "ab"]
    pd.testing.assert_frame_equal(*mine)  # the same deals, seats and winners at that table
    code, said, err = cli(capsys, "compare", str(tmp_path / "a"), str(tmp_path / "b"))
    assert code == 0, err
    assert "none of them at a table of the same strategies" not in said, said


def _table(df: pd.DataFrame, label: str) -> pd.DataFrame:
    """The games at the tables ``label`` sat at: deal seed, who sat where, who won."""
    games = df[seated(df, label).any(axis=1)]
    cols = ["deal_seed", "rotation", *[c for c in df if re.fullmatch(r"seat_\d+", c)], "winner"]
    return games[cols].sort_values(["deal_seed", "rotation"]).reset_index(drop=True)


def test_a_variants_difference_interval_is_the_one_its_se_and_df_state(tmp_path, capsys):
    out = tmp_path / "v"
    code, _, err = cli(capsys, "variants", "greedy", "weighted", "--rules", "take=ends",
                       "--players", "3", "--games", "48", "--seed", "1", "--jobs", "1",
                       "--trace-games", "0", "--restricted-games", "0", "--out", str(out))  # fmt: skip
    assert code == 0, err
    d = pd.read_csv(out / "variants_differences.csv")
    assert (d["metric"] == "unfinished").any()
    zero = d[(d["se"] == 0) & d["ci_low"].notna()]  # diff +- t * 0 is the point diff itself
    assert (zero["ci_low"] == zero["diff"]).all() and (zero["ci_high"] == zero["diff"]).all(), zero
