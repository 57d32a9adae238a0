/* The exact solver's state and the small rules every part of it shares.
 *
 * The solver in C is split by idea: book.c reads the 7x6 opening books, table.h and
 * table.c hold the transposition table, stops.c decides when a search must stop,
 * search.c (with search_body.h) is the negamax, columns.c scores every column of a
 * position on one or two threads, and solver.c makes and configures a solver. The
 * pure-Python solver (c4tui/engine/solver/) is the readable reference of each.
 *
 * Bitboards: column-major, (height + 1) bits per column (a sentinel bit on top), as
 * c4tui/engine/board/geometry.py lays them out.
 */
#ifndef C4_SOLVER_H
#define C4_SOLVER_H

#include <stdint.h>

#include "exports.h" /* the calls Python makes, and the status codes */

typedef unsigned __int128 u128;

#define MAX_WIDTH 16
/* Nodes between two looks at the stop flag, the clock and the optional callback. */
#define POLL_EVERY 32768

/* The plies the opening books describe (solver/book.py). */
#define BOOK_EXACT_PLY 12
#define BOOK_OUTCOME_PLY 8
#define BOOK_MISSING 1000 /* a position the book does not hold */

typedef struct solver solver_t;

struct solver {
    int width, height, connect, h1, cells, bits;
    int order[MAX_WIDTH]; /* columns from the centre outwards */
    u128 board, bottom, column[MAX_WIDTH];
    /* The lower cell of each pair of the follow-up (search_body.h's leader_ceiling):
     * the rows an even number of rows below the top. */
    u128 pair_lows;
    /* How a bound is stored in an entry's value byte (solver/table.py's Coding):
     * 1..lower_base an upper bound, above it a lower bound. */
    int upper_shift, lower_base, lower_shift;
    /* Where a packed entry has room for both bounds (solver/table.py's Coding): the
     * bits of each bound's field, else 0 (one bound in the value byte); a field holds
     * bound + bound_offset (the floor) or bound_offset - bound (the ceiling). */
    int bound_bits, bound_offset;
    uint64_t *packed; /* the Python array (key << 8 | bound), or NULL */
    uint64_t *pairs;  /* owned: low key word, high key word << 8 | bound */
    uint64_t size;
    /* The table's two parts (table.h's deep region): slots 0..main_size - 1 for the
     * nodes of fewer than deep_moves stones, the DEEP_ENTRIES from main_size on for the
     * others (deep_moves is past every node when the table is too small to split). */
    uint64_t main_size;
    int deep_moves;
    /* key % size for keys of up to 56 bits (every packed table's), without a division:
     * ((key * slot_multiplier) >> 64) >> slot_shift is key / main_size (table.h's tt_slot). */
    uint64_t slot_multiplier;
    int slot_shift;
    /* A bigger packed table that a call moves to once it has searched `long_after`
     * nodes (table.c's c4_grow_table), or NULL; `long_at` is that node count. */
    uint64_t *long_packed;
    uint64_t long_size, long_after, long_at;
    uint64_t nodes, next_poll;
    /* What stops a search (stops.c): a flag Python sets from any thread, a deadline
     * on the monotonic clock, and an optional callback asked at most every
     * CALLBACK_SECONDS. */
    const int *stop;
    int has_deadline;
    double deadline, next_callback;
    c4_poll_fn poll;
    int status;
    /* The 7x6 opening books (solver/book.py describes the files), or NULL: 5-byte
     * records of exact 12-ply values, 3-byte records of 8-ply win/draw/loss. */
    const unsigned char *exact_book, *outcome_book;
    uint64_t exact_count, outcome_count;
    /* Set on the copies that search columns in parallel (columns.c), else NULL:
     * asked at every poll point; non-zero stops the search as the others do. */
    int (*at_poll)(solver_t *s);
    int etc_until; /* enhanced transposition cutoffs at nodes of fewer stones */
    void *job;
};

/* The score of the side to move when it wins with its next stone: one more than the
 * cells left to the opponent, halved (scores.win_now_score). */
static inline int win_now_score(const solver_t *s, int moves) {
    return (int)((unsigned)(s->cells + 1 - moves) / 2); /* never negative: no sign fix-up */
}

/* The score of the side to move when it cannot stop the opponent's next stone from
 * winning (the opponent's win-now score one ply later, negated). */
static inline int lose_now_score(const solver_t *s, int moves) {
    return -(int)((unsigned)(s->cells - moves) / 2);
}

/* x / 2 rounded down, as Python's // (C's / rounds toward zero): the book's scores. */
static inline int floor_half(int x) { return x >= 0 ? x / 2 : -((1 - x) / 2); }

/* x / 2 rounded toward zero, as in Pons's C++ probe (solver/exact.py's _half): the probe's
 * window near 0. Kept apart from floor_half: the two searches must probe alike. */
static inline int half_toward_zero(int x) { return x / 2; }

/* The highest stone of `stones` (the stones of one column), 0 for none. */
static inline u128 c4_top_stone(u128 stones) {
    while (stones & (stones - 1)) stones &= stones - 1;
    return stones;
}

/* book.c: the exact 12-ply score of a position (the side to move is the first
 * player), or BOOK_MISSING; and the 8-ply outcome, 1, 0 or -1. */
int c4_book_exact(const solver_t *s, uint64_t first, uint64_t mask);
int c4_book_outcome(const solver_t *s, uint64_t first, uint64_t mask);

/* table.c: give the solver a table of its own of `size` entries; 0 when out of memory. */
int c4_own_table(solver_t *s, uint64_t size);

/* table.c: search with this packed table of `size` entries from now on. */
void c4_use_packed(solver_t *s, uint64_t *table, uint64_t size);
/* table.c: at a poll point, move to the long table once the call has searched enough. */
void c4_grow_table(solver_t *s);

/* stops.c: non-zero when the search must stop now (asked every POLL_EVERY nodes). */
int c4_should_stop(solver_t *s);
/* stops.c: start the clock of a call: a deadline `seconds` from now (infinity: none). */
void c4_start_clock(solver_t *s, double seconds);
/* stops.c: watch for SIGINT during a call from Python's main thread, then restore. */
void c4_watch_interrupt(solver_t *s);
int c4_unwatch_interrupt(void);

/* search.c: every cell where `stones` would complete a line (not masked to empty). */
u128 c4_spots(const solver_t *s, u128 stones);
/* search.c: narrow `low` and `high` (a position's score, its mover's view) by what the
 * follow-up guarantees (search_body.h's leader_ceiling and follower_floor). */
void c4_parity_bounds(const solver_t *s, u128 cur, u128 mask, int moves, int *low, int *high);
/* search.c: the null-window search: the score in (alpha, beta), else a bound beyond
 * it; the side to move cannot win with its next stone. Sets s->status to C4_STOPPED
 * when told to stop (the result is then meaningless). */
int c4_search(solver_t *s, u128 cur, u128 mask, int moves, int alpha, int beta);

#endif
