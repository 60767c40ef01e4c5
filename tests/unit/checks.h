/* Test helpers: a relative comparison of doubles, and an error message
 * compared with a pattern in which '@' stands for a (temporary) file's name. */
#ifndef LOOPSCALE_TEST_CHECKS_H
#define LOOPSCALE_TEST_CHECKS_H

#include <math.h>
#include <stdio.h>
#include <string.h>

/* got within 1e-12 of want, relative (absolute below 1). */
static inline void close_to(double got, double want)
{
    if (!(fabs(got - want) <= 1e-12 * fmax(1, fabs(want))))
        fail_msg("got %.17g, want %.17g", got, want);
}

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
