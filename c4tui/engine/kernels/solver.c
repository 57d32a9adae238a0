/* A solver's life: made for one board size, given its table, books and stop flag, freed. */
#include <stdlib.h>

#include "solver.h"

/* Enhanced transposition cutoffs at nodes with more empty cells than this (the same
 * figure as solver/search.py's; measured best from 0 to 22 on the slowest random positions):
 * near the end, reading the children's entries costs more than the cutoffs find. */
#define ETC_MIN_EMPTY 6

/* A solver for width x height, connect; scores in -max_score..max_score. `own_size`
 * entries of a table of its own (boards whose entries do not fit 64 bits), else 0.
 * NULL for a board it cannot search or when memory runs out. */
void *c4_new(int width, int height, int connect, int max_score, uint64_t own_size) {
    if (width < 1 || width > MAX_WIDTH || connect < 2 || connect > 8) return NULL;
    if (width * (height + 1) > 128) return NULL;
    solver_t *s = calloc(1, sizeof(solver_t));
    if (!s) return NULL;
    s->width = width;
    s->height = height;
    s->connect = connect;
    s->h1 = height + 1;
    s->cells = width * height;
    s->etc_until = s->cells - ETC_MIN_EMPTY;
    s->bits = width * s->h1;
    for (int col = 0; col < width; col++) {
        u128 column = (((u128)1 << height) - 1) << (col * s->h1);
        s->column[col] = column;
        s->board |= column;
        s->bottom |= (u128)1 << (col * s->h1);
        for (int row = height - 2; row >= 0; row -= 2) s->pair_lows |= (u128)1 << (col * s->h1 + row);
    }
    /* Centre first, left first on ties (geometry.centre_first). */
    int placed = 0;
    for (int dist = 0; dist <= width; dist++) {
        for (int col = 0; col < width; col++) {
            int d = 2 * col - (width - 1);
            if (d < 0) d = -d;
            if (d == dist) s->order[placed++] = col;
        }
    }
    const int min_score = -max_score;
    s->upper_shift = min_score - 1;
    s->lower_base = max_score - min_score + 1;
    s->lower_shift = max_score - 2 * min_score + 2;
    /* Both bounds of a packed entry in two fields of 0..2 * max_score + 1 (0: none),
     * when the key leaves room for them (table.py's Coding.of). */
    int bits = 1;
    while ((1 << bits) <= 2 * max_score + 1) bits++;
    s->bound_offset = max_score + 1;
    if (!own_size && s->bits + 2 * bits <= 64) s->bound_bits = bits;
    if (own_size && !c4_own_table(s, own_size)) {
        free(s);
        return NULL;
    }
    return s;
}

/* Search with the opening books (7x6 only; NULL: none), held by the caller. */
void c4_set_book(void *handle, const unsigned char *exact, uint64_t exact_count,
                 const unsigned char *outcome, uint64_t outcome_count) {
    solver_t *s = handle;
    if (s->bits > 64) return; /* the books are for 7x6 */
    s->exact_book = exact_count ? exact : NULL;
    s->exact_count = exact_count;
    s->outcome_book = outcome_count ? outcome : NULL;
    s->outcome_count = outcome_count;
}

/* The flag that stops this solver's searches when non-zero (Python owns and sets it). */
void c4_set_stop(void *handle, const int *flag) { ((solver_t *)handle)->stop = flag; }

void c4_free(void *handle) {
    solver_t *s = handle;
    if (!s) return;
    free(s->pairs);
    free(s);
}

uint64_t c4_nodes(void *handle) { return ((solver_t *)handle)->nodes; }

/* How the last search ended: C4_DONE, C4_STOPPED, C4_INTERRUPTED or C4_NO_MEMORY. */
int c4_status(void *handle) { return ((solver_t *)handle)->status; }
