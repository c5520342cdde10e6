"""What a precision run and a sequential gauntlet print is what works when followed to the
letter: a precision resume with nothing to do names the --max-games (or --precision) that
plays on, not --add, which --precision refuses; the command a stopped precision run names
continues it within the cap it began with; the report of a
sequential gauntlet nobody won says the command's own sentence, not a test that reached
--max-games; docs/tournaments.md says each, in the words and figures the commands use."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from tests.helpers import (
    SMALL_RUN,
    cli,
    cli_output,
    ctrl_c_after_two_chunks,
    dead_worker_after_two_chunks,
    doc_says,
    doc_text,
    named_command,
)

PAGE = "tournaments.md"
BEGIN = SMALL_RUN
"""A small precision tournament: 6 games a deal (one table of 3, 6 seatings)."""
GROWN = (*BEGIN, "--games", "30", "--precision", "0.1", "--max-games", "120")
"""It grows, stage by stage, to its cap: 120 games (20 deals), its target never reached."""
NOTHING = "Nothing to do: {out} already holds all {games} games of this run (every chunk "
NOTHING += "verified, none played again); "


def _spec(out: Path) -> dict:
    return json.loads((out / "manifest.json").read_text())["spec"]


@pytest.fixture(autouse=True)
def _env(monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # the CLI sets it


@pytest.fixture(scope="module")
def grown(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("grown") / "run"
    code, _, err = cli_output(*GROWN, "--out", str(out))
    assert code == 0, err
    assert _spec(out)["n_games"] == 120
    return out


@pytest.fixture
def run(grown, tmp_path) -> Path:
    """A copy of the grown run, to resume."""
    return Path(shutil.copytree(grown, tmp_path / "run"))


def _resume(capsys, out: Path, *args: str) -> tuple[str, str]:
    """(stdout, stderr) of a precision resume of ``out`` with ``args`` (exit 0)."""
    code, said, err = cli(capsys, "tournament", "--out", str(out), "--resume", *args,
                          "--jobs", "1")  # fmt: skip
    assert code == 0, err
    return said, err


def _plays_on(said: str, out: Path, games: int = 120) -> str:
    """What the "Nothing to do" line says grows the run."""
    head = NOTHING.format(out=out, games=games)
    line = next(x for x in said.splitlines() if x.startswith("Nothing to do"))
    assert line.startswith(head), line
    return line.removeprefix(head)


def _widest(out: Path) -> float:
    from leaves_cli.sequential import widest_half_width

    return widest_half_width(SimpleNamespace(out=out))


def test_a_precision_run_at_its_cap_names_the_cap_that_plays_on(run, capsys):
    said, _ = _resume(capsys, run, "--precision", "0.1", "--max-games", "120")
    advice = _plays_on(said, run)
    assert advice == ("--max-games (120) leaves room for no further deal: --max-games 126 or "
                      "more plays on")  # fmt: skip
    assert "--add" not in said
    said, _ = _resume(capsys, run, "--precision", "0.1", "--max-games", "125")
    assert _plays_on(said, run) == advice.replace("(120)", "(125)")  # 126 is the least that plays
    assert _spec(run)["n_games"] == 120
    more = re.search(r": (--max-games \d+) or more plays on$", advice)[1].split()
    said, err = _resume(capsys, run, "--precision", "0.1", *more)  # the advice, to the letter
    assert _spec(run)["n_games"] == 126 and "6 of 126 games in" in said and "Nothing" not in said


def test_the_default_cap_is_named_as_the_default(run, capsys, monkeypatch):
    from leaves_cli import sequential

    monkeypatch.setattr(sequential, "PRECISION_MAX_GAMES", 120)
    said, _ = _resume(capsys, run, "--precision", "0.1")
    assert _plays_on(said, run) == ("the default --max-games (120) leaves room for no further "
                                  "deal: --max-games 126 or more plays on")  # fmt: skip


@pytest.mark.parametrize(
    ("cap", "room"),
    [("120", " and --max-games (120) leaves room for no further deal"), ("200", "")],
)
def test_a_precision_run_at_its_target_names_a_precision_that_plays_on(run, capsys, cap, room):
    widest = _widest(run)
    assert 8 < widest < 10  # --precision 10 is reached
    said, _ = _resume(capsys, run, "--precision", "10", "--max-games", cap)
    advice = _plays_on(said, run)
    found = re.fullmatch(r"--precision 10 is reached(.*): --precision ([\d.]+) or less"
                         r"( with --max-games (\d+) or more)? plays on", advice)  # fmt: skip
    assert found and found[1] == room, advice
    below = float(found[2])
    assert below < widest <= below + 0.01  # the most at two decimals that plays on
    follow = ["--precision", found[2], "--max-games", found[4] or cap]
    said, _ = _resume(capsys, run, *follow)
    assert "Nothing to do" not in said and _spec(run)["n_games"] > 120


@pytest.mark.parametrize("x", [8.0637, 8.05, 8.0561, 12.0, 0.5, 0.005, 3e-7])
def test_a_precision_below_a_width_is_below_it_as_typed(x):
    from leaves_cli.tournament_cmd import _below

    said = _below(x)
    digits = len(said.split(".")[1])
    assert float(said) < x <= float(said) + 10**-digits + 1e-12, said
    assert digits == 2 or x < 1


@pytest.mark.parametrize(
    ("stop", "code", "said"),
    [
        (ctrl_c_after_two_chunks, 130, "interrupted: '(.*)' continues it"),
        (dead_worker_after_two_chunks, 1, r"every finished chunk is kept: '(.*)' continues it"),
    ],
)  # fmt: skip
def test_the_command_a_stopped_precision_run_names_keeps_its_cap(tmp_path, capsys, monkeypatch,
                                                                 stop, code, said):  # fmt: skip
    from leaves_cli import sequential

    monkeypatch.setattr(sequential, "PRECISION_MAX_GAMES", 240)  # a resume without the cap: 240
    out = tmp_path / "run"
    with stop():
        stopped, _, err = cli(capsys, *GROWN, "--chunk-size", "6", "--out", str(out))
    assert stopped == code and _spec(out)["n_games"] == 30, err
    command = named_command(said, err)
    assert command[:2] == ["leaves", "tournament"]
    finished, stdout, err = cli(capsys, *command[1:], "--jobs", "1")  # as printed
    assert finished == 0, err
    assert _spec(out)["n_games"] == 120
    assert "NOT reached (cap on games): 120 games," in stdout


def test_the_docs_say_a_stopped_precision_run_s_command_as_the_command_does(tmp_path, capsys):
    quoted = doc_says(PAGE, r"\(`(interrupted: 'leaves tournament --out runs/p [^`]*)`\)")[1]
    precision, cap = re.search(r"--precision (\S+) --max-games (\d+)", quoted).groups()
    out = tmp_path / "p"
    with ctrl_c_after_two_chunks():
        code, _, err = cli(capsys, *BEGIN, "--games", "30", "--chunk-size", "6", "--precision",
                           precision, "--max-games", cap, "--out", str(out))  # fmt: skip
    assert code == 130
    assert quoted.replace("runs/p", str(out)) in err.splitlines(), err


def test_the_docs_say_the_cap_that_plays_on_as_the_command_does(run, capsys):
    per, advised, held = doc_says(
        PAGE, r"at (\d+) games a deal, `--max-games (\d+) or more` for a run of (\d+)"
    ).groups()
    assert (int(per), int(held)) == (6, _spec(run)["n_games"])
    said, _ = _resume(capsys, run, "--precision", "0.1", "--max-games", held)
    assert _plays_on(said, run).endswith(f": --max-games {advised} or more plays on")
    text = doc_text(PAGE)
    assert "(`--add` is refused beside `--precision`)" in text
    code, _, err = cli(capsys, "tournament", "--out", str(run), "--resume", "--precision", "0.1",
                       "--add", "6")  # fmt: skip
    assert code == 2 and "--add and --precision: give one" in err


GAUNTLET = ("gauntlet", "greedy", "--against", "low", "--players", "3", "--jobs", "1",
            "--sequential", "--games", "12", "--turn-limit", "1")  # fmt: skip
"""A sequential gauntlet nobody wins: every game stops at its first turn."""


@pytest.fixture(scope="module")
def nobody(tmp_path_factory) -> tuple[Path, str, str]:
    """(the folder, stdout, stderr) of a sequential gauntlet in which no game was won."""
    out = tmp_path_factory.mktemp("nobody") / "run"
    code, said, err = cli_output(*GAUNTLET, "--max-games", "600", "--out", str(out))
    assert code == 0, err
    return out, said, err


def test_the_report_of_a_sequential_gauntlet_nobody_won_says_the_command_s_sentence(nobody,
                                                                                    capsys):  # fmt: skip
    out, said, _ = nobody
    sentence = json.loads((out / "manifest.json").read_text())["sequential"]["sentence"]
    assert sentence in said.splitlines() and "weighed nothing" in sentence
    code, report, err = cli(capsys, "report", str(out), "--out", str(out.parent / "report"))
    assert code == 0, err
    assert sentence in report, report
    assert "reached --max-games" not in report and "no LLR" not in report, report


def _answer(out: Path, **record) -> str:
    """The report's verdict on the gauntlet in ``out`` with its test's record changed (a run
    of an earlier version), or removed where ``record`` is None."""
    import reports
    from reports.gauntlet import answer

    path = out / "manifest.json"
    manifest = json.loads(path.read_text())
    if record.pop("removed", False):
        del manifest["sequential"]
    else:
        manifest["sequential"].update(record)
    path.write_text(json.dumps(manifest))
    return answer(reports.gauntlet(out))[1][-1]


def test_a_test_an_earlier_version_decided_on_no_wins_is_said_not_comparable(nobody, tmp_path):
    out = Path(shutil.copytree(nobody[0], tmp_path / "run"))
    said = _answer(out, decision="not_better", llr=None, sentence="greedy is not better")
    assert said == ("None of the 24 games was won, by either side or the field, so both win "
                    "rates are 0 and greedy and weighted cannot be compared.")  # fmt: skip


def test_a_test_stopped_in_its_first_batch_nobody_won_says_how_to_continue(nobody, tmp_path):
    out = Path(shutil.copytree(nobody[0], tmp_path / "run"))
    said = _answer(out, removed=True)
    assert said.startswith("Not decided yet whether greedy is better than weighted: ")
    assert f"'leaves gauntlet --resume --out {out}' continues it" in said


def test_the_docs_say_a_batch_nobody_won_stops_the_test_as_the_command_does(nobody):
    _, said, err = nobody
    line = doc_says(PAGE, r"\(`(batch 1: 12 games per side, none won [^`]*)`\)")[1]
    assert line in err.splitlines(), err
    quoted = doc_says(PAGE, r"The sentence says so \(\"(Undecided whether SPEC [^\"]*)\"\)")[1]
    sentence = said.splitlines()[1]
    for piece in quoted.replace("SPEC", "greedy").replace("the baseline", "weighted").split("..."):
        assert piece.strip(" ;,") in sentence, piece
    assert "`leaves report` says the same" in doc_text(PAGE)


def test_the_docs_say_max_games_defaults_to_games_where_larger(tmp_path, capsys, monkeypatch):
    from leaves_cli import sequential

    doc_says(PAGE, r"where `--games` is larger, `--max-games` defaults to `--games`")
    monkeypatch.setattr(sequential, "SEQUENTIAL_MAX_GAMES", 6)  # below --games 12
    out = tmp_path / "run"
    code, _, err = cli(capsys, *GAUNTLET, "--out", str(out))
    assert code == 0, err
    assert _spec(out)["gauntlet"]["sequential"]["max_games"] == 12
