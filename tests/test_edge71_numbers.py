"""A whole number is read in its own form alone, by the number flags as by ``--rules``: ``--games
09``, ``--seed +9`` and ``--jobs 09`` were read as 9 where ``--rules hand_size=09`` was refused
("written with a leading zero: write 9"); each is now refused in the same words (one source,
``gamekit.whole.other_form``), exit 2, and a number in its own form reads as before."""

from __future__ import annotations

import re

import click
import pytest
from hypothesis import given
from hypothesis import strategies as st

from leaves.ruleset import Rules
from leaves_cli.errors import CLIError
from leaves_cli.options import Count, WholeNumber, refuse_repeated_sizes
from tests.helpers import doc_text, usage_error

ZERO = "written with a leading zero"
SIGN = "written with a sign"


@pytest.mark.parametrize(("args", "said"), [
    (["tournament", "--games", "09"], f"--games takes a whole number, got '09', {ZERO}: write 9"),
    (["tournament", "--seed", "+9"], f"--seed takes a whole number 0 or more, got '+9', {SIGN}: "
                                     "write 9"),
    (["tournament", "--jobs", "09"], f"--jobs takes a whole number, got '09', {ZERO}: write 9"),
    (["tournament", "--jobs", "-01"], f"--jobs takes a whole number, got '-01', {ZERO}: write -1"),
    (["tournament", "--seed", "-0"], f"--seed takes a whole number 0 or more, got '-0', {SIGN}: "
                                     "write 0"),
    # the form to write only where the flag takes it, as --rules says it
    (["tournament", "--seed", "-09"], f"--seed takes a whole number 0 or more, got '-09', {ZERO}"),
    (["run", "--games", "00"], f"--games takes a whole number, got '00', {ZERO}"),
    (["gauntlet", "a", "--against", "b", "--games", "+010"],
     f"--games takes a whole number, got '+010', {SIGN} and a leading zero: write 10"),
    (["bench", "--seed", "01"], f"--seed takes a whole number 0 or more, got '01', {ZERO}: write 1"),
    (["report", "x", "--top", "05"], f"--top takes a whole number from 2 to 20, got '05', {ZERO}: "
                                     "write 5"),
    (["replay", "x.jsonl", "--game", "01"],
     "--game takes a whole number: from 1 for a record file, from 0 for a run directory, got "
     f"'01', {ZERO}: write 1"),
    (["play", "--seat", "+1"], f"--seat takes a whole number, got '+1', {SIGN}: write 1"),
    (["tournament", "--turn-limit", "040"], f"--turn-limit takes a whole number, got '040', {ZERO}: "
                                            "write 40"),
])  # fmt: skip
def test_a_number_flag_refuses_another_form_as_the_rules_do(capsys, monkeypatch, args, said):
    """Was: each read as the number, and played (``--games 09`` played 9 games)."""
    monkeypatch.setenv("COLUMNS", "300")
    line = usage_error(capsys, args)
    assert line == f"leaves: error: {said} (see 'leaves {args[0]} --help')"


def test_table_sizes_typed_in_another_form_are_refused(capsys, tmp_path):
    out = tmp_path / "r"
    line = usage_error(
        capsys, ["tournament", "random", "greedy", "--players", "3,04", "--out", str(out)]
    )
    assert line == ("leaves: error: --players takes table sizes as whole numbers (3,4,5), got "
                    f"'04', {ZERO}: write 4")  # fmt: skip
    assert not out.exists()


@pytest.mark.parametrize(("players", "said"), [
    ("3,03", "--players names 3 twice (3,03): give each count once"),  # said as before
    ("+3", f"--players takes table sizes as whole numbers (3,4,5), got '+3', {SIGN}: write 3"),
    ("3, 004", f"--players takes table sizes as whole numbers (3,4,5), got '004', {ZERO}: write 4"),
    ("00", f"--players takes table sizes as whole numbers (3,4,5), got '00', {ZERO}"),
])  # fmt: skip
def test_the_table_sizes_check_says_a_number_in_another_form(players, said):
    with pytest.raises(CLIError) as exc:
        refuse_repeated_sizes(players)
    assert (exc.value.exit_code, exc.value.message) == (2, said)


@pytest.mark.parametrize("players", ["3,4", "4", [3, 4], 4, None, "3,x"])
def test_table_sizes_in_their_own_form_pass_the_check(players):
    refuse_repeated_sizes(players)  # "3,x" is refused later, as no number


@pytest.mark.parametrize(("kind", "typed", "number"), [
    (WholeNumber(0), "0", 0), (WholeNumber(0), " 0 ", 0), (WholeNumber(), "10", 10),
    (WholeNumber(), "-1", -1), (WholeNumber(), "-3", -3), (Count(1), "10", 10),
])  # fmt: skip
def test_a_number_in_its_own_form_still_reads(kind, typed, number):
    assert kind.convert(typed, None, None) == number


@pytest.mark.parametrize(("args", "said"), [
    (["run", "--games", "0"], "--games must be at least 1, got 0"),
    (["tournament", "--seed", "-1"], "--seed takes a whole number 0 or more, got -1 (see 'leaves "
                                     "tournament --help')"),
    (["report", "x", "--top", "1"], "--top takes a whole number from 2 to 20, got 1 (see 'leaves "
                                    "report --help')"),
])  # fmt: skip
def test_a_number_out_of_bounds_is_refused_as_before(capsys, monkeypatch, args, said):
    monkeypatch.setenv("COLUMNS", "300")
    assert usage_error(capsys, args) == f"leaves: error: {said}"


def _written(call, error: type[Exception]) -> str:
    """The reason a refusal gives for the form of a number ('' for another refusal, or none)."""
    try:
        call()
    except error as exc:
        found = re.search(r", (written with .*)$", str(exc.message if hasattr(exc, "message")
                                                       else exc))  # fmt: skip
        return found[1] if found else ""
    return ""


@given(st.from_regex(r"[+-]?[0-9]{1,4}", fullmatch=True))
def test_a_number_flag_and_a_rule_refuse_the_same_forms_in_the_same_words(text):
    """One rule: the flag that takes 1..52 and the rule that does (``hand_size``) refuse the same
    texts for their form, with the same reason and the same form to write."""
    flag = _written(lambda: WholeNumber(1, 52).convert(text, None, None), click.UsageError)
    rule = _written(lambda: Rules.parse(f"hand_size={text}"), ValueError)
    assert flag == rule


@pytest.mark.parametrize("args", [
    ["tournament", "--games", "09"], ["tournament", "--seed", "+9"],
    ["tournament", "random", "greedy", "--players", "3,04", "--out", "/dev/null/edge71"],
])  # fmt: skip
def test_the_docs_give_the_lines_the_flags_print(capsys, monkeypatch, args):
    monkeypatch.setenv("COLUMNS", "300")
    line = usage_error(capsys, args).removeprefix("leaves: error: ").partition(" (see ")[0]
    assert f"`{line}`" in doc_text("cli.md")
