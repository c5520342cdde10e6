/* The built-in policies (leaves.players.builtin) and decide, the dispatcher over their kinds
 * (leaves.players.compiled.dispatch.decide).
 *
 * Every policy has the kernels' signature (board, seat, sizes, params, rng, work) and returns
 * the action id it chooses for seat, the seat to act. The scans over the 13 values keep an
 * integer key whose order is the rule's order (ties included), so they compile to selects.
 */
#ifndef LEAVES_POLICIES_H
#define LEAVES_POLICIES_H

#include "engine.h"
#include "counting.h"
#include "policy_features.h"

/* Parameter positions in each policy's vector: ParamSet.index of the built-in's declare(...)
 * (leaves.players.builtin.*), named <index alias>_<parameter>. */
/* leaves.players.builtin.simple GREEDY_PARAMS (_G) */
#define G_KEEP_PAIRS 0
/* leaves.players.builtin.simple PATIENT_PARAMS (_P) */
#define P_MIN_HAND 0
/* leaves.players.builtin.counter COUNTER_PARAMS (_W) */
#define W_THREAT_WEIGHT 0
#define W_KEEP_WEIGHT 1
#define W_SAFE_BONUS 2
#define W_NEAR_WIN_PENALTY 3
#define W_SHED_WEIGHT 4
/* leaves.players.builtin.taker TAKER_PARAMS (_W) */
#define W_GROUP_WEIGHT 0
#define W_HARM_WEIGHT 1
#define W_EXTREME_WEIGHT 2
/* leaves.players.builtin.weighted WEIGHTED_PARAMS (_W) */
#define W_W_SHED 0
#define W_W_KEEP 1
#define W_W_END 2
#define W_W_EXTREME 3
#define W_W_THREAT 4
#define W_W_NEAR_WIN 5
#define W_W_PASS 6
#define W_W_TAKE_GROUP 7
#define W_W_TAKE_HARM 8
#define W_W_TAKE_EXTREME 9

/* ------------------------------------------------------------------ random (leaves.kernels) */
#ifndef LEAVES_SIDES
#define LEAVES_SIDES
/* The play rule as four numbers (leaves.kernels._sides): values v <= lo need >= a cards,
 * values v >= start need >= b cards, nothing between. An empty table is lo=-1, a=1, start=0,
 * b=1 (any value, any count); without the minimum count both needs are 1. */
typedef struct {
    int64_t lo, a, start, b;
} Sides;

static inline Sides sides(const board_t *board) {
    Sides s;
    int64_t lo = B(board, META, M_LO);
    if (lo < 0) {
        s.lo = -1; s.a = 1; s.start = 0; s.b = 1;
        return s;
    }
    int64_t hi = B(board, META, M_HI);
    s.lo = lo;
    s.start = hi > lo ? hi : lo + 1;
    if (B(board, META, M_RULES) & NO_MIN) {
        s.a = 1;
        s.b = 1;
        return s;
    }
    s.a = B(board, TABLE, lo);
    s.b = B(board, TABLE, hi);
    return s;
}
#endif

/* A uniformly random legal action id: the same choice and the same one rng_below draw as
 * legal[rng_below(rng, n_legal)] over the ascending legal list, found by counting per value
 * then walking to the drawn index (leaves.kernels._random_action). The game must not be over. */
static inline int64_t random_action(const board_t *board, uint64_t *rng) {
    int64_t hr = HANDS + B(board, META, M_CUR);
    int64_t lo = B(board, META, M_LO);
    if (lo < 0) {
        int64_t size = 0;
        for (int64_t v = 0; v < N_VALUES; v++) size += B(board, hr, v);
        int64_t r = rng_below(rng, size);
        for (int64_t v = 0;; v++) {
            int64_t c = B(board, hr, v);
            if (r < c) return v * 8 + r;
            r -= c;
        }
    }
    int64_t hi = B(board, META, M_HI);
    Sides sd = sides(board);
    lo = sd.lo;
    int64_t a = sd.a, start = sd.start, b = sd.b;
    int64_t mode = B(board, META, M_RULES) >> 1;
    int64_t n_left = 0;
    for (int64_t v = 0; v < lo + 1; v++) {
        int64_t c = B(board, hr, v) - a + 1;
        n_left += c > 0 ? c : 0;
    }
    int64_t n_right = 0;
    for (int64_t v = start; v < N_VALUES; v++) {
        int64_t c = B(board, hr, v) - b + 1;
        n_right += c > 0 ? c : 0;
    }
    int64_t n_take = 0;
    if (mode == 0) {
        for (int64_t v = lo; v <= hi; v++) n_take += B(board, TABLE, v) != 0 ? 1 : 0;
    } else {
        n_take = (mode == TAKE_ENDS && hi != lo) ? 2 : 1;
    }
    int64_t r = rng_below(rng, n_left + n_right + n_take);
    if (r < n_left) {
        for (int64_t v = 0;; v++) {
            int64_t c = B(board, hr, v) - a + 1;
            if (c > 0) {
                if (r < c) return v * 8 + a - 1 + r;
                r -= c;
            }
        }
    }
    r -= n_left;
    if (r < n_right) {
        for (int64_t v = start;; v++) {
            int64_t c = B(board, hr, v) - b + 1;
            if (c > 0) {
                if (r < c) return v * 8 + b - 1 + r;
                r -= c;
            }
        }
    }
    r -= n_right;
    if (mode == TAKE_NOTHING) return PASS_ID;
    if (mode == TAKE_ENDS) return TAKE_BASE + (r == 0 ? lo : hi);
    for (int64_t v = lo;; v++) {
        if (B(board, TABLE, v) != 0) {
            if (r == 0) return TAKE_BASE + v;
            r -= 1;
        }
    }
}

/* random: uniform over the legal ids. */
static inline int64_t policy_random(const board_t *board, int64_t seat, const int64_t *sizes,
                                    const double *params, uint64_t *rng, int64_t *work) {
    (void)seat; (void)sizes; (void)params; (void)work;
    return random_action(board, rng);
}

/* ------------------------------------------------------------------ simple */

/* low: whole group of the lowest playable value; else take the value held most. It stops at
 * the first playable value upwards (usually among the first few). */
static inline int64_t policy_low(const board_t *board, int64_t seat, const int64_t *sizes,
                                 const double *params, uint64_t *rng, int64_t *work) {
    (void)sizes; (void)params; (void)rng; (void)work;
    int64_t lo = B(board, META, M_LO);
    int64_t hi = B(board, META, M_HI);
    if (lo < 0) {
        for (int64_t v = 0; v < N_VALUES; v++) {
            int64_t c = B(board, HANDS + seat, v);
            if (c > 0) return play_id(v, c);
        }
        return take_group(board, seat, lo, hi);
    }
    int64_t a, b;
    group_needs(board, lo, hi, &a, &b);
    for (int64_t v = 0; v < lo + 1; v++) {
        int64_t c = B(board, HANDS + seat, v);
        if (c >= a) return play_id(v, c);
    }
    for (int64_t v = hi > lo ? hi : lo + 1; v < N_VALUES; v++) {
        int64_t c = B(board, HANDS + seat, v);
        if (c >= b) return play_id(v, c);
    }
    return take_group(board, seat, lo, hi);
}

/* high: low's scan mirrored, downwards from the highest value. */
static inline int64_t policy_high(const board_t *board, int64_t seat, const int64_t *sizes,
                                  const double *params, uint64_t *rng, int64_t *work) {
    (void)sizes; (void)params; (void)rng; (void)work;
    int64_t lo = B(board, META, M_LO);
    int64_t hi = B(board, META, M_HI);
    if (lo < 0) {
        for (int64_t v = N_VALUES - 1; v >= 0; v--) {
            int64_t c = B(board, HANDS + seat, v);
            if (c > 0) return play_id(v, c);
        }
        return take_group(board, seat, lo, hi);
    }
    int64_t a, b;
    group_needs(board, lo, hi, &a, &b);
    for (int64_t v = N_VALUES - 1; v >= (hi > lo ? hi : lo + 1); v--) {
        int64_t c = B(board, HANDS + seat, v);
        if (c >= b) return play_id(v, c);
    }
    for (int64_t v = lo; v >= 0; v--) {
        int64_t c = B(board, HANDS + seat, v);
        if (c >= a) return play_id(v, c);
    }
    return take_group(board, seat, lo, hi);
}

/* minimal: fewest cards allowed; ties: no split, then the lowest value. Wins when it can. */
static inline int64_t policy_minimal(const board_t *board, int64_t seat, const int64_t *sizes,
                                     const double *params, uint64_t *rng, int64_t *work) {
    (void)params; (void)rng; (void)work;
    int64_t lo = B(board, META, M_LO);
    int64_t hi = B(board, META, M_HI);
    int64_t w = winning_play(board, seat, sizes, lo, hi);
    if (w >= 0) return w;
    int64_t a, b;
    group_needs(board, lo, hi, &a, &b);
    const int64_t big = (int64_t)1 << 30;
    int64_t best = big; /* key (count, cards left, value): its minimum is the rule's choice */
    for (int64_t v = 0; v < N_VALUES; v++) {
        int64_t c = B(board, HANDS + seat, v);
        int64_t k = need_of(v, lo, hi, a, b);
        int64_t key = (k * 16 + c - k) * 16 + v;
        best = imin(best, ((c > 0) & (c >= k)) ? key : big);
    }
    if (best < big) return play_id(best & 15, best >> 8);
    return take_group(board, seat, lo, hi);
}

/* greedy: biggest whole group; ties to the value farther from 7 (then the lower). With
 * keep_pairs a group of exactly two is played only if nothing else can be (or it empties the
 * hand), keeping pairs to answer two-card ends later. */
static inline int64_t policy_greedy(const board_t *board, int64_t seat, const int64_t *sizes,
                                    const double *params, uint64_t *rng, int64_t *work) {
    (void)rng; (void)work;
    int64_t lo = B(board, META, M_LO);
    int64_t hi = B(board, META, M_HI);
    int64_t a, b;
    group_needs(board, lo, hi, &a, &b);
    bool keep_pairs = params[G_KEEP_PAIRS] > 0.5;
    int64_t size = sizes[seat];
    /* key (count, distance from 7, -value): its maximum is the rule's choice; a play that
     * empties the hand is then the only playable value; kept pairs, the lowest first, only
     * when nothing else is playable. */
    int64_t top = -1;
    int64_t pair = NONE;
    for (int64_t v = 0; v < N_VALUES; v++) {
        int64_t c = B(board, HANDS + seat, v);
        bool ok = (c > 0) & (c >= need_of(v, lo, hi, a, b));
        bool kept = keep_pairs & (c == 2) & (c != size);
        int64_t key = (c * 16 + iabs(v - 6)) * 16 + 15 - v;
        top = imax(top, (ok && !kept) ? key : -1);
        pair = imin(pair, (ok && kept) ? v : NONE);
    }
    if (top >= 0) return play_id(15 - (top & 15), top >> 8);
    if (pair < NONE) return play_id(pair, 2);
    return take_group(board, seat, lo, hi);
}

/* patient: sheds whole groups, biggest first; rather than shed a lone card it passes to grow
 * a pair (while its hand has at least min_hand cards). */
static inline int64_t policy_patient(const board_t *board, int64_t seat, const int64_t *sizes,
                                     const double *params, uint64_t *rng, int64_t *work) {
    (void)rng; (void)work;
    int64_t lo = B(board, META, M_LO);
    int64_t hi = B(board, META, M_HI);
    int64_t a, b;
    group_needs(board, lo, hi, &a, &b);
    int64_t top = -1; /* key (count, -value): its maximum is the biggest group, lowest on ties */
    for (int64_t v = 0; v < N_VALUES; v++) {
        int64_t c = B(board, HANDS + seat, v);
        int64_t key = c * 16 + 15 - v;
        top = imax(top, ((c > 0) & (c >= need_of(v, lo, hi, a, b))) ? key : -1);
    }
    int64_t best = top < 0 ? -1 : play_id(15 - (top & 15), top >> 4);
    int64_t bc = top < 0 ? 0 : top >> 4;
    /* the hand size compares as a float64 with the (float) parameter, as in numba */
    if (lo < 0 || bc >= 2 || (best >= 0 && (double)sizes[seat] < params[P_MIN_HAND]))
        return best;
    int64_t t = take_group(board, seat, lo, hi);
    if (best >= 0 && (t == PASS_ID || B(board, HANDS + seat, t - TAKE_BASE) == 0)) return best;
    return t;
}

/* blocker: whole group of the most extreme playable value (1s and 13s first); ties to the
 * bigger group. */
static inline int64_t policy_blocker(const board_t *board, int64_t seat, const int64_t *sizes,
                                     const double *params, uint64_t *rng, int64_t *work) {
    (void)sizes; (void)params; (void)rng; (void)work;
    int64_t lo = B(board, META, M_LO);
    int64_t hi = B(board, META, M_HI);
    int64_t a, b;
    group_needs(board, lo, hi, &a, &b);
    int64_t top = -1; /* key (distance from 7, count, -value): its maximum is the choice */
    for (int64_t v = 0; v < N_VALUES; v++) {
        int64_t c = B(board, HANDS + seat, v);
        int64_t key = (iabs(v - 6) * 16 + c) * 16 + 15 - v;
        top = imax(top, ((c > 0) & (c >= need_of(v, lo, hi, a, b))) ? key : -1);
    }
    if (top >= 0) return play_id(15 - (top & 15), (top >> 4) & 15);
    return take_group(board, seat, lo, hi);
}

/* ------------------------------------------------------------------ counter */

/* counter: plays ends the unseen cards are unlikely to answer. Score of play (v, k):
 * shed_weight * k - threat_weight * threat - keep_weight * (cards of v kept) + safe_bonus if
 * nobody can answer - near_win_penalty if a new end needs no more cards than the shortest
 * opponent hand holds (the cards that answer it: an opponent could go out on it). */
static inline int64_t policy_counter(const board_t *board, int64_t seat, const int64_t *sizes,
                                     const double *params, uint64_t *rng, int64_t *work) {
    (void)rng;
    int64_t lo = B(board, META, M_LO);
    int64_t hi = B(board, META, M_HI);
    int64_t w = winning_play(board, seat, sizes, lo, hi);
    if (w >= 0) return w;
    PlayRule how = {COUNTER_RULE,
                    {W_SHED_WEIGHT, W_THREAT_WEIGHT, W_KEEP_WEIGHT, W_SAFE_BONUS,
                     W_NEAR_WIN_PENALTY, 0},
                    true};
    Scored r = best_scored_play(board, seat, sizes, lo, hi, params, work, how);
    if (r.play >= 0) return r.play;
    return take_group(board, seat, lo, hi);
}

/* ------------------------------------------------------------------ taker */

/* taker: plays its smallest whole group (ties to the value nearest 7); takes by take_scored. */
static inline int64_t policy_taker(const board_t *board, int64_t seat, const int64_t *sizes,
                                   const double *params, uint64_t *rng, int64_t *work) {
    (void)sizes; (void)rng; (void)work;
    int64_t lo = B(board, META, M_LO);
    int64_t hi = B(board, META, M_HI);
    int64_t a, b;
    group_needs(board, lo, hi, &a, &b);
    /* Score -2 * count - 0.1 * |v - 7| as the key (count, distance from 7, value), whose
     * minimum is the best score, the lowest value on ties; a play that empties the hand is
     * then the only playable value. */
    const int64_t big = (int64_t)1 << 30;
    int64_t low = big;
    for (int64_t v = 0; v < N_VALUES; v++) {
        int64_t c = B(board, HANDS + seat, v);
        int64_t key = (c * 16 + iabs(v - 6)) * 16 + v;
        low = imin(low, ((c > 0) & (c >= need_of(v, lo, hi, a, b))) ? key : big);
    }
    if (low < big) return play_id(low & 15, low >> 8);
    TakeWeights weights = {0.0, params[W_GROUP_WEIGHT], params[W_HARM_WEIGHT],
                           params[W_EXTREME_WEIGHT]};
    return take_scored(board, seat, lo, hi, weights, -1, -1e18);
}

/* ------------------------------------------------------------------ weighted */

/* Room for rounding: a bound and a score summed in another order may differ by a few ulps. */
#define TAKE_MARGIN 1e-9

/* An upper bound of every take's score (take_scored), from three cheap maxima: the most cards
 * of one value held, the end sizes, the value farthest from 7 between the ends. */
static inline double take_bound(const board_t *board, int64_t seat, int64_t lo, int64_t hi,
                                const double *params) {
    double wg = params[W_W_TAKE_GROUP];
    double wh = params[W_W_TAKE_HARM];
    double we = params[W_W_TAKE_EXTREME];
    int64_t held = 0;
    for (int64_t v = 0; v < N_VALUES; v++) held = imax(held, B(board, HANDS + seat, v));
    int64_t ease = imin(B(board, TABLE, lo), B(board, TABLE, hi));
    /* held in [0, held]; harm in [-ease, MAX_COPIES - ease]; |t - 6| <= the farther end's */
    double ub = params[W_W_PASS];
    ub += wg > 0 ? wg * (double)held : 0.0;
    ub += wh > 0 ? wh * (double)(MAX_COPIES - ease) : -wh * (double)ease;
    ub += we > 0 ? we * (double)imax(iabs(lo - 6), iabs(hi - 6)) : 0.0;
    return ub;
}

/* weighted: a linear score of a feature vector per legal action; the best score wins (ties:
 * the lowest id). A play that empties the hand is always chosen; the threat is counted only
 * when its weight is nonzero (it is the costly feature). */
static inline int64_t policy_weighted(const board_t *board, int64_t seat, const int64_t *sizes,
                                      const double *params, uint64_t *rng, int64_t *work) {
    (void)rng;
    int64_t lo = B(board, META, M_LO);
    int64_t hi = B(board, META, M_HI);
    int64_t w = winning_play(board, seat, sizes, lo, hi);
    if (w >= 0) return w;
    PlayRule how = {WEIGHTED_RULE,
                    {W_W_SHED, W_W_KEEP, W_W_END, W_W_EXTREME, W_W_THREAT, W_W_NEAR_WIN},
                    params[W_W_THREAT] != 0.0};
    Scored r = best_scored_play(board, seat, sizes, lo, hi, params, work, how);
    if (lo < 0) return r.play;
    /* Plays have lower ids than takes, so a take must score strictly more to win a tie. */
    if (r.play >= 0 && take_bound(board, seat, lo, hi, params) < r.score - TAKE_MARGIN)
        return r.play; /* no take can score more: skip scoring each one */
    TakeWeights weights = {params[W_W_PASS], params[W_W_TAKE_GROUP], params[W_W_TAKE_HARM],
                           params[W_W_TAKE_EXTREME]};
    return take_scored(board, seat, lo, hi, weights, r.play, r.score);
}

/* ------------------------------------------------------------------ dispatch */

/* The built-ins with a C form, in leaves.players.builtin.BUILTINS order from its first (a kind
 * here is the built-in's place there): X(name, reads the card counts). Python matches the
 * names against BUILTINS (leaves.players.compiled.engine.kinds) and plays a table with a seat
 * beyond them on numba, so a new built-in runs before it has a line here. Its C form is a
 * policy_<name> above, with the kernels' signature, and one line here. */
#define C_POLICIES(X)                                                                       \
    X(random, false) X(low, false) X(high, false) X(minimal, false) X(greedy, false)         \
    X(patient, false) X(blocker, false) X(counter, true) X(taker, false) X(weighted, true)

#define KIND_ENUM(name, counts) KIND_##name,
enum { C_POLICIES(KIND_ENUM) N_KINDS };
#undef KIND_ENUM

/* KIND_COUNTS[k]: kind k reads the card counts (its class's classifier uses_card_counting),
 * so a table with such a seat keeps them through its game. */
#define KIND_COUNT(name, counts) counts,
static const bool KIND_COUNTS[N_KINDS] = {C_POLICIES(KIND_COUNT)};
#undef KIND_COUNT

/* KIND_NAMES[k]: the registry name of kind k's built-in. */
#define KIND_NAME(name, counts) #name,
static const char *const KIND_NAMES[N_KINDS] = {C_POLICIES(KIND_NAME)};
#undef KIND_NAME

/* Action id chosen by policy kind for seat (the seat to act) on board; -1 for an unknown kind.
 * params float64[N_PARAMS]; sizes int64[SEAT_SLOTS] public hand sizes; rng the kernel RNG (only
 * random draws from it); work int64[WORK_SIZE] scratch. */
#define KIND_CASE(name, counts)                                                             \
    case KIND_##name: return policy_##name(board, seat, sizes, params, rng, work);
static inline int64_t decide(int64_t kind, const double *params, board_t *board, int64_t seat,
                             int64_t *sizes, uint64_t *rng, int64_t *work) {
    switch (kind) {
    C_POLICIES(KIND_CASE)
    default: return -1;
    }
}
#undef KIND_CASE

#endif
