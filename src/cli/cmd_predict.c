/*
 * loopscale predict — the loss a law predicts for a sweep's runs, or for one
 * configuration.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "jsonw_internal.h"
#include "loopscale/predict.h"
#include "numtext_internal.h"

static const char USAGE[] =
    "Usage: loopscale predict --law FILE [OPTIONS] SWEEP\n"
    "       loopscale predict --law FILE --n-act N [--n-total N] [--n-loop N] [--R R] [--E E] [--k K]\n"
    "                         (--tokens D | --flops F)\n"
    "\n"
    "Predict the loss of every run in SWEEP (CSV or JSON Lines, plain or gzip; '-' for standard\n"
    "input), adding pred_loss and residual = loss - pred_loss to each row and reporting the RMSE\n"
    "in loss units (with --loss-unit bits or --bytes-per-token, loss_nats too: the residual is in\n"
    "nats);\n"
    "or predict one configuration given by options.\n"
    "\n"
    "  -l, --law FILE          law file (JSON) to predict with\n"
    "      --format FMT        table (default), csv or json\n" CLI_SWEEP_HELP
    "One configuration (counts may end in k, M, B or G, T: 125M, 2.8B, 1.5T):\n"
    "      --n-act N           active non-embedding parameters\n"
    "      --n-total N         all stored parameters (default: n-act)\n"
    "      --n-loop N          active parameters in the looped block (needed when R > 1)\n"
    "      --R R               loop count (default 1)\n"
    "      --E E               routed experts per MoE layer (default 1)\n"
    "      --k K               experts chosen per token (default 1)\n"
    "      --tokens D          training tokens\n"
    "      --flops F           training FLOPs instead of tokens: D = F / (6 N_unroll), or as the\n"
    "                          law's fit counted FLOPs (its flops_convention, docs/flops.md)\n"
    "      --unique-tokens U   unique tokens the D tokens repeat (default: unlimited; read by\n"
    "                          the data-constrained law; refused by the others)\n"
    CLI_FORCE_HELP
    "  -h, --help              show this help\n";

enum { OPT_N_ACT = OPT_COMMAND_FIRST, OPT_N_TOTAL, OPT_N_LOOP, OPT_R, OPT_E, OPT_K, OPT_TOKENS, OPT_FLOPS,
       OPT_UNIQUE_TOKENS };

typedef struct predict_options {
    const char *law_path;
    cli_format format;
    cli_sweep_args sweep;
    int point_mode;
    int force; /* --force: use a law file whose fit was not a fit */
    ls_sweep_row point; /* NaN where not given */
    double flops;
    const char *text[LS_SWEEP_NQUANTITIES]; /* the option values as given */
} predict_options;

static int predict_point(const predict_options *o, const ls_lawfile *lf)
{
    const char *cmd = "predict";
    ls_sweep_row row = o->point;
    if (isnan(row.n_act))
        return cli_usage_error(cmd, "give --n-act (or a SWEEP file)");
    if (isnan(row.n_total))
        row.n_total = row.n_act;
    if (isnan(row.tokens) == isnan(o->flops))
        return cli_usage_error(cmd, "give exactly one of --tokens and --flops");
    if (row.unique_tokens == 0) /* 0 would read as "not given" */
        return cli_usage_error(cmd, "--unique-tokens: '%s' must be positive", o->text[LS_SWEEP_UNIQUE_TOKENS]);
    /* Only the data-constrained base reads U: any other law would print the
     * same loss with or without it, and the user would believe it counted. */
    if (o->text[LS_SWEEP_UNIQUE_TOKENS] && lf->law.kind.base != LS_LAW_BASE_DATA_CONSTRAINED) {
        char kind[64];
        return cli_usage_error(cmd, "--unique-tokens: the law (%s) does not read unique tokens; only the "
                               "data-constrained base does", ls_law_kind_format(lf->law.kind, kind, sizeof kind));
    }
    ls_sweep_quantity which;
    char reason[128];
    static const char *const option_of[LS_SWEEP_NQUANTITIES] = {"--n-act", "--n-total", "--n-loop", "--R",   "--E",
                                                              "--k",     "--tokens",  "--flops",  "--loss",
                                                              "--unique-tokens"};
    if (ls_sweep_row_check(&row, &which, reason, sizeof reason)) {
        if (which == LS_SWEEP_N_LOOP && isnan(row.n_loop))
            return cli_usage_error(cmd, "--n-loop is needed when R > 1");
        /* A value that was not given is a default: E = 1 below a given k,
         * said of k. */
        if (!o->text[which] && which == LS_SWEEP_E && o->text[LS_SWEEP_K])
            return cli_usage_error(cmd, "--k: '%s' is greater than E (%g, the default)", o->text[LS_SWEEP_K], row.E);
        if (!o->text[which])
            which = LS_SWEEP_K;
        return cli_usage_error(cmd, "%s: '%s' %s", option_of[which], o->text[which], reason);
    }
    ls_law_point x = ls_sweep_row_point(&row);
    double n_unroll = ls_law_n_unroll(&x);
    if (isnan(x.D))
        x.D = ls_law_tokens_for_flops_as(&lf->fit.flops, &x, o->flops);
    double loss = ls_law_loss(&lf->law, &x);
    double n_eff = ls_law_n_eff(&lf->law, &x);
    const char *names[] = {"loss", "n_eff", "n_unroll", "rho_eff", "tokens", "train_flops", "inference_flops_per_token"};
    /* Counted as the law's fit counted them (6nd unless it records another). */
    double values[] = {loss, n_eff, n_unroll, n_eff / x.n_act, x.D, ls_law_training_flops_as(&lf->fit.flops, &x),
                       ls_law_inference_flops_as(&lf->fit.flops, &x)};
    size_t n = sizeof values / sizeof *values;
    /* Every value is a positive number; anything else has overflowed or
     * underflowed, and is refused rather than printed as inf, nan or 0. */
    for (size_t i = 0; i < n; i++)
        if (!(isfinite(values[i]) && values[i] > 0)) {
            cli_error(cmd, "%s is %g at this configuration, outside the range of double precision", names[i],
                      values[i]);
            return ls_exit_status(LS_ERR_DATA);
        }
    if (o->format == CLI_FORMAT_JSON) {
        jsonw w;
        ls_jsonw_init(&w);
        ls_jsonw_object_begin(&w, NULL);
        for (size_t i = 0; i < n; i++)
            ls_jsonw_number(&w, names[i], values[i]);
        ls_jsonw_object_end(&w);
        ls_error err;
        char *text = ls_jsonw_finish(&w, &err);
        if (!text)
            return cli_fail(cmd, &err);
        fputs(text, stdout);
        free(text);
        return 0;
    }
    char num[NUMTEXT_DOUBLE_MAX];
    if (o->format == CLI_FORMAT_CSV) {
        for (size_t i = 0; i < n; i++)
            printf("%s%c", names[i], i + 1 < n ? ',' : '\n');
        for (size_t i = 0; i < n; i++)
            printf("%s%c", ls_numtext_format_double(num, values[i]), i + 1 < n ? ',' : '\n');
        return 0;
    }
    for (size_t i = 0; i < n; i++)
        printf("%-26s %.6g\n", names[i], values[i]);
    return 0;
}

/* Rows of the table for people are printed in blocks of this many, each
 * block sized to its own cells, so that a sweep of any length is printed
 * in constant memory (a sweep of up to this many rows is one table). */
#define PREDICT_TABLE_BLOCK 1000

typedef struct predict_stream {
    const char *cmd;
    const ls_lawfile *lf;
    cli_format format;
    int has_loss;
    ls_predict_acc acc;
    size_t n;
    char *file; /* the sweep's name as the reader gives it, kept past the stream */
    cli_table *table; /* the current block */
    char **names;     /* the header, printed with the first row */
    size_t ncolumns;
    unsigned char *replaced; /* columns this command writes (pred_loss, residual) */
    int loss_converted;      /* the loss column is in bits or per byte: loss_nats is echoed too */
} predict_stream;

static const char *const TABLE_HEADERS[] = {"line", "n_act", "n_total", "n_loop", "R", "E",
                                            "tokens", "loss", "pred_loss", "residual"};

static int flush_table(predict_stream *ps, ls_error *err)
{
    if (!ps->table)
        return 0;
    cli_table_print(ps->table, stdout, CLI_FORMAT_TABLE);
    cli_table_free(ps->table);
    ps->table = NULL;
    return ferror(stdout) ? ls_error_set(err, LS_ERR_IO, "write error on standard output: %s", strerror(errno)) : 0;
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
    if (ps->format == CLI_FORMAT_CSV) {
        for (size_t j = 0; j < ps->ncolumns; j++) {
            if (ps->replaced[j])
                continue;
            cli_csv_field(stdout, ps->names[j], strlen(ps->names[j]));
            putchar(',');
        }
        printf(!ps->has_loss ? "pred_loss\n" : ps->loss_converted ? "loss_nats,pred_loss,residual\n"
                                                                : "pred_loss,residual\n");
    } else if (ps->format == CLI_FORMAT_JSON) {
        printf("{\n  \"rows\": [");
    }
}

static int on_header(void *ctx, const char *file, const char *const *names, size_t ncolumns, int has_loss,
                     ls_error *err)
{
    predict_stream *ps = ctx;
    free(ps->file);
    if (!(ps->file = strdup(file)))
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    ps->has_loss = has_loss;
    free_names(ps);
    if (ps->format != CLI_FORMAT_CSV)
        return 0;
    if (!(ps->names = calloc(ncolumns ? ncolumns : 1, sizeof *ps->names)) ||
        !(ps->replaced = calloc(ncolumns + 1, 1)))
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    ps->ncolumns = ncolumns;
    /* Columns this command writes, found in its input (predict run on its
     * own output), are replaced, not repeated: one header each. */
    for (size_t j = 0; j < ncolumns; j++) {
        if (!(ps->names[j] = strdup(names[j])))
            return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        ps->replaced[j] = strcmp(names[j], "pred_loss") == 0 || strcmp(names[j], "residual") == 0 ||
                          strcmp(names[j], "loss_nats") == 0;
    }
    return 0;
}

static void json_pair(const char *key, double x, int *first)
{
    char num[NUMTEXT_DOUBLE_MAX];
    printf("%s\n      \"%s\": %s", *first ? "" : ",", key, ls_numtext_format_double(num, x));
    *first = 0;
}

static int on_row(void *ctx, const ls_sweep_row *r, const ls_sweep_text_cell *cells, size_t ncells, ls_error *err)
{
    predict_stream *ps = ctx;
    double pred;
    int status = ls_predict_row(&ps->lf->law, r, ps->file, &pred, err);
    if (status != 0)
        return status;
    ls_predict_acc_add(&ps->acc, r->loss, pred);
    if (ps->n == 0)
        print_header(ps);
    else if (ps->n % 4096 == 0 && ferror(stdout))
        return ls_error_set(err, LS_ERR_IO, "write error on standard output: %s", strerror(errno));
    char a[NUMTEXT_DOUBLE_MAX], b[NUMTEXT_DOUBLE_MAX];
    if (ps->format == CLI_FORMAT_CSV) {
        for (size_t j = 0; j < ncells; j++) {
            if (ps->replaced[j])
                continue;
            cli_csv_field(stdout, cells[j].ptr, cells[j].len);
            putchar(',');
        }
        if (ps->has_loss && ps->loss_converted) {
            char c[NUMTEXT_DOUBLE_MAX];
            printf("%s,%s,%s\n", ls_numtext_format_double(c, r->loss), ls_numtext_format_double(a, pred),
                   ls_numtext_format_double(b, r->loss - pred));
        } else if (ps->has_loss)
            printf("%s,%s\n", ls_numtext_format_double(a, pred), ls_numtext_format_double(b, r->loss - pred));
        else
            printf("%s\n", ls_numtext_format_double(a, pred));
    } else if (ps->format == CLI_FORMAT_JSON) {
        printf("%s\n    {", ps->n ? "," : "");
        printf("\n      \"line\": %ld", r->line);
        int first = 0;
        json_pair("n_act", r->n_act, &first);
        json_pair("n_total", r->n_total, &first);
        if (!isnan(r->n_loop))
            json_pair("n_loop", r->n_loop, &first);
        json_pair("R", r->R, &first);
        json_pair("E", r->E, &first);
        json_pair("k", r->k, &first);
        json_pair("tokens", r->tokens, &first);
        if (ps->has_loss)
            json_pair("loss", r->loss, &first);
        json_pair("pred_loss", pred, &first);
        if (ps->has_loss)
            json_pair("residual", r->loss - pred, &first);
        printf("\n    }");
    } else {
        if (!ps->table && !(ps->table = cli_table_new(10, TABLE_HEADERS)))
            return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
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
            cli_fixed(c[7], 32, r->loss, 4);
        else
            snprintf(c[7], 32, "-");
        cli_fixed(c[8], 32, pred, 4);
        snprintf(c[9], 32, !ps->has_loss ? "-" : fabs(r->loss - pred) < CLI_FIXED_MAX ? "%+.4f" : "%+.5g", r->loss - pred);
        const char *row_cells[10];
        for (int j = 0; j < 10; j++)
            row_cells[j] = c[j];
        if (cli_table_add(ps->table, row_cells) != 0)
            return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        if ((ps->n + 1) % PREDICT_TABLE_BLOCK == 0 && (status = flush_table(ps, err)) != 0)
            return status;
    }
    ps->n++;
    return 0;
}

static int predict_sweep(const predict_options *o, const ls_lawfile *lf, const char *path)
{
    const char *cmd = "predict";
    ls_sweep_options so = cli_sweep_options(cmd, &o->sweep);
    so.flops = &lf->fit.flops; /* a flops column is counted as the law's fit counted it */
    predict_stream ps = {.cmd = cmd, .lf = lf, .format = o->format,
                         .loss_converted = o->sweep.loss_in_bits || o->sweep.bytes_per_token > 0};
    ls_predict_acc_init(&ps.acc);
    ls_sweep_skips skipped;
    memset(&skipped, 0, sizeof skipped);
    ls_sweep_handler stream = {on_header, on_row, &ps, &skipped};
    ls_error err;
    size_t n = 0;
    /* Rows are printed as they are read, in constant memory; a fault found
     * later still fails the command, with the rows before it printed (as a
     * pipe would have them anyway). */
    int status = ls_sweep_stream(&path, 1, &so, &stream, &n, &err);
    if (status == 0)
        cli_sweep_report_skips(cmd, path, &skipped);
    if (status == 0 && ps.format == CLI_FORMAT_TABLE)
        status = flush_table(&ps, &err);
    cli_table_free(ps.table);
    free_names(&ps);
    double rmse = NAN;
    if (status == 0 && ps.has_loss)
        status = ls_predict_acc_rmse(&ps.acc, ps.file, &rmse, &err);
    free(ps.file);
    if (status != 0)
        return cli_fail(cmd, &err);
    char num[NUMTEXT_DOUBLE_MAX];
    if (ps.format == CLI_FORMAT_JSON) {
        printf("\n  ],\n  \"n\": %zu", n);
        if (ps.has_loss)
            printf(",\n  \"rmse\": %s", ls_numtext_format_double(num, rmse));
        printf("\n}\n");
    } else if (ps.has_loss && ps.format == CLI_FORMAT_CSV) {
        cli_note(cmd, "RMSE %.6g over %zu run%s (loss units)", rmse, n, n == 1 ? "" : "s");
    } else if (ps.has_loss) {
        printf("\nRMSE %.6g over %zu run%s (loss units)\n", rmse, n, n == 1 ? "" : "s");
    }
    return 0;
}

int cmd_predict(int argc, char **argv)
{
    const char *cmd = "predict";
    static const struct option longopts[] = {
        CLI_HELP_OPTION,
        {"law", required_argument, NULL, 'l'},
        {"force", no_argument, NULL, OPT_FORCE},
        {"format", required_argument, NULL, OPT_FORMAT},
        CLI_SWEEP_OPTIONS,
        {"n-act", required_argument, NULL, OPT_N_ACT},
        {"n-total", required_argument, NULL, OPT_N_TOTAL},
        {"n-loop", required_argument, NULL, OPT_N_LOOP},
        {"R", required_argument, NULL, OPT_R},
        {"E", required_argument, NULL, OPT_E},
        {"k", required_argument, NULL, OPT_K},
        {"tokens", required_argument, NULL, OPT_TOKENS},
        {"flops", required_argument, NULL, OPT_FLOPS},
        {"unique-tokens", required_argument, NULL, OPT_UNIQUE_TOKENS},
        {NULL, 0, NULL, 0}};
    predict_options o;
    memset(&o, 0, sizeof o);
    o.point = (ls_sweep_row){.n_act = NAN, .n_total = NAN, .n_loop = NAN, .R = 1, .E = 1, .k = 1, .tokens = NAN,
                          .loss = NAN, .unique_tokens = NAN};
    o.flops = NAN;
    int status = 0, opt, index = 0;
    opterr = 0;
    while (status == 0 && (opt = cli_getopt(argc, argv, ":hl:", longopts, &index, NULL)) != -1) {
        if (cli_sweep_option(cmd, &o.sweep, opt, optarg, &status))
            continue;
        double *target = NULL;
        int quantity = -1;
        switch (opt) {
        case 'h':
            cli_sweep_args_free(&o.sweep);
            return cli_help(USAGE);
        case 'l': o.law_path = optarg; break;
        case OPT_FORCE: o.force = 1; break;
        case OPT_FORMAT:
            status = cli_parse_format(cmd, optarg, 1u << CLI_FORMAT_TABLE | 1u << CLI_FORMAT_CSV | 1u << CLI_FORMAT_JSON,
                                      &o.format);
            break;
        case OPT_N_ACT: target = &o.point.n_act, quantity = LS_SWEEP_N_ACT; break;
        case OPT_N_TOTAL: target = &o.point.n_total, quantity = LS_SWEEP_N_TOTAL; break;
        case OPT_N_LOOP: target = &o.point.n_loop, quantity = LS_SWEEP_N_LOOP; break;
        case OPT_R: target = &o.point.R, quantity = LS_SWEEP_R; break;
        case OPT_E: target = &o.point.E, quantity = LS_SWEEP_E; break;
        case OPT_K: target = &o.point.k, quantity = LS_SWEEP_K; break;
        case OPT_TOKENS: target = &o.point.tokens, quantity = LS_SWEEP_TOKENS; break;
        case OPT_FLOPS: target = &o.flops, quantity = LS_SWEEP_FLOPS; break;
        case OPT_UNIQUE_TOKENS: target = &o.point.unique_tokens, quantity = LS_SWEEP_UNIQUE_TOKENS; break;
        default: status = cli_option_error(cmd, opt, argv); break;
        }
        if (target) {
            char name[64];
            snprintf(name, sizeof name, "--%s", longopts[index].name);
            o.point_mode = 1;
            o.text[quantity] = optarg;
            status = cli_parse_count(cmd, name, optarg, target);
        }
    }
    ls_lawfile *lf = NULL;
    if (status == 0 && !o.law_path)
        status = cli_usage_error(cmd, "give the law with --law FILE");
    if (status == 0 && o.point_mode && optind < argc)
        status = cli_usage_error(cmd, "give either a SWEEP file or one configuration, not both");
    if (status == 0 && !o.point_mode && optind + 1 != argc)
        status = cli_usage_error(cmd, optind >= argc ? "give a SWEEP file or one configuration (--n-act ...)"
                                                     : "give one SWEEP file");
    if (status == 0) {
        cli_file_input("--law", o.law_path);
        if (!o.point_mode)
            cli_file_input("SWEEP", argv[optind]);
        status = cli_files_check(cmd);
    }
    if (status == 0)
        lf = cli_read_law(cmd, o.law_path, o.force, &status);
    if (status == 0)
        status = o.point_mode ? predict_point(&o, lf) : predict_sweep(&o, lf, argv[optind]);
    ls_lawfile_free(lf);
    cli_sweep_args_free(&o.sweep);
    return status;
}
