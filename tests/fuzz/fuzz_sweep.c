/*
 * fuzz_sweep — the sweep reader (csv.c over plain or gzip bytes, sweep.c's
 * header, cell and row checks, --map, --where and --group).  The first
 * byte picks the options; the rest is the file.  A sweep that reads must
 * hold only rows that pass ls_sweep_row_check, as docs/formats.md promises.
 */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "loopscale/sweep.h"
#include "memfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    unsigned flags = data[0];
    const char *path = memfile_set(data + 1, size - 1);
    static const char *const maps[] = {"n_loop=blocks"};
    static const char *const wheres[] = {"R<=8", "x>=0"};
    ls_sweep_options o = {0};
    o.require_loss = flags & 1;
    o.keep_text = (flags >> 1) & 1;
    if (flags & 4) {
        o.maps = maps;
        o.nmaps = 1;
    }
    if (flags & 8) {
        o.wheres = wheres;
        o.nwheres = (flags & 16) ? 2 : 1;
    }
    if (flags & 32)
        o.group_column = (flags & 64) ? "R" : "seed";
    ls_error err;
    ls_sweep *s = ls_sweep_read(&path, 1, &o, &err);
    if (!s) {
        if (err.code >= 0 || strlen(err.message) == 0)
            abort(); /* a failure must say why */
        return 0;
    }
    for (size_t i = 0; i < s->n; i++) {
        ls_sweep_quantity which;
        char reason[128];
        ls_sweep_row row = s->rows[i];
        if (ls_sweep_row_check(&row, &which, reason, sizeof reason) != 0 || !(row.tokens > 0) || !isfinite(row.tokens))
            abort(); /* a row the reader let through breaks the rules */
        if (o.group_column && s->rows[i].group >= s->ngroups)
            abort();
        if (o.keep_text)
            for (size_t j = 0; j < s->ncolumns; j++) {
                size_t len;
                (void)ls_sweep_cell(s, i, j, &len);
            }
    }
    ls_sweep_free(s);
    return 0;
}
