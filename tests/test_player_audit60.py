"""``leaves play`` and ``leaves replay`` held to what they print: a count of one said in the
singular (a game of one turn, a match of one game, a target of one point); the replay command
``play --save`` advises working when pasted, whatever the file's name; the hard level's figures
as docs/strength.md gives them; a narrow terminal folding the seats table, never cutting a name
or a card; a replay telling no one to type; a records file that starts with a byte order mark."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path

import numpy as np
import pytest

from leaves.record import GameRecord, replay
from tests.helpers import cli, one_error_line


def _words(text: str) -> str:
    return " ".join(text.split())


# ----------------------------------------------------------------------------- counts of one
def test_a_game_of_one_turn_in_a_match_of_one_game_is_said_in_the_singular(
    tmp_path, capsys, monkeypatch
):
    save = tmp_path / "g.jsonl"
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n"))
    code, out, err = cli(capsys, "play", "--seed", "2", "--rules", "hand_size=1", "--target", "1",
                         "--save", str(save))  # fmt: skip
    assert code == 0, err
    said = _words(out)
    record = GameRecord.from_json(save.read_text())
    final = replay(record)[-1]
    assert (final.turn, final.winner) == (1, 0)  # the truth: you led and went out at once
    assert "games until someone reaches 1 point;" in said, said
    assert "You win after 1 turn!" in said, said
    assert "Match over after 1 game: you (seat 0) win." in said, said
    code, out, err = cli(capsys, "replay", str(save), "--all")
    assert code == 0, err
    assert "Result: seat 0 (human) wins after 1 turn." in _words(out), out


def test_a_game_stopped_at_a_turn_limit_of_one_is_said_in_the_singular(tmp_path, capsys):
    import strategies

    result = strategies.play_game(["greedy", "greedy", "greedy"], seed=2, record=True,
                                  rules="turn_limit=1")  # fmt: skip
    assert result.record.unfinished and result.record.turns == 1
    path = tmp_path / "r.jsonl"
    path.write_text(result.record.to_json() + "\n")
    code, out, err = cli(capsys, "replay", str(path), "--all")
    assert code == 0, err
    assert "Result: unfinished at the turn limit (1 turn)." in _words(out), out


# ----------------------------------------------------------------------------- the replay to paste
def test_the_replay_command_said_for_a_file_named_like_an_option_works_pasted(
    tmp_path, capsys, monkeypatch
):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    code, out, err = cli(capsys, "play", "--seed", "1", "--save", "-g.jsonl")
    assert code == 0, err
    said = _words(out)
    command = said.split("('", 1)[1].split("'", 1)[0]
    assert command.startswith("leaves replay "), said
    args = command.split()[2:]  # as a shell splits the command (no quotes in it)
    code, out, err = cli(capsys, "replay", *args, "--all")
    assert code == 0, one_error_line(err)
    assert "Result: unfinished: the player quit" in _words(out)
    assert json.loads((tmp_path / "-g.jsonl").read_text())["stopped"] == "the player quit"


# ----------------------------------------------------------------------------- the docs' figures
def test_the_hard_levels_claim_of_the_defaults_against_each_built_in_matches_strength_md():
    docs = Path(__file__).resolve().parents[1] / "docs"
    strength = (docs / "strength.md").read_text(encoding="utf-8")
    para = strength.split("**Against three of each other built-in**", 1)[1].split("```", 1)[0]
    para = " ".join(para.split())
    rates = {
        name: float(r) for name, r in re.findall(r"`(\w+)`(?: \([^)]*\))? (\d+\.\d)% \[", para)
    }
    assert {"counter", "random", "taker"} <= set(rates), rates
    others = [r for name, r in rates.items() if name != "taker"]
    said = " ".join((docs / "cli.md").read_text(encoding="utf-8").split())
    m = re.search(r"win (\d+\.\d)-(\d+\.\d)% against three of any other built-in but `taker` "
                  r"\((\d+\.\d)%\)", said)  # fmt: skip
    assert m, "the hard level's row no longer says what the defaults win against the built-ins"
    assert (float(m[1]), float(m[2])) == (min(others), max(others))
    assert float(m[3]) == rates["taker"]


# ----------------------------------------------------------------------------- narrow terminals
def _cells(text: str, column: str, after: str | None) -> list[str]:
    """Each seat's cell in ``column`` (up to the column ``after`` it) of a printed seats table,
    its folded lines joined by ``|``."""
    lines = text.splitlines()
    rule = next(i for i, line in enumerate(lines) if "───" in line)

    def at(word: str) -> int:  # where a column starts: its header's word, on any header line
        return next(line.index(word) for line in lines[:rule] if word in line)

    seat_end, start = at("player"), at(column)
    end = at(after) if after else None
    cells: list[str] = []
    for line in lines[rule + 1 :]:
        seat, cell = line[:seat_end].strip(" >"), line[start:end].strip()
        if seat.isdigit():
            cells.append(cell)
        elif cell and cells:
            cells[-1] += "|" + cell
    return cells


def _position(n_players: int, found) -> object:
    """A position of random play at ``n_players`` seats where ``found(state)`` holds."""
    from leaves import new_game

    rng = np.random.default_rng(1)
    for seed in range(300):
        state = new_game(n_players, seed=seed)
        while not state.is_terminal:
            if found(state):
                return state
            legal = state.legal_actions()
            state = state.apply(legal[int(rng.integers(len(legal)))])
    raise AssertionError("no such position in 300 games")


@pytest.mark.parametrize("hands", [False, True])  # play's table, and replay's with every hand
def test_a_narrow_terminal_folds_the_seats_table_and_cuts_no_name_or_card(hands):
    """At 80 columns, seats named by their parameters (two differ in the last characters
    only): play's table with a long list of known cards, a replay's with a 16-card hand."""
    from leaves.commands import render
    from leaves_cli.console import make_console

    if hands:
        state = _position(3, lambda s: max(map(sum, s.hands)) >= 16)
    else:
        state = _position(6, lambda s: max(len(render.cards_text(k)) for k in s.known) >= 20)
    names = [f"counter(threat_weight={seat}.5)" for seat in range(state.n_players)]
    out = io.StringIO()
    make_console(file=out, width=80).print(
        render.seats_table(state, names, hands=state.hands if hands else None)
    )
    text = out.getvalue()
    assert "…" not in text, text
    assert [c.replace("|", "") for c in _cells(text, "player", "cards")] == names, text
    known = [render.cards_text(k) if any(k) else "" for k in state.known]
    assert [c.replace("|", " ") for c in _cells(text, "known", None)] == known, text
    if hands:  # every card of every hand, a line folded between two cards
        held = [render.cards_text(h) for h in state.hands]
        assert [c.replace("|", " ") for c in _cells(text, "hand", "known")] == held, text


# ----------------------------------------------------------------------------- take=nothing
def test_a_replay_under_take_nothing_tells_no_one_to_type_while_play_still_does(
    tmp_path, capsys, monkeypatch
):
    import strategies

    result = strategies.play_game(["greedy", "random", "weighted"], seed=3, record=True,
                                  rules="take=nothing")  # fmt: skip
    path = tmp_path / "r.jsonl"
    path.write_text(result.record.to_json() + "\n")
    code, out, err = cli(capsys, "replay", str(path), "--all")
    assert code == 0, err
    said = _words(out)
    assert "A pass takes no card (take=nothing)." in said  # what the rule is, still said
    assert "type" not in said.lower(), said  # a replay reads no move: nothing to type
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    code, out, err = cli(capsys, "play", "--seed", "5", "--rules", "take=nothing")
    assert code == 0, err
    assert "type the key, or a move like '3x6' / 'pass'" in _words(out)


# ----------------------------------------------------------------------------- a file an editor saved
def test_a_records_file_saved_with_a_byte_order_mark_is_read_and_appended_to(
    tmp_path, capsys, monkeypatch
):
    """Some editors start a UTF-8 file with a byte order mark: its records are still records."""
    import strategies

    record = strategies.play_game(["greedy", "random", "weighted"], seed=3, record=True).record
    path = tmp_path / "games.jsonl"
    path.write_bytes(b"\xef\xbb\xbf" + (record.to_json() + "\n").encode())
    code, out, err = cli(capsys, "replay", str(path), "--all")
    assert code == 0, one_error_line(err)
    assert f"wins after {record.turns} turns." in _words(out)
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    code, out, err = cli(capsys, "play", "--seed", "1", "--save", str(path))
    assert code == 0, one_error_line(err)
    assert f"('leaves replay {path} --game 2' replays it" in _words(out)
    code, out, err = cli(capsys, "replay", str(path), "--game", "2", "--all")
    assert code == 0, one_error_line(err)
    assert "Result: unfinished: the player quit" in _words(out)
