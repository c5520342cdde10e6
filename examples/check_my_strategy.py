"""Property-test your own strategy: the conformance check, then a hypothesis test of your own.

    python examples/check_my_strategy.py          # or put the two tests in a pytest file

``leaves.players.testing.check_strategy`` plays your strategy in positions of every phase and
player count (and whole self-play games) and raises AssertionError naming the position when it
breaks the protocol. ``leaves.testing`` gives hypothesis strategies for your own properties.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from hypothesis import given, settings

import strategies
from leaves.players.testing import check_strategy
from leaves.testing import positions
from strategies.user_code import load_file

# the examples' one reader of their LEAVES_EXAMPLE_* sizes, in run_tournament.py beside this
size = load_file(str(Path(__file__).with_name("run_tournament.py"))).size
EXAMPLES = size("EXAMPLES", 60)

# The strategy written in my_strategy.py, loaded from its file as "file.py:Class".
Hoarder = strategies.registry.resolve(f"{Path(__file__).with_name('my_strategy.py')}:Hoarder")[0]


def test_hoarder_follows_the_protocol():
    check_strategy(Hoarder, max_examples=EXAMPLES, games=2)


@settings(max_examples=EXAMPLES, deadline=None)
@given(positions())
def test_hoarder_never_breaks_a_group_it_can_shed_whole(state):
    view = state.view(state.current_player)
    action = Hoarder().choose(view, state.legal_actions(), np.random.default_rng(0))
    if not action.is_pass:
        whole = [a for a in state.legal_actions() if not a.is_pass
                 and a.count == view.hand[a.value - 1]]  # fmt: skip
        assert action.count == view.hand[action.value - 1] or not whole


if __name__ == "__main__":
    import sys

    if len(sys.argv) > 1:  # an argument would be dropped: say so, play nothing
        sys.exit(
            f"check_my_strategy.py: error: takes no arguments, got {' '.join(sys.argv[1:])}: "
            "set the examples per test with LEAVES_EXAMPLE_EXAMPLES=N"
        )
    test_hoarder_follows_the_protocol()
    test_hoarder_never_breaks_a_group_it_can_shed_whole()
    print("Hoarder passed check_strategy and the property test")
