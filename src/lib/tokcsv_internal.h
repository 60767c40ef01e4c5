/*
 * tokcsv_internal.h — per-token tables in CSV: `token,INDEX...,VALUE...`.
 *
 * `route` reads token,loop,layer,z0..z{E-1} and `exit` reads
 * token,loop,entropy,nll: one row per token and position, streamed through
 * csv_internal.h (plain, gzip or standard input) and handed out one token at
 * a time as a dense block, so memory does not grow with the file.  The rules,
 * each broken one an LS_ERR_DATA error with file, line and column:
 *   - the header names the columns in this order (any case);
 *   - token is an integer >= 0; a token's rows are consecutive and tokens
 *     increase, so a token cannot silently come back later;
 *   - index columns (loop, layer) are integers counted from 1; their
 *     extents are those of the first token, which must be complete, unless
 *     given in the layout; every token has every position exactly once, in
 *     any order;
 *   - values are finite numbers (and not negative when the layout says so).
 */
#ifndef LOOPSCALE_TOKCSV_INTERNAL_H
#define LOOPSCALE_TOKCSV_INTERNAL_H

#include <stddef.h>

#include "input_internal.h"
#include "loopscale/error.h"

#define TOKCSV_MAX_INDEX 4

typedef struct tokcsv_layout {
    const char *const *index_names; /* e.g. {"loop", "layer"} */
    size_t nindex;
    const char *const *value_names; /* fixed value columns, e.g. {"entropy", "nll"}; or NULL and */
    size_t nvalues;
    const char *value_prefix;       /* columns PREFIX0, PREFIX1, ... (at least one) */
    int nonnegative;                /* values must be >= 0 */
} tokcsv_layout;

typedef struct tokcsv tokcsv;

/* Open path ("-" for standard input) and check its header. */
tokcsv *ls_tokcsv_open(const char *path, const tokcsv_layout *layout, ls_error *err);
/* The same from an input already opened (its first bytes read); takes its
 * fd and name, on failure too. */
tokcsv *ls_tokcsv_open_input(ls_input *in, const tokcsv_layout *layout, ls_error *err);

/* Values per position (the number of PREFIXn columns, or nvalues). */
size_t ls_tokcsv_nvalues(const tokcsv *t);

/* The next token: returns 1 with *block holding its values at
 * [((i0 * dim1 + i1) ...) * nvalues + v] (indices from 0 here), 0 at the
 * end, or an error.  The block stays valid until the next call. */
int ls_tokcsv_next(tokcsv *t, long *token, const double **block, ls_error *err) LS_MUST_CHECK;

/* Extent of each index column, known after the first token. */
const size_t *ls_tokcsv_dims(const tokcsv *t);

const char *ls_tokcsv_name(const tokcsv *t);
void ls_tokcsv_close(tokcsv *t);

#endif
