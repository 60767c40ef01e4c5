/* Synthetic sweeps: without noise every loss is the law's; with noise the
 * log residuals have the requested spread; a seed fixes the file. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>
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

static int to_outfile(void *context, const char *data, size_t len, ls_error *err)
{
    return ls_outfile_write(context, data, len, err);
}

static ls_sweep *simulate_to_sweep(const char *path, double sigma, unsigned long seed)
{
    ls_law l = truth();
    ls_arch_template t;
    ls_arch_template_default(&t);
    ls_simulate_options o = {sigma, seed};
    ls_error err;
    outfile *out = ls_outfile_open(path, ls_outfile_wants_gzip(path), &err);
    assert_non_null(out);
    assert_int_equal(ls_simulate_emit(&l, &t, &GRID, &o, to_outfile, out, &err), 0);
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

typedef struct collected {
    char *text;
    size_t len, calls, largest, fail_at; /* fail_at: the call that fails (0: none) */
} collected;

static int collect(void *context, const char *data, size_t len, ls_error *err)
{
    collected *c = context;
    c->calls++;
    if (c->calls == c->fail_at)
        return ls_error_set(err, LS_ERR_IO, "the sink is full");
    c->text = realloc(c->text, c->len + len + 1);
    assert_non_null(c->text);
    memcpy(c->text + c->len, data, len);
    c->len += len;
    c->text[c->len] = '\0';
    c->largest = len > c->largest ? len : c->largest;
    return 0;
}

/* The CSV goes out in pieces of about 64 kB that add up to the whole
 * sweep, one line per run; a sink's failure stops the writing with its
 * error; a run the law cannot give a loss reaches no sink at all. */
static void the_sweep_reaches_the_sink_in_pieces_and_whole(void **state)
{
    (void)state;
    ls_law l = truth();
    ls_arch_template t;
    ls_arch_template_default(&t);
    ls_simulate_options o = {0.013, 5};
    static double n[300], d[70];
    for (size_t i = 0; i < 300; i++)
        n[i] = 1.7e8 + 1.3e6 * (double)i; /* whole parameters, as a sweep has */
    for (size_t i = 0; i < 70; i++)
        d[i] = 2.3e10 + 1.1e9 * (double)i;
    const ls_simulate_grid g = {n, 300, d, 70, E, 1, R, 2};
    ls_error err;
    collected c = {0};
    if (ls_simulate_emit(&l, &t, &g, &o, collect, &c, &err) != 0)
        fail_msg("%s", err.message);
    size_t lines = 0;
    for (size_t i = 0; i < c.len; i++)
        lines += c.text[i] == '\n';
    assert_int_equal(lines, 1 + 300 * 70 * 2);
    const char *header = "n_act,n_total,n_loop,R,E,k,tokens,flops,loss\n";
    assert_true(strncmp(c.text, header, strlen(header)) == 0);
    assert_true(c.calls >= c.len / (65536 + 200));
    assert_true(c.calls > 1 && c.largest < 65536 + 200);
    free(c.text);
    collected f = {.fail_at = 2};
    assert_int_equal(ls_simulate_emit(&l, &t, &g, &o, collect, &f, &err), LS_ERR_IO);
    assert_string_equal(err.message, "the sink is full");
    assert_int_equal(f.calls, 2);
    free(f.text);
    ls_law huge = l;
    /* terms that add past a double (tests/cli/errors-numbers.t's inf.json) */
    huge.p[LS_LAW_P_A] = huge.p[LS_LAW_P_B] = 1e308;
    huge.p[LS_LAW_P_C] = 1.79e308;
    huge.p[LS_LAW_P_ALPHA] = huge.p[LS_LAW_P_BETA] = 0.01;
    collected none = {0};
    assert_int_equal(ls_simulate_emit(&huge, &t, &g, &o, collect, &none, &err), LS_ERR_DATA);
    assert_int_equal(none.calls, 0);
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
        cmocka_unit_test(the_sweep_reaches_the_sink_in_pieces_and_whole),
        cmocka_unit_test(bad_grids_are_usage_errors),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
