/*
 * loopscale fit — fit a law to one or more sweeps: a multi-start
 * second-order solve of Chinchilla's Huber objective, bootstrap intervals,
 * law file.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "loopscale/fit.h"
#include "loopscale/lawfile.h"
#include "numtext_internal.h"
#include "loopscale/plot.h"

static const char USAGE[] =
    "Usage: loopscale fit [--law BASE:MAPPING] [OPTIONS] SWEEP... [-o LAW.json]\n"
    "\n"
    "Fit a loss law to the runs of one or more sweeps (CSV or gzip CSV, '-' for standard input).\n"
    "The objective is Chinchilla's approach 3: the sum over runs of Huber(ln Lhat - ln L), solved\n"
    "from many starting points by a second-order method with analytic derivatives (damped IRLS\n"
    "steps far from the optimum, Newton's steps near it).\n"
    "\n"
    "  -l, --law LAW           law to fit, BASE[:MAPPING] (default moe:bounded-sparse); 'loopscale\n"
    "                          help laws' lists the bases and mappings. Parameters the sweep cannot\n"
    "                          identify are held at their neutral values, with a warning.\n"
    "      --loss huber|mse    objective (default huber)\n"
    "      --huber-delta X     Huber threshold (default 1e-3)\n"
    "      --space log|linear  residuals ln Lhat - ln L (default) or Lhat - L\n"
    "      --grid chinchilla   start the base parameters from Chinchilla's 4,500-point grid\n"
    "      --starts N          otherwise from N Sobol points in the same box (default 32)\n"
    "      --fix NAME=VALUE    hold a parameter at VALUE (repeatable, once per parameter)\n"
    "      --bootstrap N       refit N resamples of the runs for percentile intervals (default 0)\n"
    "      --group COL         resample whole groups of runs sharing COL's value\n"
    "      --bootstrap-starts K  refit each draw from the full-data optimum and K perturbed\n"
    "                          starts (default 2; loose parameters restart from a grid)\n"
    "      --ci LEVEL          interval level (default 0.95)\n"
    "      --seed S            bootstrap random seed (default 1)\n"
    "      --threads T         worker threads (default: one per core; results do not depend on it)\n"
    "      --scale NAME        damping of the IRLS steps: levenberg (default), more, marquardt\n"
    "      --max-iterations N  per local solve (default 500)\n"
    "      --format FMT        table (default) or json (the law file on standard output; nothing\n"
    "                          when the fit fails)\n"
    "  -o, --output FILE       write the law file (JSON); not written when the fit fails\n"
    "      --plot FILE         draw the observed and fitted loss against R for each E and N_act\n"
    "                          (.svg, .pdf or .png); not written when the fit fails\n";
/* The rest of the help (C99 promises string literals of 4,095 bytes only). */
static const char USAGE_TAIL[] = CLI_SWEEP_HELP CLI_PLOT_HELP
    "  -h, --help              show this help\n"
    "\n"
    "Exit status 3 when the best solve did not converge (nothing is written).\n";

enum {
    OPT_FIX = OPT_COMMAND_FIRST,
    OPT_BOOTSTRAP,
    OPT_GROUP,
    OPT_CI,
    OPT_SCALE,
    OPT_MAX_ITER,
    OPT_BOOTSTRAP_STARTS,
    OPT_PLOT
};

typedef struct fit_options {
    law_kind kind;
    fit_parameters params;
    cli_sweep_args sweep;
    cli_strings fixes;
    size_t bootstrap;
    size_t bootstrap_starts; /* perturbed starts per draw, besides the full-data optimum */
    const char *group;
    double ci;
    cli_format format;
    const char *output;
    const char *plot;
    chart_output figure;
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

/* Parse one --fix NAME=VALUE; given[] records the --fix already seen per
 * parameter, so that the same parameter fixed twice is refused rather than
 * taking the last value. */
static int parse_fix(const char *cmd, const char *text, law_kind kind, fit_parameters *p,
                     const char *given[LAW_NPARAMS])
{
    const char *eq = strchr(text, '=');
    char name[32];
    if (!eq || (size_t)(eq - text) >= sizeof name)
        return cli_usage_error(cmd, "--fix '%s': expected NAME=VALUE", text);
    memcpy(name, text, (size_t)(eq - text));
    name[eq - text] = '\0';
    int j = ls_law_param_from_name(name);
    char kind_text[64];
    if (j < 0 || !ls_law_uses_param(kind, (law_param)j))
        return cli_usage_error(cmd, "--fix '%s': %s is not a parameter of %s", text, name,
                               ls_law_kind_format(kind, kind_text, sizeof kind_text));
    if (given[j])
        return cli_usage_error(cmd, "--fix %s given twice ('%s', then '%s'): a parameter takes one value", name,
                               given[j], text);
    given[j] = text;
    double value = 0;
    int status = cli_parse_double(cmd, "--fix", eq + 1, &value);
    if (status != 0)
        return status;
    ls_error err;
    if (ls_law_param_check((law_param)j, value, &err) != 0)
        return cli_usage_error(cmd, "--fix '%s': %s", text, err.message);
    p->fixed[j] = 1;
    p->fixed_value[j] = value;
    return 0;
}

static void format_value(char *buf, size_t size, double x)
{
    if (isnan(x))
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%.6g", x);
}

static int print_table(const fit_options *o, const sweep *s, const fit_result *r, const fit_bootstrap *b,
                       double seconds, int threads)
{
    char kind_text[64];
    ls_law_kind_format(r->law.kind, kind_text, sizeof kind_text);
    printf("law        %s\n", kind_text);
    printf("runs       %zu (%s)\n", r->n, strcmp(s->name, "-") == 0 ? "standard input" : s->name);
    const char *space = o->params.space == FIT_SPACE_LOG ? "ln Lhat - ln L" : "Lhat - L";
    if (o->params.loss == FIT_LOSS_HUBER)
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
    if (b && b->ndraws + b->failed > 0)
        printf("bootstrap  %zu draws%s%s, %zu did not converge\n", b->ndraws + b->failed, o->group ? " of groups by " : "",
               o->group ? o->group : "", b->failed);
    printf("\n");

    int with_ci = b && b->ndraws > 0;
    char ci_header[32];
    snprintf(ci_header, sizeof ci_header, "%g%% interval", 100 * o->ci);
    const char *headers[] = {"parameter", "value", "stderr*", with_ci ? ci_header : "", ""};
    size_t ncols = with_ci ? 4 : 3;
    cli_table *t = cli_table_new(ncols, headers);
    law_param list[LAW_NPARAMS];
    size_t np = ls_law_params_of(r->law.kind, list);
    for (size_t i = 0; t && i < np; i++) {
        law_param j = list[i];
        char value[32], se[32], ci[64];
        format_value(value, sizeof value, r->law.p[j]);
        if (r->unidentified[j])
            snprintf(se, sizeof se, "held (unidentified)");
        else if (r->fixed[j])
            snprintf(se, sizeof se, "held");
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
           "  log loss most residuals sit in its linear branch and these run about 2x too small;%s\n",
           with_ci ? "\n  prefer the bootstrap intervals." : "\n  use --bootstrap N for intervals.");
    return 0;
}

static lawfile *make_lawfile(const fit_options *o, const sweep *s, const fit_result *r, const fit_bootstrap *b,
                             char *const *paths, size_t npaths, ls_error *err)
{
    lawfile_provenance prov = {(const char *const *)paths, npaths, (const char *const *)o->sweep.maps.v,
                               o->sweep.maps.n, (const char *const *)o->sweep.wheres.v, o->sweep.wheres.n,
                               o->group, cli_command_line(), (const char *const *)o->sweep.given.v,
                               o->sweep.given.n};
    return ls_lawfile_from_fit(r, &o->params, b, s, &prov, err);
}

int cmd_fit(int argc, char **argv)
{
    const char *cmd = "fit";
    static const struct option longopts[] = {CLI_HELP_OPTION,
                                             {"law", required_argument, NULL, 'l'},
                                             {"fix", required_argument, NULL, OPT_FIX},
                                             {"bootstrap", required_argument, NULL, OPT_BOOTSTRAP},
                                             {"group", required_argument, NULL, OPT_GROUP},
                                             {"ci", required_argument, NULL, OPT_CI},
                                             {"scale", required_argument, NULL, OPT_SCALE},
                                             {"max-iterations", required_argument, NULL, OPT_MAX_ITER},
                                             {"bootstrap-starts", required_argument, NULL, OPT_BOOTSTRAP_STARTS},
                                             {"format", required_argument, NULL, OPT_FORMAT},
                                             {"output", required_argument, NULL, 'o'},
                                             {"plot", required_argument, NULL, OPT_PLOT},
                                             CLI_FIT_OPTIONS,
                                             CLI_SWEEP_OPTIONS,
                                             CLI_PLOT_OPTIONS,
                                             {NULL, 0, NULL, 0}};
    fit_options o;
    memset(&o, 0, sizeof o);
    o.figure = cli_plot_defaults();
    ls_fit_default_parameters(&o.params);
    o.kind = (law_kind){LAW_BASE_MOE, LAW_MAPPING_BOUNDED_SPARSE};
    o.ci = 0.95;
    o.bootstrap_starts = 2;
    ls_error err;
    int status = 0, opt;
    long value = 0;
    opterr = 0;
    static const int repeatable[] = {OPT_FIX, 0};
    while (status == 0 && (opt = cli_getopt(argc, argv, ":hl:o:", longopts, NULL, repeatable)) != -1) {
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
        case OPT_BOOTSTRAP:
            status = cli_parse_long(cmd, "--bootstrap", optarg, 0, 10000000, &value);
            o.bootstrap = (size_t)value;
            break;
        case OPT_GROUP: o.group = optarg; break;
        case OPT_CI:
            status = cli_parse_double(cmd, "--ci", optarg, &o.ci);
            if (status == 0 && !(o.ci > 0 && o.ci < 1))
                status = cli_usage_error(cmd, "--ci: '%s' must be between 0 and 1", optarg);
            break;
        case OPT_SCALE:
            if (strcmp(optarg, "levenberg") == 0)
                o.params.scale = FIT_SCALE_LEVENBERG;
            else if (strcmp(optarg, "more") == 0)
                o.params.scale = FIT_SCALE_MORE;
            else if (strcmp(optarg, "marquardt") == 0)
                o.params.scale = FIT_SCALE_MARQUARDT;
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
        default: status = cli_option_error(cmd, opt, argv); break;
        }
    }
    if (status == -1) {
        cli_sweep_args_free(&o.sweep);
        cli_strings_free(&o.fixes);
        return cli_help(USAGE), cli_help(USAGE_TAIL);
    }
    const char *fixes_given[LAW_NPARAMS] = {NULL};
    for (size_t i = 0; status == 0 && i < o.fixes.n; i++)
        status = parse_fix(cmd, o.fixes.v[i], o.kind, &o.params, fixes_given);
    if (status == 0 && optind >= argc)
        status = cli_usage_error(cmd, "give at least one SWEEP file");
    if (status == 0 && o.group && o.bootstrap == 0)
        status = cli_usage_error(cmd, "--group needs --bootstrap N");
    if (status == 0) {
        for (int i = optind; i < argc; i++)
            cli_file_input("SWEEP", argv[i]);
        cli_file_output(o.format == CLI_FORMAT_JSON ? "the law of --format json" : "the table", "-");
        cli_file_output("-o", o.output);
        cli_file_output("--plot", o.plot);
        status = cli_files_check(cmd);
    }
    /* The format the plot's name asks for; any other name is refused here,
     * before any work. */
    if (status == 0)
        status = cli_plot_format(cmd, "--plot", o.plot, &o.figure);

    sweep *s = NULL;
    fit_result result;
    fit_bootstrap boot;
    memset(&boot, 0, sizeof boot);
    lawfile *lf = NULL;
    if (status == 0) {
        sweep_options so = cli_sweep_options(cmd, &o.sweep);
        so.require_loss = 1;
        so.group_column = o.group;
        so.checksum = 1; /* the law file records what was fitted */
        s = ls_sweep_read((const char *const *)(argv + optind), (size_t)(argc - optind), &so, &err);
        if (!s)
            status = cli_fail(cmd, &err);
        else
            cli_sweep_report_skips(cmd, s->name, &s->skipped), cli_sweep_report_checkpoints(cmd, s, &o.sweep);
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
    }
    double seconds = now_seconds() - t0;
    unsigned char *figure = NULL;
    size_t figure_len = 0;
    if (status == 0) {
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        int threads = o.params.threads > 0 ? o.params.threads : (int)(cores > 0 ? cores : 1);
        /* A fit that did not converge, or cannot tell its parameters apart,
         * is not a law: none is written, to a file or to standard output. */
        int is_fit = result.converged && determined;
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
    return status;
}
