/* Synthetic sweeps: without noise every loss is the law's; with noise the
 * log residuals have the requested spread; a seed fixes the file. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <unistd.h>

#include "outfile_internal.h"
#include "loopscale/lawfile.h"
#include "simulate_internal.h"
#include "loopscale/sweep.h"

static ls_law truth(void)
{
    ls_error err;
    ls_lawfile *lf = ls_lawfile_read(PROJECT_DATA_DIR "/truth/moe-bounded-sparse.json", &err);
    assert_non_null(lf);
    ls_law l = lf->law;
    ls_lawfile_free(lf);
    return l;
}

static const double N[] = {3e8, 6e8, 1e9}, D[] = {1e11, 3e11}, E[] = {1, 4, 16}, R[] = {1, 2, 16};
static const ls_simulate_grid GRID = {N, 3, D, 2, E, 3, R, 3};

static ls_sweep *simulate_to_sweep(const char *path, double sigma, unsigned long seed)
{
    ls_law l = truth();
    ls_arch_template t;
    ls_arch_template_default(&t);
    ls_simulate_options o = {sigma, seed};
    ls_error err;
    outfile *out = ls_outfile_open(path, ls_outfile_wants_gzip(path), &err);
    assert_non_null(out);
    assert_int_equal(ls_simulate_write(&l, &t, &GRID, &o, out, &err), 0);
    assert_int_equal(ls_outfile_commit(out, &err), 0);
    const char *paths[] = {path};
    ls_sweep *s = ls_sweep_read(paths, 1, NULL, &err);
    assert_non_null(s);
    return s;
}

static void without_noise_every_loss_is_the_laws(void **state)
{
    (void)state;
    ls_sweep *s = simulate_to_sweep("/tmp/loopscale-test-sim.csv.gz", 0, 1);
    ls_law l = truth();
    assert_int_equal(s->n, 3 * 2 * 3 * 3);
    for (size_t i = 0; i < s->n; i++) {
        const ls_sweep_row *r = &s->rows[i];
        ls_law_point x = {r->n_act, r->n_total, r->n_loop, r->R, r->E, r->tokens, 0};
        assert_true(r->loss == ls_law_loss(&l, &x));
        assert_true(r->n_loop == 0.75 * r->n_act);
        assert_true(fabs(r->n_total - r->n_act * (1 + (2.0 / 3.0) * (r->E - 1))) <= 0.5);
    }
    ls_sweep_free(s);
    unlink("/tmp/loopscale-test-sim.csv.gz");
}

static void noise_has_the_requested_spread_and_the_seed_fixes_it(void **state)
{
    (void)state;
    ls_sweep *a = simulate_to_sweep("/tmp/loopscale-test-sim-a.csv", 0.01, 7);
    ls_sweep *b = simulate_to_sweep("/tmp/loopscale-test-sim-b.csv", 0.01, 7);
    ls_sweep *c = simulate_to_sweep("/tmp/loopscale-test-sim-c.csv", 0.01, 8);
    ls_law l = truth();
    double sum_sq = 0;
    int differs = 0;
    for (size_t i = 0; i < a->n; i++) {
        const ls_sweep_row *r = &a->rows[i];
        ls_law_point x = {r->n_act, r->n_total, r->n_loop, r->R, r->E, r->tokens, 0};
        double z = log(r->loss / ls_law_loss(&l, &x));
        sum_sq += z * z;
        assert_true(r->loss == b->rows[i].loss);
        differs |= r->loss != c->rows[i].loss;
    }
    double sd = sqrt(sum_sq / (double)a->n);
    assert_true(sd > 0.007 && sd < 0.013); /* 54 draws of sigma 0.01 */
    assert_true(differs);
    ls_sweep_free(a);
    ls_sweep_free(b);
    ls_sweep_free(c);
    unlink("/tmp/loopscale-test-sim-a.csv");
    unlink("/tmp/loopscale-test-sim-b.csv");
    unlink("/tmp/loopscale-test-sim-c.csv");
}

static void bad_grids_are_usage_errors(void **state)
{
    (void)state;
    ls_arch_template t;
    ls_arch_template_default(&t);
    ls_error err;
    const double bad_R[] = {1, 2.5};
    ls_simulate_grid g = GRID;
    g.R = bad_R;
    g.n_R = 2;
    assert_int_equal(ls_simulate_check(&t, &g, &err), LS_ERR_USAGE);
    assert_string_equal(err.message, "R: 2.5 is not an integer");
    g = GRID;
    g.n_tokens = 0;
    assert_int_equal(ls_simulate_check(&t, &g, &err), LS_ERR_USAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(without_noise_every_loss_is_the_laws),
        cmocka_unit_test(noise_has_the_requested_spread_and_the_seed_fixes_it),
        cmocka_unit_test(bad_grids_are_usage_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
