#include "loopscale/route.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "npy_internal.h"
#include "tokcsv_internal.h"

struct ls_route_acc {
    size_t L, D, E, k;
    size_t j; /* the median rank for MMR: ceil(E/2) */
    size_t tokens;
    /* per decision row (loop, layer), summed over tokens */
    double *load;       /* [row][expert], top-k assignments, ties split */
    double *gap;        /* [row]: sum of z_(1) - z_(j) */
    uint64_t *ties;     /* [row] */
    uint64_t *distinct; /* [row]: experts covered through this loop */
    uint64_t *disjoint; /* [row]: top-k set shares nothing with the loop before */
    uint64_t *switched; /* [row]: top-k set differs from the loop before */
    /* one token's scratch */
    size_t *sel; /* [row][k], ascending */
    double *scratch, *topv;
    size_t *topi;
    uint64_t *stamp; /* [layer][expert]: last token that touched it */
};

void ls_route_acc_free(ls_route_acc *a)
{
    if (!a)
        return;
    free(a->load);
    free(a->gap);
    free(a->ties);
    free(a->distinct);
    free(a->disjoint);
    free(a->switched);
    free(a->sel);
    free(a->scratch);
    free(a->topv);
    free(a->topi);
    free(a->stamp);
    free(a);
}

ls_route_acc *ls_route_acc_new(size_t loops, size_t layers, size_t experts, size_t top_k, ls_error *err)
{
    if (loops == 0 || layers == 0 || experts == 0) {
        ls_error_set(err, LS_ERR_DATA, "no logits: %zu loops x %zu layers x %zu experts", loops, layers, experts);
        return NULL;
    }
    if (top_k == 0 || top_k > experts) {
        ls_error_set(err, LS_ERR_USAGE, "top-k %zu with %zu experts: need 1 <= top-k <= experts", top_k, experts);
        return NULL;
    }
    ls_route_acc *a = calloc(1, sizeof *a);
    if (!a) {
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        return NULL;
    }
    size_t rows = loops * layers;
    a->L = loops;
    a->D = layers;
    a->E = experts;
    a->k = top_k;
    a->j = (experts + 1) / 2;
    a->load = calloc(rows * experts, sizeof *a->load);
    a->gap = calloc(rows, sizeof *a->gap);
    a->ties = calloc(rows, sizeof *a->ties);
    a->distinct = calloc(rows, sizeof *a->distinct);
    a->disjoint = calloc(rows, sizeof *a->disjoint);
    a->switched = calloc(rows, sizeof *a->switched);
    a->sel = calloc(rows * top_k, sizeof *a->sel);
    a->scratch = calloc(experts, sizeof *a->scratch);
    a->topv = calloc(top_k, sizeof *a->topv);
    a->topi = calloc(top_k, sizeof *a->topi);
    a->stamp = calloc(layers * experts, sizeof *a->stamp);
    if (!a->load || !a->gap || !a->ties || !a->distinct || !a->disjoint || !a->switched || !a->sel || !a->scratch ||
        !a->topv || !a->topi || !a->stamp) {
        ls_route_acc_free(a);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        return NULL;
    }
    return a;
}

/* The element of ascending rank m (from 0) of x[0..n), reordering x:
 * quickselect.  Random logits make every comparison a coin toss, so the
 * partitions are written without branches (Lomuto's scheme, swapping every
 * element and advancing the boundary by the comparison's value): a second
 * pass splits off the elements equal to the pivot, so that ties, however
 * many, end the search. */
static double select_rank(double *x, size_t n, size_t m)
{
    size_t lo = 0, hi = n;
    for (;;) {
        if (hi - lo == 1)
            return x[lo];
        double a = x[lo], b = x[lo + (hi - lo) / 2], c = x[hi - 1];
        double pivot = a < b ? (b < c ? b : (a < c ? c : a)) : (a < c ? a : (b < c ? c : b));
        size_t lt = lo;
        for (size_t i = lo; i < hi; i++) { /* [lo, lt) < pivot */
            double v = x[i];
            x[i] = x[lt];
            x[lt] = v;
            lt += v < pivot;
        }
        if (m < lt) {
            hi = lt;
            continue;
        }
        size_t eq = lt;
        for (size_t i = lt; i < hi; i++) { /* [lt, eq) == pivot, as nothing here is below it */
            double v = x[i];
            x[i] = x[eq];
            x[eq] = v;
            eq += v == pivot;
        }
        if (m < eq)
            return pivot;
        lo = eq;
    }
}

/* One router decision: the top-k set of z (lower index first among equal
 * logits), the load it adds, and the MMR gap. */
static void decide(ls_route_acc *a, const double *z, size_t row)
{
    size_t E = a->E, k = a->k, n = 0;
    double *topv = a->topv;
    size_t *topi = a->topi;
    for (size_t e = 0; e < E; e++) {
        double v = z[e];
        if (n == k && !(v > topv[k - 1]))
            continue;
        size_t p = n < k ? n++ : k - 1;
        while (p > 0 && topv[p - 1] < v) {
            topv[p] = topv[p - 1];
            topi[p] = topi[p - 1];
            p--;
        }
        topv[p] = v;
        topi[p] = e;
    }
    double kth = topv[k - 1];
    size_t above = 0, equal = 0;
    for (size_t e = 0; e < E; e++) {
        above += z[e] > kth;
        equal += z[e] == kth;
    }
    double *load = a->load + row * E;
    if (above + equal == k) {
        for (size_t i = 0; i < k; i++)
            load[topi[i]] += 1;
    } else {
        /* The k - above remaining places go to one of `equal` tied experts
         * each: in expectation over a random tie-break, (k - above) / equal. */
        a->ties[row]++;
        double share = (double)(k - above) / (double)equal;
        for (size_t e = 0; e < E; e++)
            load[e] += z[e] > kth ? 1.0 : z[e] == kth ? share : 0.0;
    }
    double mid;
    if (a->j <= k) {
        mid = topv[a->j - 1];
    } else {
        memcpy(a->scratch, z, E * sizeof *z);
        mid = select_rank(a->scratch, E, E - a->j);
    }
    a->gap[row] += topv[0] - mid;
    size_t *sel = a->sel + row * k;
    for (size_t i = 0; i < k; i++) { /* insertion sort: k is small */
        size_t v = topi[i], p = i;
        while (p > 0 && sel[p - 1] > v) {
            sel[p] = sel[p - 1];
            p--;
        }
        sel[p] = v;
    }
}

static size_t common(const size_t *x, const size_t *y, size_t k)
{
    size_t i = 0, j = 0, n = 0;
    while (i < k && j < k) {
        if (x[i] < y[j])
            i++;
        else if (x[i] > y[j])
            j++;
        else {
            n++;
            i++;
            j++;
        }
    }
    return n;
}

void ls_route_acc_add(ls_route_acc *a, const double *logits)
{
    size_t L = a->L, D = a->D, E = a->E, k = a->k;
    for (size_t row = 0; row < L * D; row++)
        decide(a, logits + row * E, row);
    uint64_t id = ++a->tokens;
    for (size_t d = 0; d < D; d++) {
        uint64_t covered = 0;
        for (size_t l = 0; l < L; l++) {
            size_t row = l * D + d;
            const size_t *sel = a->sel + row * k;
            for (size_t i = 0; i < k; i++) {
                uint64_t *st = &a->stamp[d * E + sel[i]];
                if (*st != id) {
                    *st = id;
                    covered++;
                }
            }
            a->distinct[row] += covered;
            if (l > 0) {
                size_t shared = common(a->sel + (row - D) * k, sel, k);
                a->disjoint[row] += shared == 0;
                a->switched[row] += shared < k;
            }
        }
    }
}

/* (1/n) / sum (x_i / T)^2 = T^2 / (n sum x_i^2), over x[0..n) at stride 1. */
static double balance(const double *x, size_t n)
{
    double total = 0, squares = 0;
    for (size_t i = 0; i < n; i++) {
        total += x[i];
        squares += x[i] * x[i];
    }
    return total * total / ((double)n * squares);
}

ls_route_report *ls_route_acc_report(const ls_route_acc *a, ls_error *err)
{
    size_t L = a->L, D = a->D, E = a->E;
    if (a->tokens == 0) {
        ls_error_set(err, LS_ERR_DATA, "no tokens");
        return NULL;
    }
    ls_route_report *r = calloc(1, sizeof *r);
    double *pooled = calloc(D * E, sizeof *pooled);
    if (r) {
        r->per_loop = calloc(L * D, sizeof *r->per_loop);
        r->per_layer = calloc(D, sizeof *r->per_layer);
    }
    if (!r || !pooled || !r->per_loop || !r->per_layer) {
        ls_route_report_free(r);
        free(pooled);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        return NULL;
    }
    r->tokens = a->tokens;
    r->loops = L;
    r->layers = D;
    r->experts = E;
    r->top_k = a->k;
    double N = (double)a->tokens;
    double gap_all = 0, disjoint_all = 0, switched_all = 0, distinct_all = 0;
    uint64_t ties_all = 0;
    for (size_t d = 0; d < D; d++) {
        double gap = 0, disjoint = 0, switched = 0;
        uint64_t ties = 0;
        for (size_t l = 0; l < L; l++) {
            size_t row = l * D + d;
            ls_route_metrics *m = &r->per_loop[d * L + l];
            m->b2 = balance(a->load + row * E, E);
            m->mmr = exp(a->gap[row] / N);
            m->distinct = (double)a->distinct[row] / N;
            m->disjoint = l > 0 ? (double)a->disjoint[row] / N : NAN;
            m->switched = l > 0 ? (double)a->switched[row] / N : NAN;
            m->decisions = a->tokens;
            m->ties = a->ties[row];
            for (size_t e = 0; e < E; e++)
                pooled[d * E + e] += a->load[row * E + e];
            gap += a->gap[row];
            disjoint += (double)a->disjoint[row];
            switched += (double)a->switched[row];
            ties += a->ties[row];
        }
        ls_route_metrics *m = &r->per_layer[d];
        m->b2 = balance(pooled + d * E, E);
        m->mmr = exp(gap / (N * (double)L));
        m->distinct = (double)a->distinct[(L - 1) * D + d] / N;
        m->disjoint = L > 1 ? disjoint / (N * (double)(L - 1)) : NAN;
        m->switched = L > 1 ? switched / (N * (double)(L - 1)) : NAN;
        m->decisions = a->tokens * L;
        m->ties = ties;
        gap_all += gap;
        disjoint_all += disjoint;
        switched_all += switched;
        distinct_all += m->distinct;
        ties_all += ties;
    }
    r->all.b2 = balance(pooled, D * E);
    r->all.mmr = exp(gap_all / (N * (double)(L * D)));
    r->all.distinct = distinct_all;
    r->all.disjoint = L > 1 ? disjoint_all / (N * (double)((L - 1) * D)) : NAN;
    r->all.switched = L > 1 ? switched_all / (N * (double)((L - 1) * D)) : NAN;
    r->all.decisions = a->tokens * L * D;
    r->all.ties = ties_all;
    free(pooled);
    /* MMR = exp(mean logit gap): a mean gap past ln(DBL_MAX) = 709.78 has
     * no MMR in double precision; say where rather than print inf. */
    double N_all = N * (double)(L * D);
    for (size_t d = 0; d <= D; d++) {
        for (size_t l = 0; l <= L; l++) {
            /* l < L, d < D: one loop of one layer; l == L: the layer's loops
             * pooled; d == D: every layer (once, at l == L). */
            if (d == D && l < L)
                continue;
            const ls_route_metrics *m = d == D ? &r->all : l == L ? &r->per_layer[d] : &r->per_loop[d * L + l];
            if (isfinite(m->mmr))
                continue;
            double gap = 0;
            for (size_t ll = 0; ll < L; ll++)
                for (size_t dd = 0; dd < D; dd++)
                    if ((d == D || dd == d) && (l == L || ll == l))
                        gap += a->gap[ll * D + dd];
            gap /= d == D ? N_all : l == L ? N * (double)L : N;
            char where[64];
            if (d == D)
                snprintf(where, sizeof where, "every layer");
            else if (l == L)
                snprintf(where, sizeof where, "layer %zu", d + 1);
            else
                snprintf(where, sizeof where, "layer %zu, loop %zu", d + 1, l + 1);
            ls_error_set(err, LS_ERR_DATA,
                         "%s: the mean gap between the largest and the median logit is %.6g, so MMR = e^%.6g is "
                         "beyond double precision (are these logits?)",
                         where, gap, gap);
            ls_route_report_free(r);
            return NULL;
        }
    }
    return r;
}

void ls_route_report_free(ls_route_report *r)
{
    if (!r)
        return;
    free(r->per_loop);
    free(r->per_layer);
    free(r);
}

/* ---- files ------------------------------------------------------------------ */

static const char *const DTYPE_NAMES[] = {"float16", "float32", "float64"};

static ls_route_report *read_npy(ls_input *input, size_t top_k, ls_error *err)
{
    npy_reader *in = ls_npy_open_input(input, err);
    if (!in)
        return NULL;
    const char *path = ls_npy_name(in);
    const npy_header *h = ls_npy_header_of(in);
    char shape[NPY_MAX_DIMS * 22 + 4];
    ls_route_acc *acc = NULL;
    double *logits = NULL;
    ls_route_report *report = NULL;
    if (h->ndim != 4 || h->count == 0) {
        ls_error_set(err, LS_ERR_DATA, "%s: shape %s is not [tokens, loops, layers, experts]%s", path,
                     ls_npy_shape_text(h, shape, sizeof shape), h->ndim == 4 ? " with every extent at least 1" : "");
        goto done;
    }
    size_t N = h->shape[0], L = h->shape[1], D = h->shape[2], E = h->shape[3];
    if (top_k > E) {
        ls_error_set(err, LS_ERR_USAGE, "top-k %zu is more than the %zu experts of %s", top_k, E, path);
        goto done;
    }
    acc = ls_route_acc_new(L, D, E, top_k, err);
    logits = acc ? malloc(L * D * E * sizeof *logits) : NULL;
    if (acc && !logits)
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    if (!logits)
        goto done;
    for (size_t t = 0; t < N; t++) {
        if (ls_npy_read(in, logits, L * D * E, err) != 0)
            goto done;
        for (size_t i = 0; i < L * D * E; i++) {
            if (isfinite(logits[i]))
                continue;
            size_t l = i / (D * E), d = i / E % D, e = i % E;
            ls_error_set(err, LS_ERR_DATA, "%s: logit [%zu, %zu, %zu, %zu] (token %zu, loop %zu, layer %zu, expert %zu) is %s",
                         path, t, l, d, e, t, l + 1, d + 1, e, isnan(logits[i]) ? "NaN" : "infinite");
            goto done;
        }
        ls_route_acc_add(acc, logits);
    }
    if (ls_npy_expect_end(in, err) != 0)
        goto done;
    report = ls_route_acc_report(acc, err);
    if (report)
        snprintf(report->source, sizeof report->source, "%s .npy", DTYPE_NAMES[h->dtype]);
done:
    free(logits);
    ls_route_acc_free(acc);
    ls_npy_close(in);
    return report;
}

static ls_route_report *read_csv(ls_input *input, size_t top_k, ls_error *err)
{
    static const char *const INDEX[] = {"loop", "layer"};
    tokcsv_layout layout = {INDEX, 2, NULL, 0, "z", 0};
    tokcsv *in = ls_tokcsv_open_input(input, &layout, err);
    if (!in)
        return NULL;
    size_t E = ls_tokcsv_nvalues(in);
    ls_route_acc *acc = NULL;
    ls_route_report *report = NULL;
    if (top_k > E) {
        ls_error_set(err, LS_ERR_USAGE, "top-k %zu is more than the %zu experts of %s", top_k, E, ls_tokcsv_name(in));
        goto done;
    }
    long token;
    const double *logits;
    int status;
    while ((status = ls_tokcsv_next(in, &token, &logits, err)) == 1) {
        if (!acc) {
            const size_t *dims = ls_tokcsv_dims(in);
            acc = ls_route_acc_new(dims[0], dims[1], E, top_k, err);
            if (!acc)
                goto done;
        }
        ls_route_acc_add(acc, logits);
    }
    if (status == 0) {
        report = ls_route_acc_report(acc, err);
        if (report)
            snprintf(report->source, sizeof report->source, "CSV");
    }
done:
    ls_route_acc_free(acc);
    ls_tokcsv_close(in);
    return report;
}

ls_route_report *ls_route_read(const char *path, size_t top_k, ls_error *err)
{
    /* The format is told from the stream's first bytes, read once (a FIFO
     * cannot be opened twice); CSV may be gzip-compressed, .npy not (the
     * CSV reader recognises a compressed .npy and says so). */
    ls_input in;
    if (ls_input_open(path, &in, err) != 0)
        return NULL;
    return ls_input_is_npy(&in) ? read_npy(&in, top_k, err) : read_csv(&in, top_k, err);
}
