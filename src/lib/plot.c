#include "loopscale/plot.h"

#include <ctype.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chart_internal.h"
#include "text_internal.h"

#include "numtext_internal.h"

#define MAX_GROUPS 8

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

int ls_figure_check_size(const ls_figure *o, ls_error *err) { return ls_chart_check_size(o, err); }

/* ---- uncertainty and extrapolation ------------------------------------------- */

#define BAND_OPACITY 0.16
/* The solve figure's bands, one per E along the same R: wider than this
 * fraction of the loss axis, lighter and edged. */
#define SOLVE_BAND_EDGED 0.04
#define SOLVE_BAND_OPACITY 0.10
#define SOLVE_BAND_EDGE_WIDTH 0.45
#define EXTRAPOLATION_OPACITY 0.07
/* IsoFLOP lines inside the fitted ranges and outside them: three times
 * apart, so that thick and thin read at a glance. */
#define ISOFLOP_INSIDE_WIDTH 1.8
#define ISOFLOP_OUTSIDE_WIDTH 0.6
#define OUT_OF_REACH_COLOR CHART_BOUNDARY /* reserved: no E's line shares it */

size_t ls_plot_band_draws(const ls_lawfile *lf, size_t most)
{
    if (!lf || lf->ndraws < 20 || !lf->draws)
        return 0;
    return lf->ndraws < most ? lf->ndraws : most;
}

#define NO_BAND_NOTE "No bootstrap draws in the law: no band (fit --bootstrap N records them)."

/* The legend entry of the bands: how many draws they are over, and how many
 * the law holds when they use fewer; edged when the bands are. */
static void band_legend(chart *f, size_t used, size_t held, int edged)
{
    char text[128];
    chart_style band = ls_chart_line_style(CHART_GREY);
    band.width = edged ? SOLVE_BAND_EDGE_WIDTH : 0;
    band.edged = edged;
    band.fill_opacity = edged ? 0.2 : 0.3;
    if (used < held)
        snprintf(text, sizeof text, "95%% band: %zu bootstrap draws of the law (of %zu it holds)", used, held);
    else
        snprintf(text, sizeof text, "95%% band: the law's %zu bootstrap draws", used);
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

/* The fit of a figure too small for its grid of panels (a paper column):
 * every run's observed loss against the law's, coloured by E, beside the
 * residuals. x and y are scratch of s->n values each. */
/* ---- the runs a figure draws -------------------------------------------------- */

/* The runs drawn as markers of a sweep's n (LS_PLOT_MAX_RUNS in plot.h):
 * keep[i] for run i, NULL when every run is drawn. */
typedef struct drawn_runs {
    unsigned char *keep;
    size_t n, kept, stride;
} drawn_runs;

static int cmp_double_desc(const void *a, const void *b) { return cmp_double(b, a); }

/* dist[i]: run i's distance from the law (|observed - fitted|; NaN for a
 * run not drawn at all). */
static int choose_runs(size_t n, const double *dist, drawn_runs *d, ls_error *err)
{
    memset(d, 0, sizeof *d);
    d->n = d->kept = n;
    d->stride = 1;
    if (n <= LS_PLOT_MAX_RUNS)
        return 0;
    d->stride = ls_plot_run_stride(n);
    d->keep = calloc(n, 1);
    double *sorted = malloc(n * sizeof *sorted);
    if (!d->keep || !sorted) {
        free(d->keep);
        free(sorted);
        d->keep = NULL;
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory while building the plot");
    }
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!isnan(dist[i]))
            sorted[m++] = dist[i];
    qsort(sorted, m, sizeof *sorted, cmp_double_desc);
    double far = m > LS_PLOT_FARTHEST_RUNS ? sorted[LS_PLOT_FARTHEST_RUNS - 1] : -INFINITY;
    free(sorted);
    d->kept = 0;
    for (size_t i = 0; i < n; i++) {
        d->keep[i] = i % d->stride == 0 || dist[i] >= far;
        d->kept += d->keep[i];
    }
    return 0;
}

static int drawn(const drawn_runs *d, size_t i) { return !d->keep || d->keep[i]; }

size_t ls_plot_run_stride(size_t n) { return n <= LS_PLOT_MAX_RUNS ? 1 : (n + LS_PLOT_MAX_RUNS - 1) / LS_PLOT_MAX_RUNS; }

void ls_plot_runs_drawn_text(char *buf, size_t size, size_t n, const char *farthest)
{
    size_t k = ls_plot_run_stride(n);
    if (k == 1)
        snprintf(buf, size, "%s", "");
    else
        snprintf(buf, size, "every %zu%s of the %zu runs in the sweep's order is drawn, and the %d farthest from %s; "
                 "the RMSEs are over every run", k, ls_ordinal_suffix(k), n, LS_PLOT_FARTHEST_RUNS, farthest);
}

/* The note of a figure that draws some of its runs. */
static void note_drawn(chart *f, const drawn_runs *d, const char *farthest)
{
    if (!d->keep)
        return;
    char text[256];
    ls_plot_runs_drawn_text(text, sizeof text, d->n, farthest);
    text[0] = (char)toupper((unsigned char)text[0]);
    strncat(text, ".", sizeof text - strlen(text) - 1);
    ls_chart_note(f, text);
}

static unsigned char *plot_fit_compact(const ls_sweep *s, const ls_fit_curves *c, const char *kind, double rmse,
                                       const grouping *eg, const drawn_runs *shown, double *x, double *y,
                                       const ls_figure *o, size_t *len, ls_error *err)
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
            if (group_of(eg, s->rows[i].E) != g || !drawn(shown, i))
                continue;
            x[m] = c->fitted[i];
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
    if (shown->keep)
        note_drawn(f, shown, "the law");
    else {
        snprintf(text, sizeof text, "Every one of the %zu runs; a larger figure draws the loss against %s per (E, "
                 "N<sub>act</sub>).", s->n, "R or D");
        ls_chart_note(f, text);
    }
    if (!isnan(rmse)) {
        char r[32];
        short_number(r, sizeof r, rmse);
        snprintf(text, sizeof text, "Law %s, RMSE %s nats/token.", kind, r);
        ls_chart_note(f, text);
    }
    return finish(f, o, len, err);
}

unsigned char *ls_plot_fit(const ls_sweep *s, const ls_lawfile *lf, const ls_fit_curves *c, const ls_figure *o,
                           size_t *len, ls_error *err)
{
    size_t n = s->n;
    if (n == 0 || c->nruns != n) {
        ls_error_set(err, LS_ERR_DATA, n == 0 ? "no runs to plot" : "the fitted curves are not of these runs");
        return NULL;
    }
    const ls_law *l = &lf->law;
    double rmse = lf->has_fit ? lf->fit.rmse : NAN;
    size_t nd = c->band_lo ? c->ndraws : 0;
    double *scratch = malloc(2 * n * sizeof *scratch), *ox = malloc(n * sizeof *ox), *oy = malloc(n * sizeof *oy);
    if (!scratch || !ox || !oy) {
        free(scratch);
        free(ox);
        free(oy);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory while building the plot");
        return NULL;
    }
    double *vals = scratch + n;
    drawn_runs d;
    for (size_t i = 0; i < n; i++)
        scratch[i] = fabs(s->rows[i].loss - c->fitted[i]);
    if (choose_runs(n, scratch, &d, err) != 0) {
        free(scratch);
        free(ox);
        free(oy);
        return NULL;
    }
    double rmin = INFINITY, rmax = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        rmin = fmin(rmin, s->rows[i].R);
        rmax = fmax(rmax, s->rows[i].R);
    }
    grouping eg, ng, kg;
    for (size_t i = 0; i < n; i++)
        vals[i] = s->rows[i].E;
    make_grouping(vals, n, 7, scratch, &eg); /* 1, 2, 4, ..., 64 each a row */
    make_grouping(c->n_act, n, 4, scratch, &ng);
    make_grouping(c->key, n, MAX_GROUPS, scratch, &kg);

    char title[160], text[256];
    char kind[64];
    ls_law_kind_format(l->kind, kind, sizeof kind);
    unsigned char *data = NULL;
    if (o && o->width_pt > 0 && o->height_pt > 0 &&
        (o->width_pt / (double)ng.n < 110 || o->height_pt / (double)(eg.n + 1) < 80)) {
        /* A figure too small for a panel per (E, N_act): the compact
         * view instead, observed against fitted loss for every run. */
        data = plot_fit_compact(s, c, kind, rmse, &eg, &d, ox, oy, o, len, err);
        goto done;
    }
    snprintf(title, sizeof title, "Observed and fitted loss against %s: %s", c->by_r ? "loops R" : "tokens D", kind);
    /* A last row for the residuals of every run in one panel. */
    chart *f = new_figure(title, eg.n + 1, ng.n, err);
    if (!f)
        goto done;
    ls_chart_set_panel_size(f, 135, 95);
    const char *key_name = !c->by_r ? "R" : c->key_flops ? "F" : "D";
    chart_style obs = ls_chart_marker_style(CHART_GREY, CHART_MARKER_CIRCLE), fitted = ls_chart_line_style(CHART_GREY);
    ls_chart_legend(f, "observed run", &obs);
    ls_chart_legend(f, "fitted law", &fitted);
    for (size_t k = 0; k < kg.n; k++) {
        chart_style st = ls_chart_line_style((int)k);
        st.marker = CHART_MARKER_CIRCLE;
        st.marker_size = 2.0;
        group_label(text, sizeof text, key_name, &kg, k);
        if (c->by_r && !c->key_flops)
            strncat(text, " tokens", sizeof text - strlen(text) - 1);
        else if (c->by_r)
            strncat(text, " FLOPs", sizeof text - strlen(text) - 1);
        ls_chart_legend(f, text, &st);
    }
    if (nd)
        band_legend(f, nd, lf->ndraws, 0);
    double ylo = INFINITY, yhi = -INFINITY;
    for (size_t pr = 0; pr < eg.n; pr++)
        for (size_t pc = 0; pc < ng.n; pc++) {
            chart_panel *p = ls_chart_panel(f, pr, pc);
            char a[96], b[96];
            group_label(a, sizeof a, "E", &eg, pr);
            group_label(b, sizeof b, "N<sub>act</sub>", &ng, pc);
            snprintf(text, sizeof text, "%s, %s", a, b);
            ls_chart_panel_title(p, text);
            ls_chart_panel_axis(p, CHART_AXIS_X, pr + 1 == eg.n ? (c->by_r ? "loops R" : "tokens D") : NULL,
                                CHART_SCALE_LOG);
            ls_chart_panel_axis(p, CHART_AXIS_Y, pc == 0 ? "loss (nats/token)" : NULL, CHART_SCALE_LINEAR);
            if (c->by_r)
                powers_of_two(p, rmin, rmax);
            for (size_t k = 0; k < c->nseries; k++) {
                const ls_fit_series *se = &c->series[k];
                if (group_of(&eg, se->E) != pr || group_of(&ng, se->n_act) != pc)
                    continue;
                int color = c->by_r ? (int)group_of(&kg, se->key) : 0;
                size_t m = 0;
                for (size_t j = 0; j < se->count; j++) {
                    size_t i = c->order[se->first + j];
                    ylo = fmin(ylo, s->rows[i].loss);
                    yhi = fmax(yhi, s->rows[i].loss);
                    if (!drawn(&d, i))
                        continue;
                    ox[m] = c->x[i];
                    oy[m++] = s->rows[i].loss;
                }
                if (se->curve != SIZE_MAX) {
                    const double *xs = c->curve_x + se->curve, *ys = c->curve_loss + se->curve;
                    if (nd)
                        ls_chart_panel_band(p, xs, c->band_lo + se->curve, c->band_hi + se->curve, c->points, color,
                                            BAND_OPACITY);
                    chart_style st = ls_chart_line_style(color);
                    st.width = 1.0;
                    ls_chart_panel_line(p, xs, ys, c->points, &st);
                    for (size_t k2 = 0; k2 < c->points; k2++) {
                        ylo = fmin(ylo, ys[k2]);
                        yhi = fmax(yhi, ys[k2]);
                    }
                }
                chart_style mk = ls_chart_marker_style(color, CHART_MARKER_CIRCLE);
                mk.marker_size = 2.0;
                ls_chart_panel_line(p, ox, oy, m, &mk);
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
    for (size_t k = 0; k < (c->by_r ? kg.n : 1); k++) {
        size_t m = 0;
        for (size_t i = 0; i < n; i++) {
            if ((c->by_r && group_of(&kg, c->key[i]) != k) || !drawn(&d, i))
                continue;
            ox[m] = c->fitted[i];
            oy[m] = s->rows[i].loss - c->fitted[i];
            m++;
        }
        chart_style mk = ls_chart_marker_style((int)k, CHART_MARKER_CIRCLE);
        mk.marker_size = 1.6;
        ls_chart_panel_line(rp, ox, oy, m, &mk);
    }
    char name[256];
    plain(name, sizeof name, s->name ? s->name : "the sweep");
    snprintf(text, sizeof text, "Markers: the %zu observed runs of %s. Lines: the fitted law along each series%s.",
             n, name, c->by_r ? (c->key_flops ? " (equal training FLOPs)" : " (equal tokens)") : "");
    ls_chart_note(f, text);
    note_drawn(f, &d, "the law");
    if (!isnan(rmse)) {
        char r[32];
        short_number(r, sizeof r, rmse);
        snprintf(text, sizeof text, "Law %s, RMSE %s nats/token.", kind, r);
        ls_chart_note(f, text);
    }
    data = finish(f, o, len, err);
done:
    free(d.keep);
    free(scratch);
    free(ox);
    free(oy);
    return data;
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

/* The runs column c of a holdout held out: observed loss in px, law li's
 * prediction (fitted without them) in py; lo and hi widened to take them in. */
static size_t held_out_points(const ls_holdout_result *r, const ls_sweep *s, size_t li, size_t c,
                              const drawn_runs *shown, double *px, double *py, double *lo, double *hi)
{
    const double *predicted = r->predicted + (li * r->ncolumns + c) * s->n;
    size_t m = 0;
    for (size_t i = 0; i < s->n; i++) {
        if (!r->test[c * s->n + i] || isnan(predicted[i]) || !drawn(shown, i))
            continue;
        px[m] = s->rows[i].loss;
        py[m] = predicted[i];
        *lo = fmin(*lo, fmin(px[m], py[m]));
        *hi = fmax(*hi, fmax(px[m], py[m]));
        m++;
    }
    return m;
}

/* The runs drawn of law li's held-out predictions, each run's distance its
 * largest |observed - predicted| over the axes that hold it out (dist:
 * room for a run each). */
static int held_out_drawn(const ls_holdout_result *r, const ls_sweep *s, size_t li, double *dist, drawn_runs *shown,
                          ls_error *err)
{
    for (size_t i = 0; i < s->n; i++)
        dist[i] = NAN;
    for (size_t c = 0; c < r->ncolumns; c++) {
        const double *predicted = r->predicted + (li * r->ncolumns + c) * s->n;
        if (r->columns[c].skipped || isnan(r->cells[li * r->ncolumns + c].rmse))
            continue;
        for (size_t i = 0; i < s->n; i++)
            if (r->test[c * s->n + i] && !isnan(predicted[i]))
                dist[i] = fmax(isnan(dist[i]) ? 0 : dist[i], fabs(s->rows[i].loss - predicted[i]));
    }
    return choose_runs(s->n, dist, shown, err);
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
    drawn_runs shown = {0};
    for (size_t li = 0; li < r->nlaws; li++) {
        chart_style st = ls_chart_marker_style((int)li, HOLDOUT_MARKERS[li % 5]);
        st.hollow = 1;
        st.marker_size = 1.8;
        free(shown.keep);
        if (held_out_drawn(r, s, li, px, &shown, err) != 0) {
            ls_chart_free(f);
            free(px);
            free(py);
            return NULL;
        }
        for (size_t c = 0; c < r->ncolumns; c++) {
            const ls_holdout_cell *cell = &r->cells[li * r->ncolumns + c];
            if (r->columns[c].skipped || isnan(cell->rmse))
                continue;
            size_t m = held_out_points(r, s, li, c, &shown, px, py, &lo, &hi);
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
    note_drawn(f, &shown, "each law's prediction");
    free(shown.keep);
    free(px);
    free(py);
    return finish(f, o, len, err);
}

unsigned char *ls_plot_holdout(const ls_sweep *s, const ls_holdout_result *r, const ls_figure *o, size_t *len, ls_error *err)
{
    if (r->nlaws == 0 || !r->test || !r->predicted || r->n != s->n) {
        ls_error_set(err, LS_ERR_DATA, "no held-out results of these runs to plot");
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
    drawn_runs shown = {0};
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
        size_t columns_shown = 0;
        free(shown.keep);
        if (held_out_drawn(r, s, li, px, &shown, err) != 0) {
            ls_chart_free(f);
            free(px);
            free(py);
            return NULL;
        }
        for (size_t c = 0; c < r->ncolumns; c++) {
            const ls_holdout_cell *cell = &r->cells[li * r->ncolumns + c];
            if (r->columns[c].skipped || isnan(cell->rmse))
                continue;
            size_t m = held_out_points(r, s, li, c, &shown, px, py, &lo, &hi);
            chart_style st = ls_chart_marker_style((int)c, HOLDOUT_MARKERS[c % 5]);
            st.hollow = 1;
            ls_chart_panel_line(p, px, py, m, &st);
            for (size_t i = 0; i < m; i++) {
                py[i] = px[i] - py[i];
                worst = fmax(worst, fabs(py[i]));
            }
            ls_chart_panel_line(rp, px, py, m, &st);
            columns_shown++;
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
        if (columns_shown == 0)
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
    note_drawn(f, &shown, "each law's prediction");
    free(shown.keep);
    free(px);
    free(py);
    return finish(f, o, len, err);
}

/* ---- isoflop ----------------------------------------------------------------------- */

unsigned char *ls_plot_isoflop(const ls_lawfile *lf, const ls_arch_template *t,
                               const ls_solve_isoflop_result *profiles, const ls_solve_isoflop_bands *bands,
                               const ls_solve_isoflop_result *frontier, const ls_figure *o, size_t *len, ls_error *err)
{
    const ls_solve_isoflop_result *P = profiles;
    size_t ncombo = P->nE * P->nR, nflops = P->nflops, points = P->points;
    if (P->ncurves == 0 || ncombo == 0 || points < 2 || P->ncurves != nflops * ncombo) {
        ls_error_set(err, LS_ERR_DATA, "no IsoFLOP profile to plot");
        return NULL;
    }
    if (frontier && (frontier->nE != P->nE || frontier->nR != P->nR || frontier->nflops < 2))
        frontier = NULL;
    size_t nd = bands && bands->lo && bands->ncurves == P->ncurves && bands->points == points ? bands->ndraws : 0;
    char kind[64], text[256];
    ls_law_kind_format(lf->law.kind, kind, sizeof kind);
    snprintf(text, sizeof text, "IsoFLOP profiles: loss against N<sub>act</sub> at fixed compute (%s)", kind);
    chart *f = new_figure(text, 1, 1, err);
    if (!f)
        return NULL;
    ls_chart_set_panel_size(f, 300, 200);
    size_t nfr = frontier ? frontier->nflops : 0;
    size_t scratch = points > nfr ? points : nfr;
    scratch = scratch > nflops ? scratch : nflops;
    double *xs = malloc(scratch * sizeof *xs), *ys = malloc(scratch * sizeof *ys);
    unsigned char *out = malloc(scratch); /* which points of a line leave the fitted ranges */
    if (!xs || !ys || !out) {
        free(xs);
        free(ys);
        free(out);
        ls_chart_free(f);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory while building the plot");
        return NULL;
    }
    unsigned any_outside = 0;
    chart_panel *p = ls_chart_panel(f, 0, 0);
    int ranges = lf->has_fit && lf->fit.has_ranges;
    if (ranges)
        shade_beyond(p, lf->fit.n_act_range[0], lf->fit.n_act_range[1]);
    ls_chart_panel_axis(p, CHART_AXIS_X, "active parameters N<sub>act</sub>", CHART_SCALE_LOG);
    ls_chart_panel_axis(p, CHART_AXIS_Y, "loss (nats/token)", CHART_SCALE_LINEAR);
    static const chart_dash dashes[] = {CHART_DASH_SOLID, CHART_DASH_DASHED, CHART_DASH_DOTTED, CHART_DASH_DASHDOT};
    int by_combo = nflops == 1; /* one budget: a colour for each (E, R) */
    double ylo = INFINITY, yhi = -INFINITY;
    for (size_t fi = 0; fi < nflops; fi++)
        for (size_t c = 0; c < ncombo; c++) {
            size_t i = fi * ncombo + c;
            const ls_solve_isoflop_curve *cv = &P->curves[i];
            if (!cv->minimum.feasible || !cv->n_act)
                continue;
            if (nd)
                ls_chart_panel_band(p, cv->n_act, bands->lo + i * points, bands->hi + i * points, points,
                                    by_combo ? (int)c : (int)fi, BAND_OPACITY);
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
            for (size_t k = 0; k < points; k++) {
                out[k] = cv->outside[k] != 0;
                any_outside |= cv->outside[k];
            }
            line_marking_outside(p, cv->n_act, cv->loss, out, points, &st, &thin);
            /* The y range: each curve from N_opt / 10 to 10 N_opt. */
            double n_opt = cv->minimum.n_act;
            for (size_t k = 0; k < points; k++)
                if (cv->n_act[k] >= n_opt / 10.0 && cv->n_act[k] <= n_opt * 10.0 && isfinite(cv->loss[k]))
                    yhi = fmax(yhi, cv->loss[k]);
            ylo = fmin(ylo, cv->minimum.loss);
        }
    /* The compute-optimal frontier of each (E, R): its minimum (N_act*,
     * loss*) as the budget varies continuously, drawn under the minima. */
    for (size_t c = 0; c < ncombo && frontier; c++) {
        for (size_t k = 0; k < nfr; k++) {
            const ls_solve_candidate *m = &frontier->curves[k * ncombo + c].minimum;
            xs[k] = m->feasible ? m->n_act : NAN;
            ys[k] = m->feasible ? m->loss : NAN;
            out[k] = m->feasible && m->outside;
        }
        chart_style fr = ls_chart_line_style(by_combo ? (int)c : CHART_BLACK);
        fr.width = 1.3;
        fr.dash = by_combo ? CHART_DASH_DOTTED : dashes[c % 4];
        chart_style fr_thin = fr;
        fr_thin.width = ISOFLOP_OUTSIDE_WIDTH;
        line_marking_outside(p, xs, ys, out, nfr, &fr, &fr_thin);
    }
    /* The minima of the profiles drawn, on the frontier. */
    chart_style mk = ls_chart_marker_style(CHART_BLACK, CHART_MARKER_CIRCLE);
    mk.marker_size = 2.6;
    for (size_t c = 0; c < ncombo; c++) {
        size_t m = 0;
        for (size_t fi = 0; fi < nflops; fi++) {
            const ls_solve_candidate *mn = &P->curves[fi * ncombo + c].minimum;
            if (!mn->feasible)
                continue;
            xs[m] = mn->n_act;
            ys[m] = mn->loss;
            out[m] = mn->outside != 0;
            m++;
        }
        chart_style dot = mk;
        dot.color = by_combo ? (int)c : CHART_BLACK;
        chart_style hollow = dot;
        hollow.hollow = 1;
        line_marking_outside(p, xs, ys, out, m, &dot, &hollow);
    }
    if (ylo < yhi) {
        double pad = 0.06 * (yhi - ylo);
        ls_chart_panel_range(p, CHART_AXIS_Y, ylo - pad, yhi + pad);
    }
    for (size_t fi = 0; fi < nflops && !by_combo; fi++) {
        char num[32];
        short_number(num, sizeof num, P->curves[fi * ncombo].flops);
        snprintf(text, sizeof text, "F = %s FLOPs", num);
        chart_style st = ls_chart_line_style((int)fi);
        st.width = ISOFLOP_INSIDE_WIDTH;
        ls_chart_legend(f, text, &st);
    }
    for (size_t c = 0; c < ncombo && (by_combo || ncombo > 1); c++) {
        double E = P->curves[c].E, R = P->curves[c].R;
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
        band_legend(f, nd, lf->ndraws, 0);
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
    if (frontier) {
        chart_style fr = ls_chart_line_style(CHART_BLACK);
        fr.width = 1.3;
        fr.dash = by_combo ? CHART_DASH_DOTTED : CHART_DASH_SOLID;
        ls_chart_legend(f, by_combo ? "compute-optimal frontier as F varies"
                                    : "compute-optimal frontier of each (E, R) as F varies, in its dash",
                        &fr);
        ls_chart_legend_brief(f, "frontier");
    }
    const char *between = frontier && !by_combo ? "; the frontier joins the minima of every budget between" : "";
    if (by_combo) {
        char num[32];
        short_number(num, sizeof num, P->curves[0].flops);
        if (t->flops_convention == LS_LAW_FLOPS_6ND)
            snprintf(text, sizeof text, "All of F = %s training FLOPs spent: D = F / (6 N<sub>unroll</sub>).", num);
        else
            snprintf(text, sizeof text, "All of F = %s training FLOPs spent: D = %s (FLOP convention %s).", num,
                     ls_law_flops_formula(t->flops_convention), ls_law_flops_name(t->flops_convention));
    } else if (t->flops_convention == LS_LAW_FLOPS_6ND) {
        snprintf(text, sizeof text, "All of each budget spent: D = F / (6 N<sub>unroll</sub>)%s.", between);
    } else {
        snprintf(text, sizeof text, "All of each budget spent: D = %s (FLOP convention %s)%s.",
                 ls_law_flops_formula(t->flops_convention), ls_law_flops_name(t->flops_convention), between);
    }
    ls_chart_note(f, text);
    if (!nd && ls_plot_band_draws(lf, 1) == 0)
        ls_chart_note(f, NO_BAND_NOTE);
    free(xs);
    free(ys);
    free(out);
    return finish(f, o, len, err);
}

/* ---- solve --------------------------------------------------------------------------- */

unsigned char *ls_plot_solve(const ls_lawfile *lf, const ls_arch_template *t, const ls_solve_budget *b,
                             const ls_solve_options *so, const ls_solve_result *r, const ls_solve_curves *cv,
                             const ls_figure *o, size_t *len, ls_error *err)
{
    const ls_law *l = &lf->law;
    int ranges = lf->has_fit && lf->fit.has_ranges;
    if (so->nR == 0 || so->nE == 0 || r->ncandidates != so->nR * so->nE || cv->ncandidates != r->ncandidates) {
        ls_error_set(err, LS_ERR_DATA, "no candidates to plot");
        return NULL;
    }
    size_t nd = cv->band_lo ? cv->ndraws : 0;
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
    double *Rs = malloc(nR * sizeof *Rs), *env = malloc((nR + 2) * sizeof *env),
           *free_env = malloc(nR * sizeof *free_env), *bx = malloc((nR + 2) * sizeof *bx),
           *blo = malloc((nR + 2) * sizeof *blo), *bhi = malloc((nR + 2) * sizeof *bhi);
    size_t *order = malloc(nR * sizeof *order);
    if (!Rs || !env || !free_env || !bx || !blo || !bhi || !order) {
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
            size_t k = e * nR + order[i];
            const ls_solve_candidate *c = &r->candidates[k];
            yse[i] = c->feasible ? c->loss : NAN;
            if (c->feasible) {
                env[i] = fmin(env[i], c->loss);
                lo = fmin(lo, c->loss);
                hi = fmax(hi, c->loss);
            }
            if (!isnan(cv->unconstrained[k]))
                free_env[i] = fmin(free_env[i], cv->unconstrained[k]);
            dloe[i] = nd && c->feasible ? cv->band_lo[k] : NAN;
            dhie[i] = nd && c->feasible ? cv->band_hi[k] : NAN;
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
                     status ? "out of memory while building the plot" : "no feasible candidate to plot");
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
    int any_edged = 0;
    for (size_t e = 0; e < nE; e++) {
        const double *yse = all_ys + e * nR;
        if (nd) {
            /* A band wide enough to overlap its neighbours' gets a lighter
             * fill and its edges drawn in the E's colour, so that where
             * bands overlap, or lie on the out-of-reach shading, each one's
             * extent still reads; a narrow one stays a halo around its line
             * (edges there would read as a doubled line). */
            const double *dlo = all_lo + e * nR, *dhi = all_hi + e * nR;
            double widest = 0;
            for (size_t i = 0; i < nR; i++)
                if (dhi[i] - dlo[i] > widest)
                    widest = dhi[i] - dlo[i];
            int edged = widest > SOLVE_BAND_EDGED * (yhi - ylo);
            ls_chart_panel_band(p, Rs, dlo, dhi, nR, (int)e, edged ? SOLVE_BAND_OPACITY : BAND_OPACITY);
            if (edged) {
                chart_style edge = ls_chart_line_style((int)e);
                edge.width = SOLVE_BAND_EDGE_WIDTH;
                ls_chart_panel_line(p, Rs, dlo, nR, &edge);
                ls_chart_panel_line(p, Rs, dhi, nR, &edge);
                any_edged = 1;
            }
        }
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
        band_legend(f, nd, lf->ndraws, any_edged);
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
    if (!nd && ls_plot_band_draws(lf, 1) == 0)
        ls_chart_note(f, NO_BAND_NOTE);
    drawn = finish(f, o, len, err);
    f = NULL; /* finish() freed it */
done:
    /* The one way out: every scratch array and the chart (NULL once drawn). */
    free(Rs), free(env), free(free_env), free(bx), free(blo), free(bhi), free(order);
    ls_chart_free(f);
    return drawn;
}

/* ---- rho_eff -------------------------------------------------------------------------- */

unsigned char *ls_plot_rho_eff(const ls_lawfile *lf, const ls_solve_rho_eff *rho, const ls_figure *o, size_t *len,
                               ls_error *err)
{
    size_t nE = rho->nE, N = rho->points;
    if (nE == 0 || N < 2) {
        ls_error_set(err, LS_ERR_DATA, "no curve to plot");
        return NULL;
    }
    double r_max = rho->R[N - 1];
    int ranges = lf->has_fit && lf->fit.has_ranges && r_max > lf->fit.r_range[1] * (1 + 1e-9);
    char kind[64], text[256];
    ls_law_kind_format(lf->law.kind, kind, sizeof kind);
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
    double top = 1.0;
    for (size_t e = 0; e < nE; e++) {
        const double *ys = rho->rho + e * N;
        for (size_t k = 0; k < N; k++)
            if (isfinite(ys[k]))
                top = fmax(top, ys[k]);
        chart_style st = ls_chart_line_style((int)e);
        ls_chart_panel_line(p, rho->R, ys, N, &st);
        char m[32];
        short_number(m, sizeof m, rho->m[e]);
        snprintf(text, sizeof text, "E = %g (m = %s)", rho->E[e], m);
        ls_chart_legend(f, text, &st);
        snprintf(text, sizeof text, "E = %g", rho->E[e]);
        ls_chart_legend_brief(f, text);
        double ceiling = rho->ceiling[e];
        if (isfinite(ceiling) && ceiling > 1.0) {
            chart_style dash = ls_chart_line_style((int)e);
            dash.dash = CHART_DASH_DASHED;
            dash.width = 1.0;
            ls_chart_panel_hline(p, ceiling, &dash, NULL);
            top = fmax(top, ceiling);
        }
    }
    double pad = top - 1.0 > 0 ? top - 1.0 : 1.0;
    ls_chart_panel_range(p, CHART_AXIS_X, 1.0, r_max);
    ls_chart_panel_range(p, CHART_AXIS_Y, 1.0 - 0.03 * pad, top + 0.06 * pad);
    chart_style dash = ls_chart_line_style(CHART_BLACK);
    dash.dash = CHART_DASH_DASHED;
    dash.width = 1.0;
    ls_chart_legend(f, "ceiling as R grows without bound", &dash);
    ls_chart_legend_brief(f, "ceiling (R \xe2\x86\x92 \xe2\x88\x9e)");
    if (ranges)
        extrapolation_legend(f, "R");
    snprintf(text, sizeof text,
             "m = N<sub>act</sub> / N<sub>total</sub> and N<sub>loop</sub> / N<sub>act</sub> = %.3g from the architecture template; \xcf\x81<sub>eff</sub> = 1 at R = 1.",
             rho->loop_fraction);
    ls_chart_note(f, text);
    return finish(f, o, len, err);
}

/* ---- isofit (Hoffmann et al.'s figure 3) ------------------------------------------- */

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

/* Budget b on the left panel: its runs as markers of the given shape (hollow
 * outside the sizes fitted, i.e. dropped by --keep, and for a budget left
 * out), its parabola or interpolant over the sizes fitted, and, for a
 * budget used, its optimum as a star (a budget left out may have its
 * vertex far outside its sizes). */
static void draw_budget(chart_panel *p, const ls_sweep *s, const ls_isofit_result *r, const ls_isofit_curves *c,
                        size_t b, int color, chart_marker marker, int star_color, double *x, double *y)
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
    if (c->count[b] > 0) {
        chart_style curve = ls_chart_line_style(color);
        curve.width = used ? 1.0 : 0.7;
        curve.dash = used ? CHART_DASH_SOLID : CHART_DASH_DASHED;
        ls_chart_panel_line(p, c->n_act + b * c->points, c->loss + b * c->points, c->count[b], &curve);
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
static void loss_range(chart *f, chart_panel *p, const ls_sweep *s, const ls_isofit_options *o,
                       const ls_isofit_result *r, const ls_isofit_curves *c)
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
        const double *y = c->loss + b * c->points;
        for (size_t k = 0; k < c->count[b]; k++)
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
        ls_chart_note(f, text);
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

unsigned char *ls_plot_isofit(const ls_sweep *s, const ls_isofit_options *o, const ls_isofit_result *r,
                              const ls_isofit_curves *curves, const ls_figure *out, size_t *len, ls_error *err)
{
    if (r->nruns != s->n || !r->run_budget || r->nbudgets == 0 || curves->nbudgets != r->nbudgets) {
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
    chart *c = ls_chart_new(title, 1, 2);
    double *x = malloc((s->n ? s->n : 1) * sizeof *x), *y = malloc((s->n ? s->n : 1) * sizeof *y);
    int *color = malloc(r->nbudgets * sizeof *color);
    unsigned char *pick = calloc(r->nbudgets, 1), *drawn = NULL;
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
        draw_budget(left, s, r, curves, b, color[b], marker, minimum ? color[b] : CHART_BLACK, x, y);
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
    loss_range(c, left, s, o, r, curves);
    drawn = ls_chart_render(c, out, len, err);
done:
    ls_chart_free(c);
    free(x);
    free(y);
    free(color);
    free(pick);
    return drawn;
}

/* ---- frontier ----------------------------------------------------------------------- */

/* A frontier's line through its budgets, the budgets the table stars
 * (out[i]: beyond the fitted ranges) hollow and their segments dashed. */
static void frontier_line(chart_panel *p, const double *x, const double *y, const unsigned char *out, size_t n,
                          chart_style st)
{
    st.marker = CHART_MARKER_CIRCLE;
    chart_style beyond = st;
    beyond.dash = CHART_DASH_DASHED;
    beyond.hollow = 1;
    line_marking_outside(p, x, y, out, n, &st, &beyond);
}

/* The legend entry of frontier_line's hollow markers. */
static void frontier_outside_legend(chart *f, unsigned outside)
{
    if (!outside)
        return;
    chart_style st = ls_chart_line_style(CHART_BLACK);
    st.marker = CHART_MARKER_CIRCLE;
    st.dash = CHART_DASH_DASHED;
    st.hollow = 1;
    outside_legend(f, &st, outside, "hollow, starred in the table: ");
}

unsigned char *ls_plot_frontier(const ls_law *l, const ls_frontier_point *points, const unsigned *outside, size_t n,
                                double exponent, double low, double high, double level, const ls_figure *o,
                                size_t *len, ls_error *err)
{
    if (n == 0) {
        ls_error_set(err, LS_ERR_DATA, "no budgets to draw");
        return NULL;
    }
    char kind[64], title[224];
    ls_law_kind_format(l->kind, kind, sizeof kind);
    int at = snprintf(title, sizeof title, "Compute-optimal frontier of %s: N<sub>opt</sub> ~ F<sup>%.4f</sup>", kind,
                      exponent);
    /* The exponent as surely as the fit knew it, as the table states it. */
    if (!isnan(low) && at > 0 && (size_t)at < sizeof title)
        snprintf(title + at, sizeof title - (size_t)at, ", a in [%.4f, %.4f] (%g%%)", low, high, 100 * level);
    chart *c = ls_chart_new(title, 1, 2);
    double *x = malloc(n * sizeof *x), *yn = malloc(n * sizeof *yn), *yd = malloc(n * sizeof *yd),
           *yl = malloc(n * sizeof *yl);
    unsigned char *out = calloc(n, 1), *drawn = NULL;
    if (!c || !x || !yn || !yd || !yl || !out) {
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        goto done;
    }
    unsigned any = 0;
    for (size_t i = 0; i < n; i++) {
        x[i] = points[i].flops;
        yn[i] = points[i].n_opt;
        yd[i] = points[i].d_opt;
        yl[i] = points[i].loss;
        out[i] = outside && outside[i];
        any |= outside ? outside[i] : 0;
    }
    chart_panel *left = ls_chart_panel(c, 0, 0), *right = ls_chart_panel(c, 0, 1);
    chart_style sn = ls_chart_line_style(0), sd = ls_chart_line_style(1), sl = ls_chart_line_style(CHART_BLACK);
    sn.marker = sd.marker = sl.marker = CHART_MARKER_CIRCLE;
    ls_chart_panel_axis(left, CHART_AXIS_X, "training FLOPs F", CHART_SCALE_LOG);
    ls_chart_panel_axis(left, CHART_AXIS_Y, "N<sub>opt</sub>, D<sub>opt</sub>", CHART_SCALE_LOG);
    frontier_line(left, x, yn, out, n, sn);
    frontier_line(left, x, yd, out, n, sd);
    ls_chart_panel_axis(right, CHART_AXIS_X, "training FLOPs F", CHART_SCALE_LOG);
    ls_chart_panel_axis(right, CHART_AXIS_Y, "loss at the optimum (nats/token)", CHART_SCALE_LOG);
    frontier_line(right, x, yl, out, n, sl);
    ls_chart_legend(c, "N<sub>opt</sub> (parameters)", &sn);
    ls_chart_legend(c, "D<sub>opt</sub> = F / (6 N<sub>opt</sub>) (tokens)", &sd);
    ls_chart_legend(c, "loss", &sl);
    frontier_outside_legend(c, any);
    char note[256];
    snprintf(note, sizeof note, "Law: %s, in closed form for a plain model R = 1, E = 1 with unlimited unique "
             "data; %zu %s.", kind, n, n == 1 ? "budget" : "budgets");
    ls_chart_note(c, note);
    drawn = ls_chart_render(c, o, len, err);
done:
    ls_chart_free(c);
    free(x);
    free(yn);
    free(yd);
    free(yl);
    free(out);
    return drawn;
}

/* A whole-number series (R*, E*) as steps, the budgets in increasing F:
 * each value held from its budget to the midpoint in ln F with the next,
 * where it steps.  x, y: room for 3n - 2 points. */
static size_t steps(const ls_frontier_solve_point *points, size_t n, int experts, double *x, double *y)
{
    size_t m = 0;
    for (size_t k = 0; k < n; k++) {
        const ls_frontier_solve_point *p = &points[k];
        double v = experts ? p->E : p->R;
        if (k > 0) {
            x[m] = x[m - 1];
            y[m++] = v;
        }
        x[m] = p->flops;
        y[m++] = v;
        if (k + 1 < n) {
            x[m] = sqrt(p->flops * points[k + 1].flops);
            y[m++] = v;
        }
    }
    return m;
}

/* The distinct values of R* and E* (ticks at each: 3 loops and 4 read
 * apart), sorted, into v; returns how many. */
static size_t distinct_counts(const ls_frontier_solve_point *points, size_t n, double *v)
{
    size_t m = 0;
    for (size_t i = 0; i < 2 * n; i++) {
        double t = i < n ? points[i].R : points[i - n].E;
        size_t at = 0;
        while (at < m && v[at] < t)
            at++;
        if (at < m && v[at] == t)
            continue;
        memmove(v + at + 1, v + at, (m - at) * sizeof *v);
        v[at] = t;
        m++;
    }
    return m;
}

/* A candidate list as text ("1, 2, 4"), cut with "..." when long. */
static void list_text(char *buf, size_t size, const double *v, size_t n)
{
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && len + 16 < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%g", i ? ", " : "", v[i]);
    if (len + 16 >= size && size > 4)
        snprintf(buf + (len < size - 4 ? len : size - 4), 4, "...");
}

/* The figure's notes: the law, the candidates, the memory budget and
 * epsilon, as the table's header says them. */
static void solve_notes(chart *c, const char *kind, const ls_solve_options *so, double mem_bytes, double bits)
{
    char note[640], rs[160], es[160];
    list_text(rs, sizeof rs, so->R, so->nR);
    list_text(es, sizeof es, so->E, so->nE);
    snprintf(note, sizeof note, "Law: %s; at each budget the configuration 'loopscale solve' chooses among R = %s "
             "and E = %s: the fewest loops and experts within epsilon = %.4g (loss units) of the best loss.", kind,
             rs, es, so->eps);
    ls_chart_note(c, note);
    if (isfinite(mem_bytes))
        snprintf(note, sizeof note, "Memory: %.4g bytes of weights at %g bits per weight (N<sub>total</sub> "
                 "&#8804; %.4g).", mem_bytes, bits, 8 * mem_bytes / bits);
    else
        snprintf(note, sizeof note, "Memory: no limit on the weights (%g bits per weight).", bits);
    ls_chart_note(c, note);
}

unsigned char *ls_plot_frontier_solve(const ls_law *l, const ls_frontier_solve_point *points, size_t n,
                                      const ls_solve_options *so, double mem_bytes, double bits,
                                      const ls_figure *o, size_t *len, ls_error *err)
{
    if (n == 0) {
        ls_error_set(err, LS_ERR_DATA, "no budgets to draw");
        return NULL;
    }
    char kind[64], title[160];
    ls_law_kind_format(l->kind, kind, sizeof kind);
    snprintf(title, sizeof title, "Frontier of the chosen architecture under %s", kind);
    chart *c = ls_chart_new(title, 1, 2);
    size_t nstep = 3 * n;
    double *x = malloc(n * sizeof *x), *yn = malloc(n * sizeof *yn), *yd = malloc(n * sizeof *yd),
           *yr = malloc(n * sizeof *yr), *ye = malloc(n * sizeof *ye), *sx = malloc(nstep * sizeof *sx),
           *sy = malloc(nstep * sizeof *sy), *tick_values = malloc(2 * n * sizeof *tick_values);
    unsigned char *out = calloc(n, 1), *drawn = NULL;
    if (!c || !x || !yn || !yd || !yr || !ye || !sx || !sy || !tick_values || !out) {
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        goto done;
    }
    unsigned any = 0;
    for (size_t i = 0; i < n; i++) {
        x[i] = points[i].flops;
        yn[i] = points[i].n_act;
        yd[i] = points[i].tokens;
        yr[i] = points[i].R;
        ye[i] = points[i].E;
        out[i] = points[i].outside != 0;
        any |= points[i].outside;
    }
    chart_panel *left = ls_chart_panel(c, 0, 0), *right = ls_chart_panel(c, 0, 1);
    chart_style sn = ls_chart_line_style(0), sd = ls_chart_line_style(1), sr = ls_chart_line_style(2),
                se = ls_chart_line_style(3);
    sn.marker = sd.marker = sr.marker = se.marker = CHART_MARKER_CIRCLE;
    se.dash = CHART_DASH_DASHED; /* R* and E* may share a value: told apart where they overlap */
    ls_chart_panel_axis(left, CHART_AXIS_X, "training FLOPs F", CHART_SCALE_LOG);
    ls_chart_panel_axis(left, CHART_AXIS_Y, "N<sub>act</sub>, D", CHART_SCALE_LOG);
    frontier_line(left, x, yn, out, n, sn);
    frontier_line(left, x, yd, out, n, sd);
    /* R and E are small whole numbers that double: a log axis keeps 1, 2,
     * 4, 8 evenly apart, with a tick at each value taken.  They change in
     * steps, not along slopes: a line between 3 and 4 loops would read as
     * 3.5 loops between the budgets. */
    ls_chart_panel_axis(right, CHART_AXIS_X, "training FLOPs F", CHART_SCALE_LOG);
    ls_chart_panel_axis(right, CHART_AXIS_Y, "R*, E*", CHART_SCALE_LOG);
    ls_chart_panel_ticks(right, CHART_AXIS_Y, tick_values, distinct_counts(points, n, tick_values));
    for (int experts = 0; experts < 2; experts++) {
        chart_style line = experts ? se : sr, dots = line, hollow;
        line.marker = CHART_MARKER_NONE;
        dots.width = 0;
        hollow = dots;
        hollow.hollow = 1;
        ls_chart_panel_line(right, sx, sy, steps(points, n, experts, sx, sy), &line);
        line_marking_outside(right, x, experts ? ye : yr, out, n, &dots, &hollow);
    }
    ls_chart_legend(c, "N<sub>act</sub> (active parameters)", &sn);
    ls_chart_legend(c, "D (tokens)", &sd);
    ls_chart_legend(c, "R* (loops)", &sr);
    ls_chart_legend(c, "E* (experts)", &se);
    frontier_outside_legend(c, any);
    solve_notes(c, kind, so, mem_bytes, bits);
    drawn = ls_chart_render(c, o, len, err);
done:
    ls_chart_free(c);
    free(x);
    free(yn);
    free(yd);
    free(yr);
    free(ye);
    free(sx);
    free(sy);
    free(tick_values);
    free(out);
    return drawn;
}
