"""A game plug-in's faults, each said in one line that names the game: an option named like a
command's own flag (left out with one warning; ``check_game`` fails it), seat columns that are
not whole numbers within int16, protocol fields a run needs (``max_length``,
``default_seating``, ``play``) checked before anything is written, any exception ``play``
raises, a name that is another installed game's id, and a ``--game`` module that fails or
exits while it is imported."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import warnings
from pathlib import Path
from typing import Any

import click
import numpy as np
import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from tests.helpers import cli, one_error_line
from tests.toygame import ToyGame
from tournaments import games
from tournaments.game import GameBase, GameOption

ROOT = Path(__file__).resolve().parents[1]
HERE = __name__
RUN = ("a", "b", "--players", "2", "--games", "8", "--seed", "1", "--jobs", "1", "--no-progress")


def _architecture() -> str:
    return " ".join((ROOT / "docs" / "architecture.md").read_text(encoding="utf-8").split())


@pytest.fixture
def install(tmp_path, monkeypatch):
    """``install(id=module:Class, ...)``: those games installed (a distribution's entry points
    on ``sys.path``) while the test runs."""

    def add(**games_: str) -> None:
        info = tmp_path / "edge70-0.1.dist-info"
        info.mkdir(exist_ok=True)
        (info / "METADATA").write_text("Metadata-Version: 2.1\nName: edge70\nVersion: 0.1\n")
        lines = "".join(f"{k} = {v}\n" for k, v in games_.items())
        (info / "entry_points.txt").write_text(f"[leaves.games]\n{lines}")
        monkeypatch.syspath_prepend(str(tmp_path))
        games._entry_points.cache_clear()

    yield add
    games._entry_points.cache_clear()


# ------------------------------------------------------------ 1: an option named like a flag
class SeedOption(ToyGame):
    """A game whose option is named like the commands' own ``--seed``."""

    name = "edge70seed"
    options = (GameOption("seed", int, "The deck's seed."),)

    def __init__(self, seed: int = 0, **kw: Any):
        super().__init__(**kw)
        self.seed = seed

    def config(self) -> dict[str, Any]:
        return {**super().config(), "seed": self.seed}


def test_an_option_named_like_a_commands_own_is_a_clash():
    from tournaments.declaration_check import option_clash

    assert option_clash(GameOption("seed", int, "")) == "--seed is a flag of the commands' own"
    assert option_clash(GameOption("out", str, "")) == "--out is a flag of the commands' own"
    assert option_clash(GameOption("game_spec", str, "")) == (
        "'game_spec' names a parameter of the commands' own (--game)"
    )
    assert option_clash(GameOption("deck_size", int, "")) is None


def test_check_game_fails_an_option_named_like_a_commands_flag():
    from tournaments.declaration_check import check_declaration

    with pytest.raises(AssertionError) as failed:
        check_declaration(SeedOption(), ["a", "b"])
    assert str(failed.value) == (
        "option 'seed' cannot be a flag: --seed is a flag of the commands' own"
    )


def test_the_commands_parameters_are_those_of_the_commands_that_take_game_options():
    """The list the clash is checked against is every parameter (and flag) of both commands."""
    from leaves_cli.gauntlet_cmd import gauntlet
    from leaves_cli.tournament_cmd import tournament
    from leaves_cli.tournament_parts import CONFIG_KEYS, installed_options
    from tournaments.declaration_check import COMMAND_PARAMETERS

    own = {o.name for o in installed_options()}
    found: dict[str, set[str]] = {"help": {"--help"}, "strategies": set()}  # a config key
    assert {CONFIG_KEYS[k][0] for k in CONFIG_KEYS if k != "strategies"} <= {
        p.name for p in tournament.params
    }
    for command in (tournament, gauntlet):
        for p in command.params:
            if p.name not in own:
                flags = {*p.opts, *p.secondary_opts} if isinstance(p, click.Option) else set()
                found[p.name] = found.get(p.name, set()) | flags
    assert {k: set(v) for k, v in COMMAND_PARAMETERS.items()} == found


def test_an_installed_games_clashing_option_is_left_out_with_one_warning(install, monkeypatch):
    from leaves_cli import tournament_parts as parts

    monkeypatch.setattr(parts, "_SAID_LEFT_OUT", set())
    install(edge70seed=f"{HERE}:SeedOption")
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        first, again = parts.installed_options(), parts.installed_options()

        @click.command()
        @click.option("--seed", type=int, default=None)
        @parts.game_options
        def command(**kw: Any) -> None:
            click.echo(repr(parts.game_settings(kw)))

        result = CliRunner().invoke(command, ["--seed", "3"])
    assert "seed" not in {o.name for o in first + again}
    assert [str(w.message) for w in said] == [
        "game edge70seed: its option 'seed' is left out of the command line: --seed is a flag "
        "of the commands' own (check_game fails it; rename it)"
    ]
    assert [p.name for p in command.params].count("seed") == 1
    assert (result.exit_code, result.output) == (0, "{}\n")  # the seed is the command's


@pytest.mark.slow
def test_a_run_of_an_installed_game_with_a_seed_option_takes_its_own_seed(install, tmp_path):
    """Was: "The parameter --seed is used more than once" (twice), then "--seed is not a Toy
    option" for every game; ``--help`` listed --seed twice."""
    install(edge70seed=f"{HERE}:SeedOption")
    env = {**os.environ, "PYTHONPATH": f"{tmp_path}{os.pathsep}{ROOT}"}
    out = tmp_path / "run"
    args = ["tournament", "--game", "edge70seed", *RUN, "--out", str(out)]
    done = subprocess.run([sys.executable, "-m", "leaves_cli", *args], capture_output=True,
                          text=True, env=env, cwd=ROOT, timeout=120)  # fmt: skip
    assert done.returncode == 0, done.stderr
    warned = [line for line in done.stderr.splitlines() if line.startswith("leaves: warning:")]
    assert warned == ["leaves: warning: game edge70seed: its option 'seed' is left out of the "
                      "command line: --seed is a flag of the commands' own (check_game fails "
                      "it; rename it)"]  # fmt: skip
    assert '"seed": 1' in (out / "manifest.json").read_text()
    helped = subprocess.run([sys.executable, "-m", "leaves_cli", "tournament", "--help"],
                            capture_output=True, text=True, env=env, cwd=ROOT, timeout=120)  # fmt: skip
    assert len(re.findall(r"^\s+--seed ", helped.stdout, re.MULTILINE)) == 1


def test_the_docs_say_a_clashing_option_is_left_out():
    text = _architecture()
    assert "an option named like a flag of those commands' own (`seed`, `out`:" in text


# ------------------------------------------------------------------- 3: seat columns' numbers
def _batch(**seat: Any) -> tuple[Any, ToyGame]:
    game = ToyGame()
    b = game.play(["a", "b"], np.arange(4, dtype=np.uint64), np.arange(4, dtype=np.uint64) + 9)
    b.seat_values.update(seat)
    return b, game


@pytest.mark.parametrize(
    ("values", "why"),
    [
        (np.full((4, 2), 1.5), "seat_values['points'] is an array of float64, not of whole "
                               "numbers (an integer dtype)"),
        (np.full((4, 2), 2.0), "seat_values['points'] is an array of float64, not of whole "
                               "numbers (an integer dtype)"),
        (np.full((4, 2), 100_000), "seat_values['points'] holds 100,000, not a whole number "
                                   "from -32,767 to 32,767 (kept as int16)"),
        (np.full((4, 2), -32_768), "seat_values['points'] holds -32,768, not a whole number "
                                   "from -32,767 to 32,767 (kept as int16)"),
        (np.full((4, 2), 32_767, np.int64), None),
        (np.ones((4, 2), bool), None),
    ],
)  # fmt: skip
def test_a_seat_column_holds_whole_numbers_within_int16(values, why):
    from tournaments.plugin_results import batch_fault

    b, game = _batch(points=values)
    assert batch_fault(b, 4, 2, game, game.max_length) == why


@given(st.lists(st.integers(-40_000, 40_000), min_size=8, max_size=8))
def test_a_seat_column_is_refused_exactly_when_a_value_is_past_its_bounds(values):
    from tournaments.plugin_results import SEAT_VALUES, batch_fault

    b, game = _batch(points=np.array(values, np.int32).reshape(4, 2))
    inside = all(SEAT_VALUES[0] <= v <= SEAT_VALUES[1] for v in values)
    assert (batch_fault(b, 4, 2, game, game.max_length) is None) == inside


class FloatRank(ToyGame):
    """Its rank value as a fraction (a score of 1.5)."""

    def play(self, *args: Any, **kw: Any) -> Any:
        b = super().play(*args, **kw)
        b.seat_values["points"] = b.seat_values["points"] + 0.5
        return b


def test_a_run_of_a_fractional_rank_value_stops_naming_the_game_and_column(cli_run):
    """Was: "Iterator operand 0 dtype could not be cast from float64 to int64" (a rank value
    past int16: a summary that failed, and a replay advised that failed the same way)."""
    code, err = cli_run("FloatRank")
    assert code == 1
    assert err.splitlines()[-1] == (
        f"leaves: error: game {HERE}:FloatRank: seat_values['points'] is an array of float64, "
        "not of whole numbers (an integer dtype)"
    )


def test_match_scores_past_int16_are_refused():
    from tournaments.plugin_results import PluginError, check_matches

    game = ToyGame()
    res = game.play_matches(["a", "b"], np.arange(2, dtype=np.uint64),
                            np.arange(2, dtype=np.uint64), 30)  # fmt: skip
    res.match_totals = res.match_totals.astype(np.int64) * 10_000
    with pytest.raises(PluginError, match=r"^game tests.toygame:ToyGame: play_matches\(\): "
                       r"match_totals holds [\d,]+, not a whole number from -32,767 to "
                       r"32,767 \(kept as int16\)$"):  # fmt: skip
        check_matches(game, res, 2, 2)


def test_the_docs_state_the_seat_columns_limits():
    assert "whole numbers from -32,767 to 32,767" in _architecture()


# ------------------------------------------------------ 4: the protocol, checked before a run
_TOY = {k: v for k, v in vars(ToyGame).items() if k == "__init__" or not k.startswith("__")}


def _on_base(cls_name: str, drop: str | None = None, **change: Any) -> type:
    """ToyGame's attributes on ``GameBase``, ``drop`` left out and ``change`` changed,
    importable by name."""
    attrs = {k: v for k, v in {**_TOY, **change}.items() if k != drop}
    cls = type(cls_name, (GameBase,), {**attrs, "__module__": HERE, "__qualname__": cls_name})
    globals()[cls_name] = cls
    return cls


class NoMaxLength(ToyGame):
    def __init__(self) -> None:
        super().__init__()
        del self.max_length


class MaxLengthText(ToyGame):
    def __init__(self) -> None:
        super().__init__()
        self.max_length = "3"


NoSeating = _on_base("NoSeating", drop="default_seating")
SeatingRandom = _on_base("SeatingRandom", default_seating="random")
NoPlay = _on_base("NoPlay", drop="play")


@pytest.mark.parametrize(
    ("game", "why"),
    [
        ("NoMaxLength", "it does not declare 'max_length'"),
        ("MaxLengthText", "max_length = '3' is not a whole number"),
        ("NoSeating", "it does not declare 'default_seating'"),
        ("SeatingRandom", "default_seating 'random' is none of balanced, all, rotations"),
    ],
)
def test_a_protocol_field_a_run_needs_is_refused_before_anything_is_written(
    capsys, tmp_path, game, why
):
    """Was: "game takes a game plug-in or an installed game's id, got <...NoMaxLength object
    at 0x...>" (exit 1); "can only concatenate str (not "int") to str" once the run folder was
    made; "unknown --seating 'random'", a flag never typed."""
    out = tmp_path / "run"
    code, said, err = cli(capsys, "tournament", "--game", f"{HERE}:{game}", *RUN,
                          "--out", str(out))  # fmt: skip
    assert (code, said) == (2, "")
    assert one_error_line(err) == f"leaves: error: --game: game '{HERE}:{game}': {why}"
    assert not out.exists()


def test_a_plugin_without_play_is_named_by_the_commands_check():
    from tournaments.declaration_check import check_protocol

    with pytest.raises(ValueError, match="^it has no method 'play'$"):
        check_protocol(NoPlay())
    assert check_protocol(ToyGame()).name == "toy"


# ------------------------------------------------------------------ 5: an exception from play
class RaisesRuntime(ToyGame):
    def play(self, *args: Any, **kw: Any) -> Any:
        raise RuntimeError("deck exhausted")


class RaisesValue(ToyGame):
    def play(self, *args: Any, **kw: Any) -> Any:
        raise ValueError("deck exhausted")


class LooksUpAStrategy(ToyGame):
    """Asks the strategies for an entrant no registry holds: the strategies' own words."""

    def play(self, *args: Any, **kw: Any) -> Any:
        return self.lookup("nosuch70")


@pytest.fixture
def cli_run(capsys, tmp_path):
    """``leaves tournament --game tests.test_edge70_plugin:GAME a b ...``: (exit, stderr)."""

    def run(game: str) -> tuple[int, str]:
        code, _, err = cli(capsys, "tournament", "--game", f"{HERE}:{game}", *RUN,
                           "--out", str(tmp_path / game))  # fmt: skip
        return code, err

    return run


@pytest.mark.parametrize(("game", "kind"), [("RaisesRuntime", "RuntimeError"),
                                            ("RaisesValue", "ValueError")])  # fmt: skip
def test_any_exception_play_raises_is_the_games_fault(cli_run, game, kind):
    """Was: "leaves: error: RuntimeError: deck exhausted (for the traceback...)", naming no
    game; "leaves: error: deck exhausted", exit 2, a usage error."""
    code, err = cli_run(game)
    assert code == 1
    assert err.splitlines()[-1] == (
        f"leaves: error: game {HERE}:{game}: play() raised {kind}: deck exhausted"
    )


def test_an_error_the_strategies_word_passes_in_their_words():
    from tournaments.plugin_results import PluginError, checked_play

    game = LooksUpAStrategy()
    seeds = np.arange(2, dtype=np.uint64)
    with pytest.raises(ValueError) as raised:
        checked_play(game, ["a", "b"], seeds, seeds)
    assert not isinstance(raised.value, PluginError)


# -------------------------------------------------------------- 8: a name another game holds
class NamedLikeLigretto(ToyGame):
    name = "ligretto"


def test_a_module_class_named_as_an_installed_game_is_refused_naming_both():
    spec = f"{HERE}:NamedLikeLigretto"
    with pytest.raises(ValueError) as refused:
        games.plugin_class(spec)
    assert str(refused.value) == (
        f"cannot load {spec!r}: its name 'ligretto' is the id of the installed game "
        "ligretto.plugin:LigrettoGame (distribution leaves): give it a name of its own"
    )


def test_a_variant_of_an_installed_game_loads_by_its_class():
    name = "LigrettoVariant70"
    variant = type(name, (games.game_class("ligretto"),), {"__module__": HERE,
                                                          "__qualname__": name})  # fmt: skip
    globals()[name] = variant
    try:
        assert games.plugin_class(f"{HERE}:{name}") is variant
    finally:
        del globals()[name]


def test_an_id_two_distributions_install_is_refused_naming_both(install):
    install(ligretto=f"{HERE}:NamedLikeLigretto")
    with pytest.raises(ValueError) as refused:
        games.game_class("ligretto")
    said = str(refused.value)
    assert said.startswith("game 'ligretto' is installed twice, as ")
    assert "ligretto.plugin:LigrettoGame (distribution leaves)" in said
    assert f"{HERE}:NamedLikeLigretto (distribution edge70)" in said
    assert said.endswith(": uninstall one")


def test_an_id_other_than_its_classs_name_is_refused(install):
    install(edge70other=f"{HERE}:SeedOption")
    with pytest.raises(ValueError) as refused:
        games.game_class("edge70other")
    assert str(refused.value) == (
        f"game 'edge70other' is installed as {HERE}:SeedOption (distribution edge70), whose "
        "name is 'edge70seed': the id must be the class's name"
    )


# ---------------------------------------------------------- 10: a module that fails to import
@pytest.mark.parametrize(
    ("module", "source", "why"),
    [
        ("edge70_nameerr", "x = undefined_name\n",
         "NameError: name 'undefined_name' is not defined"),
        ("edge70_synerr", "class G(\n", "SyntaxError: '(' was never closed"),
        ("edge70_exits", "import sys\nsys.exit(3)\n",
         "exited while it was loaded (SystemExit(3)): a game's module must not exit"),
    ],
)  # fmt: skip
def test_a_game_module_that_fails_as_it_is_imported_is_said_as_game(
    capsys, tmp_path, monkeypatch, module, source, why
):
    """Was: "leaves: error: NameError: ... (for the traceback...)", exit 1, or a silent exit 3."""
    (tmp_path / f"{module}.py").write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    code, said, err = cli(capsys, "tournament", "--game", f"{module}:G", *RUN,
                          "--out", str(tmp_path / "run"))  # fmt: skip
    assert (code, said) == (2, "")
    line = one_error_line(err)
    assert line.startswith(f"leaves: error: --game: cannot load '{module}:G': {why}")
    assert not (tmp_path / "run").exists()


# ------------------------------------------------------- 9: a module:Class game's own options
class DeckOption(ToyGame):
    """Not installed: its option is no flag."""

    name = "edge70deck"
    options = (GameOption("deck_size", int, "Cards in the deck."),)

    def __init__(self, deck_size: int = 52, **kw: Any):
        super().__init__(**kw)
        self.deck_size = deck_size


def test_a_module_class_games_option_is_no_flag_as_the_docs_say(capsys, tmp_path):
    assert "a game given as `module:Class` and not installed gets no flag of its own" in (
        _architecture()
    )
    code, _, err = cli(capsys, "tournament", "--game", f"{HERE}:DeckOption", *RUN,
                       "--deck-size", "3", "--out", str(tmp_path / "run"))  # fmt: skip
    assert code == 2 and "--deck-size" in one_error_line(err)
