/*
 * loopscale fit — fit a law to one or more sweeps: a multi-start
 * second-order solve of Chinchilla's Huber objective, bootstrap intervals,
 * law file.
 */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "loopscale/diagnose.h"
#include "loopscale/fit.h"
#include "loopscale/lawfile.h"
#include "loopscale/split.h"
#include "numtext_internal.h"
#include "loopscale/plot.h"

static const char USAGE[] =
    "Usage: loopscale fit [--law BASE:MAPPING] [OPTIONS] SWEEP... [-o LAW.json]\n"
    "\n"
    "Fit a loss law to the runs of one or more sweeps (CSV or JSON Lines, plain or gzip; '-' for\n"
    "standard input).\n"
    "The objective is Chinchilla's approach 3: the sum over runs of Huber(ln Lhat - ln L), solved\n"
    "from many starting points with analytic derivatives: damped IRLS steps far from the optimum,\n"
    "Newton's steps near it (for looped and MoE laws the starts take IRLS steps and only the\n"
    "best start's polish Newton's).\n"
    "\n"
    "  -l, --law LAW           law to fit, BASE[:MAPPING] (default moe:bounded-sparse); 'loopscale\n"
    "                          help laws' lists the bases and mappings. Parameters the sweep cannot\n"
    "                          identify are held at their neutral values, with a warning;\n"
    "                          so is a fit whose c ran to 0 or above the lowest loss, or\n"
    "                          whose parameter has an unbounded interval (docs/fitting.md).\n"
    "      --loss huber|mse    objective (default huber)\n"
    "      --huber-delta X     Huber threshold (default 1e-3)\n"
    "      --space log|linear  residuals ln Lhat - ln L (default) or Lhat - L\n"
    "      --grid chinchilla   start the base parameters from Chinchilla's 4,500-point grid\n"
    "      --starts N          otherwise from N Sobol points in the same box (default 32)\n"
    "      --fix NAME=VALUE    hold a parameter at VALUE (repeatable, once per parameter);\n"
    "                          --fix c=0 drops the irreducible term\n"
    "      --fix-from FILE     hold every parameter of law file FILE that this law has (the\n"
    "                          second stage of a two-stage fit: base terms first, then the rest)\n"
    "      --tie NAME=LEADER   fit NAME equal to LEADER, two exponents or two coefficients\n"
    "                          (repeatable), e.g. --tie beta=alpha (Gadre et al.'s law)\n"
    "      --bootstrap N       refit N resamples of the runs for percentile intervals: 0 (the\n"
    "                          default) or at least 20\n"
    "      --group COL         resample whole groups of runs sharing COL's value\n"
    "      --bootstrap-starts K  refit each draw from the full-data optimum and K perturbed\n"
    "                          starts (default 2; loose parameters restart from a grid)\n"
    "      --ci LEVEL          interval level, 0.5 to 0.999 (default 0.95)\n"
    "      --seed S            bootstrap random seed (default 1)\n"
    "      --threads T         worker threads (default: one per core; results do not depend on it)\n"
    "      --scale NAME        damping of the IRLS steps: levenberg (default), more, marquardt\n"
    "      --max-iterations N  per local solve (default 500)\n"
    "      --format FMT        table (default) or json (the law file on standard output; nothing\n"
    "                          when the fit fails)\n"
    "  -o, --output FILE       write the law file (JSON); not written when the fit fails\n"
    CLI_SWEEP_FLOPS_HELP
    "      --plot FILE         draw the observed and fitted loss against R for each E and N_act\n"
    "                          (.svg, .pdf or .png); not written when the fit fails\n"
    "      --by COL            fit each group of runs sharing COL's value on its own (repeatable:\n"
    "                          a group per combination); numbers within --group-tol are one group.\n"
    "                          One table, a row per group; -o and --plot name a file per group\n"
    "                          with {group} in the name (-o 'law-{group}.json'); --format json\n"
    "                          prints a JSON array of the law files; all written or none\n";
/* The rest of the help (C99 promises string literals of 4,095 bytes only). */
static const char USAGE_TAIL[] = CLI_SWEEP_HELP CLI_PLOT_HELP
    "  -h, --help              show this help\n"
    "\n"
    "Exit status 3 when the best solve did not converge (nothing is written).\n";

enum {
    OPT_FIX = OPT_COMMAND_FIRST,
    OPT_TIE,
    OPT_FIX_FROM,
    OPT_BOOTSTRAP,
    OPT_GROUP,
    OPT_CI,
    OPT_SCALE,
    OPT_MAX_ITER,
    OPT_BOOTSTRAP_STARTS,
    OPT_PLOT,
    OPT_BY
};

typedef struct fit_options {
    ls_law_kind kind;
    ls_fit_parameters params;
    cli_sweep_args sweep;
    cli_strings fixes;
    cli_strings ties;
    size_t bootstrap;
    size_t bootstrap_starts; /* perturbed starts per draw, besides the full-data optimum */
    const char *group;
    const char *fix_from; /* --fix-from FILE */
    double ci;
    cli_format format;
    const char *output;
    const char *plot;
    const char *template_path;
    int flops_given;
    ls_law_flops_kind flops_kind;
    ls_law_flops flops; /* how a flops column was counted; recorded in the law file */
    ls_figure figure;
    cli_strings by; /* --by columns */
} fit_options;

/* ---- progress on a terminal -------------------------------------------------- */

typedef struct progress_state {
    const char *what;
    double last;
    int shown;
} progress_state;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void show_progress(void *context, size_t done, size_t total)
{
    progress_state *ps = context;
    double t = now_seconds();
    if (done < total && t - ps->last < 0.2)
        return;
    ps->last = t;
    ps->shown = 1;
    fprintf(stderr, "\rloopscale fit: %s %zu/%zu", ps->what, done, total);
    fflush(stderr);
}

static void end_progress(progress_state *ps)
{
    if (ps->shown)
        fputs("\r\033[K", stderr);
    ps->shown = 0;
}

/* ---- output ------------------------------------------------------------------ */

/* --fix-from FILE: hold each parameter of FILE's law that `kind` uses at
 * its value there (a two-stage fit: the base terms from one fit, the
 * further terms of a larger law fitted with them held).  A later --fix of
 * the same parameter is refused as given twice. */
static int fix_from_law(const char *cmd, const char *path, ls_law_kind kind, ls_fit_parameters *p,
                        const char *given[LS_LAW_NPARAMS])
{
    int status = 0;
    cli_file_input("--fix-from", path);
    status = cli_files_check(cmd);
    ls_lawfile *lf = status == 0 ? cli_read_law(cmd, path, 0, &status) : NULL;
    if (status != 0)
        return status;
    ls_law_param list[LS_LAW_NPARAMS];
    size_t np = ls_law_params_of(lf->law.kind, list), held = 0;
    for (size_t i = 0; i < np; i++) {
        ls_law_param j = list[i];
        if (!ls_law_uses_param(kind, j) || (j == LS_LAW_P_E_START && !lf->fixed[j]))
            continue;
        p->fixed[j] = 1;
        p->fixed_value[j] = lf->law.p[j];
        given[j] = "--fix-from";
        held++;
    }
    ls_lawfile_free(lf);
    if (held == 0) {
        char kind_text[64];
        return cli_usage_error(cmd, "--fix-from %s: its law shares no parameter with %s", path,
                               ls_law_kind_format(kind, kind_text, sizeof kind_text));
    }
    return 0;
}

static void format_value(char *buf, size_t size, double x)
{
    if (isnan(x))
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%.6g", x);
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The compute-optimal exponent a of the fitted law (N_opt ~ F^a, D_opt ~
 * F^(1-a); `loopscale frontier` gives the whole frontier), with its
 * percentile interval over the bootstrap draws; nothing when the law has no
 * closed form or the exponents admit no optimum. */
static void print_optimum_exponent(const fit_options *o, const ls_fit_result *r, const ls_fit_bootstrap *b)
{
    double n, d, a;
    ls_error err;
    if (ls_law_compute_optimal(&r->law, 1e21, &n, &d, &a, &err) != 0)
        return;
    const char *how = r->law.kind.base == LS_LAW_BASE_KAPLAN ? "alpha_D / (alpha_N + alpha_D)" : "beta / (alpha + beta)";
    /* The closed form counts F as 6 N D whatever the sweep's FLOPs were
     * counted as; said, because frontier refuses such a law for that reason. */
    printf("optimum    N_opt ~ F^%.4f, D_opt ~ F^%.4f (a = %s%s)\n", a, 1.0 - a, how,
           o->flops.kind != LS_LAW_FLOPS_6ND ? "; F counted as 6 N D, not as the sweep's FLOPs" : "");
    if (!b || b->ndraws < LS_FIT_MIN_INTERVAL_DRAWS) /* as for the parameters: no interval from fewer */
        return;
    double *as = malloc(b->ndraws * sizeof *as);
    size_t m = 0;
    for (size_t i = 0; as && i < b->ndraws; i++) {
        ls_law l = r->law;
        memcpy(l.p, b->draws + i * LS_LAW_NPARAMS, sizeof l.p);
        if (ls_law_compute_optimal(&l, 1e21, &n, &d, &as[m], &err) == 0)
            m++;
    }
    if (m > 0) {
        qsort(as, m, sizeof *as, compare_doubles);
        double tail = (1.0 - o->ci) / 2.0;
        size_t lo = (size_t)floor(tail * (double)(m - 1)), hi = (size_t)ceil((1.0 - tail) * (double)(m - 1));
        printf("           a in [%.4f, %.4f] (%g%% of %zu draws)\n", as[lo], as[hi], 100 * o->ci, m);
    }
    free(as);
}

static int print_table(const fit_options *o, const ls_sweep *s, const ls_fit_result *r, const ls_fit_bootstrap *b,
                       double seconds, int threads)
{
    char kind_text[64];
    ls_law_kind_format(r->law.kind, kind_text, sizeof kind_text);
    printf("law        %s\n", kind_text);
    printf("runs       %zu (%s)\n", r->n, strcmp(s->name, "-") == 0 ? "standard input" : s->name);
    if (o->flops.kind != LS_LAW_FLOPS_6ND) /* what a flops column was read as, and the law file records */
        printf("FLOPs      counted as %s: D = %s\n", ls_law_flops_name(o->flops.kind),
               ls_law_flops_formula(o->flops.kind));
    const char *space = o->params.space == LS_FIT_SPACE_LOG ? "ln Lhat - ln L" : "Lhat - L";
    if (o->params.loss == LS_FIT_LOSS_HUBER)
        printf("objective  %.9g  (sum of Huber(%s), delta %g)\n", r->objective, space, o->params.huber_delta);
    else
        printf("objective  %.9g  (sum of (%s)^2)\n", r->objective, space);
    printf("RMSE       %.6g (loss units)\n", r->rmse);
    printf("starts     %zu, %zu reached the best objective (within %g relative), %zu converged\n", r->starts,
           r->starts_at_best, o->params.best_rtol, r->starts_converged);
    if (r->stage_one_starts)
        printf("           after %zu stage-one starts on the base parameters\n", r->stage_one_starts);
    printf("converged  %s (%zu iteration%s)\n", r->converged ? "yes" : "NO", r->iterations, r->iterations == 1 ? "" : "s");
    printf("time       %.3f s, %d thread%s\n", seconds, threads, threads == 1 ? "" : "s");
    if (b && b->ndraws + b->failed + b->outside > 0) {
        printf("bootstrap  %zu draws%s%s, %zu did not converge", b->ndraws + b->failed + b->outside,
               o->group ? " of groups by " : "", o->group ? o->group : "", b->failed);
        if (b->outside)
            printf(", %zu ended outside the law's domain", b->outside);
        printf("\n");
    }
    print_optimum_exponent(o, r, b);
    printf("\n");

    int with_ci = b && b->ndraws >= LS_FIT_MIN_INTERVAL_DRAWS;
    char ci_header[32];
    snprintf(ci_header, sizeof ci_header, "%g%% interval", 100 * o->ci);
    const char *headers[] = {"parameter", "value", "stderr*", with_ci ? ci_header : "", ""};
    size_t ncols = with_ci ? 4 : 3;
    cli_table *t = cli_table_new(ncols, headers);
    ls_law_param list[LS_LAW_NPARAMS];
    size_t np = ls_law_params_of(r->law.kind, list);
    for (size_t i = 0; t && i < np; i++) {
        ls_law_param j = list[i];
        char value[32], se[32], ci[64];
        format_value(value, sizeof value, r->law.p[j]);
        if (r->unidentified[j])
            snprintf(se, sizeof se, "held (unidentified)");
        else if (r->fixed[j])
            snprintf(se, sizeof se, "held");
        else if (r->tied[j])
            snprintf(se, sizeof se, "= %s", ls_law_param_name((ls_law_param)(r->tied[j] - 1)));
        else
            format_value(se, sizeof se, r->stderr_of[j]);
        if (with_ci && !r->fixed[j] && !isnan(b->ci_low[j]))
            snprintf(ci, sizeof ci, "[%.6g, %.6g]", b->ci_low[j], b->ci_high[j]);
        else
            snprintf(ci, sizeof ci, "-");
        const char *cells[] = {ls_law_param_name(j), value, se, ci};
        if (cli_table_add(t, cells) != 0) {
            cli_table_free(t);
            t = NULL;
        }
    }
    if (!t) {
        cli_error("fit", "out of memory");
        return ls_exit_status(LS_ERR_INTERNAL);
    }
    cli_table_print(t, stdout, CLI_FORMAT_TABLE);
    cli_table_free(t);
    printf("\n* standard errors from the Jacobian (Gauss-Newton, normal approximation). With Huber on\n"
           "  log loss most residuals sit in its linear branch and these run up to 2x too small;%s\n",
           with_ci ? "\n  prefer the bootstrap intervals." : "\n  use --bootstrap N for intervals.");
    return 0;
}

/* The fit's parameters that the runs do not determine (ls_fit_diagnose),
 * one warning each; the law file carries the same lines. */
static int warn_diagnosed(const char *cmd, const ls_sweep *s, const ls_fit_result *r, const ls_fit_bootstrap *b)
{
    char *lines = ls_fit_diagnose(s, r, b);
    if (!lines) {
        cli_error(cmd, "out of memory");
        return ls_exit_status(LS_ERR_INTERNAL);
    }
    for (char *line = lines, *end; (end = strchr(line, '\n')); line = end + 1)
        cli_warn(cmd, "%.*s", (int)(end - line), line);
    free(lines);
    return 0;
}

static ls_lawfile *make_lawfile(const fit_options *o, const ls_sweep *s, const ls_fit_result *r, const ls_fit_bootstrap *b,
                             char *const *paths, size_t npaths, ls_error *err)
{
    ls_lawfile_provenance prov = {(const char *const *)paths, npaths, (const char *const *)o->sweep.maps.v,
                               o->sweep.maps.n, (const char *const *)o->sweep.wheres.v, o->sweep.wheres.n,
                               o->group, cli_command_line(), (const char *const *)o->sweep.given.v,
                               o->sweep.given.n, &o->flops};
    return ls_lawfile_from_fit(r, &o->params, b, s, &prov, err);
}

/* ---- --by: a fit for each group of runs ---------------------------------------- */

#define GROUP_PLACEHOLDER "{group}"
/* The most bytes of a file name a group's values take (a name must fit NAME_MAX). */
#define GROUP_NAME_MAX 160

/* With --by, each output's name must say where a group's value goes; without
 * it, {group} stands for nothing. */
static int check_group_pattern(const char *cmd, const char *option, const char *path, int by)
{
    if (!path)
        return 0;
    int has = strstr(path, GROUP_PLACEHOLDER) != NULL;
    if (by && !has)
        return cli_usage_error(cmd, "%s '%s': with --by each group has a file of its own: put {group} in the name, "
                               "e.g. %s '%s'", option, path, option,
                               strcmp(option, "-o") == 0 ? "law-{group}.json" : "fit-{group}.svg");
    if (!by && has)
        return cli_usage_error(cmd, "%s '%s': {group} stands for a group's value, and runs are split into groups "
                               "only with --by COL", option, path);
    return 0;
}

/* A group's values as a file name part: values joined by '-', each byte not a
 * letter, digit, '.', '_', '+' or '-' written as '_' (so "rw/base" is
 * "rw_base"), at most GROUP_NAME_MAX bytes. */
static void group_file_part(const ls_sweep_groups *sp, size_t g, char *buf, size_t size)
{
    size_t used = 0, limit = size - 1 < GROUP_NAME_MAX ? size - 1 : GROUP_NAME_MAX;
    for (size_t c = 0; c < sp->ncolumns; c++) {
        if (c > 0 && used < limit)
            buf[used++] = '-';
        for (const char *v = sp->value[g * sp->ncolumns + c]; *v && used < limit; v++) {
            unsigned char ch = (unsigned char)*v;
            buf[used++] = (ch < 128 && isalnum(ch)) || ch == '.' || ch == '_' || ch == '+' || ch == '-' ? (char)ch : '_';
        }
    }
    buf[used] = '\0';
}

/* pattern with every {group} replaced by part; malloc'd (NULL pattern: NULL). */
static char *expand_pattern(const char *pattern, const char *part, int *oom)
{
    if (!pattern)
        return NULL;
    size_t n = 1, plen = strlen(GROUP_PLACEHOLDER);
    for (const char *p = pattern; *p;)
        if (strncmp(p, GROUP_PLACEHOLDER, plen) == 0)
            n += strlen(part), p += plen;
        else
            n++, p++;
    char *out = malloc(n), *q = out;
    if (!out) {
        *oom = 1;
        return NULL;
    }
    for (const char *p = pattern; *p;)
        if (strncmp(p, GROUP_PLACEHOLDER, plen) == 0) {
            size_t k = strlen(part);
            memcpy(q, part, k);
            q += k;
            p += plen;
        } else
            *q++ = *p++;
    *q = '\0';
    return out;
}

typedef struct group_fit {
    ls_sweep *runs;
    ls_fit_result result;
    ls_fit_bootstrap boot;
    int fitted, determined;
    ls_lawfile *lf;
    char *law_path, *plot_path;
    char *law_text;
    unsigned char *figure;
    size_t figure_len;
    char command[512]; /* "fit: dataset=rw, decay=const": messages about this group */
} group_fit;

static int print_by_table(const fit_options *o, const ls_sweep *s, const ls_sweep_groups *sp, const group_fit *gf)
{
    char kind_text[64];
    ls_law_kind_format(o->kind, kind_text, sizeof kind_text);
    printf("law        %s\n", kind_text);
    printf("runs       %zu in %zu group%s by ", s->n, sp->ngroups, sp->ngroups == 1 ? "" : "s");
    for (size_t c = 0; c < sp->ncolumns; c++)
        printf("%s%s", c ? ", " : "", s->by_names[c]);
    printf(" (%s)\n", strcmp(s->name, "-") == 0 ? "standard input" : s->name);
    const char *space = o->params.space == LS_FIT_SPACE_LOG ? "ln Lhat - ln L" : "Lhat - L";
    if (o->params.loss == LS_FIT_LOSS_HUBER)
        printf("objective  sum of Huber(%s), delta %g, for each group\n\n", space, o->params.huber_delta);
    else
        printf("objective  sum of (%s)^2, for each group\n\n", space);
    ls_law_param list[LS_LAW_NPARAMS];
    size_t np = ls_law_params_of(o->kind, list);
    size_t ncols = sp->ncolumns + np + 4;
    const char **headers = calloc(ncols, sizeof *headers);
    const char **cells = calloc(ncols, sizeof *cells);
    char (*buf)[32] = calloc(ncols, sizeof *buf);
    cli_table *t = NULL;
    if (headers && cells && buf) {
        size_t k = 0;
        for (size_t c = 0; c < sp->ncolumns; c++)
            headers[k++] = s->by_names[c];
        headers[k++] = "runs";
        for (size_t i = 0; i < np; i++)
            headers[k++] = ls_law_param_name(list[i]);
        headers[k++] = "RMSE";
        headers[k++] = "objective";
        headers[k++] = "converged";
        t = cli_table_new(ncols, headers);
    }
    for (size_t g = 0; t && g < sp->ngroups; g++) {
        const ls_fit_result *r = &gf[g].result;
        size_t k = 0;
        for (size_t c = 0; c < sp->ncolumns; c++)
            cells[k++] = sp->value[g * sp->ncolumns + c];
        snprintf(buf[k], sizeof buf[k], "%zu", r->n);
        cells[k] = buf[k], k++;
        for (size_t i = 0; i < np; i++) {
            format_value(buf[k], sizeof buf[k], r->law.p[list[i]]);
            if (r->fixed[list[i]] || r->unidentified[list[i]])
                snprintf(buf[k] + strlen(buf[k]), sizeof buf[k] - strlen(buf[k]), " (held)");
            cells[k] = buf[k], k++;
        }
        snprintf(buf[k], sizeof buf[k], "%.6g", r->rmse);
        cells[k] = buf[k], k++;
        snprintf(buf[k], sizeof buf[k], "%.6g", r->objective);
        cells[k] = buf[k], k++;
        cells[k++] = !r->converged ? "NO" : !gf[g].determined ? "undetermined" : "yes";
        if (cli_table_add(t, cells) != 0) {
            cli_table_free(t);
            t = NULL;
        }
    }
    free(headers);
    free(cells);
    free(buf);
    if (!t) {
        cli_error("fit", "out of memory");
        return ls_exit_status(LS_ERR_INTERNAL);
    }
    cli_table_print(t, stdout, CLI_FORMAT_TABLE);
    cli_table_free(t);
    printf("\nRMSE in loss units; each group's law file records its runs as filters (--where).\n");
    return 0;
}

/* fit --by: split the runs, fit each group as fit fits a sweep, print one
 * table, and write every group's law file and plot, or none. */
static int fit_by(const fit_options *o, const ls_sweep *s, char *const *paths, size_t npaths)
{
    const char *cmd = "fit";
    ls_error err;
    ls_sweep_groups sp;
    if (ls_sweep_split(s, &sp, &err) != 0)
        return cli_fail(cmd, &err);
    size_t ng = sp.ngroups;
    size_t nfiles = (o->output ? ng : 0) + (o->plot ? ng : 0);
    int status = 0;
    if (nfiles > LS_OUTFILE_MAX_OPEN)
        status = cli_usage_error(cmd, "--by: %zu groups make %zu files to write at once, more than %d (select fewer "
                                 "runs with --where, or print the laws with --format json)", ng, nfiles,
                                 LS_OUTFILE_MAX_OPEN);
    group_fit *gf = status ? NULL : calloc(ng, sizeof *gf);
    if (status == 0 && !gf)
        status = cli_fail(cmd, &(ls_error){LS_ERR_INTERNAL, "out of memory"});
    /* Each group's files are checked against the inputs and one another
     * (two groups whose names sanitise alike would share a file) before any
     * fit. */
    int oom = 0;
    for (size_t g = 0; status == 0 && g < ng; g++) {
        char part[GROUP_NAME_MAX + 1];
        group_file_part(&sp, g, part, sizeof part);
        gf[g].law_path = expand_pattern(o->output, part, &oom);
        gf[g].plot_path = expand_pattern(o->plot, part, &oom);
        cli_file_output("-o", gf[g].law_path);
        cli_file_output("--plot", gf[g].plot_path);
        size_t used = (size_t)snprintf(gf[g].command, sizeof gf[g].command, "%s: ", cmd);
        for (size_t c = 0; c < sp.ncolumns && used < sizeof gf[g].command; c++)
            used += (size_t)snprintf(gf[g].command + used, sizeof gf[g].command - used, "%s%s=%s", c ? ", " : "",
                                     s->by_names[c], sp.value[g * sp.ncolumns + c]);
    }
    if (status == 0 && oom)
        status = cli_fail(cmd, &(ls_error){LS_ERR_INTERNAL, "out of memory"});
    /* Values that differ only in what a file name cannot hold. */
    for (size_t g = 0; status == 0 && o->output && g < ng; g++)
        for (size_t h = g + 1; status == 0 && h < ng; h++)
            if (strcmp(gf[g].law_path, gf[h].law_path) == 0)
                status = cli_usage_error(cmd, "--by: groups '%s' and '%s' would both write %s (file names keep "
                                         "letters, digits and . _ + - only)", gf[g].command + strlen(cmd) + 2,
                                         gf[h].command + strlen(cmd) + 2, gf[g].law_path);
    if (status == 0 && nfiles)
        status = cli_files_check(cmd);
    const char *not_written = o->output || o->plot ? "no file written for any group"
                              : o->format == CLI_FORMAT_JSON ? "no law written"
                                                             : "no fit printed";
    for (size_t g = 0; status == 0 && g < ng; g++) {
        group_fit *f = &gf[g];
        if (!(f->runs = ls_sweep_split_subset(s, &sp, g, &err)))
            status = cli_fail(f->command, &err);
        else if (ls_fit_run(f->runs, o->kind, &o->params, &f->result, &err) != 0)
            status = cli_fail(f->command, &err);
        else {
            f->fitted = 1;
            status = cli_fit_usable(f->command, f->runs, o->kind, &o->params, &f->result, not_written);
        }
        f->determined = status == 0 && f->result.converged ? ls_fit_determined(&f->result) : 1;
        if (status == 0 && f->result.converged && f->determined && o->bootstrap > 0 &&
            ls_fit_run_bootstrap(f->runs, &f->result, &o->params, o->bootstrap, o->bootstrap_starts, o->group != NULL,
                                 o->ci, &f->boot, &err) != 0)
            status = cli_fail(f->command, &err);
    }
    int all_fits = 1;
    for (size_t g = 0; status == 0 && g < ng; g++)
        all_fits = all_fits && gf[g].result.converged && gf[g].determined;
    /* Each group's law file records the filters that select its runs. */
    const char **wheres = NULL;
    size_t nw = 0;
    if (status == 0 && all_fits && (o->format == CLI_FORMAT_JSON || o->output || o->plot) &&
        !(wheres = calloc(o->sweep.wheres.n + 2 * sp.ncolumns + 1, sizeof *wheres)))
        status = cli_fail(cmd, &(ls_error){LS_ERR_INTERNAL, "out of memory"});
    for (size_t g = 0; wheres && status == 0 && g < ng; g++) {
        nw = 0;
        for (size_t i = 0; i < o->sweep.wheres.n; i++)
            wheres[nw++] = o->sweep.wheres.v[i];
        for (size_t k = 0; k < 2 * sp.ncolumns; k++)
            if (sp.condition[g * sp.ncolumns * 2 + k])
                wheres[nw++] = sp.condition[g * sp.ncolumns * 2 + k];
        ls_lawfile_provenance prov = {(const char *const *)paths, npaths, (const char *const *)o->sweep.maps.v,
                                   o->sweep.maps.n, wheres, nw, o->group, cli_command_line(),
                                   (const char *const *)o->sweep.given.v, o->sweep.given.n, &o->flops};
        group_fit *f = &gf[g];
        if (!(f->lf = ls_lawfile_from_fit(&f->result, &o->params, &f->boot, f->runs, &prov, &err)) ||
            ((o->output || o->format == CLI_FORMAT_JSON) && !(f->law_text = ls_lawfile_to_json(f->lf, &err))) ||
            (o->plot && !(f->figure = ls_plot_fit(f->runs, f->lf, &o->figure, &f->figure_len, &err))))
            status = cli_fail(f->command, &err);
    }
    free(wheres);
    if (status == 0 && o->format == CLI_FORMAT_JSON && all_fits) {
        fputs("[\n", stdout);
        for (size_t g = 0; g < ng; g++) {
            size_t len = strlen(gf[g].law_text);
            while (len && gf[g].law_text[len - 1] == '\n')
                len--;
            printf("%.*s%s\n", (int)len, gf[g].law_text, g + 1 < ng ? "," : "");
        }
        fputs("]\n", stdout);
    } else if (status == 0 && o->format != CLI_FORMAT_JSON)
        status = print_by_table(o, s, &sp, gf);
    /* Every group that is not a fit is named; none of the files is written. */
    for (size_t g = 0; status == 0 && g < ng; g++)
        if (!gf[g].result.converged || !gf[g].determined) {
            int st = cli_fit_verdict(gf[g].command, gf[g].runs, &gf[g].result, gf[g].determined, not_written,
                                     not_written);
            for (size_t h = g + 1; h < ng; h++)
                if (!gf[h].result.converged || !gf[h].determined)
                    (void)cli_fit_verdict(gf[h].command, gf[h].runs, &gf[h].result, gf[h].determined, not_written,
                                          not_written);
            status = st;
        }
    if (status == 0 && nfiles) {
        const char **out_paths = calloc(nfiles, sizeof *out_paths);
        const void **data = calloc(nfiles, sizeof *data);
        size_t *lens = calloc(nfiles, sizeof *lens);
        if (!out_paths || !data || !lens)
            status = cli_fail(cmd, &(ls_error){LS_ERR_INTERNAL, "out of memory"});
        for (size_t g = 0, k = 0; status == 0 && g < ng; g++) {
            if (o->output) {
                out_paths[k] = gf[g].law_path;
                data[k] = gf[g].law_text;
                lens[k++] = strlen(gf[g].law_text);
            }
            if (o->plot) {
                out_paths[k] = gf[g].plot_path;
                data[k] = gf[g].figure;
                lens[k++] = gf[g].figure_len;
            }
        }
        if (status == 0)
            status = cli_write_data(cmd, nfiles, out_paths, data, lens);
        free(out_paths);
        free(data);
        free(lens);
    }
    for (size_t g = 0; gf && g < ng; g++) {
        ls_fit_bootstrap_free(&gf[g].boot);
        ls_lawfile_free(gf[g].lf);
        ls_sweep_free(gf[g].runs);
        free(gf[g].law_path);
        free(gf[g].plot_path);
        free(gf[g].law_text);
        free(gf[g].figure);
    }
    free(gf);
    ls_sweep_split_free(&sp);
    return status;
}

int cmd_fit(int argc, char **argv)
{
    const char *cmd = "fit";
    static const struct option longopts[] = {CLI_HELP_OPTION,
                                             {"law", required_argument, NULL, 'l'},
                                             {"fix", required_argument, NULL, OPT_FIX},
                                             {"tie", required_argument, NULL, OPT_TIE},
                                             {"fix-from", required_argument, NULL, OPT_FIX_FROM},
                                             {"bootstrap", required_argument, NULL, OPT_BOOTSTRAP},
                                             {"group", required_argument, NULL, OPT_GROUP},
                                             {"ci", required_argument, NULL, OPT_CI},
                                             {"scale", required_argument, NULL, OPT_SCALE},
                                             {"max-iterations", required_argument, NULL, OPT_MAX_ITER},
                                             {"bootstrap-starts", required_argument, NULL, OPT_BOOTSTRAP_STARTS},
                                             {"format", required_argument, NULL, OPT_FORMAT},
                                             {"output", required_argument, NULL, 'o'},
                                             {"plot", required_argument, NULL, OPT_PLOT},
                                             {"by", required_argument, NULL, OPT_BY},
                                             {"template", required_argument, NULL, OPT_TEMPLATE},
                                             CLI_FLOPS_OPTION,
                                             CLI_FIT_OPTIONS,
                                             CLI_SWEEP_OPTIONS,
                                             CLI_PLOT_OPTIONS,
                                             {NULL, 0, NULL, 0}};
    fit_options o;
    memset(&o, 0, sizeof o);
    o.figure = cli_plot_defaults();
    ls_fit_default_parameters(&o.params);
    o.kind = (ls_law_kind){LS_LAW_BASE_MOE, LS_LAW_MAPPING_BOUNDED_SPARSE};
    o.ci = 0.95;
    o.bootstrap_starts = 2;
    ls_error err;
    int status = 0, opt;
    long value = 0;
    opterr = 0;
    static const int repeatable[] = {OPT_FIX, OPT_BY, OPT_TIE, 0};
    /* Options that only the bootstrap reads, as given: refused without it. */
    const char *bootstrap_only = NULL;
    while (status == 0 && (opt = cli_getopt(argc, argv, ":hl:o:", longopts, NULL, repeatable)) != -1) {
        if (!bootstrap_only)
            bootstrap_only = opt == OPT_SEED ? "--seed" : opt == OPT_CI ? "--ci" : opt == OPT_BOOTSTRAP_STARTS ? "--bootstrap-starts" : NULL;
        if (cli_sweep_option(cmd, &o.sweep, opt, optarg, &status) ||
            cli_fit_option(cmd, opt, optarg, &o.params, &status) || cli_plot_option(cmd, opt, optarg, &o.figure, &status))
            continue;
        switch (opt) {
        case 'h': status = -1; break;
        case 'l':
            if (ls_law_kind_parse(optarg, &o.kind, &err) != 0)
                status = cli_usage_error(cmd, "--law: %s", err.message);
            break;
        case OPT_FIX:
            if (cli_strings_push(&o.fixes, optarg) != 0)
                status = ls_exit_status(LS_ERR_INTERNAL);
            break;
        case OPT_FIX_FROM: o.fix_from = optarg; break;
        case OPT_TIE:
            if (cli_strings_push(&o.ties, optarg) != 0)
                status = ls_exit_status(LS_ERR_INTERNAL);
            break;
        case OPT_BOOTSTRAP:
            status = cli_parse_long(cmd, "--bootstrap", optarg, 0, 10000000, &value);
            o.bootstrap = (size_t)value;
            if (status == 0 && value > 0 && value < LS_FIT_MIN_INTERVAL_DRAWS)
                status = cli_usage_error(cmd, "--bootstrap: '%s' is too few draws for an interval: at least %d (or 0 "
                                         "for none)", optarg, LS_FIT_MIN_INTERVAL_DRAWS);
            break;
        case OPT_GROUP: o.group = optarg; break;
        case OPT_CI:
            status = cli_parse_level(cmd, optarg, &o.ci);
            break;
        case OPT_SCALE:
            if (strcmp(optarg, "levenberg") == 0)
                o.params.scale = LS_FIT_SCALE_LEVENBERG;
            else if (strcmp(optarg, "more") == 0)
                o.params.scale = LS_FIT_SCALE_MORE;
            else if (strcmp(optarg, "marquardt") == 0)
                o.params.scale = LS_FIT_SCALE_MARQUARDT;
            else
                status = cli_usage_error(cmd, "--scale: '%s' is not levenberg, more or marquardt", optarg);
            break;
        case OPT_BOOTSTRAP_STARTS:
            status = cli_parse_long(cmd, "--bootstrap-starts", optarg, 0, 100, &value);
            o.bootstrap_starts = (size_t)value;
            break;
        case OPT_MAX_ITER:
            status = cli_parse_long(cmd, "--max-iterations", optarg, 1, 1000000, &value);
            o.params.max_iterations = (size_t)value;
            break;
        case OPT_FORMAT:
            status = cli_parse_format(cmd, optarg, 1u << CLI_FORMAT_TABLE | 1u << CLI_FORMAT_JSON, &o.format);
            break;
        case 'o': o.output = optarg; break;
        case OPT_PLOT: o.plot = optarg; break;
        case OPT_BY:
            if (cli_strings_push(&o.by, optarg) != 0)
                status = ls_exit_status(LS_ERR_INTERNAL);
            break;
        case OPT_TEMPLATE: o.template_path = optarg; break;
        case OPT_FLOPS_CONVENTION:
            status = cli_parse_flops_convention(cmd, optarg, &o.flops_kind);
            o.flops_given = 1;
            break;
        default: status = cli_option_error(cmd, opt, argv); break;
        }
    }
    if (status == -1) {
        cli_sweep_args_free(&o.sweep);
        cli_strings_free(&o.fixes);
        cli_strings_free(&o.by);
        cli_strings_free(&o.ties);
        return cli_help(USAGE), cli_help(USAGE_TAIL);
    }
    const char *fixes_given[LS_LAW_NPARAMS] = {NULL};
    if (status == 0 && o.fix_from)
        status = fix_from_law(cmd, o.fix_from, o.kind, &o.params, fixes_given);
    for (size_t i = 0; status == 0 && i < o.fixes.n; i++)
        status = cli_parse_fix(cmd, o.fixes.v[i], &o.kind, 1, &o.params, fixes_given);
    for (size_t i = 0; status == 0 && i < o.ties.n; i++)
        status = cli_parse_tie(cmd, o.ties.v[i], &o.kind, 1, &o.params);
    if (status == 0 && optind >= argc)
        status = cli_usage_error(cmd, "give at least one SWEEP file");
    if (status == 0 && o.group && o.bootstrap == 0)
        status = cli_usage_error(cmd, "--group needs --bootstrap N");
    for (size_t i = 0; status == 0 && i < o.by.n; i++)
        if (o.by.v[i][strspn(o.by.v[i], " \t")] == '\0')
            status = cli_usage_error(cmd, "--by '%s': name a column", o.by.v[i]);
    if (status == 0)
        status = check_group_pattern(cmd, "-o", o.output, o.by.n > 0);
    if (status == 0)
        status = check_group_pattern(cmd, "--plot", o.plot, o.by.n > 0);
    if (status == 0 && bootstrap_only && o.bootstrap == 0)
        status = cli_usage_error(cmd, "%s has no effect without --bootstrap N", bootstrap_only);
    if (status == 0) {
        for (int i = optind; i < argc; i++)
            cli_file_input("SWEEP", argv[i]);
        cli_file_input("--template", o.template_path);
        cli_file_output(o.format == CLI_FORMAT_JSON ? "the law of --format json" : "the table", "-");
        cli_file_output("-o", o.output);
        cli_file_output("--plot", o.plot);
        status = cli_files_check(cmd);
    }
    /* The format the plot's name asks for; any other name is refused here,
     * before any work. */
    if (status == 0)
        status = cli_plot_format(cmd, "--plot", o.plot, &o.figure);
    /* The convention a flops column is read under: the template's, or the
     * option's over it. */
    ls_arch_template tmpl;
    if (status == 0)
        status = cli_sweep_flops(cmd, o.template_path, o.flops_given, o.flops_kind, &tmpl, &o.flops);
    if (status == 0) {
        const char *plots[] = {o.plot};
        const ls_figure *figures[] = {&o.figure};
        status = cli_plot_options_check(cmd, 1, plots, figures, "--plot");
    }

    ls_sweep *s = NULL;
    ls_fit_result result;
    ls_fit_bootstrap boot;
    memset(&boot, 0, sizeof boot);
    ls_lawfile *lf = NULL;
    if (status == 0) {
        ls_sweep_options so = cli_sweep_options(cmd, &o.sweep);
        so.require_loss = 1;
        so.group_column = o.group;
        so.checksum = 1; /* the law file records what was fitted */
        so.by_columns = o.by.v;
        so.nby = o.by.n;
        so.flops = &o.flops;
        s = ls_sweep_read((const char *const *)(argv + optind), (size_t)(argc - optind), &so, &err);
        if (!s)
            status = cli_fail(cmd, &err);
        else
            cli_sweep_report_skips(cmd, s->name, &s->skipped), cli_sweep_report_checkpoints(cmd, s, &o.sweep);
    }
    if (status == 0 && o.by.n > 0) {
        status = fit_by(&o, s, argv + optind, (size_t)(argc - optind));
        ls_sweep_free(s);
        cli_sweep_args_free(&o.sweep);
        cli_strings_free(&o.fixes);
        cli_strings_free(&o.by);
        return status;
    }
    progress_state ps = {"starts", 0, 0};
    if (status == 0 && isatty(STDERR_FILENO)) {
        o.params.progress = show_progress;
        o.params.progress_context = &ps;
    }
    double t0 = now_seconds();
    if (status == 0 && ls_fit_run(s, o.kind, &o.params, &result, &err) != 0)
        status = cli_fail(cmd, &err);
    end_progress(&ps);
    /* A failed fit leaves an old law file in place: say so, since the next
     * command would read it. */
    char not_written[PATH_MAX + 64];
    cli_not_written(not_written, sizeof not_written, "no law file written", o.output);
    if (status == 0)
        status = cli_fit_usable(cmd, s, o.kind, &o.params, &result,
                                o.output ? not_written : o.format == CLI_FORMAT_JSON ? "no law written" : "no fit printed");
    int determined = status == 0 && result.converged ? ls_fit_determined(&result) : 1;
    if (status == 0 && result.converged && determined && o.bootstrap > 0) {
        ps.what = "bootstrap draws";
        if (ls_fit_run_bootstrap(s, &result, &o.params, o.bootstrap, o.bootstrap_starts, o.group != NULL, o.ci, &boot,
                              &err) != 0)
            status = cli_fail(cmd, &err);
        end_progress(&ps);
        if (status == 0 && boot.ndraws < LS_FIT_MIN_INTERVAL_DRAWS)
            cli_warn(cmd, "only %zu of %zu bootstrap draws converged inside the law's domain, too few for "
                     "intervals (at least %d): none given", boot.ndraws, o.bootstrap, LS_FIT_MIN_INTERVAL_DRAWS);
    }
    double seconds = now_seconds() - t0;
    /* Diagnostics are about a law; a fit outside the domain is refused below. */
    if (status == 0 && result.converged && determined && cli_fit_in_domain(&result, NULL))
        status = warn_diagnosed(cmd, s, &result, &boot);
    unsigned char *figure = NULL;
    size_t figure_len = 0;
    if (status == 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        int threads = o.params.threads > 0 ? o.params.threads : (int)(cores > 0 ? cores : 1);
        /* A fit that did not converge, cannot tell its parameters apart or
         * ends outside the law's domain is not a law: none is written, to a
         * file or to standard output. */
        int is_fit = result.converged && determined && cli_fit_in_domain(&result, NULL);
        if (is_fit && (o.format == CLI_FORMAT_JSON || o.output || o.plot)) {
            lf = make_lawfile(&o, s, &result, &boot, argv + optind, (size_t)(argc - optind), &err);
            if (!lf)
                status = cli_fail(cmd, &err);
        }
        /* The figure is drawn before anything is printed, so that a
         * figure that cannot be drawn leaves no half of the output. */
        if (status == 0 && lf && o.plot && !(figure = ls_plot_fit(s, lf, &o.figure, &figure_len, &err)))
            status = cli_fail(cmd, &err);
        if (status == 0 && o.format == CLI_FORMAT_JSON && is_fit) {
            char *text = ls_lawfile_to_json(lf, &err);
            if (!text)
                status = cli_fail(cmd, &err);
            else
                fputs(text, stdout);
            free(text);
        } else if (status == 0 && o.format != CLI_FORMAT_JSON) {
            status = print_table(&o, s, &result, &boot, seconds, threads);
        }
    }
    if (status == 0)
        status = cli_fit_verdict(cmd, s, &result, determined,
                                 o.output                         ? not_written
                                 : o.format == CLI_FORMAT_JSON ? "no law written"
                                                                  : "its numbers are not a fit",
                                 o.output                         ? not_written
                                 : o.format == CLI_FORMAT_JSON ? "no law written"
                                                                  : "they are not a fit");
    /* The law file and the plot are replaced together or not at all. */
    char *law_text = NULL;
    if (status == 0 && o.output && !(law_text = ls_lawfile_to_json(lf, &err)))
        status = cli_fail(cmd, &err);
    if (status == 0) {
        const char *paths[] = {o.output, o.plot};
        const void *data[] = {law_text, figure};
        size_t lens[] = {law_text ? strlen(law_text) : 0, figure_len};
        status = cli_write_data(cmd, 2, paths, data, lens);
    }
    free(law_text);
    free(figure);
    ls_lawfile_free(lf);
    ls_fit_bootstrap_free(&boot);
    ls_sweep_free(s);
    cli_sweep_args_free(&o.sweep);
    cli_strings_free(&o.fixes);
    cli_strings_free(&o.by);
    cli_strings_free(&o.ties);
    return status;
}
