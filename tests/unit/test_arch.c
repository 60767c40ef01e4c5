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
#include "loopscale/lawfile.h"
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
    assert_non_null(strstr(err.message, "top_k: 0 is not an integer from 1 to 1000000000000"));
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


static ls_arch_template read_template(const char *text)
{
    ls_arch_template t;
    ls_arch_template_default(&t);
    ls_error err;
    if (ls_arch_template_parse(text, strlen(text), "t.json", &t, &err) != 0)
        fail_msg("%s", err.message);
    return t;
}

/* A model's shares, against hand counts of its d^2 parts.  Foil's Base:
 * attention 4 d^2 = 4,194,304 a set, experts 3 d 1536 = 4,718,592, top-2
 * (9,437,184 active a layer); 10 layers of 13,631,488 active; the block's 8
 * layers follow E, the prelude's and coda's 8 experts are fixed (6 more
 * stored than used, each), and every further loop stores 8 attention sets
 * again. */
static void a_models_shares_are_counted_by_hand(void **state)
{
    (void)state;
    ls_arch_template t = read_template(
        "{\"d_model\": 1024, \"d_expert\": 1536, \"top_k\": 2, \"vocab\": 49152, \"attention\": \"per-loop\","
        " \"experts\": 8, \"prelude_layers\": 1, \"prelude_experts\": 8, \"loop_layers\": 8, \"loops\": 2,"
        " \"coda_layers\": 1}");
    double act = 10 * 13631488.0;
    assert_true(t.has_shape);
    close_to(t.routed_share, 8 * 9437184.0 / act);
    close_to(t.fixed_share, 12 * 4718592.0 / act);
    close_to(t.per_loop_share, 8 * 4194304.0 / act);
    close_to(t.loop_share, 0.8);
    assert_int_equal(t.top_k, 2);
    /* N_total at E = 64, R = 16 (Foil-1 stored as a template of (8, 8, 2)
     * scaled: 8 layers of 64 experts, 16 loops of attention). */
    double n_total = ls_arch_n_total_at(&t, act, 64, 16);
    close_to(n_total, act + 8 * (64 - 2) * 4718592.0 + 12 * 4718592.0 + 15 * 8 * 4194304.0);
    /* The width follows N_act: 4 n_all / (N_act / d^2) puts d back at 1024. */
    ls_law_flops c;
    ls_arch_flops(&t, &c);
    ls_law_point x = ls_arch_point(&t, act, 8, 2, 0);
    close_to(ls_law_flops_width(&c, &x), 1024);

    /* looped nanochat at size 12: ReLU^2 MLP 2 d 4d, attention 4 d^2 (6
     * heads of 128), the adapter 2 d^2 in the loop: 8 x 12 + 2 = 98 d^2
     * active, 4 x 12 + 2 in the block; with E experts in every layer (the
     * template has none: it follows E) 8 x 8 d^2 routed; with a dense
     * prelude and coda, 4 x 8 d^2. */
#define NANOCHAT(more)                                                                                        \
    "{\"d_model\": 768, \"d_ff\": 3072, \"mlp\": \"relu2\", \"heads\": 6, \"vocab\": 65536, \"norms\": "            \
    "\"sandwich\", \"embedding_norm\": true, \"loop_norm\": true, \"injection\": \"concat\", \"prelude_layers\": 2, "  \
    "\"loop_layers\": 4, \"coda_layers\": 2" more "}"
    t = read_template(NANOCHAT(""));
    close_to(t.routed_share, 64.0 / 98);
    close_to(t.loop_share, 50.0 / 98);
    assert_true(t.fixed_share == 0 && t.per_loop_share == 0);
    t = read_template(NANOCHAT(", \"prelude_experts\": 1, \"coda_experts\": 1"));
    close_to(t.routed_share, 32.0 / 98);
    /* Grouped-query attention and shared experts: d h (2 heads + 2 kv) =
     * 2.5 d^2 with 8 heads, 2 key/value heads; SwiGLU 3 d 4d = 12 d^2, top-1
     * of E experts d_ff wide plus one shared expert as wide. */
    t = read_template("{\"d_model\": 512, \"d_ff\": 2048, \"heads\": 8, \"kv_heads\": 2, \"shared_experts\": 1,"
                      " \"prelude_layers\": 0, \"loop_layers\": 4, \"coda_layers\": 0}");
    close_to(t.routed_share, 12.0 / 26.5);
    close_to(t.loop_share, 1.0);
}

/* A model template reads back what it writes, its shares checked. */
static void a_model_template_round_trips(void **state)
{
    (void)state;
    ls_arch_template t;
    memset(&t, 0, sizeof t);
    ls_arch_template_default(&t);
    ls_error err;
    assert_int_equal(ls_arch_template_read(PROJECT_DATA_DIR "/templates/huginn.json", &t, &err), 0);
    char *text = ls_arch_template_to_json(&t, &err);
    assert_non_null(text);
    ls_arch_template back;
    memset(&back, 0, sizeof back);
    ls_arch_template_default(&back);
    assert_int_equal(ls_arch_template_parse(text, strlen(text), "back.json", &back, &err), 0);
    free(text);
    assert_memory_equal(&back, &t, sizeof t);
    assert_string_equal(t.name, "Huginn-0125");
}

/* A sweep drawn through a template of shares: the record finds them. */
static ls_sweep *sweep_through(const ls_arch_template *t, const double *E, size_t nE, const double *R, size_t nR)
{
    ls_sweep *s = calloc(1, sizeof *s);
    s->rows = calloc(3 * nE * nR, sizeof *s->rows);
    const double N[3] = {1.1e8, 3.7e8, 9.3e8};
    for (size_t a = 0; a < 3; a++)
        for (size_t e = 0; e < nE; e++)
            for (size_t r = 0; r < nR; r++) {
                ls_law_point x = ls_arch_point(t, N[a], E[e], R[r], 1e11);
                ls_sweep_row *row = &s->rows[s->n++];
                *row = (ls_sweep_row){x.n_act, nearbyint(x.n_total), nearbyint(x.n_loop), x.R, x.E, t->top_k,
                                      1e11, 2.5, NAN, 1, 0, 0, 0};
            }
    return s;
}

static void the_record_finds_the_runs_architecture(void **state)
{
    (void)state;
    ls_arch_template t;
    ls_arch_template_default(&t);
    t.top_k = 2;
    t.routed_share = 0.4375;
    t.fixed_share = 0.125;
    t.per_loop_share = 0.0625;
    t.loop_share = 0.6;
    const double E[] = {2, 4, 16, 64}, R[] = {1, 2, 8};
    ls_sweep *s = sweep_through(&t, E, 4, R, 3);
    ls_arch_record r;
    ls_error err;
    assert_int_equal(ls_arch_record_runs(s, NULL, &r, &err), 0);
    assert_int_equal(r.source, LS_ARCH_FROM_RUNS);
    assert_int_equal(r.assumed, 0);
    /* counts rounded to whole parameters: relative 1e-8 at 1e8 */
    assert_true(fabs(r.tmpl.routed_share - 0.4375) < 1e-8 && fabs(r.tmpl.fixed_share - 0.125) < 1e-8);
    assert_true(fabs(r.tmpl.per_loop_share - 0.0625) < 1e-8 && fabs(r.tmpl.loop_share - 0.6) < 1e-8);
    assert_true(r.residual_total < 1e-8 && r.residual_loop < 1e-8);
    assert_int_equal(r.nconfigs, 12);
    assert_true(r.configs[0].E == 2 && r.configs[0].R == 1 && r.configs[0].runs == 3);
    /* The same template, given, is recorded as it is, and compares equal. */
    ls_arch_record given;
    assert_int_equal(ls_arch_record_runs(s, &t, &given, &err), 0);
    assert_int_equal(given.source, LS_ARCH_FROM_TEMPLATE);
    ls_arch_difference d;
    ls_arch_compare(&t, &r, &d);
    assert_true(d.total < 1e-8 && d.loop < 1e-8);
    /* The default is farthest at E = 64, R = 1: it stores 1 + (2/3) 63
     * where the runs have 1 + 0.125 + 0.4375 x 31 (to their rounding). */
    ls_arch_template def;
    ls_arch_template_default(&def);
    ls_arch_compare(&def, &r, &d);
    double runs = 1 + 0.125 + 0.4375 * 31;
    assert_true(fabs(d.total - ((1 + 2.0 / 3.0 * 63) / runs - 1)) < 1e-8);
    assert_true(d.total_at->E == 64 && d.total_at->R == 1);
    assert_true(fabs(d.loop - (0.75 / 0.6 - 1)) < 1e-8);
    ls_arch_record_free(&r);
    ls_arch_record_free(&given);
    free(s->rows);
    free(s);

    /* One E (> k) and one R: the fixed and per-loop shares cannot be told
     * from the routed one, and are taken as 0. */
    const double one_E[] = {8}, one_R[] = {1};
    t.fixed_share = t.per_loop_share = 0;
    s = sweep_through(&t, one_E, 1, one_R, 1);
    assert_int_equal(ls_arch_record_runs(s, NULL, &r, &err), 0);
    assert_int_equal(r.assumed, LS_ARCH_ASSUMED_FIXED | LS_ARCH_ASSUMED_PER_LOOP);
    assert_true(fabs(r.tmpl.routed_share - 0.4375) < 1e-8);
    ls_arch_record_free(&r);
    free(s->rows);
    free(s);
    /* Drawn through the default: recorded as the default. */
    s = sweep_through(&def, E, 4, R, 3);
    assert_int_equal(ls_arch_record_runs(s, NULL, &r, &err), 0);
    assert_int_equal(r.source, LS_ARCH_FROM_DEFAULT);
    ls_arch_record_free(&r);
    free(s->rows);
    free(s);
}

/* The law file carries the record bit for bit. */
static void a_law_file_carries_the_architecture(void **state)
{
    (void)state;
    ls_error err;
    ls_lawfile *lf = ls_lawfile_default(&err);
    assert_non_null(lf);
    assert_true(lf->has_architecture);
    assert_int_equal(lf->architecture.source, LS_ARCH_FROM_DEFAULT);
    assert_int_equal(lf->architecture.nconfigs, 49); /* 7 E x 7 R */
    char *text = ls_lawfile_to_json(lf, &err);
    ls_lawfile *back = ls_lawfile_parse(text, strlen(text), "back.json", &err);
    free(text);
    assert_non_null(back);
    const ls_arch_record *a = &lf->architecture, *b = &back->architecture;
    assert_memory_equal(&a->tmpl, &b->tmpl, sizeof a->tmpl);
    assert_int_equal(a->nconfigs, b->nconfigs);
    for (size_t i = 0; i < a->nconfigs; i++)
        assert_memory_equal(&a->configs[i], &b->configs[i], sizeof a->configs[i]);
    assert_true(a->residual_total == b->residual_total && a->residual_loop == b->residual_loop);
    ls_lawfile_free(lf);
    ls_lawfile_free(back);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(default_template_is_the_papers_middle_cycle_looping),
        cmocka_unit_test(a_template_file_overrides_fields),
        cmocka_unit_test(bad_templates_are_refused),
        cmocka_unit_test(template_json_round_trips),
        cmocka_unit_test(template_carries_the_flops_convention),
        cmocka_unit_test(a_models_shares_are_counted_by_hand),
        cmocka_unit_test(a_model_template_round_trips),
        cmocka_unit_test(the_record_finds_the_runs_architecture),
        cmocka_unit_test(a_law_file_carries_the_architecture),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
