"""Write and register your own strategy, play it, and run it against the built-in ones.

    python examples/my_strategy.py                 # one game, then a small tournament
    leaves strategies --load examples/my_strategy.py
    leaves play --load examples/my_strategy.py --against hoarder
    leaves tournament examples/my_strategy.py:Hoarder greedy low random --games 9600 --out runs/mine

``LEAVES_EXAMPLE_GAMES`` sets the small tournament's games (default 4,000),
``LEAVES_EXAMPLE_OUT`` its folder (default: a new temporary one); a folder that holds this run
already, stopped or finished, is continued (Ctrl-C says the command that continues it), and
one holding anything else is refused in one line.

A strategy subclasses ``strategies.Strategy``: a registry ``name``, a one-line
``description``, a ``classifier``, keyword parameters with defaults, and ``choose``, which
sees only its own ``PlayerView`` and draws any randomness from the ``rng`` it is given.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import numpy as np

from leaves import Action, PlayerView
from strategies import Strategy


class Hoarder(Strategy):
    """Sheds its biggest group; passes (taking a card it pairs) rather than break a pair."""

    name = "hoarder"
    description = "plays its biggest group; passes to take a card it already holds"
    classifier = {"stochastic": False, "uses_card_counting": False}

    def __init__(self, min_group: int = 2):
        self.min_group = min_group

    def choose(self, view: PlayerView, legal: tuple[Action, ...], rng: np.random.Generator):
        hand = view.hand
        plays = [a for a in legal if not a.is_pass and a.count == hand[a.value - 1]]
        takes = [a for a in legal if a.is_pass]
        big = [a for a in plays if a.count >= self.min_group]
        if big:
            return max(big, key=lambda a: (a.count, -a.value))
        pairing = [a for a in takes if hand[a.value - 1] > 0]
        if pairing:
            return max(pairing, key=lambda a: hand[a.value - 1])
        if plays:
            return plays[0]
        return legal[0]  # only partial plays or takes of new values left


def main() -> None:
    import strategies
    from strategies.user_code import load_file
    from tournaments import Tournament

    # the examples' one reader of their LEAVES_EXAMPLE_* sizes (and of a Ctrl-C), in
    # run_tournament.py beside this; read first, so a bad size ends the script before it plays
    helper = load_file(str(Path(__file__).with_name("run_tournament.py")))
    games = helper.size("GAMES", 4000)
    print("registered:", "hoarder" in strategies.names())
    game = strategies.play_game([Hoarder(), "greedy", "random", "low"], seed=7)
    print(f"one game: winner seat {game.winner}, cards left {game.cards_left}")

    t = Tournament([Hoarder(min_group=3), "greedy", "random", "low"], games=games, seed=3)
    out = os.environ.get("LEAVES_EXAMPLE_OUT") or tempfile.mkdtemp(prefix="leaves-example-")
    try:
        result = t.run(n_jobs=1, out=out, resume=True)  # this run in LEAVES_EXAMPLE_OUT: continued
    except KeyboardInterrupt:  # Ctrl-C: what was played is kept in out; say how to go on
        helper.interrupted(out=out)
    print(result.summary()[["strategy", "games", "wins", "win_rate"]].to_string(index=False))


if __name__ == "__main__":
    import sys

    if len(sys.argv) > 1:  # an argument would be dropped: say so, play nothing
        sys.exit(
            f"my_strategy.py: error: takes no arguments, got {' '.join(sys.argv[1:])}: "
            "set the number of games with LEAVES_EXAMPLE_GAMES=N"
        )
    try:
        main()
    except ValueError as exc:  # a LEAVES_EXAMPLE_OUT that cannot take this run: one line
        sys.exit(f"my_strategy.py: error: {exc}")
