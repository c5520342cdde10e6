"""Build a chart from tournament results: win rate per strategy with its 95% interval.

    python examples/win_rate_chart.py [RUN_DIR] [CHART.png]

With no RUN_DIR a small tournament is played first (``LEAVES_EXAMPLE_GAMES`` games, default
6,000, into ``LEAVES_EXAMPLE_OUT``, where this run, stopped or finished, is continued, or into
a temporary directory; Ctrl-C says the command that continues it). Results come back as
pandas DataFrames (``reports.summary(run)``, ``reports.head_to_head(run)``, ``run.games()``
rows), so any chart is a few lines.

The intervals are the summary's own (``ci_low``, ``ci_high``): they count a deal at a table
as one independent unit, because the games of one deal share their cards, so they are right
as often as they claim; a binomial interval over games would treat the games of a deal as
independent. A run too small for an interval has none (NaN bounds): the chart draws its
win-rate bars without error bars. The title counts the games the win rates are shares of (an
expert run's are its matches' games); an unfinished run is said first, and in the title.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import matplotlib

matplotlib.use("Agg")  # write files, no window

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import reports  # noqa: E402
import tournaments  # noqa: E402
from strategies.user_code import load_file  # noqa: E402
from tournaments.run_state import RunState, run_state  # noqa: E402

# the examples' one reader of their LEAVES_EXAMPLE_* sizes (and of a Ctrl-C), in
# run_tournament.py beside this
helper = load_file(str(Path(__file__).with_name("run_tournament.py")))
size = helper.size


def title(state: RunState | None) -> str:
    """'Win rate over 371 games': the games (a Ligretto run's rounds) the win rates are shares
    of, those an unfinished run holds, with how far it got; an expert run's are its matches'."""
    if state is None:  # rows made by hand: no manifest says how many
        return "Win rate"
    extent = f", {state.extent()}" if state.unfinished else ""
    return f"Win rate over {state.games:,} {state.game_units}{extent}"


def main(run_dir: str | None = None, chart: str = "win_rates.png") -> None:
    if run_dir is None:
        games = size("GAMES", 6000)
        run_dir = os.environ.get("LEAVES_EXAMPLE_OUT") or tempfile.mkdtemp(prefix="leaves-chart-")
        t = tournaments.Tournament(["greedy", "high", "minimal", "random"], games=games, seed=2)
        try:
            t.run(n_jobs=1, out=run_dir, resume=True)  # this run in LEAVES_EXAMPLE_OUT: continued
        except KeyboardInterrupt:  # Ctrl-C: what was played is kept there; say how to go on
            helper.interrupted(out=run_dir)

    result = tournaments.load(run_dir)
    state = run_state(run_dir)  # what the run holds: the games played, which may be fewer
    for line in state.lines() if state else ():  # an unfinished or forfeited run: said first
        print(line)
    summary = reports.summary(result)  # strategy, games, wins, win_rate, ci_low, ci_high, ...
    rate = summary["win_rate"]
    low, high = summary["ci_low"], summary["ci_high"]  # the design's interval, not the binomial

    fig, ax = plt.subplots(figsize=(7, 0.5 * len(summary) + 1.2))
    ax.barh(summary["strategy"], rate, color="#0072B2")
    err = np.nan_to_num(np.clip([rate - low, high - rate], 0, None))  # NaN: too small a run
    ax.errorbar(rate, summary["strategy"], xerr=err, fmt="none", ecolor="k")
    ax.invert_yaxis()  # strongest on top
    ax.set_xlabel("win rate (95% interval over duplicate sets)")
    ax.set_title(title(state))
    fig.tight_layout()
    try:
        fig.savefig(chart, dpi=120)
    except OSError as exc:  # a folder that is not there, or not writable: one line
        raise ValueError(f"cannot write the chart {chart}: {exc.strerror or exc}") from None
    print(summary[["strategy", "games", "win_rate", "ci_low", "ci_high"]].to_string(index=False))
    if summary["ci_low"].isna().any():
        print("no interval where the run is too small to give one: play more deals")
    print(f"chart: {chart}")


if __name__ == "__main__":
    if len(sys.argv) > 3:  # a third argument was dropped: say so, play nothing
        sys.exit("win_rate_chart.py: error: usage: win_rate_chart.py [RUN_DIR] [CHART.png]")
    try:
        main(*sys.argv[1:3])
    except ValueError as exc:  # a folder that holds no run: say so in one line
        sys.exit(f"win_rate_chart.py: error: {exc}")
