"""The compiled deal of ``leaves.deal_kernels`` against the ``State`` API and a plain
Fisher-Yates, under every rule variant: the differential test that
``benchmarks/bench_mutation.py`` runs against the deal's mutants.

The mutation run executes these with numba's JIT disabled (the kernels' Python source, so a
mutant costs no compile); the suite runs them compiled. Each deal is compared whole: the board
against ``board_from_state`` of the ``State`` the documented deal gives (the sorted deck
shuffled with ``rng_below(i + 1)`` for i from the last card down, seat i dealt cards
``i*hand .. (i+1)*hand - 1``, the rest undealt, then the first player drawn), the stream's
state after it, ``state_from_board``, and every row but the hands and the undealt pile against
``new_game``'s board. Boundaries: two and six seats, hands of one card and hands that deal the
whole deck (62 cards of today's, 104 of eight of every value), each argument check on both
sides of its bound."""

from __future__ import annotations

import numpy as np
import pytest

from gamekit.rng import rng_below, rng_new
from leaves import Rules, State, new_game
from leaves import deal_kernels as D
from leaves.board import (
    BOARD_ROWS,
    DECK_ROW,
    HANDS,
    M_CUR,
    M_FIRST,
    MAX_SEATS,
    META,
    UNDEALT,
    board_from_state,
    state_from_board,
)
from leaves.rules import DECK, MAX_DECK, N_VALUES, TURN_LIMIT

from .test_boundaries_reference import RULE_SETS

# numpy's uint64 scalars warn on the RNG's wrapping products when the JIT is disabled
pytestmark = pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")

BIG_DECK = (8,) * 13  # 104 cards: MAX_DECK, the largest deck a board holds
VARIANTS = [
    *RULE_SETS,
    Rules(hand_size=7, deck=(1, 2, 3, 4, 5, 6, 6, 6, 5, 4, 3, 2, 1), players=(2, 3, 4, 5, 6)),
    Rules(hand_size=14, min_count=False, take="nothing", expert_target=10, turn_limit=30),
    Rules(hand_size=9, deck=(0, 3, 0, 8, 1, 0, 2, 8, 0, 0, 5, 1, 0), players=(2, 3)),
    Rules(hand_size=17, deck=BIG_DECK, players=(2, 3, 4, 5, 6), take="ends", min_count=False),
]


def seed64(seed: int) -> np.uint64:
    return np.uint64(seed & 0xFFFFFFFFFFFFFFFF)


def reference(rules: Rules, n: int, hand: int, seed: int, first: int) -> tuple[State, np.ndarray]:
    """The documented deal, plainly: (its ``State``, the stream after it)."""
    rng = rng_new(seed64(seed))
    cards = [v for v in range(N_VALUES) for _ in range(rules.deck[v])]
    for i in range(len(cards) - 1, 0, -1):
        j = int(rng_below(rng, i + 1))
        cards[i], cards[j] = cards[j], cards[i]
    hands = [[0] * N_VALUES for _ in range(n)]
    for pos in range(n * hand):
        hands[pos // hand][cards[pos]] += 1
    undealt = [0] * N_VALUES
    for v in cards[n * hand :]:
        undealt[v] += 1
    if first < 0:
        first = int(rng_below(rng, n))
    if n not in rules.players or hand != rules.hand_size_for(n):
        rules = rules.replace(hand_size={n: hand}, players=(n,))
    state = State.from_dict({"hands": hands, "table": [0] * N_VALUES, "undealt": undealt,
                             "current_player": first,
                             "rules": rules})  # fmt: skip
    return state, rng


def check(board: np.ndarray, rules: Rules, n: int, hand: int, seed: int, first: int,
          rng: np.ndarray | None = None) -> State:  # fmt: skip
    """``board`` is the deal of ``reference``, whole; ``rng`` (when given) the stream after."""
    want, after = reference(rules, n, hand, seed, first)
    expected = board_from_state(want)
    assert np.array_equal(board, expected), (rules, n, hand, seed, first)
    assert board[META, M_FIRST] == want.current_player
    assert [int(board[HANDS + p].sum()) for p in range(MAX_SEATS)] == [hand] * n + [0] * (
        MAX_SEATS - n
    )
    assert board[UNDEALT].sum() == rules.deck_size - n * hand
    assert state_from_board(board, want.rules) == want
    if rng is not None:
        assert np.array_equal(rng, after)
    # every row but the dealt cards (and a drawn first seat) is new_game's
    game = new_game(n, seed=seed, first_player=want.current_player, hand_size=hand,
                    rules=rules)  # fmt: skip
    other = board_from_state(game)
    rows = [r for r in range(BOARD_ROWS) if not (HANDS <= r < HANDS + MAX_SEATS or r == UNDEALT)]
    assert np.array_equal(board[rows], other[rows])
    return want


def deal(rules: Rules, n: int, hand: int, seed: int, first: int, how: int) -> np.ndarray:
    """Deal through ``deal_into`` (0), ``deal_unchecked`` (1), ``deal_setup`` (2), onto a board
    and a scratch deck full of junk; returns the stream after it too."""
    board = np.full((BOARD_ROWS, N_VALUES), 77, dtype=np.int32)
    setup = D.setup_for(rules, n, hand)
    rng = rng_new(seed64(seed))
    deck = np.full(MAX_DECK, 5, dtype=np.int64)
    if how == 0:
        D.deal_into(board, setup, rng, np.int64(first), deck)
    elif how == 1:
        D.deal_unchecked(board, setup, rng, np.int64(first), deck)
    else:
        D.deal_setup(board, setup, rng, np.int64(first))
    return board, rng


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_every_variant_deals_as_the_state_api(rules):
    for g in range(6):
        n = rules.players[g % len(rules.players)]
        hand = rules.hand_size_for(n)
        first = (-1, 0, n - 1)[g % 3]
        board, rng = deal(rules, n, hand, 100 + g, first, g % 3)
        check(board, rules, n, hand, 100 + g, first, rng)
    n = rules.players[-1]
    board = D.deal_board(n, 7, rules=rules)  # the first player drawn by default
    state = check(board, rules, n, rules.hand_size_for(n), 7, -1)
    assert board[META, M_CUR] == state.current_player


@pytest.mark.parametrize("n", range(2, MAX_SEATS + 1))
def test_every_seat_count_from_one_card_to_the_whole_deck(n):
    """Hands of one card, of two, and the largest the deck deals (all of it when n divides
    it), every seat first; deal_board's overrides and board_deal's today's deck."""
    rules = Rules()
    for hand in (1, 2, sum(DECK) // n):
        for first in (-1, *range(n)):
            seed = 31 * hand + first
            board, rng = deal(rules, n, hand, seed, first, (hand + first) % 3)
            check(board, rules, n, hand, seed, first, rng)
        board = D.deal_board(n, 5 + hand, first_player=n - 1, hand_size=hand, rules="turn_limit=9")
        check(board, rules.replace(turn_limit=9), n, hand, 5 + hand, n - 1)
        board, rng = D.board_new(), rng_new(np.uint64(hand))
        D.board_deal(board, n, hand, rng, -1, TURN_LIMIT)
        check(board, rules, n, hand, hand, -1, rng)


def test_a_deck_dealt_to_its_last_card():
    """62 cards to two seats of 31; 104 (MAX_DECK, a scratch deck with no slot to spare) to
    two of 52 and four of 26: nothing undealt."""
    big = Rules(hand_size=52, deck=BIG_DECK, players=(2,))
    for rules, n, hand in ((Rules(), 2, 31), (big, 2, 52), (big, 4, 26)):
        for seed in (1, 2):
            board, rng = deal(rules, n, hand, seed, -1, seed)
            check(board, rules, n, hand, seed, -1, rng)
            assert not board[UNDEALT].any()


def test_the_seed_is_read_as_64_bits():
    """deal_board takes any int and keeps its low 64 bits: -1 is 2**64 - 1, odd seeds stay odd."""
    for seed, same in ((-1, 2**64 - 1), (2**64 + 3, 3), (5, 5)):
        board = D.deal_board(4, seed)
        assert np.array_equal(board, D.deal_board(4, same))
        check(board, Rules(), 4, Rules().hand_size_for(4), same, -1)


def test_the_argument_checks_on_both_sides_of_each_bound():
    rules = Rules(hand_size=3, deck=BIG_DECK, players=(2, 3, 4, 5, 6))

    def attempt(n, hand, first=-1, limit=5, cards=None):
        setup = D.setup_for(rules.replace(turn_limit=max(limit, 1)), max(n, 2), hand)
        setup = setup._replace(n_players=n, turn_limit=limit)
        if cards is not None:
            setup = setup._replace(cards=cards)
        board = D.board_new()
        D.deal_into(board, setup, rng_new(np.uint64(1)), np.int64(first),
                    np.zeros(MAX_DECK, dtype=np.int64))  # fmt: skip
        return board

    for ok in ((2, 1), (6, 1), (2, 52), (4, 26), (3, 1, 2), (3, 1, 0), (2, 1, -1, 1)):
        attempt(*ok)
    for bad in ((1, 1), (0, 1), (7, 1), (2, 0), (2, -1), (2, 53), (5, 21), (3, 1, 3),
                (3, 1, -2), (2, 1, -1, 0), (2, 1, -1, -1)):  # fmt: skip
        with pytest.raises(ValueError, match="board_deal"):
            attempt(*bad)
    with pytest.raises(ValueError, match="board_deal"):  # hands of 3 from a 5-card deck
        attempt(2, 3, cards=np.arange(5, dtype=np.int64))
    attempt(2, 2, cards=np.arange(4, dtype=np.int64))


def test_the_setup_of_a_rules_and_its_cache():
    """``setup_for``: the deck as sorted value indices and counts, the flags, the turn limit;
    one object per (rules, seats) when the rules' hand size is used, a fresh one (not cached)
    for another hand size."""
    for rules in VARIANTS:
        n = rules.players[0]
        setup = D.setup_for(rules, n)
        assert setup is D.setup_for(rules, n)
        assert (setup.n_players, setup.hand_size) == (n, rules.hand_size_for(n))
        assert (setup.turn_limit, setup.flags) == (rules.turn_limit, rules.flags)
        assert setup.copies.tolist() == list(rules.deck)
        assert setup.cards.tolist() == [v for v in range(N_VALUES) for _ in range(rules.deck[v])]
        other = D.setup_for(rules, n, 1)
        assert other.hand_size == 1 and other.cards.tolist() == setup.cards.tolist()
        assert D.setup_for(rules, n) is setup
    assert D.DECK_SORTED.tolist() == D.setup_for(Rules(), 3).cards.tolist()
    with pytest.raises(ValueError):
        D.setup_for(Rules(), 2)


def test_the_board_helpers_and_the_partial_shuffle():
    board = D.board_new()
    assert board.shape == (BOARD_ROWS, N_VALUES) and board.dtype == np.int32 and not board.any()
    dealt = D.deal_board(3, 4)
    copy = D.board_copy(dealt)
    copy[0, 0] += 1
    assert copy[0, 0] == dealt[0, 0] + 1 and dealt[DECK_ROW].tolist() == list(DECK)
    for m in (0, 1, 2, 5, 62):
        a = np.arange(70, dtype=np.int64)
        rng, ref = rng_new(np.uint64(m)), rng_new(np.uint64(m))
        D.shuffle_head(a, m, rng)
        want = list(range(70))
        for i in range(m - 1, 0, -1):
            j = int(rng_below(ref, i + 1))
            want[i], want[j] = want[j], want[i]
        assert a.tolist() == want and np.array_equal(rng, ref), m
    deck = np.full(62, -1, dtype=np.int64)
    rng, ref = rng_new(np.uint64(3)), rng_new(np.uint64(3))
    D.shuffle_deck(deck, rng)
    want = D.DECK_SORTED.copy()
    D.shuffle_head(want, 62, ref)
    assert deck.tolist() == want.tolist() and np.array_equal(rng, ref)
