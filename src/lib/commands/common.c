/*
 * common.c — what several commands' entry points share (commands_internal.h).
 */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "commands/commands_internal.h"
#include "shape_internal.h"
#include "numtext_internal.h"

/* ---- output ------------------------------------------------------------------------ */

const char *cmd_input_name(const char *path)
{
    return strcmp(path, "-") == 0 ? "standard input" : path;
}

int cmd_json(const ls_request *req, ls_result *res, jsonw *w, ls_error *err)
{
    char *json = ls_jsonw_finish(w, err);
    if (!json)
        return err->code;
    res_set_json(res, json);
    return req_format(req) == FMT_JSON ? res_printf(res, "%s", json) : 0;
}

void cmd_json_warnings(jsonw *w, const ls_warnings *warnings)
{
    ls_jsonw_array_begin(w, "warnings", 0);
    for (size_t i = 0; i < warnings->n; i++) {
        ls_jsonw_object_begin(w, NULL);
        ls_jsonw_string(w, "code", ls_warning_code_name(warnings->v[i].code));
        ls_jsonw_string(w, "subject", warnings->v[i].subject);
        ls_jsonw_string(w, "message", warnings->v[i].message);
        ls_jsonw_object_end(w);
    }
    ls_jsonw_array_end(w);
}

int cmd_print(ls_result *res, strbuf *out, ls_error *err)
{
    int status = strbuf_failed(out) ? res_oom(err) : 0;
    if (status == 0 && out->len && (status = res_write(res, out->buf, out->len)) != 0)
        status = status == LS_ERR_IO ? ls_error_set(err, LS_ERR_IO, "cannot write standard output") : res_oom(err);
    strbuf_free(out);
    return status;
}

/* ---- shapes ------------------------------------------------------------------------ */

/* The integer options and the field of the shape each sets. */
static const struct {
    opt_id id;
    size_t offset;
} INT_OPTIONS[] = {
    {O_D_MODEL, offsetof(ls_shape_spec, d_model)},         {O_D_FF, offsetof(ls_shape_spec, d_ff)},
    {O_D_EXPERT, offsetof(ls_shape_spec, d_expert)},       {O_TOP_K, offsetof(ls_shape_spec, top_k)},
    {O_VOCAB, offsetof(ls_shape_spec, vocab)},             {O_EXPERTS, offsetof(ls_shape_spec, experts)},
    {O_LAYERS, offsetof(ls_shape_spec, layers)},           {O_LOOPS, offsetof(ls_shape_spec, loops)},
    {O_HEAD_LAYERS, offsetof(ls_shape_spec, head_layers)}, {O_TAIL_LAYERS, offsetof(ls_shape_spec, tail_layers)},
    {O_HEAD_EXPERTS, offsetof(ls_shape_spec, head_experts)},
    {O_TAIL_EXPERTS, offsetof(ls_shape_spec, tail_experts)},
    {O_HEADS, offsetof(ls_shape_spec, heads)},             {O_KV_HEADS, offsetof(ls_shape_spec, kv_heads)},
    {O_HEAD_DIM, offsetof(ls_shape_spec, head_dim)},       {O_CONTEXT, offsetof(ls_shape_spec, context)},
    {O_SHARED_EXPERTS, offsetof(ls_shape_spec, shared_experts)},
    {O_MOE_LAYERS, offsetof(ls_shape_spec, moe_layers)},
};

/* The options that take a word, and the field and key of each. */
static const struct {
    opt_id id;
    const char *key;
    size_t offset;
} CHOICE_OPTIONS[] = {
    {O_ATTENTION, "attention", offsetof(ls_shape_spec, attention)},
    {O_EMBEDDINGS, "embeddings", offsetof(ls_shape_spec, embeddings)},
    {O_MLP, "mlp", offsetof(ls_shape_spec, mlp)},
    {O_INJECTION, "injection", offsetof(ls_shape_spec, injection)},
    {O_NORMS, "norms", offsetof(ls_shape_spec, norm_params)},
};

int cmd_shape_of(const ls_request *req, ls_shape_spec *s, ls_shape_counts *c, ls_error *err)
{
    ls_shape_spec given;
    ls_shape_spec_unset(&given);
    ls_shape_spec_unset(s);
    for (size_t i = 0; i < sizeof INT_OPTIONS / sizeof *INT_OPTIONS; i++)
        if (req_given(req, INT_OPTIONS[i].id))
            *(long *)((char *)&given + INT_OPTIONS[i].offset) = req_integer(req, INT_OPTIONS[i].id);
    for (size_t i = 0; i < sizeof CHOICE_OPTIONS / sizeof *CHOICE_OPTIONS; i++)
        if (req_given(req, CHOICE_OPTIONS[i].id))
            *(long *)((char *)&given + CHOICE_OPTIONS[i].offset) =
                ls_shape_choice_parse(CHOICE_OPTIONS[i].key, req_text(req, CHOICE_OPTIONS[i].id));
    if (req_given(req, O_NORM_PARAMS) && req_given(req, O_NORMS))
        return ls_error_set(err, LS_ERR_USAGE, "%s and %s: give one (%s is %s pre)", req_flag(req, O_NORM_PARAMS),
                            req_flag(req, O_NORMS), req_flag(req, O_NORM_PARAMS), req_flag(req, O_NORMS));
    if (req_given(req, O_NORM_PARAMS))
        given.norm_params = LS_SHAPE_NORMS_PRE;
    if (req_given(req, O_EMBEDDING_NORM))
        given.embedding_norm = 1;
    if (req_given(req, O_LOOP_NORM))
        given.loop_norm = 1;
    const char *path = req_text(req, O_SHAPE);
    if (path && ls_shape_spec_read(path, s, err) != 0)
        return err->code;
    ls_shape_spec_merge(s, &given);
    int status = ls_shape_check_stages(s, err);
    if (status == 0)
        status = ls_shape_resolve(s, err);
    if (status == 0)
        status = ls_shape_check_shared(s, err);
    if (status == 0 && ls_shape_count_params(s, c, err) == 0)
        return 0;
    if (path) { /* the fault may lie in the file: bad data, named */
        ls_error_prefix(err, "%s", path);
        err->code = LS_ERR_DATA;
    } else if (err->code == LS_ERR_DATA) /* the options' own fault */
        err->code = LS_ERR_USAGE;
    return err->code;
}

/* ---- laws and templates ---------------------------------------------------------- */

ls_lawfile *cmd_read_law(const ls_request *req, ls_result *res, opt_id option, ls_error *err)
{
    const char *path = req_text(req, option);
    ls_lawfile *lf = path ? ls_lawfile_read(path, err) : ls_lawfile_default(err);
    if (!lf)
        return NULL;
    if (!path)
        res_note(res, "using the default law (%s); %s FILE for another", LS_LAWFILE_DEFAULT_DESCRIPTION,
                 req_flag(req, option));
    ls_warnings w = {0};
    if (path && ls_lawfile_check_fit(lf, path, req_given(req, O_FORCE), req_flag(req, O_FORCE), &w, err) != 0) {
        ls_lawfile_free(lf);
        lf = NULL;
    }
    for (size_t i = 0; i < w.n; i++)
        res_warn(res, w.v[i].code, w.v[i].subject, "%s", w.v[i].message);
    ls_warnings_free(&w);
    /* What the fit said of the law goes with it to every command that uses
     * it: an answer from a law whose exponent the runs left open is no
     * surer than the fit was. */
    const char *name = cmd_law_name(req, option);
    for (size_t i = 0; lf && i < lf->warnings.n; i++)
        res_warn(res, LS_WARNING_LAW, name, "%s's fit: %s", name, lf->warnings.v[i].message);
    return lf;
}

int cmd_law_exponent(const ls_lawfile *lf, double a, ls_fit_exponent *out, const char **held_from)
{
    const ls_lawfile_fit *f = &lf->fit;
    if (!lf->has_fit || !f->has_optimum || !(fabs(f->optimum_a - a) <= 1e-9 * fmax(fabs(a), 1.0)))
        return 0;
    *out = (ls_fit_exponent){a, NAN, f->optimum_level, f->optimum_low, f->optimum_high, f->optimum_draws};
    if (held_from)
        *held_from = f->optimum_held_from;
    return 1;
}

void cmd_exponent_text(char *buf, size_t size, const ls_fit_exponent *e, const char *held_from)
{
    if (held_from)
        snprintf(buf, size, "a in [%.4f, %.4f] (%g%%, held from %s)", e->low, e->high, 100 * e->level, held_from);
    else if (e->ndraws > 0)
        snprintf(buf, size, "a in [%.4f, %.4f] (%g%% of %zu draws)", e->low, e->high, 100 * e->level, e->ndraws);
    else
        snprintf(buf, size, "a in [%.4f, %.4f] (%g%%, from the standard errors)", e->low, e->high, 100 * e->level);
}

int cmd_template_read(const ls_request *req, ls_arch_template *t, ls_error *err)
{
    ls_arch_template_default(t);
    const char *path = req_text(req, O_TEMPLATE);
    if (path && ls_arch_template_read(path, t, err) != 0)
        return err->code;
    return 0;
}

const char *cmd_law_name(const ls_request *req, opt_id option)
{
    const char *path = req_text(req, option);
    return path ? cmd_input_name(path) : "the default law";
}

/* "E = 8, R = 2" (and k when it is not 1). */
static void config_text(char *buf, size_t size, const ls_arch_config *c)
{
    if (c->k > 1)
        snprintf(buf, size, "E = %g, R = %g, k = %g", c->E, c->R, c->k);
    else
        snprintf(buf, size, "E = %g, R = %g", c->E, c->R);
}

void cmd_template_for_law(const ls_request *req, ls_result *res, const ls_lawfile *lf, const char *law_name,
                          ls_arch_template *t)
{
    char what[256], at[64];
    const char *path = req_text(req, O_TEMPLATE);
    if (!lf->has_architecture) {
        if (!path) {
            ls_arch_template_describe(t, what, sizeof what);
            res_note(res, "%s records no architecture: the default template (the paper's middle-cycle looping: %s); "
                     "%s FILE for another", law_name, what, req_flag(req, O_TEMPLATE));
        }
        return;
    }
    const ls_arch_record *r = &lf->architecture;
    if (!path) {
        /* The law's own: the architecture of the runs it was fitted on. */
        *t = r->tmpl;
        if (r->residual_total > LS_ARCH_TOLERANCE || r->residual_loop > LS_ARCH_TOLERANCE) {
            ls_arch_template_describe(t, what, sizeof what);
            res_warn(res, LS_WARNING_ARCHITECTURE, law_name,
                     "%s: no single template reproduces the runs it was fitted on (N_total/N_act up to %.3g%% from "
                     "the best fit, N_loop/N_act up to %.3g%%): the answers are for the best fit (%s); %s FILE for "
                     "another", law_name, 100 * r->residual_total, isnan(r->residual_loop) ? 0 : 100 * r->residual_loop,
                     what, req_flag(req, O_TEMPLATE));
        }
        return;
    }
    ls_arch_difference d;
    ls_arch_compare(t, r, &d);
    if (!(d.total > LS_ARCH_TOLERANCE) && !(d.loop > LS_ARCH_TOLERANCE))
        return;
    char parts[2][192] = {"", ""};
    if (d.total > LS_ARCH_TOLERANCE) {
        const ls_arch_config *c = d.total_at;
        config_text(at, sizeof at, c);
        double had = d.total_ratio < c->total_ratio[0] ? c->total_ratio[0] : c->total_ratio[1];
        snprintf(parts[0], sizeof parts[0], "N_total/N_act %.4g where the runs had %.4g (at %s, %.3g%% apart)",
                 d.total_ratio, had, at, 100 * d.total);
    }
    if (d.loop > LS_ARCH_TOLERANCE) {
        const ls_arch_config *c = d.loop_at;
        double had = d.loop_ratio < c->loop_ratio[0] ? c->loop_ratio[0] : c->loop_ratio[1];
        snprintf(parts[1], sizeof parts[1], "N_loop/N_act %.4g where the runs had %.4g (%.3g%% apart)", d.loop_ratio,
                 had, 100 * d.loop);
    }
    char theirs[256];
    ls_arch_template_describe(&r->tmpl, theirs, sizeof theirs);
    res_warn(res, LS_WARNING_ARCHITECTURE, path,
             "%s is not the architecture of the runs %s was fitted on (%s): %s%s%s; the law predicts the loss of "
             "models like its runs, and the answers count parameters as %s does", path, law_name, theirs, parts[0],
             parts[0][0] && parts[1][0] ? "; " : "", parts[1], path);
}

int cmd_template_flops(const ls_request *req, const ls_lawfile *lf, ls_arch_template *t, ls_error *err)
{
    if (req_given(req, O_FLOPS_CONVENTION))
        t->flops_convention = (ls_law_flops_kind)ls_law_flops_from_name(req_text(req, O_FLOPS_CONVENTION));
    else if (lf && lf->has_fit && lf->fit.flops.kind != LS_LAW_FLOPS_6ND)
        ls_arch_set_flops(t, &lf->fit.flops);
    ls_law_flops c;
    ls_arch_flops(t, &c);
    if (ls_law_flops_check(&c, err) != 0)
        return err->code = LS_ERR_USAGE;
    return 0;
}

/* ---- the solver's options ---------------------------------------------------------- */

void cmd_candidates_of(const ls_request *req, ls_result *res, const ls_arch_template *t, cmd_candidates *room,
                       ls_solve_options *so)
{
    size_t ndefault_R, ndefault_E, nR, nE;
    const double *R = req_list(req, O_R_LIST, &nR), *E = req_list(req, O_E_LIST, &nE);
    ls_solve_default_candidates(so->ranges, room->R, &ndefault_R, room->E, &ndefault_E);
    so->R = R ? R : room->R;
    so->nR = R ? nR : ndefault_R;
    so->E = E ? E : room->E;
    so->nE = E ? nE : ndefault_E;
    if (E || t->top_k <= 1)
        return;
    /* The default list starts at E = 1; a template routing each token to
     * top_k experts needs at least top_k of them. */
    size_t skip = 0;
    while (skip < so->nE && so->E[skip] < t->top_k)
        skip++;
    so->E += skip;
    so->nE -= skip;
    if (so->nE == 0) { /* top_k beyond the whole list: E = top_k alone */
        room->top_k_e = t->top_k;
        so->E = &room->top_k_e;
        so->nE = 1;
        res_note(res, "the template routes to top_k = %d experts: the default %s is %d", t->top_k,
                 req_flag(req, O_E_LIST), t->top_k);
    } else
        res_note(res, "the template routes to top_k = %d experts: E below %d left out of the default %s list",
                 t->top_k, t->top_k, req_flag(req, O_E_LIST));
}

double cmd_eps(const ls_request *req, ls_result *res, const ls_lawfile *lf)
{
    if (req_given(req, O_EPS))
        return req_number(req, O_EPS);
    if (!lf->has_fit)
        res_note(res, "the law file has no fit RMSE; epsilon is 0 (%s X to set one)", req_flag(req, O_EPS));
    return lf->has_fit ? lf->fit.rmse : 0.0;
}

ls_solve_budget cmd_budget(const ls_request *req)
{
    ls_solve_budget b = {.flops = req_number(req, O_FLOPS), .mem_bytes = INFINITY, .bits = req_number(req, O_BITS)};
    if (req_given(req, O_MEM))
        b.mem_bytes = req_number(req, O_MEM);
    if (req_given(req, O_SERVE_CONTEXT)) {
        b.context = req_number(req, O_SERVE_CONTEXT);
        b.batch = req_number(req, O_BATCH);
    }
    if (req_given(req, O_KV_BITS))
        b.kv_bits = req_number(req, O_KV_BITS);
    if (req_given(req, O_ACTIVATION_MEMORY))
        b.activation_bytes = req_number(req, O_ACTIVATION_MEMORY);
    if (req_given(req, O_INFERENCE_TOKENS))
        b.inference_tokens = req_number(req, O_INFERENCE_TOKENS);
    if (req_given(req, O_TARGET_LOSS))
        b.target_loss = req_number(req, O_TARGET_LOSS);
    return b;
}

int cmd_serving_check(const ls_request *req, ls_error *err)
{
    ls_solve_budget budget = cmd_budget(req);
    const ls_solve_budget *b = &budget;
    /* Tokens of context and sequences are whole, with or without a suffix
     * (8k), as shape and a template count them. */
    static const opt_id whole[] = {O_SERVE_CONTEXT, O_BATCH};
    for (size_t i = 0; i < 2; i++)
        if (req_given(req, whole[i]) && req_number(req, whole[i]) != floor(req_number(req, whole[i])))
            return req_usage(req, err, "%s: '%s' is not a whole number", req_flag(req, whole[i]),
                             req_text(req, whole[i]));
    /* Options that size the cache mean nothing without one. */
    static const opt_id cache_only[] = {O_BATCH, O_KV_BITS};
    for (size_t i = 0; i < 2; i++)
        if (req_given(req, cache_only[i]) && !req_given(req, O_SERVE_CONTEXT))
            return req_usage(req, err, "%s has no effect without %s", req_flag(req, cache_only[i]),
                             req_flag(req, O_SERVE_CONTEXT));
    if (req_given(req, O_ACTIVATION_MEMORY) && !req_given(req, O_MEM))
        return req_usage(req, err, "%s has no effect without %s", req_flag(req, O_ACTIVATION_MEMORY),
                         req_flag(req, O_MEM));
    if (req_given(req, O_ACTIVATION_MEMORY) && !(b->activation_bytes < b->mem_bytes))
        return req_usage(req, err, "%s %g leaves nothing of %s %g for the weights", req_flag(req, O_ACTIVATION_MEMORY),
                         b->activation_bytes, req_flag(req, O_MEM), b->mem_bytes);
    if (req_given(req, O_N_ACT_LIST) && ls_solve_budget_costed(b))
        return req_usage(req, err, "%s: the cheapest configuration is searched over a continuous N_act; leave out %s",
                         req_flag(req, req_given(req, O_TARGET_LOSS) ? O_TARGET_LOSS : O_INFERENCE_TOKENS),
                         req_flag(req, O_N_ACT_LIST));
    return 0;
}

int cmd_serving(const ls_request *req, ls_result *res, const ls_lawfile *lf, const ls_arch_template *t,
                const ls_solve_budget *b, ls_solve_options *so, cmd_quant *room, ls_error *err)
{
    if (cmd_serving_check(req, err) != 0)
        return err->code;
    memset(room, 0, sizeof *room);
    const char *path = req_text(req, O_QUANTISATION);
    if (path) {
        if (ls_lawfile_quant_read(path, &room->quant, err) != 0)
            return err->code;
        snprintf(room->source, sizeof room->source, "%s", cmd_input_name(path));
        so->quant = &room->quant;
    } else if (lf->has_quant) {
        room->quant = lf->quant;
        snprintf(room->source, sizeof room->source, "%s", cmd_law_name(req, O_LAW_FILE));
        so->quant = &room->quant;
    }
    if (b->context > 0 && !t->has_shape)
        res_note(res, "the template gives no attention heads: the KV cache counts every layer as multi-head "
                 "attention, K and V each as wide as the model (a template describing the model gives its KV heads)");
    if (so->quant && b->bits < so->quant->trained_bits)
        res_note(res, "the loss includes the penalty of quantising the weights to %g bits after training at %g "
                 "(Kumar et al.'s form, from %s)", b->bits, so->quant->trained_bits, room->source);
    const ls_law_quant *q = so->quant;
    if (q && b->bits < q->trained_bits && q->bits_hi > 0 &&
        (b->bits < q->bits_lo * (1 - 1e-9) || b->bits > q->bits_hi * (1 + 1e-9)))
        res_warn(res, LS_WARNING_EXTRAPOLATION, "bits", "%s %g: the quantisation penalty (from %s) was fitted on %g "
                 "to %g bits; at %g it is its form's extrapolation", req_flag(req, O_BITS), b->bits, room->source,
                 q->bits_lo, q->bits_hi, b->bits);
    else if (!so->quant && b->bits < LS_LAW_QUANT_FULL_BITS)
        res_warn(res, LS_WARNING_SERVING, "bits", "%s %g: the loss assumes the weights lose nothing when quantised "
                 "(the law has no quantisation penalty; %s FILE adds one)", req_flag(req, O_BITS), b->bits,
                 req_flag(req, O_QUANTISATION));
    return 0;
}

void cmd_edge_text(char *buf, size_t size, const ls_solve_options *so, const ls_solve_candidate *c)
{
    unsigned bits = ls_solve_at_edge(so, c);
    size_t used = 0;
    buf[0] = '\0';
    if (bits >> LS_LAW_RANGE_N_ACT & 1u) {
        int n = c->n_act <= 1.0001e3 ? snprintf(buf, size, "N_act = %.4g at the floor of the search (1e3)", c->n_act)
                                     : snprintf(buf, size, "N_act = %.4g, D = %.4g at an end of the search", c->n_act,
                                                c->tokens);
        used = n > 0 && (size_t)n < size ? (size_t)n : 0;
    }
    static const ls_law_range qs[2] = {LS_LAW_RANGE_R, LS_LAW_RANGE_E};
    for (int k = 0; k < 2; k++) {
        if (!(bits >> qs[k] & 1u))
            continue;
        const double *v = qs[k] == LS_LAW_RANGE_R ? so->R : so->E;
        size_t nv = qs[k] == LS_LAW_RANGE_R ? so->nR : so->nE;
        double hi = -INFINITY, x = qs[k] == LS_LAW_RANGE_R ? c->R : c->E;
        for (size_t i = 0; i < nv; i++)
            hi = fmax(hi, v[i]);
        /* At the end of the fitted range too (the default list stops there). */
        const ls_law_ranges *rg = so->ranges;
        int fitted_end = rg && rg->known[qs[k]] &&
                         (x >= hi ? x >= rg->hi[qs[k]] * (1 - 1e-9) : x <= rg->lo[qs[k]] * (1 + 1e-9));
        int n = snprintf(buf + used, size - used, "%s%s = %g, the %s searched%s", used ? ", " : "",
                         ls_law_range_name(qs[k]), x, x >= hi ? "largest" : "smallest",
                         fitted_end ? " and fitted" : "");
        if (n > 0 && (size_t)n < size - used)
            used += (size_t)n;
    }
}

void cmd_edge_hint(char *buf, size_t size, const ls_request *req, const ls_solve_options *so,
                   const ls_solve_candidate *c)
{
    unsigned bits = ls_solve_at_edge(so, c);
    /* Beyond the fitted range a wider list is an extrapolation: more runs
     * would tell, not a wider search. */
    const ls_law_ranges *rg = so->ranges;
    int fitted_end = 0;
    if (rg && (bits >> LS_LAW_RANGE_R & 1u) && rg->known[LS_LAW_RANGE_R])
        fitted_end |= c->R >= rg->hi[LS_LAW_RANGE_R] * (1 - 1e-9) || c->R <= rg->lo[LS_LAW_RANGE_R] * (1 + 1e-9);
    if (rg && (bits >> LS_LAW_RANGE_E & 1u) && rg->known[LS_LAW_RANGE_E])
        fitted_end |= c->E >= rg->hi[LS_LAW_RANGE_E] * (1 - 1e-9) || c->E <= rg->lo[LS_LAW_RANGE_E] * (1 + 1e-9);
    if (bits >> LS_LAW_RANGE_N_ACT & 1u)
        snprintf(buf, size, "a budget that small, or a law whose exponents are not positive");
    else if (fitted_end)
        snprintf(buf, size, "a value beyond may be better, but the law has seen none: runs beyond the sweep's would "
                            "tell");
    else if ((bits >> LS_LAW_RANGE_R & 1u) && (bits >> LS_LAW_RANGE_E & 1u))
        snprintf(buf, size, "a value beyond may be better: widen %s and %s", req_flag(req, O_R_LIST),
                 req_flag(req, O_E_LIST));
    else
        snprintf(buf, size, "a value beyond may be better: widen %s",
                 req_flag(req, bits >> LS_LAW_RANGE_R & 1u ? O_R_LIST : O_E_LIST));
}

void cmd_warn_solve(const ls_request *req, ls_result *res, const ls_solve_options *so, const ls_solve_result *r,
                    const char *context)
{
    const char *sep = context ? ": " : "";
    context = context ? context : "";
    /* Sizes, tokens, loops, experts and budgets beyond the sweep are the
     * law's guess, not its fit: one line per column of the table (columns
     * that are the same configuration share it). */
    static const char *const keys[3] = {"chosen", "lowest_loss", "unconstrained"};
    static const char *const names[3] = {"chosen", "lowest loss", "no memory limit"};
    char lists[3][512];
    for (int k = 0; k < 3; k++) {
        size_t used = 0;
        lists[k][0] = '\0';
        for (size_t i = 0; i < r->nwarnings; i++) {
            const ls_solve_warning *w = &r->warnings[i];
            if (strcmp(w->configuration, keys[k]) != 0)
                continue;
            int n = snprintf(lists[k] + used, sizeof lists[k] - used, "%s%s = %.4g (fitted %.4g to %.4g)",
                             used ? ", " : "", ls_law_range_name(w->quantity), w->value, w->lo, w->hi);
            if (n > 0 && (size_t)n < sizeof lists[k] - used)
                used += (size_t)n;
        }
    }
    for (int k = 0; k < 3; k++) {
        if (!lists[k][0] || (k > 0 && strcmp(lists[k], lists[k - 1]) == 0))
            continue;
        char labels[64];
        snprintf(labels, sizeof labels, "%s", names[k]);
        for (int j = k + 1; j < 3 && strcmp(lists[j], lists[k]) == 0; j++) {
            size_t len = strlen(labels);
            snprintf(labels + len, sizeof labels - len, ", %s", names[j]);
        }
        res_warn(res, LS_WARNING_EXTRAPOLATION, keys[k], "%s%s%s: %s: outside the ranges the law was fitted on, an "
                 "extrapolation", context, sep, labels, lists[k]);
    }
    if (!r->has_choice)
        return;
    /* A cache that takes nine tenths of the memory leaves the weights a model far
     * smaller than the budget trains well: said, not only starred. */
    const ls_solve_candidate *ch = &r->choice;
    double serving_bytes = ch->memory_bytes - ch->weight_bytes;
    if (ch->kv_bytes > 0 && serving_bytes >= 0.9 * ch->memory_bytes)
        res_warn(res, LS_WARNING_SERVING, "chosen", "%s%schosen: the KV cache%s takes %.4g of the %.4g bytes, leaving "
                 "the weights %.4g (N_act = %.4g): a shorter %s or a smaller %s leaves the model more",
                 context, sep, ch->memory_bytes > ch->weight_bytes + ch->kv_bytes ? " and activations" : "",
                 serving_bytes, ch->memory_bytes, ch->weight_bytes, ch->n_act, req_flag(req, O_SERVE_CONTEXT),
                 req_flag(req, O_BATCH));
    /* An answer at an end of the search range is not an optimum. */
    const ls_solve_candidate *c[3] = {&r->choice, &r->best, &r->unconstrained};
    char text[3][160];
    for (int k = 0; k < 3; k++)
        cmd_edge_text(text[k], sizeof text[k], so, c[k]);
    for (int k = 0; k < 3; k++) {
        if (!text[k][0] || (k > 0 && strcmp(text[k], text[k - 1]) == 0))
            continue;
        char labels[64], hint[128];
        snprintf(labels, sizeof labels, "%s", names[k]);
        for (int j = k + 1; j < 3 && strcmp(text[j], text[k]) == 0; j++) {
            size_t len = strlen(labels);
            snprintf(labels + len, sizeof labels - len, ", %s", names[j]);
        }
        cmd_edge_hint(hint, sizeof hint, req, so, c[k]);
        res_warn(res, LS_WARNING_SEARCH_EDGE, keys[k], "%s%s%s: %s: at an end of the search range, not an optimum (%s)",
                 context, sep, labels, text[k], hint);
    }
}

void cmd_outside_text(char *buf, size_t size, const ls_law_ranges *ranges, const ls_law_point *x, unsigned bits)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int q = 0; q < LS_LAW_NRANGES; q++) {
        if (!(bits >> q & 1u))
            continue;
        double v = q == LS_LAW_RANGE_FLOPS ? ls_law_training_flops_as(&ranges->flops, x) : ls_law_range_value(x, q);
        int n = snprintf(buf + used, size - used, "%s%s = %.4g (fitted %.4g to %.4g)", used ? ", " : "",
                         ls_law_range_name(q), v, ranges->lo[q], ranges->hi[q]);
        if (n < 0 || (size_t)n >= size - used)
            return;
        used += (size_t)n;
    }
}

void cmd_json_outside(jsonw *w, unsigned bits)
{
    ls_jsonw_array_begin(w, "outside", 1);
    for (int q = 0; q < LS_LAW_NRANGES; q++)
        if (bits >> q & 1u)
            ls_jsonw_string(w, NULL, ls_law_range_name((ls_law_range)q));
    ls_jsonw_array_end(w);
}

void cmd_ranges_note(strbuf *out, const ls_law_ranges *ranges, unsigned outside)
{
    if (!outside)
        return;
    strbuf_puts(out, "* outside the range the law was fitted on:");
    const char *sep = " ";
    for (int q = 0; q < LS_LAW_NRANGES; q++)
        if (outside >> q & 1u) {
            strbuf_printf(out, "%s%s %.4g to %.4g", sep, ls_law_range_name((ls_law_range)q), ranges->lo[q],
                          ranges->hi[q]);
            sep = ", ";
        }
    strbuf_puts(out, "\n");
}

/* ---- figures ---------------------------------------------------------------------- */

int cmd_band_draws(const ls_lawfile *lf, size_t most, ls_law **draws, size_t *n, ls_error *err)
{
    *draws = NULL;
    *n = ls_plot_band_draws(lf, most);
    if (*n == 0)
        return 0;
    if (!(*draws = malloc(*n * sizeof **draws)))
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    for (size_t i = 0; i < *n; i++)
        ls_lawfile_draw(lf, i, &(*draws)[i]);
    return 0;
}

unsigned char *cmd_plot_fit(const ls_sweep *s, const ls_lawfile *lf, const ls_figure *figure, size_t *len,
                            ls_error *err)
{
    ls_law *draws = NULL;
    size_t nd = 0;
    ls_fit_curves curves;
    memset(&curves, 0, sizeof curves);
    unsigned char *svg = NULL;
    if (cmd_band_draws(lf, LS_PLOT_BAND_DRAWS, &draws, &nd, err) == 0 &&
        ls_fit_curves_run(s, &lf->law, draws, nd, LS_PLOT_FIT_POINTS, &curves, err) == 0)
        svg = ls_plot_fit(s, lf, &curves, figure, len, err);
    ls_fit_curves_free(&curves);
    free(draws);
    return svg;
}

void cmd_note_runs_drawn(const ls_request *req, ls_result *res, size_t n, const char *farthest)
{
    char text[256];
    ls_plot_runs_drawn_text(text, sizeof text, n, farthest);
    if (*text)
        res_note(res, "%s: %s", req_flag(req, O_PLOT), text);
}

unsigned char *cmd_plot_isofit(const ls_sweep *s, const ls_isofit_options *o, const ls_isofit_result *r,
                               const ls_figure *figure, size_t *len, ls_error *err)
{
    ls_isofit_curves curves;
    unsigned char *svg = NULL;
    if (ls_isofit_curves_run(s, o, r, LS_PLOT_ISOFIT_POINTS, &curves, err) == 0)
        svg = ls_plot_isofit(s, o, r, &curves, figure, len, err);
    ls_isofit_curves_free(&curves);
    return svg;
}

unsigned char *cmd_plot_solve(const ls_request *req, const ls_lawfile *lf, const ls_arch_template *t,
                              const ls_solve_budget *b, const ls_solve_options *so, const ls_solve_result *r,
                              const ls_figure *figure, size_t *len, ls_error *err)
{
    ls_law *draws = NULL;
    size_t nd = 0;
    ls_solve_curves curves;
    memset(&curves, 0, sizeof curves);
    unsigned char *svg = NULL;
    if (cmd_band_draws(lf, LS_PLOT_SOLVE_BAND_DRAWS, &draws, &nd, err) == 0 &&
        ls_solve_curves_run(&lf->law, draws, nd, t, b, so, req_threads(req), &curves, err) == 0)
        svg = ls_plot_solve(lf, t, b, so, r, &curves, figure, len, err);
    ls_solve_curves_free(&curves);
    free(draws);
    return svg;
}

unsigned char *cmd_plot_rho_eff(const ls_lawfile *lf, const ls_arch_template *t, const double *E, size_t nE,
                                double r_max, const ls_figure *figure, size_t *len, ls_error *err)
{
    ls_solve_rho_eff rho;
    unsigned char *svg = NULL;
    if (ls_solve_rho_eff_run(&lf->law, t, E, nE, r_max, LS_PLOT_RHO_POINTS, &rho, err) == 0)
        svg = ls_plot_rho_eff(lf, &rho, figure, len, err);
    ls_solve_rho_eff_free(&rho);
    return svg;
}

unsigned char *cmd_plot_isoflop(const ls_lawfile *lf, const ls_arch_template *t, const double *flops, size_t nflops,
                                const double *E, size_t nE, const double *R, size_t nR, size_t points,
                                const ls_figure *figure, size_t *len, ls_error *err)
{
    ls_law_ranges ranges;
    ls_lawfile_ranges(lf, &ranges);
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < nflops; i++) {
        lo = fmin(lo, flops[i]);
        hi = fmax(hi, flops[i]);
    }
    ls_law *draws = NULL;
    size_t nd = 0;
    ls_solve_isoflop_result profiles, frontier;
    ls_solve_isoflop_bands bands;
    memset(&profiles, 0, sizeof profiles);
    memset(&frontier, 0, sizeof frontier);
    memset(&bands, 0, sizeof bands);
    unsigned char *svg = NULL;
    /* The frontier as F varies from a third of the smallest budget to three
     * times the largest, under the minima drawn. */
    if (cmd_band_draws(lf, LS_PLOT_BAND_DRAWS, &draws, &nd, err) == 0 &&
        ls_solve_isoflop_run(&lf->law, t, flops, nflops, E, nE, R, nR,
                             points > LS_PLOT_ISOFLOP_POINTS ? points : LS_PLOT_ISOFLOP_POINTS, &ranges, &profiles,
                             err) == 0 &&
        ls_solve_isoflop_bands_run(draws, nd, t, &profiles, &bands, err) == 0 &&
        ls_solve_isoflop_frontier(&lf->law, t, lo / 3, hi * 3, LS_PLOT_FRONTIER_BUDGETS, E, nE, R, nR, &ranges,
                                  &frontier, err) == 0)
        svg = ls_plot_isoflop(lf, t, &profiles, &bands, &frontier, figure, len, err);
    ls_solve_isoflop_result_free(&profiles);
    ls_solve_isoflop_result_free(&frontier);
    ls_solve_isoflop_bands_free(&bands);
    free(draws);
    return svg;
}

int cmd_figure(const ls_request *req, opt_id plot, ls_figure *out, ls_error *err)
{
    *out = ls_figure_default();
    out->provenance = req->invocation ? req->invocation : "loopscale";
    if (req_given(req, O_PLOT_SIZE)) {
        out->width_pt = req->v[O_PLOT_SIZE].number;
        out->height_pt = req->v[O_PLOT_SIZE].number2;
    }
    if (req_given(req, O_PLOT_FONT_SIZE))
        out->font_pt = req_number(req, O_PLOT_FONT_SIZE);
    if (req_given(req, O_PLOT_TITLE))
        out->title = req_text(req, O_PLOT_TITLE);
    out->no_title = req_given(req, O_PLOT_NO_TITLE);
    if (req_given(req, O_PLOT_STYLE))
        out->look = strcmp(req_text(req, O_PLOT_STYLE), "print") == 0 ? LS_FIGURE_PRINT : LS_FIGURE_LIGHT;
    out->caption = req_given(req, O_PLOT_CAPTION);
    if (req_given(req, O_DPI))
        out->dpi = req_number(req, O_DPI);
    const char *path = req_text(req, plot);
    if (!path)
        return 0;
    /* A size with no room for a panel is refused now, before any work or
     * output, not after a fit or a table. */
    if (ls_figure_check_size(out, err) != 0)
        return err->code;
    if (ls_figure_format_of_path(path, &out->format, err) == 0) {
        /* Size and resolution each within their limits can still make an
         * image cairo cannot hold (32767 pixels a side) or that would take
         * gigabytes: refused before any work rather than failed after it. */
        double w = out->width_pt / 72.0 * out->dpi, h = out->height_pt / 72.0 * out->dpi;
        if (out->format == LS_FIGURE_PNG && (w > 32767 || h > 32767 || w * h > 1e8))
            return ls_error_set(err, LS_ERR_USAGE,
                                "%s: a %.0f x %.0f pixel PNG (%s at %s %g) is too large: at most 32767 pixels a side "
                                "and 100 million in all; lower %s, or write .pdf or .svg",
                                req_flag(req, plot), w, h, req_flag(req, O_PLOT_SIZE), req_flag(req, O_DPI), out->dpi,
                                req_flag(req, O_DPI));
        return 0;
    }
    /* Standard output, a device or a pipe (-, /dev/stdout, a FIFO) has no
     * extension to go by: it gets SVG, the one text format. */
    struct stat st;
    if (strcmp(path, "-") == 0 || (stat(path, &st) == 0 && !S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))) {
        out->format = LS_FIGURE_SVG;
        ls_error_clear(err);
        return 0;
    }
    return ls_error_prefix(err, "%s", req_flag(req, plot)), err->code = LS_ERR_USAGE;
}

int cmd_figure_options_check(const ls_request *req, size_t n, const opt_id *plots, const ls_figure *const *figures,
                             ls_error *err)
{
    char names[96] = ""; /* "--plot or --plot-rho" */
    for (size_t i = 0; i < n; i++) {
        size_t used = strlen(names);
        snprintf(names + used, sizeof names - used, "%s%s", i == 0 ? "" : " or ", req_flag(req, plots[i]));
    }
    static const opt_id FIGURE_OPTIONS[] = {O_PLOT_SIZE,  O_PLOT_FONT_SIZE, O_PLOT_TITLE, O_PLOT_NO_TITLE,
                                            O_PLOT_STYLE, O_PLOT_CAPTION,   O_DPI};
    size_t given = 0, png = 0;
    for (size_t i = 0; i < n; i++)
        if (req_given(req, plots[i])) {
            given++;
            png += figures[i]->format == LS_FIGURE_PNG;
        }
    if (given == 0)
        for (size_t i = 0; i < sizeof FIGURE_OPTIONS / sizeof *FIGURE_OPTIONS; i++)
            if (req_given(req, FIGURE_OPTIONS[i]))
                return ls_error_set(err, LS_ERR_USAGE, "%s has no effect without %s", req_flag(req, FIGURE_OPTIONS[i]),
                                    names);
    if (req_given(req, O_PLOT_TITLE) && req_given(req, O_PLOT_NO_TITLE))
        return ls_error_set(err, LS_ERR_USAGE, "%s and %s: give one, not both", req_flag(req, O_PLOT_TITLE),
                            req_flag(req, O_PLOT_NO_TITLE));
    if (req_given(req, O_DPI) && png == 0)
        return ls_error_set(err, LS_ERR_USAGE, "%s has no effect without a .png %s", req_flag(req, O_DPI), names);
    return 0;
}
