/*
 * fuzz_tokens — the per-token readers of `route` and `exit` (tokcsv.c over
 * csv.c, or a .npy array) and what they compute.  The first byte picks the
 * reader (and route's top-k); the rest is the file.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "loopscale/earlyexit.h"
#include "loopscale/route.h"
#include "memfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const char *path = memfile_set(data + 1, size - 1);
    ls_error err;
    if (data[0] & 1) {
        ls_route_report *r = ls_route_read(path, 1 + (data[0] >> 1) % 4, &err);
        if (!r && (err.code >= 0 || strlen(err.message) == 0))
            abort();
        ls_route_report_free(r);
        return 0;
    }
    ls_earlyexit *x = ls_earlyexit_read(&path, 1, NULL, 0, &err);
    if (!x) {
        if (err.code >= 0 || strlen(err.message) == 0)
            abort();
        return 0;
    }
    ls_earlyexit_costs costs = {1.0, 2.0, 0.5};
    static const double targets[] = {0.05, 0.1, 0.2, 0.3};
    ls_earlyexit_report *rep = ls_earlyexit_report_new(x, &costs, targets, 4, &err);
    ls_earlyexit_report_free(rep);
    ls_earlyexit_free(x);
    return 0;
}
