/* Tests of the law core: docs/laws.md's identities hold exactly, the analytic
 * Jacobian matches central finite differences for every law, and the
 * log-sum-exp evaluation agrees with the formulas written out directly. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "checks.h"

#include "law_internal.h"
#include "loopscale/law.h"

static const ls_law_base BASES[] = {LS_LAW_BASE_DENSE, LS_LAW_BASE_MOE, LS_LAW_BASE_KAPLAN, LS_LAW_BASE_DATA_CONSTRAINED};
#define NBASES (sizeof BASES / sizeof *BASES)

/* A law with non-round parameters, near the shipped truth. */
static ls_law sample_law(ls_law_kind kind)
{
    ls_law l;
    ls_law_init(&l, kind);
    l.p[LS_LAW_P_A] = 406.4;
    l.p[LS_LAW_P_ALPHA] = 0.3417;
    l.p[LS_LAW_P_B] = 410.7;
    l.p[LS_LAW_P_BETA] = 0.2813;
    l.p[LS_LAW_P_C] = 1.6931;
    l.p[LS_LAW_P_DELTA] = -0.1037;
    l.p[LS_LAW_P_GAMMA] = 0.00523;
    l.p[LS_LAW_P_OMEGA] = 0.0117;
    l.p[LS_LAW_P_ZETA] = -0.00291;
    l.p[LS_LAW_P_E_START] = 1.0;
    l.p[LS_LAW_P_E_MAX] = 287.3;
    l.p[LS_LAW_P_PHI] = 0.7385;
    l.p[LS_LAW_P_KAPPA1] = 1.2173;
    l.p[LS_LAW_P_KAPPA2] = 1.4871;
    l.p[LS_LAW_P_THETA] = 0.3529;
    l.p[LS_LAW_P_N_C] = 8.83e13;
    l.p[LS_LAW_P_ALPHA_N] = 0.0763;
    l.p[LS_LAW_P_D_C] = 5.41e13;
    l.p[LS_LAW_P_ALPHA_D] = 0.0951;
    l.p[LS_LAW_P_R_D_STAR] = 15.387756;
    l.p[LS_LAW_P_R_N_STAR] = 5.309743;
    return l;
}

static const ls_law_point POINTS[] = {
    {3.17e8, 3.17e8, 2.385e8, 1, 1, 1.13e11, 0},     /* dense, not looped */
    {6.23e8, 6.23e8, 4.671e8, 4, 1, 2.71e11, 0},     /* dense, looped */
    {2.93e8, 1.4627e9, 2.197e8, 1, 8, 3.37e11, 0},   /* MoE, not looped */
    {9.71e8, 1.0357e10, 7.283e8, 6, 16, 4.19e11, 0}, /* MoE, looped */
    {4.44e8, 9.62e8, 3.33e8, 13, 3, 1.77e11, 0},     /* odd E, many loops */
};
#define NPOINTS (sizeof POINTS / sizeof *POINTS)

/* docs/laws.md's formulas, written out directly in natural space. */
static double reference_loss(const ls_law *l, const ls_law_point *x)
{
    const double *p = l->p;
    double m = x->n_act / x->n_total, y = x->R - 1;
    double k1 = p[LS_LAW_P_KAPPA1], k2 = p[LS_LAW_P_KAPPA2], th = p[LS_LAW_P_THETA];
    double n_eff = x->n_act;
    switch (l->kind.mapping) {
    case LS_LAW_MAPPING_NONE: break;
    case LS_LAW_MAPPING_LINEAR: n_eff += y * x->n_loop; break;
    case LS_LAW_MAPPING_POWER: n_eff += (pow(x->R, p[LS_LAW_P_PHI]) - 1) * x->n_loop; break;
    case LS_LAW_MAPPING_BOUNDED: n_eff += k1 * x->n_loop * (1 - exp(-y / k2)); break;
    case LS_LAW_MAPPING_BOUNDED_SPARSE:
        n_eff += k1 * pow(m, -th) * x->n_loop * (1 - exp(-y / (k2 * pow(m, -th))));
        break;
    case LS_LAW_MAPPING_HYPERBOLIC:
        n_eff += k1 * pow(m, -th) * x->n_loop * y / (y + k2 * pow(m, -th));
        break;
    case LS_LAW_MAPPING_LOG: n_eff += k1 * x->n_loop * log(x->R); break;
    default: break;
    }
    if (l->kind.base == LS_LAW_BASE_KAPLAN)
        return pow(pow(p[LS_LAW_P_N_C] / n_eff, p[LS_LAW_P_ALPHA_N] / p[LS_LAW_P_ALPHA_D]) + p[LS_LAW_P_D_C] / x->D,
                   p[LS_LAW_P_ALPHA_D]);
    if (l->kind.base == LS_LAW_BASE_DENSE || l->kind.base == LS_LAW_BASE_DATA_CONSTRAINED) /* U unlimited */
        return p[LS_LAW_P_A] * pow(n_eff, -p[LS_LAW_P_ALPHA]) + p[LS_LAW_P_B] * pow(x->D, -p[LS_LAW_P_BETA]) + p[LS_LAW_P_C];
    double es = p[LS_LAW_P_E_START], em = p[LS_LAW_P_E_MAX];
    double ehat = 1.0 / (1.0 / (x->E - 1 + 1.0 / (1.0 / es - 1.0 / em)) + 1.0 / em);
    double le = log(ehat);
    return p[LS_LAW_P_A] * pow(ehat, p[LS_LAW_P_DELTA]) * pow(n_eff, -(p[LS_LAW_P_ALPHA] + p[LS_LAW_P_GAMMA] * le)) +
           p[LS_LAW_P_B] * pow(ehat, p[LS_LAW_P_OMEGA]) * pow(x->D, -(p[LS_LAW_P_BETA] + p[LS_LAW_P_ZETA] * le)) + p[LS_LAW_P_C];
}

static void loss_matches_formulas_written_out_for_every_law(void **state)
{
    (void)state;
    for (size_t b = 0; b < NBASES; b++)
        for (int mp = 0; mp < LS_LAW_NMAPPINGS; mp++) {
            ls_law l = sample_law((ls_law_kind){BASES[b], (ls_law_mapping)mp});
            for (size_t i = 0; i < NPOINTS; i++) {
                double want = reference_loss(&l, &POINTS[i]);
                double got = ls_law_loss(&l, &POINTS[i]);
                assert_true(fabs(got - want) <= 1e-13 * want);
            }
        }
}

/* Values worked out by hand (Python floats, independent of this code). */
static void loss_at_hand_computed_points(void **state)
{
    (void)state;
    ls_law chinchilla;
    ls_law_init(&chinchilla, (ls_law_kind){LS_LAW_BASE_DENSE, LS_LAW_MAPPING_NONE});
    chinchilla.p[LS_LAW_P_A] = 406.4;
    chinchilla.p[LS_LAW_P_ALPHA] = 0.34;
    chinchilla.p[LS_LAW_P_B] = 410.7;
    chinchilla.p[LS_LAW_P_BETA] = 0.28;
    chinchilla.p[LS_LAW_P_C] = 1.69;
    ls_law_point x = {7e10, 7e10, 0, 1, 1, 1.4e12, 0}; /* Chinchilla itself */
    /* 406.4*7e10**-0.34 + 410.7*1.4e12**-0.28 + 1.69 */
    assert_true(fabs(ls_law_loss(&chinchilla, &x) - 1.9366454705587173) < 1e-13);

    ls_law truth;
    ls_law_init(&truth, (ls_law_kind){LS_LAW_BASE_MOE, LS_LAW_MAPPING_BOUNDED_SPARSE});
    const ls_law_param names[] = {LS_LAW_P_A, LS_LAW_P_ALPHA, LS_LAW_P_B, LS_LAW_P_BETA, LS_LAW_P_C, LS_LAW_P_DELTA, LS_LAW_P_GAMMA,
                               LS_LAW_P_OMEGA, LS_LAW_P_ZETA, LS_LAW_P_E_START, LS_LAW_P_E_MAX, LS_LAW_P_PHI, LS_LAW_P_KAPPA1,
                               LS_LAW_P_KAPPA2, LS_LAW_P_THETA};
    const double values[] = {406.4, 0.34, 410.7, 0.28, 1.69, -0.10, 0.005, 0, 0, 1, 300, 1, 1.2, 1.5, 0.35};
    for (size_t j = 0; j < sizeof names / sizeof *names; j++)
        truth.p[names[j]] = values[j];
    /* N_act 1e9, E 8 (N_total 5.666...e9), N_loop 7.5e8, R 4, D 5e11:
     * Ehat = 1/(1/(7 + 300/299) + 1/300) = 7.7954; m = 3/17;
     * N_eff = 1e9 + 1.2 m^-0.35 7.5e8 (1 - exp(-3/(1.5 m^-0.35))). */
    ls_law_point y = {1e9, 1e9 * (1.0 / 3 + 2.0 / 3 * 8), 7.5e8, 4, 8, 5e11, 0};
    assert_true(fabs(ls_law_ehat(8, 1, 300) - 7.795380756409282) < 1e-12);
    assert_true(fabs(ls_law_n_eff(&truth, &y) - 2096225417.1071303) < 1e-3);
    assert_true(fabs(ls_law_loss(&truth, &y) - 2.0874698440188872) < 1e-13);
}

static void every_mapping_gives_n_act_at_one_loop(void **state)
{
    (void)state;
    for (int mp = 0; mp < LS_LAW_NMAPPINGS; mp++) {
        ls_law l = sample_law((ls_law_kind){LS_LAW_BASE_MOE, (ls_law_mapping)mp});
        ls_law_point x = {4.37e8, 2.9e9, 3.1e8, 1, 8, 1e11, 0};
        assert_true(ls_law_n_eff(&l, &x) == x.n_act);
        assert_true(ls_law_rho_eff(&l, &x) == 1.0);
    }
}

static void moe_equals_dense_bit_for_bit_at_one_expert(void **state)
{
    (void)state;
    for (int mp = 0; mp < LS_LAW_NMAPPINGS; mp++) {
        ls_law dense = sample_law((ls_law_kind){LS_LAW_BASE_DENSE, (ls_law_mapping)mp});
        ls_law moe = sample_law((ls_law_kind){LS_LAW_BASE_MOE, (ls_law_mapping)mp});
        for (size_t i = 0; i < NPOINTS; i++) {
            ls_law_point x = POINTS[i];
            x.E = 1;
            x.n_total = x.n_act;
            assert_true(ls_law_loss(&dense, &x) == ls_law_loss(&moe, &x));
        }
    }
    assert_true(ls_law_ehat(1, 1, 287.3) == 1.0);
}

static void bounded_sparse_reduces_to_bounded_when_theta_is_zero_or_m_is_one(void **state)
{
    (void)state;
    ls_law bounded = sample_law((ls_law_kind){LS_LAW_BASE_MOE, LS_LAW_MAPPING_BOUNDED});
    ls_law sparse = sample_law((ls_law_kind){LS_LAW_BASE_MOE, LS_LAW_MAPPING_BOUNDED_SPARSE});
    ls_law_point dense_point = {6.23e8, 6.23e8, 4.671e8, 5, 1, 2.71e11, 0};
    assert_true(ls_law_n_eff(&bounded, &dense_point) == ls_law_n_eff(&sparse, &dense_point));
    assert_true(ls_law_loss(&bounded, &dense_point) == ls_law_loss(&sparse, &dense_point));
    sparse.p[LS_LAW_P_THETA] = 0;
    for (size_t i = 0; i < NPOINTS; i++)
        assert_true(ls_law_n_eff(&bounded, &POINTS[i]) == ls_law_n_eff(&sparse, &POINTS[i]));
}

static void bounded_sparse_gain_tends_to_linear_slope_as_m_vanishes(void **state)
{
    (void)state;
    ls_law l = sample_law((ls_law_kind){LS_LAW_BASE_MOE, LS_LAW_MAPPING_BOUNDED_SPARSE});
    double slope = l.p[LS_LAW_P_KAPPA1] / l.p[LS_LAW_P_KAPPA2];
    for (double R = 2; R <= 64; R *= 2) {
        ls_law_point x = {1e9, 1e9 / 1e-60, 7.5e8, R, 1e6, 1e11, 0}; /* m = 1e-60 */
        double gain_per_loop = (ls_law_n_eff(&l, &x) - x.n_act) / ((R - 1) * x.n_loop);
        assert_true(fabs(gain_per_loop - slope) <= 1e-9 * slope);
    }
    /* The hyperbolic mapping has the same limit. */
    l.kind.mapping = LS_LAW_MAPPING_HYPERBOLIC;
    ls_law_point x = {1e9, 1e9 / 1e-60, 7.5e8, 9, 1e6, 1e11, 0};
    assert_true(fabs((ls_law_n_eff(&l, &x) - x.n_act) / (8 * x.n_loop) - slope) <= 1e-9 * slope);
}

static void rho_eff_approaches_its_ceiling(void **state)
{
    (void)state;
    const ls_law_mapping bounded[] = {LS_LAW_MAPPING_BOUNDED, LS_LAW_MAPPING_BOUNDED_SPARSE, LS_LAW_MAPPING_HYPERBOLIC};
    for (size_t i = 0; i < 3; i++) {
        ls_law l = sample_law((ls_law_kind){LS_LAW_BASE_MOE, bounded[i]});
        ls_law_point x = {9.71e8, 1.0357e10, 7.283e8, 1e12, 16, 4.19e11, 0};
        double ceiling = ls_law_rho_eff_ceiling(&l, &x);
        double m = x.n_act / x.n_total;
        double scale = bounded[i] == LS_LAW_MAPPING_BOUNDED ? 1.0 : pow(m, -l.p[LS_LAW_P_THETA]);
        assert_true(fabs(ceiling - (1 + l.p[LS_LAW_P_KAPPA1] * scale * x.n_loop / x.n_act)) < 1e-14 * ceiling);
        assert_true(fabs(ls_law_rho_eff(&l, &x) - ceiling) < 1e-9 * ceiling);
        x.R = 3;
        assert_true(ls_law_rho_eff(&l, &x) < ceiling);
    }
    ls_law linear = sample_law((ls_law_kind){LS_LAW_BASE_DENSE, LS_LAW_MAPPING_LINEAR});
    assert_true(isinf(ls_law_rho_eff_ceiling(&linear, &POINTS[1])));
}

/* The analytic gradient of ln L in fitted coordinates against central
 * differences, for every base x mapping, at every sample point. */
static void jacobian_matches_central_differences_for_every_law(void **state)
{
    (void)state;
    for (size_t b = 0; b < NBASES; b++)
        for (int mp = 0; mp < LS_LAW_NMAPPINGS; mp++) {
            ls_law_kind kind = {BASES[b], (ls_law_mapping)mp};
            ls_law l = sample_law(kind);
            ls_law_param params[LS_LAW_NPARAMS];
            size_t np = ls_law_params_of(kind, params);
            for (size_t i = 0; i < NPOINTS; i++) {
                double grad[LS_LAW_NPARAMS];
                ls_law_log_loss_grad(&l, &POINTS[i], grad);
                double norm = 0;
                for (size_t k = 0; k < np; k++)
                    norm = fmax(norm, fabs(grad[params[k]]));
                for (size_t k = 0; k < np; k++) {
                    ls_law_param j = params[k];
                    double u = ls_law_param_to_fitted(j, l.p[j]);
                    double h = 1e-5 * fmax(1.0, fabs(u));
                    ls_law up = l, down = l;
                    up.p[j] = ls_law_param_from_fitted(j, u + h);
                    down.p[j] = ls_law_param_from_fitted(j, u - h);
                    double fd = (ls_law_log_loss_grad(&up, &POINTS[i], NULL) -
                                 ls_law_log_loss_grad(&down, &POINTS[i], NULL)) / (2 * h);
                    double tol = 1e-6 * fmax(fabs(fd), 1e-3 * norm);
                    if (fabs(grad[j] - fd) > tol)
                        fail_msg("%s:%s point %zu param %s: analytic %.12g, differences %.12g",
                                 ls_law_base_name(kind.base), ls_law_mapping_name(kind.mapping), i, ls_law_param_name(j),
                                 grad[j], fd);
                }
                for (int j = 0; j < LS_LAW_NPARAMS; j++)
                    if (!ls_law_uses_param(kind, (ls_law_param)j))
                        assert_true(grad[j] == 0.0);
            }
        }
}

/* The analytic Hessian of ln L in fitted coordinates (law_hessian.c) against
 * central differences of law.c's analytic gradient, for every base x
 * mapping, at every sample point, with E_start at 1 and off it; its
 * gradient must be law.c's, and it must be symmetric. */
static void hessian_matches_differences_of_the_gradient_for_every_law(void **state)
{
    (void)state;
    size_t checked = 0;
    for (size_t b = 0; b < 2; b++)
        for (int mp = 0; mp < LS_LAW_NMAPPINGS; mp++)
            for (int variant = 0; variant < 2; variant++) {
                ls_law_kind kind = {BASES[b], (ls_law_mapping)mp};
                ls_law l = sample_law(kind);
                if (variant)
                    l.p[LS_LAW_P_E_START] = 1.379;
                ls_law_param params[LS_LAW_NPARAMS];
                size_t np = ls_law_params_of(kind, params);
                for (size_t i = 0; i < NPOINTS; i++) {
                    double grad[LS_LAW_NPARAMS], grad2[LS_LAW_NPARAMS], hess[LS_LAW_NPARAMS * LS_LAW_NPARAMS];
                    double ln1 = ls_law_log_loss_grad(&l, &POINTS[i], grad);
                    double ln2 = ls_law_log_loss_hessian(&l, &POINTS[i], grad2, hess);
                    assert_true(fabs(ln1 - ln2) <= 1e-13 * fabs(ln1));
                    double norm = 0;
                    for (int j = 0; j < LS_LAW_NPARAMS; j++) {
                        assert_true(fabs(grad[j] - grad2[j]) <= 1e-12 * fmax(fabs(grad[j]), 1e-3));
                        for (int k = 0; k < LS_LAW_NPARAMS; k++) {
                            norm = fmax(norm, fabs(hess[j * LS_LAW_NPARAMS + k]));
                            assert_true(hess[j * LS_LAW_NPARAMS + k] == hess[k * LS_LAW_NPARAMS + j]);
                            if (!ls_law_uses_param(kind, (ls_law_param)j))
                                assert_true(hess[j * LS_LAW_NPARAMS + k] == 0.0);
                        }
                    }
                    for (size_t k = 0; k < np; k++) {
                        ls_law_param j = params[k];
                        double u = ls_law_param_to_fitted(j, l.p[j]);
                        double h = 1e-5 * fmax(1.0, fabs(u));
                        ls_law up = l, down = l;
                        up.p[j] = ls_law_param_from_fitted(j, u + h);
                        down.p[j] = ls_law_param_from_fitted(j, u - h);
                        double gu[LS_LAW_NPARAMS], gd[LS_LAW_NPARAMS];
                        ls_law_log_loss_grad(&up, &POINTS[i], gu);
                        ls_law_log_loss_grad(&down, &POINTS[i], gd);
                        for (size_t kk = 0; kk < np; kk++) {
                            ls_law_param jj = params[kk];
                            double fd = (gu[jj] - gd[jj]) / (2 * h);
                            double an = hess[jj * LS_LAW_NPARAMS + j];
                            double tol = 1e-6 * fmax(fabs(fd), 1e-3 * norm);
                            if (fabs(an - fd) > tol)
                                fail_msg("%s:%s E_start %g point %zu d2/d%s d%s: analytic %.12g, differences %.12g",
                                         ls_law_base_name(kind.base), ls_law_mapping_name(kind.mapping),
                                         l.p[LS_LAW_P_E_START], i, ls_law_param_name(jj), ls_law_param_name(j), an,
                                         fd);
                            checked += an != 0.0;
                        }
                    }
                }
            }
    assert_true(checked > 1000); /* the comparison saw real curvature */
}

static void ehat_saturates_at_e_max(void **state)
{
    (void)state;
    /* Ehat(E) -> E_max as E -> inf, Ehat ~ E for E << E_max. */
    assert_true(fabs(ls_law_ehat(1e15, 1, 287.3) - 287.3) < 1e-9);
    assert_true(fabs(ls_law_ehat(2, 1, 1e12) - 2) < 1e-9);
    assert_true(ls_law_ehat(16, 1, 300) < 16 && ls_law_ehat(16, 1, 300) > 15);
}

static void law_names_parse_and_print(void **state)
{
    (void)state;
    ls_error err;
    ls_law_kind kind;
    assert_int_equal(ls_law_kind_parse("dense", &kind, &err), 0);
    assert_int_equal(kind.base, LS_LAW_BASE_DENSE);
    assert_int_equal(kind.mapping, LS_LAW_MAPPING_NONE);
    assert_int_equal(ls_law_kind_parse("moe:bounded-sparse", &kind, &err), 0);
    assert_int_equal(kind.mapping, LS_LAW_MAPPING_BOUNDED_SPARSE);
    char buf[64];
    assert_string_equal(ls_law_kind_format(kind, buf, sizeof buf), "moe:bounded-sparse");
    assert_int_equal(ls_law_kind_parse("moe:bounded-sprase", &kind, &err), LS_ERR_USAGE);
    assert_int_equal(ls_law_kind_parse("mo", &kind, &err), LS_ERR_USAGE);
    assert_int_equal(ls_law_param_from_name("kappa2"), LS_LAW_P_KAPPA2);
    assert_int_equal(ls_law_param_from_name("Alpha"), -1);
    assert_int_equal(ls_law_param_check(LS_LAW_P_E_MAX, 1.0, &err), LS_ERR_DATA);
    assert_int_equal(ls_law_param_check(LS_LAW_P_THETA, 0.0, &err), 0);
    assert_int_equal(ls_law_param_check(LS_LAW_P_A, -3, &err), LS_ERR_DATA);
    assert_int_equal(ls_law_param_check(LS_LAW_P_DELTA, -3, &err), 0);
}

/* The log mapping, N_eff = N_act + kappa1 N_loop ln R: exactly N_act at
 * R = 1, values worked out in Python (math.log), its one parameter's
 * derivative against central differences, no ceiling, and ln's signature:
 * squaring R doubles the gain. */
static void log_mapping_adds_kappa1_n_loop_ln_r(void **state)
{
    (void)state;
    ls_law_kind kind = {LS_LAW_BASE_DENSE, LS_LAW_MAPPING_LOG};
    ls_law l = sample_law(kind);
    ls_law_param params[LS_LAW_NPARAMS];
    size_t np = ls_law_params_of(kind, params);
    assert_int_equal(np, 6); /* A alpha B beta c kappa1 */
    assert_int_equal(params[5], LS_LAW_P_KAPPA1);
    assert_false(ls_law_uses_param(kind, LS_LAW_P_KAPPA2));
    assert_false(ls_law_uses_param(kind, LS_LAW_P_THETA));

    ls_law_point one = {6.23e8, 1.9e9, 4.671e8, 1, 8, 2.71e11, 0};
    assert_true(ls_law_n_eff(&l, &one) == one.n_act);
    ls_law moe = sample_law((ls_law_kind){LS_LAW_BASE_MOE, LS_LAW_MAPPING_LOG});
    assert_true(ls_law_n_eff(&moe, &one) == one.n_act);

    /* 6.23e8 + 1.2173*4.671e8*math.log(4), 9.71e8 + 1.2173*7.283e8*math.log(6) */
    ls_law_point four = {6.23e8, 6.23e8, 4.671e8, 4, 1, 2.71e11, 0};
    assert_true(fabs(ls_law_n_eff(&l, &four) - 1411248124.3570895) <= 1e-14 * 1411248124.3570895);
    assert_true(fabs(ls_law_n_eff(&moe, &POINTS[3]) - 2559501540.4174423) <= 1e-14 * 2559501540.4174423);

    /* d ln L / d u at u = ln kappa1, against central differences in u. */
    for (size_t i = 0; i < NPOINTS; i++) {
        double grad[LS_LAW_NPARAMS];
        ls_law_log_loss_grad(&moe, &POINTS[i], grad);
        double u = log(moe.p[LS_LAW_P_KAPPA1]), h = 1e-5;
        ls_law up = moe, down = moe;
        up.p[LS_LAW_P_KAPPA1] = exp(u + h);
        down.p[LS_LAW_P_KAPPA1] = exp(u - h);
        double fd = (ls_law_log_loss_grad(&up, &POINTS[i], NULL) - ls_law_log_loss_grad(&down, &POINTS[i], NULL)) /
                    (2 * h);
        if (POINTS[i].R == 1)
            assert_true(grad[LS_LAW_P_KAPPA1] == 0.0 && fd == 0.0);
        else
            assert_true(fabs(grad[LS_LAW_P_KAPPA1] - fd) <= 1e-7 * fabs(fd));
    }

    assert_true(isinf(ls_law_rho_eff_ceiling(&l, &four)));
    ls_law_point sq = four;
    sq.R = 16; /* 4^2 */
    double gain4 = ls_law_rho_eff(&l, &four) - 1, gain16 = ls_law_rho_eff(&l, &sq) - 1;
    assert_true(fabs(gain16 - 2 * gain4) <= 1e-14 * gain16);
    sq.R = 1e300;
    assert_true(ls_law_rho_eff(&l, &sq) > 100 * ls_law_rho_eff(&l, &four));
}

/* Each mapping's gain function: its first derivatives against central
 * differences of its value, and its second derivatives against central
 * differences of its first, in the natural parameters, at every looped
 * point; what a Hessian of ln L takes from the mapping. */
static void gain_derivatives_match_central_differences(void **state)
{
    (void)state;
    for (int mp = 0; mp < LS_LAW_NMAPPINGS; mp++) {
        ls_law_kind kind = {LS_LAW_BASE_MOE, (ls_law_mapping)mp};
        ls_law l = sample_law(kind);
        for (size_t i = 0; i < NPOINTS; i++) {
            const ls_law_point *x = &POINTS[i];
            double ln_m = ls_law_ln_active_ratio(x);
            law_gain g;
            ls_law_gain(&l, x, ln_m, ls_law_sparsity_scale(&l, ln_m), &g, 2);
            for (int j = LAW_P_FIRST_MAPPING; j < LS_LAW_NPARAMS; j++) {
                if (!ls_law_uses_param(kind, (ls_law_param)j))
                    continue;
                double h = 1e-5 * l.p[j];
                ls_law up = l, down = l;
                up.p[j] += h;
                down.p[j] -= h;
                law_gain gu, gd;
                ls_law_gain(&up, x, ln_m, ls_law_sparsity_scale(&up, ln_m), &gu, 1);
                ls_law_gain(&down, x, ln_m, ls_law_sparsity_scale(&down, ln_m), &gd, 1);
                double fd = (gu.value - gd.value) / (2 * h);
                if (fabs(g.d[j] - fd) > 1e-6 * fmax(fabs(fd), 1e-6 * x->n_loop))
                    fail_msg("%s point %zu d/d%s: %.12g, differences %.12g", ls_law_mapping_name(kind.mapping), i,
                             ls_law_param_name((ls_law_param)j), g.d[j], fd);
                for (int k = LAW_P_FIRST_MAPPING; k < LS_LAW_NPARAMS; k++) {
                    if (!ls_law_uses_param(kind, (ls_law_param)k))
                        continue;
                    double fd2 = (gu.d[k] - gd.d[k]) / (2 * h);
                    double got = g.d2[k - LAW_P_FIRST_MAPPING][j - LAW_P_FIRST_MAPPING];
                    if (fabs(got - fd2) > 1e-6 * fmax(fabs(fd2), 1e-6 * x->n_loop))
                        fail_msg("%s point %zu d2/d%s d%s: %.12g, differences %.12g",
                                 ls_law_mapping_name(kind.mapping), i, ls_law_param_name((ls_law_param)k),
                                 ls_law_param_name((ls_law_param)j), got, fd2);
                }
            }
        }
    }
}

/* Each mapping's descriptor agrees with itself and with what the law
 * computes: its name parses back, its formula names its parameters, the
 * sparse flag is "uses theta", and the ceiling kind matches rho_eff far out. */
static void every_mapping_descriptor_is_consistent(void **state)
{
    (void)state;
    for (int mp = 0; mp < LS_LAW_NMAPPINGS; mp++) {
        ls_law_mapping m = (ls_law_mapping)mp;
        const char *name = ls_law_mapping_name(m);
        assert_non_null(name);
        assert_int_equal(ls_law_mapping_from_name(name), mp);
        char text[64], back[64];
        snprintf(text, sizeof text, "moe:%s", name);
        ls_law_kind kind;
        ls_error err;
        assert_int_equal(ls_law_kind_parse(text, &kind, &err), 0);
        assert_int_equal(kind.mapping, mp);
        ls_law_kind_format(kind, back, sizeof back);
        assert_string_equal(back, mp == LS_LAW_MAPPING_NONE ? "moe" : text);
        /* An unknown name's message lists this one. */
        assert_int_equal(ls_law_kind_parse("moe:cubic", &kind, &err), LS_ERR_USAGE);
        assert_non_null(strstr(err.message, name));

        const char *formula = ls_law_mapping_formula(m);
        assert_non_null(formula);
        assert_true(strncmp(formula, "N_eff = N_act", 13) == 0);
        ls_law_kind dense = {LS_LAW_BASE_DENSE, m};
        for (int j = LS_LAW_P_PHI; j < LS_LAW_NPARAMS; j++)
            assert_true(ls_law_uses_param(dense, (ls_law_param)j) ==
                        (strstr(formula, ls_law_param_name((ls_law_param)j)) != NULL));
        assert_int_equal(ls_law_mapping_is_sparse(m), ls_law_uses_param(dense, LS_LAW_P_THETA));

        ls_law l = sample_law(dense);
        ls_law_point x = {9.71e8, 1.0357e10, 7.283e8, 3, 16, 4.19e11, 0};
        double near = ls_law_rho_eff(&l, &x), ceiling = ls_law_rho_eff_ceiling(&l, &x);
        x.R = 1e12;
        double far = ls_law_rho_eff(&l, &x);
        switch (ls_law_mapping_ceiling(m)) {
        case LS_LAW_CEILING_ONE:
            assert_true(ceiling == 1.0 && near == 1.0 && far == 1.0);
            break;
        case LS_LAW_CEILING_UNBOUNDED:
            assert_true(isinf(ceiling));
            assert_true(far > near + 1.0);
            break;
        case LS_LAW_CEILING_KAPPA1:
            assert_true(isfinite(ceiling));
            assert_true(near < ceiling && fabs(far - ceiling) < 1e-6 * ceiling);
            break;
        }
    }
    assert_int_equal(ls_law_mapping_from_name("Bounded"), -1);
    assert_int_equal(ls_law_base_from_name("moe"), LS_LAW_BASE_MOE);
    assert_int_equal(ls_law_base_from_name("sparse"), -1);
}

static void fitted_coordinates_round_trip(void **state)
{
    (void)state;
    ls_law l = sample_law((ls_law_kind){LS_LAW_BASE_MOE, LS_LAW_MAPPING_HYPERBOLIC});
    for (int j = 0; j < LS_LAW_NPARAMS; j++) {
        /* exp(u) carries u's rounding as a relative error |u| eps: ln N_c
         * is 32, so the bound grows with |u|. */
        double u = ls_law_param_to_fitted((ls_law_param)j, l.p[j]);
        double back = ls_law_param_from_fitted((ls_law_param)j, u);
        assert_true(fabs(back - l.p[j]) <= 4e-16 * (1 + fabs(u)) * fabs(l.p[j]) + 1e-300);
    }
}

/* Kaplan et al. 2020's law with their published fit (N_c = 8.8e13, alpha_N
 * = 0.076, D_c = 5.4e13, alpha_D = 0.095), at a point worked out in Python:
 * ((8.8e13/1.234e9)**(0.076/0.095) + 5.4e13/2.71e10)**0.095. */
static void kaplan_loss_at_a_hand_computed_point(void **state)
{
    (void)state;
    ls_law l;
    ls_law_init(&l, (ls_law_kind){LS_LAW_BASE_KAPLAN, LS_LAW_MAPPING_NONE});
    l.p[LS_LAW_P_N_C] = 8.8e13, l.p[LS_LAW_P_ALPHA_N] = 0.076, l.p[LS_LAW_P_D_C] = 5.4e13, l.p[LS_LAW_P_ALPHA_D] = 0.095;
    ls_law_point x = {1.234e9, 1.234e9, 0, 1, 1, 2.71e10, 0};
    assert_true(fabs(ls_law_loss(&l, &x) - 2.3900862866351287) <= 1e-14 * 2.39);
    /* D -> inf leaves (N_c/N)^alpha_N, N -> inf leaves (D_c/D)^alpha_D. */
    ls_law_point big_d = {1.234e9, 1.234e9, 0, 1, 1, 1e300, 0};
    assert_true(fabs(ls_law_loss(&l, &big_d) - pow(8.8e13 / 1.234e9, 0.076)) <= 1e-14);
    ls_law_point big_n = {1e300, 1e300, 0, 1, 1, 2.71e10, 0};
    assert_true(fabs(ls_law_loss(&l, &big_n) - pow(5.4e13 / 2.71e10, 0.095)) <= 1e-14);
    /* Kaplan's form has no parameter of the dense base. */
    assert_false(ls_law_uses_param(l.kind, LS_LAW_P_C));
    assert_false(ls_law_uses_param(l.kind, LS_LAW_P_A));
}

/* The minimum of L along N D = F/6 by brute force: a golden-section search
 * on ln N, independent of the closed forms. */
static double brute_force_optimal_n(const ls_law *l, double flops)
{
    double lo = log(1e3), hi = log(1e20), r = (sqrt(5.0) - 1) / 2;
    for (int it = 0; it < 200; it++) {
        double a = hi - r * (hi - lo), b = lo + r * (hi - lo);
        ls_law_point xa = {exp(a), exp(a), 0, 1, 1, flops / 6 / exp(a), 0};
        ls_law_point xb = {exp(b), exp(b), 0, 1, 1, flops / 6 / exp(b), 0};
        if (ls_law_log_loss_grad(l, &xa, NULL) < ls_law_log_loss_grad(l, &xb, NULL))
            hi = b;
        else
            lo = a;
    }
    return exp((lo + hi) / 2);
}

/* The closed-form compute-optimal allocation of dense (Chinchilla's
 * approach 3 fit: N_opt ~ F^0.4537) and kaplan (N_opt ~ F^(0.095/0.171))
 * agrees with a brute-force minimisation, spends the budget exactly and
 * has the stated exponent. */
static void compute_optimal_closed_form_matches_brute_force(void **state)
{
    (void)state;
    ls_law chinchilla, kaplan;
    ls_law_init(&chinchilla, (ls_law_kind){LS_LAW_BASE_DENSE, LS_LAW_MAPPING_NONE});
    chinchilla.p[LS_LAW_P_A] = 406.4, chinchilla.p[LS_LAW_P_ALPHA] = 0.34;
    chinchilla.p[LS_LAW_P_B] = 410.7, chinchilla.p[LS_LAW_P_BETA] = 0.28, chinchilla.p[LS_LAW_P_C] = 1.69;
    ls_law_init(&kaplan, (ls_law_kind){LS_LAW_BASE_KAPLAN, LS_LAW_MAPPING_NONE});
    kaplan.p[LS_LAW_P_N_C] = 8.8e13, kaplan.p[LS_LAW_P_ALPHA_N] = 0.076;
    kaplan.p[LS_LAW_P_D_C] = 5.4e13, kaplan.p[LS_LAW_P_ALPHA_D] = 0.095;
    const ls_law *laws[] = {&chinchilla, &kaplan};
    const double exponents[] = {0.28 / 0.62, 0.095 / 0.171};
    const double budgets[] = {3.17e19, 5.76e23, 2.2e25};
    ls_error err;
    for (size_t k = 0; k < 2; k++)
        for (size_t i = 0; i < 3; i++) {
            double n, d, a;
            assert_int_equal(ls_law_compute_optimal(laws[k], budgets[i], &n, &d, &a, &err), 0);
            double want = brute_force_optimal_n(laws[k], budgets[i]);
            if (fabs(n - want) > 1e-6 * want)
                fail_msg("law %zu budget %g: closed form %.10g, brute force %.10g", k, budgets[i], n, want);
            assert_true(fabs(6 * n * d - budgets[i]) <= 1e-14 * budgets[i]);
            assert_true(fabs(a - exponents[k]) <= 1e-15);
        }
    /* Chinchilla's published approach-3 allocation at 5.76e23 FLOPs (Gopher's budget). */
    double n, d;
    assert_int_equal(ls_law_compute_optimal(&chinchilla, 5.76e23, &n, &d, NULL, &err), 0);
    assert_true(n > 3e10 && n < 5e10);
    chinchilla.p[LS_LAW_P_BETA] = -0.1;
    assert_int_equal(ls_law_compute_optimal(&chinchilla, 1e21, &n, &d, NULL, &err), LS_ERR_DATA);
    assert_int_equal(ls_law_compute_optimal(&kaplan, -1, &n, &d, NULL, &err), LS_ERR_USAGE);
}

/* Muennighoff et al.'s published fit of the data-constrained law, as their
 * repository's README gives it: (a, b, e, alpha, beta, R_D*, R_N*) with
 * A = e^a, B = e^b, c = e^e. */
static ls_law datablations_law(ls_law_mapping mapping)
{
    ls_law l;
    ls_law_init(&l, (ls_law_kind){LS_LAW_BASE_DATA_CONSTRAINED, mapping});
    l.p[LS_LAW_P_A] = exp(6.255414);
    l.p[LS_LAW_P_B] = exp(7.3049974);
    l.p[LS_LAW_P_C] = exp(0.6254804);
    l.p[LS_LAW_P_ALPHA] = 0.3526596;
    l.p[LS_LAW_P_BETA] = 0.3526596;
    l.p[LS_LAW_P_R_D_STAR] = 15.387756;
    l.p[LS_LAW_P_R_N_STAR] = 5.309743;
    return l;
}

/* The check values their README prints for L(N, D, U). */
static void data_constrained_reproduces_the_published_check_values(void **state)
{
    (void)state;
    ls_law l = datablations_law(LS_LAW_MAPPING_NONE);
    ls_law_point a = {6.34e9, 6.34e9, 0, 1, 1, 242e9, 25e9};
    ls_law_point b = {8.67e9, 8.67e9, 0, 1, 1, 178e9, 25e9};
    double la = ls_law_loss(&l, &a), lb = ls_law_loss(&l, &b);
    if (fabs(la - 2.2256440889984477) > 1e-12 * 2.2256440889984477 ||
        fabs(lb - 2.2269634075087867) > 1e-12 * 2.2269634075087867)
        fail_msg("L = %.17g and %.17g", la, lb);
    /* The effective sizes: D' from 9.68 epochs of 25e9 tokens; N' from
     * U_N = D_to_N(25e9) = 1.2746629413e9 (worked out in Python). */
    double np, dp;
    ls_law_data_constrained_effective(&l, &a, &np, &dp);
    double rd = 242e9 / 25e9 - 1, want_dp = 25e9 * (1 + 15.387756 * (1 - exp(-rd / 15.387756)));
    assert_true(fabs(dp - want_dp) <= 1e-13 * want_dp);
    double un = 1274662941.3414571, rn = 6.34e9 / un - 1;
    double want_np = un * (1 + 5.309743 * (1 - exp(-rn / 5.309743)));
    assert_true(fabs(np - want_np) <= 1e-9 * want_np);
    /* Unique tokens not given, or a single pass over them with a model
     * small enough for them: Chinchilla's form, term for term. */
    ls_law dense = l;
    dense.kind.base = LS_LAW_BASE_DENSE;
    ls_law_point unlimited = a;
    unlimited.U = 0;
    assert_true(ls_law_loss(&l, &unlimited) == ls_law_loss(&dense, &unlimited));
    ls_law_point fresh = {1.1e9, 1.1e9, 0, 1, 1, 20e9, 25e9};
    assert_true(fabs(ls_law_loss(&l, &fresh) - ls_law_loss(&dense, &fresh)) <= 1e-15 * ls_law_loss(&l, &fresh));
}

/* The analytic gradient of the data-constrained law against central
 * differences, in every regime: data repeated or not, parameters beyond
 * D_to_N(U) or not, looped or not. */
static void data_constrained_jacobian_matches_central_differences(void **state)
{
    (void)state;
    const ls_law_point points[] = {
        {6.34e9, 6.34e9, 0, 1, 1, 242e9, 25e9},        /* both repeated */
        {8.67e8, 8.67e8, 0, 1, 1, 178e9, 25e9},        /* data repeated, model small */
        {3.17e9, 3.17e9, 0, 1, 1, 11.3e9, 25e9},       /* less than one pass, model large */
        {2.93e8, 2.93e8, 0, 1, 1, 7.1e9, 25e9},        /* neither */
        {2.1e9, 2.1e9, 1.575e9, 4, 1, 93.7e9, 4.3e9},  /* looped, both repeated */
    };
    const ls_law_mapping mappings[] = {LS_LAW_MAPPING_NONE, LS_LAW_MAPPING_BOUNDED};
    for (size_t m = 0; m < 2; m++) {
        ls_law l = datablations_law(mappings[m]);
        l.p[LS_LAW_P_BETA] = 0.3817; /* alpha != beta, so that every term of d ln M shows */
        l.p[LS_LAW_P_KAPPA1] = 1.2173, l.p[LS_LAW_P_KAPPA2] = 1.4871;
        ls_law_param params[LS_LAW_NPARAMS];
        size_t np = ls_law_params_of(l.kind, params);
        for (size_t i = 0; i < sizeof points / sizeof *points; i++) {
            double grad[LS_LAW_NPARAMS];
            ls_law_log_loss_grad(&l, &points[i], grad);
            for (size_t k = 0; k < np; k++) {
                ls_law_param j = params[k];
                double u = ls_law_param_to_fitted(j, l.p[j]);
                double h = 1e-6 * fmax(1.0, fabs(u));
                ls_law up = l, down = l;
                up.p[j] = ls_law_param_from_fitted(j, u + h);
                down.p[j] = ls_law_param_from_fitted(j, u - h);
                double fd = (ls_law_log_loss_grad(&up, &points[i], NULL) - ls_law_log_loss_grad(&down, &points[i], NULL)) /
                            (2 * h);
                if (fabs(grad[j] - fd) > 1e-6 * fmax(fabs(fd), 1e-4))
                    fail_msg("mapping %zu point %zu param %s: analytic %.12g, differences %.12g", m, i,
                             ls_law_param_name(j), grad[j], fd);
            }
        }
    }
}

/* Porian et al. 2024 count an open_lm transformer of width d, depth l,
 * vocabulary V and sequence length T as 6 (12 d^2 l + V d) + 6 T d l FLOPs
 * per training token ("attention" convention); Kaplan et al. 2020 as
 * 6 x non-embedding parameters.  The conventions must give those numbers
 * from N_act = 12 d^2 l, and 6nd must be ls_law_training_flops exactly. */
static void flops_conventions_match_published_counts(void **state)
{
    (void)state;
    const double d = 768, l = 12, V = 50432, T = 2048, D = 3.217e9;
    ls_law_flops c;
    ls_law_flops_default(&c);
    c.context = T;
    c.vocab = V;
    c.d_model = d;
    c.prelude_layers = 0;
    c.loop_layers = (int)l;
    c.coda_layers = 0;
    ls_law_point x = {12 * d * d * l, 12 * d * d * l, 12 * d * d * l, 1, 1, D, 0};
    const double body = 12 * d * d * l;
    const double want[LS_LAW_NFLOPS] = {6 * body, 6 * (body + V * d), 6 * body + 6 * T * d * l,
                                     6 * (body + V * d) + 6 * T * d * l};
    for (int k = 0; k < LS_LAW_NFLOPS; k++) {
        c.kind = (ls_law_flops_kind)k;
        ls_error err;
        assert_int_equal(ls_law_flops_check(&c, &err), 0);
        double F = ls_law_training_flops_as(&c, &x);
        close_to(F, want[k] * D);
        close_to(ls_law_inference_flops_as(&c, &x), want[k] / 3);
        close_to(ls_law_tokens_for_flops_as(&c, &x, F), D);
        assert_int_equal(ls_law_flops_from_name(ls_law_flops_name((ls_law_flops_kind)k)), k);
    }
    c.kind = LS_LAW_FLOPS_6ND;
    assert_true(ls_law_training_flops_as(&c, &x) == ls_law_training_flops(&x));
    assert_true(ls_law_training_flops_as(NULL, &x) == ls_law_training_flops(&x));
    assert_int_equal(ls_law_flops_from_name("6ND"), -1);
    assert_int_equal(ls_law_flops_from_name("6nd+head+attn"), -1);
}

/* Without a width, d is read off N_act through the attention share, and a
 * looped block counts its attention once per loop. */
static void flops_width_from_n_act_and_loops_unrolled(void **state)
{
    (void)state;
    ls_law_flops c;
    ls_law_flops_default(&c); /* 2 + 12 + 2 layers, attention 1/3 */
    c.kind = LS_LAW_FLOPS_6ND_ATTN;
    c.context = 4096;
    ls_law_point x = {5.455e8, 6e9, 0.75 * 5.455e8, 3, 16, 1e11, 0};
    double d = sqrt(5.455e8 / 3.0 / (4.0 * 16));
    close_to(ls_law_flops_width(&c, &x), d);
    /* 4 d^2 per layer is attention's third of N_act / 16 */
    close_to(16 * 4 * d * d, 5.455e8 / 3.0);
    double per_token = 5.455e8 + 2 * 0.75 * 5.455e8 + (2 + 3 * 12 + 2) * 4096 * d;
    close_to(ls_law_flops_per_token_params(&c, &x), per_token);
    ls_error err;
    assert_int_equal(ls_law_flops_check(&c, &err), 0);
    c.context = 0;
    assert_int_equal(ls_law_flops_check(&c, &err), LS_ERR_USAGE);
    assert_non_null(strstr(err.message, "context"));
    c.kind = LS_LAW_FLOPS_6ND_HEAD;
    assert_int_equal(ls_law_flops_check(&c, &err), LS_ERR_USAGE);
    assert_non_null(strstr(err.message, "vocab"));
    c.vocab = 32000;
    c.attention_share = 0;
    assert_int_equal(ls_law_flops_check(&c, &err), LS_ERR_USAGE);
    assert_non_null(strstr(err.message, "width"));
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(loss_matches_formulas_written_out_for_every_law),
        cmocka_unit_test(loss_at_hand_computed_points),
        cmocka_unit_test(every_mapping_gives_n_act_at_one_loop),
        cmocka_unit_test(moe_equals_dense_bit_for_bit_at_one_expert),
        cmocka_unit_test(bounded_sparse_reduces_to_bounded_when_theta_is_zero_or_m_is_one),
        cmocka_unit_test(bounded_sparse_gain_tends_to_linear_slope_as_m_vanishes),
        cmocka_unit_test(rho_eff_approaches_its_ceiling),
        cmocka_unit_test(jacobian_matches_central_differences_for_every_law),
        cmocka_unit_test(hessian_matches_differences_of_the_gradient_for_every_law),
        cmocka_unit_test(ehat_saturates_at_e_max),
        cmocka_unit_test(law_names_parse_and_print),
        cmocka_unit_test(log_mapping_adds_kappa1_n_loop_ln_r),
        cmocka_unit_test(gain_derivatives_match_central_differences),
        cmocka_unit_test(every_mapping_descriptor_is_consistent),
        cmocka_unit_test(fitted_coordinates_round_trip),
        cmocka_unit_test(flops_conventions_match_published_counts),
        cmocka_unit_test(flops_width_from_n_act_and_loops_unrolled),
        cmocka_unit_test(kaplan_loss_at_a_hand_computed_point),
        cmocka_unit_test(compute_optimal_closed_form_matches_brute_force),
        cmocka_unit_test(data_constrained_reproduces_the_published_check_values),
        cmocka_unit_test(data_constrained_jacobian_matches_central_differences),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
