#include "loopscale/frontier.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_sort.h>

#include "numtext_internal.h"

/* One number of a budget list, [p, p + len), checked: finite and positive. */
static int parse_budget(const char *text, const char *p, size_t len, double *out, ls_error *err)
{
    numtext_status st = ls_numtext_parse_double(p, len, out);
    if (st != NUMTEXT_OK)
        return ls_error_set(err, LS_ERR_USAGE, "'%.*s' in '%s' %s", (int)len, p, text, ls_numtext_reason(st));
    if (!(*out > 0.0))
        return ls_error_set(err, LS_ERR_USAGE, "'%.*s' in '%s' is not a positive number of FLOPs", (int)len, p,
                            text);
    return 0;
}

/* The budgets in increasing F (a local exponent is taken between
 * neighbours, and a plot's lines join them in order), each given once. */
static int sorted_distinct(const char *text, double *v, size_t m, ls_error *err)
{
    gsl_sort(v, 1, m);
    for (size_t i = 1; i < m; i++)
        if (v[i] == v[i - 1]) {
            char value[NUMTEXT_DOUBLE_MAX];
            ls_numtext_format_double(value, v[i]);
            return ls_error_set(err, LS_ERR_USAGE, "'%s' gives the budget %s twice", text, value);
        }
    return 0;
}

int ls_frontier_budgets_parse(const char *text, double **budgets, size_t *n, ls_error *err)
{
    *budgets = NULL;
    *n = 0;
    size_t commas = 0, colons = 0;
    for (const char *c = text; *c; c++) {
        commas += *c == ',';
        colons += *c == ':';
    }
    if (colons && (commas || colons != 2))
        return ls_error_set(err, LS_ERR_USAGE, "'%s' is neither a list F1,F2,... nor a range LO:HI:N", text);
    if (colons) {
        const char *c1 = strchr(text, ':'), *c2 = strchr(c1 + 1, ':');
        double lo, hi, count;
        int rc = parse_budget(text, text, (size_t)(c1 - text), &lo, err);
        if (rc == 0)
            rc = parse_budget(text, c1 + 1, (size_t)(c2 - c1 - 1), &hi, err);
        if (rc != 0)
            return rc;
        numtext_status st = ls_numtext_parse_double(c2 + 1, strlen(c2 + 1), &count);
        if (st != NUMTEXT_OK || count != floor(count) || count < 2 || count > 100000)
            return ls_error_set(err, LS_ERR_USAGE, "'%s': the number of budgets N in LO:HI:N must be a whole number "
                                "from 2 to 100000, not '%s'", text, c2 + 1);
        if (!(lo < hi))
            return ls_error_set(err, LS_ERR_USAGE, "'%s': LO must be below HI in LO:HI:N", text);
        size_t m = (size_t)count;
        double *v = malloc(m * sizeof *v);
        if (!v)
            return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        double step = (log(hi) - log(lo)) / (double)(m - 1);
        for (size_t i = 0; i < m; i++) {
            /* To 13 significant digits (exp and log lose up to 1e-14 here),
             * so that 1e18:1e24:13 gives 1e21
             * and not exp's 9.999999999999983e+20. */
            char digits[32];
            snprintf(digits, sizeof digits, "%.13g", exp(log(lo) + step * (double)i));
            v[i] = strtod(digits, NULL);
        }
        v[0] = lo; /* the ends exactly as given */
        v[m - 1] = hi;
        rc = sorted_distinct(text, v, m, err);
        if (rc != 0) {
            free(v);
            return rc;
        }
        *budgets = v;
        *n = m;
        return 0;
    }
    size_t m = commas + 1;
    double *v = malloc(m * sizeof *v);
    if (!v)
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    const char *p = text;
    for (size_t i = 0; i < m; i++) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        int rc = parse_budget(text, p, len, &v[i], err);
        if (rc != 0) {
            free(v);
            return rc;
        }
        p += len + 1;
    }
    int rc = sorted_distinct(text, v, m, err);
    if (rc != 0) {
        free(v);
        return rc;
    }
    *budgets = v;
    *n = m;
    return 0;
}

int ls_frontier_run(const ls_law *l, const double *budgets, size_t n, ls_frontier_point *out, double *exponent,
                    ls_error *err)
{
    for (size_t i = 0; i < n; i++) {
        ls_frontier_point *f = &out[i];
        f->flops = budgets[i];
        int rc = ls_law_compute_optimal(l, budgets[i], &f->n_opt, &f->d_opt, exponent, err);
        if (rc != 0)
            return rc;
        f->tokens_per_param = f->d_opt / f->n_opt;
        ls_law_point x = {f->n_opt, f->n_opt, 0.0, 1.0, 1.0, f->d_opt, 0.0};
        f->loss = ls_law_loss(l, &x);
        /* A law whose terms add past what a double holds (A = B = 1e308) is the input's
         * doing: refused naming the budget, as solve and isoflop refuse it, never an
         * infinity printed as an answer. */
        const char *what = NULL;
        double bad = 0;
        if (!(isfinite(f->n_opt) && f->n_opt > 0))
            what = "size N_opt", bad = f->n_opt;
        else if (!(isfinite(f->d_opt) && f->d_opt > 0))
            what = "tokens D_opt = F / (6 N_opt)", bad = f->d_opt;
        else if (!(isfinite(f->tokens_per_param) && f->tokens_per_param > 0))
            what = "tokens per parameter D_opt / N_opt", bad = f->tokens_per_param;
        else if (!(isfinite(f->loss) && f->loss > 0))
            what = "predicted loss", bad = f->loss;
        if (what)
            return ls_error_set(err, LS_ERR_DATA,
                                "the frontier at %g FLOPs (N_opt = %g, D_opt = %g) gives %s = %g, outside double "
                                "precision", budgets[i], f->n_opt, f->d_opt, what, bad);
    }
    return 0;
}

/* d ln N_act / d ln F at point i from its neighbours (the budgets increase):
 * central inside, one-sided at the ends; NaN with one budget. */
static double local_exponent(const ls_frontier_solve_point *p, size_t n, size_t i)
{
    if (n < 2)
        return NAN;
    size_t lo = i > 0 ? i - 1 : 0, hi = i + 1 < n ? i + 1 : n - 1;
    return (log(p[hi].n_act) - log(p[lo].n_act)) / (log(p[hi].flops) - log(p[lo].flops));
}

int ls_frontier_run_solve(const ls_law *l, const ls_arch_template *t, const double *budgets, size_t n,
                          const ls_solve_options *o, const ls_solve_budget *deploy, ls_frontier_solve_point *out,
                          ls_error *err)
{
    for (size_t i = 1; i < n; i++)
        if (!(budgets[i] > budgets[i - 1]))
            return ls_error_set(err, LS_ERR_USAGE, "the budgets must increase (%g follows %g): the local exponent "
                                "is taken between neighbours", budgets[i], budgets[i - 1]);
    for (size_t i = 0; i < n; i++) {
        ls_solve_budget b = *deploy;
        b.flops = budgets[i];
        double mem_bytes = b.mem_bytes, bits = b.bits;
        ls_solve_result r;
        memset(&r, 0, sizeof r);
        int rc = ls_solve_run(l, t, &b, o, &r, err);
        if (rc == 0 && !r.has_choice) {
            if (isfinite(mem_bytes))
                rc = ls_error_set(err, LS_ERR_DATA, "at %g FLOPs no candidate fits in %g bytes at %g bits per weight%s",
                                  budgets[i], mem_bytes, bits,
                                  ls_solve_budget_serving(&b) ? " with its KV cache and activations" : "");
            else
                rc = ls_error_set(err, LS_ERR_DATA, "no model fits a budget of %g %s", budgets[i],
                                  budgets[i] == 1 ? "FLOP" : "FLOPs");
        }
        if (rc == 0) {
            const ls_solve_candidate *c = &r.choice;
            out[i] = (ls_frontier_solve_point){.flops = budgets[i], .R = c->R, .E = c->E, .n_act = c->n_act,
                                            .n_total = c->n_total, .tokens = c->tokens,
                                            .tokens_per_param = c->tokens / c->n_act, .loss = c->loss,
                                            .bound = c->bound, .exponent_n = NAN, .outside = c->outside,
                                            .kv_bytes = c->kv_bytes, .memory_bytes = c->memory_bytes,
                                            .quant_penalty = c->quant_penalty, .training_flops = c->training_flops,
                                            .serving_flops = c->serving_flops};
        }
        ls_solve_result_free(&r);
        if (rc != 0)
            return rc;
    }
    for (size_t i = 0; i < n; i++)
        out[i].exponent_n = local_exponent(out, n, i);
    return 0;
}
