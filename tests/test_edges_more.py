"""More edges, each said truly and in one line: a malformed Ligretto round record named by
file, line and what is wrong in the game's words; a sequential gauntlet's cap of games a side
that no run could hold refused before anything is played; and the time a command says (and a
run's manifest keeps) covering every stage of it.
"""

from __future__ import annotations

import copy
import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import cli, one_error_line

# ------------------------------------------------------------------ 1: Ligretto records
SEATS = ["stack", "cautious", "row", "cycler"]


@pytest.fixture(scope="module")
def round_record() -> dict[str, Any]:
    """A 4-player round with plays from every source, fails and recycled hands."""
    from ligretto.players import play_round

    record = json.loads(play_round(SEATS, 0, 1, record=True).record.to_json())
    kinds = {e[2] for e in record["events"]}
    assert kinds == {"stack", "row", "hand", "flip", "recycle", "fail"}
    return record


def _first(record: dict[str, Any], kind: str) -> int:
    return next(i for i, e in enumerate(record["events"]) if e[2] == kind)


def _event(record: dict[str, Any], i: int, field: int, value: Any) -> str:
    """Set ``field`` of event ``i``; the event as the error shows it, JSON without spaces."""
    record["events"][i][field] = value
    return f"event {i} {json.dumps(record['events'][i], separators=(',', ':'))}"


def _short_deal(r: dict[str, Any]) -> str:
    r["deal"][0].pop()
    return "deal: seat 0 is dealt 39 cards, not its own 40 (stack of 10, row of 5, hand of 25)"


def _long_deal(r: dict[str, Any]) -> str:
    r["deal"][2].append(r["deal"][2][0])
    return "deal: seat 2 is dealt 41 cards, not its own 40 (stack of 10, row of 5, hand of 25)"


def _seat_missing(r: dict[str, Any]) -> str:
    r["deal"].pop()
    return "deal has 3 entries, one per seat of the 4 players"


def _unknown_card(r: dict[str, Any]) -> str:
    r["deal"][1][5] = 40
    return "deal: seat 1's card 5 is 40, not a card id (0 to 39)"


def _card_twice(r: dict[str, Any]) -> str:
    r["deal"][0][0] = 9  # card 9 is red 10
    return "deal: seat 0 holds red 10 twice (each card once)" if r["deal"][0].count(9) == 2 else ""


def _short_event(r: dict[str, Any]) -> str:
    r["events"][0].pop()
    shown = json.dumps(r["events"][0], separators=(",", ":"))
    return f"event 0 {shown}: 4 fields, but an event is the 5 fields [time_ms, seat, kind, " \
        "card_id, pile]"  # fmt: skip


def _seat_away(r: dict[str, Any]) -> str:
    return f"{_event(r, 0, 1, 4)}: seat 4 is not at this table of 4 (seats 0 to 3)"


def _kind(r: dict[str, Any]) -> str:
    return (f"{_event(r, 0, 2, 'jump')}: kind \"jump\" is none of stack, row, hand, flip, "
            "recycle, fail")  # fmt: skip


def _card_text(r: dict[str, Any]) -> str:
    where = _event(r, _first(r, "row"), 3, "red 2")
    return f'{where}: card_id is "red 2", not a card id (0 to 39)'


def _time_float(r: dict[str, Any]) -> str:
    return f"{_event(r, 1, 0, 100.5)}: time_ms is 100.5, not a whole number"


def _time_back(r: dict[str, Any]) -> str:
    before = r["events"][0][0]
    return (f"{_event(r, 1, 0, before - 1)}: at {before - 1} ms it comes before the event above "
            f"it ({before} ms): events are listed in the order they resolved")  # fmt: skip


def _missing_key(r: dict[str, Any]) -> str:
    del r["recycled"]
    return "the record lacks recycled"


def _players_text(r: dict[str, Any]) -> str:
    r["players"] = "4"
    return 'players is "4", not a whole number'


def _recycled_short(r: dict[str, Any]) -> str:
    seat = r["events"][_first(r, "recycle")][1]
    r["recycled"][seat] = []
    i = _first(r, "recycle")
    return (f"{_event(r, i, 0, r['events'][i][0])}: recycled: seat {seat} has 0 hands listed, "
            "fewer than its events recycle")  # fmt: skip


def _after_the_end(r: dict[str, Any]) -> str:
    last = len(r["events"]) - 1
    r["events"].append([r["events"][-1][0], 0, "flip", -1, -1])
    shown = json.dumps(r["events"][-1], separators=(",", ":"))
    return (f"event {last + 1} {shown}: the round was over after event {last}: seat "
            f"{r['ended_by']} emptied its stack")  # fmt: skip


def _fail_pile(r: dict[str, Any]) -> str:
    return f"{_event(r, _first(r, 'fail'), 4, 99)}: there is no pile 99 yet (the centre has "


def _ended_by(r: dict[str, Any]) -> str:
    r["ended_by"] = 4
    return "ended_by is 4, neither a seat (0 to 3) whose stack emptied nor null (a blockade)"


MALFORMED: dict[str, Callable[[dict[str, Any]], str]] = {
    "short deal": _short_deal, "long deal": _long_deal, "a seat's deal missing": _seat_missing,
    "unknown card": _unknown_card, "a card twice": _card_twice, "short event": _short_event,
    "seat not at the table": _seat_away, "unknown kind": _kind, "card as text": _card_text,
    "time not whole": _time_float, "time going back": _time_back, "missing key": _missing_key,
    "players as text": _players_text, "recycled hand missing": _recycled_short,
    "event after the end": _after_the_end, "fail at no pile": _fail_pile,
    "ended_by no seat": _ended_by,
}  # fmt: skip


@pytest.mark.parametrize("case", list(MALFORMED))
def test_a_malformed_ligretto_record_is_one_line_naming_file_line_and_fault(
    case, round_record, tmp_path, capsys
):
    bad = copy.deepcopy(round_record)
    said = MALFORMED[case](bad)
    assert said, "the case did not change the record as it meant to"
    path = tmp_path / "rounds.jsonl"
    path.write_text(json.dumps(round_record) + "\n\n" + json.dumps(bad) + "\n")
    code, out, err = cli(capsys, "replay", str(path), "--game", "2", "--all")
    line = one_error_line(err)
    assert code == 1 and out == ""
    assert line.startswith(f"leaves: error: {path}, line 3: bad Ligretto round record: {said}")


PYTHON_WORDS = ("index out of range", "object", "unpack", "NoneType", "not supported between",
                "argument", "int()", "'int'", "'str'", "'list'", "Traceback")  # fmt: skip


def _mutants(record: dict[str, Any], n: int, seed: int) -> list[dict[str, Any]]:
    """``n`` copies of ``record``, each with one value replaced, removed or doubled."""
    rng = random.Random(seed)
    values = [None, True, 1.5, "x", -1, 0, 1, 40, 10**30, [], [1], {}, "flip"]
    out = []
    for _ in range(n):
        r = copy.deepcopy(record)
        box, key = r, rng.choice(list(r))
        while isinstance(box[key], list) and box[key] and rng.random() < 0.7:
            box, key = box[key], rng.randrange(len(box[key]))
        roll = rng.random()
        if roll < 0.6 or not isinstance(box, list):
            box[key] = rng.choice(values)
        elif roll < 0.8:
            del box[key]
        else:
            box.insert(key, copy.deepcopy(box[key]))
        out.append(r)
    return out


def test_no_mangled_ligretto_record_gets_past_the_checks_in_python_words(round_record):
    import ligretto

    for bad in _mutants(round_record, 400, seed=3):
        try:
            rec = ligretto.RoundRecord.from_json(json.dumps(bad))
            ligretto.replay(rec)
        except ligretto.RecordError as exc:
            text = str(exc)
            assert "\n" not in text and not any(w in text for w in PYTHON_WORDS), text
        else:  # a change that leaves the record as good as it was (a no-op)
            assert ligretto.timeline(rec)


@pytest.mark.parametrize("players", [2, 5, 9, 12])
def test_every_table_size_s_records_still_replay(players):
    import ligretto
    from ligretto.players import play_round

    seats = [SEATS[s % len(SEATS)] for s in range(players)]
    line = play_round(seats, players, 7, record=True).record.to_json()
    assert ligretto.replay(ligretto.RoundRecord.from_json(line))


# ------------------------------------------------------------------ 2: a gauntlet's cap
GAUNTLET = ["gauntlet", "counter", "--against", "taker", "--sequential", "--games", "400",
            "--jobs", "1"]  # fmt: skip


@pytest.mark.parametrize("cap", [2**31, 2**32 - 1, 5_000_000_000])
def test_a_sequential_cap_no_run_can_hold_is_refused_before_anything_is_played(
    cap, tmp_path, capsys
):
    out = tmp_path / "g"
    code, stdout, err = cli(capsys, *GAUNTLET, "--max-games", str(cap), "--out", str(out))
    assert code == 2 and stdout == ""
    assert one_error_line(err) == (
        "leaves: error: --max-games must be at most 2**31 - 1 (it counts games per side, and "
        f"the run holds both sides in at most 2**32 - 1 games), got {cap:,}"
    )
    assert not out.exists()


def test_the_largest_cap_a_run_holds_is_taken():
    from leaves_cli.gauntlet_cmd import _check_cap
    from tournaments.schedule import MAX_RUN_GAMES

    assert 2 * (2**31 - 1) <= MAX_RUN_GAMES < 2 * 2**31  # both sides at the cap fit, no more
    _check_cap(2**31 - 1)


# ------------------------------------------------------------------ 3: the time said
PAUSE = 0.3


@pytest.mark.slow
def test_a_sequential_gauntlet_counts_the_weighing_between_batches(tmp_path, capsys,
                                                                    monkeypatch):  # fmt: skip
    from leaves_cli import sequential

    real = sequential._paired

    def slow(result: Any) -> dict[str, float]:
        time.sleep(PAUSE)
        return real(result)

    monkeypatch.setattr(sequential, "_paired", slow)
    out = tmp_path / "g"
    code, _, err = cli(capsys, *GAUNTLET, "--max-games", "4000", "--out", str(out))
    assert code == 0, err
    batches = err.count("batch ")
    assert batches >= 2
    manifest = json.loads((out / "manifest.json").read_text())
    walls = [s["wall_s"] for s in manifest["sessions"]]
    assert len(walls) == batches
    assert manifest["wall_time_s"] >= PAUSE * (batches - 1)  # each weighing but the last
    assert sum(walls) == pytest.approx(manifest["wall_time_s"], abs=0.01)


def _three(games: int = 96) -> Any:
    from leaves_cli.tournament_parts import load_game
    from tournaments import Tournament

    return Tournament(["greedy", "random", "low"], players=3, games=games, seed=4,
                      game=load_game("leaves", {}), chunk_size=12)  # fmt: skip


@pytest.mark.slow
def test_leaves_run_says_its_time_this_session_and_in_all_on_a_resume(tmp_path, capsys,
                                                                      monkeypatch):  # fmt: skip
    from leaves.commands.run import _play
    from leaves_cli.errors import CLIError
    from leaves_cli.request import Request
    from tournaments.runner import Tournament

    out = tmp_path / "r"
    real = Tournament._play

    def two_then_ctrl_c(self, pending, runlog, players, progress):
        real(self, pending[:2], runlog, players, progress)
        time.sleep(PAUSE)
        runlog.save("interrupted", force=True)
        raise KeyboardInterrupt

    with monkeypatch.context() as mp:
        mp.setattr(Tournament, "_play", two_then_ctrl_c)
        # Ctrl-C: with stderr not a terminal (as here) the stop is the one-line error
        with pytest.raises((KeyboardInterrupt, CLIError)):
            _play(_three(), out, Request.of({"jobs": 1, "resume": False, "fmt": "html"}))
    capsys.readouterr()
    _play(_three(), out, Request.of({"jobs": 1, "resume": True, "fmt": "html"}), echo=False)
    said = capsys.readouterr().out.strip()
    manifest = json.loads((Path(out) / "manifest.json").read_text())
    this, in_all = manifest["sessions"][-1]["wall_s"], manifest["wall_time_s"]
    assert in_all >= PAUSE + this
    assert said == f"tournament: {out} ({this:.1f} s this session, {in_all:.1f} s in all)"
