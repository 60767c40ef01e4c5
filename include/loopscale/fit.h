/*
 * loopscale/fit.h — fitting a law to a sweep (docs/fitting.md).
 *
 * The default objective is Chinchilla's approach 3 as Hoffmann et al. (2022)
 * and Epoch AI's replication use it: the SUM over runs of
 * Huber_delta(ln Lhat - ln L), delta = 1e-3, with A, B, c carried as their
 * logarithms and ln Lhat a log-sum-exp of the law's terms.  Each start is
 * solved by a second-order hybrid on the exact objective (docs/fitting.md):
 * Levenberg-Marquardt steps on IRLS's curvature model far from the optimum,
 * undamped Newton steps on the exact Hessian (from the law core,
 * law_hessian.c) once it is positive definite and the step plausible, so
 * that a solve ends quadratically.
 *
 * Global search is multi-start.  The base parameters (A, alpha, B, beta, c)
 * start from Chinchilla's 4,500-point grid (fit_parameters.grid_chinchilla)
 * or from Sobol points in the same box; a law with further parameters is
 * fitted in two stages: first the base parameters with the others held at
 * typical values (on the plain runs, R = 1 and E = 1, when there are enough
 * of them), then everything from the best two stage-one solutions crossed
 * with a small grid over the extra parameters.  Every start is a complete
 * local solve; results do not depend on the thread count.
 *
 * Parameters the data cannot identify (the loop parameters when no run has
 * R > 1, theta when no looped run has m < 1, the MoE terms when no run has
 * E > 1) are held at their neutral values and reported in `unidentified`.
 *
 * ls_fit_run() and ls_fit_bootstrap() fill caller-owned results; ls_fit_bootstrap's
 * draws are malloc'd and freed with ls_fit_bootstrap_free().
 *
 * Thread safety: no global state.  ls_fit_run() and ls_fit_run_bootstrap()
 * only read the sweep and the parameters, so several fits may run at once on
 * one sweep; each starts and joins its own worker threads (threads = 0: one
 * per online core), and calls `progress` from one thread at a time.
 */
#ifndef LOOPSCALE_FIT_H
#define LOOPSCALE_FIT_H

#include <stddef.h>

#include "loopscale/error.h"
#include "loopscale/law.h"
#include "loopscale/sweep.h"
#include "loopscale/export.h"

LS_API_BEGIN

typedef enum { LS_FIT_LOSS_HUBER, LS_FIT_LOSS_MSE } ls_fit_loss;
typedef enum { LS_FIT_SPACE_LOG, LS_FIT_SPACE_LINEAR } ls_fit_space;
typedef enum { LS_FIT_SCALE_LEVENBERG, LS_FIT_SCALE_MORE, LS_FIT_SCALE_MARQUARDT } ls_fit_scale;

/* Progress of a long run: `done` of `total` local solves finished.  Called
 * from one thread at a time, often, so it should be cheap. */
typedef void (*ls_fit_progress_fn)(void *context, size_t done, size_t total);

typedef struct ls_fit_parameters {
    ls_fit_loss loss;             /* default Huber */
    double huber_delta;        /* default 1e-3 */
    ls_fit_space space;           /* residuals ln Lhat - ln L (default) or Lhat - L */
    int grid_chinchilla;       /* base starts from the 4,500-point grid */
    size_t starts;             /* base starts from Sobol points otherwise (default 32) */
    size_t stage_two_seeds;    /* best stage-one solutions carried on (default 2) */
    unsigned long seed;        /* bootstrap resampling (default 1) */
    int threads;               /* 0: one per online core */
    size_t max_iterations;     /* per local solve (default 500) */
    double xtol, gtol;         /* step and scaled-gradient tests (1e-10, 1e-12) */
    double ftol;               /* a start also stops when two steps in a row lower
                                  the objective by less than this, relative (1e-10);
                                  the best start is then polished to xtol */
    ls_fit_scale scale;           /* damping of the Levenberg-Marquardt steps: the identity
                                  (Levenberg, default), M's diagonal (Marquardt) or its
                                  running maximum (More); docs/fitting.md */
    double best_rtol;          /* a start "reached the best" within this relative
                                  difference in objective (1e-6) */
    int first_order;           /* first-order models only: IRLS-weighted
                                  Levenberg-Marquardt without Newton steps, as a
                                  law without an analytic Hessian is fitted (0) */
    unsigned char fixed[LS_LAW_NPARAMS]; /* --fix: hold at fixed_value */
    double fixed_value[LS_LAW_NPARAMS];
    /* --tie: tied[j] = i + 1 makes parameter j equal to parameter i (0: not
     * tied), for two parameters of one kind (ls_law_param_transform: two
     * exponents, or two log-scale coefficients), so that the tie holds in
     * the fitted coordinates too; i is free and not itself tied.  Gadre et
     * al.'s law is dense with beta tied to alpha. */
    unsigned char tied[LS_LAW_NPARAMS];
    ls_fit_progress_fn progress;
    void *progress_context;
} ls_fit_parameters;

void ls_fit_default_parameters(ls_fit_parameters *p);

typedef struct ls_fit_result {
    ls_law law;                                /* the best fit (natural values) */
    unsigned char fixed[LS_LAW_NPARAMS];       /* held fixed, for any reason */
    unsigned char unidentified[LS_LAW_NPARAMS];/* fixed because the data cannot identify them */
    unsigned char tied[LS_LAW_NPARAMS];        /* as fit_parameters.tied; a tied parameter is not
                                               counted in nfree and carries its leader's
                                               standard error */
    double stderr_of[LS_LAW_NPARAMS];          /* standard errors from the M-estimator's sandwich
                                               covariance (docs/fitting.md); NaN if fixed */
    /* That covariance, of the fitted coordinates (ln A, alpha, ln B, ...:
     * ls_law_param_to_fitted), row-major by parameter:
     * covariance[i * LS_LAW_NPARAMS + j]; NaN for parameters not fitted (a
     * tied parameter has its leader's rows). */
    double covariance[LS_LAW_NPARAMS * LS_LAW_NPARAMS];
    double objective;  /* Huber sum (or sum of squares for mse) at the best fit */
    double rmse;       /* sqrt(mean (Lhat - L)^2), loss units */
    size_t n;          /* runs */
    size_t nfree;      /* parameters fitted */
    size_t starts;     /* local solves of the final stage */
    size_t starts_converged;
    size_t starts_at_best;
    size_t stage_one_starts; /* 0 for a base-only law */
    int converged;     /* the best solve met a convergence test */
    size_t iterations; /* of the best solve */
    size_t steps;      /* accepted steps of every start of every stage */
    size_t newton_steps; /* of which undamped Newton steps */
    char method[160];  /* solver and options, for provenance */
} ls_fit_result;

/* Fit law `kind` to every row of s (which must have a loss column).
 * Errors: LS_ERR_DATA (too few runs for the free parameters),
 * LS_ERR_USAGE (bad parameters), LS_ERR_INTERNAL. A fit whose best solve did
 * not converge is returned with converged = 0, not as an error. */
int ls_fit_run(const ls_sweep *s, ls_law_kind kind, const ls_fit_parameters *p, ls_fit_result *out, ls_error *err) LS_MUST_CHECK;

/* Check a tie of `follower` to `leader` under law `kind` against p's
 * fixes and other ties: 0, or LS_ERR_USAGE with the reason. */
int ls_fit_check_tie(ls_law_kind kind, const ls_fit_parameters *p, ls_law_param follower, ls_law_param leader,
                     ls_error *err) LS_MUST_CHECK;

/* Why a parameter in ls_fit_result.unidentified could not be identified
 * ("no run has E > 1"). */
const char *ls_fit_unidentified_reason(ls_law_param param);

/* 1 when every free parameter of a fit has a standard error, that is when
 * the Jacobian at the best fit is regular.  A singular one (every run at one
 * token count makes B, beta and c a single constant) means the values are
 * one of many equally good fits, however well the solve converged. */
int ls_fit_determined(const ls_fit_result *r);

/* Why an undetermined fit's sweep cannot tell the parameters apart, as a
 * parenthesis to append to a message: " (every run has tokens = 1e+10)" or
 * " (the runs have only two values of n_act, 1e+08 and 2e+08)"; empty when
 * neither sizes nor token counts explain it. */
void ls_fit_undetermined_reason(const ls_sweep *s, char *buf, size_t size);

/* Whether the runs of s can determine law `kind` at all, from the data
 * alone (src/lib/fit_data.c; the program asks after ls_fit_run, so that too
 * few runs stay an LS_ERR_DATA error): 0, or LS_ERR_NOCONV (exit 3, as an undetermined fit)
 * with the reason when the losses are all equal, when every run has one
 * n_act (and, under a loop mapping, one R) or one token count while two of
 * that term's parameters and c are free, or when runs that differ only in
 * n_act (or only in tokens) always have equal losses.  Parameters p->fixed
 * holds are taken as known.  A fit of such data converges to an arbitrary
 * law with finite, meaningless errors, which ls_fit_determined cannot see.
 * Holds 64 bytes per run while it runs. */
int ls_fit_data_check(const ls_sweep *s, ls_law_kind kind, const ls_fit_parameters *p, ls_error *err) LS_MUST_CHECK;

/* The warnings about parameters held at their neutral values, one line per
 * reason, each ending in a newline ("delta, gamma are held at 0, 0: no run
 * has E > 1\n"); malloc'd, or NULL when there are none (or no memory). */
char *ls_fit_unidentified_warnings(const ls_fit_result *r);

/* Evaluate the objective of a law on a sweep (Huber sum or sum of squares,
 * as p says), e.g. for a law read from a file. */
double ls_fit_objective(const ls_sweep *s, const ls_law *l, const ls_fit_parameters *p);

typedef struct ls_fit_bootstrap {
    size_t ndraws;     /* draws that converged and are kept */
    size_t failed;     /* draws whose refit did not converge (dropped) */
    double *draws;     /* ndraws x LS_LAW_NPARAMS natural values, row-major */
    double level;      /* e.g. 0.95 */
    double ci_low[LS_LAW_NPARAMS], ci_high[LS_LAW_NPARAMS]; /* percentile intervals; NaN when fewer
                                                        * than LS_FIT_MIN_INTERVAL_DRAWS converged */
    /* Draws whose refit converged outside the law's domain (an exponent
     * past its bound, E_start >= E_max): dropped too, as no law file could
     * hold them, and counted by the parameter that left first. */
    size_t outside;
    size_t outside_of[LS_LAW_NPARAMS];
} ls_fit_bootstrap;

/* The fewest bootstrap draws a percentile interval is read from: with fewer,
 * the 2.5% and 97.5% quantiles are the extreme draws themselves, and one or
 * two draws give a zero-width "interval" that may exclude the estimate. */
#define LS_FIT_MIN_INTERVAL_DRAWS 20

/* Resample runs with replacement (or whole groups when by_group, using the
 * sweep's group ids), refit from the full-data optimum and `perturbed`
 * perturbed starts, and take percentile intervals at `level`.  Draw i uses
 * its own random stream seeded from (p->seed, i), so results do not depend
 * on the thread count. */
int ls_fit_run_bootstrap(const ls_sweep *s, const ls_fit_result *full, const ls_fit_parameters *p, size_t ndraws,
                      size_t perturbed, int by_group, double level, ls_fit_bootstrap *out,
                      ls_error *err) LS_MUST_CHECK;
void ls_fit_bootstrap_free(ls_fit_bootstrap *b);

/* A profile-likelihood interval of one fitted parameter (docs/fitting.md,
 * "Profile intervals"): the parameter is held on a path away from its
 * estimate, the others refitted at each point (from the previous point's
 * values), and each end is where the scaled deviance
 *     D(u_j) = calibration * (F_profile(u_j) - F_min)
 * reaches the chi^2 (one degree of freedom) quantile of `level`, found by
 * doubling steps of one standard error and then regula falsi on sqrt(D).
 * calibration = 2 [H^-1]_jj / V_jj, H the objective's curvature at the fit
 * and V the sandwich covariance (ls_fit_result.covariance), so that D is
 * (u_j - u_hat)^2 / V_jj near the estimate (a sum of Huber terms is no
 * log-likelihood: the plain deviance 2 (F - F_min) would be on the scale
 * of delta).  An end the deviance does not reach within
 * LS_FIT_PROFILE_REACH standard errors, or before the law cannot be
 * evaluated (an exponent out of its domain), is open: closed_low or
 * closed_high is 0 and low or high is the last point searched. */
#define LS_FIT_PROFILE_REACH 64.0
typedef struct ls_fit_profile {
    ls_law_param param;
    double level;
    double low, high;          /* natural values */
    int closed_low, closed_high;
    double calibration;
    size_t refits;             /* local refits of the other parameters */
} ls_fit_profile;

/* p: the parameters r was fitted with.  Errors: LS_ERR_USAGE (a parameter
 * the law does not use, one held or tied, a level outside (0, 1)),
 * LS_ERR_NOCONV (no standard error: an undetermined fit),
 * LS_ERR_INTERNAL. */
int ls_fit_profile_interval(const ls_sweep *s, const ls_fit_result *r, const ls_fit_parameters *p, ls_law_param param,
                            double level, ls_fit_profile *out, ls_error *err) LS_MUST_CHECK;

/* ---- the fitted law along the sweep's series, for a figure (ls_plot_fit) ----
 *
 * A series is the runs of one shape (N_act, E, N_total) at one token count
 * D, or at one training budget F when that groups the runs into fewer
 * series (a sweep logged by compute), along R; along D when no run is
 * looped.  N_act, N_total, D and F are first snapped to their tiers
 * (ls_sweep_group), so that a tier a log's rounding scattered is one
 * series.  Each series of two runs or more gets the law at `points` values
 * of its x evenly in ln x from its first run to its last, and with draws
 * the band of that loss over them (the central 95%, as solve.h's bands). */
typedef struct ls_fit_series {
    size_t first, count;           /* its runs: order[first], ..., order[first + count - 1], x increasing */
    double n_act, E, n_total, key; /* its tiers; key: D or F along R (key_flops), R along D */
    size_t curve;                  /* its curve's first value in curve_x and the others; SIZE_MAX with one run */
} ls_fit_series;

typedef struct ls_fit_curves {
    int by_r;      /* the series run along R (else along D: no run is looped) */
    int key_flops; /* along R: at equal training FLOPs (else at equal tokens) */
    size_t nruns;  /* the sweep's rows, in its order: */
    double *n_act; /* each run's N_act tier */
    double *x;     /* its x: R, or its tier of D */
    double *key;   /* its series' key */
    double *fitted; /* the law's loss at the run as read */
    size_t *order; /* the runs, series after series */
    size_t nseries;
    ls_fit_series *series;
    size_t points, ndraws;
    double *curve_x, *curve_loss; /* points per series with a curve */
    double *band_lo, *band_hi;    /* likewise; NULL without draws */
} ls_fit_curves;

/* The curves of l along the series of s (points >= 2), bands over
 * draws[0..ndraws) (none when 0).  Errors: LS_ERR_DATA for an empty sweep,
 * those of ls_sweep_group, LS_ERR_INTERNAL. */
int ls_fit_curves_run(const ls_sweep *s, const ls_law *l, const ls_law *draws, size_t ndraws, size_t points,
                      ls_fit_curves *out, ls_error *err) LS_MUST_CHECK;
void ls_fit_curves_free(ls_fit_curves *c);

LS_API_END

#endif
