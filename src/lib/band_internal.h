/*
 * band_internal.h — the uncertainty bands the figures draw (solve.h,
 * fit.h): the central 95% of a quantity over bootstrap draws of a law, the
 * 2.5% and 97.5% quantiles interpolated linearly between order statistics
 * (GSL's gsl_stats_quantile_from_sorted_data).
 */
#ifndef LOOPSCALE_BAND_INTERNAL_H
#define LOOPSCALE_BAND_INTERNAL_H

#include <math.h>
#include <stddef.h>

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>

/* The central 95% of v[0..n) into *lo and *hi (NaNs and infinities
 * dropped, v reordered), NaN for both when fewer than two values are left. */
static inline void ls_band_central95(double *v, size_t n, double *lo, double *hi)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i]))
            v[m++] = v[i];
    if (m < 2) {
        *lo = *hi = NAN;
        return;
    }
    gsl_sort(v, 1, m);
    *lo = gsl_stats_quantile_from_sorted_data(v, 1, m, 0.025);
    *hi = gsl_stats_quantile_from_sorted_data(v, 1, m, 0.975);
}

#endif
