"""Rules as ``key=value[,key=value...]`` text, the form ``--rules`` and a run's words take.

One reading of a text into its items (``rule_items``: every caller that asks which keys a
text names reads them here, as ``Rules.parse`` does) and one writing of each key's value
(``value_text``, which ``Rules.parse`` reads back), with the player counts in words.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from gamekit.errors import shown

__all__ = ["counts_text", "named_value", "parse_texts", "rule_items", "texts_of", "value_text"]


def texts_of(rules: Any) -> list[str] | None:
    """``rules`` as ``key=value`` texts when it is text (one string or several), else None."""
    if isinstance(rules, str):
        return [rules]
    if isinstance(rules, list | tuple) and all(isinstance(t, str) for t in rules):
        return list(rules)
    return None


def parse_texts(text: Any) -> list[str]:
    """``Rules.parse``'s argument as its texts: one string, several or None; anything else
    (a number, bytes) refused in one line rather than read character by character."""
    if isinstance(text, str):
        return [text]
    try:
        texts = list(() if text is None else text)
    except TypeError:  # not iterable (a number): refused below
        texts = [text]
    if not all(isinstance(t, str) for t in texts):
        raise TypeError(
            f"Rules.parse reads key=value text (a str, several or None), got {shown(text)}"
        )
    return texts


def rule_items(texts: Iterable[str]) -> list[tuple[str, str]]:
    """The (key, value) items ``texts`` name, in order, spaces around each stripped (a key
    named twice is there twice: the later wins where they are read); an empty item and the
    word ``default`` name nothing. ValueError for an item that is not key=value."""
    items = []
    for text in texts:
        for item in text.split(","):
            if not item.strip() or item.strip() == "default":
                continue
            key, eq, value = item.partition("=")
            if not eq or not key.strip() or not value.strip():
                said = shown(item.strip(), typed=False)
                raise ValueError(f"cannot read the rule {said}: write key=value")
            items.append((key.strip(), value.strip()))
    return items


def named_value(texts: Iterable[str], key: str) -> str | None:
    """The last value ``texts`` give ``key`` (None: they name no such key)."""
    return next((v for k, v in reversed(rule_items(texts)) if k == key), None)


def counts_text(counts: Iterable[int]) -> str:
    """Player counts in words: ``3 to 6``, ``3 or 4``, ``2, 3 or 5``."""
    counts = tuple(counts)
    if len(counts) > 2 and counts == tuple(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    return " or ".join(", ".join(map(str, counts)).rsplit(", ", 1))


def value_text(key: str, value: Any) -> str:
    """A key's value (``Rules.to_dict``'s form) written the way ``Rules.parse`` reads it."""
    if key == "hand_size" and isinstance(value, dict):
        return "/".join(f"{n}:{h}" for n, h in value.items())
    if key == "deck":
        return "/".join(map(str, value))
    if key == "players":
        c = tuple(value)
        if len(c) > 1 and c == tuple(range(c[0], c[-1] + 1)):
            return f"{c[0]}-{c[-1]}"
        return "/".join(map(str, c))
    if isinstance(value, bool):
        return "on" if value else "off"
    return str(value)
