/*
 * solve — what a compute and memory budget should buy: loops R, experts E,
 * active size N_act and tokens D (docs/solver.md).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "commands/commands_internal.h"
#include "numtext_internal.h"

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

#define NROWS_MAX 17

/* The rows of the table: the eleven of every solve, with the quantisation
 * penalty after the loss, the KV cache and the whole memory after the
 * weights, and the costs last when they are asked for. */
typedef enum { ROW_QUANT = 1, ROW_MEMORY = 2, ROW_COST = 4 } row_set;

static size_t row_labels(unsigned rows, const char *labels[NROWS_MAX])
{
    size_t n = 0;
    labels[n++] = "R (loops)";
    labels[n++] = "E (experts)";
    labels[n++] = "N_act";
    labels[n++] = "N_total";
    labels[n++] = "N_loop";
    labels[n++] = "D (tokens)";
    labels[n++] = "tokens/N_act";
    labels[n++] = "loss (predicted)";
    if (rows & ROW_QUANT)
        labels[n++] = "of which quantisation";
    labels[n++] = "inference FLOPs/token";
    labels[n++] = "weight memory";
    if (rows & ROW_MEMORY) {
        labels[n++] = "KV cache";
        labels[n++] = "memory (all)";
    }
    labels[n++] = "N_unroll";
    if (rows & ROW_COST) {
        labels[n++] = "training FLOPs";
        labels[n++] = "inference FLOPs (life)";
        labels[n++] = "total FLOPs";
    }
    return n;
}

static void column_values(const ls_solve_candidate *c, unsigned rows, char cells[NROWS_MAX][40])
{
    if (!c->feasible) {
        for (int i = 0; i < NROWS_MAX; i++)
            snprintf(cells[i], 40, "-");
        return;
    }
    size_t n = 0;
    snprintf(cells[n++], 40, "%g", c->R);
    snprintf(cells[n++], 40, "%g", c->E);
    human(cells[n++], 40, c->n_act);
    human(cells[n++], 40, c->n_total);
    human(cells[n++], 40, c->n_loop);
    human(cells[n++], 40, c->tokens);
    star_if(cells[0], 40, c, LS_LAW_RANGE_R);
    star_if(cells[1], 40, c, LS_LAW_RANGE_E);
    star_if(cells[2], 40, c, LS_LAW_RANGE_N_ACT);
    star_if(cells[5], 40, c, LS_LAW_RANGE_TOKENS);
    snprintf(cells[n++], 40, "%.4g", c->tokens / c->n_act);
    text_fixed(cells[n++], 40, c->loss, 4);
    if (rows & ROW_QUANT)
        text_fixed(cells[n++], 40, c->quant_penalty, 4);
    human(cells[n++], 40, c->inference_flops);
    bytes_text(cells[n++], 40, c->weight_bytes);
    if (rows & ROW_MEMORY) {
        bytes_text(cells[n++], 40, c->kv_bytes);
        bytes_text(cells[n++], 40, c->memory_bytes);
    }
    human(cells[n++], 40, c->n_unroll);
    if (rows & ROW_COST) {
        human(cells[n++], 40, c->training_flops);
        human(cells[n++], 40, c->serving_flops);
        human(cells[n++], 40, c->training_flops + c->serving_flops);
    }
}

/* 1 when the interval [v[0], v[1]] of quantity q leaves the fitted range. */
static int interval_outside(const ls_law_ranges *ranges, ls_law_range q, const double v[2])
{
    if (!ranges || !ranges->known[q])
        return 0;
    return v[0] < ranges->lo[q] * (1 - 1e-9) || v[1] > ranges->hi[q] * (1 + 1e-9);
}

static void print_uncertainty(strbuf *out, const ls_solve_uncertainty *u, const ls_law_ranges *ranges)
{
    strbuf_printf(out, "\nUnder the law's %zu bootstrap draws (%g%% intervals of the chosen configuration):\n",
                  u->ndraws, 100 * u->level);
    for (size_t k = 0; k < u->nchoices; k++) {
        const ls_solve_choice_count *ch = &u->choices[k];
        /* What binds N_act* in those draws: the memory budget, or only the
         * compute budget (the IsoFLOP optimum). */
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
        strbuf_printf(out, "  R* = %-3g E* = %-3g %5.1f%%   binds: %s\n", ch->R, ch->E,
                      100.0 * (double)ch->count / (double)u->ndraws, binds);
    }
    /* An interval reaching beyond the fitted range is starred, as a value
     * of the table is. */
    int star_n = interval_outside(ranges, LS_LAW_RANGE_N_ACT, u->n_act),
        star_d = interval_outside(ranges, LS_LAW_RANGE_TOKENS, u->tokens);
    char lo[32], hi[32];
    if (isnan(u->loss[0]))
        strbuf_printf(out, "  no intervals: %zu %s had a feasible choice, and an interval needs at least %d\n",
                      u->ndraws, ls_plural((double)u->ndraws, "draw", "draws"), LS_FIT_MIN_INTERVAL_DRAWS);
    else
        strbuf_printf(out, "  N_act*  [%.4g, %.4g]%s\n  D*      [%.4g, %.4g]%s\n  loss    [%s, %s]\n", u->n_act[0],
                      u->n_act[1], star_n ? "*" : "", u->tokens[0], u->tokens[1], star_d ? "*" : "",
                      text_fixed(lo, sizeof lo, u->loss[0], 4), text_fixed(hi, sizeof hi, u->loss[1], 4));
    if (star_n || star_d) {
        strbuf_puts(out, "  * reaches outside the range the law was fitted on:");
        if (star_n)
            strbuf_printf(out, " N_act %.4g to %.4g%s", ranges->lo[LS_LAW_RANGE_N_ACT],
                          ranges->hi[LS_LAW_RANGE_N_ACT], star_d ? "," : "");
        if (star_d)
            strbuf_printf(out, " D %.4g to %.4g", ranges->lo[LS_LAW_RANGE_TOKENS], ranges->hi[LS_LAW_RANGE_TOKENS]);
        strbuf_puts(out, "\n");
    }
}

static void print_candidates(strbuf *out, const ls_solve_result *r, double eps, const ls_law_ranges *ranges)
{
    /* The cheapest search shows what each candidate costs, and "reaches"
     * for those that reach the target. */
    const char *headers[] = {"E", "R", "N_act", "D", "loss", "memory", "binds",
                             r->costed ? "total FLOPs" : "within eps", "reaches"};
    text_table *all = text_table_new(r->costed ? 9 : 8, headers);
    unsigned starred = 0;
    for (size_t i = 0; all && i < r->ncandidates; i++) {
        const ls_solve_candidate *cand = &r->candidates[i];
        char e[16], rr[16], n[32], d[32], l[32], m[32], bd[16], w[16], cost[32];
        snprintf(e, sizeof e, "%g", cand->E);
        snprintf(rr, sizeof rr, "%g", cand->R);
        if (cand->feasible) {
            human(n, sizeof n, cand->n_act);
            human(d, sizeof d, cand->tokens);
            text_fixed(l, sizeof l, cand->loss, 4);
            bytes_text(m, sizeof m, cand->memory_bytes); /* the weights' alone without serving options */
            snprintf(bd, sizeof bd, "%s", ls_solve_bound_name(cand->bound));
            human(cost, sizeof cost, cand->training_flops + cand->serving_flops);
            star_if(e, sizeof e, cand, LS_LAW_RANGE_E);
            star_if(rr, sizeof rr, cand, LS_LAW_RANGE_R);
            star_if(n, sizeof n, cand, LS_LAW_RANGE_N_ACT);
            star_if(d, sizeof d, cand, LS_LAW_RANGE_TOKENS);
            starred |= cand->outside;
        } else {
            snprintf(n, sizeof n, "-");
            snprintf(d, sizeof d, "-");
            snprintf(l, sizeof l, "%s", r->costed ? "out of reach" : "infeasible");
            snprintf(m, sizeof m, "-");
            snprintf(bd, sizeof bd, "-");
            snprintf(cost, sizeof cost, "-");
        }
        int chosen = cand->R == r->choice.R && cand->E == r->choice.E;
        if (r->costed)
            snprintf(w, sizeof w, "%s", chosen ? "chosen" : cand->feasible ? "yes" : "");
        else
            snprintf(w, sizeof w, "%s",
                     chosen ? "chosen" : cand->feasible && cand->loss <= r->best.loss + eps ? "yes" : "");
        const char *plain[] = {e, rr, n, d, l, m, bd, w}, *costed[] = {e, rr, n, d, l, m, bd, cost, w};
        if (text_table_add(all, r->costed ? costed : plain) != 0) {
            text_table_free(all);
            all = NULL;
        }
    }
    if (!all) {
        out->failed = 1;
        return;
    }
    strbuf_printf(out, "\nEvery candidate (%s):\n", r->costed ? "the cheapest N_act and D reaching the target "
                                                                  "under the memory budget"
                                                                : "N_act optimised under the memory budget");
    text_table_print(all, out, TABLE_ALIGNED);
    text_table_free(all);
    cmd_ranges_note(out, ranges, starred);
}

static void print_table(strbuf *out, const ls_lawfile *lf, const ls_solve_budget *b, double eps,
                        const ls_solve_result *r, const ls_solve_uncertainty *u, int show_all,
                        const ls_law_ranges *ranges)
{
    char kind[64], mem[256], train[96];
    int serving = ls_solve_budget_serving(b);
    if (isfinite(b->mem_bytes) && !serving)
        snprintf(mem, sizeof mem, "%.4g bytes of weights at %g bits (N_total <= %.4g)", b->mem_bytes, b->bits,
                 8 * b->mem_bytes / b->bits);
    else if (isfinite(b->mem_bytes))
        snprintf(mem, sizeof mem, "%.4g bytes for weights at %g bits", b->mem_bytes, b->bits);
    else
        snprintf(mem, sizeof mem, "no memory limit");
    if (b->context > 0) {
        size_t used = strlen(mem);
        snprintf(mem + used, sizeof mem - used, ", a KV cache of %g x %g tokens at %g bits", b->batch > 0 ? b->batch : 1,
                 b->context, ls_solve_budget_kv_bits(b));
    }
    if (b->activation_bytes > 0) {
        size_t used = strlen(mem);
        snprintf(mem + used, sizeof mem - used, " and %.4g bytes of activations", b->activation_bytes);
    }
    if (b->flops > 0 && isfinite(b->flops))
        snprintf(train, sizeof train, "%.4g training %s%s", b->flops, ls_plural(b->flops, "FLOP", "FLOPs"),
                 b->target_loss > 0 ? " at most" : "");
    else
        snprintf(train, sizeof train, "training as it costs");
    strbuf_printf(out, "law      %s\nbudget   %s; %s\n", ls_law_kind_format(lf->law.kind, kind, sizeof kind), train, mem);
    if (r->costed) {
        char tokens[48] = "no inference";
        if (b->inference_tokens > 0)
            snprintf(tokens, sizeof tokens, "%.4g inference tokens", b->inference_tokens);
        char target[24];
        text_fixed(target, sizeof target, r->target_loss, 4);
        strbuf_printf(out, "cost     training + %s, to reach a loss of %s%s\n", tokens, target,
                      b->target_loss > 0 ? "" : " (the best loss + epsilon)");
    }
    strbuf_printf(out, "epsilon  %.4g (loss units)\n\n", eps);
    unsigned rows = (r->quantised ? ROW_QUANT : 0) | (serving ? ROW_MEMORY : 0) | (r->costed ? ROW_COST : 0);
    const char *labels[NROWS_MAX];
    size_t nrows = row_labels(rows, labels);
    char a[NROWS_MAX][40], bb[NROWS_MAX][40], c[NROWS_MAX][40];
    column_values(&r->choice, rows, a);
    column_values(&r->best, rows, bb);
    column_values(&r->unconstrained, rows, c);
    const char *headers[] = {"", "chosen", "lowest loss", "no memory limit"};
    text_table *t = text_table_new(4, headers);
    for (size_t i = 0; t && i < nrows; i++) {
        const char *cells[] = {labels[i], a[i], bb[i], c[i]};
        if (text_table_add(t, cells) != 0) {
            text_table_free(t);
            t = NULL;
        }
    }
    if (!t) {
        out->failed = 1;
        return;
    }
    text_table_print(t, out, TABLE_ALIGNED);
    text_table_free(t);
    unsigned shown = (r->has_choice ? r->choice.outside : 0) | (r->best.feasible ? r->best.outside : 0) |
                     (r->unconstrained.feasible ? r->unconstrained.outside : 0);
    /* F has no row of its own: the budget line carries it. */
    cmd_ranges_note(out, ranges, shown);
    if (u)
        print_uncertainty(out, u, ranges);
    if (show_all)
        print_candidates(out, r, eps, ranges);
}

/* Why no candidate could be chosen. */
static int no_choice(const ls_request *req, const ls_law *l, const ls_solve_budget *b, const ls_solve_result *r,
                     ls_error *err)
{
    if (r->costed && b->target_loss > 0) {
        char target[24], floor[96] = "";
        text_fixed(target, sizeof target, b->target_loss, 4);
        /* No size or token count goes below the law's irreducible loss. */
        if (b->target_loss <= l->p[LS_LAW_P_C])
            snprintf(floor, sizeof floor, " (the law's irreducible loss c is %.4f: no model reaches below it)",
                     l->p[LS_LAW_P_C]);
        return ls_error_set(err, LS_ERR_DATA, "no candidate reaches a loss of %s%s%s%s", target,
                            isfinite(b->mem_bytes) ? " in the memory given" : "",
                            b->flops > 0 && isfinite(b->flops) ? " within the training budget" : "", floor);
    }
    if (isfinite(b->mem_bytes) && ls_solve_budget_serving(b))
        return ls_error_set(err, LS_ERR_DATA, "no candidate fits in %g bytes with its weights at %g bits, its KV cache "
                            "and activations", b->mem_bytes, b->bits);
    if (isfinite(b->mem_bytes))
        return ls_error_set(err, LS_ERR_DATA, "no candidate fits in %g bytes at %g bits per weight", b->mem_bytes,
                            b->bits);
    size_t n;
    const double *ladder = req_list(req, O_N_ACT_LIST, &n);
    if (ladder) { /* every size given leaves less than one token */
        double smallest = ladder[0];
        for (size_t i = 1; i < n; i++)
            smallest = fmin(smallest, ladder[i]);
        return ls_error_set(err, LS_ERR_DATA, "no model fits a budget of %g FLOPs: the smallest %s, %g, leaves less "
                            "than one training token", b->flops, req_flag(req, O_N_ACT_LIST), smallest);
    }
    /* nothing of 1000 active parameters trains on one token */
    return ls_error_set(err, LS_ERR_DATA, "no model fits a budget of %g %s", b->flops,
                        ls_plural(b->flops, "FLOP", "FLOPs"));
}

static int run(const ls_request *req, ls_result *res, ls_error *err)
{
    ls_figure figure, figure_rho;
    int status = cmd_figure(req, O_PLOT, &figure, err);
    if (status == 0)
        status = cmd_figure(req, O_PLOT_RHO, &figure_rho, err);
    static const opt_id plots[] = {O_PLOT, O_PLOT_RHO};
    const ls_figure *figures[] = {&figure, &figure_rho};
    if (status == 0)
        status = cmd_figure_options_check(req, 2, plots, figures, err);
    /* --ci and --threads only mean something to --uncertainty. */
    static const opt_id uncertainty_only[] = {O_CI, O_THREADS};
    for (size_t i = 0; status == 0 && i < 2; i++)
        if (req_given(req, uncertainty_only[i]) && !req_given(req, O_UNCERTAINTY))
            status = req_usage(req, err, "%s has no effect without %s", req_flag(req, uncertainty_only[i]),
                               req_flag(req, O_UNCERTAINTY));
    if (status == 0)
        status = cmd_serving_check(req, err);
    if (status != 0)
        return status;

    ls_arch_template tmpl;
    if (cmd_template_read(req, &tmpl, err) != 0)
        return err->code;
    if (!req_given(req, O_FLOPS) && !req_given(req, O_TARGET_LOSS) && !req_given(req, O_PRINT_TEMPLATE))
        return req_usage(req, err, "give the compute budget with %s F", req_flag(req, O_FLOPS));
    ls_lawfile *lf = cmd_read_law(req, res, O_LAW_FILE, err);
    if (!lf)
        return err->code;
    cmd_template_for_law(req, res, lf, cmd_law_name(req, O_LAW_FILE), &tmpl);
    if (req_given(req, O_PRINT_TEMPLATE)) {
        char *text = cmd_template_flops(req, lf, &tmpl, err) == 0 ? ls_arch_template_to_json(&tmpl, err) : NULL;
        ls_lawfile_free(lf);
        if (!text)
            return err->code;
        res_printf(res, "%s", text);
        res_set_json(res, text);
        return 0;
    }
    ls_law *draws = NULL;
    ls_solve_result result;
    ls_solve_uncertainty unc;
    memset(&result, 0, sizeof result);
    memset(&unc, 0, sizeof unc);
    unsigned char *svg = NULL, *svg_rho = NULL;
    size_t lens[2] = {0, 0};
    if ((status = cmd_template_flops(req, lf, &tmpl, err)) != 0)
        goto done;
    /* The default lists stay inside the R and E the law was fitted on. */
    ls_law_ranges ranges;
    ls_lawfile_ranges(lf, &ranges);
    cmd_candidates room;
    ls_solve_options so = {.ranges = &ranges};
    so.ladder = req_list(req, O_N_ACT_LIST, &so.nladder);
    cmd_candidates_of(req, res, &tmpl, &room, &so);
    double eps = cmd_eps(req, res, lf);
    so.eps = eps;
    ls_solve_budget budget = cmd_budget(req);
    cmd_quant quant;
    if ((status = cmd_serving(req, res, lf, &tmpl, &budget, &so, &quant, err)) != 0)
        goto done;
    fmt_kind format = req_format(req);
    if (!isfinite(budget.mem_bytes) && format == FMT_TABLE)
        res_note(res, "no %s given: no memory limit", req_flag(req, O_MEM));
    if ((status = ls_solve_run(&lf->law, &tmpl, &budget, &so, &result, err)) != 0)
        goto done;
    if (!result.has_choice) {
        status = no_choice(req, &lf->law, &budget, &result, err);
        goto done;
    }
    if (!result.costed && eps > 0 && result.choice.loss > result.best.loss) {
        /* An epsilon that covers every candidate decides nothing: the choice
         * is then only the cheapest one, which must not happen silently. */
        double worst = result.best.loss;
        for (size_t i = 0; i < result.ncandidates; i++)
            if (result.candidates[i].feasible && result.candidates[i].loss > worst)
                worst = result.candidates[i].loss;
        if (worst - result.best.loss <= eps)
            res_warn(res, LS_WARNING_DECISION, "epsilon", "epsilon %g%s covers the loss of every candidate (they span "
                     "%.4g): the choice is only the cheapest to serve", eps,
                     req_given(req, O_EPS) ? "" : " (the law file's fit.rmse)", worst - result.best.loss);
    }
    cmd_warn_solve(req, res, &so, &result, NULL);

    if (req_given(req, O_UNCERTAINTY)) {
        draws = malloc((lf->ndraws ? lf->ndraws : 1) * sizeof *draws);
        if (!draws) {
            status = res_oom(err);
            goto done;
        }
        for (size_t i = 0; i < lf->ndraws; i++)
            ls_lawfile_draw(lf, i, &draws[i]);
        if ((status = ls_solve_run_uncertainty(draws, lf->ndraws, &tmpl, &budget, &so, req_number(req, O_CI),
                                               req_threads(req), &unc, err)) != 0)
            goto done;
    }
    /* The figures are drawn before anything is printed, so that a figure
     * that cannot be drawn leaves no half of the output. */
    if (req_given(req, O_PLOT) && ls_plot_band_draws(lf, 1) == 0)
        res_note(res, "no bootstrap draws in the law: the plot has no band (fit --bootstrap N records them)");
    if (req_given(req, O_PLOT) &&
        !(svg = cmd_plot_solve(req, lf, &tmpl, &budget, &so, &result, &figure, &lens[0], err))) {
        status = err->code;
        goto done;
    }
    if (req_given(req, O_PLOT_RHO)) {
        double r_max = 1;
        for (size_t i = 0; i < so.nR; i++)
            r_max = fmax(r_max, so.R[i]);
        if (!(svg_rho = cmd_plot_rho_eff(lf, &tmpl, so.E, so.nE, fmax(r_max, 2), &figure_rho, &lens[1], err))) {
            status = err->code;
            goto done;
        }
    }
    const ls_solve_uncertainty *u = req_given(req, O_UNCERTAINTY) ? &unc : NULL;
    char *json = ls_solve_result_to_json(&budget, eps, &result, u, req_given(req, O_TABLE), err);
    if (!json) {
        status = err->code;
        goto done;
    }
    res_set_json(res, json);
    if (format == FMT_JSON)
        res_printf(res, "%s", json);
    else {
        strbuf out = {0};
        print_table(&out, lf, &budget, eps, &result, u, req_given(req, O_TABLE), &ranges);
        if (strbuf_failed(&out))
            status = res_oom(err);
        else if (out.len)
            res_write(res, out.buf, out.len);
        strbuf_free(&out);
    }
    if (status == 0 && svg)
        status = res_output(res, O_PLOT, req_text(req, O_PLOT), svg, lens[0], err);
    svg = NULL;
    if (status == 0 && svg_rho)
        status = res_output(res, O_PLOT_RHO, req_text(req, O_PLOT_RHO), svg_rho, lens[1], err);
    svg_rho = NULL;
done:
    free(svg);
    free(svg_rho);
    ls_solve_uncertainty_free(&unc);
    ls_solve_result_free(&result);
    free(draws);
    ls_lawfile_free(lf);
    return status;
}

static const cmd_option OPTIONS[] = {
    CMD_OPT(O_LAW_FILE),
    CMD_OPT(O_FLOPS),
    CMD_OPT(O_MEM),
    CMD_OPT(O_BITS),
    CMD_OPT(O_TEMPLATE),
    CMD_OPT(O_PRINT_TEMPLATE),
    CMD_OPT(O_FLOPS_CONVENTION),
    {O_R_LIST, NULL, NULL, "1,2,...,16, up to the largest R the law was fitted on", NULL},
    {O_E_LIST, NULL, NULL, "1,2,4,8,16,32,64, up to the largest E the law was fitted on", NULL},
    {O_N_ACT_LIST, "choose N_act from this ladder", NULL, "continuous", NULL},
    CMD_OPT(O_EPS),
    CMD_SERVING_OPTIONS,
    CMD_OPT(O_TARGET_LOSS),
    CMD_OPT(O_TABLE),
    CMD_OPT(O_UNCERTAINTY),
    CMD_OPT_HELP(O_CI, "interval level of --uncertainty"),
    CMD_OPT_HELP(O_THREADS, "threads for --uncertainty and the bands of --plot"),
    CMD_OPT(O_FORMAT),
    CMD_OPT_HELP(O_PLOT, "draw the loss of the best N_act against R for each E under the budget, losses out of reach "
                         "shaded, the choice marked"),
    CMD_OPT(O_PLOT_RHO),
    CMD_PLOT_OPTIONS,
    CMD_OPT(O_FORCE),
    CMD_OPT(O_QUIET),
    CMD_END,
};

const cmd_def CMD_SOLVE = {
    .name = "solve",
    .summary = "the loops, experts, size and tokens a compute and memory limit buys",
    .usage = "--flops F [--mem BYTES] [OPTIONS]",
    .description =
        "Find the loop count R*, expert count E*, active size N_act* and tokens D* that a\n"
        "training budget of F FLOPs and a weight-memory budget of BYTES should buy, under a law.\n"
        "D = F / (6 N_unroll) spends the whole budget; N_total (b_w bits per weight) must fit in\n"
        "memory.  Among the candidates within epsilon of the best feasible loss, the one with the\n"
        "fewest loops, then the fewest experts, is chosen: cheapest to serve.",
    .operands = NULL,
    .min_operands = 0,
    .max_operands = 0,
    .formats = "table|json",
    .stdout_label = "the table",
    .options = OPTIONS,
    .run = run,
};
