"""Build a chart from tournament results: win rate per strategy with its 95% interval.

    python examples/win_rate_chart.py [RUN_DIR] [CHART.png]

With no RUN_DIR a small tournament is played first (``LEAVES_EXAMPLE_GAMES`` games, default
6,000, into ``LEAVES_EXAMPLE_OUT`` or a temporary directory). Results come back as pandas
DataFrames (``reports.summary(run)``, ``reports.head_to_head(run)``, ``run.games()`` rows), so
any chart is a few lines.

The intervals are the summary's own (``ci_low``, ``ci_high``): they count a deal at a table
as one independent unit, because the games of one deal share their cards, so they are right
as often as they claim; a binomial interval over games would treat the games of a deal as
independent. A run too small for an interval has none (NaN bounds): the chart draws its
win-rate bars without error bars.
"""

from __future__ import annotations

import os
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")  # write files, no window

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import reports  # noqa: E402
import tournaments  # noqa: E402


def main(run_dir: str | None = None, chart: str = "win_rates.png") -> None:
    if run_dir is None:
        games = int(os.environ.get("LEAVES_EXAMPLE_GAMES", "6000"))
        run_dir = os.environ.get("LEAVES_EXAMPLE_OUT") or tempfile.mkdtemp(prefix="leaves-chart-")
        t = tournaments.Tournament(["greedy", "high", "minimal", "random"], games=games, seed=2)
        t.run(n_jobs=1, out=run_dir)

    result = tournaments.load(run_dir)
    summary = reports.summary(result)  # strategy, games, wins, win_rate, ci_low, ci_high, ...
    rate = summary["win_rate"]
    low, high = summary["ci_low"], summary["ci_high"]  # the design's interval, not the binomial

    fig, ax = plt.subplots(figsize=(7, 0.5 * len(summary) + 1.2))
    ax.barh(summary["strategy"], rate, color="#0072B2")
    err = np.nan_to_num(np.clip([rate - low, high - rate], 0, None))  # NaN: too small a run
    ax.errorbar(rate, summary["strategy"], xerr=err, fmt="none", ecolor="k")
    ax.invert_yaxis()  # strongest on top
    ax.set_xlabel("win rate (95% interval over duplicate sets)")
    ax.set_title(f"Win rate over {result.spec['n_games']:,} games")
    fig.tight_layout()
    fig.savefig(chart, dpi=120)
    print(summary[["strategy", "games", "win_rate", "ci_low", "ci_high"]].to_string(index=False))
    if summary["ci_low"].isna().any():
        print("no interval where the run is too small to give one: play more deals")
    print(f"chart: {chart}")


if __name__ == "__main__":
    try:
        main(*sys.argv[1:3])
    except ValueError as exc:  # a folder that holds no run: say so in one line
        sys.exit(f"win_rate_chart.py: error: {exc}")
