"""A tuning begun in one front end resumes in the other: ``tune(...)`` without ``game`` plays
the default game under today's rules, as ``leaves tune`` without ``--rules`` does, so either
continues what the other saved and ends with the result an uninterrupted tuning gives (a
resume refused them as played by other games: "the game leaves (rules today's rules) here,
none given in the tuning")."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import cli
from tests.test_tune_resume import ARGS, FILES, FLAGS, TOY, _interrupt_after
from tuning import checkpoint as ck
from tuning import tune


def _tune(out: Path, **kw):
    return tune(TOY, ["random"], n_jobs=1, out=out, **{**ARGS, **kw})


def _cli_tune(capsys, out: Path, *extra: str) -> tuple[int, str, str]:
    return cli(capsys, "tune", TOY, "--against", "random", *FLAGS, "--out", str(out), *extra)


@pytest.fixture(scope="module")
def whole(tmp_path_factory) -> Path:
    """The uninterrupted tuning, through the Python API."""
    out = tmp_path_factory.mktemp("whole") / "t"
    _tune(out)
    return out


def _same_files(a: Path, b: Path) -> None:
    for name in FILES:
        assert (a / name).read_bytes() == (b / name).read_bytes(), name


def test_an_api_tuning_resumes_on_the_command_line(whole, tmp_path, monkeypatch, capsys):
    out = tmp_path / "t"
    with monkeypatch.context() as m:
        _interrupt_after(m, 6)
        with pytest.raises(KeyboardInterrupt):
            _tune(out)
    assert (out / ck.STATE).exists()
    code, _, err = _cli_tune(capsys, out, "--resume", "--no-progress")
    assert code == 0, err
    _same_files(whole, out)


def test_a_command_line_tuning_resumes_in_the_api(whole, tmp_path, monkeypatch, capsys):
    out = tmp_path / "t"
    with monkeypatch.context() as m:
        _interrupt_after(m, 6)
        code, _, err = _cli_tune(capsys, out, "--no-progress")
    assert code == 130 and (out / ck.STATE).exists(), err
    _tune(out, resume=True)
    _same_files(whole, out)


def test_other_rules_still_refuse_the_resume(tmp_path, monkeypatch, capsys):
    """The default game stands for today's rules only: a tuning under a variant is not it."""
    out = tmp_path / "t"
    with monkeypatch.context() as m:
        _interrupt_after(m, 2)
        with pytest.raises(KeyboardInterrupt):
            _tune(out)
    code, _, err = _cli_tune(capsys, out, "--resume", "--rules", "take=ends", "--no-progress")
    assert code == 2 and "cannot resume" in err and "take=ends" in err, err
    assert len(err.strip().splitlines()) == 1
