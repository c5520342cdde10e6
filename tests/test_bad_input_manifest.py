"""A damaged manifest is named in one line (which field, what it holds, what it should), exit 1,
by every command that reads it; ``leaves verify`` advises only what works, and each piece of
advice it gives is followed here to check that it does."""

from __future__ import annotations

import json
import shlex
import shutil

import pytest

from leaves_cli import main

from .helpers import cli, one_error_line

THREE = ["greedy", "low", "high"]


def _run(capsys, *args):
    return cli(capsys, *(str(a) for a in args))


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("manifest") / "run"
    args = ["tournament", *THREE, "--players", "3", "--games", "6", "--seed", "1"]
    try:
        main([*args, "--jobs", "1", "--out", str(out)])
    except SystemExit as exc:
        assert exc.code in (0, None)
    return out


def _copy(run, tmp_path, edit=None):
    """A copy of the run, its manifest's spec changed by ``edit`` (None: unchanged)."""
    copy = tmp_path / "copy"
    shutil.copytree(run, copy)
    if edit is not None:
        manifest = json.loads((copy / "manifest.json").read_text())
        edit(manifest["spec"])
        (copy / "manifest.json").write_text(json.dumps(manifest))
    return copy


# (field, bad value, the words of the line: the runner's value in words)
FIELDS = [
    ("players", "four", "spec.players is 'four', expected a list of player counts (whole numbers)"),
    ("strategies", "greedy", "spec.strategies is 'greedy', expected a list of strategy labels"),
    ("seed", "one", "spec.seed is 'one', expected a whole number of at least 0"),
    ("expert", "yes", "spec.expert is 'yes', expected true or false"),
    ("n_chunks", "2", "spec.n_chunks is '2', expected a whole number of at least 0"),
    ("target", 0, "spec.target is 0, expected a whole number of at least 1, or null"),
]
COMMANDS = {
    "report": lambda d: ["report", d, "--out", d / "report"],
    "verify": lambda d: ["verify", d],
    "resume": lambda d: ["tournament", "--out", d, "--resume", "--jobs", "1"],
    "replay": lambda d: ["replay", d, "--all"],
}


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize("field, value, words", FIELDS, ids=[f[0] for f in FIELDS])
def test_a_bad_field_is_named_with_its_value_and_what_it_should_be(
    run, tmp_path, capsys, command, field, value, words
):
    bad = _copy(run, tmp_path, lambda spec: spec.__setitem__(field, value))
    code, _, err = _run(capsys, *COMMANDS[command](bad))
    line = one_error_line(err)
    assert code == 1, line
    assert words in line and str(bad) in line, line
    assert "--resume" not in line  # no advice: nothing resumes it
    assert not (bad / "report").exists()


def test_a_missing_field_a_resume_needs_is_named(run, tmp_path, capsys):
    bad = _copy(run, tmp_path, lambda spec: spec.pop("players"))
    code, _, err = _run(capsys, *COMMANDS["resume"](bad))
    line = one_error_line(err)
    assert code == 1
    assert "spec.players is missing, expected a list of player counts (whole numbers)" in line


def test_a_truncated_manifest_is_not_advised_a_resume_that_refuses_it(run, tmp_path, capsys):
    bad = _copy(run, tmp_path)
    text = (bad / "manifest.json").read_text()
    (bad / "manifest.json").write_text(text[: len(text) // 3])
    code, out, err = _run(capsys, "verify", bad)
    line = one_error_line(err)
    assert code == 1 and "is not valid JSON" in line
    assert f"bad: {bad / 'manifest.json'}: not valid JSON" in out  # the path said once
    assert out.count(str(bad / "manifest.json")) == 1, out
    assert "the run cannot be resumed or grown without it" in line
    assert "'leaves" not in line  # no command to run
    code, _, err = _run(capsys, *COMMANDS["resume"](bad))  # the claim: a resume refuses it
    line = one_error_line(err)
    assert code == 1 and f"cannot resume {bad}: {bad / 'manifest.json'} is not valid JSON" in line
    code, _, err = _run(capsys, "tournament", *THREE, "--players", "3", "--games", "6",
                        "--out", bad, "--resume", "--jobs", "1", "--add", "6")  # fmt: skip
    assert code == 1 and "is not valid JSON" in one_error_line(err)  # nor grows


def test_a_manifest_of_another_format_cannot_be_resumed_as_verify_says(run, tmp_path, capsys):
    bad = _copy(run, tmp_path)
    manifest = json.loads((bad / "manifest.json").read_text())
    manifest["format"] = "leaves-tournament/0"
    (bad / "manifest.json").write_text(json.dumps(manifest))
    code, _, err = _run(capsys, "verify", bad)
    line = one_error_line(err)
    assert code == 1 and "not a tournament run this version knows" in line
    assert "cannot be resumed" in line
    code, _, err = _run(capsys, *COMMANDS["resume"](bad))
    assert code != 0 and "this version can resume" in one_error_line(err)


def _advised(line: str) -> list[str]:
    """The ``leaves ...`` command a line advises (between single quotes), as arguments."""
    start = line.index("'leaves ") + 1
    return shlex.split(line[start : line.index("'", start)])[1:]


def test_the_resume_verify_advises_replays_a_bad_part(run, tmp_path, capsys):
    bad = _copy(run, tmp_path)
    part = next((bad / "games").glob("*.parquet"))
    part.write_bytes(part.read_bytes()[:-20])
    code, _, err = _run(capsys, "verify", bad)
    line = one_error_line(err)
    assert code == 1 and line.endswith(f"'leaves tournament --out {bad} --resume' replays it")
    assert _run(capsys, *_advised(line), "--jobs", "1")[0] == 0
    code, out, _ = _run(capsys, "verify", bad)
    assert code == 0 and out.startswith("ok: ")


def test_a_file_that_is_not_the_runs_is_to_be_removed_not_resumed(run, tmp_path, capsys):
    bad = _copy(run, tmp_path)
    parts = sorted((bad / "games").glob("*.parquet"))
    stray = bad / "games" / "extra.parquet"
    shutil.copy(parts[0], stray)
    parts[0].write_bytes(parts[0].read_bytes()[:-20])
    code, out, err = _run(capsys, "verify", bad)
    line = one_error_line(err)
    assert code == 1 and line.endswith(f"'leaves tournament --out {bad} --resume' replays it")
    assert out.startswith(f"warning: {stray}: not a part of this run: "), out
    assert _run(capsys, *_advised(line), "--jobs", "1")[0] == 0
    code, out, _ = _run(capsys, "verify", bad)  # the resume left it there: warned of, no fault
    assert code == 0 and f"warning: {stray}: not a part of this run: " in out
    assert _run(capsys, "report", bad, "--out", tmp_path / "r")[0] == 0  # reads recorded parts
    stray.unlink()
    code, out, _ = _run(capsys, "verify", bad)
    assert code == 0 and "warning" not in out


def test_a_file_of_a_chunk_the_run_does_not_have_goes_with_the_advised_resume(
    run, tmp_path, capsys
):
    bad = _copy(run, tmp_path)
    part = next((bad / "games").glob("*.parquet"))
    foreign = bad / "games" / "part-000099.parquet"  # named as a chunk this run does not have
    shutil.copy(part, foreign)
    code, _, err = _run(capsys, "verify", bad)
    line = one_error_line(err)
    assert code == 1 and "remove" not in line
    assert _run(capsys, *_advised(line), "--jobs", "1")[0] == 0
    assert not foreign.exists() and _run(capsys, "verify", bad)[0] == 0


def test_a_gauntlet_is_advised_its_own_command(tmp_path, capsys):
    out = tmp_path / "g"
    args = ["gauntlet", "greedy", "--against", "low,high", "--players", "3", "--games", "12",
            "--seed", "2", "--jobs", "1", "--out", out]  # fmt: skip
    assert _run(capsys, *args)[0] == 0
    part = next((out / "games").glob("*.parquet"))
    part.write_bytes(part.read_bytes()[:-20])
    code, _, err = _run(capsys, "verify", out)
    line = one_error_line(err)
    assert code == 1
    assert line.endswith(f"'leaves gauntlet --out {out} --resume' replays it")  # the folder alone
    code, _, err = _run(capsys, "tournament", "--out", out, "--resume")
    assert code == 2 and "it holds a gauntlet" in one_error_line(err)  # so not 'leaves tournament'
    assert _run(capsys, *args, "--resume")[0] == 0
    assert _run(capsys, "verify", out)[0] == 0
