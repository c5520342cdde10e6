"""Runs an older version recorded, opened by this one: each works, or is refused in one line
saying what to do. The older forms are made from a current run by editing its manifest into
what that version wrote."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.helpers import cli, copied_run

OLD_MODULE = "strategies.builtin.simple"
"""Where an earlier version kept the built-in heuristics (its manifests name their classes
there); they have moved since, so that module no longer imports."""


@pytest.fixture(scope="module")
def run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("oldruns") / "run"
    code = _leaves("tournament", "greedy", "high", "low", "--players", "3", "--games", "12",
                   "--seed", "1", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0
    return out


def _leaves(*args: str) -> int:
    from leaves_cli.main import main

    try:
        main(list(args))
    except SystemExit as exc:
        return int(exc.code or 0)
    return 0


def _words(text: str, run: Path) -> list[str]:
    """The words of a replay, its run's folder named RUN (the lines wrap by its length)."""
    return text.replace(str(run), "RUN").split()


def _moved(manifest: dict) -> None:
    """The entrants as an earlier version described them: their classes in its module."""
    for entrant in manifest["spec"]["entrants"]:
        entrant["class"] = f"{OLD_MODULE}:{entrant['class'].split(':')[1]}"


def test_a_game_of_a_run_whose_builtins_moved_since_replays_by_their_labels(run, tmp_path,
                                                                            capsys):  # fmt: skip
    old = copied_run(run, tmp_path, _moved)
    code, out, err = cli(capsys, "replay", str(old), "--game", "0", "--all")
    assert code == 0, err
    _, fresh, _ = cli(capsys, "replay", str(run), "--game", "0", "--all")
    assert _words(out, old) == _words(fresh, run)  # the same game, move by move
    warned = [line for line in err.splitlines() if line.startswith("warning: ")]
    assert len(warned) == 3, err  # one a strategy, none saying the game differs
    assert warned[0].startswith(f"warning: greedy: the run recorded its class as {OLD_MODULE}"
                                ":GreedyStrategy, which does not load here (")  # fmt: skip
    assert warned[0].endswith("): this installation's greedy plays it instead")
    assert "differs" not in err


def test_a_user_files_entrant_is_not_played_by_a_strategy_of_its_label(run, tmp_path, capsys):
    def filed(manifest: dict) -> None:
        _moved(manifest)
        manifest["spec"]["entrants"][1]["file"] = str(tmp_path / "gone.py")

    old = copied_run(run, tmp_path, filed)
    code, _, err = cli(capsys, "replay", str(old), "--game", "0")
    assert code == 1
    (line,) = err.strip().splitlines()
    assert line.startswith("leaves: error: cannot rebuild high: ")
