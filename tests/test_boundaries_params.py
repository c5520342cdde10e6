"""The edges of ``strategies.policy.params``, the one declaration a compiled policy's
constructor, validation, parameter vector and tuning ranges come from: every kind of
parameter on both sides of each bound, the refusals' wording, and the vector's layout, each
worked out by hand."""

from __future__ import annotations

import inspect
import math

import numpy as np
import pytest

from strategies.policy.params import N_PARAMS, Param, declare

FLAG = Param("flag", False)
TEXT = Param("mode", "a")
COUNT = Param("depth", 3, integer=True, low=1, high=8)
WEIGHT = Param("w", 0.5, range=(-2.0, 2.0))
ATLEAST = Param("lo", 1.0, low=0.0)
ATMOST = Param("hi", 1.0, high=2.0)


def test_a_declared_range_must_hold_a_numeric_default():
    assert Param("x", 2.0, range=(2.0, 3.0)).range == (2.0, 3.0)
    assert Param("x", 3, range=(2.0, 3.0)).range == (2.0, 3.0)
    with pytest.raises(ValueError, match=r"^x: default 1\.9 outside \(2\.0, 3\.0\)$"):
        Param("x", 1.9, range=(2.0, 3.0))
    with pytest.raises(ValueError, match=r"^x: default 3\.1 outside"):
        Param("x", 3.1, range=(2.0, 3.0))
    with pytest.raises(ValueError, match=r"^x: default True outside"):
        Param("x", True, range=(0.0, 1.0))
    with pytest.raises(ValueError, match=r"^x: default 'a' outside"):
        Param("x", "a", range=(0.0, 1.0))


def test_a_parameter_s_kind_is_its_default_s_type():
    assert FLAG.is_flag and not FLAG.is_number
    assert COUNT.is_number and WEIGHT.is_number and not COUNT.is_flag
    assert not TEXT.is_flag and not TEXT.is_number


@pytest.mark.parametrize("value", [True, False, np.bool_(True)])
def test_a_flag_takes_a_bool(value):
    got = FLAG.check("s", value)
    assert got == bool(value) and type(got) is bool


@pytest.mark.parametrize("value", [1, 0, "true", 1.0, None])
def test_a_flag_refuses_what_is_no_bool(value):
    with pytest.raises(
        ValueError, match=rf"^s: parameter flag must be true or false, got {value!r}$"
    ):
        FLAG.check("s", value)


def test_a_text_parameter_passes_any_value_on():
    assert TEXT.check("s", "zz") == "zz" and TEXT.check("s", 5) == 5


@pytest.mark.parametrize("value", [1, 8, 5, np.int64(2)])
def test_an_integer_inside_its_bounds_is_kept_as_an_int(value):
    got = COUNT.check("s", value)
    assert got == value and type(got) is int


@pytest.mark.parametrize("value", [True, np.bool_(False), 3.0, "3", None])
def test_an_integer_parameter_refuses_what_is_no_integer(value):
    with pytest.raises(ValueError, match=r"^s: parameter depth must be an integer, got "):
        COUNT.check("s", value)


@pytest.mark.parametrize("value", [0, 9, -1])
def test_an_integer_outside_both_bounds_is_refused(value):
    with pytest.raises(
        ValueError, match=rf"^s: parameter depth must be between 1 and 8, got {value}$"
    ):
        COUNT.check("s", value)


@pytest.mark.parametrize(
    ("value", "want"), [(1, 1.0), (0.25, 0.25), (np.float32(0.5), 0.5), ("1.5", 1.5)]
)
def test_a_number_is_kept_as_a_float(value, want):
    got = WEIGHT.check("s", value)
    assert got == want and type(got) is float


@pytest.mark.parametrize("value", [True, np.bool_(True), "x", None, [1]])
def test_a_number_parameter_refuses_what_is_no_number(value):
    with pytest.raises(ValueError, match=r"^s: parameter w must be a number, got "):
        WEIGHT.check("s", value)


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf, "nan"])
def test_a_number_must_be_finite(value):
    with pytest.raises(ValueError, match=r"^s: parameter w must be finite, got "):
        WEIGHT.check("s", value)


def test_a_tuning_range_is_no_bound():
    assert WEIGHT.check("s", 50.0) == 50.0 and WEIGHT.check("s", -50) == -50.0


def test_one_sided_bounds_are_inclusive():
    assert ATLEAST.check("s", 0.0) == 0.0 and ATLEAST.check("s", 1e9) == 1e9
    with pytest.raises(ValueError, match=r"^s: parameter lo must be >= 0\.0, got -0\.001$"):
        ATLEAST.check("s", -0.001)
    assert ATMOST.check("s", 2.0) == 2.0 and ATMOST.check("s", -1e9) == -1e9
    with pytest.raises(ValueError, match=r"^s: parameter hi must be <= 2\.0, got 2\.001$"):
        ATMOST.check("s", 2.001)
    both = Param("b", 0.5, low=0.0, high=1.0)
    assert both.check("s", 0) == 0.0 and both.check("s", 1) == 1.0
    with pytest.raises(ValueError, match=r"between 0\.0 and 1\.0, got 1\.01$"):
        both.check("s", 1.01)
    with pytest.raises(ValueError, match=r"between 0\.0 and 1\.0, got -0\.01$"):
        both.check("s", -0.01)


# ---------------------------------------------------------------------- a declaration
PS = declare(FLAG, COUNT, WEIGHT, TEXT)


def test_a_declaration_keeps_its_order():
    assert PS.names == ("flag", "depth", "w", "mode") and len(PS) == 4
    assert tuple(PS.index) == (0, 1, 2, 3) and PS.index.w == 2
    assert [p.name for p in PS] == list(PS.names)
    assert PS.defaults() == {"flag": False, "depth": 3, "w": 0.5, "mode": "a"}
    assert PS.tunable() == {"w": (-2.0, 2.0)}


def test_a_name_declared_twice_is_refused():
    with pytest.raises(ValueError, match=r"^duplicate parameter names in \['w', 'depth', 'w'\]$"):
        declare(WEIGHT, COUNT, Param("w", 1.0))


def test_checked_fills_defaults_and_types_each_value():
    got = PS.checked("s", {"depth": np.int64(4), "w": 1})
    assert got == {"flag": False, "depth": 4, "w": 1.0, "mode": "a"}
    assert type(got["w"]) is float and type(got["depth"]) is int
    with pytest.raises(ValueError, match=r"^s: parameter depth must be between 1 and 8, got 9$"):
        PS.checked("s", {"depth": 9})


def test_the_vector_holds_each_value_at_its_place_then_zeros():
    numeric = declare(FLAG, COUNT, WEIGHT)
    vec = numeric.vector(numeric.checked("s", {"flag": True, "w": -1.5}))
    assert vec.dtype == np.float64 and vec.shape == (N_PARAMS,) == (12,)
    assert vec.tolist() == [1.0, 3.0, -1.5] + [0.0] * 9
    twelve = declare(*(Param(f"p{i}", float(i)) for i in range(12)))
    assert twelve.vector(twelve.defaults()).tolist() == [float(i) for i in range(12)]
    thirteen = declare(*(Param(f"p{i}", 0.0) for i in range(13)))
    with pytest.raises(ValueError, match=r"^a policy vector holds 12 parameters, not 13$"):
        thirteen.vector(thirteen.defaults())


def test_the_constructor_s_signature_is_the_declaration():
    seen = {}

    class Fake:
        name = "fake"
        _params = {"depth": 2}
        __init__ = declare(COUNT, WEIGHT).constructor(lambda s, v: seen.update(v))

    sig = inspect.signature(Fake.__init__)
    assert list(sig.parameters) == ["self", "depth", "w"]
    assert [sig.parameters[n].default for n in ("depth", "w")] == [3, 0.5]
    Fake()
    assert seen == {"depth": 2, "w": 0.5}

    class Prepared(Fake):
        __init__ = declare(COUNT).constructor(
            lambda s, v: seen.update(v), prepare=lambda name, v: {**v, "depth": 7}
        )

    Prepared()
    assert seen["depth"] == 7
    Fake._params = {"depth": 0}
    with pytest.raises(ValueError, match=r"^fake: parameter depth must be between 1 and 8"):
        Fake()
