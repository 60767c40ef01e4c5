/*
 * loopscale/diagnose.h — fits that converged but should not be taken as
 * they stand.  A fit can meet the solver's convergence test and still
 * report a parameter that the runs do not determine: the irreducible loss c
 * run down to its bound 0 with a standard error far above its value, c
 * above the lowest loss observed (the law cannot reach that run), or a
 * parameter whose interval is unbounded (E_max = 4.7e9 with a standard
 * error of 1.5e17).  These functions name them, one line each.
 *
 * Each returns a malloc'd text of lines, each ending in a newline, that
 * the caller frees; an empty string when there is nothing to say, NULL
 * only when memory runs out.
 *
 * Thread safety: pure functions of their arguments.
 */
#ifndef LOOPSCALE_DIAGNOSE_H
#define LOOPSCALE_DIAGNOSE_H

#include "loopscale/export.h"
#include "loopscale/fit.h"
#include "loopscale/holdout.h"
#include "loopscale/sweep.h"
#include "loopscale/warning.h"

LS_API_BEGIN

/* How far a standard error may exceed its parameter's value (for a
 * parameter that may take either sign: the larger of its value and 1)
 * before the interval is called unbounded. */
#define LS_DIAGNOSE_UNBOUNDED_RATIO 10.0
/* c below this fraction of the lowest observed loss is at its bound 0. */
#define LS_DIAGNOSE_C_AT_ZERO 1e-3

/* The warnings about a fit of the runs s (b: its bootstrap, or NULL):
 *   "c = 1.26e-09 ran to its bound 0 (standard error 2.6): ..."
 *   "c = 3.13 is above the lowest observed loss, 3.097 (file:line): ..."
 *   "E_max = 4.7e+09 is not determined by the runs: standard error 1.5e+17 ..."
 * with bootstrap intervals, a positive parameter whose interval spans more
 * than a factor 1e3 is reported as unbounded too. */
char *ls_fit_diagnose(const ls_sweep *s, const ls_fit_result *r, const ls_fit_bootstrap *b);

/* The warnings about a held-out evaluation: an axis (or split) that holds
 * out a single run, whose RMSE is then one residual. */
char *ls_holdout_diagnose(const ls_holdout_result *r);

/* ---- whether a fit may be used at all -------------------------------------------- */

/* The refusals of a fit ls_fit_run returned, in the order they are judged:
 *   LS_ERR_DATA    "FILE: 3 runs for 5 free parameters leave no residual to judge the fit by or to
 *                  estimate its errors (add runs, or --fix some)"
 *   LS_ERR_NOCONV  ls_fit_data_check's reasons (all losses equal, one size, ...)
 *   LS_ERR_NOCONV  "the best of 4500 starts did not converge (after 500 iterations)"
 *   LS_ERR_NOCONV  "the sweep cannot tell the parameters apart (every run has tokens = 1e+10): the
 *                  Jacobian at the best fit is singular, so its values are one of many equally
 *                  good fits (--fix some, or add runs)"
 *   LS_ERR_NOCONV  "the best fit is not a law of this form: parameter beta = 6 is outside ..."
 * A caller that writes no law appends what it did not write ("; no law written").  0 when the
 * fit may be used (its verdict, ls_fit_verdict, may still warn).  p: the parameters it was
 * fitted with (its fixes count as known). */
int ls_fit_usable(const ls_sweep *s, ls_law_kind kind, const ls_fit_parameters *p, const ls_fit_result *r,
                  ls_error *err) LS_MUST_CHECK;

/* ---- the compute-optimal exponent ----------------------------------------------- */

/* N_opt ~ F^a, D_opt ~ F^(1 - a): a = beta / (alpha + beta) (dense, moe), alpha_D / (alpha_N +
 * alpha_D) (kaplan), with an interval at `level`: with a bootstrap of at least
 * LS_FIT_MIN_INTERVAL_DRAWS draws that give an exponent, the percentile interval of the draws'
 * exponents by the rule of the parameters' own intervals (ls_fit_run_bootstrap); otherwise
 * a -+ z se, se by the delta method on the fit's sandwich covariance (NaN when a free exponent
 * has no standard error).  When every exponent a depends on was held (--fix, --fix-from), the
 * fit says nothing of a: se and the interval are NaN, not of zero width. */
typedef struct ls_fit_exponent {
    double a;
    double se;           /* delta method; NaN when undetermined */
    double level;
    double low, high;    /* NaN when there is no interval */
    size_t ndraws;       /* draws the interval was read from; 0: the delta method's */
} ls_fit_exponent;

/* 0, or LS_ERR_DATA with the reason when the law has no closed-form optimum (its exponents make
 * the loss fall without bound along a budget, or a base without one), LS_ERR_USAGE for a level
 * outside (0, 1). */
int ls_fit_optimum_exponent(const ls_fit_result *r, const ls_fit_bootstrap *b, double level, ls_fit_exponent *out,
                            ls_error *err) LS_MUST_CHECK;

/* ---- the verdict on a fit --------------------------------------------------------- */

/* The axes residuals are tested for a trend along: ln n_act, ln tokens, ln R, ln E and, for a
 * law that reads it, ln unique_tokens. */
typedef enum { LS_FIT_AXIS_N, LS_FIT_AXIS_D, LS_FIT_AXIS_R, LS_FIT_AXIS_E, LS_FIT_AXIS_U, LS_FIT_NAXES } ls_fit_axis;
/* "N", "D", "R", "E", "U". */
const char *ls_fit_axis_name(ls_fit_axis axis);

/* Spearman's rank correlation rho between the residuals of law l on the runs of s (as p
 * measures them: ln Lhat - ln L, or Lhat - L) and ln X along `axis` (ties take their mean
 * rank), and its t statistic rho sqrt((n - 2) / (1 - rho^2)).  LS_ERR_DATA when the axis has
 * one value (or the runs have no unique_tokens, for U) or there are fewer than 4 runs. */
int ls_fit_residual_trend(const ls_sweep *s, const ls_law *l, const ls_fit_parameters *p, ls_fit_axis axis,
                          double *rho, double *t, ls_error *err) LS_MUST_CHECK;

/* The noise in the losses (loss units) that the runs themselves imply, without a law: each run
 * against its nearest other run in (ln n_act, ln tokens, ln R, ln E, and ln unique_tokens when
 * `with_u`), a repeat of its configuration when there is one, and sigma = sqrt(median d^2 /
 * (2 * 0.4549)), d the loss differences (0.4549 the median of chi^2 with 1 degree of freedom:
 * sigma itself for normal noise between exact repeats; neighbours that differ in their
 * configuration add the law's own change, so sigma errs high).  *repeats gets the runs whose
 * nearest neighbour is a repeat.  LS_ERR_DATA for fewer than 3 runs, LS_ERR_INTERNAL when out
 * of memory.  O(n^2) distances: sweeps above LS_VERDICT_NOISE_MAX_RUNS runs are refused
 * (LS_ERR_DATA), and the verdict skips the test there. */
int ls_fit_noise_floor(const ls_sweep *s, int with_u, double *sigma, size_t *repeats, ls_error *err) LS_MUST_CHECK;

/* The typical size of the residuals of law l on the runs of s, in loss units whatever space the
 * fit measured them in: 1.4826 times the median of |Lhat - L|, the standard deviation for normal
 * residuals, and not inflated by a few outliers as the RMSE is.  LS_ERR_DATA for no runs,
 * LS_ERR_INTERNAL when out of memory. */
int ls_fit_residual_scale(const ls_sweep *s, const ls_law *l, double *sigma, ls_error *err) LS_MUST_CHECK;

/* Runs of several experiments fitted as one: rows at one configuration (equal n_act, tokens, R,
 * E and, with `with_u`, unique_tokens) that differ in factor column `factor` of s (ls_sweep's
 * factors: a column no quantity is read from).  Each configuration's rows are averaged value by
 * value, and for each pair of values run at LS_VERDICT_MIX_MIN_CONFIGS configurations or more,
 * the differences d (a's loss minus b's) across them give mean(d) and t = mean(d) / (sd(d) /
 * sqrt(m)): repeats of one experiment differ by noise, whose mean is 0; another experiment
 * differs the same way at every configuration.  The pair reported is the one of largest |mean|
 * among those with |t| > LS_VERDICT_MIX_T, else the one of largest |t| (configurations 0: no
 * pair shares enough configurations; t infinite when every d is the same).  0, or
 * LS_ERR_INTERNAL when out of memory. */
typedef struct ls_fit_mixing {
    size_t value_a, value_b; /* indexes into the factor's values */
    size_t configurations;   /* m: configurations run with both */
    double mean, t;          /* mean(d) in loss units, and its t */
} ls_fit_mixing;
int ls_fit_mixing_of(const ls_sweep *s, size_t factor, int with_u, ls_fit_mixing *out, ls_error *err) LS_MUST_CHECK;

/* The thresholds (docs/fitting.md, "The verdict on a fit", calibrated on the public data sets). */
#define LS_VERDICT_SCALE_FACTOR 1e3       /* a scale parameter's 95% interval spans more than a factor */
#define LS_VERDICT_EXPONENT_WIDTH 0.5     /* an exponent's 95% interval is wider than this */
#define LS_VERDICT_OPTIMUM_WIDTH 0.2      /* a = beta / (alpha + beta): its interval is wider than this */
#define LS_VERDICT_TREND_T 4.0            /* |t| of the residuals' rank correlation with an axis above this */
#define LS_VERDICT_TREND_RHO 0.2          /* ... and |rho| above this */
#define LS_VERDICT_NOISE_RATIO 3.0        /* the RMSE above this many times the runs' own noise */
#define LS_VERDICT_MIX_MIN_CONFIGS 3      /* runs of two values of a column at this many configurations */
#define LS_VERDICT_MIX_T 4.0              /* ... whose loss differences have |t| above this */
#define LS_VERDICT_MIX_RATIO 1.0          /* ... and a mean above this many times the residual scale */
#define LS_VERDICT_NOISE_MAX_RUNS 20000
#define LS_VERDICT_LEVEL 0.95             /* the level of the intervals judged without a bootstrap */

/* Every warning a fit deserves, appended to out (which the caller initialised, to {0} or a
 * list it already has), in this order:
 *   LS_WARNING_UNIDENTIFIED "delta, gamma"   held at their neutral values (ls_fit_unidentified_warnings)
 *   LS_WARNING_AT_BOUND     "c"              c ran to its bound 0 (ls_fit_diagnose's line)
 *   LS_WARNING_AT_BOUND     PARAMETER        an exponent whose interval reaches past its domain's bound
 *   LS_WARNING_FIT_QUALITY  "c"              c above the lowest observed loss
 *   LS_WARNING_UNDETERMINED PARAMETER        an unbounded interval, draws out of the domain,
 *                                            or an interval wider than the thresholds above
 *   LS_WARNING_UNDETERMINED "a"              the compute-optimal exponent's interval is wider
 *                                            than LS_VERDICT_OPTIMUM_WIDTH
 *   LS_WARNING_FIT_QUALITY  AXIS             residuals that trend along N, D, R, E or U
 *   LS_WARNING_FIT_QUALITY  COLUMN           rows at one configuration that differ in a column
 *                                            and, beyond the residuals' scale, in their loss
 *                                            (ls_fit_mixing_of): several experiments as one
 *   LS_WARNING_FIT_QUALITY  ""               an RMSE far above the runs' own noise
 * b: the fit's bootstrap, or NULL (intervals then from the standard errors, at
 * LS_VERDICT_LEVEL); p: the parameters it was fitted with, or NULL for the defaults.
 * 0, or LS_ERR_INTERNAL when out of memory. */
int ls_fit_verdict(const ls_sweep *s, const ls_fit_result *r, const ls_fit_bootstrap *b, const ls_fit_parameters *p,
                   ls_warnings *out, ls_error *err) LS_MUST_CHECK;

LS_API_END

#endif
