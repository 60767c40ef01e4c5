/*
 * loopscale/simulate.h — synthetic sweeps drawn from a known law (data/README.md).
 *
 * Every combination of the grid's N_act, tokens, E and R becomes one run,
 * mapped through the architecture template (N_total, N_loop rounded to whole
 * parameters), with loss = L_truth * exp(sigma z), z standard normal from
 * GSL's MT19937 seeded with `seed`: the same seed gives the same file.
 * Columns: n_act,n_total,n_loop,R,E,k,tokens,flops,loss.
 *
 * Thread safety: no global state; each call has its own random stream
 * seeded from its options.
 */
#ifndef LOOPSCALE_SIMULATE_H
#define LOOPSCALE_SIMULATE_H

#include <stddef.h>

#include "loopscale/arch.h"
#include "loopscale/error.h"
#include "loopscale/law.h"
#include "loopscale/export.h"

LS_API_BEGIN

typedef struct ls_simulate_grid {
    const double *n_act;
    size_t n_n_act;
    const double *tokens;
    size_t n_tokens;
    const double *E;
    size_t n_E;
    const double *R;
    size_t n_R;
} ls_simulate_grid;

typedef struct ls_simulate_options {
    double noise_sigma; /* multiplicative log-normal noise; 0 for none */
    unsigned long seed;
} ls_simulate_options;

/* Check the grid (positive sizes, integer R >= 1 and E >= top_k). */
int ls_simulate_check(const ls_arch_template *t, const ls_simulate_grid *grid, ls_error *err) LS_MUST_CHECK;

LS_API_END

#endif
