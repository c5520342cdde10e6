"""Seating designs: the orders in which one deal is replayed at a table ("duplicate" play).

Duplicate deals cancel the luck of the cards, but in a game with a turn order the neighbour
matters too: the player after you faces what you leave. A *balanced* design replays each deal
under a set of seatings such that, over the set, every entrant sits in every position relative
to the first player equally often, and for every ordered pair (A, B) of distinct entrants at the
table, B sits directly after A (the next seat clockwise, ``(s + 1) % k``) equally often.
Entrants repeated at a table (``--repeats``, or fewer strategies than seats) keep the same
balance over distinct strategies.

Every design here is a set of cyclic orders each played under all ``k`` rotations, so the
position balance holds whatever the deal's first player. The pair balance is found by a small
exact search over cyclic orders of the table's multiset of entrants (fewest cyclic orders
first), so designs are as short as the balance allows: 3 seats 6 seatings, 4 seats 24, 5 seats
20 (instead of 120), 6 seats 60 (instead of 720). A design depends only on the table's pattern
of repeats, never on labels or listing order. Both ``balanced`` and ``all`` work from the distinct
orders of the table's multiset, listed one after another in sorted order (never the ``k!``
permutations); a table with more than ``MAX_ORDERS`` of them is refused in one line.

``design(table, kind)`` is the public entry point; ``pair_counts`` and ``position_counts``
measure a design (tests, and features that build their own tables).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Iterator, Sequence
from functools import cache

import numpy as np

from gamekit.errors import ParameterError

__all__ = [
    "SEATINGS",
    "DEFAULT_SEATING",
    "MAX_ORDERS",
    "base_positions",
    "design",
    "is_balanced",
    "pair_counts",
    "position_counts",
]

SEATINGS = ("balanced", "all", "rotations")
"""``balanced``: position and neighbour balance (default). ``all``: every distinct order of the
table's entrants. ``rotations``: the rotations of the listed order only (neighbours fixed by the
listing; kept to compare with earlier runs)."""

DEFAULT_SEATING = "balanced"

MAX_ORDERS = 500_000
"""Most distinct orders of a table's entrants that ``all`` plays and ``balanced`` searches: a
design with more is refused (10 different strategies at 10 seats have 3,628,800)."""

Seating = tuple[int, ...]  # entrant per seat


def design(table: Sequence[int], kind: str = DEFAULT_SEATING) -> tuple[Seating, ...]:
    """The seatings one deal of ``table`` is played under: entrant per seat, for each seating.

    ``table`` lists entrants (ints; repeats allowed). The result depends only on the multiset
    ``table`` and on ``kind``, not on the order ``table`` lists it in (except for
    ``rotations``). Balanced seatings come grouped by cyclic order, each under its ``k``
    rotations (seating ``j * k + r`` is cyclic order ``j`` rotated by ``r``); ``all`` lists
    every distinct order once, sorted.
    """
    table = tuple(table)
    k = len(table)
    if k < 1:
        raise ValueError("a table needs at least one seat")
    if kind == "rotations":
        return tuple(tuple(table[(s + r) % k] for s in range(k)) for r in range(k))
    # entrants as types 0..d-1 in order of first appearance in the sorted table
    distinct = sorted(set(table))
    counts = tuple(table.count(e) for e in distinct)
    if kind == "all":
        _check_size(counts, kind)
        return tuple(tuple(distinct[t] for t in order) for order in _all_orders(counts))
    if kind != "balanced":
        raise ValueError(f"unknown seating {kind!r}: choose one of {', '.join(SEATINGS)}")
    _check_size(counts, kind)
    cycles = _balanced_cycles(counts)
    return tuple(
        tuple(distinct[cycle[(s + r) % k]] for s in range(k)) for cycle in cycles for r in range(k)
    )


def base_positions(table: Sequence[int], seating: Sequence[int]) -> tuple[int, ...]:
    """Index into ``table`` of the entrant in each seat (repeats: occurrences in order)."""
    free: dict[int, list[int]] = {}
    for p, e in enumerate(table):
        free.setdefault(e, []).append(p)
    try:
        return tuple(free[e].pop(0) for e in seating)
    except (KeyError, IndexError):
        raise ValueError(
            f"seating {tuple(seating)} is not an order of table {tuple(table)}"
        ) from None


def position_counts(seatings: Sequence[Seating], first: int = 0) -> dict[tuple[int, int], int]:
    """{(entrant, position after the first player): seatings} for a first player ``first``."""
    out: Counter[tuple[int, int]] = Counter()
    for seating in seatings:
        k = len(seating)
        for s, e in enumerate(seating):
            out[(e, (s - first) % k)] += 1
    return dict(out)


def pair_counts(seatings: Sequence[Seating]) -> dict[tuple[int, int], int]:
    """{(A, B): seatings where B sits directly after A} over ordered pairs of distinct entrants."""
    out: Counter[tuple[int, int]] = Counter()
    for seating in seatings:
        k = len(seating)
        for s in range(k):
            a, b = seating[s], seating[(s + 1) % k]
            if a != b:
                out[(a, b)] += 1
    return dict(out)


def is_balanced(seatings: Sequence[Seating]) -> bool:
    """True when both balance conditions hold over the distinct entrants of ``seatings``."""
    if not seatings:
        return False
    entrants = sorted(set(seatings[0]))
    k = len(seatings[0])
    for first in range(k):
        pos = position_counts(seatings, first)
        for e in entrants:
            if len({pos.get((e, p), 0) for p in range(k)}) != 1:
                return False
    pairs = pair_counts(seatings)
    wanted = [pairs.get((a, b), 0) for a in entrants for b in entrants if a != b]
    return len(set(wanted)) <= 1 and (not wanted or wanted[0] > 0)


# ---------------------------------------------------------------------- search


def _check_size(counts: tuple[int, ...], kind: str) -> None:
    """Refuse a design whose distinct orders are more than ``MAX_ORDERS``, before any work."""
    n = math.factorial(sum(counts)) // math.prod(math.factorial(c) for c in counts)
    if n > MAX_ORDERS:
        raise ParameterError(
            f"{{seating}} {kind} cannot be used at a table of {sum(counts)} seats with "
            f"{len(counts)} different strategies: it has {n:,} distinct orders (at most "
            f"{MAX_ORDERS:,}); use {{seating}} rotations",
            "seating",
        )


def _orders(counts: tuple[int, ...]) -> Iterator[Seating]:
    """Every distinct order of the multiset (type t repeated counts[t] times), in sorted
    (lexicographic) order: each one the next permutation of the one before, so the work grows
    with the distinct orders, never with the ``k!`` permutations."""
    order = [t for t, c in enumerate(counts) for _ in range(c)]
    k = len(order)
    while True:
        yield tuple(order)
        i = k - 2
        while i >= 0 and order[i] >= order[i + 1]:
            i -= 1
        if i < 0:
            return
        j = k - 1
        while order[j] <= order[i]:
            j -= 1
        order[i], order[j] = order[j], order[i]
        order[i + 1 :] = reversed(order[i + 1 :])


def _cycles(counts: tuple[int, ...]) -> list[Seating]:
    """Every cyclic order of the multiset (type t repeated counts[t] times), one per rotation
    class, as its lexicographically smallest rotation; sorted."""
    k = sum(counts)
    return [p for p in _orders(counts) if all(p <= p[r:] + p[:r] for r in range(1, k))]


@cache
def _all_orders(counts: tuple[int, ...]) -> tuple[Seating, ...]:
    """Every distinct order of the multiset, sorted."""
    return tuple(_orders(counts))


@cache
def _balanced_cycles(counts: tuple[int, ...]) -> tuple[Seating, ...]:
    """Fewest cyclic orders whose ordered adjacent pairs of distinct types are all equal."""
    d = len(counts)
    cycles = _cycles(counts)
    if d == 1:
        return (cycles[0],)
    pairs = [(a, b) for a in range(d) for b in range(d) if a != b]
    index = {p: i for i, p in enumerate(pairs)}
    vecs = []
    for c in cycles:
        v = np.zeros(len(pairs), np.int64)
        for s in range(len(c)):
            a, b = c[s], c[(s + 1) % len(c)]
            if a != b:
                v[index[(a, b)]] += 1
        vecs.append(v)
    for lam in itertools.count(1):
        found = _search(vecs, lam)
        if found is not None:
            return tuple(cycles[i] for i in found)
        if lam > 12:  # pragma: no cover - every pattern of 3..6 seats is solved by lam 2
            raise RuntimeError(f"no balanced seating found for repeats {counts}")
    raise AssertionError("unreachable")  # pragma: no cover


def _search(vecs: list[np.ndarray], lam: int) -> list[int] | None:
    """Cyclic orders (indices, repetition allowed) whose vectors sum to ``lam`` everywhere.

    Exact cover with multiplicities (Knuth's algorithm X, depth first): the pair with the
    fewest usable cycles is covered next; once a cycle's branch has failed it is excluded from
    its siblings' subtrees, so every multiset of cycles is tried at most once.
    """
    mat = np.array(vecs)
    n_cycles, m = mat.shape

    def dfs(need: np.ndarray, allowed: np.ndarray, chosen: list[int]) -> list[int] | None:
        if not need.any():
            return list(chosen)
        usable = allowed & (mat <= need).all(axis=1)
        open_pairs = np.flatnonzero(need)
        options = [(int(np.count_nonzero(usable & (mat[:, p] > 0))), int(p)) for p in open_pairs]
        n_opt, p = min(options)
        if n_opt == 0:
            return None
        allowed = allowed.copy()
        for i in np.flatnonzero(usable & (mat[:, p] > 0)):
            chosen.append(int(i))
            got = dfs(need - mat[i], allowed, chosen)
            if got is not None:
                return got
            chosen.pop()
            allowed[i] = False
        return None

    return dfs(np.full(m, lam, np.int64), np.ones(n_cycles, bool), [])
