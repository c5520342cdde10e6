"""Review of the session's run locks and resumes: an equivalent option is no other option, and
a resume continues what the uninterrupted command would have done."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import exit_code

VARIANTS = ["variants", "random", "low", "greedy", "--rules", "take=ends,min_count=off",
            "--players", "4", "--games", "96", "--seed", "1", "--jobs", "1",
            "--trace-games", "0", "--restricted-games", "0"]  # fmt: skip


@pytest.fixture(scope="module")
def compared(tmp_path_factory):
    out = tmp_path_factory.mktemp("variants") / "o"
    assert exit_code([*VARIANTS, "--out", str(out)]) == 0
    return out


@pytest.mark.slow
@pytest.mark.parametrize(
    "extra",
    [
        ["--rules", "min_count=off,take=ends"],  # the same rule set, its keys in another order
        ["--rules", " take=ends , min_count=off"],
        ["greedy", "random", "low"],  # the same field in another order: the same results
        ["low", "greedy", "random", "--rules", "min_count=off, take=ends", "--players", "4"],
    ],
)
def test_a_comparison_resumes_with_its_options_in_another_but_equal_form(compared, capsys,
                                                                         extra):  # fmt: skip
    """They were refused ('--rules min_count=off,take=ends but the run has rules
    take=ends,min_count=off'), though the comparison they ask is the one in --out (played
    with either, its tables are the same to the byte)."""
    capsys.readouterr()
    code = exit_code(["variants", "--out", str(compared), "--resume", "--jobs", "1", *extra])
    err = capsys.readouterr().err
    assert code == 0, err
    assert "cannot resume" not in err and "all 144 games kept" in err


def test_another_rule_set_is_still_refused(compared, capsys):
    capsys.readouterr()
    code = exit_code(["variants", "--out", str(compared), "--resume", "--rules", "take=ends"])
    err = capsys.readouterr().err
    said = "--rules take=ends differs from this run's --rules take=ends,min_count=off"
    assert code == 2 and said in err


TOY = str(Path(__file__).with_name("toy_tunable.py")) + ":Toy"
TUNE = dict(players=4, budget=500, seed=3, popsize=3, candidate_games=24, verify_games=48,
            sigma=0.2, n_jobs=1)  # fmt: skip
TUNED = ("best.txt", "candidates.csv", "search.csv", "verification.csv")


@pytest.mark.slow
def test_a_tuning_resumes_with_its_field_in_another_order(tmp_path, monkeypatch):
    """'--against low,random' continues a tuning begun with 'random,low' (it was refused:
    'against low,random here, random,low in the tuning'), and ends as the uninterrupted
    tuning does: a tournament's results never depend on the order of its strategies."""
    from tuning import checkpoint, tune
    from tuning.evaluate import Field

    whole, out = tmp_path / "whole", tmp_path / "t"
    tune(TOY, ["random", "low"], out=whole, **TUNE)
    score, calls = Field.score, []

    def stopped(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 6:  # in the second generation
            raise KeyboardInterrupt
        return score(self, *args, **kwargs)

    with monkeypatch.context() as m:
        m.setattr(Field, "score", stopped)
        with pytest.raises(KeyboardInterrupt):
            tune(TOY, ["random", "low"], out=out, **TUNE)
    saved = checkpoint.load(out)[0].arguments
    other = checkpoint.mismatch(out, saved, {**saved, "against": ["low"]})  # another field
    assert "against low here, random,low in the tuning" in str(other)
    tune(TOY, ["low", "random"], out=out, resume=True, **TUNE)
    for name in TUNED:
        assert (out / name).read_bytes() == (whole / name).read_bytes(), name


@pytest.mark.parametrize(
    "text", ["[1]", "null", "3", '{"format": 1, "options": {}, "designer": []}']
)
def test_a_variants_state_of_another_shape_is_refused_in_one_line(tmp_path, capsys, text):
    """A variants.json holding JSON but no object (damaged, or another tool's) said
    'AttributeError: 'list' object has no attribute 'get''."""
    (tmp_path / "variants.json").write_text(text)
    code = exit_code(["variants", "--out", str(tmp_path), "--resume"])
    err = capsys.readouterr().err
    assert code == 1 and "Error" not in err, err
    assert err == (f"leaves: error: cannot resume {tmp_path}: {tmp_path / 'variants.json'} is "
                   "not a comparison this version can resume: remove it, then leave out --resume to start one there\n")  # fmt: skip


def _state(**kw):
    from tournaments.run_state import RunState

    return RunState(out=Path("g"), units="games", game_unit="game", planned=6000, played=1000,
                    games=1000, forfeited=0, first=None, gauntlet=True, **kw)  # fmt: skip


@pytest.mark.parametrize(
    ("live", "holder", "then"),
    [
        (True, "pid 42", "it is being played now (pid 42): read it again once it ends"),
        (
            True,
            "",
            "nothing plays it any more (a killed run): continue it with 'leaves gauntlet "
            "--resume --out g'",
        ),  # fmt: skip
        (False, None, "continue it with 'leaves gauntlet --resume --out g'"),
    ],
)
def test_a_gauntlet_with_no_deal_in_common_yet_says_what_its_lock_tells(monkeypatch, live,
                                                                         holder, then):  # fmt: skip
    """'leaves report' of a gauntlet another process plays, before its baseline met one of
    the strategy's deals, said 'continue it with leaves gauntlet --resume --out g' (which the
    lock refuses) where the run's first line says it is being played now."""
    import importlib

    gauntlet = importlib.import_module("reports.gauntlet")  # reports.gauntlet: also a function
    state = _state(live=live, holder=holder)
    monkeypatch.setattr(gauntlet, "run_state", lambda path: state)
    said = gauntlet._unpaired(type("Run", (), {"path": Path("g")})())
    assert said == ("the gauntlet's strategy and baseline have played no deal in common yet: "
                    f"1,000 of 6,000 games (unfinished); {then}")  # fmt: skip
    assert state.lines()[0].endswith(f"every result covers those only; {then}.")


def _foreign(monkeypatch, path: Path) -> None:
    """Lock file ``path`` as another user's: this process may read it, not write it (as
    root, a test cannot be refused for real)."""
    import os

    from tournaments import storage

    theirs = path.stat().st_ino
    real_open = os.open

    def refusing(name, flags, *args):
        if (str(name) == str(path) and flags & os.O_RDWR and path.exists()
                and path.stat().st_ino == theirs):  # fmt: skip
            raise PermissionError(13, "Permission denied", str(name))
        return real_open(name, flags, *args)

    monkeypatch.setattr(storage.os, "open", refusing)


def test_a_lock_file_another_users_killed_run_left_does_not_keep_the_run_from_resuming(
    tmp_path, monkeypatch
):
    """A run killed under another user (its lock file theirs, 0644) could not be resumed by
    anyone else: '[Errno 13] Permission denied: OUT/.run.lock'. Nobody holds that file: it
    is removed and made anew, as this process's."""
    import os

    from tournaments import storage

    lock = tmp_path / storage.LOCK
    lock.write_text("4242 elsewhere\n")
    _foreign(monkeypatch, lock)
    with storage.run_lock(tmp_path) as locked:
        assert locked and lock.read_text().split()[0] == str(os.getpid())
    assert not lock.exists()


def test_another_users_run_still_played_is_refused(tmp_path, monkeypatch):
    """Their lock file, held: the one line that names their process, not a removal."""
    import subprocess
    import sys

    from tournaments import storage

    hold = ("import sys\nfrom tournaments import storage\nwith storage.run_lock(sys.argv[1]):\n"
            "    print('held', flush=True)\n    sys.stdin.read()\n")  # fmt: skip
    root = Path(__file__).resolve().parents[1]
    proc = subprocess.Popen([sys.executable, "-c", hold, str(tmp_path)], cwd=root,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)  # fmt: skip
    try:
        assert proc.stdout.readline() == "held\n"
        _foreign(monkeypatch, tmp_path / storage.LOCK)
        with pytest.raises(storage.RunLocked, match=f"pid {proc.pid}"), storage.run_lock(tmp_path):
            pass
        assert (tmp_path / storage.LOCK).exists()
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)
        proc.stdout.close()
