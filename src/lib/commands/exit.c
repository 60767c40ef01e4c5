/*
 * exit — entropy-threshold early exit at loop boundaries: FLOPs saved
 * against perplexity, and the Pareto front (Sparse Layers are Critical to
 * Scaling Looped Language Models).  The tokens are streamed by
 * ls_earlyexit_read into a fixed grid of thresholds; only the sweep is kept.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands_internal.h"
#include "loopscale/earlyexit.h"
#include "numtext_internal.h"

#define EXIT_FORMAT "loopscale-exit/1"

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The costs: --prelude, --loop and --coda, or those of the --shape file,
 * whose loop count must be the data's. */
static int costs_of(const ls_request *req, size_t loops, ls_earlyexit_costs *costs, ls_error *err)
{
    if (!req_given(req, O_SHAPE)) {
        *costs = (ls_earlyexit_costs){req_number(req, O_PRELUDE), req_number(req, O_LOOP), req_number(req, O_CODA)};
        return 0;
    }
    ls_shape_spec s;
    ls_shape_counts c;
    if (cmd_shape_of(req, &s, &c, err) != 0)
        return err->code;
    if ((size_t)s.loops != loops)
        return ls_error_set(err, LS_ERR_DATA, "%s: the shape runs %ld loops, but the data has %zu loop boundaries per "
                            "token", req_text(req, O_SHAPE), s.loops, loops);
    *costs = (ls_earlyexit_costs){(double)c.flops_prelude, (double)c.flops_loop, (double)c.flops_coda};
    return 0;
}

/* Indices of the points the table shows: the first, the last, and the first
 * point at or past each of rows - 2 savings evenly spread between them. */
static size_t pick_rows(const ls_earlyexit_report *r, size_t rows, size_t *pick)
{
    size_t n = 0, last = r->npoints - 1;
    if (r->npoints <= rows) {
        for (size_t i = 0; i < r->npoints; i++)
            pick[n++] = i;
        return n;
    }
    double top = r->points[last].saved;
    pick[n++] = 0;
    size_t i = 0;
    for (size_t j = 1; j + 1 < rows; j++) {
        double target = top * (double)j / (double)(rows - 1);
        while (i < last && r->points[i].saved < target)
            i++;
        if (i > pick[n - 1] && i < last)
            pick[n++] = i;
    }
    pick[n++] = last;
    return n;
}

static const char *const SWEEP_COLUMNS[] = {"threshold", "saved", "mean_loops", "mean_nll", "perplexity", "pareto"};

/* Every threshold of the sweep, numbers to the last digit. */
static void print_sweep(strbuf *out, const ls_earlyexit_report *r, table_style style)
{
    text_table *t = text_table_new(6, SWEEP_COLUMNS);
    char c[5][NUMTEXT_DOUBLE_MAX];
    for (size_t i = 0; t && i < r->npoints; i++) {
        const ls_earlyexit_point *p = &r->points[i];
        const char *row[6] = {ls_numtext_format_double(c[0], p->threshold), ls_numtext_format_double(c[1], p->saved),
                              ls_numtext_format_double(c[2], p->mean_loops),
                              ls_numtext_format_double(c[3], p->mean_nll),
                              ls_numtext_format_double(c[4], exp(p->mean_nll)), p->pareto ? "1" : "0"};
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
}

static void write_json(jsonw *w, const ls_earlyexit_report *r, const char *input)
{
    ls_jsonw_object_begin(w, NULL);
    ls_jsonw_string(w, "format", EXIT_FORMAT);
    ls_jsonw_string(w, "input", input);
    ls_jsonw_integer(w, "tokens", (long long)r->tokens);
    ls_jsonw_integer(w, "loops", (long long)r->loops);
    ls_jsonw_object_begin(w, "costs");
    ls_jsonw_number(w, "prelude", r->costs.prelude);
    ls_jsonw_number(w, "loop", r->costs.loop);
    ls_jsonw_number(w, "coda", r->costs.coda);
    ls_jsonw_number(w, "all_loops", r->full_cost);
    ls_jsonw_object_end(w);
    ls_jsonw_object_begin(w, "every_loop");
    ls_jsonw_number(w, "mean_nll", r->full_nll);
    ls_jsonw_number(w, "perplexity", exp(r->full_nll));
    ls_jsonw_object_end(w);
    ls_jsonw_object_begin(w, "every_token_at_loop_1");
    ls_jsonw_number(w, "saved", r->loop1_saved);
    ls_jsonw_number(w, "mean_nll", r->loop1_nll);
    ls_jsonw_number(w, "perplexity", exp(r->loop1_nll));
    ls_jsonw_object_end(w);
    ls_jsonw_array_begin(w, "at_saved", 0);
    for (size_t i = 0; i < r->ntargets; i++) {
        ls_jsonw_object_begin(w, NULL);
        ls_jsonw_number(w, "saved", r->targets[i].saved);
        int reachable = !isnan(r->targets[i].perplexity);
        ls_jsonw_bool(w, "reachable", reachable);
        if (reachable)
            ls_jsonw_number(w, "perplexity", r->targets[i].perplexity);
        ls_jsonw_object_end(w);
    }
    ls_jsonw_array_end(w);
    ls_jsonw_array_begin(w, "columns", 1);
    for (size_t j = 0; j < 6; j++)
        ls_jsonw_string(w, NULL, SWEEP_COLUMNS[j]);
    ls_jsonw_array_end(w);
    ls_jsonw_array_begin(w, "sweep", 0);
    for (size_t i = 0; i < r->npoints; i++) {
        const ls_earlyexit_point *p = &r->points[i];
        ls_jsonw_array_begin(w, NULL, 1);
        ls_jsonw_number(w, NULL, p->threshold);
        ls_jsonw_number(w, NULL, p->saved);
        ls_jsonw_number(w, NULL, p->mean_loops);
        ls_jsonw_number(w, NULL, p->mean_nll);
        ls_jsonw_number(w, NULL, exp(p->mean_nll));
        ls_jsonw_integer(w, NULL, p->pareto);
        ls_jsonw_array_end(w);
    }
    ls_jsonw_array_end(w);
    ls_jsonw_object_end(w);
}

/* For people: what was read, the two extremes, the perplexity at the
 * savings asked for and `rows` thresholds of the sweep (aligned or in
 * markdown). */
static void print_report(strbuf *out, const ls_request *req, const ls_earlyexit_report *r, const char *input,
                         size_t rows, table_style style)
{
    char a[32], b[32], c[32];
    size_t npareto = 0;
    for (size_t i = 0; i < r->npoints; i++)
        npareto += r->points[i].pareto != 0;
    strbuf_printf(out, "%s: %zu token%s x %zu loop boundar%s; costs: prelude %s, loop %s, coda %s\n", input,
                  r->tokens, r->tokens == 1 ? "" : "s", r->loops, r->loops == 1 ? "y" : "ies",
                  ls_numtext_format_double(a, r->costs.prelude), ls_numtext_format_double(b, r->costs.loop),
                  ls_numtext_format_double(c, r->costs.coda));
    strbuf_printf(out, "  every loop:            perplexity %.4g (mean NLL %s)\n", exp(r->full_nll),
                  text_fixed(a, sizeof a, r->full_nll, 4));
    strbuf_printf(out, "  every token at loop 1: perplexity %.4g (mean NLL %s), %.2f%% saved\n", exp(r->loop1_nll),
                  text_fixed(a, sizeof a, r->loop1_nll, 4), 100 * r->loop1_saved);

    static const char *const at_headers[] = {"saved%", "perplexity"};
    text_table *t = text_table_new(2, at_headers);
    for (size_t i = 0; t && i < r->ntargets; i++) {
        snprintf(a, sizeof a, "%g", 100 * r->targets[i].saved);
        if (isnan(r->targets[i].perplexity))
            snprintf(b, sizeof b, "-");
        else
            snprintf(b, sizeof b, "%.4g", r->targets[i].perplexity);
        const char *row[2] = {a, b};
        if (text_table_add(t, row) != 0) {
            text_table_free(t);
            t = NULL;
        }
    }
    size_t *pick = malloc(r->npoints * sizeof *pick);
    static const char *const headers[] = {"threshold", "saved%", "mean_loops", "perplexity", "pareto"};
    text_table *s = t && pick ? text_table_new(5, headers) : NULL;
    size_t npick = s ? pick_rows(r, rows, pick) : 0;
    for (size_t k = 0; s && k < npick; k++) {
        const ls_earlyexit_point *p = &r->points[pick[k]];
        char cells[5][32];
        snprintf(cells[0], 32, "%.6g", p->threshold);
        snprintf(cells[1], 32, "%.2f", 100 * p->saved);
        snprintf(cells[2], 32, "%.3f", p->mean_loops);
        snprintf(cells[3], 32, "%.4g", exp(p->mean_nll));
        snprintf(cells[4], 32, "%s", p->pareto ? "yes" : "no");
        const char *row[5] = {cells[0], cells[1], cells[2], cells[3], cells[4]};
        if (text_table_add(s, row) != 0) {
            text_table_free(s);
            s = NULL;
        }
    }
    free(pick);
    if (t && s) {
        strbuf_puts(out, "\nPerplexity at a saving (interpolated on the Pareto front)\n");
        text_table_print(t, out, style);
        strbuf_printf(out, "\nThreshold sweep: %zu of %zu thresholds (%s csv gives all); %zu on the Pareto front\n",
                      npick, r->npoints, req_flag(req, O_FORMAT), npareto);
        text_table_print(s, out, style);
    } else
        out->failed = 1;
    text_table_free(t);
    text_table_free(s);
}

static int run(const ls_request *req, ls_result *res, ls_error *err)
{
    size_t nat, nthresholds;
    const double *at = req_list(req, O_AT, &nat), *given_thresholds = req_list(req, O_THRESHOLDS, &nthresholds);
    for (size_t i = 0; i < nat; i++)
        if (at[i] >= 100)
            return req_usage(req, err, "%s: '%g' is not a saving below 100%%", req_flag(req, O_AT), at[i]);
    int costs_given = req_given(req, O_PRELUDE) || req_given(req, O_LOOP) || req_given(req, O_CODA);
    if (req_given(req, O_SHAPE) && costs_given)
        return req_usage(req, err, "give the costs by %s or by %s, %s and %s, not both", req_flag(req, O_SHAPE),
                         req_flag(req, O_PRELUDE), req_flag(req, O_LOOP), req_flag(req, O_CODA));
    if (req_given(req, O_CONTEXT) && !req_given(req, O_SHAPE))
        return req_usage(req, err, "%s needs %s", req_flag(req, O_CONTEXT), req_flag(req, O_SHAPE));
    if (req->noperands == 0)
        return req_usage(req, err, "give one CSV file, or two .npy files (entropy, then NLL)");

    /* The thresholds in any order (the option refuses one given twice). */
    double *thresholds = NULL;
    if (given_thresholds) {
        if (!(thresholds = malloc(nthresholds * sizeof *thresholds)))
            return res_oom(err);
        memcpy(thresholds, given_thresholds, nthresholds * sizeof *thresholds);
        qsort(thresholds, nthresholds, sizeof *thresholds, compare_doubles);
    }
    double *targets = malloc(nat * sizeof *targets);
    ls_earlyexit *x = NULL;
    ls_earlyexit_report *r = NULL;
    int status = targets ? 0 : res_oom(err);
    if (status == 0 &&
        !(x = ls_earlyexit_read((const char *const *)req->operands, req->noperands, thresholds, nthresholds, err)))
        status = err->code;
    ls_earlyexit_costs costs;
    if (status == 0)
        status = costs_of(req, ls_earlyexit_loops(x), &costs, err);
    for (size_t i = 0; status == 0 && i < nat; i++)
        targets[i] = at[i] / 100;
    if (status == 0 && !(r = ls_earlyexit_report_new(x, &costs, targets, nat, err)))
        status = err->code;
    if (status == 0) {
        /* What the table and the document name the input: "-" is standard
         * input, as every other command says. */
        char input[512];
        if (req->noperands == 2)
            snprintf(input, sizeof input, "%s, %s", cmd_input_name(req->operands[0]),
                     cmd_input_name(req->operands[1]));
        else
            snprintf(input, sizeof input, "%s", cmd_input_name(req->operands[0]));
        jsonw w;
        ls_jsonw_init(&w);
        write_json(&w, r, input);
        status = cmd_json(req, res, &w, err);
        fmt_kind format = req_format(req);
        strbuf out = {0};
        if (status == 0 && (format == FMT_CSV || format == FMT_TSV))
            print_sweep(&out, r, format == FMT_CSV ? TABLE_CSV : TABLE_TSV);
        else if (status == 0 && format != FMT_JSON)
            print_report(&out, req, r, input, (size_t)req_integer(req, O_ROWS),
                         format == FMT_MD ? TABLE_MD : TABLE_ALIGNED);
        if (status == 0)
            status = cmd_print(res, &out, err);
    }
    ls_earlyexit_report_free(r);
    ls_earlyexit_free(x);
    free(targets);
    free(thresholds);
    return status;
}

static const cmd_option OPTIONS[] = {
    {O_SHAPE, "prelude, loop and coda FLOPs of a shape file ('loopscale shape'); its loops must match the data's "
              "boundaries", NULL, NULL, "Costs (any unit; only their ratios matter):"},
    {O_CONTEXT, "attention context for the shape's FLOPs", NULL, "the file's", NULL},
    CMD_OPT(O_PRELUDE),
    CMD_OPT(O_LOOP),
    CMD_OPT(O_CODA),
    CMD_OPT(O_THRESHOLDS),
    CMD_OPT(O_AT),
    CMD_OPT(O_ROWS),
    CMD_OPT_HELP(O_FORMAT, "table: the report; csv and tsv: every threshold of the sweep, numbers to the last digit; "
                           "json: everything (docs/formats.md); md: the report's tables in markdown"),
    CMD_OPT(O_QUIET),
    CMD_END,
};

const cmd_def CMD_EXIT = {
    .name = "exit",
    .summary = "entropy-threshold early exit: FLOPs saved against perplexity",
    .usage = "[OPTIONS] FILE\n[OPTIONS] ENTROPY.npy NLL.npy",
    .description =
        "Entropy-threshold early exit at loop boundaries.  Input: for every token and boundary r = 1..L (the "
        "prediction after r loops), its entropy and NLL in nats: a CSV file token,loop,entropy,nll (plain or gzip, "
        "'-' for standard input; loops counted from 1, a token's rows together and tokens increasing) or two .npy "
        "arrays [tokens, loops], the entropy and then the NLL.  The input is streamed one token at a time.  For a "
        "threshold t a token exits at the first boundary whose entropy is below t (or runs all L loops) and costs "
        "prelude + r loop + coda.  Reported for each threshold: the share of FLOPs saved against running every "
        "loop and the perplexity exp(mean NLL); the Pareto front; the perplexity at given savings, interpolated on "
        "the front (mixing its two neighbouring thresholds).  The sweep starts at threshold 0, where no token exits "
        "early.",
    .operands = "CSV|ENTROPY.npy NLL.npy",
    .min_operands = 1,
    .max_operands = 2,
    .formats = "table|csv|tsv|json|md",
    .stdout_label = "the report",
    .options = OPTIONS,
    .run = run,
};
