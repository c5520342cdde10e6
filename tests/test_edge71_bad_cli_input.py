"""Bad input on the command line, refused in one line as the rest is: table sizes in other
digits ('٤' played 4-player tables, '4_0' was said as 40) or with an empty item ('3,,4'); a
sweep range past what ``len`` counts (an OverflowError); a tuning's games past a run's most
once rounded (said as a --games tune has none of); ``leaves run --out FILE`` in other words
than every command's; a growth past a run's most without its flag; a config file's strategy
that is no text; ``tune(against=None)``; and a name typed with control characters, echoed raw
(an escape sequence cleared the screen, a line break split a line)."""

from __future__ import annotations

import types
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamekit.errors import ParameterError
from leaves_cli.errors import CLIError
from leaves_cli.options import refuse_repeated_sizes
from tests.helpers import cli, one_error_line, usage_error
from tournaments.schedule import parse_players
from tournaments.stages import grown_stages

OTHER = "written with digits other than 0-9"
UNDERSCORE = "written with '_' between its digits"
SIZES = "--players takes table sizes as whole numbers (3,4,5), got"
EMPTY = ("has an empty item (two commas in a row, or one at an end): give a table size between "
         "every two commas")  # fmt: skip


# ------------------------------------------ table sizes: digits 0-9, no empty item (3,,4)


@pytest.mark.parametrize(("players", "said"), [
    ("\u0664", f"{SIZES} '\u0664', {OTHER}"),
    ("\uff13", f"{SIZES} '\uff13', {OTHER}"),
    ("3,\u0664", f"{SIZES} '\u0664', {OTHER}"),
    ("4_0", f"{SIZES} '4_0', {UNDERSCORE}"),
    ("3_4,3", f"{SIZES} '3_4', {UNDERSCORE}"),
])  # fmt: skip
def test_table_sizes_in_other_digits_are_refused(players, said):
    with pytest.raises(CLIError) as exc:
        refuse_repeated_sizes(players)
    assert (exc.value.exit_code, exc.value.message) == (2, said)


@pytest.mark.parametrize("command", [
    ["tournament", "random", "greedy", "--games", "12", "--jobs", "1"],
    ["tune", "weighted", "--against", "greedy"],
])  # fmt: skip
@pytest.mark.parametrize(("players", "said"), [
    ("\u0664", f"{SIZES} '\u0664', {OTHER}"), ("4_0", f"{SIZES} '4_0', {UNDERSCORE}"),
    ("3,,4", f"--players '3,,4' {EMPTY}"),
])  # fmt: skip
def test_tournament_and_tune_refuse_such_sizes_as_play_does(capsys, tmp_path, command, players,
                                                            said):  # fmt: skip
    """Was: '٤' played 4-player tables, '4_0' said "got 40", '3,,4' played 3 and 4."""
    out = tmp_path / "o"
    line = usage_error(capsys, [*command, "--players", players, "--out", str(out)])
    assert line == f"leaves: error: {said}"
    assert not out.exists()


@pytest.mark.parametrize(("players", "said"), [
    ("\u0664", f"players takes numbers like 4 or 3,4,5, got '\u0664', {OTHER}"),
    ("4_0", f"players takes numbers like 4 or 3,4,5, got '4_0', {UNDERSCORE}"),
    ("3 4", "players takes numbers like 4 or 3,4,5, got '3 4'"),  # was read as 34
    ("3,,4", f"players '3,,4' {EMPTY}"), ("3,", f"players '3,' {EMPTY}"),
    (",4", f"players ',4' {EMPTY}"),
])  # fmt: skip
def test_the_library_reads_table_sizes_as_the_command_line_does(players, said):
    with pytest.raises(ParameterError) as exc:
        parse_players(players)
    assert (str(exc.value), exc.value.params) == (said, ("players",))


def test_table_sizes_in_digits_0_to_9_still_read():
    assert parse_players(" 3, 4 ") == (3, 4)
    assert parse_players("5,3") == (3, 5)
    refuse_repeated_sizes(" 3, 4 ")


@given(st.text(st.characters(categories=["Nd"], exclude_characters="0123456789"), min_size=1,
               max_size=3))  # fmt: skip
def test_no_table_size_is_read_from_other_digits(digits):
    with pytest.raises(ParameterError, match=OTHER):
        parse_players(digits)


# ------------------------------------------ a sweep's range counted in whole numbers


@pytest.mark.parametrize(("hi", "got"), [
    (str(10**30), f"{10**30:,}"), (str(2**63), f"{2**63:,}"),
    ("9" * 5000, "a whole number of about 5,000 digits"),  # past the 4,300 digits int() reads
])  # fmt: skip
def test_a_sweep_range_past_what_len_counts_is_refused_by_its_count(hi, got):
    """Was: "OverflowError: Python int too large to convert to C ssize_t", exit 1 (and past
    4,300 digits, Python's own words about int())."""
    from leaves.commands.variants_sweep import sweep_values

    with pytest.raises(CLIError) as exc:
        sweep_values(f"hand_size=1..{hi}")
    assert exc.value.exit_code == 2
    assert exc.value.message.endswith(f": give 2 to 16 values, got {got}")


# ------------------------------------------ a tuning's sizes, bounded once rounded


MOST = "past 2**32 - 1 (a run's most games)"


@pytest.mark.parametrize(("flag", "extra"), [
    ("--candidate-games", ["--budget", "4294967295"]), ("--verify-games", []),
])  # fmt: skip
def test_tune_names_the_games_flag_whose_rounding_passes_a_run_s_most(capsys, tmp_path, flag,
                                                                      extra):  # fmt: skip
    """Was: "--games asks for 4,294,967,296 games in all ...", and tune has no --games."""
    args = ["tune", "weighted", "--against", "greedy", flag, "4294967295", *extra]
    line = usage_error(capsys, [*args, "--out", str(tmp_path / "t")])
    assert line == (f"leaves: error: {flag} asks for 4,294,967,296 games in all (rounded up "
                    f"to whole duplicate sets), {MOST}")  # fmt: skip


def test_a_population_no_budget_plays_names_popsize(capsys, tmp_path):
    line = usage_error(capsys, ["tune", "weighted", "--against", "greedy", "--popsize",
                                str(10**30), "--out", str(tmp_path / "t")])  # fmt: skip
    assert line.startswith(f"leaves: error: two generations of {10**30:,} candidates and ")
    assert line.endswith("need more than 2**32 - 1 games (the most --budget may be): give a "
                         "smaller --popsize")  # fmt: skip


def test_the_library_names_its_own_parameters(tmp_path):
    from tuning import tune

    with pytest.raises(ParameterError) as exc:
        tune("weighted", "greedy", candidate_games=4294967295, budget=4294967295,
             out=tmp_path / "t")  # fmt: skip
    assert exc.value.params == ("candidate_games",)
    with pytest.raises(ParameterError, match="give a smaller popsize or candidate_games$"):
        tune("weighted", "greedy", popsize=10**30, candidate_games=10, out=tmp_path / "t")
    assert not (tmp_path / "t").exists()


@pytest.mark.parametrize("against", [None, 5, [1], [["greedy"]]])
def test_tune_refuses_a_field_that_is_no_specs_naming_against(tmp_path, against):
    """Was: "'NoneType' object is not iterable", and [1] was the unknown strategy '1'."""
    from tuning import tune

    with pytest.raises(TypeError, match=r"^against takes a strategy spec or a list of them, got "):
        tune("weighted", against, out=tmp_path / "t")


# ------------------------------------------ leaves run --out FILE, as every command says it


def test_run_resume_into_a_file_is_said_as_every_out(capsys, tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("x\n")
    code, _, err = cli(capsys, "run", "--resume", "--out", str(afile))
    assert code == 1
    assert one_error_line(err) == (f"leaves: error: cannot write to {afile}: it is not a "
                                   "directory (--out)")  # fmt: skip


# ------------------------------------------ a growth past a run's most, named


@pytest.mark.parametrize(("kw", "name", "said"), [
    ({"add": 10**30}, "add", f"add grows the run to {10**30 + 20:,} games in all, {MOST}"),
    ({"add": 4294967290}, "add", "add grows the run to 4,294,967,320 games in all (rounded up "
                                 f"to whole duplicate sets), {MOST}"),
    ({"games": 4294967295}, "games", "games asks for 4,294,967,300 games in all (rounded up to "
                                     f"whole duplicate sets), {MOST}"),
])  # fmt: skip
def test_a_growth_past_a_run_s_most_names_what_asked_it(kw, name, said):
    """Was: "at most 2**32 - 1 games per tournament", naming neither --add nor its games."""
    with pytest.raises(ParameterError) as exc:
        grown_stages([1], 20, 20, **kw)
    assert (str(exc.value), exc.value.params) == (said, (name,))


# ------------------------------------------ a config file's strategies: text each


@pytest.mark.parametrize(("listed", "said"), [
    ('[["greedy"], "low"]', '["greedy"]'), ("[1, 2]", "1"),
])  # fmt: skip
def test_a_config_strategy_that_is_no_text_is_refused_naming_the_file(tmp_path, listed, said):
    """Was: unknown strategy "['greedy']" or '1', naming neither the file nor the key."""
    from leaves_cli.tournament_parts import read_config

    config = tmp_path / "c.toml"
    config.write_text(f"[tournament]\nstrategies = {listed}\n")
    with pytest.raises(CLIError) as exc:
        read_config(str(config))
    assert (exc.value.exit_code, exc.value.message) == (
        2, f"strategies in {config} lists {said}: give strategy specs such as 'greedy', each in "
           "quotes")  # fmt: skip


# ------------------------------------------ control characters: shown, never obeyed


def test_an_error_line_escapes_control_characters():
    from leaves_cli.errors import error_line  # the one source of the line, new with the fix

    assert error_line("no run at x\x1b[2J\nRED") == "leaves: error: no run at x\\x1b[2J\\nRED"
    assert error_line("plain, \u0664 and all") == "leaves: error: plain, \u0664 and all"


def test_a_typed_name_with_an_escape_sequence_is_shown_not_obeyed(capsys, tmp_path):
    """Was: ``leaves report $'x\\e[2J'`` cleared the screen."""
    name = str(tmp_path / "x\x1b[2J\x1b[31mRED")
    code, _, err = cli(capsys, "report", name)
    assert code != 0
    line = one_error_line(err)
    assert "\x1b" not in line and "x\\x1b[2J\\x1b[31mRED" in line


def test_the_results_line_shows_a_line_break_in_out_escaped(capsys):
    """Was: "results in o/nl" and then "x" on a line of its own."""
    from leaves_cli.tournament_cmd import _echo_start

    t = types.SimpleNamespace(rounded_note="20 games", game=None, n_games=20, units="games",
                              seed=1)  # fmt: skip
    _echo_start(t, Path("o/nl\nx"), None)
    assert capsys.readouterr().err.splitlines()[-1] == "seed 1; results in o/nl\\nx"
