"""The smaller commands and the examples at their edges: what 'leaves strategies' says of a
filter key a game's strategies lack, what the win-rate chart example says of the run it draws
(an unfinished run, an expert run, another game's), its bad arguments, and the commands the
examples' docs quote."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.helpers import (
    cli,
    cli_output,
    forget_loaded_files,  # noqa: F401  (a fixture, used by name)
    one_error_line,
    stopped_run,
)

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"
THREE = ["greedy", "low", "high"]


# ------------------------------------------------------------------ leaves strategies
def test_a_filter_on_a_standard_key_lists_every_strategy_without_it(capsys):
    """Ligretto's classifiers held no 'search' key, and '--filter search=false' said "every one
    of its 5 strategies has search=None": every strategy has the standard keys now (false
    unless a class sets them), so none of Ligretto's, which never search, is left out."""
    from strategies import registry

    names = registry.names("ligretto")
    code, out, err = cli(capsys, "strategies", "--game", "ligretto", "--filter", "search=false")
    assert code == 0, err
    assert all(name in out for name in names), out


# ------------------------------------------------------------------ examples
def _chart_module(name: str):
    spec = importlib.util.spec_from_file_location(name, EXAMPLES / "win_rate_chart.py")
    assert spec and spec.loader
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.fixture(scope="module")
def unfinished_run(tmp_path_factory):
    """A run of 4 chunks stopped (as Ctrl-C stops it) once 2 are written."""
    out = tmp_path_factory.mktemp("commands") / "stopped"
    code, _ = stopped_run(out, THREE)
    assert code == 130
    return out


def _chart(monkeypatch, tmp_path, run: Path, capsys) -> tuple[str, str]:
    """(the chart's title, what the script printed) for ``run``."""
    from matplotlib.figure import Figure

    mod = _chart_module("audit4_chart")
    saved: list[Figure] = []
    monkeypatch.setattr(Figure, "savefig", lambda self, *a, **k: saved.append(self))
    mod.main(str(run), str(tmp_path / "c.png"))
    (ax,) = saved[0].axes
    return ax.get_title(), capsys.readouterr().out


@pytest.mark.slow
def test_the_chart_of_an_unfinished_run_names_the_games_it_holds(
    unfinished_run, monkeypatch, tmp_path, capsys
):
    import pandas as pd

    played = len(pd.read_parquet(unfinished_run / "games"))
    assert played < 24
    title, out = _chart(monkeypatch, tmp_path, unfinished_run, capsys)
    assert title == f"Win rate over {played:,} games, {played:,} of 24 games (unfinished)"
    assert out.startswith(f"Unfinished run: {played:,} of 24 games played")


@pytest.mark.slow
@pytest.mark.parametrize("extra, counted", [
    (["--expert", "--games", "4"], "games"),  # matches asked; their games are the units
    (["--game", "ligretto", "--games", "24"], "rounds"),
])  # fmt: skip
def test_the_chart_title_counts_what_the_win_rates_are_over(
    extra, counted, monkeypatch, tmp_path, capsys
):
    """An expert run's spec counts matches and a Ligretto run plays rounds: the title says
    the games (rounds) the win rates are shares of, as the summary counts them."""
    import reports
    import tournaments

    field = ["cycler", "row", "stack"] if "ligretto" in extra else THREE
    out = tmp_path / "run"
    code, _, err = cli_output("tournament", *field, "--players", "3", "--seed", "2",
                              "--jobs", "1", "--out", str(out), *extra)  # fmt: skip
    assert code == 0, err
    summary = reports.summary(tournaments.load(out))
    capsys.readouterr()
    title, _ = _chart(monkeypatch, tmp_path, out, capsys)
    played = int(summary["games"].max())  # every strategy sits at every table here
    assert title == f"Win rate over {played:,} {counted}"


def _script(script: str, cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "MPLBACKEND": "Agg", "PYTHONPATH": str(ROOT),
           "LEAVES_EXAMPLE_GAMES": "24"}  # fmt: skip
    return subprocess.run([sys.executable, str(EXAMPLES / script), *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=120)  # fmt: skip


def _one_line(proc: subprocess.CompletedProcess, script: str) -> str:
    assert proc.returncode != 0 and "Traceback" not in proc.stderr, proc.stderr
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"{script}: error: "), proc.stderr
    return lines[0]


@pytest.mark.slow
def test_the_chart_into_a_folder_that_is_not_there_is_one_line(unfinished_run, tmp_path):
    proc = _script("win_rate_chart.py", tmp_path, str(unfinished_run), "nowhere/c.png")
    line = _one_line(proc, "win_rate_chart.py")
    assert "nowhere/c.png" in line and "Errno" not in line


@pytest.mark.parametrize("script, args", [
    ("run_tournament.py", ["a", "b"]),
    ("win_rate_chart.py", ["a", "b.png", "c"]),
    ("rule_variants.py", ["500"]),
    ("my_strategy.py", ["500"]),
    ("check_my_strategy.py", ["-v"]),
    ("train_reinforce.py", ["500"]),
])  # fmt: skip
def test_an_example_given_more_arguments_than_it_takes_refuses_them(script, args, tmp_path):
    """An argument more than the docstring's usage line takes was silently dropped (and a
    tournament played into the first): now one line, nothing written."""
    line = _one_line(_script(script, tmp_path, *args), script)
    assert "usage:" in line or "takes no arguments" in line
    assert not any(tmp_path.iterdir())


def test_the_commands_the_examples_section_quotes_are_commands():
    """docs/cli.md's list of examples quoted 'leaves leaves/players/play --load'."""
    import click

    from leaves_cli.main import cli as group

    ctx = click.Context(group)
    text = (ROOT / "docs" / "cli.md").read_text()
    section = text[text.index("## Examples (`examples/`") :]
    quoted = re.findall(r"`leaves ([^`\s]+)", section.split("\n## ")[0])
    assert quoted
    for command in quoted:
        assert group.get_command(ctx, command) is not None, command


# ------------------------------------------------------------------ leaves verify
def test_verify_of_a_run_being_played_does_not_advise_the_resume_it_would_refuse(
    unfinished_run, capsys
):
    """While a process holds the run's lock, '--resume' is refused ('another process is
    playing this run'): verify says the run is being played, by whom, not '--resume'."""
    from tournaments import storage

    with storage.run_lock(unfinished_run):
        code, out, err = cli(capsys, "verify", str(unfinished_run))
    assert code == 0, err
    assert out.strip().endswith(
        f"run unfinished: it is being played now (pid {os.getpid()}); verify it again once it ends"
    ), out
    assert "--resume" not in out
    code, out, _ = cli(capsys, "verify", str(unfinished_run))  # killed: a lock nobody holds
    assert code == 0 and out.strip().endswith("run unfinished (--resume finishes it)")


def test_verify_of_a_folder_of_runs_names_the_runs_in_it(unfinished_run, tmp_path, capsys):
    """'leaves variants', 'leaves run --rules' and 'leaves tune' write runs into folders of
    an OUT: verify of that OUT says which runs it holds, to verify each."""
    import shutil

    for name in ("b", "a"):
        shutil.copytree(unfinished_run, tmp_path / name)
    (tmp_path / "notes").mkdir()
    code, _, err = cli(capsys, "verify", str(tmp_path))
    assert code == 2
    assert one_error_line(err) == (
        f"leaves: error: {tmp_path} holds no run itself (no manifest.json); the runs in it: "
        f"{tmp_path / 'a'}, {tmp_path / 'b'}: verify each"
    )


@pytest.mark.usefixtures("forget_loaded_files")
def test_a_file_of_another_games_strategies_names_the_game_option_to_give(capsys):
    code, _, err = cli(capsys, "strategies", "--game", "ligretto", "--load",
                       str(EXAMPLES / "my_strategy.py"))  # fmt: skip
    assert code == 2
    assert one_error_line(err).endswith(
        "(Hoarder is a 13 Leaves strategy): list it with --game leaves"
    )


# ------------------------------------------------------------------ leaves rules
def test_rules_help_names_the_commands_that_take_rules(capsys):
    """'Every command that plays 13 Leaves takes --rules' was false of 'leaves bench' (today's
    rules only): the help names the commands whose options hold --rules."""
    import click

    from leaves_cli.main import cli as group

    ctx = click.Context(group)
    taking = set()
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if any("--rules" in getattr(p, "opts", ()) for p in command.params):
            taking.add(name)
    code, out, _ = cli(capsys, "rules", "--help")
    text = " ".join(out.split())
    assert code == 0 and "Every command that plays" not in text
    listed = re.search(r"The commands (\w+(?:, \w+)*) and (\w+) take --rules", text)
    assert listed, text
    assert {*listed.group(1).split(", "), listed.group(2)} == taking
    assert "(bench times today's rules only)" in text


@pytest.mark.parametrize("game", ["leaves", "ligretto"])
def test_strategies_help_says_where_the_listing_names_the_entry_point_group(game, capsys):
    """The help said the listing's heading names the group: the note under the table does."""
    from strategies.registry import entry_point_group

    code, out, _ = cli(capsys, "strategies", "--help")
    help_text = " ".join(out.split())
    assert code == 0 and "heading names it" not in help_text
    assert "(the note under its table names it)" in help_text
    code, out, _ = cli(capsys, "strategies", "--game", game)
    table, note = " ".join(out.split()).split("Use a strategy by name")
    group = entry_point_group(game)
    assert code == 0 and group not in table and group in note


FANCY = """from strategies import Strategy


class Fancy(Strategy):
    description = "an unregistered strategy with a classifier key of its own"
    register = False
    classifier = {"fancy": True}

    def choose(self, view, legal, rng):
        return legal[0]
"""


@pytest.mark.usefixtures("forget_loaded_files")
def test_a_filter_on_a_key_only_a_loaded_files_class_has_lists_it(tmp_path, capsys):
    """'--load fancy.py --filter fancy=true' was refused as an unknown key, though the file's
    class (listed by its spec) has it; a key no class has is still refused."""
    path = tmp_path / "fancy.py"
    path.write_text(FANCY)
    code, out, err = cli(capsys, "strategies", "--load", str(path), "--filter", "fancy=true",
                         "--names")  # fmt: skip
    assert code == 0, err
    assert out.split() == [f"{path}:Fancy"]
    code, _, err = cli(capsys, "strategies", "--load", str(path), "--filter", "fancy=false")
    assert code == 1 and "no strategy of 13 Leaves matches fancy=false" in one_error_line(err)
    code, _, err = cli(capsys, "strategies", "--load", str(path), "--filter", "fancy=true",
                       "--filter", "nokey=1")  # fmt: skip
    assert code == 2 and "unknown classifier key 'nokey'" in one_error_line(err)


# ------------------------------------------------------------------ leaves bench
class _Clock:
    """A clock that moves one second between any two readings: every timed stretch is 1 s."""

    def __init__(self):
        self.wall = self.cpu = 0.0

    def perf_counter(self) -> float:
        self.wall += 1.0
        return self.wall

    def process_time(self) -> float:
        self.cpu += 1.0
        return self.cpu


@pytest.mark.parametrize("game, module, unit", [
    ("leaves", "leaves.bench", "games"), ("ligretto", "ligretto.bench", "rounds"),
])  # fmt: skip
def test_bench_figures_are_units_per_second_of_what_it_timed(game, module, unit, capsys,
                                                             monkeypatch):  # fmt: skip
    """With each timed stretch one second long, a rate is the count timed: the table's and
    the JSON's figures are per second of what the row says it timed."""
    import importlib
    import json

    monkeypatch.setattr(importlib.import_module(module), "time", _Clock())
    args = ["bench", "--game", game, "--games", "40", "--api-games", "3", "--repeats", "2"]
    code, out, err = cli(capsys, *args, "--json")
    assert code == 0, err
    figures = json.loads(out)
    assert figures[f"{unit}_per_second"] == 40 and figures[f"api_{unit}_per_second"] == 3
    assert figures[f"{unit}_per_second_runs"] == [40, 40]
    code, out, err = cli(capsys, *args)
    assert code == 0, err
    rows = [line for line in out.splitlines() if "│" in line]
    compiled, api = (re.split(r"\s*│\s*", r.strip("│ ")) for r in rows[-2:])
    assert compiled[1:3] == ["40 x 2", "40"] and api[1] == "3"
    assert float(api[2]) == 3
    if unit == "games":  # turns a second: the games' mean turns times the games a second
        assert compiled[3] == f"{40 * figures['mean_turns']:,.0f}"
