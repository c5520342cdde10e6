"""A second, plain implementation of the rules of docs/rules.md, over lists, written from the
page and not from ``leaves.state``/``moves``/``legal``: the independent expectation the
boundary tests (``test_boundaries_*.py``) compare the ``State`` API with, move by move.

Slow and obvious on purpose: no packing, no caches, no tables. ``Ref`` is a position,
``legal(r)`` its legal action ids in increasing order, ``apply(r, aid)`` the next position
(``IllegalMove`` for an action the rules refuse). ``differential`` plays games with random
actions through both and checks every field, the legal list and every refusal.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field, replace

import pytest

from leaves import Rules, State, new_game

PLAY_IDS = 104  # (v - 1) * 8 + (k - 1) for v 1..13, k 1..8
PASS_NOTHING = 117


class IllegalMove(Exception):
    pass


@dataclass(frozen=True)
class Ref:
    hands: tuple[tuple[int, ...], ...]
    table: tuple[int, ...]
    removed: tuple[int, ...]
    known: tuple[tuple[int, ...], ...]
    passed: tuple[bool, ...]
    cur: int
    winner: int | None
    turn: int
    round: int
    limit: int
    min_count: bool = True
    take: str = "any"
    undealt: tuple[int, ...] = field(default=(0,) * 13)

    @property
    def n(self) -> int:
        return len(self.hands)

    def stacks(self) -> list[int]:
        """Value indices (0-based) of the stacks, left to right."""
        return [v for v in range(13) if self.table[v]]


def of_state(s: State) -> Ref:
    """The reference position of a State, read from its public plain-data form."""
    d = s.to_dict()
    r = s.rules
    return Ref(
        hands=tuple(tuple(h) for h in d["hands"]), table=tuple(d["table"]),
        removed=tuple(d["removed"]), known=tuple(tuple(k) for k in d["known"]),
        passed=tuple(d["passed"]), cur=d["current_player"], winner=d["winner"],
        turn=d["turn"], round=d["round"], limit=d["turn_limit"], min_count=r.min_count,
        take=r.take, undealt=tuple(d["undealt"]),
    )  # fmt: skip


def over(r: Ref) -> bool:
    return r.winner is not None or r.turn >= r.limit


def legal(r: Ref) -> list[int]:
    """Every legal action id, increasing."""
    if over(r):
        return []
    hand = r.hands[r.cur]
    stacks = r.stacks()
    out: set[int] = set()
    if not stacks:  # any value, any count; no pass (P1)
        for v in range(13):
            out.update(v * 8 + k - 1 for k in range(1, hand[v] + 1))
        return sorted(out)
    left, right = stacks[0], stacks[-1]
    need_left = r.table[left] if r.min_count else 1
    need_right = r.table[right] if r.min_count else 1
    for v in range(13):
        if v <= left:
            out.update(v * 8 + k - 1 for k in range(need_left, hand[v] + 1))
        if v >= right:
            out.update(v * 8 + k - 1 for k in range(need_right, hand[v] + 1))
    if r.take == "any":
        out.update(PLAY_IDS + v for v in stacks)
    elif r.take == "ends":
        out.update({PLAY_IDS + left, PLAY_IDS + right})
    else:
        out.add(PASS_NOTHING)
    return sorted(out)


def _next_seat(r: Ref, passed: tuple[bool, ...]) -> int:
    q = (r.cur + 1) % r.n
    while passed[q]:
        q = (q + 1) % r.n
    return q


def _set(row: tuple, i: int, value) -> tuple:
    return row[:i] + (value,) + row[i + 1 :]


def apply(r: Ref, aid: int) -> Ref:
    """The position after action ``aid``."""
    if aid not in legal(r):
        raise IllegalMove(aid)
    p = r.cur
    hand, table, known = list(r.hands[p]), list(r.table), list(r.known[p])
    if aid < PLAY_IDS:
        v, k = divmod(aid, 8)
        k += 1
        hand[v] -= k
        table[v] += k
        known[v] -= min(known[v], k)
        hands = _set(r.hands, p, tuple(hand))
        new = replace(r, hands=hands, table=tuple(table), known=_set(r.known, p, tuple(known)),
                      turn=r.turn + 1)  # fmt: skip
        if sum(hand) == 0:
            return replace(new, winner=p)
        return replace(new, cur=_next_seat(r, r.passed))
    if aid != PASS_NOTHING:
        v = aid - PLAY_IDS
        table[v] -= 1
        hand[v] += 1
        known[v] += 1
    passed = _set(r.passed, p, True)
    new = replace(r, hands=_set(r.hands, p, tuple(hand)), table=tuple(table),
                  known=_set(r.known, p, tuple(known)), turn=r.turn + 1)  # fmt: skip
    if sum(passed) >= r.n - 1:  # the round ends: the one who stayed clears and leads
        survivor = passed.index(False)
        removed = tuple(a + b for a, b in zip(r.removed, table, strict=True))
        return replace(new, table=(0,) * 13, removed=removed, passed=(False,) * r.n,
                       cur=survivor, round=r.round + 1)  # fmt: skip
    return replace(new, passed=passed, cur=_next_seat(r, passed))


def ends(r: Ref):
    """((left value, size), (right value, size)) or None, as ``State.ends`` says it."""
    stacks = r.stacks()
    if not stacks:
        return None
    return (stacks[0] + 1, r.table[stacks[0]]), (stacks[-1] + 1, r.table[stacks[-1]])


def check_same(s: State, r: Ref) -> None:
    """Every public fact of ``s`` against the reference position ``r``."""
    assert of_state(s) == r
    assert list(s.legal_action_ids()) == legal(r)
    assert s.ends == ends(r)
    assert s.is_terminal == over(r)
    assert s.winner == r.winner
    assert s.unfinished == (r.winner is None and r.turn >= r.limit)
    assert s.hand_sizes == tuple(sum(h) for h in r.hands)
    assert s.stacks == tuple((v + 1, r.table[v]) for v in r.stacks())


def differential(state: State, rng: random.Random, turns: int = 400) -> int:
    """Play ``state`` on with random actions through both implementations, checking every
    position; at each one also try an action the reference refuses. Returns the turns."""
    r = of_state(state)
    s = state
    for _ in range(turns):
        check_same(s, r)
        ids = legal(r)
        if not ids:
            return r.turn
        bad = rng.randrange(PASS_NOTHING + 1)
        if bad not in ids:
            with pytest.raises(ValueError):
                s.apply(bad)
        aid = rng.choice(ids)
        s, r = s.apply(aid), apply(r, aid)
    check_same(s, r)
    return r.turn


RULE_SETS = [
    Rules(),
    Rules(min_count=False),
    Rules(take="ends"),
    Rules(take="nothing"),
    Rules.parse("take=ends,min_count=off"),
    Rules.parse("take=nothing,min_count=off"),
]


@pytest.mark.parametrize("rules", RULE_SETS, ids=str)
def test_the_state_api_plays_as_the_reference(rules):
    rng = random.Random(20260)
    turns = 0
    for seed in range(12):
        n = 3 + seed % 4
        turns += differential(new_game(n, seed=seed, rules=rules), rng)
    assert turns > 300  # the games were played, not refused at once


def test_small_hands_and_two_players_reach_every_end_of_a_game():
    """Two players with small hands: wins, round ends with one survivor, and short limits."""
    rng = random.Random(7)
    results = set()
    for seed in range(30):
        s = new_game(2, seed=seed, hand_size=3, rules=Rules(turn_limit=3 + seed % 5))
        differential(s, rng)
        while not s.is_terminal:
            s = s.apply(rng.choice(s.legal_actions()))
        results.add("won" if s.winner is not None else "unfinished")
    assert results == {"won", "unfinished"}


def test_the_reference_knows_the_rulebook_example():
    """Left end three 6s, right end two 12s: any value <= 6 with at least 3 cards, any value
    >= 12 with at least 2; a pass takes from any of the three stacks (docs/rules.md)."""
    hand = (2, 3, 0, 4, 3, 3, 0, 4, 3, 0, 0, 0, 2)
    table = (0, 0, 0, 0, 0, 3, 0, 0, 1, 0, 0, 2, 0)
    r = Ref(hands=(hand, (0,) * 13), table=table, removed=(0,) * 13, known=((0,) * 13,) * 2,
            passed=(False, False), cur=0, winner=None, turn=0, round=1, limit=1000)  # fmt: skip
    plays = {(a // 8 + 1, a % 8 + 1) for a in legal(r) if a < PLAY_IDS}
    assert plays == {(2, 3), (4, 3), (4, 4), (5, 3), (6, 3), (13, 2)}
    assert [a - PLAY_IDS + 1 for a in legal(r) if a >= PLAY_IDS] == [6, 9, 12]
