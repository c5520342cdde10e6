"""A parameter's value of a type the strategy does not expect is refused, never played as the
default: text for an Enum parameter was kept as text (``side=HIGH`` played ``Side.LOW``, the
label saying otherwise), and an ``int | None`` parameter took any text (``depth='1O'``)."""

import enum
import math
import typing

import pytest
from hypothesis import given
from hypothesis import strategies as st

from strategies import Strategy
from strategies.building import build


class Side(enum.Enum):
    LOW = "low"
    HIGH = "high"


class Level(enum.IntEnum):
    ONE = 1
    TWO = 2


class Sider(Strategy, register=False):
    def __init__(
        self,
        side: Side = Side.LOW,
        depth: int | None = None,
        level: Level = Level.ONE,
        spare: "float | None" = None,
        maybe: typing.Optional[Side] = None,  # noqa: UP045 - the older spelling, read alike
        pair: tuple = (1, 2),
        loose=None,
    ):
        self.side, self.depth, self.level, self.spare = side, depth, level, spare

    def choose(self, view, legal, rng):
        return legal[0]


def _refused(params: dict) -> str:
    with pytest.raises(ValueError) as info:
        build(Sider, params)
    return str(info.value)


@pytest.mark.parametrize("text", ["HIGH", "high"])
def test_text_names_an_enum_member_by_name_or_value(text):
    built = build(Sider, {"side": text})
    assert built.side is Side.HIGH and built.params["side"] is Side.HIGH


def test_an_int_enum_is_read_by_value_but_not_from_a_flag():
    assert build(Sider, {"level": 2}).level is Level.TWO
    assert build(Sider, {"level": "TWO"}).level is Level.TWO
    assert "expects Level (one of ONE, TWO), got True" in _refused({"level": True})


def test_text_of_no_member_is_refused_naming_the_members():
    said = _refused({"side": "HIHG"})
    assert said == (
        "parameter 'side' of strategy Sider expects Side (one of LOW, HIGH), got 'HIHG' "
        "(did you mean 'HIGH'?)"
    )
    assert "\n" not in said


def test_a_none_default_is_checked_against_the_annotations_other_types():
    assert _refused({"depth": "1O"}) == (
        "parameter 'depth' of strategy Sider expects int or None, got '1O'"
    )
    assert "write it without a point" in _refused({"depth": 2.0})
    assert build(Sider, {"depth": 3}).depth == 3
    assert build(Sider, {"depth": None}).depth is None


def test_an_annotation_written_as_text_is_read_as_its_types():
    assert build(Sider, {"spare": 2}).spare == 2.0
    assert type(build(Sider, {"spare": 2}).spare) is float
    assert "expects float or None, got 'x'" in _refused({"spare": "x"})
    assert build(Sider, {"maybe": "HIGH"}).params["maybe"] is Side.HIGH


def test_text_is_refused_for_a_default_of_another_type_and_none_for_an_enum():
    assert "expects tuple, got 'a'" in _refused({"pair": "a"})
    assert build(Sider, {"pair": (3, 4)}).params["pair"] == (3, 4)
    assert "expects Side (one of LOW, HIGH), got None" in _refused({"side": None})


def test_a_parameter_nothing_describes_takes_any_value():
    assert build(Sider, {"loose": "anything"}).params["loose"] == "anything"


@given(st.text(max_size=8).filter(lambda t: t not in Side.__members__ and t not in ("low", "high")))
def test_no_other_text_plays_as_a_member(text):
    assert "expects Side (one of LOW, HIGH)" in _refused({"side": text})


@given(st.integers() | st.floats(allow_nan=False) | st.text(max_size=6) | st.booleans())
def test_an_int_or_none_parameter_holds_an_int_or_is_refused(value):
    try:
        built = build(Sider, {"depth": value})
    except ValueError as exc:
        assert str(exc).startswith("parameter 'depth' of strategy Sider expects int or None")
        return
    assert type(built.depth) is int and not math.isnan(built.depth)


def test_an_enum_value_is_labelled_by_its_name_and_read_back(tmp_path):
    """The label said 'Sider(side=<Side.HIGH: 'high'>)', which no spec reads back."""
    import strategies

    path = tmp_path / "enum_label.py"
    path.write_text(
        "import enum\nfrom strategies import Strategy\n\n\nclass Side(enum.Enum):\n"
        "    LOW = 'low'\n    HIGH = 'high'\n\n\nclass Sider(Strategy, register=False):\n"
        "    def __init__(self, side: Side = Side.LOW):\n        self.side = side\n\n"
        "    def choose(self, view, legal, rng):\n        return legal[0]\n"
    )
    s = strategies.get(f"{path}:Sider:side=high")
    assert s.label == "Sider(side=HIGH)"
    assert strategies.get(f"{path}:Sider(side=HIGH)").side is s.side
