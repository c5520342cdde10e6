"""A ``record`` path that is a symbolic link: the records go to the link's target and the
link stays a link (they were renamed onto the link, replacing it with a regular file and
leaving its target stale); a loop of links is refused in one line before anything is played."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from tests.helpers import cli, doc_says, usage_error
from tournaments import Tournament

THREE = ["greedy", "low", "high"]


def _games(path: Path) -> int:
    return sum(1 for line in path.read_text().splitlines() if line.strip())


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links here")
def test_records_named_through_a_link_are_written_to_its_target(tmp_path, monkeypatch):
    target, link, out = tmp_path / "kept" / "records.jsonl", tmp_path / "link.jsonl", "run"
    target.parent.mkdir()
    target.write_text("stale\n")
    monkeypatch.chdir(tmp_path)
    os.symlink(Path("kept") / "records.jsonl", link)  # a relative link, as ``ln -s`` makes
    res = Tournament(THREE, 3, 6, seed=1, record=link.name).run(out=out)
    assert link.is_symlink() and os.readlink(link) == str(Path("kept") / "records.jsonl")
    assert _games(target) == 6 and "stale" not in target.read_text()
    assert json.loads(target.read_text().splitlines()[0])  # a record, not the old line
    assert Path(res.manifest["record_file"]) == target.resolve()  # the file the run wrote


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links here")
def test_a_loop_of_links_is_refused_before_anything_is_played(tmp_path):
    a, b = tmp_path / "a.jsonl", tmp_path / "b.jsonl"
    os.symlink(b, a)
    os.symlink(a, b)
    with pytest.raises(ValueError) as caught:
        Tournament(THREE, 3, 6, seed=1, record=a)
    assert str(caught.value) == (f"record {a} is a symbolic link that leads back to itself: "
                                 "name a file")  # fmt: skip
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.jsonl", "b.jsonl"]
    assert a.is_symlink() and b.is_symlink()


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links here")
def test_the_command_line_follows_a_link_and_refuses_a_loop_as_the_page_says(
    tmp_path, capsys, monkeypatch
):
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # the CLI sets it
    said = doc_says("cli.md", r"a loop of links is refused in one line, `(--record FILE [^`]*)`")[1]
    a, b, target = tmp_path / "a.jsonl", tmp_path / "b.jsonl", tmp_path / "t.jsonl"
    os.symlink(b, a)
    os.symlink(a, b)
    run = ("tournament", *THREE, "--players", "3", "--games", "6", "--seed", "1", "--jobs", "1")
    refused = usage_error(capsys, [*run, "--record", str(a), "--out", str(tmp_path / "r1")])
    assert refused == f"leaves: error: {said.replace('FILE', str(a))}"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.jsonl", "b.jsonl"]
    os.symlink(target, tmp_path / "link.jsonl")
    code, _, err = cli(capsys, *run, "--record", str(tmp_path / "link.jsonl"), "--out",
                       str(tmp_path / "r2"))  # fmt: skip
    assert code == 0, err
    assert (tmp_path / "link.jsonl").is_symlink() and _games(target) == 6
