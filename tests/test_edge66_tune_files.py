"""A tuning keeps the SHA-256 of every user's strategy file it plays: a resume refuses one
edited since the tuning started (its saved generations played the old code), in one line
naming the file and both digests, with advice that works; an older saved state without them
resumes and says it cannot check; tune.json records them."""

from __future__ import annotations

import hashlib
import json
import re
import shutil
from pathlib import Path

import pytest

from tests.helpers import cli, loaded_files_forgotten
from tests.test_tune_resume import ARGS, FLAGS
from tuning import checkpoint as ck
from tuning import tune
from tuning.evaluate import Field

TOY = Path(__file__).with_name("toy_tunable.py")


@pytest.fixture
def bot(tmp_path):
    """A copy of the toy strategy's file, to edit (its loaded modules forgotten after)."""
    path = (tmp_path / "bot.py").resolve()
    shutil.copyfile(TOY, path)
    with loaded_files_forgotten():
        yield path


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _stop_after(monkeypatch, calls: int) -> None:
    """KeyboardInterrupt at the ``calls``-th candidate scored."""
    original, count = Field.score, [0]

    def hooked(self, *args, **kwargs):
        count[0] += 1
        if count[0] == calls:
            raise KeyboardInterrupt
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Field, "score", hooked)


def _command(path: Path, out: Path) -> list[str]:
    return ["tune", f"{path}:Toy", "--against", "random", *FLAGS, "--out", str(out)]


def _stopped(capsys, monkeypatch, path: Path, out: Path) -> None:
    """``leaves tune`` of ``path``'s Toy stopped in its second generation."""
    with monkeypatch.context() as m:
        _stop_after(m, 6)
        code, _, err = cli(capsys, *_command(path, out))
    assert code == 130, err


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


@pytest.mark.slow
def test_a_resume_refuses_a_file_edited_since_and_its_advice_works(capsys, monkeypatch,
                                                                   tmp_path, bot):  # fmt: skip
    """Was: the resume played the edited file for the later generations, scored beside the
    earlier ones as one strategy (an edit that leaves the parameters alone went unseen)."""
    out = tmp_path / "t"
    _stopped(capsys, monkeypatch, bot, out)
    original = bot.read_bytes()
    before = _sha(bot)
    _edit(bot, 'return strategies.get("low")', 'return strategies.get("high")')
    now = _sha(bot)
    with monkeypatch.context() as m:
        _stop_after(m, 1)  # refused before a game is played: no candidate is scored
        code, _, err = cli(capsys, *_command(bot, out), "--resume")
    assert code == 1 and err.count("\n") == 1, err  # the command was right: the file changed
    assert err == (
        f"leaves: error: cannot resume {out}: strategy file {bot} changed since the tuning "
        f"started (SHA-256 {before[:12]} when it started, {now[:12]} now): its saved "
        "generations played the old code; put the file back as it was and continue with "
        "--resume, or tune the new version in a new --out\n"
    )
    assert ck.load(out)[0].generation == 1  # nothing was played or saved over
    code, _, err = cli(capsys, *_command(bot, tmp_path / "new"))  # the new version, a new --out
    assert code == 0, err
    assert json.loads((tmp_path / "new" / "tune.json").read_text())["files"] == {str(bot): now}
    bot.write_bytes(original)  # the file put back: the resume plays on
    code, _, err = cli(capsys, *_command(bot, out), "--resume")
    assert code == 0, err
    assert err.splitlines()[0] == f"resuming {out}: 1 of 3 generations saved"
    assert json.loads((out / "tune.json").read_text())["files"] == {str(bot): before}


def test_an_edit_that_moves_the_start_is_named_as_the_files(capsys, monkeypatch, tmp_path, bot):
    """Was: "the starting parameters x=6.0 here, x=5.0 in the tuning" (exit 2), as if the
    command were wrong, not the file edited."""
    out = tmp_path / "t"
    _stopped(capsys, monkeypatch, bot, out)
    _edit(bot, "x: float = 5.0", "x: float = 6.0")
    code, _, err = cli(capsys, *_command(bot, out), "--resume")
    assert code == 1 and err.count("\n") == 1, err
    assert f"cannot resume {out}: strategy file {bot} changed since the tuning started" in err


def test_a_saved_state_records_every_users_file_it_plays(tmp_path, bot):
    """The tuned strategy's file and the opponents'."""
    out, other = tmp_path / "t", (tmp_path / "other.py").resolve()
    other.write_bytes(bot.read_bytes() + b"# the opponent's copy\n")
    with pytest.raises(KeyboardInterrupt), pytest.MonkeyPatch.context() as m:
        _stop_after(m, 2)
        tune(f"{bot}:Toy", ["random", f"{other}:Inert"], n_jobs=1, out=out, **ARGS)
    assert ck.load(out)[0].files == {str(bot): _sha(bot), str(other): _sha(other)}


def test_an_older_state_without_digests_resumes_and_says_it_cannot_check(tmp_path, bot,
                                                                         monkeypatch):  # fmt: skip
    """A state saved before the digests were kept (its pickle holds no ``files``) resumes as
    before, saying once that it cannot check the file."""
    out = tmp_path / "t"
    with pytest.raises(KeyboardInterrupt), monkeypatch.context() as m:
        _stop_after(m, 6)
        tune(f"{bot}:Toy", ["random"], n_jobs=1, out=out, **ARGS)
    state = ck.load(out)[0]
    del state.__dict__["files"]  # as an earlier version pickled it
    ck.save(out, state)
    assert ck.load(out)[0].files is None
    lines: list[str] = []
    res = tune(f"{bot}:Toy", ["random"], n_jobs=1, out=out, resume=True, log=lines.append,
               **ARGS)  # fmt: skip
    assert lines == [
        f"resuming {out}: 1 of 3 generations saved",
        f"cannot check that strategy file {bot} is unchanged since the tuning started: its "
        "saved state, from an earlier version, records no SHA-256 of it",
    ]
    assert res.files == {str(bot): _sha(bot)}


def test_a_tuning_of_built_ins_records_no_file_and_has_nothing_to_check():
    state = ck.State({}, None, 3)
    assert ck.unchecked(state, {}) is None
    assert ck.edited(Path("t"), {}, {}) is None
    assert ck.unchecked(state, {"/a.py": "1", "/b.py": "2"}) == (
        "cannot check that strategy files /a.py, /b.py are unchanged since the tuning started: "
        "its saved state, from an earlier version, records no SHA-256 of them"
    )


def test_tune_json_and_the_verification_record_the_files_played(capsys, tmp_path, bot):
    """tune.json names the file best.txt's spec plays and the digest it was verified with,
    the verification arms' manifests the same."""
    out = tmp_path / "t"
    code, _, err = cli(capsys, *_command(bot, out))
    assert code == 0, err
    sha = _sha(bot)
    assert json.loads((out / "tune.json").read_text())["files"] == {str(bot): sha}
    for arm in ("tuned", "start"):
        manifest = json.loads((out / "verify" / arm / "manifest.json").read_text())
        said = {e.get("file"): e.get("file_sha256") for e in manifest["spec"]["entrants"]}
        assert said[str(bot)] == sha, arm


def test_the_tuning_guide_quotes_the_resumes_refusal():
    """docs/tuning.md quotes the line as the resume writes it (the path and digests elided)."""
    guide = " ".join(Path("docs/tuning.md").read_text(encoding="utf-8").split())
    quoted = re.search(r"\(`(cannot resume tune-mine: strategy file [^`]*)`", guide)[1]
    error = ck.edited(Path("tune-mine"), {"bots/my_bot.py": "a" * 64},
                      {"bots/my_bot.py": "b" * 64})  # fmt: skip
    pattern = re.escape(quoted).replace(re.escape("..."), ".+")
    assert re.match(pattern, str(error)), (quoted, str(error))
