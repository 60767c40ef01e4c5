/* IsoFLOP minima: the parabola's vertex and the power law through the
 * optima against closed forms, approach 1's lowest run, Porian et al.'s
 * filter, Akima's interpolant against scipy and closed forms, the
 * least-squares interval against Student's t, bootstrap and noised-copy
 * intervals that hold the estimate, and the warnings. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "akima_internal.h"
#include "loopscale/isofit.h"
#include "loopscale/plot.h"
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
    ls_isofit_curves c;
    assert_int_equal(ls_isofit_curves_run(s, &o, &r, LS_PLOT_ISOFIT_POINTS, &c, &err), 0);
    unsigned char *svg = ls_plot_isofit(s, &o, &r, &c, &out, &len, &err);
    assert_non_null(svg);
    assert_true(len > 100 && strstr((const char *)svg, "<svg") != NULL);
    free(svg);
    assert_null(ls_plot_isofit(other, &o, &r, &c, &out, &len, &err));
    assert_int_equal(err.code, LS_ERR_USAGE);
    ls_isofit_curves c_other;
    assert_int_equal(ls_isofit_curves_run(other, &o, &r, LS_PLOT_ISOFIT_POINTS, &c_other, &err), LS_ERR_USAGE);
    ls_isofit_curves_free(&c);
    ls_isofit_result_free(&r);
    ls_sweep_free(s);
    ls_sweep_free(other);
}


/* ---- Akima's interpolant ------------------------------------------------ */

/* Relative difference, with an absolute floor for values near zero. */
static int close_to(double got, double want, double tol)
{
    return fabs(got - want) <= tol * fmax(fabs(want), 1.0);
}

typedef struct akima_case {
    size_t k;
    double x[6], y[6];
    double t[6];          /* scipy's derivatives at the knots */
    double u[5], v[5];    /* scipy's values at five points between them */
    double at, low;       /* the exact minimum */
    long knot;            /* the knot it is at, -1 inside a piece */
} akima_case;

/* scipy 1.10.1's Akima1DInterpolator on three point sets: uneven knots with
 * two local minima (A), three knots (B) and a V of equal secants, whose
 * apex has weights that vanish to rounding (3.9e-16 and 0), where scipy's
 * fill value (m_{i-2} + m_{i+1}) / 2 takes over from the weighted mean,
 * which would be -0.48 (C).  Per
 * set, with x, y as below and u = linspace(x[0], x[-1], 7)[1:-1] + 0.0123:
 *   python3 -c "from scipy.interpolate import Akima1DInterpolator as A; a = A(x, y); print(a.derivative()(x), a(u))"
 * and the minimum from scipy's own piece coefficients a.c, the roots of
 * each piece's derivative by numpy:
 *   python3 -c "import numpy as np; from scipy.interpolate import Akima1DInterpolator as A; a = A(x, y); print(min([(y[0], x[0])] + [(y[i+1], x[i+1]) for i in range(len(x)-1)] + [(np.polyval(a.c[:,i], s.real), x[i] + s.real) for i in range(len(x)-1) for s in np.roots([3*a.c[0,i], 2*a.c[1,i], a.c[2,i]]) if s.imag == 0 and 0 < s.real < x[i+1]-x[i]]))" */
static const akima_case AKIMA_CASES[] = {
    {6, {0.37, 1.12, 1.58, 2.71, 3.05, 4.46}, {2.91, 2.47, 2.385, 2.52, 2.44, 2.98},
     {-0.78760869565217329, -0.35794179465825576, -0.02318301318249831, 0.002466963709768245, -0.009875509920538636,
      0.69211514392991258},
     {1.0639666666666667, 1.7456333333333334, 2.4273000000000002, 3.1089666666666669, 3.7906333333333335},
     {2.4911218038966223, 2.3900033814011215, 2.4972578304001845, 2.4405842696446536, 2.6009809153364669},
     1.6135209823135455, 2.384615270957561, -1},
    {3, {-1.3, 0.41, 2.73}, {3.1, 2.6, 2.95},
     {-0.51402752571082877, -0.070767795926598043, 0.37249193385763268},
     {-0.61603333333333332, 0.055633333333333444, 0.72730000000000006, 1.3989666666666669, 2.0706333333333338},
     {2.8090543277134117, 2.6413533813174874, 2.5871632824215136, 2.6234467210519519, 2.7459243280905885},
     0.78039522320159194, 2.5868939732161418, -1},
    {6, {0.21, 1.33, 2.45, 3.57, 4.69, 5.81}, {2.91, 2.37, 1.83, 2.37, 2.91, 3.2},
     {-0.48214285714285715, -0.48214285714285715, -1.1102230246251565e-16, 0.48214285714285698, 0.48214285714285654,
      0.14732142857142877},
     {1.1556333333333333, 2.0889666666666669, 3.0223, 3.9556333333333331, 4.8889666666666658},
     {2.4540696428571431, 1.9241354861318019, 2.0399447951979179, 2.5559303571428571, 2.9947964993784342},
     2.4500000000000002, 1.8300000000000001, 2},
};

static void akima_matches_scipy_on_non_round_points(void **state)
{
    (void)state;
    for (size_t c = 0; c < sizeof AKIMA_CASES / sizeof *AKIMA_CASES; c++) {
        const akima_case *a = &AKIMA_CASES[c];
        double t[6], scratch[9], at;
        long knot;
        ls_akima_slopes(a->x, a->y, a->k, scratch, t);
        for (size_t i = 0; i < a->k; i++)
            assert_true(close_to(t[i], a->t[i], 1e-13));
        for (size_t i = 0; i < 5; i++)
            assert_true(close_to(ls_akima_eval(a->x, a->y, t, a->k, a->u[i]), a->v[i], 1e-14));
        double low = ls_akima_min(a->x, a->y, t, a->k, &at, &knot);
        assert_true(close_to(low, a->low, 1e-14));
        assert_true(close_to(at, a->at, 1e-12));
        assert_int_equal(knot, a->knot);
    }
}

/* Akima's curve is exact for a parabola through equally spaced knots (its
 * secants change by equal steps, so each knot's slope is their mean: the
 * parabola's derivative, and the extended end secants are the parabola's
 * too), and for a straight line through any knots; not for a parabola
 * through unequal ones. */
static void akima_reproduces_a_parabola_on_equal_spacing_and_a_line_on_any(void **state)
{
    (void)state;
    const double c0 = 2.385, c1 = -0.61, c2 = 0.293;
    double x[7], y[7], t[7], scratch[10], at;
    long knot;
    for (size_t i = 0; i < 7; i++) {
        x[i] = 0.83 + 0.37 * (double)i;
        y[i] = c0 + c1 * x[i] + c2 * x[i] * x[i];
    }
    ls_akima_slopes(x, y, 7, scratch, t);
    for (size_t i = 0; i < 7; i++)
        assert_true(close_to(t[i], c1 + 2 * c2 * x[i], 1e-12));
    for (double u = 0.83; u <= x[6]; u += 0.0917)
        assert_true(close_to(ls_akima_eval(x, y, t, 7, u), c0 + c1 * u + c2 * u * u, 1e-13));
    double vertex = -c1 / (2 * c2);
    double low = ls_akima_min(x, y, t, 7, &at, &knot);
    assert_true(close_to(at, vertex, 1e-12));
    assert_true(close_to(low, c0 - c1 * c1 / (4 * c2), 1e-14));
    assert_int_equal(knot, -1);
    /* the same parabola through uneven knots: not reproduced */
    static const double uneven[7] = {0.83, 0.91, 1.37, 1.52, 2.26, 2.41, 3.05};
    double worst = 0;
    for (size_t i = 0; i < 7; i++)
        y[i] = c0 + c1 * uneven[i] + c2 * uneven[i] * uneven[i];
    ls_akima_slopes(uneven, y, 7, scratch, t);
    for (double u = 0.83; u <= 3.05; u += 0.0917)
        worst = fmax(worst, fabs(ls_akima_eval(uneven, y, t, 7, u) - (c0 + c1 * u + c2 * u * u)));
    assert_true(worst > 1e-4);
    /* a line through the uneven knots: reproduced, its minimum at the low end */
    for (size_t i = 0; i < 7; i++)
        y[i] = 3.17 - 0.242 * uneven[i];
    ls_akima_slopes(uneven, y, 7, scratch, t);
    for (double u = 0.83; u <= 3.05; u += 0.0917)
        assert_true(close_to(ls_akima_eval(uneven, y, t, 7, u), 3.17 - 0.242 * u, 1e-14));
    ls_akima_min(uneven, y, t, 7, &at, &knot);
    assert_int_equal(knot, 6);
}

/* A truth whose ln L is a parabola in ln N, L = L0(F) exp(K u^2), sampled
 * at sizes equally spaced in ln N (not centred on the optimum): Akima's
 * interpolant of ln L is that parabola, so the akima method finds every
 * N_opt, its loss and the exponent exactly. */
static ls_sweep *sweep_of(const char *text)
{
    const char *path = write_temp_text(text, 0);
    ls_error err;
    const char *paths[] = {path};
    ls_sweep_options o = {.require_loss = 1};
    ls_sweep *s = ls_sweep_read(paths, 1, &o, &err);
    unlink(path);
    assert_non_null(s);
    return s;
}

static ls_sweep *log_parabola_sweep(const double *offsets, size_t noff, size_t nbudgets)
{
    static char text[16384];
    size_t len = (size_t)snprintf(text, sizeof text, "n_act,tokens,loss\n");
    for (size_t b = 0; b < nbudgets; b++) {
        double f = BUDGETS[b], n_opt = G * pow(f, A_EXP), l0 = 2.0 + 40.0 * pow(f, -0.08);
        for (size_t k = 0; k < noff; k++) {
            double n = n_opt * exp(offsets[k]);
            len += (size_t)snprintf(text + len, sizeof text - len, "%.17g,%.17g,%.17g\n", n, f / (6 * n),
                                    l0 * exp(K * offsets[k] * offsets[k]));
        }
    }
    return sweep_of(text);
}

static const double EVEN[] = {-1.37, -0.76, -0.15, 0.46, 1.07, 1.68, 2.29};

static void the_akima_method_recovers_a_log_parabola_truth(void **state)
{
    (void)state;
    ls_sweep *s = log_parabola_sweep(EVEN, 7, 4);
    ls_isofit_options o;
    ls_isofit_default_options(&o);
    o.method = LS_ISOFIT_AKIMA;
    ls_isofit_result r;
    ls_error err;
    assert_int_equal(ls_isofit_run(s, &o, &r, &err), 0);
    assert_int_equal(r.nused, 4);
    for (size_t b = 0; b < 4; b++) {
        double n_opt = G * pow(BUDGETS[b], A_EXP), l0 = 2.0 + 40.0 * pow(BUDGETS[b], -0.08);
        assert_true(fabs(r.budgets[b].n_opt / n_opt - 1) < 1e-9);
        assert_true(fabs(r.budgets[b].loss_opt / l0 - 1) < 1e-12);
        assert_true(isnan(r.budgets[b].c2)); /* no parabola is stored */
        assert_true(fabs(r.budgets[b].n_fit_lo / (n_opt * exp(EVEN[0])) - 1) < 1e-12);
    }
    assert_true(fabs(r.a - A_EXP) < 1e-9);
    assert_true(r.a_se < 1e-8 && r.a_ls_lo <= r.a && r.a <= r.a_ls_hi);
    assert_int_equal(r.warnings.n, 0);
    ls_isofit_result_free(&r);
    ls_sweep_free(s);
}

/* Sizes repeated in a budget (seeds) enter Akima's interpolant as the
 * mean loss at that size: the same optimum as the runs with the mean. */
static void akima_takes_the_mean_loss_of_a_repeated_size(void **state)
{
    (void)state;
    const char *repeated = "n_act,tokens,loss\n"
                           "1e8,2e10,3.31\n2e8,1e10,3.2\n2e8,1e10,3.26\n4e8,5e9,3.3\n8e8,2.5e9,3.5\n"
                           "1e8,4e10,3.11\n2e8,2e10,3.0\n4e8,1e10,3.07\n4e8,1e10,3.12\n8e8,5e9,3.2\n";
    const char *mean = "n_act,tokens,loss\n"
                       "1e8,2e10,3.31\n2e8,1e10,3.23\n4e8,5e9,3.3\n8e8,2.5e9,3.5\n"
                       "1e8,4e10,3.11\n2e8,2e10,3.0\n4e8,1e10,3.095\n8e8,5e9,3.2\n";
    ls_sweep *a = sweep_of(repeated), *b = sweep_of(mean);
    ls_isofit_options o;
    ls_isofit_default_options(&o);
    o.method = LS_ISOFIT_AKIMA;
    ls_isofit_result ra, rb;
    ls_error err;
    assert_int_equal(ls_isofit_run(a, &o, &ra, &err), 0);
    assert_int_equal(ls_isofit_run(b, &o, &rb, &err), 0);
    for (size_t k = 0; k < 2; k++) {
        assert_int_equal(ra.budgets[k].status, LS_ISOFIT_USED);
        assert_true(fabs(ra.budgets[k].n_opt / rb.budgets[k].n_opt - 1) < 1e-14);
        assert_true(fabs(ra.budgets[k].loss_opt / rb.budgets[k].loss_opt - 1) < 1e-14);
    }
    assert_int_equal(ra.budgets[0].runs, 5);
    ls_isofit_result_free(&ra);
    ls_isofit_result_free(&rb);
    ls_sweep_free(a);
    ls_sweep_free(b);
}

/* Akima's interpolant is of ln L: a loss of 0 or less (from a sweep built
 * by hand; the reader refuses them) is an error naming its line. */
static void akima_refuses_a_loss_that_is_not_positive(void **state)
{
    (void)state;
    ls_sweep_row rows[3] = {{.n_act = 1e8, .n_total = 1e8, .R = 1, .E = 1, .k = 1, .tokens = 2e10, .loss = 3.1, .line = 2},
                            {.n_act = 2e8, .n_total = 2e8, .R = 1, .E = 1, .k = 1, .tokens = 1e10, .loss = 0, .line = 3},
                            {.n_act = 4e8, .n_total = 4e8, .R = 1, .E = 1, .k = 1, .tokens = 5e9, .loss = 3.2, .line = 4}};
    char name[] = "hand.csv";
    ls_sweep s = {.n = 3, .rows = rows, .has_loss = 1, .name = name};
    ls_isofit_options o;
    ls_isofit_default_options(&o);
    o.method = LS_ISOFIT_AKIMA;
    ls_isofit_result r;
    ls_error err;
    assert_int_equal(ls_isofit_run(&s, &o, &r, &err), LS_ERR_DATA);
    assert_non_null(strstr(err.message, "hand.csv:3: loss 0"));
}

/* ---- intervals and warnings --------------------------------------------- */

/* The least-squares interval of a: a -+ t se, se^2 = sum r^2 / ((m - 2)
 * sum (ln F - mean)^2), computed here from the optima the result reports,
 * with t = scipy.stats.t.ppf(0.975, 2) = 4.302652729911275 for 4 budgets. */
static void the_least_squares_interval_is_students_t(void **state)
{
    (void)state;
    ls_sweep *s = isoflop_sweep(0.004, 0.01, OFFSETS, 7);
    ls_isofit_options o;
    ls_isofit_default_options(&o);
    ls_isofit_result r;
    ls_error err;
    assert_int_equal(ls_isofit_run(s, &o, &r, &err), 0);
    assert_int_equal(r.nused, 4);
    double mx = 0, my = 0, sxx = 0, sxy = 0, ssr = 0;
    for (size_t b = 0; b < 4; b++) {
        mx += log(r.budgets[b].flops) / 4;
        my += log(r.budgets[b].n_opt) / 4;
    }
    for (size_t b = 0; b < 4; b++) {
        double u = log(r.budgets[b].flops) - mx;
        sxx += u * u;
        sxy += u * (log(r.budgets[b].n_opt) - my);
    }
    double a = sxy / sxx;
    for (size_t b = 0; b < 4; b++) {
        double res = log(r.budgets[b].n_opt) - my - a * (log(r.budgets[b].flops) - mx);
        ssr += res * res;
    }
    double se = sqrt(ssr / 2 / sxx);
    assert_true(se > 1e-4); /* the noise shows */
    assert_true(close_to(r.a, a, 1e-12));
    assert_true(close_to(r.a_se, se, 1e-9));
    /* to GSL's accuracy of t, 4e-11 relative */
    assert_true(close_to(r.a_ls_lo, a - 4.302652729911275 * se, 1e-10));
    assert_true(close_to(r.a_ls_hi, a + 4.302652729911275 * se, 1e-10));
    ls_isofit_result_free(&r);
    ls_sweep_free(s);
}

static int count_warnings(const ls_isofit_result *r, ls_warning_code code)
{
    int n = 0;
    for (size_t i = 0; i < r->warnings.n; i++)
        n += r->warnings.v[i].code == code;
    return n;
}

/* Two budgets: a line through two points, which R^2 would call perfect;
 * no R^2, no least-squares interval, and a "fit-quality" warning. */
static void two_budgets_have_no_r2_and_say_so(void **state)
{
    (void)state;
    ls_sweep *s = sweep_of("n_act,tokens,loss\n1e8,2e10,3.3\n2e8,1e10,3.2\n4e8,5e9,3.3\n"
                           "1e8,4e10,3.1\n2e8,2e10,3.0\n4e8,1e10,3.1\n");
    for (int m = LS_ISOFIT_PARABOLA; m <= LS_ISOFIT_AKIMA; m++) {
        ls_isofit_options o;
        ls_isofit_default_options(&o);
        o.method = (ls_isofit_method)m;
        ls_isofit_result r;
        ls_error err;
        assert_int_equal(ls_isofit_run(s, &o, &r, &err), 0);
        assert_int_equal(r.nused, 2);
        assert_true(isfinite(r.a) && isnan(r.r2) && isnan(r.a_se) && isnan(r.a_ls_lo) && isnan(r.a_ls_hi));
        assert_int_equal(r.warnings.n, 1);
        assert_int_equal(r.warnings.v[0].code, LS_WARNING_FIT_QUALITY);
        assert_string_equal(r.warnings.v[0].subject, "");
        assert_non_null(strstr(r.warnings.v[0].message, "a line through two points has no error to judge it by"));
        ls_isofit_result_free(&r);
    }
    ls_sweep_free(s);
}

/* A budget sampled only above its optimum: every method puts its optimum
 * at the smallest size and says so, with the budget as the subject; the
 * other three make the power law. */
static void a_budget_whose_optimum_is_at_an_edge_is_named(void **state)
{
    (void)state;
    static char text[8192];
    size_t len = (size_t)snprintf(text, sizeof text, "n_act,tokens,loss\n");
    static const double above[] = {0.31, 0.83, 1.42, 1.97};
    for (size_t b = 0; b < 4; b++) {
        double f = BUDGETS[b], n_opt = G * pow(f, A_EXP), l0 = 2.0 + 40.0 * pow(f, -0.08);
        const double *u = b == 2 ? above : OFFSETS;
        for (size_t k = 0; k < (b == 2 ? 4u : 7u); k++) {
            double n = n_opt * exp(u[k]);
            len += (size_t)snprintf(text + len, sizeof text - len, "%.17g,%.17g,%.17g\n", n, f / (6 * n),
                                    l0 + K * u[k] * u[k]);
        }
    }
    ls_sweep *s = sweep_of(text);
    for (int m = LS_ISOFIT_PARABOLA; m <= LS_ISOFIT_AKIMA; m++) {
        ls_isofit_options o;
        ls_isofit_default_options(&o);
        o.method = (ls_isofit_method)m;
        ls_isofit_result r;
        ls_error err;
        assert_int_equal(ls_isofit_run(s, &o, &r, &err), 0);
        assert_int_equal(r.nused, 3);
        assert_int_equal(r.budgets[2].status, LS_ISOFIT_AT_EDGE);
        assert_int_equal(r.warnings.n, 1);
        assert_int_equal(r.warnings.v[0].code, LS_WARNING_SEARCH_EDGE);
        char subject[32];
        snprintf(subject, sizeof subject, "F=%.4g", r.budgets[2].flops);
        assert_string_equal(r.warnings.v[0].subject, "F=1.6e+19");
        assert_string_equal(r.warnings.v[0].subject, subject);
        assert_non_null(strstr(r.warnings.v[0].message, "at or below its smallest size"));
        assert_true(isfinite(r.r2)); /* three budgets: R^2 means something */
        ls_isofit_result_free(&r);
    }
    ls_sweep_free(s);
}

/* Porian et al.'s noised copies: on a noise-free log-parabola truth, with
 * noise of 0.002 on every loss, each budget's median optimum lies within
 * a few percent of the truth and inside its interval, which holds the
 * truth; the exponent's interval holds the truth; a seed repeats it. */
static void noised_copies_give_medians_and_intervals_that_hold_the_truth(void **state)
{
    (void)state;
    ls_sweep *s = log_parabola_sweep(EVEN, 7, 4);
    ls_isofit_options o;
    ls_isofit_default_options(&o);
    o.method = LS_ISOFIT_AKIMA;
    o.noise_draws = 400;
    o.noise_sd = 0.002;
    o.seed = 11;
    ls_isofit_result r, again;
    ls_error err;
    assert_int_equal(ls_isofit_run(s, &o, &r, &err), 0);
    assert_int_equal(r.nused, 4);
    size_t fewest = SIZE_MAX;
    for (size_t b = 0; b < 4; b++) {
        const ls_isofit_budget *bu = &r.budgets[b];
        double n_opt = G * pow(BUDGETS[b], A_EXP);
        assert_true(bu->draws_ok >= o.noise_draws / 2 && bu->draws_ok <= o.noise_draws);
        fewest = bu->draws_ok < fewest ? bu->draws_ok : fewest;
        assert_true(fabs(log(bu->n_opt / n_opt)) < 0.05);
        assert_true(bu->n_lo < bu->n_opt && bu->n_opt < bu->n_hi);
        assert_true(bu->n_lo < n_opt && n_opt < bu->n_hi);
        assert_true(bu->n_hi / bu->n_lo > 1.05); /* the noise moves the optimum */
    }
    assert_int_equal(r.ndraws, fewest); /* the i-th copy of every budget, paired */
    assert_true(r.a_lo < A_EXP && A_EXP < r.a_hi && r.a_hi - r.a_lo < 0.2);
    assert_int_equal(ls_isofit_run(s, &o, &again, &err), 0);
    assert_true(again.a == r.a && again.a_lo == r.a_lo && again.a_hi == r.a_hi);
    ls_isofit_result_free(&r);
    ls_isofit_result_free(&again);
    ls_sweep_free(s);
}

/* A budget of three sizes close to its optimum, whose losses differ by a
 * tenth of the noise: interior on the runs as given, but in most noised
 * copies the lowest point falls on one of its two end sizes (with losses
 * as good as equal, two of three), and Porian et al. leave it out; so does
 * isofit, with a "search-edge" warning. */
static void a_budget_at_the_edge_in_most_noised_copies_is_left_out(void **state)
{
    (void)state;
    static char text[8192];
    size_t len = (size_t)snprintf(text, sizeof text, "n_act,tokens,loss\n");
    static const double near_edge[] = {-0.12, 0.01, 0.13};
    for (size_t b = 0; b < 4; b++) {
        double f = BUDGETS[b], n_opt = G * pow(f, A_EXP), l0 = 2.0 + 40.0 * pow(f, -0.08);
        const double *u = b == 1 ? near_edge : EVEN;
        for (size_t k = 0; k < (b == 1 ? 3u : 7u); k++) {
            double n = n_opt * exp(u[k]);
            len += (size_t)snprintf(text + len, sizeof text - len, "%.17g,%.17g,%.17g\n", n, f / (6 * n),
                                    l0 * exp(K * u[k] * u[k]));
        }
    }
    ls_sweep *s = sweep_of(text);
    ls_isofit_options o;
    ls_isofit_default_options(&o);
    o.method = LS_ISOFIT_AKIMA;
    ls_isofit_result r;
    ls_error err;
    assert_int_equal(ls_isofit_run(s, &o, &r, &err), 0);
    assert_int_equal(r.budgets[1].status, LS_ISOFIT_USED);
    ls_isofit_result_free(&r);
    o.noise_draws = 200;
    o.noise_sd = 0.03;
    assert_int_equal(ls_isofit_run(s, &o, &r, &err), 0);
    assert_int_equal(r.budgets[1].status, LS_ISOFIT_NOISE_EDGE);
    assert_true(r.budgets[1].draws_ok < 100 && isnan(r.budgets[1].n_opt));
    assert_int_equal(r.nused, 3);
    assert_int_equal(count_warnings(&r, LS_WARNING_SEARCH_EDGE), 1);
    assert_string_equal(r.warnings.v[0].subject, "F=4e+18");
    assert_non_null(strstr(r.warnings.v[0].message, "noised copies"));
    ls_isofit_result_free(&r);
    ls_sweep_free(s);
}

static void draws_are_asked_for_one_way_with_what_they_need(void **state)
{
    (void)state;
    ls_sweep *s = isoflop_sweep(0.0, 0.0, OFFSETS, 7);
    ls_isofit_options o;
    ls_isofit_result r;
    ls_error err;
    ls_isofit_default_options(&o);
    o.noise_draws = 100; /* no noise_sd */
    assert_int_equal(ls_isofit_run(s, &o, &r, &err), LS_ERR_USAGE);
    assert_non_null(strstr(err.message, "standard deviation"));
    o.noise_sd = 0.01;
    o.bootstrap = 100;
    assert_int_equal(ls_isofit_run(s, &o, &r, &err), LS_ERR_USAGE);
    o.bootstrap = 0;
    o.noise_draws = 19;
    assert_int_equal(ls_isofit_run(s, &o, &r, &err), LS_ERR_USAGE);
    assert_non_null(strstr(err.message, "at least 20"));
    o.noise_draws = 0;
    o.noise_sd = -0.01;
    assert_int_equal(ls_isofit_run(s, &o, &r, &err), LS_ERR_USAGE);
    o.noise_sd = 0;
    o.method = (ls_isofit_method)7;
    assert_int_equal(ls_isofit_run(s, &o, &r, &err), LS_ERR_USAGE);
    assert_null(ls_isofit_method_name((ls_isofit_method)7));
    assert_string_equal(ls_isofit_method_name(LS_ISOFIT_AKIMA), "akima");
    ls_sweep_free(s);
}

/* Equal losses at every size: Akima's interpolant is flat and has no
 * optimum ("not convex", as the parabola's). */
static void a_flat_budget_has_no_akima_optimum(void **state)
{
    (void)state;
    ls_sweep *s = sweep_of("n_act,tokens,loss\n1e8,2e10,2.5\n2e8,1e10,2.5\n4e8,5e9,2.5\n"
                           "1e8,4e10,3.1\n2e8,2e10,3.0\n4e8,1e10,3.1\n");
    ls_isofit_options o;
    ls_isofit_default_options(&o);
    o.method = LS_ISOFIT_AKIMA;
    ls_isofit_result r;
    ls_error err;
    assert_int_equal(ls_isofit_run(s, &o, &r, &err), LS_ERR_DATA);
    assert_non_null(strstr(err.message, "1 not convex"));
    ls_sweep_free(s);
}

/* The figure draws Akima's interpolant through each budget's runs and
 * names the method. */
static void the_figure_draws_the_akima_curve(void **state)
{
    (void)state;
    ls_sweep *s = log_parabola_sweep(EVEN, 7, 4);
    ls_isofit_options o;
    ls_isofit_default_options(&o);
    o.method = LS_ISOFIT_AKIMA;
    ls_isofit_result r;
    ls_error err;
    assert_int_equal(ls_isofit_run(s, &o, &r, &err), 0);
    ls_figure out = ls_figure_default();
    size_t len = 0;
    ls_isofit_curves c;
    assert_int_equal(ls_isofit_curves_run(s, &o, &r, LS_PLOT_ISOFIT_POINTS, &c, &err), 0);
    unsigned char *svg = ls_plot_isofit(s, &o, &r, &c, &out, &len, &err);
    ls_isofit_curves_free(&c);
    assert_non_null(svg);
    char *text = malloc(len + 1);
    memcpy(text, svg, len);
    text[len] = '\0';
    assert_non_null(strstr(text, "Akima"));
    assert_non_null(strstr(text, "interpolant"));
    free(text);
    free(svg);
    ls_isofit_result_free(&r);
    ls_sweep_free(s);
}

/* The curves a figure draws: on a truth exactly quadratic in ln N,
 * approach 2's sampled parabola is the truth itself over the sizes fitted;
 * Akima's interpolant of a log-parabola passes through the runs at its
 * ends and stays near the truth between them; approach 1 draws none. */
static void isofit_curves_are_the_fitted_curves(void **state)
{
    (void)state;
    ls_sweep *s = isoflop_sweep(0.0, 0.0, OFFSETS, 7);
    ls_isofit_options o;
    ls_isofit_default_options(&o);
    ls_isofit_result r;
    ls_isofit_curves c;
    ls_error err;
    assert_int_equal(ls_isofit_run(s, &o, &r, &err), 0);
    assert_int_equal(ls_isofit_curves_run(s, &o, &r, 33, &c, &err), 0);
    assert_int_equal(c.nbudgets, 4);
    for (size_t b = 0; b < 4; b++) {
        double f = BUDGETS[b], n_opt = G * pow(f, A_EXP), l0 = 2.0 + 40.0 * pow(f, -0.08);
        assert_int_equal(c.count[b], 33);
        assert_true(fabs(c.n_act[b * 33] / (n_opt * exp(OFFSETS[0])) - 1) < 1e-12);
        assert_true(fabs(c.n_act[b * 33 + 32] / (n_opt * exp(OFFSETS[6])) - 1) < 1e-12);
        for (size_t k = 0; k < 33; k++) {
            double u = log(c.n_act[b * 33 + k]) - log(n_opt);
            assert_true(fabs(c.loss[b * 33 + k] - (l0 + K * u * u)) < 1e-9);
        }
    }
    ls_isofit_curves_free(&c);
    ls_isofit_result_free(&r);
    o.method = LS_ISOFIT_MINIMUM;
    assert_int_equal(ls_isofit_run(s, &o, &r, &err), 0);
    assert_int_equal(ls_isofit_curves_run(s, &o, &r, 33, &c, &err), 0);
    for (size_t b = 0; b < 4; b++)
        assert_int_equal(c.count[b], 0);
    ls_isofit_curves_free(&c);
    assert_int_equal(ls_isofit_curves_run(s, &o, &r, 1, &c, &err), LS_ERR_USAGE);
    ls_isofit_result_free(&r);
    ls_sweep_free(s);

    s = log_parabola_sweep(EVEN, 7, 4);
    o.method = LS_ISOFIT_AKIMA;
    assert_int_equal(ls_isofit_run(s, &o, &r, &err), 0);
    assert_int_equal(ls_isofit_curves_run(s, &o, &r, 61, &c, &err), 0);
    for (size_t b = 0; b < 4; b++) {
        double f = BUDGETS[b], n_opt = G * pow(f, A_EXP), l0 = 2.0 + 40.0 * pow(f, -0.08);
        const double *x = c.n_act + b * 61, *y = c.loss + b * 61;
        assert_int_equal(c.count[b], 61);
        assert_true(fabs(y[0] / (l0 * exp(K * EVEN[0] * EVEN[0])) - 1) < 1e-12);
        assert_true(fabs(y[60] / (l0 * exp(K * EVEN[6] * EVEN[6])) - 1) < 1e-12);
        for (size_t k = 0; k < 61; k++) {
            double u = log(x[k]) - log(n_opt);
            assert_true(fabs(y[k] / (l0 * exp(K * u * u)) - 1) < 1e-3);
        }
    }
    ls_isofit_curves_free(&c);
    ls_isofit_result_free(&r);
    ls_sweep_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_parabola_and_the_power_law_recover_a_quadratic_truth),
        cmocka_unit_test(isofit_curves_are_the_fitted_curves),
        cmocka_unit_test(a_budget_is_the_geometric_mean_of_its_runs_flops),
        cmocka_unit_test(the_lowest_run_is_approach_one),
        cmocka_unit_test(the_filter_keeps_the_runs_near_the_optimum),
        cmocka_unit_test(bootstrap_intervals_hold_the_estimate),
        cmocka_unit_test(the_stored_parabola_is_the_truth_and_its_vertex_is_n_opt),
        cmocka_unit_test(the_stored_parabola_solves_the_normal_equations),
        cmocka_unit_test(the_lowest_run_stores_no_parabola),
        cmocka_unit_test(the_figure_needs_the_runs_it_was_fitted_on),
        cmocka_unit_test(akima_matches_scipy_on_non_round_points),
        cmocka_unit_test(akima_reproduces_a_parabola_on_equal_spacing_and_a_line_on_any),
        cmocka_unit_test(the_akima_method_recovers_a_log_parabola_truth),
        cmocka_unit_test(akima_takes_the_mean_loss_of_a_repeated_size),
        cmocka_unit_test(akima_refuses_a_loss_that_is_not_positive),
        cmocka_unit_test(the_least_squares_interval_is_students_t),
        cmocka_unit_test(two_budgets_have_no_r2_and_say_so),
        cmocka_unit_test(a_budget_whose_optimum_is_at_an_edge_is_named),
        cmocka_unit_test(noised_copies_give_medians_and_intervals_that_hold_the_truth),
        cmocka_unit_test(a_budget_at_the_edge_in_most_noised_copies_is_left_out),
        cmocka_unit_test(draws_are_asked_for_one_way_with_what_they_need),
        cmocka_unit_test(a_flat_budget_has_no_akima_optimum),
        cmocka_unit_test(the_figure_draws_the_akima_curve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
