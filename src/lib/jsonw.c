#include "jsonw_internal.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "numtext_internal.h"
#include "text_internal.h"

void ls_jsonw_init(jsonw *w) { memset(w, 0, sizeof *w); }

static void put(jsonw *w, const char *s, size_t n)
{
    if (w->failed)
        return;
    if (w->len + n + 1 > w->cap) {
        size_t cap = w->cap ? w->cap : 1024;
        while (w->len + n + 1 > cap)
            cap *= 2;
        char *p = realloc(w->buf, cap);
        if (!p) {
            w->failed = LS_ERR_INTERNAL;
            snprintf(w->failure, sizeof w->failure, "out of memory");
            return;
        }
        w->buf = p;
        w->cap = cap;
    }
    memcpy(w->buf + w->len, s, n);
    w->len += n;
    w->buf[w->len] = '\0';
}

static void puts_(jsonw *w, const char *s) { put(w, s, strlen(s)); }

/* A string as JSON text, which must be UTF-8 (RFC 8259): an ill-formed
 * sequence (a file name in Latin-1, a truncated character) is written as
 * U+FFFD, so the file reads back; controls are written as \u00XX. */
static void put_string(jsonw *w, const char *s)
{
    put(w, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        char esc[8];
        int k = ls_utf8_sequence(p);
        if (k < 0) {
            put(w, "\xef\xbf\xbd", 3);
            p += -k - 1;
        } else if (k > 1) {
            put(w, (const char *)p, (size_t)k);
            p += k - 1;
        } else if (*p == '"' || *p == '\\') {
            esc[0] = '\\';
            esc[1] = (char)*p;
            put(w, esc, 2);
        } else if (*p < 0x20) {
            snprintf(esc, sizeof esc, "\\u%04x", *p);
            put(w, esc, 6);
        } else {
            put(w, (const char *)p, 1);
        }
    }
    put(w, "\"", 1);
}

/* Separator, line break and indentation before a new member, then its key. */
static void member(jsonw *w, const char *key)
{
    int d = w->depth;
    if (d > 0) {
        if (w->count[d - 1]++ > 0)
            puts_(w, w->is_inline[d - 1] ? ", " : ",");
        if (!w->is_inline[d - 1]) {
            puts_(w, "\n");
            for (int i = 0; i < d; i++)
                puts_(w, "  ");
        }
    }
    if (key) {
        put_string(w, key);
        puts_(w, ": ");
    }
}

static void open_(jsonw *w, const char *key, const char *bracket, int is_inline)
{
    member(w, key);
    puts_(w, bracket);
    if (w->depth >= JSONW_MAX_DEPTH) {
        w->failed = LS_ERR_INTERNAL;
        snprintf(w->failure, sizeof w->failure, "JSON nested too deeply");
        return;
    }
    /* Everything inside an inline array stays inline. */
    int parent_inline = w->depth > 0 && w->is_inline[w->depth - 1];
    w->is_inline[w->depth] = is_inline || parent_inline;
    w->count[w->depth] = 0;
    w->depth++;
}

static void close_(jsonw *w, const char *bracket)
{
    if (w->depth == 0)
        return;
    w->depth--;
    if (w->count[w->depth] > 0 && !w->is_inline[w->depth]) {
        puts_(w, "\n");
        for (int i = 0; i < w->depth; i++)
            puts_(w, "  ");
    }
    puts_(w, bracket);
}

void ls_jsonw_object_begin(jsonw *w, const char *key) { open_(w, key, "{", 0); }
void ls_jsonw_object_end(jsonw *w) { close_(w, "}"); }
void ls_jsonw_array_begin(jsonw *w, const char *key, int is_inline) { open_(w, key, "[", is_inline); }
void ls_jsonw_array_end(jsonw *w) { close_(w, "]"); }

void ls_jsonw_number(jsonw *w, const char *key, double x)
{
    if (!isfinite(x)) {
        if (!w->failed) {
            w->failed = LS_ERR_INTERNAL;
            snprintf(w->failure, sizeof w->failure, "refusing to write the non-finite value of '%s' as JSON",
                     key ? key : "(array element)");
        }
        return;
    }
    char num[NUMTEXT_DOUBLE_MAX];
    member(w, key);
    puts_(w, ls_numtext_format_double(num, x));
}

void ls_jsonw_integer(jsonw *w, const char *key, long long x)
{
    char num[32];
    snprintf(num, sizeof num, "%lld", x);
    member(w, key);
    puts_(w, num);
}

void ls_jsonw_string(jsonw *w, const char *key, const char *s)
{
    member(w, key);
    put_string(w, s);
}

void ls_jsonw_bool(jsonw *w, const char *key, int b)
{
    member(w, key);
    puts_(w, b ? "true" : "false");
}

char *ls_jsonw_finish(jsonw *w, ls_error *err)
{
    puts_(w, "\n");
    if (w->failed) {
        ls_error_set(err, w->failed, "%s", w->failure);
        ls_jsonw_discard(w);
        return NULL;
    }
    char *text = w->buf;
    w->buf = NULL;
    ls_jsonw_discard(w);
    return text;
}

void ls_jsonw_discard(jsonw *w)
{
    free(w->buf);
    ls_jsonw_init(w);
}
