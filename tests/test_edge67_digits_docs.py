"""The docs' sentences on what a number may be, in a strategy's parameter (``strategies.md``,
``ligretto.md``) and in a ``--rules`` value (``variants.md``): each form they list reads as
they say, and each refusal they quote is the line the command prints."""

from __future__ import annotations

import math
import re
from pathlib import Path

import pytest

from strategies.spec_values import parse_value
from tests.helpers import usage_error

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _text(name: str) -> str:
    """The doc's text with its line breaks and runs of spaces as one space."""
    return " ".join((DOCS / name).read_text(encoding="utf-8").split())


def _forms(text: str, before: str) -> list[str]:
    """The backticked forms in the parentheses that follow ``before``."""
    group = re.search(re.escape(before) + r" \(([^)]*)\)", text)
    assert group, before
    return re.findall(r"`([^`]*)`", group.group(1))


def test_the_number_forms_strategies_md_lists_read_as_numbers():
    text = _text("strategies.md")
    forms = _forms(text, "a number as Python writes one in ASCII")
    assert forms == ["3", "1_000", "-0.25", "1e3", "nan", "inf"]
    read = [parse_value(f) for f in forms]
    assert read[:4] == [3, 1000, -0.25, 1000.0] and math.isnan(read[4]) and read[5] == math.inf
    assert [type(v) for v in read] == [int, int, float, float, float, float]
    words = ["true", "false", *_forms(text, "A parameter's value is read as `true`/`false`")]
    assert words == ["true", "false", "yes", "no", "on", "off"]
    assert [parse_value(w) for w in words] == [True, False] * 3
    assert "`none`" in text and parse_value("none") is None
    assert parse_value("'x,y'") == "x,y" and "(`name='x,y'`)" in text


def test_the_other_digits_strategies_md_names_stay_text():
    text = _text("strategies.md")
    forms = _forms(text, "Digits of another script")
    assert forms == ["w_shed=\u0661", "w_shed=\uff11"]
    assert [parse_value(f.partition("=")[2]) for f in forms] == ["\u0661", "\uff11"]


@pytest.mark.parametrize(("doc", "args"), [
    ("strategies.md", ["weighted:w_shed=\u0661", "low", "--players", "3"]),
    ("ligretto.md", ["--game", "ligretto", "stack:speed=\uff11", "cycler", "--players", "2"]),
    ("variants.md", ["low", "random", "--rules", "turn_limit=1_000", "--players", "3"]),
], ids=["strategies", "ligretto", "variants"])  # fmt: skip
def test_the_refusal_each_doc_quotes_is_the_line_printed(doc, args, capsys, tmp_path, monkeypatch):
    monkeypatch.setenv("COLUMNS", "300")
    line = usage_error(capsys, ["tournament", *args, "--games", "3", "--out", str(tmp_path / "r")])
    said = line.removeprefix("leaves: error: ")
    text = _text(doc)
    quoted = f"(`{said}`, exit code 2)" if doc != "variants.md" else f"(`{said}`)"
    assert quoted in text, said
