"""A number flag reads ASCII digits only, as ``gamekit.whole`` and ``Action.parse`` do:
``--games ١٢`` (Arabic-Indic digits) was read by ``int`` as 12 and played, ``--games 1_000``
as 1000; each is refused in one line that says why."""

from __future__ import annotations

import pytest

from leaves_cli.options import Number, WholeNumber
from tests.helpers import usage_error

OTHER = "written with digits other than 0-9"
UNDERSCORE = "written with '_' between its digits"


@pytest.mark.parametrize(("args", "said"), [
    (["tournament", "--games", "\u0661\u0662"], f"--games takes a whole number, got '١٢', {OTHER}"),
    (["tournament", "--games", "1_000"], f"--games takes a whole number, got '1_000', {UNDERSCORE}"),
    (["tournament", "--seed", "\u0661_\u0662"],
     f"--seed takes a whole number 0 or more, got '١_٢', {OTHER} and '_' between its digits"),
    (["replay", "--game", "\uff11\uff12", "x.jsonl"],
     f"--game takes a whole number: from 1 for a record file, from 0 for a run directory, got '１２', {OTHER}"),
    (["gauntlet", "--margin", "\u0660.\u0665"], f"--margin takes a number, got '٠.٥', {OTHER}"),
    (["tournament", "--precision", "0_0.5"], f"--precision takes a number, got '0_0.5', {UNDERSCORE}"),
], ids=["arabic-indic", "underscore", "both", "fullwidth", "fraction", "fraction-underscore"])  # fmt: skip
def test_a_number_flag_refuses_digits_other_than_ascii(capsys, monkeypatch, args, said):
    monkeypatch.setenv("COLUMNS", "300")
    line = usage_error(capsys, args)
    assert line == f"leaves: error: {said} (see 'leaves {args[0]} --help')"


def test_text_python_reads_as_no_number_is_refused_without_a_reason(capsys, monkeypatch):
    """The reason is given only where Python would have read a number: '12abc_' is none."""
    monkeypatch.setenv("COLUMNS", "300")
    line = usage_error(capsys, ["tournament", "--games", "12abc_"])
    assert (
        line
        == "leaves: error: --games takes a whole number, got '12abc_' (see 'leaves tournament --help')"
    )


@pytest.mark.parametrize(("kind", "typed", "number"), [
    (WholeNumber(1), " 12 ", 12),
    (WholeNumber(1), "12", 12),
    (WholeNumber(), "-3", -3),
    (Number(0), "1e3", 1000.0),
    (Number(0), "0.25", 0.25),
])  # fmt: skip
def test_ascii_digits_are_still_read(kind, typed, number):
    got = kind.convert(typed, None, None)
    assert got == number and type(got) is type(number)
