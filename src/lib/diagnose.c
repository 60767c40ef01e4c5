#include "loopscale/diagnose.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

char *ls_fit_diagnose(const ls_sweep *s, const ls_fit_result *r, const ls_fit_bootstrap *b)
{
    lines out = {0};
    const double *p = r->law.p;
    /* The lowest observed loss, and where. */
    size_t lowest = 0;
    for (size_t i = 1; i < s->n; i++)
        if (s->rows[i].loss < s->rows[lowest].loss)
            lowest = i;
    double min_loss = s->n ? s->rows[lowest].loss : NAN;
    unsigned char reported[LS_LAW_NPARAMS] = {0};
    if (ls_law_uses_param(r->law.kind, LS_LAW_P_C) && !r->fixed[LS_LAW_P_C] && s->n) {
        double c = p[LS_LAW_P_C], se = r->stderr_of[LS_LAW_P_C];
        if (c < LS_DIAGNOSE_C_AT_ZERO * min_loss && !(se <= c)) {
            add_line(&out, "c = %.3g ran to its bound 0 (standard error %.2g): the runs show no irreducible loss, "
                     "and the exponents absorb it; try --fix c=VALUE, or a law without c (kaplan)", c, se);
            reported[LS_LAW_P_C] = 1;
        } else if (c >= min_loss) {
            add_line(&out, "c = %.4g is above the lowest observed loss, %.4g (line %ld): the law cannot reach that "
                     "run, so its irreducible loss is not a floor", c, min_loss, s->rows[lowest].line);
        }
    }
    ls_law_param list[LS_LAW_NPARAMS];
    size_t np = ls_law_params_of(r->law.kind, list);
    for (size_t k = 0; k < np; k++) {
        ls_law_param j = list[k];
        if (r->fixed[j] || reported[j])
            continue;
        /* A positive parameter (fitted as a logarithm) is unbounded when
         * its standard error dwarfs its value; one that may take either
         * sign merely includes 0 then, and is unbounded only when the
         * error dwarfs 1 as well (an exponent of +-10 or more). */
        double v = p[j], se = r->stderr_of[j];
        double scale = ls_law_param_transform(j) == LS_LAW_TRANSFORM_IDENTITY ? fmax(fabs(v), 1.0) : fabs(v);
        if (se > LS_DIAGNOSE_UNBOUNDED_RATIO * scale) {
            add_line(&out, "%s = %.3g is not determined by the runs: its standard error, %.2g, is %.2g times its "
                     "value (an unbounded interval)", ls_law_param_name(j), v, se, se / fabs(v));
            reported[j] = 1;
            continue;
        }
        /* Draws that ran past the domain were dropped, so the interval
         * alone would look narrower than the data leave it. */
        if (b && b->outside_of[j] > 0) {
            add_line(&out, "%s = %.3g is not determined by the runs: %zu of %zu bootstrap draws ran it out of its "
                     "domain (dropped)", ls_law_param_name(j), v, b->outside_of[j],
                     b->ndraws + b->failed + b->outside);
            reported[j] = 1;
            continue;
        }
        if (b && b->ndraws > 0 && ls_law_param_transform(j) != LS_LAW_TRANSFORM_IDENTITY && b->ci_low[j] > 0 &&
            b->ci_high[j] > 1e3 * b->ci_low[j])
            add_line(&out, "%s = %.3g is not determined by the runs: its %g%% bootstrap interval [%.3g, %.3g] spans "
                     "a factor %.2g", ls_law_param_name(j), v, 100 * b->level, b->ci_low[j], b->ci_high[j],
                     b->ci_high[j] / b->ci_low[j]);
    }
    return finish(&out);
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
