/*
 * fuzz_numtext — the parsers of option values and cells: numtext's double,
 * long and scaled parsers (every number read must be finite, and format back
 * to text that reads to the same double), law names, --where conditions.
 * The first byte picks the parser; the rest is the text.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "loopscale/law.h"
#include "numtext_internal.h"
#include "loopscale/sweep.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void round_trip(double x)
{
    char buf[NUMTEXT_DOUBLE_MAX];
    ls_numtext_format_double(buf, x);
    double y = 0;
    if (ls_numtext_parse_double(buf, strlen(buf), &y) != NUMTEXT_OK || memcmp(&x, &y, sizeof x) != 0)
        abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const char *text = (const char *)data + 1;
    size_t len = size - 1;
    double x = 0;
    long l = 0;
    switch (data[0] % 5) {
    case 0:
        if (ls_numtext_parse_double(text, len, &x) == NUMTEXT_OK) {
            if (!isfinite(x))
                abort();
            round_trip(x);
        }
        break;
    case 1:
        if (ls_numtext_parse_long(text, len, &l) == NUMTEXT_OK)
            round_trip((double)l);
        break;
    case 2:
        if (ls_numtext_parse_scaled(text, len, &x) == NUMTEXT_OK) {
            if (!isfinite(x))
                abort();
            round_trip(x);
        }
        break;
    default: {
        /* NUL-terminated copies for the parsers that take strings */
        char *s = malloc(len + 1);
        if (!s)
            return 0;
        memcpy(s, text, len);
        s[len] = '\0';
        ls_error err;
        if (data[0] % 5 == 3) {
            ls_law_kind kind;
            if (ls_law_kind_parse(s, &kind, &err) == 0) {
                char name[64];
                ls_law_kind_format(kind, name, sizeof name);
                ls_law_kind back;
                if (ls_law_kind_parse(name, &back, &err) != 0 || back.base != kind.base || back.mapping != kind.mapping)
                    abort();
            }
        } else {
            ls_sweep_row rows[2] = {{.n_act = 1e9, .n_total = 2e9, .n_loop = 5e8, .R = 4, .E = 2, .k = 1, .tokens = 1e11,
                                  .loss = 2.5},
                                 {.n_act = 3e8, .n_total = 3e8, .n_loop = NAN, .R = 1, .E = 1, .k = 1, .tokens = 1e10,
                                  .loss = 3.1}};
            ls_sweep sw = {0};
            sw.n = 2;
            sw.rows = rows;
            sw.has_loss = 1;
            const char *cond = s;
            unsigned char selected[2];
            (void)ls_sweep_select(&sw, &cond, 1, selected, &err);
        }
        free(s);
        break;
    }
    }
    return 0;
}
