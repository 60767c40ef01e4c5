#include "loopscale/plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loopscale/chart.h"

#define MAX_GROUPS 8
#define CURVE_POINTS 48

/* ---- small helpers ------------------------------------------------------- */

/* A number as a reader wants it in a figure, as markup: 3 significant
 * digits, large and small ones as m x 10^k with a superscript ("3x10^8",
 * "10^21", "0.6"). */
static void short_number(char *buf, size_t size, double x) { ls_chart_number(buf, size, x); }

/* Plain text (a file or column name) as markup. */
static void plain(char *buf, size_t size, const char *text) { ls_chart_escape(buf, size, text); }

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
} grouping;

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
    short_number(a, sizeof a, g->lo[i]);
    if (!g->binned) {
        snprintf(buf, size, "%s = %s", name, a);
        return;
    }
    short_number(b, sizeof b, g->hi[i]);
    snprintf(buf, size, "%s = %s\xe2\x80\x93%s", name, a, b);
}


static unsigned char *finish(chart *f, const chart_output *o, size_t *len, ls_error *err)
{
    unsigned char *bytes = ls_chart_render(f, o, len, err);
    ls_chart_free(f);
    return bytes;
}

static chart *new_figure(const char *title, size_t rows, size_t cols, ls_error *err)
{
    chart *f = ls_chart_new(title, rows, cols);
    if (!f)
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory while building the plot");
    return f;
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
    const sweep *s;
    int by_r;       /* x is R (else D) */
    int key_flops;  /* series at equal training FLOPs (else equal tokens) */
} fit_view;

static double row_key(const fit_view *v, const sweep_row *r)
{
    if (!v->by_r)
        return r->R;
    if (!v->key_flops)
        return r->tokens;
    law_point x = ls_sweep_row_point(r);
    return ls_law_training_flops(&x);
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
        const sweep_row *r = &v->s->rows[idx[i]];
        row_order o = {{r->n_act, r->E, r->n_total, row_key(v, r), v->by_r ? r->R : r->tokens}, idx[i]};
        order[i] = o;
    }
    qsort(order, m, sizeof *order, cmp_rows);
    for (size_t i = 0; i < m; i++)
        idx[i] = order[i].row;
}

static int same_series(const fit_view *v, const sweep_row *a, const sweep_row *b)
{
    return same(a->n_act, b->n_act) && same(a->E, b->E) && same(a->n_total, b->n_total) &&
           same(row_key(v, a), row_key(v, b));
}

/* The law along one series: x from its first to its last run. */
static void fitted_curve(const fit_view *v, const law *l, const sweep_row *rows, const size_t *idx, size_t n,
                         double *xs, double *ys)
{
    const sweep_row *first = &rows[idx[0]];
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
        law_point x = ls_sweep_row_point(first);
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
        ys[k] = ls_law_loss(l, &x);
    }
}

unsigned char *ls_plot_fit(const sweep *s, const law *l, double rmse, const chart_output *o, size_t *len, ls_error *err)
{
    if (s->n == 0) {
        ls_error_set(err, LS_ERR_DATA, "no runs to plot");
        return NULL;
    }
    size_t n = s->n;
    double *scratch = malloc(2 * n * sizeof *scratch);
    size_t *idx = malloc(n * sizeof *idx);
    row_order *order = malloc(n * sizeof *order);
    if (!scratch || !idx || !order) {
        free(scratch);
        free(idx);
        free(order);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory while building the plot");
        return NULL;
    }
    double *vals = scratch + n;
    fit_view v = {s, 0, 0};
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
    for (size_t i = 0; i < n; i++) {
        law_point x = ls_sweep_row_point(&s->rows[i]);
        vals[i] = ls_law_training_flops(&x);
    }
    size_t nflops = distinct(vals, n, scratch);
    v.key_flops = nflops < ntokens;

    grouping eg, ng, kg;
    for (size_t i = 0; i < n; i++)
        vals[i] = s->rows[i].E;
    make_grouping(vals, n, 6, scratch, &eg);
    for (size_t i = 0; i < n; i++)
        vals[i] = s->rows[i].n_act;
    make_grouping(vals, n, 4, scratch, &ng);
    for (size_t i = 0; i < n; i++)
        vals[i] = row_key(&v, &s->rows[i]);
    make_grouping(vals, n, MAX_GROUPS, scratch, &kg);

    char title[160], text[256];
    char kind[64];
    ls_law_kind_format(l->kind, kind, sizeof kind);
    snprintf(title, sizeof title, "Observed and fitted loss against %s: %s", v.by_r ? "loops R" : "tokens D", kind);
    chart *f = new_figure(title, eg.n, ng.n, err);
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
    double xs[CURVE_POINTS], ys[CURVE_POINTS];
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
                }
                if (end - start >= 2) {
                    fitted_curve(&v, l, s->rows, idx + start, end - start, xs, ys);
                    chart_style st = ls_chart_line_style(color);
                    st.width = 1.5;
                    ls_chart_panel_line(p, xs, ys, CURVE_POINTS, &st);
                }
                chart_style mk = ls_chart_marker_style(color, CHART_MARKER_CIRCLE);
                mk.marker_size = 2.0;
                ls_chart_panel_line(p, ox, oy, end - start, &mk);
                start = end;
            }
        }
    char name[256];
    plain(name, sizeof name, s->name ? s->name : "the sweep");
    snprintf(text, sizeof text, "Markers: the %zu observed runs of %s. Lines: the fitted law along each series%s.",
             n, name, v.by_r ? (v.key_flops ? " (equal training FLOPs)" : " (equal tokens)") : "");
    ls_chart_note(f, text);
    if (!isnan(rmse)) {
        char r[32];
        short_number(r, sizeof r, rmse);
        snprintf(text, sizeof text, "Law %s, RMSE %s (loss units).", kind, r);
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

unsigned char *ls_plot_holdout(const sweep *s, const holdout_result *r, const chart_output *o, size_t *len, ls_error *err)
{
    if (r->nlaws == 0 || !r->test) {
        ls_error_set(err, LS_ERR_DATA, "no held-out results to plot");
        return NULL;
    }
    size_t cols = r->nlaws <= 3 ? r->nlaws : r->nlaws == 4 ? 2 : 3;
    size_t rows = (r->nlaws + cols - 1) / cols;
    chart *f = new_figure("Held-out runs: predicted against observed loss", rows, cols, err);
    if (!f)
        return NULL;
    ls_chart_set_panel_size(f, 165, 150);
    double *px = malloc((s->n ? s->n : 1) * sizeof *px), *py = malloc((s->n ? s->n : 1) * sizeof *py);
    if (!px || !py) {
        free(px);
        free(py);
        ls_chart_free(f);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory while building the plot");
        return NULL;
    }
    static const chart_marker markers[] = {CHART_MARKER_CIRCLE, CHART_MARKER_SQUARE, CHART_MARKER_TRIANGLE,
                                         CHART_MARKER_DIAMOND, CHART_MARKER_STAR};
    char text[256];
    for (size_t c = 0; c < r->ncolumns; c++) {
        if (r->columns[c].skipped)
            continue;
        chart_style st = ls_chart_marker_style((int)c, markers[c % 5]);
        st.hollow = 1;
        char label[128];
        plain(label, sizeof label, r->columns[c].label);
        snprintf(text, sizeof text, "%s held out (%zu runs)", label, r->columns[c].ntest);
        ls_chart_legend(f, text, &st);
    }
    chart_style diag = ls_chart_line_style(CHART_GREY);
    diag.dash = CHART_DASH_DASHED;
    diag.width = 1.2;
    ls_chart_legend(f, "prediction = observation", &diag);
    int stars = 0;
    for (size_t li = 0; li < r->nlaws; li++) {
        chart_panel *p = ls_chart_panel(f, li / cols, li % cols);
        char kind[64];
        ls_law_kind_format(r->laws[li], kind, sizeof kind);
        ls_chart_panel_title(p, kind);
        ls_chart_panel_axis(p, CHART_AXIS_X, "observed loss (nats/token)", CHART_SCALE_LINEAR);
        ls_chart_panel_axis(p, CHART_AXIS_Y, li % cols == 0 ? "predicted loss (nats/token)" : NULL, CHART_SCALE_LINEAR);
        double lo = INFINITY, hi = -INFINITY;
        size_t shown = 0;
        for (size_t c = 0; c < r->ncolumns; c++) {
            const holdout_cell *cell = &r->cells[li * r->ncolumns + c];
            if (r->columns[c].skipped || isnan(cell->rmse))
                continue;
            size_t m = 0;
            for (size_t i = 0; i < s->n; i++) {
                if (!r->test[c * s->n + i])
                    continue;
                law_point x = ls_sweep_row_point(&s->rows[i]);
                px[m] = s->rows[i].loss;
                py[m] = ls_law_loss(&cell->fitted, &x);
                lo = fmin(lo, fmin(px[m], py[m]));
                hi = fmax(hi, fmax(px[m], py[m]));
                m++;
            }
            chart_style st = ls_chart_marker_style((int)c, markers[c % 5]);
            st.hollow = 1;
            ls_chart_panel_line(p, px, py, m, &st);
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
        ls_chart_panel_range(p, CHART_AXIS_Y, lo, hi);
        double d[2] = {lo, hi};
        ls_chart_panel_line(p, d, d, 2, &diag);
        /* The held-out RMSEs, top left, where a good law leaves no points. */
        size_t k = 0;
        for (size_t c = 0; c < r->ncolumns; c++) {
            const holdout_cell *cell = &r->cells[li * r->ncolumns + c];
            if (r->columns[c].skipped || isnan(cell->rmse))
                continue;
            char num[32];
            short_number(num, sizeof num, cell->rmse);
            char label[128];
            plain(label, sizeof label, r->columns[c].label);
            snprintf(text, sizeof text, "RMSE %s: %s%s", label, num, cell->converged ? "" : " *");
            stars |= !cell->converged;
            ls_chart_panel_text(p, lo + 0.03 * (hi - lo), hi - (0.07 + 0.065 * (double)k) * (hi - lo), text, -1);
            k++;
        }
        if (shown == 0)
            ls_chart_panel_text(p, (lo + hi) / 2, (lo + hi) / 2, "no held-out fit", 0);
    }
    if (stars) {
        chart_style none = ls_chart_marker_style(CHART_BLACK, CHART_MARKER_NONE);
        ls_chart_legend(f, "*: that fit did not converge", &none);
    }
    snprintf(text, sizeof text,
             "Each law is fitted on the other runs and predicts the held-out ones; RMSE in nats/token (%zu runs).", s->n);
    ls_chart_note(f, text);
    free(px);
    free(py);
    return finish(f, o, len, err);
}

/* ---- isoflop ----------------------------------------------------------------------- */

unsigned char *ls_plot_isoflop(const law *l, const arch_template *t, const plot_isoflop_spec *spec, const chart_output *o,
                               size_t *len, ls_error *err)
{
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
    if (!grid || !loss || !tokens || !min_n || !min_l) {
        free(grid);
        free(loss);
        free(tokens);
        free(min_n);
        free(min_l);
        ls_chart_free(f);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory while building the plot");
        return NULL;
    }
    chart_panel *p = ls_chart_panel(f, 0, 0);
    ls_chart_panel_axis(p, CHART_AXIS_X, "active parameters N<sub>act</sub>", CHART_SCALE_LOG);
    ls_chart_panel_axis(p, CHART_AXIS_Y, "loss (nats/token)", CHART_SCALE_LINEAR);
    static const chart_dash dashes[] = {CHART_DASH_SOLID, CHART_DASH_DASHED, CHART_DASH_DOTTED, CHART_DASH_DASHDOT};
    int by_combo = spec->nflops == 1; /* one budget: a colour for each (E, R) */
    double ylo = INFINITY, yhi = -INFINITY;
    int status = 0;
    for (size_t fi = 0; fi < spec->nflops; fi++)
        for (size_t c = 0; c < ncombo; c++) {
            double E = spec->E[c / spec->nR], R = spec->R[c % spec->nR];
            solve_budget b = {spec->flops[fi], INFINITY, 16};
            solve_candidate best;
            min_n[fi * ncombo + c] = NAN;
            min_l[fi * ncombo + c] = NAN;
            if (ls_solve_candidate_at(l, t, &b, E, R, NULL, 0, 0, &best) != 0) {
                status = LS_ERR_INTERNAL;
                continue;
            }
            if (!best.feasible)
                continue;
            for (size_t i = 0; i < points; i++)
                grid[i] = best.n_act * exp(log(30.0) * (2.0 * (double)i / (double)(points - 1) - 1.0));
            ls_solve_isoflop_profile(l, t, spec->flops[fi], E, R, grid, points, loss, tokens);
            chart_style st = ls_chart_line_style(by_combo ? (int)c : (int)fi);
            st.dash = by_combo ? CHART_DASH_SOLID : dashes[c % 4];
            ls_chart_panel_line(p, grid, loss, points, &st);
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
        ls_chart_free(f);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory in the solver");
        return NULL;
    }
    /* The minima, joined across budgets for each (E, R): where the
     * compute-optimal models lie. */
    chart_style mk = ls_chart_marker_style(CHART_BLACK, CHART_MARKER_CIRCLE);
    mk.marker_size = 2.6;
    for (size_t c = 0; c < ncombo; c++) {
        double xs[64], ys[64];
        size_t m = 0;
        for (size_t fi = 0; fi < spec->nflops && m < 64; fi++)
            if (!isnan(min_n[fi * ncombo + c])) {
                xs[m] = min_n[fi * ncombo + c];
                ys[m] = min_l[fi * ncombo + c];
                m++;
            }
        chart_style join = ls_chart_line_style(CHART_GREY);
        join.width = spec->nflops > 1 ? 1.0 : 0.0;
        join.dash = CHART_DASH_DOTTED;
        join.marker = CHART_MARKER_CIRCLE;
        join.marker_size = 2.6;
        join.color = by_combo ? (int)c : CHART_BLACK;
        ls_chart_panel_line(p, xs, ys, m, &join);
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
        ls_chart_legend(f, text, &st);
    }
    for (size_t c = 0; c < ncombo && (by_combo || ncombo > 1); c++) {
        snprintf(text, sizeof text, "E = %g, R = %g", spec->E[c / spec->nR], spec->R[c % spec->nR]);
        chart_style st = ls_chart_line_style(by_combo ? (int)c : CHART_BLACK);
        st.dash = by_combo ? CHART_DASH_SOLID : dashes[c % 4];
        ls_chart_legend(f, text, &st);
    }
    ls_chart_legend(f, "minimum of each profile", &mk);
    if (by_combo) {
        char num[32];
        short_number(num, sizeof num, spec->flops[0]);
        snprintf(text, sizeof text, "All of F = %s training FLOPs spent: D = F / (6 N<sub>unroll</sub>).", num);
    } else {
        snprintf(text, sizeof text, "All of each budget spent: D = F / (6 N<sub>unroll</sub>); dotted: the minima across budgets.");
    }
    ls_chart_note(f, text);
    free(grid);
    free(loss);
    free(tokens);
    free(min_n);
    free(min_l);
    return finish(f, o, len, err);
}

/* ---- solve --------------------------------------------------------------------------- */

unsigned char *ls_plot_solve(const law *l, const arch_template *t, const solve_budget *b, const solve_options *so,
                             const solve_result *r, const chart_output *o, size_t *len, ls_error *err)
{
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
    ls_chart_set_panel_size(f, 300, 200);
    size_t nR = so->nR;
    double *Rs = malloc(nR * sizeof *Rs), *ys = malloc(nR * sizeof *ys), *env = malloc((nR + 2) * sizeof *env),
           *free_env = malloc(nR * sizeof *free_env), *bx = malloc((nR + 2) * sizeof *bx),
           *blo = malloc((nR + 2) * sizeof *blo), *bhi = malloc((nR + 2) * sizeof *bhi);
    size_t *order = malloc(nR * sizeof *order);
    if (!Rs || !ys || !env || !free_env || !bx || !blo || !bhi || !order) {
        free(Rs), free(ys), free(env), free(free_env), free(bx), free(blo), free(bhi), free(order);
        ls_chart_free(f);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory while building the plot");
        return NULL;
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
    ls_chart_panel_axis(p, CHART_AXIS_X, "loops R", CHART_SCALE_LINEAR);
    ls_chart_panel_axis(p, CHART_AXIS_Y, "loss at the best N<sub>act</sub> (nats/token)", CHART_SCALE_LINEAR);
    double lo = INFINITY, hi = -INFINITY;
    int status = 0;
    for (size_t e = 0; e < so->nE; e++) {
        for (size_t i = 0; i < nR; i++) {
            const solve_candidate *c = &r->candidates[e * nR + order[i]];
            ys[i] = c->feasible ? c->loss : NAN;
            if (c->feasible) {
                env[i] = fmin(env[i], c->loss);
                lo = fmin(lo, c->loss);
                hi = fmax(hi, c->loss);
            }
            solve_candidate u;
            if (ls_solve_candidate_at(l, t, b, so->E[e], Rs[i], so->ladder, so->nladder, 0, &u) != 0)
                status = LS_ERR_INTERNAL;
            else if (u.feasible)
                free_env[i] = fmin(free_env[i], u.loss);
        }
        chart_style st = ls_chart_line_style((int)e);
        st.marker = CHART_MARKER_CIRCLE;
        st.marker_size = 2.0;
        ls_chart_panel_line(p, Rs, ys, nR, &st);
        snprintf(text, sizeof text, "E = %g", so->E[e]);
        ls_chart_legend(f, text, &st);
    }
    for (size_t i = 0; i < nR; i++) {
        if (isinf(free_env[i]))
            free_env[i] = NAN;
        else
            lo = fmin(lo, free_env[i]);
    }
    if (status != 0 || !(lo <= hi)) {
        free(Rs), free(ys), free(env), free(free_env), free(bx), free(blo), free(bhi), free(order);
        ls_chart_free(f);
        ls_error_set(err, status ? LS_ERR_INTERNAL : LS_ERR_DATA,
                     status ? "out of memory in the solver" : "no feasible candidate to plot");
        return NULL;
    }
    double span = hi > lo ? hi - lo : 0.01;
    double ylo = lo - 0.12 * span, yhi = hi + 0.05 * span;
    double xlo = Rs[0] - 0.5, xhi = Rs[nR - 1] + 0.5;
    if (xlo < 0.5)
        xlo = 0.5;
    ls_chart_panel_range(p, CHART_AXIS_X, xlo, xhi);
    ls_chart_panel_range(p, CHART_AXIS_Y, ylo, yhi);
    /* Losses below the lower envelope of the feasible candidates are out of
     * reach: no (E, R) and N_act under this budget gets there. */
    size_t nb = 0;
    for (size_t i = 0; i < nR; i++) {
        if (isinf(env[i]))
            continue;
        if (nb == 0) {
            bx[nb] = xlo;
            blo[nb] = ylo - span;
            bhi[nb] = env[i];
            nb++;
        }
        bx[nb] = Rs[i];
        blo[nb] = ylo - span;
        bhi[nb] = env[i];
        nb++;
    }
    if (nb > 0) {
        bx[nb] = xhi;
        blo[nb] = ylo - span;
        bhi[nb] = bhi[nb - 1];
        nb++;
    }
    ls_chart_panel_band(p, bx, blo, bhi, nb, 1, 0.13);
    chart_style band = ls_chart_line_style(1);
    band.width = 0;
    band.fill_opacity = 0.13;
    ls_chart_legend(f, "out of reach under the budget", &band);
    if (isfinite(b->mem_bytes)) {
        chart_style fe = ls_chart_line_style(CHART_BLACK);
        fe.dash = CHART_DASH_DASHED;
        fe.width = 1.3;
        ls_chart_panel_line(p, Rs, free_env, nR, &fe);
        ls_chart_legend(f, "best of any E with no memory limit", &fe);
    }
    if (r->has_choice) {
        chart_style eps = ls_chart_line_style(CHART_GREY);
        eps.dash = CHART_DASH_DOTTED;
        eps.width = 1.2;
        ls_chart_panel_hline(p, r->best.loss + so->eps, &eps, "lowest loss + epsilon");
        chart_style star = ls_chart_marker_style(CHART_BLACK, CHART_MARKER_STAR);
        star.marker_size = 6.0;
        double cx = r->choice.R, cy = r->choice.loss;
        ls_chart_panel_line(p, &cx, &cy, 1, &star);
        snprintf(text, sizeof text, "chosen: R<sup>*</sup> = %g, E<sup>*</sup> = %g", r->choice.R, r->choice.E);
        ls_chart_legend(f, text, &star);
    }
    char kind[64];
    ls_law_kind_format(l->kind, kind, sizeof kind);
    snprintf(text, sizeof text,
             "Law %s. Each point: the N<sub>act</sub> that minimises the loss at that (E, R), with D = F / (6 N<sub>unroll</sub>).", kind);
    ls_chart_note(f, text);
    free(Rs), free(ys), free(env), free(free_env), free(bx), free(blo), free(bhi), free(order);
    return finish(f, o, len, err);
}

/* ---- rho_eff -------------------------------------------------------------------------- */

unsigned char *ls_plot_rho_eff(const law *l, const arch_template *t, const double *E, size_t nE, double r_max,
                               const chart_output *o, size_t *len, ls_error *err)
{
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
    ls_chart_panel_axis(p, CHART_AXIS_X, "loops R", CHART_SCALE_LINEAR);
    ls_chart_panel_axis(p, CHART_AXIS_Y, "\xcf\x81<sub>eff</sub> = N<sub>eff</sub> / N<sub>act</sub>", CHART_SCALE_LINEAR);
    enum { N = 121 };
    double xs[N], ys[N];
    double top = 1.0;
    for (size_t e = 0; e < nE; e++) {
        law_point x = ls_arch_point(t, 1e9, E[e], 1.0, 1e11);
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
    snprintf(text, sizeof text,
             "m = N<sub>act</sub> / N<sub>total</sub> and N<sub>loop</sub> / N<sub>act</sub> = %.3g from the architecture template; \xcf\x81<sub>eff</sub> = 1 at R = 1.",
             ls_arch_loop_fraction(t));
    ls_chart_note(f, text);
    return finish(f, o, len, err);
}
