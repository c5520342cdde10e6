"""Review of the last stop's changes to the runner and the command line: each defect found is
reproduced here, each fixed.

- The ``--jobs`` line counted a driver that played no part (its workers took every one while
  it readied) among the worker processes: '1 player played (2 of the 2 worker processes
  started found no part left to play)', where one worker process played all three.
- ``--margin`` below the least was refused as 'must be at least 4.66e-08 percentage points',
  the bound rounded up: 4.6567e-08 plays.
- ``leaves strategies --filter KEY=true`` where only a registered class that cannot play has
  KEY said 'none of its 14 strategies has KEY in its classifier'.
- A folder named with ``{out}`` in it was named 'a--outb' by the refusal of a new run on
  another version's run (the folder's name went into the refusal's template).
- A gauntlet's games a side given as a numpy integer were doubled past 2**63 (wrapping round,
  with a RuntimeWarning) and let through, then said 'in all' at the count of one side.
- A session's ``versions`` that is no table was refused as 'sessions is [...], expected a list
  of tables (one per session)': a list of tables.
- ``--players`` typed over a config file's ``players`` that holds the run's own was advised to
  remove it from the file too (only the scalar options learnt it).
- A sequential gauntlet an earlier version began with a margin below today's least cannot be
  resumed, refused as a usage error of a ``--margin`` nobody typed.
- A sequential gauntlet's ``--max-games`` past a run's most was said to count games of a game
  played in rounds.
"""

from __future__ import annotations

import functools
import json
import re
import time
import warnings
from pathlib import Path

import numpy as np
import pytest

from gamekit.errors import ParameterError
from leaves_cli.errors import CLIError
from leaves_cli.tournament_parts import jobs_line
from tests.helpers import (
    cli,
    cli_output,
    copied_run,
    forget_loaded_files,  # noqa: F401 - a fixture
    one_error_line,
    usage_error,
)
from tournaments.local import imap_local
from tournaments.manifest_fields import check_manifest
from tournaments.players import Players
from tournaments.sequential import MIN_MARGIN

THREE = ["greedy", "low", "random"]


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A finished run of 30 games at 3 players, seed 7."""
    out = tmp_path_factory.mktemp("selfreview72cli") / "run"
    code, _, err = cli_output("tournament", *THREE, "--players", "3", "--games", "30",
                              "--jobs", "1", "--seed", "7", "--out", str(out))  # fmt: skip
    assert code == 0, err
    return out


# ------------------------------------------------------------------ the --jobs line


def _local(played: int, **counts: int) -> dict[str, int]:
    return {"workers": 0, "threads": 0, "driver_tasks": 0, "worker_tasks": 0,
            "thread_tasks": 0, "played": played, **counts}  # fmt: skip


@pytest.mark.parametrize(("record", "said"), [
    (_local(1, workers=2, worker_tasks=3),
     "--jobs 3: 1 player played (this process and 1 of the 2 worker processes started found "
     "no part left to play)"),
    (_local(2, workers=2, worker_tasks=5),
     "--jobs 3: 2 players played (this process found no part left to play)"),
], ids=["one-worker-played", "both-workers-played"])  # fmt: skip
def test_a_driver_that_played_no_part_is_said_to_be_this_process(record, said):
    assert jobs_line({"sessions": [{"players": record}]}, 0, 3) == said


def _mark(folder: str, task: int) -> int:
    """A worker's task: it leaves a file saying it was played."""
    Path(folder, str(task)).touch()
    return task


def _until_played(folder: Path, n: int) -> None:
    """The driver readying until the workers played all ``n`` tasks (or a minute passed)."""
    end = time.monotonic() + 60
    while len(list(folder.iterdir())) < n and time.monotonic() < end:
        time.sleep(0.05)


def test_the_runner_records_a_driver_that_played_no_part(tmp_path):
    """What the line above reads: a driver still readying when its workers took every task."""
    stats: dict[str, int] = {}
    players = Players(3, stats=stats, prepare=lambda: _until_played(tmp_path, 3))
    assert sorted(imap_local(functools.partial(_mark, str(tmp_path)), range(3), players)) == [
        0, 1, 2]  # fmt: skip
    assert stats["driver_tasks"] == 0 and stats["worker_tasks"] == 3
    assert 1 <= stats["played"] <= stats["workers"] == 2  # worker processes only


# ------------------------------------------------------------------ a sequential margin


def _margin_test(margin: float):
    from leaves_cli.gauntlet_cmd import _test

    return _test({"margin": margin, "alpha": 0.05, "beta": 0.05})


def test_the_least_margin_said_is_the_least_taken():
    with pytest.raises(CLIError) as refused:
        _margin_test(4.6e-08)
    least = float(re.search(r"at least ([\d.e+-]+) ", str(refused.value)).group(1))
    taken = 4.6567e-08
    assert _margin_test(taken) is not None  # it plays
    assert least <= taken, str(refused.value)
    assert least >= 100 * MIN_MARGIN  # and what is refused is below it


@pytest.fixture(scope="module")
def sequential(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("selfreview72seq") / "g"
    code, _, err = cli_output("gauntlet", "random", "--against", "greedy", "--sequential",
                              "--margin", "1e-7", "--games", "100", "--max-games", "200",
                              "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    return out


def _finer_margin(m: dict) -> None:
    """As an earlier version that took any positive margin wrote a run of 1e-9 points."""
    m["spec"]["gauntlet"]["sequential"]["margin"] = 1e-9
    m["sequential"]["margin"] = 1e-9


def test_an_earlier_versions_finer_margin_is_said_to_be_the_runs(sequential, tmp_path, capsys):
    copy = copied_run(sequential, tmp_path, _finer_margin)
    code, _, err = cli(capsys, "gauntlet", "--resume", "--out", str(copy))
    line = one_error_line(err)
    assert code == 1, line  # the run is at fault, not the command
    assert line.startswith(f"leaves: error: cannot resume {copy}: "), line


def test_a_sequential_run_resumes_as_before(sequential, capsys):
    code, _, err = cli(capsys, "gauntlet", "--resume", "--out", str(sequential))
    assert code == 0, err


# ------------------------------------------------------------------ leaves strategies

LOUD = """
from strategies import Strategy


class Loud(Strategy):
    name = "edge72_loud"
    description = "raises as it is built"
    classifier = {"stochastic": False, "loud": True}

    def __init__(self, x: int = 1):
        raise RuntimeError("no table today")

    def choose(self, view, legal, rng):
        return legal[0]
"""


@pytest.mark.usefixtures("forget_loaded_files")
def test_a_key_only_a_class_that_cannot_play_has_is_not_said_to_be_nobodys(capsys, tmp_path):
    file = tmp_path / "loud.py"
    file.write_text(LOUD)
    code, _, err = cli(capsys, "strategies", "--load", str(file), "--filter", "loud=true")
    (line,) = [x for x in err.splitlines() if x.startswith("leaves: error: ")]
    assert code == 1 and "edge72_loud" in err  # warned about: it cannot play
    assert not re.search(r"none of its \d+ strategies has loud", line), line


# ------------------------------------------------------------------ a folder's name


def _older(manifest: dict) -> None:
    """As a version before deal stages wrote it."""
    del manifest["spec"]["deal_stages"]


def test_a_folder_named_with_a_marker_is_named_as_it_is(run, tmp_path, capsys):
    copy = copied_run(run, tmp_path, _older, name="a{out}b")
    code, _, err = cli(capsys, "tournament", *THREE, "--players", "3", "--games", "30",
                       "--seed", "7", "--out", str(copy))  # fmt: skip
    line = one_error_line(err)
    assert code == 1 and line.startswith(f"leaves: error: {copy} holds a run"), line


# ------------------------------------------------------------------ a gauntlet's sides


def test_numpys_games_a_side_are_refused_a_side():
    from tournaments.gauntlet import Gauntlet

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ParameterError, match="a side"):
            Gauntlet("random", ["greedy"], games=np.int64(2**62))


# ------------------------------------------------------------------ a session's versions


def test_a_sessions_versions_that_is_no_table_is_said_so(run):
    manifest = json.loads((run / "manifest.json").read_text())
    manifest["sessions"][0]["versions"] = "0.1.0"
    with pytest.raises(ValueError) as refused:
        check_manifest(manifest)
    assert "versions" in str(refused.value).partition("expected")[2], str(refused.value)


# ------------------------------------------------------------------ a config file's players


def test_a_files_players_that_are_the_runs_are_not_to_be_removed(run, tmp_path, capsys):
    config = tmp_path / "c.toml"
    config.write_text(f'out = "{run.as_posix()}"\nresume = true\nplayers = 3\n')
    code, _, err = cli(capsys, "tournament", "--config", str(config), "--players", "4")
    line = one_error_line(err)
    assert code == 2 and "drop --players" in line, line
    assert cli(capsys, "tournament", "--config", str(config))[0] == 0  # the file as it is resumes
    assert "remove players from" not in line, line


# ------------------------------------------------------------------ a cap in rounds


def test_a_cap_past_a_runs_most_is_counted_in_rounds_of_a_game_in_rounds(capsys, tmp_path):
    line = usage_error(capsys, ["gauntlet", "row", "--against", "cycler", "--game", "ligretto",
                                "--sequential", "--games", "100", "--max-games", "3000000000",
                                "--out", str(tmp_path / "g")])  # fmt: skip
    assert "2**31 - 1" in line and "rounds" in line, line
    assert "games" not in line.replace("--max-games", ""), line
