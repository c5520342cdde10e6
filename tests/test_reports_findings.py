"""Key findings: sentences from the tables, on runs with a known winner and with none."""

from __future__ import annotations

import re

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

import reports
from reports.findings import key_findings
from reports.numbers import interval, p_text, pct, points
from reports.synthetic import synthetic_expert, synthetic_games, write_run

CLEAN = {"unfinished_p": 0.0, "forfeit_p": 0.0}  # no caution opens the findings


def _findings(games: pd.DataFrame) -> list:
    tables, method = reports.compute_tables(reports.as_run(games))
    return key_findings(tables, method)


def test_known_winner_is_named_with_margin_interval_and_significance():
    games = synthetic_games({"a": 0.35, "b": 0.0, "c": -0.2}, players=(3,), deals=400, seed=1,
                            **CLEAN)  # fmt: skip
    tables, method = reports.compute_tables(reports.as_run(games))
    first = key_findings(tables, method)[0].text
    assert first.startswith("a is the best strategy: a wins ")
    top = tables["summary"].iloc[0]
    assert f"{100 * top['win_rate']:.1f}% [{100 * top['ci_low']:.1f}, " in first
    row = tables["significance"].query("a == 'a' and b == 'b'").iloc[0]
    assert f"beats the runner-up, b, by {100 * row['diff']:.1f} percentage points " in first
    assert f"[{100 * row['ci_low']:+.1f}, {100 * row['ci_high']:+.1f}]" in first
    assert (
        "paired by duplicate set" in first
        and "holds after Holm correction over the 3 pairs" in first
    )


def test_no_significant_winner_is_said_so():
    games = synthetic_games({"a": 0.0, "b": 0.0, "c": -0.2}, players=(3,), deals=400, seed=1,
                            **CLEAN)  # fmt: skip
    first = _findings(games)[0].text
    assert first.startswith("No strategy is clearly the best: ")
    assert "not significant" in first
    assert "best strategy" not in first


def test_seat_length_and_expert_sentences():
    games = synthetic_games({"a": 0.3, "b": 0.0, "c": -0.2}, players=(3, 4), deals=50, seed=2)
    found = {f.topic: f.text for f in _findings(games)}
    # one sentence per table size: a first move is worth more at a small table
    assert re.match(r"Seat: at 3 players the first .*; at 4 players the first ", found["seats"])
    assert re.search(r"at 3 players a game lasts \d+ turns on median \([\d.]+% of games between "
                     r"\d+ and \d+\); at 4 players", found["lengths"])  # fmt: skip
    games = synthetic_games({"a": 0.3, "b": 0.0, "c": -0.2}, players=(3,), deals=200, seed=2,
                            seating="balanced")  # fmt: skip
    found = {f.topic: f.text for f in _findings(games)}
    assert found["seats"].startswith("Seat: at 3 players the first to play wins ")
    assert "an advantage" in found["seats"]  # the synthetic model favours the first player
    assert re.search(r"lasts \d+ turns on median", found["lengths"])
    assert found["neighbours"].startswith("Neighbours: ")  # the report has a neighbours table
    tables, method = reports.compute_tables(reports.as_run(games))
    del tables["neighbours"]
    assert "neighbours" not in {f.topic for f in key_findings(tables, method)}  # left out
    ex_games, matches = synthetic_expert({"x": 1.0, "y": 0.0, "z": -1.0}, players=(3,))
    run = reports.as_run(ex_games)
    run.matches = matches
    tables, method = reports.compute_tables(run)
    found = {f.topic: f.text for f in key_findings(tables, method)}
    top = tables["expert"].iloc[0]
    assert found["expert"].startswith(f"Expert matches: {top['strategy']} wins ")
    assert f"{int(top['shared_wins'])} of its {int(top['match_wins'])} wins" in found["expert"]


def test_neighbour_finding_appears_when_the_table_exists():
    games = synthetic_games({"a": 0.3, "b": 0.0}, players=(3,), deals=20)
    tables, method = reports.compute_tables(reports.as_run(games))
    tables["neighbours"] = pd.DataFrame(
        {
            "strategy": ["a", "a", "b"],
            "before": ["a", "b", "a"],
            "win_rate": [0.51, 0.47, 0.30],
            "ci_low": [0.49, 0.45, 0.28],
            "ci_high": [0.53, 0.49, 0.32],
            "elsewhere_rate": [0.50, 0.52, 0.30],
            "vs_elsewhere": [0.01, -0.05, 0.0],
            "vs_elsewhere_low": [-0.01, -0.07, -0.02],
            "vs_elsewhere_high": [0.03, -0.03, 0.02],
            "vs_elsewhere_p": [0.3, 0.001, 0.9],
        }
    )
    text = {f.topic: f.text for f in key_findings(tables, method)}["neighbours"]
    assert text.startswith(
        "Neighbours: a wins 47.0% [45.0, 49.0] when b sits before it, against 52.0% when it "
        "sits elsewhere at the table (-5.0 percentage points [-7.0, -3.0] within the same "
        "deals, p = "
    )
    assert text.endswith(
        "it holds after Bonferroni correction over the 2 pairs."
    )  # a after a: none
    tables["neighbours"]["vs_elsewhere_p"] = [0.3, 0.04, 0.9]  # 0.08 after correction
    found = {f.topic: f.text for f in key_findings(tables, method)}
    assert found["neighbours"].endswith("not significant after correction over the 2 pairs: "
                                        "it may be chance.")  # fmt: skip
    # seatings that never separate "before" from "elsewhere": no neighbour finding at all
    tables["neighbours"][["vs_elsewhere", "vs_elsewhere_p"]] = float("nan")
    assert "neighbours" not in {f.topic for f in key_findings(tables, method)}


def test_single_strategy_run():
    games = synthetic_games({"solo": 0.0}, players=(3,), deals=10, **CLEAN)
    found = _findings(games)
    assert found[0].text.startswith("Only one strategy played: solo wins ")
    assert "neighbours" not in {f.topic for f in found}  # nobody else to sit before it


def test_forfeits_and_unfinished_games_are_stated_first():
    games = synthetic_games({"a": 0.3, "b": 0.0, "c": -0.2}, players=(3,), deals=40, seed=4,
                            unfinished_p=0.02, forfeit_p=0.3)  # fmt: skip
    tables, method = reports.compute_tables(reports.as_run(games))
    first = key_findings(tables, method)[0]
    done = tables["completion"].set_index("n_players").loc["all"]
    assert first.topic == "completion" and first.text.startswith("Caution: ")
    assert f"{int(done['forfeited']):,} of {int(done['games']):,} games" in first.text
    assert "leave them out" in first.text and "unfinished" in first.text
    seats = tables["seats"]  # forfeited games are left out of the seat table
    assert seats.groupby("n_players")["games"].first().iloc[0] == len(games) - done["forfeited"]


def test_too_small_runs_say_so_instead_of_an_interval():
    games = synthetic_games({"a": 0.3, "b": 0.0, "c": -0.2}, players=(3,), deals=2, **CLEAN)
    found = {f.topic: f.text for f in _findings(games)}
    assert "too few deals for an interval" in found["significance"]
    assert "nan" not in " ".join(found.values())
    assert "too few deals for an interval, so no verdict" in found["seats"]


@pytest.mark.slow
@pytest.mark.parametrize("fmt, page", [("html", "report.html"), ("md", "report.md")])
def test_findings_open_the_report(tmp_path, fmt, page):
    games = synthetic_games({"a": 0.35, "b": 0.0, "c": -0.2}, players=(3,), deals=100, seed=1)
    run_dir = write_run(tmp_path / "run", games)
    text = reports.build_report(run_dir, out=tmp_path / "r", fmt=fmt).read_text()
    assert (tmp_path / "r" / page).exists()
    first = text.index("Key findings")
    assert first < text.index("run directory") < text.index("Summary")
    assert "a is the best strategy" in text[first : text.index("Summary")]


@given(st.floats(0, 1), st.floats(0, 1))
def test_rounding_helpers(a, b):
    lo, hi = min(a, b), max(a, b)
    assert re.fullmatch(r"\d{1,3}\.\d%", pct(a))
    assert re.fullmatch(r"\[\d{1,3}\.\d, \d{1,3}\.\d\]", interval(lo, hi))
    assert re.fullmatch(r"\d{1,3}\.\d percentage points?", points(a - b))
    assert p_text(a).startswith("p ")


def test_p_text_cases():
    assert p_text(0.2134) == "p = 0.21"
    assert p_text(0.0031) == "p = 0.003"
    assert p_text(4.2e-6) == "p = 4e-06"
    assert p_text(0.0) == "p < 1e-16"


@pytest.mark.slow
def test_report_command_prints_the_findings(tmp_path, capsys):
    from leaves_cli.main import main

    games = synthetic_games({"a": 0.35, "b": 0.0, "c": -0.2}, players=(3,), deals=100, seed=1,
                            **CLEAN)  # fmt: skip
    run_dir = write_run(tmp_path / "run", games)
    with pytest.raises(SystemExit) as exc:
        main(["report", str(run_dir), "--format", "md"])
        raise SystemExit(0)
    out = capsys.readouterr().out.splitlines()
    assert exc.value.code in (0, None)
    written = (run_dir / "report" / "findings.txt").read_text().splitlines()
    assert out[0] == "Key findings:" and out[1 : 1 + len(written)] == [f"- {w}" for w in written]
    assert written[0].startswith("a is the best strategy")
    assert out[-1] == f"report: {run_dir / 'report' / 'report.md'}"
