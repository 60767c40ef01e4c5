/*
 * fit_kernel.c — the plain dense law's value and derivative passes over
 * structure-of-arrays rows (fit_kernel_internal.h).  Built three times by
 * CMake, with LS_KERNEL_VARIANT naming the copy (avx512, avx2, base), and
 * only this file gets the vector flags: -O3 -fno-math-errno
 * -fno-trapping-math -fopenmp-simd (and -mavx2 -mfma for the avx2 copy,
 * -mavx512f -mavx512dq -mavx512vl -mfma with 8-lane vectors preferred for
 * the avx512 one).  No -ffast-math: it would also break isfinite
 * and reorder sums the compiler was not told it may reorder; the `omp simd
 * reduction` pragmas say which sums may be split into vector lanes.
 *
 * Per run: t1 = ln A - alpha ln N, t2 = ln B - beta ln D, t3 = ln c; the
 * shares w_k = e^(t_k - top) / sum, ln Lhat = top + ln sum; r = ln Lhat - ln L.
 * The gradient of ln Lhat in theta is J = (w1, -w1 ln N, w2, -w2 ln D, w3)
 * and its Hessian C - J J' with C the shares' second moments (sum_k w_k a_k a_k').
 */
#include "fit_kernel_internal.h"

#include <math.h>

#ifndef LS_KERNEL_VARIANT
#error "LS_KERNEL_VARIANT must name this copy of the kernel"
#endif
#define LS_CAT2(a, b) a##_##b
#define LS_CAT(a, b) LS_CAT2(a, b)
#define LS_STR2(a) #a
#define LS_STR(a) LS_STR2(a)
#define KERNEL_NAME(name) LS_CAT(name, LS_KERNEL_VARIANT)

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__)
/* glibc's libmvec has 2-, 4- and 8-lane variants of exp and log; its math.h
 * declares them only under -ffast-math, so declare them here. */
__attribute__((simd("notinbranch"))) double exp(double);
__attribute__((simd("notinbranch"))) double log(double);
#endif

/* Huber's rho (delta = +inf: r^2 / 2), unscaled. */
static inline double rho(double r, double delta)
{
    double a = fabs(r);
    return a <= delta ? 0.5 * r * r : delta * (a - 0.5 * delta);
}

/* The shares' exponentials e_k = e^(t_k - top): the top term's is e^0 = 1
 * exactly, so only the other two are computed (a quarter of the pass's
 * exp and log calls saved, bit for bit the same sums).  Ties pick the same
 * term as the max above. */
#define LS_SHARES(t1, t2, t3, top, e1, e2, e3)                                                                    \
    double top12 = t1 > t2 ? t1 : t2;                                                                          \
    int third = t3 > top12;                                                                                      \
    int first = !third && t1 > t2;                                                                             \
    double top = third ? t3 : top12;                                                                           \
    double x1 = t1 - top, x2 = t2 - top, x3 = t3 - top;                                                        \
    double ep = exp(third ? x1 : (first ? x2 : x1)), eq = exp(third ? x2 : x3);                               \
    double e1 = third ? ep : (first ? 1.0 : ep), e2 = third ? eq : (first ? ep : 1.0), e3 = third ? 1.0 : eq

static double KERNEL_NAME(value)(const ls_dense_rows *rows, const double theta[5], double delta, double scale)
{
    const double *restrict ln_n = rows->ln_n, *restrict ln_d = rows->ln_d;
    const double *restrict y = rows->target, *restrict wt = rows->weight;
    double la = theta[0], alpha = theta[1], lb = theta[2], beta = theta[3], lc = theta[4];
    double sum = 0.0;
    size_t n = rows->n;
#pragma omp simd reduction(+ : sum)
    for (size_t i = 0; i < n; i++) {
        double t1 = la - alpha * ln_n[i], t2 = lb - beta * ln_d[i];
        LS_SHARES(t1, t2, lc, top, e1, e2, e3);
        double s = e1 + e2 + e3;
        double r = top + log(s) - y[i];
        sum += wt[i] * rho(r, delta);
    }
    return scale * sum;
}

/* The trial pass: the objective, as value() computes it bit for bit, and
 * each run's shares and coefficients into the scratch arrays, from which
 * sums() forms the derivative models if the solver keeps this point.  One
 * pass of exp and log per point tried, not two per point kept. */
static double KERNEL_NAME(trial)(const ls_dense_rows *rows, const double theta[5], double delta, double scale)
{
    size_t n = rows->n;
    const double *restrict ln_n = rows->ln_n, *restrict ln_d = rows->ln_d;
    const double *restrict y = rows->target, *restrict wt = rows->weight;
    double *restrict W1 = rows->scratch, *restrict W2 = W1 + n, *restrict W3 = W2 + n;
    double *restrict P = W3 + n, *restrict C1 = P + n, *restrict C2 = C1 + n, *restrict R = C2 + n;
    double la = theta[0], alpha = theta[1], lb = theta[2], beta = theta[3], lc = theta[4];
    /* Two loops: the first holds only what the vector exp and log need
     * (every vector register is the caller's to save around those calls),
     * and keeps e1, e2, e3 and ln Lhat = top + ln(e1 + e2 + e3) in the
     * scratch; the second, without calls, forms the rest. */
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        double t1 = la - alpha * ln_n[i], t2 = lb - beta * ln_d[i];
        LS_SHARES(t1, t2, lc, top, e1, e2, e3);
        W1[i] = e1;
        W2[i] = e2;
        W3[i] = e3;
        P[i] = top + log(e1 + e2 + e3);
    }
    double sum = 0.0;
    /* Each run's shares, psi, psi/r - psi (IRLS) and rho'' - psi (exact), weighted. */
#pragma omp simd reduction(+ : sum)
    for (size_t i = 0; i < n; i++) {
        double e1 = W1[i], e2 = W2[i], e3 = W3[i];
        double inv = 1.0 / (e1 + e2 + e3);
        double r = P[i] - y[i];
        sum += wt[i] * rho(r, delta);
        double a = fabs(r);
        int inside = a <= delta;
        double psi = inside ? r : (r < 0 ? -delta : delta);
        double second = inside ? 1.0 : 0.0;
        double irls = inside ? 1.0 : delta / a;
        double w = scale * wt[i];
        W1[i] = e1 * inv;
        W2[i] = e2 * inv;
        W3[i] = e3 * inv;
        P[i] = w * psi;
        C1[i] = w * (irls - psi);
        C2[i] = w * (second - psi);
        R[i] = r;
    }
    return scale * sum;
}

/* The derivative models from the scratch arrays of the last trial pass. */
static void KERNEL_NAME(sums)(const ls_dense_rows *rows, double g[5], double M[25], double H[25])
{
    size_t n = rows->n;
    const double *restrict ln_n = rows->ln_n, *restrict ln_d = rows->ln_d;
    const double *restrict W1 = rows->scratch, *restrict W2 = W1 + n, *restrict W3 = W2 + n;
    const double *restrict P = W3 + n, *restrict C1 = P + n, *restrict C2 = C1 + n;
    /* Pass two: the sums. */
    double g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, q1 = 0, q3 = 0;
    double m00 = 0, m01 = 0, m02 = 0, m03 = 0, m04 = 0, m11 = 0, m12 = 0, m13 = 0, m14 = 0, m22 = 0, m23 = 0,
           m24 = 0, m33 = 0, m34 = 0, m44 = 0;
    double h00 = 0, h01 = 0, h02 = 0, h03 = 0, h04 = 0, h11 = 0, h12 = 0, h13 = 0, h14 = 0, h22 = 0, h23 = 0,
           h24 = 0, h33 = 0, h34 = 0, h44 = 0;
#pragma omp simd reduction(+ : g0, g1, g2, g3, g4, q1, q3, m00, m01, m02, m03, m04, m11, m12, m13, m14, m22, m23, \
                               m24, m33, m34, m44, h00, h01, h02, h03, h04, h11, h12, h13, h14, h22, h23, h24, h33, \
                               h34, h44)
    for (size_t i = 0; i < n; i++) {
        double j0 = W1[i], j1 = -W1[i] * ln_n[i], j2 = W2[i], j3 = -W2[i] * ln_d[i], j4 = W3[i];
        double p = P[i], c1 = C1[i], c2 = C2[i];
        g0 += p * j0;
        g1 += p * j1;
        g2 += p * j2;
        g3 += p * j3;
        g4 += p * j4;
        q1 += p * j1 * -ln_n[i]; /* p w1 ln N^2 */
        q3 += p * j3 * -ln_d[i]; /* p w2 ln D^2 */
        m00 += c1 * j0 * j0; m01 += c1 * j0 * j1; m02 += c1 * j0 * j2; m03 += c1 * j0 * j3; m04 += c1 * j0 * j4;
        m11 += c1 * j1 * j1; m12 += c1 * j1 * j2; m13 += c1 * j1 * j3; m14 += c1 * j1 * j4;
        m22 += c1 * j2 * j2; m23 += c1 * j2 * j3; m24 += c1 * j2 * j4;
        m33 += c1 * j3 * j3; m34 += c1 * j3 * j4; m44 += c1 * j4 * j4;
        h00 += c2 * j0 * j0; h01 += c2 * j0 * j1; h02 += c2 * j0 * j2; h03 += c2 * j0 * j3; h04 += c2 * j0 * j4;
        h11 += c2 * j1 * j1; h12 += c2 * j1 * j2; h13 += c2 * j1 * j3; h14 += c2 * j1 * j4;
        h22 += c2 * j2 * j2; h23 += c2 * j2 * j3; h24 += c2 * j2 * j4;
        h33 += c2 * j3 * j3; h34 += c2 * j3 * j4; h44 += c2 * j4 * j4;
    }
    g[0] = g0; g[1] = g1; g[2] = g2; g[3] = g3; g[4] = g4;
    /* The shares' second moments weighted by psi: (0,0) g0, (0,1) g1,
     * (1,1) q1, (2,2) g2, (2,3) g3, (3,3) q3, (4,4) g4. */
    double c[25] = {0};
    c[0] = g0; c[1] = c[5] = g1; c[6] = q1; c[12] = g2; c[13] = c[17] = g3; c[18] = q3; c[24] = g4;
    double mu[15] = {m00, m01, m02, m03, m04, m11, m12, m13, m14, m22, m23, m24, m33, m34, m44};
    double hu[15] = {h00, h01, h02, h03, h04, h11, h12, h13, h14, h22, h23, h24, h33, h34, h44};
    int k = 0;
    for (int a = 0; a < 5; a++)
        for (int b = a; b < 5; b++, k++) {
            M[a * 5 + b] = M[b * 5 + a] = mu[k] + c[a * 5 + b];
            H[a * 5 + b] = H[b * 5 + a] = hu[k] + c[a * 5 + b];
        }
}

static void KERNEL_NAME(model)(const ls_dense_rows *rows, const double theta[5], double delta, double scale,
                               double g[5], double M[25], double H[25])
{
    (void)KERNEL_NAME(trial)(rows, theta, delta, scale);
    KERNEL_NAME(sums)(rows, g, M, H);
}

/* sum_i c_i a_i b_i and sum_i d_i a_i b_i: the general laws' p x p sums
 * (fit.c's model_at), one pair of columns at a time. */
static void KERNEL_NAME(dot3x2)(size_t n, const double *c, const double *d, const double *a, const double *b,
                                double *out_c, double *out_d)
{
    const double *restrict cc = c, *restrict dd = d, *restrict aa = a, *restrict bb = b;
    double sc = 0.0, sd = 0.0;
#pragma omp simd reduction(+ : sc, sd)
    for (size_t i = 0; i < n; i++) {
        double ab = aa[i] * bb[i];
        sc += cc[i] * ab;
        sd += dd[i] * ab;
    }
    *out_c = sc;
    *out_d = sd;
}

#include "fit_kernel_mapped.c"

const ls_kernel KERNEL_NAME(ls_kernel) = {LS_STR(LS_KERNEL_VARIANT), KERNEL_NAME(value),         KERNEL_NAME(trial),
                                          KERNEL_NAME(sums),          KERNEL_NAME(model),         KERNEL_NAME(dot3x2),
                                          KERNEL_NAME(mapped_trial),  KERNEL_NAME(mapped_gradient), KERNEL_NAME(gram)};
