/*
 * record_internal.h — what the record readers share: the CSV reader
 * (csv_internal.h) and the JSON Lines reader it hands records out through
 * (jsonl_internal.h) both give a record as an array of fields, each a
 * {pointer, length} slice of the reader's own buffer, and both refuse a
 * record longer than LS_CSV_RECORD_MAX.  Neither reader needs the other's
 * header for these, nor the sweep module that reads their records.
 */
#ifndef LOOPSCALE_RECORD_INTERNAL_H
#define LOOPSCALE_RECORD_INTERNAL_H

#include <stddef.h>

/* A record longer than this is refused rather than read into memory whole:
 * such a line is a binary or broken file, not a sweep.  The same limit holds
 * for a JSON Lines line, and for a JSON Lines file's column names together. */
#define LS_CSV_RECORD_MAX ((size_t)16 << 20)

/* A field: {pointer, length}, unquoted, not NUL-terminated (the fields of
 * the public ls_sweep_text_cell, which sweep.c copies them into for a
 * stream's callbacks). */
typedef struct csv_field {
    const char *ptr;
    size_t len;
} csv_field;

#endif
