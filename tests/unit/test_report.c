/* The HTML report's writers: escaping of input strings, base64 of the
 * figures (RFC 4648's test vectors), numbers as people read them, the
 * candidates taken from a sweep, and a page built from a real fit that
 * carries its numbers and nothing unescaped. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../src/lib/report.c"

static char *written(void (*write)(html *, const void *), const void *arg)
{
    html h = {NULL, 0, 0, 0};
    write(&h, arg);
    assert_false(h.failed);
    return h.buf ? h.buf : strdup("");
}

static void write_base64(html *h, const void *arg) { put_base64(h, arg, strlen(arg)); }
static void write_number(html *h, const void *arg) { put_number(h, *(const double *)arg, 4); }

static void report_base64_matches_rfc4648_vectors(void **state)
{
    (void)state;
    static const char *const vectors[][2] = {{"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},
                                             {"foo", "Zm9v"},  {"foob", "Zm9vYg=="},  {"fooba", "Zm9vYmE="},
                                             {"foobar", "Zm9vYmFy"}};
    for (size_t i = 0; i < sizeof vectors / sizeof *vectors; i++) {
        char *got = written(write_base64, vectors[i][0]);
        assert_string_equal(got, vectors[i][1]);
        free(got);
    }
}

static void report_numbers_are_plain_or_powers_of_ten(void **state)
{
    (void)state;
    static const struct {
        double x;
        const char *want;
    } cases[] = {{0.25, "0.25"},
                 {2385, "2385"},
                 {3e8, "3&#215;10<sup>8</sup>"},
                 {1e9, "10<sup>9</sup>"},
                 {5.4553e8, "5.455&#215;10<sup>8</sup>"},
                 {-2.04e-5, "-2.04&#215;10<sup>-5</sup>"},
                 {0, "0"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *got = written(write_number, &cases[i].x);
        assert_string_equal(got, cases[i].want);
        free(got);
    }
}

static ls_sweep *small_sweep(void)
{
    ls_error err;
    const char *path = TEST_DATA_DIR "/report/looped-moe-small.csv";
    ls_sweep_options so = {0};
    so.require_loss = 1;
    ls_sweep *s = ls_sweep_read(&path, 1, &so, &err);
    if (!s)
        fail_msg("%s", err.message);
    return s;
}

static void report_candidates_are_the_sweeps_experts_and_loops_up_to_its_largest(void **state)
{
    (void)state;
    ls_sweep *s = small_sweep();
    double *R, *E;
    size_t nR, nE;
    ls_error err;
    assert_int_equal(ls_report_solve_candidates(s, &R, &nR, &E, &nE, &err), 0);
    assert_int_equal(nR, 8);
    for (size_t i = 0; i < nR; i++)
        assert_true(R[i] == (double)(i + 1));
    assert_int_equal(nE, 3);
    assert_true(E[0] == 1 && E[1] == 4 && E[2] == 16);
    free(R);
    free(E);
    ls_sweep empty = {0};
    assert_int_equal(ls_report_solve_candidates(&empty, &R, &nR, &E, &nE, &err), LS_ERR_DATA);
    ls_sweep_free(s);
}

static void report_page_carries_the_fit_and_refuses_no_fit(void **state)
{
    (void)state;
    ls_sweep *s = small_sweep();
    ls_fit_parameters p;
    ls_fit_default_parameters(&p);
    p.starts = 8;
    ls_fit_result r;
    ls_error err;
    assert_int_equal(ls_fit_run(s, (ls_law_kind){LS_LAW_BASE_DENSE, LS_LAW_MAPPING_BOUNDED}, &p, &r, &err), 0);
    const char *path = "<odd>.csv";
    ls_lawfile_provenance prov = {&path, 0, NULL, 0, NULL, 0, NULL, "loopscale report <odd>.csv", NULL, 0, NULL, NULL};
    ls_lawfile *lf = ls_lawfile_from_fit(&r, &p, NULL, s, &prov, &err);
    assert_non_null(lf);
    ls_figure figure = ls_figure_default();
    ls_report_input in = {s, &path, 1, &r, lf, NULL, NULL, NULL, NULL, NULL, 0, &figure, 3, NULL};
    /* Without what the figures draw, a page without figures. */
    char *page = ls_report_html(&in, &err);
    assert_non_null(page);
    assert_null(strstr(page, "<img"));
    free(page);
    ls_report_figures figures;
    assert_int_equal(ls_report_figures_run(&in, 1, &figures, &err), 0);
    assert_int_equal(figures.fit.nruns, s->n);
    assert_int_equal(figures.isoflop.ncurves, 0); /* no budget */
    in.figures = &figures;
    page = ls_report_html(&in, &err);
    assert_non_null(page);
    assert_non_null(strstr(page, "<figure><img alt=\"observed and fitted loss of the runs\""));
    /* The fitted alpha, as the table writes it, and the RMSE. */
    char want[128];
    snprintf(want, sizeof want, "<tr><td>alpha</td><td>%.6g</td>", r.law.p[LS_LAW_P_ALPHA]);
    assert_non_null(strstr(page, want));
    snprintf(want, sizeof want, "<dt>RMSE</dt><dd>%.4g nats/token over 144 runs", r.rmse);
    assert_non_null(strstr(page, want));
    /* Three residual rows, the file name escaped everywhere. */
    size_t rows = 0;
    for (const char *q = page; (q = strstr(q, "&lt;odd&gt;.csv:")); q++)
        rows++;
    assert_int_equal(rows, 3);
    assert_null(strstr(page, "<odd>"));
    assert_null(strstr(page, "id=\"holdout\""));
    assert_null(strstr(page, "id=\"budgets\""));
    free(page);

    ls_report_input none = in;
    none.fit = NULL;
    assert_null(ls_report_html(&none, &err));
    assert_int_equal(err.code, LS_ERR_DATA);
    ls_report_figures_free(&figures);
    ls_lawfile_free(lf);
    ls_sweep_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(report_base64_matches_rfc4648_vectors),
        cmocka_unit_test(report_numbers_are_plain_or_powers_of_ten),
        cmocka_unit_test(report_candidates_are_the_sweeps_experts_and_loops_up_to_its_largest),
        cmocka_unit_test(report_page_carries_the_fit_and_refuses_no_fit),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
