/*
 * loopscale/profile.h — sweep profiles: how to read one kind of export.
 *
 * A dashboard's exports all look alike, and the options that read one
 * (--map for each column, --where, --run/--step/--last, the loss unit,
 * --skip-invalid, --group-tol) are the same every time.  A sweep profile is
 * a small JSON file that holds them, given once with --profile FILE
 * (docs/formats.md#sweep-profiles):
 *
 *   {"format": "loopscale-profile/1", "name": "wandb",
 *    "map": {"n_act": "model/num_active_params", "loss": "eval/loss"},
 *    "where": ["State==finished"], "run": "run_name",
 *    "step": "trainer/global_step", "last": true,
 *    "loss_unit": "nats", "bytes_per_token": 4.2, "skip_invalid": false,
 *    "group_tol": 1e-6, "template": {"d_ff": 3072, "mlp": "relu2", ...}}
 *
 * "template" is a template that describes a model (loopscale/arch.h): what
 * the sweep's configuration columns leave out, when runs are given by their
 * configuration rather than their counts.
 *
 * Only "format" is required.  Every fault in a profile is an LS_ERR_DATA
 * error naming the file, the line and column and the key, including those
 * found only when a sweep is read with it (a map to a column the sweep
 * lacks).  Unknown keys are errors (a misspelt "wehre"
 * would otherwise be ignored and every row kept).  ls_profile_read returns a
 * profile the caller owns and frees with ls_profile_free; its strings live
 * as long as it does.
 *
 * Thread safety: no shared state.
 */
#ifndef LOOPSCALE_PROFILE_H
#define LOOPSCALE_PROFILE_H

#include <stddef.h>

#include "loopscale/error.h"
#include "loopscale/export.h"

struct ls_arch_template;

LS_API_BEGIN

typedef struct ls_profile {
    char *name;            /* or NULL */
    size_t nmaps;
    char **maps;           /* "new=old", as --map takes them */
    size_t nwheres;
    char **wheres;         /* as --where takes them */
    char *run, *step;      /* or NULL */
    int last;
    int skip_invalid;
    int loss_in_bits;      /* loss_unit "bits" */
    double bytes_per_token; /* 0: not given */
    double group_tol;      /* 0: not given */
    /* Where each option was written, "FILE:LINE:COLUMN", for messages about
     * it (sweep_options.map_origins and the rest). */
    char **map_origins;    /* nmaps entries */
    char **where_origins;  /* nwheres entries */
    char *run_origin, *step_origin; /* or NULL */
    struct ls_arch_template *tmpl; /* "template", malloc'd, or NULL */
} ls_profile;

/* Read and check a profile ("-": standard input). Errors: LS_ERR_NOINPUT
 * when it cannot be read, LS_ERR_DATA for anything wrong in it (naming the
 * file and the key), LS_ERR_INTERNAL when out of memory. */
ls_profile *ls_profile_read(const char *path, ls_error *err) LS_MUST_CHECK;
ls_profile *ls_profile_parse(const char *text, size_t len, const char *name, ls_error *err) LS_MUST_CHECK;
void ls_profile_free(ls_profile *p);

LS_API_END

#endif
