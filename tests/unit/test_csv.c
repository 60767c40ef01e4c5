/* The RFC 4180 reader: quoting, line endings, comments, gzip and damage. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <sys/stat.h>

#include "csv_internal.h"
#include "tmpfile.h"

/* Read every record of text into "a|b|c\n" form. */
static int read_all(const char *path, char *out, size_t size, ls_error *err)
{
    csv_reader *r = ls_csv_open(path, err);
    if (!r)
        return err->code;
    out[0] = '\0';
    const csv_field *f;
    size_t n;
    int status;
    while ((status = ls_csv_next(r, &f, &n, err)) > 0) {
        char line[32];
        snprintf(line, sizeof line, "%ld:", ls_csv_line(r));
        strncat(out, line, size - strlen(out) - 1);
        for (size_t i = 0; i < n; i++) {
            strncat(out, f[i].ptr, f[i].len < size - strlen(out) - 1 ? f[i].len : size - strlen(out) - 1);
            strncat(out, i + 1 < n ? "|" : "\n", size - strlen(out) - 1);
        }
    }
    ls_csv_close(r);
    unlink(path);
    return status;
}

static void check(const char *input, int gzip, const char *want)
{
    char out[1024];
    ls_error err;
    assert_int_equal(read_all(write_temp_text(input, gzip), out, sizeof out, &err), 0);
    assert_string_equal(out, want);
}

static void plain_records_and_line_numbers(void **state)
{
    (void)state;
    check("a,b\n1,2\n", 0, "1:a|b\n2:1|2\n");
    check("a,b\n1,2", 0, "1:a|b\n2:1|2\n");          /* no final newline */
    check("a,b\r\n1,2\r\n", 0, "1:a|b\n2:1|2\n");    /* CRLF */
    check("a,,c,\n", 0, "1:a||c|\n");                /* empty fields */
}

static void comments_blank_lines_and_byte_order_mark_are_skipped(void **state)
{
    (void)state;
    check("\xEF\xBB\xBF# made by hand\n\na,b\n   \n# more\n1,2\n", 0, "3:a|b\n6:1|2\n");
}

static void quoted_fields_unquote_in_place(void **state)
{
    (void)state;
    check("\"x,y\",\"say \"\"hi\"\"\",z\n", 0, "1:x,y|say \"hi\"|z\n");
    check("\"two\nlines\",b\nc,d\n", 0, "1:two\nlines|b\n3:c|d\n");
    check("\"\",b\n", 0, "1:|b\n");
}

static void gzip_is_recognised_by_content(void **state)
{
    (void)state;
    check("a,b\n1,2\n", 1, "1:a|b\n2:1|2\n");
}

static void damaged_input_is_refused_with_its_line(void **state)
{
    (void)state;
    char out[1024];
    ls_error err;
    assert_int_equal(read_all(write_temp_text("a,b\n\"open,1\n2,3\n", 0), out, sizeof out, &err), LS_ERR_DATA);
    assert_non_null(strstr(err.message, ":2: field 1: unterminated quoted field"));
    assert_int_equal(read_all(write_temp_text("a,b\n\"x\"y,1\n", 0), out, sizeof out, &err), LS_ERR_DATA);
    assert_non_null(strstr(err.message, ":2: field 1: text after the closing quote"));
    assert_int_equal(read_all(write_temp_text("a,b\n1,x\"y\n", 0), out, sizeof out, &err), LS_ERR_DATA);
    assert_non_null(strstr(err.message, ":2: field 2: a quote inside an unquoted field"));
    assert_int_equal(read_all(write_temp("a,b\n1,\0\n", 8, 0), out, sizeof out, &err), LS_ERR_DATA);
    assert_non_null(strstr(err.message, ":2: binary data"));
}

static void truncated_and_corrupt_gzip_are_refused(void **state)
{
    (void)state;
    char text[4096], out[8192];
    size_t n = 0;
    for (int i = 0; i < 200; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "%d,%d\n", i, i * i);
    unsigned char packed[8192];
    const char *path = write_temp(text, n, 1); /* a real gzip stream */
    FILE *fp = fopen(path, "rb");
    size_t packed_len = fread(packed, 1, sizeof packed, fp);
    fclose(fp);
    unlink(path);
    ls_error err;
    assert_int_equal(read_all(write_temp(packed, packed_len / 2, 0), out, sizeof out, &err), LS_ERR_DATA);
    assert_non_null(strstr(err.message, "corrupt or truncated gzip"));
    packed[packed_len / 2] ^= 0x55;
    packed[packed_len / 2 + 1] ^= 0xAA;
    assert_int_equal(read_all(write_temp(packed, packed_len, 0), out, sizeof out, &err), LS_ERR_DATA);
    assert_non_null(strstr(err.message, "corrupt or truncated gzip"));
}

static void missing_files_and_directories_are_input_errors(void **state)
{
    (void)state;
    ls_error err;
    assert_null(ls_csv_open("/nonexistent/sweep.csv", &err));
    assert_int_equal(err.code, LS_ERR_NOINPUT);
    assert_string_equal(err.message, "/nonexistent/sweep.csv: cannot open: No such file or directory");
    assert_null(ls_csv_open("/tmp", &err));
    assert_string_equal(err.message, "/tmp: is a directory");
}

static void long_records_are_read_whole(void **state)
{
    (void)state;
    size_t n = 300000;
    char *text = malloc(n + 16);
    memset(text, 'x', n);
    memcpy(text + n, ",y\n", 4);
    const char *path = write_temp_text(text, 0);
    ls_error err;
    csv_reader *r = ls_csv_open(path, &err);
    const csv_field *f;
    size_t nf;
    assert_int_equal(ls_csv_next(r, &f, &nf, &err), 1);
    assert_int_equal(nf, 2);
    assert_int_equal(f[0].len, n);
    ls_csv_close(r);
    unlink(path);
    free(text);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plain_records_and_line_numbers),
        cmocka_unit_test(comments_blank_lines_and_byte_order_mark_are_skipped),
        cmocka_unit_test(quoted_fields_unquote_in_place),
        cmocka_unit_test(gzip_is_recognised_by_content),
        cmocka_unit_test(damaged_input_is_refused_with_its_line),
        cmocka_unit_test(truncated_and_corrupt_gzip_are_refused),
        cmocka_unit_test(missing_files_and_directories_are_input_errors),
        cmocka_unit_test(long_records_are_read_whole),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
