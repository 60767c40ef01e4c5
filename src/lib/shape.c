#include "jsonw_internal.h"
#include "loopscale/shape.h"
#include "shape_internal.h"

#include <cjson/cJSON.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_sf_gamma.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "readfile_internal.h"

/* The integer fields, with the smallest value each may take; files and the
 * JSON writer go through this one table. */
static const struct {
    const char *key;
    size_t offset;
    long min;
} INT_FIELDS[] = {
    {"d_model", offsetof(ls_shape_spec, d_model), 1},
    {"d_ff", offsetof(ls_shape_spec, d_ff), 1},
    {"d_expert", offsetof(ls_shape_spec, d_expert), 1},
    {"top_k", offsetof(ls_shape_spec, top_k), 1},
    {"vocab", offsetof(ls_shape_spec, vocab), 1},
    {"experts", offsetof(ls_shape_spec, experts), 1},
    {"layers", offsetof(ls_shape_spec, layers), 1},
    {"loops", offsetof(ls_shape_spec, loops), 1},
    {"head_layers", offsetof(ls_shape_spec, head_layers), 0},
    {"tail_layers", offsetof(ls_shape_spec, tail_layers), 0},
    {"head_experts", offsetof(ls_shape_spec, head_experts), 1},
    {"tail_experts", offsetof(ls_shape_spec, tail_experts), 1},
    {"heads", offsetof(ls_shape_spec, heads), 1},
    {"kv_heads", offsetof(ls_shape_spec, kv_heads), 1},
    {"head_dim", offsetof(ls_shape_spec, head_dim), 1},
    {"context", offsetof(ls_shape_spec, context), 0},
};
#define NINT_FIELDS (sizeof INT_FIELDS / sizeof *INT_FIELDS)

/* Integers beyond this are refused as input; counts are checked for
 * overflow anyway, this keeps messages about sizes rather than overflow. */
#define SHAPE_INPUT_MAX 1000000000000L

static long *field(ls_shape_spec *s, size_t i) { return (long *)((char *)s + INT_FIELDS[i].offset); }
static const long *cfield(const ls_shape_spec *s, size_t i)
{
    return (const long *)((const char *)s + INT_FIELDS[i].offset);
}

void ls_shape_spec_unset(ls_shape_spec *s)
{
    for (size_t i = 0; i < NINT_FIELDS; i++)
        *field(s, i) = LS_SHAPE_UNSET;
    s->attention = LS_SHAPE_UNSET;
    s->embeddings = LS_SHAPE_UNSET;
    s->norm_params = LS_SHAPE_UNSET;
}

void ls_shape_spec_merge(ls_shape_spec *base, const ls_shape_spec *over)
{
    for (size_t i = 0; i < NINT_FIELDS; i++)
        if (*cfield(over, i) != LS_SHAPE_UNSET)
            *field(base, i) = *cfield(over, i);
    if (over->attention != LS_SHAPE_UNSET)
        base->attention = over->attention;
    if (over->embeddings != LS_SHAPE_UNSET)
        base->embeddings = over->embeddings;
    if (over->norm_params != LS_SHAPE_UNSET)
        base->norm_params = over->norm_params;
}

const char *ls_shape_attention_name(long attention)
{
    return attention == LS_SHAPE_ATTENTION_PER_LOOP ? "per-loop" : "tied";
}

const char *ls_shape_embeddings_name(long embeddings)
{
    return embeddings == LS_SHAPE_EMBEDDINGS_TIED ? "tied" : "untied";
}

/* ---- files ----------------------------------------------------------------- */

static int is_field_key(const char *key)
{
    for (size_t i = 0; i < NINT_FIELDS; i++)
        if (strcmp(INT_FIELDS[i].key, key) == 0)
            return 1;
    return strcmp(key, "attention") == 0 || strcmp(key, "embeddings") == 0 || strcmp(key, "norm_params") == 0;
}

static int read_fields(const char *path, const cJSON *obj, ls_shape_spec *s, ls_error *err)
{
    const cJSON *item;
    cJSON_ArrayForEach(item, obj)
    {
        const char *key = item->string;
        size_t i = 0;
        while (i < NINT_FIELDS && strcmp(INT_FIELDS[i].key, key) != 0)
            i++;
        if (i < NINT_FIELDS) {
            double v = cJSON_IsNumber(item) ? item->valuedouble : NAN;
            if (!(v == floor(v) && v >= (double)INT_FIELDS[i].min && v <= (double)SHAPE_INPUT_MAX))
                return ls_error_set(err, LS_ERR_DATA, "%s: %s: expected an integer of at least %ld", path, key,
                                    INT_FIELDS[i].min);
            *field(s, i) = (long)v;
        } else if (strcmp(key, "attention") == 0) {
            const char *v = cJSON_IsString(item) ? item->valuestring : "";
            if (strcmp(v, "tied") != 0 && strcmp(v, "per-loop") != 0)
                return ls_error_set(err, LS_ERR_DATA, "%s: attention: expected \"tied\" or \"per-loop\"", path);
            s->attention = strcmp(v, "tied") == 0 ? LS_SHAPE_ATTENTION_TIED : LS_SHAPE_ATTENTION_PER_LOOP;
        } else if (strcmp(key, "embeddings") == 0) {
            const char *v = cJSON_IsString(item) ? item->valuestring : "";
            if (strcmp(v, "tied") != 0 && strcmp(v, "untied") != 0)
                return ls_error_set(err, LS_ERR_DATA, "%s: embeddings: expected \"untied\" or \"tied\"", path);
            s->embeddings = strcmp(v, "tied") == 0 ? LS_SHAPE_EMBEDDINGS_TIED : LS_SHAPE_EMBEDDINGS_UNTIED;
        } else if (strcmp(key, "norm_params") == 0) {
            if (!cJSON_IsBool(item))
                return ls_error_set(err, LS_ERR_DATA, "%s: norm_params: expected true or false", path);
            s->norm_params = cJSON_IsTrue(item);
        } else if (strcmp(key, "format") == 0) {
            if (!cJSON_IsString(item) || strcmp(item->valuestring, LS_SHAPE_FORMAT) != 0)
                return ls_error_set(err, LS_ERR_DATA, "%s: format: expected \"%s\"", path, LS_SHAPE_FORMAT);
        } else {
            return ls_error_set(err, LS_ERR_DATA, "%s: unknown key '%s'", path, key);
        }
    }
    return 0;
}

int ls_shape_spec_read(const char *path, ls_shape_spec *s, ls_error *err)
{
    char *text = NULL;
    size_t len = 0;
    if (ls_read_small_file(path, (size_t)1 << 20, "shape file", &text, &len, err) != 0)
        return err->code;
    int status = ls_shape_spec_parse(text, len, ls_input_name(path), s, err);
    free(text);
    return status;
}

int ls_shape_spec_parse(const char *text, size_t len, const char *path, ls_shape_spec *s, ls_error *err)
{
    cJSON *root = ls_parse_json_text(text, len, path, err);
    if (!root)
        return err->code;
    /* The output of `loopscale shape --format json` carries the shape as its
     * "shape" member, so it can be read back as it is. */
    const cJSON *obj = root;
    const cJSON *inner = cJSON_IsObject(root) ? cJSON_GetObjectItemCaseSensitive(root, "shape") : NULL;
    int status = 0;
    if (cJSON_IsObject(inner)) {
        /* Only the "shape" member is read: a shape field beside it was
         * edited where it counts for nothing. */
        const cJSON *item;
        cJSON_ArrayForEach(item, root)
        {
            if (item != inner && is_field_key(item->string)) {
                status = ls_error_set(err, LS_ERR_DATA, "%s: %s: outside the \"shape\" object, which is what is read; "
                                      "move it inside", path, item->string);
                break;
            }
        }
        obj = inner;
    }
    if (status == 0)
        status = cJSON_IsObject(obj) ? read_fields(path, obj, s, err)
                                     : ls_error_set(err, LS_ERR_DATA, "%s: expected a JSON object at the top", path);
    cJSON_Delete(root);
    if (status != 0)
        ls_json_error_locate(err, path, text, len);
    return status;
}

void ls_shape_spec_write_json(jsonw *w, const char *key, const ls_shape_spec *s)
{
    ls_jsonw_object_begin(w, key);
    ls_jsonw_string(w, "format", LS_SHAPE_FORMAT);
    for (size_t i = 0; i < NINT_FIELDS; i++)
        if (*cfield(s, i) != LS_SHAPE_UNSET)
            ls_jsonw_integer(w, INT_FIELDS[i].key, *cfield(s, i));
    if (s->attention != LS_SHAPE_UNSET)
        ls_jsonw_string(w, "attention", ls_shape_attention_name(s->attention));
    if (s->embeddings != LS_SHAPE_UNSET)
        ls_jsonw_string(w, "embeddings", ls_shape_embeddings_name(s->embeddings));
    if (s->norm_params != LS_SHAPE_UNSET)
        ls_jsonw_bool(w, "norm_params", (int)s->norm_params);
    ls_jsonw_object_end(w);
}

/* ---- defaults and checks ------------------------------------------------------ */

static void set_default(long *v, long value)
{
    if (*v == LS_SHAPE_UNSET)
        *v = value;
}

int ls_shape_resolve(ls_shape_spec *s, ls_error *err)
{
    for (size_t i = 0; i < NINT_FIELDS; i++) {
        long v = *field(s, i);
        if (v != LS_SHAPE_UNSET && (v < INT_FIELDS[i].min || v > SHAPE_INPUT_MAX))
            return ls_error_set(err, LS_ERR_USAGE, "%s = %ld is outside [%ld, %ld]", INT_FIELDS[i].key, v,
                                INT_FIELDS[i].min, SHAPE_INPUT_MAX);
    }
    static const struct {
        const char *key;
        size_t offset;
    } required[] = {{"d_model", offsetof(ls_shape_spec, d_model)},
                    {"vocab", offsetof(ls_shape_spec, vocab)},
                    {"layers", offsetof(ls_shape_spec, layers)}};
    for (size_t i = 0; i < sizeof required / sizeof *required; i++)
        if (*(const long *)((const char *)s + required[i].offset) == LS_SHAPE_UNSET)
            return ls_error_set(err, LS_ERR_USAGE, "%s is required", required[i].key);
    set_default(&s->top_k, 1);
    set_default(&s->experts, 1);
    set_default(&s->loops, 1);
    set_default(&s->head_layers, 0);
    set_default(&s->tail_layers, 0);
    set_default(&s->head_experts, s->experts);
    set_default(&s->tail_experts, s->head_experts);
    set_default(&s->context, 0);
    set_default(&s->attention, LS_SHAPE_ATTENTION_TIED);
    set_default(&s->embeddings, LS_SHAPE_EMBEDDINGS_UNTIED);
    set_default(&s->norm_params, 0);
    long k = s->top_k;
    if (s->d_ff == LS_SHAPE_UNSET && s->d_expert == LS_SHAPE_UNSET)
        return ls_error_set(err, LS_ERR_USAGE, "d_ff or d_expert is required");
    if (s->d_expert == LS_SHAPE_UNSET) {
        if (s->d_ff % k != 0)
            return ls_error_set(err, LS_ERR_USAGE,
                                "d_ff = %ld is not a multiple of top_k = %ld (experts are d_ff / top_k wide; or give "
                                "d_expert)",
                                s->d_ff, k);
        s->d_expert = s->d_ff / k;
    } else if (s->d_ff == LS_SHAPE_UNSET) {
        s->d_ff = k * s->d_expert;
    } else if (s->d_ff != k * s->d_expert) {
        return ls_error_set(err, LS_ERR_USAGE, "d_ff = %ld and d_expert = %ld disagree: d_ff must be top_k x d_expert",
                            s->d_ff, s->d_expert);
    }
    if (s->experts < k)
        return ls_error_set(err, LS_ERR_USAGE, "experts = %ld is less than top_k = %ld", s->experts, k);
    if (s->head_experts != 1 && s->head_experts < k)
        return ls_error_set(err, LS_ERR_USAGE, "head_experts = %ld is less than top_k = %ld (1 is a dense layer)",
                            s->head_experts, k);
    if (s->tail_experts != 1 && s->tail_experts < k)
        return ls_error_set(err, LS_ERR_USAGE, "tail_experts = %ld is less than top_k = %ld (1 is a dense layer)",
                            s->tail_experts, k);
    if (s->heads == LS_SHAPE_UNSET) {
        if (s->kv_heads != LS_SHAPE_UNSET || s->head_dim != LS_SHAPE_UNSET)
            return ls_error_set(err, LS_ERR_USAGE, "kv_heads and head_dim need heads");
    } else {
        if (s->head_dim == LS_SHAPE_UNSET) {
            if (s->d_model % s->heads != 0)
                return ls_error_set(err, LS_ERR_USAGE,
                                    "heads = %ld does not divide d_model = %ld; give head_dim", s->heads,
                                    s->d_model);
            s->head_dim = s->d_model / s->heads;
        }
        set_default(&s->kv_heads, s->heads);
        if (s->heads % s->kv_heads != 0)
            return ls_error_set(err, LS_ERR_USAGE, "heads = %ld is not a multiple of kv_heads = %ld", s->heads,
                                s->kv_heads);
    }
    if (s->attention != LS_SHAPE_ATTENTION_TIED && s->attention != LS_SHAPE_ATTENTION_PER_LOOP)
        return ls_error_set(err, LS_ERR_USAGE, "attention must be tied or per-loop");
    if (s->embeddings != LS_SHAPE_EMBEDDINGS_TIED && s->embeddings != LS_SHAPE_EMBEDDINGS_UNTIED)
        return ls_error_set(err, LS_ERR_USAGE, "embeddings must be untied or tied");
    if (s->norm_params != 0 && s->norm_params != 1)
        return ls_error_set(err, LS_ERR_USAGE, "norm_params must be 0 or 1");
    return 0;
}

int ls_shape_flatten(const ls_shape_spec *s, int steps, ls_shape_spec *out, ls_error *err)
{
    long factor = 1;
    for (int i = 0; i < steps; i++) {
        if (s->layers % (2 * factor) != 0)
            return ls_error_set(err, LS_ERR_USAGE, "flattening %d step%s: D = %ld layer%s cannot be halved %d time%s",
                                steps, steps == 1 ? "" : "s",
                                s->layers, s->layers == 1 ? "" : "s", steps, steps == 1 ? "" : "s");
        factor *= 2;
    }
    *out = *s;
    out->experts = s->experts * factor;
    out->layers = s->layers / factor;
    out->loops = s->loops * factor;
    return 0;
}

/* ---- counting ------------------------------------------------------------------ */

/* Exact 64-bit arithmetic that remembers an overflow. */
typedef struct checked {
    int overflow;
} checked;

static uint64_t mul(checked *c, uint64_t a, uint64_t b)
{
    uint64_t r;
    if (__builtin_mul_overflow(a, b, &r))
        c->overflow = 1;
    return r;
}

static uint64_t add(checked *c, uint64_t a, uint64_t b)
{
    uint64_t r;
    if (__builtin_add_overflow(a, b, &r))
        c->overflow = 1;
    return r;
}

static void add_count(checked *c, ls_shape_count *sum, const ls_shape_count *x)
{
    sum->stored = add(c, sum->stored, x->stored);
    sum->once = add(c, sum->once, x->once);
    sum->all = add(c, sum->all, x->all);
}

/* `layers` layers with `experts` experts each, run once: the head or the
 * tail, or one layer of the block. */
static void count_layers(checked *c, const ls_shape_spec *s, uint64_t attention_set, uint64_t layers, uint64_t experts,
                        uint64_t *expert_size, ls_shape_count part[LS_SHAPE_NKINDS])
{
    uint64_t d = (uint64_t)s->d_model;
    uint64_t dense = mul(c, 3 * d, (uint64_t)s->d_ff);
    *expert_size = experts == 1 ? dense : mul(c, 3 * d, (uint64_t)s->d_expert);
    uint64_t stored_ffn = experts == 1 ? dense : mul(c, experts, *expert_size);
    uint64_t per_layer[LS_SHAPE_NKINDS][2] = {
        {attention_set, attention_set},
        {stored_ffn, dense}, /* top_k experts of d_ff / top_k, or the dense FFN */
        {experts > 1 ? mul(c, d, experts) : 0, experts > 1 ? mul(c, d, experts) : 0},
        {s->norm_params ? 2 * d : 0, s->norm_params ? 2 * d : 0},
    };
    for (int kind = 0; kind < LS_SHAPE_NKINDS; kind++) {
        part[kind].stored = mul(c, layers, per_layer[kind][0]);
        part[kind].once = part[kind].all = mul(c, layers, per_layer[kind][1]);
    }
}

/* ln C(n, k) for any n that fits in 64 bits: GSL's lnchoose up to its limit
 * of 2^32 - 1; beyond it a sum of logs while k (or n - k) is small, which
 * keeps every digit, and lgamma otherwise. */
static double ln_choose(uint64_t n, uint64_t k)
{
    gsl_sf_result r;
    if (n <= UINT_MAX && gsl_sf_lnchoose_e((unsigned)n, (unsigned)k, &r) == GSL_SUCCESS)
        return r.val;
    if (k > n - k)
        k = n - k;
    if (k > 1000)
        return lgamma((double)n + 1) - lgamma((double)k + 1) - lgamma((double)(n - k) + 1);
    double sum = 0;
    for (uint64_t i = 0; i < k; i++)
        sum += log((double)(n - i) / (double)(k - i));
    return sum;
}

int ls_shape_count_params(const ls_shape_spec *s, ls_shape_counts *out, ls_error *err)
{
    checked c = {0};
    ls_shape_counts r;
    memset(&r, 0, sizeof r);
    uint64_t d = (uint64_t)s->d_model, E = (uint64_t)s->experts, D = (uint64_t)s->layers, L = (uint64_t)s->loops;
    uint64_t k = (uint64_t)s->top_k, V = (uint64_t)s->vocab;

    r.e_real = mul(&c, E, D);
    r.e_comp = mul(&c, mul(&c, k, D), L);
    r.d_eff = mul(&c, D, L);
    r.e_eq = mul(&c, r.e_real, L);
    r.log10_routes = (double)r.d_eff * ln_choose(E, k) / log(10.0);

    if (s->heads == LS_SHAPE_UNSET) {
        r.q_width = d;
        r.attention_set = mul(&c, 4 * d, d); /* Q, K, V, O: d x d each */
    } else {
        uint64_t h = (uint64_t)s->head_dim;
        r.q_width = mul(&c, (uint64_t)s->heads, h);
        /* Q and O are d x heads h; K and V are d x kv_heads h. */
        r.attention_set = mul(&c, mul(&c, d, h), 2 * (uint64_t)s->heads + 2 * (uint64_t)s->kv_heads);
    }
    r.attention_sets = s->attention == LS_SHAPE_ATTENTION_PER_LOOP ? r.d_eff : D;

    /* The block: one pass is D layers; the whole pass runs it L times.
     * Only attention (and its norm) is stored per loop when untied. */
    ls_shape_count one_layer[LS_SHAPE_NKINDS];
    count_layers(&c, s, r.attention_set, 1, E, &r.expert, one_layer);
    for (int kind = 0; kind < LS_SHAPE_NKINDS; kind++) {
        r.block[kind].stored = mul(&c, D, one_layer[kind].stored);
        r.block[kind].once = mul(&c, D, one_layer[kind].once);
        r.block[kind].all = mul(&c, L, r.block[kind].once);
    }
    r.block[LS_SHAPE_ATTN].stored = mul(&c, r.attention_sets, r.attention_set);
    if (s->norm_params)
        r.block[LS_SHAPE_NORM].stored = mul(&c, add(&c, r.attention_sets, D), d);

    count_layers(&c, s, r.attention_set, (uint64_t)s->head_layers, (uint64_t)s->head_experts, &r.head_expert, r.head);
    count_layers(&c, s, r.attention_set, (uint64_t)s->tail_layers, (uint64_t)s->tail_experts, &r.tail_expert, r.tail);
    if (s->norm_params)
        r.final_norm.stored = r.final_norm.once = r.final_norm.all = d;
    r.embedding.stored = mul(&c, V, d); /* a lookup: no multiply-adds */
    r.lm_head.once = r.lm_head.all = mul(&c, V, d);
    r.lm_head.stored = s->embeddings == LS_SHAPE_EMBEDDINGS_TIED ? 0 : r.lm_head.once;

    ls_shape_count head = {0, 0, 0}, tail = {0, 0, 0};
    for (int kind = 0; kind < LS_SHAPE_NKINDS; kind++) {
        add_count(&c, &r.non_embedding, &r.block[kind]);
        add_count(&c, &head, &r.head[kind]);
        add_count(&c, &tail, &r.tail[kind]);
        r.n_loop = add(&c, r.n_loop, r.block[kind].once);
    }
    add_count(&c, &r.non_embedding, &head);
    add_count(&c, &r.non_embedding, &tail);
    add_count(&c, &r.non_embedding, &r.final_norm);
    r.total = r.non_embedding;
    add_count(&c, &r.total, &r.embedding);
    add_count(&c, &r.total, &r.lm_head);

    /* Attention scores, per attention layer run: QK^T and the weighted sum
     * of V, context x q_width multiply-adds each. */
    uint64_t scores = mul(&c, mul(&c, 4, (uint64_t)s->context), r.q_width);
    r.flops_matmul = mul(&c, 2, r.total.all);
    r.flops_attention = mul(&c, scores, add(&c, r.d_eff, (uint64_t)(s->head_layers + s->tail_layers)));
    r.flops_total = add(&c, r.flops_matmul, r.flops_attention);
    r.flops_prelude = add(&c, mul(&c, 2, head.all), mul(&c, scores, (uint64_t)s->head_layers));
    r.flops_loop = add(&c, mul(&c, 2, r.n_loop), mul(&c, scores, D));
    uint64_t coda_params = add(&c, add(&c, tail.all, r.final_norm.all), r.lm_head.all);
    r.flops_coda = add(&c, mul(&c, 2, coda_params), mul(&c, scores, (uint64_t)s->tail_layers));
    /* Results are handed on as signed 64-bit integers (JSON, tables). */
    if (c.overflow || r.e_eq > INT64_MAX || r.total.stored > INT64_MAX || r.flops_total > INT64_MAX)
        return ls_error_set(err, LS_ERR_USAGE, "the counts of this shape overflow 64-bit integers");
    *out = r;
    return 0;
}

ls_law_point ls_shape_point(const ls_shape_spec *s, const ls_shape_counts *c)
{
    ls_law_point x = {(double)c->non_embedding.once, (double)c->non_embedding.stored, (double)c->n_loop,
                   (double)s->loops, (double)s->experts, 0.0, 0.0};
    return x;
}

void ls_shape_flops(const ls_shape_spec *s, ls_law_flops_kind kind, ls_law_flops *out)
{
    ls_law_flops_default(out);
    out->kind = kind;
    out->context = s->context > 0 ? (double)s->context : 0.0;
    out->vocab = (double)s->vocab;
    out->d_model = (double)s->d_model;
    out->prelude_layers = (int)s->head_layers;
    out->loop_layers = (int)s->layers;
    out->coda_layers = (int)s->tail_layers;
}
