"""Resuming an interrupted tuning: every finished generation (and finalist) is saved in the
output folder, and ``--resume`` continues from there to the very result an uninterrupted
tuning with the same arguments gives; other arguments, a folder with nothing to resume, a
finished tuning and a damaged state file are each refused in one line."""

from __future__ import annotations

import json
import pickle
import shlex
from pathlib import Path

import numpy as np
import pytest

from tests.helpers import cli
from tuning import checkpoint as ck
from tuning import tune
from tuning.evaluate import Field

TOY = str(Path(__file__).with_name("toy_tunable.py")) + ":Toy"
ARGS = dict(players=4, budget=500, seed=3, popsize=3, candidate_games=24, verify_games=48,
            sigma=0.2)  # fmt: skip
"""Three generations of three candidates (and the start: four evaluations a generation),
then five finalists."""
FLAGS = ["--budget", "500", "--seed", "3", "--popsize", "3", "--candidate-games", "24",
         "--verify-games", "48", "--sigma", "0.2", "--jobs", "1"]  # fmt: skip
FILES = ("best.txt", "candidates.csv", "search.csv", "verification.csv")


def _tune(out, **kw):
    return tune(TOY, ["random"], n_jobs=1, out=out, **{**ARGS, **kw})


def _json(out: Path) -> dict:
    doc = json.loads((out / "tune.json").read_text())
    doc.pop("created")
    doc["settings"].pop("wall_s")
    return doc


def _same_result(a: Path, b: Path) -> None:
    for name in FILES:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name
    assert _json(a) == _json(b)
    assert not (b / ck.STATE).exists() and not (b / ck.PREVIOUS).exists()


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """The uninterrupted tuning (leaves numpy's global random state as it found it)."""
    np.random.seed(11)
    before = np.random.get_state()[1].copy()
    out = tmp_path_factory.mktemp("whole") / "t"
    _tune(out)
    assert (np.random.get_state()[1] == before).all()  # the optimiser never draws from it
    return out


def _interrupt_after(monkeypatch, calls: int, method: str = "score") -> None:
    """Raise KeyboardInterrupt at the ``calls``-th evaluation (``score``: a candidate's or a
    finalist's; ``play``: a verification arm's)."""
    original = getattr(Field, method)
    count = [0]

    def hooked(self, *args, **kwargs):
        count[0] += 1
        if count[0] == calls:
            raise KeyboardInterrupt
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Field, method, hooked)


@pytest.mark.parametrize(
    ("calls", "method", "saved"),
    [
        (2, "score", "0 of 3 generations"),  # in the first generation
        (6, "score", "1 of 3 generations"),
        (4 * 3 + 3, "score", "3 of 3 generations and 2 finalists"),  # in the selection
        (2, "play", "3 of 3 generations and 5 finalists"),  # in the verification's start arm
    ],
)
def test_a_resumed_tuning_ends_as_an_uninterrupted_one(whole, tmp_path, monkeypatch, calls,
                                                       method, saved):  # fmt: skip
    out = tmp_path / "t"
    with monkeypatch.context() as m:
        _interrupt_after(m, calls, method)
        with pytest.raises(KeyboardInterrupt):
            _tune(out)
    assert not (out / "tune.json").exists()
    assert ck.load(out)[0].words().startswith(saved)
    np.random.seed(99)  # another global state: the continuation must not depend on it
    lines: list[str] = []
    _tune(out, seed=None, resume=True, log=lines.append)  # the seed: the saved one
    assert len(lines) == 1 and lines[0].startswith(f"resuming {out}: {saved}")
    _same_result(whole, out)


def test_the_optimiser_pickles_with_its_draws(tmp_path):
    """The saved optimiser carries its own generator: a copy asks what the original asks."""
    import strategies
    from tuning.space import Space
    from tuning.tune import _optimizer

    es = _optimizer(Space(strategies.tunables("taker")), 4, 5, 0.1)
    es.tell(es.ask(), [0.0, 1.0, 2.0, 3.0])
    copy = pickle.loads(pickle.dumps(es))
    np.random.seed(1)
    a = es.ask()
    np.random.seed(2)
    assert np.array_equal(np.asarray(a), np.asarray(copy.ask()))


# ---------------------------------------------------------------- command line


def _cli(capsys, args):
    """``tests.helpers.cli`` with the arguments as one list."""
    return cli(capsys, *args)


def _interrupted_cli(capsys, monkeypatch, out, calls=6, extra=()):
    """``leaves tune`` stopped at the ``calls``-th evaluation: (exit status, stderr)."""
    with monkeypatch.context() as m:
        _interrupt_after(m, calls)
        code, _, err = _cli(capsys, ["tune", TOY, "--against", "random", *FLAGS, "--out",
                                     str(out), *extra])  # fmt: skip
    return code, err


def test_the_interruption_names_the_command_that_resumes_it(whole, capsys, monkeypatch,
                                                            tmp_path):  # fmt: skip
    out = tmp_path / "t"
    code, err = _interrupted_cli(capsys, monkeypatch, out)
    assert code == 130 and err.endswith("leaves: error: interrupted\n")
    said = err.splitlines()[0]
    assert said.startswith(f"interrupted: 1 of 3 generations saved in {out}; continue with: ")
    command = shlex.split(said.split("continue with: ")[1])
    assert command[:2] == ["leaves", "tune"] and command[-1] == "--resume"
    code, stdout, err = _cli(capsys, command[1:])
    assert code == 0, err
    assert err.splitlines()[0] == f"resuming {out}: 1 of 3 generations saved"
    assert _json(out)["settings"]["seed"] == 3 and "results in" in stdout
    # the command line's game (today's rules) differs from the library's default (None)
    for name in FILES:
        assert (out / name).read_bytes() == (whole / name).read_bytes(), name


def test_a_fresh_seed_is_resumed_without_naming_it(capsys, monkeypatch, tmp_path):
    """No --seed: the resume command names none, and the tuning's saved seed is used."""
    out = tmp_path / "t"
    flags = FLAGS[:2] + FLAGS[4:]  # no --seed
    with monkeypatch.context() as m:
        _interrupt_after(m, 6)
        code, _, err = _cli(capsys, ["tune", TOY, "--against", "random", *flags, "--out",
                                     str(out)])  # fmt: skip
    command = shlex.split(err.splitlines()[0].split("continue with: ")[1])
    assert code == 130 and "--seed" not in command
    seed = ck.load(out)[0].arguments["seed"]
    code, _, err = _cli(capsys, command[1:])
    assert code == 0, err
    assert _json(out)["settings"]["seed"] == seed


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        (["--budget", "600"], "--budget 600 here, 500 in the tuning"),
        (["--seed", "4"], "--seed 4 here, 3 in the tuning"),
        (["--sigma", "0.3"], "--sigma 0.3 here, 0.2 in the tuning"),
        (["--popsize", "4"], "--popsize 4 here, 3 in the tuning"),
        (["--against", "low"], "--against low here, random in the tuning"),
        (["--players", "3"], "--players 3 here, 4 in the tuning"),
        (["--rules", "take=ends"], "the game leaves (rules take=ends) here, leaves (rules "),
    ],
)
def test_resuming_with_other_arguments_is_refused_in_one_line(capsys, monkeypatch, tmp_path,
                                                              extra, named):  # fmt: skip
    out = tmp_path / "t"
    _interrupted_cli(capsys, monkeypatch, out)
    flags = list(FLAGS)
    for flag, value in zip(extra[::2], extra[1::2], strict=True):
        if flag in flags:
            flags[flags.index(flag) + 1] = value
            continue
        flags += [flag, value]
    against = "random"
    if "--against" in flags:
        i = flags.index("--against")
        against = flags[i + 1]
        del flags[i : i + 2]
    code, _, err = _cli(capsys, ["tune", TOY, "--against", against, *flags, "--out", str(out),
                                 "--resume"])  # fmt: skip
    assert code == 2 and err.count("\n") == 1, err
    assert err.startswith(f"leaves: error: cannot resume {out}: ") and named in err


def test_another_strategy_is_refused_in_one_line(capsys, monkeypatch, tmp_path):
    out = tmp_path / "t"
    _interrupted_cli(capsys, monkeypatch, out)
    code, _, err = _cli(capsys, ["tune", "taker", "--against", "random", *FLAGS, "--out",
                                 str(out), "--resume"])  # fmt: skip
    assert code == 2 and err.count("\n") == 1
    assert f"the strategy taker here, {TOY} in the tuning" in err


def test_resume_where_nothing_was_saved_says_so(capsys, tmp_path):
    for out in (tmp_path / "new", tmp_path):
        code, _, err = _cli(capsys, ["tune", TOY, "--against", "random", *FLAGS, "--out",
                                     str(out), "--resume"])  # fmt: skip
        assert code == 2 and err.count("\n") == 1
        assert err == (f"leaves: error: cannot resume {out}: it holds no saved tuning (no "
                       f"{ck.STATE}); leave out --resume to start one\n")  # fmt: skip


def test_resume_of_a_finished_tuning_says_where_its_result_is(whole, capsys):
    code, _, err = _cli(capsys, ["tune", TOY, "--against", "random", *FLAGS, "--out",
                                 str(whole), "--resume"])  # fmt: skip
    assert code == 2 and err.count("\n") == 1
    assert err == (
        f"leaves: error: {whole} holds a finished tuning, nothing to resume: its "
        f"result is in {whole / 'tune.json'} (best spec in {whole / 'best.txt'})\n"
    )


def test_an_unfinished_tuning_is_not_started_over(capsys, monkeypatch, tmp_path):
    """Without --resume, a folder holding an unfinished tuning is refused, naming --resume."""
    out = tmp_path / "t"
    _interrupted_cli(capsys, monkeypatch, out)
    code, _, err = _cli(capsys, ["tune", TOY, "--against", "random", *FLAGS, "--out", str(out)])
    assert code == 2
    assert err == (f"leaves: error: {out} holds an unfinished tuning: pass --resume to "
                   "continue it, or pick a new --out\n")  # fmt: skip


def test_a_damaged_state_falls_back_to_the_generation_before(whole, tmp_path, monkeypatch):
    out = tmp_path / "t"
    with monkeypatch.context() as m:
        _interrupt_after(m, 10)  # two generations saved: the latest and the one before
        with pytest.raises(KeyboardInterrupt):
            _tune(out)
    state = out / ck.STATE
    state.write_bytes(state.read_bytes()[:-7])  # a torn write
    lines: list[str] = []
    _tune(out, resume=True, log=lines.append)
    assert lines == [
        f"resuming {out}: 1 of 3 generations saved ({state} is damaged: its "
        "contents do not match their digest: resumed from the one before)"
    ]
    _same_result(whole, out)


def test_damaged_state_files_are_refused_in_one_line(capsys, monkeypatch, tmp_path):
    out = tmp_path / "t"
    _interrupted_cli(capsys, monkeypatch, out, calls=10)
    for name in (ck.STATE, ck.PREVIOUS):
        path = out / name
        path.write_bytes(path.read_bytes()[:100])
    code, _, err = _cli(capsys, ["tune", TOY, "--against", "random", *FLAGS, "--out", str(out),
                                 "--resume"])  # fmt: skip
    assert code == 1 and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"leaves: error: cannot resume {out}: {out / ck.STATE} is damaged")
    assert f"{out / ck.PREVIOUS} is damaged" in err and err.endswith("in a new folder\n")


def test_only_the_previous_state_left_is_resumed(whole, tmp_path, monkeypatch):
    """A crash between the two renames of a save leaves only the previous file: it is read."""
    out = tmp_path / "t"
    with monkeypatch.context() as m:
        _interrupt_after(m, 10)
        with pytest.raises(KeyboardInterrupt):
            _tune(out)
    (out / ck.STATE).unlink()
    lines: list[str] = []
    _tune(out, resume=True, log=lines.append)
    assert lines == [f"resuming {out}: 1 of 3 generations saved"]
    _same_result(whole, out)


@pytest.mark.slow
def test_sigterm_stops_a_tuning_as_ctrl_c_does(tmp_path):
    """SIGTERM (``kill``, ``timeout``, a batch system) saves what finished and says how to go
    on, as Ctrl-C does: exit 130, the command that resumes it."""
    import signal
    import subprocess
    import sys
    import time

    out = tmp_path / "t"
    args = ["tune", TOY, "--against", "random", "--budget", "40000", "--seed", "3", "--popsize",
            "3", "--candidate-games", "24", "--jobs", "1", "--out", str(out)]  # fmt: skip
    proc = subprocess.Popen([sys.executable, "-m", "leaves_cli", *args], stderr=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, text=True)  # fmt: skip
    deadline = time.monotonic() + 60
    while not (out / ck.PREVIOUS).exists() and time.monotonic() < deadline:  # a generation done
        time.sleep(0.05)
    proc.send_signal(signal.SIGTERM)
    err = proc.communicate(timeout=60)[1]
    assert proc.returncode == 130, err
    said, last = err.splitlines()[0], err.splitlines()[-1]
    assert last == "leaves: error: interrupted" and "Traceback" not in err, err
    state = ck.load(out)[0]
    assert state.generation >= 1
    head = f"interrupted: {state.generation} of {state.generations} generations saved in {out}"
    assert said.startswith(f"{head}; continue with: leaves tune {shlex.quote(TOY)} "), err
    command = shlex.split(said.split("continue with: ")[1])
    pairs = dict(zip(command[3:-1:2], command[4:-1:2], strict=True))  # the options, as given
    assert command[-1] == "--resume" and pairs == dict(zip(args[2::2], args[3::2], strict=True))


def test_the_docs_interruption_line_is_the_one_said(capsys, monkeypatch, tmp_path):
    """docs/tuning.md's example: the default budget splits into 24 generations for that
    command, and one stopped after four says the line the page shows."""
    import tuning
    from tuning.plan import checked

    field = ["taker", "counter", "high", "low"]
    plan = checked("weighted", field, 4, 200_000, 1, 1, tmp_path / "p", popsize=None,
                   candidate_games=None, verify_games=None, sigma=0.05)  # fmt: skip
    assert plan.generations == 24
    monkeypatch.chdir(tmp_path)

    def stopped(*args, **kwargs):  # a tuning stopped in its fifth generation
        Path("tune-w").mkdir()
        ck.save(Path("tune-w"), ck.State({}, None, 24, generation=4))
        raise KeyboardInterrupt

    monkeypatch.setattr(tuning, "tune", stopped)
    command = ["tune", "weighted", "--against", ",".join(field), "--seed", "1", "--out", "tune-w"]
    code, _, err = _cli(capsys, command)
    page = (Path(__file__).parents[1] / "docs" / "tuning.md").read_text(encoding="utf-8")
    assert code == 130 and f"\n  {err.splitlines()[0]}\n" in page
    assert "`resuming tune-w: 4 of 24 generations saved`" in page.replace("\n  ", " ")
    assert ck.load("tune-w")[1] == "resuming tune-w: 4 of 24 generations saved"


def test_a_resume_may_use_other_jobs(whole, tmp_path, monkeypatch):
    """Results never depend on --jobs: a tuning resumed with two workers ends as one."""
    out = tmp_path / "t"
    with monkeypatch.context() as m:
        _interrupt_after(m, 6)
        with pytest.raises(KeyboardInterrupt):
            _tune(out)
    tune(TOY, ["random"], n_jobs=2, out=out, resume=True, **ARGS)
    doc = _json(out)
    assert doc["settings"].pop("jobs") == 2
    expected = _json(whole)
    expected["settings"].pop("jobs")
    assert doc == expected
    for name in FILES:
        assert (out / name).read_bytes() == (whole / name).read_bytes(), name


def test_the_library_names_its_own_parameters(tmp_path, monkeypatch):
    """From Python the same refusals name the parameters as ``tune`` spells them."""
    with pytest.raises(ValueError, match=r"^resume needs out: the folder of the tuning"):
        _tune(None, resume=True)
    out = tmp_path / "t"
    with monkeypatch.context() as m:
        _interrupt_after(m, 6)
        with pytest.raises(KeyboardInterrupt):
            _tune(out)
    with pytest.raises(ValueError) as info:
        _tune(out, resume=True, budget=900, candidate_games=48)
    assert str(info.value) == (
        f"cannot resume {out}: budget 900 here, 500 in the tuning; the games per candidate "
        "(candidate_games) 48 here, 24 in the tuning (resume with its own settings, or pick a "
        "new out)"
    )


def test_a_signal_during_a_save_waits_for_it(tmp_path, monkeypatch):
    """Ctrl-C arriving while a generation is being saved acts once the save is whole: the
    generation just finished is kept, and the one before stays as the fallback."""
    import os
    import signal

    out = tmp_path
    ck.save(out, ck.State({}, None, 3, generation=1))
    write = ck.atomic_write_bytes

    def interrupted_write(path, data):
        os.kill(os.getpid(), signal.SIGINT)  # during the save: held until it ends
        write(path, data)

    monkeypatch.setattr(ck, "atomic_write_bytes", interrupted_write)
    # Python's own Ctrl-C handler, as a terminal's process has (a job started in the
    # background by a shell, as `cmd &`, inherits SIGINT ignored: the save then drops it)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        with pytest.raises(KeyboardInterrupt):
            ck.save(out, ck.State({}, None, 3, generation=2))
    finally:
        signal.signal(signal.SIGINT, before)
    assert ck.load(out)[0].generation == 2
    (out / ck.STATE).unlink()
    assert ck.load(out)[0].generation == 1


def test_another_cma_version_is_refused(tmp_path, monkeypatch):
    """The saved optimiser is continued only by the version of cma that saved it."""
    import cma

    out = tmp_path / "t"
    with monkeypatch.context() as m:
        _interrupt_after(m, 6)
        with pytest.raises(KeyboardInterrupt):
            _tune(out)
    monkeypatch.setattr(cma, "__version__", "0.0.1")
    with pytest.raises(ValueError, match=r"the optimiser \(the cma package's version\) 0\.0\.1"):
        _tune(out, resume=True)
