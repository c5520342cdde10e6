"""Damage to a command's folder, each said with what to do (each failed before its fix).

A sequential gauntlet's manifest without its test's record was verified, and reported as a
gauntlet of fixed size, its decision left out unsaid; a report page cut short after its
overview was named as the finished run's report by ``leaves run``; a directory in place of a
report's file was said as ``[Errno 21] Is a directory``, with nothing to do; and a resume
whose run's ``--record`` file is a directory asked for a ``--record`` never typed."""

from __future__ import annotations

import json
import shutil

import pytest

from tests.helpers import cli, cli_output, one_error_line
from tournaments import storage

SMALL = ["greedy", "low", "high", "--players", "3", "--games", "12", "--seed", "1", "--jobs",
         "1", "--no-progress"]  # fmt: skip


@pytest.fixture(scope="module")
def sequential(tmp_path_factory):
    """A finished sequential gauntlet of several batches."""
    out = tmp_path_factory.mktemp("g") / "seq"
    code, _, err = cli_output("gauntlet", "greedy", "--against", "low,high", "--players", "3",
                              "--sequential", "--games", "36", "--max-games", "360", "--seed",
                              "1", "--jobs", "1", "--no-progress", "--out", str(out))  # fmt: skip
    assert code == 0, err
    assert len(json.loads((out / storage.MANIFEST).read_text())["spec"]["deal_stages"]) > 1
    return out


def test_a_sequential_gauntlet_without_its_tests_record_is_refused(sequential, tmp_path, capsys):
    out = tmp_path / "seq"
    shutil.copytree(sequential, out)
    manifest = json.loads((out / storage.MANIFEST).read_text())
    del manifest["sequential"]
    (out / storage.MANIFEST).write_text(json.dumps(manifest))
    for args in (["verify", str(out)], ["report", str(out), "--out", str(tmp_path / "r")],
                 ["gauntlet", "--resume", "--out", str(out), "--no-progress"]):  # fmt: skip
        code, _, err = cli(capsys, *args)
        line = one_error_line(err)
        assert code == 1 and "sequential is missing" in line and "restore it" in line, line


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    """A finished small tournament with its --record file inside its folder."""
    out = tmp_path_factory.mktemp("t") / "run"
    code, _, err = cli_output("tournament", *SMALL, "--record", str(out / "rec.jsonl"),
                                 "--out", str(out))  # fmt: skip
    assert code == 0, err
    return out


def test_a_report_page_cut_short_is_not_current(small, tmp_path):
    from leaves.commands.run_stored import current
    from tournaments.run_state import run_state

    page = tmp_path / "report.html"  # cut short after its overview
    page.write_text(f"<html><body><dl><dt>played</dt><dd>{run_state(small).extent()}</dd>")
    assert not current(small, page)


@pytest.mark.parametrize("name", ["report.html", "summary.csv"])
def test_a_directory_in_place_of_a_reports_file_says_what_to_do(small, tmp_path, capsys, name):
    report = tmp_path / "report"
    (report / name).mkdir(parents=True)
    code, _, err = cli(capsys, "report", str(small), "--out", str(report))
    line = one_error_line(err)
    assert code == 1 and f"{report / name} is a directory" in line and "remove it" in line


def test_a_directory_in_place_of_the_runs_records_is_said_as_verify_says_it(small, tmp_path,
                                                                            capsys):  # fmt: skip
    out = tmp_path / "run"
    shutil.copytree(small, out)
    (out / "rec.jsonl").unlink()
    (out / "rec.jsonl").mkdir()
    code, _, err = cli(capsys, "tournament", "--out", str(out), "--resume", "--no-progress")
    line = one_error_line(err)
    assert code == 1 and "--record" not in line and "remove it" in line, line


def test_a_directory_in_place_of_the_manifest_is_refused_by_a_resume_with_what_to_do(small,
                                                                                     tmp_path):  # fmt: skip
    from tournaments import Tournament

    out = tmp_path / "run"
    shutil.copytree(small, out)
    (out / storage.MANIFEST).unlink()
    (out / storage.MANIFEST).mkdir()
    with pytest.raises(ValueError) as exc:
        Tournament(["greedy", "low", "high"], players=3, games=12, seed=1).run(out=out,
                                                                              resume=True)  # fmt: skip
    assert str(exc.value).startswith(f"cannot resume {out}: ") and "restore it" in str(exc.value)
