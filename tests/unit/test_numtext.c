/* Strict number parsing and shortest round-trip formatting. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "numtext_internal.h"

static numtext_status parse(const char *s, double *x) { return ls_numtext_parse_double(s, strlen(s), x); }

static void doubles_parse_strictly(void **state)
{
    (void)state;
    double x = 0;
    assert_int_equal(parse("2.385", &x), NUMTEXT_OK);
    assert_true(x == 2.385);
    assert_int_equal(parse("  3e8 ", &x), NUMTEXT_OK);
    assert_true(x == 3e8);
    assert_int_equal(parse("-1.5E-3", &x), NUMTEXT_OK);
    assert_true(x == -1.5e-3);
    assert_int_equal(parse("", &x), NUMTEXT_EMPTY);
    assert_int_equal(parse("   ", &x), NUMTEXT_EMPTY);
    assert_int_equal(parse("2.7x", &x), NUMTEXT_NOT_NUMBER);
    assert_int_equal(parse("abc", &x), NUMTEXT_NOT_NUMBER);
    assert_int_equal(parse("1,5", &x), NUMTEXT_NOT_NUMBER);
    assert_int_equal(parse("0x1p3", &x), NUMTEXT_NOT_NUMBER);
    assert_int_equal(parse("nan", &x), NUMTEXT_NOT_FINITE);
    assert_int_equal(parse("NaN", &x), NUMTEXT_NOT_FINITE);
    assert_int_equal(parse("-inf", &x), NUMTEXT_NOT_FINITE);
    assert_int_equal(parse("Infinity", &x), NUMTEXT_NOT_FINITE);
    assert_int_equal(parse("1e999", &x), NUMTEXT_RANGE);
    assert_int_equal(parse("1e-999", &x), NUMTEXT_RANGE);
    /* Only the first len bytes count. */
    assert_int_equal(ls_numtext_parse_double("12345", 2, &x), NUMTEXT_OK);
    assert_true(x == 12);
}

static void integers_parse_from_integer_valued_text(void **state)
{
    (void)state;
    long v = 0;
    assert_int_equal(ls_numtext_parse_long("16", 2, &v), NUMTEXT_OK);
    assert_int_equal(v, 16);
    assert_int_equal(ls_numtext_parse_long("1e3", 3, &v), NUMTEXT_OK);
    assert_int_equal(v, 1000);
    assert_int_equal(ls_numtext_parse_long("2.5", 3, &v), NUMTEXT_NOT_INTEGER);
    assert_int_equal(ls_numtext_parse_long("1e30", 4, &v), NUMTEXT_RANGE);
}

static void scaled_values_take_decimal_and_binary_suffixes(void **state)
{
    (void)state;
    double x = 0;
    assert_int_equal(ls_numtext_parse_scaled("3GB", 3, &x), NUMTEXT_OK);
    assert_true(x == 3e9);
    assert_int_equal(ls_numtext_parse_scaled("3GiB", 4, &x), NUMTEXT_OK);
    assert_true(x == 3.0 * 1073741824.0);
    assert_int_equal(ls_numtext_parse_scaled("5e20", 4, &x), NUMTEXT_OK);
    assert_true(x == 5e20);
    assert_int_equal(ls_numtext_parse_scaled("10 kb", 5, &x), NUMTEXT_OK);
    assert_true(x == 1e4);
    assert_int_equal(ls_numtext_parse_scaled("1.5T", 4, &x), NUMTEXT_OK);
    assert_true(x == 1.5e12);
    assert_int_equal(ls_numtext_parse_scaled("2MiB", 4, &x), NUMTEXT_OK);
    assert_true(x == 2097152.0);
    /* Case is ignored throughout, for every prefix alike. */
    static const char *const same_3e9[] = {"3gb", "3Gb", "3gB", "3g", "3 gb"};
    for (size_t i = 0; i < sizeof same_3e9 / sizeof *same_3e9; i++) {
        assert_int_equal(ls_numtext_parse_scaled(same_3e9[i], strlen(same_3e9[i]), &x), NUMTEXT_OK);
        assert_true(x == 3e9);
    }
    assert_int_equal(ls_numtext_parse_scaled("2mib", 4, &x), NUMTEXT_OK);
    assert_true(x == 2.0 * 1048576.0);
    assert_int_equal(ls_numtext_parse_scaled("2MIB", 4, &x), NUMTEXT_OK);
    assert_true(x == 2.0 * 1048576.0);
    assert_int_equal(ls_numtext_parse_scaled("1.5t", 4, &x), NUMTEXT_OK);
    assert_true(x == 1.5e12);
    assert_int_equal(ls_numtext_parse_scaled("7p", 2, &x), NUMTEXT_OK);
    assert_true(x == 7e15);
    assert_int_equal(ls_numtext_parse_scaled("3GX", 3, &x), NUMTEXT_NOT_NUMBER);
    assert_int_equal(ls_numtext_parse_scaled("3 gigabytes", 11, &x), NUMTEXT_NOT_NUMBER);
    assert_int_equal(ls_numtext_parse_scaled("B", 1, &x), NUMTEXT_NOT_NUMBER);
}

static void counts_take_si_suffixes_with_b_for_billion(void **state)
{
    (void)state;
    double x = 0;
    static const struct {
        const char *text;
        double value;
    } ok[] = {{"125M", 1.25e8}, {"2.8B", 2.8e9}, {"1.5T", 1.5e12}, {"3k", 3e3}, {"3K", 3e3}, {"125m", 1.25e8},
              {"2.8b", 2.8e9}, {"7G", 7e9}, {" 2.385B ", 2.385e9}, {"1e3k", 1e6}, {"6.00003e10", 6.00003e10}};
    for (size_t i = 0; i < sizeof ok / sizeof *ok; i++) {
        assert_int_equal(ls_numtext_parse_count(ok[i].text, strlen(ok[i].text), &x), NUMTEXT_OK);
        assert_true(x == ok[i].value);
    }
    assert_int_equal(ls_numtext_parse_count("", 0, &x), NUMTEXT_EMPTY);
    assert_int_equal(ls_numtext_parse_count("NaN", 3, &x), NUMTEXT_NOT_FINITE);
    assert_int_equal(ls_numtext_parse_count("B", 1, &x), NUMTEXT_NOT_NUMBER);
    assert_int_equal(ls_numtext_parse_count("3kk", 3, &x), NUMTEXT_NOT_NUMBER);
    assert_int_equal(ls_numtext_parse_count("3GB", 3, &x), NUMTEXT_NOT_NUMBER);
    assert_int_equal(ls_numtext_parse_count("3x", 2, &x), NUMTEXT_NOT_NUMBER);
    assert_int_equal(ls_numtext_parse_count("1e308T", 6, &x), NUMTEXT_RANGE);
}

static void formatting_is_shortest_and_round_trips(void **state)
{
    (void)state;
    char buf[NUMTEXT_DOUBLE_MAX];
    assert_string_equal(ls_numtext_format_double(buf, 0.34), "0.34");
    assert_string_equal(ls_numtext_format_double(buf, 3e8), "300000000");
    assert_string_equal(ls_numtext_format_double(buf, 0.1 + 0.2), "0.30000000000000004");
    srand(2385);
    for (int i = 0; i < 100000; i++) {
        uint64_t bits = ((uint64_t)rand() << 62) ^ ((uint64_t)rand() << 31) ^ (uint64_t)rand();
        double x;
        memcpy(&x, &bits, sizeof x);
        if (!isfinite(x))
            continue;
        ls_numtext_format_double(buf, x);
        double back = strtod(buf, NULL);
        assert_memory_equal(&back, &x, sizeof x);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(doubles_parse_strictly),
        cmocka_unit_test(integers_parse_from_integer_valued_text),
        cmocka_unit_test(scaled_values_take_decimal_and_binary_suffixes),
        cmocka_unit_test(counts_take_si_suffixes_with_b_for_billion),
        cmocka_unit_test(formatting_is_shortest_and_round_trips),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
