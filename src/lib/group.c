/* Tolerant grouping of a quantity's values (loopscale/group.h). */
#include "loopscale/group.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* Below this relative gap two neighbouring values may be rounding. */
#define ROUNDING_GAP 1e-3
/* Tiers must stand this far above the rounding to be told apart from it. */
#define SEPARATION 100.0
#define EXACT_TOLERANCE 1e-9

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static double relative_gap(double lo, double hi) { return (hi - lo) / lo; }

static double *sorted_copy(const double *v, size_t n)
{
    double *s = malloc((n ? n : 1) * sizeof *s);
    if (!s)
        return NULL;
    for (size_t i = 0; i < n; i++)
        s[i] = v[i];
    qsort(s, n, sizeof *s, cmp_double);
    return s;
}

double ls_group_auto_tolerance(const double *v, size_t n)
{
    double *s = sorted_copy(v, n);
    if (!s)
        return EXACT_TOLERANCE;
    /* Split the sorted values at every gap of ROUNDING_GAP or more: what
     * lies between such gaps may be one value rounded.  Its width, not its
     * largest step, is what a group measured from its smallest member must
     * span: fifty budgets' worth of 9-digit N times 9-digit D spread wider
     * than any two neighbours. */
    double noise = 0.0, tier = INFINITY;
    size_t first = 0; /* of the current cluster */
    for (size_t i = 1; i <= n; i++) {
        if (i < n && relative_gap(s[i - 1], s[i]) < ROUNDING_GAP)
            continue;
        if (n > 0)
            noise = fmax(noise, relative_gap(s[first], s[i - 1]));
        if (i < n)
            tier = fmin(tier, relative_gap(s[i - 1], s[i]));
        first = i;
    }
    free(s);
    if (noise > 0.0 && noise < ROUNDING_GAP && tier >= SEPARATION * noise)
        return 2.0 * noise;
    return EXACT_TOLERANCE;
}

/* The decimal number with the fewest significant digits in [lo, hi]. */
static double shortest_between(double lo, double hi)
{
    double mid = 0.5 * (lo + hi);
    char text[40];
    for (int digits = 1; digits <= 17; digits++) {
        snprintf(text, sizeof text, "%.*e", digits - 1, mid);
        double candidate = strtod(text, NULL);
        if (candidate >= lo && candidate <= hi)
            return candidate;
    }
    return mid;
}

void ls_grouping_free(ls_grouping *g)
{
    free(g->label);
    free(g->lo);
    free(g->hi);
    free(g->count);
    g->label = g->lo = g->hi = NULL;
    g->count = NULL;
    g->n = 0;
}

int ls_group_values(const double *v, size_t n, double rel_tol, size_t *group, ls_grouping *out, ls_error *err)
{
    out->n = 0;
    out->label = out->lo = out->hi = NULL;
    out->count = NULL;
    for (size_t i = 0; i < n; i++)
        if (!(isfinite(v[i]) && v[i] > 0))
            return ls_error_set(err, LS_ERR_USAGE, "value %zu (%g) cannot be grouped: not finite and positive", i + 1,
                                v[i]);
    if (rel_tol < 0)
        rel_tol = ls_group_auto_tolerance(v, n);
    double *s = sorted_copy(v, n);
    size_t cap = n ? n : 1;
    out->label = malloc(cap * sizeof *out->label);
    out->lo = malloc(cap * sizeof *out->lo);
    out->hi = malloc(cap * sizeof *out->hi);
    out->count = calloc(cap, sizeof *out->count);
    if (!s || !out->label || !out->lo || !out->hi || !out->count) {
        free(s);
        ls_grouping_free(out);
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory grouping %zu values", n);
    }
    for (size_t i = 0; i < n; i++) {
        if (out->n == 0 || relative_gap(out->lo[out->n - 1], s[i]) > rel_tol) {
            out->lo[out->n] = s[i];
            out->n++;
        }
        out->hi[out->n - 1] = s[i];
        out->count[out->n - 1]++;
    }
    free(s);
    for (size_t g = 0; g < out->n; g++)
        out->label[g] = shortest_between(out->lo[g], out->hi[g]);
    if (group) {
        /* The groups are disjoint increasing ranges: find each value's by
         * bisection over the groups' smallest members. */
        for (size_t i = 0; i < n; i++) {
            size_t a = 0, b = out->n;
            while (b - a > 1) {
                size_t m = a + (b - a) / 2;
                if (out->lo[m] <= v[i])
                    a = m;
                else
                    b = m;
            }
            group[i] = a;
        }
    }
    return 0;
}
