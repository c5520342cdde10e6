/* The 13 Leaves engine in C: the board's layout, the kernel RNG and what every part shares.
 *
 * The same games as the numba kernels (leaves.kernels, leaves.deal_kernels, the built-in
 * policies and the games loop): the same board (int32[BOARD_ROWS][N_VALUES], row-major),
 * the same xoshiro256** stream seeded through splitmix64, the same float64 arithmetic in the
 * same order (built with -ffp-contract=off: no fused multiply-add may change a score), so
 * a seed plays the same game on either path (tests/test_engine_c.py compares them).
 * Every number here is one of leaves.board, leaves.rules, leaves.players.policy.counting or
 * strategies.policy.params; tests/test_engine_c.py checks each against its Python source.
 *
 * One translation unit (engine.c includes the rest), so the compiler inlines across parts.
 */
#ifndef LEAVES_ENGINE_H
#define LEAVES_ENGINE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine_common.h"

/* leaves.rules */
#define N_VALUES 13
#define MAX_COPIES 8
#define TAKE_BASE 104
#define PASS_ID 117
#define N_ACTION_IDS 118
#define MAX_DECK 104

/* leaves.board */
#define MAX_SEATS 6
#define SEAT_SLOTS 8
#define HANDS 0
#define TABLE 6
#define REMOVED 7
#define UNDEALT 8
#define KNOWN 9
#define META 15
#define DECK_ROW 16
#define BOARD_ROWS 17
#define M_CUR 0
#define M_WINNER 1
#define M_TURN 2
#define M_ROUND 3
#define M_LO 4
#define M_HI 5
#define M_N 6
#define M_PASSED 7
#define M_LIMIT 8
#define M_FIRST 9
#define M_RULES 10
#define NO_MIN 1
#define TAKE_ENDS 1
#define TAKE_NOTHING 2

/* strategies.policy.params and leaves.players.policy.counting */
#define N_PARAMS 12
#define WORK_SIZE 160

/* Cell (row, value) of a board. */
#define B(board, row, col) ((board)[(row) * N_VALUES + (col)])

typedef int32_t board_t; /* a board is board_t[BOARD_ROWS * N_VALUES] */

static inline int64_t imin(int64_t a, int64_t b) { return a < b ? a : b; }
static inline int64_t imax(int64_t a, int64_t b) { return a > b ? a : b; }
static inline int64_t iabs(int64_t a) { return a < 0 ? -a : a; }

/* ------------------------------------------------------------------ RNG (gamekit.rng) */
/* Reset the xoshiro256** state s (uint64[4]) to rng_new(seed)'s. */
static inline void rng_seed(uint64_t *s, uint64_t seed) {
    for (int i = 0; i < 4; i++) s[i] = splitmix64_at(seed, (uint64_t)i);
}

static inline uint64_t rotl64(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

/* Next uint64 of the stream s (advances s). */
static inline uint64_t rng_next(uint64_t *s) {
    uint64_t result = rotl64(s[1] * 5, 7) * 9;
    uint64_t t = s[1] << 17;
    s[2] ^= s[0];
    s[3] ^= s[1];
    s[1] ^= s[2];
    s[0] ^= s[3];
    s[2] ^= t;
    s[3] = rotl64(s[3], 45);
    return result;
}

/* A float64 uniform on [0, 1) from the top 53 bits of one draw. */
static inline double rng_uniform(uint64_t *s) {
    return (double)(rng_next(s) >> 11) * (1.0 / 9007199254740992.0);
}

/* An int64 uniform on 0..n-1 (1 <= n < 2**32): Lemire's method, exact by rejection. */
static inline int64_t rng_below(uint64_t *s, int64_t n) {
    uint64_t nn = (uint64_t)n;
    uint64_t m = (rng_next(s) >> 32) * nn;
    uint64_t low = m & 0xFFFFFFFFULL;
    if (low < nn) {
        uint64_t t = ((1ULL << 32) - nn) % nn;
        while (low < t) {
            m = (rng_next(s) >> 32) * nn;
            low = m & 0xFFFFFFFFULL;
        }
    }
    return (int64_t)(m >> 32);
}

#endif
