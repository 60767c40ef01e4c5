/*
 * fit_sweep.c — fit a scaling law to a sweep with libloopscale, as a program
 * outside the project would: built against the installed library through
 * pkg-config (examples/c/README.md).
 *
 *     cc -o fit_sweep fit_sweep.c $(pkg-config --cflags --libs loopscale)
 *     ./fit_sweep LAW SWEEP [--map NEW=OLD]... [--where 'COL OP X']...
 *
 * It runs the library's `fit` command (loopscale/command.h) — the one entry
 * point the loopscale program and the Python package call — and prints the
 * law, the number of runs, the objective and every parameter with 17
 * significant digits (the law file's own precision), one per line.  The
 * library judges the fit, as it does for the program: too few runs (exit
 * 65), a best solve that did not converge, or a sweep that cannot determine
 * the law or tell its parameters apart (exit 3, with the reason) give no law.
 * Its warnings are printed on standard error, as the program prints them.
 * GSL's error handler is left as the host found it: the library checks every
 * GSL status itself and never relies on the handler being switched off.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <loopscale/command.h>
#include <loopscale/law.h>
#include <loopscale/lawfile.h>
#include <loopscale/version.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: %s LAW SWEEP [--map NEW=OLD]... [--where 'COL OP X']...\n", argv[0]);
        return 64;
    }
    if (strcmp(ls_version(), LOOPSCALE_VERSION_STRING) != 0)
        fprintf(stderr, "note: compiled with loopscale %s, running with %s\n", LOOPSCALE_VERSION_STRING,
                ls_version());
    ls_error err;
    ls_error_clear(&err);
    ls_result *res = NULL;
    ls_lawfile *lf = NULL;
    ls_request *req = ls_request_new("fit", LS_FRONT_END_CLI, &err);
    int status = req ? 0 : err.code;
    /* The options as the program spells them; the library checks each. */
    if (status == 0)
        status = ls_request_set(req, "law", argv[1], &err);
    if (status == 0)
        status = ls_request_set(req, "format", "json", &err);
    if (status == 0)
        status = ls_request_add_operand(req, argv[2], strlen(argv[2]), &err);
    for (int i = 3; status == 0 && i < argc; i++) {
        if (i + 1 < argc && (strcmp(argv[i], "--map") == 0 || strcmp(argv[i], "--where") == 0)) {
            status = ls_request_set(req, argv[i] + 2, argv[i + 1], &err);
            i++;
        } else {
            fprintf(stderr, "%s: unexpected argument '%s'\n", argv[0], argv[i]);
            ls_request_free(req);
            return 64;
        }
    }
    if (status == 0)
        status = ls_command_run(req, &res, &err);
    for (size_t i = 0; res && i < ls_result_warning_count(res); i++)
        fprintf(stderr, "%s: warning: %s\n", argv[0], ls_result_warning(res, i)->message);
    /* The law file the fit made, read back as a library object. */
    const char *json = status == 0 ? ls_result_json(res) : NULL;
    if (json && !(lf = ls_lawfile_parse(json, strlen(json), "fit", &err)))
        status = err.code;
    if (status == 0) {
        char name[64];
        printf("law %s\n", ls_law_kind_format(lf->law.kind, name, sizeof name));
        printf("runs %zu\n", lf->fit.n);
        printf("objective %.17g\n", lf->fit.objective);
        printf("converged %s\n", lf->fit.converged ? "yes" : "no");
        ls_law_param list[LS_LAW_NPARAMS];
        size_t np = ls_law_params_of(lf->law.kind, list);
        for (size_t j = 0; j < np; j++)
            printf("%s %.17g\n", ls_law_param_name(list[j]), lf->law.p[list[j]]);
    }
    if (status != 0)
        fprintf(stderr, "%s: %s\n", argv[0], err.message);
    ls_lawfile_free(lf);
    ls_result_free(res);
    ls_request_free(req);
    return ls_exit_status(status);
}
