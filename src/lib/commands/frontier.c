/*
 * frontier — the compute-optimal frontier of a law: N_opt, D_opt, tokens per
 * parameter and the loss at each training budget, in closed form for a plain
 * model, or the configuration solve chooses at each budget (docs/solver.md).
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>

#include "commands/commands_internal.h"
#include "loopscale/frontier.h"
#include "numtext_internal.h"

/* The options that switch the frontier from the closed form to solve's
 * choice at each budget (the law's kind does not: a looped-MoE law without
 * them keeps its plain-model closed form). */
static const opt_id SOLVE_OPTIONS[] = {O_MEM,     O_BITS,              O_TEMPLATE,         O_R_LIST,
                                       O_E_LIST,  O_EPS,               O_SERVE_CONTEXT,    O_BATCH,
                                       O_KV_BITS, O_ACTIVATION_MEMORY, O_INFERENCE_TOKENS, O_QUANTISATION};

/* One row of numbers for CSV or TSV; NaN is an empty field. */
static void number_row(strbuf *out, char sep, const double *v, size_t n, const char *text)
{
    for (size_t i = 0; i < n; i++) {
        char num[NUMTEXT_DOUBLE_MAX];
        if (i)
            strbuf_append(out, &sep, 1);
        if (!isnan(v[i]))
            strbuf_puts(out, ls_numtext_format_double(num, v[i]));
    }
    if (text)
        strbuf_printf(out, "%c%s", sep, text);
    strbuf_puts(out, "\n");
}

/* ---- the closed form ---------------------------------------------------------- */

static char *plain_json(const ls_law *l, const ls_frontier_point *p, const unsigned *outside, size_t n, double a,
                        const ls_fit_exponent *e, ls_error *err)
{
    char kind[64];
    jsonw w;
    ls_jsonw_init(&w);
    ls_jsonw_object_begin(&w, NULL);
    ls_jsonw_string(&w, "format", "loopscale-frontier/1");
    ls_jsonw_string(&w, "law", ls_law_kind_format(l->kind, kind, sizeof kind));
    ls_jsonw_number(&w, "exponent_n", a);
    ls_jsonw_number(&w, "exponent_d", 1.0 - a);
    if (e) { /* the interval of a the law's fit recorded */
        ls_jsonw_object_begin(&w, "exponent_n_interval");
        ls_jsonw_number(&w, "low", e->low);
        ls_jsonw_number(&w, "high", e->high);
        ls_jsonw_number(&w, "level", e->level);
        ls_jsonw_object_end(&w);
    }
    ls_jsonw_array_begin(&w, "frontier", 0);
    for (size_t i = 0; i < n; i++) {
        ls_jsonw_object_begin(&w, NULL);
        ls_jsonw_number(&w, "flops", p[i].flops);
        ls_jsonw_number(&w, "n_opt", p[i].n_opt);
        ls_jsonw_number(&w, "d_opt", p[i].d_opt);
        ls_jsonw_number(&w, "tokens_per_param", p[i].tokens_per_param);
        ls_jsonw_number(&w, "loss", p[i].loss);
        cmd_json_outside(&w, outside[i]);
        ls_jsonw_object_end(&w);
    }
    ls_jsonw_array_end(&w);
    ls_jsonw_object_end(&w);
    return ls_jsonw_finish(&w, err);
}

static void plain_table(strbuf *out, const ls_law *l, const ls_frontier_point *p, const unsigned *outside, size_t n,
                        double a, const ls_fit_exponent *e, const char *held_from, const ls_law_ranges *ranges,
                        table_style style)
{
    char kind[64];
    strbuf_printf(out, "law        %s (plain model: R = 1, E = 1, unlimited unique data)\n",
                  ls_law_kind_format(l->kind, kind, sizeof kind));
    strbuf_printf(out, "exponents  N_opt ~ F^%.4f, D_opt ~ F^%.4f\n", a, 1.0 - a);
    if (e) { /* as the fit stated it: the exponent is no surer here */
        char text[PATH_MAX + 96];
        cmd_exponent_text(text, sizeof text, e, held_from);
        strbuf_printf(out, "           %s\n", text);
    }
    strbuf_puts(out, "\n");
    static const char *const headers[] = {"flops", "N_opt", "D_opt", "tokens/param", "loss"};
    text_table *t = text_table_new(5, headers);
    unsigned any = 0;
    for (size_t i = 0; t && i < n; i++) {
        char c[5][40];
        snprintf(c[0], 40, "%.4g%s", p[i].flops, outside[i] >> LS_LAW_RANGE_FLOPS & 1u ? "*" : "");
        snprintf(c[1], 40, "%.4g%s", p[i].n_opt, outside[i] >> LS_LAW_RANGE_N_ACT & 1u ? "*" : "");
        snprintf(c[2], 40, "%.4g%s", p[i].d_opt, outside[i] >> LS_LAW_RANGE_TOKENS & 1u ? "*" : "");
        snprintf(c[3], 40, "%.4g", p[i].tokens_per_param);
        text_fixed(c[4], 40, p[i].loss, 4);
        any |= outside[i];
        const char *cells[] = {c[0], c[1], c[2], c[3], c[4]};
        if (text_table_add(t, cells) != 0) {
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
    cmd_ranges_note(out, ranges, any);
}

static int run_plain(const ls_request *req, ls_result *res, const ls_lawfile *lf, const double *budgets, size_t n,
                     const ls_figure *figure, ls_error *err)
{
    /* The closed form charges F = 6 N D; a law fitted on FLOPs counted with
     * attention or the LM head would give an optimum off the one isoflop
     * and solve find under its convention. */
    if (lf->has_fit && lf->fit.flops.kind != LS_LAW_FLOPS_6ND) {
        const char *path = req_text(req, O_LAW_FILE);
        return ls_error_set(err, LS_ERR_DATA, "%s: the law was fitted on FLOPs counted as %s, and the frontier's "
                            "closed form counts F = 6 N D; use 'loopscale isoflop' or 'loopscale solve', which "
                            "honour the convention", path ? path : "the law", ls_law_flops_name(lf->fit.flops.kind));
    }
    ls_frontier_point *points = malloc(n * sizeof *points);
    unsigned *outside = calloc(n, sizeof *outside); /* per budget: bits 1u << LS_LAW_RANGE_* */
    unsigned char *svg = NULL;
    size_t svg_len = 0;
    double a = NAN;
    int status = 0;
    if (!points || !outside) {
        status = res_oom(err);
        goto done;
    }
    if ((status = ls_frontier_run(&lf->law, budgets, n, points, &a, err)) != 0)
        goto done;
    /* The optimum of a plain model (R = 1, E = 1) beyond the sweep is the
     * law's guess, as solve and the architecture frontier say. */
    ls_law_ranges ranges;
    ls_lawfile_ranges(lf, &ranges);
    size_t beyond = 0;
    for (size_t i = 0; i < n; i++) {
        ls_law_point x = {.n_act = points[i].n_opt, .n_total = points[i].n_opt, .R = 1, .E = 1, .D = points[i].d_opt};
        outside[i] = ls_law_ranges_outside(&ranges, &x);
        beyond += outside[i] != 0;
    }
    if (beyond)
        res_warn(res, LS_WARNING_EXTRAPOLATION, "frontier",
                 "%zu of %zu %s %s an optimum outside the ranges the law was fitted on: an extrapolation", beyond, n,
                 ls_plural((double)n, "budget", "budgets"), beyond == 1 ? "has" : "have");
    ls_fit_exponent recorded;
    const char *held_from = NULL;
    const ls_fit_exponent *e = cmd_law_exponent(lf, a, &recorded, &held_from) ? &recorded : NULL;
    if (req_given(req, O_PLOT) &&
        !(svg = ls_plot_frontier(&lf->law, points, outside, n, a, e ? e->low : NAN, e ? e->high : NAN,
                                 e ? e->level : NAN, figure, &svg_len, err))) {
        status = err->code;
        goto done;
    }
    char *json = plain_json(&lf->law, points, outside, n, a, e, err);
    if (!json) {
        status = err->code;
        goto done;
    }
    res_set_json(res, json);
    strbuf out = {0};
    fmt_kind format = req_format(req);
    if (format == FMT_JSON)
        strbuf_puts(&out, json);
    else if (format == FMT_CSV || format == FMT_TSV) {
        char sep = format == FMT_CSV ? ',' : '\t';
        strbuf_printf(&out, "flops%cn_opt%cd_opt%ctokens_per_param%closs\n", sep, sep, sep, sep);
        for (size_t i = 0; i < n; i++) {
            const double v[] = {points[i].flops, points[i].n_opt, points[i].d_opt, points[i].tokens_per_param,
                                points[i].loss};
            number_row(&out, sep, v, 5, NULL);
        }
    } else
        plain_table(&out, &lf->law, points, outside, n, a, e, held_from, &ranges,
                    format == FMT_MD ? TABLE_MD : TABLE_ALIGNED);
    status = strbuf_failed(&out) ? res_oom(err) : res_write(res, out.buf ? out.buf : "", out.len);
    strbuf_free(&out);
    if (status == 0 && svg)
        status = res_output(res, O_PLOT, req_text(req, O_PLOT), svg, svg_len, err);
    svg = NULL;
done:
    free(svg);
    free(points);
    free(outside);
    return status;
}

/* ---- the chosen architecture at each budget ----------------------------------------------------- */

static char *solve_json(const ls_law *l, const ls_solve_budget *b, int quantised, double eps,
                        const ls_frontier_solve_point *p, size_t n, ls_error *err)
{
    double mem_bytes = b->mem_bytes, bits = b->bits;
    int serving = ls_solve_budget_serving(b), costed = ls_solve_budget_costed(b);
    char kind[64];
    jsonw w;
    ls_jsonw_init(&w);
    ls_jsonw_object_begin(&w, NULL);
    ls_jsonw_string(&w, "format", "loopscale-frontier/1");
    ls_jsonw_string(&w, "law", ls_law_kind_format(l->kind, kind, sizeof kind));
    if (isfinite(mem_bytes))
        ls_jsonw_number(&w, "mem_bytes", mem_bytes);
    ls_jsonw_number(&w, "bits", bits);
    if (serving) {
        ls_jsonw_number(&w, "context", b->context);
        ls_jsonw_number(&w, "batch", b->context > 0 ? (b->batch > 0 ? b->batch : 1) : 0);
        ls_jsonw_number(&w, "kv_bits", ls_solve_budget_kv_bits(b));
        ls_jsonw_number(&w, "activation_bytes", b->activation_bytes);
    }
    if (costed)
        ls_jsonw_number(&w, "inference_tokens", b->inference_tokens);
    ls_jsonw_number(&w, "eps", eps);
    ls_jsonw_array_begin(&w, "frontier", 0);
    for (size_t i = 0; i < n; i++) {
        ls_jsonw_object_begin(&w, NULL);
        ls_jsonw_number(&w, "flops", p[i].flops);
        ls_jsonw_number(&w, "n_opt", p[i].n_act);
        ls_jsonw_number(&w, "d_opt", p[i].tokens);
        ls_jsonw_number(&w, "tokens_per_param", p[i].tokens_per_param);
        ls_jsonw_number(&w, "loss", p[i].loss);
        ls_jsonw_number(&w, "R", p[i].R);
        ls_jsonw_number(&w, "E", p[i].E);
        ls_jsonw_number(&w, "n_total", p[i].n_total);
        ls_jsonw_string(&w, "bound", ls_solve_bound_name(p[i].bound));
        if (serving) {
            ls_jsonw_number(&w, "kv_bytes", p[i].kv_bytes);
            ls_jsonw_number(&w, "memory_bytes", p[i].memory_bytes);
        }
        if (quantised)
            ls_jsonw_number(&w, "quant_penalty", p[i].quant_penalty);
        if (costed) {
            ls_jsonw_number(&w, "training_flops", p[i].training_flops);
            ls_jsonw_number(&w, "inference_flops", p[i].serving_flops);
            ls_jsonw_number(&w, "total_flops", p[i].training_flops + p[i].serving_flops);
        }
        if (!isnan(p[i].exponent_n)) /* JSON has no NaN: one budget has no slope */
            ls_jsonw_number(&w, "exponent_n", p[i].exponent_n);
        cmd_json_outside(&w, p[i].outside);
        ls_jsonw_object_end(&w);
    }
    ls_jsonw_array_end(&w);
    ls_jsonw_object_end(&w);
    return ls_jsonw_finish(&w, err);
}

static void solve_table(strbuf *out, const ls_law *l, const ls_solve_budget *b, double eps,
                        const ls_law_ranges *ranges, const ls_frontier_solve_point *p, size_t n, table_style style)
{
    char kind[64];
    double mem_bytes = b->mem_bytes, bits = b->bits;
    int serving = ls_solve_budget_serving(b), costed = ls_solve_budget_costed(b);
    strbuf_printf(out, "law        %s (the configuration 'loopscale solve' chooses at each budget)\n",
                  ls_law_kind_format(l->kind, kind, sizeof kind));
    if (isfinite(mem_bytes) && !serving)
        strbuf_printf(out, "memory     %.4g bytes of weights at %g bits (N_total <= %.4g)\n", mem_bytes, bits,
                      8 * mem_bytes / bits);
    else if (isfinite(mem_bytes))
        strbuf_printf(out, "memory     %.4g bytes for weights at %g bits, KV cache and activations\n", mem_bytes, bits);
    else
        strbuf_puts(out, "memory     no limit\n");
    if (b->context > 0)
        strbuf_printf(out, "KV cache   %g x %g tokens at %g bits\n", b->batch > 0 ? b->batch : 1, b->context,
                      ls_solve_budget_kv_bits(b));
    if (costed)
        strbuf_printf(out, "cost       training + %.4g inference tokens, within epsilon of the best loss\n",
                      b->inference_tokens);
    strbuf_printf(out, "epsilon    %.4g (loss units)\n\n", eps);
    const char *headers[13] = {"flops", "R*", "E*", "N_act", "N_total", "D", "D/N_act", "loss", "bound"};
    size_t ncol = 9;
    if (serving)
        headers[ncol++] = "memory";
    if (costed)
        headers[ncol++] = "total FLOPs";
    headers[ncol++] = "dlnN_act/dlnF";
    text_table *t = text_table_new(ncol, headers);
    unsigned outside = 0;
    for (size_t i = 0; t && i < n; i++) {
        char c[12][40];
        snprintf(c[0], 40, "%.4g", p[i].flops);
        snprintf(c[1], 40, "%g%s", p[i].R, p[i].outside >> LS_LAW_RANGE_R & 1u ? "*" : "");
        snprintf(c[2], 40, "%g%s", p[i].E, p[i].outside >> LS_LAW_RANGE_E & 1u ? "*" : "");
        snprintf(c[3], 40, "%.4g%s", p[i].n_act, p[i].outside >> LS_LAW_RANGE_N_ACT & 1u ? "*" : "");
        snprintf(c[4], 40, "%.4g", p[i].n_total);
        snprintf(c[5], 40, "%.4g%s", p[i].tokens, p[i].outside >> LS_LAW_RANGE_TOKENS & 1u ? "*" : "");
        snprintf(c[6], 40, "%.4g", p[i].tokens_per_param);
        text_fixed(c[7], 40, p[i].loss, 4);
        snprintf(c[8], 40, "%s", ls_solve_bound_name(p[i].bound));
        size_t k = 9;
        if (serving)
            snprintf(c[k++], 40, "%.3g GB", p[i].memory_bytes / 1e9);
        if (costed)
            snprintf(c[k++], 40, "%.4g", p[i].training_flops + p[i].serving_flops);
        if (isnan(p[i].exponent_n)) /* one budget has no slope */
            snprintf(c[k++], 40, "-");
        else
            snprintf(c[k++], 40, "%.4f", p[i].exponent_n);
        outside |= p[i].outside;
        const char *cells[] = {c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9], c[10], c[11]};
        if (text_table_add(t, cells) != 0) {
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
    cmd_ranges_note(out, ranges, outside);
}

/* A frontier row as the candidate solve chose, for solve's edge checks. */
static ls_solve_candidate chosen_candidate(const ls_frontier_solve_point *p)
{
    return (ls_solve_candidate){.R = p->R, .E = p->E, .n_act = p->n_act, .n_total = p->n_total, .tokens = p->tokens,
                                .loss = p->loss, .feasible = 1, .bound = p->bound};
}

/* What the chosen configurations say as solve would: beyond the fitted
 * ranges (counted), at an end of the search (the first such budget named). */
static void warn_solve(const ls_request *req, ls_result *res, const ls_solve_options *so,
                       const ls_frontier_solve_point *p, size_t n)
{
    size_t beyond = 0, at_edge = 0, first = 0;

    for (size_t i = 0; i < n; i++) {
        beyond += p[i].outside != 0;
        ls_solve_candidate c = chosen_candidate(&p[i]);
        unsigned bits = ls_solve_at_edge(so, &c);
        if (bits && at_edge++ == 0)
            first = i;

    }
    const char *budgets = ls_plural((double)n, "budget", "budgets");
    if (beyond)
        res_warn(res, LS_WARNING_EXTRAPOLATION, "frontier",
                 "%zu of %zu %s %s a configuration outside the ranges the law was fitted on: an extrapolation", beyond,
                 n, budgets, beyond == 1 ? "chooses" : "choose");
    if (!at_edge)
        return;
    char text[160], hint[128];
    ls_solve_candidate c = chosen_candidate(&p[first]);
    cmd_edge_text(text, sizeof text, so, &c);
    cmd_edge_hint(hint, sizeof hint, req, so, &c);
    res_warn(res, LS_WARNING_SEARCH_EDGE, "frontier",
             "%zu of %zu %s %s a configuration at an end of the search range, not an optimum (at %g FLOPs: %s; %s)",
             at_edge, n, budgets, at_edge == 1 ? "chooses" : "choose", p[first].flops, text, hint);
}

/* The frontier of the chosen architecture: solve at each budget, with its
 * defaults (candidate lists cut at the law's fitted R and E, epsilon the
 * fit's RMSE) and the law's FLOP convention. */
static int run_solve(const ls_request *req, ls_result *res, const ls_lawfile *lf, const double *budgets, size_t n,
                     const ls_figure *figure, ls_error *err)
{
    ls_arch_template tmpl;
    if (cmd_template_read(req, &tmpl, err) != 0)
        return err->code;
    cmd_template_for_law(req, res, lf, cmd_law_name(req, O_LAW_FILE), &tmpl);
    if (cmd_template_flops(req, lf, &tmpl, err) != 0)
        return err->code;
    ls_law_ranges ranges;
    ls_lawfile_ranges(lf, &ranges);
    cmd_candidates room;
    ls_solve_options so = {.ranges = &ranges};
    cmd_candidates_of(req, res, &tmpl, &room, &so);
    so.eps = cmd_eps(req, res, lf);
    ls_solve_budget deploy = cmd_budget(req);
    cmd_quant quant;
    if (cmd_serving(req, res, lf, &tmpl, &deploy, &so, &quant, err) != 0)
        return err->code;
    double mem_bytes = deploy.mem_bytes, bits = deploy.bits;
    int quantised = so.quant && bits < so.quant->trained_bits;
    ls_frontier_solve_point *points = malloc(n * sizeof *points);
    if (!points)
        return res_oom(err);
    unsigned char *svg = NULL;
    size_t svg_len = 0;
    int status = ls_frontier_run_solve(&lf->law, &tmpl, budgets, n, &so, &deploy, points, err);
    if (status != 0)
        goto done;
    warn_solve(req, res, &so, points, n);
    if (req_given(req, O_PLOT) &&
        !(svg = ls_plot_frontier_solve(&lf->law, points, n, &so, mem_bytes, bits, figure, &svg_len, err))) {
        status = err->code;
        goto done;
    }
    char *json = solve_json(&lf->law, &deploy, quantised, so.eps, points, n, err);
    if (!json) {
        status = err->code;
        goto done;
    }
    res_set_json(res, json);
    strbuf out = {0};
    fmt_kind format = req_format(req);
    if (format == FMT_JSON)
        strbuf_puts(&out, json);
    else if (format == FMT_CSV || format == FMT_TSV) {
        char sep = format == FMT_CSV ? ',' : '\t';
        strbuf_printf(&out, "flops%cn_opt%cd_opt%ctokens_per_param%closs%cR%cE%cn_total%cbound%cexponent_n\n", sep,
                      sep, sep, sep, sep, sep, sep, sep, sep);
        for (size_t i = 0; i < n; i++) {
            const double v[] = {points[i].flops, points[i].n_act, points[i].tokens, points[i].tokens_per_param,
                                points[i].loss, points[i].R, points[i].E, points[i].n_total};
            char tail[64];
            char num[NUMTEXT_DOUBLE_MAX];
            snprintf(tail, sizeof tail, "%s%c%s", ls_solve_bound_name(points[i].bound), sep,
                     isnan(points[i].exponent_n) ? "" : ls_numtext_format_double(num, points[i].exponent_n));
            number_row(&out, sep, v, 8, tail);
        }
    } else
        solve_table(&out, &lf->law, &deploy, so.eps, &ranges, points, n,
                    format == FMT_MD ? TABLE_MD : TABLE_ALIGNED);
    status = strbuf_failed(&out) ? res_oom(err) : res_write(res, out.buf ? out.buf : "", out.len);
    strbuf_free(&out);
    if (status == 0 && svg)
        status = res_output(res, O_PLOT, req_text(req, O_PLOT), svg, svg_len, err);
    svg = NULL;
done:
    free(svg);
    free(points);
    return status;
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
    if (!req_given(req, O_FLOPS_LIST))
        return req_usage(req, err, "give the training budgets with %s F1,F2,... or %s LO:HI:N",
                         req_flag(req, O_FLOPS_LIST), req_flag(req, O_FLOPS_LIST));
    /* Reported in increasing F, whatever the order given: the local
     * exponent is taken between neighbours, and budgets that agree to 12
     * digits would give a slope of rounding noise. */
    size_t n;
    const double *given = req_list(req, O_FLOPS_LIST, &n);
    double *budgets = malloc(n * sizeof *budgets);
    if (!budgets)
        return res_oom(err);
    memcpy(budgets, given, n * sizeof *budgets);
    gsl_sort(budgets, 1, n);
    for (size_t i = 1; status == 0 && i < n; i++)
        if (budgets[i] - budgets[i - 1] < 1e-12 * budgets[i])
            status = req_usage(req, err, "%s: '%s': %.15g and %.15g agree to 12 significant digits; give budgets "
                               "that differ", req_flag(req, O_FLOPS_LIST), req_text(req, O_FLOPS_LIST),
                               budgets[i - 1], budgets[i]);
    int solve = 0;
    for (size_t i = 0; i < sizeof SOLVE_OPTIONS / sizeof *SOLVE_OPTIONS; i++)
        solve |= req_given(req, SOLVE_OPTIONS[i]);
    if (status == 0 && solve)
        status = cmd_serving_check(req, err);
    ls_lawfile *lf = status == 0 ? cmd_read_law(req, res, O_LAW_FILE, err) : NULL;
    if (status == 0 && !lf)
        status = err->code;
    if (status == 0)
        status = solve ? run_solve(req, res, lf, budgets, n, &figure, err)
                       : run_plain(req, res, lf, budgets, n, &figure, err);
    ls_lawfile_free(lf);
    free(budgets);
    return status;
}

static const cmd_option OPTIONS[] = {
    CMD_OPT(O_LAW_FILE),
    CMD_OPT(O_FLOPS_LIST),
    CMD_OPT(O_FORMAT),
    CMD_OPT_HELP(O_PLOT, "draw N_opt, D_opt and the loss against F; with the options below, N_act and D, and R* "
                         "and E*"),
    {O_MEM, NULL, NULL, NULL,
     "\nThe frontier of the best architecture: any of these options runs 'loopscale\n"
     "solve' at each budget instead (same meanings and defaults, the law's FLOP\n"
     "convention) and reports the chosen R*, E*, N_act, N_total, D, D/N_act, the loss,\n"
     "what bounds N_act (compute, memory or search range) and the local exponent\n"
     "d ln N_act / d ln F between neighbouring budgets:"},
    CMD_OPT(O_BITS),
    CMD_OPT(O_TEMPLATE),
    {O_R_LIST, NULL, NULL, "1,2,...,16, up to the largest R the law was fitted on", NULL},
    {O_E_LIST, NULL, NULL, "1,2,4,8,16,32,64, up to the largest E the law was fitted on", NULL},
    CMD_OPT(O_EPS),
    CMD_SERVING_OPTIONS,
    CMD_PLOT_OPTIONS,
    CMD_OPT(O_FORCE),
    CMD_OPT(O_QUIET),
    CMD_END,
};

const cmd_def CMD_FRONTIER = {
    .name = "frontier",
    .summary = "the compute-optimal frontier of a law: N_opt, D_opt, loss against F",
    .usage = "--flops BUDGETS [OPTIONS]",
    .description =
        "The compute-optimal frontier of a law: for each training budget F, the size N_opt and\n"
        "tokens D_opt = F / (6 N_opt) that minimise the loss of a plain model (R = 1, E = 1,\n"
        "unlimited unique data), the tokens per parameter D_opt / N_opt and the loss there, in\n"
        "closed form; N_opt grows as F^a (a = beta / (alpha + beta) for Chinchilla's form).\n"
        "F is counted as 6 N D: a law fitted with another --flops-convention is refused (the\n"
        "options below, isoflop and solve honour it). Budgets are reported in increasing F;\n"
        "optima beyond the ranges the law was fitted on are starred, with a warning.",
    .operands = NULL,
    .min_operands = 0,
    .max_operands = 0,
    .formats = "table|csv|tsv|json|md",
    .stdout_label = "the table",
    .options = OPTIONS,
    .run = run,
};
