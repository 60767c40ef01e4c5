/*
 * law_internal.h — the descriptor of each loop mapping, for the code that
 * evaluates or differentiates laws (law.c, and whatever else needs a
 * mapping's gain and its derivatives, such as a Hessian of ln L).
 *
 * A mapping is N_eff = N_act + gain(R, m, N_loop; its parameters).  Its
 * descriptor says everything the rest of the library asks about it: its
 * name and formula, which parameters it uses, whether it is
 * sparsity-conditional (kappa_j -> kappa_j m^-theta, the scale s = m^-theta
 * passed to its gain function), how rho_eff behaves as R -> inf, and the
 * gain function itself with its derivatives.  The table is in law.c and is
 * the only place that lists the mappings; docs/design.md has the checklist
 * for adding one.
 */
#ifndef LOOPSCALE_LAW_INTERNAL_H
#define LOOPSCALE_LAW_INTERNAL_H

#include "loopscale/law.h"

/* Mapping parameters follow the base parameters in ls_law_param; a mapping's
 * mask only has bits from here on. */
#define LAW_P_FIRST_MAPPING LS_LAW_P_PHI
#define LAW_NMAPPING_PARAMS (LS_LAW_NPARAMS - LAW_P_FIRST_MAPPING)

/* The loop gain N_eff - N_act at one point, and its derivatives with
 * respect to the natural values of the mapping parameters: d[j] for j in
 * LAW_P_FIRST_MAPPING .. LS_LAW_NPARAMS-1 (the other entries are not touched)
 * and, when asked for, the second derivatives d2[a][b] =
 * d^2 value / d p_j d p_k with a = j - LAW_P_FIRST_MAPPING, b likewise (what
 * a Hessian of ln L needs from the mapping; for u = ln p, d/du = p d/dp). */
typedef struct law_gain {
    double value;
    double d[LS_LAW_NPARAMS];
    double d2[LAW_NMAPPING_PARAMS][LAW_NMAPPING_PARAMS];
} law_gain;

/* y = R - 1 > 0, ln_m = ln(N_act / N_total), scale = m^-theta for a sparse
 * mapping (exactly 1 otherwise).  Sets g->value; with want_derivatives >= 1
 * also g->d[j] for each of the mapping's parameters j, and with 2 also
 * g->d2 between them (zeroed beforehand by ls_law_gain). */
typedef void (*law_gain_fn)(const ls_law *l, const ls_law_point *x, double y, double ln_m, double scale, law_gain *g,
                            int want_derivatives);

typedef struct law_mapping_info {
    const char *name;     /* as written after "BASE:" */
    const char *formula;  /* "N_eff = ...", shown by 'loopscale help laws' */
    unsigned params;      /* its parameters, as bits 1u << ls_law_param */
    int sparse;           /* kappa_j -> kappa_j m^-theta; scale is m^-theta */
    ls_law_ceiling ceiling;  /* rho_eff as R -> inf */
    law_gain_fn gain;     /* NULL: no gain at all (none) */
} law_mapping_info;

const law_mapping_info *ls_law_mapping_info(ls_law_mapping mapping);

/* Below this z = (R-1) / (kappa2 s) the bounded gain's products with s
 * are formed from y / kappa2 and their series in z (exact to 1e-16 there):
 * law.c's gain_bounded, and the fitter's kernel, which mirrors it. */
#define LAW_BOUNDED_SERIES_Z 1e-8

/* ln m = ln(N_act / N_total), exactly 0 when N_total = N_act. */
double ls_law_ln_active_ratio(const ls_law_point *x);
/* m^-theta for a sparse mapping, from ln m; exactly 1 at m = 1, at theta =
 * 0 and for every other mapping, so that bounded-sparse reduces to bounded
 * bit for bit. */
double ls_law_sparsity_scale(const ls_law *l, double ln_m);
/* The mapping's gain at x: zero (and zero derivatives) at R = 1 and for
 * the mapping none, else its gain function's.  want_derivatives: 0 the value
 * only, 1 and first derivatives, 2 and second derivatives. */
void ls_law_gain(const ls_law *l, const ls_law_point *x, double ln_m, double scale, law_gain *g, int want_derivatives);

/* The ends of a parameter's domain (laws.md's table): alpha's are 0 and 5,
 * a positive scale's DBL_MIN and DBL_MAX. */
void ls_law_param_domain(ls_law_param param, double *lo, double *hi);

/* d Ehat / d E_max and d Ehat / d E_start at E, given Ehat there. */
void ls_law_ehat_derivatives(double E, double e_start, double e_max, double ehat, double *d_emax, double *d_estart);

#endif
