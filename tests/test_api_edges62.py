"""Bad input to the Python API of one game (``play_game``, ``deal_state``, ``fresh``) and of
game records (``GameRecord``, ``replay``): one line of the right type naming the argument or
the field, never a value quietly read as another ("4" as four players, True as seat 1, a key
of a later version dropped), never Python's own words from deep inside."""

from __future__ import annotations

import json

import numpy as np
import pytest

import strategies
from leaves import GameRecord, Rules
from leaves.players.play import deal_state, fresh, play_game
from leaves.record import replay

TABLE = ["random", "low", "high", "greedy"]


# ---------------------------------------------------------------------- play_game
@pytest.mark.parametrize("bad", [None, 5, 1.5, b"random"], ids=repr)
def test_play_game_names_players_that_are_no_strategies(bad):
    with pytest.raises(TypeError, match=r"^players must be a strategy .* or a list of them.*, got"):
        play_game(bad, seed=1, n_players=4)


@pytest.mark.parametrize("unordered", [set, frozenset], ids=lambda f: f.__name__)
def test_play_game_refuses_seats_in_no_order(unordered):
    """A set's order follows the strings' hashes, which change from process to process: the
    same call would seat (and play) differently each time."""
    with pytest.raises(TypeError, match=r"^players must be .*in seat order.*, got .*set"):
        play_game(unordered(TABLE), seed=1)


@pytest.mark.parametrize("bad", ["4", True, 4.0, np.float64(4)], ids=repr)
def test_play_game_refuses_n_players_that_is_no_integer(bad):
    for players in ("random", ["random"] * 4):
        with pytest.raises(TypeError, match=r"^n_players takes a whole number of players"):
            play_game(players, seed=1, n_players=bad)


def test_play_game_takes_a_numpy_integer_as_n_players():
    one = play_game("random", seed=1, n_players=np.int64(4))
    assert one == play_game("random", seed=1, n_players=4)


@pytest.mark.parametrize("bad", [-1, 0, 2, 7, 10**30], ids=repr)
def test_play_game_refuses_a_table_size_the_rules_do_not_allow(bad):
    for players in ("random", ["random"] * 4):
        with pytest.raises(
            ValueError, match=rf"^13 Leaves is played by 3 to 6 players, got {bad}$"
        ):
            play_game(players, seed=1, n_players=bad)


def test_one_strategy_without_n_players_names_the_counts_of_the_rules():
    with pytest.raises(ValueError, match=r"^give n_players \(3 or 4\) when one strategy"):
        play_game("random", seed=1, rules="hand_size=14")
    with pytest.raises(ValueError, match=r"^give n_players \(3 to 6\) when one strategy"):
        play_game("random", seed=1)


@pytest.mark.parametrize("given", [{"deal_seed": 2}, {"play_seed": 3},
                                   {"deal_seed": 2, "play_seed": 3}], ids=repr)  # fmt: skip
def test_play_game_refuses_seed_with_deal_or_play_seed(given):
    with pytest.raises(ValueError, match=r"^give seed, or deal_seed and play_seed, not both"):
        play_game(TABLE, seed=1, **given)


class _Moody(strategies.Strategy, register=False):
    """Plays differently in each game its instance has started: state kept on ``self``."""

    name = "moody"

    def __init__(self) -> None:
        self.games = 0

    def start_game(self, view, rng):
        self.games += 1

    def choose(self, view, legal, rng):
        return legal[self.games % len(legal)]


def test_the_instances_given_play_so_state_kept_on_them_changes_a_later_game():
    """What docs/strategies.md says of ``play_game``: unlike a batch, it plays the instances
    given (their hooks run on them); a batch's games from the same seeds do not move."""
    moody = _Moody()
    first = play_game([moody, "low", "high"], seed=1)
    again = play_game([moody, "low", "high"], seed=1)
    assert moody.games == 2 and (again.turns, again.winner) != (first.turns, first.winner)
    seeds = np.array([first.deal_seed], np.uint64), np.array([first.play_seed], np.uint64)
    batches = [strategies.play_batch([moody, "low", "high"], *seeds) for _ in range(2)]
    assert batches[0].turns[0] == batches[1].turns[0] == first.turns and moody.games == 2


def test_seed_derives_the_two_seeds_that_play_the_same_game():
    one = play_game(TABLE, seed=5)
    again = play_game(TABLE, deal_seed=one.deal_seed, play_seed=one.play_seed)
    assert again == one and again.final_state == one.final_state


@pytest.mark.parametrize("bad", ["no", None, 0, 1], ids=repr)
def test_play_game_takes_record_true_or_false(bad):
    with pytest.raises(TypeError, match=r"^record takes True or False, got"):
        play_game(TABLE, seed=1, record=bad)
    assert play_game(TABLE, seed=1, record=np.bool_(False)).record is None


@pytest.mark.parametrize("bad", ["4", True, 4.0], ids=repr)
def test_deal_state_refuses_n_players_that_is_no_integer(bad):
    with pytest.raises(TypeError, match=r"^n_players takes a whole number of players"):
        deal_state(bad, 1)
    assert deal_state(np.int8(4), 1) == deal_state(4, 1)


@pytest.mark.parametrize("bad", ["random", None, strategies.get], ids=["text", "None", "function"])
def test_fresh_names_what_is_no_strategy_instance(bad):
    with pytest.raises(TypeError, match=r"^fresh takes a strategy instance, got"):
        fresh(bad)


def test_a_played_game_record_replays_to_its_final_state_forfeit_included():
    class Quits(strategies.Strategy, register=False):
        name = "quits"

        def choose(self, view, legal, rng):
            if view.turn >= 6:
                raise RuntimeError("gave up")
            return legal[0]

    for players in (TABLE, [Quits(), "low", "high"]):
        result = play_game(players, seed=11)
        states = replay(GameRecord.from_json(result.record.to_json()))
        assert states[-1] == result.final_state
        assert len(states) == result.turns + 1
        assert result.record.seed == result.deal_seed  # the record's seed deals its hands
        assert deal_state(len(players), result.record.seed) == states[0]
    assert result.forfeit_seat is not None and "gave up" in result.record.error


# ---------------------------------------------------------------------- records
@pytest.fixture(scope="module")
def good() -> dict:
    return play_game(TABLE, seed=3).record.to_dict()


def test_from_dict_refuses_an_unknown_key(good):
    with pytest.raises(
        ValueError, match=r"^unknown key 'comment' in a game record \(.*\); the keys"
    ):
        GameRecord.from_dict({**good, "comment": "kept out?"})
    with pytest.raises(ValueError, match=r"^unknown key 'turn_limt' in a game record"):
        GameRecord.from_json(json.dumps({**good, "turn_limt": 50}))


def _bad(good: dict, **changes) -> GameRecord:
    return GameRecord.from_dict({**good, **changes})


@pytest.mark.parametrize("bad", [True, 1.0, "1", -1, 4], ids=repr)
def test_replay_refuses_a_winner_that_is_no_seat(good, bad):
    with pytest.raises(ValueError, match=r"^bad record: its winner is .*, not a seat 0\.\.3"):
        replay(_bad(good, winner=bad))


@pytest.mark.parametrize("key", ["turns", "rounds"])
@pytest.mark.parametrize("how", [float, str, bool], ids=lambda f: f.__name__)
def test_replay_refuses_turns_and_rounds_that_are_no_counts(good, key, how):
    with pytest.raises(ValueError, match=rf"^bad record: its {key} is .*, not a whole number"):
        replay(_bad(good, **{key: how(good[key])}))
    with pytest.raises(ValueError, match=rf"^bad record: its {key} is -1, not a whole number"):
        replay(_bad(good, **{key: -1}))


@pytest.mark.parametrize("bad", ["abcd", None, [1, 2, 3, 4], ["a", "b", "c", "d", "e"]],
                         ids=repr)  # fmt: skip
def test_replay_refuses_strategies_that_are_no_seats_labels(good, bad):
    with pytest.raises(ValueError, match=r"^bad record: its strategies are .*, not labels"):
        replay(_bad(good, strategies=bad))
    assert len(replay(_bad(good, strategies=["a", "b"]))) == good["turns"] + 1  # some named


def test_replay_refuses_an_error_that_is_no_text_or_has_no_forfeiting_seat(good):
    with pytest.raises(ValueError, match=r"^bad record: its error is 5, not words"):
        replay(_bad(good, error=5))
    with pytest.raises(ValueError, match=r"^bad record: its error .* but no seat forfeited"):
        replay(_bad(good, error="boom"))


def test_replay_refuses_a_turn_limit_its_rules_contradict(good):
    with pytest.raises(ValueError, match=r"^bad record: its rules say turn_limit=50, its "):
        replay(_bad(good, rules={"turn_limit": 50}))
    assert len(replay(_bad(good, rules={"turn_limit": 1000}))) == good["turns"] + 1


def test_from_json_refuses_bytes_that_are_no_text():
    with pytest.raises(ValueError, match=r"^not a JSON game record: not UTF-8 text$"):
        GameRecord.from_json(b"\xff{}")


def test_a_rules_turn_limit_record_reads_back():
    rec = play_game(TABLE, seed=3, rules=Rules(turn_limit=20)).record
    assert rec.rules == {"turn_limit": 20} and rec.turn_limit == 20
    assert replay(GameRecord.from_json(rec.to_json()))[-1].unfinished


def test_a_record_of_numpy_values_writes_the_json_of_plain_ones(good):
    plain = GameRecord.from_dict(good)
    as_numpy = GameRecord(
        **{
            **good,
            "hands": np.array(good["hands"], np.int8),
            "actions": np.array(good["actions"]),
            "first_player": np.int64(good["first_player"]),
            "winner": np.int8(good["winner"]),
            "turns": np.int32(good["turns"]),
            "seed": np.uint64(good["seed"]),
            "unfinished": np.bool_(False),
        }
    )
    assert as_numpy == plain and as_numpy.to_json() == plain.to_json()
    assert GameRecord(**{**good, "actions": [np.int64(a) for a in good["actions"]]}) == plain
    assert len(replay(as_numpy)) == good["turns"] + 1


def test_a_record_under_changed_rules_is_hashable_as_equal_records_are():
    rec = play_game(TABLE, seed=3, rules="hand_size=9,take=ends").record
    again = GameRecord.from_json(rec.to_json())
    assert rec.rules == {"hand_size": 9, "take": "ends"}
    assert hash(rec) == hash(again) and len({rec, again}) == 1
    assert len({rec, play_game(TABLE, seed=4, rules="hand_size=9,take=ends").record}) == 2


@pytest.mark.parametrize("bad", ["abcd", None, 4], ids=repr)
def test_from_states_refuses_strategies_that_list_no_labels(bad):
    """A string would be read letter by letter, a seat's label each."""
    result = play_game(TABLE, seed=3)
    initial = replay(result.record)[0]
    with pytest.raises(TypeError, match=r"^strategies must list the seats' labels, got "):
        GameRecord.from_states(initial, result.final_state, strategies=bad)


@pytest.mark.parametrize("bad", ["1000", 1000.0, True], ids=repr)
def test_replay_refuses_a_turn_limit_that_is_no_whole_number(good, bad):
    with pytest.raises(ValueError, match=r"^bad record: .*turn_limit.* a whole number"):
        replay(_bad(good, turn_limit=bad))


def test_a_game_under_changed_rules_replays_to_its_final_state():
    result = play_game(TABLE, seed=8, rules="hand_size=9,take=ends,turn_limit=300")
    states = replay(GameRecord.from_json(result.record.to_json()), rules=result.final_state.rules)
    assert states[-1] == result.final_state and states[0].rules == result.final_state.rules


class _SoreLoser(strategies.Strategy, register=False):
    """Plays the first legal action, and fails when told how the game ended."""

    name = "sore"

    def choose(self, view, legal, rng):
        return legal[0]

    def end_game(self, view, result):
        raise RuntimeError("sore loser")


def test_a_game_forfeited_in_end_game_replays_from_its_record():
    result = play_game([_SoreLoser(), "low", "high"], seed=2)
    assert result.forfeit_seat == 0 and result.winner is None and "sore loser" in result.error
    assert result.final_state.is_terminal  # the last move was played: end_game came after it
    states = replay(GameRecord.from_json(result.record.to_json()))
    assert states[-1] == result.final_state
    cut = GameRecord.from_dict({**result.record.to_dict(), "error": None, "forfeit_seat": None})
    assert replay(cut)[-1] == result.final_state  # the same moves, without the forfeit


def test_a_records_rules_are_read_only_at_every_depth():
    rules = Rules.parse("hand_size=3:12/4:9,deck=4/4/4/4/4/4/4/4/4/4/4/4/5")
    rec = play_game(["random"] * 4, seed=1, rules=rules).record
    assert rec.rules == rules.changes() and isinstance(rec.rules["deck"], list)
    before = hash(rec)
    for change in (
        lambda r: r["hand_size"].__setitem__("4", 10),
        lambda r: r["hand_size"].pop("4"),
        lambda r: r["deck"].append(4),
        lambda r: r["deck"].__setitem__(0, 3),
        lambda r: r["deck"].sort(),
    ):
        with pytest.raises(TypeError, match="^a game record's rules are read-only$"):
            change(rec.rules)
    assert rec.rules == rules.changes() and hash(rec) == before
    d = rec.to_dict()  # the caller's to change, at every depth
    d["rules"]["hand_size"]["4"] = 10
    d["rules"]["deck"].append(4)
    assert type(d["rules"]["deck"]) is list and rec.rules == rules.changes()
    assert replay(GameRecord.from_json(rec.to_json()))[0].rules == rules
