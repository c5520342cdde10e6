"""``leaves tune`` at its edges: a resume refused for another argument names the one the user
changed, never a setting worked out from it; the wall time of an interrupted session counts;
option values past what a run may hold name their option; the warnings never contradict the
verdict beside them."""

from __future__ import annotations

import math
import time
from pathlib import Path

import pytest

from tests.helpers import cli
from tuning import checkpoint as ck
from tuning import tune
from tuning.evaluate import Field

TOY = str(Path(__file__).with_name("toy_tunable.py")) + ":Toy"
ARGS = dict(players=4, budget=500, seed=3, popsize=3, candidate_games=24, verify_games=48,
            sigma=0.2)  # fmt: skip
FLAGS = ["--budget", "500", "--seed", "3", "--popsize", "3", "--sigma", "0.2", "--jobs", "1"]
"""No --candidate-games, no --verify-games: both worked out from the budget and the tables."""
SMALL = [*FLAGS, "--candidate-games", "24", "--verify-games", "48"]
"""Three generations, then five finalists: as ``ARGS``."""


def _stop_at(monkeypatch, calls: int, method: str = "score", wait: float = 0.0) -> None:
    """KeyboardInterrupt at the ``calls``-th ``Field.score`` (a candidate's or a finalist's
    games) or ``Field.play`` (a verification arm's), ``wait`` seconds into it."""
    original = getattr(Field, method)
    count = [0]

    def hooked(self, *args, **kwargs):
        count[0] += 1
        if count[0] == calls:
            time.sleep(wait)
            raise KeyboardInterrupt
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Field, method, hooked)


def _interrupted_cli(capsys, monkeypatch, out: Path, flags: list[str]) -> None:
    with monkeypatch.context() as m:
        _stop_at(m, 6)  # in the second generation
        code, _, err = cli(capsys, "tune", TOY, "--against", "random", *flags, "--out", str(out))
    assert code == 130, err


def _with(flags: list[str], flag: str, value: str) -> list[str]:
    out = list(flags)
    if flag in out:
        out[out.index(flag) + 1] = value
        return out
    return [*out, flag, value]


# ---------------------------------------------------------------- a refused resume


@pytest.mark.parametrize(
    ("flag", "value", "named"),
    [
        ("--players", "3", "--players 3 here, 4 in the tuning"),
        ("--budget", "900", "--budget 900 here, 500 in the tuning"),
    ],
)
def test_a_refused_resume_names_what_the_user_changed(capsys, monkeypatch, tmp_path, flag,
                                                      value, named):  # fmt: skip
    """Another --players (or --budget) changes the games per candidate and per verification
    arm worked out from it: the refusal names the option changed, not those never given."""
    out = tmp_path / "t"
    _interrupted_cli(capsys, monkeypatch, out, FLAGS)
    code, _, err = cli(capsys, "tune", TOY, "--against", "random", *_with(FLAGS, flag, value),
                       "--out", str(out), "--resume")  # fmt: skip
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"leaves: error: cannot resume {out}: {named} (resume with"), err
    assert "--candidate-games" not in err and "--verify-games" not in err, err


def test_a_setting_given_to_the_tuning_and_left_out_of_its_resume_is_named(capsys, monkeypatch,
                                                                          tmp_path):  # fmt: skip
    """Given to the tuning, left out of the resume: the games worked out instead differ, and
    the refusal says that the option was not given."""
    out = tmp_path / "t"
    _interrupted_cli(capsys, monkeypatch, out, [*FLAGS, "--candidate-games", "24"])
    code, _, err = cli(capsys, "tune", TOY, "--against", "random", *FLAGS, "--out", str(out),
                       "--resume")  # fmt: skip
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(
        f"leaves: error: cannot resume {out}: the games per candidate (--candidate-games) not "
        "given here (worked out as 4), 24 in the tuning (resume with its own settings"
    ), err


def test_a_resume_giving_the_worked_out_value_continues(capsys, monkeypatch, tmp_path):
    """The games the tuning worked out, given on its resume, are the same games: it goes on
    (27 generations of 4 evaluations at 4 games: the budget's 500 less the selection's)."""
    out = tmp_path / "t"
    _interrupted_cli(capsys, monkeypatch, out, FLAGS)
    saved = ck.load(out)[0].arguments
    flags = [*FLAGS, "--candidate-games", str(saved["candidate_games"]), "--verify-games",
             str(saved["verify_games"])]  # fmt: skip
    with monkeypatch.context() as m:
        _stop_at(m, 1)  # stopped again at once: it was not refused
        code, _, err = cli(capsys, "tune", TOY, "--against", "random", *flags, "--out",
                           str(out), "--resume")  # fmt: skip
    assert code == 130, err
    assert err.splitlines()[0] == f"resuming {out}: 1 of 27 generations saved"


# ---------------------------------------------------------------- the wall time


@pytest.mark.parametrize(("calls", "method"), [(2, "play"), (6, "score")])
def test_the_wall_time_counts_every_session(tmp_path, monkeypatch, calls, method):
    """A session stopped in the verification (or in a generation) spent its time: the saved
    tuning keeps it, and the result's wall time is every session's together."""
    out = tmp_path / "t"
    with monkeypatch.context() as m:
        _stop_at(m, calls, method, wait=1.0)
        began = time.perf_counter()
        with pytest.raises(KeyboardInterrupt):
            tune(TOY, ["random"], n_jobs=1, out=out, **ARGS)
        first = time.perf_counter() - began
    assert first - 0.5 <= ck.load(out)[0].wall_s <= first
    began = time.perf_counter()
    result = tune(TOY, ["random"], n_jobs=1, out=out, resume=True, **ARGS)
    second = time.perf_counter() - began
    assert first - 0.5 <= result.settings["wall_s"] <= first + second


# ---------------------------------------------------------------- option values


@pytest.mark.parametrize("flag", ["--candidate-games", "--verify-games"])
def test_more_games_than_a_run_may_hold_name_their_option(capsys, tmp_path, flag):
    code, _, err = cli(capsys, "tune", TOY, "--against", "random", *FLAGS, flag,
                       "999999999999", "--out", str(tmp_path / "t"))  # fmt: skip
    assert code == 2 and err.count("\n") == 1, err
    assert err == (f"leaves: error: {flag} must be a positive number of games up to "
                   "4,294,967,295, got 999,999,999,999\n")  # fmt: skip
    assert not (tmp_path / "t").exists()


# ---------------------------------------------------------------- the warnings


def _verification(units: int, low: float, high: float, p: float):
    from tuning.verify import Arm, Verification

    def arm(name: str, wins: int) -> Arm:
        return Arm(name, name, 4 * units, wins, wins / (4 * units), 0.5, 0.99)

    return Verification(seed=1, tuned=arm("tuned", 4 * units), start=arm("start", 3 * units),
                        diff=0.25, diff_low=low, diff_high=high, p_value=p, units=units,
                        games_differing=units)  # fmt: skip


@pytest.mark.parametrize(
    ("low", "high", "p"),
    [
        (0.05, 0.45, 0.02),  # an interval above zero over 8 deals
        (math.nan, math.nan, 2 * 0.5**8),  # no spread: the sign test over 8 deals
    ],
)
def test_a_verdict_found_is_not_called_too_small_to_tell_anything(low, high, p):
    """8 deals that show the tuned parameters better: the verdict is "improved" and the
    command says "Better than the start"; no warning beside it may say the verification was
    too small to tell anything."""
    from leaves.commands.tune import verdict
    from tuning.tune import _warnings

    v = _verification(8, low, high, p)
    assert v.verdict == "improved"
    said = _warnings(v, False, ["x"])
    assert not any("too small to tell anything" in w for w in said), said

    class Result:
        verification = v
        spec = "toy"

    assert verdict(Result()).startswith("Better than the start: +25")


def test_a_verification_with_no_verdict_is_still_too_small():
    v = _verification(8, math.nan, math.nan, math.nan)
    from tuning.tune import _warnings

    assert v.verdict == "too few deals to tell"
    assert any(w.startswith("the verification is too small to tell anything (8 deals")
               for w in _warnings(v, False, ["x"]))  # fmt: skip


# ---------------------------------------------------------------- interrupted at the end


def test_an_interruption_once_the_result_is_written_says_it_is_finished(capsys, monkeypatch,
                                                                       tmp_path):  # fmt: skip
    """Stopped after tune.json was written (its state files not yet removed), the tuning is
    finished: the line says where its result is, not that nothing can be resumed."""
    out = tmp_path / "t"

    def stopped(path):
        raise KeyboardInterrupt

    with monkeypatch.context() as m:
        m.setattr(ck, "clear", stopped)
        code, _, err = cli(capsys, "tune", TOY, "--against", "random", *SMALL, "--out", str(out))
    assert code == 130, err
    assert err.splitlines()[0] == (
        f"interrupted once the tuning had finished: its result is in "
        f"{out / 'tune.json'} (best spec in {out / 'best.txt'})"
    )
    code, _, err = cli(capsys, "tune", TOY, "--against", "random", *SMALL, "--out", str(out),
                       "--resume")  # fmt: skip
    assert code == 2 and "holds a finished tuning, nothing to resume" in err


@pytest.mark.slow
def test_a_search_that_tried_nothing_does_not_say_the_parameter_does_nothing(capsys, tmp_path):
    """A first step finer than the values are rounded to leaves every candidate at the
    starting values: the parameter was never tried, so nothing may say it "changes no
    decision" (Toy's x does: 5 plays greedy, 3 plays low); the line says why and what to do."""
    out = tmp_path / "t"
    code, stdout, err = cli(capsys, "tune", TOY, "--against", "random",
                            *_with(SMALL, "--sigma", "1e-12"), "--out", str(out))  # fmt: skip
    assert code == 0, err
    assert stdout.splitlines()[0] == (
        "no candidate had parameters other than the start's: every step the search drew "
        "rounded back to the starting values (a first step, --sigma, of 1e-12 of each "
        "range), so the parameter(s) x were never tried; raise --sigma"
    )
    assert "no decision" not in stdout, stdout
    result = tune(TOY, ["random"], n_jobs=1, out=tmp_path / "lib", **{**ARGS, "sigma": 1e-12})
    assert result.settings["untried"] and result.best_spec == TOY


# ---------------------------------------------------------------- every option first


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--budget", "0"], "--budget must be a positive number of games up to "),
        (["--popsize", "1"], "--popsize must be at least 2, got 1"),
        (["--sigma", "2"], "--sigma must lie in (0, 1]"),
    ],
)
def test_every_option_is_checked_before_the_out_folder(capsys, tmp_path, flags, said):
    """As ``leaves run`` and ``leaves tournament`` do: a bad option is said (exit 2) before
    the --out folder's state, here a path under a file (which alone is refused after)."""
    afile = tmp_path / "afile"
    afile.write_text("")
    args = ["tune", "taker", "--against", "low", "--players", "3", "--out", str(afile / "sub")]
    code, _, err = cli(capsys, *args, *flags)
    assert code == 2 and err.count("\n") == 1 and said in err, err
    code, _, err = cli(capsys, *args)
    assert code != 0 and err.count("\n") == 1 and "not a directory" in err, err


# ---------------------------------------------------------------- stopped late, resumed


FILES = ("best.txt", "candidates.csv", "search.csv", "verification.csv")


def _json(out: Path) -> dict:
    import json

    doc = json.loads((out / "tune.json").read_text())
    doc.pop("created")
    doc["settings"].pop("wall_s")
    return doc


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    out = tmp_path_factory.mktemp("whole") / "t"
    tune(TOY, ["random"], n_jobs=1, out=out, **ARGS)
    return out


@pytest.mark.parametrize("stage", ["tuned arm", "comparison", "result files"])
def test_a_tuning_stopped_after_its_verification_began_ends_as_one_not_stopped(
    whole, tmp_path, monkeypatch, stage
):
    """Stopped in the tuned arm, while the arms are compared or while the result files are
    written: the resume ends with the uninterrupted tuning's files."""
    import sys

    module = sys.modules["tuning.tune"]
    target, name = {"tuned arm": (Field, "play"), "comparison": (module, "compare"),
                    "result files": (module, "write")}[stage]  # fmt: skip

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt

    out = tmp_path / "t"
    with monkeypatch.context() as m:
        m.setattr(target, name, stopped)
        with pytest.raises(KeyboardInterrupt):
            tune(TOY, ["random"], n_jobs=1, out=out, **ARGS)
    assert not (out / "tune.json").exists()
    tune(TOY, ["random"], n_jobs=1, out=out, resume=True, **ARGS)
    for file in FILES:
        assert (out / file).read_bytes() == (whole / file).read_bytes(), file
    assert _json(out) == _json(whole)
