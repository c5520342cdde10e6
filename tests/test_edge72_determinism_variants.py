"""An interrupted ``leaves variants --format md`` names the resume that writes what the
uninterrupted comparison writes: its report page in Markdown (the advice named the plain
resume, whose page is HTML: report.html where the comparison asked for report.md)."""

from __future__ import annotations

import shlex

from tests.helpers import exit_code

ARGS = ["variants", "low", "greedy", "--rules", "take=ends", "--games", "48", "--seed", "7",
        "--jobs", "1", "--trace-games", "0", "--restricted-games", "0", "--format", "md"]  # fmt: skip


def _interrupted(monkeypatch, capsys, out, args: list[str] = ARGS) -> str:
    """The comparison into ``out`` stopped by Ctrl-C in its first run: its stderr."""
    import tournaments.runner as runner

    def interrupting(*args, **kwargs):
        raise KeyboardInterrupt
        yield  # a generator, as the one it stands for

    with monkeypatch.context() as m:
        m.setattr(runner, "imap_unordered", interrupting)
        assert exit_code([*args, "--out", str(out)]) == 130
    return capsys.readouterr().err


def test_the_advised_resume_writes_the_page_format_asked_for(tmp_path, monkeypatch, capsys):
    out = tmp_path / "v"
    err = _interrupted(monkeypatch, capsys, out)
    said = [line for line in err.splitlines() if line.startswith("interrupted: '")]
    assert len(said) == 1, err
    advised = shlex.split(said[0].split("'")[1])
    assert advised[0] == "leaves" and "--format" in advised, said[0]
    assert exit_code(advised[1:]) == 0
    assert (out / "report.md").is_file() and not (out / "report.html").exists()


def test_an_html_comparison_is_advised_the_plain_resume(tmp_path, monkeypatch, capsys):
    """The default page format needs no flag: the advice stays as short as it was."""
    out = tmp_path / "v"
    err = _interrupted(monkeypatch, capsys, out, ARGS[:-2])
    assert f"interrupted: 'leaves variants --out {out} --resume' continues it" in err
