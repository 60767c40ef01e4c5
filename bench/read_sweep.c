/*
 * bench/read_sweep.c — times ls_sweep_read on a file (plain or gzip) and prints
 * one JSON line: rows, seconds, rows per second.  Built by CMake as
 * bench_read_sweep; bench/README.md says how the million-row input is made.
 *
 *     bench_read_sweep SWEEP
 */
#include <stdio.h>
#include <time.h>

#include "loopscale/sweep.h"

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s SWEEP\n", argv[0]);
        return 64;
    }
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    ls_error err;
    const char *paths[] = {argv[1]};
    ls_sweep *s = ls_sweep_read(paths, 1, NULL, &err);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    if (!s) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("{\"file\": \"%s\", \"rows\": %zu, \"seconds\": %.3f, \"rows_per_second\": %.0f}\n", argv[1], s->n, seconds,
           (double)s->n / seconds);
    ls_sweep_free(s);
    return 0;
}
