/*
 * shape_internal.h — a shape written into a JSON document being built
 * (jsonw_internal.h), for the shape command and the documents that embed one.
 */
#ifndef LOOPSCALE_SHAPE_INTERNAL_H
#define LOOPSCALE_SHAPE_INTERNAL_H

#include "jsonw_internal.h"
#include "loopscale/shape.h"

/* Write s as the JSON object `key` with the field names of a shape file
 * (unset fields left out), so that the output reads back as a shape. */
void ls_shape_spec_write_json(jsonw *w, const char *key, const ls_shape_spec *s);

#endif
