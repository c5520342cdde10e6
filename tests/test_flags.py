"""Library errors name parameters as Python spells them; the command line names the same
values by their flags, through one table (``leaves_cli.flags``)."""

from __future__ import annotations

import pytest

from gamekit.errors import ParameterError
from leaves_cli import main
from leaves_cli.errors import CLIError
from leaves_cli.flags import FLAGS, flag, message
from tournaments import Tournament


def test_an_error_reads_in_the_librarys_names_and_in_the_flags():
    exc = ParameterError("give {games} (the total) or {add} (more), not both", "games", "add")
    assert str(exc) == "give games (the total) or add (more), not both"
    assert message(exc) == "give --games (the total) or --add (more), not both"
    assert isinstance(exc, ValueError)


def test_the_table_holds_only_flags_that_differ_from_the_rule():
    assert flag("record_sample") == "--record-sample" and flag("n_jobs") == "--jobs"
    assert all(FLAGS[p] != "--" + p.replace("_", "-") for p in FLAGS)


def test_a_braced_value_is_not_taken_for_a_parameter():
    exc = ParameterError("{players} takes numbers, got '{3,4}'", "players")
    assert message(exc) == "--players takes numbers, got '{3,4}'"


@pytest.mark.parametrize(
    ("kwargs", "library", "flagged"),
    [
        ({"games": 0}, "games must be at least 1, got 0", "--games must be at least 1, got 0"),
        ({"players": "3,x"}, "players takes numbers like", "--players takes numbers like"),
        ({"seed": -1}, "seed must be a non-negative integer", "--seed must be a non-negative"),
    ],
)
def test_the_runners_errors_name_its_parameters(kwargs, library, flagged):
    with pytest.raises(ParameterError) as caught:
        Tournament(["random", "greedy"], **{"players": 3, "games": 10, **kwargs})
    assert str(caught.value).startswith(library)
    assert CLIError.of(caught.value, usage=True).format_message().startswith(flagged)


def test_the_command_line_says_the_flag(capsys):
    with pytest.raises(SystemExit) as code:
        main(["tournament", "random", "greedy", "--players", "3", "--games", "0", "--out", "x"])
    err = capsys.readouterr().err
    assert code.value.code == 2 and err.strip().splitlines() == [
        "leaves: error: --games must be at least 1, got 0"
    ]


def test_a_bad_setting_given_on_resuming_names_its_flag_once(tmp_path, capsys):
    """The game's own error names the parameter; resuming says the flag, and only once."""
    out = str(tmp_path / "run")
    main(["tournament", "random", "greedy", "--players", "3", "--games", "48", "--jobs", "1",
          "--out", out])  # fmt: skip
    capsys.readouterr()
    with pytest.raises(SystemExit) as code:
        main(["tournament", "--out", out, "--resume", "--decision-timeout", "-3"])
    err = capsys.readouterr().err.strip().splitlines()
    assert code.value.code == 2 and err == [
        "leaves: error: --decision-timeout: the decision timeout must be 0 (none) or positive, "
        "got -3"
    ]
