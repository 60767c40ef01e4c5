/*
 * simulate — draw a synthetic sweep from a known law (data/README.md).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands_internal.h"
#include "simulate_internal.h"

/* The most runs a sweep may have: ten million rows are about a gigabyte of
 * CSV, which -o holds until it is written. */
#define SIMULATE_MAX_ROWS 10000000

/* Standard output: each piece through the front end's writer, or kept in
 * the result. */
static int to_stdout(void *context, const char *data, size_t len, ls_error *err)
{
    errno = 0;
    int status = res_write(context, data, len);
    if (status == LS_ERR_IO) /* the writer's own errno says why */
        ls_error_set(err, status, "write error on standard output%s%s", errno ? ": " : "",
                     errno ? strerror(errno) : "");
    else if (status != 0)
        res_oom(err);
    return status;
}

/* -o FILE: the whole text, handed over when it is complete. */
static int to_buffer(void *context, const char *data, size_t len, ls_error *err)
{
    strbuf_append(context, data, len);
    return strbuf_failed(context) ? res_oom(err) : 0;
}

static int run(const ls_request *req, ls_result *res, ls_error *err)
{
    if (!req_given(req, O_LAW_FILE))
        return req_usage(req, err, "give the truth with %s FILE", req_flag(req, O_LAW_FILE));
    if (!req_given(req, O_N_ACT_LIST) || !req_given(req, O_TOKENS_LIST))
        return req_usage(req, err, "give %s and %s", req_flag(req, O_N_ACT_LIST), req_flag(req, O_TOKENS_LIST));
    ls_simulate_options so = {req_number(req, O_NOISE), (unsigned long)req_integer(req, O_SEED)};
    if (req_given(req, O_SEED) && !(so.noise_sigma > 0))
        return req_usage(req, err, "%s has no effect without %s SIGMA (above 0)", req_flag(req, O_SEED),
                         req_flag(req, O_NOISE));
    ls_simulate_grid grid;
    grid.n_act = req_list(req, O_N_ACT_LIST, &grid.n_n_act);
    grid.tokens = req_list(req, O_TOKENS_LIST, &grid.n_tokens);
    grid.E = req_list(req, O_E_LIST, &grid.n_E);
    grid.R = req_list(req, O_R_LIST, &grid.n_R);
    /* Every combination is a run: the size is known before any work. */
    double rows = (double)grid.n_n_act * (double)grid.n_tokens * (double)grid.n_E * (double)grid.n_R;
    if (rows > SIMULATE_MAX_ROWS)
        return req_usage(req, err, "%s, %s, %s and %s make %.0f runs; a sweep has at most %d",
                         req_flag(req, O_N_ACT_LIST), req_flag(req, O_TOKENS_LIST), req_flag(req, O_E_LIST),
                         req_flag(req, O_R_LIST), rows, SIMULATE_MAX_ROWS);
    ls_arch_template tmpl;
    if (cmd_template_read(req, &tmpl, err) != 0)
        return err->code;
    ls_lawfile *lf = cmd_read_law(req, res, O_LAW_FILE, err);
    if (!lf)
        return err->code;
    /* A truth fitted on runs draws through their architecture; a law
     * written by hand (data/truth) through the template, the default's
     * documented here. */
    if (lf->has_architecture)
        cmd_template_for_law(req, res, lf, cmd_law_name(req, O_LAW_FILE), &tmpl);
    int status = 0;
    double top_k_e = tmpl.top_k;
    if (status == 0 && !req_given(req, O_E_LIST) && tmpl.top_k > 1) { /* the default E = 1 cannot route to top_k */
        grid.E = &top_k_e;
        res_note(res, "the template routes to top_k = %d experts: the default %s is %d", tmpl.top_k,
                 req_flag(req, O_E_LIST), tmpl.top_k);
    }
    if (status == 0)
        status = ls_simulate_check(&tmpl, &grid, err);
    if (status == 0)
        status = cmd_template_flops(req, lf, &tmpl, err);
    /* A law fitted on runs vouches for its losses inside their ranges only:
     * each list that reaches beyond them is said (the budgets F follow). */
    ls_law_ranges ranges;
    ls_lawfile_ranges(lf, &ranges);
    const double *lists[] = {grid.n_act, grid.tokens, grid.R, grid.E};
    const size_t counts[] = {grid.n_n_act, grid.n_tokens, grid.n_R, grid.n_E};
    static const ls_law_range axes[] = {LS_LAW_RANGE_N_ACT, LS_LAW_RANGE_TOKENS, LS_LAW_RANGE_R, LS_LAW_RANGE_E};
    char beyond[512] = "";
    for (size_t a = 0, used = 0; status == 0 && a < 4; a++) {
        ls_law_range q = axes[a];
        double lo = INFINITY, hi = -INFINITY;
        for (size_t i = 0; i < counts[a]; i++)
            lo = fmin(lo, lists[a][i]), hi = fmax(hi, lists[a][i]);
        if (!ranges.known[q] || (lo >= ranges.lo[q] * (1 - 1e-9) && hi <= ranges.hi[q] * (1 + 1e-9)))
            continue;
        char span[64];
        snprintf(span, sizeof span, lo == hi ? " = %.4g" : " %.4g to %.4g", lo, hi);
        int n = snprintf(beyond + used, sizeof beyond - used, "%s%s%s (fitted %.4g to %.4g)", used ? ", " : "",
                         ls_law_range_name(q), span, ranges.lo[q], ranges.hi[q]);
        if (n > 0 && (size_t)n < sizeof beyond - used)
            used += (size_t)n;
    }
    if (beyond[0])
        res_warn(res, LS_WARNING_EXTRAPOLATION, "grid", "the runs reach beyond the ranges the law was fitted on: %s; "
                 "their losses there are the law's extrapolation", beyond);
    const char *path = req_text(req, O_OUTPUT);
    if (status == 0 && (!path || strcmp(path, "-") == 0))
        status = ls_simulate_emit(&lf->law, &tmpl, &grid, &so, to_stdout, res, err);
    else if (status == 0) {
        strbuf text = {0};
        status = ls_simulate_emit(&lf->law, &tmpl, &grid, &so, to_buffer, &text, err);
        size_t len = text.len;
        char *bytes = strbuf_take(&text);
        if (status == 0 && !bytes)
            status = res_oom(err);
        if (status == 0) /* compressed at commit when the name ends in .gz */
            status = res_output(res, O_OUTPUT, path, (unsigned char *)bytes, len, err);
        else
            free(bytes);
    }
    ls_lawfile_free(lf);
    return status;
}

static const cmd_option OPTIONS[] = {
    {O_LAW_FILE, "the truth: a law file (required)", NULL, "", NULL},
    CMD_OPT_HELP(O_N_ACT_LIST, "active parameters, comma-separated (e.g. 3e8,6e8,1e9)"),
    CMD_OPT_HELP(O_TOKENS_LIST, "training tokens, comma-separated"),
    {O_E_LIST, "experts", "1", NULL, NULL},
    {O_R_LIST, "loop counts", "1", NULL, NULL},
    CMD_OPT(O_TEMPLATE),
    CMD_OPT_HELP(O_FLOPS_CONVENTION, "how the flops column counts training FLOPs (docs/flops.md); attn needs the "
                                     "template's context, head its vocab"),
    {O_NOISE, "log-normal noise on the loss: loss = L_truth exp(SIGMA z)", "0", NULL, NULL},
    CMD_OPT_HELP(O_SEED, "random seed of the noise"),
    {O_OUTPUT, "the sweep: CSV, gzip when FILE ends in .gz (in any case)", NULL, "standard output", NULL},
    CMD_OPT(O_FORCE),
    CMD_OPT(O_QUIET),
    CMD_END,
};

const cmd_def CMD_SIMULATE = {
    .name = "simulate",
    .summary = "draw a synthetic sweep from a law, with noise, through a template",
    .usage = "--law FILE --n-act LIST --tokens LIST [OPTIONS]",
    .description =
        "Draw a sweep from a law (the truth): one run for every combination of N_act, tokens, E\n"
        "and R, mapped through the architecture template to N_total and N_loop, with loss =\n"
        "L_truth * exp(SIGMA z), z standard normal.  Writes CSV (gzip when FILE ends in .gz, in any\n"
        "case), at most 10,000,000 runs.\n"
        "\n"
        "Columns: n_act,n_total,n_loop,R,E,k,tokens,flops,loss.",
    .operands = NULL,
    .min_operands = 0,
    .max_operands = 0,
    .formats = NULL,
    /* The sweep is all it prints, on standard output only without -o (or
     * with -o -), so the guard sees it through -o. */
    .stdout_label = NULL,
    .streams = 1,
    .options = OPTIONS,
    .run = run,
};
