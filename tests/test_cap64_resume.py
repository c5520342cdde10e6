"""A precision run's --max-games holds against every game it is asked to play before the cap
is first looked at: a resume's --games grows the run that far whatever the cap, so a cap below
it is refused before anything is played, not exceeded; a mixed refusal names each value where
it came from (a typed flag, a config file's key, the default)."""

from __future__ import annotations

import json

import pytest

from tests.helpers import cli, one_error_line, precision_config_refusal

STRATEGIES = ("random", "greedy", "low")


def _games(out) -> int:
    return int(json.loads((out / "manifest.json").read_text())["spec"]["n_games"])


@pytest.fixture
def run(tmp_path, capsys):
    out = tmp_path / "run"
    code, _, err = cli(capsys, "tournament", *STRATEGIES, "--players", "3", "--games", "60",
                       "--precision", "0.1", "--max-games", "100", "--seed", "1", "--jobs",
                       "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    return out


def test_a_resumes_games_above_its_cap_is_refused_and_nothing_is_played(run, capsys):
    before = _games(run)
    code, out, err = cli(capsys, "tournament", "--out", str(run), "--resume", "--precision",
                         "0.1", "--max-games", "100", "--games", "200")  # fmt: skip
    assert code == 2 and not out
    assert one_error_line(err) == "leaves: error: --max-games (100) must be at least --games (200)"
    assert _games(run) == before


def test_a_resumes_games_within_its_cap_grows_the_run_no_further_than_the_cap(run, capsys):
    code, _, err = cli(capsys, "tournament", "--out", str(run), "--resume", "--precision",
                       "0.1", "--max-games", "150", "--games", "120")  # fmt: skip
    assert code == 0, err
    assert 120 <= _games(run) <= 150


@pytest.mark.parametrize(
    ("config", "args", "said"),
    [
        ("games = 200\n", ["--max-games", "100"],
         "--max-games (100) must be at least games in {c} (200)"),
        ("max_games = 100\n", ["--games", "200"],
         "max_games in {c} (100) must be at least --games (200)"),
        ("max_games = 100\ngames = 200\n", [], "{c}: max_games (100) must be at least games (200)"),
        ("max_games = 100\n", [],
         "{c}: max_games (100) must be at least the default --games (100,000)"),
    ],
)  # fmt: skip
def test_a_cap_below_the_games_names_each_value_where_it_came_from(
    tmp_path, capsys, config, args, said
):
    refused = precision_config_refusal(capsys, tmp_path, config, *args)
    assert refused == "leaves: error: " + said
