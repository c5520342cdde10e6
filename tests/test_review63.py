"""A review of this session's changes: each test names what a command said before its fix."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.helpers import cli, one_error_line
from tests.toygame import ToyGame
from tournaments import Tournament


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A small complete run of the toy game (4 chunks)."""
    out = tmp_path_factory.mktemp("review63") / "run"
    Tournament(["a", "p1", "p2"], game=ToyGame(), players=3, games=120, seed=3,
               chunk_size=30).run(out=out)  # fmt: skip
    return out


def _lost(run: Path, tmp_path: Path) -> Path:
    """A copy of ``run`` that lost its manifest."""
    lost = tmp_path / "lost"
    shutil.copytree(run, lost)
    (lost / "manifest.json").unlink()
    return lost


def _lost_line(out: Path) -> str:
    return (f"leaves: error: {out} holds a run's files but not its manifest.json (missing): "
            "nothing vouches for them; the run cannot be resumed or grown without it: restore "
            "it, or play the run again into a new --out (the same options and seed give the "
            "same results)")  # fmt: skip


@pytest.mark.parametrize("command", ["report", "compare", "replay"])
def test_report_compare_and_replay_name_a_folder_that_lost_its_manifest(
    run, tmp_path, capsys, command
):
    """They said 'not a run directory: ... holds no manifest.json' (report, compare) and 'is a
    directory but not a tournament run' (replay) of the folder ``leaves verify`` and every
    resume name a run's folder that lost its manifest."""
    lost = _lost(run, tmp_path)
    args = {"report": ["report", str(lost)], "compare": ["compare", str(run), str(lost)],
            "replay": ["replay", str(lost), "--game", "1"]}[command]  # fmt: skip
    code, _, err = cli(capsys, *args)
    assert code == 2
    assert one_error_line(err) == _lost_line(lost)


def test_a_chunk_size_below_one_is_named_by_its_flag_its_key_and_its_parameter(tmp_path, capsys):
    """``--chunk-size 0`` said 'chunk size must be at least 1 game, got 0', naming no flag (and
    from a config file, neither the file nor its key), where every other number option is
    named by its flag."""
    code, _, err = cli(capsys, "tournament", "greedy", "low", "--chunk-size", "0", "--out",
                       str(tmp_path / "a"))  # fmt: skip
    assert code == 2
    assert one_error_line(err) == "leaves: error: --chunk-size must be at least 1 game, got 0"
    config = tmp_path / "c.toml"
    config.write_text(f'strategies = ["greedy", "low"]\nchunk_size = 0\nout = "{tmp_path}/b"\n')
    code, _, err = cli(capsys, "tournament", "--config", str(config))
    assert code == 2
    assert one_error_line(err) == (
        f"leaves: error: {config}: chunk_size must be at least 1 game, got 0"
    )
    with pytest.raises(ValueError) as exc:
        Tournament(["a", "p1", "p2"], game=ToyGame(), players=3, games=12, chunk_size=0)
    assert str(exc.value) == "chunk_size must be at least 1 game, got 0"


@pytest.mark.slow
def test_a_rate_without_an_interval_says_why_after_its_units(tmp_path, capsys):
    """The best strategy's rate read 'high wins 66.7% (too few deals for an interval) of its
    games', the order the first player's sentence had been mended of ('wins 23.3% of games
    (too few deals for an interval)'): one rule, in every sentence that writes a rate."""
    out = tmp_path / "tiny"
    Tournament(["greedy", "low", "high"], players=3, games=6, seed=4).run(out=out)
    code, text, _ = cli(capsys, "report", str(out), "--format", "md")
    assert code == 0
    assert "wins 66.7% of its games (too few deals for an interval; " in text  # then its share
    assert "interval) of " not in text


def test_the_library_does_not_report_a_run_that_lost_its_manifest(run, tmp_path):
    """``reports.load_run`` (and so ``reports.build_report``) read the rows of a run's folder
    that lost its manifest as if they were another tool's, under the default game's
    declaration (a toy or Ligretto run's rows reported as 13 Leaves games), where ``leaves
    report`` and ``tournaments.load`` refuse it: nothing vouches for them."""
    import reports

    lost = _lost(run, tmp_path)
    for read in (reports.load_run, reports.build_report):
        with pytest.raises(ValueError) as exc:
            read(lost)
        assert str(exc.value) == _lost_line(lost).removeprefix("leaves: error: ").replace(
            "--out", "out"
        )
