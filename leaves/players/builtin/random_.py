"""``random``: the uniform baseline."""

from __future__ import annotations

from gamekit.jit import njit
from leaves import kernels as K

from ._base import CompiledBuiltin


@njit(cache=True)
def policy_random(board, seat, sizes, params, rng, work):
    """Uniform over the legal ids: ``legal[rng_below(rng, n_legal)]`` (``kernels``' draw)."""
    return K.random_action(board, rng)


class RandomStrategy(CompiledBuiltin):
    """Uniform over the legal actions: each legal action id is equally likely (every stack one
    can take from is its own pass action), exactly as the rules (``docs/rules.md``) define
    random play, so baselines compare across implementations. It is the yardstick every other
    strategy is measured against; it passes often (one take per stack on the table) and so
    loses badly.
    """

    name = "random"
    description = "uniform over the legal action ids (the baseline)"
    policy = policy_random
    classifier = {"stochastic": True}
