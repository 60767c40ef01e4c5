#include "loopscale/predict.h"

#include <math.h>

int ls_predict_row(const ls_law *l, const ls_sweep_row *row, const char *file, double *pred, ls_error *err)
{
    ls_law_point x = ls_sweep_row_point(row);
    *pred = ls_law_loss(l, &x);
    if (!(isfinite(*pred) && *pred > 0))
        return ls_error_set(err, LS_ERR_DATA, "%s:%ld: the predicted loss is %g, outside the range of double precision",
                            file, row->line, *pred);
    return 0;
}

void ls_predict_acc_init(ls_predict_acc *acc)
{
    acc->n = 0;
    acc->scale = 0;
    acc->sum_sq = 1;
}

void ls_predict_acc_add(ls_predict_acc *acc, double loss, double pred)
{
    if (isnan(loss))
        return;
    /* Scaled as LAPACK's dnrm2: residuals near 1e200 have a representable
     * RMSE although their squares overflow. */
    double r = fabs(loss - pred);
    if (r > acc->scale) {
        acc->sum_sq = 1.0 + acc->sum_sq * (acc->scale / r) * (acc->scale / r);
        acc->scale = r;
    } else if (r > 0) {
        acc->sum_sq += (r / acc->scale) * (r / acc->scale);
    }
    acc->n++;
}

double ls_predict_acc_value(const ls_predict_acc *acc)
{
    if (acc->n == 0)
        return NAN;
    return acc->scale == 0 ? 0.0 : acc->scale * sqrt(acc->sum_sq / (double)acc->n);
}

int ls_predict_acc_rmse(const ls_predict_acc *acc, const char *file, double *rmse, ls_error *err)
{
    if (acc->n == 0)
        return ls_error_set(err, LS_ERR_DATA, "%s: no run has a loss to compare with", file);
    *rmse = ls_predict_acc_value(acc);
    if (!isfinite(*rmse))
        return ls_error_set(err, LS_ERR_DATA, "%s: the RMSE is %g, outside the range of double precision", file,
                            *rmse);
    return 0;
}
