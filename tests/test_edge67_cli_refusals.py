"""The command line's refusals say the true fault, in one wording: an option whose value is
missing is said to miss it (not the option it swallowed, nor the argument left over); click's
own capitalised sentences never reach the user; a tournament counts its strategies first;
and ``--games 0`` reads alike in every command."""

from __future__ import annotations

import pytest

from tests.helpers import cli, one_error_line


@pytest.fixture(autouse=True)
def _wide(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")


def _line(capsys, *args: str) -> tuple[int, str]:
    code, _, err = cli(capsys, *args)
    return code, one_error_line(err).removeprefix("leaves: error: ")


@pytest.mark.parametrize(
    ("args", "said"),
    [
        # it said "--out DIR is required (where the results go)": --players took '--out'
        (["tournament", "greedy", "low", "--players", "--out", "runs/x3"],
         "--players needs a value after it, got the option '--out' (see 'leaves tournament "
         "--help')"),
        # it said click's "Got unexpected extra argument (runs/x4)"
        (["gauntlet", "greedy", "--against", "--out", "runs/x4"],
         "--against needs a value after it, got the option '--out' (see 'leaves gauntlet "
         "--help')"),
        # it said "--seed takes a whole number 0 or more, got '--out'": now worded alike
        (["tournament", "greedy", "low", "--seed", "--out", "runs/x"],
         "--seed needs a value after it, got the option '--out' (see 'leaves tournament "
         "--help')"),
        (["tournament", "greedy", "low", "--record", "--out=runs/x"],
         "--record needs a value after it, got the option '--out=runs/x' (see 'leaves "
         "tournament --help')"),
        (["run", "-j", "-n", "4"],
         "-j needs a value after it, got the option '-n' (see 'leaves run --help')"),
        (["gauntlet", "greedy", "--against", "low", "--games", "--help"],
         "--games needs a value after it, got the option '--help' (see 'leaves gauntlet "
         "--help')"),
    ],
)  # fmt: skip
def test_a_value_that_is_another_option_is_said_missing(capsys, args, said):
    assert _line(capsys, *args) == (2, said)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["verify", "a", "b"], "an argument too many: 'b' (see 'leaves verify --help')"),
        (["strategies", "x", "y"], "an argument too many: 'x y' (see 'leaves strategies --help')"),
        (["tournament", "greedy", "low", "--outt", "x"],
         "unknown option '--outt'; did you mean '--out'? (see 'leaves tournament --help')"),
        (["nosuch"], "unknown command 'nosuch' (see 'leaves --help')"),
        (["tournamnt"], "unknown command 'tournamnt'; did you mean 'tournament'? (see 'leaves "
         "--help')"),
        (["tournament", "--resume=1", "--out", "x"],
         "--resume takes no value (it is a switch) (see 'leaves tournament --help')"),
        (["--debug"], "name a command (see 'leaves --help')"),
    ],
)  # fmt: skip
def test_click_says_nothing_in_its_own_words(capsys, args, said):
    code, line = _line(capsys, *args) if args != ["--debug"] else _debug_line(capsys)
    assert (code, line) == (2, said)
    assert not any(word in line for word in ("No such", "Got ", "Option ", "Missing "))


def _debug_line(capsys) -> tuple[int, str]:
    code, _, err = cli(capsys, "--debug")  # --debug adds the traceback above the line
    return code, err.splitlines()[-1].removeprefix("leaves: error: ")


def test_leaves_alone_shows_the_help_not_an_error(capsys):
    code, out, err = cli(capsys)
    assert code == 2 and err.startswith("Usage: leaves") and "error" not in err.splitlines()[0]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        # it said "name at least one strategy", then, given one, that it needs two
        (["tournament", "--out", "runs/x3"],
         "a tournament needs at least 2 strategies, got 0 (see 'leaves strategies')"),
        (["tournament", "greedy", "--out", "runs/x3"],
         "a tournament needs at least 2 strategies, got 1 (greedy): alone, a strategy only "
         "plays itself"),
        (["tournament", "greedy"], "a tournament needs at least 2 strategies, got 1 (greedy): "
         "alone, a strategy only plays itself"),
        (["tournament", "--resume"], "--out DIR is required (where the results go)"),
    ],
)  # fmt: skip
def test_a_tournament_counts_its_strategies_first(capsys, args, said):
    assert _line(capsys, *args) == (2, said)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["tournament", "greedy", "low", "--games", "0", "--out", "o"], "--games must be at least 1, got 0"),
        (["gauntlet", "greedy", "--against", "low", "--games", "0"], "--games must be at least 1, got 0"),
        (["bench", "--games", "0"], "--games must be at least 1, got 0"),
        # these two said "--games takes a whole number 1 or more, got 0"
        (["run", "--games", "0"], "--games must be at least 1, got 0"),
        (["variants", "--games", "0", "--out", "o"], "--games must be at least 1, got 0"),
        (["variants", "--games", "-3", "--out", "o"], "--games must be at least 1, got -3"),
        (["variants", "--trace-games", "-2", "--out", "o"],
         "--trace-games must be at least 0, got -2"),
    ],
)  # fmt: skip
def test_games_below_one_reads_alike_in_every_command(capsys, args, said, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert _line(capsys, *args) == (2, said)


@pytest.mark.parametrize("command", ["tournament", "bench", "run", "variants"])
def test_games_spelt_with_underscores_reads_alike_in_every_command(capsys, command, tmp_path,
                                                                   monkeypatch):  # fmt: skip
    monkeypatch.chdir(tmp_path)
    args = {"tournament": ["tournament", "a", "b"], "variants": ["variants", "--out", "o"]}
    code, line = _line(capsys, *args.get(command, [command]), "--games", "1_000")
    assert (code, line) == (2, "--games takes a whole number, got '1_000', written with '_' "
                               f"between its digits (see 'leaves {command} --help')")  # fmt: skip
