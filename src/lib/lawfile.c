#include "loopscale/lawfile.h"

#include "loopscale/diagnose.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "guard_internal.h"
#include "arch_internal.h"
#include "jsonw_internal.h"
#include "outfile_internal.h"
#include "numtext_internal.h"
#include "readfile_internal.h"

/* Law files are small; a larger file is not one. */
#define LAWFILE_MAX_BYTES ((size_t)16 << 20) /* 16 MiB: ~100,000 bootstrap draws */

ls_lawfile *ls_lawfile_new(const ls_law *l)
{
    ls_lawfile *lf = calloc(1, sizeof *lf);
    if (lf && l)
        lf->law = *l;
    if (lf)
        lf->quant_rmse = NAN;
    return lf;
}

static void fit_free(ls_lawfile_fit *fit)
{
    for (size_t i = 0; i < fit->ndata; i++)
        free(fit->data[i].path);
    free(fit->data);
    for (size_t i = 0; i < fit->nfilters; i++)
        free(fit->filters[i]);
    free(fit->filters);
    free(fit->optimum_held_from);
}

void ls_lawfile_free(ls_lawfile *lf)
{
    if (!lf)
        return;
    free(lf->draws);
    free(lf->bootstrap_group);
    fit_free(&lf->fit);
    free(lf->version);
    free(lf->command);
    ls_warnings_free(&lf->warnings);
    ls_arch_record_free(&lf->architecture);
    free(lf);
}

/* ---- from a fit --------------------------------------------------------- */

static char *dup_or_null(const char *text) { return text ? strdup(text) : NULL; }

ls_lawfile *ls_lawfile_from_fit(const ls_fit_result *r, const ls_fit_parameters *p, const ls_fit_bootstrap *b, const ls_sweep *s,
                             const ls_lawfile_provenance *prov, ls_error *err)
{
    ls_lawfile *lf = ls_lawfile_new(&r->law);
    if (!lf) {
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        return NULL;
    }
    int oom = 0;
    memcpy(lf->fixed, r->fixed, sizeof lf->fixed);
    memcpy(lf->tied, r->tied, sizeof lf->tied);
    lf->has_stderr = 1;
    memcpy(lf->stderr_of, r->stderr_of, sizeof lf->stderr_of);
    if (b && b->ndraws > 0) {
        lf->has_ci = 1;
        lf->ci_level = b->level;
        memcpy(lf->ci_low, b->ci_low, sizeof lf->ci_low);
        memcpy(lf->ci_high, b->ci_high, sizeof lf->ci_high);
        lf->ndraws = b->ndraws;
        lf->draws = malloc(b->ndraws * LS_LAW_NPARAMS * sizeof *lf->draws);
        oom |= !lf->draws;
        if (lf->draws)
            memcpy(lf->draws, b->draws, b->ndraws * LS_LAW_NPARAMS * sizeof *lf->draws);
        lf->bootstrap_group = dup_or_null(prov->bootstrap_group);
        oom |= prov->bootstrap_group && !lf->bootstrap_group;
    }
    lf->has_fit = 1;
    ls_lawfile_fit *fit = &lf->fit;
    snprintf(fit->loss, sizeof fit->loss, "%s", p->loss == LS_FIT_LOSS_HUBER ? "huber" : "mse");
    snprintf(fit->space, sizeof fit->space, "%s", p->space == LS_FIT_SPACE_LOG ? "log" : "linear");
    snprintf(fit->method, sizeof fit->method, "%s", r->method);
    fit->objective = r->objective;
    fit->delta = p->huber_delta;
    fit->rmse = r->rmse;
    fit->n = r->n;
    fit->starts = r->starts;
    fit->starts_at_best = r->starts_at_best;
    fit->seed = p->seed;
    fit->converged = r->converged;
    if (prov->flops)
        fit->flops = *prov->flops;
    else
        ls_law_flops_default(&fit->flops);
    fit->has_ranges = 1;
    double *ranges[] = {fit->n_act_range, fit->tokens_range, fit->r_range, fit->e_range};
    for (int q = 0; q < 4; q++) {
        ranges[q][0] = INFINITY;
        ranges[q][1] = -INFINITY;
    }
    fit->has_flops_range = 1;
    fit->flops_range[0] = INFINITY;
    fit->flops_range[1] = -INFINITY;
    for (size_t i = 0; i < s->n; i++) {
        const double values[] = {s->rows[i].n_act, s->rows[i].tokens, s->rows[i].R, s->rows[i].E};
        for (int q = 0; q < 4; q++) {
            ranges[q][0] = fmin(ranges[q][0], values[q]);
            ranges[q][1] = fmax(ranges[q][1], values[q]);
        }
        ls_law_point x = ls_sweep_row_point(&s->rows[i]);
        double flops = ls_law_training_flops_as(&fit->flops, &x);
        fit->flops_range[0] = fmin(fit->flops_range[0], flops);
        fit->flops_range[1] = fmax(fit->flops_range[1], flops);
    }
    if (ls_arch_record_runs(s, prov->tmpl, &lf->architecture, err) != 0) {
        ls_lawfile_free(lf);
        return NULL;
    }
    /* The record's template counts FLOPs as the fit did (a template fit
     * was given has that convention already). */
    if (!lf->architecture.tmpl.has_shape)
        ls_arch_set_flops(&lf->architecture.tmpl, &fit->flops);
    lf->has_architecture = 1;
    /* Every warning the fit deserves (its verdict). */
    ls_error verdict_err;
    oom |= ls_fit_verdict(s, r, b, p, &lf->warnings, &verdict_err) != 0;
    /* The compute-optimal exponent with its interval, at the verdict's
     * level, so that a command stating a states how well it is known. */
    ls_fit_exponent e;
    int drawn = b && b->ndraws >= LS_FIT_MIN_INTERVAL_DRAWS;
    if (ls_fit_optimum_exponent(r, b, drawn ? b->level : LS_VERDICT_LEVEL, &e, &verdict_err) == 0 && !isnan(e.low)) {
        fit->has_optimum = 1;
        fit->optimum_a = e.a;
        fit->optimum_low = e.low;
        fit->optimum_high = e.high;
        fit->optimum_level = e.level;
        fit->optimum_draws = e.ndraws;
    }
    lf->version = strdup(LOOPSCALE_VERSION);
    lf->command = dup_or_null(prov->command);
    fit->data = calloc(prov->ndata + 1, sizeof *fit->data);
    size_t nfilters = prov->nmaps + prov->nwheres + prov->noptions;
    fit->filters = calloc(nfilters + 1, sizeof *fit->filters);
    oom |= !lf->version || (prov->command && !lf->command) || !fit->data || !fit->filters;
    for (size_t i = 0; !oom && i < prov->ndata; i++) {
        fit->data[i].path = strdup(prov->data_paths[i]);
        oom |= !fit->data[i].path;
        fit->ndata++;
        /* The checksum of the bytes the reader fitted, not of the path read
         * again: standard input, a pipe or a file changed since have no
         * second reading. */
        if (!oom && (i >= s->nfiles || s->sha256[i][0] == '\0')) {
            ls_error_set(err, LS_ERR_USAGE, "%s: no checksum: the sweep was not read from it with options.checksum",
                         prov->data_paths[i]);
            ls_lawfile_free(lf);
            return NULL;
        }
        if (!oom)
            memcpy(fit->data[i].sha256, s->sha256[i], sizeof fit->data[i].sha256);
    }
    for (size_t i = 0; !oom && i < nfilters; i++) {
        int is_map = i < prov->nmaps, is_where = !is_map && i < prov->nmaps + prov->nwheres;
        const char *value = is_map ? prov->maps[i] : is_where ? prov->wheres[i - prov->nmaps]
                                                              : prov->options[i - prov->nmaps - prov->nwheres];
        size_t size = strlen(value) + sizeof "--where ";
        fit->filters[i] = malloc(size);
        oom |= !fit->filters[i];
        if (fit->filters[i]) {
            snprintf(fit->filters[i], size, "%s%s", is_map ? "--map " : is_where ? "--where " : "", value);
            fit->nfilters++;
        }
    }
    fit->nskipped = s->skipped.n;
    fit->nskipped_lines = s->skipped.n < LS_SWEEP_SKIPS_SHOWN ? s->skipped.n : LS_SWEEP_SKIPS_SHOWN;
    memcpy(fit->skipped_lines, s->skipped.line, sizeof fit->skipped_lines);
    fit->nlast_dropped = s->last_dropped_runs;
    snprintf(fit->last_dropped_run, sizeof fit->last_dropped_run, "%s", s->last_dropped_first);
    fit->last_dropped_line = s->last_dropped_line;
    if (oom) {
        ls_lawfile_free(lf);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        return NULL;
    }
    return lf;
}

/* The exponents the compute-optimal exponent a is made of: beta / (alpha +
 * beta), or alpha_D / (alpha_N + alpha_D) for Kaplan's base. */
static void optimum_exponents(ls_law_kind kind, ls_law_param out[2])
{
    int kaplan = kind.base == LS_LAW_BASE_KAPLAN;
    out[0] = kaplan ? LS_LAW_P_ALPHA_N : LS_LAW_P_ALPHA;
    out[1] = kaplan ? LS_LAW_P_ALPHA_D : LS_LAW_P_BETA;
}

/* The ranges (bits 1u << LS_LAW_RANGE_*) a parameter is fitted along: the
 * experts' terms along E, the loop mapping's along R, the base's along
 * N_act, D and so F. */
static unsigned fitted_along(ls_law_param j)
{
    if (j >= LS_LAW_P_DELTA && j <= LS_LAW_P_E_MAX)
        return 1u << LS_LAW_RANGE_E;
    if (j >= LS_LAW_P_PHI)
        return 1u << LS_LAW_RANGE_R;
    return 1u << LS_LAW_RANGE_N_ACT | 1u << LS_LAW_RANGE_TOKENS | 1u << LS_LAW_RANGE_FLOPS;
}

/* Whether a warning's subject ("alpha", or "delta, gamma") names a held
 * parameter, or is "a" with one of a's exponents held. */
static int about_held(const char *subject, const unsigned char held[LS_LAW_NPARAMS], int exponent_held)
{
    if (strcmp(subject, "a") == 0)
        return exponent_held;
    char name[32];
    for (const char *p = subject; *p;) {
        size_t n = strcspn(p, ", ");
        if (n > 0 && n < sizeof name) {
            memcpy(name, p, n);
            name[n] = '\0';
            int j = ls_law_param_from_name(name);
            if (j >= 0 && held[j])
                return 1;
        }
        p += n;
        p += strspn(p, ", ");
    }
    return 0;
}

int ls_lawfile_hold_from(ls_lawfile *lf, const ls_lawfile *from, const char *from_name,
                         const unsigned char held[LS_LAW_NPARAMS], ls_warnings *added, ls_error *err)
{
    ls_law_param ex[2];
    optimum_exponents(lf->law.kind, ex);
    int any_exponent = held[ex[0]] || held[ex[1]], every_exponent = held[ex[0]] && held[ex[1]];
    int status = 0;
    for (size_t i = 0; i < from->warnings.n && status == 0; i++) {
        const ls_warning *w = &from->warnings.v[i];
        if (!about_held(w->subject, held, any_exponent))
            continue;
        status = ls_warnings_add(&lf->warnings, w->code, w->subject, "held from %s: %s", from_name, w->message);
        if (status == 0 && added)
            status = ls_warnings_add(added, w->code, w->subject, "held from %s: %s", from_name, w->message);
    }
    /* The ranges the held parameters were fitted along. */
    unsigned along = 0;
    for (int j = 0; j < LS_LAW_NPARAMS; j++)
        if (held[j] && !from->fixed[j])
            along |= fitted_along((ls_law_param)j);
    ls_lawfile_fit *fit = &lf->fit;
    const ls_lawfile_fit *theirs = &from->fit;
    if (lf->has_fit && fit->has_ranges && from->has_fit && theirs->has_ranges) {
        double *ours[LS_LAW_NRANGES] = {fit->n_act_range, fit->tokens_range, fit->r_range, fit->e_range,
                                        fit->flops_range};
        const double *other[LS_LAW_NRANGES] = {theirs->n_act_range, theirs->tokens_range, theirs->r_range,
                                               theirs->e_range, theirs->flops_range};
        for (int q = 0; q < LS_LAW_NRANGES; q++) {
            if (!(along >> q & 1u) ||
                (q == LS_LAW_RANGE_FLOPS && !(fit->has_flops_range && theirs->has_flops_range)))
                continue;
            double lo = fmax(ours[q][0], other[q][0]), hi = fmin(ours[q][1], other[q][1]);
            ours[q][0] = lo <= hi ? lo : other[q][0];
            ours[q][1] = lo <= hi ? hi : other[q][1];
        }
    }
    /* a is from's own when all its exponents are. */
    if (lf->has_fit && every_exponent && from->has_fit && theirs->has_optimum) {
        char *name = strdup(from_name);
        if (!name)
            status = LS_ERR_INTERNAL;
        else {
            free(fit->optimum_held_from);
            fit->optimum_held_from = name;
            fit->has_optimum = 1;
            fit->optimum_a = theirs->optimum_a;
            fit->optimum_low = theirs->optimum_low;
            fit->optimum_high = theirs->optimum_high;
            fit->optimum_level = theirs->optimum_level;
            fit->optimum_draws = theirs->optimum_draws;
        }
    }
    return status == 0 ? 0 : ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
}

void ls_lawfile_draw(const ls_lawfile *lf, size_t i, ls_law *out)
{
    out->kind = lf->law.kind;
    memcpy(out->p, lf->draws + i * LS_LAW_NPARAMS, sizeof out->p);
}

/* ---- reading ---------------------------------------------------------- */

typedef struct json_ctx {
    const char *name;
    ls_error *err;
} json_ctx;

static int key_error(const json_ctx *c, const char *path, const char *what)
{
    return ls_error_set(c->err, LS_ERR_DATA, "%s: %s: %s", c->name, path, what);
}

/* The member `key` of obj; `path` names it in messages. */
static const cJSON *member(const json_ctx *c, const cJSON *obj, const char *key, const char *path, int required,
                           int *status)
{
    const cJSON *item = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!item && required && *status == 0)
        *status = ls_error_set(c->err, LS_ERR_DATA, "%s: missing key '%s'", c->name, path);
    return item;
}

static int get_number(const json_ctx *c, const cJSON *item, const char *path, double *out)
{
    if (!cJSON_IsNumber(item))
        return key_error(c, path, "expected a number");
    if (!isfinite(item->valuedouble))
        return key_error(c, path, "is not a finite number");
    *out = item->valuedouble;
    return 0;
}

static int get_count(const json_ctx *c, const cJSON *item, const char *path, size_t *out)
{
    double x = 0;
    int status = get_number(c, item, path, &x);
    if (status != 0)
        return status;
    if (x < 0 || x != floor(x) || x > 9e15)
        return key_error(c, path, "expected a non-negative integer");
    *out = (size_t)x;
    return 0;
}

static int get_string(const json_ctx *c, const cJSON *item, const char *path, char *buf, size_t size)
{
    if (!cJSON_IsString(item))
        return key_error(c, path, "expected a string");
    if (strlen(item->valuestring) >= size)
        return key_error(c, path, "string too long");
    memcpy(buf, item->valuestring, strlen(item->valuestring) + 1);
    return 0;
}

static int dup_string(const json_ctx *c, const cJSON *item, const char *path, char **out)
{
    if (!cJSON_IsString(item))
        return key_error(c, path, "expected a string");
    if (!(*out = strdup(item->valuestring)))
        return ls_error_set(c->err, LS_ERR_INTERNAL, "out of memory");
    return 0;
}

static int expect_object(const json_ctx *c, const cJSON *item, const char *path)
{
    return cJSON_IsObject(item) ? 0 : key_error(c, path, "expected an object");
}

/* fit.flops_convention: {"name", "context", "vocab", "d_model",
 * "attention_share", "prelude_layers", "loop_layers", "coda_layers"}; the
 * sizes a convention does not need may be left out. */
static int read_flops_convention(const json_ctx *c, const cJSON *obj, ls_law_flops *out)
{
    char path[96], name[32];
    int status = expect_object(c, obj, "fit.flops_convention");
    const cJSON *item = status ? NULL : member(c, obj, "name", "fit.flops_convention.name", 1, &status);
    if (status == 0)
        status = get_string(c, item, "fit.flops_convention.name", name, sizeof name);
    int kind = status == 0 ? ls_law_flops_from_name(name) : -1;
    if (status == 0 && kind < 0)
        status = key_error(c, "fit.flops_convention.name",
                           "expected \"6nd\", \"6nd+head\", \"6nd+attn\" or \"6nd+attn+head\"");
    if (status == 0)
        out->kind = (ls_law_flops_kind)kind;
    static const char *const sizes[] = {"context", "vocab", "d_model", "attention_share"};
    double *size_of[] = {&out->context, &out->vocab, &out->d_model, &out->attention_share};
    for (int k = 0; k < 4 && status == 0; k++) {
        snprintf(path, sizeof path, "fit.flops_convention.%s", sizes[k]);
        item = member(c, obj, sizes[k], path, 0, &status);
        if (item && status == 0)
            status = get_number(c, item, path, size_of[k]);
        if (item && status == 0 && !(k < 3 ? *size_of[k] > 0 : *size_of[k] >= 0 && *size_of[k] < 1))
            status = key_error(c, path, k < 3 ? "must be positive" : "must be in [0, 1)");
    }
    static const char *const layers[] = {"prelude_layers", "loop_layers", "coda_layers"};
    int *layers_of[] = {&out->prelude_layers, &out->loop_layers, &out->coda_layers};
    for (int k = 0; k < 3 && status == 0; k++) {
        snprintf(path, sizeof path, "fit.flops_convention.%s", layers[k]);
        item = member(c, obj, layers[k], path, 1, &status);
        size_t count = 0;
        if (status == 0)
            status = get_count(c, item, path, &count);
        if (status == 0 && (count > 1000000 || (k == 1 && count < 1)))
            status = key_error(c, path, k == 1 ? "must be from 1 to 1000000" : "must be from 0 to 1000000");
        if (status == 0)
            *layers_of[k] = (int)count;
    }
    ls_error check;
    ls_error_clear(&check);
    if (status == 0 && ls_law_flops_check(out, &check) != 0)
        status = key_error(c, "fit.flops_convention", check.message);
    return status;
}

static int read_law(const json_ctx *c, const cJSON *root, ls_lawfile *lf)
{
    int status = 0;
    const cJSON *law_obj = member(c, root, "law", "law", 1, &status);
    if (status == 0)
        status = expect_object(c, law_obj, "law");
    const cJSON *base = status ? NULL : member(c, law_obj, "base", "law.base", 1, &status);
    const cJSON *mapping = status ? NULL : member(c, law_obj, "mapping", "law.mapping", 1, &status);
    char base_text[32], mapping_text[32];
    if (status == 0)
        status = get_string(c, base, "law.base", base_text, sizeof base_text);
    if (status == 0)
        status = get_string(c, mapping, "law.mapping", mapping_text, sizeof mapping_text);
    if (status != 0)
        return status;
    char kind_text[80];
    snprintf(kind_text, sizeof kind_text, "%s:%s", base_text, mapping_text);
    ls_law_kind kind;
    if (ls_law_kind_parse(kind_text, &kind, c->err) != 0)
        return ls_error_set(c->err, LS_ERR_DATA, "%s: law: unknown law '%s'", c->name, kind_text);
    ls_law_init(&lf->law, kind);

    const cJSON *params = member(c, root, "params", "params", 1, &status);
    if (status == 0)
        status = expect_object(c, params, "params");
    if (status != 0)
        return status;
    for (const cJSON *item = params->child; item; item = item->next) {
        /* A misspelt name ("alpah") would leave the parameter missing, or
         * be ignored beside it: either way not what was typed. */
        int j = ls_law_param_from_name(item->string);
        if (j < 0 || !ls_law_uses_param(kind, (ls_law_param)j))
            return ls_error_set(c->err, LS_ERR_DATA, "%s: params.%s: not a parameter of %s", c->name, item->string,
                                kind_text);
    }
    ls_law_param list[LS_LAW_NPARAMS];
    size_t np = ls_law_params_of(kind, list);
    for (size_t i = 0; i < np; i++) {
        const char *name = ls_law_param_name(list[i]);
        char path[64];
        snprintf(path, sizeof path, "params.%s", name);
        /* E_start is fixed at 1 unless a file says otherwise (docs/laws.md). */
        const cJSON *item = member(c, params, name, path, list[i] != LS_LAW_P_E_START, &status);
        if (status != 0)
            return status;
        if (!item)
            continue;
        double value = 0;
        if ((status = get_number(c, item, path, &value)) != 0)
            return status;
        if (ls_law_param_check(list[i], value, c->err) != 0) {
            /* A law typed in from the Loop Scaling Laws paper, which
             * writes alpha and beta negative. */
            if ((list[i] == LS_LAW_P_ALPHA || list[i] == LS_LAW_P_BETA) && value < 0) {
                size_t n = strlen(c->err->message);
                snprintf(c->err->message + n, sizeof c->err->message - n,
                         " (exponents are written positive: the paper's %g is %g here; docs/laws.md)", value, -value);
            }
            return ls_error_prefix(c->err, "%s: %s", c->name, path);
        }
        lf->law.p[list[i]] = value;
    }
    if (kind.base == LS_LAW_BASE_MOE && !(lf->law.p[LS_LAW_P_E_START] < lf->law.p[LS_LAW_P_E_MAX]))
        return ls_error_set(c->err, LS_ERR_DATA, "%s: params: E_start must be less than E_max", c->name);
    return 0;
}

/* An object mapping parameter names of the law to numbers (stderr) or to
 * [low, high] pairs (ci). */
static int read_param_table(const json_ctx *c, const cJSON *obj, const char *key, const ls_lawfile *lf, double *a,
                            double *b)
{
    int status = expect_object(c, obj, key);
    for (const cJSON *item = status ? NULL : obj->child; item && status == 0; item = item->next) {
        char path[96];
        snprintf(path, sizeof path, "%s.%s", key, item->string);
        int j = ls_law_param_from_name(item->string);
        if (b && strcmp(item->string, "level") == 0)
            continue;
        if (j < 0 || !ls_law_uses_param(lf->law.kind, (ls_law_param)j)) {
            status = key_error(c, path, "not a parameter of the law");
            break;
        }
        if (!b) {
            status = get_number(c, item, path, &a[j]);
            if (status == 0 && a[j] < 0)
                status = key_error(c, path, "a standard error must not be negative");
        } else if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != 2) {
            status = key_error(c, path, "expected [low, high]");
        } else {
            status = get_number(c, cJSON_GetArrayItem(item, 0), path, &a[j]);
            if (status == 0)
                status = get_number(c, cJSON_GetArrayItem(item, 1), path, &b[j]);
            if (status == 0 && !(a[j] <= b[j]))
                status = key_error(c, path, "low is greater than high");
        }
    }
    return status;
}

static int read_bootstrap(const json_ctx *c, const cJSON *obj, ls_lawfile *lf)
{
    int status = expect_object(c, obj, "bootstrap");
    const cJSON *names = status ? NULL : member(c, obj, "params", "bootstrap.params", 1, &status);
    const cJSON *draws = status ? NULL : member(c, obj, "draws", "bootstrap.draws", 1, &status);
    const cJSON *group = status ? NULL : member(c, obj, "group", "bootstrap.group", 0, &status);
    if (status != 0)
        return status;
    if (group && !cJSON_IsNull(group) && (status = dup_string(c, group, "bootstrap.group", &lf->bootstrap_group)))
        return status;
    if (!cJSON_IsArray(names))
        return key_error(c, "bootstrap.params", "expected an array of parameter names");
    if (!cJSON_IsArray(draws))
        return key_error(c, "bootstrap.draws", "expected an array of draws");
    int ncols = cJSON_GetArraySize(names);
    int columns[LS_LAW_NPARAMS], named[LS_LAW_NPARAMS] = {0};
    if (ncols > LS_LAW_NPARAMS)
        return key_error(c, "bootstrap.params", "too many names");
    for (int i = 0; i < ncols; i++) {
        const cJSON *name = cJSON_GetArrayItem(names, i);
        int j = cJSON_IsString(name) ? ls_law_param_from_name(name->valuestring) : -1;
        if (j < 0 || !ls_law_uses_param(lf->law.kind, (ls_law_param)j))
            return key_error(c, "bootstrap.params", "expected names of the law's parameters");
        if (named[j]++) /* two columns of draws for one parameter: which is it? */
            return ls_error_set(c->err, LS_ERR_DATA, "%s: bootstrap.params: '%s' is named twice", c->name,
                                name->valuestring);
        columns[i] = j;
    }
    size_t n = (size_t)cJSON_GetArraySize(draws);
    const cJSON *count = member(c, obj, "n", "bootstrap.n", 0, &status);
    size_t count_value = 0;
    if (count && status == 0 && (status = get_count(c, count, "bootstrap.n", &count_value)) == 0 && count_value != n)
        status = ls_error_set(c->err, LS_ERR_DATA, "%s: bootstrap.n: %zu, but bootstrap.draws holds %zu %s",
                              c->name, count_value, n, ls_plural((double)n, "draw", "draws"));
    if (status != 0)
        return status;
    lf->draws = malloc((n ? n : 1) * LS_LAW_NPARAMS * sizeof *lf->draws);
    if (!lf->draws)
        return ls_error_set(c->err, LS_ERR_INTERNAL, "out of memory");
    lf->ndraws = n;
    size_t i = 0;
    for (const cJSON *draw = draws->child; draw; draw = draw->next, i++) {
        char path[64];
        snprintf(path, sizeof path, "bootstrap.draws[%zu]", i);
        if (!cJSON_IsArray(draw) || cJSON_GetArraySize(draw) != ncols)
            return key_error(c, path, "expected one number per name in bootstrap.params");
        double *row = lf->draws + i * LS_LAW_NPARAMS;
        memcpy(row, lf->law.p, sizeof lf->law.p);
        int k = 0;
        for (const cJSON *x = draw->child; x; x = x->next, k++) {
            if ((status = get_number(c, x, path, &row[columns[k]])) != 0)
                return status;
            if (ls_law_param_check((ls_law_param)columns[k], row[columns[k]], c->err) != 0)
                return ls_error_prefix(c->err, "%s: %s", c->name, path);
        }
        if (lf->law.kind.base == LS_LAW_BASE_MOE && !(row[LS_LAW_P_E_START] < row[LS_LAW_P_E_MAX]))
            return key_error(c, path, "E_start must be less than E_max");
    }
    return 0;
}

/* One warning of a law file written before warnings had codes: the code
 * its text implies, and the parameter(s) it names. */
static int read_old_warning(const char *text, ls_warnings *out)
{
    ls_warning_code code = LS_WARNING_UNDETERMINED;
    const char *held = strstr(text, " is held at ");
    if (!held)
        held = strstr(text, " are held at ");
    const char *eq = strstr(text, " = ");
    size_t subject = 0;
    if (held) {
        code = LS_WARNING_UNIDENTIFIED;
        subject = (size_t)(held - text);
    } else {
        if (strstr(text, " ran to its bound"))
            code = LS_WARNING_AT_BOUND;
        else if (strstr(text, " is above the lowest observed loss"))
            code = LS_WARNING_FIT_QUALITY;
        if (eq && !memchr(text, ' ', (size_t)(eq - text)))
            subject = (size_t)(eq - text);
    }
    char name[160];
    snprintf(name, sizeof name, "%.*s", (int)(subject < sizeof name ? subject : sizeof name - 1), text);
    return ls_warnings_add(out, code, name, "%s", text);
}

/* "warnings": objects {"code", "subject", "message"}, or (before) strings. */
static int read_warnings(const json_ctx *c, const cJSON *arr, ls_warnings *out)
{
    if (!cJSON_IsArray(arr))
        return key_error(c, "warnings", "expected an array");
    int k = 0;
    for (const cJSON *x = arr->child; x; x = x->next, k++) {
        char path[64];
        snprintf(path, sizeof path, "warnings[%d]", k);
        int status = 0;
        if (cJSON_IsString(x)) {
            status = read_old_warning(x->valuestring, out);
        } else if (cJSON_IsObject(x)) {
            const cJSON *code = member(c, x, "code", path, 1, &status);
            const cJSON *subject = member(c, x, "subject", path, 1, &status);
            const cJSON *message = member(c, x, "message", path, 1, &status);
            if (status != 0)
                return status;
            int n = cJSON_IsString(code) ? ls_warning_code_parse(code->valuestring) : -1;
            if (n < 0)
                return key_error(c, path, "expected a warning code (\"undetermined-parameter\", ...) as its code");
            if (!cJSON_IsString(subject) || !cJSON_IsString(message))
                return key_error(c, path, "expected strings as its subject and message");
            status = ls_warnings_add(out, (ls_warning_code)n, subject->valuestring, "%s", message->valuestring);
        } else {
            return key_error(c, path, "expected an object {\"code\", \"subject\", \"message\"} or a string");
        }
        if (status != 0)
            return ls_error_set(c->err, LS_ERR_INTERNAL, "out of memory");
    }
    return 0;
}

/* "optimum": {"a", "interval": [low, high], "level", "draws", "held_from"}. */
static int read_optimum(const json_ctx *c, const cJSON *obj, ls_lawfile_fit *fit)
{
    int status = expect_object(c, obj, "fit.optimum");
    const cJSON *a = status ? NULL : member(c, obj, "a", "fit.optimum.a", 1, &status);
    if (status == 0)
        status = get_number(c, a, "fit.optimum.a", &fit->optimum_a);
    const cJSON *pair = status ? NULL : member(c, obj, "interval", "fit.optimum.interval", 1, &status);
    if (status == 0 && (!cJSON_IsArray(pair) || cJSON_GetArraySize(pair) != 2))
        status = key_error(c, "fit.optimum.interval", "expected [low, high]");
    double ends[2] = {0, 0};
    for (int k = 0; k < 2 && status == 0; k++)
        status = get_number(c, cJSON_GetArrayItem(pair, k), "fit.optimum.interval", &ends[k]);
    if (status == 0 && !(ends[0] <= fit->optimum_a && fit->optimum_a <= ends[1]))
        status = key_error(c, "fit.optimum.interval", "does not hold fit.optimum.a");
    const cJSON *level = status ? NULL : member(c, obj, "level", "fit.optimum.level", 1, &status);
    if (status == 0)
        status = get_number(c, level, "fit.optimum.level", &fit->optimum_level);
    if (status == 0 && !(fit->optimum_level > 0 && fit->optimum_level < 1))
        status = key_error(c, "fit.optimum.level", "must be between 0 and 1");
    const cJSON *draws = status ? NULL : member(c, obj, "draws", "fit.optimum.draws", 1, &status);
    if (status == 0)
        status = get_count(c, draws, "fit.optimum.draws", &fit->optimum_draws);
    const cJSON *from = status ? NULL : member(c, obj, "held_from", "fit.optimum.held_from", 0, &status);
    if (from && status == 0)
        status = dup_string(c, from, "fit.optimum.held_from", &fit->optimum_held_from);
    fit->optimum_low = ends[0];
    fit->optimum_high = ends[1];
    fit->has_optimum = status == 0;
    return status;
}

static int read_fit(const json_ctx *c, const cJSON *obj, ls_lawfile_fit *fit)
{
    int status = expect_object(c, obj, "fit");
    if (status != 0)
        return status;
    static const struct {
        const char *key;
        size_t offset;
    } numbers[] = {{"objective", offsetof(ls_lawfile_fit, objective)},
                   {"delta", offsetof(ls_lawfile_fit, delta)},
                   {"rmse", offsetof(ls_lawfile_fit, rmse)}},
      counts[] = {{"n", offsetof(ls_lawfile_fit, n)},
                  {"starts", offsetof(ls_lawfile_fit, starts)},
                  {"starts_at_best", offsetof(ls_lawfile_fit, starts_at_best)}};
    char path[96];
    for (size_t i = 0; i < 3 && status == 0; i++) {
        snprintf(path, sizeof path, "fit.%s", numbers[i].key);
        const cJSON *item = member(c, obj, numbers[i].key, path, 1, &status);
        if (status == 0)
            status = get_number(c, item, path, (double *)((char *)fit + numbers[i].offset));
    }
    for (size_t i = 0; i < 3 && status == 0; i++) {
        snprintf(path, sizeof path, "fit.%s", counts[i].key);
        const cJSON *item = member(c, obj, counts[i].key, path, 1, &status);
        if (status == 0)
            status = get_count(c, item, path, (size_t *)((char *)fit + counts[i].offset));
    }
    /* What solve and predict use (rmse is solve's default epsilon) must make
     * sense: a negative RMSE or objective is a damaged file. */
    if (status == 0 && fit->objective < 0)
        status = key_error(c, "fit.objective", "must not be negative");
    if (status == 0 && !(fit->delta > 0))
        status = key_error(c, "fit.delta", "must be positive");
    if (status == 0 && fit->rmse < 0)
        status = key_error(c, "fit.rmse", "must not be negative");
    if (status == 0 && fit->n < 1)
        status = key_error(c, "fit.n", "must be at least 1");
    if (status == 0 && fit->starts_at_best > fit->starts)
        status = key_error(c, "fit.starts_at_best", "is greater than fit.starts");
    const cJSON *loss = status ? NULL : member(c, obj, "loss", "fit.loss", 1, &status);
    const cJSON *space = status ? NULL : member(c, obj, "space", "fit.space", 1, &status);
    if (status == 0)
        status = get_string(c, loss, "fit.loss", fit->loss, sizeof fit->loss);
    if (status == 0 && strcmp(fit->loss, "huber") != 0 && strcmp(fit->loss, "mse") != 0)
        status = key_error(c, "fit.loss", "expected \"huber\" or \"mse\"");
    if (status == 0)
        status = get_string(c, space, "fit.space", fit->space, sizeof fit->space);
    if (status == 0 && strcmp(fit->space, "log") != 0 && strcmp(fit->space, "linear") != 0)
        status = key_error(c, "fit.space", "expected \"log\" or \"linear\"");
    const cJSON *method = status ? NULL : member(c, obj, "method", "fit.method", 0, &status);
    if (method && status == 0)
        status = get_string(c, method, "fit.method", fit->method, sizeof fit->method);
    const cJSON *seed = status ? NULL : member(c, obj, "seed", "fit.seed", 0, &status);
    size_t seed_value = 0;
    if (seed && status == 0 && (status = get_count(c, seed, "fit.seed", &seed_value)) == 0)
        fit->seed = (unsigned long)seed_value;
    const cJSON *converged = status ? NULL : member(c, obj, "converged", "fit.converged", 1, &status);
    if (converged && status == 0) {
        if (!cJSON_IsBool(converged))
            status = key_error(c, "fit.converged", "expected true or false");
        fit->converged = cJSON_IsTrue(converged);
    }
    const cJSON *data = status ? NULL : member(c, obj, "data", "fit.data", 1, &status);
    if (status == 0 && !cJSON_IsArray(data))
        status = key_error(c, "fit.data", "expected an array");
    if (status == 0) {
        size_t n = (size_t)cJSON_GetArraySize(data);
        fit->data = calloc(n ? n : 1, sizeof *fit->data);
        if (!fit->data)
            return ls_error_set(c->err, LS_ERR_INTERNAL, "out of memory");
        for (const cJSON *d = data->child; d && status == 0; d = d->next) {
            snprintf(path, sizeof path, "fit.data[%zu]", fit->ndata);
            ls_lawfile_data *dst = &fit->data[fit->ndata++];
            if ((status = expect_object(c, d, path)) != 0)
                break;
            const cJSON *file = member(c, d, "file", "fit.data[].file", 1, &status);
            const cJSON *sha = status ? NULL : member(c, d, "sha256", "fit.data[].sha256", 1, &status);
            if (status == 0)
                status = dup_string(c, file, "fit.data[].file", &dst->path);
            if (status == 0)
                status = get_string(c, sha, "fit.data[].sha256", dst->sha256, sizeof dst->sha256);
            if (status == 0 && (strlen(dst->sha256) != 64 || strspn(dst->sha256, "0123456789abcdef") != 64))
                status = key_error(c, "fit.data[].sha256", "expected 64 lower-case hexadecimal digits");
        }
    }
    const cJSON *ranges = status ? NULL : member(c, obj, "ranges", "fit.ranges", 0, &status);
    if (ranges && status == 0) {
        static const char *const names[] = {"n_act", "tokens", "R", "E"};
        double *targets[] = {fit->n_act_range, fit->tokens_range, fit->r_range, fit->e_range};
        status = expect_object(c, ranges, "fit.ranges");
        for (int q = 0; q < 4 && status == 0; q++) {
            snprintf(path, sizeof path, "fit.ranges.%s", names[q]);
            const cJSON *pair = member(c, ranges, names[q], path, 1, &status);
            if (status != 0)
                break;
            if (!cJSON_IsArray(pair) || cJSON_GetArraySize(pair) != 2)
                status = key_error(c, path, "expected [low, high]");
            for (int k = 0; k < 2 && status == 0; k++)
                status = get_number(c, cJSON_GetArrayItem(pair, k), path, &targets[q][k]);
            /* Sizes and tokens are positive, R and E counts of at least 1. */
            double least = q < 2 ? 0 : 1;
            if (status == 0 && !(q < 2 ? targets[q][0] > least : targets[q][0] >= least))
                status = key_error(c, path, q < 2 ? "low must be positive" : "low must be at least 1");
            if (status == 0 && !(targets[q][0] <= targets[q][1]))
                status = key_error(c, path, "low is greater than high");
        }
        /* F joined the ranges later: optional, so older law files still read. */
        const cJSON *pair = status ? NULL : member(c, ranges, "flops", "fit.ranges.flops", 0, &status);
        if (pair && status == 0) {
            if (!cJSON_IsArray(pair) || cJSON_GetArraySize(pair) != 2)
                status = key_error(c, "fit.ranges.flops", "expected [low, high]");
            for (int k = 0; k < 2 && status == 0; k++)
                status = get_number(c, cJSON_GetArrayItem(pair, k), "fit.ranges.flops", &fit->flops_range[k]);
            if (status == 0 && !(fit->flops_range[0] > 0))
                status = key_error(c, "fit.ranges.flops", "low must be positive");
            if (status == 0 && !(fit->flops_range[0] <= fit->flops_range[1]))
                status = key_error(c, "fit.ranges.flops", "low is greater than high");
            fit->has_flops_range = status == 0;
        }
        fit->has_ranges = status == 0;
    }
    /* The exponent a and its interval: optional (fit writes it when a has
     * one; older files lack it). */
    const cJSON *optimum = status ? NULL : member(c, obj, "optimum", "fit.optimum", 0, &status);
    if (optimum && status == 0)
        status = read_optimum(c, optimum, fit);
    ls_law_flops_default(&fit->flops);
    const cJSON *conv = status ? NULL : member(c, obj, "flops_convention", "fit.flops_convention", 0, &status);
    if (conv && status == 0)
        status = read_flops_convention(c, conv, &fit->flops);
    const cJSON *filters = status ? NULL : member(c, obj, "filters", "fit.filters", 1, &status);
    if (status == 0 && !cJSON_IsArray(filters))
        status = key_error(c, "fit.filters", "expected an array of strings");
    if (status == 0) {
        size_t n = (size_t)cJSON_GetArraySize(filters);
        fit->filters = calloc(n ? n : 1, sizeof *fit->filters);
        if (!fit->filters)
            return ls_error_set(c->err, LS_ERR_INTERNAL, "out of memory");
        for (const cJSON *f = filters->child; f && status == 0; f = f->next)
            status = dup_string(c, f, "fit.filters[]", &fit->filters[fit->nfilters++]);
    }
    /* Rows --skip-invalid dropped: optional (absent when none were). */
    const cJSON *skipped = status ? NULL : member(c, obj, "skipped", "fit.skipped", 0, &status);
    if (status == 0 && skipped) {
        double rows = 0, line = 0;
        status = expect_object(c, skipped, "fit.skipped");
        const cJSON *count = status ? NULL : member(c, skipped, "rows", "fit.skipped.rows", 1, &status);
        if (status == 0)
            status = get_number(c, count, "fit.skipped.rows", &rows);
        if (status == 0 && !(rows >= 1 && rows == floor(rows) && rows < 1e15))
            status = key_error(c, "fit.skipped.rows", "expected a count of rows");
        fit->nskipped = status == 0 ? (size_t)rows : 0;
        const cJSON *lines = status ? NULL : member(c, skipped, "first_lines", "fit.skipped.first_lines", 1, &status);
        if (status == 0 && !cJSON_IsArray(lines))
            status = key_error(c, "fit.skipped.first_lines", "expected an array of line numbers");
        for (const cJSON *l = lines ? lines->child : NULL; l && status == 0; l = l->next) {
            status = get_number(c, l, "fit.skipped.first_lines[]", &line);
            if (status == 0 && !(line >= 1 && line == floor(line) && line < 1e15))
                status = key_error(c, "fit.skipped.first_lines[]", "expected a line number");
            if (status == 0 && fit->nskipped_lines < LS_SWEEP_SKIPS_SHOWN)
                fit->skipped_lines[fit->nskipped_lines++] = (long)line;
        }
    }
    /* Runs --last left out whole: optional (absent when none were). */
    const cJSON *dropped = status ? NULL : member(c, obj, "last_dropped", "fit.last_dropped", 0, &status);
    if (status == 0 && dropped) {
        double runs = 0, line = 0;
        status = expect_object(c, dropped, "fit.last_dropped");
        const cJSON *count = status ? NULL : member(c, dropped, "runs", "fit.last_dropped.runs", 1, &status);
        if (status == 0)
            status = get_number(c, count, "fit.last_dropped.runs", &runs);
        if (status == 0 && !(runs >= 1 && runs == floor(runs) && runs < 1e15))
            status = key_error(c, "fit.last_dropped.runs", "expected a count of runs");
        fit->nlast_dropped = status == 0 ? (size_t)runs : 0;
        const cJSON *run = status ? NULL : member(c, dropped, "first_run", "fit.last_dropped.first_run", 1, &status);
        if (status == 0 && !cJSON_IsString(run))
            status = key_error(c, "fit.last_dropped.first_run", "expected the name of a run");
        if (status == 0)
            snprintf(fit->last_dropped_run, sizeof fit->last_dropped_run, "%s", run->valuestring);
        const cJSON *l = status ? NULL : member(c, dropped, "first_line", "fit.last_dropped.first_line", 1, &status);
        if (status == 0)
            status = get_number(c, l, "fit.last_dropped.first_line", &line);
        if (status == 0 && !(line >= 1 && line == floor(line) && line < 1e15))
            status = key_error(c, "fit.last_dropped.first_line", "expected a line number");
        fit->last_dropped_line = status == 0 ? (long)line : 0;
    }
    return status;
}

/* A [low, high] pair of positive numbers, low <= high. */
static int read_pair(const json_ctx *c, const cJSON *item, const char *path, double out[2])
{
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != 2)
        return key_error(c, path, "expected [low, high]");
    int status = 0;
    for (int k = 0; k < 2 && status == 0; k++)
        status = get_number(c, cJSON_GetArrayItem(item, k), path, &out[k]);
    if (status == 0 && !(out[0] > 0))
        status = key_error(c, path, "low must be positive");
    if (status == 0 && !(out[0] <= out[1]))
        status = key_error(c, path, "low is greater than high");
    return status;
}

static const char *const ASSUMED_NAMES[] = {"routed_share", "fixed_share", "per_loop_share", "loop_share"};

/* "architecture": {"source", "template", "residual": {"n_total", "n_loop"},
 * "assumed": [...], "configurations": [{"E", "R", "k", "runs",
 * "n_total_ratio", "n_loop_ratio"}, ...]}. */
static int compare_configs(const void *a, const void *b)
{
    const ls_arch_config *x = *(const ls_arch_config *const *)a, *y = *(const ls_arch_config *const *)b;
    if (x->E != y->E)
        return x->E < y->E ? -1 : 1;
    if (x->R != y->R)
        return x->R < y->R ? -1 : 1;
    return (x->k > y->k) - (x->k < y->k);
}

/* What a record must be to be the one fit wrote: its configurations each
 * once, its residuals those its template gives at them, its template's
 * top_k the runs' k, and its source what the residuals allow. */
static int check_architecture(const json_ctx *c, const ls_arch_record *r, const ls_lawfile *lf)
{
    char what[LS_ERROR_MESSAGE_MAX];
    if (r->nconfigs == 0)
        return key_error(c, "architecture.configurations", "expected at least one configuration (the runs')");
    const ls_arch_config **order = malloc(r->nconfigs * sizeof *order);
    if (!order)
        return ls_error_set(c->err, LS_ERR_INTERNAL, "out of memory");
    double kmin = INFINITY;
    for (size_t i = 0; i < r->nconfigs; i++) {
        order[i] = &r->configs[i];
        kmin = fmin(kmin, r->configs[i].k);
    }
    qsort(order, r->nconfigs, sizeof *order, compare_configs);
    int status = 0;
    for (size_t i = 1; i < r->nconfigs && status == 0; i++)
        if (compare_configs(&order[i - 1], &order[i]) == 0) {
            snprintf(what, sizeof what, "E = %g, R = %g, k = %g is listed twice (at [%zu] and [%zu])", order[i]->E,
                     order[i]->R, order[i]->k, (size_t)(order[i - 1] - r->configs), (size_t)(order[i] - r->configs));
            status = key_error(c, "architecture.configurations", what);
        }
    free(order);
    if (status != 0)
        return status;
    const ls_arch_template *t = &r->tmpl;
    if (t->top_k != kmin) {
        snprintf(what, sizeof what, "%d, but the runs it records have k = %g at the least", t->top_k, kmin);
        return key_error(c, "architecture.template.top_k", what);
    }
    /* A template's own convention is what solve counts with when the fit's
     * is 6nd, so it must be the fit's (files written before recorded 6nd
     * beside another convention of the fit's, which wins). */
    if (lf->has_fit && t->flops_convention != LS_LAW_FLOPS_6ND && t->flops_convention != lf->fit.flops.kind) {
        snprintf(what, sizeof what, "%s, but the fit counted FLOPs as %s (fit.flops_convention)",
                 ls_law_flops_name(t->flops_convention), ls_law_flops_name(lf->fit.flops.kind));
        return key_error(c, "architecture.template.flops_convention", what);
    }
    double total, loop;
    ls_arch_config_residuals(t, r->configs, r->nconfigs, &total, &loop);
    const double recorded[2] = {r->residual_total, r->residual_loop}, actual[2] = {total, loop};
    static const char *const names[2] = {"architecture.residual.n_total", "architecture.residual.n_loop"};
    for (int k = 0; k < 2; k++) {
        if (isnan(actual[k]) && isnan(recorded[k]))
            continue;
        if (isnan(actual[k]) || isnan(recorded[k])) {
            snprintf(what, sizeof what, isnan(actual[k]) ? "given, but no configuration has an n_loop_ratio"
                                                         : "missing, but the configurations give n_loop_ratio");
            return key_error(c, names[k], what);
        }
        if (!(fabs(recorded[k] - actual[k]) <= 1e-9 + 1e-6 * actual[k])) {
            snprintf(what, sizeof what, "%.6g is not what the template gives at the configurations (%.6g): the "
                     "template or the configurations were edited", recorded[k], actual[k]);
            return key_error(c, names[k], what);
        }
    }
    double worst = fmax(total, isnan(loop) ? 0.0 : loop);
    if (r->source == LS_ARCH_FROM_DEFAULT && !(ls_arch_template_is_default(t) && worst <= 1e-6)) {
        snprintf(what, sizeof what, "\"default\", but %s", ls_arch_template_is_default(t)
                 ? "the default template does not reproduce the configurations to 1e-6"
                 : "the template is not the default");
        return key_error(c, "architecture.source", what);
    }
    if (r->source == LS_ARCH_FROM_TEMPLATE && !(worst <= LS_ARCH_TOLERANCE)) {
        snprintf(what, sizeof what, "\"template\", but the template is %.3g%% from the configurations (a given "
                 "template is recorded only within %g%%)", 100 * worst, 100 * LS_ARCH_TOLERANCE);
        return key_error(c, "architecture.source", what);
    }
    if (r->assumed && r->source != LS_ARCH_FROM_RUNS)
        return key_error(c, "architecture.assumed", "only shares fitted to the runs (source \"runs\") assume any");
    return 0;
}

static int read_architecture(const json_ctx *c, const cJSON *obj, ls_arch_record *r, const ls_lawfile *lf)
{
    char path[128], text[32];
    int status = expect_object(c, obj, "architecture");
    const cJSON *item = status ? NULL : member(c, obj, "source", "architecture.source", 1, &status);
    if (status == 0)
        status = get_string(c, item, "architecture.source", text, sizeof text);
    int source = status == 0 ? ls_arch_source_from_name(text) : -1;
    if (status == 0 && source < 0)
        status = key_error(c, "architecture.source", "expected \"template\", \"default\" or \"runs\"");
    r->source = (ls_arch_source)(source < 0 ? 0 : source);
    item = status ? NULL : member(c, obj, "template", "architecture.template", 1, &status);
    ls_arch_template_default(&r->tmpl);
    ls_arch_doc doc;
    if (status == 0 && (ls_arch_doc_from_json(item, "architecture.template", &doc, c->err) != 0 ||
                        ls_arch_template_from_doc(&doc, "architecture.template", &r->tmpl, c->err) != 0)) {
        char why[LS_ERROR_MESSAGE_MAX];
        snprintf(why, sizeof why, "%s", c->err->message);
        status = ls_error_set(c->err, LS_ERR_DATA, "%s: %s", c->name, why);
    }
    r->residual_total = r->residual_loop = NAN;
    const cJSON *residual = status ? NULL : member(c, obj, "residual", "architecture.residual", 1, &status);
    if (status == 0)
        status = expect_object(c, residual, "architecture.residual");
    static const char *const res_keys[] = {"n_total", "n_loop"};
    double *res_of[] = {&r->residual_total, &r->residual_loop};
    for (int k = 0; k < 2 && status == 0; k++) {
        snprintf(path, sizeof path, "architecture.residual.%s", res_keys[k]);
        item = member(c, residual, res_keys[k], path, k == 0, &status);
        if (item && status == 0)
            status = get_number(c, item, path, res_of[k]);
        if (item && status == 0 && !(*res_of[k] >= 0))
            status = key_error(c, path, "must not be negative");
        else if (item && status == 0 && !(*res_of[k] <= 1e9)) {
            char what[96];
            snprintf(what, sizeof what, "%g is more than 1e9, beyond any relative difference of parameter counts",
                     *res_of[k]);
            status = key_error(c, path, what);
        }
    }
    item = status ? NULL : member(c, obj, "assumed", "architecture.assumed", 0, &status);
    if (item && status == 0 && !cJSON_IsArray(item))
        status = key_error(c, "architecture.assumed", "expected an array of share names");
    for (const cJSON *x = item ? item->child : NULL; x && status == 0; x = x->next) {
        int k = 0;
        while (k < 4 && !(cJSON_IsString(x) && strcmp(x->valuestring, ASSUMED_NAMES[k]) == 0))
            k++;
        if (k == 4)
            status = key_error(c, "architecture.assumed",
                               "expected routed_share, fixed_share, per_loop_share or loop_share");
        else if (r->assumed >> k & 1u) {
            char what[96];
            snprintf(what, sizeof what, "'%s' is listed twice", ASSUMED_NAMES[k]);
            status = key_error(c, "architecture.assumed", what);
        } else
            r->assumed |= 1u << k;
    }
    const cJSON *configs = status ? NULL : member(c, obj, "configurations", "architecture.configurations", 1, &status);
    if (status == 0 && !cJSON_IsArray(configs))
        status = key_error(c, "architecture.configurations", "expected an array");
    size_t n = status == 0 ? (size_t)cJSON_GetArraySize(configs) : 0;
    if (status == 0 && !(r->configs = malloc((n ? n : 1) * sizeof *r->configs)))
        status = ls_error_set(c->err, LS_ERR_INTERNAL, "out of memory");
    for (const cJSON *x = status == 0 ? configs->child : NULL; x && status == 0; x = x->next) {
        ls_arch_config *cf = &r->configs[r->nconfigs];
        snprintf(path, sizeof path, "architecture.configurations[%zu]", r->nconfigs);
        status = expect_object(c, x, path);
        /* E, R and k as a sweep's runs may have them (docs/formats.md). */
        static const char *const keys[] = {"E", "R", "k"};
        static const double most[] = {LS_SWEEP_MAX_EXPERTS, LS_SWEEP_MAX_LOOPS, LS_SWEEP_MAX_EXPERTS};
        double *values[] = {&cf->E, &cf->R, &cf->k};
        for (int k = 0; k < 3 && status == 0; k++) {
            snprintf(path, sizeof path, "architecture.configurations[%zu].%s", r->nconfigs, keys[k]);
            item = member(c, x, keys[k], path, 1, &status);
            if (status == 0)
                status = get_number(c, item, path, values[k]);
            if (status == 0 && !(*values[k] >= 1 && *values[k] <= most[k] && *values[k] == floor(*values[k]))) {
                char what[64];
                snprintf(what, sizeof what, "expected a whole number from 1 to %g", most[k]);
                status = key_error(c, path, what);
            }
        }
        if (status == 0 && cf->k > cf->E) {
            snprintf(path, sizeof path, "architecture.configurations[%zu].k", r->nconfigs);
            status = key_error(c, path, "more experts per token than experts (E)");
        }
        snprintf(path, sizeof path, "architecture.configurations[%zu].runs", r->nconfigs);
        item = status ? NULL : member(c, x, "runs", path, 1, &status);
        if (status == 0)
            status = get_count(c, item, path, &cf->runs);
        if (status == 0 && cf->runs == 0)
            status = key_error(c, path, "expected a count of at least 1 (a configuration is the runs')");
        /* N_total >= N_act and N_loop <= N_act, as every run has them. */
        snprintf(path, sizeof path, "architecture.configurations[%zu].n_total_ratio", r->nconfigs);
        item = status ? NULL : member(c, x, "n_total_ratio", path, 1, &status);
        if (status == 0)
            status = read_pair(c, item, path, cf->total_ratio);
        if (status == 0 && !(cf->total_ratio[0] >= 1 && cf->total_ratio[1] <= LS_SWEEP_MAX_PARAMS))
            status = key_error(c, path, "expected ratios N_total / N_act of at least 1");
        cf->loop_ratio[0] = cf->loop_ratio[1] = NAN;
        snprintf(path, sizeof path, "architecture.configurations[%zu].n_loop_ratio", r->nconfigs);
        item = status ? NULL : member(c, x, "n_loop_ratio", path, 0, &status);
        if (item && status == 0)
            status = read_pair(c, item, path, cf->loop_ratio);
        if (item && status == 0 && !(cf->loop_ratio[1] <= 1))
            status = key_error(c, path, "expected ratios N_loop / N_act of at most 1");
        if (status == 0)
            r->nconfigs++;
    }
    return status == 0 ? check_architecture(c, r, lf) : status;
}

/* "quantisation": {"form": "kumar2024", "C_T", "gamma_D", "gamma_N",
 * "gamma_post", "trained_bits", and optionally "runs" and "rmse"}. */
static int read_quant(const json_ctx *c, const cJSON *obj, ls_law_quant *q, size_t *runs, double *rmse)
{
    int status = expect_object(c, obj, "quantisation");
    const cJSON *form = status ? NULL : member(c, obj, "form", "quantisation.form", 1, &status);
    if (status == 0 && !(cJSON_IsString(form) && strcmp(form->valuestring, LS_LAWFILE_QUANT_FORM) == 0))
        status = key_error(c, "quantisation.form", "expected \"" LS_LAWFILE_QUANT_FORM "\"");
    static const char *const keys[] = {"C_T", "gamma_D", "gamma_N", "gamma_post", "trained_bits"};
    double *values[] = {&q->c_t, &q->gamma_d, &q->gamma_n, &q->gamma_post, &q->trained_bits};
    char path[64];
    for (int k = 0; k < 5 && status == 0; k++) {
        snprintf(path, sizeof path, "quantisation.%s", keys[k]);
        const cJSON *item = member(c, obj, keys[k], path, 1, &status);
        if (status == 0)
            status = get_number(c, item, path, values[k]);
    }
    if (status == 0 && ls_law_quant_check(q, c->err) != 0) {
        char why[LS_ERROR_MESSAGE_MAX];
        snprintf(why, sizeof why, "%s", c->err->message);
        status = key_error(c, "quantisation", why);
    }
    /* The bit widths of its runs: optional (a fit writes them). */
    q->bits_lo = q->bits_hi = 0;
    const cJSON *fitted = status ? NULL : member(c, obj, "bits", "quantisation.bits", 0, &status);
    if (fitted && status == 0) {
        double range[2];
        status = read_pair(c, fitted, "quantisation.bits", range);
        if (status == 0 && !(range[0] >= 1 && range[1] < q->trained_bits))
            status = key_error(c, "quantisation.bits", "expected [low, high] from 1 to below trained_bits");
        q->bits_lo = status == 0 ? range[0] : 0;
        q->bits_hi = status == 0 ? range[1] : 0;
    }
    *runs = 0;
    *rmse = NAN;
    const cJSON *item = status ? NULL : member(c, obj, "runs", "quantisation.runs", 0, &status);
    if (item && status == 0)
        status = get_count(c, item, "quantisation.runs", runs);
    item = status ? NULL : member(c, obj, "rmse", "quantisation.rmse", 0, &status);
    if (item && status == 0 && (status = get_number(c, item, "quantisation.rmse", rmse)) == 0 && !(*rmse >= 0))
        status = key_error(c, "quantisation.rmse", "expected a number not below 0");
    return status;
}

int ls_lawfile_quant_read(const char *path, ls_law_quant *out, ls_error *err)
{
    char *text = NULL;
    size_t len = 0;
    if (ls_read_small_file(path, LAWFILE_MAX_BYTES, "quantisation file", &text, &len, err) != 0)
        return err->code;
    const char *name = ls_input_name(path);
    json_ctx c = {name, err};
    cJSON *root = ls_parse_json_text(text, len, name, err);
    int status = root ? 0 : err->code;
    const cJSON *item = status ? NULL : member(&c, root, "quantisation", "quantisation", 1, &status);
    size_t runs;
    double rmse;
    if (status == 0)
        status = read_quant(&c, item, out, &runs, &rmse);
    if (status != 0 && root)
        ls_json_error_locate(err, name, text, len);
    cJSON_Delete(root);
    free(text);
    return status;
}

ls_lawfile *ls_lawfile_parse(const char *text, size_t len, const char *name, ls_error *err)
{
    json_ctx c = {name, err};
    cJSON *root = ls_parse_json_text(text, len, name, err);
    if (!root)
        return NULL;
    ls_lawfile *lf = ls_lawfile_new(NULL);
    int status = lf ? 0 : ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    if (status == 0 && !cJSON_IsObject(root))
        status = ls_error_set(err, LS_ERR_DATA, "%s: expected a JSON object at the top", name);
    const cJSON *format = status ? NULL : member(&c, root, "format", "format", 1, &status);
    char format_text[64];
    if (status == 0)
        status = get_string(&c, format, "format", format_text, sizeof format_text);
    if (status == 0 && strcmp(format_text, LS_LAWFILE_FORMAT) != 0)
        status = ls_error_set(err, LS_ERR_DATA, "%s: format: '%s' is not %s", name, format_text, LS_LAWFILE_FORMAT);
    if (status == 0)
        status = read_law(&c, root, lf);

    const cJSON *item;
    /* fixed and tied are checked as fit checks --fix and --tie, so that a
     * file holds nothing fit would refuse (a cycle, a tie across kinds, a
     * parameter both held and tied), each refusal naming the parameter. */
    char kind_name[64];
    ls_law_kind_format(lf->law.kind, kind_name, sizeof kind_name);
    char what[LS_ERROR_MESSAGE_MAX];
    if (status == 0 && (item = member(&c, root, "fixed", "fixed", 0, &status))) {
        if (!cJSON_IsArray(item))
            status = key_error(&c, "fixed", "expected an array of parameter names");
        for (const cJSON *x = item->child; x && status == 0; x = x->next) {
            int j = cJSON_IsString(x) ? ls_law_param_from_name(x->valuestring) : -1;
            if (!cJSON_IsString(x))
                status = key_error(&c, "fixed", "expected an array of parameter names");
            else if (j < 0 || !ls_law_uses_param(lf->law.kind, (ls_law_param)j)) {
                snprintf(what, sizeof what, "'%s' is not a parameter of %s", x->valuestring, kind_name);
                status = key_error(&c, "fixed", what);
            } else if (lf->fixed[j]) {
                snprintf(what, sizeof what, "'%s' is listed twice", x->valuestring);
                status = key_error(&c, "fixed", what);
            } else
                lf->fixed[j] = 1;
        }
    }
    /* "tied": {"beta": "alpha"}: beta was fitted equal to alpha (optional). */
    if (status == 0 && (item = member(&c, root, "tied", "tied", 0, &status))) {
        ls_fit_parameters held;
        memset(&held, 0, sizeof held);
        memcpy(held.fixed, lf->fixed, sizeof held.fixed);
        if (!cJSON_IsObject(item))
            status = key_error(&c, "tied", "expected an object of NAME: LEADER names");
        for (const cJSON *x = item->child; x && status == 0; x = x->next) {
            int j = ls_law_param_from_name(x->string);
            int i = cJSON_IsString(x) ? ls_law_param_from_name(x->valuestring) : -1;
            ls_error tie_err;
            if (!cJSON_IsString(x)) {
                snprintf(what, sizeof what, "%s: expected the name of its leader", x->string);
                status = key_error(&c, "tied", what);
            } else if (j < 0 || i < 0) {
                snprintf(what, sizeof what, "'%s' is not a parameter of %s", j < 0 ? x->string : x->valuestring,
                         kind_name);
                status = key_error(&c, "tied", what);
            } else if (ls_fit_check_tie(lf->law.kind, &held, (ls_law_param)j, (ls_law_param)i, &tie_err) != 0) {
                status = key_error(&c, "tied", tie_err.message);
            } else if (lf->law.p[j] != lf->law.p[i]) {
                char vj[NUMTEXT_DOUBLE_MAX], vi[NUMTEXT_DOUBLE_MAX];
                ls_numtext_format_double(vj, lf->law.p[j]);
                ls_numtext_format_double(vi, lf->law.p[i]);
                snprintf(what, sizeof what, "%s = %s differs from its leader %s = %s in params", x->string, vj,
                         x->valuestring, vi);
                status = key_error(&c, "tied", what);
            } else
                held.tied[j] = lf->tied[j] = (unsigned char)(i + 1);
        }
    }
    if (status == 0 && (item = member(&c, root, "stderr", "stderr", 0, &status))) {
        lf->has_stderr = 1;
        for (int j = 0; j < LS_LAW_NPARAMS; j++)
            lf->stderr_of[j] = NAN;
        status = read_param_table(&c, item, "stderr", lf, lf->stderr_of, NULL);
    }
    if (status == 0 && (item = member(&c, root, "ci", "ci", 0, &status))) {
        lf->has_ci = 1;
        for (int j = 0; j < LS_LAW_NPARAMS; j++)
            lf->ci_low[j] = lf->ci_high[j] = NAN;
        const cJSON *level = status ? NULL : member(&c, item, "level", "ci.level", 1, &status);
        if (status == 0)
            status = get_number(&c, level, "ci.level", &lf->ci_level);
        if (status == 0 && !(lf->ci_level > 0 && lf->ci_level < 1))
            status = key_error(&c, "ci.level", "expected a number between 0 and 1");
        if (status == 0)
            status = read_param_table(&c, item, "ci", lf, lf->ci_low, lf->ci_high);
    }
    if (status == 0 && (item = member(&c, root, "bootstrap", "bootstrap", 0, &status)))
        status = read_bootstrap(&c, item, lf);
    if (status == 0 && (item = member(&c, root, "fit", "fit", 0, &status))) {
        lf->has_fit = 1;
        status = read_fit(&c, item, &lf->fit);
    }
    if (status == 0 && (item = member(&c, root, "warnings", "warnings", 0, &status)))
        status = read_warnings(&c, item, &lf->warnings);
    if (status == 0 && (item = member(&c, root, "architecture", "architecture", 0, &status))) {
        lf->has_architecture = 1;
        status = read_architecture(&c, item, &lf->architecture, lf);
    }
    if (status == 0 && (item = member(&c, root, "quantisation", "quantisation", 0, &status))) {
        lf->has_quant = 1;
        status = read_quant(&c, item, &lf->quant, &lf->quant_runs, &lf->quant_rmse);
    }
    if (status == 0 && (item = member(&c, root, "created_by", "created_by", 0, &status))) {
        const cJSON *version = member(&c, item, "version", "created_by.version", 0, &status);
        const cJSON *command = member(&c, item, "command", "created_by.command", 0, &status);
        if (status == 0 && version)
            status = dup_string(&c, version, "created_by.version", &lf->version);
        if (status == 0 && command)
            status = dup_string(&c, command, "created_by.command", &lf->command);
    }
    cJSON_Delete(root);
    if (status != 0) {
        ls_json_error_locate(err, name, text, len);
        ls_lawfile_free(lf);
        return NULL;
    }
    return lf;
}

ls_lawfile *ls_lawfile_read(const char *path, ls_error *err)
{
    char *text = NULL;
    size_t len = 0;
    if (ls_read_small_file(path, LAWFILE_MAX_BYTES, "law file", &text, &len, err) != 0)
        return NULL;
    ls_lawfile *lf = ls_lawfile_parse(text, len, ls_input_name(path), err);
    free(text);
    return lf;
}

/* Defined in the build's default_law.c, generated by cmake/embed.cmake. */
extern const unsigned char loopscale_default_law_json[];
extern const size_t loopscale_default_law_json_len;

ls_lawfile *ls_lawfile_default(ls_error *err)
{
    return ls_lawfile_parse((const char *)loopscale_default_law_json, loopscale_default_law_json_len,
                         "the default law", err);
}

/* ---- writing ---------------------------------------------------------- */

char *ls_lawfile_to_json(const ls_lawfile *lf, ls_error *err)
{
    jsonw w;
    ls_jsonw_init(&w);
    ls_law_param list[LS_LAW_NPARAMS];
    size_t np = ls_law_params_of(lf->law.kind, list);

    ls_jsonw_object_begin(&w, NULL);
    ls_jsonw_string(&w, "format", LS_LAWFILE_FORMAT);
    ls_jsonw_object_begin(&w, "law");
    ls_jsonw_string(&w, "base", ls_law_base_name(lf->law.kind.base));
    ls_jsonw_string(&w, "mapping", ls_law_mapping_name(lf->law.kind.mapping));
    ls_jsonw_object_end(&w);
    ls_jsonw_object_begin(&w, "params");
    for (size_t i = 0; i < np; i++)
        ls_jsonw_number(&w, ls_law_param_name(list[i]), lf->law.p[list[i]]);
    ls_jsonw_object_end(&w);
    ls_jsonw_array_begin(&w, "fixed", 1);
    for (size_t i = 0; i < np; i++)
        if (lf->fixed[list[i]])
            ls_jsonw_string(&w, NULL, ls_law_param_name(list[i]));
    ls_jsonw_array_end(&w);
    int any_tied = 0;
    for (size_t i = 0; i < np; i++)
        any_tied |= lf->tied[list[i]] != 0;
    if (any_tied) {
        ls_jsonw_object_begin(&w, "tied");
        for (size_t i = 0; i < np; i++)
            if (lf->tied[list[i]])
                ls_jsonw_string(&w, ls_law_param_name(list[i]), ls_law_param_name((ls_law_param)(lf->tied[list[i]] - 1)));
        ls_jsonw_object_end(&w);
    }
    if (lf->has_stderr) {
        ls_jsonw_object_begin(&w, "stderr");
        for (size_t i = 0; i < np; i++)
            if (isfinite(lf->stderr_of[list[i]]))
                ls_jsonw_number(&w, ls_law_param_name(list[i]), lf->stderr_of[list[i]]);
        ls_jsonw_object_end(&w);
    }
    if (lf->has_ci) {
        ls_jsonw_object_begin(&w, "ci");
        ls_jsonw_number(&w, "level", lf->ci_level);
        for (size_t i = 0; i < np; i++) {
            if (!isfinite(lf->ci_low[list[i]]) || !isfinite(lf->ci_high[list[i]]))
                continue;
            ls_jsonw_array_begin(&w, ls_law_param_name(list[i]), 1);
            ls_jsonw_number(&w, NULL, lf->ci_low[list[i]]);
            ls_jsonw_number(&w, NULL, lf->ci_high[list[i]]);
            ls_jsonw_array_end(&w);
        }
        ls_jsonw_object_end(&w);
    }
    if (lf->ndraws > 0) {
        ls_jsonw_object_begin(&w, "bootstrap");
        ls_jsonw_integer(&w, "n", (long long)lf->ndraws);
        if (lf->bootstrap_group)
            ls_jsonw_string(&w, "group", lf->bootstrap_group);
        ls_jsonw_array_begin(&w, "params", 1);
        for (size_t i = 0; i < np; i++)
            ls_jsonw_string(&w, NULL, ls_law_param_name(list[i]));
        ls_jsonw_array_end(&w);
        ls_jsonw_array_begin(&w, "draws", 0);
        for (size_t d = 0; d < lf->ndraws; d++) {
            ls_jsonw_array_begin(&w, NULL, 1);
            for (size_t i = 0; i < np; i++)
                ls_jsonw_number(&w, NULL, lf->draws[d * LS_LAW_NPARAMS + list[i]]);
            ls_jsonw_array_end(&w);
        }
        ls_jsonw_array_end(&w);
        ls_jsonw_object_end(&w);
    }
    if (lf->has_fit) {
        const ls_lawfile_fit *fit = &lf->fit;
        ls_jsonw_object_begin(&w, "fit");
        ls_jsonw_number(&w, "objective", fit->objective);
        ls_jsonw_string(&w, "loss", fit->loss);
        ls_jsonw_number(&w, "delta", fit->delta);
        ls_jsonw_string(&w, "space", fit->space);
        ls_jsonw_integer(&w, "n", (long long)fit->n);
        ls_jsonw_number(&w, "rmse", fit->rmse);
        ls_jsonw_integer(&w, "starts", (long long)fit->starts);
        ls_jsonw_integer(&w, "starts_at_best", (long long)fit->starts_at_best);
        ls_jsonw_bool(&w, "converged", fit->converged);
        ls_jsonw_string(&w, "method", fit->method);
        ls_jsonw_integer(&w, "seed", (long long)fit->seed);
        ls_jsonw_array_begin(&w, "data", 0);
        for (size_t i = 0; i < fit->ndata; i++) {
            ls_jsonw_object_begin(&w, NULL);
            ls_jsonw_string(&w, "file", fit->data[i].path);
            ls_jsonw_string(&w, "sha256", fit->data[i].sha256);
            ls_jsonw_object_end(&w);
        }
        ls_jsonw_array_end(&w);
        ls_jsonw_array_begin(&w, "filters", 1);
        for (size_t i = 0; i < fit->nfilters; i++)
            ls_jsonw_string(&w, NULL, fit->filters[i]);
        ls_jsonw_array_end(&w);
        if (fit->nskipped > 0) {
            ls_jsonw_object_begin(&w, "skipped");
            ls_jsonw_integer(&w, "rows", (long long)fit->nskipped);
            ls_jsonw_array_begin(&w, "first_lines", 1);
            for (size_t i = 0; i < fit->nskipped_lines; i++)
                ls_jsonw_integer(&w, NULL, fit->skipped_lines[i]);
            ls_jsonw_array_end(&w);
            ls_jsonw_object_end(&w);
        }
        if (fit->nlast_dropped > 0) {
            ls_jsonw_object_begin(&w, "last_dropped");
            ls_jsonw_integer(&w, "runs", (long long)fit->nlast_dropped);
            ls_jsonw_string(&w, "first_run", fit->last_dropped_run);
            ls_jsonw_integer(&w, "first_line", fit->last_dropped_line);
            ls_jsonw_object_end(&w);
        }
        if (fit->flops.kind != LS_LAW_FLOPS_6ND) {
            const ls_law_flops *f = &fit->flops;
            ls_jsonw_object_begin(&w, "flops_convention");
            ls_jsonw_string(&w, "name", ls_law_flops_name(f->kind));
            if (f->context > 0)
                ls_jsonw_number(&w, "context", f->context);
            if (f->vocab > 0)
                ls_jsonw_number(&w, "vocab", f->vocab);
            if (f->d_model > 0)
                ls_jsonw_number(&w, "d_model", f->d_model);
            ls_jsonw_number(&w, "attention_share", f->attention_share);
            ls_jsonw_integer(&w, "prelude_layers", f->prelude_layers);
            ls_jsonw_integer(&w, "loop_layers", f->loop_layers);
            ls_jsonw_integer(&w, "coda_layers", f->coda_layers);
            ls_jsonw_object_end(&w);
        }
        if (fit->has_ranges) {
            static const char *const names[] = {"n_act", "tokens", "R", "E"};
            const double *values[] = {fit->n_act_range, fit->tokens_range, fit->r_range, fit->e_range};
            ls_jsonw_object_begin(&w, "ranges");
            for (int q = 0; q < 4; q++) {
                ls_jsonw_array_begin(&w, names[q], 1);
                ls_jsonw_number(&w, NULL, values[q][0]);
                ls_jsonw_number(&w, NULL, values[q][1]);
                ls_jsonw_array_end(&w);
            }
            if (fit->has_flops_range) {
                ls_jsonw_array_begin(&w, "flops", 1);
                ls_jsonw_number(&w, NULL, fit->flops_range[0]);
                ls_jsonw_number(&w, NULL, fit->flops_range[1]);
                ls_jsonw_array_end(&w);
            }
            ls_jsonw_object_end(&w);
        }
        if (fit->has_optimum) {
            ls_jsonw_object_begin(&w, "optimum");
            ls_jsonw_number(&w, "a", fit->optimum_a);
            ls_jsonw_array_begin(&w, "interval", 1);
            ls_jsonw_number(&w, NULL, fit->optimum_low);
            ls_jsonw_number(&w, NULL, fit->optimum_high);
            ls_jsonw_array_end(&w);
            ls_jsonw_number(&w, "level", fit->optimum_level);
            ls_jsonw_integer(&w, "draws", (long long)fit->optimum_draws);
            if (fit->optimum_held_from)
                ls_jsonw_string(&w, "held_from", fit->optimum_held_from);
            ls_jsonw_object_end(&w);
        }
        ls_jsonw_object_end(&w);
    }
    if (lf->has_fit) {
        ls_jsonw_array_begin(&w, "warnings", 0);
        for (size_t i = 0; i < lf->warnings.n; i++) {
            const ls_warning *x = &lf->warnings.v[i];
            ls_jsonw_object_begin(&w, NULL);
            ls_jsonw_string(&w, "code", ls_warning_code_name(x->code));
            ls_jsonw_string(&w, "subject", x->subject);
            ls_jsonw_string(&w, "message", x->message);
            ls_jsonw_object_end(&w);
        }
        ls_jsonw_array_end(&w);
    }
    if (lf->has_architecture) {
        const ls_arch_record *r = &lf->architecture;
        ls_jsonw_object_begin(&w, "architecture");
        ls_jsonw_string(&w, "source", ls_arch_source_name(r->source));
        ls_arch_template_write_json(&w, "template", &r->tmpl);
        ls_jsonw_object_begin(&w, "residual");
        ls_jsonw_number(&w, "n_total", r->residual_total);
        if (!isnan(r->residual_loop))
            ls_jsonw_number(&w, "n_loop", r->residual_loop);
        ls_jsonw_object_end(&w);
        if (r->assumed) {
            ls_jsonw_array_begin(&w, "assumed", 1);
            for (int k = 0; k < 4; k++)
                if (r->assumed >> k & 1u)
                    ls_jsonw_string(&w, NULL, ASSUMED_NAMES[k]);
            ls_jsonw_array_end(&w);
        }
        ls_jsonw_array_begin(&w, "configurations", 0);
        for (size_t i = 0; i < r->nconfigs; i++) {
            const ls_arch_config *cf = &r->configs[i];
            ls_jsonw_object_begin(&w, NULL);
            ls_jsonw_number(&w, "E", cf->E);
            ls_jsonw_number(&w, "R", cf->R);
            ls_jsonw_number(&w, "k", cf->k);
            ls_jsonw_integer(&w, "runs", (long long)cf->runs);
            ls_jsonw_array_begin(&w, "n_total_ratio", 1);
            ls_jsonw_number(&w, NULL, cf->total_ratio[0]);
            ls_jsonw_number(&w, NULL, cf->total_ratio[1]);
            ls_jsonw_array_end(&w);
            if (!isnan(cf->loop_ratio[0])) {
                ls_jsonw_array_begin(&w, "n_loop_ratio", 1);
                ls_jsonw_number(&w, NULL, cf->loop_ratio[0]);
                ls_jsonw_number(&w, NULL, cf->loop_ratio[1]);
                ls_jsonw_array_end(&w);
            }
            ls_jsonw_object_end(&w);
        }
        ls_jsonw_array_end(&w);
        ls_jsonw_object_end(&w);
    }
    if (lf->has_quant) {
        ls_jsonw_object_begin(&w, "quantisation");
        ls_jsonw_string(&w, "form", LS_LAWFILE_QUANT_FORM);
        ls_jsonw_number(&w, "C_T", lf->quant.c_t);
        ls_jsonw_number(&w, "gamma_D", lf->quant.gamma_d);
        ls_jsonw_number(&w, "gamma_N", lf->quant.gamma_n);
        ls_jsonw_number(&w, "gamma_post", lf->quant.gamma_post);
        ls_jsonw_number(&w, "trained_bits", lf->quant.trained_bits);
        if (lf->quant.bits_hi > 0) {
            ls_jsonw_array_begin(&w, "bits", 1);
            ls_jsonw_number(&w, NULL, lf->quant.bits_lo);
            ls_jsonw_number(&w, NULL, lf->quant.bits_hi);
            ls_jsonw_array_end(&w);
        }
        if (lf->quant_runs)
            ls_jsonw_integer(&w, "runs", (long long)lf->quant_runs);
        if (!isnan(lf->quant_rmse))
            ls_jsonw_number(&w, "rmse", lf->quant_rmse);
        ls_jsonw_object_end(&w);
    }
    if (lf->version || lf->command) {
        ls_jsonw_object_begin(&w, "created_by");
        if (lf->version)
            ls_jsonw_string(&w, "version", lf->version);
        if (lf->command)
            ls_jsonw_string(&w, "command", lf->command);
        ls_jsonw_object_end(&w);
    }
    ls_jsonw_object_end(&w);
    return ls_jsonw_finish(&w, err);
}

int ls_lawfile_write(const ls_lawfile *lf, const char *path, ls_error *err)
{
    char *text = ls_lawfile_to_json(lf, err);
    if (!text)
        return err->code;
    outfile *out = ls_outfile_open(path, ls_outfile_wants_gzip(path), err);
    int status = out ? ls_outfile_write(out, text, strlen(text), err) : err->code;
    if (out)
        status = status == 0 ? ls_outfile_commit(out, err) : (ls_outfile_abort(out), status);
    free(text);
    return status;
}

int ls_lawfile_save(const ls_lawfile *lf, const char *path, size_t path_len, const char *law_source,
                    const char *const *inputs, size_t ninputs, ls_error *err)
{
    if (!path)
        return ls_error_set(err, LS_ERR_USAGE, "law file: no file name");
    if (memchr(path, '\0', path_len))
        return ls_error_set(err, LS_ERR_USAGE, "'%s...': the file name holds a NUL byte", path);
    if (path_len == 0)
        return ls_error_set(err, LS_ERR_USAGE, "law file: the file name is empty");
    for (size_t i = 0; i < ninputs; i++)
        if (!inputs[i])
            return ls_error_set(err, LS_ERR_USAGE, "input %zu is NULL", i);
    /* The inputs: the caller's, then each data file the law records, as
     * given to the fit (relative to the directory the fit ran in: usually
     * the current one) and relative to the directory of the law file it was
     * read from (a law fitted beside its sweep, read from elsewhere). */
    size_t ndata = lf->has_fit ? lf->fit.ndata : 0;
    size_t n = 0;
    const char **all = calloc(ninputs + 2 * ndata + 1, sizeof *all);
    const char **roles = calloc(ninputs + 2 * ndata + 1, sizeof *roles);
    char **joined = calloc(ndata + 1, sizeof *joined);
    int status = all && roles && joined ? 0 : ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    const char *slash = law_source ? strrchr(law_source, '/') : NULL;
    for (size_t i = 0; status == 0 && i < ninputs; i++) {
        all[n] = inputs[i];
        roles[n++] = "named in inputs";
    }
    for (size_t i = 0; status == 0 && i < ndata; i++) {
        const char *data = lf->fit.data[i].path;
        all[n] = data;
        roles[n++] = "a file the law was fitted on";
        if (!slash || data[0] == '/' || strcmp(data, "-") == 0)
            continue;
        int dirlen = (int)(slash - law_source);
        size_t size = (size_t)dirlen + strlen(data) + 2;
        if (!(joined[i] = malloc(size))) {
            status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
            break;
        }
        snprintf(joined[i], size, "%.*s/%s", dirlen, law_source, data);
        all[n] = joined[i];
        roles[n++] = "a file the law was fitted on, beside the law file it was read from";
    }
    if (status == 0)
        status = guard_check_output("law file", path, all, roles, n, err);
    if (status == 0)
        status = ls_lawfile_write(lf, path, err);
    for (size_t i = 0; joined && i < ndata; i++)
        free(joined[i]);
    free(joined);
    free(all);
    free(roles);
    return status;
}

const char *ls_lawfile_not_a_fit(const ls_lawfile *lf, char *buf, size_t size)
{
    if (!lf->has_fit)
        return NULL;
    if (!lf->fit.converged)
        return "the fit it records did not converge";
    if (!lf->has_stderr) /* fit always writes them: without, nothing says the fit was determined */
        return "the fit it records has no standard errors";
    ls_law_param list[LS_LAW_NPARAMS];
    size_t np = ls_law_params_of(lf->law.kind, list), used = 0;
    char names[128] = "";
    for (size_t i = 0; i < np; i++)
        if (!lf->fixed[list[i]] && !isfinite(lf->stderr_of[list[i]]) && used + 16 < sizeof names)
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", used ? ", " : "",
                                     ls_law_param_name(list[i]));
    if (!used)
        return NULL;
    snprintf(buf, size, "the fit it records cannot tell its parameters apart (no standard error for %s)", names);
    return buf;
}

int ls_lawfile_check_fit(const ls_lawfile *lf, const char *name, int force, const char *force_flag,
                         ls_warnings *w, ls_error *err)
{
    char buf[256];
    const char *why = ls_lawfile_not_a_fit(lf, buf, sizeof buf);
    if (!why)
        return 0;
    if (!force)
        return ls_error_set(err, LS_ERR_DATA, "%s: %s, so its parameters are not a law (%s to use them anyway)", name,
                            why, force_flag);
    if (ls_warnings_add(w, LS_WARNING_LAW, name, "%s: %s; used anyway (%s)", name, why, force_flag) != 0)
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    return 0;
}

void ls_lawfile_ranges(const ls_lawfile *lf, ls_law_ranges *out)
{
    memset(out, 0, sizeof *out);
    if (!lf || !lf->has_fit || !lf->fit.has_ranges)
        return;
    const ls_lawfile_fit *fit = &lf->fit;
    const double *values[] = {fit->n_act_range, fit->tokens_range, fit->r_range, fit->e_range, fit->flops_range};
    for (int q = 0; q < LS_LAW_NRANGES; q++) {
        out->known[q] = q != LS_LAW_RANGE_FLOPS || fit->has_flops_range;
        out->lo[q] = values[q][0];
        out->hi[q] = values[q][1];
    }
    out->flops = fit->flops;
}
