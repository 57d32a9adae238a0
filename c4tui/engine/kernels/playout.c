/* MCTS's random game in C: the same game, move for move, as players/playout.py's.
 *
 * Optional accelerator, built at install into the same extension module as the solver
 * (setup.py) and loaded by kernels/library.py. The Python random game
 * (`python_random_game_for` in players/playout.py) is the reference: for the same
 * position and the same random number it must play the same moves and return the same
 * result, so that a seeded search plays the same on machines with and without a C
 * compiler (tests/engine/test_playout.py checks it).
 *
 * The random number: Python draws one big number per game and each move takes its next
 * base-n digit (n = the columns still open, in column order): column free[r % n], then
 * r /= n. Here r is the same number as little-endian 64-bit limbs, divided in place.
 *
 * Bitboards: column-major with a sentinel bit on top of each column, as board/geometry.py
 * lays them out; only boards of up to 64 bits (7x6 is 49) come here.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "exports.h"

#define MAX_WIDTH 16
#define MAX_LIMBS 8

typedef struct c4_playout playout_t;

struct c4_playout {
    int width, connect, limbs;
    int steps[4];
    uint64_t bottom[MAX_WIDTH], column[MAX_WIDTH], top[MAX_WIDTH];
};

playout_t *c4p_new(int width, int height, int connect, int limbs) {
    if (width > MAX_WIDTH || width * (height + 1) > 64 || limbs > MAX_LIMBS) return NULL;
    playout_t *p = calloc(1, sizeof *p);
    if (!p) return NULL;
    int h1 = height + 1;
    p->width = width;
    p->connect = connect;
    p->limbs = limbs;
    /* vertical, horizontal and the two diagonals */
    p->steps[0] = 1;
    p->steps[1] = h1;
    p->steps[2] = h1 - 1;
    p->steps[3] = h1 + 1;
    for (int c = 0; c < width; c++) {
        p->bottom[c] = (uint64_t)1 << (c * h1);
        p->column[c] = (((uint64_t)1 << height) - 1) << (c * h1);
        p->top[c] = (uint64_t)1 << (c * h1 + height - 1);
    }
    return p;
}

void c4p_free(playout_t *p) { free(p); }

/* True when `stones` hold `connect` in a row in some direction. */
static int has_line(const playout_t *p, uint64_t stones) {
    for (int d = 0; d < 4; d++) {
        int s = p->steps[d];
        uint64_t m = stones;
        for (int k = 1; k < p->connect && m; k++) m &= stones >> (k * s);
        if (m) return 1;
    }
    return 0;
}

/* r %= n with r /= n in place; r is `limbs` little-endian words. */
static unsigned next_digit(uint64_t *r, int limbs, unsigned n) {
    unsigned __int128 rest = 0;
    for (int i = limbs - 1; i >= 0; i--) {
        unsigned __int128 cur = (rest << 64) | r[i];
        r[i] = (uint64_t)(cur / n);
        rest = cur % n;
    }
    return (unsigned)rest;
}

/* One random game from the position where `me` are the stones of the side to move:
 * 1 if that side wins, -1 if it loses, 0 for a draw. `random` holds p->limbs words. */
int c4p_game(const playout_t *p, uint64_t me, uint64_t mask, const uint64_t *random) {
    uint64_t r[MAX_LIMBS];
    memcpy(r, random, sizeof(uint64_t) * p->limbs);
    int limbs = p->limbs;
    int free_cols[MAX_WIDTH], n = 0;
    for (int c = 0; c < p->width; c++) {
        if (!(mask & p->top[c])) free_cols[n++] = c;
    }
    uint64_t stones[2] = {me, me ^ mask};
    int mover = 0;
    while (n) {
        /* Leading zero limbs divide to nothing: skip them. */
        while (limbs > 1 && r[limbs - 1] == 0) limbs--;
        unsigned i = next_digit(r, limbs, (unsigned)n);
        int c = free_cols[i];
        uint64_t stone = (mask + p->bottom[c]) & p->column[c];
        mask |= stone;
        stones[mover] |= stone;
        if (has_line(p, stones[mover])) return mover == 0 ? 1 : -1;
        if (stone & p->top[c]) {
            /* The column is full: drop it, keeping the others in order. */
            memmove(free_cols + i, free_cols + i + 1, sizeof(int) * (n - 1 - i));
            n--;
        }
        mover ^= 1;
    }
    return 0;
}
