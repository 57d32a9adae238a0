/* The negamax for one kind of board: included by search.c once per kind.
 *
 * Before including, search.c defines BB (the bitboard type: uint64_t for boards of up
 * to 64 bits, u128 for bigger ones, up to 10 x 11 = 110 bits) and FN(name), which
 * gives each function a name per kind; and for the 7x6 connect-4 board FIXED_WIDTH,
 * FIXED_HEIGHT and FIXED_CONNECT, so that the compiler knows the loops' lengths and
 * the shifts. The algorithm is solver/search.py's, step for step (the readable
 * reference, tested node for node against this one).
 */
#ifdef FIXED_WIDTH
#define WIDTH(s) FIXED_WIDTH
#define H1(s) (FIXED_HEIGHT + 1)
#define CONNECT(s) FIXED_CONNECT
#define COLUMN(s, col) (((((BB)1) << FIXED_HEIGHT) - 1) << ((col) * (FIXED_HEIGHT + 1)))
/* 7x6 keys fit a packed table's entries: their slots need no division. */
#define MAIN_SLOT(s, key) tt_slot(s, (uint64_t)(key))
/* And both bounds fit an entry: 49 key bits and two fields of 6 (solver.c's c4_new). */
#define BOUND_BITS(s) 6
/* The i-th column from the centre outwards, left first on ties (s->order's, for an odd
 * width): a constant in the unrolled loops over the columns, so that every shift by a
 * column's place is by a constant too (on x86-64 a shift by a variable count takes
 * more instructions, and the loops' bookkeeping costs as much as their work). */
#define ORDER(s, i) ((FIXED_WIDTH - 1) / 2 + (((i) & 1) ? -(((i) + 1) / 2) : (i) / 2))
#define EACH_COLUMN _Pragma("GCC unroll 16")
#define SLOTS FIXED_WIDTH /* the arrays of a node's moves */
/* A 7x6 search always has the packed table (c4_search sends it here only then): said
 * at each use, so that tt_get and tt_put drop their test for the owned table's pairs
 * (s->packed is read afresh after every call: the table may have grown). */
#define PACKED(s) if (!(s)->packed) __builtin_unreachable()
#else
#define ORDER(s, i) ((s)->order[i])
#define EACH_COLUMN
#define SLOTS MAX_WIDTH
#define PACKED(s)
#define WIDTH(s) ((s)->width)
#define H1(s) ((s)->h1)
#define CONNECT(s) ((s)->connect)
#define COLUMN(s, col) ((BB)(s)->column[col])
#define MAIN_SLOT(s, key) ((uint64_t)((key) % (BB)(s)->main_size))
#define BOUND_BITS(s) ((s)->bound_bits)
#endif
/* The slot of the key of a node of `moves` stones: in the deep region for the nodes
 * near the end (table.h), else in the main part. */
#define SLOT(s, key, moves)                                                   \
    ((moves) >= (s)->deep_moves ? (s)->main_size + (uint64_t)((key) % DEEP_ENTRIES) \
                                : MAIN_SLOT(s, key))
#if defined(FIXED_WIDTH) && FIXED_WIDTH % 2 == 0
#error "ORDER(s, i) is written for an odd width"
#endif

#ifndef LINES_MIN_EMPTY
/* Moves of equal weight are ranked by their open lines (open_lines) at nodes with at
 * least this many empty cells (search.py's LINES_MIN_EMPTY says why). */
#define LINES_MIN_EMPTY 20
#endif

/* Every cell where `stones` would complete a line (not masked to empty cells). */
static inline BB FN(spots)(const solver_t *s, BB stones) {
#if defined(FIXED_CONNECT) && FIXED_CONNECT == 4
    /* Connect 4 written out (heuristic.py's _spots4), with each pair of neighbours
     * found once: `pairs` marks a stone with another one step further (the loop below
     * takes about 75 instructions a call, this about 45; the search calls it for every
     * move it sorts). */
    (void)s;
    const BB twos = stones & (stones << 1), threes = twos & (twos << 1);
    BB found = threes << 1; /* vertical: the spot on top */
#ifdef SPOTS_VECTOR
    /* The three other directions at once, a lane each (the fourth repeats the first):
     * the same cells as the loop (search.c's AVX2 search). */
    typedef uint64_t lanes __attribute__((vector_size(32)));
    const lanes d = {FIXED_HEIGHT + 1, FIXED_HEIGHT, FIXED_HEIGHT + 2, FIXED_HEIGHT + 1};
    const lanes all = {stones, stones, stones, stones};
    const lanes pairs = all & (all >> d);
    const lanes lines = ((pairs << (2 * d)) & ((all << (3 * d)) | (all >> d))) |
                        ((pairs >> d) & ((all >> (3 * d)) | (all << d)));
    found |= lines[0] | lines[1] | lines[2];
#else
    const int steps[3] = {FIXED_HEIGHT + 1, FIXED_HEIGHT, FIXED_HEIGHT + 2};
#pragma GCC unroll 3
    for (int i = 0; i < 3; i++) {
        const int d = steps[i];
        const BB pairs = stones & (stones >> d);
        /* Two stones on one side (either), then the third on the far or near side. */
        found |= (pairs << (2 * d)) & ((stones << (3 * d)) | (stones >> d));
        found |= (pairs >> d) & ((stones >> (3 * d)) | (stones << d));
    }
#endif
    return found;
#else
    const int n = CONNECT(s), h1 = H1(s);
    BB found = ~(BB)0;
    /* Unrolled, so that on 7x6 every shift is by a constant (see ORDER). */
#pragma GCC unroll 8
    for (int k = 1; k < n; k++) found &= stones << k; /* vertical: the spot on top */
    const int steps[3] = {h1, h1 - 1, h1 + 1};
#pragma GCC unroll 3
    for (int i = 0; i < 3; i++) {
        const int d = steps[i];
        BB below[8], above[8];
        below[1] = stones << d;
        above[1] = stones >> d;
#pragma GCC unroll 8
        for (int k = 2; k < n; k++) {
            below[k] = below[k - 1] & (stones << (k * d));
            above[k] = above[k - 1] & (stones >> (k * d));
        }
        found |= below[n - 1] | above[n - 1];
#pragma GCC unroll 8
        for (int j = 1; j < n - 1; j++) found |= below[j] & above[n - 1 - j];
    }
    return found;
#endif
}

/* search.py's open_lines, by what one stone changes: a move's open lines are worth the
 * position's plus what its stone adds, and only the lines through its cell change, so
 * the moves rank alike by the stone's gain alone. For each direction the starting cells
 * of the lines free of the opponent's stones that hold none of the mover's (`none`,
 * gaining 1) or one (`one`, gaining 2), and of the opponent's lines free of the mover's
 * (`theirs`, taken away by the stone: gaining 1 too). */
typedef struct {
    BB none[4], one[4], theirs[4];
} FN(lines_t);

static inline void FN(open_lines)(const solver_t *s, BB own, BB other, FN(lines_t) * out) {
    const int n = CONNECT(s), h1 = H1(s);
    const BB board = (BB)s->board;
    const int steps[4] = {1, h1, h1 - 1, h1 + 1};
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++) {
        const int d = steps[i];
        BB mine = board & ~other, theirs = board & ~own, one = own, two = 0, seen = other;
#pragma GCC unroll 8
        for (int k = 1; k < n; k++) {
            const BB next = own >> (k * d);
            mine &= (board & ~other) >> (k * d);
            theirs &= (board & ~own) >> (k * d);
            two |= one & next;
            one |= next;
            seen |= other >> (k * d);
        }
        out->none[i] = mine & ~one;
        out->one[i] = mine & one & ~two;
        out->theirs[i] = theirs & seen;
    }
}

/* What a stone on `move` adds to the mover's open lines (above). */
static inline int FN(line_gain)(const solver_t *s, const FN(lines_t) * lines, BB move) {
    const int n = CONNECT(s), h1 = H1(s);
    const int steps[4] = {1, h1, h1 - 1, h1 + 1};
    int gain = 0;
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++) {
        const int d = steps[i];
        BB starts = move; /* the lines through the cell start here */
#pragma GCC unroll 8
        for (int k = 1; k < n; k++) starts |= move >> (k * d);
        gain += POPCOUNT128(lines->none[i] & starts) + 2 * POPCOUNT128(lines->one[i] & starts) +
                POPCOUNT128(lines->theirs[i] & starts);
    }
    return gain;
}

#ifdef FIXED_WIDTH
/* Rows 0, 2 and 4 of each column (solver.c's pair_lows on 7x6). */
#define PAIR_LOWS(s) ((BB)0x15 * (BB)0x40810204081ULL)
#else
#define PAIR_LOWS(s) ((BB)(s)->pair_lows)
#endif
#define PARITY_NONE 1000 /* beyond every score: the follow-up says nothing */

/* Whether `stones` hold a whole line: one of their cells completes a line of them. */
static inline int FN(has_line)(const solver_t *s, BB stones) {
    return (FN(spots)(s, stones) & stones) != 0;
}

/* Every cell above one of `cells` in its column. */
static inline BB FN(above)(const solver_t *s, BB cells) {
    const BB board = (BB)s->board;
    BB up = cells, out = 0;
#pragma GCC unroll 10
    for (int i = 1; i < H1(s) - 1; i++) {
        up = (up << 1) & board;
        out |= up;
    }
    return out;
}

/* The first cell of every line within `stones` along step `d`. */
static inline BB FN(line_starts)(const solver_t *s, BB stones, int d) {
    BB starts = stones;
#pragma GCC unroll 8
    for (int k = 1; k < CONNECT(s); k++) starts &= stones >> (k * d);
    return starts;
}

/* The line of CONNECT cells from `start` along step `d` (from each of several starts,
 * their lines' cells). */
static inline BB FN(line_from)(const solver_t *s, BB start, int d) {
    BB line = start;
#pragma GCC unroll 8
    for (int k = 1; k < CONNECT(s); k++) line |= start << (k * d);
    return line;
}

/* Every cell above an empty cell of a line within `follow` (parity.py's above_lines): a
 * leader's line clear of them all is refuted by no aftereven. */
static inline BB FN(above_lines)(const solver_t *s, BB follow, BB empty) {
    const int h1 = H1(s);
    const int steps[4] = {1, h1, h1 - 1, h1 + 1};
    BB cells = 0;
#pragma GCC unroll 4
    for (int i = 0; i < 4; i++) {
        cells |= FN(line_from)(s, FN(line_starts)(s, follow, steps[i]), steps[i]);
    }
    return FN(above)(s, cells & empty);
}

/* Allis's aftereven (parity.py's aftereven says why it holds): whether each line within
 * `lead` has, in every column of some line within `follow`, a cell above that line's
 * empty cells there. At most AFTEREVEN_GROUPS of the follower's lines count (the array's
 * size, parity.py's cap too: past it a bound is missed, never wrong). */
#define AFTEREVEN_GROUPS 32
#define AFTEREVEN_CELLS 8 /* of a line: connect is at most 8 (c4_new) */
static int FN(aftereven)(const solver_t *s, BB lead, BB follow, BB empty) {
    const int h1 = H1(s);
    const int steps[4] = {1, h1, h1 - 1, h1 + 1};
    BB above[AFTEREVEN_GROUPS][AFTEREVEN_CELLS];
    int columns[AFTEREVEN_GROUPS], groups = 0;
    for (int i = 0; i < 4 && groups < AFTEREVEN_GROUPS; i++) {
        const int d = steps[i];
        BB starts = FN(line_starts)(s, follow, d);
        while (starts && groups < AFTEREVEN_GROUPS) {
            const BB start = starts & (0 - starts);
            starts ^= start;
            BB cells = FN(line_from)(s, start, d) & empty;
            int n = 0;
            if (d == 1) {
                /* A vertical line's empty cells are its top ones: the highest counts. */
                if (cells) above[groups][n++] = FN(above)(s, start << (CONNECT(s) - 1));
            } else {
                while (cells && n < AFTEREVEN_CELLS) {
                    const BB cell = cells & (0 - cells);
                    cells ^= cell;
                    above[groups][n++] = FN(above)(s, cell);
                }
            }
            if (n) columns[groups++] = n;
        }
    }
    for (int i = 0; i < 4; i++) {
        const int d = steps[i];
        BB starts = FN(line_starts)(s, lead, d);
        while (starts) {
            const BB start = starts & (0 - starts);
            starts ^= start;
            const BB line = FN(line_from)(s, start, d);
            int refuted = 0;
            for (int j = 0; j < groups && !refuted; j++) {
                int all = 1;
                for (int k = 0; k < columns[j] && all; k++) all = (line & above[j][k]) != 0;
                refuted = all;
            }
            if (!refuted) return 0;
        }
    }
    return 1;
}

/* Allis's claimeven (solver/parity.py is the reference and says why it holds). With an
 * even number of empty cells, the side not to move can answer every move on top of it,
 * in the same column, pairing each column's cells from its lowest empty one up; a column
 * of odd empty cells leaves its lowest empty cell out, and those cells pair among
 * themselves (a move on one is answered on another: both are playable until then). The
 * mover then gets the lower cell of each pair, the "pair lows", and one cell of each pair
 * of the columns' lowest: the mover's ceiling is 0 when no line fits in its stones and
 * those cells, -1 when besides the opponent's stones and the cells it gets hold a line
 * (completed by the last cell at the latest). When the mover's cells do hold a line,
 * the follower's own lines may still refute every one (aftereven): -1 again; else
 * PARITY_NONE. `above_most` holds every cell above the follower's lines (above_lines),
 * and maybe more (all cells: nothing known): the follower's floor knows such a set for all its moves at once, and
 * testing it first spares most moves working out their own (the answer is the same;
 * 5% less time on the slowest known). */
static inline int FN(leader_ceiling_within)(const solver_t *s, BB cur, BB mask, BB above_most) {
    const BB empty = (BB)s->board ^ mask, lows = PAIR_LOWS(s);
    const BB singles = (mask + (BB)s->bottom) & (BB)s->board & ~lows;
    const BB lead = cur | (empty & lows) | singles;
    const BB follow = (cur ^ mask) | (empty & ~lows & ~singles);
    if (!FN(has_line)(s, lead)) return FN(has_line)(s, follow) ? -1 : 0;
    if (FN(has_line)(s, lead & ~above_most)) return PARITY_NONE;
    /* A line of the mover's clear of every cell above the follower's lines is refuted
     * by none of them: a cheap test that ends most calls here (9 in 10). */
    if (FN(has_line)(s, lead & ~FN(above_lines)(s, follow, empty))) return PARITY_NONE;
    return FN(aftereven)(s, lead, follow, empty) ? -1 : PARITY_NONE;
}

/* The same, with nothing known beforehand. */
static inline int FN(leader_ceiling)(const solver_t *s, BB cur, BB mask) {
    return FN(leader_ceiling_within)(s, cur, mask, ~(BB)0);
}

/* With an odd number of empty cells, the mover's floor: the best of its `moves` after
 * which the opponent's ceiling holds (leader_ceiling), else -PARITY_NONE. */
static inline int FN(follower_floor)(const solver_t *s, BB cur, BB mask, BB moves) {
    const BB opp = cur ^ mask, empty = (BB)s->board ^ mask, lows = PAIR_LOWS(s);
    const BB singles = (mask + (BB)s->bottom) & (BB)s->board & ~lows;
    /* The opponent gets these cells after any of the moves, and the mover at most
     * `maybe`: a line there that no line of the mover's can refute (leader_ceiling's
     * test), and none works (the usual case far from the end, for a test or two instead
     * of several a move). */
    const BB sure = opp | (((empty & lows) | singles) & ~moves);
    BB above_most = ~(BB)0;
    if (FN(has_line)(s, sure)) {
        const BB maybe = cur | moves | (empty & ~lows);
        above_most = FN(above_lines)(s, maybe, empty);
        if (FN(has_line)(s, sure & ~above_most)) return -PARITY_NONE;
    }
    int floor = -PARITY_NONE;
    while (moves) {
        const BB move = moves & (0 - moves);
        moves ^= move;
        const int score = -FN(leader_ceiling_within)(s, opp, mask | move, above_most);
        if (score > floor) {
            floor = score;
            if (floor == 1) break; /* the most it gives */
        }
    }
    return floor;
}

/* Allis's odd threat (solver/parity.py is the reference and says why it holds). With
 * an odd number of empty cells, the opponent (who moved last) answers every move on top
 * of it, as in the follow-up, but in the column of one of its winning spots that lies on
 * a pair low (`their_spots`: every cell where its stones would complete a line) it pairs
 * the cells below the spot so that it gets the spot: the mover can never play under it
 * but last of all, and then loses to it. Holds when the mover's stones and the cells it
 * may get hold no line; the mover's ceiling is then the loss to that spot at the latest
 * (with every cell above it left empty), the lowest over the spots, else PARITY_NONE. */
static inline int FN(odd_threat_ceiling)(const solver_t *s, BB cur, BB mask, BB their_spots) {
    const BB empty = (BB)s->board ^ mask, lows = PAIR_LOWS(s);
    const BB bottoms = (mask + (BB)s->bottom) & (BB)s->board;
    BB spots = their_spots & empty & lows & ~bottoms;
    int ceiling = PARITY_NONE;
    while (spots) {
        const BB spot = spots & (0 - spots);
        spots ^= spot;
        BB column = 0; /* the spot's */
        EACH_COLUMN
        for (int c = 0; c < WIDTH(s); c++) {
            if (COLUMN(s, c) & spot) column = COLUMN(s, c);
        }
        const BB below = column & (spot - 1) & empty;
        /* The mover's cells: the pair lows of the other columns, the others' lowest
         * cells off the pair lows (paired among themselves, as the spot's column's
         * lowest when it is a pair low), and the spot column's cells below the spot
         * off the pair lows. */
        const BB mine = cur | (empty & lows & ~column) | (bottoms & ~lows & ~column) |
                        (bottoms & column & lows) | (below & ~lows);
        if (FN(has_line)(s, mine)) continue;
        const int above = POPCOUNT128(column & ~(spot | (spot - 1)));
        const int score = -((above + 2) / 2);
        if (score < ceiling) ceiling = score;
    }
    return ceiling;
}

/* With an even number of empty cells, the mover's floor: the best of its `moves` after
 * which it holds an odd threat (odd_threat_ceiling), else -PARITY_NONE. */
static inline int FN(odd_threat_floor)(const solver_t *s, BB cur, BB mask, BB moves) {
    int floor = -PARITY_NONE;
    while (moves) {
        const BB move = moves & (0 - moves);
        moves ^= move;
        const int score = -FN(odd_threat_ceiling)(s, cur ^ mask, mask | move, FN(spots)(s, cur | move));
        if (score > floor) floor = score;
    }
    return floor;
}

/* Pons's non-losing moves (non_losing.h). */
C4_DEFINE_NON_LOSING(FN(non_losing), BB)

/* Stones of column `col` moved to the mirrored column (left to right): one shift, by a
 * constant on 7x6. */
static inline BB FN(mirror_move)(const solver_t *s, BB move, int col) {
    const int by = (WIDTH(s) - 1 - 2 * col) * H1(s);
    return by >= 0 ? move << by : move >> -by;
}

static BB FN(mirror)(const solver_t *s, BB stones) {
    BB out = 0;
    for (int col = 0; col < WIDTH(s); col++) {
        out |= FN(mirror_move)(s, stones & COLUMN(s, col), col);
    }
    return out;
}

/* The score in (alpha, beta), else a bound beyond it. The side to move (stones `cur`)
 * cannot win with its next stone; `mcur` and `mmask` are the mirror image, kept
 * along for symmetric table keys; `threats` are the opponent's winning spots, which
 * the parent worked out to sort its moves. */
static int FN(negamax)(solver_t *s, BB cur, BB mask, BB mcur, BB mmask, int moves, int alpha,
                       int beta, BB threats) {
    s->nodes++;
    if (s->nodes >= s->next_poll) {
        s->next_poll = s->nodes + POLL_EVERY;
        c4_grow_table(s);
        if (c4_should_stop(s)) {
            s->status = C4_STOPPED;
            return 0;
        }
    }
    const BB empty = (BB)s->board ^ mask;
    threats &= empty;
    const BB possible = FN(non_losing)((mask + (BB)s->bottom) & (BB)s->board, threats);
    if (!possible) return lose_now_score(s, moves);
    if (moves >= s->cells - 2) return 0; /* neither can win with the last two stones */
    /* The opponent cannot win at once: the score is at least a loss one move later,
     * and at most a win two moves from now. */
    const int low = lose_now_score(s, moves + 2);
    if (alpha < low) {
        alpha = low;
        if (alpha >= beta) return alpha;
    }
    const int high = win_now_score(s, moves + 2);
    if (beta > high) {
        beta = high;
        if (alpha >= beta) return beta;
    }
    /* Every node with enough empty cells has an entry (tt_keeps); its own read is
     * nearly always in the cache already, asked for by its parent's enhanced
     * transposition cutoffs below. */
    const int keeps = tt_keeps(s, moves);
    const int bits = BOUND_BITS(s);
    BB key = 0;
    uint64_t slot = 0;
    tt_bounds_t was = {-s->bound_offset, s->bound_offset, 0};
    if (keeps) {
        key = cur + mask;
        const BB mkey = mcur + mmask;
        if (mkey < key) key = mkey;
        slot = SLOT(s, key, moves);
        PACKED(s);
        was = tt_bounds(s, (u128)key, slot, bits);
    }
    if (alpha < was.floor) {
        alpha = was.floor;
        if (alpha >= beta) return alpha;
    }
    if (beta > was.ceiling) {
        beta = was.ceiling;
        if (alpha >= beta) return beta;
    }
    /* With an odd number of empty cells, a move after which the follow-up holds is a
     * floor (a fifth to a third fewer nodes on the slowest positions; at an even number
     * the parent's floor has always said it: see solver/parity.py). Tried once the
     * entry has not ended the node: 3% less time than before reading it. */
    if (alpha < 1 && ((s->cells - moves) & 1)) {
        const int floor = FN(follower_floor)(s, cur, mask, possible);
        if (alpha < floor) {
            alpha = floor;
            if (alpha >= beta) return alpha;
        }
    }
    /* And a ceiling when the opponent holds an odd threat that the follow-up makes good
     * (parity.py; a fifth fewer nodes again on the slowest positions). */
    if (((s->cells - moves) & 1) && (threats & PAIR_LOWS(s))) {
        const int ceiling = FN(odd_threat_ceiling)(s, cur, mask, threats);
        if (beta > ceiling) {
            beta = ceiling;
            if (alpha >= beta) return beta;
        }
    }
    if (moves == BOOK_EXACT_PLY && s->exact_book) {
        const int v = c4_book_exact(s, (uint64_t)cur, (uint64_t)mask);
        if (v != BOOK_MISSING) return v;
    } else if (moves == BOOK_OUTCOME_PLY && s->outcome_book) {
        /* Win / draw / loss only: a draw is exact, a win or loss a bound. */
        const int v = c4_book_outcome(s, (uint64_t)cur, (uint64_t)mask);
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
    if (moves == BOOK_EXACT_PLY - 1 && s->exact_book) {
        /* Every child is a book position: take the best of their exact scores without
         * a call per child (a child missing from the book falls through). */
        int best = -100, all_known = 1;
        for (int i = 0; i < WIDTH(s) && all_known; i++) {
            const BB move = possible & COLUMN(s, ORDER(s, i));
            if (!move) continue;
            const int v = c4_book_exact(s, (uint64_t)opp, (uint64_t)(mask | move));
            if (v == BOOK_MISSING) {
                all_known = 0;
            } else if (-v > best) {
                best = -v;
                if (best >= beta) {
                    if (keeps) tt_put_floor(s, (u128)key, slot, bits, was, best);
                    return best;
                }
            }
        }
        if (all_known) {
            if (keeps) tt_put_exact(s, (u128)key, slot, bits, best);
            return best;
        }
    }
    /* Enhanced transposition cutoff: a child whose stored upper bound already lifts
     * this node to beta ends the search before any child is searched (a quarter fewer
     * nodes just past the book). Every child's entry is asked for here, and read only
     * once the moves are sorted: the misses overlap one another and the sorting's work
     * (measured on the 12 slowest tail positions: the same nodes in 13-15% less CPU
     * time than reading them at once). Those reads also bring the entries into the
     * cache for the children's own reads. */
    BB ckeys[SLOTS];
    uint64_t cslots[SLOTS];
    int children = 0;
    const int etc = moves < s->etc_until;
    /* The moves by their place i in the centre-first order, and their ranks (0: no
     * move). The children go by rank: the winning spots each move makes, weighed
     * (search.py's comment there says how and why), then far from the end the open
     * lines, then centre first, as 16 - i in the low bits. Each next child is the
     * highest rank left, found without a branch (a sort's branches follow the scores
     * and are often mispredicted). */
    BB move_at[SLOTS], mmove_at[SLOTS], spots_at[SLOTS];
    int ranks[SLOTS] = {0};
    int count = 0, best = 0;
    const BB below_threats = threats >> 1, above_threats = threats << 1;
    const int lines = s->cells - moves >= LINES_MIN_EMPTY;
    FN(lines_t) open_now;
    if (lines) FN(open_lines)(s, cur, opp, &open_now);
    EACH_COLUMN
    for (int i = 0; i < WIDTH(s); i++) {
        const int col = ORDER(s, i);
        const BB move = possible & COLUMN(s, col);
        if (!move) continue;
        const BB mmove = FN(mirror_move)(s, move, col);
        if (etc) {
            BB ckey = opp + (mask | move);
            const BB cmkey = mopp + (mmask | mmove);
            if (cmkey < ckey) ckey = cmkey;
            ckeys[children] = ckey;
            cslots[children] = SLOT(s, ckey, moves + 1);
            PACKED(s);
            tt_prefetch(s, cslots[children]);
            children++;
        }
        const BB spots = FN(spots)(s, cur | move);
        const BB useful = spots & empty & ~above_threats;
        const int weight = 2 * POPCOUNT128(useful) + POPCOUNT128(useful & below_threats);
        /* Far from the end, ties go to the best open lines first (LINES_MIN_EMPTY); a
         * stone gains at most 2 a line through its cell: 12 bits are plenty. */
        const int tie = lines ? FN(line_gain)(s, &open_now, move) : 0;
        const int rank = (weight << 17) | (tie << 5) | (16 - i);
        move_at[i] = move;
        mmove_at[i] = mmove;
        spots_at[i] = spots;
        ranks[i] = rank;
        best = rank > best ? rank : best;
        count++;
    }
    /* The children's entries, in the centre-first order in which search.py reads them
     * before it sorts: the same cutoff, with the same bound. */
    for (int i = 0; i < children; i++) {
        PACKED(s);
        const int ceiling = tt_bounds(s, (u128)ckeys[i], cslots[i], bits).ceiling;
        if (-ceiling >= beta) return -ceiling;
    }
    /* Fail-soft (search.py says why): below alpha, the best child's score. */
    const int alpha_in = alpha;
    int best_score = -s->bound_offset;
    for (int r = 0; r < count; r++) {
        if (r) { /* the first is known from the ranking's loop */
            best = 0;
            EACH_COLUMN
            for (int j = 0; j < WIDTH(s); j++) best = ranks[j] > best ? ranks[j] : best;
        }
        const int i = 16 - (best & 31);
        ranks[i] = 0;
        const int score = -FN(negamax)(s, opp, mask | move_at[i], mopp, mmask | mmove_at[i],
                                       moves + 1, -beta, -alpha, spots_at[i]);
        if (s->status) return 0;
        if (score >= beta) {
            PACKED(s);
            if (keeps) tt_put_floor(s, (u128)key, slot, bits, was, score);
            return score;
        }
        if (score > best_score) best_score = score;
        if (score > alpha) alpha = score;
    }
    PACKED(s);
    /* A child's score above alpha_in and below beta was exact, and so is this node's. */
    if (keeps && alpha > alpha_in) {
        tt_put_exact(s, (u128)key, slot, bits, alpha);
    } else if (keeps) {
        tt_put_ceiling(s, (u128)key, slot, bits, was, best_score);
    }
    return best_score;
}

static int FN(root)(solver_t *s, BB cur, BB mask, int moves, int alpha, int beta) {
    const BB threats = FN(spots)(s, cur ^ mask);
    return FN(negamax)(s, cur, mask, FN(mirror)(s, cur), FN(mirror)(s, mask), moves, alpha, beta,
                       threats);
}

#undef SLOT
#undef PAIR_LOWS
#undef PARITY_NONE
#undef AFTEREVEN_GROUPS
#undef AFTEREVEN_CELLS
#undef MAIN_SLOT
#undef BOUND_BITS
#undef ORDER
#undef EACH_COLUMN
#undef SLOTS
#undef PACKED
#undef WIDTH
#undef H1
#undef CONNECT
#undef COLUMN
