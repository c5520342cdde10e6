"""A resume plays its new chunks with the game installed now: where that game's own version
(``versions()``, e.g. its rules core's) or its declaration differs from what the run recorded,
the new chunks would be summed with the old under the old version and declaration. Such a
resume is refused in one line naming what changed (exit 2 on the command line), as a changed
strategy file is; the same game, under a former name or recorded by an older version without
the field, still resumes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import leaves
from tests.helpers import cli, cli_output, copied_run, one_error_line
from tests.toygame import ToyGame
from tournaments import Tournament
from tournaments.same_run import OtherRun

TOY = "tests.toygame:ToyGame"
TOY_RUN = ["a", "p1", "p2", "--game", TOY, "--players", "3", "--games", "120",
           "--chunk-size", "30", "--seed", "3", "--jobs", "1", "--no-progress"]  # fmt: skip
TOY_GAUNTLET = ["p2", "--against", "a,p3", "--baseline", "p1", "--game", TOY, "--players", "3",
                "--games", "60", "--seed", "2", "--jobs", "1", "--no-progress"]  # fmt: skip
ADVICE = "resume it with the version that played it, or play the run in a new"


class ToyV3(ToyGame):
    """The toy game, its rules core's version bumped."""

    def versions(self) -> dict[str, str]:
        return {"toygame": "3"}


class OldToy(ToyGame):
    """The toy game under the id it had before."""

    name = "oldtoy"


class RenamedToy(ToyGame):
    """The toy game under a new id, the old one a former name."""

    name = "newtoy"
    former_names = ("oldtoy",)


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    """A small complete run of the toy game (4 chunks), played by the command line."""
    out = tmp_path_factory.mktemp("resume_game") / "run"
    code, _, err = cli_output("tournament", *TOY_RUN, "--out", str(out))
    assert code == 0, err
    return out


def _resume(game, out: Path, grow: bool = True) -> None:
    """Play the run of ``run`` into ``out`` with ``game``, grown by 30 games (``--add 30``)."""
    t = Tournament(["a", "p1", "p2"], players=3, games=120, seed=3, chunk_size=30, game=game)
    (t.with_stages([20, 25]) if grow else t).run(out=out, resume=True)


def test_a_changed_game_version_is_refused_and_the_run_left_as_it_was(run, tmp_path):
    copy = copied_run(run, tmp_path)
    before = (copy / "manifest.json").read_bytes()
    with pytest.raises(OtherRun) as exc:
        _resume(ToyV3(), copy)
    assert str(exc.value) == (
        f"cannot resume {copy}: the game changed (toygame: 3 here, 2 in the run): {ADVICE} out"
    )  # it resumed, and the manifest still said toygame 2
    assert (copy / "manifest.json").read_bytes() == before


def test_a_changed_declaration_is_refused_by_the_command_line(run, tmp_path, capsys, monkeypatch):
    copy = copied_run(run, tmp_path)
    monkeypatch.setattr(ToyGame, "ahead_means", "fewer points")
    monkeypatch.setattr(ToyGame, "mean_columns", ("points",))
    code, _, err = cli(capsys, "tournament", "--resume", "--out", str(copy), "--add", "30",
                       "--jobs", "1", "--no-progress")  # fmt: skip
    assert code == 2  # it played 30 more games and kept the old declaration
    assert one_error_line(err) == (
        f"leaves: error: cannot resume {copy}: the game changed (its declaration differs in "
        f"ahead_means, mean_columns): {ADVICE} --out"
    )
    assert json.loads((copy / "manifest.json").read_text())["spec"]["n_games"] == 120


def test_a_gauntlet_of_a_changed_game_is_refused(tmp_path, capsys, monkeypatch):
    out = tmp_path / "gauntlet"
    code, _, err = cli(capsys, "gauntlet", *TOY_GAUNTLET, "--out", str(out))
    assert code == 0, err
    monkeypatch.setattr(ToyGame, "versions", ToyV3.versions)
    code, _, err = cli(capsys, "gauntlet", "--resume", "--out", str(out), "--no-progress")
    assert code == 2
    assert one_error_line(err).startswith(
        f"leaves: error: cannot resume {out}: the game changed (toygame: 3 here, 2 in the run)"
    )


def test_a_version_the_run_did_not_record_is_not_compared(run, tmp_path):
    copy = copied_run(run, tmp_path, lambda m: m["versions"].pop("toygame"))
    _resume(ToyV3(), copy)  # an older run's manifest: nothing to tell a change by
    assert json.loads((copy / "manifest.json").read_text())["spec"]["n_games"] == 150


def test_the_game_under_its_former_name_resumes(tmp_path):
    out = tmp_path / "run"
    _resume(OldToy(), out, grow=False)  # its declaration names it "oldtoy"
    _resume(RenamedToy(), out)
    assert json.loads((out / "manifest.json").read_text())["spec"]["n_games"] == 150


def test_thirteen_leaves_own_version_is_recorded_and_compared(tmp_path, monkeypatch):
    out = tmp_path / "run"
    entrants = ["random", "greedy", "low"]
    Tournament(entrants, players=3, games=30, seed=1).run(out=out)
    recorded = json.loads((out / "manifest.json").read_text())["versions"]
    assert recorded["leaves"] == leaves.__version__  # its rules core's, by the game
    assert recorded["leaves play"] == leaves.PLAY_VERSION  # how it plays: what a resume compares
    Tournament(entrants, players=3, games=30, seed=1).run(out=out, resume=True)  # unchanged
    monkeypatch.setattr(leaves, "PLAY_VERSION", "99")
    with pytest.raises(OtherRun, match=rf"\(leaves play: 99 here, {recorded['leaves play']} in"):
        Tournament(entrants, players=3, games=30, seed=1).run(out=out, resume=True)


@pytest.mark.slow
def test_leaves_run_of_another_thirteen_leaves_version_is_refused(tmp_path, capsys):
    out = tmp_path / "run"
    code, _, err = cli(capsys, "run", "--games", "1", "--players", "3", "--jobs", "1",
                       "--out", str(out))  # fmt: skip
    assert code == 0, err
    copy = copied_run(out, tmp_path, _recorded_by_0_0_9)
    code, _, err = cli(capsys, "run", "--resume", "--out", str(copy), "--jobs", "1")
    assert code == 2
    assert one_error_line(err) == (
        f"leaves: error: cannot resume {copy}: the game changed (leaves: {leaves.__version__} "
        f"here, 0.0.9 in the run): {ADVICE} --out"
    )


def _recorded_by_0_0_9(m: dict) -> None:
    """The run as 13 Leaves 0.0.9 recorded it: its package's version, and no play version."""
    del m["versions"]["leaves play"]
    m["versions"]["leaves"] = "0.0.9"
