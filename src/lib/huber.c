#include "huber_internal.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "gslguard_internal.h"

static double ugaussian_p(double x) { return 0.5 * erfc(-x / sqrt(2.0)); }
static double ugaussian_pdf(double x) { return exp(-0.5 * x * x) / sqrt(2.0 * M_PI); }

void ls_huber_blurred(double r, double h, double delta, double *dpsi, double *psi2)
{
    if (isinf(delta)) {
        if (dpsi)
            *dpsi = 1.0;
        if (psi2)
            *psi2 = r * r + h * h;
        return;
    }
    if (!(h > 0)) {
        int inside = fabs(r) <= delta;
        if (dpsi)
            *dpsi = inside;
        if (psi2)
            *psi2 = inside ? r * r : delta * delta;
        return;
    }
    /* x = r + h z is inside [-delta, delta] for z in [a, b]. */
    double a = (-delta - r) / h, b = (delta - r) / h;
    double pa = ugaussian_p(a), pb = ugaussian_p(b);
    /* Both in the upper tail: the difference from the complements keeps
     * its digits. */
    double inside = a > 0 ? ugaussian_p(-a) - ugaussian_p(-b) : pb - pa;
    if (dpsi)
        *dpsi = inside;
    if (psi2) {
        double fa = ugaussian_pdf(a), fb = ugaussian_pdf(b);
        /* E[(r + h z)^2; a <= z <= b] = r^2 P + 2 r h (phi(a) - phi(b)) + h^2 (P + a phi(a) - b phi(b)). */
        double second = r * r * inside + 2.0 * r * h * (fa - fb) + h * h * (inside + a * fa - b * fb);
        *psi2 = second + delta * delta * (1.0 - inside);
    }
}

double ls_huber_bandwidth(const double *r, size_t n)
{
    if (n < 2)
        return 0.0;
    double *sorted = malloc(n * sizeof *sorted);
    if (!sorted)
        return NAN;
    memcpy(sorted, r, n * sizeof *sorted);
    gsl_sort(sorted, 1, n);
    double iqr = gsl_stats_quantile_from_sorted_data(sorted, 1, n, 0.75) -
                 gsl_stats_quantile_from_sorted_data(sorted, 1, n, 0.25);
    double sd = gsl_stats_sd(sorted, 1, n);
    free(sorted);
    double spread = iqr > 0 ? fmin(sd, iqr / 1.34) : sd;
    double z = gsl_cdf_ugaussian_Pinv(0.975), phi0 = ugaussian_pdf(0.0);
    double hp = pow((double)n, -1.0 / 3.0) * pow(z, 2.0 / 3.0) * cbrt(1.5 * phi0 * phi0);
    hp = fmin(hp, 0.49); /* below 8 runs the probability band would pass 1 */
    return spread * 2.0 * gsl_cdf_ugaussian_Pinv(0.5 + hp);
}

/* The inverse of the symmetric positive definite p x p matrix m (row-major,
 * overwritten with it); -1 when it is not positive definite. */
static int spd_invert(size_t p, double *m)
{
    gsl_matrix_view v = gsl_matrix_view_array(m, p, p);
    if (ls_cholesky_decomp(&v.matrix) != GSL_SUCCESS || gsl_linalg_cholesky_invert(&v.matrix) != GSL_SUCCESS)
        return -1;
    for (size_t a = 0; a < p; a++)
        if (!isfinite(m[a * p + a]) || !(m[a * p + a] > 0))
            return -1;
    return 0;
}

int ls_huber_covariance(size_t n, size_t p, const double *cols, size_t stride, const double *r, double delta,
                        double *cov, double *hinv)
{
    if (n <= p || p == 0)
        return -1;
    double h = isinf(delta) ? 0.0 : ls_huber_bandwidth(r, n);
    double *H = calloc(3 * p * p, sizeof *H);
    if (!H || isnan(h)) {
        free(H);
        return -1;
    }
    double *B = H + p * p, *T = B + p * p;
    for (size_t i = 0; i < n; i++) {
        double dpsi, psi = isinf(delta) ? r[i] : fmax(-delta, fmin(delta, r[i]));
        ls_huber_blurred(r[i], h, delta, &dpsi, NULL);
        for (size_t a = 0; a < p; a++)
            for (size_t b = 0; b <= a; b++) {
                double jj = cols[a * stride + i] * cols[b * stride + i];
                H[a * p + b] += dpsi * jj;
                B[a * p + b] += psi * psi * jj;
            }
    }
    double small = (double)n / (double)(n - p);
    for (size_t a = 0; a < p; a++)
        for (size_t b = 0; b <= a; b++) {
            H[b * p + a] = H[a * p + b];
            B[a * p + b] = B[b * p + a] = small * B[a * p + b];
        }
    int status = spd_invert(p, H);
    if (status == 0) {
        /* T = H^-1 B, then V = T H^-1 (symmetric up to rounding: averaged). */
        for (size_t a = 0; a < p; a++)
            for (size_t b = 0; b < p; b++) {
                double s = 0.0;
                for (size_t k = 0; k < p; k++)
                    s += H[a * p + k] * B[k * p + b];
                T[a * p + b] = s;
            }
        for (size_t a = 0; a < p; a++)
            for (size_t b = 0; b <= a; b++) {
                double x = 0.0, y = 0.0;
                for (size_t k = 0; k < p; k++) {
                    x += T[a * p + k] * H[k * p + b];
                    y += T[b * p + k] * H[k * p + a];
                }
                cov[a * p + b] = cov[b * p + a] = 0.5 * (x + y);
            }
        if (hinv)
            memcpy(hinv, H, p * p * sizeof *H);
    }
    free(H);
    return status;
}
