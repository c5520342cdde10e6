"""A gauntlet whose strategy forfeits says so first, with the counts, the first error and what
to do; when every game of a side was forfeited nothing is compared and the exit code is 1.
The counts and the first error are checked against the run's own rows."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

import reports
from tests.helpers import cli
from tournaments.loading import load

ROOT = Path(__file__).resolve().parents[1]
BOOM = f"{ROOT / 'tests' / 'boom_strategy.py'}:Boom"  # raises at its first decision from turn 10

LATE = '''
from strategies import Strategy


class Late(Strategy, register=False):
    """Plays the first legal move, and raises from turn 30 on: long games end by a forfeit."""

    classifier = {"stochastic": False}

    def choose(self, view, legal, rng):
        if view.turn >= 30:
            raise ValueError(f"late at turn {view.turn}")
        return legal[0]
'''


def _truth(out: Path, label: str) -> tuple[int, int, str]:
    """(games the label's side played, games it forfeited, 'game N: error' of the run's first
    forfeit), read from the rows."""
    df = load(out).games()
    seats = df[[c for c in df.columns if c.startswith("seat_")]].astype(str)
    side = seats.eq(label).any(axis=1)
    mine = df[side]
    own = mine["forfeit"] & pd.Series(
        [str(row[f"seat_{int(row['forfeit_seat'])}"]) == label if row["forfeit"] else False
         for _, row in mine.iterrows()], index=mine.index)  # fmt: skip
    first = df[df["forfeit"]].sort_values("game").iloc[0]
    return len(mine), int(own.sum()), f"game {int(first['game'])}: {first['error']}"


def _said_first(out: Path, tmp: Path, sentence: str) -> bool:
    """The report's key findings hold ``sentence``, and every finding before it is about the
    run's forfeits too (where the run stands comes first of all)."""
    page = reports.build_report(out, out=tmp, fmt="md").read_text()
    findings = page[page.index("## Key findings") : page.index("## Run")]
    bullets = [line[2:] for line in findings.splitlines() if line.startswith("- ")]
    return sentence in bullets and all("forfeit" in b for b in bullets[: bullets.index(sentence)])


@pytest.mark.slow
def test_a_strategy_that_forfeits_every_game_says_so_first_and_exits_1(tmp_path, capsys):
    out = tmp_path / "g"
    code, stdout, err = cli(capsys, "gauntlet", BOOM, "--against", "taker", "--games", "40",
                            "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 1, err
    games, forfeited, first = _truth(out, "Boom")
    assert games == forfeited == 40
    lines = stdout.splitlines()
    assert lines[0] == (
        f"Nothing valid was played: Boom forfeited all 40 of its games (the first, {first}), so "
        f"Boom and weighted cannot be compared; fix the error ('leaves replay {out} --game "
        f"{first.split(':')[0].split()[1]}' replays that game, {out}/forfeits.json lists every "
        "forfeit with its seeds)."
    )
    assert "RuntimeError: boom at turn" in first
    assert not any("wins" in line or "loses" in line for line in lines)  # no comparison
    assert lines[-1].startswith(f"results in {out}")
    assert "leaves: error" not in err
    assert _said_first(out, tmp_path / "r", lines[0])


@pytest.mark.slow
def test_a_partly_forfeited_gauntlet_says_so_first_and_exits_0(tmp_path, capsys):
    late = tmp_path / "late.py"
    late.write_text(LATE)
    out = tmp_path / "g"
    code, stdout, err = cli(capsys, "gauntlet", f"{late}:Late", "--against", "taker",
                            "--games", "200", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    games, forfeited, first = _truth(out, "Late")
    assert games == 200 and 0 < forfeited < 200, forfeited
    lines = stdout.splitlines()
    assert lines[0].startswith(
        f"Caution: Late forfeited {forfeited:,} of its 200 games (the first, {first}); a "
        "forfeit counts as a loss for the seat that forfeits"
    )
    assert "ValueError: late at turn" in first and f"leaves replay {out} --game" in lines[0]
    assert lines[1].startswith("Late wins ") and "in the same seats on the same deals" in lines[1]
    assert _said_first(out, tmp_path / "r", lines[0])


def test_a_gauntlet_without_forfeits_says_nothing_of_them(tmp_path, capsys):
    code, stdout, err = cli(capsys, "gauntlet", "greedy", "--against", "taker", "--games", "40",
                            "--jobs", "1", "--out", str(tmp_path / "g"))  # fmt: skip
    assert code == 0, err
    assert stdout.startswith("greedy wins ") and "forfeit" not in stdout


def test_forfeits_of_the_field_and_of_the_baseline_are_named_apart():
    from reports.gauntlet import forfeit_sentence, nothing_valid

    row = {"strategy": "mine", "baseline": "base", "games": 100, "forfeited": 30,
           "forfeits": 20, "baseline_forfeited": 5, "baseline_forfeits": 5,
           "first_error": "game 3: seat 1 (mine): KeyError: 'x'"}  # fmt: skip
    assert forfeit_sentence(row, "runs/g") == (
        "Caution: 30 of mine's 100 games ended by a forfeit (20 by mine, 10 by the field) and "
        "base forfeited 5 of its 100 games (the first, game 3: seat 1 (mine): KeyError: 'x'); "
        "a forfeit counts as a loss for the seat that forfeits and for every other seat at its "
        "table (a forfeit leaves no winner), so the comparison below counts "
        "these errors too; fix the error ('leaves replay runs/g --game 3' replays that game, "
        "runs/g/forfeits.json lists every forfeit with its seeds)."
    )
    assert not nothing_valid(row)
    row.update(baseline_forfeited=100, baseline_forfeits=100)
    assert nothing_valid(row)
    assert forfeit_sentence(row, "runs/g").startswith(
        "Nothing valid was played: 30 of mine's 100 games ended by a forfeit (20 by mine, 10 by "
        "the field) and base forfeited all 100 of its games (the first, game 3: "
    )
    row.update(forfeited=0, forfeits=0, baseline_forfeited=0, baseline_forfeits=0)
    assert forfeit_sentence(row) is None and not nothing_valid(row)
