/*
 * bench/verdicts.c — the figures behind the verdict's thresholds
 * (docs/fitting.md, "The verdict on a fit"): for one fit of a sweep, every
 * free parameter's 95% interval from its standard error and from the
 * bootstrap, the compute-optimal exponent's, the residuals' rank
 * correlation with each axis, the RMSE against the runs' own noise, each
 * column no quantity is read from against the residuals' scale (runs of
 * several experiments), and the warnings ls_fit_verdict gives without and
 * with the bootstrap.
 *
 *   bench_verdicts [--law KIND] [--map NEW=OLD]... [--where COND]... [--fix NAME=VALUE]...
 *                  [--grid] [--draws N] FILE
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loopscale/diagnose.h"
#include "loopscale/fit.h"
#include "loopscale/sweep.h"

static void print_warnings(const char *title, const ls_warnings *w)
{
    printf("%s: %zu\n", title, w->n);
    for (size_t i = 0; i < w->n; i++)
        printf("  %s [%s] %s\n", ls_warning_code_name(w->v[i].code), w->v[i].subject, w->v[i].message);
}

int main(int argc, char **argv)
{
    const char *maps[16], *wheres[16], *kind_text = "dense", *path = NULL;
    size_t nmaps = 0, nwheres = 0, draws = 200;
    ls_fit_parameters p;
    ls_fit_default_parameters(&p);
    ls_error err;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--law") == 0 && i + 1 < argc)
            kind_text = argv[++i];
        else if (strcmp(argv[i], "--map") == 0 && i + 1 < argc && nmaps < 16)
            maps[nmaps++] = argv[++i];
        else if (strcmp(argv[i], "--where") == 0 && i + 1 < argc && nwheres < 16)
            wheres[nwheres++] = argv[++i];
        else if (strcmp(argv[i], "--grid") == 0)
            p.grid_chinchilla = 1;
        else if (strcmp(argv[i], "--draws") == 0 && i + 1 < argc) {
            char *end;
            draws = strtoul(argv[++i], &end, 10);
            if (end == argv[i] || *end != '\0')
                return 64;
        }
        else if (strcmp(argv[i], "--fix") == 0 && i + 1 < argc) {
            char *eq = strchr(argv[++i], '=');
            if (!eq)
                return 64;
            *eq = '\0';
            int j = ls_law_param_from_name(argv[i]);
            if (j < 0)
                return 64;
            char *end;
            p.fixed[j] = 1;
            p.fixed_value[j] = strtod(eq + 1, &end);
            if (end == eq + 1 || *end != '\0' || !isfinite(p.fixed_value[j]))
                return 64;
        } else
            path = argv[i];
    }
    ls_law_kind kind;
    if (!path || ls_law_kind_parse(kind_text, &kind, &err) != 0) {
        fprintf(stderr, "usage: bench_verdicts [--law KIND] [--map M] [--where W] [--fix P=V] [--grid] FILE\n");
        return 64;
    }
    ls_sweep_options o = {0};
    o.maps = maps, o.nmaps = nmaps, o.wheres = wheres, o.nwheres = nwheres, o.require_loss = 1, o.factors = 1;
    const char *paths[] = {path};
    ls_sweep *s = ls_sweep_read(paths, 1, &o, &err);
    if (!s) {
        fprintf(stderr, "%s\n", err.message);
        return 1;
    }
    ls_fit_result r;
    if (ls_fit_run(s, kind, &p, &r, &err) != 0 || ls_fit_usable(s, kind, &p, &r, &err) != 0) {
        fprintf(stderr, "%s\n", err.message);
        return 3;
    }
    ls_fit_bootstrap b;
    if (ls_fit_run_bootstrap(s, &r, &p, draws, 2, 0, 0.95, &b, &err) != 0) {
        fprintf(stderr, "%s\n", err.message);
        return 3;
    }
    printf("runs %zu  RMSE %.4g\n", r.n, r.rmse);
    printf("%-10s %12s %12s  %-22s %-22s\n", "parameter", "value", "stderr", "95% from stderr", "95% bootstrap");
    ls_law_param list[LS_LAW_NPARAMS];
    size_t np = ls_law_params_of(kind, list);
    for (size_t k = 0; k < np; k++) {
        ls_law_param j = list[k];
        if (r.fixed[j] || r.tied[j])
            continue;
        double v = r.law.p[j], u = ls_law_param_to_fitted(j, v), se = sqrt(r.covariance[j * LS_LAW_NPARAMS + j]);
        double lo = ls_law_param_from_fitted(j, u - 1.96 * se), hi = ls_law_param_from_fitted(j, u + 1.96 * se);
        int scale = ls_law_param_transform(j) != LS_LAW_TRANSFORM_IDENTITY;
        char a[64], c[64];
        if (scale)
            snprintf(a, sizeof a, "factor %.3g", hi / lo), snprintf(c, sizeof c, "factor %.3g", b.ci_high[j] / b.ci_low[j]);
        else
            snprintf(a, sizeof a, "width %.3g", hi - lo), snprintf(c, sizeof c, "width %.3g", b.ci_high[j] - b.ci_low[j]);
        printf("%-10s %12.6g %12.4g  %-22s %-22s\n", ls_law_param_name(j), v, r.stderr_of[j], a, c);
    }
    printf("%-10s %-30s %8s %s\n", "parameter", "95% profile interval", "refits", "bootstrap draws inside");
    for (size_t k = 0; k < np; k++) {
        ls_law_param j = list[k];
        ls_fit_profile pr;
        if (r.fixed[j] || r.tied[j] || ls_fit_profile_interval(s, &r, &p, j, 0.95, &pr, &err) != 0)
            continue;
        size_t inside = 0;
        for (size_t i = 0; i < b.ndraws; i++) {
            double x = b.draws[i * LS_LAW_NPARAMS + j];
            inside += (!pr.closed_low || x >= pr.low) && (!pr.closed_high || x <= pr.high);
        }
        char iv[64];
        snprintf(iv, sizeof iv, "%s%.4g, %.4g%s", pr.closed_low ? "[" : "(open ", pr.low, pr.high,
                 pr.closed_high ? "]" : " open)");
        printf("%-10s %-30s %8zu %.3f\n", ls_law_param_name(j), iv, pr.refits,
               b.ndraws ? (double)inside / (double)b.ndraws : NAN);
    }
    ls_fit_exponent e, eb;
    if (ls_fit_optimum_exponent(&r, NULL, 0.95, &e, &err) == 0 && ls_fit_optimum_exponent(&r, &b, 0.95, &eb, &err) == 0)
        printf("a %.4f  from stderr [%.4f, %.4f] width %.3f  bootstrap [%.4f, %.4f] width %.3f\n", e.a, e.low, e.high,
               e.high - e.low, eb.low, eb.high, eb.high - eb.low);
    for (int axis = 0; axis < LS_FIT_NAXES; axis++) {
        double rho, t;
        if (ls_fit_residual_trend(s, &r.law, &p, (ls_fit_axis)axis, &rho, &t, &err) == 0)
            printf("trend %s rho %+.3f t %+.2f\n", ls_fit_axis_name((ls_fit_axis)axis), rho, t);
    }
    double sigma;
    size_t repeats;
    int with_u = ls_law_uses_param(kind, LS_LAW_P_R_D_STAR);
    if (ls_fit_noise_floor(s, with_u, &sigma, &repeats, &err) == 0)
        printf("noise %.4g (%zu runs beside a repeat)  RMSE / noise %.3g\n", sigma, repeats, r.rmse / sigma);
    double scale;
    if (ls_fit_residual_scale(s, &r.law, &scale, &err) == 0)
        printf("residual scale %.4g\n", scale);
    for (size_t f = 0; f < s->nfactors; f++) {
        ls_fit_mixing m;
        if (ls_fit_mixing_of(s, f, with_u, &m, &err) != 0)
            return 1;
        if (m.configurations)
            printf("column %s: '%s' - '%s' at %zu configurations: mean %+.4g (%.3g x the residual scale), t %.3g\n",
                   s->factors[f].name, s->factors[f].values[m.value_a], s->factors[f].values[m.value_b],
                   m.configurations, m.mean, fabs(m.mean) / scale, m.t);
    }
    ls_warnings w0 = {0}, w1 = {0};
    if (ls_fit_verdict(s, &r, NULL, &p, &w0, &err) != 0 || ls_fit_verdict(s, &r, &b, &p, &w1, &err) != 0)
        return 1;
    print_warnings("verdict without bootstrap", &w0);
    print_warnings("verdict with bootstrap", &w1);
    ls_warnings_free(&w0);
    ls_warnings_free(&w1);
    ls_fit_bootstrap_free(&b);
    ls_sweep_free(s);
    return 0;
}
