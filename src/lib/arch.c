#include "loopscale/arch.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch_internal.h"
#include "jsonw_internal.h"
#include "numtext_internal.h"
#include "readfile_internal.h"
#include "shape_internal.h"

#define TEMPLATE_MAX_BYTES ((size_t)1 << 20)

void ls_arch_template_default(ls_arch_template *t)
{
    memset(t, 0, sizeof *t);
    t->attention_share = 1.0 / 3.0;
    t->top_k = 1;
    t->prelude_layers = 2;
    t->loop_layers = 12;
    t->coda_layers = 2;
    t->flops_convention = LS_LAW_FLOPS_6ND;
    t->routed_share = 2.0 / 3.0;
    t->fixed_share = 0.0;
    t->per_loop_share = 0.0;
    t->loop_share = 0.75;
    ls_shape_spec_unset(&t->shape);
    for (int st = 0; st < LS_SHAPE_NSTAGES; st++)
        t->kv_ratio[st] = 1.0;
}

/* ---- the mapping ------------------------------------------------------------------- */

double ls_arch_loop_fraction(const ls_arch_template *t) { return t->loop_share; }

double ls_arch_n_total_at(const ls_arch_template *t, double n_act, double E, double R)
{
    double extra = t->fixed_share + t->routed_share * (E / t->top_k - 1.0) + t->per_loop_share * (R - 1.0);
    if (extra == 0.0)
        return n_act; /* exact for dense rows */
    return n_act * (1.0 + extra);
}

double ls_arch_n_total(const ls_arch_template *t, double n_act, double E) { return ls_arch_n_total_at(t, n_act, E, 1); }

double ls_arch_n_loop(const ls_arch_template *t, double n_act) { return n_act * t->loop_share; }

ls_law_point ls_arch_point(const ls_arch_template *t, double n_act, double E, double R, double tokens)
{
    ls_law_point x = {n_act, ls_arch_n_total_at(t, n_act, E, R), ls_arch_n_loop(t, n_act), R, E, tokens, 0};
    return x;
}

void ls_arch_flops(const ls_arch_template *t, ls_law_flops *out)
{
    *out = (ls_law_flops){t->flops_convention, t->context,       t->vocab,       t->d_model, t->attention_share,
                          t->prelude_layers,   t->loop_layers, t->coda_layers};
}

void ls_arch_set_flops(ls_arch_template *t, const ls_law_flops *c)
{
    t->flops_convention = c->kind;
    t->context = c->context;
    t->vocab = c->vocab;
    t->d_model = c->d_model;
}

double ls_arch_kv_per_token(const ls_arch_template *t, double n_act, double R)
{
    ls_law_flops c;
    ls_arch_flops(t, &c);
    ls_law_point x = ls_arch_point(t, n_act, 1.0, R, 0.0);
    double layers = t->kv_ratio[LS_SHAPE_PRELUDE] * t->prelude_layers + R * t->kv_ratio[LS_SHAPE_LOOP] * t->loop_layers +
                    t->kv_ratio[LS_SHAPE_CODA] * t->coda_layers;
    return 2.0 * ls_law_flops_width(&c, &x) * layers;
}

double ls_arch_tokens_for_flops(const ls_arch_template *t, const ls_law_point *x, double flops)
{
    ls_law_flops c;
    ls_arch_flops(t, &c);
    return ls_law_tokens_for_flops_as(&c, x, flops);
}

double ls_arch_training_flops(const ls_arch_template *t, const ls_law_point *x)
{
    ls_law_flops c;
    ls_arch_flops(t, &c);
    return ls_law_training_flops_as(&c, x);
}

double ls_arch_inference_flops(const ls_arch_template *t, const ls_law_point *x)
{
    ls_law_flops c;
    ls_arch_flops(t, &c);
    return ls_law_inference_flops_as(&c, x);
}

void ls_arch_template_describe(const ls_arch_template *t, char *buf, size_t size)
{
    char extra[96] = "";
    if (t->fixed_share != 0 || t->per_loop_share != 0)
        snprintf(extra, sizeof extra, ", fixed share %.4g, per-loop share %.4g", t->fixed_share, t->per_loop_share);
    snprintf(buf, size, "%s%stop-%d, routed share %.4g, loop share %.4g%s%s", t->name, t->name[0] ? " (" : "",
             t->top_k, t->routed_share, t->loop_share, extra, t->name[0] ? ")" : "");
}

/* ---- a model's shares ------------------------------------------------------------- */

/* The parts of N_act, N_total (at E experts and L loops) and N_loop that
 * grow with the width squared: counted at the model's width and at twice
 * it (every width doubled, the head counts kept), N(2d) - 2 N(d) = 2 c2 d^2
 * for any count c2 d^2 + c1 d. */
static int quadratic_parts(const ls_shape_spec *given, long E, long L, double q[3], ls_error *err)
{
    ls_shape_counts c[2];
    for (int twice = 0; twice < 2; twice++) {
        ls_shape_spec s = *given;
        if (s.vocab == LS_SHAPE_UNSET)
            s.vocab = 1; /* the counts used are non-embedding */
        s.experts = E;
        s.loops = L;
        if (twice) {
            long *widths[] = {&s.d_model, &s.d_ff, &s.d_expert, &s.head_dim, &s.stage_head_dim[0],
                              &s.stage_head_dim[1], &s.stage_head_dim[2]};
            for (size_t i = 0; i < sizeof widths / sizeof *widths; i++)
                if (*widths[i] != LS_SHAPE_UNSET)
                    *widths[i] *= 2;
        }
        if (ls_shape_resolve(&s, err) != 0 || ls_shape_count_params(&s, &c[twice], err) != 0)
            return err->code;
    }
    const uint64_t once[2] = {c[0].non_embedding.once, c[1].non_embedding.once};
    const uint64_t stored[2] = {c[0].non_embedding.stored, c[1].non_embedding.stored};
    const uint64_t loop[2] = {c[0].n_loop, c[1].n_loop};
    q[0] = ((double)((int64_t)once[1] - 2 * (int64_t)once[0])) / 2;
    q[1] = ((double)((int64_t)stored[1] - 2 * (int64_t)stored[0])) / 2;
    q[2] = ((double)((int64_t)loop[1] - 2 * (int64_t)loop[0])) / 2;
    return 0;
}

/* A share that is 0 up to rounding is 0. */
static double clean(double x) { return fabs(x) < 1e-12 ? 0.0 : x; }

/* The shares of a model: N_total at E = 2k and 3k (E / k - 1 = 1 and 2, so
 * that no layer with one expert turns into a dense one) and at 1 and 2
 * loops; N_act and N_loop do not depend on E but through the routers. */
static int model_shares(const ls_shape_spec *given, ls_arch_template *t, ls_error *err)
{
    long k = given->top_k == LS_SHAPE_UNSET ? 1 : given->top_k;
    /* The E being chosen is the loop block's: with no block layer of
     * experts it would sit nowhere. */
    if (given->moe_layers == 0)
        return ls_error_set(err, LS_ERR_DATA, "moe_layers: 0 leaves no loop-block layer for the experts E being "
                            "chosen (a template's E is the loop block's); give moe_layers of at least 1");
    double a[3], b[3], r[3];
    if (quadratic_parts(given, 2 * k, 1, a, err) != 0 || quadratic_parts(given, 3 * k, 1, b, err) != 0 ||
        quadratic_parts(given, 2 * k, 2, r, err) != 0)
        return err->code;
    double act = a[0];
    t->routed_share = clean((b[1] - a[1]) / act);
    t->fixed_share = clean(a[1] / act - 1.0 - t->routed_share);
    t->per_loop_share = clean((r[1] - a[1]) / act);
    t->loop_share = a[2] / act;
    ls_shape_spec s = *given;
    if (s.vocab == LS_SHAPE_UNSET)
        s.vocab = 1;
    if (ls_shape_resolve(&s, err) != 0)
        return err->code;
    t->top_k = (int)s.top_k;
    t->prelude_layers = (int)s.head_layers;
    t->loop_layers = (int)s.layers;
    t->coda_layers = (int)s.tail_layers;
    /* The FLOP conventions read the width off N_act as
     * sqrt(attention_share N_act / (4 n_all)): the model's N_act is
     * (act / d^2) d^2 at width d. */
    double n_all = (double)(s.head_layers + s.layers + s.tail_layers), d = (double)given->d_model;
    t->attention_share = 4.0 * n_all / (act / (d * d));
    t->d_model = 0.0; /* the width follows N_act */
    /* The key/value width of each stage per unit of width: head counts are
     * kept and head sizes grow with the width as the model is scaled. */
    ls_shape_counts c;
    if (ls_shape_count_params(&s, &c, err) != 0)
        return err->code;
    for (int st = 0; st < LS_SHAPE_NSTAGES; st++)
        t->kv_ratio[st] = (double)c.stage_kv_width[st] / d;
    return 0;
}

/* ---- documents -------------------------------------------------------------------- */

static const char *const SHARE_KEYS[] = {"attention_share", "routed_share", "fixed_share", "per_loop_share",
                                         "loop_share"};
#define NSHARE_KEYS (sizeof SHARE_KEYS / sizeof *SHARE_KEYS)

static double *share_of(ls_arch_doc *doc, size_t i)
{
    double *v[NSHARE_KEYS] = {&doc->attention_share, &doc->routed_share, &doc->fixed_share, &doc->per_loop_share,
                              &doc->loop_share};
    return v[i];
}

static void doc_init(ls_arch_doc *doc)
{
    memset(doc, 0, sizeof *doc);
    ls_shape_spec_unset(&doc->shape);
    doc->attention_share = doc->routed_share = doc->fixed_share = doc->per_loop_share = doc->loop_share =
        doc->loop_fraction = NAN;
    doc->flops_convention = -1;
}

static int doc_string(const char *path, const cJSON *item, char *buf, size_t size, ls_error *err)
{
    if (!cJSON_IsString(item))
        return ls_error_set(err, LS_ERR_DATA, "%s: %s: expected a string", path, item->string);
    if (strlen(item->valuestring) >= size)
        return ls_error_set(err, LS_ERR_DATA, "%s: %s: longer than %zu bytes", path, item->string, size - 1);
    memcpy(buf, item->valuestring, strlen(item->valuestring) + 1);
    return 0;
}

static int read_member(const cJSON *item, const char *path, ls_arch_doc *doc, const char **seen, ls_error *err)
{
    const char *key = item->string;
    if (strcmp(key, "format") == 0) {
        if (!cJSON_IsString(item) || (strcmp(item->valuestring, LS_ARCH_TEMPLATE_FORMAT) != 0 &&
                                      strcmp(item->valuestring, LS_SHAPE_FORMAT) != 0))
            return ls_error_set(err, LS_ERR_DATA, "%s: format: expected \"%s\" (or \"%s\")", path,
                                LS_ARCH_TEMPLATE_FORMAT, LS_SHAPE_FORMAT);
        return 0;
    }
    if (strcmp(key, "name") == 0)
        return doc_string(path, item, doc->name, sizeof doc->name, err);
    if (strcmp(key, "source") == 0)
        return doc_string(path, item, doc->source, sizeof doc->source, err);
    if (strcmp(key, "flops_convention") == 0) {
        int kind = cJSON_IsString(item) ? ls_law_flops_from_name(item->valuestring) : -1;
        if (kind < 0)
            return ls_error_set(err, LS_ERR_DATA, "%s: flops_convention: expected \"6nd\", \"6nd+head\", "
                                "\"6nd+attn\" or \"6nd+attn+head\"", path);
        doc->flops_convention = kind;
        return 0;
    }
    for (size_t i = 0; i <= NSHARE_KEYS; i++) {
        const char *name = i < NSHARE_KEYS ? SHARE_KEYS[i] : "loop_fraction";
        if (strcmp(key, name) != 0)
            continue;
        if (!cJSON_IsNumber(item) || !isfinite(item->valuedouble))
            return ls_error_set(err, LS_ERR_DATA, "%s: %s: expected a number", path, key);
        *(i < NSHARE_KEYS ? share_of(doc, i) : &doc->loop_fraction) = item->valuedouble;
        if (i < NSHARE_KEYS && !doc->share_key[0])
            snprintf(doc->share_key, sizeof doc->share_key, "%s", key);
        return 0;
    }
    int status = ls_shape_spec_set_key(&doc->shape, seen, path, item, err);
    if (status < 0 || status > 1)
        return err->code;
    if (status == 0)
        return ls_error_set(err, LS_ERR_DATA, "%s: unknown key '%s' (docs/formats.md lists a template's keys)", path,
                            key);
    return 0;
}

/* The members of `loopscale shape --format json` beside its "shape" (docs/formats.md): what a template
 * file read from that output may hold there. */
static const char *const SHAPE_OUTPUT_MEMBERS[] = {"format", "identities", "sizes", "params", "sweep_row", "n_unroll",
                                                   "flops_per_token", "inference_flops_per_token_by_convention",
                                                   "mup", "ladder"};

/* Whether key is one a template reads (a share, a shape's key...). */
static int is_template_key(const cJSON *item)
{
    static const char *const own[] = {"name", "source", "flops_convention", "loop_fraction"};
    for (size_t i = 0; i < sizeof own / sizeof *own; i++)
        if (strcmp(item->string, own[i]) == 0)
            return 1;
    for (size_t i = 0; i < NSHARE_KEYS; i++)
        if (strcmp(item->string, SHARE_KEYS[i]) == 0)
            return 1;
    ls_shape_spec scratch;
    ls_shape_spec_unset(&scratch);
    const char *seen[LS_SHAPE_NKEYS] = {0};
    ls_error ignored;
    return ls_shape_spec_set_key(&scratch, seen, "", item, &ignored) != 0;
}

int ls_arch_doc_from_json(const cJSON *root, const char *path, ls_arch_doc *doc, ls_error *err)
{
    doc_init(doc);
    if (!cJSON_IsObject(root))
        return ls_error_set(err, LS_ERR_DATA, "%s: expected a JSON object at the top", path);
    /* The output of `loopscale shape --format json` carries the shape as its
     * "shape" member, so it can be read back as it is; only that member is
     * read, so a template's key beside it was edited where it counts for
     * nothing, and any other key but the output's own is unknown. */
    const cJSON *inner = cJSON_GetObjectItemCaseSensitive(root, "shape");
    const cJSON *obj = root;
    if (cJSON_IsObject(inner)) {
        const cJSON *item;
        cJSON_ArrayForEach(item, root)
        {
            int output = 0;
            for (size_t i = 0; i < sizeof SHAPE_OUTPUT_MEMBERS / sizeof *SHAPE_OUTPUT_MEMBERS; i++)
                output |= strcmp(item->string, SHAPE_OUTPUT_MEMBERS[i]) == 0;
            if (item == inner || output)
                continue;
            if (is_template_key(item))
                return ls_error_set(err, LS_ERR_DATA, "%s: %s: outside the \"shape\" object, which is what is read; "
                                    "move it inside", path, item->string);
            return ls_error_set(err, LS_ERR_DATA, "%s: unknown key '%s' beside the \"shape\" object (only that "
                                "object and the other members of `loopscale shape --format json` may stand there)",
                                path, item->string);
        }
        obj = inner;
    }
    const char *seen[LS_SHAPE_NKEYS] = {0};
    const cJSON *item;
    cJSON_ArrayForEach(item, obj)
    {
        if (read_member(item, path, doc, seen, err) != 0)
            return err->code;
    }
    return 0;
}

int ls_arch_doc_parse(const char *text, size_t len, const char *path, ls_arch_doc *doc, ls_error *err)
{
    cJSON *root = ls_parse_json_text(text, len, path, err);
    if (!root)
        return err->code;
    int status = ls_arch_doc_from_json(root, path, doc, err);
    cJSON_Delete(root);
    if (status != 0)
        ls_json_error_locate(err, path, text, len);
    return status;
}

/* A share given beside a model must be the model's own (the writer writes
 * them so that people can read them): one that disagrees was edited in the
 * belief that it counts. */
static int check_derived(const char *path, const char *key, double given, double derived, const char *from,
                         ls_error *err)
{
    if (isnan(given) || fabs(given - derived) <= 1e-9 * fmax(fabs(derived), 1e-300) + 1e-15)
        return 0;
    return ls_error_set(err, LS_ERR_DATA, "%s: %s: %.17g disagrees with %s (%.6g); it is derived from them, so "
                        "change them or remove it", path, key, given, from, derived);
}

/* A template holds its layer counts and top_k as int: larger values are
 * refused as read, before any conversion could wrap them. */
#define ARCH_MAX_COUNT 1000000L

static int check_counts(const ls_shape_spec *g, const char *path, ls_error *err)
{
    static const struct {
        const char *key;
        size_t offset;
    } counts[] = {{"top_k", offsetof(ls_shape_spec, top_k)},
                  {"prelude_layers", offsetof(ls_shape_spec, head_layers)},
                  {"loop_layers", offsetof(ls_shape_spec, layers)},
                  {"coda_layers", offsetof(ls_shape_spec, tail_layers)}};
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
        long v = *(const long *)((const char *)g + counts[i].offset);
        if (v != LS_SHAPE_UNSET && v > ARCH_MAX_COUNT)
            return ls_error_set(err, LS_ERR_DATA, "%s: %s: %ld is more than %ld", path, counts[i].key, v,
                                ARCH_MAX_COUNT);
    }
    return 0;
}

/* The FLOP convention a template names must be one it can count: its
 * context and vocabulary are the template's own keys. */
static int check_convention(const ls_arch_doc *doc, const ls_arch_template *t, const char *path, ls_error *err)
{
    if (doc->flops_convention < 0)
        return 0;
    ls_law_flops c;
    ls_arch_flops(t, &c);
    ls_error why;
    if (ls_law_flops_check(&c, &why) == 0)
        return 0;
    return ls_error_set(err, LS_ERR_DATA, "%s: flops_convention: %s", path, why.message);
}

int ls_arch_template_from_doc(const ls_arch_doc *doc, const char *path, ls_arch_template *t, ls_error *err)
{
    const ls_shape_spec *g = &doc->shape;
    int model = g->d_ff != LS_SHAPE_UNSET || g->d_expert != LS_SHAPE_UNSET;
    if (check_counts(g, path, err) != 0)
        return err->code;
    if (doc->name[0])
        snprintf(t->name, sizeof t->name, "%s", doc->name);
    if (doc->source[0])
        snprintf(t->source, sizeof t->source, "%s", doc->source);
    if (doc->flops_convention >= 0)
        t->flops_convention = (ls_law_flops_kind)doc->flops_convention;
    if (g->context > 0)
        t->context = (double)g->context;
    if (g->vocab != LS_SHAPE_UNSET)
        t->vocab = (double)g->vocab;
    if (model) {
        if (g->d_model == LS_SHAPE_UNSET || g->layers == LS_SHAPE_UNSET)
            return ls_error_set(err, LS_ERR_DATA, "%s: %s is required in a template that describes a model (it gives "
                                "%s)", path, g->d_model == LS_SHAPE_UNSET ? "d_model" : "loop_layers",
                                g->d_ff != LS_SHAPE_UNSET ? "d_ff" : "d_expert");
        ls_arch_template derived = *t;
        if (ls_shape_check_stages(g, err) != 0 || model_shares(g, &derived, err) != 0) {
            char why[LS_ERROR_MESSAGE_MAX];
            snprintf(why, sizeof why, "%s", err->message);
            return ls_error_set(err, LS_ERR_DATA, "%s: %s", path, why);
        }
        const double shares[NSHARE_KEYS] = {derived.attention_share, derived.routed_share, derived.fixed_share,
                                            derived.per_loop_share, derived.loop_share};
        ls_arch_doc given = *doc;
        for (size_t i = 0; i < NSHARE_KEYS; i++)
            if (check_derived(path, SHARE_KEYS[i], *share_of(&given, i), shares[i], "the model's widths and layers",
                              err) != 0)
                return err->code;
        if (check_derived(path, "loop_fraction", doc->loop_fraction, derived.loop_share,
                          "the model's widths and layers", err) != 0)
            return err->code;
        *t = derived;
        t->has_shape = 1;
        t->shape = *g;
        return check_convention(doc, t, path, err);
    }
    /* Shares: of a shape's keys, only those the FLOP conventions and the
     * layer counts read mean anything without a model. */
    static const struct {
        const char *key;
        size_t offset;
    } model_only[] = {
        {"experts", offsetof(ls_shape_spec, experts)},
        {"shared_experts", offsetof(ls_shape_spec, shared_experts)},
        {"moe_layers", offsetof(ls_shape_spec, moe_layers)},
        {"loops", offsetof(ls_shape_spec, loops)},
        {"prelude_experts", offsetof(ls_shape_spec, head_experts)},
        {"coda_experts", offsetof(ls_shape_spec, tail_experts)},
        {"heads", offsetof(ls_shape_spec, heads)},
        {"kv_heads", offsetof(ls_shape_spec, kv_heads)},
        {"head_dim", offsetof(ls_shape_spec, head_dim)},
        {"attention", offsetof(ls_shape_spec, attention)},
        {"embeddings", offsetof(ls_shape_spec, embeddings)},
        {"norms", offsetof(ls_shape_spec, norm_params)},
        {"mlp", offsetof(ls_shape_spec, mlp)},
        {"injection", offsetof(ls_shape_spec, injection)},
        {"embedding_norm", offsetof(ls_shape_spec, embedding_norm)},
        {"loop_norm", offsetof(ls_shape_spec, loop_norm)},
    };
    for (size_t i = 0; i < sizeof model_only / sizeof *model_only; i++)
        if (*(const long *)((const char *)g + model_only[i].offset) != LS_SHAPE_UNSET)
            return ls_error_set(err, LS_ERR_DATA, "%s: %s: describes a model, which a template counts only with its "
                                "FFN width: give d_ff (or d_expert) and d_model", path, model_only[i].key);
    for (int st = 0; st < LS_SHAPE_NSTAGES; st++)
        if (g->stage_heads[st] != LS_SHAPE_UNSET || g->stage_kv_heads[st] != LS_SHAPE_UNSET ||
            g->stage_head_dim[st] != LS_SHAPE_UNSET)
            return ls_error_set(err, LS_ERR_DATA, "%s: a stage's heads describe a model, which a template counts only "
                                "with its FFN width: give d_ff (or d_expert) and d_model", path);
    if (g->top_k != LS_SHAPE_UNSET)
        t->top_k = (int)g->top_k;
    int layers_given = g->head_layers != LS_SHAPE_UNSET || g->layers != LS_SHAPE_UNSET ||
                       g->tail_layers != LS_SHAPE_UNSET;
    if (g->head_layers != LS_SHAPE_UNSET)
        t->prelude_layers = (int)g->head_layers;
    if (g->layers != LS_SHAPE_UNSET)
        t->loop_layers = (int)g->layers;
    if (g->tail_layers != LS_SHAPE_UNSET)
        t->coda_layers = (int)g->tail_layers;
    if (g->d_model != LS_SHAPE_UNSET)
        t->d_model = (double)g->d_model;
    static const struct {
        double lo, hi;
        int lo_open, hi_open;
    } ranges[NSHARE_KEYS] = {{0, 1, 0, 1}, {0, 1, 0, 0}, {0, 1e6, 0, 0}, {0, 1e6, 0, 0}, {0, 1, 1, 0}};
    ls_arch_doc given = *doc;
    for (size_t i = 0; i < NSHARE_KEYS; i++) {
        double v = *share_of(&given, i);
        if (isnan(v))
            continue;
        if ((ranges[i].lo_open ? !(v > ranges[i].lo) : !(v >= ranges[i].lo)) ||
            (ranges[i].hi_open ? !(v < ranges[i].hi) : !(v <= ranges[i].hi)))
            return ls_error_set(err, LS_ERR_DATA, "%s: %s: %.17g is not a number in %c%g, %g%c", path, SHARE_KEYS[i],
                                v, ranges[i].lo_open ? '(' : '[', ranges[i].lo, ranges[i].hi,
                                ranges[i].hi_open ? ')' : ']');
    }
    /* Attention and the routed experts are both parts of N_act. */
    if (!isnan(doc->attention_share) && !isnan(doc->routed_share) &&
        doc->attention_share + doc->routed_share > 1 + 1e-12) {
        char routed[NUMTEXT_DOUBLE_MAX], attention[NUMTEXT_DOUBLE_MAX];
        return ls_error_set(err, LS_ERR_DATA, "%s: routed_share: %s and attention_share %s add up to more than 1: "
                            "attention and the routed experts are both parts of N_act", path,
                            ls_numtext_format_double(routed, doc->routed_share),
                            ls_numtext_format_double(attention, doc->attention_share));
    }
    if (!isnan(doc->attention_share))
        t->attention_share = doc->attention_share;
    /* attention_share alone is the older form: every layer's non-attention
     * part is routed experts. */
    if (!isnan(doc->routed_share))
        t->routed_share = doc->routed_share;
    else if (!isnan(doc->attention_share))
        t->routed_share = 1.0 - doc->attention_share;
    if (!isnan(doc->fixed_share))
        t->fixed_share = doc->fixed_share;
    if (!isnan(doc->per_loop_share))
        t->per_loop_share = doc->per_loop_share;
    int outside = t->prelude_layers + t->coda_layers;
    if (!isnan(doc->loop_share)) {
        /* The loop share counts parameters and may differ from the layers'
         * fraction (a block of wider layers); but all of N_act is in the
         * block only when no layer is outside it. */
        char share[NUMTEXT_DOUBLE_MAX];
        if (layers_given && (doc->loop_share >= 1) != (outside == 0))
            return ls_error_set(err, LS_ERR_DATA, "%s: loop_share: %s cannot hold with %d prelude and %d coda "
                                "layers (%s)", path, ls_numtext_format_double(share, doc->loop_share),
                                t->prelude_layers, t->coda_layers,
                                outside ? "layers outside the block hold part of N_act" :
                                          "with no layer outside the block, all of N_act is in it: 1");
        t->loop_share = doc->loop_share;
        if (!layers_given && doc->loop_share >= 1) { /* the default layers, all in the block */
            t->loop_layers += outside;
            t->prelude_layers = t->coda_layers = 0;
        }
    } else if (layers_given)
        t->loop_share = (double)t->loop_layers / (double)(outside + t->loop_layers);
    if (!isnan(doc->loop_fraction) && !(fabs(doc->loop_fraction - t->loop_share) <= 1e-9 * t->loop_share)) {
        if (!isnan(doc->loop_share)) {
            char fraction[NUMTEXT_DOUBLE_MAX], share[NUMTEXT_DOUBLE_MAX];
            return ls_error_set(err, LS_ERR_DATA, "%s: loop_fraction: %s disagrees with loop_share (%s), its newer "
                                "name; remove it", path, ls_numtext_format_double(fraction, doc->loop_fraction),
                                ls_numtext_format_double(share, doc->loop_share));
        }
        return ls_error_set(err, LS_ERR_DATA,
                            "%s: loop_fraction: %.17g disagrees with the layer counts (%d of %d layers loop: %.6g); "
                            "it is derived from them, so change the counts or remove it",
                            path, doc->loop_fraction, t->loop_layers, outside + t->loop_layers, t->loop_share);
    }
    t->has_shape = 0;
    ls_shape_spec_unset(&t->shape);
    for (int st = 0; st < LS_SHAPE_NSTAGES; st++)
        t->kv_ratio[st] = 1.0;
    return check_convention(doc, t, path, err);
}

int ls_arch_template_read(const char *path, ls_arch_template *t, ls_error *err)
{
    char *text = NULL;
    size_t len = 0;
    if (ls_read_small_file(path, TEMPLATE_MAX_BYTES, "template file", &text, &len, err) != 0)
        return err->code;
    int status = ls_arch_template_parse(text, len, ls_input_name(path), t, err);
    free(text);
    return status;
}

int ls_arch_template_parse(const char *text, size_t len, const char *path, ls_arch_template *t, ls_error *err)
{
    ls_arch_doc doc;
    if (ls_arch_doc_parse(text, len, path, &doc, err) != 0)
        return err->code;
    int status = ls_arch_template_from_doc(&doc, path, t, err);
    if (status != 0)
        ls_json_error_locate(err, path, text, len);
    return status;
}

void ls_arch_template_write_json(jsonw *w, const char *key, const ls_arch_template *t)
{
    ls_jsonw_object_begin(w, key);
    ls_jsonw_string(w, "format", LS_ARCH_TEMPLATE_FORMAT);
    if (t->name[0])
        ls_jsonw_string(w, "name", t->name);
    if (t->source[0])
        ls_jsonw_string(w, "source", t->source);
    if (t->has_shape)
        ls_shape_spec_write_fields(w, &t->shape);
    else {
        ls_jsonw_integer(w, "top_k", t->top_k);
        ls_jsonw_integer(w, "prelude_layers", t->prelude_layers);
        ls_jsonw_integer(w, "loop_layers", t->loop_layers);
        ls_jsonw_integer(w, "coda_layers", t->coda_layers);
    }
    /* A model's shares are derived, written for people (and checked when
     * read back); the others are the template. */
    ls_jsonw_number(w, "attention_share", t->attention_share);
    ls_jsonw_number(w, "routed_share", t->routed_share);
    ls_jsonw_number(w, "fixed_share", t->fixed_share);
    ls_jsonw_number(w, "per_loop_share", t->per_loop_share);
    ls_jsonw_number(w, "loop_share", t->loop_share);
    ls_jsonw_string(w, "flops_convention", ls_law_flops_name(t->flops_convention));
    if (!t->has_shape) {
        if (t->context > 0)
            ls_jsonw_integer(w, "context", (long long)t->context);
        if (t->vocab > 0)
            ls_jsonw_integer(w, "vocab", (long long)t->vocab);
        if (t->d_model > 0)
            ls_jsonw_integer(w, "d_model", (long long)t->d_model);
    }
    ls_jsonw_object_end(w);
}

char *ls_arch_template_to_json(const ls_arch_template *t, ls_error *err)
{
    jsonw w;
    ls_jsonw_init(&w);
    ls_arch_template_write_json(&w, NULL, t);
    return ls_jsonw_finish(&w, err);
}

/* ---- the architecture of a law's runs ---------------------------------------------- */

static const char *const SOURCE_NAMES[] = {"template", "default", "runs"};

const char *ls_arch_source_name(ls_arch_source source)
{
    return (unsigned)source < 3 ? SOURCE_NAMES[source] : "?";
}

int ls_arch_source_from_name(const char *name)
{
    for (int i = 0; i < 3; i++)
        if (strcmp(SOURCE_NAMES[i], name) == 0)
            return i;
    return -1;
}

void ls_arch_record_free(ls_arch_record *r)
{
    if (!r)
        return;
    free(r->configs);
    r->configs = NULL;
    r->nconfigs = 0;
}

int ls_arch_record_copy(const ls_arch_record *from, ls_arch_record *to, ls_error *err)
{
    *to = *from;
    to->configs = NULL;
    if (from->nconfigs && !(to->configs = malloc(from->nconfigs * sizeof *to->configs)))
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    if (from->nconfigs)
        memcpy(to->configs, from->configs, from->nconfigs * sizeof *to->configs);
    return 0;
}

/* One run as the record sees it. */
typedef struct run_ratio {
    double E, R, k, total, loop; /* loop NaN: not given */
} run_ratio;

static int compare_runs(const void *a, const void *b)
{
    const run_ratio *x = a, *y = b;
    if (x->E != y->E)
        return x->E < y->E ? -1 : 1;
    if (x->R != y->R)
        return x->R < y->R ? -1 : 1;
    return (x->k > y->k) - (x->k < y->k);
}

/* The largest relative difference of t's ratios from the runs'. */
static void residuals(const ls_arch_template *t, const run_ratio *v, size_t n, double *total, double *loop)
{
    *total = 0.0;
    *loop = NAN;
    for (size_t i = 0; i < n; i++) {
        double want = ls_arch_n_total_at(t, 1.0, v[i].E, v[i].R);
        *total = fmax(*total, fabs(want - v[i].total) / v[i].total);
        if (!isnan(v[i].loop))
            *loop = fmax(isnan(*loop) ? 0.0 : *loop, fabs(t->loop_share - v[i].loop) / v[i].loop);
    }
}

/* Weighted least squares for y = X b over the columns in use (at most 3),
 * by the normal equations; 0 when they are singular. */
static int least_squares(const run_ratio *v, size_t n, const int use[3], double b[3])
{
    double a[3][4] = {{0}};
    int idx[3], m = 0;
    for (int j = 0; j < 3; j++)
        if (use[j])
            idx[m++] = j;
    if (m == 0)
        return 1;
    for (size_t i = 0; i < n; i++) {
        double x[3] = {1.0, v[i].E / v[i].k - 1.0, v[i].R - 1.0}, y = v[i].total - 1.0;
        double w = 1.0 / (v[i].total * v[i].total); /* relative errors */
        for (int r = 0; r < m; r++) {
            for (int c = 0; c < m; c++)
                a[r][c] += w * x[idx[r]] * x[idx[c]];
            a[r][m] += w * x[idx[r]] * y;
        }
    }
    double scale = 0;
    for (int r = 0; r < m; r++)
        scale = fmax(scale, a[r][r]);
    for (int c = 0; c < m; c++) { /* Gauss-Jordan with partial pivoting */
        int p = c;
        for (int r = c + 1; r < m; r++)
            if (fabs(a[r][c]) > fabs(a[p][c]))
                p = r;
        if (!(fabs(a[p][c]) > 1e-10 * scale))
            return 0;
        for (int k = 0; k <= m; k++) {
            double tmp = a[c][k];
            a[c][k] = a[p][k];
            a[p][k] = tmp;
        }
        for (int r = 0; r < m; r++) {
            if (r == c)
                continue;
            double f = a[r][c] / a[c][c];
            for (int k = c; k <= m; k++)
                a[r][k] -= f * a[c][k];
        }
    }
    b[0] = b[1] = b[2] = 0.0;
    for (int r = 0; r < m; r++)
        b[idx[r]] = a[r][m] / a[r][r];
    return 1;
}

/* The shares that reproduce the runs best. */
static void fit_shares(const run_ratio *v, size_t n, ls_arch_template *t, unsigned *assumed)
{
    ls_arch_template_default(t);
    *assumed = 0;
    double umin = INFINITY, umax = -INFINITY, vmin = INFINITY, vmax = -INFINITY, kmin = INFINITY, kmax = 0;
    double loop_sum = 0;
    size_t nloop = 0;
    for (size_t i = 0; i < n; i++) {
        double u = v[i].E / v[i].k - 1.0;
        umin = fmin(umin, u);
        umax = fmax(umax, u);
        vmin = fmin(vmin, v[i].R);
        vmax = fmax(vmax, v[i].R);
        kmin = fmin(kmin, v[i].k);
        kmax = fmax(kmax, v[i].k);
        if (!isnan(v[i].loop)) {
            loop_sum += v[i].loop;
            nloop++;
        }
    }
    t->top_k = (int)kmin;
    /* c + s u + p v: s needs a run with E > k, p runs at two R, and c two
     * values of E / k beside s (else it is taken as 0, as the default has it). */
    int use[3] = {umax > umin || umax == 0, umax > 0, vmax > vmin};
    double b[3] = {0, 0, 0};
    while (!least_squares(v, n, use, b)) {
        if (use[0])
            use[0] = 0;
        else if (use[2])
            use[2] = 0;
        else
            break;
    }
    if (!use[1])
        *assumed |= LS_ARCH_ASSUMED_ROUTED;
    if (!use[0])
        *assumed |= LS_ARCH_ASSUMED_FIXED;
    if (!use[2])
        *assumed |= LS_ARCH_ASSUMED_PER_LOOP;
    if (use[1])
        t->routed_share = fmin(1.0, fmax(0.0, clean(b[1])));
    t->fixed_share = use[0] ? fmax(0.0, clean(b[0])) : 0.0;
    t->per_loop_share = use[2] ? fmax(0.0, clean(b[2])) : 0.0;
    if (nloop)
        t->loop_share = loop_sum / (double)nloop;
    else
        *assumed |= LS_ARCH_ASSUMED_LOOP;
    if (t->loop_share >= 1) { /* every parameter loops: no layer outside the block */
        t->loop_share = 1;
        t->loop_layers += t->prelude_layers + t->coda_layers;
        t->prelude_layers = t->coda_layers = 0;
    }
}

int ls_arch_record_runs(const ls_sweep *s, const ls_arch_template *given, ls_arch_record *out, ls_error *err)
{
    memset(out, 0, sizeof *out);
    run_ratio *v = malloc((s->n ? s->n : 1) * sizeof *v);
    if (!v)
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    for (size_t i = 0; i < s->n; i++) {
        const ls_sweep_row *r = &s->rows[i];
        v[i] = (run_ratio){r->E, r->R, r->k, r->n_total / r->n_act,
                           isnan(r->n_loop) || r->n_loop == 0 ? NAN : r->n_loop / r->n_act};
    }
    /* Whichever reproduces the runs: the template fit was given, the
     * default, or the shares fitted to them. */
    ls_arch_template def;
    ls_arch_template_default(&def);
    double total = NAN, loop = NAN, kmin = INFINITY;
    for (size_t i = 0; i < s->n; i++)
        kmin = fmin(kmin, v[i].k);
    int chosen = 0;
    /* A template routes to its top_k: it describes the runs only when that
     * is their k (the smallest, when they have several). */
    if (given && given->top_k == kmin) {
        residuals(given, v, s->n, &total, &loop);
        if (total <= LS_ARCH_TOLERANCE && !(loop > LS_ARCH_TOLERANCE)) {
            out->tmpl = *given;
            out->source = LS_ARCH_FROM_TEMPLATE;
            chosen = 1;
        }
    }
    if (!chosen && def.top_k == kmin) {
        residuals(&def, v, s->n, &total, &loop);
        if (total <= 1e-6 && !(loop > 1e-6)) {
            out->tmpl = def;
            out->source = LS_ARCH_FROM_DEFAULT;
            chosen = 1;
        }
    }
    if (!chosen) {
        fit_shares(v, s->n, &out->tmpl, &out->assumed);
        out->source = LS_ARCH_FROM_RUNS;
        residuals(&out->tmpl, v, s->n, &total, &loop);
    }
    out->residual_total = total;
    out->residual_loop = loop;
    /* Each configuration's ratios. */
    qsort(v, s->n, sizeof *v, compare_runs);
    out->configs = malloc((s->n ? s->n : 1) * sizeof *out->configs);
    if (!out->configs) {
        free(v);
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    }
    for (size_t i = 0; i < s->n; i++) {
        ls_arch_config *c = out->nconfigs ? &out->configs[out->nconfigs - 1] : NULL;
        if (!c || c->E != v[i].E || c->R != v[i].R || c->k != v[i].k) {
            c = &out->configs[out->nconfigs++];
            *c = (ls_arch_config){v[i].E, v[i].R, v[i].k, 0, {v[i].total, v[i].total}, {NAN, NAN}};
        }
        c->runs++;
        c->total_ratio[0] = fmin(c->total_ratio[0], v[i].total);
        c->total_ratio[1] = fmax(c->total_ratio[1], v[i].total);
        if (!isnan(v[i].loop)) {
            c->loop_ratio[0] = isnan(c->loop_ratio[0]) ? v[i].loop : fmin(c->loop_ratio[0], v[i].loop);
            c->loop_ratio[1] = isnan(c->loop_ratio[1]) ? v[i].loop : fmax(c->loop_ratio[1], v[i].loop);
        }
    }
    free(v);
    return 0;
}

void ls_arch_config_residuals(const ls_arch_template *t, const ls_arch_config *c, size_t n, double *total,
                              double *loop)
{
    /* |t - x| / x over [lo, hi] is largest at an end. */
    *total = 0.0;
    *loop = NAN;
    for (size_t i = 0; i < n; i++) {
        double want = ls_arch_n_total_at(t, 1.0, c[i].E, c[i].R);
        for (int e = 0; e < 2; e++) {
            *total = fmax(*total, fabs(want - c[i].total_ratio[e]) / c[i].total_ratio[e]);
            if (!isnan(c[i].loop_ratio[e]))
                *loop = fmax(isnan(*loop) ? 0.0 : *loop, fabs(t->loop_share - c[i].loop_ratio[e]) / c[i].loop_ratio[e]);
        }
    }
}

int ls_arch_template_is_default(const ls_arch_template *t)
{
    ls_arch_template d;
    ls_arch_template_default(&d);
    const double a[5] = {t->attention_share, t->routed_share, t->fixed_share, t->per_loop_share, t->loop_share};
    const double b[5] = {d.attention_share, d.routed_share, d.fixed_share, d.per_loop_share, d.loop_share};
    for (int i = 0; i < 5; i++)
        if (!(fabs(a[i] - b[i]) <= 1e-12))
            return 0;
    return !t->has_shape && t->top_k == d.top_k && t->prelude_layers == d.prelude_layers &&
           t->loop_layers == d.loop_layers && t->coda_layers == d.coda_layers;
}

/* The relative distance of x from [lo, hi] (0 inside). */
static double outside(double x, const double range[2])
{
    if (x < range[0])
        return (range[0] - x) / range[0];
    if (x > range[1])
        return (x - range[1]) / range[1];
    return 0.0;
}

void ls_arch_compare(const ls_arch_template *t, const ls_arch_record *r, ls_arch_difference *out)
{
    memset(out, 0, sizeof *out);
    out->total_ratio = out->loop_ratio = NAN;
    for (size_t i = 0; i < r->nconfigs; i++) {
        const ls_arch_config *c = &r->configs[i];
        double total = ls_arch_n_total_at(t, 1.0, c->E, c->R), d = outside(total, c->total_ratio);
        if (!out->total_at || d > out->total) {
            out->total = d;
            out->total_at = c;
            out->total_ratio = total;
        }
        if (isnan(c->loop_ratio[0]))
            continue;
        d = outside(t->loop_share, c->loop_ratio);
        if (!out->loop_at || d > out->loop) {
            out->loop = d;
            out->loop_at = c;
            out->loop_ratio = t->loop_share;
        }
    }
}
