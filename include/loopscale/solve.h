/*
 * loopscale/solve.h — the configuration a compute and memory budget should
 * buy (docs/solver.md), and IsoFLOP profiles.
 *
 * For every candidate loop count R and expert count E, the architecture
 * template gives N_total and N_loop from N_act; the compute budget fixes
 * D = F / (6 N_unroll); the memory budget caps N_total at 8 M / b_w.  N_act
 * is optimised continuously (a scan of ln N_act, then Brent's method from
 * GSL) inside the feasible range, or taken from a ladder.  Among the feasible
 * candidates whose loss is within epsilon of the best, the one with the
 * fewest loops, then the fewest experts, is chosen: gains inside the law's
 * own error are not worth more inference compute or memory.
 *
 * ls_solve_run() fills a ls_solve_result whose candidate array it allocates; free
 * it with ls_solve_result_free().
 *
 * Thread safety: no global state; ls_solve_run() and friends only read the
 * law and template, so calls may overlap; ls_solve_run_uncertainty() starts
 * and joins its own worker threads.
 */
#ifndef LOOPSCALE_SOLVE_H
#define LOOPSCALE_SOLVE_H

#include <stddef.h>

#include "loopscale/arch.h"
#include "loopscale/error.h"
#include "loopscale/law.h"
#include "loopscale/export.h"

LS_API_BEGIN

typedef struct ls_solve_budget {
    double flops;     /* training compute F (with target_loss a ceiling; 0 or +inf: none) */
    double mem_bytes; /* memory M; +inf for none */
    double bits;      /* bits per weight b_w */
    /* Serving (docs/solver.md#serving); every field 0 leaves the answer of
     * weights alone.  Memory is weights + KV cache + activation_bytes:
     * the cache holds context x batch tokens of ls_arch_kv_per_token()
     * elements of kv_bits each. */
    double context;          /* tokens each sequence keeps in the KV cache (0: no cache) */
    double batch;            /* sequences served at once (0 counts as 1) */
    double kv_bits;          /* bits per cached element (0: bits) */
    double activation_bytes; /* an allowance for activations and workspace */
    /* Cost (Sardana et al. 2024): with inference_tokens T > 0 or a target
     * loss, the choice minimises training + T x inference FLOPs among the
     * configurations reaching the target loss, or within epsilon of the
     * best loss F buys; D is then what reaches that loss, not F / (6 N). */
    double inference_tokens; /* T: tokens served over the model's life */
    double target_loss;      /* the loss to reach (0: none) */
} ls_solve_budget;

/* 1 when the budget counts a KV cache or an activation allowance, and when
 * it asks for the cheapest configuration (inference tokens or a target). */
int ls_solve_budget_serving(const ls_solve_budget *b);
int ls_solve_budget_costed(const ls_solve_budget *b);
/* The bits of each cached key or value element: kv_bits, else bits. */
double ls_solve_budget_kv_bits(const ls_solve_budget *b);

typedef struct ls_solve_options {
    const double *R; /* candidate loop counts */
    size_t nR;
    const double *E; /* candidate expert counts */
    size_t nE;
    const double *ladder; /* N_act values to choose from; NULL: continuous */
    size_t nladder;
    double eps;           /* tolerance in loss units (>= 0) */
    /* Where the law was fitted (ls_lawfile_ranges); NULL: unknown.  Every
     * reported configuration is checked against it. */
    const ls_law_ranges *ranges;
    /* A post-training quantisation penalty (law.h) added to the loss of
     * weights below its trained precision; NULL: none. */
    const ls_law_quant *quant;
} ls_solve_options;

/* Relative difference below which two candidates' losses count as equal
 * in the choice, whatever epsilon is (the search's own precision). */
#define LS_SOLVE_LOSS_TIE 1e-12

/* The default candidates: R = 1, 2, ..., 16 and E = 1, 2, 4, ..., 64, each
 * cut at the largest R and E the law was fitted on when ranges knows them
 * (never below the smallest value), so that a default answer stays inside
 * the data unless the caller asks for more.  R and E have room for
 * LS_SOLVE_DEFAULT_NR and LS_SOLVE_DEFAULT_NE values. */
#define LS_SOLVE_DEFAULT_NR 16
#define LS_SOLVE_DEFAULT_NE 7
void ls_solve_default_candidates(const ls_law_ranges *ranges, double *R, size_t *nR, double *E, size_t *nE);

/* What stops a candidate's N_act from growing or shrinking further. */
typedef enum {
    LS_SOLVE_BOUND_COMPUTE, /* nothing but the compute budget: the IsoFLOP optimum (or ladder step) */
    LS_SOLVE_BOUND_MEMORY,  /* the weight-memory budget: N_act at the memory cap, or a larger
                            ladder size with a lower loss does not fit */
    LS_SOLVE_BOUND_SEARCH,  /* an end of the search: 10^3 active parameters, or one training token */
    LS_SOLVE_NBOUNDS
} ls_solve_bound;

/* "compute", "memory", "search range". */
const char *ls_solve_bound_name(ls_solve_bound b);

typedef struct ls_solve_candidate {
    double R, E;
    double n_act, n_total, n_loop, n_unroll, tokens;
    double loss;
    double inference_flops; /* per token: 2 N_unroll under 6nd (the template's convention) */
    double weight_bytes;    /* b_w N_total / 8 */
    int feasible;           /* some N_act fits the memory budget */
    double kv_bytes;        /* the KV cache: context x batch x ls_arch_kv_per_token x kv_bits / 8 */
    double memory_bytes;    /* weight_bytes + kv_bytes + the activation allowance */
    double quant_penalty;   /* what quantising the weights adds to the loss (included in loss) */
    double training_flops;  /* F, or what reaching the target loss costs */
    double serving_flops;   /* inference_tokens x inference_flops */
    unsigned outside;       /* bits 1u << LAW_RANGE_*: quantities beyond the fitted ranges */
    ls_solve_bound bound;      /* what binds N_act */
} ls_solve_candidate;

/* One reported configuration outside a range the law was fitted on. */
typedef struct ls_solve_warning {
    const char *configuration; /* "chosen", "lowest_loss" or "unconstrained" (static text) */
    ls_law_range quantity;
    double value, lo, hi;      /* the value, and the fitted range it leaves */
    char message[200];         /* one line: "the chosen D = 4.7e+11 tokens is beyond ..." */
} ls_solve_warning;

typedef struct ls_solve_result {
    size_t ncandidates;
    ls_solve_candidate *candidates; /* every (E, R), E outer, memory-constrained */
    int has_choice;
    ls_solve_candidate choice;      /* the chosen configuration */
    ls_solve_candidate best;        /* the lowest-loss feasible candidate */
    ls_solve_candidate unconstrained; /* the lowest loss with no memory limit */
    /* The extrapolations among the three reported configurations, one per
     * configuration and quantity, in that order; the candidates carry
     * theirs in `outside`. */
    size_t nwarnings;
    ls_solve_warning *warnings;
    size_t ncandidates_outside; /* feasible candidates with any quantity outside */
    /* The cheapest configuration was asked for (ls_solve_budget_costed):
     * the candidates, the choice and `unconstrained` reach target_loss at
     * least cost; `best` is the lowest loss F buys (infeasible without F). */
    int costed;
    double target_loss;
    int quantised; /* the loss includes a quantisation penalty (options' quant, bits below its precision) */
} ls_solve_result;

/* The best N_act for one (E, R) under the budget: the candidate, with
 * feasible = 0 when no N_act fits.  A NULL ladder means continuous. */
int ls_solve_candidate_at(const ls_law *l, const ls_arch_template *t, const ls_solve_budget *b, double E, double R,
                       const double *ladder, size_t nladder, int use_memory, ls_solve_candidate *out);

/* 0 when every quantity of a candidate is a number a double holds (tokens
 * positive and finite, D / N_act, the loss, N_total and N_unroll finite),
 * otherwise an LS_ERR_DATA error naming N_act, the budget flops, E, R and the
 * quantity at fault.  ls_solve_run applies it to every candidate; a caller
 * printing points of its own (IsoFLOP profiles) applies it to each, with the
 * fields it does not have left 0. */
int ls_solve_candidate_check(const ls_solve_candidate *c, double flops, ls_error *err) LS_MUST_CHECK;

int ls_solve_run(const ls_law *l, const ls_arch_template *t, const ls_solve_budget *b, const ls_solve_options *o,
              ls_solve_result *out, ls_error *err) LS_MUST_CHECK;

/* The searched quantities an answer sits at an end of, as bits
 * 1u << LAW_RANGE_*: N_act (and with it D) when an end of its search binds
 * it (bound LS_SOLVE_BOUND_SEARCH: 10^3 active parameters, or one token); R or
 * E when more than one value was searched and the answer has the largest,
 * or the smallest when that is above 1 (nothing lies below 1), unless that
 * value is the end of the law's fitted range (o->ranges), where going
 * further is extrapolating, which the ranges check reports. Such an
 * answer is the best the search saw, not an optimum: a law with an
 * exponent of the wrong sign lands on N_act = 10^3. o may be NULL (N_act
 * alone is checked); 0 for an infeasible candidate. */
unsigned ls_solve_at_edge(const ls_solve_options *o, const ls_solve_candidate *c);
void ls_solve_result_free(ls_solve_result *r);

/* How the choice moves under the law's uncertainty: the problem re-solved
 * under each of n laws (bootstrap draws). */
typedef struct ls_solve_choice_count {
    double R, E;
    size_t count;
    size_t bound[LS_SOLVE_NBOUNDS]; /* of those draws, how many each constraint binds */
} ls_solve_choice_count;

typedef struct ls_solve_uncertainty {
    size_t ndraws;      /* draws with a feasible choice */
    size_t nchoices;
    ls_solve_choice_count *choices; /* distinct (R*, E*), most frequent first */
    /* Which constraint binds each draw's choice (ls_solve_bound), counted over
     * the draws, and per distinct (R*, E*) in choices[k].binds. */
    size_t bound[LS_SOLVE_NBOUNDS];
    double level;
    double n_act[2], tokens[2], loss[2]; /* percentile intervals of the choice; NaN when fewer
                                          * than LS_FIT_MIN_INTERVAL_DRAWS draws had one */
} ls_solve_uncertainty;

int ls_solve_run_uncertainty(const ls_law *draws, size_t n, const ls_arch_template *t, const ls_solve_budget *b,
                          const ls_solve_options *o, double level, int threads, ls_solve_uncertainty *out,
                          ls_error *err) LS_MUST_CHECK;
void ls_solve_uncertainty_free(ls_solve_uncertainty *u);

/* The answer as `loopscale solve --format json` prints it (malloc'd), or NULL
 * with an error: the budget, eps, the chosen, lowest-loss and unconstrained
 * candidates, the uncertainty when u is not NULL, every candidate when
 * with_candidates. */
char *ls_solve_result_to_json(const ls_solve_budget *b, double eps, const ls_solve_result *r, const ls_solve_uncertainty *u,
                              int with_candidates, ls_error *err) LS_MUST_CHECK;

/* The loss at fixed compute F for one (E, R) at each of the N_act values
 * given (for IsoFLOP profiles). */
void ls_solve_isoflop_profile(const ls_law *l, const ls_arch_template *t, double flops, double E, double R,
                           const double *n_act, size_t n, double *loss, double *tokens);

/* The N_act values of an IsoFLOP profile around its minimum n_opt: n of
 * them (n >= 2) from n_opt / span to span * n_opt, evenly in ln N_act (the
 * table's profiles and the plot's curves share it). */
void ls_solve_isoflop_grid(double n_opt, double span, size_t n, double *n_act);

/* IsoFLOP profiles (Hoffmann et al. 2022, "Training Compute-Optimal Large
 * Language Models", approach 2 run on a law): for each budget F, expert
 * count E and loop count R, the N_act that minimises the loss when all of F
 * is spent (D = F / (6 N_unroll) under the template's convention; no memory
 * limit), and with points > 0 the loss at `points` sizes from N* / 30 to
 * 30 N*, evenly in ln N_act (ls_solve_isoflop_grid). */
typedef struct ls_solve_isoflop_curve {
    double flops, E, R;
    ls_solve_candidate minimum;   /* `outside` against the ranges given */
    const double *n_act, *tokens, *loss; /* `points` each, N_act increasing; NULL without points */
    const unsigned *outside;      /* per point: bits 1u << LS_LAW_RANGE_* beyond the ranges */
} ls_solve_isoflop_curve;

typedef struct ls_solve_isoflop_result {
    size_t ncurves;  /* nflops x nE x nR: budgets outermost, then E, then R, in the order given */
    size_t points;
    ls_solve_isoflop_curve *curves;
    unsigned minima_outside; /* the union of the minima's `outside` */
    size_t minima_at_edge;   /* minima at an end of the N_act search (ls_solve_at_edge) */
    double *values;          /* the curves' storage */
    unsigned *outside_bits;
    size_t nflops, nE, nR;   /* the lists the curves were made of */
} ls_solve_isoflop_result;

/* Errors: LS_ERR_DATA "no model fits a budget of F FLOPs" when no N_act
 * leaves a training token, and those of ls_solve_candidate_check for each
 * minimum and each profile point, in order (nothing a double cannot hold is
 * returned); LS_ERR_USAGE for an E below the template's top_k;
 * LS_ERR_INTERNAL.  ranges may be NULL (nothing is outside). */
int ls_solve_isoflop_run(const ls_law *l, const ls_arch_template *t, const double *flops, size_t nflops,
                         const double *E, size_t nE, const double *R, size_t nR, size_t points,
                         const ls_law_ranges *ranges, ls_solve_isoflop_result *out, ls_error *err) LS_MUST_CHECK;
void ls_solve_isoflop_result_free(ls_solve_isoflop_result *r);

/* The compute-optimal frontier of each (E, R) as the budget varies: the
 * minima of ls_solve_isoflop_run (without points) at nflops >= 2 budgets
 * evenly in ln F from flops_lo to flops_hi.  A budget at which no model
 * fits, or whose minimum a double cannot hold, leaves that minimum with
 * feasible = 0 instead of failing: the frontier is drawn where it exists.
 * Errors: LS_ERR_USAGE (an E below top_k, flops_lo not below flops_hi),
 * LS_ERR_INTERNAL. */
int ls_solve_isoflop_frontier(const ls_law *l, const ls_arch_template *t, double flops_lo, double flops_hi,
                              size_t nflops, const double *E, size_t nE, const double *R, size_t nR,
                              const ls_law_ranges *ranges, ls_solve_isoflop_result *out, ls_error *err) LS_MUST_CHECK;

/* ---- what the figures draw (loopscale/plot.h) ------------------------------
 *
 * Bands are the central 95% (the 2.5% and 97.5% quantiles, interpolated
 * linearly between order statistics) of a quantity over bootstrap draws of
 * the law (ls_lawfile_draw), NaN where fewer than two draws give it. */

/* For every (E, R) of ls_solve_run's answer (the candidates' order: E
 * outer), the best loss with no memory limit, and with draws the band of
 * the candidate's own loss (memory limit included, as the answer's). */
typedef struct ls_solve_curves {
    size_t ncandidates;
    double *unconstrained;     /* NaN where no N_act leaves a training token */
    size_t ndraws;             /* the draws the bands are over; 0: no bands */
    double *band_lo, *band_hi; /* NULL without draws */
} ls_solve_curves;

/* The curves of the problem (b, o) under l, the bands over draws[0..ndraws)
 * (none when ndraws is 0), solved on up to `threads` threads (0: one per
 * core; the answer does not depend on it).  Errors: those of ls_solve_run's
 * checks (LS_ERR_USAGE), LS_ERR_INTERNAL. */
int ls_solve_curves_run(const ls_law *l, const ls_law *draws, size_t ndraws, const ls_arch_template *t,
                        const ls_solve_budget *b, const ls_solve_options *o, int threads, ls_solve_curves *out,
                        ls_error *err) LS_MUST_CHECK;
void ls_solve_curves_free(ls_solve_curves *c);

/* The band of every point of every curve of an IsoFLOP result r (made with
 * points): the loss at the curve's N_act and budget under each draw. */
typedef struct ls_solve_isoflop_bands {
    size_t ncurves, points, ndraws;
    double *lo, *hi; /* curve i's point k at i * points + k */
} ls_solve_isoflop_bands;

int ls_solve_isoflop_bands_run(const ls_law *draws, size_t ndraws, const ls_arch_template *t,
                               const ls_solve_isoflop_result *r, ls_solve_isoflop_bands *out,
                               ls_error *err) LS_MUST_CHECK;
void ls_solve_isoflop_bands_free(ls_solve_isoflop_bands *b);

/* The effective-parameter multiplier rho_eff(R) = N_eff / N_act (law.h)
 * for each E, at `points` loop counts evenly from 1 to r_max, with the
 * template's m = N_act / N_total and N_loop / N_act. */
typedef struct ls_solve_rho_eff {
    size_t nE, points;
    double *E;        /* the expert counts, as given */
    double *R;        /* the loop counts */
    double *rho;      /* curve e's point k at e * points + k */
    double *ceiling;  /* per E: the limit as R grows without bound (NaN or infinite when there is none) */
    double *m;        /* per E: N_act / N_total */
    double loop_fraction; /* N_loop / N_act */
} ls_solve_rho_eff;

/* Errors: LS_ERR_USAGE when nE is 0, points < 2 or r_max is not above 1;
 * LS_ERR_INTERNAL. */
int ls_solve_rho_eff_run(const ls_law *l, const ls_arch_template *t, const double *E, size_t nE, double r_max,
                         size_t points, ls_solve_rho_eff *out, ls_error *err) LS_MUST_CHECK;
void ls_solve_rho_eff_free(ls_solve_rho_eff *r);
LS_API_END

#endif
