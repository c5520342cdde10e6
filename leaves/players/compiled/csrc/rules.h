/* The rules of a turn and the deal, over the board: leaves.kernels.apply_tracked and
 * leaves.deal_kernels.deal_unchecked, the same games step for step. */
#ifndef LEAVES_RULES_H
#define LEAVES_RULES_H

#include "engine.h"

/* The next seat after p, clockwise, that has not passed (p itself when it is the only one):
 * kernels.NEXT_SEAT[n, passed, p]. */
static inline int64_t next_seat(int64_t n, int64_t passed, int64_t p) {
    for (int64_t step = 1; step <= n; step++) {
        int64_t q = (p + step) % n;
        if (!((passed >> q) & 1)) return q;
    }
    return -1;
}

/* The lowest seat that has not passed: kernels.LOWEST_CLEAR[passed]. */
static inline int64_t lowest_clear(int64_t passed) {
    int64_t q = 0;
    while ((passed >> q) & 1) q++;
    return q;
}

static inline bool is_over(const board_t *board) {
    return B(board, META, M_WINNER) >= 0 || B(board, META, M_TURN) >= B(board, META, M_LIMIT);
}

/* Apply the legal action id aid in place. With tracked, sizes[p] holds the hand size of the
 * seat to act: it is updated and tells a win without summing the hand row. */
static inline void apply_tracked(board_t *board, int64_t aid, int64_t *sizes, bool tracked) {
    int64_t p = B(board, META, M_CUR);
    int64_t n = B(board, META, M_N);
    int64_t lo = B(board, META, M_LO);
    int64_t hi = B(board, META, M_HI);
    int64_t passed = B(board, META, M_PASSED);
    int64_t q;
    if (aid >= TAKE_BASE) {
        /* Pass: take one card of value v from its stack (none for PASS_ID), sit out. */
        if (aid != PASS_ID) {
            int64_t v = aid - TAKE_BASE;
            int64_t tc = B(board, TABLE, v);
            B(board, TABLE, v) = (board_t)(tc - 1);
            if (tc == 1) { /* the stack is gone: an emptied end moves inward */
                if (lo == hi) {
                    lo = -1;
                    hi = -1;
                } else if (v == lo) {
                    lo += 1;
                    while (B(board, TABLE, lo) == 0) lo += 1;
                } else if (v == hi) {
                    hi -= 1;
                    while (B(board, TABLE, hi) == 0) hi -= 1;
                }
            }
            B(board, HANDS + p, v) += 1;
            B(board, KNOWN + p, v) += 1;
            if (tracked) sizes[p] += 1;
        }
        passed |= (int64_t)1 << p;
        if (__builtin_popcountll((unsigned long long)passed) >= n - 1) {
            /* Round end: the one seat left clears the table and leads on an empty table. */
            q = lowest_clear(passed);
            for (int u = 0; u < N_VALUES; u++) {
                B(board, REMOVED, u) += B(board, TABLE, u);
                B(board, TABLE, u) = 0;
            }
            lo = -1;
            hi = -1;
            passed = 0;
            B(board, META, M_ROUND) += 1;
        } else {
            q = next_seat(n, passed, p);
        }
        B(board, META, M_PASSED) = (board_t)passed;
    } else {
        /* Play k cards of value v onto an end (or as a new end). */
        int64_t v = aid >> 3;
        int64_t k = (aid & 7) + 1;
        int64_t hr = HANDS + p;
        int64_t size;
        B(board, hr, v) -= (board_t)k;
        B(board, TABLE, v) += (board_t)k;
        lo = (lo < 0 || v < lo) ? v : lo;
        hi = v > hi ? v : hi;
        int64_t kc = B(board, KNOWN + p, v);
        B(board, KNOWN + p, v) = (board_t)(kc > k ? kc - k : 0);
        if (tracked) {
            size = sizes[p] - k;
            sizes[p] = size;
        } else {
            size = 0;
            for (int u = 0; u < N_VALUES; u++) size += B(board, hr, u);
        }
        if (size == 0) {
            B(board, META, M_WINNER) = (board_t)p;
            q = p;
        } else {
            q = next_seat(n, passed, p);
        }
    }
    B(board, META, M_CUR) = (board_t)q;
    B(board, META, M_LO) = (board_t)lo;
    B(board, META, M_HI) = (board_t)hi;
    B(board, META, M_TURN) += 1;
}

/* What a deal needs from the rules at one player count (deal_kernels.Setup). */
typedef struct {
    int64_t n_players;
    int64_t hand_size;
    int64_t turn_limit;
    int64_t flags;
    int64_t n_cards;       /* the deck's size */
    const int64_t *cards;  /* the sorted deck as value indices, n_cards of them */
    const int64_t *copies; /* its copies per value, N_VALUES of them */
} Setup;

/* Fisher-Yates shuffle of a[0..m-1], one draw per position from the last. */
static inline void shuffle_head(int64_t *a, int64_t m, uint64_t *rng) {
    for (int64_t i = m - 1; i > 0; i--) {
        int64_t j = rng_below(rng, i + 1);
        int64_t tmp = a[i];
        a[i] = a[j];
        a[j] = tmp;
    }
}

/* Shuffle and deal a new game of setup onto board; first_player -1 draws it. */
static inline void deal(board_t *board, const Setup *setup, uint64_t *rng, int64_t first_player,
                        int64_t *deck) {
    int64_t size = setup->n_cards;
    for (int64_t i = 0; i < size; i++) deck[i] = setup->cards[i];
    shuffle_head(deck, size, rng);
    for (int i = 0; i < BOARD_ROWS * N_VALUES; i++) board[i] = 0;
    int64_t pos = 0;
    for (int64_t p = 0; p < setup->n_players; p++)
        for (int64_t c = 0; c < setup->hand_size; c++) B(board, HANDS + p, deck[pos++]) += 1;
    while (pos < size) B(board, UNDEALT, deck[pos++]) += 1;
    for (int u = 0; u < N_VALUES; u++) B(board, DECK_ROW, u) = (board_t)setup->copies[u];
    if (first_player < 0) first_player = rng_below(rng, setup->n_players);
    B(board, META, M_CUR) = (board_t)first_player;
    B(board, META, M_WINNER) = -1;
    B(board, META, M_TURN) = 0;
    B(board, META, M_ROUND) = 1;
    B(board, META, M_LO) = -1;
    B(board, META, M_HI) = -1;
    B(board, META, M_N) = (board_t)setup->n_players;
    B(board, META, M_PASSED) = 0;
    B(board, META, M_LIMIT) = (board_t)setup->turn_limit;
    B(board, META, M_FIRST) = (board_t)first_player;
    B(board, META, M_RULES) = (board_t)setup->flags;
}

#endif
