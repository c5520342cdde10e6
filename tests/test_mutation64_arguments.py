"""tournaments/arguments.py at its boundaries, worked out by hand: each check on both sides of
its bound (a match of 1 and of the cap's games, a target of 1 point, a sample of 1), the
default game and seating design, entrants sorted by label alone, and a focus found by its
file (``benchmarks/bench_mutation.py tournaments/arguments.py``)."""

from __future__ import annotations

import numpy as np
import pytest

from gamekit.errors import ParameterError
from tournaments import arguments, work
from tournaments.games import get_game
from tournaments.labels import Labeled

LEAVES = get_game("leaves")


class Files:
    """A game whose entrants are ``file:Class`` specs, described by file and class; a spec
    starting ``bad`` is refused as the games refuse an unknown name."""

    def resolve(self, spec):
        if isinstance(spec, str) and spec.startswith("bad"):
            raise ValueError(f"unknown strategy {spec!r}")
        return spec.rpartition(":")[2], spec

    def describe(self, payload):
        file, _, cls = payload.rpartition(":")
        return {"label": cls, "class": f"bots:{cls}", "file": file.removeprefix("./") or None}


def test_since_takes_a_number_of_any_kind_and_nothing_else():
    assert arguments.moment(2) == 2.0 and arguments.moment(np.float32(0.5)) == 0.5
    for bad in (True, "1.5"):
        with pytest.raises(TypeError, match="since takes a time.perf_counter"):
            arguments.moment(bad)


def test_the_default_game_and_a_game_named_by_its_id():
    assert arguments.default_game(None).name == get_game().name
    assert arguments.default_game("ligretto").name == "ligretto" != get_game().name
    assert arguments.default_game(LEAVES) is LEAVES
    with pytest.raises(TypeError, match="game takes a game plug-in"):
        arguments.default_game(5)


def test_entrants_are_sorted_by_label_alone():
    # label order Alpha, Beta; payload order mm:Beta, zz:Bot; as given: Beta first
    labels, payloads, where = arguments.enter(Files(), ["mm:Beta", Labeled("zz:Bot", "Alpha")])
    assert labels == ("Alpha", "Beta") and payloads == ("zz:Bot", "mm:Beta") and where == {}


def test_an_entrant_listed_twice_is_named():
    with pytest.raises(ValueError, match=r"^strategy listed twice: greedy$"):
        arguments.enter(LEAVES, ["greedy", "low", "greedy"])
    with pytest.raises(ValueError, match="at least one strategy"):
        arguments.enter(LEAVES, [])


def test_a_match_of_one_game_and_of_the_cap_and_a_target_of_one_point():
    assert arguments.match_rules(LEAVES, False, None, None) == (False, None, 20)
    assert arguments.match_rules(LEAVES, False, None, 1) == (True, 1, 20)
    cap = work.MAX_GAMES_PER_MATCH
    assert arguments.match_rules(LEAVES, False, None, cap) == (True, cap, 20)
    assert arguments.match_rules(LEAVES, True, 1, None) == (True, None, 1)
    with pytest.raises(ParameterError, match="rounds must be at least 1, got 0"):
        arguments.match_rules(LEAVES, False, None, 0)
    with pytest.raises(ParameterError, match=f"rounds can be at most {cap}, .* got {cap + 1}"):
        arguments.match_rules(LEAVES, False, None, cap + 1)
    with pytest.raises(ParameterError, match="target 0: a match runs to at least 1 point"):
        arguments.match_rules(LEAVES, True, 0, None)
    with pytest.raises(ParameterError, match="runs to target or for rounds, not both"):
        arguments.match_rules(LEAVES, False, 3, 2)


def test_the_seating_design_given_else_the_games_own():
    assert arguments.seating_design(LEAVES, None) == "balanced"
    assert arguments.seating_design(get_game("ligretto"), None) == "rotations"
    assert arguments.seating_design(LEAVES, "all") == "all"
    with pytest.raises(ParameterError, match="unknown seating 'bogus'"):
        arguments.seating_design(LEAVES, "bogus")


def test_a_focus_is_found_by_label_or_by_its_file():
    game = Files()
    labels, payloads, _ = arguments.enter(game, ["x/ok.py:MyBot", "y/ok.py:MyBot", "low"])
    assert labels == ("low", "x/ok.py:MyBot", "y/ok.py:MyBot")
    assert arguments.focus_label(game, "low", labels, payloads) == "low"
    # resolved to the bare label "MyBot", which no entrant has: found by its file
    assert arguments.focus_label(game, "./y/ok.py:MyBot", labels, payloads) == "y/ok.py:MyBot"
    for bad in ("nope", "bad one"):
        with pytest.raises(ValueError, match=f"^focus '{bad}' is not one of the tournament"):
            arguments.focus_label(game, bad, labels, payloads)


def test_which_games_go_to_the_records_file(tmp_path):
    rec = tmp_path / "r.jsonl"
    assert arguments.record_rule(LEAVES, None, None, 10, None) == (None, 0)
    with pytest.raises(ParameterError, match="^record_sample needs record FILE$"):
        arguments.record_rule(LEAVES, None, 5, 10, None)  # a sample of no records
    assert arguments.record_rule(LEAVES, rec, None, 10, None) == (rec, 1)
    assert arguments.record_rule(LEAVES, rec, 1, 10, None) == (rec, 10)
    assert arguments.record_rule(LEAVES, rec, 10, 10, None) == (rec, 1)
    assert arguments.record_rule(LEAVES, rec, 20, 10, None) == (rec, 1)  # more than played
    with pytest.raises(ParameterError, match="record_sample must be at least 1, got 0"):
        arguments.record_rule(LEAVES, rec, 0, 10, None)
    with pytest.raises(ParameterError, match="record is not available with rounds"):
        arguments.record_rule(LEAVES, rec, None, 10, "rounds")
    assert arguments.record_rule(LEAVES, None, None, 10, "expert") == (None, 0)
