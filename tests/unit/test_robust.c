/* Regressions for what fuzzing and the catalogue of bad inputs found (issue
 * 7): each test names the input that once went wrong.  The fuzzers' own
 * copies of these inputs are in tests/fuzz/regressions. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "checks.h"
#include "csv_internal.h"
#include "loopscale/law.h"
#include "loopscale/lawfile.h"
#include "npy_internal.h"
#include "loopscale/sweep.h"
#include "tmpfile.h"

/* fuzz_sweep: the record "," put no byte in the reader's buffer, still
 * NULL, and its fields were NULL + 0 (undefined; clang's UBSan stops). */
static void csv_record_of_only_empty_fields_points_at_an_empty_string(void **state)
{
    (void)state;
    static const char input[] = ",\nacm\377";
    const char *path = write_temp(input, sizeof input - 1, 0);
    ls_error err;
    csv_reader *r = ls_csv_open(path, &err);
    assert_non_null(r);
    const csv_field *f;
    size_t n;
    assert_int_equal(ls_csv_next(r, &f, &n, &err), 1);
    assert_int_equal(n, 2);
    for (size_t i = 0; i < n; i++) {
        assert_non_null(f[i].ptr);
        assert_int_equal(f[i].len, 0);
    }
    assert_int_equal(ls_csv_next(r, &f, &n, &err), 1);
    assert_int_equal(n, 1);
    assert_int_equal(f[0].len, 4);
    ls_csv_close(r);
    unlink(path);
}

/* gzread stopped silently at whatever followed a gzip member: rows
 * appended in plain text to a .csv.gz file were dropped.  Concatenated
 * members are one stream (RFC 1952); anything else after them is an error. */
static void csv_reads_gzip_members_in_turn_and_refuses_what_follows(void **state)
{
    (void)state;
    unsigned char buf[256];
    size_t len = 0;
    const char *parts[] = {"n_act,tokens,loss\n", "3e8,1e11,2.5\n"};
    for (int i = 0; i < 2; i++) {
        const char *p = write_temp_text(parts[i], 1);
        FILE *f = fopen(p, "rb");
        len += fread(buf + len, 1, sizeof buf - len, f);
        fclose(f);
        unlink(p);
    }
    const char *path = write_temp(buf, len, 0);
    ls_error err;
    csv_reader *r = ls_csv_open(path, &err);
    const csv_field *f;
    size_t n;
    assert_int_equal(ls_csv_next(r, &f, &n, &err), 1);
    assert_int_equal(ls_csv_next(r, &f, &n, &err), 1);
    assert_int_equal(n, 3);
    assert_int_equal(ls_csv_next(r, &f, &n, &err), 0);
    ls_csv_close(r);
    unlink(path);

    memcpy(buf + len, "4e8,1e11,2.4\n", 13);
    path = write_temp(buf, len + 13, 0);
    r = ls_csv_open(path, &err);
    assert_int_equal(ls_csv_next(r, &f, &n, &err), 1);
    assert_int_equal(ls_csv_next(r, &f, &n, &err), 1);
    assert_int_equal(ls_csv_next(r, &f, &n, &err), LS_ERR_DATA);
    assert_message(err.message, "@: data after the end of the gzip stream", path);
    ls_csv_close(r);
    unlink(path);

    path = write_temp(buf, len - 3, 0); /* cut inside the second member's trailer */
    r = ls_csv_open(path, &err);
    int status;
    while ((status = ls_csv_next(r, &f, &n, &err)) > 0)
        ;
    assert_int_equal(status, LS_ERR_DATA);
    assert_message(err.message, "@: corrupt or truncated gzip data (unexpected end of file)", path);
    ls_csv_close(r);
    unlink(path);
}

/* A header of 100,000 columns took a minute (pairwise name comparison);
 * the first column that repeats an earlier name is still the one named. */
static void sweep_header_repeats_are_found_in_file_order(void **state)
{
    (void)state;
    size_t columns = 100000, cap = columns * 12 + 64;
    char *text = malloc(cap);
    assert_non_null(text);
    size_t len = (size_t)snprintf(text, cap, "n_act,tokens,loss");
    for (size_t i = 0; i < columns; i++)
        len += (size_t)snprintf(text + len, cap - len, ",c%zu", i % 99990);
    len += (size_t)snprintf(text + len, cap - len, "\n3e8,1e11,2.5");
    for (size_t i = 0; i < columns; i++)
        len += (size_t)snprintf(text + len, cap - len, ",1");
    text[len++] = '\n';
    const char *path = write_temp(text, len, 0);
    free(text);
    ls_error err;
    ls_sweep *s = ls_sweep_read(&path, 1, NULL, &err);
    assert_null(s);
    assert_message(err.message, "@:1: field 99994: column 'c0' appears twice (field 4 too)", path);
    unlink(path);

    path = write_temp_text("n_act,b,tokens,B,loss,a,A\n1,2,3,4,5,6,7\n", 0);
    assert_null(ls_sweep_read(&path, 1, NULL, &err));
    assert_message(err.message, "@:1: field 4: column 'B' appears twice: field 2 is 'b', and names are compared ignoring case "
                                "and surrounding white space",
                   path);
    unlink(path);
}

static ls_law moe_law(ls_law_mapping mapping)
{
    ls_law l;
    ls_law_init(&l, (ls_law_kind){LS_LAW_BASE_MOE, mapping});
    l.p[LS_LAW_P_A] = 406.4, l.p[LS_LAW_P_ALPHA] = 0.34, l.p[LS_LAW_P_B] = 410.7, l.p[LS_LAW_P_BETA] = 0.28;
    l.p[LS_LAW_P_C] = 1.69, l.p[LS_LAW_P_DELTA] = -0.1, l.p[LS_LAW_P_GAMMA] = 0.005, l.p[LS_LAW_P_E_MAX] = 300;
    l.p[LS_LAW_P_PHI] = 0.6, l.p[LS_LAW_P_KAPPA1] = 1.2, l.p[LS_LAW_P_KAPPA2] = 1.5, l.p[LS_LAW_P_THETA] = 0.35;
    return l;
}

/* The extreme configuration N_act = 1e15, D = 1e6, R = 1000,
 * E = 4096, gives a finite loss between c and the loss at R = 1 under every
 * mapping, and so do the far corners of the doubles. */
static void law_is_finite_at_extreme_configurations(void **state)
{
    (void)state;
    for (int m = LS_LAW_MAPPING_NONE; m < LS_LAW_NMAPPINGS; m++) {
        ls_law l = moe_law((ls_law_mapping)m);
        ls_law_point x = {1e15, 2.731e18, 7.5e14, 1000, 4096, 1e6, 0};
        double loss = ls_law_loss(&l, &x);
        ls_law_point one = x;
        one.R = 1;
        assert_true(isfinite(loss) && loss > l.p[LS_LAW_P_C] && loss <= ls_law_loss(&l, &one));
        double grad[LS_LAW_NPARAMS];
        assert_true(isfinite(ls_law_log_loss_grad(&l, &x, grad)));
        for (int j = 0; j < LS_LAW_NPARAMS; j++)
            assert_true(isfinite(grad[j]));
        ls_law_point corners[] = {{1e-300, 1e300, 1e-300, 1000, 4096, 1e11, 0},
                               {1e300, 1e300, 1e300, 2, 1, 1e300, 0},
                               {1, 1, 1, 1e15, 1, 1e-300, 0}};
        for (size_t k = 0; k < sizeof corners / sizeof *corners; k++)
            assert_false(isnan(ls_law_loss(&l, &corners[k])));
    }
}

/* predict --n-act 1e-300 --n-total 1e300 printed nan: m = N_act/N_total
 * underflowed to 0.  The bounded-sparse gain takes its limit as m -> 0,
 * kappa1/kappa2 per loop (docs/laws.md), and so does a theta large enough that
 * m^-theta overflows. */
static void law_gain_takes_its_linear_limit_when_m_leaves_the_doubles(void **state)
{
    (void)state;
    ls_law l = moe_law(LS_LAW_MAPPING_BOUNDED_SPARSE);
    ls_law_point x = {1e-300, 1e300, 1e-300, 1000, 4096, 1e11, 0};
    close_to(ls_law_rho_eff(&l, &x), 1 + 999 * 1.2 / 1.5);
    l.p[LS_LAW_P_THETA] = 200; /* m = 1e-3: m^-theta = 1e600 */
    ls_law_point y = {1e9, 1e12, 7.5e8, 5, 4096, 1e11, 0};
    close_to(ls_law_rho_eff(&l, &y), 1 + 0.75 * 4 * 1.2 / 1.5);
    ls_law h = moe_law(LS_LAW_MAPPING_HYPERBOLIC);
    h.p[LS_LAW_P_THETA] = 200;
    close_to(ls_law_rho_eff(&h, &y), 1 + 0.75 * 4 * 1.2 / 1.5);
    close_to(ls_law_rho_eff(&h, &x), 1 + 999 * 1.2 / 1.5);
}

/* Where m^-theta overflows (theta = 200 at m = 1e-3), or is merely huge
 * (theta = 40: 1e120), the loss is the linear limit, and so are its
 * derivatives: finite (the fitter needs them), equal to central
 * differences of ln L in ln kappa1 and ln kappa2 (the limit depends on
 * kappa1 / kappa2 alone), and 0 in theta; the Hessian is finite too. */
static void law_derivatives_take_the_linear_limit_when_m_to_the_theta_overflows(void **state)
{
    (void)state;
    static const ls_law_mapping mappings[] = {LS_LAW_MAPPING_BOUNDED_SPARSE, LS_LAW_MAPPING_HYPERBOLIC};
    static const double thetas[] = {200, 40};
    ls_law_point y = {1e9, 1e12, 7.5e8, 5, 4096, 1e11, 0};
    for (int m = 0; m < 2; m++)
        for (int t = 0; t < 2; t++) {
            ls_law l = moe_law(mappings[m]);
            l.p[LS_LAW_P_THETA] = thetas[t];
            double grad[LS_LAW_NPARAMS], hess[LS_LAW_NPARAMS * LS_LAW_NPARAMS];
            ls_law_log_loss_hessian(&l, &y, grad, hess);
            for (int j = 0; j < LS_LAW_NPARAMS * LS_LAW_NPARAMS; j++)
                assert_true(isfinite(hess[j]));
            assert_true(fabs(grad[LS_LAW_P_THETA]) <= 1e-12);
            static const ls_law_param scales[] = {LS_LAW_P_KAPPA1, LS_LAW_P_KAPPA2};
            for (int k = 0; k < 2; k++) {
                ls_law_param j = scales[k];
                const double h = 1e-5;
                ls_law up = l, down = l;
                up.p[j] *= exp(h);
                down.p[j] *= exp(-h);
                double fd = (ls_law_log_loss_grad(&up, &y, NULL) - ls_law_log_loss_grad(&down, &y, NULL)) / (2 * h);
                assert_true(isfinite(grad[j]) && grad[j] != 0.0);
                if (fabs(grad[j] - fd) > 1e-7 * fabs(fd))
                    fail_msg("%s theta %g: d ln L / d ln %s %.12g, central difference %.12g",
                             ls_law_mapping_name(mappings[m]), thetas[t], ls_law_param_name(j), grad[j], fd);
            }
            /* the two kappas enter only as kappa1 / kappa2 */
            assert_true(fabs(grad[LS_LAW_P_KAPPA1] + grad[LS_LAW_P_KAPPA2]) <= 1e-9 * fabs(grad[LS_LAW_P_KAPPA1]));
        }
}

/* The other edges of the doubles: kappa2 s overflowing while s does not
 * (m = 1e-62, theta = 4.9693: s = 1.3e308), kappa1 and kappa2 both huge
 * (1e299, 1e300) with a finite s.  N_eff is the linear limit N_act +
 * kappa1 N_loop (R-1) / kappa2 under both sparse mappings, with finite
 * derivatives; and where N_eff itself overflows (power, R = 1e62, phi = 5)
 * the loss is the limit without the first term and its derivatives are
 * finite (0 * inf was NaN, and such fits stopped after 0 iterations). */
static void law_stays_finite_at_the_other_edges_of_the_doubles(void **state)
{
    (void)state;
    static const ls_law_mapping mappings[] = {LS_LAW_MAPPING_BOUNDED_SPARSE, LS_LAW_MAPPING_HYPERBOLIC};
    struct edge {
        double m, theta, k, R;
    } edges[] = {{1e-62, 4.9693, 0, 5}, {1e-10, 1, 1e300, 1e6}, {1e-10, 1, 1e299, 2}};
    for (int c = 0; c < 2; c++)
        for (size_t k = 0; k < sizeof edges / sizeof edges[0]; k++) {
            ls_law l = moe_law(mappings[c]);
            l.p[LS_LAW_P_THETA] = edges[k].theta;
            if (edges[k].k > 0)
                l.p[LS_LAW_P_KAPPA1] = l.p[LS_LAW_P_KAPPA2] = edges[k].k;
            ls_law_point x = {1e9, 1e9 / edges[k].m, 1e9, edges[k].R, 1, 1e11, 0};
            double want = x.n_act + l.p[LS_LAW_P_KAPPA1] / l.p[LS_LAW_P_KAPPA2] * x.n_loop * (x.R - 1);
            double n_eff = ls_law_n_eff(&l, &x);
            if (!(fabs(n_eff - want) <= 1e-12 * want))
                fail_msg("%s edge %zu: N_eff %.17g, the linear limit %.17g", ls_law_mapping_name(mappings[c]), k, n_eff,
                         want);
            double grad[LS_LAW_NPARAMS], hess[LS_LAW_NPARAMS * LS_LAW_NPARAMS];
            assert_true(isfinite(ls_law_log_loss_hessian(&l, &x, grad, hess)));
            for (int j = 0; j < LS_LAW_NPARAMS; j++)
                assert_true(isfinite(grad[j]));
            for (int j = 0; j < LS_LAW_NPARAMS * LS_LAW_NPARAMS; j++)
                if (!isfinite(hess[j]))
                    fail_msg("%s edge %zu: Hessian (%s, %s) %g", ls_law_mapping_name(mappings[c]), k,
                             ls_law_param_name((ls_law_param)(j / LS_LAW_NPARAMS)),
                             ls_law_param_name((ls_law_param)(j % LS_LAW_NPARAMS)), hess[j]);
        }
    ls_law power = moe_law(LS_LAW_MAPPING_POWER);
    power.p[LS_LAW_P_PHI] = 5;
    ls_law_point far = {1e9, 1e9, 1e9, 1e62, 1, 1e11, 0};
    double grad[LS_LAW_NPARAMS];
    double ln_loss = ls_law_log_loss_grad(&power, &far, grad);
    ls_law_point plain = far;
    plain.R = 1;
    assert_true(isfinite(ln_loss) && ln_loss < ls_law_log_loss_grad(&power, &plain, NULL));
    for (int j = 0; j < LS_LAW_NPARAMS; j++)
        assert_true(isfinite(grad[j]));
    assert_true(grad[LS_LAW_P_A] == 0.0 && grad[LS_LAW_P_ALPHA] == 0.0 && grad[LS_LAW_P_PHI] == 0.0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(csv_record_of_only_empty_fields_points_at_an_empty_string),
        cmocka_unit_test(csv_reads_gzip_members_in_turn_and_refuses_what_follows),
        cmocka_unit_test(sweep_header_repeats_are_found_in_file_order),
        cmocka_unit_test(law_is_finite_at_extreme_configurations),
        cmocka_unit_test(law_gain_takes_its_linear_limit_when_m_leaves_the_doubles),
        cmocka_unit_test(law_derivatives_take_the_linear_limit_when_m_to_the_theta_overflows),
        cmocka_unit_test(law_stays_finite_at_the_other_edges_of_the_doubles),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
