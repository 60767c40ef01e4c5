/* The flat entry points for other languages: each returns what the direct
 * library calls give (the same fit, the same holdout and solve documents),
 * checks its arguments, and frees everything (ASan and valgrind run this;
 * the Python tests compare the same entry points with the program). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "loopscale/bindings.h"
#include "loopscale/fit.h"
#include "loopscale/holdout.h"
#include "loopscale/lawfile.h"
#include "loopscale/solve.h"
#include "checks.h"

static const char *const DENSE[] = {PROJECT_DATA_DIR "/sweeps/looped-dense.csv.gz"};
static const char *const WHERE[] = {"R<=8"};

static ls_bind_fit_options default_options(void)
{
    ls_bind_fit_options o = {0};
    o.huber_delta = NAN;
    o.level = NAN;
    o.seed = 1;
    return o;
}

static void fit_gives_the_law_file_of_the_direct_fit(void **state)
{
    (void)state;
    ls_bind_sweep sw = {DENSE, 1, NULL, 0, WHERE, 1};
    ls_bind_fit_options o = default_options();
    o.bootstrap = LS_FIT_MIN_INTERVAL_DRAWS;
    ls_error err;
    char *text = ls_bind_fit("dense:bounded", &sw, &o, "test", &err);
    assert_non_null(text);
    ls_lawfile *lf = ls_lawfile_parse(text, strlen(text), "bound", &err);
    assert_non_null(lf);

    ls_sweep_options so = {.wheres = WHERE, .nwheres = 1, .require_loss = 1};
    ls_sweep *s = ls_sweep_read(DENSE, 1, &so, &err);
    assert_non_null(s);
    ls_fit_parameters p;
    ls_fit_default_parameters(&p);
    ls_fit_result r;
    assert_int_equal(ls_fit_run(s, (ls_law_kind){LS_LAW_BASE_DENSE, LS_LAW_MAPPING_BOUNDED}, &p, &r, &err), 0);
    for (int j = 0; j < LS_LAW_NPARAMS; j++)
        if (ls_law_uses_param(r.law.kind, (ls_law_param)j))
            assert_true(lf->law.p[j] == r.law.p[j]); /* bit for bit */
    assert_int_equal(lf->fit.n, r.n);
    assert_int_equal(lf->fit.n, 120);
    assert_int_equal(lf->ndraws, LS_FIT_MIN_INTERVAL_DRAWS);
    assert_true(lf->has_ci);
    assert_string_equal(lf->fit.filters[0], "--where R<=8");
    assert_string_equal(lf->command, "test");
    ls_sweep_free(s);
    ls_lawfile_free(lf);
    ls_bind_free(text);
}

static void holdout_and_solve_give_the_library_documents(void **state)
{
    (void)state;
    ls_bind_sweep sw = {DENSE, 1, NULL, 0, NULL, 0};
    ls_bind_fit_options o = default_options();
    const char *laws[] = {"dense:linear", "dense:bounded"};
    ls_error err;
    char *text = ls_bind_holdout(laws, 2, "r", NULL, 0, &sw, &o, &err);
    assert_non_null(text);

    ls_sweep_options so = {.require_loss = 1};
    ls_sweep *s = ls_sweep_read(DENSE, 1, &so, &err);
    ls_law_kind kinds[] = {{LS_LAW_BASE_DENSE, LS_LAW_MAPPING_LINEAR}, {LS_LAW_BASE_DENSE, LS_LAW_MAPPING_BOUNDED}};
    ls_holdout_axis axes[] = {LS_HOLDOUT_AXIS_R};
    ls_holdout_spec spec = {kinds, 2, axes, 1, NULL, 0};
    ls_fit_parameters p;
    ls_fit_default_parameters(&p);
    ls_holdout_result hr;
    assert_int_equal(ls_holdout_run(s, &spec, &p, &hr, &err), 0);
    char *direct = ls_holdout_result_to_json(&hr, &err);
    assert_string_equal(text, direct);
    free(direct);
    ls_holdout_result_free(&hr);
    ls_sweep_free(s);
    ls_bind_free(text);

    double E[] = {1, 4, 16};
    text = ls_bind_solve(NULL, 1e22, 3e9, 4, NULL, 0, E, 3, NULL, 0, NAN, 0, 0.95, 1, 0, &err);
    assert_non_null(text);
    ls_lawfile *lf = ls_lawfile_default(&err);
    ls_arch_template t;
    ls_arch_template_default(&t);
    double R[16];
    for (int i = 0; i < 16; i++)
        R[i] = i + 1;
    ls_law_ranges ranges;
    ls_lawfile_ranges(lf, &ranges);
    ls_solve_options sop = {R, 16, E, 3, NULL, 0, lf->fit.rmse, &ranges};
    ls_solve_budget b = {1e22, 3e9, 4};
    ls_solve_result sr;
    assert_int_equal(ls_solve_run(&lf->law, &t, &b, &sop, &sr, &err), 0);
    direct = ls_solve_result_to_json(&b, lf->fit.rmse, &sr, NULL, 0, &err);
    assert_string_equal(text, direct);
    free(direct);
    ls_solve_result_free(&sr);
    ls_lawfile_free(lf);
    ls_bind_free(text);
}

static void predict_is_the_law_and_checks_each_configuration(void **state)
{
    (void)state;
    ls_error err;
    char *text = ls_bind_default_law(&err);
    assert_non_null(text);
    ls_lawfile *lf = ls_lawfile_parse(text, strlen(text), "default", &err);
    double n_act[] = {5.455e8, 2.385e9}, n_total[] = {6e9, 2.385e9}, n_loop[] = {4.091e8, 1.2e9};
    double R[] = {2, 3}, E[] = {16, 1}, tokens[] = {1.746e12, 3.3e11}, loss[2];
    assert_int_equal(ls_bind_predict(text, 2, n_act, n_total, n_loop, R, E, NULL, tokens, loss, &err), 0);
    for (int i = 0; i < 2; i++) {
        ls_law_point x = {n_act[i], n_total[i], n_loop[i], R[i], E[i], tokens[i], 0};
        close_to(loss[i], ls_law_loss(&lf->law, &x));
    }
    assert_int_equal(ls_bind_predict(text, 2, n_act, NULL, NULL, R, NULL, NULL, tokens, loss, &err), LS_ERR_DATA);
    assert_string_equal(err.message, "configuration 0: n_loop is needed when R > 1");
    double bad_tokens[] = {1e10, -1};
    assert_int_equal(ls_bind_predict(text, 2, n_act, NULL, NULL, NULL, NULL, NULL, bad_tokens, loss, &err),
                     LS_ERR_DATA);
    assert_string_equal(err.message, "configuration 1: tokens must be positive");
    ls_lawfile_free(lf);
    ls_bind_free(text);
}

static void bad_arguments_are_usage_errors(void **state)
{
    (void)state;
    ls_bind_sweep sw = {DENSE, 1, NULL, 0, NULL, 0};
    ls_bind_fit_options o = default_options();
    ls_error err;
    o.loss = "l1";
    assert_null(ls_bind_fit("dense", &sw, &o, NULL, &err));
    assert_int_equal(err.code, LS_ERR_USAGE);
    assert_string_equal(err.message, "loss 'l1' is not huber or mse");
    o = default_options();
    o.group = "seed";
    assert_null(ls_bind_fit("dense", &sw, &o, NULL, &err));
    assert_string_equal(err.message, "resampling groups of 'seed' needs bootstrap draws");
    double fixed[LS_LAW_NPARAMS];
    for (int j = 0; j < LS_LAW_NPARAMS; j++)
        fixed[j] = NAN;
    fixed[LS_LAW_P_THETA] = 0.5;
    o = default_options();
    o.fixed = fixed;
    assert_null(ls_bind_fit("dense:bounded", &sw, &o, NULL, &err));
    assert_string_equal(err.message, "cannot fix theta: it is not a parameter of dense:bounded");
    const char *laws[] = {"dense"};
    assert_null(ls_bind_holdout(laws, 1, "R,Q", NULL, 0, &sw, &o, &err));
    assert_string_equal(err.message, "axes 'R,Q': 'Q' is not R, N, D or E");
    assert_null(ls_bind_holdout(laws, 1, "R,r", NULL, 0, &sw, &o, &err));
    assert_string_equal(err.message, "axes 'R,r': 'r' is not R, N, D or E (or is repeated)");
    double R[] = {1.5};
    assert_null(ls_bind_solve(NULL, 1e21, INFINITY, 16, R, 1, NULL, 0, NULL, 0, NAN, 0, 0.95, 1, 0, &err));
    assert_string_equal(err.message, "R 1.5 is not a whole number of loops");
    assert_null(ls_bind_solve("{", 1e21, INFINITY, 16, NULL, 0, NULL, 0, NULL, 0, NAN, 0, 0.95, 1, 0, &err));
    assert_int_equal(err.code, LS_ERR_DATA);
}

/* A fit that is not a fit is no law: LS_ERR_NOCONV with the program's
 * reason; ls_bind_fit2 gives the program's held-parameter warnings. */
static void undetermined_fit_is_no_law_and_warnings_are_given(void **state)
{
    (void)state;
    static const char *const SEVEN[] = {TEST_DATA_DIR "/seven-runs-two-tokens.csv"};
    ls_bind_sweep sw = {SEVEN, 1, NULL, 0, NULL, 0};
    ls_bind_fit_options o = default_options();
    ls_error err;
    char *notes = (char *)1;
    assert_null(ls_bind_fit2("dense", &sw, &o, NULL, &notes, &err));
    assert_int_equal(err.code, LS_ERR_NOCONV);
    assert_non_null(strstr(err.message, "cannot tell the parameters apart (the runs have only two values of tokens, "
                                        "1e+10 and 4e+10)"));
    assert_null(notes);
    ls_bind_sweep dense = {DENSE, 1, NULL, 0, NULL, 0};
    char *text = ls_bind_fit2("moe:bounded-sparse", &dense, &o, NULL, &notes, &err);
    assert_non_null(text);
    assert_non_null(notes);
    assert_string_equal(notes, "delta, gamma, omega, zeta, E_max are held at 0, 0, 0, 0, 1000000: no run has E > 1\n"
                               "theta is held at 0: no looped run (R > 1) has m < 1\n");
    ls_bind_free(notes);
    ls_bind_free(text);
}

/* NULL where an array or an entry should be, and numbers out of range:
 * LS_ERR_USAGE with a message naming them, never a crash. */
static void null_entries_and_ranges_are_usage_errors(void **state)
{
    (void)state;
    ls_bind_fit_options o = default_options();
    ls_error err;
    const char *with_null[] = {DENSE[0], NULL};
    ls_bind_sweep sw = {with_null, 2, NULL, 0, NULL, 0};
    assert_null(ls_bind_fit("dense", &sw, &o, NULL, &err));
    assert_int_equal(err.code, LS_ERR_USAGE);
    assert_string_equal(err.message, "paths[1] is NULL");
    ls_bind_sweep no_paths = {NULL, 1, NULL, 0, NULL, 0};
    assert_null(ls_bind_fit("dense", &no_paths, &o, NULL, &err));
    assert_string_equal(err.message, "paths is NULL but its count is 1");
    const char *maps[] = {NULL};
    ls_bind_sweep bad_map = {DENSE, 1, maps, 1, NULL, 0};
    assert_null(ls_bind_fit("dense", &bad_map, &o, NULL, &err));
    assert_string_equal(err.message, "maps[0] is NULL");
    ls_bind_sweep bad_where = {DENSE, 1, NULL, 0, maps, 1};
    assert_null(ls_bind_fit("dense", &bad_where, &o, NULL, &err));
    assert_string_equal(err.message, "wheres[0] is NULL");
    ls_bind_sweep good = {DENSE, 1, NULL, 0, NULL, 0};
    assert_null(ls_bind_holdout(NULL, 2, "R", NULL, 0, &good, &o, &err));
    assert_string_equal(err.message, "laws is NULL but its count is 2");
    const char *laws[] = {"dense", NULL};
    assert_null(ls_bind_holdout(laws, 2, "R", NULL, 0, &good, &o, &err));
    assert_string_equal(err.message, "laws[1] is NULL");
    assert_null(ls_bind_holdout(laws, 1, "R", NULL, 3, &good, &o, &err));
    assert_string_equal(err.message, "split is NULL but its count is 3");
    assert_null(ls_bind_solve(NULL, 1e21, INFINITY, 16, NULL, 0, NULL, 0, NULL, 4, NAN, 0, 0.95, 1, 0, &err));
    assert_string_equal(err.message, "n_act is NULL but its count is 4");
    o.bootstrap = SIZE_MAX;
    assert_null(ls_bind_fit("dense", &good, &o, NULL, &err));
    assert_int_equal(err.code, LS_ERR_USAGE);
    assert_string_equal(err.message, "bootstrap 18446744073709551615 is outside [0, 10000000]");
    o.bootstrap = 2; /* two draws give a zero-width "interval" */
    assert_null(ls_bind_fit("dense", &good, &o, NULL, &err));
    assert_int_equal(err.code, LS_ERR_USAGE);
    assert_string_equal(err.message, "bootstrap 2 is too few draws for an interval: at least 20 (or 0 for none)");
    o = default_options();
    double fixed[LS_LAW_NPARAMS];
    for (int j = 0; j < LS_LAW_NPARAMS; j++)
        fixed[j] = NAN;
    fixed[LS_LAW_P_ALPHA] = INFINITY;
    o.fixed = fixed;
    assert_null(ls_bind_fit("dense", &good, &o, NULL, &err));
    assert_string_equal(err.message, "cannot fix alpha: parameter alpha must be a finite number");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fit_gives_the_law_file_of_the_direct_fit),
        cmocka_unit_test(holdout_and_solve_give_the_library_documents),
        cmocka_unit_test(predict_is_the_law_and_checks_each_configuration),
        cmocka_unit_test(bad_arguments_are_usage_errors),
        cmocka_unit_test(undetermined_fit_is_no_law_and_warnings_are_given),
        cmocka_unit_test(null_entries_and_ranges_are_usage_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
