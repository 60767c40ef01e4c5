#include "loopscale/plot.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loopscale/svg.h"

#define MAX_GROUPS 8
#define CURVE_POINTS 48

/* ---- small helpers ------------------------------------------------------- */

/* A number as short as a reader wants it: 3 significant digits, exponent
 * without '+' or leading zeros ("3e8", "1.5e21", "0.6"). */
static void short_number(char *buf, size_t size, double x)
{
    char tmp[48];
    snprintf(tmp, sizeof tmp, "%.3g", x);
    char *e = strchr(tmp, 'e');
    if (!e) {
        snprintf(buf, size, "%s", tmp);
        return;
    }
    int exponent = (int)strtol(e + 1, NULL, 10);
    *e = '\0';
    snprintf(buf, size, "%se%d", tmp, exponent);
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
    snprintf(buf, size, "%s %s to %s", name, a, b);
}


static char *finish(svg_figure *f, ls_error *err)
{
    char *text = ls_svg_figure_render(f, err);
    ls_svg_figure_free(f);
    return text;
}

static svg_figure *new_figure(const char *title, size_t rows, size_t cols, ls_error *err)
{
    svg_figure *f = ls_svg_figure_new(title, rows, cols);
    if (!f)
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory while building the plot");
    return f;
}

/* Ticks at the powers of two in [lo, hi] (loop counts). */
static int powers_of_two(svg_panel *p, double lo, double hi)
{
    double v[40];
    size_t n = 0;
    for (double t = 1; t <= hi * (1 + 1e-9) && n < 40; t *= 2)
        if (t >= lo * (1 - 1e-9))
            v[n++] = t;
    return ls_svg_panel_ticks(p, SVG_AXIS_X, v, n);
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

static const fit_view *sort_view;

/* Rows of one series together: same N_act, E, N_total and key; then by x. */
static int cmp_rows(const void *a, const void *b)
{
    const sweep_row *x = &sort_view->s->rows[*(const size_t *)a], *y = &sort_view->s->rows[*(const size_t *)b];
    double kx[5] = {x->n_act, x->E, x->n_total, row_key(sort_view, x), sort_view->by_r ? x->R : x->tokens};
    double ky[5] = {y->n_act, y->E, y->n_total, row_key(sort_view, y), sort_view->by_r ? y->R : y->tokens};
    for (int i = 0; i < 5; i++) {
        if (i < 4 && same(kx[i], ky[i]))
            continue;
        if (kx[i] != ky[i])
            return kx[i] < ky[i] ? -1 : 1;
    }
    return 0;
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

char *ls_plot_fit(const sweep *s, const law *l, double rmse, ls_error *err)
{
    if (s->n == 0) {
        ls_error_set(err, LS_ERR_DATA, "no runs to plot");
        return NULL;
    }
    size_t n = s->n;
    double *scratch = malloc(2 * n * sizeof *scratch);
    size_t *idx = malloc(n * sizeof *idx);
    if (!scratch || !idx) {
        free(scratch);
        free(idx);
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
    svg_figure *f = new_figure(title, eg.n, ng.n, err);
    if (!f) {
        free(scratch);
        free(idx);
        return NULL;
    }
    ls_svg_figure_set_panel_size(f, 300, 210);
    const char *key_name = !v.by_r ? "R" : v.key_flops ? "F" : "D";
    svg_style obs = ls_svg_marker_style(SVG_GREY, SVG_MARKER_CIRCLE), fitted = ls_svg_line_style(SVG_GREY);
    ls_svg_figure_legend(f, "observed run", &obs);
    ls_svg_figure_legend(f, "fitted law", &fitted);
    for (size_t k = 0; k < kg.n; k++) {
        svg_style st = ls_svg_line_style((int)k);
        st.marker = SVG_MARKER_CIRCLE;
        st.marker_size = 3;
        group_label(text, sizeof text, key_name, &kg, k);
        if (v.by_r && !v.key_flops)
            strncat(text, " tokens", sizeof text - strlen(text) - 1);
        else if (v.by_r)
            strncat(text, " FLOPs", sizeof text - strlen(text) - 1);
        ls_svg_figure_legend(f, text, &st);
    }
    double xs[CURVE_POINTS], ys[CURVE_POINTS];
    double *ox = malloc(n * sizeof *ox), *oy = malloc(n * sizeof *oy);
    if (!ox || !oy) {
        free(ox);
        free(oy);
        free(scratch);
        free(idx);
        ls_svg_figure_free(f);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory while building the plot");
        return NULL;
    }
    for (size_t pr = 0; pr < eg.n; pr++)
        for (size_t pc = 0; pc < ng.n; pc++) {
            svg_panel *p = ls_svg_figure_panel(f, pr, pc);
            char a[96], b[96];
            group_label(a, sizeof a, "E", &eg, pr);
            group_label(b, sizeof b, "N_act", &ng, pc);
            snprintf(text, sizeof text, "%s, %s", a, b);
            ls_svg_panel_title(p, text);
            ls_svg_panel_axis(p, SVG_AXIS_X, pr + 1 == eg.n ? (v.by_r ? "R (loops)" : "D (tokens)") : NULL,
                           SVG_SCALE_LOG);
            ls_svg_panel_axis(p, SVG_AXIS_Y, pc == 0 ? "loss (nats/token)" : NULL, SVG_SCALE_LINEAR);
            if (v.by_r)
                powers_of_two(p, rmin, rmax);
            size_t m = 0;
            for (size_t i = 0; i < n; i++)
                if (group_of(&eg, s->rows[i].E) == pr && group_of(&ng, s->rows[i].n_act) == pc)
                    idx[m++] = i;
            sort_view = &v;
            qsort(idx, m, sizeof *idx, cmp_rows);
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
                    svg_style st = ls_svg_line_style(color);
                    st.width = 1.5;
                    ls_svg_panel_line(p, xs, ys, CURVE_POINTS, &st);
                }
                svg_style mk = ls_svg_marker_style(color, SVG_MARKER_CIRCLE);
                mk.marker_size = 3;
                ls_svg_panel_line(p, ox, oy, end - start, &mk);
                start = end;
            }
        }
    snprintf(text, sizeof text, "Markers: the %zu observed runs of %s. Lines: the fitted law along each series%s.",
             n, s->name ? s->name : "the sweep", v.by_r ? (v.key_flops ? " (equal training FLOPs)" : " (equal tokens)") : "");
    ls_svg_figure_note(f, text);
    if (!isnan(rmse)) {
        char r[32];
        short_number(r, sizeof r, rmse);
        snprintf(text, sizeof text, "Law %s, RMSE %s (loss units).", kind, r);
        ls_svg_figure_note(f, text);
    }
    free(ox);
    free(oy);
    free(scratch);
    free(idx);
    return finish(f, err);
}

/* ---- holdout --------------------------------------------------------------------- */

char *ls_plot_holdout(const sweep *s, const holdout_result *r, ls_error *err)
{
    if (r->nlaws == 0 || !r->test) {
        ls_error_set(err, LS_ERR_DATA, "no held-out results to plot");
        return NULL;
    }
    size_t cols = r->nlaws <= 3 ? r->nlaws : r->nlaws == 4 ? 2 : 3;
    size_t rows = (r->nlaws + cols - 1) / cols;
    svg_figure *f = new_figure("Held-out runs: predicted against observed loss", rows, cols, err);
    if (!f)
        return NULL;
    ls_svg_figure_set_panel_size(f, 330, 300);
    double *px = malloc((s->n ? s->n : 1) * sizeof *px), *py = malloc((s->n ? s->n : 1) * sizeof *py);
    if (!px || !py) {
        free(px);
        free(py);
        ls_svg_figure_free(f);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory while building the plot");
        return NULL;
    }
    static const svg_marker markers[] = {SVG_MARKER_CIRCLE, SVG_MARKER_SQUARE, SVG_MARKER_TRIANGLE,
                                         SVG_MARKER_DIAMOND, SVG_MARKER_STAR};
    char text[256];
    for (size_t c = 0; c < r->ncolumns; c++) {
        if (r->columns[c].skipped)
            continue;
        svg_style st = ls_svg_marker_style((int)c, markers[c % 5]);
        st.hollow = 1;
        snprintf(text, sizeof text, "%s held out (%zu runs)", r->columns[c].label, r->columns[c].ntest);
        ls_svg_figure_legend(f, text, &st);
    }
    svg_style diag = ls_svg_line_style(SVG_GREY);
    diag.dash = SVG_DASH_DASHED;
    diag.width = 1.2;
    ls_svg_figure_legend(f, "prediction = observation", &diag);
    for (size_t li = 0; li < r->nlaws; li++) {
        svg_panel *p = ls_svg_figure_panel(f, li / cols, li % cols);
        char kind[64];
        ls_law_kind_format(r->laws[li], kind, sizeof kind);
        ls_svg_panel_title(p, kind);
        ls_svg_panel_axis(p, SVG_AXIS_X, "observed loss", SVG_SCALE_LINEAR);
        ls_svg_panel_axis(p, SVG_AXIS_Y, li % cols == 0 ? "predicted loss" : NULL, SVG_SCALE_LINEAR);
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
            svg_style st = ls_svg_marker_style((int)c, markers[c % 5]);
            st.hollow = 1;
            ls_svg_panel_line(p, px, py, m, &st);
            shown++;
        }
        if (!(lo < hi)) {
            lo = 1.0;
            hi = 3.0;
        }
        double pad = 0.05 * (hi - lo);
        lo -= pad;
        hi += pad;
        ls_svg_panel_range(p, SVG_AXIS_X, lo, hi);
        ls_svg_panel_range(p, SVG_AXIS_Y, lo, hi);
        double d[2] = {lo, hi};
        ls_svg_panel_line(p, d, d, 2, &diag);
        /* The held-out RMSEs, top left, where a good law leaves no points. */
        size_t k = 0;
        for (size_t c = 0; c < r->ncolumns; c++) {
            const holdout_cell *cell = &r->cells[li * r->ncolumns + c];
            if (r->columns[c].skipped || isnan(cell->rmse))
                continue;
            char num[32];
            short_number(num, sizeof num, cell->rmse);
            snprintf(text, sizeof text, "RMSE %s: %s%s", r->columns[c].label, num, cell->converged ? "" : " *");
            ls_svg_panel_text(p, lo + 0.03 * (hi - lo), hi - (0.07 + 0.065 * (double)k) * (hi - lo), text, -1);
            k++;
        }
        if (shown == 0)
            ls_svg_panel_text(p, (lo + hi) / 2, (lo + hi) / 2, "no held-out fit", 0);
    }
    snprintf(text, sizeof text,
             "Each law is fitted on the other runs and predicts the held-out ones; RMSE in loss units (%zu runs).", s->n);
    ls_svg_figure_note(f, text);
    free(px);
    free(py);
    return finish(f, err);
}

/* ---- isoflop ----------------------------------------------------------------------- */

char *ls_plot_isoflop(const law *l, const arch_template *t, const plot_isoflop_spec *spec, ls_error *err)
{
    size_t ncombo = spec->nE * spec->nR;
    if (spec->nflops == 0 || ncombo == 0) {
        ls_error_set(err, LS_ERR_DATA, "no IsoFLOP profile to plot");
        return NULL;
    }
    char kind[64], text[256];
    ls_law_kind_format(l->kind, kind, sizeof kind);
    snprintf(text, sizeof text, "IsoFLOP profiles: loss against N_act at fixed compute (%s)", kind);
    svg_figure *f = new_figure(text, 1, 1, err);
    if (!f)
        return NULL;
    ls_svg_figure_set_panel_size(f, 560, 380);
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
        ls_svg_figure_free(f);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory while building the plot");
        return NULL;
    }
    svg_panel *p = ls_svg_figure_panel(f, 0, 0);
    ls_svg_panel_axis(p, SVG_AXIS_X, "N_act (active parameters)", SVG_SCALE_LOG);
    ls_svg_panel_axis(p, SVG_AXIS_Y, "loss (nats/token)", SVG_SCALE_LINEAR);
    static const svg_dash dashes[] = {SVG_DASH_SOLID, SVG_DASH_DASHED, SVG_DASH_DOTTED, SVG_DASH_DASHDOT};
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
            svg_style st = ls_svg_line_style(by_combo ? (int)c : (int)fi);
            st.dash = by_combo ? SVG_DASH_SOLID : dashes[c % 4];
            ls_svg_panel_line(p, grid, loss, points, &st);
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
        ls_svg_figure_free(f);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory in the solver");
        return NULL;
    }
    /* The minima, joined across budgets for each (E, R): where the
     * compute-optimal models lie. */
    svg_style mk = ls_svg_marker_style(SVG_BLACK, SVG_MARKER_CIRCLE);
    mk.marker_size = 4;
    for (size_t c = 0; c < ncombo; c++) {
        double xs[64], ys[64];
        size_t m = 0;
        for (size_t fi = 0; fi < spec->nflops && m < 64; fi++)
            if (!isnan(min_n[fi * ncombo + c])) {
                xs[m] = min_n[fi * ncombo + c];
                ys[m] = min_l[fi * ncombo + c];
                m++;
            }
        svg_style join = ls_svg_line_style(SVG_GREY);
        join.width = spec->nflops > 1 ? 1.0 : 0.0;
        join.dash = SVG_DASH_DOTTED;
        join.marker = SVG_MARKER_CIRCLE;
        join.marker_size = 4;
        join.color = by_combo ? (int)c : SVG_BLACK;
        ls_svg_panel_line(p, xs, ys, m, &join);
    }
    if (ylo < yhi) {
        double pad = 0.06 * (yhi - ylo);
        ls_svg_panel_range(p, SVG_AXIS_Y, ylo - pad, yhi + pad);
    }
    for (size_t fi = 0; fi < spec->nflops && !by_combo; fi++) {
        char num[32];
        short_number(num, sizeof num, spec->flops[fi]);
        snprintf(text, sizeof text, "F = %s FLOPs", num);
        svg_style st = ls_svg_line_style((int)fi);
        ls_svg_figure_legend(f, text, &st);
    }
    for (size_t c = 0; c < ncombo && (by_combo || ncombo > 1); c++) {
        snprintf(text, sizeof text, "E = %g, R = %g", spec->E[c / spec->nR], spec->R[c % spec->nR]);
        svg_style st = ls_svg_line_style(by_combo ? (int)c : SVG_BLACK);
        st.dash = by_combo ? SVG_DASH_SOLID : dashes[c % 4];
        ls_svg_figure_legend(f, text, &st);
    }
    ls_svg_figure_legend(f, "minimum (N_act*, loss*)", &mk);
    if (by_combo) {
        char num[32];
        short_number(num, sizeof num, spec->flops[0]);
        snprintf(text, sizeof text, "All of F = %s training FLOPs spent: D = F / (6 N_unroll).", num);
    } else {
        snprintf(text, sizeof text, "All of each budget spent: D = F / (6 N_unroll); dotted: the minima across budgets.");
    }
    ls_svg_figure_note(f, text);
    free(grid);
    free(loss);
    free(tokens);
    free(min_n);
    free(min_l);
    return finish(f, err);
}

/* ---- solve --------------------------------------------------------------------------- */

char *ls_plot_solve(const law *l, const arch_template *t, const solve_budget *b, const solve_options *o,
                 const solve_result *r, ls_error *err)
{
    if (o->nR == 0 || o->nE == 0 || r->ncandidates != o->nR * o->nE) {
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
    svg_figure *f = new_figure(title, 1, 1, err);
    if (!f)
        return NULL;
    ls_svg_figure_set_panel_size(f, 560, 380);
    size_t nR = o->nR;
    double *Rs = malloc(nR * sizeof *Rs), *ys = malloc(nR * sizeof *ys), *env = malloc((nR + 2) * sizeof *env),
           *free_env = malloc(nR * sizeof *free_env), *bx = malloc((nR + 2) * sizeof *bx),
           *blo = malloc((nR + 2) * sizeof *blo), *bhi = malloc((nR + 2) * sizeof *bhi);
    size_t *order = malloc(nR * sizeof *order);
    if (!Rs || !ys || !env || !free_env || !bx || !blo || !bhi || !order) {
        free(Rs), free(ys), free(env), free(free_env), free(bx), free(blo), free(bhi), free(order);
        ls_svg_figure_free(f);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory while building the plot");
        return NULL;
    }
    /* R in increasing order (the candidates may come in any). */
    for (size_t i = 0; i < nR; i++)
        order[i] = i;
    for (size_t i = 1; i < nR; i++)
        for (size_t j = i; j > 0 && o->R[order[j]] < o->R[order[j - 1]]; j--) {
            size_t tmp = order[j];
            order[j] = order[j - 1];
            order[j - 1] = tmp;
        }
    for (size_t i = 0; i < nR; i++) {
        Rs[i] = o->R[order[i]];
        env[i] = INFINITY;
        free_env[i] = INFINITY;
    }
    svg_panel *p = ls_svg_figure_panel(f, 0, 0);
    ls_svg_panel_axis(p, SVG_AXIS_X, "R (loops)", SVG_SCALE_LINEAR);
    ls_svg_panel_axis(p, SVG_AXIS_Y, "loss at the best N_act (nats/token)", SVG_SCALE_LINEAR);
    double lo = INFINITY, hi = -INFINITY;
    int status = 0;
    for (size_t e = 0; e < o->nE; e++) {
        for (size_t i = 0; i < nR; i++) {
            const solve_candidate *c = &r->candidates[e * nR + order[i]];
            ys[i] = c->feasible ? c->loss : NAN;
            if (c->feasible) {
                env[i] = fmin(env[i], c->loss);
                lo = fmin(lo, c->loss);
                hi = fmax(hi, c->loss);
            }
            solve_candidate u;
            if (ls_solve_candidate_at(l, t, b, o->E[e], Rs[i], o->ladder, o->nladder, 0, &u) != 0)
                status = LS_ERR_INTERNAL;
            else if (u.feasible)
                free_env[i] = fmin(free_env[i], u.loss);
        }
        svg_style st = ls_svg_line_style((int)e);
        st.marker = SVG_MARKER_CIRCLE;
        st.marker_size = 3;
        ls_svg_panel_line(p, Rs, ys, nR, &st);
        snprintf(text, sizeof text, "E = %g", o->E[e]);
        ls_svg_figure_legend(f, text, &st);
    }
    for (size_t i = 0; i < nR; i++) {
        if (isinf(free_env[i]))
            free_env[i] = NAN;
        else
            lo = fmin(lo, free_env[i]);
    }
    if (status != 0 || !(lo <= hi)) {
        free(Rs), free(ys), free(env), free(free_env), free(bx), free(blo), free(bhi), free(order);
        ls_svg_figure_free(f);
        ls_error_set(err, status ? LS_ERR_INTERNAL : LS_ERR_DATA,
                     status ? "out of memory in the solver" : "no feasible candidate to plot");
        return NULL;
    }
    double span = hi > lo ? hi - lo : 0.01;
    double ylo = lo - 0.12 * span, yhi = hi + 0.05 * span;
    double xlo = Rs[0] - 0.5, xhi = Rs[nR - 1] + 0.5;
    if (xlo < 0.5)
        xlo = 0.5;
    ls_svg_panel_range(p, SVG_AXIS_X, xlo, xhi);
    ls_svg_panel_range(p, SVG_AXIS_Y, ylo, yhi);
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
    ls_svg_panel_band(p, bx, blo, bhi, nb, 1, 0.13);
    svg_style band = ls_svg_line_style(1);
    band.width = 0;
    band.fill_opacity = 0.13;
    ls_svg_figure_legend(f, "out of reach under the budget", &band);
    if (isfinite(b->mem_bytes)) {
        svg_style fe = ls_svg_line_style(SVG_BLACK);
        fe.dash = SVG_DASH_DASHED;
        fe.width = 1.3;
        ls_svg_panel_line(p, Rs, free_env, nR, &fe);
        ls_svg_figure_legend(f, "best of any E with no memory limit", &fe);
    }
    if (r->has_choice) {
        svg_style eps = ls_svg_line_style(SVG_GREY);
        eps.dash = SVG_DASH_DOTTED;
        eps.width = 1.2;
        ls_svg_panel_hline(p, r->best.loss + o->eps, &eps, "lowest loss + epsilon");
        svg_style star = ls_svg_marker_style(SVG_BLACK, SVG_MARKER_STAR);
        star.marker_size = 9;
        double cx = r->choice.R, cy = r->choice.loss;
        ls_svg_panel_line(p, &cx, &cy, 1, &star);
        snprintf(text, sizeof text, "chosen: R* = %g, E* = %g", r->choice.R, r->choice.E);
        ls_svg_figure_legend(f, text, &star);
    }
    char kind[64];
    ls_law_kind_format(l->kind, kind, sizeof kind);
    snprintf(text, sizeof text,
             "Law %s. Each point: the N_act that minimises the loss at that (E, R), with D = F / (6 N_unroll).", kind);
    ls_svg_figure_note(f, text);
    free(Rs), free(ys), free(env), free(free_env), free(bx), free(blo), free(bhi), free(order);
    return finish(f, err);
}

/* ---- rho_eff -------------------------------------------------------------------------- */

char *ls_plot_rho_eff(const law *l, const arch_template *t, const double *E, size_t nE, double r_max, ls_error *err)
{
    if (nE == 0 || !(r_max > 1)) {
        ls_error_set(err, LS_ERR_DATA, "no curve to plot");
        return NULL;
    }
    char kind[64], text[256];
    ls_law_kind_format(l->kind, kind, sizeof kind);
    snprintf(text, sizeof text, "Effective parameters per active parameter: rho_eff(R) = N_eff / N_act (%s)", kind);
    svg_figure *f = new_figure(text, 1, 1, err);
    if (!f)
        return NULL;
    ls_svg_figure_set_panel_size(f, 560, 380);
    svg_panel *p = ls_svg_figure_panel(f, 0, 0);
    ls_svg_panel_axis(p, SVG_AXIS_X, "R (loops)", SVG_SCALE_LINEAR);
    ls_svg_panel_axis(p, SVG_AXIS_Y, "rho_eff = N_eff / N_act", SVG_SCALE_LINEAR);
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
        svg_style st = ls_svg_line_style((int)e);
        ls_svg_panel_line(p, xs, ys, N, &st);
        double ceiling = ls_law_rho_eff_ceiling(l, &x);
        char m[32];
        short_number(m, sizeof m, x.n_act / x.n_total);
        snprintf(text, sizeof text, "E = %g (m = %s)", E[e], m);
        ls_svg_figure_legend(f, text, &st);
        if (isfinite(ceiling) && ceiling > 1.0) {
            svg_style dash = ls_svg_line_style((int)e);
            dash.dash = SVG_DASH_DASHED;
            dash.width = 1.0;
            ls_svg_panel_hline(p, ceiling, &dash, NULL);
            top = fmax(top, ceiling);
        }
    }
    ls_svg_panel_range(p, SVG_AXIS_X, 1.0, r_max);
    ls_svg_panel_range(p, SVG_AXIS_Y, 1.0 - 0.03 * (top - 1.0 > 0 ? top - 1.0 : 1.0), top + 0.06 * (top - 1.0 > 0 ? top - 1.0 : 1.0));
    svg_style dash = ls_svg_line_style(SVG_BLACK);
    dash.dash = SVG_DASH_DASHED;
    dash.width = 1.0;
    ls_svg_figure_legend(f, "ceiling as R grows without bound", &dash);
    snprintf(text, sizeof text,
             "m = N_act / N_total and N_loop / N_act = %.3g from the architecture template; rho_eff = 1 at R = 1.",
             ls_arch_loop_fraction(t));
    ls_svg_figure_note(f, text);
    return finish(f, err);
}
