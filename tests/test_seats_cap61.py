"""A game may declare at most ``MAX_SEATS`` seats a table: a win tied among more would not be
split into whole ``SHARE_UNITS`` (27,720 is the least multiple of 1..12, not of 13), so the
win shares of a run would depend on the order of its games. A plug-in declaring more is
refused where it is loaded, in one line, not played with shares that do not sum."""

from __future__ import annotations

import math

import pytest

from tests.helpers import cli
from tests.toygame import ToyGame
from tournaments.aggregates import SHARE_UNITS
from tournaments.declaration import MAX_SEATS
from tournaments.games import plugin_class
from tournaments.testing import GameCheckError, check_game


class Thirteen(ToyGame):
    """The toy game with one seat too many."""

    max_players = MAX_SEATS + 1


class Twelve(ToyGame):
    """The toy game at the most seats allowed."""

    max_players = MAX_SEATS


def test_every_tie_up_to_the_most_seats_splits_into_whole_units_and_one_more_would_not():
    assert all(SHARE_UNITS % m == 0 for m in range(1, MAX_SEATS + 1))
    assert SHARE_UNITS % (MAX_SEATS + 1) != 0
    assert math.lcm(*range(1, MAX_SEATS + 1)) == SHARE_UNITS


def test_a_plug_in_declaring_more_seats_is_refused_where_it_is_loaded():
    with pytest.raises(ValueError, match=r"declares max_players 13: at most 12 seats"):
        plugin_class("tests.test_seats_cap61:Thirteen")
    assert plugin_class("tests.test_seats_cap61:Twelve") is Twelve


def test_the_conformance_check_names_the_seats_over_the_most():
    with pytest.raises(GameCheckError, match=r"max_players 13 are not in 1\.\.12"):
        check_game(Thirteen(), games=8, matches=2)


def test_the_command_line_refuses_it_in_one_line(capsys, tmp_path):
    code, _, err = cli(capsys, "tournament", "--game", "tests.test_seats_cap61:Thirteen", "a",
                       "b", "--games", "8", "--out", str(tmp_path / "out"))  # fmt: skip
    err = err.strip()
    assert code != 0 and not (tmp_path / "out").exists()
    assert "Traceback" not in err and len(err.splitlines()) <= 2, err
    assert "at most 12 seats" in err
