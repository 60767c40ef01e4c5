/*
 * numtext_internal.h — numbers in text, both ways.
 *
 * Parsing is strict: the whole field must be one finite number (surrounding
 * blanks allowed), no NaN, no infinity, no overflow.  The result says why a
 * field was refused so that messages can quote it.  Formatting writes the
 * shortest decimal text that reads back to the same double bit for bit, so
 * files stay readable (0.34, not 0.34000000000000002) and exact.
 * Nothing here allocates.
 */
#ifndef LOOPSCALE_NUMTEXT_INTERNAL_H
#define LOOPSCALE_NUMTEXT_INTERNAL_H

#include <stddef.h>

typedef enum {
    NUMTEXT_OK = 0,
    NUMTEXT_EMPTY,       /* only blanks */
    NUMTEXT_NOT_NUMBER,  /* not a decimal number */
    NUMTEXT_NOT_FINITE,  /* NaN or infinity */
    NUMTEXT_RANGE,       /* overflows or underflows a double / a long */
    NUMTEXT_NOT_INTEGER  /* a fraction where an integer is required */
} numtext_status;

/* Parse text[0..len) as a double. */
numtext_status ls_numtext_parse_double(const char *text, size_t len, double *out);

/* Parse text[0..len) as an integer in [LONG_MIN, LONG_MAX] (decimal digits,
 * or a double such as 1e3 that is an exact integer). */
numtext_status ls_numtext_parse_long(const char *text, size_t len, long *out);

/* Parse a size with an optional unit suffix: k M G T P E (powers of 1000) and
 * an optional trailing B (bytes); Ki Mi Gi Ti (powers of 1024) likewise, so
 * "3GB" is 3e9, "3GiB" is 3 * 2^30 and "5e20" is 5e20. Case is ignored
 * throughout: "3gb", "3Gb" and "3gib" read as "3GB" and "3GiB" ("m" is mega,
 * never milli). */
numtext_status ls_numtext_parse_scaled(const char *text, size_t len, double *out);

/* Parse a count as training logs write it: a number with an optional SI
 * suffix, k (1e3), M (1e6), B or G (1e9), T (1e12), in either case, so
 * "125M" is 1.25e8, "2.8B" is 2.8e9 and "1.5T" is 1.5e12.  Unlike
 * ls_numtext_parse_scaled, B is a billion (a model or token count), never
 * bytes.  Plain numbers take the fast path of ls_numtext_parse_double. */
numtext_status ls_numtext_parse_count(const char *text, size_t len, double *out);

/* "is empty", "is not a number", ... for messages: `'%s' <reason>`. */
const char *ls_numtext_reason(numtext_status status);

/* Longest text ls_numtext_format_double writes, with its terminating NUL. */
#define NUMTEXT_DOUBLE_MAX 32

/* Write the shortest %.{15,16,17}g text of x that reads back exactly.
 * x must be finite; returns buf. */
char *ls_numtext_format_double(char buf[NUMTEXT_DOUBLE_MAX], double x);

#endif
