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
 * an array of numbers, strings or booleans its items joined by ','.  Each
 * line is parsed strictly (readfile_internal.h): a syntax error, a repeated
 * key, a line that is not an object or an array of objects is an
 * LS_ERR_DATA error naming FILE:LINE:COLUMN.
 */
#ifndef LOOPSCALE_JSONL_INTERNAL_H
#define LOOPSCALE_JSONL_INTERNAL_H

#include <stddef.h>

#include "csv_internal.h"
#include "loopscale/error.h"

typedef struct jsonl_reader jsonl_reader;

/* A reader of text[0..len) (the whole input, decoded; the reader takes it
 * and frees it), named name in messages; first_line is the line text
 * starts on.  Every line is parsed once here to collect the columns, so a
 * syntax error anywhere is found before any row is used.  NULL with err set
 * on failure (text freed). */
jsonl_reader *ls_jsonl_open(char *text, size_t len, const char *name, ls_error *err);

/* The header (first call), then a record per object: 1 with fields set,
 * 0 at the end, or a negative LS_ERR_* code.  *line is the record's line. */
int ls_jsonl_next(jsonl_reader *r, const csv_field **fields, size_t *nfields, long *line, ls_error *err);

void ls_jsonl_close(jsonl_reader *r);

/* 1 when path names JSON Lines by its extension: .jsonl or .ndjson, with
 * .gz after it or not, in any case. */
int ls_jsonl_name(const char *path);

#endif
