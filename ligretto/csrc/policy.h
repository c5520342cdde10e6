/* The parametric policy of every built-in player (ligretto.policy) and the reaction time of
 * an action (ligretto.timing.nb_duration).
 *
 * A policy vector orders the player's attention over its own face-up cards (stack top, row,
 * hand-pile top): it looks at them one by one and plays the first that fits, every card
 * looked at costing time; ORDER_SCAN looks at all and picks one that fits at random (the
 * seat's POLICY stream). A cautious player holds back a lone 1 until its patience ends.
 * Nothing fits: it turns hand cards, or waits. */
#ifndef LIGRETTO_POLICY_H
#define LIGRETTO_POLICY_H

#include "rng.h"
#include "rules.h"

/* The centre as a player sees it (policy.Piles): want[c][v] piles of colour c waiting for
 * number v; each pile's colour and top number; how many piles there are. */
typedef struct {
    const int64_t (*want)[N_VALUES + 2];
    const int64_t *colour;
    const int64_t *top;
    int64_t count;
} Piles;

/* A seat's own face-up cards (-1: none) and state (policy.Own). */
typedef struct {
    int64_t stack_top;
    const int64_t *row; /* the first k entries are the row */
    int64_t k;
    int64_t hand_top;
    bool can_flip;
    int64_t idle; /* actions since its last play */
} Own;

/* What a player does next: kind (K_*), row slot, card, target pile, cards looked at. */
typedef struct {
    int64_t kind, slot, card, pile, looked;
} Decision;

/* -1 for a 1 (new pile), the first pile taking card, or NO_TARGET (nb_target). */
static int64_t target(int64_t card, const Piles *piles) {
    int64_t colour = card / N_VALUES;
    int64_t value = card % N_VALUES + 1;
    if (value == 1) return -1;
    for (int64_t i = 0; i < piles->count; i++)
        if (piles->colour[i] == colour && piles->top[i] == value - 1) return i;
    return NO_TARGET;
}

static bool holds(int64_t card, const Own *own) {
    if (own->stack_top == card || own->hand_top == card) return true;
    for (int64_t j = 0; j < own->k; j++)
        if (own->row[j] == card) return true;
    return false;
}

/* Does card fit (piles wait for it) and is it not held back? (_ok) */
static bool ok(int64_t card, const double *params, const Piles *piles, const Own *own) {
    if (card < 0) return false;
    int64_t value = card % N_VALUES + 1;
    if (value > 1) return piles->want[card / N_VALUES][value] > 0;
    /* int64 < float64 compares as float64, as in numba */
    return !(params[P_CAUTIOUS] > 0 && (double)own->idle < params[P_PATIENCE] &&
             !holds(card + 1, own));
}

static inline int64_t own_card(int64_t src, int64_t j, const Own *own) {
    if (src == 0) return own->stack_top;
    if (src == 1) return own->row[j];
    return own->hand_top;
}

/* The source (0 stack top, 1 row, 2 hand-pile top) a player looks at step-th. */
static inline int64_t source(int64_t order, int64_t step) {
    if (order == ORDER_ROW) return step == 0 ? 1 : (step == 1 ? 0 : 2);
    if (order == ORDER_HAND) return step == 0 ? 2 : (step == 1 ? 0 : 1);
    return step;
}

/* Where a walk over the own cards stopped: source, slot, card (-1: none), looked, fitting. */
typedef struct {
    int64_t src, slot, card, looked, n_fit;
} Walk;

/* Look at the own face-up cards in order until fitting card number want_fit (0: the first;
 * -1: look at all) (_walk). */
static Walk walk(int64_t order, int64_t want_fit, const double *params, const Piles *piles,
                 const Own *own) {
    Walk w = {-1, -1, -1, 0, 0};
    for (int64_t step = 0; step < 3; step++) {
        int64_t src = source(order, step);
        int64_t slots = src != 1 ? 1 : own->k;
        for (int64_t j = 0; j < slots; j++) {
            int64_t card = own_card(src, j, own);
            if (card < 0) continue;
            w.looked++;
            if (ok(card, params, piles, own)) {
                if (w.n_fit == want_fit) {
                    w.src = src;
                    w.slot = j;
                    w.card = card;
                    return w;
                }
                w.n_fit++;
            }
        }
    }
    return w;
}

/* The decision of a player seeing piles and its own cards; states[ri] is the seat's policy
 * stream, drawn only by ORDER_SCAN (nb_decide). */
static Decision decide(const double *params, const Piles *piles, const Own *own,
                       uint64_t *states, int64_t ri) {
    int64_t order = f2i(params[P_ORDER]);
    int64_t looked;
    if (order == ORDER_SCAN) {
        Walk all = walk(order, -1, params, piles, own);
        looked = all.looked;
        if (all.n_fit > 0) {
            int64_t pick = below(states, ri, all.n_fit);
            Walk w = walk(order, pick, params, piles, own);
            return (Decision){w.src, w.slot, w.card, target(w.card, piles), looked};
        }
    } else {
        Walk w = walk(order, 0, params, piles, own);
        looked = w.looked;
        if (w.card >= 0) return (Decision){w.src, w.slot, w.card, target(w.card, piles), looked};
    }
    if (own->can_flip) return (Decision){K_FLIP, -1, -1, -1, looked};
    return (Decision){K_WAIT, -1, -1, -1, looked};
}

/* Milliseconds one action takes under the reaction model model (T_* entries of a policy
 * vector), drawing two numbers from states[i] (nb_duration); 0 where numba would raise
 * ZeroDivisionError (a spread of -1, a speed of 0). */
static int64_t duration(const double *model, int64_t looked, bool flip, uint64_t *states,
                        int64_t i) {
    int64_t base = wadd(f2i(model[T_THINK]), wmul(f2i(model[T_LOOK]), looked));
    if (flip) base = wadd(base, f2i(model[T_FLIP]));
    int64_t spread = f2i(model[T_SPREAD]);
    int64_t n = wadd(spread, 1);
    if (n == 0) return 0;
    int64_t first = below(states, i, n);
    int64_t jitter = wsub(wadd(first, below(states, i, n)), spread);
    if (model[T_SPEED] == 0.0) return 0;
    double slow = (double)base / model[T_SPEED];
    if (slow >= (double)NEVER_MS) return NEVER_MS; /* past any round, on every path */
    int64_t d = wadd(f2i(slow), jitter);
    return d > 1 ? d : 1;
}

#endif
