/*
 * loopscale exit — entropy-threshold early exit at loop boundaries: FLOPs
 * saved against perplexity, and the Pareto front (Sparse Layers are Critical
 * to Scaling Looped Language Models).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "loopscale/earlyexit.h"
#include "jsonw_internal.h"
#include "numtext_internal.h"
#include "loopscale/shape.h"

static const char USAGE[] =
    "Usage: loopscale exit [OPTIONS] FILE\n"
    "       loopscale exit [OPTIONS] ENTROPY.npy NLL.npy\n"
    "\n"
    "Entropy-threshold early exit at loop boundaries.  Input: for every token and boundary\n"
    "r = 1..L (the prediction after r loops), its entropy and NLL in nats: a CSV file\n"
    "token,loop,entropy,nll (plain or gzip, '-' for standard input; loops counted from 1, a\n"
    "token's rows together and tokens increasing) or two .npy arrays [tokens, loops], the\n"
    "entropy and then the NLL.  For a threshold t a token exits at the first boundary whose\n"
    "entropy is below t (or runs all L loops) and costs prelude + r loop + coda.  Reported for\n"
    "each threshold: the share of FLOPs saved against running every loop and the perplexity\n"
    "exp(mean NLL); the Pareto front; the perplexity at given savings, interpolated on the\n"
    "front (mixing its two neighbouring thresholds).  The sweep starts at threshold 0, where no\n"
    "token exits early.\n"
    "\n"
    "Costs (any unit; only their ratios matter):\n"
    "      --shape FILE        prelude, loop and coda FLOPs of a shape file ('loopscale shape');\n"
    "                          its loops must match the data's boundaries\n"
    "      --context N         attention context for the shape's FLOPs (default: the file's)\n"
    "      --prelude P         what runs before the loops (default 0)\n"
    "      --loop B            one loop (default 1)\n"
    "      --coda C            what runs after the exit: the tail layers and the LM head\n"
    "                          (default 0)\n"
    "Sweep:\n"
    "      --thresholds LIST   the entropy thresholds to evaluate (default: every float with\n"
    "                          10 significant bits, about 0.1% apart, where an exit moves)\n"
    "      --at LIST           savings in percent to give the perplexity at (default 5,10,20,30)\n"
    "      --rows N            thresholds shown in the table, spread over the savings (default\n"
    "                          20; --format csv gives every one)\n"
    "      --format FMT        table (default), csv (the sweep) or json\n"
    "  -h, --help              show this help\n";

enum { OPT_SHAPE_FILE = OPT_COMMAND_FIRST, OPT_CONTEXT, OPT_PRELUDE, OPT_LOOP, OPT_CODA, OPT_THRESHOLDS, OPT_AT, OPT_ROWS };

typedef struct exit_options {
    const char *shape_path;
    long context; /* -1: the shape file's */
    ls_earlyexit_costs costs;
    int costs_given;
    double *thresholds, *at;
    size_t nthresholds, nat;
    long rows;
    cli_format format;
} exit_options;

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Costs from the shape file, whose loop count must be the data's. */
static int shape_costs(const exit_options *o, size_t loops, ls_earlyexit_costs *costs)
{
    ls_error err;
    ls_shape_spec s;
    ls_shape_spec_unset(&s);
    ls_shape_counts c;
    if (ls_shape_spec_read(o->shape_path, &s, &err) != 0)
        return cli_fail("exit", &err);
    if (o->context >= 0)
        s.context = o->context;
    if (ls_shape_resolve(&s, &err) != 0 || ls_shape_count_params(&s, &c, &err) != 0) {
        ls_error_prefix(&err, "%s", o->shape_path);
        err.code = LS_ERR_DATA;
        return cli_fail("exit", &err);
    }
    if ((size_t)s.loops != loops) {
        cli_error("exit", "%s: the shape runs %ld loops, but the data has %zu loop boundaries per token",
                  o->shape_path, s.loops, loops);
        return ls_exit_status(LS_ERR_DATA);
    }
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

static void print_csv(const ls_earlyexit_report *r)
{
    printf("threshold,saved,mean_loops,mean_nll,perplexity,pareto\n");
    char a[NUMTEXT_DOUBLE_MAX], b[NUMTEXT_DOUBLE_MAX], c[NUMTEXT_DOUBLE_MAX], d[NUMTEXT_DOUBLE_MAX],
        e[NUMTEXT_DOUBLE_MAX];
    for (size_t i = 0; i < r->npoints; i++) {
        const ls_earlyexit_point *p = &r->points[i];
        printf("%s,%s,%s,%s,%s,%d\n", ls_numtext_format_double(a, p->threshold), ls_numtext_format_double(b, p->saved),
               ls_numtext_format_double(c, p->mean_loops), ls_numtext_format_double(d, p->mean_nll),
               ls_numtext_format_double(e, exp(p->mean_nll)), p->pareto);
    }
}

static int print_json(const ls_earlyexit_report *r, const char *input)
{
    jsonw w;
    ls_jsonw_init(&w);
    ls_jsonw_object_begin(&w, NULL);
    ls_jsonw_string(&w, "input", input);
    ls_jsonw_integer(&w, "tokens", (long long)r->tokens);
    ls_jsonw_integer(&w, "loops", (long long)r->loops);
    ls_jsonw_object_begin(&w, "costs");
    ls_jsonw_number(&w, "prelude", r->costs.prelude);
    ls_jsonw_number(&w, "loop", r->costs.loop);
    ls_jsonw_number(&w, "coda", r->costs.coda);
    ls_jsonw_number(&w, "all_loops", r->full_cost);
    ls_jsonw_object_end(&w);
    ls_jsonw_object_begin(&w, "every_loop");
    ls_jsonw_number(&w, "mean_nll", r->full_nll);
    ls_jsonw_number(&w, "perplexity", exp(r->full_nll));
    ls_jsonw_object_end(&w);
    ls_jsonw_object_begin(&w, "every_token_at_loop_1");
    ls_jsonw_number(&w, "saved", r->loop1_saved);
    ls_jsonw_number(&w, "mean_nll", r->loop1_nll);
    ls_jsonw_number(&w, "perplexity", exp(r->loop1_nll));
    ls_jsonw_object_end(&w);
    ls_jsonw_array_begin(&w, "at_saved", 0);
    for (size_t i = 0; i < r->ntargets; i++) {
        ls_jsonw_object_begin(&w, NULL);
        ls_jsonw_number(&w, "saved", r->targets[i].saved);
        int reachable = !isnan(r->targets[i].perplexity);
        ls_jsonw_bool(&w, "reachable", reachable);
        if (reachable)
            ls_jsonw_number(&w, "perplexity", r->targets[i].perplexity);
        ls_jsonw_object_end(&w);
    }
    ls_jsonw_array_end(&w);
    ls_jsonw_array_begin(&w, "columns", 1);
    static const char *const columns[] = {"threshold", "saved", "mean_loops", "mean_nll", "perplexity", "pareto"};
    for (size_t j = 0; j < 6; j++)
        ls_jsonw_string(&w, NULL, columns[j]);
    ls_jsonw_array_end(&w);
    ls_jsonw_array_begin(&w, "sweep", 0);
    for (size_t i = 0; i < r->npoints; i++) {
        const ls_earlyexit_point *p = &r->points[i];
        ls_jsonw_array_begin(&w, NULL, 1);
        ls_jsonw_number(&w, NULL, p->threshold);
        ls_jsonw_number(&w, NULL, p->saved);
        ls_jsonw_number(&w, NULL, p->mean_loops);
        ls_jsonw_number(&w, NULL, p->mean_nll);
        ls_jsonw_number(&w, NULL, exp(p->mean_nll));
        ls_jsonw_integer(&w, NULL, p->pareto);
        ls_jsonw_array_end(&w);
    }
    ls_jsonw_array_end(&w);
    ls_jsonw_object_end(&w);
    return cli_print_json("exit", &w);
}

static int print_table(const ls_earlyexit_report *r, const char *input, size_t rows)
{
    char a[32], b[32], c[32];
    size_t npareto = 0;
    for (size_t i = 0; i < r->npoints; i++)
        npareto += r->points[i].pareto != 0;
    printf("%s: %zu token%s x %zu loop boundar%s; costs: prelude %s, loop %s, coda %s\n", input, r->tokens,
           r->tokens == 1 ? "" : "s", r->loops, r->loops == 1 ? "y" : "ies",
           ls_numtext_format_double(a, r->costs.prelude), ls_numtext_format_double(b, r->costs.loop),
           ls_numtext_format_double(c, r->costs.coda));
    char nll[32];
    printf("  every loop:            perplexity %.4g (mean NLL %s)\n", exp(r->full_nll),
           cli_fixed(nll, sizeof nll, r->full_nll, 4));
    printf("  every token at loop 1: perplexity %.4g (mean NLL %s), %.2f%% saved\n", exp(r->loop1_nll),
           cli_fixed(nll, sizeof nll, r->loop1_nll, 4), 100 * r->loop1_saved);

    printf("\nPerplexity at a saving (interpolated on the Pareto front)\n");
    static const char *const at_headers[] = {"saved%", "perplexity"};
    cli_table *t = cli_table_new(2, at_headers);
    for (size_t i = 0; t && i < r->ntargets; i++) {
        snprintf(a, sizeof a, "%g", 100 * r->targets[i].saved);
        if (isnan(r->targets[i].perplexity))
            snprintf(b, sizeof b, "-");
        else
            snprintf(b, sizeof b, "%.4g", r->targets[i].perplexity);
        const char *row[2] = {a, b};
        if (cli_table_add(t, row) != 0) {
            cli_table_free(t);
            t = NULL;
        }
    }
    size_t *pick = malloc(r->npoints * sizeof *pick);
    static const char *const headers[] = {"threshold", "saved%", "mean_loops", "perplexity", "pareto"};
    cli_table *s = t && pick ? cli_table_new(5, headers) : NULL;
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
        if (cli_table_add(s, row) != 0) {
            cli_table_free(s);
            s = NULL;
        }
    }
    free(pick);
    if (!t || !s) {
        cli_table_free(t);
        cli_table_free(s);
        cli_error("exit", "out of memory");
        return ls_exit_status(LS_ERR_INTERNAL);
    }
    cli_table_print(t, stdout, CLI_FORMAT_TABLE);
    printf("\nThreshold sweep: %zu of %zu thresholds (--format csv gives all); %zu on the Pareto front\n", npick,
           r->npoints, npareto);
    cli_table_print(s, stdout, CLI_FORMAT_TABLE);
    cli_table_free(t);
    cli_table_free(s);
    return 0;
}

int cmd_exit(int argc, char **argv)
{
    const char *cmd = "exit";
    static const struct option longopts[] = {CLI_HELP_OPTION,
                                             {"shape", required_argument, NULL, OPT_SHAPE_FILE},
                                             {"context", required_argument, NULL, OPT_CONTEXT},
                                             {"prelude", required_argument, NULL, OPT_PRELUDE},
                                             {"loop", required_argument, NULL, OPT_LOOP},
                                             {"coda", required_argument, NULL, OPT_CODA},
                                             {"thresholds", required_argument, NULL, OPT_THRESHOLDS},
                                             {"at", required_argument, NULL, OPT_AT},
                                             {"rows", required_argument, NULL, OPT_ROWS},
                                             {"format", required_argument, NULL, OPT_FORMAT},
                                             {NULL, 0, NULL, 0}};
    exit_options o = {NULL, -1, {0, 1, 0}, 0, NULL, NULL, 0, 0, 20, CLI_FORMAT_TABLE};
    int status = 0, opt;
    opterr = 0;
    while (status == 0 && (opt = cli_getopt(argc, argv, ":h", longopts, NULL, NULL)) != -1) {
        switch (opt) {
        case 'h': status = -1; break;
        case OPT_SHAPE_FILE: o.shape_path = optarg; break;
        case OPT_CONTEXT: status = cli_parse_long(cmd, "--context", optarg, 0, 1000000000000L, &o.context); break;
        case OPT_PRELUDE:
        case OPT_CODA:
            o.costs_given = 1;
            status = cli_parse_double(cmd, opt == OPT_PRELUDE ? "--prelude" : "--coda", optarg,
                                      opt == OPT_PRELUDE ? &o.costs.prelude : &o.costs.coda);
            if (status == 0 && ((opt == OPT_PRELUDE ? o.costs.prelude : o.costs.coda) < 0))
                status = cli_usage_error(cmd, "%s: '%s' must not be negative", opt == OPT_PRELUDE ? "--prelude" : "--coda",
                                         optarg);
            break;
        case OPT_LOOP:
            o.costs_given = 1;
            status = cli_parse_positive(cmd, "--loop", optarg, &o.costs.loop);
            break;
        case OPT_THRESHOLDS: status = cli_parse_list(cmd, "--thresholds", optarg, &o.thresholds, &o.nthresholds); break;
        case OPT_AT:
            status = cli_parse_list(cmd, "--at", optarg, &o.at, &o.nat);
            for (size_t i = 0; status == 0 && i < o.nat; i++)
                if (o.at[i] >= 100)
                    status = cli_usage_error(cmd, "--at: '%g' is not a saving below 100%%", o.at[i]);
            break;
        case OPT_ROWS: status = cli_parse_long(cmd, "--rows", optarg, 2, 1000000, &o.rows); break;
        case OPT_FORMAT:
            status = cli_parse_format(cmd, optarg, 1u << CLI_FORMAT_TABLE | 1u << CLI_FORMAT_CSV | 1u << CLI_FORMAT_JSON,
                                      &o.format);
            break;
        default: status = cli_option_error(cmd, opt, argv); break;
        }
    }
    ls_earlyexit *x = NULL;
    ls_earlyexit_report *r = NULL;
    if (status == -1) {
        free(o.thresholds);
        free(o.at);
        return cli_help(USAGE);
    }
    if (status == 0 && o.shape_path && o.costs_given)
        status = cli_usage_error(cmd, "give the costs by --shape or by --prelude, --loop and --coda, not both");
    else if (status == 0 && o.context >= 0 && !o.shape_path)
        status = cli_usage_error(cmd, "--context needs --shape");
    else if (status == 0 && (argc - optind < 1 || argc - optind > 2))
        status = cli_usage_error(cmd, "give one CSV file, or two .npy files (entropy, then NLL)");
    if (status == 0 && o.thresholds) { /* any order, duplicates dropped */
        qsort(o.thresholds, o.nthresholds, sizeof *o.thresholds, compare_doubles);
        size_t n = 1;
        for (size_t i = 1; i < o.nthresholds; i++)
            if (o.thresholds[i] != o.thresholds[n - 1])
                o.thresholds[n++] = o.thresholds[i];
        o.nthresholds = n;
    }
    if (status == 0) {
        cli_file_input("--shape", o.shape_path);
        cli_file_input(argc - optind == 2 ? "ENTROPY.npy" : "CSV", argv[optind]);
        if (argc - optind == 2)
            cli_file_input("NLL.npy", argv[optind + 1]);
        status = cli_files_check(cmd);
    }
    ls_error err;
    if (status == 0) {
        x = ls_earlyexit_read((const char *const *)argv + optind, (size_t)(argc - optind), o.thresholds, o.nthresholds,
                           &err);
        if (!x)
            status = cli_fail(cmd, &err);
    }
    if (status == 0 && o.shape_path)
        status = shape_costs(&o, ls_earlyexit_loops(x), &o.costs);
    if (status == 0) {
        static const double default_at[] = {5, 10, 20, 30};
        const double *at = o.at ? o.at : default_at;
        size_t nat = o.at ? o.nat : 4;
        double *targets = malloc(nat * sizeof *targets);
        for (size_t i = 0; targets && i < nat; i++)
            targets[i] = at[i] / 100;
        if (!targets)
            status = cli_fail(cmd, &(ls_error){LS_ERR_INTERNAL, "out of memory"});
        else if (!(r = ls_earlyexit_report_new(x, &o.costs, targets, nat, &err)))
            status = cli_fail(cmd, &err);
        free(targets);
    }
    if (status == 0) {
        /* What the table and the JSON name the input: "-" is standard
         * input, as every other command says. */
        char input[512];
        const char *first = strcmp(argv[optind], "-") == 0 ? "standard input" : argv[optind];
        if (argc - optind == 2)
            snprintf(input, sizeof input, "%s, %s", first,
                     strcmp(argv[optind + 1], "-") == 0 ? "standard input" : argv[optind + 1]);
        else
            snprintf(input, sizeof input, "%s", first);
        if (o.format == CLI_FORMAT_CSV)
            print_csv(r);
        else if (o.format == CLI_FORMAT_JSON)
            status = print_json(r, input);
        else
            status = print_table(r, input, (size_t)o.rows);
    }
    ls_earlyexit_report_free(r);
    ls_earlyexit_free(x);
    free(o.thresholds);
    free(o.at);
    return status;
}
