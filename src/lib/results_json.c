/*
 * results_json.c — holdout and solve results as the JSON documents the
 * program prints with --format json (holdout.h, solve.h).  They live in the
 * library so that every caller (the CLI, the bindings) writes the same
 * document from the same numbers.
 */
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "loopscale/warning.h"
#include "loopscale/holdout.h"
#include "loopscale/diagnose.h"
#include "jsonw_internal.h"
#include "loopscale/law.h"
#include "loopscale/solve.h"

char *ls_holdout_result_to_json(const ls_holdout_result *r, ls_error *err)
{
    jsonw w;
    ls_jsonw_init(&w);
    char kind[64];
    ls_jsonw_object_begin(&w, NULL);
    ls_jsonw_string(&w, "format", "loopscale-holdout/1");
    ls_jsonw_integer(&w, "n", (long long)r->n);
    ls_jsonw_array_begin(&w, "laws", 0);
    for (size_t l = 0; l < r->nlaws; l++) {
        ls_jsonw_object_begin(&w, NULL);
        ls_jsonw_string(&w, "law", ls_law_kind_format(r->laws[l], kind, sizeof kind));
        ls_jsonw_integer(&w, "k", (long long)r->nfree[l]);
        ls_jsonw_number(&w, "in_sample_rmse", r->in_sample_rmse[l]);
        ls_jsonw_bool(&w, "converged", r->in_sample_converged[l]);
        ls_jsonw_number(&w, "aic", r->aic[l]);
        ls_jsonw_number(&w, "bic", r->bic[l]);
        ls_jsonw_array_begin(&w, "heldout", 0);
        for (size_t c = 0; c < r->ncolumns; c++) {
            const ls_holdout_column *col = &r->columns[c];
            const ls_holdout_cell *cell = &r->cells[l * r->ncolumns + c];
            if (col->skipped || isnan(cell->rmse))
                continue;
            ls_jsonw_object_begin(&w, NULL);
            ls_jsonw_string(&w, "axis", ls_holdout_axis_name(col->axis));
            ls_jsonw_string(&w, "test", col->label);
            ls_jsonw_integer(&w, "train_runs", (long long)col->ntrain);
            ls_jsonw_integer(&w, "test_runs", (long long)col->ntest);
            ls_jsonw_number(&w, "rmse", cell->rmse);
            ls_jsonw_bool(&w, "converged", cell->converged);
            ls_jsonw_object_end(&w);
        }
        ls_jsonw_array_end(&w);
        ls_jsonw_object_end(&w);
    }
    ls_jsonw_array_end(&w);
    char *warnings = ls_holdout_diagnose(r);
    if (!warnings) {
        ls_jsonw_discard(&w);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        return NULL;
    }
    /* As every document's warnings: {code, subject, message}. */
    ls_jsonw_array_begin(&w, "warnings", 0);
    for (char *line = warnings, *end; (end = strchr(line, '\n')); line = end + 1) {
        *end = '\0';
        ls_jsonw_object_begin(&w, NULL);
        ls_jsonw_string(&w, "code", ls_warning_code_name(LS_WARNING_FIT_QUALITY));
        ls_jsonw_string(&w, "subject", "");
        ls_jsonw_string(&w, "message", line);
        ls_jsonw_object_end(&w);
    }
    ls_jsonw_array_end(&w);
    free(warnings);
    ls_jsonw_object_end(&w);
    return ls_jsonw_finish(&w, err);
}

/* What a candidate's document shows beyond weights and loss. */
enum { SHOW_MEMORY = 1, SHOW_COST = 2, SHOW_QUANT = 4 };

static void json_candidate(jsonw *w, const char *key, const ls_solve_candidate *c, unsigned show)
{
    ls_jsonw_object_begin(w, key);
    ls_jsonw_bool(w, "feasible", c->feasible);
    if (c->feasible) {
        ls_jsonw_number(w, "R", c->R);
        ls_jsonw_number(w, "E", c->E);
        ls_jsonw_number(w, "n_act", c->n_act);
        ls_jsonw_number(w, "n_total", c->n_total);
        ls_jsonw_number(w, "n_loop", c->n_loop);
        ls_jsonw_number(w, "n_unroll", c->n_unroll);
        ls_jsonw_number(w, "tokens", c->tokens);
        ls_jsonw_number(w, "tokens_per_parameter", c->tokens / c->n_act);
        ls_jsonw_number(w, "loss", c->loss);
        ls_jsonw_number(w, "inference_flops_per_token", c->inference_flops);
        ls_jsonw_number(w, "weight_bytes", c->weight_bytes);
        if (show & SHOW_MEMORY) {
            ls_jsonw_number(w, "kv_bytes", c->kv_bytes);
            ls_jsonw_number(w, "memory_bytes", c->memory_bytes);
        }
        if (show & SHOW_QUANT)
            ls_jsonw_number(w, "quant_penalty", c->quant_penalty);
        if (show & SHOW_COST) {
            ls_jsonw_number(w, "training_flops", c->training_flops);
            ls_jsonw_number(w, "inference_flops", c->serving_flops);
            ls_jsonw_number(w, "total_flops", c->training_flops + c->serving_flops);
        }
        ls_jsonw_string(w, "bound", ls_solve_bound_name(c->bound));
        /* The quantities beyond the ranges the law was fitted on. */
        ls_jsonw_array_begin(w, "outside", 1);
        for (int q = 0; q < LS_LAW_NRANGES; q++)
            if (c->outside >> q & 1u)
                ls_jsonw_string(w, NULL, ls_law_range_name((ls_law_range)q));
        ls_jsonw_array_end(w);
    }
    ls_jsonw_object_end(w);
}

static void json_bounds(jsonw *w, const size_t bound[LS_SOLVE_NBOUNDS], size_t n)
{
    ls_jsonw_object_begin(w, "bound");
    for (int k = 0; k < LS_SOLVE_NBOUNDS; k++)
        ls_jsonw_number(w, ls_solve_bound_name((ls_solve_bound)k), n ? (double)bound[k] / (double)n : 0.0);
    ls_jsonw_object_end(w);
}

char *ls_solve_result_to_json(const ls_solve_budget *b, double eps, const ls_solve_result *r, const ls_solve_uncertainty *u,
                              int with_candidates, ls_error *err)
{
    jsonw w;
    ls_jsonw_init(&w);
    ls_jsonw_object_begin(&w, NULL);
    ls_jsonw_string(&w, "format", "loopscale-solve/1");
    if (b->flops > 0 && isfinite(b->flops))
        ls_jsonw_number(&w, "flops", b->flops);
    if (isfinite(b->mem_bytes))
        ls_jsonw_number(&w, "mem_bytes", b->mem_bytes);
    ls_jsonw_number(&w, "bits", b->bits);
    unsigned show = (ls_solve_budget_serving(b) ? SHOW_MEMORY : 0) | (r->costed ? SHOW_COST : 0) |
                    (r->quantised ? SHOW_QUANT : 0);
    if (show & SHOW_MEMORY) {
        ls_jsonw_number(&w, "context", b->context);
        ls_jsonw_number(&w, "batch", b->context > 0 ? (b->batch > 0 ? b->batch : 1) : 0);
        ls_jsonw_number(&w, "kv_bits", ls_solve_budget_kv_bits(b));
        ls_jsonw_number(&w, "activation_bytes", b->activation_bytes);
    }
    if (show & SHOW_COST) {
        ls_jsonw_number(&w, "inference_tokens", b->inference_tokens);
        if (r->target_loss > 0)
            ls_jsonw_number(&w, "target_loss", r->target_loss);
    }
    ls_jsonw_number(&w, "eps", eps);
    json_candidate(&w, "chosen", &r->choice, show);
    json_candidate(&w, "lowest_loss", &r->best, show);
    json_candidate(&w, "unconstrained", &r->unconstrained, show);
    ls_jsonw_array_begin(&w, "warnings", 0);
    for (size_t i = 0; i < r->nwarnings; i++) {
        const ls_solve_warning *x = &r->warnings[i];
        ls_jsonw_object_begin(&w, NULL);
        ls_jsonw_string(&w, "code", ls_warning_code_name(LS_WARNING_EXTRAPOLATION));
        ls_jsonw_string(&w, "subject", x->configuration);
        ls_jsonw_string(&w, "configuration", x->configuration);
        ls_jsonw_string(&w, "quantity", ls_law_range_name(x->quantity));
        ls_jsonw_number(&w, "value", x->value);
        ls_jsonw_array_begin(&w, "fitted", 1);
        ls_jsonw_number(&w, NULL, x->lo);
        ls_jsonw_number(&w, NULL, x->hi);
        ls_jsonw_array_end(&w);
        ls_jsonw_string(&w, "message", x->message);
        ls_jsonw_object_end(&w);
    }
    ls_jsonw_array_end(&w);
    ls_jsonw_integer(&w, "candidates_outside", (long long)r->ncandidates_outside);
    if (u) {
        ls_jsonw_object_begin(&w, "uncertainty");
        ls_jsonw_integer(&w, "draws", (long long)u->ndraws);
        ls_jsonw_number(&w, "level", u->level);
        ls_jsonw_array_begin(&w, "choices", 0);
        for (size_t k = 0; k < u->nchoices; k++) {
            ls_jsonw_object_begin(&w, NULL);
            ls_jsonw_number(&w, "R", u->choices[k].R);
            ls_jsonw_number(&w, "E", u->choices[k].E);
            ls_jsonw_number(&w, "share", (double)u->choices[k].count / (double)u->ndraws);
            json_bounds(&w, u->choices[k].bound, u->choices[k].count);
            ls_jsonw_object_end(&w);
        }
        ls_jsonw_array_end(&w);
        json_bounds(&w, u->bound, u->ndraws);
        const char *names[] = {"n_act", "tokens", "loss"};
        const double *values[] = {u->n_act, u->tokens, u->loss};
        for (int q = 0; q < 3; q++) {
            if (!isfinite(values[q][0]) || !isfinite(values[q][1]))
                continue; /* too few draws for an interval */
            ls_jsonw_array_begin(&w, names[q], 1);
            ls_jsonw_number(&w, NULL, values[q][0]);
            ls_jsonw_number(&w, NULL, values[q][1]);
            ls_jsonw_array_end(&w);
        }
        ls_jsonw_object_end(&w);
    }
    if (with_candidates) {
        ls_jsonw_array_begin(&w, "candidates", 0);
        for (size_t i = 0; i < r->ncandidates; i++)
            json_candidate(&w, NULL, &r->candidates[i], show);
        ls_jsonw_array_end(&w);
    }
    ls_jsonw_object_end(&w);
    return ls_jsonw_finish(&w, err);
}
