/* What the solver's two C files share: the search state (csolver.c searches one
 * position; csolver_columns.c scores every column of one, on one or two threads). */
#ifndef C4_CSOLVER_H
#define C4_CSOLVER_H

#include <stdint.h>

typedef unsigned __int128 u128;
typedef int (*poll_fn)(void);

#define MAX_WIDTH 16
#define POLL_EVERY 32768

#define BOOK_EXACT_PLY 12
#define BOOK_OUTCOME_PLY 8
#define BOOK_MISSING 1000

typedef struct solver solver_t;

struct solver {
    int width, height, connect, h1, cells, bits;
    int order[MAX_WIDTH]; /* columns from the centre outwards */
    u128 board, bottom, column[MAX_WIDTH];
    /* Bound encoding of solver.py: 1..lower_base an upper bound, above a lower bound. */
    int upper_shift, lower_base, lower_shift;
    uint64_t *packed; /* the Python array (key << 8 | bound), or NULL */
    uint64_t *pairs;  /* owned: low key word, high key word << 8 | bound */
    uint64_t size;
    uint64_t nodes, next_poll;
    poll_fn poll;
    int stopped;
    /* The 7x6 opening books (book.py describes the files), or NULL: 5-byte records of
     * exact 12-ply values, 3-byte records of 8-ply win/draw/loss. */
    const unsigned char *exact_book, *outcome_book;
    uint64_t exact_count, outcome_count;
    /* Set on the copies that search columns in parallel (csolver_columns.c), else NULL:
     * called at every poll point; non-zero stops the search as `poll` does. */
    int (*at_poll)(solver_t *s);
    int etc_until; /* enhanced transposition cutoffs at nodes of fewer stones */
    void *job;
};

/* The exact 12-ply book score of a position (side to move); BOOK_MISSING if unknown. */
int c4_book_exact(const solver_t *s, uint64_t first, uint64_t mask);

/* Every cell where `stones` would complete a line (not masked to empty cells). */
u128 c4_spots(const solver_t *s, u128 stones);

/* The null-window search of csolver.c: the score in (alpha, beta), else a bound beyond
 * it; the side to move cannot win with its next stone. Sets s->stopped when told to. */
int c4_search(solver_t *s, u128 cur, u128 mask, int moves, int alpha, int beta);

#endif
