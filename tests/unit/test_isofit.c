/* IsoFLOP minima: the parabola's vertex and the power law through the
 * optima against closed forms, approach 1's lowest run, Porian et al.'s
 * filter, and bootstrap intervals that hold the estimate. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "loopscale/isofit.h"
#include "tmpfile.h"

/* The truth: N_opt = G F^A_EXP; at each budget the loss is
 * L0(F) + K (ln N - ln N_opt)^2 (+ QUARTIC (ln N - ln N_opt)^4 far out). */
#define G 0.0713
#define A_EXP 0.4871
#define K 0.0537

static const double BUDGETS[] = {1e18, 4e18, 1.6e19, 6.4e19};

static ls_sweep *isoflop_sweep(double quartic, double noise, const double *offsets, size_t noff)
{
    size_t cap = 64 + 4 * noff * 120, len = 0;
    char *text = malloc(cap);
    len += (size_t)snprintf(text + len, cap - len, "n_act,tokens,loss\n");
    unsigned long state = 2385;
    for (size_t b = 0; b < 4; b++) {
        double f = BUDGETS[b], n_opt = G * pow(f, A_EXP), l0 = 2.0 + 40.0 * pow(f, -0.08);
        for (size_t k = 0; k < noff; k++) {
            double u = offsets[k], n = n_opt * exp(u);
            state = state * 6364136223846793005UL + 1442695040888963407UL;
            double z = ((double)(state >> 11) / 9007199254740992.0 - 0.5) * 3.4641; /* unit variance */
            double loss = (l0 + K * u * u + quartic * u * u * u * u) * exp(noise * z);
            len += (size_t)snprintf(text + len, cap - len, "%.17g,%.17g,%.17g\n", n, f / (6 * n), loss);
        }
    }
    const char *path = write_temp(text, len, 0);
    free(text);
    ls_error err;
    const char *paths[] = {path};
    ls_sweep_options o = {.require_loss = 1};
    ls_sweep *s = ls_sweep_read(paths, 1, &o, &err);
    unlink(path);
    assert_non_null(s);
    return s;
}

static const double OFFSETS[] = {-1.61, -0.93, -0.41, 0.12, 0.57, 1.08, 1.73};

static void the_parabola_and_the_power_law_recover_a_quadratic_truth(void **state)
{
    (void)state;
    ls_sweep *s = isoflop_sweep(0.0, 0.0, OFFSETS, 7);
    ls_isofit_options o;
    ls_isofit_default_options(&o);
    ls_isofit_result r;
    ls_error err;
    assert_int_equal(ls_isofit_run(s, &o, &r, &err), 0);
    assert_int_equal(r.nbudgets, 4);
    assert_int_equal(r.nused, 4);
    for (size_t b = 0; b < 4; b++) {
        double n_opt = G * pow(BUDGETS[b], A_EXP), l0 = 2.0 + 40.0 * pow(BUDGETS[b], -0.08);
        assert_true(fabs(r.budgets[b].flops / BUDGETS[b] - 1) < 1e-12);
        assert_true(fabs(r.budgets[b].n_opt / n_opt - 1) < 1e-9);
        assert_true(fabs(r.budgets[b].d_opt / (BUDGETS[b] / (6 * n_opt)) - 1) < 1e-9);
        assert_true(fabs(r.budgets[b].loss_opt - l0) < 1e-9);
    }
    assert_true(fabs(r.a - A_EXP) < 1e-9);
    assert_true(fabs(exp(r.ln_g) / G - 1) < 1e-7);
    assert_true(fabs(r.b - (1 - A_EXP)) < 1e-9);
    assert_true(fabs(exp(r.ln_h) * 6 * G - 1) < 1e-7); /* D_opt = F^(1-a) / (6 G) */
    assert_true(fabs(r.r2 - 1) < 1e-12);
    ls_isofit_result_free(&r);
    ls_sweep_free(s);
}

/* A budget's FLOPs are its runs' own, not the tier's label: with each run's
 * F off its budget by up to 1.5% (as logged budgets are), the budget is
 * the geometric mean of the runs' 6 N D, computed here independently. */
static void a_budget_is_the_geometric_mean_of_its_runs_flops(void **state)
{
    (void)state;
    static const double SPREAD[] = {-0.015, 0.004, 0.011, -0.007, 0.013, -0.002, 0.008};
    char text[4096];
    size_t len = (size_t)snprintf(text, sizeof text, "n_act,tokens,loss\n");
    double expected[4];
    for (size_t b = 0; b < 4; b++) {
        double n_opt = G * pow(BUDGETS[b], A_EXP), sum_ln_f = 0;
        for (size_t k = 0; k < 7; k++) {
            double n = n_opt * exp(OFFSETS[k]), f = BUDGETS[b] * (1 + SPREAD[k]), d = f / (6 * n);
            sum_ln_f += log(6 * n * d);
            len += (size_t)snprintf(text + len, sizeof text - len, "%.17g,%.17g,%.17g\n", n, d,
                                    2.0 + K * OFFSETS[k] * OFFSETS[k]);
        }
        expected[b] = exp(sum_ln_f / 7);
    }
    const char *path = write_temp(text, len, 0);
    ls_error err;
    const char *paths[] = {path};
    ls_sweep_options so = {.require_loss = 1};
    ls_sweep *s = ls_sweep_read(paths, 1, &so, &err);
    unlink(path);
    assert_non_null(s);
    ls_isofit_options o;
    ls_isofit_default_options(&o);
    o.group_tol = 0.05;
    ls_isofit_result r;
    assert_int_equal(ls_isofit_run(s, &o, &r, &err), 0);
    assert_int_equal(r.nbudgets, 4);
    for (size_t b = 0; b < 4; b++)
        assert_true(fabs(r.budgets[b].flops / expected[b] - 1) < 1e-12);
    ls_isofit_result_free(&r);
    ls_sweep_free(s);
}

/* Approach 1 takes the lowest run: on sizes that include the truth's
 * optimum, that is the optimum itself; at the edge of the sizes it is
 * flagged and left out. */
static void the_lowest_run_is_approach_one(void **state)
{
    (void)state;
    static const double on_grid[] = {-1.2, -0.6, 0.0, 0.7, 1.3};
    ls_sweep *s = isoflop_sweep(0.0, 0.0, on_grid, 5);
    ls_isofit_options o;
    ls_isofit_default_options(&o);
    o.method = LS_ISOFIT_MINIMUM;
    ls_isofit_result r;
    ls_error err;
    assert_int_equal(ls_isofit_run(s, &o, &r, &err), 0);
    for (size_t b = 0; b < 4; b++)
        assert_true(fabs(r.budgets[b].n_opt / (G * pow(BUDGETS[b], A_EXP)) - 1) < 1e-12);
    assert_true(fabs(r.a - A_EXP) < 1e-9);
    ls_isofit_result_free(&r);
    ls_sweep_free(s);
    static const double one_side[] = {0.0, 0.4, 0.9, 1.5};
    s = isoflop_sweep(0.0, 0.0, one_side, 4);
    assert_int_equal(ls_isofit_run(s, &o, &r, &err), LS_ERR_DATA);
    ls_sweep_free(s);
}

/* Far from the optimum the loss is not a parabola in ln N; keeping the
 * runs within a factor k of the first optimum restores the vertex. */
static void the_filter_keeps_the_runs_near_the_optimum(void **state)
{
    (void)state;
    static const double wide[] = {-4.1, -3.2, -0.62, -0.21, 0.33, 0.71, 3.4, 4.4};
    ls_sweep *s = isoflop_sweep(0.013, 0.0, wide, 8);
    ls_isofit_options o;
    ls_isofit_default_options(&o);
    ls_isofit_result all, near;
    ls_error err;
    assert_int_equal(ls_isofit_run(s, &o, &all, &err), 0);
    o.keep_factor = exp(1.0);
    assert_int_equal(ls_isofit_run(s, &o, &near, &err), 0);
    for (size_t b = 0; b < 4; b++) {
        double n_opt = G * pow(BUDGETS[b], A_EXP);
        assert_int_equal(near.budgets[b].used, 4);
        /* within 1% with the filter (the quartic bends the 4 near runs a little) */
        assert_true(fabs(log(near.budgets[b].n_opt / n_opt)) < 0.01);
        assert_true(fabs(log(near.budgets[b].n_opt / n_opt)) < fabs(log(all.budgets[b].n_opt / n_opt)));
    }
    ls_isofit_result_free(&all);
    ls_isofit_result_free(&near);
    ls_sweep_free(s);
}

static void bootstrap_intervals_hold_the_estimate(void **state)
{
    (void)state;
    ls_sweep *s = isoflop_sweep(0.0, 0.002, OFFSETS, 7);
    ls_isofit_options o;
    ls_isofit_default_options(&o);
    o.bootstrap = 200;
    o.seed = 7;
    ls_isofit_result r, again;
    ls_error err;
    assert_int_equal(ls_isofit_run(s, &o, &r, &err), 0);
    assert_true(r.ndraws > 150);
    assert_true(r.a_lo <= r.a && r.a <= r.a_hi && r.a_hi - r.a_lo < 0.2);
    assert_true(r.a_lo < A_EXP && A_EXP < r.a_hi);
    for (size_t b = 0; b < 4; b++)
        assert_true(r.budgets[b].n_lo <= r.budgets[b].n_opt && r.budgets[b].n_opt <= r.budgets[b].n_hi);
    assert_int_equal(ls_isofit_run(s, &o, &again, &err), 0);
    assert_true(again.a_lo == r.a_lo && again.a_hi == r.a_hi); /* the seed fixes the draws */
    ls_isofit_result_free(&r);
    ls_isofit_result_free(&again);
    ls_sweep_free(s);
}

/* The parabola kept for the figure: on a quadratic truth its coefficients
 * are the truth's (curvature K, value l0 at the optimum), centred on the
 * mean ln N of the budget's runs, and its vertex exp(centre - c1 / (2 c2))
 * is N_opt = G F^a in closed form; the fitted sizes span the runs. */
static void the_stored_parabola_is_the_truth_and_its_vertex_is_n_opt(void **state)
{
    (void)state;
    ls_sweep *s = isoflop_sweep(0.0, 0.0, OFFSETS, 7);
    ls_isofit_options o;
    ls_isofit_default_options(&o);
    ls_isofit_result r;
    ls_error err;
    assert_int_equal(ls_isofit_run(s, &o, &r, &err), 0);
    double mean_offset = 0;
    for (size_t k = 0; k < 7; k++)
        mean_offset += OFFSETS[k] / 7;
    for (size_t b = 0; b < 4; b++) {
        const ls_isofit_budget *bu = &r.budgets[b];
        double n_opt = G * pow(BUDGETS[b], A_EXP), l0 = 2.0 + 40.0 * pow(BUDGETS[b], -0.08);
        double centre = log(n_opt) + mean_offset; /* the runs' mean ln N */
        assert_true(fabs(bu->ln_n_centre - centre) < 1e-12);
        assert_true(fabs(bu->c2 - K) < 1e-9);
        /* L = l0 + K (u + centre - ln n_opt)^2 expanded in u = ln N - centre */
        assert_true(fabs(bu->c1 - 2 * K * mean_offset) < 1e-9);
        assert_true(fabs(bu->c0 - (l0 + K * mean_offset * mean_offset)) < 1e-9);
        assert_true(fabs(exp(bu->ln_n_centre - bu->c1 / (2 * bu->c2)) / n_opt - 1) < 1e-9);
        assert_true(fabs(bu->n_fit_lo / (n_opt * exp(OFFSETS[0])) - 1) < 1e-12);
        assert_true(fabs(bu->n_fit_hi / (n_opt * exp(OFFSETS[6])) - 1) < 1e-12);
    }
    ls_isofit_result_free(&r);
    ls_sweep_free(s);
}

/* With noise the stored coefficients are the least-squares ones: each
 * budget's residuals are orthogonal to 1, u and u^2 (the normal equations,
 * checked here from the runs), and the vertex of the stored parabola is the
 * N_opt and loss the table prints.  Every run is recorded in the budget of
 * its own 6 N D. */
static void the_stored_parabola_solves_the_normal_equations(void **state)
{
    (void)state;
    ls_sweep *s = isoflop_sweep(0.004, 0.01, OFFSETS, 7);
    ls_isofit_options o;
    ls_isofit_default_options(&o);
    ls_isofit_result r;
    ls_error err;
    assert_int_equal(ls_isofit_run(s, &o, &r, &err), 0);
    assert_int_equal(r.nruns, s->n);
    double grad[4][3] = {{0}}, scale[4] = {0};
    for (size_t i = 0; i < s->n; i++) {
        double f = 6 * s->rows[i].n_act * s->rows[i].tokens;
        size_t nearest = 0;
        for (size_t b = 1; b < 4; b++)
            if (fabs(log(f / BUDGETS[b])) < fabs(log(f / BUDGETS[nearest])))
                nearest = b;
        assert_int_equal(r.run_budget[i], nearest);
        const ls_isofit_budget *bu = &r.budgets[nearest];
        double u = log(s->rows[i].n_act) - bu->ln_n_centre;
        double residual = s->rows[i].loss - (bu->c0 + bu->c1 * u + bu->c2 * u * u);
        grad[nearest][0] += residual;
        grad[nearest][1] += residual * u;
        grad[nearest][2] += residual * u * u;
        scale[nearest] += fabs(s->rows[i].loss) * (1 + u * u);
    }
    for (size_t b = 0; b < 4; b++) {
        const ls_isofit_budget *bu = &r.budgets[b];
        assert_int_equal(bu->status, LS_ISOFIT_USED);
        for (int k = 0; k < 3; k++)
            assert_true(fabs(grad[b][k]) < 1e-12 * scale[b]);
        double u = -bu->c1 / (2 * bu->c2);
        assert_true(fabs(exp(bu->ln_n_centre + u) / bu->n_opt - 1) < 1e-12);
        assert_true(fabs(bu->c0 + bu->c1 * u + bu->c2 * u * u - bu->loss_opt) < 1e-12);
    }
    ls_isofit_result_free(&r);
    ls_sweep_free(s);
}

/* Approach 1 fits no parabola: the coefficients are NaN, the sizes are the
 * runs'. */
static void the_lowest_run_stores_no_parabola(void **state)
{
    (void)state;
    ls_sweep *s = isoflop_sweep(0.0, 0.0, OFFSETS, 7);
    ls_isofit_options o;
    ls_isofit_default_options(&o);
    o.method = LS_ISOFIT_MINIMUM;
    ls_isofit_result r;
    ls_error err;
    assert_int_equal(ls_isofit_run(s, &o, &r, &err), 0);
    for (size_t b = 0; b < 4; b++) {
        assert_true(isnan(r.budgets[b].c2) && isnan(r.budgets[b].ln_n_centre));
        assert_true(fabs(r.budgets[b].n_fit_hi / r.budgets[b].n_fit_lo / exp(OFFSETS[6] - OFFSETS[0]) - 1) < 1e-12);
    }
    ls_isofit_result_free(&r);
    ls_sweep_free(s);
}

/* The figure is drawn from a result of the same runs, and refused for
 * another sweep's. */
static void the_figure_needs_the_runs_it_was_fitted_on(void **state)
{
    (void)state;
    ls_sweep *s = isoflop_sweep(0.0, 0.0, OFFSETS, 7), *other = isoflop_sweep(0.0, 0.0, OFFSETS, 5);
    ls_isofit_options o;
    ls_isofit_default_options(&o);
    ls_isofit_result r;
    ls_error err;
    assert_int_equal(ls_isofit_run(s, &o, &r, &err), 0);
    ls_figure out = ls_figure_default();
    size_t len = 0;
    unsigned char *svg = ls_isofit_plot(s, &o, &r, &out, &len, &err);
    assert_non_null(svg);
    assert_true(len > 100 && strstr((const char *)svg, "<svg") != NULL);
    free(svg);
    assert_null(ls_isofit_plot(other, &o, &r, &out, &len, &err));
    assert_int_equal(err.code, LS_ERR_USAGE);
    ls_isofit_result_free(&r);
    ls_sweep_free(s);
    ls_sweep_free(other);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_parabola_and_the_power_law_recover_a_quadratic_truth),
        cmocka_unit_test(a_budget_is_the_geometric_mean_of_its_runs_flops),
        cmocka_unit_test(the_lowest_run_is_approach_one),
        cmocka_unit_test(the_filter_keeps_the_runs_near_the_optimum),
        cmocka_unit_test(bootstrap_intervals_hold_the_estimate),
        cmocka_unit_test(the_stored_parabola_is_the_truth_and_its_vertex_is_n_opt),
        cmocka_unit_test(the_stored_parabola_solves_the_normal_equations),
        cmocka_unit_test(the_lowest_run_stores_no_parabola),
        cmocka_unit_test(the_figure_needs_the_runs_it_was_fitted_on),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
