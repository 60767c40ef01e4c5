/* The serving side of the solver: the KV cache counted from a template's
 * heads against a hand count, answers that fit weights alone but not their
 * cache refused or changed, the cheapest configuration for a target loss
 * against Sardana et al.'s optimality condition, lifetime inference moving
 * the answer to cheaper tokens, and the quantisation penalty of Kumar et
 * al.'s form in the loss and in law files. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdlib.h>
#include <string.h>

#include "loopscale/lawfile.h"
#include "loopscale/solve.h"

/* A grouped-query model whose looped block keeps fewer KV heads than its
 * prelude and coda: 16 query heads of 128; 4 KV heads outside the block,
 * 2 inside. */
static const char GQA_TEMPLATE[] = "{\"format\": \"loopscale-template/1\", \"d_model\": 2048, \"d_ff\": 5632, "
                                   "\"heads\": 16, \"kv_heads\": 4, \"head_dim\": 128, \"loop_heads\": 16, "
                                   "\"loop_kv_heads\": 2, \"loop_head_dim\": 128, \"vocab\": 32000, "
                                   "\"prelude_layers\": 2, \"loop_layers\": 6, \"coda_layers\": 2}";

static void gqa(ls_arch_template *t)
{
    ls_error err;
    ls_arch_template_default(t);
    if (ls_arch_template_parse(GQA_TEMPLATE, strlen(GQA_TEMPLATE), "gqa.json", t, &err) != 0)
        fail_msg("%s", err.message);
}

/* The width the template scales to at N_act: the FLOP conventions' d =
 * sqrt(attention_share N_act / (4 n_all)), which is d_model at the
 * template's own quadratic N_act. */
static double n_act_at_width(const ls_arch_template *t, double d)
{
    double n_all = t->prelude_layers + t->loop_layers + t->coda_layers;
    return 4.0 * n_all * d * d / t->attention_share;
}

/* Hand count at the template's width: every attention layer a token runs
 * through keeps K and V of kv_heads x head_dim each; the looped block's six
 * layers run R times, the two prelude and two coda layers once. */
static void the_kv_cache_counts_every_pass_of_every_attention_layer(void **state)
{
    (void)state;
    ls_arch_template t;
    gqa(&t);
    assert_true(t.has_shape);
    double n = n_act_at_width(&t, 2048);
    for (double R = 1; R <= 8; R++) {
        double hand = 2.0 * (2 * 4 * 128 + R * 6 * 2 * 128 + 2 * 4 * 128);
        double got = ls_arch_kv_per_token(&t, n, R);
        if (fabs(got - hand) > 1e-9 * hand)
            fail_msg("R = %g: %.10g elements a token, by hand %.10g", R, got, hand);
    }
    /* Four times N_act doubles the width, and with it the head sizes. */
    assert_true(fabs(ls_arch_kv_per_token(&t, 4 * n, 3) - 2 * ls_arch_kv_per_token(&t, n, 3)) <
                1e-9 * ls_arch_kv_per_token(&t, n, 3));
    /* A template of shares has no heads: K and V as wide as the model. */
    ls_arch_template shares;
    ls_arch_template_default(&shares);
    double d = 1536, m = n_act_at_width(&shares, d);
    assert_true(fabs(ls_arch_kv_per_token(&shares, m, 4) - 2 * d * (2 + 4 * 12 + 2)) < 1e-6);
}

static ls_law truth(void)
{
    ls_error err;
    ls_lawfile *lf = ls_lawfile_default(&err);
    assert_non_null(lf);
    ls_law l = lf->law;
    ls_lawfile_free(lf);
    return l;
}

static const double R_LIST[] = {1, 2, 3, 4, 6, 8, 12, 16}, E_LIST[] = {1, 2, 4, 8, 16, 32, 64};

/* solve --context 8192 --batch 8: the chosen configuration's memory is its
 * weights plus its cache, counted by hand from the template; the answer of
 * weights alone no longer fits and is changed; a cache no model leaves room
 * for is refused. */
static void the_memory_budget_holds_weights_and_cache(void **state)
{
    (void)state;
    ls_law l = truth();
    ls_arch_template t;
    gqa(&t);
    ls_solve_options o = {.R = R_LIST, .nR = 8, .E = E_LIST, .nE = 7, .eps = 0.004};
    ls_solve_budget weights = {.flops = 1e22, .mem_bytes = 3e9, .bits = 4};
    ls_solve_budget served = weights;
    served.context = 8192;
    served.batch = 8;
    served.kv_bits = 16;
    ls_solve_result a, b;
    ls_error err;
    assert_int_equal(ls_solve_run(&l, &t, &weights, &o, &a, &err), 0);
    assert_int_equal(ls_solve_run(&l, &t, &served, &o, &b, &err), 0);
    assert_true(a.has_choice && b.has_choice);
    const ls_solve_candidate *c = &b.choice;
    double d = sqrt(t.attention_share * c->n_act / (4.0 * 10)), scale = d / 2048;
    double per_token = 2 * (2 * 4 * 128 * scale + c->R * 6 * 2 * 128 * scale + 2 * 4 * 128 * scale);
    double hand = 8192.0 * 8 * per_token * 16 / 8;
    if (fabs(c->kv_bytes - hand) > 1e-9 * hand)
        fail_msg("KV cache %.10g bytes, by hand %.10g", c->kv_bytes, hand);
    assert_true(fabs(c->memory_bytes - (4 * c->n_total / 8 + hand)) <= 1e-9 * c->memory_bytes);
    assert_true(c->memory_bytes <= 3e9 * (1 + 1e-12));
    /* Weights alone filled the 3 GB; their cache would not fit beside them. */
    double old_cache = 8192.0 * 8 * ls_arch_kv_per_token(&t, a.choice.n_act, a.choice.R) * 2;
    assert_true(a.choice.weight_bytes + old_cache > 3e9);
    assert_true(a.choice.R != c->R || a.choice.E != c->E || fabs(a.choice.n_act - c->n_act) > 1e-3 * c->n_act);
    for (size_t i = 0; i < b.ncandidates; i++)
        if (b.candidates[i].feasible)
            assert_true(b.candidates[i].memory_bytes <= 3e9 * (1 + 1e-12));
    ls_solve_result_free(&a);
    ls_solve_result_free(&b);
    /* A cache of a hundred million tokens for 1000 sequences leaves no
     * room even for a model of a thousand parameters. */
    served.context = 1e8;
    served.batch = 1000;
    assert_int_equal(ls_solve_run(&l, &t, &served, &o, &b, &err), 0);
    assert_false(b.has_choice);
    ls_solve_result_free(&b);
}

/* Sardana et al. 2024 under Chinchilla's dense law L = A N^-alpha + B D^-beta
 * + c: minimise 6 N D + 2 N T subject to L(N, D) = l.  With a = A N^-alpha
 * and b = B D^-beta, the Lagrange conditions 6 D + 2 T = lambda alpha a / N
 * and 6 N = lambda beta b / D give
 *     alpha a = beta b (1 + T / (3 D)),   a + b = l - c,
 * one equation in D, increasing in D (b falls, the factor falls), solved
 * here by bisection; N = (A / a)^(1/alpha).  At T = 0 it is closed:
 * b = alpha (l - c) / (alpha + beta). */
static void sardana_closed_form(double A, double alpha, double B, double beta, double c, double l, double T,
                                double *n, double *d)
{
    double lo = log(B / (l - c)) / beta, hi = lo + 200; /* ln D: b = l - c at lo */
    for (int k = 0; k < 400; k++) {
        double mid = 0.5 * (lo + hi), D = exp(mid), b = B * exp(-beta * mid);
        double g = alpha * (l - c - b) - beta * b * (1 + T / (3 * D));
        if (g > 0)
            hi = mid;
        else
            lo = mid;
    }
    *d = exp(0.5 * (lo + hi));
    *n = pow(A / (l - c - B * pow(*d, -beta)), 1 / alpha);
}

static void the_cheapest_configuration_is_sardanas_optimum(void **state)
{
    (void)state;
    ls_law l;
    ls_law_init(&l, (ls_law_kind){LS_LAW_BASE_DENSE, LS_LAW_MAPPING_NONE});
    l.p[LS_LAW_P_A] = 406.4, l.p[LS_LAW_P_ALPHA] = 0.3392;
    l.p[LS_LAW_P_B] = 410.7, l.p[LS_LAW_P_BETA] = 0.2849, l.p[LS_LAW_P_C] = 1.6934;
    ls_arch_template t;
    ls_arch_template_default(&t);
    const double one = 1;
    ls_solve_options o = {.R = &one, .nR = 1, .E = &one, .nE = 1, .eps = 0};
    const double targets[] = {2.385, 2.17, 2.0113}, tokens[] = {0, 2.3e11, 7.7e13, 4.1e15};
    for (size_t i = 0; i < 3; i++)
        for (size_t k = 0; k < 4; k++) {
            ls_solve_budget b = {.flops = NAN, .mem_bytes = INFINITY, .bits = 16, .target_loss = targets[i],
                                 .inference_tokens = tokens[k]};
            ls_solve_result r;
            ls_error err;
            assert_int_equal(ls_solve_run(&l, &t, &b, &o, &r, &err), 0);
            assert_true(r.has_choice && r.costed);
            double n, d;
            sardana_closed_form(406.4, 0.3392, 410.7, 0.2849, 1.6934, targets[i], tokens[k], &n, &d);
            if (tokens[k] == 0) { /* the closed form itself */
                double bb = 0.3392 * (targets[i] - 1.6934) / (0.3392 + 0.2849);
                assert_true(fabs(d - pow(410.7 / bb, 1 / 0.2849)) < 1e-9 * d);
            }
            if (fabs(r.choice.n_act - n) > 1e-6 * n || fabs(r.choice.tokens - d) > 1e-6 * d)
                fail_msg("l = %g, T = %g: N %.10g D %.10g; Sardana et al. N %.10g D %.10g", targets[i], tokens[k],
                         r.choice.n_act, r.choice.tokens, n, d);
            assert_true(fabs(r.choice.loss - targets[i]) < 1e-9);
            assert_true(fabs(r.choice.training_flops - 6 * n * d) < 1e-5 * 6 * n * d);
            assert_true(fabs(r.choice.serving_flops - 2 * r.choice.n_act * tokens[k]) <= 1e-12 * (1 + r.choice.serving_flops));
            ls_solve_result_free(&r);
        }
}

/* The more tokens the model serves, the cheaper a token it is worth
 * training: the choice's inference FLOPs per token never grow with T, and
 * at the largest T it has fewer loops or a smaller N_act than at the
 * smallest; every answer reaches the best loss within epsilon inside the
 * training budget, and costs no more than spending the whole budget. */
static void lifetime_inference_moves_the_answer_to_cheaper_tokens(void **state)
{
    (void)state;
    ls_law l = truth();
    ls_arch_template t;
    ls_arch_template_default(&t);
    ls_solve_options o = {.R = R_LIST, .nR = 8, .E = E_LIST, .nE = 7, .eps = 0.004};
    const double T[] = {1e9, 1e11, 1e13, 1e15};
    double last = INFINITY, first_R = 0, first_n = 0;
    for (size_t k = 0; k < 4; k++) {
        ls_solve_budget b = {.flops = 1e22, .mem_bytes = 3e9, .bits = 4, .inference_tokens = T[k]};
        ls_solve_result r;
        ls_error err;
        assert_int_equal(ls_solve_run(&l, &t, &b, &o, &r, &err), 0);
        assert_true(r.has_choice);
        const ls_solve_candidate *c = &r.choice;
        assert_true(c->inference_flops <= last * (1 + 1e-9));
        last = c->inference_flops;
        assert_true(c->loss <= r.best.loss + 0.004 + 1e-9);
        assert_true(c->training_flops <= 1e22 * (1 + 1e-9));
        assert_true(c->training_flops + c->serving_flops <=
                    (r.best.training_flops + r.best.serving_flops) * (1 + 1e-9));
        /* With no memory limit the same target costs no more. */
        assert_true(r.unconstrained.training_flops + r.unconstrained.serving_flops <=
                    (c->training_flops + c->serving_flops) * (1 + 1e-9));
        if (k == 0)
            first_R = c->R, first_n = c->n_act;
        else if (k == 3)
            assert_true(c->R < first_R || c->n_act < first_n * (1 - 1e-3));
        ls_solve_result_free(&r);
    }
}

/* Kumar et al.'s penalty is its formula; in a solve it is added to the loss
 * of the weights below the trained precision, and nothing at it. */
static void the_quantisation_penalty_is_added_below_the_trained_precision(void **state)
{
    (void)state;
    ls_law_quant q = {.c_t = 0.0713, .gamma_d = 0.513, .gamma_n = 0.487, .gamma_post = 0.731, .trained_bits = 16};
    double n = 3.7e8, d = 2.9e10;
    double hand = 0.0713 * pow(d, 0.513) / pow(n, 0.487) * exp(-3.0 / 0.731);
    assert_true(fabs(ls_law_quant_penalty(&q, n, d, 3) - hand) < 1e-13 * hand);
    assert_true(ls_law_quant_penalty(&q, n, d, 16) == 0);
    assert_true(ls_law_quant_penalty(NULL, n, d, 3) == 0);
    /* More tokens per parameter, more fragile weights. */
    assert_true(ls_law_quant_penalty(&q, n, 10 * d, 4) > ls_law_quant_penalty(&q, n, d, 4));

    ls_law l = truth();
    ls_arch_template t;
    ls_arch_template_default(&t);
    ls_solve_options o = {.R = R_LIST, .nR = 8, .E = E_LIST, .nE = 7, .eps = 0.004, .quant = &q};
    ls_solve_budget b = {.flops = 1e22, .mem_bytes = 3e9, .bits = 4};
    ls_solve_result r;
    ls_error err;
    assert_int_equal(ls_solve_run(&l, &t, &b, &o, &r, &err), 0);
    assert_true(r.quantised && r.has_choice);
    const ls_solve_candidate *c = &r.choice;
    ls_law_point x = ls_arch_point(&t, c->n_act, c->E, c->R, c->tokens);
    double penalty = ls_law_quant_penalty(&q, c->n_total, c->tokens, 4);
    assert_true(penalty > 0 && fabs(c->quant_penalty - penalty) < 1e-12 * penalty);
    assert_true(fabs(c->loss - (ls_law_loss(&l, &x) + penalty)) < 1e-9 * c->loss);
    ls_solve_result_free(&r);
    b.bits = 16;
    assert_int_equal(ls_solve_run(&l, &t, &b, &o, &r, &err), 0);
    assert_false(r.quantised);
    assert_true(r.choice.quant_penalty == 0);
    ls_solve_result_free(&r);
}

/* With a penalty, which grows with D while the law's loss falls with it, a
 * large budget's lowest loss trains on fewer tokens than F pays for: the D
 * chosen is where the total loss stops falling (its derivative in ln D is
 * zero by central differences), and a larger budget buys no higher loss. */
static void a_penalty_trains_on_the_tokens_that_give_the_lowest_loss(void **state)
{
    (void)state;
    ls_law_quant q = {.c_t = 0.0713, .gamma_d = 0.513, .gamma_n = 0.487, .gamma_post = 0.731, .trained_bits = 16};
    ls_law l = truth();
    ls_arch_template t;
    ls_arch_template_default(&t);
    double R[] = {1}, E[] = {1};
    ls_solve_options o = {.R = R, .nR = 1, .E = E, .nE = 1, .eps = 0, .quant = &q};
    double last = INFINITY;
    for (double flops = 1e22; flops <= 1e27; flops *= 10) {
        ls_solve_budget b = {.flops = flops, .mem_bytes = 4e8, .bits = 3};
        ls_solve_result r;
        ls_error err;
        assert_int_equal(ls_solve_run(&l, &t, &b, &o, &r, &err), 0);
        const ls_solve_candidate *c = &r.best;
        assert_true(c->loss <= last * (1 + 1e-12));
        last = c->loss;
        ls_law_point x = ls_arch_point(&t, c->n_act, c->E, c->R, c->tokens);
        double all = ls_law_tokens_for_flops(&x, flops);
        if (flops >= 1e25) {
            assert_true(c->tokens < 0.5 * all);
            double h = 1e-4, loss[2];
            for (int k = 0; k < 2; k++) {
                x.D = c->tokens * exp(k ? h : -h);
                loss[k] = ls_law_loss(&l, &x) + ls_law_quant_penalty(&q, c->n_total, x.D, 3);
            }
            assert_true(fabs(loss[1] - loss[0]) / (2 * h) < 1e-6);
        }
        ls_solve_result_free(&r);
    }
}

/* A law file's "quantisation" reads back bit for bit, and one out of its
 * domain is refused naming the key. */
static void a_law_file_keeps_its_quantisation_penalty(void **state)
{
    (void)state;
    ls_error err;
    ls_lawfile *lf = ls_lawfile_default(&err);
    assert_non_null(lf);
    assert_false(lf->has_quant);
    lf->has_quant = 1;
    lf->quant = (ls_law_quant){.c_t = 0.0713, .gamma_d = 0.513, .gamma_n = 0.487, .gamma_post = 0.731,
                               .trained_bits = 16};
    lf->quant_runs = 37;
    lf->quant_rmse = 0.0021;
    char *text = ls_lawfile_to_json(lf, &err);
    assert_non_null(text);
    ls_lawfile *back = ls_lawfile_parse(text, strlen(text), "back.json", &err);
    assert_non_null(back);
    assert_true(back->has_quant);
    assert_memory_equal(&back->quant, &lf->quant, sizeof lf->quant);
    assert_int_equal(back->quant_runs, 37);
    assert_true(back->quant_rmse == 0.0021);
    char *again = ls_lawfile_to_json(back, &err);
    assert_string_equal(again, text);
    free(again);
    ls_lawfile_free(back);
    char *bad = strstr(text, "\"gamma_post\": 0.731");
    assert_non_null(bad);
    memcpy(bad + strlen("\"gamma_post\": "), "-0.70", strlen("0.731"));
    assert_null(ls_lawfile_parse(text, strlen(text), "bad.json", &err));
    assert_non_null(strstr(err.message, "quantisation"));
    assert_non_null(strstr(err.message, "gamma_post"));
    free(text);
    ls_lawfile_free(lf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(the_kv_cache_counts_every_pass_of_every_attention_layer),
        cmocka_unit_test(the_memory_budget_holds_weights_and_cache),
        cmocka_unit_test(the_cheapest_configuration_is_sardanas_optimum),
        cmocka_unit_test(lifetime_inference_moves_the_answer_to_cheaper_tokens),
        cmocka_unit_test(the_quantisation_penalty_is_added_below_the_trained_precision),
        cmocka_unit_test(a_penalty_trains_on_the_tokens_that_give_the_lowest_loss),
        cmocka_unit_test(a_law_file_keeps_its_quantisation_penalty),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
