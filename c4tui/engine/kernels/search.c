/* The exact solver's search: Pons's null-window negamax, for every board size.
 *
 * Negamax with alpha-beta over non-losing moves only, moves ordered by the winning
 * spots they create (centre first on ties), a transposition table keyed by the
 * smaller of the position's key and its mirror image's (table.h), enhanced
 * transposition cutoffs, and on 7x6 the opening books (book.c) inside the search:
 * exact at 12 plies, win/draw/loss at 8, and an 11-ply node takes the best of its
 * children's book scores; and bounds from Allis's follow-up rules (claimeven and the
 * odd threat: solver/parity.py). The search body is in search_body.h, compiled once for
 * 64-bit boards and once for 128-bit ones.
 */
#include <stdlib.h>
#include <string.h>

#include "non_losing.h"
#include "solver.h"
#include "table.h"

/* The stones in a bitboard; a macro, so that it is compiled with the instructions of
 * the search it is in (see POPCNT_SEARCH). */
#define POPCOUNT128(x) \
    (__builtin_popcountll((uint64_t)(x)) + __builtin_popcountll((uint64_t)((u128)(x) >> 64)))

#define BB uint64_t
#define FN(name) name##_7x6
#define FIXED_WIDTH 7
#define FIXED_HEIGHT 6
#define FIXED_CONNECT 4
#include "search_body.h"
/* On x86-64 with gcc, the 7x6 search once more for processors with the POPCNT
 * instruction (nearly all since 2008), chosen at run time: the move ordering counts
 * bits at every node, and without the instruction that is a library call (measured:
 * about 5% of the search's time). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define POPCNT_SEARCH 1
#pragma GCC push_options
#pragma GCC target("popcnt")
#undef FN
#define FN(name) name##_7x6_popcnt
#include "search_body.h"
#pragma GCC pop_options
/* And for processors with AVX2 (most since 2013-2015): the three sideways directions of
 * the winning spots, a lane each (search_body.h's SPOTS_VECTOR). */
#define AVX2_SEARCH 1
#pragma GCC push_options
#pragma GCC target("popcnt,avx2")
#undef FN
#define FN(name) name##_7x6_avx2
#define SPOTS_VECTOR 1
#include "search_body.h"
#undef SPOTS_VECTOR
#pragma GCC pop_options
#endif
#undef FIXED_WIDTH
#undef FIXED_HEIGHT
#undef FIXED_CONNECT
#undef FN
#define FN(name) name##_64
#include "search_body.h"
#undef BB
#undef FN
#define BB u128
#define FN(name) name##_128
#include "search_body.h"
#undef BB
#undef FN

static int is_7x6(const solver_t *s) {
    return s->width == 7 && s->height == 6 && s->connect == 4;
}

/* The 7x6 search takes the packed table as given (search_body.h's PACKED). */
static int fixed_7x6(const solver_t *s) { return is_7x6(s) && s->packed; }

/* Which 7x6 build runs (C4_BUILD_*): the best this processor has, unless the
 * environment's C4TUI_SEARCH_BUILD names a lesser one ("plain" or "popcnt"), so that the
 * tests run every build the machine can, not only its best (tests/engine/test_native.py):
 * each must search the same nodes. Chosen once; threads that race here choose alike. */
int c4_search_build(void) {
    static int chosen = -1;
    int build = __atomic_load_n(&chosen, __ATOMIC_RELAXED);
    if (build >= 0) return build;
    int best = C4_BUILD_PLAIN;
#ifdef POPCNT_SEARCH
    if (__builtin_cpu_supports("popcnt")) best = C4_BUILD_POPCNT;
#endif
#ifdef AVX2_SEARCH
    if (__builtin_cpu_supports("popcnt") && __builtin_cpu_supports("avx2")) best = C4_BUILD_AVX2;
#endif
    const char *asked = getenv("C4TUI_SEARCH_BUILD");
    build = best;
    if (asked && strcmp(asked, "plain") == 0) build = C4_BUILD_PLAIN;
    if (asked && strcmp(asked, "popcnt") == 0 && best >= C4_BUILD_POPCNT) build = C4_BUILD_POPCNT;
    __atomic_store_n(&chosen, build, __ATOMIC_RELAXED);
    return build;
}

int c4_search(solver_t *s, u128 cur, u128 mask, int moves, int alpha, int beta) {
    if (fixed_7x6(s)) {
        switch (c4_search_build()) {
#ifdef AVX2_SEARCH
        case C4_BUILD_AVX2:
            return root_7x6_avx2(s, (uint64_t)cur, (uint64_t)mask, moves, alpha, beta);
#endif
#ifdef POPCNT_SEARCH
        case C4_BUILD_POPCNT:
            return root_7x6_popcnt(s, (uint64_t)cur, (uint64_t)mask, moves, alpha, beta);
#endif
        default:
            return root_7x6(s, (uint64_t)cur, (uint64_t)mask, moves, alpha, beta);
        }
    }
    if (s->bits <= 64) return root_64(s, (uint64_t)cur, (uint64_t)mask, moves, alpha, beta);
    return root_128(s, cur, mask, moves, alpha, beta);
}

u128 c4_spots(const solver_t *s, u128 stones) {
    if (is_7x6(s)) return spots_7x6(s, (uint64_t)stones);
    if (s->bits <= 64) return spots_64(s, (uint64_t)stones);
    return spots_128(s, stones);
}

/* The follow-up's bounds of a position (solver.h): with an even number of empty cells
 * the leader's ceiling and the floor of an odd threat it makes, with an odd number the
 * follower's floor and the ceiling of the opponent's odd threats. */
#define PARITY_BOUNDS(KIND, BBT)                                                          \
    do {                                                                                  \
        const BBT c = (BBT)cur, m = (BBT)mask;                                            \
        const BBT moves_now = (m + (BBT)s->bottom) & (BBT)s->board;                       \
        int ceiling, floor;                                                               \
        if ((s->cells - moves) % 2 == 0) {                                                \
            ceiling = leader_ceiling_##KIND(s, c, m);                                     \
            floor = odd_threat_floor_##KIND(s, c, m, moves_now);                          \
        } else {                                                                          \
            floor = follower_floor_##KIND(s, c, m, moves_now);                            \
            ceiling = odd_threat_ceiling_##KIND(s, c, m, spots_##KIND(s, c ^ m));         \
        }                                                                                 \
        if (ceiling < *high) *high = ceiling;                                             \
        if (floor > *low) *low = floor;                                                   \
    } while (0)

void c4_parity_bounds(const solver_t *s, u128 cur, u128 mask, int moves, int *low, int *high) {
    if (is_7x6(s)) {
        PARITY_BOUNDS(7x6, uint64_t);
    } else if (s->bits <= 64) {
        PARITY_BOUNDS(64, uint64_t);
    } else {
        PARITY_BOUNDS(128, u128);
    }
}

/* One null-window probe from Python (Solver.probe): the score in (alpha, beta), else
 * a bound beyond it; the side to move cannot win with its next stone. `seconds` left
 * (infinity: no deadline), `watch` SIGINT (calls from Python's main thread), `poll` an
 * optional callback. c4_status() then says whether it finished. */
int c4_negamax(void *handle, uint64_t cur_lo, uint64_t cur_hi, uint64_t mask_lo,
               uint64_t mask_hi, int moves, int alpha, int beta, double seconds, int watch,
               c4_poll_fn poll) {
    solver_t *s = handle;
    if (!s->packed && !s->pairs) {
        s->status = C4_NO_MEMORY; /* no table to search with */
        return 0;
    }
    s->status = C4_DONE;
    s->poll = poll;
    s->next_poll = s->nodes + POLL_EVERY;
    s->long_at = s->nodes + s->long_after;
    c4_start_clock(s, seconds);
    if (watch) c4_watch_interrupt(s);
    const int score = c4_search(s, ((u128)cur_hi << 64) | cur_lo, ((u128)mask_hi << 64) | mask_lo,
                                moves, alpha, beta);
    if (watch && c4_unwatch_interrupt()) s->status = C4_INTERRUPTED;
    return score;
}
