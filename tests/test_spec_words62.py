"""A whole number written with a point or an exponent, given to a whole-number setting of a
strategy spec, is refused in one line that says how to write it."""

from __future__ import annotations

import pytest

from strategies.registry import build, resolve


@pytest.mark.parametrize(("spec", "shown"), [
    ("ismcts:iterations=1e3", "iterations=1000"),
    ("ismcts:iterations=1000.0", "iterations=1000"),
])  # fmt: skip
def test_a_whole_float_for_a_whole_number_setting_says_how_to_write_it(spec, shown):
    with pytest.raises(ValueError, match=rf"expects int, got 1000\.0 \(write it without a point "
                                         rf"or an exponent: {shown}\)$"):  # fmt: skip
        build(*resolve(spec))


@pytest.mark.parametrize("spec", ["ismcts:iterations=2.5", "ismcts:iterations=1e300"])
def test_a_float_no_whole_number_of_reasonable_size_gets_no_such_hint(spec):
    with pytest.raises(ValueError, match=r"expects int, got [0-9.e+]+$"):
        build(*resolve(spec))
