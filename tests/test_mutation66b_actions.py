"""``Action.parse`` reads numbers of ASCII digits only: what ``int`` alone would also read
(an Arabic-Indic digit, a grouping underscore, a sign) is refused as unreadable text."""

from __future__ import annotations

import pytest

from leaves import Action

TRY = "(try 'play 3x6' or 'pass, take 9')"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("\u0663", "'\u0663'"),  # int reads it as 3
        ("take \u0663", "'take \u0663'"),
        ("take 1_3", "'take 1_3'"),  # int reads it as 13
        ("play 1x+3", "'play 1x+3'"),  # int reads it as 3
        ("pass, take +9", "'pass, take +9'"),
    ],
)
def test_parse_refuses_digits_that_only_int_reads(text, shown):
    with pytest.raises(ValueError) as info:
        Action.parse(text)
    assert str(info.value) == f"cannot read an action from {shown} {TRY}"


def test_parse_reads_plain_digits_as_before():
    assert Action.parse("take 13") == Action.take(13)
    assert Action.parse("play 1x3") == Action.play(3, 1)
    assert Action.parse(" 3 ") == Action.from_id(3)
