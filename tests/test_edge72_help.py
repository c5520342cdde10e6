"""Each ``--help`` line as a claim a user acts on, held against what the command does: a
game's setting listed for every game says whose it is, ``--games`` names the unit a run of
matches counts, ``--out`` says it is required where it is, metavars say what is taken (never
click's ``TEXT``; every ``--out`` a DIRECTORY; ``--rules`` alike in every command), tune's
``--popsize`` and ``--sigma`` their default and bounds, ``--version`` after a command is
pointed before it, and a command typed by its start is offered."""

from __future__ import annotations

import click
import pytest
from click.testing import CliRunner

from leaves_cli.main import all_commands, cli

from .helpers import cli as run_cli


def _command(name: str) -> click.Command:
    return cli.get_command(click.Context(cli), name)


def _record(name: str, flag: str) -> tuple[str, str]:
    """The help's (flags and metavar, text) of ``flag`` of ``leaves NAME``, as ``--help``
    prints it."""
    command = _command(name)
    option = next(p for p in command.params if flag in getattr(p, "opts", ()))
    return option.get_help_record(click.Context(command, info_name=name))


def _help(*args: str) -> str:
    result = CliRunner().invoke(cli, [*args, "--help"], terminal_width=200)
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())


def _game_settings() -> list[tuple[str, str]]:
    """(flag, title) of each setting an installed game declares that another installed game
    does not: a flag ``--game`` of that other game refuses."""
    from tournaments.games import game_class, game_names

    classes = [game_class(n) for n in game_names()]
    flags = [{o.flag for o in getattr(c, "options", ())} for c in classes]
    return [(o.flag, c.title) for c, own in zip(classes, flags, strict=True)
            for o in getattr(c, "options", ()) if not all(o.flag in f for f in flags)]  # fmt: skip


def test_another_games_setting_is_refused_naming_the_game(tmp_path, capsys):
    """What the help lines below must say: a setting is one game's, another game refuses it."""
    flag, _ = next(s for s in _game_settings() if s[0] == "--turn-limit")
    code, _, err = run_cli(capsys, "tournament", "--game", "ligretto", "stack", "row",
                           flag, "5", "--out", str(tmp_path / "r"))  # fmt: skip
    assert code == 2 and err.strip() == f"leaves: error: {flag} is not a Ligretto option"


@pytest.mark.parametrize("name", ["tournament", "gauntlet"])
def test_a_games_setting_in_help_names_the_game_that_takes_it(name):
    settings = _game_settings()
    assert settings
    unsaid = [flag for flag, title in settings if title not in _record(name, flag)[1]]
    assert not unsaid, f"leaves {name} --help lists {unsaid} without naming their game"


def test_tournament_games_help_names_the_matches_an_expert_run_counts(tmp_path, capsys):
    args = ["tournament", "greedy", "low", "high", "--expert", "--games", "30", "--jobs", "1"]
    code, _, err = run_cli(capsys, *args, "--out", str(tmp_path / "m"))
    assert code == 0 and err.split()[1] == "matches", err  # "72 matches = 15 tables x ..."
    assert "matches" in _record("tournament", "--games")[1]


def test_tournament_out_help_says_it_is_required(capsys):
    code, _, err = run_cli(capsys, "tournament", "greedy", "low")
    assert code == 2 and "--out DIR is required" in err
    assert "required" in _record("tournament", "--out")[1]


def test_no_option_shows_clicks_default_metavar_text():
    found = [f"leaves {name} {_record(name, p.opts[0])[0]}" for name in sorted(all_commands())
             for p in _command(name).params if isinstance(p, click.Option) and not p.is_flag
             and _record(name, p.opts[0])[0].endswith(" TEXT")]  # fmt: skip
    assert not found, found


def test_every_out_is_shown_as_a_directory():
    shown = {name: _record(name, "--out")[0] for name in sorted(all_commands())
             if any("--out" in getattr(p, "opts", ()) for p in _command(name).params)}  # fmt: skip
    assert len(shown) >= 7
    assert {n: s for n, s in shown.items() if s != "--out DIRECTORY"} == {}


def test_rules_reads_the_same_in_every_commands_help():
    shown = {name: _record(name, "--rules")[0] for name in sorted(all_commands())
             if any("--rules" in getattr(p, "opts", ()) for p in _command(name).params)}  # fmt: skip
    assert set(shown) >= {"gauntlet", "play", "run", "tournament", "tune", "variants"}
    assert set(shown.values()) == {"--rules KEY=VALUE[,...]"}, shown


@pytest.mark.parametrize("sigma", ["0", "1.5"])
def test_tune_refuses_a_sigma_outside_its_bounds(sigma, tmp_path, capsys):
    code, _, err = run_cli(capsys, "tune", "weighted", "--against", "taker", "--sigma", sigma,
                           "--out", str(tmp_path / "t"))  # fmt: skip
    assert code == 2 and "--sigma must lie in (0, 1]" in err


def test_tune_help_gives_the_sigma_bounds_and_the_popsize_default():
    sigma, popsize = _record("tune", "--sigma")[1], _record("tune", "--popsize")[1]
    assert "at most 1" in sigma and "above 0" in sigma
    assert "default" in popsize


@pytest.mark.parametrize("name", ["tournament", "bench", "report"])
def test_version_after_a_command_is_pointed_before_it(name, capsys):
    code, out, err = run_cli(capsys, name, "--version")
    assert (code, out) == (2, "")
    assert "did you mean" not in err and "'leaves --version'" in err, err


def test_a_command_typed_by_its_start_is_offered(capsys):
    code, _, err = run_cli(capsys, "tour")
    assert code == 2 and "did you mean 'tournament'?" in err, err


def test_the_unknown_command_line_is_one_line_naming_the_help(capsys):
    """What is said today and kept by the fixes: one line, exit 2, the help named."""
    for typed in ("tournamnt", "help"):
        code, out, err = run_cli(capsys, typed)
        assert (code, out, len(err.splitlines())) == (2, "", 1)
        assert err.startswith(f"leaves: error: unknown command '{typed}'")
        assert err.rstrip().endswith("(see 'leaves --help')")


def test_dash_h_is_dash_dash_help_for_the_group_and_every_command():
    for name in ["", *sorted(all_commands())]:
        args = [name] if name else []
        short = CliRunner().invoke(cli, [*args, "-h"], terminal_width=200)
        assert short.exit_code == 0 and " ".join(short.output.split()) == _help(*args), name
