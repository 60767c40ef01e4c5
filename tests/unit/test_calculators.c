/* The calculators (shape, route, exit) as a library user runs them: a
 * request by option name, its result's text and JSON document.  Counts are
 * checked against Foil's accounting written out here, the router and
 * early-exit numbers against the examples worked by hand in
 * docs/calculators.md; messages name options as keyword arguments. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "command_internal.h"
#include "loopscale/command.h"
#include "checks.h"
#include "tmpfile.h"

/* Run `command` with options name=value (value NULL for a switch) and
 * operands; the result, and its status in *status. */
static ls_result *run(const char *command, const char *const *options, const char *const *operands, int *status,
                      ls_error *err)
{
    ls_request *req = ls_request_new(command, LS_FRONT_END_KEYWORDS, err);
    assert_non_null(req);
    for (size_t i = 0; options && options[i]; i += 2)
        assert_int_equal(ls_request_set(req, options[i], options[i + 1], err), 0);
    for (size_t i = 0; operands && operands[i]; i++)
        assert_int_equal(ls_request_add_operand(req, operands[i], strlen(operands[i]), err), 0);
    ls_result *res = NULL;
    *status = ls_command_run(req, &res, err);
    ls_request_free(req);
    assert_non_null(res);
    return res;
}

/* Foil's Base (E, D, L) = (8, 8, 2) with per-loop attention, d = 1024,
 * experts 1536 wide, top-2, one prelude and one coda layer of 8 experts:
 * the sweep row from the accounting identities, written out. */
static void shape_counts_foil_base_as_its_accounting_says(void **state)
{
    (void)state;
    const uint64_t d = 1024, w = 1536, attn = 4 * d * d, expert = 3 * d * w, router = d * 8;
    /* block once: 8 of its 16 sets, 2 experts and a router in each of 8
     * layers; head and tail: a set, 2 experts and a router each */
    uint64_t block_once = 8 * (attn + 2 * expert + router), edge_once = attn + 2 * expert + router;
    uint64_t n_act = block_once + 2 * edge_once;
    uint64_t n_total = 16 * attn + 8 * (8 * expert + router) + 2 * (attn + 8 * expert + router);
    char want[128];
    snprintf(want, sizeof want, "n_act,n_total,n_loop,R,E,k\n%llu,%llu,%llu,2,8,2\n", (unsigned long long)n_act,
             (unsigned long long)n_total, (unsigned long long)block_once);
    static const char *const options[] = {
        "d_model", "1024", "d_expert", "1536", "top_k", "2", "vocab", "49152", "head_layers", "1", "tail_layers", "1",
        "head_experts", "8", "experts", "8", "layers", "8", "loops", "2", "attention", "per-loop", "format", "csv",
        NULL};
    ls_error err;
    int status;
    ls_result *res = run("shape", options, NULL, &status, &err);
    assert_int_equal(status, 0);
    assert_string_equal(ls_result_text(res), want);
    /* The paper's 553.7M: the embedding and the LM head, 49,152 x 1024 each, on top. */
    char total[64];
    snprintf(total, sizeof total, "\"part\": \"total\",\n      \"stored\": %llu,",
             (unsigned long long)(n_total + 2 * 49152 * d));
    assert_non_null(strstr(ls_result_json(res), total));
    assert_non_null(strstr(ls_result_json(res), "\"format\": \"loopscale-shape/1\""));
    ls_result_free(res);
}

/* Options given override the shape file's values, and only those: the
 * table's defaults (loops 1, experts 1) do not. */
static void shape_options_override_the_file_and_defaults_do_not(void **state)
{
    (void)state;
    const char *path = write_temp_text("{\"d_model\": 512, \"d_ff\": 2048, \"vocab\": 32000, \"layers\": 4, "
                                       "\"loops\": 3}\n", 0);
    assert_non_null(path);
    char file[64];
    snprintf(file, sizeof file, "%s", path);
    /* A dense layer: attention 4 d^2 and a SwiGLU FFN 3 d d_ff. */
    const uint64_t layer = 4 * 512 * 512 + 3 * 512 * 2048;
    const char *const kept[] = {"shape", file, "format", "csv", NULL};
    const char *const more[] = {"shape", file, "loops", "5", "layers", "6", "format", "csv", NULL};
    char want[2][96];
    snprintf(want[0], sizeof want[0], "n_act,n_total,n_loop,R,E,k\n%llu,%llu,%llu,3,1,1\n",
             (unsigned long long)(4 * layer), (unsigned long long)(4 * layer), (unsigned long long)(4 * layer));
    snprintf(want[1], sizeof want[1], "n_act,n_total,n_loop,R,E,k\n%llu,%llu,%llu,5,1,1\n",
             (unsigned long long)(6 * layer), (unsigned long long)(6 * layer), (unsigned long long)(6 * layer));
    const char *const *sets[2] = {kept, more};
    for (int k = 0; k < 2; k++) {
        ls_error err;
        int status;
        ls_result *res = run("shape", sets[k], NULL, &status, &err);
        assert_int_equal(status, 0);
        assert_string_equal(ls_result_text(res), want[k]);
        ls_result_free(res);
    }
    unlink(file);
}

/* A keyword-argument front end reads its own option names in messages. */
static void messages_name_options_as_keyword_arguments(void **state)
{
    (void)state;
    ls_error err;
    ls_request *req = ls_request_new("shape", LS_FRONT_END_KEYWORDS, &err);
    assert_non_null(req);
    assert_int_equal(ls_request_set(req, "d_model", "0", &err), LS_ERR_USAGE);
    assert_string_equal(err.message, "d_model: '0' is outside [1, 1000000000000]");
    ls_request_free(req);

    static const char *const both[] = {"shape", "s.json", "loop", "2", NULL};
    static const char *const operands[] = {"three.csv", NULL};
    int status;
    ls_result *res = run("exit", both, operands, &status, &err);
    assert_int_equal(status, LS_ERR_USAGE);
    assert_string_equal(err.message, "give the costs by shape or by prelude, loop and coda, not both");
    ls_result_free(res);
}

/* Two tokens, two loops, one layer of four experts, top-1 (the example of
 * docs/calculators.md): pooled loads (1/4, 1/4, 1/2, 0) give B2 =
 * (1/4) / (3/8); the gaps between the largest and the second largest logit
 * average 2.625, so MMR = e^2.625. */
static void route_gives_the_hand_worked_example(void **state)
{
    (void)state;
    const char *path = write_temp_text("token,loop,layer,z0,z1,z2,z3\n0,1,1,2,0,1,-1\n0,2,1,0,3,0.5,0\n"
                                       "1,1,1,0,0,5,1\n1,2,1,0,0,5,2\n", 1);
    assert_non_null(path);
    char file[64];
    snprintf(file, sizeof file, "%s", path);
    const char *const options[] = {"top_k", "1", "format", "tsv", NULL};
    const char *const operands[] = {file, NULL};
    ls_error err;
    int status;
    ls_result *res = run("route", options, operands, &status, &err);
    assert_int_equal(status, 0);
    const char *row = strstr(ls_result_text(res), "\n1\tall\t");
    assert_non_null(row);
    char *end;
    double b2 = strtod(row + 7, &end), mmr = strtod(end + 1, &end), distinct = strtod(end + 1, &end);
    close_to(b2, 0.25 / 0.375);
    close_to(mmr, exp(2.625));
    close_to(distinct, 1.5);
    assert_non_null(strstr(ls_result_json(res), "\"format\": \"loopscale-route/1\""));
    ls_result_free(res);
    unlink(file);
}

/* Three tokens over three boundaries with only loops charged: a threshold
 * above every entropy stops every token at loop 1, saving 2/3; at 5% saved
 * the front mixes thresholds 0 and 0.3 with weight 0.05 / (2/9), so the
 * perplexity is exp(3.5/3 + 0.225 x 1/3). */
static void exit_gives_the_hand_worked_example(void **state)
{
    (void)state;
    const char *path = write_temp_text("token,loop,entropy,nll\n0,1,2,3\n0,2,1,2\n0,3,0.5,1\n1,1,0.25,1.5\n"
                                       "1,2,3,4\n1,3,0.125,0.5\n2,1,4,2\n2,2,4,2\n2,3,4,2\n", 0);
    assert_non_null(path);
    char file[64];
    snprintf(file, sizeof file, "%s", path);
    const char *const options[] = {"thresholds", "5,0.3", "at", "5", "format", "csv", NULL};
    const char *const operands[] = {file, NULL};
    ls_error err;
    int status;
    ls_result *res = run("exit", options, operands, &status, &err);
    assert_int_equal(status, 0);
    const char *text = ls_result_text(res);
    assert_true(strncmp(text, "threshold,saved,mean_loops,mean_nll,perplexity,pareto\n0,0,3,", 60) == 0);
    const char *last = strstr(text, "\n5,");
    assert_non_null(last);
    close_to(strtod(last + 3, NULL), 2.0 / 3);
    const char *json = ls_result_json(res), *at = strstr(json, "\"at_saved\"");
    assert_non_null(strstr(json, "\"format\": \"loopscale-exit/1\""));
    assert_non_null(at);
    const char *ppl = strstr(at, "\"perplexity\": ");
    assert_non_null(ppl);
    double w = 0.05 / (2.0 / 9);
    close_to(strtod(ppl + 14, NULL), exp(3.5 / 3 * (1 - w) + 1.5 * w));
    ls_result_free(res);
    unlink(file);
}

/* Operands named by their role in messages: the form with as many words as
 * operands, "..." for any number. */
static void operands_are_named_by_their_role(void **state)
{
    (void)state;
    cmd_def def = {0};
    char label[32];
    def.operands = "CSV|ENTROPY.npy NLL.npy";
    cmd_operand_label(&def, 0, 1, label, sizeof label);
    assert_string_equal(label, "CSV");
    cmd_operand_label(&def, 0, 2, label, sizeof label);
    assert_string_equal(label, "ENTROPY.npy");
    cmd_operand_label(&def, 1, 2, label, sizeof label);
    assert_string_equal(label, "NLL.npy");
    cmd_operand_label(&def, 2, 3, label, sizeof label); /* no form of 3: the first form's last word */
    assert_string_equal(label, "CSV");
    def.operands = "SWEEP...";
    cmd_operand_label(&def, 4, 5, label, sizeof label);
    assert_string_equal(label, "SWEEP");
    def.operands = NULL;
    cmd_operand_label(&def, 0, 1, label, sizeof label);
    assert_string_equal(label, "FILE");

    ls_error err;
    ls_request *req = ls_request_new("exit", LS_FRONT_END_KEYWORDS, &err);
    assert_non_null(req);
    assert_int_equal(ls_request_add_operand(req, "h.npy", 5, &err), 0);
    assert_int_equal(ls_request_add_operand(req, "", 0, &err), LS_ERR_USAGE);
    assert_string_equal(err.message, "NLL.npy: the file name is empty");
    ls_request_free(req);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(shape_counts_foil_base_as_its_accounting_says),
        cmocka_unit_test(shape_options_override_the_file_and_defaults_do_not),
        cmocka_unit_test(messages_name_options_as_keyword_arguments),
        cmocka_unit_test(route_gives_the_hand_worked_example),
        cmocka_unit_test(exit_gives_the_hand_worked_example),
        cmocka_unit_test(operands_are_named_by_their_role),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
