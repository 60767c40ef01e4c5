/* Degenerate data with GSL's DEFAULT error handler in place (print and
 * abort): fits, holdout and the guarded building blocks must fail by status
 * and never reach it.  This program never calls gsl_set_error_handler, so a
 * call into the handler kills it and fails the test.
 *
 * The sweep has seven runs and only two token counts (1e10, 4e10): with B,
 * beta and c collinear, J^T J rounds to an indefinite matrix in some starts,
 * where GSL's own Cholesky solver called the handler. */
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <gsl/gsl_blas.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_rng.h>

#include "gslguard_internal.h"
#include "loopscale/fit.h"
#include "loopscale/holdout.h"

static ls_sweep *two_token_sweep(void)
{
    const char *paths[] = {TEST_DATA_DIR "/seven-runs-two-tokens.csv"};
    ls_sweep_options so = {.require_loss = 1};
    ls_error err;
    ls_sweep *s = ls_sweep_read(paths, 1, &so, &err);
    assert_non_null(s);
    return s;
}

static void degenerate_fit_and_holdout_return(void **state)
{
    (void)state;
    ls_sweep *s = two_token_sweep();
    ls_fit_parameters p;
    ls_fit_default_parameters(&p);
    const ls_law_kind dense = {LS_LAW_BASE_DENSE, LS_LAW_MAPPING_NONE};
    for (int threads = 1; threads <= 2; threads++) {
        p.threads = threads;
        ls_fit_result r;
        ls_error err;
        assert_int_equal(ls_fit_run(s, dense, &p, &r, &err), 0);
        /* The fit runs to its end and knows it is not determined. */
        assert_false(ls_fit_determined(&r));
        assert_true(isfinite(r.objective));
    }
    ls_holdout_axis axes[] = {LS_HOLDOUT_AXIS_N, LS_HOLDOUT_AXIS_D};
    ls_holdout_spec spec = {&dense, 1, axes, 2, NULL, 0};
    ls_holdout_result hr;
    ls_error err;
    assert_int_equal(ls_holdout_run(s, &spec, &p, &hr, &err), 0);
    ls_holdout_result_free(&hr);
    ls_sweep_free(s);
}

/* The guarded Cholesky is GSL's, digit for digit, on every size a fit
 * uses; and an indefinite matrix is GSL_EDOM, quietly. */
static void cholesky_matches_gsl_and_fails_quietly(void **state)
{
    (void)state;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    for (size_t n = 1; n <= LS_LAW_NPARAMS; n++) {
        for (int trial = 0; trial < 20; trial++) {
            gsl_matrix *J = gsl_matrix_alloc(n + 3, n), *a = gsl_matrix_alloc(n, n), *b = gsl_matrix_alloc(n, n);
            for (size_t i = 0; i < J->size1; i++)
                for (size_t j = 0; j < n; j++)
                    gsl_matrix_set(J, i, j, (gsl_rng_uniform(rng) - 0.5) * pow(10.0, (double)(j % 5) - 2));
            gsl_matrix_set_zero(a);
            gsl_blas_dsyrk(CblasLower, CblasTrans, 1.0, J, 0.0, a);
            gsl_matrix_memcpy(b, a);
            assert_int_equal(gsl_linalg_cholesky_decomp1(a), GSL_SUCCESS);
            assert_int_equal(ls_cholesky_decomp(b), GSL_SUCCESS);
            for (size_t i = 0; i < n; i++)
                for (size_t j = 0; j < n; j++)
                    assert_true(gsl_matrix_get(a, i, j) == gsl_matrix_get(b, i, j));
            gsl_matrix_free(J);
            gsl_matrix_free(a);
            gsl_matrix_free(b);
        }
    }
    gsl_rng_free(rng);
    /* Rank one (exactly singular) and indefinite: quiet GSL_EDOM. */
    double rank1[] = {1, 2, 2, 4}, indef[] = {1, 3, 3, 1}, nan[] = {NAN, 0, 0, 1};
    gsl_matrix_view m = gsl_matrix_view_array(rank1, 2, 2);
    assert_int_equal(ls_cholesky_decomp(&m.matrix), GSL_EDOM);
    m = gsl_matrix_view_array(indef, 2, 2);
    assert_int_equal(ls_cholesky_decomp(&m.matrix), GSL_EDOM);
    m = gsl_matrix_view_array(nan, 2, 2);
    assert_int_equal(ls_cholesky_decomp(&m.matrix), GSL_EDOM);
}

static double flat(double x, void *params) { (void)x, (void)params; return 1.0; }
/* Finite up to 0.3 (falling towards it) and at 0.6; NaN between. */
static double nan_at_right(double x, void *params)
{
    (void)params;
    if (x == 0.6)
        return 1.0;
    return x > 0.3 ? NAN : (x - 0.35) * (x - 0.35);
}
static double parabola(double x, void *params) { (void)params; return (x - 0.3) * (x - 0.3); }

/* Brent through the guard: no bracket, a non-finite value at the start or
 * during the iteration are statuses; a sound bracket finds the minimum. */
static void brent_fails_quietly(void **state)
{
    (void)state;
    gsl_min_fminimizer *brent = gsl_min_fminimizer_alloc(gsl_min_fminimizer_brent);
    gsl_function f = {flat, NULL};
    ls_min_function g;
    ls_min_function_init(&g, &f);
    assert_int_equal(ls_min_set(brent, &g, 0.5, 0.0, 1.0), GSL_EINVAL);
    assert_int_equal(ls_min_set(brent, &g, 1.5, 0.0, 1.0), GSL_EINVAL);
    f.function = nan_at_right;
    assert_int_equal(ls_min_set(brent, &g, 0.3, 0.0, 1.0), GSL_EBADFUNC);
    /* Bracket [0, 0.6] around 0.2: the trials close in on 0.3 and step
     * past it into the NaN; the iteration then fails and keeps its best. */
    assert_int_equal(ls_min_set(brent, &g, 0.2, 0.0, 0.6), GSL_SUCCESS);
    int failed = 0;
    for (int it = 0; it < 100 && !failed; it++)
        failed = ls_min_iterate(brent, &g) == GSL_EBADFUNC;
    assert_true(failed);
    double x = gsl_min_fminimizer_x_minimum(brent);
    assert_true(x >= 0.2 && x <= 0.3);
    f.function = parabola;
    assert_int_equal(ls_min_set(brent, &g, 0.5, 0.0, 1.0), GSL_SUCCESS);
    for (int it = 0; it < 100; it++) {
        assert_int_equal(ls_min_iterate(brent, &g), GSL_SUCCESS);
        if (gsl_min_test_interval(gsl_min_fminimizer_x_lower(brent), gsl_min_fminimizer_x_upper(brent), 1e-10, 0) ==
            GSL_SUCCESS)
            break;
    }
    assert_true(fabs(gsl_min_fminimizer_x_minimum(brent) - 0.3) < 1e-8);
    gsl_min_fminimizer_free(brent);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(degenerate_fit_and_holdout_return),
        cmocka_unit_test(cholesky_matches_gsl_and_fails_quietly),
        cmocka_unit_test(brent_fails_quietly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
