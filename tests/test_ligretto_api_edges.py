"""Bad input to Ligretto's public API: the right exception type, one line naming the argument,
never a deep IndexError or AttributeError, never a seat -1 read as the last seat or a seed
wrapped from -1 or truncated from 1.5."""

from __future__ import annotations

import numpy as np
import pytest

import ligretto
import strategies
from ligretto.compiled import play_rounds
from ligretto.match import Match
from ligretto.players import play_batch, play_round

SEAT_METHODS = ("view", "stack_top", "hand_top", "can_flip", "accessible", "cards_of", "flip",
                "rest")  # fmt: skip


@pytest.fixture(scope="module")
def state() -> ligretto.State:
    return ligretto.State.new(4, deal_seed=7)


class _Fixed:
    """A player that always returns the same decision."""

    def __init__(self, decision: ligretto.Decision) -> None:
        self.decision, self.reaction = decision, ligretto.ReactionModel()

    def decide(self, view: ligretto.PlayerView, rng: object) -> ligretto.Decision:
        return self.decision


# ------------------------------------------------------------------ D16: speed's one range
@pytest.mark.parametrize("value", ["0", "0.0", "-1"])
def test_speed_states_one_range_for_zero_and_negative(value: str) -> None:
    want = f"row: parameter speed must be > 0, got {float(value)}"
    with pytest.raises(ValueError) as info:
        strategies.get(f"row:speed={value}", game="ligretto")
    assert str(info.value) == want


def test_reaction_model_states_the_range_and_types() -> None:
    with pytest.raises(ValueError, match=r"^speed must be > 0, got 0$"):
        ligretto.ReactionModel(speed=0)
    with pytest.raises(TypeError, match=r"^speed must be a number, got 'x'$"):
        ligretto.ReactionModel(speed="x")
    with pytest.raises(TypeError, match=r"^think_ms must be an integer, got 1.5$"):
        ligretto.ReactionModel(think_ms=1.5)
    with pytest.raises(ValueError, match=r"^spread_ms must be >= 0, got -1$"):
        ligretto.ReactionModel(spread_ms=-1)


# ------------------------------------------------------------------ D17: seats
@pytest.mark.parametrize("method", SEAT_METHODS)
@pytest.mark.parametrize("seat", [4, -1, 99])
def test_a_seat_not_at_the_table_is_refused(state, method: str, seat: int) -> None:
    with pytest.raises(ValueError, match=rf"^seat must be 0 to 3 at this table of 4, got {seat}$"):
        getattr(state, method)(seat)


@pytest.mark.parametrize("seat", [1.5, "0", True, None])
def test_a_seat_that_is_no_integer_is_refused(state, seat: object) -> None:
    with pytest.raises(TypeError, match=r"^seat must be an integer, got "):
        state.view(seat)


def test_numpy_seats_still_work(state) -> None:
    assert state.view(np.int64(3)) == state.view(3)
    assert state.view(3).seat == 3


def test_transitions_refuse_bad_seats_piles_slots_and_orders(state) -> None:
    with pytest.raises(ValueError, match="^seat must be 0 to 3"):
        state.play(-1, "stack")
    with pytest.raises(ValueError, match="^seat must be 0 to 3"):
        state.recycle(4, [])
    with pytest.raises(TypeError, match=r"^pile must be an integer, got 0.5$"):
        state.play(0, "stack", 0, 0.5)
    with pytest.raises(TypeError, match=r"^slot must be an integer, got 1.5$"):
        state.play(0, "row", 1.5)
    with pytest.raises(TypeError, match=r"^order must be a list or tuple of card ids, got None$"):
        state.recycle(0, None)
    with pytest.raises(ValueError, match=r"^pile must be a centre pile \(the centre has no piles"):
        state.pile_top(-1)


# ------------------------------------------------------------------ D17: seeds and counts
@pytest.mark.parametrize(
    ("seed", "kind", "message"),
    [
        (-1, ValueError, "deal_seed must be 0 to 2**64 - 1, got -1"),
        (2**64, ValueError, f"deal_seed must be 0 to 2**64 - 1, got {2**64}"),
        (1.5, TypeError, "deal_seed must be a whole number 0 to 2**64 - 1, got 1.5 (float)"),
        ("3", TypeError, "deal_seed must be a whole number 0 to 2**64 - 1, got '3' (str)"),
        (True, TypeError, "deal_seed must be a whole number 0 to 2**64 - 1, got True (bool)"),
    ],
)
def test_a_deal_seed_is_a_whole_number_in_64_bits(seed, kind, message) -> None:
    for call in (lambda: ligretto.State.new(4, deal_seed=seed),
                 lambda: ligretto.deal_orders(4, seed)):  # fmt: skip
        with pytest.raises(kind) as info:
            call()
        assert str(info.value) == message


def test_numpy_and_largest_seeds_still_deal() -> None:
    assert ligretto.deal_orders(3, np.uint64(9)) == ligretto.deal_orders(3, 9)
    assert ligretto.State.new(2, 2**64 - 1).n_players == 2


def test_player_counts_are_whole_numbers() -> None:
    with pytest.raises(TypeError, match=r"^n_players must be an integer, got 4.5$"):
        ligretto.State.new(4.5, deal_seed=1)
    with pytest.raises(TypeError, match=r"^n_players must be an integer, got 4.5$"):
        ligretto.row_size(4.5)
    with pytest.raises(TypeError, match=r"^orders must be a list of each seat's card ids"):
        ligretto.State.deal(None)


def test_round_seeds_and_players_are_checked() -> None:
    with pytest.raises(ValueError, match=r"^deal_seed must be 0 to 2\*\*64 - 1, got -1$"):
        play_round(["stack", "row"], -1, 2)
    with pytest.raises(ValueError, match=r"^play_seed must be 0 to 2\*\*64 - 1, got -2$"):
        play_round(["stack", "row"], 1, -2)
    with pytest.raises(TypeError, match=r"^deal_seed must be a whole number 0 to 2\*\*64 - 1, "
                       r"got 1.5 \(float\)$"):  # fmt: skip
        play_round(["stack", "row"], 1.5, 2)
    with pytest.raises(TypeError, match=r"^players must be a sequence of players, got None$"):
        ligretto.play_round(None, 1, 2)
    with pytest.raises(TypeError, match=r"^players: seat 0's 1 is no Player"):
        ligretto.play_round([1, 2], 1, 2)


@pytest.mark.parametrize("record", [False, True])
def test_batch_seeds_are_checked(record: bool) -> None:
    table = ["stack", "row"]
    with pytest.raises(ValueError, match=r"^deal_seeds must be 0 to 2\*\*64 - 1, got -1$"):
        play_batch(table, np.array([-1, 2]), np.array([1, 2]), record=record)
    with pytest.raises(ValueError, match=r"^play_seeds must be 0 to 2\*\*64 - 1, got -2$"):
        play_batch(table, [1, 2], [1, -2], record=record)
    with pytest.raises(TypeError, match=r"^deal_seeds must hold integers, got dtype float64$"):
        play_batch(table, np.array([1.5, 2.0]), np.array([1, 2]), record=record)
    with pytest.raises(ValueError, match=r"^deal_seeds and play_seeds differ in length: 2 != 1$"):
        play_batch(table, [1, 2], [1], record=record)


def test_batch_of_good_seeds_is_unchanged() -> None:
    got = play_batch(["stack", "row"], [3, 4], [5, 6]).batch.scores
    want = play_batch(["stack", "row"], np.array([3, 4], np.uint64), np.array([5, 6], np.uint64))
    assert got.tolist() == want.batch.scores.tolist()
    one = play_round(["stack", "row"], 4, 6).scores
    assert tuple(got[1]) == one


def test_play_rounds_wants_a_matrix() -> None:
    with pytest.raises(ValueError, match=r"^params must be a matrix, one policy a row"):
        play_rounds(np.zeros(8), [1], [1])


def test_a_decision_of_wrong_types_forfeits_in_one_line() -> None:
    bad = _Fixed(ligretto.Decision("row", 1.5, 3))
    wait = _Fixed(ligretto.Decision("wait"))
    with pytest.raises(ligretto.PlayerError, match=r"^seat 0: a Decision's slot must be an "
                                                   r"integer, got 1.5$"):  # fmt: skip
        ligretto.play_round([bad, wait], 1, 2)
    looked = _Fixed(ligretto.Decision("wait", looked="3"))
    with pytest.raises(ligretto.PlayerError, match=r"^seat 1: a Decision's looked must be"):
        ligretto.play_round([wait, looked], 1, 2)


# ------------------------------------------------------------------ D17: records and cards
@pytest.mark.parametrize("record", [None, {}, "{}"])
def test_replay_and_timeline_want_a_record(record) -> None:
    for call in (ligretto.replay, ligretto.timeline):
        with pytest.raises(TypeError, match=r"^record must be a RoundRecord \(RoundRecord\."
                                            r"from_json reads one from a line\), got "):  # fmt: skip
            call(record)
    with pytest.raises(TypeError, match=r"^line must be text \(one JSON object\), got NoneType$"):
        ligretto.RoundRecord.from_json(None)


def test_timeline_checks_the_record_first() -> None:
    rec = play_round(["stack", "row"], 1, 2, record=True).record
    assert ligretto.timeline(rec)[0].startswith("Ligretto, 2 players")
    rec.events = [*rec.events[:3], [rec.events[2][0], 9, "flip", -1, -1]]
    with pytest.raises(ligretto.RecordError, match=r"^event 3 .*: seat 9 is not at this table"):
        ligretto.timeline(rec)


@pytest.mark.parametrize("card", [40, -1])
def test_card_names_are_never_wrapped(card: int) -> None:
    assert ligretto.card_name(39) == "yellow 10"
    with pytest.raises(ValueError, match=rf"^card must be a card id 0 to 39, got {card}$"):
        ligretto.card_name(card)


def test_card_id_wants_integers() -> None:
    with pytest.raises(TypeError, match=r"^colour must be an integer, got 0.5$"):
        ligretto.card_id(0.5, 1)


def test_match_checks_its_table_and_scores() -> None:
    with pytest.raises(ValueError, match="^Ligretto takes 2 to 12 players, got 0$"):
        Match(0)
    with pytest.raises(TypeError, match=r"^target must be an integer, got 1.5$"):
        Match(3, target=1.5)
    with pytest.raises(ValueError, match=r"^scores must hold one score per seat \(3\), got 2$"):
        Match(3).add([1, 2])
