/* Early exit on constructed inputs whose answers are known: confident at
 * loop 1 saves exactly the remaining loops' share, a three-token sweep worked
 * by hand with its Pareto front and interpolation, the default grid's exact
 * thresholds; the readers agree and refuse bad input by file and position. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "loopscale/earlyexit.h"
#include "checks.h"
#include "tmpfile.h"

static ls_earlyexit_report *sweep(const double *h, const double *nll, size_t n, size_t L, const double *grid,
                               size_t ngrid, ls_earlyexit_costs costs, const double *targets, size_t ntargets)
{
    ls_error err;
    ls_earlyexit *x = ls_earlyexit_new(L, grid, ngrid, &err);
    assert_non_null(x);
    for (size_t t = 0; t < n; t++)
        ls_earlyexit_add(x, h + t * L, nll + t * L);
    ls_earlyexit_report *r = ls_earlyexit_report_new(x, &costs, targets, ntargets, &err);
    ls_earlyexit_free(x);
    if (!r)
        fail_msg("%s", err.message);
    return r;
}

static void confident_at_loop_1_saves_the_remaining_loops(void **state)
{
    (void)state;
    /* Every token has entropy 0.1 at boundary 1 and 5 after: above 0.1 all
     * exit at loop 1, saving 3 of 4 loops: 3/4 with loops alone, 3 / (2 + 4
     * + 1) with a prelude of 2 and a coda of 1. */
    enum { N = 6, L = 4 };
    double h[N * L], nll[N * L];
    for (size_t t = 0; t < N; t++)
        for (size_t r = 0; r < L; r++) {
            h[t * L + r] = r == 0 ? 0.1 : 5;
            nll[t * L + r] = 3.0 - 0.25 * (double)r + 0.01 * (double)t;
        }
    double grid[] = {0.05, 0.1, 0.11, 6};
    ls_earlyexit_report *r = sweep(h, nll, N, L, grid, 4, (ls_earlyexit_costs){0, 1, 0}, NULL, 0);
    assert_int_equal(r->npoints, 5); /* threshold 0, then the grid */
    close_to(r->points[0].threshold, 0);
    close_to(r->points[1].saved, 0);
    close_to(r->points[2].saved, 0); /* 0.1 < 0.1 is false */
    close_to(r->points[3].saved, 0.75);
    close_to(r->points[4].saved, 0.75);
    close_to(r->points[3].mean_loops, 1);
    close_to(r->points[0].mean_nll, 2.25 + 0.025); /* NLL after 4 loops, mean over t */
    close_to(r->points[3].mean_nll, 3.0 + 0.025);
    close_to(r->full_nll, 2.25 + 0.025);
    close_to(r->loop1_nll, 3.0 + 0.025);
    close_to(r->loop1_saved, 0.75);
    ls_earlyexit_report_free(r);
    r = sweep(h, nll, N, L, grid, 4, (ls_earlyexit_costs){2, 1, 1}, NULL, 0);
    close_to(r->full_cost, 7);
    close_to(r->points[3].saved, 3.0 / 7.0);
    close_to(r->loop1_saved, 3.0 / 7.0);
    ls_earlyexit_report_free(r);
}

/*   token 0  H (2, 1, 0.5)    NLL (3, 2, 1)     records 1, 2, 3
 *   token 1  H (0.25, 3, 0.125) NLL (1.5, 4, 0.5) records 1, 3
 *   token 2  H (4, 4, 4)      NLL (2, 2, 2)     records 1
 * threshold  exits        loops  mean NLL  saved (loops only)
 *   0.2      3, 3, 3      9      3.5/3     0
 *   0.3      3, 1, 3      7      4.5/3     2/9
 *   1.5      2, 1, 3      6      5.5/3     1/3
 *   3        1, 1, 3      5      6.5/3     4/9   (dominated by 5: same NLL)
 *   5        1, 1, 1      3      6.5/3     2/3 */
static const double H3[] = {2, 1, 0.5, 0.25, 3, 0.125, 4, 4, 4};
static const double NLL3[] = {3, 2, 1, 1.5, 4, 0.5, 2, 2, 2};

static void three_tokens_worked_by_hand(void **state)
{
    (void)state;
    const double grid[] = {0.2, 0.3, 1.5, 3, 5};
    const double targets[] = {0.05, 0.3, 0.5, 0.7, 2.0 / 3.0};
    ls_earlyexit_report *r = sweep(H3, NLL3, 3, 3, grid, 5, (ls_earlyexit_costs){0, 1, 0}, targets, 5);
    const double saved[] = {0, 2.0 / 9, 1.0 / 3, 4.0 / 9, 2.0 / 3};
    const double loops[] = {3, 7.0 / 3, 2, 5.0 / 3, 1};
    const double nll[] = {3.5 / 3, 1.5, 5.5 / 3, 6.5 / 3, 6.5 / 3};
    const int pareto[] = {1, 1, 1, 0, 1};
    assert_int_equal(r->npoints, 6);
    close_to(r->points[0].threshold, 0); /* the same state as 0.2 */
    assert_int_equal(r->points[0].pareto, 1);
    for (int i = 0; i < 5; i++) {
        const ls_earlyexit_point *p = &r->points[i + 1];
        close_to(p->threshold, grid[i]);
        close_to(p->saved, saved[i]);
        close_to(p->mean_loops, loops[i]);
        close_to(p->mean_nll, nll[i]);
        assert_int_equal(p->pareto, pareto[i]);
    }
    /* 5%: between the first two front points, w = 0.05 / (2/9) = 0.225;
     * 30%: w = (0.3 - 2/9) / (1/9) = 0.7; 50%: across the dominated point,
     * halfway from 1/3 to 2/3; 70%: out of reach; 2/3: the last point. */
    close_to(r->targets[0].perplexity, exp(3.5 / 3 + 0.225 * (1.5 - 3.5 / 3)));
    close_to(r->targets[1].perplexity, exp(1.5 + 0.7 * (5.5 / 3 - 1.5)));
    close_to(r->targets[2].perplexity, exp(0.5 * (5.5 / 3 + 6.5 / 3)));
    assert_true(isnan(r->targets[3].perplexity));
    close_to(r->targets[4].perplexity, exp(6.5 / 3));
    ls_earlyexit_report_free(r);
}

static void default_grid_reports_exact_float_thresholds(void **state)
{
    (void)state;
    /* The same tokens on the default grid: a point at 0 (nobody exits) and
     * one just above each entropy that moves an exit (0.25, 1, 2, 4), at the
     * next threshold of the grid, x (1 + 2^-10) for these powers of two. */
    ls_earlyexit_report *r = sweep(H3, NLL3, 3, 3, NULL, 0, (ls_earlyexit_costs){0, 1, 0}, NULL, 0);
    assert_int_equal(r->npoints, 5);
    const double thresholds[] = {0, 0.25 * (1 + 0x1p-10), 1 + 0x1p-10, 2 * (1 + 0x1p-10), 4 * (1 + 0x1p-10)};
    const double saved[] = {0, 2.0 / 9, 1.0 / 3, 4.0 / 9, 2.0 / 3};
    for (int i = 0; i < 5; i++) {
        assert_true(r->points[i].threshold == thresholds[i]);
        close_to(r->points[i].saved, saved[i]);
    }
    ls_earlyexit_report_free(r);
    /* An entropy just below a grid threshold still counts at it. */
    const double h[] = {nextafter(1.0, 0), 9}, nll[] = {1, 2};
    r = sweep(h, nll, 1, 2, NULL, 0, (ls_earlyexit_costs){0, 1, 0}, NULL, 0);
    assert_int_equal(r->npoints, 2);
    assert_true(r->points[1].threshold == 1.0);
    close_to(r->points[1].saved, 0.5);
    ls_earlyexit_report_free(r);
}

static void exit_that_helps_perplexity_dominates_full_depth(void **state)
{
    (void)state;
    /* Exiting at loop 1 saves half and has the lower NLL: the full-depth point
     * is off the front, and any saving up to half gets the loop-1 perplexity. */
    const double h[] = {0.1, 1}, nll[] = {1, 2}, targets[] = {0.05};
    ls_earlyexit_report *r = sweep(h, nll, 1, 2, NULL, 0, (ls_earlyexit_costs){0, 1, 0}, targets, 1);
    assert_int_equal(r->points[0].pareto, 0);
    assert_int_equal(r->points[1].pareto, 1);
    close_to(r->targets[0].perplexity, exp(1));
    ls_earlyexit_report_free(r);
    /* One loop: nothing to save. */
    const double one_h[] = {0.5}, one_nll[] = {2};
    r = sweep(one_h, one_nll, 1, 1, NULL, 0, (ls_earlyexit_costs){1, 1, 1}, targets, 1);
    assert_int_equal(r->npoints, 1);
    assert_true(isnan(r->targets[0].perplexity));
    ls_earlyexit_report_free(r);
}

static void bad_costs_and_thresholds_are_refused(void **state)
{
    (void)state;
    ls_error err;
    const double grid[] = {0.5, 0.25};
    assert_null(ls_earlyexit_new(3, grid, 2, &err));
    assert_int_equal(err.code, LS_ERR_USAGE);
    ls_earlyexit *x = ls_earlyexit_new(3, NULL, 0, &err);
    ls_earlyexit_add(x, H3, NLL3);
    assert_null(ls_earlyexit_report_new(x, &(ls_earlyexit_costs){0, 0, 1}, NULL, 0, &err));
    assert_string_equal(err.message, "costs: prelude and coda must be >= 0 and the loop > 0");
    ls_earlyexit_free(x);
}

/* ---- files ---------------------------------------------------------------- */

/* Field by field: the points' padding bytes are not part of the answer. */
static void assert_same_points(const ls_earlyexit_report *got, const ls_earlyexit_report *want)
{
    assert_int_equal(got->npoints, want->npoints);
    for (size_t i = 0; i < want->npoints; i++) {
        const ls_earlyexit_point *a = &got->points[i], *b = &want->points[i];
        assert_true(a->threshold == b->threshold && a->saved == b->saved && a->mean_loops == b->mean_loops &&
                    a->mean_nll == b->mean_nll && a->pareto == b->pareto);
    }
}

static const char *write_npy2(size_t n, size_t L, const float *data)
{
    char dict[118];
    int len = snprintf(dict, sizeof dict, "{'descr': '<f4', 'fortran_order': False, 'shape': (%zu, %zu), }", n, L);
    unsigned char *buf = calloc(1, 128 + n * L * 4);
    memcpy(buf, "\x93NUMPY\x01\x00\x76\x00", 10);
    memcpy(buf + 10, dict, (size_t)len);
    memset(buf + 10 + len, ' ', 117 - (size_t)len);
    buf[127] = '\n';
    memcpy(buf + 128, data, n * L * 4);
    const char *path = write_temp(buf, 128 + n * L * 4, 0);
    free(buf);
    return path;
}

static void files_agree_with_the_accumulator(void **state)
{
    (void)state;
    ls_earlyexit_report *want = sweep(H3, NLL3, 3, 3, NULL, 0, (ls_earlyexit_costs){1, 2, 1}, NULL, 0);
    ls_error err;
    const char *csv = write_temp_text("token,loop,entropy,nll\n"
                                      "0,3,0.5,1\n0,1,2,3\n0,2,1,2\n"
                                      "1,1,0.25,1.5\n1,2,3,4\n1,3,0.125,0.5\n"
                                      "2,1,4,2\n2,2,4,2\n2,3,4,2\n",
                                      1);
    char paths[2][64];
    snprintf(paths[0], sizeof paths[0], "%s", csv);
    const char *one[] = {paths[0]};
    ls_earlyexit *x = ls_earlyexit_read(one, 1, NULL, 0, &err);
    unlink(paths[0]);
    assert_non_null(x);
    ls_earlyexit_report *got = ls_earlyexit_report_new(x, &(ls_earlyexit_costs){1, 2, 1}, NULL, 0, &err);
    ls_earlyexit_free(x);
    assert_same_points(got, want);
    ls_earlyexit_report_free(got);

    float hf[9], nf[9];
    for (int i = 0; i < 9; i++) {
        hf[i] = (float)H3[i];
        nf[i] = (float)NLL3[i];
    }
    snprintf(paths[0], sizeof paths[0], "%s", write_npy2(3, 3, hf));
    snprintf(paths[1], sizeof paths[1], "%s", write_npy2(3, 3, nf));
    const char *two[] = {paths[0], paths[1]};
    x = ls_earlyexit_read(two, 2, NULL, 0, &err);
    assert_non_null(x);
    got = ls_earlyexit_report_new(x, &(ls_earlyexit_costs){1, 2, 1}, NULL, 0, &err);
    ls_earlyexit_free(x);
    assert_same_points(got, want);
    ls_earlyexit_report_free(got);
    ls_earlyexit_report_free(want);
    /* one .npy alone is a usage error */
    x = ls_earlyexit_read(two, 1, NULL, 0, &err);
    assert_null(x);
    assert_int_equal(err.code, LS_ERR_USAGE);
    assert_message(err.message, "@ is a .npy array: give two, the entropy and then the NLL", paths[0]);
    unlink(paths[0]);
    unlink(paths[1]);
}

static void bad_inputs_are_refused_by_position(void **state)
{
    (void)state;
    ls_error err;
    char paths[2][64];
    const char *two[] = {paths[0], paths[1]};
    float h[6] = {1, 2, 3, 1, 2, 3}, n[6] = {1, 1, 1, 1, 1, 1};
    n[4] = NAN;
    snprintf(paths[0], 64, "%s", write_npy2(2, 3, h));
    snprintf(paths[1], 64, "%s", write_npy2(2, 3, n));
    assert_null(ls_earlyexit_read(two, 2, NULL, 0, &err));
    assert_message(err.message, "@: NLL [1, 1] (token 1, loop 2) is NaN", paths[1]);
    unlink(paths[1]);
    h[2] = -0.5f;
    snprintf(paths[1], 64, "%s", write_npy2(2, 3, h));
    two[0] = paths[1];
    assert_null(ls_earlyexit_read(two, 2, NULL, 0, &err));
    assert_message(err.message, "@: entropy [0, 2] (token 0, loop 3) is negative (-0.5)", paths[1]);
    two[0] = paths[0];
    unlink(paths[1]);
    snprintf(paths[1], 64, "%s", write_npy2(3, 2, n));
    assert_null(ls_earlyexit_read(two, 2, NULL, 0, &err));
    assert_int_equal(err.code, LS_ERR_DATA);
    char want[256];
    snprintf(want, sizeof want, "@: shape (3, 2) differs from the shape (2, 3) of %s", paths[0]);
    assert_message(err.message, want, paths[1]);
    unlink(paths[0]);
    unlink(paths[1]);

    static const struct {
        const char *csv, *message;
    } cases[] = {
        {"token,loop,entropy,nll\n0,1,-1,2\n", "@:2: column 'entropy': '-1' must not be negative"},
        {"token,loop,entropy,nll\n0,1,1,inf\n", "@:2: column 'nll': 'inf' is not a finite number"},
        {"token,loop,entropy,nll\n0,1,1,2\n0,2,1,2\n1,1,1,2\n1,3,1,2\n",
         "@:5: column 'loop': 3 is out of range 1..2 (as in the first token)"},
        {"token,loop,entropy,nll\n0,1,1,2\n0,2,1,2\n1,2,1,2\n", "@:4: token 1 has no row for loop 1"},
        {"token,loop,entropy,nll\nx,1,1,2\n", "@:2: column 'token': 'x' is not a number"},
        {"token,loop,entropy\n", "@:1: 3 columns; the header must be token,loop,entropy,nll"},
        {"token,loop,nll,entropy\n", "@:1: column 3 is 'nll' where 'entropy' belongs; the header must be token,loop,entropy,nll"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        snprintf(paths[0], 64, "%s", write_temp_text(cases[i].csv, 0));
        assert_null(ls_earlyexit_read(two, 1, NULL, 0, &err));
        assert_int_equal(err.code, LS_ERR_DATA);
        assert_message(err.message, cases[i].message, paths[0]);
        unlink(paths[0]);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(confident_at_loop_1_saves_the_remaining_loops),
        cmocka_unit_test(three_tokens_worked_by_hand),
        cmocka_unit_test(default_grid_reports_exact_float_thresholds),
        cmocka_unit_test(exit_that_helps_perplexity_dominates_full_depth),
        cmocka_unit_test(bad_costs_and_thresholds_are_refused),
        cmocka_unit_test(files_agree_with_the_accumulator),
        cmocka_unit_test(bad_inputs_are_refused_by_position),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
