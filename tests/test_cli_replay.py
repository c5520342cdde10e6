"""``leaves replay``: every move of a recorded game, non-interactive when stdin is not a tty."""

from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

from leaves.commands.render import describe_action, seat_label
from leaves.record import replay
from leaves_cli import main

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


@pytest.mark.slow
def test_replay_is_non_interactive_without_a_tty(records):
    import subprocess

    path, recs = records
    proc = subprocess.run(
        [sys.executable, "-m", "leaves_cli", "replay", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr
    assert f"Turn {recs[0].turns}:" in proc.stdout
    assert "Result:" in proc.stdout


@pytest.mark.slow
def test_replay_steps_with_enter_in_a_terminal(records):
    pexpect = pytest.importorskip("pexpect")
    path, recs = records
    env = {**os.environ, "NO_COLOR": "1", "TERM": "dumb"}
    child = pexpect.spawn(
        sys.executable,
        ["-m", "leaves_cli", "replay", str(path)],
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


# ------------------------------------------------------------- games of a run, by number
BOOM = str(Path(__file__).with_name("boom_strategy.py")) + ":Boom"


@pytest.fixture(scope="module")
def boom_run(tmp_path_factory):
    from tournaments import Tournament

    out = tmp_path_factory.mktemp("runs") / "boom"
    Tournament([BOOM, "greedy", "random"], players=3, games=12, seed=1).run(out=out, n_jobs=1)
    return out


def test_a_forfeit_keeps_its_traceback_and_rows_keep_one_line(boom_run):
    from tournaments import load

    forfeits = json.loads((boom_run / "forfeits.json").read_text())
    assert forfeits and all(
        re.search(r"RuntimeError: boom at turn \d+$", f["error"]) for f in forfeits
    )
    trace = forfeits[0]["traceback"]
    assert trace.startswith("Traceback (most recent call last):")
    assert "boom_strategy.py" in trace and 'raise RuntimeError(f"boom at turn' in trace
    errors = load(boom_run).games(["error"])["error"].dropna()
    assert len(errors) and all("\n" not in e and "Traceback" not in e for e in errors)


def test_replaying_a_forfeited_game_of_a_run_stops_at_the_failing_decision(
    boom_run, capsys, monkeypatch
):
    from tournaments import load

    monkeypatch.setenv("COLUMNS", "200")
    rows = load(boom_run).games(["game", "turns", "forfeit_seat", "seat_0", "seat_1", "seat_2"])
    row = rows[rows["forfeit_seat"] >= 0].iloc[1]
    code, out, err = _run(capsys, "replay", str(boom_run), "--game", str(row["game"]), "--all")
    assert code == 0 and err == ""
    assert f"Game {row['game']} of run {boom_run}, replayed from its seeds" in out
    assert f"Turn {row['turns']}:" in out and f"Turn {row['turns'] + 1}:" not in out
    seat = int(row["forfeit_seat"])
    assert re.search(
        rf"Result: seat {seat} \(Boom\) forfeited: RuntimeError: boom at turn \d+\.", out
    )
    assert "The strategy's traceback:" in out and "boom_strategy.py" in out
    code, first, _ = _run(capsys, "replay", str(boom_run), "--all")  # the first forfeit
    assert code == 0 and "Game 0 of run" in first and "forfeited" in first


def test_any_game_of_a_run_replays_as_it_was_played(tmp_path, capsys):
    from tournaments import Tournament, load

    out = tmp_path / "run"
    Tournament(["greedy", "random", "weighted"], players=3, games=12, seed=3).run(out=out)
    rows = load(out).games(["game", "turns", "winner_seat", "seat_0", "seat_1", "seat_2"])
    for _, row in rows.iloc[[0, 5, 11]].iterrows():
        code, text, err = _run(capsys, "replay", str(out), "--game", str(row["game"]), "--all")
        assert code == 0 and err == "", err
        winner = row[f"seat_{row['winner_seat']}"]
        assert f"seat {row['winner_seat']} ({winner}) wins after {row['turns']} turns" in text


def test_runs_without_rows_and_bad_game_numbers_are_one_line(tmp_path, boom_run, capsys):
    from tournaments import Tournament

    bare = tmp_path / "bare"
    Tournament(["greedy", "low", "random"], players=3, games=6, seed=1, rows=False).run(out=bare)
    cases = [
        ([str(bare), "--game", "1"], "kept no per-game rows (--no-rows): its games cannot be"),
        ([str(boom_run), "--game", "999"], "has no row for game 999"),
        ([str(tmp_path)], f"holds no run itself (no manifest.json); the runs in it: {bare}:"),
        ([str(bare / "chunks")], "is a directory but not a tournament run"),
    ]
    for args, message in cases:
        code, out, err = _run(capsys, "replay", *args)
        assert code != 0 and message in err, err
        assert err.count("\n") == 1 and "Traceback" not in err


def test_an_unfinished_record_replays_up_to_where_it_stopped(tmp_path, capsys):
    import strategies
    from leaves.record import GameRecord

    full = strategies.play_game(["greedy", "low", "random"], seed=4, record=True)
    states = replay(full.record)
    left = GameRecord.from_states(states[0], states[7], strategies=["human", "low", "random"],
                                  stopped="the player quit")  # fmt: skip
    assert left.unfinished and left.winner is None and len(replay(left)) == 8
    again = GameRecord.from_json(left.to_json())
    assert again == left and "stopped" not in full.record.to_dict()
    path = tmp_path / "left.jsonl"
    path.write_text(left.to_json() + "\n")
    code, out, err = _run(capsys, "replay", str(path), "--all")
    assert code == 0 and err == ""
    assert "Turn 7:" in out and "Turn 8:" not in out
    assert "Result: unfinished: the player quit (after 7 turns)." in out
    code, _, err = _run(capsys, "replay", str(path), "--game", "0")
    assert code == 2 and "counts the records of a file from 1" in err


def test_a_forfeit_error_pickles_with_its_traceback():
    import pickle

    from leaves.players.play import ForfeitError

    e = ForfeitError("seat 0 (x): RuntimeError: boom", "Traceback ...")
    back = pickle.loads(pickle.dumps(e))
    assert back == e and back.traceback == "Traceback ..." and isinstance(back, str)
