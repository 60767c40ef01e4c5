/*
 * warning.c — warnings as data (loopscale/warning.h).
 */
#include "loopscale/warning.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow_internal.h"
#include "text_internal.h"

static const char *const CODE_NAMES[LS_WARNING_NCODES] = {
    [LS_WARNING_EXTRAPOLATION] = "extrapolation",
    [LS_WARNING_SEARCH_EDGE] = "search-edge",
    [LS_WARNING_UNIDENTIFIED] = "unidentified-parameter",
    [LS_WARNING_UNDETERMINED] = "undetermined-parameter",
    [LS_WARNING_AT_BOUND] = "parameter-at-bound",
    [LS_WARNING_FIT_QUALITY] = "fit-quality",
    [LS_WARNING_DATA] = "data",
    [LS_WARNING_DECISION] = "decision",
    [LS_WARNING_LAW] = "law",
    [LS_WARNING_ARCHITECTURE] = "architecture",
    [LS_WARNING_SERVING] = "serving",
    [LS_WARNING_DESIGN] = "design",
};

const char *ls_warning_code_name(ls_warning_code code)
{
    return (unsigned)code < LS_WARNING_NCODES ? CODE_NAMES[code] : NULL;
}

int ls_warning_code_parse(const char *name)
{
    for (int i = 0; name && i < LS_WARNING_NCODES; i++)
        if (strcmp(CODE_NAMES[i], name) == 0)
            return i;
    return -1;
}

static char *quoted_dup(const char *text)
{
    size_t n = ls_text_quote(NULL, 0, text);
    char *s = malloc(n + 1);
    if (s)
        ls_text_quote(s, n + 1, text);
    return s;
}

static int add_text(ls_warnings *w, ls_warning_code code, const char *subject, const char *text)
{
    for (size_t i = 0; i < w->n; i++)
        if (w->v[i].code == code && strcmp(w->v[i].subject, subject) == 0 && strcmp(w->v[i].message, text) == 0)
            return 0;
    if (ls_grow((void **)&w->v, &w->cap, w->n + 1, sizeof *w->v) != 0)
        return LS_ERR_INTERNAL;
    ls_warning *x = &w->v[w->n];
    x->code = code;
    x->subject = quoted_dup(subject ? subject : "");
    x->message = quoted_dup(text);
    if (!x->subject || !x->message) {
        free(x->subject);
        free(x->message);
        return LS_ERR_INTERNAL;
    }
    w->n++;
    return 0;
}

int ls_warnings_add(ls_warnings *w, ls_warning_code code, const char *subject, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0)
        return LS_ERR_INTERNAL;
    char *raw = malloc((size_t)n + 1);
    if (!raw)
        return LS_ERR_INTERNAL;
    va_start(ap, fmt);
    vsnprintf(raw, (size_t)n + 1, fmt, ap);
    va_end(ap);
    int status = add_text(w, code, subject, raw);
    free(raw);
    return status;
}

int ls_warnings_extend(ls_warnings *w, const ls_warnings *from)
{
    for (size_t i = 0; from && i < from->n; i++)
        if (add_text(w, from->v[i].code, from->v[i].subject, from->v[i].message) != 0)
            return LS_ERR_INTERNAL;
    return 0;
}

void ls_warnings_free(ls_warnings *w)
{
    if (!w)
        return;
    for (size_t i = 0; i < w->n; i++) {
        free(w->v[i].subject);
        free(w->v[i].message);
    }
    free(w->v);
    w->v = NULL;
    w->n = w->cap = 0;
}
