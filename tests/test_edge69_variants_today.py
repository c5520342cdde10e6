"""A sweep whose run mixes table sizes marks today's rules per value and size: with
``--players 3,5``, ``hand_size=10`` is today's hand at 5 players and ``hand_size=12`` at 3,
yet every row of variants_sweep.csv said ``default=False``, the chart drew no ring and the page
said 'no value swept plays as today's rules'. Now a value's rows at a size where it plays as
today's (``Sweep.todays``) are today's, 0 with no interval to them, ringed on that size's
line, and the page's sentence says which value at which size."""

from __future__ import annotations

import pandas as pd
import pytest

from reports import variants_forest
from reports.variants_page import _sweep
from reports.variants_sweep import Sweep, sweep_table
from tests.helpers import variants_diffs, variants_metrics

VALUES = ("10", "11", "12")
TODAYS = {"10": (5,), "11": (), "12": (3,)}  # as 13 Leaves deals: 12 cards to 3, 10 to 5
AT = (("turns", "all", -1), ("turns", "3", -1), ("turns", "5", -1), ("seat", "3", 0),
      ("seat", "5", 0))  # fmt: skip


def _tables(todays: dict[str, tuple[int, ...]] = TODAYS, whole: str | None = None) -> dict:
    """Turns over all tables and per size, and the first player's edge per size, for the
    points 10, 11, 12 (``whole``: a value that is the default run itself)."""
    points = [(v, "default" if v == whole else f"hand_size={v}") for v in VALUES]
    rows = [(rules, metric, n, pos, 40.0 + i + (n == "5") * 20, 39.0 + i, 41.0 + i + 20)
            for i, (_, rules) in enumerate(points) for metric, n, pos in AT]  # fmt: skip
    diffs = [(rules, metric, n, pos, 1.0, 0.5, 1.5, True)
             for _, rules in points if rules != "default" for metric, n, pos in AT]  # fmt: skip
    metrics, d = variants_metrics(rows), variants_diffs(diffs)
    d["detail"], d["default"], d["value"] = "", 0.0, 0.0
    sweep = Sweep("hand_size", points, todays)
    return {"variants_metrics": metrics, "variants_differences": d,
            "variants_sweep": sweep_table(metrics, d, sweep, "default")}  # fmt: skip


def test_the_table_marks_today_per_value_and_table_size():
    t = _tables()["variants_sweep"]
    today = t[t["default"]]
    assert sorted(zip(today["value"], today["n_players"], strict=True)) == [
        ("10", "5"),
        ("10", "5"),
        ("12", "3"),
        ("12", "3"),
    ]  # turns and the seat, at each
    assert not t.loc[t["n_players"] == "all", "default"].any()  # no value is today's at both
    assert (today["diff"] == 0).all() and today[["diff_ci_low", "diff_ci_high"]].isna().all().all()
    assert not today["significant"].any() and today["p_holm"].isna().all()
    other = t[~t["default"]]  # every other row keeps its difference to today's
    assert (other["diff"] == 1.0).all() and other["significant"].all()


def test_without_sizes_a_variant_is_never_today():
    t = _tables(todays={})["variants_sweep"]
    assert not t["default"].any()


def test_the_page_says_which_value_is_ringed_at_which_size():
    (section,) = _sweep(_tables())
    assert section.lead == (
        "Each measure against hand_size; a ring on a table size's line marks a value that "
        "plays as today's rules at that size (10 at 5 players, 12 at 3 players); no value "
        "plays as today's at every size, so a measure over all tables has no ring."
    )
    page = dict(section.tables)["variants_sweep"]
    today = page["difference to today's"] == "today's rules"
    assert today.sum() == 4 and (page.loc[today, "clear"] == "").all()


def test_the_page_names_the_value_that_is_today_and_a_size_alone_beside_it():
    (section,) = _sweep(_tables(todays={"10": (5,)}, whole="11"))
    assert section.lead == (
        "Each measure against hand_size; the ring marks the value played as today's rules; a "
        "ring on a table size's line, a value that plays as today's at that size only (10 at "
        "5 players)."
    )
    (none,) = _sweep(_tables(todays={}))
    assert none.lead.endswith("no value swept plays as today's rules (their run, the baseline "
                              "of every difference, is not drawn).")  # fmt: skip


def _rings(ax) -> list[tuple[float, float]]:
    """The ringed points of a panel (hollow, larger than a line's markers)."""
    return [(float(x), float(y)) for line in ax.lines if line.get_markerfacecolor() == "none"
            for x, y in zip(line.get_xdata(), line.get_ydata(), strict=True)]  # fmt: skip


def test_the_chart_rings_today_on_that_sizes_line():
    fig = variants_forest.sweep(_tables()["variants_sweep"])
    turns, seat = fig.axes[0], fig.axes[1]
    # turns at 3 players: 40 + i; at 5 players: 60 + i (i the value's place, 0 for 10)
    assert sorted(_rings(turns)) == [(10.0, 60.0), (12.0, 42.0)]
    assert sorted(_rings(seat)) == [(10.0, 6000.0), (12.0, 4200.0)]  # in percentage points


def test_a_sweep_keeps_its_points_and_todays_apart():
    sweep = Sweep("hand_size", [("12", "hand_size=12")], {"12": (3,)})
    assert sweep.plays_today("12", "hand_size=12", "default", "3")
    assert not sweep.plays_today("12", "hand_size=12", "default", "5")
    assert not sweep.plays_today("12", "hand_size=12", "default", "all")
    assert sweep.plays_today("11", "default", "default", "all")
    assert Sweep("k", []).todays == {}  # a sweep of one table size names none


@pytest.mark.slow
def test_the_command_marks_todays_value_at_each_size(tmp_path, capsys):
    """``leaves variants`` hands the report which sizes each value plays as today's at (the
    page said 'no value swept plays as today's rules' of 10 at 5 players and 12 at 3)."""
    from tests.helpers import cli

    out = tmp_path / "s"
    code, _, _ = cli(capsys, "variants", "taker", "greedy", "--sweep", "hand_size=10..12",
                     "--players", "3,5", "--games", "100", "--seed", "2", "--jobs", "1",
                     "--trace-games", "0", "--restricted-games", "0", "--out", str(out))  # fmt: skip
    assert code == 0
    rows = pd.read_csv(out / "variants_sweep.csv")
    today = rows[rows["default"]]
    assert set(zip(today["value"], today["n_players"].astype(str), strict=True)) == {
        (10, "5"), (12, "3")}  # fmt: skip
    page = (out / "report.html").read_text()
    assert "(10 at 5 players, 12 at 3 players)" in page
