/*
 * gslguard_internal.h — GSL building blocks that report failure by status
 * instead of calling GSL's error handler.
 *
 * GSL calls its process-global error handler (by default: print and abort)
 * whenever a routine fails, even one whose caller checks the status.  The
 * library never changes that handler (docs/library.md), so a routine that
 * can fail on the data — a Cholesky factorisation of a matrix that rounding
 * has made indefinite, Brent's method on a flat or non-finite profile — is
 * replaced here by one that returns the status quietly.  Each computes
 * exactly what the GSL routine computes (the same BLAS calls in the same
 * order: bit-for-bit the same results when the GSL routine succeeds), so
 * fits that never reached the handler keep every digit.
 */
#ifndef LOOPSCALE_GSLGUARD_INTERNAL_H
#define LOOPSCALE_GSLGUARD_INTERNAL_H

#include <gsl/gsl_matrix.h>
#include <gsl/gsl_min.h>

/* gsl_linalg_cholesky_decomp1 for the small matrices of a fit (GSL factors
 * those with its unblocked Level-2 algorithm): the factor in the lower
 * triangle, the original matrix in the upper.  GSL_EDOM, quietly, when a
 * pivot is not positive (the lower triangle is then partly overwritten). */
int ls_cholesky_decomp(gsl_matrix *A);

/* A gsl_function whose non-finite values are reported, not passed on to
 * Brent (whose SAFE_FUNC_CALL would call the handler): wrap `inner`, then
 * ls_min_set and ls_min_iterate fail with GSL_EBADFUNC, as
 * gsl_min_fminimizer_set and _iterate do with the handler turned off. */
typedef struct ls_min_function {
    gsl_function fn; /* what the minimiser calls */
    const gsl_function *inner;
    int bad;
} ls_min_function;

void ls_min_function_init(ls_min_function *f, const gsl_function *inner);

/* gsl_min_fminimizer_set, returning GSL_EBADFUNC (a non-finite value) or
 * GSL_EINVAL (the points do not bracket a minimum) quietly. */
int ls_min_set(gsl_min_fminimizer *s, ls_min_function *f, double x_minimum, double x_lower, double x_upper);
int ls_min_iterate(gsl_min_fminimizer *s, ls_min_function *f);

#endif
