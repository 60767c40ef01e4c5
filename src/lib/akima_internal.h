/*
 * akima_internal.h — Akima's interpolant and its exact minimum.
 *
 * H. Akima (1970), "A new method of interpolation and smooth curve fitting
 * based on local procedures" (J. ACM 17(4)): a piecewise cubic Hermite
 * curve through the knots (x_i, y_i) whose derivative at each knot is a
 * weighted mean of the secant slopes either side,
 *
 *   m_i = (y_{i+1} - y_i) / (x_{i+1} - x_i),
 *   t_i = (|m_{i+1} - m_i| m_{i-1} + |m_{i-1} - m_{i-2}| m_i)
 *         / (|m_{i+1} - m_i| + |m_{i-1} - m_{i-2}|),
 *
 * with two slopes invented beyond each end by extending the secants
 * linearly (m_{-1} = 2 m_0 - m_1, m_{-2} = 2 m_{-1} - m_0, likewise on the
 * right), as Akima's paper does.  These are the numbers of
 * scipy.interpolate.Akima1DInterpolator (scipy 1.10, the method Porian et
 * al. 2024 interpolate IsoFLOP curves with), down to its treatment of a
 * knot where both weights vanish: there (both sums at most 1e-9 of the
 * largest over all knots) t_i = (m_{i-2} + m_{i+1}) / 2.  GSL's
 * gsl_interp_akima has the same end slopes but needs five knots and makes
 * such a piece a straight line, so it is not used.
 *
 * Between knots i and i+1 (h = x_{i+1} - x_i, s = x - x_i) the curve is
 *   y_i + t_i s + c_i s^2 + d_i s^3,
 *   c_i = (3 m_i - 2 t_i - t_{i+1}) / h,  d_i = (t_i + t_{i+1} - 2 m_i) / h^2.
 *
 * It reproduces a straight line through any knots and a parabola through
 * equally spaced knots (the secants of a parabola then change by equal
 * steps, so each t_i is their mean, the parabola's own derivative, and the
 * extended end secants are the parabola's too); not a parabola through
 * unequally spaced ones.
 */
#ifndef LOOPSCALE_AKIMA_INTERNAL_H
#define LOOPSCALE_AKIMA_INTERNAL_H

#include <stddef.h>

/* The knot derivatives t[0..k) through (x[i], y[i]), x strictly
 * increasing, k >= 3; scratch holds k + 3 doubles. */
void ls_akima_slopes(const double *x, const double *y, size_t k, double *scratch, double *t);

/* The curve at u, x[0] <= u <= x[k-1] (held at the end pieces beyond). */
double ls_akima_eval(const double *x, const double *y, const double *t, size_t k, double u);

/* The curve's lowest value on [x[0], x[k-1]], and where it lies (*at):
 * the lowest of the knots and of the stationary points inside each piece,
 * found in closed form from the piece's quadratic derivative (a point
 * inside a piece must be lower than the best so far by more than
 * rounding, 4 DBL_EPSILON relative).  *knot is the index of the knot the
 * minimum is at, or -1 when it lies inside a piece (so 0 and k - 1 say it
 * is at an end).  On a tie the leftmost knot. */
double ls_akima_min(const double *x, const double *y, const double *t, size_t k, double *at, long *knot);

#endif
