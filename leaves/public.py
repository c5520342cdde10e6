"""The public information of a position, written once for ``State`` and ``PlayerView``.

Both hold the same packed fields for what every player may see (the table and its outer
stacks, the removed pile, the cards known from takes, hand sizes, the action history), so the
accessors that decode them live here and both classes inherit them.
"""

from __future__ import annotations

from .actions import ACTIONS_BY_ID, Action
from .packed import SHIFTS, unpack


class PublicFields:
    """Accessors of the public fields. A subclass provides ``_table`` (packed), ``_lo`` and
    ``_hi`` (value indices of the outer stacks, -1 on an empty table), ``_removed`` (packed),
    ``_known`` and ``_sizes`` (per seat) and ``_history`` (a linked tuple, newest first)."""

    __slots__ = ()
    _table: int
    _lo: int
    _hi: int
    _removed: int
    _known: tuple[int, ...]
    _sizes: tuple[int, ...]
    _history: tuple | None

    @property
    def table(self) -> tuple[int, ...]:
        """Cards on the table per value (value 1 first); each nonzero entry is one stack."""
        return unpack(self._table)

    @property
    def stacks(self) -> tuple[tuple[int, int], ...]:
        """The table's stacks left to right as (value, size) pairs."""
        return tuple((v + 1, c) for v, c in enumerate(unpack(self._table)) if c)

    @property
    def ends(self) -> tuple[tuple[int, int], tuple[int, int]] | None:
        """((left value, size), (right value, size)), or None for an empty table."""
        lo, hi, t = self._lo, self._hi, self._table
        if lo < 0:
            return None
        return (lo + 1, (t >> SHIFTS[lo]) & 15), (hi + 1, (t >> SHIFTS[hi]) & 15)

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        """Cards in each seat's hand."""
        return self._sizes

    @property
    def removed(self) -> tuple[int, ...]:
        """Cards removed from the game at round ends, per value."""
        return unpack(self._removed)

    @property
    def known(self) -> tuple[tuple[int, ...], ...]:
        """Per seat, the cards publicly known to be in that hand (taken on a pass, not played
        since)."""
        return tuple(unpack(k) for k in self._known)

    @property
    def history(self) -> tuple[tuple[int, Action], ...]:
        """The public history since the origin of this position's line: (seat, action) pairs,
        oldest first."""
        out = []
        h = self._history
        while h is not None:
            h, seat, aid = h
            out.append((seat, ACTIONS_BY_ID[aid]))
        out.reverse()
        return tuple(out)
