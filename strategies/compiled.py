"""The compiled decision layer of the built-in strategies and the compiled game loops.

Every built-in strategy is ONE numba policy function over the board array (``leaves.board``
layout) and a float64 parameter vector. A policy reads only what its seat may know: its own
hand row, the public rows (table, removed, known) and META, plus ``sizes`` (every seat's public
hand size, kept outside the board because META has no room for six of them). It never reads
another hand or the undealt row. ``decide`` dispatches on an integer policy kind, so one njit
loop can play whole batches of games between any built-ins, and the Python ``choose`` of each
built-in builds a board from its ``PlayerView`` (other hands and undealt zero) and calls the
same policy, so both paths decide alike.

Expert matches: game ``i`` (0-based) of a match is dealt from ``match_game_deal_seed(match_seed,
i)`` (splitmix64 of ``match_seed + (i + 1) * 0x9E3779B97F4A7C15``, the same as
``strategies.play.match_deal_seeds``) and played from ``match_game_play_seed(play_seed, i)``
(``play.match_play_seeds``), so ``play_matches_compiled`` and ``play.play_match_batch`` play the
same games, and any game of a match replays alone through ``play_batch`` with those two seeds.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from leaves import kernels as K
from leaves.board import (
    BOARD_ROWS,
    HANDS,
    KNOWN,
    M_CUR,
    M_FIRST,
    M_HI,
    M_LIMIT,
    M_LO,
    M_N,
    M_NPASSED,
    M_PASSED,
    M_ROUND,
    M_TURN,
    M_WINNER,
    META,
    REMOVED,
    TABLE,
)
from leaves.rules import DECK, MAX_COPIES, TAKE_BASE, hand_size_for

# ----------------------------------------------------------------------------- policy kinds
RANDOM = 0
LOW = 1
HIGH = 2
MINIMAL = 3
GREEDY = 4
PATIENT = 5
BLOCKER = 6
COUNTER = 7
TAKER = 8
WEIGHTED = 9
N_KINDS = 10

N_PARAMS = 12
"""Length of every policy's float64 parameter vector (unused entries are zero)."""

WORK_SIZE = 160
"""Length of the int64 scratch buffer ``work`` policies share (0..116 free for a legal list)."""

_AV = 128  # work[_AV : _AV + 13]: per-value count an opponent in the round might hold

_DECK = np.array(DECK, dtype=np.int64)
_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_PLAY_SALT = np.uint64(0x6A09E667F3BCC908)  # as strategies.play._PLAY_SALT
_NONE = 99  # "cannot play this value" sentinel for the minimum count


# ----------------------------------------------------------------------------- deal seeds
@njit(cache=True)
def _mix64(z: np.uint64) -> np.uint64:
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return z ^ (z >> np.uint64(31))


@njit(cache=True)
def match_game_deal_seed(match_seed: np.uint64, game_index: int) -> np.uint64:
    """Deal seed of game ``game_index`` (0-based) of the match with seed ``match_seed``."""
    z = np.uint64(match_seed) + np.uint64(game_index + 1) * _GAMMA
    return _mix64(z)


@njit(cache=True)
def match_game_play_seed(play_seed: np.uint64, game_index: int) -> np.uint64:
    """Play seed of game ``game_index`` of a match: ``play.match_play_seeds`` (a salted stream)."""
    return match_game_deal_seed(np.uint64(play_seed) ^ _PLAY_SALT, game_index)


def match_game_deal_seed_py(match_seed: int, game_index: int) -> int:
    """``match_game_deal_seed`` in plain Python ints (same value, no numba typing needed)."""
    mask = (1 << 64) - 1
    z = (int(match_seed) + (game_index + 1) * 0x9E3779B97F4A7C15) & mask
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
    return z ^ (z >> 31)


# ----------------------------------------------------------------------------- shared helpers
@njit(cache=True, inline="always")
def _kmin(board, v, lo, hi):
    """Fewest cards of value index ``v`` a play needs now, or ``_NONE`` (between the ends)."""
    if lo < 0:
        return 1
    if v <= lo:
        return board[TABLE, lo]
    if v >= hi:
        return board[TABLE, hi]
    return _NONE


@njit(cache=True, inline="always")
def _play_id(v, k):
    return v * MAX_COPIES + k - 1


@njit(cache=True, inline="always")
def _new_ends(board, lo, hi, v, k):
    """(left value, left size, right value, right size) of the ends after playing ``k`` cards
    of ``v`` (assumed legal)."""
    if lo < 0:
        return v, k, v, k
    if v <= lo:
        a = k + (board[TABLE, v] if v == lo else 0)
        if lo == hi and v == lo:
            return v, a, v, a
        return v, a, hi, board[TABLE, hi]
    b = k + (board[TABLE, v] if v == hi else 0)
    if lo == hi and v == hi:
        return v, b, v, b
    return lo, board[TABLE, lo], v, b


@njit(cache=True, inline="always")
def _ease_after_take(board, lo, hi, t):
    """The smaller end size after taking one card of ``t``; 0 when the table becomes empty."""
    c = board[TABLE, t]
    if c > 1 or (t != lo and t != hi):
        a = board[TABLE, lo] - (1 if t == lo else 0)
        b = board[TABLE, hi] - (1 if t == hi else 0)
        return min(a, b)
    if lo == hi:
        return 0
    if t == lo:
        nl = lo + 1
        while board[TABLE, nl] == 0:
            nl += 1
        return min(board[TABLE, nl], board[TABLE, hi])
    nh = hi - 1
    while board[TABLE, nh] == 0:
        nh -= 1
    return min(board[TABLE, lo], board[TABLE, nh])


@njit(cache=True, inline="always")
def _min_opp_size(board, seat, sizes):
    """Smallest hand among opponents still in the round (99 if none)."""
    n = board[META, M_N]
    mask = board[META, M_PASSED]
    m = 99
    for i in range(n):
        if i != seat and not (mask >> i) & 1 and sizes[i] < m:
            m = sizes[i]
    return m


@njit(cache=True, inline="always")
def _fill_avail(board, seat, work):
    """work[_AV + u]: cards of value ``u`` an opponent in the round might hold.

    Unseen cards (the owner cannot place them: ``PlayerView.unseen``) plus the most any
    opponent still in the round is publicly known to hold.
    """
    n = board[META, M_N]
    mask = board[META, M_PASSED]
    for u in range(13):
        x = _DECK[u] - board[HANDS + seat, u] - board[TABLE, u] - board[REMOVED, u]
        best = 0
        for i in range(n):
            if i != seat:
                kn = board[KNOWN + i, u]
                x -= kn
                if not (mask >> i) & 1 and kn > best:
                    best = kn
        work[_AV + u] = x + best


@njit(cache=True, inline="always")
def _threat(work, lo_v, a, hi_v, b):
    """How many values could answer ends (lo_v, size a) and (hi_v, size b), by ``avail``."""
    t = 0
    if lo_v == hi_v:
        need = min(a, b)
        for u in range(13):
            if work[_AV + u] >= need:
                t += 1
        return t
    for u in range(lo_v + 1):
        if work[_AV + u] >= a:
            t += 1
    for u in range(hi_v, 13):
        if work[_AV + u] >= b:
            t += 1
    return t


@njit(cache=True, inline="always")
def _winning_play(board, seat, sizes, lo, hi):
    """A play that empties the hand (always best: it wins at once), or -1."""
    h = sizes[seat]
    if h > MAX_COPIES:
        return -1
    for v in range(13):
        c = board[HANDS + seat, v]
        if c == h:
            if c >= _kmin(board, v, lo, hi):
                return _play_id(v, c)
            return -1
        if c > 0:
            return -1
    return -1


@njit(cache=True, inline="always")
def _take_group(board, seat, lo, hi):
    """The default take: the value held most (builds groups), ties to the lowest value."""
    best = -1
    bs = -1
    for t in range(lo, hi + 1):
        if board[TABLE, t] > 0:
            s = board[HANDS + seat, t]
            if s > bs:
                bs = s
                best = t
    return TAKE_BASE + best


# ----------------------------------------------------------------------------- policies
@njit(cache=True)
def policy_random(board, rng):
    """Uniform over the legal ids: ``legal[rng_below(rng, n_legal)]`` (``kernels``' draw)."""
    return K.random_action(board, rng)


@njit(cache=True)
def policy_low(board, seat):
    """Whole group of the lowest playable value; else take the value held most."""
    lo = board[META, M_LO]
    hi = board[META, M_HI]
    for v in range(13):
        c = board[HANDS + seat, v]
        if c > 0 and c >= _kmin(board, v, lo, hi):
            return _play_id(v, c)
    return _take_group(board, seat, lo, hi)


@njit(cache=True)
def policy_high(board, seat):
    """Whole group of the highest playable value; else take the value held most."""
    lo = board[META, M_LO]
    hi = board[META, M_HI]
    for v in range(12, -1, -1):
        c = board[HANDS + seat, v]
        if c > 0 and c >= _kmin(board, v, lo, hi):
            return _play_id(v, c)
    return _take_group(board, seat, lo, hi)


@njit(cache=True)
def policy_minimal(board, seat, sizes):
    """Fewest cards allowed; ties: no split, then lowest value. Wins when it can."""
    lo = board[META, M_LO]
    hi = board[META, M_HI]
    w = _winning_play(board, seat, sizes, lo, hi)
    if w >= 0:
        return w
    best = -1
    bk = 99
    bl = 99
    for v in range(13):
        c = board[HANDS + seat, v]
        k = _kmin(board, v, lo, hi)
        if c > 0 and c >= k:
            left = c - k
            if k < bk or (k == bk and left < bl):
                bk = k
                bl = left
                best = _play_id(v, k)
    if best >= 0:
        return best
    return _take_group(board, seat, lo, hi)


@njit(cache=True)
def policy_greedy(board, seat, sizes, params):
    """Biggest whole group; ties to the value farther from 7 (then the lower).

    params: [keep_pairs]: when > 0.5, a group of exactly two is played only if nothing else
    can be (or it empties the hand), keeping pairs to answer two-card ends later.
    """
    lo = board[META, M_LO]
    hi = board[META, M_HI]
    keep_pairs = params[0] > 0.5
    best = -1
    bc = 0
    bx = -1
    pair = -1
    for v in range(13):
        c = board[HANDS + seat, v]
        if c > 0 and c >= _kmin(board, v, lo, hi):
            if c == sizes[seat]:
                return _play_id(v, c)  # empties the hand: wins
            if keep_pairs and c == 2:
                if pair < 0:
                    pair = _play_id(v, c)
                continue
            x = abs(v - 6)
            if c > bc or (c == bc and x > bx):
                bc = c
                bx = x
                best = _play_id(v, c)
    if best >= 0:
        return best
    if pair >= 0:
        return pair
    return _take_group(board, seat, lo, hi)


@njit(cache=True)
def policy_blocker(board, seat):
    """Whole group of the most extreme playable value (1s and 13s first); ties to the bigger."""
    lo = board[META, M_LO]
    hi = board[META, M_HI]
    best = -1
    bc = 0
    bx = -1
    for v in range(13):
        c = board[HANDS + seat, v]
        if c > 0 and c >= _kmin(board, v, lo, hi):
            x = abs(v - 6)
            if x > bx or (x == bx and c > bc):
                bc = c
                bx = x
                best = _play_id(v, c)
    if best >= 0:
        return best
    return _take_group(board, seat, lo, hi)


@njit(cache=True)
def policy_patient(board, seat, sizes, params):
    """Sheds whole groups, biggest first; rather than shed a lone card it passes to grow a pair.

    params[0]: smallest own hand size at which it still passes voluntarily.
    """
    lo = board[META, M_LO]
    hi = board[META, M_HI]
    best = -1
    bc = 0
    for v in range(13):
        c = board[HANDS + seat, v]
        if c > bc and c >= _kmin(board, v, lo, hi):
            bc = c
            best = _play_id(v, c)
    if lo < 0 or bc >= 2 or (best >= 0 and sizes[seat] < params[0]):
        return best
    t = _take_group(board, seat, lo, hi)
    if best >= 0 and board[HANDS + seat, t - TAKE_BASE] == 0:
        return best
    return t


@njit(cache=True)
def policy_counter(board, seat, sizes, params, work):
    """Card counter: plays ends the unseen cards are unlikely to answer.

    Score of play (v, k): params[4] * k - params[0] * threat - params[1] * (cards of v kept)
    + params[2] if nobody can answer - params[3] if an opponent in the round could go out.
    """
    lo = board[META, M_LO]
    hi = board[META, M_HI]
    w = _winning_play(board, seat, sizes, lo, hi)
    if w >= 0:
        return w
    _fill_avail(board, seat, work)
    mopp = _min_opp_size(board, seat, sizes)
    best = -1
    bs = -1e18
    for v in range(13):
        c = board[HANDS + seat, v]
        kmin = _kmin(board, v, lo, hi)
        if c == 0 or c < kmin:
            continue
        for k in range(kmin, c + 1):
            nlo, a, nhi, b = _new_ends(board, lo, hi, v, k)
            th = _threat(work, nlo, a, nhi, b)
            s = params[4] * k - params[0] * th - params[1] * (c - k)
            if th == 0:
                s += params[2]
            if min(a, b) <= mopp:
                s -= params[3]
            if s > bs:
                bs = s
                best = _play_id(v, k)
    if best >= 0:
        return best
    return _take_group(board, seat, lo, hi)


@njit(cache=True, inline="always")
def _take_smart(board, seat, lo, hi, wg, wh, we):
    """Take by value to the own hand (group size, extremes) and harm to opponents in the round.

    Harm = change of the smaller end size (a bigger end is harder to answer); emptying the
    table hands the next player a free lead and counts as the end size dropping to 0.
    """
    ease = min(board[TABLE, lo], board[TABLE, hi])
    best = -1
    bs = -1e18
    for t in range(lo, hi + 1):
        if board[TABLE, t] == 0:
            continue
        g = board[HANDS + seat, t]
        harm = _ease_after_take(board, lo, hi, t) - ease
        s = wg * g + wh * harm + we * abs(t - 6)
        if s > bs:
            bs = s
            best = t
    return TAKE_BASE + best


@njit(cache=True)
def policy_taker(board, seat, sizes, params):
    """Plays its smallest whole group (ties to the value nearest 7); takes smartly.

    params: [w_group, w_harm, w_extreme] of the take score.
    """
    lo = board[META, M_LO]
    hi = board[META, M_HI]
    best = -1
    bs = -1e18
    for v in range(13):
        c = board[HANDS + seat, v]
        k = _kmin(board, v, lo, hi)
        if c > 0 and c >= k:
            s = -2.0 * c - 0.1 * abs(v - 6)
            if c == sizes[seat]:
                s = 1e9  # empties the hand: wins
            if s > bs:
                bs = s
                best = _play_id(v, c)
    if best >= 0:
        return best
    return _take_smart(board, seat, lo, hi, params[0], params[1], params[2])


@njit(cache=True)
def policy_weighted(board, seat, sizes, params, work):
    """Linear score of a feature vector per legal action; the best score wins (ties: lowest id).

    Play (v, k) features: [k, cards of v kept, new end size, |v - 7|, threat, near-winner]
    weighted by params[0:6]; take t features: [1, held t, harm, |t - 7|] by params[6:10].
    A play that empties the hand is always chosen.
    """
    lo = board[META, M_LO]
    hi = board[META, M_HI]
    w = _winning_play(board, seat, sizes, lo, hi)
    if w >= 0:
        return w
    count = params[4] != 0.0
    if count:
        _fill_avail(board, seat, work)
    mopp = _min_opp_size(board, seat, sizes)
    best = -1
    bs = -1e18
    for v in range(13):
        c = board[HANDS + seat, v]
        kmin = _kmin(board, v, lo, hi)
        if c == 0 or c < kmin:
            continue
        for k in range(kmin, c + 1):
            nlo, a, nhi, b = _new_ends(board, lo, hi, v, k)
            th = _threat(work, nlo, a, nhi, b) if count else 0
            end = a if v == nlo else b
            near = 1.0 if min(a, b) <= mopp else 0.0
            s = (
                params[0] * k
                + params[1] * (c - k)
                + params[2] * end
                + params[3] * abs(v - 6)
                + params[4] * th
                + params[5] * near
            )
            if s > bs:
                bs = s
                best = _play_id(v, k)
    if lo < 0:
        return best
    ease = min(board[TABLE, lo], board[TABLE, hi])
    for t in range(lo, hi + 1):
        if board[TABLE, t] == 0:
            continue
        harm = _ease_after_take(board, lo, hi, t) - ease
        s = params[6] + params[7] * board[HANDS + seat, t] + params[8] * harm
        s += params[9] * abs(t - 6)
        if s > bs:  # plays have lower ids than takes, so ties keep the play
            bs = s
            best = TAKE_BASE + t
    return best


# ----------------------------------------------------------------------------- dispatcher
@njit(cache=True)
def decide(kind, params, board, seat, sizes, rng, work):
    """Action id chosen by policy ``kind`` for ``seat`` (the seat to act) on ``board``.

    ``params`` float64[N_PARAMS]; ``sizes`` int64[>= n] public hand sizes; ``rng`` a kernel
    RNG (only stochastic policies draw from it); ``work`` int64[WORK_SIZE] scratch.
    """
    if kind == RANDOM:
        return policy_random(board, rng)
    elif kind == LOW:
        return policy_low(board, seat)
    elif kind == HIGH:
        return policy_high(board, seat)
    elif kind == MINIMAL:
        return policy_minimal(board, seat, sizes)
    elif kind == GREEDY:
        return policy_greedy(board, seat, sizes, params)
    elif kind == PATIENT:
        return policy_patient(board, seat, sizes, params)
    elif kind == BLOCKER:
        return policy_blocker(board, seat)
    elif kind == COUNTER:
        return policy_counter(board, seat, sizes, params, work)
    elif kind == TAKER:
        return policy_taker(board, seat, sizes, params)
    elif kind == WEIGHTED:
        return policy_weighted(board, seat, sizes, params, work)
    return -1


# ----------------------------------------------------------------------------- game loops
@njit(cache=True)
def _play_game(board, kinds, params, sizes, rng, work, rec, record):
    """Play the dealt game on ``board`` to the end; returns the number of turns recorded."""
    n = board[META, M_N]
    for i in range(n):
        s = 0
        for v in range(13):
            s += board[HANDS + i, v]
        sizes[i] = s
    t = 0
    while not K.is_terminal(board):
        p = board[META, M_CUR]
        aid = decide(kinds[p], params[p], board, p, sizes, rng, work)
        K.apply(board, aid)
        if aid >= TAKE_BASE:
            sizes[p] += 1
        else:
            sizes[p] -= aid % MAX_COPIES + 1
        if record:
            rec[t] = aid
        t += 1
    return t


@njit(cache=True)
def _batch(kinds, params, deal_seeds, play_seeds, turn_limit, record, hand_size):
    n = kinds.shape[0]
    g_count = deal_seeds.shape[0]
    first = np.empty(g_count, np.int8)
    left = np.empty((g_count, n), np.int16)
    winner = np.empty(g_count, np.int8)
    turns = np.empty(g_count, np.int32)
    rounds = np.empty(g_count, np.int32)
    unfinished = np.empty(g_count, np.bool_)
    actions = np.zeros((g_count if record else 0, turn_limit), np.int8)
    dummy = np.zeros(0, np.int8)
    board = K.board_new()
    sizes = np.zeros(8, np.int64)
    work = np.zeros(WORK_SIZE, np.int64)
    for g in range(g_count):
        board[:, :] = 0
        K.board_deal(board, n, hand_size, K.rng_new(deal_seeds[g]), -1, turn_limit)
        first[g] = board[META, M_FIRST]
        rng = K.rng_new(play_seeds[g])
        if record:
            _play_game(board, kinds, params, sizes, rng, work, actions[g], True)
        else:
            _play_game(board, kinds, params, sizes, rng, work, dummy, False)
        for i in range(n):
            left[g, i] = sizes[i]
        winner[g] = board[META, M_WINNER]
        turns[g] = board[META, M_TURN]
        rounds[g] = board[META, M_ROUND]
        unfinished[g] = board[META, M_WINNER] < 0
    return first, left, winner, turns, rounds, unfinished, actions


def _check_table(kinds: np.ndarray, params: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    kinds = np.ascontiguousarray(kinds, dtype=np.int64)
    params = np.ascontiguousarray(params, dtype=np.float64)
    if kinds.ndim != 1:
        raise ValueError("kinds must be a 1-D array with one policy kind per seat")
    hand_size_for(len(kinds))  # raises for a player count outside 3..6
    if params.shape != (len(kinds), N_PARAMS):
        raise ValueError(f"params must have shape ({len(kinds)}, {N_PARAMS}), got {params.shape}")
    if kinds.min() < 0 or kinds.max() >= N_KINDS:
        raise ValueError(f"policy kinds must be 0..{N_KINDS - 1}, got {kinds.tolist()}")
    return kinds, params


def _seeds(x: np.ndarray, name: str) -> np.ndarray:
    a = np.asarray(x)
    if a.ndim != 1:
        raise ValueError(f"{name} must be a 1-D array of seeds")
    return np.ascontiguousarray(a.astype(np.uint64))


def play_batch_compiled(
    kinds: np.ndarray,
    params: np.ndarray,
    deal_seeds: np.ndarray,
    play_seeds: np.ndarray,
    turn_limit: int,
) -> tuple[np.ndarray, ...]:
    """Play one game per seed pair, seat ``i`` run by policy ``kinds[i]`` with ``params[i]``.

    Returns (first_player int8 (G,), cards_left int16 (G, n), winner_seat int8 (G,),
    turns int32 (G,), rounds int32 (G,), unfinished bool (G,)).
    """
    kinds, params = _check_table(kinds, params)
    d, p = _seeds(deal_seeds, "deal_seeds"), _seeds(play_seeds, "play_seeds")
    if d.shape != p.shape:
        raise ValueError("deal_seeds and play_seeds must have the same length")
    out = _batch(kinds, params, d, p, int(turn_limit), False, hand_size_for(len(kinds)))
    return out[:6]


def play_batch_compiled_records(
    kinds: np.ndarray,
    params: np.ndarray,
    deal_seeds: np.ndarray,
    play_seeds: np.ndarray,
    turn_limit: int,
) -> tuple[np.ndarray, ...]:
    """``play_batch_compiled`` plus the action ids: int8 (G, turn_limit), row g valid to turns[g]."""
    kinds, params = _check_table(kinds, params)
    d, p = _seeds(deal_seeds, "deal_seeds"), _seeds(play_seeds, "play_seeds")
    if d.shape != p.shape:
        raise ValueError("deal_seeds and play_seeds must have the same length")
    return _batch(kinds, params, d, p, int(turn_limit), True, hand_size_for(len(kinds)))


MAX_MATCH_GAMES = 64
"""Capacity of games per match in the compiled match loop (a match to 20 needs at most ~30)."""


@njit(cache=True)
def _matches(kinds, params, match_seeds, play_seeds, target, turn_limit, hand_size):
    n = kinds.shape[0]
    m_count = match_seeds.shape[0]
    cap = m_count * MAX_MATCH_GAMES
    games = np.zeros(m_count, np.int16)
    totals = np.zeros((m_count, n), np.int16)
    winners = np.zeros((m_count, n), np.bool_)
    game_match = np.empty(cap, np.int32)
    deal_seed = np.empty(cap, np.uint64)
    play_seed = np.empty(cap, np.uint64)
    first = np.empty(cap, np.int8)
    left = np.empty((cap, n), np.int16)
    winner = np.empty(cap, np.int8)
    turns = np.empty(cap, np.int32)
    rounds = np.empty(cap, np.int32)
    unfinished = np.empty(cap, np.bool_)
    board = K.board_new()
    sizes = np.zeros(8, np.int64)
    work = np.zeros(WORK_SIZE, np.int64)
    dummy = np.zeros(0, np.int8)
    g = 0
    for m in range(m_count):
        gi = 0
        while True:
            ds = match_game_deal_seed(match_seeds[m], gi)
            ps = match_game_play_seed(play_seeds[m], gi)
            rng = K.rng_new(ps)
            board[:, :] = 0
            K.board_deal(board, n, hand_size, K.rng_new(ds), -1, turn_limit)
            first[g] = board[META, M_FIRST]
            _play_game(board, kinds, params, sizes, rng, work, dummy, False)
            w = board[META, M_WINNER]
            top = 0
            for i in range(n):
                left[g, i] = sizes[i]
                if i != w:
                    totals[m, i] += sizes[i]
                if totals[m, i] > top:
                    top = totals[m, i]
            game_match[g] = m
            deal_seed[g] = ds
            play_seed[g] = ps
            winner[g] = w
            turns[g] = board[META, M_TURN]
            rounds[g] = board[META, M_ROUND]
            unfinished[g] = w < 0
            g += 1
            gi += 1
            if top >= target or gi >= MAX_MATCH_GAMES:
                break
        games[m] = gi
        low = totals[m, 0]
        for i in range(n):
            low = min(low, totals[m, i])
        for i in range(n):
            winners[m, i] = totals[m, i] == low
    return (
        games,
        totals,
        winners,
        game_match[:g].copy(),
        deal_seed[:g].copy(),
        play_seed[:g].copy(),
        first[:g].copy(),
        left[:g].copy(),
        winner[:g].copy(),
        turns[:g].copy(),
        rounds[:g].copy(),
        unfinished[:g].copy(),
    )


def play_matches_compiled(
    kinds: np.ndarray,
    params: np.ndarray,
    match_seeds: np.ndarray,
    play_seeds: np.ndarray,
    target: int,
    turn_limit: int,
) -> tuple[np.ndarray, ...]:
    """Play expert matches (RULES.md "Expert variant") in one compiled loop.

    Game ``i`` of match ``m`` is dealt from ``match_game_deal_seed(match_seeds[m], i)`` and
    played from ``match_game_play_seed(play_seeds[m], i)`` (as ``play.play_match_batch``). A match ends after the game
    in which some total reaches ``target`` (or after ``MAX_MATCH_GAMES`` games); the lowest
    totals share the win (X1); an unfinished game scores every seat its cards left.
    Returns (games int16 (M,), totals int16 (M, n), match_winners bool (M, n),
    game_match int32 (Gt,), deal_seeds uint64 (Gt,), play_seeds uint64 (Gt,), first_player int8 (Gt,),
    cards_left int16 (Gt, n), winner_seat int8 (Gt,), turns int32 (Gt,), rounds int32 (Gt,),
    unfinished bool (Gt,)).
    """
    kinds, params = _check_table(kinds, params)
    ms, ps = _seeds(match_seeds, "match_seeds"), _seeds(play_seeds, "play_seeds")
    if ms.shape != ps.shape:
        raise ValueError("match_seeds and play_seeds must have the same length")
    if target < 1:
        raise ValueError(f"target must be >= 1, got {target}")
    return _matches(kinds, params, ms, ps, int(target), int(turn_limit), hand_size_for(len(kinds)))


# ----------------------------------------------------------------------------- Python side
def board_from_view(view) -> tuple[np.ndarray, np.ndarray]:
    """(board, sizes) holding exactly what ``view``'s owner may see.

    The owner's hand fills its row; other hands and the undealt row stay zero; table, removed,
    known, META (turn, round, ends, passed mask, player count, turn limit) are public.
    """
    board = np.zeros((BOARD_ROWS, 13), dtype=np.int32)
    p = view.player
    n = view.n_players
    board[HANDS + p] = view.hand
    board[TABLE] = view.table
    board[REMOVED] = view.removed
    for i, kn in enumerate(view.known):
        board[KNOWN + i] = kn
    meta = board[META]
    meta[M_CUR] = view.current_player
    meta[M_WINNER] = -1 if view.winner is None else view.winner
    meta[M_TURN] = view.turn
    meta[M_ROUND] = view.round
    ends = view.ends
    meta[M_LO] = -1 if ends is None else ends[0][0] - 1
    meta[M_HI] = -1 if ends is None else ends[1][0] - 1
    meta[M_N] = n
    passed = view.passed
    meta[M_PASSED] = sum(1 << i for i in range(n) if passed[i])
    meta[M_NPASSED] = sum(passed)
    meta[M_LIMIT] = view.turn_limit
    meta[M_FIRST] = -1
    sizes = np.zeros(8, dtype=np.int64)
    sizes[:n] = view.hand_sizes
    return board, sizes


def decide_view(kind: int, params: np.ndarray, view, seed: int) -> int:
    """The action id policy ``kind`` picks for ``view`` (its owner to act), kernel RNG ``seed``."""
    board, sizes = board_from_view(view)
    rng = K.rng_new(np.uint64(seed))
    work = np.zeros(WORK_SIZE, dtype=np.int64)
    return int(
        decide(
            int(kind),
            np.ascontiguousarray(params, dtype=np.float64),
            board,
            int(view.player),
            sizes,
            rng,
            work,
        )
    )
