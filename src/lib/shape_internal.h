/*
 * shape_internal.h — a shape written into a JSON document being built
 * (jsonw_internal.h), for the shape command and the documents that embed one;
 * and one key of a shape read, for the template reader (arch.c), which reads
 * shape files too.
 */
#ifndef LOOPSCALE_SHAPE_INTERNAL_H
#define LOOPSCALE_SHAPE_INTERNAL_H

#include "jsonw_internal.h"
#include "loopscale/shape.h"

struct cJSON;

/* Write s as the JSON object `key` with the field names of a shape file
 * (unset fields left out), so that the output reads back as a shape. */
void ls_shape_spec_write_json(jsonw *w, const char *key, const ls_shape_spec *s);
/* The same fields into the object being written. */
void ls_shape_spec_write_fields(jsonw *w, const ls_shape_spec *s);

/* Room for the names of the keys seen, one slot a field. */
#define LS_SHAPE_NKEYS 48
/* Set the field that item (a member of a JSON object) gives: 1 when it is a
 * shape's key, 0 when it is not, or LS_ERR_DATA naming path and the key
 * (a value of the wrong kind, or a field given under both of its names:
 * seen[] holds the name each field was given by, all NULL at first). */
int ls_shape_spec_set_key(ls_shape_spec *s, const char **seen, const char *path, const struct cJSON *item,
                          ls_error *err);

/* The attention keys of a stage that has no layers (coda_heads with no
 * coda_layers...), which count for nothing: an
 * LS_ERR_DATA error naming the key, for a shape as given (a template, a
 * shape file, the shape command's options). */
int ls_shape_check_stages(const ls_shape_spec *given, ls_error *err);

#endif
