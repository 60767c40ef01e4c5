/*
 * bench/chinchilla_bench.h — what both fitting benchmarks
 * (bench_fit_chinchilla, bench_fit_gsl_driver) share: their clocks, and
 * Epoch AI's Chinchilla points as they read them (the digitised CSV with
 * its columns mapped, the 5 highest losses dropped, as Epoch's replication
 * does, and D = FLOP / (6 N)).
 */
#ifndef LOOPSCALE_BENCH_CHINCHILLA_BENCH_H
#define LOOPSCALE_BENCH_CHINCHILLA_BENCH_H

#include <stdio.h>
#include <time.h>

#include "loopscale/sweep.h"

static double seconds_of(clockid_t clock)
{
    struct timespec ts;
    clock_gettime(clock, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Wall time, and CPU time (user + system, every thread of the process):
 * the machine is shared, and CPU seconds are what a loaded machine leaves
 * comparable. */
static double now(void) { return seconds_of(CLOCK_MONOTONIC); }
static double cpu_now(void) { return seconds_of(CLOCK_PROCESS_CPUTIME_ID); }

/* The 240 points, or NULL after printing the reader's error. */
static ls_sweep *read_chinchilla_points(const char *path)
{
    const char *maps[] = {"n_act=Model Size", "flops=Training FLOP"};
    ls_sweep_options all = {.maps = maps, .nmaps = 2, .require_loss = 1};
    ls_error err;
    const char *paths[] = {path};
    ls_sweep *s = ls_sweep_read(paths, 1, &all, &err);
    if (!s) {
        fprintf(stderr, "%s\n", err.message);
        return NULL;
    }
    double top[5] = {0};
    for (size_t i = 0; i < s->n; i++) {
        double x = s->rows[i].loss;
        for (int k = 0; k < 5; k++)
            if (x > top[k]) {
                for (int m = 4; m > k; m--)
                    top[m] = top[m - 1];
                top[k] = x;
                break;
            }
    }
    ls_sweep_free(s);
    char where[64];
    snprintf(where, sizeof where, "loss<%.17g", top[4]);
    const char *wheres[] = {where};
    ls_sweep_options kept = all;
    kept.wheres = wheres;
    kept.nwheres = 1;
    s = ls_sweep_read(paths, 1, &kept, &err);
    if (!s)
        fprintf(stderr, "%s\n", err.message);
    return s;
}

#endif
