"""Ligretto as a user meets it end to end: what ``leaves ... --game ligretto`` prints and what
docs/ligretto.md states, each checked against the truth (the rules, the run's rows)."""

from __future__ import annotations

import json
import shlex
from pathlib import Path

import numpy as np
import pytest

from ligretto.rules import MAX_ROUND_MS
from tests.helpers import cli
from tests.sometimes_strategy import Sometimes

ROOT = Path(__file__).resolve().parents[1]
BENCH = ["bench", "--json", "--games", "40", "--repeats", "1", "--api-games", "1"]


def test_ligretto_bench_json_names_the_machine_as_13_leaves_bench_does(capsys):
    code, out, err = cli(capsys, *BENCH, "--game", "ligretto")
    assert code == 0, err
    lig = json.loads(out)
    code, out, err = cli(capsys, *BENCH, "--game", "leaves")
    assert code == 0, err
    machine = {"cores", "cpu", "machine", "python_version", "numpy_version", "numba_version"}
    assert machine <= json.loads(out).keys()
    assert machine <= lig.keys(), machine - lig.keys()
    assert lig["cores"] == 1  # one core: the round loop runs in the calling thread


def test_ligretto_bench_json_says_its_seed(capsys):
    code, out, err = cli(capsys, *BENCH, "--game", "ligretto", "--seed", "7")
    assert code == 0, err
    assert json.loads(out)["seed"] == 7


def _rows(seats, rounds):
    """The plug-in's rows (what a run writes) of ``rounds`` rounds of ``seats``."""
    from ligretto.plugin import LigrettoGame

    deals = np.arange(rounds, dtype=np.uint64)
    return LigrettoGame().play(seats, deals, deals + np.uint64(10**6))


def _check_rows(batch) -> None:
    """Every derived column of the rows, recounted from the scores and ``ended_by``."""
    score = batch.seat_values["score"].astype(int)
    forfeit = batch.forfeit_seat >= 0
    left, centre = batch.seat_values["stack_left"], batch.seat_values["centre_cards"]
    ok = ~forfeit
    np.testing.assert_array_equal(score[ok], (centre - 2 * left.astype(int))[ok])
    won = (score == score.max(axis=1, keepdims=True)) & ok[:, None]  # ties share (L4)
    np.testing.assert_array_equal(batch.seat_values["won"].astype(bool), won)
    single = won.sum(axis=1) == 1
    np.testing.assert_array_equal(batch.winner_seat, np.where(single, won.argmax(axis=1), -1))
    ended = batch.game_values["ended_by"]
    np.testing.assert_array_equal(batch.game_values["blockade"], ended == -1)
    np.testing.assert_array_equal(batch.game_values["unfinished"], (ended == -2) & ok)


def test_ligretto_rows_say_what_their_scores_and_ends_say():
    """Shared wins (no winner_seat), blockades, rounds stopped at the time limit and forfeits
    each occur below, and every row's won_*, winner_seat, blockade and unfinished agree."""
    two = _rows(["stack", "row"], 3000)
    _check_rows(two)
    assert (two.game_values["ended_by"] == -1).sum() > 5  # 2 players: some blockades
    assert (two.seat_values["won"].sum(axis=1) == 2).sum() > 5  # and tied rounds
    slow = "think_ms=600000,spread_ms=0"
    stopped = _rows([f"stack:{slow}", f"row:{slow}"], 3)
    _check_rows(stopped)
    assert stopped.game_values["unfinished"].all()
    forfeits = _rows([Sometimes(), "stack"], 40)
    _check_rows(forfeits)
    assert 0 < (forfeits.forfeit_seat >= 0).sum() < 40


def _shrunk(line: str) -> list[str]:
    """A ``leaves ...`` example line as arguments, at a test's size (same commands, same
    files, fewer rounds; one job)."""
    args = shlex.split(line.split("#", 1)[0])[1:]
    for option, small in (("--games", "200"), ("--jobs", "1")):
        if option in args:
            args[args.index(option) + 1] = small
    if args[0] == "bench":
        args += ["--games", "40", "--repeats", "1", "--api-games", "1"]
    return args


def _docs_commands() -> list[str]:
    text = (ROOT / "docs" / "ligretto.md").read_text(encoding="utf-8")
    block = text.split("```bash", 1)[1].split("```", 1)[0]
    return [line for line in block.splitlines() if line.startswith("leaves ")]


@pytest.mark.slow
@pytest.mark.parametrize("where", ["leaves --help", "docs/ligretto.md"])
def test_the_ligretto_examples_run_in_order_as_given(where, tmp_path, monkeypatch, capsys):
    """Each example works after the ones above it: a replay names a file or run they wrote."""
    from ligretto.commands import EXAMPLES

    lines = list(EXAMPLES) if where == "leaves --help" else _docs_commands()
    assert lines
    monkeypatch.chdir(tmp_path)
    for line in lines:
        code, _, err = cli(capsys, *_shrunk(line))
        assert code == 0, f"{line}: {err}"


def test_a_forfeit_for_a_card_not_shown_names_the_card_as_the_timelines_do():
    """'stack does not show card 26' told a player nothing a timeline would call green 7."""
    import ligretto
    from ligretto.players import LigrettoStrategy, play_round

    class Cheat(LigrettoStrategy, register=False):
        def __init__(self, speed: float = 1.0):
            pass

        def decide(self, view, rng):
            return ligretto.Decision("stack", card=(view.stack_top + 1) % 40, looked=1)

    with pytest.raises(ligretto.PlayerError) as exc:
        play_round([Cheat(), "stack"], 1, 2)
    top = ligretto.State.new(2, 1).stack_top(0)
    shown = ligretto.card_name((top + 1) % 40)
    assert str(exc.value) == f"seat 0: stack does not show card {(top + 1) % 40} ({shown})"


def test_the_ligretto_python_example_runs_and_its_comments_hold(capsys):
    text = (ROOT / "docs" / "ligretto.md").read_text(encoding="utf-8")
    code = text.split("```python", 1)[1].split("```", 1)[0]
    scope: dict = {}
    exec(compile(code, "docs/ligretto.md", "exec"), scope)  # noqa: S102 - the page's own code
    out = scope["out"]
    assert out.ended_by in (-2, -1, 0, 1, 2)  # a seat whose stack emptied, -1, -2
    if out.ended_by >= 0:
        assert out.state.stack_left()[out.ended_by] == 0
    assert capsys.readouterr().out.strip().endswith(f"-> {out.scores[-1]} points")


def test_the_docs_say_who_reaches_a_rounds_time_limit():
    """'only strategies that refuse to play what they can get there' was untrue: built-ins
    whose legal timing (0 to 600,000 ms) is slow stop there too, every round."""
    slow = _rows(["stack:think_ms=60000", "row:think_ms=60000"], 4)
    assert slow.game_values["unfinished"].all()
    default = _rows(["cautious", "scanner"], 2000)  # 2 players: the longest rounds
    assert default.game_values["time_ms"].max() < MAX_ROUND_MS // 2  # "well before it"
    text = " ".join((ROOT / "docs" / "ligretto.md").read_text(encoding="utf-8").split())
    said = text.split("A round still running after 10 minutes", 1)[1].split("stops unfinished")[0]
    assert "only strategies that refuse" not in said
    assert "think_ms=60000" in said
