/*
 * fuzz_documents — the semantic validation of law, template and shape
 * documents.  The first byte picks the reader (0 mod 3: law file, 1: template,
 * 2: shape); the rest is the document.  Whatever a reader accepts must be
 * valid by every rule, checked here independently of the reader:
 *   - it is one JSON document with no repeated key in any object (checked
 *     with cJSON and a quadratic scan, not the reader's sorted one), and
 *     appending a non-space byte makes the reader refuse it;
 *   - law: every parameter and every bootstrap draw in its domain,
 *     E_start < E_max for moe laws, fit statistics that mean something
 *     (objective, rmse >= 0, delta > 0, n >= 1, starts_at_best <= starts,
 *     known loss and space names, 64 hex digits of SHA-256, ranges with
 *     0 < low <= high and R, E >= 1), a confidence level in (0, 1) with
 *     low <= high, standard errors >= 0;
 *   - template: attention share in [0, 1), top_k and loop_layers >= 1,
 *     prelude and coda >= 0, and the written template reads back the same;
 *   - shape: every set field inside its bounds, and the written spec reads
 *     back the same.
 * A refusal must be an error with a message.
 */
#include <cjson/cJSON.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "loopscale/arch.h"
#include "jsonw_internal.h"
#include "loopscale/law.h"
#include "loopscale/lawfile.h"
#include "loopscale/shape.h"
#include "shape_internal.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok)
{
    if (!ok)
        abort();
}

static int has_repeated_key(const cJSON *node)
{
    for (const cJSON *a = node ? node->child : NULL; a; a = a->next) {
        if (cJSON_IsObject(node))
            for (const cJSON *b = a->next; b; b = b->next)
                if (strcmp(a->string, b->string) == 0)
                    return 1;
        if (has_repeated_key(a))
            return 1;
    }
    return 0;
}

/* The document parses as exactly one JSON value with no repeated key. */
static void check_strict_json(const char *text, size_t len)
{
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    check(root != NULL);
    for (size_t i = (size_t)(end - text); i < len; i++)
        check(text[i] == ' ' || text[i] == '\t' || text[i] == '\n' || text[i] == '\r');
    check(!has_repeated_key(root));
    cJSON_Delete(root);
}

static void check_refused(int status, const ls_error *err)
{
    check(status < 0 && err->code < 0 && strlen(err->message) > 0);
}

static void check_law(const ls_law *l)
{
    ls_law_param list[LS_LAW_NPARAMS];
    size_t np = ls_law_params_of(l->kind, list);
    ls_error err;
    for (size_t i = 0; i < np; i++)
        check(ls_law_param_check(list[i], l->p[list[i]], &err) == 0);
    if (l->kind.base == LS_LAW_BASE_MOE)
        check(l->p[LS_LAW_P_E_START] < l->p[LS_LAW_P_E_MAX]);
}

static void check_lawfile(const ls_lawfile *lf)
{
    check_law(&lf->law);
    for (size_t d = 0; d < lf->ndraws; d++) {
        ls_law draw;
        ls_lawfile_draw(lf, d, &draw);
        check_law(&draw);
    }
    for (int j = 0; j < LS_LAW_NPARAMS; j++) {
        if (lf->has_stderr)
            check(isnan(lf->stderr_of[j]) || lf->stderr_of[j] >= 0);
        if (lf->has_ci && !isnan(lf->ci_low[j]))
            check(lf->ci_low[j] <= lf->ci_high[j]);
    }
    if (lf->has_ci)
        check(lf->ci_level > 0 && lf->ci_level < 1);
    if (!lf->has_fit)
        return;
    const ls_lawfile_fit *f = &lf->fit;
    check(isfinite(f->rmse) && f->rmse >= 0 && isfinite(f->objective) && f->objective >= 0);
    check(isfinite(f->delta) && f->delta > 0 && f->n >= 1 && f->starts_at_best <= f->starts);
    check(strcmp(f->loss, "huber") == 0 || strcmp(f->loss, "mse") == 0);
    check(strcmp(f->space, "log") == 0 || strcmp(f->space, "linear") == 0);
    for (size_t i = 0; i < f->ndata; i++)
        check(strlen(f->data[i].sha256) == 64 && strspn(f->data[i].sha256, "0123456789abcdef") == 64);
    if (f->has_ranges) {
        const double *r[] = {f->n_act_range, f->tokens_range, f->r_range, f->e_range};
        for (int q = 0; q < 4; q++) {
            check(isfinite(r[q][0]) && isfinite(r[q][1]) && r[q][0] <= r[q][1]);
            check(q < 2 ? r[q][0] > 0 : r[q][0] >= 1);
        }
    }
}

static void check_template(const ls_arch_template *t)
{
    check(t->attention_share >= 0 && t->attention_share < 1);
    check(t->top_k >= 1 && t->loop_layers >= 1 && t->prelude_layers >= 0 && t->coda_layers >= 0);
}

/* Field by field: the struct has padding (after flops_convention), whose
 * bytes a copy need not keep, so memcmp would compare garbage. */
static int same_template(const ls_arch_template *a, const ls_arch_template *b)
{
    return a->attention_share == b->attention_share && a->top_k == b->top_k &&
           a->prelude_layers == b->prelude_layers && a->loop_layers == b->loop_layers &&
           a->coda_layers == b->coda_layers && a->flops_convention == b->flops_convention &&
           a->context == b->context && a->vocab == b->vocab && a->d_model == b->d_model;
}

static void check_shape(const ls_shape_spec *s)
{
    const long *v[] = {&s->d_model, &s->d_ff,        &s->d_expert,    &s->top_k,        &s->vocab,
                       &s->experts, &s->layers,      &s->loops,       &s->head_experts, &s->tail_experts,
                       &s->heads,   &s->kv_heads,    &s->head_dim};
    for (size_t i = 0; i < sizeof v / sizeof *v; i++)
        check(*v[i] == LS_SHAPE_UNSET || (*v[i] >= 1 && *v[i] <= 1000000000000L));
    const long *z[] = {&s->head_layers, &s->tail_layers, &s->context};
    for (size_t i = 0; i < sizeof z / sizeof *z; i++)
        check(*z[i] == LS_SHAPE_UNSET || (*z[i] >= 0 && *z[i] <= 1000000000000L));
    check(s->attention == LS_SHAPE_UNSET || s->attention == LS_SHAPE_ATTENTION_TIED ||
          s->attention == LS_SHAPE_ATTENTION_PER_LOOP);
    check(s->embeddings == LS_SHAPE_UNSET || s->embeddings == LS_SHAPE_EMBEDDINGS_TIED ||
          s->embeddings == LS_SHAPE_EMBEDDINGS_UNTIED);
    check(s->norm_params == LS_SHAPE_UNSET || s->norm_params == 0 || s->norm_params == 1);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1 || size > 65536)
        return 0;
    int which = data[0] % 3;
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    /* The same document with a byte after it, which must be refused. */
    char *longer = malloc(len + 2);
    check(longer != NULL);
    memcpy(longer, text, len);
    longer[len] = 'x';
    longer[len + 1] = '\0';
    ls_error err;
    ls_error_clear(&err);
    if (which == 0) {
        ls_lawfile *lf = ls_lawfile_parse(text, len, "fuzz.json", &err);
        if (!lf) {
            check_refused(-1, &err);
        } else {
            check_strict_json(text, len);
            check_lawfile(lf);
            ls_lawfile *again = ls_lawfile_parse(longer, len + 1, "longer.json", &err);
            check(again == NULL);
            ls_lawfile_free(lf);
        }
    } else if (which == 1) {
        ls_arch_template t;
        ls_arch_template_default(&t);
        int status = ls_arch_template_parse(text, len, "fuzz.json", &t, &err);
        if (status != 0) {
            check_refused(status, &err);
        } else {
            check_strict_json(text, len);
            check_template(&t);
            ls_arch_template u;
            ls_arch_template_default(&u);
            check_refused(ls_arch_template_parse(longer, len + 1, "longer.json", &u, &err), &err);
            char *json = ls_arch_template_to_json(&t, &err);
            check(json != NULL);
            ls_arch_template_default(&u);
            check(ls_arch_template_parse(json, strlen(json), "again.json", &u, &err) == 0);
            check(same_template(&t, &u));
            free(json);
        }
    } else {
        ls_shape_spec s;
        ls_shape_spec_unset(&s);
        int status = ls_shape_spec_parse(text, len, "fuzz.json", &s, &err);
        if (status != 0) {
            check_refused(status, &err);
        } else {
            check_strict_json(text, len);
            check_shape(&s);
            ls_shape_spec u;
            ls_shape_spec_unset(&u);
            check_refused(ls_shape_spec_parse(longer, len + 1, "longer.json", &u, &err), &err);
            jsonw w;
            ls_jsonw_init(&w);
            ls_shape_spec_write_json(&w, NULL, &s);
            char *json = ls_jsonw_finish(&w, &err);
            check(json != NULL);
            ls_shape_spec_unset(&u);
            check(ls_shape_spec_parse(json, strlen(json), "again.json", &u, &err) == 0);
            check(memcmp(&s, &u, sizeof s) == 0);
            free(json);
        }
    }
    free(longer);
    return 0;
}
