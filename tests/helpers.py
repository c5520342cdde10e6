"""Small builders for hand-made positions in tests."""

from __future__ import annotations

from leaves import DECK, State


def counts(**by_value: int) -> list[int]:
    """13 counts from keywords like v6=3, v12=2."""
    out = [0] * 13
    for key, c in by_value.items():
        out[int(key[1:]) - 1] = c
    return out


def position(hands, table=None, passed=None, current=0, known=None, removed=None, **extra):
    """A valid state: the given hands/table, every other card undealt."""
    n = len(hands)
    table = table or [0] * 13
    removed = removed or [0] * 13
    undealt = [DECK[v] - sum(h[v] for h in hands) - table[v] - removed[v] for v in range(13)]
    d = {
        "hands": hands,
        "table": table,
        "removed": removed,
        "undealt": undealt,
        "passed": passed or [False] * n,
        "current_player": current,
        "known": known,
        **extra,
    }
    return State.from_dict(d)
