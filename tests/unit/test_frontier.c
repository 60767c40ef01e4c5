/* The compute-optimal frontier: budget lists and ranges parse as written,
 * each point is the brute-force minimum of the loss along its budget, and
 * N_opt grows as F^a with the exponent the frontier reports, measured by a
 * finite difference of ln N_opt in ln F. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "loopscale/frontier.h"
#include "loopscale/lawfile.h"
#include "loopscale/plot.h"

static void budget_lists_and_ranges_parse(void **state)
{
    (void)state;
    double *v;
    size_t n;
    ls_error err;
    assert_int_equal(ls_frontier_budgets_parse("1e20,3.17e21", &v, &n, &err), 0);
    assert_int_equal(n, 2);
    assert_true(v[0] == 1e20 && v[1] == 3.17e21);
    free(v);
    assert_int_equal(ls_frontier_budgets_parse("1e18:1e24:13", &v, &n, &err), 0);
    assert_int_equal(n, 13);
    assert_true(v[0] == 1e18 && v[12] == 1e24);
    for (size_t i = 0; i < 13; i++) /* one per half decade */
        assert_true(fabs(log10(v[i]) - (18 + 0.5 * (double)i)) < 1e-13);
    free(v);
    const char *bad[] = {"1e20:1e21", "1e21:1e20:5", "1e20:1e21:1", "1e20:1e21:2.5", "1e20,,1e21", "1e20,-5",
                         "1e20:1e21:5,1e22", "lots", "1e20:0:3"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        v = NULL;
        if (ls_frontier_budgets_parse(bad[i], &v, &n, &err) != LS_ERR_USAGE)
            fail_msg("'%s' was accepted", bad[i]);
        assert_null(v);
        assert_non_null(strstr(err.message, bad[i]));
    }
}

/* Golden-section search on ln N along N D = F/6, for the test only. */
static double brute_force_n(const ls_law *l, double flops)
{
    double lo = log(1e2), hi = log(1e22), r = (sqrt(5.0) - 1) / 2;
    for (int it = 0; it < 200; it++) {
        double a = hi - r * (hi - lo), b = lo + r * (hi - lo);
        ls_law_point xa = {exp(a), exp(a), 0, 1, 1, flops / 6 / exp(a), 0};
        ls_law_point xb = {exp(b), exp(b), 0, 1, 1, flops / 6 / exp(b), 0};
        if (ls_law_loss(l, &xa) < ls_law_loss(l, &xb))
            hi = b;
        else
            lo = a;
    }
    return exp((lo + hi) / 2);
}

static void frontier_points_are_brute_force_minima(void **state)
{
    (void)state;
    ls_law epoch, kaplan;
    /* Epoch AI's replication of Chinchilla's approach 3 (their Table 1). */
    ls_law_init(&epoch, (ls_law_kind){LS_LAW_BASE_DENSE, LS_LAW_MAPPING_NONE});
    epoch.p[LS_LAW_P_A] = 482.01, epoch.p[LS_LAW_P_ALPHA] = 0.3478;
    epoch.p[LS_LAW_P_B] = 2085.43, epoch.p[LS_LAW_P_BETA] = 0.3658, epoch.p[LS_LAW_P_C] = 1.8172;
    ls_law_init(&kaplan, (ls_law_kind){LS_LAW_BASE_KAPLAN, LS_LAW_MAPPING_NONE});
    kaplan.p[LS_LAW_P_N_C] = 8.8e13, kaplan.p[LS_LAW_P_ALPHA_N] = 0.076;
    kaplan.p[LS_LAW_P_D_C] = 5.4e13, kaplan.p[LS_LAW_P_ALPHA_D] = 0.095;
    const ls_law *laws[] = {&epoch, &kaplan};
    double *budgets;
    size_t n;
    ls_error err;
    assert_int_equal(ls_frontier_budgets_parse("1e18:1e25:15", &budgets, &n, &err), 0);
    ls_frontier_point pts[15];
    for (size_t k = 0; k < 2; k++) {
        double a;
        assert_int_equal(ls_frontier_run(laws[k], budgets, n, pts, &a, &err), 0);
        for (size_t i = 0; i < n; i++) {
            double want = brute_force_n(laws[k], budgets[i]);
            if (fabs(pts[i].n_opt - want) > 1e-6 * want)
                fail_msg("law %zu at %g: N_opt %.10g, brute force %.10g", k, budgets[i], pts[i].n_opt, want);
            assert_true(fabs(6 * pts[i].n_opt * pts[i].d_opt - budgets[i]) <= 1e-14 * budgets[i]);
            assert_true(pts[i].tokens_per_param == pts[i].d_opt / pts[i].n_opt);
            ls_law_point x = {want, want, 0, 1, 1, budgets[i] / 6 / want, 0};
            assert_true(fabs(pts[i].loss - ls_law_loss(laws[k], &x)) <= 1e-12 * pts[i].loss);
            if (i > 0) { /* the slope between neighbouring budgets */
                double slope = log(pts[i].n_opt / pts[i - 1].n_opt) / log(budgets[i] / budgets[i - 1]);
                assert_true(fabs(slope - a) < 1e-12);
            }
        }
    }
    /* Epoch's a = beta / (alpha + beta) = 0.3658 / 0.7136. */
    double a;
    assert_int_equal(ls_frontier_run(&epoch, budgets, 1, pts, &a, &err), 0);
    assert_true(fabs(a - 0.3658 / 0.7136) < 1e-15);
    free(budgets);
}

static void frontier_plot_is_an_svg(void **state)
{
    (void)state;
    ls_law l;
    ls_law_init(&l, (ls_law_kind){LS_LAW_BASE_DENSE, LS_LAW_MAPPING_NONE});
    l.p[LS_LAW_P_ALPHA] = 0.34, l.p[LS_LAW_P_BETA] = 0.28, l.p[LS_LAW_P_A] = 406.4, l.p[LS_LAW_P_B] = 410.7;
    const double budgets[] = {1e19, 1e21, 1e23};
    ls_frontier_point pts[3];
    double a;
    ls_error err;
    assert_int_equal(ls_frontier_run(&l, budgets, 3, pts, &a, &err), 0);
    ls_figure o = ls_figure_default();
    size_t len = 0;
    unsigned char *svg = ls_plot_frontier(&l, pts, NULL, 3, a, NAN, NAN, NAN, &o, &len, &err);
    assert_non_null(svg);
    assert_true(len > 1000 && strstr((const char *)svg, "<svg") != NULL);
    free(svg);
    assert_null(ls_plot_frontier(&l, pts, NULL, 0, a, NAN, NAN, NAN, &o, &len, &err));
    assert_int_equal(err.code, LS_ERR_DATA);
}

/* With R = 1, E = 1 and no memory limit, solve's numerical optimum at each budget is
 * the plain model's closed form; the local exponent is a. */
static void solve_frontier_of_a_plain_model_is_the_closed_form(void **state)
{
    (void)state;
    ls_law epoch;
    ls_law_init(&epoch, (ls_law_kind){LS_LAW_BASE_DENSE, LS_LAW_MAPPING_NONE});
    epoch.p[LS_LAW_P_A] = 482.01, epoch.p[LS_LAW_P_ALPHA] = 0.3478;
    epoch.p[LS_LAW_P_B] = 2085.43, epoch.p[LS_LAW_P_BETA] = 0.3658, epoch.p[LS_LAW_P_C] = 1.8172;
    ls_arch_template t;
    ls_arch_template_default(&t);
    const double one = 1, budgets[] = {1e18, 1e20, 1e22, 1e24};
    ls_solve_options o = {.R = &one, .nR = 1, .E = &one, .nE = 1, .eps = 0};
    ls_frontier_point closed[4];
    ls_frontier_solve_point solved[4];
    const ls_solve_budget open16 = {.mem_bytes = INFINITY, .bits = 16};
    double a;
    ls_error err;
    assert_int_equal(ls_frontier_run(&epoch, budgets, 4, closed, &a, &err), 0);
    assert_int_equal(ls_frontier_run_solve(&epoch, &t, budgets, 4, &o, &open16, solved, &err), 0);
    for (size_t i = 0; i < 4; i++) {
        const ls_frontier_solve_point *s = &solved[i];
        assert_true(s->R == 1 && s->E == 1 && s->bound == LS_SOLVE_BOUND_COMPUTE);
        if (fabs(s->n_act / closed[i].n_opt - 1) > 1e-6 || fabs(s->tokens / closed[i].d_opt - 1) > 1e-6 ||
            fabs(s->loss / closed[i].loss - 1) > 1e-6 || fabs(s->exponent_n / a - 1) > 1e-6)
            fail_msg("at %g: N_act %.10g D %.10g slope %.10g against %.10g %.10g %.10g", budgets[i], s->n_act,
                     s->tokens, s->exponent_n, closed[i].n_opt, closed[i].d_opt, a);
    }
    /* One budget has no neighbour to take a slope from. */
    assert_int_equal(ls_frontier_run_solve(&epoch, &t, budgets, 1, &o, &open16, solved, &err), 0);
    assert_true(isnan(solved[0].exponent_n));
}

/* Under the default looped-MoE law and 3 GB of INT4 weights, each point is solve's
 * choice at its budget, memory binds at the larger budgets with the weights inside the
 * budget, and a memory no model fits is refused naming the budget. */
static void solve_frontier_points_are_solve_choices(void **state)
{
    (void)state;
    ls_error err;
    ls_lawfile *lf = ls_lawfile_default(&err);
    assert_non_null(lf);
    ls_arch_template t;
    ls_arch_template_default(&t);
    const double R[] = {1, 2, 3, 4, 6, 8}, E[] = {1, 2, 4, 8, 16}, budgets[] = {1e20, 1e21, 1e22, 1e23};
    ls_solve_options o = {.R = R, .nR = 6, .E = E, .nE = 5, .eps = 0.004};
    ls_frontier_solve_point pts[4];
    const ls_solve_budget int4 = {.mem_bytes = 3e9, .bits = 4}, tiny = {.mem_bytes = 400, .bits = 4};
    assert_int_equal(ls_frontier_run_solve(&lf->law, &t, budgets, 4, &o, &int4, pts, &err), 0);
    size_t memory_bound = 0;
    for (size_t i = 0; i < 4; i++) {
        ls_solve_budget b = {.flops = budgets[i], .mem_bytes = 3e9, .bits = 4};
        ls_solve_result r;
        assert_int_equal(ls_solve_run(&lf->law, &t, &b, &o, &r, &err), 0);
        assert_true(r.has_choice);
        assert_true(pts[i].R == r.choice.R && pts[i].E == r.choice.E && pts[i].n_act == r.choice.n_act &&
                    pts[i].tokens == r.choice.tokens && pts[i].loss == r.choice.loss);
        ls_solve_result_free(&r);
        assert_true(pts[i].n_total * 4 / 8 <= 3e9 * (1 + 1e-12));
        memory_bound += pts[i].bound == LS_SOLVE_BOUND_MEMORY;
    }
    assert_true(memory_bound >= 2);
    ls_figure co = ls_figure_default();
    size_t len = 0;
    unsigned char *svg = ls_plot_frontier_solve(&lf->law, pts, 4, &o, 3e9, 4, &co, &len, &err);
    assert_non_null(svg);
    assert_true(len > 1000 && strstr((const char *)svg, "<svg") != NULL);
    free(svg);
    assert_int_equal(ls_frontier_run_solve(&lf->law, &t, budgets, 4, &o, &tiny, pts, &err), LS_ERR_DATA);
    assert_non_null(strstr(err.message, "at 1e+20 FLOPs"));
    ls_lawfile_free(lf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(budget_lists_and_ranges_parse),
        cmocka_unit_test(frontier_points_are_brute_force_minima),
        cmocka_unit_test(frontier_plot_is_an_svg),
        cmocka_unit_test(solve_frontier_of_a_plain_model_is_the_closed_form),
        cmocka_unit_test(solve_frontier_points_are_solve_choices),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
