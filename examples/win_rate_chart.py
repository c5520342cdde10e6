"""Build a chart from tournament results: win rate per strategy with 95% Wilson intervals.

    python examples/win_rate_chart.py [RUN_DIR] [CHART.png]

With no RUN_DIR a small tournament is played first (``LEAVES_EXAMPLE_GAMES`` games, default
6,000, into ``LEAVES_EXAMPLE_OUT`` or a temporary directory). Results come back as pandas
DataFrames (``summary()``, ``head_to_head()``, ``games()`` rows), so any chart is a few lines.
"""

from __future__ import annotations

import os
import sys
import tempfile

import matplotlib

matplotlib.use("Agg")  # write files, no window

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402

import tournaments  # noqa: E402
from reports import wilson  # noqa: E402


def main(run_dir: str | None = None, chart: str = "win_rates.png") -> None:
    if run_dir is None:
        games = int(os.environ.get("LEAVES_EXAMPLE_GAMES", "6000"))
        run_dir = os.environ.get("LEAVES_EXAMPLE_OUT") or tempfile.mkdtemp(prefix="leaves-chart-")
        t = tournaments.Tournament(["greedy", "high", "minimal", "random"], games=games, seed=2)
        t.run(n_jobs=1, out=run_dir)

    result = tournaments.load(run_dir)
    summary = result.summary()  # strategy, games, wins, win_rate, ...
    low, high = wilson(summary["wins"], summary["games"])
    rate = summary["win_rate"]

    fig, ax = plt.subplots(figsize=(7, 0.5 * len(summary) + 1.2))
    ax.barh(summary["strategy"], rate, color="#0072B2")
    err = np.clip([rate - low, high - rate], 0, None)  # rounding can leave -1e-18
    ax.errorbar(rate, summary["strategy"], xerr=err, fmt="none", ecolor="k")
    ax.invert_yaxis()  # strongest on top
    ax.set_xlabel("win rate (95% Wilson interval)")
    ax.set_title(f"Win rate over {result.spec['n_games']:,} games")
    fig.tight_layout()
    fig.savefig(chart, dpi=120)
    print(summary[["strategy", "games", "win_rate"]].to_string(index=False))
    print(f"chart: {chart}")


if __name__ == "__main__":
    main(*sys.argv[1:3])
