/* The transposition table's entries: how a bound is found and stored (hot: inline).
 *
 * A key is the smaller of a position's key (current + mask) and its mirror image's, so
 * a position and its mirror share an entry. When a key and its 8-bit bound fit in 64
 * bits (7x6: 49 + 8), the table is the Python solver's own array, one word per entry
 * (key << 8 | bound, solver/table.py's layout; where the key leaves room, as on 7x6,
 * both bounds: tt_bounds), and both searches share what they learn. Bigger boards use
 * a table owned here, two words per entry. table.c makes, clears and hands over the
 * tables.
 */
#ifndef C4_TABLE_H
#define C4_TABLE_H

#include "solver.h"

/* Nodes with fewer empty cells have no entry (solver/search.py's KEEP_MIN_EMPTY): the
 * search below them costs less than the cache misses of their entries (measured on
 * bookless 7x6 searches: 10-15% less time, as many nodes). */
#define KEEP_MIN_EMPTY 6

/* Whether a node of `moves` stones has an entry: those with at least KEEP_MIN_EMPTY
 * empty cells (as in solver/search.py). Until 2026-11-26 only those with an even
 * number of empty cells had one (BitBully's rule: half the entries, the odd nodes
 * reading their children's in the cutoffs instead); once the cutoffs' reads waited
 * behind the sorting of the moves, entries at every node searched 21% fewer nodes on
 * the 12 slowest tail positions in 4-15% less CPU time, and as fast bookless. */
static inline int tt_keeps(const solver_t *s, int moves) {
    const int empty = s->cells - moves;
    return empty >= KEEP_MIN_EMPTY;
}

/* The deep region: a table of at least DEEP_MIN_TABLE entries keeps its last
 * DEEP_ENTRIES (768 KB of a packed table) for the nodes of at most DEEP_MAX_EMPTY empty
 * cells, and the rest for the others (solver/table.py's deep_region, the same rule).
 * Those nodes are most of the search, and their entries are read soon after they are
 * written, near where they were searched: in a region that stays in the processor's
 * second-level cache (2 MB here), the transposition cutoffs' reads of their entries
 * hit the cache where in a 16 MB table a quarter of the nodes waited for memory
 * (measured: 150 ns a read past 2 MB on the development machine, where a node takes
 * 70-80 ns). On the 13 slowest tail positions (16 MB table) 20% less CPU time for 3%
 * more nodes, on 300 random positions 12% less, on 20 bookless Begin-Medium positions
 * (64 MB) 21% less (docs/results-solver.md). Once the follow-up's rules (search_body.h)
 * ended most nodes near the end, the region pays further up: at most 15 empty cells
 * rather than 11, 11-13% less CPU time on the kept tail set and the 25 slowest known
 * (3-6% more nodes), 15-28% less on bookless searches of 1-2 s ('444', '4444'); 13 and
 * 17-19 did about as well, 9 and 21 worse, a region twice as big no better. */
#define DEEP_MIN_TABLE (1 << 20)
#define DEEP_ENTRIES 98297 /* a prime */
#define DEEP_MAX_EMPTY 15

/* A packed entry's key has at most this many bits (8 are left for the bound). */
#define PACKED_KEY_BITS 56

/* The slot of a key of a packed table in its main part, key % main_size (a division
 * costs more than a table read that hits the cache). The quotient is the product's
 * high word shifted (table.c chooses a shift of 64 or more): a shift by a variable
 * count of 128 bits takes five instructions on x86-64, of 64 bits one. */
static inline uint64_t tt_slot(const solver_t *s, uint64_t key) {
    if (__builtin_expect(s->main_size < 2, 0)) return 0; /* no multiplier fits 64 bits */
    const uint64_t high = (uint64_t)(((u128)key * s->slot_multiplier) >> 64);
    return key - (high >> s->slot_shift) * s->main_size;
}

/* The stored value byte of `key` (0: nothing stored) in `slot`. */
static inline unsigned tt_get(const solver_t *s, u128 key, uint64_t slot) {
    if (s->packed) {
        /* One word per entry, read and written whole: threads sharing the table
         * (columns.c) see an old or a new entry, each with its own key. */
        const uint64_t entry = __atomic_load_n(&s->packed[slot], __ATOMIC_RELAXED);
        return (entry >> 8) == (uint64_t)key ? (unsigned)(entry & 255) : 0;
    }
    const uint64_t *e = s->pairs + 2 * slot;
    if (e[0] == (uint64_t)key && (e[1] >> 8) == (uint64_t)(key >> 64)) {
        return (unsigned)(e[1] & 255);
    }
    return 0;
}

/* Ask for `slot`'s entry to be brought into the cache: the children's entries are read
 * one after another, and their misses overlap instead of waiting in turn. */
static inline void tt_prefetch(const solver_t *s, uint64_t slot) {
    __builtin_prefetch(s->packed ? (const void *)(s->packed + slot)
                                 : (const void *)(s->pairs + 2 * slot));
}

/* Store `value` for `key` in `slot`, replacing whatever was there. */
static inline void tt_put(solver_t *s, u128 key, uint64_t slot, unsigned value) {
    if (s->packed) {
        __atomic_store_n(&s->packed[slot], ((uint64_t)key << 8) | value, __ATOMIC_RELAXED);
        return;
    }
    uint64_t *e = s->pairs + 2 * slot;
    e[0] = (uint64_t)key;
    e[1] = ((uint64_t)(key >> 64) << 8) | value;
}

/* A stored value byte for a lower bound, an upper bound; and back. */
static inline unsigned tt_lower(const solver_t *s, int bound) {
    return (unsigned)(bound + s->lower_shift);
}
static inline unsigned tt_upper(const solver_t *s, int bound) {
    return (unsigned)(bound - s->upper_shift);
}
static inline int tt_is_lower(const solver_t *s, unsigned value) {
    return (int)value > s->lower_base;
}
static inline int tt_lower_bound(const solver_t *s, unsigned value) {
    return (int)value - s->lower_shift;
}
static inline int tt_upper_bound(const solver_t *s, unsigned value) {
    return (int)value + s->upper_shift;
}

/* Both bounds in one entry (s->bound_bits of each, 7x6's 6: key << 12 | floor field << 6
 * | ceiling field), where the key leaves room (solver/table.py's Coding). A node that
 * the null-window probes of one analysis search again, with other windows, is proven
 * at least x by one and at most y by another: an entry of one bound keeps the last of
 * the two. A field of 0 is no bound: it reads as -bound_offset or +bound_offset, beyond
 * every score, so an empty slot has none. `bits` is 0 for the one-bound layout
 * (tt_get's value byte; the only one of the owned tables). */
typedef struct {
    int floor, ceiling; /* the score is in floor..ceiling */
    uint64_t fields;    /* the entry's two fields (0: another key's), kept on a write */
} tt_bounds_t;

static inline tt_bounds_t tt_bounds(const solver_t *s, u128 key, uint64_t slot, int bits) {
    const int open = s->bound_offset;
    tt_bounds_t b = {-open, open, 0};
    if (bits) {
        const uint64_t entry = __atomic_load_n(&s->packed[slot], __ATOMIC_RELAXED);
        if ((entry >> (2 * bits)) == (uint64_t)key) b.fields = entry & ((1ULL << (2 * bits)) - 1);
        b.floor = (int)(b.fields >> bits) - open;
        b.ceiling = open - (int)(b.fields & ((1ULL << bits) - 1));
        return b;
    }
    const unsigned value = tt_get(s, key, slot);
    if (tt_is_lower(s, value)) {
        b.floor = tt_lower_bound(s, value);
    } else if (value) {
        b.ceiling = tt_upper_bound(s, value);
    }
    return b;
}

/* Store key's entry with these bound fields: one word, read and written whole, as tt_put. */
static inline void tt_put_bounds(solver_t *s, u128 key, uint64_t slot, int bits, uint64_t fields) {
    __atomic_store_n(&s->packed[slot], ((uint64_t)key << (2 * bits)) | fields, __ATOMIC_RELAXED);
}

/* Store a floor of key's score; two bounds: with the ceiling `was` read from its entry
 * (none if the slot held another key: a colliding key's bounds are not this one's). */
static inline void tt_put_floor(solver_t *s, u128 key, uint64_t slot, int bits, tt_bounds_t was,
                                int floor) {
    if (!bits) {
        tt_put(s, key, slot, tt_lower(s, floor));
        return;
    }
    const uint64_t ceiling = was.fields & ((1ULL << bits) - 1);
    tt_put_bounds(s, key, slot, bits, ((uint64_t)(floor + s->bound_offset) << bits) | ceiling);
}

/* Store a ceiling of key's score; two bounds: with the floor `was` read. */
static inline void tt_put_ceiling(solver_t *s, u128 key, uint64_t slot, int bits, tt_bounds_t was,
                                  int ceiling) {
    if (!bits) {
        tt_put(s, key, slot, tt_upper(s, ceiling));
        return;
    }
    const uint64_t floor = was.fields >> bits << bits;
    tt_put_bounds(s, key, slot, bits, floor | (uint64_t)(s->bound_offset - ceiling));
}

/* Store key's exact score (one bound: as a ceiling, as before two fitted). */
static inline void tt_put_exact(solver_t *s, u128 key, uint64_t slot, int bits, int score) {
    if (!bits) {
        tt_put(s, key, slot, tt_upper(s, score));
        return;
    }
    tt_put_bounds(s, key, slot, bits,
                  ((uint64_t)(score + s->bound_offset) << bits) |
                      (uint64_t)(s->bound_offset - score));
}

#endif
