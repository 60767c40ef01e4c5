/* Streaming prediction: ls_sweep_stream hands out the rows ls_sweep_read
 * stores, and ls_predict_acc's RMSE is the closed form over them. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "loopscale/law.h"
#include "loopscale/predict.h"
#include "loopscale/sweep.h"

#define SWEEP PROJECT_DATA_DIR "/sweeps/looped-moe.csv.gz"

typedef struct collected {
    ls_sweep_row *rows;
    size_t n, cap, headers;
    int has_loss;
} collected;

static int on_header(void *ctx, const char *file, const char *const *names, size_t ncolumns, int has_loss,
                     ls_error *err)
{
    (void)file;
    (void)err;
    collected *c = ctx;
    c->headers++;
    c->has_loss = has_loss;
    assert_true(ncolumns >= 3);
    assert_non_null(names[0]);
    return 0;
}

static int on_row(void *ctx, const ls_sweep_row *row, const ls_sweep_text_cell *cells, size_t ncells, ls_error *err)
{
    (void)cells;
    (void)err;
    collected *c = ctx;
    assert_true(ncells >= 3);
    if (c->n == c->cap) {
        c->cap = c->cap ? 2 * c->cap : 64;
        c->rows = realloc(c->rows, c->cap * sizeof *c->rows);
        assert_non_null(c->rows);
    }
    c->rows[c->n++] = *row;
    return 0;
}

static void stream_hands_out_the_rows_read_stores(void **state)
{
    (void)state;
    const char *path = SWEEP;
    const char *wheres[] = {"R<=8"};
    ls_sweep_options o = {0};
    o.wheres = wheres;
    o.nwheres = 1;
    ls_error err;
    ls_sweep *s = ls_sweep_read(&path, 1, &o, &err);
    assert_non_null(s);
    collected c = {0};
    ls_sweep_handler stream = {on_header, on_row, &c, NULL};
    size_t n = 0;
    assert_int_equal(ls_sweep_stream(&path, 1, &o, &stream, &n, &err), 0);
    assert_int_equal(n, s->n);
    assert_int_equal(c.n, s->n);
    assert_int_equal(c.headers, 1);
    assert_true(c.has_loss);
    for (size_t i = 0; i < n; i++) {
        assert_true(c.rows[i].line == s->rows[i].line);
        assert_true(memcmp(&c.rows[i].n_act, &s->rows[i].n_act, 8 * sizeof(double)) == 0);
    }
    free(c.rows);
    ls_sweep_free(s);
}

static int stop_at_third(void *ctx, const ls_sweep_row *row, const ls_sweep_text_cell *cells, size_t ncells, ls_error *err)
{
    (void)row;
    (void)cells;
    (void)ncells;
    size_t *count = ctx;
    if (++*count == 3)
        return ls_error_set(err, LS_ERR_IO, "stop");
    return 0;
}

static void a_callback_error_stops_the_stream(void **state)
{
    (void)state;
    const char *path = SWEEP;
    size_t count = 0, n = 0;
    ls_sweep_handler stream = {NULL, stop_at_third, &count, NULL};
    ls_error err;
    assert_int_equal(ls_sweep_stream(&path, 1, NULL, &stream, &n, &err), LS_ERR_IO);
    assert_int_equal(count, 3);
    assert_string_equal(err.message, "stop");
}

static void rmse_is_the_root_mean_square_of_the_residuals(void **state)
{
    (void)state;
    ls_predict_acc acc;
    ls_predict_acc_init(&acc);
    const double loss[] = {2.385, 3.117, NAN, 2.904};
    const double pred[] = {2.401, 3.088, 2.5, 2.951};
    for (int i = 0; i < 4; i++)
        ls_predict_acc_add(&acc, loss[i], pred[i]);
    double rmse = 0;
    ls_error err;
    assert_int_equal(ls_predict_acc_rmse(&acc, "t", &rmse, &err), 0);
    double want = sqrt((0.016 * 0.016 + 0.029 * 0.029 + 0.047 * 0.047) / 3.0);
    assert_true(fabs(rmse - want) <= 1e-12 * want);
    assert_int_equal(acc.n, 3);
    ls_predict_acc_init(&acc);
    assert_int_equal(ls_predict_acc_rmse(&acc, "t", &rmse, &err), LS_ERR_DATA);
    /* Residuals whose squares overflow still have a representable RMSE:
     * sqrt((9 + 16) / 2) 1e200. */
    ls_predict_acc_init(&acc);
    ls_predict_acc_add(&acc, 3e200, 0.0);
    ls_predict_acc_add(&acc, 1.0, 1.0 + 4e200);
    assert_int_equal(ls_predict_acc_rmse(&acc, "t", &rmse, &err), 0);
    want = sqrt(12.5) * 1e200;
    assert_true(fabs(rmse - want) <= 1e-14 * want);
    /* Exact predictions: 0. */
    ls_predict_acc_init(&acc);
    ls_predict_acc_add(&acc, 2.0, 2.0);
    assert_int_equal(ls_predict_acc_rmse(&acc, "t", &rmse, &err), 0);
    assert_true(rmse == 0.0);
}

static void a_prediction_outside_double_precision_is_refused(void **state)
{
    (void)state;
    ls_law l;
    ls_law_kind kind;
    ls_error err;
    assert_int_equal(ls_law_kind_parse("dense", &kind, &err), 0);
    ls_law_init(&l, kind);
    l.p[LS_LAW_P_A] = 406.4;
    l.p[LS_LAW_P_ALPHA] = 0.34;
    l.p[LS_LAW_P_B] = 410.7;
    l.p[LS_LAW_P_BETA] = 0.28;
    l.p[LS_LAW_P_C] = 1.69;
    ls_sweep_row row = {.n_act = 1e9, .n_total = 1e9, .n_loop = NAN, .R = 1, .E = 1, .k = 1, .tokens = 1e11,
                     .loss = NAN, .line = 7};
    double pred = 0;
    assert_int_equal(ls_predict_row(&l, &row, "t.csv", &pred, &err), 0);
    double want = 406.4 * pow(1e9, -0.34) + 410.7 * pow(1e11, -0.28) + 1.69;
    assert_true(fabs(pred - want) <= 1e-12 * want);
    l.p[LS_LAW_P_A] = 1e300; /* 1e300 (1e-30)^-0.34 = 1e310.2 overflows */
    row.n_act = row.n_total = 1e-30;
    assert_int_equal(ls_predict_row(&l, &row, "t.csv", &pred, &err), LS_ERR_DATA);
    assert_non_null(strstr(err.message, "t.csv:7:"));
}

/* ls_predict_points: arrays of configurations, each the closed form of the
 * law (Chinchilla's dense law with the bounded loop mapping written out),
 * and each checked as a sweep's row, named by its index. */
static void points_are_the_closed_form_and_checked_one_by_one(void **state)
{
    (void)state;
    ls_law l;
    ls_law_kind kind;
    ls_error err;
    assert_int_equal(ls_law_kind_parse("dense:bounded", &kind, &err), 0);
    ls_law_init(&l, kind);
    l.p[LS_LAW_P_A] = 406.4;
    l.p[LS_LAW_P_ALPHA] = 0.34;
    l.p[LS_LAW_P_B] = 410.7;
    l.p[LS_LAW_P_BETA] = 0.28;
    l.p[LS_LAW_P_C] = 1.69;
    l.p[LS_LAW_P_KAPPA1] = 1.17;
    l.p[LS_LAW_P_KAPPA2] = 1.48;
    const double n_act[] = {1.1e8, 7.3e8, 2.385e9}, n_loop[] = {8.25e7, 5.475e8, 1.78875e9}, R[] = {1, 4, 16},
                 tokens[] = {2.1e10, 3.3e11, 1.4e12};
    double loss[3];
    ls_predict_columns c = {.n_act = n_act, .n_loop = n_loop, .R = R, .tokens = tokens};
    assert_int_equal(ls_predict_points(&l, 3, &c, loss, &err), 0);
    for (int i = 0; i < 3; i++) {
        double n_eff = n_act[i] + 1.17 * n_loop[i] * (1 - exp(-(R[i] - 1) / 1.48));
        double want = 406.4 * pow(n_eff, -0.34) + 410.7 * pow(tokens[i], -0.28) + 1.69;
        assert_true(fabs(loss[i] - want) <= 1e-13 * want);
    }
    /* n_loop unknown: allowed at R = 1 only. */
    c.n_loop = NULL;
    assert_int_equal(ls_predict_points(&l, 3, &c, loss, &err), LS_ERR_DATA);
    assert_string_equal(err.message, "configuration 1: n_loop is needed when R > 1");
    const double E[] = {1, 1, 1}, k[] = {1, 2, 1};
    ls_predict_columns moe = {.n_act = n_act, .E = E, .k = k, .tokens = tokens};
    assert_int_equal(ls_predict_points(&l, 3, &moe, loss, &err), LS_ERR_DATA);
    assert_string_equal(err.message, "configuration 1: E 1 is less than k (2)");
    const double half[] = {1, 2.5, 1};
    ls_predict_columns frac = {.n_act = n_act, .n_loop = n_loop, .R = half, .tokens = tokens};
    assert_int_equal(ls_predict_points(&l, 3, &frac, loss, &err), LS_ERR_DATA);
    assert_non_null(strstr(err.message, "configuration 1: R 2.5 "));
    const double nan_tokens[] = {2e10, NAN, 1e11};
    ls_predict_columns no_tokens = {.n_act = n_act, .tokens = nan_tokens};
    assert_int_equal(ls_predict_points(&l, 3, &no_tokens, loss, &err), LS_ERR_DATA);
    assert_string_equal(err.message, "configuration 1: tokens is not a number (nan)");
    assert_int_equal(ls_predict_points(&l, 0, NULL, NULL, &err), 0);
    assert_int_equal(ls_predict_points(&l, 1, &(ls_predict_columns){0}, loss, &err), LS_ERR_USAGE);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(stream_hands_out_the_rows_read_stores),
        cmocka_unit_test(a_callback_error_stops_the_stream),
        cmocka_unit_test(rmse_is_the_root_mean_square_of_the_residuals),
        cmocka_unit_test(a_prediction_outside_double_precision_is_refused),
        cmocka_unit_test(points_are_the_closed_form_and_checked_one_by_one),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
