"""Checks said by one source: a class that cannot play is refused by
``strategies.base.refuse_unplayable`` in its game's word for what it would forfeit; the columns
a declaration names are checked by ``tournaments.declaration.check_columns``, for a command and
for ``check_game`` alike; ``--jobs`` and repeated table sizes are refused by the shared
options module (``leaves_cli.options``), which loads no numpy."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

from strategies import Player
from tests.toygame import ToyGame

WHY = "it does nothing at all"


class _Idle(Player, register=False):
    """A player that cannot play."""

    name = "idle69"
    game = "idle69"  # declares no title: its id stands for it

    @classmethod
    def cannot_play(cls) -> str | None:
        return WHY


@pytest.mark.parametrize(("unit", "said"), [((), "game"), (("round",), "round")])
def test_the_refusal_says_the_games_unit(unit: tuple[str, ...], said: str) -> None:
    from strategies.base import refuse_unplayable

    with pytest.raises(TypeError) as refused:
        refuse_unplayable(_Idle, *unit)
    assert str(refused.value) == (
        f"idle69 is no idle69 player: {WHY}, so it would forfeit every {said} it played"
    )


def test_a_bad_name_is_said_before_the_refusal() -> None:
    from strategies.base import refuse_unplayable

    bad = type("Bad", (_Idle,), {})
    bad.name = "Not A Name"  # set after its definition, which would refuse it
    with pytest.raises(ValueError, match="^Bad.name must be lowercase letters"):
        refuse_unplayable(bad, "round")


def test_each_games_base_refuses_in_its_own_word() -> None:
    from leaves.players.base import Strategy
    from ligretto.players.base import LigrettoStrategy

    with pytest.raises(TypeError, match="so it would forfeit every game it played$"):
        type("NoChoose69", (Strategy,), {"name": "nochoose69"})
    with pytest.raises(TypeError, match="so it would forfeit every round it played$"):
        type("NoDecide69", (LigrettoStrategy,), {"name": "nodecide69"})


class _RankElsewhere(ToyGame):
    rank_value = "nothere"


class _LimitElsewhere(ToyGame):
    limits = "a or b"
    limit_columns = {"a": ("x", 3), "b": None}


class _Unseatable(ToyGame):
    max_players = 10**5000


@pytest.mark.parametrize("game", [_RankElsewhere, _LimitElsewhere, _Unseatable])
def test_check_game_and_a_command_say_a_column_fault_alike(game: type[Any]) -> None:
    from tournaments.declaration import declared
    from tournaments.declaration_check import check_declaration

    with pytest.raises(ValueError) as command:
        declared(game())
    with pytest.raises(AssertionError) as checked:
        check_declaration(game(), None)
    assert str(command.value) == f"the game declaration's {checked.value}"


def test_a_count_past_the_digits_is_shown_in_the_commands_line() -> None:
    """Was Python's 'Exceeds the limit (4300 digits) for integer string conversion'."""
    from tournaments.declaration import declared

    with pytest.raises(ValueError) as refused:
        declared(_Unseatable())
    assert str(refused.value) == (
        "the game declaration's min_players 2 and max_players a whole number of about 5,001 "
        "digits are not in 1..12"
    )


def test_the_option_checks_live_with_the_shared_options() -> None:
    from leaves_cli import options

    assert options.check_jobs.__module__ == options.refuse_repeated_sizes.__module__
    assert options.check_jobs.__module__ == "leaves_cli.options"


def test_the_option_checks_load_no_numpy() -> None:
    """A command checks its options before it loads what it runs on."""
    code = (
        "import sys\n"
        "from leaves_cli.errors import CLIError\n"
        "from leaves_cli.options import check_jobs, refuse_repeated_sizes\n"
        "for check, value in ((check_jobs, 0), (refuse_repeated_sizes, '3,03')):\n"
        "    try:\n"
        "        check(value)\n"
        "    except CLIError as exc:\n"
        "        print(exc.exit_code, exc.message)\n"
        "print('numpy' in sys.modules)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.splitlines() == [
        "2 --jobs must be a positive number (or -1), got 0",
        "2 --players names 3 twice (3,03): give each count once",
        "False",
    ], done.stderr
