/*
 * loopscale holdout — held-out RMSE of each law along each axis.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "loopscale/diagnose.h"
#include "loopscale/holdout.h"
#include "numtext_internal.h"
#include "loopscale/plot.h"

static const char USAGE[] =
    "Usage: loopscale holdout [OPTIONS] SWEEP...\n"
    "\n"
    "Compare laws on runs they have not seen.  For each axis X (R, N, D, E) every law is\n"
    "fitted on the runs with X below its largest value and predicts the runs at the largest\n"
    "value (the paper fits R <= 8 and predicts R = 16).  Reports the held-out RMSE in loss\n"
    "units per law and axis, the in-sample RMSE, and the AIC and BIC of the in-sample fit\n"
    "(Gaussian on the fit's residuals, k free parameters).\n"
    "\n"
    "      --laws LIST         laws to compare, comma-separated (default: the paper's four\n"
    "                          mappings linear, power, bounded, bounded-sparse on the sweep's\n"
    "                          base, moe when some run has E > 1; bounded-sparse is skipped on\n"
    "                          a sweep where every run is dense, since it equals bounded there)\n"
    "      --axes LIST         axes to hold out, from R,N,D,E (default all four)\n"
    "      --split 'COND'      also hold out the runs where COND holds, e.g. 'R>8' (quantities\n"
    "                          only; repeatable, all must hold)\n"
    "      --format FMT        md (default, a markdown table), csv or json\n"
    "      --plot FILE         draw each law's predictions of the held-out runs against their\n"
    "                          observed loss (.svg, .pdf or .png)\n"
    CLI_SWEEP_FLOPS_HELP
    "Fitting (as for 'loopscale fit'): --loss, --huber-delta, --space, --grid, --starts,\n"
    "      --threads\n"
    "      --fix NAME=VALUE    hold a parameter at VALUE in every law that has it (repeatable)\n"
    "      --tie NAME=LEADER   fit NAME equal to LEADER in every law (repeatable), e.g.\n"
    "                          --tie beta=alpha\n";
/* The rest of the help (C99 promises string literals of 4,095 bytes only). */
static const char USAGE_TAIL[] = CLI_SWEEP_HELP CLI_PLOT_HELP
    "  -h, --help              show this help\n";

enum { OPT_LAWS = OPT_COMMAND_FIRST, OPT_AXES, OPT_SPLIT, OPT_PLOT, OPT_FIX, OPT_TIE };

static void cell_text(char *buf, size_t size, double x, int decimals)
{
    if (isnan(x))
        snprintf(buf, size, "-");
    else if (fabs(x) >= 1e6) /* an RMSE near 1e298 would not fit its cell */
        snprintf(buf, size, "%.*g", decimals + 1, x);
    else
        snprintf(buf, size, "%.*f", decimals, x);
}

static void print_csv(const ls_holdout_result *r)
{
    char num[NUMTEXT_DOUBLE_MAX], kind[64];
    printf("law,k,in_sample");
    for (size_t c = 0; c < r->ncolumns; c++) {
        if (r->columns[c].skipped)
            continue;
        putchar(',');
        cli_csv_field(stdout, r->columns[c].label, strlen(r->columns[c].label));
    }
    printf(",aic,bic\n");
    for (size_t l = 0; l < r->nlaws; l++) {
        printf("%s,%zu,%s", ls_law_kind_format(r->laws[l], kind, sizeof kind), r->nfree[l],
               ls_numtext_format_double(num, r->in_sample_rmse[l]));
        for (size_t c = 0; c < r->ncolumns; c++) {
            double x = r->cells[l * r->ncolumns + c].rmse;
            if (!r->columns[c].skipped)
                printf(",%s", isnan(x) ? "" : ls_numtext_format_double(num, x));
        }
        printf(",%s", ls_numtext_format_double(num, r->aic[l]));
        printf(",%s\n", ls_numtext_format_double(num, r->bic[l]));
    }
}

static int print_json(const ls_holdout_result *r)
{
    ls_error err;
    char *text = ls_holdout_result_to_json(r, &err);
    if (!text)
        return cli_fail("holdout", &err);
    fputs(text, stdout);
    free(text);
    return 0;
}

static int print_markdown(const ls_holdout_result *r)
{
    /* The columns to show: the axes that held something out. */
    size_t *shown = calloc(r->ncolumns + 1, sizeof *shown), nshown = 0;
    for (size_t c = 0; shown && c < r->ncolumns; c++)
        if (!r->columns[c].skipped)
            shown[nshown++] = c;
    size_t ncols = nshown + 5; /* law, k, in-sample, the axes, AIC, BIC */
    const char **headers = calloc(ncols, sizeof *headers);
    const char **row = calloc(ncols, sizeof *row);
    char(*cells)[48] = calloc(ncols, sizeof *cells);
    if (!shown || !headers || !row || !cells) {
        free(shown);
        free(headers);
        free(row);
        free(cells);
        cli_error("holdout", "out of memory");
        return ls_exit_status(LS_ERR_INTERNAL);
    }
    headers[0] = "law";
    headers[1] = "k";
    headers[2] = "in-sample";
    for (size_t c = 0; c < nshown; c++)
        headers[3 + c] = r->columns[shown[c]].label;
    headers[ncols - 2] = "AIC";
    headers[ncols - 1] = "BIC";
    cli_table *t = cli_table_new(ncols, headers);
    int unconverged = 0;
    for (size_t l = 0; t && l < r->nlaws; l++) {
        ls_law_kind_format(r->laws[l], cells[0], sizeof cells[0]);
        snprintf(cells[1], sizeof cells[1], "%zu", r->nfree[l]);
        cell_text(cells[2], sizeof cells[2], r->in_sample_rmse[l], 4);
        if (!r->in_sample_converged[l]) {
            strcat(cells[2], "*");
            unconverged = 1;
        }
        for (size_t c = 0; c < nshown; c++) {
            const ls_holdout_cell *cell = &r->cells[l * r->ncolumns + shown[c]];
            cell_text(cells[3 + c], sizeof cells[3 + c], cell->rmse, 4);
            if (!isnan(cell->rmse) && !cell->converged) {
                strcat(cells[3 + c], "*");
                unconverged = 1;
            }
        }
        cell_text(cells[ncols - 2], sizeof cells[ncols - 2], r->aic[l], 1);
        cell_text(cells[ncols - 1], sizeof cells[ncols - 1], r->bic[l], 1);
        for (size_t j = 0; j < ncols; j++)
            row[j] = cells[j];
        if (cli_table_add(t, row) != 0) {
            cli_table_free(t);
            t = NULL;
        }
    }
    int status = 0;
    if (!t) {
        cli_error("holdout", "out of memory");
        status = ls_exit_status(LS_ERR_INTERNAL);
    } else {
        cli_table_print(t, stdout, CLI_FORMAT_MD);
        printf("\nRMSE in loss units; the held-out columns fit on the other runs (train/test runs:");
        for (size_t c = 0; c < nshown; c++)
            printf("%s %s %zu/%zu", c ? "," : "", r->columns[shown[c]].label, r->columns[shown[c]].ntrain,
                   r->columns[shown[c]].ntest);
        printf(").\n");
        if (unconverged)
            printf("* the fit behind this number did not converge, or cannot tell its parameters apart.\n");
    }
    cli_table_free(t);
    free(shown);
    free(headers);
    free(row);
    free(cells);
    return status;
}

int cmd_holdout(int argc, char **argv)
{
    const char *cmd = "holdout";
    static const struct option longopts[] = {CLI_HELP_OPTION,
                                             {"laws", required_argument, NULL, OPT_LAWS},
                                             {"axes", required_argument, NULL, OPT_AXES},
                                             {"split", required_argument, NULL, OPT_SPLIT},
                                             {"format", required_argument, NULL, OPT_FORMAT},
                                             {"plot", required_argument, NULL, OPT_PLOT},
                                             {"template", required_argument, NULL, OPT_TEMPLATE},
                                             CLI_FLOPS_OPTION,
                                             {"fix", required_argument, NULL, OPT_FIX},
                                             {"tie", required_argument, NULL, OPT_TIE},
                                             CLI_FIT_OPTIONS,
                                             CLI_SWEEP_OPTIONS,
                                             CLI_PLOT_OPTIONS,
                                             {NULL, 0, NULL, 0}};
    ls_fit_parameters params;
    ls_fit_default_parameters(&params);
    cli_sweep_args sweep_args;
    memset(&sweep_args, 0, sizeof sweep_args);
    cli_strings split, fixes, ties;
    memset(&split, 0, sizeof split);
    memset(&fixes, 0, sizeof fixes);
    memset(&ties, 0, sizeof ties);
    ls_law_kind *laws = NULL;
    size_t nlaws = 0, naxes = 4;
    ls_holdout_axis axes[4] = {LS_HOLDOUT_AXIS_R, LS_HOLDOUT_AXIS_N, LS_HOLDOUT_AXIS_D, LS_HOLDOUT_AXIS_E};
    cli_format format = CLI_FORMAT_MD;
    const char *plot = NULL, *template_path = NULL;
    int flops_given = 0;
    ls_law_flops_kind flops_kind = LS_LAW_FLOPS_6ND;
    ls_law_flops flops;
    ls_arch_template tmpl;
    ls_figure figure = cli_plot_defaults();
    int status = 0, opt;
    opterr = 0;
    static const int repeatable[] = {OPT_SPLIT, OPT_FIX, OPT_TIE, 0};
    int seed_given = 0;
    while (status == 0 && (opt = cli_getopt(argc, argv, ":h", longopts, NULL, repeatable)) != -1) {
        seed_given |= opt == OPT_SEED;
        if (cli_sweep_option(cmd, &sweep_args, opt, optarg, &status) || cli_fit_option(cmd, opt, optarg, &params, &status) ||
            cli_plot_option(cmd, opt, optarg, &figure, &status))
            continue;
        switch (opt) {
        case 'h': status = -1; break;
        case OPT_LAWS: status = cli_parse_laws(cmd, optarg, &laws, &nlaws); break;
        case OPT_AXES: status = cli_parse_axes(cmd, optarg, axes, &naxes); break;
        case OPT_SPLIT:
            if (cli_strings_push(&split, optarg) != 0)
                status = ls_exit_status(LS_ERR_INTERNAL);
            break;
        case OPT_FORMAT:
            status = cli_parse_format(cmd, optarg, 1u << CLI_FORMAT_MD | 1u << CLI_FORMAT_CSV | 1u << CLI_FORMAT_JSON,
                                      &format);
            break;
        case OPT_PLOT: plot = optarg; break;
        case OPT_TEMPLATE: template_path = optarg; break;
        case OPT_FLOPS_CONVENTION:
            status = cli_parse_flops_convention(cmd, optarg, &flops_kind);
            flops_given = 1;
            break;
        case OPT_FIX:
        case OPT_TIE:
            if (cli_strings_push(opt == OPT_FIX ? &fixes : &ties, optarg) != 0)
                status = ls_exit_status(LS_ERR_INTERNAL);
            break;
        default: status = cli_option_error(cmd, opt, argv); break;
        }
    }
    ls_sweep *s = NULL;
    ls_holdout_result result;
    memset(&result, 0, sizeof result);
    ls_error err;
    if (status == -1) {
        status = cli_help(USAGE) + cli_help(USAGE_TAIL);
        goto done;
    }
    /* --split is checked before any input is read: against a sweep of no
     * rows, which checks each condition's form and quantity. */
    if (status == 0 && split.n > 0) {
        ls_sweep none;
        memset(&none, 0, sizeof none);
        unsigned char unused = 0;
        if (ls_sweep_select(&none, split.v, split.n, &unused, &err) != 0) {
            ls_error_prefix(&err, "--split");
            status = cli_fail(cmd, &err);
        }
    }
    /* The fit's seed drives only the bootstrap, which holdout does not run. */
    if (status == 0 && seed_given)
        status = cli_usage_error(cmd, "--seed has no effect: holdout draws nothing at random");
    if (status == 0 && optind >= argc)
        status = cli_usage_error(cmd, "give at least one SWEEP file");
    if (status == 0) {
        for (int i = optind; i < argc; i++)
            cli_file_input("SWEEP", argv[i]);
        cli_file_input("--template", template_path);
        cli_file_output("the table", "-");
        cli_file_output("--plot", plot);
        status = cli_files_check(cmd);
    }
    /* The format the plot's name asks for; any other name is refused here,
     * before any work. */
    if (status == 0)
        status = cli_plot_format(cmd, "--plot", plot, &figure);
    if (status == 0)
        status = cli_sweep_flops(cmd, template_path, flops_given, flops_kind, &tmpl, &flops);
    if (status == 0) {
        const char *plots[] = {plot};
        const ls_figure *figures[] = {&figure};
        status = cli_plot_options_check(cmd, 1, plots, figures, "--plot");
    }
    if (status == 0) {
        ls_sweep_options so = cli_sweep_options(cmd, &sweep_args);
        so.require_loss = 1;
        so.flops = &flops;
        s = ls_sweep_read((const char *const *)(argv + optind), (size_t)(argc - optind), &so, &err);
        if (!s)
            status = cli_fail(cmd, &err);
        else
            cli_sweep_report_skips(cmd, s->name, &s->skipped), cli_sweep_report_checkpoints(cmd, s, &sweep_args);
    }
    if (status == 0 && !laws) {
        /* The paper's comparison on the sweep's base. */
        int left_out = 0;
        laws = calloc(4, sizeof *laws);
        if (laws)
            nlaws = ls_holdout_default_laws(s, laws, &left_out);
        if (left_out)
            cli_note(cmd, "every run is dense (m = 1), where bounded-sparse equals bounded; it is left out");
        if (!laws)
            status = ls_exit_status(LS_ERR_INTERNAL);
    }
    const char *fixes_given[LS_LAW_NPARAMS] = {NULL};
    for (size_t i = 0; status == 0 && i < fixes.n; i++)
        status = cli_parse_fix(cmd, fixes.v[i], laws, nlaws, &params, fixes_given);
    for (size_t i = 0; status == 0 && i < ties.n; i++)
        status = cli_parse_tie(cmd, ties.v[i], laws, nlaws, &params);
    if (status == 0) {
        ls_holdout_spec spec = {laws, nlaws, axes, naxes, split.v, split.n};
        if (ls_holdout_run(s, &spec, &params, &result, &err) != 0)
            status = cli_fail(cmd, &err);
    }
    if (status == 0) {
        for (size_t c = 0; c < result.ncolumns; c++)
            if (result.columns[c].skipped)
                cli_note(cmd, "%s: nothing to hold out (%s)", result.columns[c].label,
                         result.columns[c].ntest == 0 ? "no run matches" : "every run has this value");
        char *warnings = ls_holdout_diagnose(&result);
        for (char *line = warnings, *end; line && (end = strchr(line, '\n')); line = end + 1)
            cli_warn(cmd, "%.*s", (int)(end - line), line);
        if (!warnings) {
            cli_error(cmd, "out of memory");
            status = ls_exit_status(LS_ERR_INTERNAL);
        }
        free(warnings);
        if (status == 0 && format == CLI_FORMAT_CSV)
            print_csv(&result);
        else if (status == 0 && format == CLI_FORMAT_JSON)
            status = print_json(&result);
        else if (status == 0)
            status = print_markdown(&result);
    }
    if (status == 0 && plot) {
        size_t len = 0;
        unsigned char *bytes = ls_plot_holdout(s, &result, &figure, &len, &err);
        const void *data = bytes;
        status = bytes ? cli_write_data(cmd, 1, &plot, &data, &len) : cli_fail(cmd, &err);
        free(bytes);
    }
done:
    ls_holdout_result_free(&result);
    ls_sweep_free(s);
    free(laws);
    cli_strings_free(&split);
    cli_strings_free(&fixes);
    cli_strings_free(&ties);
    cli_sweep_args_free(&sweep_args);
    return status;
}
