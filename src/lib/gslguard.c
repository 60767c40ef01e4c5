/*
 * gslguard.c — GSL building blocks that fail by status, never through GSL's
 * error handler (gslguard_internal.h).
 */
#include <float.h>
#include <math.h>
#include <stdlib.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>

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

/* The solver's state: J^T J, the factor of J^T J + mu D^T D, and the
 * right-hand side. */
typedef struct cholesky_state {
    gsl_matrix *jtj;
    gsl_matrix *factor;
    gsl_vector *rhs;
    gsl_vector *work3p;
    double mu; /* of the factor; negative before the first */
} cholesky_state;

static void cholesky_free(void *vstate)
{
    cholesky_state *st = vstate;
    if (!st)
        return;
    gsl_matrix_free(st->jtj);
    gsl_matrix_free(st->factor);
    gsl_vector_free(st->rhs);
    gsl_vector_free(st->work3p);
    free(st);
}

static void *cholesky_alloc(const size_t n, const size_t p)
{
    (void)n;
    cholesky_state *st = calloc(1, sizeof *st);
    if (!st)
        return NULL;
    st->jtj = gsl_matrix_alloc(p, p);
    st->factor = gsl_matrix_alloc(p, p);
    st->rhs = gsl_vector_alloc(p);
    st->work3p = gsl_vector_alloc(3 * p);
    st->mu = -1.0;
    if (!st->jtj || !st->factor || !st->rhs || !st->work3p) {
        cholesky_free(st);
        return NULL;
    }
    return st;
}

static int cholesky_init(const void *vtrust, void *vstate)
{
    const gsl_multifit_nlinear_trust_state *trust = vtrust;
    cholesky_state *st = vstate;
    gsl_blas_dsyrk(CblasLower, CblasTrans, 1.0, trust->J, 0.0, st->jtj);
    return GSL_SUCCESS;
}

static int cholesky_presolve(const double mu, const void *vtrust, void *vstate)
{
    const gsl_multifit_nlinear_trust_state *trust = vtrust;
    cholesky_state *st = vstate;
    gsl_matrix_tricpy(CblasLower, CblasNonUnit, st->factor, st->jtj);
    if (mu != 0.0)
        for (size_t i = 0; i < trust->diag->size; i++) {
            double di = gsl_vector_get(trust->diag, i);
            *gsl_matrix_ptr(st->factor, i, i) += mu * di * di;
        }
    int status = ls_cholesky_decomp(st->factor);
    if (status != GSL_SUCCESS)
        return status;
    st->mu = mu;
    return GSL_SUCCESS;
}

static int cholesky_solve(const gsl_vector *f, gsl_vector *x, const void *vtrust, void *vstate)
{
    const gsl_multifit_nlinear_trust_state *trust = vtrust;
    cholesky_state *st = vstate;
    gsl_blas_dgemv(CblasTrans, -1.0, trust->J, f, 0.0, st->rhs);
    /* gsl_linalg_cholesky_solve: L c = b, then L^T x = c. */
    gsl_vector_memcpy(x, st->rhs);
    gsl_blas_dtrsv(CblasLower, CblasNoTrans, CblasNonUnit, st->factor, x);
    gsl_blas_dtrsv(CblasLower, CblasTrans, CblasNonUnit, st->factor, x);
    return GSL_SUCCESS;
}

static int cholesky_rcond(double *rcond, void *vstate)
{
    cholesky_state *st = vstate;
    if (st->mu < 0.0) {
        *rcond = 0.0;
        return GSL_EFAILED;
    }
    if (st->mu != 0.0) {
        gsl_matrix_tricpy(CblasLower, CblasNonUnit, st->factor, st->jtj);
        int status = ls_cholesky_decomp(st->factor);
        st->mu = -1.0; /* the factor is no longer that of the last step */
        if (status != GSL_SUCCESS)
            return status;
        st->mu = 0.0;
    }
    double r;
    int status = gsl_linalg_cholesky_rcond(st->factor, &r, st->work3p);
    if (status == GSL_SUCCESS)
        *rcond = sqrt(r);
    return status;
}

static const gsl_multifit_nlinear_solver cholesky_type = {
    "cholesky", cholesky_alloc, cholesky_init, cholesky_presolve, cholesky_solve, cholesky_rcond, cholesky_free,
};

const gsl_multifit_nlinear_solver *ls_nlinear_solver_cholesky = &cholesky_type;

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
