"""Validated construction of any position from its plain-data form (``State.from_dict``).

Every check names what makes a position impossible (cards that do not add up to the deck, a
winner still holding cards, a seat to act that has passed), so a bad record or a hand-written
test position fails with a sentence instead of a wrong game later.
"""

from __future__ import annotations

from numbers import Integral, Real
from typing import Any

import numpy as np

from gamekit.errors import refuse_unknown_keys, shown

from .packed import join_lanes, pack
from .rules import N_VALUES
from .ruleset import MOST_PLAYERS, Rules
from .state import State


def _counts(name: str, value: Any, deck: tuple[int, ...]) -> tuple[int, ...]:
    try:
        raw = list(value)
        counts = tuple(int(c) for c in raw)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a list of {N_VALUES} card counts") from None
    if not all(_is_whole(c) for c in raw):  # True as one card, 1.5 as one: neither is
        raise ValueError(f"{name} must hold whole card counts, got {shown(raw, typed=False)}")
    if len(counts) != N_VALUES:
        raise ValueError(f"{name} must have {N_VALUES} counts (value 1 first), got {len(counts)}")
    for v, c in enumerate(counts):
        if c < 0 or c > deck[v]:
            said = shown(c, typed=False)  # a number too long to write out: said in words
            count = f"{said} cards" if said.lstrip("-").isdigit() else f"{said} for the cards"
            raise ValueError(
                f"{name}: {count} of value {v + 1} is impossible (the deck has {deck[v]})"
            )
    return counts


KEYS = ("hands", "table", "removed", "undealt", "known", "passed", "current_player", "winner",
        "turn", "round", "turn_limit", "rules")  # fmt: skip
"""The keys of a state's dict form (``State.to_dict``'s, and ``rules`` when not today's)."""


def state_from_dict(d: dict[str, Any]) -> State:
    """The state ``d`` describes (``State.to_dict``'s form); ValueError if it is impossible."""
    if not isinstance(d, dict):
        raise ValueError("a state must be a dict")
    d = {k: v.tolist() if type(v).__module__ == "numpy" else v for k, v in d.items()}  # arrays
    refuse_unknown_keys(d, KEYS, " in a state")
    missing = [k for k in ("hands", "table", "current_player") if k not in d]
    if missing:
        raise ValueError(f"state is missing {', '.join(missing)}")
    raw_hands = d["hands"]
    if not isinstance(raw_hands, list | tuple) or len(raw_hands) < 2:
        raise ValueError("hands must list at least 2 players' hands")
    n = len(raw_hands)
    if n > MOST_PLAYERS:  # no rules deal more: the board, the engine and the players hold 6
        raise ValueError(
            f"hands must list at most {MOST_PLAYERS} players' hands (the most any rules "
            f"allow), got {n}"
        )
    rules = _rules(d)
    deck = rules.deck
    hands = [_counts(f"hands[{i}]", h, deck) for i, h in enumerate(raw_hands)]
    table = _counts("table", d["table"], deck)
    removed = _counts("removed", d.get("removed", [0] * N_VALUES), deck)
    if "undealt" in d:
        undealt = _counts("undealt", d["undealt"], deck)
    else:
        undealt = tuple(  # the rest of the deck; none where more is held than it has (refused)
            max(deck[v] - sum(h[v] for h in hands) - table[v] - removed[v], 0)
            for v in range(N_VALUES)
        )
    for v in range(N_VALUES):
        tot = sum(h[v] for h in hands) + table[v] + removed[v] + undealt[v]
        if tot != deck[v]:
            # removed left out is none removed: the first round's; with undealt given, a
            # later position's dict has lost it, and the sum alone would not say so
            lost = "removed" not in d and "undealt" in d
            raise ValueError(
                ("state is missing removed (none removed when left out): " if lost else "")
                + f"cards of value {v + 1} add up to {tot} (hands + table + removed + undealt), "
                f"the deck has {deck[v]}"
            )
    known = _known(d.get("known"), hands, deck)
    passed = _passed(d.get("passed"), n)
    npassed = sum(passed)
    if npassed >= n - 1:
        raise ValueError(f"{npassed} of {n} players passed: the round should have ended")
    cur = d["current_player"]
    if not (_is_whole(cur) and 0 <= cur < n):
        raise ValueError(f"current_player must be a seat 0..{n - 1}, got {shown(cur, typed=False)}")
    cur = int(cur)
    winner = d.get("winner")
    sizes = tuple(sum(h) for h in hands)
    if winner is None:
        if passed[cur]:
            raise ValueError(f"current_player {cur} has passed this round and cannot act")
        empty = [i for i, s in enumerate(sizes) if s == 0]
        if empty:
            raise ValueError(f"seat {empty[0]} has no cards left but there is no winner")
    else:
        if not (_is_whole(winner) and 0 <= winner < n):
            said = shown(winner, typed=False)
            raise ValueError(f"winner must be a seat 0..{n - 1} or None, got {said}")
        winner = int(winner)
        if sizes[winner] != 0:
            raise ValueError(f"winner {winner} still holds {sizes[winner]} cards")
    turn, rnd, limit = _counter(d, "turn", 0), _counter(d, "round", 1), rules.turn_limit
    if turn > limit:  # E1: the game ended, unfinished, on reaching its limit
        raise ValueError(f"turn {turn} is past the turn limit of {limit}: the game ended there")
    if rnd > turn + 1:  # round 1 at turn 0, and a turn ends at most one round
        said = shown(rnd, typed=False)
        raise ValueError(f"round must be at most turn + 1 ({turn + 1:,}): round 1 begins at "
                         f"turn 0 and each turn begins at most one more, got {said}")  # fmt: skip
    nz = [v for v in range(N_VALUES) if table[v]]
    lo, hi = (nz[0], nz[-1]) if nz else (-1, -1)
    return State._build(
        n=n, hh=join_lanes([pack(h) for h in hands]), table=pack(table), lo=lo, hi=hi,
        removed=pack(removed), undealt=pack(undealt), kk=join_lanes([pack(k) for k in known]),
        passed=sum(1 << i for i in range(n) if passed[i]), cur=cur,
        winner=-1 if winner is None else winner, turn=turn, round=rnd, limit=limit, rules=rules,
    )  # fmt: skip


def _known(raw: Any, hands: list[tuple[int, ...]], deck: tuple[int, ...]) -> list[tuple[int, ...]]:
    """The cards each seat is known to hold (none when ``raw`` is empty), each within its hand."""
    n = len(hands)
    raw = [[0] * N_VALUES for _ in range(n)] if _none_given(raw) else raw
    if not isinstance(raw, list | tuple):
        raise ValueError(
            f"known must list one hand of {N_VALUES} card counts per seat, "
            f"got {shown(raw, typed=False)}"
        )
    if len(raw) != n:
        raise ValueError(f"known must have one entry per seat ({n}), got {len(raw)}")
    known = [_counts(f"known[{i}]", k, deck) for i, k in enumerate(raw)]
    for i in range(n):
        for v in range(N_VALUES):
            if known[i][v] > hands[i][v]:
                raise ValueError(
                    f"known[{i}] says seat {i} holds {known[i][v]} of value {v + 1}, "
                    f"the hand has {hands[i][v]}"
                )
    return known


def _passed(raw: Any, n: int) -> list[bool]:
    """Which of the ``n`` seats have passed this round (none when ``raw`` is empty)."""
    raw = [False] * n if _none_given(raw) else raw
    if not isinstance(raw, list | tuple) or not all(map(_is_flag, raw)):
        raise ValueError(f"passed must be {n} flags True/False, got {shown(raw, typed=False)}")
    if len(raw) != n:
        raise ValueError(f"passed must have one flag per seat ({n}), got {len(raw)}")
    return [bool(x) for x in raw]


def _none_given(raw: Any) -> bool:
    """``raw`` gives none of a seat-by-seat list (None, or an empty list): not 0 or ''."""
    return raw is None or (isinstance(raw, list | tuple) and not raw)


def _is_flag(value: Any) -> bool:
    """``value`` is True/False (numpy's too) or 0/1: 1.0 is no flag."""
    return isinstance(value, bool | np.bool_) or (_is_whole(value) and value in (0, 1))


def _is_whole(value: Any) -> bool:
    """``value`` is a whole number (numpy's too) and no bool: True is not seat 1, nor 1.5 turn 1."""
    return isinstance(value, Integral) and not isinstance(value, bool)


def _counter(d: dict[str, Any], key: str, low: int) -> int:
    """``d[key]`` (``low`` when absent) as a plain int >= ``low``; ValueError naming ``key``."""
    value = d.get(key, low)
    if not _is_whole(value):
        raise ValueError(f"{key} must be a whole number >= {low}, got {shown(value, typed=False)}")
    if value < low:
        raise ValueError(f"{key} must be >= {low}, got {shown(int(value), typed=False)}")
    return int(value)


def _rules(d: dict[str, Any]) -> Rules:
    """The rules of the dict form: its ``rules`` (the keys changed from today's), with its
    ``turn_limit`` when it gives one."""
    rules = d.get("rules")
    if not isinstance(rules, Rules):
        rules = Rules.from_dict(rules)
    limit = d.get("turn_limit")
    if limit is None:
        return rules
    if isinstance(limit, Real) and not _is_whole(limit) and not isinstance(limit, bool):
        raise ValueError(
            f"turn_limit takes a whole number of turns, got {shown(limit, typed=False)}"
        )
    if not _is_whole(limit) or limit < 1:
        raise ValueError(f"turn_limit must be >= 1, got {shown(limit, typed=False)}")
    return rules if limit == rules.turn_limit else rules.replace(turn_limit=int(limit))
