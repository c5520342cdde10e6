/* The round's random streams (ligretto.rng over gamekit.seeding): Vigna's splitmix64.
 *
 * Stream (seat, purpose) under a seed starts at splitmix64_at(seed, seat + PURPOSES *
 * purpose); each draw adds GAMMA to the state and mixes it (engine_common.h). */
#ifndef LIGRETTO_RNG_H
#define LIGRETTO_RNG_H

#include "engine_common.h"
#include "rules.h"

/* The start state of seat's stream for purpose under seed (nb_stream_seed). */
static inline uint64_t stream_seed(uint64_t seed, int64_t seat, int64_t purpose) {
    return splitmix64_at(seed, seat + PURPOSES * purpose);
}

/* Advance stream states[i] and return 64 random bits (nb_next). */
static inline uint64_t next(uint64_t *states, int64_t i) {
    states[i] += GAMMA;
    return mix64(states[i]);
}

/* An int in 0..n-1 from stream states[i] (nb_below); n > 0 (n as uint64, as numba takes it). */
static inline int64_t below(uint64_t *states, int64_t i, int64_t n) {
    return (int64_t)(next(states, i) % (uint64_t)n);
}

/* Fisher-Yates of cards[:length] in place with stream states[i] (nb_shuffle). */
static inline void shuffle(int64_t *cards, int64_t length, uint64_t *states, int64_t i) {
    for (int64_t k = length - 1; k > 0; k--) {
        int64_t j = below(states, i, k + 1);
        int64_t tmp = cards[k];
        cards[k] = cards[j];
        cards[j] = tmp;
    }
}

#endif
