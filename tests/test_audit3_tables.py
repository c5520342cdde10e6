"""Audit of large tables and match caps: seating designs at up to 12 seats (the same seatings
as listing every permutation gave, found without listing them; refused in one line where too
many), a gauntlet's seating (the game's declared design), --rounds above the cap on a match's
length, matches that stop at the cap before the target, and --record with forfeited games."""

from __future__ import annotations

import itertools
import json

import pytest

from tests.helpers import cli, one_error_line
from tournaments import seating
from tournaments.gauntlet import Gauntlet
from tournaments.seating import MAX_ORDERS, design
from tournaments.work import MAX_GAMES_PER_MATCH


def _old_all(table):
    """What ``all`` gave by listing every permutation (the pinned order: sorted)."""
    return tuple(sorted(set(itertools.permutations(sorted(table)))))


def _old_cycles(counts):
    items = [t for t, c in enumerate(counts) for _ in range(c)]
    k = len(items)
    return sorted(
        {min(p[r:] + p[:r] for r in range(k)) for p in set(itertools.permutations(items))}
    )


@pytest.mark.parametrize(
    "counts",
    [
        (1,),
        (2,),
        (1, 1),
        (2, 1),
        (1, 2),
        (2, 2),
        (3, 1, 2),
        (1, 1, 1, 1),
        (2, 2, 1, 1),
        (1, 1, 1, 1, 1, 1),
        (3, 3, 1),
    ],  # fmt: skip
)
def test_orders_and_cycles_are_those_every_permutation_gave(counts):
    table = tuple(t for t, c in enumerate(counts) for _ in range(c))
    assert design(table, "all") == _old_all(table)
    assert seating._cycles(counts) == _old_cycles(counts)


def test_a_twelve_seat_table_of_two_strategies_is_designed_at_once():
    table = (0,) * 6 + (1,) * 6  # 924 distinct orders of 479,001,600 permutations
    assert len(design(table, "all")) == 924
    balanced = design(table, "balanced")
    assert seating.is_balanced(balanced) and len(balanced) == 12


@pytest.mark.parametrize("kind", ["all", "balanced"])
def test_a_design_with_too_many_orders_is_refused_in_one_line(kind):
    with pytest.raises(ValueError) as info:
        design(tuple(range(10)), kind)
    text = str(info.value)
    assert "3,628,800 distinct orders" in text and "rotations" in text and "\n" not in text
    assert len(design(tuple(range(10)), "rotations")) == 10


def test_the_bound_sits_between_nine_and_ten_strategies():
    assert 362_880 <= MAX_ORDERS < 1_814_400  # 9 strategies at 9 seats play; 10 (9 + 1) do not


def test_a_large_balanced_tournament_is_refused_before_it_runs(tmp_path, capsys):
    out = tmp_path / "t"
    code, _, err = cli(capsys, "tournament", "--game", "ligretto", *[f"stack:speed={s}" for s in
                       (0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4, 1.5)],
                       "--players", "10", "--games", "10", "--seating", "balanced",
                       "--out", str(out))  # fmt: skip
    assert code == 2
    line = one_error_line(err)
    assert "--seating balanced" in line and "--seating rotations" in line
    assert not out.exists()


def test_a_twelve_seat_balanced_ligretto_tournament_runs(tmp_path, capsys):
    out = tmp_path / "t"
    code, _, err = cli(capsys, "tournament", "--game", "ligretto", "stack", "row", "--players",
                       "12", "--games", "10", "--seating", "balanced", "--seed", "1", "--jobs",
                       "1", "--out", str(out))  # fmt: skip
    assert code == 0, err


def test_a_gauntlet_plays_the_games_declared_seating():
    g = Gauntlet("row", ["cycler", "cautious"], "stack", players=12, games=24, seed=1,
                 game=_ligretto())  # fmt: skip
    assert g.seating == "rotations" and g.design()["kind"] == "rotations"
    assert all(len(d) == 12 for d in g.seatings)  # the rotations of each table
    assert "(rotations;" in g.rounded_note


def test_a_leaves_gauntlet_keeps_its_balanced_seating():
    g = Gauntlet("greedy", ["taker"], "weighted", players=4, games=48, seed=1)
    assert g.seating == "balanced" and g.design()["kind"] == "balanced"
    assert g.seatings[0] == design(g.tables[0], "balanced") and seating.is_balanced(g.seatings[0])


def _ligretto():
    from tournaments.games import get_game

    return get_game("ligretto")


def test_rounds_above_the_cap_are_refused_up_front(tmp_path, capsys):
    out = tmp_path / "t"
    code, stdout, err = cli(capsys, "tournament", "--game", "ligretto", "stack", "row",
                            "--players", "2", "--rounds", str(MAX_GAMES_PER_MATCH + 1),
                            "--games", "4", "--out", str(out))  # fmt: skip
    assert code == 2
    line = one_error_line(err)
    assert "--rounds" in line and str(MAX_GAMES_PER_MATCH) in line
    assert "results in" not in stdout + err and not out.exists()


def test_the_caps_are_one_number():
    from ligretto.match import MAX_ROUNDS_PER_GAME
    from tournaments.matches import MAX_GAMES

    assert MAX_ROUNDS_PER_GAME == MAX_GAMES == MAX_GAMES_PER_MATCH


def test_matches_stopped_at_the_cap_are_said(tmp_path, capsys):
    out = tmp_path / "t"
    code, stdout, err = cli(capsys, "tournament", "--game", "ligretto", "stack", "row",
                            "--players", "2", "--target", "1000", "--games", "4", "--seed", "1",
                            "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    assert f"4 of 4 games stopped at the cap of {MAX_GAMES_PER_MATCH} rounds" in stdout
    code, stdout, err = cli(capsys, "tournament", "--game", "ligretto", "stack", "row",
                            "--players", "2", "--games", "4", "--seed", "1", "--jobs", "1",
                            "--out", str(tmp_path / "t2"), "--expert")  # fmt: skip
    assert code == 0, err
    assert "stopped at the cap" not in stdout


RAISES = """
from ligretto.players import LigrettoStrategy


class Raises(LigrettoStrategy, register=False):
    def __init__(self, speed: float = 1.0):
        pass

    def decide(self, view, rng):
        raise RuntimeError("always")
"""


def test_a_forfeited_game_writes_no_blank_record_line(tmp_path, capsys):
    path = tmp_path / "raises.py"
    path.write_text(RAISES)
    record = tmp_path / "r.jsonl"
    code, _, err = cli(capsys, "tournament", "--game", "ligretto", f"{path}:Raises", "stack",
                       "--players", "2", "--games", "40", "--seed", "1", "--jobs", "1",
                       "--out", str(tmp_path / "t"), "--record", str(record),
                       "--record-sample", "10")  # fmt: skip
    assert code in (0, 1), err
    lines = record.read_text().splitlines()
    assert all(line.strip() for line in lines), lines
    for line in lines:
        json.loads(line)


def test_a_run_played_under_other_seatings_is_not_resumed_into(tmp_path, capsys):
    out = tmp_path / "g"
    args = ("gauntlet", "--game", "ligretto", "row", "--against", "cycler", "--players", "3",
            "--games", "12", "--seed", "1", "--jobs", "1")  # fmt: skip
    code, _, err = cli(capsys, *args, "--out", str(out))
    assert code == 0, err
    code, _, err = cli(capsys, "gauntlet", "--resume", "--out", str(out))
    assert code == 0, err  # the same seatings: nothing to object to
    manifest = json.loads((out / "manifest.json").read_text())
    for pattern, seatings in manifest["seating_design"]["seatings"].items():
        manifest["seating_design"]["seatings"][pattern] = seatings[::-1]  # as an older design
    (out / "manifest.json").write_text(json.dumps(manifest))
    code, _, err = cli(capsys, "gauntlet", "--resume", "--out", str(out))
    assert code == 2
    assert "played under other seatings" in one_error_line(err)


@pytest.mark.parametrize("command", [["tournament", "greedy", "low", "--players", "3"],
                                     ["gauntlet", "greedy", "--against", "low"]])  # fmt: skip
def test_a_full_folder_without_a_run_is_not_told_to_resume(tmp_path, capsys, command):
    """Was: "is not empty: pass --resume to continue the run there", then, with --resume, "it
    holds no run ... pick another --out": advice that fails when followed."""
    (tmp_path / "d").mkdir()
    (tmp_path / "d" / "notes.txt").write_text("mine")
    code, _, err = cli(capsys, *command, "--games", "12", "--out", str(tmp_path / "d"))
    assert code == 2 and one_error_line(err).endswith(
        "is not empty and holds no run: pick a new --out"
    )


def test_a_13_leaves_match_to_a_target_nobody_reaches_stops_at_the_cap(tmp_path, capsys):
    """Was: 'RuntimeError: a match lasted more than 64 games' after 'results in X'."""
    from gamekit.matches import MAX_GAMES
    from ligretto.match import MAX_ROUNDS_PER_GAME
    from tournaments.work import MAX_GAMES_PER_MATCH

    assert MAX_GAMES == MAX_ROUNDS_PER_GAME == MAX_GAMES_PER_MATCH == 64
    code, out, err = cli(capsys, "tournament", "greedy", "low", "--expert", "--target", "1000",
                         "--games", "2", "--jobs", "1", "--out", str(tmp_path / "x"))  # fmt: skip
    assert code == 0, err
    assert "matches stopped at the cap of 64 games before anyone reached 1,000 points" in out
    assert "--rounds" not in out  # 13 Leaves matches run to a target only
