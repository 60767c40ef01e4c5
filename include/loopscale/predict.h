/*
 * loopscale/predict.h — what a law predicts for the runs of a sweep.
 *
 * ls_predict_row() predicts one run's loss and refuses a prediction that is
 * not a positive finite number (an overflow or underflow at an extreme
 * configuration) rather than let it be printed as inf, nan or 0.  A
 * ls_predict_acc accumulates the residuals loss - prediction of the runs that
 * have a loss, one at a time, so that a sweep of any length is scored in
 * constant memory (with ls_sweep_stream).  ls_predict_points() predicts
 * configurations given as arrays, for a front end that holds them (the
 * Python package's Law.predict).  Nothing here allocates.
 *
 * Thread safety: no global state.
 */
#ifndef LOOPSCALE_PREDICT_H
#define LOOPSCALE_PREDICT_H

#include <stddef.h>

#include "loopscale/error.h"
#include "loopscale/export.h"
#include "loopscale/law.h"
#include "loopscale/sweep.h"

LS_API_BEGIN

/* The loss the law predicts for row; file names it in messages.  Errors:
 * LS_ERR_DATA when the prediction leaves double precision. */
int ls_predict_row(const ls_law *l, const ls_sweep_row *row, const char *file, double *pred, ls_error *err) LS_MUST_CHECK;

typedef struct ls_predict_acc {
    size_t n;      /* runs with a loss */
    double scale;  /* the largest |loss - prediction| so far */
    double sum_sq; /* sum of ((loss - prediction) / scale)^2 */
} ls_predict_acc;

void ls_predict_acc_init(ls_predict_acc *acc);
/* Add a run with a loss (a NaN loss, "not given", is skipped). */
void ls_predict_acc_add(ls_predict_acc *acc, double loss, double pred);
/* The root mean square residual over the runs added (NaN when none was;
 * infinity only when it truly leaves double precision). */
double ls_predict_acc_value(const ls_predict_acc *acc);
/* The root mean square residual over the runs added.  Errors: LS_ERR_DATA
 * when no run had a loss or the RMSE leaves double precision. */
int ls_predict_acc_rmse(const ls_predict_acc *acc, const char *file, double *rmse, ls_error *err) LS_MUST_CHECK;

/* n configurations as columns of doubles: n_act and tokens are required;
 * a NULL column takes a sweep's default (n_total = n_act; R, E, k = 1;
 * n_loop unknown, which only R = 1 allows; unique_tokens unlimited). */
typedef struct ls_predict_columns {
    const double *n_act, *n_total, *n_loop, *R, *E, *k, *tokens, *unique_tokens;
} ls_predict_columns;

/* The loss the law predicts at each of n configurations, into loss[0..n).
 * Each configuration is checked as a sweep's row is: every value finite
 * and inside its quantity's limits (ls_sweep_quantity_check), the row's
 * rules (ls_sweep_row_check); and its prediction must be a positive finite
 * number.  The first that is not is an LS_ERR_DATA error naming it by its
 * 0-based index ("configuration 3: n_loop is needed when R > 1"); loss is
 * then undefined.  LS_ERR_USAGE when n_act, tokens or loss is NULL and n > 0. */
int ls_predict_points(const ls_law *l, size_t n, const ls_predict_columns *c, double *loss,
                      ls_error *err) LS_MUST_CHECK;

LS_API_END

#endif
