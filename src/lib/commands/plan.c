/*
 * plan — which runs to train next, so that the law pins down the decision
 * at a deployment budget (docs/plan.md).
 */
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "commands/commands_internal.h"
#include "loopscale/plan.h"
#include "jsonw_internal.h"
#include "numtext_internal.h"

/* The most candidates times draws a plan weighs (LS_PLAN_MAX_CANDIDATES
 * bounds the candidates alone): its memory grows as their product. */
#define PLAN_MAX_DRAW_CANDIDATES 10000000

/* --target: "decision" (no named parameter) or "params:NAME,NAME,...". */
static int parse_target(const ls_request *req, ls_law_param *out, size_t *n, ls_error *err)
{
    const char *text = req_text(req, O_TARGET), *flag = req_flag(req, O_TARGET);
    *n = 0;
    if (strcmp(text, "decision") == 0)
        return 0;
    if (strncmp(text, "params:", 7) != 0 || text[7] == '\0')
        return req_usage(req, err, "%s: '%s' is neither 'decision' nor 'params:NAME,...'", flag, text);
    for (const char *p = text + 7;;) {
        size_t len = strcspn(p, ",");
        char name[32];
        if (len == 0 || len >= sizeof name)
            return req_usage(req, err, "%s: '%s' has an empty or overlong parameter name", flag, text);
        memcpy(name, p, len);
        name[len] = '\0';
        int q = ls_law_param_from_name(name);
        if (q < 0)
            return req_usage(req, err, "%s: '%s' is not a parameter (A alpha B beta c delta gamma omega zeta "
                             "E_start E_max phi kappa1 kappa2 theta)", flag, name);
        if (*n == LS_LAW_NPARAMS)
            return req_usage(req, err, "%s: '%s' names too many parameters", flag, text);
        out[(*n)++] = (ls_law_param)q;
        if (p[len] == '\0')
            break;
        p += len + 1;
    }
    return 0;
}

/* The runs are CSV: a name that says another format (r.json) would be
 * read as that format by the next program, so it is refused. */
static int check_csv_name(const ls_request *req, const char *path, ls_error *err)
{
    static const char *const others[] = {".json", ".html", ".htm", ".svg", ".pdf", ".png", ".npy"};
    size_t n = strlen(path);
    if (n > 3 && strcasecmp(path + n - 3, ".gz") == 0)
        n -= 3;
    for (size_t i = 0; i < sizeof others / sizeof *others; i++) {
        size_t k = strlen(others[i]);
        if (n > k && strncasecmp(path + n - k, others[i], k) == 0)
            return req_usage(req, err, "%s: '%s': the runs are CSV, and a name ending in %s says otherwise (.csv "
                             "or .csv.gz)", req_flag(req, O_OUTPUT), path, others[i]);
    }
    return 0;
}

/* What the options say before anything is read: the sweep's budget, the
 * decision's, the output, and the options that need another. */
static int check_options(const ls_request *req, size_t ntargets, double *budget_flops, ls_error *err)
{
    int hours = req_given(req, O_GPU_HOURS), rate = req_given(req, O_FLOP_RATE);
    if (hours + rate == 1)
        return req_usage(req, err, "give %s H and %s RATE together", req_flag(req, O_GPU_HOURS),
                         req_flag(req, O_FLOP_RATE));
    if (hours && req_given(req, O_BUDGET))
        return req_usage(req, err, "give the sweep's budget once: %s FLOPS or %s H", req_flag(req, O_BUDGET),
                         req_flag(req, O_GPU_HOURS));
    *budget_flops = req_number(req, O_BUDGET);
    if (hours) {
        *budget_flops = req_number(req, O_GPU_HOURS) * 3600 * req_number(req, O_FLOP_RATE);
        if (!isfinite(*budget_flops))
            return req_usage(req, err, "%s %g at %s %g is beyond any number of FLOPs", req_flag(req, O_GPU_HOURS),
                             req_number(req, O_GPU_HOURS), req_flag(req, O_FLOP_RATE), req_number(req, O_FLOP_RATE));
    }
    if (isnan(*budget_flops))
        return req_usage(req, err, "give the sweep's compute budget with %s FLOPS (or %s H %s RATE)",
                         req_flag(req, O_BUDGET), req_flag(req, O_GPU_HOURS), req_flag(req, O_FLOP_RATE));
    if (!req_given(req, O_FLOPS) && ntargets == 0)
        return req_usage(req, err, "give the deployment budget of the decision with %s F", req_flag(req, O_FLOPS));
    if (!req_given(req, O_OUTPUT))
        return req_usage(req, err, "give the file for the runs with %s FILE", req_flag(req, O_OUTPUT));
    if (check_csv_name(req, req_text(req, O_OUTPUT), err) != 0)
        return err->code;
    static const opt_id validate_only[] = {O_TRUTH, O_BASELINE_FLOPS};
    for (size_t i = 0; i < 2; i++)
        if (!req_given(req, O_VALIDATE) && req_given(req, validate_only[i]))
            return req_usage(req, err, "%s is for %s K", req_flag(req, validate_only[i]), req_flag(req, O_VALIDATE));
    /* The seed draws the simulated sweeps, which only a search and a
     * validation make. */
    if (req_given(req, O_SEED) && !req_given(req, O_VALIDATE) && req_integer(req, O_SEARCH) == 0)
        return req_usage(req, err, "%s seeds the simulated sweeps: it is for %s K or %s K above 0",
                         req_flag(req, O_SEED), req_flag(req, O_VALIDATE), req_flag(req, O_SEARCH));
    static const opt_id lists[] = {O_N_ACT_LIST, O_TOKENS_LIST, O_E_LIST, O_R_LIST};
    for (size_t i = 0; i < 4; i++)
        if (req_given(req, O_CANDIDATES) && req_given(req, lists[i]))
            return req_usage(req, err, "%s FILE replaces %s", req_flag(req, O_CANDIDATES), req_flag(req, lists[i]));
    /* Sizes and token counts make a grid together; without either, the
     * candidates come from the question. */
    if (req_given(req, O_N_ACT_LIST) != req_given(req, O_TOKENS_LIST))
        return req_usage(req, err, "give %s and %s together (or neither: candidates from the prior and the budget)",
                         req_flag(req, O_N_ACT_LIST), req_flag(req, O_TOKENS_LIST));
    /* A spread of zero would give each run an infinite weight. */
    if (req_given(req, O_NOISE) && !(req_number(req, O_NOISE) > 0))
        return req_usage(req, err, "%s: '%s' must be positive", req_flag(req, O_NOISE), req_text(req, O_NOISE));
    return 0;
}

/* The candidate runs: the grid of the four lists (the default E list
 * without the E below the template's top_k), or the file's, with the
 * decision's R and E axes in grid->R and grid->E (room: the file's). */
static int make_candidates(const ls_request *req, ls_result *res, const ls_arch_template *t, const ls_law *prior,
                           double budget, double flops_max, ls_simulate_grid *grid, double *top_k_e,
                           ls_law_point **x, size_t *n, double **axis_R, double **axis_E, ls_error *err)
{
    grid->n_act = req_list(req, O_N_ACT_LIST, &grid->n_n_act);
    grid->tokens = req_list(req, O_TOKENS_LIST, &grid->n_tokens);
    grid->E = req_list(req, O_E_LIST, &grid->n_E);
    grid->R = req_list(req, O_R_LIST, &grid->n_R);
    const char *path = req_text(req, O_CANDIDATES);
    if (path) {
        if (!(*x = ls_plan_read_candidates(path, t, n, err)))
            return err->code;
        if (!(*axis_R = malloc(*n * sizeof **axis_R)) || !(*axis_E = malloc(*n * sizeof **axis_E)))
            return res_oom(err);
        ls_plan_candidates c = {*x, *n};
        ls_plan_candidate_axes(&c, *axis_R, &grid->n_R, *axis_E, &grid->n_E);
        grid->R = *axis_R;
        grid->E = *axis_E;
        return 0;
    }
    /* Every combination is a candidate: the count is known before any is made. */
    double count = (double)grid->n_n_act * (double)grid->n_tokens * (double)grid->n_E * (double)grid->n_R;
    if (count > LS_PLAN_MAX_CANDIDATES)
        return req_usage(req, err, "%s, %s, %s and %s make %.0f candidates; a plan weighs at most %d",
                         req_flag(req, O_N_ACT_LIST), req_flag(req, O_TOKENS_LIST), req_flag(req, O_E_LIST),
                         req_flag(req, O_R_LIST), count, LS_PLAN_MAX_CANDIDATES);
    if (!req_given(req, O_E_LIST) && t->top_k > 1) {
        /* The default list starts at E = 1; a template routing each token
         * to top_k experts needs at least top_k of them. */
        while (grid->n_E > 0 && grid->E[0] < t->top_k) {
            grid->E++;
            grid->n_E--;
        }
        if (grid->n_E == 0) {
            *top_k_e = t->top_k;
            grid->E = top_k_e;
            grid->n_E = 1;
            res_note(res, "the template routes to top_k = %d experts: the default %s is %d", t->top_k,
                     req_flag(req, O_E_LIST), t->top_k);
        } else
            res_note(res, "the template routes to top_k = %d experts: E below %d left out of the default %s list",
                     t->top_k, t->top_k, req_flag(req, O_E_LIST));
    }
    if (!req_given(req, O_N_ACT_LIST)) {
        /* From the question: IsoFLOP ladders about the prior's optima. */
        if (!(*x = ls_plan_question_candidates(prior, t, grid->R, grid->n_R, grid->E, grid->n_E, flops_max, n, err)))
            return err->code == LS_ERR_DATA ? ls_error_prefix(err, "the budget of %g FLOPs buys no design that can "
                                                              "be fitted (twice as many runs as parameters, %.4g "
                                                              "FLOPs each at most)", budget, flops_max)
                                            : err->code;
        return 0;
    }
    return ls_plan_grid_candidates(t, grid, x, n, err);
}

static const char *source_name(ls_plan_source s)
{
    return s == LS_PLAN_FROM_ISOFLOP ? "IsoFLOP" : "c-optimal";
}

static int write_runs(strbuf *out, const ls_plan_result *r, int top_k)
{
    /* run_id names each run (plan-001, plan-002, ... in the order chosen)
     * for the training jobs and logs that will carry it. */
    const char *what = r->ntargets ? "summed variance" : "gap's variance";
    strbuf_puts(out, "run_id,n_act,n_total,n_loop,R,E,k,tokens,flops,why\n");
    for (size_t i = 0; i < r->nruns; i++) {
        const ls_plan_entry *run = &r->runs[i];
        char v[7][NUMTEXT_DOUBLE_MAX];
        strbuf_printf(out, "plan-%03zu,%s,%s,%s,%s,%s,%d,%s,%s,step %zu (%s): cuts the %s by %.3g%%\n", run->step,
                      ls_numtext_format_double(v[0], run->x.n_act), ls_numtext_format_double(v[1], run->x.n_total),
                      ls_numtext_format_double(v[2], run->x.n_loop), ls_numtext_format_double(v[3], run->x.R),
                      ls_numtext_format_double(v[4], run->x.E), top_k, ls_numtext_format_double(v[5], run->x.D),
                      ls_numtext_format_double(v[6], run->flops), run->step, source_name(run->source), what,
                      100 * run->cut);
    }
    return strbuf_failed(out) ? LS_ERR_INTERNAL : 0;
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
            int n = snprintf(text + used, size - used, "%s%s%s%s = %.4g (fitted %.4g to %.4g)",
                             first && used ? "; " : "", first ? names[k] : ", ", first ? ": " : "",
                             ls_law_range_name((ls_law_range)q), ls_law_range_value(&x, (ls_law_range)q),
                             ranges.lo[q], ranges.hi[q]);
            if (n < 0 || (size_t)n >= size - used)
                return all;
            used += (size_t)n;
            first = 0;
        }
    }
    return all;
}

/* What the plan is made of and why: the fittability check and, with a
 * search, every design judged. */
static void print_search(strbuf *out, const ls_plan_result *r)
{
    const ls_plan_fittable *f = &r->fittable;
    size_t isoflop = 0;
    for (size_t i = 0; i < r->nruns; i++)
        isoflop += r->runs[i].source == LS_PLAN_FROM_ISOFLOP;
    strbuf_printf(out, "design     %s: %zu IsoFLOP and %zu c-optimal runs\n", r->designs[r->chosen].name, isoflop,
                  r->nruns - isoflop);
    strbuf_printf(out,
                  "fittable   %zu runs for %zu parameters (at least %zu); %zu values of N_act, %zu of tokens, %zu of "
                  "R, %zu of E;\n           %s%.3g in correlation form (at most %.3g)\n",
                  f->nruns, f->nparams, f->min_runs, f->distinct[0], f->distinct[1], f->distinct[2], f->distinct[3],
                  isinf(f->condition) ? "singular: condition number above " : "condition number ",
                  isinf(f->condition) ? 1 / DBL_EPSILON : f->condition, f->max_condition);
    if (r->search_sweeps == 0) {
        /* Without a simulation, what made the choice: each start's check. */
        strbuf_puts(out, "\nstarts     without a search (--search 0): the c-optimal design if it can be fitted, else "
                    "the\n           fittable mixture with the least IsoFLOP share\n");
        for (size_t i = 0; i < r->ndesigns; i++) {
            const ls_plan_design_score *d = &r->designs[i];
            const char *mark = i == r->chosen ? "*" : " ";
            if (d->fittable)
                strbuf_printf(out, "%s %-31s %zu runs, %.4g FLOPs\n", mark, d->name, d->nruns, d->flops);
            else
                strbuf_printf(out, "%s %-31s not fittable: %s\n", mark, d->name, d->why);
        }
        strbuf_puts(out, "  (* the plan)\n");
        return;
    }
    int decision = r->ntargets == 0;
    strbuf_printf(out, "\nsearch     %zu simulated sweeps per design, each drawn from one of the prior's draws, fitted "
                  "and solved\n", r->search_sweeps);
    strbuf_printf(out, "  %-31s %-6s %-10s %-8s %-7s %s\n", "design", "runs", "compute", decision ? "right" : "",
                  "failed", decision ? "regret, mean" : "squared error, mean");
    for (size_t i = 0; i < r->ndesigns; i++) {
        const ls_plan_design_score *d = &r->designs[i];
        const char *mark = i == r->chosen ? "*" : " ";
        if (!d->fittable) {
            strbuf_printf(out, "%s %-31s not fittable: %s\n", mark, d->name, d->why);
            continue;
        }
        char right[32] = "", value[32] = "-";
        if (decision)
            snprintf(right, sizeof right, "%zu/%zu", d->right, d->sweeps);
        double v = decision ? d->regret_mean : d->error;
        if (isfinite(v))
            snprintf(value, sizeof value, "%.4g", v);
        strbuf_printf(out, "%s %-31s %-6zu %-10.4g %-8s %-7zu %s\n", mark, d->name, d->nruns, d->flops, right,
                      d->failed, value);
    }
    strbuf_puts(out, "  (* the plan)\n");
}

static void print_summary(strbuf *out, const ls_lawfile *lf, const ls_solve_budget *b, const ls_plan_result *r,
                          double budget, int have, unsigned outside, const char *outside_text)
{
    char kind[64], mem[256];
    if (isfinite(b->mem_bytes) && ls_solve_budget_serving(b))
        snprintf(mem, sizeof mem, "%.4g bytes for weights at %g bits, the KV cache of %g x %g tokens at %g bits "
                 "and %.4g bytes of activations", b->mem_bytes, b->bits, b->context, b->batch > 0 ? b->batch : 1,
                 ls_solve_budget_kv_bits(b), b->activation_bytes);
    else if (isfinite(b->mem_bytes))
        snprintf(mem, sizeof mem, "%.4g bytes of weights at %g bits", b->mem_bytes, b->bits);
    else
        snprintf(mem, sizeof mem, "no memory limit");
    ls_law_kind_format(lf->law.kind, kind, sizeof kind);
    if (lf->ndraws)
        strbuf_printf(out, "prior      %s, %zu of %zu bootstrap draws\n", kind, r->ndraws, lf->ndraws);
    else
        strbuf_printf(out, "prior      %s, its point estimate (no bootstrap draws)\n", kind);
    if (r->ntargets) {
        strbuf_puts(out, "target     the summed variance of");
        for (size_t t = 0; t < r->ntargets; t++)
            strbuf_printf(out, "%s %s", t ? "," : "", ls_law_param_name(r->targets[t]));
        strbuf_puts(out, " (natural units), mean over the draws\n");
    } else {
        strbuf_printf(out, "decision   %.4g training %s; %s\n", b->flops, ls_plural(b->flops, "FLOP", "FLOPs"), mem);
        strbuf_printf(out, fabs(r->gap) < TEXT_FIXED_MAX
                               ? "target     loss(R=%g E=%g N_act=%.4g) - loss(R=%g E=%g N_act=%.4g) = %+.4f%s\n"
                               : "target     loss(R=%g E=%g N_act=%.4g) - loss(R=%g E=%g N_act=%.4g) = %+.5g%s\n",
                      r->best.R, r->best.E, r->best.n_act, r->runner_up.R, r->runner_up.E, r->runner_up.n_act, r->gap,
                      outside ? "*" : "");
        strbuf_printf(out,
                      "           under the prior's point estimate; %zu of %zu %s also %s R=%g E=%g, and each draw\n"
                      "           weighs its own choice against its own runner-up\n",
                      r->ndraws_same_choice, r->ndraws, ls_plural((double)r->ndraws, "draw", "draws"),
                      ls_plural((double)r->ndraws_same_choice, "chooses", "choose"), r->best.R, r->best.E);
        if (outside)
            strbuf_printf(out, "           * outside the ranges the prior was fitted on, an extrapolation: %s\n",
                          outside_text);
    }
    strbuf_printf(out, "noise      sigma %.4g of ln(loss); Huber weight %.4g per run (%zu parameters)\n", r->sigma,
                  r->huber_weight, r->nparams);
    strbuf_printf(out, "candidates %zu", r->ncandidates);
    if (have)
        strbuf_printf(out, "; %zu %s already trained (%zu of them candidates), %.4g %s", r->nhave,
                      ls_plural((double)r->nhave, "run", "runs"), r->nhave_in_grid, r->have_flops,
                      ls_plural(r->have_flops, "FLOP", "FLOPs"));
    strbuf_printf(out, "\nchosen     %zu %s\n", r->nruns, ls_plural((double)r->nruns, "run", "runs"));
    strbuf_printf(out, "compute    %.4g of %.4g FLOPs (%.1f%%)\n", r->flops_spent, budget,
                  100 * r->flops_spent / budget);
    print_search(out, r);
    if (r->ntargets) {
        strbuf_puts(out, "\nexpected standard deviation (root of the mean variance over the draws):\n");
        strbuf_puts(out, "                       ");
        for (size_t t = 0; t < r->ntargets; t++)
            strbuf_printf(out, t + 1 < r->ntargets ? " %-11s" : " %s", ls_law_param_name(r->targets[t]));
        strbuf_puts(out, "\n");
        const char *labels[3] = {"  weak prior alone      ", "  with the runs trained ", "  with the plan         "};
        const double *v[3] = {r->target_variance_prior, r->target_variance_have, r->target_variance_plan};
        for (int row = 0; row < 3; row++) {
            if (row == 1 && !have)
                continue;
            strbuf_puts(out, labels[row]);
            for (size_t t = 0; t < r->ntargets; t++)
                strbuf_printf(out, t + 1 < r->ntargets ? "%-11.4g " : "%.4g", sqrt(v[row][t]));
            strbuf_puts(out, "\n");
        }
        return;
    }
    strbuf_puts(out, "\nexpected standard deviation of the gap (mean variance over the draws):\n");
    strbuf_printf(out, "  weak prior alone      %.4g\n", sqrt(r->variance_prior));
    if (have)
        strbuf_printf(out, "  with the runs trained %.4g\n", sqrt(r->variance_have));
    strbuf_printf(out, "  with the plan         %.4g\n", sqrt(r->variance_plan));
}

/* One row of the validation table: a statistic for each design, "-" where
 * it has no value (every fit of that design failed, or a spread of fewer
 * than two fits, or of a parameter every fit held). */
static void print_arms(strbuf *out, const char *label, double plan, double grid, double isoflop)
{
    char text[3][32];
    const double v[3] = {plan, grid, isoflop};
    for (int k = 0; k < 3; k++) {
        if (isfinite(v[k]))
            snprintf(text[k], sizeof text[k], "%.4g", v[k]);
        else
            snprintf(text[k], sizeof text[k], "-");
    }
    strbuf_printf(out, "%-25s %-11s %-13s %s\n", label, text[0], text[1], text[2]);
}

static void rank_arms(const ls_plan_validation *v, int order[3]);
static const char *const ARM_NAMES[3];

static void print_validation(strbuf *out, const ls_plan_validation *v, const ls_plan_result *r,
                             const char *truth_path, double sigma)
{
    const ls_solve_candidate *c = &v->truth_choice;
    strbuf_printf(out, "\nvalidation %zu simulated sweeps of each design from %s, noise sigma %.4g of ln(loss)\n",
                  v->replicates, truth_path ? truth_path : "the prior's point estimate", sigma);
    char loss[32];
    if (v->has_decision)
        strbuf_printf(out, "truth      R*=%g E*=%g N_act*=%.4g, loss %s\n", c->R, c->E, c->n_act,
                      text_fixed(loss, sizeof loss, c->loss, 4));
    strbuf_puts(out, "\n                          plan        thinned grid  IsoFLOP\n");
    strbuf_printf(out, "runs                      %-11zu %-13zu %zu\n", v->plan.nruns, v->grid.nruns,
                  v->isoflop.nruns);
    strbuf_printf(out, "compute (new runs)        %-11.4g %-13.4g %.4g\n", v->plan.flops, v->grid.flops,
                  v->isoflop.flops);
    if (v->has_decision) {
        const ls_plan_validation_arm *arms[3] = {&v->plan, &v->grid, &v->isoflop};
        char rate[3][32], interval[3][32];
        for (int k = 0; k < 3; k++) {
            /* Each rate's 95% Wilson score interval, in percent. */
            double lo, hi;
            ls_plan_rate_interval(arms[k]->right, v->replicates, &lo, &hi);
            snprintf(rate[k], sizeof rate[k], "%.0f%%", 100.0 * (double)arms[k]->right / (double)v->replicates);
            snprintf(interval[k], sizeof interval[k], "[%.0f, %.0f]", 100 * lo, 100 * hi);
        }
        strbuf_printf(out, "right decision            %-11s %-13s %s\n", rate[0], rate[1], rate[2]);
        strbuf_printf(out, "  95%% Wilson interval     %-11s %-13s %s\n", interval[0], interval[1], interval[2]);
        print_arms(out, "loss regret, mean", v->plan.regret_mean, v->grid.regret_mean, v->isoflop.regret_mean);
        print_arms(out, "loss regret, median", v->plan.regret_median, v->grid.regret_median,
                   v->isoflop.regret_median);
        print_arms(out, "loss regret, worst", v->plan.regret_max, v->grid.regret_max, v->isoflop.regret_max);
    }
    for (size_t t = 0; t < r->ntargets; t++) {
        char label[40];
        snprintf(label, sizeof label, "sd of %s over the fits", ls_law_param_name(r->targets[t]));
        print_arms(out, label, v->plan.target_sd[t], v->grid.target_sd[t], v->isoflop.target_sd[t]);
    }
    if (r->ntargets)
        print_arms(out, "summed variance", v->plan.target_variance, v->grid.target_variance,
                   v->isoflop.target_variance);
    strbuf_printf(out, "fits failed%-14s %-11zu %-13zu %zu\n", v->has_decision ? " (wrong)" : "", v->plan.failed,
                  v->grid.failed, v->isoflop.failed);
    int order[3];
    rank_arms(v, order);
    strbuf_printf(out, "ranking                   1. %s, 2. %s, 3. %s (%s)\n", ARM_NAMES[order[0]], ARM_NAMES[order[1]],
                  ARM_NAMES[order[2]], v->has_decision ? "right decisions, then mean regret" : "summed variance");
    char stride[32] = "";
    if (v->grid.stride != 1)
        snprintf(stride, sizeof stride, " %zu%s", v->grid.stride, ls_ordinal_suffix(v->grid.stride));
    strbuf_printf(out, "\nthinned grid: every%s candidate; IsoFLOP: %zu (R, E) x %zu budgets", stride,
                  v->isoflop_pairs, v->isoflop_budgets);
    if (v->isoflop.nruns > r->nhave)
        strbuf_printf(out, " from %.3g to %.3g FLOPs", v->isoflop_budget_min, v->isoflop_budget_max);
    strbuf_printf(out, " x %zu\nsizes around the prior's optimum, those within the candidates' sizes kept, D = F / "
                  "(6 N_unroll)\n", v->isoflop_sizes);
}

/* The validated designs ranked: by right decisions (then mean regret), or
 * by the summed variance of the named parameters. */
static const char *const ARM_NAMES[3] = {"plan", "thinned grid", "IsoFLOP"};

static const ls_plan_validation_arm *arm_of(const ls_plan_validation *v, int k)
{
    return k == 0 ? &v->plan : k == 1 ? &v->grid : &v->isoflop;
}

/* a did better than b. */
static int arm_better(const ls_plan_validation *v, int a, int b)
{
    const ls_plan_validation_arm *x = arm_of(v, a), *y = arm_of(v, b);
    if (v->has_decision) {
        if (x->right != y->right)
            return x->right > y->right;
        return isfinite(x->regret_mean) && (!isfinite(y->regret_mean) || x->regret_mean < y->regret_mean);
    }
    return isfinite(x->target_variance) && (!isfinite(y->target_variance) || x->target_variance < y->target_variance);
}

static void rank_arms(const ls_plan_validation *v, int order[3])
{
    for (int k = 0; k < 3; k++)
        order[k] = k;
    for (int i = 1; i < 3; i++)
        for (int j = i; j > 0 && arm_better(v, order[j], order[j - 1]); j--) {
            int t = order[j];
            order[j] = order[j - 1];
            order[j - 1] = t;
        }
}

/* A baseline that did better than the plan, said as a warning. */
static void warn_validation(ls_result *res, const ls_plan_validation *v, const ls_plan_result *r)
{
    for (int k = 1; k < 3; k++) {
        if (!arm_better(v, k, 0))
            continue;
        const ls_plan_validation_arm *b = arm_of(v, k);
        if (v->has_decision) {
            double lo0, hi0, lo1, hi1;
            ls_plan_rate_interval(v->plan.right, v->replicates, &lo0, &hi0);
            ls_plan_rate_interval(b->right, v->replicates, &lo1, &hi1);
            res_warn(res, LS_WARNING_DESIGN, "validation",
                     "the %s design did better than the plan: %zu of %zu right decisions (95%% Wilson interval "
                     "[%.0f, %.0f]%%) against %zu (%s[%.0f, %.0f]%%), at %.3g FLOPs against %.3g",
                     ARM_NAMES[k], b->right, v->replicates, 100 * lo1, 100 * hi1, v->plan.right,
                     b->right == v->plan.right ? "the same count, a higher mean regret; " : "", 100 * lo0,
                     100 * hi0, b->flops, v->plan.flops);
        } else
            res_warn(res, LS_WARNING_DESIGN, "validation",
                     "the %s design did better than the plan: a summed variance of %.3g against %.3g", ARM_NAMES[k],
                     b->target_variance, v->plan.target_variance);
    }
    (void)r;
}

static void json_number_if(jsonw *w, const char *key, double x)
{
    if (isfinite(x))
        ls_jsonw_number(w, key, x);
}

static void json_point(jsonw *w, const char *key, const ls_solve_candidate *c)
{
    ls_jsonw_object_begin(w, key);
    ls_jsonw_number(w, "R", c->R);
    ls_jsonw_number(w, "E", c->E);
    ls_jsonw_number(w, "n_act", c->n_act);
    ls_jsonw_number(w, "tokens", c->tokens);
    ls_jsonw_number(w, "loss", c->loss);
    ls_jsonw_object_end(w);
}

/* The whole summary as one document (docs/formats.md, "plan --format json"). */
static char *plan_json(const ls_lawfile *lf, const ls_solve_budget *b, const ls_plan_result *r, double budget,
                       const ls_plan_validation *v, const char *truth_path, ls_error *err)
{
    char kind[64];
    jsonw w;
    ls_jsonw_init(&w);
    ls_jsonw_object_begin(&w, NULL);
    ls_jsonw_string(&w, "format", "loopscale-plan/1");
    ls_jsonw_object_begin(&w, "prior");
    ls_jsonw_string(&w, "law", ls_law_kind_format(lf->law.kind, kind, sizeof kind));
    ls_jsonw_integer(&w, "draws_used", (long long)r->ndraws);
    ls_jsonw_integer(&w, "draws", (long long)lf->ndraws);
    ls_jsonw_object_end(&w);
    if (r->ntargets) {
        ls_jsonw_array_begin(&w, "target_params", 1);
        for (size_t t = 0; t < r->ntargets; t++)
            ls_jsonw_string(&w, NULL, ls_law_param_name(r->targets[t]));
        ls_jsonw_array_end(&w);
    } else {
        ls_jsonw_object_begin(&w, "decision");
        ls_jsonw_number(&w, "flops", b->flops);
        json_number_if(&w, "mem_bytes", b->mem_bytes);
        ls_jsonw_number(&w, "bits", b->bits);
        json_point(&w, "chosen", &r->best);
        json_point(&w, "runner_up", &r->runner_up);
        ls_jsonw_number(&w, "gap", r->gap);
        ls_jsonw_integer(&w, "draws_same_choice", (long long)r->ndraws_same_choice);
        ls_jsonw_object_end(&w);
    }
    ls_jsonw_number(&w, "noise_sigma", r->sigma);
    ls_jsonw_number(&w, "huber_weight", r->huber_weight);
    ls_jsonw_integer(&w, "parameters", (long long)r->nparams);
    ls_jsonw_integer(&w, "candidates", (long long)r->ncandidates);
    ls_jsonw_integer(&w, "runs_trained", (long long)r->nhave);
    ls_jsonw_number(&w, "flops_trained", r->have_flops);
    ls_jsonw_number(&w, "budget", budget);
    ls_jsonw_number(&w, "flops_spent", r->flops_spent);
    ls_jsonw_object_begin(&w, "variance");
    ls_jsonw_number(&w, "weak_prior", r->variance_prior);
    ls_jsonw_number(&w, "with_runs_trained", r->variance_have);
    ls_jsonw_number(&w, "with_plan", r->variance_plan);
    ls_jsonw_object_end(&w);
    const ls_plan_fittable *f = &r->fittable;
    ls_jsonw_object_begin(&w, "fittable");
    ls_jsonw_integer(&w, "runs", (long long)f->nruns);
    ls_jsonw_integer(&w, "min_runs", (long long)f->min_runs);
    ls_jsonw_integer(&w, "parameters", (long long)f->nparams);
    static const char *const axes[4] = {"n_act", "tokens", "R", "E"};
    ls_jsonw_object_begin(&w, "distinct");
    for (int a = 0; a < 4; a++)
        ls_jsonw_integer(&w, axes[a], (long long)f->distinct[a]);
    ls_jsonw_object_end(&w);
    json_number_if(&w, "condition", f->condition);
    ls_jsonw_number(&w, "max_condition", f->max_condition);
    ls_jsonw_object_end(&w);
    ls_jsonw_integer(&w, "search_sweeps", (long long)r->search_sweeps);
    ls_jsonw_array_begin(&w, "designs", 0);
    for (size_t i = 0; i < r->ndesigns; i++) {
        const ls_plan_design_score *d = &r->designs[i];
        ls_jsonw_object_begin(&w, NULL);
        ls_jsonw_string(&w, "name", d->name);
        ls_jsonw_bool(&w, "chosen", i == r->chosen);
        ls_jsonw_bool(&w, "fittable", d->fittable);
        if (!d->fittable)
            ls_jsonw_string(&w, "why", d->why);
        ls_jsonw_integer(&w, "runs", (long long)d->nruns);
        ls_jsonw_number(&w, "flops", d->flops);
        if (d->fittable && r->search_sweeps) {
            ls_jsonw_integer(&w, "sweeps", (long long)d->sweeps);
            if (!r->ntargets)
                ls_jsonw_integer(&w, "right", (long long)d->right);
            ls_jsonw_integer(&w, "failed", (long long)d->failed);
            json_number_if(&w, "regret_mean", d->regret_mean);
            json_number_if(&w, "squared_error_mean", d->error);
        }
        ls_jsonw_object_end(&w);
    }
    ls_jsonw_array_end(&w);
    ls_jsonw_array_begin(&w, "runs", 0);
    for (size_t i = 0; i < r->nruns; i++) {
        const ls_plan_entry *run = &r->runs[i];
        ls_jsonw_object_begin(&w, NULL);
        ls_jsonw_integer(&w, "step", (long long)run->step);
        ls_jsonw_string(&w, "source", source_name(run->source));
        ls_jsonw_number(&w, "n_act", run->x.n_act);
        ls_jsonw_number(&w, "n_total", run->x.n_total);
        ls_jsonw_number(&w, "n_loop", run->x.n_loop);
        ls_jsonw_number(&w, "R", run->x.R);
        ls_jsonw_number(&w, "E", run->x.E);
        ls_jsonw_number(&w, "tokens", run->x.D);
        ls_jsonw_number(&w, "flops", run->flops);
        ls_jsonw_number(&w, "variance", run->variance);
        ls_jsonw_number(&w, "cut", run->cut);
        ls_jsonw_object_end(&w);
    }
    ls_jsonw_array_end(&w);
    if (v) {
        ls_jsonw_object_begin(&w, "validation");
        ls_jsonw_string(&w, "truth", truth_path ? truth_path : "the prior");
        ls_jsonw_integer(&w, "replicates", (long long)v->replicates);
        if (v->has_decision)
            json_point(&w, "truth_choice", &v->truth_choice);
        int order[3];
        rank_arms(v, order);
        ls_jsonw_array_begin(&w, "designs", 0);
        for (int k = 0; k < 3; k++) {
            const ls_plan_validation_arm *a = arm_of(v, order[k]);
            ls_jsonw_object_begin(&w, NULL);
            ls_jsonw_string(&w, "name", ARM_NAMES[order[k]]);
            ls_jsonw_integer(&w, "rank", k + 1);
            ls_jsonw_integer(&w, "runs", (long long)a->nruns);
            ls_jsonw_number(&w, "flops", a->flops);
            if (v->has_decision) {
                double lo, hi;
                ls_plan_rate_interval(a->right, v->replicates, &lo, &hi);
                ls_jsonw_integer(&w, "right", (long long)a->right);
                ls_jsonw_number(&w, "right_rate", (double)a->right / (double)v->replicates);
                ls_jsonw_array_begin(&w, "wilson_95", 1);
                ls_jsonw_number(&w, NULL, lo);
                ls_jsonw_number(&w, NULL, hi);
                ls_jsonw_array_end(&w);
                json_number_if(&w, "regret_mean", a->regret_mean);
                json_number_if(&w, "regret_median", a->regret_median);
                json_number_if(&w, "regret_worst", a->regret_max);
            }
            ls_jsonw_integer(&w, "failed", (long long)a->failed);
            if (r->ntargets) {
                ls_jsonw_object_begin(&w, "sd");
                for (size_t t = 0; t < r->ntargets; t++)
                    json_number_if(&w, ls_law_param_name(r->targets[t]), a->target_sd[t]);
                ls_jsonw_object_end(&w);
                json_number_if(&w, "summed_variance", a->target_variance);
            }
            ls_jsonw_object_end(&w);
        }
        ls_jsonw_array_end(&w);
        ls_jsonw_object_end(&w);
    }
    ls_jsonw_object_end(&w);
    return ls_jsonw_finish(&w, err);
}

/* The search's fits, as the request's progress. */
static void search_progress(void *context, size_t done, size_t total)
{
    res_progress(context, "searching designs", done, total);
}

/* Validation's fits, as the request's progress: "simulated sweeps 37/300". */
static void validation_progress(void *context, size_t done, size_t total)
{
    res_progress(context, "simulated sweeps", done, total);
}

/* Everything plan holds, freed in one place. */
typedef struct plan_state {
    ls_lawfile *lf, *truth;
    ls_sweep *have;
    ls_law_point *x;
    double *axis_R, *axis_E;
    ls_law *draws;
    ls_plan_result result;
    ls_plan_validation val;
    cmd_quant quant; /* the quantisation penalty the decision counts */
} plan_state;

static int plan(const ls_request *req, ls_result *res, plan_state *st, ls_error *err)
{
    double budget_flops = NAN;
    ls_law_param targets[LS_LAW_NPARAMS];
    ls_plan_parameters pp;
    ls_plan_default_parameters(&pp);
    if (parse_target(req, targets, &pp.ntarget_params, err) != 0 ||
        check_options(req, pp.ntarget_params, &budget_flops, err) != 0)
        return err->code;
    pp.budget_flops = budget_flops;
    pp.target_params = targets;
    if (req_given(req, O_NOISE))
        pp.noise_sigma = req_number(req, O_NOISE);
    if (req_given(req, O_DRAWS))
        pp.max_draws = (size_t)req_integer(req, O_DRAWS);
    if (req_given(req, O_PRIOR_SD))
        pp.prior_sd = req_number(req, O_PRIOR_SD);
    if (req_given(req, O_THREADS))
        pp.threads = (int)req_integer(req, O_THREADS);
    ls_solve_budget deploy = cmd_budget(req);
    if (!req_given(req, O_FLOPS))
        deploy.flops = NAN;
    if (cmd_serving_check(req, err) != 0)
        return err->code;

    ls_arch_template tmpl;
    if (cmd_template_read(req, &tmpl, err) != 0)
        return err->code;
    if (!(st->lf = cmd_read_law(req, res, O_LAW_FILE, err)))
        return err->code;
    const ls_lawfile *lf = st->lf;
    cmd_template_for_law(req, res, lf, cmd_law_name(req, O_LAW_FILE), &tmpl);
    ls_solve_options serving = {.quant = NULL};
    if (cmd_serving(req, res, lf, &tmpl, &deploy, &serving, &st->quant, err) != 0)
        return err->code;
    /* The largest candidate from the question: one that a fittable design
     * can still hold min_runs_per_param x parameters of. */
    ls_law_param all[LS_LAW_NPARAMS];
    size_t nall = ls_law_params_of(lf->law.kind, all), nfree = 0;
    for (size_t k = 0; k < nall; k++)
        nfree += !lf->fixed[all[k]] && (lf->has_fit || all[k] != LS_LAW_P_E_START);
    double flops_max = budget_flops / (pp.min_runs_per_param * (double)(nfree ? nfree : 1));
    ls_simulate_grid grid;
    double top_k_e = 1;
    ls_plan_candidates candidates = {NULL, 0};
    if (make_candidates(req, res, &tmpl, &lf->law, budget_flops, flops_max, &grid, &top_k_e, &st->x, &candidates.n,
                        &st->axis_R, &st->axis_E, err) != 0)
        return err->code;
    candidates.x = st->x;
    /* The truth is a law file read as --law is: a fit that did not converge
     * is refused without --force. */
    if (req_given(req, O_TRUTH) && !(st->truth = cmd_read_law(req, res, O_TRUTH, err)))
        return err->code;
    static const opt_id reader[] = {O_PROFILE, O_MAP,       O_WHERE, O_SKIP_INVALID, O_LOSS_UNIT,
                                    O_BYTES_PER_TOKEN, O_GROUP_TOL, O_RUN, O_STEP,         O_LAST};
    for (size_t i = 0; i < sizeof reader / sizeof *reader && !req_given(req, O_HAVE); i++)
        if (req_given(req, reader[i]))
            return req_usage(req, err, "%s reads the runs of %s, and none were given", req_flag(req, reader[i]),
                             req_flag(req, O_HAVE));
    if (req_given(req, O_HAVE)) {
        /* Read as fit reads a sweep: --map, --profile, --where and the rest
         * apply to it (a W&B export of configuration columns included);
         * what the file lacks (n_total, n_loop, k) comes from the template,
         * as for the candidates. */
        cmd_sweep cs;
        if (cmd_sweep_setup(req, res, &cs, err) != 0)
            return err->code;
        cs.options.shape = &tmpl;
        const char *paths[] = {req_text(req, O_HAVE)};
        st->have = ls_sweep_read(paths, 1, &cs.options, err);
        cmd_sweep_report(req, res, &cs, st->have);
        cmd_sweep_free(&cs);
        if (!st->have)
            return err->code;
    }
    double eps = req_given(req, O_EPS) ? req_number(req, O_EPS) : lf->has_fit ? lf->fit.rmse : 0.0;
    if (lf->has_fit)
        pp.huber_delta = strcmp(lf->fit.loss, "mse") == 0 ? INFINITY : lf->fit.delta;
    /* The simulated sweeps (the search's and validation's) are fitted as
     * the prior was. */
    ls_fit_parameters fit;
    ls_fit_default_parameters(&fit);
    if (lf->has_fit && strcmp(lf->fit.loss, "mse") == 0)
        fit.loss = LS_FIT_LOSS_MSE;
    else if (lf->has_fit)
        fit.huber_delta = lf->fit.delta;
    pp.fit = fit;
    pp.search_sweeps = (size_t)req_integer(req, O_SEARCH);
    pp.seed = (unsigned long)req_integer(req, O_SEED);
    pp.progress = search_progress;
    pp.progress_context = res;
    ls_plan_prior prior;
    memset(&prior, 0, sizeof prior);
    prior.point = lf->law;
    memcpy(prior.fixed, lf->fixed, sizeof prior.fixed);
    /* A law file with no fit record (a truth) plans for what a fit frees:
     * a fit always holds E_start at 1. */
    if (!lf->has_fit)
        prior.fixed[LS_LAW_P_E_START] = 1;
    prior.rmse = lf->has_fit ? lf->fit.rmse : NAN;
    size_t nd = lf->ndraws < pp.max_draws ? lf->ndraws : pp.max_draws;
    if ((double)candidates.n * (double)(nd ? nd : 1) > PLAN_MAX_DRAW_CANDIDATES)
        return req_usage(req, err, "%zu candidates under %zu draws of the prior: a plan weighs at most %d "
                         "candidate-draws (about 130 bytes each); fewer candidates or a smaller %s",
                         candidates.n, nd, PLAN_MAX_DRAW_CANDIDATES, req_flag(req, O_DRAWS));
    if (!(st->draws = malloc((nd ? nd : 1) * sizeof *st->draws)))
        return res_oom(err);
    for (size_t i = 0; i < nd; i++)
        ls_lawfile_draw(lf, i, &st->draws[i]);
    prior.draws = st->draws;
    prior.ndraws = nd;
    if (nd == 0)
        res_warn(res, LS_WARNING_DESIGN, "prior", "the prior has no bootstrap draws: the plan is for its point "
                 "estimate alone");
    if (isnan(pp.noise_sigma) && !(prior.rmse > 0))
        return req_usage(req, err, "the prior law has no fit RMSE to take the noise from: give %s SIGMA",
                         req_flag(req, O_NOISE));
    ls_solve_options choice = {grid.R, grid.n_R, grid.E, grid.n_E, NULL, 0, eps, NULL, serving.quant};
    ls_plan_result *r = &st->result;
    if (ls_plan_run(&prior, &tmpl, &candidates, st->have, &deploy, &choice, &pp, r, err) != 0)
        return err->code;
    if (r->ninert) {
        char names[256] = "";
        for (size_t k = 0, used = 0; k < r->ninert && used < sizeof names; k++)
            used += (size_t)snprintf(names + used, sizeof names - used, "%s%s", k ? ", " : "",
                                     ls_law_param_name(r->inert[k]));
        res_warn(res, LS_WARNING_DESIGN, "prior", "no candidate's loss depends on %s at the prior's values (as "
                 "loop parameters do not when every candidate has R = 1): no design of these candidates identifies "
                 "%s, and the plan leaves %s as the prior has %s", names, r->ninert == 1 ? "it" : "them",
                 r->ninert == 1 ? "it" : "them", r->ninert == 1 ? "it" : "them");
    }
    /* A sweep whose runs cost more than the model it decides about trains
     * past the question (a budget far above the decision's). */
    size_t beyond = 0;
    double largest = 0;
    for (size_t i = 0; i < r->nruns; i++) {
        largest = fmax(largest, r->runs[i].flops);
        beyond += r->runs[i].flops > deploy.flops;
    }
    if (beyond)
        res_warn(res, LS_WARNING_DESIGN, "budget", "%zu of the plan's %zu runs cost more than the decision's %s %.4g "
                 "(the largest %.4g FLOPs): the sweep trains models past the one it decides about; a smaller %s, "
                 "or a larger %s, asks a question the runs do not overshoot", beyond, r->nruns,
                 req_flag(req, O_FLOPS), deploy.flops, largest, req_flag(req, O_BUDGET), req_flag(req, O_FLOPS));
    size_t validate = req_given(req, O_VALIDATE) ? (size_t)req_integer(req, O_VALIDATE) : 0;
    if (validate) {
        ls_plan_validation_options vo;
        ls_plan_validation_default_options(&vo);
        vo.replicates = validate;
        vo.noise_sigma = r->sigma;
        vo.baseline_flops = req_given(req, O_BASELINE_FLOPS) ? req_number(req, O_BASELINE_FLOPS) : pp.budget_flops;
        vo.seed = (unsigned long)req_integer(req, O_SEED);
        vo.threads = pp.threads;
        vo.center = &lf->law;
        vo.target_params = pp.target_params;
        vo.ntarget_params = pp.ntarget_params;
        vo.progress = validation_progress;
        vo.progress_context = res;
        vo.fit = fit;
        int decides = !isnan(deploy.flops);
        if (ls_plan_validate(st->truth ? &st->truth->law : &lf->law, lf->law.kind, &tmpl, &candidates, st->have, r,
                             decides ? &deploy : NULL, decides ? &choice : NULL, &vo, &st->val, err) != 0)
            return err->code;
    }
    strbuf runs = {0};
    if (write_runs(&runs, r, tmpl.top_k) != 0) {
        strbuf_free(&runs);
        return res_oom(err);
    }
    size_t len = runs.len;
    char *bytes = strbuf_take(&runs);
    if (!bytes || res_output(res, O_OUTPUT, req_text(req, O_OUTPUT), (unsigned char *)bytes, len, err) != 0)
        return bytes ? err->code : res_oom(err);
    /* A decision beyond the prior's data: the plan aims at the prior's
     * guess there, said as solve says it. */
    char outside_text[512] = "";
    unsigned outside = decision_outside(lf, &tmpl, r, outside_text, sizeof outside_text);
    if (outside)
        res_warn(res, LS_WARNING_EXTRAPOLATION, "decision", "the decision lies outside the ranges the prior was "
                 "fitted on (%s): an extrapolation; a plan aims at the prior's guess there", outside_text);
    if (validate)
        warn_validation(res, &st->val, r);
    char *json = plan_json(lf, &deploy, r, pp.budget_flops, validate ? &st->val : NULL, req_text(req, O_TRUTH), err);
    if (!json)
        return err->code;
    strbuf out = {0};
    if (req_format(req) == FMT_JSON)
        strbuf_puts(&out, json);
    else {
        print_summary(&out, lf, &deploy, r, pp.budget_flops, st->have != NULL, outside, outside_text);
        if (validate)
            print_validation(&out, &st->val, r, req_text(req, O_TRUTH), r->sigma);
    }
    res_set_json(res, json);
    int status = strbuf_failed(&out) ? res_oom(err) : res_write(res, out.buf, out.len);
    strbuf_free(&out);
    return status;
}

static int run(const ls_request *req, ls_result *res, ls_error *err)
{
    plan_state st;
    memset(&st, 0, sizeof st);
    int status = plan(req, res, &st, err);
    ls_lawfile_free(st.truth);
    ls_lawfile_free(st.lf);
    ls_sweep_free(st.have);
    free(st.x);
    free(st.axis_R);
    free(st.axis_E);
    free(st.draws);
    ls_plan_result_free(&st.result);
    return status;
}

static const cmd_option OPTIONS[] = {
    CMD_OPT_HELP(O_LAW_FILE, "the prior (law file)"),
    CMD_OPT(O_BUDGET),
    CMD_OPT(O_GPU_HOURS),
    CMD_OPT(O_FLOP_RATE),
    CMD_OPT_HELP(O_FLOPS, "deployment training budget of the decision, e.g. 1e22"),
    CMD_OPT_HELP(O_MEM, "deployment weight memory, e.g. 3GB"),
    CMD_OPT(O_BITS),
    {O_EPS, "solve's tolerance in loss units", NULL, "the law's fit RMSE", NULL},
    /* The memory side of serving only: a plan's decision compares losses,
     * not lifetime cost (--inference-tokens is solve's, frontier's and
     * report's). */
    CMD_OPT(O_SERVE_CONTEXT),
    CMD_OPT(O_BATCH),
    CMD_OPT(O_KV_BITS),
    CMD_OPT(O_ACTIVATION_MEMORY),
    CMD_OPT(O_QUANTISATION),
    CMD_OPT(O_TARGET),
    {O_N_ACT_LIST, "candidate active sizes (with --tokens: a grid)", NULL,
     "IsoFLOP ladders about the prior's optima, up to the budget over twice the parameters", NULL},
    {O_TOKENS_LIST, "candidate token counts (with --n-act)", NULL, "from the prior and the budget", NULL},
    {O_E_LIST, "candidate expert counts, also the decision's", "1,2,4,8,16", NULL, NULL},
    {O_R_LIST, "candidate loop counts, also the decision's", "1,2,3,4,6,8,16", NULL, NULL},
    CMD_OPT(O_CANDIDATES),
    CMD_OPT(O_TEMPLATE),
    CMD_OPT_HELP(O_HAVE, "runs already trained: counted first, never chosen again; read with the sweep options "
                         "that follow"),
    CMD_SWEEP_OPTIONS,
    {O_NOISE, NULL, NULL, "the prior's fit RMSE over the mean loss it predicts for the candidates", NULL},
    CMD_OPT(O_DRAWS),
    CMD_OPT(O_PRIOR_SD),
    CMD_OPT_HELP(O_THREADS, "threads"),
    CMD_OPT(O_SEARCH),
    CMD_OPT(O_VALIDATE),
    CMD_OPT(O_TRUTH),
    CMD_OPT(O_BASELINE_FLOPS),
    CMD_OPT_HELP(O_SEED, "random seed of the simulated sweeps (the search's and validation's)"),
    CMD_OPT(O_FORCE),
    CMD_OPT_HELP(O_FORMAT, "what standard output shows: the summary (table) or all of it as JSON"),
    CMD_OPT_HELP(O_OUTPUT, "the runs: CSV (.csv, .gz for gzip; not .json, .html...)"),
    CMD_OPT(O_QUIET),
    CMD_END,
};

const cmd_def CMD_PLAN = {
    .name = "plan",
    .summary = "which runs to train next, designed for a deployment decision",
    .usage = "--budget FLOPS --flops F [--mem BYTES] -o FILE [OPTIONS]\n"
             "--gpu-hours H --flop-rate RATE --flops F [--mem BYTES] -o FILE [OPTIONS]",
    .description =
        "Choose the runs to train next: among the candidates (every combination of N_act, tokens,\n"
        "E and R, through the architecture template), greedily add the run that most lowers the\n"
        "expected variance of the decision per training FLOP, until the sweep's budget is spent.\n"
        "The decision is the loss gap between the configuration the prior law chooses at the\n"
        "deployment budget (--flops, --mem, --bits, as for solve) and its runner-up; the variance\n"
        "comes from the Fisher information of the Huber fit, averaged over the prior's bootstrap\n"
        "draws (docs/plan.md).  Writes the runs as CSV\n"
        "(run_id,n_act,n_total,n_loop,R,E,k,tokens,flops,why) and prints a summary.  At most\n"
        "100,000 candidates, and 10,000,000 candidates times draws.",
    .operands = NULL,
    .min_operands = 0,
    .max_operands = 0,
    .formats = "table|json",
    .stdout_label = "the summary",
    .options = OPTIONS,
    .run = run,
};
