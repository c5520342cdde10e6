"""``tournaments.testing.check_game``: every game passes it, by id and by class, and plug-ins
broken on purpose fail it with the one line that names what is wrong.

Climb (``tests/plugins/climb``) is installed for this module only (its folder on ``sys.path``,
the entry points read again). The broken plug-ins are Climb with one defect each: a mixin
here, joined to Climb's class once it can be imported and kept in this module's namespace,
so that it pickles as a worker would receive it.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import numpy as np
import pytest

from tournaments import games
from tournaments.game import GameOption
from tournaments.testing import GameCheckError, check_game

PLUGINS = Path(__file__).resolve().parent / "plugins"
SMALL = {"games": 16, "matches": 4, "players": 2}  # enough for a defect to show


@pytest.fixture(scope="module")
def climb():
    """Climb's plug-in class, installed while this module's tests run."""
    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(PLUGINS))
        games._entry_points.cache_clear()
        from climb.plugin import ClimbGame

        yield ClimbGame
    games._entry_points.cache_clear()


def broken(climb_class: type, defect: type) -> type:
    """Climb with ``defect`` (a mixin that overrides part of it), importable by name."""
    name = f"Climb{defect.__name__}"
    cls = type(name, (defect, climb_class), {"__module__": __name__, "__qualname__": name})
    globals()[name] = cls  # pickle finds it here, as a worker would
    return cls


def first_party(name: str) -> type:
    return games.game_class(name)


GAMES = ["climb", "leaves", "ligretto"]


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_every_game_passes_by_id(climb, name):
    check_game(name)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_every_game_passes_by_class(climb, name):
    cls = climb if name == "climb" else first_party(name)
    assert cls.name == name
    check_game(cls, players=cls.min_players, seed=2)  # its smallest tables, other seeds


def failure(game, check: str, **kw) -> str:
    """The one line ``check_game`` fails ``game`` with, in ``check``."""
    with pytest.raises(GameCheckError) as caught:
        check_game(game, **{**SMALL, **kw})
    message = str(caught.value)
    assert caught.value.check == check, message
    assert isinstance(caught.value, AssertionError) and "\n" not in message
    return message


def test_an_unknown_id_fails_the_declaration(climb):
    message = failure("no-such-game", "declaration")
    assert message.startswith("check_game('no-such-game'): the declaration check failed: ")
    assert "unknown game 'no-such-game'" in message


# --------------------------------------------------------------- declaration


class NoMatchScore:
    """Never declares the column a match adds up."""

    @property
    def match_score(self):
        raise AttributeError("match_score")


class RankNotASeatColumn:
    """Ranks players by a column it does not have."""

    rank_value = "points"


class OptionNoKeyword:
    """Offers a setting its constructor does not take."""

    options = (GameOption("speed", float, "How fast."),)


class MatchNameNoStem:
    """Names its match tables with a path."""

    match_name = "match/es"


@pytest.mark.parametrize(
    ("defect", "why"),
    [
        (NoMatchScore, "it does not declare 'match_score'"),
        (
            RankNotASeatColumn,
            "rank_value names 'points', not one of its seat_columns ('cards_left',)",
        ),
        (OptionNoKeyword, "option 'speed' is no keyword of ClimbOptionNoKeyword"),
        (MatchNameNoStem, "match_name 'match/es' is not a file stem"),
    ],
)
def test_a_bad_declaration_fails(climb, defect, why):
    message = failure(broken(climb, defect), "declaration")
    assert message == f"check_game('climb'): the declaration check failed: {why}"


# --------------------------------------------------------------- play


class Unseeded:
    """Deals other cards at each call: its games are not a function of their seeds. (Other
    cards at every call, not fresh entropy: two random draws could deal games alike, and the
    check that catches it would then be another, at random.)"""

    calls = 0

    def play(self, seats, deal_seeds, play_seeds, record=False):
        type(self).calls += 1
        other = np.asarray(deal_seeds, dtype=np.uint64) + np.uint64(1000 * type(self).calls)
        return super().play(seats, other, play_seeds, record)


class NoUnfinishedColumn:
    """Returns fewer per-game columns than it declares."""

    def play(self, seats, deal_seeds, play_seeds, record=False):
        batch = super().play(seats, deal_seeds, play_seeds, record)
        del batch.game_values["unfinished"]
        return batch


class RecordsAnotherGame:
    """Writes records that name another game."""

    def play(self, seats, deal_seeds, play_seeds, record=False):
        batch = super().play(seats, deal_seeds, play_seeds, record)
        if batch.records:
            batch.records = [r.replace('"game": "climb"', '"game": "other"') for r in batch.records]
        return batch


@pytest.mark.parametrize(
    ("defect", "why"),
    [
        (Unseeded, r"play\(\) gave other games from the same seeds \(\w+ differ\)"),
        (
            NoUnfinishedColumn,
            re.escape("game_values has ['turns'], declared ['turns', 'unfinished']"),
        ),
        (RecordsAnotherGame, re.escape("a record names the game 'other' (its 'game' key)")),
    ],
)
def test_bad_play_fails(climb, defect, why):
    message = failure(broken(climb, defect), "play")
    assert re.fullmatch(r"check_game\('climb'\): the play check failed: " + why, message), message


# --------------------------------------------------------------- seeds, jobs


class IgnoresSeeds:
    """Plays every game from the same seeds, whatever it is given."""

    def play(self, seats, deal_seeds, play_seeds, record=False):
        same = np.full(len(deal_seeds), 7, np.uint64)
        return super().play(seats, same, same, record)


class DealsOncePerCall:
    """Deals every game of a call from the call's first deal seed: how games are cut into
    chunks changes them."""

    def play(self, seats, deal_seeds, play_seeds, record=False):
        return super().play(seats, np.full_like(deal_seeds, deal_seeds[0]), play_seeds, record)


class ForgetsItsTurnLimit:
    """Leaves its turn limit out of ``config()`` and pickles as ``config()`` rebuilds it: a
    worker's copy plays to the default limit."""

    def config(self):
        return {}

    def __reduce__(self):
        return type(self), ()


class CountsItsRecords:
    """Numbers its records as it writes them: a record is not a function of its game's seeds
    (as when a record shows another deal than the one played)."""

    written = itertools.count()

    def play(self, seats, deal_seeds, play_seeds, record=False):
        batch = super().play(seats, deal_seeds, play_seeds, record)
        if batch.records:
            batch.records = [r[:-1] + f', "n": {next(self.written)}}}' for r in batch.records]
        return batch


def test_a_game_whose_records_change_from_run_to_run_fails(climb):
    message = failure(broken(climb, CountsItsRecords), "seeds")
    assert re.fullmatch(
        r"check_game\('climb'\): the seeds check failed: the same tournament twice gave "
        r"different results \(record 1 of (\d+) and \1\)",
        message,
    ), message


def test_a_game_that_ignores_its_seeds_fails(climb):
    message = failure(broken(climb, IgnoresSeeds), "seeds", seed=3)
    assert message == (
        "check_game('climb'): the seeds check failed: seeds 3 and 4 gave the same results in "
        "every game"
    )


def test_a_game_whose_results_depend_on_chunks_fails(climb):
    message = failure(broken(climb, DealsOncePerCall), "jobs")
    assert re.fullmatch(
        r"check_game\('climb'\): the jobs check failed: chunks of one deal gave other results "
        r"than one a table \(game \d+: \w+ \S+ and \S+\)",
        message,
    ), message


def test_a_game_whose_worker_copy_differs_fails(climb):
    game = broken(climb, ForgetsItsTurnLimit)(turn_limit=5)
    message = failure(game, "jobs")
    assert message == (
        "check_game('climb'): the jobs check failed: a pickled copy of the plug-in (a worker's) "
        "plays other games (winner_seat)"
    )


# --------------------------------------------------------------- replay, report


class ShowsAnyRecord:
    """Shows whatever it is given as a game: its records are never checked."""

    def replay_lines(self, record):
        return ["a game"]


class RebuildsTheWrongEntrant:
    """Rebuilds every entrant of a run as the same strategy."""

    def rebuild(self, entrant):
        return self.resolve("high")[1]


def test_a_viewer_that_checks_nothing_fails(climb):
    message = failure(broken(climb, ShowsAnyRecord), "replay")
    assert message == (
        'check_game(\'climb\'): the replay check failed: it shows {"game": "climb"} as a game: '
        "it does not check records"
    )


def test_a_game_whose_runs_do_not_replay_fails(climb):
    message = failure(broken(climb, RebuildsTheWrongEntrant), "replay")
    assert re.fullmatch(
        r"check_game\('climb'\): the replay check failed: game \d+ replays to \(winner seat, "
        r"turns, forfeit seat\) \(-?\d+, \d+, -?\d+\), the run had \(-?\d+, \d+, -?\d+\)",
        message,
    ), message


@pytest.mark.slow
def test_a_report_that_does_not_say_the_game_fails(climb, monkeypatch):
    import reports

    real = reports.build_report

    def anonymous(source, **kw):  # a report that calls every game "the game"
        page = real(source, **kw)
        for path in (page, page.parent / "findings.txt"):
            path.write_text(path.read_text(encoding="utf-8").replace("Climb", "the game"))
        return page

    monkeypatch.setattr(reports, "build_report", anonymous)
    message = failure(climb, "report")
    assert message == "check_game('climb'): the report check failed: the report never says 'Climb'"
