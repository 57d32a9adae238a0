/* When a search stops: a flag, a deadline, an optional callback, and Ctrl-C.
 *
 * The search looks here every POLL_EVERY nodes (a millisecond or two). Most of what
 * stops it is read without Python: the stop flag (an int Python owns and sets from
 * any thread) and the deadline (on the monotonic clock, read in C). A Python callback
 * is asked only when the caller gave one (a stop event of the app, progress ticks),
 * and at most every CALLBACK_SECONDS: each call takes the GIL from the UI thread.
 *
 * Ctrl-C: Python runs its SIGINT handler only between bytecodes of the main thread,
 * never while that thread is inside a C call, and a handler run inside a callback
 * raises where ctypes can only print and ignore it. So a call from the main thread
 * watches for SIGINT itself (c4_watch_interrupt): the signal sets the stop flag, the
 * search unwinds, the previous handler comes back, and native Python raises the
 * signal again (signal.raise_signal) for its own handler to act on.
 */
#include <math.h>
#include <signal.h>
#include <stddef.h>
#include <time.h>

#include "solver.h"

/* Seconds between two calls of the Python callback at most. */
#define CALLBACK_SECONDS 0.01

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void c4_start_clock(solver_t *s, double seconds) {
    s->has_deadline = seconds < INFINITY;
    s->deadline = s->has_deadline ? now() + seconds : 0;
    s->next_callback = 0; /* the first poll asks the callback */
}

int c4_should_stop(solver_t *s) {
    if (s->at_poll && s->at_poll(s)) return 1;
    if (s->stop && __atomic_load_n(s->stop, __ATOMIC_RELAXED)) return 1;
    if (!s->has_deadline && !s->poll) return 0;
    const double t = now();
    if (s->has_deadline && t >= s->deadline) return 1;
    if (s->poll && t >= s->next_callback) {
        s->next_callback = t + CALLBACK_SECONDS;
        return s->poll() != 0;
    }
    return 0;
}

/* The stop flag of the call that watches for SIGINT, and whether SIGINT came. */
static int *volatile watched;
static volatile sig_atomic_t interrupted;
static struct sigaction previous;

static void on_interrupt(int signo) {
    (void)signo;
    interrupted = 1;
    int *flag = watched;
    if (flag) __atomic_store_n(flag, 1, __ATOMIC_RELAXED);
}

void c4_watch_interrupt(solver_t *s) {
    struct sigaction action = {0};
    interrupted = 0;
    watched = (int *)s->stop;
    action.sa_handler = on_interrupt;
    sigemptyset(&action.sa_mask);
    sigaction(SIGINT, &action, &previous);
}

int c4_unwatch_interrupt(void) {
    sigaction(SIGINT, &previous, NULL);
    watched = NULL;
    return interrupted;
}
