/* What the compiled policies read from a board (leaves.players.policy.features): minimum counts,
 * the ends a play leaves, threats (over counting.h's card counts), the smallest opponent hand,
 * the default and the scored take.
 *
 * Every helper reads only what the seat to act may know (own hand row, public rows, META and
 * the public sizes), so a policy built from them is fair on a public board and a full one.
 */
#ifndef LEAVES_FEATURES_H
#define LEAVES_FEATURES_H

#include "engine.h"
#include "counting.h"

#define NONE 99 /* "cannot play this value" sentinel for the minimum count */
#define ALL_VALUES ((1 << N_VALUES) - 1) /* a bit per value (features._ALL) */

/* Fewest cards of value index v a play needs now, or NONE (between the ends). */
static inline int64_t kmin(const board_t *board, int64_t v, int64_t lo, int64_t hi) {
    if (lo < 0) return 1;
    int64_t free_ = B(board, META, M_RULES) & NO_MIN;
    if (v <= lo) return free_ ? 1 : B(board, TABLE, lo);
    if (v >= hi) return free_ ? 1 : B(board, TABLE, hi);
    return NONE;
}

/* (*a, *b): fewest cards a play needs at the left end (values <= lo) and at the right end
 * (values >= hi); (1, 1) on an empty table or without the minimum count. With need_of this is
 * kmin for a whole scan, read once per decision. */
static inline void group_needs(const board_t *board, int64_t lo, int64_t hi, int64_t *a,
                               int64_t *b) {
    if (lo < 0 || (B(board, META, M_RULES) & NO_MIN)) {
        *a = 1;
        *b = 1;
        return;
    }
    *a = B(board, TABLE, lo);
    *b = B(board, TABLE, hi);
}

/* kmin from group_needs' (a, b): a select, not a branch, for the branch-free scans. */
static inline int64_t need_of(int64_t v, int64_t lo, int64_t hi, int64_t a, int64_t b) {
    return v <= lo ? a : (v >= hi ? b : NONE);
}

static inline int64_t play_id(int64_t v, int64_t k) { return v * MAX_COPIES + k - 1; }

/* The smaller end size after taking one card of t; 0 when the table becomes empty. */
static inline int64_t ease_after_take(const board_t *board, int64_t lo, int64_t hi, int64_t t) {
    int64_t c = B(board, TABLE, t);
    if (c > 1 || (t != lo && t != hi)) {
        int64_t a = B(board, TABLE, lo) - (t == lo ? 1 : 0);
        int64_t b = B(board, TABLE, hi) - (t == hi ? 1 : 0);
        return imin(a, b);
    }
    if (lo == hi) return 0;
    if (t == lo) {
        int64_t nl = lo + 1;
        while (B(board, TABLE, nl) == 0) nl++;
        return imin(B(board, TABLE, nl), B(board, TABLE, hi));
    }
    int64_t nh = hi - 1;
    while (B(board, TABLE, nh) == 0) nh--;
    return imin(B(board, TABLE, lo), B(board, TABLE, nh));
}

/* Smallest hand among opponents still in the round (99 if none). */
static inline int64_t min_opp_size(const board_t *board, int64_t seat, const int64_t *sizes) {
    int64_t n = B(board, META, M_N);
    int64_t mask = B(board, META, M_PASSED);
    int64_t m = 99;
    for (int64_t i = 0; i < n; i++)
        if (i != seat && !((mask >> i) & 1) && sizes[i] < m) m = sizes[i];
    return m;
}

/* A play that empties the hand (always best: it wins at once), or -1. */
static inline int64_t winning_play(const board_t *board, int64_t seat, const int64_t *sizes,
                                   int64_t lo, int64_t hi) {
    int64_t h = sizes[seat];
    if (h > MAX_COPIES) return -1;
    for (int64_t v = 0; v < N_VALUES; v++) {
        int64_t c = B(board, HANDS + seat, v);
        if (c == h) {
            if (c >= kmin(board, v, lo, hi)) return play_id(v, c);
            return -1;
        }
        if (c > 0) return -1;
    }
    return -1;
}

/* The default take: the value held most (builds groups), ties to the lowest value; of the end
 * stacks only under take=ends, the pass taking nothing under take=nothing. */
static inline int64_t take_group(const board_t *board, int64_t seat, int64_t lo, int64_t hi) {
    int64_t mode = B(board, META, M_RULES) >> 1;
    if (mode == TAKE_NOTHING && lo >= 0) return PASS_ID;
    /* An empty table (lo = hi = -1, never asked in a game: a seat to act holds a card) has no
     * stack: numba's loop reads column -1 (wrapped: value 12, an empty stack) and finds none. */
    if (lo < 0) return TAKE_BASE - 1;
    /* One key per stack, (held, 15 - t): its maximum is the first best stack in value order. */
    int64_t best = -1;
    for (int64_t t = lo; t <= hi; t++) {
        int64_t key = (int64_t)B(board, HANDS + seat, t) * 16 + 15 - t;
        bool ok = (B(board, TABLE, t) > 0) & ((mode != TAKE_ENDS) | (t == lo) | (t == hi));
        best = imax(best, ok ? key : -1);
    }
    if (best < 0) return TAKE_BASE - 1;
    return TAKE_BASE + 15 - (best & 15);
}

/* take_scored's weights, in the order its score adds them (features.TakeWeights): of every
 * take (the willingness to pass), per card of the taken value held, per unit of harm, per
 * step of the value away from 7. */
typedef struct {
    double bias, group, harm, extreme;
} TakeWeights;

/* The best of best (an action id scoring bs, or -1: none) and every take the rules allow,
 * each scored bias + wg * held + wh * harm + we * |t - 7| (ties keep the earlier: lower id);
 * under take=nothing the pass taking nothing, scored bias. harm is the change of the smaller
 * end size for the opponents (emptying the table counts as it dropping to 0). The table must
 * not be empty. */
static inline int64_t take_scored(const board_t *board, int64_t seat, int64_t lo, int64_t hi,
                                  TakeWeights weights, int64_t best, double bs) {
    double bias = weights.bias, wg = weights.group, wh = weights.harm, we = weights.extreme;
    int64_t mode = B(board, META, M_RULES) >> 1;
    if (mode == TAKE_NOTHING) /* the one pass, scored by its bias alone */
        return (best < 0 || bias > bs) ? PASS_ID : best;
    int64_t ease = imin(B(board, TABLE, lo), B(board, TABLE, hi));
    for (int64_t t = lo; t <= hi; t++) {
        if (B(board, TABLE, t) == 0 || (mode == TAKE_ENDS && t != lo && t != hi)) continue;
        int64_t harm = ease_after_take(board, lo, hi, t) - ease;
        double s = bias + wg * (double)B(board, HANDS + seat, t) + wh * (double)harm;
        s += we * (double)iabs(t - 6);
        if (best < 0 || s > bs) { /* the first action is kept whatever its score */
            bs = s;
            best = TAKE_BASE + t;
        }
    }
    return best;
}

#define COUNTER_RULE 0  /* shed - threat - keep, + safe when unanswerable, - near win */
#define WEIGHTED_RULE 1 /* a weighted sum of the play's six features */

/* How best_scored_play scores a play: by formula rule, whose i-th weight is params[at[i]],
 * counting the threat against the new ends when count (else it is 0). */
typedef struct {
    int64_t rule;
    int64_t at[6];
    bool count;
} PlayRule;

/* A play and its score (best_scored_play). */
typedef struct {
    int64_t play;
    double score;
} Scored;

/* How the plays of one value change the ends, whatever their count k: the end they make holds
 * k + add cards (add: the stack they join); the other end stays, answered by fixed_threat
 * values; moving masks the values that answer the new end. On one stack (an empty table, or
 * onto the only stack) both ends are the new one: moving is every value, nothing is fixed. */
typedef struct {
    int64_t add, fixed, moving, fixed_threat;
} PlaySide;

/* PlaySide of value v (playable; with count, work's masks filled; free_: one card answers). */
static inline PlaySide play_side(const board_t *board, const int64_t *work, int64_t lo,
                                 int64_t hi, int64_t v, int64_t free_, bool count) {
    PlaySide ps = {0, NONE, ALL_VALUES, 0};
    if (lo < 0) return ps;
    bool left = v <= lo;
    int64_t at = left ? lo : hi; /* the end this value plays at */
    ps.add = v == at ? B(board, TABLE, v) : 0;
    if (lo == hi && v == lo) return ps;
    int64_t other = left ? hi : lo;
    int64_t fixed_mask = left ? ALL_VALUES ^ (((int64_t)1 << hi) - 1) : ((int64_t)2 << lo) - 1;
    ps.fixed = free_ ? 1 : B(board, TABLE, other);
    ps.moving = left ? ((int64_t)2 << v) - 1 : ALL_VALUES ^ (((int64_t)1 << v) - 1);
    ps.fixed_threat = count ? popcount(work[MASKS + ps.fixed] & fixed_mask) : 0;
    return ps;
}

/* The legal play with the highest score under how (ties: the lowest id) and its score;
 * (-1, -1e18) if none. Each rule keeps its own formula, summed in the Python's order, so a
 * score is computed exactly as the policy always has. The scan visits only the playable
 * values, in value order, each value's ends worked out once (play_side). */
static inline Scored best_scored_play(const board_t *board, int64_t seat, const int64_t *sizes,
                                      int64_t lo, int64_t hi, const double *params,
                                      int64_t *work, PlayRule how) {
    int64_t mopp = min_opp_size(board, seat, sizes);
    int64_t best = -1;
    double bs = -1e18;
    bool counted = !how.count; /* the counts are filled at the first legal play */
    int64_t na, nb;
    group_needs(board, lo, hi, &na, &nb);
    int64_t free_ = B(board, META, M_RULES) & NO_MIN; /* min_count=off: one card answers */
    int64_t playable = 0; /* the values with a legal play, one bit each */
    for (int64_t v = 0; v < N_VALUES; v++)
        playable |= (int64_t)(B(board, HANDS + seat, v) >= need_of(v, lo, hi, na, nb)) << v;
    for (; playable; playable &= playable - 1) {
        int64_t v = __builtin_ctzll((uint64_t)playable);
        int64_t c = B(board, HANDS + seat, v);
        if (!counted) {
            fill_avail(board, seat, work);
            counted = true;
        }
        PlaySide ps = play_side(board, work, lo, hi, v, free_, how.count);
        for (int64_t k = need_of(v, lo, hi, na, nb); k <= c; k++) {
            int64_t end = k + ps.add;      /* the new end's size */
            int64_t t = free_ ? 1 : end;   /* the cards that answer it */
            int64_t ease = imin(t, ps.fixed); /* the fewest that answer either end */
            int64_t th = how.count ? popcount(work[MASKS + t] & ps.moving) + ps.fixed_threat : 0;
            double s;
            if (how.rule == COUNTER_RULE) {
                s = params[how.at[0]] * (double)k - params[how.at[1]] * (double)th -
                    params[how.at[2]] * (double)(c - k);
                if (th == 0) s += params[how.at[3]];
                if (ease <= mopp) s -= params[how.at[4]];
            } else {
                double near = ease <= mopp ? 1.0 : 0.0;
                s = params[how.at[0]] * (double)k + params[how.at[1]] * (double)(c - k) +
                    params[how.at[2]] * (double)end + params[how.at[3]] * (double)iabs(v - 6) +
                    params[how.at[4]] * (double)th + params[how.at[5]] * near;
            }
            if (best < 0 || s > bs) { /* the first play is kept whatever its score */
                bs = s;
                best = play_id(v, k);
            }
        }
    }
    Scored r = {best, bs};
    return r;
}

#endif
