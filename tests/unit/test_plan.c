/* Planning: the Huber weight against numerical integration, the Fisher
 * information and the target's gradient against finite differences, the
 * greedy step against a brute-force inversion, the budget and runs already
 * trained. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_linalg.h>

#include "loopscale/lawfile.h"
#include "loopscale/plan.h"
#include "huber_internal.h"
#include "tmpfile.h"

static ls_law truth(void)
{
    ls_error err;
    ls_lawfile *lf = ls_lawfile_read(PROJECT_DATA_DIR "/truth/moe-bounded-sparse.json", &err);
    assert_non_null(lf);
    ls_law l = lf->law;
    ls_lawfile_free(lf);
    return l;
}

static size_t free_params(const ls_law *l, ls_law_param *params)
{
    ls_law_param all[LS_LAW_NPARAMS];
    size_t n = ls_law_params_of(l->kind, all), p = 0;
    for (size_t k = 0; k < n; k++)
        if (all[k] != LS_LAW_P_E_START)
            params[p++] = all[k];
    return p;
}

/* int_a^b r^power f(r) dr for f the N(0, sigma^2) density, Simpson's rule. */
static double simpson(double a, double b, double sigma, int power)
{
    size_t n = 20000;
    double h = (b - a) / (double)n, sum = 0;
    for (size_t i = 0; i <= n; i++) {
        double r = a + h * (double)i;
        double f = exp(-0.5 * r * r / (sigma * sigma)) / (sigma * sqrt(2 * M_PI)) * pow(r, power);
        sum += f * (i == 0 || i == n ? 1 : i % 2 ? 4 : 2);
    }
    return sum * h / 3;
}

static void huber_weight_matches_numerical_integration(void **state)
{
    (void)state;
    const double sigmas[] = {0.0023, 0.0007, 0.0151};
    const double delta = 1e-3;
    for (size_t c = 0; c < 3; c++) {
        double sigma = sigmas[c];
        /* E psi' = int_{-delta}^{delta} f and E psi^2 = int_{-delta}^{delta} r^2 f
         * + 2 delta^2 int_{delta}^{12 sigma} f, each by Simpson's rule. */
        double dpsi = 2 * simpson(0, delta, sigma, 0), psi2 = 2 * simpson(0, delta, sigma, 2) +
                      2 * delta * delta * simpson(delta, fmax(delta, 12 * sigma), sigma, 0);
        double want = dpsi * dpsi / psi2, got = ls_plan_huber_weight(sigma, delta);
        assert_true(fabs(got - want) <= 1e-9 * want);
    }
    /* Far inside the quadratic part, the weight of least squares. */
    /* The blurred moments at a residual off 0, against the midpoint rule
     * over the normal density (the fit's standard errors use E psi'). */
    for (double r0 = -0.003; r0 <= 0.004; r0 += 0.0017) {
        double h = 0.0021, dl = 1e-3, d1 = 0, d2 = 0;
        for (int k = -200000; k < 200000; k++) {
            double z = (k + 0.5) * 5e-5, w = exp(-0.5 * z * z) / sqrt(2 * M_PI) * 5e-5, x = r0 + h * z;
            double psi = fmax(-dl, fmin(dl, x));
            d1 += w * (fabs(x) <= dl);
            d2 += w * psi * psi;
        }
        double dpsi, psi2;
        ls_huber_blurred(r0, h, dl, &dpsi, &psi2);
        print_message("r %g: E psi' %.9g (%.2g), E psi^2 %.9g (%.2g)\n", r0, dpsi, dpsi / d1 - 1, psi2, psi2 / d2 - 1);
        assert_true(fabs(dpsi / d1 - 1) < 1e-4 && fabs(psi2 / d2 - 1) < 1e-6); /* the indicator is a step */
    }
    assert_true(fabs(ls_plan_huber_weight(0.0019, 1.0) * 0.0019 * 0.0019 - 1) < 1e-12);
    assert_true(ls_plan_huber_weight(0.0019, INFINITY) == 1 / (0.0019 * 0.0019));
}

/* d ln L / du_k by central differences in the fitted coordinate u_k. */
static double fd_log_loss(const ls_law *l, ls_law_param k, const ls_law_point *x)
{
    double u = ls_law_param_to_fitted(k, l->p[k]), h = 1e-5 * fmax(1, fabs(u));
    ls_law up = *l, down = *l;
    up.p[k] = ls_law_param_from_fitted(k, u + h);
    down.p[k] = ls_law_param_from_fitted(k, u - h);
    return (log(ls_law_loss(&up, x)) - log(ls_law_loss(&down, x))) / (2 * h);
}

static const ls_law_point POINTS[] = {
    {3.1e8, 1.1e9, 2.325e8, 3, 4, 2.3e10, 0},
    {8.7e8, 8.7e8, 6.525e8, 1, 1, 1.3e11, 0},
    {1.9e9, 2.02e10, 1.425e9, 7, 16, 4.4e10, 0},
    {5.3e7, 1.2e8, 3.9e7, 2, 2, 7.7e9, 0},
};

static void fisher_information_matches_finite_differences(void **state)
{
    (void)state;
    ls_law l = truth();
    ls_law_param params[LS_LAW_NPARAMS];
    size_t p = free_params(&l, params);
    double w = 2.385e5;
    double info[LS_LAW_NPARAMS * LS_LAW_NPARAMS] = {0};
    ls_plan_add_information(&l, params, p, POINTS, 4, w, info);
    double j[4][LS_LAW_NPARAMS];
    for (size_t i = 0; i < 4; i++)
        for (size_t k = 0; k < p; k++)
            j[i][k] = fd_log_loss(&l, params[k], &POINTS[i]);
    for (size_t a = 0; a < p; a++)
        for (size_t b = 0; b < p; b++) {
            double want = 0, scale = 0;
            for (size_t i = 0; i < 4; i++) {
                want += w * j[i][a] * j[i][b];
                scale += w * fabs(j[i][a] * j[i][b]);
            }
            double got = info[a * p + b];
            if (!(fabs(got - want) <= 1e-6 * fmax(scale, w * 1e-6)))
                fail_msg("I[%s][%s]: got %.10g, want %.10g", ls_law_param_name(params[a]),
                         ls_law_param_name(params[b]), got, want);
        }
}

static void gap_gradient_matches_finite_differences(void **state)
{
    (void)state;
    ls_law l = truth();
    ls_law_param params[LS_LAW_NPARAMS];
    size_t p = free_params(&l, params);
    double c[LS_LAW_NPARAMS];
    ls_plan_gap_gradient(&l, params, p, &POINTS[0], &POINTS[2], c);
    for (size_t k = 0; k < p; k++) {
        ls_law_param q = params[k];
        double u = ls_law_param_to_fitted(q, l.p[q]), h = 1e-5 * fmax(1, fabs(u));
        ls_law up = l, down = l;
        up.p[q] = ls_law_param_from_fitted(q, u + h);
        down.p[q] = ls_law_param_from_fitted(q, u - h);
        double want = ((ls_law_loss(&up, &POINTS[0]) - ls_law_loss(&up, &POINTS[2])) -
                       (ls_law_loss(&down, &POINTS[0]) - ls_law_loss(&down, &POINTS[2]))) /
                      (2 * h);
        if (!(fabs(c[k] - want) <= 1e-6 * fmax(fabs(want), 1e-6)))
            fail_msg("dgap/d%s: got %.10g, want %.10g", ls_law_param_name(q), c[k], want);
    }
}

/* A small problem: the default law's first draws as the prior. */
static const double N[] = {1e8, 3e8, 1e9}, D[] = {1e10, 3e10, 1e11}, E[] = {1, 4, 16}, R[] = {1, 2, 4};
static const ls_simulate_grid GRID = {N, 3, D, 3, E, 3, R, 3};
static const double SOLVE_R[] = {1, 2, 3, 4}, SOLVE_E[] = {1, 4, 16};

typedef struct problem {
    ls_lawfile *lf;
    ls_law *draws;
    ls_plan_prior prior;
    ls_arch_template t;
    ls_solve_budget deploy;
    ls_solve_options choice;
    ls_plan_parameters p;
    ls_law_point *cand_x;
    ls_plan_candidates cand;
} problem;

static void problem_init(problem *pb, size_t ndraws)
{
    ls_error err;
    pb->lf = ls_lawfile_default(&err);
    assert_non_null(pb->lf);
    assert_true(pb->lf->ndraws >= ndraws);
    pb->draws = malloc(ndraws * sizeof *pb->draws);
    assert_non_null(pb->draws);
    for (size_t s = 0; s < ndraws; s++)
        ls_lawfile_draw(pb->lf, s, &pb->draws[s]);
    pb->prior.point = pb->lf->law;
    memcpy(pb->prior.fixed, pb->lf->fixed, sizeof pb->prior.fixed);
    pb->prior.rmse = pb->lf->fit.rmse;
    pb->prior.draws = pb->draws;
    pb->prior.ndraws = ndraws;
    ls_arch_template_default(&pb->t);
    pb->deploy = (ls_solve_budget){.flops = 1e22, .mem_bytes = 3e9, .bits = 4};
    pb->choice = (ls_solve_options){SOLVE_R, 4, SOLVE_E, 3, NULL, 0, 0.0, NULL, NULL};
    ls_plan_default_parameters(&pb->p);
    pb->p.budget_flops = 2e21;
    pb->p.threads = 2;
    /* The c-optimal greedy step alone, unchecked: what most tests here
     * examine (the search and the check have tests of their own). */
    pb->p.search_sweeps = 0;
    pb->p.min_runs_per_param = 0;
    pb->p.max_condition = INFINITY;
    assert_int_equal(ls_plan_grid_candidates(&pb->t, &GRID, &pb->cand_x, &pb->cand.n, &err), 0);
    pb->cand.x = pb->cand_x;
}

static void problem_free(problem *pb)
{
    free(pb->draws);
    free(pb->cand_x);
    ls_lawfile_free(pb->lf);
}

static void the_budget_is_never_exceeded(void **state)
{
    (void)state;
    problem pb;
    problem_init(&pb, 8);
    const double budgets[] = {3.7e19, 4.1e20, 2e21, 9.3e21};
    for (size_t b = 0; b < 4; b++) {
        pb.p.budget_flops = budgets[b];
        ls_plan_result r;
        ls_error err;
        assert_int_equal(ls_plan_run(&pb.prior, &pb.t, &pb.cand, NULL, &pb.deploy, &pb.choice, &pb.p, &r, &err), 0);
        assert_true(r.nruns > 0);
        double sum = 0, last = r.variance_have;
        for (size_t i = 0; i < r.nruns; i++) {
            sum += r.runs[i].flops;
            assert_true(r.runs[i].flops == ls_law_training_flops(&r.runs[i].x));
            assert_true(r.runs[i].variance < last); /* every run adds information */
            last = r.runs[i].variance;
            for (size_t k = 0; k < i; k++) /* chosen at most once */
                assert_false(r.runs[k].x.n_act == r.runs[i].x.n_act && r.runs[k].x.D == r.runs[i].x.D &&
                             r.runs[k].x.R == r.runs[i].x.R && r.runs[k].x.E == r.runs[i].x.E);
        }
        assert_true(sum <= budgets[b]);
        assert_true(fabs(sum - r.flops_spent) <= 1e-12 * sum);
        assert_true(r.variance_plan == last);
        /* Nothing left out would still have fitted. */
        double smallest = INFINITY;
        for (size_t a = 0; a < 3; a++)
            for (size_t d = 0; d < 3; d++)
                for (size_t e = 0; e < 3; e++)
                    for (size_t k = 0; k < 3; k++) {
                        ls_law_point x = ls_arch_point(&pb.t, N[a], E[e], R[k], D[d]);
                        int chosen = 0;
                        for (size_t i = 0; i < r.nruns; i++)
                            chosen |= r.runs[i].x.n_act == x.n_act && r.runs[i].x.D == x.D &&
                                      r.runs[i].x.R == x.R && r.runs[i].x.E == x.E;
                        if (!chosen)
                            smallest = fmin(smallest, ls_law_training_flops(&x));
                    }
        assert_true(smallest > budgets[b] - sum);
        ls_plan_result_free(&r);
    }
    problem_free(&pb);
}

/* The gradient of draw s's own gap (its choice against its runner-up; the
 * point estimate's pair when it has none), solved once per plan and draw:
 * under valgrind the solves would dominate the test. */
static const ls_plan_result *gap_cache_for; /* reset by each test that uses it */
static double gap_cache[16][LS_LAW_NPARAMS];
static unsigned char gap_cache_have[16];

static const double *gap_gradient_of_draw(const problem *pb, const ls_plan_result *r, size_t s, const ls_law_point *x1,
                                          const ls_law_point *x2)
{
    assert_true(s < 16);
    if (gap_cache_for != r) {
        memset(gap_cache_have, 0, sizeof gap_cache_have);
        gap_cache_for = r;
    }
    if (gap_cache_have[s])
        return gap_cache[s];
    ls_solve_result sr;
    ls_error err;
    ls_law_point y1 = *x1, y2 = *x2;
    assert_int_equal(ls_solve_run(&pb->draws[s], &pb->t, &pb->deploy, &pb->choice, &sr, &err), 0);
    if (sr.has_choice) {
        const ls_solve_candidate *second = NULL;
        for (size_t i = 0; i < sr.ncandidates; i++) {
            const ls_solve_candidate *cand = &sr.candidates[i];
            if (cand->feasible && !(cand->R == sr.choice.R && cand->E == sr.choice.E) &&
                (!second || cand->loss < second->loss))
                second = cand;
        }
        if (second) {
            y1 = (ls_law_point){sr.choice.n_act, sr.choice.n_total, sr.choice.n_loop, sr.choice.R, sr.choice.E,
                             sr.choice.tokens, 0};
            y2 = (ls_law_point){second->n_act, second->n_total, second->n_loop, second->R, second->E, second->tokens, 0};
        }
    }
    ls_solve_result_free(&sr);
    ls_plan_gap_gradient(&pb->draws[s], r->params, r->nparams, &y1, &y2, gap_cache[s]);
    gap_cache_have[s] = 1;
    return gap_cache[s];
}

/* The exact mean of c_s'(I_s + w j j')^-1 c_s, inverted with GSL. */
static double brute_variance(const problem *pb, const ls_plan_result *r, const ls_law_point *extra, size_t nextra)
{
    size_t p = r->nparams;
    ls_law_point x1 = {r->best.n_act, r->best.n_total, r->best.n_loop, r->best.R, r->best.E, r->best.tokens, 0};
    ls_law_point x2 = {r->runner_up.n_act, r->runner_up.n_total, r->runner_up.n_loop, r->runner_up.R,
                    r->runner_up.E, r->runner_up.tokens, 0};
    double total = 0;
    for (size_t s = 0; s < r->ndraws; s++) {
        gsl_matrix *m = gsl_matrix_calloc(p, p);
        gsl_vector *c = gsl_vector_alloc(p), *y = gsl_vector_alloc(p);
        for (size_t k = 0; k < p; k++)
            gsl_matrix_set(m, k, k, 1.0 / (pb->p.prior_sd * pb->p.prior_sd));
        for (size_t i = 0; i < nextra; i++) {
            double g[LS_LAW_NPARAMS];
            ls_law_log_loss_grad(&pb->draws[s], &extra[i], g);
            for (size_t a = 0; a < p; a++)
                for (size_t b = 0; b < p; b++)
                    *gsl_matrix_ptr(m, a, b) += r->huber_weight * g[r->params[a]] * g[r->params[b]];
        }
        const double *cc = gap_gradient_of_draw(pb, r, s, &x1, &x2);
        for (size_t k = 0; k < p; k++)
            gsl_vector_set(c, k, cc[k]);
        assert_int_equal(gsl_linalg_cholesky_decomp1(m), 0);
        assert_int_equal(gsl_linalg_cholesky_solve(m, c, y), 0);
        double v;
        gsl_blas_ddot(c, y, &v);
        total += v;
        gsl_matrix_free(m);
        gsl_vector_free(c);
        gsl_vector_free(y);
    }
    return total / (double)r->ndraws;
}

/* Every step, including those after the rank-one updates and their
 * refresh, against the exact variances. */
static void each_step_takes_the_largest_drop_per_flop(void **state)
{
    (void)state;
    gap_cache_for = NULL;
    problem pb;
    problem_init(&pb, 6);
    pb.p.budget_flops = 2.3e21;
    ls_plan_result r;
    ls_error err;
    assert_int_equal(ls_plan_run(&pb.prior, &pb.t, &pb.cand, NULL, &pb.deploy, &pb.choice, &pb.p, &r, &err), 0);
    assert_true(r.nruns > 20); /* past the first refresh of the rank-one updates */
    ls_law_point chosen[81];
    double spent = 0;
    for (size_t step = 0; step < r.nruns; step++) {
        double before = brute_variance(&pb, &r, chosen, step);
        double best_ratio = -1;
        ls_law_point best = {0};
        for (size_t a = 0; a < 3; a++)
            for (size_t d = 0; d < 3; d++)
                for (size_t e = 0; e < 3; e++)
                    for (size_t k = 0; k < 3; k++) {
                        ls_law_point x = ls_arch_point(&pb.t, N[a], E[e], R[k], D[d]);
                        x.n_total = nearbyint(x.n_total);
                        x.n_loop = nearbyint(x.n_loop);
                        double f = ls_law_training_flops(&x);
                        int taken = 0;
                        for (size_t i = 0; i < step; i++)
                            taken |= chosen[i].n_act == x.n_act && chosen[i].D == x.D && chosen[i].R == x.R &&
                                     chosen[i].E == x.E;
                        if (taken || f > pb.p.budget_flops - spent)
                            continue;
                        chosen[step] = x;
                        double ratio = (before - brute_variance(&pb, &r, chosen, step + 1)) / f;
                        if (ratio > best_ratio) {
                            best_ratio = ratio;
                            best = x;
                        }
                    }
        assert_true(best.n_act == r.runs[step].x.n_act && best.D == r.runs[step].x.D && best.R == r.runs[step].x.R &&
                    best.E == r.runs[step].x.E);
        chosen[step] = best;
        spent += ls_law_training_flops(&best);
        double after = brute_variance(&pb, &r, chosen, step + 1);
        assert_true(fabs(after - r.runs[step].variance) <= 1e-8 * after);
    }
    ls_plan_result_free(&r);
    problem_free(&pb);
}

static void runs_already_trained_count_and_are_never_chosen_again(void **state)
{
    (void)state;
    gap_cache_for = NULL;
    problem pb;
    problem_init(&pb, 8);
    /* Three runs of the grid and one outside it. */
    ls_sweep_row rows[4];
    memset(rows, 0, sizeof rows);
    const double have[4][4] = {{1e8, 1e10, 1, 1}, {3e8, 3e10, 4, 2}, {1e9, 1e10, 16, 4}, {6e8, 2e10, 4, 3}};
    double have_flops = 0;
    for (size_t i = 0; i < 4; i++) {
        ls_law_point x = ls_arch_point(&pb.t, have[i][0], have[i][2], have[i][3], have[i][1]);
        rows[i] = (ls_sweep_row){x.n_act, nearbyint(x.n_total), nearbyint(x.n_loop), x.R, x.E, 1, x.D, 2.5, NAN, (long)i + 2, 0, 0, 0};
        have_flops += ls_law_training_flops(&x);
    }
    ls_sweep s;
    memset(&s, 0, sizeof s);
    s.n = 4;
    s.rows = rows;
    s.has_loss = 1;
    ls_plan_result without, with;
    ls_error err;
    assert_int_equal(ls_plan_run(&pb.prior, &pb.t, &pb.cand, NULL, &pb.deploy, &pb.choice, &pb.p, &without, &err), 0);
    assert_int_equal(ls_plan_run(&pb.prior, &pb.t, &pb.cand, &s, &pb.deploy, &pb.choice, &pb.p, &with, &err), 0);
    assert_int_equal(with.nhave, 4);
    assert_int_equal(with.nhave_in_grid, 3);
    assert_true(fabs(with.have_flops - have_flops) <= 1e-12 * have_flops);
    /* The runs in hand count: less variance before anything is chosen. */
    assert_true(fabs(without.variance_have - without.variance_prior) <= 1e-12 * without.variance_prior);
    assert_true(with.variance_have < without.variance_have);
    assert_true(fabs(with.variance_have - brute_variance(&pb, &with, (ls_law_point[]){
        {rows[0].n_act, rows[0].n_total, rows[0].n_loop, rows[0].R, rows[0].E, rows[0].tokens, 0},
        {rows[1].n_act, rows[1].n_total, rows[1].n_loop, rows[1].R, rows[1].E, rows[1].tokens, 0},
        {rows[2].n_act, rows[2].n_total, rows[2].n_loop, rows[2].R, rows[2].E, rows[2].tokens, 0},
        {rows[3].n_act, rows[3].n_total, rows[3].n_loop, rows[3].R, rows[3].E, rows[3].tokens, 0}}, 4)) <=
                1e-8 * with.variance_have);
    for (size_t i = 0; i < with.nruns; i++)
        for (size_t h = 0; h < 4; h++)
            assert_false(with.runs[i].x.n_act == rows[h].n_act && with.runs[i].x.D == rows[h].tokens &&
                         with.runs[i].x.R == rows[h].R && with.runs[i].x.E == rows[h].E);
    /* At least one run trained is one the plan would otherwise choose. */
    int overlap = 0;
    for (size_t i = 0; i < without.nruns; i++)
        for (size_t h = 0; h < 3; h++)
            overlap |= without.runs[i].x.n_act == rows[h].n_act && without.runs[i].x.D == rows[h].tokens &&
                       without.runs[i].x.R == rows[h].R && without.runs[i].x.E == rows[h].E;
    assert_true(overlap);
    ls_plan_result_free(&without);
    ls_plan_result_free(&with);
    problem_free(&pb);
}

static void threads_do_not_change_the_plan(void **state)
{
    (void)state;
    problem pb;
    problem_init(&pb, 12);
    ls_plan_result a, b;
    ls_error err;
    pb.p.threads = 1;
    assert_int_equal(ls_plan_run(&pb.prior, &pb.t, &pb.cand, NULL, &pb.deploy, &pb.choice, &pb.p, &a, &err), 0);
    pb.p.threads = 3;
    assert_int_equal(ls_plan_run(&pb.prior, &pb.t, &pb.cand, NULL, &pb.deploy, &pb.choice, &pb.p, &b, &err), 0);
    assert_int_equal(a.nruns, b.nruns);
    for (size_t i = 0; i < a.nruns; i++) {
        assert_true(a.runs[i].x.n_act == b.runs[i].x.n_act && a.runs[i].x.D == b.runs[i].x.D);
        assert_true(a.runs[i].variance == b.runs[i].variance);
    }
    ls_plan_result_free(&a);
    ls_plan_result_free(&b);
    problem_free(&pb);
}

/* Without --noise, sigma is the prior's RMSE over the mean loss the point
 * estimate predicts for the candidates, and w follows from it. */
static void the_default_noise_is_the_priors_relative_rmse(void **state)
{
    (void)state;
    problem pb;
    problem_init(&pb, 3);
    pb.p.budget_flops = 1e20;
    ls_plan_result r;
    ls_error err;
    assert_int_equal(ls_plan_run(&pb.prior, &pb.t, &pb.cand, NULL, &pb.deploy, &pb.choice, &pb.p, &r, &err), 0);
    double sum = 0;
    for (size_t a = 0; a < 3; a++)
        for (size_t d = 0; d < 3; d++)
            for (size_t e = 0; e < 3; e++)
                for (size_t k = 0; k < 3; k++) {
                    ls_law_point x = ls_arch_point(&pb.t, N[a], E[e], R[k], D[d]);
                    x.n_total = nearbyint(x.n_total);
                    x.n_loop = nearbyint(x.n_loop);
                    sum += ls_law_loss(&pb.prior.point, &x);
                }
    double want = pb.lf->fit.rmse / (sum / 81);
    assert_true(fabs(r.sigma - want) <= 1e-12 * want);
    assert_true(r.huber_weight == ls_plan_huber_weight(r.sigma, pb.p.huber_delta));
    assert_int_equal(r.ndraws, 3);
    assert_int_equal(r.nparams, 13); /* moe:bounded-sparse without E_start */
    ls_plan_result_free(&r);
    problem_free(&pb);
}

static void bad_parameters_are_refused(void **state)
{
    (void)state;
    problem pb;
    problem_init(&pb, 2);
    ls_plan_result r;
    ls_error err;
    pb.p.budget_flops = -1;
    assert_int_equal(ls_plan_run(&pb.prior, &pb.t, &pb.cand, NULL, &pb.deploy, &pb.choice, &pb.p, &r, &err),
                     LS_ERR_USAGE);
    pb.p.budget_flops = 1e21;
    pb.prior.rmse = NAN;
    assert_int_equal(ls_plan_run(&pb.prior, &pb.t, &pb.cand, NULL, &pb.deploy, &pb.choice, &pb.p, &r, &err),
                     LS_ERR_USAGE);
    assert_string_equal(err.message, "the prior law has no fit RMSE to take the noise from");
    pb.p.noise_sigma = 0.003;
    const double one_E[] = {16}, one_R[] = {1};
    pb.choice = (ls_solve_options){one_R, 1, one_E, 1, NULL, 0, 0.0, NULL, NULL};
    assert_int_equal(ls_plan_run(&pb.prior, &pb.t, &pb.cand, NULL, &pb.deploy, &pb.choice, &pb.p, &r, &err),
                     LS_ERR_DATA);
    problem_free(&pb);
}

static double grid_flops_total(const ls_arch_template *t)
{
    double total = 0;
    for (size_t a = 0; a < 3; a++)
        for (size_t d = 0; d < 3; d++)
            for (size_t e = 0; e < 3; e++)
                for (size_t k = 0; k < 3; k++) {
                    ls_law_point x = ls_arch_point(t, N[a], E[e], R[k], D[d]);
                    x.n_total = nearbyint(x.n_total);
                    x.n_loop = nearbyint(x.n_loop);
                    total += ls_law_training_flops(&x);
                }
    return total;
}

/* With the whole grid in both designs and almost no noise, every fit of a
 * law to its own truth makes the truth's decision. */
static void validation_recovers_the_truth_from_the_whole_grid(void **state)
{
    (void)state;
    problem pb;
    problem_init(&pb, 4);
    pb.p.budget_flops = 1e25;
    ls_plan_result r;
    ls_error err;
    assert_int_equal(ls_plan_run(&pb.prior, &pb.t, &pb.cand, NULL, &pb.deploy, &pb.choice, &pb.p, &r, &err), 0);
    assert_int_equal(r.nruns, 81);
    ls_plan_validation_options vo;
    ls_plan_validation_default_options(&vo);
    vo.replicates = 3;
    vo.noise_sigma = 1e-4;
    vo.baseline_flops = 1e25;
    vo.seed = 7;
    vo.threads = 2;
    vo.center = &pb.prior.point;
    ls_plan_validation v;
    assert_int_equal(ls_plan_validate(&pb.prior.point, pb.prior.point.kind, &pb.t, &pb.cand, NULL, &r, &pb.deploy,
                                      &pb.choice, &vo, &v, &err), 0);
    ls_solve_result sr;
    assert_int_equal(ls_solve_run(&pb.prior.point, &pb.t, &pb.deploy, &pb.choice, &sr, &err), 0);
    assert_true(v.truth_choice.R == sr.choice.R && v.truth_choice.E == sr.choice.E &&
                v.truth_choice.n_act == sr.choice.n_act);
    ls_solve_result_free(&sr);
    assert_int_equal(v.replicates, 3);
    assert_int_equal(v.grid.stride, 1);
    assert_int_equal(v.grid.nruns, 81);
    assert_int_equal(v.plan.nruns, 81);
    assert_true(fabs(v.grid.flops - grid_flops_total(&pb.t)) <= 1e-12 * v.grid.flops);
    assert_true(fabs(v.plan.flops - v.grid.flops) <= 1e-12 * v.grid.flops);
    assert_int_equal(v.plan.right, 3);
    assert_int_equal(v.grid.right, 3);
    assert_int_equal(v.plan.failed, 0);
    assert_true(fabs(v.plan.regret_max) < 1e-4 && fabs(v.grid.regret_max) < 1e-4);
    ls_plan_result_free(&r);
    problem_free(&pb);
}

/* The thinned grid: the smallest stride coprime to the 27 (tokens, E, R)
 * combinations whose runs fit in the baseline's compute. */
static void the_thinned_grid_is_the_densest_that_fits(void **state)
{
    (void)state;
    problem pb;
    problem_init(&pb, 2);
    pb.p.budget_flops = 3e20;
    pb.p.noise_sigma = 0.002;
    ls_plan_result r;
    ls_error err;
    assert_int_equal(ls_plan_run(&pb.prior, &pb.t, &pb.cand, NULL, &pb.deploy, &pb.choice, &pb.p, &r, &err), 0);
    ls_law_point cand[81];
    size_t i = 0;
    for (size_t a = 0; a < 3; a++)
        for (size_t d = 0; d < 3; d++)
            for (size_t e = 0; e < 3; e++)
                for (size_t k = 0; k < 3; k++, i++) {
                    cand[i] = ls_arch_point(&pb.t, N[a], E[e], R[k], D[d]);
                    cand[i].n_total = nearbyint(cand[i].n_total);
                    cand[i].n_loop = nearbyint(cand[i].n_loop);
                }
    double baseline = 0.37 * grid_flops_total(&pb.t);
    ls_plan_validation_options vo;
    ls_plan_validation_default_options(&vo);
    vo.replicates = 1;
    vo.noise_sigma = 0.002;
    vo.baseline_flops = baseline;
    vo.seed = 3;
    vo.threads = 1;
    vo.center = &pb.prior.point;
    ls_plan_validation v;
    assert_int_equal(ls_plan_validate(&pb.prior.point, pb.prior.point.kind, &pb.t, &pb.cand, NULL, &r, &pb.deploy,
                                      &pb.choice, &vo, &v, &err), 0);
    size_t want = 0;
    double want_flops = 0;
    for (size_t k = 1; k <= 81 && want == 0; k++) {
        if (k % 3 == 0)
            continue;
        double sum = 0;
        for (size_t j = k / 2; j < 81; j += k)
            sum += ls_law_training_flops(&cand[j]);
        if (sum <= baseline) {
            want = k;
            want_flops = sum;
        }
    }
    assert_true(want > 1);
    assert_int_equal(v.grid.stride, want);
    assert_true(v.grid.flops == want_flops && v.grid.flops <= baseline);
    assert_int_equal(v.grid.nruns, (81 - want / 2 + want - 1) / want);
    assert_int_equal(v.plan.nruns, r.nruns);
    assert_true(v.plan.right + v.plan.failed <= 1 && v.grid.right + v.grid.failed <= 1);
    vo.baseline_flops = 1e18; /* less than the cheapest run */
    assert_int_equal(ls_plan_validate(&pb.prior.point, pb.prior.point.kind, &pb.t, &pb.cand, NULL, &r, &pb.deploy,
                                      &pb.choice, &vo, &v, &err), LS_ERR_DATA);
    ls_plan_result_free(&r);
    problem_free(&pb);
}

/* The Wilson score interval against values worked by hand from its
 * closed form (and the published 8 of 10: 0.490 to 0.943). */
static void rates_get_a_wilson_interval(void **state)
{
    (void)state;
    double lo, hi;
    ls_plan_rate_interval(8, 10, &lo, &hi);
    assert_true(fabs(lo - 0.49016) < 1e-4 && fabs(hi - 0.94332) < 1e-4);
    ls_plan_rate_interval(0, 10, &lo, &hi);
    assert_true(lo == 0.0 && fabs(hi - 0.27753) < 1e-4);
    ls_plan_rate_interval(10, 10, &lo, &hi);
    assert_true(fabs(lo - 0.72247) < 1e-4 && hi == 1.0);
    ls_plan_rate_interval(0, 0, &lo, &hi);
    assert_true(lo == 0.0 && hi == 1.0);
}

/* The IsoFLOP baseline: for each of the 9 (R, E) of the grid, 3 budgets a
 * factor sqrt 10 apart and 8 sizes each, costing the baseline's compute in
 * all: 9 x 8 x F_top (1 + 10^-1/2 + 10^-1) = baseline, when the
 * candidates' sizes span every run of it.  Within the narrower sizes of the
 * small grid (N_act 1e8 to 1e9, tokens up to 1e11), the runs outside are
 * left out and the budgets raised until those within spend the baseline,
 * or nearly (the last step of the bisection). */
static void the_isoflop_design_spends_the_baseline_on_its_budgets(void **state)
{
    (void)state;
    problem pb;
    problem_init(&pb, 2);
    pb.p.budget_flops = 3e20;
    pb.p.noise_sigma = 0.002;
    static const double wide_N[] = {1e6, 1e8, 1e11}, wide_D[] = {1e10, 1e11, 1e13};
    static const ls_simulate_grid wide = {wide_N, 3, wide_D, 3, E, 3, R, 3};
    ls_law_point *wide_x;
    ls_plan_candidates wide_cand;
    ls_error err;
    assert_int_equal(ls_plan_grid_candidates(&pb.t, &wide, &wide_x, &wide_cand.n, &err), 0);
    wide_cand.x = wide_x;
    ls_plan_result r;
    assert_int_equal(ls_plan_run(&pb.prior, &pb.t, &wide_cand, NULL, &pb.deploy, &pb.choice, &pb.p, &r, &err), 0);
    ls_plan_validation_options vo;
    ls_plan_validation_default_options(&vo);
    vo.replicates = 1;
    vo.noise_sigma = 0.002;
    vo.baseline_flops = 2.385e21;
    vo.threads = 1;
    vo.center = &pb.prior.point;
    ls_plan_validation v;
    assert_int_equal(ls_plan_validate(&pb.prior.point, pb.prior.point.kind, &pb.t, &wide_cand, NULL, &r, &pb.deploy,
                                      &pb.choice, &vo, &v, &err), 0);
    double top = 2.385e21 / (9 * 8 * (1 + 1 / sqrt(10.0) + 0.1));
    assert_int_equal(v.isoflop_pairs, 9);
    assert_int_equal(v.isoflop_budgets, 3);
    assert_int_equal(v.isoflop_sizes, 8);
    assert_int_equal(v.isoflop.nruns, 9 * 3 * 8);
    assert_true(fabs(v.isoflop_budget_max / top - 1) < 1e-12);
    assert_true(fabs(v.isoflop_budget_min / (top / 10) - 1) < 1e-12);
    assert_true(fabs(v.isoflop.flops / 2.385e21 - 1) < 1e-12);
    assert_true(v.isoflop.right + v.isoflop.failed <= 1);
    ls_plan_result_free(&r);
    free(wide_x);
    /* The small grid's sizes: fewer runs, the budgets raised, the baseline
     * spent to within the bisection's last step. */
    assert_int_equal(ls_plan_run(&pb.prior, &pb.t, &pb.cand, NULL, &pb.deploy, &pb.choice, &pb.p, &r, &err), 0);
    assert_int_equal(ls_plan_validate(&pb.prior.point, pb.prior.point.kind, &pb.t, &pb.cand, NULL, &r, &pb.deploy,
                                      &pb.choice, &vo, &v, &err), 0);
    assert_true(v.isoflop.nruns > 0 && v.isoflop.nruns < 9 * 3 * 8);
    assert_true(v.isoflop_budget_max > top);
    assert_true(v.isoflop.flops <= 2.385e21 && v.isoflop.flops > 0.99 * 2.385e21);
    /* Without a centre law there is no IsoFLOP design. */
    vo.center = NULL;
    assert_int_equal(ls_plan_validate(&pb.prior.point, pb.prior.point.kind, &pb.t, &pb.cand, NULL, &r, &pb.deploy,
                                      &pb.choice, &vo, &v, &err), LS_ERR_USAGE);
    ls_plan_result_free(&r);
    problem_free(&pb);
}

/* A candidate file with n_active, tokens, R and E only: N_total and N_loop
 * from the template, rounded as the grid's; the decision's axes are its
 * distinct R and E, ascending; a repeated configuration is refused. */
static void candidates_read_from_a_file_take_the_template(void **state)
{
    (void)state;
    ls_arch_template t;
    ls_arch_template_default(&t);
    const char *path = write_temp_text("# three configurations\nn_active,tokens,R,E\n2.385e8,1.7e10,3,8\n"
                                       "1.1e8,\"4e10\",1,2\n2.385e8,1.7e10,1,8\n", 1);
    size_t n = 0;
    ls_error err;
    ls_law_point *x = ls_plan_read_candidates(path, &t, &n, &err);
    assert_non_null(x);
    assert_int_equal(n, 3);
    const double want[3][4] = {{2.385e8, 1.7e10, 3, 8}, {1.1e8, 4e10, 1, 2}, {2.385e8, 1.7e10, 1, 8}};
    for (size_t i = 0; i < 3; i++) {
        /* The default template: N_total = N_act (1 + (2/3)(E - 1)), N_loop = 0.75 N_act. */
        assert_true(x[i].n_act == want[i][0] && x[i].D == want[i][1] && x[i].R == want[i][2] && x[i].E == want[i][3]);
        assert_true(x[i].n_total == nearbyint(want[i][0] * (1 + 2.0 / 3.0 * (want[i][3] - 1))));
        assert_true(x[i].n_loop == nearbyint(0.75 * want[i][0]));
    }
    ls_plan_candidates c = {x, n};
    double axis_R[3], axis_E[3];
    size_t nR, nE;
    ls_plan_candidate_axes(&c, axis_R, &nR, axis_E, &nE);
    assert_int_equal(nR, 2);
    assert_int_equal(nE, 2);
    assert_true(axis_R[0] == 1 && axis_R[1] == 3 && axis_E[0] == 2 && axis_E[1] == 8);
    free(x);
    path = write_temp_text("n_act,D,R,E\n1e8,1e10,1,2\n3e8,1e10,1,2\n1e8,1e10,1,2\n", 0);
    assert_null(ls_plan_read_candidates(path, &t, &n, &err));
    assert_int_equal(err.code, LS_ERR_DATA);
    assert_non_null(strstr(err.message, ":4: the same candidate (n_act, tokens, R and E) as line 2"));
    t.top_k = 2;
    path = write_temp_text("n_act,D,R,E\n1e8,1e10,1,1\n", 0); /* E below the template's top_k */
    assert_null(ls_plan_read_candidates(path, &t, &n, &err));
    assert_int_equal(err.code, LS_ERR_DATA);
}

/* A target on named parameters: the plan's expected variance of alpha and
 * beta is the sum over them of (dp/du)^2 [I^-1]_kk, I the weak prior plus
 * the runs chosen, by a Cholesky solve of its own; alpha is an exponent,
 * so dp/du = 1 (an identity transform), and A's is A. */
static void a_parameter_target_is_the_summed_variance_of_those_parameters(void **state)
{
    (void)state;
    problem pb;
    problem_init(&pb, 3);
    pb.p.noise_sigma = 0.002;
    pb.p.budget_flops = 9.3e20;
    const ls_law_param named[] = {LS_LAW_P_ALPHA, LS_LAW_P_BETA, LS_LAW_P_A};
    pb.p.target_params = named;
    pb.p.ntarget_params = 3;
    ls_plan_result r;
    ls_error err;
    assert_int_equal(ls_plan_run(&pb.prior, &pb.t, &pb.cand, NULL, NULL, NULL, &pb.p, &r, &err), 0);
    assert_true(r.nruns > 3);
    assert_int_equal(r.ntargets, 3);
    ls_law_point chosen[81];
    for (size_t i = 0; i < r.nruns; i++)
        chosen[i] = r.runs[i].x;
    size_t p = r.nparams;
    double want[3] = {0, 0, 0};
    for (size_t s = 0; s < r.ndraws; s++) {
        gsl_matrix *m = gsl_matrix_calloc(p, p);
        gsl_vector *e = gsl_vector_alloc(p), *y = gsl_vector_alloc(p);
        for (size_t k = 0; k < p; k++)
            gsl_matrix_set(m, k, k, 1.0 / (pb.p.prior_sd * pb.p.prior_sd));
        for (size_t i = 0; i < r.nruns; i++) {
            double g[LS_LAW_NPARAMS];
            ls_law_log_loss_grad(&pb.draws[s], &chosen[i], g);
            for (size_t a = 0; a < p; a++)
                for (size_t b = 0; b < p; b++)
                    *gsl_matrix_ptr(m, a, b) += r.huber_weight * g[r.params[a]] * g[r.params[b]];
        }
        assert_int_equal(gsl_linalg_cholesky_decomp1(m), 0);
        for (size_t t = 0; t < 3; t++) {
            gsl_vector_set_zero(e);
            for (size_t k = 0; k < p; k++)
                if (r.params[k] == named[t])
                    gsl_vector_set(e, k, 1.0);
            assert_int_equal(gsl_linalg_cholesky_solve(m, e, y), 0);
            double v, scale = named[t] == LS_LAW_P_A ? pb.draws[s].p[LS_LAW_P_A] : 1.0;
            gsl_blas_ddot(e, y, &v);
            want[t] += scale * scale * v / (double)r.ndraws;
        }
        gsl_matrix_free(m);
        gsl_vector_free(e);
        gsl_vector_free(y);
    }
    for (size_t t = 0; t < 3; t++)
        if (!(fabs(r.target_variance_plan[t] / want[t] - 1) < 1e-8))
            fail_msg("%s: variance %.10g, want %.10g", ls_law_param_name(named[t]), r.target_variance_plan[t], want[t]);
    assert_true(fabs(r.variance_plan / (want[0] + want[1] + want[2]) - 1) < 1e-8);
    ls_plan_result_free(&r);
    /* A parameter the prior holds fixed, or named twice, is refused. */
    const ls_law_param fixed[] = {LS_LAW_P_E_START}, twice[] = {LS_LAW_P_BETA, LS_LAW_P_BETA};
    pb.p.target_params = fixed;
    pb.p.ntarget_params = 1;
    assert_int_equal(ls_plan_run(&pb.prior, &pb.t, &pb.cand, NULL, NULL, NULL, &pb.p, &r, &err), LS_ERR_USAGE);
    pb.p.target_params = twice;
    pb.p.ntarget_params = 2;
    assert_int_equal(ls_plan_run(&pb.prior, &pb.t, &pb.cand, NULL, NULL, NULL, &pb.p, &r, &err), LS_ERR_USAGE);
    problem_free(&pb);
}

/* Simulated: with alpha and beta as the target, the fits of the planned
 * sweep spread alpha and beta less than those of a thinned grid of no
 * more compute, over the same replicates' noise level. */
static void a_parameter_plan_pins_its_parameters_better_than_a_grid(void **state)
{
    (void)state;
    problem pb;
    problem_init(&pb, 4);
    pb.p.noise_sigma = 0.002;
    pb.p.budget_flops = 4e21;
    const ls_law_param named[] = {LS_LAW_P_ALPHA, LS_LAW_P_BETA};
    pb.p.target_params = named;
    pb.p.ntarget_params = 2;
    /* A pilot: the 27 candidates at the smallest size, already trained. */
    ls_sweep_row rows[27];
    for (size_t i = 0; i < 27; i++) {
        const ls_law_point *x = &pb.cand.x[i];
        assert_true(x->n_act == 1e8);
        rows[i] = (ls_sweep_row){x->n_act, x->n_total, x->n_loop, x->R, x->E, 1, x->D, 2.5, NAN, (long)i + 2, 0, 0, 0};
    }
    ls_sweep pilot;
    memset(&pilot, 0, sizeof pilot);
    pilot.n = 27;
    pilot.rows = rows;
    pilot.has_loss = 1;
    ls_plan_result r;
    ls_error err;
    assert_int_equal(ls_plan_run(&pb.prior, &pb.t, &pb.cand, &pilot, NULL, NULL, &pb.p, &r, &err), 0);
    ls_plan_validation_options vo;
    ls_plan_validation_default_options(&vo);
    vo.replicates = 20;
    vo.noise_sigma = 0.002;
    vo.baseline_flops = r.flops_spent;
    vo.threads = 2;
    vo.isoflop_budgets = 0;
    vo.target_params = named;
    vo.ntarget_params = 2;
    ls_plan_validation v;
    assert_int_equal(ls_plan_validate(&pb.prior.point, pb.prior.point.kind, &pb.t, &pb.cand, &pilot, &r, NULL, NULL,
                                      &vo, &v, &err), 0);
    assert_false(v.has_decision);
    assert_true(v.grid.flops <= v.plan.flops);
    print_message("failed fits: plan %zu, grid %zu\n", v.plan.failed, v.grid.failed);
    assert_true(v.plan.failed <= 2 && v.grid.failed <= 2);
    assert_int_equal(v.isoflop.failed, 20);
    print_message("summed variance of alpha and beta: plan %.4g (%zu runs), grid %.4g (%zu runs)\n",
                  v.plan.target_variance, v.plan.nruns, v.grid.target_variance, v.grid.nruns);
    assert_true(v.plan.target_variance < v.grid.target_variance);
    ls_plan_result_free(&r);
    problem_free(&pb);
}

/* Distinct values of one axis (0 N_act, 1 tokens, 2 R, 3 E). */
static size_t distinct_of(const ls_plan_entry *runs, size_t n, int axis)
{
    double v[4096];
    size_t m = 0;
    for (size_t i = 0; i < n && m < 4096; i++) {
        double x = axis == 0 ? runs[i].x.n_act : axis == 1 ? runs[i].x.D : axis == 2 ? runs[i].x.R : runs[i].x.E;
        size_t j = 0;
        while (j < m && v[j] != x)
            j++;
        if (j == m)
            v[m++] = x;
    }
    return m;
}

/* With the check on (the defaults), a plan has at least twice as many runs
 * as parameters and varies every axis, or is refused: never a design the
 * fit cannot identify. */
static void no_plan_is_unfittable(void **state)
{
    (void)state;
    problem pb;
    problem_init(&pb, 20);
    ls_plan_parameters defaults;
    ls_plan_default_parameters(&defaults);
    pb.p.min_runs_per_param = defaults.min_runs_per_param;
    pb.p.max_condition = defaults.max_condition;
    const double budgets[] = {1e19, 5e20, 2e21, 1e22};
    for (size_t b = 0; b < 4; b++) {
        pb.p.budget_flops = budgets[b];
        ls_plan_result r;
        ls_error err;
        int status = ls_plan_run(&pb.prior, &pb.t, &pb.cand, NULL, &pb.deploy, &pb.choice, &pb.p, &r, &err);
        if (status != 0) {
            assert_int_equal(status, LS_ERR_DATA);
            assert_non_null(strstr(err.message, "buys no design that can be fitted"));
            continue;
        }
        assert_true(r.nruns >= 2 * r.nparams);
        assert_true(r.fittable.ok);
        assert_true(distinct_of(r.runs, r.nruns, 0) >= 3);
        assert_true(distinct_of(r.runs, r.nruns, 1) >= 3);
        assert_true(distinct_of(r.runs, r.nruns, 2) >= 2);
        assert_true(distinct_of(r.runs, r.nruns, 3) >= 2);
        assert_true(r.flops_spent <= budgets[b] * (1 + 1e-12));
        ls_plan_result_free(&r);
    }
    problem_free(&pb);
}

/* The check itself: too few runs, an axis left at one value, and runs that
 * repeat one configuration (a singular information) are each refused. */
static void the_design_check_names_the_shortfall(void **state)
{
    (void)state;
    problem pb;
    problem_init(&pb, 1);
    ls_law_param params[LS_LAW_NPARAMS];
    size_t p = free_params(&pb.prior.point, params);
    ls_plan_fittable f;
    /* The whole grid: 81 runs, every axis at three values. */
    assert_true(ls_plan_check_design(&pb.prior.point, params, p, pb.cand.x, pb.cand.n, pb.cand.x, pb.cand.n, 2, 1e12, &f));
    assert_int_equal(f.distinct[0], 3);
    assert_int_equal(f.distinct[3], 3);
    assert_true(f.condition >= 1 && f.condition <= 1e12);
    /* Its first 20 runs are fewer than 2 x 13. */
    assert_false(ls_plan_check_design(&pb.prior.point, params, p, pb.cand.x, 20, pb.cand.x, pb.cand.n, 2, 1e12, &f));
    assert_non_null(strstr(f.why, "20 runs for 13 parameters (at least 26)"));
    /* Only the runs with R = 1: R never varies. */
    ls_law_point x[81];
    size_t n = 0;
    for (size_t i = 0; i < pb.cand.n; i++)
        if (pb.cand.x[i].R == 1)
            x[n++] = pb.cand.x[i];
    assert_false(ls_plan_check_design(&pb.prior.point, params, p, x, n, pb.cand.x, pb.cand.n, 1, 1e12, &f));
    assert_non_null(strstr(f.why, "1 value of R (at least 2)"));
    /* 40 copies of 3 configurations: every axis varies, but the
     * information has rank 3 at most. */
    for (size_t i = 0; i < 40; i++)
        x[i] = pb.cand.x[i % 3 == 0 ? 0 : i % 3 == 1 ? 40 : 80];
    assert_false(ls_plan_check_design(&pb.prior.point, params, p, x, 40, x, 40, 2, 1e12, &f));
    assert_non_null(strstr(f.why, "do not identify every parameter"));
    problem_free(&pb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rates_get_a_wilson_interval),
        cmocka_unit_test(huber_weight_matches_numerical_integration),
        cmocka_unit_test(fisher_information_matches_finite_differences),
        cmocka_unit_test(gap_gradient_matches_finite_differences),
        cmocka_unit_test(the_budget_is_never_exceeded),
        cmocka_unit_test(each_step_takes_the_largest_drop_per_flop),
        cmocka_unit_test(runs_already_trained_count_and_are_never_chosen_again),
        cmocka_unit_test(threads_do_not_change_the_plan),
        cmocka_unit_test(the_default_noise_is_the_priors_relative_rmse),
        cmocka_unit_test(bad_parameters_are_refused),
        cmocka_unit_test(validation_recovers_the_truth_from_the_whole_grid),
        cmocka_unit_test(the_thinned_grid_is_the_densest_that_fits),
        cmocka_unit_test(the_isoflop_design_spends_the_baseline_on_its_budgets),
        cmocka_unit_test(candidates_read_from_a_file_take_the_template),
        cmocka_unit_test(a_parameter_target_is_the_summed_variance_of_those_parameters),
        cmocka_unit_test(a_parameter_plan_pins_its_parameters_better_than_a_grid),
        cmocka_unit_test(no_plan_is_unfittable),
        cmocka_unit_test(the_design_check_names_the_shortfall),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
