"""``leaves.fastplay`` (random play on a bitmask table) against ``leaves.kernels``: the
differential test that ``benchmarks/bench_mutation.py`` runs against fastplay's mutants.

``fastplay.random_games`` must play exactly ``kernels.random_games``' games (one stream, the
same deals, the same uniform draw over the legal ids in increasing order): compared game by
game (turns, rounds, winner) for two to six seats, hands from one card to the whole deck,
turn limits from 1. Its draw ``_choose`` is compared position by position with the kernels'
legal list and ``legal[rng_below(n)]`` (the stream's state after it too), over positions of
random ``State`` games and hand-made ones random games rarely reach. Both play today's rules
only (``Setup`` flags 0: the minimum count on, a pass takes from any stack).

The bit intrinsics (``_ctz``, ``_top_bit``, ``_popcount``) are LLVM code; with numba's JIT
disabled (a plain test run, the mutation run: ``NUMBA_DISABLE_JIT=1``) fastplay binds Python
forms instead. Here their own code generators are compiled with llvmlite, checked against
Python's bit arithmetic, and put in place of the Python forms, so the LLVM code is what plays;
compiled, fastplay runs them itself."""

from __future__ import annotations

import ctypes
import random

import numpy as np
import pytest
from llvmlite import binding as llvm
from llvmlite import ir
from numba import types
from numba.core import config

from leaves import State, new_game
from leaves import fastplay as F
from leaves import kernels as K
from leaves.board import board_from_state
from leaves.rules import DECK_SIZE, N_ACTION_IDS, TAKE_BASE, TURN_LIMIT

from .helpers import counts, position

# numpy's uint64 scalars warn on the RNG's wrapping products when the JIT is disabled
pytestmark = pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")

_ENGINES: list = []  # the execution engines must outlive their functions


def native(intrinsic):
    """The intrinsic's code generator compiled alone: a ctypes int64 -> int64 function."""
    signature, codegen = intrinsic._defn(None, types.int64)
    module = ir.Module(name=intrinsic.__name__)
    i64 = ir.IntType(64)
    fn = ir.Function(module, ir.FunctionType(i64, [i64]), name="f")
    builder = ir.IRBuilder(fn.append_basic_block())
    builder.ret(codegen(None, builder, signature, list(fn.args)))
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    parsed = llvm.parse_assembly(str(module))
    parsed.verify()
    machine = llvm.Target.from_default_triple().create_target_machine()
    engine = llvm.create_mcjit_compiler(parsed, machine)
    engine.finalize_object()
    _ENGINES.append(engine)
    cfunc = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64)(engine.get_function_address("f"))
    return lambda x: int(cfunc(int(x)))


def signed(x: int) -> int:
    return x - (1 << 64) if x >= 1 << 63 else x


NONZERO = [1, 2, 3, 6, 0b1010000, (1 << 13) - 1, 1 << 12, 0b1000000000001, 1 << 62,
           signed(1 << 63), -1, signed(0xF0F0 << 48), 12345678901]  # fmt: skip


@pytest.fixture(scope="module")
def bits():
    return {name: native(fn) for name, fn in F.INTRINSICS.items()}


@pytest.fixture(autouse=True)
def _python_bits(bits, monkeypatch):
    """Without the JIT, the intrinsics' compiled generators stand in for them."""
    if config.DISABLE_JIT:
        for name, fn in bits.items():
            monkeypatch.setattr(F, name, fn)


def test_the_bit_intrinsics(bits):
    for x in NONZERO:
        u = x & ((1 << 64) - 1)
        assert bits["_ctz"](x) == (u & -u).bit_length() - 1, x
        assert bits["_top_bit"](x) == u.bit_length() - 1, x
        assert bits["_popcount"](x) == u.bit_count(), x
    assert bits["_popcount"](0) == 0


def choose(state: State, rng: np.ndarray) -> int:
    """``fastplay._choose`` at ``state`` (its own state: hand, size, table, stack mask)."""
    d = state.to_dict()
    hand = np.array(d["hands"][state.current_player], dtype=np.int64)
    table = np.array(d["table"], dtype=np.int64)
    mask = sum(1 << v for v in range(13) if table[v])
    cnt = np.full(13, 99, dtype=np.int64)  # scratch, junk on entry
    return int(F._choose(hand, np.int64(hand.sum()), table, np.int64(mask), cnt, rng))


def check(state: State, seed: int) -> list[int]:
    """``_choose`` is ``legal[rng_below(n)]`` of the kernels' legal ids, for a few streams."""
    board = board_from_state(state)
    out = np.full(N_ACTION_IDS + 8, -7, dtype=np.int64)
    ids = out[: K.legal_actions(board, out)].tolist()
    assert ids == list(state.legal_action_ids())
    for s in range(seed, seed + 3):
        rng, probe = K.rng_new(np.uint64(s)), K.rng_new(np.uint64(s))
        assert choose(state, probe) == ids[int(K.rng_below(rng, len(ids)))], (state, s)
        assert np.array_equal(probe, rng)
    return ids


def test_the_draw_over_positions_of_random_games():
    pick = random.Random(5)
    for g in range(10):
        n = 2 + g % 5
        state = new_game(n, seed=g, hand_size=(2, 5, 9)[g % 3], first_player=g % n)
        while not state.is_terminal:
            ids = check(state, 40 * g + state.turn)
            takes = [a for a in ids if a >= TAKE_BASE]
            state = state.apply(pick.choice(takes if takes and pick.random() < 0.5 else ids))


def test_the_draw_at_hand_made_boundaries():
    """An empty table (leading from one card to every value); one stack as both ends (the
    values just above it must match its size); ends far apart with nothing between playable
    (plays below the left end and above the right one, at the ends' own sizes); a middle
    stack among many takes (every set bit drawn)."""
    one = check(position([counts(v7=1), counts(v2=1)]), 1)
    assert one == [6 * 8]
    every = [1, 2, 3, 4, 5, 6, 8, 7, 6, 5, 4, 3, 1]  # eight 7s: counts 1..8
    rest = [d - h for d, h in zip([2, 3, 4, 5, 6, 7, 8, 7, 6, 5, 4, 3, 2], every, strict=True)]
    check(position([every, rest]), 2)
    for size in (1, 2, 3):
        hands = [counts(v4=3, v5=3, v6=2, v7=1), counts(v1=1)]
        ids = check(position(hands, table=counts(v5=size)), 10 + size)
        plays = {(a // 8 + 1, a % 8 + 1) for a in ids if a < TAKE_BASE}
        assert plays == {
            (v, k) for v, c in ((4, 3), (5, 3), (6, 2), (7, 1)) for k in range(size, c + 1)
        }
    hands = [counts(v1=2, v2=3, v3=1, v11=2, v12=1, v13=2), counts(v9=1)]
    ids = check(position(hands, table=counts(v3=2, v6=1, v9=2, v11=1)), 20)
    assert [a - TAKE_BASE for a in ids if a >= TAKE_BASE] == [2, 5, 8, 10]
    for r in range(len(ids)):  # every id drawn by some stream
        for s in range(300):
            rng = K.rng_new(np.uint64(s))
            if int(K.rng_below(rng.copy(), len(ids))) == r:
                state = position(hands, table=counts(v3=2, v6=1, v9=2, v11=1))
                assert choose(state, rng) == ids[r]
                break
        else:
            raise AssertionError(r)


def games(n: int, hand: int, count: int, seed: int, limit: int):
    fast = F.random_games(n, hand, count, np.uint64(seed), limit)
    slow = K.random_games(n, hand, count, np.uint64(seed), limit)
    for a, b in zip(fast, slow, strict=True):
        assert a.dtype == np.int64 and a.tolist() == b.tolist(), (n, hand, seed, limit)
    return fast


@pytest.mark.slow
@pytest.mark.parametrize("n", range(2, 7))
def test_random_games_are_the_kernels_games(n):
    """Small hands end quickly (wins on the first turns, round ends after n - 1 passes);
    limits of 1, 2 and 9 stop games early; the whole deck dealt at n = 2."""
    winners, limited = set(), False
    for hand, limit, count in ((1, TURN_LIMIT, 12), (2, TURN_LIMIT, 8), (3, 9, 6), (4, 1, 3),
                               (2, 2, 3), (DECK_SIZE // n, 40, 2)):  # fmt: skip
        turns, rounds, won = games(n, hand, count, 100 * n + hand, limit)
        winners.update(won.tolist())
        limited |= bool((turns == limit).any() and (won < 0).any())
        assert (rounds >= 1).all() and (turns <= limit).all()
    assert 0 in winners and -1 in winners and limited


def test_a_game_of_today_to_the_end():
    turns, rounds, won = games(4, 12, 2, 9, TURN_LIMIT)
    assert (rounds > 1).any() and (won >= 0).all()
