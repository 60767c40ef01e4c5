#include "loopscale/earlyexit.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy_internal.h"
#include "tokcsv_internal.h"

/* The default grid: a threshold at every float whose lowest GRID_SHIFT
 * mantissa bits are zero.  An entropy falls in the bin of its float bits
 * shifted right, which is exact because a non-negative float's bits order
 * like the float does. */
#define GRID_SHIFT 13
#define GRID_BINS (((uint32_t)0x7f7fffff >> GRID_SHIFT) + 1)

struct ls_earlyexit {
    size_t L, tokens;
    double *thresholds; /* given grid, or NULL for the default */
    size_t nbins;
    int64_t *dloops;  /* per bin: change in loops run, summed over tokens */
    double *dnll;     /* per bin: change in NLL */
    uint64_t *events; /* per bin: how many changes */
    double base_nll;  /* sum of NLL_L: every token runs every loop */
    double first_nll; /* sum of NLL_1: every token stops at boundary 1 */
    size_t *records;  /* one token's scratch */
};

void ls_earlyexit_free(ls_earlyexit *x)
{
    if (!x)
        return;
    free(x->thresholds);
    free(x->dloops);
    free(x->dnll);
    free(x->events);
    free(x->records);
    free(x);
}

ls_earlyexit *ls_earlyexit_new(size_t loops, const double *thresholds, size_t nthresholds, ls_error *err)
{
    if (loops == 0) {
        ls_error_set(err, LS_ERR_DATA, "no loop boundaries");
        return NULL;
    }
    for (size_t i = 0; thresholds && i < nthresholds; i++)
        if (!(thresholds[i] > 0 && isfinite(thresholds[i])) || (i > 0 && !(thresholds[i] > thresholds[i - 1]))) {
            ls_error_set(err, LS_ERR_USAGE, "thresholds must be positive, finite and increasing");
            return NULL;
        }
    ls_earlyexit *x = calloc(1, sizeof *x);
    if (!x) {
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        return NULL;
    }
    x->L = loops;
    x->nbins = thresholds ? nthresholds : GRID_BINS;
    int ok = 1;
    if (thresholds) {
        x->thresholds = malloc(nthresholds * sizeof *x->thresholds);
        ok = x->thresholds != NULL;
        if (ok)
            memcpy(x->thresholds, thresholds, nthresholds * sizeof *thresholds);
    }
    x->dloops = calloc(x->nbins + 1, sizeof *x->dloops);
    x->dnll = calloc(x->nbins + 1, sizeof *x->dnll);
    x->events = calloc(x->nbins + 1, sizeof *x->events);
    x->records = malloc(loops * sizeof *x->records);
    if (!ok || !x->dloops || !x->dnll || !x->events || !x->records) {
        ls_earlyexit_free(x);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        return NULL;
    }
    return x;
}

size_t ls_earlyexit_tokens(const ls_earlyexit *x) { return x->tokens; }
size_t ls_earlyexit_loops(const ls_earlyexit *x) { return x->L; }

/* The first bin whose threshold exceeds v (nbins when none does). */
static size_t bin_of(const ls_earlyexit *x, double v)
{
    if (x->thresholds) {
        size_t lo = 0, hi = x->nbins;
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (x->thresholds[mid] > v)
                hi = mid;
            else
                lo = mid + 1;
        }
        return lo;
    }
    /* -0 passes the check for negative entropies, but its sign bit would
     * make a bin index past the grid: it is 0. */
    if (v == 0.0)
        v = 0.0;
    /* Round v down to a float, so that the bin's upper edge is above it. */
    float f = v > FLT_MAX ? FLT_MAX : (float)v;
    if ((double)f > v)
        f = nextafterf(f, 0.0f);
    uint32_t bits;
    memcpy(&bits, &f, sizeof bits);
    return bits >> GRID_SHIFT;
}

static double bin_threshold(const ls_earlyexit *x, size_t b)
{
    if (x->thresholds)
        return x->thresholds[b];
    uint32_t bits = (uint32_t)(b + 1) << GRID_SHIFT;
    float f;
    memcpy(&f, &bits, sizeof f);
    return isinf(f) ? DBL_MAX : (double)f;
}

void ls_earlyexit_add(ls_earlyexit *x, const double *entropy, const double *nll)
{
    size_t L = x->L, n = 0;
    /* Records: boundary 1, then each boundary whose entropy is below every
     * earlier one.  For a threshold t the exit is the first record with
     * entropy < t; records further on have lower entropy, so as t falls
     * past each record's entropy the exit moves to the next record, and
     * below the last one the token runs all L loops. */
    x->records[n++] = 0;
    for (size_t r = 1; r < L; r++)
        if (entropy[r] < entropy[x->records[n - 1]])
            x->records[n++] = r;
    size_t exit = L - 1;
    while (n-- > 0) {
        size_t r = x->records[n];
        if (r == exit)
            continue;
        size_t b = bin_of(x, entropy[r]);
        x->dloops[b] += (int64_t)r - (int64_t)exit;
        x->dnll[b] += nll[r] - nll[exit];
        x->events[b]++;
        exit = r;
    }
    x->base_nll += nll[L - 1];
    x->first_nll += nll[0];
    x->tokens++;
}

/* ---- the report ------------------------------------------------------------- */

void ls_earlyexit_report_free(ls_earlyexit_report *r)
{
    if (!r)
        return;
    free(r->points);
    free(r->targets);
    free(r);
}

static void mark_pareto(ls_earlyexit_point *p, size_t n)
{
    /* saved never decreases along the sweep: walk it from the end, one group
     * of equal savings at a time, keeping the lowest NLL of larger savings. */
    double best_after = INFINITY;
    size_t end = n;
    while (end > 0) {
        size_t start = end - 1;
        while (start > 0 && p[start - 1].saved == p[end - 1].saved)
            start--;
        double group_best = INFINITY;
        for (size_t i = start; i < end; i++)
            if (p[i].mean_nll < group_best)
                group_best = p[i].mean_nll;
        for (size_t i = start; i < end; i++)
            p[i].pareto = p[i].mean_nll == group_best && group_best < best_after;
        if (group_best < best_after)
            best_after = group_best;
        end = start;
    }
}

static double perplexity_at(const ls_earlyexit_point *p, size_t n, double saved)
{
    const ls_earlyexit_point *before = NULL;
    for (size_t i = 0; i < n; i++) {
        if (!p[i].pareto)
            continue;
        if (p[i].saved >= saved) {
            if (!before || p[i].saved == saved)
                return exp(p[i].mean_nll);
            double w = (saved - before->saved) / (p[i].saved - before->saved);
            return exp(before->mean_nll + w * (p[i].mean_nll - before->mean_nll));
        }
        before = &p[i];
    }
    return NAN;
}

ls_earlyexit_report *ls_earlyexit_report_new(const ls_earlyexit *x, const ls_earlyexit_costs *costs, const double *targets,
                                       size_t ntargets, ls_error *err)
{
    if (!(costs->prelude >= 0 && costs->coda >= 0 && costs->loop > 0 && isfinite(costs->prelude) &&
          isfinite(costs->coda) && isfinite(costs->loop))) {
        ls_error_set(err, LS_ERR_USAGE, "costs: prelude and coda must be >= 0 and the loop > 0");
        return NULL;
    }
    if (x->tokens == 0) {
        ls_error_set(err, LS_ERR_DATA, "no tokens");
        return NULL;
    }
    ls_earlyexit_report *r = calloc(1, sizeof *r);
    size_t cap = 1 + (x->thresholds ? x->nbins : 0);
    for (size_t b = 0; !x->thresholds && b < x->nbins; b++)
        cap += x->events[b] > 0;
    if (r) {
        r->points = malloc(cap * sizeof *r->points);
        r->targets = malloc((ntargets ? ntargets : 1) * sizeof *r->targets);
    }
    if (!r || !r->points || !r->targets) {
        ls_earlyexit_report_free(r);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        return NULL;
    }
    r->tokens = x->tokens;
    r->loops = x->L;
    r->costs = *costs;
    r->full_cost = costs->prelude + (double)x->L * costs->loop + costs->coda;
    if (!isfinite(r->full_cost)) {
        ls_error_set(err, LS_ERR_USAGE,
                     "costs: prelude %g + %zu loops of %g + coda %g is beyond double precision (give them in "
                     "larger units)",
                     costs->prelude, x->L, costs->loop, costs->coda);
        ls_earlyexit_report_free(r);
        return NULL;
    }
    double N = (double)x->tokens;
    r->full_nll = x->base_nll / N;
    r->loop1_nll = x->first_nll / N;
    r->loop1_saved = costs->loop * (double)(x->L - 1) / r->full_cost;
    int64_t loops_run = (int64_t)(x->L * x->tokens);
    double nll = x->base_nll;
    size_t n = 0;
    /* No entropy is below 0: every token runs every loop. */
    r->points[n++] = (ls_earlyexit_point){0.0, 0.0, (double)x->L, r->full_nll, 0};
    for (size_t b = 0; b < x->nbins; b++) {
        loops_run += x->dloops[b];
        nll += x->dnll[b];
        if (x->thresholds || x->events[b] > 0) {
            double mean_loops = (double)loops_run / N;
            r->points[n++] = (ls_earlyexit_point){bin_threshold(x, b),
                                               costs->loop * ((double)x->L - mean_loops) / r->full_cost, mean_loops,
                                               nll / N, 0};
        }
    }
    r->npoints = n;
    /* Perplexity is exp(mean NLL): past ln(DBL_MAX) it is not a number
     * double precision holds, and an NLL that large is not in nats per
     * token of a language model. */
    double worst = r->full_nll > r->loop1_nll ? r->full_nll : r->loop1_nll;
    for (size_t i = 0; i < n; i++)
        worst = r->points[i].mean_nll > worst ? r->points[i].mean_nll : worst;
    if (!(worst <= log(DBL_MAX))) {
        ls_error_set(err, LS_ERR_DATA,
                     "the NLL averages %g nats per token, so the perplexity e^%g is beyond double precision (is the "
                     "NLL in nats per token?)",
                     worst, worst);
        ls_earlyexit_report_free(r);
        return NULL;
    }
    mark_pareto(r->points, n);
    r->ntargets = ntargets;
    for (size_t i = 0; i < ntargets; i++) {
        r->targets[i].saved = targets[i];
        r->targets[i].perplexity = perplexity_at(r->points, n, targets[i]);
    }
    return r;
}

/* ---- files ------------------------------------------------------------------ */

static ls_earlyexit *read_csv(ls_input *input, const double *thresholds, size_t nthresholds, ls_error *err)
{
    static const char *const INDEX[] = {"loop"};
    static const char *const VALUES[] = {"entropy", "nll"};
    tokcsv_layout layout = {INDEX, 1, VALUES, 2, NULL, 1};
    tokcsv *in = ls_tokcsv_open_input(input, &layout, err);
    if (!in)
        return NULL;
    ls_earlyexit *x = NULL;
    double *h = NULL;
    long token;
    const double *block;
    int status;
    while ((status = ls_tokcsv_next(in, &token, &block, err)) == 1) {
        size_t L = ls_tokcsv_dims(in)[0];
        if (!x) {
            x = ls_earlyexit_new(L, thresholds, nthresholds, err);
            h = x ? malloc(2 * L * sizeof *h) : NULL;
            if (x && !h)
                status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
            if (!h)
                break;
        }
        for (size_t l = 0; l < L; l++) {
            h[l] = block[2 * l];
            h[L + l] = block[2 * l + 1];
        }
        ls_earlyexit_add(x, h, h + L);
    }
    free(h);
    ls_tokcsv_close(in);
    if (status != 0) {
        ls_earlyexit_free(x);
        return NULL;
    }
    return x;
}

static int check_values(const char *name, const char *what, const double *v, size_t L, size_t token, ls_error *err)
{
    for (size_t l = 0; l < L; l++) {
        if (isfinite(v[l]) && v[l] >= 0)
            continue;
        char reason[64];
        if (isnan(v[l]))
            snprintf(reason, sizeof reason, "is NaN");
        else if (!isfinite(v[l]))
            snprintf(reason, sizeof reason, "is infinite");
        else
            snprintf(reason, sizeof reason, "is negative (%g)", v[l]);
        return ls_error_set(err, LS_ERR_DATA, "%s: %s [%zu, %zu] (token %zu, loop %zu) %s", name, what, token, l, token,
                            l + 1, reason);
    }
    return 0;
}

static ls_earlyexit *read_npy(const char *const *paths, const double *thresholds, size_t nthresholds, ls_error *err)
{
    static const char *const WHAT[2] = {"entropy", "NLL"};
    npy_reader *in[2] = {NULL, NULL};
    ls_earlyexit *x = NULL;
    double *v = NULL;
    int status = 0;
    char shape[2][NPY_MAX_DIMS * 22 + 4];
    for (int f = 0; f < 2 && status == 0; f++) {
        in[f] = ls_npy_open(paths[f], err);
        if (!in[f]) {
            status = err->code;
            break;
        }
        const npy_header *h = ls_npy_header_of(in[f]);
        if (h->ndim != 2 || h->count == 0)
            status = ls_error_set(err, LS_ERR_DATA, "%s: shape %s is not [tokens, loops]%s", paths[f],
                                  ls_npy_shape_text(h, shape[f], sizeof shape[f]),
                                  h->ndim == 2 ? " with both extents at least 1" : "");
    }
    if (status == 0) {
        const npy_header *a = ls_npy_header_of(in[0]), *b = ls_npy_header_of(in[1]);
        if (a->shape[0] != b->shape[0] || a->shape[1] != b->shape[1])
            status = ls_error_set(err, LS_ERR_DATA, "%s: shape %s differs from the shape %s of %s", paths[1],
                                  ls_npy_shape_text(b, shape[1], sizeof shape[1]),
                                  ls_npy_shape_text(a, shape[0], sizeof shape[0]), paths[0]);
    }
    size_t N = 0, L = 0;
    if (status == 0) {
        N = ls_npy_header_of(in[0])->shape[0];
        L = ls_npy_header_of(in[0])->shape[1];
        x = ls_earlyexit_new(L, thresholds, nthresholds, err);
        v = x ? malloc(2 * L * sizeof *v) : NULL;
        if (!x)
            status = err->code;
        else if (!v)
            status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    }
    for (size_t t = 0; t < N && status == 0; t++) {
        for (int f = 0; f < 2 && status == 0; f++) {
            status = ls_npy_read(in[f], v + (size_t)f * L, L, err);
            if (status == 0)
                status = check_values(paths[f], WHAT[f], v + (size_t)f * L, L, t, err);
        }
        if (status == 0)
            ls_earlyexit_add(x, v, v + L);
    }
    for (int f = 0; f < 2 && status == 0; f++)
        status = ls_npy_expect_end(in[f], err);
    free(v);
    ls_npy_close(in[0]);
    ls_npy_close(in[1]);
    if (status != 0) {
        ls_earlyexit_free(x);
        return NULL;
    }
    return x;
}

ls_earlyexit *ls_earlyexit_read(const char *const *paths, size_t npaths, const double *thresholds, size_t nthresholds,
                          ls_error *err)
{
    if (npaths == 2)
        return read_npy(paths, thresholds, nthresholds, err);
    if (npaths != 1) {
        ls_error_set(err, LS_ERR_USAGE, "give one CSV file, or two .npy files (entropy, then NLL)");
        return NULL;
    }
    /* Told from the stream's first bytes, read once (see route.c). */
    ls_input in;
    if (ls_input_open(paths[0], &in, err) != 0)
        return NULL;
    if (ls_input_is_npy(&in)) {
        ls_error_set(err, LS_ERR_USAGE, "%s is a .npy array: give two, the entropy and then the NLL", in.name);
        ls_input_close(&in);
        return NULL;
    }
    return read_csv(&in, thresholds, nthresholds, err);
}
