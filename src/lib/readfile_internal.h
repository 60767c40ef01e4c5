/*
 * readfile_internal.h — read a small file (law, template, shape) whole, and
 * parse JSON with the position of any syntax error.
 */
#ifndef LOOPSCALE_READFILE_INTERNAL_H
#define LOOPSCALE_READFILE_INTERNAL_H

#include <stddef.h>

#include "loopscale/error.h"

/* The name of an input in messages: "<stdin>" for "-", else the path. */
const char *ls_input_name(const char *path);

/* Read path ("-": standard input) into a NUL-terminated malloc'd buffer. A file larger than
 * max_bytes is an LS_ERR_DATA error described as "too large for a <what>";
 * an unreadable one is LS_ERR_NOINPUT. */
int ls_read_small_file(const char *path, size_t max_bytes, const char *what, char **text, size_t *len,
                    ls_error *err) LS_MUST_CHECK;

/* Parse JSON text strictly: a syntax error ("name:LINE:COLUMN: not valid
 * JSON"), anything but white space after the document, and a key repeated in
 * any object of it are LS_ERR_DATA errors. The caller frees with cJSON_Delete. */
struct cJSON *ls_parse_json_text(const char *text, size_t len, const char *name, ls_error *err) LS_MUST_CHECK;

/* An error from reading a parsed document, "NAME: PATH: what", "NAME:
 * missing key 'PATH'" or "NAME: unknown key 'PATH'" (PATH as fit.ranges.R),
 * given the line and column of that key in text (of a missing key, of its
 * parent object), so that every fault in a document is placed as a syntax
 * error is. */
void ls_json_error_locate(ls_error *err, const char *name, const char *text, size_t len);

#endif
