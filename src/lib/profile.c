/* Sweep profiles (loopscale/profile.h). */
#include "loopscale/profile.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch_internal.h"
#include "readfile_internal.h"

#define PROFILE_MAX_BYTES (1u << 20)

void ls_profile_free(ls_profile *p)
{
    if (!p)
        return;
    for (size_t i = 0; i < p->nmaps; i++) {
        free(p->maps[i]);
        free(p->map_origins[i]);
    }
    for (size_t i = 0; i < p->nwheres; i++) {
        free(p->wheres[i]);
        free(p->where_origins[i]);
    }
    free(p->maps);
    free(p->wheres);
    free(p->map_origins);
    free(p->where_origins);
    free(p->run_origin);
    free(p->step_origin);
    free(p->name);
    free(p->run);
    free(p->step);
    free(p->tmpl);
    free(p);
}

static int bad(ls_error *err, const char *name, const char *key, const char *what)
{
    return ls_error_set(err, LS_ERR_DATA, "%s: %s: %s", name, key, what);
}

static int copy_string(const cJSON *item, const char *name, const char *key, char **out, ls_error *err)
{
    if (!cJSON_IsString(item) || item->valuestring[0] == '\0')
        return bad(err, name, key, "expected a non-empty string");
    if (!(*out = strdup(item->valuestring)))
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    return 0;
}

static int get_bool(const cJSON *item, const char *name, const char *key, int *out, ls_error *err)
{
    if (!cJSON_IsBool(item))
        return bad(err, name, key, "expected true or false");
    *out = cJSON_IsTrue(item);
    return 0;
}

/* A malloc'd "NAME:LINE:COLUMN" of key (inside parent), or NULL when out
 * of memory. */
static char *origin_of(const char *text, size_t len, const char *name, const char *parent, const char *key)
{
    char where[512];
    ls_json_key_origin(text, len, name, parent, key, where, sizeof where);
    return strdup(where);
}

static int get_positive(const cJSON *item, const char *name, const char *key, double max, double *out,
                        ls_error *err)
{
    if (!cJSON_IsNumber(item) || !(item->valuedouble > 0 && item->valuedouble < max))
        return bad(err, name, key, "expected a number between 0 and 0.5");
    *out = item->valuedouble;
    return 0;
}

ls_profile *ls_profile_parse(const char *text, size_t len, const char *name, ls_error *err)
{
    cJSON *root = ls_parse_json_text(text, len, name, err);
    if (!root)
        return NULL;
    ls_profile *p = calloc(1, sizeof *p);
    int status = p ? 0 : ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    if (status == 0 && !cJSON_IsObject(root))
        status = ls_error_set(err, LS_ERR_DATA, "%s: expected a JSON object (a sweep profile)", name);
    const cJSON *format = status ? NULL : cJSON_GetObjectItemCaseSensitive(root, "format");
    if (status == 0 && !(cJSON_IsString(format) && strcmp(format->valuestring, "loopscale-profile/1") == 0))
        status = bad(err, name, "format", "expected \"loopscale-profile/1\"");
    for (const cJSON *item = status ? NULL : root->child; item && status == 0; item = item->next) {
        const char *key = item->string;
        if (strcmp(key, "format") == 0)
            continue;
        if (strcmp(key, "name") == 0) {
            status = copy_string(item, name, key, &p->name, err);
        } else if (strcmp(key, "map") == 0) {
            if (!cJSON_IsObject(item)) {
                status = bad(err, name, key, "expected an object {\"quantity\": \"column\", ...}");
                break;
            }
            size_t n = (size_t)cJSON_GetArraySize(item);
            if (!(p->maps = calloc(n ? n : 1, sizeof *p->maps)) ||
                !(p->map_origins = calloc(n ? n : 1, sizeof *p->map_origins))) {
                status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
                break;
            }
            for (const cJSON *m = item->child; m && status == 0; m = m->next) {
                if (!cJSON_IsString(m) || m->valuestring[0] == '\0' || m->string[0] == '\0') {
                    status = bad(err, name, "map", "expected a non-empty column name for each quantity");
                    break;
                }
                size_t size = strlen(m->string) + strlen(m->valuestring) + 2;
                if (!(p->maps[p->nmaps] = malloc(size)) ||
                    !(p->map_origins[p->nmaps] = origin_of(text, len, name, "map", m->string))) {
                    free(p->maps[p->nmaps]);
                    status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
                    break;
                }
                snprintf(p->maps[p->nmaps++], size, "%s=%s", m->string, m->valuestring);
            }
        } else if (strcmp(key, "where") == 0) {
            if (!cJSON_IsArray(item)) {
                status = bad(err, name, key, "expected an array of conditions");
                break;
            }
            size_t n = (size_t)cJSON_GetArraySize(item);
            if (!(p->wheres = calloc(n ? n : 1, sizeof *p->wheres)) ||
                !(p->where_origins = calloc(n ? n : 1, sizeof *p->where_origins))) {
                status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
                break;
            }
            for (const cJSON *w = item->child; w && status == 0; w = w->next) {
                if ((status = copy_string(w, name, "where[]", &p->wheres[p->nwheres], err)) != 0)
                    break;
                if (!(p->where_origins[p->nwheres] = origin_of(text, len, name, NULL, "where"))) {
                    free(p->wheres[p->nwheres]);
                    status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
                    break;
                }
                p->nwheres++;
            }
        } else if (strcmp(key, "run") == 0) {
            status = copy_string(item, name, key, &p->run, err);
            if (status == 0 && !(p->run_origin = origin_of(text, len, name, NULL, key)))
                status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        } else if (strcmp(key, "step") == 0) {
            status = copy_string(item, name, key, &p->step, err);
            if (status == 0 && !(p->step_origin = origin_of(text, len, name, NULL, key)))
                status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        } else if (strcmp(key, "last") == 0) {
            status = get_bool(item, name, key, &p->last, err);
        } else if (strcmp(key, "skip_invalid") == 0) {
            status = get_bool(item, name, key, &p->skip_invalid, err);
        } else if (strcmp(key, "loss_unit") == 0) {
            if (!cJSON_IsString(item) ||
                (strcmp(item->valuestring, "nats") != 0 && strcmp(item->valuestring, "bits") != 0))
                status = bad(err, name, key, "expected \"nats\" or \"bits\"");
            else
                p->loss_in_bits = strcmp(item->valuestring, "bits") == 0;
        } else if (strcmp(key, "bytes_per_token") == 0) {
            /* Text encodings take a few bytes a token; a bound keeps a loss
             * per byte times it from overflowing and blaming the cell. */
            if (!cJSON_IsNumber(item) || !(item->valuedouble > 0 && item->valuedouble <= 1000))
                status = bad(err, name, key, "expected a number of bytes between 0 and 1000");
            else
                p->bytes_per_token = item->valuedouble;
        } else if (strcmp(key, "group_tol") == 0) {
            status = get_positive(item, name, key, 0.5, &p->group_tol, err);
        } else if (strcmp(key, "template") == 0) {
            ls_arch_doc doc;
            if (!(p->tmpl = malloc(sizeof *p->tmpl))) {
                status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
                break;
            }
            ls_arch_template_default(p->tmpl);
            if ((status = ls_arch_doc_from_json(item, name, &doc, err)) == 0 &&
                (status = ls_arch_template_from_doc(&doc, name, p->tmpl, err)) == 0 && !p->tmpl->has_shape)
                status = bad(err, name, key, "gives no model (d_model, d_ff, the layers...) for the configuration "
                             "columns to complete");
        } else {
            status = bad(err, name, key, "not a key of a sweep profile (format, name, map, where, run, step, "
                         "last, skip_invalid, loss_unit, bytes_per_token, group_tol, template)");
        }
    }
    cJSON_Delete(root);
    if (status != 0)
        ls_json_error_locate(err, name, text, len);
    if (status != 0) {
        ls_profile_free(p);
        return NULL;
    }
    return p;
}

ls_profile *ls_profile_read(const char *path, ls_error *err)
{
    char *text = NULL;
    size_t len = 0;
    if (ls_read_small_file(path, PROFILE_MAX_BYTES, "sweep profile", &text, &len, err) != 0)
        return NULL;
    ls_profile *p = ls_profile_parse(text, len, ls_input_name(path), err);
    free(text);
    return p;
}
