/* The transposition tables: the one a solver owns for big boards, and Python's shared one.
 *
 * Memory: the owned table is `size` entries of two words, allocated once when the
 * solver is made (solver.c) and never grown; the packed table belongs to Python
 * (solver/table.py chooses its size).
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "solver.h"
#include "table.h"

/* A table of `size` entries in its two parts (table.h's deep region). */
static void set_regions(solver_t *s, uint64_t size) {
    const int split = size >= DEEP_MIN_TABLE;
    s->size = size;
    s->main_size = split ? size - DEEP_ENTRIES : size;
    s->deep_moves = split ? s->cells - DEEP_MAX_EMPTY : INT_MAX;
}

int c4_own_table(solver_t *s, uint64_t size) {
    s->pairs = calloc(size, 2 * sizeof(uint64_t));
    if (!s->pairs) return 0;
    set_regions(s, size);
    return 1;
}

/* Granlund and Montgomery's division by a constant (1994, theorem 4.2): with
 * l >= ceil(log2(size)) and m = ceil(2^(56 + l) / size), key / size is
 * (key * m) >> (56 + l) for every key below 2^56 (the rounding error of m, times a key,
 * stays below 2^(56 + l) / size). l is at least 8, so that the shift is of the
 * product's high word alone (tt_slot), and m = 2^(56 + l) / size, rounded up, stays
 * below 2^64 for every size of 2 or more (a table of one entry has no multiplier). */
static void set_slot_division(solver_t *s, uint64_t size) {
    int l = 8;
    while (((u128)1 << l) < size) l++;
    s->slot_shift = PACKED_KEY_BITS + l - 64;
    s->slot_multiplier =
        size < 2 ? 0 : (uint64_t)((((u128)1 << (PACKED_KEY_BITS + l)) + size - 1) / size);
}

void c4_use_packed(solver_t *s, uint64_t *table, uint64_t size) {
    s->packed = table;
    set_regions(s, table ? size : 0);
    if (table) set_slot_division(s, s->main_size);
}

/* Use the caller's packed table (entries of key << 8 | bound) of `size` entries. */
void c4_set_table(void *handle, uint64_t *table, uint64_t size) {
    solver_t *s = handle;
    if (s->pairs) return; /* this solver's keys do not fit a packed entry */
    c4_use_packed(s, table, size);
}

/* A bigger packed table (NULL: none) that a call moves to once it has searched
 * `after_nodes` nodes: a short search keeps to the small table, which stays in the
 * processor's caches, and the big one's memory is touched only by a search long
 * enough to gain from it. */
void c4_set_long_table(void *handle, uint64_t *table, uint64_t size, uint64_t after_nodes) {
    solver_t *s = handle;
    if (s->pairs) return;
    s->long_packed = table;
    s->long_size = table ? size : 0;
    s->long_after = after_nodes;
}

/* Whether the solver searches with its long table now (it stays there once moved). */
int c4_on_long_table(void *handle) {
    const solver_t *s = handle;
    return s->long_packed != NULL && s->packed == s->long_packed;
}

/* The small table's entries stay behind. A node that found its slot in the small
 * table and stores its bound after the move writes it to that slot of the big one
 * (no bigger than it), where no lookup of that key looks: one entry lost, never a
 * wrong one, as every entry holds its whole key. */
void c4_grow_table(solver_t *s) {
    if (s->long_packed && s->packed != s->long_packed && s->nodes >= s->long_at &&
        s->long_size >= s->size) {
        c4_use_packed(s, s->long_packed, s->long_size);
    }
}

/* Forget every stored bound of an owned table. */
void c4_clear(void *handle) {
    solver_t *s = handle;
    if (s->pairs) memset(s->pairs, 0, s->size * 2 * sizeof(uint64_t));
}
