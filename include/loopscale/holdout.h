/*
 * loopscale/holdout.h — how well each law predicts runs it has not seen
 * (docs/holdout.md), the comparison the Loop Scaling Laws paper (Scaling Laws
 * for Looped Mixture of Experts) argues from.
 *
 * For each axis X in {R, N, D, E}: fit every law on the runs with X below
 * its largest value and predict the runs at the largest value (the paper
 * fits R <= 8 and predicts R = 16).  A custom split names the test runs by
 * conditions instead.  Besides the held-out RMSEs (loss units), each law gets
 * its in-sample RMSE and the AIC and BIC of its in-sample fit.
 *
 * ls_holdout_run() fills a caller-allocated ls_holdout_result; free it with
 * ls_holdout_result_free().
 *
 * Thread safety: no global state; ls_holdout_run() only reads the sweep and
 * runs its fits as ls_fit_run() does, so calls on one sweep may overlap.
 */
#ifndef LOOPSCALE_HOLDOUT_H
#define LOOPSCALE_HOLDOUT_H

#include <stddef.h>

#include "loopscale/error.h"
#include "loopscale/fit.h"
#include "loopscale/law.h"
#include "loopscale/sweep.h"
#include "loopscale/export.h"

LS_API_BEGIN

typedef enum { LS_HOLDOUT_AXIS_R, LS_HOLDOUT_AXIS_N, LS_HOLDOUT_AXIS_D, LS_HOLDOUT_AXIS_E, LS_HOLDOUT_AXIS_CUSTOM } ls_holdout_axis;

/* "R", "N", "D", "E", "split". */
const char *ls_holdout_axis_name(ls_holdout_axis axis);
/* Parse "R", "N", "D", "E" (any case); -1 if none. */
int ls_holdout_axis_from_name(const char *name);

typedef struct ls_holdout_spec {
    const ls_law_kind *laws;
    size_t nlaws;
    const ls_holdout_axis *axes; /* R, N, D, E, in the order to report */
    size_t naxes;
    const char *const *split; /* conditions "COL OP X" naming the test runs of a
                                 custom split (all must hold); NULL for none */
    size_t nsplit;
} ls_holdout_spec;

typedef struct ls_holdout_cell {
    double rmse;   /* held-out RMSE in loss units; NaN when not evaluated */
    int converged; /* the training fit converged */
    ls_law fitted;    /* the law fitted on the training runs (when rmse is not NaN) */
} ls_holdout_cell;

typedef struct ls_holdout_column {
    ls_holdout_axis axis;
    char label[64];   /* "R=16", "N=1e+09", or the split's conditions */
    size_t ntrain, ntest;
    int skipped;      /* the axis has a single value (or the split is empty) */
} ls_holdout_column;

typedef struct ls_holdout_result {
    size_t nlaws, ncolumns, n;
    ls_law_kind *laws;
    ls_holdout_column *columns;
    ls_holdout_cell *cells;       /* nlaws x ncolumns */
    double *in_sample_rmse;    /* per law */
    double *aic, *bic;         /* per law, Gaussian on the in-sample residuals */
    size_t *nfree;             /* per law */
    int *in_sample_converged;
    unsigned char *test;       /* ncolumns x n: 1 for each column's held-out runs */
    double *predicted;         /* nlaws x ncolumns x n: the loss cell (law, column)'s fitted law predicts for
                                * each of the column's held-out runs; NaN for the other runs and for a cell
                                * not evaluated */
} ls_holdout_result;

/* The paper's comparison on a sweep's base: the mappings linear, power,
 * bounded and bounded-sparse on `moe` when some run has E > 1, else on
 * `dense`.  bounded-sparse is left out when every run is dense (m = 1),
 * where it equals bounded, and *sparse_left_out says so.  Fills laws (room
 * for 4) and returns how many. */
size_t ls_holdout_default_laws(const ls_sweep *s, ls_law_kind laws[4], int *sparse_left_out);

int ls_holdout_run(const ls_sweep *s, const ls_holdout_spec *spec, const ls_fit_parameters *p, ls_holdout_result *out,
                ls_error *err) LS_MUST_CHECK;
void ls_holdout_result_free(ls_holdout_result *r);

/* The result as `loopscale holdout --format json` prints it (malloc'd), or
 * NULL with an error. */
char *ls_holdout_result_to_json(const ls_holdout_result *r, ls_error *err) LS_MUST_CHECK;

LS_API_END

#endif
