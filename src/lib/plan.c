/*
 * plan.c — greedy c-optimal choice of the runs to train next (docs/plan.md).
 *
 * For each bootstrap draw s of the prior the state is the Fisher information
 * I_s of the fitted coordinates (weak prior + runs already trained + runs
 * chosen so far), its inverse M_s and a_s = M_s c_s, c_s the gradient of the
 * gap between draw s's own choice and runner-up.  Adding run j lowers
 * c_s' M_s c_s by
 *     w (a_s . j)^2 / (1 + w j' M_s j)            (Sherman and Morrison),
 * and each step takes the candidate with the largest mean drop per FLOP.
 * After a choice, I_s is updated and inverted afresh by Cholesky (p is at
 * most LS_LAW_NPARAMS), which keeps M_s exact however many steps are taken.
 *
 * ls_plan_validate() checks a plan by simulation: noisy sweeps drawn from a
 * truth for the planned design and for a thinned grid, each fitted
 * (ls_fit_run) and solved, replicates in parallel.
 */
#include "loopscale/plan.h"

#include <float.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <gsl/gsl_eigen.h>
#include <gsl/gsl_matrix.h>
#include <gsl/gsl_vector.h>

#include "huber_internal.h"
#include "parallel_internal.h"

void ls_plan_default_parameters(ls_plan_parameters *p)
{
    p->budget_flops = NAN;
    p->noise_sigma = NAN;
    p->huber_delta = 1e-3;
    p->prior_sd = 1.0;
    p->max_draws = 100;
    p->threads = 0;
    p->target_params = NULL;
    p->ntarget_params = 0;
    p->min_runs_per_param = 2;
    p->max_condition = 1e12;
    p->search_sweeps = 32;
    p->search_moves = 6;
    p->seed = 1;
    ls_fit_default_parameters(&p->fit);
    p->isoflop_budgets = 3;
    p->isoflop_sizes = 8;
    p->isoflop_budget_ratio = sqrt(10.0);
    p->isoflop_span = 3.0;
    p->progress = NULL;
    p->progress_context = NULL;
}

void ls_plan_result_free(ls_plan_result *r)
{
    if (!r)
        return;
    free(r->runs);
    r->runs = NULL;
    r->nruns = 0;
}

/* The M-estimator's covariance is (E psi^2 / (E psi')^2) (J'J)^-1 for
 * residuals N(0, sigma^2) (huber_internal.h), so each run carries
 * information w j j' with w = (E psi')^2 / E psi^2. */
double ls_plan_huber_weight(double sigma, double delta)
{
    if (!(sigma > 0))
        return NAN;
    double dpsi, psi2;
    ls_huber_blurred(0.0, sigma, delta, &dpsi, &psi2);
    return dpsi * dpsi / psi2;
}

static void gradient_over(const ls_law *l, const ls_law_param *params, size_t p, const ls_law_point *x, double *j,
                          double *loss)
{
    double g[LS_LAW_NPARAMS];
    double ln_l = ls_law_log_loss_grad(l, x, g);
    for (size_t k = 0; k < p; k++)
        j[k] = g[params[k]];
    if (loss)
        *loss = exp(ln_l);
}

static void add_outer(double *info, const double *j, size_t p, double w)
{
    for (size_t a = 0; a < p; a++)
        for (size_t b = 0; b < p; b++)
            info[a * p + b] += w * j[a] * j[b];
}

void ls_plan_add_information(const ls_law *l, const ls_law_param *params, size_t p, const ls_law_point *x, size_t n,
                             double w, double *info)
{
    double j[LS_LAW_NPARAMS];
    for (size_t i = 0; i < n; i++) {
        gradient_over(l, params, p, &x[i], j, NULL);
        add_outer(info, j, p, w);
    }
}

/* d(L1 - L2)/du = L1 d ln L1/du - L2 d ln L2/du. */
void ls_plan_gap_gradient(const ls_law *l, const ls_law_param *params, size_t p, const ls_law_point *x1, const ls_law_point *x2,
                          double *c)
{
    double j1[LS_LAW_NPARAMS], j2[LS_LAW_NPARAMS], l1, l2;
    gradient_over(l, params, p, x1, j1, &l1);
    gradient_over(l, params, p, x2, j2, &l2);
    for (size_t k = 0; k < p; k++)
        c[k] = l1 * j1[k] - l2 * j2[k];
}

/* The inverse of a symmetric positive definite p x p matrix by Cholesky
 * (A = L L', then A^-1 = L'^-1 L^-1); -1 when a pivot is not positive. */
static int spd_inverse(const double *a, size_t p, double *inv)
{
    double lo[LS_LAW_NPARAMS * LS_LAW_NPARAMS], li[LS_LAW_NPARAMS * LS_LAW_NPARAMS];
    memset(lo, 0, sizeof lo);
    for (size_t i = 0; i < p; i++)
        for (size_t k = 0; k <= i; k++) {
            double s = a[i * p + k];
            for (size_t m = 0; m < k; m++)
                s -= lo[i * p + m] * lo[k * p + m];
            if (i == k) {
                if (!(s > 0))
                    return -1;
                lo[i * p + i] = sqrt(s);
            } else
                lo[i * p + k] = s / lo[k * p + k];
        }
    /* li = L^-1, lower triangular, by forward substitution. */
    memset(li, 0, sizeof li);
    for (size_t col = 0; col < p; col++) {
        li[col * p + col] = 1.0 / lo[col * p + col];
        for (size_t i = col + 1; i < p; i++) {
            double s = 0;
            for (size_t m = col; m < i; m++)
                s -= lo[i * p + m] * li[m * p + col];
            li[i * p + col] = s / lo[i * p + i];
        }
    }
    for (size_t i = 0; i < p; i++)
        for (size_t k = 0; k <= i; k++) {
            double s = 0;
            for (size_t m = i; m < p; m++)
                s += li[m * p + i] * li[m * p + k];
            inv[i * p + k] = inv[k * p + i] = s;
        }
    return 0;
}

static int runner_up(const ls_solve_result *r, ls_solve_candidate *out);
static ls_law_point candidate_point(const ls_solve_candidate *c);
static int compare_doubles(const void *a, const void *b);

typedef struct plan_state {
    size_t p, ncand, ndraws;
    double w;
    const ls_law_point *cand;
    const double *cand_flops;
    const ls_law *draws;           /* ndraws laws */
    const ls_law_param *params;
    const ls_law_point *x1, *x2;   /* the point estimate's decision */
    const ls_arch_template *t;
    const ls_solve_budget *deploy;
    const ls_solve_options *choice;
    unsigned char *own_pair;    /* ndraws: draw s's decision is its own, not x1 against x2 */
    unsigned char *same_pair;   /* ndraws: draw s chooses the point estimate's configuration */
    const ls_law_point *have;    /* the runs already trained, then the design's fixed part */
    size_t nhave, nfixed;        /* nfixed: have and the fixed part together */
    double prior_precision;
    ls_solve_candidate *truth_choice, *second; /* ndraws: each draw's own decision and runner-up */
    unsigned char *truth_has;
    double *jac;                /* ndraws x ncand x p */
    /* T target vectors c_st per draw (the gap's gradient, or one per named
     * parameter); the criterion is the sum over t of c_st' M_s c_st. */
    size_t ntarget;
    const ls_law_param *target_params; /* NULL: the decision */
    double *info, *inv, *a, *c; /* ndraws x p x p, x p x p, x T x p, x T x p */
    double *variance;           /* ndraws x T: c_st' M_s c_st */
    /* For draw s and candidate i, q = j_i' M_s j_i (ndraws x ncand) and
     * r_t = a_st . j_i (ndraws x ncand x T), from which the gain of i follows. */
    double *q, *r;
    /* The step just taken, per draw: u_s = M_s j* (M before the step),
     * f_s = w / (1 + w j*' M_s j*) and j* . a_st (ndraws x T). */
    double *u, *f, *ja;
    unsigned char *available;   /* ncand: may still be chosen */
    double *gain;               /* ncand */
    size_t last;                /* the candidate just added */
} plan_state;

/* q and r follow each step by a rank-one update and are recomputed from
 * the inverse every REFRESH_STEPS steps, so that rounding cannot build up. */
#define REFRESH_STEPS 16

static int refresh_draw(plan_state *st, size_t s)
{
    size_t p = st->p;
    size_t T = st->ntarget;
    double *inv = st->inv + s * p * p;
    if (spd_inverse(st->info + s * p * p, p, inv) != 0)
        return -1;
    for (size_t tg = 0; tg < T; tg++) {
        double *a = st->a + (s * T + tg) * p;
        const double *c = st->c + (s * T + tg) * p;
        double v = 0;
        for (size_t i = 0; i < p; i++) {
            double t = 0;
            for (size_t k = 0; k < p; k++)
                t += inv[i * p + k] * c[k];
            a[i] = t;
            v += c[i] * t;
        }
        st->variance[s * T + tg] = v;
    }
    return 0;
}

/* q and r of every candidate for draw s, from M_s and a_s. */
static void exact_qr(plan_state *st, size_t s)
{
    size_t p = st->p, T = st->ntarget;
    const double *inv = st->inv + s * p * p;
    for (size_t i = 0; i < st->ncand; i++) {
        const double *j = st->jac + (s * st->ncand + i) * p;
        double jmj = 0;
        for (size_t k = 0; k < p; k++) {
            double t = 0;
            for (size_t m = 0; m < p; m++)
                t += inv[k * p + m] * j[m];
            jmj += j[k] * t;
        }
        st->q[s * st->ncand + i] = jmj;
        for (size_t tg = 0; tg < T; tg++) {
            const double *a = st->a + (s * T + tg) * p;
            double aj = 0;
            for (size_t k = 0; k < p; k++)
                aj += a[k] * j[k];
            st->r[(s * st->ncand + i) * T + tg] = aj;
        }
    }
}

/* Draw s: its gradients at every candidate and the target's gradient
 * (for the decision, this draw's own choice against its own runner-up). */
static int setup_draw(void *context, void *state, size_t s)
{
    (void)state;
    plan_state *st = context;
    size_t p = st->p;
    const ls_law *l = &st->draws[s];
    st->truth_has[s] = 0;
    if (st->target_params) {
        /* Named parameters: c_t = (dp/du) e_k, so that c_t' M c_t is the
         * variance of the parameter in its natural units. */
        double *c = st->c + s * st->ntarget * p;
        memset(c, 0, st->ntarget * p * sizeof *c);
        for (size_t tg = 0; tg < st->ntarget; tg++)
            for (size_t k = 0; k < p; k++)
                if (st->params[k] == st->target_params[tg])
                    c[tg * p + k] = ls_law_param_natural_per_fitted(st->params[k], l->p[st->params[k]]);
        st->own_pair[s] = st->same_pair[s] = 0;
        st->truth_has[s] = 1;
        goto jacobian;
    }
    /* The gap this draw would decide on: its own choice against its own
     * runner-up; the point estimate's pair when it has none. */
    ls_solve_result sr;
    memset(&sr, 0, sizeof sr);
    ls_error err;
    ls_solve_candidate second;
    ls_law_point x1 = *st->x1, x2 = *st->x2;
    st->own_pair[s] = 0;
    if (ls_solve_run(l, st->t, st->deploy, st->choice, &sr, &err) == 0 && sr.has_choice) {
        st->truth_choice[s] = sr.choice;
        st->truth_has[s] = 1;
        if (runner_up(&sr, &second)) {
            st->second[s] = second;
            x1 = candidate_point(&sr.choice);
            x2 = candidate_point(&second);
            st->own_pair[s] = 1;
        }
    }
    st->same_pair[s] = st->own_pair[s] && x1.R == st->x1->R && x1.E == st->x1->E;
    ls_solve_result_free(&sr);
    ls_plan_gap_gradient(l, st->params, p, &x1, &x2, st->c + s * p);
jacobian:;
    double *jac = st->jac + s * st->ncand * p;
    for (size_t i = 0; i < st->ncand; i++)
        gradient_over(l, st->params, p, &st->cand[i], jac + i * p, NULL);
    return 0;
}

/* Draw s's information from the weak prior and the n runs x (p x p). */
static void prior_information(const plan_state *st, size_t s, const ls_law_point *x, size_t n, double *info)
{
    size_t p = st->p;
    memset(info, 0, p * p * sizeof *info);
    for (size_t k = 0; k < p; k++)
        info[k * p + k] = st->prior_precision;
    ls_plan_add_information(&st->draws[s], st->params, p, x, n, st->w, info);
}

/* Draw s's information afresh: the weak prior, the runs already trained
 * and the design's fixed part; then its inverse and every candidate's q, r. */
static int reset_draw(void *context, void *state, size_t s)
{
    (void)state;
    plan_state *st = context;
    size_t p = st->p;
    prior_information(st, s, st->have, st->nfixed, st->info + s * p * p);
    if (refresh_draw(st, s) != 0)
        return -1;
    exact_qr(st, s);
    return 0;
}

/* Add the chosen candidate to draw s: keep u_s, f_s and j* . a_s for the
 * rank-one update of q and r, then update I_s and invert it afresh. */
static int update_draw(void *context, void *state, size_t s)
{
    (void)state;
    plan_state *st = context;
    size_t p = st->p, T = st->ntarget;
    const double *j = st->jac + (s * st->ncand + st->last) * p, *inv = st->inv + s * p * p;
    double *u = st->u + s * p, jmj = 0;
    for (size_t k = 0; k < p; k++) {
        double t = 0;
        for (size_t m = 0; m < p; m++)
            t += inv[k * p + m] * j[m];
        u[k] = t;
        jmj += j[k] * t;
    }
    st->f[s] = st->w / (1.0 + st->w * jmj);
    for (size_t tg = 0; tg < T; tg++) {
        const double *a = st->a + (s * T + tg) * p;
        double ja = 0;
        for (size_t k = 0; k < p; k++)
            ja += j[k] * a[k];
        st->ja[s * T + tg] = ja;
    }
    add_outer(st->info + s * p * p, j, p, st->w);
    return refresh_draw(st, s);
}

static int refresh_qr(void *context, void *state, size_t s)
{
    (void)state;
    exact_qr(context, s);
    return 0;
}

/* Candidate i: with update set, first carry its q and r past the last
 * step (Sherman and Morrison: M' = M - f u u', a' = a - f u (j* . a));
 * then its gain, the mean over draws of w r^2 / (1 + w q), which is the
 * drop in c' M c it would bring. */
static void gain_of(plan_state *st, size_t i, int update)
{
    if (!st->available[i]) { /* never again: its q and r are not needed */
        st->gain[i] = -1;
        return;
    }
    size_t p = st->p, T = st->ntarget;
    double sum = 0;
    for (size_t s = 0; s < st->ndraws; s++) {
        double *q = &st->q[s * st->ncand + i], *r = &st->r[(s * st->ncand + i) * T];
        if (update) {
            const double *j = st->jac + (s * st->ncand + i) * p, *u = st->u + s * p;
            double t = 0;
            for (size_t k = 0; k < p; k++)
                t += u[k] * j[k];
            *q -= st->f[s] * t * t;
            for (size_t tg = 0; tg < T; tg++)
                r[tg] -= st->f[s] * t * st->ja[s * T + tg];
        }
        double r2 = 0;
        for (size_t tg = 0; tg < T; tg++)
            r2 += r[tg] * r[tg];
        sum += st->w * r2 / (1.0 + st->w * *q);
    }
    st->gain[i] = sum / (double)st->ndraws;
}

static int candidate_gain(void *context, void *state, size_t i)
{
    (void)state;
    gain_of(context, i, 0);
    return 0;
}

static int candidate_gain_after_step(void *context, void *state, size_t i)
{
    (void)state;
    gain_of(context, i, 1);
    return 0;
}

static double mean_of(const double *v, size_t n)
{
    double s = 0;
    for (size_t i = 0; i < n; i++)
        s += v[i];
    return s / (double)n;
}

/* The mean over the draws of each target's variance (v is ndraws x T). */
static void target_means(const double *v, size_t ndraws, size_t T, double *out)
{
    for (size_t tg = 0; tg < T; tg++) {
        double s = 0;
        for (size_t d = 0; d < ndraws; d++)
            s += v[d * T + tg];
        out[tg] = s / (double)ndraws;
    }
}

/* Same within a relative 1e-9 (a sweep file's numbers are printed, then read).
 * A run is a candidate when its N_act, tokens, R and E are the candidate's. */
static int same_value(double a, double b)
{
    return fabs(a - b) <= 1e-9 * fmax(fabs(a), fabs(b));
}

static int same_run(const ls_law_point *a, const ls_law_point *b)
{
    return same_value(a->n_act, b->n_act) && same_value(a->D, b->D) && a->R == b->R && a->E == b->E;
}

/* Runs sorted by (R, E, N_act, tokens), so that the runs that are the same
 * as a given one (same_run) are found in O(log n) rather than by a pass
 * over all of them: each of n runs already trained is matched against the
 * candidates, and a candidate file is searched for repeats. */
typedef struct run_key {
    double R, E, n_act, D;
    size_t index;
} run_key;

typedef struct run_index {
    run_key *keys;
    size_t n;
} run_index;

static int compare_keys(const void *a, const void *b)
{
    const run_key *x = a, *y = b;
    const double u[4] = {x->R, x->E, x->n_act, x->D}, v[4] = {y->R, y->E, y->n_act, y->D};
    for (int k = 0; k < 4; k++)
        if (u[k] != v[k])
            return u[k] < v[k] ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

static int run_index_build(run_index *ix, const ls_law_point *x, size_t n)
{
    ix->n = n;
    if (!(ix->keys = malloc((n ? n : 1) * sizeof *ix->keys)))
        return -1;
    for (size_t i = 0; i < n; i++)
        ix->keys[i] = (run_key){x[i].R, x[i].E, x[i].n_act, x[i].D, i};
    qsort(ix->keys, n, sizeof *ix->keys, compare_keys);
    return 0;
}

static void run_index_free(run_index *ix)
{
    free(ix->keys);
    ix->keys = NULL;
    ix->n = 0;
}

/* The first position of the sorted keys not before key. */
static size_t lower_bound(const run_index *ix, const run_key *key)
{
    size_t lo = 0, hi = ix->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (compare_keys(&ix->keys[mid], key) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Call found(ctx, index) for every indexed run that is the same as p (in
 * the order of the index); it returns nonzero to stop.  Within the N_act
 * that are the same as p's up to rounding (one, but for rounding) the
 * tokens are found by bisection too. */
static void run_index_each(const run_index *ix, const ls_law_point *p, int (*found)(void *, size_t), void *ctx)
{
    double lo = p->n_act - 1e-9 * fabs(p->n_act);
    run_key key = {p->R, p->E, lo, -INFINITY, 0};
    size_t at = lower_bound(ix, &key);
    while (at < ix->n && ix->keys[at].R == p->R && ix->keys[at].E == p->E && same_value(ix->keys[at].n_act, p->n_act)) {
        /* The block of this exact N_act: from the first tokens that can match. */
        double n_act = ix->keys[at].n_act;
        key = (run_key){p->R, p->E, n_act, p->D - 1e-9 * fabs(p->D), 0};
        size_t k = lower_bound(ix, &key);
        for (; k < ix->n && ix->keys[k].R == p->R && ix->keys[k].E == p->E && ix->keys[k].n_act == n_act &&
               same_value(ix->keys[k].D, p->D); k++)
            if (found(ctx, ix->keys[k].index))
                return;
        key = (run_key){p->R, p->E, n_act, INFINITY, 0};
        at = lower_bound(ix, &key); /* the next N_act */
    }
}

/* The smallest index of a run the same as p (SIZE_MAX: none). */
static int keep_smallest(void *ctx, size_t index)
{
    size_t *smallest = ctx;
    if (index < *smallest)
        *smallest = index;
    return 0;
}

/* Mark every run the same as p unavailable (ctx: the flags). */
static int mark_taken(void *ctx, size_t index)
{
    ((unsigned char *)ctx)[index] = 0;
    return 0;
}

static size_t run_index_first(const run_index *ix, const ls_law_point *p)
{
    size_t smallest = SIZE_MAX;
    run_index_each(ix, p, keep_smallest, &smallest);
    return smallest;
}

/* The lowest-loss feasible candidate with another (R, E) than the choice. */
static int runner_up(const ls_solve_result *r, ls_solve_candidate *out)
{
    int found = 0;
    for (size_t i = 0; i < r->ncandidates; i++) {
        const ls_solve_candidate *c = &r->candidates[i];
        if (!c->feasible || (c->R == r->choice.R && c->E == r->choice.E))
            continue;
        if (!found || c->loss < out->loss)
            *out = *c;
        found = 1;
    }
    return found;
}

static ls_law_point candidate_point(const ls_solve_candidate *c)
{
    ls_law_point x = {c->n_act, c->n_total, c->n_loop, c->R, c->E, c->tokens, 0.0};
    return x;
}

static int check_parameters(const ls_plan_parameters *p, ls_error *err)
{
    if (!(p->budget_flops > 0) || isinf(p->budget_flops))
        return ls_error_set(err, LS_ERR_USAGE, "the sweep's compute budget must be positive and finite (got %g)",
                            p->budget_flops);
    if (!isnan(p->noise_sigma) && !(p->noise_sigma > 0 && isfinite(p->noise_sigma)))
        return ls_error_set(err, LS_ERR_USAGE, "the noise must be positive and finite (got %g)", p->noise_sigma);
    if (!(p->huber_delta > 0))
        return ls_error_set(err, LS_ERR_USAGE, "the Huber delta must be positive (got %g)", p->huber_delta);
    if (!(p->prior_sd > 0 && isfinite(p->prior_sd)))
        return ls_error_set(err, LS_ERR_USAGE, "the prior's standard deviation must be positive and finite (got %g)",
                            p->prior_sd);
    if (p->max_draws < 1)
        return ls_error_set(err, LS_ERR_USAGE, "at least one draw is needed");
    if (p->ntarget_params > LS_LAW_NPARAMS || (p->ntarget_params && !p->target_params))
        return ls_error_set(err, LS_ERR_USAGE, "at most %d named parameters can be the target", LS_LAW_NPARAMS);
    return 0;
}

/* A configuration as simulate writes it and a run is trained: N_total and
 * N_loop whole parameter counts. */
static ls_law_point whole_point(const ls_arch_template *t, double n_act, double E, double R, double tokens)
{
    ls_law_point x = ls_arch_point(t, n_act, E, R, tokens);
    x.n_total = nearbyint(x.n_total);
    x.n_loop = nearbyint(x.n_loop);
    return x;
}

int ls_plan_grid_candidates(const ls_arch_template *t, const ls_simulate_grid *grid, ls_law_point **out, size_t *n,
                            ls_error *err)
{
    *out = NULL;
    *n = 0;
    int status = ls_simulate_check(t, grid, err);
    if (status != 0)
        return status;
    size_t ncand = grid->n_n_act * grid->n_tokens * grid->n_E * grid->n_R;
    ls_law_point *x = malloc((ncand ? ncand : 1) * sizeof *x);
    if (!x)
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    size_t i = 0;
    for (size_t a = 0; a < grid->n_n_act; a++)
        for (size_t d = 0; d < grid->n_tokens; d++)
            for (size_t e = 0; e < grid->n_E; e++)
                for (size_t r = 0; r < grid->n_R; r++)
                    x[i++] = whole_point(t, grid->n_act[a], grid->E[e], grid->R[r], grid->tokens[d]);
    *out = x;
    *n = ncand;
    return 0;
}

/* The candidates of a file as they are read: the limit is applied row by
 * row, so that a file of a million rows is refused at its 100,001st. */
typedef struct candidate_reader {
    const ls_arch_template *t;
    ls_law_point *x;
    long *line;
    size_t n, cap;
    char name[512]; /* the file, as messages name it */
} candidate_reader;

static int candidate_header(void *ctx, const char *file, const char *const *names, size_t ncolumns, int has_loss,
                            ls_error *err)
{
    (void)names;
    (void)ncolumns;
    (void)has_loss;
    (void)err;
    candidate_reader *cr = ctx;
    snprintf(cr->name, sizeof cr->name, "%s", file);
    return 0;
}

static int candidate_row(void *ctx, const ls_sweep_row *row, const ls_sweep_text_cell *cells, size_t ncells,
                         ls_error *err)
{
    (void)cells;
    (void)ncells;
    candidate_reader *cr = ctx;
    const char *name = cr->name;
    if (cr->n == LS_PLAN_MAX_CANDIDATES)
        return ls_error_set(err, LS_ERR_DATA, "%s:%ld: more than %d candidates; a plan weighs at most %d", name,
                            row->line, LS_PLAN_MAX_CANDIDATES, LS_PLAN_MAX_CANDIDATES);
    if (row->k != cr->t->top_k)
        return ls_error_set(err, LS_ERR_DATA, "%s:%ld: column 'k': %g is not the template's top_k (%d)", name,
                            row->line, row->k, cr->t->top_k);
    if (cr->n == cr->cap) {
        size_t cap = cr->cap ? 2 * cr->cap : 1024;
        ls_law_point *x = realloc(cr->x, cap * sizeof *x);
        if (x)
            cr->x = x;
        long *line = x ? realloc(cr->line, cap * sizeof *line) : NULL;
        if (!line)
            return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        cr->line = line;
        cr->cap = cap;
    }
    cr->x[cr->n] = ls_sweep_row_point(row);
    cr->line[cr->n++] = row->line;
    return 0;
}

ls_law_point *ls_plan_read_candidates(const char *path, const ls_arch_template *t, size_t *n, ls_error *err)
{
    *n = 0;
    ls_sweep_options so;
    memset(&so, 0, sizeof so);
    so.shape = t;
    const char *paths[] = {path};
    candidate_reader cr = {t, NULL, NULL, 0, 0, ""};
    ls_sweep_handler handler = {candidate_header, candidate_row, &cr, NULL};
    size_t nrows = 0;
    int status = ls_sweep_stream(paths, 1, &so, &handler, &nrows, err);
    /* Each candidate is trained at most once: a repeated one would be a
     * second chance at the same run.  The first line that repeats an
     * earlier one is named, with the earliest it repeats. */
    run_index ix = {NULL, 0};
    if (status == 0 && run_index_build(&ix, cr.x, cr.n) != 0)
        status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    for (size_t i = 0; i < cr.n && status == 0; i++) {
        size_t first = run_index_first(&ix, &cr.x[i]);
        if (first < i)
            status = ls_error_set(err, LS_ERR_DATA, "%s:%ld: the same candidate (n_act, tokens, R and E) as line %ld",
                                  cr.name, cr.line[i], cr.line[first]);
    }
    run_index_free(&ix);
    free(cr.line);
    if (status != 0) {
        free(cr.x);
        return NULL;
    }
    *n = cr.n;
    return cr.x;
}

static size_t sorted_distinct(double *v, size_t n)
{
    qsort(v, n, sizeof *v, compare_doubles);
    size_t m = n ? 1 : 0;
    for (size_t i = 1; i < n; i++)
        if (v[i] != v[m - 1])
            v[m++] = v[i];
    return m;
}

void ls_plan_candidate_axes(const ls_plan_candidates *c, double *R, size_t *nR, double *E, size_t *nE)
{
    for (size_t i = 0; i < c->n; i++) {
        R[i] = c->x[i].R;
        E[i] = c->x[i].E;
    }
    *nR = sorted_distinct(R, c->n);
    *nE = sorted_distinct(E, c->n);
}

/* ---- validation by simulation ------------------------------------------- */
/* ---- simulated sweeps ---------------------------------------------------- */

static uint64_t mix64(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ULL;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* The noise of run x in simulated sweep `stream`: a standard normal that
 * depends on (seed, stream, x) alone (SplitMix64 hashing, then Box and
 * Muller), so that two designs holding the same run see the same noise on
 * it in the same sweep: common random numbers, which make the comparison
 * of two designs far less noisy than independent draws would. */
static double run_noise(unsigned long seed, uint64_t stream, const ls_law_point *x)
{
    uint64_t h = mix64((uint64_t)seed) ^ mix64(stream + 0x632BE59BD9B4E019ULL);
    const double v[4] = {x->n_act, x->D, x->R, x->E};
    for (int k = 0; k < 4; k++) {
        uint64_t bits;
        memcpy(&bits, &v[k], sizeof bits);
        h = mix64(h ^ bits);
    }
    uint64_t a = mix64(h), b = mix64(a);
    double u1 = ((double)(a >> 11) + 0.5) * 0x1.0p-53, u2 = (double)(b >> 11) * 0x1.0p-53;
    return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

/* One simulated sweep: the n runs x with the truth's loss times
 * exp(sigma z), z from run_noise; fitted (law kind, one thread) and, with
 * a decision, solved.  *failed when the fit fails or does not converge, or
 * no configuration is feasible under the fit; else *right (the truth's R
 * and E, and N_act within 10%) and *regret (the truth's loss at the fitted
 * choice minus at its own).  fitted gets the named parameters as fitted
 * (NaN where the fit held one).  -1 when out of memory. */
typedef struct sim_spec {
    ls_law_kind kind;
    const ls_arch_template *t;
    const ls_solve_budget *deploy; /* NULL: no decision */
    const ls_solve_options *choice;
    const ls_fit_parameters *fit;
    double sigma;
    unsigned long seed;
    const ls_law_param *targets;
    size_t ntargets;
} sim_spec;

static int simulate_one(const sim_spec *sp, const ls_law *truth, const ls_solve_candidate *want, const ls_law_point *x,
                        size_t n, uint64_t stream, int *failed, int *right, double *regret, double *fitted)
{
    *failed = 1;
    *right = 0;
    *regret = NAN;
    for (size_t tg = 0; tg < sp->ntargets; tg++)
        fitted[tg] = NAN;
    ls_sweep_row *rows = malloc((n ? n : 1) * sizeof *rows);
    if (!rows)
        return -1;
    for (size_t j = 0; j < n; j++) {
        double loss = ls_law_loss(truth, &x[j]) * exp(sp->sigma * run_noise(sp->seed, stream, &x[j]));
        rows[j] = (ls_sweep_row){x[j].n_act, x[j].n_total, x[j].n_loop, x[j].R, x[j].E, sp->t->top_k, x[j].D, loss,
                                 NAN, (long)j + 2, 0, 0, 0};
    }
    char name[] = "simulated";
    ls_sweep s;
    memset(&s, 0, sizeof s);
    s.n = n;
    s.rows = rows;
    s.has_loss = 1;
    s.name = name;
    ls_fit_parameters fp = *sp->fit;
    fp.threads = 1;
    fp.progress = NULL;
    ls_fit_result fr;
    ls_error err;
    if (ls_fit_run(&s, sp->kind, &fp, &fr, &err) == 0 && fr.converged) {
        /* A parameter the fit held (the design cannot identify it) has no
         * fitted value. */
        for (size_t tg = 0; tg < sp->ntargets; tg++)
            fitted[tg] = fr.fixed[sp->targets[tg]] ? NAN : fr.law.p[sp->targets[tg]];
        if (!sp->deploy) /* a parameter target alone: the fit is the result */
            *failed = 0;
        else {
            ls_solve_result sr;
            memset(&sr, 0, sizeof sr);
            if (ls_solve_run(&fr.law, sp->t, sp->deploy, sp->choice, &sr, &err) == 0 && sr.has_choice) {
                const ls_solve_candidate *c = &sr.choice;
                ls_law_point at = candidate_point(c);
                *failed = 0;
                *right = c->R == want->R && c->E == want->E && fabs(c->n_act / want->n_act - 1) <= 0.1;
                *regret = ls_law_loss(truth, &at) - want->loss;
                if (fabs(*regret) <= 1e-12 * want->loss) /* the same configuration, up to rounding */
                    *regret = 0;
            }
            ls_solve_result_free(&sr);
        }
    }
    free(rows);
    return 0;
}

/* The distinct (R, E) of the candidates, in order of first appearance. */
static size_t distinct_pairs(const ls_law_point *cand, size_t n, double *R, double *E)
{
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        size_t j = 0;
        while (j < m && !(R[j] == cand[i].R && E[j] == cand[i].E))
            j++;
        if (j == m) {
            R[m] = cand[i].R;
            E[m++] = cand[i].E;
        }
    }
    return m;
}

/* The sizes a plan's own runs keep to (the IsoFLOP design's, here; the
 * candidates from the question keep to the floor alone): N_act within the
 * candidates' range and at least LS_PLAN_MIN_N_ACT, tokens at most the
 * candidates' largest (what the data allows) and at least N_act. */
typedef struct run_range {
    double n_lo, n_hi, d_hi;
} run_range;

static void range_of(const ls_law_point *cand, size_t n, run_range *r)
{
    *r = (run_range){INFINITY, 0, 0};
    for (size_t i = 0; i < n; i++) {
        r->n_lo = fmin(r->n_lo, cand[i].n_act);
        r->n_hi = fmax(r->n_hi, cand[i].n_act);
        r->d_hi = fmax(r->d_hi, cand[i].D);
    }
}

/* A run no smaller than the floor: LS_PLAN_MIN_N_ACT active parameters, on
 * as many tokens at least. */
static int above_floor(const ls_law_point *x)
{
    return x->n_act >= LS_PLAN_MIN_N_ACT && x->D >= x->n_act;
}

static int within(const ls_law_point *x, const run_range *r)
{
    return above_floor(x) && x->n_act >= r->n_lo * (1 - 1e-9) && x->n_act <= r->n_hi * (1 + 1e-9) &&
           x->D <= r->d_hi * (1 + 1e-9);
}

/* The shape of an IsoFLOP design: (R, E) pairs, budgets B a factor ratio
 * apart, S sizes over a factor span either side of the optimum. */
typedef struct isoflop_shape {
    const ls_law *center;
    const ls_arch_template *t;
    const double *R, *E;
    size_t npairs, B, S;
    double ratio, span;
    const run_range *range; /* NULL: every run kept */
} isoflop_shape;

/* The design with its largest budget at top: its runs within the range
 * into design (*n), their FLOPs (*cost) and the smallest and largest
 * budget of a run kept.  LS_ERR_DATA when the centre law has no optimum. */
static int isoflop_at(const isoflop_shape *sh, double top, ls_law_point *design, size_t *n, double *cost,
                      double *f_lo, double *f_hi, ls_error *err)
{
    *n = 0;
    *cost = 0;
    *f_lo = INFINITY;
    *f_hi = 0;
    for (size_t q = 0; q < sh->npairs; q++)
        for (size_t b = 0; b < sh->B; b++) {
            double f = top * pow(sh->ratio, -(double)(sh->B - 1 - b));
            ls_solve_budget budget = {.flops = f, .mem_bytes = INFINITY, .bits = 16};
            ls_solve_candidate best;
            if (ls_solve_candidate_at(sh->center, sh->t, &budget, sh->E[q], sh->R[q], NULL, 0, 0, &best) != 0 ||
                !best.feasible || !(best.n_act > 0 && isfinite(best.n_act)))
                return ls_error_set(err, LS_ERR_DATA, "the prior has no IsoFLOP optimum at %g FLOPs for R=%g E=%g",
                                    f, sh->R[q], sh->E[q]);
            for (size_t i = 0; i < sh->S; i++) {
                double z = sh->S > 1 ? 2.0 * (double)i / (double)(sh->S - 1) - 1.0 : 0.0;
                ls_law_point x = whole_point(sh->t, best.n_act * pow(sh->span, z), sh->E[q], sh->R[q], 1.0);
                x.D = ls_law_tokens_for_flops(&x, f);
                if (sh->range && !within(&x, sh->range))
                    continue;
                design[(*n)++] = x;
                *cost += f;
                *f_lo = fmin(*f_lo, f);
                *f_hi = fmax(*f_hi, f);
            }
        }
    return 0;
}

/* The IsoFLOP design of Hoffmann et al. (2022), "Training Compute-Optimal
 * Large Language Models" (approach 2), for every (R, E) of the npairs:
 * B budgets F_b = F_top r^-(B-1-b), and at each S sizes N_act spread
 * log-uniformly from N*(F_b)/span to N*(F_b) span about the optimum that
 * `center` predicts for that (R, E) at F_b, each trained on
 * D = F_b / (6 N_unroll) tokens.  F_top makes the whole design cost
 * `flops`: pairs x S x sum_b F_b = flops.  With a range, the runs outside
 * it are left out, and F_top is raised (a factor 10^(1/8) at a time, then
 * by bisection) to the largest the runs within it can spend: an IsoFLOP
 * design of the sizes the candidates allow.  Fills design (at most
 * pairs x B x S points; none when no run of the range fits in `flops`)
 * and the range of the budgets kept. */
static int isoflop_points(const isoflop_shape *sh, double flops, ls_law_point *design, size_t *ndesign,
                          double *fmin, double *fmax, ls_error *err)
{
    double ratio_sum = 0;
    for (size_t b = 0; b < sh->B; b++)
        ratio_sum += pow(sh->ratio, -(double)b);
    double top = flops / ((double)sh->npairs * (double)sh->S * ratio_sum), cost, lo, hi;
    size_t n;
    int status = isoflop_at(sh, top, design, &n, &cost, &lo, &hi, err);
    if (status != 0 || !sh->range || n == sh->npairs * sh->B * sh->S) {
        *ndesign = n;
        if (fmin)
            *fmin = lo;
        if (fmax)
            *fmax = hi;
        return status;
    }
    /* The top that spends the most within flops: a scan up to the budget
     * (a run costs no more than the whole), then bisection past the best. */
    double best_top = n ? top : NAN, best_cost = n ? cost : 0, next = NAN, step = pow(10.0, 0.125);
    for (double x = top * step; x <= flops && status == 0; x *= step) {
        status = isoflop_at(sh, x, design, &n, &cost, &lo, &hi, err);
        if (status == 0 && n && cost <= flops && cost > best_cost) {
            best_top = x;
            best_cost = cost;
            next = x * step;
        }
    }
    ls_error ignored;
    for (int i = 0; i < 12 && !isnan(next); i++) {
        double mid = sqrt(best_top * next);
        if (isoflop_at(sh, mid, design, &n, &cost, &lo, &hi, &ignored) != 0 || cost > flops || n == 0)
            next = mid;
        else if (cost > best_cost) {
            best_top = mid;
            best_cost = cost;
        } else
            next = mid;
    }
    if (isnan(best_top)) { /* no run of the range fits in the budget */
        *ndesign = 0;
        return 0;
    }
    status = isoflop_at(sh, best_top, design, ndesign, &cost, &lo, &hi, err);
    if (fmin)
        *fmin = lo;
    if (fmax)
        *fmax = hi;
    return status;
}
/* ---- what a plan must be -------------------------------------------------- */

static size_t count_distinct(const ls_law_point *x, size_t n, int axis, double *scratch)
{
    for (size_t i = 0; i < n; i++)
        scratch[i] = axis == 0 ? x[i].n_act : axis == 1 ? x[i].D : axis == 2 ? x[i].R : x[i].E;
    qsort(scratch, n, sizeof *scratch, compare_doubles);
    size_t m = n ? 1 : 0;
    for (size_t i = 1; i < n; i++)
        m += !same_value(scratch[i], scratch[i - 1]);
    return m;
}

/* The condition number of sum_i j_i j_i' once scaled to unit diagonal
 * (+inf when a diagonal entry is zero or the matrix singular).  Beyond
 * 1/DBL_EPSILON the smallest eigenvalue is rounding error, its digits differ
 * from one CPU to another, and the matrix is singular as far as doubles go. */
static double scaled_condition(const ls_law *l, const ls_law_param *params, size_t p, const ls_law_point *x, size_t n)
{
    double info[LS_LAW_NPARAMS * LS_LAW_NPARAMS];
    memset(info, 0, sizeof info);
    ls_plan_add_information(l, params, p, x, n, 1.0, info);
    for (size_t k = 0; k < p; k++) {
        if (!(info[k * p + k] > 0) || !isfinite(info[k * p + k]))
            return INFINITY;
    }
    gsl_matrix *m = gsl_matrix_alloc(p, p);
    gsl_vector *ev = gsl_vector_alloc(p);
    gsl_eigen_symm_workspace *ws = gsl_eigen_symm_alloc(p);
    double cond = INFINITY;
    if (m && ev && ws) {
        for (size_t a = 0; a < p; a++)
            for (size_t b = 0; b < p; b++)
                gsl_matrix_set(m, a, b, info[a * p + b] / sqrt(info[a * p + a] * info[b * p + b]));
        if (gsl_eigen_symm(m, ev, ws) == 0) {
            double lo = gsl_vector_min(ev), hi = gsl_vector_max(ev);
            cond = lo > 0 && hi / lo < 1 / DBL_EPSILON ? hi / lo : INFINITY;
        }
    }
    gsl_eigen_symm_free(ws);
    gsl_vector_free(ev);
    gsl_matrix_free(m);
    return cond;
}

int ls_plan_check_design(const ls_law *l, const ls_law_param *params, size_t p, const ls_law_point *x, size_t n,
                         const ls_law_point *reference, size_t nreference, double min_runs_per_param,
                         double max_condition, ls_plan_fittable *out)
{
    memset(out, 0, sizeof *out);
    out->nruns = n;
    out->nparams = p;
    out->min_runs = (size_t)ceil(min_runs_per_param * (double)p);
    out->max_condition = max_condition;
    if (min_runs_per_param <= 0 && max_condition == INFINITY) { /* no check asked for */
        out->ok = 1;
        return 1;
    }
    size_t most = n > nreference ? n : nreference;
    double *scratch = malloc((most ? most : 1) * sizeof *scratch);
    if (!scratch) {
        snprintf(out->why, sizeof out->why, "out of memory");
        return 0;
    }
    static const char *const names[4] = {"N_act", "tokens", "R", "E"};
    const size_t least[4] = {3, 3, 2, 2};
    char axes[160] = "";
    size_t used = 0;
    for (int a = 0; a < 4; a++) {
        size_t ref = count_distinct(reference, nreference, a, scratch);
        out->distinct[a] = count_distinct(x, n, a, scratch);
        out->needed[a] = ref > 1 ? (ref < least[a] ? ref : least[a]) : 0;
        if (out->distinct[a] < out->needed[a]) {
            int k = snprintf(axes + used, sizeof axes - used, "%s%zu %s of %s (at least %zu)", used ? ", " : "",
                             out->distinct[a], out->distinct[a] == 1 ? "value" : "values", names[a], out->needed[a]);
            if (k > 0 && (size_t)k < sizeof axes - used)
                used += (size_t)k;
        }
    }
    free(scratch);
    out->condition = n ? scaled_condition(l, params, p, x, n) : INFINITY;
    if (n < out->min_runs)
        snprintf(out->why, sizeof out->why, "%zu %s for %zu parameters (at least %zu)", n, n == 1 ? "run" : "runs", p,
                 out->min_runs);
    else if (used)
        snprintf(out->why, sizeof out->why, "too little spread: %s", axes);
    else if (!(out->condition <= max_condition))
        snprintf(out->why, sizeof out->why, "the runs do not identify every parameter (%s%.3g, at most %.3g)",
                 isinf(out->condition) ? "singular: condition number above " : "condition number ",
                 isinf(out->condition) ? 1 / DBL_EPSILON : out->condition, max_condition);
    else
        out->ok = 1;
    return out->ok;
}

/* ---- candidates from the question ------------------------------------------- */

#define QUESTION_BUDGETS 7  /* a factor sqrt(10) apart: three decades */
#define QUESTION_SIZES 5    /* N* 3^z, z = -1, -1/2, 0, 1/2, 1 */

ls_law_point *ls_plan_question_candidates(const ls_law *l, const ls_arch_template *t, const double *R, size_t nR,
                                          const double *E, size_t nE, double flops_max, size_t *n, ls_error *err)
{
    *n = 0;
    if (!(flops_max > 0 && isfinite(flops_max))) {
        ls_error_set(err, LS_ERR_USAGE, "the largest candidate's compute must be positive and finite (got %g)",
                     flops_max);
        return NULL;
    }
    ls_law_point *x = malloc((nR * nE * QUESTION_BUDGETS * QUESTION_SIZES + 1) * sizeof *x);
    if (!x) {
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        return NULL;
    }
    size_t m = 0;
    for (size_t e = 0; e < nE; e++)
        for (size_t r = 0; r < nR; r++)
            for (size_t b = 0; b < QUESTION_BUDGETS; b++) {
                double f = flops_max * pow(10.0, -0.5 * (double)(QUESTION_BUDGETS - 1 - b));
                ls_solve_budget budget = {.flops = f, .mem_bytes = INFINITY, .bits = 16};
                ls_solve_candidate best;
                if (ls_solve_candidate_at(l, t, &budget, E[e], R[r], NULL, 0, 0, &best) != 0 || !best.feasible ||
                    !(best.n_act > 0 && isfinite(best.n_act)))
                    continue;
                for (size_t i = 0; i < QUESTION_SIZES; i++) {
                    double z = 2.0 * (double)i / (QUESTION_SIZES - 1) - 1.0;
                    ls_law_point p = whole_point(t, best.n_act * pow(3.0, z), E[e], R[r], 1.0);
                    p.D = ls_law_tokens_for_flops(&p, f);
                    if (isfinite(p.D) && above_floor(&p))
                        x[m++] = p;
                }
            }
    if (m == 0) {
        free(x);
        ls_error_set(err, LS_ERR_DATA, "no candidate of %.4g FLOPs or fewer has %g active parameters or more on as "
                     "many tokens (%g FLOPs at one loop, the smallest run a plan makes)", flops_max, LS_PLAN_MIN_N_ACT,
                     6 * LS_PLAN_MIN_N_ACT * LS_PLAN_MIN_N_ACT);
        return NULL;
    }
    *n = m;
    return x;
}
/* ---- the search ------------------------------------------------------------ */

/* A design: the new runs, each with where it came from. */
typedef struct run_set {
    ls_law_point *x;
    ls_plan_source *src;
    size_t n, cap;
    double flops;
} run_set;

static void design_free(run_set *d)
{
    free(d->x);
    free(d->src);
    memset(d, 0, sizeof *d);
}

static int design_push(run_set *d, const ls_law_point *x, ls_plan_source src)
{
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 64;
        ls_law_point *nx = realloc(d->x, cap * sizeof *nx);
        if (!nx)
            return -1;
        d->x = nx;
        ls_plan_source *ns = realloc(d->src, cap * sizeof *ns);
        if (!ns)
            return -1;
        d->src = ns;
        d->cap = cap;
    }
    d->x[d->n] = *x;
    d->src[d->n++] = src;
    d->flops += ls_law_training_flops(x);
    return 0;
}

/* The same runs, in any order. */
static int design_same(const run_set *a, const run_set *b)
{
    if (a->n != b->n)
        return 0;
    for (size_t i = 0; i < a->n; i++) {
        size_t j = 0;
        while (j < b->n && !same_run(&a->x[i], &b->x[j]))
            j++;
        if (j == b->n)
            return 0;
    }
    return 1;
}

/* The simulated sweeps of the search are the streams SEARCH_STREAM + s,
 * apart from validation's (0, 1, ...). */
#define SEARCH_STREAM ((uint64_t)1 << 40)

typedef struct search {
    plan_state *st;
    const ls_plan_parameters *p;
    const ls_law *point;         /* the prior's point estimate, where a design is checked */
    sim_spec spec;
    const ls_law_point *have;    /* nhave runs already trained */
    size_t nhave;
    const ls_law_point *reference; /* the candidates and the runs already trained */
    size_t nreference;
    ls_law_point *fixed;         /* have + a design, for the state and the simulations */
    size_t fixed_cap;
    unsigned char *base_available; /* ncand: candidates not already trained */
    const run_index *cand_index;   /* the candidates, to find a design's runs among them */
    run_range range;               /* what the IsoFLOP design's runs keep to */
    size_t *picked;              /* ncand */
    int *right, *failed;         /* search_sweeps each; failed -1: a draw without a decision */
    double *regret, *error;
    int *best_right, *best_failed; /* ... of the design kept so far */
    double *best_regret, *best_error;
    const ls_law_point *eval_x;
    size_t eval_n;
    size_t done, total;          /* simulated fits, for the progress */
} search;

/* have + d into se->fixed. */
static int fixed_points(search *se, const run_set *d)
{
    size_t n = se->nhave + (d ? d->n : 0);
    if (n > se->fixed_cap) {
        /* The state reads its trained runs from here (reset_state): it
         * follows the buffer when it moves. */
        int state_reads = se->st && se->fixed && se->st->have == se->fixed;
        ls_law_point *x = realloc(se->fixed, n * sizeof *x);
        if (!x)
            return -1;
        se->fixed = x;
        se->fixed_cap = n;
        if (state_reads)
            se->st->have = x;
    }
    if (se->nhave)
        memcpy(se->fixed, se->have, se->nhave * sizeof *se->fixed);
    if (d && d->n)
        memcpy(se->fixed + se->nhave, d->x, d->n * sizeof *se->fixed);
    return 0;
}

/* Take the state to the runs already trained plus d (the fixed part), none
 * of which can be chosen again. */
static int reset_state(search *se, const run_set *d)
{
    plan_state *st = se->st;
    if (fixed_points(se, d) != 0)
        return -1;
    st->have = se->fixed;
    st->nfixed = se->nhave + (d ? d->n : 0);
    memcpy(st->available, se->base_available, st->ncand);
    for (size_t j = 0; d && j < d->n; j++)
        run_index_each(se->cand_index, &d->x[j], mark_taken, st->available);
    ls_parallel_job job = {st->ndraws, se->p->threads, st, NULL, NULL, reset_draw, NULL};
    return ls_parallel_for(&job);
}

/* The greedy c-optimal step (Sherman and Morrison, as above) from the
 * state as it is: add the candidate with the largest drop of the target's
 * mean variance per FLOP among those that still fit, until none does. */
static int greedy(search *se, double budget, size_t *npicked)
{
    plan_state *st = se->st;
    double remaining = budget;
    int (*gain_item)(void *, void *, size_t) = candidate_gain;
    *npicked = 0;
    for (;;) {
        for (size_t k = 0; k < st->ncand; k++)
            if (st->available[k] && st->cand_flops[k] > remaining)
                st->available[k] = 0;
        ls_parallel_job gains = {st->ncand, se->p->threads, st, NULL, NULL, gain_item, NULL};
        if (ls_parallel_for(&gains) != 0)
            return -1;
        /* The largest drop per FLOP; ties go to the first in candidate order. */
        size_t pick = SIZE_MAX;
        double best_ratio = 0;
        for (size_t k = 0; k < st->ncand; k++)
            if (st->available[k] && st->gain[k] > 0 && st->gain[k] / st->cand_flops[k] > best_ratio) {
                best_ratio = st->gain[k] / st->cand_flops[k];
                pick = k;
            }
        if (pick == SIZE_MAX)
            return 0;
        st->last = pick;
        ls_parallel_job update = {st->ndraws, se->p->threads, st, NULL, NULL, update_draw, NULL};
        if (ls_parallel_for(&update) != 0)
            return -1;
        st->available[pick] = 0;
        remaining -= st->cand_flops[pick];
        se->picked[(*npicked)++] = pick;
        if (*npicked % REFRESH_STEPS == 0) {
            ls_parallel_job refresh = {st->ndraws, se->p->threads, st, NULL, NULL, refresh_qr, NULL};
            if (ls_parallel_for(&refresh) != 0)
                return -1;
            gain_item = candidate_gain;
        } else
            gain_item = candidate_gain_after_step;
    }
}

/* Add to d the c-optimal runs that the rest of the budget buys, given the
 * runs already trained and d. */
static int fill(search *se, run_set *d)
{
    size_t npicked;
    if (reset_state(se, d) != 0 || greedy(se, se->p->budget_flops - d->flops, &npicked) != 0)
        return -1;
    for (size_t i = 0; i < npicked; i++)
        if (design_push(d, &se->st->cand[se->picked[i]], LS_PLAN_FROM_COPTIMAL) != 0)
            return -1;
    return 0;
}

static int evaluate_item(void *context, void *state, size_t s)
{
    (void)state;
    search *se = context;
    plan_state *st = se->st;
    size_t d = s % st->ndraws;
    se->failed[s] = -1;
    if (!st->truth_has[d])
        return 0;
    double fitted[LS_LAW_NPARAMS];
    int failed, right;
    if (simulate_one(&se->spec, &st->draws[d], st->target_params ? NULL : &st->truth_choice[d], se->eval_x,
                     se->eval_n, SEARCH_STREAM + s, &failed, &right, &se->regret[s], fitted) != 0)
        return -1;
    /* A parameter target: the summed squared error of the named
     * parameters against the draw's; a parameter the fit held fails. */
    double e = 0;
    for (size_t tg = 0; tg < se->spec.ntargets && !failed; tg++) {
        double dv = fitted[tg] - st->draws[d].p[se->spec.targets[tg]];
        if (isnan(dv))
            failed = 1;
        e += dv * dv;
    }
    se->failed[s] = failed;
    se->right[s] = right;
    se->error[s] = e;
    return 0;
}

static void evaluate_progress(void *context, size_t done, size_t total)
{
    (void)total;
    search *se = context;
    if (se->p->progress)
        se->p->progress(se->p->progress_context, se->done + done, se->total);
}

/* Judge d: check that it can be fitted, then (with search_sweeps) simulate,
 * fit and solve search_sweeps sweeps from the prior's draws. */
static int evaluate(search *se, const run_set *d, ls_plan_design_score *sc)
{
    plan_state *st = se->st;
    sc->nruns = d->n;
    sc->flops = d->flops;
    sc->regret_mean = sc->error = NAN;
    if (fixed_points(se, d) != 0)
        return -1;
    ls_plan_fittable fc;
    sc->fittable = ls_plan_check_design(se->point, st->params, st->p, se->fixed, se->nhave + d->n, se->reference, se->nreference,
                                        se->p->min_runs_per_param, se->p->max_condition, &fc);
    snprintf(sc->why, sizeof sc->why, "%s", fc.why);
    size_t S = se->p->search_sweeps;
    if (!sc->fittable || S == 0)
        return 0;
    se->eval_x = se->fixed;
    se->eval_n = se->nhave + d->n;
    ls_parallel_job job = {S, se->p->threads, se, NULL, NULL, evaluate_item, evaluate_progress};
    if (ls_parallel_for(&job) != 0)
        return -1;
    se->done += S;
    double regret = 0, error = 0;
    size_t fitted = 0;
    for (size_t s = 0; s < S; s++) {
        if (se->failed[s] < 0)
            continue;
        sc->sweeps++;
        sc->right += (size_t)se->right[s];
        sc->failed += (size_t)se->failed[s];
        if (!se->failed[s]) {
            fitted++;
            regret += se->regret[s];
            error += se->error[s];
        }
    }
    if (fitted) {
        sc->regret_mean = st->target_params ? NAN : regret / (double)fitted;
        sc->error = st->target_params ? error / (double)fitted : NAN;
    }
    return 0;
}

/* P(X >= k) for X binomial (n, 1/2). */
static double binomial_upper_tail(size_t k, size_t n)
{
    double p = 0, term = pow(0.5, (double)n); /* C(n, 0) / 2^n */
    for (size_t i = 0; i <= n; i++) {
        if (i >= k)
            p += term;
        term *= (double)(n - i) / (double)(i + 1);
    }
    return p;
}

/* Whether the design just simulated (se->right, ...) is better than the one
 * kept (se->best_right, ...) on the same sweeps, beyond what chance gives:
 * for the decision, McNemar's exact test at one-sided 5% on the sweeps
 * that only one of the two got right (a failed fit is wrong); with as many
 * each way, a paired t statistic above 1.96 on the regret.  For a parameter
 * target, that t statistic on the squared error, with fewer failed fits
 * first. */
static int better_than_kept(const search *se, size_t S, int decision)
{
    size_t only_new = 0, only_kept = 0, fails_new = 0, fails_kept = 0, m = 0;
    double mean = 0, ss = 0;
    for (size_t s = 0; s < S; s++) {
        if (se->failed[s] < 0)
            continue;
        only_new += se->right[s] && !se->best_right[s];
        only_kept += se->best_right[s] && !se->right[s];
        fails_new += (size_t)se->failed[s];
        fails_kept += (size_t)se->best_failed[s];
        if (se->failed[s] || se->best_failed[s])
            continue;
        double d = decision ? se->best_regret[s] - se->regret[s] : se->best_error[s] - se->error[s];
        m++;
        double delta = d - mean;
        mean += delta / (double)m;
        ss += delta * (d - mean);
    }
    if (decision && only_new != only_kept)
        return only_new > only_kept && binomial_upper_tail(only_new, only_new + only_kept) <= 0.05;
    if (!decision && fails_new != fails_kept)
        return fails_new < fails_kept;
    if (m < 2 || !(mean > 0))
        return 0;
    double sd = sqrt(ss / (double)(m - 1));
    return sd == 0 ? mean > 0 : mean / (sd / sqrt((double)m)) > 1.96;
}

/* Keep the design just simulated as the one to beat. */
static void keep_outcomes(search *se, size_t S)
{
    memcpy(se->best_right, se->right, S * sizeof *se->right);
    memcpy(se->best_failed, se->failed, S * sizeof *se->failed);
    memcpy(se->best_regret, se->regret, S * sizeof *se->regret);
    memcpy(se->best_error, se->error, S * sizeof *se->error);
}

/* Per draw: what removing each run of the design would add to the target's
 * variance, w (a . j)^2 / (1 - w j'Mj) summed over the targets (Sherman and
 * Morrison, downdating), into cost (ndraws x n). */
typedef struct removal_context {
    plan_state *st;
    const ls_law_point *x; /* have + run_set */
    size_t nhave, n;       /* the design's runs are x[nhave .. nhave + n) */
    double *cost;
} removal_context;

static int removal_item(void *context, void *state, size_t s)
{
    (void)state;
    removal_context *rc = context;
    plan_state *st = rc->st;
    size_t p = st->p, T = st->ntarget;
    double info[LS_LAW_NPARAMS * LS_LAW_NPARAMS], inv[LS_LAW_NPARAMS * LS_LAW_NPARAMS];
    double a[LS_LAW_NPARAMS * LS_LAW_NPARAMS], j[LS_LAW_NPARAMS];
    prior_information(st, s, rc->x, rc->nhave + rc->n, info);
    if (spd_inverse(info, p, inv) != 0)
        return -1;
    for (size_t tg = 0; tg < T; tg++)
        for (size_t i = 0; i < p; i++) {
            double t = 0;
            for (size_t k = 0; k < p; k++)
                t += inv[i * p + k] * st->c[(s * T + tg) * p + k];
            a[tg * p + i] = t;
        }
    for (size_t i = 0; i < rc->n; i++) {
        gradient_over(&st->draws[s], st->params, p, &rc->x[rc->nhave + i], j, NULL);
        double jmj = 0, r2 = 0;
        for (size_t k = 0; k < p; k++) {
            double t = 0;
            for (size_t m = 0; m < p; m++)
                t += inv[k * p + m] * j[m];
            jmj += j[k] * t;
        }
        for (size_t tg = 0; tg < T; tg++) {
            double r = 0;
            for (size_t k = 0; k < p; k++)
                r += a[tg * p + k] * j[k];
            r2 += r * r;
        }
        double left = 1.0 - st->w * jmj;
        rc->cost[s * rc->n + i] = left > 0 ? st->w * r2 / left : INFINITY;
    }
    return 0;
}

typedef struct ranked {
    double value;
    size_t index;
} ranked;

static int compare_ranked(const void *a, const void *b)
{
    const ranked *x = a, *y = b;
    if (x->value != y->value)
        return x->value < y->value ? -1 : 1;
    return (x->index > y->index) - (x->index < y->index);
}

/* The swap move: drop from cur the k runs that carry the least of the
 * target per FLOP (mean over the draws), and fill the freed compute with
 * c-optimal runs. */
static int swap_move(search *se, const run_set *cur, size_t k, run_set *next)
{
    plan_state *st = se->st;
    if (fixed_points(se, cur) != 0)
        return -1;
    double *cost = malloc((st->ndraws * cur->n + 1) * sizeof *cost);
    ranked *order = malloc((cur->n + 1) * sizeof *order);
    int status = -1;
    if (!cost || !order)
        goto done;
    removal_context rc = {st, se->fixed, se->nhave, cur->n, cost};
    ls_parallel_job job = {st->ndraws, se->p->threads, &rc, NULL, NULL, removal_item, NULL};
    if (ls_parallel_for(&job) != 0)
        goto done;
    for (size_t i = 0; i < cur->n; i++) {
        double v = 0;
        for (size_t s = 0; s < st->ndraws; s++)
            v += cost[s * cur->n + i];
        order[i] = (ranked){v / (double)st->ndraws / ls_law_training_flops(&cur->x[i]), i};
    }
    qsort(order, cur->n, sizeof *order, compare_ranked);
    unsigned char *drop = calloc(cur->n + 1, 1);
    if (!drop)
        goto done;
    for (size_t i = 0; i < k && i < cur->n; i++)
        drop[order[i].index] = 1;
    status = 0;
    for (size_t i = 0; i < cur->n && status == 0; i++)
        if (!drop[i])
            status = design_push(next, &cur->x[i], cur->src[i]);
    free(drop);
    if (status == 0)
        status = fill(se, next);
done:
    free(cost);
    free(order);
    return status;
}

static int design_copy(run_set *dst, const run_set *src)
{
    for (size_t i = 0; i < src->n; i++)
        if (design_push(dst, &src->x[i], src->src[i]) != 0)
            return -1;
    return 0;
}

/* A start with `share` of the budget in the IsoFLOP design over the npairs
 * (R, E) and the rest filled by the c-optimal step.  An IsoFLOP design the
 * prior has no optimum for is marked unfittable with the reason. */
static int start_design(search *se, const ls_arch_template *t, const double *R, const double *E, size_t npairs,
                        double share, ls_law_point *iso, run_set *d, ls_plan_design_score *sc)
{
    const ls_plan_parameters *p = se->p;
    if (share > 0) {
        size_t n;
        ls_error e;
        isoflop_shape sh = {se->point, t, R, E, npairs, p->isoflop_budgets, p->isoflop_sizes,
                            p->isoflop_budget_ratio, p->isoflop_span, &se->range};
        if (isoflop_points(&sh, share * p->budget_flops, iso, &n, NULL, NULL, &e) != 0) {
            sc->fittable = 0;
            snprintf(sc->why, sizeof sc->why, "%s", e.message);
            return 1;
        }
        if (n == 0) {
            sc->fittable = 0;
            snprintf(sc->why, sizeof sc->why, "no IsoFLOP run of the candidates' sizes (N_act %.4g to %.4g) on "
                     "tokens from N_act to %.4g fits in %.4g FLOPs", se->range.n_lo, se->range.n_hi,
                     se->range.d_hi, share * p->budget_flops);
            return 1;
        }
        for (size_t i = 0; i < n; i++)
            if (design_push(d, &iso[i], LS_PLAN_FROM_ISOFLOP) != 0)
                return -1;
    }
    return share < 1 ? fill(se, d) : 0;
}

/* The search: the starting designs, judged in order (a later one is kept
 * only when better), then swap moves from the best while they improve it. */
static int search_designs(search *se, plan_state *st, const ls_plan_prior *prior, const ls_arch_template *t,
                          const ls_law_point *cand, size_t ncand, double *pair_R, double *pair_E, ls_law_point *iso,
                          run_set *designs, run_set *best, ls_plan_result *out, ls_error *err)
{
    (void)prior;
    const ls_plan_parameters *p = se->p;
    size_t S = p->search_sweeps, npairs = distinct_pairs(cand, ncand, pair_R, pair_E);
    /* The pairs the draws find close: each draw's choice and runner-up. */
    double *close_R = pair_R + npairs, *close_E = pair_E + npairs;
    size_t nclose = 0;
    for (size_t s = 0; s < st->ndraws && !st->target_params; s++) {
        const ls_solve_candidate *c[2] = {&st->truth_choice[s], &st->second[s]};
        for (int k = 0; k < 2; k++) {
            if (!(k == 0 ? st->truth_has[s] : st->own_pair[s]))
                continue;
            size_t j = 0;
            while (j < nclose && !(close_R[j] == c[k]->R && close_E[j] == c[k]->E))
                j++;
            if (j == nclose) {
                close_R[nclose] = c[k]->R;
                close_E[nclose++] = c[k]->E;
            }
        }
    }
    struct {
        const char *name;
        double share;
        int close;
    } starts[] = {{"IsoFLOP", 1.0, 0},
                  {"IsoFLOP on the draws' pairs", 1.0, 1},
                  {"IsoFLOP 75% + c-optimal", 0.75, 0},
                  {"IsoFLOP 50% + c-optimal", 0.5, 0},
                  {"IsoFLOP 25% + c-optimal", 0.25, 0},
                  {"c-optimal", 0.0, 0}};
    size_t nstarts = sizeof starts / sizeof *starts;
    se->total = (nstarts + p->search_moves) * S;
    size_t chosen = SIZE_MAX;
    double start_share[LS_PLAN_MAX_DESIGNS];
    out->search_sweeps = S;
    for (size_t i = 0; i < nstarts; i++) {
        if (starts[i].close && (nclose == 0 || nclose >= npairs))
            continue;
        ls_plan_design_score *sc = &out->designs[out->ndesigns];
        run_set *d = &designs[out->ndesigns];
        snprintf(sc->name, sizeof sc->name, "%s", starts[i].name);
        int r = start_design(se, t, starts[i].close ? close_R : pair_R, starts[i].close ? close_E : pair_E,
                             starts[i].close ? nclose : npairs, starts[i].share, iso, d, sc);
        if (r < 0 || (r == 0 && evaluate(se, d, sc) != 0))
            return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        if (r > 0) {
            sc->nruns = 0;
            sc->regret_mean = sc->error = NAN;
        }
        out->ndesigns++;
        if (!sc->fittable)
            continue;
        if (S > 0 ? chosen == SIZE_MAX || better_than_kept(se, S, !st->target_params)
                  : chosen == SIZE_MAX || starts[i].share < start_share[chosen]) {
            chosen = out->ndesigns - 1;
            if (S > 0)
                keep_outcomes(se, S);
        }
        start_share[out->ndesigns - 1] = starts[i].share;
    }
    if (chosen == SIZE_MAX) {
        const ls_plan_design_score *a = &out->designs[0], *b = &out->designs[out->ndesigns - 1];
        size_t cheapest = 0;
        for (size_t k = 1; k < ncand; k++)
            if (st->cand_flops[k] < st->cand_flops[cheapest])
                cheapest = k;
        const ls_law_point *c = &cand[cheapest];
        return ls_error_set(err, LS_ERR_DATA,
                            "the budget of %g FLOPs buys no design that can be fitted without the weak prior "
                            "(c-optimal: %s; IsoFLOP: %s); the cheapest candidate costs %.4g FLOPs (N_act %.4g on "
                            "%.4g tokens, R = %g, E = %g): a larger budget, or candidates and R, E lists that vary "
                            "every axis the law depends on",
                            p->budget_flops, b->why, a->why, st->cand_flops[cheapest], c->n_act, c->D, c->R, c->E);
    }
    out->chosen = chosen;
    if (design_copy(best, &designs[chosen]) != 0)
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    /* A design right on every sweep, never worse than the truth's own
     * choice, leaves a move nothing to gain. */
    int perfect = S > 0;
    for (size_t s = 0; s < S; s++)
        if (se->best_failed[s] == 0 ? !se->best_right[s] || se->best_regret[s] > 0 || st->target_params
                                    : se->best_failed[s] > 0)
            perfect = 0;
    size_t k = best->n / 4 ? best->n / 4 : 1;
    for (size_t tried = 0; !perfect && S > 0 && tried < p->search_moves && k >= 1 && out->ndesigns < LS_PLAN_MAX_DESIGNS;) {
        run_set next;
        memset(&next, 0, sizeof next);
        if (swap_move(se, best, k, &next) != 0) {
            design_free(&next);
            return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        }
        if (design_same(&next, best)) {
            design_free(&next);
            k /= 2;
            continue;
        }
        ls_plan_design_score *sc = &out->designs[out->ndesigns];
        snprintf(sc->name, sizeof sc->name, "move %zu: %zu %s swapped", tried + 1, k, k == 1 ? "run" : "runs");
        if (evaluate(se, &next, sc) != 0) {
            design_free(&next);
            return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        }
        tried++;
        out->ndesigns++;
        if (better_than_kept(se, S, !st->target_params)) {
            out->chosen = out->ndesigns - 1;
            keep_outcomes(se, S);
            design_free(best);
            *best = next;
        } else {
            design_free(&next);
            k /= 2;
        }
    }
    if (p->progress && S > 0)
        p->progress(p->progress_context, se->total, se->total);
    return 0;
}
/* ---- the plan's runs, each with what it adds ------------------------------------ */

/* Per draw: the target's variance (summed over the targets) once each run
 * of the design is added in order (var, ndraws x n), and each target's at
 * the end (last, ndraws x T), by rank-one updates of the inverse
 * (recomputed exactly every 64 runs). */
typedef struct annotate_context {
    plan_state *st;
    const ls_law_point *x;
    size_t n;
    double *var, *last;
} annotate_context;

static int annotate_item(void *context, void *state, size_t s)
{
    (void)state;
    annotate_context *ac = context;
    plan_state *st = ac->st;
    size_t p = st->p, T = st->ntarget;
    double info[LS_LAW_NPARAMS * LS_LAW_NPARAMS], inv[LS_LAW_NPARAMS * LS_LAW_NPARAMS];
    double j[LS_LAW_NPARAMS], u[LS_LAW_NPARAMS];
    prior_information(st, s, st->have, st->nhave, info);
    if (spd_inverse(info, p, inv) != 0)
        return -1;
    for (size_t i = 0; i < ac->n; i++) {
        gradient_over(&st->draws[s], st->params, p, &ac->x[i], j, NULL);
        add_outer(info, j, p, st->w);
        if ((i + 1) % 64 == 0) {
            if (spd_inverse(info, p, inv) != 0)
                return -1;
        } else {
            double jmj = 0;
            for (size_t k = 0; k < p; k++) {
                double t = 0;
                for (size_t m = 0; m < p; m++)
                    t += inv[k * p + m] * j[m];
                u[k] = t;
                jmj += j[k] * t;
            }
            double f = st->w / (1.0 + st->w * jmj);
            for (size_t a = 0; a < p; a++)
                for (size_t b = 0; b < p; b++)
                    inv[a * p + b] -= f * u[a] * u[b];
        }
        double v = 0;
        for (size_t tg = 0; tg < T; tg++) {
            const double *c = st->c + (s * T + tg) * p;
            double vt = 0;
            for (size_t a = 0; a < p; a++) {
                double t = 0;
                for (size_t b = 0; b < p; b++)
                    t += inv[a * p + b] * c[b];
                vt += c[a] * t;
            }
            v += vt;
            if (i + 1 == ac->n)
                ac->last[s * T + tg] = vt;
        }
        ac->var[s * ac->n + i] = v;
    }
    return 0;
}

/* The plan's runs from the design kept, in its order, each with the
 * target's expected variance once it is added and the share it cut. */
static int take_design(plan_state *st, const run_set *d, int threads, ls_plan_result *out)
{
    out->runs = malloc((d->n ? d->n : 1) * sizeof *out->runs);
    double *var = malloc((st->ndraws * d->n + 1) * sizeof *var);
    double *last = malloc(st->ndraws * st->ntarget * sizeof *last);
    int status = -1;
    if (!out->runs || !var || !last)
        goto done;
    annotate_context ac = {st, d->x, d->n, var, last};
    ls_parallel_job job = {st->ndraws, threads, &ac, NULL, NULL, annotate_item, NULL};
    if (d->n && ls_parallel_for(&job) != 0)
        goto done;
    double before = out->variance_have;
    for (size_t i = 0; i < d->n; i++) {
        double v = 0;
        for (size_t s = 0; s < st->ndraws; s++)
            v += var[s * d->n + i];
        v /= (double)st->ndraws;
        ls_plan_entry *run = &out->runs[out->nruns++];
        run->x = d->x[i];
        run->flops = ls_law_training_flops(&d->x[i]);
        run->step = i + 1;
        run->variance = v;
        run->cut = before > 0 ? 1.0 - v / before : 0.0;
        run->source = d->src[i];
        out->flops_spent += run->flops;
        before = v;
    }
    if (d->n) {
        out->variance_plan = before;
        target_means(last, st->ndraws, st->ntarget, out->target_variance_plan);
    }
    status = 0;
done:
    free(var);
    free(last);
    return status;
}
/* Whether no candidate's (and no trained run's) loss depends on q at the
 * prior's values, as an exponent does whose coefficient is 0: no design
 * identifies it there, so the plan leaves it out rather than refuse every
 * design as singular. */
static int inert_at_prior(const ls_law *l, ls_law_param q, const ls_plan_candidates *candidates, const ls_sweep *have)
{
    double g[LS_LAW_NPARAMS];
    for (size_t i = 0; i < candidates->n; i++) {
        ls_law_log_loss_grad(l, &candidates->x[i], g);
        if (g[q] != 0)
            return 0;
    }
    for (size_t i = 0; have && i < have->n; i++) {
        ls_law_point x = ls_sweep_row_point(&have->rows[i]);
        ls_law_log_loss_grad(l, &x, g);
        if (g[q] != 0)
            return 0;
    }
    return 1;
}

int ls_plan_run(const ls_plan_prior *prior, const ls_arch_template *t, const ls_plan_candidates *candidates,
                const ls_sweep *have, const ls_solve_budget *deploy, const ls_solve_options *choice,
                const ls_plan_parameters *p, ls_plan_result *out, ls_error *err)
{
    memset(out, 0, sizeof *out);
    int status = check_parameters(p, err);
    if (status != 0)
        return status;
    /* Runs already trained are weighed as the candidates are, through the
     * template: their k must be its top_k, as a candidate's must. */
    for (size_t h = 0; have && h < have->n; h++)
        if (have->rows[h].k != t->top_k)
            return ls_error_set(err, LS_ERR_DATA, "%s:%ld: column 'k': %g is not the template's top_k (%d)",
                                have->name, have->rows[h].line, have->rows[h].k, t->top_k);

    ls_law_param all[LS_LAW_NPARAMS];
    size_t nall = ls_law_params_of(prior->point.kind, all);
    for (size_t k = 0; k < nall; k++)
        if (!prior->fixed[all[k]] && !inert_at_prior(&prior->point, all[k], candidates, have))
            out->params[out->nparams++] = all[k];
        else if (!prior->fixed[all[k]])
            out->inert[out->ninert++] = all[k];
    size_t np = out->nparams, T = p->ntarget_params ? p->ntarget_params : 1;
    ls_law_point x1, x2;
    memset(&x1, 0, sizeof x1);
    memset(&x2, 0, sizeof x2);
    if (p->ntarget_params) {
        char kind[64];
        ls_law_kind_format(prior->point.kind, kind, sizeof kind);
        for (size_t tg = 0; tg < T; tg++) {
            ls_law_param q = p->target_params[tg];
            size_t k = 0;
            while (k < np && out->params[k] != q)
                k++;
            if (!ls_law_uses_param(prior->point.kind, q))
                return ls_error_set(err, LS_ERR_USAGE, "%s is not a parameter of %s", ls_law_param_name(q), kind);
            if (k == np)
                return ls_error_set(err, LS_ERR_USAGE, "%s is fixed in the prior: there is nothing to plan for",
                                    ls_law_param_name(q));
            for (size_t m = 0; m < tg; m++)
                if (p->target_params[m] == q)
                    return ls_error_set(err, LS_ERR_USAGE, "%s is named twice", ls_law_param_name(q));
        }
        goto candidates_ready;
    }

    /* The decision under the point estimate, and what it is weighed against. */
    ls_solve_result sr;
    memset(&sr, 0, sizeof sr);
    if ((status = ls_solve_run(&prior->point, t, deploy, choice, &sr, err)) != 0)
        return status;
    if (!sr.has_choice) {
        ls_solve_result_free(&sr);
        return ls_error_set(err, LS_ERR_DATA, "no configuration is feasible at the deployment budget");
    }
    out->best = sr.choice;
    int has_runner_up = runner_up(&sr, &out->runner_up);
    ls_solve_result_free(&sr);
    if (!has_runner_up)
        return ls_error_set(err, LS_ERR_DATA,
                            "only one (R, E) is feasible at the deployment budget: there is no decision to plan for");
    x1 = candidate_point(&out->best);
    x2 = candidate_point(&out->runner_up);
    out->gap = ls_law_loss(&prior->point, &x1) - ls_law_loss(&prior->point, &x2);

candidates_ready:;

    size_t ncand = candidates->n;
    size_t nhave = have ? have->n : 0;
    size_t ndraws = prior->ndraws == 0 ? 1 : (prior->ndraws < p->max_draws ? prior->ndraws : p->max_draws);
    if (np == 0 || ncand == 0)
        return ls_error_set(err, LS_ERR_USAGE, np == 0 ? "the prior has no free parameter to plan for"
                                                       : "the grid has no candidate");
    if (ncand > SIZE_MAX / sizeof(double) / (np + T) / ndraws)
        return ls_error_set(err, LS_ERR_USAGE, "%zu candidates and %zu draws are too many", ncand, ndraws);

    plan_state st;
    memset(&st, 0, sizeof st);
    const ls_law_point *cand = candidates->x;
    ls_law_point *have_x = malloc((nhave ? nhave : 1) * sizeof *have_x);
    double *cand_flops = malloc(ncand * sizeof *cand_flops);
    unsigned char *available = malloc(ncand);
    ls_law *draws = malloc(ndraws * sizeof *draws);
    st.jac = malloc(ndraws * ncand * np * sizeof *st.jac);
    st.info = malloc(ndraws * np * np * sizeof *st.info);
    st.inv = malloc(ndraws * np * np * sizeof *st.inv);
    st.a = malloc(ndraws * T * np * sizeof *st.a);
    st.c = malloc(ndraws * T * np * sizeof *st.c);
    st.variance = malloc(ndraws * T * sizeof *st.variance);
    st.gain = malloc(ncand * sizeof *st.gain);
    st.q = malloc(ndraws * ncand * sizeof *st.q);
    st.r = malloc(ndraws * ncand * T * sizeof *st.r);
    st.u = malloc(ndraws * np * sizeof *st.u);
    st.f = malloc(ndraws * sizeof *st.f);
    st.ja = malloc(ndraws * T * sizeof *st.ja);
    st.own_pair = malloc(ndraws);
    st.same_pair = malloc(ndraws);
    st.truth_choice = malloc(ndraws * sizeof *st.truth_choice);
    st.truth_has = malloc(ndraws);
    st.second = malloc(ndraws * sizeof *st.second);
    size_t S = p->search_sweeps;
    search se;
    memset(&se, 0, sizeof se);
    run_index cand_index = {NULL, 0};
    ls_law_point *reference = malloc((ncand + nhave) * sizeof *reference);
    se.base_available = malloc(ncand);
    se.picked = malloc(ncand * sizeof *se.picked);
    se.right = malloc((S + 1) * sizeof *se.right);
    se.failed = malloc((S + 1) * sizeof *se.failed);
    se.regret = malloc((S + 1) * sizeof *se.regret);
    se.error = malloc((S + 1) * sizeof *se.error);
    se.best_right = malloc((S + 1) * sizeof *se.best_right);
    se.best_failed = malloc((S + 1) * sizeof *se.best_failed);
    se.best_regret = malloc((S + 1) * sizeof *se.best_regret);
    se.best_error = malloc((S + 1) * sizeof *se.best_error);
    run_set designs[LS_PLAN_MAX_DESIGNS], best_design;
    memset(designs, 0, sizeof designs);
    memset(&best_design, 0, sizeof best_design);
    double *pair_R = malloc((ncand + 2 * ndraws) * sizeof *pair_R), *pair_E = malloc((ncand + 2 * ndraws) * sizeof *pair_E);
    ls_law_point *iso = malloc((ncand * p->isoflop_budgets * p->isoflop_sizes + 1) * sizeof *iso);
    if (!have_x || !cand_flops || !available || !draws || !st.jac || !st.info || !st.inv || !st.a ||
        !st.c || !st.variance || !st.gain || !st.q || !st.r || !st.u || !st.f || !st.ja || !st.own_pair ||
        !st.same_pair || !st.truth_choice || !st.truth_has || !st.second || !reference || !se.base_available || !se.picked ||
        !se.right || !se.failed || !se.regret || !se.error || !se.best_right || !se.best_failed ||
        !se.best_regret || !se.best_error || !pair_R || !pair_E || !iso) {
        status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        goto done;
    }

    double loss_sum = 0;
    for (size_t i = 0; i < ncand; i++) {
        cand_flops[i] = ls_law_training_flops(&cand[i]);
        available[i] = 1;
        loss_sum += ls_law_loss(&prior->point, &cand[i]);
    }
    out->ncandidates = ncand;
    if (run_index_build(&cand_index, cand, ncand) != 0) {
        status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        goto done;
    }
    for (size_t h = 0; h < nhave; h++) {
        have_x[h] = ls_sweep_row_point(&have->rows[h]);
        out->have_flops += ls_law_training_flops(&have_x[h]);
        out->nhave_in_grid += run_index_first(&cand_index, &have_x[h]) != SIZE_MAX;
        run_index_each(&cand_index, &have_x[h], mark_taken, available);
    }
    out->nhave = nhave;
    memcpy(se.base_available, available, ncand);
    memcpy(reference, cand, ncand * sizeof *reference);
    if (nhave)
        memcpy(reference + ncand, have_x, nhave * sizeof *reference);

    out->sigma = p->noise_sigma;
    if (isnan(out->sigma)) {
        if (!(prior->rmse > 0 && isfinite(prior->rmse))) {
            status = ls_error_set(err, LS_ERR_USAGE, "the prior law has no fit RMSE to take the noise from");
            goto done;
        }
        out->sigma = prior->rmse / (loss_sum / (double)ncand);
    }
    out->huber_weight = ls_plan_huber_weight(out->sigma, p->huber_delta);
    if (!(out->huber_weight > 0 && isfinite(out->huber_weight))) {
        status = ls_error_set(err, LS_ERR_USAGE, "no information per run at noise %g and Huber delta %g", out->sigma,
                              p->huber_delta);
        goto done;
    }

    for (size_t s = 0; s < ndraws; s++)
        draws[s] = prior->ndraws ? prior->draws[s] : prior->point;
    out->ndraws = ndraws;
    st.p = np;
    st.ntarget = T;
    st.target_params = p->ntarget_params ? p->target_params : NULL;
    out->ntargets = p->ntarget_params;
    for (size_t tg = 0; tg < p->ntarget_params; tg++)
        out->targets[tg] = p->target_params[tg];
    st.ncand = ncand;
    st.ndraws = ndraws;
    st.w = out->huber_weight;
    st.cand = cand;
    st.cand_flops = cand_flops;
    st.draws = draws;
    st.params = out->params;
    st.x1 = &x1;
    st.x2 = &x2;
    st.t = t;
    st.deploy = deploy;
    st.choice = choice;
    st.have = have_x;
    st.nhave = st.nfixed = nhave;
    st.prior_precision = 1.0 / (p->prior_sd * p->prior_sd);
    st.available = available;

    ls_parallel_job job = {ndraws, p->threads, &st, NULL, NULL, setup_draw, NULL};
    se.st = &st;
    se.p = p;
    se.point = &prior->point;
    se.spec = (sim_spec){prior->point.kind, t, p->ntarget_params ? NULL : deploy, choice, &p->fit, out->sigma, p->seed,
                         p->target_params, p->ntarget_params};
    se.have = have_x;
    se.nhave = nhave;
    se.cand_index = &cand_index;
    range_of(cand, ncand, &se.range);
    se.reference = reference;
    se.nreference = ncand + nhave;
    if (ls_parallel_for(&job) != 0 || reset_state(&se, NULL) != 0) {
        status = ls_error_set(err, LS_ERR_INTERNAL, "the Fisher information is not positive definite");
        goto done;
    }
    for (size_t s = 0; s < ndraws; s++) {
        out->ndraws_own_pair += st.own_pair[s];
        out->ndraws_same_choice += st.same_pair[s];
    }
    /* Under the weak prior alone the variance is prior_sd^2 |c|^2. */
    for (size_t s = 0; s < ndraws; s++)
        for (size_t tg = 0; tg < T; tg++)
            for (size_t k = 0; k < np; k++) {
                double c = st.c[(s * T + tg) * np + k];
                out->target_variance_prior[tg] += p->prior_sd * p->prior_sd * c * c / (double)ndraws;
            }
    target_means(st.variance, ndraws, T, out->target_variance_have);
    memcpy(out->target_variance_plan, out->target_variance_have, sizeof out->target_variance_plan);
    for (size_t tg = 0; tg < T; tg++)
        out->variance_prior += out->target_variance_prior[tg];
    out->variance_have = out->variance_plan = mean_of(st.variance, ndraws * T) * (double)T;

    status = search_designs(&se, &st, prior, t, cand, ncand, pair_R, pair_E, iso, designs, &best_design, out, err);
    if (status == 0 && take_design(&st, &best_design, p->threads, out) != 0)
        status = ls_error_set(err, LS_ERR_INTERNAL, "the Fisher information is not positive definite");
    if (status == 0 && fixed_points(&se, &best_design) == 0)
        ls_plan_check_design(&prior->point, out->params, np, se.fixed, nhave + best_design.n, reference,
                             ncand + nhave, p->min_runs_per_param, p->max_condition, &out->fittable);

done:
    if (status != 0)
        ls_plan_result_free(out);
    run_index_free(&cand_index);
    free(have_x);
    free(cand_flops);
    free(available);
    free(draws);
    free(st.jac);
    free(st.info);
    free(st.inv);
    free(st.a);
    free(st.c);
    free(st.variance);
    free(st.gain);
    free(st.q);
    free(st.r);
    free(st.u);
    free(st.f);
    free(st.ja);
    free(st.own_pair);
    free(st.same_pair);
    free(st.truth_choice);
    free(st.truth_has);
    free(st.second);
    free(reference);
    free(se.base_available);
    free(se.picked);
    free(se.right);
    free(se.failed);
    free(se.regret);
    free(se.error);
    free(se.best_right);
    free(se.best_failed);
    free(se.best_regret);
    free(se.best_error);
    free(se.fixed);
    free(pair_R);
    free(pair_E);
    free(iso);
    for (size_t i = 0; i < LS_PLAN_MAX_DESIGNS; i++)
        design_free(&designs[i]);
    design_free(&best_design);
    return status;
}

/* ---- candidates ---------------------------------------------------------- */


#define NARMS 3 /* the plan, the thinned grid, the IsoFLOP run_set */

typedef struct validate_context {
    const ls_law *truth;
    sim_spec spec;
    const ls_plan_validation_options *o;
    const ls_law_point *design[NARMS];
    size_t ndesign[NARMS];
    ls_solve_candidate truth_choice;
    unsigned char *right, *failed; /* NARMS K each: replicate k of design a at NARMS k + a */
    double *regret;
    double *fitted; /* NARMS K x ntarget_params: the named parameters as fitted */
} validate_context;

/* Replicate i / NARMS of design i % NARMS: simulate, fit, solve, compare.
 * Replicate k of every design is the noise stream k (run_noise), so that a
 * run two designs share has the same loss in both. */
static int validate_item(void *context, void *state, size_t i)
{
    (void)state;
    validate_context *v = context;
    size_t arm = i % NARMS, k = i / NARMS;
    if (arm == 2 && v->o->isoflop_budgets == 0) { /* no IsoFLOP design asked for */
        v->failed[i] = 1;
        v->right[i] = 0;
        v->regret[i] = NAN;
        return 0;
    }
    int failed, right;
    double *fitted = v->fitted + i * v->o->ntarget_params, tmp[LS_LAW_NPARAMS];
    if (simulate_one(&v->spec, v->truth, &v->truth_choice, v->design[arm], v->ndesign[arm], k, &failed, &right,
                     &v->regret[i], v->o->ntarget_params ? fitted : tmp) != 0)
        return -1;
    v->failed[i] = (unsigned char)failed;
    v->right[i] = (unsigned char)right;
    return 0;
}

static void validate_progress(void *context, size_t done, size_t total)
{
    validate_context *v = context;
    if (v->o->progress)
        v->o->progress(v->o->progress_context, done, total);
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

static size_t gcd(size_t a, size_t b)
{
    while (b) {
        size_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

/* Order of (tokens, E, R), then N_act: to count the distinct triples. */
static int compare_triples(const void *a, const void *b)
{
    const ls_law_point *x = a, *y = b;
    if (x->D != y->D)
        return x->D < y->D ? -1 : 1;
    if (x->E != y->E)
        return x->E < y->E ? -1 : 1;
    return (x->R > y->R) - (x->R < y->R);
}

/* The number of distinct (tokens, E, R) among the candidates (for a grid in
 * grid order, the period of the walk through them). */
static size_t distinct_triples(const ls_law_point *cand, size_t n, ls_law_point *scratch)
{
    memcpy(scratch, cand, n * sizeof *scratch);
    qsort(scratch, n, sizeof *scratch, compare_triples);
    size_t m = n ? 1 : 0;
    for (size_t i = 1; i < n; i++)
        m += compare_triples(&scratch[i - 1], &scratch[i]) != 0;
    return m;
}

void ls_plan_validation_default_options(ls_plan_validation_options *o)
{
    memset(o, 0, sizeof *o);
    o->replicates = 50;
    o->noise_sigma = NAN;
    o->baseline_flops = NAN;
    o->seed = 1;
    ls_fit_default_parameters(&o->fit);
    o->isoflop_budgets = 3;
    o->isoflop_sizes = 8;
    o->isoflop_budget_ratio = sqrt(10.0);
    o->isoflop_span = 3.0;
}

/* The validation's IsoFLOP design over the candidates' (R, E). */
static int isoflop_design(const ls_law *center, const ls_arch_template *t, const ls_law_point *cand, size_t ncand,
                          const ls_plan_validation_options *o, double flops, ls_law_point *design, size_t *ndesign,
                          ls_plan_validation *out, ls_error *err)
{
    double *R = malloc(ncand * sizeof *R), *E = malloc(ncand * sizeof *E);
    if (!R || !E) {
        free(R);
        free(E);
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    }
    size_t npairs = distinct_pairs(cand, ncand, R, E);
    out->isoflop_pairs = npairs;
    run_range range;
    range_of(cand, ncand, &range);
    isoflop_shape sh = {center, t, R, E, npairs, o->isoflop_budgets, o->isoflop_sizes, o->isoflop_budget_ratio,
                        o->isoflop_span, &range};
    int status = isoflop_points(&sh, flops, design, ndesign, &out->isoflop_budget_min, &out->isoflop_budget_max, err);
    free(R);
    free(E);
    return status;
}

int ls_plan_validate(const ls_law *truth, ls_law_kind kind, const ls_arch_template *t, const ls_plan_candidates *candidates,
                     const ls_sweep *have, const ls_plan_result *plan, const ls_solve_budget *deploy,
                     const ls_solve_options *choice, const ls_plan_validation_options *o, ls_plan_validation *out,
                     ls_error *err)
{
    memset(out, 0, sizeof *out);
    if (o->replicates < 1)
        return ls_error_set(err, LS_ERR_USAGE, "at least one replicate is needed");
    if (!(o->noise_sigma > 0 && isfinite(o->noise_sigma)))
        return ls_error_set(err, LS_ERR_USAGE, "the noise must be positive and finite (got %g)", o->noise_sigma);
    if (!(o->baseline_flops > 0 && isfinite(o->baseline_flops)))
        return ls_error_set(err, LS_ERR_USAGE, "the baseline's compute must be positive and finite (got %g)",
                            o->baseline_flops);
    if (o->isoflop_budgets > 0 && (!o->center || o->isoflop_sizes < 1 || !(o->isoflop_budget_ratio > 1) ||
                                   !(o->isoflop_span >= 1 && isfinite(o->isoflop_span))))
        return ls_error_set(err, LS_ERR_USAGE, "the IsoFLOP design needs a centre law, at least one size, a budget "
                            "ratio above 1 and a finite span of at least 1");
    if (candidates->n == 0)
        return ls_error_set(err, LS_ERR_USAGE, "there is no candidate");
    int status = 0;
    if (deploy) {
        ls_solve_result sr;
        memset(&sr, 0, sizeof sr);
        if ((status = ls_solve_run(truth, t, deploy, choice, &sr, err)) != 0)
            return status;
        int has_choice = sr.has_choice;
        out->truth_choice = sr.choice;
        ls_solve_result_free(&sr);
        if (!has_choice)
            return ls_error_set(err, LS_ERR_DATA,
                                "no configuration is feasible at the deployment budget under the truth");
    }
    out->has_decision = deploy != NULL;

    const ls_law_point *cand = candidates->x;
    size_t nhave = have ? have->n : 0, ncand = candidates->n, K = o->replicates;
    if (ncand > (SIZE_MAX / sizeof(ls_law_point) - 3 * nhave - plan->nruns) / (o->isoflop_budgets * o->isoflop_sizes + 2))
        return ls_error_set(err, LS_ERR_USAGE, "the IsoFLOP design is too large");
    size_t niso_max = ncand * o->isoflop_budgets * o->isoflop_sizes; /* pairs <= candidates */
    ls_law_point *scratch = malloc(ncand * sizeof *scratch);
    ls_law_point *designs = malloc((3 * nhave + plan->nruns + ncand + niso_max) * sizeof *designs);
    unsigned char *right = malloc(NARMS * K), *failed = malloc(NARMS * K);
    double *regret = malloc(NARMS * K * sizeof *regret), *sorted = malloc(K * sizeof *sorted);
    size_t T = o->ntarget_params;
    double *fitted = malloc((T > 0 ? NARMS * K * T : 1) * sizeof *fitted);
    if (!scratch || !designs || !right || !failed || !regret || !sorted || !fitted) {
        status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        goto done;
    }
    /* The thinned grid: every k-th candidate from the middle of the first
     * k, for the smallest k that fits the compute and is coprime to the
     * number of distinct (tokens, E, R) combinations, so that on a grid the
     * walk visits every value of each of those axes rather than one loop
     * count only. */
    size_t inner = distinct_triples(cand, ncand, scratch), stride = 0;
    double grid_flops = 0;
    for (size_t k = 1; k <= ncand && stride == 0; k++) {
        if (gcd(k, inner) != 1 && k < ncand)
            continue;
        double sum = 0;
        for (size_t j = k / 2; j < ncand; j += k)
            sum += ls_law_training_flops(&cand[j]);
        if (sum <= o->baseline_flops) {
            stride = k;
            grid_flops = sum;
        }
    }
    if (stride == 0) {
        status = ls_error_set(err, LS_ERR_DATA, "no thinning of the candidates fits in the baseline's %g FLOPs",
                              o->baseline_flops);
        goto done;
    }
    ls_law_point *plan_design = designs, *grid_design = designs + nhave + plan->nruns;
    ls_law_point *iso_design = grid_design + nhave + ncand;
    for (size_t h = 0; h < nhave; h++)
        plan_design[h] = grid_design[h] = iso_design[h] = ls_sweep_row_point(&have->rows[h]);
    for (size_t r = 0; r < plan->nruns; r++)
        plan_design[nhave + r] = plan->runs[r].x;
    size_t ngrid = nhave, niso = 0;
    for (size_t j = stride / 2; j < ncand; j += stride)
        grid_design[ngrid++] = cand[j];
    if (o->isoflop_budgets > 0 &&
        (status = isoflop_design(o->center, t, cand, ncand, o, o->baseline_flops, iso_design + nhave, &niso, out,
                                 err)) != 0)
        goto done;
    out->replicates = K;
    out->plan.nruns = nhave + plan->nruns;
    out->plan.flops = plan->flops_spent;
    out->grid.nruns = ngrid;
    out->grid.flops = grid_flops;
    out->grid.stride = stride;
    out->isoflop.nruns = nhave + niso;
    for (size_t j = 0; j < niso; j++)
        out->isoflop.flops += ls_law_training_flops(&iso_design[nhave + j]);
    out->isoflop_budgets = o->isoflop_budgets;
    out->isoflop_sizes = o->isoflop_sizes;

    validate_context v = {truth,
                          {kind, t, deploy, choice, &o->fit, o->noise_sigma, o->seed, o->target_params, T},
                          o,
                          {plan_design, grid_design, iso_design},
                          {out->plan.nruns, ngrid, out->isoflop.nruns},
                          out->truth_choice,
                          right,
                          failed,
                          regret,
                          fitted};
    ls_parallel_job job = {NARMS * K, o->threads, &v, NULL, NULL, validate_item, validate_progress};
    if (ls_parallel_for(&job) != 0) {
        status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        goto done;
    }
    for (size_t arm = 0; arm < NARMS; arm++) {
        ls_plan_validation_arm *res = arm == 0 ? &out->plan : arm == 1 ? &out->grid : &out->isoflop;
        size_t m = 0;
        double sum = 0;
        for (size_t k = 0; k < K; k++) {
            size_t j = NARMS * k + arm;
            res->right += right[j];
            res->failed += failed[j];
            if (!failed[j]) {
                sorted[m++] = regret[j];
                sum += regret[j];
            }
        }
        /* The spread of each named parameter over the replicates that
         * fitted it (sample variance), and their sum; NaN with fewer than
         * two. */
        res->target_variance = T ? 0 : NAN;
        for (size_t tg = 0; tg < T; tg++) {
            double mean = 0, ss = 0;
            size_t nf = 0;
            for (size_t k = 0; k < K; k++)
                if (!failed[NARMS * k + arm] && !isnan(fitted[(NARMS * k + arm) * T + tg])) {
                    double x = fitted[(NARMS * k + arm) * T + tg], d = x - mean;
                    nf++;
                    mean += d / (double)nf;
                    ss += d * (x - mean);
                }
            res->target_sd[tg] = nf > 1 ? sqrt(ss / (double)(nf - 1)) : NAN;
            res->target_variance += nf > 1 ? ss / (double)(nf - 1) : NAN;
        }
        res->regret_mean = res->regret_median = res->regret_max = NAN;
        if (m > 0) {
            qsort(sorted, m, sizeof *sorted, compare_doubles);
            res->regret_mean = sum / (double)m;
            res->regret_median = m % 2 ? sorted[m / 2] : 0.5 * (sorted[m / 2 - 1] + sorted[m / 2]);
            res->regret_max = sorted[m - 1];
        }
    }
done:
    free(fitted);
    free(scratch);
    free(designs);
    free(right);
    free(failed);
    free(regret);
    free(sorted);
    return status;
}

void ls_plan_rate_interval(size_t k, size_t n, double *lo, double *hi)
{
    if (n == 0 || k > n) {
        *lo = 0.0;
        *hi = 1.0;
        return;
    }
    const double z = 1.959963984540054, z2 = z * z;
    double nn = (double)n, kk = (double)k;
    double centre = (kk + z2 / 2) / (nn + z2);
    double half = z * sqrt(kk * (nn - kk) / nn + z2 / 4) / (nn + z2);
    *lo = fmax(0.0, centre - half);
    *hi = fmin(1.0, centre + half);
}

