/* The library's GSL error policy (docs/library.md): it never changes GSL's
 * process-global error handler, and its fits, holdout and solver do not
 * reach it.  A counting handler is installed (GSL's default would abort);
 * after each piece of work it must still be in place and never have been
 * called, on one thread and on several. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include <gsl/gsl_errno.h>

#include "loopscale/fit.h"
#include "loopscale/holdout.h"
#include "loopscale/lawfile.h"
#include "loopscale/solve.h"

static int handler_calls;

static void counting_handler(const char *reason, const char *file, int line, int gsl_errno)
{
    (void)reason, (void)file, (void)line, (void)gsl_errno;
    handler_calls++;
}

/* The handler in force is still ours (putting it back to ask). */
static int handler_is_ours(void)
{
    return gsl_set_error_handler(&counting_handler) == &counting_handler;
}

static void fits_holdout_and_solve_leave_the_handler_alone(void **state)
{
    (void)state;
    gsl_set_error_handler(&counting_handler);
    handler_calls = 0;
    const char *paths[] = {PROJECT_DATA_DIR "/sweeps/looped-moe.csv.gz"};
    ls_sweep_options so = {.require_loss = 1};
    ls_error err;
    ls_sweep *s = ls_sweep_read(paths, 1, &so, &err);
    assert_non_null(s);
    ls_fit_parameters p;
    ls_fit_default_parameters(&p);
    const ls_law_kind kinds[] = {{LS_LAW_BASE_MOE, LS_LAW_MAPPING_BOUNDED_SPARSE}, {LS_LAW_BASE_DENSE, LS_LAW_MAPPING_LINEAR}};
    for (int threads = 1; threads <= 4; threads += 3) {
        p.threads = threads;
        for (size_t k = 0; k < 2; k++) {
            ls_fit_result r;
            assert_int_equal(ls_fit_run(s, kinds[k], &p, &r, &err), 0);
            assert_true(handler_is_ours());
            if (k == 0) {
                ls_fit_bootstrap b;
                assert_int_equal(ls_fit_run_bootstrap(s, &r, &p, 8, 2, 0, 0.95, &b, &err), 0);
                assert_true(handler_is_ours());
                ls_fit_bootstrap_free(&b);
            }
        }
    }
    ls_holdout_axis axes[] = {LS_HOLDOUT_AXIS_R};
    ls_holdout_spec spec = {kinds + 1, 1, axes, 1, NULL, 0};
    ls_holdout_result hr;
    assert_int_equal(ls_holdout_run(s, &spec, &p, &hr, &err), 0);
    assert_true(handler_is_ours());
    ls_holdout_result_free(&hr);

    ls_lawfile *lf = ls_lawfile_default(&err);
    assert_non_null(lf);
    ls_arch_template t;
    ls_arch_template_default(&t);
    double R[] = {1, 2, 4, 8, 16}, E[] = {1, 4, 16, 64};
    ls_solve_options o = {R, 5, E, 4, NULL, 0, 0.004, NULL, NULL};
    ls_solve_budget b = {.flops = 1e23, .mem_bytes = 3e9, .bits = 4};
    ls_solve_result sr;
    assert_int_equal(ls_solve_run(&lf->law, &t, &b, &o, &sr, &err), 0);
    ls_solve_result_free(&sr);
    ls_law *draws = malloc(lf->ndraws * sizeof *draws);
    assert_non_null(draws);
    for (size_t i = 0; i < lf->ndraws; i++)
        ls_lawfile_draw(lf, i, &draws[i]);
    ls_solve_uncertainty u;
    assert_int_equal(ls_solve_run_uncertainty(draws, lf->ndraws, &t, &b, &o, 0.95, 4, &u, &err), 0);
    assert_true(handler_is_ours());
    ls_solve_uncertainty_free(&u);
    free(draws);
    ls_lawfile_free(lf);
    ls_sweep_free(s);
    assert_int_equal(handler_calls, 0);
    gsl_set_error_handler(NULL);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(fits_holdout_and_solve_leave_the_handler_alone),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
