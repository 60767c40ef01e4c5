/*
 * loopscale/earlyexit.h — entropy-threshold early exit at loop boundaries
 * (docs/calculators.md; after Sparse Layers are Critical to Scaling Looped
 * Language Models).
 *
 * Input: for every token, the entropy H_r and the negative log-likelihood
 * NLL_r of the output distribution at each loop boundary r = 1..L (the
 * prediction after r loops; r = L is the full model).  For a threshold t a
 * token exits at the first boundary whose entropy is below t, H_r < t, or
 * runs all L loops when there is none; it is charged
 *     cost(r) = prelude + r loop + coda
 * and the sweep reports, for each t, the FLOPs saved against running every
 * loop, 1 - mean cost / (prelude + L loop + coda), and the perplexity
 * exp(mean NLL_exit).
 *
 * Tokens are streamed and never stored.  As t rises, a token's exit moves
 * only at its entropy "records" (the boundaries whose entropy is below all
 * earlier ones), so each token adds at most L events (t, change in loops,
 * change in NLL) to a fixed grid of thresholds, and prefix sums give every
 * threshold at once: O(tokens L) time and memory independent of the number
 * of tokens.  The default grid is every float whose lowest 13 mantissa bits
 * are zero (relative spacing 2^-10, about 0.1%), of which those where an
 * exit moves are reported, so results are exact at the thresholds reported;
 * a grid can also be given.  Either way the sweep starts at threshold 0,
 * where no token exits early.
 *
 * ls_earlyexit_read() returns data the caller frees with ls_earlyexit_free(), and
 * ls_earlyexit_report_new() a report freed with ls_earlyexit_report_free().
 *
 * Thread safety: no global state; an earlyexit_data or report may be read
 * from several threads at once but changed by one thread at a time.
 */
#ifndef LOOPSCALE_EARLYEXIT_H
#define LOOPSCALE_EARLYEXIT_H

#include <stddef.h>

#include "loopscale/error.h"
#include "loopscale/export.h"

LS_API_BEGIN

typedef struct ls_earlyexit ls_earlyexit;

/* An accumulator for loops boundaries per token; thresholds (ascending,
 * distinct, positive) or NULL for the default grid. */
ls_earlyexit *ls_earlyexit_new(size_t loops, const double *thresholds, size_t nthresholds, ls_error *err);
/* One token: entropy[0..loops) and nll[0..loops), finite and >= 0. */
void ls_earlyexit_add(ls_earlyexit *x, const double *entropy, const double *nll);
size_t ls_earlyexit_tokens(const ls_earlyexit *x);
size_t ls_earlyexit_loops(const ls_earlyexit *x);
void ls_earlyexit_free(ls_earlyexit *x);

/* Read a CSV file `token,loop,entropy,nll` (plain, gzip or "-"; loops
 * counted from 1), or two .npy files [tokens, loops] of entropy and NLL, into
 * a new accumulator. */
ls_earlyexit *ls_earlyexit_read(const char *const *paths, size_t npaths, const double *thresholds, size_t nthresholds,
                          ls_error *err);

typedef struct ls_earlyexit_costs {
    double prelude, loop, coda; /* FLOPs or any unit; only ratios matter */
} ls_earlyexit_costs;

typedef struct ls_earlyexit_point {
    double threshold;
    double saved;      /* share of FLOPs saved, 0 .. (L-1) loop / full cost */
    double mean_loops; /* loops run per token */
    double mean_nll;   /* perplexity = exp(mean_nll) */
    int pareto;        /* no other point saves at least as much with a lower
                        * perplexity, or more with the same */
} ls_earlyexit_point;

typedef struct ls_earlyexit_target {
    double saved;      /* asked for */
    double perplexity; /* NaN when no threshold saves that much */
} ls_earlyexit_target;

typedef struct ls_earlyexit_report {
    size_t tokens, loops;
    ls_earlyexit_costs costs;
    double full_cost;           /* prelude + L loop + coda */
    double full_nll;            /* mean NLL when every token runs every loop */
    double loop1_nll;           /* mean NLL when every token stops at boundary 1 */
    double loop1_saved;         /* what that saves: (L - 1) loop / full_cost, the most */
    size_t npoints;
    ls_earlyexit_point *points;    /* by increasing threshold, from 0 (no token exits
                                 * early); saved never decreases */
    size_t ntargets;
    ls_earlyexit_target *targets;
} ls_earlyexit_report;

/* The sweep, its Pareto front, and the perplexity at each saving in
 * targets[0..ntargets), interpolated on the front: between two neighbouring
 * front points the mean NLL is taken linearly in the saving, which is exactly
 * what choosing one of the two thresholds at random per token achieves; below
 * the front's first point, that point (it saves more at no loss).  Costs
 * must be >= 0 with loop > 0. */
ls_earlyexit_report *ls_earlyexit_report_new(const ls_earlyexit *x, const ls_earlyexit_costs *costs, const double *targets,
                                       size_t ntargets, ls_error *err);
void ls_earlyexit_report_free(ls_earlyexit_report *r);

LS_API_END

#endif
