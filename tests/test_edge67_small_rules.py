"""``leaves.rules`` holds today's numbers only: what is read from a rule set (a hand's size
at a table) is ``Rules``' own, one source for every rule set, today's included."""

from __future__ import annotations

import inspect

from leaves import rules


def test_the_rules_numbers_hold_no_reading_of_their_own():
    """``leaves.rules.hand_size_for`` said today's hand sizes beside
    ``Rules.hand_size_for``, which every caller used: two sources of one sentence."""
    own = [name for name, value in vars(rules).items()
           if inspect.isfunction(value) and value.__module__ == rules.__name__]  # fmt: skip
    assert own == []
