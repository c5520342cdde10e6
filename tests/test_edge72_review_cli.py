"""What the command line says must hold, and its advice must work when followed: a new run on
the folder of a run another version played is not told to pass --resume (which refuses it); a
gauntlet's games past a run's most are counted for both sides; an --out with a line break keeps
each line one line; a resume refusal names a config file's key only where dropping the flag
alone would not resume; a number flag's refusal never advises a value the flag refuses; a flag
beside a module:Class game that cannot load says why it cannot; and "set KEY to VALUE in FILE"
gives a value the file can hold as written."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from tests.helpers import cli, copied_run, one_error_line
from tournaments import Tournament

THREE = ["greedy", "low", "high"]
ADVICE = "resume it with the version that played it"


@pytest.fixture(autouse=True)
def _wide(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A finished run of 30 games at 3 players, seed 7, balanced seatings."""
    from tests.helpers import cli_output

    out = tmp_path_factory.mktemp("review72") / "run"
    code, _, err = cli_output("tournament", *THREE, "--players", "3", "--games", "30",
                              "--jobs", "1", "--seed", "7", "--out", str(out))  # fmt: skip
    assert code == 0, err
    return out


def _older(manifest: dict) -> None:
    """As a version before deal stages wrote it, stopped before its end."""
    del manifest["spec"]["deal_stages"]
    manifest["status"] = "interrupted"


def test_a_new_run_on_another_versions_run_is_not_told_to_pass_resume(run, tmp_path, capsys):
    copy = copied_run(run, tmp_path, _older)
    code, _, err = cli(capsys, "tournament", "--out", str(copy), "--resume")
    assert code == 1 and ADVICE in one_error_line(err)  # the resume it would advise: refused
    code, _, err = cli(capsys, "tournament", *THREE, "--players", "3", "--games", "30",
                       "--seed", "7", "--out", str(copy))  # fmt: skip
    line = one_error_line(err)
    assert code != 0 and "--resume" not in line and ADVICE in line
    with pytest.raises(ValueError) as caught:
        Tournament(THREE, players=3, games=30, seed=7).run(out=copy, progress=False)
    assert "pass resume" not in str(caught.value) and ADVICE in str(caught.value)


@pytest.mark.parametrize("games", [5_000_000_000, 3_000_000_000])
def test_a_gauntlets_games_past_a_runs_most_are_counted_for_both_sides(tmp_path, capsys, games):
    out = tmp_path / "g"
    code, _, err = cli(capsys, "gauntlet", "greedy", "--against", "random", "--games",
                       str(games), "--out", str(out))  # fmt: skip
    line = one_error_line(err)
    said = [int(n.replace(",", "")) for n in re.findall(r"\d[\d,]{4,}", line)]
    assert code == 2 and not out.exists()
    assert f"{games:,}" in line  # the games a side, as typed
    assert max(said) >= 2 * games  # and the run's, both sides': it said 5,000,000,040 'in all'


def _lines_with(text: str, words: str) -> list[str]:
    return [line for line in text.splitlines() if words in line]


def test_an_out_with_a_line_break_keeps_the_gauntlets_results_on_one_line(tmp_path, capsys):
    out = tmp_path / "g\ny"
    code, stdout, _ = cli(capsys, "gauntlet", "greedy", "--against", "random", "--games", "8",
                          "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0
    (line,) = _lines_with(stdout, "for the full report")
    assert line.startswith("results in ")  # it began "y'' for the full report)"


def test_an_out_with_a_line_break_keeps_the_next_command_on_one_line(tmp_path, capsys):
    out = tmp_path / "t\ny"
    code, stdout, _ = cli(capsys, "tournament", "greedy", "random", "--games", "10", "--jobs",
                          "1", "--out", str(out))  # fmt: skip
    assert code == 0
    (line,) = _lines_with(stdout, "key findings")
    assert line.startswith("next: ")


def test_a_config_key_that_holds_the_runs_value_is_not_to_be_removed(run, tmp_path, capsys):
    config = tmp_path / "c.toml"
    config.write_text("[tournament]\nseed = 7\n")
    code, _, err = cli(capsys, "tournament", "--config", str(config), "--out", str(run),
                       "--resume", "--seed", "2")  # fmt: skip
    assert code == 2
    assert one_error_line(err) == (f"leaves: error: cannot resume {run}: --seed 2 differs from "
                                   "this run's seed 7: resume with --seed 7, or drop --seed")  # fmt: skip
    code, _, err = cli(capsys, "tournament", "--config", str(config), "--out", str(run),
                       "--resume", "--jobs", "1")  # fmt: skip
    assert code == 0, err  # dropping the flag alone resumes: the file's seed is the run's


@pytest.mark.parametrize("typed", ["-0", "00", "+0"])
def test_a_number_in_another_form_is_never_advised_a_value_the_flag_refuses(
    tmp_path, capsys, typed
):
    code, _, err = cli(capsys, "tournament", "greedy", "random", "--games", typed,
                       "--out", str(tmp_path / "o"))  # fmt: skip
    line = one_error_line(err)
    assert code == 2 and "write 0" not in line, line
    code, _, err = cli(capsys, "tournament", "greedy", "random", "--games", "0",
                       "--out", str(tmp_path / "o"))  # fmt: skip
    assert code == 2 and "at least 1" in one_error_line(err)  # what 'write 0' led to


BROKEN = 'raise RuntimeError("import boom")\n'


def test_a_flag_beside_a_module_game_that_cannot_load_says_why(tmp_path, capsys, monkeypatch):
    (tmp_path / "edge72_broken_game.py").write_text(BROKEN)
    monkeypatch.syspath_prepend(str(tmp_path))
    code, _, err = cli(capsys, "tournament", "greedy", "random", "--game",
                       "edge72_broken_game:Game", "--width", "3", "--out", str(tmp_path / "o"))  # fmt: skip
    line = one_error_line(err)
    assert code == 2 and "import boom" in line, line  # it said "unknown option '--width'"


ADVISED = re.compile(r"set (\w+) (?:to|=) (.+?) in (\S+), or remove ")


@pytest.mark.parametrize("written", ['seating = "all"', 'game = "ligretto"'])
def test_the_value_a_resume_advises_for_a_config_key_is_toml(run, tmp_path, capsys, written):
    config = tmp_path / "c.toml"
    config.write_text(f"[tournament]\n{written}\n")
    code, _, err = cli(capsys, "tournament", "--config", str(config), "--out", str(run),
                       "--resume")  # fmt: skip
    assert code == 2
    key, value, where = ADVISED.search(one_error_line(err)).groups()
    assert where == str(config)
    config.write_text(f"[tournament]\n{key} = {value}\n")  # the advice, followed as written
    tomllib.loads(config.read_text())  # 'seating = balanced': "Invalid value"
    code, _, err = cli(capsys, "tournament", "--config", str(config), "--out", str(run),
                       "--resume", "--jobs", "1")  # fmt: skip
    assert code == 0, err
