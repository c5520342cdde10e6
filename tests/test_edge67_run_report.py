"""``leaves run`` into a finished run whose report no longer describes it: the run grown by
'leaves tournament --resume' since (its report still of the games before), its report removed,
or a page that does not say how much of the run it describes. The line that names "its report"
must name a page of the run as it is: the report is written again first, and said so."""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd
import pytest

from leaves.commands.run_stored import described
from tests.helpers import cli, cli_output

SMALL = ["--games", "1", "--players", "3", "--jobs", "1"]  # 720 games: 1 deal per table
N = 720


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    """A finished ``leaves run`` of 720 games with its report (copied by each test)."""
    out = tmp_path_factory.mktemp("finished") / "r"
    code, _, err = cli_output("run", *SMALL, "--out", str(out))
    assert code == 0, err
    return out


@pytest.fixture
def run(finished, tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    shutil.copytree(finished, "r")
    return Path("r")


def _played(page: Path) -> str:
    """The page's own "played" line, read as a person reads it (not by ``described``)."""
    text = page.read_text(encoding="utf-8")
    if page.suffix == ".html":
        return text.split("<dt>played</dt><dd>", 1)[1].split("</dd>", 1)[0]
    return text.split("- **played**: ", 1)[1].split("\n", 1)[0]


def _games_in_summary(run: Path) -> int:
    """The games the report's summary counts (every game seats 3 of the field)."""
    return int(pd.read_csv(run / "report" / "summary.csv")["games"].sum()) // 3


@pytest.mark.slow
def test_a_grown_runs_report_is_brought_up_to_date_and_said_so(run, capsys):
    page = run / "report" / "report.html"
    assert _played(page) == f"{N:,} games (finished)"
    code, _, err = cli(capsys, "tournament", "--resume", "--out", str(run), "--games",
                       str(2 * N), "--jobs", "1")  # fmt: skip
    assert code == 0, err
    assert _played(page) == f"{N:,} games (finished)"  # still the run before it grew
    code, stdout, err = cli(capsys, "run", *SMALL, "--out", str(run))
    assert code == 0 and err == "", err
    assert stdout.splitlines()[0] == (
        f"{run} already holds this run, finished: {2 * N:,} games, asked 1, grown by 1 "
        f"more stage of deals, seed 0; its report, brought up to date (it described {N:,} games): {page}"
    )
    assert _played(page) == f"{2 * N:,} games (finished)"
    assert _games_in_summary(run) == 2 * N == len(pd.read_parquet(run / "games"))
    before = page.read_bytes()
    code, stdout, err = cli(capsys, "run", *SMALL, "--out", str(run))  # now it is current
    assert code == 0 and err == "", err
    assert stdout.splitlines()[0].endswith(f"seed 0; its report: {page}")
    assert page.read_bytes() == before  # not written again


@pytest.mark.slow
def test_a_missing_report_is_written_and_one_that_says_nothing_is_written_again(run, capsys):
    shutil.rmtree(run / "report")
    page = run / "report" / "report.md"
    code, stdout, err = cli(capsys, "run", *SMALL, "--out", str(run), "--format", "md")
    assert code == 0 and err == "", err
    assert stdout.splitlines()[0] == (
        f"{run} already holds this run, finished: {N:,} games, seed 0; its report, written "
        f"now: {page}"
    )
    assert _played(page) == f"{N:,} games (finished)"
    code, stdout, err = cli(capsys, "run", *SMALL, "--out", str(run), "--format", "md")
    assert code == 0 and stdout.splitlines()[0].endswith(f"; its report: {page}"), err
    page.write_text("# a page of no run\n", encoding="utf-8")
    code, stdout, err = cli(capsys, "run", *SMALL, "--out", str(run), "--format", "md")
    assert code == 0 and stdout.splitlines()[0].endswith(f"; its report, written again: {page}")
    assert _played(page) == f"{N:,} games (finished)"


@pytest.mark.parametrize(
    "name, text, said",
    [
        ("report.html", "<dl><dt>played</dt><dd>1,440 games (finished)</dd></dl>",
         "1,440 games (finished)"),
        ("report.html", "<dt>played</dt><dd>30 of 720 games &amp; more</dd>",
         "30 of 720 games & more"),
        ("report.md", "## Run\n\n- **played**: 300 of 720 games (unfinished)\n- **games**: 300\n",
         "300 of 720 games (unfinished)"),
        ("report.md", "<dt>played</dt><dd>720 games (finished)</dd>", None),  # not markdown's
        ("report.html", "- **played**: 720 games (finished)\n", None),
        ("report.txt", "- **played**: 720 games (finished)\n", None),
    ],
)  # fmt: skip
def test_described_reads_the_played_line_of_the_pages_own_format(tmp_path, name, text, said):
    page = tmp_path / name
    page.write_text(text, encoding="utf-8")
    assert described(page) == said


def test_described_is_none_without_a_readable_page(tmp_path):
    assert described(tmp_path / "report.html") is None
    (tmp_path / "report.html").write_bytes(b"\xff\xfe<dt>played</dt><dd>1</dd>")
    assert described(tmp_path / "report.html") is None
