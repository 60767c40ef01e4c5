/*
 * loopscale/plan.h — which runs to train next (docs/plan.md).
 *
 * A greedy c-optimal design: the target is the gap in loss between the
 * configuration a law chooses at a deployment budget and its runner-up
 * (the best feasible one with another R or E), each bootstrap draw of the
 * prior deciding between its own pair; each candidate run
 * adds w j j' to the Fisher information of the fitted parameters, where j is
 * the law's analytic gradient of ln L in fitted coordinates and w the Huber
 * weight at the prior's residual scale; the plan adds, one at a time, the
 * candidate that lowers the gap's variance most per training FLOP, averaged
 * over the prior's bootstrap draws, until no candidate fits the budget.
 *
 * ls_plan_run() fills a plan_result whose arrays it allocates; free it with
 * ls_plan_result_free().
 *
 * Thread safety: no global state; ls_plan_run() only reads its inputs and
 * starts and joins its own worker threads (ls_parallel_for).
 */
#ifndef LOOPSCALE_PLAN_H
#define LOOPSCALE_PLAN_H

#include <stddef.h>

#include "loopscale/arch.h"
#include "loopscale/error.h"
#include "loopscale/fit.h"
#include "loopscale/law.h"
#include "loopscale/simulate.h"
#include "loopscale/solve.h"
#include "loopscale/sweep.h"
#include "loopscale/export.h"

LS_API_BEGIN

typedef struct plan_parameters {
    double budget_flops; /* training compute for the new runs (sum of 6 N_unroll D) */
    double noise_sigma;  /* spread of ln L about the law; NaN: from the prior (see ls_plan_run) */
    double huber_delta;  /* the fit's Huber delta (default 1e-3); +inf for least squares */
    double prior_sd;     /* weak prior on every fitted coordinate (default 1) */
    size_t max_draws;    /* bootstrap draws used, the first ones (default 100) */
    int threads;         /* 0: one per online core */
} plan_parameters;

void ls_plan_default_parameters(plan_parameters *p);

/* The 95% Wilson score interval of a rate of k successes in n trials
 * (Wilson 1927, "Probable inference, the law of succession, and
 * statistical inference"): centre (k + z^2/2) / (n + z^2), half-width
 * z sqrt(k (n - k) / n + z^2 / 4) / (n + z^2), z = 1.959964; [0, 1] when
 * n is 0. Used for how often validation's decisions are right. */
void ls_plan_rate_interval(size_t k, size_t n, double *lo, double *hi);

/* The prior: its point estimate, which parameters it held fixed (those are
 * not planned for), its fit RMSE (loss units; NaN when unknown) and its
 * bootstrap draws (none: the point estimate alone). */
typedef struct plan_prior {
    law point;
    unsigned char fixed[LAW_NPARAMS];
    double rmse;
    const law *draws;
    size_t ndraws;
} plan_prior;

typedef struct plan_run {
    law_point x;      /* N_total and N_loop whole numbers, as simulate writes them */
    double flops;     /* 6 N_unroll D */
    size_t step;      /* 1, 2, ... in the order chosen */
    double variance;  /* the gap's expected variance once this run is added */
    double cut;       /* the share of the variance before it that it removed */
} plan_run;

typedef struct plan_result {
    solve_candidate best, runner_up; /* the point estimate's decision: its choice and runner-up */
    double gap;                      /* L(best) - L(runner_up) under the point estimate */
    double sigma, huber_weight;      /* the noise used and its weight w */
    size_t nparams;                  /* parameters planned for */
    law_param params[LAW_NPARAMS];
    size_t ndraws;                   /* draws averaged over */
    size_t ndraws_own_pair;          /* draws with a decision of their own (the others use best/runner_up) */
    size_t ndraws_same_choice;       /* draws whose choice has best's R and E */
    size_t ncandidates;              /* the grid */
    size_t nhave;                    /* runs already trained */
    size_t nhave_in_grid;            /* of those, candidates of the grid (never chosen again) */
    double have_flops;
    double variance_prior;  /* the gap's variance under the weak prior alone */
    double variance_have;   /* ... with the runs already trained */
    double variance_plan;   /* ... with the plan added */
    size_t nruns;
    plan_run *runs;         /* in the order chosen */
    double flops_spent;
} plan_result;

/* Plan the next runs.  grid: the candidates (every combination, through
 * the template); have: runs already trained (NULL for none); deploy and
 * choice: the decision, as ls_solve_run takes them.  With noise_sigma NaN,
 * sigma is the prior's RMSE over the mean loss it predicts across the
 * candidates (LS_ERR_USAGE when the prior has no RMSE).
 * Errors: LS_ERR_USAGE (bad parameters or grid), LS_ERR_DATA (no feasible
 * runner-up to compare with), LS_ERR_INTERNAL. */
int ls_plan_run(const plan_prior *prior, const arch_template *t, const simulate_grid *grid, const sweep *have,
                const solve_budget *deploy, const solve_options *choice, const plan_parameters *p,
                plan_result *out, ls_error *err) LS_MUST_CHECK;
void ls_plan_result_free(plan_result *r);

/* --- validation by simulation -------------------------------------------
 * Draw K noisy sweeps from a truth law for the planned design (the runs
 * already trained plus the plan) and for a baseline of the same runs
 * already trained plus the candidate grid thinned uniformly (every k-th
 * candidate in grid order, k the smallest stride whose compute fits in
 * baseline_flops), fit each with ls_fit_run, solve, and count how often
 * the decision is right: R* and E* the truth's and N_act* within 10% of
 * the truth's; the loss regret is the truth's loss at the fitted choice
 * minus the truth's loss at its own. */
typedef struct plan_validation_options {
    size_t replicates;     /* K */
    double noise_sigma;    /* spread of ln L in the simulated sweeps */
    double baseline_flops; /* compute of the thinned grid (new runs) */
    unsigned long seed;    /* replicate k of design a uses the stream (seed, 2k + a) */
    int threads;           /* replicates run in parallel; each fit on one thread */
    fit_parameters fit;    /* how each sweep is fitted (threads and progress are overridden) */
    /* Called from one thread at a time with the fits done of 2K; may be NULL. */
    void (*progress)(void *context, size_t done, size_t total);
    void *progress_context;
} plan_validation_options;

typedef struct plan_validation_arm {
    size_t nruns;      /* runs in the design, those already trained included */
    double flops;      /* compute of its new runs */
    size_t stride;     /* the thinned grid's k (0 for the plan) */
    size_t right;      /* replicates whose decision is right */
    size_t failed;     /* replicates whose fit failed or did not converge (counted wrong) */
    double regret_mean, regret_median, regret_max; /* over the replicates that fitted */
} plan_validation_arm;

typedef struct plan_validation {
    solve_candidate truth_choice; /* the truth's decision */
    size_t replicates;
    plan_validation_arm plan, grid;
} plan_validation;

/* kind: the law fitted to each simulated sweep (the prior's).
 * Errors: LS_ERR_USAGE (bad options), LS_ERR_DATA (no feasible decision
 * under the truth, or a baseline_flops too small for one candidate),
 * LS_ERR_INTERNAL. */
int ls_plan_validate(const law *truth, law_kind kind, const arch_template *t, const simulate_grid *grid,
                     const sweep *have, const plan_result *plan, const solve_budget *deploy,
                     const solve_options *choice, const plan_validation_options *o, plan_validation *out,
                     ls_error *err) LS_MUST_CHECK;

/* The Huber weight w = (E psi')^2 / E psi^2 for residuals normal with
 * spread sigma and Huber threshold delta (1 / sigma^2 for delta = +inf). */
double ls_plan_huber_weight(double sigma, double delta);

/* Add w j j' for each of n points to info (p x p, row-major), j = d ln L /
 * d u over params, in fitted coordinates. */
void ls_plan_add_information(const law *l, const law_param *params, size_t p, const law_point *x, size_t n,
                             double w, double *info);

/* The gradient of L(x1) - L(x2) over params, in fitted coordinates. */
void ls_plan_gap_gradient(const law *l, const law_param *params, size_t p, const law_point *x1, const law_point *x2,
                          double *c);

LS_API_END

#endif
