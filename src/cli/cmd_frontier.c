/*
 * loopscale frontier — the compute-optimal frontier of a law: N_opt, D_opt,
 * tokens per parameter and the loss at each training budget.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>

#include "cli.h"
#include "commands.h"
#include "loopscale/frontier.h"
#include "jsonw_internal.h"
#include "loopscale/solve.h"
#include "numtext_internal.h"

static const char USAGE[] =
    "Usage: loopscale frontier --flops BUDGETS [OPTIONS]\n"
    "\n"
    "The compute-optimal frontier of a law: for each training budget F, the size N_opt and\n"
    "tokens D_opt = F / (6 N_opt) that minimise the loss of a plain model (R = 1, E = 1,\n"
    "unlimited unique data), the tokens per parameter D_opt / N_opt and the loss there, in\n"
    "closed form; N_opt grows as F^a (a = beta / (alpha + beta) for Chinchilla's form).\n"
    "F is counted as 6 N D: a law fitted with another --flops-convention is refused (the\n"
    "options below, isoflop and solve honour it). Budgets are reported in increasing F;\n"
    "optima beyond the ranges the law was fitted on are starred, with a warning.\n"
    "\n"
    "  -l, --law FILE          law file (default: the law compiled in)\n"
    "      --flops BUDGETS     a list F1,F2,... (e.g. 1e20,1e21, 2.8B = 2.8e9) or a range LO:HI:N,\n"
    "                          N budgets evenly spaced in ln F (e.g. 1e18:1e24:13)\n"
    "      --format FMT        table (default), csv or json\n"
    "      --plot FILE         draw N_opt, D_opt and the loss against F (.svg, .pdf or .png);\n"
    "                          with the options below, N_act and D, and R* and E*\n"
    "\n"
    "The frontier of the best architecture: any of these options runs 'loopscale solve' at each\n"
    "budget instead (same meanings and defaults, the law's FLOP convention) and reports the\n"
    "chosen R*, E*, N_act, N_total, D, D/N_act, the loss, what bounds N_act (compute, memory or\n"
    "search range) and the local exponent d ln N_act / d ln F between neighbouring budgets.\n"
    "      --mem BYTES         weight memory in bytes, e.g. 3GB, 3GiB, 2.5e9 (k M G T P E or Ki Mi\n"
    "                          Gi Ti, B optional; a bare 3B is refused; default: no limit)\n"
    "      --bits B            bits per weight (default 16; 4 for INT4)\n"
    "      --template FILE     architecture template (JSON; default: the paper's middle-cycle\n"
    "                          looping)\n"
    "      --R LIST            candidate loop counts (default 1,2,...,16, up to the largest R\n"
    "                          the law was fitted on)\n"
    "      --E LIST            candidate expert counts (default 1,2,4,8,16,32,64, up to the\n"
    "                          largest E the law was fitted on)\n"
    "      --eps X             tolerance in loss units (default: the law's fit RMSE, 0 if none)\n"
    CLI_PLOT_HELP
    CLI_FORCE_HELP
    "  -h, --help              show this help\n";

enum { OPT_FLOPS = OPT_COMMAND_FIRST, OPT_PLOT, OPT_MEM, OPT_BITS, OPT_R, OPT_E, OPT_EPS };

/* --flops: a list read as every command reads FLOP counts (2.8B = 2.8e9, 2.8GB refused as
 * bytes, each inside the option's range), or a range LO:HI:N whose ends are read the same
 * way; the library spaces the range, from the ends written back exactly (%.17g). */
static int parse_budgets(const char *cmd, const char *text, double **budgets, size_t *n)
{
    *budgets = NULL;
    *n = 0;
    if (!strchr(text, ':')) {
        /* Reported in increasing F, whatever the order given: the local
         * exponent is taken between neighbours. */
        int status = cli_parse_flops_list(cmd, "--flops", text, budgets, n);
        if (status == 0)
            gsl_sort(*budgets, 1, *n);
        /* As a range is refused when two of its budgets round to one: a
         * slope across 1e-14 in ln F is noise. */
        for (size_t i = 1; status == 0 && i < *n; i++)
            if ((*budgets)[i] - (*budgets)[i - 1] < 1e-12 * (*budgets)[i])
                status = cli_usage_error(cmd, "--flops: '%s': %.15g and %.15g agree to 12 significant digits; give "
                                         "budgets that differ", text, (*budgets)[i - 1], (*budgets)[i]);
        return status;
    }
    size_t colons = 0;
    for (const char *c = text; *c; c++)
        colons += *c == ':';
    if (colons != 2 || strchr(text, ','))
        return cli_usage_error(cmd, "--flops: '%s' is neither a list F1,F2,... nor a range LO:HI:N", text);
    size_t len = strlen(text);
    char *copy = malloc(len + 1);
    if (!copy) {
        cli_error(cmd, "out of memory");
        return ls_exit_status(LS_ERR_INTERNAL);
    }
    memcpy(copy, text, len + 1);
    char *c1 = strchr(copy, ':'), *c2 = strchr(c1 + 1, ':');
    *c1 = *c2 = '\0';
    double lo = 0, hi = 0;
    long count = 0;
    int status = cli_parse_flops(cmd, "--flops", copy, &lo);
    if (status == 0)
        status = cli_parse_flops(cmd, "--flops", c1 + 1, &hi);
    if (status == 0 && (ls_numtext_parse_long(c2 + 1, strlen(c2 + 1), &count) != NUMTEXT_OK || count < 2 ||
                        count > 100000))
        status = cli_usage_error(cmd, "--flops: '%s': the number of budgets N in LO:HI:N must be a whole number "
                                 "from 2 to 100000, not '%s'", text, c2 + 1);
    if (status == 0 && !(lo < hi))
        status = cli_usage_error(cmd, "--flops: '%s': LO must be below HI in LO:HI:N", text);
    free(copy);
    if (status != 0)
        return status;
    char exact[3 * 32];
    snprintf(exact, sizeof exact, "%.17g:%.17g:%ld", lo, hi, count);
    ls_error err;
    /* The checks above leave the library one refusal: a range so fine that
     * its budgets round to one another. */
    if (ls_frontier_budgets_parse(exact, budgets, n, &err) != 0)
        return err.code == LS_ERR_USAGE ? cli_usage_error(cmd, "--flops: '%s': the range is finer than 13 significant "
                                                          "digits tell apart (two budgets round to one)", text)
                                        : cli_fail(cmd, &err);
    return 0;
}

static int print_json(const char *cmd, const ls_law *l, const ls_frontier_point *p, size_t n, double a)
{
    char kind[64];
    ls_law_kind_format(l->kind, kind, sizeof kind);
    jsonw w;
    ls_jsonw_init(&w);
    ls_jsonw_object_begin(&w, NULL);
    ls_jsonw_string(&w, "law", kind);
    ls_jsonw_number(&w, "exponent_n", a);
    ls_jsonw_number(&w, "exponent_d", 1.0 - a);
    ls_jsonw_array_begin(&w, "frontier", 0);
    for (size_t i = 0; i < n; i++) {
        ls_jsonw_object_begin(&w, NULL);
        ls_jsonw_number(&w, "flops", p[i].flops);
        ls_jsonw_number(&w, "n_opt", p[i].n_opt);
        ls_jsonw_number(&w, "d_opt", p[i].d_opt);
        ls_jsonw_number(&w, "tokens_per_param", p[i].tokens_per_param);
        ls_jsonw_number(&w, "loss", p[i].loss);
        ls_jsonw_object_end(&w);
    }
    ls_jsonw_array_end(&w);
    ls_jsonw_object_end(&w);
    return cli_print_json(cmd, &w);
}

/* The options frontier shares with solve; any of them given switches the frontier from
 * the closed form to the chosen architecture (the law's kind does not: a looped-MoE law
 * without them keeps its plain-model closed form, as before). */
typedef struct solve_args {
    int given;
    const char *template_path;
    double mem_bytes, bits, eps;
    double *R, *E;
    size_t nR, nE;
} solve_args;

static int print_solve_json(const char *cmd, const ls_law *l, const solve_args *a, const ls_frontier_solve_point *p,
                            size_t n)
{
    char kind[64];
    ls_law_kind_format(l->kind, kind, sizeof kind);
    jsonw w;
    ls_jsonw_init(&w);
    ls_jsonw_object_begin(&w, NULL);
    ls_jsonw_string(&w, "law", kind);
    if (isfinite(a->mem_bytes))
        ls_jsonw_number(&w, "mem_bytes", a->mem_bytes);
    ls_jsonw_number(&w, "bits", a->bits);
    ls_jsonw_number(&w, "eps", a->eps);
    ls_jsonw_array_begin(&w, "frontier", 0);
    for (size_t i = 0; i < n; i++) {
        ls_jsonw_object_begin(&w, NULL);
        ls_jsonw_number(&w, "flops", p[i].flops);
        ls_jsonw_number(&w, "n_opt", p[i].n_act);
        ls_jsonw_number(&w, "d_opt", p[i].tokens);
        ls_jsonw_number(&w, "tokens_per_param", p[i].tokens_per_param);
        ls_jsonw_number(&w, "loss", p[i].loss);
        ls_jsonw_number(&w, "R", p[i].R);
        ls_jsonw_number(&w, "E", p[i].E);
        ls_jsonw_number(&w, "n_total", p[i].n_total);
        ls_jsonw_string(&w, "bound", ls_solve_bound_name(p[i].bound));
        if (!isnan(p[i].exponent_n)) /* JSON has no NaN: one budget has no slope */
            ls_jsonw_number(&w, "exponent_n", p[i].exponent_n);
        ls_jsonw_object_end(&w);
    }
    ls_jsonw_array_end(&w);
    ls_jsonw_object_end(&w);
    return cli_print_json(cmd, &w);
}

static void print_solve_csv(const ls_frontier_solve_point *p, size_t n)
{
    printf("flops,n_opt,d_opt,tokens_per_param,loss,R,E,n_total,bound,exponent_n\n");
    for (size_t i = 0; i < n; i++) {
        char num[9][NUMTEXT_DOUBLE_MAX];
        printf("%s,%s,%s,%s,%s,%s,%s,%s,%s,%s\n", ls_numtext_format_double(num[0], p[i].flops),
               ls_numtext_format_double(num[1], p[i].n_act), ls_numtext_format_double(num[2], p[i].tokens),
               ls_numtext_format_double(num[3], p[i].tokens_per_param), ls_numtext_format_double(num[4], p[i].loss),
               ls_numtext_format_double(num[5], p[i].R), ls_numtext_format_double(num[6], p[i].E),
               ls_numtext_format_double(num[7], p[i].n_total), ls_solve_bound_name(p[i].bound),
               isnan(p[i].exponent_n) ? "" : ls_numtext_format_double(num[8], p[i].exponent_n));
    }
}

static int print_solve_table(const ls_law *l, const solve_args *a, const ls_law_ranges *ranges,
                             const ls_frontier_solve_point *p, size_t n)
{
    char kind[64];
    printf("law        %s (the configuration 'loopscale solve' chooses at each budget)\n",
           ls_law_kind_format(l->kind, kind, sizeof kind));
    if (isfinite(a->mem_bytes))
        printf("memory     %.4g bytes of weights at %g bits (N_total <= %.4g)\n", a->mem_bytes, a->bits,
               8 * a->mem_bytes / a->bits);
    else
        printf("memory     no limit\n");
    printf("epsilon    %.4g (loss units)\n\n", a->eps);
    static const char *const headers[] = {"flops", "R*",   "E*",    "N_act", "N_total", "D", "D/N_act",
                                          "loss",  "bound", "dlnN_act/dlnF"};
    cli_table *t = cli_table_new(10, headers);
    unsigned outside = 0;
    for (size_t i = 0; t && i < n; i++) {
        char c[10][32];
        snprintf(c[0], 32, "%.4g", p[i].flops);
        snprintf(c[1], 32, "%g%s", p[i].R, p[i].outside >> LS_LAW_RANGE_R & 1u ? "*" : "");
        snprintf(c[2], 32, "%g%s", p[i].E, p[i].outside >> LS_LAW_RANGE_E & 1u ? "*" : "");
        snprintf(c[3], 32, "%.4g%s", p[i].n_act, p[i].outside >> LS_LAW_RANGE_N_ACT & 1u ? "*" : "");
        snprintf(c[4], 32, "%.4g", p[i].n_total);
        snprintf(c[5], 32, "%.4g%s", p[i].tokens, p[i].outside >> LS_LAW_RANGE_TOKENS & 1u ? "*" : "");
        snprintf(c[6], 32, "%.4g", p[i].tokens_per_param);
        cli_fixed(c[7], 32, p[i].loss, 4);
        snprintf(c[8], 32, "%s", ls_solve_bound_name(p[i].bound));
        if (isnan(p[i].exponent_n)) /* one budget has no slope */
            snprintf(c[9], 32, "-");
        else
            snprintf(c[9], 32, "%.4f", p[i].exponent_n);
        outside |= p[i].outside;
        const char *cells[] = {c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8], c[9]};
        if (cli_table_add(t, cells) != 0) {
            cli_table_free(t);
            t = NULL;
        }
    }
    if (!t)
        return ls_exit_status(LS_ERR_INTERNAL);
    cli_table_print(t, stdout, CLI_FORMAT_TABLE);
    cli_table_free(t);
    cli_print_ranges_note(ranges, outside);
    return 0;
}

/* A frontier row as the candidate solve chose, for solve's edge checks. */
static ls_solve_candidate chosen_candidate(const ls_frontier_solve_point *p)
{
    return (ls_solve_candidate){.R = p->R, .E = p->E, .n_act = p->n_act, .n_total = p->n_total, .tokens = p->tokens,
                             .loss = p->loss, .feasible = 1, .bound = p->bound};
}

/* The frontier of the chosen architecture: 'loopscale solve' at each budget, with its
 * defaults (candidate lists cut at the law's fitted R and E, epsilon the fit's RMSE) and
 * the law's FLOP convention, which the numerical solver honours. */
static int run_solve_frontier(const char *cmd, ls_lawfile *lf, solve_args *a, const double *budgets, size_t n,
                              cli_format format, const char *plot, const ls_figure *figure)
{
    ls_arch_template tmpl;
    ls_arch_template_default(&tmpl);
    ls_error err;
    int status = 0;
    if (a->template_path && ls_arch_template_read(a->template_path, &tmpl, &err) != 0)
        return cli_fail(cmd, &err);
    status = cli_apply_flops(cmd, &tmpl, lf, 0, LS_LAW_FLOPS_6ND);
    if (status != 0)
        return status;
    ls_law_ranges ranges;
    ls_lawfile_ranges(lf, &ranges);
    cli_candidates room;
    ls_solve_options so = {.ranges = &ranges};
    cli_solve_candidates(cmd, &tmpl, a->R, a->nR, a->E, a->nE, &room, &so);
    so.eps = a->eps = cli_solve_eps(cmd, lf, a->eps);
    ls_frontier_solve_point *points = malloc(n * sizeof *points);
    if (!points) {
        cli_error(cmd, "out of memory");
        return ls_exit_status(LS_ERR_INTERNAL);
    }
    if (ls_frontier_run_solve(&lf->law, &tmpl, budgets, n, &so, a->mem_bytes, a->bits, points, &err) != 0)
        status = cli_fail(cmd, &err);
    /* Configurations beyond the sweep are the law's guess, not its fit: said once, in
     * every format (the table also stars each value). */
    size_t beyond = 0;
    for (size_t i = 0; status == 0 && i < n; i++)
        beyond += points[i].outside != 0;
    if (beyond)
        cli_warn(cmd, "%zu of %zu %s %s a configuration outside the ranges the law was fitted on: an "
                 "extrapolation", beyond, n, ls_plural((double)n, "budget", "budgets"), beyond == 1 ? "chooses" : "choose");
    /* As solve says it: a choice at an end of the search is not an optimum
     * (one warning, naming the first such budget). */
    size_t at_edge = 0, first = 0;
    unsigned edge_bits = 0;
    for (size_t i = 0; status == 0 && i < n; i++) {
        ls_solve_candidate c = chosen_candidate(&points[i]);
        unsigned bits = ls_solve_at_edge(&so, &c);
        if (bits && at_edge++ == 0)
            first = i;
        edge_bits |= bits;
    }
    if (at_edge) {
        char text[160];
        ls_solve_candidate c = chosen_candidate(&points[first]);
        cli_solve_edge_text(text, sizeof text, &so, &c);
        cli_warn(cmd, "%zu of %zu %s %s a configuration at an end of the search range, not an optimum (at %g FLOPs: %s; %s)", at_edge,
                 n, ls_plural((double)n, "budget", "budgets"), at_edge == 1 ? "chooses" : "choose", points[first].flops,
                 text, cli_solve_edge_hint(edge_bits));
    }
    unsigned char *bytes = NULL;
    size_t len = 0;
    if (status == 0 && plot &&
        !(bytes = ls_frontier_plot_solve(&lf->law, points, n, &so, a->mem_bytes, a->bits, figure, &len, &err)))
        status = cli_fail(cmd, &err);
    if (status == 0 && format == CLI_FORMAT_JSON)
        status = print_solve_json(cmd, &lf->law, a, points, n);
    else if (status == 0 && format == CLI_FORMAT_CSV)
        print_solve_csv(points, n);
    else if (status == 0 && print_solve_table(&lf->law, a, &ranges, points, n) != 0) {
        cli_error(cmd, "out of memory");
        status = ls_exit_status(LS_ERR_INTERNAL);
    }
    if (status == 0 && plot) {
        const void *data = bytes;
        status = cli_write_data(cmd, 1, &plot, &data, &len);
    }
    free(bytes);
    free(points);
    return status;
}

int cmd_frontier(int argc, char **argv)
{
    const char *cmd = "frontier";
    static const struct option longopts[] = {CLI_HELP_OPTION,
                                             {"law", required_argument, NULL, 'l'},
                                             {"force", no_argument, NULL, OPT_FORCE},
                                             {"flops", required_argument, NULL, OPT_FLOPS},
                                             {"format", required_argument, NULL, OPT_FORMAT},
                                             {"plot", required_argument, NULL, OPT_PLOT},
                                             {"mem", required_argument, NULL, OPT_MEM},
                                             {"bits", required_argument, NULL, OPT_BITS},
                                             {"template", required_argument, NULL, OPT_TEMPLATE},
                                             {"R", required_argument, NULL, OPT_R},
                                             {"E", required_argument, NULL, OPT_E},
                                             {"eps", required_argument, NULL, OPT_EPS},
                                             CLI_PLOT_OPTIONS,
                                             {NULL, 0, NULL, 0}};
    const char *law_path = NULL, *plot = NULL, *flops_text = NULL;
    cli_format format = CLI_FORMAT_TABLE;
    ls_figure figure = cli_plot_defaults();
    solve_args sa = {.mem_bytes = INFINITY, .bits = 16, .eps = NAN};
    int status = 0, opt, force = 0;
    opterr = 0;
    while (status == 0 && (opt = cli_getopt(argc, argv, ":hl:", longopts, NULL, NULL)) != -1) {
        if (cli_plot_option(cmd, opt, optarg, &figure, &status))
            continue;
        switch (opt) {
        case 'h': return cli_help(USAGE);
        case 'l': law_path = optarg; break;
        case OPT_FORCE: force = 1; break;
        case OPT_FLOPS: flops_text = optarg; break;
        case OPT_PLOT: plot = optarg; break;
        case OPT_MEM:
            sa.given = 1;
            status = cli_parse_bytes(cmd, "--mem", optarg, &sa.mem_bytes);
            break;
        case OPT_BITS:
            sa.given = 1;
            status = cli_parse_positive(cmd, "--bits", optarg, &sa.bits);
            break;
        case OPT_TEMPLATE:
            sa.given = 1;
            sa.template_path = optarg;
            break;
        case OPT_R:
            sa.given = 1;
            status = cli_parse_list(cmd, "--R", optarg, &sa.R, &sa.nR);
            break;
        case OPT_E:
            sa.given = 1;
            status = cli_parse_list(cmd, "--E", optarg, &sa.E, &sa.nE);
            break;
        case OPT_EPS:
            sa.given = 1;
            status = cli_parse_eps(cmd, optarg, &sa.eps);
            break;
        case OPT_FORMAT:
            status = cli_parse_format(cmd, optarg,
                                      1u << CLI_FORMAT_TABLE | 1u << CLI_FORMAT_CSV | 1u << CLI_FORMAT_JSON, &format);
            break;
        default: status = cli_option_error(cmd, opt, argv); break;
        }
    }
    ls_error err;
    ls_lawfile *lf = NULL;
    double *budgets = NULL, a = NAN;
    size_t n = 0;
    ls_frontier_point *points = NULL;
    unsigned *outside = NULL; /* per budget: bits 1u << LAW_RANGE_* beyond the fitted ranges */
    if (status == 0 && !flops_text)
        status = cli_usage_error(cmd, "give the training budgets with --flops F1,F2,... or --flops LO:HI:N");
    else if (status == 0 && optind < argc)
        status = cli_usage_error(cmd, "unexpected argument '%s'", argv[optind]);
    if (status == 0)
        status = parse_budgets(cmd, flops_text, &budgets, &n);
    if (status == 0)
        status = cli_check_integers(cmd, "--R", sa.R, sa.nR);
    if (status == 0)
        status = cli_check_integers(cmd, "--E", sa.E, sa.nE);
    if (status == 0) {
        cli_file_input("--law", law_path);
        cli_file_input("--template", sa.template_path);
        cli_file_output("the table", "-");
        cli_file_output("--plot", plot);
        status = cli_files_check(cmd);
    }
    if (status == 0)
        status = cli_plot_format(cmd, "--plot", plot, &figure);
    if (status == 0) {
        const char *plots[] = {plot};
        const ls_figure *figures[] = {&figure};
        status = cli_plot_options_check(cmd, 1, plots, figures, "--plot");
    }
    if (status == 0)
        lf = cli_read_law(cmd, law_path, force, &status);
    if (status == 0 && sa.given) {
        status = run_solve_frontier(cmd, lf, &sa, budgets, n, format, plot, &figure);
        goto done;
    }
    /* The closed form charges F = 6 N D; a law fitted on FLOPs counted with attention or the
     * LM head would give an optimum off the one isoflop and solve find under its convention. */
    if (status == 0 && lf->has_fit && lf->fit.flops.kind != LS_LAW_FLOPS_6ND) {
        cli_error(cmd, "%s: the law was fitted on FLOPs counted as %s, and the frontier's closed form counts "
                  "F = 6 N D; use 'loopscale isoflop' or 'loopscale solve', which honour the convention",
                  law_path ? law_path : "the law", ls_law_flops_name(lf->fit.flops.kind));
        status = ls_exit_status(LS_ERR_DATA);
    }
    if (status == 0 && !(points = malloc(n * sizeof *points))) {
        cli_error(cmd, "out of memory");
        status = ls_exit_status(LS_ERR_INTERNAL);
    }
    if (status == 0 && ls_frontier_run(&lf->law, budgets, n, points, &a, &err) != 0)
        status = cli_fail(cmd, &err);
    /* The optimum of a plain model (R = 1, E = 1) beyond the sweep is the law's guess, as
     * solve and the architecture frontier say: warned in every format, starred in the table. */
    ls_law_ranges ranges;
    unsigned outside_any = 0;
    size_t beyond = 0;
    if (status == 0 && !(outside = calloc(n, sizeof *outside))) {
        cli_error(cmd, "out of memory");
        status = ls_exit_status(LS_ERR_INTERNAL);
    }
    if (status == 0) {
        ls_lawfile_ranges(lf, &ranges);
        for (size_t i = 0; i < n; i++) {
            ls_law_point x = {.n_act = points[i].n_opt, .n_total = points[i].n_opt, .R = 1, .E = 1, .D = points[i].d_opt};
            outside[i] = ls_law_ranges_outside(&ranges, &x);
            outside_any |= outside[i];
            beyond += outside[i] != 0;
        }
        if (beyond)
            cli_warn(cmd, "%zu of %zu %s %s an optimum outside the ranges the law was fitted on: an extrapolation",
                     beyond, n, ls_plural((double)n, "budget", "budgets"), beyond == 1 ? "has" : "have");
    }
    if (status == 0 && format == CLI_FORMAT_JSON)
        status = print_json(cmd, &lf->law, points, n, a);
    else if (status == 0 && format == CLI_FORMAT_CSV) {
        printf("flops,n_opt,d_opt,tokens_per_param,loss\n");
        for (size_t i = 0; i < n; i++) {
            char num[5][NUMTEXT_DOUBLE_MAX];
            printf("%s,%s,%s,%s,%s\n", ls_numtext_format_double(num[0], points[i].flops),
                   ls_numtext_format_double(num[1], points[i].n_opt), ls_numtext_format_double(num[2], points[i].d_opt),
                   ls_numtext_format_double(num[3], points[i].tokens_per_param),
                   ls_numtext_format_double(num[4], points[i].loss));
        }
    } else if (status == 0) {
        char kind[64];
        printf("law        %s (plain model: R = 1, E = 1, unlimited unique data)\n",
               ls_law_kind_format(lf->law.kind, kind, sizeof kind));
        printf("exponents  N_opt ~ F^%.4f, D_opt ~ F^%.4f\n\n", a, 1.0 - a);
        static const char *const headers[] = {"flops", "N_opt", "D_opt", "tokens/param", "loss"};
        cli_table *t = cli_table_new(5, headers);
        for (size_t i = 0; t && i < n; i++) {
            char c[5][32];
            snprintf(c[0], 32, "%.4g%s", points[i].flops, outside[i] >> LS_LAW_RANGE_FLOPS & 1u ? "*" : "");
            snprintf(c[1], 32, "%.4g%s", points[i].n_opt, outside[i] >> LS_LAW_RANGE_N_ACT & 1u ? "*" : "");
            snprintf(c[2], 32, "%.4g%s", points[i].d_opt, outside[i] >> LS_LAW_RANGE_TOKENS & 1u ? "*" : "");
            snprintf(c[3], 32, "%.4g", points[i].tokens_per_param);
            cli_fixed(c[4], 32, points[i].loss, 4);
            const char *cells[] = {c[0], c[1], c[2], c[3], c[4]};
            if (cli_table_add(t, cells) != 0) {
                cli_table_free(t);
                t = NULL;
            }
        }
        if (!t) {
            cli_error(cmd, "out of memory");
            status = ls_exit_status(LS_ERR_INTERNAL);
        } else {
            cli_table_print(t, stdout, CLI_FORMAT_TABLE);
            cli_table_free(t);
            cli_print_ranges_note(&ranges, outside_any);
        }
    }
    if (status == 0 && plot) {
        size_t len = 0;
        unsigned char *bytes = ls_frontier_plot(&lf->law, points, n, a, &figure, &len, &err);
        const void *data = bytes;
        status = bytes ? cli_write_data(cmd, 1, &plot, &data, &len) : cli_fail(cmd, &err);
        free(bytes);
    }
done:
    ls_lawfile_free(lf);
    free(budgets);
    free(points);
    free(outside);
    free(sa.R);
    free(sa.E);
    return status;
}
