"""Two wordings from a review, each fixed.

- A config file's value that a refusal shows back was said as Python writes it, while the
  line claims the file's form: ``load in c.toml lists ['x.py']`` where the file says
  ``load = [["x.py"]]``; ``got 'ray'``, ``got [True]``. It is said as TOML writes it, the one
  form the advice of a resume uses too (``set seed to 1 in c.toml``).
- A run past a run's most was refused in games (``--games asks for N games in all``) for a
  game played in rounds, whose ``--games`` asks for rounds.
"""

from __future__ import annotations

import tomllib

import pytest

from leaves_cli.errors import CLIError
from leaves_cli.toml_values import in_toml, shown_toml
from tests.helpers import usage_error
from tournaments.schedule import MAX_RUN_GAMES, Schedule, check_size

# ------------------------------------------ a config file's value, as the file writes it

WRITTEN = [  # (as the file writes it, as a refusal shows it back)
    ('"x.py"', '"x.py"'),
    ('["x.py"]', '["x.py"]'),
    ('[["x.py", 2], []]', '[["x.py", 2], []]'),
    ("true", "true"),
    ("[true, false]", "[true, false]"),
    ("3", "3"),
    ("-0.5", "-0.5"),
    ("inf", "inf"),
    ("{}", "{}"),
    ('{a = 1, "b c" = [false]}', '{a = 1, "b c" = [false]}'),
    ('"say \\"hi\\"\\n"', '"say \\"hi\\"\\n"'),
    ('"café \\u0007"', '"café \\u0007"'),
    ("1979-05-27", "1979-05-27"),
    ("07:32:00", "07:32:00"),
    ("1979-05-27T07:32:00", "1979-05-27T07:32:00"),
    ("1979-05-27T07:32:00Z", "1979-05-27T07:32:00+00:00"),
]


@pytest.mark.parametrize(("written", "shown"), WRITTEN)
def test_every_kind_of_value_is_shown_as_toml_and_reads_back_as_itself(written, shown):
    """Was: ``'x.py'``, ``True``, ``{'a': 1}``, ``datetime.date(...)``: Python's forms."""
    value = tomllib.loads(f"v = {written}")["v"]
    assert in_toml(value) == shown_toml(value) == shown
    assert tomllib.loads(f"v = {shown}")["v"] == value  # TOML indeed: the file's own value


@pytest.mark.parametrize(("written", "shown"), [w for w in WRITTEN if w[0][0] != '"'])
def test_a_listed_value_that_is_no_text_is_shown_as_the_file_writes_it(tmp_path, written, shown):
    """Was: ``load in c.toml lists ['x.py']`` where the file says ``load = [["x.py"]]``."""
    from leaves_cli.tournament_parts import read_config

    config = tmp_path / "c.toml"
    config.write_text(f"[tournament]\nload = [{written}]\n", encoding="utf-8")
    with pytest.raises(CLIError) as exc:
        read_config(str(config))
    assert exc.value.message == f"load in {config} lists {shown}: give file names, each in quotes"


@pytest.mark.parametrize(("line", "said"), [
    ('games = "10"', 'games takes a whole number, got "10"'),
    ('backend = "ray"', 'backend takes loky or dask, got "ray"'),
    ("jobs = [true]", "jobs takes a whole number, got [true]"),
    ("seed = {a = 1}", "seed takes a whole number, got {a = 1}"),
])  # fmt: skip
def test_a_value_of_the_wrong_kind_is_shown_as_the_file_writes_it(tmp_path, line, said):
    """Was: ``got '10'``, ``got [True]``, ``got {'a': 1}``."""
    from leaves_cli.tournament_parts import read_config

    config = tmp_path / "c.toml"
    config.write_text(f"[tournament]\n{line}\n", encoding="utf-8")
    with pytest.raises(CLIError) as exc:
        read_config(str(config))
    assert exc.value.message == f"{config}: {said}"


def test_a_resume_whose_config_lists_no_file_name_shows_the_files_form(capsys, tmp_path):
    """The review's line: a resume refused ``load in t2.toml lists ['x.py']``."""
    config = tmp_path / "t2.toml"
    config.write_text('[tournament]\nload = [["x.py"]]\n', encoding="utf-8")
    args = ["tournament", "--config", str(config), "--out", str(tmp_path / "o"), "--resume"]
    assert usage_error(capsys, args) == (
        f'leaves: error: load in {config} lists ["x.py"]: give file names, each in quotes'
    )


def test_a_value_too_long_for_the_line_is_cut_or_said_in_words():
    """One line whatever the file holds: cut as every error line cuts a value."""
    assert shown_toml(["a" * 200]) == '["' + "a" * 55 + "..."
    assert shown_toml(10**100) == "a whole number of about 101 digits"
    assert shown_toml("a\nb") == '"a\\nb"'


# ------------------------------------------ a run past a run's most, in the game's unit

PAST = "past 2**32 - 1 (a run's most {})"


def test_the_refusal_counts_the_units_the_caller_gives():
    with pytest.raises(ValueError) as exc:
        check_size(MAX_RUN_GAMES + 1, MAX_RUN_GAMES + 1, units="rounds")
    assert str(exc.value) == f"games asks for 4,294,967,296 rounds in all, {PAST.format('rounds')}"
    with pytest.raises(ValueError) as exc:
        Schedule([(0, 1, 2)], MAX_RUN_GAMES + 1, units="rounds")
    assert str(exc.value) == ("games asks for 4,294,967,298 rounds in all (rounded up to whole "
                              f"duplicate sets), {PAST.format('rounds')}")  # fmt: skip


def test_the_refusal_in_games_is_as_it_was():
    with pytest.raises(ValueError) as exc:
        Schedule([(0, 1, 2)], MAX_RUN_GAMES + 1)
    assert str(exc.value) == ("games asks for 4,294,967,298 games in all (rounded up to whole "
                              f"duplicate sets), {PAST.format('games')}")  # fmt: skip


@pytest.mark.parametrize(("game", "strategies", "said"), [
    ("ligretto", ["cautious", "cycler", "row"], "5,000,000,040 rounds"),
    ("leaves", ["greedy", "random"], "5,000,000,000 games"),
])  # fmt: skip
def test_a_tournament_past_a_runs_most_is_refused_in_its_games_unit(capsys, tmp_path, game,
                                                                    strategies, said):  # fmt: skip
    """Was: ``--games asks for 5,000,000,040 games in all`` for a game played in rounds."""
    args = ["tournament", "--game", game, *strategies, "--games", "5000000000"]
    unit = said.split()[-1]
    rounded = "" if said.startswith("5,000,000,000 ") else " (rounded up to whole duplicate sets)"
    assert usage_error(capsys, [*args, "--out", str(tmp_path / "o")]) == (
        f"leaves: error: --games asks for {said} in all{rounded}, {PAST.format(unit)}"
    )
