"""``taker``: the heuristic that passes well."""

from __future__ import annotations

from gamekit.jit import njit
from leaves.board import HANDS, M_HI, M_LO, META
from strategies.policy.params import Param, declare

from ..policy.features import TakeWeights, group_needs, need_of, play_id, take_scored
from ._base import CompiledBuiltin

TAKER_PARAMS = declare(
    Param("group_weight", 2.0, (0.0, 5.0), doc="per card of the taken value already held"),
    Param("harm_weight", 0.25, (-2.0, 2.0), doc="per unit the smaller end grows for opponents"),
    Param("extreme_weight", 0.2, (-1.0, 1.0), doc="per step of the value away from 7"),
)
_W = TAKER_PARAMS.index


@njit(cache=True)
def policy_taker(board, seat, sizes, params, rng, work):
    """Plays its smallest whole group (ties to the value nearest 7); takes by ``take_scored``."""
    lo = board[META, M_LO]
    hi = board[META, M_HI]
    a, b = group_needs(board, lo, hi)
    # Score -2 * count - 0.1 * |v - 7| as the key (count, distance from 7, value), whose
    # minimum is the best score, lowest value on ties. A play that empties the hand is the
    # only playable value then, so it is that minimum.
    low = 1 << 30
    for v in range(13):
        c = board[HANDS + seat, v]
        key = (c * 16 + abs(v - 6)) * 16 + v
        low = min(low, key if (c > 0) & (c >= need_of(v, lo, hi, a, b)) else 1 << 30)
    if low < 1 << 30:
        return play_id(low & 15, low >> 8)
    weights = TakeWeights(
        0.0, params[_W.group_weight], params[_W.harm_weight], params[_W.extreme_weight]
    )
    return take_scored(board, seat, lo, hi, weights, -1, -1e18)


class TakerStrategy(CompiledBuiltin):
    """Takes smartly: it plays its smallest whole group (ties to the value nearest 7; a play
    that empties the hand always) and never passes while it can play, but when it must pass it
    scores every stack it may take from by ``group_weight`` x cards of that value already held
    (the card's worth to its own next round: a card joining a group is worth more than a new
    single) + ``harm_weight`` x the change of the smaller end's size for the opponents still in
    the round (taking from a big end makes it easier to answer, taking a lone end card can
    expose a bigger stack, emptying the table gives the next player a free lead) +
    ``extreme_weight`` x the value's distance from 7 (extremes block later). Highest score
    wins, ties to the lowest value.
    """

    name = "taker"
    description = "sheds small whole groups; takes the card best for itself and worst for opponents"
    policy = policy_taker
    PARAMS = TAKER_PARAMS
