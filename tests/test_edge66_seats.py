"""Positions set up by hand past six seats, and bad values said in one short line.

``State.initial`` takes a position set up by hand at any count the rules could ever deal
(2 to 6: every rule set's players, the array board's rows, the compiled engine's seats); a
seventh hand, which no strategy, search or hint can play, is refused where the position is
made, in one line. Every error names a bad value as ``gamekit.errors.shown`` writes it: a
number past the 4,300 digits Python writes out is said in words, not as Python's own error.
"""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

import ligretto
from leaves import GameRecord, State
from leaves.players.play import deal_state
from leaves.record import replay
from ligretto.players import play_round
from tests.helpers import cli, one_error_line

HUGE = 10**5000  # past the digits Python writes out: str() of it raises ValueError
HUGE_SAID = "a whole number of about 5,001 digits"
SEVEN = "hands must list at most 6 players' hands (the most any rules allow), got 7"


def _hands(n: int) -> list[list[int]]:
    """``n`` hands of two cards each, set up by hand (no deal of today's rules)."""
    hands = [[0] * 13 for _ in range(n)]
    for seat, hand in enumerate(hands):
        hand[(3 * seat) % 13] += 1
        hand[(3 * seat + 5) % 13] += 1
    return hands


# --- seven hands -----------------------------------------------------------------------------


def test_seven_hands_are_refused_where_the_position_is_made():
    """7 hands made a State that no strategy plays (the board holds six seats): the game
    stopped partway, at its first move, with the board's own error."""
    for make in (
        lambda: State.initial(_hands(7)),
        lambda: State.initial(_hands(7), first_player=9),  # the count, not the seat, is wrong
        lambda: State.from_dict({**State.initial(_hands(6)).to_dict(), "hands": _hands(7)}),
    ):
        with pytest.raises(ValueError) as info:
            make()
        assert str(info.value) == SEVEN
    six = State.initial(_hands(6), 1)
    assert six.n_players == 6 and State.from_dict(six.to_dict()) == six
    with pytest.raises(ValueError, match=r"^first_player must be a seat 0\.\.5, got 6$"):
        State.initial(_hands(6), first_player=6)  # up to six, the seat is checked first


def _record_line(n: int) -> str:
    """A record of a position of ``n`` hands set up by hand, stopped after one move; written
    as its JSON line (7 hands: as a file may hold one, though no State takes it)."""
    hands = _hands(6)
    first = State.initial(hands, 1)
    record = json.loads(GameRecord.from_states(first, first.apply(first.legal_actions()[0]),
                                               stopped="quit").to_json())  # fmt: skip
    record["hands"] = _hands(n)
    return json.dumps(record) + "\n"


def test_leaves_replay_hints_refuses_seven_hands_before_showing_any(tmp_path, capsys, monkeypatch):
    """``replay --hints`` showed the deal, then stopped at its first hint with "a board holds
    at most 6 seats, the game has 7"; now the record is refused before anything is shown."""
    monkeypatch.setenv("COLUMNS", "200")
    path = tmp_path / "seven.jsonl"
    path.write_text(_record_line(7))
    code, out, err = cli(capsys, "replay", str(path), "--hints", "--all")
    assert code == 1 and out == "", out
    assert one_error_line(err) == f"leaves: error: {path}, game 1: bad record: {SEVEN}"


def test_leaves_replay_hints_a_position_of_six_hands_set_up_by_hand(tmp_path, capsys,
                                                                   monkeypatch):  # fmt: skip
    """Six, the most State takes, is a count every part plays: each position gets its hint."""
    monkeypatch.setenv("COLUMNS", "200")
    path = tmp_path / "six.jsonl"
    path.write_text(_record_line(6))
    code, out, err = cli(capsys, "replay", str(path), "--hints", "--all")
    assert code == 0 and err == "", err
    assert out.startswith(f"Game 1 of {path}: 6 players, 1 turn, 1 round\n"), out
    assert out.count("Hint for seat") == 2 and "weighted would play" in out, out


# --- a bad value in one short line -----------------------------------------------------------


def test_a_record_field_past_the_digits_python_writes_is_said_in_words():
    """``_named`` wrote ``f"{value!r}"`` beside ``shown``: a winner of 5,001 digits raised
    Python's "Exceeds the limit (4300 digits)" instead of the record's own error."""
    first = deal_state(4, 3)
    record = GameRecord.from_states(first, first.apply(first.legal_actions()[0]), seed=3,
                                    stopped="quit")  # fmt: skip
    for field, said in (
        ("winner", "its winner is '9', not a seat 0..3"),  # an ordinary value: its repr
        ("winner", f"its winner is {HUGE_SAID}, not a seat 0..3"),
        ("forfeit_seat", f"its forfeiting seat is a negative {HUGE_SAID[2:]}, not a seat 0..3"),
        ("stopped", f"its reason for stopping is {HUGE_SAID}, not words"),
    ):
        value = "9" if "'9'" in said else -HUGE if field == "forfeit_seat" else HUGE
        with pytest.raises(ValueError) as info:
            replay(dataclasses.replace(record, **{field: value}))
        message = str(info.value)
        assert message == f"bad record: {said}", message


def test_a_position_with_a_number_past_the_digits_python_writes_is_refused_in_words():
    """``State.from_dict``'s errors wrote a value with ``!r`` or ``str``: 5,001 digits
    raised Python's digit-limit error in place of the position's own."""
    d = deal_state(4, 3).to_dict()
    hands = [list(h) for h in d["hands"]]
    hands[0][0] = HUGE
    for changes, said in (
        ({"current_player": HUGE}, f"current_player must be a seat 0..3, got {HUGE_SAID}"),
        ({"turn": -HUGE}, f"turn must be >= 0, got a negative {HUGE_SAID[2:]}"),
        (
            {"hands": hands},
            f"hands[0]: {HUGE_SAID} for the cards of value 1 is impossible (the deck has 2)",
        ),
        ({"passed": "x\n" * 500}, r"passed must be 4 flags True/False, got 'x\nx\nx\nx\nx\n"),
    ):
        with pytest.raises(ValueError) as info:
            State.from_dict({**d, **changes})
        message = str(info.value)
        assert message.startswith(said) and "\n" not in message and len(message) < 200, message
    with pytest.raises(ValueError) as info:
        State.initial(HUGE)
    assert (
        str(info.value) == f"hands must be one list of 13 card counts per player, got {HUGE_SAID}"
    )


def _round() -> dict:
    return json.loads(play_round(["stack", "row"], 3, 4, record=True).record.to_json())


def test_a_round_record_built_in_python_is_said_in_one_short_line():
    """Ligretto's own ``shown`` wrote a value JSON cannot by ``str``: a numpy array's
    runs over lines; and lists nested past Python's recursion raised RecursionError."""
    nested: list = []
    for _ in range(5000):
        nested = [nested]
    rec = _round()
    for field, value, said in (
        ("deal", np.array(rec["deal"]), "deal is array([[" + ", ".join(map(str, rec["deal"][0]))),
        ("events", np.zeros((3, 5), int), "events is array([[0, 0, 0, 0, 0], [0, 0, 0, 0, 0]"),
        ("events", [nested], "event 0 a list that Python cannot write out: 1 field"),
    ):
        with pytest.raises(ligretto.RecordError) as info:
            ligretto.replay(ligretto.RoundRecord(**{**rec, field: value}))
        message = str(info.value)
        assert message.startswith(said[:60]) and "\n" not in message, message
        assert len(message) < 200, message


def test_an_event_is_still_said_as_its_line_holds_it():
    """An ordinary event keeps the compact JSON of its line."""
    rec = _round()
    rec["events"][0][1] = 9
    with pytest.raises(ligretto.RecordError) as info:
        ligretto.replay(ligretto.RoundRecord(**rec))
    event = json.dumps(rec["events"][0], separators=(",", ":"))
    assert str(info.value).startswith(f"event 0 {event}: seat 9 is not at this table of 2")


@pytest.mark.parametrize(
    ("game", "said"),
    [
        (["x" * 5000], '["' + "x" * 55 + "..."),
        (10**400, "a whole number of about 401 digits"),
        (None, "null"),
        ({"name": "leaves"}, '{"name": "leaves"}'),
    ],
)
def test_a_records_game_that_is_no_name_is_said_in_one_short_line(tmp_path, capsys, game, said):
    """A record's ``"game"`` was written by an uncut ``json.dumps``: a 5,000-character list
    or a 400-digit number filled the screen."""
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps({"game": game}) + "\n")
    code, _, err = cli(capsys, "replay", str(path))
    assert code != 0
    assert one_error_line(err) == (
        f'leaves: error: {path}, line 1: bad game record: its "game" is {said}, not a game\'s name'
    )
