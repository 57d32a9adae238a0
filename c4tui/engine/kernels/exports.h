/* Every C function Python calls, and every constant both sides read: the one contract.
 *
 * The C files that define these functions include this header, so the compiler checks
 * each definition against the declaration here; Python declares them to ctypes in
 * kernels/library.py (PROTOTYPES) and mirrors the constants in calls.py and
 * players/mcts_native.py, and tests/engine/test_exports.py reads this file with cffi's
 * C parser and checks the prototypes, the constants and the compiled library against
 * it. Change a call here first; the test then says what else must follow.
 *
 * Kept to what cffi's parser reads: declarations, enums and integer #defines; the
 * include guard and #include lines are the only other preprocessor lines (the test
 * drops them).
 */
#ifndef C4_EXPORTS_H
#define C4_EXPORTS_H

#include <stdint.h>

/* ---- the exact solver (solver.h and its files) ------------------------------------- */

/* How a search ended: c4_status(), c4_analyze(). */
enum c4_status {
    C4_DONE = 0,
    C4_STOPPED = 1,     /* the stop flag, the deadline or the callback */
    C4_INTERRUPTED = 2, /* SIGINT arrived while the call watched for it (stops.c) */
    C4_NO_MEMORY = 3,
};

/* c4_analyze's low and high of a full column. */
#define C4_NONE -1000

/* A Python function asked now and then whether to stop (non-zero: stop). */
typedef int (*c4_poll_fn)(void);
/* Called by c4_analyze as each column's score becomes exact: column, score. */
typedef void (*c4_column_fn)(int column, int score);

/* solver.c */
void *c4_new(int width, int height, int connect, int max_score, uint64_t own_size);
void c4_set_book(void *handle, const unsigned char *exact, uint64_t exact_count,
                 const unsigned char *outcome, uint64_t outcome_count);
void c4_set_stop(void *handle, const int *flag);
void c4_free(void *handle);
uint64_t c4_nodes(void *handle);
/* search.c: which build of the 7x6 search runs on this processor (C4TUI_SEARCH_BUILD
 * may ask for a lesser one). */
enum c4_build {
    C4_BUILD_PLAIN = 0,
    C4_BUILD_POPCNT = 1, /* the popcnt instruction */
    C4_BUILD_AVX2 = 2,   /* popcnt, and AVX2 for the winning spots */
};
int c4_search_build(void);
int c4_status(void *handle);
/* table.c */
void c4_set_table(void *handle, uint64_t *table, uint64_t size);
void c4_set_long_table(void *handle, uint64_t *table, uint64_t size, uint64_t after_nodes);
int c4_on_long_table(void *handle);
void c4_clear(void *handle);
/* search.c */
int c4_negamax(void *handle, uint64_t cur_lo, uint64_t cur_hi, uint64_t mask_lo,
               uint64_t mask_hi, int moves, int alpha, int beta, double seconds, int watch,
               c4_poll_fn poll);
/* columns.c; known_column -1: no column's score known beforehand */
int c4_analyze(void *handle, uint64_t cur_lo, uint64_t cur_hi, uint64_t mask_lo,
               uint64_t mask_hi, int moves, int weak, int threads, int *low, int *high,
               double seconds, int watch, c4_poll_fn poll, c4_column_fn on_column,
               int known_column, int known_score);

/* ---- MCTS: the random game (playout.c) and the tree (mcts_tree.c) ------------------ */

typedef struct c4_playout c4_playout;
typedef struct c4_tree c4_tree;

/* How c4m_copy_below ended (C4_MCTS_NO_MEMORY is C4_NO_MEMORY's value). */
enum c4_copy { C4_COPIED = 0, C4_MCTS_NO_MEMORY = 3 };

/* c4m_array's arrays. */
enum c4_tree_array {
    C4M_VISITS = 0, /* int64_t */
    C4M_MEAN = 1,   /* double */
    C4M_STONE = 2,  /* uint64_t */
    C4M_PROOF = 3,  /* int8_t */
    C4M_FIRST = 4,  /* int32_t: the first child's id, -1 while not expanded */
    C4M_COUNT = 5,  /* int8_t: how many children */
};

/* Python's Mersenne Twister state as c4m_grow takes it: 624 words and the index. */
#define C4M_MT_WORDS 625

c4_playout *c4p_new(int width, int height, int connect, int limbs);
void c4p_free(c4_playout *p);
int c4p_game(const c4_playout *p, uint64_t me, uint64_t mask, const uint64_t *random);

c4_tree *c4m_new(int width, int height, int connect, const int *order, int bits,
                 int expand_at, int64_t max_nodes);
void c4m_free(c4_tree *t);
void c4m_expand_root(c4_tree *t, uint64_t me, uint64_t mask);
void c4m_grow(c4_tree *t, uint64_t root_me, uint64_t root_mask, int64_t count, double c,
              uint32_t *mt_words, int64_t *done);
void c4m_close(c4_tree *t, int64_t kid);
int c4m_copy_below(const c4_tree *from, int64_t top, c4_tree *to);
int64_t c4m_size(const c4_tree *t);
int c4m_max_depth(const c4_tree *t);
void *c4m_array(const c4_tree *t, int which);

#endif
