"""The Python API given bad input, sixth audit: each public entry point refuses an argument of
the wrong kind in one line that names it (never a raw ``AttributeError`` or "object is not
iterable" from inside), a typo'd or contradicting field is refused rather than silently
ignored, and ``read_records`` never takes a number for a file descriptor to close.

The runs are of ``ToyGame`` (numpy hashes, milliseconds), so none of this is a long test.
"""

from __future__ import annotations

import dataclasses
import json
import os

import numpy as np
import pytest

import leaves
import reports
import strategies
from leaves import GameRecord, Rules, State
from tests.toygame import ToyGame
from tournaments import Tournament


def refused(exc: type[Exception], message: str, make, *args, **kw) -> None:
    """``make(*args, **kw)`` raises exactly ``exc`` with exactly ``message`` (one line)."""
    with pytest.raises(exc) as info:
        make(*args, **kw)
    assert str(info.value) == message
    assert "\n" not in message


# ------------------------------------------------------------------ Rules
def test_rules_parse_names_a_base_that_is_no_rules():
    refused(TypeError, "base must be a leaves.Rules or None, got 5 (int)",
            Rules.parse, "hand_size=9", base=5)  # fmt: skip
    refused(TypeError, "base must be a leaves.Rules or None, got 'take=ends' (str)",
            Rules.parse, "hand_size=9", base="take=ends")  # fmt: skip
    assert Rules.parse("hand_size=9", base=Rules(take="ends")) == Rules(hand_size=9, take="ends")


def test_rules_players_takes_one_count_of_any_integer_kind():
    assert Rules(players=np.int64(4)) == Rules(players=4) == Rules(players=[4])
    assert Rules(players=np.int32(3)).players == (3,)


@pytest.mark.parametrize(
    "bad, said",
    [
        (4.5, "players must be a whole number 2..6, got 4.5"),
        (object, "players must be counts 2..6 (4, 3-6, 3/5 or a list of counts), got "
                  "<class 'object'>"),
        (None.__class__, "players must be counts 2..6 (4, 3-6, 3/5 or a list of counts), got "
                         "<class 'NoneType'>"),
    ],
)  # fmt: skip
def test_rules_players_of_no_count_is_one_value_error(bad, said):
    refused(ValueError, said, Rules, players=bad)


# ------------------------------------------------------------------ State.from_dict
def _dict() -> dict:
    return leaves.new_game(4, seed=1).to_dict()


@pytest.mark.parametrize(
    "key, bad, said",
    [
        ("known", 5, "known must list one hand of 13 card counts per seat, got 5"),
        ("passed", 5, "passed must be 4 flags True/False, got 5"),
        ("passed", "abcd", "passed must be 4 flags True/False, got 'abcd'"),
    ],
)
def test_from_dict_names_a_field_that_lists_nothing(key, bad, said):
    refused(ValueError, said, State.from_dict, {**_dict(), key: bad})


def test_from_dict_refuses_a_key_it_does_not_know():
    """A typo'd key ("turn_limt") would be ignored and the position built under another
    turn limit than the one meant."""
    d = {**_dict(), "turn_limt": 5}
    refused(ValueError, "unknown key 'turn_limt' in a state; the keys are hands, table, "
            "removed, undealt, known, passed, current_player, winner, turn, round, turn_limit, "
            "rules", State.from_dict, d)  # fmt: skip


def test_from_dict_still_reads_every_form_it_makes():
    state = leaves.new_game(5, seed=3, rules="take=ends")
    for _ in range(7):
        state = state.apply(state.legal_actions()[0])
    assert State.from_dict(state.to_dict()) == state
    assert State.initial(state.hands, 2).current_player == 2


# ------------------------------------------------------------------ records
def _record() -> GameRecord:
    return strategies.play_game(["greedy", "low", "high"], seed=3).record


@pytest.mark.parametrize("bad", [5, None, 2.5])
def test_replay_names_actions_that_are_no_list(bad):
    d = {**_record().to_dict(), "actions": bad}
    refused(ValueError, f"bad record: actions must be a list of action ids, got {bad!r}",
            leaves.replay, GameRecord.from_dict(d))  # fmt: skip


def test_replay_refuses_a_record_whose_unfinished_flag_contradicts_its_actions():
    record = _record()
    assert record.winner is not None
    lying = dataclasses.replace(record, unfinished=True)
    refused(ValueError, "record says the game was unfinished, its actions give a finished game",
            leaves.replay, lying)  # fmt: skip
    refused(ValueError, "bad record: unfinished must be True or False, got 'no'",
            leaves.replay, dataclasses.replace(record, unfinished="no"))  # fmt: skip
    assert len(leaves.replay(record)) == record.turns + 1


def test_replay_still_takes_records_cut_short_or_at_the_turn_limit():
    first = leaves.new_game(4, seed=2)
    later = first.apply(first.legal_actions()[0])
    stopped = GameRecord.from_states(first, later, seed=None, stopped="the player quit")
    assert stopped.unfinished and len(leaves.replay(stopped)) == 2
    limited = strategies.play_game(["greedy", "low", "high"], seed=3, rules="turn_limit=5")
    assert limited.record.unfinished and len(leaves.replay(limited.record)) == 6
    forfeit = GameRecord.from_states(first, later, seed=None, forfeit_seat=0, error="boom")
    assert not forfeit.unfinished and len(leaves.replay(forfeit)) == 2


@pytest.mark.parametrize("bad", [5, 3.0, None, True])
def test_read_records_takes_a_path_never_a_file_descriptor(bad):
    """``open(5)`` would read, then close, this process's descriptor 5."""
    r, w = os.pipe()
    try:
        refused(TypeError, f"read_records takes the path of a JSON-lines file, got {bad!r} "
                f"({type(bad).__name__})", leaves.read_records, bad)  # fmt: skip
        os.fstat(r)  # still open
    finally:
        os.close(r)
        os.close(w)


def test_read_records_names_a_file_that_is_no_text(tmp_path):
    path = tmp_path / "games.jsonl"
    path.write_bytes(b"\xff\xfe\x00 not text\n")
    refused(ValueError, f"{path}: not a text file of JSON lines (it is not UTF-8)",
            leaves.read_records, path)  # fmt: skip
    path.write_text(_record().to_json() + "\n", encoding="utf-8")
    assert leaves.read_records(str(path)) == [_record()]


# ------------------------------------------------------------------ strategy names
class _Player(strategies.Strategy, register=False):
    def choose(self, view, legal, rng):
        return legal[0]


NAME_RULE = "must be lowercase letters, digits, '_' or '-' starting with a letter"


@pytest.mark.parametrize("name", ["mine\n", 5, "", "Mine", "a b", "1a"])
def test_a_strategy_name_is_checked_the_same_way_everywhere(name):
    """``register(name=...)`` and a class's ``name`` take the same names: a number is no
    name (not a raw 'expected string' error), and a trailing newline is none either."""
    refused(ValueError, f"name {NAME_RULE}, got {name!r}", strategies.register(name=name), _Player)
    refused(
        ValueError,
        f"Named.name {NAME_RULE}, got {name!r}",
        type,
        "Named",
        (strategies.Strategy,),
        {"name": name, "choose": _Player.choose},
    )
    assert name not in strategies.names()


def test_check_name_takes_the_names_the_registry_holds():
    from strategies.base import NAME_RE, check_name  # the one check, as the registry uses it

    for name in strategies.names():
        assert check_name(name, "x") == name
    assert NAME_RE.fullmatch("a-b_1")


# ------------------------------------------------------------------ reports
@pytest.fixture(scope="module")
def toy_run(tmp_path_factory):
    game = ToyGame()
    return Tournament(["a", "p1", "p2", "p3"], players=4, games=48, seed=7, game=game).run(
        out=tmp_path_factory.mktemp("runs") / "a"
    )


@pytest.mark.parametrize(
    "top, exc, said",
    [
        (-1, ValueError, "top must be at least 2 (the strategies compared pairwise), got -1"),
        (0, ValueError, "top must be at least 2 (the strategies compared pairwise), got 0"),
        (1, ValueError, "top must be at least 2 (the strategies compared pairwise), got 1"),
        (1.5, TypeError, "top takes a whole number of strategies, got 1.5"),
        ("3", TypeError, "top takes a whole number of strategies, got '3'"),
        (True, TypeError, "top takes a whole number of strategies, got True"),
    ],
)
def test_report_top_is_a_count_never_a_slice(toy_run, tmp_path, top, exc, said):
    """``top=-1`` would leave the last strategy out of the paired tests, silently."""
    refused(exc, said, reports.compute_tables, toy_run, top=top)
    refused(exc, said, reports.build_report, toy_run, out=tmp_path / "r", top=top)
    assert not (tmp_path / "r").exists()
    refused(exc, said, reports.significance, toy_run, top=top)  # the one check, theirs too


def test_report_top_takes_a_numpy_integer(toy_run):
    tables, _ = reports.compute_tables(toy_run, top=np.int64(2))
    assert len(tables["significance"]) == 1


def test_report_out_under_a_file_is_one_value_error(toy_run, tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("not a folder\n")
    refused(ValueError, f"{afile} exists and is not a directory",
            reports.build_report, toy_run, out=afile)  # fmt: skip
    refused(ValueError, f"cannot make {afile / 'sub'}: {afile} exists and is not a directory",
            reports.build_report, toy_run, out=afile / "sub")  # fmt: skip


@pytest.mark.parametrize("kw, said", [
    (dict(out=5), "out takes a path (str or Path) or None, got 5"),
    (dict(state=5), "state takes a tournaments.run_state.RunState or None, got 5 (int)"),
])  # fmt: skip
def test_report_arguments_of_the_wrong_kind_are_named(toy_run, kw, said):
    refused(TypeError, said, reports.build_report, toy_run, **kw)


def test_records_round_trip_through_json(tmp_path):
    record = _record()
    assert GameRecord.from_dict(json.loads(record.to_json())) == record


# ------------------------------------------------------------------ numpy parameter values
@pytest.mark.parametrize(
    "spec, key, value, plain",
    [
        ("patient", "min_hand", np.int64(5), 5),
        ("greedy", "keep_pairs", np.bool_(True), True),
        ("counter", "threat_weight", np.float32(0.5), 0.5),
        ("counter", "threat_weight", np.int32(2), 2.0),
    ],
)
def test_a_numpy_parameter_value_is_the_plain_one(spec, key, value, plain):
    """A parameter from an array (numpy's int, bool or float32) is taken, and kept as the
    plain Python value: the same strategy, label and params as the plain value gives."""
    got = strategies.get(spec, **{key: value})
    assert got == strategies.get(spec, **{key: plain})
    assert type(got.params[key]) is type(plain) and got.params[key] == plain
    assert got.label == strategies.get(spec, **{key: plain}).label


def test_a_folder_given_as_a_strategy_file_is_named_so(tmp_path):
    """It exists: "no such strategy file" would send the user looking for a typo."""
    refused(ValueError, f"{tmp_path} is a folder, not a strategy file (name a .py file in it)",
            strategies.get, f"{tmp_path}:Mine")  # fmt: skip
    refused(ValueError, f"no such strategy file: {tmp_path}/none.py",
            strategies.get, f"{tmp_path}/none.py:Mine")  # fmt: skip


@pytest.mark.parametrize("bad", [5, None, ["{}"]])
def test_from_json_names_what_is_no_line_of_text(bad):
    refused(TypeError, f"GameRecord.from_json reads one line of JSON text, got {bad!r} "
            f"({type(bad).__name__})", GameRecord.from_json, bad)  # fmt: skip


def test_filtered_takes_a_flag_for_a_flag_key():
    """``search="yes"`` matched nothing (no classifier says "yes"): an empty list, silently."""
    refused(TypeError, "search takes True or False (a classifier flag), got 'yes'",
            strategies.filtered, search="yes")  # fmt: skip
    refused(TypeError, "stochastic takes True or False (a classifier flag), got 1",
            strategies.filtered, stochastic=1)  # fmt: skip
    plain = strategies.filtered(search=False, stochastic=False)
    assert strategies.filtered(search=np.bool_(False), stochastic=False) == plain
    assert "greedy" in plain and "ismcts" not in plain


def test_from_dict_reads_numpy_arrays_as_the_lists_they_hold():
    """``hands`` as one array was refused as "hands must list at least 2 players' hands"."""
    state = leaves.new_game(4, seed=1)
    state = state.apply(state.legal_actions()[0])
    d = state.to_dict()
    arrays = {k: np.array(v) if isinstance(v, list) else v for k, v in d.items()}
    assert State.from_dict(arrays) == state


@pytest.mark.parametrize("key", ["expert", "rows", "repeats"])
def test_a_tournaments_flags_take_true_or_false_never_a_truthy_string(key):
    """``expert="no"`` played a tournament of matches: any truthy value turned a flag on."""
    from tournaments import Tournament

    with pytest.raises(TypeError, match=f"^{key} takes True or False, got 'no'$"):
        Tournament(["greedy", "low", "high"], players=3, games=30, **{key: "no"})
    t = Tournament(["greedy", "low", "high"], players=3, games=30, **{key: np.bool_(False)})
    assert getattr(t, key) is False


def test_a_tournaments_game_record_and_out_are_named_when_of_the_wrong_kind(tmp_path):
    """game=5 failed with "'int' object has no attribute 'resolve'", record=5 and out=5 with
    pathlib's error: each names its argument; a game's id is read as that game."""
    from tournaments import Tournament

    field = ["greedy", "low", "high"]
    with pytest.raises(TypeError, match=r"^game takes a game plug-in or an installed game's id"):
        Tournament(field, players=3, games=30, game=5)
    with pytest.raises(TypeError, match=r"^record takes a path \(str or Path\) or None, got 5$"):
        Tournament(field, players=3, games=30, record=5)
    t = Tournament(field, players=3, games=30, seed=1, game="leaves")
    assert t.game.name == "leaves"
    with pytest.raises(TypeError, match=r"^out takes a path \(str or Path\) or None, got 5$"):
        t.run(out=5)
    assert t.run(out=tmp_path / "r").status == "complete"


def test_key_findings_and_run_since_name_what_they_take(tmp_path):
    """key_findings(5): "argument of type 'int' is not iterable"; run(since="x"): "unsupported
    operand type(s) for -": each now says what it takes."""
    from tournaments import Tournament

    with pytest.raises(TypeError, match=r"^key_findings takes a report's tables"):
        reports.key_findings(5)
    t = Tournament(["greedy", "low", "high"], players=3, games=30, seed=1)
    with pytest.raises(TypeError, match=r"^since takes a time.perf_counter\(\) value or None"):
        t.run(out=tmp_path / "r", since="x")
