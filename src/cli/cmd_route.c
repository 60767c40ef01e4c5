/*
 * loopscale route — router health from router logits (Foil: How to Loop MoE:
 * Flatten the Experts, Untie the Attention; Sparse Layers are Critical to
 * Scaling Looped Language Models).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "jsonw_internal.h"
#include "numtext_internal.h"
#include "loopscale/route.h"

static const char USAGE[] =
    "Usage: loopscale route --top-k K [OPTIONS] LOGITS\n"
    "\n"
    "Router health from router logits of shape [tokens, loops, layers, experts]: a NumPy .npy\n"
    "file (float16, float32 or float64, little-endian, C order; recognised by its magic string)\n"
    "or a CSV file token,loop,layer,z0,...,z{E-1} (plain or gzip, '-' for standard input; loops\n"
    "and layers counted from 1, a token's rows together and tokens increasing).  The input is\n"
    "streamed one token at a time.  For each layer, loops pooled (and each loop with --per-loop):\n"
    "  B2        load balance (1/E) / sum q_i^2, q_i expert i's share of the top-k assignments:\n"
    "            1 for an even load, k/E when it all goes to k experts\n"
    "  MMR       exp(mean z_(1) - mean z_(j)), z_(m) the m-th largest logit and j = ceil(E/2):\n"
    "            1 for a router without preference, at any E\n"
    "  distinct  experts a token's top-k sets cover over the loops (through this loop)\n"
    "  disjoint  share of tokens whose top-k sets at consecutive loops share no expert\n"
    "  switched  share of tokens whose top-k set changed at all\n"
    "A tie at the top-k boundary is split evenly among the tied experts for B2 (the expected\n"
    "load under a random tie-break) and goes to the lower expert index for the sets.\n"
    "\n"
    "  -k, --top-k K           experts each router decision chooses (required)\n"
    "      --per-loop          also a row for every loop\n"
    "      --format FMT        table (default), csv, json or md\n"
    "  -h, --help              show this help\n";

enum { OPT_PER_LOOP = OPT_COMMAND_FIRST };

static const char *const COLUMNS[] = {"layer", "loop", "B2", "MMR", "distinct", "disjoint", "switched", "ties"};
#define NCOLUMNS (sizeof COLUMNS / sizeof *COLUMNS)

/* One row's cells: fixed decimals for people, round-trip digits for CSV;
 * an undefined share is "-" for people and empty in CSV. */
static void row_cells(char cells[NCOLUMNS][NUMTEXT_DOUBLE_MAX], const char *layer, const char *loop,
                      const ls_route_metrics *m, int exact)
{
    snprintf(cells[0], NUMTEXT_DOUBLE_MAX, "%s", layer);
    snprintf(cells[1], NUMTEXT_DOUBLE_MAX, "%s", loop);
    const double v[5] = {m->b2, m->mmr, m->distinct, m->disjoint, m->switched};
    static const int decimals[5] = {4, 4, 3, 4, 4};
    for (int i = 0; i < 5; i++) {
        if (isnan(v[i]))
            snprintf(cells[2 + i], NUMTEXT_DOUBLE_MAX, "%s", exact ? "" : "-");
        else if (exact)
            ls_numtext_format_double(cells[2 + i], v[i]);
        else if (v[i] >= 1e6) /* MMR up to 1.8e308: %.4f would not fit the cell and be cut */
            snprintf(cells[2 + i], NUMTEXT_DOUBLE_MAX, "%.5g", v[i]);
        else
            snprintf(cells[2 + i], NUMTEXT_DOUBLE_MAX, "%.*f", decimals[i], v[i]);
    }
    snprintf(cells[7], NUMTEXT_DOUBLE_MAX, "%llu", (unsigned long long)m->ties);
}

static void json_metrics(jsonw *w, const ls_route_metrics *m)
{
    ls_jsonw_number(w, "b2", m->b2);
    ls_jsonw_number(w, "mmr", m->mmr);
    ls_jsonw_number(w, "distinct", m->distinct);
    if (!isnan(m->disjoint)) { /* undefined with a single loop, and at loop 1 */
        ls_jsonw_number(w, "disjoint", m->disjoint);
        ls_jsonw_number(w, "switched", m->switched);
    }
    ls_jsonw_integer(w, "decisions", (long long)m->decisions);
    ls_jsonw_integer(w, "ties", (long long)m->ties);
}

static int print_json(const ls_route_report *r, const char *path, int per_loop)
{
    jsonw w;
    ls_jsonw_init(&w);
    ls_jsonw_object_begin(&w, NULL);
    ls_jsonw_string(&w, "input", path);
    ls_jsonw_string(&w, "source", r->source);
    ls_jsonw_integer(&w, "tokens", (long long)r->tokens);
    ls_jsonw_integer(&w, "loops", (long long)r->loops);
    ls_jsonw_integer(&w, "layers", (long long)r->layers);
    ls_jsonw_integer(&w, "experts", (long long)r->experts);
    ls_jsonw_integer(&w, "top_k", (long long)r->top_k);
    ls_jsonw_array_begin(&w, "per_layer", 0);
    for (size_t d = 0; d < r->layers; d++) {
        ls_jsonw_object_begin(&w, NULL);
        ls_jsonw_integer(&w, "layer", (long long)d + 1);
        json_metrics(&w, &r->per_layer[d]);
        if (per_loop) {
            ls_jsonw_array_begin(&w, "per_loop", 0);
            for (size_t l = 0; l < r->loops; l++) {
                ls_jsonw_object_begin(&w, NULL);
                ls_jsonw_integer(&w, "loop", (long long)l + 1);
                json_metrics(&w, &r->per_loop[d * r->loops + l]);
                ls_jsonw_object_end(&w);
            }
            ls_jsonw_array_end(&w);
        }
        ls_jsonw_object_end(&w);
    }
    ls_jsonw_array_end(&w);
    if (r->layers > 1) {
        ls_jsonw_object_begin(&w, "all_layers");
        json_metrics(&w, &r->all);
        ls_jsonw_object_end(&w);
    }
    ls_jsonw_object_end(&w);
    return cli_print_json("route", &w);
}

static int add_row(cli_table *t, const char *layer, const char *loop, const ls_route_metrics *m, int exact)
{
    char cells[NCOLUMNS][NUMTEXT_DOUBLE_MAX];
    row_cells(cells, layer, loop, m, exact);
    const char *row[NCOLUMNS];
    for (size_t j = 0; j < NCOLUMNS; j++)
        row[j] = cells[j];
    return cli_table_add(t, row);
}

static int print_table(const ls_route_report *r, const char *path, int per_loop, cli_format format)
{
    int exact = format == CLI_FORMAT_CSV, failed = 0;
    cli_table *t = cli_table_new(NCOLUMNS, COLUMNS);
    failed = !t;
    for (size_t d = 0; !failed && d < r->layers; d++) {
        char layer[24], loop[24];
        snprintf(layer, sizeof layer, "%zu", d + 1);
        for (size_t l = 0; per_loop && !failed && l < r->loops; l++) {
            snprintf(loop, sizeof loop, "%zu", l + 1);
            failed = add_row(t, layer, loop, &r->per_loop[d * r->loops + l], exact) != 0;
        }
        failed = failed || add_row(t, layer, "all", &r->per_layer[d], exact) != 0;
    }
    if (!failed && r->layers > 1)
        failed = add_row(t, "all", "all", &r->all, exact) != 0;
    if (failed) {
        cli_table_free(t);
        cli_error("route", "out of memory");
        return ls_exit_status(LS_ERR_INTERNAL);
    }
    if (format != CLI_FORMAT_CSV)
        printf("%s: %zu token%s x %zu loop%s x %zu layer%s x %zu experts (%s), top-%zu\n\n", path, r->tokens,
               r->tokens == 1 ? "" : "s", r->loops, r->loops == 1 ? "" : "s", r->layers, r->layers == 1 ? "" : "s",
               r->experts, r->source, r->top_k);
    cli_table_print(t, stdout, format);
    cli_table_free(t);
    if (format != CLI_FORMAT_CSV && r->all.ties > 0)
        printf("\n%llu of %llu router decisions had a tie at the top-k boundary (split evenly for B2,\n"
               "the lower expert index for the sets).\n",
               (unsigned long long)r->all.ties, (unsigned long long)r->all.decisions);
    if (format != CLI_FORMAT_CSV && r->layers > 1)
        printf("\nThe 'all' layer row pools every layer: B2 over the layers x experts loads, distinct\n"
               "summed over layers (experts are per layer).\n");
    return 0;
}

int cmd_route(int argc, char **argv)
{
    const char *cmd = "route";
    static const struct option longopts[] = {CLI_HELP_OPTION,
                                             {"top-k", required_argument, NULL, 'k'},
                                             {"per-loop", no_argument, NULL, OPT_PER_LOOP},
                                             {"format", required_argument, NULL, OPT_FORMAT},
                                             {NULL, 0, NULL, 0}};
    long top_k = 0;
    int per_loop = 0, status = 0, opt;
    cli_format format = CLI_FORMAT_TABLE;
    opterr = 0;
    while (status == 0 && (opt = cli_getopt(argc, argv, ":hk:", longopts, NULL, NULL)) != -1) {
        switch (opt) {
        case 'h': return cli_help(USAGE);
        case 'k': status = cli_parse_long(cmd, "--top-k", optarg, 1, 1000000, &top_k); break;
        case OPT_PER_LOOP: per_loop = 1; break;
        case OPT_FORMAT:
            status = cli_parse_format(cmd, optarg,
                                      1u << CLI_FORMAT_TABLE | 1u << CLI_FORMAT_CSV | 1u << CLI_FORMAT_JSON |
                                          1u << CLI_FORMAT_MD,
                                      &format);
            break;
        default: status = cli_option_error(cmd, opt, argv); break;
        }
    }
    if (status != 0)
        return status;
    if (top_k == 0)
        return cli_usage_error(cmd, "give --top-k K, the experts each router decision chooses");
    if (optind + 1 != argc)
        return cli_usage_error(cmd, optind == argc ? "give a LOGITS file (.npy or CSV)" : "give one LOGITS file");
    const char *path = argv[optind];
    cli_file_input("LOGITS", path);
    if ((status = cli_files_check(cmd)) != 0)
        return status;
    ls_error err;
    ls_route_report *r = ls_route_read(path, (size_t)top_k, &err);
    if (!r)
        return cli_fail(cmd, &err);
    status = format == CLI_FORMAT_JSON ? print_json(r, path, per_loop) : print_table(r, path, per_loop, format);
    ls_route_report_free(r);
    return status;
}
