"""A config file's keys are the command's options by name (docs/cli.md): ``progress = false``
was refused as an unknown key, and ``add`` and ``config`` were unknown keys too rather than
options a file cannot give, said why. And ``tune.json`` written through the Python API
(``tuning.tune`` without ``game``) lacked the ``game``, ``game_config`` and
``game_settings`` that the command line's holds, so a tuning read otherwise by front end."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from leaves_cli import tournament_parts as parts
from tests.helpers import cli, usage_error
from tests.test_tune_resume import ARGS, FLAGS, TOY
from tuning import tune

ROOT = Path(__file__).resolve().parents[1]

RUN = 'strategies = ["greedy", "low"]\ngames = 24\nout = "o"\njobs = 1\n'
"""A small run, played in a test's folder."""


def _tournament_options() -> set[str]:
    """The options of ``leaves tournament`` (click's names), its --help aside."""
    from leaves_cli.tournament_cmd import tournament

    return {p.name for p in tournament.params if p.name != "help"}


def test_every_option_is_a_key_or_refused_saying_why():
    keys = {name for name, _ in parts.CONFIG_KEYS.values()}
    games = {o.name for o in parts.installed_options()}
    left = _tournament_options() - keys - games - set(parts.REFUSED)
    assert not left, f"options a config file neither takes nor refuses: {sorted(left)}"


def _said(capsys, tmp_path: Path, monkeypatch, text: str) -> str:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.toml").write_text(text)
    line = usage_error(capsys, ["tournament", "--config", "c.toml"])
    assert not (tmp_path / "o").exists()
    return line.removeprefix("leaves: error: ")


@pytest.mark.parametrize("value", ["false", "true"])
def test_progress_is_a_key(capsys, tmp_path, monkeypatch, value):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "c.toml").write_text(f"{RUN}progress = {value}\n")
    assert parts.read_config("c.toml")["progress"] is (value == "true")
    code, _, err = cli(capsys, "tournament", "--config", "c.toml")
    assert code == 0, err
    assert (tmp_path / "o" / "manifest.json").is_file()


def test_progress_takes_true_or_false(capsys, tmp_path, monkeypatch):
    line = _said(capsys, tmp_path, monkeypatch, f"{RUN}progress = 1\n")
    assert line == "c.toml: progress takes true or false, got 1"
    assert f"`{line}`" in " ".join(_config_section().split())  # as the docs quote it


@pytest.mark.parametrize(("key", "why"), [
    ('config = "d.toml"', "config cannot be given in a config file: a config file names no "
     "other config file"),
    ("add = 10", "add cannot be given in a config file: it would grow the run again each time "
     "the file is read: games = N with resume = true grows it to N"),
])  # fmt: skip
@pytest.mark.parametrize("table", [False, True])
def test_an_option_a_file_cannot_give_is_refused_saying_why(
    capsys, tmp_path, monkeypatch, key, why, table
):
    text = f"{key}\n[tournament]\n{RUN}" if table else f"{RUN}{key}\n"
    line = _said(capsys, tmp_path, monkeypatch, text)
    assert line.startswith(f"c.toml: {why}"), line
    assert "unknown key" not in line


def _config_section() -> str:
    text = (ROOT / "docs" / "cli.md").read_text()
    return text.split("## Config files", 1)[1].split("\n## ", 1)[0]


def test_the_docs_name_every_key_and_every_refused_option():
    named = set(re.findall(r"`([a-z_]+)`", _config_section()))
    missing = (set(parts.CONFIG_KEYS) | set(parts.REFUSED)) - named
    assert not missing, f"docs/cli.md's config section leaves out {sorted(missing)}"


# ------------------------------------------------------------------------------- tune.json
GAME_KEYS = ("game", "game_config", "game_settings")


@pytest.fixture(scope="module")
def both(tmp_path_factory) -> tuple[dict, dict]:
    """tune.json of one tuning run through the Python API and through the command line."""
    from tests.helpers import cli_output

    root = tmp_path_factory.mktemp("tunes")
    tune(TOY, ["random"], n_jobs=1, out=root / "api", **ARGS)
    code, _, err = cli_output("tune", TOY, "--against", "random", "--players", "4", *FLAGS,
                              "--out", str(root / "cli"), "--no-progress")  # fmt: skip
    assert code == 0, err
    return tuple(json.loads((root / n / "tune.json").read_text()) for n in ("api", "cli"))


def test_the_api_and_the_command_line_write_the_same_keys(both):
    api, cli_doc = both
    assert set(api) == set(cli_doc)
    assert set(api["settings"]) == set(cli_doc["settings"])


def test_the_api_names_its_default_game_as_the_command_line_does(both):
    api, cli_doc = both
    for key in GAME_KEYS:
        assert api["settings"][key] == cli_doc["settings"][key], key
    assert api["settings"]["game"] == "leaves"
    assert api["settings"]["game_settings"] == {"rules": "today's rules"}


def test_a_resume_a_file_asked_for_with_no_run_names_the_files_key(capsys, tmp_path, monkeypatch):
    """It said 'leave out --resume', a flag nobody typed: the file's key is what to leave out."""
    line = _said(capsys, tmp_path, monkeypatch, f"{RUN}resume = true\n")
    assert line.endswith("it holds no run (no manifest.json); leave out resume in c.toml to start "
                         "one there")  # fmt: skip
