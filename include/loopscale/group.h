/*
 * loopscale/group.h — values of a quantity that are "the same" up to rounding.
 *
 * A sweep's token counts, FLOP budgets or sizes come in tiers (6e10 tokens,
 * 1e19 FLOPs), but a log rounds and a derived column (D = F / (6 N_unroll)
 * from FLOPs printed to 6 digits) scatters a tier over nearby values.
 * ls_group_values() puts values within a relative tolerance of their group's
 * smallest member into one group and labels the group with the shortest
 * decimal number inside it (5.99996e10 and 6.00003e10: 6e10).  Everything
 * that groups runs by a quantity (plot curves, held-out tiers, IsoFLOP
 * budgets, tables) goes through here, so a tier is one tier everywhere.
 *
 * Thread safety: the functions keep no state.
 */
#ifndef LOOPSCALE_GROUP_H
#define LOOPSCALE_GROUP_H

#include <stddef.h>

#include "loopscale/error.h"
#include "loopscale/export.h"

LS_API_BEGIN

typedef struct ls_grouping {
    size_t n;       /* groups, numbered in increasing value */
    double *label;  /* the shortest decimal number in [lo, hi] */
    double *lo;     /* smallest member */
    double *hi;     /* largest member */
    size_t *count;  /* members */
} ls_grouping;

/* The tolerance ls_group_values uses when given a negative one: read off
 * the values' own spread.  Gaps between neighbouring values below 1e-3
 * relative are rounding when the smallest gap above that is at least 100
 * times larger: the tolerance is then twice the largest rounding gap.
 * Otherwise (no such gaps, or no clear separation) 1e-9: only values equal
 * to 9 digits are one group. */
double ls_group_auto_tolerance(const double *v, size_t n);

/* Group the n finite positive values v: group[i] receives the group of v[i]
 * (group may be NULL).  A value starts a new group when it exceeds the
 * current group's smallest member by more than rel_tol relative; rel_tol < 0
 * means ls_group_auto_tolerance.  Errors: LS_ERR_USAGE for a value that is
 * not finite and positive, LS_ERR_INTERNAL when out of memory. */
int ls_group_values(const double *v, size_t n, double rel_tol, size_t *group, ls_grouping *out,
                    ls_error *err) LS_MUST_CHECK;

void ls_grouping_free(ls_grouping *g);

LS_API_END

#endif
