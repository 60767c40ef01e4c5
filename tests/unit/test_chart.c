/* The chart module: numbers as markup (10^k with superscripts), ticks of
 * log and linear axes, the format chosen by a file name, and a rendered
 * chart in each format (an SVG that is well-formed XML, a PDF, a PNG of
 * the requested size in pixels) with its metadata; and every plot of
 * plot.h renders.  The CLI tests render every plot in every format with
 * rsvg-convert and pdftoppm, and read the PDFs' text with pdftotext.
 * chart.c is included to reach its static tick and layout functions. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/lib/chart.c"
#include "../../src/lib/plot.c"
#include "chart_internal.h"
#include "loopscale/lawfile.h"
#include "loopscale/plot.h"

/* ---- a small XML checker: balanced tags, quoted attributes, entities -------- */

static int is_name_char(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '-' || c == ':' || c == '_'; }

/* 1 when text is well-formed for the subset of XML the writer uses. */
static int well_formed(const char *text, char *why, size_t size)
{
    const char *stack[256];
    size_t len[256], depth = 0;
    const char *p = text;
    if (strncmp(p, "<?xml ", 6) != 0) {
        snprintf(why, size, "no XML declaration");
        return 0;
    }
    p = strstr(p, "?>") + 2;
    int seen_root = 0;
    while (*p) {
        if (*p == '&') {
            static const char *const entities[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&#39;"};
            int ok = 0;
            for (int i = 0; i < 6; i++)
                ok |= strncmp(p, entities[i], strlen(entities[i])) == 0;
            if (!ok) {
                snprintf(why, size, "bad entity at %.20s", p);
                return 0;
            }
            p++;
            continue;
        }
        if (*p == '>') {
            snprintf(why, size, "stray '>' at %.20s", p);
            return 0;
        }
        if (*p != '<') {
            p++;
            continue;
        }
        if (p[1] == '/') {
            const char *name = p + 2, *q = name;
            while (is_name_char(*q))
                q++;
            if (depth == 0 || len[depth - 1] != (size_t)(q - name) || strncmp(stack[depth - 1], name, len[depth - 1]) != 0) {
                snprintf(why, size, "unbalanced </%.*s>", (int)(q - name), name);
                return 0;
            }
            depth--;
            p = strchr(q, '>') + 1;
            continue;
        }
        const char *name = p + 1, *q = name;
        while (is_name_char(*q))
            q++;
        if (q == name) {
            snprintf(why, size, "bad tag at %.20s", p);
            return 0;
        }
        /* attributes: name="value" with no '<' or raw '&' inside */
        while (*q && *q != '>' && !(q[0] == '/' && q[1] == '>')) {
            if (*q == '"') {
                const char *end = strchr(q + 1, '"');
                if (!end) {
                    snprintf(why, size, "unterminated attribute");
                    return 0;
                }
                for (const char *c = q + 1; c < end; c++)
                    if (*c == '<') {
                        snprintf(why, size, "'<' inside an attribute");
                        return 0;
                    }
                q = end + 1;
                continue;
            }
            q++;
        }
        if (!*q) {
            snprintf(why, size, "unterminated tag");
            return 0;
        }
        if (depth == 0 && seen_root) {
            snprintf(why, size, "a second root element");
            return 0;
        }
        seen_root = 1;
        if (*q == '/') {
            p = q + 2;
            continue;
        }
        if (depth == 256) {
            snprintf(why, size, "too deep");
            return 0;
        }
        const char *end = name;
        while (is_name_char(*end))
            end++;
        stack[depth] = name;
        len[depth++] = (size_t)(end - name);
        p = q + 1;
    }
    if (depth != 0) {
        snprintf(why, size, "%zu elements left open", depth);
        return 0;
    }
    return seen_root;
}

static void assert_near(double got, double want, double tol)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("%.17g is not %.17g within %g", got, want, tol);
}

static void assert_well_formed(const char *svg)
{
    char why[128] = "";
    if (!well_formed(svg, why, sizeof why))
        fail_msg("not well-formed: %s", why);
    assert_non_null(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
}

static void the_checker_rejects_broken_documents(void **state)
{
    (void)state;
    char why[128];
    assert_true(well_formed("<?xml version=\"1.0\"?><a><b/></a>", why, sizeof why));
    assert_false(well_formed("<?xml version=\"1.0\"?><a><b></a>", why, sizeof why));
    assert_false(well_formed("<?xml version=\"1.0\"?><a>x & y</a>", why, sizeof why));
    assert_false(well_formed("<?xml version=\"1.0\"?><a x=\"<\"/>", why, sizeof why));
    assert_false(well_formed("<?xml version=\"1.0\"?><a/><b/>", why, sizeof why));
}

/* ---- numbers and ticks ---------------------------------------------------------- */

static void numbers_are_plain_or_powers_of_ten_with_superscripts(void **state)
{
    (void)state;
    char buf[64];
    ls_chart_number(buf, sizeof buf, 1e21);
    assert_string_equal(buf, "10<sup>21</sup>");
    ls_chart_number(buf, sizeof buf, 5.99996e10); /* 3 significant digits: no 5.99996 */
    assert_string_equal(buf, "6\xc3\x97" "10<sup>10</sup>");
    ls_chart_number(buf, sizeof buf, 2.385e8);
    assert_string_equal(buf, "2.38\xc3\x97" "10<sup>8</sup>");
    ls_chart_number(buf, sizeof buf, -3e-5); /* minus signs, not hyphens */
    assert_string_equal(buf, "\xe2\x88\x92" "3\xc3\x97" "10<sup>\xe2\x88\x92" "5</sup>");
    ls_chart_number(buf, sizeof buf, 0.25);
    assert_string_equal(buf, "0.25");
    ls_chart_number(buf, sizeof buf, 2000);
    assert_string_equal(buf, "2000");
    ls_chart_number(buf, sizeof buf, 0);
    assert_string_equal(buf, "0");
    /* Every label is valid markup. */
    assert_true(valid_markup("6\xc3\x97" "10<sup>10</sup>"));
}

static void log_axes_have_decades_and_minor_ticks(void **state)
{
    (void)state;
    ticks tk;
    memset(&tk, 0, sizeof tk);
    log_ticks(8.0, 11.2, 0, &tk); /* 1e8 to 1.6e11 */
    assert_int_equal(tk.nmajor, 4);
    for (size_t k = 0; k < 4; k++)
        assert_near(tk.major[k], pow(10.0, 8.0 + (double)k), 1e-6 * pow(10.0, 8.0 + (double)k));
    assert_int_equal(tk.nminor, 3 * 8 + 0); /* 2..9 x 10^8, 10^9, 10^10; 2e11 is beyond 1.6e11 */
    assert_near(tk.minor[0], 2e8, 1e-6);
    /* Twenty-two decades: every fourth, no minor ticks. */
    memset(&tk, 0, sizeof tk);
    log_ticks(-2.0, 20.0, 0, &tk);
    assert_int_equal(tk.nmajor, 6);
    assert_near(tk.major[5], 1e20, 1e6);
    assert_int_equal(tk.nminor, 0);
    /* No power of ten inside: 1, 2, 5 x 10^k, or every mantissa. */
    memset(&tk, 0, sizeof tk);
    log_ticks(log10(1.5), log10(12.0), 0, &tk);
    assert_int_equal(tk.nmajor, 3); /* 2, 5, 10 */
    assert_near(tk.major[0], 2.0, 1e-12);
    memset(&tk, 0, sizeof tk);
    log_ticks(log10(2.5), log10(9.0), 0, &tk);
    assert_int_equal(tk.nmajor, 7); /* 3 .. 9 */
    /* Linear: round steps. */
    memset(&tk, 0, sizeof tk);
    linear_ticks(2.113, 2.587, 0, &tk);
    assert_near(tk.step, 0.1, 1e-12);
    assert_int_equal(tk.nmajor, 4); /* 2.2 2.3 2.4 2.5 */
    char label[64];
    tick_label(label, sizeof label, &tk, tk.major[0]);
    assert_string_equal(label, "2.2");
}

static void the_format_comes_from_the_file_name(void **state)
{
    (void)state;
    ls_figure_format f;
    ls_error err;
    assert_int_equal(ls_figure_format_of_path("fig.svg", &f, &err), 0);
    assert_int_equal(f, LS_FIGURE_SVG);
    assert_int_equal(ls_figure_format_of_path("out/Fig.PDF", &f, &err), 0);
    assert_int_equal(f, LS_FIGURE_PDF);
    assert_int_equal(ls_figure_format_of_path("a.b.png", &f, &err), 0);
    assert_int_equal(f, LS_FIGURE_PNG);
    assert_int_equal(ls_figure_format_of_path("fig.jpg", &f, &err), LS_ERR_USAGE);
    assert_string_equal(err.message, "'fig.jpg': the file name must end in .svg, .pdf or .png");
    assert_int_equal(ls_figure_format_of_path("plots.png/fig", &f, &err), LS_ERR_USAGE);
    assert_int_equal(ls_figure_format_of_path("fig", &f, &err), LS_ERR_USAGE);
}

/* ---- rendering ------------------------------------------------------------------- */

static chart *sample_chart(void)
{
    chart *f = ls_chart_new("Loss <against> R & E", 1, 1);
    if (!f)
        exit(1);
    chart_panel *p = ls_chart_panel(f, 0, 0);
    assert_non_null(p);
    assert_null(ls_chart_panel(f, 1, 0));
    assert_int_equal(ls_chart_panel_title(p, "E = 4"), 0);
    assert_int_equal(ls_chart_panel_axis(p, CHART_AXIS_X, "R (loops)", CHART_SCALE_LOG), 0);
    assert_int_equal(ls_chart_panel_axis(p, CHART_AXIS_Y, "loss (nats/token)", CHART_SCALE_LINEAR), 0);
    const double x[] = {1, 2, 4, 8, 16}, y[] = {2.41, 2.33, 2.29, 2.27, 2.265};
    chart_style line = ls_chart_line_style(0);
    line.marker = CHART_MARKER_SQUARE;
    assert_int_equal(ls_chart_panel_line(p, x, y, 5, &line), 0);
    chart_style dots = ls_chart_marker_style(1, CHART_MARKER_CIRCLE);
    assert_int_equal(ls_chart_panel_line(p, x, y, 5, &dots), 0);
    const double lo[] = {2.2, 2.2, 2.2, 2.2, 2.2};
    assert_int_equal(ls_chart_panel_band(p, x, lo, y, 5, 2, 0.2), 0);
    chart_style ref = ls_chart_line_style(CHART_GREY);
    ref.dash = CHART_DASH_DOTTED;
    assert_int_equal(ls_chart_panel_hline(p, 2.3, &ref, "best + &#949;"), 0);
    assert_int_equal(ls_chart_panel_text(p, 2, 2.4, "a note", -1), 0);
    assert_int_equal(ls_chart_legend(f, "D = 10<sup>11</sup> tokens", &line), 0);
    assert_int_equal(ls_chart_legend(f, "observed", &dots), 0);
    assert_int_equal(ls_chart_note(f, "RMSE 0.01 &lt;nats&gt;"), 0);
    return f;
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int contains(const unsigned char *data, size_t len, const char *what)
{
    size_t n = strlen(what);
    for (size_t i = 0; i + n <= len; i++)
        if (memcmp(data + i, what, n) == 0)
            return 1;
    return 0;
}

static void a_chart_renders_as_svg_pdf_and_png_with_metadata(void **state)
{
    (void)state;
    chart *f = sample_chart();
    ls_error err;
    ls_figure o = ls_figure_default();
    o.provenance = "loopscale fit sweep.csv";
    size_t len = 0;
    unsigned char *svg = ls_chart_render(f, &o, &len, &err);
    assert_non_null(svg);
    assert_int_equal(strlen((char *)svg), len);
    assert_well_formed((char *)svg);
    assert_non_null(strstr((char *)svg, "<title>Loss &lt;against&gt; R &amp; E</title>"));
    assert_non_null(strstr((char *)svg, "<desc>RMSE 0.01 &lt;nats&gt;</desc>"));
    assert_non_null(strstr((char *)svg, "<metadata>loopscale fit sweep.csv</metadata>"));
    assert_non_null(strstr((char *)svg, "pt\" height=\"")); /* sized in points */
    free(svg);

    o.format = LS_FIGURE_PDF;
    unsigned char *pdf = ls_chart_render(f, &o, &len, &err);
    assert_non_null(pdf);
    assert_true(len > 1000 && memcmp(pdf, "%PDF-", 5) == 0);
    assert_true(contains(pdf, len, "/Title (Loss <against> R & E)"));
    assert_true(contains(pdf, len, "/Keywords (loopscale fit sweep.csv)"));
    assert_true(contains(pdf, len, "%%EOF"));
    free(pdf);

    /* 4 x 3 inches at 100 dpi: 400 x 300 pixels. */
    o.format = LS_FIGURE_PNG;
    o.width_pt = 4 * 72;
    o.height_pt = 3 * 72;
    o.dpi = 100;
    unsigned char *png = ls_chart_render(f, &o, &len, &err);
    assert_non_null(png);
    assert_true(len > 33 && memcmp(png, "\x89PNG\r\n\x1a\n", 8) == 0);
    assert_memory_equal(png + 12, "IHDR", 4);
    assert_int_equal(be32(png + 16), 400);
    assert_int_equal(be32(png + 20), 300);
    /* The text chunk right after IHDR, with a CRC a PNG reader accepts. */
    assert_memory_equal(png + 33 + 4, "iTXt", 4);
    uint32_t n = be32(png + 33);
    assert_int_equal(be32(png + 33 + 8 + n), crc32(0L, png + 33 + 4, n + 4));
    assert_true(contains(png, len, "Title"));
    assert_true(contains(png, len, "loopscale fit sweep.csv"));
    free(png);

    /* No room for the panels: a usage error, not a crushed figure. */
    o.width_pt = 72;
    o.height_pt = 72;
    o.font_pt = 24;
    assert_null(ls_chart_render(f, &o, &len, &err));
    assert_int_equal(err.code, LS_ERR_USAGE);
    ls_chart_free(f);
}

/* Titles and notes flattened to plain text for the metadata keep their
 * scripts: 10^22, not "1022" (the superscript's markup lost). */
static void metadata_writes_scripts_as_plain_text(void **state)
{
    (void)state;
    char *t = plain_of("Budget: 10<sup>22</sup> FLOPs, 6&#215;10<sup>10</sup>, N<sub>act</sub>, F<sup>a b</sup>, "
                       "10<sup>&#8722;3</sup>");
    assert_string_equal(t, "Budget: 10^22 FLOPs, 6\xc3\x97" "10^10, N_act, F^(a b), 10^\xe2\x88\x92" "3");
    free(t);
    t = plain_of("<sup>");  /* an unclosed tag is no script: the markup as given */
    assert_string_equal(t, "<sup>");
    free(t);
    chart *f = ls_chart_new("Best loss under the budget: 10<sup>22</sup> FLOPs", 1, 1);
    chart_panel *p = ls_chart_panel(f, 0, 0);
    const double x[] = {1, 2}, y[] = {1, 2};
    chart_style st = ls_chart_line_style(0);
    ls_chart_panel_line(p, x, y, 2, &st);
    ls_chart_note(f, "With N<sub>act</sub> at 3&#215;10<sup>8</sup>.");
    ls_figure o = ls_figure_default();
    ls_error err;
    size_t len = 0;
    unsigned char *svg = ls_chart_render(f, &o, &len, &err);
    assert_non_null(svg);
    assert_non_null(strstr((char *)svg, "<title>Best loss under the budget: 10^22 FLOPs</title>"));
    assert_non_null(strstr((char *)svg, "<desc>With N_act at 3\xc3\x97" "10^8.</desc>"));
    free(svg);
    o.format = LS_FIGURE_PDF;
    unsigned char *pdf = ls_chart_render(f, &o, &len, &err);
    assert_non_null(pdf);
    assert_true(contains(pdf, len, "/Title (Best loss under the budget: 10^22 FLOPs)"));
    free(pdf);
    o.format = LS_FIGURE_PNG;
    unsigned char *png = ls_chart_render(f, &o, &len, &err);
    assert_non_null(png);
    assert_true(contains(png, len, "10^22 FLOPs"));
    free(png);
    ls_chart_free(f);
}

static void lines_beyond_the_axis_are_marked(void **state)
{
    (void)state;
    chart *f = ls_chart_new(NULL, 1, 1);
    chart_panel *p = f ? ls_chart_panel(f, 0, 0) : NULL;
    if (!p) {
        fail_msg("no chart");
        return;
    }
    const double x[] = {1, 2, 3}, y[] = {5.0, 1.0, 0.5};
    chart_style st = ls_chart_line_style(0);
    assert_int_equal(ls_chart_panel_line(p, x, y, 3, &st), 0);
    if (!p->items) {
        fail_msg("no line");
        return;
    }
    frame fr;
    panel_frame(p, &fr);
    assert_int_equal(item_clipped(&fr, &p->items[0]), 0);
    ls_chart_panel_range(p, CHART_AXIS_Y, 0, 2);
    panel_frame(p, &fr);
    assert_int_equal(item_clipped(&fr, &p->items[0]), 1);
    /* The layout makes room for the legend entry that explains the arrows. */
    painter pt = {NULL, NULL, 9.0, LS_FIGURE_LIGHT};
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
    pt.cr = cairo_create(s);
    pt.pango = pango_for(pt.cr);
    layout L;
    ls_figure o = ls_figure_default();
    ls_error err;
    assert_int_equal(compute_layout(&pt, f, &o, NULL, &L, &err), 0);
    assert_int_equal(L.clipped, 1);
    assert_true(L.legend_w > 0);
    g_object_unref(pt.pango);
    cairo_destroy(pt.cr);
    cairo_surface_destroy(s);
    ls_chart_free(f);
}

/* ---- the plots -------------------------------------------------------------------- */

static const char *const MAGIC[] = {"<?xml", "%PDF-", "\x89PNG"};

/* A plot's bytes: the format's magic, and for SVG well-formed XML. */
static void check_plot(unsigned char *data, size_t len, ls_figure_format format, const ls_error *err)
{
    if (!data)
        fail_msg("plot failed: %s", err->message);
    if (len < 1000)
        fail_msg("a plot of %zu bytes", len);
    assert_memory_equal(data, MAGIC[format], strlen(MAGIC[format]));
    if (format == LS_FIGURE_SVG)
        assert_well_formed((char *)data);
    free(data);
}

static void every_plot_renders_in_every_format(void **state)
{
    (void)state;
    ls_error err;
    ls_lawfile *lf = ls_lawfile_default(&err);
    assert_non_null(lf);
    assert_true(lf->ndraws >= 20); /* the bands are drawn */
    const ls_law l = lf->law;
    double rmse = lf->fit.rmse;
    ls_arch_template t;
    ls_arch_template_default(&t);
    const char *path = PROJECT_DATA_DIR "/sweeps/looped-moe.csv.gz";
    ls_sweep_options so = {0};
    so.require_loss = 1;
    const char *where[] = {"E<=4"};
    so.wheres = where;
    so.nwheres = 1;
    ls_sweep *s = ls_sweep_read(&path, 1, &so, &err);
    assert_non_null(s);
    const double R[] = {1, 2, 3, 4, 6, 8}, E[] = {1, 4, 16};
    ls_solve_budget b = {.flops = 1e22, .mem_bytes = 3e9, .bits = 4};
    ls_solve_options sopt = {R, 6, E, 3, NULL, 0, rmse, NULL, NULL};
    ls_solve_result r;
    assert_int_equal(ls_solve_run(&l, &t, &b, &sopt, &r, &err), 0);
    const double F[] = {1e20, 1e21, 1e22}, IE[] = {1, 8}, IR[] = {1, 4};
    /* What the figures draw beside the results, over the law's draws. */
    size_t nd = ls_plot_band_draws(lf, LS_PLOT_SOLVE_BAND_DRAWS);
    assert_int_equal(nd, LS_PLOT_SOLVE_BAND_DRAWS);
    ls_law draws[LS_PLOT_SOLVE_BAND_DRAWS];
    for (size_t i = 0; i < nd; i++)
        ls_lawfile_draw(lf, i, &draws[i]);
    ls_law_ranges ranges;
    ls_lawfile_ranges(lf, &ranges);
    ls_fit_curves fc;
    ls_solve_curves sc;
    ls_solve_rho_eff rho;
    ls_solve_isoflop_result prof, fr;
    ls_solve_isoflop_bands bands;
    ls_frontier_point fp[3];
    double a;
    const unsigned outside[3] = {0, 1u << LS_LAW_RANGE_N_ACT, 1u << LS_LAW_RANGE_TOKENS};
    assert_int_equal(ls_fit_curves_run(s, &l, draws, nd, LS_PLOT_FIT_POINTS, &fc, &err), 0);
    assert_int_equal(ls_solve_curves_run(&l, draws, nd, &t, &b, &sopt, 2, &sc, &err), 0);
    assert_int_equal(ls_solve_rho_eff_run(&l, &t, E, 3, 16, LS_PLOT_RHO_POINTS, &rho, &err), 0);
    assert_int_equal(ls_solve_isoflop_run(&l, &t, F, 3, IE, 2, IR, 2, LS_PLOT_ISOFLOP_POINTS, &ranges, &prof, &err),
                     0);
    assert_int_equal(ls_solve_isoflop_bands_run(draws, nd, &t, &prof, &bands, &err), 0);
    assert_int_equal(ls_solve_isoflop_frontier(&l, &t, 1e20 / 3, 3e22, LS_PLOT_FRONTIER_BUDGETS, IE, 2, IR, 2, &ranges,
                                               &fr, &err), 0);
    assert_int_equal(ls_frontier_run(&l, F, 3, fp, &a, &err), 0);
    for (int format = 0; format < 3; format++) {
        ls_figure o = ls_figure_default();
        o.format = (ls_figure_format)format;
        o.dpi = 60;
        size_t len = 0;
        unsigned char *data = ls_plot_fit(s, lf, &fc, &o, &len, &err);
        check_plot(data, len, o.format, &err);
        data = ls_plot_solve(lf, &t, &b, &sopt, &r, &sc, &o, &len, &err);
        check_plot(data, len, o.format, &err);
        data = ls_plot_rho_eff(lf, &rho, &o, &len, &err);
        check_plot(data, len, o.format, &err);
        data = ls_plot_isoflop(lf, &t, &prof, &bands, &fr, &o, &len, &err);
        check_plot(data, len, o.format, &err);
        data = ls_plot_frontier(&l, fp, outside, 3, a, NAN, NAN, NAN, &o, &len, &err);
        check_plot(data, len, o.format, &err);
    }
    ls_fit_curves_free(&fc);
    ls_solve_curves_free(&sc);
    ls_solve_rho_eff_free(&rho);
    ls_solve_isoflop_result_free(&prof);
    ls_solve_isoflop_result_free(&fr);
    ls_solve_isoflop_bands_free(&bands);
    ls_solve_result_free(&r);
    ls_sweep_free(s);
    ls_lawfile_free(lf);
}

static void the_isoflop_grid_spans_n_opt_evenly_in_log(void **state)
{
    (void)state;
    double g[7];
    ls_solve_isoflop_grid(2.385e9, 30.0, 7, g);
    assert_near(g[0], 2.385e9 / 30, 1e-6 * g[0]);
    assert_near(g[3], 2.385e9, 1e-6 * g[3]); /* the middle of an odd grid is N_opt itself */
    assert_near(g[6], 2.385e9 * 30, 1e-6 * g[6]);
    for (int i = 1; i < 7; i++)
        assert_near(g[i] / g[i - 1], pow(30.0, 2.0 / 6.0), 1e-12);
}

/* A paper column (252 x 180 pt) at 9 pt text with a legend of twelve
 * entries, long ones among them, and a y label longer than the panel: the
 * layout gives the panel most of the figure, the legend flows under it in
 * brief labels, and the y label gets a second line. */
static void a_paper_column_keeps_room_for_the_panel(void **state)
{
    (void)state;
    chart *f = ls_chart_new("Best loss against loops under the budget: 10<sup>22</sup> FLOPs, 3 GB at 4 bits", 1, 1);
    chart_panel *p = f ? ls_chart_panel(f, 0, 0) : NULL;
    if (!p) {
        fail_msg("no chart");
        return;
    }
    const double x[] = {1, 2, 4, 8, 16}, y[] = {2.21, 2.15, 2.12, 2.11, 2.105};
    chart_style st = ls_chart_line_style(0);
    assert_int_equal(ls_chart_panel_line(p, x, y, 5, &st), 0);
    assert_int_equal(ls_chart_panel_axis(p, CHART_AXIS_X, "loops R", CHART_SCALE_LINEAR), 0);
    assert_int_equal(ls_chart_panel_axis(p, CHART_AXIS_Y, "loss at the best N<sub>act</sub> (nats/token)",
                                         CHART_SCALE_LINEAR), 0);
    char label[64];
    for (int e = 0; e < 7; e++) {
        snprintf(label, sizeof label, "E = %d", 1 << e);
        st = ls_chart_line_style(e);
        assert_int_equal(ls_chart_legend(f, label, &st), 0);
    }
    assert_int_equal(ls_chart_legend(f, "95% band: 50 bootstrap draws of the law (of 1000 it holds)", &st), 0);
    assert_int_equal(ls_chart_legend_brief(f, "95% band"), 0);
    assert_int_equal(ls_chart_legend(f, "outside the fitted ranges (N<sub>act</sub>, D): extrapolated", &st), 0);
    assert_int_equal(ls_chart_legend_brief(f, "extrapolated"), 0);
    assert_int_equal(ls_chart_legend(f, "best of any E with no memory limit", &st), 0);
    assert_int_equal(ls_chart_legend_brief(f, "no memory limit"), 0);
    assert_int_equal(ls_chart_legend(f, "out of reach under the budget", &st), 0);
    assert_int_equal(ls_chart_legend_brief(f, "out of reach"), 0);
    assert_int_equal(ls_chart_legend(f, "chosen: R<sup>*</sup> = 4, E<sup>*</sup> = 16", &st), 0);
    painter pt = {NULL, NULL, 9.0, LS_FIGURE_LIGHT};
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
    pt.cr = cairo_create(s);
    pt.pango = pango_for(pt.cr);
    layout L;
    ls_figure o = ls_figure_default();
    o.width_pt = 252;
    o.height_pt = 180;
    ls_error err;
    assert_int_equal(compute_layout(&pt, f, &o, f->title, &L, &err), 0);
    assert_true(L.legend_below && L.brief);
    assert_true(L.panel_w >= 0.55 * o.width_pt);
    assert_true(L.panel_h >= 0.3 * o.height_pt);
    assert_true(L.legend_h <= o.height_pt / 3);
    assert_int_equal(L.ylabel_lines, 2);
    /* Every part stacks inside the figure. */
    assert_true(L.title_h + L.top + L.panel_h + L.bottom + L.legend_h + 6 <= o.height_pt + 1e-9);
    /* At its natural size nothing is cut down. */
    o.width_pt = o.height_pt = 0;
    assert_int_equal(compute_layout(&pt, f, &o, f->title, &L, &err), 0);
    assert_false(L.brief);
    assert_int_equal(L.ylabel_lines, 1);
    g_object_unref(pt.pango);
    cairo_destroy(pt.cr);
    cairo_surface_destroy(s);
    ls_chart_free(f);
}

/* The check made before any work: a paper column passes, a 1-inch square
 * at 20 pt text has no room for a panel. */
static void sizes_without_room_for_a_panel_are_refused_up_front(void **state)
{
    (void)state;
    ls_figure o = ls_figure_default();
    ls_error err;
    assert_int_equal(ls_chart_check_size(&o, &err), 0); /* natural size */
    o.width_pt = 252;
    o.height_pt = 180;
    assert_int_equal(ls_chart_check_size(&o, &err), 0);
    o.width_pt = o.height_pt = 72;
    o.font_pt = 20;
    assert_int_equal(ls_chart_check_size(&o, &err), LS_ERR_USAGE);
    assert_non_null(strstr(err.message, "leaves no room for a panel at 20 pt text"));
}

/* A figure too large for cairo (thousands of legend entries at the natural
 * size) is refused as a data error naming its size, in every format. */
static void figures_too_large_to_draw_are_refused(void **state)
{
    (void)state;
    chart *f = ls_chart_new("many", 1, 1);
    chart_panel *p = ls_chart_panel(f, 0, 0);
    const double x[] = {1, 2}, y[] = {1, 2};
    chart_style st = ls_chart_line_style(0);
    ls_chart_panel_line(p, x, y, 2, &st);
    for (int i = 0; i < 1500; i++)
        ls_chart_legend(f, "an entry", &st);
    ls_figure o = ls_figure_default();
    ls_error err;
    size_t len = 0;
    /* 1500 rows of 1.55 x 8.1 pt: about 18800 pt, past 14400. */
    assert_null(ls_chart_render(f, &o, &len, &err));
    assert_int_equal(err.code, LS_ERR_DATA);
    assert_non_null(strstr(err.message, "past the 200 in a side"));
    /* 700 rows, about 8800 pt: a page, but 18300 pixels at 150 dpi and past
     * 32767 at 300. */
    ls_chart_free(f);
    f = ls_chart_new("many", 1, 1);
    p = ls_chart_panel(f, 0, 0);
    ls_chart_panel_line(p, x, y, 2, &st);
    for (int i = 0; i < 700; i++)
        ls_chart_legend(f, "an entry", &st);
    o.format = LS_FIGURE_PNG;
    o.dpi = 300;
    assert_null(ls_chart_render(f, &o, &len, &err));
    assert_int_equal(err.code, LS_ERR_DATA);
    assert_non_null(strstr(err.message, "pixel PNG, too large"));
    o.format = LS_FIGURE_SVG;
    unsigned char *svg = ls_chart_render(f, &o, &len, &err);
    assert_non_null(svg);
    free(svg);
    ls_chart_free(f);
}

/* Boundaries and annotations (what is out of reach) have a colour of
 * their own: no series of any palette index shares it, nor black or grey. */
static void the_boundary_colour_is_no_series_colour(void **state)
{
    (void)state;
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
    cairo_t *cr = cairo_create(s);
    double r0, g0, b0, a0;
    set_color(cr, CHART_BOUNDARY, 1.0);
    cairo_pattern_get_rgba(cairo_get_source(cr), &r0, &g0, &b0, &a0);
    for (int c = -2; c < CHART_NCOLORS; c++) {
        double r, g, b, a;
        set_color(cr, c, 1.0);
        cairo_pattern_get_rgba(cairo_get_source(cr), &r, &g, &b, &a);
        assert_true(fabs(r - r0) + fabs(g - g0) + fabs(b - b0) > 0.25);
    }
    cairo_destroy(cr);
    cairo_surface_destroy(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_checker_rejects_broken_documents),
        cmocka_unit_test(numbers_are_plain_or_powers_of_ten_with_superscripts),
        cmocka_unit_test(log_axes_have_decades_and_minor_ticks),
        cmocka_unit_test(the_format_comes_from_the_file_name),
        cmocka_unit_test(a_chart_renders_as_svg_pdf_and_png_with_metadata),
        cmocka_unit_test(metadata_writes_scripts_as_plain_text),
        cmocka_unit_test(lines_beyond_the_axis_are_marked),
        cmocka_unit_test(a_paper_column_keeps_room_for_the_panel),
        cmocka_unit_test(the_boundary_colour_is_no_series_colour),
        cmocka_unit_test(sizes_without_room_for_a_panel_are_refused_up_front),
        cmocka_unit_test(figures_too_large_to_draw_are_refused),
        cmocka_unit_test(every_plot_renders_in_every_format),
        cmocka_unit_test(the_isoflop_grid_spans_n_opt_evenly_in_log),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
