"""Small edges: an action id too long for ``int`` names the range it takes, a benchmark's
time is said without rounding up to 60 of a unit, and a config file's number too long for
Python is found by the key that holds it, not by a run of digits in a string above it."""

from __future__ import annotations

from pathlib import Path

import pytest

from leaves.actions import Action
from leaves_cli import bench_cmd
from tests.helpers import cli, one_error_line

DIGITS = "9" * 5000
"""A number past the 4,300 digits Python reads, as typed."""
SAID = "a whole number of about 5,000 digits"
"""How ``gamekit.errors.shown`` says it."""


# ------------------------------------------------------------------ Action.parse
@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("99999", "action id must be an integer 0..117, got 99999"),
        (DIGITS, f"action id must be an integer 0..117, got {SAID}"),
        (f"take {DIGITS}", f"card value must be 1..13, got {SAID}"),
        (f"pass, take {DIGITS}", f"card value must be 1..13, got {SAID}"),
        (f"play 3x{DIGITS}", f"card value must be 1..13, got {SAID}"),
        (f"play {DIGITS}x6", f"play count must be 1..8, got {SAID}"),
    ],
    ids=["five-digits", "id", "take", "pass-take", "value", "count"],
)
def test_a_number_too_long_for_int_names_the_range_as_a_shorter_one_does(text, line):
    """5,000 nines said "cannot read an action from '9999...'": int() refused them before
    the range was asked."""
    with pytest.raises(ValueError) as exc:
        Action.parse(text)
    assert str(exc.value) == line


def test_zeros_before_a_number_are_read_however_many_lead():
    assert Action.parse("0" * 5000 + "9") is Action.from_id(9)
    assert Action.parse(f"take {'0' * 5000}9") is Action.take(9)


# ------------------------------------------------------------------ a duration in words
@pytest.mark.parametrize(
    ("seconds", "words"),
    [(59.4, "59 seconds"), (59.5, "1 minute"), (3_569, "59 minutes"), (3_599, "1 hour"),
     (84_599, "23 hours"), (86_399, "1 day"), (9.96, "10 seconds"), (599, "10 minutes"),
     (1.05 * 86_400 - 1, "1 day"), (364.9 * 86_400, "365 days")],
)  # fmt: skip
def test_a_duration_never_says_60_of_a_unit(seconds, words):
    """3,599 s was "60 minutes", 59.5 s "60 seconds" and 86,399 s "24 hours": a figure that
    rounds to the next unit's length is said in that unit."""
    assert bench_cmd._duration(seconds) == words


class _Takes:
    """A game whose benchmark takes ``seconds`` and no memory."""

    unit = "game"

    def __init__(self, seconds: float):
        self.seconds = seconds

    def bench_needs(self, players, games, api_games, repeats):
        return 0, self.seconds


SIZES = {"games": 10, "api_games": None, "repeats": 3}


@pytest.mark.parametrize(
    ("seconds", "takes"),
    [(86_401, "more than 1 day"), (1.04 * 86_400, "more than 1 day"),
     (1.06 * 86_400, "at least 1.1 days")],
)  # fmt: skip
def test_a_refusal_just_past_a_day_says_more_than_a_day(seconds, takes):
    """86,401 s was refused as "takes at least 1 day ...; one of more than 1 day is
    refused", which reads as a refusal of what the limit allows."""
    with pytest.raises(bench_cmd.CLIError) as exc:
        bench_cmd.check_needs(_Takes(seconds), 4, SIZES, "")
    assert str(exc.value) == (f"the benchmark takes {takes} on one core; one of more than "
                              "1 day is refused: ask for fewer")  # fmt: skip


def test_a_warning_just_under_a_day_says_a_day(capsys):
    bench_cmd.check_needs(_Takes(86_399), 4, SIZES, "")
    assert (
        capsys.readouterr().err
        == "leaves: warning: the benchmark takes at least 1 day on one core\n"
    )


# ------------------------------------------------------------------ a config file's long number
def _refusal(capsys, tmp_path: Path, text: str) -> str:
    config = tmp_path / "run.toml"
    config.write_text(text, encoding="utf-8")
    code, _, err = cli(capsys, "tournament", "greedy", "random", "--config", str(config),
                       "--out", str(tmp_path / "out"))  # fmt: skip
    assert code == 2 and not (tmp_path / "out").exists()
    line = one_error_line(err)
    prefix = f"leaves: error: --config: {config}: "
    assert line.startswith(prefix), line
    return line.removeprefix(prefix)


@pytest.mark.parametrize(
    ("text", "where"),
    [
        (f'name = "{DIGITS}"\ngames = {DIGITS}\n', "games (line 2)"),
        (f"name = '{DIGITS}'\n\n[tournament]\nseed = -{DIGITS}\n", "seed (line 4)"),
        (f"# {DIGITS}\ngames = {DIGITS}\n", "games (line 2)"),
        (f'games = 3  # {DIGITS}\nseed = {DIGITS}\n', "seed (line 2)"),
        (f'record = """\n{DIGITS}\n"""\ngames = {DIGITS}\n', "games (line 4)"),
        (f'record = "a \\" {DIGITS}"\ngames = {DIGITS}\n', "games (line 2)"),
        (f"turn_limit = {DIGITS}.5\ngames = {DIGITS}\n", "games (line 2)"),
        (f"seed = 0x{'9' * 5000}\ngames = {DIGITS}\n", "games (line 2)"),
        (f'"{DIGITS}" = 1\ngames = {DIGITS}\n', "games (line 2)"),
    ],
    ids=["string", "literal-string", "comment", "comment-after", "lines-string", "escaped-quote",
         "float", "hexadecimal", "quoted-key"],
)  # fmt: skip
def test_a_long_number_is_found_by_its_key_not_by_digits_above_it(capsys, tmp_path, text, where):
    """A string (or a comment, a float, a key) above the number holding a run of 5,000
    digits was named instead: "name (line 1)"."""
    assert _refusal(capsys, tmp_path, text) == (
        f"{where} holds a whole number of 5,000 digits, past the 4,300 Python reads"
    )


def test_a_long_number_in_an_inline_table_is_named_by_its_own_key(capsys, tmp_path):
    text = f'name = "{DIGITS}"\nt = {{a = "{DIGITS}", b = {DIGITS}}}\n'
    assert _refusal(capsys, tmp_path, text).startswith("b (line 2) holds a whole number of ")
