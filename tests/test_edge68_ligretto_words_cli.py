"""Ligretto's command-line words: a subclass of a built-in refused under its own name, and a
``--no-rows`` run naming the limit that stopped each unfinished round, as docs/ligretto.md
says."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from ligretto import cengine
from ligretto.players.builtin import Cautious, StackFirst
from ligretto.plugin import LigrettoGame
from ligretto.rules import MAX_ROUND_MS
from tests.helpers import cli, doc_text, one_error_line

FAST = "think_ms=0,look_ms=0,flip_ms=0,spread_ms=0,patience=9000000"
MINE = """
from ligretto.players.builtin import StackFirst


class Broken(StackFirst):
    def __init__(self, speed=0):
        pass


class Fast(StackFirst):
    pass
"""


@pytest.fixture(autouse=True)
def _env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # the CLI sets it
    monkeypatch.setenv("COLUMNS", "250")


# ------------------------------------------------------------------ a built-in's subclass
@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("Broken", "Broken: parameter speed must be > 0, got 0.0"),
        ("Fast:speed=0", "Fast: parameter speed must be > 0, got 0.0"),
        ("Fast:think_ms=-1", "Fast: parameter think_ms must be between 0 and 600000, got -1"),
    ],
)
def test_a_subclass_of_a_built_in_is_refused_by_its_own_name(capsys, tmp_path: Path, spec, said):
    """It said 'stack: parameter speed must be > 0', naming the built-in it extends."""
    (tmp_path / "mine.py").write_text(MINE)
    out = tmp_path / "run"
    code, _, err = cli(capsys, "tournament", "--game", "ligretto", f"{tmp_path}/mine.py:{spec}",
                       "stack", "--players", "2", "--games", "4", "--seed", "1", "--jobs", "1",
                       "--out", str(out))  # fmt: skip
    assert code == 2, err
    assert one_error_line(err) == f"leaves: error: {said}"
    assert not out.exists() or not any(out.iterdir())


def test_the_built_ins_keep_their_names_and_their_checks():
    with pytest.raises(ValueError, match=r"^stack: parameter speed must be > 0, got 0\.0$"):
        StackFirst(speed=0)
    with pytest.raises(ValueError, match=r"^cautious: parameter patience must be between 0"):
        Cautious(patience=-1)
    assert Cautious(patience=3, speed=1.1).label == "cautious(speed=1.1,patience=3)"
    assert StackFirst().params == StackFirst.PARAMS.defaults()


# ------------------------------------------------------------------ a --no-rows run's limits
@pytest.mark.slow
def test_a_run_without_rows_names_each_limit_as_the_doc_says(capsys, tmp_path: Path):
    """docs/ligretto.md said a ``--no-rows`` run cannot tell the limits apart and names both;
    its aggregates count each, and it names them as the run with rows does (the truth: the
    rows' time_ms, 600,000 at the clock)."""
    args = ["tournament", "--game", "ligretto", f"cautious:speed=1.5,{FAST}", f"cautious:{FAST}",
            "--players", "2,4", "--games", "4", "--seed", "1", "--jobs", "1"]  # fmt: skip
    lines = []
    for kept in ([], ["--no-rows"]):
        out = tmp_path / f"run{len(kept)}"
        code, said, err = cli(capsys, *args, *kept, "--out", str(out))
        assert code == 0, err
        lines += [x for x in said.splitlines() if "stopped unfinished" in x]
    rows = pd.concat(pd.read_parquet(p) for p in (tmp_path / "run0" / "games").rglob("*.parquet"))
    stopped = rows[rows["unfinished"]]
    clock = int((stopped["time_ms"] >= MAX_ROUND_MS).sum())
    assert (clock, len(stopped) - clock) == (2, 9)
    words = ("11 rounds (50.0%) stopped unfinished at the limits of the game (2 at 10 minutes "
             "of game time, 9 at 2,000,000 actions a round)")  # fmt: skip
    assert len(lines) == 2 and lines[0] == lines[1] and lines[0].startswith(words)
    doc = " ".join(doc_text("ligretto.md").split())
    assert "do not tell them apart" not in doc
    assert ("`--players 2,4 --games 4 --seed 1 --no-rows` print `11 rounds (50.0%) stopped "
            "unfinished at the limits of the game (2 at 10 minutes of game time, 9 at 2,000,000 "
            "actions a round)`, as the run with rows does.") in doc  # fmt: skip
    assert "`unfinished_at:0:time_ms:600000` in `aggregates.npz`" in doc


# ------------------------------------------------------------------ the benchmark's note
def test_the_benchmarks_blockades_are_counted_not_rounded_to_none():
    """2 of 50,000 rounds at three players ended by blockade, which read 'blockades 0.00%'."""
    if not cengine.available():  # the compiled loop without its JIT would take minutes
        pytest.skip("no C engine here")
    report = LigrettoGame().bench(3, 50_000, 0, 1, 1)
    share = report.result["blockade_share"]
    assert (share * 50_000, f"{share:.2%}") == (2, "0.00%")  # the truth, and the old words
    (note,) = report.notes
    assert note.endswith(", 2 of the 50,000 rounds ended by blockade")
