"""Bad input to the Python API's remaining edges (``play_batch``, ``play_seatings``, the
decision timeout, the unknown-key rule of states, rules and records), and what a game
record's ``seed`` is: one line of the right type naming the argument, never a value quietly
read as another (True as one second, "no" as True, 0.7 as table 0)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

import leaves
import strategies
from leaves import GameRecord, Rules, State
from leaves.players.batch import play_batch, play_seatings
from leaves.players.play import deal_state, play_game
from leaves.record import replay
from tournaments import Tournament

ROOT = Path(__file__).resolve().parents[1]
TABLE = ["random", "low", "high", "greedy"]
SEEDS = np.arange(3, dtype=np.uint64)


class _First(strategies.Strategy, register=False):
    """A plain-Python seat (no compiled policy): its table plays on the Python path."""

    name = "first"

    def choose(self, view, legal, rng):
        return legal[0]


def refused(exc: type[Exception], pattern: str, make, *args, **kw) -> None:
    """``make(*args, **kw)`` raises exactly ``exc``, its one-line message matching."""
    with pytest.raises(exc, match=pattern) as info:
        make(*args, **kw)
    assert type(info.value) is exc and "\n" not in str(info.value)


# ---------------------------------------------------------------------- decision_timeout
@pytest.mark.parametrize("bad", [True, False, np.bool_(True), "1", b"1", "0.5"], ids=repr)
def test_a_decision_timeout_that_is_no_number_is_refused_naming_it(bad):
    """True was read as 1 s and "1" as one second: neither is a number of seconds."""
    said = r"^decision_timeout: the decision timeout must be a number of seconds, got "
    refused(ValueError, said, play_game, TABLE, seed=1, decision_timeout=bad)
    refused(ValueError, said, play_batch, [_First(), "low", "high"], SEEDS, SEEDS,
            decision_timeout=bad)  # fmt: skip
    refused(ValueError, said, play_batch, TABLE, SEEDS, SEEDS, decision_timeout=bad)


def test_a_tournaments_game_refuses_a_decision_timeout_that_is_no_number():
    from leaves.plugin import LeavesGame  # the game a tournament plays

    said = r"^decision_timeout: the decision timeout must be a number of seconds, got True \("
    with pytest.raises(ValueError, match=said):  # a ParameterError: the flag's name on a CLI
        LeavesGame(decision_timeout=True)


def test_a_decision_timeout_too_large_for_a_float_is_refused_in_one_line():
    """``float(10**400)`` raises OverflowError, which escaped as Python's own words."""
    refused(ValueError, r"^decision_timeout: the decision timeout must be at most 1000000 s "
            r"\(0: none\), got a "
            r"whole number past any float's range$", play_game, TABLE, seed=1,
            decision_timeout=10**400)  # fmt: skip
    refused(ValueError, r"^decision_timeout: the decision timeout must be 0 \(none\) or "
            r"positive, got a whole",
            play_game, TABLE, seed=1, decision_timeout=-(10**400))  # fmt: skip


@pytest.mark.parametrize("good", [None, 0, 5, 2.5, np.float64(3), np.int64(2)], ids=repr)
def test_a_number_of_seconds_is_still_a_decision_timeout(good):
    assert play_game(TABLE, seed=1, decision_timeout=good) == play_game(TABLE, seed=1)


# ---------------------------------------------------------------------- play_batch's table
@pytest.mark.parametrize(
    ("bad", "said"),
    [(None, "got None"), ("random", "got the string 'random'"), (5, "got 5"),
     (strategies.get("random"), "got ")],
    ids=["None", "str", "int", "instance"],
)  # fmt: skip
def test_play_batch_names_its_table_argument(bad, said):
    """It said "players must be ..." and "give n_players", arguments play_batch has not."""
    refused(TypeError, rf"^table must be a list of strategies or specs, {said}", play_batch,
            bad, SEEDS, SEEDS)  # fmt: skip


@pytest.mark.parametrize("unordered", [set, frozenset], ids=lambda f: f.__name__)
def test_play_batch_refuses_a_table_in_no_order(unordered):
    refused(TypeError, r"^table must be a list of strategies or specs in seat order \(a set "
            r"has none\), got",
            play_batch, unordered(TABLE), SEEDS, SEEDS)  # fmt: skip


@pytest.mark.parametrize("bad", ["no", 1, None], ids=repr)
def test_play_batch_takes_record_true_or_false(bad):
    """record="no" (true) turned records on, on either path."""
    for table in (TABLE, [_First(), "low", "high"]):
        refused(TypeError, r"^record takes True or False, got ", play_batch, table, SEEDS,
                SEEDS, record=bad)  # fmt: skip


def test_play_batch_still_takes_a_list_or_tuple_of_seats():
    one = play_batch(TABLE, SEEDS, SEEDS, record=np.bool_(True))
    two = play_batch(tuple(TABLE), SEEDS, SEEDS)
    assert list(one.winner_seat) == list(two.winner_seat) and len(one.records) == 3


# ---------------------------------------------------------------------- play_seatings
def test_play_seatings_names_its_tables_argument():
    for bad in ("random", {tuple(TABLE)}, None):  # a set: no order
        refused(TypeError, r"^tables must be a list of tables \(each a list of strategies or "
                r"specs in seat order\), got ", play_seatings, bad, [0], [1], [1])  # fmt: skip
    refused(TypeError, r"^tables\[1\] must be a list of strategies or specs, got the string",
            play_seatings, [TABLE, "random"], [0], [1], [1])  # fmt: skip


@pytest.mark.parametrize("bad", [[0.7], [True], ["0"]], ids=repr)
def test_play_seatings_refuses_a_seating_that_is_no_table_index(bad):
    """0.7 was read as table 0 and True as table 1."""
    tables = [TABLE, TABLE[::-1]]
    refused(ValueError, r"^seating must hold integers, got dtype", play_seatings, tables, bad,
            [1], [1])  # fmt: skip


def test_play_seatings_takes_a_numpy_decision_timeout_and_refuses_a_bool():
    tables = [[_First(), "low", "high"]]
    refused(ValueError, r"^decision_timeout: the decision", play_seatings, tables, [0], [1], [1],
            decision_timeout=True)  # fmt: skip
    assert len(play_seatings(tables, [0], [1], [1], decision_timeout=np.float64(5))) == 1


# ---------------------------------------------------------------------- unknown keys
def test_every_form_names_its_first_unknown_key_in_one_shape():
    """State.from_dict, Rules.from_dict and GameRecord.from_dict refuse a key they do not
    know alike: the first one given, then the keys they know."""
    state = leaves.new_game(4, seed=1).to_dict()
    record = play_game(TABLE, seed=1).record.to_dict()
    for make, d, what in ((State.from_dict, state, "key"), (Rules.from_dict, {}, "rule"),
                          (GameRecord.from_dict, record, "key")):  # fmt: skip
        with pytest.raises(ValueError) as info:
            make({**d, "zeta": 1, "alpha": 2})
        said = str(info.value)
        assert said.startswith(f"unknown {what} 'zeta'") and f"; the {what}s are " in said


def test_rules_from_dict_names_an_unknown_key_that_is_no_text():
    """Sorting the unknown keys to name the first raised TypeError ("'<' not supported")
    when one was no string."""
    refused(ValueError, r"^unknown rule 'colour'; the rules are hand_size", Rules.from_dict,
            {"colour": 1, 5: 2})  # fmt: skip
    refused(ValueError, r"^unknown rule 5; the rules are hand_size", Rules.from_dict, {5: 2})


def test_the_unknown_key_rule_is_written_once():
    """One helper words it for the three forms: none of them spells the sentence itself."""
    for name in ("validate.py", "ruleset.py", "record.py"):
        assert "the keys are" not in (ROOT / "leaves" / name).read_text(encoding="utf-8")
        assert "the rules are" not in (ROOT / "leaves" / name).read_text(encoding="utf-8")


# ---------------------------------------------------------------------- a record's seed
def _deals_its_hands(record: GameRecord) -> bool:
    """Whether the record's seed, as a deal seed, deals its hands and first player."""
    dealt = deal_state(record.n_players, record.seed, rules=record.game_rules())
    return dealt.hands == record.hands and dealt.current_player == record.first_player


def test_every_writer_records_the_deal_seed_of_its_hands(tmp_path):
    """What docs/rules.md says of a deal seed ("the same hands and first player everywhere"):
    the seed of a record play_game, play_batch (either path) or a tournament's --record
    writes deals that record's hands, under changed rules too."""
    records = [play_game(TABLE, seed=7).record,
               play_game(TABLE[:3], seed=7, rules="hand_size=9").record]  # fmt: skip
    for table in (TABLE, [_First(), "low", "high"]):
        records += play_batch(table, SEEDS, SEEDS + 5, rules="take=ends", record=True).records
    path = tmp_path / "games.jsonl"
    Tournament(["greedy", "low", "high"], players=3, games=12, seed=3, record=path).run(
        out=tmp_path / "run"
    )
    records += leaves.read_records(path)
    assert len(records) == 2 + 6 + 12
    for record in records:
        assert replay(record)[-1].is_terminal and _deals_its_hands(record)


def test_the_documented_example_records_no_seed_its_hands_do_not_come_from():
    """docs/rules-core.md passed new_game's seed as the record's: ``leaves replay`` then
    called it "deal seed 42", which deals other hands. new_game's seed is no deal seed."""
    text = (ROOT / "docs" / "rules-core.md").read_text(encoding="utf-8")
    block = text.split("```python\n", 1)[1].split("```", 1)[0]
    scope: dict = {}
    exec(block.replace("state.apply(Action.take(5))", "None"), scope)  # noqa: S102 - our docs
    record = scope["record"]
    assert record.seed is None or _deals_its_hands(record)
    assert replay(record)[-1] == scope["state2"]
    assert leaves.new_game(4, seed=42).hands != deal_state(4, 42).hands  # two seeds, two deals


def test_a_game_saved_without_a_deal_seed_keeps_none(tmp_path):
    """A game ``save_game`` is given no deal seed for (dealt by new_game) is saved with none: a
    record's seed is a deal seed, and new_game's seed is none (``leaves play`` passes the deal
    seed its game was dealt from)."""
    from leaves.commands.play_output import save_game  # what `leaves play --save` writes

    start = leaves.new_game(3, seed=4)
    final = start.apply(start.legal_actions()[0])
    save_game(str(tmp_path / "g.jsonl"), start, final, ["you", "a", "b"], stopped="quit")
    (record,) = leaves.read_records(tmp_path / "g.jsonl")
    assert record.seed is None and replay(record)[-1] == final


def test_a_record_refuses_a_seed_no_deal_has():
    """A record's seed is a deal seed, the kernels' uint64: 2**64 was written down (and
    ``leaves replay`` called it "deal seed 18446744073709551616"), a seed no deal has."""
    s = leaves.new_game(4, seed=1)
    assert GameRecord.from_states(s, s, seed=2**64 - 1, stopped="x").seed == 2**64 - 1
    refused(ValueError, r"^seed must be 0 to 2\*\*64 - 1, got 18446744073709551616$",
            GameRecord.from_states, s, s, seed=2**64, stopped="x")  # fmt: skip
    refused(ValueError, r"^seed must be 0 to 2\*\*64 - 1, got a number of about 5,001 digits$",
            GameRecord.from_states, s, s, seed=10**5000, stopped="x")  # fmt: skip
    good = play_game(TABLE, seed=1).record.to_dict()
    for bad, said in ((2**64, "18446744073709551616"), (10**5000, "a number of about 5,001")):
        refused(ValueError, rf"^bad record: its seed must be 0 to 2\*\*64 - 1, got {said}",
                replay, GameRecord(**{**good, "seed": bad}))  # fmt: skip


def test_from_json_names_a_number_too_long_to_read():
    """json.loads's own words ("use sys.set_int_max_str_digits()") escaped as the error."""
    line = play_game(TABLE, seed=1).record.to_json().replace('"turns":', '"turns":' + "9" * 5000)
    refused(ValueError, r"^not a JSON game record: a number of more than 4300 digits$",
            GameRecord.from_json, line)  # fmt: skip


def test_play_batch_names_a_seed_past_the_kernels_range():
    """Python ints numpy holds in no integer type (2**64, or -1 beside it) were said not to
    be integers ("got dtype object")."""
    for seeds, said in (([1, 2**64], r"\[1\] must be 0 to 2\*\*64 - 1, got 18446744073709551616"),
                        ([-1, 2**64], r"\[0\] must be 0 to 2\*\*64 - 1, got -1")):  # fmt: skip
        refused(ValueError, f"^deal_seeds{said}$", play_batch, TABLE, seeds, [1, 1])
    top = play_batch(TABLE, [2**64 - 1], [1])
    assert top.turns[0] == play_batch(TABLE, np.array([2**64 - 1], np.uint64), [1]).turns[0]
