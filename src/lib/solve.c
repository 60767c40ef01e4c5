#include "loopscale/solve.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_min.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loopscale/fit.h"
#include "loopscale/sweep.h"

#include "band_internal.h"
#include "gslguard_internal.h"
#include "numtext_internal.h"
#include "parallel_internal.h"

/* The search over ln N_act: a scan of SCAN_POINTS points across the feasible
 * range, then Brent's method around the best of them (EDGE_POINTS more in
 * the last interval when the best is at an end).  The smallest model
 * considered has N_MIN active parameters; the largest trains on one token. */
#define SCAN_POINTS 24
#define EDGE_POINTS 8
#define N_MIN 1e3
#define LN_N_TOLERANCE 1e-9
#define BRENT_MAX_ITERATIONS 100
#define HALVINGS 30 /* down to 1e-9 of a fine step */

typedef struct profile {
    ls_law_prepared prep;
    const ls_arch_template *t;
    double flops, E, R;
    double total_ratio, unroll_ratio; /* N_total / N_act, N_unroll / N_act */
    double loop_ratio;                /* N_loop / N_act */
    double ln_d_at_unit_n;            /* ln D = this - ln N_act */
    double ln_m;                      /* ln(N_act / N_total) */
    ls_law_flops conv;                   /* how the budget is counted */
    int per_token_linear;             /* 6nd: D N_act is the same at every N_act */
    double n_one_token;               /* the N_act that trains on one token */
    const ls_law_quant *quant;        /* the penalty of quantised weights, or NULL */
    double bits;                      /* bits per weight */
} profile;

/* ln D at ln N_act: under 6nd, D N_act is fixed by the budget; the other
 * conventions add per-token terms that grow more slowly than N_act. */
static double profile_ln_d(const profile *pr, double ln_n)
{
    if (pr->per_token_linear)
        return pr->ln_d_at_unit_n - ln_n;
    double n = exp(ln_n);
    ls_law_point x = {n, n * pr->total_ratio, n * pr->loop_ratio, pr->R, pr->E, NAN, 0.0};
    return log(ls_law_tokens_for_flops_as(&pr->conv, &x, pr->flops));
}

/* The N_act at which the budget buys one token: D falls as N_act grows, so
 * bisect ln N_act for ln D = 0. */
static double profile_n_one_token(const profile *pr)
{
    if (pr->per_token_linear)
        return exp(pr->ln_d_at_unit_n);
    double lo = -10.0, hi = pr->ln_d_at_unit_n; /* 6nd's answer is an upper bound */
    if (!(profile_ln_d(pr, lo) > 0))
        return 0.0;
    for (int k = 0; k < 200 && hi - lo > 1e-12; k++) {
        double mid = 0.5 * (lo + hi);
        if (profile_ln_d(pr, mid) > 0)
            lo = mid;
        else
            hi = mid;
    }
    return exp(lo);
}

static void profile_init(profile *pr, const ls_law *l, const ls_arch_template *t, double flops, double E, double R)
{
    ls_law_prepare(&pr->prep, l);
    pr->quant = NULL;
    pr->bits = 16;
    pr->t = t;
    pr->flops = flops;
    pr->E = E;
    pr->R = R;
    pr->total_ratio = ls_arch_n_total_at(t, 1.0, E, R);
    pr->loop_ratio = ls_arch_loop_fraction(t);
    pr->unroll_ratio = 1.0 + (R - 1.0) * pr->loop_ratio;
    ls_law_point unit = ls_arch_point(t, 1.0, E, R, 0.0);
    pr->ln_d_at_unit_n = log(ls_law_tokens_for_flops(&unit, flops)); /* D at N_act = 1 */
    pr->ln_m = pr->total_ratio == 1.0 ? 0.0 : -log(pr->total_ratio);
    ls_arch_flops(t, &pr->conv);
    pr->per_token_linear = pr->conv.kind == LS_LAW_FLOPS_6ND;
    pr->n_one_token = profile_n_one_token(pr);
}

static ls_law_point profile_point(const profile *pr, double n_act)
{
    ls_law_point x = ls_arch_point(pr->t, n_act, pr->E, pr->R, 0.0);
    x.D = ls_law_tokens_for_flops_as(&pr->conv, &x, pr->flops); /* all of the compute budget */
    return x;
}

/* ln L at ln N_act and ln D, the quantisation penalty of the weights
 * added when there is one. */
static double profile_ln_loss_at(profile *pr, double ln_n, double ln_d)
{
    double n = exp(ln_n);
    ls_law_row row;
    row.ln_n_act = ln_n;
    row.ln_d = ln_d;
    row.ln_m = pr->ln_m;
    /* The law reads ln D from the row, never D itself. */
    row.x = (ls_law_point){n, n * pr->total_ratio, n * pr->loop_ratio, pr->R, pr->E, NAN, 0};
    double ln_loss = ls_law_row_log_loss_grad(&pr->prep, &row, NULL);
    if (!pr->quant || !(pr->bits < pr->quant->trained_bits))
        return ln_loss;
    return log(exp(ln_loss) + ls_law_quant_penalty(pr->quant, row.x.n_total, exp(ln_d), pr->bits));
}

static int profile_penalised(const profile *pr)
{
    return pr->quant && pr->bits < pr->quant->trained_bits;
}

/* The ln D an N_act trains on: all of the budget, ln(F / (6 N_unroll)).
 * With a quantisation penalty, which grows with D while the law's loss
 * falls with it, the lowest loss may lie at fewer tokens: then the minimum
 * of the sum over ln D up to that (golden section; the sum of a falling and
 * a rising power of D has one minimum). */
static double profile_best_ln_d(profile *pr, double ln_n)
{
    double hi = profile_ln_d(pr, ln_n);
    if (!profile_penalised(pr) || !(profile_ln_loss_at(pr, ln_n, hi - 1e-6) < profile_ln_loss_at(pr, ln_n, hi)))
        return hi;
    const double golden = 0.3819660112501051;
    double lo = fmax(0.0, hi - 60.0); /* at least one token */
    double a = lo + golden * (hi - lo), b = hi - golden * (hi - lo);
    double fa = profile_ln_loss_at(pr, ln_n, a), fb = profile_ln_loss_at(pr, ln_n, b);
    for (int k = 0; k < 200 && hi - lo > 1e-10; k++) {
        if (fa < fb) {
            hi = b;
            b = a;
            fb = fa;
            a = lo + golden * (hi - lo);
            fa = profile_ln_loss_at(pr, ln_n, a);
        } else {
            lo = a;
            a = b;
            fa = fb;
            b = hi - golden * (hi - lo);
            fb = profile_ln_loss_at(pr, ln_n, b);
        }
    }
    return 0.5 * (lo + hi);
}

/* ln L at ln N_act, which the search minimises (L itself is monotone in
 * it).  The row's logarithms follow from ln N_act directly:
 * ln D = ln(F / (6 N_unroll / N_act)) - ln N_act. */
static double profile_ln_loss(double ln_n, void *context)
{
    profile *pr = context;
    return profile_ln_loss_at(pr, ln_n, profile_best_ln_d(pr, ln_n));
}

/* The KV cache of a configuration: context x batch tokens of
 * ls_arch_kv_per_token elements of kv_bits each. */
static double kv_bytes(const ls_arch_template *t, const ls_solve_budget *b, double n_act, double R)
{
    if (!(b->context > 0))
        return 0.0;
    double batch = b->batch > 0 ? b->batch : 1.0;
    return b->context * batch * ls_arch_kv_per_token(t, n_act, R) * ls_solve_budget_kv_bits(b) / 8.0;
}

/* A candidate at N_act with D tokens (D <= 0: all of the budget). */
static void fill_candidate_d(profile *pr, const ls_solve_budget *b, double n_act, double tokens, ls_solve_candidate *c)
{
    ls_law_point x = ls_arch_point(pr->t, n_act, pr->E, pr->R, 0.0);
    x.D = tokens > 0 ? tokens : ls_law_tokens_for_flops_as(&pr->conv, &x, pr->flops);
    c->E = pr->E;
    c->R = pr->R;
    c->n_act = n_act;
    c->n_total = x.n_total;
    c->n_loop = x.n_loop;
    c->n_unroll = ls_law_n_unroll(&x);
    c->tokens = x.D;
    c->loss = exp(tokens > 0 ? profile_ln_loss_at(pr, log(n_act), log(x.D)) : profile_ln_loss(log(n_act), pr));
    c->inference_flops = ls_law_inference_flops_as(&pr->conv, &x);
    c->weight_bytes = b->bits * c->n_total / 8.0;
    c->kv_bytes = kv_bytes(pr->t, b, n_act, pr->R);
    c->memory_bytes = c->weight_bytes + c->kv_bytes + b->activation_bytes;
    c->quant_penalty = ls_law_quant_penalty(pr->quant, c->n_total, x.D, pr->bits);
    c->training_flops = tokens > 0 ? ls_law_training_flops_as(&pr->conv, &x) : pr->flops;
    c->serving_flops = b->inference_tokens * c->inference_flops;
}

static void fill_candidate(profile *pr, const ls_solve_budget *b, double n_act, ls_solve_candidate *c)
{
    double ln_d = profile_best_ln_d(pr, log(n_act));
    /* Fewer tokens than the budget's only where a penalty makes them better. */
    fill_candidate_d(pr, b, n_act, ln_d < profile_ln_d(pr, log(n_act)) ? exp(ln_d) : 0.0, c);
}

/* The largest N_act whose weights, KV cache and activations fit in memory:
 * weights b_w N_total / 8 grow with N_act, the cache with the width d, so
 * as sqrt(N_act) when the width is read off N_act (a N + k sqrt(N) = room,
 * a quadratic in sqrt(N)) and not at all at a fixed width.  0 when nothing
 * fits. */
static double memory_n_cap(const profile *pr, const ls_solve_budget *b)
{
    double room = b->mem_bytes - b->activation_bytes;
    double a = b->bits * pr->total_ratio / 8.0;
    double kv1 = kv_bytes(pr->t, b, 1.0, pr->R), kv4 = kv_bytes(pr->t, b, 4.0, pr->R);
    if (kv1 == kv4) { /* a fixed width, or no cache */
        room -= kv1;
        return room > 0 ? 8.0 * room / (b->bits * pr->total_ratio) : 0.0;
    }
    if (!(room > 0))
        return 0.0;
    /* kv(N) = kv1 sqrt(N): sqrt(N) = (-kv1 + sqrt(kv1^2 + 4 a room)) / (2 a),
     * written without the cancellation of the difference. */
    double root = 2.0 * room / (kv1 + sqrt(kv1 * kv1 + 4.0 * a * room));
    double n = root * root;
    /* Rounding may leave the total a few bits over the budget. */
    for (int k = 0; k < 16 && a * n + kv_bytes(pr->t, b, n, pr->R) > room; k++)
        n *= 1.0 - 4.0 * DBL_EPSILON;
    return n;
}

/* The minimum of an objective over ln N in [lo, hi] (the profile's loss,
 * or a cost): scan, then Brent in the bracket around the best scanned
 * point. */
static double minimise_fn(double (*objective)(double, void *), void *pr, gsl_min_fminimizer *brent, double lo, double hi)
{
    double best_x = lo, best_f = INFINITY, step = (hi - lo) / (SCAN_POINTS - 1);
    int best_k = 0;
    for (int k = 0; k < SCAN_POINTS; k++) {
        double x = k == SCAN_POINTS - 1 ? hi : lo + step * k;
        double f = objective(x, pr);
        if (f < best_f) {
            best_f = f;
            best_x = x;
            best_k = k;
        }
    }
    if (hi <= lo)
        return lo;
    /* Bracket: the neighbours of the best point.  At an end of the range a
     * finer scan of the last interval looks for a lower point to bracket;
     * if there is none, the end itself is the minimum (the budget binds). */
    double a = best_x - step, b = best_x + step, guess = best_x;
    if (best_k == 0 || best_k == SCAN_POINTS - 1) {
        double edge = best_k == 0 ? lo : hi, toward = best_k == 0 ? step : -step;
        double fine = toward / (EDGE_POINTS + 1), fine_best = best_f;
        int fine_k = 0;
        for (int k = 1; k <= EDGE_POINTS; k++) {
            double f = objective(edge + fine * k, pr);
            if (f < fine_best) {
                fine_best = f;
                fine_k = k;
            }
        }
        if (fine_k == 0) {
            /* The minimum may still lie inside the first fine step, closer
             * to the end than any fine point: halve toward the end until a
             * point is lower than the end itself, else the end binds. */
            for (int k = 1; k <= HALVINGS; k++) {
                double x = edge + fine * ldexp(1.0, -k);
                if (objective(x, pr) < best_f) {
                    fine_k = -k;
                    guess = x;
                    break;
                }
            }
            if (fine_k == 0)
                return edge;
            a = fmin(edge, edge + fine);
            b = fmax(edge, edge + fine);
        } else {
            guess = edge + fine * fine_k;
            a = fmin(guess - fine, guess + fine);
            b = fmax(guess - fine, guess + fine);
        }
    }
    /* Brent through gslguard: a flat or non-finite profile fails by status,
     * never through GSL's error handler. */
    gsl_function inner = {objective, pr};
    ls_min_function fn;
    ls_min_function_init(&fn, &inner);
    if (ls_min_set(brent, &fn, guess, a, b) != GSL_SUCCESS)
        return best_x;
    for (int it = 0; it < BRENT_MAX_ITERATIONS; it++) {
        if (ls_min_iterate(brent, &fn) != GSL_SUCCESS)
            break;
        if (gsl_min_test_interval(gsl_min_fminimizer_x_lower(brent), gsl_min_fminimizer_x_upper(brent),
                                  LN_N_TOLERANCE, 0.0) == GSL_SUCCESS)
            break;
    }
    return gsl_min_fminimizer_x_minimum(brent);
}

static double minimise(profile *pr, gsl_min_fminimizer *brent, double lo, double hi)
{
    return minimise_fn(profile_ln_loss, pr, brent, lo, hi);
}

static int candidate_with(const ls_law *l, const ls_arch_template *t, const ls_solve_budget *b,
                          const ls_law_quant *quant, double E, double R, const double *ladder, size_t nladder,
                          int use_memory, gsl_min_fminimizer *brent, ls_solve_candidate *out)
{
    profile pr;
    profile_init(&pr, l, t, b->flops, E, R);
    pr.quant = quant;
    pr.bits = b->bits;
    memset(out, 0, sizeof *out);
    out->E = E;
    out->R = R;
    out->loss = INFINITY;
    /* N_act at most what the memory holds, and at most what leaves one
     * training token. */
    double n_hi = pr.n_one_token;
    if (use_memory && isfinite(b->mem_bytes))
        n_hi = fmin(n_hi, memory_n_cap(&pr, b));
    if (ladder) {
        double best = INFINITY, best_n = 0;
        for (size_t i = 0; i < nladder; i++) {
            if (ladder[i] > n_hi)
                continue;
            double f = profile_ln_loss(log(ladder[i]), &pr);
            if (f < best) {
                best = f;
                best_n = ladder[i];
            }
        }
        if (isinf(best))
            return 0;
        fill_candidate(&pr, b, best_n, out);
        out->feasible = 1;
        /* Memory binds when a larger size it leaves out (one that still
         * trains on a token) would have had a lower loss. */
        double n_tokens = pr.n_one_token;
        for (size_t i = 0; i < nladder && out->bound == LS_SOLVE_BOUND_COMPUTE; i++)
            if (ladder[i] > n_hi && ladder[i] <= n_tokens && profile_ln_loss(log(ladder[i]), &pr) < best)
                out->bound = LS_SOLVE_BOUND_MEMORY;
        return 0;
    }
    if (n_hi < N_MIN)
        return 0;
    int memory_caps = n_hi < pr.n_one_token;
    double ln_n = minimise(&pr, brent, log(N_MIN), log(n_hi));
    /* Keep the reported point inside the budget after rounding. */
    double n = fmin(exp(ln_n), n_hi);
    fill_candidate(&pr, b, n, out);
    out->feasible = 1;
    /* minimise() returns an end of the range exactly when it binds. */
    if (ln_n >= log(n_hi))
        out->bound = memory_caps ? LS_SOLVE_BOUND_MEMORY : LS_SOLVE_BOUND_SEARCH;
    else if (ln_n <= log(N_MIN))
        out->bound = LS_SOLVE_BOUND_SEARCH;
    return 0;
}

/* ---- the cheapest configuration that reaches a loss ------------------------------
 *
 * Sardana et al. 2024 ("Beyond Chinchilla-Optimal: Accounting for Inference
 * in Language Model Scaling Laws"): minimise training + lifetime inference
 * FLOPs, 6 N_unroll D + 2 N_unroll T under 6nd, over the (N_act, D) that
 * reach the loss l.  For each N_act, D_l(N_act) is the fewest tokens that
 * reach it (a root of ln L(N_act, D) = ln l in ln D); the cost is then a
 * function of N_act alone, minimised as the loss is in ln N_act.  A
 * training budget F, when given, caps 6 N_unroll D_l: along the loss l the
 * training cost is least at the compute-optimal point and grows on both
 * sides, so the N_act it allows is an interval around that point. */

#define LN_D_MAX 92.1 /* ln 1e40: tokens beyond any budget */
#define COST_INFEASIBLE 1e300

typedef struct iso_profile {
    profile pr;
    double ln_target;  /* ln l */
    double T;          /* inference tokens */
    int has_last;      /* a root was found: ln_d_last, where the next search starts */
    double ln_d_last;
} iso_profile;

/* Regula falsi with the Illinois modification on a bracket [lo, hi] of
 * ln D (f(lo) > 0 >= f(hi)), to the last bits: the cost is minimised over
 * N_act through this root, and the root's rounding is the noise the
 * minimum is found in.  Returns the side that reaches the target. */
static double iso_root(iso_profile *ip, double ln_n, double lo, double f_lo, double hi, double f_hi)
{
    int side = 0;
    for (int k = 0; k < 200 && hi - lo > 4 * DBL_EPSILON * fmax(1.0, fabs(hi)); k++) {
        double x = (lo * f_hi - hi * f_lo) / (f_hi - f_lo);
        if (!(x > lo && x < hi))
            x = 0.5 * (lo + hi);
        double fx = profile_ln_loss_at(&ip->pr, ln_n, x) - ip->ln_target;
        if (fx > 0) {
            lo = x, f_lo = fx;
            if (side == 1)
                f_hi *= 0.5;
            side = 1;
        } else {
            hi = x, f_hi = fx;
            if (side == -1)
                f_lo *= 0.5;
            side = -1;
        }
        if (fx == 0)
            break;
    }
    return hi;
}

/* iso_ln_d from the root found at a nearby N_act (the searches move N_act
 * in small steps): step from it until the target is bracketed, at most a
 * few steps; 0, or -1 when that does not bracket it (then the full search
 * decides).  The loss is unimodal in ln D, so from a point that reaches the
 * target, stepping down meets the root on the falling side. */
static int iso_ln_d_near(iso_profile *ip, double ln_n, double *ln_d)
{
    double x = ip->ln_d_last, fx = profile_ln_loss_at(&ip->pr, ln_n, x) - ip->ln_target;
    double h = 0.125;
    for (int k = 0; k < 12; k++, h *= 2) {
        if (fx > 0) { /* too few tokens: step up while the loss falls */
            double y = fmin(x + h, LN_D_MAX), fy = profile_ln_loss_at(&ip->pr, ln_n, y) - ip->ln_target;
            if (fy <= 0) {
                *ln_d = iso_root(ip, ln_n, x, fx, y, fy);
                return 0;
            }
            if (!(fy < fx) || y >= LN_D_MAX)
                return -1; /* past the least loss, or at the end: the full search */
            x = y, fx = fy;
        } else { /* enough: step down until not */
            double y = fmax(x - h, 0.0), fy = profile_ln_loss_at(&ip->pr, ln_n, y) - ip->ln_target;
            if (fy > 0) {
                *ln_d = iso_root(ip, ln_n, y, fy, x, fx);
                return 0;
            }
            if (y <= 0) {
                *ln_d = 0.0; /* one token is enough */
                return 0;
            }
            x = y, fx = fy;
        }
    }
    return -1;
}

/* The fewest tokens, as ln D, that bring the loss at ln N_act down to the
 * target; 0 when some D reaches it, else -1.  The loss falls with D, except
 * that a quantisation penalty grows with D (Kumar et al.: more tokens per
 * parameter, more fragile weights): the root is then looked for below the
 * D of least loss, found first by golden section (the loss is unimodal in
 * ln D). */
static int iso_ln_d(iso_profile *ip, double ln_n, double *ln_d)
{
    profile *pr = &ip->pr;
    if (ip->has_last && iso_ln_d_near(ip, ln_n, ln_d) == 0) {
        ip->ln_d_last = *ln_d;
        return 0;
    }
    double hi = LN_D_MAX;
    if (pr->quant && pr->bits < pr->quant->trained_bits) {
        const double g = 0.5 * (sqrt(5.0) - 1.0);
        double a = 0.0, b = LN_D_MAX;
        double c = b - g * (b - a), d = a + g * (b - a);
        double fc = profile_ln_loss_at(pr, ln_n, c), fd = profile_ln_loss_at(pr, ln_n, d);
        for (int k = 0; k < 120 && b - a > 1e-10; k++) {
            if (fc < fd) {
                b = d, d = c, fd = fc;
                c = b - g * (b - a);
                fc = profile_ln_loss_at(pr, ln_n, c);
            } else {
                a = c, c = d, fc = fd;
                d = a + g * (b - a);
                fd = profile_ln_loss_at(pr, ln_n, d);
            }
        }
        hi = 0.5 * (a + b);
    }
    double f_hi = profile_ln_loss_at(pr, ln_n, hi) - ip->ln_target;
    if (!(f_hi <= 0))
        return -1;
    double lo = 0.0, f_lo = profile_ln_loss_at(pr, ln_n, lo) - ip->ln_target;
    *ln_d = f_lo <= 0 ? 0.0 /* one token is enough */ : iso_root(ip, ln_n, lo, f_lo, hi, f_hi);
    ip->ln_d_last = *ln_d;
    ip->has_last = 1;
    return 0;
}

/* The training FLOPs and the inference FLOPs per token at N_act and D. */
static void iso_flops(const iso_profile *ip, double n_act, double ln_d, double *train, double *per_token)
{
    ls_law_point x = ls_arch_point(ip->pr.t, n_act, ip->pr.E, ip->pr.R, exp(ln_d));
    *train = ls_law_training_flops_as(&ip->pr.conv, &x);
    *per_token = ls_law_inference_flops_as(&ip->pr.conv, &x);
}

/* ln of the training FLOPs that reach the target at ln N_act. */
static double iso_ln_train(double ln_n, void *context)
{
    iso_profile *ip = context;
    double ln_d, train, per_token;
    if (iso_ln_d(ip, ln_n, &ln_d) != 0)
        return log(COST_INFEASIBLE);
    iso_flops(ip, exp(ln_n), ln_d, &train, &per_token);
    return log(train);
}

/* ln of training + T x inference FLOPs at ln N_act. */
static double iso_ln_cost(double ln_n, void *context)
{
    iso_profile *ip = context;
    double ln_d, train, per_token;
    if (iso_ln_d(ip, ln_n, &ln_d) != 0)
        return log(COST_INFEASIBLE);
    iso_flops(ip, exp(ln_n), ln_d, &train, &per_token);
    return log(train + ip->T * per_token);
}

/* The end of [inside, outside] in ln N_act where the training cost crosses
 * ln_cap, found by bisection (inside is under the cap). */
static double iso_cap_edge(iso_profile *ip, double inside, double outside, double ln_cap)
{
    for (int k = 0; k < 200 && fabs(outside - inside) > 1e-11; k++) {
        double mid = 0.5 * (inside + outside);
        if (iso_ln_train(mid, ip) <= ln_cap)
            inside = mid;
        else
            outside = mid;
    }
    return inside;
}

/* GSL's Brent minimiser stops within sqrt(DBL_EPSILON) |x| of the minimum
 * whatever tolerance it is given: 3e-7 at ln N_act = 20, coarse along the
 * flat valley of a cost.  A second search in the offset from the first
 * answer, where |x| is small, takes it to the bits of the cost. */
typedef struct shifted {
    double (*objective)(double, void *);
    void *context;
    double x0;
} shifted;

static double shifted_value(double u, void *context)
{
    const shifted *sh = context;
    return sh->objective(sh->x0 + u, sh->context);
}

static double minimise_fine(double (*objective)(double, void *), void *context, gsl_min_fminimizer *brent,
                            double lo, double hi)
{
    double x0 = minimise_fn(objective, context, brent, lo, hi);
    shifted sh = {objective, context, x0};
    double half = 1e-5;
    double u = minimise_fn(shifted_value, &sh, brent, fmax(lo - x0, -half), fmin(hi - x0, half));
    return objective(x0 + u, context) <= objective(x0, context) ? x0 + u : x0;
}

/* The cheapest N_act of one (E, R) that reaches the target loss under the
 * memory budget (use_memory) and the training budget b->flops when it is
 * finite and positive. */
static int candidate_costed(const ls_law *l, const ls_arch_template *t, const ls_solve_budget *b,
                            const ls_law_quant *quant, double target, double E, double R, int use_memory,
                            gsl_min_fminimizer *brent, ls_solve_candidate *out)
{
    iso_profile ip;
    int capped = b->flops > 0 && isfinite(b->flops);
    profile_init(&ip.pr, l, t, capped ? b->flops : 1e30, E, R);
    ip.pr.quant = quant;
    ip.pr.bits = b->bits;
    ip.ln_target = log(target);
    ip.T = b->inference_tokens;
    ip.has_last = 0;
    ip.ln_d_last = 0;
    memset(out, 0, sizeof *out);
    out->E = E;
    out->R = R;
    out->loss = INFINITY;
    double n_hi = capped ? ip.pr.n_one_token : LS_SWEEP_MAX_PARAMS;
    if (use_memory && isfinite(b->mem_bytes))
        n_hi = fmin(n_hi, memory_n_cap(&ip.pr, b));
    if (n_hi < N_MIN)
        return 0;
    double lo = log(N_MIN), hi = log(n_hi), ln_d;
    /* The smallest N_act that reaches the target with enough tokens: the
     * loss that no D goes below falls as N_act grows. */
    if (iso_ln_d(&ip, hi, &ln_d) != 0)
        return 0;
    if (iso_ln_d(&ip, lo, &ln_d) != 0) {
        double reach = lo, top = hi;
        for (int k = 0; k < 200 && top - reach > 1e-6; k++) { /* the cost's minimum lies well inside */
            double mid = 0.5 * (reach + top);
            if (iso_ln_d(&ip, mid, &ln_d) == 0)
                top = mid;
            else
                reach = mid;
        }
        lo = top;
    }
    int bound = LS_SOLVE_BOUND_COMPUTE;
    if (capped) {
        double ln_cap = log(b->flops) + 1e-12;
        double centre = minimise_fn(iso_ln_train, &ip, brent, lo, hi);
        if (!(iso_ln_train(centre, &ip) <= ln_cap))
            return 0; /* the budget reaches the target nowhere */
        if (iso_ln_train(lo, &ip) > ln_cap)
            lo = iso_cap_edge(&ip, centre, lo, ln_cap);
        if (iso_ln_train(hi, &ip) > ln_cap)
            hi = iso_cap_edge(&ip, centre, hi, ln_cap);
    }
    double ln_n = minimise_fine(iso_ln_cost, &ip, brent, lo, hi);
    if (iso_ln_d(&ip, ln_n, &ln_d) != 0)
        return 0;
    fill_candidate_d(&ip.pr, b, exp(ln_n), exp(ln_d), out);
    out->feasible = 1;
    /* At an end up to the minimiser's last digits: x0 + (hi - x0) need not
     * round back to hi, and which way it rounds differs between CPUs. */
    const double at_end = 1e-9;
    if (ln_n >= hi - at_end && use_memory && isfinite(b->mem_bytes) && fabs(hi - log(n_hi)) < 1e-12)
        bound = LS_SOLVE_BOUND_MEMORY;
    else if ((ln_n <= log(N_MIN) + at_end && lo <= log(N_MIN)) ||
             (!capped && ln_n >= log(LS_SWEEP_MAX_PARAMS) - at_end))
        bound = LS_SOLVE_BOUND_SEARCH;
    out->bound = (ls_solve_bound)bound;
    return 0;
}

int ls_solve_candidate_at(const ls_law *l, const ls_arch_template *t, const ls_solve_budget *b, double E, double R,
                       const double *ladder, size_t nladder, int use_memory, ls_solve_candidate *out)
{
    gsl_min_fminimizer *brent = gsl_min_fminimizer_alloc(gsl_min_fminimizer_brent);
    if (!brent)
        return LS_ERR_INTERNAL;
    int status = candidate_with(l, t, b, NULL, E, R, ladder, nladder, use_memory, brent, out);
    gsl_min_fminimizer_free(brent);
    return status;
}

void ls_solve_result_free(ls_solve_result *r)
{
    if (!r)
        return;
    free(r->candidates);
    r->candidates = NULL;
    r->ncandidates = 0;
    free(r->warnings);
    r->warnings = NULL;
    r->nwarnings = 0;
}

const char *ls_solve_bound_name(ls_solve_bound b)
{
    static const char *const names[LS_SOLVE_NBOUNDS] = {"compute", "memory", "search range"};
    return b >= 0 && b < LS_SOLVE_NBOUNDS ? names[b] : "?";
}

void ls_solve_default_candidates(const ls_law_ranges *ranges, double *R, size_t *nR, double *E, size_t *nE)
{
    static const double all_E[LS_SOLVE_DEFAULT_NE] = {1, 2, 4, 8, 16, 32, 64};
    *nR = *nE = 0;
    for (int i = 0; i < LS_SOLVE_DEFAULT_NR; i++)
        if (*nR == 0 || !ranges || !ranges->known[LS_LAW_RANGE_R] || i + 1 <= ranges->hi[LS_LAW_RANGE_R] * (1 + 1e-9))
            R[(*nR)++] = i + 1;
    for (int i = 0; i < LS_SOLVE_DEFAULT_NE; i++)
        if (*nE == 0 || !ranges || !ranges->known[LS_LAW_RANGE_E] || all_E[i] <= ranges->hi[LS_LAW_RANGE_E] * (1 + 1e-9))
            E[(*nE)++] = all_E[i];
}

/* Which of the fitted ranges a candidate leaves. */
static void mark_outside(const ls_arch_template *t, const ls_law_ranges *ranges, ls_solve_candidate *c)
{
    c->outside = 0;
    if (!ranges || !c->feasible)
        return;
    ls_law_point x = ls_arch_point(t, c->n_act, c->E, c->R, c->tokens);
    c->outside = ls_law_ranges_outside(ranges, &x);
}

/* One warning for each quantity outside its range in each of the three
 * reported configurations. */
static int collect_warnings(const ls_arch_template *t, const ls_law_ranges *ranges, ls_solve_result *out)
{
    static const char *const keys[3] = {"chosen", "lowest_loss", "unconstrained"};
    static const char *const labels[3] = {"chosen", "lowest loss", "no memory limit"};
    static const char *const units[LS_LAW_NRANGES] = {"active parameters", "tokens", "loops", "experts",
                                                   "training FLOPs"};
    const ls_solve_candidate *configs[3] = {&out->choice, &out->best, &out->unconstrained};
    const int present[3] = {out->has_choice, out->best.feasible, out->unconstrained.feasible};
    size_t n = 0;
    for (int k = 0; k < 3; k++)
        for (int q = 0; q < LS_LAW_NRANGES; q++)
            n += present[k] && (configs[k]->outside >> q & 1u);
    if (n == 0)
        return 0;
    out->warnings = calloc(n, sizeof *out->warnings);
    if (!out->warnings)
        return -1;
    for (int k = 0; k < 3; k++)
        for (int q = 0; q < LS_LAW_NRANGES; q++) {
            if (!present[k] || !(configs[k]->outside >> q & 1u))
                continue;
            const ls_solve_candidate *c = configs[k];
            ls_law_point x = ls_arch_point(t, c->n_act, c->E, c->R, c->tokens);
            ls_solve_warning *w = &out->warnings[out->nwarnings++];
            w->configuration = keys[k];
            w->quantity = (ls_law_range)q;
            w->value = q == LS_LAW_RANGE_FLOPS ? ls_law_training_flops_as(&ranges->flops, &x)
                                            : ls_law_range_value(&x, (ls_law_range)q);
            w->lo = ranges->lo[q];
            w->hi = ranges->hi[q];
            snprintf(w->message, sizeof w->message,
                     "%s: %s = %.4g %s is outside the range the law was fitted on, %.4g to %.4g: an extrapolation",
                     labels[k], ls_law_range_name((ls_law_range)q), w->value, units[q], w->lo, w->hi);
        }
    return 0;
}

/* A quantity that a double cannot hold (N_act = 1e-300 at 1e21 FLOPs gives
 * D = inf; a law whose terms add past 1.8e308 gives an infinite loss) is the
 * input's doing: an LS_ERR_DATA error naming the inputs, never an infinity
 * printed as an answer or refused later as an internal error.  solve,
 * isoflop and their JSON share this one rule. */
int ls_solve_candidate_check(const ls_solve_candidate *c, double flops, ls_error *err)
{
    const char *what = NULL;
    double bad = 0;
    if (!isfinite(c->tokens) || !(c->tokens > 0))
        what = "tokens D = F / (6 N_unroll)", bad = c->tokens;
    else if (!isfinite(c->tokens / c->n_act))
        what = "tokens per parameter D / N_act", bad = c->tokens / c->n_act;
    else if (!isfinite(c->loss))
        what = "predicted loss", bad = c->loss;
    else if (!isfinite(c->n_total) || !isfinite(c->n_unroll))
        what = "size N_total or N_unroll", bad = isfinite(c->n_total) ? c->n_unroll : c->n_total;
    if (!what)
        return 0;
    return ls_error_set(err, LS_ERR_DATA, "N_act = %g at %g FLOPs (E = %g, R = %g) gives %s = %g, outside double precision",
                        c->n_act, flops, c->E, c->R, what, bad);
}

/* Fewer loops first, then fewer experts. */
static int cheaper(const ls_solve_candidate *a, const ls_solve_candidate *b)
{
    return a->R < b->R || (a->R == b->R && a->E < b->E);
}

int ls_solve_budget_serving(const ls_solve_budget *b)
{
    return b->context > 0 || b->activation_bytes > 0;
}

int ls_solve_budget_costed(const ls_solve_budget *b)
{
    return b->inference_tokens > 0 || b->target_loss > 0;
}

double ls_solve_budget_kv_bits(const ls_solve_budget *b)
{
    return b->kv_bits > 0 ? b->kv_bits : b->bits;
}

/* ls_solve_run, with the search without memory limit made optional (the
 * uncertainty runs do not report it). */
/* The budget and options a solve accepts. */
static int check_problem(const ls_arch_template *t, const ls_solve_budget *b, const ls_solve_options *o, ls_error *err)
{
    int flops_given = b->flops > 0 && isfinite(b->flops);
    if (!flops_given && !(b->target_loss > 0))
        return ls_error_set(err, LS_ERR_USAGE, "the compute budget must be a positive number of FLOPs");
    if (!(b->context >= 0) || !(b->batch >= 0) || !(b->kv_bits >= 0) || !(b->activation_bytes >= 0) ||
        !(b->inference_tokens >= 0) || !(b->target_loss >= 0) || !isfinite(b->inference_tokens))
        return ls_error_set(err, LS_ERR_USAGE, "the serving budget's context, batch, KV bits, activation memory, "
                            "inference tokens and target loss must not be negative");
    if (!(b->mem_bytes > 0))
        return ls_error_set(err, LS_ERR_USAGE, "the memory budget must be positive");
    if (!(b->bits > 0))
        return ls_error_set(err, LS_ERR_USAGE, "the bits per weight must be positive");
    if (!(o->eps >= 0))
        return ls_error_set(err, LS_ERR_USAGE, "epsilon must not be negative");
    for (size_t e = 0; e < o->nE; e++)
        if (o->E[e] < t->top_k)
            return ls_error_set(err, LS_ERR_USAGE, "E = %g is below the template's top_k (%d)", o->E[e], t->top_k);
    if (o->ladder && ls_solve_budget_costed(b))
        return ls_error_set(err, LS_ERR_USAGE, "the cheapest configuration is searched over a continuous N_act, not a "
                            "ladder of sizes");
    return 0;
}

static int solve_core(const ls_law *l, const ls_arch_template *t, const ls_solve_budget *b, const ls_solve_options *o,
                      int with_unconstrained, ls_solve_result *out, ls_error *err)
{
    memset(out, 0, sizeof *out);
    if (check_problem(t, b, o, err) != 0)
        return err->code;
    size_t n = o->nE * o->nR;
    out->candidates = calloc(n ? n : 1, sizeof *out->candidates);
    gsl_min_fminimizer *brent = gsl_min_fminimizer_alloc(gsl_min_fminimizer_brent);
    if (!out->candidates || !brent) {
        gsl_min_fminimizer_free(brent);
        ls_solve_result_free(out);
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    }
    out->ncandidates = n;
    out->unconstrained.loss = INFINITY;
    out->best.loss = INFINITY;
    /* The lowest loss each candidate reaches with no memory limit, to skip
     * the cheapest search where the target is beyond it. */
    double *free_loss = ls_solve_budget_costed(b) ? malloc((n ? n : 1) * sizeof *free_loss) : NULL;
    if (ls_solve_budget_costed(b) && !free_loss) {
        gsl_min_fminimizer_free(brent);
        ls_solve_result_free(out);
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    }
    for (size_t i = 0; free_loss && i < n; i++)
        free_loss[i] = -INFINITY;
    int flops_given = b->flops > 0 && isfinite(b->flops); /* else a target loss alone */
    for (size_t e = 0; flops_given && e < o->nE; e++)
        for (size_t r = 0; r < o->nR; r++) {
            ls_solve_candidate *c = &out->candidates[e * o->nR + r];
            candidate_with(l, t, b, o->quant, o->E[e], o->R[r], o->ladder, o->nladder, 1, brent, c);
            mark_outside(t, o->ranges, c);
            out->ncandidates_outside += c->feasible && c->outside;
            if (c->feasible && c->loss < out->best.loss)
                out->best = *c;
            if (!with_unconstrained)
                continue;
            ls_solve_candidate free_c;
            candidate_with(l, t, b, o->quant, o->E[e], o->R[r], o->ladder, o->nladder, 0, brent, &free_c);
            mark_outside(t, o->ranges, &free_c);
            if (free_loss)
                free_loss[e * o->nR + r] = free_c.feasible ? free_c.loss : INFINITY;
            if (free_c.feasible && free_c.loss < out->unconstrained.loss)
                out->unconstrained = free_c;
        }
    out->quantised = o->quant && b->bits < o->quant->trained_bits;
    out->costed = ls_solve_budget_costed(b);
    if (out->costed) {
        /* The cheapest configuration that reaches the target, or the best
         * loss F buys within epsilon. */
        if (b->target_loss > 0)
            out->target_loss = b->target_loss;
        else if (out->best.feasible)
            out->target_loss = out->best.loss + o->eps + LS_SOLVE_LOSS_TIE * fabs(out->best.loss);
        out->unconstrained = (ls_solve_candidate){.loss = INFINITY};
        for (size_t e = 0; e < o->nE; e++)
            for (size_t r = 0; r < o->nR; r++) {
                ls_solve_candidate *c = &out->candidates[e * o->nR + r];
                /* Under a training budget, a candidate whose lowest loss
                 * misses the target misses it at any cost. */
                double reach = c->feasible ? c->loss : INFINITY, free_reach = free_loss[e * o->nR + r];
                *c = (ls_solve_candidate){.E = o->E[e], .R = o->R[r], .loss = INFINITY};
                if (!(out->target_loss > 0))
                    continue;
                if (!flops_given || reach <= out->target_loss * (1 + 1e-12)) {
                    candidate_costed(l, t, b, o->quant, out->target_loss, o->E[e], o->R[r], 1, brent, c);
                    mark_outside(t, o->ranges, c);
                }
                if (!with_unconstrained || (flops_given && !(free_reach <= out->target_loss * (1 + 1e-12))))
                    continue;
                ls_solve_candidate free_c;
                candidate_costed(l, t, b, o->quant, out->target_loss, o->E[e], o->R[r], 0, brent, &free_c);
                mark_outside(t, o->ranges, &free_c);
                if (free_c.feasible && (!out->unconstrained.feasible ||
                                        free_c.training_flops + free_c.serving_flops <
                                            out->unconstrained.training_flops + out->unconstrained.serving_flops))
                    out->unconstrained = free_c;
            }
        out->ncandidates_outside = 0;
        for (size_t i = 0; i < n; i++)
            out->ncandidates_outside += out->candidates[i].feasible && out->candidates[i].outside;
    }
    free(free_loss);
    gsl_min_fminimizer_free(brent);
    for (size_t i = 0; i < n + 2 * (n > 0); i++) {
        const ls_solve_candidate *c = i < n ? &out->candidates[i] : i == n ? &out->best : &out->unconstrained;
        if (c->feasible && ls_solve_candidate_check(c, b->flops, err) != 0) {
            ls_solve_result_free(out);
            return LS_ERR_DATA;
        }
    }
    /* Within epsilon of the best feasible loss: the cheapest to serve.
     * Losses within 1e-12 relative are one loss even at epsilon 0: a law
     * that ignores E gives every E the same optimum up to the search's
     * rounding, and that rounding must not buy experts. */
    if (out->costed) {
        /* The least total cost; costs equal to 1e-9 go to the cheaper to
         * serve, as losses within epsilon do. */
        for (size_t i = 0; i < n; i++) {
            const ls_solve_candidate *c = &out->candidates[i];
            if (!c->feasible)
                continue;
            double cost = c->training_flops + c->serving_flops,
                   held = out->choice.training_flops + out->choice.serving_flops;
            if (!out->has_choice || cost < held * (1 - 1e-9) || (cost <= held * (1 + 1e-9) && cheaper(c, &out->choice))) {
                out->choice = *c;
                out->has_choice = 1;
            }
        }
        if (with_unconstrained && collect_warnings(t, o->ranges, out) != 0) {
            ls_solve_result_free(out);
            return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        }
        return 0;
    }
    double within = o->eps + LS_SOLVE_LOSS_TIE * fabs(out->best.loss);
    for (size_t i = 0; i < n; i++) {
        const ls_solve_candidate *c = &out->candidates[i];
        if (!c->feasible || c->loss > out->best.loss + within)
            continue;
        if (!out->has_choice || cheaper(c, &out->choice)) {
            out->choice = *c;
            out->has_choice = 1;
        }
    }
    if (with_unconstrained && collect_warnings(t, o->ranges, out) != 0) {
        ls_solve_result_free(out);
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    }
    return 0;
}

int ls_solve_run(const ls_law *l, const ls_arch_template *t, const ls_solve_budget *b, const ls_solve_options *o,
              ls_solve_result *out, ls_error *err)
{
    return solve_core(l, t, b, o, 1, out, err);
}

/* 1 when v is the largest of the n values, or the smallest above 1: an
 * answer there may only be the best of those searched, whether the list was
 * given or the default (cut at the fitted range, where a value beyond would
 * also be an extrapolation: the caller says which). */
static int at_end(const double *values, size_t n, double v)
{
    if (n < 2)
        return 0;
    double lo = INFINITY, hi = -INFINITY;
    for (size_t i = 0; i < n; i++) {
        lo = fmin(lo, values[i]);
        hi = fmax(hi, values[i]);
    }
    if (!(lo < hi))
        return 0;
    return v >= hi || (v <= lo && lo > 1);
}

unsigned ls_solve_at_edge(const ls_solve_options *o, const ls_solve_candidate *c)
{
    if (!c->feasible)
        return 0;
    unsigned bits = c->bound == LS_SOLVE_BOUND_SEARCH ? 1u << LS_LAW_RANGE_N_ACT : 0;
    if (o && o->R && at_end(o->R, o->nR, c->R))
        bits |= 1u << LS_LAW_RANGE_R;
    if (o && o->E && at_end(o->E, o->nE, c->E))
        bits |= 1u << LS_LAW_RANGE_E;
    return bits;
}

void ls_solve_isoflop_profile(const ls_law *l, const ls_arch_template *t, double flops, double E, double R,
                           const double *n_act, size_t n, double *loss, double *tokens)
{
    profile pr;
    profile_init(&pr, l, t, flops, E, R);
    for (size_t i = 0; i < n; i++) {
        loss[i] = exp(profile_ln_loss(log(n_act[i]), &pr));
        if (tokens)
            tokens[i] = profile_point(&pr, n_act[i]).D;
    }
}

void ls_solve_isoflop_grid(double n_opt, double span, size_t n, double *n_act)
{
    for (size_t i = 0; i < n; i++)
        n_act[i] = n_opt * exp(log(span) * (2.0 * (double)i / (double)(n - 1) - 1.0));
}

void ls_solve_isoflop_result_free(ls_solve_isoflop_result *r)
{
    if (!r)
        return;
    free(r->curves);
    free(r->values);
    free(r->outside_bits);
    memset(r, 0, sizeof *r);
}

/* ls_solve_isoflop_run; `lenient` leaves a minimum no model reaches, or
 * that a double cannot hold, infeasible instead of failing (the frontier
 * of a figure, over budgets nobody asked for). */
static int isoflop_run(const ls_law *l, const ls_arch_template *t, const double *flops, size_t nflops,
                       const double *E, size_t nE, const double *R, size_t nR, size_t points,
                       const ls_law_ranges *ranges, int lenient, ls_solve_isoflop_result *out, ls_error *err)
{
    memset(out, 0, sizeof *out);
    for (size_t e = 0; e < nE; e++)
        if (E[e] < t->top_k)
            return ls_error_set(err, LS_ERR_USAGE, "E = %g is below the template's top_k (%d)", E[e], t->top_k);
    size_t n = nflops * nE * nR;
    if (nE && nR && n / nE / nR != nflops) /* the caller bounds the sizes; this only keeps the product honest */
        return ls_error_set(err, LS_ERR_USAGE, "too many IsoFLOP profiles");
    out->curves = calloc(n ? n : 1, sizeof *out->curves);
    out->values = points ? malloc(3 * n * points * sizeof *out->values) : NULL;
    out->outside_bits = points ? malloc(n * points * sizeof *out->outside_bits) : NULL;
    gsl_min_fminimizer *brent = gsl_min_fminimizer_alloc(gsl_min_fminimizer_brent);
    if (!out->curves || !brent || (points && (!out->values || !out->outside_bits))) {
        gsl_min_fminimizer_free(brent);
        ls_solve_isoflop_result_free(out);
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    }
    out->ncurves = n;
    out->points = points;
    out->nflops = nflops;
    out->nE = nE;
    out->nR = nR;
    int status = 0;
    for (size_t i = 0; i < n && status == 0; i++) {
        ls_solve_isoflop_curve *c = &out->curves[i];
        c->flops = flops[i / (nE * nR)];
        c->E = E[i / nR % nE];
        c->R = R[i % nR];
        ls_solve_budget b = {.flops = c->flops, .mem_bytes = INFINITY, .bits = 16};
        candidate_with(l, t, &b, NULL, c->E, c->R, NULL, 0, 0, brent, &c->minimum);
        ls_error unheld;
        if (lenient && c->minimum.feasible && ls_solve_candidate_check(&c->minimum, c->flops, &unheld) != 0)
            c->minimum.feasible = 0;
        if (lenient && !c->minimum.feasible)
            continue;
        if (!c->minimum.feasible) {
            status = ls_error_set(err, LS_ERR_DATA, "no model fits a budget of %g %s", c->flops,
                                  ls_plural(c->flops, "FLOP", "FLOPs"));
            break;
        }
        /* Nothing a double cannot hold is returned: the rule solve applies,
         * to the minimum and to every profile point. */
        if ((status = ls_solve_candidate_check(&c->minimum, c->flops, err)) != 0)
            break;
        mark_outside(t, ranges, &c->minimum);
        out->minima_outside |= c->minimum.outside;
        /* A minimum at an end of the N_act search is no minimum. */
        out->minima_at_edge += ls_solve_at_edge(NULL, &c->minimum) != 0;
        if (!points)
            continue;
        double *n_act = out->values + 3 * i * points, *tokens = n_act + points, *loss = tokens + points;
        unsigned *outside = out->outside_bits + i * points;
        ls_solve_isoflop_grid(c->minimum.n_act, 30.0, points, n_act);
        ls_solve_isoflop_profile(l, t, c->flops, c->E, c->R, n_act, points, loss, tokens);
        for (size_t k = 0; k < points && status == 0; k++) {
            ls_solve_candidate p = {.n_act = n_act[k], .E = c->E, .R = c->R, .tokens = tokens[k],
                                    .loss = loss[k], .feasible = 1};
            status = ls_solve_candidate_check(&p, c->flops, err);
            mark_outside(t, ranges, &p);
            outside[k] = p.outside;
        }
        c->n_act = n_act;
        c->tokens = tokens;
        c->loss = loss;
        c->outside = outside;
    }
    gsl_min_fminimizer_free(brent);
    if (status != 0)
        ls_solve_isoflop_result_free(out);
    return status;
}

int ls_solve_isoflop_run(const ls_law *l, const ls_arch_template *t, const double *flops, size_t nflops,
                         const double *E, size_t nE, const double *R, size_t nR, size_t points,
                         const ls_law_ranges *ranges, ls_solve_isoflop_result *out, ls_error *err)
{
    return isoflop_run(l, t, flops, nflops, E, nE, R, nR, points, ranges, 0, out, err);
}

int ls_solve_isoflop_frontier(const ls_law *l, const ls_arch_template *t, double flops_lo, double flops_hi,
                              size_t nflops, const double *E, size_t nE, const double *R, size_t nR,
                              const ls_law_ranges *ranges, ls_solve_isoflop_result *out, ls_error *err)
{
    memset(out, 0, sizeof *out);
    if (!(flops_lo > 0 && flops_lo < flops_hi && isfinite(flops_hi)) || nflops < 2)
        return ls_error_set(err, LS_ERR_USAGE, "a frontier needs two budgets or more, from a positive lowest to a "
                            "higher highest");
    double *flops = malloc(nflops * sizeof *flops);
    if (!flops)
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    for (size_t k = 0; k < nflops; k++)
        flops[k] = exp(log(flops_lo) + (log(flops_hi) - log(flops_lo)) * (double)k / (double)(nflops - 1));
    int status = isoflop_run(l, t, flops, nflops, E, nE, R, nR, 0, ranges, 1, out, err);
    free(flops);
    return status;
}

/* ---- what the figures draw ----------------------------------------------------- */

void ls_solve_curves_free(ls_solve_curves *c)
{
    if (!c)
        return;
    free(c->unconstrained);
    free(c->band_lo);
    free(c->band_hi);
    memset(c, 0, sizeof *c);
}

/* Every candidate's loss under one draw of the law, a row of the matrix. */
typedef struct curves_job {
    const ls_law *draws;
    const ls_arch_template *t;
    const ls_solve_budget *b;
    const ls_solve_options *o;
    double *loss; /* ndraws x ncandidates */
} curves_job;

static int brent_begin(void *context, void **state)
{
    (void)context;
    *state = gsl_min_fminimizer_alloc(gsl_min_fminimizer_brent);
    return *state ? 0 : -1;
}

static void brent_end(void *context, void *state)
{
    (void)context;
    gsl_min_fminimizer_free(state);
}

static int curves_draw(void *context, void *state, size_t i)
{
    curves_job *job = context;
    const ls_solve_options *o = job->o;
    double *row = job->loss + i * o->nE * o->nR;
    for (size_t e = 0; e < o->nE; e++)
        for (size_t r = 0; r < o->nR; r++) {
            ls_solve_candidate c;
            candidate_with(&job->draws[i], job->t, job->b, o->quant, o->E[e], o->R[r], o->ladder, o->nladder, 1, state, &c);
            row[e * o->nR + r] = c.feasible ? c.loss : NAN;
        }
    return 0;
}

int ls_solve_curves_run(const ls_law *l, const ls_law *draws, size_t ndraws, const ls_arch_template *t,
                        const ls_solve_budget *b, const ls_solve_options *o, int threads, ls_solve_curves *out,
                        ls_error *err)
{
    memset(out, 0, sizeof *out);
    if (check_problem(t, b, o, err) != 0)
        return err->code;
    size_t n = o->nE * o->nR;
    out->ncandidates = n;
    out->unconstrained = malloc((n ? n : 1) * sizeof *out->unconstrained);
    gsl_min_fminimizer *brent = gsl_min_fminimizer_alloc(gsl_min_fminimizer_brent);
    curves_job job = {draws, t, b, o, ndraws ? malloc(ndraws * (n ? n : 1) * sizeof *job.loss) : NULL};
    double *column = ndraws ? malloc(ndraws * sizeof *column) : NULL;
    if (ndraws) {
        out->ndraws = ndraws;
        out->band_lo = malloc((n ? n : 1) * sizeof *out->band_lo);
        out->band_hi = malloc((n ? n : 1) * sizeof *out->band_hi);
    }
    int status = 0;
    if (!out->unconstrained || !brent || (ndraws && (!job.loss || !column || !out->band_lo || !out->band_hi)))
        status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    for (size_t e = 0; status == 0 && e < o->nE; e++)
        for (size_t r = 0; r < o->nR; r++) {
            ls_solve_candidate c;
            candidate_with(l, t, b, o->quant, o->E[e], o->R[r], o->ladder, o->nladder, 0, brent, &c);
            out->unconstrained[e * o->nR + r] = c.feasible ? c.loss : NAN;
        }
    if (status == 0 && ndraws) {
        ls_parallel_job pj = {.n = ndraws, .threads = threads, .context = &job, .begin = brent_begin,
                              .end = brent_end, .item = curves_draw};
        if (ls_parallel_for(&pj) != 0)
            status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory solving the bootstrap draws");
    }
    for (size_t c = 0; status == 0 && c < n && ndraws; c++) {
        for (size_t i = 0; i < ndraws; i++)
            column[i] = job.loss[i * n + c];
        ls_band_central95(column, ndraws, &out->band_lo[c], &out->band_hi[c]);
    }
    gsl_min_fminimizer_free(brent);
    free(job.loss);
    free(column);
    if (status != 0)
        ls_solve_curves_free(out);
    return status;
}

void ls_solve_isoflop_bands_free(ls_solve_isoflop_bands *b)
{
    if (!b)
        return;
    free(b->lo);
    free(b->hi);
    memset(b, 0, sizeof *b);
}

int ls_solve_isoflop_bands_run(const ls_law *draws, size_t ndraws, const ls_arch_template *t,
                               const ls_solve_isoflop_result *r, ls_solve_isoflop_bands *out, ls_error *err)
{
    memset(out, 0, sizeof *out);
    size_t n = r->ncurves * r->points;
    if (n == 0 || ndraws == 0)
        return 0;
    out->lo = malloc(n * sizeof *out->lo);
    out->hi = malloc(n * sizeof *out->hi);
    double *loss = malloc(ndraws * r->points * sizeof *loss), *column = malloc(ndraws * sizeof *column);
    if (!out->lo || !out->hi || !loss || !column) {
        free(loss);
        free(column);
        ls_solve_isoflop_bands_free(out);
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    }
    out->ncurves = r->ncurves;
    out->points = r->points;
    out->ndraws = ndraws;
    for (size_t i = 0; i < r->ncurves; i++) {
        const ls_solve_isoflop_curve *c = &r->curves[i];
        for (size_t d = 0; d < ndraws; d++)
            ls_solve_isoflop_profile(&draws[d], t, c->flops, c->E, c->R, c->n_act, r->points, loss + d * r->points,
                                     NULL);
        for (size_t k = 0; k < r->points; k++) {
            for (size_t d = 0; d < ndraws; d++)
                column[d] = loss[d * r->points + k];
            ls_band_central95(column, ndraws, &out->lo[i * r->points + k], &out->hi[i * r->points + k]);
        }
    }
    free(loss);
    free(column);
    return 0;
}

void ls_solve_rho_eff_free(ls_solve_rho_eff *r)
{
    if (!r)
        return;
    free(r->E);
    free(r->R);
    free(r->rho);
    free(r->ceiling);
    free(r->m);
    memset(r, 0, sizeof *r);
}

int ls_solve_rho_eff_run(const ls_law *l, const ls_arch_template *t, const double *E, size_t nE, double r_max,
                         size_t points, ls_solve_rho_eff *out, ls_error *err)
{
    memset(out, 0, sizeof *out);
    if (nE == 0 || points < 2 || !(r_max > 1) || !isfinite(r_max))
        return ls_error_set(err, LS_ERR_USAGE, "rho_eff curves need an expert count, two points or more and a "
                            "largest loop count above 1");
    out->E = malloc(nE * sizeof *out->E);
    out->R = malloc(points * sizeof *out->R);
    out->rho = malloc(nE * points * sizeof *out->rho);
    out->ceiling = malloc(nE * sizeof *out->ceiling);
    out->m = malloc(nE * sizeof *out->m);
    if (!out->E || !out->R || !out->rho || !out->ceiling || !out->m) {
        ls_solve_rho_eff_free(out);
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    }
    out->nE = nE;
    out->points = points;
    out->loop_fraction = ls_arch_loop_fraction(t);
    for (size_t k = 0; k < points; k++)
        out->R[k] = 1.0 + (r_max - 1.0) * (double)k / (double)(points - 1);
    for (size_t e = 0; e < nE; e++) {
        /* The mappings read the shape (m, N_loop / N_act) and R, not the
         * size: any N_act and D give the same curve. */
        ls_law_point x = ls_arch_point(t, 1e9, E[e], 1.0, 1e11);
        out->E[e] = E[e];
        out->m[e] = x.n_act / x.n_total;
        out->ceiling[e] = ls_law_rho_eff_ceiling(l, &x);
        for (size_t k = 0; k < points; k++) {
            x.R = out->R[k];
            out->rho[e * points + k] = ls_law_rho_eff(l, &x);
        }
    }
    return 0;
}

/* ---- uncertainty ------------------------------------------------------------- */

typedef struct uncertainty_job {
    const ls_law *draws;
    const ls_arch_template *t;
    const ls_solve_budget *b;
    const ls_solve_options *o;
    ls_solve_candidate *choices; /* per draw; feasible = 0 when none */
} uncertainty_job;

static int solve_draw(void *context, void *state, size_t i)
{
    (void)state;
    uncertainty_job *job = context;
    ls_solve_result r;
    ls_error err;
    if (solve_core(&job->draws[i], job->t, job->b, job->o, 0, &r, &err) != 0)
        return -1;
    job->choices[i] = r.choice;
    job->choices[i].feasible = r.has_choice;
    ls_solve_result_free(&r);
    return 0;
}

static int compare_counts(const void *a, const void *b)
{
    const ls_solve_choice_count *x = a, *y = b;
    if (x->count != y->count)
        return x->count < y->count ? 1 : -1;
    if (x->R != y->R)
        return x->R < y->R ? -1 : 1;
    return (x->E > y->E) - (x->E < y->E);
}

void ls_solve_uncertainty_free(ls_solve_uncertainty *u)
{
    if (!u)
        return;
    free(u->choices);
    u->choices = NULL;
    u->nchoices = 0;
}

int ls_solve_run_uncertainty(const ls_law *draws, size_t n, const ls_arch_template *t, const ls_solve_budget *b,
                          const ls_solve_options *o, double level, int threads, ls_solve_uncertainty *out,
                          ls_error *err)
{
    memset(out, 0, sizeof *out);
    out->level = level;
    if (!(level > 0 && level < 1))
        return ls_error_set(err, LS_ERR_USAGE, "the interval level must be between 0 and 1");
    if (n == 0)
        return ls_error_set(err, LS_ERR_DATA,
                            "the law has no bootstrap draws for --uncertainty: refit it with `loopscale fit "
                            "--bootstrap N -o LAW`, which records them");
    if (n < LS_FIT_MIN_INTERVAL_DRAWS)
        return ls_error_set(err, LS_ERR_DATA, "the law has %zu bootstrap draw%s, too few for intervals (at least %d)",
                            n, n == 1 ? "" : "s", LS_FIT_MIN_INTERVAL_DRAWS);
    uncertainty_job job = {draws, t, b, o, calloc(n, sizeof(ls_solve_candidate))};
    double *column = malloc(n * sizeof *column);
    out->choices = calloc(n, sizeof *out->choices);
    int status = 0;
    if (!job.choices || !column || !out->choices)
        status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    if (status == 0) {
        ls_parallel_job pj = {.n = n, .threads = threads, .context = &job, .item = solve_draw};
        if (ls_parallel_for(&pj) != 0)
            status = ls_error_set(err, LS_ERR_INTERNAL, "a bootstrap draw could not be solved");
    }
    if (status == 0) {
        /* Count the choices in draw order, so ties sort the same every run. */
        for (size_t i = 0; i < n; i++) {
            const ls_solve_candidate *c = &job.choices[i];
            if (!c->feasible)
                continue;
            out->ndraws++;
            size_t k = 0;
            while (k < out->nchoices && !(out->choices[k].R == c->R && out->choices[k].E == c->E))
                k++;
            if (k == out->nchoices)
                out->choices[out->nchoices++] = (ls_solve_choice_count){c->R, c->E, 0, {0}};
            out->choices[k].count++;
            out->choices[k].bound[c->bound]++;
            out->bound[c->bound]++;
        }
        qsort(out->choices, out->nchoices, sizeof *out->choices, compare_counts);
        double tail = (1.0 - level) / 2.0;
        double *targets[3] = {out->n_act, out->tokens, out->loss};
        for (int q = 0; q < 3; q++) {
            size_t m = 0;
            for (size_t i = 0; i < n; i++)
                if (job.choices[i].feasible)
                    column[m++] = q == 0 ? job.choices[i].n_act : q == 1 ? job.choices[i].tokens : job.choices[i].loss;
            targets[q][0] = targets[q][1] = NAN;
            if (m < LS_FIT_MIN_INTERVAL_DRAWS)
                continue;
            gsl_sort(column, 1, m);
            targets[q][0] = gsl_stats_quantile_from_sorted_data(column, 1, m, tail);
            targets[q][1] = gsl_stats_quantile_from_sorted_data(column, 1, m, 1.0 - tail);
        }
    }
    free(job.choices);
    free(column);
    if (status != 0)
        ls_solve_uncertainty_free(out);
    return status;
}
