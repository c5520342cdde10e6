"""A newcomer's path through docs/strategies.md and docs/tuning.md: what the pages say about
the strategies and the tuner agrees with what they do."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from tuning.advice import headline
from tuning.verify import Arm, Verification

DOCS = Path(__file__).resolve().parents[1] / "docs"


def _result(units: int) -> SimpleNamespace:
    arm = Arm("x", "x", 4 * units, units, 0.25, float("nan"), float("nan"))
    v = Verification(seed=1, tuned=arm, start=arm, diff=0.25, diff_low=float("nan"),
                     diff_high=float("nan"), p_value=float("nan"), units=units,
                     games_differing=1)  # fmt: skip
    settings = {"no_effect": False, "finalists": 5, "games_used": 108}
    return SimpleNamespace(verification=v, settings=settings, spec="taker",
                           tuned_spec="taker:harm_weight=1.0", start={"harm_weight": 0.25})  # fmt: skip


def test_too_few_deals_headline_agrees_in_number():
    """`leaves tune --verify-games 1` verifies on one deal: the headline said "1 fresh deal
    are too few to tell"."""
    assert "were not shown better: 1 fresh deal is too few to tell," in headline(_result(1))
    assert "were not shown better: 2 fresh deals are too few to tell," in headline(_result(2))
    assert np.isnan(_result(1).verification.diff_low)


NAMES = """
import json, strategies
tunable = {}
for name in strategies.names():
    try:
        strategies.tunables(name)
    except ValueError:
        tunable[name] = False
    else:
        tunable[name] = True
print(json.dumps(tunable))
"""


@pytest.fixture(scope="module")
def fresh_names() -> dict[str, bool]:
    """Each name ``strategies.names()`` lists in a new process (what a newcomer's has), with
    whether it declares tunables: a strategy an earlier test in this process registered (a
    file it loaded, a class it defined) is no built-in for the pages to name."""
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "PYTHONPATH": str(root)}
    proc = subprocess.run([sys.executable, "-c", NAMES], cwd=root, env=env, capture_output=True,
                          text=True, timeout=120)  # fmt: skip
    assert proc.returncode == 0, proc.stderr[-2000:]
    return json.loads(proc.stdout)


def test_tuning_page_names_every_builtin_that_declares_tunables(fresh_names):
    """docs/tuning.md said only weighted, taker and counter declare tunable parameters;
    patient (which the same page tunes) and ismcts declare theirs too."""
    text = (DOCS / "tuning.md").read_text(encoding="utf-8")
    what = text[text.index("**What is tuned:**") : text.index("**How a candidate is scored:**")]
    named = set(re.findall(r"`([a-z]+)`", what))
    tunable = {name for name, declares in fresh_names.items() if declares}
    assert tunable and tunable <= named, sorted(tunable - named)


def test_strategies_page_names_every_registered_strategy(fresh_names):
    """`strategies.names()` (the page's first line) lists observation and openspiel, which the
    page's list of built-ins left out."""
    text = (DOCS / "strategies.md").read_text(encoding="utf-8")
    missing = [n for n in fresh_names if f"**{n}**" not in text and f"`{n}`" not in text]
    assert fresh_names and not missing, missing


def test_an_interrupted_tuning_says_what_to_do(capsys, tmp_path, monkeypatch):
    """Ctrl-C during the verification left a partial verify/ in --out and only "interrupted":
    the same command then refused "is not empty". A tuning interrupted before it saved any
    state (here ``tune`` itself is replaced, so none is) cannot be resumed, and says so with
    what to remove; one that saved its generations names its ``--resume`` command
    (tests/test_tune_resume.py)."""
    import tuning
    from leaves_cli.main import main

    out = tmp_path / "t"

    def interrupted(*args, **kwargs):
        (out / "verify" / "tuned").mkdir(parents=True)
        raise KeyboardInterrupt

    monkeypatch.setattr(tuning, "tune", interrupted)
    try:
        main(["tune", "taker", "--against", "low", "--out", str(out)])
        code = 0
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err
    assert code == 130 and err.endswith("leaves: error: interrupted\n")
    said = err.splitlines()[0]
    assert "cannot be resumed" in said and f"remove {out}" in said and "Traceback" not in err


@pytest.mark.parametrize(
    ("script", "arg", "message"),
    [
        ("win_rate_chart.py", "empty", "holds no tournament"),
        ("run_tournament.py", "a_file", "is not a directory"),
    ],
)
def test_examples_refuse_a_wrong_folder_in_one_line(tmp_path, script, arg, message):
    """`python examples/win_rate_chart.py FOLDER` on a folder that holds no run (or
    run_tournament.py on a file) ended in a traceback."""
    (tmp_path / "empty").mkdir()
    (tmp_path / "a_file").write_text("x")
    root = Path(__file__).resolve().parents[1]
    env = {**os.environ, "LEAVES_EXAMPLE_GAMES": "24", "MPLBACKEND": "Agg", "PYTHONPATH": str(root)}
    proc = subprocess.run([sys.executable, str(root / "examples" / script), arg], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=60)  # fmt: skip
    assert proc.returncode != 0
    assert "Traceback" not in proc.stderr and message in proc.stderr, proc.stderr[-2000:]
    assert proc.stderr.count("\n") == 1
