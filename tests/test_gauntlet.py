"""Gauntlets: seatings, the paired comparison with a baseline, determinism, the command."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import reports
import tournaments
from leaves_cli.main import main
from reports.gauntlet import field_words, sentences
from reports.synthetic import synthetic_games
from tournaments.gauntlet import Gauntlet, field_groups
from tournaments.seating import is_balanced

ROOT = Path(__file__).resolve().parents[1]


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(["gauntlet", *args])
        raise SystemExit(0)
    out, err = capsys.readouterr()
    return int(exc.value.code or 0), out, err


@given(st.integers(1, 6), st.integers(2, 5))
def test_field_groups_fill_the_seats(n_field, seats):
    groups = field_groups(range(10, 10 + n_field), seats)
    for g in groups:
        assert len(g) == seats and set(g) <= set(range(10, 10 + n_field))
    if n_field >= seats:  # every combination of the field
        assert groups == list(itertools.combinations(range(10, 10 + n_field), seats))
    else:  # the whole field, repeated in turn
        assert len(groups) == 1 and set(groups[0]) == set(range(10, 10 + n_field))


@pytest.mark.parametrize("field, players", [(["taker"], 4), (["taker", "low"], 4),
                                            (["taker", "low", "high", "greedy"], 3)])  # fmt: skip
def test_seatings_are_balanced_and_the_baseline_mirrors_the_strategy(field, players):
    g = Gauntlet("counter", field, players=players, games=100, seed=0)
    me, other = g.labels.index("counter"), g.labels.index("weighted")
    half = len(g.tables) // 2
    for t in range(half):
        mine, theirs = g.seatings[t], g.seatings[half + t]
        assert is_balanced(mine) and g.tables[t][0] == me and g.tables[half + t][0] == other
        assert [tuple(other if e == me else e for e in s) for s in mine] == list(theirs)
        assert sorted(g.tables[t][1:]) == sorted(g.tables[half + t][1:])


def test_weaker_strategy_has_a_negative_difference_whose_interval_excludes_zero(tmp_path):
    res = tournaments.gauntlet("greedy", ["taker"], players=4, games=2000, seed=1, out=tmp_path)
    assert isinstance(res, tournaments.GauntletResult)
    assert (res.strategy, res.baseline, res.field) == ("greedy", "weighted", ["taker"])
    row = reports.gauntlet(res).iloc[0]
    assert row["games"] == 2000 and row["deals"] == 500 and row["n_players"] == 4
    assert row["diff"] < 0 and row["diff_ci_high"] < 0 and row["p_value"] < 1e-6
    assert row["diff"] == pytest.approx(row["win_rate"] - row["baseline_win_rate"])
    text = " ".join(sentences(reports.gauntlet(res)))
    assert "against three taker" in text and "greedy loses to weighted" in text


def test_same_deals_and_seats_for_strategy_and_baseline(tmp_path):
    res = tournaments.gauntlet("low", ["taker", "greedy"], "high", players=3, games=300, seed=2,
                               out=tmp_path)  # fmt: skip
    df = res.games()
    cols = [f"seat_{s}" for s in range(3)]
    seats = df[cols].astype(str)
    side = seats.eq("low").any(axis=1)
    assert seats.eq("high").any(axis=1).eq(~side).all()  # one of the two at every table
    assert side.sum() == (~side).sum() == 300
    half = len(res.manifest["tables"]) // 2
    key = ["table", "deal", "rotation"]
    mine = df[side].assign(table=df["table"] % half).set_index(key).sort_index()
    base = df[~side].assign(table=df["table"] % half).set_index(key).sort_index()
    assert mine.index.equals(base.index)
    assert (mine["deal_seed"] == base["deal_seed"]).all()  # the same cards
    mirrored = mine[cols].astype(str).replace("low", "high")
    assert (mirrored == base[cols].astype(str)).all().all()  # the same seats


def test_results_do_not_depend_on_jobs_or_field_order(tmp_path):
    a = tournaments.gauntlet("counter", ["taker", "low"], players=4, games=600, seed=5,
                             n_jobs=1, out=tmp_path / "a", chunk_size=96)  # fmt: skip
    b = tournaments.gauntlet("counter", ["low", "taker"], players=4, games=600, seed=5,
                             n_jobs=2, out=tmp_path / "b", chunk_size=96)  # fmt: skip
    pd.testing.assert_frame_equal(a.games(), b.games())
    pd.testing.assert_frame_equal(reports.gauntlet(a), reports.gauntlet(b))


@pytest.mark.slow
def test_cli_gauntlet_with_a_file_strategy_and_report(tmp_path, capsys):
    out = tmp_path / "g"
    spec = f"{ROOT / 'examples' / 'my_strategy.py'}:Hoarder"
    code, stdout, stderr = run_cli(
        capsys, spec, "--against", "greedy", "--baseline", "low", "--players", "3",
        "--games", "150", "--jobs", "1", "--out", str(out),
    )  # fmt: skip
    assert code == 0, stderr
    lines = stdout.splitlines()
    assert re.match(r"hoarder wins \d+\.\d% \[\d+\.\d, \d+\.\d\] of 150 games against two greedy",
                    lines[0])  # fmt: skip
    assert re.search(r"(beats|loses to|No significant difference).* \(paired over 50 deals, p",
                     lines[1])  # fmt: skip
    page = reports.build_report(out, out=tmp_path / "r", fmt="md").read_text()
    findings = page[page.index("## Key findings") : page.index("## Run")]
    assert lines[0] in findings


@pytest.mark.parametrize(
    "args, message",
    [
        (["greedy", "--against", "greedy"], "greedy is also in the field"),
        (["greedy", "--against", "weighted"], "baseline weighted is also in the field"),
        (["greedy", "--against", "taker", "--baseline", "greedy"], "are the same"),
        (["greedy", "--against", "nosuch"], "unknown strategy 'nosuch'"),
        (["greedy", "--against", "taker", "--players", "9"], "3 to 6 players"),
        (["greedy", "--against", "taker", "--jobs", "0"], "--jobs"),
        (["greedy"], "--against is required (see 'leaves gauntlet --help')"),
    ],
)
def test_bad_input_is_one_line(capsys, tmp_path, args, message):
    code, out, err = run_cli(capsys, *args, "--out", str(tmp_path / "x"))
    assert code == 2
    assert err.startswith("leaves: error: ") and message in err
    assert len(err.strip().splitlines()) == 1


def test_not_a_gauntlet_run_is_refused():
    games = synthetic_games({"a": 0.0, "b": 0.0}, players=(3,), deals=5)
    with pytest.raises(reports.ReportError, match="not a gauntlet run"):
        reports.gauntlet(games)


def test_field_words():
    assert field_words(["taker"], 4) == "three taker"
    assert field_words(["greedy", "low", "taker"], 4) == "a field of greedy, low and taker"


def test_gauntlet_games_rounding_note():
    g = Gauntlet("greedy", ["taker", "low"], players=4, games=1000, seed=0)
    n_set = len(g.seatings[0])  # balanced seatings of (greedy, low, taker, low)
    deals = -(-1000 // n_set)
    assert g.games_per_side == deals * n_set >= 1000 and g.n_games == 2 * g.games_per_side
    assert f"{g.games_per_side:,} games each for greedy" in g.rounded_note


def test_gauntlet_rates_and_intervals_are_the_summarys(tmp_path):
    res = tournaments.gauntlet("low", ["taker"], players=3, games=120, seed=4, out=tmp_path)
    row = reports.gauntlet(res).iloc[0]
    summ = reports.summary(res).set_index("strategy")
    for side, name in (("", "low"), ("baseline_", "weighted")):
        assert row[f"{side}win_rate"] == summ.loc[name, "win_rate"]
        assert row[f"{side}ci_low"] == summ.loc[name, "ci_low"]
        assert row[f"{side}ci_high"] == summ.loc[name, "ci_high"]
    assert row["games"] == summ.loc["low", "games"] == summ.loc["weighted", "games"] == 120
