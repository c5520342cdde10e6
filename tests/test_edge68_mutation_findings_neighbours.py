"""The neighbour finding's verdicts on hand-made neighbours tables, each worked by hand: which
pair leads, the Bonferroni-corrected p-values it quotes (capped at 1), and how it counts the
other pairs that hold (one pair, two pairs)."""

from __future__ import annotations

import pandas as pd

from reports.findings import _neighbours

Row = tuple[str, str, float, float, float, float]


def _text(rows: list[Row]) -> str:
    """The finding of a neighbours table with the columns it reads: (strategy, before,
    effect, its 95% bounds, p), every rate alike (40.0% [30.0, 50.0] after, 30.0%
    elsewhere)."""
    cols = ["strategy", "before", "vs_elsewhere", "vs_elsewhere_low", "vs_elsewhere_high",
            "vs_elsewhere_p"]  # fmt: skip
    t = pd.DataFrame(rows, columns=cols)
    t = t.assign(win_rate=0.4, ci_low=0.3, ci_high=0.5, elsewhere_rate=0.3)
    (found,) = _neighbours(t, None)
    return found.text


AFTER = "wins 40.0% [30.0, 50.0] when {} sits before it, against 30.0% when it sits elsewhere"
A_AFTER_B = ("a", "b", 0.10, 0.01, 0.19)
B_AFTER_A = ("b", "a", -0.06, -0.09, -0.03)
C_AFTER_A = ("c", "a", 0.02, -0.01, 0.05)


def test_a_corrected_p_past_1_is_quoted_as_1():
    """3 pairs: a after b p 0.5 (x 3 = 1.5, capped: 1), b after a 0.01 (0.03, holds), c after
    a 0.2 (0.6): b after a leads, the only one that holds; the larger a after b's corrected
    p is 1, not 1.5."""
    text = _text([(*A_AFTER_B, 0.5), (*B_AFTER_A, 0.01), (*C_AFTER_A, 0.2)])
    assert text == (
        "Neighbours: b " + AFTER.format("a") + " at the table (-6.0 percentage points [-9.0, "
        "-3.0] within the same deals, p = 0.01), the strongest neighbour effect that holds "
        "after Bonferroni correction over the 3 pairs (p = 0.03 corrected); the larger a after "
        "b (+10.0 percentage points [+1.0, +19.0], p = 0.50; p = 1.00 corrected) does not "
        "hold: it may be chance."
    )


def test_a_smaller_pair_at_exactly_0_05_corrected_does_not_lead():
    """2 pairs: a after b p 0.3 (x 2 = 0.6), b after a 0.025 (x 2 = 0.05, not below it):
    none holds, so the largest, a after b, leads."""
    text = _text([(*A_AFTER_B, 0.3), (*B_AFTER_A, 0.025)])
    assert text.startswith("Neighbours: a " + AFTER.format("b"))
    assert text.endswith("not significant after correction over the 2 pairs: it may be chance.")


def test_one_other_pair_that_holds_is_counted_as_one():
    """3 pairs, p x 3: a after b 0.03 and b after a 0.003 hold, c after a 0.9 does not: the
    largest leads, and 1 other pair holds."""
    text = _text([(*A_AFTER_B, 0.01), (*B_AFTER_A, 0.001), (*C_AFTER_A, 0.3)])
    assert text.startswith("Neighbours: a " + AFTER.format("b"))
    assert text.endswith("it holds after Bonferroni correction over the 3 pairs, as does 1 "
                         "other pair.")  # fmt: skip


def test_two_other_pairs_that_hold_are_counted_as_two():
    """3 pairs, p x 3 = 0.03, 0.003, 0.03: all hold, the largest leads, 2 others besides."""
    text = _text([(*A_AFTER_B, 0.01), (*B_AFTER_A, 0.001), (*C_AFTER_A, 0.01)])
    assert text.endswith("it holds after Bonferroni correction over the 3 pairs, as do 2 other "
                         "pairs.")  # fmt: skip


def test_of_two_equal_effects_the_surer_leads():
    """a after b +6 points (p 0.02) and b after a -6 points (p 0.001): equal in size, so the
    surer, b after a, leads; p x 2 = 0.04 and 0.002: both hold."""
    text = _text([("a", "b", 0.06, 0.01, 0.11, 0.02), (*B_AFTER_A, 0.001)])
    assert text.startswith("Neighbours: b " + AFTER.format("a"))
    assert text.endswith("over the 2 pairs, as does 1 other pair.")
