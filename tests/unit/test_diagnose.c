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

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_determined_fit_says_nothing),
        cmocka_unit_test(c_at_its_bound_and_c_above_the_lowest_loss),
        cmocka_unit_test(unbounded_intervals),
        cmocka_unit_test(holdout_of_a_single_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
