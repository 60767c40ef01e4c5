/*
 * jsonw_internal.h — a small JSON writer for law files and --format json.
 *
 * Builds the text in a growable buffer.  Objects are written one member per
 * line with two-space indentation; arrays opened as `inline` stay on one line
 * (a bootstrap draw, an interval).  Numbers use ls_numtext_format_double, so
 * they read back bit for bit; a non-finite number marks the writer failed,
 * because JSON cannot carry it and a silent null would lie.  Errors (that and
 * running out of memory) are sticky and reported once by ls_jsonw_finish().
 *
 * Thread safety: a jsonw belongs to one thread at a time; the functions
 * keep no state of their own.
 */
#ifndef LOOPSCALE_JSONW_INTERNAL_H
#define LOOPSCALE_JSONW_INTERNAL_H

#include <stddef.h>

#include "loopscale/error.h"


#define JSONW_MAX_DEPTH 32

typedef struct jsonw {
    char *buf;
    size_t len, cap;
    int depth;
    int count[JSONW_MAX_DEPTH];      /* members written at each depth */
    int is_inline[JSONW_MAX_DEPTH];
    int failed;                      /* 0, or an LS_ERR_* code */
    char failure[128];
} jsonw;

void ls_jsonw_init(jsonw *w);
/* key is the member name inside an object, NULL inside an array or at the top. */
void ls_jsonw_object_begin(jsonw *w, const char *key);
void ls_jsonw_object_end(jsonw *w);
void ls_jsonw_array_begin(jsonw *w, const char *key, int is_inline);
void ls_jsonw_array_end(jsonw *w);
void ls_jsonw_number(jsonw *w, const char *key, double x);
void ls_jsonw_integer(jsonw *w, const char *key, long long x);
void ls_jsonw_string(jsonw *w, const char *key, const char *s);
void ls_jsonw_bool(jsonw *w, const char *key, int b);
/* Return the text (ending in a newline; the caller frees it), or NULL with an
 * error; the writer is emptied either way. */
char *ls_jsonw_finish(jsonw *w, ls_error *err) LS_MUST_CHECK;
void ls_jsonw_discard(jsonw *w);


#endif
