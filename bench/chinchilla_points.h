/*
 * bench/chinchilla_points.h — Epoch AI's Chinchilla points as both fitting
 * benchmarks read them (bench_fit_chinchilla, bench_fit_gsl_driver): the
 * digitised CSV with its columns mapped, the 5 highest losses dropped, as
 * Epoch's replication does, and D = FLOP / (6 N).
 */
#ifndef LOOPSCALE_BENCH_CHINCHILLA_POINTS_H
#define LOOPSCALE_BENCH_CHINCHILLA_POINTS_H

#include <stdio.h>

#include "loopscale/sweep.h"

/* The 240 points, or NULL after printing the reader's error. */
static sweep *read_chinchilla_points(const char *path)
{
    const char *maps[] = {"n_act=Model Size", "flops=Training FLOP"};
    sweep_options all = {.maps = maps, .nmaps = 2, .require_loss = 1};
    ls_error err;
    const char *paths[] = {path};
    sweep *s = ls_sweep_read(paths, 1, &all, &err);
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
    sweep_options kept = all;
    kept.wheres = wheres;
    kept.nwheres = 1;
    s = ls_sweep_read(paths, 1, &kept, &err);
    if (!s)
        fprintf(stderr, "%s\n", err.message);
    return s;
}

#endif
