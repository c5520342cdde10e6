"""A command's options are merged once (command line over config file, stacked settings
in order) into a frozen ``Request`` that later steps read and cannot change."""

from __future__ import annotations

import dataclasses

import click
import pytest

from leaves_cli.request import Request, draft


@click.command()
@click.argument("specs", nargs=-1)
@click.option("--games", type=int, default=100)
@click.option("--seed", type=int, default=None)
@click.option("--rules", multiple=True)
def _command(**opts):  # pragma: no cover - only its parsing is used
    pass


def _draft(args, config=None, stacked=()):
    ctx = _command.make_context("t", list(args))
    return draft(ctx, dict(ctx.params), config, stacked)


def test_the_command_line_wins_over_the_config_file():
    values, given = _draft(["a", "b", "--games", "5"], {"games": 9, "seed": 3})
    assert values["games"] == 5 and values["seed"] == 3 and values["specs"] == ("a", "b")
    assert given == {"specs", "games", "seed"}


def test_the_config_files_strategies_stand_when_none_are_given():
    values, given = _draft([], {"specs": ("x", "y")})
    assert values["specs"] == ("x", "y") and "specs" in given
    values, given = _draft([])
    assert "specs" not in given


def test_a_stacked_setting_takes_the_files_values_then_the_command_lines():
    values, _ = _draft(["--rules", "b=2"], {"rules": ("a=1",)}, stacked={"rules"})
    assert values["rules"] == ("a=1", "b=2")
    values, _ = _draft(["--rules", "b=2"], {"rules": ("a=1",)})  # not stacked: the line wins
    assert values["rules"] == ("b=2",)


def test_a_request_is_frozen_and_a_copy_of_its_draft():
    values, _ = _draft(["a", "--games", "7"])
    request = Request.of(values)
    values["games"] = 8  # the draft goes on; the request does not see it
    assert request.games == 7 and request["games"] == 7 and request.get("nope", 1) == 1
    with pytest.raises(dataclasses.FrozenInstanceError):
        request.games = 9
    with pytest.raises(TypeError):
        request.values["games"] = 9
    with pytest.raises(AttributeError, match="no option 'nope'"):
        _ = request.nope
