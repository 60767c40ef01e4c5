#include "loopscale/plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart_internal.h"
#include "text_internal.h"

#include "numtext_internal.h"

#define MAX_GROUPS 8
#define CURVE_POINTS 48

/* ---- small helpers ------------------------------------------------------- */

/* A number as a reader wants it in a figure, as markup: 3 significant
 * digits, large and small ones as m x 10^k with a superscript ("3x10^8",
 * "10^21", "0.6"). */
static void short_number(char *buf, size_t size, double x) { ls_chart_number(buf, size, x); }

/* Plain text (a file or column name) as markup. */
static void plain(char *buf, size_t size, const char *text) { ls_text_escape_xml(buf, size, text, 0); }

/* A held-out column's label as markup: "N=1e+09" as "N = 10^9" (the way
 * every other number in a figure is written), any other split as given. */
static void column_label(char *buf, size_t size, const char *label)
{
    const char *eq = strchr(label, '=');
    char *end = NULL;
    double v = eq && eq > label && eq[1] ? strtod(eq + 1, &end) : NAN;
    if (!end || *end != '\0' || !isfinite(v) || strchr(label, '<') || strchr(label, '>') || strchr(label, '!')) {
        plain(buf, size, label);
        return;
    }
    char name[64], num[48];
    snprintf(name, sizeof name, "%.*s", (int)(eq - label), label);
    char esc[128];
    plain(esc, sizeof esc, name);
    short_number(num, sizeof num, v);
    snprintf(buf, size, "%s = %s", esc, num);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static int same(double a, double b) { return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b)); }

/* The distinct values of v (sorted, into out, which holds n); returns how
 * many. */
static size_t distinct(const double *v, size_t n, double *out)
{
    if (n == 0)
        return 0;
    memcpy(out, v, n * sizeof *out);
    qsort(out, n, sizeof *out, cmp_double);
    size_t k = 1;
    for (size_t i = 1; i < n; i++)
        if (!same(out[i], out[k - 1]))
            out[k++] = out[i];
    return k;
}

/* Groups of a quantity for panels or colours: its distinct values when
 * there are at most `max`, else `max` bins even in log space.  edges[g] and
 * edges[g + 1] bound group g (equal for an exact value). */
typedef struct grouping {
    size_t n;
    int binned;
    double lo[MAX_GROUPS], hi[MAX_GROUPS];
    /* binned: the least and greatest value found in each group (what its
     * label says; NaN for a group no value falls in) */
    double min[MAX_GROUPS], max[MAX_GROUPS];
} grouping;

static size_t group_of(const grouping *g, double v);

static void make_grouping(const double *values, size_t n, size_t max, double *scratch, grouping *g)
{
    size_t k = distinct(values, n, scratch);
    memset(g, 0, sizeof *g);
    if (k <= max) {
        g->n = k;
        for (size_t i = 0; i < k; i++)
            g->lo[i] = g->hi[i] = scratch[i];
        return;
    }
    g->n = max;
    g->binned = 1;
    double a = log(scratch[0]), b = log(scratch[k - 1]);
    for (size_t i = 0; i < max; i++) {
        g->lo[i] = exp(a + (b - a) * (double)i / (double)max);
        g->hi[i] = exp(a + (b - a) * (double)(i + 1) / (double)max);
    }
    g->lo[0] = scratch[0];
    g->hi[max - 1] = scratch[k - 1];
    for (size_t i = 0; i < max; i++)
        g->min[i] = g->max[i] = NAN;
    for (size_t j = 0; j < k; j++) { /* scratch is sorted */
        size_t i = group_of(g, scratch[j]);
        if (isnan(g->min[i]))
            g->min[i] = scratch[j];
        g->max[i] = scratch[j];
    }
}

static size_t group_of(const grouping *g, double v)
{
    if (!g->binned) {
        for (size_t i = 0; i < g->n; i++)
            if (same(v, g->lo[i]))
                return i;
        return 0;
    }
    for (size_t i = 0; i + 1 < g->n; i++)
        if (v < g->hi[i])
            return i;
    return g->n - 1;
}

static void group_label(char *buf, size_t size, const char *name, const grouping *g, size_t i)
{
    char a[32], b[32];
    /* A bin is labelled by the values in it, so that two labels never
     * share a value and a bin holding one value says which. */
    double lo = g->binned && !isnan(g->min[i]) ? g->min[i] : g->lo[i];
    double hi = g->binned && !isnan(g->max[i]) ? g->max[i] : g->hi[i];
    short_number(a, sizeof a, lo);
    if (!g->binned || same(lo, hi)) {
        snprintf(buf, size, "%s = %s", name, a);
        return;
    }
    short_number(b, sizeof b, hi);
    snprintf(buf, size, "%s = %s\xe2\x80\x93%s", name, a, b);
}


static unsigned char *finish(chart *f, const ls_figure *o, size_t *len, ls_error *err)
{
    unsigned char *data = ls_chart_render(f, o, len, err);
    ls_chart_free(f);
    return data;
}

static chart *new_figure(const char *title, size_t rows, size_t cols, ls_error *err)
{
    chart *f = ls_chart_new(title, rows, cols);
    if (!f)
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory while building the plot");
    return f;
}

/* ---- uncertainty and extrapolation ------------------------------------------- */

/* Bands use at most this many of a law's bootstrap draws, and none when it
 * has fewer than 20 (too few for a 95% interval). */
#define BAND_DRAWS 200
#define BAND_OPACITY 0.16
#define EXTRAPOLATION_OPACITY 0.07
#define SOLVE_BAND_DRAWS 50
/* IsoFLOP lines inside the fitted ranges and outside them: three times
 * apart, so that thick and thin read at a glance. */
#define ISOFLOP_INSIDE_WIDTH 1.8
#define ISOFLOP_OUTSIDE_WIDTH 0.6
#define OUT_OF_REACH_COLOR CHART_BOUNDARY /* reserved: no E's line shares it */

static size_t band_draws(const ls_lawfile *lf)
{
    if (!lf || lf->ndraws < 20 || !lf->draws)
        return 0;
    return lf->ndraws < BAND_DRAWS ? lf->ndraws : BAND_DRAWS;
}

size_t ls_plot_band_draws(const ls_lawfile *lf) { return band_draws(lf); }

#define NO_BAND_NOTE "No bootstrap draws in the law: no band (fit --bootstrap N records them)."


/* The q-quantile of sorted v[0..n) by linear interpolation. */
static double quantile(const double *v, size_t n, double q)
{
    double h = q * (double)(n - 1);
    size_t i = (size_t)floor(h);
    return i + 1 < n ? v[i] + (h - (double)i) * (v[i + 1] - v[i]) : v[n - 1];
}

/* The central 95% of v[0..n) (sorted in place; NaNs dropped). */
static void central95(double *v, size_t n, double *lo, double *hi)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i]))
            v[m++] = v[i];
    if (m < 2) {
        *lo = *hi = NAN;
        return;
    }
    qsort(v, m, sizeof *v, cmp_double);
    *lo = quantile(v, m, 0.025);
    *hi = quantile(v, m, 0.975);
}

/* The central 95% of the loss at x under the first nd draws. */
static void band_at(const ls_lawfile *lf, size_t nd, const ls_law_point *x, double *scratch, double *lo, double *hi)
{
    for (size_t i = 0; i < nd; i++) {
        ls_law d;
        ls_lawfile_draw(lf, i, &d);
        scratch[i] = ls_law_loss(&d, x);
    }
    central95(scratch, nd, lo, hi);
}

static void band_legend(chart *f, size_t nd, const ls_lawfile *lf)
{
    char text[128];
    chart_style band = ls_chart_line_style(CHART_GREY);
    band.width = 0;
    band.fill_opacity = 0.3;
    if (nd < lf->ndraws)
        snprintf(text, sizeof text, "95%% band over %zu of the law's %zu bootstrap draws", nd, lf->ndraws);
    else
        snprintf(text, sizeof text, "95%% band over the law's %zu bootstrap draws", nd);
    ls_chart_legend(f, text, &band);
    ls_chart_legend_brief(f, "95% band");
}

/* Shade the parts of x beyond [lo, hi] in a panel: what the law never saw. */
static void shade_beyond(chart_panel *p, double lo, double hi)
{
    ls_chart_panel_vspan(p, -INFINITY, lo, CHART_BLACK, EXTRAPOLATION_OPACITY);
    ls_chart_panel_vspan(p, hi, INFINITY, CHART_BLACK, EXTRAPOLATION_OPACITY);
}

static void extrapolation_legend(chart *f, const char *what)
{
    char text[160];
    chart_style sh = ls_chart_line_style(CHART_BLACK);
    sh.width = 0;
    sh.fill_opacity = EXTRAPOLATION_OPACITY * 2;
    sh.hatch = 1;
    snprintf(text, sizeof text, "beyond the fitted %s: extrapolated", what);
    ls_chart_legend(f, text, &sh);
    snprintf(text, sizeof text, "beyond fitted %s", what);
    ls_chart_legend_brief(f, text);
}

/* A line whose points beyond the law's fitted ranges (out[i] != 0) are
 * drawn in the style `beyond`: a segment with either end outside takes it,
 * and so does the marker of a point outside.  Runs of segments alike are
 * drawn as one polyline, so dashes flow. */
static void line_marking_outside(chart_panel *p, const double *x, const double *y, const unsigned char *out, size_t n,
                                 const chart_style *inside, const chart_style *beyond)
{
    chart_style in_line = *inside, out_line = *beyond;
    in_line.marker = out_line.marker = CHART_MARKER_NONE;
    size_t start = 0;
    while (start + 1 < n) {
        int outside = out[start] || out[start + 1];
        size_t end = start + 1; /* the run is [start, end] */
        while (end + 1 < n && (out[end] || out[end + 1]) == outside)
            end++;
        ls_chart_panel_line(p, x + start, y + start, end - start + 1, outside ? &out_line : &in_line);
        start = end;
    }
    for (size_t i = 0; i < n && inside->marker != CHART_MARKER_NONE; i++) {
        chart_style mk = out[i] ? *beyond : *inside;
        mk.width = 0;
        ls_chart_panel_line(p, x + i, y + i, 1, &mk);
    }
}

/* The legend entry of line_marking_outside's `beyond` style ("outside the
 * fitted ranges (N_act, D): extrapolated", after `lead` when not NULL). */
static void outside_legend(chart *f, const chart_style *beyond, unsigned outside, const char *lead)
{
    char text[200];
    snprintf(text, sizeof text, "%soutside the fitted ranges (", lead ? lead : "");
    size_t first = strlen(text);
    size_t used = first;
    for (int q = 0; q < LS_LAW_NRANGES; q++)
        if (outside >> q & 1u) {
            int n = snprintf(text + used, sizeof text - used, "%s%s", used > first ? ", " : "",
                             q == LS_LAW_RANGE_N_ACT ? "N<sub>act</sub>" : ls_law_range_name((ls_law_range)q));
            if (n > 0 && (size_t)n < sizeof text - used)
                used += (size_t)n;
        }
    snprintf(text + used, sizeof text - used, "): extrapolated");
    chart_style st = *beyond;
    st.color = CHART_BLACK;
    ls_chart_legend(f, text, &st);
    ls_chart_legend_brief(f, "extrapolated");
}

/* Ticks at the powers of two in [lo, hi] (loop counts). */
static int powers_of_two(chart_panel *p, double lo, double hi)
{
    double v[40];
    size_t n = 0;
    for (double t = 1; t <= hi * (1 + 1e-9) && n < 40; t *= 2)
        if (t >= lo * (1 - 1e-9))
            v[n++] = t;
    return ls_chart_panel_ticks(p, CHART_AXIS_X, v, n);
}

/* ---- fit ----------------------------------------------------------------------- */

typedef struct fit_view {
    const ls_sweep *s;     /* the runs with N_act, N_total and D snapped to their tiers */
    int by_r;           /* x is R (else D) */
    int key_flops;      /* series at equal training FLOPs (else equal tokens) */
    const double *flops; /* each run's training FLOPs, snapped to its tier */
} fit_view;

static double row_key(const fit_view *v, const ls_sweep_row *r)
{
    if (!v->by_r)
        return r->R;
    if (!v->key_flops)
        return r->tokens;
    return v->flops[r - v->s->rows];
}

/* Replace each of the n values with its group's label (loopscale/group.h),
 * so that a tier a log's rounding scattered (D = F / (6 N_unroll) from
 * FLOPs printed to 6 digits) is one series, one panel, one colour. */
static int snap_to_tiers(const ls_sweep *s, double *v, size_t n, size_t *group, ls_error *err)
{
    ls_grouping g;
    if (ls_sweep_group(s, v, n, group, &g, err) != 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        v[i] = g.label[group[i]];
    ls_grouping_free(&g);
    return 0;
}

/* A copy of s's rows with N_act, N_total and D snapped to their tiers, and
 * the runs' training FLOPs (from the rows as read) snapped likewise. */
static int snapped_rows(const ls_sweep *s, ls_sweep_row **rows, double **flops, ls_error *err)
{
    size_t n = s->n;
    *rows = malloc(n * sizeof **rows);
    *flops = malloc(n * sizeof **flops);
    double *v = malloc(n * sizeof *v);
    size_t *group = malloc(n * sizeof *group);
    int status = *rows && *flops && v && group ? 0 : ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    if (status == 0)
        memcpy(*rows, s->rows, n * sizeof **rows);
    for (int q = 0; q < 4 && status == 0; q++) {
        for (size_t i = 0; i < n; i++) {
            const ls_sweep_row *r = &s->rows[i];
            ls_law_point x = ls_sweep_row_point(r);
            v[i] = q == 0 ? r->n_act : q == 1 ? r->n_total : q == 2 ? r->tokens : ls_law_training_flops(&x);
        }
        status = snap_to_tiers(s, v, n, group, err) == 0 ? 0 : err->code;
        for (size_t i = 0; status == 0 && i < n; i++) {
            ls_sweep_row *r = &(*rows)[i];
            if (q == 0)
                r->n_act = v[i];
            else if (q == 1)
                r->n_total = fmax(v[i], r->n_act);
            else if (q == 2)
                r->tokens = v[i];
            else
                (*flops)[i] = v[i];
        }
    }
    free(v);
    free(group);
    if (status != 0) {
        free(*rows);
        free(*flops);
        *rows = NULL;
        *flops = NULL;
    }
    return status;
}

/* A row's sort key: rows of one series together (same N_act, E, N_total
 * and key), then by x.  Sorting keys rather than rows keeps the comparison
 * free of global state. */
typedef struct row_order {
    double k[5];
    size_t row;
} row_order;

static int cmp_rows(const void *a, const void *b)
{
    const row_order *x = a, *y = b;
    for (int i = 0; i < 5; i++) {
        if (i < 4 && same(x->k[i], y->k[i]))
            continue;
        if (x->k[i] != y->k[i])
            return x->k[i] < y->k[i] ? -1 : 1;
    }
    return 0;
}

/* Sort the rows idx[0..m) of one panel into series (order has room for m). */
static void sort_rows(const fit_view *v, size_t *idx, size_t m, row_order *order)
{
    for (size_t i = 0; i < m; i++) {
        const ls_sweep_row *r = &v->s->rows[idx[i]];
        row_order o = {{r->n_act, r->E, r->n_total, row_key(v, r), v->by_r ? r->R : r->tokens}, idx[i]};
        order[i] = o;
    }
    qsort(order, m, sizeof *order, cmp_rows);
    for (size_t i = 0; i < m; i++)
        idx[i] = order[i].row;
}

static int same_series(const fit_view *v, const ls_sweep_row *a, const ls_sweep_row *b)
{
    return same(a->n_act, b->n_act) && same(a->E, b->E) && same(a->n_total, b->n_total) &&
           same(row_key(v, a), row_key(v, b));
}

/* The law along one series: x from its first to its last run. */
static void fitted_curve(const fit_view *v, const ls_lawfile *lf, const ls_sweep_row *rows, const size_t *idx, size_t n,
                         double *xs, double *ys, size_t nd, double *scratch, double *blo, double *bhi)
{
    const ls_sweep_row *first = &rows[idx[0]];
    double loop_ratio = 0.0;
    for (size_t i = 0; i < n; i++)
        if (rows[idx[i]].R > 1 && !isnan(rows[idx[i]].n_loop)) {
            loop_ratio = rows[idx[i]].n_loop / rows[idx[i]].n_act;
            break;
        }
    double lo = v->by_r ? first->R : first->tokens;
    double hi = v->by_r ? rows[idx[n - 1]].R : rows[idx[n - 1]].tokens;
    for (int k = 0; k < CURVE_POINTS; k++) {
        double t = exp(log(lo) + (log(hi) - log(lo)) * k / (CURVE_POINTS - 1));
        ls_law_point x = ls_sweep_row_point(first);
        x.n_loop = first->n_act * loop_ratio;
        if (v->by_r) {
            x.R = t;
            if (v->key_flops) {
                x.D = ls_law_tokens_for_flops(&x, row_key(v, first));
            }
        } else {
            x.D = t;
        }
        xs[k] = t;
        ys[k] = ls_law_loss(&lf->law, &x);
        if (nd)
            band_at(lf, nd, &x, scratch, &blo[k], &bhi[k]);
    }
}

static unsigned char *plot_fit(const ls_sweep *s, const double *flops, const ls_lawfile *lf, const ls_law *l, double rmse,
                               size_t nd, const ls_figure *o, size_t *len, ls_error *err);

unsigned char *ls_plot_fit(const ls_sweep *read, const ls_lawfile *lf, const ls_figure *o, size_t *len, ls_error *err)
{
    const ls_law *l = &lf->law;
    double rmse = lf->has_fit ? lf->fit.rmse : NAN;
    size_t nd = band_draws(lf);
    if (read->n == 0) {
        ls_error_set(err, LS_ERR_DATA, "no runs to plot");
        return NULL;
    }
    ls_sweep_row *rows = NULL;
    double *flops = NULL;
    if (snapped_rows(read, &rows, &flops, err) != 0)
        return NULL;
    ls_sweep snapped = *read;
    snapped.rows = rows;
    unsigned char *data = plot_fit(&snapped, flops, lf, l, rmse, nd, o, len, err);
    free(rows);
    free(flops);
    return data;
}

/* The fit of a figure too small for its grid of panels (a paper column):
 * every run's observed loss against the law's, coloured by E, beside the
 * residuals. x and y are scratch of s->n values each. */
static unsigned char *plot_fit_compact(const ls_sweep *s, const ls_law *l, const char *kind, double rmse,
                                       const grouping *eg, double *x, double *y, const ls_figure *o, size_t *len,
                                       ls_error *err)
{
    char title[160], text[256];
    snprintf(title, sizeof title, "Observed against fitted loss: %s", kind);
    chart *f = new_figure(title, 1, 2, err);
    if (!f)
        return NULL;
    chart_panel *p = ls_chart_panel(f, 0, 0), *rp = ls_chart_panel(f, 0, 1);
    ls_chart_panel_axis(p, CHART_AXIS_X, "fitted loss", CHART_SCALE_LINEAR);
    ls_chart_panel_axis(p, CHART_AXIS_Y, "observed loss", CHART_SCALE_LINEAR);
    ls_chart_panel_axis(rp, CHART_AXIS_X, "fitted loss", CHART_SCALE_LINEAR);
    ls_chart_panel_axis(rp, CHART_AXIS_Y, "observed \xe2\x88\x92 fitted", CHART_SCALE_LINEAR);
    double lo = INFINITY, hi = -INFINITY;
    for (size_t g = 0; g < eg->n; g++) {
        size_t m = 0;
        for (size_t i = 0; i < s->n; i++) {
            if (group_of(eg, s->rows[i].E) != g)
                continue;
            ls_law_point pt = ls_sweep_row_point(&s->rows[i]);
            x[m] = ls_law_loss(l, &pt);
            y[m] = s->rows[i].loss;
            lo = fmin(lo, fmin(x[m], y[m]));
            hi = fmax(hi, fmax(x[m], y[m]));
            m++;
        }
        chart_style mk = ls_chart_marker_style((int)g, g % 2 ? CHART_MARKER_SQUARE : CHART_MARKER_CIRCLE);
        mk.marker_size = 1.6;
        ls_chart_panel_line(p, x, y, m, &mk);
        group_label(text, sizeof text, "E", eg, g);
        ls_chart_legend(f, text, &mk);
        for (size_t j = 0; j < m; j++)
            y[j] -= x[j];
        ls_chart_panel_line(rp, x, y, m, &mk);
    }
    chart_style diag = ls_chart_line_style(CHART_GREY);
    diag.dash = CHART_DASH_DASHED;
    diag.width = 0.8;
    if (lo < hi) {
        double d[2] = {lo, hi};
        ls_chart_panel_line(p, d, d, 2, &diag);
    }
    ls_chart_panel_hline(rp, 0.0, &diag, NULL);
    ls_chart_legend(f, "observed = fitted", &diag);
    ls_chart_legend_brief(f, "exact");
    snprintf(text, sizeof text, "Every one of the %zu runs; a larger figure draws the loss against %s per (E, N<sub>act</sub>).",
             s->n, "R or D");
    ls_chart_note(f, text);
    if (!isnan(rmse)) {
        char r[32];
        short_number(r, sizeof r, rmse);
        snprintf(text, sizeof text, "Law %s, RMSE %s nats/token.", kind, r);
        ls_chart_note(f, text);
    }
    return finish(f, o, len, err);
}

static unsigned char *plot_fit(const ls_sweep *s, const double *flops, const ls_lawfile *lf, const ls_law *l, double rmse,
                               size_t nd, const ls_figure *o, size_t *len, ls_error *err)
{
    size_t n = s->n;
    double *scratch = malloc((2 * n + BAND_DRAWS) * sizeof *scratch);
    size_t *idx = malloc(n * sizeof *idx);
    row_order *order = malloc(n * sizeof *order);
    if (!scratch || !idx || !order) {
        free(scratch);
        free(idx);
        free(order);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory while building the plot");
        return NULL;
    }
    double *vals = scratch + n, *draw_scratch = scratch + 2 * n;
    fit_view v = {s, 0, 0, flops};
    double rmin = INFINITY, rmax = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        rmin = fmin(rmin, s->rows[i].R);
        rmax = fmax(rmax, s->rows[i].R);
    }
    v.by_r = rmax > rmin;
    /* Series of equal tokens, or of equal FLOPs when that groups the runs
     * into fewer series (a sweep logged by compute budget). */
    for (size_t i = 0; i < n; i++)
        vals[i] = s->rows[i].tokens;
    size_t ntokens = distinct(vals, n, scratch);
    size_t nflops = distinct(flops, n, scratch);
    v.key_flops = nflops < ntokens;

    grouping eg, ng, kg;
    for (size_t i = 0; i < n; i++)
        vals[i] = s->rows[i].E;
    make_grouping(vals, n, 7, scratch, &eg); /* 1, 2, 4, ..., 64 each a row */
    for (size_t i = 0; i < n; i++)
        vals[i] = s->rows[i].n_act;
    make_grouping(vals, n, 4, scratch, &ng);
    for (size_t i = 0; i < n; i++)
        vals[i] = row_key(&v, &s->rows[i]);
    make_grouping(vals, n, MAX_GROUPS, scratch, &kg);

    char title[160], text[256];
    char kind[64];
    ls_law_kind_format(l->kind, kind, sizeof kind);
    if (o && o->width_pt > 0 && o->height_pt > 0 &&
        (o->width_pt / (double)ng.n < 110 || o->height_pt / (double)(eg.n + 1) < 80)) {
        /* A figure too small for a panel per (E, N_act): the compact
         * view instead, observed against fitted loss for every run. */
        free(idx);
        free(order);
        unsigned char *data = plot_fit_compact(s, l, kind, rmse, &eg, vals, scratch, o, len, err);
        free(scratch);
        return data;
    }
    snprintf(title, sizeof title, "Observed and fitted loss against %s: %s", v.by_r ? "loops R" : "tokens D", kind);
    /* A last row for the residuals of every run in one panel. */
    chart *f = new_figure(title, eg.n + 1, ng.n, err);
    if (!f) {
        free(scratch);
        free(idx);
        free(order);
        return NULL;
    }
    ls_chart_set_panel_size(f, 135, 95);
    const char *key_name = !v.by_r ? "R" : v.key_flops ? "F" : "D";
    chart_style obs = ls_chart_marker_style(CHART_GREY, CHART_MARKER_CIRCLE), fitted = ls_chart_line_style(CHART_GREY);
    ls_chart_legend(f, "observed run", &obs);
    ls_chart_legend(f, "fitted law", &fitted);
    for (size_t k = 0; k < kg.n; k++) {
        chart_style st = ls_chart_line_style((int)k);
        st.marker = CHART_MARKER_CIRCLE;
        st.marker_size = 2.0;
        group_label(text, sizeof text, key_name, &kg, k);
        if (v.by_r && !v.key_flops)
            strncat(text, " tokens", sizeof text - strlen(text) - 1);
        else if (v.by_r)
            strncat(text, " FLOPs", sizeof text - strlen(text) - 1);
        ls_chart_legend(f, text, &st);
    }
    if (nd)
        band_legend(f, nd, lf);
    double xs[CURVE_POINTS], ys[CURVE_POINTS], blo[CURVE_POINTS], bhi[CURVE_POINTS];
    double ylo = INFINITY, yhi = -INFINITY;
    double *ox = malloc(n * sizeof *ox), *oy = malloc(n * sizeof *oy);
    if (!ox || !oy) {
        free(ox);
        free(oy);
        free(scratch);
        free(idx);
        free(order);
        ls_chart_free(f);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory while building the plot");
        return NULL;
    }
    for (size_t pr = 0; pr < eg.n; pr++)
        for (size_t pc = 0; pc < ng.n; pc++) {
            chart_panel *p = ls_chart_panel(f, pr, pc);
            char a[96], b[96];
            group_label(a, sizeof a, "E", &eg, pr);
            group_label(b, sizeof b, "N<sub>act</sub>", &ng, pc);
            snprintf(text, sizeof text, "%s, %s", a, b);
            ls_chart_panel_title(p, text);
            ls_chart_panel_axis(p, CHART_AXIS_X, pr + 1 == eg.n ? (v.by_r ? "loops R" : "tokens D") : NULL,
                                CHART_SCALE_LOG);
            ls_chart_panel_axis(p, CHART_AXIS_Y, pc == 0 ? "loss (nats/token)" : NULL, CHART_SCALE_LINEAR);
            if (v.by_r)
                powers_of_two(p, rmin, rmax);
            size_t m = 0;
            for (size_t i = 0; i < n; i++)
                if (group_of(&eg, s->rows[i].E) == pr && group_of(&ng, s->rows[i].n_act) == pc)
                    idx[m++] = i;
            sort_rows(&v, idx, m, order);
            for (size_t start = 0; start < m;) {
                size_t end = start + 1;
                while (end < m && same_series(&v, &s->rows[idx[start]], &s->rows[idx[end]]))
                    end++;
                int color = (int)group_of(&kg, row_key(&v, &s->rows[idx[start]]));
                if (!v.by_r)
                    color = 0;
                for (size_t j = start; j < end; j++) {
                    ox[j - start] = v.by_r ? s->rows[idx[j]].R : s->rows[idx[j]].tokens;
                    oy[j - start] = s->rows[idx[j]].loss;
                    ylo = fmin(ylo, oy[j - start]);
                    yhi = fmax(yhi, oy[j - start]);
                }
                if (end - start >= 2) {
                    fitted_curve(&v, lf, s->rows, idx + start, end - start, xs, ys, nd, draw_scratch, blo, bhi);
                    if (nd)
                        ls_chart_panel_band(p, xs, blo, bhi, CURVE_POINTS, color, BAND_OPACITY);
                    chart_style st = ls_chart_line_style(color);
                    st.width = 1.0;
                    ls_chart_panel_line(p, xs, ys, CURVE_POINTS, &st);
                    for (int k = 0; k < CURVE_POINTS; k++) {
                        ylo = fmin(ylo, ys[k]);
                        yhi = fmax(yhi, ys[k]);
                    }
                }
                chart_style mk = ls_chart_marker_style(color, CHART_MARKER_CIRCLE);
                mk.marker_size = 2.0;
                ls_chart_panel_line(p, ox, oy, end - start, &mk);
                start = end;
            }
        }
    /* One y scale for every panel, so that losses compare across them. */
    if (ylo < yhi)
        for (size_t pr = 0; pr < eg.n; pr++)
            for (size_t pc = 0; pc < ng.n; pc++)
                ls_chart_panel_range(ls_chart_panel(f, pr, pc), CHART_AXIS_Y, ylo - 0.04 * (yhi - ylo),
                                     yhi + 0.04 * (yhi - ylo));
    /* The residuals: observed minus fitted loss of every run against its
     * fitted loss, coloured as above. */
    chart_panel *rp = ls_chart_panel(f, eg.n, 0);
    ls_chart_panel_title(rp, "residuals of all runs");
    ls_chart_panel_axis(rp, CHART_AXIS_X, "fitted loss (nats/token)", CHART_SCALE_LINEAR);
    ls_chart_panel_axis(rp, CHART_AXIS_Y, "observed \xe2\x88\x92 fitted", CHART_SCALE_LINEAR);
    chart_style zero = ls_chart_line_style(CHART_GREY);
    zero.width = 0.7;
    ls_chart_panel_hline(rp, 0.0, &zero, NULL);
    for (size_t k = 0; k < (v.by_r ? kg.n : 1); k++) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            if (v.by_r && group_of(&kg, row_key(&v, &s->rows[i])) != k)
                continue;
            ls_law_point x = ls_sweep_row_point(&s->rows[i]);
            ox[m] = ls_law_loss(l, &x);
            oy[m] = s->rows[i].loss - ox[m];
            m++;
        }
        chart_style mk = ls_chart_marker_style((int)k, CHART_MARKER_CIRCLE);
        mk.marker_size = 1.6;
        ls_chart_panel_line(rp, ox, oy, m, &mk);
    }
    char name[256];
    plain(name, sizeof name, s->name ? s->name : "the sweep");
    snprintf(text, sizeof text, "Markers: the %zu observed runs of %s. Lines: the fitted law along each series%s.",
             n, name, v.by_r ? (v.key_flops ? " (equal training FLOPs)" : " (equal tokens)") : "");
    ls_chart_note(f, text);
    if (!isnan(rmse)) {
        char r[32];
        short_number(r, sizeof r, rmse);
        snprintf(text, sizeof text, "Law %s, RMSE %s nats/token.", kind, r);
        ls_chart_note(f, text);
    }
    free(ox);
    free(oy);
    free(scratch);
    free(idx);
    free(order);
    return finish(f, o, len, err);
}

/* ---- holdout --------------------------------------------------------------------- */

/* Markers of the holdout figures, one per law (compact) or held-out axis. */
static const chart_marker HOLDOUT_MARKERS[] = {CHART_MARKER_CIRCLE, CHART_MARKER_SQUARE, CHART_MARKER_TRIANGLE,
                                               CHART_MARKER_DIAMOND, CHART_MARKER_STAR};

/* Room for the held-out runs of one column; on failure f is freed. */
static int held_out_buffers(const ls_sweep *s, chart *f, double **px, double **py, ls_error *err)
{
    *px = malloc((s->n ? s->n : 1) * sizeof **px);
    *py = malloc((s->n ? s->n : 1) * sizeof **py);
    if (*px && *py)
        return 0;
    free(*px);
    free(*py);
    ls_chart_free(f);
    return ls_error_set(err, LS_ERR_INTERNAL, "out of memory while building the plot");
}

/* The runs column c of a holdout held out: observed loss in px, the law
 * fitted without them in py; lo and hi widened to take them in. */
static size_t held_out_points(const ls_holdout_result *r, const ls_sweep *s, size_t c, const ls_law *fitted, double *px,
                              double *py, double *lo, double *hi)
{
    size_t m = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (!r->test[c * s->n + i])
            continue;
        ls_law_point x = ls_sweep_row_point(&s->rows[i]);
        px[m] = s->rows[i].loss;
        py[m] = ls_law_loss(fitted, &x);
        *lo = fmin(*lo, fmin(px[m], py[m]));
        *hi = fmax(*hi, fmax(px[m], py[m]));
        m++;
    }
    return m;
}

/* The held-out comparison of a figure too small for a panel per law (a
 * paper column): every law's held-out predictions in one panel, a colour
 * and marker per law; the table gives the RMSEs. */
static unsigned char *holdout_compact(const ls_sweep *s, const ls_holdout_result *r, const ls_figure *o, size_t *len,
                                      ls_error *err)
{
    chart *f = new_figure("Held-out runs: predicted against observed loss", 1, 1, err);
    if (!f)
        return NULL;
    double *px = NULL, *py = NULL;
    if (held_out_buffers(s, f, &px, &py, err) != 0)
        return NULL;
    chart_panel *p = ls_chart_panel(f, 0, 0);
    ls_chart_panel_axis(p, CHART_AXIS_X, "observed loss", CHART_SCALE_LINEAR);
    ls_chart_panel_axis(p, CHART_AXIS_Y, "predicted loss", CHART_SCALE_LINEAR);
    double lo = INFINITY, hi = -INFINITY;
    char text[128];
    for (size_t li = 0; li < r->nlaws; li++) {
        chart_style st = ls_chart_marker_style((int)li, HOLDOUT_MARKERS[li % 5]);
        st.hollow = 1;
        st.marker_size = 1.8;
        for (size_t c = 0; c < r->ncolumns; c++) {
            const ls_holdout_cell *cell = &r->cells[li * r->ncolumns + c];
            if (r->columns[c].skipped || isnan(cell->rmse))
                continue;
            size_t m = held_out_points(r, s, c, &cell->fitted, px, py, &lo, &hi);
            ls_chart_panel_line(p, px, py, m, &st);
        }
        ls_law_kind_format(r->laws[li], text, sizeof text);
        ls_chart_legend(f, text, &st);
    }
    chart_style diag = ls_chart_line_style(CHART_GREY);
    diag.dash = CHART_DASH_DASHED;
    diag.width = 1.0;
    if (lo < hi) {
        double d[2] = {lo, hi};
        ls_chart_panel_line(p, d, d, 2, &diag);
    }
    ls_chart_legend(f, "prediction = observation", &diag);
    ls_chart_legend_brief(f, "exact");
    snprintf(text, sizeof text, "Every law's held-out predictions (%zu runs in the sweep); RMSEs in the table.", s->n);
    ls_chart_note(f, text);
    free(px);
    free(py);
    return finish(f, o, len, err);
}

unsigned char *ls_plot_holdout(const ls_sweep *s, const ls_holdout_result *r, const ls_figure *o, size_t *len, ls_error *err)
{
    if (r->nlaws == 0 || !r->test) {
        ls_error_set(err, LS_ERR_DATA, "no held-out results to plot");
        return NULL;
    }
    size_t cols = r->nlaws <= 3 ? r->nlaws : r->nlaws == 4 ? 2 : 3;
    size_t rows = (r->nlaws + cols - 1) / cols;
    /* Under each law's panel, its residuals; a figure too small for them
     * (a paper column) gets the compact view. */
    if (o && o->width_pt > 0 && o->height_pt > 0 &&
        (o->width_pt / (double)cols < 150 || o->height_pt / (double)(2 * rows) < 90))
        return holdout_compact(s, r, o, len, err);
    chart *f = new_figure("Held-out runs: predicted against observed loss", 2 * rows, cols, err);
    if (!f)
        return NULL;
    ls_chart_set_panel_size(f, 165, 150);
    double *px = NULL, *py = NULL;
    if (held_out_buffers(s, f, &px, &py, err) != 0)
        return NULL;
    char text[256];
    for (size_t c = 0; c < r->ncolumns; c++) {
        if (r->columns[c].skipped)
            continue;
        chart_style st = ls_chart_marker_style((int)c, HOLDOUT_MARKERS[c % 5]);
        st.hollow = 1;
        char label[192];
        column_label(label, sizeof label, r->columns[c].label);
        snprintf(text, sizeof text, "%s held out (%zu %s)", label, r->columns[c].ntest,
                 ls_plural((double)r->columns[c].ntest, "run", "runs"));
        ls_chart_legend(f, text, &st);
        ls_chart_legend_brief(f, label);
    }
    chart_style diag = ls_chart_line_style(CHART_GREY);
    diag.dash = CHART_DASH_DASHED;
    diag.width = 1.2;
    ls_chart_legend(f, "prediction = observation", &diag);
    ls_chart_legend_brief(f, "exact");
    int stars = 0;
    double worst = 0; /* the largest |residual|: one residual scale for every law */
    for (size_t li = 0; li < r->nlaws; li++) {
        chart_panel *p = ls_chart_panel(f, 2 * (li / cols), li % cols);
        chart_panel *rp = ls_chart_panel(f, 2 * (li / cols) + 1, li % cols);
        ls_chart_panel_axis(rp, CHART_AXIS_X, "observed loss (nats/token)", CHART_SCALE_LINEAR);
        ls_chart_panel_axis(rp, CHART_AXIS_Y, li % cols == 0 ? "observed \xe2\x88\x92 predicted" : NULL,
                            CHART_SCALE_LINEAR);
        chart_style zero = ls_chart_line_style(CHART_GREY);
        zero.width = 0.7;
        ls_chart_panel_hline(rp, 0.0, &zero, NULL);
        char kind[64];
        ls_law_kind_format(r->laws[li], kind, sizeof kind);
        ls_chart_panel_title(p, kind);
        ls_chart_panel_axis(p, CHART_AXIS_X, NULL, CHART_SCALE_LINEAR); /* the residuals below say it */
        ls_chart_panel_axis(p, CHART_AXIS_Y, li % cols == 0 ? "predicted loss (nats/token)" : NULL, CHART_SCALE_LINEAR);
        double lo = INFINITY, hi = -INFINITY;
        size_t shown = 0;
        for (size_t c = 0; c < r->ncolumns; c++) {
            const ls_holdout_cell *cell = &r->cells[li * r->ncolumns + c];
            if (r->columns[c].skipped || isnan(cell->rmse))
                continue;
            size_t m = held_out_points(r, s, c, &cell->fitted, px, py, &lo, &hi);
            chart_style st = ls_chart_marker_style((int)c, HOLDOUT_MARKERS[c % 5]);
            st.hollow = 1;
            ls_chart_panel_line(p, px, py, m, &st);
            for (size_t i = 0; i < m; i++) {
                py[i] = px[i] - py[i];
                worst = fmax(worst, fabs(py[i]));
            }
            ls_chart_panel_line(rp, px, py, m, &st);
            shown++;
        }
        if (!(lo < hi)) {
            lo = 1.0;
            hi = 3.0;
        }
        double pad = 0.05 * (hi - lo);
        lo -= pad;
        hi += pad;
        ls_chart_panel_range(p, CHART_AXIS_X, lo, hi);
        ls_chart_panel_range(rp, CHART_AXIS_X, lo, hi);
        ls_chart_panel_range(p, CHART_AXIS_Y, lo, hi);
        double d[2] = {lo, hi};
        ls_chart_panel_line(p, d, d, 2, &diag);
        /* The held-out RMSEs, top left, where a good law leaves no points. */
        size_t k = 0;
        for (size_t c = 0; c < r->ncolumns; c++) {
            const ls_holdout_cell *cell = &r->cells[li * r->ncolumns + c];
            if (r->columns[c].skipped || isnan(cell->rmse))
                continue;
            char num[32];
            short_number(num, sizeof num, cell->rmse);
            char label[192];
            column_label(label, sizeof label, r->columns[c].label);
            snprintf(text, sizeof text, "RMSE %s: %s%s", label, num, cell->converged ? "" : " *");
            stars |= !cell->converged;
            ls_chart_panel_text(p, lo + 0.03 * (hi - lo), hi - (0.07 + 0.065 * (double)k) * (hi - lo), text, -1);
            k++;
        }
        if (shown == 0)
            ls_chart_panel_text(p, (lo + hi) / 2, (lo + hi) / 2, "no held-out fit", 0);
    }
    if (worst > 0)
        for (size_t li = 0; li < r->nlaws; li++)
            ls_chart_panel_range(ls_chart_panel(f, 2 * (li / cols) + 1, li % cols), CHART_AXIS_Y, -1.08 * worst,
                                 1.08 * worst);
    if (stars) {
        chart_style none = ls_chart_marker_style(CHART_BLACK, CHART_MARKER_NONE);
        ls_chart_legend(f, "*: that fit did not converge", &none);
        ls_chart_legend_brief(f, "*: not converged");
    }
    snprintf(text, sizeof text,
             "Each law is fitted on the other runs and predicts the held-out ones; RMSE in nats/token (%zu %s).", s->n,
             ls_plural((double)s->n, "run", "runs"));
    ls_chart_note(f, text);
    free(px);
    free(py);
    return finish(f, o, len, err);
}

/* ---- isoflop ----------------------------------------------------------------------- */

unsigned char *ls_plot_isoflop(const ls_lawfile *lf, const ls_arch_template *t, const ls_plot_isoflop_spec *spec,
                               const ls_figure *o, size_t *len, ls_error *err)
{
    const ls_law *l = &lf->law;
    size_t nd = band_draws(lf);
    size_t ncombo = spec->nE * spec->nR;
    if (spec->nflops == 0 || ncombo == 0) {
        ls_error_set(err, LS_ERR_DATA, "no IsoFLOP profile to plot");
        return NULL;
    }
    char kind[64], text[256];
    ls_law_kind_format(l->kind, kind, sizeof kind);
    snprintf(text, sizeof text, "IsoFLOP profiles: loss against N<sub>act</sub> at fixed compute (%s)", kind);
    chart *f = new_figure(text, 1, 1, err);
    if (!f)
        return NULL;
    ls_chart_set_panel_size(f, 300, 200);
    size_t points = spec->points < 2 ? 2 : spec->points;
    if (points < 60)
        points = 60; /* a smooth curve; the table keeps the requested points */
    double *grid = malloc(points * sizeof *grid), *loss = malloc(points * sizeof *loss),
           *tokens = malloc(points * sizeof *tokens);
    double *min_n = malloc(spec->nflops * ncombo * sizeof *min_n), *min_l = malloc(spec->nflops * ncombo * sizeof *min_l);
    /* Per draw, the profile's losses; then per point, the band. */
    double *dl = malloc((nd ? nd : 1) * points * sizeof *dl), *col = malloc((nd ? nd : 1) * sizeof *col),
           *blo = malloc(points * sizeof *blo), *bhi = malloc(points * sizeof *bhi);
    /* Which points of a curve (profile or frontier) leave the fitted ranges. */
    unsigned char *out = malloc(points > 64 ? points : 64);
    ls_law_ranges fitted;
    ls_lawfile_ranges(lf, &fitted);
    unsigned any_outside = 0;
    if (!grid || !loss || !tokens || !min_n || !min_l || !dl || !col || !blo || !bhi || !out) {
        free(grid);
        free(loss);
        free(tokens);
        free(min_n);
        free(min_l);
        free(dl);
        free(col);
        free(blo);
        free(bhi);
        free(out);
        ls_chart_free(f);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory while building the plot");
        return NULL;
    }
    chart_panel *p = ls_chart_panel(f, 0, 0);
    int ranges = lf->has_fit && lf->fit.has_ranges;
    if (ranges)
        shade_beyond(p, lf->fit.n_act_range[0], lf->fit.n_act_range[1]);
    ls_chart_panel_axis(p, CHART_AXIS_X, "active parameters N<sub>act</sub>", CHART_SCALE_LOG);
    ls_chart_panel_axis(p, CHART_AXIS_Y, "loss (nats/token)", CHART_SCALE_LINEAR);
    static const chart_dash dashes[] = {CHART_DASH_SOLID, CHART_DASH_DASHED, CHART_DASH_DOTTED, CHART_DASH_DASHDOT};
    int by_combo = spec->nflops == 1; /* one budget: a colour for each (E, R) */
    double ylo = INFINITY, yhi = -INFINITY;
    int status = 0;
    for (size_t fi = 0; fi < spec->nflops; fi++)
        for (size_t c = 0; c < ncombo; c++) {
            double E = spec->E[c / spec->nR], R = spec->R[c % spec->nR];
            ls_solve_budget b = {spec->flops[fi], INFINITY, 16};
            ls_solve_candidate best;
            min_n[fi * ncombo + c] = NAN;
            min_l[fi * ncombo + c] = NAN;
            if (ls_solve_candidate_at(l, t, &b, E, R, NULL, 0, 0, &best) != 0) {
                status = LS_ERR_INTERNAL;
                continue;
            }
            if (!best.feasible)
                continue;
            ls_solve_isoflop_grid(best.n_act, 30.0, points, grid);
            ls_solve_isoflop_profile(l, t, spec->flops[fi], E, R, grid, points, loss, tokens);
            if (nd) {
                for (size_t d = 0; d < nd; d++) {
                    ls_law dlaw;
                    ls_lawfile_draw(lf, d, &dlaw);
                    ls_solve_isoflop_profile(&dlaw, t, spec->flops[fi], E, R, grid, points, dl + d * points, NULL);
                }
                for (size_t i = 0; i < points; i++) {
                    for (size_t d = 0; d < nd; d++)
                        col[d] = dl[d * points + i];
                    central95(col, nd, &blo[i], &bhi[i]);
                }
                ls_chart_panel_band(p, grid, blo, bhi, points, by_combo ? (int)c : (int)fi, BAND_OPACITY);
            }
            chart_style st = ls_chart_line_style(by_combo ? (int)c : (int)fi);
            st.dash = by_combo ? CHART_DASH_SOLID : dashes[c % 4];
            st.width = ISOFLOP_INSIDE_WIDTH;
            /* Where the profile leaves the fitted ranges (N_act, D, F, or
             * this E or R): thin, and dashed when dashes do not already
             * tell the (E, R) apart. */
            chart_style thin = st;
            thin.width = ISOFLOP_OUTSIDE_WIDTH;
            if (by_combo)
                thin.dash = CHART_DASH_DASHED;
            for (size_t i = 0; i < points; i++) {
                ls_law_point x = ls_arch_point(t, grid[i], E, R, tokens[i]);
                unsigned bits = ls_law_ranges_outside(&fitted, &x);
                out[i] = bits != 0;
                any_outside |= bits;
            }
            line_marking_outside(p, grid, loss, out, points, &st, &thin);
            min_n[fi * ncombo + c] = best.n_act;
            min_l[fi * ncombo + c] = best.loss;
            /* The y range: each curve from N_opt / 10 to 10 N_opt. */
            for (size_t i = 0; i < points; i++)
                if (grid[i] >= best.n_act / 10.0 && grid[i] <= best.n_act * 10.0 && isfinite(loss[i]))
                    yhi = fmax(yhi, loss[i]);
            ylo = fmin(ylo, best.loss);
        }
    if (status != 0) {
        free(grid);
        free(loss);
        free(tokens);
        free(min_n);
        free(min_l);
        free(dl);
        free(col);
        free(blo);
        free(bhi);
        free(out);
        ls_chart_free(f);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory in the solver");
        return NULL;
    }
    /* The compute-optimal frontier of each (E, R): the minimum (N_act*,
     * loss*) as the budget varies continuously from a third of the smallest
     * budget to three times the largest, drawn under the minima. */
    double fmin_b = INFINITY, fmax_b = 0;
    for (size_t fi = 0; fi < spec->nflops; fi++) {
        fmin_b = fmin(fmin_b, spec->flops[fi]);
        fmax_b = fmax(fmax_b, spec->flops[fi]);
    }
    enum { FRONTIER = 41 };
    for (size_t c = 0; c < ncombo && status == 0; c++) {
        double E = spec->E[c / spec->nR], R = spec->R[c % spec->nR], fx[FRONTIER], fy[FRONTIER];
        for (int k = 0; k < FRONTIER; k++) {
            double F = exp(log(fmin_b / 3) + (log(fmax_b * 3) - log(fmin_b / 3)) * k / (FRONTIER - 1));
            ls_solve_budget b = {F, INFINITY, 16};
            ls_solve_candidate best;
            fx[k] = fy[k] = NAN;
            if (ls_solve_candidate_at(l, t, &b, E, R, NULL, 0, 0, &best) != 0)
                status = LS_ERR_INTERNAL;
            else if (best.feasible) {
                fx[k] = best.n_act;
                fy[k] = best.loss;
            }
            ls_law_point x = ls_arch_point(t, best.n_act, E, R, best.tokens);
            out[k] = best.feasible && ls_law_ranges_outside(&fitted, &x) != 0;
        }
        chart_style fr = ls_chart_line_style(by_combo ? (int)c : CHART_BLACK);
        fr.width = 1.3;
        fr.dash = by_combo ? CHART_DASH_DOTTED : dashes[c % 4];
        chart_style fr_thin = fr;
        fr_thin.width = ISOFLOP_OUTSIDE_WIDTH;
        line_marking_outside(p, fx, fy, out, FRONTIER, &fr, &fr_thin);
    }
    /* The minima of the profiles drawn, on the frontier. */
    chart_style mk = ls_chart_marker_style(CHART_BLACK, CHART_MARKER_CIRCLE);
    mk.marker_size = 2.6;
    for (size_t c = 0; c < ncombo; c++) {
        double xs[64], ys[64], E = spec->E[c / spec->nR], R = spec->R[c % spec->nR];
        size_t m = 0;
        for (size_t fi = 0; fi < spec->nflops && m < 64; fi++)
            if (!isnan(min_n[fi * ncombo + c])) {
                xs[m] = min_n[fi * ncombo + c];
                ys[m] = min_l[fi * ncombo + c];
                /* The minimum's tokens: all of this budget spent. */
                ls_law_point x = ls_arch_point(t, xs[m], E, R, 0.0);
                x.D = ls_law_tokens_for_flops(&x, spec->flops[fi]);
                out[m] = ls_law_ranges_outside(&fitted, &x) != 0;
                m++;
            }
        chart_style dot = mk;
        dot.color = by_combo ? (int)c : CHART_BLACK;
        chart_style hollow = dot;
        hollow.hollow = 1;
        line_marking_outside(p, xs, ys, out, m, &dot, &hollow);
    }
    if (status != 0) {
        free(grid);
        free(loss);
        free(tokens);
        free(min_n);
        free(min_l);
        free(dl);
        free(col);
        free(blo);
        free(bhi);
        free(out);
        ls_chart_free(f);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory in the solver");
        return NULL;
    }
    if (ylo < yhi) {
        double pad = 0.06 * (yhi - ylo);
        ls_chart_panel_range(p, CHART_AXIS_Y, ylo - pad, yhi + pad);
    }
    for (size_t fi = 0; fi < spec->nflops && !by_combo; fi++) {
        char num[32];
        short_number(num, sizeof num, spec->flops[fi]);
        snprintf(text, sizeof text, "F = %s FLOPs", num);
        chart_style st = ls_chart_line_style((int)fi);
        st.width = ISOFLOP_INSIDE_WIDTH;
        ls_chart_legend(f, text, &st);
    }
    for (size_t c = 0; c < ncombo && (by_combo || ncombo > 1); c++) {
        double E = spec->E[c / spec->nR], R = spec->R[c % spec->nR];
        int beyond = ranges && (E > lf->fit.e_range[1] * (1 + 1e-9) || R > lf->fit.r_range[1] * (1 + 1e-9));
        snprintf(text, sizeof text, "E = %g, R = %g%s", E, R, beyond ? " (beyond the fitted E or R)" : "");
        chart_style st = ls_chart_line_style(by_combo ? (int)c : CHART_BLACK);
        st.dash = by_combo ? CHART_DASH_SOLID : dashes[c % 4];
        st.width = ISOFLOP_INSIDE_WIDTH;
        ls_chart_legend(f, text, &st);
        if (beyond) {
            snprintf(text, sizeof text, "E = %g, R = %g (extrap.)", E, R);
            ls_chart_legend_brief(f, text);
        }
    }
    ls_chart_legend(f, "minimum of each profile", &mk);
    ls_chart_legend_brief(f, "minimum");
    if (nd)
        band_legend(f, nd, lf);
    if (any_outside) {
        /* One entry for the shading (N_act) and the thin lines (every
         * quantity), so that a small figure keeps room for the panel. */
        chart_style thin = ls_chart_line_style(CHART_BLACK);
        thin.width = ISOFLOP_OUTSIDE_WIDTH;
        thin.dash = by_combo ? CHART_DASH_DASHED : CHART_DASH_SOLID;
        thin.fill_opacity = ranges ? EXTRAPOLATION_OPACITY * 2 : 0;
        thin.hatch = ranges;
        outside_legend(f, &thin, any_outside, ranges ? "shaded beyond the fitted N<sub>act</sub>; thin " : "thin: ");
    } else if (ranges) {
        extrapolation_legend(f, "N<sub>act</sub>");
    }
    chart_style frontier = ls_chart_line_style(CHART_BLACK);
    frontier.width = 1.3;
    frontier.dash = by_combo ? CHART_DASH_DOTTED : CHART_DASH_SOLID;
    ls_chart_legend(f, by_combo ? "compute-optimal frontier as F varies"
                                : "compute-optimal frontier of each (E, R) as F varies, in its dash",
                    &frontier);
    ls_chart_legend_brief(f, "frontier");
    if (by_combo) {
        char num[32];
        short_number(num, sizeof num, spec->flops[0]);
        if (t->flops_convention == LS_LAW_FLOPS_6ND)
            snprintf(text, sizeof text, "All of F = %s training FLOPs spent: D = F / (6 N<sub>unroll</sub>).", num);
        else
            snprintf(text, sizeof text, "All of F = %s training FLOPs spent: D = %s (FLOP convention %s).", num,
                     ls_law_flops_formula(t->flops_convention), ls_law_flops_name(t->flops_convention));
    } else {
        if (t->flops_convention == LS_LAW_FLOPS_6ND)
            snprintf(text, sizeof text, "All of each budget spent: D = F / (6 N<sub>unroll</sub>); the frontier joins the minima of every budget between.");
        else
            snprintf(text, sizeof text, "All of each budget spent: D = %s (FLOP convention %s); the frontier joins the minima of every budget between.",
                     ls_law_flops_formula(t->flops_convention), ls_law_flops_name(t->flops_convention));
    }
    ls_chart_note(f, text);
    if (!nd)
        ls_chart_note(f, NO_BAND_NOTE);
    free(grid);
    free(loss);
    free(tokens);
    free(min_n);
    free(min_l);
    free(dl);
    free(col);
    free(blo);
    free(bhi);
    free(out);
    return finish(f, o, len, err);
}

/* ---- solve --------------------------------------------------------------------------- */

unsigned char *ls_plot_solve(const ls_lawfile *lf, const ls_arch_template *t, const ls_solve_budget *b, const ls_solve_options *so,
                             const ls_solve_result *r, const ls_figure *o, size_t *len, ls_error *err)
{
    const ls_law *l = &lf->law;
    /* Each band point is a solve under each draw: fewer draws than the
     * other plots use keep the plot quick. */
    size_t nd = band_draws(lf);
    if (nd > SOLVE_BAND_DRAWS)
        nd = SOLVE_BAND_DRAWS;
    int ranges = lf->has_fit && lf->fit.has_ranges;
    if (so->nR == 0 || so->nE == 0 || r->ncandidates != so->nR * so->nE) {
        ls_error_set(err, LS_ERR_DATA, "no candidates to plot");
        return NULL;
    }
    char flops[32], mem[64], title[256], text[256];
    short_number(flops, sizeof flops, b->flops);
    if (isfinite(b->mem_bytes)) {
        char m[32];
        short_number(m, sizeof m, b->mem_bytes / 1e9);
        snprintf(mem, sizeof mem, "%s GB at %g bits", m, b->bits);
    } else {
        snprintf(mem, sizeof mem, "no memory limit");
    }
    snprintf(title, sizeof title, "Best loss against loops under the budget: %s FLOPs, %s", flops, mem);
    chart *f = new_figure(title, 1, 1, err);
    if (!f)
        return NULL;
    unsigned char *drawn = NULL;
    ls_chart_set_panel_size(f, 300, 200);
    size_t nR = so->nR;
    double *Rs = malloc(nR * sizeof *Rs), *ys = malloc(nR * sizeof *ys), *env = malloc((nR + 2) * sizeof *env),
           *free_env = malloc(nR * sizeof *free_env), *bx = malloc((nR + 2) * sizeof *bx),
           *blo = malloc((nR + 2) * sizeof *blo), *bhi = malloc((nR + 2) * sizeof *bhi);
    size_t *order = malloc(nR * sizeof *order);
    double *dlo = malloc(nR * sizeof *dlo), *dhi = malloc(nR * sizeof *dhi), *col = malloc((nd ? nd : 1) * sizeof *col);
    if (!Rs || !ys || !env || !free_env || !bx || !blo || !bhi || !order || !dlo || !dhi || !col) {
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory while building the plot");
        goto done;
    }
    /* R in increasing order (the candidates may come in any). */
    for (size_t i = 0; i < nR; i++)
        order[i] = i;
    for (size_t i = 1; i < nR; i++)
        for (size_t j = i; j > 0 && so->R[order[j]] < so->R[order[j - 1]]; j--) {
            size_t tmp = order[j];
            order[j] = order[j - 1];
            order[j - 1] = tmp;
        }
    for (size_t i = 0; i < nR; i++) {
        Rs[i] = so->R[order[i]];
        env[i] = INFINITY;
        free_env[i] = INFINITY;
    }
    chart_panel *p = ls_chart_panel(f, 0, 0);
    /* Loop counts beyond those fitted, shaded when some are solved. */
    int r_beyond = ranges && (Rs[0] < lf->fit.r_range[0] * (1 - 1e-9) || Rs[nR - 1] > lf->fit.r_range[1] * (1 + 1e-9));
    if (r_beyond)
        shade_beyond(p, lf->fit.r_range[0], lf->fit.r_range[1]);
    ls_chart_panel_axis(p, CHART_AXIS_X, "loops R", CHART_SCALE_LINEAR);
    ls_chart_panel_axis(p, CHART_AXIS_Y, "loss at the best N<sub>act</sub> (nats/token)", CHART_SCALE_LINEAR);
    if (nR <= 8) /* whole loop counts only: no tick at R = 0.6 */
        ls_chart_panel_ticks(p, CHART_AXIS_X, Rs, nR);
    double lo = INFINITY, hi = -INFINITY;
    int status = 0;
    unsigned any_outside = 0;
    unsigned char *outside_at = calloc(nR, 1);
    if (!outside_at)
        status = LS_ERR_INTERNAL;
    /* First every curve and band, then the drawing: the out-of-reach
     * region goes under the bands and curves, not over them (bands are
     * drawn in the order added, lines after all bands). */
    size_t nE = so->nE;
    double *all_ys = malloc(nE * nR * sizeof *all_ys), *all_lo = malloc(nE * nR * sizeof *all_lo),
           *all_hi = malloc(nE * nR * sizeof *all_hi);
    if (!all_ys || !all_lo || !all_hi)
        status = LS_ERR_INTERNAL;
    for (size_t e = 0; e < nE && status == 0; e++) {
        double *yse = all_ys + e * nR, *dloe = all_lo + e * nR, *dhie = all_hi + e * nR;
        for (size_t i = 0; i < nR; i++) {
            const ls_solve_candidate *c = &r->candidates[e * nR + order[i]];
            yse[i] = c->feasible ? c->loss : NAN;
            if (c->feasible) {
                env[i] = fmin(env[i], c->loss);
                lo = fmin(lo, c->loss);
                hi = fmax(hi, c->loss);
            }
            ls_solve_candidate u;
            if (ls_solve_candidate_at(l, t, b, so->E[e], Rs[i], so->ladder, so->nladder, 0, &u) != 0)
                status = LS_ERR_INTERNAL;
            else if (u.feasible)
                free_env[i] = fmin(free_env[i], u.loss);
            dloe[i] = dhie[i] = NAN;
            for (size_t d = 0; d < nd && c->feasible; d++) {
                ls_law dlaw;
                ls_solve_candidate w;
                ls_lawfile_draw(lf, d, &dlaw);
                col[d] = ls_solve_candidate_at(&dlaw, t, b, so->E[e], Rs[i], so->ladder, so->nladder, 0, &w) == 0 &&
                                 w.feasible
                             ? w.loss
                             : NAN;
            }
            if (nd && c->feasible)
                central95(col, nd, &dloe[i], &dhie[i]);
        }
    }
    for (size_t i = 0; i < nR; i++) {
        if (isinf(free_env[i]))
            free_env[i] = NAN;
        else
            lo = fmin(lo, free_env[i]);
    }
    if (status != 0 || !(lo <= hi)) {
        free(outside_at), free(all_ys), free(all_lo), free(all_hi);
        ls_error_set(err, status ? LS_ERR_INTERNAL : LS_ERR_DATA,
                     status ? "out of memory in the solver" : "no feasible candidate to plot");
        goto done;
    }
    /* The range holds every loss and the epsilon line; one loss alone
     * (one R and one E) gets a range around it, not a single tick. */
    if (r->has_choice)
        hi = fmax(hi, r->best.loss + so->eps);
    double span = hi - lo;
    if (!(span > 1e-6 * fabs(lo))) {
        span = fmax(0.02 * fabs(lo), 1e-3);
        lo -= span / 2;
        hi += span / 2;
    }
    double ylo = lo - 0.12 * span, yhi = hi + 0.08 * span;
    double xlo = Rs[0] - 0.5, xhi = Rs[nR - 1] + 0.5;
    if (xlo < 0.5)
        xlo = 0.5;
    ls_chart_panel_range(p, CHART_AXIS_X, xlo, xhi);
    ls_chart_panel_range(p, CHART_AXIS_Y, ylo, yhi);
    /* Losses below the lower envelope of the feasible candidates are out of
     * reach: no (E, R) and N_act under this budget gets there.  Shaded
     * only over the loop counts solved (nothing is known between R = 0.5
     * and the first).  Its edge is the lowest curve itself, so no line is
     * drawn along it (one would hide that curve's dashes). */
    size_t nb = 0;
    for (size_t i = 0; i < nR; i++) {
        if (isinf(env[i]))
            continue;
        bx[nb] = Rs[i];
        blo[nb] = ylo - span;
        bhi[nb] = env[i];
        nb++;
    }
    if (nb == 1) { /* one loop count: a block around it */
        bx[1] = bx[0] + 0.35;
        bx[0] -= 0.35;
        blo[1] = blo[0];
        bhi[1] = bhi[0];
        nb = 2;
    }
    ls_chart_panel_band(p, bx, blo, bhi, nb, OUT_OF_REACH_COLOR, 0.16);
    for (size_t e = 0; e < nE; e++) {
        const double *yse = all_ys + e * nR;
        if (nd)
            ls_chart_panel_band(p, Rs, all_lo + e * nR, all_hi + e * nR, nR, (int)e, BAND_OPACITY);
        int beyond = ranges && so->E[e] > lf->fit.e_range[1] * (1 + 1e-9);
        chart_style st = ls_chart_line_style((int)e);
        st.marker = CHART_MARKER_CIRCLE;
        st.marker_size = 2.0;
        st.dash = beyond ? CHART_DASH_DASHED : CHART_DASH_SOLID;
        /* Each point checked against the fitted ranges: dashed and hollow
         * where it extrapolates. */
        chart_style out_st = st;
        out_st.dash = CHART_DASH_DASHED;
        out_st.hollow = 1;
        for (size_t i = 0; i < nR; i++) {
            const ls_solve_candidate *c = &r->candidates[e * nR + order[i]];
            outside_at[i] = c->feasible && c->outside;
            any_outside |= c->feasible ? c->outside : 0;
        }
        line_marking_outside(p, Rs, yse, outside_at, nR, &st, &out_st);
        snprintf(text, sizeof text, "E = %g%s", so->E[e], beyond ? " (beyond the fitted E: extrapolated)" : "");
        ls_chart_legend(f, text, &st);
        if (beyond) {
            snprintf(text, sizeof text, "E = %g (extrap.)", so->E[e]);
            ls_chart_legend_brief(f, text);
        }
    }
    free(outside_at), free(all_ys), free(all_lo), free(all_hi);
    chart_style band = ls_chart_line_style(OUT_OF_REACH_COLOR);
    band.width = 0; /* a fill with no edge, as drawn */
    band.fill_opacity = 0.16;
    ls_chart_legend(f, "out of reach under the budget", &band);
    ls_chart_legend_brief(f, "out of reach");
    if (nd)
        band_legend(f, nd, lf);
    if (r_beyond)
        extrapolation_legend(f, "R");
    if (any_outside) {
        chart_style out_st = ls_chart_line_style(CHART_BLACK);
        out_st.marker = CHART_MARKER_CIRCLE;
        out_st.marker_size = 2.0;
        out_st.dash = CHART_DASH_DASHED;
        out_st.hollow = 1;
        outside_legend(f, &out_st, any_outside, NULL);
    }
    if (isfinite(b->mem_bytes)) {
        chart_style fe = ls_chart_line_style(CHART_BLACK);
        fe.dash = CHART_DASH_DASHED;
        fe.width = 1.3;
        ls_chart_panel_line(p, Rs, free_env, nR, &fe);
        ls_chart_legend(f, "best of any E with no memory limit", &fe);
        ls_chart_legend_brief(f, "no memory limit");
    }
    if (r->has_choice) {
        chart_style eps = ls_chart_line_style(CHART_GREY);
        eps.dash = CHART_DASH_DOTTED;
        eps.width = 1.2;
        ls_chart_panel_hline(p, r->best.loss + so->eps, &eps, NULL);
        char num[48];
        short_number(num, sizeof num, so->eps);
        snprintf(text, sizeof text, "lowest loss + \xce\xb5 (\xce\xb5 = %s)", num);
        ls_chart_legend(f, text, &eps);
        ls_chart_legend_brief(f, "lowest + \xce\xb5");
        /* The star on top, and on it again the marker of the E chosen, so
         * that the star hides no series' point. */
        chart_style star = ls_chart_marker_style(CHART_BLACK, CHART_MARKER_STAR);
        star.marker_size = 6.0;
        double cx = r->choice.R, cy = r->choice.loss;
        ls_chart_panel_line(p, &cx, &cy, 1, &star);
        for (size_t e = 0; e < so->nE; e++)
            if (so->E[e] == r->choice.E) {
                chart_style mk = ls_chart_marker_style((int)e, CHART_MARKER_CIRCLE);
                mk.marker_size = 2.0;
                mk.hollow = r->choice.outside != 0;
                ls_chart_panel_line(p, &cx, &cy, 1, &mk);
            }
        snprintf(text, sizeof text, "chosen: R<sup>*</sup> = %g, E<sup>*</sup> = %g", r->choice.R, r->choice.E);
        ls_chart_legend(f, text, &star);
        snprintf(text, sizeof text, "R<sup>*</sup>=%g, E<sup>*</sup>=%g", r->choice.R, r->choice.E);
        ls_chart_legend_brief(f, text);
    }
    char kind[64];
    ls_law_kind_format(l->kind, kind, sizeof kind);
    if (t->flops_convention == LS_LAW_FLOPS_6ND)
        snprintf(text, sizeof text,
                 "Law %s. Each point: the N<sub>act</sub> that minimises the loss at that (E, R), with D = F / (6 N<sub>unroll</sub>).",
                 kind);
    else
        snprintf(text, sizeof text,
                 "Law %s. Each point: the N<sub>act</sub> that minimises the loss at that (E, R), with D = %s (FLOP convention %s).",
                 kind, ls_law_flops_formula(t->flops_convention), ls_law_flops_name(t->flops_convention));
    ls_chart_note(f, text);
    if (!nd)
        ls_chart_note(f, NO_BAND_NOTE);
    drawn = finish(f, o, len, err);
    f = NULL; /* finish() freed it */
done:
    /* The one way out: every scratch array and the chart (NULL once drawn). */
    free(Rs), free(ys), free(env), free(free_env), free(bx), free(blo), free(bhi), free(order);
    free(dlo), free(dhi), free(col);
    ls_chart_free(f);
    return drawn;
}

/* ---- rho_eff -------------------------------------------------------------------------- */

unsigned char *ls_plot_rho_eff(const ls_lawfile *lf, const ls_arch_template *t, const double *E, size_t nE, double r_max,
                               const ls_figure *o, size_t *len, ls_error *err)
{
    const ls_law *l = &lf->law;
    int ranges = lf->has_fit && lf->fit.has_ranges && r_max > lf->fit.r_range[1] * (1 + 1e-9);
    if (nE == 0 || !(r_max > 1)) {
        ls_error_set(err, LS_ERR_DATA, "no curve to plot");
        return NULL;
    }
    char kind[64], text[256];
    ls_law_kind_format(l->kind, kind, sizeof kind);
    snprintf(text, sizeof text, "Effective parameters per active parameter: \xcf\x81<sub>eff</sub>(R) = N<sub>eff</sub> / N<sub>act</sub> (%s)", kind);
    chart *f = new_figure(text, 1, 1, err);
    if (!f)
        return NULL;
    ls_chart_set_panel_size(f, 300, 200);
    chart_panel *p = ls_chart_panel(f, 0, 0);
    if (ranges)
        shade_beyond(p, lf->fit.r_range[0], lf->fit.r_range[1]);
    ls_chart_panel_axis(p, CHART_AXIS_X, "loops R", CHART_SCALE_LINEAR);
    ls_chart_panel_axis(p, CHART_AXIS_Y, "\xcf\x81<sub>eff</sub> = N<sub>eff</sub> / N<sub>act</sub>", CHART_SCALE_LINEAR);
    enum { N = 121 };
    double xs[N], ys[N];
    double top = 1.0;
    for (size_t e = 0; e < nE; e++) {
        ls_law_point x = ls_arch_point(t, 1e9, E[e], 1.0, 1e11);
        for (int k = 0; k < N; k++) {
            x.R = 1.0 + (r_max - 1.0) * k / (N - 1);
            xs[k] = x.R;
            ys[k] = ls_law_rho_eff(l, &x);
            top = fmax(top, ys[k]);
        }
        chart_style st = ls_chart_line_style((int)e);
        ls_chart_panel_line(p, xs, ys, N, &st);
        double ceiling = ls_law_rho_eff_ceiling(l, &x);
        char m[32];
        short_number(m, sizeof m, x.n_act / x.n_total);
        snprintf(text, sizeof text, "E = %g (m = %s)", E[e], m);
        ls_chart_legend(f, text, &st);
        snprintf(text, sizeof text, "E = %g", E[e]);
        ls_chart_legend_brief(f, text);
        if (isfinite(ceiling) && ceiling > 1.0) {
            chart_style dash = ls_chart_line_style((int)e);
            dash.dash = CHART_DASH_DASHED;
            dash.width = 1.0;
            ls_chart_panel_hline(p, ceiling, &dash, NULL);
            top = fmax(top, ceiling);
        }
    }
    ls_chart_panel_range(p, CHART_AXIS_X, 1.0, r_max);
    ls_chart_panel_range(p, CHART_AXIS_Y, 1.0 - 0.03 * (top - 1.0 > 0 ? top - 1.0 : 1.0), top + 0.06 * (top - 1.0 > 0 ? top - 1.0 : 1.0));
    chart_style dash = ls_chart_line_style(CHART_BLACK);
    dash.dash = CHART_DASH_DASHED;
    dash.width = 1.0;
    ls_chart_legend(f, "ceiling as R grows without bound", &dash);
    ls_chart_legend_brief(f, "ceiling (R \xe2\x86\x92 \xe2\x88\x9e)");
    if (ranges)
        extrapolation_legend(f, "R");
    snprintf(text, sizeof text,
             "m = N<sub>act</sub> / N<sub>total</sub> and N<sub>loop</sub> / N<sub>act</sub> = %.3g from the architecture template; \xcf\x81<sub>eff</sub> = 1 at R = 1.",
             ls_arch_loop_fraction(t));
    ls_chart_note(f, text);
    return finish(f, o, len, err);
}
