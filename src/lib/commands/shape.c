/*
 * shape — parameter and FLOP accounting of a looped MoE shape (Foil: How to
 * Loop MoE: Flatten the Experts, Untie the Attention), the flattening
 * ladder, muP multipliers (Sparse Layers are Critical to Scaling Looped
 * Language Models).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands_internal.h"
#include "loopscale/shape.h"
#include "numtext_internal.h"
#include "shape_internal.h"

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

#define NPARTS (3 * LS_SHAPE_NKINDS + 5)
typedef char part_names[3][LS_SHAPE_NKINDS][32];

/* The rows of the parameter table, in order, named in `names`; rows that
 * are all zero are left out by the printers. */
static size_t part_rows(const ls_shape_spec *s, const ls_shape_counts *c, part_names names, part_row *rows)
{
    static const char *const kinds[LS_SHAPE_NKINDS] = {"attention", "experts", "routers", "norms", "injection"};
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

/* Steps 0..steps of the ladder, or NULL with an error (a D that cannot be
 * halved so often, counts that overflow). */
static ladder_step *ladder_compute(const ls_shape_spec *s, long steps, ls_error *err)
{
    ladder_step *st = malloc(((size_t)steps + 1) * sizeof *st);
    if (!st) {
        res_oom(err);
        return NULL;
    }
    for (long i = 0; i <= steps; i++) {
        ls_shape_spec tied, untied;
        if (ls_shape_flatten(s, (int)i, &st[i].shape, err) == 0) {
            tied = untied = st[i].shape;
            tied.attention = LS_SHAPE_ATTENTION_TIED;
            untied.attention = LS_SHAPE_ATTENTION_PER_LOOP;
            if (ls_shape_count_params(&tied, &st[i].tied, err) == 0 &&
                ls_shape_count_params(&untied, &st[i].per_loop, err) == 0)
                continue;
        }
        free(st);
        return NULL;
    }
    return st;
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

/* The ladder as a table: exact integers for programs; for people,
 * parameters and FLOPs in a unit named in the header (total_tied_M). */
static text_table *ladder_table(const ladder_step *st, long steps, int exact)
{
    enum { NCOLS = 17, NBIG = 6 };
    static const char *const names[NCOLS] = {
        "step",         "E",         "D",             "L",          "E_real",         "E_comp", "D_eff",
        "E_eq",         "log10_routes", "sets_tied", "sets_per_loop", "total_tied", "total_per_loop", "n_act",
        "n_loop",       "n_unroll",  "flops_per_token"};
    size_t nsteps = (size_t)steps + 1;
    double max_params = 0, max_flops = 0;
    for (size_t i = 0; i < nsteps; i++) {
        max_params = fmax(max_params, (double)st[i].per_loop.total.stored);
        max_flops = fmax(max_flops, (double)st[i].tied.flops_total);
    }
    const char *psuffix = "", *fsuffix = "";
    double punit = exact ? 1 : unit_for(max_params, &psuffix);
    double funit = exact ? 1 : unit_for(max_flops, &fsuffix);
    char headers[NCOLS][40];
    const char *hp[NCOLS];
    for (int j = 0; j < NCOLS; j++) {
        snprintf(headers[j], sizeof headers[j], "%s%s", names[j], j < 11 ? "" : j < 16 ? psuffix : fsuffix);
        hp[j] = headers[j];
    }
    text_table *t = text_table_new(NCOLS, hp);
    for (size_t i = 0; t && i < nsteps; i++) {
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
            text_fixed(c[8], 32, ct->log10_routes, 2);
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
        if (text_table_add(t, cells) != 0) {
            text_table_free(t);
            t = NULL;
        }
    }
    return t;
}

/* The sweep row: what a sweep file needs of this shape. */
static text_table *sweep_row_table(const ls_shape_spec *s, const ls_shape_counts *c)
{
    static const char *const headers[] = {"n_act", "n_total", "n_loop", "R", "E", "k"};
    char cells[6][32];
    u64(cells[0], 32, c->non_embedding.once);
    u64(cells[1], 32, c->non_embedding.stored);
    u64(cells[2], 32, c->n_loop);
    snprintf(cells[3], 32, "%ld", s->loops);
    snprintf(cells[4], 32, "%ld", s->experts);
    snprintf(cells[5], 32, "%ld", s->top_k);
    const char *row[6] = {cells[0], cells[1], cells[2], cells[3], cells[4], cells[5]};
    text_table *t = text_table_new(6, headers);
    if (t && text_table_add(t, row) != 0) {
        text_table_free(t);
        t = NULL;
    }
    return t;
}

static void write_json(jsonw *w, const ls_shape_spec *s, const ls_shape_counts *c, double mup_base,
                       const ladder_step *ladder, long flatten)
{
    ls_jsonw_object_begin(w, NULL);
    ls_jsonw_string(w, "format", LS_SHAPE_FORMAT);
    ls_shape_spec_write_json(w, "shape", s);
    ls_jsonw_object_begin(w, "identities");
    ls_jsonw_integer(w, "E_real", (long long)c->e_real);
    ls_jsonw_integer(w, "E_comp", (long long)c->e_comp);
    ls_jsonw_integer(w, "D_eff", (long long)c->d_eff);
    ls_jsonw_integer(w, "E_eq", (long long)c->e_eq);
    ls_jsonw_number(w, "log10_routes", c->log10_routes);
    ls_jsonw_object_end(w);
    ls_jsonw_object_begin(w, "sizes");
    ls_jsonw_integer(w, "attention_set", (long long)c->attention_set);
    ls_jsonw_integer(w, "attention_sets", (long long)c->attention_sets);
    ls_jsonw_integer(w, "expert", (long long)c->expert);
    ls_jsonw_integer(w, "head_expert", (long long)c->head_expert);
    ls_jsonw_integer(w, "tail_expert", (long long)c->tail_expert);
    ls_jsonw_object_end(w);
    part_names names;
    part_row rows[NPARTS];
    size_t n = part_rows(s, c, names, rows);
    ls_jsonw_array_begin(w, "params", 0);
    for (size_t i = 0; i < n; i++) {
        if (is_zero(rows[i].count))
            continue;
        ls_jsonw_object_begin(w, NULL);
        ls_jsonw_string(w, "part", rows[i].name);
        ls_jsonw_integer(w, "stored", (long long)rows[i].count->stored);
        ls_jsonw_integer(w, "active_once", (long long)rows[i].count->once);
        ls_jsonw_integer(w, "active_all_loops", (long long)rows[i].count->all);
        ls_jsonw_object_end(w);
    }
    ls_jsonw_array_end(w);
    ls_jsonw_object_begin(w, "sweep_row");
    ls_jsonw_integer(w, "n_act", (long long)c->non_embedding.once);
    ls_jsonw_integer(w, "n_total", (long long)c->non_embedding.stored);
    ls_jsonw_integer(w, "n_loop", (long long)c->n_loop);
    ls_jsonw_integer(w, "R", s->loops);
    ls_jsonw_integer(w, "E", s->experts);
    ls_jsonw_integer(w, "k", s->top_k);
    ls_jsonw_object_end(w);
    ls_jsonw_integer(w, "n_unroll", (long long)c->non_embedding.all);
    ls_jsonw_object_begin(w, "flops_per_token");
    ls_jsonw_integer(w, "matmul", (long long)c->flops_matmul);
    ls_jsonw_integer(w, "attention", (long long)c->flops_attention);
    ls_jsonw_integer(w, "total", (long long)c->flops_total);
    ls_jsonw_integer(w, "prelude", (long long)c->flops_prelude);
    ls_jsonw_integer(w, "loop", (long long)c->flops_loop);
    ls_jsonw_integer(w, "coda", (long long)c->flops_coda);
    ls_jsonw_object_end(w);
    ls_jsonw_object_begin(w, "inference_flops_per_token_by_convention");
    ls_law_point x = ls_shape_point(s, c);
    for (int k = 0; k < LS_LAW_NFLOPS; k++) {
        ls_law_flops conv;
        ls_shape_flops(s, (ls_law_flops_kind)k, &conv);
        ls_error why;
        if (ls_law_flops_check(&conv, &why) == 0)
            ls_jsonw_number(w, ls_law_flops_name((ls_law_flops_kind)k), ls_law_inference_flops_as(&conv, &x));
    }
    ls_jsonw_object_end(w);
    if (mup_base > 0) {
        double m = mup_base / (double)s->d_model;
        ls_jsonw_object_begin(w, "mup");
        ls_jsonw_number(w, "base_width", mup_base);
        ls_jsonw_number(w, "width_ratio", 1.0 / m);
        ls_jsonw_number(w, "hidden_init_variance", m);
        ls_jsonw_number(w, "hidden_init_std", sqrt(m));
        ls_jsonw_number(w, "hidden_learning_rate", m);
        ls_jsonw_string(w, "hidden", s->embeddings == LS_SHAPE_EMBEDDINGS_TIED ? "attention, experts, routers"
                                                                                : "attention, experts, routers, LM head");
        ls_jsonw_string(w, "unchanged", "embedding, norms");
        ls_jsonw_object_end(w);
    }
    if (ladder) {
        ls_jsonw_array_begin(w, "ladder", 0);
        for (long i = 0; i <= flatten; i++) {
            const ladder_step *st = &ladder[i];
            const ls_shape_counts *ct = &st->tied, *cu = &st->per_loop;
            ls_jsonw_object_begin(w, NULL);
            ls_jsonw_integer(w, "step", i);
            ls_jsonw_integer(w, "E", st->shape.experts);
            ls_jsonw_integer(w, "D", st->shape.layers);
            ls_jsonw_integer(w, "L", st->shape.loops);
            ls_jsonw_integer(w, "E_real", (long long)ct->e_real);
            ls_jsonw_integer(w, "E_comp", (long long)ct->e_comp);
            ls_jsonw_integer(w, "D_eff", (long long)ct->d_eff);
            ls_jsonw_integer(w, "E_eq", (long long)ct->e_eq);
            ls_jsonw_number(w, "log10_routes", ct->log10_routes);
            ls_jsonw_integer(w, "attention_sets_tied", (long long)ct->attention_sets);
            ls_jsonw_integer(w, "attention_sets_per_loop", (long long)cu->attention_sets);
            ls_jsonw_integer(w, "n_total_tied", (long long)ct->non_embedding.stored);
            ls_jsonw_integer(w, "n_total_per_loop", (long long)cu->non_embedding.stored);
            ls_jsonw_integer(w, "total_tied", (long long)ct->total.stored);
            ls_jsonw_integer(w, "total_per_loop", (long long)cu->total.stored);
            ls_jsonw_integer(w, "n_act", (long long)ct->non_embedding.once);
            ls_jsonw_integer(w, "n_loop", (long long)ct->n_loop);
            ls_jsonw_integer(w, "n_unroll", (long long)ct->non_embedding.all);
            ls_jsonw_integer(w, "flops_per_token", (long long)ct->flops_total);
            ls_jsonw_object_end(w);
        }
        ls_jsonw_array_end(w);
    }
    ls_jsonw_object_end(w);
}

/* What fit, solve, isoflop, simulate and predict charge a token of this
 * shape under each FLOP convention (docs/flops.md): the attention rows need
 * a context. */
static void print_conventions(strbuf *out, const ls_request *req, const ls_shape_spec *s, const ls_shape_counts *c)
{
    ls_law_point x = ls_shape_point(s, c);
    strbuf_puts(out, "\nFLOPs per token by convention (inference 2x, training 6x the forward multiply-adds");
    if (s->context > 0)
        strbuf_printf(out, "; n_ctx %ld)\n", s->context);
    else
        strbuf_printf(out, "; %s N adds the attention rows)\n", req_flag(req, O_CONTEXT));
    strbuf_printf(out, "  %-15s %15s %15s\n", "convention", "inference", "training");
    for (int k = 0; k < LS_LAW_NFLOPS; k++) {
        ls_law_flops conv;
        ls_shape_flops(s, (ls_law_flops_kind)k, &conv);
        ls_error why;
        if (ls_law_flops_check(&conv, &why) != 0)
            continue;
        double inference = ls_law_inference_flops_as(&conv, &x);
        strbuf_printf(out, "  %-15s %15.15g %15.15g\n", ls_law_flops_name((ls_law_flops_kind)k), inference,
                      3.0 * inference);
    }
}

static void print_report(strbuf *out, const ls_request *req, const ls_shape_spec *s, const ls_shape_counts *c,
                         double mup_base, const ladder_step *ladder, long flatten)
{
    char a[32], b[32], d[32], e[32];
    strbuf_printf(out, "Shape (E, D, L) = (%ld, %ld, %ld), top-%ld, d_model %ld, d_ff %ld", s->experts, s->layers,
                  s->loops, s->top_k, s->d_model, s->d_ff);
    if (s->mlp != LS_SHAPE_MLP_SWIGLU)
        strbuf_printf(out, " (%s)", s->mlp == LS_SHAPE_MLP_GELU ? "GELU" : "ReLU^2");
    if (s->experts > 1 || s->head_experts > 1 || s->tail_experts > 1)
        strbuf_printf(out, s->shared_experts > 0 ? " (experts %ld wide, %ld shared)" : " (experts %ld wide)",
                      s->d_expert, s->shared_experts);
    strbuf_printf(out, ", vocab %ld\n", s->vocab);
    strbuf_printf(out, "  attention %s, %s set%s of %s in the block", ls_shape_attention_name(s->attention),
                  u64(a, 32, c->attention_sets), c->attention_sets == 1 ? "" : "s", u64(b, 32, c->attention_set));
    if (s->heads != LS_SHAPE_UNSET)
        strbuf_printf(out, " (%ld heads, %ld key/value heads of %ld)", s->heads, s->kv_heads, s->head_dim);
    static const char *const norms[] = {"without parameters", "with gains", "with sandwich gains"};
    strbuf_printf(out, "; embeddings %s; norms %s", ls_shape_embeddings_name(s->embeddings), norms[s->norm_params]);
    if (s->embedding_norm || s->loop_norm)
        strbuf_printf(out, " (and one %s%s%s)", s->embedding_norm ? "after the embedding" : "",
                      s->embedding_norm && s->loop_norm ? ", one " : "", s->loop_norm ? "after every loop" : "");
    strbuf_puts(out, "\n");
    if (s->injection != LS_SHAPE_INJECTION_NONE || (s->experts > 1 && s->moe_layers < s->layers)) {
        strbuf_puts(out, " ");
        if (s->experts > 1 && s->moe_layers < s->layers)
            strbuf_printf(out, " experts in %ld of the block's %ld layers%s", s->moe_layers, s->layers,
                          s->injection != LS_SHAPE_INJECTION_NONE ? ";" : "");
        if (s->injection != LS_SHAPE_INJECTION_NONE)
            strbuf_printf(out, " the input %s every loop", s->injection == LS_SHAPE_INJECTION_CONCAT
                                                                ? "concatenated to the state and projected back on"
                                                                : "added to the state on");
        strbuf_puts(out, "\n");
    }
    if (s->head_layers > 0 || s->tail_layers > 0)
        strbuf_printf(out, "  head %ld layer%s x %ld expert%s, tail %ld layer%s x %ld expert%s, each run once\n",
                      s->head_layers, s->head_layers == 1 ? "" : "s", s->head_experts, s->head_experts == 1 ? "" : "s",
                      s->tail_layers, s->tail_layers == 1 ? "" : "s", s->tail_experts,
                      s->tail_experts == 1 ? "" : "s");
    strbuf_puts(out, "\nAccounting identities (the block)\n");
    strbuf_printf(out, "  E_real = E D          %s\n", u64(a, 32, c->e_real));
    strbuf_printf(out, "  E_comp = k D L        %s\n", u64(a, 32, c->e_comp));
    strbuf_printf(out, "  D_eff  = D L          %s\n", u64(a, 32, c->d_eff));
    strbuf_printf(out, "  E_eq   = E D L        %s\n", u64(a, 32, c->e_eq));
    strbuf_printf(out, "  log10 C(E,k)^(D L)    %s\n", text_fixed(a, sizeof a, c->log10_routes, 4));

    strbuf_printf(out, "\nParameters: stored; active per token, with the block run once and L = %ld time%s\n",
                  s->loops, s->loops == 1 ? "" : "s");
    static const char *const headers[] = {"part", "stored", "active_once", "active_all_loops"};
    text_table *t = text_table_new(4, headers);
    part_names names;
    part_row rows[NPARTS];
    size_t n = part_rows(s, c, names, rows);
    for (size_t i = 0; t && i < n; i++) {
        if (is_zero(rows[i].count))
            continue;
        char cells[3][32];
        const char *row[4] = {rows[i].name, u64(cells[0], 32, rows[i].count->stored),
                              u64(cells[1], 32, rows[i].count->once), u64(cells[2], 32, rows[i].count->all)};
        if (text_table_add(t, row) != 0) {
            text_table_free(t);
            t = NULL;
        }
    }
    if (!t) {
        out->failed = 1;
        return;
    }
    text_table_print(t, out, TABLE_ALIGNED);
    text_table_free(t);
    strbuf_printf(out, "  stored %s (non-embedding %s); active per token %s (non-embedding, N_unroll: %s)\n",
                  human(a, 32, (double)c->total.stored), human(b, 32, (double)c->non_embedding.stored),
                  human(d, 32, (double)c->total.all), human(e, 32, (double)c->non_embedding.all));

    strbuf_puts(out, "\nSweep row (non-embedding, R = L)\n");
    strbuf_printf(out, "  n_act,n_total,n_loop,R,E,k\n  %s,%s,%s,%ld,%ld,%ld\n", u64(a, 32, c->non_embedding.once),
                  u64(b, 32, c->non_embedding.stored), u64(d, 32, c->n_loop), s->loops, s->experts, s->top_k);

    strbuf_puts(out, "\nFLOPs per token\n");
    strbuf_printf(out, "  %-34s %s\n", "2 x active parameters, all loops", u64(a, 32, c->flops_matmul));
    if (s->context > 0) {
        snprintf(b, sizeof b, "attention scores over %ld", s->context);
        strbuf_printf(out, "  %-34s %s\n", b, u64(a, 32, c->flops_attention));
    }
    strbuf_printf(out, "  %-34s %s (%s)\n", "total", u64(a, 32, c->flops_total), human(b, 32, (double)c->flops_total));
    strbuf_printf(out, "  %-34s %s, %s, %s\n", "prelude, one loop, coda", u64(a, 32, c->flops_prelude),
                  u64(b, 32, c->flops_loop), u64(d, 32, c->flops_coda));
    print_conventions(out, req, s, c);

    if (mup_base > 0) {
        double m = mup_base / (double)s->d_model;
        strbuf_printf(out, "\nmuP from base width %s to %ld (width ratio %.6g)\n",
                      ls_numtext_format_double(a, mup_base), s->d_model, 1 / m);
        strbuf_printf(out, "  attention, experts, routers%s: init variance x %.6g (std x %.6g), learning rate x %.6g\n",
                      s->embeddings == LS_SHAPE_EMBEDDINGS_TIED ? "" : ", LM head", m, sqrt(m), m);
        strbuf_printf(out, "  embedding%s and norms: unchanged; looped layers need no extra factor\n",
                      s->embeddings == LS_SHAPE_EMBEDDINGS_TIED ? " (tied to the LM head)" : "");
    }
    if (ladder) {
        strbuf_puts(out, "\nFlattening ladder (E, D, L) -> (2E, D/2, 2L): E_real, E_comp, D_eff fixed, E_eq doubles\n");
        text_table *lt = ladder_table(ladder, flatten, 0);
        if (!lt) {
            out->failed = 1;
            return;
        }
        text_table_print(lt, out, TABLE_ALIGNED);
        text_table_free(lt);
    }
}

static int run(const ls_request *req, ls_result *res, ls_error *err)
{
    ls_shape_spec s;
    ls_shape_counts c;
    if (cmd_shape_of(req, &s, &c, err) != 0)
        return err->code;
    long flatten = req_given(req, O_FLATTEN) ? req_integer(req, O_FLATTEN) : 0;
    double mup_base = req_given(req, O_MUP_BASE_WIDTH) ? req_number(req, O_MUP_BASE_WIDTH) : 0;
    /* Every step is checked before anything is printed. */
    ladder_step *ladder = flatten > 0 ? ladder_compute(&s, flatten, err) : NULL;
    if (flatten > 0 && !ladder)
        return err->code;
    jsonw w;
    ls_jsonw_init(&w);
    write_json(&w, &s, &c, mup_base, ladder, flatten);
    int status = cmd_json(req, res, &w, err);
    fmt_kind format = req_format(req);
    strbuf out = {0};
    if (status == 0 && format == FMT_TABLE)
        print_report(&out, req, &s, &c, mup_base, ladder, flatten);
    else if (status == 0 && format != FMT_JSON) {
        /* One table: the sweep row, or the ladder (exact numbers except in md). */
        text_table *t = ladder ? ladder_table(ladder, flatten, format != FMT_MD) : sweep_row_table(&s, &c);
        if (t)
            text_table_print(t, &out, format == FMT_CSV ? TABLE_CSV : format == FMT_TSV ? TABLE_TSV : TABLE_MD);
        else
            out.failed = 1;
        text_table_free(t);
    }
    if (status == 0)
        status = cmd_print(res, &out, err);
    free(ladder);
    return status;
}

static const cmd_option OPTIONS[] = {
    CMD_OPT(O_SHAPE),
    CMD_OPT(O_D_MODEL),
    CMD_OPT(O_D_FF),
    CMD_OPT(O_D_EXPERT),
    {O_TOP_K, NULL, "1", NULL, NULL},
    CMD_OPT(O_VOCAB),
    CMD_OPT(O_EXPERTS),
    CMD_OPT(O_LAYERS),
    CMD_OPT(O_LOOPS),
    CMD_OPT(O_HEAD_LAYERS),
    CMD_OPT(O_TAIL_LAYERS),
    CMD_OPT(O_HEAD_EXPERTS),
    CMD_OPT(O_TAIL_EXPERTS),
    CMD_OPT(O_ATTENTION),
    CMD_OPT(O_EMBEDDINGS),
    CMD_OPT(O_HEADS),
    CMD_OPT(O_KV_HEADS),
    CMD_OPT(O_HEAD_DIM),
    CMD_OPT(O_MLP),
    CMD_OPT(O_SHARED_EXPERTS),
    CMD_OPT(O_MOE_LAYERS),
    CMD_OPT(O_INJECTION),
    CMD_OPT(O_NORMS),
    CMD_OPT(O_NORM_PARAMS),
    CMD_OPT(O_EMBEDDING_NORM),
    CMD_OPT(O_LOOP_NORM),
    CMD_OPT(O_CONTEXT),
    CMD_OPT(O_FLATTEN),
    CMD_OPT(O_MUP_BASE_WIDTH),
    CMD_OPT_HELP(O_FORMAT, "table: the report; csv and tsv: the sweep row alone, or the ladder with --flatten, in "
                           "exact integers; md: the same table in markdown, the ladder in the report's units; json: "
                           "everything (docs/formats.md), its \"shape\" member a shape file"),
    CMD_OPT(O_QUIET),
    CMD_END,
};

const cmd_def CMD_SHAPE = {
    .name = "shape",
    .summary = "parameter and FLOP accounting of a looped MoE shape",
    .usage = "--d-model D (--d-ff F | --d-expert W) --vocab V --layers D [OPTIONS]\n--shape FILE [OPTIONS]",
    .description =
        "Parameter and FLOP accounting of a looped MoE, in the notation of the paper \"How to Loop MoE: Flatten "
        "the Experts, Untie the Attention\" (Foil; docs/calculators.md), where D counts layers and L loops (not "
        "tokens and loss): a block of D layers with E routed experts each, top-k of them per token, run L times, "
        "between head (prelude) and tail (coda) layers that run once.  "
        "Prints the accounting identities E_real = E D, E_comp = k D L, D_eff = D L, E_eq = E D L and log10 "
        "C(E,k)^(D L); exact parameter counts by part, stored and active; FLOPs per token; and the n_act, "
        "n_total, n_loop, R, E, k of a sweep row (non-embedding counts, R = L).  Counted: attention 4 d^2 per set "
        "(no biases; d h (2 heads + 2 kv_heads) with --heads), SwiGLU experts 3 d d_expert (GELU and ReLU^2 2 d "
        "d_expert), shared experts, routers d E, the input injection's adapter, norm gains, embedding and LM head "
        "vocab x d each.  --shape reads a template that describes a model (data/templates).",
    .operands = NULL,
    .min_operands = 0,
    .max_operands = 0,
    .formats = "table|csv|tsv|json|md",
    .stdout_label = "the report",
    .options = OPTIONS,
    .run = run,
};
