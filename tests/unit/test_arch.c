/* The architecture template: the default follows docs/solver.md and a file
 * overrides any field. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "checks.h"

#include "loopscale/arch.h"
#include "tmpfile.h"

static void default_template_is_the_papers_middle_cycle_looping(void **state)
{
    (void)state;
    ls_arch_template t;
    ls_arch_template_default(&t);
    assert_true(ls_arch_loop_fraction(&t) == 0.75);
    for (double E = 1; E <= 64; E *= 2) {
        double want = 2.385e8 * (1 + (2.0 / 3.0) * (E - 1));
        assert_true(fabs(ls_arch_n_total(&t, 2.385e8, E) - want) <= 1e-15 * want);
    }
    assert_true(ls_arch_n_total(&t, 2.385e8, 1) == 2.385e8);
    ls_law_point x = ls_arch_point(&t, 6e8, 8, 4, 2e11);
    assert_true(x.n_loop == 4.5e8 && x.R == 4 && x.E == 8 && x.D == 2e11);
}

static void a_template_file_overrides_fields(void **state)
{
    (void)state;
    ls_arch_template t;
    ls_arch_template_default(&t);
    const char *path = write_temp_text("{\"top_k\": 2, \"attention_share\": 0.25, \"loop_layers\": 8,"
                                       " \"prelude_layers\": 1, \"coda_layers\": 1}", 0);
    ls_error err;
    assert_int_equal(ls_arch_template_read(path, &t, &err), 0);
    unlink(path);
    assert_true(ls_arch_loop_fraction(&t) == 0.8);
    /* 0.25 + 0.75 * 16 / 2 = 6.25 */
    assert_true(fabs(ls_arch_n_total(&t, 1e9, 16) - 6.25e9) < 1);
    assert_true(ls_arch_n_total(&t, 1e9, 2) == 1e9);
}

static void bad_templates_are_refused(void **state)
{
    (void)state;
    ls_arch_template t;
    ls_arch_template_default(&t);
    ls_error err;
    const char *path = write_temp_text("{\"top_k\": 0}", 0);
    assert_int_equal(ls_arch_template_read(path, &t, &err), LS_ERR_DATA);
    assert_non_null(strstr(err.message, "top_k: expected an integer of at least 1"));
    unlink(path);
    path = write_temp_text("{\"attention_share\": 1.5}", 0);
    assert_int_equal(ls_arch_template_read(path, &t, &err), LS_ERR_DATA);
    unlink(path);
    path = write_temp_text("{\"top-k\": 4}", 0); /* a misspelt key is not ignored */
    assert_int_equal(ls_arch_template_read(path, &t, &err), LS_ERR_DATA);
    assert_non_null(strstr(err.message, "unknown key 'top-k'"));
    unlink(path);
    path = write_temp_text("{\"top_k\": 2", 0);
    assert_int_equal(ls_arch_template_read(path, &t, &err), LS_ERR_DATA);
    assert_non_null(strstr(err.message, "not valid JSON"));
    unlink(path);
    assert_int_equal(ls_arch_template_read("/nonexistent.json", &t, &err), LS_ERR_NOINPUT);
}

static void template_json_round_trips(void **state)
{
    (void)state;
    ls_arch_template t, back;
    memset(&t, 0, sizeof t); /* padding too, for the byte comparison */
    ls_arch_template_default(&t);
    ls_error err;
    char *text = ls_arch_template_to_json(&t, &err);
    assert_non_null(strstr(text, "\"loop_share\": 0.75"));
    assert_non_null(strstr(text, "\"flops_convention\": \"6nd\""));
    const char *path = write_temp_text(text, 0);
    free(text);
    memset(&back, 0, sizeof back);
    back.top_k = 7;
    assert_int_equal(ls_arch_template_read(path, &back, &err), 0);
    unlink(path);
    assert_memory_equal(&back, &t, sizeof t);
}

/* The FLOP convention and what it needs travel through a template file. */
static void template_carries_the_flops_convention(void **state)
{
    (void)state;
    ls_arch_template t, back;
    memset(&t, 0, sizeof t);
    ls_arch_template_default(&t);
    t.flops_convention = LS_LAW_FLOPS_6ND_ATTN_HEAD;
    t.context = 2048;
    t.vocab = 50304;
    t.d_model = 1536;
    ls_error err;
    char *text = ls_arch_template_to_json(&t, &err);
    assert_non_null(strstr(text, "\"flops_convention\": \"6nd+attn+head\""));
    const char *path = write_temp_text(text, 0);
    free(text);
    memset(&back, 0, sizeof back);
    ls_arch_template_default(&back);
    assert_int_equal(ls_arch_template_read(path, &back, &err), 0);
    unlink(path);
    assert_memory_equal(&back, &t, sizeof t);
    /* Under the template's convention, tokens and FLOPs invert each other,
     * and the convention adds to 6 N_unroll D exactly what law.h says. */
    ls_law_point x = ls_arch_point(&t, 3.85e8, 4, 3, 0);
    double F = 7.31e20;
    x.D = ls_arch_tokens_for_flops(&t, &x, F);
    close_to(ls_arch_training_flops(&t, &x), F);
    double layers = 2 + 3 * 12 + 2;
    double per_token = ls_law_n_unroll(&x) + layers * 2048 * 1536 + 1536 * 50304.0;
    close_to(ls_arch_inference_flops(&t, &x), 2 * per_token);
    /* Bad values are refused with the key named. */
    const char *bad[] = {"{\"flops_convention\": \"6ND\"}", "{\"context\": -1}", "{\"vocab\": \"50k\"}",
                         "{\"d_model\": -4}", "{\"d_model\": 1536.5}"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        ls_arch_template_default(&back);
        assert_int_equal(ls_arch_template_parse(bad[i], strlen(bad[i]), "t.json", &back, &err), LS_ERR_DATA);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(default_template_is_the_papers_middle_cycle_looping),
        cmocka_unit_test(a_template_file_overrides_fields),
        cmocka_unit_test(bad_templates_are_refused),
        cmocka_unit_test(template_json_round_trips),
        cmocka_unit_test(template_carries_the_flops_convention),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
