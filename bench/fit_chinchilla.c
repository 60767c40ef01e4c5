/*
 * bench/fit_chinchilla.c — times loopscale's fit of the Chinchilla law on
 * Epoch AI's 240 points (the 4,500-start grid, 1 and all threads) and a
 * 4,000-draw bootstrap, and prints one JSON line.  Built by CMake as
 * bench_fit_chinchilla; run by bench/fit.sh beside the scipy reference.
 *
 *     bench_fit_chinchilla PATH/TO/svg_extracted_data.csv [THREADS]
 */
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "chinchilla_bench.h"
#include "loopscale/fit.h"
#include "loopscale/sweep.h"

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s svg_extracted_data.csv [THREADS]\n", argv[0]);
        return 64;
    }
    ls_sweep *s = read_chinchilla_points(argv[1]);
    if (!s)
        return 1;
    ls_error err;

    ls_fit_parameters p;
    ls_fit_default_parameters(&p);
    p.grid_chinchilla = 1;
    if (argc > 2) {
        char *end;
        long threads = strtol(argv[2], &end, 10);
        if (end == argv[2] || *end || threads < 0 || threads > 4096) {
            fprintf(stderr, "%s: THREADS: '%s' is not a count of threads from 0 (one per core) to 4096\n", argv[0],
                    argv[2]);
            return 64;
        }
        p.threads = (int)threads;
    }
    ls_fit_result r;
    double t0 = now(), c0 = cpu_now();
    if (ls_fit_run(s, (ls_law_kind){LS_LAW_BASE_DENSE, LS_LAW_MAPPING_NONE}, &p, &r, &err) != 0) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    double t_fit = now() - t0, c_fit = cpu_now() - c0;
    ls_fit_bootstrap b;
    t0 = now();
    c0 = cpu_now();
    if (ls_fit_run_bootstrap(s, &r, &p, 4000, 2, 0, 0.95, &b, &err) != 0) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    double t_boot = now() - t0, c_boot = cpu_now() - c0;
    /* threads 0 means one per online core, as the fit takes it */
    long threads = p.threads > 0 ? p.threads : sysconf(_SC_NPROCESSORS_ONLN);
    printf("{\"tool\": \"loopscale\", \"method\": \"%s\", \"threads\": %ld, \"runs\": %zu, \"starts\": %zu, "
           "\"seconds\": %.4f, \"cpu_seconds\": %.4f, "
           "\"steps_per_start\": %.2f, \"objective\": %.16g, "
           "\"starts_at_best\": %zu, \"A\": %.8g, \"B\": %.8g, \"c\": %.8g, \"alpha\": %.8g, \"beta\": %.8g, "
           "\"bootstrap_draws\": %zu, \"bootstrap_seconds\": %.4f, \"bootstrap_cpu_seconds\": %.4f, "
           "\"ci_alpha\": [%.4f, %.4f], \"ci_beta\": [%.4f, %.4f], \"ci_c\": [%.4f, %.4f]}\n",
           r.method, threads, s->n, r.starts, t_fit, c_fit, (double)r.steps / (double)r.starts, r.objective, r.starts_at_best, r.law.p[LS_LAW_P_A], r.law.p[LS_LAW_P_B],
           r.law.p[LS_LAW_P_C], r.law.p[LS_LAW_P_ALPHA], r.law.p[LS_LAW_P_BETA], b.ndraws, t_boot, c_boot, b.ci_low[LS_LAW_P_ALPHA],
           b.ci_high[LS_LAW_P_ALPHA], b.ci_low[LS_LAW_P_BETA], b.ci_high[LS_LAW_P_BETA], b.ci_low[LS_LAW_P_C],
           b.ci_high[LS_LAW_P_C]);
    ls_fit_bootstrap_free(&b);
    ls_sweep_free(s);
    return 0;
}
