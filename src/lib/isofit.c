/*
 * isofit.c — compute-optimal exponents from IsoFLOP minima (isofit.h).
 *
 * Hoffmann et al. (2022), "Training Compute-Optimal Large Language Models":
 * approach 1 takes, at each budget, the run of lowest loss; approach 2 fits
 * a parabola to the loss against ln N at each budget and takes its vertex,
 *   L(x) = c0 + c1 x + c2 x^2, x = ln N,  x* = -c1 / (2 c2)  (c2 > 0).
 * Porian et al. (2024), "Resolving Discrepancies in Compute-Optimal Scaling
 * of Language Models", take the minimum of Akima's interpolant of ln L
 * against x (akima_internal.h), and refit noised copies of the losses for
 * intervals.  All then fit N_opt = G F^a by least squares in logs.
 * D_opt = F / (6 N_opt) follows (ls_law_tokens_for_flops), so
 * D_opt = F^(1-a) / (6 G).
 */
#include "akima_internal.h"
#include "chart_internal.h"
#include "text_internal.h"
#include "loopscale/isofit.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_cdf.h>
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
    o->noise_draws = 0;
    o->noise_sd = 0.0;
}

const char *ls_isofit_method_name(ls_isofit_method m)
{
    switch (m) {
    case LS_ISOFIT_PARABOLA: return "parabola";
    case LS_ISOFIT_MINIMUM: return "minimum";
    case LS_ISOFIT_AKIMA: return "akima";
    }
    return NULL;
}

const char *ls_isofit_status_name(ls_isofit_status s)
{
    switch (s) {
    case LS_ISOFIT_USED: return "used";
    case LS_ISOFIT_TOO_FEW_RUNS: return "too few runs";
    case LS_ISOFIT_NOT_CONVEX: return "not convex";
    case LS_ISOFIT_AT_EDGE: return "optimum at the edge";
    case LS_ISOFIT_NOISE_EDGE: return "at the edge in most noised copies";
    }
    return "?";
}

void ls_isofit_result_free(ls_isofit_result *r)
{
    if (!r)
        return;
    free(r->budgets);
    free(r->run_budget);
    ls_warnings_free(&r->warnings);
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
    int side;                  /* at the edge: -1 at or below the smallest size, +1 at or above the largest */
} optimum;

/* Scratch for one budget's optimum, sized once for the whole sweep (n
 * runs) and reused by every budget and draw. */
typedef struct knot {
    double x, y;
} knot;

typedef struct workspace {
    size_t *kept;               /* n: the runs the filter keeps */
    knot *knots;                /* n: a budget's runs sorted by size */
    double *kx, *ky, *kt, *km;  /* n, n, n and n + 3: Akima's knots, derivatives and secants */
} workspace;

static int workspace_alloc(workspace *w, size_t n)
{
    size_t m = n ? n : 1;
    w->kept = malloc(m * sizeof *w->kept);
    w->knots = malloc(m * sizeof *w->knots);
    w->kx = malloc(m * sizeof *w->kx);
    w->ky = malloc(m * sizeof *w->ky);
    w->kt = malloc(m * sizeof *w->kt);
    w->km = malloc((m + 3) * sizeof *w->km);
    return w->kept && w->knots && w->kx && w->ky && w->kt && w->km ? 0 : -1;
}

static void workspace_free(workspace *w)
{
    free(w->kept);
    free(w->knots);
    free(w->kx);
    free(w->ky);
    free(w->kt);
    free(w->km);
}

static optimum no_optimum(size_t m)
{
    return (optimum){.status = LS_ISOFIT_TOO_FEW_RUNS, .x = NAN, .loss = NAN, .used = m, .centre = NAN, .c0 = NAN,
                     .c1 = NAN, .c2 = NAN, .xlo = NAN, .xhi = NAN, .side = 0};
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
    o.side = o.x <= xmin ? -1 : o.x >= xmax ? 1 : 0;
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
    o.side = flat ? 0 : o.x <= xmin ? -1 : o.x >= xmax ? 1 : 0;
    return o;
}

static int knot_order(const void *a, const void *b)
{
    double u = ((const knot *)a)->x, v = ((const knot *)b)->x;
    return (u > v) - (u < v);
}

/* Akima's knots from the runs idx[0..m): the distinct sizes in increasing
 * order (w->kx) and the log of the mean loss at each (w->ky).  Returns how
 * many, or 0 when a loss is not positive (a noised copy may push one
 * below zero) or not finite. */
static size_t akima_knots(const double *x, const double *y, const size_t *idx, size_t m, workspace *w)
{
    for (size_t k = 0; k < m; k++)
        w->knots[k] = (knot){x[idx[k]], y[idx[k]]};
    qsort(w->knots, m, sizeof *w->knots, knot_order);
    size_t kn = 0;
    for (size_t k = 0; k < m;) {
        double sum = 0;
        size_t j = k;
        for (; j < m && w->knots[j].x == w->knots[k].x; j++)
            sum += w->knots[j].y;
        double mean = sum / (double)(j - k);
        if (!(mean > 0 && isfinite(mean)))
            return 0;
        w->kx[kn] = w->knots[k].x;
        w->ky[kn++] = log(mean);
        k = j;
    }
    return kn;
}

/* Porian et al.'s optimum: the lowest point of Akima's interpolant of
 * ln L against ln N through the budget's sizes (the mean loss where a size
 * repeats), found exactly (ls_akima_min); at the edge when that is its
 * smallest or largest size. */
static optimum akima(const double *x, const double *y, const size_t *idx, size_t m, workspace *w)
{
    optimum o = no_optimum(m);
    size_t kn = akima_knots(x, y, idx, m, w);
    if (kn < 3)
        return o;
    o.xlo = w->kx[0], o.xhi = w->kx[kn - 1];
    int flat = 1;
    for (size_t k = 1; k < kn && flat; k++)
        flat = w->ky[k] == w->ky[0];
    if (flat) {
        o.status = LS_ISOFIT_NOT_CONVEX;
        return o;
    }
    ls_akima_slopes(w->kx, w->ky, kn, w->km, w->kt);
    long knot_at;
    double at, low = ls_akima_min(w->kx, w->ky, w->kt, kn, &at, &knot_at);
    o.x = at;
    o.loss = exp(low);
    o.side = knot_at == 0 ? -1 : knot_at == (long)kn - 1 ? 1 : 0;
    o.status = o.side ? LS_ISOFIT_AT_EDGE : LS_ISOFIT_USED;
    return o;
}

static optimum method_optimum(ls_isofit_method method, const double *x, const double *y, const size_t *idx, size_t m,
                              workspace *w)
{
    switch (method) {
    case LS_ISOFIT_PARABOLA: return parabola(x, y, idx, m);
    case LS_ISOFIT_MINIMUM: return lowest(x, y, idx, m);
    case LS_ISOFIT_AKIMA: return akima(x, y, idx, m, w);
    }
    return no_optimum(m);
}

/* The optimum of one budget from the runs idx[0..m). */
static optimum budget_optimum(const ls_isofit_options *o, const double *x, const double *y, const size_t *idx, size_t m,
                              workspace *w)
{
    optimum none = no_optimum(m);
    if (m < o->min_runs)
        return none;
    optimum first = method_optimum(o->method, x, y, idx, m, w);
    /* Centred on a vertex beyond the sizes, the filter would keep nothing
     * and hide why: such a budget stays "at the edge". */
    if (!(o->keep_factor > 1) || first.status != LS_ISOFIT_USED)
        return first;
    /* Porian et al.'s filter: the runs within a factor k of this optimum. */
    double half = log(o->keep_factor);
    size_t kept = 0;
    for (size_t k = 0; k < m; k++)
        if (fabs(x[idx[k]] - first.x) <= half)
            w->kept[kept++] = idx[k];
    if (kept < o->min_runs) {
        none.used = kept;
        return none;
    }
    return method_optimum(o->method, x, y, w->kept, kept, w);
}

/* Why no power law: how many budgets each reason left out, whether --keep dropped
 * runs, and, when most budgets hold a single run (FLOPs spread continuously, as in
 * points read off a figure), that --group-tol groups them. */
static void explain_failure(const ls_isofit_result *out, size_t nb, const ls_isofit_options *o, char *buf, size_t size)
{
    size_t count[LS_ISOFIT_NOISE_EDGE + 1] = {0}, single = 0, kept_fewer = 0;
    for (size_t b = 0; b < nb; b++) {
        const ls_isofit_budget *bu = &out->budgets[b];
        count[bu->status <= LS_ISOFIT_NOISE_EDGE ? bu->status : 0]++;
        single += bu->runs == 1;
        kept_fewer += bu->used < bu->runs && o->keep_factor > 1;
    }
    size_t len = 0;
    buf[0] = '\0';
    for (int k = LS_ISOFIT_TOO_FEW_RUNS; k <= LS_ISOFIT_NOISE_EDGE && len < size; k++)
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

/* Least squares ln N_opt = ln G + a ln F over the budgets with ok[i]: the
 * slope, intercept, R^2 and the slope's standard error from the residuals,
 *   se(a)^2 = sum r_i^2 / ((m - 2) sum (ln F_i - mean)^2),
 * which, with R^2, needs three budgets (NaN with two). */
typedef struct line_fit {
    double slope, intercept, r2, se;
    size_t m;
} line_fit;

static int power_law(const double *lnf, const double *lnn, const unsigned char *ok, size_t nb, line_fit *f)
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
    f->m = m;
    f->slope = sxy / sxx;
    f->intercept = my - f->slope * mx;
    f->r2 = f->se = NAN;
    if (m >= 3) {
        double ssr = 0;
        for (size_t i = 0; i < nb; i++)
            if (ok[i]) {
                double r = lnn[i] - (f->intercept + f->slope * lnf[i]);
                ssr += r * r;
            }
        f->r2 = syy > 0 ? sxy * sxy / (sxx * syy) : 1.0;
        f->se = sqrt(ssr / (double)(m - 2) / sxx);
    }
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

/* The q-quantile of v[0..n), sorted in place. */
static double quantile(double *v, size_t n, double q)
{
    gsl_sort(v, 1, n);
    return gsl_stats_quantile_from_sorted_data(v, 1, n, q);
}

static int check_options(const ls_isofit_options *o, ls_error *err)
{
    if (!ls_isofit_method_name(o->method))
        return ls_error_set(err, LS_ERR_USAGE, "unknown IsoFLOP method");
    if (o->keep_factor != 0 && !(o->keep_factor > 1 && isfinite(o->keep_factor)))
        return ls_error_set(err, LS_ERR_USAGE, "the filter factor must be greater than 1");
    if (!(o->level > 0 && o->level < 1))
        return ls_error_set(err, LS_ERR_USAGE, "the interval level must be between 0 and 1");
    if ((o->bootstrap > 0 && o->bootstrap < LS_FIT_MIN_INTERVAL_DRAWS) ||
        (o->noise_draws > 0 && o->noise_draws < LS_FIT_MIN_INTERVAL_DRAWS))
        return ls_error_set(err, LS_ERR_USAGE, "%zu draws are too few for an interval: at least %d (or 0 for none)",
                            o->bootstrap > 0 ? o->bootstrap : o->noise_draws, LS_FIT_MIN_INTERVAL_DRAWS);
    if (o->bootstrap > 0 && o->noise_draws > 0)
        return ls_error_set(err, LS_ERR_USAGE, "resampling the runs (bootstrap) and noising their losses (noise "
                            "draws) are two ways to an interval: ask for one");
    if (!(o->noise_sd >= 0 && isfinite(o->noise_sd)))
        return ls_error_set(err, LS_ERR_USAGE, "the loss noise must be a standard deviation, 0 or more");
    if (o->noise_draws > 0 && !(o->noise_sd > 0))
        return ls_error_set(err, LS_ERR_USAGE, "noised copies need the losses' noise: its standard deviation between "
                            "seeds, in loss units (Porian et al. take 0.002 for RefinedWeb, 0.01 for OpenWebText2)");
    return 0;
}

/* The state of one run of ls_isofit_run, shared by its steps. */
typedef struct isofit_state {
    ls_isofit_options opt; /* min_runs raised to what the method needs */
    size_t n, nb;
    double *x, *y, *ratio; /* per run: ln N_act, loss, N_unroll / N_act */
    size_t *idx, *start;   /* idx[start[b] .. start[b+1]) lists budget b's runs */
    double *lnf, *lnn, *lnd;
    unsigned char *ok;     /* budget b enters the power law */
    signed char *side;     /* budget b's optimum is at its smallest (-1) or largest (+1) size */
    workspace w;
    gsl_rng *rng;
} isofit_state;

/* Budget b's optimum at ln N = x with loss `loss` (interior), or none. */
static void set_optimum(isofit_state *st, ls_isofit_budget *bu, size_t b, int interior, double x, double loss)
{
    bu->n_opt = interior ? exp(x) : NAN;
    bu->loss_opt = interior ? loss : NAN;
    /* The tokens a model of size N_opt trains on at this budget:
     * F = 6 N_unroll D, N_unroll read off the budget's runs. */
    size_t m = st->start[b + 1] - st->start[b];
    bu->d_opt = interior ? bu->flops / (6.0 * bu->n_opt * unroll_ratio_at(st->x, st->ratio, st->idx + st->start[b], m, x))
                         : NAN;
    st->lnn[b] = x;
    st->lnd[b] = log(bu->d_opt);
    st->ok[b] = (unsigned char)(interior != 0);
}

/* The optimum of every budget from the runs as they are. */
static void budgets_fit(isofit_state *st, ls_isofit_result *out)
{
    for (size_t b = 0; b < st->nb; b++) {
        ls_isofit_budget *bu = &out->budgets[b];
        size_t m = st->start[b + 1] - st->start[b];
        optimum op = budget_optimum(&st->opt, st->x, st->y, st->idx + st->start[b], m, &st->w);
        bu->runs = m;
        bu->used = op.used;
        bu->status = op.status;
        /* Only an interior optimum is one: a vertex beyond the sizes
         * sampled may lie anywhere (N = 1e39, a loss below zero). */
        set_optimum(st, bu, b, op.status == LS_ISOFIT_USED, op.x, op.loss);
        bu->n_lo = bu->n_hi = NAN;
        bu->ln_n_centre = op.centre, bu->c0 = op.c0, bu->c1 = op.c1, bu->c2 = op.c2;
        bu->n_fit_lo = exp(op.xlo), bu->n_fit_hi = exp(op.xhi);
        st->lnf[b] = log(bu->flops);
        st->side[b] = (signed char)(op.status == LS_ISOFIT_AT_EDGE ? op.side : 0);
    }
}

/* The percentile interval of each used budget's N_opt from its draws
 * v[b * nd + 0 .. count[b]) (scratch: nd). */
static void budget_intervals(ls_isofit_result *out, const double *v, const size_t *count, size_t nd, double tail,
                             double *scratch)
{
    for (size_t b = 0; b < out->nbudgets; b++) {
        ls_isofit_budget *bu = &out->budgets[b];
        bu->draws_ok = count[b];
        /* An interval is about an estimate: none for a budget the full
         * data leaves without an interior optimum. */
        if (count[b] >= LS_FIT_MIN_INTERVAL_DRAWS && bu->status == LS_ISOFIT_USED) {
            memcpy(scratch, v + b * nd, count[b] * sizeof *scratch);
            bu->n_lo = quantile(scratch, count[b], tail);
            bu->n_hi = quantile(scratch, count[b], 1.0 - tail);
        }
    }
}

/* Porian et al.'s noised copies (their analysis.py, interp_flop with
 * bs_median_as_obs): noise_draws copies of the runs with N(0, noise_sd^2)
 * added to each loss, every budget's optimum found again in each.  A
 * budget interior in fewer than half the copies is left out
 * (LS_ISOFIT_NOISE_EDGE); the others take the median N_opt and loss of
 * their interior copies.  Their exponent draws pair the i-th interior copy
 * of every budget used: draw i fits the power law through those, for i
 * below the fewest any budget has.  Draws are kept in v[b * nd + j]
 * (j < count[b], in the order drawn). */
static int noise_draws(isofit_state *st, ls_isofit_result *out, double *v, double *vloss, size_t *count,
                       double *draw_a, double *scratch)
{
    size_t nd = st->opt.noise_draws, nb = st->nb;
    double *yn = malloc((st->n ? st->n : 1) * sizeof *yn), *lnn = malloc((nb ? nb : 1) * sizeof *lnn);
    if (!yn || !lnn) {
        free(yn);
        free(lnn);
        return -1;
    }
    memcpy(yn, st->y, st->n * sizeof *yn);
    for (size_t d = 0; d < nd; d++)
        for (size_t b = 0; b < nb; b++) {
            const size_t *idx = st->idx + st->start[b];
            size_t m = st->start[b + 1] - st->start[b];
            for (size_t k = 0; k < m; k++)
                yn[idx[k]] = st->y[idx[k]] + gsl_ran_gaussian(st->rng, st->opt.noise_sd);
            optimum op = budget_optimum(&st->opt, st->x, yn, idx, m, &st->w);
            if (op.status == LS_ISOFIT_USED) {
                v[b * nd + count[b]] = exp(op.x);
                vloss[b * nd + count[b]] = op.loss;
                count[b]++;
            }
        }
    size_t pairs = SIZE_MAX;
    out->nused = 0;
    for (size_t b = 0; b < nb; b++) {
        ls_isofit_budget *bu = &out->budgets[b];
        if (bu->status != LS_ISOFIT_USED)
            continue;
        if (count[b] < nd / 2) {
            bu->status = LS_ISOFIT_NOISE_EDGE;
            set_optimum(st, bu, b, 0, NAN, NAN);
            continue;
        }
        memcpy(scratch, v + b * nd, count[b] * sizeof *scratch);
        double n_med = quantile(scratch, count[b], 0.5);
        memcpy(scratch, vloss + b * nd, count[b] * sizeof *scratch);
        set_optimum(st, bu, b, 1, log(n_med), quantile(scratch, count[b], 0.5));
        pairs = count[b] < pairs ? count[b] : pairs;
        out->nused++;
    }
    out->ndraws = 0;
    for (size_t i = 0; out->nused >= 2 && i < pairs; i++) {
        for (size_t b = 0; b < nb; b++)
            lnn[b] = st->ok[b] ? log(v[b * nd + i]) : NAN;
        line_fit f;
        if (power_law(st->lnf, lnn, st->ok, nb, &f) == 0)
            draw_a[out->ndraws++] = f.slope;
    }
    free(yn);
    free(lnn);
    return 0;
}

/* The bootstrap: each budget's runs resampled with replacement, every
 * optimum and the power law found again; draw d's exponent from the
 * budgets interior in it (at least two). */
static int resample_draws(isofit_state *st, ls_isofit_result *out, double *v, size_t *count, double *draw_a)
{
    size_t nd = st->opt.bootstrap, nb = st->nb;
    unsigned char *dok = malloc(nb ? nb : 1);
    double *dln = malloc((nb ? nb : 1) * sizeof *dln);
    size_t *res = malloc((st->n ? st->n : 1) * sizeof *res);
    if (!dok || !dln || !res) {
        free(dok);
        free(dln);
        free(res);
        return -1;
    }
    out->ndraws = 0;
    for (size_t d = 0; d < nd; d++) {
        for (size_t b = 0; b < nb; b++) {
            size_t m = st->start[b + 1] - st->start[b];
            for (size_t k = 0; k < m; k++)
                res[k] = st->idx[st->start[b] + gsl_rng_uniform_int(st->rng, m)];
            optimum op = budget_optimum(&st->opt, st->x, st->y, res, m, &st->w);
            dok[b] = op.status == LS_ISOFIT_USED;
            dln[b] = op.x;
            if (dok[b])
                v[b * nd + count[b]++] = exp(op.x);
        }
        line_fit f;
        if (power_law(st->lnf, dln, dok, nb, &f) == 0)
            draw_a[out->ndraws++] = f.slope;
    }
    free(dok);
    free(dln);
    free(res);
    return 0;
}

/* The draws' intervals (resampled runs or noised losses) into out. */
static int draw_intervals(isofit_state *st, ls_isofit_result *out, ls_error *err)
{
    size_t nd = st->opt.bootstrap ? st->opt.bootstrap : st->opt.noise_draws, nb = st->nb;
    double *v = malloc(nd * (nb ? nb : 1) * sizeof *v), *vloss = malloc(nd * (nb ? nb : 1) * sizeof *vloss);
    double *draw_a = malloc(nd * sizeof *draw_a), *scratch = malloc(nd * sizeof *scratch);
    size_t *count = calloc(nb ? nb : 1, sizeof *count);
    st->rng = gsl_rng_alloc(gsl_rng_mt19937);
    int status = 0;
    if (!v || !vloss || !draw_a || !scratch || !count || !st->rng) {
        status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    } else {
        gsl_rng_set(st->rng, st->opt.seed);
        if ((st->opt.bootstrap ? resample_draws(st, out, v, count, draw_a)
                               : noise_draws(st, out, v, vloss, count, draw_a, scratch)) != 0)
            status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    }
    double tail = (1.0 - st->opt.level) / 2.0;
    /* As for fit: fewer draws than that give no percentile interval worth
     * printing (one draw is an interval of zero width). */
    if (status == 0 && out->ndraws >= LS_FIT_MIN_INTERVAL_DRAWS) {
        out->a_lo = quantile(draw_a, out->ndraws, tail);
        out->a_hi = quantile(draw_a, out->ndraws, 1.0 - tail);
    }
    if (status == 0)
        budget_intervals(out, v, count, nd, tail, scratch);
    free(v);
    free(vloss);
    free(draw_a);
    free(scratch);
    free(count);
    return status;
}

/* The warnings of a result (isofit.h). */
static int add_warnings(const isofit_state *st, ls_isofit_result *out)
{
    int status = 0;
    char flops[32], subject[40], size[32];
    for (size_t b = 0; b < out->nbudgets && status == 0; b++) {
        const ls_isofit_budget *bu = &out->budgets[b];
        snprintf(flops, sizeof flops, "%.4g", bu->flops);
        snprintf(subject, sizeof subject, "F=%s", flops);
        if (bu->status == LS_ISOFIT_AT_EDGE && st->side[b]) {
            snprintf(size, sizeof size, "%.4g", st->side[b] < 0 ? bu->n_fit_lo : bu->n_fit_hi);
            status = ls_warnings_add(&out->warnings, LS_WARNING_SEARCH_EDGE, subject,
                                     "budget F = %s: its optimum lies at or %s its %s size (N_act = %s), so the "
                                     "budget is left out of the power law; %s models would place it", flops,
                                     st->side[b] < 0 ? "below" : "above",
                                     st->side[b] < 0 ? "smallest" : "largest", size,
                                     st->side[b] < 0 ? "smaller" : "larger");
        } else if (bu->status == LS_ISOFIT_NOISE_EDGE) {
            status = ls_warnings_add(&out->warnings, LS_WARNING_SEARCH_EDGE, subject,
                                     "budget F = %s: its optimum lies inside its sizes, but %zu of %zu noised copies "
                                     "of the losses have none inside them, more than half: left out of the power law, "
                                     "as Porian et al. do", flops, st->opt.noise_draws - bu->draws_ok,
                                     st->opt.noise_draws);
        }
    }
    if (status == 0 && out->nused == 2)
        status = ls_warnings_add(&out->warnings, LS_WARNING_FIT_QUALITY, "",
                                 "the power law rests on two budgets: a line through two points has no error to "
                                 "judge it by (no R^2, no least-squares interval)");
    size_t asked = st->opt.bootstrap ? st->opt.bootstrap : st->opt.noise_draws;
    if (status == 0 && asked > 0 && !isfinite(out->a_lo)) {
        if (st->opt.bootstrap)
            status = ls_warnings_add(&out->warnings, LS_WARNING_FIT_QUALITY, "",
                                     "only %zu of %zu bootstrap draws gave an exponent, too few for an interval (at "
                                     "least %d): none given", out->ndraws, asked, LS_FIT_MIN_INTERVAL_DRAWS);
        else
            status = ls_warnings_add(&out->warnings, LS_WARNING_FIT_QUALITY, "",
                                     "only %zu of %zu noised copies had an interior optimum in every budget used, too "
                                     "few for an interval (at least %d): none given", out->ndraws, asked,
                                     LS_FIT_MIN_INTERVAL_DRAWS);
    }
    return status;
}

int ls_isofit_run(const ls_sweep *s, const ls_isofit_options *o, ls_isofit_result *out, ls_error *err)
{
    memset(out, 0, sizeof *out);
    out->a = out->ln_g = out->b = out->ln_h = out->r2 = out->a_lo = out->a_hi = NAN;
    out->a_se = out->a_ls_lo = out->a_ls_hi = NAN;
    if (check_options(o, err) != 0)
        return LS_ERR_USAGE;
    if (!s->has_loss)
        return ls_error_set(err, LS_ERR_DATA, "%s: IsoFLOP minima need a loss column", s->name);
    if (one_architecture(s, err) != 0)
        return LS_ERR_DATA;
    size_t n = s->n, min_runs = o->min_runs < 1 ? 1 : o->min_runs;
    isofit_state st = {.opt = *o, .n = n};
    st.opt.min_runs = o->method != LS_ISOFIT_MINIMUM && min_runs < 3 ? 3 : min_runs;
    for (size_t i = 0; o->method == LS_ISOFIT_AKIMA && i < n; i++)
        if (!(s->rows[i].loss > 0))
            return ls_error_set(err, LS_ERR_DATA, "%s: line %ld: loss %g: Akima's interpolant is of ln L and needs "
                                "losses above 0", s->name, s->rows[i].line, s->rows[i].loss);
    size_t n1 = n ? n : 1;
    double *flops = malloc(n1 * sizeof *flops);
    st.x = malloc(n1 * sizeof *st.x);
    st.y = malloc(n1 * sizeof *st.y);
    st.ratio = malloc(n1 * sizeof *st.ratio);
    size_t *group = malloc(n1 * sizeof *group), *fill = NULL;
    st.idx = malloc(n1 * sizeof *st.idx);
    ls_grouping g = {0};
    int status = 0;
    if (!flops || !st.x || !st.y || !st.ratio || !group || !st.idx || workspace_alloc(&st.w, n) != 0)
        status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    for (size_t i = 0; status == 0 && i < n; i++) {
        ls_law_point p = ls_sweep_row_point(&s->rows[i]);
        flops[i] = ls_law_training_flops(&p);
        st.ratio[i] = ls_law_n_unroll(&p) / p.n_act;
        st.x[i] = log(s->rows[i].n_act);
        st.y[i] = s->rows[i].loss;
    }
    if (status == 0)
        status = ls_group_values(flops, n, o->group_tol, group, &g, err);
    size_t nb = st.nb = g.n, nb1 = nb ? nb : 1;
    if (status == 0) {
        out->budgets = calloc(nb1, sizeof *out->budgets);
        st.lnf = calloc(nb1, sizeof *st.lnf);
        st.lnn = calloc(nb1, sizeof *st.lnn);
        st.lnd = calloc(nb1, sizeof *st.lnd);
        st.ok = calloc(nb1, 1);
        st.side = calloc(nb1, 1);
        st.start = calloc(nb + 1, sizeof *st.start);
        fill = calloc(nb1, sizeof *fill);
        out->run_budget = malloc(n1 * sizeof *out->run_budget);
        if (!out->budgets || !st.lnf || !st.lnn || !st.lnd || !st.ok || !st.side || !st.start || !fill ||
            !out->run_budget)
            status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    }
    if (status == 0) {
        out->nbudgets = nb;
        out->nruns = n;
        memcpy(out->run_budget, group, n * sizeof *group);
        for (size_t i = 0; i < n; i++)
            st.start[group[i] + 1]++;
        for (size_t b = 0; b < nb; b++)
            st.start[b + 1] += st.start[b];
        memcpy(fill, st.start, nb * sizeof *fill);
        for (size_t i = 0; i < n; i++)
            st.idx[fill[group[i]]++] = i;
        for (size_t b = 0; b < nb; b++) {
            /* The budget's own FLOPs, the geometric mean of its runs' F: with a loose
             * --group-tol a group spans 5.7e19..7.4e19 and its rounded label (7e19)
             * would bias the fitted exponent. */
            double sum_ln = 0.0;
            size_t m = st.start[b + 1] - st.start[b];
            for (size_t k = st.start[b]; k < st.start[b + 1]; k++)
                sum_ln += log(flops[st.idx[k]]);
            out->budgets[b].flops = m ? exp(sum_ln / (double)m) : g.label[b];
        }
        budgets_fit(&st, out);
        out->nused = 0;
        for (size_t b = 0; b < nb; b++)
            out->nused += st.ok[b];
        /* Porian et al.'s noised copies move the estimates themselves (each
         * budget's median optimum), so they come before the power law. */
        if (o->noise_draws > 0)
            status = draw_intervals(&st, out, err);
    }
    line_fit f = {0};
    if (status == 0) {
        if (power_law(st.lnf, st.lnn, st.ok, nb, &f) != 0) {
            char why[512];
            explain_failure(out, nb, o, why, sizeof why);
            char needs[96];
            if (o->method == LS_ISOFIT_MINIMUM)
                snprintf(needs, sizeof needs, "%zu %s, its lowest loss inside its sizes", st.opt.min_runs,
                         st.opt.min_runs == 1 ? "run" : "runs");
            else
                snprintf(needs, sizeof needs, "%zu runs at 3 or more sizes, with the lowest loss inside them",
                         st.opt.min_runs);
            status = ls_error_set(err, LS_ERR_DATA,
                                  "%s: %zu of %zu budgets have an interior optimum; the power law needs two "
                                  "(a budget needs %s)%s",
                                  s->name, out->nused, nb, needs, why);
        } else {
            out->a = f.slope, out->ln_g = f.intercept, out->r2 = f.r2, out->a_se = f.se;
            if (f.m >= 3) {
                double t = gsl_cdf_tdist_Pinv(1.0 - (1.0 - o->level) / 2.0, (double)(f.m - 2));
                out->a_ls_lo = f.slope - t * f.se;
                out->a_ls_hi = f.slope + t * f.se;
            }
            /* D_opt = H F^b by least squares too: for a plain sweep that is
             * exactly b = 1 - a and H = 1 / (6 G); a looped one's N_unroll /
             * N_act may drift with size. */
            line_fit fd;
            if (power_law(st.lnf, st.lnd, st.ok, nb, &fd) != 0)
                status = ls_error_set(err, LS_ERR_INTERNAL, "the tokens' power law failed where the sizes' did not");
            out->b = fd.slope, out->ln_h = fd.intercept;
        }
    }
    if (status == 0 && o->bootstrap > 0)
        status = draw_intervals(&st, out, err);
    if (status == 0 && add_warnings(&st, out) != 0)
        status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    gsl_rng_free(st.rng);
    workspace_free(&st.w);
    free(st.lnf);
    free(st.lnn);
    free(st.lnd);
    free(st.ok);
    free(st.side);
    free(st.start);
    free(fill);
    ls_grouping_free(&g);
    free(flops);
    free(st.x);
    free(st.y);
    free(st.ratio);
    free(group);
    free(st.idx);
    if (status != 0)
        ls_isofit_result_free(out);
    return status;
}

/* ---- the figure (Hoffmann et al.'s figure 3) ---------------------------- */

enum { CURVE_POINTS = 64 };
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
    int curve = o->method != LS_ISOFIT_MINIMUM;
    size_t need = curve && o->min_runs < 3 ? 3 : o->min_runs;
    snprintf(note, sizeof note, "Too few runs (a budget needs %zu runs%s) at F = %s.", need,
             curve ? " at 3 or more sizes" : "", text);
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

/* The figure's scratch: x and y of max(s->n, CURVE_POINTS), sel and a
 * workspace of s->n runs. */
typedef struct plot_scratch {
    double *x, *y;
    size_t *sel;
    workspace w;
} plot_scratch;

/* Budget b's curve over the sizes fitted, into ps->x, ps->y (CURVE_POINTS):
 * its parabola, or Akima's interpolant rebuilt from the runs it went
 * through, the same numbers as ls_isofit_run's; 0 when it has none. */
static size_t curve_points(const ls_sweep *s, const ls_isofit_options *o, const ls_isofit_result *r, size_t b,
                           plot_scratch *ps)
{
    const ls_isofit_budget *bu = &r->budgets[b];
    double *x = ps->x, *y = ps->y;
    size_t *sel = ps->sel;
    workspace *w = &ps->w;
    if (!(bu->n_fit_lo < bu->n_fit_hi))
        return 0;
    double lo = log(bu->n_fit_lo), hi = log(bu->n_fit_hi);
    if (o->method == LS_ISOFIT_AKIMA) {
        size_t m = 0;
        for (size_t i = 0; i < s->n; i++)
            if (r->run_budget[i] == b && run_in_fit(s, bu, i))
                sel[m++] = i;
        for (size_t k = 0; k < m; k++) { /* akima_knots reads ln N and L by run */
            x[k] = log(s->rows[sel[k]].n_act);
            y[k] = s->rows[sel[k]].loss;
            sel[k] = k;
        }
        size_t kn = akima_knots(x, y, sel, m, w);
        if (kn < 3)
            return 0;
        ls_akima_slopes(w->kx, w->ky, kn, w->km, w->kt);
        for (size_t k = 0; k < CURVE_POINTS; k++) {
            double u = w->kx[0] + (w->kx[kn - 1] - w->kx[0]) * (double)k / (CURVE_POINTS - 1);
            x[k] = exp(u);
            y[k] = exp(ls_akima_eval(w->kx, w->ky, w->kt, kn, u));
        }
        return CURVE_POINTS;
    }
    if (!isfinite(bu->c2))
        return 0;
    for (size_t k = 0; k < CURVE_POINTS; k++) {
        double u = lo + (hi - lo) * (double)k / (CURVE_POINTS - 1) - bu->ln_n_centre;
        x[k] = exp(u + bu->ln_n_centre);
        y[k] = bu->c0 + bu->c1 * u + bu->c2 * u * u;
    }
    return CURVE_POINTS;
}

/* Budget b on the left panel: its runs as markers of the given shape (hollow
 * outside the sizes fitted, i.e. dropped by --keep, and for a budget left
 * out), its parabola or interpolant over the sizes fitted, and, for a
 * budget used, its optimum as a star (a budget left out may have its
 * vertex far outside its sizes). */
static void draw_budget(chart_panel *p, const ls_sweep *s, const ls_isofit_options *o, const ls_isofit_result *r,
                        size_t b, int color, chart_marker marker, int star_color, plot_scratch *ps)
{
    const ls_isofit_budget *bu = &r->budgets[b];
    double *x = ps->x, *y = ps->y;
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
    size_t np = curve_points(s, o, r, b, ps);
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

/* The left panel's loss range: that of the runs fitted and the curves,
 * with a margin, when --keep set runs aside (they may lie far above the
 * curves and would squash them); the runs set aside beyond it are counted
 * in a note. */
static void loss_range(chart *c, chart_panel *p, const ls_sweep *s, const ls_isofit_options *o, const ls_isofit_result *r,
                       plot_scratch *ps)
{
    const double *y = ps->y;
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
        size_t np = curve_points(s, o, r, b, ps);
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
    if (isfinite(r->r2))
        snprintf(text, sizeof text, "Runs: %s, %zu budgets, %zu in the power law (R<sup>2</sup> %.4f of ln "
                 "N<sub>opt</sub> on ln F).", name, r->nbudgets, r->nused, r->r2);
    else
        snprintf(text, sizeof text, "Runs: %s, %zu budgets, %zu in the power law (a line through two points).", name,
                 r->nbudgets, r->nused);
    ls_chart_note(c, text);
    if (o->method == LS_ISOFIT_PARABOLA)
        snprintf(text, sizeof text, "Each optimum (star) is the vertex of the least-squares parabola of the loss in "
                 "ln N<sub>act</sub> (Chinchilla approach 2); hollow: left out of the power law, with no star.");
    else if (o->method == LS_ISOFIT_MINIMUM)
        snprintf(text, sizeof text, "Each optimum (star, in its budget's colour) is the budget's lowest-loss run "
                 "(Chinchilla approach 1); hollow: left out of the power law, with no star.");
    else
        snprintf(text, sizeof text, "Each optimum (star) is the minimum of Akima's interpolant of ln L in "
                 "ln N<sub>act</sub> (Porian et al.); hollow: left out of the power law, with no star.");
    ls_chart_note(c, text);
    if (o->noise_draws > 0) {
        snprintf(text, sizeof text, "Each optimum is the median over %zu copies of the losses with noise of standard "
                 "deviation %g, so a star may sit off its curve.", o->noise_draws, o->noise_sd);
        ls_chart_note(c, text);
    }
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
    int at = snprintf(title, sizeof title, "IsoFLOP minima (%s): N<sub>opt</sub> ~ F<sup>%.4f</sup>",
                      o->method == LS_ISOFIT_PARABOLA  ? "Chinchilla approach 2"
                      : o->method == LS_ISOFIT_MINIMUM ? "Chinchilla approach 1"
                                                       : "Akima, Porian et al.",
                      r->a);
    if (isfinite(r->a_lo) && at > 0 && (size_t)at < sizeof title)
        snprintf(title + at, sizeof title - (size_t)at, ", a in [%.4f, %.4f] (%g%%)", r->a_lo, r->a_hi,
                 100 * o->level);
    size_t scratch = s->n > CURVE_POINTS ? s->n : CURVE_POINTS;
    chart *c = ls_chart_new(title, 1, 2);
    plot_scratch ps = {.x = malloc(scratch * sizeof *ps.x), .y = malloc(scratch * sizeof *ps.y),
                       .sel = malloc(scratch * sizeof *ps.sel)};
    int *color = malloc(r->nbudgets * sizeof *color);
    unsigned char *pick = calloc(r->nbudgets, 1), *bytes = NULL;
    if (!c || !ps.x || !ps.y || !ps.sel || workspace_alloc(&ps.w, s->n) != 0 || !color || !pick) {
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
        draw_budget(left, s, o, r, b, color[b], marker, minimum ? color[b] : CHART_BLACK, &ps);
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
    ls_chart_legend(c,
                    minimum                               ? "optimum: the lowest run"
                    : o->method == LS_ISOFIT_PARABOLA ? "optimum: the parabola's vertex"
                                                          : "optimum: the interpolant's minimum",
                    &star);
    ls_chart_legend_brief(c, "optimum");
    draw_power_laws(right, r, color);
    describe(c, s, o, r);
    loss_range(c, left, s, o, r, &ps);
    bytes = ls_chart_render(c, out, len, err);
done:
    ls_chart_free(c);
    free(ps.x);
    free(ps.y);
    free(ps.sel);
    workspace_free(&ps.w);
    free(color);
    free(pick);
    return bytes;
}
