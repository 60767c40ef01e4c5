/*
 * loopscale/frontier.h — the compute-optimal frontier of a law: for each
 * training budget F, the size N_opt and tokens D_opt = F / (6 N_opt) that
 * minimise the loss of a plain model (R = 1, E = 1, unlimited unique data),
 * the tokens per parameter D_opt / N_opt and the loss there.
 *
 * Bases with a closed form (every base at R = 1 and E = 1: dense, moe,
 * kaplan, data-constrained; ls_law_compute_optimal) use it, and N_opt grows
 * as F^a exactly; the frontier also reports the local exponent
 * d ln N_opt / d ln F from neighbouring budgets, which equals a there.
 *
 * ls_frontier_run_solve() is the frontier of the best architecture instead:
 * at each budget the loops, experts and size loopscale solve chooses under a
 * weight-memory budget (solve.h), numerically and under the template's FLOP
 * convention.  Their figures are ls_plot_frontier and ls_plot_frontier_solve
 * (plot.h).
 *
 * Budgets are given as text: a list "1e20,1e21" or a range "LO:HI:N", N
 * budgets evenly spaced in ln F from LO to HI inclusive ("1e18:1e24:13" is
 * one per half decade).  The budgets are malloc'd; free them with free().
 *
 * Thread safety: pure functions of their arguments.
 */
#ifndef LOOPSCALE_FRONTIER_H
#define LOOPSCALE_FRONTIER_H

#include <stddef.h>

#include "loopscale/error.h"
#include "loopscale/export.h"
#include "loopscale/law.h"
#include "loopscale/solve.h"

LS_API_BEGIN

typedef struct ls_frontier_point {
    double flops;
    double n_opt, d_opt;
    double tokens_per_param; /* D_opt / N_opt */
    double loss;
} ls_frontier_point;

/* The budgets "F1,F2,..." or "LO:HI:N" (N >= 2, 0 < LO < HI) into a
 * malloc'd array of *n values in increasing order (a range's values to 13
 * significant digits, its ends exact).  A budget given twice, or a range
 * finer than that, is an error.  Errors are LS_ERR_USAGE messages quoting
 * the text ("'1e18:1e24' is neither a list F1,F2,... nor a range LO:HI:N"). */
int ls_frontier_budgets_parse(const char *text, double **budgets, size_t *n, ls_error *err) LS_MUST_CHECK;

/* The frontier at n budgets into out[n]; *exponent (unless NULL) gets a,
 * N_opt ~ F^a.  Errors: those of ls_law_compute_optimal, and LS_ERR_DATA naming
 * the budget when N_opt, D_opt or the loss there is not finite (A = B = 1e308). */
int ls_frontier_run(const ls_law *l, const double *budgets, size_t n, ls_frontier_point *out, double *exponent,
                    ls_error *err) LS_MUST_CHECK;

/* The frontier of the best architecture: at each budget, the configuration
 * loopscale solve chooses (ls_solve_run: loops R*, experts E*, N_act under a
 * weight-memory budget, the fewest loops and experts within epsilon of the
 * best loss), and the local exponent d ln N_act / d ln F. */
typedef struct ls_frontier_solve_point {
    double flops;
    double R, E;
    double n_act, n_total, tokens;
    double tokens_per_param; /* D / N_act */
    double loss;
    ls_solve_bound bound;       /* what binds N_act: compute, memory or the search range */
    double exponent_n;       /* d ln N_act / d ln F: central differences between the neighbouring
                              * budgets (one-sided at the ends); NaN with one budget */
    unsigned outside;        /* bits 1u << LAW_RANGE_*: beyond the ranges o->ranges knows */
    /* What the chosen configuration holds and costs (ls_solve_candidate). */
    double kv_bytes, memory_bytes, quant_penalty, training_flops, serving_flops;
} ls_frontier_solve_point;

/* The chosen configuration at each of n budgets, in increasing F (as
 * ls_frontier_budgets_parse gives them), under the memory and serving
 * budget of deploy (its flops set to each budget in turn), into out[n].
 * Errors: LS_ERR_USAGE when the
 * budgets do not increase, those of ls_solve_run, and LS_ERR_DATA naming the budget when no candidate fits
 * the memory ("at 1e+22 FLOPs no candidate fits in 1e+06 bytes at 4 bits per
 * weight") or leaves a training token. */
int ls_frontier_run_solve(const ls_law *l, const ls_arch_template *t, const double *budgets, size_t n,
                          const ls_solve_options *o, const ls_solve_budget *deploy, ls_frontier_solve_point *out,
                          ls_error *err) LS_MUST_CHECK;

LS_API_END

#endif
