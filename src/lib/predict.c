#include "loopscale/predict.h"

#include <math.h>

int ls_predict_row(const law *l, const sweep_row *row, const char *file, double *pred, ls_error *err)
{
    law_point x = ls_sweep_row_point(row);
    *pred = ls_law_loss(l, &x);
    if (!(isfinite(*pred) && *pred > 0))
        return ls_error_set(err, LS_ERR_DATA, "%s:%ld: the predicted loss is %g, outside the range of double precision",
                            file, row->line, *pred);
    return 0;
}

void ls_predict_acc_init(predict_acc *acc)
{
    acc->n = 0;
    acc->sum_sq = 0;
}

void ls_predict_acc_add(predict_acc *acc, double loss, double pred)
{
    if (isnan(loss))
        return;
    acc->sum_sq += (loss - pred) * (loss - pred);
    acc->n++;
}

int ls_predict_acc_rmse(const predict_acc *acc, const char *file, double *rmse, ls_error *err)
{
    if (acc->n == 0)
        return ls_error_set(err, LS_ERR_DATA, "%s: no run has a loss to compare with", file);
    *rmse = sqrt(acc->sum_sq / (double)acc->n);
    if (!isfinite(*rmse))
        return ls_error_set(err, LS_ERR_DATA, "%s: the RMSE is %g, outside the range of double precision", file,
                            *rmse);
    return 0;
}
