"""Simple one-rule heuristics with different characters (none counts cards)."""

from __future__ import annotations

from .. import compiled as C
from ._base import CompiledBuiltin, as_float


class LowStrategy(CompiledBuiltin):
    """Sheds the lowest value first: plays every card it holds of the lowest value it may play,
    saving high cards for later. It never passes while it can play; forced to pass, it takes
    the value it already holds most of (ties to the lowest value), to grow a group. Fully
    deterministic.
    """

    name = "low"
    description = "plays its whole group of the lowest playable value"
    kind = C.LOW

    def __init__(self) -> None:
        pass


class HighStrategy(CompiledBuiltin):
    """Sheds the highest value first: plays every card it holds of the highest value it may
    play, keeping low cards for later. Never passes while it can play; a forced pass takes the
    value it holds most of (ties to the lowest). Deterministic; the mirror image of ``low``.
    """

    name = "high"
    description = "plays its whole group of the highest playable value"
    kind = C.HIGH

    def __init__(self) -> None:
        pass


class MinimalStrategy(CompiledBuiltin):
    """Plays as few cards as the table allows (one on an empty table, else the end's size),
    preferring the value where that leaves fewest cards behind, then the lowest value: a
    cautious player that keeps its groups intact and only dumps them when it must. It always
    takes a play that empties its hand; a forced pass takes the value it holds most of.
    """

    name = "minimal"
    description = "plays the fewest cards allowed, keeping groups intact"
    kind = C.MINIMAL

    def __init__(self) -> None:
        pass


class GreedyStrategy(CompiledBuiltin):
    """Dumps its biggest group: plays all of the value it holds most of among the playable ones
    (ties to the value farther from 7, then the lower). Shedding many cards at once sets a big
    end that opponents rarely match, so it often keeps the lead. Never passes while it can
    play; a forced pass takes the value it holds most of. ``keep_pairs=True`` plays a group of
    exactly two only when nothing else is playable (or it empties the hand), keeping pairs to
    answer two-card ends later.
    """

    name = "greedy"
    description = "plays its biggest playable group, all of it"
    kind = C.GREEDY

    def __init__(self, keep_pairs: bool = False) -> None:
        if not isinstance(keep_pairs, bool):
            raise ValueError(
                f"greedy: parameter keep_pairs must be true or false, got {keep_pairs!r}"
            )
        self.keep_pairs = keep_pairs

    def _vector(self) -> list[float]:
        return [1.0 if self.keep_pairs else 0.0]


class BlockerStrategy(CompiledBuiltin):
    """Prefers the extremes: plays its whole group of the playable value farthest from 7 (1s and
    13s first, ties to the bigger group). A 1 on the left or a 13 on the right closes that
    side to new stacks, so opponents can only answer by stacking at least as many cards.
    Never passes while it can play; a forced pass takes the value it holds most of.
    """

    name = "blocker"
    description = "plays the most extreme value (1s and 13s) to close a side"
    kind = C.BLOCKER

    def __init__(self) -> None:
        pass


class PatientStrategy(CompiledBuiltin):
    """Passes early to grow a group: plays its biggest whole group when that sheds two or more
    cards (or leads), but rather than shed a lone card it passes and takes a card of a value it
    already holds, turning a single into a pair it can lead later. It stops doing so once its
    hand is smaller than ``min_hand``, and plays the lone card when no useful take exists.
    """

    name = "patient"
    description = "sheds groups; passes to make pairs instead of shedding lone cards"
    kind = C.PATIENT

    def __init__(self, min_hand: int = 6) -> None:
        self.min_hand = as_float(self.name, "min_hand", min_hand)

    def _vector(self) -> list[float]:
        return [self.min_hand]
