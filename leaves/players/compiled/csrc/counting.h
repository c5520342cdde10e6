/* Card counting for counter and weighted (leaves.players.policy.counting): how many cards of each
 * value an opponent in the round might hold, kept up to date through a game instead of
 * recounted at each decision.
 *
 * A seat's count is AVAIL[u] = PUB[u] - own[u] + KNOWN[seat][u] + BEST[u], where
 * PUB[u] = DECK[u] - TABLE[u] - REMOVED[u] - sum_i KNOWN[i][u] is the same for every seat and
 * changes only when a play puts cards on the table that were not known in the player's hand.
 * count_start computes PUB and KNOWN_N from a board, count_action follows the action about to
 * be applied, and LIVE says they follow the board: the games loop sets it for the game it
 * plays and clears it on return, so every other caller recounts from its board.
 *
 * work is the int64[WORK_SIZE] scratch buffer the policies share; its rows are laid out here.
 */
#ifndef LEAVES_COUNTING_H
#define LEAVES_COUNTING_H

#include "engine.h"

#define MASKS 80    /* work[MASKS + s], 0 <= s <= MAX_COPIES + 1: bit u set when AVAIL[u] >= s */
#define PUB 96      /* work[PUB + u]: cards of value u nobody has seen placed (while LIVE) */
#define KNOWN_N 112 /* work[KNOWN_N + i]: cards publicly known in seat i's hand (while LIVE) */
#define LIVE 120    /* work[LIVE] == 1 while PUB and KNOWN_N follow the board being played */
#define AVAIL 128   /* work[AVAIL + u]: count of value u an opponent in the round might hold */
#define BEST 144    /* work[BEST + u]: most of value u one opponent in the round is known to hold */

#if MASKS + MAX_COPIES + 2 > PUB || KNOWN_N + MAX_SEATS > LIVE || LIVE >= AVAIL || \
    BEST + N_VALUES > WORK_SIZE
#error "counting rows overlap"
#endif

/* Compute the counting rows from board and mark them LIVE. */
static inline void count_start(const board_t *board, int64_t *work) {
    int64_t n = B(board, META, M_N);
    for (int64_t u = 0; u < N_VALUES; u++)
        work[PUB + u] = (int64_t)B(board, DECK_ROW, u) - B(board, TABLE, u) - B(board, REMOVED, u);
    for (int64_t i = 0; i < n; i++) {
        int64_t total = 0;
        for (int64_t u = 0; u < N_VALUES; u++) {
            int64_t kn = B(board, KNOWN + i, u);
            work[PUB + u] -= kn;
            total += kn;
        }
        work[KNOWN_N + i] = total;
    }
    work[LIVE] = 1;
}

/* Update the rows for action aid of the seat to act, just before it is applied (a play
 * reads which of its cards were known). */
static inline void count_action(const board_t *board, int64_t aid, int64_t *work) {
    int64_t p = B(board, META, M_CUR);
    if (aid >= TAKE_BASE) {
        if (aid != PASS_ID) work[KNOWN_N + p] += 1; /* the card leaves the table, known in hand */
    } else {
        int64_t v = aid >> 3;
        int64_t k = (aid & 7) + 1;
        int64_t shown = imin(B(board, KNOWN + p, v), k); /* known cards are played first */
        work[KNOWN_N + p] -= shown;
        work[PUB + v] -= k - shown;
    }
}

/* The rows no longer follow a board: policies recount from theirs. */
static inline void count_stop(int64_t *work) { work[LIVE] = 0; }

/* work[MASKS + s]: the values u with AVAIL[u] >= s, one bit each, for 0 <= s <= MAX_COPIES + 1
 * (none reaches the last): the threat against an end is then a mask and a bit count. */
static inline void fill_masks(int64_t *work) {
    for (int64_t s = 0; s < MAX_COPIES + 2; s++) work[MASKS + s] = 0;
    for (int64_t u = 0; u < N_VALUES; u++) {
        int64_t c = imin(imax(work[AVAIL + u], 0), MAX_COPIES + 1);
        work[MASKS + c] |= (int64_t)1 << u;
    }
    for (int64_t s = MAX_COPIES; s >= 0; s--) work[MASKS + s] |= work[MASKS + s + 1];
}

/* work[AVAIL + u]: cards of value u an opponent in the round might hold (unseen cards plus the
 * most one opponent still in the round is known to hold), and fill_masks. From the LIVE rows
 * when they follow the board, else counted from the board: the same counts either way.
 * Not inlined: its vectorized loops in every policy's scan made the scans slower (measured:
 * weighted 131 -> 125 ns a turn, the ismcts defaults 4% less CPU a decision). */
__attribute__((noinline)) static void fill_avail(const board_t *board, int64_t seat,
                                                 int64_t *work) {
    int64_t n = B(board, META, M_N);
    int64_t mask = B(board, META, M_PASSED);
    for (int64_t u = 0; u < N_VALUES; u++) work[BEST + u] = 0;
    if (work[LIVE] == 1) {
        for (int64_t i = 0; i < n; i++) {
            if (i != seat && !((mask >> i) & 1) && work[KNOWN_N + i] > 0) {
                for (int64_t u = 0; u < N_VALUES; u++)
                    work[BEST + u] = imax(work[BEST + u], B(board, KNOWN + i, u));
            }
        }
        for (int64_t u = 0; u < N_VALUES; u++) {
            int64_t own = (int64_t)B(board, KNOWN + seat, u) - B(board, HANDS + seat, u);
            work[AVAIL + u] = work[PUB + u] + own + work[BEST + u];
        }
        fill_masks(work);
        return;
    }
    for (int64_t u = 0; u < N_VALUES; u++)
        work[AVAIL + u] = (int64_t)B(board, DECK_ROW, u) - B(board, HANDS + seat, u) -
                          B(board, TABLE, u) - B(board, REMOVED, u);
    for (int64_t i = 0; i < n; i++) {
        if (i == seat) continue;
        if ((mask >> i) & 1) {
            for (int64_t u = 0; u < N_VALUES; u++) work[AVAIL + u] -= B(board, KNOWN + i, u);
        } else {
            for (int64_t u = 0; u < N_VALUES; u++) {
                int64_t kn = B(board, KNOWN + i, u);
                work[AVAIL + u] -= kn;
                work[BEST + u] = imax(work[BEST + u], kn);
            }
        }
    }
    for (int64_t u = 0; u < N_VALUES; u++) work[AVAIL + u] += work[BEST + u];
    fill_masks(work);
}

/* Set bits of x (0 <= x < 2**62): the SWAR count, as counting.popcount. */
static inline int64_t popcount(int64_t x) {
    uint64_t y = (uint64_t)x;
    y = y - ((y >> 1) & 0x5555555555555555ULL);
    y = (y & 0x3333333333333333ULL) + ((y >> 2) & 0x3333333333333333ULL);
    y = (y + (y >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int64_t)((y * 0x0101010101010101ULL) >> 56);
}

#endif
