/*
 * fit_kernel_internal.h — the fitter's inner loops for the plain dense law
 * (ln Lhat = lse(ln A - alpha ln N, ln B - beta ln D, ln c), every run at
 * R = 1, E = 1, residuals in log space), over structure-of-arrays rows, with
 * exp and log vectorised (glibc's libmvec).  fit_kernel.c is compiled twice,
 * for AVX2 + FMA and for baseline x86-64 (or plain C elsewhere), and
 * ls_fit_kernel() picks one at run time; only that file is built with the
 * vector flags.  The objective agrees with the scalar law core to about
 * 1e-15 relative (unit test); results do not depend on the thread count.
 */
#ifndef LOOPSCALE_FIT_KERNEL_INTERNAL_H
#define LOOPSCALE_FIT_KERNEL_INTERNAL_H

#include <stddef.h>

/* The rows: ln N_act, ln D, ln L and the weight (bootstrap multiplicity,
 * 1 otherwise) of each run.  `scratch` holds 6 n doubles for the model pass. */
typedef struct ls_dense_rows {
    size_t n;
    const double *ln_n, *ln_d, *target, *weight;
    double *scratch;
} ls_dense_rows;

/* theta = (ln A, alpha, ln B, beta, ln c).  The objective is
 * scale * sum_i w_i huber_delta(r_i); mse is scale 2 with delta = +inf. */
typedef struct ls_dense_kernel {
    const char *name;
    /* The objective (value pass); not finite when the law cannot be evaluated. */
    double (*value)(const ls_dense_rows *rows, const double theta[5], double delta, double scale);
    /* The trial pass: the objective exactly as value() gives it, and each
     * run's shares and coefficients kept in rows->scratch for sums(). */
    double (*trial)(const ls_dense_rows *rows, const double theta[5], double delta, double scale);
    /* The gradient g, IRLS's model M and the exact Hessian H at the point
     * of the last trial() on these rows (see model). */
    void (*sums)(const ls_dense_rows *rows, double g[5], double M[25], double H[25]);
    /* The derivative pass (trial, then sums): the gradient g, IRLS's model M and the exact
     * Hessian H of the objective in theta (5 x 5, row-major, see fit.c). */
    void (*model)(const ls_dense_rows *rows, const double theta[5], double delta, double scale, double g[5],
                  double M[25], double H[25]);
    /* sum_i c_i a_i b_i into *out_c and sum_i d_i a_i b_i into *out_d (the
     * p x p sums of the other laws' derivative pass). */
    void (*dot3x2)(size_t n, const double *c, const double *d, const double *a, const double *b, double *out_c,
                   double *out_d);
} ls_dense_kernel;

/* The copies of the kernel (fit_kernel.c): baseline, and AVX2 + FMA where
 * the build has it (LS_KERNEL_HAVE_AVX2). */
extern const ls_dense_kernel ls_dense_kernel_base;
extern const ls_dense_kernel ls_dense_kernel_avx2;

/* The fastest kernel this CPU runs. */
const ls_dense_kernel *ls_fit_kernel(void);
/* The portable one (for tests that compare the two). */
const ls_dense_kernel *ls_fit_kernel_portable(void);

#endif
