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
#include "chart_internal.h"
#include "text_internal.h"
#include "loopscale/isofit.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

#include "loopscale/fit.h"
#include "loopscale/group.h"
#include "loopscale/law.h"

void ls_isofit_default_options(ls_isofit_options *o)
{
    memset(o, 0, sizeof *o);
    o->method = LS_ISOFIT_PARABOLA;
    o->group_tol = -1.0;
    o->keep_factor = 0.0;
    o->min_runs = 3;
    o->bootstrap = 0;
    o->seed = 1;
    o->level = 0.95;
}

const char *ls_isofit_status_name(ls_isofit_status s)
{
    switch (s) {
    case LS_ISOFIT_USED: return "used";
    case LS_ISOFIT_TOO_FEW_RUNS: return "too few runs";
    case LS_ISOFIT_NOT_CONVEX: return "not convex";
    case LS_ISOFIT_AT_EDGE: return "optimum at the edge";
    }
    return "?";
}

void ls_isofit_result_free(ls_isofit_result *r)
{
    if (!r)
        return;
    free(r->budgets);
    free(r->run_budget);
    r->budgets = NULL;
    r->run_budget = NULL;
    r->nbudgets = 0;
    r->nruns = 0;
}

/* One budget's optimum from m of its runs, and the curve it came from. */
typedef struct optimum {
    ls_isofit_status status;
    double x, loss; /* ln N_opt and the loss there */
    size_t used;
    double centre, c0, c1, c2; /* the parabola in x - centre (NaN when none was fitted) */
    double xlo, xhi;           /* the range of ln N of the runs it was found from */
} optimum;

static optimum no_optimum(size_t m)
{
    return (optimum){.status = LS_ISOFIT_TOO_FEW_RUNS, .x = NAN, .loss = NAN, .used = m, .centre = NAN, .c0 = NAN,
                     .c1 = NAN, .c2 = NAN, .xlo = NAN, .xhi = NAN};
}

/* The least-squares parabola through (x_i, y_i), i in idx[0..m), as the
 * vertex; x is centred on its mean so that the 3 x 3 normal equations stay
 * well conditioned (Cramer's rule on them). */
static optimum parabola(const double *x, const double *y, const size_t *idx, size_t m)
{
    optimum o = no_optimum(m);
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
    /* Losses scaled by the largest, so that the sums cannot overflow (a
     * loss of 1e307 is still a parabola); the coefficients scale back. */
    double scale = 0;
    for (size_t k = 0; k < m; k++)
        scale = fmax(scale, fabs(y[idx[k]]));
    if (!(scale > 0 && isfinite(scale)))
        scale = 1;
    double s[5] = {0}, t[3] = {0};
    for (size_t k = 0; k < m; k++) {
        double u = x[idx[k]] - mean, p = 1, v = y[idx[k]] / scale;
        for (int j = 0; j < 5; j++, p *= u)
            s[j] += p;
        t[0] += v;
        t[1] += u * v;
        t[2] += u * u * v;
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
        o.status = LS_ISOFIT_TOO_FEW_RUNS;
        return o;
    }
    double c0 = scale * (d0 / det), c1 = scale * (d1 / det), c2 = scale * (d2 / det);
    o.centre = mean, o.c0 = c0, o.c1 = c1, o.c2 = c2;
    o.xlo = xmin, o.xhi = xmax;
    /* Flat losses leave c2 at rounding noise, either sign: a curvature
     * that moves the loss by less than 1e-9 of its size across the sizes
     * sampled is no curvature, and its vertex no optimum. */
    double half_span = (xmax - xmin) / 2;
    if (!(c2 > 0) || !(c2 * half_span * half_span > 1e-9 * fabs(c0))) {
        o.status = LS_ISOFIT_NOT_CONVEX;
        return o;
    }
    double u = -c1 / (2 * c2);
    o.x = mean + u;
    o.loss = c0 + c1 * u + c2 * u * u;
    o.status = o.x > xmin && o.x < xmax ? LS_ISOFIT_USED : LS_ISOFIT_AT_EDGE;
    return o;
}

/* The lowest-loss run (the first on ties); at the edge when it has the
 * smallest or largest size of the budget. */
static optimum lowest(const double *x, const double *y, const size_t *idx, size_t m)
{
    optimum o = no_optimum(m);
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
    o.xlo = xmin, o.xhi = xmax;
    /* Every run at the lowest loss: no run is the optimum (flat). */
    int flat = 1;
    for (size_t k = 0; k < m && flat; k++)
        flat = y[idx[k]] == o.loss;
    o.status = flat ? LS_ISOFIT_NOT_CONVEX : o.x > xmin && o.x < xmax ? LS_ISOFIT_USED : LS_ISOFIT_AT_EDGE;
    return o;
}

/* The optimum of one budget from the runs idx[0..m) (scratch: m more). */
static optimum budget_optimum(const ls_isofit_options *o, const double *x, const double *y, const size_t *idx, size_t m,
                              size_t *scratch)
{
    optimum none = no_optimum(m);
    if (m < o->min_runs)
        return none;
    optimum first = o->method == LS_ISOFIT_PARABOLA ? parabola(x, y, idx, m) : lowest(x, y, idx, m);
    /* Centred on a vertex beyond the sizes, the filter would keep nothing
     * and hide why: such a budget stays "at the edge". */
    if (!(o->keep_factor > 1) || first.status != LS_ISOFIT_USED)
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
    return o->method == LS_ISOFIT_PARABOLA ? parabola(x, y, scratch, kept) : lowest(x, y, scratch, kept);
}

/* Least squares ln N_opt = ln G + a ln F over the usable budgets. */
/* Why no power law: how many budgets each reason left out, whether --keep dropped
 * runs, and, when most budgets hold a single run (FLOPs spread continuously, as in
 * points read off a figure), that --group-tol groups them. */
static void explain_failure(const ls_isofit_result *out, size_t nb, const ls_isofit_options *o, char *buf, size_t size)
{
    size_t count[4] = {0, 0, 0, 0}, single = 0, kept_fewer = 0;
    for (size_t b = 0; b < nb; b++) {
        const ls_isofit_budget *bu = &out->budgets[b];
        count[bu->status < 4 ? bu->status : 0]++;
        single += bu->runs == 1;
        kept_fewer += bu->used < bu->runs && o->keep_factor > 1;
    }
    size_t len = 0;
    buf[0] = '\0';
    for (int k = LS_ISOFIT_TOO_FEW_RUNS; k <= LS_ISOFIT_AT_EDGE && len < size; k++)
        if (count[k])
            len += (size_t)snprintf(buf + len, size - len, "%s%zu %s", len ? ", " : "; left out: ", count[k],
                                    ls_isofit_status_name((ls_isofit_status)k));
    if (kept_fewer && len < size)
        len += (size_t)snprintf(buf + len, size - len, "; --keep %.15g removed runs from %zu %s", o->keep_factor,
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

/* N_unroll / N_act at size exp(x) in a budget of runs idx[0..m): the
 * runs' own ratio, interpolated linearly in ln N_act between the nearest
 * sizes either side (held beyond them).  1 for a plain sweep (R = 1). */
static double unroll_ratio_at(const double *x, const double *ratio, const size_t *idx, size_t m, double at)
{
    size_t below = SIZE_MAX, above = SIZE_MAX;
    for (size_t k = 0; k < m; k++) {
        size_t i = idx[k];
        if (x[i] <= at && (below == SIZE_MAX || x[i] > x[below]))
            below = i;
        if (x[i] >= at && (above == SIZE_MAX || x[i] < x[above]))
            above = i;
    }
    if (below == SIZE_MAX)
        return above == SIZE_MAX ? 1.0 : ratio[above];
    if (above == SIZE_MAX || x[above] == x[below])
        return ratio[below];
    double t = (at - x[below]) / (x[above] - x[below]);
    return ratio[below] + t * (ratio[above] - ratio[below]);
}

/* IsoFLOP curves compare sizes of one architecture: runs of several loop
 * or expert counts in one budget would be one parabola through several
 * curves.  LS_ERR_DATA naming two runs that differ. */
static int one_architecture(const ls_sweep *s, ls_error *err)
{
    for (size_t i = 1; i < s->n; i++) {
        const ls_sweep_row *a = &s->rows[0], *b = &s->rows[i];
        if (a->R != b->R || a->E != b->E || a->k != b->k)
            return ls_error_set(err, LS_ERR_DATA,
                                "%s: IsoFLOP curves are of one architecture, but line %ld has R = %g, E = %g and "
                                "line %ld R = %g, E = %g; keep one with --where (e.g. --where 'R=1' --where 'E=1')",
                                s->name, a->line, a->R, a->E, b->line, b->R, b->E);
    }
    return 0;
}

static double quantile(double *v, size_t n, double q)
{
    gsl_sort(v, 1, n);
    return gsl_stats_quantile_from_sorted_data(v, 1, n, q);
}

int ls_isofit_run(const ls_sweep *s, const ls_isofit_options *o, ls_isofit_result *out, ls_error *err)
{
    memset(out, 0, sizeof *out);
    out->a = out->ln_g = out->b = out->ln_h = out->r2 = out->a_lo = out->a_hi = NAN;
    if (o->method != LS_ISOFIT_PARABOLA && o->method != LS_ISOFIT_MINIMUM)
        return ls_error_set(err, LS_ERR_USAGE, "unknown IsoFLOP method");
    if (o->keep_factor != 0 && !(o->keep_factor > 1 && isfinite(o->keep_factor)))
        return ls_error_set(err, LS_ERR_USAGE, "the filter factor must be greater than 1");
    if (!(o->level > 0 && o->level < 1))
        return ls_error_set(err, LS_ERR_USAGE, "the interval level must be between 0 and 1");
    if (!s->has_loss)
        return ls_error_set(err, LS_ERR_DATA, "%s: IsoFLOP minima need a loss column", s->name);
    if (one_architecture(s, err) != 0)
        return LS_ERR_DATA;
    size_t n = s->n, min_runs = o->min_runs < 1 ? 1 : o->min_runs;
    ls_isofit_options opt = *o;
    opt.min_runs = o->method == LS_ISOFIT_PARABOLA && min_runs < 3 ? 3 : min_runs;
    double *flops = malloc((n ? n : 1) * sizeof *flops), *x = malloc((n ? n : 1) * sizeof *x),
           *y = malloc((n ? n : 1) * sizeof *y), *ratio = malloc((n ? n : 1) * sizeof *ratio);
    size_t *group = malloc((n ? n : 1) * sizeof *group), *idx = malloc((n ? n : 1) * 3 * sizeof *idx);
    ls_grouping g = {0};
    int status = 0;
    double *lnf = NULL, *lnn = NULL, *lnd = NULL, *draw_a = NULL, *draw_n = NULL;
    unsigned char *ok = NULL;
    size_t *start = NULL;
    gsl_rng *rng = NULL;
    if (!flops || !x || !y || !ratio || !group || !idx)
        status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    for (size_t i = 0; status == 0 && i < n; i++) {
        ls_law_point p = ls_sweep_row_point(&s->rows[i]);
        flops[i] = ls_law_training_flops(&p);
        ratio[i] = ls_law_n_unroll(&p) / p.n_act;
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
        lnd = calloc(nb ? nb : 1, sizeof *lnd);
        ok = calloc(nb ? nb : 1, 1);
        start = calloc(nb + 1, sizeof *start);
        out->run_budget = malloc((n ? n : 1) * sizeof *out->run_budget);
        if (!out->budgets || !lnf || !lnn || !lnd || !ok || !start || !out->run_budget)
            status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    }
    if (status == 0) {
        out->nbudgets = nb;
        out->nruns = n;
        memcpy(out->run_budget, group, n * sizeof *group);
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
            ls_isofit_budget *bu = &out->budgets[b];
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
            /* Only an interior optimum is one: a vertex beyond the sizes
             * sampled may lie anywhere (N = 1e39, a loss below zero). */
            int interior = op.status == LS_ISOFIT_USED;
            bu->n_opt = interior ? exp(op.x) : NAN;
            bu->loss_opt = interior ? op.loss : NAN;
            /* The tokens a model of size N_opt trains on at this budget:
             * F = 6 N_unroll D, N_unroll read off the budget's runs. */
            bu->d_opt = interior ? bu->flops / (6.0 * bu->n_opt * unroll_ratio_at(x, ratio, idx + start[b], m, op.x))
                                 : NAN;
            lnd[b] = log(bu->d_opt);
            bu->n_lo = bu->n_hi = NAN;
            bu->ln_n_centre = op.centre, bu->c0 = op.c0, bu->c1 = op.c1, bu->c2 = op.c2;
            bu->n_fit_lo = exp(op.xlo), bu->n_fit_hi = exp(op.xhi);
            lnf[b] = log(bu->flops);
            lnn[b] = op.x;
            ok[b] = op.status == LS_ISOFIT_USED;
            out->nused += ok[b];
        }
        if (power_law(lnf, lnn, ok, nb, &out->a, &out->ln_g, &out->r2) != 0) {
            char why[512];
            explain_failure(out, nb, o, why, sizeof why);
            char needs[96];
            if (o->method == LS_ISOFIT_PARABOLA)
                snprintf(needs, sizeof needs, "%zu runs at 3 or more sizes, with the lowest loss inside them",
                         opt.min_runs);
            else
                snprintf(needs, sizeof needs, "%zu %s, its lowest loss inside its sizes", opt.min_runs,
                         opt.min_runs == 1 ? "run" : "runs");
            status = ls_error_set(err, LS_ERR_DATA,
                                  "%s: %zu of %zu budgets have an interior optimum; the power law needs two "
                                  "(a budget needs %s)%s",
                                  s->name, out->nused, nb, needs, why);
        } else {
            /* D_opt = H F^b by least squares too: for a plain sweep that is
             * exactly b = 1 - a and H = 1 / (6 G); a looped one's N_unroll /
             * N_act may drift with size. */
            if (power_law(lnf, lnd, ok, nb, &out->b, &out->ln_h, NULL) != 0)
                status = ls_error_set(err, LS_ERR_INTERNAL, "the tokens' power law failed where the sizes' did not");
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
                    dok[b] = op.status == LS_ISOFIT_USED;
                    dln[b] = op.x;
                    draw_n[b * nd + d] = dok[b] ? exp(op.x) : NAN;
                }
                double a, lg;
                if (power_law(lnf, dln, dok, nb, &a, &lg, NULL) == 0)
                    draw_a[na++] = a;
            }
            out->ndraws = na;
            double tail = (1.0 - o->level) / 2.0;
            /* As for fit: fewer draws than that give no percentile interval
             * worth printing (one draw is an interval of zero width). */
            if (na >= LS_FIT_MIN_INTERVAL_DRAWS) {
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
                /* An interval is about an estimate: none for a budget the
                 * full data leaves without an interior optimum. */
                if (m >= LS_FIT_MIN_INTERVAL_DRAWS && out->budgets[b].status == LS_ISOFIT_USED) {
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
    free(lnd);
    free(ok);
    free(start);
    ls_grouping_free(&g);
    free(flops);
    free(x);
    free(y);
    free(ratio);
    free(group);
    free(idx);
    if (status != 0)
        ls_isofit_result_free(out);
    return status;
}

/* ---- the figure (Hoffmann et al.'s figure 3) ---------------------------- */

enum { PARABOLA_POINTS = 64 };
/* Budgets named one by one in the legend; the others share one entry and
 * the notes list their FLOPs, so that hundreds of budgets keep a legend
 * (and a figure) of a readable size. */
enum { LEGEND_BUDGETS = 12 };

#define ELLIPSIS "\xe2\x80\xa6"

/* A budget's legend entry: its FLOPs, and why it is left out when it is. */
static void budget_label(char *buf, size_t size, const ls_isofit_budget *bu)
{
    char num[64];
    ls_chart_number(num, sizeof num, bu->flops);
    if (bu->status == LS_ISOFIT_USED)
        snprintf(buf, size, "F = %s", num);
    else
        snprintf(buf, size, "F = %s: %s", num, ls_isofit_status_name(bu->status));
}

/* The FLOPs of the budgets b with pick[b], comma-separated into buf (of at
 * least 64 bytes); those that do not fit end it as "... and N more".
 * Returns how many were picked. */
static size_t flops_list(char *buf, size_t size, const ls_isofit_result *r, const unsigned char *pick)
{
    const size_t tail = 40; /* room kept for " ... and N more" */
    char num[64];
    size_t len = 0, count = 0, left_out = 0;
    buf[0] = '\0';
    for (size_t b = 0; b < r->nbudgets; b++) {
        if (!pick[b])
            continue;
        count++;
        size_t w = ls_chart_number(num, sizeof num, r->budgets[b].flops);
        if (left_out || len + w + 2 + tail >= size) {
            left_out++;
            continue;
        }
        len += (size_t)snprintf(buf + len, size - len, "%s%s", len ? ", " : "", num);
    }
    if (left_out)
        snprintf(buf + len, size - len, " " ELLIPSIS " and %zu more", left_out);
    return count;
}

/* The budgets of too few runs, scattered grey circles without a curve,
 * share one legend entry (a sweep's corners can hold a dozen); the notes
 * list their FLOPs.  pick: scratch of r->nbudgets. */
static void too_few_runs(chart *c, const ls_isofit_options *o, const ls_isofit_result *r, unsigned char *pick)
{
    char text[1024];
    for (size_t b = 0; b < r->nbudgets; b++)
        pick[b] = r->budgets[b].status == LS_ISOFIT_TOO_FEW_RUNS;
    size_t count = flops_list(text, sizeof text, r, pick);
    if (count == 0)
        return;
    char note[1200];
    int parabola = o->method == LS_ISOFIT_PARABOLA;
    size_t need = parabola && o->min_runs < 3 ? 3 : o->min_runs;
    snprintf(note, sizeof note, "Too few runs (a budget needs %zu runs%s) at F = %s.", need,
             parabola ? " at 3 or more sizes" : "", text);
    ls_chart_note(c, note);
    chart_style key = ls_chart_marker_style(CHART_GREY, CHART_MARKER_CIRCLE);
    key.marker_size = 1.8;
    key.hollow = 1;
    if (count == 1)
        snprintf(note, sizeof note, "F = %s: too few runs", text);
    else
        snprintf(note, sizeof note, "%zu budgets: too few runs", count);
    ls_chart_legend(c, note, &key);
}

/* The budgets past the legend's LEGEND_BUDGETS (marked in pick): one entry
 * for them all, their FLOPs in the notes. */
static void more_budgets(chart *c, const ls_isofit_result *r, const unsigned char *pick)
{
    char text[1024], note[1200];
    size_t count = flops_list(text, sizeof text, r, pick);
    if (count == 0)
        return;
    snprintf(note, sizeof note, "Budgets not named in the legend (%zu): F = %s.", count, text);
    ls_chart_note(c, note);
    chart_style key = ls_chart_marker_style(CHART_GREY, CHART_MARKER_CIRCLE);
    key.marker_size = 1.8;
    snprintf(note, sizeof note, ELLIPSIS " and %zu more %s", count, count == 1 ? "budget" : "budgets");
    ls_chart_legend(c, note, &key);
}

/* Run i lies in the sizes its budget was fitted over (else --keep set it
 * aside, or its budget has no fit). */
static int run_in_fit(const ls_sweep *s, const ls_isofit_budget *bu, size_t i)
{
    double n = s->rows[i].n_act;
    return n >= bu->n_fit_lo * (1 - 1e-12) && n <= bu->n_fit_hi * (1 + 1e-12);
}

/* A run --keep set aside: outside its budget's fitted sizes in a budget that has a fit. */
static int set_aside(const ls_sweep *s, const ls_isofit_options *o, const ls_isofit_result *r, size_t i)
{
    const ls_isofit_budget *bu = &r->budgets[r->run_budget[i]];
    return o->keep_factor > 1 && bu->status != LS_ISOFIT_TOO_FEW_RUNS && !run_in_fit(s, bu, i);
}

/* Budget b's parabola over the sizes fitted, into x, y (PARABOLA_POINTS);
 * 0 when it has none. */
static size_t parabola_points(const ls_isofit_budget *bu, double *x, double *y)
{
    if (!isfinite(bu->c2) || !(bu->n_fit_lo < bu->n_fit_hi))
        return 0;
    double lo = log(bu->n_fit_lo), hi = log(bu->n_fit_hi);
    for (size_t k = 0; k < PARABOLA_POINTS; k++) {
        double u = lo + (hi - lo) * (double)k / (PARABOLA_POINTS - 1) - bu->ln_n_centre;
        x[k] = exp(u + bu->ln_n_centre);
        y[k] = bu->c0 + bu->c1 * u + bu->c2 * u * u;
    }
    return PARABOLA_POINTS;
}

/* Budget b on the left panel: its runs as markers of the given shape (hollow
 * outside the sizes fitted, i.e. dropped by --keep, and for a budget left
 * out), its parabola over the sizes fitted, and, for a budget used, its
 * optimum as a star (a budget left out may have its vertex far outside its
 * sizes); x and y are scratch of max(runs, PARABOLA_POINTS). */
static void draw_budget(chart_panel *p, const ls_sweep *s, const ls_isofit_result *r, size_t b, int color,
                        chart_marker marker, int star_color, double *x, double *y)
{
    const ls_isofit_budget *bu = &r->budgets[b];
    int used = bu->status == LS_ISOFIT_USED;
    for (int inside = 1; inside >= 0; inside--) {
        size_t m = 0;
        for (size_t i = 0; i < s->n; i++) {
            if (r->run_budget[i] == b && run_in_fit(s, bu, i) == inside) {
                x[m] = s->rows[i].n_act;
                y[m] = s->rows[i].loss;
                m++;
            }
        }
        chart_style runs = ls_chart_marker_style(color, marker);
        runs.marker_size = 1.8;
        runs.hollow = !used || !inside;
        if (m > 0)
            ls_chart_panel_line(p, x, y, m, &runs);
    }
    size_t np = parabola_points(bu, x, y);
    if (np > 0) {
        chart_style curve = ls_chart_line_style(color);
        curve.width = used ? 1.0 : 0.7;
        curve.dash = used ? CHART_DASH_SOLID : CHART_DASH_DASHED;
        ls_chart_panel_line(p, x, y, np, &curve);
    }
    if (used && isfinite(bu->n_opt) && isfinite(bu->loss_opt)) {
        chart_style star = ls_chart_marker_style(star_color, CHART_MARKER_STAR);
        star.marker_size = 3.6;
        ls_chart_panel_line(p, &bu->n_opt, &bu->loss_opt, 1, &star);
    }
}

/* The left panel's loss range: that of the runs fitted and the parabolas,
 * with a margin, when --keep set runs aside (they may lie far above the
 * curves and would squash them); the runs set aside beyond it are counted
 * in a note. x and y: scratch of PARABOLA_POINTS. */
static void loss_range(chart *c, chart_panel *p, const ls_sweep *s, const ls_isofit_options *o, const ls_isofit_result *r,
                       double *x, double *y)
{
    double lo = INFINITY, hi = -INFINITY;
    size_t aside = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (set_aside(s, o, r, i)) {
            aside++;
            continue;
        }
        lo = fmin(lo, s->rows[i].loss);
        hi = fmax(hi, s->rows[i].loss);
    }
    if (aside == 0 || !(lo <= hi))
        return;
    for (size_t b = 0; b < r->nbudgets; b++) {
        size_t np = parabola_points(&r->budgets[b], x, y);
        for (size_t k = 0; k < np; k++)
            if (isfinite(y[k])) {
                lo = fmin(lo, y[k]);
                hi = fmax(hi, y[k]);
            }
    }
    double margin = hi > lo ? 0.06 * (hi - lo) : fmax(fabs(hi) * 0.05, 1e-9);
    lo -= margin;
    hi += margin;
    ls_chart_panel_range(p, CHART_AXIS_Y, lo, hi);
    size_t above = 0, below = 0;
    for (size_t i = 0; i < s->n; i++)
        if (set_aside(s, o, r, i)) {
            above += s->rows[i].loss > hi;
            below += s->rows[i].loss < lo;
        }
    char text[256];
    if (above + below > 0) {
        snprintf(text, sizeof text, "%zu %s set aside by --keep %s %s the panel (clipped at its frame).",
                 above + below, above + below == 1 ? "run" : "runs", above + below == 1 ? "lies" : "lie",
                 below == 0 ? "above" : above == 0 ? "below" : "outside");
        ls_chart_note(c, text);
    }
}

/* The right panel: N_opt and D_opt of the budgets used, their power laws
 * across the budgets' span, and N_opt's bootstrap intervals. */
static void draw_power_laws(chart_panel *p, const ls_isofit_result *r, const int *color)
{
    double flo = INFINITY, fhi = -INFINITY;
    for (size_t b = 0; b < r->nbudgets; b++) {
        const ls_isofit_budget *bu = &r->budgets[b];
        if (bu->status != LS_ISOFIT_USED)
            continue;
        flo = fmin(flo, bu->flops);
        fhi = fmax(fhi, bu->flops);
        if (isfinite(bu->n_lo) && isfinite(bu->n_hi)) {
            double fx[2] = {bu->flops, bu->flops}, ny[2] = {bu->n_lo, bu->n_hi};
            chart_style bar = ls_chart_line_style(color[b]);
            bar.width = 0.9;
            ls_chart_panel_line(p, fx, ny, 2, &bar);
        }
        chart_style n = ls_chart_marker_style(color[b], CHART_MARKER_CIRCLE);
        chart_style d = ls_chart_marker_style(color[b], CHART_MARKER_SQUARE);
        d.hollow = 1;
        ls_chart_panel_line(p, &bu->flops, &bu->n_opt, 1, &n);
        ls_chart_panel_line(p, &bu->flops, &bu->d_opt, 1, &d);
    }
    double fx[2] = {flo, fhi}, ny[2], dy[2];
    for (int k = 0; k < 2; k++) {
        ny[k] = exp(r->ln_g + r->a * log(fx[k]));
        dy[k] = exp(r->ln_h + r->b * log(fx[k]));
    }
    chart_style nl = ls_chart_line_style(CHART_BLACK), dl = ls_chart_line_style(CHART_BLACK);
    dl.dash = CHART_DASH_DASHED;
    ls_chart_panel_line(p, fx, ny, 2, &nl);
    ls_chart_panel_line(p, fx, dy, 2, &dl);
}

/* The legend entries of the right panel and the figure's notes. */
static void describe(chart *c, const ls_sweep *s, const ls_isofit_options *o, const ls_isofit_result *r)
{
    char text[512], name[256];
    chart_style nl = ls_chart_line_style(CHART_BLACK), dl = ls_chart_line_style(CHART_BLACK);
    nl.marker = CHART_MARKER_CIRCLE;
    dl.marker = CHART_MARKER_SQUARE;
    dl.hollow = 1;
    dl.dash = CHART_DASH_DASHED;
    snprintf(text, sizeof text, "N<sub>opt</sub> = %.4g F<sup>%.4f</sup>", exp(r->ln_g), r->a);
    ls_chart_legend(c, text, &nl);
    ls_chart_legend_brief(c, "N<sub>opt</sub>");
    snprintf(text, sizeof text, "D<sub>opt</sub> = F / (6 N<sub>opt</sub>) = %.4g F<sup>%.4f</sup>", exp(r->ln_h),
             r->b);
    ls_chart_legend(c, text, &dl);
    ls_chart_legend_brief(c, "D<sub>opt</sub>");
    if (r->ndraws > 0) {
        chart_style bar = ls_chart_line_style(CHART_BLACK);
        bar.width = 0.9;
        snprintf(text, sizeof text, "N<sub>opt</sub>: %g%% interval (%zu draws)", 100 * o->level, r->ndraws);
        ls_chart_legend(c, text, &bar);
        ls_chart_legend_brief(c, "interval");
    }
    ls_text_escape_xml(name, sizeof name, s->name, 0);
    snprintf(text, sizeof text, "Runs: %s, %zu budgets, %zu in the power law (R<sup>2</sup> %.4f of ln N<sub>opt</sub> "
             "on ln F).", name, r->nbudgets, r->nused, r->r2);
    ls_chart_note(c, text);
    if (o->method == LS_ISOFIT_PARABOLA)
        snprintf(text, sizeof text, "Each optimum (star) is the vertex of the least-squares parabola of the loss in "
                 "ln N<sub>act</sub> (Chinchilla approach 2); hollow: left out of the power law, with no star.");
    else
        snprintf(text, sizeof text, "Each optimum (star, in its budget's colour) is the budget's lowest-loss run "
                 "(Chinchilla approach 1); hollow: left out of the power law, with no star.");
    ls_chart_note(c, text);
    if (o->keep_factor > 1) {
        snprintf(text, sizeof text, "Only the runs within a factor %g of each budget's first optimum are fitted; "
                 "hollow circles: the others.", o->keep_factor);
        ls_chart_note(c, text);
    }
}

unsigned char *ls_isofit_plot(const ls_sweep *s, const ls_isofit_options *o, const ls_isofit_result *r,
                              const ls_figure *out, size_t *len, ls_error *err)
{
    if (r->nruns != s->n || !r->run_budget || r->nbudgets == 0) {
        ls_error_set(err, LS_ERR_USAGE, "the IsoFLOP result to draw is not of these runs");
        return NULL;
    }
    char title[256], text[256];
    int at = snprintf(title, sizeof title, "IsoFLOP minima (Chinchilla approach %d): N<sub>opt</sub> ~ F<sup>%.4f</sup>",
                      o->method == LS_ISOFIT_PARABOLA ? 2 : 1, r->a);
    if (isfinite(r->a_lo) && at > 0 && (size_t)at < sizeof title)
        snprintf(title + at, sizeof title - (size_t)at, ", a in [%.4f, %.4f] (%g%%)", r->a_lo, r->a_hi,
                 100 * o->level);
    size_t scratch = s->n > PARABOLA_POINTS ? s->n : PARABOLA_POINTS;
    chart *c = ls_chart_new(title, 1, 2);
    double *x = malloc(scratch * sizeof *x), *y = malloc(scratch * sizeof *y);
    int *color = malloc(r->nbudgets * sizeof *color);
    unsigned char *pick = calloc(r->nbudgets, 1), *bytes = NULL;
    if (!c || !x || !y || !color || !pick) {
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        goto done;
    }
    chart_panel *left = ls_chart_panel(c, 0, 0), *right = ls_chart_panel(c, 0, 1);
    ls_chart_panel_axis(left, CHART_AXIS_X, "N<sub>act</sub> (parameters)", CHART_SCALE_LOG);
    ls_chart_panel_axis(left, CHART_AXIS_Y, "loss (nats/token)", CHART_SCALE_LINEAR);
    ls_chart_panel_axis(right, CHART_AXIS_X, "training FLOPs F", CHART_SCALE_LOG);
    ls_chart_panel_axis(right, CHART_AXIS_Y, "N<sub>opt</sub>, D<sub>opt</sub>", CHART_SCALE_LOG);
    /* The palette goes to the budgets used, in order, the others are grey;
     * past the palette's colours the runs' marker tells budgets apart.
     * Approach 1's star sits on the lowest run: in the budget's colour, so
     * that it stays attributable; approach 1 draws no curves, so its
     * legend entries are markers. */
    int minimum = o->method == LS_ISOFIT_MINIMUM;
    size_t named = 0;
    int next = 0;
    for (size_t b = 0; b < r->nbudgets; b++) {
        const ls_isofit_budget *bu = &r->budgets[b];
        int cycle = bu->status == LS_ISOFIT_USED ? next / CHART_NCOLORS : 0;
        chart_marker marker = cycle % 2 ? CHART_MARKER_SQUARE : CHART_MARKER_CIRCLE;
        color[b] = bu->status == LS_ISOFIT_USED ? next++ : CHART_GREY;
        draw_budget(left, s, r, b, color[b], marker, minimum ? color[b] : CHART_BLACK, x, y);
        chart_style key = ls_chart_line_style(color[b]);
        key.width = minimum ? 0 : key.width;
        key.marker = marker;
        key.marker_size = 1.8;
        key.hollow = bu->status != LS_ISOFIT_USED;
        key.dash = bu->status == LS_ISOFIT_USED ? CHART_DASH_SOLID : CHART_DASH_DASHED;
        budget_label(text, sizeof text, bu);
        if (bu->status == LS_ISOFIT_TOO_FEW_RUNS)
            continue;
        if (named++ < LEGEND_BUDGETS)
            ls_chart_legend(c, text, &key);
        else
            pick[b] = 1;
    }
    more_budgets(c, r, pick);
    too_few_runs(c, o, r, pick);
    chart_style star = ls_chart_marker_style(CHART_BLACK, CHART_MARKER_STAR);
    star.marker_size = 3.6;
    ls_chart_legend(c, minimum ? "optimum: the lowest run" : "optimum: the parabola's vertex", &star);
    ls_chart_legend_brief(c, "optimum");
    draw_power_laws(right, r, color);
    describe(c, s, o, r);
    loss_range(c, left, s, o, r, x, y);
    bytes = ls_chart_render(c, out, len, err);
done:
    ls_chart_free(c);
    free(x);
    free(y);
    free(color);
    free(pick);
    return bytes;
}
