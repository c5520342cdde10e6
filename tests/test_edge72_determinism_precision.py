"""A ``--precision`` run stopped by Ctrl-C and resumed with the plain ``--resume`` (which
``leaves tournament --help`` says reads every other option from the manifest) plays as a
plain run: it stops at its first stage's games, where the uninterrupted run grows to its
precision, and forgets the target its manifest kept. The docs say so (a resume typed without
them plays as they say), but the command said nothing: a researcher got another run than
the one begun, silently. It says so now, with the command that continues it as it played."""

from __future__ import annotations

from tests.helpers import exit_code

ARGS = ["tournament", "greedy", "random", "low", "high", "--players", "4", "--games", "96",
        "--seed", "13", "--chunk-size", "24", "--precision", "3", "--max-games", "2000",
        "--jobs", "1", "--no-progress"]  # fmt: skip


def _interrupted(monkeypatch, capsys, out) -> None:
    """The run into ``out`` stopped by Ctrl-C after its first chunk."""
    import tournaments.runner as runner

    real = runner.imap_unordered

    def interrupting(*args, **kwargs):
        yield next(iter(real(*args, **kwargs)))
        raise KeyboardInterrupt

    with monkeypatch.context() as m:
        m.setattr(runner, "imap_unordered", interrupting)
        assert exit_code([*ARGS, "--out", str(out)]) == 130
    assert "--precision 3 --max-games 2000' continues it" in capsys.readouterr().err


def test_a_plain_resume_of_a_precision_run_says_it_drops_the_target(tmp_path, monkeypatch, capsys):
    out = tmp_path / "p"
    _interrupted(monkeypatch, capsys, out)
    assert exit_code(["tournament", "--resume", "--out", str(out), "--no-progress"]) == 0
    said = capsys.readouterr()
    assert "--precision 3" in said.err + said.out
