/* Tolerant grouping: tiers scattered by rounding are one group with a clean
 * label, tiers apart stay apart, and the automatic tolerance is read off the
 * values' own spread. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "loopscale/group.h"

/* D = F / (6 N_unroll) with F printed to 6 digits: three tiers, each
 * scattered in its 6th digit. */
static const double TIERS[] = {5.99996e10, 1.0e10, 6.00003e10, 2.00001e10, 1.99998e10, 6e10, 1.00002e10};

static void rounding_scatter_is_one_tier(void **state)
{
    (void)state;
    size_t n = sizeof TIERS / sizeof *TIERS, group[sizeof TIERS / sizeof *TIERS];
    ls_grouping g;
    ls_error err = {0};
    assert_int_equal(ls_group_values(TIERS, n, -1.0, group, &g, &err), 0);
    assert_int_equal(g.n, 3);
    assert_true(g.label[0] == 1e10 && g.label[1] == 2e10 && g.label[2] == 6e10);
    assert_int_equal(g.count[0], 2);
    assert_int_equal(g.count[1], 2);
    assert_int_equal(g.count[2], 3);
    size_t expected[] = {2, 0, 2, 1, 1, 2, 0};
    for (size_t i = 0; i < n; i++)
        assert_int_equal(group[i], expected[i]);
    assert_true(g.lo[2] == 5.99996e10 && g.hi[2] == 6.00003e10);
    ls_grouping_free(&g);
}

static void auto_tolerance_reads_the_spread(void **state)
{
    (void)state;
    /* Largest rounding gap between neighbours: 1.00002e10 / 1e10 - 1. */
    double tol = ls_group_auto_tolerance(TIERS, sizeof TIERS / sizeof *TIERS);
    assert_true(fabs(tol - 2.0 * (1.00002e10 / 1e10 - 1.0)) < 1e-15);
    /* Exact tiers: no rounding gap, only equal values group. */
    const double exact[] = {1e10, 2e10, 2e10, 6e10};
    assert_true(ls_group_auto_tolerance(exact, 4) == 1e-9);
    /* A continuum (no separation between small and large gaps). */
    const double ramp[] = {1.0, 1.0005, 1.001, 1.0015, 1.004};
    assert_true(ls_group_auto_tolerance(ramp, 5) == 1e-9);
}

/* Many rounded copies of one value: the cluster is wider than twice any
 * step between neighbours, and must still be one group, since a group is
 * measured from its smallest member. */
static void a_dense_cluster_is_one_tier(void **state)
{
    (void)state;
    double v[202];
    for (size_t i = 0; i < 101; i++) {
        v[i] = 1e19 * (1.0 + 1e-7 * (double)i);     /* 1e19 to 1.00001e19, steps of 1e-7 */
        v[101 + i] = 1e20 * (1.0 + 1e-7 * (double)i);
    }
    double tol = ls_group_auto_tolerance(v, 202);
    assert_true(fabs(tol - 2.0 * 1e-5) < 1e-12);
    ls_grouping g;
    ls_error err = {0};
    assert_int_equal(ls_group_values(v, 202, -1.0, NULL, &g, &err), 0);
    assert_int_equal(g.n, 2);
    assert_int_equal(g.count[0], 101);
    assert_int_equal(g.count[1], 101);
    ls_grouping_free(&g);
}

static void explicit_tolerance_and_labels(void **state)
{
    (void)state;
    const double v[] = {3.0, 3.05, 3.2, 10.0};
    ls_grouping g;
    ls_error err = {0};
    /* 5%: 3.05 joins 3 (gap 1.7%), 3.2 does not (6.7% above 3). */
    assert_int_equal(ls_group_values(v, 4, 0.05, NULL, &g, &err), 0);
    assert_int_equal(g.n, 3);
    assert_true(g.label[0] == 3.0 && g.label[1] == 3.2 && g.label[2] == 10.0);
    ls_grouping_free(&g);
    /* A singleton keeps its own value as label. */
    const double one[] = {5.99996e10};
    assert_int_equal(ls_group_values(one, 1, -1.0, NULL, &g, &err), 0);
    assert_true(g.n == 1 && g.label[0] == 5.99996e10);
    ls_grouping_free(&g);
    /* No values: no groups. */
    assert_int_equal(ls_group_values(v, 0, -1.0, NULL, &g, &err), 0);
    assert_int_equal(g.n, 0);
    ls_grouping_free(&g);
}

static void refuses_values_that_cannot_be_grouped(void **state)
{
    (void)state;
    const double bad[] = {1.0, NAN};
    const double zero[] = {0.0};
    ls_grouping g;
    ls_error err = {0};
    assert_int_equal(ls_group_values(bad, 2, -1.0, NULL, &g, &err), LS_ERR_USAGE);
    assert_int_equal(ls_group_values(zero, 1, 0.1, NULL, &g, &err), LS_ERR_USAGE);
    assert_null(g.label);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(rounding_scatter_is_one_tier),
        cmocka_unit_test(auto_tolerance_reads_the_spread),
        cmocka_unit_test(a_dense_cluster_is_one_tier),
        cmocka_unit_test(explicit_tolerance_and_labels),
        cmocka_unit_test(refuses_values_that_cannot_be_grouped),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
