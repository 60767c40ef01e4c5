/*
 * law_hessian.c — ln Lhat, its gradient and its Hessian in the fitted
 * coordinates u, for every base and mapping, written out analytically.
 *
 * ln Lhat = lse(t1, t2, t3) = ln(e^t1 + e^t2 + e^t3) with
 *   t1 = ln A + delta ln Ehat - (alpha + gamma ln Ehat) ln N_eff
 *   t2 = ln B + omega ln Ehat - (beta + zeta ln Ehat) ln D
 *   t3 = ln c.
 * With w_k each term's share of the sum and g = sum_k w_k grad t_k,
 *   Hess ln Lhat = sum_k w_k Hess t_k + sum_k w_k grad t_k grad t_k' - g g'
 * (the second part is the log-sum-exp's own curvature, a covariance, so it
 * is positive semi-definite).  The terms' derivatives come from two inner
 * functions: ln N_eff of the mapping parameters (phi, kappa1, kappa2,
 * theta, all carried as logarithms) and ln Ehat of (ln E_start,
 * ln(E_max - 1)).  This file repeats the value and gradient of law.c on
 * purpose, in its own way: the unit test checks its gradient against
 * law.c's and its Hessian against finite differences of law.c's gradient.
 */
#include "loopscale/law.h"

#include <math.h>
#include <string.h>

#define NP LAW_NPARAMS

/* The loop gain G = N_eff - N_act and its first and second derivatives with
 * respect to the fitted mapping parameters (u = ln p for each). */
typedef struct gain2 {
    double value;
    double d[NP];
    double dd[NP][NP];
} gain2;

static void gain_fitted(const law *l, const law_point *x, double ln_m, gain2 *g)
{
    memset(g, 0, sizeof *g);
    double y = x->R - 1.0, nl = x->n_loop;
    const double *p = l->p;
    switch (l->kind.mapping) {
    case LAW_MAPPING_NONE:
    case LAW_NMAPPINGS:
        return;
    case LAW_MAPPING_LINEAR:
        g->value = y * nl;
        return;
    case LAW_MAPPING_POWER: {
        /* G = (R^phi - 1) N_loop; dG/du = phi ln R R^phi N_loop, and
         * d2G/du2 = dG/du (1 + phi ln R). */
        double phi = p[LAW_P_PHI], ln_r = log(x->R);
        double gu = phi * ln_r * exp(phi * ln_r) * nl;
        g->value = expm1(phi * ln_r) * nl;
        g->d[LAW_P_PHI] = gu;
        g->dd[LAW_P_PHI][LAW_P_PHI] = gu * (1.0 + phi * ln_r);
        return;
    }
    case LAW_MAPPING_BOUNDED:
    case LAW_MAPPING_BOUNDED_SPARSE:
    case LAW_MAPPING_HYPERBOLIC:
        break;
    }
    /* In U1 = ln(kappa1 m^-theta) and U2 = ln(kappa2 m^-theta): G = F(U1, U2)
     * with F = e^U1 N_loop sat(y / e^U2).  theta enters both through
     * c3 = -theta ln m, whose derivative in u = ln theta is c3 itself. */
    int sparse = l->kind.mapping != LAW_MAPPING_BOUNDED;
    double theta = sparse ? p[LAW_P_THETA] : 0.0;
    double c3 = sparse && ln_m != 0.0 && theta != 0.0 ? -theta * ln_m : 0.0;
    double scale = c3 == 0.0 ? 1.0 : exp(c3);
    double k1 = p[LAW_P_KAPPA1] * scale, k2 = p[LAW_P_KAPPA2] * scale;
    double f, f1, f2, f11, f12, f22;
    if (l->kind.mapping == LAW_MAPPING_HYPERBOLIC) {
        /* F = K1 N_loop y / (y + K2) */
        double h = y + k2;
        f = k1 * nl * y / h;
        f2 = -f * k2 / h;
        f22 = -f * k2 * (y - k2) / (h * h);
    } else {
        /* F = K1 N_loop (1 - e^-z), z = y / K2, dz/dU2 = -z */
        double z = y / k2, e, sat;
        if (z < 0.5) {
            double em = expm1(-z);
            e = 1.0 + em;
            sat = -em;
        } else {
            e = exp(-z);
            sat = 1.0 - e;
        }
        f = k1 * nl * sat;
        f2 = -k1 * nl * z * e;
        f22 = k1 * nl * (1.0 - z) * z * e;
    }
    f1 = f11 = f;
    f12 = f2;
    g->value = f;
    g->d[LAW_P_KAPPA1] = f1;
    g->d[LAW_P_KAPPA2] = f2;
    g->dd[LAW_P_KAPPA1][LAW_P_KAPPA1] = f11;
    g->dd[LAW_P_KAPPA1][LAW_P_KAPPA2] = g->dd[LAW_P_KAPPA2][LAW_P_KAPPA1] = f12;
    g->dd[LAW_P_KAPPA2][LAW_P_KAPPA2] = f22;
    if (sparse) {
        g->d[LAW_P_THETA] = c3 * (f1 + f2);
        g->dd[LAW_P_KAPPA1][LAW_P_THETA] = g->dd[LAW_P_THETA][LAW_P_KAPPA1] = c3 * (f11 + f12);
        g->dd[LAW_P_KAPPA2][LAW_P_THETA] = g->dd[LAW_P_THETA][LAW_P_KAPPA2] = c3 * (f12 + f22);
        g->dd[LAW_P_THETA][LAW_P_THETA] = c3 * c3 * (f11 + 2.0 * f12 + f22) + c3 * (f1 + f2);
    }
}

/* ln Ehat and its derivatives in s = ln E_start and v = ln(E_max - 1):
 * out = {L, L_s, L_v, L_ss, L_sv, L_vv}.  With a = 1/E_start, b = 1/E_max,
 * q = E - 1 + 1/(a - b) and r = 1/q + b = 1/Ehat: L = -ln r, and with
 * w = 1/(q (a - b)), r_a = w^2, r_b = 1 - w^2, r_aa = r_bb = -r_ab =
 * -2 (E - 1) w^3; da/ds = -a, db/dv = -b (1 - b). */
static void ln_ehat_fitted(double E, double e_start, double e_max, double out[6])
{
    if (E == 1.0) { /* Ehat(1) = E_start exactly */
        out[0] = e_start == 1.0 ? 0.0 : log(e_start);
        out[1] = 1.0;
        out[2] = out[3] = out[4] = out[5] = 0.0;
        return;
    }
    double a = 1.0 / e_start, b = 1.0 / e_max;
    double s = a - b, q = E - 1.0 + 1.0 / s;
    double w = 1.0 / (q * s), r = 1.0 / q + b;
    double ra = w * w, rb = 1.0 - w * w, t = 2.0 * (E - 1.0) * w * w * w;
    double raa = -t, rab = t, rbb = -t;
    double da = -a, dda = a, db = -b * (1.0 - b), ddb = (1.0 - 2.0 * b) * b * (1.0 - b);
    double rs = ra * da, rv = rb * db;
    double rss = raa * da * da + ra * dda, rsv = rab * da * db, rvv = rbb * db * db + rb * ddb;
    out[0] = -log(r);
    out[1] = -rs / r;
    out[2] = -rv / r;
    out[3] = -rss / r + rs * rs / (r * r);
    out[4] = -rsv / r + rs * rv / (r * r);
    out[5] = -rvv / r + rv * rv / (r * r);
}

static void sym_add(double *hess, int i, int j, double v)
{
    hess[i * NP + j] += v;
    if (i != j)
        hess[j * NP + i] += v;
}

double ls_law_row_log_loss_hessian(const law_prepared *prep, const law_row *row, double grad[LAW_NPARAMS],
                                   double hess[LAW_NPARAMS * LAW_NPARAMS])
{
    const law *l = &prep->l;
    const double *p = l->p;
    const law_point *x = &row->x;
    int moe = l->kind.base == LAW_BASE_MOE;
    int looped = x->R != 1.0 && l->kind.mapping != LAW_MAPPING_NONE;
    static const law_param MAPPING_PARAMS[] = {LAW_P_PHI, LAW_P_KAPPA1, LAW_P_KAPPA2, LAW_P_THETA};
    static const law_param E_PARAMS[] = {LAW_P_E_START, LAW_P_E_MAX};

    /* ln N_eff and its derivatives in the mapping parameters. */
    gain2 g;
    double d_ln_n[NP] = {0}, dd_ln_n[NP][NP];
    double ln_n = row->ln_n_act;
    if (looped) {
        gain_fitted(l, x, row->ln_m, &g);
        double n_eff = x->n_act + g.value;
        ln_n = log(n_eff);
        for (int a = 0; a < 4; a++)
            d_ln_n[MAPPING_PARAMS[a]] = g.d[MAPPING_PARAMS[a]] / n_eff;
        for (int a = 0; a < 4; a++)
            for (int b = 0; b < 4; b++) {
                law_param i = MAPPING_PARAMS[a], j = MAPPING_PARAMS[b];
                dd_ln_n[i][j] = g.dd[i][j] / n_eff - d_ln_n[i] * d_ln_n[j];
            }
    }
    /* ln Ehat and its derivatives in E_start, E_max. */
    double le[6] = {0, 0, 0, 0, 0, 0};
    if (moe)
        ln_ehat_fitted(x->E, p[LAW_P_E_START], p[LAW_P_E_MAX], le);
    double ln_e = le[0];
    double d_le[2] = {le[1], le[2]};
    double dd_le[2][2] = {{le[3], le[4]}, {le[4], le[5]}};

    double ln_d = row->ln_d;
    double exponent_n = p[LAW_P_ALPHA] + (moe ? p[LAW_P_GAMMA] * ln_e : 0.0);
    double exponent_d = p[LAW_P_BETA] + (moe ? p[LAW_P_ZETA] * ln_e : 0.0);
    double t[3];
    t[0] = prep->ln_a + (moe ? p[LAW_P_DELTA] * ln_e : 0.0) - exponent_n * ln_n;
    t[1] = prep->ln_b + (moe ? p[LAW_P_OMEGA] * ln_e : 0.0) - exponent_d * ln_d;
    t[2] = prep->ln_c;
    double top = fmax(t[0], fmax(t[1], t[2]));
    double w[3], sum = 0.0;
    for (int k = 0; k < 3; k++) {
        w[k] = exp(t[k] - top);
        sum += w[k];
    }
    for (int k = 0; k < 3; k++)
        w[k] /= sum;
    double ln_loss = top + log(sum);

    /* Each term's gradient. */
    double a[3][NP];
    memset(a, 0, sizeof a);
    a[0][LAW_P_A] = 1.0;
    a[0][LAW_P_ALPHA] = -ln_n;
    a[1][LAW_P_B] = 1.0;
    a[1][LAW_P_BETA] = -ln_d;
    a[2][LAW_P_C] = 1.0;
    double coef1 = p[LAW_P_DELTA] - p[LAW_P_GAMMA] * ln_n; /* d t1 / d ln Ehat */
    double coef2 = p[LAW_P_OMEGA] - p[LAW_P_ZETA] * ln_d;  /* d t2 / d ln Ehat */
    if (moe) {
        a[0][LAW_P_DELTA] = ln_e;
        a[0][LAW_P_GAMMA] = -ln_e * ln_n;
        a[1][LAW_P_OMEGA] = ln_e;
        a[1][LAW_P_ZETA] = -ln_e * ln_d;
        for (int e = 0; e < 2; e++) {
            a[0][E_PARAMS[e]] = coef1 * d_le[e];
            a[1][E_PARAMS[e]] = coef2 * d_le[e];
        }
    }
    if (looped)
        for (int m = 0; m < 4; m++)
            if (ls_law_uses_param(l->kind, MAPPING_PARAMS[m]))
                a[0][MAPPING_PARAMS[m]] = -exponent_n * d_ln_n[MAPPING_PARAMS[m]];

    for (int j = 0; j < NP; j++)
        grad[j] = w[0] * a[0][j] + w[1] * a[1][j] + w[2] * a[2][j];
    if (!hess)
        return ln_loss;

    /* The log-sum-exp's curvature: sum_k w_k a_k a_k' - g g'. */
    for (int i = 0; i < NP; i++)
        for (int j = 0; j <= i; j++) {
            double v = w[0] * a[0][i] * a[0][j] + w[1] * a[1][i] * a[1][j] + w[2] * a[2][i] * a[2][j] -
                       grad[i] * grad[j];
            hess[i * NP + j] = hess[j * NP + i] = v;
        }
    /* The terms' own curvature, w_k Hess t_k. */
    if (moe) {
        for (int e = 0; e < 2; e++) {
            law_param ie = E_PARAMS[e];
            sym_add(hess, LAW_P_DELTA, ie, w[0] * d_le[e]);
            sym_add(hess, LAW_P_GAMMA, ie, -w[0] * ln_n * d_le[e]);
            sym_add(hess, LAW_P_OMEGA, ie, w[1] * d_le[e]);
            sym_add(hess, LAW_P_ZETA, ie, -w[1] * ln_d * d_le[e]);
            for (int f = 0; f <= e; f++)
                sym_add(hess, ie, E_PARAMS[f], (w[0] * coef1 + w[1] * coef2) * dd_le[e][f]);
        }
    }
    if (looped) {
        for (int m = 0; m < 4; m++) {
            law_param im = MAPPING_PARAMS[m];
            if (!ls_law_uses_param(l->kind, im))
                continue;
            sym_add(hess, LAW_P_ALPHA, im, -w[0] * d_ln_n[im]);
            if (moe) {
                sym_add(hess, LAW_P_GAMMA, im, -w[0] * ln_e * d_ln_n[im]);
                for (int e = 0; e < 2; e++)
                    sym_add(hess, E_PARAMS[e], im, -w[0] * p[LAW_P_GAMMA] * d_le[e] * d_ln_n[im]);
            }
            for (int m2 = 0; m2 <= m; m2++) {
                law_param jm = MAPPING_PARAMS[m2];
                if (ls_law_uses_param(l->kind, jm))
                    sym_add(hess, im, jm, -w[0] * exponent_n * dd_ln_n[im][jm]);
            }
        }
    }
    return ln_loss;
}

double ls_law_log_loss_hessian(const law *l, const law_point *x, double grad[LAW_NPARAMS],
                               double hess[LAW_NPARAMS * LAW_NPARAMS])
{
    law_row row;
    law_prepared prep;
    ls_law_row_init(&row, x);
    ls_law_prepare(&prep, l);
    return ls_law_row_log_loss_hessian(&prep, &row, grad, hess);
}
