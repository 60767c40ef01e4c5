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
            return ls_error_set(err, LS_ERR_DATA, "%s:%ld: loss %g: Akima's interpolant is of ln L and needs "
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

/* ---- the curves a figure draws (Hoffmann et al.'s figure 3) --------------- */

void ls_isofit_curves_free(ls_isofit_curves *c)
{
    if (!c)
        return;
    free(c->count);
    free(c->n_act);
    free(c->loss);
    memset(c, 0, sizeof *c);
}

/* Run i lies in the sizes its budget was fitted over. */
static int run_in_fit(const ls_sweep *s, const ls_isofit_budget *bu, size_t i)
{
    double n = s->rows[i].n_act;
    return n >= bu->n_fit_lo * (1 - 1e-12) && n <= bu->n_fit_hi * (1 + 1e-12);
}

/* Budget b's curve into x, y (`points` each; sel, lx, ly and w: scratch
 * of s->n runs); returns `points`, or 0 when it has none. */
static size_t budget_curve(const ls_sweep *s, const ls_isofit_options *o, const ls_isofit_result *r, size_t b,
                           size_t points, double *x, double *y, size_t *sel, double *lx, double *ly, workspace *w)
{
    const ls_isofit_budget *bu = &r->budgets[b];
    if (!(bu->n_fit_lo < bu->n_fit_hi))
        return 0;
    if (o->method == LS_ISOFIT_AKIMA) {
        /* Rebuilt from the runs it went through: the same knots as
         * ls_isofit_run's (akima_knots reads ln N and L by run). */
        size_t m = 0;
        for (size_t i = 0; i < s->n; i++)
            if (r->run_budget[i] == b && run_in_fit(s, bu, i))
                sel[m++] = i;
        for (size_t k = 0; k < m; k++) {
            lx[k] = log(s->rows[sel[k]].n_act);
            ly[k] = s->rows[sel[k]].loss;
            sel[k] = k;
        }
        size_t kn = akima_knots(lx, ly, sel, m, w);
        if (kn < 3)
            return 0;
        ls_akima_slopes(w->kx, w->ky, kn, w->km, w->kt);
        for (size_t k = 0; k < points; k++) {
            double u = w->kx[0] + (w->kx[kn - 1] - w->kx[0]) * (double)k / (double)(points - 1);
            x[k] = exp(u);
            y[k] = exp(ls_akima_eval(w->kx, w->ky, w->kt, kn, u));
        }
        return points;
    }
    if (!isfinite(bu->c2))
        return 0;
    double lo = log(bu->n_fit_lo), hi = log(bu->n_fit_hi);
    for (size_t k = 0; k < points; k++) {
        double u = lo + (hi - lo) * (double)k / (double)(points - 1) - bu->ln_n_centre;
        x[k] = exp(u + bu->ln_n_centre);
        y[k] = bu->c0 + bu->c1 * u + bu->c2 * u * u;
    }
    return points;
}

int ls_isofit_curves_run(const ls_sweep *s, const ls_isofit_options *o, const ls_isofit_result *r, size_t points,
                         ls_isofit_curves *out, ls_error *err)
{
    memset(out, 0, sizeof *out);
    if (r->nruns != s->n || !r->run_budget || r->nbudgets == 0)
        return ls_error_set(err, LS_ERR_USAGE, "the IsoFLOP result is not of these runs");
    if (points < 2)
        return ls_error_set(err, LS_ERR_USAGE, "a curve needs two points or more");
    size_t nb = r->nbudgets;
    out->count = calloc(nb, sizeof *out->count);
    out->n_act = malloc(nb * points * sizeof *out->n_act);
    out->loss = malloc(nb * points * sizeof *out->loss);
    size_t m = s->n ? s->n : 1;
    size_t *sel = malloc(m * sizeof *sel);
    double *lx = malloc(m * sizeof *lx), *ly = malloc(m * sizeof *ly);
    workspace w;
    int status = workspace_alloc(&w, s->n) == 0 && out->count && out->n_act && out->loss && sel && lx && ly ? 0 : -1;
    out->nbudgets = nb;
    out->points = points;
    for (size_t b = 0; status == 0 && b < nb; b++)
        out->count[b] = budget_curve(s, o, r, b, points, out->n_act + b * points, out->loss + b * points, sel, lx, ly,
                                     &w);
    free(sel);
    free(lx);
    free(ly);
    workspace_free(&w);
    if (status != 0) {
        ls_isofit_curves_free(out);
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    }
    return 0;
}
