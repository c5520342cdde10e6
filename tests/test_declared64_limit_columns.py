"""A game's ``limit_columns`` names game columns: ``check_game`` refuses, in one line naming
the column and the game columns there are, one that is not (a misspelt column would leave the
reports naming the limits together, as if the rows could not tell them apart)."""

from __future__ import annotations

from tournaments import games
from tournaments.declaration import Declaration
from tournaments.declaration_check import check_declaration

from .test_check_game import broken, climb, failure  # noqa: F401  (climb: a fixture)


class LimitByAMisspeltColumn:
    """Tells its turn limit by a column it does not have."""

    limits = "200 turns or 10 rounds a game"
    limit_columns = {"200 turns": ("turnz", 200), "10 rounds": None}


class LimitByItsTurns:
    """Tells its turn limit by its turns column."""

    limits = LimitByAMisspeltColumn.limits
    limit_columns = {"200 turns": ("turns", 200), "10 rounds": None}


def test_a_limit_column_that_is_no_game_column_fails_the_declaration(climb):  # noqa: F811
    message = failure(broken(climb, LimitByAMisspeltColumn), "declaration")
    assert message == (
        "check_game('climb'): the declaration check failed: limit_columns names 'turnz', "
        "not one of its game_columns ('turns', 'unfinished')"
    )


def test_a_limit_column_that_is_a_game_column_passes_the_declaration(climb):  # noqa: F811
    game = broken(climb, LimitByItsTurns)()
    declared, _ = check_declaration(game, None)
    assert declared.limit_columns == {"200 turns": ["turns", 200], "10 rounds": None}


def test_ligrettos_limit_columns_pass_the_declaration():
    game = games.game_class("ligretto")()
    declared, _ = check_declaration(game, None)
    column = next(iter(Declaration.of(game).limit_columns.values()))[0]
    assert column == "time_ms" and declared == Declaration.of(game)
