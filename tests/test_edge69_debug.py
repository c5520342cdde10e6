"""``--debug`` goes before the subcommand. An unexpected failure said "rerun with --debug"
without saying where: appended to the command, --debug printed a traceback (the flag was
honoured wherever it stood) and then "unknown option '--debug'"; and ``leaves --debug``
still printed the hint below the traceback it had just shown."""

import pytest

from leaves.plugin import LeavesGame
from tests.helpers import cli, one_error_line

BENCH = ("bench", "--games", "10", "--repeats", "1")


@pytest.fixture
def failing_bench(monkeypatch):
    """``leaves bench`` failing in a way no command words: the last resort's line."""

    def bench(*args):
        raise RuntimeError("boom")

    monkeypatch.setattr(LeavesGame, "bench", bench)


def test_the_hint_says_where_the_flag_goes(capsys, failing_bench):
    code, _, err = cli(capsys, *BENCH)
    assert code == 1
    assert one_error_line(err) == (
        "leaves: error: RuntimeError: boom (for the traceback, rerun as 'leaves --debug bench ...')"
    )


def test_with_debug_the_traceback_shows_and_no_hint(capsys, failing_bench):
    code, _, err = cli(capsys, "--debug", *BENCH)
    assert code == 1 and "Traceback (most recent call last)" in err
    assert err.splitlines()[-1] == "leaves: error: RuntimeError: boom"


def test_a_misplaced_debug_is_refused_in_one_line_without_a_traceback(capsys, failing_bench):
    code, _, err = cli(capsys, *BENCH, "--debug")
    assert code == 2 and "Traceback" not in err
    assert one_error_line(err) == (
        "leaves: error: --debug goes before the command: 'leaves --debug bench ...' shows a "
        "failure's traceback"
    )


def test_the_refusal_names_the_command_it_followed(capsys):
    code, _, err = cli(capsys, "strategies", "--debug")
    assert code == 2 and "Traceback" not in err
    assert "'leaves --debug strategies ...'" in one_error_line(err)
