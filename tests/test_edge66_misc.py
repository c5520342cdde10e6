"""Figures and error lines checked against the truth: a Ligretto run's length means where
rounds were forfeited, a table size or target too long to write out, a directory where a
run's manifest belongs."""

from __future__ import annotations

import re
import shutil
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from gamekit.errors import ParameterError
from ligretto.plugin import LigrettoGame
from ligretto.rules import MAX_PLAYERS, MIN_PLAYERS
from tests.helpers import cli, cli_output, copied_run, forfeiting_run, one_error_line
from tournaments import Tournament

HUGE = 10**5000
"""A whole number past the 4,300 digits Python writes out."""


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A 2-player Ligretto run in which some rounds were forfeited, mixed with 3-player ones."""
    return forfeiting_run(tmp_path_factory.mktemp("misc") / "run", "--players", "2,3")


@pytest.fixture(scope="module")
def report(run, tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("misc") / "report"
    code, _, err = cli_output("report", str(run), "--out", str(out))
    assert code == 0, err
    return out


def test_the_outcomes_length_means_are_the_lengths_tables_leaving_forfeits_out(run, report):
    """``outcomes.csv`` gave plays_mean over every round, the forfeited ones (cut short)
    included, beside a lengths table (and its finding) that leave them out: two means of one
    length on a page. The rounds count and the shares stay over every round."""
    rows = pd.concat([pd.read_parquet(p) for p in sorted((run / "games").glob("*.parquet"))])
    forfeited = rows["forfeit"].to_numpy(bool)
    assert forfeited.any() and not forfeited.all()
    assert set(rows.loc[forfeited, "n_players"]) == {2, 3}  # forfeits at every size
    outcomes = pd.read_csv(report / "outcomes.csv").astype({"n_players": str})
    lengths = pd.read_csv(report / "lengths.csv").astype({"group": str})
    kept = rows[~forfeited]
    for size, at in [("2", kept["n_players"] == 2), ("3", kept["n_players"] == 3),
                     ("all", np.ones(len(kept), bool))]:  # fmt: skip
        row = outcomes[outcomes["n_players"] == size].iloc[0]
        of_size = rows if size == "all" else rows[rows["n_players"] == int(size)]
        assert row["rounds"] == len(of_size)
        assert row["blockade_share"] == pytest.approx(of_size["blockade"].mean())
        for measure in ("seconds", "plays"):
            truth = kept.loc[at, measure].mean()
            table = lengths[(lengths["measure"] == measure) & (lengths["group"] == size)]
            assert row[f"{measure}_mean"] == pytest.approx(truth)
            assert table["mean"].iloc[0] == pytest.approx(truth)
            assert abs(of_size[measure].mean() - truth) > 0.05  # the forfeits move the mean


def test_a_table_size_too_long_to_write_out_is_said_by_its_digits():
    """``players=10**5000`` said Python's "Exceeds the limit (4300 digits) for integer string
    conversion", not which sizes Ligretto is played by."""
    game = LigrettoGame()
    sizes = f"Ligretto takes {MIN_PLAYERS} to {MAX_PLAYERS} players"
    with pytest.raises(ValueError, match=f"^{sizes}, got a whole number of about 5,001 digits$"):
        game.check_players(HUGE)
    with pytest.raises(ValueError, match=f"^{sizes}, got a negative whole number of about 5,001 "
                                         "digits$"):  # fmt: skip
        game.check_players(-HUGE)
    with pytest.raises(ValueError, match=f"^{sizes}, got 13$"):
        game.check_players(np.int64(13))
    with pytest.raises(TypeError, match=r"^n_players must be an integer, got 2\.5$"):
        game.check_players(2.5)
    with pytest.raises(ParameterError) as exc:
        Tournament(["stack", "cautious"], players=[2, HUGE], games=1, game=game)
    said = "a whole number of about 5,001 digits"
    assert str(exc.value) == f"players: {sizes}, got {said}"  # the size said once


def test_a_target_too_long_to_write_out_is_said_by_its_digits():
    game = LigrettoGame()
    with pytest.raises(ParameterError, match="^target a whole number of about 5,001 digits is "
                                             "out of reach: "):  # fmt: skip
        game.check_target(HUGE)
    with pytest.raises(ParameterError, match=f"^target {10**50:,} is out of reach: "):
        game.check_target(10**50)  # one that fits the line: grouped by thousands


@pytest.mark.parametrize(("key", "said"), [
    ("players", "players: Ligretto takes 2 to 12 players, got {n}"),  # the size said once
    ("target", "target {n} is out of reach: "),
])  # fmt: skip
def test_a_config_files_number_too_long_for_the_line_is_said_by_its_digits(
    tmp_path, capsys, monkeypatch, key, said
):
    """A config file's 4,000-digit table size was written out whole in the error line."""
    monkeypatch.setenv("COLUMNS", "200")
    values = {"players": "2", "target": "10"} | {key: "9" * 4000}
    config = tmp_path / "run.toml"
    config.write_text('[tournament]\ngame = "ligretto"\nstrategies = ["stack", "cautious"]\n'
                      f"players = {values['players']}\nexpert = true\n"
                      f"target = {values['target']}\ngames = 2\n"
                      f'out = "{(tmp_path / "out").as_posix()}"\n')  # fmt: skip
    code, _, err = cli(capsys, "tournament", "--config", str(config))
    line = one_error_line(err)
    assert code == 2 and len(line) < 250, line
    n = "a whole number of about 4,000 digits"
    assert line.startswith(f"leaves: error: {config}: {said.format(n=n)}"), line
    assert not (tmp_path / "out").exists()


@pytest.fixture
def no_manifest_file(run, tmp_path) -> Iterator[Path]:
    """A copy of ``run`` with a directory where its manifest belongs."""
    bad = copied_run(run, tmp_path)
    (bad / "manifest.json").unlink()
    (bad / "manifest.json").mkdir()
    yield bad
    shutil.rmtree(bad)


@pytest.mark.parametrize("command", [
    ["verify", "{run}"],
    ["report", "{run}", "--out", "{run}/report"],
    ["tournament", "--out", "{run}", "--resume"],
])  # fmt: skip
def test_a_directory_where_the_manifest_belongs_is_named_once(no_manifest_file, capsys, command):
    """'leaves verify' said "bad: RUN/manifest.json: RUN holds no tournament (RUN/manifest.json
    is a directory)": the path twice, and a run that holds one said to hold none."""
    bad = no_manifest_file
    path = bad / "manifest.json"
    code, out, err = cli(capsys, *(a.replace("{run}", str(bad)) for a in command))
    line = one_error_line(err)
    assert code == 1, err
    said = f"{path} is a directory where the run's manifest file belongs"
    assert line.count(str(path)) == 1 and said in line, line
    assert "holds no tournament" not in line
    if command[0] == "verify":
        assert out.splitlines() == [f"bad: {path}: a directory where the run's manifest file "
                                    "belongs"]  # fmt: skip
    assert not (bad / "report").exists()
    assert not re.search(r"\bTraceback\b", out + err)
