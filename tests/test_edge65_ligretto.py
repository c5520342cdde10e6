"""Ligretto at its edges: a speed no clock can divide by, an own strategy's timing values,
a damaged round record's long numbers, and what a timeline's seed is."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path

import numpy as np
import pytest

import ligretto
import strategies
from ligretto import cengine
from ligretto.compiled import play_rounds
from ligretto.match import Match, winners
from ligretto.players import LigrettoStrategy, play_batch, play_round
from ligretto.plugin import LigrettoGame
from ligretto.rng import SplitMix
from ligretto.rules import takes
from tests.helpers import cli, doc_says, one_error_line

OWN = """
from ligretto import Decision
from ligretto.players import LigrettoStrategy


class Waits(LigrettoStrategy):
    name = "edgewaits"
    description = "turns hand cards, or waits"

    def __init__(self, speed=1.0, think_ms=300, look_ms=60, flip_ms=250, spread_ms=100):
        pass

    def decide(self, view, rng):
        return Decision("flip" if view.can_flip else "wait", looked=1)
"""


# ------------------------------------------------------------------ an infinite speed
@pytest.mark.parametrize(
    ("speed", "said"),
    [(math.inf, "inf"), (10**400, "an integer past the float range")],
)
def test_the_timing_model_refuses_a_speed_that_is_not_finite(speed, said):
    """A built-in refuses ``speed=inf`` ("must be finite"); the model it is built from took
    it (every reaction then 1 ms or the jitter), and took an integer past float's range, which
    then raised OverflowError in the first reaction drawn: a forfeit in every round."""
    with pytest.raises(ValueError) as info:
        ligretto.ReactionModel(speed=speed)
    assert str(info.value) == f"speed must be finite, got {said}"
    with pytest.raises(ValueError, match=r"^stack: parameter speed must be finite, got inf$"):
        strategies.get("stack:speed=inf", game="ligretto")


# ------------------------------------------------------------------ an own strategy's timing
class _Own(LigrettoStrategy, register=False):
    """Declares the timing parameters and plays by the base's reaction-time model."""

    def __init__(self, speed: float = 1.0, think_ms: int = 300):
        pass

    def decide(self, view: ligretto.PlayerView, rng: object) -> ligretto.Decision:
        return ligretto.Decision("flip" if view.can_flip else "wait", looked=1)


@pytest.mark.parametrize(
    ("params", "error", "said"),
    [
        ({"speed": 0.0}, ValueError, "_Own: parameter speed must be > 0, got 0.0"),
        ({"think_ms": -5}, ValueError, "_Own: parameter think_ms must be >= 0, got -5"),
        ({"think_ms": 1.5}, TypeError, "_Own: parameter think_ms must be an integer, got 1.5"),
        ({"speed": math.inf}, ValueError, "_Own: parameter speed must be finite, got inf"),
    ],
)
def test_an_own_strategys_timing_values_are_checked_when_it_is_made(params, error, said):
    """An own strategy's timing parameters are checked as a built-in's are, when it is made:
    they used to pass, and its model then raised in every round it played (each forfeit)."""
    with pytest.raises(error) as info:
        _Own(**params)
    assert str(info.value) == said
    assert _Own(speed=2.0, think_ms=0).reaction == ligretto.ReactionModel(speed=2.0, think_ms=0)


def test_an_own_strategy_with_a_bad_timing_value_is_refused_before_a_run(tmp_path: Path, capsys):
    """``leaves tournament --game ligretto mine.py:Waits:speed=0 ...`` is bad input: one line
    naming the strategy and the value, exit 2, nothing written (it used to play the run, each
    of its rounds forfeit, and end on 'no valid round', exit 1), as docs/ligretto.md says."""
    doc_says("ligretto.md", r"`mine.py:Mine:speed=0` is refused in one line before a run")
    (tmp_path / "mine.py").write_text(OWN)
    out = tmp_path / "run"
    try:
        code, _, err = cli(capsys, "tournament", "--game", "ligretto",
                           f"{tmp_path}/mine.py:Waits:speed=0", "stack", "--players", "2",
                           "--games", "4", "--seed", "1", "--jobs", "1", "--out", str(out))  # fmt: skip
    finally:  # the file's class registered itself: gone again for the tests after this one
        strategies.registry.unregister("edgewaits", game="ligretto")
    assert code == 2, err
    assert one_error_line(err) == "leaves: error: edgewaits: parameter speed must be > 0, got 0.0"
    assert not out.exists() or not any(out.iterdir())


# ------------------------------------------------------------------ a damaged record
def _record() -> dict:
    return json.loads(play_round(["stack", "row"], 3, 4, record=True).record.to_json())


@pytest.mark.parametrize(
    ("field", "value", "start"),
    [
        (
            "players",
            10**400,
            "players: Ligretto takes 2 to 12 players, got a whole number of about 401 digits",
        ),
        ("players", -(10**400), "players is a negative whole number of about 401 digits, "),
        ("row_size", 10**400, "row_size is a whole number of about 401 digits, "),
        ("events", [[10**400, 0, "flip", -1, -1]], "event 0 [1000000"),
    ],
)
def test_a_long_number_in_a_record_is_cut_short_in_its_error(tmp_path, capsys, field, value,
                                                              start):  # fmt: skip
    """A record's error shows a value as it shows an event, cut short (never a screenful):
    a 400-digit player count, row length or event time was written out in full. A number
    alone is said by its digits, as every error says one (``gamekit.errors.shown``)."""
    rec = _record()
    rec[field] = value
    path = tmp_path / "rounds.jsonl"
    path.write_text(json.dumps(rec) + "\n")
    code, _, err = cli(capsys, "replay", str(path))
    line = one_error_line(err)
    said = line.partition("bad Ligretto round record: ")[2]
    assert code != 0 and said.startswith(start), line
    assert ("..." in said or "digits" in said) and len(said) < 200, line


def test_a_record_built_in_python_with_a_number_past_writing_out_is_a_record_error():
    """A ``RoundRecord`` made in Python may hold an integer too long for ``str`` (more than
    4300 digits): its check says so as a RecordError, not Python's digit-limit ValueError."""
    rec = ligretto.RoundRecord(**{**_record(), "players": 10**5000})
    said = r"^players: Ligretto takes 2 to 12 players, got a whole number of about 5,001 digits$"
    with pytest.raises(ligretto.RecordError, match=said):
        ligretto.replay(rec)


# ------------------------------------------------------------------ the timeline's seed
def test_the_timeline_names_its_seed_the_deal_seed():
    """A record keeps the deal seed only (the play seed, which timed the round, is in the
    run's rows): two rounds of one deal, played apart, show the same seed, so the timeline
    says whose seed it is."""
    one = play_round(["stack", "row"], 7, 1, record=True).record
    two = play_round(["stack", "row"], 7, 2, record=True).record
    assert one.events != two.events
    heads = [ligretto.timeline(r)[0] for r in (one, two)]
    assert heads == ["Ligretto, 2 players, row of 5, deal seed 7"] * 2


# ------------------------------------------------------------------ a game's scores
@pytest.mark.parametrize("scores", [["a", "b"], [1, None], [1.5, 2]])
def test_winners_takes_whole_points_as_a_game_adds_them(scores):
    """``ligretto.match.winners`` of text used to raise numpy's ufunc error (of 1.5 it
    answered): its scores are whole points, as ``Match.add`` takes them, said in one line."""
    with pytest.raises(TypeError, match=r"^a score must be an integer, got "):
        winners(scores)
    assert winners([5, 9, 9]) == [False, True, True]


@pytest.mark.parametrize("scores", [5, None, "12"])
def test_a_game_refuses_scores_that_are_no_list_in_its_own_words(scores):
    """``Match.add(5)`` said Python's "object of type 'int' has no len()"; a text of two
    digits was taken letter by letter (its error named the score '1')."""
    with pytest.raises(TypeError) as info:
        Match(2).add(scores)
    assert str(info.value) == f"scores must hold one score per seat (2), got {scores!r}"


# ------------------------------------------------------------------ a strategy's stream
@pytest.mark.parametrize("n", [0, -3])
def test_a_streams_draw_below_n_needs_n_of_at_least_one(n):
    """``SplitMix.below(n)`` promises an int in 0..n-1: of -3 it drew a negative number or
    0, of 0 it raised Python's 'integer modulo by zero'; the draws it makes are unchanged."""
    with pytest.raises(
        ValueError, match=rf"^below\(n\) draws 0 to n - 1: n must be at least 1, got {n}$"
    ):
        SplitMix(5).below(n)
    one, two = SplitMix(5), SplitMix(5)
    assert [one.below(7) for _ in range(20)] == [two.next() % 7 for _ in range(20)]


class _DrawsFromNothing(_Own, register=False):
    """Picks at random among no candidates: its own bug."""

    def decide(self, view: ligretto.PlayerView, rng: SplitMix) -> ligretto.Decision:
        rng.below(0)
        return ligretto.Decision("wait")


def test_a_strategy_drawing_below_zero_forfeits_saying_what_it_asked():
    """Its seat forfeits (its own bug), and the error says the draw it asked for."""
    out = play_batch([_DrawsFromNothing(), "stack"], [1, 2], [3, 4])
    assert out.forfeit_seat.tolist() == [0, 0]
    said = "ValueError: below(n) draws 0 to n - 1: n must be at least 1, got 0"
    assert out.errors == [f"seat 0 (_DrawsFromNothing): {said}"] * 2


# ------------------------------------------------------------------ the cheapest round
def test_the_plugins_lower_bound_on_a_rounds_time_is_one():
    """``LigrettoGame.min_unit_s`` is a lower bound on one round's single-core time, which
    tells the runner when worker processes pay: it said 2e-5 s, while a compiled round of two
    built-ins takes about 5.5e-6 s of CPU, so runs four times too small were judged worth
    the workers' start-up."""
    if not cengine.available():
        pytest.skip("measured on the compiled round loop (the C engine)")
    table = np.stack([strategies.get(s, game="ligretto").policy() for s in ("stack", "row")])
    seeds = np.arange(5_000, dtype=np.uint64)
    play_rounds(table, seeds[:10], seeds[:10])  # loaded before it is timed
    spent = []
    for _ in range(3):
        start = time.process_time()
        play_rounds(table, seeds, seeds[::-1].copy())
        spent.append((time.process_time() - start) / len(seeds))
    assert LigrettoGame.min_unit_s <= min(spent), min(spent)


# ------------------------------------------------------------------ which pile takes a card
class _LastPile(_Own, register=False):
    """Plays the first card that fits onto the last pile that takes it."""

    def decide(self, view: ligretto.PlayerView, rng: SplitMix) -> ligretto.Decision:
        seen = [("stack", -1, view.stack_top), *(("row", i, c) for i, c in enumerate(view.row)),
                ("hand", -1, view.hand_top)]  # fmt: skip
        for kind, slot, card in seen:
            if card < 0:
                continue
            if ligretto.value_of(card) == 1:
                return ligretto.Decision(kind, slot, card, -1, looked=3)
            piles = [i for i, top in enumerate(view.pile_tops) if takes(top, card)]
            if piles:
                return ligretto.Decision(kind, slot, card, piles[-1], looked=3)
        return ligretto.Decision("flip" if view.can_flip else "wait", looked=3)


def _plays_off_the_first_pile(players: list) -> tuple[int, int]:
    """(plays of a card a pile takes, those onto another pile than the first taking it) in a
    few recorded rounds, each checked by the replay."""
    plays = elsewhere = 0
    for seed in range(6):
        record = play_round(players, seed, seed + 100, record=True).record
        states = iter(ligretto.replay(record))  # one state before each event but a fail
        for _, _, kind, card, pile in record.events:
            if kind == "fail":
                continue
            state = next(states)
            if kind in ("stack", "row", "hand") and ligretto.value_of(card) > 1:
                plays += 1
                elsewhere += state.target(card) != pile
    return plays, elsewhere


def test_the_pile_a_card_goes_to_is_the_built_ins_choice_not_a_rule():
    """docs/ligretto.md gave 'the first pile (in order of creation)' as the pile that takes
    a card, among the Interpretations: the built-ins choose it, but a strategy of one's own
    names the pile and may play onto any that takes the card (the record replays)."""
    doc_says("ligretto.md", r"the built-ins play it onto the first \(in order of creation\); a "
             r"strategy of one's own names the pile, any that takes the card")  # fmt: skip
    plays, elsewhere = _plays_off_the_first_pile(["stack", "row", "cycler", "scanner"])
    assert plays > 100 and elsewhere == 0
    plays, elsewhere = _plays_off_the_first_pile([_LastPile() for _ in range(4)])
    assert plays > 100 and elsewhere > 0
