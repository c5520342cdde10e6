"""Ligretto rules and claims that no test held to a known truth: each test here fails when the
rule or the claim it names is implemented otherwise (a blockade in mid-round, a game reaching
its target exactly, the built-ins' attention orders and caution as `leaves strategies` states
them, the reaction-time formula of docs/ligretto.md); and a game of a number of rounds asked
for by ``rounds`` alone, which ``ligretto.match.Match`` refused."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest

import ligretto
import strategies
from ligretto import Decision, PlayerView, State, card_id
from ligretto.match import Match
from ligretto.players import play_batch
from ligretto.policy import decide_view
from ligretto.rng import SplitMix
from ligretto.rules import SET_SIZE
from ligretto.timing import ReactionModel

R, G, B, Y = range(4)
ONES = [card_id(c, 1) for c in range(4)]


def _order(head: list[int]) -> list[int]:
    """A seat's 40 cards in dealt order: ``head`` first, then the rest in id order."""
    return head + [c for c in range(SET_SIZE) if c not in head]


# ---------------------------------------------------------------- the blockade
def test_a_1_below_the_top_of_the_hand_pile_keeps_the_round_from_a_blockade():
    """A hand card "in any position" counts: a 1 turned up and covered by the next two still fits
    a new pile, so the round is no blockade; without it, it is (no pile yet: only a 1 fits)."""
    g5, y9, y8 = card_id(G, 5), card_id(Y, 9), card_id(Y, 8)
    row = (card_id(B, 7),) * 5

    def seat0_hand(hand: tuple[int, ...]) -> State:
        return State(stacks=((g5, *ONES[1:]), (g5, *ONES)), rows=(row, row),
                     hands=(hand, ()), hand_piles=((), ()), idle=(0, 0))  # fmt: skip

    turned = seat0_hand((card_id(R, 1), y9, y8)).flip(0)
    assert turned.hand_piles[0] == (card_id(R, 1), y9, y8) and turned.hands[0] == ()
    assert not turned.is_blockade()
    blocked = seat0_hand((card_id(R, 2), y9, y8))
    assert blocked.is_blockade()  # face down or turned up, the red 2 fits nowhere
    with pytest.raises(ligretto.IllegalMove, match="the round is over: a blockade"):
        blocked.flip(0)


def _blocked_after_one_play() -> list[list[int]]:
    """Seat 0's stack top is the red 1, the only card anyone can play; once it lies in the
    centre nobody holds a red 2 or a 1 outside a stack: a blockade in mid-round."""
    buried = [card_id(G, 5), card_id(G, 1), card_id(B, 1), card_id(Y, 1), card_id(R, 2)]
    seat0 = _order([card_id(R, 1), *buried])  # all under the red 1 in the stack
    seat1 = _order([*buried, card_id(R, 1)])
    return [seat0, seat1]


def test_a_blockade_in_mid_round_ends_it_at_once_and_is_scored():
    players = [strategies.get("stack", game="ligretto") for _ in range(2)]
    out = ligretto.play_round(players, 0, 1, record=True, deal=_blocked_after_one_play())
    plays = [e for e in out.events if e[2] in ("stack", "row", "hand")]
    assert plays == [[plays[0][0], 0, "stack", card_id(R, 1), 0]]
    assert out.ended_by == -1 and out.events[-1] == plays[0]
    assert out.time_ms == plays[0][0]  # at once, not at the time limit
    assert out.scores == (1 - 2 * 9, -20)
    assert out.record.ended_by is None
    lines = ligretto.timeline(ligretto.RoundRecord.from_json(out.record.to_json()))
    assert "round over: blockade" in lines


@pytest.mark.parametrize("table", [["stack", "row"], ["cautious", "scanner"]])
def test_the_python_path_ends_the_compiled_paths_blockades_alike(table):
    """Rounds the compiled loop ends by blockade in mid-round (found by a search over seeds):
    the Python path ends them at the same millisecond, its records null and replaying."""
    deal = np.array([274, 289, 363, 380], np.uint64)
    play = deal + np.uint64(1)
    fast = play_batch(table, deal, play)
    slow = play_batch(table, deal, play, record=True)
    assert fast.batch.ended_by.tolist() == [-1] * 4
    assert slow.batch.ended_by.tolist() == [-1] * 4
    assert np.array_equal(fast.batch.time_ms, slow.batch.time_ms)
    assert np.array_equal(fast.batch.scores, slow.batch.scores)
    assert (fast.batch.plays > 0).all()  # in mid-round: cards were played first
    for text in slow.records:
        record = ligretto.RoundRecord.from_json(text)
        assert record.ended_by is None and ligretto.replay(record)


# ---------------------------------------------------------------- games of rounds
def test_a_game_ends_when_a_total_reaches_the_target_exactly():
    """``ligretto.match.Match``: "until some player's total reaches a target" (the runner's
    games to ``--target``: tests/test_ligretto_tournaments.py)."""
    game = Match(2, target=10)
    assert not game.add([9, -4]).is_over
    assert game.add([10, -4]).is_over and game.add([10, -4]).winners == [True, False]
    tied = game.add([4, 4]).add([6, 6])
    assert tied.is_over and tied.winners == [True, True]  # L4: tied players share the win


def test_a_game_of_a_number_of_rounds_is_asked_for_by_rounds_alone():
    """``Match(3, rounds=2)`` was refused ("a game runs either to a target total or a number
    of rounds"): the target's default, the source's 100, counted as a target given."""
    game = Match(3, rounds=2)
    assert (game.target, game.rounds) == (None, 2)
    assert not game.add([1, 2, 3]).is_over and game.add([1, 2, 3]).add([0, 0, 0]).is_over
    assert (Match(3).target, Match(3).rounds) == (100, None)  # no rounds: to the source's 100
    with pytest.raises(ValueError, match="either to a target total or a number of rounds"):
        Match(3, target=50, rounds=2)


# ---------------------------------------------------------------- the built-ins
RED3, GREEN5, BLUE8 = card_id(R, 3), card_id(G, 5), card_id(B, 8)
STACK_TOP, ROW_FIT, HAND_TOP = card_id(R, 4), card_id(G, 6), card_id(B, 9)
ROW = (card_id(Y, 9), card_id(Y, 3), ROW_FIT, card_id(B, 2), card_id(Y, 5))


def _view(stack_top=STACK_TOP, row=ROW, hand_top=HAND_TOP, piles=(RED3, GREEN5, BLUE8),
          idle=0, hand_left=20) -> PlayerView:  # fmt: skip
    """Seat 0 of 2: red 4 on its stack (fits pile 0), green 6 in row slot 2 (fits pile 1),
    blue 9 on its hand pile (fits pile 2); no other own card fits."""
    pile = (card_id(R, 10), hand_top) if hand_top >= 0 else ()
    return PlayerView(seat=0, n_players=2, pile_tops=tuple(piles),
                      stack_tops=(stack_top, card_id(R, 10)), stack_sizes=(10, 10),
                      rows=(tuple(row), (-1,) * 5), hand_tops=(hand_top, -1), hand_pile=pile,
                      hand_left=hand_left, idle=idle)  # fmt: skip


def decide(spec: str, view: PlayerView, seed: int = 0) -> Decision:
    strategy = strategies.get(spec, game="ligretto")
    return decide_view(strategy.policy(), view, SplitMix(seed))


def test_each_attention_order_plays_the_first_fitting_card_it_looks_at():
    """As `leaves strategies` says: stack looks at its stack top, then its row, then its hand;
    row along its row first; cycler at its hand-pile top first, then stack, then row. Every
    card looked at is counted (it costs time)."""
    assert decide("stack", _view()) == Decision("stack", 0, STACK_TOP, 0, 1)
    assert decide("row", _view()) == Decision("row", 2, ROW_FIT, 1, 3)  # slots 0, 1, 2
    assert decide("cycler", _view()) == Decision("hand", 0, HAND_TOP, 2, 1)
    # the first choice gone, each takes the next source in its order
    no_stack = _view(stack_top=card_id(Y, 7))
    assert decide("stack", no_stack) == Decision("row", 2, ROW_FIT, 1, 4)
    assert decide("cycler", _view(hand_top=card_id(Y, 8))) == Decision("stack", 0, STACK_TOP,
                                                                        0, 2)  # fmt: skip
    no_row = _view(row=tuple(card_id(Y, v) for v in (9, 3, 4, 2, 5)))
    assert decide("row", no_row) == Decision("stack", 0, STACK_TOP, 0, 6)
    only_hand = _view(stack_top=card_id(Y, 7), row=no_row.row)
    for spec, looked in (("stack", 7), ("row", 7), ("cycler", 1)):
        assert decide(spec, only_hand) == Decision("hand", 0, HAND_TOP, 2, looked)


def test_a_built_in_with_nothing_to_play_turns_hand_cards_or_waits():
    nothing = _view(stack_top=card_id(Y, 7), row=(card_id(Y, 9),) * 5, hand_top=card_id(Y, 8))
    assert decide("stack", nothing) == Decision("flip", looked=7)
    assert decide("scanner", nothing) == Decision("flip", looked=7)
    empty = _view(stack_top=card_id(Y, 7), row=(card_id(Y, 9),) * 5, hand_top=-1, hand_left=0)
    assert decide("stack", empty) == Decision("wait", looked=6)


def test_the_scanner_looks_at_every_own_card_and_plays_any_that_fits_at_random():
    picks = Counter()
    for seed in range(90):
        d = decide("scanner", _view(), seed)
        assert d.looked == 7  # stack top, five row cards, hand-pile top
        picks[(d.kind, d.slot, d.card, d.pile)] += 1
    assert set(picks) == {("stack", 0, STACK_TOP, 0), ("row", 2, ROW_FIT, 1),
                          ("hand", 0, HAND_TOP, 2)}  # fmt: skip
    assert min(picks.values()) >= 15  # each of the three about a third of the time


def test_cautious_holds_back_a_lone_1_until_its_patience_ends():
    """As `leaves strategies` says: it "holds a 1 back unless it shows the 2 of that colour,
    for up to `patience` actions without a play"."""
    red1, red2 = card_id(R, 1), card_id(R, 2)
    others = (card_id(Y, 9),) * 5
    lone = _view(stack_top=red1, row=others, hand_top=card_id(Y, 8), piles=())
    assert decide("cautious", lone) == Decision("flip", looked=7)  # held back
    assert decide("stack", lone) == Decision("stack", 0, red1, -1, 1)  # not cautious
    for idle, kind in ((5, "flip"), (6, "stack")):  # patience 6 by default
        assert decide("cautious", _view(stack_top=red1, row=others, hand_top=card_id(Y, 8),
                                        piles=(), idle=idle)).kind == kind  # fmt: skip
    assert decide("cautious:patience=0", lone).kind == "stack"
    for shows in ({"row": (red2, *others[1:])}, {"hand_top": red2}):
        fields = {"stack_top": red1, "row": others, "hand_top": card_id(Y, 8), **shows}
        assert decide("cautious", _view(piles=(), **fields)).card == red1  # it shows the 2
    green2 = {"row": (card_id(G, 2), *others[1:])}  # a 2 of another colour does not count
    assert decide("cautious", _view(piles=(), stack_top=red1, hand_top=card_id(Y, 8),
                                    **green2)).kind == "flip"  # fmt: skip


# ---------------------------------------------------------------- the reaction time
def test_the_reaction_time_is_the_documented_formula():
    """max(1, int((think_ms + look_ms x cards looked at [+ flip_ms]) / speed) + jitter), the
    jitter triangular in [-spread_ms, spread_ms]."""
    model = ReactionModel(speed=1.25, think_ms=300, look_ms=60, flip_ms=250, spread_ms=0)
    assert model.duration(3, True, SplitMix(1)) == int((300 + 3 * 60 + 250) / 1.25) == 584
    assert model.duration(3, False, SplitMix(1)) == int((300 + 180) / 1.25) == 384
    assert ReactionModel(think_ms=0, look_ms=0, spread_ms=0).duration(0, False, SplitMix(1)) == 1
    spread = ReactionModel(speed=1.0, think_ms=1000, look_ms=0, flip_ms=0, spread_ms=2)
    rng = SplitMix(7)
    seen = Counter(spread.duration(0, False, rng) - 1000 for _ in range(9000))
    assert set(seen) == {-2, -1, 0, 1, 2}
    for jitter, ninths in ((-2, 1), (-1, 2), (0, 3), (1, 2), (2, 1)):
        assert abs(seen[jitter] - 1000 * ninths) < 150
