/*
 * fit_sweep.c — fit a scaling law to a sweep with libloopscale, as a program
 * outside the project would: built against the installed library through
 * pkg-config (examples/c/README.md).
 *
 *     cc -o fit_sweep fit_sweep.c $(pkg-config --cflags --libs loopscale)
 *     ./fit_sweep LAW SWEEP [--map NEW=OLD]... [--where 'COL OP X']...
 *
 * It prints the law, the number of runs, the objective and every parameter
 * with 17 significant digits (the law file's own precision), one per line.
 * A fit is judged before it is printed, as `loopscale fit` judges it: too
 * few runs (exit 65), a best solve that did not converge, or a sweep that
 * cannot determine the law or tell its parameters apart (exit 3, with the
 * reason) print no parameters, since they would be one of many equally good
 * answers rather than a law.
 * GSL's error handler is left as the host found it: the library checks every
 * GSL status itself and never relies on the handler being switched off.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <loopscale/fit.h>
#include <loopscale/law.h>
#include <loopscale/sweep.h>
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

    const char **maps = calloc((size_t)argc, sizeof *maps);
    const char **wheres = calloc((size_t)argc, sizeof *wheres);
    if (!maps || !wheres)
        return 70;
    size_t nmaps = 0, nwheres = 0;
    for (int i = 3; i < argc; i++) {
        if (i + 1 < argc && strcmp(argv[i], "--map") == 0)
            maps[nmaps++] = argv[++i];
        else if (i + 1 < argc && strcmp(argv[i], "--where") == 0)
            wheres[nwheres++] = argv[++i];
        else {
            fprintf(stderr, "%s: unexpected argument '%s'\n", argv[0], argv[i]);
            return 64;
        }
    }

    ls_error err;
    ls_error_clear(&err);
    int status = 0;
    ls_sweep *s = NULL;
    ls_law_kind kind;
    if (ls_law_kind_parse(argv[1], &kind, &err) != 0)
        goto done;
    ls_sweep_options so = {.maps = maps, .nmaps = nmaps, .wheres = wheres, .nwheres = nwheres, .require_loss = 1};
    const char *paths[] = {argv[2]};
    if (!(s = ls_sweep_read(paths, 1, &so, &err)))
        goto done;

    ls_fit_parameters p;
    ls_fit_default_parameters(&p);
    ls_fit_result r;
    if (ls_fit_run(s, kind, &p, &r, &err) != 0)
        goto done;
    if (r.n <= r.nfree) {
        ls_error_set(&err, LS_ERR_DATA, "%zu runs for %zu free parameters leave no residual to judge the fit by",
                     r.n, r.nfree);
        goto done;
    }
    if (!r.converged) {
        ls_error_set(&err, LS_ERR_NOCONV, "the best of %zu starts did not converge; no fit printed", r.starts);
        goto done;
    }
    if (ls_fit_data_check(s, kind, &p, &err) != 0)
        goto done; /* the reason is in err.message */
    if (!ls_fit_determined(&r)) {
        char reason[128];
        ls_fit_undetermined_reason(s, reason, sizeof reason);
        ls_error_set(&err, LS_ERR_NOCONV,
                     "the sweep cannot tell the parameters apart%s: the Jacobian at the best fit is singular; no fit "
                     "printed",
                     reason);
        goto done;
    }

    char name[64];
    printf("law %s\n", ls_law_kind_format(kind, name, sizeof name));
    printf("runs %zu\n", r.n);
    printf("objective %.17g\n", r.objective);
    printf("converged %s\n", r.converged ? "yes" : "no");
    ls_law_param list[LS_LAW_NPARAMS];
    size_t np = ls_law_params_of(kind, list);
    for (size_t j = 0; j < np; j++)
        printf("%s %.17g\n", ls_law_param_name(list[j]), r.law.p[list[j]]);

done:
    if (err.code != LS_OK) {
        fprintf(stderr, "%s: %s\n", argv[0], err.message);
        status = ls_exit_status(err.code);
    }
    ls_sweep_free(s);
    free(maps);
    free(wheres);
    return status;
}
