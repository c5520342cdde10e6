"""Where a run stands is said first: unfinished, partly forfeited, nothing valid; a resume with
nothing to play says so; the summary carries the report's intervals and names the next command.

Each truth comes from the run's own files (its rows, forfeits.json), never from the code that
writes the sentence: a run stopped after two of its four chunks, a strategy that raises
(``tests/boom_strategy.py``) at every table or at some of them.
"""

from __future__ import annotations

import html
import json
import shlex
import shutil
from pathlib import Path

import pandas as pd
import pytest

from tests.helpers import cli, cli_output, stopped_run

BOOM = str(Path(__file__).with_name("boom_strategy.py")) + ":Boom"
THREE = ["greedy", "low", "random"]


def _rows(out: Path) -> pd.DataFrame:
    return pd.read_parquet(out / "games", columns=["game", "forfeit_seat"])


def _quoted(line: str, start: str) -> list[str]:
    """The arguments of the command quoted in ``line`` ('leaves ...'), without 'leaves'."""
    command = line[line.index(f"'{start}") + 1 :].split("'")[0]
    return shlex.split(command)[1:]


# ------------------------------------------------------------------ unfinished
@pytest.fixture(scope="module")
def interrupted(tmp_path_factory):
    """A run of 4 chunks stopped (as Ctrl-C stops it) once 2 are written."""
    from tournaments.runner import Tournament

    out = tmp_path_factory.mktemp("states") / "stopped"
    code, err = stopped_run(out, THREE)
    assert code == 130 and f"'leaves tournament --out {out} --resume' continues it" in err
    planned = Tournament(THREE, players=3, games=24, seed=1, chunk_size=6).n_games
    return out, planned


@pytest.mark.slow
def test_an_unfinished_run_says_so_first_in_the_terminal_and_the_report(interrupted, capsys):
    out, planned = interrupted
    played = len(_rows(out))
    assert 0 < played < planned  # the truth: the rows the run holds
    line = (
        f"Unfinished run: {played:,} of {planned:,} games played "
        f"({100 * played / planned:.1f}%), and every result covers those only; continue it "
        f"with 'leaves tournament --resume --out {out}'."
    )
    code, stdout, err = cli(capsys, "report", str(out))
    assert code == 0, err
    lines = stdout.splitlines()
    assert lines[0] == line and lines[1] == "Key findings:" and f"- {line}" not in lines
    assert (out / "report" / "findings.txt").read_text().splitlines()[0] == line
    page = (out / "report" / "report.html").read_text()
    assert page.index(html.escape(line)) < page.index("<h2>Summary</h2>")
    assert f"<dt>played</dt><dd>{played} of {planned} games (unfinished)</dd>" in page
    summary = pd.read_csv(out / "report" / "summary.csv")
    assert summary["games"].sum() == 3 * played  # the results cover the games played only


def test_the_unfinished_runs_advice_finishes_it(interrupted, tmp_path, capsys):
    from tournaments.run_state import run_state

    out, planned = interrupted
    copy = tmp_path / "copy"  # the advice, followed on a copy (the other tests keep the run)
    shutil.copytree(out, copy)
    (line,) = run_state(copy).lines()
    code, stdout, err = cli(capsys, *_quoted(line, "leaves tournament"))
    assert code == 0, err
    assert len(_rows(copy)) == planned and run_state(copy).lines() == []
    assert stdout.startswith("Tournament summary")


def test_a_ctrl_c_as_the_resume_starts_names_the_command_that_continues(
    interrupted, tmp_path, capsys, monkeypatch
):
    """From its first line on (the design, the rules, the seed), an interrupted resume says
    how to continue, and the run is left as it was."""
    import leaves_cli.tournament_cmd as cmd

    out, _ = interrupted
    copy = tmp_path / "copy"
    shutil.copytree(out, copy)
    before = len(_rows(copy))

    def ctrl_c(*_args):
        raise KeyboardInterrupt

    monkeypatch.setattr(cmd, "_echo_start", ctrl_c)
    code, stdout, err = cli(capsys, "tournament", "--resume", "--out", str(copy), "--jobs", "1")
    assert code == 130 and stdout == ""
    lines = [line for line in err.splitlines() if line]
    assert lines == [
        f"interrupted: 'leaves tournament --out {copy} --resume' continues it",
        "leaves: error: interrupted",
    ]
    assert len(_rows(copy)) == before


# ------------------------------------------------------------------ forfeits
@pytest.fixture(scope="module")
def all_forfeited(tmp_path_factory):
    out = tmp_path_factory.mktemp("states") / "boom"
    args = ["tournament", BOOM, "greedy", "random", "--players", "3", "--games", "12", "--seed",
            "1", "--jobs", "1", "--out", str(out)]  # fmt: skip
    return (out, *cli_output(*args))


def _first_forfeit(out: Path) -> tuple[int, str]:
    rows = _rows(out)
    game = int(rows.loc[rows["forfeit_seat"] >= 0, "game"].min())
    (detail,) = [f for f in json.loads((out / "forfeits.json").read_text()) if f["game"] == game]
    return game, detail["error"]


@pytest.mark.slow
def test_a_run_where_every_game_was_forfeited_says_so_first_and_exits_1(all_forfeited, capsys):
    out, code, stdout, stderr = all_forfeited
    rows = _rows(out)
    assert (rows["forfeit_seat"] >= 0).all()  # the truth: every row ended by a forfeit
    game, error = _first_forfeit(out)
    line = (
        f"Nothing valid: all {len(rows)} games ended by a forfeit (the first, game {game}: "
        f"{error}), so no result says anything about the strategies; replay it with "
        f"'leaves replay {out} --game {game}', fix the strategy and play the run again."
    )
    assert code == 1 and stdout.splitlines()[0] == line
    assert stderr.splitlines()[-1] == (
        f"leaves: error: no valid game in {out}: every one ended by a forfeit"
    )
    assert "next: " not in stdout  # no report is worth asking for
    code, stdout, err = cli(capsys, "report", str(out))
    assert code == 1 and stdout.splitlines()[0] == line
    assert (out / "report" / "findings.txt").read_text().splitlines()[0] == line
    assert err.startswith(f"leaves: error: no valid game in {out}") and err.count("\n") == 1
    code, shown, err = cli(capsys, *_quoted(line, "leaves replay"), "--all")
    assert code == 0, err
    assert f"Game {game} of run {out}" in shown and "forfeited: " in shown


def test_a_partly_forfeited_run_says_so_first(tmp_path, capsys):
    out = tmp_path / "part"  # Boom sits at three of the four tables of four strategies
    code, stdout, err = cli(capsys, "tournament", BOOM, *THREE, "--players", "3", "--games",
                            "24", "--seed", "1", "--jobs", "1", "--out", str(out))  # fmt: skip
    # Boom forfeits every game it plays: the run's other games stand, but nothing says
    # anything about Boom, and the run ends with that error
    assert code == 1 and err.endswith(
        f"leaves: error: no valid game of Boom in {out}: every one played ended by its own "
        "forfeit\n"
    ), err
    rows = _rows(out)
    lost = int((rows["forfeit_seat"] >= 0).sum())
    assert 0 < lost < len(rows)
    game, error = _first_forfeit(out)
    line = (
        f"Partly forfeited: {lost} of {len(rows)} games ({100 * lost / len(rows):.1f}%) ended "
        f"by a forfeit (the first, game {game}: {error}); a forfeited game has no winner, so it "
        f"counts as lost by every seat at its table, the forfeiting one included; replay it "
        f"with 'leaves replay {out} --game {game}'."
    )
    assert stdout.splitlines()[0] == line
    assert stdout.splitlines()[1] == (
        f"Nothing valid from Boom: it forfeited all {lost} of its games, so no result says "
        "anything about it; fix the strategy and play the run again."
    )
    assert stdout.index(line) < stdout.index("Tournament summary")


# ------------------------------------------------------------------ summary and resume
def _row(stdout: str, strategy: str) -> str:
    (row,) = [r for r in stdout.splitlines() if r.startswith(f"│ {strategy} ")]
    return row


@pytest.mark.slow
def test_the_summary_says_its_intervals_and_the_next_command(tmp_path, capsys):
    out = tmp_path / "run"
    run = [*THREE, "--players", "3", "--seed", "2", "--jobs", "1", "--out", str(out)]
    code, _, err = cli(capsys, "tournament", *run, "--games", "12", "--resume")
    assert code == 2 and not out.exists()  # --resume where there is no run: refused
    assert err == (f"leaves: error: cannot resume {out}: it holds no run (no manifest.json); "
                   "leave out --resume to start one there\n")  # fmt: skip
    code, stdout, err = cli(capsys, "tournament", *run, "--games", "12")  # as it says
    assert code == 0, err
    assert "95% interval" not in stdout  # 2 deals: too few for any interval, said in words
    small = (
        "no intervals: too few deals for an interval yet; play more games (--resume --add GAMES)"
    )
    assert small in stdout.splitlines()
    # a resume with nothing to play says so, first; nothing is played
    code, stdout, err = cli(capsys, "tournament", "--resume", "--out", str(out), "--jobs", "1")
    assert code == 0, err
    assert stdout.splitlines()[0] == (
        f"Nothing to do: {out} already holds all 12 games of this run (every chunk verified, "
        "none played again); --add GAMES or --games N grows it"
    )
    assert "0 of 12 games in " in stdout and len(_rows(out)) == 12
    # as the line said: more games, and the intervals come
    code, stdout, err = cli(capsys, "tournament", "--resume", "--add", "36", "--out", str(out),
                            "--jobs", "1")  # fmt: skip
    assert code == 0, err
    assert "36 of 48 games in " in stdout and len(_rows(out)) == 48
    last = stdout.splitlines()[-1]
    page = out / "report" / "report.html"
    assert last == f"next: 'leaves report {out}' writes its report ({page}) and key findings"
    code, _, err = cli(capsys, *_quoted(last, "leaves report"))
    assert code == 0 and page.is_file(), err
    summary = pd.read_csv(out / "report" / "summary.csv")
    for r in summary.itertuples():  # the report's own interval of each win rate
        row = _row(stdout, r.strategy)
        assert f"{100 * r.win_rate:.1f}%" in row
        assert f"[{100 * r.ci_low:.1f}, {100 * r.ci_high:.1f}]" in row


def test_resume_into_an_empty_folder_is_refused(tmp_path, capsys):
    empty = tmp_path / "empty"
    empty.mkdir()
    code, stdout, err = cli(capsys, "tournament", *THREE, "--players", "3", "--games", "12",
                            "--resume", "--out", str(empty))  # fmt: skip
    assert code == 2 and stdout == "" and list(empty.iterdir()) == []
    assert err.startswith(f"leaves: error: cannot resume {empty}: it holds no run")
    assert err.count("\n") == 1


@pytest.mark.slow
def test_a_report_of_nothing_valid_claims_nothing_else(all_forfeited, capsys):
    """Every game ended by a forfeit: the report's findings are that sentence alone (no best
    strategy, no seat or length finding drawn from forfeited games)."""
    out, *_ = all_forfeited
    code, stdout, _ = cli(capsys, "report", str(out))
    assert code == 1
    findings = (out / "report" / "findings.txt").read_text().splitlines()
    assert len(findings) == 1 and findings[0].startswith("Nothing valid: all ")
    assert "best strategy" not in stdout and "highest" not in stdout
    assert "Key findings" not in stdout  # its one finding is said first: no empty header


@pytest.mark.slow
def test_a_report_counts_partial_forfeits_once(tmp_path, capsys):
    """A partly forfeited run: the report's caution counts the forfeits by strategy, and the
    terminal's first line is not said a second time beside it."""
    out = tmp_path / "part"
    code, _, err = cli(capsys, "tournament", BOOM, *THREE, "--players", "3", "--games", "24",
                       "--seed", "1", "--jobs", "1", "--out", str(out), "--no-progress")  # fmt: skip
    assert code == 1 and "no valid game of Boom" in err, err  # Boom forfeits all it plays
    lost = int((_rows(out)["forfeit_seat"] >= 0).sum())
    code, stdout, err = cli(capsys, "report", str(out))
    assert code == 1 and err.startswith(f"leaves: error: no valid game of Boom in {out}"), err
    findings = (out / "report" / "findings.txt").read_text()
    first, caution = findings.splitlines()[:2]
    assert first.startswith("Nothing valid from Boom: it forfeited all ")
    assert caution.startswith("Caution: ") and f"{lost:,} of " in caution
    assert "Partly forfeited" not in findings and "Partly forfeited" not in stdout
