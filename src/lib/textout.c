/*
 * textout.c — strings and tables a command prints (textout_internal.h).
 */
#include "textout_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow_internal.h"
#include "numtext_internal.h"

static void reserve(strbuf *b, size_t extra)
{
    if (b->failed)
        return;
    if (extra > (size_t)-1 / 2 - b->len || ls_grow((void **)&b->buf, &b->cap, b->len + extra + 1, 1) != 0)
        b->failed = 1;
}

void strbuf_append(strbuf *b, const char *data, size_t len)
{
    reserve(b, len);
    if (b->failed)
        return;
    memcpy(b->buf + b->len, data, len);
    b->len += len;
    b->buf[b->len] = '\0';
}

void strbuf_puts(strbuf *b, const char *s)
{
    strbuf_append(b, s, strlen(s));
}

void strbuf_vprintf(strbuf *b, const char *fmt, va_list ap)
{
    va_list copy;
    va_copy(copy, ap);
    int n = vsnprintf(NULL, 0, fmt, copy);
    va_end(copy);
    if (n < 0) {
        b->failed = 1;
        return;
    }
    reserve(b, (size_t)n);
    if (b->failed)
        return;
    vsnprintf(b->buf + b->len, (size_t)n + 1, fmt, ap);
    b->len += (size_t)n;
}

void strbuf_printf(strbuf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    strbuf_vprintf(b, fmt, ap);
    va_end(ap);
}

void strbuf_csv_field(strbuf *b, const char *s, size_t len)
{
    int quote = len > 0 && isspace((unsigned char)s[0]);
    for (size_t i = 0; i < len && !quote; i++)
        quote = s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
    if (!quote) {
        strbuf_append(b, s, len);
        return;
    }
    strbuf_append(b, "\"", 1);
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '"')
            strbuf_append(b, "\"", 1);
        strbuf_append(b, &s[i], 1);
    }
    strbuf_append(b, "\"", 1);
}

int strbuf_failed(const strbuf *b)
{
    return b->failed;
}

char *strbuf_take(strbuf *b)
{
    if (b->failed) {
        strbuf_free(b);
        return NULL;
    }
    char *s = b->buf ? b->buf : strdup("");
    b->buf = NULL;
    b->len = b->cap = 0;
    return s;
}

void strbuf_free(strbuf *b)
{
    free(b->buf);
    b->buf = NULL;
    b->len = b->cap = 0;
    b->failed = 0;
}

const char *text_fixed(char *buf, size_t size, double x, int decimals)
{
    if (fabs(x) < TEXT_FIXED_MAX)
        snprintf(buf, size, "%.*f", decimals, x);
    else
        snprintf(buf, size, "%.*g", decimals + 1, x);
    return buf;
}

/* ---- tables ------------------------------------------------------------------ */

struct text_table {
    size_t ncols, nrows, cap;
    char **cells; /* (nrows + 1) x ncols, the headers first */
};

text_table *text_table_new(size_t ncols, const char *const *headers)
{
    text_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->ncols = ncols;
    if (text_table_add(t, headers) != 0) { /* the header is stored as row 0 */
        text_table_free(t);
        return NULL;
    }
    return t;
}

int text_table_add(text_table *t, const char *const *cells)
{
    size_t used = (t->cells ? t->nrows + 1 : 0) * t->ncols;
    if (ls_grow((void **)&t->cells, &t->cap, used + t->ncols, sizeof *t->cells) != 0)
        return -1;
    for (size_t j = 0; j < t->ncols; j++) {
        t->cells[used + j] = strdup(cells[j] ? cells[j] : "");
        if (!t->cells[used + j]) {
            for (size_t k = 0; k < j; k++)
                free(t->cells[used + k]);
            return -1;
        }
    }
    if (used > 0)
        t->nrows++;
    return 0;
}

size_t text_table_rows(const text_table *t)
{
    return t->nrows;
}

static int looks_numeric(const char *s)
{
    double x;
    return *s && (ls_numtext_parse_double(s, strlen(s), &x) == NUMTEXT_OK || strcmp(s, "-") == 0 ||
                  strcmp(s, "inf") == 0);
}

/* A TSV field: tabs and line breaks inside would split it, so they become
 * spaces (TSV has no quoting). */
static void tsv_field(strbuf *out, const char *s)
{
    for (; *s; s++) {
        char c = *s == '\t' || *s == '\n' || *s == '\r' ? ' ' : *s;
        strbuf_append(out, &c, 1);
    }
}

void text_table_print(const text_table *t, strbuf *out, table_style style)
{
    size_t rows = t->nrows + 1;
    if (style == TABLE_CSV || style == TABLE_TSV) {
        for (size_t i = 0; i < rows; i++)
            for (size_t j = 0; j < t->ncols; j++) {
                const char *s = t->cells[i * t->ncols + j];
                if (style == TABLE_CSV)
                    strbuf_csv_field(out, s, strlen(s));
                else
                    tsv_field(out, s);
                strbuf_puts(out, j + 1 < t->ncols ? (style == TABLE_CSV ? "," : "\t") : "\n");
            }
        return;
    }
    size_t *width = calloc(t->ncols, sizeof *width);
    int *numeric = calloc(t->ncols, sizeof *numeric);
    if (!width || !numeric) {
        free(width);
        free(numeric);
        out->failed = 1;
        return;
    }
    for (size_t j = 0; j < t->ncols; j++) {
        numeric[j] = t->nrows > 0;
        for (size_t i = 0; i < rows; i++) {
            const char *s = t->cells[i * t->ncols + j];
            size_t w = strlen(s);
            if (w > width[j])
                width[j] = w;
            if (i > 0 && !looks_numeric(s))
                numeric[j] = 0;
        }
    }
    int md = style == TABLE_MD;
    for (size_t i = 0; i < rows; i++) {
        if (md)
            strbuf_puts(out, "| ");
        for (size_t j = 0; j < t->ncols; j++) {
            const char *s = t->cells[i * t->ncols + j];
            int w = (int)width[j];
            int last = j + 1 == t->ncols;
            if (numeric[j])
                strbuf_printf(out, "%*s", w, s);
            else if (last && !md)
                strbuf_puts(out, s);
            else
                strbuf_printf(out, "%-*s", w, s);
            if (!last)
                strbuf_puts(out, md ? " | " : "  ");
        }
        strbuf_puts(out, md ? " |\n" : "\n");
        if (i == 0 && md) { /* |---|---:| : numbers right-aligned */
            strbuf_puts(out, "|");
            for (size_t j = 0; j < t->ncols; j++) {
                for (size_t k = 0; k < width[j] + 1; k++)
                    strbuf_puts(out, "-");
                strbuf_puts(out, numeric[j] ? ":|" : "-|");
            }
            strbuf_puts(out, "\n");
        }
    }
    free(width);
    free(numeric);
}

void text_table_free(text_table *t)
{
    if (!t)
        return;
    size_t used = t->cells ? (t->nrows + 1) * t->ncols : 0;
    for (size_t i = 0; i < used; i++)
        free(t->cells[i]);
    free(t->cells);
    free(t);
}
