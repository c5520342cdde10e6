"""The rule tables ``leaves`` exports are read-only: ``HAND_SIZES`` was a plain dict, so an edit
(``sizes = leaves.HAND_SIZES; sizes[4] -= 1``) changed every later deal while the rules, their
records and ``to_dict()`` still said today's rules, and those records did not replay."""

from __future__ import annotations

import pytest

import leaves
from leaves.rules import DECK, HAND_SIZES


def test_hand_sizes_refuse_an_edit_and_keep_todays_deal():
    with pytest.raises(TypeError):
        leaves.HAND_SIZES[4] = 5  # type: ignore[index]
    with pytest.raises(TypeError):
        del HAND_SIZES[3]  # type: ignore[attr-defined]
    assert dict(HAND_SIZES) == {3: 12, 4: 11, 5: 10, 6: 9}
    assert leaves.new_game(4, seed=1).hand_sizes == (11, 11, 11, 11)


def test_the_tables_read_as_before():
    assert HAND_SIZES == {3: 12, 4: 11, 5: 10, 6: 9} and HAND_SIZES[6] == 9
    assert dict(leaves.Rules().hand_size) == HAND_SIZES and isinstance(DECK, tuple)
