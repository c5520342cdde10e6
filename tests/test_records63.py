"""Game records and ``leaves replay`` at their edges: one rule and one message for a record's
seed, every record replay takes written as JSON that reads back equal, and the words
``leaves replay`` prints checked against the record they show."""

from __future__ import annotations

import array
import collections
import functools
import json
import re

import numpy as np
import pytest

from leaves import GameRecord
from leaves.players.play import play_game
from leaves.record import replay

TABLE = ["random", "low", "high"]


@pytest.fixture(scope="module")
def good() -> GameRecord:
    return play_game(TABLE, seed=3, record=True).record


# ------------------------------------------------------------------ a record's seed
SEED_ERRORS = [
    (-1, ValueError, "seed must be 0 to 2**64 - 1, got -1"),
    (2**64, ValueError, "seed must be 0 to 2**64 - 1, got 18446744073709551616"),
    (1.5, TypeError, "seed must be a whole number 0 to 2**64 - 1, got 1.5 (float)"),
    ("3", TypeError, "seed must be a whole number 0 to 2**64 - 1, got '3' (str)"),
    (True, TypeError, "seed must be a whole number 0 to 2**64 - 1, got True (bool)"),
]


@pytest.mark.parametrize(("bad", "error", "said"), SEED_ERRORS)
def test_a_records_seed_has_one_rule_and_one_message_wherever_it_is_read(good, bad, error, said):
    """The kernels' rule (a whole number 0 to 2**64 - 1) in the kernels' words, whether the
    seed comes to ``from_states`` or to ``replay`` in a record made by hand, from a dict or
    from a JSON line (-1 was "seed must be >= 0" in one and "not a whole number >= 0" in
    the other)."""
    states = replay(good)
    with pytest.raises(error) as info:
        GameRecord.from_states(states[0], states[-1], seed=bad)
    assert str(info.value) == said
    made = GameRecord(**{**good.to_dict(), "seed": bad})
    read = GameRecord.from_dict({**good.to_dict(), "seed": bad})
    line = GameRecord.from_json(good.to_json().replace(f'"seed":{good.seed}', _json(bad)))
    for record in (made, read, line):
        with pytest.raises(ValueError) as info:
            replay(record)
        assert str(info.value) == f"bad record: its {said}"


@pytest.fixture(autouse=True)
def _wide_console(monkeypatch):
    """Lines as the replay writes them, not folded at 80 columns: a heading holds the record
    file's path, whose length (a test worker's temporary folder) would decide where it folds."""
    monkeypatch.setenv("COLUMNS", "1000")


def _json(seed) -> str:
    return f'"seed":{json.dumps(seed)}'


# ------------------------------------------------------------------ JSON read back equal
def _odd_kinds(d: dict) -> dict[str, tuple[dict, dict]]:
    """Changes to a record's dict form in containers other than lists, each beside its plain
    (JSON) form: what ``GameRecord`` takes and ``replay`` replays."""
    deck = [2, 3, 4, 5, 6, 7, 8, 7, 6, 5, 4, 3, 2]  # the deck of today's rules, named
    return {
        "actions as array.array": ({"actions": array.array("q", d["actions"])}, {}),
        "actions as a deque": ({"actions": collections.deque(d["actions"])}, {}),
        "hands as array.arrays": ({"hands": [array.array("b", h) for h in d["hands"]]}, {}),
        "hands as numpy": ({"hands": np.array(d["hands"], dtype=np.int8)}, {}),
        "strategies as a deque": ({"strategies": collections.deque(d["strategies"])}, {}),
        "rules with numpy": ({"rules": {"hand_size": np.int64(12)}}, {"rules": {"hand_size": 12}}),
        "a tuple deck": ({"rules": {"deck": tuple(deck)}}, {"rules": {"deck": deck}}),
        "a numpy deck": ({"rules": {"deck": np.array(deck)}}, {"rules": {"deck": deck}}),
        "whole-number keys": (
            {"rules": {"hand_size": {3: 12}}},
            {"rules": {"hand_size": {"3": 12}}},
        ),
        "numpy keys": (
            {"rules": {"hand_size": {np.int8(3): 12}}},
            {"rules": {"hand_size": {"3": 12}}},
        ),
    }


@pytest.mark.parametrize("kind", list(_odd_kinds({k: [] for k in ("actions", "hands",
                                                                    "strategies")})))  # fmt: skip
def test_every_record_replay_takes_writes_json_that_reads_back_equal(good, kind):
    """An ``array.array`` of actions replayed but ``to_json`` raised TypeError; so did numpy's
    values in the rules, and a tuple deck or a hand size keyed by a number (JSON writes its
    keys as text) read back as another record. Every container of a sequence is kept as the
    tuple (the rules' as the list) its JSON reads back as, a key as its text."""
    odd, plain = _odd_kinds(good.to_dict())[kind]
    record = GameRecord(**{**good.to_dict(), **odd})
    same = GameRecord(**{**good.to_dict(), **plain})
    assert record == same and hash(record) == hash(same)
    assert replay(record) == replay(same)
    again = GameRecord.from_json(record.to_json())
    assert again == record and again.to_json() == same.to_json()


@pytest.mark.parametrize("actions", [{3, 5}, iter([3, 5]), b"\x03\x05", {"a": 1}])
def test_actions_that_list_nothing_in_order_are_refused_in_one_line(good, actions):
    """A set (no order), a generator (read once), bytes (not ids, though they iterate as
    ints) or a dict replayed as actions, and ``to_json`` could not write them."""
    record = GameRecord(**{**good.to_dict(), "actions": actions})
    with pytest.raises(ValueError) as info:
        replay(record)
    assert str(info.value).startswith("bad record: actions must be a list of action ids, got ")
    assert "\n" not in str(info.value)


# ------------------------------------------------------------------ another game's record
def test_another_games_record_is_named_so_not_said_to_lack_keys(tmp_path, good):
    """A Ligretto round record read as a 13 Leaves one was said to be "missing hands,
    first_player, actions, ..."; a record names its game by its "game" key, which a 13
    Leaves record leaves out."""
    from leaves import read_records

    line = '{"game":"ligretto","players":2,"row_size":5,"seed":1,"deal":[]}'
    with pytest.raises(ValueError) as info:
        GameRecord.from_json(line)
    said = """a 13 Leaves game record names no game, this one names 'ligretto' (its "game" key)"""
    assert str(info.value) == said
    path = tmp_path / "rounds.jsonl"
    path.write_text(good.to_json() + "\n" + line + "\n", encoding="utf-8")
    with pytest.raises(ValueError) as info:
        read_records(path)
    assert str(info.value) == f"{path}, line 2: {said}"


# ------------------------------------------------------------------ leaves replay FILE
def _records_file(tmp_path, good, text: str):
    path = tmp_path / "games.jsonl"
    path.write_text(good.to_json() + "\n" + text, encoding="utf-8")
    return path


def test_a_record_cut_off_mid_line_is_said_to_be_cut_off(capsys, tmp_path, good):
    """The last line of a file cut off as it was written was "not a JSON game record", with
    no word of why; another bad line names what its JSON lacks, without a doubled "at"."""
    from tests.helpers import cli, one_error_line

    line = good.to_json()
    for cut in (len(line) // 2, line.index('"turns"') + 3, len(line) - 1):
        path = _records_file(tmp_path, good, line[:cut])
        code, _, err = cli(capsys, "replay", str(path), "--game", "2", "--all")
        assert code == 1
        assert one_error_line(err) == (
            f"leaves: error: {path}, line 2: bad game record: not a JSON game record: the file "
            "ends mid-record (cut off?)"
        )
    indented = tmp_path / "indented.jsonl"  # one record spread over lines, as JSON indented
    indented.write_text(json.dumps(good.to_dict(), indent=1) + "\n", encoding="utf-8")
    code, _, err = cli(capsys, "replay", str(indented))
    assert code == 1 and one_error_line(err) == (
        f"leaves: error: {indented}, line 1: bad game record: not a JSON game record: the line "
        "ends mid-record (a record is one line of JSON)"
    )
    path = _records_file(tmp_path, good, line[:40] + "}\n")
    code, _, err = cli(capsys, "replay", str(path), "--game", "2")
    assert code == 1 and one_error_line(err).endswith("not a JSON game record: Expecting ',' "
                                                      "delimiter at column 41"), err  # fmt: skip
    at = line.index('"seed"')
    with pytest.raises(ValueError) as info:
        GameRecord.from_json(line[: at + 3])
    assert str(info.value).endswith(f"Unterminated string starting at column {at + 1}")


@pytest.mark.parametrize(("game", "said"), [(None, "null"), (5, "5"), (["leaves"], '["leaves"]')])
def test_a_records_game_that_is_no_name_is_said_as_written(capsys, tmp_path, good, game, said):
    """ "game": null was "unknown game 'None'"."""
    from tests.helpers import cli, one_error_line

    path = _records_file(tmp_path, good, json.dumps({**good.to_dict(), "game": game}) + "\n")
    code, _, err = cli(capsys, "replay", str(path), "--game", "2")
    assert code == 1
    assert one_error_line(err) == (
        f'leaves: error: {path}, line 2: bad game record: its "game" is {said}, not a game\'s name'
    )


def test_the_docs_exit_codes_of_an_empty_name_and_an_empty_file_are_the_commands(capsys, tmp_path):
    """docs/cli.md said "an empty RECORD.jsonl is said to be empty in one line (exit 2)": an
    empty file exits 1 (it holds no records: bad input, not bad usage); the empty name is
    what exits 2."""
    from pathlib import Path

    from tests.helpers import cli, one_error_line

    row = next(
        line
        for line in (Path(__file__).parents[1] / "docs" / "cli.md").read_text().splitlines()
        if line.startswith("| `leaves replay ")
    )
    assert "an empty name for RECORD.jsonl is said to be empty in one line (exit 2)" in row
    assert "a file of no records (empty, or blank lines only) is said to hold none (exit 1)" in row
    code, _, err = cli(capsys, "replay", "")
    assert code == 2 and "an empty name was given" in one_error_line(err)
    for text in ("", "\n  \n\n"):
        path = tmp_path / "none.jsonl"
        path.write_text(text, encoding="utf-8")
        code, _, err = cli(capsys, "replay", str(path))
        assert code == 1 and one_error_line(err) == f"leaves: error: {path} holds no game records"


# ------------------------------------------------------------------ the words of a replay
_COUNTS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight"}


def _card(value: int) -> str:
    return f"{'an' if value in (8, 11) else 'a'} {value}"


def _move(before, after, seat: int) -> str:
    """The move a seat made, worked out from its hand before and after (not from the
    record's action ids): a value it holds fewer of was played, one more of was taken."""
    change = [b - a for a, b in zip(before.hand(seat), after.hand(seat), strict=True)]
    played = [(v + 1, -d) for v, d in enumerate(change) if d < 0]
    taken = [v + 1 for v, d in enumerate(change) if d == 1]
    if played:
        ((value, count),) = played
        return f"plays {_card(value) if count == 1 else f'{_COUNTS[count]} {value}s'}"
    return f"passes and takes {_card(taken[0])}" if taken else "passes"


def _flat(text: str) -> str:
    return " ".join(text.split())  # the console folds a long line at a space


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}{'' if n == 1 else 's'}"


def _said(capsys, tmp_path, record: GameRecord) -> str:
    from tests.helpers import cli

    path = tmp_path / "one.jsonl"
    path.write_text(record.to_json() + "\n", encoding="utf-8")
    code, out, err = cli(capsys, "replay", str(path), "--all")
    assert code == 0 and err == "", err
    return _flat(out)


class _Sore(__import__("strategies").Strategy, register=False):
    """Plays its first legal action; fails when told how the game ended (after its end)."""

    name = "sore"

    def choose(self, view, legal, rng):
        return legal[0]

    def end_game(self, view, result):
        raise RuntimeError("sore loser")


class _Boom(__import__("strategies").Strategy, register=False):
    """Plays its first legal action up to turn 5, then fails."""

    name = "boom"

    def choose(self, view, legal, rng):
        if view.turn > 5:
            raise RuntimeError("boom")
        return legal[0]


@functools.cache
def _games() -> dict[str, GameRecord]:
    won = play_game(["greedy", "random", "counter"], seed=1, record=True).record
    states = replay(won)
    return {
        "won": won,
        "at the turn limit": play_game(TABLE, seed=2, record=True, rules="turn_limit=5").record,
        "stopped": GameRecord.from_states(states[0], states[9], seed=won.seed,
                                          strategies=["you", "a", "b"], stopped="the player quit"),
        "unnamed seats": GameRecord.from_states(states[0], states[-1], seed=won.seed),
        "forfeited": play_game([_Boom(), "low", "high"], seed=2, record=True).record,
        "forfeited after its end": play_game([_Sore(), "low", "high"], seed=2, record=True).record,
    }  # fmt: skip


@pytest.mark.parametrize("kind", list(_games()))
def test_every_sentence_a_replay_prints_matches_its_record(capsys, tmp_path, kind):
    """The heading's players, turns, rounds and deal seed, each turn's seat, move and round,
    and the result, each checked against the record and the hands its states hold."""
    record = _games()[kind]
    states = replay(record)
    final = states[-1]
    out = _said(capsys, tmp_path, record)
    names = [*record.strategies, *["unnamed"] * (record.n_players - len(record.strategies))]
    label = [f"you (seat {s})" if n == "you" else f"seat {s} ({n})" for s, n in enumerate(names)]
    head = (f"Game 1 of {tmp_path / 'one.jsonl'}: {record.n_players} players, "
            f"{_plural(final.turn, 'turn')}, {_plural(final.round, 'round')}, "
            f"deal seed {record.seed}")  # fmt: skip
    if record.rules:  # a game under other rules names them
        head += ", rules " + ",".join(f"{key}={value}" for key, value in record.rules.items())
    assert out.startswith(head + " Deal - " + label[states[0].current_player] + " leads")
    assert final.turn == len(record.actions) == record.turns
    round_ = 1  # a round ends when the passes of it are cleared: the next one begins
    for i in range(1, len(states)):
        before, after = states[i - 1], states[i]
        seat = before.current_player
        move = _move(before, after, seat)
        assert f" Turn {i}: {label[seat]} {move} (round {round_}) " in out, (i, move)
        round_ += any(before.passed) and not any(after.passed)
    assert f"Turn {len(states)}:" not in out
    assert round_ == final.round == record.rounds  # the heading's rounds: those begun
    result = out.split(" Result: ")[1]
    if record.forfeit_seat is not None:
        error = record.error.removeprefix(f"seat {record.forfeit_seat} ({names[0]}): ")
        when = " after the game ended" if final.is_terminal else ""  # its last move ended it
        assert result == f"{label[record.forfeit_seat]} forfeited{when}: {error}."
        assert final.is_terminal == (kind == "forfeited after its end")
    elif record.stopped is not None:
        assert result == f"unfinished: {record.stopped} (after {_plural(final.turn, 'turn')})."
    elif final.winner is None:
        assert result == f"unfinished at the turn limit ({_plural(final.turn_limit, 'turn')})."
    else:
        assert final.hand(final.winner) == (0,) * 13
        assert result == f"{label[final.winner]} wins after {_plural(final.turn, 'turn')}."


# ------------------------------------------------------------------ a record's bad actions
def test_an_illegal_action_names_its_place_as_the_replay_numbers_turns(capsys, tmp_path, good):
    """ "record action 5" counts the record's actions from 0, while the replay numbers its
    turns from 1: the error says the turn too, and whose it was."""
    from pathlib import Path

    from leaves import Action, IllegalActionError
    from tests.helpers import cli, one_error_line

    docs = " ".join((Path(__file__).parents[1] / "docs" / "cli.md").read_text().split())
    assert ("named by its place in the record's `actions` (from 0) and by the turn the replay "
            "would number it (from 1)") in docs  # fmt: skip

    states = replay(good)
    k = 5
    seat = states[k].current_player
    hand = states[k].hand(seat)
    value = hand.index(0) + 1  # a value the seat to move holds none of

    bad = Action.play(value, 1).id
    actions = [*good.actions[:k], bad, *good.actions[k + 1 :]]
    record = GameRecord(**{**good.to_dict(), "actions": actions})
    with pytest.raises(IllegalActionError) as info:
        replay(record)
    said = str(info.value)
    assert said.startswith(f"record action {k} (id {bad}) is illegal at turn {k + 1} (seat "
                           f"{seat} to move): ")  # fmt: skip
    path = tmp_path / "bad.jsonl"
    path.write_text(record.to_json() + "\n", encoding="utf-8")
    code, out, err = cli(capsys, "replay", str(path), "--all")
    assert code == 1 and out == ""
    assert one_error_line(err) == f"leaves: error: {path}, game 1: {said}"
    over = GameRecord(**{**good.to_dict(), "actions": [*good.actions, good.actions[-1]]})
    with pytest.raises(IllegalActionError) as info:
        replay(over)  # no seat is to move once the game is over
    n = len(good.actions)
    assert str(info.value).startswith(
        f"record action {n} (id {good.actions[-1]}) is illegal at turn {n + 1}: the game is over"
    )


def test_a_byte_order_mark_crlf_line_ends_and_unicode_labels_replay_as_plain_lines(
    capsys, tmp_path, good
):
    """An editor's byte order mark and CRLF line ends read as the records they hold, and a
    label in any script is shown as written, in the deal's title and every move."""
    from tests.helpers import cli

    named = GameRecord(**{**good.to_dict(), "strategies": ["grëedy", "случайный", "计数"]})
    plain, marked = tmp_path / "plain.jsonl", tmp_path / "marked.jsonl"
    plain.write_text(f"{good.to_json()}\n{named.to_json()}\n", encoding="utf-8")
    marked.write_bytes(b"\xef\xbb\xbf" + plain.read_text(encoding="utf-8")
                       .replace("\n", "\r\n").encode("utf-8"))  # fmt: skip
    from leaves import read_records

    assert read_records(marked) == read_records(plain) == [good, named]
    said = [cli(capsys, "replay", str(p), "--game", "2", "--all") for p in (plain, marked)]
    assert said[0][0] == said[1][0] == 0
    assert said[0][1].replace(str(plain), "X") == said[1][1].replace(str(marked), "X")
    out = _flat(said[1][1])
    states = replay(named)
    first = states[0].current_player
    assert f"Deal - seat {first} ({named.strategies[first]}) leads" in out
    moves = sum(s.current_player == 1 for s in states[:-1])
    assert len(re.findall(r"Turn \d+: seat 1 \(случайный\) ", out)) == moves > 0


def test_a_label_or_reason_with_control_characters_is_shown_escaped(capsys, tmp_path, good):
    """A record is data from anywhere: a label holding a terminal's escape sequence (clear
    the screen) or a line break reached the terminal as it was, and broke the seats' table;
    one holding a lone surrogate ended the replay ("'utf-8' codec can't encode"), and a
    right-to-left override showed its text backwards."""
    from tests.helpers import cli

    states = replay(good)
    left = GameRecord.from_states(states[0], states[3], seed=good.seed,
                                  strategies=["a\x1b[2Jb", "c\nd\ud800", "e\x07\u202e"],
                                  stopped="quit\x1b]0;owned\x07")  # fmt: skip
    path = tmp_path / "odd.jsonl"
    path.write_text(left.to_json() + "\n", encoding="utf-8")
    code, out, err = cli(capsys, "replay", str(path), "--all")
    assert code == 0 and err == ""
    assert not {"\x1b", "\x07"} & set(out)
    for shown in ("a\\x1b[2Jb", "c\\nd\\ud800", "e\\x07\\u202e"):
        assert f"({shown})" in out
    assert "Result: unfinished: quit\\x1b]0;owned\\x07 (after 3 turns)." in out


@pytest.mark.parametrize("depth", [600, 100_000])
def test_lists_nested_too_deep_are_one_line_not_a_recursion_error(capsys, tmp_path, good, depth):
    """Hands of lists in lists (deeper than Python recurses) ended ``leaves replay`` with
    "RecursionError: maximum recursion depth exceeded (rerun with --debug ...)", and raised
    RecursionError from ``GameRecord.from_json``."""
    from tests.helpers import cli, one_error_line

    line = good.to_json().replace(
        '"hands":' + good.to_json().split('"hands":')[1].split(',"first_player"')[0],
        '"hands":' + "[" * depth + "]" * depth,
    )
    with pytest.raises(ValueError) as info:
        GameRecord.from_json(line)
    assert str(info.value) == "not a JSON game record: lists or objects nested too deep to read"
    path = tmp_path / "deep.jsonl"
    path.write_text(line + "\n", encoding="utf-8")
    code, _, err = cli(capsys, "replay", str(path))
    assert code == 1
    assert one_error_line(err) == (
        f"leaves: error: {path}, line 1: bad game record: not a JSON game record: lists or "
        "objects nested too deep to read"
    )


# ------------------------------------------------------------------ leaves replay RUN
LATE = """
from strategies import Strategy


class Late(Strategy, register=False):
    classifier = {"stochastic": False}

    def choose(self, view, legal, rng):
        if view.turn >= 40:
            raise RuntimeError(f"late at turn {view.turn}")
        return legal[0]
"""


def test_a_runs_default_game_is_its_first_forfeited_one_else_game_0(capsys, tmp_path):
    """docs/cli.md: "default: the first forfeited game, else game 0" (a run whose game 0 was
    forfeited cannot tell the two apart)."""
    from tests.helpers import cli
    from tournaments import Tournament, load

    late = tmp_path / "late.py"
    late.write_text(LATE, encoding="utf-8")
    run = tmp_path / "late"
    Tournament([f"{late}:Late", "greedy", "random"], players=3, games=6, seed=5).run(
        out=run, n_jobs=1
    )
    rows = load(run).games(["game", "forfeit_seat"])
    forfeited = sorted(int(g) for g in rows[rows["forfeit_seat"] >= 0]["game"])
    assert forfeited and forfeited[0] > 0  # game 0 was played to its end
    code, out, err = cli(capsys, "replay", str(run), "--all")
    assert code == 0 and err == ""
    assert _flat(out).startswith(f"Game {forfeited[0]} of run {run}, replayed from its seeds")
    assert " forfeited: RuntimeError: late at turn " in _flat(out)
    clean = tmp_path / "clean"
    Tournament(["greedy", "random", "low"], players=3, games=3, seed=5).run(out=clean, n_jobs=1)
    code, out, err = cli(capsys, "replay", str(clean), "--all")
    assert code == 0 and _flat(out).startswith(f"Game 0 of run {clean}, replayed from its seeds")


def test_the_heading_calls_a_seed_the_deal_seed_only_of_the_hands_it_deals(capsys, tmp_path):
    """A record whose seed does not deal its hands (new_game's seed, or hands edited) was
    headed "deal seed 4", a deal with other hands; the seed is shown as what it is, in the
    words docs/cli.md gives."""
    from pathlib import Path

    import leaves
    from leaves.players.play import deal_state

    docs = " ".join((Path(__file__).parents[1] / "docs" / "cli.md").read_text().split())
    assert "shows it as `seed S (not the deal seed of these hands)`" in docs

    start = leaves.new_game(3, seed=4)  # new_game's seed is no deal seed
    assert start.hands != deal_state(3, 4).hands
    state = start
    for _ in range(3):
        state = state.apply(state.legal_actions()[0])
    wrong = GameRecord.from_states(start, state, seed=4, stopped="the player quit")
    out = _said(capsys, tmp_path, wrong)
    assert ", deal seed 4" not in out
    assert out.split(" Deal - ")[0].endswith(
        "3 players, 3 turns, 1 round, seed 4 (not the deal seed of these hands)"
    )
    dealt = deal_state(3, 4)
    right = GameRecord.from_states(dealt, dealt, seed=4, stopped="the player quit")
    assert (
        _said(capsys, tmp_path, right)
        .split(" Deal - ")[0]
        .endswith("3 players, 0 turns, 1 round, deal seed 4")
    )


def test_a_record_file_in_utf_16_is_said_not_to_be_utf_8(capsys, tmp_path, good):
    """An editor's UTF-16 file was "not a text file of JSON game records", with no word of
    why; the Python reader (``read_records``) said "it is not UTF-8" already."""
    from tests.helpers import cli, one_error_line

    path = tmp_path / "wide.jsonl"
    path.write_text(good.to_json() + "\n", encoding="utf-16")
    code, _, err = cli(capsys, "replay", str(path))
    assert code == 1 and one_error_line(err) == (
        f"leaves: error: {path} is not a text file of JSON game records (it is not UTF-8)"
    )


def test_files_joined_with_their_byte_order_marks_read_as_their_records(capsys, tmp_path, good):
    """Two record files an editor began with a byte order mark, joined (``cat a b``): the
    second's mark began line 2, "Unexpected UTF-8 BOM" to ``leaves replay`` and to
    ``read_records``, though each file alone read."""
    from leaves import read_records
    from tests.helpers import cli

    other = GameRecord(**{**good.to_dict(), "strategies": ["x", "y", "z"]})
    joined = tmp_path / "joined.jsonl"
    joined.write_bytes(b"".join(b"\xef\xbb\xbf" + r.to_json().encode() + b"\n"
                                for r in (good, other)))  # fmt: skip
    assert read_records(joined) == [good, other]
    code, out, err = cli(capsys, "replay", str(joined), "--game", "2", "--all")
    assert code == 0 and err == "" and "Deal - " in out and "(z)" in out


def test_a_number_too_long_to_read_is_named_by_replay(capsys, tmp_path, good):
    """It was "not a JSON game record", with no word of why (``from_json`` names it)."""
    import sys

    from tests.helpers import cli, one_error_line

    line = good.to_json().replace('"turns":', '"turns":' + "9" * 5000)
    path = _records_file(tmp_path, good, line + "\n")
    code, _, err = cli(capsys, "replay", str(path), "--game", "2")
    digits = sys.get_int_max_str_digits()
    assert code == 1 and one_error_line(err) == (
        f"leaves: error: {path}, line 2: bad game record: not a JSON game record: a number of "
        f"more than {digits} digits"
    )
