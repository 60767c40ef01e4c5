/* Fit diagnostics: each warning appears exactly when its condition holds,
 * judged on hand-made fit results (the fit itself is not under test here). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "loopscale/diagnose.h"

static ls_sweep_row row(double loss, long line)
{
    ls_sweep_row r = {.n_act = 3.17e8, .n_total = 3.17e8, .n_loop = NAN, .R = 1, .E = 1, .k = 1, .tokens = 1.13e11,
                   .loss = loss, .unique_tokens = NAN, .line = line};
    return r;
}

/* A dense fit with well-determined parameters, over runs with losses 3.385,
 * 3.097 (line 7) and 3.52. */
static void setup(ls_sweep *s, ls_sweep_row rows[3], ls_fit_result *r)
{
    rows[0] = row(3.385, 2), rows[1] = row(3.097, 7), rows[2] = row(3.52, 9);
    memset(s, 0, sizeof *s);
    s->n = 3;
    s->rows = rows;
    memset(r, 0, sizeof *r);
    ls_law_init(&r->law, (ls_law_kind){LS_LAW_BASE_DENSE, LS_LAW_MAPPING_NONE});
    const double p[] = {477.8, 0.3473, 2143, 0.3672, 1.817}, se[] = {92.8, 0.0113, 438.7, 0.0101, 0.0174};
    for (int j = 0; j < 5; j++) {
        r->law.p[j] = p[j];
        r->stderr_of[j] = se[j];
    }
    r->converged = 1;
}

static void a_determined_fit_says_nothing(void **state)
{
    (void)state;
    ls_sweep s;
    ls_sweep_row rows[3];
    ls_fit_result r;
    setup(&s, rows, &r);
    char *text = ls_fit_diagnose(&s, &r, NULL);
    assert_non_null(text);
    assert_string_equal(text, "");
    free(text);
}

static void c_at_its_bound_and_c_above_the_lowest_loss(void **state)
{
    (void)state;
    ls_sweep s;
    ls_sweep_row rows[3];
    ls_fit_result r;
    setup(&s, rows, &r);
    r.law.p[LS_LAW_P_C] = 1.26e-9, r.stderr_of[LS_LAW_P_C] = 2.6; /* Porian's owt2/base/long/kaplan/kaplan/train */
    char *text = ls_fit_diagnose(&s, &r, NULL);
    assert_non_null(strstr(text, "c = 1.26e-09 ran to its bound 0 (standard error 2.6)"));
    assert_null(strstr(text, "not determined")); /* said once, as the bound */
    assert_int_equal(strchr(text, '\n') - text + 1, (long)strlen(text)); /* one line */
    free(text);
    /* A small c that the runs do pin down is not at its bound. */
    r.stderr_of[LS_LAW_P_C] = 1e-12;
    text = ls_fit_diagnose(&s, &r, NULL);
    assert_string_equal(text, "");
    free(text);

    setup(&s, rows, &r);
    r.law.p[LS_LAW_P_C] = 3.13; /* Porian's rw/tuned/short/const/standard/val */
    text = ls_fit_diagnose(&s, &r, NULL);
    assert_non_null(strstr(text, "c = 3.13 is above the lowest observed loss, 3.097 (line 7)"));
    free(text);
    r.law.p[LS_LAW_P_C] = 3.0969; /* just below: fine */
    text = ls_fit_diagnose(&s, &r, NULL);
    assert_string_equal(text, "");
    free(text);
    /* A held c is the user's choice, not the fit's. */
    r.law.p[LS_LAW_P_C] = 3.13, r.fixed[LS_LAW_P_C] = 1;
    text = ls_fit_diagnose(&s, &r, NULL);
    assert_string_equal(text, "");
    free(text);
}

static void unbounded_intervals(void **state)
{
    (void)state;
    ls_sweep s;
    ls_sweep_row rows[3];
    ls_fit_result r;
    setup(&s, rows, &r);
    /* The shipped sweep's E_max: 4.7e9 with a standard error of 1.5e17. */
    r.law.kind.base = LS_LAW_BASE_MOE;
    r.law.p[LS_LAW_P_E_MAX] = 4.68e9, r.stderr_of[LS_LAW_P_E_MAX] = 1.46e17;
    r.fixed[LS_LAW_P_E_START] = 1;
    /* An MoE exponent consistent with 0 is not unbounded: it may take either sign. */
    r.law.p[LS_LAW_P_OMEGA] = 7.43e-4, r.stderr_of[LS_LAW_P_OMEGA] = 0.11;
    char *text = ls_fit_diagnose(&s, &r, NULL);
    assert_non_null(strstr(text, "E_max = 4.68e+09 is not determined by the runs: its standard error, 1.5e+17"));
    assert_null(strstr(text, "omega"));
    free(text);
    /* ... unless its error dwarfs 1 too. */
    r.stderr_of[LS_LAW_P_OMEGA] = 12.5;
    text = ls_fit_diagnose(&s, &r, NULL);
    assert_non_null(strstr(text, "omega = 0.000743 is not determined"));
    free(text);
    /* A bootstrap interval spanning more than a factor 1e3. */
    setup(&s, rows, &r);
    ls_fit_bootstrap b;
    memset(&b, 0, sizeof b);
    b.ndraws = 100, b.level = 0.95;
    for (int j = 0; j < LS_LAW_NPARAMS; j++)
        b.ci_low[j] = b.ci_high[j] = NAN;
    b.ci_low[LS_LAW_P_B] = 1046, b.ci_high[LS_LAW_P_B] = 6035; /* Epoch's B: fine */
    b.ci_low[LS_LAW_P_A] = 2.1, b.ci_high[LS_LAW_P_A] = 3.3e4;
    text = ls_fit_diagnose(&s, &r, &b);
    assert_non_null(strstr(text, "A = 478 is not determined by the runs: its 95% bootstrap interval [2.1, 3.3e+04]"));
    assert_null(strstr(text, "B ="));
    free(text);
}

static void holdout_of_a_single_run(void **state)
{
    (void)state;
    ls_holdout_column cols[3] = {{.axis = LS_HOLDOUT_AXIS_N, .ntrain = 244, .ntest = 1},
                              {.axis = LS_HOLDOUT_AXIS_D, .ntrain = 230, .ntest = 15},
                              {.axis = LS_HOLDOUT_AXIS_R, .ntest = 1, .skipped = 1}};
    snprintf(cols[0].label, sizeof cols[0].label, "N=1.61833e+10");
    ls_holdout_result r;
    memset(&r, 0, sizeof r);
    r.ncolumns = 3;
    r.columns = cols;
    char *text = ls_holdout_diagnose(&r);
    assert_string_equal(text, "axis N holds out a single run (N=1.61833e+10): its RMSE is one residual, not a "
                              "measure of extrapolation; hold out more with --split, or a wider top tier "
                              "with --group-tol\n");
    free(text);
}

/* The refusals, in their order and with the program's wording. */
static void usable_refusals(void **state)
{
    (void)state;
    ls_sweep s;
    ls_sweep_row rows[3];
    ls_fit_result r;
    setup(&s, rows, &r);
    char name[] = "runs.csv";
    s.name = name;
    ls_fit_parameters p;
    ls_fit_default_parameters(&p);
    ls_law_kind kind = r.law.kind;
    ls_error err;
    r.n = 3, r.nfree = 5;
    assert_int_equal(ls_fit_usable(&s, kind, &p, &r, &err), LS_ERR_DATA);
    assert_string_equal(err.message, "runs.csv: 3 runs for 5 free parameters leave no residual to judge the fit by "
                                     "or to estimate its errors (add runs, or --fix some)");
    /* With alpha, B, beta held, 3 runs of one size and token count for A and c:
     * the data check refuses it (one n_act while A and c are free). */
    r.nfree = 2;
    p.fixed[LS_LAW_P_ALPHA] = p.fixed[LS_LAW_P_B] = p.fixed[LS_LAW_P_BETA] = 1;
    assert_int_equal(ls_fit_usable(&s, kind, &p, &r, &err), LS_ERR_NOCONV);
    p.fixed[LS_LAW_P_A] = 1;
    r.nfree = 1;
    r.converged = 0, r.starts = 32, r.iterations = 500;
    assert_int_equal(ls_fit_usable(&s, kind, &p, &r, &err), LS_ERR_NOCONV);
    assert_string_equal(err.message, "the best of 32 starts did not converge (after 500 iterations)");
    r.converged = 1;
    r.stderr_of[LS_LAW_P_C] = NAN;
    assert_int_equal(ls_fit_usable(&s, kind, &p, &r, &err), LS_ERR_NOCONV);
    assert_non_null(strstr(err.message, "the sweep cannot tell the parameters apart"));
    r.stderr_of[LS_LAW_P_C] = 0.0174;
    r.law.p[LS_LAW_P_BETA] = 6.0;
    assert_int_equal(ls_fit_usable(&s, kind, &p, &r, &err), LS_ERR_NOCONV);
    assert_non_null(strstr(err.message, "the best fit is not a law of this form: parameter beta = 6"));
    r.law.p[LS_LAW_P_BETA] = 0.3672;
    assert_int_equal(ls_fit_usable(&s, kind, &p, &r, &err), 0);
}

/* a = beta / (alpha + beta): its delta-method error against the gradient
 * in closed form, and its bootstrap interval read as the parameters' are
 * (linear between order statistics). */
static void optimum_exponent(void **state)
{
    (void)state;
    ls_sweep s;
    ls_sweep_row rows[3];
    ls_fit_result r;
    setup(&s, rows, &r);
    for (int i = 0; i < LS_LAW_NPARAMS * LS_LAW_NPARAMS; i++)
        r.covariance[i] = NAN;
    const int al = LS_LAW_P_ALPHA, be = LS_LAW_P_BETA, n = LS_LAW_NPARAMS;
    r.covariance[al * n + al] = 1.3e-4, r.covariance[be * n + be] = 3.4e-4;
    r.covariance[al * n + be] = r.covariance[be * n + al] = 1.1e-4;
    double a = 0.3672 / (0.3473 + 0.3672), s2 = (0.3473 + 0.3672) * (0.3473 + 0.3672);
    double ga = -0.3672 / s2, gb = 0.3473 / s2;
    double want = sqrt(ga * ga * 1.3e-4 + gb * gb * 3.4e-4 + 2 * ga * gb * 1.1e-4);
    ls_fit_exponent e;
    ls_error err;
    assert_int_equal(ls_fit_optimum_exponent(&r, NULL, 0.9, &e, &err), 0);
    assert_true(fabs(e.a / a - 1) < 1e-12);
    assert_true(fabs(e.se / want - 1) < 1e-6);
    assert_true(fabs((e.high - e.a) / (1.6448536269514722 * want) - 1) < 1e-6);
    assert_int_equal(e.ndraws, 0);
    /* 21 draws whose exponents are 0.40, 0.41, ..., 0.60 (beta = a, alpha = 1 - a). */
    double draws[21 * LS_LAW_NPARAMS];
    for (int i = 0; i < 21; i++) {
        for (int j = 0; j < n; j++)
            draws[i * n + j] = r.law.p[j];
        double x = 0.60 - 0.01 * i;
        draws[i * n + al] = 1 - x, draws[i * n + be] = x;
    }
    ls_fit_bootstrap b = {0};
    b.ndraws = 21, b.draws = draws, b.level = 0.9;
    assert_int_equal(ls_fit_optimum_exponent(&r, &b, 0.9, &e, &err), 0);
    assert_int_equal(e.ndraws, 21);
    /* The 5% point of 21 sorted values: at index 0.05 * 20 = 1, 0.41. */
    assert_true(fabs(e.low - 0.41) < 1e-12 && fabs(e.high - 0.59) < 1e-12);
}

/* Spearman's rho by hand: residuals ln Lhat - ln L whose ranks along N are
 * 1, 3, 2, 4 (ties none): rho = 1 - 6 sum d^2 / (n (n^2 - 1)) = 0.8. */
static void residual_trend(void **state)
{
    (void)state;
    ls_sweep s;
    ls_sweep_row rows[4];
    ls_fit_result r;
    ls_sweep_row three[3];
    setup(&s, three, &r);
    const double n_act[] = {1e8, 2e8, 4e8, 8e8}, offset[] = {0.01, 0.03, 0.02, 0.04};
    ls_law_prepared prep;
    ls_law_prepare(&prep, &r.law);
    for (int i = 0; i < 4; i++) {
        rows[i] = three[0];
        rows[i].n_act = rows[i].n_total = n_act[i];
        ls_law_point x = ls_sweep_row_point(&rows[i]);
        ls_law_row row;
        ls_law_row_init(&row, &x);
        rows[i].loss = exp(ls_law_row_log_loss_grad(&prep, &row, NULL) - offset[i]);
    }
    char name[] = "runs.csv";
    s.rows = rows, s.n = 4, s.name = name;
    double rho, t;
    ls_error err;
    assert_int_equal(ls_fit_residual_trend(&s, &r.law, NULL, LS_FIT_AXIS_N, &rho, &t, &err), 0);
    assert_true(fabs(rho - 0.8) < 1e-12);
    assert_true(fabs(t - 0.8 * sqrt(2.0 / (1 - 0.64))) < 1e-12);
    assert_int_equal(ls_fit_residual_trend(&s, &r.law, NULL, LS_FIT_AXIS_D, &rho, &t, &err), LS_ERR_DATA);
}

/* Exact repeats: each run's neighbour is its repeat, and with differences
 * d of +-0.02 the noise is d / sqrt(2 * 0.45494). */
static void noise_from_repeats(void **state)
{
    (void)state;
    ls_sweep s;
    ls_sweep_row rows[6];
    ls_fit_result r;
    ls_sweep_row three[3];
    setup(&s, three, &r);
    for (int i = 0; i < 6; i++) {
        rows[i] = three[0];
        rows[i].n_act = rows[i].n_total = 1e8 * (1 + i / 2);
        rows[i].loss = 3.0 - 0.1 * (i / 2) + (i % 2 ? 0.02 : 0.0);
    }
    s.rows = rows, s.n = 6;
    double sigma;
    size_t repeats;
    ls_error err;
    assert_int_equal(ls_fit_noise_floor(&s, 0, &sigma, &repeats, &err), 0);
    assert_int_equal(repeats, 6);
    assert_true(fabs(sigma - 0.02 / sqrt(2 * 0.454936423119572)) < 1e-12);
}

/* The verdict carries ls_fit_diagnose's lines as structured warnings. */
static void verdict_structures_the_diagnosis(void **state)
{
    (void)state;
    ls_sweep s;
    ls_sweep_row rows[3];
    ls_fit_result r;
    setup(&s, rows, &r);
    for (int i = 0; i < LS_LAW_NPARAMS * LS_LAW_NPARAMS; i++)
        r.covariance[i] = NAN;
    r.law.p[LS_LAW_P_C] = 1.26e-9, r.stderr_of[LS_LAW_P_C] = 2.6;
    ls_warnings w = {0};
    ls_error err;
    assert_int_equal(ls_fit_verdict(&s, &r, NULL, NULL, &w, &err), 0);
    char *text = ls_fit_diagnose(&s, &r, NULL);
    assert_true(w.n >= 1);
    assert_int_equal(w.v[0].code, LS_WARNING_AT_BOUND);
    assert_string_equal(w.v[0].subject, "c");
    assert_int_equal(strncmp(text, w.v[0].message, strlen(w.v[0].message)), 0);
    free(text);
    ls_warnings_free(&w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_determined_fit_says_nothing),
        cmocka_unit_test(c_at_its_bound_and_c_above_the_lowest_loss),
        cmocka_unit_test(unbounded_intervals),
        cmocka_unit_test(holdout_of_a_single_run),
        cmocka_unit_test(usable_refusals),
        cmocka_unit_test(optimum_exponent),
        cmocka_unit_test(residual_trend),
        cmocka_unit_test(noise_from_repeats),
        cmocka_unit_test(verdict_structures_the_diagnosis),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
