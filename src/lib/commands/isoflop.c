/*
 * isoflop — loss against N_act at fixed training compute, and the minimum of
 * each profile (docs/solver.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands_internal.h"
#include "numtext_internal.h"

/* The most rows isoflop prints: a minimum per profile, and with profiles
 * (csv, tsv, json) --points more each.  A million rows is about 70 MB of
 * CSV held until the run succeeds. */
#define ISOFLOP_MAX_ROWS 1000000

/* The names of the quantities in bits ("N_act;D"), joined by sep. */
static const char *range_names(char *buf, size_t size, unsigned bits, const char *sep)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int q = 0; q < LS_LAW_NRANGES; q++)
        if (bits >> q & 1u) {
            int n = snprintf(buf + used, size - used, "%s%s", used ? sep : "", ls_law_range_name((ls_law_range)q));
            if (n > 0 && (size_t)n < size - used)
                used += (size_t)n;
        }
    return buf;
}

/* One row of the CSV (or TSV, with sep a tab): a profile point, or with
 * is_minimum the profile's minimum. */
static void point_row(strbuf *out, char sep, const ls_solve_isoflop_curve *c, double n_act, double tokens, double loss,
                      int is_minimum, unsigned outside)
{
    char num[6][NUMTEXT_DOUBLE_MAX], names[64];
    strbuf_printf(out, "%s%c%s%c%s%c%s%c%s%c%s%c%d%c%s\n", ls_numtext_format_double(num[0], c->flops), sep,
                  ls_numtext_format_double(num[1], c->E), sep, ls_numtext_format_double(num[2], c->R), sep,
                  ls_numtext_format_double(num[3], n_act), sep, ls_numtext_format_double(num[4], tokens), sep,
                  ls_numtext_format_double(num[5], loss), sep, is_minimum, sep,
                  range_names(names, sizeof names, outside, ";"));
}

/* Every profile point, N_act increasing, with each minimum in its place. */
static void print_points(strbuf *out, const ls_solve_isoflop_result *r, char sep)
{
    strbuf_printf(out, "flops%cE%cR%cn_act%ctokens%closs%cminimum%coutside\n", sep, sep, sep, sep, sep, sep, sep);
    for (size_t i = 0; i < r->ncurves; i++) {
        const ls_solve_isoflop_curve *c = &r->curves[i];
        const ls_solve_candidate *m = &c->minimum;
        int printed_min = 0;
        for (size_t k = 0; k < r->points; k++) {
            if (!printed_min && c->n_act[k] > m->n_act) {
                point_row(out, sep, c, m->n_act, m->tokens, m->loss, 1, m->outside);
                printed_min = 1;
            }
            point_row(out, sep, c, c->n_act[k], c->tokens[k], c->loss[k], 0, c->outside[k]);
        }
        if (!printed_min)
            point_row(out, sep, c, m->n_act, m->tokens, m->loss, 1, m->outside);
    }
}

/* The minima as a table, values beyond the fitted ranges starred. */
static void print_minima(strbuf *out, const ls_solve_isoflop_result *r, const ls_law_ranges *ranges, table_style style)
{
    static const char *const headers[] = {"flops", "E", "R", "N_act*", "D*", "tokens/N_act", "loss*"};
    /* The column that shows each quantity of the fitted ranges. */
    static const int column_of[LS_LAW_NRANGES] = {[LS_LAW_RANGE_N_ACT] = 3, [LS_LAW_RANGE_TOKENS] = 4,
                                                  [LS_LAW_RANGE_R] = 2, [LS_LAW_RANGE_E] = 1,
                                                  [LS_LAW_RANGE_FLOPS] = 0};
    text_table *t = text_table_new(7, headers);
    for (size_t i = 0; t && i < r->ncurves; i++) {
        const ls_solve_isoflop_curve *c = &r->curves[i];
        const ls_solve_candidate *m = &c->minimum;
        char cells[7][40];
        snprintf(cells[0], 40, "%.3g", c->flops);
        snprintf(cells[1], 40, "%g", c->E);
        snprintf(cells[2], 40, "%g", c->R);
        snprintf(cells[3], 40, "%.4g", m->n_act);
        snprintf(cells[4], 40, "%.4g", m->tokens);
        snprintf(cells[5], 40, "%.4g", m->tokens / m->n_act);
        text_fixed(cells[6], 40, m->loss, 4);
        for (int q = 0; q < LS_LAW_NRANGES; q++)
            if (m->outside >> q & 1u)
                strcat(cells[column_of[q]], "*");
        const char *row[] = {cells[0], cells[1], cells[2], cells[3], cells[4], cells[5], cells[6]};
        if (text_table_add(t, row) != 0) {
            text_table_free(t);
            t = NULL;
        }
    }
    if (!t) {
        out->failed = 1;
        return;
    }
    text_table_print(t, out, style);
    text_table_free(t);
    cmd_ranges_note(out, ranges, r->minima_outside);
}

/* The document: each profile with its minimum, and its points when they
 * were computed (docs/formats.md). */
static char *isoflop_json(const ls_law *l, const ls_solve_isoflop_result *r, ls_error *err)
{
    char kind[64];
    jsonw w;
    ls_jsonw_init(&w);
    ls_jsonw_object_begin(&w, NULL);
    ls_jsonw_string(&w, "format", "loopscale-isoflop/1");
    ls_jsonw_string(&w, "law", ls_law_kind_format(l->kind, kind, sizeof kind));
    ls_jsonw_array_begin(&w, "profiles", 0);
    for (size_t i = 0; i < r->ncurves; i++) {
        const ls_solve_isoflop_curve *c = &r->curves[i];
        const ls_solve_candidate *m = &c->minimum;
        ls_jsonw_object_begin(&w, NULL);
        ls_jsonw_number(&w, "flops", c->flops);
        ls_jsonw_number(&w, "E", c->E);
        ls_jsonw_number(&w, "R", c->R);
        ls_jsonw_object_begin(&w, "minimum");
        ls_jsonw_number(&w, "n_act", m->n_act);
        ls_jsonw_number(&w, "tokens", m->tokens);
        ls_jsonw_number(&w, "tokens_per_param", m->tokens / m->n_act);
        ls_jsonw_number(&w, "loss", m->loss);
        ls_jsonw_string(&w, "bound", ls_solve_bound_name(m->bound));
        cmd_json_outside(&w, m->outside);
        ls_jsonw_object_end(&w);
        if (r->points) {
            ls_jsonw_array_begin(&w, "points", 0);
            for (size_t k = 0; k < r->points; k++) {
                ls_jsonw_object_begin(&w, NULL);
                ls_jsonw_number(&w, "n_act", c->n_act[k]);
                ls_jsonw_number(&w, "tokens", c->tokens[k]);
                ls_jsonw_number(&w, "loss", c->loss[k]);
                cmd_json_outside(&w, c->outside[k]);
                ls_jsonw_object_end(&w);
            }
            ls_jsonw_array_end(&w);
        }
        ls_jsonw_object_end(&w);
    }
    ls_jsonw_array_end(&w);
    ls_jsonw_object_end(&w);
    return ls_jsonw_finish(&w, err);
}

/* The minima's warnings: at an end of the N_act search (the first such
 * named), and beyond the ranges the law was fitted on. */
static void warn_minima(ls_result *res, const ls_solve_isoflop_result *r)
{
    for (size_t i = 0; r->minima_at_edge && i < r->ncurves; i++) {
        const ls_solve_isoflop_curve *c = &r->curves[i];
        if (!ls_solve_at_edge(NULL, &c->minimum))
            continue;
        res_warn(res, LS_WARNING_SEARCH_EDGE, "minima",
                 "F = %g, E = %g, R = %g: N_act = %.4g, D = %.4g%s: at an end of the search range (N_act 1e3 and up, "
                 "D at least one token), not an optimum (a budget that small, or a law whose exponents are not "
                 "positive)",
                 c->flops, c->E, c->R, c->minimum.n_act, c->minimum.tokens,
                 r->minima_at_edge > 1 ? " and other minima" : "");
        break;
    }
    char names[64];
    if (r->minima_outside)
        res_warn(res, LS_WARNING_EXTRAPOLATION, "minima",
                 "some minima lie outside the ranges the law was fitted on (%s): an extrapolation",
                 range_names(names, sizeof names, r->minima_outside, ", "));
}

static int run(const ls_request *req, ls_result *res, ls_error *err)
{
    ls_figure figure;
    int status = cmd_figure(req, O_PLOT, &figure, err);
    static const opt_id plots[] = {O_PLOT};
    const ls_figure *figures[] = {&figure};
    if (status == 0)
        status = cmd_figure_options_check(req, 1, plots, figures, err);
    if (status != 0)
        return status;
    size_t nflops, nE, nR;
    const double *flops = req_list(req, O_FLOPS_LIST, &nflops);
    if (!req_given(req, O_FLOPS_LIST))
        return req_usage(req, err, "give the compute budgets with %s F1,F2,... or %s LO:HI:N",
                         req_flag(req, O_FLOPS_LIST), req_flag(req, O_FLOPS_LIST));
    const double *E = req_list(req, O_E_LIST, &nE), *R = req_list(req, O_R_LIST, &nR);
    fmt_kind format = req_format(req);
    /* The profiles' points only where they are printed: the table shows
     * the minima. */
    size_t points = format == FMT_CSV || format == FMT_TSV || format == FMT_JSON ? (size_t)req_integer(req, O_POINTS)
                                                                                : 0;
    double rows = (double)nflops * (double)nE * (double)nR * (double)(points + 1);
    if (rows > ISOFLOP_MAX_ROWS)
        return req_usage(req, err, "%s, %s and %s%s%s ask for %.0f rows; at most %d", req_flag(req, O_FLOPS_LIST),
                         req_flag(req, O_E_LIST), req_flag(req, O_R_LIST), points ? " with " : "",
                         points ? req_flag(req, O_POINTS) : "", rows, ISOFLOP_MAX_ROWS);

    ls_arch_template tmpl;
    if (cmd_template_read(req, &tmpl, err) != 0)
        return err->code;
    ls_lawfile *lf = cmd_read_law(req, res, O_LAW_FILE, err);
    if (!lf)
        return err->code;
    cmd_template_for_law(req, res, lf, cmd_law_name(req, O_LAW_FILE), &tmpl);
    double top_k_e = tmpl.top_k;
    if (!req_given(req, O_E_LIST) && tmpl.top_k > 1) { /* the default E = 1 cannot route to top_k experts */
        E = &top_k_e;
        res_note(res, "the template routes to top_k = %d experts: the default %s is %d", tmpl.top_k,
                 req_flag(req, O_E_LIST), tmpl.top_k);
    }
    for (size_t i = 0; i < nE; i++)
        if (E[i] < tmpl.top_k) {
            ls_lawfile_free(lf);
            return req_usage(req, err, "%s: %g is not a whole number of experts of at least top_k",
                             req_flag(req, O_E_LIST), E[i]);
        }
    ls_solve_isoflop_result r;
    memset(&r, 0, sizeof r);
    unsigned char *svg = NULL;
    size_t svg_len = 0;
    char *json = NULL;
    ls_law_ranges ranges;
    ls_lawfile_ranges(lf, &ranges);
    if ((status = cmd_template_flops(req, lf, &tmpl, err)) != 0 ||
        (status = ls_solve_isoflop_run(&lf->law, &tmpl, flops, nflops, E, nE, R, nR, points, &ranges, &r, err)) != 0)
        goto done;
    if (req_given(req, O_PLOT) && ls_plot_band_draws(lf, 1) == 0)
        res_note(res, "no bootstrap draws in the law: the plot has no band (fit --bootstrap N records them)");
    warn_minima(res, &r);
    /* The figure is drawn before anything is printed, so that a figure
     * that cannot be drawn leaves no half of the output. */
    if (req_given(req, O_PLOT) && !(svg = cmd_plot_isoflop(lf, &tmpl, flops, nflops, E, nE, R, nR,
                                                           (size_t)req_integer(req, O_POINTS), &figure, &svg_len,
                                                           err))) {
        status = err->code;
        goto done;
    }
    if (!(json = isoflop_json(&lf->law, &r, err))) {
        status = err->code;
        goto done;
    }
    strbuf out = {0};
    if (format == FMT_JSON)
        strbuf_puts(&out, json);
    else if (format == FMT_CSV || format == FMT_TSV)
        print_points(&out, &r, format == FMT_CSV ? ',' : '\t');
    else
        print_minima(&out, &r, &ranges, format == FMT_MD ? TABLE_MD : TABLE_ALIGNED);
    res_set_json(res, json);
    if (strbuf_failed(&out))
        status = res_oom(err);
    else if (out.len)
        status = res_write(res, out.buf, out.len);
    strbuf_free(&out);
    if (status == 0 && svg)
        status = res_output(res, O_PLOT, req_text(req, O_PLOT), svg, svg_len, err);
    svg = NULL;
done:
    free(svg);
    ls_solve_isoflop_result_free(&r);
    ls_lawfile_free(lf);
    return status;
}

static const cmd_option OPTIONS[] = {
    CMD_OPT(O_LAW_FILE),
    CMD_OPT(O_FLOPS_LIST),
    {O_E_LIST, "expert counts", "1", NULL, NULL},
    {O_R_LIST, "loop counts", "1", NULL, NULL},
    CMD_OPT(O_TEMPLATE),
    CMD_OPT(O_FLOPS_CONVENTION),
    CMD_OPT_HELP(O_POINTS, "profile points per curve, from N*/30 to 30 N* (csv, tsv, json and the plot)"),
    CMD_OPT_HELP(O_FORMAT, "what standard output shows: the minima (table, md), every profile point with a column "
                           "'minimum' marking the minima (csv, tsv), or both (json)"),
    CMD_OPT_HELP(O_PLOT, "draw the profiles and their minima"),
    CMD_PLOT_OPTIONS,
    CMD_OPT(O_FORCE),
    CMD_OPT(O_QUIET),
    CMD_END,
};

const cmd_def CMD_ISOFLOP = {
    .name = "isoflop",
    .summary = "IsoFLOP profiles: loss against N_act at fixed compute, and minima",
    .usage = "--flops F1,F2,... [OPTIONS]\n--flops LO:HI:N [OPTIONS]",
    .description =
        "IsoFLOP profiles: for each compute budget F and each (E, R), the loss against N_act when\n"
        "all of F is spent (D = F / (6 N_unroll)), and the minimum of each profile.  Minima beyond\n"
        "the ranges the law was fitted on are starred, with a warning.",
    .operands = NULL,
    .min_operands = 0,
    .max_operands = 0,
    .formats = "table|csv|tsv|json|md",
    .stdout_label = "the table",
    .options = OPTIONS,
    .run = run,
};
