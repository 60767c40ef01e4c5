/*
 * fuzz_lawfile — law files (ls_lawfile_parse over cJSON).  A file that parses
 * must hold a law whose parameters are in their domains, must write back
 * (ls_lawfile_to_json) and must read back to the same law bit for bit.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "loopscale/law.h"
#include "loopscale/lawfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    ls_error err;
    ls_lawfile *lf = ls_lawfile_parse((const char *)data, size, "fuzz.json", &err);
    if (!lf) {
        if (err.code >= 0 || strlen(err.message) == 0)
            abort();
        return 0;
    }
    ls_law_param list[LS_LAW_NPARAMS];
    size_t np = ls_law_params_of(lf->law.kind, list);
    for (size_t i = 0; i < np; i++)
        if (ls_law_param_check(list[i], lf->law.p[list[i]], &err) != 0)
            abort();
    char *text = ls_lawfile_to_json(lf, &err);
    if (text) {
        ls_lawfile *again = ls_lawfile_parse(text, strlen(text), "again.json", &err);
        if (!again)
            abort(); /* what was written must read back */
        if (memcmp(&again->law.kind, &lf->law.kind, sizeof lf->law.kind) != 0 ||
            memcmp(again->law.p, lf->law.p, sizeof lf->law.p) != 0 || again->ndraws != lf->ndraws ||
            (lf->ndraws && memcmp(again->draws, lf->draws, lf->ndraws * LS_LAW_NPARAMS * sizeof *lf->draws) != 0))
            abort(); /* ... and to the same numbers */
        ls_lawfile_free(again);
        free(text);
    }
    ls_lawfile_free(lf);
    return 0;
}
