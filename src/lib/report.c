/*
 * report.c — the one-page HTML report (loopscale/report.h).
 *
 * The page is built in one growable buffer whose failure (out of memory)
 * is sticky, so the writers below never need checking one by one.  Figures
 * are SVG documents from loopscale/plot.h, base64-encoded into <img> data:
 * URIs: inlined as <svg> elements they would share one id namespace, and
 * cairo names the glyphs and clip paths of every figure alike ("glyph0-1"),
 * so the second figure would draw with the first one's glyphs.
 */
#include "loopscale/report.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow_internal.h"
#include "numtext_internal.h"
#include "loopscale/plot.h"
#include "loopscale/version.h"
#include "text_internal.h"

typedef struct html {
    char *buf;
    size_t len, cap;
    int failed;
} html;

static void put_n(html *h, const char *text, size_t n)
{
    if (h->failed)
        return;
    if (ls_grow((void **)&h->buf, &h->cap, h->len + n + 1, 1) != 0) {
        h->failed = 1;
        return;
    }
    memcpy(h->buf + h->len, text, n);
    h->len += n;
    h->buf[h->len] = '\0';
}

static void put(html *h, const char *text) { put_n(h, text, strlen(text)); }

/* Formatted text that is markup already (numbers, fixed words): never
 * input strings, which go through put_text. */
static void putf(html *h, const char *fmt, ...) LS_PRINTF(2, 3);
static void putf(html *h, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        h->failed = 1;
        return;
    }
    if ((size_t)n < sizeof small) {
        put_n(h, small, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        h->failed = 1;
        return;
    }
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    put_n(h, big, (size_t)n);
    free(big);
}


/* Text from input, escaped. */
static void put_text(html *h, const char *text)
{
    size_t need = ls_text_escape_xml(NULL, 0, text, LS_TEXT_KEEP_LINES);
    char *buf = malloc(need + 1);
    if (!buf) {
        h->failed = 1;
        return;
    }
    ls_text_escape_xml(buf, need + 1, text, LS_TEXT_KEEP_LINES);
    put_n(h, buf, need);
    free(buf);
}

static void put_base64(html *h, const unsigned char *data, size_t len)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    char quad[4];
    for (size_t i = 0; i < len && !h->failed; i += 3) {
        unsigned v = (unsigned)data[i] << 16;
        if (i + 1 < len)
            v |= (unsigned)data[i + 1] << 8;
        if (i + 2 < len)
            v |= data[i + 2];
        quad[0] = digits[v >> 18 & 63];
        quad[1] = digits[v >> 12 & 63];
        quad[2] = i + 1 < len ? digits[v >> 6 & 63] : '=';
        quad[3] = i + 2 < len ? digits[v & 63] : '=';
        put_n(h, quad, 4);
    }
}

/* A number for people: plain from 10^-3 to 10^5, else m×10^k with the
 * exponent as a superscript, `digits` significant digits. */
static void put_number(html *h, double x, int digits);

/* x with `decimals` after the point (a loss), or, from 1e6 in size on,
 * as put_number gives it: an extreme law's loss of 1e300 would otherwise
 * print as 300 digits. */
static void put_fixed(html *h, double x, int decimals, int sign)
{
    if (fabs(x) < 1e6)
        putf(h, sign ? "%+.*f" : "%.*f", decimals, x);
    else
        put_number(h, x, decimals + 1);
}

static void put_number(html *h, double x, int digits)
{
    if (!isfinite(x)) {
        put(h, isnan(x) ? "&#8211;" : x > 0 ? "&#8734;" : "&#8722;&#8734;");
        return;
    }
    double a = fabs(x);
    if (a == 0 || (a >= 1e-3 && a < 1e5)) {
        /* %g would write 11050 as 1.105e+04, beside m×10^k elsewhere. */
        if (a >= pow(10.0, digits))
            putf(h, "%.0f", x);
        else
            putf(h, "%.*g", digits, x);
        return;
    }
    char text[64];
    snprintf(text, sizeof text, "%.*e", digits - 1, x);
    char *e = strchr(text, 'e');
    if (!e) {
        put(h, text);
        return;
    }
    int exponent = (int)strtol(e + 1, NULL, 10);
    *e = '\0';
    /* Trailing zeros of the mantissa say nothing. */
    char *dot = strchr(text, '.');
    if (dot) {
        char *end = e - 1;
        while (end > dot && *end == '0')
            *end-- = '\0';
        if (end == dot)
            *end = '\0';
    }
    if (strcmp(text, "1") == 0)
        putf(h, "10<sup>%d</sup>", exponent);
    else if (strcmp(text, "-1") == 0)
        putf(h, "&#8722;10<sup>%d</sup>", exponent);
    else
        putf(h, "%s&#215;10<sup>%d</sup>", text, exponent);
}

/* ---- figures ------------------------------------------------------------------ */

/* One figure from an ls_plot_* call's bytes (SVG): an <img> with a data:
 * URI, or a line saying why there is none when the plot had nothing to
 * draw.  Any other failure is the report's. */
static int put_figure(html *h, unsigned char *svg, size_t len, const ls_error *plot_err, const char *alt,
                      const char *caption, ls_error *err)
{
    if (!svg) {
        if (plot_err->code != LS_ERR_DATA) {
            *err = *plot_err;
            return -1;
        }
        put(h, "<p class=\"note\">No figure: ");
        put_text(h, plot_err->message);
        put(h, ".</p>\n");
        return 0;
    }
    put(h, "<figure><img alt=\"");
    put_text(h, alt);
    put(h, "\" src=\"data:image/svg+xml;base64,");
    put_base64(h, svg, len);
    put(h, "\"><figcaption>");
    put(h, caption);
    put(h, "</figcaption></figure>\n");
    free(svg);
    return 0;
}

/* A figure's caption, and which of the sweep's n runs it draws when it
 * does not draw them all (plot.h). */
static void caption_of_runs(char *buf, size_t size, const char *caption, size_t n, const char *farthest)
{
    char drawn[256];
    ls_plot_runs_drawn_text(drawn, sizeof drawn, n, farthest);
    if (*drawn)
        drawn[0] = (char)toupper((unsigned char)drawn[0]);
    snprintf(buf, size, "%s%s%s%s", caption, *drawn ? " " : "", drawn, *drawn ? "." : "");
}

/* ---- the page ----------------------------------------------------------------- */

static const char STYLE[] =
    "body{margin:0;background:#fff;color:#1b1b1b;font:15px/1.45 'DejaVu Sans',sans-serif}\n"
    "main{max-width:1100px;margin:0 auto;padding:24px 32px 48px}\n"
    "h1{font-size:26px;margin:0 0 6px}h2{font-size:20px;margin:36px 0 8px;border-bottom:1px solid #ccc;"
    "padding-bottom:4px}h3{font-size:16px;margin:22px 0 6px}\n"
    "p{margin:6px 0}.lead{color:#444}.note{color:#555;font-size:13px}\n"
    ".warn{background:#fff4e0;border-left:4px solid #d98e04;padding:6px 10px;margin:8px 0}\n"
    ".extrap{color:#b35900;font-weight:bold}.warn ul{margin:4px 0 0 0}\n"
    "table{border-collapse:collapse;margin:8px 0;font-size:14px}\n"
    "th,td{padding:3px 10px;border-bottom:1px solid #e2e2e2;text-align:right;white-space:nowrap}\n"
    "th{background:#f3f3f3;font-weight:600}th:first-child,td:first-child{text-align:left}\n"
    "td.best{font-weight:700;background:#e8f2e0}\n"
    "dl{display:grid;grid-template-columns:max-content auto;gap:2px 16px;margin:8px 0}dt{color:#555}dd{margin:0}\n"
    "figure{margin:14px 0}figure img{max-width:100%;height:auto;border:1px solid #eee}\n"
    "figcaption{font-size:13px;color:#555}\n"
    "nav a{margin-right:14px}code{font-family:'DejaVu Sans Mono',monospace;font-size:13px}\n"
    "footer{margin-top:40px;font-size:12px;color:#555;word-break:break-all}\n";

static void put_law_name(html *h, ls_law_kind kind)
{
    char text[64];
    put(h, "<code>");
    put_text(h, ls_law_kind_format(kind, text, sizeof text));
    put(h, "</code>");
}

static void put_files(html *h, const ls_report_input *in)
{
    for (size_t i = 0; i < in->nsweep_paths; i++) {
        if (i)
            put(h, i + 1 == in->nsweep_paths ? " and " : ", ");
        put(h, "<code>");
        put_text(h, strcmp(in->sweep_paths[i], "-") == 0 ? "standard input" : in->sweep_paths[i]);
        put(h, "</code>");
    }
}

static void put_range(html *h, const char *name, const double range[2])
{
    putf(h, "<dt>%s</dt><dd>", name);
    put_number(h, range[0], 4);
    if (range[1] != range[0]) {
        put(h, " to ");
        put_number(h, range[1], 4);
    }
    put(h, "</dd>");
}

static void put_summary(html *h, const ls_report_input *in)
{
    const ls_lawfile *lf = in->law;
    put(h, "<h1>Scaling-law report of ");
    put_files(h, in);
    put(h, "</h1>\n<p class=\"lead\">");
    putf(h, "%zu %s; law ", in->sweep->n, ls_plural((double)in->sweep->n, "run", "runs"));
    put_law_name(h, lf->law.kind);
    putf(h, " fitted with RMSE %.4g nats/token", in->fit->rmse);
    if (in->holdout)
        putf(h, ", compared with %zu law%s on held-out runs", in->holdout->nlaws, in->holdout->nlaws == 1 ? "" : "s");
    if (in->nbudgets)
        putf(h, ", solved for %zu compute budget%s", in->nbudgets, in->nbudgets == 1 ? "" : "s");
    put(h, ".</p>\n<nav><a href=\"#fit\">Fit</a>");
    if (in->holdout)
        put(h, "<a href=\"#holdout\">Held-out runs</a>");
    if (in->nbudgets)
        put(h, "<a href=\"#budgets\">Compute-optimal configurations</a>");
    put(h, "<a href=\"#provenance\">Provenance</a></nav>\n");
    if (lf->has_fit && lf->fit.has_ranges) {
        put(h, "<dl>");
        put_range(h, "active parameters N<sub>act</sub>", lf->fit.n_act_range);
        put_range(h, "tokens D", lf->fit.tokens_range);
        put_range(h, "loops R", lf->fit.r_range);
        put_range(h, "experts E", lf->fit.e_range);
        put(h, "</dl>\n");
    }
    if (lf->has_fit && lf->fit.nfilters) {
        put(h, "<p class=\"note\">Runs kept by ");
        for (size_t i = 0; i < lf->fit.nfilters; i++) {
            put(h, i ? ", <code>" : "<code>");
            put_text(h, lf->fit.filters[i]);
            put(h, "</code>");
        }
        put(h, ".</p>\n");
    }
    /* What the reader left out, so the page says how many rows the runs
     * above are of. */
    const ls_sweep *s = in->sweep;
    if (s->filtered_out || s->skipped.n || s->earlier_steps_dropped) {
        putf(h, "<p class=\"note\">Rows left out: %zu by the filters, %zu invalid (--skip-invalid), %zu earlier "
                "%s of runs (--last).</p>\n",
             s->filtered_out, s->skipped.n, s->earlier_steps_dropped,
             ls_plural((double)s->earlier_steps_dropped, "checkpoint", "checkpoints"));
    }
}

typedef struct residual {
    size_t row;
    double fitted, residual;
} residual;

static int by_size_of_residual(const void *a, const void *b)
{
    double x = fabs(((const residual *)a)->residual), y = fabs(((const residual *)b)->residual);
    if (x != y)
        return x < y ? 1 : -1;
    size_t i = ((const residual *)a)->row, j = ((const residual *)b)->row;
    return (i > j) - (i < j);
}

static int put_residuals(html *h, const ls_report_input *in, ls_error *err)
{
    const ls_sweep *s = in->sweep;
    residual *r = malloc(s->n * sizeof *r);
    if (!r) {
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory while writing the report");
        return -1;
    }
    double sum = 0, lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < s->n; i++) {
        ls_law_point x = ls_sweep_row_point(&s->rows[i]);
        r[i].row = i;
        r[i].fitted = ls_law_loss(&in->law->law, &x);
        r[i].residual = s->rows[i].loss - r[i].fitted;
        sum += r[i].residual;
        lo = fmin(lo, r[i].residual);
        hi = fmax(hi, r[i].residual);
    }
    qsort(r, s->n, sizeof *r, by_size_of_residual);
    put(h, "<h3>Residuals</h3>\n<p>Observed minus fitted loss: mean ");
    put_number(h, sum / (double)s->n, 3);
    put(h, ", from ");
    put_number(h, lo, 3);
    put(h, " to ");
    put_number(h, hi, 3);
    putf(h, " nats/token; RMSE %.4g. ", in->fit->rmse);
    size_t shown = in->residual_rows < s->n ? in->residual_rows : s->n;
    if (shown) {
        putf(h, "The %zu largest:</p>\n<table><tr><th>run</th><th>N<sub>act</sub></th><th>D</th><th>R</th>"
                "<th>E</th><th>observed</th><th>fitted</th><th>residual</th></tr>\n", shown);
        for (size_t k = 0; k < shown; k++) {
            const ls_sweep_row *row = &s->rows[r[k].row];
            put(h, "<tr><td><code>");
            if (row->file >= 0 && (size_t)row->file < in->nsweep_paths)
                put_text(h, in->sweep_paths[row->file]);
            putf(h, ":%ld</code></td><td>", row->line);
            put_number(h, row->n_act, 4);
            put(h, "</td><td>");
            put_number(h, row->tokens, 4);
            putf(h, "</td><td>%g</td><td>%g</td><td>", row->R, row->E);
            put_fixed(h, row->loss, 4, 0);
            put(h, "</td><td>");
            put_fixed(h, r[k].fitted, 4, 0);
            put(h, "</td><td>");
            put_fixed(h, r[k].residual, 4, 1);
            put(h, "</td></tr>\n");
        }
        put(h, "</table>\n");
    } else {
        put(h, "</p>\n");
    }
    free(r);
    return 0;
}

static int put_fit(html *h, const ls_report_input *in, ls_error *err)
{
    const ls_fit_result *fr = in->fit;
    const ls_lawfile *lf = in->law;
    put(h, "<section id=\"fit\"><h2>Fit of ");
    put_law_name(h, lf->law.kind);
    put(h, "</h2>\n<dl>");
    if (lf->has_fit) {
        const char *space = strcmp(lf->fit.space, "log") == 0 ? "ln L&#770; &#8722; ln L" : "L&#770; &#8722; L";
        if (strcmp(lf->fit.loss, "huber") == 0)
            putf(h, "<dt>objective</dt><dd>%.9g (sum of Huber(%s), &#948; = %g)</dd>", fr->objective, space,
                 lf->fit.delta);
        else
            putf(h, "<dt>objective</dt><dd>%.9g (sum of (%s)<sup>2</sup>)</dd>", fr->objective, space);
    }
    putf(h, "<dt>RMSE</dt><dd>%.4g nats/token over %zu %s, %zu free %s</dd>", fr->rmse, fr->n,
         ls_plural((double)fr->n, "run", "runs"), fr->nfree, ls_plural((double)fr->nfree, "parameter", "parameters"));
    putf(h, "<dt>starts</dt><dd>%zu, %zu reached the best objective, %zu converged</dd>", fr->starts,
         fr->starts_at_best, fr->starts_converged);
    putf(h, "<dt>converged</dt><dd>%s (%zu iterations)</dd>", fr->converged ? "yes" : "no", fr->iterations);
    put(h, "<dt>solver</dt><dd>");
    put_text(h, fr->method);
    put(h, "</dd>");
    if (lf->ndraws)
        putf(h, "<dt>bootstrap</dt><dd>%zu draws</dd>", lf->ndraws);
    put(h, "</dl>\n");
    /* The law file's warnings are fit's verdict (ls_fit_verdict); a law
     * file without them, the parameters held. */
    if (lf->warnings.n > 0) {
        for (size_t i = 0; i < lf->warnings.n; i++) {
            put(h, "<p class=\"warn\">");
            put_text(h, lf->warnings.v[i].message);
            put(h, "</p>\n");
        }
    } else {
        char *warnings = ls_fit_unidentified_warnings(fr);
        for (char *line = warnings, *end; line && (end = strchr(line, '\n')); line = end + 1) {
            *end = '\0';
            put(h, "<p class=\"warn\">");
            put_text(h, line);
            put(h, "</p>\n");
        }
        free(warnings);
    }

    int with_ci = lf->has_ci;
    put(h, "<table><tr><th>parameter</th><th>value</th><th>standard error*</th>");
    if (with_ci)
        putf(h, "<th>%g%% bootstrap interval</th>", 100 * lf->ci_level);
    put(h, "</tr>\n");
    ls_law_param list[LS_LAW_NPARAMS];
    size_t np = ls_law_params_of(lf->law.kind, list);
    for (size_t i = 0; i < np; i++) {
        ls_law_param j = list[i];
        put(h, "<tr><td>");
        put_text(h, ls_law_param_name(j));
        put(h, "</td><td>");
        put_number(h, lf->law.p[j], 6);
        put(h, "</td><td>");
        if (fr->unidentified[j])
            put(h, "held (unidentified)");
        else if (fr->fixed[j])
            put(h, "held");
        else
            put_number(h, fr->stderr_of[j], 3);
        if (with_ci) {
            put(h, "</td><td>");
            if (!fr->fixed[j] && !isnan(lf->ci_low[j])) {
                put(h, "[");
                put_number(h, lf->ci_low[j], 4);
                put(h, ", ");
                put_number(h, lf->ci_high[j], 4);
                put(h, "]");
            } else {
                put(h, "&#8211;");
            }
        }
        put(h, "</td></tr>\n");
    }
    put(h, "</table>\n<p class=\"note\">* From the M-estimator's sandwich covariance (normal approximation on "
           "ln A, ln B, ln c and the exponents)");
    put(h, with_ci ? ".</p>\n" : "; <code>--bootstrap N</code> gives intervals that need not be symmetric.</p>\n");

    if (put_residuals(h, in, err) != 0)
        return -1;
    if (!in->figures) {
        put(h, "</section>\n");
        return 0;
    }
    ls_error plot_err;
    size_t len = 0;
    unsigned char *svg = ls_plot_fit(in->sweep, lf, &in->figures->fit, in->figure, &len, &plot_err);
    char caption[512];
    caption_of_runs(caption, sizeof caption,
                    "Observed (markers) and fitted (lines) loss, with each run's residual in the bottom panel.",
                    in->sweep->n, "the law");
    if (put_figure(h, svg, len, &plot_err, "observed and fitted loss of the runs", caption, err) != 0)
        return -1;
    put(h, "</section>\n");
    return 0;
}

static int sweep_has_loops(const ls_sweep *s)
{
    for (size_t i = 0; i < s->n; i++)
        if (s->rows[i].R > 1)
            return 1;
    return 0;
}

static int put_holdout(html *h, const ls_report_input *in, ls_error *err)
{
    const ls_holdout_result *r = in->holdout;
    put(h, "<section id=\"holdout\"><h2>Which law predicts runs it has not seen</h2>\n"
           "<p>For each axis every law is fitted on the runs below the axis's largest value and predicts the runs "
           "at it; RMSE in nats/token, the lowest of each column in bold.</p>\n"
           "<table><tr><th>law</th><th>k</th><th>in-sample</th>");
    for (size_t c = 0; c < r->ncolumns; c++)
        if (!r->columns[c].skipped) {
            put(h, "<th>");
            put_text(h, r->columns[c].label);
            putf(h, " <span class=\"note\">(%zu/%zu)</span></th>", r->columns[c].ntrain, r->columns[c].ntest);
        }
    put(h, "<th>AIC</th><th>BIC</th></tr>\n");
    int unconverged = 0;
    /* The best of a column: the lowest RMSE; in-sample is column -1. */
    for (size_t l = 0; l < r->nlaws; l++) {
        put(h, "<tr><td>");
        put_law_name(h, r->laws[l]);
        putf(h, "</td><td>%zu</td>", r->nfree[l]);
        for (long c = -1; c < (long)r->ncolumns; c++) {
            if (c >= 0 && r->columns[c].skipped)
                continue;
            double x = c < 0 ? r->in_sample_rmse[l] : r->cells[l * r->ncolumns + (size_t)c].rmse;
            int converged = c < 0 ? r->in_sample_converged[l] : r->cells[l * r->ncolumns + (size_t)c].converged;
            int best = !isnan(x);
            for (size_t o = 0; best && o < r->nlaws; o++) {
                double y = c < 0 ? r->in_sample_rmse[o] : r->cells[o * r->ncolumns + (size_t)c].rmse;
                best = !(y < x);
            }
            put(h, best && r->nlaws > 1 ? "<td class=\"best\">" : "<td>");
            if (isnan(x))
                put(h, "&#8211;");
            else
                put_fixed(h, x, 4, 0), put(h, converged ? "" : "*");
            unconverged |= !isnan(x) && !converged;
            put(h, "</td>");
        }
        put(h, "<td>");
        put_fixed(h, r->aic[l], 1, 0);
        put(h, "</td><td>");
        put_fixed(h, r->bic[l], 1, 0);
        put(h, "</td></tr>\n");
    }
    put(h, "</table>\n<p class=\"note\">k: free parameters. (train/test): runs fitted and predicted.");
    if (r->nlaws == 1 && !sweep_has_loops(in->sweep))
        put(h, " No run has R &gt; 1, where every loop mapping (linear, power, bounded) reduces to N<sub>eff</sub> = "
               "N<sub>act</sub> and predicts alike: the mappings are not compared, and the law is the base alone.");
    if (unconverged)
        put(h, " * the fit behind this number did not converge, or cannot tell its parameters apart.");
    for (size_t c = 0; c < r->ncolumns; c++)
        if (r->columns[c].skipped) {
            put(h, " ");
            put_text(h, r->columns[c].label);
            put(h, ": nothing to hold out.");
        }
    put(h, "</p>\n");
    int few = 0;
    for (size_t c = 0; c < r->ncolumns; c++)
        few += !r->columns[c].skipped && r->columns[c].ntest < LS_REPORT_FEW_HELD_OUT;
    if (few) {
        put(h, "<p class=\"warn\">");
        for (size_t c = 0, k = 0; c < r->ncolumns; c++) {
            if (r->columns[c].skipped || r->columns[c].ntest >= LS_REPORT_FEW_HELD_OUT)
                continue;
            put(h, k++ ? (k == (size_t)few ? " and " : ", ") : "");
            put_text(h, r->columns[c].label);
            putf(h, " (%zu run%s)", r->columns[c].ntest, r->columns[c].ntest == 1 ? "" : "s");
        }
        putf(h, " hold%s out too few runs: %s RMSE is one or two residuals, not a comparison of laws.</p>\n",
             few == 1 ? "s" : "", few == 1 ? "its" : "their");
    }
    if (!in->figures) {
        put(h, "</section>\n");
        return 0;
    }
    ls_error plot_err;
    size_t len = 0;
    unsigned char *svg = ls_plot_holdout(in->sweep, r, in->figure, &len, &plot_err);
    char caption[512];
    caption_of_runs(caption, sizeof caption,
                    "Each law's prediction of the held-out runs against their observed loss; on the diagonal is a "
                    "perfect prediction.", in->sweep->n, "each law's prediction");
    if (put_figure(h, svg, len, &plot_err, "predicted against observed loss of the held-out runs", caption, err) != 0)
        return -1;
    put(h, "</section>\n");
    return 0;
}

/* The table row each range's values sit in, starred when outside
 * (as solve's table): R, E, N_act, D; the budget itself has no row. */
static int row_of_range(ls_law_range q)
{
    switch (q) {
    case LS_LAW_RANGE_R: return 0;
    case LS_LAW_RANGE_E: return 1;
    case LS_LAW_RANGE_N_ACT: return 2;
    case LS_LAW_RANGE_TOKENS: return 5;
    default: return -1;
    }
}

static void put_candidate_cells(html *h, const ls_solve_candidate *c, int row)
{
    put(h, "<td>");
    if (!c->feasible) {
        put(h, "&#8211;</td>");
        return;
    }
    int star = 0;
    for (int q = 0; q < LS_LAW_NRANGES; q++)
        star |= (c->outside >> q & 1u) && row_of_range((ls_law_range)q) == row;
    switch (row) {
    case 0: putf(h, "%g", c->R); break;
    case 1: putf(h, "%g", c->E); break;
    case 2: put_number(h, c->n_act, 4); break;
    case 3: put_number(h, c->n_total, 4); break;
    case 4: put_number(h, c->n_loop, 4); break;
    case 5: put_number(h, c->tokens, 4); break;
    case 6: put_number(h, c->tokens / c->n_act, 4); break;
    case 7: put_fixed(h, c->loss, 4, 0); break;
    case 8: put_number(h, c->inference_flops, 4); break;
    case 9: putf(h, "%.3g GB", c->weight_bytes / 1e9); break;
    default: put_number(h, c->n_unroll, 4); break;
    }
    if (star)
        put(h, "<span class=\"extrap\" title=\"outside the range the law was fitted on\">*</span>");
    put(h, "</td>");
}

/* Before a budget's table whose answers leave the fitted ranges: a
 * warning box naming each configuration's values and the ranges they
 * leave (solve's stderr warnings and JSON `warnings`, on the page). */
static void put_extrapolation_box(html *h, const ls_solve_result *r)
{
    if (r->nwarnings == 0)
        return;
    put(h, "<div class=\"warn\"><b>Extrapolated:</b> these answers lie outside the ranges the law was fitted on, "
           "where its predictions are a guess, not a fit; starred below.<ul>");
    const char *shown = NULL;
    for (size_t i = 0; i < r->nwarnings; i++) {
        const ls_solve_warning *w = &r->warnings[i];
        if (!shown || strcmp(shown, w->configuration) != 0) {
            put(h, shown ? "</li><li>" : "<li>");
            put(h, strcmp(w->configuration, "chosen") == 0        ? "chosen"
                   : strcmp(w->configuration, "lowest_loss") == 0 ? "lowest loss"
                                                                  : "no memory limit");
            put(h, ": ");
            shown = w->configuration;
        } else {
            put(h, ", ");
        }
        putf(h, "%s = ", w->quantity == LS_LAW_RANGE_N_ACT ? "N<sub>act</sub>" : ls_law_range_name(w->quantity));
        put_number(h, w->value, 4);
        put(h, " (fitted ");
        put_number(h, w->lo, 4);
        put(h, " to ");
        put_number(h, w->hi, 4);
        put(h, ")");
    }
    put(h, "</li></ul></div>\n");
}

static int put_budgets(html *h, const ls_report_input *in, ls_error *err)
{
    static const char *const rows[] = {"R (loops)",
                                       "E (experts)",
                                       "N<sub>act</sub>",
                                       "N<sub>total</sub>",
                                       "N<sub>loop</sub>",
                                       "D (tokens)",
                                       "tokens / N<sub>act</sub>",
                                       "loss (predicted, nats/token)",
                                       "inference FLOPs / token",
                                       "weight memory",
                                       "N<sub>unroll</sub>"};
    const ls_solve_options *so = in->solve;
    /* A sweep without loops, solved at R = 1 alone: no N_loop or N_unroll
     * rows (they would describe a loop the model does not have). */
    int loops = sweep_has_loops(in->sweep);
    for (size_t i = 0; i < so->nR; i++)
        loops |= so->R[i] > 1;
    put(h, "<section id=\"budgets\"><h2>Compute-optimal configurations</h2>\n<p>For each budget, every (E, R) with E "
           "in {");
    for (size_t e = 0; e < so->nE; e++)
        putf(h, "%s%g", e ? ", " : "", so->E[e]);
    put(h, "} and R in {");
    for (size_t i = 0; i < so->nR; i++)
        putf(h, "%s%g", i ? ", " : "", so->R[i]);
    if (!in->tmpl || in->tmpl->flops_convention == LS_LAW_FLOPS_6ND)
        put(h, "} gets its best N<sub>act</sub>, with D = F / (6 N<sub>unroll</sub>) spending the whole budget.");
    else
        putf(h, "} gets its best N<sub>act</sub>, with D = %s (FLOP convention %s) spending the whole budget.",
             ls_law_flops_formula(in->tmpl->flops_convention), ls_law_flops_name(in->tmpl->flops_convention));
    put(h, " Among the candidates within &#949; = ");
    put_number(h, so->eps, 4);
    put(h, " (the fit's RMSE) of the lowest loss, the one with the fewest loops, then the fewest experts, is chosen: "
           "the cheapest to serve.</p>\n");
    for (size_t b = 0; b < in->nbudgets; b++) {
        const ls_solve_budget *bud = &in->budgets[b];
        const ls_solve_result *r = &in->solves[b];
        put(h, "<h3>");
        put_number(h, bud->flops, 4);
        put(h, " training FLOPs; ");
        if (isfinite(bud->mem_bytes)) {
            put_number(h, bud->mem_bytes, 4);
            putf(h, " bytes of weights at %g bits", bud->bits);
        } else {
            put(h, "no memory limit");
        }
        put(h, "</h3>\n");
        if (!r->has_choice) {
            put(h, "<p class=\"warn\">No candidate fits this budget.</p>\n");
            continue;
        }
        put_extrapolation_box(h, r);
        put(h, "<table><tr><th></th><th>chosen</th><th>lowest loss</th><th>no memory limit</th></tr>\n");
        for (int row = 0; row < 11; row++) {
            if (!loops && (row == 4 || row == 10))
                continue; /* N_loop and N_unroll of a model that does not loop */
            putf(h, "<tr><td>%s</td>", rows[row]);
            put_candidate_cells(h, &r->choice, row);
            put_candidate_cells(h, &r->best, row);
            put_candidate_cells(h, &r->unconstrained, row);
            put(h, "</tr>\n");
        }
        put(h, "</table>\n");
        unsigned outside = (r->choice.feasible ? r->choice.outside : 0) | (r->best.feasible ? r->best.outside : 0) |
                           (r->unconstrained.feasible ? r->unconstrained.outside : 0);
        if (outside && so->ranges) {
            put(h, "<p class=\"note\">* outside the range the law was fitted on:");
            const char *sep = " ";
            for (int q = 0; q < LS_LAW_NRANGES; q++)
                if (outside >> q & 1u) {
                    putf(h, "%s%s ", sep, q == LS_LAW_RANGE_N_ACT ? "N<sub>act</sub>" : ls_law_range_name((ls_law_range)q));
                    put_number(h, so->ranges->lo[q], 4);
                    put(h, " to ");
                    put_number(h, so->ranges->hi[q], 4);
                    sep = ", ";
                }
            put(h, ".</p>\n");
        }
        if (so->nR < 2 || !in->figures || b >= in->figures->nsolves)
            continue; /* one loop count: no curve against loops to draw */
        ls_error plot_err;
        size_t len = 0;
        unsigned char *svg = ls_plot_solve(in->law, in->tmpl, bud, so, r, &in->figures->solves[b], in->figure, &len,
                                           &plot_err);
        if (put_figure(h, svg, len, &plot_err, "best loss against loops under the budget",
                       "The loss of the best N<sub>act</sub> at every loop count for each E; losses no "
                       "configuration reaches under the budget are shaded, the choice starred.",
                       err) != 0)
            return -1;
    }
    /* IsoFLOP profiles of the chosen configurations, every budget in one figure. */
    const ls_report_figures *fig = in->figures;
    int status = 0;
    if (fig && fig->isoflop.ncurves) {
        put(h, "<h3>IsoFLOP profiles</h3>\n");
        ls_error plot_err;
        size_t len = 0;
        unsigned char *svg = ls_plot_isoflop(in->law, in->tmpl, &fig->isoflop, &fig->isoflop_bands,
                                             &fig->isoflop_frontier, in->figure, &len, &plot_err);
        status = put_figure(h, svg, len, &plot_err, "IsoFLOP profiles of the chosen configurations",
                            "Loss against N<sub>act</sub> at each budget's full compute, for the chosen E and R "
                            "(and R = 1), with each profile's minimum; memory is not limited here.",
                            err);
    }
    if (status == 0)
        put(h, "</section>\n");
    return status;
}

static void put_provenance(html *h, const ls_report_input *in)
{
    const ls_lawfile *lf = in->law;
    putf(h, "<footer id=\"provenance\"><p>Made by loopscale %s", ls_version());
    if (lf->command) {
        put(h, ": <code>");
        put_text(h, lf->command);
        put(h, "</code>");
    }
    put(h, ".</p>\n");
    for (size_t i = 0; lf->has_fit && i < lf->fit.ndata; i++) {
        put(h, "<p><code>");
        put_text(h, lf->fit.data[i].path);
        put(h, "</code>");
        if (lf->fit.data[i].sha256[0])
            putf(h, " SHA-256 %s", lf->fit.data[i].sha256);
        put(h, "</p>\n");
    }
    put(h, "</footer>\n");
}

char *ls_report_html(const ls_report_input *in, ls_error *err)
{
    if (!in->sweep || in->sweep->n == 0 || !in->fit || !in->law) {
        ls_error_set(err, LS_ERR_DATA, "the report needs a fit of at least one run");
        return NULL;
    }
    if (in->nbudgets && (!in->solve || !in->tmpl || !in->budgets || !in->solves)) {
        ls_error_set(err, LS_ERR_DATA, "the report's budgets need their solve results");
        return NULL;
    }
    html h = {NULL, 0, 0, 0};
    put(&h, "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
            "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; img-src data:; "
            "style-src 'unsafe-inline'\">\n"
            "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n");
    putf(&h, "<meta name=\"generator\" content=\"loopscale %s\">\n<title>loopscale report: ", ls_version());
    for (size_t i = 0; i < in->nsweep_paths; i++) {
        put(&h, i ? ", " : "");
        put_text(&h, strcmp(in->sweep_paths[i], "-") == 0 ? "standard input" : in->sweep_paths[i]);
    }
    putf(&h, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<main>\n", STYLE);
    put_summary(&h, in);
    int status = put_fit(&h, in, err);
    if (status == 0 && in->holdout)
        status = put_holdout(&h, in, err);
    if (status == 0 && in->nbudgets)
        status = put_budgets(&h, in, err);
    if (status == 0)
        put_provenance(&h, in);
    put(&h, "</main>\n</body>\n</html>\n");
    if (status == 0 && h.failed) {
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory while writing the report");
        status = -1;
    }
    if (status != 0) {
        free(h.buf);
        return NULL;
    }
    return h.buf;
}

static int by_value(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int ls_report_solve_candidates(const ls_sweep *s, double **R, size_t *nR, double **E, size_t *nE, ls_error *err)
{
    *R = *E = NULL;
    *nR = *nE = 0;
    if (!s || s->n == 0)
        return ls_error_set(err, LS_ERR_DATA, "no runs to take the candidates from");
    double r_max = 1;
    for (size_t i = 0; i < s->n; i++)
        r_max = fmax(r_max, s->rows[i].R);
    /* R is an integer of a checked run, so this is exact. */
    size_t nr = (size_t)r_max;
    double *r = malloc(nr * sizeof *r), *e = malloc(s->n * sizeof *e);
    if (!r || !e) {
        free(r);
        free(e);
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    }
    for (size_t i = 0; i < nr; i++)
        r[i] = (double)(i + 1);
    for (size_t i = 0; i < s->n; i++)
        e[i] = s->rows[i].E;
    qsort(e, s->n, sizeof *e, by_value);
    size_t ne = 0;
    for (size_t i = 0; i < s->n; i++)
        if (ne == 0 || e[i] != e[ne - 1])
            e[ne++] = e[i];
    *R = r;
    *nR = nr;
    *E = e;
    *nE = ne;
    return 0;
}

/* ---- what the figures draw ------------------------------------------------------ */

void ls_report_figures_free(ls_report_figures *f)
{
    if (!f)
        return;
    ls_fit_curves_free(&f->fit);
    for (size_t b = 0; f->solves && b < f->nsolves; b++)
        ls_solve_curves_free(&f->solves[b]);
    free(f->solves);
    ls_solve_isoflop_result_free(&f->isoflop);
    ls_solve_isoflop_bands_free(&f->isoflop_bands);
    ls_solve_isoflop_result_free(&f->isoflop_frontier);
    memset(f, 0, sizeof *f);
}

/* The first n of the law file's draws as laws (NULL when n is 0). */
static ls_law *draws_of(const ls_lawfile *lf, size_t n)
{
    ls_law *d = malloc((n ? n : 1) * sizeof *d);
    for (size_t i = 0; d && i < n; i++)
        ls_lawfile_draw(lf, i, &d[i]);
    return d;
}

/* v[0..*n) holds x once (room for one more). */
static void add_once(double *v, size_t *n, double x)
{
    for (size_t i = 0; i < *n; i++)
        if (v[i] == x)
            return;
    v[(*n)++] = x;
}

int ls_report_figures_run(const ls_report_input *in, int threads, ls_report_figures *out, ls_error *err)
{
    memset(out, 0, sizeof *out);
    const ls_lawfile *lf = in->law;
    size_t nd = ls_plot_band_draws(lf, LS_PLOT_BAND_DRAWS), nd_solve = ls_plot_band_draws(lf, LS_PLOT_SOLVE_BAND_DRAWS);
    ls_law *draws = draws_of(lf, nd);
    size_t nb = in->nbudgets;
    double *flops = malloc((nb ? nb : 1) * sizeof *flops), *E = malloc((nb + 1) * sizeof *E),
           *R = malloc((nb + 1) * sizeof *R);
    out->solves = calloc(nb ? nb : 1, sizeof *out->solves);
    int status = draws && flops && E && R && out->solves ? 0 : ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    out->nsolves = nb;
    if (status == 0)
        status = ls_fit_curves_run(in->sweep, &lf->law, draws, nd, LS_PLOT_FIT_POINTS, &out->fit, err);
    for (size_t b = 0; status == 0 && b < nb; b++)
        if (in->solves[b].has_choice)
            status = ls_solve_curves_run(&lf->law, draws, nd_solve, in->tmpl, &in->budgets[b], in->solve, threads,
                                         &out->solves[b], err);
    /* The IsoFLOP profiles of the chosen configurations: every budget with
     * a choice, the chosen E, and R = 1 beside the chosen R. */
    size_t nE = 0, nR = 1, nf = 0;
    double lo = INFINITY, hi = 0;
    if (R)
        R[0] = 1;
    for (size_t b = 0; status == 0 && b < nb; b++) {
        if (!in->solves[b].has_choice)
            continue;
        flops[nf++] = in->budgets[b].flops;
        lo = fmin(lo, in->budgets[b].flops);
        hi = fmax(hi, in->budgets[b].flops);
        add_once(E, &nE, in->solves[b].choice.E);
        add_once(R, &nR, in->solves[b].choice.R);
    }
    ls_law_ranges ranges;
    ls_lawfile_ranges(lf, &ranges);
    if (status == 0 && nf)
        status = ls_solve_isoflop_run(&lf->law, in->tmpl, flops, nf, E, nE, R, nR, LS_PLOT_ISOFLOP_POINTS, &ranges,
                                      &out->isoflop, err);
    if (status == 0 && nf)
        status = ls_solve_isoflop_bands_run(draws, nd, in->tmpl, &out->isoflop, &out->isoflop_bands, err);
    if (status == 0 && nf)
        status = ls_solve_isoflop_frontier(&lf->law, in->tmpl, lo / 3, hi * 3, LS_PLOT_FRONTIER_BUDGETS, E, nE, R, nR,
                                           &ranges, &out->isoflop_frontier, err);
    free(draws);
    free(flops);
    free(E);
    free(R);
    if (status != 0)
        ls_report_figures_free(out);
    return status;
}
