/*
 * fit_kernel_mapped.c — the looped and MoE laws' passes over
 * structure-of-arrays rows (fit_kernel_internal.h): bases dense and moe
 * under every loop mapping, in log space.  Part of fit_kernel.c's
 * translation unit (it includes this file), so it is built twice with the
 * same vector flags and shares its helpers (rho).
 *
 * Per run, as the law core computes it (law.c): s = m^-theta (sparse
 * mappings), the gain, N_eff = N_act + gain, ln N_eff, then t1, t2 and
 * ln Lhat = lse(t1, t2, ln c) as in the dense kernel.  Each mapping and
 * base gets its own copy of the loops (the mapping and the base are
 * constants in an always-inlined body), so that a law pays only for the
 * exp and log calls it needs: bounded-sparse takes 4 exp-type calls and 2
 * logs a run, the plain dense law 2 and 1.
 *
 * The bounded mappings' e^-z comes from expm1 (e = 1 + expm1(-z)): one
 * call instead of the law core's exp or expm1 by the size of z; the two
 * agree to 1e-16 absolute, which only the derivative of a saturated run
 * (e < 1e-3) sees, there below 1e-13 of its size.
 */

#include <float.h>

#include "law_internal.h"

#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__) && defined(__GLIBC__)
__attribute__((simd("notinbranch"))) double expm1(double);
#endif

#define ALWAYS_INLINE inline __attribute__((always_inline))

/* The shares' exponentials e_k = e^(t_k - top) of lse(t1, t2, t3), two exp
 * calls (the top term's is 1), as the dense kernel's LS_SHARES but with
 * every select on a double and one comparison: GCC 12 does not vectorise
 * a select between two comparisons' masks in this loop.  With hi and lo
 * the larger and smaller of t1, t2, the two terms below the top are lo
 * and min(hi, t3). */
#define LS_SHARES_SELECT(t1, t2, t3, top, e1, e2, e3)                                                             \
    double hi = t1 > t2 ? t1 : t2, lo = t1 > t2 ? t2 : t1;                                                     \
    double top = t3 >= hi ? t3 : hi, mid = t3 >= hi ? hi : t3;                                                 \
    double e_lo = exp(lo - top), e_mid = exp(mid - top);                                                       \
    double e_hi = t3 >= hi ? e_mid : 1.0;                                                                       \
    double e1 = t1 > t2 ? e_hi : e_lo, e2 = t1 > t2 ? e_lo : e_hi, e3 = t3 >= hi ? 1.0 : e_mid

static ALWAYS_INLINE int mapping_is_sparse(ls_law_mapping mapping)
{
    return mapping == LS_LAW_MAPPING_BOUNDED_SPARSE || mapping == LS_LAW_MAPPING_HYPERBOLIC;
}

static ALWAYS_INLINE double mapped_trial_body(const ls_mapped_rows *rows, const ls_mapped_point *pt, double delta,
                                              double scale, const ls_law_mapping mapping, const int moe)
{
    size_t n = rows->n;
    const double *restrict ln_n = rows->ln_n, *restrict n_act = rows->n_act, *restrict n_loop = rows->n_loop;
    const double *restrict yv = rows->y, *restrict ln_r = rows->ln_r, *restrict ln_m = rows->ln_m;
    const double *restrict ln_d = rows->ln_d, *restrict target = rows->target, *restrict wt = rows->weight;
    const double *restrict ln_e = rows->ln_e;
    const int *restrict e_index = rows->e_index;
    double *restrict sc = rows->scratch;
    double *restrict GP = sc + LS_MAPPED_GP * n, *restrict CM = sc + LS_MAPPED_CM * n;
    double *restrict RES = sc + LS_MAPPED_RESID * n, *restrict W1 = sc + LS_MAPPED_W1 * n;
    double *restrict W2 = sc + LS_MAPPED_W2 * n, *restrict W3 = sc + LS_MAPPED_W3 * n;
    double *restrict LNF = sc + LS_MAPPED_LN_NEFF * n, *restrict NEF = sc + LS_MAPPED_NEFF * n;
    double *restrict S = sc + LS_MAPPED_S * n, *restrict EM = sc + LS_MAPPED_EM * n;
    const double la = pt->ln_a, alpha = pt->alpha, lb = pt->ln_b, beta = pt->beta, lc = pt->ln_c;
    const double dl = pt->delta, gm = pt->gamma, om = pt->omega, ze = pt->zeta;
    const double phi = pt->phi, k1 = pt->kappa1, k2 = pt->kappa2, th = pt->theta;
    const int sparse = mapping_is_sparse(mapping);
    /* First loop: the calls (exp, expm1, log) and what they need; the
     * second forms the rest without calls (see the dense kernel's trial). */
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        double y = yv[i], nl = n_loop[i];
        double s = sparse ? exp(-th * ln_m[i]) : 1.0;
        double em = 0.0, gain = 0.0;
        if (mapping == LS_LAW_MAPPING_LINEAR) {
            gain = y * nl;
        } else if (mapping == LS_LAW_MAPPING_POWER) {
            em = expm1(phi * ln_r[i]); /* R^phi - 1 */
            gain = em * nl;
        } else if (mapping == LS_LAW_MAPPING_BOUNDED || mapping == LS_LAW_MAPPING_BOUNDED_SPARSE) {
            /* the gain as the law core forms it (gain_bounded) */
            double z = y / (k2 * s);
            em = expm1(-z); /* e^-z - 1 = -sat */
            int series = z < LAW_BOUNDED_SERIES_Z;
            double s_sat = series ? (y / k2) * (1.0 - z * (0.5 - z / 6.0)) : s * -em;
            double plain = k1 * s * nl * -em;
            gain = fabs(plain) <= DBL_MAX ? plain : nl * (k1 * s_sat);
            gain = series ? nl * (k1 * s_sat) : gain;
        } else if (mapping == LS_LAW_MAPPING_HYPERBOLIC) {
            /* the gain as the law core forms it (gain_hyperbolic) */
            em = k2 + y / s; /* (R-1 + kappa2 s) / s, its den */
            double h = k2 * s, plain = k1 * s * nl * (y / (y + h));
            gain = fabs(plain) <= DBL_MAX ? plain : nl * (k1 * (y / em));
            gain = fabs(h) <= DBL_MAX ? gain : nl * (k1 * (y / em));
        } else if (mapping == LS_LAW_MAPPING_LOG) {
            gain = k1 * nl * ln_r[i];
        }
        double neff = n_act[i] + gain;
        /* At R = 1 the law core takes the row's ln N_act; log(N_act) here
         * agrees with it to an ulp (a select on R keeps GCC from
         * vectorising the loop).  A gain that overflowed (the law core
         * then takes its linear limit) makes the objective NaN through
         * gain - gain, and the caller evaluates the point by the law core. */
        double lnf = mapping == LS_LAW_MAPPING_NONE ? ln_n[i] : log(neff) + (gain - gain);
        double le = moe ? ln_e[e_index[i]] : 0.0;
        double t1 = moe ? (la + dl * le) - (alpha + gm * le) * lnf : la - alpha * lnf;
        double t2 = moe ? (lb + om * le) - (beta + ze * le) * ln_d[i] : lb - beta * ln_d[i];
        LS_SHARES_SELECT(t1, t2, lc, top, e1, e2, e3);
        W1[i] = e1;
        W2[i] = e2;
        W3[i] = e3;
        RES[i] = top + log(e1 + e2 + e3);
        LNF[i] = lnf;
        NEF[i] = neff;
        S[i] = s;
        EM[i] = em;
    }
    double sum = 0.0;
#pragma omp simd reduction(+ : sum)
    for (size_t i = 0; i < n; i++) {
        double e1 = W1[i], e2 = W2[i], e3 = W3[i];
        double inv = 1.0 / (e1 + e2 + e3);
        double r = RES[i] - target[i];
        sum += wt[i] * rho(r, delta);
        double a = fabs(r);
        int inside = a <= delta;
        double psi = inside ? r : (r < 0 ? -delta : delta);
        double irls = inside ? 1.0 : delta / a;
        double w = scale * wt[i];
        W1[i] = e1 * inv;
        W2[i] = e2 * inv;
        W3[i] = e3 * inv;
        RES[i] = r;
        GP[i] = w * psi;
        CM[i] = w * irls;
    }
    return scale * sum;
}

/* d r / d u for every parameter of the law, from the last trial's scratch,
 * in the fitter's coordinates (ln A, alpha, ln B, beta, ln c, the MoE
 * exponents as they are, ln(E_max - 1), ln E_start, ln phi, ln kappa1,
 * ln kappa2, ln theta): the law core's gradient (law.c), run by run.  No
 * restrict on the columns: unneeded ones may share one array. */
static ALWAYS_INLINE void mapped_gradient_body(const ls_mapped_rows *rows, const ls_mapped_point *pt,
                                               double *const col[], const ls_law_mapping mapping, const int moe)
{
    size_t n = rows->n;
    const double *restrict ln_d = rows->ln_d, *restrict n_loop = rows->n_loop, *restrict yv = rows->y;
    const double *restrict ln_r = rows->ln_r, *restrict ln_m = rows->ln_m, *restrict ln_e = rows->ln_e;
    const double *restrict fe_max = rows->fe_max, *restrict fe_start = rows->fe_start;
    const int *restrict e_index = rows->e_index;
    const double *restrict sc = rows->scratch;
    const double *restrict W1 = sc + LS_MAPPED_W1 * n, *restrict W2 = sc + LS_MAPPED_W2 * n;
    const double *restrict W3 = sc + LS_MAPPED_W3 * n, *restrict LNF = sc + LS_MAPPED_LN_NEFF * n;
    const double *restrict NEF = sc + LS_MAPPED_NEFF * n, *restrict S = sc + LS_MAPPED_S * n;
    const double *restrict EM = sc + LS_MAPPED_EM * n;
    double *cA = col[LS_LAW_P_A], *cAlpha = col[LS_LAW_P_ALPHA], *cB = col[LS_LAW_P_B], *cBeta = col[LS_LAW_P_BETA];
    double *cC = col[LS_LAW_P_C];
    double *cDelta = col[LS_LAW_P_DELTA], *cGamma = col[LS_LAW_P_GAMMA], *cOmega = col[LS_LAW_P_OMEGA];
    double *cZeta = col[LS_LAW_P_ZETA], *cEmax = col[LS_LAW_P_E_MAX], *cEstart = col[LS_LAW_P_E_START];
    double *cPhi = col[LS_LAW_P_PHI], *cK1 = col[LS_LAW_P_KAPPA1], *cK2 = col[LS_LAW_P_KAPPA2], *cTheta = col[LS_LAW_P_THETA];
    const double alpha = pt->alpha, dl = pt->delta, gm = pt->gamma, om = pt->omega, ze = pt->zeta;
    const double phi = pt->phi, k1 = pt->kappa1, k2 = pt->kappa2, th = pt->theta;
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        double w1 = W1[i], w2 = W2[i], lnf = LNF[i], lnd = ln_d[i];
        cA[i] = w1;
        cAlpha[i] = -w1 * lnf;
        cB[i] = w2;
        cBeta[i] = -w2 * lnd;
        cC[i] = W3[i];
        double exponent_n = alpha;
        if (moe) {
            int k = e_index[i];
            double le = ln_e[k];
            exponent_n = alpha + gm * le;
            cDelta[i] = w1 * le;
            cGamma[i] = -w1 * le * lnf;
            cOmega[i] = w2 * le;
            cZeta[i] = -w2 * le * lnd;
            double d_ln_ehat = w1 * (dl - gm * lnf) + w2 * (om - ze * lnd);
            cEmax[i] = d_ln_ehat * fe_max[k];
            cEstart[i] = d_ln_ehat * fe_start[k];
        }
        /* d ln Lhat / d N_eff, times the gain's d N_eff / d p_j (formed as
         * the law core forms it, s beside what vanishes as s grows) and
         * d p_j / d u_j = p_j. */
        double dn = -w1 * exponent_n / NEF[i];
        double y = yv[i], nl = n_loop[i], s = S[i], em = EM[i];
        if (mapping == LS_LAW_MAPPING_POWER) {
            cPhi[i] = dn * ((1.0 + em) * ln_r[i] * nl) * phi;
        } else if (mapping == LS_LAW_MAPPING_BOUNDED || mapping == LS_LAW_MAPPING_BOUNDED_SPARSE) {
            /* s sat, s z e and s (sat - z e), by the law core's regimes */
            double z = y / (k2 * s), e = 1.0 + em, sat = -em, yk = y / k2;
            int series = z < LAW_BOUNDED_SERIES_Z;
            double z_e = e == 0.0 ? 0.0 : z * e; /* z = inf: e = 0 */
            double s_sat = series ? yk * (1.0 - z * (0.5 - z / 6.0)) : s * sat;
            double s_ze = series ? yk * e : s * z_e;
            double s_d1 = series ? yk * z * (0.5 - z / 3.0) : s * (sat - z_e);
            cK1[i] = dn * (nl * s_sat) * k1;
            cK2[i] = dn * (-nl * (k1 * s_ze) / k2) * k2;
            if (mapping == LS_LAW_MAPPING_BOUNDED_SPARSE)
                cTheta[i] = dn * (-ln_m[i] * nl * (k1 * s_d1)) * th;
        } else if (mapping == LS_LAW_MAPPING_HYPERBOLIC) {
            double den = em, s_frac = y / den, s_q = 1.0 / den, y_q = (y / s) / den;
            cK1[i] = dn * (nl * s_frac) * k1;
            cK2[i] = dn * (-nl * (k1 * s_frac) * s_q) * k2;
            cTheta[i] = dn * (-ln_m[i] * nl * (k1 * s_frac) * y_q) * th;
        } else if (mapping == LS_LAW_MAPPING_LOG) {
            cK1[i] = dn * (nl * ln_r[i]) * k1;
        }
    }
}

/* One copy of each body per mapping and base: `out body(args, mapping, moe)`. */
#define LS_MAPPED_CASE(mapping, out, body, ...)                                                                \
    case mapping:                                                                                              \
        if (pt->moe)                                                                                           \
            out body(__VA_ARGS__, mapping, 1);                                                                 \
        else                                                                                                   \
            out body(__VA_ARGS__, mapping, 0);                                                                 \
        break
#define LS_MAPPED_DISPATCH(out, body, ...)                                                                     \
    switch (pt->mapping) {                                                                                     \
        LS_MAPPED_CASE(LS_LAW_MAPPING_NONE, out, body, __VA_ARGS__);                                              \
        LS_MAPPED_CASE(LS_LAW_MAPPING_LINEAR, out, body, __VA_ARGS__);                                            \
        LS_MAPPED_CASE(LS_LAW_MAPPING_POWER, out, body, __VA_ARGS__);                                             \
        LS_MAPPED_CASE(LS_LAW_MAPPING_BOUNDED, out, body, __VA_ARGS__);                                           \
        LS_MAPPED_CASE(LS_LAW_MAPPING_BOUNDED_SPARSE, out, body, __VA_ARGS__);                                    \
        LS_MAPPED_CASE(LS_LAW_MAPPING_HYPERBOLIC, out, body, __VA_ARGS__);                                        \
        LS_MAPPED_CASE(LS_LAW_MAPPING_LOG, out, body, __VA_ARGS__);                                               \
    default:                                                                                                   \
        break;                                                                                                 \
    }

static double KERNEL_NAME(mapped_trial)(const ls_mapped_rows *rows, const ls_mapped_point *pt, double delta,
                                        double scale)
{
    double v = NAN;
    LS_MAPPED_DISPATCH(v =, mapped_trial_body, rows, pt, delta, scale)
    return v;
}

static void KERNEL_NAME(mapped_gradient)(const ls_mapped_rows *rows, const ls_mapped_point *pt, double *const col[])
{
    LS_MAPPED_DISPATCH(, mapped_gradient_body, rows, pt, col)
}

/* g and M from the columns, two rows a, a+1 of M at a time against four
 * columns b at a time: eight sums in one pass over the runs, with cm J_a
 * and cm J_(a+1) formed in the pass (seven loads for eight products). */
static void KERNEL_NAME(gram)(size_t n, size_t p, const double *const cols[], const double *cm, const double *gp,
                              double *g, double *M)
{
    const double *restrict cmr = cm, *restrict gpr = gp;
    for (size_t a = 0; a < p; a++) {
        const double *restrict ja = cols[a];
        double ga = 0.0;
#pragma omp simd reduction(+ : ga)
        for (size_t i = 0; i < n; i++)
            ga += gpr[i] * ja[i];
        g[a] = ga;
    }
    for (size_t a = 0; a < p; a += 2) {
        int pair = a + 1 < p;
        const double *restrict ja = cols[a], *restrict jb = cols[pair ? a + 1 : a];
        size_t b = a;
        for (; b + 4 <= p; b += 4) {
            const double *restrict c0 = cols[b], *restrict c1 = cols[b + 1], *restrict c2 = cols[b + 2],
                                   *restrict c3 = cols[b + 3];
            double s00 = 0, s01 = 0, s02 = 0, s03 = 0, s10 = 0, s11 = 0, s12 = 0, s13 = 0;
#pragma omp simd reduction(+ : s00, s01, s02, s03, s10, s11, s12, s13)
            for (size_t i = 0; i < n; i++) {
                double x0 = cmr[i] * ja[i], x1 = cmr[i] * jb[i];
                s00 += x0 * c0[i];
                s01 += x0 * c1[i];
                s02 += x0 * c2[i];
                s03 += x0 * c3[i];
                s10 += x1 * c0[i];
                s11 += x1 * c1[i];
                s12 += x1 * c2[i];
                s13 += x1 * c3[i];
            }
            double row0[4] = {s00, s01, s02, s03}, row1[4] = {s10, s11, s12, s13};
            for (size_t q = 0; q < 4; q++) {
                M[a * p + b + q] = M[(b + q) * p + a] = row0[q];
                if (pair && b + q > a)
                    M[(a + 1) * p + b + q] = M[(b + q) * p + a + 1] = row1[q];
            }
        }
        for (; b < p; b++) {
            const double *restrict c0 = cols[b];
            double s0 = 0, s1 = 0;
#pragma omp simd reduction(+ : s0, s1)
            for (size_t i = 0; i < n; i++) {
                s0 += cmr[i] * ja[i] * c0[i];
                s1 += cmr[i] * jb[i] * c0[i];
            }
            M[a * p + b] = M[b * p + a] = s0;
            if (pair && b > a)
                M[(a + 1) * p + b] = M[b * p + a + 1] = s1;
        }
    }
}
