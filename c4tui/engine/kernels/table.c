/* The transposition tables: the one a solver owns for big boards, and Python's shared one.
 *
 * Memory: the owned table is `size` entries of two words, allocated once when the
 * solver is made (solver.c) and never grown; the packed table belongs to Python
 * (solver/table.py chooses its size).
 */
#include <stdlib.h>
#include <string.h>

#include "solver.h"

int c4_own_table(solver_t *s, uint64_t size) {
    s->pairs = calloc(size, 2 * sizeof(uint64_t));
    if (!s->pairs) return 0;
    s->size = size;
    return 1;
}

/* Use the caller's packed table (entries of key << 8 | bound) of `size` entries. */
void c4_set_table(void *handle, uint64_t *table, uint64_t size) {
    solver_t *s = handle;
    if (s->pairs) return; /* this solver's keys do not fit a packed entry */
    s->packed = table;
    s->size = table ? size : 0;
}

/* Forget every stored bound of an owned table. */
void c4_clear(void *handle) {
    solver_t *s = handle;
    if (s->pairs) memset(s->pairs, 0, s->size * 2 * sizeof(uint64_t));
}
