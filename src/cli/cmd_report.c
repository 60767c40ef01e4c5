/*
 * loopscale report — one self-contained HTML page on a sweep: the fit of a
 * law, the comparison of laws on held-out runs, the compute-optimal answer
 * for each budget, and their figures.  Every number comes from the library
 * functions `fit`, `holdout` and `solve` call; loopscale/report.h writes
 * the page.
 */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "cli.h"
#include "commands.h"
#include "loopscale/arch.h"
#include "loopscale/diagnose.h"
#include "loopscale/holdout.h"
#include "loopscale/report.h"
#include "loopscale/solve.h"

static const char USAGE[] =
    "Usage: loopscale report [OPTIONS] SWEEP... -o REPORT.html\n"
    "\n"
    "Write one self-contained HTML page on a sweep (CSV or gzip CSV, '-' for standard input):\n"
    "the fit of a law (parameters, standard errors, bootstrap intervals, the largest residuals),\n"
    "how well each law predicts held-out runs (as 'loopscale holdout'), the configuration each\n"
    "compute budget should buy (as 'loopscale solve'), and their figures, inline.  The page\n"
    "loads nothing from the network; send it as it is.\n"
    "\n"
    "  -o, --output FILE       the page (.html or .htm; '-' for standard output); required\n"
    "  -l, --law LAW           the law fitted, reported and solved with (default: the paper's\n"
    "                          bounded-sparse mapping on the sweep's base, bounded on a sweep of\n"
    "                          dense runs); it is compared with the linear, power, bounded and\n"
    "                          bounded-sparse mappings on its base\n"
    "      --laws LIST         instead, the laws compared, comma-separated; the first is fitted,\n"
    "                          reported and solved with\n"
    "      --axes LIST         axes to hold out, from R,N,D,E (default all four)\n"
    "      --bootstrap N       refit N resamples of the runs for intervals and figure bands:\n"
    "                          0 (the default) or at least 20\n"
    "      --flops LIST        compute budgets to solve for, e.g. 1e21,1e22 (default: none, no\n"
    "                          budget section); every E of the sweep and R from 1 to its largest\n"
    "                          are candidates, epsilon is the fit's RMSE\n"
    "      --mem BYTES         weight memory, e.g. 3GB (default: no limit)\n"
    "      --bits B            bits per weight (default 16)\n"
    CLI_SWEEP_FLOPS_HELP
    "                          (and the budgets are spent with)\n"
    "Fitting (as for 'loopscale fit'): --loss, --huber-delta, --space, --grid, --starts,\n"
    "      --seed, --threads\n";
/* The rest of the help (C99 promises string literals of 4,095 bytes only). */
static const char USAGE_TAIL[] = CLI_SWEEP_HELP CLI_PLOT_HELP
    "  -h, --help              show this help\n"
    "\n"
    "Exit status 3 when the best solve of the reported law's fit did not converge (nothing is\n"
    "written).\n";

enum { OPT_LAWS = OPT_COMMAND_FIRST, OPT_AXES, OPT_BOOTSTRAP, OPT_FLOPS, OPT_MEM, OPT_BITS };

typedef struct report_options {
    const char *output;
    const char *law;
    ls_law_kind *laws;
    size_t nlaws;
    ls_holdout_axis axes[4];
    size_t naxes;
    size_t bootstrap;
    double *flops;
    size_t nflops;
    ls_solve_budget budget;
    int mem_given, bits_given;
    ls_fit_parameters params;
    cli_sweep_args sweep;
    ls_figure figure;
    const char *template_path;
    int flops_given;
    ls_law_flops_kind flops_kind;
    ls_law_flops flops_convention; /* how a flops column is read and the budgets spent */
} report_options;

/* The page is HTML: a name that says otherwise is refused before any work,
 * as a plot's is; standard output, a pipe or a device has no name to check. */
static int check_output_name(const char *cmd, const char *path)
{
    size_t n = strlen(path);
    if ((n > 5 && strcasecmp(path + n - 5, ".html") == 0) || (n > 4 && strcasecmp(path + n - 4, ".htm") == 0))
        return 0;
    struct stat st;
    if (strcmp(path, "-") == 0 || (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode)))
        return 0;
    return cli_usage_error(cmd, "-o: '%s': the report is HTML; the file name must end in .html or .htm", path);
}

/* The laws compared, the reported one first: --laws as given, or the
 * reported law (--law, or the last of holdout's default comparison) and
 * holdout's default mappings on its base. */
static int choose_laws(const char *cmd, report_options *o, const ls_sweep *s)
{
    if (o->laws)
        return 0;
    ls_law_kind defaults[4];
    int left_out = 0;
    size_t nd = ls_holdout_default_laws(s, defaults, &left_out);
    ls_law_kind reported = defaults[nd - 1];
    ls_error err;
    if (o->law && ls_law_kind_parse(o->law, &reported, &err) != 0) /* checked when parsed */
        return cli_usage_error(cmd, "--law: %s", err.message);
    ls_law_kind *v = calloc(nd + 1, sizeof *v);
    if (!v) {
        cli_error(cmd, "out of memory");
        return ls_exit_status(LS_ERR_INTERNAL);
    }
    int loops = 0;
    for (size_t i = 0; i < s->n; i++)
        loops |= s->rows[i].R > 1;
    size_t n = 0;
    if (!loops) {
        /* Without a looped run every mapping is N_eff = N_act: the law is
         * the base alone, and a comparison of mappings would compare one
         * law with itself. */
        if (!o->law)
            reported.mapping = LS_LAW_MAPPING_NONE;
        v[n++] = reported;
        char kind[64];
        ls_law_kind_format(reported, kind, sizeof kind);
        cli_note(cmd, "no run has R > 1, where every loop mapping reduces to N_eff = N_act: the report is of %s, "
                      "and the loop mappings are not compared",
                 kind);
        o->laws = v;
        o->nlaws = n;
        return 0;
    }
    v[n++] = reported;
    for (size_t i = 0; i < nd; i++)
        if (defaults[i].mapping != reported.mapping)
            v[n++] = (ls_law_kind){reported.base, defaults[i].mapping};
    if (left_out)
        cli_note(cmd, "every run is dense (m = 1), where bounded-sparse equals bounded; it is left out");
    o->laws = v;
    o->nlaws = n;
    return 0;
}

/* A budget whose answers leave the fitted ranges: one line on standard
 * error, as solve warns, with each configuration's values and ranges. */
static void warn_extrapolated(const char *cmd, double flops, const ls_solve_result *r)
{
    char text[1024];
    size_t used = 0;
    const char *shown = NULL;
    for (size_t i = 0; i < r->nwarnings && used < sizeof text; i++) {
        const ls_solve_warning *w = &r->warnings[i];
        const char *name = strcmp(w->configuration, "chosen") == 0        ? "chosen"
                           : strcmp(w->configuration, "lowest_loss") == 0 ? "lowest loss"
                                                                          : "no memory limit";
        int n = !shown || strcmp(shown, w->configuration) != 0
                    ? snprintf(text + used, sizeof text - used, "%s%s: %s = %.4g (fitted %.4g to %.4g)",
                               shown ? "; " : "", name, ls_law_range_name(w->quantity), w->value, w->lo, w->hi)
                    : snprintf(text + used, sizeof text - used, ", %s = %.4g (fitted %.4g to %.4g)",
                               ls_law_range_name(w->quantity), w->value, w->lo, w->hi);
        if (n < 0 || (size_t)n >= sizeof text - used)
            break;
        used += (size_t)n;
        shown = w->configuration;
    }
    cli_warn(cmd, "budget %g FLOPs: %s: outside the ranges the law was fitted on, an extrapolation (starred in the "
                  "report)",
             flops, text);
}

int cmd_report(int argc, char **argv)
{
    const char *cmd = "report";
    static const struct option longopts[] = {CLI_HELP_OPTION,
                                             {"output", required_argument, NULL, 'o'},
                                             {"law", required_argument, NULL, 'l'},
                                             {"laws", required_argument, NULL, OPT_LAWS},
                                             {"axes", required_argument, NULL, OPT_AXES},
                                             {"bootstrap", required_argument, NULL, OPT_BOOTSTRAP},
                                             {"flops", required_argument, NULL, OPT_FLOPS},
                                             {"mem", required_argument, NULL, OPT_MEM},
                                             {"bits", required_argument, NULL, OPT_BITS},
                                             {"template", required_argument, NULL, OPT_TEMPLATE},
                                             CLI_FLOPS_OPTION,
                                             CLI_FIT_OPTIONS,
                                             CLI_SWEEP_OPTIONS,
                                             CLI_PLOT_OPTIONS,
                                             {NULL, 0, NULL, 0}};
    report_options o;
    memset(&o, 0, sizeof o);
    ls_fit_default_parameters(&o.params);
    o.figure = cli_plot_defaults();
    o.naxes = 4;
    o.axes[0] = LS_HOLDOUT_AXIS_R;
    o.axes[1] = LS_HOLDOUT_AXIS_N;
    o.axes[2] = LS_HOLDOUT_AXIS_D;
    o.axes[3] = LS_HOLDOUT_AXIS_E;
    o.budget = (ls_solve_budget){NAN, INFINITY, 16};
    ls_error err;
    int status = 0, opt;
    long value = 0;
    opterr = 0;
    int seed_given = 0;
    while (status == 0 && (opt = cli_getopt(argc, argv, ":hl:o:", longopts, NULL, NULL)) != -1) {
        seed_given |= opt == OPT_SEED;
        if (cli_sweep_option(cmd, &o.sweep, opt, optarg, &status) || cli_fit_option(cmd, opt, optarg, &o.params, &status) ||
            cli_plot_option(cmd, opt, optarg, &o.figure, &status))
            continue;
        ls_law_kind kind;
        switch (opt) {
        case 'h': status = -1; break;
        case 'o': o.output = optarg; break;
        case 'l':
            o.law = optarg;
            if (ls_law_kind_parse(optarg, &kind, &err) != 0)
                status = cli_usage_error(cmd, "--law: %s", err.message);
            break;
        case OPT_LAWS: status = cli_parse_laws(cmd, optarg, &o.laws, &o.nlaws); break;
        case OPT_AXES: status = cli_parse_axes(cmd, optarg, o.axes, &o.naxes); break;
        case OPT_BOOTSTRAP:
            status = cli_parse_long(cmd, "--bootstrap", optarg, 0, 10000000, &value);
            o.bootstrap = (size_t)value;
            if (status == 0 && value > 0 && value < LS_FIT_MIN_INTERVAL_DRAWS)
                status = cli_usage_error(cmd, "--bootstrap: '%s' is too few draws for an interval: at least %d (or 0 "
                                         "for none)", optarg, LS_FIT_MIN_INTERVAL_DRAWS);
            break;
        case OPT_FLOPS: status = cli_parse_flops_list(cmd, "--flops", optarg, &o.flops, &o.nflops); break;
        case OPT_MEM:
            status = cli_parse_bytes(cmd, "--mem", optarg, &o.budget.mem_bytes);
            o.mem_given = 1;
            break;
        case OPT_BITS:
            status = cli_parse_positive(cmd, "--bits", optarg, &o.budget.bits);
            o.bits_given = 1;
            break;
        case OPT_TEMPLATE: o.template_path = optarg; break;
        case OPT_FLOPS_CONVENTION:
            status = cli_parse_flops_convention(cmd, optarg, &o.flops_kind);
            o.flops_given = 1;
            break;
        default: status = cli_option_error(cmd, opt, argv); break;
        }
    }
    ls_sweep *s = NULL;
    ls_fit_result fit;
    memset(&fit, 0, sizeof fit);
    ls_fit_bootstrap boot;
    memset(&boot, 0, sizeof boot);
    ls_lawfile *lf = NULL;
    ls_holdout_result holdout;
    memset(&holdout, 0, sizeof holdout);
    ls_arch_template tmpl;
    ls_arch_template_default(&tmpl);
    double *R = NULL, *E = NULL;
    size_t nR = 0, nE = 0;
    ls_solve_budget *budgets = NULL;
    ls_solve_result *solves = NULL;
    char *page = NULL;
    if (status == -1) {
        status = cli_help(USAGE) + cli_help(USAGE_TAIL);
        goto done;
    }
    /* Options that would change nothing are refused, not ignored. */
    if (status == 0)
        status = cli_plot_options_check(cmd, 0, NULL, NULL, "the report's figures are SVG");
    if (status == 0 && seed_given && o.bootstrap == 0)
        status = cli_usage_error(cmd, "--seed has no effect without --bootstrap N");
    if (status == 0 && optind >= argc)
        status = cli_usage_error(cmd, "give at least one SWEEP file");
    if (status == 0 && !o.output)
        status = cli_usage_error(cmd, "give the page's file name with -o REPORT.html");
    if (status == 0 && o.law && o.laws)
        status = cli_usage_error(cmd, "--law and --laws: give one (--laws puts the reported law first)");
    if (status == 0 && (o.mem_given || o.bits_given) && !o.flops)
        status = cli_usage_error(cmd, "%s needs --flops: the budgets to solve for", o.mem_given ? "--mem" : "--bits");
    if (status == 0) {
        for (int i = optind; i < argc; i++)
            cli_file_input("SWEEP", argv[i]);
        cli_file_input("--template", o.template_path);
        cli_file_output("-o", o.output);
        status = cli_files_check(cmd);
    }
    if (status == 0)
        status = check_output_name(cmd, o.output);
    if (status == 0)
        status = cli_sweep_flops(cmd, o.template_path, o.flops_given, o.flops_kind, &tmpl, &o.flops_convention);
    if (status == 0) {
        ls_sweep_options so = cli_sweep_options(cmd, &o.sweep);
        so.require_loss = 1;
        so.checksum = 1; /* the page records what was fitted */
        so.flops = &o.flops_convention;
        s = ls_sweep_read((const char *const *)(argv + optind), (size_t)(argc - optind), &so, &err);
        if (!s)
            status = cli_fail(cmd, &err);
        else
            cli_sweep_report_skips(cmd, s->name, &s->skipped), cli_sweep_report_checkpoints(cmd, s, &o.sweep);
    }
    if (status == 0)
        status = choose_laws(cmd, &o, s);

    /* The fit, as `fit` makes it. */
    if (status == 0 && ls_fit_run(s, o.laws[0], &o.params, &fit, &err) != 0)
        status = cli_fail(cmd, &err);
    char not_written[PATH_MAX + 64];
    cli_not_written(not_written, sizeof not_written, "no report written", o.output);
    if (status == 0)
        status = cli_fit_usable(cmd, s, o.laws[0], &o.params, &fit, not_written);
    int determined = status == 0 && fit.converged ? ls_fit_determined(&fit) : 1;
    if (status == 0)
        status = cli_fit_verdict(cmd, s, &fit, determined, not_written, not_written);
    if (status == 0 && o.bootstrap > 0 &&
        ls_fit_run_bootstrap(s, &fit, &o.params, o.bootstrap, 2, 0, 0.95, &boot, &err) != 0)
        status = cli_fail(cmd, &err);
    else if (status == 0 && o.bootstrap > 0 && boot.ndraws < LS_FIT_MIN_INTERVAL_DRAWS)
        cli_warn(cmd, "only %zu of %zu bootstrap draws converged inside the law's domain, too few for intervals "
                 "(at least %d): none given",
                 boot.ndraws, o.bootstrap, LS_FIT_MIN_INTERVAL_DRAWS);
    if (status == 0) {
        ls_lawfile_provenance prov = {(const char *const *)(argv + optind), (size_t)(argc - optind),
                                   (const char *const *)o.sweep.maps.v, o.sweep.maps.n,
                                   (const char *const *)o.sweep.wheres.v, o.sweep.wheres.n, NULL,
                                   cli_command_line(), (const char *const *)o.sweep.given.v, o.sweep.given.n,
                                   &o.flops_convention};
        if (!(lf = ls_lawfile_from_fit(&fit, &o.params, &boot, s, &prov, &err)))
            status = cli_fail(cmd, &err);
    }
    /* The parameters the runs do not determine, said as fit says them. */
    if (status == 0) {
        char *lines = ls_fit_diagnose(s, &fit, o.bootstrap > 0 ? &boot : NULL);
        for (char *line = lines, *end; line && (end = strchr(line, '\n')); line = end + 1)
            cli_warn(cmd, "%.*s", (int)(end - line), line);
        free(lines);
    }

    /* The comparison, as `holdout` makes it. */
    if (status == 0) {
        ls_holdout_spec spec = {o.laws, o.nlaws, o.axes, o.naxes, NULL, 0};
        if (ls_holdout_run(s, &spec, &o.params, &holdout, &err) != 0)
            status = cli_fail(cmd, &err);
    }
    for (size_t c = 0; status == 0 && c < holdout.ncolumns; c++)
        if (holdout.columns[c].skipped)
            cli_note(cmd, "%s: nothing to hold out (%s)", holdout.columns[c].label,
                     holdout.columns[c].ntest == 0 ? "no run matches" : "every run has this value");
        else if (holdout.columns[c].ntest < LS_REPORT_FEW_HELD_OUT)
            cli_warn(cmd, "%s holds out %zu run%s: its RMSE is %s, not a comparison of laws",
                     holdout.columns[c].label, holdout.columns[c].ntest, holdout.columns[c].ntest == 1 ? "" : "s",
                     holdout.columns[c].ntest == 1 ? "one residual" : "a few residuals");

    /* The budgets, as `solve` answers them. */
    if (status == 0 && o.flops && ls_report_solve_candidates(s, &R, &nR, &E, &nE, &err) != 0)
        status = cli_fail(cmd, &err);
    ls_law_ranges ranges;
    if (lf)
        ls_lawfile_ranges(lf, &ranges);
    ls_solve_options so = {R, nR, E, nE, NULL, 0, lf ? lf->fit.rmse : 0, lf ? &ranges : NULL};
    if (status == 0 && o.flops) {
        budgets = calloc(o.nflops, sizeof *budgets);
        solves = calloc(o.nflops, sizeof *solves);
        if (!budgets || !solves) {
            cli_error(cmd, "out of memory");
            status = ls_exit_status(LS_ERR_INTERNAL);
        }
    }
    for (size_t b = 0; status == 0 && b < o.nflops; b++) {
        budgets[b] = o.budget;
        budgets[b].flops = o.flops[b];
        if (ls_solve_run(&lf->law, &tmpl, &budgets[b], &so, &solves[b], &err) != 0)
            status = cli_fail(cmd, &err);
        else if (!solves[b].has_choice)
            cli_warn(cmd, "no candidate fits a budget of %g FLOPs%s", o.flops[b],
                     isfinite(o.budget.mem_bytes) ? " in the memory given" : "");
        else if (solves[b].nwarnings)
            warn_extrapolated(cmd, o.flops[b], &solves[b]);
    }

    if (status == 0) {
        o.figure.format = LS_FIGURE_SVG;
        ls_report_input in = {s,       (const char *const *)(argv + optind), (size_t)(argc - optind),
                           &fit,    lf,
                           &holdout, &tmpl,
                           &so,     budgets,
                           solves,  o.nflops,
                           &o.figure, 8};
        if (!(page = ls_report_html(&in, &err)))
            status = cli_fail(cmd, &err);
    }
    if (status == 0) {
        const char *text = page;
        status = cli_write_files(cmd, 1, &o.output, &text);
    }
done:
    free(page);
    for (size_t b = 0; solves && b < o.nflops; b++)
        ls_solve_result_free(&solves[b]);
    free(solves);
    free(budgets);
    free(R);
    free(E);
    ls_holdout_result_free(&holdout);
    ls_lawfile_free(lf);
    ls_fit_bootstrap_free(&boot);
    ls_sweep_free(s);
    free(o.laws);
    free(o.flops);
    cli_sweep_args_free(&o.sweep);
    return status;
}
