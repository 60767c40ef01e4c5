/*
 * report — one self-contained HTML page on a sweep: the fit, the held-out
 * comparison, the answers for each budget and every figure (docs/report.md).
 * It answers the budgets with solve's candidates, epsilon and options, so a
 * report and `loopscale solve` given the same options agree.
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "commands/commands_internal.h"
#include "loopscale/diagnose.h"
#include "loopscale/holdout.h"
#include "loopscale/report.h"

/* The page is HTML: a name that says otherwise is refused before any work,
 * as a plot's is; standard output, a pipe or a device has no name to check. */
static int check_output_name(const ls_request *req, const char *path, ls_error *err)
{
    size_t n = strlen(path);
    if ((n > 5 && strcasecmp(path + n - 5, ".html") == 0) || (n > 4 && strcasecmp(path + n - 4, ".htm") == 0))
        return 0;
    struct stat st;
    if (strcmp(path, "-") == 0 || (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)))
        return 0;
    return ls_error_set(err, LS_ERR_USAGE, "%s: '%s': the report is HTML; the file name must end in .html or .htm",
                        req_flag(req, O_OUTPUT), path);
}

/* The laws compared, the reported one first: --laws as given, or the
 * reported law (--law, or the last of holdout's default comparison) and
 * holdout's default mappings on its base.  *laws is malloc'd. */
static int choose_laws(const ls_request *req, ls_result *res, const ls_sweep *s, ls_law_kind **laws, size_t *n,
                       ls_error *err)
{
    size_t ngiven;
    const ls_law_kind *given = req_laws(req, O_LAWS, &ngiven);
    ls_law_kind defaults[4];
    int left_out = 0;
    size_t nd = given ? ngiven : ls_holdout_default_laws(s, defaults, &left_out);
    ls_law_kind *v = calloc(nd + 1, sizeof *v);
    if (!v)
        return res_oom(err);
    *laws = v;
    if (given) {
        memcpy(v, given, ngiven * sizeof *v);
        *n = ngiven;
        return 0;
    }
    ls_law_kind reported = req_given(req, O_LAW_KIND) ? req_law(req, O_LAW_KIND) : defaults[nd - 1];
    int loops = 0;
    for (size_t i = 0; i < s->n; i++)
        loops |= s->rows[i].R > 1;
    *n = 0;
    if (!loops) {
        /* Without a looped run every mapping is N_eff = N_act: the law is
         * the base alone, and a comparison of mappings would compare one law
         * with itself. */
        if (!req_given(req, O_LAW_KIND))
            reported.mapping = LS_LAW_MAPPING_NONE;
        v[(*n)++] = reported;
        char kind[64];
        ls_law_kind_format(reported, kind, sizeof kind);
        res_note(res, "no run has R > 1, where every loop mapping reduces to N_eff = N_act: the report is of %s, and "
                      "the loop mappings are not compared", kind);
        return 0;
    }
    v[(*n)++] = reported;
    for (size_t i = 0; i < nd; i++)
        if (defaults[i].mapping != reported.mapping)
            v[(*n)++] = (ls_law_kind){reported.base, defaults[i].mapping};
    if (left_out)
        res_note(res, "every run is dense (m = 1), where bounded-sparse equals bounded; it is left out");
    return 0;
}

static int run(const ls_request *req, ls_result *res, ls_error *err)
{
    /* Options that would change nothing are refused, not ignored. */
    if (req_given(req, O_SEED) && !req_integer(req, O_BOOTSTRAP))
        return req_usage(req, err, "%s has no effect without %s N", req_flag(req, O_SEED), req_flag(req, O_BOOTSTRAP));
    if (req_integer(req, O_BOOTSTRAP) > 0 && req_integer(req, O_BOOTSTRAP) < LS_FIT_MIN_INTERVAL_DRAWS)
        return req_usage(req, err, "%s: '%s' is too few draws for an interval: at least %d (or 0 for none)",
                         req_flag(req, O_BOOTSTRAP), req_text(req, O_BOOTSTRAP), LS_FIT_MIN_INTERVAL_DRAWS);
    if (req->noperands == 0)
        return req_usage(req, err, "give at least one SWEEP file");
    const char *output = req_text(req, O_OUTPUT);
    if (!output)
        return req_usage(req, err, "give the page's file name with %s REPORT.html", req_flag(req, O_OUTPUT));
    if (req_given(req, O_LAW_KIND) && req_given(req, O_LAWS))
        return req_usage(req, err, "%s and %s: give one (%s puts the reported law first)", req_flag(req, O_LAW_KIND),
                         req_flag(req, O_LAWS), req_flag(req, O_LAWS));
    /* Solve's options mean nothing without budgets to solve for. */
    static const opt_id solve_only[] = {O_MEM,     O_BITS,  O_R_LIST,  O_E_LIST,           O_EPS,
                                        O_SERVE_CONTEXT,  O_BATCH, O_KV_BITS, O_ACTIVATION_MEMORY, O_INFERENCE_TOKENS,
                                        O_QUANTISATION};
    for (size_t i = 0; i < sizeof solve_only / sizeof *solve_only; i++)
        if (req_given(req, solve_only[i]) && !req_given(req, O_FLOPS_LIST))
            return req_usage(req, err, "%s needs %s: the budgets to solve for", req_flag(req, solve_only[i]),
                             req_flag(req, O_FLOPS_LIST));
    if (check_output_name(req, output, err) != 0 || cmd_serving_check(req, err) != 0)
        return err->code;
    ls_figure figure;
    if (cmd_figure(req, O_PLOT, &figure, err) != 0) /* the options alone: report takes no --plot */
        return err->code;
    figure.format = LS_FIGURE_SVG;
    ls_arch_template tmpl;
    ls_law_flops flops;
    if (cmd_sweep_flops(req, &tmpl, &flops, err) != 0)
        return err->code;
    cmd_sweep cs;
    int status = cmd_sweep_setup(req, res, &cs, err);
    if (status != 0)
        return status;
    ls_sweep_options so = cs.options;
    so.require_loss = 1;
    so.checksum = 1; /* the page records what was fitted */
    so.flops = &flops;
    so.factors = 1; /* the verdict tells runs of several experiments apart */
    ls_fit_result fit;
    ls_fit_bootstrap boot;
    ls_holdout_result holdout;
    memset(&fit, 0, sizeof fit);
    memset(&boot, 0, sizeof boot);
    memset(&holdout, 0, sizeof holdout);
    ls_report_figures figures;
    memset(&figures, 0, sizeof figures);
    ls_lawfile *lf = NULL;
    ls_law_kind *laws = NULL;
    size_t nlaws = 0, nflops = 0;
    ls_solve_budget *budgets = NULL;
    ls_solve_result *solves = NULL;
    const double *flops_list = req_list(req, O_FLOPS_LIST, &nflops);
    ls_sweep *s = ls_sweep_read((const char *const *)req->operands, req->noperands, &so, err);
    if (!s) {
        status = err->code;
        goto done;
    }
    cmd_sweep_report(req, res, &cs, s);
    ls_fit_parameters params;
    if ((status = choose_laws(req, res, s, &laws, &nlaws, err)) != 0 ||
        (status = cmd_fit_parameters(req, res, laws, nlaws, &params, NULL, NULL, err)) != 0)
        goto done;
    /* The columns the reported law does not read are named, as fit names them. */
    ls_warnings columns = {0};
    if (ls_sweep_column_warnings(s, laws[0], &columns) != 0) {
        status = res_oom(err);
        goto done;
    }
    cmd_column_warnings(res, &columns);

    /* The fit, as `fit` makes it and judges it. */
    if ((status = ls_fit_run(s, laws[0], &params, &fit, err)) != 0)
        goto done;
    char not_written[PATH_MAX + 64];
    cmd_not_written(not_written, sizeof not_written, "no report written", output);
    if (ls_fit_usable(s, laws[0], &params, &fit, err) != 0) {
        status = err->code;
        char why[LS_ERROR_MESSAGE_MAX];
        snprintf(why, sizeof why, "%s", err->message);
        ls_error_set(err, status, "%s; %s", why, not_written);
        goto done;
    }
    size_t ndraws = (size_t)req_integer(req, O_BOOTSTRAP);
    if (ndraws > 0 && (status = ls_fit_run_bootstrap(s, &fit, &params, ndraws, 2, 0, 0.95, &boot, err)) != 0)
        goto done;
    if (ndraws > 0 && boot.ndraws < LS_FIT_MIN_INTERVAL_DRAWS)
        res_warn(res, LS_WARNING_UNDETERMINED, "", "only %zu of %zu bootstrap draws converged inside the law's "
                 "domain, too few for intervals (at least %d): none given", boot.ndraws, ndraws,
                 LS_FIT_MIN_INTERVAL_DRAWS);
    ls_lawfile_provenance prov = {(const char *const *)req->operands, req->noperands, cs.maps, cs.nmaps, cs.wheres,
                                  cs.nwheres, NULL, req->invocation ? req->invocation : "loopscale report", cs.given,
                                  cs.ngiven, &flops, req_given(req, O_TEMPLATE) ? &tmpl : cs.config_template};
    if (!(lf = ls_lawfile_from_fit(&fit, &params, &boot, s, &prov, err))) {
        status = err->code;
        goto done;
    }
    /* The verdict on the fit, as fit says it (the law file carries it too). */
    for (size_t i = 0; i < lf->warnings.n; i++)
        res_warn(res, lf->warnings.v[i].code, lf->warnings.v[i].subject, "%s", lf->warnings.v[i].message);

    /* The comparison, as `holdout` makes it. */
    ls_holdout_axis axes[4];
    size_t naxes = req_axes(req, O_AXES, axes);
    ls_holdout_spec spec = {laws, nlaws, axes, naxes, NULL, 0};
    if ((status = ls_holdout_run(s, &spec, &params, &holdout, err)) != 0)
        goto done;
    for (size_t c = 0; c < holdout.ncolumns; c++)
        if (holdout.columns[c].skipped)
            res_note(res, "%s: nothing to hold out (%s)", holdout.columns[c].label,
                     holdout.columns[c].ntest == 0 ? "no run matches" : "every run has this value");
        else if (holdout.columns[c].ntest < LS_REPORT_FEW_HELD_OUT)
            res_warn(res, LS_WARNING_FIT_QUALITY, holdout.columns[c].label, "%s holds out %zu run%s: its RMSE is %s, "
                     "not a comparison of laws", holdout.columns[c].label, holdout.columns[c].ntest,
                     holdout.columns[c].ntest == 1 ? "" : "s",
                     holdout.columns[c].ntest == 1 ? "one residual" : "a few residuals");

    /* The budgets, as `solve` answers them: its candidates, its epsilon. */
    ls_law_ranges ranges;
    ls_lawfile_ranges(lf, &ranges);
    cmd_candidates room;
    cmd_quant quant;
    ls_solve_options sopt = {.ranges = &ranges};
    if (nflops > 0) {
        cmd_template_for_law(req, res, lf, "the fitted law", &tmpl);
        if ((status = cmd_template_flops(req, lf, &tmpl, err)) != 0)
            goto done;
        cmd_candidates_of(req, res, &tmpl, &room, &sopt);
        sopt.eps = cmd_eps(req, res, lf);
        ls_solve_budget deploy = cmd_budget(req);
        if ((status = cmd_serving(req, res, lf, &tmpl, &deploy, &sopt, &quant, err)) != 0)
            goto done;
        budgets = calloc(nflops, sizeof *budgets);
        solves = calloc(nflops, sizeof *solves);
        if (!budgets || !solves) {
            status = res_oom(err);
            goto done;
        }
    }
    for (size_t b = 0; b < nflops; b++) {
        budgets[b] = cmd_budget(req);
        budgets[b].flops = flops_list[b];
        if ((status = ls_solve_run(&lf->law, &tmpl, &budgets[b], &sopt, &solves[b], err)) != 0)
            goto done;
        if (!solves[b].has_choice)
            res_warn(res, LS_WARNING_SEARCH_EDGE, "", "no candidate fits a budget of %g FLOPs%s", flops_list[b],
                     isfinite(budgets[b].mem_bytes) ? " in the memory given" : "");
        else {
            char context[64];
            snprintf(context, sizeof context, "budget %g FLOPs", flops_list[b]);
            cmd_warn_solve(req, res, &sopt, &solves[b], context);
        }
    }
    ls_report_input in = {s,         (const char *const *)req->operands, req->noperands, &fit, lf, &holdout, &tmpl,
                          &sopt,     budgets,                            solves,         nflops, &figure, 8, &figures};
    if ((status = ls_report_figures_run(&in, req_threads(req), &figures, err)) != 0)
        goto done;
    char *page = ls_report_html(&in, err);
    if (!page) {
        status = err->code;
        goto done;
    }
    status = res_output(res, O_OUTPUT, output, (unsigned char *)page, strlen(page), err);
done:
    ls_report_figures_free(&figures);
    for (size_t b = 0; solves && b < nflops; b++)
        ls_solve_result_free(&solves[b]);
    free(solves);
    free(budgets);
    free(laws);
    ls_holdout_result_free(&holdout);
    ls_lawfile_free(lf);
    ls_fit_bootstrap_free(&boot);
    ls_sweep_free(s);
    cmd_sweep_free(&cs);
    return status;
}

static const cmd_option OPTIONS[] = {
    CMD_OPT_HELP(O_OUTPUT, "the page (.html or .htm; '-' for standard output); required"),
    {O_LAW_KIND, "the law fitted, reported and solved with; it is compared with the linear, power, bounded and "
                 "bounded-sparse mappings on its base",
     NULL, "the paper's bounded-sparse mapping on the sweep's base, bounded on a sweep of dense runs", NULL},
    CMD_OPT_HELP(O_LAWS, "instead, the laws compared, comma-separated; the first is fitted, reported and solved with"),
    CMD_OPT(O_AXES),
    CMD_OPT_HELP(O_BOOTSTRAP, "refit N resamples of the runs for intervals and figure bands: 0 (none) or at least 20"),
    {O_FLOPS_LIST, "compute budgets to solve for, as 'loopscale solve' would, with its options below", NULL,
     "none, no budget section", "The budgets (as for 'loopscale solve'):"},
    CMD_OPT(O_MEM),
    CMD_OPT(O_BITS),
    CMD_SERVING_OPTIONS,
    {O_R_LIST, NULL, NULL, "1,2,...,16, up to the largest R the law was fitted on", NULL},
    {O_E_LIST, NULL, NULL, "1,2,4,8,16,32,64, up to the largest E the law was fitted on", NULL},
    CMD_OPT(O_EPS),
    CMD_OPT_HELP(O_FLOPS_CONVENTION, "how a flops column was counted and the budgets are spent (docs/flops.md); attn "
                                     "needs the template's context, head its vocab"),
    {O_TEMPLATE, "architecture template (JSON) giving the context, vocab and layers that --flops-convention counts "
                 "a flops column with, and the budgets are spent with",
     NULL, "the paper's middle-cycle looping", NULL},
    {O_LOSS, NULL, NULL, NULL, "Fitting (as for 'loopscale fit'):"},
    CMD_OPT(O_HUBER_DELTA),
    CMD_OPT(O_SPACE),
    CMD_OPT(O_GRID),
    CMD_OPT(O_STARTS),
    CMD_OPT_HELP(O_SEED, "bootstrap random seed"),
    CMD_OPT(O_THREADS),
    CMD_SWEEP_OPTIONS,
    {O_PLOT_SIZE, NULL, NULL, NULL, "The figures (SVG, inline):"},
    CMD_OPT(O_PLOT_FONT_SIZE),
    CMD_OPT(O_PLOT_TITLE),
    CMD_OPT(O_PLOT_NO_TITLE),
    CMD_OPT(O_PLOT_STYLE),
    CMD_OPT(O_PLOT_CAPTION),
    CMD_OPT(O_QUIET),
    CMD_END,
};

const cmd_def CMD_REPORT = {
    .name = "report",
    .summary = "one self-contained HTML page on a sweep: fits, held-out, budgets",
    .usage = "[OPTIONS] SWEEP... -o REPORT.html",
    .description =
        "Write one self-contained HTML page on a sweep (CSV or JSON Lines, plain or gzip; '-' for standard input): "
        "the fit of a law (parameters, standard errors, bootstrap intervals, the largest residuals, the verdict), "
        "how well each law predicts held-out runs (as 'loopscale holdout'), the configuration each compute budget "
        "should buy (as 'loopscale solve', with the same candidates and epsilon), and their figures, inline. The "
        "page loads nothing from the network; send it as it is.",
    .operands = "SWEEP...",
    .min_operands = 1,
    .max_operands = (size_t)-1,
    .formats = NULL,
    .epilogue = "Exit status 3 when the fit of the reported law yields no law: its best start did not converge, or "
                "its runs cannot determine its parameters (a singular Jacobian, data that cannot tell them apart, a "
                "best fit outside the law's domain); nothing is written.",
    .options = OPTIONS,
    .run = run,
};
