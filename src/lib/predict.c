#include "loopscale/predict.h"

#include <math.h>
#include <stdio.h>

#include "numtext_internal.h"

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

/* The value of column c at i, or its default. */
static double column(const double *c, size_t i, double absent)
{
    return c ? c[i] : absent;
}

int ls_predict_points(const ls_law *l, size_t n, const ls_predict_columns *c, double *loss, ls_error *err)
{
    if (n > 0 && (!c || !c->n_act || !c->tokens || !loss))
        return ls_error_set(err, LS_ERR_USAGE, "give n_act, tokens and room for the losses");
    for (size_t i = 0; i < n; i++) {
        ls_sweep_row row = {.n_act = c->n_act[i],
                            .n_total = column(c->n_total, i, c->n_act[i]),
                            .n_loop = column(c->n_loop, i, NAN),
                            .R = column(c->R, i, 1),
                            .E = column(c->E, i, 1),
                            .k = column(c->k, i, 1),
                            .tokens = c->tokens[i],
                            .loss = NAN,
                            .unique_tokens = column(c->unique_tokens, i, NAN)};
        /* NaN is "not given" in a sweep's row; here only n_loop may be
         * unknown (where R = 1). */
        static const ls_sweep_quantity required[] = {LS_SWEEP_N_ACT, LS_SWEEP_N_TOTAL, LS_SWEEP_R, LS_SWEEP_E,
                                                     LS_SWEEP_K, LS_SWEEP_TOKENS};
        for (size_t j = 0; j < sizeof required / sizeof *required; j++)
            if (isnan(ls_sweep_row_value(&row, required[j])))
                return ls_error_set(err, LS_ERR_DATA, "configuration %zu: %s is not a number (nan)", i,
                                    ls_sweep_quantity_name(required[j]));
        if (c->unique_tokens && isnan(row.unique_tokens))
            row.unique_tokens = 0; /* unlimited, as an empty cell */
        ls_sweep_quantity which;
        char reason[160], num[NUMTEXT_DOUBLE_MAX];
        if (ls_sweep_row_check(&row, &which, reason, sizeof reason) != 0) {
            double v = ls_sweep_row_value(&row, which);
            if (isnan(v))
                return ls_error_set(err, LS_ERR_DATA, "configuration %zu: %s %s", i, ls_sweep_quantity_name(which),
                                    reason);
            return ls_error_set(err, LS_ERR_DATA, "configuration %zu: %s %s %s", i, ls_sweep_quantity_name(which),
                                ls_numtext_format_double(num, v), reason);
        }
        ls_law_point x = ls_sweep_row_point(&row);
        loss[i] = ls_law_loss(l, &x);
        if (!(isfinite(loss[i]) && loss[i] > 0))
            return ls_error_set(err, LS_ERR_DATA, "configuration %zu: the predicted loss is %g, outside the range of "
                                "double precision", i, loss[i]);
    }
    return 0;
}
