/* The games loop of the 13 Leaves engine in C, and what the library exports to Python
 * (leaves.players.compiled.engine, through ctypes: every export takes plain pointers or one
 * struct of them, and ctypes releases the GIL while it runs, so threads play in parallel).
 *
 * The loop is leaves.players.compiled.loops': play_to_end plays a dealt board out seat
 * by seat (decide by each seat's policy kind), keeping the card counts when a seat reads
 * them; play_games deals and plays a chunk of games under their seatings. */
#include "engine.h"
#include "rules.h"
#include "counting.h"
#include "policy_features.h"
#include "policies.h"

/* Each seat's policy kind and parameter vector at one table (layout.Seats). */
typedef struct {
    const int64_t *kinds;  /* (n,) */
    const double *params;  /* (n, N_PARAMS) */
} Table;

/* Play board to the end, or for at most turns turns when turns > 0; sizes ends as every
 * seat's cards left. Returns the turns played, written to rec when rec is not NULL. */
static int64_t play_to_end(board_t *board, Table table, int64_t *sizes, uint64_t *rng,
                           int64_t *work, int8_t *rec, int64_t turns) {
    int64_t n = B(board, META, M_N);
    bool counts = false; /* whether a seat reads the counts: else none are kept */
    for (int64_t i = 0; i < n; i++) {
        int64_t total = 0;
        for (int v = 0; v < N_VALUES; v++) total += B(board, HANDS + i, v);
        sizes[i] = total;
        counts |= KIND_COUNTS[table.kinds[i]];
    }
    if (counts) count_start(board, work);
    int64_t t = 0;
    while (B(board, META, M_WINNER) < 0 && B(board, META, M_TURN) < B(board, META, M_LIMIT)) {
        if (turns > 0 && t == turns) break;
        int64_t p = B(board, META, M_CUR);
        int64_t aid = decide(table.kinds[p], table.params + p * N_PARAMS, board, p, sizes, rng,
                             work);
        if (counts) count_action(board, aid, work);
        apply_tracked(board, aid, sizes, true);
        if (rec) rec[t] = (int8_t)aid;
        t++;
    }
    count_stop(work);
    return t;
}

/* A chunk of games and where its results go (layout.Seats, Games and Results in one). */
typedef struct {
    int64_t n_games;
    int64_t n_players;
    const int64_t *kinds;      /* (R, n): each seating's policy kinds */
    const double *params;      /* (R, n, N_PARAMS) */
    const int64_t *seating;    /* (G,) */
    const uint64_t *deal_seeds; /* (G,) */
    const uint64_t *play_seeds; /* (G,) */
    Setup setup;
    int64_t record_stride;     /* turn limit when recording, 0 when not */
    int8_t *first;             /* (G,) */
    int16_t *left;             /* (G, n) */
    int8_t *winner;            /* (G,) */
    int32_t *turns;            /* (G,) */
    int32_t *rounds;           /* (G,) */
    uint8_t *unfinished;       /* (G,) bool */
    int8_t *actions;           /* (G, record_stride) when recording */
} Batch;

EXPORT const char *engine_key(void) { return ENGINE_KEY; }

EXPORT int64_t engine_n_kinds(void) { return N_KINDS; }

/* The registry name of kind k's built-in (policies.h C_POLICIES), or NULL past the last. */
EXPORT const char *engine_kind_name(int64_t k) { return k >= 0 && k < N_KINDS ? KIND_NAMES[k] : 0; }

/* Play every game of the batch: game g dealt from deal_seeds[g], played from play_seeds[g]
 * under seating seating[g]. Returns the number of games. */
EXPORT int64_t engine_play_games(const Batch *b) {
    board_t board[BOARD_ROWS * N_VALUES];
    int64_t sizes[SEAT_SLOTS] = {0};
    int64_t work[WORK_SIZE] = {0};
    int64_t deck[MAX_DECK];
    uint64_t rng[4];
    int64_t n = b->n_players;
    for (int64_t g = 0; g < b->n_games; g++) {
        int64_t r = b->seating[g];
        rng_seed(rng, b->deal_seeds[g]);
        deal(board, &b->setup, rng, -1, deck);
        b->first[g] = (int8_t)B(board, META, M_FIRST);
        rng_seed(rng, b->play_seeds[g]);
        Table table = {b->kinds + r * n, b->params + r * n * N_PARAMS};
        int8_t *rec = b->record_stride ? b->actions + g * b->record_stride : NULL;
        play_to_end(board, table, sizes, rng, work, rec, 0);
        for (int64_t i = 0; i < n; i++) b->left[g * n + i] = (int16_t)sizes[i];
        b->winner[g] = (int8_t)B(board, META, M_WINNER);
        b->turns[g] = B(board, META, M_TURN);
        b->rounds[g] = B(board, META, M_ROUND);
        b->unfinished[g] = B(board, META, M_WINNER) < 0;
    }
    return b->n_games;
}

/* Play board (a full board) on, as loops.play_to_end: seat p by kinds[p] with
 * params[p * N_PARAMS ...], at most turns turns when turns > 0; returns the turns played. */
EXPORT int64_t engine_play_to_end(board_t *board, const int64_t *kinds, const double *params,
                                  int64_t *sizes, uint64_t *rng, int64_t *work, int8_t *rec,
                                  int64_t turns) {
    Table table = {kinds, params};
    return play_to_end(board, table, sizes, rng, work, rec, turns);
}

/* The action id policy kind chooses for seat (the seat to act) on board. */
EXPORT int64_t engine_decide(int64_t kind, const double *params, board_t *board, int64_t seat,
                             int64_t *sizes, uint64_t *rng, int64_t *work) {
    return decide(kind, params, board, seat, sizes, rng, work);
}

/* rng (uint64[4]) becomes the kernel RNG's state for seed (kernels.rng_new). */
EXPORT void engine_rng_new(uint64_t seed, uint64_t *rng) { rng_seed(rng, seed); }

/* Deal setup onto board from rng (first_player -1 draws it). */
EXPORT void engine_deal(board_t *board, const Setup *setup, uint64_t *rng, int64_t first_player) {
    int64_t deck[MAX_DECK];
    deal(board, setup, rng, first_player, deck);
}

/* Deal and randomly play n_games games of setup from one seed (kernels.random_games, the
 * loop the random-play benchmark times). */
EXPORT void engine_random_games(const Setup *setup, int64_t n_games, uint64_t seed,
                                int64_t *turns, int64_t *rounds, int64_t *winners) {
    board_t board[BOARD_ROWS * N_VALUES];
    int64_t deck[MAX_DECK];
    uint64_t rng[4];
    rng_seed(rng, seed);
    for (int64_t g = 0; g < n_games; g++) {
        deal(board, setup, rng, -1, deck);
        while (!is_over(board)) apply_tracked(board, random_action(board, rng), NULL, false);
        winners[g] = B(board, META, M_WINNER);
        turns[g] = B(board, META, M_TURN);
        rounds[g] = B(board, META, M_ROUND);
    }
}
#include "ismcts.h"
