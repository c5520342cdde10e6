"""Records at their edges, from a user's side: ``GameRecord.from_states`` writes only what
``replay`` reads back (a game from a later position, a stop after the end, a dealt record of
hands its rules do not deal were written, then refused); a position set up by hand, at any
count ``State.initial`` takes, is recorded and replayed as the game it was; ``leaves replay``
says how many records a file holds whatever its last one is, and two records on one line so;
the sentences a refusal says are true (a turn limit of 1 turn, a record naming 13 Leaves
itself, a list named as the list the file holds)."""

from __future__ import annotations

import dataclasses

import pytest

import leaves
from leaves import GameRecord, IllegalActionError, State
from leaves.players.play import deal_state
from leaves.record import replay
from tests.helpers import cli, one_error_line


def _played(initial: State, stop: int | None = None) -> State:
    """The position ``initial`` reaches by the highest legal id each turn (to ``stop``)."""
    state = initial
    while not state.is_terminal and (stop is None or state.turn < stop):
        state = state.apply(state.legal_actions()[-1])
    return state


def _hands(n: int) -> list[list[int]]:
    """``n`` hands of two cards each, set up by hand (no deal of today's rules)."""
    hands = [[0] * 13 for _ in range(n)]
    for seat, hand in enumerate(hands):
        hand[(3 * seat) % 13] += 1
        hand[(3 * seat + 5) % 13] += 1
    return hands


# --- what replay would refuse is never written ----------------------------------------------

DEALT = deal_state(4, 3)
ENDED = _played(DEALT)
SHORT_HANDS = [list(h) for h in DEALT.hands]
SHORT_HANDS[0][SHORT_HANDS[0].index(max(SHORT_HANDS[0]))] -= 1  # one card short of a deal
SHORT = State.initial(SHORT_HANDS, DEALT.current_player)


@pytest.mark.parametrize(
    ("initial", "final", "how", "said"),
    [
        (_played(DEALT, 5), ENDED, {}, "initial must be a game's dealt position"),
        (DEALT, ENDED, {"stopped": "the player quit"}, "record says the game was cut short"),
        (DEALT, ENDED, {"forfeit_seat": 1}, "record says the game was cut short"),
        (DEALT, _played(DEALT, 5), {}, "record ends before the game is over"),
        (SHORT, _played(SHORT), {"seed": 3}, "its hands are not 11 cards each"),
    ],
    ids=[
        "later position",
        "stopped after the end",
        "forfeit after the end, no error",
        "left unsaid",
        "seed of no deal",
    ],
)
def test_a_game_replay_would_refuse_is_never_recorded(initial, final, how, said):
    """Each was written, and refused when read back."""
    with pytest.raises(ValueError) as info:
        GameRecord.from_states(initial, final, **how)
    assert str(info.value).startswith(said), info.value
    assert "\n" not in str(info.value)


def test_every_game_it_records_replays_to_its_final_position():
    """The accounts it takes, each: a whole game, a stop, a forfeit mid-game, a forfeit after
    the end (a seat failing when told the result), a stop before any move, hand-made hands."""
    middle = _played(DEALT, 5)
    for initial, final, how in (
        (DEALT, ENDED, {"seed": 3}),
        (DEALT, middle, {"stopped": "the player quit"}),
        (DEALT, middle, {"forfeit_seat": 2, "error": "boom"}),
        (DEALT, ENDED, {"forfeit_seat": 2, "error": "boom in end_game"}),
        (DEALT, DEALT, {"stopped": "the player quit"}),
        (SHORT, _played(SHORT), {}),
    ):
        states = replay(GameRecord.from_states(initial, final, **how))
        assert states[0] == initial and states[-1] == final


# --- a position set up by hand: any count State.initial takes --------------------------------


def test_a_position_set_up_by_hand_is_recorded_and_replayed_at_a_count_the_rules_never_deal():
    """``State.initial`` takes 2 hands (a study's position, not a deal of the rules, which
    allow 3 to 6 players; 7 it refuses: no rule set deals 7); its game, recorded with no
    seed, replays. A seed says the rules dealt it: that record is refused, naming the counts
    they allow."""
    n = 2
    initial = State.initial(_hands(n), 1)
    final = _played(initial)
    record = GameRecord.from_states(initial, final, strategies=["a"] * n)
    states = replay(GameRecord.from_json(record.to_json()))
    assert states[0] == initial and states[-1] == final and final.winner is not None
    with pytest.raises(ValueError) as info:
        GameRecord.from_states(initial, final, seed=5)
    assert str(info.value) == (
        f"the game has {n} hands, but its rules (default) allow 3 to 6 players (its seed says "
        "they dealt it)"
    )
    with pytest.raises(ValueError) as info:
        replay(dataclasses.replace(record, seed=5))
    assert str(info.value).startswith(f"bad record: the game has {n} hands, but its rules")


def test_leaves_replay_shows_a_two_player_position_set_up_by_hand(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "160")
    initial = State.initial(_hands(2), 1)
    final = _played(initial)
    path = tmp_path / "study.jsonl"
    path.write_text(GameRecord.from_states(initial, final, strategies=["a", "b"]).to_json())
    code, out, err = cli(capsys, "replay", str(path), "--all")
    assert code == 0 and err == "", err
    assert out.startswith(
        f"Game 1 of {path}: 2 players, {final.turn} turns, {final.round} rounds\n"
    ), out
    assert f"Result: seat {final.winner} (" in out


# --- leaves replay --game N past the end ----------------------------------------------------


def test_game_past_the_end_counts_the_records_whatever_the_last_one_is(tmp_path, capsys):
    """The count was said in the last record's game's word, so a last record of a game this
    installation lacks, or a damaged one, answered --game 5 with its own error instead."""
    good = GameRecord.from_states(DEALT, ENDED, seed=3).to_json()
    path = tmp_path / "games.jsonl"
    for last, count in (
        ('{"game":"nosuch"}', "2 records"),  # a game this installation lacks
        (good[:60], "2 records"),  # cut off
        ('{"game":"ligretto"}', "2 records"),  # two games' records: no one word for them
        (good, "2 game records"),
    ):
        path.write_text(f"{good}\n{last}\n")
        code, _, err = cli(capsys, "replay", str(path), "--game", "5")
        assert code == 2, err
        assert one_error_line(err) == f"leaves: error: --game 5: {path} holds only {count}"


# --- refusals that say what is true -----------------------------------------------------------


def test_a_turn_limit_of_one_turn_is_said_in_the_singular():
    state = State.initial(DEALT.hands, 0, rules="turn_limit=1")
    ended = state.apply(state.legal_actions()[0])
    with pytest.raises(IllegalActionError) as info:
        ended.apply(0)
    assert str(info.value) == "the game is over: the turn limit of 1 turn was reached (E1)"
    limited = State.initial(DEALT.hands, 0, rules="turn_limit=2")
    with pytest.raises(IllegalActionError, match="the turn limit of 2 turns was reached"):
        _played(limited).apply(0)


@pytest.mark.parametrize("name", ["leaves", "13leaves", "ligretto"])
def test_a_record_naming_a_game_is_refused_in_true_words(tmp_path, capsys, name):
    """It said "not a 13 Leaves game record" of a record naming 13 Leaves ("leaves", or its
    former id), which ``leaves replay`` had routed to 13 Leaves' viewer by that name."""
    record = GameRecord.from_states(DEALT, ENDED, seed=3)
    line = record.to_json()[:-1] + f',"game":"{name}"}}'
    said = f"""a 13 Leaves game record names no game, this one names '{name}' (its "game" key)"""
    with pytest.raises(ValueError) as info:
        GameRecord.from_json(line)
    assert str(info.value) == said
    if name != "ligretto":  # a Ligretto viewer reads that one
        path = tmp_path / "named.jsonl"
        path.write_text(line + "\n")
        code, _, err = cli(capsys, "replay", str(path), "--all")
        assert code == 1
        assert one_error_line(err) == f"leaves: error: {path}, line 1: bad game record: {said}"


def test_a_variants_game_is_written_and_read_back_equal():
    """A variant's game (its rules in the record) is written and read back equal."""
    rules = leaves.Rules(hand_size=9, take="nothing")
    initial = deal_state(4, 8, rules=rules)
    final = _played(initial, 9)
    record = GameRecord.from_states(initial, final, seed=8, stopped="the player quit")
    again = GameRecord.from_json(record.to_json())
    assert again == record and replay(again)[-1] == final
    assert dict(again.rules) == {"hand_size": 9, "take": "nothing"}


@pytest.mark.parametrize(
    ("field", "value", "said"),
    [
        ("strategies", [1, 2], "bad record: its strategies are [1, 2], not labels (text)"),
        ("stopped", ["quit"], "bad record: its reason for stopping is ['quit'], not words"),
        ("actions", [[56], 56], "record action 0 is [56], not an action id (a whole number)"),
    ],
)
def test_a_bad_value_is_named_as_the_file_holds_it(field, value, said):
    """A record keeps its lists as tuples; a refusal named them so, "(1, 2) (tuple)", of a
    file that holds ``[1, 2]``."""
    record = GameRecord.from_states(DEALT, _played(DEALT, 2), stopped="the player quit")
    bad = GameRecord.from_dict({**record.to_dict(), field: value})
    with pytest.raises(ValueError) as info:
        replay(bad)
    assert str(info.value).startswith(said), info.value


def test_two_records_on_one_line_are_said_so(tmp_path, capsys):
    """A file joined (``cat``) to one that did not end its last line holds two records on one
    line: it was said as JSON's "Extra data at column 353"."""
    line = GameRecord.from_states(DEALT, ENDED, seed=3).to_json()
    path = tmp_path / "joined.jsonl"
    path.write_text(f"{line}{line}\n")
    code, _, err = cli(capsys, "replay", str(path), "--all")
    assert code == 1
    assert one_error_line(err) == (
        f"leaves: error: {path}, line 1: bad game record: not a JSON game record: a second "
        f"record begins at column {len(line) + 1}: two records on one line (a file joined to "
        "one that did not end its last line?)"
    )
