"""A resume names a game setting where it came from: a flag typed by its flag, a config file's
``turn_limit = 50`` or ``[rules]`` table by its key in the file ("turn_limit in c.toml"),
never by a flag no one typed; and the strategies a config file lists by its key there too."""

from __future__ import annotations

from pathlib import Path

import pytest

from leaves_cli.main import main

THREE = ["greedy", "low", "high"]
RULES = "hand_size=9, turn_limit=400"
"""The run's settings in the game's words."""


@pytest.fixture(autouse=True)
def _wide(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")


def cli(capsys, *args: object) -> tuple[int, str]:
    """The exit status and the one error line the command wrote ("" when it succeeded), with
    no traceback."""
    try:
        main([str(a) for a in args])
        code = 0
    except SystemExit as exc:
        code = int(exc.code or 0)
    err = capsys.readouterr().err
    errors = [line for line in err.splitlines() if line.startswith("leaves: error: ")]
    assert "Traceback" not in err and len(errors) == (code != 0), err
    return code, "".join(errors).removeprefix("leaves: error: ")


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A finished run of 30 games under hand_size=9 and a turn limit of 400."""
    out = tmp_path_factory.mktemp("settings") / "run"
    args = ["tournament", *THREE, "--players", "3", "--games", "30", "--jobs", "1", "--seed",
            "7", "--rules", "hand_size=9", "--turn-limit", "400", "--out", str(out)]  # fmt: skip
    try:
        main(args)
    except SystemExit as exc:
        assert exc.code in (0, None)
    return out


def resume(capsys, run: Path, config: str, *typed: object) -> tuple[int, str, Path]:
    """Resume ``run`` through a config file holding ``config`` (its tables after the rest),
    with ``typed`` on the command line; the status, the error line and the file."""
    path = run.parent / "c.toml"
    path.write_text(f'out = "{run}"\nresume = true\njobs = 1\n{config}\n')
    code, line = cli(capsys, "tournament", "--config", path, *typed)
    return code, line, path


@pytest.mark.parametrize(
    ("key", "value", "said", "stored"),
    [
        ("turn_limit", "50", "turn limit 400", "400"),
        ("decision_timeout", "3", "decision timeout 60.0", "60.0"),
    ],
)
def test_a_config_files_setting_is_named_by_its_key(run, capsys, key, value, said, stored):
    """It said "--turn-limit 50 but the run has turn limit 400", a flag no one typed."""
    code, line, path = resume(capsys, run, f"{key} = {value}")
    assert code == 2
    assert line == (
        f"cannot resume {run}: {key} in {path} {value} differs from this run's "
        f"{said}: set {key} to {stored} in {path}, or remove {key} from {path}"
    )
    flag = "--" + key.replace("_", "-")
    code, line = cli(capsys, "tournament", "--out", run, "--resume", flag, value)
    assert code == 2 and line == (
        f"cannot resume {run}: {flag} {value} differs from this run's "
        f"{said}: resume with {flag} {stored}, or drop {flag}"
    )


def test_a_config_files_bad_setting_is_named_as_a_new_run_names_it(run, capsys, tmp_path):
    """It said "--turn-limit: the turn limit must be at least 1, got -5"."""
    code, line, path = resume(capsys, run, "turn_limit = -5")
    assert code == 2
    assert line == f"{path}: turn_limit must be 1..1000000, got -5"
    fresh = tmp_path / "new.toml"
    fresh.write_text(f'strategies = {THREE}\nplayers = 3\nout = "{tmp_path / "x"}"\n'
                     "turn_limit = -5\n")  # fmt: skip
    new = cli(capsys, "tournament", "--config", fresh)
    assert new == (2, f"{fresh}: turn_limit must be 1..1000000, got -5")
    typed = cli(capsys, "tournament", "--out", run, "--resume", "--turn-limit", "-5")
    assert typed == (2, "--turn-limit must be 1..1000000, got -5")


def test_a_config_files_rules_table_is_named_by_its_key(run, capsys):
    """It said "--rules says hand_size=8"."""
    code, line, path = resume(capsys, run, "[rules]\nhand_size = 8")
    assert code == 2
    assert line == (
        f"cannot resume {run}: rules in {path} says hand_size=8, but this run was "
        f"played under {RULES}: remove rules from {path}"
    )


def test_rules_from_the_file_and_the_flag_are_named_by_both(run, capsys):
    """The file's rules come first, then the flag's (later winning): the flag alone did not
    say them. It said "--rules says hand_size=8, take=ends"."""
    code, line, path = resume(capsys, run, "[rules]\nhand_size = 8", "--rules", "take=ends")
    assert code == 2
    assert line == (f"cannot resume {run}: --rules after rules in {path} says hand_size=8, "
                    f"take=ends, but this run was played under {RULES}: drop --rules and remove "
                    f"rules from {path}")  # fmt: skip
    code, line, _ = resume(capsys, run, "", "--rules", "take=ends")  # the flag's alone
    assert line == (
        f"cannot resume {run}: --rules says take=ends, but this run was played "
        f"under {RULES}: drop --rules"
    )
    assert resume(capsys, run, "[rules]\nhand_size = 8", "--rules", "hand_size=9")[0] == 0


def test_a_config_files_strategies_are_named_by_its_key(run, capsys):
    """It said "strategies counter,greedy,low", as if typed."""
    code, line, path = resume(capsys, run, 'strategies = ["greedy", "low", "counter"]')
    assert code == 2
    assert line == (f"cannot resume {run}: strategies in {path} counter,greedy,low differs from "
                    "this run's strategies greedy,high,low: remove strategies from "
                    f"{path}")  # fmt: skip
