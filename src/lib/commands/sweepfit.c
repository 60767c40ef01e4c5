/*
 * sweepfit.c — reading a command's sweep and setting up its fit, for the
 * commands that fit runs (fit, holdout, report, isofit) or read them
 * (predict).
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands/commands_internal.h"
#include "grow_internal.h"
#include "loopscale/diagnose.h"
#include "numtext_internal.h"

/* ---- the sweep --------------------------------------------------------------------- */

static int push(const char ***v, size_t *n, size_t *cap, const char *s)
{
    if (ls_grow((void **)v, cap, *n + 1, sizeof **v) != 0)
        return LS_ERR_INTERNAL;
    (*v)[(*n)++] = s;
    return 0;
}

/* "--loss-unit bits" for the law file's provenance. */
static int remember(cmd_sweep *cs, const ls_request *req, opt_id id, const char *value)
{
    char *text = NULL;
    size_t n = strlen(req_flag(req, id)) + (value ? strlen(value) + 1 : 0) + 1;
    if (!(text = malloc(n)))
        return LS_ERR_INTERNAL;
    snprintf(text, n, "%s%s%s", req_flag(req, id), value ? " " : "", value ? value : "");
    if (push((const char ***)&cs->given, &cs->ngiven, &cs->given_cap, text) != 0) {
        free(text);
        return LS_ERR_INTERNAL;
    }
    return 0;
}

int cmd_sweep_setup(const ls_request *req, ls_result *res, cmd_sweep *cs, ls_error *err)
{
    memset(cs, 0, sizeof *cs);
    ls_sweep_options *o = &cs->options;
    size_t n;
    int oom = 0;
    if (req_given(req, O_PROFILE) && !(cs->profile = ls_profile_read(req_text(req, O_PROFILE), err)))
        return err->code;
    const char *const *maps = req_items(req, O_MAP, &n);
    for (size_t i = 0; i < n && !oom; i++)
        oom = push(&cs->maps, &cs->nmaps, &cs->maps_cap, maps[i]) ||
              push(&cs->map_origins, &cs->norigins_m, &cs->origins_m_cap, NULL);
    const char *const *wheres = req_items(req, O_WHERE, &n);
    for (size_t i = 0; i < n && !oom; i++)
        oom = push(&cs->wheres, &cs->nwheres, &cs->wheres_cap, wheres[i]) ||
              push(&cs->where_origins, &cs->norigins_w, &cs->origins_w_cap, NULL);
    const ls_profile *p = cs->profile;
    if (p) {
        oom = oom || remember(cs, req, O_PROFILE, req_text(req, O_PROFILE));
        for (size_t i = 0; i < p->nmaps && !oom; i++)
            oom = push(&cs->maps, &cs->nmaps, &cs->maps_cap, p->maps[i]) ||
                  push(&cs->map_origins, &cs->norigins_m, &cs->origins_m_cap, p->map_origins[i]);
        for (size_t i = 0; i < p->nwheres && !oom; i++)
            oom = push(&cs->wheres, &cs->nwheres, &cs->wheres_cap, p->wheres[i]) ||
                  push(&cs->where_origins, &cs->norigins_w, &cs->origins_w_cap, p->where_origins[i]);
    }
    /* Single values given as options win over the profile's. */
    o->skip_invalid = req_given(req, O_SKIP_INVALID) || (p && p->skip_invalid);
    o->last = req_given(req, O_LAST) || (p && p->last);
    o->run_column = req_given(req, O_RUN) ? req_text(req, O_RUN) : p ? p->run : NULL;
    o->step_column = req_given(req, O_STEP) ? req_text(req, O_STEP) : p ? p->step : NULL;
    if (p && o->run_column == p->run)
        o->run_origin = p->run_origin;
    if (p && o->step_column == p->step)
        o->step_origin = p->step_origin;
    o->loss_in_bits = req_given(req, O_LOSS_UNIT) ? strcmp(req_text(req, O_LOSS_UNIT), "bits") == 0
                                                  : p && p->loss_in_bits;
    o->bytes_per_token = req_given(req, O_BYTES_PER_TOKEN) ? req_number(req, O_BYTES_PER_TOKEN)
                         : p && p->bytes_per_token > 0     ? p->bytes_per_token
                                                           : 0;
    o->group_tol = req_given(req, O_GROUP_TOL) ? req_number(req, O_GROUP_TOL)
                   : p && p->group_tol > 0     ? p->group_tol
                                               : 0;
    /* What the law file records of the reader's options (besides maps and
     * filters), in the program's spelling. */
    static const opt_id recorded[] = {O_SKIP_INVALID, O_LOSS_UNIT, O_BYTES_PER_TOKEN, O_RUN, O_STEP, O_LAST,
                                      O_GROUP_TOL, O_TEMPLATE};
    for (size_t i = 0; i < sizeof recorded / sizeof *recorded && !oom; i++)
        if (req_given(req, recorded[i]))
            oom = remember(cs, req, recorded[i], OPTION_TABLE[recorded[i]].type == LS_OPTION_SWITCH
                                                     ? NULL
                                                     : req_text(req, recorded[i]));
    if (p && !oom) {
        if (p->run && !req_given(req, O_RUN))
            oom = remember(cs, req, O_RUN, p->run);
        if (!oom && p->step && !req_given(req, O_STEP))
            oom = remember(cs, req, O_STEP, p->step);
        if (!oom && p->last && !req_given(req, O_LAST))
            oom = remember(cs, req, O_LAST, NULL);
        if (!oom && p->skip_invalid && !req_given(req, O_SKIP_INVALID))
            oom = remember(cs, req, O_SKIP_INVALID, NULL);
    }
    if (oom) {
        cmd_sweep_free(cs);
        return res_oom(err);
    }
    /* What configuration columns leave out: --template's model, else the
     * profile's. */
    if (req_given(req, O_TEMPLATE)) {
        if (cmd_template_read(req, &cs->tmpl, err) != 0) {
            cmd_sweep_free(cs);
            return err->code;
        }
        if (cs->tmpl.has_shape)
            cs->config_template = &cs->tmpl;
    } else if (p && p->tmpl)
        cs->config_template = p->tmpl;
    o->config_base = cs->config_template ? &cs->config_template->shape : NULL;
    o->maps = cs->maps;
    o->nmaps = cs->nmaps;
    o->map_origins = cs->map_origins;
    o->wheres = cs->wheres;
    o->nwheres = cs->nwheres;
    o->where_origins = cs->where_origins;
    o->warnings = &cs->warnings;
    o->max_rows = cmd_max_rows(res);
    return 0;
}

void cmd_sweep_free(cmd_sweep *cs)
{
    free(cs->maps);
    free(cs->wheres);
    free(cs->map_origins);
    free(cs->where_origins);
    for (size_t i = 0; i < cs->ngiven; i++)
        free((void *)(uintptr_t)cs->given[i]);
    free(cs->given);
    ls_profile_free(cs->profile);
    ls_warnings_free(&cs->warnings);
    memset(cs, 0, sizeof *cs);
}

size_t cmd_max_rows(ls_result *res)
{
    /* Commands that hold every run in memory take at most this many (about
     * 320 bytes a run at one thread, docs/performance.md). */
    const char *text = getenv("LOOPSCALE_MAX_ROWS");
    long value = 0;
    if (!text || !*text)
        return CMD_MAX_ROWS_DEFAULT;
    if (ls_numtext_parse_long(text, strlen(text), &value) != NUMTEXT_OK || value < 0) {
        res_warn(res, LS_WARNING_DATA, "LOOPSCALE_MAX_ROWS", "LOOPSCALE_MAX_ROWS='%s' is not a count of rows; using "
                 "%zu", text, (size_t)CMD_MAX_ROWS_DEFAULT);
        return CMD_MAX_ROWS_DEFAULT;
    }
    return (size_t)value; /* 0: no limit */
}

void cmd_column_warnings(ls_result *res, ls_warnings *columns)
{
    /* The columns a law does not read are named once, in one note (each is
     * harmless, and a sweep holds several); what the reader warns of besides
     * (a slip in a column's name, a placeholder column) stays a warning. */
    strbuf unread = {0};
    for (size_t i = 0; i < columns->n; i++) {
        const ls_warning *w = &columns->v[i];
        if (strstr(w->message, "' is not read by the law "))
            strbuf_printf(&unread, "%s%s", unread.len ? ", " : "", w->subject);
        else if (strstr(w->message, LS_SWEEP_NON_EMBEDDING_NOTE)) /* which column n_act is, said once */
            res_note(res, "%s", w->message);
        else
            res_warn(res, w->code, w->subject, "%s", w->message);
    }
    if (unread.len)
        res_note(res, "%s the law does not read: %s", strchr(unread.buf, ',') ? "columns" : "a column", unread.buf);
    strbuf_free(&unread);
    ls_warnings_free(columns);
}

void cmd_sweep_report(const ls_request *req, ls_result *res, cmd_sweep *cs, const ls_sweep *s)
{
    cmd_column_warnings(res, &cs->warnings);
    if (!s)
        return;
    char text[2 * LS_ERROR_MESSAGE_MAX];
    if (s->counted_from) {
        const ls_arch_template *t = cs->config_template;
        char rest[256] = "";
        if (t)
            snprintf(rest, sizeof rest, "; the rest from %s%s%s%s", req_given(req, O_TEMPLATE) ? "the template " : "",
                     req_given(req, O_TEMPLATE) ? req_text(req, O_TEMPLATE) : "the profile's template",
                     t->name[0] ? ", " : "", t->name);
        if (s->counted_from[0])
            res_note(res, "%s: n_act, n_total and n_loop counted as loopscale shape counts them, from the "
                     "configuration columns %s%s", s->name, s->counted_from, rest);
        else
            res_note(res, "%s: no column gives n_act or the configuration: every run counted as %s describes it, "
                     "with its own E, k and R", s->name, req_given(req, O_TEMPLATE) ? req_text(req, O_TEMPLATE)
                                                                                : "the profile's template");
    }
    ls_sweep_skips_describe(&s->skipped, text, sizeof text);
    if (text[0])
        res_warn(res, LS_WARNING_DATA, s->name, "%s: %s", s->name, text);
    ls_sweep_last_dropped_describe(s, text, sizeof text);
    if (text[0])
        res_warn(res, LS_WARNING_DATA, s->name, "%s: %s", s->name, text);
    int last = cs->options.last;
    if (last && s->earlier_steps_dropped > 0)
        res_note(res, "%s: kept the last step of each run ('%s'): %zu earlier checkpoints left out", s->name,
                 s->run_column ? s->run_column : "?", s->earlier_steps_dropped);
    else if (!last && s->runs_with_several_rows > 0)
        res_warn(res, LS_WARNING_DATA, s->run_column ? s->run_column : "",
                 "%s: %zu %s ('%s') %s several rows each (%zu rows): each row is fitted as a run; %s keeps each run's "
                 "last checkpoint, %s can pick a step", s->name, s->runs_with_several_rows,
                 ls_plural((double)s->runs_with_several_rows, "run", "runs"), s->run_column ? s->run_column : "?",
                 ls_plural((double)s->runs_with_several_rows, "has", "have"), s->rows_of_those_runs,
                 req_flag(req, O_LAST), req_flag(req, O_WHERE));
}

int cmd_sweep_flops(const ls_request *req, ls_arch_template *t, ls_law_flops *out, ls_error *err)
{
    if (cmd_template_read(req, t, err) != 0 || cmd_template_flops(req, NULL, t, err) != 0)
        return err->code;
    ls_arch_flops(t, out);
    return 0;
}

/* ---- the fit ---------------------------------------------------------------------- */

/* Whether any of the laws uses parameter j. */
static int any_law_uses(const ls_law_kind *kinds, size_t nkinds, ls_law_param j)
{
    for (size_t i = 0; i < nkinds; i++)
        if (ls_law_uses_param(kinds[i], j))
            return 1;
    return 0;
}

static int not_a_parameter(const ls_request *req, opt_id id, const char *text, const char *name,
                           const ls_law_kind *kinds, size_t nkinds, ls_error *err)
{
    char kind_text[64];
    if (nkinds == 1)
        return ls_error_set(err, LS_ERR_USAGE, "%s '%s': %s is not a parameter of %s", req_flag(req, id), text, name,
                            ls_law_kind_format(kinds[0], kind_text, sizeof kind_text));
    return ls_error_set(err, LS_ERR_USAGE, "%s '%s': %s is not a parameter of any law given", req_flag(req, id), text,
                        name);
}

void cmd_held_from_free(cmd_held_from *h)
{
    ls_lawfile_free(h->lf);
    memset(h, 0, sizeof *h);
}

/* --fix-from FILE: hold each parameter of FILE's law that `kind` uses at its
 * value there (a two-stage fit); the law is kept in *out when out is set. */
static int fix_from_law(const ls_request *req, ls_law_kind kind, ls_fit_parameters *p,
                        const char *given[LS_LAW_NPARAMS], cmd_held_from *out, ls_error *err)
{
    const char *path = req_text(req, O_FIX_FROM);
    ls_lawfile *lf = ls_lawfile_read(path, err);
    if (!lf)
        return err->code;
    cmd_held_from h = {lf, path, {0}};
    ls_law_param list[LS_LAW_NPARAMS];
    size_t np = ls_law_params_of(lf->law.kind, list), held = 0;
    for (size_t i = 0; i < np; i++) {
        ls_law_param j = list[i];
        if (!ls_law_uses_param(kind, j) || (j == LS_LAW_P_E_START && !lf->fixed[j]))
            continue;
        p->fixed[j] = 1;
        p->fixed_value[j] = lf->law.p[j];
        given[j] = req_flag(req, O_FIX_FROM);
        h.held[j] = 1;
        held++;
    }
    if (out && held)
        *out = h;
    else
        cmd_held_from_free(&h);
    if (held == 0) {
        char kind_text[64];
        return ls_error_set(err, LS_ERR_USAGE, "%s %s: its law shares no parameter with %s", req_flag(req, O_FIX_FROM),
                            path, ls_law_kind_format(kind, kind_text, sizeof kind_text));
    }
    return 0;
}

static int parse_fix(const ls_request *req, const char *text, const ls_law_kind *kinds, size_t nkinds,
                     ls_fit_parameters *p, const char *given[LS_LAW_NPARAMS], ls_error *err)
{
    const char *flag = req_flag(req, O_FIX);
    const char *eq = strchr(text, '=');
    char name[32];
    if (!eq || (size_t)(eq - text) >= sizeof name)
        return ls_error_set(err, LS_ERR_USAGE, "%s '%s': expected NAME=VALUE", flag, text);
    if (eq == text)
        return ls_error_set(err, LS_ERR_USAGE, "%s '%s': no parameter name before '=' (expected NAME=VALUE, e.g. "
                            "alpha=0.34)", flag, text);
    memcpy(name, text, (size_t)(eq - text));
    name[eq - text] = '\0';
    int j = ls_law_param_from_name(name);
    if (j < 0 || !any_law_uses(kinds, nkinds, (ls_law_param)j))
        return not_a_parameter(req, O_FIX, text, name, kinds, nkinds, err);
    if (given[j])
        return ls_error_set(err, LS_ERR_USAGE, "%s %s given twice ('%s', then '%s'): a parameter takes one value", flag,
                            name, given[j], text);
    given[j] = text;
    /* Read under the whole option's name, so the message says which
     * parameter the value was for. */
    char option[64];
    snprintf(option, sizeof option, "%s %s", flag, name);
    ls_option number = {.type = LS_OPTION_NUMBER, .min = NAN, .max = NAN};
    req_value v = {0};
    if (opt_parse(&number, option, eq + 1, strlen(eq + 1), &v, err) != 0)
        return err->code;
    ls_error why;
    if (ls_law_param_check((ls_law_param)j, v.number, &why) != 0)
        return ls_error_set(err, LS_ERR_USAGE, "%s '%s': %s", flag, text, why.message);
    p->fixed[j] = 1;
    p->fixed_value[j] = v.number;
    return 0;
}

static int parse_tie(const ls_request *req, const char *text, const ls_law_kind *kinds, size_t nkinds,
                     ls_fit_parameters *p, ls_error *err)
{
    const char *flag = req_flag(req, O_TIE);
    const char *eq = strchr(text, '=');
    char name[32];
    if (!eq || (size_t)(eq - text) >= sizeof name || eq == text || eq[1] == '\0')
        return ls_error_set(err, LS_ERR_USAGE, "%s '%s': expected NAME=LEADER, two parameter names (e.g. beta=alpha)",
                            flag, text);
    memcpy(name, text, (size_t)(eq - text));
    name[eq - text] = '\0';
    int j = ls_law_param_from_name(name), i = ls_law_param_from_name(eq + 1);
    if (j < 0 || !any_law_uses(kinds, nkinds, (ls_law_param)j))
        return not_a_parameter(req, O_TIE, text, name, kinds, nkinds, err);
    if (i < 0 || !any_law_uses(kinds, nkinds, (ls_law_param)i))
        return not_a_parameter(req, O_TIE, text, eq + 1, kinds, nkinds, err);
    if (p->tied[j])
        return ls_error_set(err, LS_ERR_USAGE, "%s '%s': %s is already tied to %s", flag, text, name,
                            ls_law_param_name((ls_law_param)(p->tied[j] - 1)));
    ls_error why;
    for (size_t k = 0; k < nkinds; k++)
        if (ls_law_uses_param(kinds[k], (ls_law_param)j) && ls_law_uses_param(kinds[k], (ls_law_param)i) &&
            ls_fit_check_tie(kinds[k], p, (ls_law_param)j, (ls_law_param)i, &why) != 0)
            return ls_error_set(err, LS_ERR_USAGE, "%s '%s': %s", flag, text, why.message);
    p->tied[j] = (unsigned char)(i + 1);
    return 0;
}

static void fit_progress(void *context, size_t done, size_t total)
{
    const cmd_fit_progress *fp = context;
    res_progress(fp->res, fp->what, done, total);
}

int cmd_fit_parameters(const ls_request *req, ls_result *res, const ls_law_kind *kinds, size_t nkinds,
                       ls_fit_parameters *p, cmd_fit_progress *progress, cmd_held_from *held, ls_error *err)
{
    ls_fit_default_parameters(p);
    const cmd_def *def = req->def;
    if (cmd_option_of(def, O_LOSS))
        p->loss = strcmp(req_text(req, O_LOSS), "mse") == 0 ? LS_FIT_LOSS_MSE : LS_FIT_LOSS_HUBER;
    if (req_given(req, O_HUBER_DELTA))
        p->huber_delta = req_number(req, O_HUBER_DELTA);
    if (cmd_option_of(def, O_SPACE))
        p->space = strcmp(req_text(req, O_SPACE), "linear") == 0 ? LS_FIT_SPACE_LINEAR : LS_FIT_SPACE_LOG;
    p->grid_chinchilla = req_given(req, O_GRID);
    if (req_given(req, O_STARTS))
        p->starts = (size_t)req_integer(req, O_STARTS);
    if (cmd_option_of(def, O_SEED))
        p->seed = (unsigned long)req_number(req, O_SEED);
    if (req_given(req, O_THREADS))
        p->threads = (int)req_integer(req, O_THREADS);
    if (req_given(req, O_SCALE)) {
        const char *s = req_text(req, O_SCALE);
        p->scale = strcmp(s, "more") == 0        ? LS_FIT_SCALE_MORE
                   : strcmp(s, "marquardt") == 0 ? LS_FIT_SCALE_MARQUARDT
                                                 : LS_FIT_SCALE_LEVENBERG;
    }
    if (req_given(req, O_MAX_ITERATIONS))
        p->max_iterations = (size_t)req_integer(req, O_MAX_ITERATIONS);
    const char *given[LS_LAW_NPARAMS] = {NULL};
    if (req_given(req, O_FIX_FROM) && fix_from_law(req, kinds[0], p, given, held, err) != 0)
        return err->code;
    size_t n;
    const char *const *fixes = req_items(req, O_FIX, &n);
    for (size_t i = 0; i < n; i++)
        if (parse_fix(req, fixes[i], kinds, nkinds, p, given, err) != 0)
            return err->code;
    const char *const *ties = req_items(req, O_TIE, &n);
    for (size_t i = 0; i < n; i++)
        if (parse_tie(req, ties[i], kinds, nkinds, p, err) != 0)
            return err->code;
    if (progress && res->req->progress) {
        progress->res = res;
        progress->what = "starts";
        p->progress = fit_progress;
        p->progress_context = progress;
    }
    return 0;
}

void cmd_not_written(char *buf, size_t size, const char *what, const char *path)
{
    struct stat st;
    if (path && strcmp(path, "-") != 0 && stat(path, &st) == 0)
        snprintf(buf, size, "%s (%s keeps its old content)", what, path);
    else
        snprintf(buf, size, "%s", what);
}

int cmd_fit_usable(const ls_request *req, ls_result *res, const ls_sweep *s, ls_law_kind kind,
                   const ls_fit_parameters *p, const ls_fit_result *r, const char *not_written, ls_error *err)
{
    if (r->n <= r->nfree)
        return ls_error_set(err, LS_ERR_DATA, "%s: %zu %s for %zu free %s %s no residual to judge the fit by or to "
                            "estimate its errors (add runs, or %s some)", s->name, r->n,
                            ls_plural((double)r->n, "run", "runs"), r->nfree,
                            ls_plural((double)r->nfree, "parameter", "parameters"),
                            ls_plural((double)r->n, "leaves", "leave"), req_flag(req, O_FIX));
    /* Runs enough in number that still cannot determine the law (all one
     * loss, one size, a loss flat along an axis) give an arbitrary law with
     * finite errors: refused with the reason, as an undetermined fit. */
    if (ls_fit_data_check(s, kind, p, err) != 0) {
        int code = err->code;
        ls_error_set(err, code, "%s; %s", err->message, not_written);
        return code;
    }
    /* One warning per reason: "delta, gamma are held at 0, 0: no run has E > 1". */
    char *lines = ls_fit_unidentified_warnings(r);
    for (char *line = lines, *end; line && (end = strchr(line, '\n')); line = end + 1) {
        *end = '\0';
        res_warn(res, LS_WARNING_UNIDENTIFIED, "", "%s", line);
    }
    free(lines);
    return 0;
}

int cmd_fit_in_domain(const ls_fit_result *r, ls_error *err)
{
    ls_error scratch;
    return ls_law_check_params(&r->law, NULL, err ? err : &scratch) == 0;
}

int cmd_fit_verdict(const ls_request *req, const ls_sweep *s, const ls_fit_result *r, int determined,
                    const char *not_converged, const char *undetermined, ls_error *err)
{
    if (!r->converged)
        return ls_error_set(err, LS_ERR_NOCONV, "the best of %zu starts did not converge (after %zu iteration%s); %s",
                            r->starts, r->iterations, r->iterations == 1 ? "" : "s", not_converged);
    if (!determined) {
        char reason[96];
        ls_fit_undetermined_reason(s, reason, sizeof reason);
        return ls_error_set(err, LS_ERR_NOCONV, "the sweep cannot tell the parameters apart%s: the Jacobian at the "
                            "best fit is singular, so its values are one of many equally good fits (%s some, or add "
                            "runs); %s", reason, req_flag(req, O_FIX), undetermined);
    }
    ls_error why;
    if (!cmd_fit_in_domain(r, &why))
        return ls_error_set(err, LS_ERR_NOCONV, "the best fit is not a law of this form: %s; %s", why.message,
                            undetermined);
    return 0;
}
