/* JSON Lines read as CSV records (jsonl_internal.h through csv_internal.h):
 * the header is every key in order of first appearance, nested keys joined
 * with '.', values as text, absent keys empty, and the format is chosen by
 * the name or the first byte. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "csv_internal.h"
#include "jsonl_internal.h"
#include "tmpfile.h"

static void expect_fields(const csv_field *f, size_t n, const char *const *want, size_t nwant)
{
    assert_int_equal(n, nwant);
    for (size_t i = 0; i < n; i++) {
        assert_int_equal(f[i].len, strlen(want[i]));
        assert_memory_equal(f[i].ptr, want[i], f[i].len);
    }
}

static void objects_become_a_header_and_records(void **state)
{
    (void)state;
    const char *text = "{\"run\": \"a\", \"cfg\": {\"model\": {\"R\": 2}}, \"eval/loss\": 2.5, \"tags\": [\"x\", 1, true]}\n"
                       "\n"
                       "{\"run\": \"b\", \"extra\": null, \"eval/loss\": 1e-3}\n";
    for (int gz = 0; gz < 2; gz++) {
        const char *path = write_temp_text(text, gz);
        ls_error err = {0};
        csv_reader *r = ls_csv_open(path, &err);
        assert_non_null(r);
        const csv_field *f;
        size_t n;
        assert_int_equal(ls_csv_next(r, &f, &n, &err), 1);
        const char *header[] = {"run", "cfg.model.R", "eval/loss", "tags", "extra"};
        expect_fields(f, n, header, 5);
        assert_int_equal(ls_csv_next(r, &f, &n, &err), 1);
        assert_int_equal(ls_csv_line(r), 1);
        const char *first[] = {"a", "2", "2.5", "x,1,true", ""};
        expect_fields(f, n, first, 5);
        assert_int_equal(ls_csv_next(r, &f, &n, &err), 1);
        assert_int_equal(ls_csv_line(r), 3);
        const char *second[] = {"b", "", "0.001", "", ""};
        expect_fields(f, n, second, 5);
        assert_int_equal(ls_csv_next(r, &f, &n, &err), 0);
        ls_csv_close(r);
        unlink(path);
    }
}

static void names_that_say_json_lines(void **state)
{
    (void)state;
    assert_true(ls_jsonl_name("runs.jsonl"));
    assert_true(ls_jsonl_name("runs.NDJSON"));
    assert_true(ls_jsonl_name("dir/runs.jsonl.gz"));
    assert_false(ls_jsonl_name("runs.json"));
    assert_false(ls_jsonl_name("runs.csv.gz"));
    assert_false(ls_jsonl_name(".jsonl"));
}

static void a_csv_file_stays_csv(void **state)
{
    (void)state;
    const char *path = write_temp_text("n_act,loss\n{1},2\n", 0);
    ls_error err = {0};
    csv_reader *r = ls_csv_open(path, &err);
    const csv_field *f;
    size_t n;
    assert_int_equal(ls_csv_next(r, &f, &n, &err), 1);
    const char *header[] = {"n_act", "loss"};
    expect_fields(f, n, header, 2);
    ls_csv_close(r);
    unlink(path);
}

static void syntax_errors_name_line_and_column(void **state)
{
    (void)state;
    const char *path = write_temp_text("{\"a\": 1}\n{\"a\": tru}\n", 0);
    ls_error err = {0};
    csv_reader *r = ls_csv_open(path, &err);
    const csv_field *f;
    size_t n;
    assert_int_equal(ls_csv_next(r, &f, &n, &err), LS_ERR_DATA);
    assert_non_null(strstr(err.message, ":2:7: not valid JSON"));
    ls_csv_close(r);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(objects_become_a_header_and_records),
        cmocka_unit_test(names_that_say_json_lines),
        cmocka_unit_test(a_csv_file_stays_csv),
        cmocka_unit_test(syntax_errors_name_line_and_column),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
