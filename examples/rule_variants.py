"""What does a rule change do to the game? The same strategy plays under today's rules and
under variants, and each figure comes with a 95% interval.

    python examples/rule_variants.py                 # 4,000 games per rule set
    LEAVES_EXAMPLE_GAMES=500 python examples/rule_variants.py

Every seat is the same strategy, so each game is an independent draw: the mean and its
standard error are honest as they are. Every rule set plays the same seeds, so a variant's
difference from today's rules is paired seed by seed: the mean of the per-seed differences and
its standard error (two samples drawn from the same seeds are not independent). ``leaves
variants`` does the same for a whole field of strategies, with skill, closeness and seat
effects, in one report (docs/variants.md).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import strategies
from leaves import Rules
from reports.numbers import fixed
from strategies.user_code import load_file

# the examples' one reader of their LEAVES_EXAMPLE_* sizes, in run_tournament.py beside this
size = load_file(str(Path(__file__).with_name("run_tournament.py"))).size
GAMES = size("GAMES", 4000)
PLAYERS = 4
STRATEGY = "weighted"
VARIANTS = ["default", "hand_size=9", "take=ends", "min_count=off"]


def play(rules: Rules) -> dict[str, np.ndarray]:
    """``GAMES`` games at one table of ``STRATEGY`` under ``rules``, from fixed seeds."""
    words = np.random.SeedSequence(2026).generate_state(2 * GAMES, np.uint64)
    deal, play_seeds = words[:GAMES], words[GAMES:]  # the same seeds under every rule set
    res = strategies.play_batch([STRATEGY] * PLAYERS, deal, play_seeds, rules=rules)
    return {
        "turns": np.asarray(res.turns, float),
        "first wins": (np.asarray(res.winner_seat) == np.asarray(res.first_player)).astype(float),
        "unfinished": np.asarray(res.unfinished, float),
    }


def mean_ci(x: np.ndarray) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (normal; games are independent)."""
    return float(x.mean()), 1.96 * float(x.std(ddof=1)) / np.sqrt(len(x))


def main() -> None:
    base = play(Rules())
    unfinished = 0
    print(f"{STRATEGY} in all {PLAYERS} seats, {GAMES:,} games per rule set; 95% intervals")
    print(f"{'rules':<16}{'turns':>20}{'vs default':>22}{'first player wins':>24}")
    for text in VARIANTS:
        rules = Rules.parse(text)
        got = base if rules.is_default else play(rules)
        unfinished += int(got["unfinished"].sum())
        m, h = mean_ci(got["turns"])
        diff, dh = mean_ci(got["turns"] - base["turns"])  # paired: the same seeds
        f, fh = mean_ci(got["first wins"])
        pm = [fixed(x, 1, "+") for x in (diff, diff - dh, diff + dh)]  # never '-0.0'
        vs = "" if rules.is_default else f"{pm[0]} [{pm[1]}, {pm[2]}]"
        print(f"{str(rules):<16}{m:>11.1f} [{m - h:.1f}, {m + h:.1f}]{vs:>22}"
              f"{100 * f:>13.1f}% [{100 * (f - fh):.1f}, {100 * (f + fh):.1f}]")  # fmt: skip
    print(
        f"(a fair share is {100 / PLAYERS:.0f}%; games unfinished at the turn limit: {unfinished})"
    )


if __name__ == "__main__":
    import sys

    if len(sys.argv) > 1:  # an argument would be dropped: say so, play nothing
        sys.exit(
            f"rule_variants.py: error: takes no arguments, got {' '.join(sys.argv[1:])}: "
            "set the number of games with LEAVES_EXAMPLE_GAMES=N"
        )
    main()
