"""The Python API and the command line play the same gauntlet when neither is told its size:
``leaves gauntlet SPEC --against FIELD`` played 20,000 games a side, ``tournaments.gauntlet``
10,000, so the one call a researcher reproduces in Python gave another result when the size
was left out."""

from __future__ import annotations

import inspect

import tournaments


def test_the_api_gauntlet_defaults_to_the_command_lines_games():
    from leaves_cli.gauntlet_cmd import FIXED_GAMES

    for fn in (tournaments.gauntlet, tournaments.Gauntlet):
        assert inspect.signature(fn).parameters["games"].default == FIXED_GAMES, fn
