/* Test helper: compare an error message with a pattern in which '@' stands
 * for a (temporary) file's name. */
#ifndef LOOPSCALE_TEST_MESSAGE_H
#define LOOPSCALE_TEST_MESSAGE_H

#include <stdio.h>
#include <string.h>

static inline void assert_message(const char *got, const char *pattern, const char *path)
{
    char want[1024];
    const char *at = strchr(pattern, '@');
    if (at)
        snprintf(want, sizeof want, "%.*s%s%s", (int)(at - pattern), pattern, path, at + 1);
    else
        snprintf(want, sizeof want, "%s", pattern);
    assert_string_equal(got, want);
}

#endif
