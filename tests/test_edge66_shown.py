"""``gamekit.errors.shown``, the one way an error shows a bad value, at each kind of value a
caller meets (a whole number past the 4,300 digits Python writes, nan, long text, text that
breaks a line or moves the cursor, bytes, JSON's tables and lists, None, a bool), and each
of its callers' errors kept to one line."""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path

import pytest

from gamekit.errors import shown
from leaves.commands.moves import MoveError, parse_move
from leaves.players.play import deal_state
from leaves_cli.errors import CLIError
from leaves_cli.replay_run import _file_changed
from strategies import registry
from tests.helpers import cli, one_error_line
from tests.test_mutation64_manifest import manifest, refused
from tournaments.checksums import malformed

HUGE = 10**5000  # str() refuses it: past 4,300 digits
MOST = sys.get_int_max_str_digits()


class _Lines:
    """A value whose repr runs over lines and colours the terminal (an escape sequence)."""

    def __repr__(self) -> str:
        return "State(\n    seat=1,\n\tcolour=\x1b[31mred\x1b[0m)"


class _Broken:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


def _kind(value: object) -> str:
    """A test's id: the value's type (pytest writes an int out, which a huge one refuses)."""
    return type(value).__name__


def _nested(depth: int) -> list:
    value: list = []
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize(("value", "said"), [
    (HUGE, "a whole number of about 5,001 digits"),
    (-HUGE, "a negative whole number of about 5,001 digits"),
    (10**400, "a whole number of about 401 digits"),
    (10**60, "a whole number of about 61 digits"),  # 61 characters: past the line's 60
    (10**60 - 1, f"{'9' * 60} (int)"),  # 60: whole
    (-(10**59), "a negative whole number of about 60 digits"),  # 61 with its sign
    (math.nan, "nan (float)"),
    (-math.inf, "-inf (float)"),
    ("y" * 59, "'" + "y" * 56 + "... (str)"),
    ("a\nb\r\x1b[2J", "'a\\nb\\r\\x1b[2J' (str)"),
    ("a  b", "'a  b' (str)"),  # was 'a b': two spaces of a text are not a line's layout
    ("\u2028é", "'\\u2028é' (str)"),
    (b"\x00\nz", "b'\\x00\\nz' (bytes)"),
    (json.loads('{"a": [1, null, true]}'), "{'a': [1, None, True]} (dict)"),
    (json.loads("[[]]"), "[[]] (list)"),
    (None, "None (NoneType)"),
    (False, "False (bool)"),
    (_Lines(), "State( seat=1, colour=\\x1b[31mred\\x1b[0m) (_Lines)"),
    ([1, HUGE], "a list that Python cannot write out"),
    (_Broken(), "a _Broken that Python cannot write out"),
    (_nested(100_000), "a list that Python cannot write out"),
], ids=_kind)  # fmt: skip
def test_each_kind_of_value_is_shown_on_one_short_line(value, said):
    """Was: a whole number past 4,300 digits (or a list holding one) raised Python's digit
    limit ValueError in place of the error; an escape sequence of a repr reached the
    terminal; two spaces of a text were shown as one."""
    assert shown(value) == said
    assert shown(value, typed=False) == said.removesuffix(f" ({type(value).__name__})")


@pytest.mark.parametrize(("value", "said"), [
    (None, "null"),
    (True, "true"),
    (math.nan, "NaN"),
    ({"a": [1, None]}, '{"a": [1, null]}'),
    ("mine\0.py\n", '"mine\\u0000.py\\n"'),
    ("é" * 30, '"' + "\\u00e9" * 9 + "\\u..."),
    (b"\x00", "b'\\x00'"),  # no JSON value: as Python writes it
    ({1, 2}, "{1, 2}"),
    (HUGE, "a whole number of about 5,001 digits"),
    ([HUGE], "a list that Python cannot write out"),
], ids=_kind)  # fmt: skip
def test_a_value_read_from_json_is_shown_as_the_file_writes_it(value, said):
    assert shown(value, typed=False, as_json=True) == said


@pytest.mark.parametrize("value", [
    HUGE, -HUGE, "x\n" * 500, "\x1b" * 100, b"\n" * 200, {"k\n": "v\t" * 80}, [None] * 100,
    _Lines(), _Broken(), [HUGE], math.inf, 2**200, "\u0085\u2029\u200b",
], ids=_kind)  # fmt: skip
@pytest.mark.parametrize("as_json", [False, True])
def test_any_value_is_shown_printable_within_sixty_characters_and_its_type(value, as_json):
    said = shown(value, as_json=as_json)
    assert said.isprintable(), said
    kind = f" ({type(value).__name__})"
    assert len(said.removesuffix(kind)) <= 60, said


# ------------------------------------------------------------------ each caller, one line


def test_a_manifest_field_holding_any_value_is_refused_in_one_line():
    """Was: a whole number past 4,300 digits raised Python's digit limit ValueError; an
    entrant's label with a line break broke the refusal over two lines."""
    refused(manifest(game=HUGE), "spec.game is a whole number of about 5,001 digits, "
            "expected a game id")  # fmt: skip
    refused(manifest(players="3\n4"), "spec.players is '3\\n4', expected a list of player "
            "counts (whole numbers)")  # fmt: skip
    refused(manifest(seating=[1, HUGE]), "spec.seating is a list that Python cannot write "
            "out, expected a seating design's name")  # fmt: skip
    refused(manifest(entrants=[{"label": "a\nb", "params": 5}, {"label": "b"}]),
            "a\\nb: its params in the manifest (spec.entrants) are 5, expected a table of "
            "parameter names to values")  # fmt: skip


def test_a_strategy_parameter_of_any_value_is_refused_in_one_line():
    """Was: a list holding a whole number past 4,300 digits raised Python's digit limit
    ValueError, its message in place of the parameter's."""
    with pytest.raises(ValueError) as info:
        registry.get("taker", harm_weight=[HUGE])
    assert str(info.value) == ("parameter 'harm_weight' of strategy taker expects float, got a "
                               "list that Python cannot write out")  # fmt: skip
    with pytest.raises(ValueError, match=r"expects float, got '1\\n2\\x1b'$"):
        registry.get("taker", harm_weight="1\n2\x1b")


@pytest.mark.parametrize(("label", "file", "said", "expected"), [
    ("mine", 5, "5", "a file's path (text)"),
    ("mine", {"a": None}, '{"a": null}', "a file's path (text)"),
    ("mine", [HUGE], "a list that Python cannot write out", "a file's path (text)"),
    ("mine", "a\nb\0" * 20, json.dumps("a\nb\0" * 20)[:57] + "...", "a path (no NUL)"),
    ("mi\nne\x1b[2J", 5, "5", "a file's path (text)"),
], ids=_kind)  # fmt: skip
def test_an_entrant_file_of_any_value_is_refused_in_one_line(tmp_path, label, file, said,
                                                             expected):  # fmt: skip
    """Was: a label's line break (a hand-edited manifest's) broke the refusal over lines."""
    with pytest.raises(CLIError) as info:
        _file_changed(tmp_path, {"label": label, "file": file, "file_sha256": "0" * 64})
    line = str(info.value)
    assert line.isprintable() and line.endswith(
        f": its file in the manifest (spec.entrants) is {said}, expected {expected}"
    ), line


def test_malformed_checksums_are_said_in_one_line_cut_at_sixty_characters():
    """Was: cut at 40 characters, where every other error of a manifest cuts at 60."""
    said = [p.reason for p in malformed({"integrity": "ab\n" * 40})]
    assert said == ["its checksums (integrity) are malformed: '" + "ab\\n" * 14 + "...,"
                    " not a table"]  # fmt: skip
    said = [p.reason for p in malformed({"integrity": {"chunks": {"0\n1": {}}}})]
    assert said == ["its checksums (integrity) are malformed: chunk '0\\n1' is not a chunk "
                    "number"]  # fmt: skip


@pytest.mark.parametrize("typed", ["hello\nworld\x1b[2J", "9" * 5000 + "\n", "x" * 300])
def test_a_move_typed_at_the_prompt_is_refused_in_one_line(typed):
    with pytest.raises(MoveError) as info:
        parse_move(typed, deal_state(4, 1))
    assert str(info.value).isprintable() and len(str(info.value)) < 250, str(info.value)


_OPTIONS = {"specs": ["greedy", "random"], "load": [], "rules": ["hand_size=9"], "sweep": None,
            "players": [4], "games": 10, "seed": 5, "expert": False, "trace_games": 0,
            "restricted_games": 0, "restrict": None, "ladder": None}  # fmt: skip


def _variants(out: Path, text: str) -> Path:
    out.mkdir()
    (out / "variants.json").write_text(text)
    return out


@pytest.mark.parametrize(("options", "given", "said"), [
    ({"rules": ["hand_size=9\nx"]}, ["--rules", "hand_size=8"],
     "--rules hand_size=8 differs from this run's --rules 'hand_size=9\\nx': drop --rules"),
    ({"specs": ["greedy\x1b[2J", "random"]}, ["greedy", "low"],
     "strategies greedy,low differs from this run's strategies 'greedy\\x1b[2J',random: "
     "give no strategies"),
    ({"rules": ["hand_size=9"]}, ["--rules", "hand_size=8"],
     "--rules hand_size=8 differs from this run's --rules hand_size=9: resume with --rules "
     "hand_size=9, or drop --rules"),
])  # fmt: skip
def test_a_resumed_comparison_refuses_another_option_in_one_line(
    tmp_path, capsys, monkeypatch, options, given, said
):
    """Was: a hand-edited variants.json's line break in a rule set broke the refusal over two
    lines."""
    monkeypatch.setenv("COLUMNS", "400")
    state = {"format": 1, "options": _OPTIONS | options, "designer": {}}
    out = _variants(tmp_path / "v", json.dumps(state))
    code, _, err = cli(capsys, "variants", "--out", str(out), "--resume", *given)
    assert code == 2 and one_error_line(err) == f"leaves: error: cannot resume {out}: {said}"


@pytest.mark.parametrize(("text", "why"), [
    ('{"format": 1, "options": {"games": ' + "1" * (MOST + 1) + "}}",
     f"it holds a number of more than {MOST:,} digits"),
    ("[" * 100_000 + "]" * 100_000, "it holds lists or objects nested too deep to read"),
])  # fmt: skip
def test_a_comparison_state_python_cannot_read_is_refused_naming_it(tmp_path, capsys, text, why):
    """Was: Python's own words, naming neither the file nor the run ('Exceeds the limit (4300
    digits) for integer string conversion ... use sys.set_int_max_str_digits()')."""
    out = _variants(tmp_path / "v", text)
    code, _, err = cli(capsys, "variants", "--out", str(out), "--resume")
    path = out / "variants.json"
    assert code == 1 and one_error_line(err) == (
        f"leaves: error: cannot resume {out}: {path} cannot be read: {why}; it holds no run of "
        f"the comparison to make it again from: remove {path}, then leave out --resume to start "
        "one there"
    )


def test_a_comparison_state_with_a_huge_negative_number_is_refused_on_a_short_line(
    tmp_path, capsys
):
    state = {"format": 1, "options": _OPTIONS | {"games": -(10**4000)}, "designer": {}}
    out = _variants(tmp_path / "v", json.dumps(state))
    code, _, err = cli(capsys, "variants", "--out", str(out), "--resume")
    assert code == 1 and one_error_line(err) == (
        f"leaves: error: cannot resume {out}: {out / 'variants.json'} holds --games a negative "
        "whole number of about 4,001 digits, out of its range (at least 1)"
    )
