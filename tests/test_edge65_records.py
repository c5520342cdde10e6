"""Refusals that say what is true: a resume asked for fewer than 1 game is refused in a new
run's words (a run of one deal a table read it as that deal's games and played nothing), and
replay names a record's bad value in one line, a forfeited game marked unfinished for what it
is, and hands its rules allow no game of."""

from __future__ import annotations

import dataclasses
import json

import pandas as pd
import pytest

import leaves
import strategies
from leaves import GameRecord, replay
from tests.helpers import cli, one_error_line

# --- a resume asked for fewer than 1 game ---------------------------------------------------


@pytest.fixture
def one_deal_run(tmp_path, capsys):
    """A run of one deal on its one table (6 seatings of 3 strategies)."""
    out = tmp_path / "run"
    code, _, err = cli(capsys, "tournament", "random", "greedy", "low", "--players", "3",
                       "--games", "1", "--seed", "1", "--jobs", "1", "--out", str(out))  # fmt: skip
    assert code == 0, err
    spec = json.loads((out / "manifest.json").read_text())["spec"]
    assert spec["deal_stages"] == [1] and spec["n_games"] == 6
    return out


@pytest.mark.parametrize("games", ["0", "-3"])
def test_a_resume_asked_for_fewer_than_1_game_is_refused_as_a_new_run_is(
    one_deal_run, tmp_path, capsys, games
):
    before = (one_deal_run / "manifest.json").read_text()
    code, out, err = cli(capsys, "tournament", "--resume", "--out", str(one_deal_run),
                         "--games", games)  # fmt: skip
    words = f"--games must be at least 1, got {games}"
    assert (code, out) == (2, "")
    assert one_error_line(err) == f"leaves: error: cannot resume {one_deal_run}: {words}"
    assert (one_deal_run / "manifest.json").read_text() == before
    code, _, err = cli(capsys, "tournament", "random", "greedy", "low", "--games", games,
                       "--out", str(tmp_path / "new"))  # fmt: skip
    assert code == 2 and one_error_line(err) == f"leaves: error: {words}"


def test_a_resume_asked_for_1_game_or_its_games_still_grows_nothing(one_deal_run, capsys):
    for games in ("1", "6"):
        code, out, err = cli(capsys, "tournament", "--resume", "--out", str(one_deal_run),
                             "--games", games)  # fmt: skip
        assert code == 0, err
        assert "already holds all 6 games" in out


# --- replay's words ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def won() -> GameRecord:
    return strategies.play_game(["greedy", "low", "high"], seed=3).record


LONG = pd.Series(range(30))
"""A value whose repr runs over 31 lines."""


@pytest.mark.parametrize(
    ("field", "said"),
    [
        ("actions", "actions must be a list of action ids, got 0 0 1 1 2 2 {cut}"),
        ("winner", "its winner is 0 0 1 1 2 2 {cut}, not a seat 0..2"),
        ("turns", "its turns is 0 0 1 1 2 2 {cut}, not a whole number >= 0"),
        ("unfinished", "unfinished must be True or False, got 0 0 1 1 2 2 {cut}"),
    ],
)
def test_a_value_whose_repr_runs_over_lines_is_named_in_one_cut_line(won, field, said):
    with pytest.raises(ValueError) as info:
        replay(dataclasses.replace(won, **{field: LONG}))
    cut = "3 3 4 4 5 5 6 6 7 7 8 8 9 9 10 10 11 11 12 12... (Series)"
    assert str(info.value) == "bad record: " + said.format(cut=cut)


def test_a_long_value_on_one_line_is_cut_and_a_short_one_named_as_typed(won):
    error = ("x" * 80,)  # one line of 86 characters
    with pytest.raises(ValueError) as info:
        replay(dataclasses.replace(won, forfeit_seat=0, error=error))
    assert str(info.value) == f"bad record: its error is ['{'x' * 55}... (list), not words"
    with pytest.raises(ValueError) as info:
        replay(dataclasses.replace(won, forfeit_seat="1"))
    assert str(info.value) == "bad record: its forfeiting seat is '1', not a seat 0..2"


def test_an_action_that_runs_over_lines_is_named_in_one_line(won):
    with pytest.raises(ValueError) as info:
        replay(dataclasses.replace(won, actions=(LONG, *won.actions)))
    assert str(info.value).startswith("record action 0 is 0 0 1 1 2 2 3 3 ")
    assert str(info.value).endswith("... (Series), not an action id (a whole number)")


def _cut_short(unfinished: bool | None = None, **how) -> GameRecord:
    """A game left after its first turn (by default seat 0 forfeits it), as a tournament
    records it, but marked ``unfinished`` as given (as recorded: None)."""
    first = leaves.new_game(4, seed=2)
    later = first.apply(first.legal_actions()[0])
    record = GameRecord.from_states(first, later, **(how or {"forfeit_seat": 0, "error": "x"}))
    marked = record.unfinished if unfinished is None else unfinished
    return GameRecord.from_dict({**record.to_dict(), "unfinished": marked})


def test_a_forfeited_game_marked_unfinished_is_refused_for_what_it_is():
    assert len(replay(_cut_short())) == 2
    with pytest.raises(ValueError) as info:
        replay(_cut_short(unfinished=True))
    limit = leaves.Rules().turn_limit
    assert str(info.value) == (
        "record says the game was unfinished, but seat 0 forfeited it after 1 turns, short of "
        f"its turn limit ({limit}), and it names no stop: a game forfeited is finished"
    )


def test_a_game_marked_unfinished_or_finished_against_its_end_says_which(won):
    with pytest.raises(ValueError) as info:
        replay(dataclasses.replace(won, unfinished=True))
    assert str(info.value) == (
        "record says the game was unfinished, its actions give a finished game"
    )
    limited = strategies.play_game(["greedy", "low", "high"], seed=3, rules="turn_limit=5")
    with pytest.raises(ValueError) as info:
        replay(dataclasses.replace(limited.record, unfinished=False))
    assert str(info.value) == (
        "record says the game was finished, its actions give an unfinished game"
    )
    stopped = _cut_short(stopped="the player quit")
    assert stopped.unfinished and len(replay(stopped)) == 2
    with pytest.raises(ValueError) as info:
        replay(dataclasses.replace(stopped, unfinished=False))
    assert str(info.value) == "record says the game was finished, but it stopped: 'the player quit'"


def test_hands_more_or_fewer_than_its_rules_allow_players_are_refused_in_a_deal(won):
    """A record with a seed says its rules dealt it: 3 hands are no deal of ``players=4``."""
    for rules, allowed in (({"players": 4}, "4"), ({"players": "4-5"}, "4 or 5")):
        record = dataclasses.replace(won, rules=rules, seed=7)
        with pytest.raises(ValueError) as info:
            replay(record)
        assert str(info.value) == (
            f"bad record: the game has 3 hands, but its rules ({leaves.Rules.of(rules)}) "
            f"allow {allowed} players (its seed says they dealt it)"
        )
    allowed = dataclasses.replace(won, rules={"players": "3-4"}, seed=7)
    assert replay(allowed)[-1].winner == won.winner


def test_a_position_set_up_by_hand_is_replayed_whatever_its_count(won):
    """A record with no seed holds a position set up by hand, which ``State.initial`` takes
    at any count (a researcher's study): it replays, as the game it was."""
    for rules in ({"players": 4}, {"players": "4-5"}):
        record = dataclasses.replace(won, rules=rules, seed=None)
        assert replay(record)[-1].winner == won.winner


def test_a_game_of_a_count_its_rules_deal_no_game_of_is_recorded_only_by_hand(won):
    first = leaves.State.initial(won.hands, 0, rules="players=4")
    with pytest.raises(ValueError) as info:
        GameRecord.from_states(first, first, seed=7, stopped="quit")
    said = "the game has 3 hands, but its rules (players=4) allow 4 players"
    assert str(info.value) == f"{said} (its seed says they dealt it)"
    record = GameRecord.from_states(first, first, stopped="quit")
    assert replay(record) == [first]
