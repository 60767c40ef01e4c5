/*
 * test_plot_data.c — the numbers the figures draw beside the results
 * (plot.h's callers): the fitted law along a sweep's series, solve's
 * curves and bands, the IsoFLOP bands and frontier, rho_eff's curves and
 * the held-out predictions, each against its own computation here (the law
 * evaluated point by point, a candidate solved one at a time, quantiles
 * taken by hand).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "band_internal.h"
#include "loopscale/holdout.h"
#include "loopscale/lawfile.h"
#include "loopscale/plot.h"

static void assert_near(double got, double want, double tol)
{
    if (!(fabs(got - want) <= tol))
        fail_msg("got %.17g, want %.17g (tolerance %g)", got, want, tol);
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The q-quantile of the finite values of v[0..n), by hand: sorted, then
 * linear between the order statistics at q (m - 1). */
static double quantile_by_hand(const double *v, size_t n, double q)
{
    double *w = malloc(n * sizeof *w);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (isfinite(v[i]))
            w[m++] = v[i];
    qsort(w, m, sizeof *w, cmp_double);
    double h = q * (double)(m - 1);
    size_t i = (size_t)floor(h);
    double x = i + 1 < m ? w[i] + (h - (double)i) * (w[i + 1] - w[i]) : w[m - 1];
    free(w);
    return x;
}

static ls_lawfile *default_law(void)
{
    ls_error err;
    ls_lawfile *lf = ls_lawfile_default(&err);
    if (!lf)
        fail_msg("%s", err.message);
    return lf;
}

/* The first n draws of a law file as laws. */
static ls_law *draws_of(const ls_lawfile *lf, size_t n)
{
    ls_law *d = malloc(n * sizeof *d);
    for (size_t i = 0; i < n; i++)
        ls_lawfile_draw(lf, i, &d[i]);
    return d;
}

static void bands_are_the_central_95_percent(void **state)
{
    (void)state;
    /* 201 values 1..201 shuffled, with NaNs and an infinity that are
     * dropped: the 2.5% and 97.5% quantiles by linear interpolation are 6
     * and 196. */
    double v[206];
    for (int i = 0; i < 201; i++)
        v[i] = (double)((i * 37) % 201 + 1);
    v[201] = v[202] = v[203] = v[204] = NAN;
    v[205] = INFINITY;
    double lo, hi;
    ls_band_central95(v, 206, &lo, &hi);
    assert_near(lo, 6.0, 1e-12);
    assert_near(hi, 196.0, 1e-12);
    double one[2] = {2.385, NAN};
    ls_band_central95(one, 2, &lo, &hi);
    assert_true(isnan(lo) && isnan(hi));
    /* How many draws a band takes: none under 20, else at most `most`. */
    ls_lawfile *lf = default_law();
    assert_int_equal(ls_plot_band_draws(lf, LS_PLOT_BAND_DRAWS), LS_PLOT_BAND_DRAWS);
    assert_int_equal(ls_plot_band_draws(lf, 5000), lf->ndraws);
    size_t held = lf->ndraws;
    lf->ndraws = 19;
    assert_int_equal(ls_plot_band_draws(lf, LS_PLOT_BAND_DRAWS), 0);
    lf->ndraws = held;
    ls_lawfile_free(lf);
}

/* D = F / (6 N_unroll) from FLOPs printed to 6 digits scatters each token
 * tier in its 6th digit; the curves snap every run to its tier's clean
 * value, so a tier is one series with a curve through it. */
static void rounded_flops_make_one_series_per_tier(void **state)
{
    (void)state;
    const double n_act = 123456789, n_loop = 92592592, tiers[] = {2e9, 6e9, 2e10};
    ls_sweep_row rows[12];
    size_t n = 0;
    for (size_t t = 0; t < 3; t++)
        for (double R = 1; R <= 8; R *= 2) {
            ls_sweep_row r = {.n_act = n_act, .n_total = n_act, .n_loop = n_loop, .R = R, .E = 1, .k = 1, .loss = 3,
                              .unique_tokens = NAN};
            char text[32];
            snprintf(text, sizeof text, "%.6g", 6 * (n_act + (R - 1) * n_loop) * tiers[t]);
            r.tokens = strtod(text, NULL) / (6 * (n_act + (R - 1) * n_loop));
            rows[n++] = r;
        }
    /* The scatter is real: no row of the top tier has D = 2e10 exactly. */
    size_t exact = 0;
    for (size_t i = 8; i < 12; i++)
        exact += rows[i].tokens == 2e10;
    assert_true(exact < 4);
    ls_sweep s = {.n = n, .rows = rows};
    ls_lawfile *lf = default_law();
    ls_fit_curves c;
    ls_error err;
    assert_int_equal(ls_fit_curves_run(&s, &lf->law, NULL, 0, 9, &c, &err), 0);
    assert_true(c.by_r && !c.key_flops);
    assert_int_equal(c.nseries, 3);
    for (size_t k = 0; k < 3; k++) {
        assert_true(c.series[k].key == tiers[k]);
        assert_true(c.series[k].n_act == n_act);
        assert_int_equal(c.series[k].count, 4);
        assert_true(c.series[k].curve != SIZE_MAX);
        for (size_t j = 0; j < 4; j++)
            assert_true(c.x[c.order[c.series[k].first + j]] == (double)(1 << j)); /* along R, increasing */
    }
    assert_null(c.band_lo);
    ls_fit_curves_free(&c);
    /* A tolerance below the rounding splits the tier again. */
    s.group_tol = 1e-12;
    assert_int_equal(ls_fit_curves_run(&s, &lf->law, NULL, 0, 9, &c, &err), 0);
    assert_true(c.nseries > 3);
    ls_fit_curves_free(&c);
    ls_sweep empty = {0};
    assert_int_equal(ls_fit_curves_run(&empty, &lf->law, NULL, 0, 9, &c, &err), LS_ERR_DATA);
    ls_lawfile_free(lf);
}

/* Every curve value is the law at the series' tier with x in its place,
 * every run's fitted loss the law at the run, and the band over the draws
 * is the central 95% of the draws' losses at that point. */
static void fit_curves_are_the_law_along_each_series(void **state)
{
    (void)state;
    ls_error err;
    const char *path = PROJECT_DATA_DIR "/sweeps/looped-moe.csv.gz";
    ls_sweep_options so = {0};
    so.require_loss = 1;
    const char *where[] = {"E<=4"};
    so.wheres = where;
    so.nwheres = 1;
    ls_sweep *s = ls_sweep_read(&path, 1, &so, &err);
    assert_non_null(s);
    ls_lawfile *lf = default_law();
    enum { ND = 40, POINTS = 7 };
    ls_law *draws = draws_of(lf, ND);
    ls_fit_curves c;
    assert_int_equal(ls_fit_curves_run(s, &lf->law, draws, ND, POINTS, &c, &err), 0);
    assert_true(c.by_r);
    assert_int_equal(c.ndraws, ND);
    size_t runs = 0, curves = 0;
    for (size_t k = 0; k < c.nseries; k++)
        runs += c.series[k].count;
    assert_int_equal(runs, s->n);
    for (size_t i = 0; i < s->n; i++) {
        ls_law_point x = ls_sweep_row_point(&s->rows[i]);
        assert_true(c.fitted[i] == ls_law_loss(&lf->law, &x));
    }
    double col[ND];
    for (size_t k = 0; k < c.nseries; k++) {
        const ls_fit_series *se = &c.series[k];
        if (se->curve == SIZE_MAX)
            continue;
        curves++;
        const ls_sweep_row *first = &s->rows[c.order[se->first]], *last = &s->rows[c.order[se->first + se->count - 1]];
        assert_near(c.curve_x[se->curve], first->R, 1e-12);
        assert_near(c.curve_x[se->curve + POINTS - 1], last->R, 1e-12 * last->R);
        for (size_t p = 0; p < POINTS; p++) {
            double R = c.curve_x[se->curve + p];
            /* The point by hand: the tier's shape, N_loop / N_act of the
             * shipped template's runs, R, and D = the series' key. */
            ls_law_point x = ls_sweep_row_point(first);
            x.n_act = se->n_act;
            x.n_total = se->n_total;
            x.n_loop = se->n_act * (last->n_loop / last->n_act);
            x.R = R;
            x.D = se->key;
            assert_near(c.curve_loss[se->curve + p], ls_law_loss(&lf->law, &x), 1e-9);
            for (size_t d = 0; d < ND; d++)
                col[d] = ls_law_loss(&draws[d], &x);
            assert_near(c.band_lo[se->curve + p], quantile_by_hand(col, ND, 0.025), 1e-9);
            assert_near(c.band_hi[se->curve + p], quantile_by_hand(col, ND, 0.975), 1e-9);
        }
    }
    assert_true(curves > 10);
    ls_fit_curves_free(&c);
    free(draws);
    ls_lawfile_free(lf);
    ls_sweep_free(s);
}

/* solve's curves: each (E, R)'s loss with no memory limit is that
 * candidate solved alone without it; its band, the quantiles of the
 * candidate solved under each draw with the memory limit; the same on one
 * thread and on three. */
static void solve_curves_are_candidates_solved_one_at_a_time(void **state)
{
    (void)state;
    ls_lawfile *lf = default_law();
    ls_arch_template t;
    ls_arch_template_default(&t);
    enum { ND = 30 };
    ls_law *draws = draws_of(lf, ND);
    const double R[] = {1, 2.5, 4}, E[] = {1, 8};
    ls_solve_budget b = {.flops = 2.385e21, .mem_bytes = 1.3e9, .bits = 4};
    ls_solve_options o = {R, 3, E, 2, NULL, 0, 0.004, NULL, NULL};
    ls_solve_curves c, c3;
    ls_error err;
    assert_int_equal(ls_solve_curves_run(&lf->law, draws, ND, &t, &b, &o, 1, &c, &err), 0);
    assert_int_equal(ls_solve_curves_run(&lf->law, draws, ND, &t, &b, &o, 3, &c3, &err), 0);
    assert_int_equal(c.ncandidates, 6);
    assert_int_equal(c.ndraws, ND);
    size_t memory_bound = 0;
    for (size_t e = 0; e < 2; e++)
        for (size_t r = 0; r < 3; r++) {
            size_t k = e * 3 + r;
            ls_solve_candidate u, m;
            assert_int_equal(ls_solve_candidate_at(&lf->law, &t, &b, E[e], R[r], NULL, 0, 0, &u), 0);
            assert_int_equal(ls_solve_candidate_at(&lf->law, &t, &b, E[e], R[r], NULL, 0, 1, &m), 0);
            assert_true(c.unconstrained[k] == u.loss);
            memory_bound += m.bound == LS_SOLVE_BOUND_MEMORY;
            double col[ND];
            for (size_t d = 0; d < ND; d++) {
                ls_solve_candidate w;
                assert_int_equal(ls_solve_candidate_at(&draws[d], &t, &b, E[e], R[r], NULL, 0, 1, &w), 0);
                col[d] = w.feasible ? w.loss : NAN;
            }
            assert_near(c.band_lo[k], quantile_by_hand(col, ND, 0.025), 1e-12);
            assert_near(c.band_hi[k], quantile_by_hand(col, ND, 0.975), 1e-12);
            assert_true(c.band_lo[k] == c3.band_lo[k] && c.band_hi[k] == c3.band_hi[k]);
        }
    /* The memory limit binds some candidates: their bands are of the loss
     * under it, above the unconstrained loss. */
    assert_true(memory_bound >= 2);
    ls_solve_curves_free(&c);
    ls_solve_curves_free(&c3);
    /* No draws: no bands; a bad budget: solve's refusal. */
    assert_int_equal(ls_solve_curves_run(&lf->law, NULL, 0, &t, &b, &o, 1, &c, &err), 0);
    assert_null(c.band_lo);
    assert_int_equal(c.ndraws, 0);
    ls_solve_curves_free(&c);
    b.flops = -1;
    assert_int_equal(ls_solve_curves_run(&lf->law, NULL, 0, &t, &b, &o, 1, &c, &err), LS_ERR_USAGE);
    free(draws);
    ls_lawfile_free(lf);
}

/* The IsoFLOP bands: at each point of each profile, the quantiles of the
 * loss of that N_act at that budget under each draw; the frontier: at each
 * budget the minimum solve finds with no memory limit, with a budget no
 * model fits left infeasible instead of failing. */
static void isoflop_bands_and_frontier_are_the_profiles_under_each_draw(void **state)
{
    (void)state;
    ls_lawfile *lf = default_law();
    ls_arch_template t;
    ls_arch_template_default(&t);
    enum { ND = 25, POINTS = 9 };
    ls_law *draws = draws_of(lf, ND);
    const double F[] = {3e20, 2.385e21}, E[] = {1, 8}, R[] = {2};
    ls_solve_isoflop_result r, fr;
    ls_solve_isoflop_bands bands;
    ls_error err;
    assert_int_equal(ls_solve_isoflop_run(&lf->law, &t, F, 2, E, 2, R, 1, POINTS, NULL, &r, &err), 0);
    assert_true(r.nflops == 2 && r.nE == 2 && r.nR == 1);
    assert_int_equal(ls_solve_isoflop_bands_run(draws, ND, &t, &r, &bands, &err), 0);
    assert_int_equal(bands.ncurves, 4);
    for (size_t i = 0; i < r.ncurves; i++) {
        const ls_solve_isoflop_curve *cv = &r.curves[i];
        for (size_t k = 0; k < POINTS; k += 4) {
            double col[ND];
            for (size_t d = 0; d < ND; d++) {
                ls_law_point x = ls_arch_point(&t, cv->n_act[k], cv->E, cv->R, 0);
                x.D = ls_law_tokens_for_flops(&x, cv->flops);
                col[d] = ls_law_loss(&draws[d], &x);
            }
            assert_near(bands.lo[i * POINTS + k], quantile_by_hand(col, ND, 0.025), 1e-9);
            assert_near(bands.hi[i * POINTS + k], quantile_by_hand(col, ND, 0.975), 1e-9);
        }
    }
    ls_solve_isoflop_bands_free(&bands);
    assert_int_equal(ls_solve_isoflop_bands_run(draws, 0, &t, &r, &bands, &err), 0);
    assert_null(bands.lo);
    ls_solve_isoflop_result_free(&r);

    assert_int_equal(ls_solve_isoflop_frontier(&lf->law, &t, 1e20, 1e22, 5, E, 2, R, 1, NULL, &fr, &err), 0);
    assert_int_equal(fr.ncurves, 10);
    for (size_t k = 0; k < 5; k++) {
        double f = pow(10.0, 20 + 0.5 * (double)k);
        for (size_t e = 0; e < 2; e++) {
            const ls_solve_isoflop_curve *cv = &fr.curves[k * 2 + e];
            assert_near(cv->flops, f, 1e-12 * f);
            ls_solve_budget b = {.flops = cv->flops, .mem_bytes = INFINITY, .bits = 16};
            ls_solve_candidate want;
            assert_int_equal(ls_solve_candidate_at(&lf->law, &t, &b, E[e], 2, NULL, 0, 0, &want), 0);
            assert_true(cv->minimum.feasible && cv->minimum.n_act == want.n_act && cv->minimum.loss == want.loss);
        }
    }
    ls_solve_isoflop_result_free(&fr);
    /* 10^3 FLOPs buy no model: isoflop refuses the budget, the frontier
     * leaves it out. */
    const double tiny[] = {1e3};
    assert_int_equal(ls_solve_isoflop_run(&lf->law, &t, tiny, 1, E, 1, R, 1, 0, NULL, &r, &err), LS_ERR_DATA);
    assert_int_equal(ls_solve_isoflop_frontier(&lf->law, &t, 1e3, 1e21, 3, E, 1, R, 1, NULL, &fr, &err), 0);
    assert_false(fr.curves[0].minimum.feasible);
    assert_true(fr.curves[2].minimum.feasible);
    ls_solve_isoflop_result_free(&fr);
    assert_int_equal(ls_solve_isoflop_frontier(&lf->law, &t, 1e21, 1e20, 3, E, 1, R, 1, NULL, &fr, &err),
                     LS_ERR_USAGE);
    free(draws);
    ls_lawfile_free(lf);
}

/* rho_eff's curves: the law's rho_eff at each R of an even grid from 1 to
 * r_max (1 at R = 1), the ceiling and m = N_act / N_total of each E. */
static void rho_eff_curves_are_the_law_at_each_loop_count(void **state)
{
    (void)state;
    ls_lawfile *lf = default_law();
    ls_arch_template t;
    ls_arch_template_default(&t);
    const double E[] = {1, 8, 64};
    ls_solve_rho_eff rho;
    ls_error err;
    assert_int_equal(ls_solve_rho_eff_run(&lf->law, &t, E, 3, 12.5, 24, &rho, &err), 0);
    assert_near(rho.R[0], 1, 0);
    assert_near(rho.R[23], 12.5, 1e-12);
    assert_near(rho.loop_fraction, ls_arch_loop_fraction(&t), 0);
    for (size_t e = 0; e < 3; e++) {
        assert_near(rho.m[e], 1.0 / ls_arch_n_total(&t, 1.0, E[e]), 1e-12);
        assert_near(rho.rho[e * 24], 1.0, 1e-12);
        ls_law_point x = ls_arch_point(&t, 4.2e8, E[e], 1, 1e11); /* any size: rho_eff reads the shape */
        double ceiling = ls_law_rho_eff_ceiling(&lf->law, &x);
        assert_true(fabs(rho.ceiling[e] - ceiling) <= 1e-12 * ceiling || (isnan(ceiling) && isnan(rho.ceiling[e])));
        for (size_t k = 0; k < 24; k++) {
            x.R = 1 + 11.5 * (double)k / 23;
            assert_near(rho.rho[e * 24 + k], ls_law_rho_eff(&lf->law, &x), 1e-12);
            assert_true(rho.rho[e * 24 + k] <= ceiling * (1 + 1e-12));
        }
    }
    ls_solve_rho_eff_free(&rho);
    assert_int_equal(ls_solve_rho_eff_run(&lf->law, &t, E, 3, 1.0, 24, &rho, &err), LS_ERR_USAGE);
    ls_lawfile_free(lf);
}

/* The held-out predictions the holdout figure draws: the cell's fitted law
 * at each held-out run, NaN at the others; their RMSE is the cell's. */
static void holdout_predictions_are_each_cells_law_at_its_held_out_runs(void **state)
{
    (void)state;
    ls_error err;
    const char *path = PROJECT_DATA_DIR "/sweeps/looped-dense.csv.gz";
    ls_sweep_options so = {0};
    so.require_loss = 1;
    ls_sweep *s = ls_sweep_read(&path, 1, &so, &err);
    assert_non_null(s);
    const ls_law_kind laws[] = {{LS_LAW_BASE_DENSE, LS_LAW_MAPPING_BOUNDED}};
    const ls_holdout_axis axes[] = {LS_HOLDOUT_AXIS_R, LS_HOLDOUT_AXIS_N};
    ls_holdout_spec spec = {laws, 1, axes, 2, NULL, 0};
    ls_fit_parameters p;
    ls_fit_default_parameters(&p);
    p.starts = 8;
    ls_holdout_result r;
    assert_int_equal(ls_holdout_run(s, &spec, &p, &r, &err), 0);
    for (size_t c = 0; c < r.ncolumns; c++) {
        const ls_holdout_cell *cell = &r.cells[c];
        const double *pred = r.predicted + c * s->n;
        double ss = 0;
        size_t m = 0;
        for (size_t i = 0; i < s->n; i++) {
            if (!r.test[c * s->n + i] || isnan(cell->rmse)) {
                assert_true(isnan(pred[i]));
                continue;
            }
            ls_law_point x = ls_sweep_row_point(&s->rows[i]);
            assert_true(pred[i] == ls_law_loss(&cell->fitted, &x));
            ss += (s->rows[i].loss - pred[i]) * (s->rows[i].loss - pred[i]);
            m++;
        }
        if (!isnan(cell->rmse)) {
            assert_int_equal(m, r.columns[c].ntest);
            assert_near(sqrt(ss / (double)m), cell->rmse, 1e-12 * cell->rmse);
        }
    }
    ls_holdout_result_free(&r);
    ls_sweep_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(bands_are_the_central_95_percent),
        cmocka_unit_test(rounded_flops_make_one_series_per_tier),
        cmocka_unit_test(fit_curves_are_the_law_along_each_series),
        cmocka_unit_test(solve_curves_are_candidates_solved_one_at_a_time),
        cmocka_unit_test(isoflop_bands_and_frontier_are_the_profiles_under_each_draw),
        cmocka_unit_test(rho_eff_curves_are_the_law_at_each_loop_count),
        cmocka_unit_test(holdout_predictions_are_each_cells_law_at_its_held_out_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
