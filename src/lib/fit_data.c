/*
 * Whether a sweep's runs can determine a law at all, decided from the data
 * before any solve (fit.h, ls_fit_data_check).
 *
 * Every law has a size term A N^-alpha, a data term B D^-beta and the
 * irreducible loss c (Chinchilla's form, Hoffmann et al. 2022).  Some sweeps
 * cannot pin these down however well a solver converges on them:
 *
 *   - a constant loss is fitted by c alone; the size and data terms can be
 *     pushed to zero by any of infinitely many (A, alpha) and (B, beta), and
 *     the solver returns one of them (A ~ 4e9 with a huge alpha) with finite
 *     but meaningless standard errors;
 *   - one size N (and, under a loop mapping, one R) makes A N^-alpha a single
 *     constant, so A, alpha and c cannot be told apart; one token count does
 *     the same to B, beta and c;
 *   - a loss that does not change when only N changes (or only D) leaves the
 *     exponent of that term free to grow without bound.
 *
 * These are checked here, apart from the solver, so that the fit is refused
 * with the reason instead of returning an arbitrary law.
 */
#include "loopscale/fit.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Two losses read from text are equal when they are the same number; the
 * tolerance only absorbs arithmetic on the way (--map, unit scaling). */
static int same_loss(double a, double b) { return fabs(a - b) <= 1e-12 * fmax(fabs(a), fabs(b)); }

static int free_count(const ls_fit_parameters *p, const ls_law_param *list, size_t n)
{
    int count = 0;
    for (size_t i = 0; i < n; i++)
        count += !p->fixed[list[i]];
    return count;
}

/* One run seen along one axis: the other coordinates, the axis's value and
 * the loss.  Runs with equal keys differ only along the axis. */
typedef struct axis_run {
    double key[6];
    double value;
    double loss;
} axis_run;

static int compare_double(double a, double b)
{
    if (isnan(a) || isnan(b)) /* an unknown n_loop sorts first, equal to itself */
        return isnan(b) - isnan(a);
    return (a > b) - (a < b);
}

static int compare_axis_runs(const void *pa, const void *pb)
{
    const axis_run *a = pa, *b = pb;
    for (int k = 0; k < 6; k++) {
        int c = compare_double(a->key[k], b->key[k]);
        if (c)
            return c;
    }
    return compare_double(a->value, b->value);
}

/* 1 when some runs differ only along the axis (tokens when along_tokens,
 * otherwise n_act) and every such group has one loss; *example_* then name
 * one pair.  -1 when out of memory. */
static int flat_along(const ls_sweep *s, int along_tokens, axis_run *v, double *example_a, double *example_b,
                      double *example_loss, double *example_at)
{
    for (size_t i = 0; i < s->n; i++) {
        const ls_sweep_row *r = &s->rows[i];
        axis_run *a = &v[i];
        if (along_tokens) {
            double key[6] = {r->n_act, r->n_total, r->n_loop, r->R, r->E, r->k};
            memcpy(a->key, key, sizeof key);
            a->value = r->tokens;
        } else {
            double key[6] = {r->tokens, r->R, r->E, r->k, 0, 0};
            memcpy(a->key, key, sizeof key);
            a->value = r->n_act;
        }
        a->loss = r->loss;
    }
    qsort(v, s->n, sizeof *v, compare_axis_runs);
    int compared = 0;
    for (size_t start = 0, end; start < s->n; start = end) {
        end = start + 1;
        while (end < s->n && memcmp(v[end].key, v[start].key, sizeof v[start].key) == 0)
            end++;
        if (v[end - 1].value == v[start].value)
            continue; /* one value of the axis: nothing to compare */
        for (size_t i = start + 1; i < end; i++)
            if (!same_loss(v[i].loss, v[start].loss))
                return 0;
        if (!compared) {
            *example_a = v[start].value;
            *example_b = v[end - 1].value;
            *example_loss = v[start].loss;
            *example_at = v[start].key[0];
        }
        compared = 1;
    }
    return compared;
}

static size_t distinct_upto2(const ls_sweep *s, size_t offset)
{
    double first = 0;
    for (size_t i = 0; i < s->n; i++) {
        double x;
        memcpy(&x, (const char *)&s->rows[i] + offset, sizeof x);
        if (i == 0)
            first = x;
        else if (x != first)
            return 2;
    }
    return s->n ? 1 : 0;
}

int ls_fit_data_check(const ls_sweep *s, ls_law_kind kind, const ls_fit_parameters *p, ls_error *err)
{
    static const ls_law_param size_term[] = {LS_LAW_P_A, LS_LAW_P_ALPHA}, data_term[] = {LS_LAW_P_B, LS_LAW_P_BETA};
    static const ls_law_param size_and_c[] = {LS_LAW_P_A, LS_LAW_P_ALPHA, LS_LAW_P_C}, data_and_c[] = {LS_LAW_P_B, LS_LAW_P_BETA, LS_LAW_P_C};
    const char *lead = "the sweep cannot determine the law";
    if (s->n == 0)
        return 0;
    int size_free = free_count(p, size_term, 2), data_free = free_count(p, data_term, 2);

    double lo = s->rows[0].loss, hi = lo;
    for (size_t i = 1; i < s->n; i++) {
        lo = fmin(lo, s->rows[i].loss);
        hi = fmax(hi, s->rows[i].loss);
    }
    if (same_loss(lo, hi) && size_free + data_free > 0)
        return ls_error_set(err, LS_ERR_NOCONV,
                            "%s: every run has loss = %g, which c alone fits; A, alpha, B and beta could take any "
                            "values",
                            lead, lo);

    int loops_vary = kind.mapping != LS_LAW_MAPPING_NONE && distinct_upto2(s, offsetof(ls_sweep_row, R)) > 1;
    if (distinct_upto2(s, offsetof(ls_sweep_row, n_act)) == 1 && !loops_vary && free_count(p, size_and_c, 3) >= 2)
        return ls_error_set(err, LS_ERR_NOCONV,
                            "%s: every run has n_act = %g, so A N^-alpha is one constant and A, alpha and c cannot "
                            "be told apart",
                            lead, s->rows[0].n_act);
    if (distinct_upto2(s, offsetof(ls_sweep_row, tokens)) == 1 && free_count(p, data_and_c, 3) >= 2)
        return ls_error_set(err, LS_ERR_NOCONV,
                            "%s: every run has tokens = %g, so B D^-beta is one constant and B, beta and c cannot "
                            "be told apart",
                            lead, s->rows[0].tokens);

    if (size_free + data_free == 0)
        return 0;
    axis_run *v = malloc(s->n * sizeof *v);
    if (!v)
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    double a = 0, b = 0, loss = 0, at = 0;
    int status = 0;
    if (size_free && flat_along(s, 0, v, &a, &b, &loss, &at) == 1)
        status = ls_error_set(err, LS_ERR_NOCONV,
                              "%s: the loss does not change with n_act (n_act = %g and %g at tokens = %g both have "
                              "loss %g, and so on for every such pair), so A and alpha cannot be determined",
                              lead, a, b, at, loss);
    else if (data_free && flat_along(s, 1, v, &a, &b, &loss, &at) == 1)
        status = ls_error_set(err, LS_ERR_NOCONV,
                              "%s: the loss does not change with tokens (tokens = %g and %g at n_act = %g both have "
                              "loss %g, and so on for every such pair), so B and beta cannot be determined",
                              lead, a, b, at, loss);
    free(v);
    return status;
}
