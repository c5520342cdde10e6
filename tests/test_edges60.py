"""Edges found in stop 60's audits: a record's seed, forfeiting seat and stop checked by
replay; records files with a byte order mark; advised commands for a folder named like an
option."""

from __future__ import annotations

import json
import shlex

import pytest

from leaves import new_game
from leaves.record import GameRecord, read_records, replay


def _finished() -> dict:
    """A whole game of three seats (the first legal move each turn), as a record's dict."""
    start = s = new_game(3, seed=3)
    while not s.is_terminal:
        s = s.apply(s.legal_actions()[0])
    assert s.winner is not None
    return GameRecord.from_states(start, s, seed=3).to_dict()


@pytest.mark.parametrize(
    ("key", "value", "words"),
    [("forfeit_seat", 9, "not a seat 0..2"), ("forfeit_seat", -1, "not a seat 0..2"),
     ("forfeit_seat", True, "not a seat 0..2"), ("forfeit_seat", "x", "not a seat 0..2"),
     ("seed", "x", "seed must be a whole number 0 to 2"), ("seed", -4, r"seed must be 0 to 2\*\*64 - 1, got -4"),
     ("stopped", 7, "not words")],
)  # fmt: skip
def test_replay_names_a_field_of_the_wrong_kind(key, value, words):
    d = _finished()
    d[key] = value
    with pytest.raises(ValueError, match=words):
        replay(GameRecord.from_dict(d))


@pytest.mark.parametrize(("key", "value"), [("stopped", "the player quit"), ("forfeit_seat", 1)])
def test_a_finished_game_is_not_said_to_have_been_cut_short(key, value):
    d = _finished()
    replay(GameRecord.from_dict(d))  # the record as written replays
    d[key] = value
    with pytest.raises(ValueError, match="cut short .* but its actions end it"):
        replay(GameRecord.from_dict(d))


def test_a_cut_short_game_still_replays():
    s = new_game(4, seed=1)
    start = s
    for _ in range(5):
        s = s.apply(s.legal_actions()[0])
    rec = GameRecord.from_states(start, s, seed=None, stopped="the player quit")
    assert replay(GameRecord.from_dict(json.loads(rec.to_json())))[-1] == s


def test_read_records_takes_a_file_with_a_byte_order_mark(tmp_path):
    line = json.dumps(_finished())
    path = tmp_path / "g.jsonl"
    path.write_text(line + "\n", encoding="utf-8-sig")
    assert [r.to_dict() for r in read_records(path)] == [json.loads(line)]


@pytest.mark.parametrize("path", ["-r", "-g.jsonl", "--out"])
def test_an_advised_path_named_like_an_option_is_led_by_dot_slash(path):
    from tournaments.run_state import replay_command, shell_word

    assert shell_word(path) == f"./{path}"
    assert shlex.split(replay_command(path, 3)) == ["leaves", "replay", f"./{path}", "--game", "3"]


MATCH_WHY = "expert_target ends a match, never a game"


@pytest.mark.parametrize(
    ("rules", "why"),
    [("expert_target=30", True), ("hand_size=11", False), ("hand_size=11,expert_target=30", True)],
)
def test_leaves_run_refuses_rules_that_play_as_todays(capsys, tmp_path, rules, why):
    from tests.helpers import cli

    out = tmp_path / "r"
    code, _, err = cli(capsys, "run", "--rules", rules, "--games", "48", "--out", str(out))
    assert code == 2 and not out.exists()
    assert f"--rules {rules} plays as today's rules at 4 players" in err  # as typed
    assert (MATCH_WHY in err) is why and "the same games twice" in err
    assert len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(("key", "value"), [("stopped", ""), ("stopped", " "), ("forfeit_seat", 5)])
def test_a_record_replay_would_refuse_is_never_written(key, value):
    s = new_game(4, seed=1)
    later = s.apply(s.legal_actions()[0])
    with pytest.raises(ValueError, match="not words|not a seat"):
        GameRecord.from_states(s, later, **{key: value})
    d = GameRecord.from_states(s, later, stopped="quit").to_dict()
    d[key] = value
    with pytest.raises(ValueError, match="not words|not a seat"):
        replay(GameRecord.from_dict(d))


@pytest.mark.parametrize("address", ["nonsense", "http://localhost:8787"])
def test_a_bad_scheduler_is_refused_before_the_plan_is_said_or_a_folder_made(
    capsys, tmp_path, address
):
    from tests.helpers import cli, one_error_line

    out = tmp_path / "d1"
    args = ["tournament", "greedy", "low", "high", "--backend", "dask", "--scheduler", address]
    code, said, err = cli(capsys, *args, "--games", "60", "--out", str(out))
    assert code == 2 and not out.exists() and said == ""
    assert "Dask scheduler" in one_error_line(err)


@pytest.mark.parametrize(
    ("cell", "noted"),
    [("-2.9 [-4.7, -1.0] pp *", True), ("+1.2 pp", True), ("+0.8 [-0.9, +2.5] pp", True),
     ("app", False), ("12 ppm", False), ("3.1%", False)],
)  # fmt: skip
def test_the_pp_note_stands_beside_every_table_with_a_pp_cell_starred_or_not(cell, noted):
    import pandas as pd

    from reports.numbers import PP_MEANS
    from reports.page import unit_note

    assert (unit_note(pd.DataFrame({"a": [cell]})) == f" ({PP_MEANS})") is noted


def test_compare_of_a_run_left_with_no_game_says_there_is_nothing_to_compare():
    """Unpaired runs where the tables one run forfeited whole leave the other with no game:
    the one-line error, not a reshape of an empty array."""
    import reports
    from reports.data import ReportError
    from tests.test_mutation_gauntlet60 import duo, frame

    a = frame([duo(0, s, "x", "y", (0, 1)) for s in range(1, 4)])
    b = frame([duo(0, 50 + s, "x", "y", (-1, -1), (0, 0)) for s in range(3)]
              + [duo(1, 60, "x", "z"), duo(2, 61, "y", "z")])  # fmt: skip
    with pytest.raises(ReportError, match="nothing to compare between A and B"):
        reports.compare(a, b)
