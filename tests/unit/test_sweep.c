/* The sweep reader at the API: aliases, defaults, renames, filters, FLOPs,
 * groups, echoed cells and several files.  Every error message is pinned in
 * the CLI tests (tests/cli/sweep-errors.t). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "loopscale/sweep.h"
#include "tmpfile.h"

static ls_sweep *read_text(const char *text, const ls_sweep_options *o, ls_error *err)
{
    char path[64];
    snprintf(path, sizeof path, "%s", write_temp_text(text, 0));
    const char *paths[] = {path};
    ls_sweep *s = ls_sweep_read(paths, 1, o, err);
    unlink(path);
    return s;
}

static void aliases_match_in_any_case_and_defaults_apply(void **state)
{
    (void)state;
    ls_error err;
    ls_sweep *s = read_text("PARAMS,d,Loss,Experts,note\n3e8,1e11,2.5,4,x\n", NULL, &err);
    assert_non_null(s);
    assert_int_equal(s->n, 1);
    ls_sweep_row r = s->rows[0];
    assert_true(r.n_act == 3e8 && r.tokens == 1e11 && r.loss == 2.5 && r.E == 4);
    assert_true(r.n_total == 3e8 && r.R == 1 && r.k == 1 && isnan(r.n_loop));
    assert_int_equal(r.line, 2);
    assert_true(s->has_loss);
    ls_sweep_free(s);
}

static void map_renames_and_tokens_come_from_flops(void **state)
{
    (void)state;
    ls_error err;
    const char *maps[] = {"n_act=Model Size", "flops=Training FLOP"};
    ls_sweep_options o = {.maps = maps, .nmaps = 2, .require_loss = 1};
    ls_sweep *s = read_text("Model Size,Training FLOP,loss\n2.385e8,1.431e19,3.1\n", &o, &err);
    assert_non_null(s);
    assert_true(fabs(s->rows[0].tokens - 1.431e19 / (6 * 2.385e8)) < 1e-3);
    ls_sweep_free(s);
    /* Looped runs are charged on N_unroll = N_act + (R-1) N_loop. */
    s = read_text("n_act,n_loop,R,flops,loss\n1e9,7.5e8,3,1.5e21,2.9\n", NULL, &err);
    assert_non_null(s);
    assert_true(fabs(s->rows[0].tokens - 1.5e21 / (6 * 2.5e9)) < 1e-3);
    ls_sweep_free(s);
}

/* Tokens and FLOPs side by side must agree through F = 6 N_unroll D: a
 * looped run (N_unroll = 1e9 + 2 x 7.5e8 = 2.5e9, D = 1e11, so F = 1.5e21
 * written out by hand) passes just inside the relative tolerance and is
 * refused just outside it, on either side. */
static void tokens_and_flops_must_agree_within_the_tolerance(void **state)
{
    (void)state;
    ls_error err;
    char text[160];
    const double inside = 0.9 * LS_SWEEP_FLOPS_TOKENS_RTOL, outside = 1.1 * LS_SWEEP_FLOPS_TOKENS_RTOL;
    for (int sign = -1; sign <= 1; sign += 2) {
        snprintf(text, sizeof text, "n_act,n_loop,R,tokens,flops,loss\n1e9,7.5e8,3,1e11,%.17g,2.9\n",
                 1.5e21 * (1 + sign * inside));
        ls_sweep *s = read_text(text, NULL, &err);
        assert_non_null(s);
        assert_true(s->rows[0].tokens == 1e11); /* the tokens column is what is used */
        ls_sweep_free(s);
        snprintf(text, sizeof text, "n_act,n_loop,R,tokens,flops,loss\n1e9,7.5e8,3,1e11,%.17g,2.9\n",
                 1.5e21 * (1 + sign * outside));
        assert_null(read_text(text, NULL, &err));
        assert_int_equal(err.code, LS_ERR_DATA);
        assert_non_null(strstr(err.message, ":2: column 'flops': "));
    }
    /* Charging the loops once (F = 6 N_act D) is the mistake this catches. */
    assert_null(read_text("n_act,n_loop,R,tokens,flops,loss\n1e9,7.5e8,3,1e11,6e20,2.9\n", NULL, &err));
}

static void where_filters_are_anded_over_quantities_and_other_columns(void **state)
{
    (void)state;
    ls_error err;
    const char *text = "n_act,n_loop,R,E,tokens,loss,lr\n"
                       "1e8,7e7,1,1,1e10,3.0,0.001\n"
                       "1e8,7e7,8,1,1e10,2.9,0.002\n"
                       "1e8,7e7,16,2,1e10,2.8,0.001\n"
                       "1e8,7e7,4,2,1e10,2.85,0.003\n";
    const char *wheres[] = {"R<=8", "lr != 0.002"};
    ls_sweep_options o = {.wheres = wheres, .nwheres = 2};
    ls_sweep *s = read_text(text, &o, &err);
    assert_non_null(s);
    assert_int_equal(s->n, 2);
    assert_true(s->rows[0].R == 1 && s->rows[1].R == 4);
    assert_int_equal(s->rows[1].line, 5);
    ls_sweep_free(s);
    const char *none[] = {"E > 4"};
    o.wheres = none;
    o.nwheres = 1;
    assert_null(read_text(text, &o, &err));
    assert_int_equal(err.code, LS_ERR_DATA);
    const char *bad[] = {"R < four"};
    o.wheres = bad;
    assert_null(read_text(text, &o, &err));
    assert_int_equal(err.code, LS_ERR_USAGE);
}

static void groups_and_echoed_cells(void **state)
{
    (void)state;
    ls_error err;
    ls_sweep_options o = {.keep_text = 1, .group_column = "run"};
    ls_sweep *s = read_text("run,N,D,loss\nb,1e8,1e10,3\na,2e8,1e10,2.9\nb,3e8,1e10,2.8\n", &o, &err);
    assert_non_null(s);
    assert_int_equal(s->ngroups, 2);
    assert_int_equal(s->rows[0].group, 1);
    assert_int_equal(s->rows[1].group, 0);
    assert_int_equal(s->rows[2].group, 1);
    assert_int_equal(s->ncolumns, 4);
    assert_string_equal(s->column_names[1], "N");
    size_t len;
    assert_string_equal(ls_sweep_cell(s, 2, 0, &len), "b");
    assert_string_equal(ls_sweep_cell(s, 1, 3, &len), "2.9");
    ls_sweep_free(s);
}

static void several_files_concatenate(void **state)
{
    (void)state;
    ls_error err;
    char a[64], b[64];
    snprintf(a, sizeof a, "%s", write_temp_text("N,D,loss\n1e8,1e10,3\n", 0));
    snprintf(b, sizeof b, "%s", write_temp_text("tokens,loss,n_act\n2e10,2.9,1e8\n", 1));
    const char *paths[] = {a, b};
    ls_sweep *s = ls_sweep_read(paths, 2, NULL, &err);
    assert_non_null(s);
    assert_int_equal(s->n, 2);
    assert_int_equal(s->rows[1].file, 1);
    assert_true(s->rows[1].tokens == 2e10);
    ls_sweep_free(s);
    unlink(a);
    unlink(b);
}

static void row_check_names_the_quantity_at_fault(void **state)
{
    (void)state;
    ls_sweep_row ok = {1e9, 2e9, 7e8, 4, 8, 2, 1e11, 2.5, NAN, 0, 0, 0, 0};
    ls_sweep_quantity which;
    char reason[128];
    assert_int_equal(ls_sweep_row_check(&ok, &which, reason, sizeof reason), 0);
    ls_sweep_row r = ok;
    r.n_loop = 2e9;
    assert_int_equal(ls_sweep_row_check(&r, &which, reason, sizeof reason), 1);
    assert_int_equal(which, LS_SWEEP_N_LOOP);
    assert_string_equal(reason, "is greater than n_act (1000000000)");
    r = ok;
    r.E = 1;
    assert_int_equal(ls_sweep_row_check(&r, &which, reason, sizeof reason), 1);
    assert_int_equal(which, LS_SWEEP_E);
    r = ok;
    r.n_loop = NAN;
    assert_int_equal(ls_sweep_row_check(&r, &which, reason, sizeof reason), 1);
    assert_int_equal(which, LS_SWEEP_N_LOOP);
    r.R = 1;
    assert_int_equal(ls_sweep_row_check(&r, &which, reason, sizeof reason), 0);
}

static void a_million_rows_read_in_one_pass(void **state)
{
    (void)state;
    size_t rows = 1000000;
    size_t cap = rows * 48 + 64;
    char *text = malloc(cap);
    size_t n = (size_t)snprintf(text, cap, "n_act,n_loop,R,E,tokens,loss\n");
    for (size_t i = 0; i < rows; i++)
        n += (size_t)snprintf(text + n, cap - n, "%zu,%zu,%zu,1,1e11,%.6f\n", 100000000 + i, 50000000 + i,
                              1 + i % 16, 2.5 + (double)(i % 1000) * 1e-4);
    const char *path = write_temp(text, n, 1);
    free(text);
    ls_error err;
    const char *paths[] = {path};
    ls_sweep *s = ls_sweep_read(paths, 1, NULL, &err);
    unlink(path);
    assert_non_null(s);
    assert_int_equal(s->n, rows);
    assert_true(s->rows[rows - 1].R == 16);
    ls_sweep_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(aliases_match_in_any_case_and_defaults_apply),
        cmocka_unit_test(map_renames_and_tokens_come_from_flops),
        cmocka_unit_test(tokens_and_flops_must_agree_within_the_tolerance),
        cmocka_unit_test(where_filters_are_anded_over_quantities_and_other_columns),
        cmocka_unit_test(groups_and_echoed_cells),
        cmocka_unit_test(several_files_concatenate),
        cmocka_unit_test(row_check_names_the_quantity_at_fault),
        cmocka_unit_test(a_million_rows_read_in_one_pass),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
