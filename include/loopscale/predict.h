/*
 * loopscale/predict.h — what a law predicts for the runs of a sweep.
 *
 * ls_predict_row() predicts one run's loss and refuses a prediction that is
 * not a positive finite number (an overflow or underflow at an extreme
 * configuration) rather than let it be printed as inf, nan or 0.  A
 * ls_predict_acc accumulates the residuals loss - prediction of the runs that
 * have a loss, one at a time, so that a sweep of any length is scored in
 * constant memory (with ls_sweep_stream).  Nothing here allocates.
 */
#ifndef LOOPSCALE_PREDICT_H
#define LOOPSCALE_PREDICT_H

#include <stddef.h>

#include "loopscale/error.h"
#include "loopscale/law.h"
#include "loopscale/sweep.h"

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

#endif
