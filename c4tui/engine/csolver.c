/* Native search of the exact solver: the same negamax as solver.py, in C.
 *
 * Optional accelerator: built at install into the extension module c4tui.engine._kernels
 * (setup.py, with kernels.c and playout.c) and loaded by c4tui/engine/native.py with
 * ctypes; the pure-Python search stays the reference and the fallback. The algorithm is the one solver.py documents (Pons's):
 * null-window negamax with alpha-beta, non-losing moves only, moves ordered by the
 * winning spots they create (centre first on ties), a transposition table keyed by
 * the smaller of the position's key and its mirror image's key, and on 7x6 the opening
 * books read in place as book.py reads them (12-ply exact scores, 8-ply outcomes).
 *
 * Bitboards: column-major, (height + 1) bits per column (a sentinel bit on top), as
 * geometry.py lays them out. Boards of up to 64 bits use uint64_t; bigger ones (up to
 * 10 x 11 = 110 bits) use unsigned __int128. The search body below is written once and
 * included twice (this file includes itself), once for each bitboard type.
 *
 * Table: when a key and its 8-bit bound fit in 64 bits, the table is the Python
 * solver's own array (entry = key << 8 | bound, the same encoding), so both searches
 * share what they learn. Otherwise the table is owned here: two words per entry.
 *
 * Stopping: every POLL_EVERY nodes the search calls `poll` (Python checks its clock and
 * stop event); a non-zero answer unwinds the search without storing anything.
 */
#ifndef C4_BODY

#include <stdlib.h>
#include <string.h>

#include "csolver.h"

/* Enhanced transposition cutoffs at nodes with more empty cells than this (the same
 * figure as search.py's; measured best from 0 to 22 on the slowest random positions). */
#define ETC_MIN_EMPTY 6

/* The book's Huffman codes of a position and of its mirror image (book.py's
 * huffman_codes): per column, bottom up, 10 for a stone of `first`, 11 for the other
 * player's, a 0 closing the column; one more 0 at the end. */
static void book_codes(const solver_t *s, uint64_t first, uint64_t mask, uint64_t *code,
                       uint64_t *mirrored) {
    uint64_t c = 0, m = 0;
    int m_length = 0;
    for (int col = 0; col < s->width; col++) {
        const int shift = col * s->h1;
        uint64_t part = 0;
        int length = 1;
        for (int row = 0; row < s->height && (mask >> (shift + row) & 1); row++) {
            part = part << 2 | ((first >> (shift + row) & 1) ? 2 : 3);
            length += 2;
        }
        part <<= 1;
        c = c << length | part;
        m |= part << m_length;
        m_length += length;
    }
    *code = c << 1;
    *mirrored = m << 1;
}

/* Binary search of a book file for a big-endian key; the record's address or NULL. */
static const unsigned char *book_find(const unsigned char *data, uint64_t count, int record,
                                      int key_bytes, int sign_bit, uint64_t key_mask,
                                      int64_t key) {
    uint64_t low = 0, high = count;
    while (low < high) {
        const uint64_t mid = (low + high) / 2;
        const unsigned char *at = data + mid * record;
        int64_t found = 0;
        for (int i = 0; i < key_bytes; i++) found = found << 8 | at[i];
        found &= (int64_t)key_mask;
        /* The exact book sorts its keys as signed 32-bit numbers. */
        if (sign_bit && (found >> 31 & 1)) found -= (int64_t)1 << 32;
        if (found == key) return at;
        if (found < key) {
            low = mid + 1;
        } else {
            high = mid;
        }
    }
    return NULL;
}

/* x / 2 rounded down, as Python's // (C's / rounds toward zero). */
static int floor_half(int x) { return x >= 0 ? x / 2 : -((1 - x) / 2); }

/* The exact score (side to move, the first player) of a 12-ply position; BOOK_MISSING
 * when neither it nor its mirror image is in the book (book.py's exact_score). */
int c4_book_exact(const solver_t *s, uint64_t first, uint64_t mask) {
    uint64_t codes[2];
    book_codes(s, first, mask, &codes[0], &codes[1]);
    for (int i = 0; i < 2; i++) {
        const int64_t key = codes[i] >= ((uint64_t)1 << 31) ? (int64_t)codes[i] - ((int64_t)1 << 32)
                                                              : (int64_t)codes[i];
        const unsigned char *at =
            book_find(s->exact_book, s->exact_count, 5, 4, 1, 0xFFFFFFFFu, key);
        if (at) {
            const int v = (signed char)at[4];
            /* book.py's _distance_to_score: plies to a win or loss -> our score. */
            if (v > 0) return floor_half(v - 69);
            if (v < 0) return 34 + floor_half(v);
            return 0;
        }
    }
    return BOOK_MISSING;
}

/* 1, 0 or -1: win, draw or loss for the side to move of an 8-ply position. */
static int book_outcome(const solver_t *s, uint64_t first, uint64_t mask) {
    uint64_t codes[2];
    book_codes(s, first, mask, &codes[0], &codes[1]);
    for (int i = 0; i < 2; i++) {
        const unsigned char *at = book_find(s->outcome_book, s->outcome_count, 3, 3, 0,
                                            0xFFFFFCu, (int64_t)codes[i]);
        if (at) return -(at[2] & 3);
    }
    return 1; /* the book leaves out the positions the first player wins */
}

static unsigned tt_get(const solver_t *s, u128 key, uint64_t slot) {
    if (s->packed) {
        /* One word per entry, read and written whole: threads sharing the table
         * (csolver_columns.c) see an old or a new entry, each with its own key. */
        uint64_t entry = __atomic_load_n(&s->packed[slot], __ATOMIC_RELAXED);
        return (entry >> 8) == (uint64_t)key ? (unsigned)(entry & 255) : 0;
    }
    const uint64_t *e = s->pairs + 2 * slot;
    if (e[0] == (uint64_t)key && (e[1] >> 8) == (uint64_t)(key >> 64)) {
        return (unsigned)(e[1] & 255);
    }
    return 0;
}

static void tt_put(solver_t *s, u128 key, uint64_t slot, unsigned value) {
    if (s->packed) {
        __atomic_store_n(&s->packed[slot], ((uint64_t)key << 8) | value, __ATOMIC_RELAXED);
        return;
    }
    uint64_t *e = s->pairs + 2 * slot;
    e[0] = (uint64_t)key;
    e[1] = ((uint64_t)(key >> 64) << 8) | value;
}

static int popcount128(u128 x) {
    return __builtin_popcountll((uint64_t)x) + __builtin_popcountll((uint64_t)(x >> 64));
}

#define C4_BODY
#define BB uint64_t
#define FN(name) name##_64
#include "csolver.c"
#undef BB
#undef FN
#define BB u128
#define FN(name) name##_128
#include "csolver.c"
#undef BB
#undef FN

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
    /* Near the end the children's table reads cost more than the cutoffs they find. */
    s->etc_until = s->cells - ETC_MIN_EMPTY;
    s->bits = width * s->h1;
    for (int col = 0; col < width; col++) {
        u128 column = (((u128)1 << height) - 1) << (col * s->h1);
        s->column[col] = column;
        s->board |= column;
        s->bottom |= (u128)1 << (col * s->h1);
    }
    /* Centre first, left first on ties (solver.order_columns). */
    int placed = 0;
    for (int dist = 0; dist <= width; dist++) {
        for (int col = 0; col < width; col++) {
            int d = 2 * col - (width - 1);
            if (d < 0) d = -d;
            if (d == dist) s->order[placed++] = col;
        }
    }
    int min_score = -max_score;
    s->upper_shift = min_score - 1;
    s->lower_base = max_score - min_score + 1;
    s->lower_shift = max_score - 2 * min_score + 2;
    if (own_size) {
        s->pairs = calloc(own_size, 2 * sizeof(uint64_t));
        if (!s->pairs) {
            free(s);
            return NULL;
        }
        s->size = own_size;
    }
    return s;
}

/* Use the caller's packed table (entries of key << 8 | bound) of `size` entries. */
void c4_set_table(void *handle, uint64_t *table, uint64_t size) {
    solver_t *s = handle;
    if (s->pairs) return; /* this solver's keys do not fit a packed entry */
    s->packed = table;
    s->size = table ? size : 0;
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

/* Forget every stored bound of an owned table. */
void c4_clear(void *handle) {
    solver_t *s = handle;
    if (s->pairs) memset(s->pairs, 0, s->size * 2 * sizeof(uint64_t));
}

void c4_free(void *handle) {
    solver_t *s = handle;
    if (!s) return;
    free(s->pairs);
    free(s);
}

uint64_t c4_nodes(void *handle) { return ((solver_t *)handle)->nodes; }

int c4_stopped(void *handle) { return ((solver_t *)handle)->stopped; }

/* The negamax score of a position in (alpha, beta), else a bound beyond it; the side to
 * move cannot win with its next stone. Sets the stopped flag when `poll` said stop. */
int c4_negamax(void *handle, uint64_t cur_lo, uint64_t cur_hi, uint64_t mask_lo,
               uint64_t mask_hi, int moves, int alpha, int beta, poll_fn poll) {
    solver_t *s = handle;
    if (!s->packed && !s->pairs) return 0; /* no table yet: nothing to search with */
    s->stopped = 0;
    s->poll = poll;
    s->next_poll = s->nodes + POLL_EVERY;
    u128 cur = ((u128)cur_hi << 64) | cur_lo;
    u128 mask = ((u128)mask_hi << 64) | mask_lo;
    return c4_search(s, cur, mask, moves, alpha, beta);
}

int c4_search(solver_t *s, u128 cur, u128 mask, int moves, int alpha, int beta) {
    if (s->bits <= 64) return root_64(s, (uint64_t)cur, (uint64_t)mask, moves, alpha, beta);
    return root_128(s, cur, mask, moves, alpha, beta);
}

u128 c4_spots(const solver_t *s, u128 stones) {
    if (s->bits <= 64) return spots_64(s, (uint64_t)stones);
    return spots_128(s, stones);
}

#else /* C4_BODY: the search for one bitboard type BB */

/* Every cell where `stones` would complete a line (not masked to empty cells). */
static inline BB FN(spots)(const solver_t *s, BB stones) {
    const int n = s->connect, h1 = s->h1;
    BB found = ~(BB)0;
    for (int k = 1; k < n; k++) found &= stones << k; /* vertical: the spot on top */
    const int steps[3] = {h1, h1 - 1, h1 + 1};
    for (int i = 0; i < 3; i++) {
        const int d = steps[i];
        BB below[8], above[8];
        below[1] = stones << d;
        above[1] = stones >> d;
        for (int k = 2; k < n; k++) {
            below[k] = below[k - 1] & (stones << (k * d));
            above[k] = above[k - 1] & (stones >> (k * d));
        }
        found |= below[n - 1] | above[n - 1];
        for (int j = 1; j < n - 1; j++) found |= below[j] & above[n - 1 - j];
    }
    return found;
}

static inline BB FN(mirror_move)(const solver_t *s, BB move, int col) {
    return move >> (col * s->h1) << ((s->width - 1 - col) * s->h1);
}

static BB FN(mirror)(const solver_t *s, BB stones) {
    BB out = 0;
    for (int col = 0; col < s->width; col++) {
        out |= FN(mirror_move)(s, stones & (BB)s->column[col], col);
    }
    return out;
}

static int FN(negamax)(solver_t *s, BB cur, BB mask, BB mcur, BB mmask, int moves, int alpha,
                       int beta, BB threats) {
    s->nodes++;
    if (s->nodes >= s->next_poll) {
        s->next_poll = s->nodes + POLL_EVERY;
        if ((s->at_poll && s->at_poll(s)) || (s->poll && s->poll())) {
            s->stopped = 1;
            return 0;
        }
    }
    const BB board = (BB)s->board;
    const int cells = s->cells;
    const BB empty = board ^ mask;
    threats &= empty;
    BB possible = (mask + (BB)s->bottom) & board;
    const BB forced = possible & threats;
    if (forced) {
        if (forced & (forced - 1)) return -((cells - moves) / 2);
        possible = forced;
    }
    /* Never drop a stone right below an opponent's spot. */
    possible &= ~(threats >> 1);
    if (!possible) return -((cells - moves) / 2);
    if (moves >= cells - 2) return 0;
    const int low = -((cells - 2 - moves) / 2);
    if (alpha < low) {
        alpha = low;
        if (alpha >= beta) return alpha;
    }
    const int high = (cells - 1 - moves) / 2;
    if (beta > high) {
        beta = high;
        if (alpha >= beta) return beta;
    }
    BB key = cur + mask;
    const BB mkey = mcur + mmask;
    if (mkey < key) key = mkey;
    const uint64_t slot = (uint64_t)(key % (BB)s->size);
    const int value = (int)tt_get(s, (u128)key, slot);
    if (value > s->lower_base) {
        const int bound = value - s->lower_shift;
        if (alpha < bound) {
            alpha = bound;
            if (alpha >= beta) return alpha;
        }
    } else if (value) {
        const int bound = value + s->upper_shift;
        if (beta > bound) {
            beta = bound;
            if (alpha >= beta) return beta;
        }
    }
    if (s->exact_book && moves == BOOK_EXACT_PLY) {
        const int v = c4_book_exact(s, (uint64_t)cur, (uint64_t)mask);
        if (v != BOOK_MISSING) return v;
    } else if (s->outcome_book && moves == BOOK_OUTCOME_PLY) {
        const int v = book_outcome(s, (uint64_t)cur, (uint64_t)mask);
        if (v == 0) return 0;
        if (v == 1 && alpha < 1) {
            alpha = 1;
            if (alpha >= beta) return alpha;
        } else if (v == -1 && beta > -1) {
            beta = -1;
            if (alpha >= beta) return beta;
        }
    }
    const BB opp = cur ^ mask, mopp = mcur ^ mmask;
    if (s->exact_book && moves == BOOK_EXACT_PLY - 1) {
        /* Every child is a book position: take the best of their exact scores without
         * a call per child (a child missing from the book falls through). */
        int best = -100, all_known = 1;
        for (int i = 0; i < s->width && all_known; i++) {
            const BB move = possible & (BB)s->column[s->order[i]];
            if (!move) continue;
            const int v = c4_book_exact(s, (uint64_t)opp, (uint64_t)(mask | move));
            if (v == BOOK_MISSING) {
                all_known = 0;
            } else if (-v > best) {
                best = -v;
                if (best >= beta) {
                    tt_put(s, (u128)key, slot, (unsigned)(best + s->lower_shift));
                    return best;
                }
            }
        }
        if (all_known) {
            tt_put(s, (u128)key, slot, (unsigned)(best - s->upper_shift));
            return best;
        }
    }
    if (moves < s->etc_until) {
        /* Enhanced transposition cutoff: a child whose stored upper bound already
         * lifts this node to beta ends the search before any child is searched
         * (a quarter fewer nodes just past the book). */
        for (int i = 0; i < s->width; i++) {
            const int col = s->order[i];
            const BB move = possible & (BB)s->column[col];
            if (!move) continue;
            BB ckey = opp + (mask | move);
            const BB cmkey = mopp + (mmask | FN(mirror_move)(s, move, col));
            if (cmkey < ckey) ckey = cmkey;
            const int v = (int)tt_get(s, (u128)ckey, (uint64_t)(ckey % (BB)s->size));
            if (v && v <= s->lower_base && -(v + s->upper_shift) >= beta) {
                return -(v + s->upper_shift);
            }
        }
    }
    struct {
        int rank, col;
        BB move, spots;
    } ranked[MAX_WIDTH];
    int count = 0;
    if (possible & (possible - 1)) {
        /* Sort by the winning spots each move creates (ties: centre first). */
        for (int i = 0; i < s->width; i++) {
            const int col = s->order[i];
            const BB move = possible & (BB)s->column[col];
            if (!move) continue;
            const BB spots = FN(spots)(s, cur | move);
            const int rank = (popcount128((u128)(spots & empty)) << 4) | (15 - i);
            int at = count++;
            while (at > 0 && ranked[at - 1].rank < rank) {
                ranked[at] = ranked[at - 1];
                at--;
            }
            ranked[at].rank = rank;
            ranked[at].col = col;
            ranked[at].move = move;
            ranked[at].spots = spots;
        }
    } else {
        for (int col = 0; col < s->width; col++) {
            if (possible & (BB)s->column[col]) {
                ranked[0].col = col;
                break;
            }
        }
        ranked[0].move = possible;
        ranked[0].spots = FN(spots)(s, cur | possible);
        count = 1;
    }
    for (int i = 0; i < count; i++) {
        const BB move = ranked[i].move;
        const int score = -FN(negamax)(s, opp, mask | move, mopp,
                                       mmask | FN(mirror_move)(s, move, ranked[i].col), moves + 1,
                                       -beta, -alpha, ranked[i].spots);
        if (s->stopped) return 0;
        if (score >= beta) {
            tt_put(s, (u128)key, slot, (unsigned)(score + s->lower_shift));
            return score;
        }
        if (score > alpha) alpha = score;
    }
    tt_put(s, (u128)key, slot, (unsigned)(alpha - s->upper_shift));
    return alpha;
}

static int FN(root)(solver_t *s, BB cur, BB mask, int moves, int alpha, int beta) {
    const BB threats = FN(spots)(s, cur ^ mask);
    return FN(negamax)(s, cur, mask, FN(mirror)(s, cur), FN(mirror)(s, mask), moves, alpha, beta,
                       threats);
}

#endif
