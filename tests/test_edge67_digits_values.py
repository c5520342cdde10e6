"""Digits 0-9, one reading everywhere: a strategy's parameter holding digits of another script
(``weighted:w_shed=١``) played as the number Python's ``float`` reads (1.0), and a ``--rules``
number written with '_' (``turn_limit=1_000``) was refused without saying why, where the
number flags say it (``gamekit.whole.other_spelling``)."""

from __future__ import annotations

import pytest

from gamekit.whole import other_spelling
from leaves.ruleset import Rules
from strategies.spec_values import parse_params, parse_value
from tests.helpers import usage_error

UNDERSCORE = "written with '_' between its digits"


@pytest.mark.parametrize(
    "raw",
    ["\u0661", "\uff11", "\uff11.\uff15", "1\u0661", "\u0661e3", "-\u0663", "\u0661_\u0660",
     "\u0660.\u0665", " 1 ", "\t2", "1\n", "\u00a01", "\u20031.5"],
    ids=["arabic-indic", "fullwidth", "fullwidth-fraction", "mixed", "exponent", "negative",
         "underscore", "fraction", "spaces", "tab", "newline", "nbsp", "em-space"],
)  # fmt: skip
def test_a_value_with_other_digits_or_surroundings_stays_text(raw):
    """``int`` and ``float`` read each of these as a number (``'١'`` as 1); a spec reads a
    number in Python's ASCII forms only, with nothing around it."""
    got = parse_value(raw)
    assert got == raw and type(got) is str


def test_a_parameter_in_other_digits_reaches_the_strategy_as_typed():
    assert parse_params("w_shed=\u0661,w_pass=\uff12") == {"w_shed": "١", "w_pass": "２"}


@pytest.mark.parametrize(("args", "said"), [
    (["weighted:w_shed=\u0661", "low"], "parameter 'w_shed' of strategy weighted expects "
                                        "float, got '١'"),
    (["weighted(w_shed=\uff11.\uff15)", "low"], "parameter 'w_shed' of strategy weighted "
                                                "expects float, got '１.５'"),
    (["patient:min_hand=\u0663", "low"], "parameter 'min_hand' of strategy patient expects "
                                         "int, got '٣'"),
    (["--game", "ligretto", "cautious:patience=\u0663", "stack"],
     "parameter 'patience' of strategy cautious expects int, got '٣'"),
    (["--game", "ligretto", "stack:speed=\uff11", "cycler"],
     "parameter 'speed' of strategy stack expects float, got '１'"),
], ids=["weighted", "label-fullwidth", "patient-int", "ligretto-int", "ligretto-float"])  # fmt: skip
def test_a_parameter_in_other_digits_is_refused_in_one_line(capsys, tmp_path, args, said):
    """Was: the run played ``weighted(w_shed=1.0)`` (exit 0)."""
    out = tmp_path / "r"
    players = "2" if "ligretto" in args else "3"
    line = usage_error(capsys, ["tournament", *args, "--players", players, "--games", "3",
                                "--out", str(out)])  # fmt: skip
    assert line == f"leaves: error: {said}"
    assert not out.exists()


@pytest.mark.parametrize(("text", "said"), [
    ("turn_limit=1_000", f"turn_limit must be a whole number 1..1000000, got '1_000', {UNDERSCORE}"),
    ("expert_target=1_0", f"expert_target must be a whole number 1..1000, got '1_0', {UNDERSCORE}"),
    ("hand_size=1_0", f"hand_size must be a whole number 1..52, got '1_0', {UNDERSCORE}"),
    ("hand_size=3:1_2", f"hand_size must be a whole number 1..52, got '1_2', {UNDERSCORE}"),
    ("hand_size=0_3:12", "hand_size's player count must be a whole number 2..6, got '0_3', "
                         f"{UNDERSCORE}"),
    ("deck=1_0/3/4/5/6/7/8/7/6/5/4/3/2", "deck: copies of one value must be a whole number "
                                         f"0..8, got '1_0', {UNDERSCORE}"),
    ("players=3-0_5", f"players must be a whole number 2..6, got '0_5', {UNDERSCORE}"),
    ("players=3/0_5", f"players must be a whole number 2..6, got '0_5', {UNDERSCORE}"),
    ("turn_limit=\uff11_\uff12", "turn_limit must be a whole number 1..1000000, got '１_２', "
                                 "written with digits other than 0-9 and '_' between its digits"),
], ids=["turn_limit", "expert_target", "hand_size", "hand_size-pairs", "hand_size-count", "deck",
        "players-range", "players-list", "both"])  # fmt: skip
def test_a_rules_number_with_an_underscore_says_why_it_is_refused(text, said):
    """Was: 'turn_limit must be a whole number 1..1000000, got '1_000'', which Python reads as
    1000: the reason, in the number flags' words, is now said."""
    with pytest.raises(ValueError) as exc:
        Rules.parse(text)
    assert str(exc.value) == said


@pytest.mark.parametrize(("text", "said"), [
    ("turn_limit=\u0661\u0660", "turn_limit must be a whole number 1..1000000, got '١٠', "
                                "written with digits other than 0-9"),
    ("hand_size=3:\u0661\u0662", "hand_size must be a whole number 1..52, got '١٢', written "
                                 "with digits other than 0-9"),
    ("hand_size=\u0663:12", "hand_size's player count must be a whole number 2..6, got '٣', "
                            "written with digits other than 0-9"),
    ("players=3-\u0665", "players must be a whole number 2..6, got '٥', written with digits "
                         "other than 0-9"),
    ("players=3/\uff15", "players must be a whole number 2..6, got '５', written with digits "
                         "other than 0-9"),
], ids=["turn_limit", "hand_size-pairs", "hand_size-count", "players-range", "players-list"])  # fmt: skip
def test_every_rules_reader_refuses_digits_of_another_script(text, said):
    with pytest.raises(ValueError) as exc:
        Rules.parse(text)
    assert str(exc.value) == said


def test_the_command_line_says_why_a_rules_number_is_refused(capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "300")
    out = tmp_path / "r"
    line = usage_error(capsys, ["tournament", "low", "random", "--rules", "turn_limit=1_000",
                                "--players", "3", "--games", "3", "--out", str(out)])  # fmt: skip
    assert line == (
        "leaves: error: --rules: turn_limit must be a whole number 1..1000000, got '1_000', "
        f"{UNDERSCORE}"
    )
    assert not out.exists()


@pytest.mark.parametrize(("value", "parse", "why"), [
    ("1_000", int, UNDERSCORE),
    ("\u0661\u0662", int, "written with digits other than 0-9"),
    (" \uff11_\uff12 ", int, "written with digits other than 0-9 and '_' between its digits"),
    ("0_0.5", float, UNDERSCORE),
    ("0_0.5", int, ""),  # no whole number even to Python
    ("12abc_", int, ""),
    ("12", int, ""),
    (12, int, ""),  # not typed: no spelling
], ids=["underscore", "other-digits", "both", "float", "no-int", "no-number", "plain", "int"])  # fmt: skip
def test_the_reason_is_given_where_python_would_read_a_number(value, parse, why):
    assert other_spelling(value, parse) == why
