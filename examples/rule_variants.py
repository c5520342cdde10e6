"""What does a rule change do to the game? The same strategy plays under today's rules and
under variants, and each figure comes with a 95% interval.

    python examples/rule_variants.py                 # 4,000 games per rule set
    LEAVES_EXAMPLE_GAMES=500 python examples/rule_variants.py

Every seat is the same strategy, so each game is an independent draw: the mean and its
standard error are honest as they are, and a mean's interval is Student's t over the games.
Every rule set plays the same seeds, so a variant's difference from today's rules is
paired seed by seed: the mean of the per-seed differences and its standard error (two samples
drawn from the same seeds are not independent). The first player's share of wins has Wilson's
interval, which stays inside 0-100%. Too few games for a mean's interval (under 6: the
reports' 5 degrees of freedom) are said in words, as the reports say them. ``leaves variants``
does the same for a whole field of strategies, with skill, closeness and seat effects, in one
report (docs/variants.md).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

import strategies
from leaves import Rules
from reports.clusters import MIN_DF, t_quantile
from reports.numbers import TOO_FEW, apart_digits, difference_interval, fixed, interval
from reports.stats import wilson
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


def mean_ci(x: np.ndarray) -> tuple[float, float, float]:
    """The mean and its 95% interval, Student's t over the games (independent draws); NaN
    bounds where too few games give none (``t_quantile``)."""
    n, m = len(x), float(x.mean())
    q = float(t_quantile(n - 1))
    if not np.isfinite(q):
        return m, np.nan, np.nan
    h = q * float(x.std(ddof=1)) / np.sqrt(n)
    return m, m - h, m + h


def versus(diff: float, lo: float, hi: float) -> str:
    """A variant's paired difference in turns with its interval, both with the decimals that
    show each bound on its own side of 0 (``apart_digits``): '+0.05 [-0.04, +0.14]', never
    '+0.1 [-0.04, +0.14]'; the difference alone where too few games give an interval."""
    if not (np.isfinite(lo) and np.isfinite(hi)):
        return fixed(diff, 1, "+")
    k = apart_digits(lo, hi, 1, scale=1.0)
    return f"{fixed(diff, k, '+')} {difference_interval(lo, hi, 1.0, k)}"


def main() -> None:
    base = play(Rules())
    unfinished, too_few = 0, False
    per = f"{GAMES:,} {'game' if GAMES == 1 else 'games'} per rule set"
    print(f"{STRATEGY} in all {PLAYERS} seats, {per}; 95% intervals")
    print(f"{'rules':<16}{'turns':>20}{'vs default':>22}{'first player wins':>24}")
    for text in VARIANTS:
        rules = Rules.parse(text)
        got = base if rules.is_default else play(rules)
        unfinished += int(got["unfinished"].sum())
        m, *ci = mean_ci(got["turns"])
        diff, *dci = mean_ci(got["turns"] - base["turns"])  # paired: the same seeds
        too_few = not np.isfinite(ci[0])  # no interval: said once, below the table
        wins = int(got["first wins"].sum())
        turns = f"{m:.1f}" + ("" if too_few else f" {interval(*ci, 1)}")
        vs = "" if rules.is_default else versus(diff, *dci)
        print(f"{str(rules):<16}{turns:>20}{vs:>22}"
              f"{100 * wins / GAMES:>13.1f}% {interval(*wilson(wins, GAMES))}")  # fmt: skip
    if too_few:
        print(f"(turns: {TOO_FEW}; {int(MIN_DF) + 1} games or more give one)")
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
