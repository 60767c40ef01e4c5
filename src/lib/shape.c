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

#include "arch_internal.h"
#include "readfile_internal.h"

/* The integer fields, with the smallest value each may take and the other
 * name a file may give it (the names shape files had before templates
 * described whole models: one schema reads both); files and the JSON
 * writer go through this one table.  The writer uses the first name. */
static const struct {
    const char *key, *alias;
    size_t offset;
    long min;
} INT_FIELDS[] = {
    {"d_model", NULL, offsetof(ls_shape_spec, d_model), 1},
    {"d_ff", NULL, offsetof(ls_shape_spec, d_ff), 1},
    {"d_expert", NULL, offsetof(ls_shape_spec, d_expert), 1},
    {"top_k", NULL, offsetof(ls_shape_spec, top_k), 1},
    {"vocab", NULL, offsetof(ls_shape_spec, vocab), 1},
    {"experts", NULL, offsetof(ls_shape_spec, experts), 1},
    {"shared_experts", NULL, offsetof(ls_shape_spec, shared_experts), 0},
    {"loop_layers", "layers", offsetof(ls_shape_spec, layers), 1},
    {"moe_layers", NULL, offsetof(ls_shape_spec, moe_layers), 0},
    {"loops", NULL, offsetof(ls_shape_spec, loops), 1},
    {"prelude_layers", "head_layers", offsetof(ls_shape_spec, head_layers), 0},
    {"coda_layers", "tail_layers", offsetof(ls_shape_spec, tail_layers), 0},
    {"prelude_experts", "head_experts", offsetof(ls_shape_spec, head_experts), 1},
    {"coda_experts", "tail_experts", offsetof(ls_shape_spec, tail_experts), 1},
    {"heads", NULL, offsetof(ls_shape_spec, heads), 1},
    {"kv_heads", NULL, offsetof(ls_shape_spec, kv_heads), 1},
    {"head_dim", NULL, offsetof(ls_shape_spec, head_dim), 1},
    {"prelude_heads", NULL, offsetof(ls_shape_spec, stage_heads[LS_SHAPE_PRELUDE]), 1},
    {"prelude_kv_heads", NULL, offsetof(ls_shape_spec, stage_kv_heads[LS_SHAPE_PRELUDE]), 1},
    {"prelude_head_dim", NULL, offsetof(ls_shape_spec, stage_head_dim[LS_SHAPE_PRELUDE]), 1},
    {"loop_heads", NULL, offsetof(ls_shape_spec, stage_heads[LS_SHAPE_LOOP]), 1},
    {"loop_kv_heads", NULL, offsetof(ls_shape_spec, stage_kv_heads[LS_SHAPE_LOOP]), 1},
    {"loop_head_dim", NULL, offsetof(ls_shape_spec, stage_head_dim[LS_SHAPE_LOOP]), 1},
    {"coda_heads", NULL, offsetof(ls_shape_spec, stage_heads[LS_SHAPE_CODA]), 1},
    {"coda_kv_heads", NULL, offsetof(ls_shape_spec, stage_kv_heads[LS_SHAPE_CODA]), 1},
    {"coda_head_dim", NULL, offsetof(ls_shape_spec, stage_head_dim[LS_SHAPE_CODA]), 1},
    {"context", NULL, offsetof(ls_shape_spec, context), 0},
};
#define NINT_FIELDS (sizeof INT_FIELDS / sizeof *INT_FIELDS)

/* The fields that take one of a few words, and the yes-or-no ones. */
static const struct {
    const char *key;
    size_t offset;
    const char *values[4]; /* value i is the enum constant i */
} CHOICE_FIELDS[] = {
    {"attention", offsetof(ls_shape_spec, attention), {"tied", "per-loop", NULL}},
    {"embeddings", offsetof(ls_shape_spec, embeddings), {"untied", "tied", NULL}},
    {"mlp", offsetof(ls_shape_spec, mlp), {"swiglu", "gelu", "relu2", NULL}},
    {"injection", offsetof(ls_shape_spec, injection), {"none", "concat", "add", NULL}},
    {"norms", offsetof(ls_shape_spec, norm_params), {"none", "pre", "sandwich", NULL}},
};
#define NCHOICE_FIELDS (sizeof CHOICE_FIELDS / sizeof *CHOICE_FIELDS)
static const struct {
    const char *key;
    size_t offset;
} BOOL_FIELDS[] = {
    {"embedding_norm", offsetof(ls_shape_spec, embedding_norm)},
    {"loop_norm", offsetof(ls_shape_spec, loop_norm)},
};
#define NBOOL_FIELDS (sizeof BOOL_FIELDS / sizeof *BOOL_FIELDS)

/* Integers beyond this are refused as input; counts are checked for
 * overflow anyway, this keeps messages about sizes rather than overflow. */
#define SHAPE_INPUT_MAX 1000000000000L

static long *field(ls_shape_spec *s, size_t i) { return (long *)((char *)s + INT_FIELDS[i].offset); }
static const long *cfield(const ls_shape_spec *s, size_t i)
{
    return (const long *)((const char *)s + INT_FIELDS[i].offset);
}
static long *at(ls_shape_spec *s, size_t offset) { return (long *)((char *)s + offset); }
static long cat(const ls_shape_spec *s, size_t offset) { return *(const long *)((const char *)s + offset); }

void ls_shape_spec_unset(ls_shape_spec *s)
{
    for (size_t i = 0; i < NINT_FIELDS; i++)
        *field(s, i) = LS_SHAPE_UNSET;
    for (size_t i = 0; i < NCHOICE_FIELDS; i++)
        *at(s, CHOICE_FIELDS[i].offset) = LS_SHAPE_UNSET;
    for (size_t i = 0; i < NBOOL_FIELDS; i++)
        *at(s, BOOL_FIELDS[i].offset) = LS_SHAPE_UNSET;
}

void ls_shape_spec_merge(ls_shape_spec *base, const ls_shape_spec *over)
{
    for (size_t i = 0; i < NINT_FIELDS; i++)
        if (*cfield(over, i) != LS_SHAPE_UNSET)
            *field(base, i) = *cfield(over, i);
    for (size_t i = 0; i < NCHOICE_FIELDS; i++)
        if (cat(over, CHOICE_FIELDS[i].offset) != LS_SHAPE_UNSET)
            *at(base, CHOICE_FIELDS[i].offset) = cat(over, CHOICE_FIELDS[i].offset);
    for (size_t i = 0; i < NBOOL_FIELDS; i++)
        if (cat(over, BOOL_FIELDS[i].offset) != LS_SHAPE_UNSET)
            *at(base, BOOL_FIELDS[i].offset) = cat(over, BOOL_FIELDS[i].offset);
}

static const char *choice_name(size_t f, long value)
{
    return value >= 0 && value < 4 && CHOICE_FIELDS[f].values[value] ? CHOICE_FIELDS[f].values[value] : "?";
}

const char *ls_shape_attention_name(long attention) { return choice_name(0, attention); }
const char *ls_shape_embeddings_name(long embeddings) { return choice_name(1, embeddings); }
const char *ls_shape_mlp_name(long mlp) { return choice_name(2, mlp); }
const char *ls_shape_injection_name(long injection) { return choice_name(3, injection); }
const char *ls_shape_norms_name(long norms) { return choice_name(4, norms); }

long ls_shape_choice_parse(const char *key, const char *value)
{
    for (size_t f = 0; f < NCHOICE_FIELDS; f++)
        if (strcmp(CHOICE_FIELDS[f].key, key) == 0)
            for (long v = 0; CHOICE_FIELDS[f].values[v]; v++)
                if (strcmp(CHOICE_FIELDS[f].values[v], value) == 0)
                    return v;
    return -1;
}

/* ---- files ----------------------------------------------------------------- */

/* "\"tied\" or \"per-loop\"", for messages. */
static void choices_text(size_t f, char *buf, size_t size)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int v = 0; CHOICE_FIELDS[f].values[v] && used < size; v++) {
        int last = !CHOICE_FIELDS[f].values[v + 1];
        int n = snprintf(buf + used, size - used, "%s\"%s\"", v == 0 ? "" : last ? " or " : ", ",
                         CHOICE_FIELDS[f].values[v]);
        used += n > 0 ? (size_t)n : 0;
    }
}

int ls_shape_spec_set_key(ls_shape_spec *s, const char **seen, const char *path, const cJSON *item, ls_error *err)
{
    const char *key = item->string;
    for (size_t i = 0; i < NINT_FIELDS; i++) {
        if (strcmp(INT_FIELDS[i].key, key) != 0 && !(INT_FIELDS[i].alias && strcmp(INT_FIELDS[i].alias, key) == 0))
            continue;
        if (seen[i] && strcmp(seen[i], key) != 0)
            return ls_error_set(err, LS_ERR_DATA, "%s: %s: the same as '%s', given too; give one", path, key,
                                seen[i]);
        seen[i] = key;
        double v = cJSON_IsNumber(item) ? item->valuedouble : NAN;
        if (!cJSON_IsNumber(item))
            return ls_error_set(err, LS_ERR_DATA, "%s: %s: expected an integer of at least %ld", path, key,
                                INT_FIELDS[i].min);
        if (!(v == floor(v) && v >= (double)INT_FIELDS[i].min && v <= (double)SHAPE_INPUT_MAX))
            return ls_error_set(err, LS_ERR_DATA, "%s: %s: %.17g is not an integer from %ld to %ld", path, key, v,
                                INT_FIELDS[i].min, SHAPE_INPUT_MAX);
        *field(s, i) = (long)v;
        return 1;
    }
    /* "norm_params": true/false is how shape files said "norms". */
    int legacy_norms = strcmp(key, "norm_params") == 0;
    for (size_t f = 0; f < NCHOICE_FIELDS; f++) {
        if (strcmp(CHOICE_FIELDS[f].key, key) != 0 && !(legacy_norms && strcmp(CHOICE_FIELDS[f].key, "norms") == 0))
            continue;
        const char **slot = &seen[NINT_FIELDS + f];
        if (*slot && strcmp(*slot, key) != 0)
            return ls_error_set(err, LS_ERR_DATA, "%s: %s: the same as '%s', given too; give one", path, key, *slot);
        *slot = key;
        if (legacy_norms) {
            if (!cJSON_IsBool(item))
                return ls_error_set(err, LS_ERR_DATA, "%s: %s: expected true or false", path, key);
            s->norm_params = cJSON_IsTrue(item) ? LS_SHAPE_NORMS_PRE : LS_SHAPE_NORMS_NONE;
            return 1;
        }
        long v = cJSON_IsString(item) ? ls_shape_choice_parse(key, item->valuestring) : -1;
        if (v < 0) {
            char text[96];
            choices_text(f, text, sizeof text);
            return ls_error_set(err, LS_ERR_DATA, "%s: %s: expected %s", path, key, text);
        }
        *at(s, CHOICE_FIELDS[f].offset) = v;
        return 1;
    }
    for (size_t f = 0; f < NBOOL_FIELDS; f++) {
        if (strcmp(BOOL_FIELDS[f].key, key) != 0)
            continue;
        if (!cJSON_IsBool(item))
            return ls_error_set(err, LS_ERR_DATA, "%s: %s: expected true or false", path, key);
        *at(s, BOOL_FIELDS[f].offset) = cJSON_IsTrue(item);
        return 1;
    }
    return 0;
}

int ls_shape_check_stages(const ls_shape_spec *g, ls_error *err)
{
    static const struct {
        const char *stage, *layers_key;
        size_t layers;
        int index;
    } stages[] = {{"prelude", "prelude_layers", offsetof(ls_shape_spec, head_layers), LS_SHAPE_PRELUDE},
                  {"coda", "coda_layers", offsetof(ls_shape_spec, tail_layers), LS_SHAPE_CODA}};
    for (size_t i = 0; i < sizeof stages / sizeof *stages; i++) {
        long layers = cat(g, stages[i].layers);
        if (layers != LS_SHAPE_UNSET && layers > 0)
            continue;
        /* (A stage's experts are left alone: `shape --format json` writes
         * them, defaults and all, for stages of no layers too.) */
        const char *key = NULL;
        if (g->stage_heads[stages[i].index] != LS_SHAPE_UNSET)
            key = "heads";
        else if (g->stage_kv_heads[stages[i].index] != LS_SHAPE_UNSET)
            key = "kv_heads";
        else if (g->stage_head_dim[stages[i].index] != LS_SHAPE_UNSET)
            key = "head_dim";
        if (key)
            return ls_error_set(err, LS_ERR_DATA, "%s_%s: the %s has no layers (%s is %s), so it counts for nothing",
                                stages[i].stage, key, stages[i].stage, stages[i].layers_key,
                                layers == LS_SHAPE_UNSET ? "0, the default" : "0");
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
    ls_arch_doc doc;
    if (ls_arch_doc_parse(text, len, path, &doc, err) != 0)
        return err->code;
    int status = 0;
    if (doc.share_key[0]) {
        status = ls_error_set(err, LS_ERR_DATA, "%s: %s: a template's share, which no shape has (a shape gives d_ff "
                              "or d_expert and is counted)", path, doc.share_key);
        ls_json_error_locate(err, path, text, len);
    } else
        ls_shape_spec_merge(s, &doc.shape);
    return status;
}

void ls_shape_spec_write_json(jsonw *w, const char *key, const ls_shape_spec *s)
{
    ls_jsonw_object_begin(w, key);
    ls_jsonw_string(w, "format", LS_SHAPE_FORMAT);
    ls_shape_spec_write_fields(w, s);
    ls_jsonw_object_end(w);
}

void ls_shape_spec_write_fields(jsonw *w, const ls_shape_spec *s)
{
    for (size_t i = 0; i < NINT_FIELDS; i++) {
        long v = *cfield(s, i);
        if (v == LS_SHAPE_UNSET)
            continue;
        size_t off = INT_FIELDS[i].offset;
        /* What only says the default (all block layers with experts, no
         * shared experts) or a stage's geometry that is the model's is left
         * out, so that an option changing the model (--layers) is not
         * undone by a value carried over from it. */
        if ((off == offsetof(ls_shape_spec, moe_layers) && v == s->layers) ||
            (off == offsetof(ls_shape_spec, shared_experts) && v == 0))
            continue;
        int stage_field = 0;
        for (int st = 0; st < LS_SHAPE_NSTAGES; st++) {
            if (off == offsetof(ls_shape_spec, stage_heads[st]))
                stage_field = 1, v = v == s->heads ? LS_SHAPE_UNSET : v;
            else if (off == offsetof(ls_shape_spec, stage_kv_heads[st]))
                stage_field = 1, v = v == s->kv_heads ? LS_SHAPE_UNSET : v;
            else if (off == offsetof(ls_shape_spec, stage_head_dim[st]))
                stage_field = 1, v = v == s->head_dim ? LS_SHAPE_UNSET : v;
        }
        if (stage_field && v == LS_SHAPE_UNSET)
            continue;
        ls_jsonw_integer(w, INT_FIELDS[i].key, v);
    }
    for (size_t f = 0; f < NCHOICE_FIELDS; f++) {
        long v = cat(s, CHOICE_FIELDS[f].offset);
        /* No injection is said by saying nothing. */
        if (v != LS_SHAPE_UNSET && !(CHOICE_FIELDS[f].offset == offsetof(ls_shape_spec, injection) && v == 0))
            ls_jsonw_string(w, CHOICE_FIELDS[f].key, choice_name(f, v));
    }
    for (size_t f = 0; f < NBOOL_FIELDS; f++)
        if (cat(s, BOOL_FIELDS[f].offset) == 1)
            ls_jsonw_bool(w, BOOL_FIELDS[f].key, 1);
}

/* ---- defaults and checks ------------------------------------------------------ */

static void set_default(long *v, long value)
{
    if (*v == LS_SHAPE_UNSET)
        *v = value;
}

/* A stage's attention geometry, resolved: its heads (UNSET: 4 d^2 with
 * d-wide heads), key/value heads and head size, from its own values or the
 * model's.  A stage that gives its own heads takes kv_heads = heads and
 * head_dim = d / heads unless it gives those too. */
static int resolve_geometry(long d, long *heads, long *kv_heads, long *head_dim, const char *prefix, ls_error *err)
{
    if (*heads == LS_SHAPE_UNSET) {
        if (*kv_heads != LS_SHAPE_UNSET || *head_dim != LS_SHAPE_UNSET)
            return ls_error_set(err, LS_ERR_USAGE, "%skv_heads and %shead_dim need %sheads", prefix, prefix, prefix);
        return 0;
    }
    if (*head_dim == LS_SHAPE_UNSET) {
        if (d % *heads != 0)
            return ls_error_set(err, LS_ERR_USAGE, "%sheads = %ld does not divide d_model = %ld; give %shead_dim",
                                prefix, *heads, d, prefix);
        *head_dim = d / *heads;
    }
    set_default(kv_heads, *heads);
    if (*heads % *kv_heads != 0)
        return ls_error_set(err, LS_ERR_USAGE, "%sheads = %ld is not a multiple of %skv_heads = %ld", prefix, *heads,
                            prefix, *kv_heads);
    return 0;
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
                    {"loop_layers", offsetof(ls_shape_spec, layers)}};
    for (size_t i = 0; i < sizeof required / sizeof *required; i++)
        if (cat(s, required[i].offset) == LS_SHAPE_UNSET)
            return ls_error_set(err, LS_ERR_USAGE, "%s is required", required[i].key);
    int experts_given = s->experts != LS_SHAPE_UNSET;
    set_default(&s->top_k, 1);
    set_default(&s->experts, 1);
    set_default(&s->loops, 1);
    set_default(&s->head_layers, 0);
    set_default(&s->tail_layers, 0);
    set_default(&s->head_experts, s->experts);
    set_default(&s->tail_experts, s->head_experts);
    set_default(&s->context, 0);
    set_default(&s->shared_experts, 0);
    set_default(&s->moe_layers, s->layers);
    set_default(&s->attention, LS_SHAPE_ATTENTION_TIED);
    set_default(&s->embeddings, LS_SHAPE_EMBEDDINGS_UNTIED);
    set_default(&s->norm_params, LS_SHAPE_NORMS_NONE);
    set_default(&s->mlp, LS_SHAPE_MLP_SWIGLU);
    set_default(&s->injection, LS_SHAPE_INJECTION_NONE);
    set_default(&s->embedding_norm, 0);
    set_default(&s->loop_norm, 0);
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
    if (s->experts < k) {
        if (experts_given)
            return ls_error_set(err, LS_ERR_USAGE, "experts = %ld is less than top_k = %ld", s->experts, k);
        return ls_error_set(err, LS_ERR_USAGE, "top_k = %ld needs experts: give at least %ld (by default a block "
                            "layer has one, a dense FFN)", k, k);
    }
    if (s->head_experts != 1 && s->head_experts < k)
        return ls_error_set(err, LS_ERR_USAGE, "prelude_experts = %ld is less than top_k = %ld (1 is a dense layer)",
                            s->head_experts, k);
    if (s->tail_experts != 1 && s->tail_experts < k)
        return ls_error_set(err, LS_ERR_USAGE, "coda_experts = %ld is less than top_k = %ld (1 is a dense layer)",
                            s->tail_experts, k);
    if (s->moe_layers > s->layers)
        return ls_error_set(err, LS_ERR_USAGE, "moe_layers = %ld is more than the block's %ld layers", s->moe_layers,
                            s->layers);
    if (s->experts > 1 && s->moe_layers == 0)
        return ls_error_set(err, LS_ERR_USAGE, "moe_layers = 0 leaves the block's %ld experts in no layer",
                            s->experts);
    if (resolve_geometry(s->d_model, &s->heads, &s->kv_heads, &s->head_dim, "", err) != 0)
        return err->code;
    static const char *const prefixes[LS_SHAPE_NSTAGES] = {"prelude_", "loop_", "coda_"};
    for (int st = 0; st < LS_SHAPE_NSTAGES; st++) {
        long *h = &s->stage_heads[st], *g = &s->stage_kv_heads[st], *hd = &s->stage_head_dim[st];
        if (*h == LS_SHAPE_UNSET && *g == LS_SHAPE_UNSET && *hd == LS_SHAPE_UNSET) {
            *h = s->heads;
            *g = s->kv_heads;
            *hd = s->head_dim;
            continue;
        }
        if (*h == LS_SHAPE_UNSET) { /* the model's heads, with the stage's own key/value heads or size */
            *h = s->heads;
            if (*hd == LS_SHAPE_UNSET && s->heads != LS_SHAPE_UNSET)
                *hd = s->head_dim;
        }
        if (resolve_geometry(s->d_model, h, g, hd, prefixes[st], err) != 0)
            return err->code;
    }
    for (size_t f = 0; f < NCHOICE_FIELDS; f++) {
        long v = cat(s, CHOICE_FIELDS[f].offset), n = 0;
        while (n < 4 && CHOICE_FIELDS[f].values[n])
            n++;
        if (v < 0 || v >= n) {
            char text[96];
            choices_text(f, text, sizeof text);
            return ls_error_set(err, LS_ERR_USAGE, "%s must be %s", CHOICE_FIELDS[f].key, text);
        }
    }
    for (size_t f = 0; f < NBOOL_FIELDS; f++)
        if (cat(s, BOOL_FIELDS[f].offset) != 0 && cat(s, BOOL_FIELDS[f].offset) != 1)
            return ls_error_set(err, LS_ERR_USAGE, "%s must be 0 or 1", BOOL_FIELDS[f].key);
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
    if (s->moe_layers != s->layers && s->moe_layers % factor != 0)
        return ls_error_set(err, LS_ERR_USAGE, "flattening %d step%s: moe_layers = %ld cannot be halved %d time%s",
                            steps, steps == 1 ? "" : "s", s->moe_layers, steps, steps == 1 ? "" : "s");
    *out = *s;
    out->experts = s->experts * factor;
    out->layers = s->layers / factor;
    out->moe_layers = s->moe_layers / factor;
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

/* `layers` layers run once, `moe` of them with `experts` experts each (the
 * rest with the dense FFN), with attention sets of attention_set parameters:
 * the head or the tail, or one pass of the block. */
static void count_layers(checked *c, const ls_shape_spec *s, uint64_t attention_set, uint64_t layers, uint64_t moe,
                         uint64_t experts, uint64_t *expert_size, ls_shape_count part[LS_SHAPE_NKINDS])
{
    uint64_t d = (uint64_t)s->d_model;
    uint64_t mats = s->mlp == LS_SHAPE_MLP_SWIGLU ? 3 : 2; /* gate, up, down; or up, down */
    uint64_t dense = mul(c, mats * d, (uint64_t)s->d_ff);
    if (experts == 1)
        moe = 0;
    *expert_size = experts == 1 ? dense : mul(c, mats * d, (uint64_t)s->d_expert);
    /* An MoE layer stores its E routed and its shared experts; a token uses
     * top_k routed experts (the dense FFN's worth) and the shared ones. */
    uint64_t shared = mul(c, (uint64_t)s->shared_experts, *expert_size);
    uint64_t stored_moe = add(c, mul(c, experts, *expert_size), shared), active_moe = add(c, dense, shared);
    uint64_t dense_layers = layers - moe;
    uint64_t norms = s->norm_params == LS_SHAPE_NORMS_SANDWICH ? 4 : s->norm_params == LS_SHAPE_NORMS_PRE ? 2 : 0;
    part[LS_SHAPE_ATTN].stored = part[LS_SHAPE_ATTN].once = mul(c, layers, attention_set);
    part[LS_SHAPE_FFN].stored = add(c, mul(c, moe, stored_moe), mul(c, dense_layers, dense));
    part[LS_SHAPE_FFN].once = add(c, mul(c, moe, active_moe), mul(c, dense_layers, dense));
    part[LS_SHAPE_ROUTER].stored = part[LS_SHAPE_ROUTER].once = mul(c, moe, mul(c, d, experts));
    part[LS_SHAPE_NORM].stored = part[LS_SHAPE_NORM].once = mul(c, layers, norms * d);
    part[LS_SHAPE_INJECT].stored = part[LS_SHAPE_INJECT].once = 0;
    for (int kind = 0; kind < LS_SHAPE_NKINDS; kind++)
        part[kind].all = part[kind].once;
}

/* A stage's attention: a set's parameters, the query and key/value widths. */
static void stage_attention(checked *c, const ls_shape_spec *s, int stage, ls_shape_counts *r)
{
    uint64_t d = (uint64_t)s->d_model;
    if (s->stage_heads[stage] == LS_SHAPE_UNSET) {
        r->stage_q_width[stage] = r->stage_kv_width[stage] = d;
        r->stage_attention_set[stage] = mul(c, 4 * d, d); /* Q, K, V, O: d x d each */
        return;
    }
    uint64_t h = (uint64_t)s->stage_head_dim[stage];
    r->stage_q_width[stage] = mul(c, (uint64_t)s->stage_heads[stage], h);
    r->stage_kv_width[stage] = mul(c, (uint64_t)s->stage_kv_heads[stage], h);
    /* Q and O are d x heads h; K and V are d x kv_heads h. */
    r->stage_attention_set[stage] =
        mul(c, mul(c, d, h), 2 * (uint64_t)s->stage_heads[stage] + 2 * (uint64_t)s->stage_kv_heads[stage]);
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

    for (int st = 0; st < LS_SHAPE_NSTAGES; st++)
        stage_attention(&c, s, st, &r);
    r.q_width = r.stage_q_width[LS_SHAPE_LOOP];
    r.attention_set = r.stage_attention_set[LS_SHAPE_LOOP];
    r.attention_sets = s->attention == LS_SHAPE_ATTENTION_PER_LOOP ? r.d_eff : D;

    /* The block: one pass is D layers; the whole pass runs it L times.
     * Only attention (and its norms) is stored per loop when untied. */
    count_layers(&c, s, r.attention_set, D, (uint64_t)s->moe_layers, E, &r.expert, r.block);
    for (int kind = 0; kind < LS_SHAPE_NKINDS; kind++)
        r.block[kind].all = mul(&c, L, r.block[kind].once);
    r.block[LS_SHAPE_ATTN].stored = mul(&c, r.attention_sets, r.attention_set);
    /* Half of a layer's norms stand before and after its attention. */
    uint64_t half = s->norm_params == LS_SHAPE_NORMS_SANDWICH ? 2 : s->norm_params == LS_SHAPE_NORMS_PRE ? 1 : 0;
    r.block[LS_SHAPE_NORM].stored = mul(&c, mul(&c, add(&c, r.attention_sets, D), half), d);
    if (s->loop_norm) { /* a norm at the end of every loop */
        r.block[LS_SHAPE_NORM].stored = add(&c, r.block[LS_SHAPE_NORM].stored, d);
        r.block[LS_SHAPE_NORM].once = add(&c, r.block[LS_SHAPE_NORM].once, d);
        r.block[LS_SHAPE_NORM].all = add(&c, r.block[LS_SHAPE_NORM].all, mul(&c, L, d));
    }
    if (s->injection == LS_SHAPE_INJECTION_CONCAT) { /* [e; s] (2d) -> d on every loop */
        uint64_t adapter = mul(&c, 2 * d, d);
        r.block[LS_SHAPE_INJECT] = (ls_shape_count){adapter, adapter, mul(&c, L, adapter)};
    }

    uint64_t head_layers = (uint64_t)s->head_layers, tail_layers = (uint64_t)s->tail_layers;
    count_layers(&c, s, r.stage_attention_set[LS_SHAPE_PRELUDE], head_layers, head_layers,
                 (uint64_t)s->head_experts, &r.head_expert, r.head);
    count_layers(&c, s, r.stage_attention_set[LS_SHAPE_CODA], tail_layers, tail_layers, (uint64_t)s->tail_experts,
                 &r.tail_expert, r.tail);
    if (s->embedding_norm) { /* a norm of the embedded input, before the prelude */
        ls_shape_count one = {d, d, d};
        add_count(&c, &r.head[LS_SHAPE_NORM], &one);
    }
    if (s->norm_params != LS_SHAPE_NORMS_NONE)
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
    uint64_t scores[LS_SHAPE_NSTAGES];
    for (int st = 0; st < LS_SHAPE_NSTAGES; st++)
        scores[st] = mul(&c, mul(&c, 4, (uint64_t)s->context), r.stage_q_width[st]);
    uint64_t prelude_scores = mul(&c, scores[LS_SHAPE_PRELUDE], head_layers);
    uint64_t loop_scores = mul(&c, scores[LS_SHAPE_LOOP], D);
    uint64_t coda_scores = mul(&c, scores[LS_SHAPE_CODA], tail_layers);
    r.flops_matmul = mul(&c, 2, r.total.all);
    r.flops_attention = add(&c, add(&c, prelude_scores, mul(&c, L, loop_scores)), coda_scores);
    r.flops_total = add(&c, r.flops_matmul, r.flops_attention);
    r.flops_prelude = add(&c, mul(&c, 2, head.all), prelude_scores);
    r.flops_loop = add(&c, mul(&c, 2, r.n_loop), loop_scores);
    uint64_t coda_params = add(&c, add(&c, tail.all, r.final_norm.all), r.lm_head.all);
    r.flops_coda = add(&c, mul(&c, 2, coda_params), coda_scores);
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
    /* The conventions hold layer counts as int: a larger count saturates,
     * and ls_law_flops_check refuses it, rather than wrap. */
    out->prelude_layers = s->head_layers > INT_MAX ? INT_MAX : (int)s->head_layers;
    out->loop_layers = s->layers > INT_MAX ? INT_MAX : (int)s->layers;
    out->coda_layers = s->tail_layers > INT_MAX ? INT_MAX : (int)s->tail_layers;
}

int ls_shape_check_shared(const ls_shape_spec *s, ls_error *err)
{
    int routed = (s->experts > 1 && s->moe_layers > 0) || (s->head_experts > 1 && s->head_layers > 0) ||
                 (s->tail_experts > 1 && s->tail_layers > 0);
    if (s->shared_experts > 0 && !routed)
        return ls_error_set(err, LS_ERR_USAGE, "shared_experts = %ld: no layer has routed experts (experts = %ld), "
                            "and shared experts sit beside them; give experts", s->shared_experts, s->experts);
    return 0;
}
