"""``reports.compare`` refuses, before reading a run, an alpha outside (0, 1) (at 2 every
strategy was "significant at alpha 2 after Holm correction, though its 95% interval includes
0") and pairs that are no list of label pairs ('x': "not enough values to unpack"), in one
line naming the parameter as ``leaves compare --alpha`` words it."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gamekit.errors import ParameterError
from reports.compare import checked_alpha, compare
from reports.compare_match import checked_pairs


@pytest.mark.parametrize("alpha", [2, 1, 0, -0.5, 1.0000001, math.nan, math.inf])
def test_compare_refuses_an_alpha_outside_0_and_1_before_reading_a_run(alpha):
    """At alpha 2 every strategy was 'significant at alpha 2 after Holm correction, though
    its 95% interval includes 0'; the line is --alpha's, named as the library names it."""
    with pytest.raises(ParameterError) as exc:
        compare("no-such-run-a", "no-such-run-b", alpha=alpha)
    said = f"{alpha:g}" if alpha != 1.0000001 else "1.0000001"
    assert str(exc.value) == f"alpha takes a number above 0 and below 1, got {said}"


@pytest.mark.parametrize("alpha, said", [("x", "'x'"), (True, "True"), (None, "None")])
def test_compare_refuses_an_alpha_that_is_no_number(alpha, said):
    """'x' raised pandas' "Invalid comparison between dtype=float64 and str"; True was
    alpha 1."""
    with pytest.raises(TypeError, match=r"^alpha takes a number above 0 and below 1, got ") as e:
        compare("no-such-run-a", "no-such-run-b", alpha=alpha)
    assert str(e.value).endswith(f"got {said}")


def test_an_alpha_of_any_real_kind_inside_is_taken():
    assert checked_alpha(np.float32(0.25)) == 0.25 and checked_alpha(0.05) == 0.05


@pytest.mark.parametrize(
    "pairs, said",
    [
        ("x", "pairs takes a list of (A_LABEL, B_LABEL) pairs of strategy labels or None, "
              "got 'x'"),
        (5, "pairs takes a list of (A_LABEL, B_LABEL) pairs of strategy labels or None, got 5"),
        ([("a",)], "pairs[0] takes an (A_LABEL, B_LABEL) pair of strategy labels, got ('a',)"),
        ([("a", "b"), ("a", 1)],
         "pairs[1] takes an (A_LABEL, B_LABEL) pair of strategy labels, got ('a', 1)"),
    ],
)  # fmt: skip
def test_compare_refuses_pairs_that_are_no_list_of_label_pairs(pairs, said):
    """'x' said "not enough values to unpack (expected 2, got 1)"."""
    with pytest.raises(TypeError) as exc:
        compare("no-such-run-a", "no-such-run-b", pairs=pairs)
    assert str(exc.value) == said


def test_pairs_as_tuples_or_lists_are_taken():
    assert checked_pairs(None) == []
    assert checked_pairs((["a", "b"], ("c", "d"))) == [("a", "b"), ("c", "d")]
