/*
 * loopscale plan — which runs to train next, so that the law pins down the
 * decision at a deployment budget (docs/plan.md).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "commands.h"
#include "loopscale/arch.h"
#include "outfile_internal.h"
#include "loopscale/plan.h"
#include "numtext_internal.h"

static const char USAGE[] =
    "Usage: loopscale plan (--budget FLOPS | --gpu-hours H --flop-rate RATE) --flops F [--mem BYTES]\n"
    "                      -o FILE [OPTIONS]\n"
    "\n"
    "Choose the runs to train next: among the candidates (every combination of N_act, tokens,\n"
    "E and R, through the architecture template), greedily add the run that most lowers the\n"
    "expected variance of the decision per training FLOP, until the sweep's budget is spent.\n"
    "The decision is the loss gap between the configuration the prior law chooses at the\n"
    "deployment budget (--flops, --mem, --bits, as for solve) and its runner-up; the variance\n"
    "comes from the Fisher information of the Huber fit, averaged over the prior's bootstrap\n"
    "draws (docs/plan.md).  Writes the runs as CSV (n_act,n_total,n_loop,R,E,k,tokens,flops,why)\n"
    "and prints a summary.\n"
    "\n"
    "  -l, --law FILE          the prior (law file; default: the law compiled in)\n"
    "      --budget FLOPS      training compute for the new runs, e.g. 5e21 (sum of 6 N_unroll D)\n"
    "      --gpu-hours H       the same as GPU-hours, with --flop-rate: FLOPS = H * 3600 * RATE\n"
    "      --flop-rate RATE    FLOP/s one GPU sustains in training, e.g. 4e14\n"
    "      --flops F           deployment training budget of the decision, e.g. 1e22\n"
    "      --mem BYTES         deployment weight memory, e.g. 3GB (default: no limit)\n"
    "      --bits B            bits per weight (default 16; 4 for INT4)\n"
    "      --eps X             solve's tolerance in loss units (default: the law's fit RMSE)\n"
    "      --target T          what the runs should pin down: 'decision' (default), or\n"
    "                          'params:NAME,...' to minimise the summed variance of those\n"
    "                          parameters (natural units, e.g. params:alpha,beta); --flops is\n"
    "                          then needed only for --validate to check the decision too\n"
    "      --n-act LIST        candidate active sizes (default 3e8,6e8,1e9)\n"
    "      --tokens LIST       candidate token counts (default 1e11,2e11,3e11,4e11,5e11)\n"
    "      --E LIST            candidate expert counts, also the decision's (default 1,2,4,8,16)\n"
    "      --R LIST            candidate loop counts, also the decision's (default 1,2,3,4,6,8,16)\n"
    "      --candidates FILE   the candidates from a CSV of configurations instead of the four lists\n"
    "                          (columns n_act, tokens or flops, R, E, as in a sweep; n_total,\n"
    "                          n_loop and k from the template when absent); the decision is over\n"
    "                          its R and E values\n"
    "      --template FILE     architecture template (JSON; default: the paper's middle-cycle\n"
    "                          looping)\n"
    "      --have SWEEP        runs already trained: counted first, never chosen again\n"
    "      --noise SIGMA       spread of ln(loss) about the law (default: the prior's fit RMSE\n"
    "                          over the mean loss it predicts for the candidates)\n"
    "      --draws N           bootstrap draws of the prior to average over (default 100)\n"
    "      --prior-sd X        weak prior on each fitted coordinate (default 1)\n"
    "      --threads T         threads (default: one per core)\n"
    "\n"
    "Validation by simulation:\n"
    "      --validate K        draw K noisy sweeps from the truth for the planned design and for\n"
    "                          two baselines of the baseline's compute: the candidates thinned\n"
    "                          uniformly, and a Chinchilla-style IsoFLOP design (3 budgets x 8\n"
    "                          sizes around the prior's optimum, for every R and E); fit each\n"
    "                          with the prior's law, and compare how often the decision is right\n"
    "                          (R*, E* and N_act* within 10%) and the loss regret\n"
    "      --truth FILE        the law the sweeps are drawn from (default: the prior)\n"
    "      --baseline-flops F  compute of each baseline (default: the plan's)\n"
    "      --seed S            random seed of the simulated sweeps (default 1)\n"
    CLI_FORCE_HELP
    "  -o, --output FILE       the runs: CSV (.csv, .gz for gzip; not .json, .html...)\n"
    "  -h, --help              show this help\n";

enum {
    OPT_BUDGET = OPT_COMMAND_FIRST,
    OPT_FLOPS,
    OPT_MEM,
    OPT_BITS,
    OPT_EPS,
    OPT_N_ACT,
    OPT_TOKENS,
    OPT_E,
    OPT_R,
    OPT_HAVE,
    OPT_NOISE,
    OPT_DRAWS,
    OPT_PRIOR_SD,
    OPT_VALIDATE,
    OPT_TRUTH,
    OPT_BASELINE_FLOPS,
    OPT_GPU_HOURS,
    OPT_FLOP_RATE,
    OPT_CANDIDATES,
    OPT_TARGET
};

/* Progress of --validate on a terminal: "fits 37/100", at most 5 times a second. */
typedef struct progress_state {
    double last;
    int shown;
} progress_state;

static void show_progress(void *context, size_t done, size_t total)
{
    progress_state *ps = context;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    double t = (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
    if (done < total && t - ps->last < 0.2)
        return;
    ps->last = t;
    ps->shown = 1;
    fprintf(stderr, "\rloopscale plan: validation fits %zu/%zu", done, total);
    fflush(stderr);
}

/* --target: "decision" (no named parameter) or "params:NAME,NAME,...". */
static int parse_target(const char *cmd, const char *text, ls_law_param *out, size_t *n)
{
    *n = 0;
    if (strcmp(text, "decision") == 0)
        return 0;
    if (strncmp(text, "params:", 7) != 0 || text[7] == '\0')
        return cli_usage_error(cmd, "--target: '%s' is neither 'decision' nor 'params:NAME,...'", text);
    for (const char *p = text + 7;;) {
        size_t len = strcspn(p, ",");
        char name[32];
        if (len == 0 || len >= sizeof name)
            return cli_usage_error(cmd, "--target: '%s' has an empty or overlong parameter name", text);
        memcpy(name, p, len);
        name[len] = '\0';
        int q = ls_law_param_from_name(name);
        if (q < 0)
            return cli_usage_error(cmd, "--target: '%s' is not a parameter (A alpha B beta c delta gamma omega zeta "
                                        "E_start E_max phi kappa1 kappa2 theta)", name);
        if (*n == LS_LAW_NPARAMS)
            return cli_usage_error(cmd, "--target: '%s' names too many parameters", text);
        out[(*n)++] = (ls_law_param)q;
        if (p[len] == '\0')
            break;
        p += len + 1;
    }
    return 0;
}

static int check_integers(const char *cmd, const char *option, const double *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (v[i] != floor(v[i]))
            return cli_usage_error(cmd, "%s: %g is not an integer", option, v[i]);
    return 0;
}

static int write_runs(const ls_plan_result *r, int top_k, outfile *out, ls_error *err)
{
    /* run_id names each run (plan-001, plan-002, ... in the order chosen)
     * for the training jobs and logs that will carry it. */
    const char *what = r->ntargets ? "summed variance" : "gap's variance";
    int status = ls_outfile_printf(out, err, "run_id,n_act,n_total,n_loop,R,E,k,tokens,flops,why\n");
    for (size_t i = 0; status == 0 && i < r->nruns; i++) {
        const ls_plan_entry *run = &r->runs[i];
        char v[7][NUMTEXT_DOUBLE_MAX];
        status = ls_outfile_printf(out, err, "plan-%03zu,%s,%s,%s,%s,%s,%d,%s,%s,step %zu: cuts the %s by %.3g%%\n",
                                   run->step,
                                   ls_numtext_format_double(v[0], run->x.n_act),
                                   ls_numtext_format_double(v[1], run->x.n_total),
                                   ls_numtext_format_double(v[2], run->x.n_loop),
                                   ls_numtext_format_double(v[3], run->x.R), ls_numtext_format_double(v[4], run->x.E),
                                   top_k, ls_numtext_format_double(v[5], run->x.D),
                                   ls_numtext_format_double(v[6], run->flops), run->step, what, 100 * run->cut);
    }
    return status;
}

/* The quantities of the decision's two configurations (the prior's choice
 * and runner-up) outside the ranges the prior was fitted on, as one text
 * ("chosen: N_act = 2e+09 (fitted 1e+08 to 4e+08); runner-up: ...") and
 * their bits; 0 and "" when both are inside or the ranges are unknown. */
static unsigned decision_outside(const ls_lawfile *lf, const ls_arch_template *t, const ls_plan_result *r, char *text,
                                 size_t size)
{
    ls_law_ranges ranges;
    ls_lawfile_ranges(lf, &ranges);
    const ls_solve_candidate *c[2] = {&r->best, &r->runner_up};
    static const char *const names[2] = {"chosen", "runner-up"};
    unsigned all = 0;
    size_t used = 0;
    text[0] = '\0';
    for (int k = 0; k < 2; k++) {
        if (!c[k]->feasible)
            continue;
        ls_law_point x = ls_arch_point(t, c[k]->n_act, c[k]->E, c[k]->R, c[k]->tokens);
        unsigned bits = ls_law_ranges_outside(&ranges, &x);
        all |= bits;
        for (int q = 0, first = 1; q < LS_LAW_NRANGES; q++) {
            if (!(bits >> q & 1u))
                continue;
            int n = snprintf(text + used, size - used, "%s%s%s%s = %.4g (fitted %.4g to %.4g)", first && used ? "; " : "",
                         first ? names[k] : ", ", first ? ": " : "", ls_law_range_name((ls_law_range)q),
                         ls_law_range_value(&x, (ls_law_range)q), ranges.lo[q], ranges.hi[q]);
            if (n < 0 || (size_t)n >= size - used)
                return all;
            used += (size_t)n;
            first = 0;
        }
    }
    return all;
}

static void print_summary(const ls_lawfile *lf, const ls_solve_budget *b, const ls_plan_result *r, double budget,
                          const char *have, unsigned outside, const char *outside_text)
{
    char kind[64], mem[96];
    if (isfinite(b->mem_bytes))
        snprintf(mem, sizeof mem, "%.4g bytes of weights at %g bits", b->mem_bytes, b->bits);
    else
        snprintf(mem, sizeof mem, "no memory limit");
    ls_law_kind_format(lf->law.kind, kind, sizeof kind);
    if (lf->ndraws)
        printf("prior      %s, %zu of %zu bootstrap draws\n", kind, r->ndraws, lf->ndraws);
    else
        printf("prior      %s, its point estimate (no bootstrap draws)\n", kind);
    if (r->ntargets) {
        printf("target     the summed variance of");
        for (size_t t = 0; t < r->ntargets; t++)
            printf("%s %s", t ? "," : "", ls_law_param_name(r->targets[t]));
        printf(" (natural units), mean over the draws\n");
        goto noise;
    }
    printf("decision   %.4g training %s; %s\n", b->flops, ls_plural(b->flops, "FLOP", "FLOPs"), mem);
    printf(fabs(r->gap) < CLI_FIXED_MAX ? "target     loss(R=%g E=%g N_act=%.4g) - loss(R=%g E=%g N_act=%.4g) = %+.4f%s\n"
                                        : "target     loss(R=%g E=%g N_act=%.4g) - loss(R=%g E=%g N_act=%.4g) = %+.5g%s\n",
           r->best.R, r->best.E, r->best.n_act, r->runner_up.R, r->runner_up.E, r->runner_up.n_act, r->gap,
           outside ? "*" : "");
    printf("           under the prior's point estimate; %zu of %zu %s also %s R=%g E=%g, and each draw\n"
           "           weighs its own choice against its own runner-up\n",
           r->ndraws_same_choice, r->ndraws, ls_plural((double)r->ndraws, "draw", "draws"),
           ls_plural((double)r->ndraws_same_choice, "chooses", "choose"), r->best.R, r->best.E);
    if (outside)
        printf("           * outside the ranges the prior was fitted on, an extrapolation: %s\n", outside_text);
noise:
    printf("noise      sigma %.4g of ln(loss); Huber weight %.4g per run (%zu parameters)\n", r->sigma,
           r->huber_weight, r->nparams);
    printf("candidates %zu", r->ncandidates);
    if (have)
        printf("; %zu %s already trained (%zu of them candidates), %.4g %s", r->nhave,
               ls_plural((double)r->nhave, "run", "runs"), r->nhave_in_grid, r->have_flops,
               ls_plural(r->have_flops, "FLOP", "FLOPs"));
    printf("\nchosen     %zu %s\n", r->nruns, ls_plural((double)r->nruns, "run", "runs"));
    printf("compute    %.4g of %.4g FLOPs (%.1f%%)\n", r->flops_spent, budget, 100 * r->flops_spent / budget);
    if (r->ntargets) {
        printf("\nexpected standard deviation (root of the mean variance over the draws):\n");
        printf("                       ");
        for (size_t t = 0; t < r->ntargets; t++)
            printf(t + 1 < r->ntargets ? " %-11s" : " %s", ls_law_param_name(r->targets[t]));
        printf("\n");
        const char *labels[3] = {"  weak prior alone      ", "  with the runs trained ", "  with the plan         "};
        const double *v[3] = {r->target_variance_prior, r->target_variance_have, r->target_variance_plan};
        for (int row = 0; row < 3; row++) {
            if (row == 1 && !have)
                continue;
            fputs(labels[row], stdout);
            for (size_t t = 0; t < r->ntargets; t++)
                printf(t + 1 < r->ntargets ? "%-11.4g " : "%.4g", sqrt(v[row][t]));
            printf("\n");
        }
        return;
    }
    printf("\nexpected standard deviation of the gap (mean variance over the draws):\n");
    printf("  weak prior alone      %.4g\n", sqrt(r->variance_prior));
    if (have)
        printf("  with the runs trained %.4g\n", sqrt(r->variance_have));
    printf("  with the plan         %.4g\n", sqrt(r->variance_plan));
}

/* One row of the validation table: a statistic for each design, "-" where
 * it has no value (every fit of that design failed, or a spread of fewer
 * than two fits, or of a parameter every fit held). */
static void print_arms(const char *label, double plan, double grid, double isoflop)
{
    char text[3][32];
    const double v[3] = {plan, grid, isoflop};
    for (int k = 0; k < 3; k++) {
        if (isfinite(v[k]))
            snprintf(text[k], sizeof text[k], "%.4g", v[k]);
        else
            snprintf(text[k], sizeof text[k], "-");
    }
    printf("%-25s %-11s %-13s %s\n", label, text[0], text[1], text[2]);
}

static void print_validation(const ls_plan_validation *v, const ls_plan_result *r, const char *truth_path, double sigma)
{
    const ls_solve_candidate *c = &v->truth_choice;
    printf("\nvalidation %zu simulated sweeps of each design from %s, noise sigma %.4g of ln(loss)\n", v->replicates,
           truth_path ? truth_path : "the prior's point estimate", sigma);
    char loss[32];
    if (v->has_decision)
        printf("truth      R*=%g E*=%g N_act*=%.4g, loss %s\n", c->R, c->E, c->n_act,
               cli_fixed(loss, sizeof loss, c->loss, 4));
    printf("\n                          plan        thinned grid  IsoFLOP\n");
    printf("runs                      %-11zu %-13zu %zu\n", v->plan.nruns, v->grid.nruns, v->isoflop.nruns);
    printf("compute (new runs)        %-11.4g %-13.4g %.4g\n", v->plan.flops, v->grid.flops, v->isoflop.flops);
    if (v->has_decision) {
        char a[32], b[32], c2[32];
        snprintf(a, sizeof a, "%.0f%%", 100.0 * (double)v->plan.right / (double)v->replicates);
        snprintf(b, sizeof b, "%.0f%%", 100.0 * (double)v->grid.right / (double)v->replicates);
        snprintf(c2, sizeof c2, "%.0f%%", 100.0 * (double)v->isoflop.right / (double)v->replicates);
        printf("right decision            %-11s %-13s %s\n", a, b, c2);
        /* Each rate's 95% Wilson score interval, in percent. */
        double lo[3], hi[3];
        ls_plan_rate_interval(v->plan.right, v->replicates, &lo[0], &hi[0]);
        ls_plan_rate_interval(v->grid.right, v->replicates, &lo[1], &hi[1]);
        ls_plan_rate_interval(v->isoflop.right, v->replicates, &lo[2], &hi[2]);
        snprintf(a, sizeof a, "[%.0f, %.0f]", 100 * lo[0], 100 * hi[0]);
        snprintf(b, sizeof b, "[%.0f, %.0f]", 100 * lo[1], 100 * hi[1]);
        snprintf(c2, sizeof c2, "[%.0f, %.0f]", 100 * lo[2], 100 * hi[2]);
        printf("  95%% Wilson interval     %-11s %-13s %s\n", a, b, c2);
        print_arms("loss regret, mean", v->plan.regret_mean, v->grid.regret_mean, v->isoflop.regret_mean);
        print_arms("loss regret, median", v->plan.regret_median, v->grid.regret_median, v->isoflop.regret_median);
        print_arms("loss regret, worst", v->plan.regret_max, v->grid.regret_max, v->isoflop.regret_max);
    }
    for (size_t t = 0; t < r->ntargets; t++) {
        char label[40];
        snprintf(label, sizeof label, "sd of %s over the fits", ls_law_param_name(r->targets[t]));
        print_arms(label, v->plan.target_sd[t], v->grid.target_sd[t], v->isoflop.target_sd[t]);
    }
    if (r->ntargets)
        print_arms("summed variance", v->plan.target_variance, v->grid.target_variance, v->isoflop.target_variance);
    printf("fits failed%-14s %-11zu %-13zu %zu\n", v->has_decision ? " (wrong)" : "", v->plan.failed, v->grid.failed,
           v->isoflop.failed);
    char stride[32] = "";
    if (v->grid.stride != 1)
        snprintf(stride, sizeof stride, " %zu%s", v->grid.stride, ls_ordinal_suffix(v->grid.stride));
    printf("\nthinned grid: every%s candidate; IsoFLOP: %zu (R, E) x %zu budgets from %.3g to %.3g FLOPs x %zu\n"
           "sizes around the prior's optimum, D = F / (6 N_unroll)\n",
           stride, v->isoflop_pairs, v->isoflop_budgets, v->isoflop_budget_min, v->isoflop_budget_max,
           v->isoflop_sizes);
}

/* The runs are CSV: a name that says another format (r.json) would be
 * read as that format by the next program, so it is refused. */
static int check_csv_name(const char *cmd, const char *path)
{
    static const char *const others[] = {".json", ".html", ".htm", ".svg", ".pdf", ".png", ".npy"};
    size_t n = strlen(path);
    if (n > 3 && strcasecmp(path + n - 3, ".gz") == 0)
        n -= 3;
    for (size_t i = 0; i < sizeof others / sizeof *others; i++) {
        size_t k = strlen(others[i]);
        if (n > k && strncasecmp(path + n - k, others[i], k) == 0)
            return cli_usage_error(cmd, "-o: '%s': the runs are CSV, and a name ending in %s says otherwise (.csv, "
                                   ".csv.gz or '-')", path, others[i]);
    }
    return 0;
}

int cmd_plan(int argc, char **argv)
{
    const char *cmd = "plan";
    static const struct option longopts[] = {CLI_HELP_OPTION,
                                             {"law", required_argument, NULL, 'l'},
                                             {"force", no_argument, NULL, OPT_FORCE},
                                             {"budget", required_argument, NULL, OPT_BUDGET},
                                             {"gpu-hours", required_argument, NULL, OPT_GPU_HOURS},
                                             {"flop-rate", required_argument, NULL, OPT_FLOP_RATE},
                                             {"flops", required_argument, NULL, OPT_FLOPS},
                                             {"mem", required_argument, NULL, OPT_MEM},
                                             {"bits", required_argument, NULL, OPT_BITS},
                                             {"eps", required_argument, NULL, OPT_EPS},
                                             {"n-act", required_argument, NULL, OPT_N_ACT},
                                             {"tokens", required_argument, NULL, OPT_TOKENS},
                                             {"E", required_argument, NULL, OPT_E},
                                             {"R", required_argument, NULL, OPT_R},
                                             {"template", required_argument, NULL, OPT_TEMPLATE},
                                             {"candidates", required_argument, NULL, OPT_CANDIDATES},
                                             {"target", required_argument, NULL, OPT_TARGET},
                                             {"have", required_argument, NULL, OPT_HAVE},
                                             {"noise", required_argument, NULL, OPT_NOISE},
                                             {"draws", required_argument, NULL, OPT_DRAWS},
                                             {"prior-sd", required_argument, NULL, OPT_PRIOR_SD},
                                             {"threads", required_argument, NULL, OPT_THREADS},
                                             {"validate", required_argument, NULL, OPT_VALIDATE},
                                             {"truth", required_argument, NULL, OPT_TRUTH},
                                             {"baseline-flops", required_argument, NULL, OPT_BASELINE_FLOPS},
                                             {"seed", required_argument, NULL, OPT_SEED},
                                             {"output", required_argument, NULL, 'o'},
                                             {NULL, 0, NULL, 0}};
    static const double default_n_act[] = {3e8, 6e8, 1e9}, default_tokens[] = {1e11, 2e11, 3e11, 4e11, 5e11},
                        default_E[] = {1, 2, 4, 8, 16}, default_R[] = {1, 2, 3, 4, 6, 8, 16};
    const char *law_path = NULL, *template_path = NULL, *have_path = NULL, *output = NULL, *truth_path = NULL,
               *candidates_path = NULL;
    size_t validate = 0;
    double baseline_flops = NAN, gpu_hours = NAN, flop_rate = NAN;
    unsigned long seed = 1;
    int seed_given = 0; /* the seed draws only --validate's sweeps */
    ls_solve_budget deploy = {NAN, INFINITY, 16};
    ls_law_param targets[LS_LAW_NPARAMS];
    ls_plan_parameters pp;
    ls_plan_default_parameters(&pp);
    double *n_act = NULL, *tokens = NULL, *E = NULL, *R = NULL, eps = NAN;
    size_t nn = 0, nt = 0, nE = 0, nR = 0;
    int status = 0, opt, force = 0;
    long value = 0;
    opterr = 0;
    while (status == 0 && (opt = cli_getopt(argc, argv, ":hl:o:", longopts, NULL, NULL)) != -1) {
        switch (opt) {
        case 'h': status = -1; break;
        case 'l': law_path = optarg; break;
        case 'o': output = optarg; break;
        case OPT_FORCE: force = 1; break;
        case OPT_BUDGET: status = cli_parse_flops(cmd, "--budget", optarg, &pp.budget_flops); break;
        case OPT_FLOPS: status = cli_parse_flops(cmd, "--flops", optarg, &deploy.flops); break;
        case OPT_MEM: status = cli_parse_bytes(cmd, "--mem", optarg, &deploy.mem_bytes); break;
        case OPT_BITS: status = cli_parse_positive(cmd, "--bits", optarg, &deploy.bits); break;
        case OPT_EPS:
            status = cli_parse_double(cmd, "--eps", optarg, &eps);
            if (status == 0 && eps < 0)
                status = cli_usage_error(cmd, "--eps: '%s' must not be negative", optarg);
            break;
        case OPT_N_ACT: status = cli_parse_list(cmd, "--n-act", optarg, &n_act, &nn); break;
        case OPT_TOKENS: status = cli_parse_list(cmd, "--tokens", optarg, &tokens, &nt); break;
        case OPT_E: status = cli_parse_list(cmd, "--E", optarg, &E, &nE); break;
        case OPT_R: status = cli_parse_list(cmd, "--R", optarg, &R, &nR); break;
        case OPT_TEMPLATE: template_path = optarg; break;
        case OPT_HAVE: have_path = optarg; break;
        case OPT_CANDIDATES: candidates_path = optarg; break;
        case OPT_TARGET:
            status = parse_target(cmd, optarg, targets, &pp.ntarget_params);
            pp.target_params = targets;
            break;
        case OPT_NOISE: status = cli_parse_positive(cmd, "--noise", optarg, &pp.noise_sigma); break;
        case OPT_DRAWS:
            status = cli_parse_long(cmd, "--draws", optarg, 1, 100000, &value);
            pp.max_draws = (size_t)value;
            break;
        case OPT_PRIOR_SD: status = cli_parse_positive(cmd, "--prior-sd", optarg, &pp.prior_sd); break;
        case OPT_THREADS:
            status = cli_parse_long(cmd, "--threads", optarg, 1, 64, &value);
            pp.threads = (int)value;
            break;
        case OPT_VALIDATE:
            status = cli_parse_long(cmd, "--validate", optarg, 1, 100000, &value);
            validate = (size_t)value;
            break;
        case OPT_TRUTH: truth_path = optarg; break;
        case OPT_BASELINE_FLOPS: status = cli_parse_flops(cmd, "--baseline-flops", optarg, &baseline_flops); break;
        case OPT_SEED:
            seed_given = 1;
            status = cli_parse_seed(cmd, optarg, &seed);
            break;
        case OPT_GPU_HOURS: status = cli_parse_positive(cmd, "--gpu-hours", optarg, &gpu_hours); break;
        case OPT_FLOP_RATE: status = cli_parse_flops(cmd, "--flop-rate", optarg, &flop_rate); break;
        default: status = cli_option_error(cmd, opt, argv); break;
        }
    }
    ls_arch_template tmpl;
    ls_arch_template_default(&tmpl);
    ls_error err;
    ls_lawfile *lf = NULL, *truth = NULL;
    ls_law *draws = NULL;
    ls_plan_validation val;
    memset(&val, 0, sizeof val);
    progress_state progress = {0, 0};
    ls_sweep *have = NULL;
    ls_law_point *cand_x = NULL;
    double *axis_R = NULL, *axis_E = NULL;
    ls_plan_candidates candidates = {NULL, 0};
    ls_plan_result result;
    memset(&result, 0, sizeof result);
    if (status == -1) {
        status = cli_help(USAGE);
        goto done;
    }
    if (status == 0 && optind < argc)
        status = cli_usage_error(cmd, "unexpected argument '%s'", argv[optind]);
    if (status == 0 && !isnan(gpu_hours) + !isnan(flop_rate) == 1)
        status = cli_usage_error(cmd, "give --gpu-hours H and --flop-rate RATE together");
    if (status == 0 && !isnan(gpu_hours) && !isnan(pp.budget_flops))
        status = cli_usage_error(cmd, "give the sweep's budget once: --budget FLOPS or --gpu-hours H");
    if (status == 0 && !isnan(gpu_hours)) {
        pp.budget_flops = gpu_hours * 3600 * flop_rate;
        if (!isfinite(pp.budget_flops))
            status = cli_usage_error(cmd, "--gpu-hours %g at --flop-rate %g is beyond any number of FLOPs", gpu_hours,
                                     flop_rate);
    }
    if (status == 0 && isnan(pp.budget_flops))
        status = cli_usage_error(cmd, "give the sweep's compute budget with --budget FLOPS (or --gpu-hours H "
                                      "--flop-rate RATE)");
    if (status == 0 && isnan(deploy.flops) && pp.ntarget_params == 0)
        status = cli_usage_error(cmd, "give the deployment budget of the decision with --flops F");
    if (status == 0 && !output)
        status = cli_usage_error(cmd, "give the file for the runs with -o FILE");
    if (status == 0)
        status = check_csv_name(cmd, output);
    if (status == 0 && !validate && (truth_path || !isnan(baseline_flops) || seed_given))
        status = cli_usage_error(cmd, "%s is for --validate K",
                                 truth_path ? "--truth" : !isnan(baseline_flops) ? "--baseline-flops" : "--seed");
    if (status == 0 && candidates_path && (n_act || tokens || E || R))
        status = cli_usage_error(cmd, "--candidates FILE replaces %s", n_act ? "--n-act" : tokens ? "--tokens" : E ? "--E"
                                                                                                             : "--R");
    if (status == 0)
        status = check_integers(cmd, "--R", R, nR);
    if (status == 0)
        status = check_integers(cmd, "--E", E, nE);
    if (status == 0) {
        cli_file_input("--law", law_path);
        cli_file_input("--template", template_path);
        cli_file_input("--have", have_path);
        cli_file_input("--candidates", candidates_path);
        cli_file_input("--truth", truth_path);
        cli_file_output("the summary", "-");
        cli_file_output("-o", output);
        status = cli_files_check(cmd);
    }
    if (status == 0 && template_path && ls_arch_template_read(template_path, &tmpl, &err) != 0)
        status = cli_fail(cmd, &err);
    ls_simulate_grid grid = {n_act ? n_act : default_n_act, n_act ? nn : 3,  tokens ? tokens : default_tokens,
                          tokens ? nt : 5,               E ? E : default_E, E ? nE : 5,
                          R ? R : default_R,             R ? nR : 7};
    double top_k_e = 1;
    if (status == 0 && !E && !candidates_path && tmpl.top_k > 1) {
        /* The default list starts at E = 1; a template routing each token
         * to top_k experts needs at least top_k of them. */
        while (grid.n_E > 0 && grid.E[0] < tmpl.top_k) {
            grid.E++;
            grid.n_E--;
        }
        if (grid.n_E == 0) {
            top_k_e = tmpl.top_k;
            grid.E = &top_k_e;
            grid.n_E = 1;
            cli_note(cmd, "the template routes to top_k = %d experts: the default --E is %d", tmpl.top_k, tmpl.top_k);
        } else
            cli_note(cmd, "the template routes to top_k = %d experts: E below %d left out of the default --E list",
                     tmpl.top_k, tmpl.top_k);
    }
    if (status == 0 && candidates_path) {
        if (!(cand_x = ls_plan_read_candidates(candidates_path, &tmpl, &candidates.n, &err)))
            status = cli_fail(cmd, &err);
        candidates.x = cand_x;
        if (status == 0 && (!(axis_R = malloc(candidates.n * sizeof *axis_R)) ||
                            !(axis_E = malloc(candidates.n * sizeof *axis_E)))) {
            cli_error(cmd, "out of memory");
            status = ls_exit_status(LS_ERR_INTERNAL);
        }
        if (status == 0) {
            ls_plan_candidate_axes(&candidates, axis_R, &grid.n_R, axis_E, &grid.n_E);
            grid.R = axis_R;
            grid.E = axis_E;
        }
    } else if (status == 0 && ls_plan_grid_candidates(&tmpl, &grid, &cand_x, &candidates.n, &err) != 0)
        status = cli_fail(cmd, &err);
    candidates.x = cand_x;
    if (status == 0)
        lf = cli_read_law(cmd, law_path, force, &status);
    /* The truth is a law file read as --law is: a fit that did not converge
     * is refused without --force. */
    if (status == 0 && truth_path)
        truth = cli_read_law(cmd, truth_path, force, &status);
    if (status == 0 && have_path) {
        ls_sweep_options so;
        memset(&so, 0, sizeof so);
        so.max_rows = cli_max_rows();
        const char *paths[] = {have_path};
        if (!(have = ls_sweep_read(paths, 1, &so, &err)))
            status = cli_fail(cmd, &err);
    }
    ls_plan_prior prior;
    memset(&prior, 0, sizeof prior);
    if (status == 0) {
        if (isnan(eps))
            eps = lf->has_fit ? lf->fit.rmse : 0.0;
        if (lf->has_fit)
            pp.huber_delta = strcmp(lf->fit.loss, "mse") == 0 ? INFINITY : lf->fit.delta;
        prior.point = lf->law;
        memcpy(prior.fixed, lf->fixed, sizeof prior.fixed);
        prior.rmse = lf->has_fit ? lf->fit.rmse : NAN;
        size_t nd = lf->ndraws < pp.max_draws ? lf->ndraws : pp.max_draws;
        draws = malloc((nd ? nd : 1) * sizeof *draws);
        if (!draws) {
            cli_error(cmd, "out of memory");
            status = ls_exit_status(LS_ERR_INTERNAL);
        }
        for (size_t i = 0; draws && i < nd; i++)
            ls_lawfile_draw(lf, i, &draws[i]);
        prior.draws = draws;
        prior.ndraws = nd;
        if (status == 0 && nd == 0)
            cli_warn(cmd, "the prior has no bootstrap draws: the plan is for its point estimate alone");
    }
    if (status == 0 && isnan(pp.noise_sigma) && !(prior.rmse > 0)) {
        cli_error(cmd, "the prior law has no fit RMSE to take the noise from: give --noise SIGMA");
        status = ls_exit_status(LS_ERR_USAGE);
    }
    ls_solve_options choice = {grid.R, grid.n_R, grid.E, grid.n_E, NULL, 0, eps, NULL};
    if (status == 0 && ls_plan_run(&prior, &tmpl, &candidates, have, &deploy, &choice, &pp, &result, &err) != 0)
        status = cli_fail(cmd, &err);
    if (status == 0 && validate) {
        ls_plan_validation_options vo;
        ls_plan_validation_default_options(&vo);
        vo.replicates = validate;
        vo.noise_sigma = result.sigma;
        vo.baseline_flops = isnan(baseline_flops) ? result.flops_spent : baseline_flops;
        vo.seed = seed;
        vo.threads = pp.threads;
        vo.center = &lf->law;
        vo.target_params = pp.target_params;
        vo.ntarget_params = pp.ntarget_params;
        vo.progress = isatty(STDERR_FILENO) ? show_progress : NULL;
        vo.progress_context = &progress;
        if (lf->has_fit && strcmp(lf->fit.loss, "mse") == 0)
            vo.fit.loss = LS_FIT_LOSS_MSE;
        else if (lf->has_fit)
            vo.fit.huber_delta = lf->fit.delta;
        if (!(vo.baseline_flops > 0)) {
            cli_error(cmd, "the plan is empty: nothing to validate");
            status = ls_exit_status(LS_ERR_DATA);
        } else if (ls_plan_validate(truth ? &truth->law : &lf->law, lf->law.kind, &tmpl, &candidates, have, &result,
                                    isnan(deploy.flops) ? NULL : &deploy, isnan(deploy.flops) ? NULL : &choice, &vo,
                                    &val, &err) != 0) {
            if (progress.shown)
                fputs("\r\033[K", stderr);
            progress.shown = 0;
            status = cli_fail(cmd, &err);
        }
        if (progress.shown)
            fputs("\r\033[K", stderr);
    }
    if (status == 0 && result.nruns == 0)
        cli_warn(cmd, "no candidate fits in the budget of %g FLOPs: the plan is empty", pp.budget_flops);
    if (status == 0) {
        outfile *out = cli_output_open(cmd, output, &status);
        if (!out)
            ;
        else if (write_runs(&result, tmpl.top_k, out, &err) != 0) {
            ls_outfile_abort(out);
            status = cli_fail(cmd, &err);
        } else if (ls_outfile_commit(out, &err) != 0)
            status = cli_fail(cmd, &err);
    }
    /* A decision beyond the prior's data: the plan aims at the prior's
     * guess there, said as solve says it. */
    char outside_text[512] = "";
    unsigned outside = status == 0 ? decision_outside(lf, &tmpl, &result, outside_text, sizeof outside_text) : 0;
    if (status == 0 && outside)
        cli_warn(cmd, "the decision lies outside the ranges the prior was fitted on (%s): an extrapolation; a plan "
                      "aims at the prior's guess there",
                 outside_text);
    if (status == 0)
        print_summary(lf, &deploy, &result, pp.budget_flops, have_path, outside, outside_text);
    if (status == 0 && validate)
        print_validation(&val, &result, truth_path, result.sigma);
done:
    ls_lawfile_free(truth);
    ls_plan_result_free(&result);
    free(cand_x);
    free(axis_R);
    free(axis_E);
    ls_sweep_free(have);
    free(draws);
    ls_lawfile_free(lf);
    free(n_act);
    free(tokens);
    free(E);
    free(R);
    return status;
}
