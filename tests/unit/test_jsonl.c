/* JSON Lines read as CSV records (jsonl_internal.h through csv_internal.h):
 * the header is every key in order of first appearance, nested keys joined
 * with '.', values as text, absent keys empty, and the format is chosen by
 * the name or the first byte.  The input is streamed twice with a bound on
 * a line and on the objects: an endless line or an endless stream of lines
 * is refused after reading at most that much. */
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
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


/* A source that gives `head` once, then `unit` over and over, counting the
 * bytes it gave; rewinding starts it again. */
typedef struct endless {
    const char *head, *unit;
    size_t given, pos;
} endless;

static int endless_read(void *ctx, char *dst, size_t cap, size_t *n, ls_error *err)
{
    (void)err;
    endless *e = ctx;
    size_t hl = strlen(e->head), ul = strlen(e->unit);
    for (*n = 0; *n < cap; (*n)++, e->pos++) {
        size_t at = e->pos;
        dst[*n] = at < hl ? e->head[at] : e->unit[(at - hl) % ul];
    }
    e->given += *n;
    return 0;
}

static int endless_rewind(void *ctx, ls_error *err)
{
    (void)err;
    ((endless *)ctx)->pos = 0;
    return 0;
}

static void an_endless_line_is_refused_after_the_record_limit(void **state)
{
    (void)state;
    endless e = {"{\"a\": [", "0,", 0, 0};
    jsonl_source src = {endless_read, endless_rewind, &e};
    ls_error err = {0};
    assert_null(ls_jsonl_open(&src, "pipe", 0, 0, &err));
    assert_int_equal(err.code, LS_ERR_DATA);
    assert_string_equal(err.message, "pipe:1:1: line longer than 16 MiB, the limit for one record: "
                                     "'{\"a\": [0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0...'");
    /* Read no further than the limit and one piece of input. */
    assert_true(e.given > LS_CSV_RECORD_MAX && e.given <= LS_CSV_RECORD_MAX + ((size_t)1 << 16));
}

static void endless_lines_are_refused_at_the_record_count(void **state)
{
    (void)state;
    endless e = {"", "{\"n_act\": 1e8, \"tokens\": 1e10, \"loss\": 3.1}\n", 0, 0};
    jsonl_source src = {endless_read, endless_rewind, &e};
    ls_error err = {0};
    assert_null(ls_jsonl_open(&src, "pipe", 1000, 0, &err));
    assert_string_equal(err.message, "pipe:1001: more than 1000 rows, the limit for a sweep held in memory");
    assert_true(e.given < 1001 * strlen(e.unit) + ((size_t)1 << 16));
}

/* A source over a string that another key joins on the second reading
 * (a file written to while it is read). */
typedef struct changing {
    const char *first, *second;
    int reading;
    size_t pos;
} changing;

static int changing_read(void *ctx, char *dst, size_t cap, size_t *n, ls_error *err)
{
    (void)err;
    changing *c = ctx;
    const char *t = c->reading ? c->second : c->first;
    size_t left = strlen(t) - c->pos;
    *n = left < cap ? left : cap;
    memcpy(dst, t + c->pos, *n);
    c->pos += *n;
    return 0;
}

static int changing_rewind(void *ctx, ls_error *err)
{
    (void)err;
    changing *c = ctx;
    c->reading = 1;
    c->pos = 0;
    return 0;
}

static void a_key_new_on_the_second_reading_is_an_error(void **state)
{
    (void)state;
    changing c = {"{\"a\": 1}\n{\"a\": 2}\n", "{\"a\": 1}\n{\"a\": 2, \"b\": 3}\n", 0, 0};
    jsonl_source src = {changing_read, changing_rewind, &c};
    ls_error err = {0};
    jsonl_reader *r = ls_jsonl_open(&src, "f.jsonl", 0, 0, &err);
    assert_non_null(r);
    const csv_field *f;
    size_t n;
    long line;
    assert_int_equal(ls_jsonl_next(r, &f, &n, &line, &err), 1);
    assert_int_equal(ls_jsonl_next(r, &f, &n, &line, &err), 1);
    assert_int_equal(ls_jsonl_next(r, &f, &n, &line, &err), LS_ERR_DATA);
    assert_string_equal(err.message, "f.jsonl:2:10: key 'b' was not in the file when it was first read (it changed "
                                     "while being read)");
    ls_jsonl_close(r);
}

/* Each fault of a line, strictly as RFC 8259 has it, at its line and
 * column (in bytes, from 1); the first line is good. */
static void faults_name_line_and_column(void **state)
{
    (void)state;
    static const struct {
        const char *line, *message;
    } cases[] = {
        {"{\"a\": 01}", "f:2:8: not valid JSON"},
        {"{\"a\": 1.}", "f:2:9: not valid JSON"},
        {"{\"a\": -}", "f:2:7: not valid JSON"},
        {"{\"a\": 1,}", "f:2:9: not valid JSON"},
        {"{\"a\": \"x\\q\"}", "f:2:9: not valid JSON"},
        {"{\"a\": \"\\ud800\"}", "f:2:8: not valid JSON"},
        {"{\"a\": \"\\u0000\"}", "f:2:8: NUL character in string (\\u0000)"},
        {"{\"a\": \"tab\there\"}", "f:2:11: control character 0x09 in string (write it as \\u0009)"},
        {"{\"a\": \"\xc3\x28\"}", "f:2:8: invalid UTF-8 (byte 0xC3) in string"},
        {"{\"a\": 1e400}", "f:2:7: '1e400' is outside double precision"},
        {"{\"a\": 1e-400}", "f:2:7: '1e-400' is outside double precision"},
        {"{\"a\": NaN}", "f:2:7: 'NaN' is not JSON (Python's json writes it unless allow_nan=False); JSON writes a "
                         "missing value as null"},
        {"{\"a\": 1} x", "f:2:10: text after the end of the JSON document"},
        {"{\"a\": 1, \"b\": 2, \"a\": 3}", "f:2:18: key 'a' appears twice"},
        {"{\"a\": {\"x\": 1}, \"a\": {\"y\": 2}}", "f:2:17: key 'a' appears twice"},
        {"{\"a.b\": 1, \"a\": {\"b\": 2}}", "f:2:18: key 'a.b' appears twice once nested keys are joined with '.'"},
        {"{\"a\": [1, {\"b\": 2}]}", "f:2:2: key 'a': an array holding objects or arrays (a cell takes a number, a "
                                   "string, or an array of them)"},
        {"[1, 2]", "f:2:1: an array, not an object; JSON Lines has one object per line (a run)"},
        {" \"run\"", "f:2:2: not an object; JSON Lines has one object per line (a run)"},
        {"{\"a\": tru}", "f:2:7: not valid JSON"},
        {"{\"a\": 1", "f:2:1: an object that does not end on its line; JSON Lines has one whole object per line (a "
                      "run), not a JSON document spread over lines"},
        {"{\"a\": 1}\x01", "f:2:9: text after the end of the JSON document"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char text[256];
        snprintf(text, sizeof text, "{\"a\": 0.5}\n%s\n", cases[i].line);
        changing c = {text, text, 0, 0};
        jsonl_source src = {changing_read, changing_rewind, &c};
        ls_error err = {0};
        jsonl_reader *r = ls_jsonl_open(&src, "f", 0, 0, &err);
        assert_null(r);
        assert_int_equal(err.code, LS_ERR_DATA);
        if (strcmp(err.message, cases[i].message) != 0)
            fail_msg("%s\n  gave %s\n  want %s", cases[i].line, err.message, cases[i].message);
    }
    /* Nesting deeper than 512 objects (keys of one letter, so that the
     * flattened name stays within its 1023 bytes). */
    char deep[4096] = "";
    size_t n = 0;
    for (int d = 0; d < 513; d++)
        n += (size_t)snprintf(deep + n, sizeof deep - n, "{\"%c\":", 'a' + d % 26);
    snprintf(deep + n, sizeof deep - n, "1\n");
    changing c = {deep, deep, 0, 0};
    jsonl_source src = {changing_read, changing_rewind, &c};
    ls_error err = {0};
    assert_null(ls_jsonl_open(&src, "f", 0, 0, &err));
    assert_string_equal(err.message, "f:1:2561: nested too deeply (more than 512 levels)");
    /* A flattened name longer than 1023 bytes. */
    n = (size_t)snprintf(deep, sizeof deep, "{\"a\": {\"");
    memset(deep + n, 'x', 1100);
    snprintf(deep + n + 1100, sizeof deep - n - 1100, "\": 1}}\n");
    c = (changing){deep, deep, 0, 0};
    assert_null(ls_jsonl_open(&src, "f", 0, 0, &err));
    assert_string_equal(err.message, "f:1:8: key path longer than 1023 bytes");
}

/* Escapes decode to UTF-8 (a surrogate pair to one 4-byte character); a
 * number is its shortest exact text; the widest doubles pass. */
static void values_decode_as_json_means_them(void **state)
{
    (void)state;
    const char *text = "{\"s\": \"\\u00e9\\ud83d\\ude00\\n\\\"\\/\", \"x\": 1E+2, \"y\": -0.0, \"z\": 5e-324, "
                       "\"w\": 1.7976931348623157e308, \"t\": [true, null, \"a\"]}\n";
    changing c = {text, text, 0, 0};
    jsonl_source src = {changing_read, changing_rewind, &c};
    ls_error err = {0};
    jsonl_reader *r = ls_jsonl_open(&src, "f", 0, 0, &err);
    assert_non_null(r);
    const csv_field *f;
    size_t n;
    long line;
    assert_int_equal(ls_jsonl_next(r, &f, &n, &line, &err), 1);
    assert_int_equal(ls_jsonl_next(r, &f, &n, &line, &err), 1);
    const char *want[] = {"\xc3\xa9\xf0\x9f\x98\x80\n\"/", "100", "-0", "4.94065645841247e-324",
                          "1.7976931348623157e+308", "true,,a"};
    expect_fields(f, n, want, 6);
    assert_int_equal(ls_jsonl_next(r, &f, &n, &line, &err), 0);
    ls_jsonl_close(r);
}

static void objects_without_keys_say_so(void **state)
{
    (void)state;
    const char *path = write_temp_text("\n{}\n{\"config\": {}}\n{ }\n", 0);
    ls_error err = {0};
    csv_reader *r = ls_csv_open(path, &err);
    const csv_field *f;
    size_t n;
    assert_int_equal(ls_csv_next(r, &f, &n, &err), LS_ERR_DATA);
    char want[256];
    snprintf(want, sizeof want, "%s:2:1: '{}' has no key with a value, and neither has any of the other 2 lines: no "
             "column to read", path);
    assert_string_equal(err.message, want);
    ls_csv_close(r);
    unlink(path);
}

/* On a pipe the raw bytes (here gzip) are kept in a temporary file for the
 * second reading: the records are those of the same file read directly,
 * and the checksum is of the bytes as they came. */
static void a_pipe_is_read_twice_through_a_copy(void **state)
{
    (void)state;
    size_t cap = 1 << 22, len = 0;
    char *text = malloc(cap);
    for (int i = 0; i < 30000; i++)
        len += (size_t)snprintf(text + len, cap - len, "{\"i\": %d, \"cfg\": {\"k%d\": %d}, \"s\": \"r%d\"}\n", i,
                                i % 7, i * 3, i);
    const char *tmp = write_temp(text, len, 1);
    char path[64];
    snprintf(path, sizeof path, "%s", tmp);
    free(text);
    for (int piped = 0; piped < 2; piped++) {
        int fds[2] = {-1, -1}, saved = -1;
        pid_t child = -1;
        if (piped) {
            assert_int_equal(pipe(fds), 0);
            child = fork();
            if (child == 0) {
                close(fds[0]);
                int in = open(path, O_RDONLY);
                char buf[4096];
                ssize_t k;
                while ((k = read(in, buf, sizeof buf)) > 0)
                    if (write(fds[1], buf, (size_t)k) != k)
                        _exit(1);
                _exit(0);
            }
            close(fds[1]);
            saved = dup(0);
            dup2(fds[0], 0);
            close(fds[0]);
        }
        ls_error err = {0};
        csv_reader *r = ls_csv_open(piped ? "-" : path, &err);
        assert_non_null(r);
        ls_csv_keep_checksum(r);
        const csv_field *f;
        size_t n, rows = 0;
        assert_int_equal(ls_csv_next(r, &f, &n, &err), 1);
        const char *header[] = {"i", "cfg.k0", "s", "cfg.k1", "cfg.k2", "cfg.k3", "cfg.k4", "cfg.k5", "cfg.k6"};
        expect_fields(f, n, header, 9);
        int status;
        while ((status = ls_csv_next(r, &f, &n, &err)) == 1) {
            char want[32];
            snprintf(want, sizeof want, "%zu", rows);
            assert_int_equal(f[0].len, strlen(want));
            assert_memory_equal(f[0].ptr, want, f[0].len);
            snprintf(want, sizeof want, "%zu", rows * 3);
            assert_memory_equal(f[rows % 7 ? 2 + rows % 7 : 1].ptr, want, strlen(want));
            assert_int_equal(ls_csv_line(r), (long)rows + 1);
            rows++;
        }
        assert_int_equal(status, 0);
        assert_int_equal(rows, 30000);
        static char first[65];
        char hex[65];
        ls_csv_sha256(r, hex);
        if (!piped)
            memcpy(first, hex, sizeof hex);
        else
            assert_string_equal(hex, first);
        ls_csv_close(r);
        if (piped) {
            int wstatus;
            waitpid(child, &wstatus, 0);
            dup2(saved, 0);
            close(saved);
        }
    }
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(objects_become_a_header_and_records),
        cmocka_unit_test(names_that_say_json_lines),
        cmocka_unit_test(a_csv_file_stays_csv),
        cmocka_unit_test(syntax_errors_name_line_and_column),
        cmocka_unit_test(an_endless_line_is_refused_after_the_record_limit),
        cmocka_unit_test(endless_lines_are_refused_at_the_record_count),
        cmocka_unit_test(a_key_new_on_the_second_reading_is_an_error),
        cmocka_unit_test(faults_name_line_and_column),
        cmocka_unit_test(values_decode_as_json_means_them),
        cmocka_unit_test(objects_without_keys_say_so),
        cmocka_unit_test(a_pipe_is_read_twice_through_a_copy),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
