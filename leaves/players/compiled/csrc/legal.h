/* The legal actions of the seat to act: leaves.kernels._legal_into, _takes_into and is_legal,
 * the same ids in the same ascending order (the search draws its untried move by index). */
#ifndef LEAVES_LEGAL_H
#define LEAVES_LEGAL_H

#include "engine.h"
#include "policies.h"

/* The passes after the plays, ascending, from out[n]: a take per stack (take=any), per end
 * stack (take=ends), or the one pass taking nothing (take=nothing); none on an empty table.
 * Returns the new count. */
static inline int64_t takes_into(const board_t *board, int64_t *out, int64_t n) {
    int64_t mode = B(board, META, M_RULES) >> 1;
    if (mode == 0) {
        for (int64_t v = 0; v < N_VALUES; v++) {
            out[n] = TAKE_BASE + v;
            n += B(board, TABLE, v) != 0 ? 1 : 0;
        }
        return n;
    }
    int64_t lo = B(board, META, M_LO);
    if (lo < 0) return n;
    if (mode == TAKE_NOTHING) {
        out[n] = PASS_ID;
        return n + 1;
    }
    int64_t hi = B(board, META, M_HI);
    out[n] = TAKE_BASE + lo;
    out[n + 1] = TAKE_BASE + hi;
    return n + (hi != lo ? 2 : 1);
}

/* Write the legal action ids, ascending, into out (room for N_ACTION_IDS + 8: each value
 * writes all 8 candidate ids and advances by its legal count); returns how many. */
static inline int64_t legal_into(const board_t *board, int64_t *out) {
    if (B(board, META, M_WINNER) >= 0 || B(board, META, M_TURN) >= B(board, META, M_LIMIT))
        return 0;
    int64_t hr = HANDS + B(board, META, M_CUR);
    Sides sd = sides(board);
    int64_t lo = sd.lo, a = sd.a, start = sd.start, b = sd.b;
    int64_t n = 0;
    for (int64_t v = 0; v < N_VALUES; v++) {
        int64_t need = v <= lo ? a : b;
        int64_t c = (int64_t)B(board, hr, v) - need + 1;
        c = ((v <= lo || v >= start) && c > 0) ? c : 0;
        int64_t base = v * 8 + need - 1;
        for (int64_t j = 0; j < 8; j++) out[n + j] = base + j;
        n += c;
    }
    return takes_into(board, out, n);
}

/* Whether action id aid is legal for the seat to act (false for a finished game). */
static inline bool is_legal(const board_t *board, int64_t aid) {
    if (aid < 0 || aid >= N_ACTION_IDS) return false;
    if (B(board, META, M_WINNER) >= 0 || B(board, META, M_TURN) >= B(board, META, M_LIMIT))
        return false;
    int64_t hr = HANDS + B(board, META, M_CUR);
    int64_t lo = B(board, META, M_LO);
    int64_t hi = B(board, META, M_HI);
    int64_t mode = B(board, META, M_RULES) >> 1;
    if (aid == PASS_ID) return lo >= 0 && mode == TAKE_NOTHING;
    if (aid >= TAKE_BASE) {
        int64_t v = aid - TAKE_BASE;
        if (mode == TAKE_ENDS && v != lo && v != hi) return false;
        return lo >= 0 && mode != TAKE_NOTHING && B(board, TABLE, v) != 0;
    }
    int64_t v = aid >> 3;
    int64_t k = (aid & 7) + 1;
    if (B(board, hr, v) < k) return false;
    if (lo < 0) return true;
    bool free_ = (B(board, META, M_RULES) & NO_MIN) != 0;
    if (v <= lo) return free_ || k >= B(board, TABLE, lo);
    if (v >= hi) return free_ || k >= B(board, TABLE, hi);
    return false;
}

#endif
