/* Ligretto's round loop in C, and what the library exports to Python (ligretto.cengine,
 * through ctypes: every export takes plain values and pointers, and ctypes releases the GIL
 * while it runs, so threads play rounds in parallel).
 *
 * The loop is ligretto.compiled's: each seat holds one pending action, decided from what it
 * saw when its previous action resolved and due after the reaction time it drew; the
 * earliest due action resolves next (equal times: the smaller seeded tie key). A play whose
 * pile no longer takes the card fails. The round ends when a stack empties, at a blockade, or
 * past MAX_ROUND_MS / MAX_ACTIONS. */
#include "policy.h"
#include "rng.h"
#include "round.h"
#include "rules.h"

/* The seat whose action is due first (equal times: the smaller tie key). */
static inline int64_t next_seat(const Schedule *p, int64_t n) {
    int64_t s = 0;
    for (int64_t q = 1; q < n; q++)
        if (p->time[q] < p->time[s] || (p->time[q] == p->time[s] && p->key[q] < p->key[s]))
            s = q;
    return s;
}

/* Resolve seat s's play: it lands or fails (a faster seat took the pile); the seat that
 * ended the round, ENDED_BLOCKADE, or ENDED_UNFINISHED. */
static int64_t play(Round *r, const Schedule *p, int64_t s, int64_t t) {
    int64_t card = p->card[s];
    int64_t target = p->pile[s];
    if (!fits(r, card, target)) {
        r->idle[s] += 1;
        r->fails += 1;
        event(r, t, s, K_FAIL, card, target);
        return ENDED_UNFINISHED;
    }
    target = place(r, card, target);
    take(r, s, p->kind[s], p->slot[s], card);
    r->plays += 1;
    event(r, t, s, p->kind[s], card, target);
    if (r->spos[s] == STACK_SIZE) return s;
    if (blockade(r)) return ENDED_BLOCKADE;
    return ENDED_UNFINISHED;
}

/* Seat s turns up to FLIP_COUNT hand cards, first recycling a used-up hand. */
static void flip(Round *r, int64_t s, int64_t t) {
    if (r->hpos[s] == r->hlen[s]) {
        int64_t m = r->hplen[s];
        for (int64_t i = 0; i < m; i++) r->hand[s][i] = r->hp[s][i];
        shuffle(r->hand[s], m, r->states, s * N_STREAMS + RECYCLE);
        r->hpos[s] = 0;
        r->hlen[s] = m;
        r->hplen[s] = 0;
        event(r, t, s, K_RECYCLE, -1, -1);
    }
    int64_t left = r->hlen[s] - r->hpos[s];
    int64_t m = left < FLIP_COUNT ? left : FLIP_COUNT;
    for (int64_t i = 0; i < m; i++) {
        r->hp[s][r->hplen[s]] = r->hand[s][r->hpos[s]];
        r->hplen[s] += 1;
        r->hpos[s] += 1;
    }
    r->idle[s] += 1;
    r->flips += 1;
    event(r, t, s, K_FLIP, -1, -1);
}

/* Resolve seat s's pending action at time t; how the round stands (play). */
static int64_t resolve(Round *r, const Schedule *p, int64_t s, int64_t t) {
    int64_t kind = p->kind[s];
    if (kind <= K_HAND) return play(r, p, s, t);
    if (kind == K_FLIP)
        flip(r, s, t);
    else
        r->idle[s] += 1;
    return ENDED_UNFINISHED;
}

/* Seat s decides at time t (what it sees now) and its action is timed. */
static void schedule(Round *r, Schedule *p, int64_t s, int64_t t) {
    int64_t spos = r->spos[s], hplen = r->hplen[s];
    Own own = {
        spos < STACK_SIZE ? r->stack[s][spos] : -1,
        r->row[s],
        r->k,
        hplen > 0 ? r->hp[s][hplen - 1] : -1,
        r->hlen[s] > r->hpos[s] || hplen > 0,
        r->idle[s],
    };
    Piles piles = {(const int64_t(*)[N_VALUES + 2])r->want_cnt, r->pile_col, r->pile_top,
                   r->n_piles};
    const double *policy = r->params + s * N_PARAMS;
    Decision d = decide(policy, &piles, &own, r->states, s * N_STREAMS + POLICY);
    int64_t ti = s * N_STREAMS + TIME;
    int64_t dt = duration(policy, d.looked, d.kind == K_FLIP, r->states, ti);
    if (dt == 0) r->err = ERR_ZERO_DIVISION;
    p->time[s] = wadd(t, dt);
    p->key[s] = next(r->states, ti);
    p->kind[s] = d.kind;
    p->slot[s] = d.slot;
    p->card[s] = d.card;
    p->pile[s] = d.pile;
}

/* Resolve actions in time order until the round ends: ended_by, the end time in *end. */
static int64_t run(Round *r, Schedule *p, int64_t *end) {
    *end = 0;
    if (blockade(r)) return ENDED_BLOCKADE;
    for (int64_t s = 0; s < r->n; s++) {
        schedule(r, p, s, 0);
        if (r->err) return ENDED_UNFINISHED;
    }
    int64_t ended = ENDED_UNFINISHED;
    int64_t t = 0;
    int64_t actions = 0;
    while (ended == ENDED_UNFINISHED && actions < MAX_ACTIONS) {
        actions++;
        int64_t s = next_seat(p, r->n);
        if (p->time[s] > MAX_ROUND_MS) { /* stopped at the limit: it lasted that long */
            t = MAX_ROUND_MS;
            break;
        }
        t = p->time[s];
        ended = resolve(r, p, s, t);
        if (ended == ENDED_UNFINISHED) {
            schedule(r, p, s, t);
            if (r->err) break;
        }
    }
    *end = t;
    return ended;
}

/* Play one round (nb_round): out receives per seat s score[s], stack_left[n+s],
 * centre[2n+s], then ended_by, end time, plays, flips, fails, events counted; the events go
 * to ev (cap rows of [time, seat, kind, card, pile]) when record. Returns OK or ERR_*. */
static int64_t play_round(const double *params, int64_t n, int64_t k, uint64_t deal_seed,
                          uint64_t play_seed, int64_t *ev, int64_t cap, bool record,
                          int64_t *out) {
    if (n < MIN_PLAYERS || n > MAX_PLAYERS || k < 1 || k > ROW_SLOTS) return ERR_BAD_INPUT;
    Round r;
    Schedule p;
    r.ev = ev;
    r.cap = ev ? cap : 0;
    r.record = record;
    new_round(&r, params, n, k, deal_seed, play_seed);
    int64_t t;
    int64_t ended = run(&r, &p, &t);
    if (r.err) return r.err;
    for (int64_t s = 0; s < n; s++) {
        int64_t left = STACK_SIZE - r.spos[s];
        out[s] = r.centre[s] - STACK_PENALTY * left;
        out[n + s] = left;
        out[2 * n + s] = r.centre[s];
    }
    out[3 * n] = ended;
    out[3 * n + 1] = t;
    out[3 * n + 2] = r.plays;
    out[3 * n + 3] = r.flips;
    out[3 * n + 4] = r.fails;
    out[3 * n + 5] = r.n_events;
    return OK;
}

EXPORT const char *engine_key(void) { return ENGINE_KEY; }

/* One round, as ligretto.compiled.nb_round (plus ev's row count cap). */
EXPORT int64_t ligretto_round(const double *params, int64_t n, int64_t k, uint64_t deal_seed,
                              uint64_t play_seed, int64_t *ev, int64_t cap, int64_t record,
                              int64_t *out) {
    return play_round(params, n, k, deal_seed, play_seed, ev, cap, record != 0, out);
}

/* One round per seed pair at one table (ligretto.compiled._batch): out is (g, 3n + 6). */
EXPORT int64_t ligretto_batch(const double *params, int64_t n, int64_t k,
                              const uint64_t *deal_seeds, const uint64_t *play_seeds, int64_t g,
                              int64_t *out) {
    for (int64_t i = 0; i < g; i++) {
        int64_t err = play_round(params, n, k, deal_seeds[i], play_seeds[i], NULL, 0, false,
                                 out + i * (3 * n + 6));
        if (err) return err;
    }
    return OK;
}

/* The policy's decision from a view's plain values (ligretto.policy._decide_seen): the
 * centre's pile top cards, the own row of k, own tops, the policy stream's state (advanced
 * in place); out receives kind, slot, card, pile, looked. ERR_BAD_INPUT (nothing drawn) for
 * a card id past the last card or more piles than a round holds: numba reads past its arrays
 * there, the caller asks numba. */
EXPORT int64_t ligretto_decide_seen(const double *params, const int64_t *tops, int64_t n_tops,
                                    const int64_t *row, int64_t k, int64_t stack_top,
                                    int64_t hand_top, int64_t can_flip, int64_t idle,
                                    uint64_t *state, int64_t *out) {
    int64_t want[N_COLOURS][N_VALUES + 2] = {{0}};
    int64_t colour[MAX_PILES], top[MAX_PILES];
    if (n_tops < 0 || n_tops > MAX_PILES) return ERR_BAD_INPUT;
    for (int64_t i = 0; i < n_tops; i++) {
        if (tops[i] < 0 || tops[i] >= SET_SIZE) return ERR_BAD_INPUT;
        colour[i] = tops[i] / N_VALUES;
        top[i] = tops[i] % N_VALUES + 1;
        if (top[i] < N_VALUES) want[colour[i]][top[i] + 1] += 1;
    }
    if (stack_top >= SET_SIZE || hand_top >= SET_SIZE) return ERR_BAD_INPUT;
    for (int64_t j = 0; j < k; j++)
        if (row[j] >= SET_SIZE) return ERR_BAD_INPUT;
    Piles piles = {(const int64_t(*)[N_VALUES + 2])want, colour, top, n_tops};
    Own own = {stack_top, row, k, hand_top, can_flip != 0, idle};
    Decision d = decide(params, &piles, &own, state, 0);
    out[0] = d.kind;
    out[1] = d.slot;
    out[2] = d.card;
    out[3] = d.pile;
    out[4] = d.looked;
    return OK;
}

/* The start state of seat's stream for purpose under seed (ligretto.rng.stream_seed). */
EXPORT uint64_t ligretto_stream_seed(uint64_t seed, int64_t seat, int64_t purpose) {
    return stream_seed(seed, seat, purpose);
}

/* splitmix64's output function (a SplitMix draw mixes its advanced state with it). */
EXPORT uint64_t ligretto_mix64(uint64_t z) { return mix64(z); }
