/*
 * loopscale/sweep.h — reading the results of a training sweep.
 *
 * A sweep is a CSV file (plain or gzip, recognised by its magic bytes; "-"
 * for standard input) with a header row.  Columns are matched to the
 * quantities of docs/formats.md case-insensitively, with their aliases; `--map
 * new=old` renames a column; `--where` filters rows.  Every cell a quantity
 * needs is checked, and any problem is an LS_ERR_DATA error that names the
 * file, the line, the column and the offending text.  Nothing is guessed.
 *
 * ls_sweep_read() returns a sweep the caller owns and frees with ls_sweep_free().
 *
 * Thread safety: a sweep is read-only once ls_sweep_read() returns it: any
 * number of threads may read it at once (the fits do).
 */
#ifndef LOOPSCALE_SWEEP_H
#define LOOPSCALE_SWEEP_H

#include <stddef.h>

#include "loopscale/error.h"
#include "loopscale/law.h"
#include "loopscale/export.h"

LS_API_BEGIN

typedef enum {
    SWEEP_N_ACT,
    SWEEP_N_TOTAL,
    SWEEP_N_LOOP,
    SWEEP_R,
    SWEEP_E,
    SWEEP_K,
    SWEEP_TOKENS,
    SWEEP_FLOPS,
    SWEEP_LOSS,
    SWEEP_NQUANTITIES
} sweep_quantity;

/* Canonical column name of a quantity ("n_act", "R", "tokens", ...). */
const char *ls_sweep_quantity_name(sweep_quantity q);

/* The quantity a column name stands for (canonical or alias, any case), or
 * -1 when it is not one. */
int ls_sweep_quantity_from_name(const char *name, size_t len);

typedef struct sweep_options {
    const char *const *maps;   /* "new=old" renames */
    size_t nmaps;
    const char *const *wheres; /* "COLUMN OP NUMBER", all must hold */
    size_t nwheres;
    int require_loss;          /* the loss column must be present */
    int keep_text;             /* keep each row's cells (for echoing rows) */
    const char *group_column;  /* number rows by the distinct values of this column */
} sweep_options;

/* One run, with defaults applied: n_total = n_act, R = E = k = 1 when their
 * columns are absent; n_loop is NaN when unknown (only allowed at R = 1) and
 * loss is NaN when the sweep has no loss column. tokens is derived from
 * flops when only flops is given: D = flops / (6 N_unroll). */
typedef struct sweep_row {
    double n_act, n_total, n_loop, R, E, k, tokens, loss;
    long line;    /* line of the row in its file */
    int file;     /* index into the paths given to ls_sweep_read */
    size_t group; /* group id when options.group_column is set, else 0 */
    size_t text;  /* offset of the row's cells in the text store (keep_text) */
} sweep_row;

typedef struct sweep {
    size_t n;
    sweep_row *rows;
    int has_loss;
    size_t ngroups;
    /* With keep_text: the header and cells of each row, as NUL-separated
     * unquoted fields; only for single-file sweeps. */
    size_t ncolumns;
    char **column_names;
    char *text;
    size_t text_len;
    char *name; /* the file name(s), for messages and provenance */
} sweep;

sweep *ls_sweep_read(const char *const *paths, size_t npaths, const sweep_options *options,
                  ls_error *err) LS_MUST_CHECK;
void ls_sweep_free(sweep *s);

/* The configuration a run stands for, as the law sees it (an unknown
 * N_loop, allowed only at R = 1, where no mapping reads it, becomes 0). */
law_point ls_sweep_row_point(const sweep_row *row);

/* Check one run against the rules of docs/formats.md (positive sizes and loss,
 * integer R, E, k >= 1, E >= k, N_act <= N_total, N_loop <= N_act, N_loop
 * known and positive when R > 1).  NaN tokens or loss mean "not given" and
 * pass.  Returns 0 when the row is valid, else 1 with the quantity at fault
 * and a reason to follow its value in a message ("must be positive"). */
int ls_sweep_row_check(const sweep_row *row, sweep_quantity *which, char *reason, size_t size);

/* Mark the rows that satisfy every condition "QUANTITY OP NUMBER" (as for
 * --where, but only on the quantities (docs/laws.md): n_act, R, tokens, ...).
 * Errors: LS_ERR_USAGE for a malformed condition or another column. */
int ls_sweep_select(const sweep *s, const char *const *conditions, size_t n, unsigned char *selected,
                 ls_error *err) LS_MUST_CHECK;

/* A new sweep holding the rows with keep[i] set (without their text). */
sweep *ls_sweep_subset(const sweep *s, const unsigned char *keep, ls_error *err) LS_MUST_CHECK;

/* Cell `column` of row `row` (keep_text only); returns its length in *len. */
const char *ls_sweep_cell(const sweep *s, size_t row, size_t column, size_t *len);

LS_API_END

#endif
