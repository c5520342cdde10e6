"""leaves/record.py at its boundaries, worked out by hand: what a record keeps of a game, the
keys it leaves out for today's whole games, and each way ``replay`` refuses a record that its
actions contradict (``benchmarks/bench_mutation.py leaves/record.py``)."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

import leaves
from leaves import GameRecord, IllegalActionError, Rules
from leaves.players.play import deal_state
from leaves.record import read_records, replay


def _played(n: int = 4, seed: int = 3, rules: Rules | None = None, stop: int | None = None):
    """(initial, final) of a game played by the lowest legal id each turn."""
    initial = deal_state(n, seed, rules=rules)
    state = initial
    while not state.is_terminal and (stop is None or state.turn < stop):
        state = state.apply(min(state.legal_actions(), key=lambda a: a.id))
    return initial, state


def test_a_record_keeps_the_deal_the_actions_and_the_result():
    initial, final = _played()
    rec = GameRecord.from_states(initial, final, seed=np.int64(3), strategies=("a", "b"))
    assert rec.hands == tuple(tuple(h) for h in initial.hands) and rec.n_players == 4
    assert rec.first_player == initial.current_player
    assert rec.actions == tuple(a.id for _, a in final.history)
    assert (rec.winner, rec.turns, rec.rounds) == (final.winner, final.turn, final.round)
    assert rec.seed == 3 and type(rec.seed) is int and rec.strategies == ("a", "b")
    assert rec.turn_limit == 1000 and rec.unfinished is False and rec.rules is None
    assert GameRecord.from_states(initial, final).seed is None
    states = replay(rec)
    assert states[0] == initial and states[-1] == final and len(states) == rec.turns + 1


def test_a_game_is_recorded_from_its_deal_not_from_a_later_position():
    """A record keeps the hands and the first player only: from a later position it would
    lose the table and the counts, and replay would refuse it (it was written)."""
    initial, final = _played()
    middle = replay(GameRecord.from_states(initial, final))[5]
    with pytest.raises(ValueError) as info:
        GameRecord.from_states(middle, final)
    assert str(info.value) == (
        "initial must be a game's dealt position (turn 0, nothing played, taken, removed or "
        f"passed), got {middle!r}: a record keeps its hands and first player only"
    )


def test_today_whole_games_leave_out_stopped_and_rules():
    initial, final = _played()
    d = GameRecord.from_states(initial, final, seed=3).to_dict()
    assert "stopped" not in d and "rules" not in d
    assert d["forfeit_seat"] is None and d["error"] is None  # always written
    varied, final2 = _played(rules=Rules(take="ends"), stop=7)
    d2 = GameRecord.from_states(varied, final2, seed=3, stopped="the player quit").to_dict()
    assert d2["rules"] == {"take": "ends"} and d2["stopped"] == "the player quit"
    assert d2["unfinished"] is True
    line = GameRecord.from_states(initial, final, seed=3).to_json()
    assert "\n" not in line and GameRecord.from_json(line) == GameRecord.from_dict(d)


def test_reading_a_record_refuses_what_is_no_record():
    with pytest.raises(ValueError, match="^a game record must be a JSON object$"):
        GameRecord.from_dict([1, 2])
    with pytest.raises(ValueError, match="^game record is missing winner, rounds$"):
        GameRecord.from_dict({"hands": [], "first_player": 0, "actions": [], "turns": 0})
    with pytest.raises(ValueError, match="^not a JSON game record: .* at column 2$"):
        GameRecord.from_json("{x")
    initial, final = _played()
    d = {**GameRecord.from_states(initial, final).to_dict(), "comment": "kept out"}
    with pytest.raises(ValueError, match="^unknown key 'comment' in a game record"):
        GameRecord.from_dict(d)


def _record(**changes):
    initial, final = _played()
    return GameRecord(**{**GameRecord.from_states(initial, final, seed=3).to_dict(), **changes})


def test_replay_refuses_a_record_its_actions_contradict():
    good = _record()
    with pytest.raises(ValueError, match=r"^record says winner \d, its actions give \d$"):
        replay(_record(winner=(good.winner + 1) % 4))
    with pytest.raises(ValueError, match=r"^record says \d+ turns and \d+ rounds, its actions "):
        replay(_record(turns=good.turns + 1))
    with pytest.raises(ValueError, match=r"^record says \d+ turns and \d+ rounds"):
        replay(_record(rounds=good.rounds - 1))
    with pytest.raises(ValueError, match="^record ends before the game is over$"):
        replay(_record(actions=good.actions[:-1], turns=good.turns - 1))
    with pytest.raises(ValueError, match=r"^record action 2 is 1.5, not an action id"):
        replay(_record(actions=[*good.actions[:2], 1.5]))
    with pytest.raises(ValueError, match=r"^record action 0 is True, not an action id"):
        replay(_record(actions=[True]))
    illegal = next(
        a for a in range(117) if a not in {x.id for x in deal_state(4, 3).legal_actions()}
    )
    with pytest.raises(IllegalActionError, match=rf"^record action 0 \(id {illegal}\) is illegal"):
        replay(_record(actions=[illegal]))
    assert len(replay(_record(actions=[np.int64(a) for a in good.actions]))) == good.turns + 1


def test_a_game_cut_short_replays_to_where_it_stopped():
    initial, final = _played(stop=7)
    for kw in ({"stopped": "the player quit"}, {"forfeit_seat": 1, "error": "boom"}):
        rec = GameRecord.from_states(initial, final, seed=3, **kw)
        assert replay(rec)[-1] == final and len(replay(rec)) == 8
    rec = GameRecord.from_states(initial, final, seed=3, stopped="the player quit")
    rec = dataclasses.replace(rec, stopped=None, unfinished=False)  # not said to be cut short
    with pytest.raises(ValueError, match="^record ends before the game is over$"):
        replay(rec)
    with pytest.raises(ValueError, match="^record ends before the game is over$"):
        GameRecord.from_states(initial, final, seed=3)  # nor written so


def test_a_record_must_hold_a_deal_of_its_rules():
    good = _record()
    hands = [list(h) for h in good.hands]
    hands[0][hands[0].index(max(hands[0]))] -= 1  # one card short
    with pytest.raises(ValueError, match="^bad record: its hands are not 11 cards each"):
        replay(_record(hands=hands))
    initial = leaves.State.initial([h[:] for h in hands], good.first_player)
    rec = GameRecord(**{**good.to_dict(), "hands": hands, "seed": None, "actions": [],
                        "turns": 0, "rounds": 1, "winner": None, "forfeit_seat": 0})  # fmt: skip
    assert replay(rec)[0] == initial  # a hand-made position (no seed) is not a deal: allowed
    with pytest.raises(ValueError, match="^the record was played under the rules"):
        replay(good, rules=Rules(take="ends"))
    assert len(replay(good, rules=Rules(turn_limit=5))) == good.turns + 1  # the limit aside


def test_read_records_skips_blank_lines_and_names_a_bad_one(tmp_path):
    line = _record().to_json()
    path = tmp_path / "games.jsonl"
    path.write_text(f"{line}\n\n   \n{line}\n")
    assert len(read_records(path)) == 2
    path.write_text(f"{line}\n\n{json.dumps([1])}\n")
    with pytest.raises(ValueError, match=r"games.jsonl, line 3: a game record must be"):
        read_records(path)


def test_a_record_takes_seed_0_and_refuses_minus_1():
    """The bound itself: 0 is a seed (numpy's too), -1 is not."""
    s = leaves.new_game(4, seed=1)
    assert GameRecord.from_states(s, s, seed=0, stopped="quit").seed == 0
    with pytest.raises(ValueError, match=r"^seed must be 0 to 2\*\*64 - 1, got -1$"):
        GameRecord.from_states(s, s, seed=-1, stopped="quit")
