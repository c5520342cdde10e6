"""A run's manifest damaged past what Python reads, or holding values too long for a line:
each command that reads it (``leaves report``, ``verify``, ``tournament --resume``,
``compare``) says one line naming the file and exits non-zero, and every bad value in the
tournaments layer is shown as ``gamekit.errors.shown`` shows it."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import cli, one_error_line
from tournaments import Tournament, storage
from tournaments.declaration import check_kinds
from tournaments.verify import verify_run

MOST = sys.get_int_max_str_digits()
DEEP = 100_000  # lists nested past any recursion limit


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> Path:
    """A complete run of two chunks, to copy and damage."""
    out = tmp_path_factory.mktemp("whole") / "run"
    Tournament(["random", "greedy", "low"], players=3, games=12, seed=1, chunk_size=6).run(out=out)
    return out


@pytest.fixture(autouse=True)
def _env(monkeypatch) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # what the command line sets


def _copy(whole: Path, tmp_path: Path) -> Path:
    run = tmp_path / "run"
    shutil.copytree(whole, run)
    return run


def _edit(run: Path, change: Any) -> None:
    """The run's manifest, as read, changed by ``change`` and written back."""
    path = run / storage.MANIFEST
    manifest = json.loads(path.read_text())
    change(manifest)
    path.write_text(json.dumps(manifest, indent=1))


COMMANDS = {
    "report": lambda run, other: ("report", str(run)),
    "verify": lambda run, other: ("verify", str(run)),
    "resume": lambda run, other: ("tournament", "--resume", "--out", str(run)),
    "compare": lambda run, other: ("compare", str(other), str(run)),
}
"""Each command that reads a run's manifest, with the run (and another run, to compare)."""

PAST = {
    "number": ('"seed": 1' + "0" * (MOST + 700),
               f"cannot be read: it holds a number of more than {MOST:,} digits"),
    "nesting": ('"extra": ' + "[" * DEEP + "]" * DEEP + ', "seed": 1',
                "cannot be read: it holds lists or objects nested too deep to read"),
}  # fmt: skip
"""Valid JSON that Python will not read: what replaces the manifest's seed, and the words."""


@pytest.mark.parametrize("command", COMMANDS)
@pytest.mark.parametrize("past", PAST)
def test_a_manifest_python_will_not_read_is_named_in_one_line(
    whole, tmp_path, capsys, command, past
):
    run = _copy(whole, tmp_path)
    path = run / storage.MANIFEST
    text, said = PAST[past]
    path.write_text(path.read_text().replace('"seed": 1', text, 1))
    code, _, err = cli(capsys, *COMMANDS[command](run, whole))
    line = one_error_line(err)
    assert code == 1 and f"{path} {said}" in line, line
    if command == "resume":  # with verify's advice, as without --resume
        assert line == (
            f"leaves: error: cannot resume {run}: {path} {said}; the run cannot be resumed or "
            "grown without it: restore it, or play the run again into a new --out (the same "
            "options and seed give the same results)"
        )


def test_load_json_says_why_python_will_not_read_it():
    assert storage.load_json('{"a": [1, 2.5, "x", null]}') == {"a": [1, 2.5, "x", None]}
    assert storage.load_json(b"[" + b"1" * MOST + b"]") == [int("1" * MOST)]  # at the limit
    with pytest.raises(storage.JSONPastLimits, match=f"^it holds a number of more than {MOST:,} "):
        storage.load_json("[" + "1" * (MOST + 1) + "]")
    with pytest.raises(storage.JSONPastLimits, match="^it holds lists or objects nested too deep"):
        storage.load_json("[" * DEEP + "]" * DEEP)
    with pytest.raises(json.JSONDecodeError):  # not JSON: Python's words, which say where
        storage.load_json("[1,")
    with pytest.raises(UnicodeDecodeError):
        storage.load_json(b'"\xff\xfe\xfd"')


def test_load_json_says_the_digits_python_reads_as_set():
    try:
        sys.set_int_max_str_digits(1000)
        with pytest.raises(storage.JSONPastLimits, match="more than 1,000 digits$"):
            storage.load_json("1" * 1001)
    finally:
        sys.set_int_max_str_digits(MOST)


@pytest.mark.parametrize("command", ["report", "verify", "compare"])
def test_a_chunk_key_past_the_digits_python_reads_is_no_chunk_number(
    whole, tmp_path, capsys, command
):
    run = _copy(whole, tmp_path)
    _edit(run, lambda m: m["integrity"]["chunks"].update({"1" * (MOST + 1): {}}))
    code, out, err = cli(capsys, *COMMANDS[command](run, whole))
    line = one_error_line(err)
    said = f"chunk '{'1' * 56}... is not a chunk number"  # cut as every bad value is
    assert code == 1 and "drops the bad entry from the manifest" in line, line
    assert f"{run / storage.MANIFEST}" in (out if command == "verify" else line)  # it lists
    assert said in (out if command == "verify" else line)


def test_a_resume_drops_a_chunk_key_past_the_digits_python_reads(whole, tmp_path, capsys):
    run = _copy(whole, tmp_path)
    _edit(run, lambda m: m["integrity"]["chunks"].update({"1" * (MOST + 1): {}}))
    code, _, err = cli(capsys, *COMMANDS["resume"](run, whole))
    assert code == 0, err
    assert verify_run(run).ok


def test_a_chunk_of_thousands_of_digits_is_said_by_their_number(whole, tmp_path, capsys):
    run = _copy(whole, tmp_path)
    _edit(run, lambda m: m["integrity"]["chunks"].update({"1" * 4000: {}}))
    code, out, err = cli(capsys, "verify", str(run))
    said = (f"bad: {run / storage.MANIFEST}: records chunk a whole number of about 4,000 digits, "
            "which the run does not have (its chunks are 0 to 1)")  # fmt: skip
    assert code == 1 and out.splitlines() == [said], out


def test_an_unknown_checksum_is_shown_cut_and_on_one_line(whole, tmp_path):
    run = _copy(whole, tmp_path)
    _edit(run, lambda m: m["integrity"].update(algorithm="md5\x1b[31m" + "x" * 100))
    reasons = {p.reason for p in verify_run(run).problems}
    assert reasons == {"unknown checksum 'md5\\x1b[31m" + "x" * 45 + "..."}, reasons


@pytest.mark.parametrize("n_chunks", [10**5, 10**4000], ids=["100000", "4001-digits"])
def test_more_chunks_than_games_is_one_problem_of_the_manifest(whole, tmp_path, capsys, n_chunks):
    run = _copy(whole, tmp_path)
    _edit(run, lambda m: m["spec"].update(n_chunks=n_chunks))
    result = verify_run(run)  # not each chunk it names, one by one: a count of 4,001 digits
    said = "100000" if n_chunks == 10**5 else "a whole number of about 4,001 digits"
    why = (f"spec.n_chunks is {said}, expected at most spec.n_games, 12 (each chunk plays a "
           "game at least)")  # fmt: skip
    assert [(p.path, p.reason, p.resume) for p in result.problems] == [
        (storage.MANIFEST, why, "drop")
    ]
    code, _, err = cli(capsys, "report", str(run))
    assert code == 1 and why in one_error_line(err)
    code, _, err = cli(capsys, *COMMANDS["resume"](run, whole))  # its schedule's own, written
    assert code == 0 and verify_run(run).ok, err


class _Unwritable:
    def __repr__(self) -> str:
        raise RuntimeError("no repr")


@pytest.mark.parametrize(("key", "value", "said"), [
    ("max_players", "x" * 100, "'" + "x" * 56 + "..."),  # the line's 60 characters
    ("max_players", "a\nb\x1b[31m", "'a\\nb\\x1b[31m'"),
    ("unit", 10**5000, "a whole number of about 5,001 digits"),
    ("unit", _Unwritable(), "a _Unwritable that Python cannot write out"),
], ids=["long", "control", "huge", "unwritable"])  # fmt: skip
def test_a_declared_field_of_another_kind_is_shown_as_every_bad_value(key, value, said):
    with pytest.raises(ValueError) as exc:
        check_kinds({key: value})
    expected = "a whole number" if key == "max_players" else "text"
    assert str(exc.value) == f"the game declaration's {key} is {said}, expected {expected}"


def test_more_chunks_than_the_schedule_lays_out_is_one_problem_of_the_manifest(
    whole, tmp_path, capsys
):
    """Was: ``n_chunks`` and ``n_games`` both edited large had verify walk every chunk named
    (a million chunks checked one by one); the schedule's layout bounds it."""
    run = _copy(whole, tmp_path)
    laid_out = json.loads((run / storage.MANIFEST).read_text(encoding="utf-8"))["spec"]["n_chunks"]
    _edit(run, lambda m: m["spec"].update(n_chunks=10**6, n_games=10**7))
    why = f"spec.n_chunks is 1000000, expected at most {laid_out:,} (the chunks its schedule lays out)"
    result = verify_run(run)
    assert [(p.path, p.reason, p.resume) for p in result.problems] == [
        (storage.MANIFEST, why, "drop")
    ]
    code, _, err = cli(capsys, "report", str(run))
    assert code == 1 and why in one_error_line(err)
