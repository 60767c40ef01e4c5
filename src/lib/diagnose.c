#include "loopscale/diagnose.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "law_internal.h"
#include "numtext_internal.h"

/* A growing text of lines; oom is sticky. */
typedef struct lines {
    char *text;
    size_t len, cap;
    int oom;
} lines;

static void add_line(lines *l, const char *fmt, ...) LS_PRINTF(2, 3);

static void add_line(lines *l, const char *fmt, ...)
{
    if (l->oom)
        return;
    va_list ap;
    va_start(ap, fmt);
    int need = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (need < 0) {
        l->oom = 1;
        return;
    }
    size_t want = l->len + (size_t)need + 2;
    if (want > l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 256;
        while (cap < want)
            cap *= 2;
        char *t = realloc(l->text, cap);
        if (!t) {
            l->oom = 1;
            return;
        }
        l->text = t;
        l->cap = cap;
    }
    va_start(ap, fmt);
    vsnprintf(l->text + l->len, (size_t)need + 1, fmt, ap);
    va_end(ap);
    l->len += (size_t)need;
    l->text[l->len++] = '\n';
    l->text[l->len] = '\0';
}

static char *finish(lines *l)
{
    if (l->oom) {
        free(l->text);
        return NULL;
    }
    return l->text ? l->text : calloc(1, 1);
}

/* x, which lies beyond threshold, with the fewest digits that still show
 * it beyond: two significant digits at least (decimals: that many decimals
 * at least), so that a width of 0.2015 against 0.2 reads "0.202", not
 * "0.2". */
static const char *beyond(char *buf, size_t size, double x, double threshold, int decimals)
{
    for (int digits = decimals ? decimals : 2; digits < 17; digits++) {
        snprintf(buf, size, decimals ? "%.*f" : "%.*g", digits, x);
        double shown = strtod(buf, NULL);
        if (x > threshold ? shown > threshold : shown < threshold)
            break;
    }
    return buf;
}

/* The judgement of ls_fit_diagnose, as warnings; reported[j] is set for each
 * parameter it named. */
static int diagnose_into(const ls_sweep *s, const ls_fit_result *r, const ls_fit_bootstrap *b, ls_warnings *w,
                         unsigned char reported[LS_LAW_NPARAMS])
{
    const double *p = r->law.p;
    int status = 0;
    /* The lowest observed loss, and where. */
    size_t lowest = 0;
    for (size_t i = 1; i < s->n; i++)
        if (s->rows[i].loss < s->rows[lowest].loss)
            lowest = i;
    double min_loss = s->n ? s->rows[lowest].loss : NAN;
    if (ls_law_uses_param(r->law.kind, LS_LAW_P_C) && !r->fixed[LS_LAW_P_C] && s->n) {
        double c = p[LS_LAW_P_C], se = r->stderr_of[LS_LAW_P_C];
        if (c < LS_DIAGNOSE_C_AT_ZERO * min_loss && !(se <= c)) {
            status |= ls_warnings_add(w, LS_WARNING_AT_BOUND, "c",
                                      "c = %.3g ran to its bound 0 (standard error %.2g): the runs show no "
                                      "irreducible loss, and the exponents absorb it; try --fix c=VALUE, or a law "
                                      "without c (kaplan)", c, se);
            reported[LS_LAW_P_C] = 1;
        } else if (c >= min_loss) {
            status |= ls_warnings_add(w, LS_WARNING_FIT_QUALITY, "c",
                                      "c = %.4g is above the lowest observed loss, %.4g (line %ld): the law cannot "
                                      "reach that run, so its irreducible loss is not a floor", c, min_loss,
                                      s->rows[lowest].line);
        }
    }
    ls_law_param list[LS_LAW_NPARAMS];
    size_t np = ls_law_params_of(r->law.kind, list);
    for (size_t k = 0; k < np; k++) {
        ls_law_param j = list[k];
        if (r->fixed[j] || reported[j])
            continue;
        const char *name = ls_law_param_name(j);
        /* A positive parameter (fitted as a logarithm) is unbounded when
         * its standard error dwarfs its value; one that may take either
         * sign merely includes 0 then, and is unbounded only when the
         * error dwarfs 1 as well (an exponent of +-10 or more). */
        double v = p[j], se = r->stderr_of[j];
        double scale = ls_law_param_transform(j) == LS_LAW_TRANSFORM_IDENTITY ? fmax(fabs(v), 1.0) : fabs(v);
        if (se > LS_DIAGNOSE_UNBOUNDED_RATIO * scale) {
            char ratio[32];
            status |= ls_warnings_add(w, LS_WARNING_UNDETERMINED, name,
                                      "%s = %.3g is not determined by the runs: its standard error, %.2g, is %s "
                                      "times its value (an unbounded interval)", name, v, se,
                                      beyond(ratio, sizeof ratio, se / fabs(v), LS_DIAGNOSE_UNBOUNDED_RATIO, 0));
            reported[j] = 1;
            continue;
        }
        /* Draws that ran past the domain were dropped, so the interval
         * alone would look narrower than the data leave it. */
        if (b && b->outside_of[j] > 0) {
            status |= ls_warnings_add(w, LS_WARNING_UNDETERMINED, name,
                                      "%s = %.3g is not determined by the runs: %zu of %zu bootstrap draws ran it out "
                                      "of its domain (dropped)", name, v, b->outside_of[j],
                                      b->ndraws + b->failed + b->outside);
            reported[j] = 1;
            continue;
        }
        if (b && b->ndraws > 0 && ls_law_param_transform(j) != LS_LAW_TRANSFORM_IDENTITY && b->ci_low[j] > 0 &&
            b->ci_high[j] > 1e3 * b->ci_low[j]) {
            status |= ls_warnings_add(w, LS_WARNING_UNDETERMINED, name,
                                      "%s = %.3g is not determined by the runs: its %g%% bootstrap interval [%.3g, "
                                      "%.3g] spans a factor %.2g", name, v, 100 * b->level, b->ci_low[j],
                                      b->ci_high[j], b->ci_high[j] / b->ci_low[j]);
            reported[j] = 1;
        }
    }
    return status;
}

/* The messages of w, one line each. */
static char *lines_of(const ls_warnings *w)
{
    lines out = {0};
    for (size_t i = 0; i < w->n; i++)
        add_line(&out, "%s", w->v[i].message);
    return finish(&out);
}

char *ls_fit_diagnose(const ls_sweep *s, const ls_fit_result *r, const ls_fit_bootstrap *b)
{
    ls_warnings w = {0};
    unsigned char reported[LS_LAW_NPARAMS] = {0};
    char *text = diagnose_into(s, r, b, &w, reported) == 0 ? lines_of(&w) : NULL;
    ls_warnings_free(&w);
    return text;
}

char *ls_holdout_diagnose(const ls_holdout_result *r)
{
    lines out = {0};
    for (size_t c = 0; c < r->ncolumns; c++) {
        const ls_holdout_column *col = &r->columns[c];
        if (!col->skipped && col->ntest == 1)
            add_line(&out, "axis %s holds out a single run (%s): its RMSE is one residual, not a measure of "
                     "extrapolation; hold out more with --split, or a wider top tier with --group-tol",
                     ls_holdout_axis_name(col->axis), col->label);
    }
    return finish(&out);
}

/* ---- whether a fit may be used at all ------------------------------------------------ */

int ls_fit_usable(const ls_sweep *s, ls_law_kind kind, const ls_fit_parameters *p, const ls_fit_result *r,
                  ls_error *err)
{
    if (r->n <= r->nfree)
        return ls_error_set(err, LS_ERR_DATA,
                            "%s: %zu %s for %zu free %s %s no residual to judge the fit by or to estimate its "
                            "errors (add runs, or --fix some)", s->name, r->n, ls_plural((double)r->n, "run", "runs"),
                            r->nfree, ls_plural((double)r->nfree, "parameter", "parameters"),
                            ls_plural((double)r->n, "leaves", "leave"));
    /* Runs enough in number that still cannot determine the law (all one
     * loss, one size, a loss flat along an axis) give an arbitrary law with
     * finite errors: refused with the reason, as an undetermined fit. */
    int status = ls_fit_data_check(s, kind, p, err);
    if (status != 0)
        return status;
    if (!r->converged)
        return ls_error_set(err, LS_ERR_NOCONV, "the best of %zu starts did not converge (after %zu iteration%s)",
                            r->starts, r->iterations, r->iterations == 1 ? "" : "s");
    if (!ls_fit_determined(r)) {
        char reason[96];
        ls_fit_undetermined_reason(s, reason, sizeof reason);
        return ls_error_set(err, LS_ERR_NOCONV,
                            "the sweep cannot tell the parameters apart%s: the Jacobian at the best fit is singular, "
                            "so its values are one of many equally good fits (--fix some, or add runs)", reason);
    }
    ls_error domain;
    if (ls_law_check_params(&r->law, NULL, &domain) != 0)
        return ls_error_set(err, LS_ERR_NOCONV, "the best fit is not a law of this form: %s", domain.message);
    return 0;
}

/* ---- the compute-optimal exponent ---------------------------------------------------- */

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* The exponent of law l, or NaN. */
static double exponent_of(const ls_law *l)
{
    double n, d, a;
    ls_error err;
    return ls_law_compute_optimal(l, 1e21, &n, &d, &a, &err) == 0 ? a : NAN;
}

int ls_fit_optimum_exponent(const ls_fit_result *r, const ls_fit_bootstrap *b, double level, ls_fit_exponent *out,
                            ls_error *err)
{
    out->a = out->se = out->low = out->high = NAN;
    out->level = level;
    out->ndraws = 0;
    if (!(level > 0 && level < 1))
        return ls_error_set(err, LS_ERR_USAGE, "the interval level must be between 0 and 1 (got %g)", level);
    double n_opt, d_opt;
    int status = ls_law_compute_optimal(&r->law, 1e21, &n_opt, &d_opt, &out->a, err);
    if (status != 0)
        return status;
    /* The delta method: a's gradient in the fitted coordinates by central
     * differences (a depends on the exponents alone, smoothly), against
     * the sandwich covariance. */
    double grad[LS_LAW_NPARAMS] = {0};
    int used[LS_LAW_NPARAMS] = {0}, missing = 0;
    ls_law_param list[LS_LAW_NPARAMS];
    size_t np = ls_law_params_of(r->law.kind, list);
    for (size_t k = 0; k < np; k++) {
        ls_law_param j = list[k];
        if (r->fixed[j] || r->tied[j])
            continue;
        double u = ls_law_param_to_fitted(j, r->law.p[j]), h = 1e-6 * fmax(fabs(u), 1.0);
        ls_law up = r->law, down = r->law;
        up.p[j] = ls_law_param_from_fitted(j, u + h);
        down.p[j] = ls_law_param_from_fitted(j, u - h);
        for (int t = 0; t < LS_LAW_NPARAMS; t++)
            if (r->tied[t] == j + 1)
                up.p[t] = up.p[j], down.p[t] = down.p[j];
        grad[j] = (exponent_of(&up) - exponent_of(&down)) / (2.0 * h);
        if (grad[j] != 0.0) {
            used[j] = 1;
            missing |= !isfinite(grad[j]) || !isfinite(r->covariance[j * LS_LAW_NPARAMS + j]);
        }
    }
    double var = 0.0;
    int moves = 0;
    for (int i = 0; i < LS_LAW_NPARAMS; i++)
        for (int j = 0; j < LS_LAW_NPARAMS; j++)
            if (used[i] && used[j])
                var += grad[i] * grad[j] * r->covariance[i * LS_LAW_NPARAMS + j], moves = 1;
    /* With every exponent a depends on held, the fit says nothing of a:
     * no standard error (not a zero one, whose interval would have no
     * width). */
    out->se = missing || !moves || !(var >= 0) ? NAN : sqrt(var);
    double tail = (1.0 - level) / 2.0;
    if (!moves) /* the draws hold the exponents as well */
        return 0;
    if (b && b->ndraws >= LS_FIT_MIN_INTERVAL_DRAWS) {
        double *as = malloc(b->ndraws * sizeof *as);
        if (!as)
            return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        size_t m = 0;
        for (size_t i = 0; i < b->ndraws; i++) {
            ls_law l = r->law;
            memcpy(l.p, b->draws + i * LS_LAW_NPARAMS, sizeof l.p);
            double a = exponent_of(&l);
            if (isfinite(a))
                as[m++] = a;
        }
        if (m >= LS_FIT_MIN_INTERVAL_DRAWS) {
            /* As ls_fit_run_bootstrap reads the parameters' intervals
             * (gsl_stats_quantile_from_sorted_data: linear between order
             * statistics). */
            qsort(as, m, sizeof *as, compare_doubles);
            out->low = gsl_stats_quantile_from_sorted_data(as, 1, m, tail);
            out->high = gsl_stats_quantile_from_sorted_data(as, 1, m, 1.0 - tail);
            out->ndraws = m;
        }
        free(as);
        if (m >= LS_FIT_MIN_INTERVAL_DRAWS)
            return 0;
    }
    if (isfinite(out->se)) {
        double z = gsl_cdf_ugaussian_Pinv(1.0 - tail);
        out->low = out->a - z * out->se;
        out->high = out->a + z * out->se;
    }
    return 0;
}

/* ---- residual trends and the runs' own noise ---------------------------------------- */

const char *ls_fit_axis_name(ls_fit_axis axis)
{
    static const char *const names[LS_FIT_NAXES] = {"N", "D", "R", "E", "U"};
    return axis < LS_FIT_NAXES ? names[axis] : NULL;
}

static double axis_value(const ls_sweep_row *row, ls_fit_axis axis)
{
    switch (axis) {
    case LS_FIT_AXIS_N: return row->n_act;
    case LS_FIT_AXIS_D: return row->tokens;
    case LS_FIT_AXIS_R: return row->R;
    case LS_FIT_AXIS_E: return row->E;
    default: return row->unique_tokens;
    }
}

typedef struct ranked {
    double v;
    size_t i;
} ranked;

static int compare_ranked(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    return (x->v > y->v) - (x->v < y->v);
}

/* Ranks 1..n of v (ties: their mean rank) into rank. */
static void mean_ranks(const double *v, size_t n, ranked *tmp, double *rank)
{
    for (size_t i = 0; i < n; i++)
        tmp[i] = (ranked){v[i], i};
    qsort(tmp, n, sizeof *tmp, compare_ranked);
    for (size_t i = 0; i < n;) {
        size_t k = i;
        while (k + 1 < n && tmp[k + 1].v == tmp[i].v)
            k++;
        double mean = 0.5 * (double)(i + k) + 1.0;
        for (size_t m = i; m <= k; m++)
            rank[tmp[m].i] = mean;
        i = k + 1;
    }
}

int ls_fit_residual_trend(const ls_sweep *s, const ls_law *l, const ls_fit_parameters *p, ls_fit_axis axis,
                          double *rho, double *t, ls_error *err)
{
    *rho = *t = NAN;
    size_t n = s->n;
    if (axis >= LS_FIT_NAXES)
        return ls_error_set(err, LS_ERR_USAGE, "no such axis");
    if (n < 4)
        return ls_error_set(err, LS_ERR_DATA, "%s: %zu runs are too few to test for a trend", s->name, n);
    int distinct = 0;
    for (size_t i = 0; i < n; i++) {
        double x = axis_value(&s->rows[i], axis);
        if (!(x > 0))
            return ls_error_set(err, LS_ERR_DATA, "%s: line %ld has no positive %s", s->name, s->rows[i].line,
                                ls_fit_axis_name(axis));
        distinct |= x != axis_value(&s->rows[0], axis);
    }
    if (!distinct)
        return ls_error_set(err, LS_ERR_DATA, "%s: every run has one %s", s->name, ls_fit_axis_name(axis));
    double *buf = malloc(4 * n * sizeof *buf);
    ranked *tmp = malloc(n * sizeof *tmp);
    if (!buf || !tmp) {
        free(buf);
        free(tmp);
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    }
    double *x = buf, *res = buf + n, *rx = buf + 2 * n, *rr = buf + 3 * n;
    ls_law_prepared prep;
    ls_law_prepare(&prep, l);
    int log_space = !p || p->space == LS_FIT_SPACE_LOG;
    for (size_t i = 0; i < n; i++) {
        ls_law_point pt = ls_sweep_row_point(&s->rows[i]);
        ls_law_row row;
        ls_law_row_init(&row, &pt);
        double ln_pred = ls_law_row_log_loss_grad(&prep, &row, NULL);
        res[i] = log_space ? ln_pred - log(s->rows[i].loss) : exp(ln_pred) - s->rows[i].loss;
        x[i] = axis_value(&s->rows[i], axis); /* ranks of X are those of ln X */
    }
    mean_ranks(x, n, tmp, rx);
    mean_ranks(res, n, tmp, rr);
    double mx = 0.5 * (double)(n + 1), sxy = 0.0, sxx = 0.0, syy = 0.0;
    for (size_t i = 0; i < n; i++) {
        sxy += (rx[i] - mx) * (rr[i] - mx);
        sxx += (rx[i] - mx) * (rx[i] - mx);
        syy += (rr[i] - mx) * (rr[i] - mx);
    }
    free(buf);
    free(tmp);
    *rho = sxy / sqrt(sxx * syy);
    *t = *rho * sqrt((double)(n - 2) / fmax(1.0 - *rho * *rho, 1e-300));
    return 0;
}

int ls_fit_noise_floor(const ls_sweep *s, int with_u, double *sigma, size_t *repeats, ls_error *err)
{
    *sigma = NAN;
    if (repeats)
        *repeats = 0;
    size_t n = s->n;
    if (n < 3)
        return ls_error_set(err, LS_ERR_DATA, "%s: %zu runs are too few to estimate their noise", s->name, n);
    if (n > LS_VERDICT_NOISE_MAX_RUNS)
        return ls_error_set(err, LS_ERR_DATA, "%s: %zu runs are more than the noise estimate compares (%d)", s->name,
                            n, LS_VERDICT_NOISE_MAX_RUNS);
    int dims = with_u ? 5 : 4;
    double *x = malloc(n * 5 * sizeof *x), *d2 = malloc(n * sizeof *d2);
    if (!x || !d2) {
        free(x);
        free(d2);
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        const ls_sweep_row *r = &s->rows[i];
        double v[5] = {r->n_act, r->tokens, r->R, r->E, r->unique_tokens};
        for (int q = 0; q < dims; q++)
            x[i * 5 + (size_t)q] = v[q] > 0 ? log(v[q]) : 0.0;
    }
    size_t same = 0;
    for (size_t i = 0; i < n; i++) {
        double best = INFINITY;
        size_t at = i;
        for (size_t k = 0; k < n; k++) {
            if (k == i)
                continue;
            double dist = 0.0;
            for (int q = 0; q < dims; q++) {
                double e = x[i * 5 + (size_t)q] - x[k * 5 + (size_t)q];
                dist += e * e;
            }
            if (dist < best) {
                best = dist;
                at = k;
            }
        }
        double d = s->rows[i].loss - s->rows[at].loss;
        d2[i] = d * d;
        same += best == 0.0;
    }
    qsort(d2, n, sizeof *d2, compare_doubles);
    double median = gsl_stats_median_from_sorted_data(d2, 1, n);
    free(x);
    free(d2);
    /* d = e_i - e_j ~ N(0, 2 sigma^2): d^2 / (2 sigma^2) ~ chi^2_1, whose median is 0.45494. */
    *sigma = sqrt(median / (2.0 * 0.454936423119572));
    if (repeats)
        *repeats = same;
    return 0;
}

/* ---- runs of several experiments --------------------------------------------------- */

int ls_fit_residual_scale(const ls_sweep *s, const ls_law *l, double *sigma, ls_error *err)
{
    *sigma = NAN;
    if (s->n == 0)
        return ls_error_set(err, LS_ERR_DATA, "%s: no runs", s->name);
    double *r = malloc(s->n * sizeof *r);
    if (!r)
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    ls_law_prepared prep;
    ls_law_prepare(&prep, l);
    for (size_t i = 0; i < s->n; i++) {
        ls_law_point pt = ls_sweep_row_point(&s->rows[i]);
        ls_law_row row;
        ls_law_row_init(&row, &pt);
        r[i] = fabs(exp(ls_law_row_log_loss_grad(&prep, &row, NULL)) - s->rows[i].loss);
    }
    qsort(r, s->n, sizeof *r, compare_doubles);
    *sigma = 1.482602218505602 * gsl_stats_median_from_sorted_data(r, 1, s->n); /* 1 / Phi^-1(3/4) */
    free(r);
    return 0;
}

/* A run's configuration as the noise floor compares them, and its index. */
typedef struct config_key {
    double v[5];
    size_t row;
} config_key;

static int compare_configs(const void *a, const void *b)
{
    const config_key *x = a, *y = b;
    for (int q = 0; q < 5; q++)
        if (x->v[q] != y->v[q])
            return x->v[q] < y->v[q] ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

int ls_fit_mixing_of(const ls_sweep *s, size_t factor, int with_u, ls_fit_mixing *out, ls_error *err)
{
    memset(out, 0, sizeof *out);
    out->mean = out->t = NAN;
    const ls_sweep_factor *x = &s->factors[factor];
    size_t nv = x->nvalues, n = s->n;
    if (nv < 2 || n < 2)
        return 0;
    config_key *keys = malloc(n * sizeof *keys);
    /* Per configuration, each value's loss sum and count; per pair of
     * values (a < b, at a * nv + b), the count, sum and sum of squares of
     * the differences. */
    double *sum = calloc(nv, sizeof *sum), *cnt = calloc(nv, sizeof *cnt);
    double *pm = calloc(nv * nv, sizeof *pm), *ps = calloc(nv * nv, sizeof *ps), *pq = calloc(nv * nv, sizeof *pq);
    size_t *present = malloc(nv * sizeof *present);
    int status = 0;
    if (!keys || !sum || !cnt || !pm || !ps || !pq || !present)
        status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    for (size_t i = 0; status == 0 && i < n; i++) {
        const ls_sweep_row *r = &s->rows[i];
        double u = with_u && r->unique_tokens > 0 ? r->unique_tokens : 0.0;
        keys[i] = (config_key){{r->n_act, r->tokens, r->R, r->E, u}, i};
    }
    if (status == 0)
        qsort(keys, n, sizeof *keys, compare_configs);
    for (size_t i = 0; status == 0 && i < n;) {
        size_t k = i + 1;
        while (k < n && memcmp(keys[k].v, keys[i].v, sizeof keys[i].v) == 0)
            k++;
        size_t np = 0;
        for (size_t m = i; m < k; m++) {
            size_t v = x->of_row[keys[m].row];
            if (cnt[v] == 0)
                present[np++] = v;
            sum[v] += s->rows[keys[m].row].loss;
            cnt[v] += 1;
        }
        for (size_t p = 0; p < np; p++)
            for (size_t q = 0; q < np; q++) {
                size_t a = present[p], b = present[q];
                if (a >= b)
                    continue;
                double d = sum[a] / cnt[a] - sum[b] / cnt[b];
                pm[a * nv + b] += 1;
                ps[a * nv + b] += d;
                pq[a * nv + b] += d * d;
            }
        for (size_t p = 0; p < np; p++)
            sum[present[p]] = cnt[present[p]] = 0;
        i = k;
    }
    /* The pair of largest |mean| among the clear ones, else of largest |t|. */
    int clear = 0;
    for (size_t a = 0; status == 0 && a < nv; a++)
        for (size_t b = a + 1; b < nv; b++) {
            double m = pm[a * nv + b];
            if (m < LS_VERDICT_MIX_MIN_CONFIGS)
                continue;
            double mean = ps[a * nv + b] / m, var = fmax((pq[a * nv + b] - m * mean * mean) / (m - 1.0), 0.0);
            /* Differences equal to rounding are no difference. */
            if (var <= 1e-24 * mean * mean)
                var = 0.0;
            double t = var > 0 ? mean / sqrt(var / m) : mean != 0 ? copysign(INFINITY, mean) : 0.0;
            int is_clear = fabs(t) > LS_VERDICT_MIX_T;
            int better = out->configurations == 0 || (is_clear && !clear) ||
                         (is_clear ? fabs(mean) > fabs(out->mean) : !clear && fabs(t) > fabs(out->t));
            if (better)
                *out = (ls_fit_mixing){a, b, (size_t)m, mean, t};
            clear |= is_clear;
        }
    free(keys);
    free(sum);
    free(cnt);
    free(pm);
    free(ps);
    free(pq);
    free(present);
    return status;
}

/* The columns whose values split the runs into experiments the law does not
 * tell apart (ls_fit_mixing_of), one warning each. */
static int mixing_verdicts(const ls_sweep *s, const ls_fit_result *r, int with_u, ls_warnings *out)
{
    double scale;
    ls_error scratch;
    if (s->nfactors == 0 || ls_fit_residual_scale(s, &r->law, &scale, &scratch) != 0)
        return 0;
    int status = 0;
    for (size_t f = 0; f < s->nfactors && status == 0; f++) {
        ls_fit_mixing m;
        if (ls_fit_mixing_of(s, f, with_u, &m, &scratch) != 0)
            return LS_ERR_INTERNAL;
        if (!m.configurations || !(fabs(m.t) > LS_VERDICT_MIX_T) ||
            !(fabs(m.mean) > LS_VERDICT_MIX_RATIO * scale))
            continue;
        const ls_sweep_factor *x = &s->factors[f];
        int a_higher = m.mean > 0;
        const char *hi = x->values[a_higher ? m.value_a : m.value_b], *lo = x->values[a_higher ? m.value_b : m.value_a];
        char t[48];
        if (isfinite(m.t))
            snprintf(t, sizeof t, "t = %.1f", fabs(m.t));
        else
            snprintf(t, sizeof t, "the same at each");
        status = ls_warnings_add(out, LS_WARNING_FIT_QUALITY, x->name,
                                 "runs at one configuration differ in column '%s', and their losses with it: at the "
                                 "%zu configurations run with both, %s = '%s' has a loss %.3g above '%s' on average "
                                 "(%s), more than the fit's residuals (%.3g): these look like different experiments "
                                 "fitted as one law; fit each with --by %s, or keep one with --where '%s=VALUE'",
                                 x->name, m.configurations, x->name, hi, fabs(m.mean), lo, t, scale, x->name,
                                 x->name);
    }
    return status;
}

/* ---- the verdict -------------------------------------------------------------------- */

/* The names in one line of ls_fit_unidentified_warnings ("delta, gamma are
 * held at 0, 0: ...") into buf. */
static void held_subject(const char *line, size_t len, char *buf, size_t size)
{
    const char *end = NULL;
    for (const char *q = line; q + 4 <= line + len && !end; q++)
        if (strncmp(q, " is held", 8) == 0 || strncmp(q, " are held", 9) == 0)
            end = q;
    size_t k = end ? (size_t)(end - line) : 0;
    snprintf(buf, size, "%.*s", (int)(k < size ? k : size - 1), line);
}

static int interval_verdicts(const ls_fit_result *r, const ls_fit_bootstrap *b, ls_warnings *w,
                             const unsigned char reported[LS_LAW_NPARAMS])
{
    int status = 0;
    ls_law_param list[LS_LAW_NPARAMS];
    size_t np = ls_law_params_of(r->law.kind, list);
    double z = gsl_cdf_ugaussian_Pinv(0.5 + LS_VERDICT_LEVEL / 2.0);
    for (size_t k = 0; k < np; k++) {
        ls_law_param j = list[k];
        if (r->fixed[j] || r->tied[j] || reported[j])
            continue;
        const char *name = ls_law_param_name(j);
        double v = r->law.p[j], lo, hi, level;
        const char *from;
        if (b && b->ndraws >= LS_FIT_MIN_INTERVAL_DRAWS && isfinite(b->ci_low[j]) && isfinite(b->ci_high[j])) {
            lo = b->ci_low[j], hi = b->ci_high[j], level = b->level;
            from = "bootstrap interval";
        } else {
            double u = ls_law_param_to_fitted(j, v), se = sqrt(r->covariance[j * LS_LAW_NPARAMS + j]);
            if (!isfinite(se))
                continue;
            lo = ls_law_param_from_fitted(j, u - z * se), hi = ls_law_param_from_fitted(j, u + z * se);
            level = LS_VERDICT_LEVEL;
            from = "interval from its standard error";
        }
        ls_law_transform tr = ls_law_param_transform(j);
        if (tr == LS_LAW_TRANSFORM_IDENTITY) {
            /* An exponent whose interval reaches past its domain's bound
             * (alpha >= 0, theta in [0, 5]): the runs do not tell it from
             * the bound. */
            ls_error scratch;
            double dlo, dhi;
            ls_law_param_domain(j, &dlo, &dhi);
            int below = ls_law_param_check(j, lo, &scratch) != 0, above = ls_law_param_check(j, hi, &scratch) != 0;
            if (below || above) {
                /* The estimate is inside; its interval takes in the bound,
                 * which the runs therefore cannot rule out. */
                status |= ls_warnings_add(w, LS_WARNING_AT_BOUND, name,
                                          "the runs do not tell %s = %.3g from its %s bound %g: its %g%% %s [%.3g, "
                                          "%.3g] reaches past it", name, v, below ? "lower" : "upper",
                                          below ? dlo : dhi, 100 * level, from, lo, hi);
                continue;
            }
            char width[32];
            if (hi - lo > LS_VERDICT_EXPONENT_WIDTH)
                status |= ls_warnings_add(w, LS_WARNING_UNDETERMINED, name,
                                          "%s = %.3g is poorly determined: its %g%% %s [%.3g, %.3g] is %s wide, "
                                          "more than %g", name, v, 100 * level, from, lo, hi,
                                          beyond(width, sizeof width, hi - lo, LS_VERDICT_EXPONENT_WIDTH, 0),
                                          LS_VERDICT_EXPONENT_WIDTH);
            continue;
        }
        double base = tr == LS_LAW_TRANSFORM_LOG_MINUS_1 ? 1.0 : 0.0; /* E_max - 1 is the scale */
        double factor = (hi - base) / (lo - base);
        char shown[32];
        if (factor > LS_VERDICT_SCALE_FACTOR)
            status |= ls_warnings_add(w, LS_WARNING_UNDETERMINED, name,
                                      "%s = %.3g is poorly determined: its %g%% %s [%.3g, %.3g] spans a factor "
                                      "%s, more than %g", name, v, 100 * level, from, lo, hi,
                                      beyond(shown, sizeof shown, factor, LS_VERDICT_SCALE_FACTOR, 0),
                                      LS_VERDICT_SCALE_FACTOR);
    }
    return status;
}

int ls_fit_verdict(const ls_sweep *s, const ls_fit_result *r, const ls_fit_bootstrap *b, const ls_fit_parameters *p,
                   ls_warnings *out, ls_error *err)
{
    ls_fit_parameters defaults;
    if (!p) {
        ls_fit_default_parameters(&defaults);
        p = &defaults;
    }
    int status = 0;
    char *held = ls_fit_unidentified_warnings(r);
    for (const char *line = held, *end; line && (end = strchr(line, '\n')); line = end + 1) {
        char subject[160];
        held_subject(line, (size_t)(end - line), subject, sizeof subject);
        status |= ls_warnings_add(out, LS_WARNING_UNIDENTIFIED, subject, "%.*s", (int)(end - line), line);
    }
    free(held);
    unsigned char reported[LS_LAW_NPARAMS] = {0};
    status |= diagnose_into(s, r, b, out, reported);
    status |= interval_verdicts(r, b, out, reported);
    ls_fit_exponent a;
    ls_error scratch;
    char shown[32];
    if (ls_fit_optimum_exponent(r, b, b && b->ndraws >= LS_FIT_MIN_INTERVAL_DRAWS ? b->level : LS_VERDICT_LEVEL, &a,
                                &scratch) == 0 &&
        a.high - a.low > LS_VERDICT_OPTIMUM_WIDTH)
        status |= ls_warnings_add(out, LS_WARNING_UNDETERMINED, "a",
                                  "the compute-optimal exponent a = %.3g is poorly determined: its %g%% %s [%.3g, "
                                  "%.3g] is %s wide, more than %g, so N_opt and D_opt far from the runs are not "
                                  "to be trusted", a.a, 100 * a.level,
                                  a.ndraws ? "bootstrap interval" : "interval from the standard errors", a.low,
                                  a.high, beyond(shown, sizeof shown, a.high - a.low, LS_VERDICT_OPTIMUM_WIDTH, 0),
                                  LS_VERDICT_OPTIMUM_WIDTH);
    int with_u = ls_law_uses_param(r->law.kind, LS_LAW_P_R_D_STAR);
    for (int axis = 0; axis < LS_FIT_NAXES; axis++) {
        if (axis == LS_FIT_AXIS_U && !with_u)
            continue;
        double rho, t;
        if (ls_fit_residual_trend(s, &r->law, p, (ls_fit_axis)axis, &rho, &t, &scratch) != 0)
            continue;
        if (fabs(t) > LS_VERDICT_TREND_T && fabs(rho) > LS_VERDICT_TREND_RHO)
            status |= ls_warnings_add(out, LS_WARNING_FIT_QUALITY, ls_fit_axis_name((ls_fit_axis)axis),
                                      "the residuals trend along %s: their rank correlation with ln %s is %.2f (t = "
                                      "%s): the law misses how the loss changes with %s; try another law or "
                                      "mapping", ls_fit_axis_name((ls_fit_axis)axis),
                                      ls_fit_axis_name((ls_fit_axis)axis), rho,
                                      beyond(shown, sizeof shown, t, t > 0 ? LS_VERDICT_TREND_T : -LS_VERDICT_TREND_T, 1),
                                      ls_fit_axis_name((ls_fit_axis)axis));
    }
    status |= mixing_verdicts(s, r, with_u, out);
    double sigma;
    size_t repeats;
    /* An RMSE at round-off (exact losses, fitted exactly) is no misfit,
     * whatever the runs' own noise. */
    if (ls_fit_noise_floor(s, with_u, &sigma, &repeats, &scratch) == 0 && r->rmse > LS_VERDICT_NOISE_RATIO * sigma &&
        r->rmse > 1e-9) {
        char ratio[48];
        /* Runs without noise (a simulated sweep) show none to compare with. */
        if (sigma > 0)
            snprintf(ratio, sizeof ratio, "%s times", beyond(shown, sizeof shown, r->rmse / sigma, LS_VERDICT_NOISE_RATIO, 0));
        else
            snprintf(ratio, sizeof ratio, "far above");
        status |= ls_warnings_add(out, LS_WARNING_FIT_QUALITY, "",
                                  "the RMSE, %.3g, is %s the noise the runs themselves show (%.3g, from each run's "
                                  "%s): the law does not describe these runs", r->rmse, ratio, sigma,
                                  repeats * 2 > s->n ? "repeat" : "nearest neighbour");
    }
    if (status != 0)
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    return 0;
}
