/*
 * holdout — which law predicts runs it has not seen: every law fitted on
 * the runs below the largest value of an axis and scored on the runs at it
 * (docs/holdout.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands_internal.h"
#include "loopscale/diagnose.h"
#include "loopscale/holdout.h"
#include "numtext_internal.h"

static void cell_text(char *buf, size_t size, double x, int decimals)
{
    if (isnan(x))
        snprintf(buf, size, "-");
    else if (fabs(x) >= 1e6) /* an RMSE near 1e298 would not fit its cell */
        snprintf(buf, size, "%.*g", decimals + 1, x);
    else
        snprintf(buf, size, "%.*f", decimals, x);
}

/* Every number at full precision, an empty cell where there is none: for
 * programs (csv, tsv). */
static void exact_text(char *buf, size_t size, double x)
{
    char num[NUMTEXT_DOUBLE_MAX];
    snprintf(buf, size, "%s", isnan(x) ? "" : ls_numtext_format_double(num, x));
}

/* The table of laws by held-out axis: rounded and starred for people
 * (aligned, md), exact for programs (csv, tsv). */
static void print_table(strbuf *out, const ls_holdout_result *r, fmt_kind format)
{
    int exact = format == FMT_CSV || format == FMT_TSV;
    /* The columns to show: the axes that held something out. */
    size_t *shown = calloc(r->ncolumns + 1, sizeof *shown), nshown = 0;
    for (size_t c = 0; shown && c < r->ncolumns; c++)
        if (!r->columns[c].skipped)
            shown[nshown++] = c;
    size_t ncols = nshown + 5; /* law, k, in-sample, the axes, AIC, BIC */
    const char **headers = calloc(ncols, sizeof *headers);
    const char **row = calloc(ncols, sizeof *row);
    char(*cells)[48] = calloc(ncols, sizeof *cells);
    text_table *t = NULL;
    if (shown && headers && row && cells) {
        headers[0] = "law";
        headers[1] = "k";
        headers[2] = exact ? "in_sample" : "in-sample";
        for (size_t c = 0; c < nshown; c++)
            headers[3 + c] = r->columns[shown[c]].label;
        headers[ncols - 2] = exact ? "aic" : "AIC";
        headers[ncols - 1] = exact ? "bic" : "BIC";
        t = text_table_new(ncols, headers);
    }
    int unconverged = 0;
    for (size_t l = 0; t && l < r->nlaws; l++) {
        ls_law_kind_format(r->laws[l], cells[0], sizeof cells[0]);
        snprintf(cells[1], sizeof cells[1], "%zu", r->nfree[l]);
        if (exact)
            exact_text(cells[2], sizeof cells[2], r->in_sample_rmse[l]);
        else
            cell_text(cells[2], sizeof cells[2], r->in_sample_rmse[l], 4);
        if (!exact && !r->in_sample_converged[l]) {
            strcat(cells[2], "*");
            unconverged = 1;
        }
        for (size_t c = 0; c < nshown; c++) {
            const ls_holdout_cell *cell = &r->cells[l * r->ncolumns + shown[c]];
            if (exact)
                exact_text(cells[3 + c], sizeof cells[3 + c], cell->rmse);
            else
                cell_text(cells[3 + c], sizeof cells[3 + c], cell->rmse, 4);
            if (!exact && !isnan(cell->rmse) && !cell->converged) {
                strcat(cells[3 + c], "*");
                unconverged = 1;
            }
        }
        if (exact) {
            exact_text(cells[ncols - 2], sizeof cells[ncols - 2], r->aic[l]);
            exact_text(cells[ncols - 1], sizeof cells[ncols - 1], r->bic[l]);
        } else {
            cell_text(cells[ncols - 2], sizeof cells[ncols - 2], r->aic[l], 1);
            cell_text(cells[ncols - 1], sizeof cells[ncols - 1], r->bic[l], 1);
        }
        for (size_t j = 0; j < ncols; j++)
            row[j] = cells[j];
        if (text_table_add(t, row) != 0) {
            text_table_free(t);
            t = NULL;
        }
    }
    if (!t)
        out->failed = 1;
    else {
        text_table_print(t, out, format == FMT_CSV ? TABLE_CSV : format == FMT_TSV ? TABLE_TSV
                                 : format == FMT_MD                              ? TABLE_MD
                                                                                 : TABLE_ALIGNED);
        if (!exact) {
            strbuf_puts(out, "\nRMSE in loss units; the held-out columns fit on the other runs (train/test runs:");
            for (size_t c = 0; c < nshown; c++)
                strbuf_printf(out, "%s %s %zu/%zu", c ? "," : "", r->columns[shown[c]].label,
                              r->columns[shown[c]].ntrain, r->columns[shown[c]].ntest);
            strbuf_puts(out, ").\n");
            if (unconverged)
                strbuf_puts(out, "* the fit behind this number did not converge, or cannot tell its parameters "
                                 "apart.\n");
        }
    }
    text_table_free(t);
    free(shown);
    free(headers);
    free(row);
    free(cells);
}

static int run(const ls_request *req, ls_result *res, ls_error *err)
{
    size_t nsplit;
    const char *const *split = req_items(req, O_SPLIT, &nsplit);
    /* --split is checked before any input is read: against a sweep of no
     * rows, which checks each condition's form and quantity. */
    if (nsplit > 0) {
        ls_sweep none;
        memset(&none, 0, sizeof none);
        unsigned char unused = 0;
        if (ls_sweep_select(&none, split, nsplit, &unused, err) != 0)
            return ls_error_prefix(err, "%s", req_flag(req, O_SPLIT));
    }
    /* The fit's seed drives only the bootstrap, which holdout does not run. */
    if (req->noperands == 0)
        return req_usage(req, err, "give at least one SWEEP file");
    ls_figure figure;
    ls_arch_template tmpl;
    ls_law_flops flops;
    static const opt_id plots[] = {O_PLOT};
    const ls_figure *figures[] = {&figure};
    if (cmd_figure(req, O_PLOT, &figure, err) != 0 || cmd_sweep_flops(req, &tmpl, &flops, err) != 0 ||
        cmd_figure_options_check(req, 1, plots, figures, err) != 0)
        return err->code;
    cmd_sweep cs;
    int status = cmd_sweep_setup(req, res, &cs, err);
    if (status != 0)
        return status;
    ls_sweep_options so = cs.options;
    so.require_loss = 1;
    so.flops = &flops;
    ls_holdout_result result;
    memset(&result, 0, sizeof result);
    ls_law_kind *defaults = NULL;
    ls_sweep *s = ls_sweep_read((const char *const *)req->operands, req->noperands, &so, err);
    if (!s) {
        status = err->code;
        goto done;
    }
    cmd_sweep_report(req, res, &cs, s);
    size_t nlaws;
    const ls_law_kind *laws = req_laws(req, O_LAWS, &nlaws);
    if (!laws) {
        /* The paper's comparison on the sweep's base. */
        int left_out = 0;
        if (!(defaults = calloc(4, sizeof *defaults))) {
            status = res_oom(err);
            goto done;
        }
        nlaws = ls_holdout_default_laws(s, defaults, &left_out);
        laws = defaults;
        if (left_out)
            res_note(res, "every run is dense (m = 1), where bounded-sparse equals bounded; it is left out");
    }
    ls_fit_parameters params;
    if ((status = cmd_fit_parameters(req, res, laws, nlaws, &params, NULL, NULL, err)) != 0)
        goto done;
    ls_holdout_axis axes[4];
    size_t naxes = req_axes(req, O_AXES, axes);
    ls_holdout_spec spec = {laws, nlaws, axes, naxes, split, nsplit};
    if ((status = ls_holdout_run(s, &spec, &params, &result, err)) != 0)
        goto done;
    for (size_t c = 0; c < result.ncolumns; c++)
        if (result.columns[c].skipped)
            res_note(res, "%s: nothing to hold out (%s)", result.columns[c].label,
                     result.columns[c].ntest == 0 ? "no run matches" : "every run has this value");
    char *warnings = ls_holdout_diagnose(&result);
    if (!warnings) {
        status = res_oom(err);
        goto done;
    }
    for (char *line = warnings, *end; (end = strchr(line, '\n')); line = end + 1) {
        *end = '\0';
        res_warn(res, LS_WARNING_FIT_QUALITY, "", "%s", line);
    }
    free(warnings);
    char *json = ls_holdout_result_to_json(&result, err);
    if (!json) {
        status = err->code;
        goto done;
    }
    res_set_json(res, json);
    fmt_kind format = req_format(req);
    if (format == FMT_JSON)
        res_printf(res, "%s", json);
    else {
        strbuf out = {0};
        print_table(&out, &result, format);
        status = strbuf_failed(&out) ? res_oom(err) : res_write(res, out.buf, out.len);
        strbuf_free(&out);
    }
    if (status == 0 && req_given(req, O_PLOT)) {
        size_t len = 0;
        unsigned char *bytes = ls_plot_holdout(s, &result, &figure, &len, err);
        status = bytes ? res_output(res, O_PLOT, req_text(req, O_PLOT), bytes, len, err) : err->code;
        if (status == 0)
            cmd_note_runs_drawn(req, res, s->n, "each law's prediction");
    }
done:
    ls_holdout_result_free(&result);
    ls_sweep_free(s);
    free(defaults);
    cmd_sweep_free(&cs);
    return status;
}

static const cmd_option OPTIONS[] = {
    {O_LAWS, "laws to compare, comma-separated", NULL,
     "the paper's four mappings linear, power, bounded, bounded-sparse on the sweep's base, moe when some run has "
     "E > 1; bounded-sparse is skipped on a sweep where every run is dense, since it equals bounded there",
     NULL},
    CMD_OPT(O_AXES),
    CMD_OPT(O_SPLIT),
    CMD_OPT_HELP(O_FORMAT, "md (a markdown table), table (aligned), csv, tsv (every number exact) or json"),
    CMD_OPT_HELP(O_PLOT, "draw each law's predictions of the held-out runs against their observed loss"),
    CMD_OPT_HELP(O_FLOPS_CONVENTION, "how a flops column was counted (docs/flops.md); attn needs the template's "
                                     "context, head its vocab"),
    {O_TEMPLATE, "architecture template (JSON) giving the context, vocab and layers that --flops-convention counts "
                 "a flops column with",
     NULL, "", NULL},
    {O_LOSS, NULL, NULL, NULL, "Fitting (as for 'loopscale fit'):"},
    CMD_OPT(O_HUBER_DELTA),
    CMD_OPT(O_SPACE),
    CMD_OPT(O_GRID),
    CMD_OPT(O_STARTS),
    CMD_OPT(O_THREADS),
    CMD_OPT_HELP(O_FIX, "hold a parameter at VALUE in every law that has it (repeatable)"),
    CMD_OPT_HELP(O_TIE, "fit NAME equal to LEADER in every law (repeatable), e.g. --tie beta=alpha"),
    CMD_SWEEP_OPTIONS,
    CMD_PLOT_OPTIONS,
    CMD_OPT(O_QUIET),
    CMD_END,
};

const cmd_def CMD_HOLDOUT = {
    .name = "holdout",
    .summary = "compare laws on held-out runs along R, N, D and E: RMSE, AIC, BIC",
    .usage = "[OPTIONS] SWEEP...",
    .description =
        "Compare laws on runs they have not seen. For each axis X (R, N, D, E) every law is fitted on the runs "
        "with X below its largest value and predicts the runs at the largest value (the paper fits R <= 8 and "
        "predicts R = 16). Reports the held-out RMSE in loss units per law and axis, the in-sample RMSE, and the "
        "AIC and BIC of the in-sample fit (Gaussian on the fit's residuals, k free parameters).",
    .operands = "SWEEP...",
    .min_operands = 1,
    .max_operands = (size_t)-1,
    .formats = "md|table|csv|tsv|json",
    .stdout_label = "the table",
    .options = OPTIONS,
    .run = run,
};
