"""A tuning whose result is the start itself verifies nothing: the same spec on the same seeds
plays the same games in both arms, so no number of them could tell it from itself. It plays
no verification arm, writes no verification.csv (tune.json's verification is null), says there
is nothing to verify, and gives no advice to raise the verification's games."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from leaves_cli import main
from tuning import tune
from tuning.evaluate import Field

INERT = str(Path(__file__).with_name("toy_tunable.py")) + ":Inert"
ARGS = dict(players=4, budget=264, seed=4, popsize=2, candidate_games=24, verify_games=48)
"""Two generations of two candidates and the start, then the finalists (about a second): a
parameter that changes nothing, so the search comes back to the start."""
FILES = ("best.txt", "candidates.csv", "search.csv", "tune.json")


def _no_arm(*args, **kwargs):
    raise AssertionError("a verification arm was played")


def _tune(out: Path, **kw):
    return tune(INERT, ["random"], n_jobs=1, out=out, **{**ARGS, **kw})


def _doc(out: Path) -> dict:
    doc = json.loads((out / "tune.json").read_text(encoding="utf-8"))
    doc.pop("created")
    doc["settings"].pop("wall_s")
    return doc


def test_the_start_is_not_verified_against_itself(tmp_path, monkeypatch):
    monkeypatch.setattr(Field, "play", _no_arm)
    out = tmp_path / "t"
    res = _tune(out)
    assert res.tuned_spec == res.best_spec == INERT and res.verification is None
    assert not (out / "verify").exists() and not (out / "verification.csv").exists()
    doc = _doc(out)
    assert doc["verification"] is None and doc["recommended"] == "start"
    assert doc["settings"]["verify_games"] == 0 and doc["settings"]["verify_seed"] is None
    lines = res.lines()
    said = (f"no verification: the tuned parameters are the start's ({INERT}), which would "
            "play the same games in both arms; nothing to verify")  # fmt: skip
    assert said in lines
    assert not any("verification on fresh seeds" in ln for ln in lines)
    assert not any("verification" in w for w in res.warnings), res.warnings


def test_a_resumed_tuning_of_the_start_ends_as_the_uninterrupted_one(tmp_path, monkeypatch):
    """Stopped in the selection, the resume plays no verification either and writes the same
    files as the tuning that was never stopped."""
    whole = tmp_path / "whole"
    _tune(whole)
    calls, score = [0], Field.score

    def stopped(self, *args, **kwargs):
        calls[0] += 1
        if calls[0] > 7:  # the search's 2 x 3 evaluations, then the first finalist
            raise KeyboardInterrupt
        return score(self, *args, **kwargs)

    out = tmp_path / "t"
    with monkeypatch.context() as m:
        m.setattr(Field, "score", stopped)
        with pytest.raises(KeyboardInterrupt):
            _tune(out)
    assert (out / "tune-state.pkl").is_file()
    _tune(out, resume=True)
    for name in FILES[:-1]:
        assert (whole / name).read_bytes() == (out / name).read_bytes(), name
    assert _doc(whole) == _doc(out)
    assert sorted(p.name for p in out.iterdir()) == sorted([*FILES, "convergence.png"])


def test_the_command_says_there_is_nothing_to_verify_and_exits_0(tmp_path, capsys):
    out = tmp_path / "t"
    args = ["tune", INERT, "--against", "random", "--budget", "264", "--seed", "4",
            "--popsize", "2", "--candidate-games", "24", "--verify-games", "48", "--jobs", "1",
            "--out", str(out)]  # fmt: skip
    try:
        main(args)
        code = 0
    except SystemExit as exc:
        code = exc.code
    said = capsys.readouterr()
    assert code == 0, said.err
    assert "nothing to verify" in said.out
    assert "--verify-games" not in said.out and "paired difference" not in said.out
    assert (out / "best.txt").read_text().strip() == INERT


@pytest.mark.slow
def test_the_reviewed_tuning_whose_finalists_lose_to_the_start(tmp_path, capsys):
    """The case as found: the search's candidates differ from the start, none of the
    finalists beats it, so the start is kept; nothing is verified."""
    out = tmp_path / "tq"
    args = ["tune", "patient", "--against", "greedy", "--players", "3", "--budget", "600",
            "--seed", "1", "--jobs", "1", "--out", str(out)]  # fmt: skip
    try:
        main(args)
        code = 0
    except SystemExit as exc:
        code = exc.code
    said = capsys.readouterr().out
    assert code == 0
    assert said.splitlines()[0].startswith("no better parameters found: of the 4 finalists")
    assert "nothing to verify" in said and "--verify-games" not in said
    assert not (out / "verify").exists() and not (out / "verification.csv").exists()
