"""The edges of ``leaves.board``, the array every compiled kernel and the search read a game
through: each row and META column written from a known position (worked out by hand from the
layout in the module's docstring), what a seat's public board hides (docs/rules.md, "What a
player can see": never another hand, never the undealt cards), the round trip between a
``State`` and its board, and the refusals of a board that is not one."""

from __future__ import annotations

import numpy as np
import pytest

from leaves import Action, Rules, new_game
from leaves import board as B
from leaves.rules import N_VALUES

from .helpers import counts, position

TAKE_ENDS = Rules.of("take=ends")


def _known_position():
    """4 seats; table 3..6 with three 6s on the right; seat 2 passed and took a 5 (known)."""
    hands = [counts(v1=1, v2=2), counts(v9=3), counts(v5=1, v13=1), counts(v11=2, v12=1)]
    table = counts(v3=2, v6=3)
    return position(
        hands, table=table, passed=[False, False, True, False], current=3,
        known=[[0] * 13, [0] * 13, counts(v5=1), [0] * 13], removed=counts(v7=4),
        turn=17, round=3,
    )  # fmt: skip


def test_set_public_writes_every_public_row_and_meta_column():
    s = _known_position()
    b = B.board_from_state(s)
    assert b.shape == (B.BOARD_ROWS, N_VALUES) and b.dtype == np.int32
    assert b[B.TABLE].tolist() == counts(v3=2, v6=3)
    assert b[B.REMOVED].tolist() == counts(v7=4)
    assert b[B.KNOWN + 2].tolist() == counts(v5=1)
    assert [b[B.KNOWN + i].sum() for i in (0, 1, 3, 4, 5)] == [0] * 5
    meta = b[B.META]
    assert meta[B.M_CUR] == 3 and meta[B.M_WINNER] == -1
    assert meta[B.M_TURN] == 17 and meta[B.M_ROUND] == 3
    assert (meta[B.M_LO], meta[B.M_HI]) == (2, 5)  # value indexes of the 3s and the 6s
    assert meta[B.M_N] == 4
    assert meta[B.M_PASSED] == 0b0100
    assert meta[B.M_LIMIT] == s.turn_limit
    assert meta[B.M_FIRST] == -1  # past turn 0: not known from the board
    assert meta[B.M_RULES] == 0
    assert b[B.DECK_ROW].tolist() == list(Rules.of(None).deck)


def test_every_seat_s_hand_and_the_undealt_cards_are_on_the_full_board():
    s = _known_position()
    b = B.board_from_state(s)
    for p in range(4):
        assert b[B.HANDS + p].tolist() == list(s.hand(p))
    assert b[B.HANDS + 4].sum() == 0 and b[B.HANDS + 5].sum() == 0
    assert b[B.UNDEALT].tolist() == list(s.undealt)


def test_an_empty_table_has_no_ends_and_one_stack_is_both():
    empty = B.board_from_state(position([counts(v1=1), counts(v2=1), counts(v3=1)]))
    assert (empty[B.META, B.M_LO], empty[B.META, B.M_HI]) == (-1, -1)
    one = B.board_from_state(position([counts(v4=1)] * 3, table=counts(v13=2)))
    assert (one[B.META, B.M_LO], one[B.META, B.M_HI]) == (12, 12)
    lowest = B.board_from_state(position([counts(v2=1)] * 3, table=counts(v1=1, v13=1)))
    assert (lowest[B.META, B.M_LO], lowest[B.META, B.M_HI]) == (0, 12)


def test_the_first_player_is_on_the_board_at_turn_0_only():
    s = new_game(4, seed=3, first_player=2)
    assert B.board_from_state(s)[B.META, B.M_FIRST] == 2
    later = s.apply(s.legal_actions()[0])
    assert B.board_from_state(later)[B.META, B.M_FIRST] == -1


def test_a_won_game_names_its_winner():
    s = position([counts(v4=1), counts(v9=2), counts(v10=1)], table=counts(v5=1))
    won = s.apply(Action.play(4, 1))
    b = B.board_from_state(won)
    assert won.winner == 0 and b[B.META, B.M_WINNER] == 0
    assert B.state_from_board(b) == won and B.state_from_board(b).winner == 0


def test_meta_s_columns_are_distinct_and_inside_its_row():
    columns = [B.M_CUR, B.M_WINNER, B.M_TURN, B.M_ROUND, B.M_LO, B.M_HI, B.M_N, B.M_PASSED,
               B.M_LIMIT, B.M_FIRST, B.M_RULES]  # fmt: skip
    assert sorted(columns) == list(range(len(columns))) and len(columns) <= N_VALUES


def test_the_rules_flags_read_as_the_kernels_read_them():
    today, loose = Rules.of(None).flags, Rules.of("min_count=off").flags
    assert today & B.NO_MIN == 0 and loose & B.NO_MIN == B.NO_MIN == 1
    assert today >> 1 == 0
    assert Rules.of("take=ends").flags >> 1 == B.TAKE_ENDS == 1
    assert Rules.of("take=nothing").flags >> 1 == B.TAKE_NOTHING == 2
    assert Rules.of("min_count=off,take=nothing").flags == B.NO_MIN | B.TAKE_NOTHING << 1


@pytest.mark.parametrize(
    ("rules", "flags"), [("take=ends", 2), ("min_count=off", 1), ("take=nothing", 4),
                         ("min_count=off,take=ends", 3), ("turn_limit=77", 0)],
)  # fmt: skip
def test_the_rules_travel_on_the_board(rules, flags):
    r = Rules.of(rules)
    b = B.board_from_state(new_game(4, seed=1, rules=r))
    assert b[B.META, B.M_RULES] == flags == r.flags
    assert b[B.META, B.M_LIMIT] == r.turn_limit
    assert b[B.DECK_ROW].tolist() == list(r.deck)


def test_a_smaller_deck_travels_on_the_board():
    r = Rules.of("deck=1/2/3/4/5/6/7/6/5/4/3/2/1")
    b = B.board_from_state(new_game(3, seed=1, rules=r))
    assert b[B.DECK_ROW].tolist() == list(r.deck) == [1, 2, 3, 4, 5, 6, 7, 6, 5, 4, 3, 2, 1]


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_a_public_board_holds_only_what_its_seat_may_see(n):
    s = new_game(n, seed=40 + n)
    for _ in range(9):  # some plays and passes, so the table and known rows fill
        s = s.apply(s.legal_actions()[-1 if s.turn % 3 else 0])
    full = B.board_from_state(s)
    for seat in range(n):
        pub, sizes = B.public_board(s.view(seat))
        assert pub.dtype == np.int32 and sizes.dtype == np.int64 and sizes.shape == (B.SEAT_SLOTS,)
        for p in range(B.MAX_SEATS):
            want = list(s.hand(seat)) if p == seat else [0] * N_VALUES
            assert pub[B.HANDS + p].tolist() == want
        assert pub[B.UNDEALT].sum() == 0
        assert sizes.tolist() == [len_ for len_ in map(sum, s.hands)] + [0] * (8 - n)
        rows = [B.TABLE, B.REMOVED, *range(B.KNOWN, B.KNOWN + B.MAX_SEATS), B.DECK_ROW]
        assert (pub[rows] == full[rows]).all()
        same = [c for c in range(pub.shape[1]) if c != B.M_FIRST]
        assert (pub[B.META, same] == full[B.META, same]).all()
        assert pub[B.META, B.M_FIRST] == -1  # never on a public board


def test_a_public_board_keeps_a_passed_seat_and_a_variant():
    s = _known_position()
    pub, sizes = B.public_board(s.view(1))
    assert pub[B.META, B.M_PASSED] == 0b0100 and pub[B.KNOWN + 2].tolist() == counts(v5=1)
    assert sizes.tolist()[:4] == [3, 3, 2, 3]
    v = new_game(4, seed=5, rules=TAKE_ENDS).view(0)
    assert B.public_board(v)[0][B.META, B.M_RULES] == TAKE_ENDS.flags


@pytest.mark.parametrize("rules", [None, "take=ends", "min_count=off,turn_limit=60"])
def test_a_board_gives_back_its_state(rules):
    r = Rules.of(rules)
    s = new_game(5, seed=9, rules=r)
    for _ in range(15):
        assert B.state_from_board(B.board_from_state(s), None if rules is None else r) == s
        if s.is_terminal:
            break
        s = s.apply(s.legal_actions()[s.turn % len(s.legal_actions())])


def test_a_board_s_own_turn_limit_is_kept_under_today_s_rules():
    s = new_game(4, seed=2, rules="turn_limit=42")
    back = B.state_from_board(B.board_from_state(s))
    assert back.turn_limit == 42 and back.rules.flags == 0


def test_set_public_refuses_more_seats_than_a_board_holds():
    board = np.zeros((B.BOARD_ROWS, N_VALUES), np.int32)
    kw = dict(table=[0] * 13, removed=[0] * 13, known=[], current=0, winner=None, turn=0,
              round_=1, passed=[])  # fmt: skip
    with pytest.raises(ValueError, match=r"a board holds at most 6 seats, the game has 7"):
        B.set_public(board, n_players=7, **kw)
    assert B.set_public(board, n_players=6, **kw)[B.META, B.M_N] == 6


@pytest.mark.parametrize("shape", [(B.BOARD_ROWS - 1, N_VALUES), (B.BOARD_ROWS, N_VALUES + 1)])
def test_a_board_of_another_shape_is_refused(shape):
    with pytest.raises(ValueError, match=r"a board has shape \(17, 13\), got"):
        B.state_from_board(np.zeros(shape, np.int32))


@pytest.mark.parametrize(("n", "ok"), [(1, False), (2, True), (6, True), (7, False)])
def test_a_board_holds_2_to_6_players(n, ok):
    b = B.board_from_state(new_game(4, seed=1))
    b[B.META, B.M_N] = n
    if ok:  # past the seat count: another error (the cards no longer add up), not this one
        with pytest.raises(ValueError) as err:
            B.state_from_board(b)
        assert "players; a board holds" not in str(err.value)
    else:
        with pytest.raises(ValueError, match=rf"board says {n} players; a board holds 2\.\.6"):
            B.state_from_board(b)


def test_a_board_under_other_rules_needs_them():
    b = B.board_from_state(new_game(4, seed=1, rules=TAKE_ENDS))
    with pytest.raises(ValueError, match=r"deck or play rules are not today's rules: pass"):
        B.state_from_board(b)
    assert B.state_from_board(b, TAKE_ENDS).rules == TAKE_ENDS
    plain = B.board_from_state(new_game(4, seed=1))
    with pytest.raises(ValueError, match=r"are not the rules take=ends: pass its rules"):
        B.state_from_board(plain, TAKE_ENDS)
    small = Rules.of("deck=1/2/3/4/5/6/7/6/5/4/3/2/1")
    b = B.board_from_state(new_game(3, seed=1, rules=small))
    with pytest.raises(ValueError, match=r"not today's rules"):
        B.state_from_board(b)
