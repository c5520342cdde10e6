"""No sentence, table cell or chart label writes '-0.0': a figure that rounds to zero is written
as zero ('0.0', '+0.0'), whatever side of zero the unrounded value lies
(``reports.numbers.fixed``). The CSVs keep their numbers as they are."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import matplotlib
import numpy as np
import pandas as pd
import pytest

matplotlib.use("Agg")

TINY = -1e-5  # a difference of win rates that rounds to zero points, from below

ROOT = Path(__file__).resolve().parents[1]


def _verification(diff: float, low: float, high: float, p: float = 0.5):
    from tuning.verify import Arm, Verification

    arm = Arm("taker", "taker", 400, 128, 0.32, 0.275, 0.365)
    return Verification(seed=1, tuned=arm, start=arm, diff=diff, diff_low=low, diff_high=high,
                        p_value=p, units=100, games_differing=9)  # fmt: skip


# --- tuning: the verification's interval and paired difference -----------------------------


def test_the_verification_interval_writes_no_minus_zero():
    v = _verification(0.01, TINY, 0.02)
    assert v.span() == "[-0.001, +2.000]"  # a bound below 0 on its side, never '+0.0'
    assert v.span(2) == "[-0.001, +2.000]"
    assert _verification(0.01, -0.012, 0.02).span() == "[-1.2, +2.0]"  # a real sign stays


def test_the_tuning_paired_line_writes_no_minus_zero():
    from tuning.tune import _paired

    assert _paired(_verification(-0.005, -0.02, -1e-6, 0.04)) == (
        "-0.5000 percentage points [-2.0000, -0.0001], p = 0.04"
    )  # an interval clear of 0 keeps the decimals that say so (tests/test_digits61.py)
    assert _paired(_verification(-1e-6, -0.02, 1e-4, 0.4)) == (
        "+0.00 percentage points [-2.00, +0.01], p = 0.40"
    )


def test_the_tune_verdict_uses_the_reports_points():
    from leaves.commands.tune import verdict

    result = SimpleNamespace(verification=_verification(0.01, 0.004, 0.016, 0.003), spec="taker")
    assert verdict(result).startswith(
        "Better than the start: +1.0 percentage point of win rate [+0.4, +1.6] over the start "
        "(taker)"
    )


# --- the variants' tables and sentences ----------------------------------------------------


def _diff_row(metric: str, diff: float, low: float, high: float) -> pd.Series:
    return pd.Series({"metric": metric, "diff": diff, "ci_low": low, "ci_high": high,
                      "value": diff, "significant": False})  # fmt: skip


def test_a_variants_difference_writes_no_minus_zero():
    from reports.variants_display import diff_text, value_text

    r = _diff_row("unfinished", TINY, -0.01, TINY)  # clear of 0: decimals enough to show it
    assert diff_text(r) == "-0.001 [-1.000, -0.001] pp"
    # across 0: decimals enough to show each bound on its side of 0, never '+0.0' for -0.001
    assert diff_text(_diff_row("unfinished", TINY, -0.01, -TINY)) == "-0.001 [-1.000, +0.001] pp"
    no_interval = diff_text(_diff_row("unfinished", TINY, np.nan, np.nan))
    assert no_interval.startswith("+0.0 pp (")
    seat = pd.Series({"metric": "seat", "value": TINY, "ci_low": -0.01, "ci_high": TINY})
    assert value_text(seat) == "-0.001 [-1.000, -0.001] pp"
    seat["ci_high"] = -TINY  # an interval holding 0: each bound on its side, no minus zero
    assert value_text(seat) == "-0.001 [-1.000, +0.001] pp"
    turns = pd.Series({"metric": "lead_changes", "value": -1e-4, "ci_low": -1e-4,
                       "ci_high": 0.5})  # fmt: skip
    # a level (a count, never below 0): its bounds at 0 at least, the measure's decimals
    assert value_text(turns) == "0.00 [0.00, 0.50] changes"  # tests/test_edge65_bounds.py


def test_a_ladder_step_cell_writes_no_minus_zero():
    from reports.variants_tables import _points

    r = pd.Series({"diff": TINY, "ci_low": -0.01, "ci_high": 0.001})
    assert _points(r) == "+0.0 [-1.0, +0.1]"
    # clear of 0, its bounds get the decimals that show it (as the measure's cell), never '+0.0'
    assert _points(pd.Series({"diff": TINY, "ci_low": -0.01, "ci_high": TINY})) == (
        "-0.001 [-1.000, -0.001]"
    )
    assert _points(pd.Series({"diff": TINY, "ci_low": np.nan, "ci_high": np.nan})) == (
        "+0.0 (too few deals)"
    )


def test_the_variants_words_write_no_minus_zero():
    from reports.variants_text import _rate
    from reports.variants_words import change, in_brackets

    assert _rate(0.2, -1e-5, 0.3) == "20.0% [0.0, 30.0]"
    assert in_brackets(-1e-4, 0.5, 2) == "[0.00, 0.50]"
    r = pd.Series({"metric": "lead_changes", "diff": 0.3, "ci_low": -1e-4, "ci_high": 0.6})
    assert change(r, "fewer", "more") == "0.3000 times more [-0.0001, +0.6000]"  # across 0


def test_a_flat_ladder_step_writes_no_minus_zero():
    from reports.designer_text import _flat

    step = SimpleNamespace(upper="a", lower="b", diff=TINY, needs=0.02, no_spread=False)
    said = "a over b (+0.0 percentage points; 2.0 percentage points either way"
    assert _flat(step).startswith(said)


# --- the round robin's findings and page ---------------------------------------------------


def test_the_neighbour_finding_writes_no_minus_zero():
    from reports.findings import _neighbours

    nb = pd.DataFrame({"strategy": ["a", "b"], "before": ["b", "a"],
                       "vs_elsewhere": [TINY, TINY / 2], "vs_elsewhere_low": [-0.01] * 2,
                       "vs_elsewhere_high": [0.01] * 2, "vs_elsewhere_p": [0.9] * 2,
                       "elsewhere_rate": [0.25] * 2, "win_rate": [0.25] * 2,
                       "ci_low": [0.2] * 2, "ci_high": [0.3] * 2})  # fmt: skip
    (finding,) = _neighbours(nb, None)
    assert "(+0.0 percentage points [-1.0, +1.0] within the same deals" in finding.text


def test_the_means_finding_writes_no_minus_zero():
    from reports.findings import _means

    d = SimpleNamespace(rank_value="score", unit="game")  # the two fields the finding reads
    means = pd.DataFrame({"strategy": ["a", "b"], "score_mean": [0.5, -1e-4],
                          "score_ci_low": [0.4, -0.1], "score_ci_high": [0.6, 0.1]})  # fmt: skip
    (finding,) = _means(means, d)
    assert finding.text.endswith("; b has the worst: 0.00.")


def test_the_page_table_cells_write_no_minus_zero():
    from reports.page import readable

    df = pd.DataFrame({"strategy": ["a"], "diff": [TINY], "ci_low": [TINY], "ci_high": [0.01],
                       "p_value": [0.9]})  # fmt: skip
    out = readable("significance", df)
    assert (out["diff"][0], out["ci_low"][0], out["ci_high"][0]) == (
        "-0.001 pp",  # across 0: the decimals that show the bound's side of 0, not '+0.0'
        "-0.001 pp",
        "+1.000 pp",
    )
    assert readable("summary", pd.DataFrame({"ci_low": [TINY]}))["ci_low"][0] == "0.0%"


def test_the_metagame_table_cells_write_no_minus_zero():
    from reports.metagame_text import readable

    out = readable("metagame_mix", pd.DataFrame({"gain": [-1e-7], "weight": [TINY]}))
    assert (out["gain"][0], out["weight"][0]) == ("+0.0 pp", "0.0%")


# --- charts' labels --------------------------------------------------------------------------


def test_the_rating_chart_labels_write_no_minus_zero():
    from reports.charts import rating

    ratings = pd.DataFrame({"strategy": ["a", "b"], "rating": [-1e-4, 1e-4],
                            "ci_low": [-0.3, -0.2], "ci_high": [-1e-4, 0.3]})  # fmt: skip
    fig = rating(ratings)
    labels = {t.get_text() for t in fig.axes[0].texts}
    assert not any(t.startswith("-0.00 ") or "-0.00]" in t or "-0.00," in t for t in labels)
    # an interval below 0 whose bound two decimals would write +0.00: decimals that show its
    # side (reports.rating.rating_digits), one count for the whole chart, as its table's
    assert "-0.0001 [-0.3000, -0.0001]" in labels and "+0.0001 [-0.2000, +0.3000]" in labels


def test_the_percent_and_seat_axes_write_no_minus_zero():
    from reports.charts import _percent
    from reports.variants_charts import seats

    tidy = _percent()
    tidy.set_locs([-1e-17, 0.25, 0.5])
    assert tidy(-1e-17) == "0%"
    metrics = pd.DataFrame({"rules": ["default"] * 2, "n_players": ["4"] * 2,
                            "position": [0, 1], "metric": ["seat"] * 2, "value": [0.02, -0.02],
                            "ci_low": [0.01, -0.03], "ci_high": [0.03, -0.01]})  # fmt: skip
    fig = seats(metrics)
    formatter = fig.axes[0].yaxis.get_major_formatter()
    assert formatter(-1e-17, 0) == "0"  # its zero unsigned, never '-0' (nor '+0')


# --- the command line's tables ----------------------------------------------------------------


def test_the_hint_table_writes_no_minus_zero():
    from io import StringIO

    from rich.console import Console

    from leaves.commands.hint import _contributions

    move = SimpleNamespace(is_pass=True, taken=None)
    scored = [SimpleNamespace(action=move, score=-1e-4, features={"harm": 1.0},
                              contributions={"harm": -1e-4})]  # fmt: skip
    console = Console(file=StringIO(), width=200)
    console.print(_contributions(scored))
    text = console.file.getvalue()
    assert "harm = 1: +0.00" in text and "-0.00" not in text
    assert " 0.00 " in text  # the score


def test_the_tournament_summary_writes_no_minus_zero(capsys):
    from leaves_cli.tournament_parts import summary_table

    cols = {"strategy": np.array(["a"], dtype=object), "games": np.array([8]),
            "seats": np.array([8]),
            "wins": np.array([2]), "win_rate": np.array([0.25]),
            "score_mean": np.array([-1e-4]), "forfeits": np.array([0])}  # fmt: skip
    result = SimpleNamespace(summary_columns=lambda: cols, spec={"expert": False, "rows": False},
                             manifest={"rank_value": "score", "game_declaration": {}},
                             aggregates=lambda: {})  # fmt: skip
    summary_table(result)
    out = capsys.readouterr().out
    assert "0.000" in out and "-0.000" not in out


# --- the notebook reads its size through the examples' one reader ---------------------------

FIRST_CELL = """
import json, sys
cells = [c for c in json.load(open(sys.argv[1], encoding="utf-8"))["cells"]
         if c["cell_type"] == "code"]
ns = {"__name__": "__main__"}
exec(compile("".join(cells[0]["source"]), "cell 0", "exec"), ns)
print("GAMES", ns["GAMES"])
"""


def _first_cell(tmp_path: Path, games: str) -> subprocess.CompletedProcess:
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    env = {**os.environ, "LEAVES_EXAMPLE_GAMES": games, "MPLBACKEND": "Agg", "PYTHONPATH": path}
    return subprocess.run([sys.executable, "-c", FIRST_CELL, str(ROOT / "examples" /
                                                                "notebook.ipynb")],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)  # fmt: skip


@pytest.mark.parametrize("games", ["abc", "0", "-3"])
def test_the_notebook_refuses_a_bad_size_in_one_line(tmp_path, games):
    proc = _first_cell(tmp_path, games)
    assert proc.returncode != 0
    lines = proc.stderr.strip().splitlines()
    assert (
        len(lines) == 1
        and "LEAVES_EXAMPLE_GAMES must be a whole number of at least 1" in (lines[0])
    ), proc.stderr[-2000:]


@pytest.mark.slow
def test_the_notebook_reads_its_size_through_run_tournament(tmp_path):
    assert _first_cell(tmp_path, "7").stdout.strip().endswith("GAMES 7")
    assert _first_cell(tmp_path, "").stdout.strip().endswith("GAMES 20000")
    cells = json.loads((ROOT / "examples" / "notebook.ipynb").read_text())["cells"]
    assert "os.environ" not in "".join("".join(c["source"]) for c in cells)
