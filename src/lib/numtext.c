#include "numtext_internal.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Longest field we treat as a candidate number; anything longer is refused. */
#define NUMBER_TEXT_MAX 400

static void trim(const char **text, size_t *len)
{
    while (*len > 0 && isspace((unsigned char)**text)) {
        (*text)++;
        (*len)--;
    }
    while (*len > 0 && isspace((unsigned char)(*text)[*len - 1]))
        (*len)--;
}

/* strtod also accepts "nan", "inf" and hexadecimal floats; a sweep or a
 * budget is written in decimal, so anything else is refused up front. */
static int looks_decimal(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        char ch = s[i];
        if (!(isdigit((unsigned char)ch) || ch == '.' || ch == '-' || ch == '+' || ch == 'e' || ch == 'E'))
            return 0;
    }
    return 1;
}

static numtext_status parse_prefix(const char *text, size_t len, double *out, size_t *used)
{
    char buf[NUMBER_TEXT_MAX + 1];
    if (len > NUMBER_TEXT_MAX)
        return NUMTEXT_NOT_NUMBER;
    memcpy(buf, text, len);
    buf[len] = '\0';
    char *end = NULL;
    errno = 0;
    double value = strtod(buf, &end);
    if (end == buf)
        return NUMTEXT_NOT_NUMBER;
    if (errno == ERANGE)
        return NUMTEXT_RANGE;
    *used = (size_t)(end - buf);
    if (!looks_decimal(buf, *used)) {
        /* "nan" and "inf" spell non-finite values; other letters are junk. */
        return isfinite(value) ? NUMTEXT_NOT_NUMBER : NUMTEXT_NOT_FINITE;
    }
    *out = value;
    return NUMTEXT_OK;
}

numtext_status ls_numtext_parse_double(const char *text, size_t len, double *out)
{
    trim(&text, &len);
    if (len == 0)
        return NUMTEXT_EMPTY;
    size_t used = 0;
    double value = 0;
    numtext_status status = parse_prefix(text, len, &value, &used);
    if (status != NUMTEXT_OK)
        return status;
    if (used != len)
        return NUMTEXT_NOT_NUMBER;
    *out = value;
    return NUMTEXT_OK;
}

numtext_status ls_numtext_parse_long(const char *text, size_t len, long *out)
{
    double value = 0;
    numtext_status status = ls_numtext_parse_double(text, len, &value);
    if (status != NUMTEXT_OK)
        return status;
    if (value != floor(value))
        return NUMTEXT_NOT_INTEGER;
    /* LONG_MAX is not exactly representable; 2^63 is the first value outside. */
    if (value < (double)LONG_MIN || value >= -(double)LONG_MIN)
        return NUMTEXT_RANGE;
    *out = (long)value;
    return NUMTEXT_OK;
}

numtext_status ls_numtext_parse_scaled(const char *text, size_t len, double *out)
{
    trim(&text, &len);
    if (len == 0)
        return NUMTEXT_EMPTY;
    size_t used = 0;
    double value = 0;
    numtext_status status = parse_prefix(text, len, &value, &used);
    if (status != NUMTEXT_OK)
        return status;
    /* strtod takes an exponent only when digits follow it, so "3E" leaves
     * the E (exa) to the suffix. */
    const char *suffix = text + used;
    size_t rest = len - used;
    while (rest > 0 && isspace((unsigned char)*suffix)) {
        suffix++;
        rest--;
    }
    static const char prefixes[] = "kMGTPE";
    double scale = 1.0;
    /* A lower-case e after the number is an exponent without digits ("3e",
     * refused as "1e" is in a sweep cell), never exa: exa is written E. */
    if (rest > 0 && *suffix == 'e')
        return NUMTEXT_NOT_NUMBER;
    if (rest > 0 && *suffix != 'B' && *suffix != 'b') {
        /* Case is ignored (but for e, above), as in "3gb", "3GB", "3Gb":
         * no quantity here is ever a thousandth (m) of a byte or a FLOP. */
        char letter = *suffix == 'k' || *suffix == 'K' ? 'k' : (char)toupper((unsigned char)*suffix);
        const char *at = memchr(prefixes, letter, sizeof prefixes - 1);
        if (!at)
            return NUMTEXT_NOT_NUMBER;
        int power = (int)(at - prefixes) + 1;
        suffix++;
        rest--;
        int binary = rest > 0 && (*suffix == 'i' || *suffix == 'I');
        if (binary) {
            suffix++;
            rest--;
        }
        scale = binary ? ldexp(1.0, 10 * power) : pow(1000.0, power);
    }
    if (rest > 0 && (*suffix == 'B' || *suffix == 'b')) {
        suffix++;
        rest--;
    }
    if (rest != 0)
        return NUMTEXT_NOT_NUMBER;
    value *= scale;
    if (!isfinite(value))
        return NUMTEXT_RANGE;
    *out = value;
    return NUMTEXT_OK;
}

numtext_status ls_numtext_parse_count(const char *text, size_t len, double *out)
{
    numtext_status status = ls_numtext_parse_double(text, len, out);
    if (status != NUMTEXT_NOT_NUMBER)
        return status;
    trim(&text, &len);
    if (len < 2)
        return status;
    double scale;
    switch (text[len - 1]) {
    case 'k': case 'K': scale = 1e3; break;
    case 'm': case 'M': scale = 1e6; break;
    case 'b': case 'B': case 'g': case 'G': scale = 1e9; break;
    case 't': case 'T': scale = 1e12; break;
    default: return status;
    }
    double value = 0;
    /* The digits must end where the suffix starts: "3 k" and "1e3k" pass,
     * "3kk" and "k" do not. */
    status = ls_numtext_parse_double(text, len - 1, &value);
    if (status != NUMTEXT_OK)
        return status == NUMTEXT_EMPTY ? NUMTEXT_NOT_NUMBER : status;
    value *= scale;
    if (!isfinite(value))
        return NUMTEXT_RANGE;
    *out = value;
    return NUMTEXT_OK;
}

const char *ls_numtext_reason(numtext_status status)
{
    switch (status) {
    case NUMTEXT_OK: return "is a number";
    case NUMTEXT_EMPTY: return "is empty";
    case NUMTEXT_NOT_NUMBER: return "is not a number";
    case NUMTEXT_NOT_FINITE: return "is not a finite number";
    case NUMTEXT_RANGE: return "is out of range";
    case NUMTEXT_NOT_INTEGER: return "is not an integer";
    }
    return "is not a number";
}

char *ls_numtext_format_double(char buf[NUMTEXT_DOUBLE_MAX], double x)
{
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(buf, NUMTEXT_DOUBLE_MAX, "%.*g", digits, x);
        if (digits == 17 || strtod(buf, NULL) == x)
            break;
    }
    return buf;
}
