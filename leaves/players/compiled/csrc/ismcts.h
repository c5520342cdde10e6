/* The ismcts search in C: leaves.players.ismcts' kernels (unseen, carry, inference, tree) step for
 * step, so that a decision compiles nothing at first use and searches exactly as numba does:
 * the same RNG draws in the same order, the same decisions, the same float64 sums. One
 * shortcut is C's own and changes none of these: a leaf reached again while the deal chain
 * stays on one deal reuses that leaf's playout (ism_cached_playout), when every policy is
 * deterministic and so the playout would be the same game again.
 *
 * Included at the end of engine.c (it uses play_to_end, Table, decide and EXPORT from there).
 * The exports (engine_ismcts_*) take the arrays of leaves.players.ismcts' namedtuples as the
 * structs below (mirrored by leaves.players.ismcts.cengine); each Python kernel's name is given
 * where it is ported. Every array is C-contiguous, boards int32[BOARD_ROWS][N_VALUES].
 */
#ifndef LEAVES_ISMCTS_H
#define LEAVES_ISMCTS_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "engine.h"
#include "legal.h"
#include "rules.h"

/* inference.S_*: the counters of stats[N_STATS] */
#define S_NODES 0
#define S_ITERS 1
#define S_REJECTS 2
#define S_BAD 3
#define S_SEAT_BAD 4
#define N_STATS (S_SEAT_BAD + SEAT_SLOTS)
#define ISM_HARD 1e6                        /* inference.HARD */
#define ISM_MAX_SLACK ((int64_t)1 << 20)    /* inference._MAX_SLACK */
#define ISM_NO_LIMIT ((int64_t)1 << 30)     /* inference._NO_LIMIT */
#define ISM_MEMO_BITS 14                    /* inference.MEMO_BITS */
#define ISM_EVAL_BETA 0.4                   /* settings.EVAL_BETA */
#define ISM_MAX_DEPTH 1100                  /* settings.MAX_DEPTH */
#define ISM_CHECK_EVERY 16                  /* tree._CHECK_EVERY */
#define CELLS (BOARD_ROWS * N_VALUES)
#define ISM_CACHE_SLOTS 16                  /* leaves whose playout a repeated deal reuses */

/* ------------------------------------------------------------------ the structs */

/* evidence.Evidence: decision e was actions[e] by seats[e] on boards[e] (hand rows zero;
 * a question writes the seat's row and zeroes it again) with public sizes sizes[e]. */
typedef struct {
    board_t *boards;        /* (E, BOARD_ROWS, N_VALUES) */
    const int64_t *sizes;   /* (E, SEAT_SLOTS) */
    const int64_t *seats;   /* (E,) */
    const int64_t *actions; /* (E,) */
    const int64_t *offsets; /* (E, N_VALUES) */
    const int64_t *starts;  /* (SEAT_SLOTS + 1,) */
    int64_t n;              /* E */
} IsmEvidence;

/* inference.Position */
typedef struct {
    const board_t *pub;
    int64_t seat;
    const int64_t *sizes; /* (SEAT_SLOTS,) */
} IsmPosition;

/* inference.Models: a policy per seat */
typedef struct {
    const int64_t *kinds; /* (SEAT_SLOTS,) */
    const double *params; /* (SEAT_SLOTS, N_PARAMS) */
} IsmModels;

/* inference.Memo (size 0: no memo) */
typedef struct {
    int64_t *keys;
    int64_t *vals;
    int64_t size; /* a power of two, or 0 */
} IsmMemo;

/* tree.Tree */
typedef struct {
    int64_t *first_child;
    int64_t *next_sibling;
    int64_t *action;
    int64_t *actor;
    double *visits;
    double *avail;
    double *total;
    int64_t capacity;
} IsmTree;

/* settings.Config (booleans as 0/1) */
typedef struct {
    double c;
    double shaping;
    int64_t rollout_depth;
    double dealt;
    double infer_lambda;
    int64_t playouts;
    int64_t max_depth;
    int64_t model_opponents;
    int64_t infer_tries;
    int64_t infer_steps;
    int64_t stop_early;
    int64_t prior_action;
    double prior_visits;
    int64_t warm_deal;
    double widen;
    double stop_margin;
} IsmConfig;

/* inference.Check: what counting a deal's contradictions reads */
typedef struct {
    const IsmEvidence *ev;
    const int64_t *kinds;
    const double *params;
    uint64_t *rng;
    int64_t *work;
} IsmCheck;

/* ------------------------------------------------------------------ unseen, determinize */

/* unseen.unseen_of: cards of value v seat has not seen on pub. */
static inline int64_t ism_unseen_of(const board_t *pub, int64_t seat, int64_t v) {
    int64_t x = (int64_t)B(pub, DECK_ROW, v) - B(pub, HANDS + seat, v) - B(pub, TABLE, v) -
                B(pub, REMOVED, v);
    int64_t n = B(pub, META, M_N);
    for (int64_t i = 0; i < n; i++)
        if (i != seat) x -= B(pub, KNOWN + i, v);
    return x;
}

/* unseen.known_hand: opponent i gets just its known cards on out; returns its hidden room. */
static inline int64_t ism_known_hand(board_t *out, const board_t *pub, const int64_t *sizes,
                                     int64_t i) {
    int64_t hidden = sizes[i];
    for (int64_t v = 0; v < N_VALUES; v++) {
        B(out, HANDS + i, v) = B(pub, KNOWN + i, v);
        hidden -= B(pub, KNOWN + i, v);
    }
    return hidden;
}

/* inference.determinize: out is pub with the unseen cards dealt uniformly at random. */
static void ism_determinize(const IsmPosition *pos, uint64_t *rng, board_t *out) {
    const board_t *pub = pos->pub;
    memcpy(out, pub, sizeof(board_t) * CELLS);
    int64_t n = B(pub, META, M_N);
    int64_t pool[MAX_DECK];
    int64_t m = 0;
    for (int64_t v = 0; v < N_VALUES; v++)
        for (int64_t k = ism_unseen_of(pub, pos->seat, v); k > 0 && m < MAX_DECK; k--)
            pool[m++] = v;
    shuffle_head(pool, m, rng);
    int64_t at = 0;
    for (int64_t i = 0; i < n; i++) {
        if (i == pos->seat) continue;
        for (int64_t k = ism_known_hand(out, pub, pos->sizes, i); k > 0 && at < m; k--)
            B(out, HANDS + i, pool[at++]) += 1;
    }
    for (int64_t v = 0; v < N_VALUES; v++) B(out, UNDEALT, v) = 0;
    while (at < m) B(out, UNDEALT, pool[at++]) += 1;
}

/* ------------------------------------------------------------------ carry */

/* carry.carry_deal: out is a deal of pub keeping as much of old (a deal of an earlier position
 * of the game, since[p] what seat p played minus took from then) as still fits. */
static void ism_carry_deal(const board_t *old, const int64_t *since, const IsmPosition *pos,
                           uint64_t *rng, board_t *out) {
    const board_t *pub = pos->pub;
    int64_t seat = pos->seat;
    memcpy(out, pub, sizeof(board_t) * CELLS);
    int64_t n = B(pub, META, M_N);
    int64_t pool[N_VALUES];
    int64_t left = 0;
    for (int64_t v = 0; v < N_VALUES; v++) pool[v] = ism_unseen_of(pub, seat, v);
    for (int64_t v = 0; v < N_VALUES; v++) {
        left += pool[v];
        B(out, UNDEALT, v) = 0;
    }
    int64_t room[SEAT_SLOTS + 1] = {0}; /* hidden slots of holder h (n: the undealt) */
    for (int64_t i = 0; i < n; i++) {
        if (i == seat) continue;
        int64_t hidden = ism_known_hand(out, pub, pos->sizes, i);
        room[i] = hidden;
        left -= hidden;
    }
    room[n] = left;
    int64_t order[SEAT_SLOTS + 1];
    for (int64_t h = 0; h <= n; h++) order[h] = h;
    shuffle_head(order, n + 1, rng);
    int64_t cards[MAX_DECK];
    for (int64_t o = 0; o <= n; o++) { /* keep: each holder's old cards, moved on, while unseen */
        int64_t h = order[o];
        if (h == seat) continue;
        int64_t row = h == n ? UNDEALT : HANDS + h;
        int64_t m = 0;
        for (int64_t v = 0; v < N_VALUES; v++) {
            int64_t had = B(old, row, v);
            if (h < n) had -= since[h * N_VALUES + v] + B(pub, KNOWN + h, v);
            for (int64_t k = had; k > 0 && m < MAX_DECK; k--) cards[m++] = v;
        }
        shuffle_head(cards, m, rng);
        for (int64_t k = 0; k < m; k++) {
            if (room[h] == 0) break;
            int64_t v = cards[k];
            if (pool[v] > 0) {
                pool[v] -= 1;
                room[h] -= 1;
                B(out, row, v) += 1;
            }
        }
    }
    int64_t m = 0; /* the rest: uniformly into the room left */
    for (int64_t v = 0; v < N_VALUES; v++)
        for (int64_t k = pool[v]; k > 0 && m < MAX_DECK; k--) cards[m++] = v;
    shuffle_head(cards, m, rng);
    int64_t at = 0;
    for (int64_t h = 0; h <= n; h++) {
        if (h == seat) continue;
        int64_t row = h == n ? UNDEALT : HANDS + h;
        for (int64_t k = room[h]; k > 0 && at < m; k--) B(out, row, cards[at++]) += 1;
    }
}

/* ------------------------------------------------------------------ contradictions */

/* inference._repeats: would seats[e], holding its hand on board then, repeat decision e? */
static inline bool ism_repeats(const board_t *board, const IsmCheck *chk, int64_t e) {
    const IsmEvidence *ev = chk->ev;
    board_t *past = ev->boards + e * CELLS;
    int64_t s = ev->seats[e];
    int64_t row = HANDS + s;
    bool ok = true;
    for (int64_t v = 0; v < N_VALUES; v++) {
        int64_t x = (int64_t)B(board, row, v) + ev->offsets[e * N_VALUES + v];
        if (x < 0) ok = false;
        B(past, row, v) = (board_t)x;
    }
    bool same = ok && decide(chk->kinds[s], chk->params + s * N_PARAMS, past, s,
                             (int64_t *)(ev->sizes + e * SEAT_SLOTS), chk->rng,
                             chk->work) == ev->actions[e];
    for (int64_t v = 0; v < N_VALUES; v++) B(past, row, v) = 0;
    return same;
}

/* inference.seat_count: seat s's past decisions that would not repeat (stops at limit). */
static int64_t ism_seat_count(const board_t *board, const IsmCheck *chk, int64_t s,
                              int64_t limit) {
    int64_t bad = 0;
    for (int64_t e = chk->ev->starts[s]; e < chk->ev->starts[s + 1]; e++) {
        if (!ism_repeats(board, chk, e)) {
            bad += 1;
            if (bad >= limit) return bad;
        }
    }
    return bad;
}

static inline int64_t ism_log2(int64_t size) {
    int64_t b = 0;
    while (((int64_t)1 << b) < size) b++;
    return b;
}

/* inference.memo_count: seat_count, answered from memo when seat s held this hand before. */
static int64_t ism_memo_count(const board_t *board, const IsmCheck *chk, int64_t s,
                              int64_t limit, const IsmMemo *memo) {
    int64_t size = memo->size;
    if (size == 0) return ism_seat_count(board, chk, s, limit);
    uint64_t ukey = (uint64_t)s;
    for (int64_t v = 0; v < N_VALUES; v++)
        ukey |= (uint64_t)(int64_t)B(board, HANDS + s, v) << (3 + 4 * v);
    int64_t key = (int64_t)ukey;
    int64_t slot = (int64_t)((ukey * GAMMA) >> (64 - ism_log2(size)));
    if (memo->keys[slot] == key) {
        int64_t val = memo->vals[slot];
        int64_t count = val >> 1;
        if ((val & 1) == 1 || count >= limit) return count;
    }
    int64_t count = ism_seat_count(board, chk, s, limit);
    memo->keys[slot] = key;
    memo->vals[slot] = 2 * count + (count < limit ? 1 : 0);
    return count;
}

/* inference.mismatches: past opponent decisions that would not repeat (stops at limit). */
static int64_t ism_mismatches(const board_t *board, const IsmCheck *chk, int64_t limit) {
    int64_t bad = 0;
    for (int64_t p = 0; p < SEAT_SLOTS; p++) {
        bad += ism_seat_count(board, chk, p, limit - bad);
        if (bad >= limit) return bad;
    }
    return bad;
}

/* inference.seat_mismatches: mismatches per seat into out[SEAT_SLOTS]; returns the total. */
static int64_t ism_seat_mismatches(const board_t *board, const IsmCheck *chk, int64_t *out) {
    int64_t total = 0;
    for (int64_t p = 0; p < SEAT_SLOTS; p++) {
        out[p] = ism_seat_count(board, chk, p, ISM_NO_LIMIT);
        total += out[p];
    }
    return total;
}

/* inference.draw_deal: determinize, redrawn up to tries times while it contradicts, keeping
 * the best draw; stats[S_REJECTS] counts the redraws. */
static void ism_draw_deal(const IsmPosition *pos, const IsmCheck *chk, int64_t tries,
                          board_t *board, board_t *spare, int64_t *stats) {
    ism_determinize(pos, chk->rng, board);
    if (chk->ev->n == 0 || tries <= 1) return;
    int64_t least = ism_mismatches(board, chk, ISM_NO_LIMIT);
    int64_t t = 1;
    while (least > 0 && t < tries) {
        ism_determinize(pos, chk->rng, spare);
        int64_t bad = ism_mismatches(spare, chk, least);
        stats[S_REJECTS] += 1;
        if (bad < least) {
            least = bad;
            memcpy(board, spare, sizeof(board_t) * CELLS);
        }
        t += 1;
    }
}

/* ------------------------------------------------------------------ the deal chain */

/* inference._hidden: hidden cards of value v holder has (holder < 0: the undealt pile). */
static inline int64_t ism_hidden(const board_t *deal, const board_t *pub, int64_t holder,
                                 int64_t v) {
    if (holder < 0) return B(deal, UNDEALT, v);
    return (int64_t)B(deal, HANDS + holder, v) - B(pub, KNOWN + holder, v);
}

/* inference._pick_value: the value of a uniformly drawn one of holder's count hidden cards. */
static inline int64_t ism_pick_value(const board_t *deal, const board_t *pub, int64_t holder,
                                     int64_t count, uint64_t *rng) {
    int64_t r = rng_below(rng, count);
    int64_t v = 0;
    for (;;) {
        r -= ism_hidden(deal, pub, holder, v);
        if (r < 0) return v;
        v += 1;
    }
}

/* inference._slack: extra mismatches a step may add (an exponential draw). */
static inline int64_t ism_slack(uint64_t *rng, double lam) {
    if (lam >= ISM_HARD) return 0;
    if (lam > 0) {
        double x = -log(1.0 - rng_uniform(rng)) / lam;
        if (x > (double)ISM_MAX_SLACK) x = (double)ISM_MAX_SLACK;
        return (int64_t)x;
    }
    return ISM_MAX_SLACK;
}

static inline void ism_trade(board_t *deal, int64_t row_i, int64_t row_j, int64_t vi,
                             int64_t vj) {
    B(deal, row_i, vi) -= 1;
    B(deal, row_i, vj) += 1;
    B(deal, row_j, vj) -= 1;
    B(deal, row_j, vi) += 1;
}

/* inference.swap_step: one Metropolis step of card swaps on deal; seat_bad[p] kept up to
 * date; returns the new total of contradictions. */
static int64_t ism_swap_step(board_t *deal, const IsmPosition *pos, const IsmCheck *chk,
                             int64_t *seat_bad, double lam, const IsmMemo *memo) {
    const board_t *pub = pos->pub;
    int64_t seat = pos->seat;
    uint64_t *rng = chk->rng;
    int64_t n = B(pub, META, M_N);
    int64_t bad = 0;
    for (int64_t p = 0; p < n; p++) bad += seat_bad[p];
    int64_t i = rng_below(rng, n - 1);
    if (i >= seat) i += 1;
    int64_t j = rng_below(rng, n - 1); /* another opponent, or n - 1 for the undealt pile */
    if (j >= seat) j += 1;
    if (j == i) j = -1;
    int64_t hi = 0, hj = 0;
    for (int64_t v = 0; v < N_VALUES; v++) {
        hi += ism_hidden(deal, pub, i, v);
        hj += ism_hidden(deal, pub, j, v);
    }
    if (hi == 0 || hj == 0) return bad;
    int64_t vi = ism_pick_value(deal, pub, i, hi, rng);
    int64_t vj = ism_pick_value(deal, pub, j, hj, rng);
    if (vi == vj) return bad;
    int64_t slack = ism_slack(rng, lam);
    int64_t row_i = HANDS + i;
    int64_t row_j = j < 0 ? UNDEALT : HANDS + j;
    ism_trade(deal, row_i, row_j, vi, vj);
    int64_t rest = bad - seat_bad[i] - (j < 0 ? 0 : seat_bad[j]);
    int64_t room = bad + slack + 1 - rest;
    int64_t new_i = ism_memo_count(deal, chk, i, room, memo);
    int64_t new_j = 0;
    if (j >= 0 && new_i < room) new_j = ism_memo_count(deal, chk, j, room - new_i, memo);
    if (new_i + new_j < room) {
        seat_bad[i] = new_i;
        if (j >= 0) seat_bad[j] = new_j;
        return rest + new_i + new_j;
    }
    ism_trade(deal, row_i, row_j, vj, vi);
    return bad;
}


/* ------------------------------------------------------------------ model fitting */

/* inference.refit_models' arguments: candidate m (cand_kinds[m], cand_params[m]) models every
 * opponent in turn; fit[m][p] gets seat p's contradictions on a deal fitted to it, kept in
 * deals[m] (with warm, deals[m] starts as an earlier decision's, moved on by since). */
typedef struct {
    IsmPosition pos;
    uint64_t *rng;
    IsmEvidence ev;
    const int64_t *cand_kinds; /* (M,) */
    const double *cand_params; /* (M, N_PARAMS) */
    int64_t n_cands;           /* M */
    int64_t tries;
    int64_t steps;
    int64_t *fit;          /* (M, SEAT_SLOTS) */
    board_t *deals;        /* (M, BOARD_ROWS, N_VALUES) */
    const int64_t *since;  /* (SEAT_SLOTS, N_VALUES) */
    int64_t warm;
} IsmRefit;

/* The memo bits of a fit of steps swaps: room for every hand they see. */
static inline int64_t ism_refit_bits(int64_t steps) {
    return imin(imax(ism_log2(4 * steps), 6), ISM_MEMO_BITS);
}

/* inference.refit_models, keys and vals the memo's scratch (2**ism_refit_bits slots each). */
static void ism_refit_models(const IsmRefit *r, int64_t *keys, int64_t *vals) {
    board_t deal[CELLS], spare[CELLS];
    int64_t stats[N_STATS] = {0};
    int64_t kinds[SEAT_SLOTS];
    double params[SEAT_SLOTS * N_PARAMS];
    int64_t work[WORK_SIZE] = {0};
    IsmCheck chk = {&r->ev, kinds, params, r->rng, work};
    int64_t out[SEAT_SLOTS] = {0};
    IsmMemo memo = {keys, vals, (int64_t)1 << ism_refit_bits(r->steps)};
    for (int64_t k = 0; k < memo.size; k++) vals[k] = 0;
    for (int64_t m = 0; m < r->n_cands; m++) {
        for (int64_t k = 0; k < memo.size; k++) keys[k] = -1; /* another model: other answers */
        for (int64_t i = 0; i < SEAT_SLOTS; i++) {
            kinds[i] = r->cand_kinds[m];
            memcpy(params + i * N_PARAMS, r->cand_params + m * N_PARAMS, sizeof(double) * N_PARAMS);
        }
        ism_draw_deal(&r->pos, &chk, r->tries, deal, spare, stats);
        if (r->warm) {
            ism_carry_deal(r->deals + m * CELLS, r->since, &r->pos, r->rng, spare);
            int64_t least = ism_mismatches(deal, &chk, ISM_NO_LIMIT);
            if (ism_mismatches(spare, &chk, least + 1) <= least)
                memcpy(deal, spare, sizeof(board_t) * CELLS); /* ties: the carried deal */
        }
        int64_t bad = ism_seat_mismatches(deal, &chk, out);
        for (int64_t step = 0; step < r->steps; step++) {
            if (bad == 0) break;
            bad = ism_swap_step(deal, &r->pos, &chk, out, 2 * ISM_HARD, &memo);
        }
        for (int64_t i = 0; i < SEAT_SLOTS; i++) r->fit[m * SEAT_SLOTS + i] = out[i];
        memcpy(r->deals + m * CELLS, deal, sizeof(board_t) * CELLS);
    }
}

/* ------------------------------------------------------------------ the tree search */

/* tree.search's arguments: the position, the settings, the seats' models, the evidence, the
 * kernel RNG and the SearchState (tree, stats, the chain's deal, its memo). */
typedef struct {
    IsmPosition pos;
    IsmConfig cfg;
    IsmModels models;
    IsmEvidence ev;
    uint64_t *rng;
    IsmTree tree;
    int64_t *stats; /* (N_STATS,) */
    board_t *deal;
    IsmMemo memo;
} IsmSearch;

/* tree.Walk: one iteration's scratch */
typedef struct {
    board_t board[CELLS];
    int64_t sizes[SEAT_SLOTS];
    int64_t path[ISM_MAX_DEPTH];
    int64_t legal[N_ACTION_IDS + 8];
    int64_t untried[N_ACTION_IDS];
    bool marked[N_ACTION_IDS];
    /* the playout cache: while the deal chain stays on one deal, a leaf's rewards on it */
    board_t cached_deal[CELLS];
    int64_t n_cached; /* -1: no deal yet */
    int64_t cached_leaf[ISM_CACHE_SLOTS];
    double cached_reward[ISM_CACHE_SLOTS][SEAT_SLOTS];
} IsmWalk;

/* loops.track_size: the public hand size of seat p after its action aid. */
static inline void ism_track_size(int64_t *sizes, int64_t p, int64_t aid) {
    if (aid >= TAKE_BASE)
        sizes[p] += aid != PASS_ID ? 1 : 0;
    else
        sizes[p] -= aid % MAX_COPIES + 1;
}

/* tree.playout_rewards: the mean reward per seat of cfg->playouts playouts of board. */
static void ism_playout_rewards(const board_t *board, Table table, uint64_t *rng, int64_t *work,
                                int64_t *sizes, const IsmConfig *cfg, double *reward) {
    int64_t n = B(board, META, M_N);
    int64_t playouts = cfg->playouts;
    double shaping = cfg->shaping;
    double dealt = cfg->dealt;
    board_t tmp[CELLS];
    for (int64_t i = 0; i < n; i++) reward[i] = 0.0;
    for (int64_t k = 0; k < playouts; k++) {
        memcpy(tmp, board, sizeof(board_t) * CELLS);
        play_to_end(tmp, table, sizes, rng, work, NULL, cfg->rollout_depth);
        int64_t w = B(tmp, META, M_WINNER);
        if (w < 0 && !is_over(tmp)) { /* cut short: the cards left decide */
            double total = 0.0;
            for (int64_t i = 0; i < n; i++) total += exp(-ISM_EVAL_BETA * (double)sizes[i]);
            for (int64_t i = 0; i < n; i++)
                reward[i] += exp(-ISM_EVAL_BETA * (double)sizes[i]) / total / (double)playouts;
            continue;
        }
        for (int64_t i = 0; i < n; i++) {
            double left = (double)sizes[i] < dealt ? (double)sizes[i] : dealt;
            double r = shaping * (1.0 - left / dealt);
            if (i == w) r += 1.0 - shaping;
            reward[i] += r / (double)playouts;
        }
    }
}

/* tree._new_node: append a child of parent reached by aid taken by seat. */
static int64_t ism_new_node(const IsmTree *tree, int64_t *stats, int64_t parent, int64_t aid,
                            int64_t seat) {
    int64_t j = stats[S_NODES];
    stats[S_NODES] = j + 1;
    tree->first_child[j] = -1;
    tree->next_sibling[j] = tree->first_child[parent];
    tree->first_child[parent] = j;
    tree->action[j] = aid;
    tree->actor[j] = seat;
    tree->visits[j] = 0.0;
    tree->avail[j] = 1.0;
    tree->total[j] = 0.0;
    return j;
}

/* tree._decided: whether the most visited root child leads every other by more than left. */
static bool ism_decided(const IsmTree *tree, double left, int64_t prior_action,
                        double prior_visits) {
    double best = 0.0, second = 0.0;
    bool seen = prior_action < 0;
    for (int64_t ch = tree->first_child[0]; ch >= 0; ch = tree->next_sibling[ch]) {
        double v = tree->visits[ch];
        if (tree->action[ch] == prior_action) {
            v += prior_visits;
            seen = true;
        }
        if (v > best) {
            second = best;
            best = v;
        } else if (v > second) {
            second = v;
        }
    }
    if (!seen) {
        if (prior_visits > best) {
            second = best;
            best = prior_visits;
        } else if (prior_visits > second) {
            second = prior_visits;
        }
    }
    return best - second > left;
}

/* tree._model_step: opponent p plays its model's move; the child of node it leads to (added
 * if new), or -1 when it is new and the tree is full. */
static int64_t ism_model_step(IsmWalk *w, int64_t p, int64_t node, const IsmCheck *chk,
                              const IsmSearch *s) {
    const IsmTree *tree = &s->tree;
    int64_t aid = decide(chk->kinds[p], chk->params + p * N_PARAMS, w->board, p, w->sizes,
                         chk->rng, chk->work);
    ism_track_size(w->sizes, p, aid);
    apply_tracked(w->board, aid, NULL, false);
    int64_t ch = tree->first_child[node];
    while (ch >= 0 && tree->action[ch] != aid) ch = tree->next_sibling[ch];
    if (ch >= 0) {
        tree->avail[ch] += 1;
        return ch;
    }
    if (s->stats[S_NODES] >= tree->capacity) return -1;
    return ism_new_node(tree, s->stats, node, aid, p);
}

/* tree._widened: with cfg.widen, a node below the root holding nch children takes a new one
 * only from widen * nch**2 visits on (else *nu becomes 0); its first child is the mover's
 * policy move, returned (else -1). Progressive widening: the next turn's value starts from
 * the policy's play instead of an average over every move, bad ones included. */
static int64_t ism_widened(IsmWalk *w, int64_t p, int64_t node, int64_t nch,
                           const IsmSearch *s, const IsmCheck *chk, int64_t *nu) {
    const IsmTree *tree = &s->tree;
    if (s->cfg.widen <= 0.0 || node == 0 || *nu == 0) return -1;
    if (nch == 0)
        return decide(chk->kinds[p], chk->params + p * N_PARAMS, w->board, p, w->sizes,
                      chk->rng, chk->work);
    if (tree->visits[node] < s->cfg.widen * (double)(nch * nch)) *nu = 0;
    return -1;
}

/* tree._ucb_step: seat p moves from node to a random untried legal action's new child while
 * the tree has room (*grown; with cfg.widen, see ism_widened), else to the child of the best
 * UCB1 score; -1 when none. */
static int64_t ism_ucb_step(IsmWalk *w, int64_t p, int64_t node, const IsmSearch *s,
                            const IsmCheck *chk, bool *grown) {
    const IsmTree *tree = &s->tree;
    uint64_t *rng = chk->rng;
    double c = s->cfg.c;
    int64_t nl = legal_into(w->board, w->legal);
    for (int64_t i = 0; i < nl; i++) w->marked[w->legal[i]] = true;
    int64_t best = -1;
    double best_score = -1e300;
    int64_t nch = 0; /* children, legal here or not */
    for (int64_t ch = tree->first_child[node]; ch >= 0; ch = tree->next_sibling[ch]) {
        int64_t a = tree->action[ch];
        nch++;
        if (w->marked[a]) {
            w->marked[a] = false; /* tried: what stays marked is untried */
            tree->avail[ch] += 1;
            double v = tree->visits[ch];
            double score = tree->total[ch] / v + c * sqrt(log(tree->avail[ch]) / v);
            if (score > best_score) {
                best_score = score;
                best = ch;
            }
        }
    }
    int64_t nu = 0;
    for (int64_t i = 0; i < nl; i++) {
        int64_t a = w->legal[i];
        if (w->marked[a]) {
            w->untried[nu++] = a;
            w->marked[a] = false;
        }
    }
    *grown = false;
    int64_t first = ism_widened(w, p, node, nch, s, chk, &nu);
    if (nu > 0 && s->stats[S_NODES] < tree->capacity) {
        int64_t a = first >= 0 ? first : w->untried[rng_below(rng, nu)];
        int64_t j = ism_new_node(tree, s->stats, node, a, p);
        ism_track_size(w->sizes, p, a);
        apply_tracked(w->board, a, NULL, false);
        *grown = true;
        return j;
    }
    if (best < 0) return -1;
    ism_track_size(w->sizes, p, tree->action[best]);
    apply_tracked(w->board, tree->action[best], NULL, false);
    return best;
}

/* tree._descend: walk down the tree on w->board until a node is expanded, the game ends, the
 * depth limit or a full tree; returns the depth reached (w->path[1..depth] the nodes). */
static int64_t ism_descend(const IsmSearch *s, const IsmCheck *chk, IsmWalk *w) {
    board_t *board = w->board;
    int64_t node = 0, depth = 0;
    int64_t max_depth = imin(s->cfg.max_depth, ISM_MAX_DEPTH - 1);
    w->path[0] = 0;
    int64_t n = B(board, META, M_N);
    for (int64_t i = 0; i < n; i++) w->sizes[i] = s->pos.sizes[i];
    while (!is_over(board) && depth < max_depth) {
        int64_t p = B(board, META, M_CUR);
        bool grown = false;
        if (s->cfg.model_opponents && p != s->pos.seat)
            node = ism_model_step(w, p, node, chk, s);
        else
            node = ism_ucb_step(w, p, node, s, chk, &grown);
        if (node < 0) break; /* tree full, or no legal child: play out from here */
        depth += 1;
        w->path[depth] = node;
        if (grown) break;
    }
    return depth;
}

/* Whether every seat's policy decides without the RNG, so that a playout from a board is
 * a function of the board (and the chain's repeated deals may reuse one). */
static bool ism_deterministic(const IsmModels *models, int64_t n) {
    for (int64_t i = 0; i < n; i++)
        if (models->kinds[i] == KIND_random) return false;
    return true;
}

/* ism_playout_rewards from w->board (the leaf w->path[depth]), or the rewards of that leaf's
 * playout on this same deal: with deterministic policies (cache), a leaf reached again on an
 * unchanged deal plays out the same game, so the search is the same, with fewer playouts. */
static void ism_cached_playout(IsmWalk *w, int64_t depth, bool cache, Table table,
                               uint64_t *rng, int64_t *work, const IsmConfig *cfg,
                               double *reward) {
    int64_t n = B(w->board, META, M_N);
    int64_t leaf = w->path[depth];
    if (cache && depth > 0) {
        for (int64_t k = 0; k < w->n_cached; k++) {
            if (w->cached_leaf[k] == leaf) {
                memcpy(reward, w->cached_reward[k], sizeof(double) * n);
                return;
            }
        }
    }
    ism_playout_rewards(w->board, table, rng, work, w->sizes, cfg, reward);
    if (cache && depth > 0 && w->n_cached < ISM_CACHE_SLOTS) {
        w->cached_leaf[w->n_cached] = leaf;
        memcpy(w->cached_reward[w->n_cached], reward, sizeof(double) * n);
        w->n_cached += 1;
    }
}

/* tree.search: n_iter iterations (deal, descend, play out, back up) growing s->tree. */
static void ism_search(const IsmSearch *s, int64_t n_iter, IsmWalk *w) {
    const IsmConfig *cfg = &s->cfg;
    int64_t *stats = s->stats;
    int64_t *seat_bad = stats + S_SEAT_BAD; /* the chain's state, per seat */
    int64_t work[WORK_SIZE] = {0};
    IsmCheck chk = {&s->ev, s->models.kinds, s->models.params, s->rng, work};
    Table table = {s->models.kinds, s->models.params};
    board_t spare[CELLS];
    double reward[SEAT_SLOTS] = {0};
    bool chain = cfg->infer_steps > 0 && s->ev.n > 0; /* a Markov chain over deals */
    bool cache = chain && ism_deterministic(&s->models, B(s->pos.pub, META, M_N));
    w->n_cached = -1;
    if (chain && stats[S_ITERS] == 0 && n_iter > 0) {
        if (!cfg->warm_deal) ism_draw_deal(&s->pos, &chk, cfg->infer_tries, s->deal, spare, stats);
        stats[S_BAD] = ism_seat_mismatches(s->deal, &chk, seat_bad);
    }
    for (int64_t it = 0; it < n_iter; it++) {
        if (cfg->stop_early && it % ISM_CHECK_EVERY == 0 && it > 0 &&
            ism_decided(&s->tree, cfg->stop_margin * (double)(n_iter - it), cfg->prior_action,
                        cfg->prior_visits))
            break;
        if (chain) {
            for (int64_t k = 0; k < cfg->infer_steps; k++)
                stats[S_BAD] =
                    ism_swap_step(s->deal, &s->pos, &chk, seat_bad, cfg->infer_lambda, &s->memo);
        } else {
            ism_draw_deal(&s->pos, &chk, cfg->infer_tries, s->deal, spare, stats);
        }
        if (cache && (w->n_cached < 0 || memcmp(w->cached_deal, s->deal, sizeof w->cached_deal))) {
            memcpy(w->cached_deal, s->deal, sizeof w->cached_deal);
            w->n_cached = 0; /* another deal: nothing cached for it */
        }
        memcpy(w->board, s->deal, sizeof(board_t) * CELLS);
        int64_t depth = ism_descend(s, &chk, w);
        ism_cached_playout(w, depth, cache, table, s->rng, work, cfg, reward);
        for (int64_t d = 1; d <= depth; d++) { /* tree._backup */
            int64_t j = w->path[d];
            s->tree.visits[j] += 1.0;
            s->tree.total[j] += reward[s->tree.actor[j]];
        }
        stats[S_ITERS] += 1;
    }
}

/* ------------------------------------------------------------------ exports */

/* Run n_iter iterations of the search s (tree.search); returns the iterations done in all
 * (stats[S_ITERS]). */
EXPORT int64_t engine_ismcts_search(const IsmSearch *s, int64_t n_iter) {
    IsmWalk w;
    memset(&w, 0, sizeof w);
    ism_search(s, n_iter, &w);
    return s->stats[S_ITERS];
}

/* Fit a deal to every candidate model (inference.refit_models); returns 0, or -1 when its
 * scratch could not be allocated (nothing is written then). */
EXPORT int64_t engine_ismcts_refit_models(const IsmRefit *r) {
    size_t slots = (size_t)1 << ism_refit_bits(r->steps);
    int64_t *keys = malloc(sizeof(int64_t) * slots);
    int64_t *vals = malloc(sizeof(int64_t) * slots);
    int64_t rc = -1;
    if (keys && vals) {
        ism_refit_models(r, keys, vals);
        rc = 0;
    }
    free(keys);
    free(vals);
    return rc;
}

/* carry.carry_deal into out. */
EXPORT void engine_ismcts_carry_deal(const board_t *old, const int64_t *since,
                                     const board_t *pub, int64_t seat, const int64_t *sizes,
                                     uint64_t *rng, board_t *out) {
    IsmPosition pos = {pub, seat, sizes};
    ism_carry_deal(old, since, &pos, rng, out);
}


/* kernels.apply: the legal action aid in place (the evidence's replay). */
EXPORT void engine_ismcts_apply(board_t *board, int64_t aid) {
    apply_tracked(board, aid, NULL, false);
}

/* kernels.legal_actions into out (N_ACTION_IDS + 8 slots); returns how many. */
EXPORT int64_t engine_ismcts_legal(const board_t *board, int64_t *out) {
    return legal_into(board, out);
}

/* kernels.is_legal, as 0 or 1. */
EXPORT int64_t engine_ismcts_is_legal(const board_t *board, int64_t aid) {
    return is_legal(board, aid) ? 1 : 0;
}

/* The constants above, for the bindings to check against their Python sources: ints gets
 * S_NODES..S_SEAT_BAD, N_STATS, MEMO_BITS, MAX_DEPTH, CHECK_EVERY, MAX_SLACK, NO_LIMIT and
 * the structs' sizes (IsmSearch, IsmRefit); floats gets HARD and EVAL_BETA. */
EXPORT void engine_ismcts_constants(int64_t *ints, double *floats) {
    int64_t values[] = {S_NODES,       S_ITERS,         S_REJECTS,        S_BAD,
                        S_SEAT_BAD,    N_STATS,         ISM_MEMO_BITS,    ISM_MAX_DEPTH,
                        ISM_CHECK_EVERY, ISM_MAX_SLACK, ISM_NO_LIMIT,     sizeof(IsmSearch),
                        sizeof(IsmRefit)};
    for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) ints[i] = values[i];
    floats[0] = ISM_HARD;
    floats[1] = ISM_EVAL_BETA;
}

#endif
