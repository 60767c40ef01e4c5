/*
 * predict — the loss a law predicts for a sweep's runs (streamed, in
 * constant memory), or for one configuration.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands_internal.h"
#include "jsonw_internal.h"
#include "loopscale/predict.h"
#include "numtext_internal.h"

/* The options that describe one configuration, and the quantity each gives. */
static const struct {
    opt_id id;
    ls_sweep_quantity q;
} POINT_OPTIONS[] = {
    {O_N_ACT, LS_SWEEP_N_ACT}, {O_N_TOTAL, LS_SWEEP_N_TOTAL}, {O_N_LOOP, LS_SWEEP_N_LOOP},
    {O_R, LS_SWEEP_R},         {O_E, LS_SWEEP_E},             {O_K, LS_SWEEP_K},
    {O_TOKENS, LS_SWEEP_TOKENS}, {O_FLOPS, LS_SWEEP_FLOPS}, {O_UNIQUE_TOKENS, LS_SWEEP_UNIQUE_TOKENS},
};
#define NPOINT (sizeof POINT_OPTIONS / sizeof *POINT_OPTIONS)

static int point_mode(const ls_request *req)
{
    for (size_t i = 0; i < NPOINT; i++)
        if (req_given(req, POINT_OPTIONS[i].id))
            return 1;
    return 0;
}

static opt_id option_of(ls_sweep_quantity q)
{
    for (size_t i = 0; i < NPOINT; i++)
        if (POINT_OPTIONS[i].q == q)
            return POINT_OPTIONS[i].id;
    return O_K;
}

static int predict_point(const ls_request *req, ls_result *res, const ls_lawfile *lf, ls_error *err)
{
    ls_sweep_row row = {.n_act = NAN, .n_total = NAN, .n_loop = NAN, .R = req_number(req, O_R),
                        .E = req_number(req, O_E), .k = req_number(req, O_K), .tokens = NAN, .loss = NAN,
                        .unique_tokens = NAN};
    if (!req_given(req, O_N_ACT))
        return req_usage(req, err, "give %s (or a SWEEP file)", req_flag(req, O_N_ACT));
    row.n_act = req_number(req, O_N_ACT);
    row.n_total = req_given(req, O_N_TOTAL) ? req_number(req, O_N_TOTAL) : row.n_act;
    if (req_given(req, O_N_LOOP))
        row.n_loop = req_number(req, O_N_LOOP);
    if (req_given(req, O_TOKENS) == req_given(req, O_FLOPS))
        return req_usage(req, err, "give exactly one of %s and %s", req_flag(req, O_TOKENS), req_flag(req, O_FLOPS));
    if (req_given(req, O_TOKENS))
        row.tokens = req_number(req, O_TOKENS);
    /* Only the data-constrained base reads U: any other law would print the
     * same loss with or without it, and the user would believe it counted. */
    if (req_given(req, O_UNIQUE_TOKENS)) {
        if (lf->law.kind.base != LS_LAW_BASE_DATA_CONSTRAINED) {
            char kind[64];
            return req_usage(req, err, "%s: the law (%s) does not read unique tokens; only the data-constrained "
                             "base does", req_flag(req, O_UNIQUE_TOKENS),
                             ls_law_kind_format(lf->law.kind, kind, sizeof kind));
        }
        row.unique_tokens = req_number(req, O_UNIQUE_TOKENS);
    }
    ls_sweep_quantity which;
    char reason[128];
    if (ls_sweep_row_check(&row, &which, reason, sizeof reason)) {
        if (which == LS_SWEEP_N_LOOP && isnan(row.n_loop))
            return req_usage(req, err, "%s is needed when R > 1", req_flag(req, O_N_LOOP));
        /* A value that was not given is a default: E = 1 below a given k,
         * said of k. */
        opt_id id = option_of(which);
        if (!req_given(req, id) && which == LS_SWEEP_E && req_given(req, O_K))
            return req_usage(req, err, "%s: '%s' is greater than E (%g, the default)", req_flag(req, O_K),
                             req_text(req, O_K), row.E);
        if (!req_given(req, id))
            id = O_K;
        return req_usage(req, err, "%s: '%s' %s", req_flag(req, id), req_text(req, id), reason);
    }
    ls_law_point x = ls_sweep_row_point(&row);
    double n_unroll = ls_law_n_unroll(&x);
    if (isnan(x.D))
        x.D = ls_law_tokens_for_flops_as(&lf->fit.flops, &x, req_number(req, O_FLOPS));
    /* Beyond the runs the law was fitted on, the number is its guess. */
    ls_law_ranges ranges;
    ls_lawfile_ranges(lf, &ranges);
    unsigned outside = ls_law_ranges_outside(&ranges, &x);
    if (outside) {
        char text[512];
        cmd_outside_text(text, sizeof text, &ranges, &x, outside);
        res_warn(res, LS_WARNING_EXTRAPOLATION, "configuration", "%s: outside the ranges the law was fitted on, an "
                 "extrapolation", text);
    }
    double loss = ls_law_loss(&lf->law, &x);
    double n_eff = ls_law_n_eff(&lf->law, &x);
    static const char *const names[] = {"loss", "n_eff", "n_unroll", "rho_eff", "tokens", "train_flops",
                                        "inference_flops_per_token"};
    /* Counted as the law's fit counted them (6nd unless it records another). */
    double values[] = {loss, n_eff, n_unroll, n_eff / x.n_act, x.D, ls_law_training_flops_as(&lf->fit.flops, &x),
                       ls_law_inference_flops_as(&lf->fit.flops, &x)};
    size_t n = sizeof values / sizeof *values;
    /* Every value is a positive number; anything else has overflowed or
     * underflowed, and is refused rather than printed as inf, nan or 0. */
    for (size_t i = 0; i < n; i++)
        if (!(isfinite(values[i]) && values[i] > 0))
            return ls_error_set(err, LS_ERR_DATA, "%s is %g at this configuration, outside the range of double "
                                "precision", names[i], values[i]);
    jsonw w;
    ls_jsonw_init(&w);
    ls_jsonw_object_begin(&w, NULL);
    ls_jsonw_string(&w, "format", "loopscale-predict/1");
    for (size_t i = 0; i < n; i++)
        ls_jsonw_number(&w, names[i], values[i]);
    ls_jsonw_object_end(&w);
    if (cmd_json(req, res, &w, err) != 0)
        return err->code;
    fmt_kind format = req_format(req);
    if (format == FMT_JSON)
        return 0;
    strbuf out = {0};
    char num[NUMTEXT_DOUBLE_MAX];
    if (format == FMT_CSV || format == FMT_TSV) {
        const char *sep = format == FMT_CSV ? "," : "\t";
        for (size_t i = 0; i < n; i++)
            strbuf_printf(&out, "%s%s", names[i], i + 1 < n ? sep : "\n");
        for (size_t i = 0; i < n; i++)
            strbuf_printf(&out, "%s%s", ls_numtext_format_double(num, values[i]), i + 1 < n ? sep : "\n");
    } else
        for (size_t i = 0; i < n; i++)
            strbuf_printf(&out, "%-26s %.6g\n", names[i], values[i]);
    return cmd_print(res, &out, err);
}

/* ---- a sweep, streamed ----------------------------------------------------------------- */

/* Rows of the table for people are printed in blocks of this many, each
 * block sized to its own cells, so that a sweep of any length is printed
 * in constant memory (a sweep of up to this many rows is one table). */
#define PREDICT_TABLE_BLOCK 1000

typedef struct predict_stream {
    ls_result *res;
    const ls_lawfile *lf;
    fmt_kind format;
    int has_loss;
    ls_predict_acc acc;
    size_t n;
    char *file;        /* the sweep's name as the reader gives it, kept past the stream */
    text_table *table; /* the current block */
    char **names;      /* the header, printed with the first row */
    size_t ncolumns;
    unsigned char *replaced; /* columns this command writes (pred_loss, residual) */
    int loss_converted;      /* the loss column is in bits or per byte: loss_nats is echoed too */
    strbuf out;              /* what is printed next */
    ls_law_ranges ranges;    /* the law's fitted ranges: rows beyond them are counted */
    size_t outside;
    char first_outside[512]; /* the first such row, for the warning */
} predict_stream;

static const char *const TABLE_HEADERS[] = {"line", "n_act", "n_total", "n_loop", "R", "E",
                                            "tokens", "loss", "pred_loss", "residual"};

/* What out holds, onto standard output. */
static int flush(predict_stream *ps, ls_error *err)
{
    if (ps->table) {
        text_table_print(ps->table, &ps->out, TABLE_ALIGNED);
        text_table_free(ps->table);
        ps->table = NULL;
    }
    if (strbuf_failed(&ps->out))
        return res_oom(err);
    int status = ps->out.len ? res_write(ps->res, ps->out.buf, ps->out.len) : 0;
    ps->out.len = 0;
    if (status != 0)
        return status == LS_ERR_IO ? ls_error_set(err, LS_ERR_IO, "write error on standard output: %s", strerror(errno))
                                   : res_oom(err);
    return 0;
}

static void free_names(predict_stream *ps)
{
    for (size_t j = 0; ps->names && j < ps->ncolumns; j++)
        free(ps->names[j]);
    free(ps->names);
    ps->names = NULL;
    free(ps->replaced);
    ps->replaced = NULL;
    ps->ncolumns = 0;
}

/* The header, when the first row comes: a sweep refused before any row
 * (no row passes the filters) prints nothing at all. */
static void print_header(predict_stream *ps)
{
    int csv = ps->format == FMT_CSV;
    if (csv || ps->format == FMT_TSV) {
        for (size_t j = 0; j < ps->ncolumns; j++) {
            if (ps->replaced[j])
                continue;
            if (csv)
                strbuf_csv_field(&ps->out, ps->names[j], strlen(ps->names[j]));
            else
                strbuf_puts(&ps->out, ps->names[j]);
            strbuf_puts(&ps->out, csv ? "," : "\t");
        }
        strbuf_puts(&ps->out, !ps->has_loss       ? "pred_loss\n"
                              : ps->loss_converted ? (csv ? "loss_nats,pred_loss,residual\n"
                                                          : "loss_nats\tpred_loss\tresidual\n")
                                                   : (csv ? "pred_loss,residual\n" : "pred_loss\tresidual\n"));
    } else if (ps->format == FMT_JSON) {
        strbuf_puts(&ps->out, "{\n  \"format\": \"loopscale-predict/1\",\n  \"rows\": [");
    }
}

static int on_header(void *ctx, const char *file, const char *const *names, size_t ncolumns, int has_loss,
                     ls_error *err)
{
    predict_stream *ps = ctx;
    free(ps->file);
    if (!(ps->file = strdup(file)))
        return res_oom(err);
    ps->has_loss = has_loss;
    free_names(ps);
    if (ps->format != FMT_CSV && ps->format != FMT_TSV)
        return 0;
    if (!(ps->names = calloc(ncolumns ? ncolumns : 1, sizeof *ps->names)) ||
        !(ps->replaced = calloc(ncolumns + 1, 1)))
        return res_oom(err);
    ps->ncolumns = ncolumns;
    /* Columns this command writes, found in its input (predict run on its
     * own output), are replaced, not repeated: one header each. */
    for (size_t j = 0; j < ncolumns; j++) {
        if (!(ps->names[j] = strdup(names[j])))
            return res_oom(err);
        ps->replaced[j] = strcmp(names[j], "pred_loss") == 0 || strcmp(names[j], "residual") == 0 ||
                          strcmp(names[j], "loss_nats") == 0;
    }
    return 0;
}

static void json_pair(strbuf *out, const char *key, double x)
{
    char num[NUMTEXT_DOUBLE_MAX];
    strbuf_printf(out, ",\n      \"%s\": %s", key, ls_numtext_format_double(num, x));
}

static void table_row(predict_stream *ps, const ls_sweep_row *r, double pred)
{
    char c[10][32];
    snprintf(c[0], 32, "%ld", r->line);
    snprintf(c[1], 32, "%.4g", r->n_act);
    snprintf(c[2], 32, "%.4g", r->n_total);
    if (isnan(r->n_loop))
        snprintf(c[3], 32, "-");
    else
        snprintf(c[3], 32, "%.4g", r->n_loop);
    snprintf(c[4], 32, "%g", r->R);
    snprintf(c[5], 32, "%g", r->E);
    snprintf(c[6], 32, "%.4g", r->tokens);
    /* A loss of 1e89 would not fit its cell as %.4f. */
    if (ps->has_loss)
        text_fixed(c[7], 32, r->loss, 4);
    else
        snprintf(c[7], 32, "-");
    text_fixed(c[8], 32, pred, 4);
    snprintf(c[9], 32, !ps->has_loss ? "-" : fabs(r->loss - pred) < TEXT_FIXED_MAX ? "%+.4f" : "%+.5g",
             r->loss - pred);
    const char *cells[10];
    for (int j = 0; j < 10; j++)
        cells[j] = c[j];
    if (text_table_add(ps->table, cells) != 0)
        ps->out.failed = 1;
}

static int on_row(void *ctx, const ls_sweep_row *r, const ls_sweep_text_cell *cells, size_t ncells, ls_error *err)
{
    predict_stream *ps = ctx;
    double pred;
    int status = ls_predict_row(&ps->lf->law, r, ps->file, &pred, err);
    if (status != 0)
        return status;
    ls_predict_acc_add(&ps->acc, r->loss, pred);
    ls_law_point x = ls_sweep_row_point(r);
    unsigned beyond = ls_law_ranges_outside(&ps->ranges, &x);
    if (beyond && ps->outside++ == 0) {
        int n = snprintf(ps->first_outside, sizeof ps->first_outside, "line %ld: ", r->line);
        if (n > 0 && (size_t)n < sizeof ps->first_outside)
            cmd_outside_text(ps->first_outside + n, sizeof ps->first_outside - (size_t)n, &ps->ranges, &x, beyond);
    }
    if (ps->n == 0)
        print_header(ps);
    char a[NUMTEXT_DOUBLE_MAX], b[NUMTEXT_DOUBLE_MAX], c[NUMTEXT_DOUBLE_MAX];
    strbuf *out = &ps->out;
    if (ps->format == FMT_CSV || ps->format == FMT_TSV) {
        const char *sep = ps->format == FMT_CSV ? "," : "\t";
        for (size_t j = 0; j < ncells; j++) {
            if (ps->replaced[j])
                continue;
            if (ps->format == FMT_CSV)
                strbuf_csv_field(out, cells[j].ptr, cells[j].len);
            else
                strbuf_append(out, cells[j].ptr, cells[j].len);
            strbuf_puts(out, sep);
        }
        if (ps->has_loss && ps->loss_converted)
            strbuf_printf(out, "%s%s%s%s%s\n", ls_numtext_format_double(c, r->loss), sep,
                          ls_numtext_format_double(a, pred), sep, ls_numtext_format_double(b, r->loss - pred));
        else if (ps->has_loss)
            strbuf_printf(out, "%s%s%s\n", ls_numtext_format_double(a, pred), sep,
                          ls_numtext_format_double(b, r->loss - pred));
        else
            strbuf_printf(out, "%s\n", ls_numtext_format_double(a, pred));
    } else if (ps->format == FMT_JSON) {
        strbuf_printf(out, "%s\n    {\n      \"line\": %ld", ps->n ? "," : "", r->line);
        json_pair(out, "n_act", r->n_act);
        json_pair(out, "n_total", r->n_total);
        if (!isnan(r->n_loop))
            json_pair(out, "n_loop", r->n_loop);
        json_pair(out, "R", r->R);
        json_pair(out, "E", r->E);
        json_pair(out, "k", r->k);
        json_pair(out, "tokens", r->tokens);
        if (ps->has_loss)
            json_pair(out, "loss", r->loss);
        json_pair(out, "pred_loss", pred);
        if (ps->has_loss)
            json_pair(out, "residual", r->loss - pred);
        strbuf_puts(out, "\n    }");
    } else {
        if (!ps->table && !(ps->table = text_table_new(10, TABLE_HEADERS)))
            return res_oom(err);
        table_row(ps, r, pred);
    }
    ps->n++;
    /* Printed in blocks, so that memory does not grow with the sweep. */
    if (ps->n % PREDICT_TABLE_BLOCK == 0)
        return flush(ps, err);
    return strbuf_failed(out) ? res_oom(err) : 0;
}

static int predict_sweep(const ls_request *req, ls_result *res, const ls_lawfile *lf, ls_error *err)
{
    cmd_sweep cs;
    int status = cmd_sweep_setup(req, res, &cs, err);
    if (status != 0)
        return status;
    ls_sweep_options so = cs.options;
    so.max_rows = 0; /* streamed: any number of rows */
    so.flops = &lf->fit.flops; /* a flops column is counted as the law's fit counted it */
    so.law = &lf->law.kind;    /* the columns the law does not read are named */
    predict_stream ps = {.res = res, .lf = lf, .format = req_format(req),
                         .loss_converted = so.loss_in_bits || so.bytes_per_token > 0};
    ls_predict_acc_init(&ps.acc);
    ls_lawfile_ranges(lf, &ps.ranges);
    ls_sweep_skips skipped;
    memset(&skipped, 0, sizeof skipped);
    ls_sweep_handler stream = {on_header, on_row, &ps, &skipped};
    size_t n = 0;
    const char *path = req->operands[0];
    /* Rows are printed as they are read, in constant memory; a fault found
     * later still fails the command, with the rows before it printed (as a
     * pipe would have them anyway). */
    status = ls_sweep_stream(&path, 1, &so, &stream, &n, err);
    cmd_sweep_report(req, res, &cs, NULL);
    if (status == 0) {
        char text[2 * LS_ERROR_MESSAGE_MAX];
        ls_sweep_skips_describe(&skipped, text, sizeof text);
        if (text[0])
            res_warn(res, LS_WARNING_DATA, path, "%s: %s", path, text);
        if (ps.outside)
            res_warn(res, LS_WARNING_EXTRAPOLATION, path, "%s: %zu of the %zu runs %s outside the ranges the law "
                     "was fitted on, extrapolations (the first, %s)", cmd_input_name(path), ps.outside, n,
                     ps.outside == 1 ? "lies" : "lie", ps.first_outside);
    }
    double rmse = NAN;
    if (status == 0 && ps.has_loss)
        status = ls_predict_acc_rmse(&ps.acc, ps.file, &rmse, err);
    char num[NUMTEXT_DOUBLE_MAX];
    if (status == 0 && ps.format == FMT_JSON) {
        if (ps.n == 0)
            print_header(&ps);
        strbuf_printf(&ps.out, "\n  ],\n  \"n\": %zu", n);
        if (ps.has_loss)
            strbuf_printf(&ps.out, ",\n  \"rmse\": %s", ls_numtext_format_double(num, rmse));
        strbuf_puts(&ps.out, "\n}\n");
    } else if (status == 0 && ps.has_loss && (ps.format == FMT_CSV || ps.format == FMT_TSV))
        res_note(res, "RMSE %.6g over %zu run%s (loss units)", rmse, n, n == 1 ? "" : "s");
    if (status == 0 && ps.has_loss && ps.format == FMT_TABLE) {
        if ((status = flush(&ps, err)) == 0)
            strbuf_printf(&ps.out, "\nRMSE %.6g over %zu run%s (loss units)\n", rmse, n, n == 1 ? "" : "s");
    }
    /* The rows streamed before a fault are printed, as a pipe would have
     * them; a table's block, aligned on rows to come, is not. */
    if (status != 0) {
        text_table_free(ps.table);
        ps.table = NULL;
    }
    int flushed = flush(&ps, status == 0 ? err : &(ls_error){0});
    status = status ? status : flushed;
    text_table_free(ps.table);
    free_names(&ps);
    strbuf_free(&ps.out);
    free(ps.file);
    cmd_sweep_free(&cs);
    /* A document held whole (no writer) is also the result's JSON. */
    if (status == 0 && ps.format == FMT_JSON && !req->writer && res->text.buf && !(res->json = strdup(res->text.buf)))
        status = res_oom(err);
    return status;
}

static int run(const ls_request *req, ls_result *res, ls_error *err)
{
    if (!req_given(req, O_LAW_FILE))
        return req_usage(req, err, "give the law with %s FILE", req_flag(req, O_LAW_FILE));
    int point = point_mode(req);
    if (point && req->noperands > 0)
        return req_usage(req, err, "give either a SWEEP file or one configuration, not both");
    if (!point && req->noperands != 1)
        return req_usage(req, err, req->noperands == 0 ? "give a SWEEP file or one configuration (--n-act ...)"
                                                       : "give one SWEEP file");
    ls_lawfile *lf = cmd_read_law(req, res, O_LAW_FILE, err);
    if (!lf)
        return err->code;
    int status = point ? predict_point(req, res, lf, err) : predict_sweep(req, res, lf, err);
    ls_lawfile_free(lf);
    return status;
}

static const cmd_option OPTIONS[] = {
    {O_LAW_FILE, "law file (JSON) to predict with", NULL, "", NULL},
    CMD_OPT_HELP(O_FORMAT, "table, csv or tsv (each row of the sweep with pred_loss and residual, every number "
                           "exact) or json"),
    CMD_SWEEP_OPTIONS,
    CMD_OPT(O_N_ACT),
    CMD_OPT(O_N_TOTAL),
    CMD_OPT(O_N_LOOP),
    CMD_OPT(O_R),
    CMD_OPT(O_E),
    CMD_OPT(O_K),
    CMD_OPT(O_TOKENS),
    CMD_OPT_HELP(O_FLOPS, "training FLOPs instead of tokens: D = F / (6 N_unroll), or as the law's fit counted FLOPs "
                          "(its flops_convention, docs/flops.md)"),
    CMD_OPT(O_UNIQUE_TOKENS),
    CMD_OPT(O_FORCE),
    CMD_OPT(O_QUIET),
    CMD_END,
};

const cmd_def CMD_PREDICT = {
    .name = "predict",
    .summary = "predict the loss of a sweep's runs, or of one configuration",
    .usage = "--law FILE [OPTIONS] SWEEP\n"
             "--law FILE --n-act N [--n-total N] [--n-loop N] [--R R] [--E E]\n"
             "  [--k K] (--tokens D | --flops F)",
    .description =
        "Predict the loss of every run in SWEEP (CSV or JSON Lines, plain or gzip; '-' for standard input), adding "
        "pred_loss and residual = loss - pred_loss to each row and reporting the RMSE in loss units (with "
        "--loss-unit bits or --bytes-per-token, loss_nats too: the residual is in nats); or predict one "
        "configuration given by options. The rows are printed as they are read, in constant memory.",
    .operands = "SWEEP",
    .min_operands = 0,
    .max_operands = 1,
    .formats = "table|csv|tsv|json",
    .stdout_label = "the table",
    .streams = 1,
    .options = OPTIONS,
    .run = run,
};
