"""``leaves run --rules X``: the comparison page with today's rules (OUT/variants) and the same
field under today's rules (OUT/default-rules) follow the run when it grows. Grown with
``--resume --games N``, both runs hold N games and the page says so; grown by 'leaves
tournament --resume', the run is unfinished until ``--resume`` grows its field under today's
rules too; a page written before the runs grew (or missing) is written again and said so."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from tests.helpers import cli, cli_output

RULES = ["--rules", "take=ends", "--players", "3", "--jobs", "1"]  # 720 games a deal
N = 720
PAGE = Path("r", "variants", "report.html")


@pytest.fixture(scope="module")
def finished(tmp_path_factory) -> Path:
    """A finished ``leaves run --rules take=ends`` of 720 games (copied by each test)."""
    out = tmp_path_factory.mktemp("grow_rules") / "r"
    code, _, err = cli_output("run", *RULES, "--games", "1", "--out", str(out))
    assert code == 0, err
    return out


@pytest.fixture
def run(finished, tmp_path, monkeypatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "200")
    shutil.copytree(finished, "r")
    return Path("r")


def _page_games(page: Path = PAGE) -> str:
    """The comparison page's own "games" item, read as a person reads it."""
    return page.read_text(encoding="utf-8").split("<dt>games</dt><dd>", 1)[1].split("<", 1)[0]


def _games(run: Path) -> int:
    return len(pd.read_parquet(run / "games", columns=["game"]))


def _stages(run: Path) -> list[int]:
    return json.loads((run / "manifest.json").read_text())["spec"]["deal_stages"]


def _compared_games(run: Path) -> list[int]:
    """The games of each run the comparison's table of runs counts (default rules first)."""
    return pd.read_csv(run / "variants" / "variants_runs.csv")["games"].tolist()


def _follows(run: Path, games: int) -> None:
    """The run, its field under today's rules and the comparison of the two: ``games`` each."""
    assert _games(run) == _games(run / "default-rules") == games
    assert _stages(run) == _stages(run / "default-rules")
    assert _page_games() == f"default {games:,}, take=ends {games:,}"
    assert _compared_games(run) == [games, games]


@pytest.mark.slow
def test_resume_with_more_games_grows_the_comparison_and_its_baseline(run, capsys):
    assert _page_games() == f"default {N:,}, take=ends {N:,}"
    code, stdout, err = cli(capsys, "run", "--resume", "--out", "r", "--games", str(2 * N),
                            "--jobs", "1")  # fmt: skip
    assert code == 0, err
    assert f"rules compared with today's: {PAGE}" in stdout.splitlines()
    _follows(run, 2 * N)


@pytest.mark.slow
def test_a_run_grown_by_tournament_resume_is_unfinished_until_its_baseline_grows(run, capsys):
    code, _, err = cli(capsys, "tournament", "--resume", "--out", "r", "--games", str(2 * N),
                       "--jobs", "1")  # fmt: skip
    assert code == 0, err
    code, stdout, err = cli(capsys, "run", *RULES, "--out", "r")
    assert (code, stdout) == (2, "")
    assert err == (f"leaves: error: --out r holds this run unfinished (the same field under "
                   f"today's rules holds {N:,} games, the run {2 * N:,}): pass --resume to "
                   "continue it, or choose another --out\n")  # fmt: skip
    code, stdout, err = cli(capsys, "run", "--resume", "--out", "r", "--jobs", "1")
    assert code == 0, err
    _follows(run, 2 * N)
    report = (run / "report" / "report.html").read_text(encoding="utf-8")  # nothing played
    assert f"<dt>played</dt><dd>{2 * N:,} games (finished)</dd>" in report  # in r: brought up
    code, stdout, err = cli(capsys, "run", *RULES, "--out", "r")
    assert code == 0, err
    assert stdout.splitlines()[0].startswith("r already holds this run, finished: ")
    assert not any(line.startswith("rules compared") for line in stdout.splitlines())  # current


@pytest.mark.slow
def test_a_comparison_older_than_its_runs_or_missing_is_written_again(run, capsys):
    for folder in (run, run / "default-rules"):
        code, _, err = cli(capsys, "tournament", "--resume", "--out", str(folder), "--games",
                           str(2 * N), "--jobs", "1")  # fmt: skip
        assert code == 0, err
    assert _page_games() == f"default {N:,}, take=ends {N:,}"  # as before the runs grew
    code, stdout, err = cli(capsys, "run", *RULES, "--out", "r")
    assert code == 0, err
    assert stdout.splitlines()[1] == (
        f"rules compared with today's, brought up to date (it described default {N:,}, "
        f"take=ends {N:,}): {PAGE}"
    )
    _follows(run, 2 * N)
    shutil.rmtree(run / "variants")
    code, stdout, err = cli(capsys, "run", *RULES, "--out", "r")
    assert code == 0, err
    assert stdout.splitlines()[1] == f"rules compared with today's, written now: {PAGE}"
    _follows(run, 2 * N)


@pytest.mark.slow
def test_rules_at_a_table_size_todays_rules_do_not_deal_finish_without_a_baseline(
    tmp_path, monkeypatch, capsys
):
    """It said the run was unfinished (its field under today's rules not played yet) each time,
    and --resume, which plays no such field, left it so."""
    monkeypatch.chdir(tmp_path)
    two = ["--rules", "players=2,hand_size=12", "--players", "2", "--jobs", "1", "--out", "two"]
    code, stdout, err = cli(capsys, "run", *two, "--games", "1")
    assert code == 0, err
    assert "no comparison with today's rules: they do not deal 2 hands" in stdout.splitlines()
    code, stdout, err = cli(capsys, "run", *two)
    assert code == 0, err
    assert stdout.splitlines()[0].startswith("two already holds this run, finished: 90 games")
    assert not Path("two", "default-rules").exists()
