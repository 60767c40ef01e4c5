/*
 * parallel_internal.h — the library's one thread pool: run items 0..n-1 on
 * up to `threads` threads, each thread with state of its own.
 *
 * Items are handed out one at a time from a shared counter, so the work
 * balances itself; results must be written per item (out[i]), never
 * accumulated across items, so that they do not depend on the thread count.
 * The calling thread is one of the workers and the only one that reports
 * progress.  No global state: any number of ls_parallel_for calls may run at
 * once.
 */
#ifndef LOOPSCALE_PARALLEL_INTERNAL_H
#define LOOPSCALE_PARALLEL_INTERNAL_H

#include <stddef.h>

typedef struct ls_parallel_job {
    size_t n;     /* items */
    int threads;  /* at most this many threads; 0 or less: one per online core */
    void *context;
    /* Per-thread state, made on the worker's own thread (NULL function: no
     * state).  Returns 0, or non-zero when the state cannot be made: that
     * worker then does no item and ls_parallel_for reports the failure. */
    int (*begin)(void *context, void **state);
    void (*end)(void *context, void *state);
    /* Item i, on any thread.  Returns 0, or non-zero to record a failure
     * (the other items still run). */
    int (*item)(void *context, void *state, size_t i);
    /* Called on the calling thread after each of its items, with the count
     * of items finished on every thread; may be NULL. */
    void (*progress)(void *context, size_t done, size_t total);
} ls_parallel_job;

/* 0 when every worker started and every item returned 0, else -1. */
int ls_parallel_for(const ls_parallel_job *job);

/* The number of threads `requested` means for n items: one per online
 * core when requested <= 0, never more than n (nor less than 1). */
int ls_parallel_threads(int requested, size_t n);

#endif
