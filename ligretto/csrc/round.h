/* A round in play and its schedule (ligretto.round_state's Round and Schedule), the deal, and
 * the centre's bookkeeping (ligretto.compiled's _fits, _place, _take, _blockade).
 *
 * Per-seat bit masks of the cards a seat could ever play (acc) and one mask of the cards
 * some pile waits for (wanted) make the blockade test O(players). */
#ifndef LIGRETTO_ROUND_H
#define LIGRETTO_ROUND_H

#include "policy.h"
#include "rng.h"
#include "rules.h"

typedef struct {
    const double *params; /* (n, N_PARAMS): one policy per seat */
    int64_t n, k;         /* seats, row size */
    /* per seat */
    int64_t stack[MAX_PLAYERS][STACK_SIZE]; /* the dealt Ligretto stack, top first */
    int64_t spos[MAX_PLAYERS];              /* cards played off it: its top is stack[spos] */
    int64_t row[MAX_PLAYERS][ROW_SLOTS];    /* row cards by slot, -1 an empty slot */
    int64_t hand[MAX_PLAYERS][MAX_HAND];    /* face-down hand: hand[hpos:hlen] is left */
    int64_t hpos[MAX_PLAYERS], hlen[MAX_PLAYERS];
    int64_t hp[MAX_PLAYERS][MAX_HAND]; /* face-up hand pile, bottom first, hplen cards */
    int64_t hplen[MAX_PLAYERS];
    uint64_t acc[MAX_PLAYERS]; /* the cards the seat could ever play */
    int64_t centre[MAX_PLAYERS];
    int64_t idle[MAX_PLAYERS];
    uint64_t states[MAX_PLAYERS * N_STREAMS]; /* seat-major, purpose order */
    /* the centre */
    int64_t want_cnt[N_COLOURS][N_VALUES + 2]; /* piles waiting for [colour][number] */
    int64_t pile_col[MAX_PILES], pile_top[MAX_PILES];
    int64_t n_piles;
    uint64_t wanted; /* every 1, and each card some pile waits for */
    /* the record */
    int64_t *ev; /* (cap, 5) [time, seat, kind, card, pile] when recording */
    int64_t cap;
    bool record;
    int64_t n_events, plays, flips, fails;
    int64_t err; /* OK, or why the round stopped where numba raises */
} Round;

/* Each seat's pending action (Schedule). */
typedef struct {
    int64_t time[MAX_PLAYERS]; /* when it resolves */
    uint64_t key[MAX_PLAYERS]; /* seeded tie key: equal times resolve the smaller key first */
    int64_t kind[MAX_PLAYERS], slot[MAX_PLAYERS], card[MAX_PLAYERS], pile[MAX_PLAYERS];
} Schedule;

/* Each seat's set shuffled by its DEAL stream: stack, a row of k, the rest the hand. */
static void deal(Round *r) {
    int64_t cards[SET_SIZE];
    int64_t k = r->k;
    for (int64_t s = 0; s < r->n; s++) {
        for (int64_t c = 0; c < SET_SIZE; c++) cards[c] = c;
        shuffle(cards, SET_SIZE, r->states, s * N_STREAMS + DEAL);
        for (int64_t i = 0; i < STACK_SIZE; i++) r->stack[s][i] = cards[i];
        uint64_t acc = bit(cards[0]);
        for (int64_t j = 0; j < k; j++) {
            r->row[s][j] = cards[STACK_SIZE + j];
            acc |= bit(cards[STACK_SIZE + j]);
        }
        r->hlen[s] = SET_SIZE - STACK_SIZE - k;
        for (int64_t i = 0; i < r->hlen[s]; i++) {
            r->hand[s][i] = cards[STACK_SIZE + k + i];
            acc |= bit(cards[STACK_SIZE + k + i]);
        }
        r->acc[s] = acc;
        r->spos[s] = r->hpos[s] = r->hplen[s] = r->centre[s] = r->idle[s] = 0;
    }
}

/* A dealt round with an empty centre (new_round); n in 2..MAX_PLAYERS, k in 1..ROW_SLOTS. */
static void new_round(Round *r, const double *params, int64_t n, int64_t k, uint64_t deal_seed,
                      uint64_t play_seed) {
    r->params = params;
    r->n = n;
    r->k = k;
    for (int64_t s = 0; s < n; s++) {
        r->states[s * N_STREAMS + DEAL] = stream_seed(deal_seed, s, DEAL);
        r->states[s * N_STREAMS + TIME] = stream_seed(play_seed, s, TIME);
        r->states[s * N_STREAMS + RECYCLE] = stream_seed(play_seed, s, RECYCLE);
        r->states[s * N_STREAMS + POLICY] = stream_seed(play_seed, s, POLICY);
    }
    deal(r);
    for (int64_t c = 0; c < N_COLOURS; c++)
        for (int64_t v = 0; v < N_VALUES + 2; v++) r->want_cnt[c][v] = 0;
    r->n_piles = 0;
    uint64_t wanted = 0;
    for (int64_t c = 0; c < N_COLOURS; c++) wanted |= bit(c * N_VALUES); /* every 1 */
    r->wanted = wanted;
    r->n_events = r->plays = r->flips = r->fails = 0;
    r->err = OK;
}

/* Count one event and write it when recording (while ev has room). */
static inline void event(Round *r, int64_t t, int64_t s, int64_t kind, int64_t card,
                         int64_t pile) {
    int64_t i = r->n_events;
    if (r->record && i < r->cap) {
        int64_t *e = r->ev + 5 * i;
        e[0] = t;
        e[1] = s;
        e[2] = kind;
        e[3] = card;
        e[4] = pile;
    }
    r->n_events = i + 1;
}

/* No seat holds any wanted card: nobody can ever play again. */
static inline bool blockade(const Round *r) {
    for (int64_t q = 0; q < r->n; q++)
        if (r->acc[q] & r->wanted) return false;
    return true;
}

/* Does pile target take card now (a 1 always starts a new pile)? */
static inline bool fits(const Round *r, int64_t card, int64_t target) {
    int64_t value = card % N_VALUES + 1;
    if (value == 1) return true;
    if (target < 0 || target >= MAX_PILES) return false; /* no decision aims there */
    return r->pile_col[target] == card / N_VALUES && r->pile_top[target] == value - 1;
}

/* Put card on pile target (a 1 on a new pile), update the wanted cards; the pile it went to. */
static int64_t place(Round *r, int64_t card, int64_t target) {
    int64_t colour = card / N_VALUES;
    int64_t value = card % N_VALUES + 1;
    if (value == 1) {
        target = r->n_piles;
        r->pile_col[target] = colour;
        r->n_piles = target + 1;
    } else {
        r->want_cnt[colour][value] -= 1;
        if (r->want_cnt[colour][value] == 0) r->wanted &= ~bit(card);
    }
    r->pile_top[target] = value;
    if (value < N_VALUES) {
        r->want_cnt[colour][value + 1] += 1;
        r->wanted |= bit(card + 1);
    }
    return target;
}

/* Seat s has played card from its stack, row slot (refilled from the stack) or hand pile. */
static void take(Round *r, int64_t s, int64_t kind, int64_t slot, int64_t card) {
    r->centre[s] += 1;
    r->idle[s] = 0;
    r->acc[s] &= ~bit(card);
    int64_t spos = r->spos[s];
    if (kind == K_STACK) {
        spos++;
    } else if (kind == K_ROW) {
        if (spos < STACK_SIZE) {
            r->row[s][slot] = r->stack[s][spos];
            spos++;
        } else {
            r->row[s][slot] = -1;
        }
    } else {
        r->hplen[s] -= 1;
    }
    r->spos[s] = spos;
    if (spos < STACK_SIZE) r->acc[s] |= bit(r->stack[s][spos]);
}

#endif
