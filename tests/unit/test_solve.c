/* The solver: every answer is feasible and spends the budget exactly; the
 * dense non-looped optimum is Chinchilla's closed form; with epsilon 0 the
 * choice is the lowest loss; otherwise the cheapest within epsilon. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "loopscale/fit.h"
#include "loopscale/lawfile.h"
#include "loopscale/solve.h"

static const double ALL_R[] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
static const double ALL_E[] = {1, 2, 4, 8, 16, 32, 64};

static ls_law truth(void)
{
    ls_error err;
    ls_lawfile *lf = ls_lawfile_read(PROJECT_DATA_DIR "/truth/moe-bounded-sparse.json", &err);
    assert_non_null(lf);
    ls_law l = lf->law;
    ls_lawfile_free(lf);
    return l;
}

static void every_answer_is_feasible_and_spends_the_budget(void **state)
{
    (void)state;
    ls_law l = truth();
    ls_arch_template t;
    ls_arch_template_default(&t);
    const double flops[] = {1.37e19, 2.9e20, 4.1e21, 7.7e22};
    const double mems[] = {0.9e9, 3e9, 1.1e10};
    const double bits[] = {4, 8, 16};
    for (size_t f = 0; f < 4; f++)
        for (size_t m = 0; m < 3; m++)
            for (size_t b = 0; b < 3; b++) {
                ls_solve_budget budget = {.flops = flops[f], .mem_bytes = mems[m], .bits = bits[b]};
                ls_solve_options o = {ALL_R, 16, ALL_E, 7, NULL, 0, 0.004, NULL, NULL};
                ls_solve_result r;
                ls_error err;
                assert_int_equal(ls_solve_run(&l, &t, &budget, &o, &r, &err), 0);
                for (size_t i = 0; i < r.ncandidates; i++) {
                    const ls_solve_candidate *c = &r.candidates[i];
                    if (!c->feasible)
                        continue;
                    assert_true(c->weight_bytes <= budget.mem_bytes * (1 + 1e-12));
                    assert_true(fabs(6 * c->n_unroll * c->tokens - budget.flops) <= 1e-9 * budget.flops);
                    assert_true(c->n_total == ls_arch_n_total(&t, c->n_act, c->E));
                    /* the loss reported is the law's at that configuration */
                    ls_law_point x = ls_arch_point(&t, c->n_act, c->E, c->R, c->tokens);
                    assert_true(fabs(c->loss - ls_law_loss(&l, &x)) <= 1e-12 * c->loss);
                }
                if (r.has_choice) {
                    assert_true(r.choice.weight_bytes <= budget.mem_bytes * (1 + 1e-12));
                    assert_true(fabs(6 * r.choice.n_unroll * r.choice.tokens - budget.flops) <= 1e-9 * budget.flops);
                }
                assert_true(r.unconstrained.loss <= r.best.loss + 1e-12);
                ls_solve_result_free(&r);
            }
}

/* Chinchilla: with no loops and no experts the IsoFLOP minimum is
 * N_opt = G (F/6)^(beta/(alpha+beta)), G = (alpha A / (beta B))^(1/(alpha+beta)). */
static void the_dense_optimum_is_chinchillas_closed_form(void **state)
{
    (void)state;
    ls_law l;
    ls_law_init(&l, (ls_law_kind){LS_LAW_BASE_DENSE, LS_LAW_MAPPING_NONE});
    l.p[LS_LAW_P_A] = 406.4;
    l.p[LS_LAW_P_ALPHA] = 0.3392;
    l.p[LS_LAW_P_B] = 410.7;
    l.p[LS_LAW_P_BETA] = 0.2849;
    l.p[LS_LAW_P_C] = 1.6934;
    ls_arch_template t;
    ls_arch_template_default(&t);
    double a = l.p[LS_LAW_P_ALPHA], b = l.p[LS_LAW_P_BETA];
    double G = pow(a * l.p[LS_LAW_P_A] / (b * l.p[LS_LAW_P_B]), 1.0 / (a + b));
    for (double F = 2.385e18; F < 1e25; F *= 13.7) {
        ls_solve_budget budget = {.flops = F, .mem_bytes = INFINITY, .bits = 16};
        ls_solve_candidate c;
        assert_int_equal(ls_solve_candidate_at(&l, &t, &budget, 1, 1, NULL, 0, 0, &c), 0);
        double n_opt = G * pow(F / 6.0, b / (a + b));
        if (fabs(c.n_act - n_opt) > 1e-6 * n_opt)
            fail_msg("F = %g: N* %.10g, closed form %.10g", F, c.n_act, n_opt);
        assert_true(fabs(c.tokens - F / (6 * n_opt)) <= 1e-6 * c.tokens);
    }
}

/* Brent's answer is the minimum of a fine scan. */
static void the_continuous_optimum_beats_a_fine_scan(void **state)
{
    (void)state;
    ls_law l = truth();
    ls_arch_template t;
    ls_arch_template_default(&t);
    ls_solve_budget budget = {.flops = 3.3e21, .mem_bytes = 2.7e9, .bits = 4};
    for (size_t e = 0; e < 7; e++)
        for (double R = 1; R <= 16; R += 5) {
            ls_solve_candidate c;
            assert_int_equal(ls_solve_candidate_at(&l, &t, &budget, ALL_E[e], R, NULL, 0, 1, &c), 0);
            if (!c.feasible)
                continue;
            double n_hi = fmin(8 * budget.mem_bytes / (budget.bits * ls_arch_n_total(&t, 1, ALL_E[e])),
                               budget.flops / (6 * (1 + (R - 1) * ls_arch_loop_fraction(&t))));
            enum { SCAN = 20001 };
            static double grid[SCAN], loss[SCAN];
            for (int i = 0; i < SCAN; i++)
                grid[i] = n_hi * exp(-12.0 * i / (SCAN - 1));
            ls_solve_isoflop_profile(&l, &t, budget.flops, ALL_E[e], R, grid, SCAN, loss, NULL);
            double best = INFINITY;
            for (int i = 0; i < SCAN; i++)
                best = fmin(best, loss[i]);
            if (c.loss > best + 1e-12)
                fail_msg("E %g R %g: solver %.15g, scan %.15g, N %.6g of %.6g", ALL_E[e], R, c.loss, best, c.n_act, n_hi);
            assert_true(c.loss >= best - 1e-6);
        }
}

static void epsilon_zero_picks_the_lowest_loss_and_otherwise_the_cheapest_within_it(void **state)
{
    (void)state;
    ls_law l = truth();
    ls_arch_template t;
    ls_arch_template_default(&t);
    ls_solve_budget budget = {.flops = 1e23, .mem_bytes = 3e9, .bits = 4};
    ls_solve_options o = {ALL_R, 16, ALL_E, 7, NULL, 0, 0.0, NULL, NULL};
    ls_solve_result r;
    ls_error err;
    assert_int_equal(ls_solve_run(&l, &t, &budget, &o, &r, &err), 0);
    double lowest = INFINITY;
    for (size_t i = 0; i < r.ncandidates; i++)
        if (r.candidates[i].feasible)
            lowest = fmin(lowest, r.candidates[i].loss);
    assert_true(r.choice.loss == lowest);
    ls_solve_result_free(&r);

    for (double eps = 0.001; eps < 0.1; eps *= 3) {
        o.eps = eps;
        assert_int_equal(ls_solve_run(&l, &t, &budget, &o, &r, &err), 0);
        assert_true(r.choice.loss <= r.best.loss + eps);
        for (size_t i = 0; i < r.ncandidates; i++) {
            const ls_solve_candidate *c = &r.candidates[i];
            int cheaper = c->R < r.choice.R || (c->R == r.choice.R && c->E < r.choice.E);
            if (c->feasible && cheaper)
                assert_true(c->loss > r.best.loss + eps);
        }
        ls_solve_result_free(&r);
    }
}

static void a_ladder_restricts_n_act(void **state)
{
    (void)state;
    ls_law l = truth();
    ls_arch_template t;
    ls_arch_template_default(&t);
    const double ladder[] = {1.25e8, 3.5e8, 7.7e8, 1.3e9, 2.7e9};
    ls_solve_budget budget = {.flops = 5e21, .mem_bytes = 6e9, .bits = 16};
    ls_solve_options o = {ALL_R, 4, ALL_E, 5, ladder, 5, 0.0, NULL, NULL};
    ls_solve_result r;
    ls_error err;
    assert_int_equal(ls_solve_run(&l, &t, &budget, &o, &r, &err), 0);
    for (size_t i = 0; i < r.ncandidates; i++) {
        const ls_solve_candidate *c = &r.candidates[i];
        if (!c->feasible)
            continue;
        int on_ladder = 0;
        for (int k = 0; k < 5; k++)
            on_ladder |= c->n_act == ladder[k];
        assert_true(on_ladder);
        assert_true(c->weight_bytes <= budget.mem_bytes);
    }
    ls_solve_result_free(&r);
}

static void no_feasible_candidate_is_reported(void **state)
{
    (void)state;
    ls_law l = truth();
    ls_arch_template t;
    ls_arch_template_default(&t);
    ls_solve_budget budget = {.flops = 1e21, .mem_bytes = 100, .bits = 16}; /* 100 bytes */
    ls_solve_options o = {ALL_R, 16, ALL_E, 7, NULL, 0, 0.0, NULL, NULL};
    ls_solve_result r;
    ls_error err;
    assert_int_equal(ls_solve_run(&l, &t, &budget, &o, &r, &err), 0);
    assert_false(r.has_choice);
    ls_solve_result_free(&r);
    budget.flops = -1;
    assert_int_equal(ls_solve_run(&l, &t, &budget, &o, &r, &err), LS_ERR_USAGE);
}

/* Each quantity a candidate prints is checked: one that a double cannot hold
 * is a data error naming it, and a candidate of ordinary numbers passes. */
static void a_candidate_a_double_cannot_hold_is_a_data_error(void **state)
{
    (void)state;
    ls_error err;
    const ls_solve_candidate ok = {.R = 2, .E = 8, .n_act = 2.385e9, .n_total = 5e9, .n_unroll = 4e9, .tokens = 1e11,
                                .loss = 2.1, .feasible = 1};
    assert_int_equal(ls_solve_candidate_check(&ok, 2.4e21, &err), 0);
    ls_solve_candidate c = ok;
    c.loss = INFINITY;
    assert_int_equal(ls_solve_candidate_check(&c, 2.4e21, &err), LS_ERR_DATA);
    assert_string_equal(err.message, "N_act = 2.385e+09 at 2.4e+21 FLOPs (E = 8, R = 2) gives predicted loss = inf, "
                                     "outside double precision");
    c = ok;
    c.loss = NAN;
    assert_int_equal(ls_solve_candidate_check(&c, 2.4e21, &err), LS_ERR_DATA);
    c = ok;
    c.tokens = 0; /* underflowed */
    assert_int_equal(ls_solve_candidate_check(&c, 2.4e21, &err), LS_ERR_DATA);
    c = ok;
    c.n_act = 1e-320; /* D / N_act overflows */
    assert_int_equal(ls_solve_candidate_check(&c, 2.4e21, &err), LS_ERR_DATA);
    c = ok;
    c.n_total = INFINITY;
    assert_int_equal(ls_solve_candidate_check(&c, 2.4e21, &err), LS_ERR_DATA);
}

static void uncertainty_counts_choices_and_ignores_threads(void **state)
{
    (void)state;
    ls_error err;
    ls_lawfile *lf = ls_lawfile_read(PROJECT_DATA_DIR "/laws/default.json", &err);
    assert_non_null(lf);
    assert_true(lf->ndraws >= 100);
    size_t n = 100;
    ls_law *draws = malloc(n * sizeof *draws);
    for (size_t i = 0; i < n; i++)
        ls_lawfile_draw(lf, i, &draws[i]);
    ls_arch_template t;
    ls_arch_template_default(&t);
    ls_solve_budget budget = {.flops = 1e21, .mem_bytes = 3e9, .bits = 4};
    ls_solve_options o = {ALL_R, 16, ALL_E, 7, NULL, 0, lf->fit.rmse, NULL, NULL};
    ls_solve_uncertainty one, two;
    assert_int_equal(ls_solve_run_uncertainty(draws, n, &t, &budget, &o, 0.9, 1, &one, &err), 0);
    assert_int_equal(ls_solve_run_uncertainty(draws, n, &t, &budget, &o, 0.9, 2, &two, &err), 0);
    size_t total = 0;
    for (size_t k = 0; k < one.nchoices; k++) {
        total += one.choices[k].count;
        assert_true(one.choices[k].R == two.choices[k].R && one.choices[k].E == two.choices[k].E);
        assert_int_equal(one.choices[k].count, two.choices[k].count);
        if (k > 0)
            assert_true(one.choices[k].count <= one.choices[k - 1].count);
    }
    assert_int_equal(total, one.ndraws);
    assert_int_equal(one.ndraws, n);
    assert_true(one.n_act[0] <= one.n_act[1] && one.loss[0] <= one.loss[1]);
    assert_memory_equal(one.n_act, two.n_act, sizeof one.n_act);
    ls_solve_uncertainty_free(&one);
    ls_solve_uncertainty_free(&two);
    free(draws);
    ls_lawfile_free(lf);
}


/* Outside a range, independently of the library: D and F recomputed from
 * the template's ratios (N_loop = 0.75 N_act by default). */
static unsigned outside_by_hand(const ls_law_ranges *rg, const ls_solve_candidate *c)
{
    double n_unroll = c->n_act * (1 + (c->R - 1) * 0.75);
    double D = c->tokens, F = 6 * n_unroll * D;
    double v[LS_LAW_NRANGES] = {c->n_act, D, c->R, c->E, F};
    unsigned bits = 0;
    for (int q = 0; q < LS_LAW_NRANGES; q++)
        if (rg->known[q] && (v[q] < rg->lo[q] * (1 - 1e-9) || v[q] > rg->hi[q] * (1 + 1e-9)))
            bits |= 1u << q;
    return bits;
}

/* IsoFLOP profiles: the curves come budget-major in the order given; each
 * minimum of a dense law is Chinchilla's closed form and lies below every
 * point of its profile, which spans N* / 30 to 30 N* and spends the budget;
 * the quantities beyond the ranges are marked as solve marks them. */
static void isoflop_profiles_are_around_the_closed_form_minimum(void **state)
{
    (void)state;
    ls_law l;
    ls_law_init(&l, (ls_law_kind){LS_LAW_BASE_DENSE, LS_LAW_MAPPING_NONE});
    l.p[LS_LAW_P_A] = 406.4;
    l.p[LS_LAW_P_ALPHA] = 0.3392;
    l.p[LS_LAW_P_B] = 410.7;
    l.p[LS_LAW_P_BETA] = 0.2849;
    l.p[LS_LAW_P_C] = 1.6934;
    ls_arch_template t;
    ls_arch_template_default(&t);
    double a = l.p[LS_LAW_P_ALPHA], b = l.p[LS_LAW_P_BETA];
    double G = pow(a * l.p[LS_LAW_P_A] / (b * l.p[LS_LAW_P_B]), 1.0 / (a + b));
    const double flops[] = {7.3e21, 2.385e19}, E[] = {1}, R[] = {1, 3};
    ls_law_ranges rg = {{1, 1, 1, 1, 1}, {3e8, 1e10, 1, 1, 1.8e19}, {1e9, 5e11, 2, 16, 4.3e21}, {0}};
    ls_solve_isoflop_result r;
    ls_error err;
    assert_int_equal(ls_solve_isoflop_run(&l, &t, flops, 2, E, 1, R, 2, 9, &rg, &r, &err), 0);
    assert_int_equal(r.ncurves, 4);
    unsigned minima_outside = 0;
    for (size_t i = 0; i < r.ncurves; i++) {
        const ls_solve_isoflop_curve *c = &r.curves[i];
        assert_true(c->flops == flops[i / 2] && c->E == 1 && c->R == R[i % 2]);
        const ls_solve_candidate *m = &c->minimum;
        double n_unroll = m->n_act * (1 + (c->R - 1) * 0.75);
        assert_true(fabs(6 * n_unroll * m->tokens - c->flops) <= 1e-9 * c->flops);
        if (c->R == 1) {
            double n_opt = G * pow(c->flops / 6.0, b / (a + b));
            if (fabs(m->n_act - n_opt) > 1e-6 * n_opt)
                fail_msg("F = %g: N* %.10g, closed form %.10g", c->flops, m->n_act, n_opt);
        }
        assert_int_equal(m->outside, outside_by_hand(&rg, m));
        minima_outside |= m->outside;
        assert_true(fabs(c->n_act[0] * 30 / m->n_act - 1) < 1e-12);
        assert_true(fabs(c->n_act[8] / 30 / m->n_act - 1) < 1e-12);
        for (size_t k = 0; k < 9; k++) {
            assert_true(c->loss[k] >= m->loss);
            ls_solve_candidate p = {.n_act = c->n_act[k], .R = c->R, .E = 1, .tokens = c->tokens[k]};
            assert_int_equal(c->outside[k], outside_by_hand(&rg, &p));
            ls_law_point x = ls_arch_point(&t, c->n_act[k], 1, c->R, c->tokens[k]);
            assert_true(fabs(c->loss[k] - ls_law_loss(&l, &x)) <= 1e-12 * c->loss[k]);
            assert_true(fabs(6 * c->n_act[k] * (1 + (c->R - 1) * 0.75) * c->tokens[k] - c->flops) <= 1e-9 * c->flops);
        }
    }
    assert_int_equal(r.minima_outside, minima_outside);
    assert_true(minima_outside >> LS_LAW_RANGE_R & 1u);     /* R = 3 beyond the fitted 2 */
    assert_true(minima_outside >> LS_LAW_RANGE_FLOPS & 1u); /* 7.3e21 beyond 4.3e21 */
    assert_int_equal(r.minima_at_edge, 0);
    ls_solve_isoflop_result_free(&r);
    /* Without points: the minima alone. */
    assert_int_equal(ls_solve_isoflop_run(&l, &t, flops, 2, E, 1, R, 2, 0, NULL, &r, &err), 0);
    assert_null(r.curves[0].n_act);
    assert_int_equal(r.minima_outside, 0);
    ls_solve_isoflop_result_free(&r);
    /* One FLOP trains nothing. */
    const double one[] = {1};
    assert_int_equal(ls_solve_isoflop_run(&l, &t, one, 1, E, 1, R, 1, 9, NULL, &r, &err), LS_ERR_DATA);
    assert_string_equal(err.message, "no model fits a budget of 1 FLOP");
    assert_null(r.curves);
}

static void every_reported_configuration_is_checked_against_the_fitted_ranges(void **state)
{
    (void)state;
    ls_law l = truth();
    ls_arch_template t;
    ls_arch_template_default(&t);
    /* A sweep-like box: N_act 3e8..1e9, D 1e11..5e11, R 1..8, E 1..16,
     * F 1.8e20..4.3e22. */
    ls_law_ranges rg = {{1, 1, 1, 1, 1}, {3e8, 1e11, 1, 1, 1.8e20}, {1e9, 5e11, 8, 16, 4.3e22}, {0}};
    const double flops[] = {2.37e20, 3.1e21, 8.3e22, 1e300};
    size_t warned_flops = 0;
    for (size_t f = 0; f < 4; f++) {
        ls_solve_budget b = {.flops = flops[f], .mem_bytes = 3e9, .bits = 4};
        ls_solve_options o = {ALL_R, 16, ALL_E, 7, NULL, 0, 0.004, &rg, NULL};
        ls_solve_result r;
        ls_error err;
        assert_int_equal(ls_solve_run(&l, &t, &b, &o, &r, &err), 0);
        assert_true(r.has_choice);
        size_t outside = 0;
        for (size_t i = 0; i < r.ncandidates; i++) {
            const ls_solve_candidate *c = &r.candidates[i];
            if (!c->feasible)
                continue;
            assert_int_equal(c->outside, outside_by_hand(&rg, c));
            outside += c->outside != 0;
            /* E = 32 and 64 are beyond the fitted 16, R = 9..16 beyond 8. */
            assert_int_equal(!!(c->outside & 1u << LS_LAW_RANGE_E), c->E > 16);
            assert_int_equal(!!(c->outside & 1u << LS_LAW_RANGE_R), c->R > 8);
        }
        assert_int_equal(r.ncandidates_outside, outside);
        /* One warning per configuration and quantity outside, in order. */
        const ls_solve_candidate *configs[3] = {&r.choice, &r.best, &r.unconstrained};
        static const char *const keys[3] = {"chosen", "lowest_loss", "unconstrained"};
        size_t w = 0;
        for (int k = 0; k < 3; k++) {
            assert_int_equal(configs[k]->outside, outside_by_hand(&rg, configs[k]));
            for (int q = 0; q < LS_LAW_NRANGES; q++)
                if (configs[k]->outside >> q & 1u) {
                    assert_true(w < r.nwarnings);
                    assert_string_equal(r.warnings[w].configuration, keys[k]);
                    assert_int_equal(r.warnings[w].quantity, q);
                    assert_true(r.warnings[w].lo == rg.lo[q] && r.warnings[w].hi == rg.hi[q]);
                    assert_non_null(strstr(r.warnings[w].message, ls_law_range_name((ls_law_range)q)));
                    warned_flops += q == LS_LAW_RANGE_FLOPS;
                    w++;
                }
        }
        assert_int_equal(w, r.nwarnings);
        if (flops[f] == 1e300) /* far beyond: every column warns, on F and D at least */
            assert_true(r.nwarnings >= 6);
        else if (flops[f] == 3.1e21) /* inside F: no F warning */
            for (size_t i = 0; i < r.nwarnings; i++)
                assert_int_not_equal(r.warnings[i].quantity, LS_LAW_RANGE_FLOPS);
        ls_solve_result_free(&r);
        assert_null(r.warnings);
    }
    assert_true(warned_flops >= 6); /* 8.3e22 and 1e300: all three columns each */
    /* Without ranges nothing is marked. */
    ls_solve_budget b = {.flops = 1e300, .mem_bytes = 3e9, .bits = 4};
    ls_solve_options o = {ALL_R, 16, ALL_E, 7, NULL, 0, 0.004, NULL, NULL};
    ls_solve_result r;
    ls_error err;
    assert_int_equal(ls_solve_run(&l, &t, &b, &o, &r, &err), 0);
    assert_int_equal(r.nwarnings, 0);
    assert_int_equal(r.ncandidates_outside, 0);
    ls_solve_result_free(&r);
}

static void default_candidates_stay_inside_the_fitted_r_and_e(void **state)
{
    (void)state;
    double R[LS_SOLVE_DEFAULT_NR], E[LS_SOLVE_DEFAULT_NE];
    size_t nR, nE;
    ls_solve_default_candidates(NULL, R, &nR, E, &nE);
    assert_int_equal(nR, 16);
    assert_int_equal(nE, 7);
    assert_true(R[15] == 16 && E[6] == 64);
    ls_law_ranges rg = {{1, 1, 1, 1, 0}, {1e8, 1e10, 1, 1, 0}, {1e9, 1e11, 6, 12, 0}, {0}};
    ls_solve_default_candidates(&rg, R, &nR, E, &nE);
    assert_int_equal(nR, 6);
    assert_int_equal(nE, 4); /* 1, 2, 4, 8: 16 is beyond 12 */
    assert_true(R[5] == 6 && E[3] == 8);
    /* A range below every default keeps the smallest. */
    ls_law_ranges low = {{0, 0, 1, 1, 0}, {0, 0, 1, 1, 0}, {0, 0, 0.5, 0.5, 0}, {0}};
    ls_solve_default_candidates(&low, R, &nR, E, &nE);
    assert_int_equal(nR, 1);
    assert_int_equal(nE, 1);
}

static void the_binding_constraint_is_reported(void **state)
{
    (void)state;
    ls_law l = truth();
    ls_arch_template t;
    ls_arch_template_default(&t);
    /* 3 GB of INT4 at 1e23 FLOPs: the memory cap binds every candidate
     * that can use it; with no memory limit the compute optimum is inside. */
    ls_solve_budget tight = {.flops = 1e23, .mem_bytes = 3e9, .bits = 4}, open = {.flops = 1e23, .mem_bytes = INFINITY, .bits = 4};
    ls_solve_candidate c;
    assert_int_equal(ls_solve_candidate_at(&l, &t, &tight, 16, 2, NULL, 0, 1, &c), 0);
    assert_int_equal(c.bound, LS_SOLVE_BOUND_MEMORY);
    assert_true(fabs(c.weight_bytes - 3e9) <= 1e-6 * 3e9); /* at the cap */
    assert_int_equal(ls_solve_candidate_at(&l, &t, &open, 16, 2, NULL, 0, 1, &c), 0);
    assert_int_equal(c.bound, LS_SOLVE_BOUND_COMPUTE);
    assert_true(c.weight_bytes > 3e9);
    /* A ladder: memory binds when a larger size that fits the compute but
     * not the memory would have been lower. */
    const double ladder[] = {3e8, 6e8, 1e9, 1.6e9};
    assert_int_equal(ls_solve_candidate_at(&l, &t, &tight, 16, 2, ladder, 4, 1, &c), 0);
    assert_true(c.n_act == 3e8);
    assert_int_equal(c.bound, LS_SOLVE_BOUND_MEMORY);
    ls_solve_budget wide = {.flops = 1e23, .mem_bytes = 1e12, .bits = 4};
    assert_int_equal(ls_solve_candidate_at(&l, &t, &wide, 16, 2, ladder, 4, 1, &c), 0);
    assert_int_equal(c.bound, LS_SOLVE_BOUND_COMPUTE);
    assert_string_equal(ls_solve_bound_name(LS_SOLVE_BOUND_MEMORY), "memory");
    /* Uncertainty counts what binds, per choice and in total. */
    ls_law draws[LS_FIT_MIN_INTERVAL_DRAWS];
    for (size_t i = 0; i < LS_FIT_MIN_INTERVAL_DRAWS; i++)
        draws[i] = l;
    draws[1].p[LS_LAW_P_ALPHA] *= 1.01;
    ls_solve_options o = {ALL_R, 4, ALL_E, 5, NULL, 0, 0.004, NULL, NULL};
    ls_solve_uncertainty u;
    ls_error err;
    assert_int_equal(ls_solve_run_uncertainty(draws, 2, &t, &tight, &o, 0.9, 1, &u, &err), LS_ERR_DATA);
    assert_int_equal(ls_solve_run_uncertainty(draws, LS_FIT_MIN_INTERVAL_DRAWS, &t, &tight, &o, 0.9, 1, &u, &err), 0);
    size_t total = 0, per_choice = 0;
    for (int k = 0; k < LS_SOLVE_NBOUNDS; k++)
        total += u.bound[k];
    for (size_t k = 0; k < u.nchoices; k++)
        for (int q = 0; q < LS_SOLVE_NBOUNDS; q++)
            per_choice += u.choices[k].bound[q];
    assert_int_equal(total, u.ndraws);
    assert_int_equal(per_choice, u.ndraws);
    assert_int_equal(u.bound[LS_SOLVE_BOUND_MEMORY], LS_FIT_MIN_INTERVAL_DRAWS);
    ls_solve_uncertainty_free(&u);
}

/* An answer at an end of the search is flagged: a Chinchilla law typed
 * with alpha = -0.34 (loss growing with size) lands on N_act = 10^3, the
 * search's floor; the correct law at 1e21 FLOPs is an interior optimum;
 * R and E are flagged at the largest value searched, or the smallest when
 * it is above 1, and never when one value was searched. */
static void answers_at_an_end_of_the_search_are_flagged(void **state)
{
    (void)state;
    ls_law l;
    ls_law_init(&l, (ls_law_kind){LS_LAW_BASE_DENSE, LS_LAW_MAPPING_NONE});
    l.p[LS_LAW_P_A] = 406.4;
    l.p[LS_LAW_P_ALPHA] = 0.3392;
    l.p[LS_LAW_P_B] = 410.7;
    l.p[LS_LAW_P_BETA] = 0.2849;
    l.p[LS_LAW_P_C] = 1.6934;
    ls_arch_template t;
    ls_arch_template_default(&t);
    ls_solve_budget budget = {.flops = 1e21, .mem_bytes = INFINITY, .bits = 16};
    ls_solve_candidate c;
    assert_int_equal(ls_solve_candidate_at(&l, &t, &budget, 1, 1, NULL, 0, 0, &c), 0);
    assert_int_equal(ls_solve_at_edge(NULL, &c), 0);
    l.p[LS_LAW_P_ALPHA] = -0.34;
    assert_int_equal(ls_solve_candidate_at(&l, &t, &budget, 1, 1, NULL, 0, 0, &c), 0);
    assert_true(fabs(c.n_act - 1e3) < 1e-6);
    assert_int_equal(ls_solve_at_edge(NULL, &c), 1u << LS_LAW_RANGE_N_ACT);

    ls_law m = truth();
    const double R[] = {2, 3, 4}, E[] = {1, 4, 16}, one[] = {1};
    ls_solve_options o = {R, 3, E, 3, NULL, 0, 0.0, NULL, NULL};
    assert_int_equal(ls_solve_candidate_at(&m, &t, &budget, 16, 4, NULL, 0, 0, &c), 0);
    assert_int_equal(ls_solve_at_edge(&o, &c), (1u << LS_LAW_RANGE_R) | (1u << LS_LAW_RANGE_E));
    assert_int_equal(ls_solve_candidate_at(&m, &t, &budget, 4, 2, NULL, 0, 0, &c), 0);
    assert_int_equal(ls_solve_at_edge(&o, &c), 1u << LS_LAW_RANGE_R); /* R = 2 is the smallest, above 1 */
    assert_int_equal(ls_solve_candidate_at(&m, &t, &budget, 1, 3, NULL, 0, 0, &c), 0);
    assert_int_equal(ls_solve_at_edge(&o, &c), 0); /* E = 1: nothing lies below */
    ls_solve_options fixed = {one, 1, one, 1, NULL, 0, 0.0, NULL, NULL};
    assert_int_equal(ls_solve_candidate_at(&m, &t, &budget, 1, 1, NULL, 0, 0, &c), 0);
    assert_int_equal(ls_solve_at_edge(&fixed, &c), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_answer_is_feasible_and_spends_the_budget),
        cmocka_unit_test(the_dense_optimum_is_chinchillas_closed_form),
        cmocka_unit_test(the_continuous_optimum_beats_a_fine_scan),
        cmocka_unit_test(epsilon_zero_picks_the_lowest_loss_and_otherwise_the_cheapest_within_it),
        cmocka_unit_test(a_ladder_restricts_n_act),
        cmocka_unit_test(no_feasible_candidate_is_reported),
        cmocka_unit_test(a_candidate_a_double_cannot_hold_is_a_data_error),
        cmocka_unit_test(uncertainty_counts_choices_and_ignores_threads),
        cmocka_unit_test(every_reported_configuration_is_checked_against_the_fitted_ranges),
        cmocka_unit_test(isoflop_profiles_are_around_the_closed_form_minimum),
        cmocka_unit_test(default_candidates_stay_inside_the_fitted_r_and_e),
        cmocka_unit_test(the_binding_constraint_is_reported),
        cmocka_unit_test(answers_at_an_end_of_the_search_are_flagged),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
