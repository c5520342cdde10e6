"""The compiled kernels of ``leaves.kernels`` against the ``State`` API, position by position,
under every rule variant: the differential test that ``benchmarks/bench_mutation.py`` runs
against the kernels' mutants.

The mutation run executes these with numba's JIT disabled (the kernels' Python source, so a
mutant costs no compile); the suite runs them compiled. Either way they must stay quick, so
they play a few dozen short games and check each position whole: the board against the one
``board_from_state`` builds, the legal list, ``is_legal`` of every id (and of ids out of
range), the hand sizes, the tracked sizes of ``apply_sized``, and the uniform draw of
``random_action`` against ``legal[rng_below(n)]``. Hand-made positions add what random games
rarely reach: eight cards of one value, both ends on one stack, every seat count."""

from __future__ import annotations

import random

import numpy as np
import pytest

from leaves import Rules, State, new_game
from leaves import kernels as K
from leaves.board import (
    M_FIRST,
    M_ROUND,
    M_TURN,
    M_WINNER,
    MAX_SEATS,
    META,
    SEAT_SLOTS,
    board_from_state,
)
from leaves.rules import N_ACTION_IDS, PASS_ID, TAKE_BASE, TURN_LIMIT

from .helpers import counts, position
from .test_boundaries_reference import RULE_SETS

# numpy's uint64 scalars warn on the RNG's wrapping products when the JIT is disabled
pytestmark = pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")

BIG_DECK = (8,) * 13  # eight of every value: hands of 7 and 8 of a kind are common
VARIANTS = [
    *RULE_SETS,
    Rules(hand_size=40, deck=BIG_DECK, players=(2,)),
    Rules(hand_size=17, deck=BIG_DECK, players=(2, 3, 4, 5, 6), min_count=False, take="ends"),
]


def expected_board(state: State, board: np.ndarray) -> np.ndarray:
    """The board of ``state``; ``M_FIRST`` (the dealt first seat) is the kernels' own."""
    want = board_from_state(state)
    want[META, M_FIRST] = board[META, M_FIRST]
    return want


def legal_ids(board: np.ndarray) -> list[int]:
    out = np.full(N_ACTION_IDS + 8, -7, dtype=np.int64)
    return out[: K.legal_actions(board, out)].tolist()


def check(state: State, board: np.ndarray, rng: np.ndarray) -> list[int]:
    """Every field and every answer of the kernels at one position; returns the legal ids."""
    assert np.array_equal(board, expected_board(state, board)), state
    ids = list(state.legal_action_ids())
    assert legal_ids(board) == ids, state
    assert [a for a in range(-2, N_ACTION_IDS + 2) if K.is_legal(board, a)] == ids, state
    assert bool(K.is_terminal(board)) == state.is_terminal
    sizes = [*state.hand_sizes, *[0] * (MAX_SEATS - state.n_players)]
    assert [int(K.hand_size(board, p)) for p in range(MAX_SEATS)] == sizes
    if ids:
        probe = rng.copy()
        drawn = int(K.random_action(board, probe))
        assert drawn == ids[int(K.rng_below(rng, len(ids)))], state
        assert np.array_equal(probe, rng)  # one draw, as the list-then-index form
    return ids


def step(state: State, board: np.ndarray, aid: int, how: int) -> State:
    """Apply ``aid`` to both, through ``apply``, ``apply_sized`` or untracked
    ``apply_tracked`` (``how`` 0, 1, 2); the sized form's sizes must follow the hands."""
    after = state.apply(aid)
    if how == 1:
        sizes = np.zeros(SEAT_SLOTS, dtype=np.int64)
        sizes[: state.n_players] = state.hand_sizes
        K.apply_sized(board, aid, sizes)
        assert sizes[: state.n_players].tolist() == list(after.hand_sizes)
    elif how == 2:
        K.apply_tracked(board, aid, board[META], False)
    else:
        K.apply(board, aid)
    return after


def play(state: State, board: np.ndarray, seed: int, take_bias: float) -> State:
    """Play to the end, mostly the kernels' own draw, takes more often with ``take_bias``."""
    pick = random.Random(seed)
    rng = K.rng_new(np.uint64(seed))
    while ids := check(state, board, rng):
        takes = [a for a in ids if a >= TAKE_BASE]
        aid = pick.choice(takes) if takes and pick.random() < take_bias else pick.choice(ids)
        state = step(state, board, aid, state.turn % 3)
    assert legal_ids(board) == [] and K.is_terminal(board)
    return state


@pytest.mark.parametrize("n", range(2, 7))
def test_every_seat_count_with_small_hands(n):
    """Two to six seats, hands of one to three cards: round ends after n - 1 passes, wins
    on the first turns, every seat as the leader."""
    for g in range(6):
        state = new_game(n, seed=g, hand_size=1 + g % 3, first_player=g % n)
        play(state, board_from_state(state), g, 0.6)


def plays(ids: list[int]) -> set[tuple[int, int]]:
    return {(a // 8 + 1, a % 8 + 1) for a in ids if a < TAKE_BASE}


BIG = Rules(hand_size=9, deck=BIG_DECK, players=(2, 3))


def big_position(hands: list[list[int]], table: list[int]) -> State:
    """A position of the eight-of-every-value deck, every card not shown undealt."""
    undealt = [8 - sum(h[v] for h in hands) - table[v] for v in range(13)]
    return State.from_dict({"hands": hands, "table": table, "undealt": undealt,
                            "current_player": 0, "rules": BIG})  # fmt: skip


def test_eight_of_a_kind_on_an_empty_table_and_onto_ends_of_every_size():
    """Eight 5s: counts 1..8 on an empty table; onto a left end of 1..8 cards (a 9-stack),
    every count from the end's size up, with the right end (one 11) taking one 13. Eight 13s
    make id -1 read as "eight 13s" if it slipped past the range check."""
    hands = [counts(v5=8, v13=8), counts(v2=1)]
    state = big_position(hands, [0] * 13)
    ids = check(state, board_from_state(state), K.rng_new(np.uint64(1)))
    assert plays(ids) == {(v, k) for v in (5, 13) for k in range(1, 9)}
    for size in range(1, 9):
        hands = [counts(v1=1, v5=8, v13=2), counts(v2=1)]
        state = big_position(hands, counts(v9=size, v11=1))
        ids = check(state, board_from_state(state), K.rng_new(np.uint64(size)))
        want = {(5, k) for k in range(size, 9)} | {(13, 1), (13, 2)}
        assert plays(ids) == want | ({(1, 1)} if size == 1 else set()), size


def test_both_ends_on_one_stack_and_the_take_that_clears_it():
    """One stack is both ends: the plays need its size on both sides, ``take=ends`` has one
    take, and taking its last card empties the table (lo = hi = -1) without a round end."""
    for rules in RULE_SETS:
        hands = [counts(v1=2, v7=2, v13=2), counts(v2=2, v6=1), counts(v4=1, v9=1)]
        state = position(hands, table=counts(v5=1), current=1, rules=rules)
        board = board_from_state(state)
        ids = check(state, board, K.rng_new(np.uint64(7)))
        assert plays(ids) == {(2, 1), (2, 2), (6, 1)}
        take = PASS_ID if rules.take == "nothing" else TAKE_BASE + 4
        assert (take in ids) and sum(a >= TAKE_BASE for a in ids) == 1
        after = step(state, board, take, 0)
        check(after, board, K.rng_new(np.uint64(8)))
        assert after.ends is None if rules.take != "nothing" else after.ends == ((5, 1),) * 2


def test_a_take_from_the_middle_keeps_the_ends():
    """``take=any`` takes from a middle stack: the ends stay; from an end of one card, the end
    moves inward past the empty values to the next stack."""
    hands = [counts(v1=2, v13=2), counts(v6=3), counts(v9=3)]
    table = counts(v3=1, v5=2, v8=1, v12=1)
    for take, ends in ((5, ((3, 1), (12, 1))), (3, ((5, 2), (12, 1))), (12, ((3, 1), (8, 1)))):
        state = position(hands, table=table, current=1)
        board = board_from_state(state)
        after = step(state, board, TAKE_BASE + take - 1, 1)
        check(after, board, K.rng_new(np.uint64(take)))
        assert after.ends == ends


def test_the_seat_tables():
    """``NEXT_SEAT[n, passed, p]``: the next seat after p, clockwise, not passed (p when it is
    the only one, -1 when none); ``LOWEST_CLEAR``: the lowest seat not passed (-1 when all
    have); ``N_PASSED``: the bit count."""
    full = 1 << MAX_SEATS
    assert K.NEXT_SEAT.shape == (MAX_SEATS + 1, full, MAX_SEATS)
    assert K.LOWEST_CLEAR.shape == K.N_PASSED.shape == (full,)
    for passed in range(full):
        seats = [q for q in range(MAX_SEATS) if not passed >> q & 1]
        assert K.LOWEST_CLEAR[passed] == (seats[0] if seats else -1)
        assert K.N_PASSED[passed] == MAX_SEATS - len(seats)
        for n in range(MAX_SEATS + 1):
            for p in range(MAX_SEATS):
                order = [(p + s) % n for s in range(1, n + 1)] if p < n else []
                want = next((q for q in order if not passed >> q & 1), -1)
                assert K.NEXT_SEAT[n, passed, p] == want, (n, passed, p)


@pytest.mark.slow
def test_a_random_playout_is_the_stepped_draws():
    """``random_playout`` plays ``random_action`` turn by turn; ``random_games`` deals with
    ``board_deal`` and plays out, from one stream."""
    for seed, limit in ((3, TURN_LIMIT), (4, 12), (5, 1)):
        board = K.deal_board(4, seed, rules=Rules(turn_limit=limit))
        stepped, rng = board.copy(), K.rng_new(np.uint64(seed))
        rng2 = rng.copy()
        winner = K.random_playout(board, rng)
        while legal_ids(stepped):
            K.apply(stepped, K.random_action(stepped, rng2))
        assert np.array_equal(stepped, board) and np.array_equal(rng, rng2)
        assert winner == board[META, M_WINNER] and board[META, M_TURN] <= limit
    winners = set()
    for seed in range(8):  # two seats, two cards: seat 0 wins some, and play must stop there
        board = board_from_state(new_game(2, seed=seed, hand_size=2))
        stepped, rng = board.copy(), K.rng_new(np.uint64(seed))
        winners.add(int(K.random_playout(board, rng.copy())))
        while legal_ids(stepped):
            K.apply(stepped, K.random_action(stepped, rng))
        assert np.array_equal(stepped, board)
    assert winners == {0, 1}
    turns, rounds, winners = K.random_games(3, 12, 3, 9, 40)
    rng = K.rng_new(np.uint64(9))
    for g in range(3):
        board = K.board_new()
        K.board_deal(board, 3, 12, rng, -1, 40)
        w = K.random_playout(board, rng)
        assert (turns[g], rounds[g], winners[g]) == (board[META, M_TURN], board[META, M_ROUND], w)


@pytest.mark.parametrize("rules", VARIANTS, ids=str)
def test_the_kernels_play_every_variant_as_the_state_api(rules):
    ends = set()
    for g, limit in enumerate((TURN_LIMIT, 25, TURN_LIMIT, 9)):  # some stop at the limit
        n = rules.players[g % len(rules.players)]
        rules = rules.replace(turn_limit=limit)
        board = K.deal_board(n, 1000 + g, rules=rules)
        state = K.state_from_board(board, rules)
        last = play(state, board, g, (0.0, 0.4, 0.9)[g % 3])
        ends.add("won" if last.winner is not None else "unfinished")
    assert ends == {"won", "unfinished"}
