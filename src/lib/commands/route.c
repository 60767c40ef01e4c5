/*
 * route — router health from router logits (Foil: How to Loop MoE: Flatten
 * the Experts, Untie the Attention; Sparse Layers are Critical to Scaling
 * Looped Language Models).  The logits are streamed a token at a time by
 * ls_route_read; only the per-layer and per-loop metrics are kept.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands_internal.h"
#include "loopscale/route.h"
#include "numtext_internal.h"

#define ROUTE_FORMAT "loopscale-route/1"

static const char *const COLUMNS[] = {"layer", "loop", "B2", "MMR", "distinct", "disjoint", "switched", "ties"};
#define NCOLUMNS (sizeof COLUMNS / sizeof *COLUMNS)

/* One row's cells: fixed decimals for people, round-trip digits for CSV and
 * TSV; an undefined share is "-" for people and empty for programs. */
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

static void write_json(jsonw *w, const ls_route_report *r, const char *input, int per_loop)
{
    ls_jsonw_object_begin(w, NULL);
    ls_jsonw_string(w, "format", ROUTE_FORMAT);
    ls_jsonw_string(w, "input", input);
    ls_jsonw_string(w, "source", r->source);
    ls_jsonw_integer(w, "tokens", (long long)r->tokens);
    ls_jsonw_integer(w, "loops", (long long)r->loops);
    ls_jsonw_integer(w, "layers", (long long)r->layers);
    ls_jsonw_integer(w, "experts", (long long)r->experts);
    ls_jsonw_integer(w, "top_k", (long long)r->top_k);
    ls_jsonw_array_begin(w, "per_layer", 0);
    for (size_t d = 0; d < r->layers; d++) {
        ls_jsonw_object_begin(w, NULL);
        ls_jsonw_integer(w, "layer", (long long)d + 1);
        json_metrics(w, &r->per_layer[d]);
        if (per_loop) {
            ls_jsonw_array_begin(w, "per_loop", 0);
            for (size_t l = 0; l < r->loops; l++) {
                ls_jsonw_object_begin(w, NULL);
                ls_jsonw_integer(w, "loop", (long long)l + 1);
                json_metrics(w, &r->per_loop[d * r->loops + l]);
                ls_jsonw_object_end(w);
            }
            ls_jsonw_array_end(w);
        }
        ls_jsonw_object_end(w);
    }
    ls_jsonw_array_end(w);
    if (r->layers > 1) {
        ls_jsonw_object_begin(w, "all_layers");
        json_metrics(w, &r->all);
        ls_jsonw_object_end(w);
    }
    ls_jsonw_object_end(w);
}

static int add_row(text_table *t, const char *layer, const char *loop, const ls_route_metrics *m, int exact)
{
    char cells[NCOLUMNS][NUMTEXT_DOUBLE_MAX];
    row_cells(cells, layer, loop, m, exact);
    const char *row[NCOLUMNS];
    for (size_t j = 0; j < NCOLUMNS; j++)
        row[j] = cells[j];
    return text_table_add(t, row);
}

/* The table: CSV and TSV alone, with exact numbers; for people (aligned or
 * markdown) under a line that says what was read, with notes on ties and
 * the pooled row. */
static void print_table(strbuf *out, const ls_route_report *r, const char *input, int per_loop, fmt_kind format)
{
    int exact = format == FMT_CSV || format == FMT_TSV, failed;
    text_table *t = text_table_new(NCOLUMNS, COLUMNS);
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
        text_table_free(t);
        out->failed = 1;
        return;
    }
    if (!exact)
        strbuf_printf(out, "%s: %zu token%s x %zu loop%s x %zu layer%s x %zu experts (%s), top-%zu\n\n", input,
                      r->tokens, r->tokens == 1 ? "" : "s", r->loops, r->loops == 1 ? "" : "s", r->layers,
                      r->layers == 1 ? "" : "s", r->experts, r->source, r->top_k);
    text_table_print(t, out, format == FMT_CSV ? TABLE_CSV : format == FMT_TSV ? TABLE_TSV
                                              : format == FMT_MD    ? TABLE_MD
                                                                    : TABLE_ALIGNED);
    text_table_free(t);
    if (!exact && r->all.ties > 0)
        strbuf_printf(out, "\n%llu of %llu router decisions had a tie at the top-k boundary (split evenly for B2,\n"
                      "the lower expert index for the sets).\n",
                      (unsigned long long)r->all.ties, (unsigned long long)r->all.decisions);
    if (!exact && r->layers > 1)
        strbuf_puts(out, "\nThe 'all' layer row pools every layer: B2 over the layers x experts loads, distinct\n"
                         "summed over layers (experts are per layer).\n");
}

static int run(const ls_request *req, ls_result *res, ls_error *err)
{
    if (!req_given(req, O_TOP_K))
        return req_usage(req, err, "give %s K, the experts each router decision chooses", req_flag(req, O_TOP_K));
    if (req->noperands == 0)
        return req_usage(req, err, "give a LOGITS file (.npy or CSV)");
    const char *path = req->operands[0], *input = cmd_input_name(path);
    ls_route_report *r = ls_route_read(path, (size_t)req_integer(req, O_TOP_K), err);
    if (!r)
        return err->code;
    int per_loop = req_given(req, O_PER_LOOP);
    jsonw w;
    ls_jsonw_init(&w);
    write_json(&w, r, input, per_loop);
    int status = cmd_json(req, res, &w, err);
    fmt_kind format = req_format(req);
    if (status == 0 && format != FMT_JSON) {
        strbuf out = {0};
        print_table(&out, r, input, per_loop, format);
        status = cmd_print(res, &out, err);
    }
    ls_route_report_free(r);
    return status;
}

static const cmd_option OPTIONS[] = {
    CMD_OPT_HELP(O_TOP_K, "experts each router decision chooses (required)"),
    CMD_OPT(O_PER_LOOP),
    CMD_OPT_HELP(O_FORMAT, "table; csv and tsv: the table alone, numbers to the last digit; json: the document "
                           "(docs/formats.md); md: the table in markdown"),
    CMD_OPT(O_QUIET),
    CMD_END,
};

const cmd_def CMD_ROUTE = {
    .name = "route",
    .summary = "router health from logits: balance, confidence, expert switching",
    .usage = "--top-k K [OPTIONS] LOGITS",
    .description =
        "Router health from router logits of shape [tokens, loops, layers, experts]: a NumPy .npy file (float16, "
        "float32 or float64, little-endian, C order; recognised by its magic string) or a CSV file "
        "token,loop,layer,z0,...,z{E-1} (plain or gzip, '-' for standard input; loops and layers counted from 1, "
        "a token's rows together and tokens increasing).  The input is streamed one token at a time.  For each "
        "layer, loops pooled (and each loop with --per-loop):\n"
        "\n"
        "  B2        load balance (1/E) / sum q_i^2, q_i expert i's share of the\n"
        "            top-k assignments: 1 for an even load, k/E when it all goes\n"
        "            to k experts\n"
        "  MMR       exp(mean z_(1) - mean z_(j)), z_(m) the m-th largest logit\n"
        "            and j = ceil(E/2): 1 for a router without preference, at any E\n"
        "  distinct  experts a token's top-k sets cover over the loops (through\n"
        "            this loop)\n"
        "  disjoint  share of tokens whose top-k sets at consecutive loops share\n"
        "            no expert\n"
        "  switched  share of tokens whose top-k set changed at all\n"
        "\n"
        "A tie at the top-k boundary is split evenly among the tied experts for B2 (the expected load under a "
        "random tie-break) and goes to the lower expert index for the sets.",
    .operands = "LOGITS",
    .min_operands = 1,
    .max_operands = 1,
    .formats = "table|csv|tsv|json|md",
    .stdout_label = "the table",
    .options = OPTIONS,
    .run = run,
};
