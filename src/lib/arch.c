#include "loopscale/arch.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "jsonw_internal.h"
#include "readfile_internal.h"

#define TEMPLATE_MAX_BYTES ((size_t)1 << 20)

void ls_arch_template_default(ls_arch_template *t)
{
    t->attention_share = 1.0 / 3.0;
    t->top_k = 1;
    t->prelude_layers = 2;
    t->loop_layers = 12;
    t->coda_layers = 2;
    t->flops_convention = LS_LAW_FLOPS_6ND;
    t->context = 0.0;
    t->vocab = 0.0;
    t->d_model = 0.0;
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

double ls_arch_loop_fraction(const ls_arch_template *t)
{
    return (double)t->loop_layers / (double)(t->prelude_layers + t->loop_layers + t->coda_layers);
}

double ls_arch_n_total(const ls_arch_template *t, double n_act, double E)
{
    if (E == t->top_k)
        return n_act; /* exact for dense rows */
    return n_act * (t->attention_share + (1.0 - t->attention_share) * E / t->top_k);
}

double ls_arch_n_loop(const ls_arch_template *t, double n_act) { return n_act * ls_arch_loop_fraction(t); }

ls_law_point ls_arch_point(const ls_arch_template *t, double n_act, double E, double R, double tokens)
{
    ls_law_point x = {n_act, ls_arch_n_total(t, n_act, E), ls_arch_n_loop(t, n_act), R, E, tokens, 0};
    return x;
}

static int template_int(const char *path, const cJSON *root, const char *key, int min, int *out, ls_error *err)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, key);
    if (!item)
        return 0;
    if (!cJSON_IsNumber(item) || item->valuedouble != floor(item->valuedouble) || item->valuedouble < min ||
        item->valuedouble > 1e6)
        return cJSON_IsNumber(item)
                   ? ls_error_set(err, LS_ERR_DATA, "%s: %s: %.17g is not an integer from %d to 1000000", path, key,
                                  item->valuedouble, min)
                   : ls_error_set(err, LS_ERR_DATA, "%s: %s: expected an integer of at least %d", path, key, min);
    *out = (int)item->valuedouble;
    return 0;
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
    cJSON *root = ls_parse_json_text(text, len, path, err);
    if (!root)
        return err->code;
    if (!cJSON_IsObject(root)) {
        cJSON_Delete(root);
        return ls_error_set(err, LS_ERR_DATA, "%s: expected a JSON object at the top", path);
    }
    /* Every key must be known: a misspelt one ("top-k") would otherwise
     * leave the default in place and change the answer silently.  (Law
     * files, written by programs, ignore unknown keys for forward
     * compatibility; templates are written by hand.) */
    static const char *const known[] = {"format",        "attention_share", "top_k",   "prelude_layers",
                                        "loop_layers",   "coda_layers",     "loop_fraction", "flops_convention",
                                        "context",       "vocab",           "d_model"};
    int status = 0;
    for (const cJSON *c = root->child; c && status == 0; c = c->next) {
        size_t k = 0;
        while (k < sizeof known / sizeof *known && strcmp(c->string, known[k]) != 0)
            k++;
        if (k == sizeof known / sizeof *known)
            status = ls_error_set(err, LS_ERR_DATA, "%s: unknown key '%s' (known: attention_share, top_k, "
                                  "prelude_layers, loop_layers, coda_layers, flops_convention, context, vocab, "
                                  "d_model)", path, c->string);
    }
    const cJSON *format = cJSON_GetObjectItemCaseSensitive(root, "format");
    if (status == 0 && format && (!cJSON_IsString(format) || strcmp(format->valuestring, LS_ARCH_TEMPLATE_FORMAT) != 0))
        status = ls_error_set(err, LS_ERR_DATA, "%s: format: expected \"%s\"", path, LS_ARCH_TEMPLATE_FORMAT);
    const cJSON *share = cJSON_GetObjectItemCaseSensitive(root, "attention_share");
    if (status == 0 && share) {
        if (!cJSON_IsNumber(share) || !(share->valuedouble >= 0 && share->valuedouble < 1))
            status = cJSON_IsNumber(share) ? ls_error_set(err, LS_ERR_DATA,
                                                          "%s: attention_share: %.17g is not a number in [0, 1)",
                                                          path, share->valuedouble)
                                           : ls_error_set(err, LS_ERR_DATA,
                                                          "%s: attention_share: expected a number in [0, 1)", path);
        else
            t->attention_share = share->valuedouble;
    }
    if (status == 0)
        status = template_int(path, root, "top_k", 1, &t->top_k, err);
    if (status == 0)
        status = template_int(path, root, "prelude_layers", 0, &t->prelude_layers, err);
    if (status == 0)
        status = template_int(path, root, "loop_layers", 1, &t->loop_layers, err);
    if (status == 0)
        status = template_int(path, root, "coda_layers", 0, &t->coda_layers, err);
    const cJSON *convention = cJSON_GetObjectItemCaseSensitive(root, "flops_convention");
    if (status == 0 && convention) {
        int kind = cJSON_IsString(convention) ? ls_law_flops_from_name(convention->valuestring) : -1;
        if (kind < 0)
            status = ls_error_set(err, LS_ERR_DATA,
                                  "%s: flops_convention: expected \"6nd\", \"6nd+head\", \"6nd+attn\" or "
                                  "\"6nd+attn+head\"", path);
        else
            t->flops_convention = (ls_law_flops_kind)kind;
    }
    static const char *const sizes[] = {"context", "vocab", "d_model"};
    double *size_of[] = {&t->context, &t->vocab, &t->d_model};
    for (size_t k = 0; k < 3 && status == 0; k++) {
        const cJSON *item = cJSON_GetObjectItemCaseSensitive(root, sizes[k]);
        if (!item)
            continue;
        if (!cJSON_IsNumber(item) || !(item->valuedouble >= 1 && item->valuedouble <= 1e12))
            status = cJSON_IsNumber(item) ? ls_error_set(err, LS_ERR_DATA, "%s: %s: %.17g is not a number from 1 "
                                                         "to 1e12", path, sizes[k], item->valuedouble)
                                          : ls_error_set(err, LS_ERR_DATA, "%s: %s: expected a number", path, sizes[k]);
        else
            *size_of[k] = item->valuedouble;
    }
    /* loop_fraction is derived from the layer counts (--print-template
     * writes it to be read by people): one that disagrees was edited in the
     * belief that it counts. */
    const cJSON *fraction = cJSON_GetObjectItemCaseSensitive(root, "loop_fraction");
    if (status == 0 && fraction) {
        double want = ls_arch_loop_fraction(t);
        if (!cJSON_IsNumber(fraction))
            status = ls_error_set(err, LS_ERR_DATA, "%s: loop_fraction: expected a number", path);
        else if (!(fabs(fraction->valuedouble - want) <= 1e-9 * want))
            status = ls_error_set(err, LS_ERR_DATA,
                                  "%s: loop_fraction: %.17g disagrees with the layer counts (%d of %d layers loop: "
                                  "%.6g); it is derived from them, so change the counts or remove it",
                                  path, fraction->valuedouble, t->loop_layers,
                                  t->prelude_layers + t->loop_layers + t->coda_layers, want);
    }
    cJSON_Delete(root);
    if (status != 0)
        ls_json_error_locate(err, path, text, len);
    return status;
}

char *ls_arch_template_to_json(const ls_arch_template *t, ls_error *err)
{
    jsonw w;
    ls_jsonw_init(&w);
    ls_jsonw_object_begin(&w, NULL);
    ls_jsonw_string(&w, "format", LS_ARCH_TEMPLATE_FORMAT);
    ls_jsonw_number(&w, "attention_share", t->attention_share);
    ls_jsonw_integer(&w, "top_k", t->top_k);
    ls_jsonw_integer(&w, "prelude_layers", t->prelude_layers);
    ls_jsonw_integer(&w, "loop_layers", t->loop_layers);
    ls_jsonw_integer(&w, "coda_layers", t->coda_layers);
    ls_jsonw_number(&w, "loop_fraction", ls_arch_loop_fraction(t));
    ls_jsonw_string(&w, "flops_convention", ls_law_flops_name(t->flops_convention));
    if (t->context > 0)
        ls_jsonw_number(&w, "context", t->context);
    if (t->vocab > 0)
        ls_jsonw_number(&w, "vocab", t->vocab);
    if (t->d_model > 0)
        ls_jsonw_number(&w, "d_model", t->d_model);
    ls_jsonw_object_end(&w);
    return ls_jsonw_finish(&w, err);
}
