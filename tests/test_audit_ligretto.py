"""Ligretto, audited as a user meets it: a round stopped at the time limit is recorded as such
and replays, the round length the report states is not cut short, the benchmark takes more
Python-path rounds than compiled ones, the public functions refuse what names no card, and a
player too slow to act plays the same rounds compiled and through the Python path."""

from __future__ import annotations

import json
from typing import Any

import numpy as np
import pytest

import ligretto
import strategies
from ligretto.bench import bench_table, run_bench
from ligretto.match import Match, winners
from ligretto.players import play_batch
from ligretto.players import play_round as players_round
from ligretto.plugin import LigrettoGame
from ligretto.policy import PolicyPlayer
from ligretto.rng import SplitMix
from ligretto.rules import ENDED_UNFINISHED, MAX_ROUND_MS

from .helpers import cli, one_error_line
from .sometimes_strategy import Sometimes


class Turner:
    """A player that never plays: it only turns hand cards, so its rounds run to the limit."""

    reaction = ligretto.ReactionModel()

    def decide(self, view: ligretto.PlayerView, rng: Any) -> ligretto.Decision:
        return ligretto.Decision("flip" if view.can_flip else "wait")


@pytest.fixture(scope="module")
def stopped() -> ligretto.RoundOutcome:
    """A 2-player round of players that never play, stopped at ``MAX_ROUND_MS``."""
    return ligretto.play_round([Turner(), Turner()], 1, 2, record=True, labels=["t", "t"])


def _line(record: ligretto.RoundRecord, **change: Any) -> str:
    d = json.loads(record.to_json())
    d.update(change)
    return json.dumps(d)


def test_a_round_stopped_at_the_time_limit_is_recorded_as_such_and_replays(stopped):
    assert stopped.ended_by == ENDED_UNFINISHED and stopped.time_ms <= MAX_ROUND_MS
    rec = stopped.record
    assert rec.ended_by == ENDED_UNFINISHED  # not null: that is a blockade
    back = ligretto.RoundRecord.from_json(rec.to_json())
    states = ligretto.replay(back)
    assert not states[-1].is_blockade() and states[-1].stack_emptied() is None
    end = ligretto.timeline(back)[-3]
    assert end.startswith("round stopped unfinished at a safety limit") and "blockade" not in end


def test_leaves_replay_shows_a_round_stopped_at_the_limit(stopped, tmp_path, capsys):
    path = tmp_path / "rounds.jsonl"
    path.write_text(stopped.record.to_json() + "\n")
    code, out, err = cli(capsys, "replay", str(path), "--game", "1")
    assert code == 0 and err == "" and "round stopped unfinished" in out


def test_the_replay_tells_a_stopped_round_from_a_blockade_and_a_cut_record(stopped, tmp_path):
    game = LigrettoGame()
    with pytest.raises(ValueError, match="stops before the round is over"):
        game.replay_lines(_line(stopped.record, ended_by=None))  # no blockade there
    finished = ligretto.play_round([PolicyPlayer(p) for p in bench_table(2)], 3, 4, record=True)
    assert finished.record.ended_by is not None and finished.record.ended_by >= 0
    with pytest.raises(ValueError, match=r"ended_by is -2, the replay says \d"):
        game.replay_lines(_line(finished.record, ended_by=ENDED_UNFINISHED))
    with pytest.raises(ValueError, match="neither a seat .* nor -2"):
        game.replay_lines(_line(finished.record, ended_by=-3))


def test_an_event_past_the_time_limit_is_refused(stopped):
    d = json.loads(stopped.record.to_json())
    d["events"][-1][0] = MAX_ROUND_MS + 1
    with pytest.raises(ligretto.RecordError, match="past the 600000 ms a round may last"):
        ligretto.replay(ligretto.RoundRecord.from_json(json.dumps(d)))


def test_round_length_in_seconds_is_rounded_not_cut_down():
    seeds = np.arange(300, dtype=np.uint64)
    b = LigrettoGame().play(["stack", "row", "cycler"], seeds, seeds + np.uint64(7))
    ms = b.game_values["time_ms"].astype(np.int64)
    assert np.array_equal(b.game_values["seconds"], (ms + 500) // 1000)
    assert abs(b.game_values["seconds"].mean() - ms.mean() / 1000) < 0.05  # not 0.5 s short


def test_the_bench_plays_more_python_rounds_than_compiled_ones():
    r = run_bench(players=2, rounds=5, api_rounds=8, repeats=1)
    assert r["api_rounds"] == 8 and r["api_rounds_per_second"] > 0


@pytest.mark.parametrize("fn", [ligretto.colour_of, ligretto.value_of, ligretto.card_name])
@pytest.mark.parametrize("card", [-1, 40, 45])
def test_no_card_id_is_wrapped_into_a_card(fn, card):
    with pytest.raises(ValueError, match="card must be a card id 0 to 39"):
        fn(card)


@pytest.mark.parametrize("card", ["x", 1.5, True, None])
def test_a_card_that_is_no_integer_is_a_type_error(card):
    for fn in (ligretto.colour_of, ligretto.value_of):
        with pytest.raises(TypeError, match="card must be an integer"):
            fn(card)


def test_score_takes_whole_counts_a_player_can_have():
    assert ligretto.score(18, 4) == 10 and ligretto.score(np.int8(18), np.int64(4)) == 10
    with pytest.raises(TypeError, match="centre_cards must be an integer"):
        ligretto.score(1.5, 2)
    with pytest.raises(ValueError, match="stack_left must be 0 to 10"):
        ligretto.score(3, 11)
    with pytest.raises(ValueError, match="centre_cards must be 0 to 40"):
        ligretto.score(-3, 1)


def test_card_id_returns_a_python_int():
    assert type(ligretto.card_id(np.int8(3), 10)) is int


def test_where_no_card_lies_fits_nowhere_and_a_bad_pile_is_said():
    s = ligretto.State.new(4, deal_seed=7)
    assert s.target(-1) is None and s.view(0).target(-1) is None  # an empty hand pile's -1
    with pytest.raises(ValueError, match="card must be a card id"):
        s.target(99)
    with pytest.raises(TypeError, match="pile must be an integer"):
        s.accepts("a", 3)


def test_a_deal_holds_integers_only():
    good = list(range(40))
    with pytest.raises(TypeError, match="a card id must be an integer, got 0.0"):
        ligretto.State.deal([good, [float(c) for c in good]])
    with pytest.raises(TypeError, match="a card id must be an integer, got True"):
        ligretto.State.deal([good, [0, True, *range(2, 40)]])  # True == 1 passed for the 1


def test_a_given_deal_is_checked_and_recorded_as_plain_ints():
    players = [PolicyPlayer(p) for p in bench_table(2)]
    orders = np.array(ligretto.deal_orders(2, 5))
    out = ligretto.play_round(players, 5, 1, record=True, deal=orders)
    same = ligretto.play_round(players, 5, 1, record=True)
    assert out.record.to_json() == same.record.to_json()
    with pytest.raises(ValueError, match="deal holds the cards of 3 seats, but 2 players play"):
        ligretto.play_round(players, 5, 1, deal=[list(range(40))] * 3)
    with pytest.raises(TypeError, match="deal must hold each seat's 40 card ids, got int"):
        ligretto.play_round(players, 5, 1, deal=5)


def test_a_record_of_a_stopped_round_read_back_in_one_line(stopped, tmp_path, capsys):
    path = tmp_path / "rounds.jsonl"
    path.write_text(_line(stopped.record, ended_by=None) + "\n")
    code, out, err = cli(capsys, "replay", str(path), "--game", "1")
    line = one_error_line(err)
    assert code == 1 and "ended_by is null; -2 marks a round stopped at a limit" in line


@pytest.mark.parametrize("spec", ["stack:speed=1e-300", "stack:speed=5e-324"])
def test_a_player_too_slow_to_act_plays_the_same_rounds_on_both_paths(spec):
    seeds = np.arange(4, dtype=np.uint64)
    compiled = play_batch([spec, "row"], seeds, seeds + np.uint64(9))
    python = play_batch([spec, "row"], seeds, seeds + np.uint64(9), record=True)
    for name in ("scores", "time_ms", "ended_by"):
        assert np.array_equal(getattr(compiled.batch, name), getattr(python.batch, name)), name
    assert (compiled.batch.stack_left[:, 0] == 10).all()  # it never acts: its stack stays


@pytest.mark.parametrize("name", ["think_ms", "look_ms", "flip_ms", "spread_ms"])
def test_a_timing_parameter_past_a_round_is_refused(name):
    with pytest.raises(ValueError, match=f"parameter {name} must be between 0 and 600000"):
        strategies.get(f"stack:{name}=100000000000000000000", game="ligretto")
    with pytest.raises(ValueError, match=f"^{name} must be at most 600000 .*, got 600001$"):
        ligretto.ReactionModel(**{name: 600_001})
    slowest = strategies.get(f"stack:{name}=600000", game="ligretto").reaction
    assert slowest.duration(7, True, SplitMix(1)) >= 1


def test_a_recycled_hand_holds_integers_only():
    s = ligretto.State.new(2, deal_seed=1)
    while s.hands[0]:
        s = s.flip(0)
    pile = list(s.hand_piles[0])
    with pytest.raises(TypeError, match="a card id must be an integer, got"):
        s.recycle(0, [float(c) for c in pile])
    with pytest.raises(TypeError, match="a card id must be an integer, got 'x'"):
        s.recycle(0, ["x"] * len(pile))
    assert s.recycle(0, pile[::-1]).hands[0] == tuple(pile[::-1])


def test_a_game_adds_whole_scores_only():
    with pytest.raises(TypeError, match="a score must be an integer, got 1.7"):
        Match(2, target=5).add([1.7, 2])  # never cut down to 1
    with pytest.raises(TypeError, match="a score must be an integer, got '3'"):
        Match(2, target=5).add(["3", 2])
    assert Match(2, target=5).add([np.int64(3), 2]).totals == (3, 2)
    with pytest.raises(ValueError, match="scores must hold one score per seat"):
        winners([])


def test_a_lone_spec_is_no_table_of_its_letters():
    with pytest.raises(TypeError, match="specs must be a list of strategies, one per seat"):
        play_batch("stack", [1], [2])
    with pytest.raises(TypeError, match="specs must be a list of strategies, one per seat"):
        players_round("stack", 1, 2)


class WrongAim:
    """Aims its stack top (not a 1) at pile 0 whether or not pile 0 takes it."""

    reaction = ligretto.ReactionModel()

    def decide(self, view: ligretto.PlayerView, rng: Any) -> ligretto.Decision:
        card = view.stack_top
        if ligretto.value_of(card) == 1:
            return ligretto.Decision("stack", 0, card, -1, 1)
        if view.pile_tops:
            return ligretto.Decision("stack", 0, card, 0, 1)
        return ligretto.Decision("flip" if view.can_flip else "wait")


def test_a_play_aimed_at_a_pile_that_does_not_take_it_is_no_lost_race():
    players = [WrongAim(), PolicyPlayer(bench_table(2)[0])]
    with pytest.raises(ligretto.PlayerError, match=r"seat 0: pile 0 does not take green 6"):
        ligretto.play_round(players, 1, 2, record=True)


def test_a_forfeited_round_is_no_round_stopped_unfinished():
    seeds = np.arange(12, dtype=np.uint64)
    b = LigrettoGame().play([Sometimes(), "stack"], seeds, seeds + np.uint64(1))
    forfeited = b.forfeit_seat >= 0
    assert forfeited.any() and not b.game_values["unfinished"][forfeited].any()
    assert b.game_values["unfinished"][~forfeited].any()  # rounds at the limit still are
