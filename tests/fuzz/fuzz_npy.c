/*
 * fuzz_npy — the .npy reader: header parsing, the size check, and reading
 * every element in uneven pieces, then ls_npy_expect_end.
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "npy_internal.h"
#include "memfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = memfile_set(data, size);
    ls_error err;
    (void)ls_npy_sniff(path);
    npy_reader *r = ls_npy_open(path, &err);
    if (!r) {
        if (err.code >= 0 || strlen(err.message) == 0)
            abort();
        return 0;
    }
    const npy_header *h = ls_npy_header_of(r);
    char shape[NPY_MAX_DIMS * 22 + 4];
    (void)ls_npy_shape_text(h, shape, sizeof shape);
    double buf[97];
    size_t left = h->count, piece = 1;
    int status = 0;
    while (left > 0 && status == 0) {
        size_t n = piece < left ? piece : left;
        status = ls_npy_read(r, buf, n, &err);
        left -= n;
        piece = piece % 97 + 13;
    }
    if (status == 0)
        (void)ls_npy_expect_end(r, &err);
    ls_npy_close(r);
    return 0;
}
