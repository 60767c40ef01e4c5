/*
 * fit_kernel_internal.h — the fitter's inner loops over structure-of-arrays
 * rows, with exp and log vectorised (glibc's libmvec), residuals in log
 * space: the plain dense law (ln Lhat = lse(ln A - alpha ln N, ln B - beta
 * ln D, ln c), every run at R = 1, E = 1; fit_kernel.c) and the looped and
 * MoE laws (bases dense and moe under every mapping; fit_kernel_mapped.c).
 * The two files are compiled three times, for AVX-512 (8 lanes), for
 * AVX2 + FMA (4) and for baseline x86-64 (2; plain C elsewhere), and
 * ls_fit_kernel() picks one at run time; only they are built with the
 * vector flags.  The objective agrees with the scalar law core to about
 * 1e-15 relative (unit test).  libmvec's variants differ in the last bits,
 * so a fit's last digits may differ between CPUs, never between thread
 * counts.
 */
#ifndef LOOPSCALE_FIT_KERNEL_INTERNAL_H
#define LOOPSCALE_FIT_KERNEL_INTERNAL_H

#include <stddef.h>

#include "loopscale/law.h"

/* The rows: ln N_act, ln D, ln L and the weight (bootstrap multiplicity,
 * 1 otherwise) of each run.  `scratch` holds LS_DENSE_SCRATCH n doubles for
 * the model pass. */
enum { LS_DENSE_SCRATCH = 7 };
typedef struct ls_dense_rows {
    size_t n;
    const double *ln_n, *ln_d, *target, *weight;
    double *scratch;
} ls_dense_rows;

/* After a trial pass: each run's share of Lhat held by term 0 (A N^-alpha),
 * 1 (B D^-beta) or 2 (c), the first three of the scratch's arrays, and each run's
 * scale w psi(r) (its term of the gradient, per unit of d r), the fourth. */
static inline const double *ls_dense_share(const ls_dense_rows *rows, size_t term)
{
    return rows->scratch + term * rows->n;
}
static inline const double *ls_dense_weighted_psi(const ls_dense_rows *rows)
{
    return rows->scratch + 3 * rows->n;
}
/* ... and each run's residual r = ln Lhat - ln L, the seventh. */
static inline const double *ls_dense_residual(const ls_dense_rows *rows) { return rows->scratch + 6 * rows->n; }

/* The looped and MoE laws: ln Lhat = lse(t1, t2, ln c) with
 *   t1 = ln A + delta ln Ehat - (alpha + gamma ln Ehat) ln N_eff,
 *   t2 = ln B + omega ln Ehat - (beta + zeta ln Ehat) ln D,
 * N_eff = N_act + the mapping's gain (law.c), ln Ehat = 0 for dense laws. */
typedef struct ls_mapped_rows {
    size_t n;
    /* Per run: ln N_act, N_act, N_loop, R - 1, ln R (log1p(R - 1) under the
     * log mapping; read by the power and log mappings only), ln(N_act /
     * N_total), ln D, ln L and the weight. */
    const double *ln_n, *n_act, *n_loop, *y, *ln_r, *ln_m, *ln_d, *target, *weight;
    /* MoE laws: each run's E as an index into the tables, which the caller
     * sets per point: ln Ehat, and d ln Ehat / d u for u = ln(E_max - 1)
     * and u = ln E_start (these two before the gradient pass). */
    const int *e_index;
    double *ln_e, *fe_max, *fe_start;
    double *scratch; /* LS_MAPPED_SCRATCH arrays of n */
} ls_mapped_rows;

/* The scratch's arrays; after a trial the first three are what the
 * derivative models need besides the columns: gp = scale w psi(r), cm =
 * scale w psi(r) / r (IRLS's weight) and r. */
enum {
    LS_MAPPED_GP, LS_MAPPED_CM, LS_MAPPED_RESID, LS_MAPPED_W1, LS_MAPPED_W2, LS_MAPPED_W3, LS_MAPPED_LN_NEFF,
    LS_MAPPED_NEFF, LS_MAPPED_S, LS_MAPPED_EM, LS_MAPPED_SCRATCH
};

/* The law at one point, in the kernel's terms (ln A, ln B, ln c as
 * ls_law_prepare forms them; the other parameters natural). */
typedef struct ls_mapped_point {
    ls_law_mapping mapping;
    int moe;
    double ln_a, alpha, ln_b, beta, ln_c, delta, gamma, omega, zeta, phi, kappa1, kappa2, theta;
} ls_mapped_point;

/* The parameters whose columns mapped_gradient writes for a law of this
 * base (dense or moe) and mapping, as bits 1u << ls_law_param. */
unsigned ls_mapped_kernel_params(ls_law_kind kind);

/* theta = (ln A, alpha, ln B, beta, ln c).  The objective is
 * scale * sum_i w_i huber_delta(r_i); mse is scale 2 with delta = +inf. */
typedef struct ls_kernel {
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
     * p x p sums of the law core's second-order pass, fit.c's model_at). */
    void (*dot3x2)(size_t n, const double *c, const double *d, const double *a, const double *b, double *out_c,
                   double *out_d);
    /* The looped and MoE laws (below): the trial pass, the objective with
     * each run's intermediates kept in rows->scratch, and the gradient pass
     * at the point of the last trial. */
    double (*mapped_trial)(const ls_mapped_rows *rows, const ls_mapped_point *pt, double delta, double scale);
    /* col[j] receives d r / d u_j for each j of ls_mapped_kernel_params;
     * columns the caller does not need may all point at one spare array. */
    void (*mapped_gradient)(const ls_mapped_rows *rows, const ls_mapped_point *pt, double *const col[]);
    /* g_a = sum_i gp_i J_ai and M_ab = sum_i cm_i J_ai J_bi (p x p,
     * row-major) over the columns cols[0 .. p-1]. */
    void (*gram)(size_t n, size_t p, const double *const cols[], const double *cm, const double *gp, double *g,
                 double *M);
} ls_kernel;

/* The copies of the kernel (fit_kernel.c): baseline, AVX2 + FMA and
 * AVX-512 (8 lanes) where the build has them (LS_KERNEL_HAVE_AVX2,
 * LS_KERNEL_HAVE_AVX512). */
extern const ls_kernel ls_kernel_base;
extern const ls_kernel ls_kernel_avx2;
extern const ls_kernel ls_kernel_avx512;

enum { LS_KERNEL_COPIES = 3 };
/* Every copy this CPU runs, fastest first and the baseline last (tests
 * compare them all); returns how many. */
size_t ls_fit_kernels(const ls_kernel *out[LS_KERNEL_COPIES]);
/* The fastest of them. */
const ls_kernel *ls_fit_kernel(void);

#endif
