/*
 * loopscale shape — parameter and FLOP accounting of a looped MoE shape
 * (Foil: How to Loop MoE: Flatten the Experts, Untie the Attention), the
 * flattening ladder, muP multipliers (Sparse Layers are Critical to Scaling
 * Looped Language Models).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "jsonw_internal.h"
#include "numtext_internal.h"
#include "loopscale/shape.h"
#include "shape_internal.h"

static const char USAGE[] =
    "Usage: loopscale shape --d-model D (--d-ff F | --d-expert W) --vocab V --layers D [OPTIONS]\n"
    "       loopscale shape --shape FILE [OPTIONS]\n"
    "\n"
    "Parameter and FLOP accounting of a looped MoE (Foil): a block of D layers with E routed\n"
    "experts each, top-k of them per token, run L times, between head (prelude) and tail (coda)\n"
    "layers that run once.  Prints the accounting identities E_real = E D, E_comp = k D L,\n"
    "D_eff = D L, E_eq = E D L and log10 C(E,k)^(D L); exact parameter counts by part, stored\n"
    "and active; FLOPs per token; and the n_act, n_total, n_loop, R, E, k of a sweep row\n"
    "(non-embedding counts, R = L).  Counted: attention 4 d^2 per set (no biases), SwiGLU experts\n"
    "3 d d_expert, routers d E, embedding and LM head vocab x d each.\n"
    "\n"
    "Shape (options override a --shape file):\n"
    "      --shape FILE        JSON file with these settings as keys ('_' for '-', e.g. d_model,\n"
    "                          \"attention\": \"per-loop\"); --format json output reads back too\n"
    "      --d-model D         model width (required)\n"
    "      --d-ff F            FFN width of a dense layer; each expert is F / k wide\n"
    "      --d-expert W        or the expert width itself (F = k W); one of the two is required\n"
    "      --top-k K           experts per token (default 1)\n"
    "      --vocab V           vocabulary size (required)\n"
    "      --experts E         routed experts per block layer (default 1: dense)\n"
    "      --layers D          layers in the looped block (required)\n"
    "      --loops L           times the block runs (default 1)\n"
    "      --head-layers H     prelude layers, run once (default 0)\n"
    "      --tail-layers T     coda layers, run once (default 0)\n"
    "      --head-experts N    experts per prelude layer, 1 for a dense FFN (default E)\n"
    "      --tail-experts N    experts per coda layer (default: as --head-experts)\n"
    "      --attention MODE    tied: D attention sets shared by every loop (default);\n"
    "                          per-loop: D L sets, one per loop (Foil's untied attention)\n"
    "      --embeddings MODE   untied: embedding and LM head, vocab x d each (default); tied: once\n"
    "      --heads N           grouped-query attention: N query heads, G key/value heads of size h,\n"
    "      --kv-heads G        d h (2 N + 2 G) parameters a set (default G = N, h = d / N; without\n"
    "      --head-dim h        --heads, 4 d^2)\n"
    "      --norm-params       count RMSNorm gains: d before every attention set and FFN, and a\n"
    "                          final one (default: norms without parameters)\n"
    "      --context N         attention-score FLOPs for a token attending to N positions:\n"
    "                          4 N heads h per attention layer run (default 0: left out)\n"
    "Output:\n"
    "      --flatten K         also the ladder (E, D, L) -> (2E, D/2, 2L), K steps, with tied and\n"
    "                          per-loop attention side by side\n"
    "      --mup-base-width W  muP multipliers for a base model of width W: init variance and\n"
    "                          learning rate of hidden and output weights x W / d\n"
    "      --format FMT        table (default), csv (the sweep row alone, or the ladder with\n"
    "                          --flatten) or json\n"
    "  -h, --help              show this help\n";

enum {
    OPT_D_MODEL = OPT_COMMAND_FIRST,
    OPT_D_FF,
    OPT_D_EXPERT,
    OPT_TOP_K,
    OPT_VOCAB,
    OPT_EXPERTS,
    OPT_LAYERS,
    OPT_LOOPS,
    OPT_HEAD_LAYERS,
    OPT_TAIL_LAYERS,
    OPT_HEAD_EXPERTS,
    OPT_TAIL_EXPERTS,
    OPT_HEADS,
    OPT_KV_HEADS,
    OPT_HEAD_DIM,
    OPT_CONTEXT,
    OPT_ATTENTION,
    OPT_EMBEDDINGS,
    OPT_NORM_PARAMS,
    OPT_SHAPE,
    OPT_FLATTEN,
    OPT_MUP
};

/* The integer options and the field each sets, with its smallest value. */
static const struct {
    int opt;
    size_t offset;
    long min;
} INT_OPTIONS[] = {
    {OPT_D_MODEL, offsetof(ls_shape_spec, d_model), 1},       {OPT_D_FF, offsetof(ls_shape_spec, d_ff), 1},
    {OPT_D_EXPERT, offsetof(ls_shape_spec, d_expert), 1},     {OPT_TOP_K, offsetof(ls_shape_spec, top_k), 1},
    {OPT_VOCAB, offsetof(ls_shape_spec, vocab), 1},           {OPT_EXPERTS, offsetof(ls_shape_spec, experts), 1},
    {OPT_LAYERS, offsetof(ls_shape_spec, layers), 1},         {OPT_LOOPS, offsetof(ls_shape_spec, loops), 1},
    {OPT_HEAD_LAYERS, offsetof(ls_shape_spec, head_layers), 0}, {OPT_TAIL_LAYERS, offsetof(ls_shape_spec, tail_layers), 0},
    {OPT_HEAD_EXPERTS, offsetof(ls_shape_spec, head_experts), 1},
    {OPT_TAIL_EXPERTS, offsetof(ls_shape_spec, tail_experts), 1},
    {OPT_HEADS, offsetof(ls_shape_spec, heads), 1},           {OPT_KV_HEADS, offsetof(ls_shape_spec, kv_heads), 1},
    {OPT_HEAD_DIM, offsetof(ls_shape_spec, head_dim), 1},     {OPT_CONTEXT, offsetof(ls_shape_spec, context), 0},
};

typedef struct shape_options {
    const char *path;
    long flatten;
    double mup_base;
    cli_format format;
} shape_options;

/* 553.7M: four significant digits and a suffix, for tables. */
static const char *human(char *buf, size_t size, double x)
{
    static const char *const suffix[] = {"", "K", "M", "B", "T", "P", "E"};
    int i = 0;
    while (fabs(x) >= 1000 && i < 6) {
        x /= 1000;
        i++;
    }
    snprintf(buf, size, i ? "%.4g%s" : "%.0f", x, suffix[i]);
    return buf;
}

static const char *u64(char *buf, size_t size, uint64_t x)
{
    snprintf(buf, size, "%llu", (unsigned long long)x);
    return buf;
}

typedef struct part_row {
    const char *name;
    const ls_shape_count *count;
} part_row;

/* The rows of the parameter table, in order; rows that are all zero are
 * left out by the printers. */
static size_t part_rows(const ls_shape_spec *s, const ls_shape_counts *c, part_row *rows)
{
    static const char *const kinds[LS_SHAPE_NKINDS] = {"attention", "experts", "routers", "norms"};
    static char names[3][LS_SHAPE_NKINDS][32];
    static const char *const places[3] = {"block", "head", "tail"};
    const ls_shape_count *parts[3] = {c->block, c->head, c->tail};
    const long experts[3] = {s->experts, s->head_experts, s->tail_experts};
    size_t n = 0;
    for (int p = 0; p < 3; p++)
        for (int k = 0; k < LS_SHAPE_NKINDS; k++) {
            /* a layer with one expert is a dense FFN */
            const char *kind = k == LS_SHAPE_FFN && experts[p] == 1 ? "FFN" : kinds[k];
            snprintf(names[p][k], sizeof names[p][k], "%s %s", places[p], kind);
            rows[n++] = (part_row){names[p][k], &parts[p][k]};
        }
    rows[n++] = (part_row){"final norm", &c->final_norm};
    rows[n++] = (part_row){"non-embedding", &c->non_embedding};
    rows[n++] = (part_row){"embedding", &c->embedding};
    rows[n++] = (part_row){"LM head", &c->lm_head};
    rows[n++] = (part_row){"total", &c->total};
    return n;
}

static int is_zero(const ls_shape_count *x) { return x->stored == 0 && x->once == 0 && x->all == 0; }

/* One step of the flattening ladder, counted with tied and with per-loop
 * attention. */
typedef struct ladder_step {
    ls_shape_spec shape;
    ls_shape_counts tied, per_loop;
} ladder_step;

static int ladder_compute(const ls_shape_spec *s, long steps, ladder_step **out)
{
    ladder_step *st = malloc(((size_t)steps + 1) * sizeof *st);
    if (!st) {
        cli_error("shape", "out of memory");
        return ls_exit_status(LS_ERR_INTERNAL);
    }
    for (long i = 0; i <= steps; i++) {
        ls_error err;
        ls_shape_spec tied, untied;
        if (ls_shape_flatten(s, (int)i, &st[i].shape, &err) == 0) {
            tied = untied = st[i].shape;
            tied.attention = LS_SHAPE_ATTENTION_TIED;
            untied.attention = LS_SHAPE_ATTENTION_PER_LOOP;
            if (ls_shape_count_params(&tied, &st[i].tied, &err) == 0 &&
                ls_shape_count_params(&untied, &st[i].per_loop, &err) == 0)
                continue;
        }
        free(st);
        return cli_fail("shape", &err);
    }
    *out = st;
    return 0;
}

/* The unit that shows x with at most four digits before the point. */
static double unit_for(double x, const char **suffix)
{
    static const char *const names[] = {"", "_K", "_M", "_B", "_T", "_P", "_E"};
    double unit = 1;
    int i = 0;
    while (x >= 10000 * unit && i < 6) {
        unit *= 1000;
        i++;
    }
    *suffix = names[i];
    return unit;
}

/* The ladder as a table: exact integers for CSV; for people, parameters
 * and FLOPs in a unit named in the header (total_tied_M). */
static int ladder_table(const ls_shape_spec *s, long steps, int exact, cli_table **out)
{
    enum { NCOLS = 17, NBIG = 6 };
    static const char *const names[NCOLS] = {
        "step",         "E",         "D",             "L",          "E_real",         "E_comp", "D_eff",
        "E_eq",         "log10_routes", "sets_tied", "sets_per_loop", "total_tied", "total_per_loop", "n_act",
        "n_loop",       "n_unroll",  "flops_per_token"};
    ladder_step *st = NULL;
    int status = ladder_compute(s, steps, &st);
    if (status != 0)
        return status;
    size_t nsteps = (size_t)steps + 1;
    double max_params = 0, max_flops = 0;
    for (size_t i = 0; i < nsteps; i++) {
        max_params = fmax(max_params, (double)st[i].per_loop.total.stored);
        max_flops = fmax(max_flops, (double)st[i].tied.flops_total);
    }
    cli_table *t = NULL;
    const char *psuffix = "", *fsuffix = "";
    double punit = exact ? 1 : unit_for(max_params, &psuffix);
    double funit = exact ? 1 : unit_for(max_flops, &fsuffix);
    char headers[NCOLS][40];
    const char *hp[NCOLS];
    for (int j = 0; j < NCOLS; j++) {
        snprintf(headers[j], sizeof headers[j], "%s%s", names[j], j < 11 ? "" : j < 16 ? psuffix : fsuffix);
        hp[j] = headers[j];
    }
    if (!(t = cli_table_new(NCOLS, hp))) {
        cli_error("shape", "out of memory");
        status = ls_exit_status(LS_ERR_INTERNAL);
    }
    for (size_t i = 0; status == 0 && i < nsteps; i++) {
        const ls_shape_counts *ct = &st[i].tied, *cu = &st[i].per_loop;
        char c[NCOLS][32];
        snprintf(c[0], 32, "%zu", i);
        snprintf(c[1], 32, "%ld", st[i].shape.experts);
        snprintf(c[2], 32, "%ld", st[i].shape.layers);
        snprintf(c[3], 32, "%ld", st[i].shape.loops);
        u64(c[4], 32, ct->e_real);
        u64(c[5], 32, ct->e_comp);
        u64(c[6], 32, ct->d_eff);
        u64(c[7], 32, ct->e_eq);
        if (exact)
            ls_numtext_format_double(c[8], ct->log10_routes);
        else
            cli_fixed(c[8], 32, ct->log10_routes, 2);
        u64(c[9], 32, ct->attention_sets);
        u64(c[10], 32, cu->attention_sets);
        const uint64_t big[NBIG] = {ct->total.stored, cu->total.stored, ct->non_embedding.once,
                                    ct->n_loop,       ct->non_embedding.all, ct->flops_total};
        for (int j = 0; j < NBIG; j++) {
            if (exact)
                u64(c[11 + j], 32, big[j]);
            else
                snprintf(c[11 + j], 32, "%.4g", (double)big[j] / (j < 5 ? punit : funit));
        }
        const char *cells[NCOLS];
        for (int j = 0; j < NCOLS; j++)
            cells[j] = c[j];
        if (cli_table_add(t, cells) != 0) {
            cli_error("shape", "out of memory");
            status = ls_exit_status(LS_ERR_INTERNAL);
        }
    }
    free(st);
    if (status != 0) {
        cli_table_free(t);
        return status;
    }
    *out = t;
    return 0;
}

static int print_json(const ls_shape_spec *s, const ls_shape_counts *c, const shape_options *o)
{
    jsonw w;
    ls_jsonw_init(&w);
    ls_jsonw_object_begin(&w, NULL);
    ls_shape_spec_write_json(&w, "shape", s);
    ls_jsonw_object_begin(&w, "identities");
    ls_jsonw_integer(&w, "E_real", (long long)c->e_real);
    ls_jsonw_integer(&w, "E_comp", (long long)c->e_comp);
    ls_jsonw_integer(&w, "D_eff", (long long)c->d_eff);
    ls_jsonw_integer(&w, "E_eq", (long long)c->e_eq);
    ls_jsonw_number(&w, "log10_routes", c->log10_routes);
    ls_jsonw_object_end(&w);
    ls_jsonw_object_begin(&w, "sizes");
    ls_jsonw_integer(&w, "attention_set", (long long)c->attention_set);
    ls_jsonw_integer(&w, "attention_sets", (long long)c->attention_sets);
    ls_jsonw_integer(&w, "expert", (long long)c->expert);
    ls_jsonw_integer(&w, "head_expert", (long long)c->head_expert);
    ls_jsonw_integer(&w, "tail_expert", (long long)c->tail_expert);
    ls_jsonw_object_end(&w);
    part_row rows[20];
    size_t n = part_rows(s, c, rows);
    ls_jsonw_array_begin(&w, "params", 0);
    for (size_t i = 0; i < n; i++) {
        if (is_zero(rows[i].count))
            continue;
        ls_jsonw_object_begin(&w, NULL);
        ls_jsonw_string(&w, "part", rows[i].name);
        ls_jsonw_integer(&w, "stored", (long long)rows[i].count->stored);
        ls_jsonw_integer(&w, "active_once", (long long)rows[i].count->once);
        ls_jsonw_integer(&w, "active_all_loops", (long long)rows[i].count->all);
        ls_jsonw_object_end(&w);
    }
    ls_jsonw_array_end(&w);
    ls_jsonw_object_begin(&w, "sweep_row");
    ls_jsonw_integer(&w, "n_act", (long long)c->non_embedding.once);
    ls_jsonw_integer(&w, "n_total", (long long)c->non_embedding.stored);
    ls_jsonw_integer(&w, "n_loop", (long long)c->n_loop);
    ls_jsonw_integer(&w, "R", s->loops);
    ls_jsonw_integer(&w, "E", s->experts);
    ls_jsonw_integer(&w, "k", s->top_k);
    ls_jsonw_object_end(&w);
    ls_jsonw_integer(&w, "n_unroll", (long long)c->non_embedding.all);
    ls_jsonw_object_begin(&w, "flops_per_token");
    ls_jsonw_integer(&w, "matmul", (long long)c->flops_matmul);
    ls_jsonw_integer(&w, "attention", (long long)c->flops_attention);
    ls_jsonw_integer(&w, "total", (long long)c->flops_total);
    ls_jsonw_integer(&w, "prelude", (long long)c->flops_prelude);
    ls_jsonw_integer(&w, "loop", (long long)c->flops_loop);
    ls_jsonw_integer(&w, "coda", (long long)c->flops_coda);
    ls_jsonw_object_end(&w);
    ls_jsonw_object_begin(&w, "inference_flops_per_token_by_convention");
    ls_law_point x = ls_shape_point(s, c);
    for (int k = 0; k < LS_LAW_NFLOPS; k++) {
        ls_law_flops conv;
        ls_shape_flops(s, (ls_law_flops_kind)k, &conv);
        ls_error err;
        if (ls_law_flops_check(&conv, &err) == 0)
            ls_jsonw_number(&w, ls_law_flops_name((ls_law_flops_kind)k), ls_law_inference_flops_as(&conv, &x));
    }
    ls_jsonw_object_end(&w);
    if (o->mup_base > 0) {
        double m = o->mup_base / (double)s->d_model;
        ls_jsonw_object_begin(&w, "mup");
        ls_jsonw_number(&w, "base_width", o->mup_base);
        ls_jsonw_number(&w, "width_ratio", 1.0 / m);
        ls_jsonw_number(&w, "hidden_init_variance", m);
        ls_jsonw_number(&w, "hidden_init_std", sqrt(m));
        ls_jsonw_number(&w, "hidden_learning_rate", m);
        ls_jsonw_string(&w, "hidden", s->embeddings == LS_SHAPE_EMBEDDINGS_TIED ? "attention, experts, routers"
                                                                          : "attention, experts, routers, LM head");
        ls_jsonw_string(&w, "unchanged", "embedding, norms");
        ls_jsonw_object_end(&w);
    }
    if (o->flatten > 0) {
        ladder_step *steps = NULL;
        int status = ladder_compute(s, o->flatten, &steps);
        if (status != 0) {
            ls_jsonw_discard(&w);
            return status;
        }
        ls_jsonw_array_begin(&w, "ladder", 0);
        for (long i = 0; i <= o->flatten; i++) {
            const ladder_step *st = &steps[i];
            const ls_shape_counts *ct = &st->tied, *cu = &st->per_loop;
            ls_jsonw_object_begin(&w, NULL);
            ls_jsonw_integer(&w, "step", i);
            ls_jsonw_integer(&w, "E", st->shape.experts);
            ls_jsonw_integer(&w, "D", st->shape.layers);
            ls_jsonw_integer(&w, "L", st->shape.loops);
            ls_jsonw_integer(&w, "E_real", (long long)ct->e_real);
            ls_jsonw_integer(&w, "E_comp", (long long)ct->e_comp);
            ls_jsonw_integer(&w, "D_eff", (long long)ct->d_eff);
            ls_jsonw_integer(&w, "E_eq", (long long)ct->e_eq);
            ls_jsonw_number(&w, "log10_routes", ct->log10_routes);
            ls_jsonw_integer(&w, "attention_sets_tied", (long long)ct->attention_sets);
            ls_jsonw_integer(&w, "attention_sets_per_loop", (long long)cu->attention_sets);
            ls_jsonw_integer(&w, "n_total_tied", (long long)ct->non_embedding.stored);
            ls_jsonw_integer(&w, "n_total_per_loop", (long long)cu->non_embedding.stored);
            ls_jsonw_integer(&w, "total_tied", (long long)ct->total.stored);
            ls_jsonw_integer(&w, "total_per_loop", (long long)cu->total.stored);
            ls_jsonw_integer(&w, "n_act", (long long)ct->non_embedding.once);
            ls_jsonw_integer(&w, "n_loop", (long long)ct->n_loop);
            ls_jsonw_integer(&w, "n_unroll", (long long)ct->non_embedding.all);
            ls_jsonw_integer(&w, "flops_per_token", (long long)ct->flops_total);
            ls_jsonw_object_end(&w);
        }
        ls_jsonw_array_end(&w);
        free(steps);
    }
    ls_jsonw_object_end(&w);
    return cli_print_json("shape", &w);
}

/* What fit, solve, isoflop, simulate and predict charge a token of this
 * shape under each FLOP convention (docs/flops.md): the attention rows need
 * a context. */
static void print_conventions(const ls_shape_spec *s, const ls_shape_counts *c)
{
    ls_law_point x = ls_shape_point(s, c);
    printf("\nFLOPs per token by convention (inference 2x, training 6x the forward multiply-adds");
    printf(s->context > 0 ? "; n_ctx %ld)\n" : "; --context N adds the attention rows)\n", s->context);
    printf("  %-15s %15s %15s\n", "convention", "inference", "training");
    for (int k = 0; k < LS_LAW_NFLOPS; k++) {
        ls_law_flops conv;
        ls_shape_flops(s, (ls_law_flops_kind)k, &conv);
        ls_error err;
        if (ls_law_flops_check(&conv, &err) != 0)
            continue;
        double inference = ls_law_inference_flops_as(&conv, &x);
        printf("  %-15s %15.15g %15.15g\n", ls_law_flops_name((ls_law_flops_kind)k), inference, 3.0 * inference);
    }
}

static int print_table(const ls_shape_spec *s, const ls_shape_counts *c, const shape_options *o)
{
    char a[32], b[32], d[32];
    printf("Shape (E, D, L) = (%ld, %ld, %ld), top-%ld, d_model %ld, d_ff %ld", s->experts, s->layers, s->loops,
           s->top_k, s->d_model, s->d_ff);
    if (s->experts > 1 || s->head_experts > 1 || s->tail_experts > 1)
        printf(" (experts %ld wide)", s->d_expert);
    printf(", vocab %ld\n", s->vocab);
    printf("  attention %s, %s set%s of %s in the block", ls_shape_attention_name(s->attention),
           u64(a, 32, c->attention_sets), c->attention_sets == 1 ? "" : "s", u64(b, 32, c->attention_set));
    if (s->heads != LS_SHAPE_UNSET)
        printf(" (%ld heads, %ld key/value heads of %ld)", s->heads, s->kv_heads, s->head_dim);
    printf("; embeddings %s; norms %s\n", ls_shape_embeddings_name(s->embeddings),
           s->norm_params ? "with gains" : "without parameters");
    if (s->head_layers > 0 || s->tail_layers > 0)
        printf("  head %ld layer%s x %ld expert%s, tail %ld layer%s x %ld expert%s, each run once\n", s->head_layers,
               s->head_layers == 1 ? "" : "s", s->head_experts, s->head_experts == 1 ? "" : "s", s->tail_layers,
               s->tail_layers == 1 ? "" : "s", s->tail_experts, s->tail_experts == 1 ? "" : "s");
    printf("\nAccounting identities (the block)\n");
    printf("  E_real = E D          %s\n", u64(a, 32, c->e_real));
    printf("  E_comp = k D L        %s\n", u64(a, 32, c->e_comp));
    printf("  D_eff  = D L          %s\n", u64(a, 32, c->d_eff));
    printf("  E_eq   = E D L        %s\n", u64(a, 32, c->e_eq));
    char routes[32];
    printf("  log10 C(E,k)^(D L)    %s\n", cli_fixed(routes, sizeof routes, c->log10_routes, 4));

    printf("\nParameters: stored; active per token, with the block run once and L = %ld time%s\n", s->loops,
           s->loops == 1 ? "" : "s");
    static const char *const headers[] = {"part", "stored", "active_once", "active_all_loops"};
    cli_table *t = cli_table_new(4, headers);
    part_row rows[20];
    size_t n = part_rows(s, c, rows);
    for (size_t i = 0; t && i < n; i++) {
        if (is_zero(rows[i].count))
            continue;
        char cells[3][32];
        const char *row[4] = {rows[i].name, u64(cells[0], 32, rows[i].count->stored),
                              u64(cells[1], 32, rows[i].count->once), u64(cells[2], 32, rows[i].count->all)};
        if (cli_table_add(t, row) != 0) {
            cli_table_free(t);
            t = NULL;
        }
    }
    if (!t) {
        cli_error("shape", "out of memory");
        return ls_exit_status(LS_ERR_INTERNAL);
    }
    cli_table_print(t, stdout, CLI_FORMAT_TABLE);
    cli_table_free(t);
    char e[32];
    printf("  stored %s (non-embedding %s); active per token %s (non-embedding, N_unroll: %s)\n",
           human(a, 32, (double)c->total.stored), human(b, 32, (double)c->non_embedding.stored),
           human(d, 32, (double)c->total.all), human(e, 32, (double)c->non_embedding.all));

    printf("\nSweep row (non-embedding, R = L)\n");
    printf("  n_act,n_total,n_loop,R,E,k\n  %s,%s,%s,%ld,%ld,%ld\n", u64(a, 32, c->non_embedding.once),
           u64(b, 32, c->non_embedding.stored), u64(d, 32, c->n_loop), s->loops, s->experts, s->top_k);

    printf("\nFLOPs per token\n");
    printf("  %-34s %s\n", "2 x active parameters, all loops", u64(a, 32, c->flops_matmul));
    if (s->context > 0) {
        snprintf(b, sizeof b, "attention scores over %ld", s->context);
        printf("  %-34s %s\n", b, u64(a, 32, c->flops_attention));
    }
    printf("  %-34s %s (%s)\n", "total", u64(a, 32, c->flops_total), human(b, 32, (double)c->flops_total));
    printf("  %-34s %s, %s, %s\n", "prelude, one loop, coda", u64(a, 32, c->flops_prelude),
           u64(b, 32, c->flops_loop), u64(d, 32, c->flops_coda));
    print_conventions(s, c);

    if (o->mup_base > 0) {
        double m = o->mup_base / (double)s->d_model;
        printf("\nmuP from base width %s to %ld (width ratio %.6g)\n", ls_numtext_format_double(a, o->mup_base),
               s->d_model, 1 / m);
        printf("  attention, experts, routers%s: init variance x %.6g (std x %.6g), learning rate x %.6g\n",
               s->embeddings == LS_SHAPE_EMBEDDINGS_TIED ? "" : ", LM head", m, sqrt(m), m);
        printf("  embedding%s and norms: unchanged; looped layers need no extra factor\n",
               s->embeddings == LS_SHAPE_EMBEDDINGS_TIED ? " (tied to the LM head)" : "");
    }
    if (o->flatten > 0) {
        printf("\nFlattening ladder (E, D, L) -> (2E, D/2, 2L): E_real, E_comp, D_eff fixed, E_eq doubles\n");
        cli_table *lt = NULL;
        int status = ladder_table(s, o->flatten, 0, &lt);
        if (status != 0)
            return status;
        cli_table_print(lt, stdout, CLI_FORMAT_TABLE);
        cli_table_free(lt);
    }
    return 0;
}

static int parse_mode(const char *cmd, const char *option, const char *arg, const char *a, const char *b, long *out)
{
    if (strcmp(arg, a) == 0)
        *out = 0;
    else if (strcmp(arg, b) == 0)
        *out = 1;
    else
        return cli_usage_error(cmd, "%s: '%s' is not one of %s, %s", option, arg, a, b);
    return 0;
}

int cmd_shape(int argc, char **argv)
{
    const char *cmd = "shape";
    static const struct option longopts[] = {
        CLI_HELP_OPTION,
        {"d-model", required_argument, NULL, OPT_D_MODEL},
        {"d-ff", required_argument, NULL, OPT_D_FF},
        {"d-expert", required_argument, NULL, OPT_D_EXPERT},
        {"top-k", required_argument, NULL, OPT_TOP_K},
        {"vocab", required_argument, NULL, OPT_VOCAB},
        {"experts", required_argument, NULL, OPT_EXPERTS},
        {"layers", required_argument, NULL, OPT_LAYERS},
        {"loops", required_argument, NULL, OPT_LOOPS},
        {"head-layers", required_argument, NULL, OPT_HEAD_LAYERS},
        {"tail-layers", required_argument, NULL, OPT_TAIL_LAYERS},
        {"head-experts", required_argument, NULL, OPT_HEAD_EXPERTS},
        {"tail-experts", required_argument, NULL, OPT_TAIL_EXPERTS},
        {"heads", required_argument, NULL, OPT_HEADS},
        {"kv-heads", required_argument, NULL, OPT_KV_HEADS},
        {"head-dim", required_argument, NULL, OPT_HEAD_DIM},
        {"context", required_argument, NULL, OPT_CONTEXT},
        {"attention", required_argument, NULL, OPT_ATTENTION},
        {"embeddings", required_argument, NULL, OPT_EMBEDDINGS},
        {"norm-params", no_argument, NULL, OPT_NORM_PARAMS},
        {"shape", required_argument, NULL, OPT_SHAPE},
        {"flatten", required_argument, NULL, OPT_FLATTEN},
        {"mup-base-width", required_argument, NULL, OPT_MUP},
        {"format", required_argument, NULL, OPT_FORMAT},
        {NULL, 0, NULL, 0}};
    shape_options o = {NULL, 0, 0, CLI_FORMAT_TABLE};
    ls_shape_spec given, s;
    ls_shape_spec_unset(&given);
    ls_shape_spec_unset(&s);
    int status = 0, opt, index = 0;
    opterr = 0;
    while (status == 0 && (opt = cli_getopt(argc, argv, ":h", longopts, &index, NULL)) != -1) {
        size_t i = 0;
        while (i < sizeof INT_OPTIONS / sizeof *INT_OPTIONS && INT_OPTIONS[i].opt != opt)
            i++;
        if (i < sizeof INT_OPTIONS / sizeof *INT_OPTIONS) {
            char name[32];
            snprintf(name, sizeof name, "--%s", longopts[index].name);
            long *target = (long *)((char *)&given + INT_OPTIONS[i].offset);
            status = cli_parse_long(cmd, name, optarg, INT_OPTIONS[i].min, 1000000000000L, target);
            continue;
        }
        switch (opt) {
        case 'h': return cli_help(USAGE);
        case OPT_ATTENTION: status = parse_mode(cmd, "--attention", optarg, "tied", "per-loop", &given.attention); break;
        case OPT_EMBEDDINGS:
            status = parse_mode(cmd, "--embeddings", optarg, "untied", "tied", &given.embeddings);
            break;
        case OPT_NORM_PARAMS: given.norm_params = 1; break;
        case OPT_SHAPE: o.path = optarg; break;
        case OPT_FLATTEN: status = cli_parse_long(cmd, "--flatten", optarg, 1, 30, &o.flatten); break;
        case OPT_MUP: status = cli_parse_positive(cmd, "--mup-base-width", optarg, &o.mup_base); break;
        case OPT_FORMAT:
            status = cli_parse_format(cmd, optarg, 1u << CLI_FORMAT_TABLE | 1u << CLI_FORMAT_CSV | 1u << CLI_FORMAT_JSON,
                                      &o.format);
            break;
        default: status = cli_option_error(cmd, opt, argv); break;
        }
    }
    if (status != 0)
        return status;
    if (optind < argc)
        return cli_usage_error(cmd, "unexpected argument '%s'", argv[optind]);
    cli_file_input("--shape", o.path);
    if ((status = cli_files_check(cmd)) != 0)
        return status;
    ls_error err;
    if (o.path && ls_shape_spec_read(o.path, &s, &err) != 0)
        return cli_fail(cmd, &err);
    ls_shape_spec_merge(&s, &given);
    ls_shape_counts c;
    if (ls_shape_resolve(&s, &err) != 0 || ls_shape_count_params(&s, &c, &err) != 0) {
        if (o.path) { /* the fault may lie in the file: bad data, named */
            ls_error_prefix(&err, "%s", o.path);
            err.code = LS_ERR_DATA;
        }
        return cli_fail(cmd, &err);
    }
    if (o.flatten > 0) { /* check every step before printing anything */
        ls_shape_spec last;
        if (ls_shape_flatten(&s, (int)o.flatten, &last, &err) != 0)
            return cli_fail(cmd, &err);
    }
    if (o.format == CLI_FORMAT_JSON)
        return print_json(&s, &c, &o);
    if (o.format == CLI_FORMAT_CSV) {
        if (o.flatten == 0) {
            printf("n_act,n_total,n_loop,R,E,k\n%llu,%llu,%llu,%ld,%ld,%ld\n",
                   (unsigned long long)c.non_embedding.once, (unsigned long long)c.non_embedding.stored,
                   (unsigned long long)c.n_loop, s.loops, s.experts, s.top_k);
            return 0;
        }
        cli_table *t = NULL;
        status = ladder_table(&s, o.flatten, 1, &t);
        if (status == 0) {
            cli_table_print(t, stdout, CLI_FORMAT_CSV);
            cli_table_free(t);
        }
        return status;
    }
    return print_table(&s, &c, &o);
}
