/*
 * isofit.c — compute-optimal exponents from IsoFLOP minima (isofit.h).
 *
 * Hoffmann et al. (2022), "Training Compute-Optimal Large Language Models":
 * approach 1 takes, at each budget, the run of lowest loss; approach 2 fits
 * a parabola to the loss against ln N at each budget and takes its vertex,
 *   L(x) = c0 + c1 x + c2 x^2, x = ln N,  x* = -c1 / (2 c2)  (c2 > 0);
 * both then fit N_opt = G F^a by least squares in logs.  D_opt = F / (6 N_opt)
 * follows (ls_law_tokens_for_flops), so D_opt = F^(1-a) / (6 G).
 */
#include "loopscale/isofit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "loopscale/group.h"
#include "loopscale/law.h"

void ls_isofit_default_options(isofit_options *o)
{
    memset(o, 0, sizeof *o);
    o->method = ISOFIT_PARABOLA;
    o->group_tol = -1.0;
    o->keep_factor = 0.0;
    o->min_runs = 3;
    o->bootstrap = 0;
    o->seed = 1;
    o->level = 0.95;
}

const char *ls_isofit_status_name(isofit_status s)
{
    switch (s) {
    case ISOFIT_USED: return "used";
    case ISOFIT_TOO_FEW_RUNS: return "too few runs";
    case ISOFIT_NOT_CONVEX: return "not convex";
    case ISOFIT_AT_EDGE: return "optimum at the edge";
    }
    return "?";
}

void ls_isofit_result_free(isofit_result *r)
{
    if (!r)
        return;
    free(r->budgets);
    r->budgets = NULL;
    r->nbudgets = 0;
}

/* One budget's runs: ln N and the loss, m of them. */
typedef struct optimum {
    isofit_status status;
    double x, loss; /* ln N_opt and the loss there */
    size_t used;
} optimum;

/* The least-squares parabola through (x_i, y_i), i in idx[0..m), as the
 * vertex; x is centred on its mean so that the 3 x 3 normal equations stay
 * well conditioned (Cramer's rule on them). */
static optimum parabola(const double *x, const double *y, const size_t *idx, size_t m)
{
    optimum o = {ISOFIT_TOO_FEW_RUNS, NAN, NAN, m};
    double xmin = INFINITY, xmax = -INFINITY, mean = 0;
    for (size_t k = 0; k < m; k++) {
        mean += x[idx[k]];
        xmin = fmin(xmin, x[idx[k]]);
        xmax = fmax(xmax, x[idx[k]]);
    }
    mean /= (double)m;
    /* distinct sizes: a parabola needs three */
    size_t distinct = 0;
    double seen[3];
    for (size_t k = 0; k < m && distinct < 3; k++) {
        int is_new = 1;
        for (size_t j = 0; j < distinct; j++)
            is_new &= x[idx[k]] != seen[j];
        if (is_new)
            seen[distinct++] = x[idx[k]];
    }
    if (distinct < 3)
        return o;
    double s[5] = {0}, t[3] = {0};
    for (size_t k = 0; k < m; k++) {
        double u = x[idx[k]] - mean, p = 1;
        for (int j = 0; j < 5; j++, p *= u)
            s[j] += p;
        t[0] += y[idx[k]];
        t[1] += u * y[idx[k]];
        t[2] += u * u * y[idx[k]];
    }
    /* [s0 s1 s2; s1 s2 s3; s2 s3 s4] c = t */
    double det = s[0] * (s[2] * s[4] - s[3] * s[3]) - s[1] * (s[1] * s[4] - s[3] * s[2]) +
                 s[2] * (s[1] * s[3] - s[2] * s[2]);
    double d0 = t[0] * (s[2] * s[4] - s[3] * s[3]) - s[1] * (t[1] * s[4] - s[3] * t[2]) +
                s[2] * (t[1] * s[3] - s[2] * t[2]);
    double d1 = s[0] * (t[1] * s[4] - s[3] * t[2]) - t[0] * (s[1] * s[4] - s[3] * s[2]) +
                s[2] * (s[1] * t[2] - t[1] * s[2]);
    double d2 = s[0] * (s[2] * t[2] - t[1] * s[3]) - s[1] * (s[1] * t[2] - t[1] * s[2]) +
                t[0] * (s[1] * s[3] - s[2] * s[2]);
    if (!(fabs(det) > 0)) {
        o.status = ISOFIT_TOO_FEW_RUNS;
        return o;
    }
    double c0 = d0 / det, c1 = d1 / det, c2 = d2 / det;
    if (!(c2 > 0)) {
        o.status = ISOFIT_NOT_CONVEX;
        return o;
    }
    double u = -c1 / (2 * c2);
    o.x = mean + u;
    o.loss = c0 + c1 * u + c2 * u * u;
    o.status = o.x > xmin && o.x < xmax ? ISOFIT_USED : ISOFIT_AT_EDGE;
    return o;
}

/* The lowest-loss run (the first on ties); at the edge when it has the
 * smallest or largest size of the budget. */
static optimum lowest(const double *x, const double *y, const size_t *idx, size_t m)
{
    optimum o = {ISOFIT_TOO_FEW_RUNS, NAN, NAN, m};
    if (m == 0)
        return o;
    size_t best = idx[0];
    double xmin = INFINITY, xmax = -INFINITY;
    for (size_t k = 0; k < m; k++) {
        if (y[idx[k]] < y[best])
            best = idx[k];
        xmin = fmin(xmin, x[idx[k]]);
        xmax = fmax(xmax, x[idx[k]]);
    }
    o.x = x[best];
    o.loss = y[best];
    o.status = o.x > xmin && o.x < xmax ? ISOFIT_USED : ISOFIT_AT_EDGE;
    return o;
}

/* The optimum of one budget from the runs idx[0..m) (scratch: m more). */
static optimum budget_optimum(const isofit_options *o, const double *x, const double *y, const size_t *idx, size_t m,
                              size_t *scratch)
{
    optimum none = {ISOFIT_TOO_FEW_RUNS, NAN, NAN, m};
    if (m < o->min_runs)
        return none;
    optimum first = o->method == ISOFIT_PARABOLA ? parabola(x, y, idx, m) : lowest(x, y, idx, m);
    if (!(o->keep_factor > 1) || !isfinite(first.x))
        return first;
    /* Porian et al.'s filter: the runs within a factor k of this optimum. */
    double half = log(o->keep_factor);
    size_t kept = 0;
    for (size_t k = 0; k < m; k++)
        if (fabs(x[idx[k]] - first.x) <= half)
            scratch[kept++] = idx[k];
    if (kept < o->min_runs) {
        none.used = kept;
        return none;
    }
    return o->method == ISOFIT_PARABOLA ? parabola(x, y, scratch, kept) : lowest(x, y, scratch, kept);
}

/* Least squares ln N_opt = ln G + a ln F over the usable budgets. */
/* Why no power law: how many budgets each reason left out, whether --keep dropped
 * runs, and, when most budgets hold a single run (FLOPs spread continuously, as in
 * points read off a figure), that --group-tol groups them. */
static void explain_failure(const isofit_result *out, size_t nb, const isofit_options *o, char *buf, size_t size)
{
    size_t count[4] = {0, 0, 0, 0}, single = 0, kept_fewer = 0;
    for (size_t b = 0; b < nb; b++) {
        const isofit_budget *bu = &out->budgets[b];
        count[bu->status < 4 ? bu->status : 0]++;
        single += bu->runs == 1;
        kept_fewer += bu->used < bu->runs && o->keep_factor > 1;
    }
    size_t len = 0;
    buf[0] = '\0';
    for (int k = ISOFIT_TOO_FEW_RUNS; k <= ISOFIT_AT_EDGE && len < size; k++)
        if (count[k])
            len += (size_t)snprintf(buf + len, size - len, "%s%zu %s", len ? ", " : "; left out: ", count[k],
                                    ls_isofit_status_name((isofit_status)k));
    if (kept_fewer && len < size)
        len += (size_t)snprintf(buf + len, size - len, "; --keep %g removed runs from %zu %s", o->keep_factor,
                                kept_fewer, kept_fewer == 1 ? "budget" : "budgets");
    if (nb >= 4 && 2 * single > nb && len < size)
        snprintf(buf + len, size - len,
                 "; %zu of the %zu budgets hold a single run: if the FLOPs are spread continuously, group them "
                 "with --group-tol (0.3: within 30%%)", single, nb);
}

static int power_law(const double *lnf, const double *lnn, const unsigned char *ok, size_t nb, double *a,
                     double *ln_g, double *r2)
{
    double sx = 0, sy = 0;
    size_t m = 0;
    for (size_t i = 0; i < nb; i++)
        if (ok[i]) {
            sx += lnf[i];
            sy += lnn[i];
            m++;
        }
    if (m < 2)
        return -1;
    double mx = sx / (double)m, my = sy / (double)m, sxx = 0, sxy = 0, syy = 0;
    for (size_t i = 0; i < nb; i++)
        if (ok[i]) {
            sxx += (lnf[i] - mx) * (lnf[i] - mx);
            sxy += (lnf[i] - mx) * (lnn[i] - my);
            syy += (lnn[i] - my) * (lnn[i] - my);
        }
    if (!(sxx > 0))
        return -1;
    *a = sxy / sxx;
    *ln_g = my - *a * mx;
    if (r2)
        *r2 = syy > 0 ? sxy * sxy / (sxx * syy) : 1.0;
    return 0;
}

static double quantile(double *v, size_t n, double q)
{
    gsl_sort(v, 1, n);
    return gsl_stats_quantile_from_sorted_data(v, 1, n, q);
}

int ls_isofit_run(const sweep *s, const isofit_options *o, isofit_result *out, ls_error *err)
{
    memset(out, 0, sizeof *out);
    out->a = out->ln_g = out->b = out->ln_h = out->r2 = out->a_lo = out->a_hi = NAN;
    if (o->method != ISOFIT_PARABOLA && o->method != ISOFIT_MINIMUM)
        return ls_error_set(err, LS_ERR_USAGE, "unknown IsoFLOP method");
    if (o->keep_factor != 0 && !(o->keep_factor > 1 && isfinite(o->keep_factor)))
        return ls_error_set(err, LS_ERR_USAGE, "the filter factor must be greater than 1");
    if (!(o->level > 0 && o->level < 1))
        return ls_error_set(err, LS_ERR_USAGE, "the interval level must be between 0 and 1");
    if (!s->has_loss)
        return ls_error_set(err, LS_ERR_DATA, "%s: IsoFLOP minima need a loss column", s->name);
    size_t n = s->n, min_runs = o->min_runs < 1 ? 1 : o->min_runs;
    isofit_options opt = *o;
    opt.min_runs = o->method == ISOFIT_PARABOLA && min_runs < 3 ? 3 : min_runs;
    double *flops = malloc((n ? n : 1) * sizeof *flops), *x = malloc((n ? n : 1) * sizeof *x),
           *y = malloc((n ? n : 1) * sizeof *y);
    size_t *group = malloc((n ? n : 1) * sizeof *group), *idx = malloc((n ? n : 1) * 3 * sizeof *idx);
    ls_grouping g = {0};
    int status = 0;
    double *lnf = NULL, *lnn = NULL, *draw_a = NULL, *draw_n = NULL;
    unsigned char *ok = NULL;
    size_t *start = NULL;
    gsl_rng *rng = NULL;
    if (!flops || !x || !y || !group || !idx)
        status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    for (size_t i = 0; status == 0 && i < n; i++) {
        law_point p = ls_sweep_row_point(&s->rows[i]);
        flops[i] = ls_law_training_flops(&p);
        x[i] = log(s->rows[i].n_act);
        y[i] = s->rows[i].loss;
    }
    if (status == 0)
        status = ls_group_values(flops, n, o->group_tol, group, &g, err);
    size_t nb = g.n;
    if (status == 0) {
        out->budgets = calloc(nb ? nb : 1, sizeof *out->budgets);
        lnf = calloc(nb ? nb : 1, sizeof *lnf);
        lnn = calloc(nb ? nb : 1, sizeof *lnn);
        ok = calloc(nb ? nb : 1, 1);
        start = calloc(nb + 1, sizeof *start);
        if (!out->budgets || !lnf || !lnn || !ok || !start)
            status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    }
    if (status == 0) {
        out->nbudgets = nb;
        /* idx[start[b] .. start[b+1]) lists budget b's runs. */
        for (size_t i = 0; i < n; i++)
            start[group[i] + 1]++;
        for (size_t b = 0; b < nb; b++)
            start[b + 1] += start[b];
        size_t *fill = idx + 2 * n;
        memcpy(fill, start, nb * sizeof *fill);
        for (size_t i = 0; i < n; i++)
            idx[fill[group[i]]++] = i;
        for (size_t b = 0; b < nb; b++) {
            isofit_budget *bu = &out->budgets[b];
            size_t m = start[b + 1] - start[b];
            /* The budget's own FLOPs, the geometric mean of its runs' F: with a loose
             * --group-tol a group spans 5.7e19..7.4e19 and its rounded label (7e19)
             * would bias the fitted exponent. */
            double sum_ln = 0.0;
            for (size_t k = start[b]; k < start[b + 1]; k++)
                sum_ln += log(flops[idx[k]]);
            bu->flops = m ? exp(sum_ln / (double)m) : g.label[b];
            optimum op = budget_optimum(&opt, x, y, idx + start[b], m, idx + n);
            bu->runs = m;
            bu->used = op.used;
            bu->status = op.status;
            bu->n_opt = exp(op.x);
            bu->loss_opt = op.loss;
            law_point p = {bu->n_opt, bu->n_opt, 0.0, 1.0, 1.0, 0.0, 0.0};
            bu->d_opt = isfinite(op.x) ? ls_law_tokens_for_flops(&p, bu->flops) : NAN;
            bu->n_lo = bu->n_hi = NAN;
            lnf[b] = log(bu->flops);
            lnn[b] = op.x;
            ok[b] = op.status == ISOFIT_USED;
            out->nused += ok[b];
        }
        if (power_law(lnf, lnn, ok, nb, &out->a, &out->ln_g, &out->r2) != 0) {
            char why[512];
            explain_failure(out, nb, o, why, sizeof why);
            status = ls_error_set(err, LS_ERR_DATA,
                                  "%s: %zu of %zu budgets have an interior optimum; the power law needs two "
                                  "(a budget needs %zu runs at 3 or more sizes, with the lowest loss inside them)%s",
                                  s->name, out->nused, nb, opt.min_runs, why);
        } else {
            out->b = 1.0 - out->a;
            /* D_opt = F / (6 G F^a): the coefficient of a budget of 1 FLOP. */
            law_point p = {exp(out->ln_g), exp(out->ln_g), 0.0, 1.0, 1.0, 0.0, 0.0};
            out->ln_h = log(ls_law_tokens_for_flops(&p, 1.0));
        }
    }
    /* The bootstrap: each budget's runs resampled with replacement. */
    if (status == 0 && o->bootstrap > 0) {
        size_t nd = o->bootstrap;
        draw_a = malloc(nd * sizeof *draw_a);
        draw_n = malloc(nd * (nb ? nb : 1) * sizeof *draw_n);
        unsigned char *dok = malloc(nb ? nb : 1);
        double *dln = malloc((nb ? nb : 1) * sizeof *dln);
        size_t *res = malloc((n ? n : 1) * sizeof *res);
        rng = gsl_rng_alloc(gsl_rng_mt19937);
        if (!draw_a || !draw_n || !dok || !dln || !res || !rng) {
            status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        } else {
            gsl_rng_set(rng, o->seed);
            size_t na = 0;
            for (size_t d = 0; d < nd; d++) {
                for (size_t b = 0; b < nb; b++) {
                    size_t m = start[b + 1] - start[b];
                    for (size_t k = 0; k < m; k++)
                        res[k] = idx[start[b] + gsl_rng_uniform_int(rng, m)];
                    optimum op = budget_optimum(&opt, x, y, res, m, idx + n);
                    dok[b] = op.status == ISOFIT_USED;
                    dln[b] = op.x;
                    draw_n[b * nd + d] = dok[b] ? exp(op.x) : NAN;
                }
                double a, lg;
                if (power_law(lnf, dln, dok, nb, &a, &lg, NULL) == 0)
                    draw_a[na++] = a;
            }
            out->ndraws = na;
            double tail = (1.0 - o->level) / 2.0;
            if (na > 0) {
                out->a_lo = quantile(draw_a, na, tail);
                out->a_hi = quantile(draw_a, na, 1.0 - tail);
            }
            for (size_t b = 0; b < nb; b++) {
                double *v = draw_n + b * nd;
                size_t m = 0;
                for (size_t d = 0; d < nd; d++)
                    if (!isnan(v[d]))
                        v[m++] = v[d];
                out->budgets[b].draws_ok = m;
                if (m > 0) {
                    out->budgets[b].n_lo = quantile(v, m, tail);
                    out->budgets[b].n_hi = quantile(v, m, 1.0 - tail);
                }
            }
        }
        free(dok);
        free(dln);
        free(res);
    }
    gsl_rng_free(rng);
    free(draw_a);
    free(draw_n);
    free(lnf);
    free(lnn);
    free(ok);
    free(start);
    ls_grouping_free(&g);
    free(flops);
    free(x);
    free(y);
    free(group);
    free(idx);
    if (status != 0)
        ls_isofit_result_free(out);
    return status;
}
