"""A run another version played is not a "corrupt manifest": an older version's run (without
``spec.deal_stages``) and a newer one's (a seating design or a table size this version does not
know) are said to be so, alike by the library's resume, the command line's, verify and
replay; and ``leaves compare`` refuses a run without rows before any line of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from leaves_cli.verify_cmd import NO_MANIFEST
from tests.helpers import cli, copied_run, one_error_line
from tournaments import Tournament

NAMES = ["greedy", "random"]
OLDER = ("the run was played by an older version (its manifest has no spec.deal_stages, which "
         "this version resumes by)")  # fmt: skip
SPIRAL = ("the run was played under seating 'spiral', which this version does not know (it "
          "knows balanced, all, rotations)")  # fmt: skip
NINE = "the run was played with 9 players, which this version's 13 Leaves does not seat (3 to 6)"
ADVICE = "resume it with the version that played it"


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A small complete run of 13 Leaves (2 chunks)."""
    out = tmp_path_factory.mktemp("manifest64") / "run"
    Tournament(NAMES, games=8, seed=3, chunk_size=4).run(out=out)
    return out


def _older(m: dict) -> None:
    """As the first version wrote it: no deal stages (nor streams); unfinished."""
    del m["spec"]["deal_stages"], m["spec"]["deal_streams"]
    m["status"] = "interrupted"


def _newer(field: str, value: object):
    def edit(m: dict) -> None:
        m["spec"][field] = value
        m["status"] = "interrupted"

    return edit


CASES = [(_older, OLDER), (_newer("seating", "spiral"), SPIRAL), (_newer("players", [9]), NINE)]
IDS = ["older", "seating", "players"]


@pytest.mark.parametrize("edit, why", CASES, ids=IDS)
def test_a_resume_says_another_version_played_the_run_not_that_it_is_corrupt(
    run, tmp_path, capsys, edit, why
):
    """It said 'corrupt manifest ...: spec.deal_stages is missing' (an older version's run),
    'spec.seating is 'spiral', expected ...' and 'spec.players holds 9' (a newer one's); the
    library said 'a different tournament' of the newer ones."""
    other = copied_run(run, tmp_path, edit)
    code, _, err = cli(capsys, "tournament", "--out", str(other), "--resume")
    said = one_error_line(err)
    assert code == 1 and said == f"leaves: error: cannot resume {other}: {why}; {ADVICE}"
    with pytest.raises(ValueError) as caught:
        Tournament(NAMES, games=8, seed=3, chunk_size=4).run(out=other, resume=True)
    assert str(caught.value) == f"cannot resume {other}: {why}; {ADVICE}"


@pytest.mark.parametrize("edit, why", CASES, ids=IDS)
def test_verify_says_this_version_cannot_resume_the_run_and_names_no_bad_file(
    run, tmp_path, capsys, monkeypatch, edit, why
):
    monkeypatch.setenv("COLUMNS", "400")
    other = copied_run(run, tmp_path, edit)
    code, out, err = cli(capsys, "verify", str(other))
    assert code == 1 and out == ""
    assert one_error_line(err) == (f"leaves: error: this version cannot resume {other}: {why}; "
                                   f"{ADVICE}")  # fmt: skip


def test_a_damaged_field_is_still_called_corrupt(run, tmp_path, capsys):
    """What is said of another version's run is not said of a field the first version wrote."""

    def damaged(m: dict) -> None:
        del m["spec"]["seed"]
        m["status"] = "interrupted"

    bad = copied_run(run, tmp_path, damaged)
    code, _, err = cli(capsys, "tournament", "--out", str(bad), "--resume")
    assert code == 1 and one_error_line(err) == (
        f"leaves: error: cannot resume {bad}: corrupt manifest {bad / 'manifest.json'}: "
        f"spec.seed is missing, expected a whole number of at least 0; {NO_MANIFEST}"
    )


def test_replay_says_the_runs_table_size_is_a_newer_versions(run, tmp_path, capsys):
    other = copied_run(run, tmp_path, _newer("players", [9]))
    code, _, err = cli(capsys, "replay", str(other), "--game", "0")
    assert code == 1 and one_error_line(err) == f"leaves: error: {other}: {NINE}"


def test_replay_plays_a_game_of_a_run_under_a_seating_this_version_does_not_know(
    run, tmp_path, capsys
):
    """One game replays from its row: how the run seated its tables is not needed."""
    other = copied_run(run, tmp_path, _newer("seating", "spiral"))
    code, _, err = cli(capsys, "replay", str(other), "--game", "0")
    assert code == 0, err


def test_compare_refuses_a_run_without_rows_before_any_line_of_its_own(run, tmp_path, capsys):
    """It printed 'A: ...' and 'B: ...' first, then refused the run."""
    norows = tmp_path / "norows"
    Tournament(NAMES, games=8, seed=3, chunk_size=4, rows=False).run(out=norows)
    code, out, err = cli(capsys, "compare", str(run), str(norows))
    assert code == 1 and out == ""
    assert one_error_line(err).startswith(f"leaves: error: {norows} kept no per-game rows")


def test_a_library_resume_under_other_rules_says_the_runs_differ_not_a_newer_version(tmp_path):
    """A run seating 2 under its own rules, resumed by a tournament of today's rules (which
    seat 3 to 6): it said this version does not seat 2 and to resume with the version that
    played it, though this version seats 2 under the run's rules."""
    from leaves.plugin import LeavesGame

    rules = "players=2-6,hand_size=2:13/3:12/4:11/5:10/6:9"
    out = tmp_path / "two"
    game = LeavesGame(rules=rules)
    Tournament(["greedy", "random"], game=game, players=2, games=8, seed=1).run(out=out)
    with pytest.raises(ValueError) as exc:
        Tournament(["greedy", "random"], players=3, games=8, seed=1).run(out=out, resume=True)
    assert "does not seat" not in str(exc.value) and "different tournament" in str(exc.value)
    again = Tournament(["greedy", "random"], game=LeavesGame(rules=rules), players=2, games=8,
                       seed=1).run(out=out, resume=True)  # fmt: skip
    assert again is not None  # its own rules resume it


@pytest.mark.parametrize("edit, why", CASES, ids=IDS)
def test_report_advises_no_resume_that_verify_and_the_resume_refuse(
    run, tmp_path, capsys, monkeypatch, edit, why
):
    """A run another version played, with a chunk missing: report said "... is bad: missing;
    'leaves tournament --out X --resume' replays it", a resume the resume refuses."""
    monkeypatch.setenv("COLUMNS", "400")
    other = copied_run(run, tmp_path, edit)
    next(other.glob("games/*.parquet")).unlink()
    code, _, err = cli(capsys, "report", str(other), "--out", str(tmp_path / "r"))
    line = one_error_line(err)
    assert code != 0 and "--resume" not in line, line
    assert line.endswith(f"this version cannot resume {other}: {why}; {ADVICE}"), line
