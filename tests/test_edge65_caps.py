"""A precision run's --max-games held against what the run holds: a resume plays every deal
the run already has whatever the cap, so a cap below them is refused before anything is
played, in one line naming the games it holds, the caps that resume it and those that leave
room to play on; a cap that reaches them resumes it (nothing more when no further deal fits,
said so); the command that began or grew a run resumes it. A gauntlet keeps its own cap."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.helpers import cli, cli_output, one_error_line

STRATEGIES = ("random", "greedy", "low")
BEGIN = ("tournament", *STRATEGIES, "--players", "3", "--seed", "1", "--jobs", "1")
"""A small precision tournament: 6 games a deal (one table of 3, 6 seatings)."""


def _spec(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text())["spec"]


def _sessions(out: Path) -> int:
    return len(json.loads((out / "manifest.json").read_text())["sessions"])


@pytest.fixture(autouse=True)
def _env(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # the CLI sets it


@pytest.fixture(scope="module")
def grown(tmp_path_factory) -> Path:
    """A run that asked 30 games and grew, stage by stage to its cap, to 120 (20 deals)."""
    out = tmp_path_factory.mktemp("grown") / "run"
    code, _, err = cli_output(*BEGIN, "--games", "30", "--precision", "0.1", "--max-games",
                              "120", "--out", str(out))  # fmt: skip
    assert code == 0, err
    assert (_spec(out)["games_asked"], _spec(out)["n_games"]) == (30, 120)
    return out


@pytest.fixture
def run(grown, tmp_path) -> Path:
    """A copy of the grown run, to resume."""
    return Path(shutil.copytree(grown, tmp_path / "run"))


HELD = "the resumed run's 120 games (6 games a deal): 115 or more resumes it, 126 or more "
HELD += "leaves room to play on"


@pytest.mark.parametrize("cap", ["20", "100", "114"])
def test_a_resumes_cap_below_the_games_the_run_holds_is_refused_in_those_terms(run, capsys,
                                                                               cap):  # fmt: skip
    sessions = _sessions(run)
    code, out, err = cli(capsys, "tournament", "--out", str(run), "--resume", "--precision",
                         "0.1", "--max-games", cap, "--jobs", "1")  # fmt: skip
    assert code == 2 and not out
    assert one_error_line(err) == f"leaves: error: --max-games ({cap}) is below {HELD}"
    assert _sessions(run) == sessions and _spec(run)["n_games"] == 120


@pytest.mark.parametrize("cap", ["115", "120", "125"])
def test_a_resumes_cap_that_reaches_what_the_run_holds_plays_nothing_and_says_why(run, capsys,
                                                                                  cap):  # fmt: skip
    code, out, err = cli(capsys, "tournament", "--out", str(run), "--resume", "--precision",
                         "0.1", "--max-games", cap, "--jobs", "1")  # fmt: skip
    assert code == 0, err
    assert _spec(run)["n_games"] == 120
    assert f"Nothing to do: {run} already holds all 120 games of this run" in out
    assert "0 of 120 games in" in out
    assert "precision +-0.1 percentage points NOT reached (cap on games): 120 games," in out


def test_a_resumes_cap_one_deal_above_what_the_run_holds_plays_that_deal(run, capsys):
    code, out, err = cli(capsys, "tournament", "--out", str(run), "--resume", "--precision",
                         "0.1", "--max-games", "126", "--jobs", "1")  # fmt: skip
    assert code == 0, err
    assert _spec(run)["n_games"] == 126 and "6 of 126 games in" in out
    assert "stage 4: 126 games" in err


def test_a_cap_from_a_config_file_is_held_against_what_the_run_holds(run, capsys, tmp_path):
    below, reaches = tmp_path / "below.toml", tmp_path / "reaches.toml"
    below.write_text("precision = 0.1\nmax_games = 100\n")
    reaches.write_text("precision = 0.1\nmax_games = 120\n")
    code, out, err = cli(capsys, "tournament", "--config", str(below), "--out", str(run),
                         "--resume", "--jobs", "1")  # fmt: skip
    assert code == 2 and not out
    assert one_error_line(err) == f"leaves: error: {below}: max_games (100) is below {HELD}"
    code, out, err = cli(capsys, "tournament", "--config", str(reaches), "--out", str(run),
                         "--resume", "--jobs", "1")  # fmt: skip
    assert code == 0, err
    assert "NOT reached (cap on games): 120 games," in out and _spec(run)["n_games"] == 120


def test_a_matches_run_counts_its_cap_in_matches(tmp_path, capsys):
    out = tmp_path / "expert"
    code, _, err = cli(capsys, *BEGIN, "--expert", "--games", "30", "--precision", "5",
                       "--max-games", "60", "--out", str(out))  # fmt: skip
    assert code == 0, err
    assert _spec(out)["n_games"] == 60
    code, _, err = cli(capsys, "tournament", "--out", str(out), "--resume", "--precision", "5",
                       "--max-games", "40", "--jobs", "1")  # fmt: skip
    assert code == 2
    assert one_error_line(err) == (
        "leaves: error: --max-games (40) is below the resumed run's 60 matches (6 matches a "
        "deal): 55 or more resumes it, 66 or more leaves room to play on"
    )


def test_the_command_that_began_or_grew_a_run_resumes_it(tmp_path, capsys):
    out = tmp_path / "run"
    begin = (*BEGIN, "--games", "31", "--precision", "0.1", "--max-games", "31", "--out",
             str(out))  # fmt: skip
    code, _, err = cli(capsys, *begin)  # 31 games rounded up: 36, above the cap
    assert code == 0 and _spec(out)["n_games"] == 36, err
    code, _, err = cli(capsys, *begin, "--resume")
    assert code == 0, err
    grow = ("tournament", "--out", str(out), "--resume", "--precision", "0.1", "--games", "200",
            "--max-games", "200", "--jobs", "1")  # fmt: skip
    for _ in range(2):  # grown to 204 (whole deals), then resumed by the same command
        code, _, err = cli(capsys, *grow)
        assert code == 0 and _spec(out)["n_games"] == 204, err
    code, _, err = cli(capsys, *grow[:-4], "--max-games", "198", "--jobs", "1")
    assert code == 2
    assert one_error_line(err) == (
        "leaves: error: --max-games (198) is below the resumed run's 204 games (6 games a "
        "deal): 199 or more resumes it, 210 or more leaves room to play on"
    )


def test_a_resumes_games_above_its_cap_is_still_refused_before_playing(run, capsys):
    sessions = _sessions(run)
    code, out, err = cli(capsys, "tournament", "--out", str(run), "--resume", "--precision",
                         "0.1", "--games", "300", "--max-games", "200")  # fmt: skip
    assert code == 2 and not out
    assert one_error_line(err) == "leaves: error: --max-games (200) must be at least --games (300)"
    assert _sessions(run) == sessions and _spec(run)["n_games"] == 120


@pytest.mark.parametrize(
    ("cap", "said"),
    [("59", "--max-games (59) must be at least --games (60)"), ("60", None)],
)  # fmt: skip
def test_a_new_runs_cap_is_held_against_its_first_stage(tmp_path, capsys, cap, said):
    out = tmp_path / "new"
    code, stdout, err = cli(capsys, *BEGIN, "--games", "60", "--precision", "0.1",
                            "--max-games", cap, "--out", str(out))  # fmt: skip
    if said is not None:
        assert code == 2 and not out.exists()
        assert one_error_line(err) == f"leaves: error: {said}"
        return
    assert code == 0, err
    assert "NOT reached (cap on games): 60 games," in stdout


@pytest.mark.parametrize("cap", ["20", "400"])
def test_a_sequential_gauntlet_resumes_with_its_own_cap_only(tmp_path, capsys, cap):
    out = tmp_path / "seq"
    code, _, err = cli(capsys, "gauntlet", "counter", "--against", "taker", "--baseline",
                       "greedy", "--games", "40", "--jobs", "1", "--sequential",
                       "--max-games", "40", "--out", str(out))  # fmt: skip
    assert code == 0, err
    code, _, err = cli(capsys, "gauntlet", "--resume", "--out", str(out), "--max-games", cap)
    assert code == 2
    assert one_error_line(err) == (
        f"leaves: error: cannot resume {out}: --max-games {cap} differs from this run's max games "
        "40: resume with --max-games 40, or drop --max-games"
    )
    code, stdout, err = cli(capsys, "gauntlet", "--resume", "--out", str(out), "--max-games",
                            "40", "--jobs", "1")  # fmt: skip
    assert code == 0 and "reached --max-games" in stdout, err
