"""The edges of ``strategies.spec_values``: how a spec's parameters are read (the forms the
registry's docstring lists: bool, None, int, float, a quoted string, else the text), where a
list of specs or a label splits, and the one-line refusals, each worked out by hand."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from strategies.spec_values import parse_params, parse_value, split_label, top_level_pieces


@pytest.mark.parametrize(
    ("raw", "value"),
    [("true", True), ("Yes", True), ("ON", True), ("false", False), ("no", False),
     ("Off", False), ("none", None), ("None", None), ("0", 0), ("-3", -3), ("+7", 7),
     ("1_000", 1000), ("1.5", 1.5), ("-0.25", -0.25), ("1e3", 1000.0), ("'x,y'", "x,y"),
     ('"a b"', "a b"), ("''", ""), ("weighted", "weighted"), ("_1", "_1"), ("0x10", "0x10"),
     ("1_", "1_"), ("3__4", "3__4"), ("1_5", 15), ("", "")],
)  # fmt: skip
def test_a_value_is_read_as_the_first_form_it_fits(raw, value):
    got = parse_value(raw)
    assert got == value and type(got) is type(value)


def test_not_a_number_and_infinity_read_as_floats():
    assert math.isnan(parse_value("nan")) and parse_value("-inf") == -math.inf


@pytest.mark.parametrize("raw", ["'open", "'a' b'", '"x'])
def test_a_quoted_value_that_is_no_string_is_refused(raw):
    with pytest.raises(ValueError, match=r"^cannot read the quoted value "):
        parse_value(raw)


def test_parameters_split_at_commas_outside_quotes():
    assert parse_params("a=1,b=true,c='x,y',d=\"p,q\"") == {
        "a": 1, "b": True, "c": "x,y", "d": "p,q"}  # fmt: skip
    assert parse_params(" a = 2 , , b=none,") == {"a": 2, "b": None}
    assert parse_params("") == {} and parse_params(",") == {}
    assert parse_params("rollout='weighted:w_pass=-2,w_shed=1'") == {
        "rollout": "weighted:w_pass=-2,w_shed=1"}  # fmt: skip
    assert parse_params("k=a=b") == {"k": "a=b"}  # the first = splits


@pytest.mark.parametrize("text", ["depth", "=3", "2x=1", "a b=1", "a-b=1"])
def test_a_parameter_needs_a_name_and_an_equals_sign(text):
    with pytest.raises(ValueError, match=r"^cannot read parameter .* in strategy spec 'g:"):
        parse_params(text, "g:" + text)


def test_a_parameter_given_twice_is_refused():
    with pytest.raises(ValueError, match=r"^parameter 'a' given twice in strategy spec 's'$"):
        parse_params("a=1,b=2,a=1", "s")


@pytest.mark.parametrize("text", ["a='x", 'a="x,b=1', "a='x\",b=1"])
def test_an_unclosed_quote_is_refused(text):
    with pytest.raises(ValueError, match=r"^unclosed quote in strategy parameters"):
        parse_params(text)


@pytest.mark.parametrize(
    ("spec", "split"),
    [("greedy(keep_pairs=True)", ("greedy", "keep_pairs=True")), ("x()", ("x", "")),
     (" low-2 (a=1) ", ("low-2", "a=1")), ("bots/b.py:Bot(k=2)", ("bots/b.py:Bot", "k=2")),
     ("bots (1)/b.py:Bot(k=2)", ("bots (1)/b.py:Bot", "k=2")),
     ("m.mod:Cls(a=(1))", ("m.mod:Cls", "a=(1)")), ("x(a='(')", ("x", "a='('")),
     ("x(a='((')", ("x", "a='(('")),
     ("x(a=\")\")", ("x", "a=\")\"")), ("d (1)/e (2)/b.py:B()", ("d (1)/e (2)/b.py:B", "")),
     ("greedy", None), ("greedy(a=1", None), ("(a=1)", None), ("9x(a=1)", None),
     ("b.py(a=1)", None), ("a:b(x=1) junk", None), ("x(a=1))", None), ("x((a=1)", None)],
)  # fmt: skip
def test_a_label_is_a_name_or_class_then_its_parameters(spec, split):
    assert split_label(spec) == split


@pytest.mark.parametrize(
    ("value", "pieces"),
    [("a,b", ["a", "b"]), ("a", ["a"]), ("", [""]), ("a,", ["a", ""]), (",a", ["", "a"]),
     ("x(k=1,j=2),y", ["x(k=1,j=2)", "y"]), ("x(a=(1,2)),y(b=3)", ["x(a=(1,2))", "y(b=3)"]),
     ("a),b", ["a)", "b"]), ("a(,b", ["a(,b"])],
)  # fmt: skip
def test_a_list_splits_at_its_top_level_commas_keeping_gaps(value, pieces):
    assert top_level_pieces(value) == pieces


def test_a_relative_path_with_parentheses_takes_the_label_form(tmp_path, monkeypatch):
    """Was: "cannot read parameter '1)/b.py:Bot(k=2'": the head ``bots`` before the path's own
    parenthesis read as a strategy's name."""
    import strategies

    (tmp_path / "bots (1)").mkdir()
    (tmp_path / "bots (1)" / "b.py").write_text(
        "from strategies import Strategy\n\n\nclass Bot(Strategy):\n    name = 'bot_paren'\n"
        "\n    def __init__(self, k: int = 1):\n        self.k = k\n\n"
        "    def choose(self, view, legal, rng):\n        return legal[0]\n"
    )
    monkeypatch.chdir(tmp_path)
    try:
        assert strategies.get("bots (1)/b.py:Bot(k=2)").params == {"k": 2}
        assert strategies.get("bots (1)/b.py:Bot:k=3").params == {"k": 3}
    finally:
        strategies.registry.unregister("bot_paren")


@given(st.one_of(st.booleans(), st.integers(), st.floats(allow_nan=False), st.text()))
def test_a_label_of_any_values_reads_back_whole(value):
    """A label's parameters, written as labels write them (``format_value``), read back as
    themselves through the label form: a text holding both quotes was cut at the escaped one
    ('unclosed quote')."""
    from strategies.base import format_value

    text = format_value(value)
    head, params = split_label(f"x(k={text},j={text})")
    assert head == "x"
    back = parse_params(params)
    assert back == {"k": value, "j": value} and type(back["k"]) is type(value)
