"""A resume refusing a flag typed over a config file's key names both in its advice: "--seed 3
differs from this run's seed 1: resume with --seed 1, or drop --seed" was refused again, once
--seed was dropped, for "seed in c2.toml"."""

from __future__ import annotations

from pathlib import Path

import pytest

from leaves_cli.resume_words import again, disagreement, dropped, given_as
from tests.helpers import cli, one_error_line
from tournaments import Tournament


@pytest.fixture(autouse=True)
def _wide(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A finished run of 6 games at 3 players, seed 1."""
    out = tmp_path_factory.mktemp("config") / "t1"
    Tournament(["random", "low", "greedy"], players=3, games=6, seed=1).run(out=out, n_jobs=1)
    return out


def _config(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "c2.toml"
    path.write_text(text)
    return path


def test_a_seed_typed_over_the_config_files_is_dropped_from_both(run, tmp_path, capsys):
    config = _config(tmp_path, "seed = 2\n")
    code, _, err = cli(capsys, "tournament", "--config", str(config), "--resume", "--out",
                       str(run), "--seed", "3")  # fmt: skip
    assert code == 2 and one_error_line(err) == (
        f"leaves: error: cannot resume {run}: --seed 3 differs from this run's seed 1: resume "
        f"with --seed 1, or drop --seed and remove seed from {config}"
    )
    code, _, err = cli(capsys, "tournament", "--config", str(config), "--resume", "--out",
                       str(run))  # fmt: skip  # the flag dropped: the file's seed is refused
    assert code == 2 and f"seed in {config} 2 differs" in one_error_line(err)


def test_a_setting_typed_over_the_config_files_is_dropped_from_both(run, tmp_path, capsys):
    config = _config(tmp_path, "turn_limit = 50\n")
    code, _, err = cli(capsys, "tournament", "--config", str(config), "--resume", "--out",
                       str(run), "--turn-limit", "40")  # fmt: skip
    said = one_error_line(err)
    assert code == 2 and said.startswith(f"leaves: error: cannot resume {run}: --turn-limit 40 ")
    assert said.endswith(f"or drop --turn-limit and remove turn_limit from {config}")


def test_a_flag_the_config_file_does_not_give_is_dropped_alone(run, tmp_path, capsys):
    config = _config(tmp_path, "chunk_size = 3\n")
    code, _, err = cli(capsys, "tournament", "--config", str(config), "--resume", "--out",
                       str(run), "--seed", "3")  # fmt: skip
    assert code == 2 and one_error_line(err).endswith(": resume with --seed 1, or drop --seed")


@pytest.mark.parametrize(
    ("named", "shown", "drop", "back"),
    [
        ("--seed over seed in c.toml", "--seed", "drop --seed and remove seed from c.toml",
         "resume with --seed 1"),
        ("--rules after rules in c.toml", "--rules after rules in c.toml",
         "drop --rules and remove rules from c.toml", None),
        ("seed in c.toml", "seed in c.toml", "remove seed from c.toml", "set seed to 1 in c.toml"),
    ],
)  # fmt: skip
def test_the_words_of_a_flag_over_a_files_key(named, shown, drop, back):
    assert (given_as(named), dropped(named), again(named, 1)) == (shown, drop, back)


def test_a_switch_typed_over_the_files_key_is_named_as_typed():
    said = str(disagreement("r", "--rows over rows in c.toml", False, "rows", True))
    assert said == (
        "cannot resume r: --no-rows differs from this run, played with --rows: drop --no-rows "
        "and remove rows from c.toml"
    )
