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
 * The target can instead be the summed variance of named parameters
 * (ls_plan_parameters.target_params).  The candidates are a grid
 * (ls_plan_grid_candidates) or a CSV file of configurations
 * (ls_plan_read_candidates).
 *
 * ls_plan_run() fills a ls_plan_result whose arrays it allocates; free it with
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

typedef struct ls_plan_parameters {
    double budget_flops; /* training compute for the new runs (sum of 6 N_unroll D) */
    double noise_sigma;  /* spread of ln L about the law; NaN: from the prior (see ls_plan_run) */
    double huber_delta;  /* the fit's Huber delta (default 1e-3); +inf for least squares */
    double prior_sd;     /* weak prior on every fitted coordinate (default 1) */
    size_t max_draws;    /* bootstrap draws used, the first ones (default 100) */
    int threads;         /* 0: one per online core */
    /* The target: with ntarget_params 0 (the default), the decision at the
     * deployment budget; otherwise the sum of the variances of these
     * parameters, in natural units (each must be free in the prior), and
     * deploy and choice are not used. */
    const ls_law_param *target_params;
    size_t ntarget_params;
    /* What a plan must be: at least min_runs_per_param runs (those already
     * trained counted) per parameter it identifies, each axis the
     * candidates vary (N_act, tokens, R, E) spread over at least three
     * values (two for R and E), and the information of its runs, without
     * the weak prior, of condition number at most max_condition in
     * correlation form (ls_plan_check_design). */
    double min_runs_per_param; /* default 2 */
    double max_condition;      /* default 1e12 */
    /* The search (docs/plan.md): with search_sweeps > 0, the starting
     * designs (the c-optimal greedy design, the IsoFLOP design, and
     * mixtures) and local moves from the best are judged by search_sweeps
     * simulated sweeps each, drawn from the prior's bootstrap draws,
     * fitted (law kind fit_kind, parameters fit) and solved; the plan is
     * the design with the most right decisions (then the fewest failed
     * fits, then the lowest mean regret).  With 0 nothing is simulated: the
     * plan is the c-optimal greedy design if it passes the check above,
     * else the starting design that passes it with the least IsoFLOP
     * share. */
    size_t search_sweeps;  /* default 32 */
    size_t search_moves;   /* local moves tried at most (default 12) */
    unsigned long seed;    /* the simulated sweeps' noise (default 1) */
    ls_fit_parameters fit; /* threads and progress are overridden */
    /* The IsoFLOP design, as ls_plan_validation_options has it. */
    size_t isoflop_budgets, isoflop_sizes;
    double isoflop_budget_ratio, isoflop_span;
    /* Called from one thread at a time with the simulated fits done; may be NULL. */
    void (*progress)(void *context, size_t done, size_t total);
    void *progress_context;
} ls_plan_parameters;

/* Whether a design can be fitted without the weak prior: filled by
 * ls_plan_check_design. */
typedef struct ls_plan_fittable {
    int ok;
    size_t nruns, min_runs;    /* runs (those already trained included) and the least allowed */
    size_t nparams;            /* parameters the check covers */
    size_t distinct[4];        /* distinct N_act, tokens, R and E among the runs */
    size_t needed[4];          /* ... and the least allowed (0: an axis the candidates do not vary) */
    double condition;          /* of the information in correlation form; +inf when singular */
    double max_condition;
    char why[200];             /* when not ok: the shortfall, as a phrase */
} ls_plan_fittable;

/* Check that the n runs x identify every parameter in params (p of them)
 * under law l: at least min_runs_per_param * p runs, each axis that the
 * reference points (the candidates and runs already trained) vary spread
 * over three values at least (two for R and E, at most as many as the
 * reference has), and the information sum_i j_i j_i' (j_i = d ln L(x_i)/du)
 * of condition number at most max_condition once scaled to unit diagonal.
 * min_runs_per_param 0 with max_condition +inf asks for no check (ok).
 * Returns out->ok. */
int ls_plan_check_design(const ls_law *l, const ls_law_param *params, size_t p, const ls_law_point *x, size_t n,
                         const ls_law_point *reference, size_t nreference, double min_runs_per_param,
                         double max_condition, ls_plan_fittable *out);

/* The candidates `plan` makes from the question when none are given: for
 * every (R, E) of the lists, IsoFLOP budgets from flops_max / 1000 to
 * flops_max a factor sqrt(10) apart (7 of them), and at each 5 sizes
 * N*(F) 3^z, z = -1, -1/2, 0, 1/2, 1, about the optimum N* that the law
 * predicts for that (R, E) at F, each trained on D = F / (6 N_unroll)
 * tokens (as the IsoFLOP baseline centres its sizes), those above the
 * floor (LS_PLAN_MIN_N_ACT) kept.  plan's flops_max is the sweep's budget
 * over twice the parameters (the largest run of which a fittable design
 * can still hold as many).  Returns a malloc'd array (free() it) of *n
 * points, or NULL with err set (LS_ERR_DATA: no candidate above the
 * floor). */
ls_law_point *ls_plan_question_candidates(const ls_law *l, const ls_arch_template *t, const double *R, size_t nR,
                                          const double *E, size_t nE, double flops_max, size_t *n, ls_error *err);

void ls_plan_default_parameters(ls_plan_parameters *p);

/* The 95% Wilson score interval of a rate of k successes in n trials
 * (Wilson 1927, "Probable inference, the law of succession, and
 * statistical inference"): centre (k + z^2/2) / (n + z^2), half-width
 * z sqrt(k (n - k) / n + z^2 / 4) / (n + z^2), z = 1.959964; [0, 1] when
 * n is 0. Used for how often validation's decisions are right. */
void ls_plan_rate_interval(size_t k, size_t n, double *lo, double *hi);

/* The prior: its point estimate, which parameters it held fixed (those are
 * not planned for), its fit RMSE (loss units; NaN when unknown) and its
 * bootstrap draws (none: the point estimate alone). */
typedef struct ls_plan_prior {
    ls_law point;
    unsigned char fixed[LS_LAW_NPARAMS];
    double rmse;
    const ls_law *draws;
    size_t ndraws;
} ls_plan_prior;

typedef enum { LS_PLAN_FROM_COPTIMAL, LS_PLAN_FROM_ISOFLOP } ls_plan_source;

typedef struct ls_plan_entry {
    ls_law_point x;      /* N_total and N_loop whole numbers, as simulate writes them */
    double flops;     /* 6 N_unroll D */
    size_t step;      /* 1, 2, ... in the plan's order */
    double variance;  /* the target's expected variance once this run is added */
    double cut;       /* the share of the variance before it that it removed */
    ls_plan_source source; /* a candidate the c-optimal greedy step chose, or a run of the IsoFLOP design */
} ls_plan_entry;

/* One design the search judged. */
typedef struct ls_plan_design_score {
    char name[64];       /* "IsoFLOP", "c-optimal", "IsoFLOP 50% + c-optimal", "move 2: 13 runs swapped" */
    size_t nruns;        /* new runs */
    double flops;        /* their compute */
    int fittable;        /* 0: not simulated (ls_plan_fittable.why says why) */
    char why[200];
    size_t sweeps, right, failed; /* simulated sweeps, right decisions, failed fits */
    double regret_mean;  /* over the sweeps that fitted; NaN when none did */
    double error;        /* a parameter target: the mean summed squared error of the named parameters */
} ls_plan_design_score;

#define LS_PLAN_MAX_DESIGNS 32

typedef struct ls_plan_result {
    ls_solve_candidate best, runner_up; /* the point estimate's decision: its choice and runner-up */
    double gap;                      /* L(best) - L(runner_up) under the point estimate
                                      * (best, runner_up and gap are 0 for a parameter target) */
    double sigma, huber_weight;      /* the noise used and its weight w */
    size_t nparams;                  /* parameters planned for */
    ls_law_param params[LS_LAW_NPARAMS];
    size_t ninert;                   /* free parameters left out: no run's loss depends on them at the prior */
    ls_law_param inert[LS_LAW_NPARAMS];
    size_t ndraws;                   /* draws averaged over */
    size_t ndraws_own_pair;          /* draws with a decision of their own (the others use best/runner_up) */
    size_t ndraws_same_choice;       /* draws whose choice has best's R and E */
    size_t ncandidates;              /* the grid */
    size_t nhave;                    /* runs already trained */
    size_t nhave_in_grid;            /* of those, candidates of the grid (never chosen again) */
    double have_flops;
    double variance_prior;  /* the target's variance (the gap's, or the named parameters' summed)
                             * under the weak prior alone */
    double variance_have;   /* ... with the runs already trained */
    double variance_plan;   /* ... with the plan added */
    size_t ntargets;        /* named parameters (0: the decision) */
    ls_law_param targets[LS_LAW_NPARAMS];
    /* Each target's variance (mean over the draws); [0] is the gap's. */
    double target_variance_prior[LS_LAW_NPARAMS], target_variance_have[LS_LAW_NPARAMS],
        target_variance_plan[LS_LAW_NPARAMS];
    size_t nruns;
    ls_plan_entry *runs;         /* the IsoFLOP part first, then in the order chosen */
    double flops_spent;
    ls_plan_fittable fittable;   /* the plan's check (with the runs already trained) */
    /* The search: the designs judged, in order, and the one kept. */
    size_t search_sweeps;
    size_t ndesigns;
    ls_plan_design_score designs[LS_PLAN_MAX_DESIGNS];
    size_t chosen;               /* index into designs */
} ls_plan_result;

/* The candidate runs: configurations as they would be trained (N_total and
 * N_loop whole numbers).  ls_plan_grid_candidates() makes them from every
 * combination of a grid, through the template (as simulate does), in the
 * order N_act, tokens, E, R; the array is malloc'd: free() it. */
typedef struct ls_plan_candidates {
    const ls_law_point *x;
    size_t n;
} ls_plan_candidates;

int ls_plan_grid_candidates(const ls_arch_template *t, const ls_simulate_grid *grid, ls_law_point **out, size_t *n,
                            ls_error *err) LS_MUST_CHECK;

/* The smallest run a plan makes itself (the candidates from the question,
 * the IsoFLOP design's runs): LS_PLAN_MIN_N_ACT active parameters, trained
 * on at least as many tokens as it has. */
#define LS_PLAN_MIN_N_ACT 1e6

/* The most candidates a plan weighs: its memory grows as draws x
 * candidates x parameters (the Jacobians, about 130 bytes a draw and
 * candidate with the default law). */
#define LS_PLAN_MAX_CANDIDATES 100000

/* The candidates of a CSV file of configurations, read as a sweep is
 * (docs/formats.md: the same columns, aliases and checks; n_act or
 * n_active, tokens or flops, R, E; no loss needed), with the columns
 * n_total, n_loop and k it lacks taken from the template.  A k other than
 * the template's top_k, a configuration given twice, or more than
 * LS_PLAN_MAX_CANDIDATES rows (refused at the first row beyond) is an
 * LS_ERR_DATA error naming the file and line.  Returns a malloc'd array
 * (free() it) of *n points, or NULL with err set. */
ls_law_point *ls_plan_read_candidates(const char *path, const ls_arch_template *t, size_t *n, ls_error *err);

/* The distinct loop and expert counts of the candidates, ascending (R and
 * E hold c->n values each): the decision's axes for a candidate file. */
void ls_plan_candidate_axes(const ls_plan_candidates *c, double *R, size_t *nR, double *E, size_t *nE);

/* Plan the next runs.  candidates: the runs to choose from; have: runs already trained (NULL for none); deploy and
 * choice: the decision, as ls_solve_run takes them.  With noise_sigma NaN,
 * sigma is the prior's RMSE over the mean loss it predicts across the
 * candidates (LS_ERR_USAGE when the prior has no RMSE).
 * Errors: LS_ERR_USAGE (bad parameters or grid), LS_ERR_DATA (no feasible
 * runner-up to compare with), LS_ERR_INTERNAL. */
int ls_plan_run(const ls_plan_prior *prior, const ls_arch_template *t, const ls_plan_candidates *candidates,
                const ls_sweep *have, const ls_solve_budget *deploy, const ls_solve_options *choice,
                const ls_plan_parameters *p, ls_plan_result *out, ls_error *err) LS_MUST_CHECK;
void ls_plan_result_free(ls_plan_result *r);

/* --- validation by simulation -------------------------------------------
 * Draw K noisy sweeps from a truth law for the planned design (the runs
 * already trained plus the plan) and for two baselines, each the same runs
 * already trained plus:
 *  - the candidates thinned uniformly: every k-th candidate in their order,
 *    k the smallest stride (coprime to the number of distinct (tokens, E,
 *    R)) whose compute fits in baseline_flops;
 *  - an IsoFLOP design as Hoffmann et al. (2022) build one: for every (R, E)
 *    of the candidates, isoflop_budgets budgets a factor
 *    isoflop_budget_ratio apart and at each isoflop_sizes sizes spread
 *    log-uniformly over a factor isoflop_span either side of the optimum
 *    the centre law (the prior) predicts, D = F / (6 N_unroll); the budgets
 *    are scaled so that the whole design costs baseline_flops;
 * fit each with ls_fit_run, solve, and count how often the decision is
 * right: R* and E* the truth's and N_act* within 10% of the truth's; the
 * loss regret is the truth's loss at the fitted choice minus the truth's
 * loss at its own. */
typedef struct ls_plan_validation_options {
    size_t replicates;     /* K */
    double noise_sigma;    /* spread of ln L in the simulated sweeps */
    double baseline_flops; /* compute of each baseline (new runs) */
    unsigned long seed;    /* replicate k of the plan, the grid uses the stream (seed, 2k + a), a = 0, 1;
                            * of the IsoFLOP design (seed, 2K + k) */
    int threads;           /* replicates run in parallel; each fit on one thread */
    ls_fit_parameters fit;    /* how each sweep is fitted (threads and progress are overridden) */
    /* Called from one thread at a time with the fits done of 3K; may be NULL. */
    void (*progress)(void *context, size_t done, size_t total);
    void *progress_context;
    const ls_law *center;           /* where the IsoFLOP sizes are centred (the prior's point estimate) */
    size_t isoflop_budgets;      /* budgets per (R, E) (default 3; 0: no IsoFLOP design, its
                                  * replicates all counted as failed) */
    size_t isoflop_sizes;        /* sizes per budget (default 8) */
    double isoflop_budget_ratio; /* between consecutive budgets (default sqrt 10) */
    double isoflop_span;         /* sizes from N* / span to N* span (default 3) */
    /* Named parameters whose spread over the replicates' fits is reported
     * (a parameter target); none by default. */
    const ls_law_param *target_params;
    size_t ntarget_params;
} ls_plan_validation_options;

/* Defaults (50 replicates, seed 1, the fit's defaults, the IsoFLOP shape
 * above); noise_sigma, baseline_flops and center must still be set. */
void ls_plan_validation_default_options(ls_plan_validation_options *o);

typedef struct ls_plan_validation_arm {
    size_t nruns;      /* runs in the design, those already trained included */
    double flops;      /* compute of its new runs */
    size_t stride;     /* the thinned grid's k (0 for the others) */
    size_t right;      /* replicates whose decision is right */
    size_t failed;     /* replicates whose fit failed or did not converge (counted wrong) */
    double regret_mean, regret_median, regret_max; /* over the replicates that fitted */
    /* With target_params: each one's standard deviation over the replicates
     * that fitted, and the sum of their variances. */
    double target_sd[LS_LAW_NPARAMS];
    double target_variance;
} ls_plan_validation_arm;

typedef struct ls_plan_validation {
    int has_decision;             /* deploy was given: the decision was checked */
    ls_solve_candidate truth_choice; /* the truth's decision */
    size_t replicates;
    ls_plan_validation_arm plan, grid, isoflop;
    size_t isoflop_pairs, isoflop_budgets, isoflop_sizes; /* (R, E) pairs, budgets per pair, sizes per budget */
    double isoflop_budget_min, isoflop_budget_max;         /* FLOPs of one run at the smallest and largest budget */
} ls_plan_validation;

/* kind: the law fitted to each simulated sweep (the prior's).  deploy and
 * choice may be NULL with target_params set: the fits' spread is then all
 * that is measured (right and regret stay 0 and NaN).
 * Errors: LS_ERR_USAGE (bad options), LS_ERR_DATA (no feasible decision
 * under the truth, a baseline_flops too small for one candidate, or no
 * IsoFLOP optimum under the centre law), LS_ERR_INTERNAL. */
int ls_plan_validate(const ls_law *truth, ls_law_kind kind, const ls_arch_template *t, const ls_plan_candidates *candidates,
                     const ls_sweep *have, const ls_plan_result *plan, const ls_solve_budget *deploy,
                     const ls_solve_options *choice, const ls_plan_validation_options *o, ls_plan_validation *out,
                     ls_error *err) LS_MUST_CHECK;

/* The Huber weight w = (E psi')^2 / E psi^2 for residuals normal with
 * spread sigma and Huber threshold delta (1 / sigma^2 for delta = +inf). */
double ls_plan_huber_weight(double sigma, double delta);

/* Add w j j' for each of n points to info (p x p, row-major), j = d ln L /
 * d u over params, in fitted coordinates. */
void ls_plan_add_information(const ls_law *l, const ls_law_param *params, size_t p, const ls_law_point *x, size_t n,
                             double w, double *info);

/* The gradient of L(x1) - L(x2) over params, in fitted coordinates. */
void ls_plan_gap_gradient(const ls_law *l, const ls_law_param *params, size_t p, const ls_law_point *x1, const ls_law_point *x2,
                          double *c);

LS_API_END

#endif
