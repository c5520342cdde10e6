"""Ligretto, audited a second time as a user meets it: the replay that `leaves replay` calls
"checked card by card" refuses a record the rules and the time model cannot produce (a 1 that
"lost a race", a recycle that no turn-over follows, a player acting twice in one
millisecond)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ligretto
import strategies
from ligretto.bench import bench_table
from ligretto.policy import PolicyPlayer
from ligretto.rules import ENDED_UNFINISHED, value_of

from .helpers import cli, one_error_line


@pytest.fixture(scope="module")
def record() -> dict[str, Any]:
    """A finished 2-player round of the benchmark table, as its JSON line reads."""
    out = ligretto.play_round([PolicyPlayer(p) for p in bench_table(2)], 1, 2, record=True)
    return json.loads(out.record.to_json())


def _replay(d: dict[str, Any]) -> list[ligretto.State]:
    return ligretto.replay(ligretto.RoundRecord.from_json(json.dumps(d)))


def _cut(d: dict[str, Any], upto: int) -> dict[str, Any]:
    """The record's first ``upto`` events, as a round stopped there (totals as they stand)."""
    cut = json.loads(json.dumps(d))
    cut["events"] = d["events"][:upto]
    states = [ligretto.State.deal(d["deal"])]
    used = [0] * d["players"]
    for _t, seat, kind, card, pile in cut["events"]:  # the state the prefix leads to
        s = states[-1]
        if kind == "recycle":
            states.append(s.recycle(seat, d["recycled"][seat][used[seat]]))
            used[seat] += 1
        elif kind == "flip":
            states.append(s.flip(seat))
        elif kind != "fail":
            slot = s.rows[seat].index(card) if kind == "row" else 0
            states.append(s.play(seat, kind, slot, pile))
    end = states[-1]
    cut["recycled"] = [hands[:n] for hands, n in zip(d["recycled"], used, strict=True)]
    cut.update(ended_by=ENDED_UNFINISHED, stack_left=list(end.stack_left()),
               centre_cards=list(end.centre_cards()), scores=list(end.scores()))  # fmt: skip
    return cut


def test_the_record_as_written_replays(record):
    assert _replay(record)[-1].stack_emptied() == record["ended_by"]
    first_recycle = next(i for i, e in enumerate(record["events"]) if e[2] == "recycle")
    _replay(_cut(record, first_recycle + 2))  # a cut record that ends after the turn-over


def test_a_1_never_loses_a_race(record):
    """A 1 always starts a new pile, so its play cannot fail: a record saying so is refused."""
    ev = record["events"]
    i = next(i for i, e in enumerate(ev) if e[2] in ("stack", "row", "hand") and e[4] > 0
             and value_of(e[3]) == 1)  # fmt: skip
    t, seat, _, card, _ = ev[i]
    bad = dict(record, events=[*ev[:i], [t, seat, "fail", card, 0], *ev[i:]])
    with pytest.raises(ligretto.RecordError, match=rf"event {i} .*starts a new pile"):
        _replay(bad)


def test_a_recycle_is_followed_at_once_by_the_turn_over(record):
    ev = record["events"]
    i = next(i for i, e in enumerate(ev) if e[2] == "recycle")
    assert ev[i + 1][:3] == [ev[i][0], ev[i][1], "flip"]  # as the engine writes it
    with pytest.raises(ligretto.RecordError, match="recycle .*without the turn-over"):
        _replay(_cut(record, i + 1))  # the record ends on the recycle
    other = next(e for e in ev[i + 1 :] if e[1] != ev[i][1] and e[0] >= ev[i][0])
    moved = dict(record, events=[*ev[: i + 1], [ev[i][0], *other[1:]], *ev[i + 1 :]])
    with pytest.raises(ligretto.RecordError, match=rf"event {i + 1} .*turn-over"):
        _replay(moved)  # another event between the recycle and its turn-over


def test_a_player_never_acts_twice_in_one_millisecond(record):
    """Every action takes at least 1 ms (the reaction time's max(1, ...))."""
    ev = record["events"]
    i = next(i for i, e in enumerate(ev) if i > 0 and e[2] == "flip" and ev[i - 1][2] != "recycle"
             and any(f[1] == e[1] for f in ev[:i]))  # fmt: skip
    seat = ev[i][1]
    before = max(f[0] for f in ev[:i] if f[1] == seat)
    # the seat's flip moved back onto the time of its previous action (still in time order)
    squeezed = [e for e in ev[:i] if e[0] <= before]
    rest = [e for e in ev[:i] if e[0] > before]
    bad = dict(record, events=[*squeezed, [before, *ev[i][1:]], *rest, *ev[i + 1 :]])
    with pytest.raises(ligretto.RecordError, match=r"at least 1 ms"):
        _replay(bad)


def test_leaves_replay_says_a_failed_1_in_one_line(record, tmp_path, capsys):
    ev = record["events"]
    i = next(i for i, e in enumerate(ev) if e[2] in ("stack", "row", "hand") and e[4] > 0
             and value_of(e[3]) == 1)  # fmt: skip
    t, seat, _, card, _ = ev[i]
    path = tmp_path / "rounds.jsonl"
    path.write_text(json.dumps(dict(record, events=[*ev[:i], [t, seat, "fail", card, 0],
                                                     *ev[i:]])) + "\n")  # fmt: skip
    code, out, err = cli(capsys, "replay", str(path), "--game", "1")
    assert code != 0 and "starts a new pile" in one_error_line(err)


SOMETIMES = Path(__file__).with_name("sometimes_strategy.py")  # its Sometimes forfeits


def test_leaves_replay_of_a_forfeited_round_says_the_forfeit(tmp_path, capsys):
    """The report sends the user to `leaves replay RUN --game N` for a forfeited round: it
    says the strategy's error in one line, never a JSON parser's complaint."""
    run = str(tmp_path / "run")
    code, _, err = cli(capsys, "tournament", "--game", "ligretto", f"{SOMETIMES}:Sometimes",
                       "stack", "--players", "2", "--games", "4", "--seed", "1", "--out", run)  # fmt: skip
    assert code == 0, err
    code, out, err = cli(capsys, "replay", run, "--game", "0")  # round 0 is forfeited
    assert code == 0 and not err, err  # a round the run played: no fault of the input
    line = out.strip()
    assert "\n" not in line and "forfeited" in line and "KeyError: 'a 6'" in line, line
    assert "Expecting value" not in line
    code, out, err = cli(capsys, "replay", run, "--game", "1")  # a round played to its end
    assert code == 0 and "round over" in out


class _Timing(ligretto.ReactionModel):
    """A reaction-time model of a player's own, whose duration is whatever it was given."""

    def __init__(self, value: Any):
        super().__init__()
        object.__setattr__(self, "value", value)

    def duration(self, looked: int, flip: bool, rng: Any) -> Any:
        if isinstance(self.value, Exception):
            raise self.value
        return self.value


class _OwnClock:
    """Plays as the benchmark's first player, on a clock of its own."""

    def __init__(self, value: Any):
        self.reaction = _Timing(value)
        self.inner = PolicyPlayer(bench_table(2)[0])

    def decide(self, view: ligretto.PlayerView, rng: Any) -> ligretto.Decision:
        return self.inner.decide(view, rng)


@pytest.mark.parametrize(
    ("value", "said"),
    [
        (0, "got 0"),  # the round would run 2,000,000 actions at 0 ms
        (-500, "got -500"),  # time would run backwards
        (2.5, "got 2.5"),  # the record's times would be no whole milliseconds
        (True, "got True"),
        ("x", "got 'x'"),
        (ZeroDivisionError("slow"), "ZeroDivisionError: slow"),
    ],
)
def test_a_reaction_time_of_no_whole_millisecond_forfeits_the_round(value, said):
    """A player's own timing model must give whole milliseconds of at least 1: else its seat
    forfeits at once (never a hang, a clock running backwards or an unreplayable record)."""
    players = [_OwnClock(value), PolicyPlayer(bench_table(2)[1])]
    with pytest.raises(ligretto.PlayerError, match=r"^seat 0: .*" + re.escape(said)):
        ligretto.play_round(players, 1, 2, record=True)


def test_a_whole_reaction_time_of_any_integer_type_plays():
    players = [_OwnClock(np.int64(400)), PolicyPlayer(bench_table(2)[1])]
    out = ligretto.play_round(players, 1, 2, record=True)
    assert all(type(e[0]) is int for e in out.record.events)
    ligretto.replay(ligretto.RoundRecord.from_json(out.record.to_json()))


HUGE = "1" + "0" * 400


def test_a_patience_past_a_rounds_actions_is_refused_before_the_run(tmp_path, capsys):
    """`cautious:patience=<400 digits>` started the run, then stopped it with an
    OverflowError. Past a round's actions every patience plays alike, but a run made with
    one (5,000,000 say) must still resume: the bound is where the float vector ends."""
    with pytest.raises(ValueError, match="parameter patience must be between 0 and 9007199254"):
        strategies.get(f"cautious:patience={HUGE}", game="ligretto")
    assert strategies.get("cautious:patience=2000000", game="ligretto").policy()[7] == 2_000_000
    assert strategies.get("cautious:patience=5000000", game="ligretto").policy()[7] == 5_000_000
    assert strategies.get(f"cautious:patience={2**53}", game="ligretto").policy()[7] == 2**53
    run = tmp_path / "run"
    code, out, err = cli(capsys, "tournament", "--game", "ligretto", f"cautious:patience={HUGE}",
                         "stack", "--players", "2", "--games", "4", "--out", str(run))  # fmt: skip
    line = one_error_line(err)
    assert code == 2 and "patience must be between 0 and 9007199254740992" in line, line
    assert not run.exists()


def test_the_timeline_says_1_point_not_1_points(record):
    d = dict(record, scores=[1, -1], centre_cards=[1, 1], stack_left=[0, 1])
    lines = ligretto.timeline(ligretto.RoundRecord.from_json(json.dumps(d)))
    assert lines[-2].endswith("-> 1 point") and lines[-1].endswith("-> -1 point")
    assert ligretto.timeline(ligretto.RoundRecord.from_json(json.dumps(record)))[-1].endswith(
        "points"
    )


def test_a_record_labels_its_seats_from_the_players_never_a_memory_address():
    """Same seeds, same players: the same record, whatever the objects' addresses."""
    lines = {
        ligretto.play_round(
            [PolicyPlayer(p) for p in bench_table(2)], 1, 2, record=True
        ).record.to_json()
        for _ in range(2)
    }
    assert len(lines) == 1
    assert json.loads(lines.pop())["strategies"] == ["PolicyPlayer", "PolicyPlayer"]
    built_in = [strategies.get("stack:speed=1.1", game="ligretto"), PolicyPlayer(bench_table(2)[1])]
    out = ligretto.play_round(built_in, 1, 2, record=True)
    assert out.record.strategies == ["stack(speed=1.1)", "PolicyPlayer"]


@pytest.mark.parametrize(
    ("labels", "error", "said"),
    [
        (["a"], ValueError, "labels must hold one label per seat of the 2 players, got 1"),
        (["a", "b", "c"], ValueError, "one label per seat of the 2 players, got 3"),
        ("ab", TypeError, "labels must be a list of texts, one per seat, got 'ab'"),
        ([1, 2], TypeError, "labels: seat 0's label must be text, got 1"),
    ],
)
def test_labels_that_would_make_an_unreplayable_record_are_refused(labels, error, said):
    players = [PolicyPlayer(p) for p in bench_table(2)]
    with pytest.raises(error, match=re.escape(said)):
        ligretto.play_round(players, 1, 2, record=True, labels=labels)


@pytest.mark.parametrize(
    ("value", "error", "said"),
    [
        (-1, ValueError, "max_actions must be at least 0, got -1"),
        (1.5, TypeError, "max_actions must be an integer, got 1.5"),
        (True, TypeError, "max_actions must be an integer, got True"),
        ("x", TypeError, "max_actions must be an integer, got 'x'"),
    ],
)
def test_a_bad_action_limit_is_refused_not_read_as_another(value, error, said):
    players = [PolicyPlayer(p) for p in bench_table(2)]
    with pytest.raises(error, match=re.escape(said)):
        ligretto.play_round(players, 1, 2, max_actions=value)
    assert ligretto.play_round(players, 1, 2, max_actions=0).ended_by == ENDED_UNFINISHED
