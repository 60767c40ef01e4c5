/*
 * isofit — compute-optimal exponents from the IsoFLOP minima of runs
 * (Chinchilla's approaches 1 and 2, Porian et al.'s Akima minima), with
 * intervals (docs/fitting.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands_internal.h"
#include "jsonw_internal.h"
#include "loopscale/isofit.h"
#include "numtext_internal.h"

static double tokens_at(const ls_isofit_budget *b, double n)
{
    return b->d_opt * b->n_opt / n;
}

static const char *method_text(ls_isofit_method m)
{
    switch (m) {
    case LS_ISOFIT_PARABOLA: return "parabola (Chinchilla approach 2)";
    case LS_ISOFIT_MINIMUM: return "minimum (Chinchilla approach 1)";
    default: return "akima (Porian et al.: Akima's interpolant of ln L)";
    }
}

static void number_if(jsonw *w, const char *key, double x)
{
    if (isfinite(x))
        ls_jsonw_number(w, key, x);
}

static char *document(const ls_isofit_options *o, const ls_isofit_result *r, ls_error *err)
{
    jsonw w;
    ls_jsonw_init(&w);
    ls_jsonw_object_begin(&w, NULL);
    ls_jsonw_string(&w, "format", "loopscale-isofit/1");
    ls_jsonw_string(&w, "method", ls_isofit_method_name(o->method));
    if (o->keep_factor > 1)
        ls_jsonw_number(&w, "keep_factor", o->keep_factor);
    ls_jsonw_number(&w, "exponent_n", r->a);
    ls_jsonw_number(&w, "coefficient_n", exp(r->ln_g));
    ls_jsonw_number(&w, "exponent_d", r->b);
    ls_jsonw_number(&w, "coefficient_d", exp(r->ln_h));
    number_if(&w, "r2", r->r2); /* none through two budgets */
    ls_jsonw_number(&w, "budgets_used", (double)r->nused);
    number_if(&w, "exponent_n_se", r->a_se);
    number_if(&w, "exponent_n_ls_lo", r->a_ls_lo);
    number_if(&w, "exponent_n_ls_hi", r->a_ls_hi);
    if (o->bootstrap > 0)
        ls_jsonw_number(&w, "draws_requested", (double)o->bootstrap);
    if (o->noise_draws > 0) {
        ls_jsonw_number(&w, "noise_draws", (double)o->noise_draws);
        ls_jsonw_number(&w, "noise_sd", o->noise_sd);
    }
    if (isfinite(r->a_lo)) {
        ls_jsonw_number(&w, "draws", (double)r->ndraws);
        ls_jsonw_number(&w, "level", o->level);
        ls_jsonw_number(&w, "exponent_n_lo", r->a_lo);
        ls_jsonw_number(&w, "exponent_n_hi", r->a_hi);
    }
    ls_jsonw_array_begin(&w, "budgets", 0);
    for (size_t i = 0; i < r->nbudgets; i++) {
        const ls_isofit_budget *b = &r->budgets[i];
        ls_jsonw_object_begin(&w, NULL);
        ls_jsonw_number(&w, "flops", b->flops);
        ls_jsonw_number(&w, "runs", (double)b->runs);
        ls_jsonw_number(&w, "used", (double)b->used);
        ls_jsonw_string(&w, "status", ls_isofit_status_name(b->status));
        if (isfinite(b->n_opt)) {
            ls_jsonw_number(&w, "n_opt", b->n_opt);
            ls_jsonw_number(&w, "d_opt", b->d_opt);
            ls_jsonw_number(&w, "loss", b->loss_opt);
        }
        if (isfinite(b->n_lo)) {
            ls_jsonw_number(&w, "n_opt_lo", b->n_lo);
            ls_jsonw_number(&w, "n_opt_hi", b->n_hi);
            ls_jsonw_number(&w, "d_opt_lo", tokens_at(b, b->n_hi));
            ls_jsonw_number(&w, "d_opt_hi", tokens_at(b, b->n_lo));
            ls_jsonw_number(&w, "draws", (double)b->draws_ok);
        }
        ls_jsonw_object_end(&w);
    }
    ls_jsonw_array_end(&w);
    cmd_json_warnings(&w, &r->warnings);
    ls_jsonw_object_end(&w);
    return ls_jsonw_finish(&w, err);
}

/* One row per budget: exact numbers for programs (csv, tsv), rounded for
 * people (table, md). */
static void print_budgets(strbuf *out, const ls_isofit_result *r, fmt_kind format)
{
    int exact = format == FMT_CSV || format == FMT_TSV;
    int with_ci = r->ndraws > 0 || exact;
    static const char *const exact_headers[] = {"flops", "runs", "used", "status", "n_opt", "d_opt", "loss",
                                                "n_opt_lo", "n_opt_hi"};
    const char *headers[] = {"flops", "used", "N_opt", "D_opt", "loss", with_ci ? "N_opt interval" : "note", "note"};
    text_table *t = exact ? text_table_new(9, exact_headers) : text_table_new(with_ci ? 7 : 6, headers);
    for (size_t i = 0; t && i < r->nbudgets; i++) {
        const ls_isofit_budget *b = &r->budgets[i];
        char c[9][64];
        if (exact) {
            const double v[] = {b->flops, b->n_opt, b->d_opt, b->loss_opt, b->n_lo, b->n_hi};
            char num[6][NUMTEXT_DOUBLE_MAX];
            for (int k = 0; k < 6; k++)
                if (isfinite(v[k]))
                    ls_numtext_format_double(num[k], v[k]);
                else
                    num[k][0] = '\0';
            snprintf(c[0], 64, "%s", num[0]);
            snprintf(c[1], 64, "%zu", b->runs);
            snprintf(c[2], 64, "%zu", b->used);
            snprintf(c[3], 64, "%s", ls_isofit_status_name(b->status));
            for (int k = 1; k < 6; k++)
                snprintf(c[3 + k], 64, "%s", num[k]);
            const char *cells[] = {c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8]};
            if (text_table_add(t, cells) != 0) {
                text_table_free(t);
                t = NULL;
            }
            continue;
        }
        snprintf(c[0], 64, "%.4g", b->flops);
        snprintf(c[1], 64, "%zu", b->used);
        snprintf(c[2], 64, isfinite(b->n_opt) ? "%.4g" : "-", b->n_opt);
        snprintf(c[3], 64, isfinite(b->d_opt) ? "%.4g" : "-", b->d_opt);
        if (isfinite(b->loss_opt))
            text_fixed(c[4], 64, b->loss_opt, 4);
        else
            snprintf(c[4], 64, "-");
        if (isfinite(b->n_lo))
            snprintf(c[5], 64, "[%.4g, %.4g]", b->n_lo, b->n_hi);
        else
            snprintf(c[5], 64, "-");
        snprintf(c[6], 64, "%s", b->status == LS_ISOFIT_USED ? "" : ls_isofit_status_name(b->status));
        const char *cells[] = {c[0], c[1], c[2], c[3], c[4], with_ci ? c[5] : c[6], c[6]};
        if (text_table_add(t, cells) != 0) {
            text_table_free(t);
            t = NULL;
        }
    }
    if (!t) {
        out->failed = 1;
        return;
    }
    text_table_print(t, out, format == FMT_CSV ? TABLE_CSV : format == FMT_TSV ? TABLE_TSV
                             : format == FMT_MD                              ? TABLE_MD
                                                                             : TABLE_ALIGNED);
    text_table_free(t);
}

static void print_table(strbuf *out, const ls_sweep *s, const ls_isofit_options *o, const ls_isofit_result *r,
                        fmt_kind format)
{
    strbuf_printf(out, "method     %s", method_text(o->method));
    if (o->keep_factor > 1)
        strbuf_printf(out, ", runs within a factor %g of each optimum", o->keep_factor);
    strbuf_printf(out, "\nruns       %zu (%s)\n", s->n, cmd_input_name(s->name));
    if (o->noise_draws > 0)
        strbuf_printf(out, "noise      %zu copies, sd %g (each optimum the median of its copies')\n", o->noise_draws,
                      o->noise_sd);
    strbuf_printf(out, "budgets    %zu, %zu with an interior optimum\n", r->nbudgets, r->nused);
    strbuf_printf(out, "N_opt      %.4g F^%.4f", exp(r->ln_g), r->a);
    if (isfinite(r->r2))
        strbuf_printf(out, " (R^2 %.4f)", r->r2);
    strbuf_printf(out, "\nD_opt      %.4g F^%.4f\n", exp(r->ln_h), r->b);
    if (isfinite(r->a_ls_lo))
        strbuf_printf(out, "a          in [%.4f, %.4f] (%g%%, least squares over %zu budgets)\n", r->a_ls_lo,
                      r->a_ls_hi, 100 * o->level, r->nused);
    /* A draw whose resampled budgets leave fewer than two interior optima
     * gives no exponent: said, so the interval's count is not a mystery. */
    char dropped[96] = "";
    if (o->bootstrap > 0 && r->ndraws < o->bootstrap)
        snprintf(dropped, sizeof dropped, "; %zu had fewer than two budgets with an interior optimum",
                 o->bootstrap - r->ndraws);
    if (isfinite(r->a_lo) && o->noise_draws > 0)
        strbuf_printf(out, "a          in [%.4f, %.4f] (%g%% of %zu pairs of %zu noised copies)\n", r->a_lo, r->a_hi,
                      100 * o->level, r->ndraws, o->noise_draws);
    else if (isfinite(r->a_lo))
        strbuf_printf(out, "a          in [%.4f, %.4f] (%g%% of %zu draws%s)\n", r->a_lo, r->a_hi, 100 * o->level,
                      r->ndraws, dropped);
    strbuf_puts(out, "\n");
    print_budgets(out, r, format);
}

static int run(const ls_request *req, ls_result *res, ls_error *err)
{
    ls_isofit_options o;
    ls_isofit_default_options(&o);
    const char *method = req_text(req, O_METHOD);
    o.method = strcmp(method, "minimum") == 0 ? LS_ISOFIT_MINIMUM
               : strcmp(method, "akima") == 0 ? LS_ISOFIT_AKIMA
                                              : LS_ISOFIT_PARABOLA;
    if (req_given(req, O_KEEP))
        o.keep_factor = req_number(req, O_KEEP);
    o.min_runs = (size_t)req_integer(req, O_MIN_RUNS);
    o.bootstrap = (size_t)req_integer(req, O_BOOTSTRAP);
    o.noise_draws = (size_t)req_integer(req, O_NOISE_DRAWS);
    if (req_given(req, O_NOISE_SD))
        o.noise_sd = req_number(req, O_NOISE_SD);
    o.level = req_number(req, O_CI);
    o.seed = (unsigned long)req_number(req, O_SEED);
    if (req->noperands == 0)
        return req_usage(req, err, "give at least one SWEEP file");
    if (o.keep_factor > 0 && !(o.keep_factor > 1))
        return req_usage(req, err, "%s: '%s' must be a factor greater than 1", req_flag(req, O_KEEP),
                         req_text(req, O_KEEP));
    static const opt_id draws[] = {O_BOOTSTRAP, O_NOISE_DRAWS};
    for (size_t i = 0; i < 2; i++) {
        long n = req_integer(req, draws[i]);
        if (n > 0 && n < LS_FIT_MIN_INTERVAL_DRAWS)
            return req_usage(req, err, "%s: '%s' is too few draws for an interval: at least %d (or 0 for none)",
                             req_flag(req, draws[i]), req_text(req, draws[i]), LS_FIT_MIN_INTERVAL_DRAWS);
    }
    if (o.bootstrap > 0 && o.noise_draws > 0)
        return req_usage(req, err, "%s and %s: give one kind of draws, not both", req_flag(req, O_BOOTSTRAP),
                         req_flag(req, O_NOISE_DRAWS));
    if (o.noise_draws > 0 && !req_given(req, O_NOISE_SD))
        return req_usage(req, err, "%s needs %s SD (the losses' noise)", req_flag(req, O_NOISE_DRAWS),
                         req_flag(req, O_NOISE_SD));
    if (o.noise_draws == 0 && req_given(req, O_NOISE_SD))
        return req_usage(req, err, "%s has no effect without %s N", req_flag(req, O_NOISE_SD),
                         req_flag(req, O_NOISE_DRAWS));
    static const opt_id draws_only[] = {O_CI, O_SEED};
    for (size_t i = 0; i < 2; i++)
        if (req_given(req, draws_only[i]) && o.bootstrap == 0 && o.noise_draws == 0)
            return req_usage(req, err, "%s has no effect without %s N or %s N", req_flag(req, draws_only[i]),
                             req_flag(req, O_BOOTSTRAP), req_flag(req, O_NOISE_DRAWS));
    ls_figure figure;
    static const opt_id plots[] = {O_PLOT};
    const ls_figure *figures[] = {&figure};
    if (cmd_figure(req, O_PLOT, &figure, err) != 0 || cmd_figure_options_check(req, 1, plots, figures, err) != 0)
        return err->code;
    cmd_sweep cs;
    int status = cmd_sweep_setup(req, res, &cs, err);
    if (status != 0)
        return status;
    ls_sweep_options so = cs.options;
    so.require_loss = 1;
    so.flops_hint = "isofit counts budgets as F = 6 N_unroll D and takes no --flops-convention: to group by the "
                    "tokens alone, rename the flops column (--map flops_logged=flops)";
    ls_isofit_result r;
    memset(&r, 0, sizeof r);
    ls_sweep *s = ls_sweep_read((const char *const *)req->operands, req->noperands, &so, err);
    if (!s) {
        status = err->code;
        goto done;
    }
    cmd_sweep_report(req, res, &cs, s);
    o.group_tol = so.group_tol > 0 ? so.group_tol : -1.0;
    if ((status = ls_isofit_run(s, &o, &r, err)) != 0)
        goto done;
    for (size_t i = 0; i < r.warnings.n; i++)
        res_warn(res, r.warnings.v[i].code, r.warnings.v[i].subject, "%s", r.warnings.v[i].message);
    char *json = document(&o, &r, err);
    if (!json) {
        status = err->code;
        goto done;
    }
    res_set_json(res, json);
    fmt_kind format = req_format(req);
    strbuf out = {0};
    if (format == FMT_JSON)
        strbuf_puts(&out, json);
    else if (format == FMT_CSV || format == FMT_TSV)
        print_budgets(&out, &r, format);
    else
        print_table(&out, s, &o, &r, format);
    status = strbuf_failed(&out) ? res_oom(err) : res_write(res, out.buf, out.len);
    strbuf_free(&out);
    if (status == 0 && req_given(req, O_PLOT)) {
        size_t len = 0;
        unsigned char *bytes = cmd_plot_isofit(s, &o, &r, &figure, &len, err);
        status = bytes ? res_output(res, O_PLOT, req_text(req, O_PLOT), bytes, len, err) : err->code;
    }
done:
    ls_isofit_result_free(&r);
    ls_sweep_free(s);
    cmd_sweep_free(&cs);
    return status;
}

static const cmd_option OPTIONS[] = {
    CMD_OPT(O_METHOD),
    CMD_OPT(O_KEEP),
    CMD_OPT(O_MIN_RUNS),
    CMD_OPT_HELP(O_BOOTSTRAP, "resample each budget's runs N times for intervals: 0 (none) or at least 20"),
    CMD_OPT(O_NOISE_DRAWS),
    CMD_OPT(O_NOISE_SD),
    CMD_OPT_HELP(O_CI, "interval level of the draws"),
    CMD_OPT_HELP(O_SEED, "random seed of the draws"),
    CMD_OPT_HELP(O_FORMAT, "table, md, csv or tsv (one row per budget, every number exact) or json"),
    CMD_OPT_HELP(O_PLOT, "draw each budget's runs, curve and optimum against N_act, and N_opt, D_opt against F with "
                         "the fitted power laws (Chinchilla's figure 3)"),
    CMD_PLOT_OPTIONS,
    CMD_SWEEP_OPTIONS,
    CMD_OPT(O_QUIET),
    CMD_END,
};

const cmd_def CMD_ISOFIT = {
    .name = "isofit",
    .summary = "compute-optimal exponents from the IsoFLOP minima of runs",
    .usage = "[OPTIONS] SWEEP...",
    .description =
        "Compute-optimal exponents from IsoFLOP minima (Hoffmann et al. 2022, approaches 1 and 2; Porian et al. "
        "2024). The runs are grouped by training budget F = 6 N_unroll D (--group-tol); each budget's optimum is "
        "the vertex of a least-squares parabola of the loss in ln N_act (approach 2), its lowest-loss run "
        "(approach 1) or the minimum of Akima's interpolant of ln L in ln N_act (Porian et al.); then N_opt = G F^a "
        "by least squares in logs over the budgets whose optimum lies inside their sizes, and D_opt = F / (6 "
        "N_unroll) at N_opt (F / (6 N_opt) ~ F^(1-a) for a plain sweep). The runs must be of one architecture "
        "(one R and E; keep one with --where).\n\n"
        "Budgets are counted as F = 6 N_unroll D (the 6nd convention): a flops column counted with attention or "
        "the LM head disagrees with the tokens and is refused.",
    .operands = "SWEEP...",
    .min_operands = 1,
    .max_operands = (size_t)-1,
    .formats = "table|md|csv|tsv|json",
    .stdout_label = "the table",
    .options = OPTIONS,
    .run = run,
};
