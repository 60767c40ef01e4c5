/*
 * loopscale isoflop — loss against N_act at fixed training compute, and the
 * minimum of each profile.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "loopscale/arch.h"
#include "numtext_internal.h"
#include "loopscale/plot.h"
#include "loopscale/solve.h"

static const char USAGE[] =
    "Usage: loopscale isoflop --flops F1,F2,... [OPTIONS]\n"
    "\n"
    "IsoFLOP profiles: for each compute budget F and each (E, R), the loss against N_act when\n"
    "all of F is spent (D = F / (6 N_unroll)), and the minimum of each profile.\n"
    "\n"
    "  -l, --law FILE          law file (default: the law compiled in)\n"
    "      --flops LIST        compute budgets, e.g. 1e20,1e21,1e22\n"
    "      --E LIST            expert counts (default 1)\n"
    "      --R LIST            loop counts (default 1)\n"
    "      --template FILE     architecture template (JSON)\n"
    CLI_FLOPS_HELP
    "                          (default: the law's, else the template's)\n"
    "      --points N          profile points per curve, from N*/30 to 30 N* (default 25)\n"
    "      --format FMT        table (default: the minima) or csv (every profile point, with\n"
    "                          a column 'minimum' marking the minima)\n"
    "      --plot FILE         draw the profiles and their minima (.svg, .pdf or .png)\n"
    CLI_PLOT_HELP
    CLI_FORCE_HELP
    "  -h, --help              show this help\n";

enum { OPT_FLOPS = OPT_COMMAND_FIRST, OPT_E, OPT_R, OPT_POINTS, OPT_PLOT };

/* The quantities of a profile point beyond the law's fitted ranges, as
 * "N_act;D" (empty when inside). */
static const char *outside_text(char *buf, size_t size, const ls_law_ranges *ranges, const ls_arch_template *t,
                                double n_act, double E, double R, double tokens, unsigned *outside)
{
    ls_law_point x = ls_arch_point(t, n_act, E, R, tokens);
    unsigned bits = ls_law_ranges_outside(ranges, &x);
    size_t used = 0;
    buf[0] = '\0';
    for (int q = 0; q < LS_LAW_NRANGES; q++)
        if (bits >> q & 1u) {
            int n = snprintf(buf + used, size - used, "%s%s", used ? ";" : "", ls_law_range_name((ls_law_range)q));
            if (n > 0 && (size_t)n < size - used)
                used += (size_t)n;
        }
    if (outside)
        *outside |= bits;
    return buf;
}

static void print_profile_row(FILE *out, double flops, double E, double R, double n_act, double tokens, double loss,
                              int is_minimum, const char *outside)
{
    char num[6][NUMTEXT_DOUBLE_MAX];
    fprintf(out, "%s,%s,%s,%s,%s,%s,%d,%s\n", ls_numtext_format_double(num[0], flops), ls_numtext_format_double(num[1], E),
           ls_numtext_format_double(num[2], R), ls_numtext_format_double(num[3], n_act),
           ls_numtext_format_double(num[4], tokens), ls_numtext_format_double(num[5], loss), is_minimum, outside);
}

int cmd_isoflop(int argc, char **argv)
{
    const char *cmd = "isoflop";
    static const struct option longopts[] = {CLI_HELP_OPTION,
                                             {"law", required_argument, NULL, 'l'},
        {"force", no_argument, NULL, OPT_FORCE},
                                             {"flops", required_argument, NULL, OPT_FLOPS},
                                             {"E", required_argument, NULL, OPT_E},
                                             {"R", required_argument, NULL, OPT_R},
                                             {"template", required_argument, NULL, OPT_TEMPLATE},
        CLI_FLOPS_OPTION,
                                             {"points", required_argument, NULL, OPT_POINTS},
                                             {"format", required_argument, NULL, OPT_FORMAT},
                                             {"plot", required_argument, NULL, OPT_PLOT},
                                             CLI_PLOT_OPTIONS,
                                             {NULL, 0, NULL, 0}};
    const char *law_path = NULL, *template_path = NULL, *plot = NULL;
    double *flops = NULL, *E = NULL, *R = NULL, one = 1.0, default_e = 1.0;
    size_t nflops = 0, nE = 0, nR = 0;
    long points = 25;
    cli_format format = CLI_FORMAT_TABLE;
    ls_figure figure = cli_plot_defaults();
    int status = 0, opt, force = 0, flops_given = 0;
    ls_law_flops_kind flops_kind = LS_LAW_FLOPS_6ND;
    opterr = 0;
    while (status == 0 && (opt = cli_getopt(argc, argv, ":hl:", longopts, NULL, NULL)) != -1) {
        if (cli_plot_option(cmd, opt, optarg, &figure, &status))
            continue;
        switch (opt) {
        case 'h': status = -1; break;
        case 'l': law_path = optarg; break;
        case OPT_FORCE: force = 1; break;
        case OPT_FLOPS: status = cli_parse_flops_list(cmd, "--flops", optarg, &flops, &nflops); break;
        case OPT_E: status = cli_parse_list(cmd, "--E", optarg, &E, &nE); break;
        case OPT_R: status = cli_parse_list(cmd, "--R", optarg, &R, &nR); break;
        case OPT_TEMPLATE: template_path = optarg; break;
        case OPT_FLOPS_CONVENTION:
            status = cli_parse_flops_convention(cmd, optarg, &flops_kind);
            flops_given = 1;
            break;
        case OPT_POINTS: status = cli_parse_long(cmd, "--points", optarg, 2, 100000, &points); break;
        case OPT_PLOT: plot = optarg; break;
        case OPT_FORMAT:
            status = cli_parse_format(cmd, optarg, 1u << CLI_FORMAT_TABLE | 1u << CLI_FORMAT_CSV, &format);
            break;
        default: status = cli_option_error(cmd, opt, argv); break;
        }
    }
    ls_arch_template tmpl;
    ls_arch_template_default(&tmpl);
    ls_error err;
    ls_lawfile *lf = NULL;
    cli_table *t = NULL;
    double *grid = NULL, *loss = NULL, *tokens = NULL;
    if (status == -1) {
        free(flops);
        free(E);
        free(R);
        return cli_help(USAGE);
    }
    if (status == 0 && !flops)
        status = cli_usage_error(cmd, "give the compute budgets with --flops F1,F2,...");
    else if (status == 0 && optind < argc)
        status = cli_usage_error(cmd, "unexpected argument '%s'", argv[optind]);
    if (!E) {
        E = &default_e;
        nE = 1;
    }
    if (!R) {
        R = &one;
        nR = 1;
    }
    if (status == 0) {
        cli_file_input("--law", law_path);
        cli_file_input("--template", template_path);
        cli_file_output("the table", "-");
        cli_file_output("--plot", plot);
        status = cli_files_check(cmd);
    }
    /* The format the plot's name asks for; any other name is refused here,
     * before any work. */
    if (status == 0)
        status = cli_plot_format(cmd, "--plot", plot, &figure);
    if (status == 0) {
        const char *plots[] = {plot};
        const ls_figure *figures[] = {&figure};
        status = cli_plot_options_check(cmd, 1, plots, figures, "--plot");
    }
    if (status == 0 && template_path && ls_arch_template_read(template_path, &tmpl, &err) != 0)
        status = cli_fail(cmd, &err);
    if (status == 0 && E == &default_e && tmpl.top_k > 1) { /* the default E = 1 cannot route to top_k experts */
        default_e = tmpl.top_k;
        cli_note(cmd, "the template routes to top_k = %d experts: the default --E is %d", tmpl.top_k, tmpl.top_k);
    }
    for (size_t i = 0; status == 0 && i < nE; i++)
        if (E[i] != floor(E[i]) || E[i] < tmpl.top_k)
            status = cli_usage_error(cmd, "--E: %g is not a whole number of experts of at least top_k", E[i]);
    for (size_t i = 0; status == 0 && i < nR; i++)
        if (R[i] != floor(R[i]))
            status = cli_usage_error(cmd, "--R: %g is not an integer", R[i]);
    if (status == 0)
        lf = cli_read_law(cmd, law_path, force, &status);
    if (status == 0)
        status = cli_apply_flops(cmd, &tmpl, lf, flops_given, flops_kind);
    grid = malloc((size_t)points * sizeof *grid);
    loss = malloc((size_t)points * sizeof *loss);
    tokens = malloc((size_t)points * sizeof *tokens);
    if (status == 0 && (!grid || !loss || !tokens)) {
        cli_error(cmd, "out of memory");
        status = ls_exit_status(LS_ERR_INTERNAL);
    }
    static const char *const headers[] = {"flops", "E", "R", "N_act*", "D*", "tokens/N_act", "loss*"};
    if (status == 0 && format == CLI_FORMAT_TABLE)
        t = cli_table_new(7, headers);
    /* The CSV is gathered first and printed whole, so that a budget found
     * unusable halfway prints nothing rather than half a profile. */
    char *csv_text = NULL;
    size_t csv_len = 0;
    FILE *csv = NULL;
    if (status == 0 && format == CLI_FORMAT_CSV && !(csv = open_memstream(&csv_text, &csv_len))) {
        cli_error(cmd, "out of memory");
        status = ls_exit_status(LS_ERR_INTERNAL);
    }
    if (csv)
        fprintf(csv, "flops,E,R,n_act,tokens,loss,minimum,outside\n");
    ls_law_ranges ranges;
    ls_lawfile_ranges(lf, &ranges);
    unsigned minima_outside = 0;
    size_t minima_at_edge = 0;
    char edge_text[160] = "";
    char out_text[64];
    ls_solve_budget budget = {0, INFINITY, 16};
    for (size_t f = 0; status == 0 && f < nflops; f++)
        for (size_t e = 0; status == 0 && e < nE; e++)
            for (size_t r = 0; status == 0 && r < nR; r++) {
                budget.flops = flops[f];
                ls_solve_candidate best;
                if (ls_solve_candidate_at(&lf->law, &tmpl, &budget, E[e], R[r], NULL, 0, 0, &best) != 0 ||
                    !best.feasible) {
                    cli_error(cmd, "no model fits a budget of %g %s", flops[f], ls_plural(flops[f], "FLOP", "FLOPs"));
                    status = ls_exit_status(LS_ERR_DATA); /* as solve says it */
                    break;
                }
                /* Nothing a double cannot hold is printed: the rule solve
                 * applies, to the minimum and to every profile point. */
                if (ls_solve_candidate_check(&best, flops[f], &err) != 0) {
                    status = cli_fail(cmd, &err);
                    break;
                }
                /* A minimum at an end of the N_act search is no minimum. */
                if (ls_solve_at_edge(NULL, &best) && minima_at_edge++ == 0)
                    snprintf(edge_text, sizeof edge_text, "F = %g, E = %g, R = %g: N_act = %.4g, D = %.4g", flops[f],
                             E[e], R[r], best.n_act, best.tokens);
                if (format == CLI_FORMAT_CSV) {
                    /* From N_opt / 30 to 30 N_opt, evenly in ln N, with the minimum itself. */
                    ls_solve_isoflop_grid(best.n_act, 30.0, (size_t)points, grid);
                    ls_solve_isoflop_profile(&lf->law, &tmpl, flops[f], E[e], R[r], grid, (size_t)points, loss, tokens);
                    for (long i = 0; status == 0 && i < points; i++) {
                        ls_solve_candidate point = {.n_act = grid[i], .E = E[e], .R = R[r], .tokens = tokens[i],
                                                 .loss = loss[i], .feasible = 1};
                        if (ls_solve_candidate_check(&point, flops[f], &err) != 0)
                            status = cli_fail(cmd, &err);
                    }
                    if (status != 0)
                        break;
                    int printed_min = 0;
                    outside_text(out_text, sizeof out_text, &ranges, &tmpl, best.n_act, E[e], R[r], best.tokens,
                                 &minima_outside);
                    char min_text[64];
                    snprintf(min_text, sizeof min_text, "%s", out_text);
                    for (long i = 0; i < points; i++) {
                        if (!printed_min && grid[i] > best.n_act) {
                            print_profile_row(csv, flops[f], E[e], R[r], best.n_act, best.tokens, best.loss, 1, min_text);
                            printed_min = 1;
                        }
                        print_profile_row(csv, flops[f], E[e], R[r], grid[i], tokens[i], loss[i], 0,
                                          outside_text(out_text, sizeof out_text, &ranges, &tmpl, grid[i], E[e], R[r],
                                                       tokens[i], NULL));
                    }
                    if (!printed_min)
                        print_profile_row(csv, flops[f], E[e], R[r], best.n_act, best.tokens, best.loss, 1, min_text);
                } else {
                    ls_law_point x = ls_arch_point(&tmpl, best.n_act, E[e], R[r], best.tokens);
                    unsigned bits = ls_law_ranges_outside(&ranges, &x);
                    minima_outside |= bits;
                    char c[7][32];
                    snprintf(c[0], 32, "%.3g", flops[f]);
                    snprintf(c[1], 32, "%g", E[e]);
                    snprintf(c[2], 32, "%g", R[r]);
                    snprintf(c[3], 32, "%.4g", best.n_act);
                    snprintf(c[4], 32, "%.4g", best.tokens);
                    snprintf(c[5], 32, "%.4g", best.tokens / best.n_act);
                    cli_fixed(c[6], 32, best.loss, 4);
                    /* A value beyond the fitted range is starred; F marks the budget. */
                    static const int column_of[LS_LAW_NRANGES] = {3, 4, 2, 1, 0};
                    for (int q = 0; q < LS_LAW_NRANGES; q++)
                        if (bits >> q & 1u)
                            strncat(c[column_of[q]], "*", 32 - strlen(c[column_of[q]]) - 1);
                    const char *cells[] = {c[0], c[1], c[2], c[3], c[4], c[5], c[6]};
                    if (cli_table_add(t, cells) != 0) {
                        cli_error(cmd, "out of memory");
                        status = ls_exit_status(LS_ERR_INTERNAL);
                    }
                }
            }
    if (csv && fclose(csv) != 0 && status == 0) {
        cli_error(cmd, "out of memory");
        status = ls_exit_status(LS_ERR_INTERNAL);
    }
    /* The figure is drawn before anything is printed, so that a figure
     * that cannot be drawn leaves no half of the output. */
    unsigned char *figure_bytes = NULL;
    size_t figure_len = 0;
    if (status == 0 && plot && ls_plot_band_draws(lf) == 0)
        cli_note(cmd, "no bootstrap draws in the law: the plot has no band (fit --bootstrap N records them)");
    if (status == 0 && plot) {
        ls_plot_isoflop_spec spec = {flops, nflops, E, R, nE, nR, (size_t)points};
        if (!(figure_bytes = ls_plot_isoflop(lf, &tmpl, &spec, &figure, &figure_len, &err)))
            status = cli_fail(cmd, &err);
    }
    if (status == 0 && csv_text)
        fwrite(csv_text, 1, csv_len, stdout);
    free(csv_text);
    if (status == 0 && t) {
        cli_table_print(t, stdout, CLI_FORMAT_TABLE);
        if (minima_outside) {
            printf("* outside the range the law was fitted on:");
            const char *sep = " ";
            for (int q = 0; q < LS_LAW_NRANGES; q++)
                if (minima_outside >> q & 1u) {
                    printf("%s%s %.4g to %.4g", sep, ls_law_range_name((ls_law_range)q), ranges.lo[q], ranges.hi[q]);
                    sep = ", ";
                }
            printf("\n");
        }
    }
    if (status == 0 && minima_at_edge)
        cli_warn(cmd, "%s%s: at an end of the search range (N_act 1e3 and up, D at least one token), not an "
                      "optimum (a budget that small, or a law whose exponents are not positive)",
                 edge_text, minima_at_edge > 1 ? " and other minima" : "");
    if (status == 0 && minima_outside) {
        char list[64];
        size_t used = 0;
        list[0] = '\0';
        for (int q = 0; q < LS_LAW_NRANGES; q++)
            if (minima_outside >> q & 1u) {
                int n = snprintf(list + used, sizeof list - used, "%s%s", used ? ", " : "",
                                 ls_law_range_name((ls_law_range)q));
                if (n > 0 && (size_t)n < sizeof list - used)
                    used += (size_t)n;
            }
        cli_warn(cmd, "some minima lie outside the ranges the law was fitted on (%s): an extrapolation", list);
    }
    if (status == 0 && plot) {
        const void *data = figure_bytes;
        status = cli_write_data(cmd, 1, &plot, &data, &figure_len);
    }
    free(figure_bytes);
    cli_table_free(t);
    ls_lawfile_free(lf);
    free(flops);
    if (E != &default_e)
        free(E);
    if (R != &one)
        free(R);
    free(grid);
    free(loss);
    free(tokens);
    return status;
}
