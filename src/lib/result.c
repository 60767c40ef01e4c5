/*
 * result.c — what a command returns: its standard output, JSON document,
 * notes, warnings and the files it will write (loopscale/command.h).
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command_internal.h"
#include "grow_internal.h"
#include "outfile_internal.h"
#include "text_internal.h"

int res_oom(ls_error *err)
{
    return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
}

static int remember_order(ls_result *res, long entry)
{
    if (ls_grow((void **)&res->order, &res->order_cap, res->norder + 1, sizeof *res->order) != 0) {
        res->failed_memory = 1;
        return LS_ERR_INTERNAL;
    }
    res->order[res->norder++] = entry;
    return 0;
}

int res_note(ls_result *res, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    strbuf b = {0};
    strbuf_vprintf(&b, fmt, ap);
    va_end(ap);
    char *raw = strbuf_take(&b);
    if (raw)
        req_respell(res->req, raw);
    char *line = raw ? malloc(ls_text_quote(NULL, 0, raw) + 1) : NULL;
    if (line)
        ls_text_quote(line, ls_text_quote(NULL, 0, raw) + 1, raw);
    free(raw);
    if (!line || ls_grow((void **)&res->notes, &res->notes_cap, res->nnotes + 1, sizeof *res->notes) != 0) {
        free(line);
        res->failed_memory = 1;
        return LS_ERR_INTERNAL;
    }
    res->notes[res->nnotes++] = line;
    return remember_order(res, -(long)res->nnotes);
}

int res_warn(ls_result *res, ls_warning_code code, const char *subject, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    strbuf b = {0};
    strbuf_vprintf(&b, fmt, ap);
    va_end(ap);
    char *text = strbuf_take(&b);
    if (text)
        req_respell(res->req, text);
    size_t before = res->warnings.n;
    int status = text ? ls_warnings_add(&res->warnings, code, subject, "%s", text) : LS_ERR_INTERNAL;
    free(text);
    if (status != 0)
        res->failed_memory = 1;
    else if (res->warnings.n > before) /* not the same warning again */
        status = remember_order(res, (long)res->warnings.n);
    return status;
}

int res_write(ls_result *res, const char *data, size_t len)
{
    const ls_request *r = res->req;
    if (r->writer)
        return r->writer(r->writer_context, data, len);
    strbuf_append(&res->text, data, len);
    return strbuf_failed(&res->text) ? LS_ERR_INTERNAL : 0;
}

int res_printf(ls_result *res, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    strbuf b = {0};
    strbuf_vprintf(&b, fmt, ap);
    va_end(ap);
    int status = strbuf_failed(&b) ? LS_ERR_INTERNAL : res_write(res, b.buf ? b.buf : "", b.len);
    strbuf_free(&b);
    return status;
}

void res_set_json(ls_result *res, char *text)
{
    free(res->json);
    res->json = text;
}

int res_output(ls_result *res, opt_id option, const char *path, unsigned char *data, size_t len, ls_error *err)
{
    if (ls_grow((void **)&res->outputs, &res->outputs_cap, res->noutputs + 1, sizeof *res->outputs) != 0) {
        free(data);
        return res_oom(err);
    }
    pending_output *o = &res->outputs[res->noutputs];
    o->option = strdup(req_flag(res->req, option));
    o->path = strdup(path);
    o->data = data;
    o->len = len;
    if (!o->option || !o->path) {
        free(o->option);
        free(o->path);
        free(data);
        return res_oom(err);
    }
    res->noutputs++;
    return 0;
}

void res_progress(const ls_result *res, const char *what, size_t done, size_t total)
{
    if (res->req->progress)
        res->req->progress(res->req->progress_context, what, done, total);
}

/* ---- the public side ------------------------------------------------------------ */

const char *ls_result_text(const ls_result *res)
{
    return res->text.buf ? res->text.buf : "";
}

const char *ls_result_json(const ls_result *res)
{
    return res->json;
}

size_t ls_result_warning_count(const ls_result *res)
{
    return res->warnings.n;
}

const ls_warning *ls_result_warning(const ls_result *res, size_t i)
{
    return i < res->warnings.n ? &res->warnings.v[i] : NULL;
}

size_t ls_result_note_count(const ls_result *res)
{
    return res->nnotes;
}

const char *ls_result_note(const ls_result *res, size_t i)
{
    return i < res->nnotes ? res->notes[i] : NULL;
}

size_t ls_result_message_count(const ls_result *res)
{
    return res->norder;
}

void ls_result_message(const ls_result *res, size_t i, const char **note, const ls_warning **warning)
{
    *note = NULL;
    *warning = NULL;
    if (i >= res->norder)
        return;
    long k = res->order[i];
    if (k > 0)
        *warning = &res->warnings.v[k - 1];
    else
        *note = res->notes[-k - 1];
}

int ls_result_stderr_blocked(const ls_result *res)
{
    return res->stderr_blocked;
}

size_t ls_result_output_count(const ls_result *res)
{
    return res->noutputs;
}

const char *ls_result_output_path(const ls_result *res, size_t i)
{
    return i < res->noutputs ? res->outputs[i].path : NULL;
}

int ls_result_commit(ls_result *res, ls_error *err)
{
    return guard_commit(res->outputs, res->noutputs, err);
}

void ls_result_free(ls_result *res)
{
    if (!res)
        return;
    strbuf_free(&res->text);
    free(res->json);
    ls_warnings_free(&res->warnings);
    for (size_t i = 0; i < res->nnotes; i++)
        free(res->notes[i]);
    free(res->notes);
    free(res->order);
    for (size_t i = 0; i < res->noutputs; i++) {
        free(res->outputs[i].option);
        free(res->outputs[i].path);
        free(res->outputs[i].data);
    }
    free(res->outputs);
    free(res);
}
