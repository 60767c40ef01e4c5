/* The SVG writer: well-formed XML with the elements a chart needs (axes,
 * ticks, labels, lines, markers, legend, bands), text escaped, broken lines
 * where the data are missing; and the plots built on it have the panels,
 * curves and legend entries they promise.  The CLI tests render every plot
 * with rsvg-convert as well. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loopscale/lawfile.h"
#include "loopscale/plot.h"
#include "loopscale/svg.h"

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
            static const char *const entities[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
            int ok = 0;
            for (int i = 0; i < 5; i++)
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

static size_t count(const char *text, const char *what)
{
    size_t n = 0;
    for (const char *p = strstr(text, what); p; p = strstr(p + 1, what))
        n++;
    return n;
}

static void assert_well_formed(const char *svg)
{
    char why[128] = "";
    if (!well_formed(svg, why, sizeof why))
        fail_msg("not well-formed: %s", why);
    assert_non_null(strstr(svg, "<svg xmlns=\"http://www.w3.org/2000/svg\""));
    size_t n = strlen(svg);
    assert_true(n > 7 && strcmp(svg + n - 7, "</svg>\n") == 0);
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

/* ---- the writer ------------------------------------------------------------------ */

static void escape_replaces_the_five_special_characters_and_drops_controls(void **state)
{
    (void)state;
    char buf[128];
    size_t n = ls_svg_escape(buf, sizeof buf, "a<b & \"c\" > 'd'\x01\te");
    assert_string_equal(buf, "a&lt;b &amp; &quot;c&quot; &gt; &apos;d&apos; e");
    assert_int_equal(n, strlen(buf));
    /* Truncation keeps the buffer terminated and reports the full length. */
    char small[6];
    assert_int_equal(ls_svg_escape(small, sizeof small, "&&"), 10);
    assert_int_equal(strlen(small), 5);
}

static void a_chart_has_axes_ticks_labels_lines_markers_and_a_legend(void **state)
{
    (void)state;
    svg_figure *f = ls_svg_figure_new("Loss <against> R & E", 1, 1);
    assert_non_null(f);
    svg_panel *p = ls_svg_figure_panel(f, 0, 0);
    assert_non_null(p);
    assert_null(ls_svg_figure_panel(f, 1, 0));
    assert_int_equal(ls_svg_panel_title(p, "E = 4"), 0);
    assert_int_equal(ls_svg_panel_axis(p, SVG_AXIS_X, "R (loops)", SVG_SCALE_LOG), 0);
    assert_int_equal(ls_svg_panel_axis(p, SVG_AXIS_Y, "loss", SVG_SCALE_LINEAR), 0);
    const double x[] = {1, 2, 4, 8, 16}, y[] = {2.41, 2.33, 2.29, 2.27, 2.265};
    svg_style line = ls_svg_line_style(0);
    line.marker = SVG_MARKER_SQUARE;
    assert_int_equal(ls_svg_panel_line(p, x, y, 5, &line), 0);
    svg_style dots = ls_svg_marker_style(1, SVG_MARKER_CIRCLE);
    assert_int_equal(ls_svg_panel_line(p, x, y, 5, &dots), 0);
    const double lo[] = {2.2, 2.2, 2.2, 2.2, 2.2};
    assert_int_equal(ls_svg_panel_band(p, x, lo, y, 5, 2, 0.2), 0);
    svg_style ref = ls_svg_line_style(SVG_GREY);
    ref.dash = SVG_DASH_DOTTED;
    assert_int_equal(ls_svg_panel_hline(p, 2.3, &ref, "best + eps"), 0);
    assert_int_equal(ls_svg_panel_text(p, 2, 2.4, "a note", -1), 0);
    assert_int_equal(ls_svg_figure_legend(f, "D = 1e11 <tokens>", &line), 0);
    assert_int_equal(ls_svg_figure_legend(f, "observed", &dots), 0);
    assert_int_equal(ls_svg_figure_note(f, "caption"), 0);
    ls_error err;
    char *svg = ls_svg_figure_render(f, &err);
    ls_svg_figure_free(f);
    assert_non_null(svg);
    assert_well_formed(svg);
    assert_non_null(strstr(svg, "<title>Loss &lt;against&gt; R &amp; E</title>"));
    assert_non_null(strstr(svg, ">R (loops)</text>"));
    assert_non_null(strstr(svg, "transform=\"rotate(-90"));
    assert_non_null(strstr(svg, ">D = 1e11 &lt;tokens&gt;</text>"));
    assert_int_equal(count(svg, "class=\"series\""), 1);   /* the one line with width */
    assert_int_equal(count(svg, "<rect class=\"marker\""), 5 + 1); /* its squares, and the legend's */
    assert_int_equal(count(svg, "<circle class=\"marker\""), 5 + 1);
    assert_int_equal(count(svg, "class=\"legend-entry\""), 2);
    assert_int_equal(count(svg, "class=\"band\""), 1);
    assert_int_equal(count(svg, "class=\"hline\""), 1);
    assert_non_null(strstr(svg, "stroke-dasharray=\"2 3\""));
    assert_non_null(strstr(svg, "clip-path=\"url(#clip0)\""));
    /* A log axis from 1 to 16 gets the ticks 1, 2, 5, 10. */
    assert_int_equal(count(svg, "class=\"tick-label\""), count(svg, "class=\"tick\""));
    assert_non_null(strstr(svg, ">10</text>"));
    assert_non_null(strstr(svg, ">5</text>"));
    free(svg);
}

static void missing_values_break_a_line_and_log_axes_skip_non_positive_ones(void **state)
{
    (void)state;
    svg_figure *f = ls_svg_figure_new(NULL, 1, 1);
    svg_panel *p = ls_svg_figure_panel(f, 0, 0);
    ls_svg_panel_axis(p, SVG_AXIS_X, "N", SVG_SCALE_LOG);
    ls_svg_panel_axis(p, SVG_AXIS_Y, "y", SVG_SCALE_LINEAR);
    const double x[] = {1e8, 3e8, 1e9, 3e9, -1, 1e10, 3e10};
    const double y[] = {1.0, 2.0, NAN, 3.0, 4.0, 5.0, 6.0};
    svg_style st = ls_svg_line_style(3);
    ls_svg_panel_line(p, x, y, 7, &st);
    ls_error err;
    char *svg = ls_svg_figure_render(f, &err);
    ls_svg_figure_free(f);
    assert_non_null(svg);
    assert_well_formed(svg);
    /* {1e8, 3e8} and {1e10, 3e10}; 3e9 alone is no line. */
    assert_int_equal(count(svg, "class=\"series\""), 2);
    /* Three decades and more: ticks at powers of ten in e-notation. */
    assert_non_null(strstr(svg, ">1e9</text>"));
    assert_non_null(strstr(svg, ">1e10</text>"));
    assert_null(strstr(svg, "nan"));
    assert_null(strstr(svg, "inf"));
    free(svg);
}

static void fixed_ranges_and_explicit_ticks_are_kept(void **state)
{
    (void)state;
    svg_figure *f = ls_svg_figure_new("t", 2, 2);
    svg_panel *p = ls_svg_figure_panel(f, 1, 1);
    ls_svg_panel_range(p, SVG_AXIS_X, 0.5, 16.5);
    const double ticks[] = {1, 4, 16, 64};
    ls_svg_panel_ticks(p, SVG_AXIS_X, ticks, 4);
    const double x[] = {1, 16}, y[] = {0.25, 0.75};
    svg_style st = ls_svg_line_style(0);
    ls_svg_panel_line(p, x, y, 2, &st);
    ls_error err;
    char *svg = ls_svg_figure_render(f, &err);
    ls_svg_figure_free(f);
    assert_non_null(svg);
    assert_well_formed(svg);
    /* Only the one panel with something in it is drawn; 64 is off the axis. */
    assert_int_equal(count(svg, "class=\"panel\""), 1);
    assert_non_null(strstr(svg, ">16</text>"));
    assert_null(strstr(svg, ">64</text>"));
    free(svg);
}

/* ---- the plots -------------------------------------------------------------------- */

static law default_law(double *rmse)
{
    ls_error err;
    lawfile *lf = ls_lawfile_default(&err);
    assert_non_null(lf);
    law l = lf->law;
    *rmse = lf->fit.rmse;
    ls_lawfile_free(lf);
    return l;
}

static void the_fit_plot_has_a_panel_for_each_e_and_n_act(void **state)
{
    (void)state;
    double rmse;
    law l = default_law(&rmse);
    ls_error err;
    const char *path = PROJECT_DATA_DIR "/sweeps/looped-moe.csv.gz";
    sweep_options so = {0};
    so.require_loss = 1;
    const char *where[] = {"E<=4"};
    so.wheres = where;
    so.nwheres = 1;
    sweep *s = ls_sweep_read(&path, 1, &so, &err);
    assert_non_null(s);
    char *svg = ls_plot_fit(s, &l, rmse, &err);
    assert_non_null(svg);
    assert_well_formed(svg);
    assert_int_equal(count(svg, "class=\"panel\""), 3 * 3); /* E 1, 2, 4 x N_act 3e8, 6e8, 1e9 */
    assert_non_null(strstr(svg, ">E = 4, N_act = 6e8</text>"));
    /* 5 token budgets in every panel: a fitted curve each */
    assert_int_equal(count(svg, "class=\"series\""), 9 * 5);
    assert_int_equal(count(svg, "<circle class=\"marker\""), s->n + 1 + 5); /* the runs; the legend's "observed run" and 5 budgets */
    assert_non_null(strstr(svg, ">D = 3e11 tokens</text>"));
    free(svg);
    ls_sweep_free(s);
}

static void the_solve_and_rho_plots_mark_the_choice_and_the_ceilings(void **state)
{
    (void)state;
    double rmse;
    law l = default_law(&rmse);
    arch_template t;
    ls_arch_template_default(&t);
    const double R[] = {1, 2, 3, 4, 6, 8}, E[] = {1, 4, 16};
    solve_budget b = {1e22, 3e9, 4};
    solve_options o = {R, 6, E, 3, NULL, 0, rmse};
    solve_result r;
    ls_error err;
    assert_int_equal(ls_solve_run(&l, &t, &b, &o, &r, &err), 0);
    char *svg = ls_plot_solve(&l, &t, &b, &o, &r, &err);
    assert_non_null(svg);
    assert_well_formed(svg);
    assert_int_equal(count(svg, "class=\"band\""), 1);
    assert_int_equal(count(svg, "class=\"hline\""), 1);
    char chosen[64];
    snprintf(chosen, sizeof chosen, ">chosen: R* = %g, E* = %g</text>", r.choice.R, r.choice.E);
    assert_non_null(strstr(svg, chosen));
    /* a line for each E and the envelope without memory limit */
    assert_int_equal(count(svg, "class=\"series\""), 3 + 1);
    free(svg);
    ls_solve_result_free(&r);

    svg = ls_plot_rho_eff(&l, &t, E, 3, 16, &err);
    assert_non_null(svg);
    assert_well_formed(svg);
    assert_int_equal(count(svg, "class=\"series\""), 3);
    assert_int_equal(count(svg, "class=\"hline\""), 3); /* a ceiling for each E */
    assert_non_null(strstr(svg, ">E = 16 (m = 0.0909)</text>"));
    free(svg);
}

static void the_isoflop_plot_marks_every_minimum(void **state)
{
    (void)state;
    double rmse;
    law l = default_law(&rmse);
    arch_template t;
    ls_arch_template_default(&t);
    const double F[] = {1e20, 1e21, 1e22}, E[] = {1, 8}, R[] = {1, 4};
    plot_isoflop_spec spec = {F, 3, E, R, 2, 2, 25};
    ls_error err;
    char *svg = ls_plot_isoflop(&l, &t, &spec, &err);
    assert_non_null(svg);
    assert_well_formed(svg);
    /* 12 profiles, and the 4 dotted lines joining the minima across budgets */
    assert_int_equal(count(svg, "class=\"series\""), 12 + 4);
    assert_int_equal(count(svg, "<circle class=\"marker\""), 12 + 1);
    assert_non_null(strstr(svg, ">F = 1e21 FLOPs</text>"));
    free(svg);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_checker_rejects_broken_documents),
        cmocka_unit_test(escape_replaces_the_five_special_characters_and_drops_controls),
        cmocka_unit_test(a_chart_has_axes_ticks_labels_lines_markers_and_a_legend),
        cmocka_unit_test(missing_values_break_a_line_and_log_axes_skip_non_positive_ones),
        cmocka_unit_test(fixed_ranges_and_explicit_ticks_are_kept),
        cmocka_unit_test(the_fit_plot_has_a_panel_for_each_e_and_n_act),
        cmocka_unit_test(the_solve_and_rho_plots_mark_the_choice_and_the_ceilings),
        cmocka_unit_test(the_isoflop_plot_marks_every_minimum),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
