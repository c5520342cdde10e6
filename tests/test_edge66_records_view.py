"""``leaves replay`` of a game left before any move says so: it said "(turn 0)", a turn the
replay never numbers (its turns count from 1, "Turn 1: ..."); a game left later is said to be
left after its turns, counted."""

from __future__ import annotations

import pytest

from leaves import GameRecord
from leaves.players.play import deal_state
from tests.helpers import cli


@pytest.mark.parametrize(
    ("moves", "when"), [(0, "before the first move"), (1, "after 1 turn"), (2, "after 2 turns")]
)
def test_a_game_left_early_is_said_left_when_it_was(tmp_path, capsys, monkeypatch, moves, when):
    monkeypatch.setenv("COLUMNS", "160")
    dealt = deal_state(4, 3)
    left = dealt
    for _ in range(moves):
        left = left.apply(left.legal_actions()[0])
    record = GameRecord.from_states(dealt, left, stopped="the player quit")
    path = tmp_path / "left.jsonl"
    path.write_text(record.to_json() + "\n")
    code, out, err = cli(capsys, "replay", str(path), "--all")
    assert code == 0 and err == "", err
    assert f"Turn {moves}:" in out or moves == 0
    assert f"Turn {moves + 1}:" not in out
    assert out.rstrip().endswith(f"Result: unfinished: the player quit ({when}).")
