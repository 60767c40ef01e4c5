/*
 * loopscale/isofit.h — compute-optimal exponents from IsoFLOP minima
 * (Hoffmann et al. 2022, "Training Compute-Optimal Large Language Models",
 * approaches 1 and 2; docs/fitting.md#isoflop-minima-chinchilla-approaches-1-and-2).
 *
 * The runs are grouped by their training budget F = 6 N_unroll D (the
 * tolerant grouping of group.h).  In each budget the optimum is either the
 * lowest-loss run (approach 1's envelope, taken per budget) or the vertex
 * of a parabola fitted by least squares to the loss against ln N (approach
 * 2).  With keep_factor k > 1 a budget keeps only the runs with N within a
 * factor k of its first optimum and is refitted (the filter of Porian et
 * al. 2024, "Resolving Discrepancies in Compute-Optimal Scaling of Language
 * Models").  Then ln N_opt = ln G + a ln F by ordinary least squares over
 * the budgets whose optimum is interior, and D_opt = F / (6 N_unroll) at
 * N_opt (N_unroll / N_act interpolated between the budget's runs; 1 for a
 * plain sweep, where D_opt ~ F^(1-a)), ln D_opt = ln H + b ln F likewise.
 * The runs must be of one architecture (one R, E and k).  Intervals come from resampling the runs within each
 * budget (bootstrap draws), refitting everything.
 *
 * ls_isofit_run fills a caller-owned result whose arrays it mallocs; free
 * them with ls_isofit_result_free.  No global state.
 */
#ifndef LOOPSCALE_ISOFIT_H
#define LOOPSCALE_ISOFIT_H

#include <stddef.h>

#include "loopscale/plot.h"
#include "loopscale/error.h"
#include "loopscale/export.h"
#include "loopscale/sweep.h"

LS_API_BEGIN

typedef enum { LS_ISOFIT_PARABOLA, LS_ISOFIT_MINIMUM } ls_isofit_method;

typedef struct ls_isofit_options {
    ls_isofit_method method;  /* default LS_ISOFIT_PARABOLA (approach 2) */
    double group_tol;      /* relative tolerance of the budget grouping; < 0: automatic */
    double keep_factor;    /* > 1: keep runs with N_opt / k <= N <= k N_opt; 0: all */
    size_t min_runs;       /* a budget needs this many runs (default 3; a parabola needs 3) */
    size_t bootstrap;      /* draws (default 0) */
    unsigned long seed;    /* default 1 */
    double level;          /* interval level (default 0.95) */
} ls_isofit_options;

void ls_isofit_default_options(ls_isofit_options *o);

/* Why a budget does not enter the power law. */
typedef enum {
    LS_ISOFIT_USED,
    LS_ISOFIT_TOO_FEW_RUNS, /* fewer than min_runs (after the filter) */
    LS_ISOFIT_NOT_CONVEX,   /* the parabola opens downward or is flat (or, approach 1, every run ties) */
    LS_ISOFIT_AT_EDGE       /* the optimum is not inside the sizes sampled */
} ls_isofit_status;

const char *ls_isofit_status_name(ls_isofit_status s);

typedef struct ls_isofit_budget {
    double flops;          /* the budget: the geometric mean of its runs' F = 6 N_unroll D */
    size_t runs, used;     /* runs in the budget, runs the optimum was found from */
    ls_isofit_status status;
    double n_opt, d_opt, loss_opt; /* NaN unless status is LS_ISOFIT_USED */
    double n_lo, n_hi;     /* bootstrap interval of n_opt (NaN unless LS_ISOFIT_USED, and with fewer than LS_FIT_MIN_INTERVAL_DRAWS
                            * draws in which the budget had an interior optimum) */
    size_t draws_ok;       /* draws in which this budget had an interior optimum */
    /* The curve the optimum came from, kept for drawing it (ls_isofit_plot).
     * Approach 2's least-squares parabola L = c0 + c1 u + c2 u^2 in
     * u = ln N_act - ln_n_centre, centred on the mean ln N_act of the runs it
     * was fitted to so that the coefficients keep their digits; its vertex is
     * n_opt = exp(ln_n_centre - c1 / (2 c2)).  Set whenever the parabola was
     * fitted (also when not convex or at the edge); NaN with approach 1 or
     * too few runs. */
    double ln_n_centre, c0, c1, c2;
    double n_fit_lo, n_fit_hi; /* the smallest and largest N_act of the runs the optimum was
                                * found from (after --keep); NaN when there were too few */
} ls_isofit_budget;

typedef struct ls_isofit_result {
    size_t nbudgets;
    ls_isofit_budget *budgets; /* increasing F */
    size_t nused;           /* budgets in the power law */
    double a, ln_g;         /* N_opt = G F^a */
    double b, ln_h;         /* D_opt = H F^b, b = 1 - a, H = 1 / (6 G) */
    double r2;              /* of ln N_opt on ln F */
    double a_lo, a_hi;      /* bootstrap interval of a (NaN with fewer than LS_FIT_MIN_INTERVAL_DRAWS
                             * draws that gave an exponent) */
    size_t ndraws;          /* draws with at least two usable budgets */
    size_t nruns;           /* the sweep's runs (rows), in its order */
    size_t *run_budget;     /* run i is in budgets[run_budget[i]] */
} ls_isofit_result;

/* The IsoFLOP minima of s and their power laws.  Errors: LS_ERR_DATA
 * (fewer than two budgets with an interior optimum; the message names
 * them), LS_ERR_USAGE (bad options), LS_ERR_INTERNAL. */
int ls_isofit_run(const ls_sweep *s, const ls_isofit_options *o, ls_isofit_result *out, ls_error *err) LS_MUST_CHECK;
void ls_isofit_result_free(ls_isofit_result *r);

/* Chinchilla's figure 3 for r = ls_isofit_run(s, o): on the left the loss
 * against N_act (log) of every budget's runs, one colour a budget, with
 * approach 2's parabola through them and the optimum marked (budgets left
 * out of the power law grey, their reason in the legend); on the right
 * N_opt and D_opt = F / (6 N_opt) of the budgets used against F (log-log),
 * with the fitted power laws and, after a bootstrap, N_opt's intervals.
 * Returns the file's bytes (malloc'd, *len of them) or NULL with an error,
 * as plot.h does. */
unsigned char *ls_isofit_plot(const ls_sweep *s, const ls_isofit_options *o, const ls_isofit_result *r,
                              const ls_figure *out, size_t *len, ls_error *err) LS_MUST_CHECK;

LS_API_END

#endif
