"""The rules a research environment plays under, read once for PettingZoo and OpenSpiel alike.

``rules_of(rules, **keys)`` takes a ``leaves.Rules``, its ``key=value,...`` text or its plain
data, with rule keys as keyword arguments on top (``rules_of(take="ends", hand_size=9)``), and
refuses an unknown key or an impossible combination with the one-line ValueError of
``leaves.Rules``. Text may also be written ``key:value;key:value``: OpenSpiel's game strings
cannot hold ``=`` or ``,`` inside a parameter, so that is the form its ``rules`` parameter is
written in (``openspiel_text``).

The action ids follow the rules: under rules whose passes take a card they are today's pinned
117 (``leaves.ALL_ACTIONS``); under ``take="nothing"`` there is one more, id 117, the pass
taking nothing (``leaves.actions.ACTIONS_BY_ID``), so a mask or a policy's output is 118 long.
"""

from __future__ import annotations

import operator
import re
from typing import Any

import numpy as np

from gamekit.errors import shown
from leaves import N_ACTIONS, Rules
from leaves.rules import N_ACTION_IDS

__all__ = ["action_id", "n_action_ids", "openspiel_text", "rules_of", "rules_text"]

_ITEM = re.compile(r"\s*([A-Za-z_]+)\s*[=:]\s*(.*?)\s*$")


def rules_text(text: str, form: str = "key=value") -> str:
    """``key:value;key:value`` (or a mix with ``=`` and ``,``) as ``Rules.parse`` reads it. An
    item that is neither is refused in one line quoting it as written and advising ``form``
    (the one the caller's interface can hold: an OpenSpiel game string holds no ``=``)."""
    if not isinstance(text, str):  # re would fail on it far from the caller's mistake
        raise TypeError(f"rules_text reads rules written as {form} text, got {shown(text)}")
    items = []
    for item in re.split(r"[;,]", text):
        match = _ITEM.match(item)
        if match and match[2]:
            items.append(f"{match[1]}={match[2]}")
        elif item.strip() not in ("", "default"):  # what Rules.parse passes over
            raise ValueError(f"cannot read the rule {item.strip()!r}: write {form}")
    return ",".join(items)


def rules_of(rules: Any = None, **keys: Any) -> Rules:
    """The rules ``rules`` names (a ``Rules``, its text, its plain data; None: today's), with
    the rule ``keys`` changed on top; ValueError in one line for anything impossible."""
    base = Rules.of(rules_text(rules) if isinstance(rules, str) else rules)
    if not keys:
        return base
    try:
        return Rules.from_dict({**base.changes(), **keys})
    except TypeError as exc:  # a value of a kind no key takes
        raise ValueError(f"cannot read the rules {keys!r}: {exc}") from None


def n_action_ids(rules: Rules) -> int:
    """How many action ids a game under ``rules`` has: 118 under ``take="nothing"`` (id 117,
    the pass taking nothing), today's 117 otherwise."""
    return N_ACTION_IDS if rules.take == "nothing" else N_ACTIONS


def action_id(value: Any) -> int | None:
    """``value`` as an action id when it is a whole number (an int, a numpy integer or a 0-d
    integer array, as ``Discrete`` takes), else None: ``int()`` would play 4.5 as 4 and "3" as
    3, and take True for 1."""
    if isinstance(value, bool | np.bool_):
        return None
    try:
        return operator.index(value)
    except TypeError:
        return None


def openspiel_text(rules: Rules) -> str:
    """The changed keys as ``key:value;key:value`` ("" for today's rules), the form that
    survives an OpenSpiel game string; ``rules_of`` reads it back."""
    return ";".join(f"{k}:{v}" for k, _, v in (p.partition("=") for p in _pairs(rules)))


def _pairs(rules: Rules) -> list[str]:
    return [] if rules.is_default else str(rules).split(", ")
