"""``leaves run`` into a run grown by ``--resume --games``: a refusal names only what was
typed (never a count of games no one gave), and the finished run's line gives the games
first asked with the figure its own header gives ("asked 300, grown by 1 more stage")."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.helpers import cli, cli_output

FIELD = ["--players", "3", "--jobs", "1"]
ASKED, FIRST, GROWN = 300, 720, 1440  # 300 games asked: one deal a table, 720 games


@pytest.fixture(scope="module")
def grown_run(tmp_path_factory) -> tuple[Path, str]:
    """A run asked for 300 games (720 played), grown to 1,440 by ``leaves run --resume``,
    and the header the growing printed (``Tournament.rounded_note``)."""
    out = tmp_path_factory.mktemp("grown") / "r"
    code, _, err = cli_output("run", *FIELD, "--games", str(ASKED), "--out", str(out))
    assert code == 0, err
    code, stdout, err = cli_output("run", "--resume", "--out", str(out), "--games", str(GROWN),
                                   "--jobs", "1")  # fmt: skip
    assert code == 0, err
    header = next(line for line in stdout.splitlines() if line.startswith(f"{GROWN:,} games ="))
    return out, header


@pytest.fixture
def run(grown_run, tmp_path, monkeypatch) -> tuple[Path, str]:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")
    shutil.copytree(grown_run[0], "r")
    return Path("r"), grown_run[1]


@pytest.mark.slow
def test_resume_with_another_setting_names_only_what_was_typed(run, capsys):
    for given, said in ((["--seed", "5"], "seed 0 there, 5 here"),
                        (["--players", "5"], "players 3 there, 5 here")):  # fmt: skip
        code, stdout, err = cli(capsys, "run", "--resume", "--out", "r", *given)
        assert (code, stdout) == (2, "")
        flag = given[0]
        assert err == (f"leaves: error: cannot resume r: it holds another run ({said}): "
                       f"drop {flag} to resume it, or choose another --out\n")  # fmt: skip


@pytest.mark.slow
def test_another_setting_without_resume_names_no_games_not_typed(run, capsys):
    code, stdout, err = cli(capsys, "run", *FIELD, "--seed", "5", "--out", "r")
    assert (code, stdout) == (2, "")
    assert err == ("leaves: error: --out r holds another run (seed 0 there, 5 here): choose "
                   "another --out\n")  # fmt: skip
    code, _, err = cli(capsys, "run", *FIELD, "--games", str(4 * FIRST), "--out", "r")
    assert code == 2  # more games typed: named, and the --resume that grows it
    assert f"(games {GROWN:,} there, {4 * FIRST:,} here)" in err, err


@pytest.mark.slow
def test_a_grown_run_is_said_with_the_games_its_header_says_were_asked(run, capsys):
    out, header = run
    note = re.search(r"; (asked .*)\)$", header)[1]
    assert note == f"asked {ASKED}, grown by 1 more stage of deals", header
    page = out / "report" / "report.html"
    for typed in ([], ["--games", str(ASKED)], ["--games", "1"]):  # the same run, finished
        code, stdout, err = cli(capsys, "run", *FIELD, *typed, "--out", str(out))
        assert code == 0 and err == "", err
        assert stdout.splitlines()[0] == (
            f"{out} already holds this run, finished: {GROWN:,} games, {note}, seed 0; its "
            f"report: {page}"
        )
