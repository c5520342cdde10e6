"""Resumes refused in words a person can act on.

A tuning's verification arm whose run is not this tuning's arm (played by an earlier version
that seated 5-6 player tunings otherwise: ``tuning.evaluate.Field``) was refused as "it holds
a different tournament" with no advice; removing the arm's folder and resuming works, and the
refusal now says so. A run grown by stages of deals, asked again (``leaves run`` without
--resume) for the games it now holds, was refused in the manifest's keys ("differs in
games_asked: ...; deal_stages; n_chunks: ..."); now in the flags a person typed."""

from __future__ import annotations

import importlib
import json
import shutil
from pathlib import Path

import pytest

from tests.helpers import cli
from tournaments import Tournament
from tournaments.same_run import OtherRun
from tuning import checkpoint
from tuning.plan import checked

tune_module = importlib.import_module("tuning.tune")  # the module: tuning.tune is tune()


def _other_arm(arm: Path) -> None:
    """The arm's manifest as an earlier version's would be: its focus under another label."""
    path = arm / "manifest.json"
    manifest = json.loads(path.read_text())
    spec = manifest["spec"]
    spec["focus"] = "weighted(w_keep=-9)"
    spec["strategies"] = manifest["labels"] = sorted(
        spec["focus"] if s == "weighted" else s for s in spec["strategies"]
    )
    path.write_text(json.dumps(manifest))


def test_a_verification_arm_of_another_tournament_says_to_remove_it(tmp_path):
    """Was: "cannot resume .../verify/tuned: it holds a different tournament (differs in
    strategies; focus: ...)" and nothing more. The arm removed, the resume plays it again."""
    plan = checked("weighted", ["low", "greedy"], 3, 600, 1, 1, tmp_path / "t", popsize=None,
                   candidate_games=None, verify_games=12, sigma=0.3)  # fmt: skip
    arm = plan.out / "verify" / "tuned"
    first = tune_module._arm(plan, "weighted", 5, arm)
    _other_arm(arm)
    with pytest.raises(checkpoint.StateError) as refused:
        tune_module._arm(plan, "weighted", 5, arm)
    said = str(refused.value)
    assert said.startswith(f"cannot resume {arm}: it holds a different tournament (differs in")
    assert said.endswith(f"; remove {arm} and resume the tuning, which plays that arm again "
                         "(on the tuning's seed)")  # fmt: skip
    assert "\n" not in said
    shutil.rmtree(arm)
    again = tune_module._arm(plan, "weighted", 5, arm)
    assert again.summary().equals(first.summary())


@pytest.mark.slow
def test_a_tuning_stopped_in_its_verification_resumes_once_the_other_arm_is_removed(
    capsys, monkeypatch, tmp_path
):
    """The command line's words for it: one line, exit 1 (the folder holds the fault)."""
    monkeypatch.setenv("COLUMNS", "300")
    args = ["tune", "weighted", "--against", "low,greedy", "--players", "3", "--budget", "600",
            "--seed", "1", "--jobs", "1", "--verify-games", "12", "--out", str(tmp_path / "t")]  # fmt: skip
    monkeypatch.setattr(tune_module, "compare", _stopped)
    assert cli(capsys, *args)[0] != 0
    arm = tmp_path / "t" / "verify" / "tuned"
    _other_arm(arm)
    monkeypatch.undo()
    monkeypatch.setenv("COLUMNS", "300")
    code, _, err = cli(capsys, *args, "--resume")
    assert code == 1
    lines = err.strip().splitlines()  # "resuming ...: 8 of 8 generations ... saved", the error
    assert [x for x in lines if x.startswith("leaves: error:")] == lines[-1:]
    assert lines[-1].startswith(f"leaves: error: cannot resume {arm}: ")
    assert lines[-1].endswith(f"; remove {arm} and resume the tuning, which plays that arm "
                             "again (on the tuning's seed)")  # fmt: skip
    shutil.rmtree(arm)
    code, out, err = cli(capsys, *args, "--resume")
    assert code == 0, err
    assert "paired difference" in out


def _stopped(*args, **kw):
    raise KeyboardInterrupt


def _grown(out: Path) -> Tournament:
    """A run of 12 games grown by one stage of deals to 24, in ``out``."""
    t = Tournament(["greedy", "low", "high"], players=3, games=12, seed=1)
    t.run(out=out)
    grown = t.with_stages([t.schedule.stages[0], t.schedule.stages[0] + 2])
    grown.run(out=out, resume=True)
    return grown


def test_a_grown_run_asked_for_at_once_is_refused_in_the_caller_s_words(tmp_path):
    """Was: "... it holds a different tournament (differs in games_asked: 24 here, 12 in the
    run; deal_stages; n_chunks: 1 here, 2 in the run)"."""
    out = tmp_path / "run"
    assert _grown(out).n_games == 24
    with pytest.raises(OtherRun) as refused:
        Tournament(["greedy", "low", "high"], players=3, games=24, seed=1).run(out=out,
                                                                              resume=True)  # fmt: skip
    assert refused.value.worded({"games": "--games"}) == (
        f"cannot resume {out}: it holds this run asked for --games 12 and grown since by 1 more "
        "stage of deals to 24 games, not asked for --games 24 at once (its games lie in other "
        "chunks): resume it as it was asked (--games 12) and grown"
    )
    with pytest.raises(OtherRun, match=r"games 12 and grown since by 1 more stage of deals to "
                       r"24 games \(its games"):  # fmt: skip
        Tournament(["greedy", "low", "high"], players=3, games=12, seed=1).run(out=out,
                                                                              resume=True)  # fmt: skip


def test_a_grown_run_and_another_seed_is_still_another_tournament(tmp_path):
    out = tmp_path / "run"
    _grown(out)
    with pytest.raises(OtherRun, match=r"different tournament \(differs in .*seed"):
        Tournament(["greedy", "low", "high"], players=3, games=24, seed=2).run(out=out,
                                                                              resume=True)  # fmt: skip


@pytest.mark.slow
def test_leaves_run_with_the_games_a_grown_run_holds_says_it_holds_it(capsys, tmp_path):
    """``leaves run --out D --games N`` (no --resume) where D holds a run grown to N games."""
    out = str(tmp_path / "D")
    base = ["run", "--out", out, "--players", "3", "--seed", "1", "--jobs", "1"]
    assert cli(capsys, *base, "--games", "8")[0] == 0
    small = json.loads((Path(out) / "manifest.json").read_text())["spec"]["n_games"]
    assert cli(capsys, *base, "--resume", "--games", str(small + 1))[0] == 0
    held = json.loads((Path(out) / "manifest.json").read_text())["spec"]["n_games"]
    code, said, err = cli(capsys, *base, "--games", str(held))
    assert (code, err) == (0, "")  # was refused: "cannot resume D: ... not asked for at once"
    assert said.startswith(f"{out} already holds this run, finished: {held:,} games, asked 8, "
                           "grown by 1 more stage of deals, seed 1; ")  # fmt: skip
