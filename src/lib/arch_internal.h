/*
 * arch_internal.h — the template document, read by templates (arch.c),
 * shape files (shape.c) and law files (lawfile.c), which embed a template.
 */
#ifndef LOOPSCALE_ARCH_INTERNAL_H
#define LOOPSCALE_ARCH_INTERNAL_H

#include "jsonw_internal.h"
#include "loopscale/arch.h"

struct cJSON;

/* What a template document gives, before it is made a template: its shape
 * keys, and its own keys (NaN, -1 or "": not given). */
typedef struct ls_arch_doc {
    ls_shape_spec shape;
    double attention_share, routed_share, fixed_share, per_loop_share, loop_share, loop_fraction;
    int flops_convention;
    char share_key[32]; /* the first share given, for a shape's refusal */
    char name[128], source[512];
} ls_arch_doc;

/* Read the document in text (a syntax error or any fault placed at its line
 * and column), or the object root of a parsed one.  A document whose
 * "shape" member is an object (`loopscale shape --format json`) is read
 * from there.  0, or LS_ERR_DATA naming path and the key. */
int ls_arch_doc_parse(const char *text, size_t len, const char *path, ls_arch_doc *doc, ls_error *err);
int ls_arch_doc_from_json(const struct cJSON *root, const char *path, ls_arch_doc *doc, ls_error *err);
/* The template a document gives, over t.  0 or LS_ERR_DATA. */
int ls_arch_template_from_doc(const ls_arch_doc *doc, const char *path, ls_arch_template *t, ls_error *err);
/* The largest relative difference of t's N_total / N_act and N_loop / N_act
 * from the n configurations' ranges, as ls_arch_record_runs measures it on
 * their runs (loop NaN when none gives N_loop): what a record's residual
 * must be. */
void ls_arch_config_residuals(const ls_arch_template *t, const ls_arch_config *c, size_t n, double *total,
                              double *loop);
/* Whether t is the default template (its shares, top_k and layers). */
int ls_arch_template_is_default(const ls_arch_template *t);
/* t as the JSON object `key` (NULL: the document's top) of w. */
void ls_arch_template_write_json(jsonw *w, const char *key, const ls_arch_template *t);

#endif
