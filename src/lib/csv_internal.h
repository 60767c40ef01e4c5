/*
 * csv_internal.h — RFC 4180 records from a plain or gzip file, or stdin.
 *
 * One reader owns one growable record buffer, reused for the whole file; the
 * fields handed out are {pointer, length} slices of it and stay valid until
 * the next ls_csv_next() or ls_csv_close().  Quoted fields are unquoted in place.
 * gzip is recognised by its magic bytes and inflated member after member;
 * bytes after the last member that are not another one are an error.  A UTF-8 byte-order mark, '#' comment lines and blank
 * lines are skipped; CRLF and LF end a record, or CR alone in a file whose
 * first line ends so.  JSON Lines (jsonl_internal.h), told by its name or a
 * first byte '{', is handed out through the same calls, as a header and
 * records.
 */
#ifndef LOOPSCALE_CSV_INTERNAL_H
#define LOOPSCALE_CSV_INTERNAL_H

#include <stddef.h>

#include "loopscale/error.h"
#include "record_internal.h"

typedef struct csv_reader csv_reader;

/* Open path ("-" for standard input). Errors: LS_ERR_NOINPUT. */
csv_reader *ls_csv_open(const char *path, ls_error *err);
/* The same from an input already opened (its first bytes read to tell the
 * format): the reader takes its fd and name, on failure too. */
struct ls_input;
csv_reader *ls_csv_open_input(struct ls_input *in, ls_error *err);

/* Read the next record. Returns 1 with fields and nfields set, 0 at the end of
 * the input, or a negative LS_ERR_* code (a message that names the file and
 * line). */
int ls_csv_next(csv_reader *reader, const csv_field **fields, size_t *nfields, ls_error *err) LS_MUST_CHECK;

/* 1-based line on which the last record returned began. */
long ls_csv_line(const csv_reader *reader);

/* The name used in messages: the path, or "<stdin>". */
const char *ls_csv_name(const csv_reader *reader);
/* Hash the input's bytes as they are read (called before the first
 * ls_csv_next(): about 5 ms per MB, so only when the checksum is wanted).
 * ls_csv_sha256() gives the SHA-256 of the bytes read so far, as stored
 * (compressed or not): of the whole input once ls_csv_next() returned 0. */
void ls_csv_keep_checksum(csv_reader *reader);
/* Refuse an input of more than max records (0: no limit), counting the
 * `before` that earlier files gave, while reading it.  CSV leaves the count
 * to its caller, which sees each record as it is read; JSON Lines is read
 * whole once before its first record is handed out (its columns must be
 * known), so there the limit counts its objects on that first reading.
 * Called before the first ls_csv_next(). */
void ls_csv_limit_records(csv_reader *reader, size_t max, size_t before);
void ls_csv_sha256(csv_reader *reader, char hex[65]);

void ls_csv_close(csv_reader *reader);

/* Case-insensitive equality of a field with a NUL-terminated name. */
int ls_csv_field_equals(csv_field field, const char *name);

#endif
