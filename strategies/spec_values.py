"""The parameters of a spec string read as values: ``"a=1,b=true,c='x,y'"`` ->
``{"a": 1, "b": True, "c": "x,y"}``. Apart from the registry because it needs none of its
state: the command line reads a parameter's value the same way."""

from __future__ import annotations

import ast
import re
from typing import Any

__all__ = ["SPEC_EXAMPLE", "parse_params", "parse_value", "split_label", "top_level_pieces"]

SPEC_EXAMPLE = "taker:group_weight=2.5,harm_weight=0.5"
"""A spec with parameters that a refusal shows as the way to write one: one that builds."""


def parse_params(text: str, spec: str = "") -> dict[str, Any]:
    """``"a=1,b=true,c='x,y'"`` -> ``{"a": 1, "b": True, "c": "x,y"}``."""
    out: dict[str, Any] = {}
    for item in _split_commas(text):
        if not item.strip():
            continue
        key, eq, raw = item.partition("=")
        key = key.strip()
        if not eq or not key.isidentifier():
            raise ValueError(
                f"cannot read parameter {item.strip()!r} in strategy spec {spec!r}: "
                f"write key=value, e.g. {SPEC_EXAMPLE!r}"
            )
        if key in out:
            raise ValueError(f"parameter {key!r} given twice in strategy spec {spec!r}")
        out[key] = parse_value(raw.strip())
    return out


_LABEL_HEAD = re.compile(r"[A-Za-z_][\w\-]*|.+:[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
"""What may stand before a label's parentheses: a name, or ``file.py:Class``/``module:Class``."""


def split_label(spec: str) -> tuple[str, str] | None:
    """``"name(k=v,...)"`` -> ``("name", "k=v,...")``; None if ``spec`` is not in label form.
    The parentheses are the first ones after a name or a class that close at the end, so a
    file path may hold its own (``"bots (1)/b.py:Bot(k=2)"``: not ``bots`` with ``1)/b...``)."""
    s = spec.strip()
    if not s.endswith(")"):
        return None
    for i, ch in enumerate(s):
        if ch == "(" and _LABEL_HEAD.fullmatch(s[:i].strip()) and _balanced(s[i + 1 : -1]):
            return s[:i].strip(), s[i + 1 : -1]
    return None


def _balanced(text: str) -> bool:
    """Whether ``text``'s parentheses outside quotes pair up, none closing before it opens."""
    depth = 0
    for ch, quoted in zip(text, _quoted(text)[0], strict=True):
        if quoted or ch not in "()":
            continue
        depth += 1 if ch == "(" else -1
        if depth < 0:
            return False
    return depth == 0


def _quoted(text: str) -> tuple[list[bool], bool]:
    """Per character of ``text``, whether it lies inside quotes (the quotes included), and
    whether a quote is left open at its end. Inside quotes a backslash escapes the next
    character, as ``repr`` writes a text holding both quotes (``'it\\'s "x"'``)."""
    inside, quote, escaped = [], "", False
    for ch in text:
        inside.append(bool(quote) or ch in "'\"")
        if not quote:
            quote = ch if ch in "'\"" else ""
        elif escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == quote:
            quote = ""
    return inside, bool(quote)


def top_level_pieces(value: str) -> list[str]:
    """``value`` split at its commas outside parentheses (``name(k=v,...)`` stays whole),
    empty pieces kept: one source for reading a list of specs or labels and for refusing a
    gap in it."""
    pieces, depth, cur = [], 0, ""
    for ch in value:
        depth += (ch == "(") - (ch == ")")
        if ch == "," and depth <= 0:
            pieces.append(cur)
            cur = ""
        else:
            cur += ch
    return [*pieces, cur]


def _split_commas(text: str) -> list[str]:
    """``text`` split at its commas outside quotes."""
    inside, unclosed = _quoted(text)
    if unclosed:
        raise ValueError(f"unclosed quote in strategy parameters {text!r}")
    parts, start = [], 0
    for i, (ch, quoted) in enumerate(zip(text, inside, strict=True)):
        if ch == "," and not quoted:
            parts.append(text[start:i])
            start = i + 1
    return [*parts, text[start:]]


TRUE_WORDS = ("true", "yes", "on")
FALSE_WORDS = ("false", "no", "off")
"""The words ``parse_value`` reads as a flag, in any case."""

FLAG_WORDS = (f"written {', '.join(TRUE_WORDS[:-1])} or {TRUE_WORDS[-1]}; "
              f"{', '.join(FALSE_WORDS[:-1])} or {FALSE_WORDS[-1]}; in any case")  # fmt: skip
"""Those words as said where other text is refused ('1' is refused while 'yes' and 'True' are
read): a spec's flag parameter, ``--filter``, ``registry.filtered``."""


def parse_value(raw: str) -> Any:
    """A spec value: bool, None, int, float, quoted string, or the text itself. A number is
    written as Python writes one in ASCII (``3``, ``1_000``, ``-0.25``, ``1e3``, ``nan``), with
    nothing around it: ``int`` and ``float`` also read digits of any script (``١``, ``１``) and
    spaces around them, which stay text, so a number parameter refuses them as typed."""
    low = raw.lower()
    if low in TRUE_WORDS:
        return True
    if low in FALSE_WORDS:
        return False
    if low == "none":
        return None
    if raw[:1] in ("'", '"'):
        try:
            return ast.literal_eval(raw)
        except (ValueError, SyntaxError):
            raise ValueError(f"cannot read the quoted value {raw}") from None
    if not raw.isascii() or raw != raw.strip():
        return raw
    try:
        return int(raw.replace("_", "")) if re.fullmatch(r"[+-]?\d+(_\d+)*", raw) else float(raw)
    except ValueError:
        return raw
