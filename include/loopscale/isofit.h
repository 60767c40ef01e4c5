/*
 * loopscale/isofit.h — compute-optimal exponents from IsoFLOP minima
 * (Hoffmann et al. 2022, "Training Compute-Optimal Large Language Models",
 * approaches 1 and 2; Porian et al. 2024, "Resolving Discrepancies in
 * Compute-Optimal Scaling of Language Models"; docs/fitting.md#isoflop-minima).
 *
 * The runs are grouped by their training budget F = 6 N_unroll D (the
 * tolerant grouping of group.h).  In each budget the optimum is the
 * lowest-loss run (approach 1's envelope, taken per budget), the vertex of
 * a parabola fitted by least squares to the loss against ln N (approach
 * 2), or the minimum of Akima's interpolant of ln L against ln N (Porian et
 * al.'s procedure; akima_internal.h).  With keep_factor k > 1 a budget
 * keeps only the runs with N within a factor k of its first optimum and is
 * refitted (Porian et al.'s filter).  Then ln N_opt = ln G + a ln F by
 * ordinary least squares over the budgets whose optimum is interior, and
 * D_opt = F / (6 N_unroll) at N_opt (N_unroll / N_act interpolated between
 * the budget's runs; 1 for a plain sweep, where D_opt ~ F^(1-a)),
 * ln D_opt = ln H + b ln F likewise.  The runs must be of one architecture
 * (one R, E and k).
 *
 * Intervals: with three budgets or more, always the least-squares interval
 * of a (its standard error from the residuals of ln N_opt, Student's t);
 * and, on request, percentile intervals of a and of every N_opt from draws:
 * either resampling each budget's runs (bootstrap) or, as Porian et al.
 * do, refitting noised copies of the losses (noise_draws, noise_sd), which
 * then also gives the estimate: each budget's median optimum.
 *
 * ls_isofit_run fills a caller-owned result whose arrays and warnings it
 * mallocs; free them with ls_isofit_result_free.  No global state.
 */
#ifndef LOOPSCALE_ISOFIT_H
#define LOOPSCALE_ISOFIT_H

#include <stddef.h>

#include "loopscale/error.h"
#include "loopscale/export.h"
#include "loopscale/sweep.h"
#include "loopscale/warning.h"

LS_API_BEGIN

typedef enum {
    LS_ISOFIT_PARABOLA, /* "parabola": the least-squares parabola's vertex (Chinchilla approach 2) */
    LS_ISOFIT_MINIMUM,  /* "minimum": the lowest-loss run (Chinchilla approach 1) */
    LS_ISOFIT_AKIMA     /* "akima": the minimum of Akima's interpolant of ln L over ln N (Porian et al.) */
} ls_isofit_method;

/* "parabola", "minimum", "akima"; NULL for a value out of range. */
const char *ls_isofit_method_name(ls_isofit_method m);

typedef struct ls_isofit_options {
    ls_isofit_method method;  /* default LS_ISOFIT_PARABOLA (approach 2) */
    double group_tol;      /* relative tolerance of the budget grouping; < 0: automatic */
    double keep_factor;    /* > 1: keep runs with N_opt / k <= N <= k N_opt; 0: all */
    size_t min_runs;       /* a budget needs this many runs (default 3; a parabola and Akima's
                            * interpolant need 3 sizes) */
    size_t bootstrap;      /* draws resampling each budget's runs: 0 (default) or at least
                            * LS_FIT_MIN_INTERVAL_DRAWS */
    unsigned long seed;    /* of the draws (default 1) */
    double level;          /* interval level (default 0.95) */
    /* Porian et al.'s intervals: this many copies of the runs with
     * N(0, noise_sd^2) added to every loss, each refitted; 0 (default) or at
     * least LS_FIT_MIN_INTERVAL_DRAWS, and not with bootstrap.  Each
     * budget's optimum is then the median of the copies' interior optima. */
    size_t noise_draws;
    double noise_sd;       /* the losses' noise (loss units); needed with noise_draws */
} ls_isofit_options;

void ls_isofit_default_options(ls_isofit_options *o);

/* Why a budget does not enter the power law. */
typedef enum {
    LS_ISOFIT_USED,
    LS_ISOFIT_TOO_FEW_RUNS, /* fewer than min_runs (after the filter) */
    LS_ISOFIT_NOT_CONVEX,   /* the parabola opens downward or is flat (or, approach 1 and Akima's
                             * interpolant, every size has the same loss) */
    LS_ISOFIT_AT_EDGE,      /* the optimum is not inside the sizes sampled */
    LS_ISOFIT_NOISE_EDGE    /* interior, but not in half the noised copies (Porian et al.'s rule) */
} ls_isofit_status;

const char *ls_isofit_status_name(ls_isofit_status s);

typedef struct ls_isofit_budget {
    double flops;          /* the budget: the geometric mean of its runs' F = 6 N_unroll D */
    size_t runs, used;     /* runs in the budget, runs the optimum was found from */
    ls_isofit_status status;
    double n_opt, d_opt, loss_opt; /* NaN unless status is LS_ISOFIT_USED; with noise_draws
                                    * the medians of the copies' interior optima */
    double n_lo, n_hi;     /* percentile interval of n_opt from the draws (NaN unless LS_ISOFIT_USED, and with fewer
                            * than LS_FIT_MIN_INTERVAL_DRAWS draws in which the budget had an interior optimum) */
    size_t draws_ok;       /* draws in which this budget had an interior optimum */
    /* The curve the optimum came from, kept for drawing it (ls_isofit_curves_run).
     * Approach 2's least-squares parabola L = c0 + c1 u + c2 u^2 in
     * u = ln N_act - ln_n_centre, centred on the mean ln N_act of the runs it
     * was fitted to so that the coefficients keep their digits; its vertex is
     * n_opt = exp(ln_n_centre - c1 / (2 c2)).  Set whenever the parabola was
     * fitted (also when not convex or at the edge); NaN with approach 1,
     * Akima's interpolant (the figure rebuilds it from the runs between
     * n_fit_lo and n_fit_hi) or too few runs. */
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
    double r2;              /* of ln N_opt on ln F; NaN with two budgets (a line through two
                             * points fits them whatever they are) */
    double a_lo, a_hi;      /* percentile interval of a from the draws (NaN with fewer than
                             * LS_FIT_MIN_INTERVAL_DRAWS draws that gave an exponent) */
    size_t ndraws;          /* draws that gave an exponent: with bootstrap, those with at least two
                             * usable budgets; with noise_draws, the fewest interior copies of a
                             * budget used (Porian et al. pair the i-th of each) */
    size_t nruns;           /* the sweep's runs (rows), in its order */
    size_t *run_budget;     /* run i is in budgets[run_budget[i]] */
    /* The least-squares interval of a: a_se from the residuals of ln N_opt
     * on ln F, a -+ t a_se with Student's t of nused - 2 degrees of freedom
     * at the level asked for.  NaN with two budgets. */
    double a_se, a_ls_lo, a_ls_hi;
    /* What the user should know (warning.h): "fit-quality" when the power
     * law rests on two budgets or the draws gave too few exponents for an
     * interval; "search-edge" for each budget whose optimum is at an edge
     * of its sizes (subject "F=<flops>"). */
    ls_warnings warnings;
} ls_isofit_result;

/* The IsoFLOP minima of s and their power laws.  Errors: LS_ERR_DATA
 * (fewer than two budgets with an interior optimum; the message names
 * them), LS_ERR_USAGE (bad options), LS_ERR_INTERNAL. */
int ls_isofit_run(const ls_sweep *s, const ls_isofit_options *o, ls_isofit_result *out, ls_error *err) LS_MUST_CHECK;
void ls_isofit_result_free(ls_isofit_result *r);

/* The curve each budget's optimum came from, sampled for a figure
 * (ls_plot_isofit, Chinchilla's figure 3): approach 2's parabola, or
 * Akima's interpolant rebuilt from the runs it went through, at `points`
 * sizes evenly in ln N_act over the sizes the budget was fitted on.  A
 * budget has none with approach 1 (its optimum is a run) or too few runs. */
typedef struct ls_isofit_curves {
    size_t nbudgets, points;
    size_t *count;        /* per budget: `points`, or 0 without a curve */
    double *n_act, *loss; /* budget b's curve at b * points, N_act increasing */
} ls_isofit_curves;

/* The curves of r = ls_isofit_run(s, o) (points >= 2).  Errors:
 * LS_ERR_USAGE (r is not of these runs), LS_ERR_INTERNAL. */
int ls_isofit_curves_run(const ls_sweep *s, const ls_isofit_options *o, const ls_isofit_result *r, size_t points,
                         ls_isofit_curves *out, ls_error *err) LS_MUST_CHECK;
void ls_isofit_curves_free(ls_isofit_curves *c);

LS_API_END

#endif
