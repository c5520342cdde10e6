/* A plain C reference engine for random play of 13 Leaves: the yardstick for the compiled
 * (numba) kernels. It plays exactly the games of leaves.kernels.random_games(n, hand, games,
 * seed, limit): one xoshiro256** stream (splitmix64-seeded) for every deal and decision,
 * Fisher-Yates deals, Lemire draws, uniform choice over the legal action ids in increasing
 * order. The table is a bitmask of non-empty stacks, so its ends are the lowest and highest
 * set bits and a take that empties an end moves it inward for free; legal plays are counted
 * per value and the drawn one is found without building a list.
 *
 * Not part of the package: benchmarks/bench_all.py compiles it with `cc -O2` when a C
 * compiler is present and checks its totals equal the numba kernels' before timing it.
 *
 * usage: ref_engine PLAYERS HAND_SIZE GAMES SEED TURN_LIMIT REPEATS
 * prints: best_seconds sum_turns sum_rounds sum_winner_plus_one
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static const int DECK[13] = {2, 3, 4, 5, 6, 7, 8, 7, 6, 5, 4, 3, 2};

typedef struct { uint64_t s[4]; } rng_t;

static uint64_t splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static void rng_new(rng_t *r, uint64_t seed) {
    for (int i = 0; i < 4; i++) r->s[i] = splitmix(&seed);
}

static inline uint64_t rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

static inline uint64_t rng_next(rng_t *r) {
    uint64_t *s = r->s;
    uint64_t result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;
    s[2] ^= s[0]; s[3] ^= s[1]; s[1] ^= s[2]; s[0] ^= s[3]; s[2] ^= t;
    s[3] = rotl(s[3], 45);
    return result;
}

static inline int64_t rng_below(rng_t *r, uint64_t n) { /* Lemire, exact by rejection */
    uint64_t m = (rng_next(r) >> 32) * n, low = m & 0xFFFFFFFFULL;
    if (low < n) {
        uint64_t t = ((1ULL << 32) - n) % n;
        while (low < t) { m = (rng_next(r) >> 32) * n; low = m & 0xFFFFFFFFULL; }
    }
    return (int64_t)(m >> 32);
}

typedef struct {
    int n, cur, winner, turn, round, npassed, limit;
    unsigned passed, mask; /* mask: bit v set when the table has a stack of value v */
    int hand[6][13], size[6], table[13];
} game_t;

static int next_seat(const game_t *g, int p) {
    for (int step = 1; step <= g->n; step++) {
        int q = (p + step) % g->n;
        if (!(g->passed >> q & 1)) return q;
    }
    return p;
}

static void deal(game_t *g, int n, int hand, rng_t *r, int limit) {
    int deck[62], pos = 0;
    for (int v = 0; v < 13; v++)
        for (int c = 0; c < DECK[v]; c++) deck[pos++] = v;
    for (int i = 61; i > 0; i--) {
        int j = (int)rng_below(r, (uint64_t)i + 1), t = deck[i];
        deck[i] = deck[j]; deck[j] = t;
    }
    for (int p = 0; p < 6; p++) { g->size[p] = 0; for (int v = 0; v < 13; v++) g->hand[p][v] = 0; }
    for (int v = 0; v < 13; v++) g->table[v] = 0;
    pos = 0;
    for (int p = 0; p < n; p++)
        for (int c = 0; c < hand; c++) { g->hand[p][deck[pos++]]++; g->size[p]++; }
    g->n = n; g->cur = (int)rng_below(r, (uint64_t)n); g->winner = -1; g->turn = 0;
    g->round = 1; g->npassed = 0; g->passed = 0; g->mask = 0; g->limit = limit;
}

static int random_action(const game_t *g, rng_t *r) { /* legal[rng_below(n_legal)] */
    const int *h = g->hand[g->cur];
    if (!g->mask) { /* empty table: any count of any value held */
        int64_t x = rng_below(r, (uint64_t)g->size[g->cur]);
        for (int v = 0;; v++) { if (x < h[v]) return v * 8 + (int)x; x -= h[v]; }
    }
    int lo = __builtin_ctz(g->mask), hi = 31 - __builtin_clz(g->mask);
    int a = g->table[lo], b = g->table[hi], start = hi > lo ? hi : lo + 1;
    int cnt[13], total = 0;
    for (int v = 0; v < 13; v++) {
        int need = v <= lo ? a : b, c = h[v] - need + 1;
        cnt[v] = ((v <= lo) | (v >= start)) & (c > 0) ? c : 0;
        total += cnt[v];
    }
    int64_t x = rng_below(r, (uint64_t)(total + __builtin_popcount(g->mask)));
    for (int v = 0; v < 13; v++) {
        if (x < cnt[v]) return v * 8 + (v <= lo ? a : b) - 1 + (int)x;
        x -= cnt[v];
    }
    unsigned m = g->mask; /* the x-th non-empty stack, lowest first */
    while (x--) m &= m - 1;
    return 104 + __builtin_ctz(m);
}

static void apply(game_t *g, int aid) {
    int p = g->cur, q;
    if (aid >= 104) {
        int v = aid - 104;
        if (--g->table[v] == 0) g->mask &= ~(1u << v);
        g->hand[p][v]++; g->size[p]++;
        g->passed |= 1u << p;
        if (++g->npassed >= g->n - 1) { /* round end: the one left leads a fresh table */
            q = __builtin_ctz(~g->passed);
            for (int u = 0; u < 13; u++) g->table[u] = 0;
            g->mask = 0; g->passed = 0; g->npassed = 0; g->round++;
        } else {
            q = next_seat(g, p);
        }
    } else {
        int v = aid >> 3, k = (aid & 7) + 1;
        g->hand[p][v] -= k; g->size[p] -= k;
        g->table[v] += k; g->mask |= 1u << v;
        if (g->size[p] == 0) { g->winner = p; q = p; } else q = next_seat(g, p);
    }
    g->cur = q;
    g->turn++;
}

int main(int argc, char **argv) {
    if (argc != 7) {
        fprintf(stderr, "usage: %s PLAYERS HAND_SIZE GAMES SEED TURN_LIMIT REPEATS\n", argv[0]);
        return 2;
    }
    int n = atoi(argv[1]), hand = atoi(argv[2]), limit = atoi(argv[5]), repeats = atoi(argv[6]);
    long games = atol(argv[3]);
    uint64_t seed = strtoull(argv[4], NULL, 10);
    double best = 1e300;
    long long st = 0, sr = 0, sw = 0;
    for (int rep = 0; rep < repeats; rep++) {
        struct timespec t0, t1;
        clock_gettime(CLOCK_MONOTONIC, &t0);
        rng_t r; game_t g;
        rng_new(&r, seed);
        st = sr = sw = 0;
        for (long i = 0; i < games; i++) {
            deal(&g, n, hand, &r, limit);
            while (g.winner < 0 && g.turn < g.limit) apply(&g, random_action(&g, &r));
            st += g.turn; sr += g.round; sw += g.winner + 1;
        }
        clock_gettime(CLOCK_MONOTONIC, &t1);
        double s = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
        if (s < best) best = s;
    }
    printf("%.6f %lld %lld %lld\n", best, st, sr, sw);
    return 0;
}
