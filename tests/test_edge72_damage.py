"""A folder of a command damaged one way at a time (a file cut short, emptied, replaced,
removed, a directory in its place, valid JSON of the wrong shape), then resumed, reported or
verified: one line saying what is wrong and what to do, or a repair that loses nothing.

A saved tuning with a directory where a state file belongs played a generation and then
failed to save it, naming the other file (``tune-state.pkl: Is a directory`` for the
previous one's folder); a comparison's ``variants.json`` that is a directory was said to be
missing (and a resume given its options again played on, then failed to write it); one of
the wrong shape was refused with nothing to do; and a rule set's designers' files recorded
as text said ``AttributeError`` (as a list, they were taken as none recorded: a missing file
left the rule set's measures out of the report, said nowhere); a directory where a rule set's
designers' file belongs failed once the measures were replayed, in the system's words
(``designer_games.csv: Is a directory``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from leaves.commands.variants_resume import STATE, designer_kept, read_state, record_designer
from leaves_cli.errors import CLIError
from reports.designer_measures import GAMES_FILE
from tests.helpers import cli, one_error_line
from tournaments import storage
from tuning import checkpoint as ck

TUNE = ["tune", "weighted", "--against", "low", "--players", "3", "--budget", "540",
        "--popsize", "4", "--candidate-games", "36", "--verify-games", "36", "--seed", "1",
        "--jobs", "1", "--no-progress", "--resume"]  # fmt: skip
"""A tuning's resume; the folder is added (its arguments are never compared: the state
files are refused first)."""


def _saved(out: Path) -> None:
    """A saved tuning in ``out``: its latest state and the one before, as saves leave them."""
    out.mkdir()
    for generation in (1, 2):
        ck.save(out, ck.State(arguments={}, es=None, generations=3, generation=generation))


@pytest.mark.parametrize("name", [ck.STATE, ck.PREVIOUS])
def test_a_directory_where_a_tuning_saves_its_state_is_refused_before_anything_plays(
    tmp_path, capsys, name
):
    out = tmp_path / "t"
    _saved(out)
    (out / name).unlink()
    (out / name).mkdir()
    with pytest.raises(ck.StateError) as exc:
        ck.load(out)
    assert str(exc.value) == (f"cannot resume {out}: {out / name} is a directory, where the "
                              "tuning saves its state: remove it, then resume again")  # fmt: skip
    code, _, err = cli(capsys, *TUNE, "--out", str(out))
    assert code == 1 and one_error_line(err) == f"leaves: error: {exc.value}"


def _runs(out: Path, *names: str) -> None:
    """Rule sets' runs in the comparison folder ``out``, by their manifests alone."""
    for name in names:
        (out / name).mkdir(parents=True)
        spec = {"seed": 1, "players": [3], "games_asked": 6, "expert": False}
        (out / name / storage.MANIFEST).write_text(json.dumps({"spec": spec}))


REMADE = ("remove it, then resume with the comparison's options given again (its strategies, "
          "--rules or --sweep, and the others it was played with), which make it again from "
          "its runs")  # fmt: skip


def test_a_directory_in_place_of_variants_json_is_said_to_be_one(tmp_path, capsys):
    out = tmp_path / "v"
    _runs(out, "default", "hand_size=9")
    (out / STATE).mkdir()
    with pytest.raises(CLIError) as exc:
        read_state(out)
    said = (f"cannot resume {out}: {out / STATE} is a directory, where the comparison keeps "
            f"its state: {REMADE}")  # fmt: skip
    assert exc.value.message == said
    code, _, err = cli(capsys, "variants", "--out", str(out), "--resume", "--no-progress")
    assert code == 1 and one_error_line(err) == f"leaves: error: {said}"


def test_a_directory_in_place_of_variants_json_alone_is_advised_a_new_comparison(tmp_path):
    out = tmp_path / "v"
    (out / STATE).mkdir(parents=True)
    with pytest.raises(CLIError) as exc:
        read_state(out)
    assert exc.value.message.endswith("state: remove it, then leave out --resume to start one "
                                      "there")  # fmt: skip


@pytest.mark.parametrize("text", ["[]", '{"format": 1}', '{"format": 2, "options": {}}'])
def test_a_variants_json_of_the_wrong_shape_says_what_mends_it(tmp_path, capsys, text):
    out = tmp_path / "v"
    _runs(out, "default", "hand_size=9")
    (out / STATE).write_text(text)
    code, _, err = cli(capsys, "variants", "--out", str(out), "--resume", "--no-progress")
    assert code == 1 and one_error_line(err) == (
        f"leaves: error: cannot resume {out}: {out / STATE} is not a comparison this version "
        f"can resume: {REMADE}"
    )


def _recorded(tmp_path: Path) -> tuple[dict, Path]:
    """A rule set's run folder with its designers' file, recorded in a comparison's state."""
    where = tmp_path / "hand_size=9"
    where.mkdir()
    (where / storage.MANIFEST).write_text(json.dumps({"integrity": {"chunks": {}}}))
    (where / GAMES_FILE).write_text("game,turns\n0,30\n")
    state = {"format": 1, "options": {}, "designer": {}}
    record_designer(tmp_path, state, where)
    assert designer_kept(state, where)
    return state, where


@pytest.mark.parametrize("files", ["abc", [], [GAMES_FILE], 5])
def test_designers_files_recorded_in_another_shape_are_replayed(tmp_path, files):
    state, where = _recorded(tmp_path)
    state["designer"][where.name]["files"] = files
    assert designer_kept(state, where) is False  # replayed: the measures are the run's again


@pytest.mark.slow
def test_a_comparison_whose_designers_files_are_recorded_as_text_resumes_to_the_fresh_one(
    tmp_path,
):
    from tests.variants_comparison import run

    out = tmp_path / "v"
    code, text = run(["variants", "greedy", "low", "--rules", "hand_size=9", "--players", "3",
                      "--games", "6", "--seed", "1", "--jobs", "1", "--trace-games", "6",
                      "--restricted-games", "0", "--no-progress", "--out", str(out)])  # fmt: skip
    assert code == 0, text
    fresh = {p.name: p.read_bytes() for p in out.glob("variants_*.csv")}
    state = json.loads((out / STATE).read_text())
    state["designer"]["default"]["files"] = "designer_games.csv"
    (out / STATE).write_text(json.dumps(state))
    (out / "default" / GAMES_FILE).unlink()
    code, text = run(["variants", "--out", str(out), "--resume", "--jobs", "1", "--no-progress"])
    assert code == 0, text
    assert "default: designers' measures: 6 games traced" in text
    assert {p.name: p.read_bytes() for p in out.glob("variants_*.csv")} == fresh


OPTIONS = {"specs": ["greedy", "low"], "load": [], "rules": ["hand_size=9"], "sweep": None,
           "players": [3], "games": 6, "seed": 1, "expert": False, "trace_games": 6,
           "restricted_games": 0, "restrict": None, "ladder": None}  # fmt: skip
"""A comparison's options as its variants.json keeps them."""


def test_a_directory_where_designers_measures_belong_is_refused_before_anything_plays(
    tmp_path, capsys
):
    out = tmp_path / "v"
    _runs(out, "default", "hand_size=9")
    (out / STATE).write_text(json.dumps({"format": 1, "options": OPTIONS, "designer": {}}))
    (out / "hand_size=9" / GAMES_FILE).mkdir()
    code, _, err = cli(capsys, "variants", "--out", str(out), "--resume", "--no-progress")
    assert code == 1 and one_error_line(err) == (
        f"leaves: error: cannot resume {out}: {out / 'hand_size=9' / GAMES_FILE} is a directory, "
        "where the comparison writes a rule set's designers' measures: remove it, then resume "
        "again"
    )
