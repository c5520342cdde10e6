"""A flag's words said from one source: ``leaves strategies --filter search=1`` named the words
a flag is read from, while ``strategies.filtered(search="1")`` refused the same text without
them; the command line now says the registry's own words."""

from __future__ import annotations

import inspect

import pytest

import strategies
from leaves_cli import strategies_cmd
from strategies import registry
from strategies.spec_values import parse_value

from .helpers import cli


def test_the_registry_names_the_words_a_flag_is_read_from():
    with pytest.raises(TypeError) as info:
        strategies.filtered(search="1")
    assert str(info.value) == (
        "search takes True or False (a classifier flag), got '1' (text is read as a flag by "
        "strategies.spec_values.parse_value, written true, yes or on; false, no or off; "
        "in any case)"
    )
    # what the words say is what parse_value reads; text read as a flag is refused plainly
    for word in ("true", "yes", "on", "false", "no", "off"):
        assert word in registry.FLAG_WORDS
        assert parse_value(word.upper()) is (word in ("true", "yes", "on"))
        with pytest.raises(TypeError, match=f"^search takes True or False .*, got '{word}'$"):
            strategies.filtered(search=word)


@pytest.mark.parametrize("text", ["'x", '"', "None", " yes", "1e3"])
def test_other_text_gets_the_words_and_a_type_error_alone(text):
    """Text that ``parse_value`` cannot read (an unclosed quote) is refused as any other."""
    with pytest.raises(TypeError) as info:
        strategies.filtered(search=text)
    assert str(info.value).endswith(f"got {text!r} (text is read as a flag by "
                                    f"strategies.spec_values.parse_value, {registry.FLAG_WORDS})")  # fmt: skip


def test_the_command_says_the_registrys_words(monkeypatch, capsys):
    monkeypatch.setenv("COLUMNS", "200")
    assert "FLAG_WORDS =" not in inspect.getsource(strategies_cmd)  # the registry's, one source
    got, out, err = cli(capsys, "strategies", "--filter", "search=1")
    assert (got, out) == (2, "")
    assert err.endswith(f"which is true or false ({registry.FLAG_WORDS})\n")
