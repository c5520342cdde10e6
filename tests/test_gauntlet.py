"""Gauntlets: seatings, the paired comparison with a baseline, determinism, the command."""

from __future__ import annotations

import itertools
import re
from collections import Counter
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import reports
import tournaments
from leaves.cli.main import main
from reports.gauntlet import field_words, sentences
from reports.synthetic import synthetic_games
from tournaments.gauntlet import Gauntlet, field_orders

ROOT = Path(__file__).resolve().parents[1]


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    with pytest.raises(SystemExit) as exc:
        main(["gauntlet", *args])
        raise SystemExit(0)
    out, err = capsys.readouterr()
    return int(exc.value.code or 0), out, err


@given(st.integers(1, 6), st.integers(2, 5))
def test_field_orders_are_balanced(n_field, seats):
    orders = field_orders(n_field, seats)
    assert len(set(orders)) == len(orders) and orders == sorted(orders)
    for order in orders:
        assert len(order) == seats and set(order) <= set(range(n_field))
    # every field seat holds each entrant equally often over the orders
    for s in range(seats):
        per_seat = Counter(o[s] for o in orders)
        total = Counter(e for o in orders for e in o)
        for e in range(n_field):
            assert per_seat[e] * seats == total[e]
    if n_field >= seats:  # every combination of the field, in every order
        assert len(orders) == len(list(itertools.permutations(range(n_field), seats)))


def test_field_orders_repeat_a_small_field_in_turn():
    assert field_orders(1, 3) == [(0, 0, 0)]
    assert field_orders(2, 3) == [(0, 0, 1), (0, 1, 0), (1, 0, 0)]


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
    seats = df[[f"seat_{s}" for s in range(3)]].astype(str)
    side = seats.eq("low").any(axis=1)
    assert seats.eq("high").any(axis=1).eq(~side).all()
    mine, base = df[side], df[~side]
    assert len(mine) == len(base) == 300
    key = ["deal", "rotation", "deal_seed"]
    pos_mine = seats[side].eq("low").to_numpy().argmax(axis=1)
    pos_base = seats[~side].eq("high").to_numpy().argmax(axis=1)
    a = mine[key].assign(pos=pos_mine)
    b = base[key].assign(pos=pos_base)
    assert sorted(map(tuple, a.to_numpy())) == sorted(map(tuple, b.to_numpy()))
    # the field sits where it sat: same labels in the other seats
    fm = seats[side].mask(seats[side].eq("low"), "X").agg(",".join, axis=1)
    fb = seats[~side].mask(seats[~side].eq("high"), "X").agg(",".join, axis=1)
    assert Counter(zip(mine["deal"], fm, strict=True)) == Counter(
        zip(base["deal"], fb, strict=True)
    )


def test_results_do_not_depend_on_jobs_or_field_order(tmp_path):
    a = tournaments.gauntlet("counter", ["taker", "low"], players=4, games=600, seed=5,
                             n_jobs=1, out=tmp_path / "a", chunk_size=96)  # fmt: skip
    b = tournaments.gauntlet("counter", ["low", "taker"], players=4, games=600, seed=5,
                             n_jobs=2, out=tmp_path / "b", chunk_size=96)  # fmt: skip
    pd.testing.assert_frame_equal(a.games(), b.games())
    pd.testing.assert_frame_equal(reports.gauntlet(a), reports.gauntlet(b))


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
        (["greedy"], "Missing option '--against'"),
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
    assert g.games_per_side == 1008  # 3 field orders x 4 seats x 84 deals
    assert g.n_games == 2016
    assert "1,008 games each for greedy" in g.rounded_note
