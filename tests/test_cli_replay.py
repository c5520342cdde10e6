"""``leaves replay``: every move of a recorded game, non-interactive when stdin is not a tty."""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

from leaves.cli import main
from leaves.cli.render import describe_action, seat_label
from leaves.record import replay

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def records(tmp_path_factory):
    import strategies

    path = tmp_path_factory.mktemp("rec") / "games.jsonl"
    results = [
        strategies.play_game(["greedy", "random", "counter"], seed=s, record=True) for s in (1, 2)
    ]
    path.write_text("".join(r.record.to_json() + "\n" for r in results))
    return path, [r.record for r in results]


def _run(capsys, *args):
    try:
        main(list(args))
        code = 0
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


def test_replay_prints_every_move_and_the_result(records, capsys):
    path, recs = records
    code, out, err = _run(capsys, "replay", str(path), "--game", "2", "--all")
    assert code == 0 and err == ""
    rec = recs[1]
    states = replay(rec)
    names = rec.strategies
    for turn, (seat, action) in enumerate(states[-1].history, 1):
        assert f"Turn {turn}: {seat_label(seat, names)} {describe_action(action)}" in out
    assert f"Turn {len(states)}:" not in out
    final = states[-1]
    assert f"Result: {seat_label(final.winner, names)} wins after {final.turn} turns." in out
    # every hand is shown at the deal
    deal = out.split("Turn 1:")[0]
    for seat in range(3):
        cards = " ".join(str(v + 1) for v, c in enumerate(states[0].hand(seat)) for _ in range(c))
        assert cards in deal


def test_replay_is_non_interactive_without_a_tty(records):
    import subprocess

    path, recs = records
    proc = subprocess.run(
        [sys.executable, "-m", "leaves", "replay", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert f"Turn {recs[0].turns}:" in proc.stdout
    assert "Result:" in proc.stdout


def test_replay_steps_with_enter_in_a_terminal(records):
    pexpect = pytest.importorskip("pexpect")
    path, recs = records
    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb"}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "leaves", "replay", str(path)],
        cwd=str(ROOT),
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 120),
    )
    child.expect("Enter: next move")
    assert "Turn 1:" not in child.before
    child.sendline("")
    child.expect("Turn 1:")
    child.expect("Enter: next move, h: hint")
    assert "Turn 2:" not in child.before
    child.sendline("h")  # a hint for the player to move, then the same position waits
    child.expect(r"Hint for seat \d \(\S+\), to move:")
    child.expect(r"weighted would (play \d+x\d+|take \d+)")
    child.expect("Enter: next move")
    assert "Turn 2:" not in child.before
    child.sendline("a")
    child.expect(f"Turn {recs[0].turns}:")
    child.expect("Result:")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_replay_of_a_saved_record_refuses_a_tampered_one(records, tmp_path, capsys):
    path, recs = records
    d = json.loads(path.read_text().splitlines()[0])
    d["winner"] = (d["winner"] + 1) % 3
    bad = tmp_path / "bad.jsonl"
    bad.write_text(json.dumps(d) + "\n")
    code, out, err = _run(capsys, "replay", str(bad))
    assert code == 1
    assert err.startswith(f"leaves: error: {bad}, game 1: record says winner")
    assert err.count("\n") == 1


def test_replay_hints_show_the_hint_for_every_recorded_position(records, capsys):
    path, recs = records
    code, out, err = _run(capsys, "replay", str(path), "--all", "--hints")
    assert code == 0 and err == ""
    states = replay(recs[0])
    names = recs[0].strategies
    assert out.count(", to move:") == len(states) - 1  # every position but the last
    first = states[0].current_player
    assert f"Hint for {seat_label(first, names)}, to move:" in out
    assert out.count("weighted would ") == len(states) - 1
