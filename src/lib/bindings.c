/*
 * bindings.c — flat entry points for other languages (loopscale/bindings.h).
 *
 * Each function does what the corresponding command of the program does,
 * with the same library calls and the same defaults, and returns the same
 * JSON document; the options are checked here, with messages that name the
 * setting (not a command-line flag, since no command line is involved).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loopscale/bindings.h"
#include "loopscale/fit.h"
#include "loopscale/holdout.h"
#include "loopscale/law.h"
#include "loopscale/lawfile.h"
#include "loopscale/solve.h"
#include "loopscale/sweep.h"
#include "numtext_internal.h"
#include "outfile_internal.h"

void ls_bind_free(void *p)
{
    free(p);
}

int ls_bind_write_file(const char *path, const void *data, size_t len, ls_error *err)
{
    outfile *out = ls_outfile_open(path, 0, err);
    if (!out)
        return err->code;
    if (ls_outfile_write(out, data, len, err) != 0) {
        ls_outfile_abort(out);
        return err->code;
    }
    return ls_outfile_commit(out, err);
}

/* The fit's parameters from the flat options; 0 or LS_ERR_USAGE. */
static int fit_parameters_of(const ls_bind_fit_options *o, ls_law_kind kind, int check_kind, ls_fit_parameters *p,
                             ls_error *err)
{
    ls_fit_default_parameters(p);
    if (!o)
        return 0;
    if (o->loss) {
        if (strcmp(o->loss, "huber") != 0 && strcmp(o->loss, "mse") != 0)
            return ls_error_set(err, LS_ERR_USAGE, "loss '%s' is not huber or mse", o->loss);
        p->loss = o->loss[0] == 'h' ? LS_FIT_LOSS_HUBER : LS_FIT_LOSS_MSE;
    }
    if (!isnan(o->huber_delta)) {
        if (!(o->huber_delta > 0) || !isfinite(o->huber_delta))
            return ls_error_set(err, LS_ERR_USAGE, "huber_delta %g must be positive", o->huber_delta);
        p->huber_delta = o->huber_delta;
    }
    if (o->space) {
        if (strcmp(o->space, "log") != 0 && strcmp(o->space, "linear") != 0)
            return ls_error_set(err, LS_ERR_USAGE, "space '%s' is not log or linear", o->space);
        p->space = o->space[1] == 'o' ? LS_FIT_SPACE_LOG : LS_FIT_SPACE_LINEAR;
    }
    if (o->grid) {
        if (strcmp(o->grid, "chinchilla") != 0)
            return ls_error_set(err, LS_ERR_USAGE, "grid '%s' is not chinchilla", o->grid);
        p->grid_chinchilla = 1;
    }
    if (o->starts > 1000000)
        return ls_error_set(err, LS_ERR_USAGE, "starts %zu is outside [1, 1000000]", o->starts);
    if (o->bootstrap > 10000000)
        return ls_error_set(err, LS_ERR_USAGE, "bootstrap %zu is outside [0, 10000000]", o->bootstrap);
    if (o->bootstrap > 0 && o->bootstrap < LS_FIT_MIN_INTERVAL_DRAWS)
        return ls_error_set(err, LS_ERR_USAGE, "bootstrap %zu is too few draws for an interval: at least %d (or 0 for "
                            "none)", o->bootstrap, LS_FIT_MIN_INTERVAL_DRAWS);
    if (o->bootstrap_starts > 100)
        return ls_error_set(err, LS_ERR_USAGE, "bootstrap_starts %zu is outside [0, 100]", o->bootstrap_starts);
    if (o->starts > 0)
        p->starts = o->starts;
    p->seed = o->seed;
    if (o->threads < 0 || o->threads > 256)
        return ls_error_set(err, LS_ERR_USAGE, "threads %d is not between 0 and 256", o->threads);
    p->threads = o->threads;
    for (int j = 0; o->fixed && j < LS_LAW_NPARAMS; j++) {
        if (isnan(o->fixed[j]))
            continue;
        char kind_text[64];
        if (check_kind && !ls_law_uses_param(kind, (ls_law_param)j))
            return ls_error_set(err, LS_ERR_USAGE, "cannot fix %s: it is not a parameter of %s",
                                ls_law_param_name((ls_law_param)j), ls_law_kind_format(kind, kind_text, sizeof kind_text));
        if (ls_law_param_check((ls_law_param)j, o->fixed[j], err) != 0) {
            /* The reason is copied out first: err->message is also where the
             * new message is written. */
            char why[sizeof err->message];
            snprintf(why, sizeof why, "%s", err->message);
            return ls_error_set(err, LS_ERR_USAGE, "cannot fix %s: %s", ls_law_param_name((ls_law_param)j), why);
        }
        p->fixed[j] = 1;
        p->fixed_value[j] = o->fixed[j];
    }
    return 0;
}

/* An array of n strings that is NULL, or holds a NULL: an LS_ERR_USAGE
 * error naming it. */
static int strings_missing(const char *const *v, size_t n, const char *what, ls_error *err)
{
    if (n > 0 && !v) {
        ls_error_set(err, LS_ERR_USAGE, "%s is NULL but its count is %zu", what, n);
        return 1;
    }
    for (size_t i = 0; i < n; i++)
        if (!v[i]) {
            ls_error_set(err, LS_ERR_USAGE, "%s[%zu] is NULL", what, i);
            return 1;
        }
    return 0;
}

static ls_sweep *read_sweep(const ls_bind_sweep *sw, const char *group, ls_error *err)
{
    if (!sw || sw->npaths == 0) {
        ls_error_set(err, LS_ERR_USAGE, "give at least one sweep file");
        return NULL;
    }
    if (strings_missing(sw->paths, sw->npaths, "paths", err) || strings_missing(sw->maps, sw->nmaps, "maps", err) ||
        strings_missing(sw->wheres, sw->nwheres, "wheres", err))
        return NULL;
    ls_sweep_options so = {.maps = sw->maps, .nmaps = sw->nmaps, .wheres = sw->wheres, .nwheres = sw->nwheres,
                        .require_loss = 1, .group_column = group, .checksum = 1};
    return ls_sweep_read(sw->paths, sw->npaths, &so, err);
}

int ls_bind_sweep_check(const ls_bind_sweep *sw, size_t *nruns, ls_error *err)
{
    ls_sweep *s = read_sweep(sw, NULL, err);
    if (!s)
        return err->code;
    if (nruns)
        *nruns = s->n;
    ls_sweep_free(s);
    return 0;
}

char *ls_bind_fit(const char *law_text, const ls_bind_sweep *sw, const ls_bind_fit_options *o, const char *command,
                  ls_error *err)
{
    return ls_bind_fit2(law_text, sw, o, command, NULL, err);
}

char *ls_bind_fit2(const char *law_text, const ls_bind_sweep *sw, const ls_bind_fit_options *o, const char *command,
                   char **warnings, ls_error *err)
{
    if (warnings)
        *warnings = NULL;
    ls_law_kind kind;
    if (ls_law_kind_parse(law_text ? law_text : "moe:bounded-sparse", &kind, err) != 0)
        return NULL;
    ls_fit_parameters p;
    if (fit_parameters_of(o, kind, 1, &p, err) != 0)
        return NULL;
    const char *group = o ? o->group : NULL;
    size_t ndraws = o ? o->bootstrap : 0;
    double level = o && !isnan(o->level) ? o->level : 0.95;
    if (group && ndraws == 0) {
        ls_error_set(err, LS_ERR_USAGE, "resampling groups of '%s' needs bootstrap draws", group);
        return NULL;
    }
    if (!(level > 0 && level < 1)) {
        ls_error_set(err, LS_ERR_USAGE, "interval level %g is not between 0 and 1", level);
        return NULL;
    }
    ls_sweep *s = read_sweep(sw, group, err);
    if (!s)
        return NULL;
    char *text = NULL;
    ls_lawfile *lf = NULL;
    ls_fit_result r;
    ls_fit_bootstrap boot;
    memset(&boot, 0, sizeof boot);
    memset(&r, 0, sizeof r);
    if (ls_fit_run(s, kind, &p, &r, err) != 0)
        goto done;
    if (r.n <= r.nfree) {
        ls_error_set(err, LS_ERR_DATA,
                     "%s: %zu %s for %zu free %s %s no residual to judge the fit by or to estimate "
                     "its errors (add runs, or fix some parameters)",
                     s->name, r.n, ls_plural((double)r.n, "run", "runs"), r.nfree,
                     ls_plural((double)r.nfree, "parameter", "parameters"), ls_plural((double)r.n, "leaves", "leave"));
        goto done;
    }
    if (ls_fit_data_check(s, kind, &p, err) != 0)
        goto done;
    if (warnings)
        *warnings = ls_fit_unidentified_warnings(&r);
    /* A fit that did not converge, or cannot tell its parameters apart, is
     * not a law: none is returned, as the program writes none (exit 3). */
    if (!r.converged) {
        ls_error_set(err, LS_ERR_NOCONV,
                     "the best of %zu starts did not converge (after %zu iterations); no law written", r.starts,
                     r.iterations);
        goto done;
    }
    if (!ls_fit_determined(&r)) {
        char reason[96];
        ls_fit_undetermined_reason(s, reason, sizeof reason);
        ls_error_set(err, LS_ERR_NOCONV,
                     "the sweep cannot tell the parameters apart%s: the Jacobian at the best fit is singular, so its "
                     "values are one of many equally good fits (fix some, or add runs); no law written",
                     reason);
        goto done;
    }
    if (ndraws > 0 &&
        ls_fit_run_bootstrap(s, &r, &p, ndraws, o->bootstrap_starts, group != NULL, level, &boot, err) != 0)
        goto done;
    ls_lawfile_provenance prov = {sw->paths, sw->npaths, sw->maps, sw->nmaps, sw->wheres, sw->nwheres, group,
                               command ? command : "", NULL, 0, NULL, NULL};
    lf = ls_lawfile_from_fit(&r, &p, &boot, s, &prov, err);
    if (lf)
        text = ls_lawfile_to_json(lf, err);
done:
    ls_lawfile_free(lf);
    ls_fit_bootstrap_free(&boot);
    ls_sweep_free(s);
    return text;
}

char *ls_bind_holdout(const char *const *laws, size_t nlaws, const char *axes_text, const char *const *split,
                      size_t nsplit, const ls_bind_sweep *sw, const ls_bind_fit_options *o, ls_error *err)
{
    if (nlaws == 0) {
        ls_error_set(err, LS_ERR_USAGE, "give at least one law");
        return NULL;
    }
    if (strings_missing(laws, nlaws, "laws", err) || strings_missing(split, nsplit, "split", err))
        return NULL;
    ls_law_kind *kinds = calloc(nlaws, sizeof *kinds);
    if (!kinds) {
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        return NULL;
    }
    char *text = NULL;
    ls_sweep *s = NULL;
    ls_holdout_result result;
    memset(&result, 0, sizeof result);
    for (size_t i = 0; i < nlaws; i++)
        if (ls_law_kind_parse(laws[i], &kinds[i], err) != 0)
            goto done;
    ls_holdout_axis axes[4] = {LS_HOLDOUT_AXIS_R, LS_HOLDOUT_AXIS_N, LS_HOLDOUT_AXIS_D, LS_HOLDOUT_AXIS_E};
    size_t naxes = 4;
    if (axes_text) {
        naxes = 0;
        const char *p = axes_text;
        while (*p) {
            size_t len = strcspn(p, ",");
            char name[8];
            int a = -1;
            if (len < sizeof name) {
                memcpy(name, p, len);
                name[len] = '\0';
                a = ls_holdout_axis_from_name(name);
            }
            for (size_t j = 0; a >= 0 && j < naxes; j++)
                if (axes[j] == (ls_holdout_axis)a)
                    a = -2;
            if (a < 0) {
                ls_error_set(err, LS_ERR_USAGE, "axes '%s': '%.*s' is not R, N, D or E%s", axes_text, (int)len, p,
                             a == -2 ? " (or is repeated)" : "");
                goto done;
            }
            axes[naxes++] = (ls_holdout_axis)a;
            p += len + (p[len] == ',');
        }
        if (naxes == 0) {
            ls_error_set(err, LS_ERR_USAGE, "axes '%s' names no axis", axes_text);
            goto done;
        }
    }
    ls_fit_parameters p;
    if (fit_parameters_of(o, kinds[0], 0, &p, err) != 0)
        goto done;
    if (!(s = read_sweep(sw, NULL, err)))
        goto done;
    ls_holdout_spec spec = {kinds, nlaws, axes, naxes, split, nsplit};
    if (ls_holdout_run(s, &spec, &p, &result, err) != 0)
        goto done;
    text = ls_holdout_result_to_json(&result, err);
done:
    ls_holdout_result_free(&result);
    ls_sweep_free(s);
    free(kinds);
    return text;
}

char *ls_bind_solve(const char *law_json, double flops, double mem_bytes, double bits, const double *R, size_t nR,
                    const double *E, size_t nE, const double *ladder, size_t nladder, double eps, int uncertainty,
                    double level, int threads, int with_candidates, ls_error *err)
{
    if ((nR > 0 && !R) || (nE > 0 && !E) || (nladder > 0 && !ladder)) {
        ls_error_set(err, LS_ERR_USAGE, "%s is NULL but its count is %zu", nR > 0 && !R ? "R" : nE > 0 && !E ? "E" : "n_act",
                     nR > 0 && !R ? nR : nE > 0 && !E ? nE : nladder);
        return NULL;
    }
    if (!(flops > 0) || !isfinite(flops)) {
        ls_error_set(err, LS_ERR_USAGE, "the compute budget %g must be positive", flops);
        return NULL;
    }
    if (!(mem_bytes > 0)) {
        ls_error_set(err, LS_ERR_USAGE, "the memory budget %g must be positive", mem_bytes);
        return NULL;
    }
    if (!(bits > 0) || !isfinite(bits)) {
        ls_error_set(err, LS_ERR_USAGE, "bits per weight %g must be positive", bits);
        return NULL;
    }
    if (!isnan(eps) && !(eps >= 0)) {
        ls_error_set(err, LS_ERR_USAGE, "eps %g must not be negative", eps);
        return NULL;
    }
    if (uncertainty && !(level > 0 && level < 1)) {
        ls_error_set(err, LS_ERR_USAGE, "interval level %g is not between 0 and 1", level);
        return NULL;
    }
    for (size_t i = 0; i < nR; i++)
        if (R[i] != floor(R[i]) || R[i] < 1) {
            ls_error_set(err, LS_ERR_USAGE, "R %g is not a whole number of loops", R[i]);
            return NULL;
        }
    for (size_t i = 0; i < nE; i++)
        if (E[i] != floor(E[i]) || E[i] < 1) {
            ls_error_set(err, LS_ERR_USAGE, "E %g is not a whole number of experts", E[i]);
            return NULL;
        }
    ls_lawfile *lf = law_json ? ls_lawfile_parse(law_json, strlen(law_json), "law", err) : ls_lawfile_default(err);
    if (!lf)
        return NULL;
    /* As the program does: default lists inside the fitted R and E, and
     * every answer checked against the fitted ranges. */
    ls_law_ranges ranges;
    ls_lawfile_ranges(lf, &ranges);
    double default_R[LS_SOLVE_DEFAULT_NR], default_E[LS_SOLVE_DEFAULT_NE];
    size_t ndefault_R, ndefault_E;
    ls_solve_default_candidates(&ranges, default_R, &ndefault_R, default_E, &ndefault_E);
    ls_solve_options so = {R ? R : default_R, R ? nR : ndefault_R, E ? E : default_E, E ? nE : ndefault_E,
                        ladder, nladder, eps, &ranges};
    if (isnan(eps))
        so.eps = lf->has_fit ? lf->fit.rmse : 0.0;
    ls_arch_template tmpl;
    ls_arch_template_default(&tmpl);
    ls_solve_budget budget = {flops, mem_bytes, bits};
    ls_solve_result result;
    memset(&result, 0, sizeof result);
    ls_solve_uncertainty unc;
    memset(&unc, 0, sizeof unc);
    ls_law *draws = NULL;
    char *text = NULL;
    if (ls_solve_run(&lf->law, &tmpl, &budget, &so, &result, err) != 0)
        goto done;
    if (!result.has_choice) {
        if (isfinite(mem_bytes))
            ls_error_set(err, LS_ERR_DATA, "no candidate fits in %g bytes at %g bits per weight", mem_bytes, bits);
        else
            ls_error_set(err, LS_ERR_DATA, "no model fits a budget of %g %s", flops, ls_plural(flops, "FLOP", "FLOPs"));
        goto done;
    }
    if (uncertainty) {
        draws = malloc((lf->ndraws ? lf->ndraws : 1) * sizeof *draws);
        if (!draws) {
            ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
            goto done;
        }
        for (size_t i = 0; i < lf->ndraws; i++)
            ls_lawfile_draw(lf, i, &draws[i]);
        if (ls_solve_run_uncertainty(draws, lf->ndraws, &tmpl, &budget, &so, level, threads, &unc, err) != 0)
            goto done;
    }
    text = ls_solve_result_to_json(&budget, so.eps, &result, uncertainty ? &unc : NULL, with_candidates, err);
done:
    free(draws);
    ls_solve_uncertainty_free(&unc);
    ls_solve_result_free(&result);
    ls_lawfile_free(lf);
    return text;
}

int ls_bind_predict(const char *law_json, size_t n, const double *n_act, const double *n_total, const double *n_loop,
                    const double *R, const double *E, const double *k, const double *tokens, double *loss,
                    ls_error *err)
{
    if (!law_json || !n_act || !tokens || !loss)
        return ls_error_set(err, LS_ERR_USAGE, "give a law, n_act and tokens");
    ls_lawfile *lf = ls_lawfile_parse(law_json, strlen(law_json), "law", err);
    if (!lf)
        return err->code;
    for (size_t i = 0; i < n; i++) {
        ls_sweep_row row = {.n_act = n_act[i],
                         .n_total = n_total ? n_total[i] : n_act[i],
                         .n_loop = n_loop ? n_loop[i] : NAN,
                         .R = R ? R[i] : 1,
                         .E = E ? E[i] : 1,
                         .k = k ? k[i] : 1,
                         .tokens = tokens[i],
                         .loss = NAN};
        ls_sweep_quantity which;
        char reason[128];
        if (ls_sweep_row_check(&row, &which, reason, sizeof reason) != 0 || !isfinite(row.tokens) ||
            !isfinite(row.n_act)) {
            if (isfinite(row.tokens) && isfinite(row.n_act))
                ls_error_set(err, LS_ERR_DATA, "configuration %zu: %s %s", i, ls_sweep_quantity_name(which), reason);
            else
                ls_error_set(err, LS_ERR_DATA, "configuration %zu: n_act and tokens must be finite", i);
            ls_lawfile_free(lf);
            return err->code;
        }
        ls_law_point x = ls_sweep_row_point(&row);
        loss[i] = ls_law_loss(&lf->law, &x);
    }
    ls_lawfile_free(lf);
    return 0;
}

char *ls_bind_law_normalise(const char *law_json, ls_error *err)
{
    if (!law_json) {
        ls_error_set(err, LS_ERR_USAGE, "give a law");
        return NULL;
    }
    ls_lawfile *lf = ls_lawfile_parse(law_json, strlen(law_json), "law", err);
    if (!lf)
        return NULL;
    char *text = ls_lawfile_to_json(lf, err);
    ls_lawfile_free(lf);
    return text;
}

char *ls_bind_default_law(ls_error *err)
{
    ls_lawfile *lf = ls_lawfile_default(err);
    if (!lf)
        return NULL;
    char *text = ls_lawfile_to_json(lf, err);
    ls_lawfile_free(lf);
    return text;
}
