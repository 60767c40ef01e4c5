/*
 * loopscale isofit — compute-optimal exponents from IsoFLOP minima
 * (Chinchilla's approaches 1 and 2): the optimum of each training budget,
 * and the power laws N_opt = G F^a, D_opt = H F^b through them.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "loopscale/fit.h"
#include "loopscale/isofit.h"
#include "jsonw_internal.h"
#include "loopscale/law.h"
#include "numtext_internal.h"

static const char USAGE[] =
    "Usage: loopscale isofit [OPTIONS] SWEEP...\n"
    "\n"
    "Compute-optimal exponents from IsoFLOP minima (Hoffmann et al. 2022, approaches 1 and 2).\n"
    "The runs are grouped by training budget F = 6 N_unroll D (--group-tol); each budget's\n"
    "optimum is the vertex of a least-squares parabola of the loss in ln N_act (approach 2)\n"
    "or its lowest-loss run (approach 1); then N_opt = G F^a by least squares in logs over the\n"
    "budgets whose optimum lies inside their sizes, and D_opt = F / (6 N_unroll) at N_opt\n"
    "(F / (6 N_opt) ~ F^(1-a) for a plain sweep). The runs must be of one architecture (one\n"
    "R and E; keep one with --where).\n"
    "Budgets are counted as F = 6 N_unroll D (the 6nd convention): a flops column counted\n"
    "with attention or the LM head disagrees with the tokens and is refused.\n"
    "\n"
    "      --method NAME       parabola (default; approach 2) or minimum (approach 1)\n"
    "      --keep K            keep only the runs with N_act within a factor K of the budget's\n"
    "                          first optimum, then refit (Porian et al.'s filter; default: all)\n"
    "      --min-runs N        runs a budget needs (default 3; a parabola needs 3 whatever N says)\n"
    "      --bootstrap N       resample each budget's runs N times for intervals: 0 (default) or at\n"
    "                          least 20\n"
    "      --ci LEVEL          interval level, 0.5 to 0.999 (default 0.95)\n"
    "      --seed S            bootstrap random seed (default 1)\n"
    "      --format FMT        table (default), csv or json\n"
    "      --plot FILE         draw each budget's runs, parabola and optimum against N_act, and\n"
    "                          N_opt, D_opt against F with the fitted power laws (.svg, .pdf or\n"
    "                          .png; Chinchilla's figure 3)\n";
static const char USAGE_TAIL[] = CLI_SWEEP_HELP CLI_PLOT_HELP "  -h, --help              show this help\n";

enum { OPT_METHOD = OPT_COMMAND_FIRST, OPT_KEEP, OPT_MIN_RUNS, OPT_BOOTSTRAP, OPT_CI, OPT_PLOT };

/* D's interval from N's: D = F / (6 N_unroll) falls as N grows, here with
 * the optimum's own N_unroll / N_act (exact when the template's loop block
 * is a fixed share of N_act; 1 for a plain sweep). */
static double tokens_at(const ls_isofit_budget *b, double n)
{
    return b->d_opt * b->n_opt / n;
}

static const char *method_name(ls_isofit_method m) { return m == LS_ISOFIT_PARABOLA ? "parabola" : "minimum"; }

static int print_json(const char *cmd, const ls_isofit_options *o, const ls_isofit_result *r)
{
    jsonw w;
    ls_jsonw_init(&w);
    ls_jsonw_object_begin(&w, NULL);
    ls_jsonw_string(&w, "method", method_name(o->method));
    if (o->keep_factor > 1)
        ls_jsonw_number(&w, "keep_factor", o->keep_factor);
    ls_jsonw_number(&w, "exponent_n", r->a);
    ls_jsonw_number(&w, "coefficient_n", exp(r->ln_g));
    ls_jsonw_number(&w, "exponent_d", r->b);
    ls_jsonw_number(&w, "coefficient_d", exp(r->ln_h));
    ls_jsonw_number(&w, "r2", r->r2);
    ls_jsonw_number(&w, "budgets_used", (double)r->nused);
    if (o->bootstrap > 0)
        ls_jsonw_number(&w, "draws_requested", (double)o->bootstrap);
    if (isfinite(r->a_lo)) {
        ls_jsonw_number(&w, "draws", (double)r->ndraws);
        ls_jsonw_number(&w, "level", o->level);
        ls_jsonw_number(&w, "exponent_n_lo", r->a_lo);
        ls_jsonw_number(&w, "exponent_n_hi", r->a_hi);
    }
    ls_jsonw_array_begin(&w, "budgets", 0);
    for (size_t i = 0; i < r->nbudgets; i++) {
        const ls_isofit_budget *b = &r->budgets[i];
        ls_jsonw_object_begin(&w, NULL);
        ls_jsonw_number(&w, "flops", b->flops);
        ls_jsonw_number(&w, "runs", (double)b->runs);
        ls_jsonw_number(&w, "used", (double)b->used);
        ls_jsonw_string(&w, "status", ls_isofit_status_name(b->status));
        if (isfinite(b->n_opt)) {
            ls_jsonw_number(&w, "n_opt", b->n_opt);
            ls_jsonw_number(&w, "d_opt", b->d_opt);
            ls_jsonw_number(&w, "loss", b->loss_opt);
        }
        if (isfinite(b->n_lo)) {
            ls_jsonw_number(&w, "n_opt_lo", b->n_lo);
            ls_jsonw_number(&w, "n_opt_hi", b->n_hi);
            ls_jsonw_number(&w, "d_opt_lo", tokens_at(b, b->n_hi));
            ls_jsonw_number(&w, "d_opt_hi", tokens_at(b, b->n_lo));
            ls_jsonw_number(&w, "draws", (double)b->draws_ok);
        }
        ls_jsonw_object_end(&w);
    }
    ls_jsonw_array_end(&w);
    ls_jsonw_object_end(&w);
    return cli_print_json(cmd, &w);
}

static void print_csv(const ls_isofit_result *r)
{
    printf("flops,runs,used,status,n_opt,d_opt,loss,n_opt_lo,n_opt_hi\n");
    for (size_t i = 0; i < r->nbudgets; i++) {
        const ls_isofit_budget *b = &r->budgets[i];
        char num[6][NUMTEXT_DOUBLE_MAX];
        const double v[] = {b->flops, b->n_opt, b->d_opt, b->loss_opt, b->n_lo, b->n_hi};
        for (int k = 0; k < 6; k++)
            if (isfinite(v[k]))
                ls_numtext_format_double(num[k], v[k]);
            else
                num[k][0] = '\0';
        printf("%s,%zu,%zu,%s,%s,%s,%s,%s,%s\n", num[0], b->runs, b->used, ls_isofit_status_name(b->status), num[1],
               num[2], num[3], num[4], num[5]);
    }
}

static int print_table(const char *cmd, const char *name, const ls_isofit_options *o, const ls_isofit_result *r)
{
    printf("method     %s (%s)", method_name(o->method),
           o->method == LS_ISOFIT_PARABOLA ? "Chinchilla approach 2" : "Chinchilla approach 1");
    if (o->keep_factor > 1)
        printf(", runs within a factor %g of each optimum", o->keep_factor);
    printf("\nruns       %s\n", name);
    printf("budgets    %zu, %zu with an interior optimum\n", r->nbudgets, r->nused);
    printf("N_opt      %.4g F^%.4f (R^2 %.4f)\n", exp(r->ln_g), r->a, r->r2);
    printf("D_opt      %.4g F^%.4f\n", exp(r->ln_h), r->b);
    /* A draw whose resampled budgets leave fewer than two interior optima
     * gives no exponent: said, so the interval's count is not a mystery. */
    char dropped[96] = "";
    if (r->ndraws < o->bootstrap)
        snprintf(dropped, sizeof dropped, "; %zu had fewer than two budgets with an interior optimum",
                 o->bootstrap - r->ndraws);
    if (isfinite(r->a_lo))
        printf("a          in [%.4f, %.4f] (%g%% of %zu draws%s)\n", r->a_lo, r->a_hi, 100 * o->level, r->ndraws,
               dropped);
    printf("\n");
    int with_ci = r->ndraws > 0;
    const char *headers[] = {"flops", "used", "N_opt", "D_opt", "loss", with_ci ? "N_opt interval" : "note", "note"};
    cli_table *t = cli_table_new(with_ci ? 7 : 6, headers);
    for (size_t i = 0; t && i < r->nbudgets; i++) {
        const ls_isofit_budget *b = &r->budgets[i];
        char c[7][64];
        snprintf(c[0], 64, "%.4g", b->flops);
        snprintf(c[1], 64, "%zu", b->used);
        snprintf(c[2], 64, isfinite(b->n_opt) ? "%.4g" : "-", b->n_opt);
        snprintf(c[3], 64, isfinite(b->d_opt) ? "%.4g" : "-", b->d_opt);
        if (isfinite(b->loss_opt))
            cli_fixed(c[4], 64, b->loss_opt, 4);
        else
            snprintf(c[4], 64, "-");
        if (isfinite(b->n_lo))
            snprintf(c[5], 64, "[%.4g, %.4g]", b->n_lo, b->n_hi);
        else
            snprintf(c[5], 64, "-");
        snprintf(c[6], 64, "%s", b->status == LS_ISOFIT_USED ? "" : ls_isofit_status_name(b->status));
        const char *cells[] = {c[0], c[1], c[2], c[3], c[4], with_ci ? c[5] : c[6], c[6]};
        if (cli_table_add(t, cells) != 0) {
            cli_table_free(t);
            t = NULL;
        }
    }
    if (!t) {
        cli_error(cmd, "out of memory");
        return ls_exit_status(LS_ERR_INTERNAL);
    }
    cli_table_print(t, stdout, CLI_FORMAT_TABLE);
    cli_table_free(t);
    return 0;
}

int cmd_isofit(int argc, char **argv)
{
    const char *cmd = "isofit";
    static const struct option longopts[] = {CLI_HELP_OPTION,
                                             {"method", required_argument, NULL, OPT_METHOD},
                                             {"keep", required_argument, NULL, OPT_KEEP},
                                             {"min-runs", required_argument, NULL, OPT_MIN_RUNS},
                                             {"bootstrap", required_argument, NULL, OPT_BOOTSTRAP},
                                             {"ci", required_argument, NULL, OPT_CI},
                                             {"seed", required_argument, NULL, OPT_SEED},
                                             {"format", required_argument, NULL, OPT_FORMAT},
                                             {"plot", required_argument, NULL, OPT_PLOT},
                                             CLI_PLOT_OPTIONS,
                                             CLI_SWEEP_OPTIONS,
                                             {NULL, 0, NULL, 0}};
    ls_isofit_options o;
    ls_isofit_default_options(&o);
    cli_sweep_args sweep_args;
    memset(&sweep_args, 0, sizeof sweep_args);
    cli_format format = CLI_FORMAT_TABLE;
    const char *plot = NULL;
    ls_figure figure = cli_plot_defaults();
    int status = 0, opt;
    long value = 0;
    opterr = 0;
    while (status == 0 && (opt = cli_getopt(argc, argv, ":h", longopts, NULL, NULL)) != -1) {
        if (cli_sweep_option(cmd, &sweep_args, opt, optarg, &status) ||
            cli_plot_option(cmd, opt, optarg, &figure, &status))
            continue;
        switch (opt) {
        case 'h': status = -1; break;
        case OPT_METHOD:
            if (strcmp(optarg, "parabola") == 0)
                o.method = LS_ISOFIT_PARABOLA;
            else if (strcmp(optarg, "minimum") == 0)
                o.method = LS_ISOFIT_MINIMUM;
            else
                status = cli_usage_error(cmd, "--method: '%s' is not parabola or minimum", optarg);
            break;
        case OPT_KEEP:
            status = cli_parse_double(cmd, "--keep", optarg, &o.keep_factor);
            if (status == 0 && !(o.keep_factor > 1 && isfinite(o.keep_factor)))
                status = cli_usage_error(cmd, "--keep: '%s' must be a factor greater than 1", optarg);
            break;
        case OPT_MIN_RUNS:
            status = cli_parse_long(cmd, "--min-runs", optarg, 1, 1000000, &value);
            o.min_runs = (size_t)value;
            break;
        case OPT_BOOTSTRAP:
            status = cli_parse_long(cmd, "--bootstrap", optarg, 0, 1000000, &value);
            o.bootstrap = (size_t)value;
            if (status == 0 && value > 0 && value < LS_FIT_MIN_INTERVAL_DRAWS)
                status = cli_usage_error(cmd, "--bootstrap: '%s' is too few draws for an interval: at least %d (or 0 "
                                         "for none)", optarg, LS_FIT_MIN_INTERVAL_DRAWS);
            break;
        case OPT_CI:
            status = cli_parse_level(cmd, optarg, &o.level);
            break;
        case OPT_SEED:
            status = cli_parse_long(cmd, "--seed", optarg, 0, 2147483647, &value);
            o.seed = (unsigned long)value;
            break;
        case OPT_FORMAT:
            status = cli_parse_format(cmd, optarg, 1u << CLI_FORMAT_TABLE | 1u << CLI_FORMAT_CSV | 1u << CLI_FORMAT_JSON,
                                      &format);
            break;
        case OPT_PLOT: plot = optarg; break;
        default: status = cli_option_error(cmd, opt, argv); break;
        }
    }
    ls_sweep *s = NULL;
    ls_isofit_result r;
    memset(&r, 0, sizeof r);
    ls_error err;
    if (status == -1) {
        status = cli_help(USAGE) + cli_help(USAGE_TAIL);
        goto done;
    }
    if (status == 0 && optind >= argc)
        status = cli_usage_error(cmd, "give at least one SWEEP file");
    if (status == 0) {
        for (int i = optind; i < argc; i++)
            cli_file_input("SWEEP", argv[i]);
        cli_file_output("the table", "-");
        cli_file_output("--plot", plot);
        status = cli_files_check(cmd);
    }
    /* The plot's format from its name, refused before the sweep is read. */
    if (status == 0)
        status = cli_plot_format(cmd, "--plot", plot, &figure);
    if (status == 0) {
        const char *plots[] = {plot};
        const ls_figure *figures[] = {&figure};
        status = cli_plot_options_check(cmd, 1, plots, figures, "--plot");
    }
    if (status == 0) {
        ls_sweep_options so = cli_sweep_options(cmd, &sweep_args);
        so.require_loss = 1;
        so.flops_hint = "isofit counts budgets as F = 6 N_unroll D and takes no --flops-convention: to group "
                        "by the tokens alone, rename the flops column (--map flops_logged=flops)";
        s = ls_sweep_read((const char *const *)(argv + optind), (size_t)(argc - optind), &so, &err);
        if (!s)
            status = cli_fail(cmd, &err);
        else
            cli_sweep_report_skips(cmd, s->name, &s->skipped), cli_sweep_report_checkpoints(cmd, s, &sweep_args);
    }
    if (status == 0) {
        o.group_tol = sweep_args.group_tol > 0 ? sweep_args.group_tol : -1.0;
        if (ls_isofit_run(s, &o, &r, &err) != 0)
            status = cli_fail(cmd, &err);
        else if (o.bootstrap > 0 && !isfinite(r.a_lo))
            cli_warn(cmd, "only %zu of %zu bootstrap draws gave an exponent, too few for an interval (at least %d): "
                     "none given", r.ndraws, o.bootstrap, LS_FIT_MIN_INTERVAL_DRAWS);
    }
    if (status == 0 && format == CLI_FORMAT_JSON)
        status = print_json(cmd, &o, &r);
    else if (status == 0 && format == CLI_FORMAT_CSV)
        print_csv(&r);
    else if (status == 0)
        status = print_table(cmd, s->name, &o, &r);
    if (status == 0 && plot) {
        size_t len = 0;
        unsigned char *bytes = ls_isofit_plot(s, &o, &r, &figure, &len, &err);
        const void *data = bytes;
        status = bytes ? cli_write_data(cmd, 1, &plot, &data, &len) : cli_fail(cmd, &err);
        free(bytes);
    }
done:
    ls_isofit_result_free(&r);
    ls_sweep_free(s);
    cli_sweep_args_free(&sweep_args);
    return status;
}
