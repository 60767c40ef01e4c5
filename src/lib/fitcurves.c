/*
 * fitcurves.c — the fitted law along a sweep's series, with its bands over
 * bootstrap draws (fit.h): what the fit figure draws (ls_plot_fit).
 */
#include "loopscale/fit.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "band_internal.h"
#include "loopscale/group.h"

void ls_fit_curves_free(ls_fit_curves *c)
{
    if (!c)
        return;
    free(c->n_act);
    free(c->x);
    free(c->key);
    free(c->fitted);
    free(c->order);
    free(c->series);
    free(c->curve_x);
    free(c->curve_loss);
    free(c->band_lo);
    free(c->band_hi);
    memset(c, 0, sizeof *c);
}

static int same(double a, double b) { return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)); }

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* How many distinct values v[0..n) holds (scratch: n values). */
static size_t count_distinct(const double *v, size_t n, double *scratch)
{
    memcpy(scratch, v, n * sizeof *scratch);
    qsort(scratch, n, sizeof *scratch, cmp_double);
    size_t k = n > 0;
    for (size_t i = 1; i < n; i++)
        k += !same(scratch[i], scratch[i - 1]);
    return k;
}

/* Each of the n values replaced by its tier's label (group.h). */
static int snap(const ls_sweep *s, double *v, size_t *group, ls_error *err)
{
    ls_grouping g;
    if (ls_sweep_group(s, v, s->n, group, &g, err) != 0)
        return err->code;
    for (size_t i = 0; i < s->n; i++)
        v[i] = g.label[group[i]];
    ls_grouping_free(&g);
    return 0;
}

/* A run's sort key: the runs of one series together (N_act, E, N_total,
 * key), then by x.  Sorting keys rather than runs keeps the comparison free
 * of global state. */
typedef struct run_key {
    double k[5];
    size_t run;
} run_key;

static int cmp_runs(const void *a, const void *b)
{
    const run_key *x = a, *y = b;
    for (int i = 0; i < 5; i++) {
        if (i < 4 && same(x->k[i], y->k[i]))
            continue;
        if (x->k[i] != y->k[i])
            return x->k[i] < y->k[i] ? -1 : 1;
    }
    return 0;
}

int ls_fit_curves_run(const ls_sweep *s, const ls_law *l, const ls_law *draws, size_t ndraws, size_t points,
                      ls_fit_curves *out, ls_error *err)
{
    memset(out, 0, sizeof *out);
    size_t n = s->n;
    if (n == 0)
        return ls_error_set(err, LS_ERR_DATA, "no runs to draw");
    if (points < 2)
        return ls_error_set(err, LS_ERR_USAGE, "a curve needs two points or more");
    double *n_total = malloc(n * sizeof *n_total), *tokens = malloc(n * sizeof *tokens),
           *flops = malloc(n * sizeof *flops), *scratch = malloc((n > ndraws ? n : ndraws) * sizeof *scratch);
    size_t *group = malloc(n * sizeof *group);
    run_key *keys = malloc(n * sizeof *keys);
    out->nruns = n;
    out->n_act = malloc(n * sizeof *out->n_act);
    out->x = malloc(n * sizeof *out->x);
    out->key = malloc(n * sizeof *out->key);
    out->fitted = malloc(n * sizeof *out->fitted);
    out->order = malloc(n * sizeof *out->order);
    out->series = malloc(n * sizeof *out->series);
    int status = 0;
    if (!n_total || !tokens || !flops || !scratch || !group || !keys || !out->n_act || !out->x || !out->key ||
        !out->fitted || !out->order || !out->series) {
        status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        goto done;
    }
    double rmin = INFINITY, rmax = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        const ls_sweep_row *r = &s->rows[i];
        ls_law_point x = ls_sweep_row_point(r);
        out->fitted[i] = ls_law_loss(l, &x);
        out->n_act[i] = r->n_act;
        n_total[i] = r->n_total;
        tokens[i] = r->tokens;
        flops[i] = ls_law_training_flops(&x);
        rmin = fmin(rmin, r->R);
        rmax = fmax(rmax, r->R);
    }
    if ((status = snap(s, out->n_act, group, err)) != 0 || (status = snap(s, n_total, group, err)) != 0 ||
        (status = snap(s, tokens, group, err)) != 0 || (status = snap(s, flops, group, err)) != 0)
        goto done;
    out->by_r = rmax > rmin;
    /* Series of equal training FLOPs when that groups the runs into fewer
     * series than equal tokens does. */
    out->key_flops = out->by_r && count_distinct(flops, n, scratch) < count_distinct(tokens, n, scratch);
    for (size_t i = 0; i < n; i++) {
        const ls_sweep_row *r = &s->rows[i];
        n_total[i] = fmax(n_total[i], out->n_act[i]);
        out->x[i] = out->by_r ? r->R : tokens[i];
        out->key[i] = !out->by_r ? r->R : out->key_flops ? flops[i] : tokens[i];
        keys[i] = (run_key){{out->n_act[i], r->E, n_total[i], out->key[i], out->x[i]}, i};
    }
    qsort(keys, n, sizeof *keys, cmp_runs);
    size_t ncurves = 0;
    for (size_t i = 0; i < n; i++) {
        out->order[i] = keys[i].run;
        const run_key *a = &keys[i], *b = i ? &keys[i - 1] : NULL;
        if (b && same(a->k[0], b->k[0]) && same(a->k[1], b->k[1]) && same(a->k[2], b->k[2]) && same(a->k[3], b->k[3])) {
            out->series[out->nseries - 1].count++;
            continue;
        }
        out->series[out->nseries++] = (ls_fit_series){i, 1, a->k[0], a->k[1], a->k[2], a->k[3], SIZE_MAX};
    }
    for (size_t k = 0; k < out->nseries; k++)
        if (out->series[k].count >= 2)
            out->series[k].curve = points * ncurves++;
    size_t values = ncurves * points;
    out->points = points;
    out->curve_x = malloc((values ? values : 1) * sizeof *out->curve_x);
    out->curve_loss = malloc((values ? values : 1) * sizeof *out->curve_loss);
    if (ndraws) {
        out->ndraws = ndraws;
        out->band_lo = malloc((values ? values : 1) * sizeof *out->band_lo);
        out->band_hi = malloc((values ? values : 1) * sizeof *out->band_hi);
    }
    if (!out->curve_x || !out->curve_loss || (ndraws && (!out->band_lo || !out->band_hi))) {
        status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        goto done;
    }
    for (size_t k = 0; k < out->nseries; k++) {
        const ls_fit_series *se = &out->series[k];
        if (se->curve == SIZE_MAX)
            continue;
        size_t first = out->order[se->first], last = out->order[se->first + se->count - 1];
        /* N_loop / N_act from a looped run of the series (N_loop is not
         * snapped: its ratio is the shape's). */
        double loop_ratio = 0.0;
        for (size_t j = 0; j < se->count; j++) {
            const ls_sweep_row *r = &s->rows[out->order[se->first + j]];
            if (r->R > 1 && !isnan(r->n_loop)) {
                loop_ratio = r->n_loop / r->n_act;
                break;
            }
        }
        ls_law_point x = ls_sweep_row_point(&s->rows[first]);
        x.n_act = se->n_act;
        x.n_total = se->n_total;
        x.n_loop = se->n_act * loop_ratio;
        x.D = tokens[first];
        double lo = log(out->x[first]), hi = log(out->x[last]);
        for (size_t p = 0; p < points; p++) {
            double t = exp(lo + (hi - lo) * (double)p / (double)(points - 1));
            if (out->by_r) {
                x.R = t;
                if (out->key_flops)
                    x.D = ls_law_tokens_for_flops(&x, se->key);
            } else {
                x.D = t;
            }
            out->curve_x[se->curve + p] = t;
            out->curve_loss[se->curve + p] = ls_law_loss(l, &x);
            if (!ndraws)
                continue;
            for (size_t d = 0; d < ndraws; d++)
                scratch[d] = ls_law_loss(&draws[d], &x);
            ls_band_central95(scratch, ndraws, &out->band_lo[se->curve + p], &out->band_hi[se->curve + p]);
        }
    }
done:
    free(n_total);
    free(tokens);
    free(flops);
    free(scratch);
    free(group);
    free(keys);
    if (status != 0)
        ls_fit_curves_free(out);
    return status;
}
