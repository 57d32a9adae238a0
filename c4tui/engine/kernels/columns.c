/* Every column of a position scored exactly in one call: solver/columns.py's analysis, in C.
 *
 * The pure-Python analysis (c4tui/engine/solver/columns.py) drives one C search per
 * null-window probe; for a position that takes a tenth of a millisecond that Python
 * costs more than the search. Here the whole analysis is one call, with the same steps:
 * each column's child and its bounds before any search (a win at once, the last cell,
 * the 12-ply book score, the 13-ply book floor), a 12-ply root's own book score that
 * settles the last column able to reach it, and the probes in turns: the first column
 * alone until one score is known, then every pending column, guessing the last known
 * score twice at most before the binary search (the first guess, before any score is
 * known: the root's own floor from the book at 12 and 13 plies, its grandparents' least
 * book score at 14).
 *
 * Second core: once the analysis has searched POLL_EVERY nodes (a few milliseconds, so
 * small positions never pay for a thread), a helper thread starts and takes pending
 * columns too. Both threads share the packed transposition table, whose entries are
 * single words read and written whole (table.h), so a bound one thread stores is a
 * bound the other can use; each thread searches with its own copy of the search state.
 * A thread that finds every pending column taken searches the first one's probe too,
 * and the first result counts (the other thread drops its search at its next poll):
 * the last long column is searched by both, and never waits for a thread that a busy
 * machine does not schedule. Tables of two words per entry (boards past 56 bits) stay
 * on one thread.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "solver.h"

typedef struct {
    solver_t *base;
    int weak, threads;
    int moves;                      /* of the children */
    u128 child_cur[MAX_WIDTH], child_mask[MAX_WIDTH];
    int *low, *high;                /* the caller's arrays, mover's view */
    int queue[MAX_WIDTH], queued;   /* pending columns in probing order */
    int guessed[MAX_WIDTH];
    int floor_first[MAX_WIDTH]; /* the first probe tests the column's book floor */
    /* The probe under way on each column: how many threads run it, its window, and
     * its generation, which moves on when a result is taken (the others drop it). */
    int busy[MAX_WIDTH], middle[MAX_WIDTH], generation[MAX_WIDTH];
    int guess, has_guess;           /* the last exact score, children's view */
    int best;                       /* a 12-ply root's book score, or BOOK_MISSING */
    int halt, spawned;
    int grown; /* a worker moved to the long table: the others and the solver follow */
    c4_column_fn on_column; /* as each column becomes exact (mover's view) */
    pthread_mutex_t lock;
    pthread_t helper;
} job_t;

typedef struct {
    solver_t state;   /* first, so a worker is found from its state */
    uint64_t flushed; /* nodes already added to the base solver's count */
    int col, generation; /* the probe it runs */
} worker_t;

/* Add the worker's new nodes to the solver's count (read while the search runs). */
static void flush_nodes(worker_t *w) {
    job_t *job = w->state.job;
    __atomic_fetch_add(&job->base->nodes, w->state.nodes - w->flushed, __ATOMIC_RELAXED);
    w->flushed = w->state.nodes;
}

static void *help(void *arg);

/* At every poll point of a worker: count its nodes, start the helper on the first
 * one, and stop when another worker was told to or finished this probe first. */
static int at_poll(solver_t *s) {
    worker_t *w = (worker_t *)s;
    job_t *job = s->job;
    flush_nodes(w);
    if (s->long_packed) {
        if (s->packed == s->long_packed) {
            __atomic_store_n(&job->grown, 1, __ATOMIC_RELAXED);
        } else if (__atomic_load_n(&job->grown, __ATOMIC_RELAXED)) {
            c4_use_packed(s, s->long_packed, s->long_size);
        }
    }
    if (job->threads > 1 && !__atomic_load_n(&job->spawned, __ATOMIC_ACQUIRE)) {
        pthread_mutex_lock(&job->lock);
        if (!job->spawned && job->queued > 0) {
            job->spawned = pthread_create(&job->helper, NULL, help, job) == 0 ? 1 : -1;
        }
        pthread_mutex_unlock(&job->lock);
    }
    return __atomic_load_n(&job->halt, __ATOMIC_RELAXED) ||
           __atomic_load_n(&job->generation[w->col], __ATOMIC_RELAXED) != w->generation;
}

static void settle(job_t *job, int col, int score, int *settled, int *count) {
    job->low[col] = job->high[col] = score;
    __atomic_fetch_add(&job->generation[col], 1, __ATOMIC_RELAXED); /* drop its probes */
    settled[(*count)++] = col;
    for (int i = 0; i < job->queued; i++) {
        if (job->queue[i] == col) {
            memmove(job->queue + i, job->queue + i + 1, (job->queued - i - 1) * sizeof(int));
            job->queued--;
            break;
        }
    }
}

/* The window of a new probe of `col` (Solver.probe): guess the last exact score (twice
 * at most per column), else halve the bounds, near 0 first. */
static int next_middle(job_t *job, int col) {
    /* Children's view: the column's bounds negated. */
    const int low = -job->high[col], high = -job->low[col];
    if (job->floor_first[col]) {
        job->floor_first[col] = 0;
        return low;
    }
    if (job->has_guess && !job->weak && job->guessed[col] < 2) {
        job->guessed[col]++;
        const int guess = job->guess < low ? low : job->guess > high ? high : job->guess;
        return guess > low ? guess - 1 : guess;
    }
    int middle = low + (high - low) / 2;
    /* Wins, draws and losses are the cheapest to settle. */
    if (middle <= 0 && half_toward_zero(low) < middle) {
        middle = half_toward_zero(low);
    } else if (middle >= 0 && half_toward_zero(high) > middle) {
        middle = half_toward_zero(high);
    }
    return middle;
}

/* Take a probe (its column into w->col): a new one of the first idle pending column,
 * else (every pending column is being probed) the first one under way, searched
 * alongside its thread over the shared table, whichever finishes first. Returns 0,
 * or -1 when no column is pending. Called locked. */
static int take(job_t *job, worker_t *w) {
    if (!job->queued) return -1;
    int at = -1;
    for (int i = 0; i < job->queued && at < 0; i++) {
        if (!job->busy[job->queue[i]]) at = i;
    }
    if (at < 0) {
        w->col = job->queue[0];
    } else {
        const int col = job->queue[at];
        w->col = col;
        job->middle[col] = next_middle(job, col);
        /* Until one score is known the first column is solved alone; after that the
         * columns take turns. */
        if (job->has_guess || job->weak) {
            memmove(job->queue + at, job->queue + at + 1, (job->queued - at - 1) * sizeof(int));
            job->queue[job->queued - 1] = col;
        }
    }
    job->busy[w->col]++;
    w->generation = job->generation[w->col];
    return 0;
}

/* Take probes until no column is pending. */
static void work(job_t *job, worker_t *w) {
    solver_t *s = &w->state;
    for (;;) {
        pthread_mutex_lock(&job->lock);
        if (job->halt || take(job, w) < 0) {
            pthread_mutex_unlock(&job->lock);
            return;
        }
        const int col = w->col, middle = job->middle[col];
        pthread_mutex_unlock(&job->lock);

        const int result =
            c4_search(s, job->child_cur[col], job->child_mask[col], job->moves, middle, middle + 1);

        int settled[MAX_WIDTH], count = 0;
        pthread_mutex_lock(&job->lock);
        job->busy[col]--;
        if (job->halt) {
            pthread_mutex_unlock(&job->lock);
            return;
        }
        if (s->status) {
            if (job->generation[col] == w->generation) { /* told to stop */
                job->halt = 1;
                pthread_mutex_unlock(&job->lock);
                return;
            }
            s->status = C4_DONE; /* the other thread finished this probe first */
        } else if (job->generation[col] == w->generation) {
            job->generation[col]++; /* this result is taken: the other thread drops it */
            int clow = -job->high[col], chigh = -job->low[col];
            if (result <= middle) {
                chigh = result;
            } else {
                clow = result;
            }
            if (job->weak && clow > 0) clow = chigh = 1;
            if (job->weak && chigh < 0) clow = chigh = -1;
            job->low[col] = -chigh;
            job->high[col] = -clow;
            if (clow == chigh) {
                if (!job->weak) {
                    job->guess = clow;
                    job->has_guess = 1;
                }
                settle(job, col, -clow, settled, &count);
            }
            if (job->best != BOOK_MISSING) {
                /* A 12-ply root's book score is its best column's: once every other
                 * column is proven below it, the last one left needs no search. */
                int contenders = 0, last = -1;
                for (int c = 0; c < s->width; c++) {
                    if (job->low[c] != C4_NONE && job->high[c] >= job->best) {
                        contenders++;
                        last = c;
                    }
                }
                if (contenders == 1 && job->low[last] != job->high[last]) {
                    settle(job, last, job->best, settled, &count);
                }
            }
        }
        pthread_mutex_unlock(&job->lock);
        for (int i = 0; i < count && job->on_column; i++) {
            job->on_column(settled[i], job->low[settled[i]]);
        }
    }
}

static void start_worker(job_t *job, worker_t *w) {
    w->state = *job->base; /* the board, the table and the books; its own counters */
    w->state.nodes = 0;
    w->state.next_poll = POLL_EVERY;
    w->state.long_at = w->state.long_after;
    w->state.status = C4_DONE;
    w->state.at_poll = at_poll;
    w->state.job = job;
    w->flushed = 0;
    w->col = w->generation = 0;
}

static void *help(void *arg) {
    job_t *job = arg;
    worker_t w;
    start_worker(job, &w);
    work(job, &w);
    flush_nodes(&w);
    return NULL;
}

/* The bounds of a position before any search (Solver.bounds), its mover's view: of
 * one child, or of the root itself. */
static void child_bounds(const solver_t *s, u128 cur, u128 mask, int moves, int weak, int *low,
                         int *high) {
    const u128 playable = (mask + s->bottom) & s->board;
    if (c4_spots(s, cur) & playable) {
        *low = *high = weak ? 1 : win_now_score(s, moves);
        return;
    }
    int lo = lose_now_score(s, moves), hi = win_now_score(s, moves);
    if (s->exact_book && moves == BOOK_EXACT_PLY) {
        const int v = c4_book_exact(s, (uint64_t)cur, (uint64_t)mask);
        if (v != BOOK_MISSING) lo = hi = v;
    }
    if (s->exact_book && moves == BOOK_EXACT_PLY + 1) {
        /* Any position one stone earlier (a top stone of the player who just moved
         * taken back) scores at least what this move gives it: a floor from the book. */
        const u128 last = cur ^ mask;
        for (int col = 0; col < s->width; col++) {
            const u128 top = c4_top_stone(mask & s->column[col]);
            if (!(top & last)) continue;
            const int parent = c4_book_exact(s, (uint64_t)(last ^ top), (uint64_t)(mask ^ top));
            if (parent != BOOK_MISSING && -parent > lo) lo = -parent;
        }
    }
    if (lo < hi) c4_parity_bounds(s, cur, mask, moves, &lo, &hi); /* unless the book said it */
    if (weak) {
        lo = lo < -1 ? -1 : lo;
        hi = hi > 1 ? 1 : hi;
        if (lo > 0) lo = hi = 1;
        if (hi < 0) lo = hi = -1;
    }
    *low = lo;
    *high = hi;
}

/* The least book score (from its own mover's view) of the 12-ply positions two stones
 * before a 14-ply one: a top stone of the player who moved last taken back, then one of
 * the other's; BOOK_MISSING when the book has none. */
static int least_grandparent(const solver_t *s, u128 cur, u128 mask) {
    int least = BOOK_MISSING;
    const u128 last = cur ^ mask;
    for (int c1 = 0; c1 < s->width; c1++) {
        const u128 top1 = c4_top_stone(mask & s->column[c1]);
        if (!(top1 & last)) continue;
        const u128 parent = mask ^ top1; /* cur's player moved last there */
        for (int c2 = 0; c2 < s->width; c2++) {
            const u128 top2 = c4_top_stone(parent & s->column[c2]);
            if (!(top2 & cur)) continue;
            const int v = c4_book_exact(s, (uint64_t)(cur ^ top2), (uint64_t)(parent ^ top2));
            if (v != BOOK_MISSING && (least == BOOK_MISSING || v < least)) least = v;
        }
    }
    return least;
}

/* Score every column of a position that is not over: low[c] and high[c] (mover's
 * view) meet at column c's score, both C4_NONE for a full column; `weak` gives only
 * the signs (`known_score` too, then). The score of `known_column` is `known_score`,
 * taken as it is (-1: none known). `threads` 2 lets a helper thread join once the search proves long.
 * `seconds` left (infinity: no deadline), `watch` SIGINT (a call from Python's main
 * thread) and `poll` as c4_negamax's. Returns C4_DONE, or why it ended early
 * (C4_STOPPED, C4_INTERRUPTED, C4_NO_MEMORY); the arrays hold what was proven. */
int c4_analyze(void *handle, uint64_t cur_lo, uint64_t cur_hi, uint64_t mask_lo,
               uint64_t mask_hi, int moves, int weak, int threads, int *low, int *high,
               double seconds, int watch, c4_poll_fn poll, c4_column_fn on_column,
               int known_column, int known_score) {
    solver_t *s = handle;
    if (!s->packed && !s->pairs) return C4_NO_MEMORY;
    job_t *job = calloc(1, sizeof(job_t));
    if (!job) return C4_NO_MEMORY;
    const u128 cur = ((u128)cur_hi << 64) | cur_lo, mask = ((u128)mask_hi << 64) | mask_lo;
    job->base = s;
    job->weak = weak;
    job->threads = s->packed ? threads : 1;
    job->moves = moves + 1;
    job->low = low;
    job->high = high;
    job->on_column = on_column;
    job->best = BOOK_MISSING;
    if (s->exact_book && moves == BOOK_EXACT_PLY && !weak) {
        job->best = c4_book_exact(s, (uint64_t)cur, (uint64_t)mask);
    }
    pthread_mutex_init(&job->lock, NULL);
    if (watch) c4_watch_interrupt(s);

    const u128 possible = (mask + s->bottom) & s->board, wins = c4_spots(s, cur) & possible;
    if (!weak && !wins) {
        /* The root's own floor before any search (a 12-ply root's book score, a 13-ply
         * root's floor from the 12-ply book; elsewhere the follow-up's) is the first
         * guess: the best column scores at least that, often just that, and siblings
         * score alike (on 150 random 12-ply and 150 13-ply positions 2-3% fewer nodes,
         * the slowest no slower). */
        int root_low, root_high;
        child_bounds(s, cur, mask, moves, 0, &root_low, &root_high);
        if (root_low > lose_now_score(s, moves)) {
            job->guess = -root_low;
            job->has_guess = 1;
        }
        /* Two stones past the book no floor is known, but the position's 12-ply
         * grandparents are (the least of their scores guesses best: 150 random 14-ply
         * positions 5.4% fewer nodes, the greatest 1.6%; three stones back, 15 plies,
         * either is worse than no guess). */
        if (s->exact_book && moves == BOOK_EXACT_PLY + 2) {
            const int least = least_grandparent(s, cur, mask);
            if (least != BOOK_MISSING) {
                job->guess = -least;
                job->has_guess = 1;
            }
        }
    }
    for (int col = 0; col < s->width; col++) low[col] = high[col] = C4_NONE;
    for (int i = 0; i < s->width; i++) {
        const int col = s->order[i];
        const u128 move = possible & s->column[col];
        if (!move) continue;
        if (move & wins) {
            low[col] = high[col] = weak ? 1 : win_now_score(s, moves);
        } else if (moves + 1 == s->cells) {
            low[col] = high[col] = 0; /* the last cell, and not a win: a draw */
        } else if (col == known_column) {
            /* Known beforehand (a review's later position): no search, and the first
             * guess for the others, so no column is solved alone from scratch. */
            low[col] = high[col] = known_score;
            if (!weak) {
                job->guess = -known_score;
                job->has_guess = 1;
            }
        } else {
            job->child_cur[col] = cur ^ mask;
            job->child_mask[col] = mask | move;
            int clow, chigh;
            child_bounds(s, job->child_cur[col], job->child_mask[col], moves + 1, weak, &clow,
                         &chigh);
            low[col] = -chigh;
            high[col] = -clow;
            if (clow != chigh) job->queue[job->queued++] = col;
            /* A 12-ply root's children have floors from the book, and often score just
             * that: "more than the floor?" first (columns.py says how much it saves). */
            job->floor_first[col] = !weak && s->exact_book && moves == BOOK_EXACT_PLY &&
                                    clow > lose_now_score(s, moves + 1);
        }
        if (on_column && low[col] == high[col]) on_column(col, low[col]);
    }

    /* Both threads look at the same stops: either may be the one left searching the
     * last column. */
    s->poll = poll;
    c4_start_clock(s, seconds);
    s->status = C4_DONE;
    /* A deadline already past or a stop already set: no search at all (the first look
     * would otherwise come only after POLL_EVERY nodes, when a small one is done). */
    if (job->queued && c4_should_stop(s)) job->halt = 1;
    worker_t w;
    start_worker(job, &w);
    work(job, &w);
    flush_nodes(&w);
    if (job->spawned == 1) pthread_join(job->helper, NULL);
    if (s->long_packed && (job->grown || w.state.packed == s->long_packed)) {
        c4_use_packed(s, s->long_packed, s->long_size); /* the next calls start there */
    }
    int status = job->halt ? C4_STOPPED : C4_DONE;
    if (watch && c4_unwatch_interrupt()) status = C4_INTERRUPTED;
    pthread_mutex_destroy(&job->lock);
    free(job);
    return status;
}
