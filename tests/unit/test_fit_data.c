/* ls_fit_data_check: the sweeps that cannot determine a law are told from
 * the data alone, with the reason, and a sweep that can (a grid over N and D
 * with losses from a Chinchilla-form law) passes. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "loopscale/fit.h"

#define NS 4
#define DS 3
static const double SIZES[NS] = {1.1e8, 3.3e8, 1.2e9, 2.385e9};
static const double TOKENS[DS] = {2.2e10, 6.5e10, 1.9e11};

/* L = 406.4 N^-0.34 + 410.7 D^-0.28 + 1.69, Hoffmann et al. (2022)'s fit. */
static double chinchilla(double n, double d) { return 406.4 * pow(n, -0.34) + 410.7 * pow(d, -0.28) + 1.69; }

static void grid(ls_sweep_row rows[NS * DS], ls_sweep *s)
{
    for (size_t i = 0; i < NS; i++)
        for (size_t j = 0; j < DS; j++)
            rows[i * DS + j] = (ls_sweep_row){.n_act = SIZES[i], .n_total = SIZES[i], .n_loop = NAN, .R = 1, .E = 1,
                                           .k = 1, .tokens = TOKENS[j], .loss = chinchilla(SIZES[i], TOKENS[j])};
    memset(s, 0, sizeof *s);
    s->n = NS * DS;
    s->rows = rows;
    s->has_loss = 1;
}

static int check(const ls_sweep *s, const ls_fit_parameters *p, ls_error *err)
{
    return ls_fit_data_check(s, (ls_law_kind){LS_LAW_BASE_DENSE, LS_LAW_MAPPING_NONE}, p, err);
}

static void a_grid_passes_and_each_degenerate_sweep_is_named(void **state)
{
    (void)state;
    ls_sweep_row rows[NS * DS];
    ls_sweep s;
    ls_fit_parameters p;
    ls_fit_default_parameters(&p);
    ls_error err;
    grid(rows, &s);
    assert_int_equal(check(&s, &p, &err), 0);

    for (size_t i = 0; i < s.n; i++) /* every loss equal */
        rows[i].loss = 2.385;
    assert_int_equal(check(&s, &p, &err), LS_ERR_NOCONV);
    assert_non_null(strstr(err.message, "every run has loss = 2.385"));
    /* ... unless only c is free */
    ls_law_param known[] = {LS_LAW_P_A, LS_LAW_P_ALPHA, LS_LAW_P_B, LS_LAW_P_BETA};
    for (size_t k = 0; k < 4; k++)
        p.fixed[known[k]] = 1;
    assert_int_equal(check(&s, &p, &err), 0);
    ls_fit_default_parameters(&p);

    grid(rows, &s); /* the loss depends on D alone: L(N, D) = L(N_0, D) */
    for (size_t i = 0; i < s.n; i++)
        rows[i].loss = chinchilla(SIZES[0], rows[i].tokens);
    assert_int_equal(check(&s, &p, &err), LS_ERR_NOCONV);
    assert_non_null(strstr(err.message, "does not change with n_act"));
    /* one run off the plateau is enough to make the size term visible */
    rows[NS * DS - 1].loss *= 0.999;
    assert_int_equal(check(&s, &p, &err), 0);

    grid(rows, &s); /* the loss depends on N alone */
    for (size_t i = 0; i < s.n; i++)
        rows[i].loss = chinchilla(rows[i].n_act, TOKENS[1]);
    assert_int_equal(check(&s, &p, &err), LS_ERR_NOCONV);
    assert_non_null(strstr(err.message, "does not change with tokens"));

    grid(rows, &s); /* one size: the first DS rows */
    s.n = DS;
    assert_int_equal(check(&s, &p, &err), LS_ERR_NOCONV);
    assert_non_null(strstr(err.message, "every run has n_act = 1.1e+08"));
    /* under a loop mapping, several R give several N_eff */
    for (size_t j = 0; j < DS; j++)
        rows[j].R = (double)(j + 1), rows[j].n_loop = 0.75 * rows[j].n_act;
    assert_int_equal(ls_fit_data_check(&s, (ls_law_kind){LS_LAW_BASE_DENSE, LS_LAW_MAPPING_LINEAR}, &p, &err), 0);

    grid(rows, &s); /* one token count: every DS-th row */
    for (size_t i = 0; i < NS; i++)
        rows[i] = rows[i * DS];
    s.n = NS;
    assert_int_equal(check(&s, &p, &err), LS_ERR_NOCONV);
    assert_non_null(strstr(err.message, "every run has tokens = 2.2e+10"));
    p.fixed[LS_LAW_P_BETA] = p.fixed[LS_LAW_P_C] = 1; /* B alone is then known from the one value */
    assert_int_equal(check(&s, &p, &err), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_grid_passes_and_each_degenerate_sweep_is_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
