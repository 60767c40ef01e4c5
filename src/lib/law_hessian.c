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
 * theta, all carried as logarithms; each mapping's gain function in
 * law.c gives its curvature) and ln Ehat of (ln E_start, ln(E_max - 1)).  This file repeats the value and gradient of law.c on
 * purpose, in its own way: the unit test checks its gradient against
 * law.c's and its Hessian against finite differences of law.c's gradient.
 */
#include "loopscale/law.h"
#include "law_internal.h"
#include "law_second_internal.h"

#include <math.h>
#include <string.h>

#define NP LS_LAW_NPARAMS

/* The loop gain G = N_eff - N_act and its first and second derivatives with
 * respect to the fitted mapping parameters, indexed a = j -
 * LAW_P_FIRST_MAPPING (phi, kappa1, kappa2, theta).  The mapping's own
 * function (law.c's descriptor table, through ls_law_gain) gives them in
 * natural values; every mapping parameter is carried as u = ln p, so
 * dG/du_a = p_a G_a and d2G/du_a du_b = p_a p_b G_ab + [a = b] p_a G_a. */
#define NM LAW_NMAPPING_PARAMS

typedef struct gain2 {
    double value;
    double d[NM];
    double dd[NM][NM];
} gain2;

static void gain_fitted(const ls_law *l, const ls_law_point *x, double ln_m, gain2 *g)
{
    law_gain lg;
    ls_law_gain(l, x, ln_m, ls_law_sparsity_scale(l, ln_m), &lg, 2);
    g->value = lg.value;
    double pa[NM];
    for (int a = 0; a < NM; a++) {
        ls_law_param j = (ls_law_param)(LAW_P_FIRST_MAPPING + a);
        int used = ls_law_uses_param(l->kind, j);
        pa[a] = used ? l->p[j] : 0.0;
        g->d[a] = used ? pa[a] * lg.d[j] : 0.0;
    }
    for (int a = 0; a < NM; a++)
        for (int b = 0; b < NM; b++)
            /* p_b G_ab first, and an exact 0 kept: with kappa1 and kappa2
             * near the top of the doubles p_a p_b alone overflows. */
            g->dd[a][b] = (lg.d2[a][b] == 0.0 ? 0.0 : pa[a] * (pa[b] * lg.d2[a][b])) + (a == b ? g->d[a] : 0.0);
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

static void put_a(ls_law_second *o, int k, ls_law_param j, double v)
{
    o->ia[k][o->na[k]] = j;
    o->a[k][o->na[k]++] = v;
}

static void put_t(ls_law_second *o, ls_law_param i, ls_law_param j, double v)
{
    o->ti[o->nt] = i < j ? i : j;
    o->tj[o->nt] = i < j ? j : i;
    o->tv[o->nt++] = v;
}

/* The bases whose ln Lhat is not a log-sum-exp of the three terms above
 * (kaplan: alpha_D times a log-sum-exp of two; data-constrained on a run
 * with unique tokens: ln N' and ln D' depend on the parameters through
 * min() and the repetition factors) carry no analytic Hessian here: the
 * run is given as one term whose gradient is law.c's, so that the fitter's
 * models take ln Lhat's curvature as 0 (Gauss-Newton, IRLS's model for
 * these laws) and its gradient exactly. */
static int gauss_newton_only(const ls_law_prepared *prep, const ls_law_row *row, ls_law_second *o)
{
    const ls_law *l = &prep->l;
    int constrained = l->kind.base == LS_LAW_BASE_DATA_CONSTRAINED && row->x.U > 0.0 && isfinite(row->x.U);
    if (l->kind.base != LS_LAW_BASE_KAPLAN && !constrained)
        return 0;
    double grad[LS_LAW_NPARAMS];
    ls_law_prepared scratch = *prep;
    o->ln_loss = ls_law_row_log_loss_grad(&scratch, row, grad);
    o->w[0] = 1.0;
    o->w[1] = o->w[2] = 0.0;
    o->na[0] = o->na[1] = o->na[2] = 0;
    for (int j = 0; j < LS_LAW_NPARAMS; j++)
        if (ls_law_uses_param(l->kind, (ls_law_param)j)) {
            o->ia[0][o->na[0]] = (ls_law_param)j;
            o->a[0][o->na[0]++] = grad[j];
        }
    o->nt = 0;
    return 1;
}

void ls_law_row_second(const ls_law_prepared *prep, const ls_law_row *row, ls_law_second *o)
{
    if (gauss_newton_only(prep, row, o))
        return;
    const ls_law *l = &prep->l;
    const double *p = l->p;
    const ls_law_point *x = &row->x;
    int moe = l->kind.base == LS_LAW_BASE_MOE;
    int looped = x->R != 1.0 && l->kind.mapping != LS_LAW_MAPPING_NONE;
    static const ls_law_param E_PARAMS[] = {LS_LAW_P_E_START, LS_LAW_P_E_MAX};
    int used[NM] = {0};

    /* ln N_eff and its derivatives in the mapping parameters. */
    double d_ln_n[NM] = {0}, dd_ln_n[NM][NM];
    double ln_n = row->ln_n_act;
    if (looped) {
        gain2 g;
        gain_fitted(l, x, row->ln_m, &g);
        double n_eff = x->n_act + g.value;
        ln_n = log(n_eff);
        for (int a = 0; a < NM; a++) {
            used[a] = ls_law_uses_param(l->kind, (ls_law_param)(LAW_P_FIRST_MAPPING + a));
            d_ln_n[a] = g.d[a] / n_eff;
        }
        for (int a = 0; a < NM; a++)
            for (int b = 0; b < NM; b++)
                dd_ln_n[a][b] = g.dd[a][b] / n_eff - d_ln_n[a] * d_ln_n[b];
    }
    /* ln Ehat and its derivatives in E_start, E_max. */
    double le[6] = {0, 0, 0, 0, 0, 0};
    if (moe)
        ln_ehat_fitted(x->E, p[LS_LAW_P_E_START], p[LS_LAW_P_E_MAX], le);
    double ln_e = le[0];
    double d_le[2] = {le[1], le[2]};
    double dd_le[2][2] = {{le[3], le[4]}, {le[4], le[5]}};

    double ln_d = row->ln_d;
    double exponent_n = p[LS_LAW_P_ALPHA] + (moe ? p[LS_LAW_P_GAMMA] * ln_e : 0.0);
    double exponent_d = p[LS_LAW_P_BETA] + (moe ? p[LS_LAW_P_ZETA] * ln_e : 0.0);
    double t[3];
    t[0] = prep->ln_a + (moe ? p[LS_LAW_P_DELTA] * ln_e : 0.0) - exponent_n * ln_n;
    t[1] = prep->ln_b + (moe ? p[LS_LAW_P_OMEGA] * ln_e : 0.0) - exponent_d * ln_d;
    t[2] = prep->ln_c;
    double top = fmax(t[0], fmax(t[1], t[2]));
    double sum = 0.0;
    for (int k = 0; k < 3; k++) {
        o->w[k] = exp(t[k] - top);
        sum += o->w[k];
    }
    for (int k = 0; k < 3; k++)
        o->w[k] /= sum;
    o->ln_loss = top + log(sum);
    double w1 = o->w[0], w2 = o->w[1];

    /* Each term's gradient. */
    o->na[0] = o->na[1] = o->na[2] = 0;
    o->nt = 0;
    put_a(o, 0, LS_LAW_P_A, 1.0);
    put_a(o, 0, LS_LAW_P_ALPHA, -ln_n);
    put_a(o, 1, LS_LAW_P_B, 1.0);
    put_a(o, 1, LS_LAW_P_BETA, -ln_d);
    put_a(o, 2, LS_LAW_P_C, 1.0);
    double coef1 = p[LS_LAW_P_DELTA] - p[LS_LAW_P_GAMMA] * ln_n; /* d t1 / d ln Ehat */
    double coef2 = p[LS_LAW_P_OMEGA] - p[LS_LAW_P_ZETA] * ln_d;  /* d t2 / d ln Ehat */
    if (moe) {
        put_a(o, 0, LS_LAW_P_DELTA, ln_e);
        put_a(o, 0, LS_LAW_P_GAMMA, -ln_e * ln_n);
        put_a(o, 1, LS_LAW_P_OMEGA, ln_e);
        put_a(o, 1, LS_LAW_P_ZETA, -ln_e * ln_d);
        for (int e = 0; e < 2; e++) {
            put_a(o, 0, E_PARAMS[e], coef1 * d_le[e]);
            put_a(o, 1, E_PARAMS[e], coef2 * d_le[e]);
        }
    }
    for (int m = 0; m < NM; m++)
        if (used[m])
            put_a(o, 0, (ls_law_param)(LAW_P_FIRST_MAPPING + m), -exponent_n * d_ln_n[m]);

    /* The terms' own curvature, T = w1 Hess t1 + w2 Hess t2. */
    if (moe && x->E != 1.0) {
        for (int e = 0; e < 2; e++) {
            ls_law_param ie = E_PARAMS[e];
            put_t(o, LS_LAW_P_DELTA, ie, w1 * d_le[e]);
            put_t(o, LS_LAW_P_GAMMA, ie, -w1 * ln_n * d_le[e]);
            put_t(o, LS_LAW_P_OMEGA, ie, w2 * d_le[e]);
            put_t(o, LS_LAW_P_ZETA, ie, -w2 * ln_d * d_le[e]);
            for (int f = 0; f <= e; f++)
                put_t(o, ie, E_PARAMS[f], (w1 * coef1 + w2 * coef2) * dd_le[e][f]);
        }
    } else if (moe) { /* E = 1: ln Ehat = ln E_start, linear in s */
        put_t(o, LS_LAW_P_DELTA, LS_LAW_P_E_START, w1);
        put_t(o, LS_LAW_P_GAMMA, LS_LAW_P_E_START, -w1 * ln_n);
        put_t(o, LS_LAW_P_OMEGA, LS_LAW_P_E_START, w2);
        put_t(o, LS_LAW_P_ZETA, LS_LAW_P_E_START, -w2 * ln_d);
    }
    for (int m = 0; m < NM; m++) {
        if (!used[m])
            continue;
        ls_law_param im = (ls_law_param)(LAW_P_FIRST_MAPPING + m);
        put_t(o, LS_LAW_P_ALPHA, im, -w1 * d_ln_n[m]);
        if (moe) {
            put_t(o, LS_LAW_P_GAMMA, im, -w1 * ln_e * d_ln_n[m]);
            for (int e = 0; e < 2; e++)
                put_t(o, E_PARAMS[e], im, -w1 * p[LS_LAW_P_GAMMA] * d_le[e] * d_ln_n[m]);
        }
        for (int m2 = 0; m2 <= m; m2++)
            if (used[m2])
                put_t(o, im, (ls_law_param)(LAW_P_FIRST_MAPPING + m2), -w1 * exponent_n * dd_ln_n[m][m2]);
    }
}

double ls_law_row_log_loss_hessian(const ls_law_prepared *prep, const ls_law_row *row, double grad[LS_LAW_NPARAMS],
                                   double hess[LS_LAW_NPARAMS * LS_LAW_NPARAMS])
{
    ls_law_second o;
    ls_law_row_second(prep, row, &o);
    for (int j = 0; j < NP; j++)
        grad[j] = 0.0;
    for (int k = 0; k < 3; k++)
        for (int m = 0; m < o.na[k]; m++)
            grad[o.ia[k][m]] += o.w[k] * o.a[k][m];
    if (!hess)
        return o.ln_loss;
    for (int i = 0; i < NP * NP; i++)
        hess[i] = 0.0;
    /* The upper triangle (i <= j), then its mirror image. */
    for (int k = 0; k < 3; k++)
        for (int m = 0; m < o.na[k]; m++)
            for (int n = 0; n < o.na[k]; n++)
                if (o.ia[k][m] <= o.ia[k][n])
                    hess[o.ia[k][m] * NP + o.ia[k][n]] += o.w[k] * o.a[k][m] * o.a[k][n];
    for (int m = 0; m < o.nt; m++)
        hess[o.ti[m] * NP + o.tj[m]] += o.tv[m];
    for (int i = 0; i < NP; i++)
        for (int j = i; j < NP; j++) {
            hess[i * NP + j] -= grad[i] * grad[j];
            hess[j * NP + i] = hess[i * NP + j];
        }
    return o.ln_loss;
}

double ls_law_log_loss_hessian(const ls_law *l, const ls_law_point *x, double grad[LS_LAW_NPARAMS],
                               double hess[LS_LAW_NPARAMS * LS_LAW_NPARAMS])
{
    ls_law_row row;
    ls_law_prepared prep;
    ls_law_row_init(&row, x);
    ls_law_prepare(&prep, l);
    return ls_law_row_log_loss_hessian(&prep, &row, grad, hess);
}

int ls_law_has_second(ls_law_kind kind)
{
    if (kind.mapping >= LS_LAW_NMAPPINGS)
        return 0;
    switch (kind.base) {
    case LS_LAW_BASE_DENSE:
    case LS_LAW_BASE_MOE:
        return 1;
    default: /* a base this file does not differentiate twice */
        return 0;
    }
}
