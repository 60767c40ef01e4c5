/*
 * textout_internal.h — text a command prints: a growable string, and tables
 * printed aligned for people, as markdown, or as CSV and TSV for programs.
 *
 * Failures are sticky (running out of memory marks the buffer failed and
 * later appends do nothing), so a printer may append many pieces and check
 * once with strbuf_failed().
 */
#ifndef LOOPSCALE_TEXTOUT_INTERNAL_H
#define LOOPSCALE_TEXTOUT_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>

#include "loopscale/error.h"

typedef struct strbuf {
    char *buf; /* NUL-terminated when len > 0 */
    size_t len, cap;
    int failed;
} strbuf;

void strbuf_printf(strbuf *b, const char *fmt, ...) LS_PRINTF(2, 3);
void strbuf_vprintf(strbuf *b, const char *fmt, va_list ap) LS_PRINTF(2, 0);
void strbuf_append(strbuf *b, const char *data, size_t len);
void strbuf_puts(strbuf *b, const char *s);
/* A CSV field (len bytes, not necessarily NUL-terminated), quoted when it
 * needs to be (RFC 4180). */
void strbuf_csv_field(strbuf *b, const char *s, size_t len);
int strbuf_failed(const strbuf *b);
/* The text (owned by the caller; "" when empty), the buffer emptied; NULL
 * when the buffer failed. */
char *strbuf_take(strbuf *b);
void strbuf_free(strbuf *b);

/* x with `decimals` digits after the point (a loss: "2.0982") while it is
 * below 1e6 in size, else with decimals + 1 significant digits, so that a
 * huge value from an extreme law never prints as hundreds of digits. */
const char *text_fixed(char *buf, size_t size, double x, int decimals);
#define TEXT_FIXED_MAX 1e6

/* The ways a table prints (--format). */
typedef enum { TABLE_ALIGNED, TABLE_CSV, TABLE_TSV, TABLE_MD } table_style;

typedef struct text_table text_table;
/* A table of ncols columns under `headers`; NULL when out of memory. */
text_table *text_table_new(size_t ncols, const char *const *headers);
/* Append a row of ncols cells (copied); 0, or -1 when out of memory. */
int text_table_add(text_table *t, const char *const *cells);
size_t text_table_rows(const text_table *t);
/* Aligned: numbers to the right, the last text column unpadded; markdown
 * with a |---:| rule; CSV and TSV with a header row. */
void text_table_print(const text_table *t, strbuf *out, table_style style);
void text_table_free(text_table *t);

#endif
