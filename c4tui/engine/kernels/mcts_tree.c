/* MCTS's tree walk in C: UCT selection, expansion with tactical proofs, the random
 * game and the backup, iteration after iteration, in one call per slice.
 *
 * A twin of players/mcts_tree.py's Tree (the readable reference, and the fallback where
 * this file is not built): for the same tree and the same random numbers it makes the
 * same choices, so a seeded search gives the same visits, results and move with and
 * without a C compiler (tests/engine/test_mcts_native.py checks it). Hence:
 * - the random numbers are Python's own: Mersenne Twister MT19937, started from the
 *   state of the engine's random.Random and handed back after the slice, drawn as
 *   getrandbits draws them (32-bit words, little end first, the last one cut);
 * - the floating point is the same operations in the same order (log, sqrt and pow
 *   from the same C library Python calls), and ties go to the first child in
 *   centre-first order, as the Python loop's strict ">" does;
 * - children of a node are consecutive ids in centre-first order, and a node's open
 *   children (the Python `open` list) are those whose `open` flag is set.
 *
 * Memory: the node arrays are mapped once per tree for `cap` nodes, in one anonymous
 * mapping: its pages are zero and only touched as the tree grows. (calloc zeroed the
 * whole 40 MB at once whenever glibc handed back memory of earlier trees from its
 * heap, as it does once one has been freed: 13-25 ms of a 0.15 s move, measured, and
 * taken from the solver's verdict.) Like the Python tree, the tree stops
 * growing at `max_nodes` and leaves then only collect random games; `cap` leaves room
 * for the last expansion past that. Bitboards of up to 64 bits only (7x6 is 49).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "exports.h" /* c4m_* as Python calls them; playout.c's random game, c4p_* */
#include "non_losing.h"

typedef struct c4_playout playout_t;
typedef struct c4_tree tree_t;

#define MAX_WIDTH 16
#define MAX_LIMBS 8
#define MT_N 624 /* MT19937's state words, as in Python's random module */
#define MT_M 397
_Static_assert(MT_N + 1 == C4M_MT_WORDS, "c4m_grow's state: the words and the index");

/* A node's proof, from the view of the player who moved into it (mcts_tree.py). */
enum { UNKNOWN = 0, WIN = 1, DRAW = 2, LOSS = 3 };
static const double RESULT[4] = {0.0, 1.0, 0.0, -1.0};

/* Deepest path a walk can take: one node per cell plus the root. */
#define MAX_PATH 65

typedef struct {
    uint32_t state[MT_N];
    int index;
} mt_t;

struct c4_tree {
    int width, height, connect, cells, bits, limbs;
    int expand_at;
    int64_t max_nodes, cap, size;
    int max_depth;
    uint64_t board, bottom, steps[4];
    int order[MAX_WIDTH]; /* columns, centre first */
    uint64_t column[MAX_WIDTH];
    playout_t *playout;
    /* The node arrays, `cap` long; node 0 is the root. */
    int64_t *visits;
    double *mean, *spread;
    uint64_t *stone;
    int8_t *proof, *open, *unsettled;
    int32_t *first; /* first child's id; -1 while the node is not expanded */
    int8_t *count;  /* how many children */
};

/* ---- Python's random numbers ------------------------------------------------------ */

/* The next 32-bit word, as Python's genrand_uint32 makes it. */
static uint32_t mt_next(mt_t *mt) {
    static const uint32_t mag01[2] = {0x0u, 0x9908b0dfu};
    uint32_t y;
    if (mt->index >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (mt->state[kk] & 0x80000000u) | (mt->state[kk + 1] & 0x7fffffffu);
            mt->state[kk] = mt->state[kk + MT_M] ^ (y >> 1) ^ mag01[y & 1u];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (mt->state[kk] & 0x80000000u) | (mt->state[kk + 1] & 0x7fffffffu);
            mt->state[kk] = mt->state[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 1u];
        }
        y = (mt->state[MT_N - 1] & 0x80000000u) | (mt->state[0] & 0x7fffffffu);
        mt->state[MT_N - 1] = mt->state[MT_M - 1] ^ (y >> 1) ^ mag01[y & 1u];
        mt->index = 0;
    }
    y = mt->state[mt->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= (y >> 18);
    return y;
}

/* getrandbits(bits) as 64-bit limbs, little end first: 32-bit words in order, the
 * last one shifted right to keep only the bits asked for. */
static void random_limbs(mt_t *mt, int bits, int limbs, uint64_t *out) {
    memset(out, 0, sizeof(uint64_t) * limbs);
    for (int i = 0, left = bits; left > 0; i++, left -= 32) {
        uint32_t word = mt_next(mt);
        if (left < 32) word >>= (32 - left);
        out[i / 2] |= (uint64_t)word << (32 * (i % 2));
    }
}

/* ---- making and freeing ------------------------------------------------------------ */

/* Bytes of one node across the arrays: visits, mean, spread and stone (8 each), first
 * (4), proof, open, unsettled and count (1 each). */
#define NODE_BYTES (4 * 8 + 4 + 4 * 1)

void c4m_free(tree_t *t) {
    if (!t) return;
    c4p_free(t->playout);
    if (t->visits) munmap(t->visits, (size_t)t->cap * NODE_BYTES); /* the first array */
    free(t);
}

/* A tree with only its root (unvisited, unexpanded), or NULL without memory. `order`
 * holds the columns centre first; `bits` is the random game's getrandbits size. */
tree_t *c4m_new(int width, int height, int connect, const int *order, int bits,
                int expand_at, int64_t max_nodes) {
    int h1 = height + 1;
    int limbs = (bits + 63) / 64;
    if (width > MAX_WIDTH || width * h1 > 64 || limbs > MAX_LIMBS || max_nodes < 1)
        return NULL;
    tree_t *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->width = width;
    t->height = height;
    t->connect = connect;
    t->cells = width * height;
    t->bits = bits;
    t->limbs = limbs;
    t->expand_at = expand_at;
    t->max_nodes = max_nodes;
    /* An expansion starts below max_nodes and adds at most `width` children. */
    t->cap = max_nodes + width;
    t->steps[0] = 1;
    t->steps[1] = h1;
    t->steps[2] = h1 - 1;
    t->steps[3] = h1 + 1;
    for (int c = 0; c < width; c++) {
        t->order[c] = order[c];
        t->column[c] = (((uint64_t)1 << height) - 1) << (c * h1);
        t->board |= t->column[c];
        t->bottom |= (uint64_t)1 << (c * h1);
    }
    size_t n = (size_t)t->cap;
    t->playout = c4p_new(width, height, connect, limbs);
    void *nodes = mmap(NULL, n * NODE_BYTES, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (nodes != MAP_FAILED) {
        char *at = nodes; /* the 8-byte arrays first, so that each is aligned */
        t->visits = (int64_t *)at;
        t->mean = (double *)(at += n * sizeof *t->visits);
        t->spread = (double *)(at += n * sizeof *t->mean);
        t->stone = (uint64_t *)(at += n * sizeof *t->spread);
        t->first = (int32_t *)(at += n * sizeof *t->stone);
        t->proof = (int8_t *)(at += n * sizeof *t->first);
        t->open = (int8_t *)(at += n);
        t->unsettled = (int8_t *)(at += n);
        t->count = (int8_t *)(at += n);
    }
    if (!t->playout || nodes == MAP_FAILED) {
        c4m_free(t);
        return NULL;
    }
    t->size = 1;
    t->spread[0] = INFINITY;
    t->first[0] = -1;
    return t;
}

/* ---- tactics at expansion ---------------------------------------------------------- */

/* `x` moved by `d` cells: bit p of the answer is bit p + d of x. */
static uint64_t moved(uint64_t x, int64_t d) {
    if (d >= 64 || d <= -64) return 0;
    return d >= 0 ? x >> d : x << -d;
}

/* Empty cells where one more of `stones` completes `connect` in a row (heuristic.py's
 * spots): for each direction and each place k of the empty cell in the line, the
 * other connect - 1 cells of the line hold stones. */
static uint64_t spots(const tree_t *t, uint64_t stones, uint64_t empty) {
    uint64_t found = 0;
    int n = t->connect;
    for (int d = 0; d < 4; d++) {
        int64_t s = (int64_t)t->steps[d];
        for (int k = 0; k < n; k++) {
            uint64_t line = ~(uint64_t)0;
            for (int j = 0; j < n && line; j++) {
                if (j != k) line &= moved(stones, (j - k) * s);
            }
            found |= line;
        }
    }
    return found & empty;
}

/* geometry.non_losing: the playable stones that do not lose at once (non_losing.h). */
C4_DEFINE_NON_LOSING(non_losing, uint64_t)

/* The proof the children of `node` give it (UNKNOWN when they give none). */
static int settle(const tree_t *t, int64_t node) {
    int seen_draw = 0;
    for (int64_t k = t->first[node], end = k + t->count[node]; k < end; k++) {
        if (t->proof[k] == WIN) return LOSS;
        if (t->proof[k] == DRAW) seen_draw = 1;
    }
    if (t->unsettled[node]) return UNKNOWN;
    return seen_draw ? DRAW : WIN;
}

/* Record that path[depth] is proven and carry the consequences up the path. */
static void back_up_proof(tree_t *t, const int64_t *path, int depth, int settled) {
    for (; depth >= 0; depth--) {
        int64_t node = path[depth];
        t->proof[node] = (int8_t)settled;
        if (depth == 0) return;
        int64_t parent = path[depth - 1];
        if (settled == LOSS) t->open[node] = 0;
        t->unsettled[parent]--;
        settled = settle(t, parent);
        if (!settled) return;
    }
}

/* Create the children of path[depth] (the position `me`, `mask`), proving what one-move
 * tactics prove: a win now, the last cell (a draw), a move that lets the opponent win. */
static void expand(tree_t *t, const int64_t *path, int depth, uint64_t me, uint64_t mask) {
    int64_t node = path[depth];
    uint64_t empty = t->board ^ mask;
    uint64_t playable = (mask + t->bottom) & t->board;
    uint64_t wins = spots(t, me, empty) & playable;
    uint64_t safe = non_losing(playable, spots(t, me ^ mask, empty));
    int last_cell = __builtin_popcountll(mask) + 1 == t->cells;
    int64_t first = t->size;
    int unsettled = 0, won = 0;
    for (int i = 0; i < t->width; i++) {
        uint64_t stone = playable & t->column[t->order[i]];
        if (!stone) continue;
        /* A win now; else the last cell, a draw; else a move the opponent wins after. */
        int proof = (stone & wins)   ? WIN
                    : last_cell      ? DRAW
                    : !(stone & safe) ? LOSS
                                      : UNKNOWN;
        won |= proof == WIN;
        unsettled += proof == UNKNOWN;
        int64_t kid = t->size++;
        t->visits[kid] = 0;
        t->mean[kid] = 0.0;
        t->spread[kid] = INFINITY;
        t->stone[kid] = stone;
        t->proof[kid] = (int8_t)proof;
        t->open[kid] = proof != LOSS;
        t->first[kid] = -1;
        t->count[kid] = 0;
        t->unsettled[kid] = 0;
    }
    t->first[node] = (int32_t)first;
    t->count[node] = (int8_t)(t->size - first);
    t->unsettled[node] = (int8_t)unsettled;
    if (won || !unsettled) back_up_proof(t, path, depth, settle(t, node));
}

/* ---- the calls Python makes -------------------------------------------------------- */

/* Expand the root (the position `me`, `mask`) unless it is expanded. */
void c4m_expand_root(tree_t *t, uint64_t me, uint64_t mask) {
    int64_t path[1] = {0};
    if (t->first[0] < 0) expand(t, path, 0, me, mask);
}

/* Up to `count` iterations from the root `me`, `mask`; fewer once the root is proven.
 * `mt` is Python's random state (624 words and the index), advanced in place. Writes
 * how many ran to `done`. Needs no memory: the arrays were allocated with the tree. */
void c4m_grow(tree_t *t, uint64_t root_me, uint64_t root_mask, int64_t count, double c,
             uint32_t *mt_words, int64_t *done) {
    mt_t mt;
    memcpy(mt.state, mt_words, sizeof mt.state);
    mt.index = (int)mt_words[MT_N];
    int64_t path[MAX_PATH];
    uint64_t random[MAX_LIMBS];
    int64_t n_done = 0;
    while (n_done < count && !t->proof[0]) {
        n_done++;
        int64_t node = 0;
        uint64_t me = root_me, mask = root_mask;
        int depth = 0;
        path[0] = 0;
        double result;
        for (;;) {
            int settled = t->proof[node];
            if (settled) {
                result = RESULT[settled];
                break;
            }
            if (t->first[node] < 0) {
                if (t->visits[node] < t->expand_at || t->size >= t->max_nodes) {
                    random_limbs(&mt, t->bits, t->limbs, random);
                    result = -(double)c4p_game(t->playout, me, mask, random);
                    break;
                }
                expand(t, path, depth, me, mask);
                continue;
            }
            /* UCT, as mcts_tree.py computes it: the shared weight c * sqrt(ln N), with a
             * tiny term that keeps 0 * inf (an unvisited child) from becoming nan. */
            int64_t n = t->visits[node];
            double weight = c * sqrt(log((double)(n ? n : 1))) + 1e-12;
            double best_value = -INFINITY;
            int64_t best = node;
            for (int64_t k = t->first[node], end = k + t->count[node]; k < end; k++) {
                if (!t->open[k]) continue;
                double value = t->mean[k] + weight * t->spread[k];
                if (value > best_value) {
                    best_value = value;
                    best = k;
                }
            }
            node = best;
            me ^= mask;
            mask |= t->stone[node];
            path[++depth] = node;
        }
        if (depth > t->max_depth) t->max_depth = depth;
        for (int i = depth; i >= 0; i--) {
            int64_t at = path[i];
            int64_t n = t->visits[at] + 1;
            t->visits[at] = n;
            t->mean[at] += (result - t->mean[at]) / (double)n;
            t->spread[at] = pow((double)n, -0.5);
            result = -result;
        }
    }
    memcpy(mt_words, mt.state, sizeof mt.state);
    mt_words[MT_N] = (uint32_t)mt.index;
    *done = n_done;
}

/* Take root child `kid` out of selection (the opening book ruled it out). */
void c4m_close(tree_t *t, int64_t kid) { t->open[kid] = 0; }

/* Copy the subtree of `top` in `from` into the empty tree `to`, renumbered breadth
 * first so that `top` is 0, as mcts_tree.py's _copy_below does; C4_MCTS_NO_MEMORY without
 * memory for the walk. */
int c4m_copy_below(const tree_t *from, int64_t top, tree_t *to) {
    /* The copy's ids are given in the order nodes are queued: old id of new id i. */
    int64_t *old_of = malloc(sizeof(int64_t) * (size_t)from->size);
    if (!old_of) return C4_MCTS_NO_MEMORY;
    int64_t queued = 1;
    old_of[0] = top;
    to->size = 1;
    to->visits[0] = from->visits[top];
    to->mean[0] = from->mean[top];
    to->spread[0] = from->spread[top];
    to->proof[0] = from->proof[top];
    to->first[0] = -1;
    for (int64_t at = 0; at < queued; at++) {
        int64_t old = old_of[at];
        if (from->first[old] < 0) continue;
        int64_t first = to->size;
        for (int64_t k = from->first[old], end = k + from->count[old]; k < end; k++) {
            int64_t kid = to->size++;
            old_of[queued++] = k;
            to->visits[kid] = from->visits[k];
            to->mean[kid] = from->mean[k];
            to->spread[kid] = from->spread[k];
            to->stone[kid] = from->stone[k];
            to->proof[kid] = from->proof[k];
            to->open[kid] = from->open[k];
            to->first[kid] = -1;
            to->count[kid] = 0;
            to->unsettled[kid] = 0;
        }
        to->first[at] = (int32_t)first;
        to->count[at] = from->count[old];
        to->unsettled[at] = from->unsettled[old];
    }
    free(old_of);
    return C4_COPIED;
}

int64_t c4m_size(const tree_t *t) { return t->size; }
int c4m_max_depth(const tree_t *t) { return t->max_depth; }

/* The arrays, for Python to read between slices (enum c4_tree_array); 6 open and 7
 * unsettled as well, which Python does not read. */
void *c4m_array(const tree_t *t, int which) {
    void *arrays[] = {t->visits, t->mean, t->stone, t->proof, t->first, t->count, t->open};
    return which >= 0 && which < 7 ? arrays[which] : t->unsettled;
}
