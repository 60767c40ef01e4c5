#include "parallel_internal.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <unistd.h>

typedef struct pool {
    const ls_parallel_job *job;
    atomic_size_t next, done;
    atomic_int failed;
} pool;

typedef struct worker {
    pool *pool;
    int reports_progress;
    pthread_t id;
} worker;

static void *run_worker(void *arg)
{
    worker *w = arg;
    pool *pl = w->pool;
    const ls_parallel_job *job = pl->job;
    void *state = NULL;
    if (job->begin && job->begin(job->context, &state) != 0) {
        atomic_store(&pl->failed, 1);
        return NULL;
    }
    size_t i;
    while ((i = atomic_fetch_add(&pl->next, 1)) < job->n) {
        if (job->item(job->context, state, i) != 0)
            atomic_store(&pl->failed, 1);
        size_t done = atomic_fetch_add(&pl->done, 1) + 1;
        if (w->reports_progress && job->progress)
            job->progress(job->context, done, job->n);
    }
    if (job->end)
        job->end(job->context, state);
    return NULL;
}

int ls_parallel_threads(int requested, size_t n)
{
    long t = requested > 0 ? requested : sysconf(_SC_NPROCESSORS_ONLN);
    if (t < 1)
        t = 1;
    if ((size_t)t > n)
        t = n > 0 ? (long)n : 1;
    return (int)t;
}

int ls_parallel_for(const ls_parallel_job *job)
{
    pool pl;
    pl.job = job;
    atomic_init(&pl.next, 0);
    atomic_init(&pl.done, 0);
    atomic_init(&pl.failed, 0);
    int nthreads = ls_parallel_threads(job->threads, job->n);
    worker *workers = calloc((size_t)nthreads, sizeof *workers);
    if (!workers)
        return -1;
    int started = 0;
    for (int t = 1; t < nthreads; t++) {
        workers[t] = (worker){&pl, 0, 0};
        if (pthread_create(&workers[t].id, NULL, run_worker, &workers[t]) != 0)
            break; /* fewer threads: the items still all run */
        started = t;
    }
    workers[0] = (worker){&pl, 1, 0};
    run_worker(&workers[0]);
    for (int t = 1; t <= started; t++)
        pthread_join(workers[t].id, NULL);
    free(workers);
    return atomic_load(&pl.failed) ? -1 : 0;
}
