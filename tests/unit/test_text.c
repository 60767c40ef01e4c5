/* User text on its way out: UTF-8 repaired for JSON and XML, quoted for
 * messages.  The repairs expected below are Python's
 * bytes.decode('utf-8', 'replace'), which follows Unicode's recommended
 * practice (one U+FFFD per maximal subpart of an ill-formed sequence). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "loopscale/error.h"
#include "chart_internal.h"
#include "jsonw_internal.h"
#include "loopscale/report.h"
#include "text_internal.h"

#define FFFD "\xef\xbf\xbd"

static void ill_formed_utf8_is_replaced_as_unicode_recommends(void **state)
{
    (void)state;
    static const char *const cases[][2] = {
        {"plain", "plain"},
        {"caf\xc3\xa9", "caf\xc3\xa9"},
        {"sw\xe9" "ep", "sw" FFFD "ep"},                   /* Latin-1 */
        {"\xe2\x82", FFFD},                               /* truncated at the end */
        {"\xe2\x82" "A", FFFD "A"},                       /* truncated before ASCII */
        {"\xc0\xaf", FFFD FFFD},                          /* overlong '/' */
        {"\xe0\x80\xaf", FFFD FFFD FFFD},                 /* overlong, three bytes */
        {"\xed\xa0\x80", FFFD FFFD FFFD},                 /* a surrogate */
        {"\xf4\x90\x80\x80", FFFD FFFD FFFD FFFD},        /* above U+10FFFF */
        {"\xf0\x9f\x98\x80", "\xf0\x9f\x98\x80"},         /* U+1F600 */
        {"\xf0\x9f\x98", FFFD},
        {"\xff\xfe", FFFD FFFD},
        {"\xf5\x80", FFFD FFFD},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char buf[64];
        size_t n = ls_utf8_repair(buf, sizeof buf, cases[i][0]);
        assert_string_equal(buf, cases[i][1]);
        assert_int_equal(n, strlen(cases[i][1]));
    }
    /* Truncated output is still terminated and the length still whole. */
    char small[4];
    assert_int_equal(ls_utf8_repair(small, sizeof small, "ab\xff"), 5);
    assert_string_equal(small, "ab\xef");
}

static void quoting_leaves_one_printable_line(void **state)
{
    (void)state;
    char buf[128];
    ls_text_quote(buf, sizeof buf, "a\nb\r\tc\x1b[2Jd\x7f" "e\x01");
    assert_string_equal(buf, "a\\nb\\r\\tc\\x1b[2Jd\\x7fe\\x01");
    ls_text_quote(buf, sizeof buf, "\xc2\x9b" "1m caf\xc3\xa9 \xe9 \xe2\x82");
    assert_string_equal(buf, "\\u009b1m caf\xc3\xa9 \\xe9 \\xe2\\x82");
    assert_int_equal(ls_text_quote(NULL, 0, "\n"), 2);
}

static void error_messages_quote_what_they_echo(void **state)
{
    (void)state;
    ls_error err;
    ls_error_set(&err, LS_ERR_DATA, "%s: cannot open", "evil\x1b]0;title\x07\n.csv");
    assert_string_equal(err.message, "evil\\x1b]0;title\\x07\\n.csv: cannot open");
    ls_error_prefix(&err, "%s", "dir\r");
    assert_string_equal(err.message, "dir\\r: evil\\x1b]0;title\\x07\\n.csv: cannot open");
}

static void json_strings_are_valid_utf8(void **state)
{
    (void)state;
    jsonw w;
    ls_jsonw_init(&w);
    ls_jsonw_object_begin(&w, NULL);
    ls_jsonw_string(&w, "f\xff", "sw\xe9" "ep\n\"\xe2\x82\xac\"");
    ls_jsonw_object_end(&w);
    ls_error err;
    char *text = ls_jsonw_finish(&w, &err);
    assert_non_null(text);
    assert_string_equal(text, "{\n  \"f" FFFD "\": \"sw" FFFD "ep\\u000a\\\"\xe2\x82\xac\\\"\"\n}\n");
    free(text);
}

static void markup_is_escaped_and_valid_utf8(void **state)
{
    (void)state;
    char buf[128];
    ls_text_escape_xml(buf, sizeof buf, "T\xff<&>\x01\"'\xe2\x82\xac", 0);
    assert_string_equal(buf, "T" FFFD "&lt;&amp;&gt;&quot;&#39;\xe2\x82\xac");
    ls_text_escape_xml(buf, sizeof buf, "r\xe9<b>\xc3\xa9", LS_TEXT_KEEP_LINES);
    assert_string_equal(buf, "r" FFFD "&lt;b&gt;\xc3\xa9");
}

static void escape_for_one_line_turns_tab_into_space_and_drops_newlines(void **state)
{
    (void)state;
    char buf[128];
    size_t n = ls_text_escape_xml(buf, sizeof buf, "a<b & \"c\" > 'd'\x01\te\nf", 0);
    assert_string_equal(buf, "a&lt;b &amp; &quot;c&quot; &gt; &#39;d&#39; ef");
    assert_int_equal(n, strlen(buf));
    /* Truncation keeps the buffer terminated and reports the full length. */
    char small[6];
    assert_int_equal(ls_text_escape_xml(small, sizeof small, "&&", 0), 10);
    assert_int_equal(strlen(small), 5);
}

static void escape_for_html_keeps_tabs_and_newlines(void **state)
{
    (void)state;
    char buf[128];
    size_t n = ls_text_escape_xml(buf, sizeof buf, "a<b>&\"c'\x01\td", LS_TEXT_KEEP_LINES);
    assert_string_equal(buf, "a&lt;b&gt;&amp;&quot;c&#39;\td");
    assert_int_equal(n, strlen(buf));
    /* Like snprintf: the length needed, the text cut at the size. */
    assert_int_equal(ls_text_escape_xml(buf, 6, "<<<", LS_TEXT_KEEP_LINES), 12);
    assert_string_equal(buf, "&lt;&");
    assert_int_equal(ls_text_escape_xml(NULL, 0, "plain", LS_TEXT_KEEP_LINES), 5);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(ill_formed_utf8_is_replaced_as_unicode_recommends),
        cmocka_unit_test(quoting_leaves_one_printable_line),
        cmocka_unit_test(error_messages_quote_what_they_echo),
        cmocka_unit_test(json_strings_are_valid_utf8),
        cmocka_unit_test(markup_is_escaped_and_valid_utf8),
        cmocka_unit_test(escape_for_one_line_turns_tab_into_space_and_drops_newlines),
        cmocka_unit_test(escape_for_html_keeps_tabs_and_newlines),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
