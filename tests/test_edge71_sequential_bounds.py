"""A sequential test's margin is a difference of win rates, at most 1 (100 percentage
points): 200 said "not 200 percentage points better", 1e300 an LLR of -inf. A precision run's
next stage from a target so small that its growth factor passes a float
(``--precision 1e-300``: an OverflowError after three stages) is the cap."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamekit.errors import ParameterError
from tournaments.sequential import Sequential, next_precision_stage


@pytest.mark.parametrize("margin, said", [(2.0, "2"), (1.000001, "1.000001"), (1e300, "1e+300")])
def test_a_margin_past_one_is_refused(margin, said):
    """A difference of win rates is at most 1: a margin of 2 said 'not 200 percentage points
    better', one of 1e300 an LLR of -inf."""
    with pytest.raises(ParameterError) as exc:
        Sequential(margin)
    assert str(exc.value) == (
        f"margin must be at most 1 (no win rate exceeds another by more), got {said}"
    )
    assert Sequential(1.0).margin == 1.0  # every game won against none: still a difference


@pytest.mark.parametrize("target", [1e-300, 5e-324, 1e-160])
def test_a_tiny_precision_grows_to_the_cap_not_into_an_overflow(target):
    """(widest / target) ** 2 raised OverflowError (34, 'Numerical result out of range')."""
    assert next_precision_stage(3, 1.93, target, 1000) == 1000
    assert next_precision_stage(0, 1.93, target, 1000) == 1


@given(deals=st.integers(0, 10**6), widest=st.floats(0, 100), target=st.floats(5e-324, 100),
       cap=st.integers(1, 10**7))  # fmt: skip
def test_the_next_precision_stage_is_always_a_stage_within_the_cap(deals, widest, target, cap):
    nxt = next_precision_stage(deals, widest, target, cap)
    assert nxt is None if deals >= cap else deals < nxt <= cap
