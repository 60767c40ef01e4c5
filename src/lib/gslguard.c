/*
 * gslguard.c — GSL building blocks that fail by status, never through GSL's
 * error handler (gslguard_internal.h).
 */
#include <float.h>
#include <math.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>

#include "gslguard_internal.h"

int ls_cholesky_decomp(gsl_matrix *A)
{
    const size_t n = A->size1;
    if (n != A->size2)
        return GSL_ENOTSQR;
    /* Keep the original in the upper triangle, as GSL does (its rcond
     * estimate reads it). */
    gsl_matrix_transpose_tricpy(CblasLower, CblasUnit, A, A);
    /* Golub and Van Loan's gaxpy Cholesky (Matrix Computations, 4th ed.,
     * algorithm 4.2.1), column by column, with GSL's own BLAS calls. */
    for (size_t j = 0; j < n; j++) {
        gsl_vector_view v = gsl_matrix_subcolumn(A, j, j, n - j);
        if (j > 0) {
            gsl_vector_view w = gsl_matrix_subrow(A, j, 0, j);
            gsl_matrix_view m = gsl_matrix_submatrix(A, j, 0, n - j, j);
            gsl_blas_dgemv(CblasNoTrans, -1.0, &m.matrix, &w.vector, 1.0, &v.vector);
        }
        double ajj = gsl_matrix_get(A, j, j);
        if (!(ajj > 0.0))
            return GSL_EDOM;
        gsl_vector_scale(&v.vector, 1.0 / sqrt(ajj));
    }
    return GSL_SUCCESS;
}

int ls_min_set(gsl_min_fminimizer *s, ls_min_function *f, double x_minimum, double x_lower, double x_upper)
{
    /* gsl_min_fminimizer_set's checks, before it could make them (and call
     * the handler). */
    if (x_minimum <= x_lower || x_minimum >= x_upper)
        return GSL_EINVAL;
    f->bad = 0;
    double f_minimum = GSL_FN_EVAL(&f->fn, x_minimum);
    double f_lower = GSL_FN_EVAL(&f->fn, x_lower);
    double f_upper = GSL_FN_EVAL(&f->fn, x_upper);
    if (f->bad)
        return GSL_EBADFUNC;
    if (f_minimum >= f_lower || f_minimum >= f_upper)
        return GSL_EINVAL;
    return gsl_min_fminimizer_set_with_values(s, &f->fn, x_minimum, f_minimum, x_lower, f_lower, x_upper, f_upper);
}

static double checked(double x, void *params)
{
    ls_min_function *f = params;
    double y = GSL_FN_EVAL(f->inner, x);
    if (isfinite(y))
        return y;
    /* Brent keeps its best point when a trial is worse, so the largest
     * finite value changes nothing but the bracket; the iteration is then
     * reported failed, as GSL would report it. */
    f->bad = 1;
    return DBL_MAX;
}

void ls_min_function_init(ls_min_function *f, const gsl_function *inner)
{
    f->fn.function = checked;
    f->fn.params = f;
    f->inner = inner;
    f->bad = 0;
}

int ls_min_iterate(gsl_min_fminimizer *s, ls_min_function *f)
{
    f->bad = 0;
    int status = gsl_min_fminimizer_iterate(s);
    return f->bad ? GSL_EBADFUNC : status;
}
