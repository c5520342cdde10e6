"""The words a flag is read from have one source, beside the parser that reads them, and the
command line and the registry decide what a flag is the same way."""

from __future__ import annotations

from strategies import registry, spec_values


def test_flag_words_are_the_words_parse_value_reads():
    for word in spec_values.TRUE_WORDS:
        assert spec_values.parse_value(word.upper()) is True
        assert word in spec_values.FLAG_WORDS
    for word in spec_values.FALSE_WORDS:
        assert spec_values.parse_value(word.title()) is False
        assert word in spec_values.FLAG_WORDS
    assert registry.FLAG_WORDS is spec_values.FLAG_WORDS
    assert spec_values.FLAG_WORDS == "written true, yes or on; false, no or off; in any case"


def test_is_flag_needs_every_value_a_bool():
    assert registry.is_flag("compiled", [{"compiled": True}, {"compiled": False}, {}])
    assert not registry.is_flag("compiled", [{"compiled": True}, {"compiled": 1}])
    assert not registry.is_flag("compiled", [{}, {"other": True}])  # nobody has it: no flag
