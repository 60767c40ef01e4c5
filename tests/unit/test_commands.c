/* The commands that read a law file, through the library's command layer
 * (loopscale/command.h) as any front end calls them: what standard output
 * shows agrees with the library's computation, the JSON document is set,
 * warnings are data, the sweep streams through a writer, files are only
 * handed over, and sizes beyond the limits are refused before any work. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "loopscale/command.h"
#include "loopscale/lawfile.h"
#include "loopscale/solve.h"

#define TRUTH PROJECT_DATA_DIR "/truth/moe-bounded-sparse.json"

/* A request for command with options name=value (value NULL: a switch),
 * ended by NULL; the request's front end spells options as keywords. */
static ls_request *request(const char *command, ...)
{
    ls_error err;
    ls_request *r = ls_request_new(command, LS_FRONT_END_KEYWORDS, &err);
    assert_non_null(r);
    va_list ap;
    va_start(ap, command);
    for (const char *name; (name = va_arg(ap, const char *)) != NULL;) {
        const char *value = va_arg(ap, const char *);
        if (ls_request_set(r, name, value, &err) != 0)
            fail_msg("%s=%s: %s", name, value ? value : "", err.message);
    }
    va_end(ap);
    return r;
}

static ls_result *run_ok(const ls_request *r)
{
    ls_result *res = NULL;
    ls_error err;
    if (ls_command_run(r, &res, &err) != 0)
        fail_msg("%s", err.message);
    return res;
}

/* Each IsoFLOP minimum and point of the CSV is the library's, to the last
 * digit, and the JSON document is set whatever the format. */
static void isoflop_prints_the_librarys_profiles(void **state)
{
    (void)state;
    ls_request *r = request("isoflop", "law", TRUTH, "flops", "2.3e20,7.1e21", "E", "1,8", "R", "1,3", "points", "5",
                            "format", "csv", NULL);
    ls_result *res = run_ok(r);
    ls_error err;
    ls_lawfile *lf = ls_lawfile_read(TRUTH, &err);
    assert_non_null(lf);
    ls_arch_template t;
    ls_arch_template_default(&t);
    const double F[] = {2.3e20, 7.1e21}, E[] = {1, 8}, R[] = {1, 3};
    ls_solve_isoflop_result iso;
    ls_law_ranges ranges;
    ls_lawfile_ranges(lf, &ranges);
    assert_int_equal(ls_solve_isoflop_run(&lf->law, &t, F, 2, E, 2, R, 2, 5, &ranges, &iso, &err), 0);
    const char *text = ls_result_text(res);
    size_t rows = 0;
    for (const char *line = strchr(text, '\n') + 1; *line; line = strchr(line, '\n') + 1, rows++) {
        double f, e, rr, n, d, loss;
        int is_min;
        assert_int_equal(sscanf(line, "%lf,%lf,%lf,%lf,%lf,%lf,%d", &f, &e, &rr, &n, &d, &loss, &is_min), 7);
        size_t i = rows / 6, k = rows % 6; /* 5 points and the minimum per profile */
        const ls_solve_isoflop_curve *c = &iso.curves[i];
        assert_true(f == c->flops && e == c->E && rr == c->R);
        size_t before = 0; /* points printed before the minimum */
        while (before < 5 && c->n_act[before] <= c->minimum.n_act)
            before++;
        if (is_min) {
            assert_int_equal(k, before);
            assert_true(n == c->minimum.n_act && d == c->minimum.tokens && loss == c->minimum.loss);
        } else {
            size_t p = k < before ? k : k - 1;
            assert_true(n == c->n_act[p] && d == c->tokens[p] && loss == c->loss[p]);
        }
    }
    assert_int_equal(rows, 8 * 6);
    assert_non_null(strstr(ls_result_json(res), "\"format\": \"loopscale-isoflop/1\""));
    ls_solve_isoflop_result_free(&iso);
    ls_lawfile_free(lf);
    ls_result_free(res);
    ls_request_free(r);

    /* The table shows the minima; the document holds them without points,
     * and a minimum beyond the fitted ranges is a warning with a code. */
    r = request("isoflop", "flops", "1e24", NULL);
    res = run_ok(r);
    assert_non_null(strstr(ls_result_text(res), "1e+24*"));
    assert_null(strstr(ls_result_json(res), "\"points\""));
    /* The default law's own verdict first (its E_max), then the answer's. */
    assert_int_equal(ls_result_warning_count(res), 2);
    const ls_warning *w = ls_result_warning(res, 0);
    assert_int_equal(w->code, LS_WARNING_LAW);
    assert_string_equal(w->subject, "the default law");
    assert_non_null(strstr(w->message, "the default law's fit: E_max = "));
    w = ls_result_warning(res, 1);
    assert_int_equal(w->code, LS_WARNING_EXTRAPOLATION);
    assert_string_equal(w->subject, "minima");
    assert_int_equal(ls_result_note_count(res), 1); /* the default law */
    ls_result_free(res);
    ls_request_free(r);
}

/* A message names an option as the front end spells it. */
static void messages_name_options_as_keywords(void **state)
{
    (void)state;
    ls_request *r = request("isoflop", NULL);
    ls_result *res = NULL;
    ls_error err;
    assert_int_equal(ls_command_run(r, &res, &err), LS_ERR_USAGE);
    assert_string_equal(err.message, "give the compute budgets with flops F1,F2,... or flops LO:HI:N");
    ls_result_free(res);
    ls_request_free(r);
    /* The same where the sweep reader, below the command layer, wrote
     * "--last" and "--run COL". */
    r = request("predict", "law", TRUTH, "last", NULL, NULL);
    const char *sweep = PROJECT_DATA_DIR "/sweeps/looped-dense.csv.gz";
    assert_int_equal(ls_request_add_operand(r, sweep, strlen(sweep), &err), 0);
    assert_int_equal(ls_command_run(r, &res, &err), LS_ERR_USAGE);
    assert_non_null(strstr(err.message, "last: "));
    assert_non_null(strstr(err.message, "or name one with run COL)"));
    assert_null(strstr(err.message, "--"));
    ls_result_free(res);
    ls_request_free(r);
}

/* Budgets are reported in increasing F whatever the order given, and a
 * solve option switches the frontier to solve's choice at each budget. */
static void frontier_sorts_the_budgets_and_switches_to_solve(void **state)
{
    (void)state;
    ls_request *r = request("frontier", "law", TRUTH, "flops", "1e22,3e20,1e21", "format", "csv", NULL);
    ls_result *res = run_ok(r);
    const char *text = ls_result_text(res);
    const char *a = strstr(text, "\n3e+20,"), *b = strstr(text, "\n1e+21,"), *c = strstr(text, "\n1e+22,");
    assert_true(a && b && c && a < b && b < c);
    assert_null(strstr(ls_result_json(res), "\"bound\""));
    ls_result_free(res);
    ls_request_free(r);
    r = request("frontier", "law", TRUTH, "flops", "1e22,3e20,1e21", "E", "1,4", "eps", "0", "format", "json", NULL);
    res = run_ok(r);
    assert_string_equal(ls_result_text(res), ls_result_json(res));
    assert_non_null(strstr(ls_result_json(res), "\"bound\""));
    ls_result_free(res);
    ls_request_free(r);
}

typedef struct captured {
    char *text;
    size_t len, calls;
} captured;

static int capture(void *context, const char *data, size_t len)
{
    captured *c = context;
    c->text = realloc(c->text, c->len + len + 1);
    assert_non_null(c->text);
    memcpy(c->text + c->len, data, len);
    c->len += len;
    c->text[c->len] = '\0';
    c->calls++;
    return 0;
}

/* The sweep is the same through the front end's writer, in the result's
 * text, or handed over as a file, which only the commit writes. */
static void simulate_streams_or_hands_over_the_same_sweep(void **state)
{
    (void)state;
    static char sizes[8000];
    for (int i = 0, used = 0; i < 400; i++)
        used += snprintf(sizes + used, sizeof sizes - (size_t)used, "%s%.0f", i ? "," : "", 1e8 + 1e6 * i);
    ls_request *r = request("simulate", "law", TRUTH, "n_act", sizes, "tokens", "1e11,2e11", "E", "1,4",
                            "noise", "0.01", "seed", "3", NULL);
    ls_result *res = run_ok(r);
    char *kept = strdup(ls_result_text(res));
    ls_result_free(res);
    captured c = {0};
    ls_request_set_writer(r, capture, &c);
    res = run_ok(r);
    assert_string_equal(ls_result_text(res), "");
    assert_string_equal(c.text, kept);
    assert_true(c.calls > 1); /* 1,600 runs, about 130 kB, in pieces */
    ls_result_free(res);
    ls_request_free(r);

    char path[64];
    snprintf(path, sizeof path, "/tmp/loopscale-test-commands-%d.csv", (int)getpid());
    r = request("simulate", "law", TRUTH, "n_act", sizes, "tokens", "1e11,2e11", "E", "1,4", "noise", "0.01", "seed",
                "3", "output", path, NULL);
    res = run_ok(r);
    assert_string_equal(ls_result_text(res), "");
    assert_int_equal(ls_result_output_count(res), 1);
    assert_int_equal(access(path, F_OK), -1); /* nothing written before the commit */
    ls_error err;
    assert_int_equal(ls_result_commit(res, &err), 0);
    FILE *fp = fopen(path, "r");
    assert_non_null(fp);
    char *file = calloc(1, strlen(kept) + 2);
    assert_int_equal(fread(file, 1, strlen(kept) + 1, fp), strlen(kept));
    fclose(fp);
    assert_string_equal(file, kept);
    unlink(path);
    free(file);
    free(kept);
    free(c.text);
    ls_result_free(res);
    ls_request_free(r);

    /* More runs than a sweep may have: refused before any work. */
    r = request("simulate", "law", TRUTH, "n_act", sizes, "tokens", sizes, "E", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16",
                "R", "1,2,3,4", NULL);
    res = NULL;
    assert_int_equal(ls_command_run(r, &res, &err), LS_ERR_USAGE);
    assert_string_equal(err.message, "n_act, tokens, E and R make 10240000 runs; a sweep has at most 10000000");
    assert_int_equal(ls_result_message_count(res), 0);
    ls_result_free(res);
    ls_request_free(r);
}

typedef struct progress_seen {
    size_t calls, last_done, last_total;
    int other_stage;
} progress_seen;

static void on_progress(void *context, const char *what, size_t done, size_t total)
{
    progress_seen *p = context;
    p->calls++;
    p->other_stage |= strcmp(what, "simulated sweeps") != 0;
    assert_true(done <= total);
    p->last_done = done;
    p->last_total = total;
}

/* Validation reports its progress through the request; the runs are a
 * file handed over and the summary is the text; a grid too large is
 * refused before any candidate is made. */
static void plan_reports_progress_and_hands_over_the_runs(void **state)
{
    (void)state;
    ls_request *r = request("plan", "budget", "5e20", "flops", "1e22", "n_act", "1e8,3e8,1e9", "tokens",
                            "1e10,3e10,1e11", "E", "1,4,16", "R", "1,2,4", "search", "0", "draws", "20", "validate",
                            "2", "threads", "1", "output",
                            "/tmp/loopscale-test-never-written.csv", NULL);
    progress_seen p = {0};
    ls_request_set_progress(r, on_progress, &p);
    ls_result *res = run_ok(r);
    assert_true(p.calls >= 1);
    assert_false(p.other_stage);
    assert_int_equal(p.last_done, p.last_total);
    assert_int_equal(p.last_total, 3 * 2); /* three designs, two sweeps each */
    assert_non_null(strstr(ls_result_text(res), "validation 2 simulated sweeps of each design"));
    assert_int_equal(ls_result_output_count(res), 1);
    assert_string_equal(ls_result_output_path(res, 0), "/tmp/loopscale-test-never-written.csv");
    assert_int_equal(access("/tmp/loopscale-test-never-written.csv", F_OK), -1);
    ls_result_free(res);
    ls_request_free(r);

    static char many[8000];
    for (int i = 0, used = 0; i < 300; i++)
        used += snprintf(many + used, sizeof many - (size_t)used, "%s%.0f", i ? "," : "", 1e8 + 1e7 * i);
    r = request("plan", "budget", "1e21", "flops", "1e22", "n_act", many, "tokens", many, "output", "runs.csv", NULL);
    ls_error err;
    res = NULL;
    assert_int_equal(ls_command_run(r, &res, &err), LS_ERR_USAGE);
    assert_string_equal(err.message, "n_act, tokens, E and R make 3150000 candidates; a plan weighs at most 100000");
    ls_result_free(res);
    ls_request_free(r);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(isoflop_prints_the_librarys_profiles),
        cmocka_unit_test(messages_name_options_as_keywords),
        cmocka_unit_test(frontier_sorts_the_budgets_and_switches_to_solve),
        cmocka_unit_test(simulate_streams_or_hands_over_the_same_sweep),
        cmocka_unit_test(plan_reports_progress_and_hands_over_the_runs),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
