/* Ligretto's engine in C: the numbers every part shares, and the integer helpers.
 *
 * The same rounds as the numba kernels (ligretto.compiled's round loop, ligretto.policy,
 * ligretto.timing, ligretto.rng): the same splitmix64 streams drawn in the same order, the
 * same decisions and the same float64 arithmetic (one division per reaction time), so a seed
 * pair plays the same round on either path (tests/test_ligretto_c.py compares them event by
 * event). Every number below is one of ligretto.rules, ligretto.policy, ligretto.rng,
 * ligretto.timing or ligretto.round_state; the tests check each against its Python source.
 *
 * One translation unit (engine.c includes the rest), so the compiler inlines across parts.
 */
#ifndef LIGRETTO_RULES_H
#define LIGRETTO_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ligretto.rules */
#define N_COLOURS 4
#define N_VALUES 10
#define SET_SIZE 40
#define STACK_SIZE 10
#define FLIP_COUNT 3
#define MIN_PLAYERS 2
#define MAX_PLAYERS 12
#define MAX_PILES 48
#define MAX_HAND 27
#define STACK_PENALTY 2
#define MAX_ROUND_MS 600000
#define MAX_ACTIONS 2000000
#define ENDED_BLOCKADE -1
#define ENDED_UNFINISHED -2

/* ligretto.rng */
#define PURPOSES 16
#define DEAL 0
#define TIME 1
#define RECYCLE 2
#define POLICY 3

/* ligretto.round_state */
#define N_STREAMS 4
#define ROW_SLOTS 5

/* ligretto.timing */
#define T_SPEED 0
#define T_THINK 1
#define T_LOOK 2
#define T_FLIP 3
#define T_SPREAD 4
#define NEVER_MS 4611686018427387904

/* ligretto.policy */
#define P_ORDER 5
#define P_CAUTIOUS 6
#define P_PATIENCE 7
#define N_PARAMS 8
#define ORDER_STACK 0
#define ORDER_ROW 1
#define ORDER_HAND 2
#define ORDER_SCAN 3
#define K_STACK 0
#define K_ROW 1
#define K_HAND 2
#define K_FLIP 3
#define K_RECYCLE 4
#define K_FAIL 5
#define K_WAIT 6
#define NO_TARGET -2

/* What a call reports besides its results: numba raises ZeroDivisionError where a reaction
 * time divides by a speed of 0 or draws below 0 (a spread of -1); C stops the round. */
#define OK 0
#define ERR_ZERO_DIVISION 1
#define ERR_BAD_INPUT 2

/* numba's int64 arithmetic wraps; C's signed overflow is undefined: sums that a parameter
 * vector could push past int64 go through uint64 (gcc converts back modulo 2^64). */
static inline int64_t wadd(int64_t a, int64_t b) { return (int64_t)((uint64_t)a + (uint64_t)b); }
static inline int64_t wsub(int64_t a, int64_t b) { return (int64_t)((uint64_t)a - (uint64_t)b); }
static inline int64_t wmul(int64_t a, int64_t b) { return (int64_t)((uint64_t)a * (uint64_t)b); }

/* np.int64(x) of a float64 as numba's code does it: truncation toward zero; for NaN and
 * values outside int64 (a plain C cast is undefined there) what the machine's instruction
 * gives: INT64_MIN on x86-64 (cvttsd2si), saturation with NaN 0 elsewhere (aarch64 fcvtzs). */
static inline int64_t f2i(double x) {
    if (x >= -9223372036854775808.0 && x < 9223372036854775808.0) return (int64_t)x;
#if defined(__x86_64__) || defined(_M_X64) || defined(__i386__)
    return INT64_MIN;
#else
    if (x != x) return 0;
    return x > 0 ? INT64_MAX : INT64_MIN;
#endif
}

/* The card's bit in a card mask (nb_bit). */
static inline uint64_t bit(int64_t card) { return (uint64_t)1 << (uint64_t)card; }

#endif
