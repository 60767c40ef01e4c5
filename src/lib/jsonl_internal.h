/*
 * jsonl_internal.h — JSON Lines (one JSON object a line, as dashboards
 * export run tables) read as the records of a CSV file: a header of column
 * names, then one record per object, so that the sweep reader, its maps,
 * filters, profiles and checks apply unchanged.
 *
 * Columns are the keys of every object, in the order they first appear.
 * Nested objects are flattened with '.' between the keys ({"config":
 * {"model": {"n_loops": 2}}} is column config.model.n_loops, the name a
 * dashboard's CSV export gives it); a '/' inside a key (eval/loss) is part of
 * the key.  A number is its shortest round-trip decimal text, a string its
 * text, true and false as written, null or a missing key an empty cell, and
 * an array of numbers, strings or booleans its items joined by ','.
 *
 * The input is streamed, a line at a time, twice: the first reading checks
 * every line and collects the columns, the second hands out the records.
 * Memory holds one line (at most LS_CSV_RECORD_MAX bytes, as a CSV record),
 * its cells and the column names (at most LS_CSV_RECORD_MAX bytes together,
 * as a CSV header, and at most JSONL_COLUMNS_MAX columns), never the file.
 * How the input gets back to its start is the source's business (csv.c
 * seeks a file and keeps a temporary copy of a pipe's bytes).
 *
 * Each line is parsed strictly (RFC 8259): a syntax error, a control
 * character or ill-formed UTF-8 in a string, \u0000, a number outside
 * double precision, nesting deeper than 512, a repeated key, a line that is
 * not an object, an array holding objects or arrays: each an LS_ERR_DATA
 * error naming FILE:LINE:COLUMN.
 */
#ifndef LOOPSCALE_JSONL_INTERNAL_H
#define LOOPSCALE_JSONL_INTERNAL_H

#include <stddef.h>

#include "loopscale/error.h"
#include "record_internal.h"

/* More distinct keys (nested paths included) than this is an error: no run
 * table has them, and each costs memory for the whole reading. */
#define JSONL_COLUMNS_MAX ((size_t)1000000)

/* Where the bytes come from: read() fills dst with up to cap decoded bytes
 * (*n = 0 at the end); rewind() goes back to the first byte read.  Both
 * return 0 or a negative LS_ERR_* code with err set. */
typedef struct jsonl_source {
    int (*read)(void *ctx, char *dst, size_t cap, size_t *n, ls_error *err);
    int (*rewind)(void *ctx, ls_error *err);
    void *ctx;
} jsonl_source;

typedef struct jsonl_reader jsonl_reader;

/* Read the whole input once (checking every line and collecting the
 * columns), then rewind it.  More than max_records objects (0: no limit),
 * counting `before` given by earlier inputs, is an LS_ERR_DATA error found
 * on that first reading.  NULL with err set on failure, including an input
 * with no object and one whose objects have no key. */
jsonl_reader *ls_jsonl_open(const jsonl_source *src, const char *name, size_t max_records, size_t before,
                            ls_error *err);

/* The header (first call), then a record per object: 1 with fields set,
 * 0 at the end, or a negative LS_ERR_* code.  *line is the record's line. */
int ls_jsonl_next(jsonl_reader *r, const csv_field **fields, size_t *nfields, long *line, ls_error *err);

void ls_jsonl_close(jsonl_reader *r);

/* 1 when path names JSON Lines by its extension: .jsonl or .ndjson, with
 * .gz after it or not, in any case. */
int ls_jsonl_name(const char *path);

#endif
