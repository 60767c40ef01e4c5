/*
 * request.c — a command's options by name, each checked against the option
 * table as it is set (loopscale/command.h).
 */
#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command_internal.h"
#include "grow_internal.h"

/* How a message names option id for this request's front end. */
const char *req_flag(const ls_request *r, opt_id id)
{
    static const char *const none = "?";
    if ((unsigned)id >= O_NOPTIONS)
        return none;
    return r->flags[id];
}

void req_respell(const ls_request *r, char *text)
{
    /* A module below the command layer names options as the program does
     * ("--group-tol"); another front end reads its own spelling. */
    if (r->front_end == LS_FRONT_END_CLI)
        return;
    char *out = text;
    for (const char *p = text; *p;) {
        if (p[0] == '-' && p[1] == '-' && (p == text || !(isalnum((unsigned char)p[-1]) || p[-1] == '-'))) {
            size_t len = strspn(p + 2, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-");
            int id = -1;
            for (int i = 0; i < O_NOPTIONS && len; i++)
                if (strlen(OPTION_TABLE[i].name) == len && strncmp(OPTION_TABLE[i].name, p + 2, len) == 0)
                    id = i;
            if (id >= 0) {
                size_t n = strlen(r->flags[id]); /* never longer than "--" NAME */
                memmove(out, r->flags[id], n);
                out += n;
                p += 2 + len;
                continue;
            }
        }
        *out++ = *p++;
    }
    *out = '\0';
}

static void value_free(req_value *v)
{
    free(v->text);
    for (size_t i = 0; i < v->nitems; i++)
        free(v->items[i]);
    free(v->items);
    free(v->list);
    free(v->laws);
    memset(v, 0, sizeof *v);
}

const char *opt_default(const cmd_def *def, opt_id id)
{
    const cmd_option *c = cmd_option_of(def, id);
    if (c && c->default_text)
        return c->default_text;
    return OPTION_TABLE[id].default_text;
}

void ls_request_free(ls_request *r)
{
    if (!r)
        return;
    for (int i = 0; i < O_NOPTIONS; i++)
        value_free(&r->v[i]);
    for (size_t i = 0; i < r->noperands; i++)
        free(r->operands[i]);
    free(r->operands);
    free(r->invocation);
    free(r);
}

ls_request *ls_request_new(const char *command, ls_front_end front_end, ls_error *err)
{
    const cmd_def *def = command ? cmd_find(command) : NULL;
    if (!def) {
        ls_error_set(err, LS_ERR_USAGE, "unknown command '%s'", command ? command : "(null)");
        return NULL;
    }
    ls_request *r = calloc(1, sizeof *r);
    if (!r) {
        res_oom(err);
        return NULL;
    }
    r->def = def;
    r->front_end = front_end;
    r->stdout_fd = r->stderr_fd = -1;
    for (int i = 0; i < O_NOPTIONS; i++) {
        const char *name = OPTION_TABLE[i].name;
        if (front_end == LS_FRONT_END_CLI)
            snprintf(r->flags[i], sizeof r->flags[i], "--%s", name);
        else {
            snprintf(r->flags[i], sizeof r->flags[i], "%s", name);
            for (char *c = r->flags[i]; *c; c++)
                *c = *c == '-' ? '_' : *c;
        }
    }
    /* The defaults are parsed like given values, once, so that a getter
     * reads the same thing whether the option was given or not. */
    for (const cmd_option *c = def->options; c->id != O_NOPTIONS; c++) {
        const char *text = opt_default(def, c->id);
        if (!text || OPTION_TABLE[c->id].type == LS_OPTION_SWITCH)
            continue;
        req_value *v = &r->v[c->id];
        if (opt_parse(&OPTION_TABLE[c->id], r->flags[c->id], text, strlen(text), v, err) != 0 ||
            !(v->text = strdup(text))) {
            ls_error_prefix(err, "internal error: the default of %s", r->flags[c->id]);
            err->code = LS_ERR_INTERNAL;
            ls_request_free(r);
            return NULL;
        }
    }
    return r;
}

/* The option of r's command called `name` (dashes or underscores). */
static const cmd_option *find_option(const ls_request *r, const char *name)
{
    for (const cmd_option *c = r->def->options; c->id != O_NOPTIONS; c++) {
        const char *n = OPTION_TABLE[c->id].name;
        size_t i = 0;
        for (; n[i] && name[i]; i++)
            if (n[i] != name[i] && !(n[i] == '-' && name[i] == '_'))
                break;
        if (!n[i] && !name[i])
            return c;
    }
    return NULL;
}

int ls_request_set_n(ls_request *r, const char *option, const char *value, size_t len, ls_error *err)
{
    const cmd_option *c = option ? find_option(r, option) : NULL;
    if (!c)
        return ls_error_set(err, LS_ERR_USAGE, "unknown option '%s%s'", r->front_end == LS_FRONT_END_CLI ? "--" : "",
                            option ? option : "(null)");
    ls_option o_format;
    const ls_option *o = &OPTION_TABLE[c->id];
    if (c->id == O_FORMAT) { /* the formats this command prints */
        o_format = *o;
        o_format.choices = r->def->formats;
        o = &o_format;
    }
    const char *flag = r->flags[c->id];
    req_value *v = &r->v[c->id];
    if (o->type == LS_OPTION_SWITCH) {
        /* A switch takes no value; a keyword argument may say true/false. */
        if (value && !(len == 4 && strncmp(value, "true", 4) == 0) && !(len == 5 && strncmp(value, "false", 5) == 0))
            return ls_error_set(err, LS_ERR_USAGE, "%s takes no value ('%.*s' given)", flag, (int)len, value);
        if (value && len == 5) {
            v->given = 0;
            return 0;
        }
        v->given++;
        return 0;
    }
    if (!value)
        return ls_error_set(err, LS_ERR_USAGE, "option '%s' needs a value", flag);
    if (memchr(value, '\0', len))
        return ls_error_set(err, LS_ERR_USAGE, "%s: the value holds a NUL byte ('%s...')", flag, value);
    if (v->given && !(o->flags & LS_OPTION_REPEATABLE)) {
        char name[48];
        if (r->front_end == LS_FRONT_END_CLI && o->short_name)
            snprintf(name, sizeof name, "%s (-%c)", flag, o->short_name);
        else
            snprintf(name, sizeof name, "%s", flag);
        return ls_error_set(err, LS_ERR_USAGE, "%s given twice ('%s', then '%.*s'): it takes one value", name,
                            v->text, (int)len, value);
    }
    if ((o->type == LS_OPTION_INPUT || o->type == LS_OPTION_OUTPUT) && len == 0)
        return ls_error_set(err, LS_ERR_USAGE, "%s: the file name is empty", flag);
    req_value parsed = *v;
    parsed.list = NULL;
    parsed.laws = NULL;
    if (opt_parse(o, flag, value, len, &parsed, err) != 0) {
        free(parsed.list);
        free(parsed.laws);
        return err->code;
    }
    char *copy = strndup(value, len);
    if (!copy) {
        free(parsed.list);
        free(parsed.laws);
        return res_oom(err);
    }
    if (o->flags & LS_OPTION_REPEATABLE) {
        if (ls_grow((void **)&v->items, &v->cap, v->nitems + 1, sizeof *v->items) != 0) {
            free(copy);
            return res_oom(err);
        }
        v->items[v->nitems++] = copy;
        v->given++;
        return 0;
    }
    /* The value replaces the default's. */
    if (parsed.list != NULL) {
        free(v->list);
        v->list = parsed.list;
        v->n = parsed.n;
    }
    if (parsed.laws != NULL) {
        free(v->laws);
        v->laws = parsed.laws;
        v->n = parsed.n;
    }
    if (o->type == LS_OPTION_AXES) {
        memcpy(v->axes, parsed.axes, sizeof v->axes);
        v->n = parsed.n;
    }
    v->number = parsed.number;
    v->number2 = parsed.number2;
    free(v->text);
    v->text = copy;
    v->given++;
    return 0;
}

int ls_request_set(ls_request *r, const char *option, const char *value, ls_error *err)
{
    return ls_request_set_n(r, option, value, value ? strlen(value) : 0, err);
}

int ls_request_add_operand(ls_request *r, const char *value, size_t len, ls_error *err)
{
    if (!value)
        return ls_error_set(err, LS_ERR_USAGE, "an operand is NULL");
    if (memchr(value, '\0', len))
        return ls_error_set(err, LS_ERR_USAGE, "'%s...': the file name holds a NUL byte", value);
    if (len == 0) {
        char label[32];
        cmd_operand_label(r->def, r->noperands, r->noperands + 1, label, sizeof label);
        return ls_error_set(err, LS_ERR_USAGE, "%s: the file name is empty", label);
    }
    if (ls_grow((void **)&r->operands, &r->cap, r->noperands + 1, sizeof *r->operands) != 0)
        return res_oom(err);
    if (!(r->operands[r->noperands] = strndup(value, len)))
        return res_oom(err);
    r->noperands++;
    return 0;
}

int ls_request_set_invocation(ls_request *r, const char *text, ls_error *err)
{
    char *copy = strdup(text ? text : "");
    if (!copy)
        return res_oom(err);
    free(r->invocation);
    r->invocation = copy;
    return 0;
}

void ls_request_set_progress(ls_request *r, ls_progress_fn fn, void *context)
{
    r->progress = fn;
    r->progress_context = context;
}

void ls_request_set_streams(ls_request *r, int stdout_fd, int stderr_fd)
{
    r->stdout_fd = stdout_fd;
    r->stderr_fd = stderr_fd;
}

void ls_request_set_writer(ls_request *r, ls_write_fn fn, void *context)
{
    r->writer = fn;
    r->writer_context = context;
}

/* ---- reading values ------------------------------------------------------------- */

int req_given(const ls_request *r, opt_id id)
{
    return r->v[id].given > 0;
}

double req_number(const ls_request *r, opt_id id)
{
    const req_value *v = &r->v[id];
    return v->text ? v->number : NAN;
}

long req_integer(const ls_request *r, opt_id id)
{
    const req_value *v = &r->v[id];
    return v->text ? (long)v->number : 0;
}

const char *req_text(const ls_request *r, opt_id id)
{
    return r->v[id].text;
}

const double *req_list(const ls_request *r, opt_id id, size_t *n)
{
    *n = r->v[id].list ? r->v[id].n : 0;
    return r->v[id].list;
}

const char *const *req_items(const ls_request *r, opt_id id, size_t *n)
{
    *n = r->v[id].nitems;
    return (const char *const *)r->v[id].items;
}

ls_law_kind req_law(const ls_request *r, opt_id id)
{
    ls_law_kind none = {LS_LAW_BASE_DENSE, LS_LAW_MAPPING_NONE};
    return r->v[id].laws ? r->v[id].laws[0] : none;
}

const ls_law_kind *req_laws(const ls_request *r, opt_id id, size_t *n)
{
    *n = r->v[id].laws ? r->v[id].n : 0;
    return r->v[id].laws;
}

size_t req_axes(const ls_request *r, opt_id id, ls_holdout_axis axes[4])
{
    memcpy(axes, r->v[id].axes, sizeof r->v[id].axes);
    return r->v[id].n;
}

fmt_kind req_format(const ls_request *r)
{
    static const char *const names[FMT_NFORMATS] = {"table", "csv", "tsv", "json", "md", "html"};
    const char *text = r->v[O_FORMAT].text ? r->v[O_FORMAT].text : cmd_default_format(r->def);
    for (int f = 0; text && f < FMT_NFORMATS; f++)
        if (strcmp(text, names[f]) == 0)
            return (fmt_kind)f;
    return FMT_TABLE;
}

int req_usage(const ls_request *r, ls_error *err, const char *fmt, ...)
{
    (void)r;
    char text[LS_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(text, sizeof text, fmt, ap);
    va_end(ap);
    return ls_error_set(err, LS_ERR_USAGE, "%s", text);
}

int req_threads(const ls_request *r)
{
    if (req_given(r, O_THREADS))
        return (int)req_integer(r, O_THREADS);
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    return cores > 0 ? (int)(cores < 256 ? cores : 256) : 1;
}
