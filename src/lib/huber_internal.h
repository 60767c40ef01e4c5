/*
 * huber_internal.h — the covariance of a Huber M-estimator, shared by the
 * fit's standard errors (fit.c) and the planner's information (plan.c).
 *
 * For the objective F(u) = sum_i rho(r_i(u)), rho Huber's function with
 * threshold delta (rho(r) = r^2 / 2 inside, delta (|r| - delta / 2)
 * outside; delta = +inf is least squares), the estimator's asymptotic
 * covariance is the sandwich (Huber 1967; Huber and Ronchetti 2009,
 * "Robust Statistics", sections 6.3 and 7.6)
 *
 *     V = H^-1 B H^-1,   H = sum_i E psi'(r_i) J_i J_i',   B = sum_i E psi(r_i)^2 J_i J_i',
 *
 * J_i = d r_i / d u.  For residuals with one distribution this is
 * (E psi^2 / (E psi')^2) (J'J)^-1, the form the planner uses for normal
 * noise of spread sigma.
 *
 * Thread safety: pure functions of their arguments.
 */
#ifndef LOOPSCALE_HUBER_INTERNAL_H
#define LOOPSCALE_HUBER_INTERNAL_H

#include <stddef.h>

/* E psi'(x) and E psi(x)^2 for x = r + h Z, Z standard normal: Huber's
 * psi(x) = max(-delta, min(delta, x)) at a residual r blurred by normal
 * noise of spread h (h = 0: at r itself).  With r = 0 and h = sigma they
 * are the moments of psi over N(0, sigma^2); delta = +inf gives 1 and
 * r^2 + h^2.  Either output may be NULL. */
void ls_huber_blurred(double r, double h, double delta, double *dpsi, double *psi2);

/* The bandwidth ls_huber_covariance blurs psi' with, from the n residuals
 * r (which it does not change): Hall and Sheather's (1988) bandwidth for
 * the density of a median, n^(-1/3) z^(2/3) (1.5 phi(0)^2)^(1/3) in
 * probability (z the normal 97.5% point), carried to residual units as in
 * Koenker's quantreg: times 2 Phi^-1(1/2 + that) and the residuals'
 * spread min(sd, IQR / 1.34).  NaN when out of memory. */
double ls_huber_bandwidth(const double *r, size_t n);

/* The sandwich covariance of the p fitted coordinates from the n runs'
 * residuals r and Jacobian columns (column a of run i at cols[a * stride +
 * i]).  H uses psi' blurred at each residual by ls_huber_bandwidth: the
 * indicator |r_i| <= delta that psi' is for Huber's small delta counts the
 * few runs that happen to sit inside, a density estimate of bandwidth
 * delta, too noisy to invert (on Epoch AI's Chinchilla points 39 of 240
 * runs); B carries the small-sample factor n / (n - p).  cov (p x p,
 * row-major) gets V; hinv (p x p, or NULL) gets H^-1, the inverse curvature
 * of sum rho at the optimum.  0, or -1 when H is not positive definite or
 * memory runs out (cov then untouched). */
int ls_huber_covariance(size_t n, size_t p, const double *cols, size_t stride, const double *r, double delta,
                        double *cov, double *hinv);

#endif
