/*
 * akima.c — Akima's interpolant and its exact minimum (akima_internal.h).
 */
#include "akima_internal.h"

#include <float.h>
#include <math.h>

void ls_akima_slopes(const double *x, const double *y, size_t k, double *scratch, double *t)
{
    /* m[j + 2] is the secant of piece j (j = 0 .. k-2); m[0], m[1] and
     * m[k+1], m[k+2] extend them linearly beyond the ends. */
    double *m = scratch;
    for (size_t j = 0; j + 1 < k; j++)
        m[j + 2] = (y[j + 1] - y[j]) / (x[j + 1] - x[j]);
    m[1] = 2 * m[2] - m[3];
    m[0] = 2 * m[1] - m[2];
    m[k + 1] = 2 * m[k] - m[k - 1];
    m[k + 2] = 2 * m[k + 1] - m[k];
    /* The weights of knot i: f1 = |m_{i+1} - m_i|, f2 = |m_{i-1} - m_{i-2}|. */
    double largest = 0;
    for (size_t i = 0; i < k; i++)
        largest = fmax(largest, fabs(m[i + 3] - m[i + 2]) + fabs(m[i + 1] - m[i]));
    for (size_t i = 0; i < k; i++) {
        double f1 = fabs(m[i + 3] - m[i + 2]), f2 = fabs(m[i + 1] - m[i]);
        t[i] = f1 + f2 > 1e-9 * largest ? (f1 * m[i + 1] + f2 * m[i + 2]) / (f1 + f2) : 0.5 * (m[i] + m[i + 3]);
    }
}

/* Piece i's value at s = u - x[i]. */
static double piece(const double *x, const double *y, const double *t, size_t i, double s)
{
    double h = x[i + 1] - x[i], m = (y[i + 1] - y[i]) / h;
    double c = (3 * m - 2 * t[i] - t[i + 1]) / h, d = (t[i] + t[i + 1] - 2 * m) / (h * h);
    return y[i] + s * (t[i] + s * (c + s * d));
}

double ls_akima_eval(const double *x, const double *y, const double *t, size_t k, double u)
{
    size_t lo = 0, hi = k - 1; /* x[lo] <= u < x[hi], by bisection */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (u < x[mid])
            hi = mid;
        else
            lo = mid;
    }
    return piece(x, y, t, lo, u - x[lo]);
}

double ls_akima_min(const double *x, const double *y, const double *t, size_t k, double *at, long *knot)
{
    double best = y[0];
    *at = x[0];
    *knot = 0;
    for (size_t i = 0; i + 1 < k; i++) {
        double h = x[i + 1] - x[i], m = (y[i + 1] - y[i]) / h;
        double c = (3 * m - 2 * t[i] - t[i + 1]) / h, d = (t[i] + t[i + 1] - 2 * m) / (h * h);
        /* The knot at the piece's right end first, so that a stationary
         * point must beat it too. */
        if (y[i + 1] < best) {
            best = y[i + 1];
            *at = x[i + 1];
            *knot = (long)(i + 1);
        }
        /* p'(s) = t_i + 2 c s + 3 d s^2 = 0: the roots A s^2 + B s + C by
         * the form that loses no digits to cancellation (q, then C / q). */
        double A = 3 * d, B = 2 * c, C = t[i], roots[2];
        int nroots = 0;
        if (A == 0) {
            if (B != 0)
                roots[nroots++] = -C / B;
        } else {
            double disc = B * B - 4 * A * C;
            if (disc >= 0) {
                double q = -0.5 * (B + copysign(sqrt(disc), B));
                roots[nroots++] = q / A;
                if (q != 0)
                    roots[nroots++] = C / q;
            }
        }
        for (int r = 0; r < nroots; r++) {
            double s = roots[r];
            if (!(s > 0 && s < h))
                continue;
            /* A dip below the best by no more than rounding (beside a
             * knot whose derivative is 1e-16 where it should be 0) is
             * none: the knot stays the minimum, and an end stays an end. */
            double v = piece(x, y, t, i, s);
            if (v < best - 4 * DBL_EPSILON * fabs(best)) {
                best = v;
                *at = x[i] + s;
                *knot = -1;
            }
        }
    }
    return best;
}
