/*
 * loopscale solve — what a compute and memory budget should buy: loops R,
 * experts E, active size N_act and tokens D.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "loopscale/arch.h"
#include "numtext_internal.h"
#include "loopscale/plot.h"
#include "loopscale/solve.h"

static const char USAGE[] =
    "Usage: loopscale solve --flops F [--mem BYTES] [OPTIONS]\n"
    "\n"
    "Find the loop count R*, expert count E*, active size N_act* and tokens D* that a\n"
    "training budget of F FLOPs and a weight-memory budget of BYTES should buy, under a law.\n"
    "D = F / (6 N_unroll) spends the whole budget; N_total (b_w bits per weight) must fit in\n"
    "memory.  Among the candidates within epsilon of the best feasible loss, the one with the\n"
    "fewest loops, then the fewest experts, is chosen: cheapest to serve.\n"
    "\n"
    "  -l, --law FILE          law file (default: the law compiled in, moe:bounded-sparse fitted\n"
    "                          on the shipped sweep looped-moe.csv.gz with 1,000 bootstrap draws)\n"
    "      --flops F           training compute in FLOPs, e.g. 1e21 or 2.8B (a count: k M B/G T P E,\n"
    "                          B a billion)\n"
    "      --mem BYTES         weight memory in bytes, e.g. 3GB, 3GiB, 2.5e9 (k M G T P E or Ki Mi\n"
    "                          Gi Ti, B optional; a bare 3B is refused; default: no limit)\n"
    "      --bits B            bits per weight (default 16; 4 for INT4)\n"
    "      --template FILE     architecture template (JSON; default: the paper's middle-cycle\n"
    "                          looping)\n"
    "      --print-template    print the template in force and exit\n"
    CLI_FLOPS_HELP
    "                          (default: the law's, else the template's)\n"
    "      --R LIST            candidate loop counts (default 1,2,...,16, up to the largest R\n"
    "                          the law was fitted on)\n"
    "      --E LIST            candidate expert counts (default 1,2,4,8,16,32,64, up to the\n"
    "                          largest E the law was fitted on)\n"
    "      --n-act LIST        choose N_act from this ladder (default: continuous)\n"
    "      --eps X             tolerance in loss units (default: the law's fit RMSE, 0 if none)\n"
    "      --table             also print every (E, R) candidate\n"
    "      --uncertainty       re-solve under each bootstrap draw of the law: how often each\n"
    "                          (R*, E*) wins, intervals for N_act*, D* and the loss (the law\n"
    "                          needs at least 20 draws)\n"
    "      --ci LEVEL          interval level, 0.5 to 0.999 (default 0.95)\n"
    "      --threads T         threads for --uncertainty (default: one per core)\n"
    "      --format FMT        table (default) or json\n"
    "      --plot FILE         draw the loss of the best N_act against R for each E under the\n"
    "                          budget, losses out of reach shaded, the choice marked\n"
    "      --plot-rho FILE     draw rho_eff(R) = N_eff / N_act for each E, with its ceilings\n"
    "                          (the paper's figure 1c)\n"
    CLI_PLOT_HELP
    CLI_FORCE_HELP
    "  -h, --help              show this help\n";

enum {
    OPT_FLOPS = OPT_COMMAND_FIRST,
    OPT_MEM,
    OPT_BITS,
    OPT_PRINT_TEMPLATE,
    OPT_R,
    OPT_E,
    OPT_N_ACT,
    OPT_EPS,
    OPT_TABLE,
    OPT_UNCERTAINTY,
    OPT_CI,
    OPT_PLOT,
    OPT_PLOT_RHO
};

static void human(char *buf, size_t size, double x)
{
    if (isinf(x))
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%.4g", x);
}

static void bytes_text(char *buf, size_t size, double bytes)
{
    snprintf(buf, size, "%.3g GB", bytes / 1e9);
}

/* A value beyond the range the law was fitted on is marked with a star. */
static void star_if(char *cell, size_t size, const ls_solve_candidate *c, ls_law_range q)
{
    size_t len = strlen(cell);
    if ((c->outside >> q & 1u) && len + 1 < size) {
        cell[len] = '*';
        cell[len + 1] = '\0';
    }
}

static void column_values(const ls_solve_candidate *c, char cells[11][40])
{
    if (!c->feasible) {
        for (int i = 0; i < 11; i++)
            snprintf(cells[i], 40, "-");
        return;
    }
    snprintf(cells[0], 40, "%g", c->R);
    snprintf(cells[1], 40, "%g", c->E);
    human(cells[2], 40, c->n_act);
    human(cells[3], 40, c->n_total);
    human(cells[4], 40, c->n_loop);
    human(cells[5], 40, c->tokens);
    star_if(cells[0], 40, c, LS_LAW_RANGE_R);
    star_if(cells[1], 40, c, LS_LAW_RANGE_E);
    star_if(cells[2], 40, c, LS_LAW_RANGE_N_ACT);
    star_if(cells[5], 40, c, LS_LAW_RANGE_TOKENS);
    snprintf(cells[6], 40, "%.4g", c->tokens / c->n_act);
    cli_fixed(cells[7], 40, c->loss, 4);
    human(cells[8], 40, c->inference_flops);
    bytes_text(cells[9], 40, c->weight_bytes);
    human(cells[10], 40, c->n_unroll);
}

/* 1 when the interval [v[0], v[1]] of quantity q leaves the fitted range. */
static int interval_outside(const ls_law_ranges *ranges, ls_law_range q, const double v[2])
{
    if (!ranges || !ranges->known[q])
        return 0;
    return v[0] < ranges->lo[q] * (1 - 1e-9) || v[1] > ranges->hi[q] * (1 + 1e-9);
}

static int print_result(const ls_solve_result *r, const ls_solve_uncertainty *u, int show_table, double eps,
                        const ls_law_ranges *ranges)
{
    static const char *const rows[] = {"R (loops)",   "E (experts)",       "N_act",
                                       "N_total",     "N_loop",            "D (tokens)",
                                       "tokens/N_act", "loss (predicted)", "inference FLOPs/token",
                                       "weight memory", "N_unroll"};
    char a[11][40], b[11][40], c[11][40];
    column_values(&r->choice, a);
    column_values(&r->best, b);
    column_values(&r->unconstrained, c);
    const char *headers[] = {"", "chosen", "lowest loss", "no memory limit"};
    cli_table *t = cli_table_new(4, headers);
    for (size_t i = 0; t && i < 11; i++) {
        const char *cells[] = {rows[i], a[i], b[i], c[i]};
        if (cli_table_add(t, cells) != 0) {
            cli_table_free(t);
            t = NULL;
        }
    }
    if (!t)
        return -1;
    cli_table_print(t, stdout, CLI_FORMAT_TABLE);
    cli_table_free(t);
    unsigned shown = (r->has_choice ? r->choice.outside : 0) | (r->best.feasible ? r->best.outside : 0) |
                     (r->unconstrained.feasible ? r->unconstrained.outside : 0);
    /* F has no row of its own: the budget line carries it. */
    cli_print_ranges_note(ranges, shown);

    if (u) {
        printf("\nUnder the law's %zu bootstrap draws (%g%% intervals of the chosen configuration):\n", u->ndraws,
               100 * u->level);
        for (size_t k = 0; k < u->nchoices; k++) {
            const ls_solve_choice_count *ch = &u->choices[k];
            /* What binds N_act* in those draws: the memory budget, or
             * only the compute budget (the IsoFLOP optimum). */
            char binds[96] = "";
            size_t used = 0;
            for (int q = 0; q < LS_SOLVE_NBOUNDS; q++) {
                if (!ch->bound[q])
                    continue;
                int w = snprintf(binds + used, sizeof binds - used, "%s%s %.0f%%", used ? ", " : "",
                                 ls_solve_bound_name((ls_solve_bound)q), 100.0 * (double)ch->bound[q] / (double)ch->count);
                if (w < 0 || (size_t)w >= sizeof binds - used)
                    break;
                used += (size_t)w;
            }
            printf("  R* = %-3g E* = %-3g %5.1f%%   binds: %s\n", ch->R, ch->E,
                   100.0 * (double)ch->count / (double)u->ndraws, binds);
        }
        /* An interval reaching beyond the fitted range is starred, as a
         * value of the table is. */
        int star_n = interval_outside(ranges, LS_LAW_RANGE_N_ACT, u->n_act),
            star_d = interval_outside(ranges, LS_LAW_RANGE_TOKENS, u->tokens);
        char lo[32], hi[32];
        if (isnan(u->loss[0]))
            printf("  no intervals: %zu %s had a feasible choice, and an interval needs at least %d\n", u->ndraws,
                   ls_plural((double)u->ndraws, "draw", "draws"), LS_FIT_MIN_INTERVAL_DRAWS);
        else
            printf("  N_act*  [%.4g, %.4g]%s\n  D*      [%.4g, %.4g]%s\n  loss    [%s, %s]\n", u->n_act[0],
                   u->n_act[1], star_n ? "*" : "", u->tokens[0], u->tokens[1], star_d ? "*" : "",
                   cli_fixed(lo, sizeof lo, u->loss[0], 4), cli_fixed(hi, sizeof hi, u->loss[1], 4));
        if (star_n || star_d) {
            printf("  * reaches outside the range the law was fitted on:");
            if (star_n)
                printf(" N_act %.4g to %.4g%s", ranges->lo[LS_LAW_RANGE_N_ACT], ranges->hi[LS_LAW_RANGE_N_ACT],
                       star_d ? "," : "");
            if (star_d)
                printf(" D %.4g to %.4g", ranges->lo[LS_LAW_RANGE_TOKENS], ranges->hi[LS_LAW_RANGE_TOKENS]);
            printf("\n");
        }
    }
    if (show_table) {
        const char *headers2[] = {"E", "R", "N_act", "D", "loss", "memory", "binds", "within eps"};
        cli_table *all = cli_table_new(8, headers2);
        unsigned starred = 0;
        for (size_t i = 0; all && i < r->ncandidates; i++) {
            const ls_solve_candidate *cand = &r->candidates[i];
            char e[16], rr[16], n[32], d[32], l[32], m[32], bd[16], w[16];
            snprintf(e, sizeof e, "%g", cand->E);
            snprintf(rr, sizeof rr, "%g", cand->R);
            if (cand->feasible) {
                human(n, sizeof n, cand->n_act);
                human(d, sizeof d, cand->tokens);
                cli_fixed(l, sizeof l, cand->loss, 4);
                bytes_text(m, sizeof m, cand->weight_bytes);
                snprintf(bd, sizeof bd, "%s", ls_solve_bound_name(cand->bound));
                star_if(e, sizeof e, cand, LS_LAW_RANGE_E);
                star_if(rr, sizeof rr, cand, LS_LAW_RANGE_R);
                star_if(n, sizeof n, cand, LS_LAW_RANGE_N_ACT);
                star_if(d, sizeof d, cand, LS_LAW_RANGE_TOKENS);
                starred |= cand->outside;
            } else {
                snprintf(n, sizeof n, "-");
                snprintf(d, sizeof d, "-");
                snprintf(l, sizeof l, "infeasible");
                snprintf(m, sizeof m, "-");
                snprintf(bd, sizeof bd, "-");
            }
            int chosen = cand->R == r->choice.R && cand->E == r->choice.E;
            snprintf(w, sizeof w, "%s", chosen ? "chosen" : cand->feasible && cand->loss <= r->best.loss + eps ? "yes" : "");
            const char *cells[] = {e, rr, n, d, l, m, bd, w};
            if (cli_table_add(all, cells) != 0) {
                cli_table_free(all);
                all = NULL;
            }
        }
        if (!all)
            return -1;
        printf("\nEvery candidate (N_act optimised under the memory budget):\n");
        cli_table_print(all, stdout, CLI_FORMAT_TABLE);
        cli_table_free(all);
        cli_print_ranges_note(ranges, starred);
    }
    return 0;
}

static int print_json(const ls_solve_budget *b, double eps, const ls_solve_result *r, const ls_solve_uncertainty *u,
                      int with_candidates)
{
    ls_error err;
    char *text = ls_solve_result_to_json(b, eps, r, u, with_candidates, &err);
    if (!text)
        return cli_fail("solve", &err);
    fputs(text, stdout);
    free(text);
    return 0;
}

/* An answer at an end of the search range is not an optimum: one warning
 * per configuration (those with the same text share it). */
static void warn_at_edge(const char *cmd, const ls_solve_options *so, const ls_solve_result *r)
{
    const ls_solve_candidate *c[3] = {&r->choice, &r->best, &r->unconstrained};
    static const char *const names[3] = {"chosen", "lowest loss", "no memory limit"};
    char text[3][160], labels[64];
    for (int k = 0; k < 3; k++)
        cli_solve_edge_text(text[k], sizeof text[k], so, c[k]);
    for (int k = 0; k < 3; k++) {
        if (!text[k][0] || (k > 0 && strcmp(text[k], text[k - 1]) == 0))
            continue;
        snprintf(labels, sizeof labels, "%s", names[k]);
        for (int j = k + 1; j < 3 && strcmp(text[j], text[k]) == 0; j++) {
            size_t len = strlen(labels);
            snprintf(labels + len, sizeof labels - len, ", %s", names[j]);
        }
        unsigned bits = ls_solve_at_edge(so, c[k]);
        cli_warn(cmd, "%s: %s: at an end of the search range, not an optimum (%s)", labels, text[k],
                 cli_solve_edge_hint(bits));
    }
}

int cmd_solve(int argc, char **argv)
{
    const char *cmd = "solve";
    static const struct option longopts[] = {CLI_HELP_OPTION,
                                             {"law", required_argument, NULL, 'l'},
        {"force", no_argument, NULL, OPT_FORCE},
                                             {"flops", required_argument, NULL, OPT_FLOPS},
                                             {"mem", required_argument, NULL, OPT_MEM},
                                             {"bits", required_argument, NULL, OPT_BITS},
                                             {"template", required_argument, NULL, OPT_TEMPLATE},
                                             {"print-template", no_argument, NULL, OPT_PRINT_TEMPLATE},
                                             CLI_FLOPS_OPTION,
                                             {"R", required_argument, NULL, OPT_R},
                                             {"E", required_argument, NULL, OPT_E},
                                             {"n-act", required_argument, NULL, OPT_N_ACT},
                                             {"eps", required_argument, NULL, OPT_EPS},
                                             {"table", no_argument, NULL, OPT_TABLE},
                                             {"uncertainty", no_argument, NULL, OPT_UNCERTAINTY},
                                             {"ci", required_argument, NULL, OPT_CI},
                                             {"threads", required_argument, NULL, OPT_THREADS},
                                             {"format", required_argument, NULL, OPT_FORMAT},
                                             {"plot", required_argument, NULL, OPT_PLOT},
                                             {"plot-rho", required_argument, NULL, OPT_PLOT_RHO},
                                             CLI_PLOT_OPTIONS,
                                             {NULL, 0, NULL, 0}};
    const char *law_path = NULL, *template_path = NULL, *plot = NULL, *plot_rho = NULL;
    ls_solve_budget budget = {NAN, INFINITY, 16};
    double *R = NULL, *E = NULL, *ladder = NULL, eps = NAN, ci = 0.95;
    size_t nR = 0, nE = 0, nladder = 0;
    int print_template = 0, show_table = 0, uncertainty = 0, threads = 0, flops_given = 0;
    ls_law_flops_kind flops_kind = LS_LAW_FLOPS_6ND;
    const char *uncertainty_only = NULL; /* --ci or --threads, which only --uncertainty reads */
    cli_format format = CLI_FORMAT_TABLE;
    ls_figure figure = cli_plot_defaults(), figure_rho;
    int status = 0, opt, force = 0;
    long value = 0;
    opterr = 0;
    while (status == 0 && (opt = cli_getopt(argc, argv, ":hl:", longopts, NULL, NULL)) != -1) {
        if (cli_plot_option(cmd, opt, optarg, &figure, &status))
            continue;
        switch (opt) {
        case 'h': status = -1; break;
        case 'l': law_path = optarg; break;
        case OPT_FORCE: force = 1; break;
        case OPT_FLOPS: status = cli_parse_flops(cmd, "--flops", optarg, &budget.flops); break;
        case OPT_MEM: status = cli_parse_bytes(cmd, "--mem", optarg, &budget.mem_bytes); break;
        case OPT_BITS: status = cli_parse_positive(cmd, "--bits", optarg, &budget.bits); break;
        case OPT_TEMPLATE: template_path = optarg; break;
        case OPT_PRINT_TEMPLATE: print_template = 1; break;
        case OPT_FLOPS_CONVENTION:
            status = cli_parse_flops_convention(cmd, optarg, &flops_kind);
            flops_given = 1;
            break;
        case OPT_R: status = cli_parse_list(cmd, "--R", optarg, &R, &nR); break;
        case OPT_E: status = cli_parse_list(cmd, "--E", optarg, &E, &nE); break;
        case OPT_N_ACT: status = cli_parse_sizes(cmd, "--n-act", optarg, &ladder, &nladder); break;
        case OPT_EPS: status = cli_parse_eps(cmd, optarg, &eps); break;
        case OPT_TABLE: show_table = 1; break;
        case OPT_PLOT: plot = optarg; break;
        case OPT_PLOT_RHO: plot_rho = optarg; break;
        case OPT_UNCERTAINTY: uncertainty = 1; break;
        case OPT_CI:
            uncertainty_only = uncertainty_only ? uncertainty_only : "--ci";
            status = cli_parse_level(cmd, optarg, &ci);
            break;
        case OPT_THREADS:
            uncertainty_only = uncertainty_only ? uncertainty_only : "--threads";
            status = cli_parse_long(cmd, "--threads", optarg, 1, 64, &value);
            threads = (int)value;
            break;
        case OPT_FORMAT:
            status = cli_parse_format(cmd, optarg, 1u << CLI_FORMAT_TABLE | 1u << CLI_FORMAT_JSON, &format);
            break;
        default: status = cli_option_error(cmd, opt, argv); break;
        }
    }
    ls_arch_template tmpl;
    ls_arch_template_default(&tmpl);
    ls_error err;
    ls_lawfile *lf = NULL;
    ls_law *draws = NULL;
    ls_solve_result result;
    memset(&result, 0, sizeof result);
    ls_solve_uncertainty unc;
    memset(&unc, 0, sizeof unc);
    if (status == -1) {
        status = cli_help(USAGE);
        goto done;
    }
    if (status == 0 && optind < argc)
        status = cli_usage_error(cmd, "unexpected argument '%s'", argv[optind]);
    figure_rho = figure;
    if (status == 0) {
        cli_file_input("--law", law_path);
        cli_file_input("--template", template_path);
        cli_file_output("the table", "-");
        cli_file_output("--plot", plot);
        cli_file_output("--plot-rho", plot_rho);
        status = cli_files_check(cmd);
    }
    /* The format the plot's name asks for; any other name is refused here,
     * before any work. */
    if (status == 0)
        status = cli_plot_format(cmd, "--plot", plot, &figure);
    if (status == 0)
        status = cli_plot_format(cmd, "--plot-rho", plot_rho, &figure_rho);
    if (status == 0 && uncertainty_only && !uncertainty)
        status = cli_usage_error(cmd, "%s has no effect without --uncertainty", uncertainty_only);
    if (status == 0) {
        const char *plots[] = {plot, plot_rho};
        const ls_figure *figures[] = {&figure, &figure_rho};
        status = cli_plot_options_check(cmd, 2, plots, figures, "--plot or --plot-rho");
    }
    if (status == 0 && template_path && ls_arch_template_read(template_path, &tmpl, &err) != 0)
        status = cli_fail(cmd, &err);
    if (status == 0 && flops_given)
        tmpl.flops_convention = flops_kind;
    if (status == 0 && print_template) {
        char *text = ls_arch_template_to_json(&tmpl, &err);
        if (text)
            fputs(text, stdout);
        else
            status = cli_fail(cmd, &err);
        free(text);
        goto done;
    }
    if (status == 0 && isnan(budget.flops))
        status = cli_usage_error(cmd, "give the compute budget with --flops F");
    if (status == 0)
        status = cli_check_integers(cmd, "--R", R, nR);
    if (status == 0)
        status = cli_check_integers(cmd, "--E", E, nE);
    if (status == 0)
        lf = cli_read_law(cmd, law_path, force, &status);
    if (status == 0)
        status = cli_apply_flops(cmd, &tmpl, lf, flops_given, flops_kind);
    /* The default lists stay inside the R and E the law was fitted on. */
    ls_law_ranges ranges;
    ls_lawfile_ranges(lf, &ranges);
    cli_candidates room;
    ls_solve_options so = {.ladder = ladder, .nladder = nladder, .ranges = &ranges};
    if (status == 0)
        cli_solve_candidates(cmd, &tmpl, R, nR, E, nE, &room, &so);
    int eps_from_law = isnan(eps);
    if (status == 0)
        eps = cli_solve_eps(cmd, lf, eps);
    so.eps = eps;
    if (status == 0 && !isfinite(budget.mem_bytes) && format == CLI_FORMAT_TABLE)
        cli_note(cmd, "no --mem given: no memory limit");
    if (status == 0 && ls_solve_run(&lf->law, &tmpl, &budget, &so, &result, &err) != 0)
        status = cli_fail(cmd, &err);
    if (status == 0 && !result.has_choice) {
        if (isfinite(budget.mem_bytes))
            cli_error(cmd, "no candidate fits in %g bytes at %g bits per weight", budget.mem_bytes, budget.bits);
        else if (ladder) { /* every size given leaves less than one token */
            double smallest = ladder[0];
            for (size_t i = 1; i < nladder; i++)
                smallest = fmin(smallest, ladder[i]);
            cli_error(cmd, "no model fits a budget of %g FLOPs: the smallest --n-act, %g, leaves less than one "
                      "training token", budget.flops, smallest);
        } else /* nothing of 1000 active parameters trains on one token */
            cli_error(cmd, "no model fits a budget of %g %s", budget.flops, ls_plural(budget.flops, "FLOP", "FLOPs"));
        status = ls_exit_status(LS_ERR_DATA);
    }
    if (status == 0 && result.has_choice && eps > 0 && result.choice.loss > result.best.loss) {
        /* An epsilon that covers every candidate decides nothing: the choice
         * is then only the cheapest one, which must not happen silently. */
        double worst = result.best.loss;
        for (size_t i = 0; i < result.ncandidates; i++)
            if (result.candidates[i].feasible && result.candidates[i].loss > worst)
                worst = result.candidates[i].loss;
        if (worst - result.best.loss <= eps)
            cli_warn(cmd, "epsilon %g%s covers the loss of every candidate (they span %.4g): the choice is only the "
                     "cheapest to serve",
                     eps, eps_from_law ? " (the law file's fit.rmse)" : "", worst - result.best.loss);
    }
    /* Sizes, tokens, loops, experts and budgets beyond the sweep are the
     * law's guess, not its fit: each one said once per column. */
    /* One line per column of the table (columns that are the same
     * configuration share it); the library lists each quantity apart
     * (result.warnings, the JSON's "warnings"). */
    char labels[80] = "", lists[2][512] = {"", ""};
    int cur = 0;
    for (size_t i = 0; status == 0 && i <= result.nwarnings;) {
        const char *key = i < result.nwarnings ? result.warnings[i].configuration : NULL;
        char *list = lists[cur];
        size_t used = 0;
        list[0] = '\0';
        for (; key && i < result.nwarnings && strcmp(result.warnings[i].configuration, key) == 0; i++) {
            const ls_solve_warning *w = &result.warnings[i];
            int n = snprintf(list + used, sizeof lists[0] - used, "%s%s = %.4g (fitted %.4g to %.4g)",
                             used ? ", " : "", ls_law_range_name(w->quantity), w->value, w->lo, w->hi);
            if (n > 0 && (size_t)n < sizeof lists[0] - used)
                used += (size_t)n;
        }
        const char *prev = lists[1 - cur];
        if (labels[0] && (!key || strcmp(list, prev) != 0)) {
            cli_warn(cmd, "%s: %s: outside the ranges the law was fitted on, an extrapolation", labels, prev);
            labels[0] = '\0';
        }
        if (!key)
            break;
        const char *label = strcmp(key, "chosen") == 0        ? "chosen"
                            : strcmp(key, "lowest_loss") == 0 ? "lowest loss"
                                                              : "no memory limit";
        size_t len = strlen(labels);
        snprintf(labels + len, sizeof labels - len, "%s%s", len ? ", " : "", label);
        cur = 1 - cur;
    }
    if (status == 0 && result.has_choice)
        warn_at_edge(cmd, &so, &result);

    if (status == 0 && uncertainty) {
        draws = malloc((lf->ndraws ? lf->ndraws : 1) * sizeof *draws);
        if (!draws)
            status = ls_exit_status(LS_ERR_INTERNAL);
        for (size_t i = 0; draws && i < lf->ndraws; i++)
            ls_lawfile_draw(lf, i, &draws[i]);
        long cores = sysconf(_SC_NPROCESSORS_ONLN);
        if (status == 0 && ls_solve_run_uncertainty(draws, lf->ndraws, &tmpl, &budget, &so, ci,
                                                 threads ? threads : (int)(cores > 0 ? cores : 1), &unc,
                                                 &err) != 0)
            status = cli_fail(cmd, &err);
    }
    /* The plots are drawn before anything is printed, so that a figure
     * that cannot be drawn leaves no half of the output; the two are
     * replaced together or not at all. */
    unsigned char *svg = NULL, *svg_rho = NULL;
    size_t lens[2] = {0, 0};
    if (status == 0 && plot && ls_plot_band_draws(lf) == 0)
        cli_note(cmd, "no bootstrap draws in the law: the plot has no band (fit --bootstrap N records them)");
    if (status == 0 && plot && !(svg = ls_plot_solve(lf, &tmpl, &budget, &so, &result, &figure, &lens[0], &err)))
        status = cli_fail(cmd, &err);
    if (status == 0 && plot_rho) {
        double r_max = 1;
        for (size_t i = 0; i < so.nR; i++)
            r_max = fmax(r_max, so.R[i]);
        if (!(svg_rho = ls_plot_rho_eff(lf, &tmpl, so.E, so.nE, fmax(r_max, 2), &figure_rho, &lens[1], &err)))
            status = cli_fail(cmd, &err);
    }
    if (status == 0) {
        if (format == CLI_FORMAT_JSON) {
            status = print_json(&budget, eps, &result, uncertainty ? &unc : NULL, show_table);
        } else {
            char kind[64], mem[64];
            if (isfinite(budget.mem_bytes))
                snprintf(mem, sizeof mem, "%.4g bytes of weights at %g bits (N_total <= %.4g)", budget.mem_bytes,
                         budget.bits, 8 * budget.mem_bytes / budget.bits);
            else
                snprintf(mem, sizeof mem, "no memory limit");
            printf("law      %s\nbudget   %.4g training %s; %s\nepsilon  %.4g (loss units)\n\n",
                   ls_law_kind_format(lf->law.kind, kind, sizeof kind), budget.flops,
                   ls_plural(budget.flops, "FLOP", "FLOPs"), mem, eps);
            if (print_result(&result, uncertainty ? &unc : NULL, show_table, eps, &ranges) != 0) {
                cli_error(cmd, "out of memory");
                status = ls_exit_status(LS_ERR_INTERNAL);
            }
        }
    }
    if (status == 0) {
        const char *paths[] = {plot, plot_rho};
        const void *data[] = {svg, svg_rho};
        status = cli_write_data(cmd, 2, paths, data, lens);
    }
    free(svg);
    free(svg_rho);
done:
    ls_solve_uncertainty_free(&unc);
    ls_solve_result_free(&result);
    free(draws);
    ls_lawfile_free(lf);
    free(R);
    free(E);
    free(ladder);
    return status;
}
