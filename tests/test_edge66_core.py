"""The rules core's refusals of a huge or odd value say the refusal they mean, on one short
line: a whole number past the 4,300 digits Python writes out raised Python's own
"Exceeds the limit" error instead (the intended one lost), and a long value or one with a
line break spilled over the line. Each shows the value the one way (``gamekit.errors.shown``),
ordinary values as they were worded before."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

import leaves
from leaves import Action, GameRecord, Rules
from leaves.record import replay
from leaves.view import check_seat
from tests.helpers import cli, one_error_line

HUGE = 10**5000
HUGE_SAID = "a whole number of about 5,001 digits"
LONG = "x" * 300
LONG_SAID = "'" + "x" * 56 + "..."  # shown's 60 characters, cut


def _refusal(call, kind: type[Exception] = ValueError) -> str:
    """The message ``call()`` raises, checked to be one line of at most 200 characters."""
    with pytest.raises(kind) as info:
        call()
    said = str(info.value)
    assert "Exceeds the limit" not in said and "\n" not in said and len(said) <= 200, said
    return said


@pytest.mark.parametrize(
    ("call", "said"),
    [
        (lambda: Rules(turn_limit=HUGE), f"turn_limit must be 1..1000000, got {HUGE_SAID}"),
        (lambda: Rules(expert_target=-HUGE),
         "expert_target must be 1..1000, got a negative whole number of about 5,001 digits"),
        (lambda: Rules(hand_size=HUGE), f"hand_size must be 1..52, got {HUGE_SAID}"),
        (lambda: Rules(hand_size={HUGE: 3}),
         f"hand_size's player count must be 2..6, got {HUGE_SAID}"),
        (lambda: Rules(deck=[HUGE] * 13),
         f"deck: copies of one value must be 0..8, got {HUGE_SAID}"),
        (lambda: Rules(players=[3, HUGE]), f"players must be 2..6, got {HUGE_SAID}"),
        (lambda: Rules.of(HUGE),
         f"rules must be a leaves.Rules, its key=value text or a dict, got {HUGE_SAID}"),
        (lambda: Rules.of_options(None, HUGE), f"turn_limit must be 1..1000000, got {HUGE_SAID}"),
        (lambda: Rules.of_options("turn_limit=5", HUGE),
         f"turn_limit {HUGE_SAID} and rules turn_limit=5 disagree: give one"),
        (lambda: check_seat(HUGE, 3), f"player must be a seat 0..2, got {HUGE_SAID}"),
        (lambda: Action.from_id(HUGE), f"action id must be an integer 0..117, got {HUGE_SAID}"),
        (lambda: Action.play(HUGE, 1), f"card value must be 1..13, got {HUGE_SAID}"),
        (lambda: Action.play(1, HUGE), f"play count must be 1..8, got {HUGE_SAID}"),
        (lambda: Action.take(HUGE), f"card value must be 1..13, got {HUGE_SAID}"),
    ],
)  # fmt: skip
def test_a_whole_number_past_pythons_digits_is_refused_as_meant(call, said):
    assert _refusal(call) == said


def test_a_whole_number_past_pythons_digits_is_said_where_a_type_is_refused():
    said = _refusal(lambda: Rules.parse(HUGE), TypeError)
    assert said == f"Rules.parse reads key=value text (a str, several or None), got {HUGE_SAID}"
    said = _refusal(lambda: Action.play(1.5, HUGE), TypeError)
    assert said.endswith(f"got value=1.5, count={HUGE_SAID}")


@pytest.mark.parametrize(
    ("call", "said"),
    [
        (lambda: Rules(turn_limit=LONG),
         f"turn_limit must be a whole number 1..1000000, got {LONG_SAID}"),
        (lambda: Rules(take=LONG), f"take must be one of any, ends, nothing, got {LONG_SAID}"),
        (lambda: Rules(min_count=LONG), f"min_count must be on or off, got {LONG_SAID}"),
        (lambda: Rules(hand_size="3:" + "9" * 5000),
         "hand_size must be a whole number 1..52, got '" + "9" * 56 + "..."),
        (lambda: Rules.parse(LONG), f"cannot read the rule {LONG_SAID}: write key=value"),
        (lambda: Rules.from_dict(LONG), f"rules must be a table of key = value, got {LONG_SAID}"),
        (lambda: Rules(players="3/" * 200 + "3"),
         "players names 3 twice ('" + "3/" * 28 + "...): give each count once"),
        (lambda: Rules(players="3/3\n"), "players names 3 twice ('3/3\\n'): give each count once"),
        (lambda: Action.from_id(LONG), f"action id must be an integer 0..117, got {LONG_SAID}"),
        (lambda: Action.parse(LONG),
         f"cannot read an action from {LONG_SAID} (try 'play 3x6' or 'pass, take 9')"),
        (lambda: Action.parse("9" * 5000),  # a number: the range it takes, as for 99999
         "action id must be an integer 0..117, got a whole number of about 5,000 digits"),
    ],
)  # fmt: skip
def test_a_long_value_or_a_line_break_stays_on_the_line(call, said):
    assert _refusal(call) == said


def test_take_refuses_long_text_on_the_line():
    said = _refusal(lambda: Action.take(LONG), TypeError)
    assert said == f"Action.take takes a whole card value 1..13, got {LONG_SAID}"


@pytest.mark.parametrize(
    ("call", "said"),
    [
        (lambda: Rules(turn_limit=0), "turn_limit must be 1..1000000, got 0"),
        (lambda: Rules(turn_limit="x"), "turn_limit must be a whole number 1..1000000, got 'x'"),
        (lambda: Rules(players="3/3/5"), "players names 3 twice (3/3/5): give each count once"),
        (lambda: Rules(players=[4, 4]), "players names 4 twice ([4, 4]): give each count once"),
        (lambda: check_seat(np.int64(5), 3), "player must be a seat 0..2, got 5"),
        (lambda: Action.play(np.int64(14), 1), "card value must be 1..13, got 14"),
        (lambda: Action.play(1, np.int64(9)), "play count must be 1..8, got 9"),
        (lambda: Action.take(np.int64(0)), "card value must be 1..13, got 0"),
        (lambda: Action.from_id(200), "action id must be an integer 0..117, got 200"),
        (lambda: Action.parse("jump"),
         "cannot read an action from 'jump' (try 'play 3x6' or 'pass, take 9')"),
    ],
)  # fmt: skip
def test_ordinary_values_are_worded_as_before(call, said):
    """A numpy integer out of range is written as its number (14), not as its repr."""
    assert _refusal(call) == said


# --- a record's stated result ----------------------------------------------------------------
GIVE = "its actions give 104 and 20"  # the game _record plays


def _record() -> GameRecord:
    initial = state = leaves.new_game(4, seed=3)
    while not state.is_terminal:
        state = state.apply(state.legal_actions()[-1])
    return GameRecord.from_states(initial, state, seed=None)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"turns": HUGE}, f"record says {HUGE_SAID} turns and 20 rounds, {GIVE}"),
        ({"rounds": HUGE}, f"record says 104 turns and {HUGE_SAID} rounds, {GIVE}"),
        ({"turns": 105}, f"record says 105 turns and 20 rounds, {GIVE}"),
    ],
)  # fmt: skip
def test_a_records_turns_and_rounds_past_pythons_digits_are_refused_as_meant(change, said):
    record = dataclasses.replace(_record(), **change)
    assert _refusal(lambda: replay(record)) == said


def test_a_records_action_id_past_pythons_digits_is_named_in_words():
    record = _record()
    record = dataclasses.replace(record, actions=(HUGE, *record.actions[1:]))
    said = _refusal(lambda: replay(record), leaves.IllegalActionError)
    assert said.startswith(f"record action 0 (id {HUGE_SAID}) is illegal at turn 1")


def test_leaves_replay_names_a_4000_digit_turn_count_in_words(capsys, tmp_path, monkeypatch):
    """A JSON record holds a number of 4,000 digits (Python reads up to 4,300): the refusal
    named it digit by digit, a line of 4,000 characters."""
    monkeypatch.setenv("COLUMNS", "400")
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", "1")  # the CLI sets it
    d = _record().to_dict()
    d["turns"] = 10**3999
    path = tmp_path / "games.jsonl"
    path.write_text(json.dumps(d) + "\n", encoding="utf-8")
    code, _, err = cli(capsys, "replay", str(path))
    line = one_error_line(err)
    assert code != 0 and len(line.replace(str(path), "")) < 200, line  # the path aside
    assert "record says a whole number of about 4,000 digits turns and 20 rounds" in line
