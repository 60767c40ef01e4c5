#include "loopscale/fit.h"

#include "loopscale/predict.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_cdf.h>
#include <gsl/gsl_eigen.h>
#include <gsl/gsl_errno.h>
#include <gsl/gsl_linalg.h>
#include <gsl/gsl_qrng.h>
#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fit_kernel_internal.h"
#include "gslguard_internal.h"
#include "huber_internal.h"
#include "law_internal.h"
#include "law_second_internal.h"
#include "numtext_internal.h"
#include "parallel_internal.h"

/* Stage one fits the plain runs alone when there are at least this many:
 * twice the five base parameters. */
#define STAGE_ONE_MIN_PLAIN_RUNS 10

void ls_fit_default_parameters(ls_fit_parameters *p)
{
    memset(p, 0, sizeof *p);
    p->loss = LS_FIT_LOSS_HUBER;
    p->huber_delta = 1e-3;
    p->space = LS_FIT_SPACE_LOG;
    p->starts = 32;
    p->stage_two_seeds = 2;
    p->seed = 1;
    p->max_iterations = 500;
    p->xtol = 1e-10;
    p->gtol = 1e-12;
    p->ftol = 1e-10;
    p->scale = LS_FIT_SCALE_LEVENBERG;
    p->best_rtol = 1e-6;
}

/* ---- the least-squares problem --------------------------------------------- */

typedef struct problem {
    ls_law_kind kind;
    size_t n;
    const ls_law_row *rows;
    const double *target;      /* ln L (log space) or L */
    const double *weight;      /* bootstrap multiplicities (all positive), or NULL for all 1 */
    const double *sqrt_weight; /* their square roots */
    size_t nfree;
    ls_law_param free_params[LS_LAW_NPARAMS];
    ls_law held;                  /* every parameter's value when it is not free */
    unsigned char tied[LS_LAW_NPARAMS]; /* fit_parameters.tied: j follows tied[j] - 1 */
    ls_fit_loss loss;
    double delta;
    ls_fit_space space;
} problem;

static double huber(double r, double delta)
{
    double a = fabs(r);
    return a <= delta ? 0.5 * r * r : delta * (a - 0.5 * delta);
}

static double objective_term(const problem *pb, double r)
{
    return pb->loss == LS_FIT_LOSS_MSE ? r * r : huber(r, pb->delta);
}

/* The objective's derivative psi = rho'(r) and its second derivative
 * rho''(r) (Huber: 0 in the linear branch). */
static double psi_of(const problem *pb, double r, double *second)
{
    if (pb->loss == LS_FIT_LOSS_MSE) {
        *second = 2.0;
        return 2.0 * r;
    }
    if (fabs(r) <= pb->delta) {
        *second = 1.0;
        return r;
    }
    *second = 0.0;
    return r < 0 ? -pb->delta : pb->delta;
}

static void law_from_fitted(const problem *pb, const double *u, ls_law *l)
{
    *l = pb->held;
    for (size_t k = 0; k < pb->nfree; k++)
        l->p[pb->free_params[k]] = ls_law_param_from_fitted(pb->free_params[k], u[k]);
    for (int j = 0; j < LS_LAW_NPARAMS; j++)
        if (pb->tied[j])
            l->p[j] = l->p[pb->tied[j] - 1];
}

/* Whether any parameter of pb is tied to another. */
static int problem_has_ties(const problem *pb)
{
    for (int j = 0; j < LS_LAW_NPARAMS; j++)
        if (pb->tied[j])
            return 1;
    return 0;
}

static int law_is_finite(const ls_law *l)
{
    for (int j = 0; j < LS_LAW_NPARAMS; j++)
        if (!isfinite(l->p[j]))
            return 0;
    return 1;
}

/* ---- the local solver ----------------------------------------------------------
 *
 * The objective is F(u) = sum_i w_i rho(r_i(u)) with r_i = ln Lhat_i - ln L_i
 * (or Lhat_i - L_i), w_i the bootstrap multiplicities.  Its gradient is
 * g = sum_i w_i psi(r_i) J_i (J_i = d r_i / d u) and its Hessian
 *   H = sum_i w_i [rho''(r_i) J_i J_i' + psi(r_i) Hess r_i],
 * where Hess r_i comes from the law core (law_hessian.c).  Two quadratic
 * models of F are formed from one pass over the runs:
 *   - the exact one, H;
 *   - IRLS's, M = sum_i w_i (psi(r_i)/r_i) [J_i J_i' + r_i Hess r_i], the
 *     exact Hessian of the weighted least-squares problem IRLS solves at
 *     this point: Huber's linear branch gets the weight delta/|r| instead of
 *     rho'' = 0, so M keeps the curvature that H loses there.
 * Each step tries Newton's step on H, undamped, when H is positive definite
 * and the step is plausible (no coordinate moves more than NEWTON_RADIUS),
 * and keeps it when F
 * decreases; otherwise it takes a Levenberg-Marquardt step on M with
 * Nielsen's damping update, which falls by the square of Nielsen's factor
 * after two steps in a row that the model predicted well (rho >
 * GOOD_AGREEMENT).  Far from the optimum this is IRLS made robust
 * by damping (the exact Hessian alone jumps from the grid's far corners
 * into minima where one term dies); near it, Newton, which ends
 * quadratically where the Gauss-Newton model of the square-root residual
 * converged linearly. */

/* The largest move of a fitted coordinate a Newton step may make (u are
 * logarithms and exponents: 1 is a factor e, or a whole unit of alpha). */
#define NEWTON_RADIUS 1.0

/* Damping above this multiple of the model's largest diagonal means no
 * step lowers the objective: a minimum to machine precision. */
#define DAMPING_LIMIT 1e16

/* The relative rounding noise of the objective that a polishing Newton step
 * may add (a sum of a few hundred terms carries about 1e-16 per term). */
#define NEWTON_NOISE 1e-13

/* A step whose actual decrease is more than this fraction of the model's
 * prediction counts as well predicted; two in a row let the damping fall
 * faster.  On the Chinchilla grid the far starts spend most of their steps
 * waiting for lambda to fall, by at most a factor 3 a step, through many
 * orders of magnitude (docs/performance.md): this saves 5 to 7% of the time.
 * The plain dense law's fits only: on the MoE laws' first-order starts it
 * left holdout fits unconverged. */
#define GOOD_AGREEMENT 0.75

/* A term of the plain dense law (A N^-alpha, B D^-beta or c) whose share of
 * Lhat is below DEAD_SHARE in every run is dead: its gradient and curvature are as small as its share
 * (e^-40 at the grid's ln A = 0, alpha = 2), and an isotropic damping lets
 * it move only after lambda has fallen that far, some 25 steps.  A start
 * with a dead term first raises the term's log-amplitude by the shift that
 * would give its largest share REVIVE_SHARE (at most REVIVE_MAX_SHIFT), and
 * halves the shift down to 1 until the objective falls (revive_dead_terms;
 * on the grid, 35 steps a start instead of 49, docs/performance.md).  The
 * plain dense law's fits only: in a looped or MoE law's stage one it
 * changes which optima stage two starts from. */
#define DEAD_SHARE 1e-2
#define REVIVE_SHARE 0.5
#define REVIVE_MAX_SHIFT 700.0 /* e^700 is near the largest double */

/* A start whose every residual is beyond LEVEL_OFF nats on one side (the
 * start box's amplitudes e^0 to e^25 are within 26 nats of losses in nats,
 * so only losses on another scale get there) first moves its level. */
#define LEVEL_OFF 30.0

#define PMAX LS_LAW_NPARAMS

/* The most distinct E values the mapped kernel tabulates Ehat over (a
 * sweep with more goes through the law core). */
#define MAPPED_MAX_E 32

/* One thread's solver state, sized once for the problem's rows. */
typedef struct solver {
    const problem *pb;
    const ls_fit_parameters *fp;
    size_t cap;          /* runs the arrays hold (the stride of cols) */
    double *cols;        /* model_at's columns: J (d r_i / d u, p of them, for the
                            standard errors too), a_1, a_2 (p each), then 6 of
                            per-run coefficients */
    double *resid;       /* r_i at the last model_at point */
    /* The plain dense law in log space goes through the vectorised kernel
     * (fit_kernel.c), on these structure-of-arrays copies of the rows. */
    const ls_kernel *kernel;
    const ls_kernel *dots; /* the vector sums of model_at and model_at_first (always set) */
    ls_dense_rows soa;
    double *soa_data;
    /* The kernel's scratch holds the trial pass at this point (valid when
     * soa_valid is set): the next derivative models need only its sums. */
    double soa_u[PMAX];
    int soa_valid;
    size_t base_index[PMAX]; /* free parameter k is theta[base_index[k]] */
    int plain_dense; /* plain_dense_applies */
    /* The looped and MoE laws in log space go through the kernel's mapped
     * passes (mapped_applies) on these copies of the rows: each run's E as
     * an index into e_values, Ehat there at the last trial, and a spare
     * column for the derivatives of parameters that are not free. */
    const ls_kernel *mapped;
    ls_mapped_rows mrows;
    ls_mapped_point mpt;
    double *mapped_data, *spare;
    int *e_index;
    double e_values[MAPPED_MAX_E], ehat[MAPPED_MAX_E], ln_ehat[MAPPED_MAX_E], fe_max[MAPPED_MAX_E],
        fe_start[MAPPED_MAX_E];
    size_t ne;
} solver;

static void solver_free(solver *s)
{
    free(s->cols);
    free(s->resid);
    free(s->soa_data);
    free(s->mapped_data);
    free(s->spare);
    free(s->e_index);
    memset(s, 0, sizeof *s);
}

/* Whether every run of pb is the plain dense law in log space, ln Lhat =
 * lse(ln A - alpha ln N, ln B - beta ln D, ln c), with only base parameters
 * free: a dense law, or a MoE law on runs at E = 1 with E_start held at 1
 * (stage one on the plain runs), on runs that do not loop. */
static int kernel_applies(const problem *pb)
{
    if (pb->space != LS_FIT_SPACE_LOG || problem_has_ties(pb))
        return 0;
    for (size_t k = 0; k < pb->nfree; k++)
        if (pb->free_params[k] > LS_LAW_P_C)
            return 0;
    int moe = pb->kind.base == LS_LAW_BASE_MOE;
    if (moe && pb->held.p[LS_LAW_P_E_START] != 1.0)
        return 0;
    for (size_t i = 0; i < pb->n; i++) {
        const ls_law_point *x = &pb->rows[i].x;
        if ((pb->kind.mapping != LS_LAW_MAPPING_NONE && x->R != 1.0) || (moe && x->E != 1.0))
            return 0;
    }
    return 1;
}

/* Whether pb is the plain dense law's own fit through the kernel (not a
 * looped or MoE law's stage one on its plain runs): its starts revive dead
 * terms (DEAD_SHARE) and its damping falls faster (GOOD_AGREEMENT). */
static int plain_dense_applies(const problem *pb)
{
    return pb->kind.base == LS_LAW_BASE_DENSE && pb->kind.mapping == LS_LAW_MAPPING_NONE && kernel_applies(pb);
}

/* Copy the problem's current rows (a bootstrap draw changes them) into the
 * kernel's arrays. */
static void kernel_load_rows(solver *s)
{
    const problem *pb = s->pb;
    size_t n = pb->n;
    double *ln_n = s->soa_data, *ln_d = ln_n + n, *y = ln_d + n, *wt = y + n;
    for (size_t i = 0; i < n; i++) {
        ln_n[i] = pb->rows[i].ln_n_act;
        ln_d[i] = pb->rows[i].ln_d;
        y[i] = pb->target[i];
        wt[i] = pb->weight ? pb->weight[i] : 1.0;
    }
    s->soa = (ls_dense_rows){n, ln_n, ln_d, y, wt, wt + n};
}

/* theta = (ln A, alpha, ln B, beta, ln c) as ls_law_prepare forms it. */
static void kernel_theta(const ls_law *l, double theta[5])
{
    theta[0] = log(l->p[LS_LAW_P_A]);
    theta[1] = l->p[LS_LAW_P_ALPHA];
    theta[2] = log(l->p[LS_LAW_P_B]);
    theta[3] = l->p[LS_LAW_P_BETA];
    theta[4] = log(l->p[LS_LAW_P_C]);
}

/* The distinct E of pb's runs into values (at most MAPPED_MAX_E); their
 * count, or MAPPED_MAX_E + 1 when there are more. */
static size_t distinct_e(const problem *pb, double values[MAPPED_MAX_E])
{
    size_t ne = 0;
    for (size_t i = 0; i < pb->n; i++) {
        double E = pb->rows[i].x.E;
        size_t k = 0;
        while (k < ne && values[k] != E)
            k++;
        if (k == ne) {
            if (ne == MAPPED_MAX_E)
                return MAPPED_MAX_E + 1;
            values[ne++] = E;
        }
    }
    return ne;
}

/* Whether pb is a law the mapped kernel evaluates: base dense or moe
 * under any mapping, in log space, without ties, every free parameter one
 * whose derivative the kernel forms, and for moe at most MAPPED_MAX_E
 * distinct E (the kernel's tables of Ehat). */
static int mapped_applies(const problem *pb)
{
    if (pb->space != LS_FIT_SPACE_LOG || problem_has_ties(pb))
        return 0;
    if (pb->kind.base != LS_LAW_BASE_DENSE && pb->kind.base != LS_LAW_BASE_MOE)
        return 0;
    unsigned params = ls_mapped_kernel_params(pb->kind);
    for (size_t k = 0; k < pb->nfree; k++)
        if (!((params >> pb->free_params[k]) & 1u))
            return 0;
    double values[MAPPED_MAX_E];
    return pb->kind.base != LS_LAW_BASE_MOE || distinct_e(pb, values) <= MAPPED_MAX_E;
}

/* Copy the problem's current rows into the mapped kernel's arrays. */
static void mapped_load_rows(solver *s)
{
    const problem *pb = s->pb;
    size_t n = pb->n;
    double *d = s->mapped_data;
    double *ln_n = d, *n_act = d + n, *n_loop = d + 2 * n, *y = d + 3 * n, *ln_r = d + 4 * n, *ln_m = d + 5 * n;
    double *ln_d = d + 6 * n, *target = d + 7 * n, *weight = d + 8 * n;
    ls_law_mapping mapping = pb->kind.mapping;
    for (size_t i = 0; i < n; i++) {
        const ls_law_row *row = &pb->rows[i];
        ln_n[i] = row->ln_n_act;
        n_act[i] = row->x.n_act;
        n_loop[i] = row->x.n_loop;
        y[i] = row->x.R - 1.0;
        ln_r[i] = mapping == LS_LAW_MAPPING_POWER ? log(row->x.R) : mapping == LS_LAW_MAPPING_LOG ? log1p(y[i]) : 0.0;
        ln_m[i] = row->ln_m;
        ln_d[i] = row->ln_d;
        target[i] = pb->target[i];
        weight[i] = pb->weight ? pb->weight[i] : 1.0;
        size_t k = 0;
        while (k + 1 < s->ne && s->e_values[k] != row->x.E)
            k++;
        s->e_index[i] = (int)k;
    }
    s->mrows = (ls_mapped_rows){n,          ln_n,      n_act,      n_loop,      y,
                                ln_r,       ln_m,      ln_d,       target,      weight,
                                s->e_index, s->ln_ehat, s->fe_max, s->fe_start, d + 9 * n};
}

/* The mapped kernel's point for law l, and ln Ehat at each E there. */
static void mapped_point(solver *s, const ls_law *l)
{
    const double *p = l->p;
    s->mpt = (ls_mapped_point){s->pb->kind.mapping, s->pb->kind.base == LS_LAW_BASE_MOE, log(p[LS_LAW_P_A]),
                               p[LS_LAW_P_ALPHA], log(p[LS_LAW_P_B]), p[LS_LAW_P_BETA], log(p[LS_LAW_P_C]), p[LS_LAW_P_DELTA],
                               p[LS_LAW_P_GAMMA], p[LS_LAW_P_OMEGA], p[LS_LAW_P_ZETA], p[LS_LAW_P_PHI], p[LS_LAW_P_KAPPA1],
                               p[LS_LAW_P_KAPPA2], p[LS_LAW_P_THETA]};
    if (!s->mpt.moe)
        return;
    for (size_t k = 0; k < s->ne; k++) {
        s->ehat[k] = ls_law_ehat(s->e_values[k], p[LS_LAW_P_E_START], p[LS_LAW_P_E_MAX]);
        s->ln_ehat[k] = s->ehat[k] == 1.0 ? 0.0 : log(s->ehat[k]);
    }
}

static double kernel_delta(const problem *pb) { return pb->loss == LS_FIT_LOSS_MSE ? INFINITY : pb->delta; }
static double kernel_scale(const problem *pb) { return pb->loss == LS_FIT_LOSS_MSE ? 2.0 : 1.0; }

static int solver_init(solver *s, const problem *pb, const ls_fit_parameters *fp)
{
    memset(s, 0, sizeof *s);
    s->pb = pb;
    s->fp = fp;
    s->cap = pb->n ? pb->n : 1;
    s->cols = malloc(s->cap * (3 * pb->nfree + 6) * sizeof *s->cols);
    s->resid = malloc(s->cap * sizeof *s->resid);
    if (!s->cols || !s->resid) {
        solver_free(s);
        return LS_ERR_INTERNAL;
    }
    s->dots = ls_fit_kernel();
    if (kernel_applies(pb)) {
        s->kernel = ls_fit_kernel();
        s->soa_data = malloc((pb->n ? pb->n : 1) * (4 + LS_DENSE_SCRATCH) * sizeof *s->soa_data);
        if (!s->soa_data) {
            solver_free(s);
            return LS_ERR_INTERNAL;
        }
        for (size_t k = 0; k < pb->nfree; k++)
            s->base_index[k] = (size_t)pb->free_params[k]; /* LS_LAW_P_A .. LS_LAW_P_C are 0 .. 4 */
        s->plain_dense = plain_dense_applies(pb);
    } else if (mapped_applies(pb)) {
        s->mapped = ls_fit_kernel();
        s->ne = pb->kind.base == LS_LAW_BASE_MOE ? distinct_e(pb, s->e_values) : 0;
        s->mapped_data = malloc(s->cap * (9 + LS_MAPPED_SCRATCH) * sizeof *s->mapped_data);
        s->spare = malloc(s->cap * sizeof *s->spare);
        s->e_index = malloc(s->cap * sizeof *s->e_index);
        if (!s->mapped_data || !s->spare || !s->e_index) {
            solver_free(s);
            return LS_ERR_INTERNAL;
        }
    }
    return 0;
}

/* The objective at u (the value pass: no derivatives), +inf where the law
 * cannot be evaluated. */
static double value_at(const solver *s, const double *u)
{
    const problem *pb = s->pb;
    ls_law l;
    law_from_fitted(pb, u, &l);
    if (!law_is_finite(&l))
        return INFINITY;
    if (s->kernel) {
        double theta[5];
        kernel_theta(&l, theta);
        double v = s->kernel->value(&s->soa, theta, kernel_delta(pb), kernel_scale(pb));
        return isfinite(v) ? v : INFINITY;
    }
    ls_law_prepared prep;
    ls_law_prepare(&prep, &l);
    double sum = 0.0;
    for (size_t i = 0; i < pb->n; i++) {
        double ln_pred = ls_law_row_log_loss_grad(&prep, &pb->rows[i], NULL);
        double r = pb->space == LS_FIT_SPACE_LOG ? ln_pred - pb->target[i] : exp(ln_pred) - pb->target[i];
        if (!isfinite(r))
            return INFINITY;
        sum += (pb->weight ? pb->weight[i] : 1.0) * objective_term(pb, r);
    }
    return isfinite(sum) ? sum : INFINITY;
}

/* The objective at a point the solver tries: through a kernel, its trial
 * pass, which keeps each run's intermediates, so that the derivative
 * models at the point, if the solver moves there, need only the kernel's
 * later passes (models_at).  The dense kernel gives value_at's objective
 * bit for bit, the mapped one to about 1e-15; where the mapped kernel's
 * is not finite, the law core's is taken (it has limits for an
 * overflowing m^-theta), and so are the derivative models there. */
static double trial_at(solver *s, const double *u)
{
    if (!s->kernel && !s->mapped)
        return value_at(s, u);
    const problem *pb = s->pb;
    s->soa_valid = 0;
    ls_law l;
    law_from_fitted(pb, u, &l);
    if (!law_is_finite(&l))
        return INFINITY;
    double v;
    if (s->mapped) {
        mapped_point(s, &l);
        v = s->mapped->mapped_trial(&s->mrows, &s->mpt, kernel_delta(pb), kernel_scale(pb));
        if (!isfinite(v))
            return value_at(s, u);
    } else {
        double theta[5];
        kernel_theta(&l, theta);
        v = s->kernel->trial(&s->soa, theta, kernel_delta(pb), kernel_scale(pb));
        if (!isfinite(v))
            return INFINITY;
    }
    memcpy(s->soa_u, u, pb->nfree * sizeof *u);
    s->soa_valid = 1;
    return v;
}

/* The derivative pass at u: the gradient g, IRLS's model M and the exact
 * Hessian H (p x p, row-major), and each run's r_i and J_i into the solver.
 * With the law core's compact second-order form (law_second_internal.h),
 *   Hess r_i = s_i (S_i + T_i) - [log space] J_i J_i',
 * S_i = sum_k w_k a_k a_k' and s_i = 1 in log space, Lhat_i in linear space
 * (where Hess Lhat = Lhat (Hess ln Lhat + grad grad') cancels the - grad grad').
 * A first pass per run stores J_i, a_1 and a_2 by column and each run's
 * coefficients; the p x p sums are then dot products over the runs.
 * Returns 0 when everything is finite. */
static int model_at_first(solver *s, const double *u, double *g, double *M);

static int model_at(solver *s, const double *u, double *g, double *M, double *H)
{
    const problem *pb = s->pb;
    size_t p = pb->nfree, n = pb->n, st = s->cap;
    int pos[LS_LAW_NPARAMS];
    for (int j = 0; j < LS_LAW_NPARAMS; j++)
        pos[j] = -1;
    for (size_t k = 0; k < p; k++)
        pos[pb->free_params[k]] = (int)k;
    /* A tied parameter moves with its leader: its derivatives add into the
     * leader's coordinate (the chain rule for p_j = p_i). */
    for (int j = 0; j < LS_LAW_NPARAMS; j++)
        if (pb->tied[j])
            pos[j] = pos[pb->tied[j] - 1];
    int pos_c = pos[LS_LAW_P_C];
    ls_law l;
    law_from_fitted(pb, u, &l);
    ls_law_prepared prep;
    ls_law_prepare(&prep, &l);
    double *Jc = s->cols, *A1 = Jc + p * st, *A2 = A1 + p * st;
    double *gp = A2 + p * st, *cm = gp + st, *ch = cm + st, *c1 = ch + st, *c2 = c1 + st, *c3 = c2 + st;
    double C[PMAX * PMAX];
    int in1[PMAX] = {0}, in2[PMAX] = {0};
    memset(C, 0, p * p * sizeof *C);
    int log_space = pb->space == LS_FIT_SPACE_LOG;
    void (*dots)(size_t, const double *, const double *, const double *, const double *, double *, double *) =
        s->dots->dot3x2;
    for (size_t i = 0; i < n; i++) {
        ls_law_second o;
        ls_law_row_second(&prep, &pb->rows[i], &o);
        double scale = 1.0, r;
        if (log_space) {
            r = o.ln_loss - pb->target[i];
        } else {
            scale = exp(o.ln_loss); /* d Lhat = Lhat d ln Lhat */
            r = scale - pb->target[i];
        }
        double second, psi = psi_of(pb, r, &second);
        double irls = r != 0.0 ? psi / r : second;
        double w = pb->weight ? pb->weight[i] : 1.0;
        for (size_t b = 0; b < p; b++)
            Jc[b * st + i] = A1[b * st + i] = A2[b * st + i] = 0.0;
        for (int k = 0; k < 3; k++)
            for (int m = 0; m < o.na[k]; m++) {
                int q = pos[o.ia[k][m]];
                if (q < 0)
                    continue;
                Jc[(size_t)q * st + i] += o.w[k] * o.a[k][m];
                if (k == 0) {
                    A1[(size_t)q * st + i] += o.a[k][m];
                    in1[q] = 1;
                } else if (k == 1) {
                    A2[(size_t)q * st + i] += o.a[k][m];
                    in2[q] = 1;
                } /* the third term's gradient is 1 at ln c */
            }
        for (size_t b = 0; b < p; b++)
            Jc[b * st + i] *= scale;
        s->resid[i] = r;
        double cs = w * psi * scale;
        gp[i] = w * psi;
        cm[i] = w * (irls - (log_space ? psi : 0.0));
        ch[i] = w * (second - (log_space ? psi : 0.0));
        c1[i] = cs * o.w[0];
        c2[i] = cs * o.w[1];
        c3[i] = cs * o.w[2];
        for (int m = 0; m < o.nt; m++) {
            int qa = pos[o.ti[m]], qb = pos[o.tj[m]];
            /* T lists each unordered pair once; a pair of parameters that
             * are tied together lands twice on its coordinate's diagonal. */
            if (qa >= 0 && qb >= 0)
                C[(qa < qb ? qa : qb) * (int)p + (qa < qb ? qb : qa)] +=
                    (qa == qb && o.ti[m] != o.tj[m] ? 2.0 : 1.0) * cs * o.tv[m];
        }
    }
    int finite = 1;
    for (size_t a = 0; a < p; a++) {
        const double *ja = Jc + a * st;
        double sum = 0.0;
        for (size_t i = 0; i < n; i++)
            sum += gp[i] * ja[i];
        g[a] = sum;
        finite &= isfinite(sum);
        for (size_t b = a; b < p; b++) {
            const double *jb = Jc + b * st;
            double c = C[a * p + b], x, y;
            if (in1[a] && in1[b]) {
                dots(n, c1, c1, A1 + a * st, A1 + b * st, &x, &y);
                c += x;
            }
            if (in2[a] && in2[b]) {
                dots(n, c2, c2, A2 + a * st, A2 + b * st, &x, &y);
                c += x;
            }
            if ((int)a == pos_c && (int)b == pos_c)
                for (size_t i = 0; i < n; i++)
                    c += c3[i];
            dots(n, cm, ch, ja, jb, &x, &y);
            M[a * p + b] = M[b * p + a] = x + c;
            H[a * p + b] = H[b * p + a] = y + c;
            finite &= isfinite(M[a * p + b]) && isfinite(H[a * p + b]);
        }
    }
    return finite ? 0 : -1;
}

/* 0 when g (p) and M (p x p) are finite, else -1. */
static int models_finite(size_t p, const double *g, const double *M)
{
    int finite = 1;
    for (size_t a = 0; a < p; a++)
        finite &= isfinite(g[a]);
    for (size_t a = 0; a < p * p; a++)
        finite &= isfinite(M[a]);
    return finite ? 0 : -1;
}

/* The first-order derivative pass: the gradient g and IRLS's Gauss-Newton
 * model M = sum_i w_i (psi(r_i)/r_i) J_i J_i' (p x p, row-major) from the
 * law core's gradients alone; no Hessian.  It is the model of the solver's
 * first phase, far from the optimum, and the whole model of a law without
 * an analytic Hessian.  Fills J and r as model_at does. */
static int model_at_first(solver *s, const double *u, double *g, double *M)
{
    const problem *pb = s->pb;
    size_t p = pb->nfree, n = pb->n, st = s->cap;
    ls_law l;
    law_from_fitted(pb, u, &l);
    ls_law_prepared prep;
    ls_law_prepare(&prep, &l);
    double *Jc = s->cols, *gp = Jc + p * st, *cm = gp + st;
    int log_space = pb->space == LS_FIT_SPACE_LOG;
    for (size_t i = 0; i < n; i++) {
        double grad[LS_LAW_NPARAMS];
        double ln_pred = ls_law_row_log_loss_grad(&prep, &pb->rows[i], grad);
        double scale = 1.0, r;
        if (log_space) {
            r = ln_pred - pb->target[i];
        } else {
            scale = exp(ln_pred);
            r = scale - pb->target[i];
        }
        double second, psi = psi_of(pb, r, &second);
        double irls = r != 0.0 ? psi / r : second;
        double w = pb->weight ? pb->weight[i] : 1.0;
        for (size_t k = 0; k < p; k++)
            Jc[k * st + i] = scale * grad[pb->free_params[k]];
        for (int j = 0; j < LS_LAW_NPARAMS; j++)
            for (size_t k = 0; pb->tied[j] && k < p; k++)
                if (pb->free_params[k] == (ls_law_param)(pb->tied[j] - 1))
                    Jc[k * st + i] += scale * grad[j];
        s->resid[i] = r;
        gp[i] = w * psi;
        cm[i] = w * irls;
    }
    const double *cols[PMAX];
    for (size_t k = 0; k < p; k++)
        cols[k] = Jc + k * st;
    s->dots->gram(n, p, cols, cm, gp, g, M);
    return models_finite(p, g, M);
}

/* model_at_first through the mapped kernel, at the point of the last
 * trial: its gradient pass writes the free parameters' columns of J (the
 * others into the spare column), and the kernel's gram forms g and M. */
static int mapped_model_first(solver *s, double *g, double *M)
{
    const problem *pb = s->pb;
    size_t p = pb->nfree, n = pb->n;
    if (s->mpt.moe) {
        ls_law l;
        law_from_fitted(pb, s->soa_u, &l);
        double e_start = l.p[LS_LAW_P_E_START], e_max = l.p[LS_LAW_P_E_MAX];
        for (size_t k = 0; k < s->ne; k++) {
            double d_emax, d_estart;
            ls_law_ehat_derivatives(s->e_values[k], e_start, e_max, s->ehat[k], &d_emax, &d_estart);
            s->fe_max[k] = d_emax / s->ehat[k] * (e_max - 1.0); /* u = ln(E_max - 1) */
            s->fe_start[k] = d_estart / s->ehat[k] * e_start;   /* u = ln E_start */
        }
    }
    double *col[LS_LAW_NPARAMS];
    const double *cols[PMAX];
    for (int j = 0; j < LS_LAW_NPARAMS; j++)
        col[j] = s->spare;
    for (size_t k = 0; k < p; k++)
        cols[k] = col[pb->free_params[k]] = s->cols + k * s->cap;
    s->mapped->mapped_gradient(&s->mrows, &s->mpt, col);
    const double *scratch = s->mrows.scratch;
    s->mapped->gram(n, p, cols, scratch + LS_MAPPED_CM * n, scratch + LS_MAPPED_GP * n, g, M);
    memcpy(s->resid, scratch + LS_MAPPED_RESID * n, n * sizeof *s->resid);
    return models_finite(p, g, M);
}

/* model_at for the solver's steps: through the kernel when it applies (the
 * 5 x 5 models, restricted to the free parameters); the first-order model
 * alone (H untouched) when `second` is 0. */
static int models_at(solver *s, const double *u, double *g, double *M, double *H, int second)
{
    if (s->mapped && !second) {
        if (!(s->soa_valid && memcmp(s->soa_u, u, s->pb->nfree * sizeof *u) == 0))
            (void)trial_at(s, u);
        /* Derivatives the kernel cannot form finitely go to the law core. */
        if (s->soa_valid && mapped_model_first(s, g, M) == 0)
            return 0;
        return model_at_first(s, u, g, M);
    }
    if (!s->kernel)
        return second ? model_at(s, u, g, M, H) : model_at_first(s, u, g, M);
    const problem *pb = s->pb;
    size_t p = pb->nfree;
    ls_law l;
    law_from_fitted(pb, u, &l);
    double theta[5], g5[5], M5[25], H5[25];
    if (s->soa_valid && memcmp(s->soa_u, u, p * sizeof *u) == 0) {
        s->kernel->sums(&s->soa, g5, M5, H5);
    } else {
        kernel_theta(&l, theta);
        s->kernel->model(&s->soa, theta, kernel_delta(pb), kernel_scale(pb), g5, M5, H5);
        s->soa_valid = 0;
    }
    int finite = 1;
    for (size_t a = 0; a < p; a++) {
        size_t ia = s->base_index[a];
        g[a] = g5[ia];
        finite &= isfinite(g[a]);
        for (size_t b = 0; b < p; b++) {
            size_t ib = s->base_index[b];
            M[a * p + b] = M5[ia * 5 + ib];
            H[a * p + b] = H5[ia * 5 + ib];
            finite &= isfinite(M[a * p + b]) && isfinite(H[a * p + b]);
        }
    }
    return finite ? 0 : -1;
}

/* GCC unrolls the loops below fully once p is a constant (cholesky_step);
 * clang, which builds the fuzz harnesses, would warn that it cannot. */
#if defined(__GNUC__) && !defined(__clang__)
#define UNROLL_P _Pragma("GCC unroll 16")
#else
#define UNROLL_P
#endif

/* Solve (A + lambda D) x = -g by Cholesky (A is p x p, symmetric; D
 * diagonal); 0, or -1 when the matrix is not positive definite.  p is at
 * most 15: a plain loop beats a library call's overhead here.  The solves
 * are a chain of dependent operations (10% of the Chinchilla grid's time),
 * so each pivot's reciprocal is formed once and the rest multiply: 5
 * divisions instead of p (p + 1) / 2 + 2 p = 25. */
static inline __attribute__((always_inline)) int cholesky_solve(size_t p, const double *A, double lambda,
                                                                const double *D, const double *g, double *x)
{
    double Lm[PMAX * PMAX], inv[PMAX];
UNROLL_P
    for (size_t a = 0; a < p; a++) {
UNROLL_P
        for (size_t b = 0; b <= a; b++) {
            double v = A[a * p + b] + (a == b ? lambda * D[a] : 0.0);
UNROLL_P
            for (size_t k = 0; k < b; k++)
                v -= Lm[a * PMAX + k] * Lm[b * PMAX + k];
            if (a == b) {
                if (!(v > 0.0) || !isfinite(v))
                    return -1;
                Lm[a * PMAX + a] = sqrt(v);
                inv[a] = 1.0 / Lm[a * PMAX + a];
            } else {
                Lm[a * PMAX + b] = v * inv[b];
            }
        }
    }
    double y[PMAX];
UNROLL_P
    for (size_t a = 0; a < p; a++) {
        double v = -g[a];
UNROLL_P
        for (size_t k = 0; k < a; k++)
            v -= Lm[a * PMAX + k] * y[k];
        y[a] = v * inv[a];
    }
UNROLL_P
    for (size_t a = p; a-- > 0;) {
        double v = y[a];
UNROLL_P
        for (size_t k = a + 1; k < p; k++)
            v -= Lm[k * PMAX + a] * x[k];
        x[a] = v * inv[a];
    }
    return 0;
}

/* The plain dense law's p = 5 gets its own, fully unrolled copy (the
 * loops' varying trip counts were half of the solves' time). */
static int cholesky_step(size_t p, const double *A, double lambda, const double *D, const double *g, double *x)
{
    return p == 5 ? cholesky_solve(5, A, lambda, D, g, x) : cholesky_solve(p, A, lambda, D, g, x);
}

/* -(g's + s'As/2): the decrease a quadratic model predicts for step s. */
static double predicted_decrease(size_t p, const double *A, const double *g, const double *s)
{
    double lin = 0.0, quad = 0.0;
    for (size_t a = 0; a < p; a++) {
        lin += g[a] * s[a];
        double row = 0.0;
        for (size_t b = 0; b < p; b++)
            row += A[a * p + b] * s[b];
        quad += s[a] * row;
    }
    return -(lin + 0.5 * quad);
}

/* Before a start's first step: its level moved (LEVEL_OFF), then each dead
 * term of the plain dense law (DEAD_SHARE) revived along its log-amplitude,
 * each if that lowers F, u and F updated.  The residuals and shares come
 * from the trial pass at u, and the kernel's scratch holds the trial at u
 * again on return. */
static void revive_dead_terms(solver *s, double *u, double *F)
{
    const problem *pb = s->pb;
    size_t p = pb->nfree, n = s->soa.n;
    static const ls_law_param amplitude[3] = {LS_LAW_P_A, LS_LAW_P_B, LS_LAW_P_C};
    size_t index[3]; /* each amplitude's free coordinate, p when held */
    for (size_t term = 0; term < 3; term++)
        for (index[term] = 0; index[term] < p && s->base_index[index[term]] != (size_t)amplitude[term];)
            index[term]++;
    /* The level: when every run's residual is more than LEVEL_OFF nats off
     * on the same side (losses on a scale the start box does not reach),
     * the three log-amplitudes move together by minus the mean residual,
     * which moves ln Lhat by that much in every run and keeps the shares. */
    const double *r = ls_dense_residual(&s->soa);
    double lowest = INFINITY, highest = -INFINITY, mean = 0.0;
    for (size_t i = 0; i < n; i++) {
        lowest = r[i] < lowest ? r[i] : lowest;
        highest = r[i] > highest ? r[i] : highest;
        mean += r[i] / (double)n;
    }
    if (lowest > LEVEL_OFF || highest < -LEVEL_OFF) {
        double trial[PMAX];
        memcpy(trial, u, p * sizeof *u);
        for (size_t term = 0; term < 3; term++)
            if (index[term] < p)
                trial[index[term]] -= mean;
        double Ft = trial_at(s, trial);
        if (Ft < *F) {
            memcpy(u, trial, p * sizeof *u);
            *F = Ft;
        } else {
            (void)trial_at(s, u);
        }
    }
    for (size_t term = 0; term < 3; term++) {
        /* The slope of F along the amplitude, sum_i w_i psi(r_i) share_i:
         * while the term is dead, raising it changes F by about the slope
         * times (e^shift - 1), so a term whose slope is not negative (the
         * runs where it would count are already overestimated) stays dead.
         * On the Chinchilla grid this told every revival that failed from
         * every one that succeeded. */
        const double *share = ls_dense_share(&s->soa, term), *psi = ls_dense_weighted_psi(&s->soa);
        double largest = 0.0, slope = 0.0;
        for (size_t i = 0; i < n; i++) {
            largest = share[i] > largest ? share[i] : largest;
            slope += psi[i] * share[i];
        }
        size_t k = index[term];
        if (!(largest < DEAD_SHARE) || !(slope < 0.0) || k == p)
            continue;
        double trial[PMAX];
        memcpy(trial, u, p * sizeof *u);
        double t = largest > 0.0 ? fmin(log(REVIVE_SHARE / largest), REVIVE_MAX_SHIFT) : REVIVE_MAX_SHIFT;
        for (; t >= 1.0; t *= 0.5) {
            trial[k] = u[k] + t;
            double Ft = trial_at(s, trial);
            if (Ft < *F) { /* the scratch holds this trial, the new u */
                u[k] = trial[k];
                *F = Ft;
                break;
            }
        }
        if (t < 1.0) /* no shift lowered F: the scratch back to u */
            (void)trial_at(s, u);
    }
}

typedef struct start_result {
    double objective; /* +inf when the solve failed outright */
    int converged;
    size_t iterations;   /* accepted steps */
    size_t newton_steps; /* of which undamped Newton steps */
    double u[LS_LAW_NPARAMS];
} start_result;

/* One local solve from u0 (the hybrid described above).  It stops when a
 * step moves every coordinate by less than xtol (relative), when the
 * scaled gradient is below gtol, when no step lowers the objective any
 * more, or, unless `polish`, when two steps in a row lower the objective
 * by less than ftol relative; the best start of a fit is then polished,
 * which with Newton's steps takes one or two more. */
static void solve_from(solver *s, const double *u0, start_result *res, int polish)
{
    const problem *pb = s->pb;
    const ls_fit_parameters *fp = s->fp;
    size_t p = pb->nfree;
    double u[PMAX], trial[PMAX], step[PMAX], g[PMAX], M[PMAX * PMAX], H[PMAX * PMAX], D[PMAX], zero[PMAX];
    memcpy(u, u0, p * sizeof *u);
    memcpy(res->u, u0, p * sizeof *u0);
    if (s->kernel)
        kernel_load_rows(s);
    if (s->mapped)
        mapped_load_rows(s);
    s->soa_valid = 0;
    for (size_t k = 0; k < p; k++)
        zero[k] = D[k] = 0.0;
    res->converged = 0;
    res->iterations = 0;
    res->newton_steps = 0;
    double F = trial_at(s, u);
    res->objective = F;
    if (!isfinite(F))
        return;
    if (s->plain_dense && !polish) {
        revive_dead_terms(s, u, &F);
        res->objective = F;
        memcpy(res->u, u, p * sizeof *u);
    }
    double lambda = -1.0, nu = 2.0;
    int converged = 0;
    /* Which model the steps use.  The kernel's passes (the plain dense
     * law) are cheap enough for the hybrid throughout.  On the general
     * path a second-order pass costs several first-order ones (the law
     * core's second-order form and two p x p models), and measured on the
     * MoE laws (docs/performance.md) the starts are fastest on the
     * first-order model alone (model_at_first: IRLS-weighted
     * Levenberg-Marquardt, no Newton steps), which reaches the best
     * objective from as many starts; the polish of the best start then
     * uses the hybrid, which ends quadratically.  A law without an
     * analytic Hessian, or a fit asked for first-order models, uses the
     * first-order model throughout. */
    int second = !fp->first_order && (s->kernel || (polish && ls_law_has_second(pb->kind)));
    size_t quiet = 0, iter;
    int well_predicted = 0; /* steps in a row with rho > GOOD_AGREEMENT, at most 2 */
    for (iter = 0; iter < fp->max_iterations && !converged; iter++) {
        if (models_at(s, u, g, M, H, second) != 0)
            break;
        double top = 0.0;
        for (size_t k = 0; k < p; k++) {
            double d = M[k * p + k];
            top = fmax(top, d);
            switch (fp->scale) {
            case LS_FIT_SCALE_MARQUARDT: D[k] = d > 0 ? d : 1.0; break;
            case LS_FIT_SCALE_MORE: D[k] = fmax(D[k], d > 0 ? d : 1.0); break;
            default: D[k] = 1.0; break;
            }
        }
        double gnorm = 0.0;
        for (size_t k = 0; k < p; k++)
            gnorm = fmax(gnorm, fabs(g[k]) * fmax(fabs(u[k]), 1.0));
        if (!polish && gnorm <= fp->gtol * fmax(F, 1.0)) {
            converged = 1;
            break;
        }
        double dmax = 0.0;
        for (size_t k = 0; k < p; k++)
            dmax = fmax(dmax, D[k]);
        if (top <= 0.0)
            top = 1.0;
        if (lambda < 0) /* as GSL's trust region: 1e-3 of the scaled diagonal */
            lambda = 1e-3 * top / dmax;
        double Ft = INFINITY;
        int accepted = 0, newton = 0;
        if (second && cholesky_step(p, H, 0.0, zero, g, step) == 0) {
            int plausible = 1;
            for (size_t k = 0; k < p; k++)
                plausible &= fabs(step[k]) <= NEWTON_RADIUS;
            if (plausible) {
                for (size_t k = 0; k < p; k++)
                    trial[k] = u[k] + step[k];
                Ft = trial_at(s, trial);
                /* Near the optimum the objective's last digits are
                 * rounding: a Newton step within that noise is taken,
                 * since its gradient, not its objective, is what improves. */
                accepted = newton = Ft < F || (polish && Ft <= F * (1.0 + NEWTON_NOISE));
            }
        }
        while (!accepted) {
            if (!(lambda * dmax <= DAMPING_LIMIT * top))
                break;
            if (cholesky_step(p, M, lambda, D, g, step) != 0) {
                lambda *= nu;
                nu *= 2.0;
                continue;
            }
            for (size_t k = 0; k < p; k++)
                trial[k] = u[k] + step[k];
            double pred = predicted_decrease(p, M, g, step);
            Ft = trial_at(s, trial);
            double rho = (F - Ft) / pred;
            if (isfinite(Ft) && pred > 0 && rho > 0) {
                accepted = 1;
                double t = 2.0 * rho - 1.0, factor = fmax(1.0 / 3.0, 1.0 - t * t * t);
                int good = s->plain_dense && rho > GOOD_AGREEMENT;
                well_predicted = good ? (well_predicted < 2 ? well_predicted + 1 : 2) : 0;
                lambda *= well_predicted == 2 ? factor * factor : factor;
                nu = 2.0;
            } else {
                lambda *= nu;
                nu *= 2.0;
            }
        }
        if (!accepted) {
            /* No step lowers the objective: a minimum to machine precision. */
            converged = iter > 0;
            break;
        }
        res->newton_steps += newton;
        int small = 1;
        for (size_t k = 0; k < p; k++)
            small &= fabs(trial[k] - u[k]) <= fp->xtol * (fabs(u[k]) + fp->xtol);
        quiet = F - Ft <= fp->ftol * Ft ? quiet + 1 : 0;
        memcpy(u, trial, p * sizeof *u);
        F = Ft;
        if (small || (!polish && quiet >= 2))
            converged = 1;
    }
    memcpy(res->u, u, p * sizeof *u);
    res->iterations = iter;
    res->objective = F;
    res->converged = converged && isfinite(F);
}

/* ---- multi-start, in parallel ------------------------------------------------- */

typedef struct multistart {
    const problem *pb;
    const ls_fit_parameters *fp;
    const double *starts; /* nstarts x nfree */
    start_result *results;
    size_t progress_base, progress_total;
} multistart;

/* Each thread's state: a solver sized for the problem. */
static int multistart_begin(void *context, void **state)
{
    multistart *ms = context;
    solver *s = malloc(sizeof *s);
    if (!s || solver_init(s, ms->pb, ms->fp) != 0) {
        free(s);
        return -1;
    }
    *state = s;
    return 0;
}

static void multistart_end(void *context, void *state)
{
    (void)context;
    solver_free(state);
    free(state);
}

static int multistart_item(void *context, void *state, size_t i)
{
    multistart *ms = context;
    solve_from(state, ms->starts + i * ms->pb->nfree, &ms->results[i], 0);
    return 0;
}

static void multistart_progress(void *context, size_t done, size_t total)
{
    (void)total;
    multistart *ms = context;
    ms->fp->progress(ms->fp->progress_context, ms->progress_base + done, ms->progress_total);
}

/* Run every start; results[i] belongs to start i whatever the threads. */
static int run_starts(const problem *pb, const ls_fit_parameters *fp, const double *starts, size_t nstarts,
                      start_result *results, size_t progress_base, size_t progress_total, ls_error *err)
{
    multistart ms = {pb, fp, starts, results, progress_base, progress_total};
    ls_parallel_job job = {.n = nstarts,
                           .threads = fp->threads,
                           .context = &ms,
                           .begin = multistart_begin,
                           .end = multistart_end,
                           .item = multistart_item,
                           .progress = fp->progress ? multistart_progress : NULL};
    if (ls_parallel_for(&job) != 0)
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory for the solver workspaces");
    return 0;
}

/* ---- starting points ------------------------------------------------------------ */

/* Chinchilla's grid (Hoffmann et al. 2022; Epoch AI's replication), in
 * fitted coordinates: a = ln A, b = ln B, e = ln c. */
static const double GRID_ALPHA_BETA[] = {0, 0.5, 1, 1.5, 2};
static const double GRID_E[] = {-1, -0.5, 0, 0.5, 1};
static const double GRID_AB[] = {0, 5, 10, 15, 20, 25};
/* Kaplan's form: ln N_c and ln D_c (Kaplan et al. fit 32.1 and 31.6) and
 * ln alpha_N, ln alpha_D (alpha from 0.05 to 0.37; they fit 0.076, 0.095). */
static const double GRID_KAPLAN_SCALE[] = {20, 30, 40};
static const double GRID_KAPLAN_EXPONENT[] = {-3, -2, -1};

typedef struct axis {
    ls_law_param param;
    const double *values; /* fitted coordinates */
    size_t n;
    double low, high;     /* the same range, for Sobol points */
} axis;

static const axis BASE_AXES[] = {
    {LS_LAW_P_A, GRID_AB, 6, 0, 25},
    {LS_LAW_P_ALPHA, GRID_ALPHA_BETA, 5, 0, 2},
    {LS_LAW_P_B, GRID_AB, 6, 0, 25},
    {LS_LAW_P_BETA, GRID_ALPHA_BETA, 5, 0, 2},
    {LS_LAW_P_C, GRID_E, 5, -1, 1},
    {LS_LAW_P_N_C, GRID_KAPLAN_SCALE, 3, 15, 45},
    {LS_LAW_P_ALPHA_N, GRID_KAPLAN_EXPONENT, 3, -4, 0},
    {LS_LAW_P_D_C, GRID_KAPLAN_SCALE, 3, 15, 45},
    {LS_LAW_P_ALPHA_D, GRID_KAPLAN_EXPONENT, 3, -4, 0},
};

/* Typical values the extra parameters are held at in stage one, and the
 * small grid of values stage two starts them from (natural units). */
typedef struct extra_start {
    double typical;
    double grid[2];
    size_t ngrid;
} extra_start;

static const extra_start EXTRA_STARTS[LS_LAW_NPARAMS] = {
    [LS_LAW_P_DELTA] = {0.0, {0.0}, 1},
    [LS_LAW_P_GAMMA] = {0.0, {0.0}, 1},
    [LS_LAW_P_OMEGA] = {0.0, {0.0}, 1},
    [LS_LAW_P_ZETA] = {0.0, {0.0}, 1},
    [LS_LAW_P_E_START] = {1.0, {1.0}, 1},
    [LS_LAW_P_E_MAX] = {100.0, {30.0, 1000.0}, 2},
    [LS_LAW_P_PHI] = {0.5, {0.3, 0.8}, 2},
    [LS_LAW_P_KAPPA1] = {1.0, {0.5, 2.0}, 2},
    [LS_LAW_P_KAPPA2] = {2.0, {1.0, 4.0}, 2},
    [LS_LAW_P_THETA] = {0.3, {0.1, 0.5}, 2},
    /* Muennighoff et al. fit R_D* = 15.4 and R_N* = 5.3. */
    [LS_LAW_P_R_D_STAR] = {15.0, {5.0, 30.0}, 2},
    [LS_LAW_P_R_N_STAR] = {5.0, {2.0, 10.0}, 2},
};

/* The parameters the base grid covers: fitted in stage one. */
static int is_base_param(ls_law_param j)
{
    for (size_t a = 0; a < sizeof BASE_AXES / sizeof *BASE_AXES; a++)
        if (BASE_AXES[a].param == j)
            return 1;
    return 0;
}

/* Base starts for the free base parameters of pb (which frees only those):
 * the Chinchilla grid or `count` Sobol points in the same box. */
static double *base_starts(const problem *pb, const ls_fit_parameters *fp, size_t *count, ls_error *err)
{
    size_t p = pb->nfree;
    const axis *axes[LS_LAW_NPARAMS];
    for (size_t k = 0; k < p; k++) {
        axes[k] = NULL;
        for (size_t a = 0; a < sizeof BASE_AXES / sizeof *BASE_AXES; a++)
            if (BASE_AXES[a].param == pb->free_params[k])
                axes[k] = &BASE_AXES[a];
    }
    size_t n = fp->starts;
    if (fp->grid_chinchilla) {
        n = 1;
        for (size_t k = 0; k < p; k++)
            n *= axes[k]->n;
    }
    double *u = malloc((n ? n : 1) * (p ? p : 1) * sizeof *u);
    gsl_qrng *q = !fp->grid_chinchilla && p > 0 ? gsl_qrng_alloc(gsl_qrng_sobol, (unsigned)p) : NULL;
    if (!u || (!fp->grid_chinchilla && p > 0 && !q)) {
        free(u);
        gsl_qrng_free(q);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        double point[LS_LAW_NPARAMS];
        if (q)
            gsl_qrng_get(q, point);
        size_t rest = i;
        /* The grid in Epoch's nesting: the last axis varies fastest. */
        for (size_t kk = p; kk-- > 0;) {
            const axis *ax = axes[kk];
            if (fp->grid_chinchilla) {
                u[i * p + kk] = ax->values[rest % ax->n];
                rest /= ax->n;
            } else {
                u[i * p + kk] = ax->low + (ax->high - ax->low) * point[kk];
            }
        }
    }
    gsl_qrng_free(q);
    *count = n;
    return u;
}

/* ---- setting up a fit ----------------------------------------------------------- */

typedef struct prepared_data {
    size_t n;
    ls_law_row *rows;
    double *log_loss, *loss;
} prepared_data;

static void prepared_data_free(prepared_data *d)
{
    free(d->rows);
    free(d->log_loss);
    free(d->loss);
    memset(d, 0, sizeof *d);
}

static int prepare_data(const ls_sweep *s, prepared_data *d, ls_error *err)
{
    memset(d, 0, sizeof *d);
    if (!s->has_loss)
        return ls_error_set(err, LS_ERR_DATA, "%s: no column 'loss' to fit", s->name);
    d->n = s->n;
    d->rows = malloc(s->n * sizeof *d->rows);
    d->log_loss = malloc(s->n * sizeof *d->log_loss);
    d->loss = malloc(s->n * sizeof *d->loss);
    if (!d->rows || !d->log_loss || !d->loss) {
        prepared_data_free(d);
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    }
    for (size_t i = 0; i < s->n; i++) {
        const ls_sweep_row *r = &s->rows[i];
        ls_law_point x = ls_sweep_row_point(r);
        ls_law_row_init(&d->rows[i], &x);
        d->loss[i] = r->loss;
        d->log_loss[i] = log(r->loss);
    }
    return 0;
}

/* Copy the plain runs (R = 1, E = 1) of d into plain; returns their number
 * (0 when there are none or memory runs out: stage one then uses every run). */
static size_t select_plain_rows(const prepared_data *d, prepared_data *plain)
{
    size_t n = 0;
    for (size_t i = 0; i < d->n; i++)
        n += d->rows[i].x.R == 1.0 && d->rows[i].x.E == 1.0;
    if (n == 0)
        return 0;
    plain->rows = malloc(n * sizeof *plain->rows);
    plain->log_loss = malloc(n * sizeof *plain->log_loss);
    plain->loss = malloc(n * sizeof *plain->loss);
    if (!plain->rows || !plain->log_loss || !plain->loss) {
        prepared_data_free(plain);
        return 0;
    }
    for (size_t i = 0; i < d->n; i++)
        if (d->rows[i].x.R == 1.0 && d->rows[i].x.E == 1.0) {
            plain->rows[plain->n] = d->rows[i];
            plain->log_loss[plain->n] = d->log_loss[i];
            plain->loss[plain->n++] = d->loss[i];
        }
    return n;
}

/* Which parameters the sweep cannot identify, which the fit then holds at
 * their neutral values (docs/fitting.md, "What the data cannot identify"). */
static void find_unidentified(const ls_sweep *s, ls_law_kind kind, unsigned char out[LS_LAW_NPARAMS])
{
    int looped = 0, looped_sparse = 0, moe = 0, repeated = 0;
    for (size_t i = 0; i < s->n; i++) {
        const ls_sweep_row *r = &s->rows[i];
        looped |= r->R > 1;
        looped_sparse |= r->R > 1 && r->n_total > r->n_act;
        moe |= r->E > 1;
        repeated |= r->unique_tokens > 0 && r->tokens > r->unique_tokens;
    }
    memset(out, 0, LS_LAW_NPARAMS);
    static const ls_law_param loop_params[] = {LS_LAW_P_PHI, LS_LAW_P_KAPPA1, LS_LAW_P_KAPPA2, LS_LAW_P_THETA};
    static const ls_law_param moe_params[] = {LS_LAW_P_DELTA, LS_LAW_P_GAMMA, LS_LAW_P_OMEGA, LS_LAW_P_ZETA, LS_LAW_P_E_MAX};
    for (size_t i = 0; i < 4; i++)
        if (!looped || (loop_params[i] == LS_LAW_P_THETA && !looped_sparse))
            out[loop_params[i]] = 1;
    for (size_t i = 0; i < 5; i++)
        if (!moe)
            out[moe_params[i]] = 1;
    out[LS_LAW_P_R_D_STAR] = out[LS_LAW_P_R_N_STAR] = !repeated;
    for (int j = 0; j < LS_LAW_NPARAMS; j++)
        out[j] = out[j] && ls_law_uses_param(kind, (ls_law_param)j);
}

const char *ls_fit_unidentified_reason(ls_law_param param)
{
    switch (param) {
    case LS_LAW_P_THETA: return "no looped run (R > 1) has m < 1";
    case LS_LAW_P_PHI: case LS_LAW_P_KAPPA1: case LS_LAW_P_KAPPA2: return "no run has R > 1";
    case LS_LAW_P_R_D_STAR: case LS_LAW_P_R_N_STAR:
        return "no run repeats its data (tokens > unique_tokens; without a unique_tokens, U or tokens_per_epoch "
               "column none does)";
    default: return "no run has E > 1";
    }
}

/* The likeliest reason, from the runs: fewer than three token counts
 * (B D^-beta + c then takes at most two values for three parameters), or
 * fewer than three sizes. */
static size_t distinct_upto3(const ls_sweep *s, int tokens, double v[3])
{
    size_t n = 0;
    for (size_t i = 0; i < s->n && n < 3; i++) {
        double x = tokens ? s->rows[i].tokens : s->rows[i].n_act;
        size_t k = 0;
        while (k < n && v[k] != x)
            k++;
        if (k == n)
            v[n++] = x;
    }
    return n;
}

void ls_fit_undetermined_reason(const ls_sweep *s, char *buf, size_t size)
{
    static const char *const names[] = {"n_act", "tokens"};
    buf[0] = '\0';
    for (int tokens = 1; tokens >= 0 && !buf[0]; tokens--) {
        double v[3];
        size_t n = distinct_upto3(s, tokens, v);
        if (n == 1)
            snprintf(buf, size, " (every run has %s = %g)", names[tokens], v[0]);
        else if (n == 2)
            snprintf(buf, size, " (the runs have only two values of %s, %g and %g)", names[tokens], fmin(v[0], v[1]),
                     fmax(v[0], v[1]));
    }
}

char *ls_fit_unidentified_warnings(const ls_fit_result *r)
{
    ls_law_param list[LS_LAW_NPARAMS];
    size_t np = ls_law_params_of(r->law.kind, list);
    int done[LS_LAW_NPARAMS] = {0};
    size_t cap = 1024, used = 0;
    char *out = NULL;
    for (size_t i = 0; i < np; i++) {
        if (!r->unidentified[list[i]] || done[i])
            continue;
        const char *reason = ls_fit_unidentified_reason(list[i]);
        char names[160] = "", values[160] = "";
        size_t count = 0;
        for (size_t k = i; k < np; k++) {
            if (!r->unidentified[list[k]] || strcmp(ls_fit_unidentified_reason(list[k]), reason) != 0)
                continue;
            done[k] = 1;
            char num[NUMTEXT_DOUBLE_MAX];
            size_t nl = strlen(names), vl = strlen(values);
            snprintf(names + nl, sizeof names - nl, "%s%s", count ? ", " : "", ls_law_param_name(list[k]));
            snprintf(values + vl, sizeof values - vl, "%s%s", count ? ", " : "",
                     ls_numtext_format_double(num, r->law.p[list[k]]));
            count++;
        }
        if (!out && !(out = malloc(cap)))
            return NULL;
        int w = snprintf(out + used, cap - used, "%s %s held at %s: %s\n", names, count > 1 ? "are" : "is", values,
                         reason);
        if (w > 0 && (size_t)w < cap - used)
            used += (size_t)w;
    }
    return out;
}

int ls_fit_determined(const ls_fit_result *r)
{
    ls_law_param list[LS_LAW_NPARAMS];
    size_t np = ls_law_params_of(r->law.kind, list);
    for (size_t i = 0; i < np; i++)
        if (!r->fixed[list[i]] && !isfinite(r->stderr_of[list[i]]))
            return 0;
    return 1;
}

static void problem_init(problem *pb, ls_law_kind kind, const prepared_data *d, const ls_fit_parameters *fp)
{
    memset(pb, 0, sizeof *pb);
    pb->kind = kind;
    pb->n = d->n;
    pb->rows = d->rows;
    pb->target = fp->space == LS_FIT_SPACE_LOG ? d->log_loss : d->loss;
    pb->loss = fp->loss;
    pb->delta = fp->huber_delta;
    pb->space = fp->space;
    memcpy(pb->tied, fp->tied, sizeof pb->tied);
    ls_law_init(&pb->held, kind);
}

static void problem_free_only(problem *pb, const unsigned char fixed[LS_LAW_NPARAMS])
{
    ls_law_param list[LS_LAW_NPARAMS];
    size_t np = ls_law_params_of(pb->kind, list);
    pb->nfree = 0;
    for (size_t i = 0; i < np; i++)
        if (!fixed[list[i]] && !pb->tied[list[i]])
            pb->free_params[pb->nfree++] = list[i];
}

static int compare_results(const void *a, const void *b)
{
    const start_result *x = *(const start_result *const *)a, *y = *(const start_result *const *)b;
    /* converged first, then by objective */
    if (x->converged != y->converged)
        return y->converged - x->converged;
    if (x->objective != y->objective)
        return (x->objective > y->objective) - (x->objective < y->objective);
    return (x > y) - (x < y); /* earlier start first */
}

/* The best result (lowest objective; earliest start on ties). */
static size_t best_of(const start_result *r, size_t n)
{
    size_t best = 0;
    for (size_t i = 1; i < n; i++)
        if (r[i].objective < r[best].objective)
            best = i;
    return best;
}

/* Whether J^T J (lower triangle filled) is singular for the purpose of
 * standard errors: the smallest eigenvalue of its correlation form (unit
 * diagonal, so the parameters' scales do not matter) below 1e-12 of the
 * largest.  Cholesky alone does not tell: with two token counts, B, beta
 * and c are exactly collinear, yet rounding often leaves a tiny positive
 * pivot and standard errors of 1e5 on c = 0.79.  Sound fits of the
 * shipped sweeps and of Chinchilla's points sit at 1e-8 to 1e-5, degenerate
 * ones at 1e-16 and below. */
static int jtj_singular(const gsl_matrix *jtj)
{
    size_t p = jtj->size1;
    gsl_matrix *c = gsl_matrix_alloc(p, p);
    gsl_vector *ev = gsl_vector_alloc(p);
    gsl_eigen_symm_workspace *w = gsl_eigen_symm_alloc(p);
    int singular = 1;
    if (c && ev && w) {
        int finite = 1;
        for (size_t a = 0; a < p; a++)
            for (size_t b = 0; b <= a; b++) {
                double v = gsl_matrix_get(jtj, a, b) / sqrt(gsl_matrix_get(jtj, a, a) * gsl_matrix_get(jtj, b, b));
                finite &= isfinite(v);
                gsl_matrix_set(c, a, b, v);
                gsl_matrix_set(c, b, a, v);
            }
        if (finite && gsl_eigen_symm(c, ev, w) == GSL_SUCCESS)
            singular = !(gsl_vector_min(ev) > 1e-12 * gsl_vector_max(ev));
    }
    gsl_eigen_symm_free(w);
    gsl_vector_free(ev);
    gsl_matrix_free(c);
    return singular;
}

/* The standard errors of the free parameters at the optimum u, in natural
 * units, and the covariance of the fitted coordinates (ls_fit_result):
 * the M-estimator's sandwich (huber_internal.h), or, should its curvature
 * not be positive definite, Gauss-Newton's s^2 (J'J)^-1 with s^2 = sum r^2
 * / (n - p); se(p) = |dp/du| se(u).  NaN throughout when J'J is singular
 * (ls_fit_determined).  hinv (p x p, or NULL) gets the inverse curvature of
 * the objective at u, for the profile's calibration. */
static void standard_errors(const problem *pb, const ls_fit_parameters *fp, const double *u, const ls_law *best,
                            double out[LS_LAW_NPARAMS], double cov_out[LS_LAW_NPARAMS * LS_LAW_NPARAMS],
                            double *hinv)
{
    for (int j = 0; j < LS_LAW_NPARAMS; j++)
        out[j] = NAN;
    for (int j = 0; cov_out && j < LS_LAW_NPARAMS * LS_LAW_NPARAMS; j++)
        cov_out[j] = NAN;
    size_t n = pb->n, p = pb->nfree;
    if (n <= p || p == 0)
        return;
    solver s;
    if (solver_init(&s, pb, fp) != 0)
        return;
    double g[PMAX], M[PMAX * PMAX], H[PMAX * PMAX], cov[PMAX * PMAX];
    int ok = model_at(&s, u, g, M, H) == 0;
    gsl_matrix *jtj = gsl_matrix_calloc(p, p);
    if (ok && jtj) {
        double ss = 0.0;
        for (size_t i = 0; i < n; i++) {
            ss += s.resid[i] * s.resid[i];
            for (size_t a = 0; a < p; a++)
                for (size_t b = 0; b <= a; b++)
                    *gsl_matrix_ptr(jtj, a, b) += s.cols[a * s.cap + i] * s.cols[b * s.cap + i];
        }
        double s2 = ss / (double)(n - p);
        double delta = pb->loss == LS_FIT_LOSS_MSE ? INFINITY : pb->delta;
        if (jtj_singular(jtj)) {
            ok = 0;
        } else if (ls_huber_covariance(n, p, s.cols, s.cap, s.resid, delta, cov, hinv) == 0) {
            /* The objective's curvature is its scale (2 for a sum of
             * squares, whose rho is r^2, not r^2 / 2) times H. */
            for (size_t k = 0; hinv && k < p * p; k++)
                hinv[k] /= kernel_scale(pb);
        } else if (ls_cholesky_decomp(jtj) == GSL_SUCCESS && gsl_linalg_cholesky_invert(jtj) == GSL_SUCCESS) {
            for (size_t a = 0; a < p; a++)
                for (size_t b = 0; b < p; b++) {
                    cov[a * p + b] = s2 * gsl_matrix_get(jtj, a, b);
                    if (hinv)
                        hinv[a * p + b] = gsl_matrix_get(jtj, a, b) / kernel_scale(pb);
                }
        } else {
            ok = 0;
        }
    }
    if (ok && jtj) {
        for (size_t k = 0; k < p; k++) {
            ls_law_param j = pb->free_params[k];
            out[j] = fabs(ls_law_param_natural_per_fitted(j, best->p[j])) * sqrt(cov[k * p + k]);
        }
        /* A tied parameter is its leader, in the covariance too. */
        int at[LS_LAW_NPARAMS];
        for (int j = 0; j < LS_LAW_NPARAMS; j++)
            at[j] = -1;
        for (size_t k = 0; k < p; k++)
            at[pb->free_params[k]] = (int)k;
        for (int j = 0; j < LS_LAW_NPARAMS; j++)
            if (pb->tied[j]) {
                out[j] = out[pb->tied[j] - 1];
                at[j] = at[pb->tied[j] - 1];
            }
        for (int a = 0; cov_out && a < LS_LAW_NPARAMS; a++)
            for (int b = 0; b < LS_LAW_NPARAMS; b++)
                if (at[a] >= 0 && at[b] >= 0)
                    cov_out[a * LS_LAW_NPARAMS + b] = cov[(size_t)at[a] * p + (size_t)at[b]];
    }
    gsl_matrix_free(jtj);
    solver_free(&s);
}

static double rmse_of(const prepared_data *d, const ls_law *l)
{
    ls_law_prepared prep;
    ls_law_prepare(&prep, l);
    ls_predict_acc acc; /* scaled: a loss near 1e300 has a representable RMSE */
    ls_predict_acc_init(&acc);
    for (size_t i = 0; i < d->n; i++)
        ls_predict_acc_add(&acc, d->loss[i], exp(ls_law_row_log_loss_grad(&prep, &d->rows[i], NULL)));
    return ls_predict_acc_value(&acc);
}

/* Fixed values the law cannot be evaluated at, whatever the free ones:
 * Ehat = 1 / (1/q + 1/E_max), q = E - 1 + 1/s, needs s = 1/E_start - 1/E_max
 * > 0, i.e. E_start < E_max.  With E_max free, the starts reach at most the
 * largest of its start grid, and a fixed E_start above that leaves no start
 * at which the law can be evaluated. */
static int check_fixed(ls_law_kind kind, const ls_fit_parameters *fp, ls_error *err)
{
    if (!ls_law_uses_param(kind, LS_LAW_P_E_START) || !fp->fixed[LS_LAW_P_E_START])
        return 0;
    double e_start = fp->fixed_value[LS_LAW_P_E_START];
    if (fp->fixed[LS_LAW_P_E_MAX]) {
        double e_max = fp->fixed_value[LS_LAW_P_E_MAX];
        if (!(e_start < e_max))
            return ls_error_set(err, LS_ERR_USAGE, "E_start = %g must be below E_max = %g: the gain of experts "
                                "starts at E_start and saturates at E_max", e_start, e_max);
        return 0;
    }
    const extra_start *x = &EXTRA_STARTS[LS_LAW_P_E_MAX];
    double top = x->grid[x->ngrid - 1];
    if (!(e_start < top))
        return ls_error_set(err, LS_ERR_USAGE, "E_start = %g must be below E_max, which the fit starts from at most "
                            "%g: fix E_max above E_start too", e_start, top);
    return 0;
}

/* ---- the fit, stage by stage ------------------------------------------------------ */

/* What ls_fit_run carries from one stage to the next.  Every pointer starts
 * NULL and is freed by fit_state_free, so each stage can simply return an
 * error and leave the cleanup to ls_fit_run's one exit path. */
typedef struct fit_state {
    const ls_sweep *s;
    ls_law_kind kind;
    const ls_fit_parameters *fp;
    ls_fit_result *out;
    ls_error *err;
    prepared_data d;     /* every run */
    prepared_data plain; /* the plain runs (R = 1, E = 1), when stage one fits those alone */
    problem pb;          /* the final problem: every free parameter, every run */
    problem stage1;      /* the free base parameters, the others held */
    unsigned char fixed[LS_LAW_NPARAMS];
    int has_extra;       /* free parameters beyond the base ones: two stages */
    double *starts1, *starts2;
    start_result *results1, *results2;
    size_t n1, n2;
    size_t grid2;        /* stage-two starts per stage-one seed */
    size_t seeds;        /* stage-one solutions stage two starts from */
    size_t total;        /* starts in both stages, for progress */
    start_result *final_results; /* the last stage's results */
    size_t nfinal;
} fit_state;

static void fit_state_free(fit_state *st)
{
    free(st->starts1);
    free(st->starts2);
    free(st->results1);
    free(st->results2);
    prepared_data_free(&st->plain);
    prepared_data_free(&st->d);
}

/* Check the options against each other and read the runs into rows the law
 * evaluates quickly (ln L beside L, for either space). */
static int fit_prepare(fit_state *st)
{
    if (check_fixed(st->kind, st->fp, st->err) != 0)
        return st->err->code;
    /* Every term but c is positive, so a law whose c is held at or above a
     * run's loss can never reach that run: a mistake in --fix, refused
     * rather than fitted to an RMSE of 97 and "converged". */
    if (ls_law_uses_param(st->kind, LS_LAW_P_C) && st->fp->fixed[LS_LAW_P_C] && st->s->n > 0) {
        size_t lowest = 0;
        for (size_t i = 1; i < st->s->n; i++)
            if (st->s->rows[i].loss < st->s->rows[lowest].loss)
                lowest = i;
        double c = st->fp->fixed_value[LS_LAW_P_C], min_loss = st->s->rows[lowest].loss;
        if (c >= min_loss)
            return ls_error_set(st->err, LS_ERR_USAGE, "c = %.10g is held at or above the lowest observed loss, %.10g "
                                "nats (%s, line %ld), which the law could then never reach", c, min_loss,
                                st->s->name, st->s->rows[lowest].line);
    }
    if (!(st->fp->huber_delta > 0))
        return ls_error_set(st->err, LS_ERR_USAGE, "the Huber delta must be positive");
    return prepare_data(st->s, &st->d, st->err);
}

int ls_fit_check_tie(ls_law_kind kind, const ls_fit_parameters *p, ls_law_param follower, ls_law_param leader, ls_error *err)
{
    const char *f = ls_law_param_name(follower), *l = ls_law_param_name(leader);
    if (!ls_law_uses_param(kind, follower) || !ls_law_uses_param(kind, leader)) {
        char name[64]; /* which law: holdout ties on every law it fits */
        ls_law_kind_format(kind, name, sizeof name);
        return ls_error_set(err, LS_ERR_USAGE, "cannot tie %s to %s: %s is not a parameter of the law %s", f, l,
                            ls_law_uses_param(kind, follower) ? l : f, name);
    }
    if (follower == leader)
        return ls_error_set(err, LS_ERR_USAGE, "cannot tie %s to itself", f);
    if (ls_law_param_transform(follower) != ls_law_param_transform(leader) || follower == LS_LAW_P_E_START ||
        leader == LS_LAW_P_E_START)
        return ls_error_set(err, LS_ERR_USAGE, "cannot tie %s to %s: they are not of one kind (two exponents, or "
                            "two positive coefficients)", f, l);
    if (p->fixed[follower] || p->fixed[leader])
        return ls_error_set(err, LS_ERR_USAGE, "cannot tie %s to %s: %s is held fixed (by --fix or --fix-from)", f, l,
                            p->fixed[follower] ? f : l);
    if (p->tied[leader])
        return ls_error_set(err, LS_ERR_USAGE, "cannot tie %s to %s: %s is itself tied to %s", f, l, l,
                            ls_law_param_name((ls_law_param)(p->tied[leader] - 1)));
    for (int j = 0; j < LS_LAW_NPARAMS; j++)
        if (p->tied[j] == (unsigned char)(follower + 1))
            return ls_error_set(err, LS_ERR_USAGE, "cannot tie %s to %s: %s is tied to %s", f, l,
                                ls_law_param_name((ls_law_param)j), f);
    return 0;
}

/* Decide what is held fixed: E_start (at 1, so that Ehat(1) = 1 and the
 * moe base reduces to dense at E = 1; docs/laws.md), --fix, and what the
 * data cannot identify, at its neutral value.  Refuses a fit with nothing
 * free or with fewer runs than free parameters. */
static int fit_hold_fixed(fit_state *st)
{
    const ls_fit_parameters *fp = st->fp;
    ls_fit_result *out = st->out;
    problem *pb = &st->pb;
    problem_init(pb, st->kind, &st->d, fp);
    find_unidentified(st->s, st->kind, out->unidentified);
    for (int j = 0; j < LS_LAW_NPARAMS; j++) {
        if (!ls_law_uses_param(st->kind, (ls_law_param)j))
            continue;
        if (fp->fixed[j]) {
            st->fixed[j] = 1;
            pb->held.p[j] = fp->fixed_value[j];
            out->unidentified[j] = 0;
        } else if (out->unidentified[j] || j == LS_LAW_P_E_START) {
            st->fixed[j] = 1;
        }
    }
    for (int j = 0; j < LS_LAW_NPARAMS; j++) {
        if (!fp->tied[j])
            continue;
        int status = ls_fit_check_tie(st->kind, fp, (ls_law_param)j, (ls_law_param)(fp->tied[j] - 1), st->err);
        if (status != 0)
            return status;
        int i = fp->tied[j] - 1;
        if (st->fixed[i] || st->fixed[j])
            return ls_error_set(st->err, LS_ERR_DATA, "cannot tie %s to %s: %s is held (%s)", ls_law_param_name(j),
                                ls_law_param_name(i), ls_law_param_name(st->fixed[i] ? i : j),
                                ls_fit_unidentified_reason(st->fixed[i] ? i : j));
    }
    problem_free_only(pb, st->fixed);
    memcpy(out->fixed, st->fixed, sizeof st->fixed);
    memcpy(out->tied, fp->tied, sizeof out->tied);
    out->n = st->d.n;
    out->nfree = pb->nfree;
    if (pb->nfree == 0)
        return ls_error_set(st->err, LS_ERR_USAGE, "every parameter is fixed; nothing to fit");
    if (st->d.n < pb->nfree)
        return ls_error_set(st->err, LS_ERR_DATA, "%s: %zu %s cannot determine %zu free %s", st->s->name,
                            st->s->n, ls_plural((double)st->s->n, "run", "runs"), pb->nfree,
                            ls_plural((double)pb->nfree, "parameter", "parameters"));
    return 0;
}

/* Stage one: the free base parameters from the Chinchilla grid or Sobol
 * points, the others held at typical values (or their fixed ones).  When
 * the sweep has enough plain runs (R = 1, E = 1), stage one fits those
 * alone: the extra parameters do not touch them, so they pin the base
 * parameters without the extra ones' guesses in the way.  Without extra
 * parameters this is the whole multi-start. */
static int fit_stage_one(fit_state *st)
{
    const ls_fit_parameters *fp = st->fp;
    const problem *pb = &st->pb;
    problem *stage1 = &st->stage1;
    *stage1 = *pb;
    unsigned char stage1_fixed[LS_LAW_NPARAMS];
    for (int j = 0; j < LS_LAW_NPARAMS; j++) {
        stage1_fixed[j] = st->fixed[j] || !is_base_param((ls_law_param)j);
        if (!st->fixed[j] && !st->pb.tied[j] && !is_base_param((ls_law_param)j) && ls_law_uses_param(st->kind, (ls_law_param)j)) {
            st->has_extra = 1;
            stage1->held.p[j] = EXTRA_STARTS[j].typical;
        }
    }
    if (st->has_extra && select_plain_rows(&st->d, &st->plain) >= STAGE_ONE_MIN_PLAIN_RUNS) {
        stage1->n = st->plain.n;
        stage1->rows = st->plain.rows;
        stage1->target = fp->space == LS_FIT_SPACE_LOG ? st->plain.log_loss : st->plain.loss;
    }
    problem_free_only(stage1, stage1_fixed);

    if (stage1->nfree > 0) {
        st->starts1 = base_starts(stage1, fp, &st->n1, st->err);
        if (!st->starts1)
            return st->err->code;
    } else {
        /* Every base parameter is fixed: stage two starts from the held values. */
        st->n1 = 1;
        st->starts1 = calloc(1, sizeof *st->starts1);
    }
    st->results1 = calloc(st->n1, sizeof *st->results1);
    if (!st->starts1 || !st->results1)
        return ls_error_set(st->err, LS_ERR_INTERNAL, "out of memory");

    /* Stage two's size is known before running stage one, for progress. */
    st->grid2 = 1;
    for (size_t k = 0; k < pb->nfree; k++)
        if (!is_base_param(pb->free_params[k]))
            st->grid2 *= EXTRA_STARTS[pb->free_params[k]].ngrid;
    st->seeds = st->has_extra ? (fp->stage_two_seeds ? fp->stage_two_seeds : 1) : 0;
    if (st->seeds > st->n1)
        st->seeds = st->n1;
    st->total = (stage1->nfree > 0 ? st->n1 : 0) + st->seeds * st->grid2;

    st->final_results = st->results1;
    st->nfinal = st->n1;
    if (stage1->nfree == 0)
        return 0;
    return run_starts(st->has_extra ? stage1 : pb, fp, st->starts1, st->n1, st->results1, 0, st->total, st->err);
}

/* Stage two, for laws with extra parameters: the best distinct stage-one
 * solutions, each crossed with the small grid over the extra parameters,
 * every parameter free and every run in. */
static int fit_stage_two(fit_state *st)
{
    if (!st->has_extra)
        return 0;
    const ls_fit_parameters *fp = st->fp;
    const problem *pb = &st->pb, *stage1 = &st->stage1;
    size_t n1 = st->n1, grid2 = st->grid2;
    const start_result **order = malloc(n1 * sizeof *order);
    st->n2 = st->seeds * grid2;
    st->starts2 = malloc(st->n2 * pb->nfree * sizeof *st->starts2);
    st->results2 = calloc(st->n2, sizeof *st->results2);
    if (!order || !st->starts2 || !st->results2) {
        free(order);
        return ls_error_set(st->err, LS_ERR_INTERNAL, "out of memory");
    }
    for (size_t i = 0; i < n1; i++)
        order[i] = &st->results1[i];
    if (stage1->nfree > 0)
        qsort(order, n1, sizeof *order, compare_results);
    size_t chosen = 0;
    const start_result *picked[64];
    for (size_t i = 0; i < n1 && chosen < st->seeds && chosen < 64; i++) {
        int duplicate = 0;
        for (size_t c = 0; c < chosen; c++)
            duplicate |= fabs(order[i]->objective - picked[c]->objective) <= fp->best_rtol * fabs(picked[c]->objective);
        if (!duplicate || stage1->nfree == 0)
            picked[chosen++] = order[i];
    }
    st->n2 = chosen * grid2;
    for (size_t c = 0; c < chosen; c++) {
        ls_law seed_law;
        law_from_fitted(stage1, picked[c]->u, &seed_law);
        for (size_t g = 0; g < grid2; g++) {
            double *u = st->starts2 + (c * grid2 + g) * pb->nfree;
            size_t rest = g;
            for (size_t k = 0; k < pb->nfree; k++) {
                ls_law_param j = pb->free_params[k];
                double value = seed_law.p[j];
                if (!is_base_param(j)) {
                    const extra_start *e = &EXTRA_STARTS[j];
                    value = e->grid[rest % e->ngrid];
                    rest /= e->ngrid;
                }
                u[k] = ls_law_param_to_fitted(j, value);
            }
        }
    }
    free(order);
    size_t done1 = stage1->nfree > 0 ? n1 : 0;
    st->final_results = st->results2;
    st->nfinal = st->n2;
    st->out->stage_one_starts = done1;
    return run_starts(pb, fp, st->starts2, st->n2, st->results2, done1, st->total, st->err);
}

/* Polish the best start to the step tolerance (the starts stop on the
 * objective; see solve_from) and keep it if it is no worse. */
static int fit_polish(fit_state *st, start_result *best)
{
    solver sv;
    if (solver_init(&sv, &st->pb, st->fp) != 0)
        return ls_error_set(st->err, LS_ERR_INTERNAL, "out of memory");
    start_result polished;
    solve_from(&sv, best->u, &polished, 1);
    solver_free(&sv);
    if (polished.converged && polished.objective <= best->objective) {
        polished.iterations += best->iterations;
        polished.newton_steps += best->newton_steps;
        *best = polished;
    }
    return 0;
}

/* The method string, built from the names of what ran: the steps (the
 * hybrid throughout for the plain dense law in log space, as solve_from
 * chooses; elsewhere first-order steps, with a Newton polish when the law
 * has an analytic Hessian) with the damping of the Levenberg-Marquardt
 * steps, the linear solver, the vectorised kernel when the problem went
 * through it (kernel_applies or mapped_applies), and where the starts came
 * from, e.g. "hybrid irls-lm/levenberg + newton, cholesky, kernel avx2;
 * sobol starts" or "irls-lm/levenberg + newton polish, cholesky, kernel
 * avx2; sobol starts + stage-two grid". */
static void fit_method(const fit_state *st, char *buf, size_t size)
{
    static const char *const scale_names[] = {"levenberg", "more", "marquardt"};
    int dense_kernel = kernel_applies(&st->pb);
    const char *kernel = dense_kernel || mapped_applies(&st->pb) ? ls_fit_kernel()->name : NULL;
    int hybrid = !st->fp->first_order && dense_kernel;
    int polish = !st->fp->first_order && !dense_kernel && ls_law_has_second(st->kind);
    snprintf(buf, size, "%sirls-lm/%s%s, cholesky%s%s; %s starts%s%s", hybrid ? "hybrid " : "",
             scale_names[st->fp->scale], hybrid ? " + newton" : polish ? " + newton polish" : "",
             kernel ? ", kernel " : "", kernel ? kernel : "", st->fp->grid_chinchilla ? "chinchilla-grid" : "sobol",
             st->has_extra ? " + stage-two grid" : "", plain_dense_applies(&st->pb) ? ", dead terms revived" : "");
}

/* Fill the result: the law at the best start, how many starts reached it,
 * RMSE in loss units, Jacobian standard errors and the method used. */
static int fit_summarise(fit_state *st, const start_result *best)
{
    const ls_fit_parameters *fp = st->fp;
    ls_fit_result *out = st->out;
    law_from_fitted(&st->pb, best->u, &out->law);
    out->objective = best->objective;
    out->converged = best->converged;
    out->iterations = best->iterations;
    out->starts = st->nfinal;
    for (size_t i = 0; i < st->nfinal; i++) {
        out->starts_converged += st->final_results[i].converged;
        if (st->final_results[i].objective <= best->objective + fp->best_rtol * fabs(best->objective))
            out->starts_at_best++;
    }
    /* Steps of every start of every stage (stage one's results are the
     * final ones when there is no stage two). */
    for (size_t i = 0; i < st->n1 && st->stage1.nfree > 0; i++) {
        out->steps += st->results1[i].iterations;
        out->newton_steps += st->results1[i].newton_steps;
    }
    for (size_t i = 0; i < st->n2; i++) {
        out->steps += st->results2[i].iterations;
        out->newton_steps += st->results2[i].newton_steps;
    }
    out->rmse = rmse_of(&st->d, &out->law);
    standard_errors(&st->pb, fp, best->u, &out->law, out->stderr_of, out->covariance, NULL);
    fit_method(st, out->method, sizeof out->method);
    if (!isfinite(out->objective))
        return ls_error_set(st->err, LS_ERR_NOCONV, "no start could evaluate the law on this sweep");
    return 0;
}

int ls_fit_run(const ls_sweep *s, ls_law_kind kind, const ls_fit_parameters *fp, ls_fit_result *out, ls_error *err)
{
    memset(out, 0, sizeof *out);
    fit_state st;
    memset(&st, 0, sizeof st);
    st.s = s;
    st.kind = kind;
    st.fp = fp;
    st.out = out;
    st.err = err;
    int status = fit_prepare(&st);
    if (status == 0)
        status = fit_hold_fixed(&st);
    if (status == 0)
        status = fit_stage_one(&st);
    if (status == 0)
        status = fit_stage_two(&st);
    if (status == 0) {
        start_result *best = &st.final_results[best_of(st.final_results, st.nfinal)];
        status = fit_polish(&st, best);
        if (status == 0)
            status = fit_summarise(&st, best);
    }
    fit_state_free(&st);
    return status;
}

double ls_fit_objective(const ls_sweep *s, const ls_law *l, const ls_fit_parameters *fp)
{
    ls_law_prepared prep;
    ls_law_prepare(&prep, l);
    double sum = 0.0;
    problem pb;
    memset(&pb, 0, sizeof pb);
    pb.loss = fp->loss;
    pb.delta = fp->huber_delta;
    for (size_t i = 0; i < s->n; i++) {
        const ls_sweep_row *r = &s->rows[i];
        ls_law_point x = ls_sweep_row_point(r);
        ls_law_row row;
        ls_law_row_init(&row, &x);
        double ln_pred = ls_law_row_log_loss_grad(&prep, &row, NULL);
        double res = fp->space == LS_FIT_SPACE_LOG ? ln_pred - log(r->loss) : exp(ln_pred) - r->loss;
        sum += objective_term(&pb, res);
    }
    return sum;
}

/* ---- bootstrap --------------------------------------------------------------------- */

typedef struct bootstrap_job {
    const problem *pb;        /* the full-data problem; weights per draw */
    const ls_fit_parameters *fp;
    const ls_sweep *s;
    const double *u_full;
    const unsigned char *loose; /* per free parameter: standard error of u above 1 */
    size_t perturbed;
    int by_group;
    double *draws;            /* ndraws x LS_LAW_NPARAMS */
    unsigned char *ok;        /* per draw */
} bootstrap_job;

/* One thread's bootstrap state: the draw's problem (the runs it drew, their
 * weights), a random stream reseeded per draw, and a solver. */
typedef struct bootstrap_thread {
    problem pb;
    double *weight, *drawn_weight, *sqrt_weight, *target;
    ls_law_row *rows;
    double *group_count;
    gsl_rng *rng;
    solver s;
    int has_solver;
} bootstrap_thread;

static void bootstrap_end(void *context, void *state)
{
    (void)context;
    bootstrap_thread *t = state;
    if (!t)
        return;
    if (t->has_solver)
        solver_free(&t->s);
    free(t->weight);
    free(t->drawn_weight);
    free(t->sqrt_weight);
    free(t->target);
    free(t->rows);
    free(t->group_count);
    gsl_rng_free(t->rng);
    free(t);
}

static int bootstrap_begin(void *context, void **state)
{
    const bootstrap_job *job = context;
    const problem *full = job->pb;
    size_t n = full->n;
    bootstrap_thread *t = calloc(1, sizeof *t);
    if (!t)
        return -1;
    t->pb = *full;
    /* Each draw fits only the runs it drew (about 63% of them), in their
     * order: a run left out would only add exact zeros to every sum the
     * solver forms (the objective, g, M, H), so the fit is the same, bit
     * for bit, on fewer rows. */
    t->weight = calloc(n, sizeof *t->weight);
    t->drawn_weight = calloc(n, sizeof *t->drawn_weight);
    t->sqrt_weight = calloc(n, sizeof *t->sqrt_weight);
    t->target = calloc(n, sizeof *t->target);
    t->rows = calloc(n, sizeof *t->rows);
    t->group_count = job->by_group ? calloc(job->s->ngroups ? job->s->ngroups : 1, sizeof *t->group_count) : NULL;
    t->rng = gsl_rng_alloc(gsl_rng_mt19937);
    t->pb.weight = t->drawn_weight;
    t->pb.sqrt_weight = t->sqrt_weight;
    t->pb.target = t->target;
    /* The solver is made for the full problem's rows (which decide whether
     * the kernel applies, and size its arrays); each draw then fits a
     * subset of them. */
    int ready = t->weight && t->drawn_weight && t->sqrt_weight && t->target && t->rows && t->rng &&
                (!job->by_group || t->group_count);
    if (ready && solver_init(&t->s, &t->pb, job->fp) == 0)
        t->has_solver = 1;
    t->pb.rows = t->rows;
    if (!t->has_solver) {
        bootstrap_end(context, t);
        return -1;
    }
    *state = t;
    return 0;
}

/* Draw i: resample, fit from the full fit and perturbed starts, keep the best. */
static int bootstrap_item(void *context, void *state, size_t i)
{
    const bootstrap_job *job = context;
    bootstrap_thread *t = state;
    const problem *full = job->pb;
    size_t n = full->n, p = full->nfree;
    double *weight = t->weight;
    /* Draw i's own stream: the same draws whatever the threads. */
    gsl_rng_set(t->rng, job->fp->seed * 2654435761UL + i + 1);
    memset(weight, 0, n * sizeof *weight);
    if (job->by_group) {
        size_t g = job->s->ngroups;
        memset(t->group_count, 0, g * sizeof *t->group_count);
        for (size_t k = 0; k < g; k++)
            t->group_count[gsl_rng_uniform_int(t->rng, g)] += 1.0;
        for (size_t r = 0; r < n; r++)
            weight[r] = t->group_count[job->s->rows[r].group];
    } else {
        for (size_t k = 0; k < n; k++)
            weight[gsl_rng_uniform_int(t->rng, n)] += 1.0;
    }
    /* A draw of fewer distinct runs than parameters keeps every run
     * (those left out with weight 0, still exact zeros in every sum). */
    size_t drawn = 0;
    for (size_t r = 0; r < n; r++)
        drawn += weight[r] != 0.0;
    size_t m = 0;
    for (size_t r = 0; r < n; r++) {
        if (weight[r] == 0.0 && drawn >= p)
            continue;
        t->rows[m] = full->rows[r];
        t->target[m] = full->target[r];
        t->drawn_weight[m] = weight[r];
        t->sqrt_weight[m] = sqrt(weight[r]);
        m++;
    }
    t->pb.n = m;
    start_result best, trial;
    solve_from(&t->s, job->u_full, &best, 0);
    for (size_t attempt = 0; attempt < job->perturbed; attempt++) {
        /* Perturbed by about 10%; a parameter the data leaves loose
         * (its log known to worse than a factor e) restarts from the
         * stage-two grid instead, since a nudge along a flat direction
         * goes nowhere (E_max on a sweep with E <= 16). */
        double u[LS_LAW_NPARAMS];
        for (size_t k = 0; k < p; k++) {
            ls_law_param j = full->free_params[k];
            const extra_start *e = &EXTRA_STARTS[j];
            if (job->loose[k] && e->ngrid > 0) {
                u[k] = ls_law_param_to_fitted(j, e->grid[attempt % e->ngrid]);
                continue;
            }
            double spread = ls_law_param_transform(j) == LS_LAW_TRANSFORM_IDENTITY
                                ? 0.1 * fmax(fabs(job->u_full[k]), 0.01)
                                : 0.1;
            u[k] = job->u_full[k] + gsl_ran_gaussian_ziggurat(t->rng, spread);
        }
        solve_from(&t->s, u, &trial, 0);
        if (trial.converged && (!best.converged || trial.objective < best.objective))
            best = trial;
    }
    ls_law l;
    law_from_fitted(full, best.u, &l);
    memcpy(job->draws + i * LS_LAW_NPARAMS, l.p, sizeof l.p);
    /* 1 kept, 0 not converged, 2 + j outside parameter j's domain. */
    ls_error scratch;
    ls_law_param which = LS_LAW_P_A;
    if (!best.converged)
        job->ok[i] = 0;
    else if (ls_law_check_params(&l, &which, &scratch) != 0)
        job->ok[i] = (unsigned char)(2 + which);
    else
        job->ok[i] = 1;
    return 0;
}

static void bootstrap_progress(void *context, size_t done, size_t total)
{
    const bootstrap_job *job = context;
    job->fp->progress(job->fp->progress_context, done, total);
}

void ls_fit_bootstrap_free(ls_fit_bootstrap *b)
{
    if (!b)
        return;
    free(b->draws);
    b->draws = NULL;
    b->ndraws = 0;
}

int ls_fit_run_bootstrap(const ls_sweep *s, const ls_fit_result *full, const ls_fit_parameters *fp, size_t ndraws,
                      size_t perturbed, int by_group, double level, ls_fit_bootstrap *out, ls_error *err)
{
    memset(out, 0, sizeof *out);
    out->level = level;
    for (int j = 0; j < LS_LAW_NPARAMS; j++)
        out->ci_low[j] = out->ci_high[j] = NAN;
    if (!(level > 0 && level < 1))
        return ls_error_set(err, LS_ERR_USAGE, "the interval level must be between 0 and 1");
    if (by_group && s->ngroups < 2)
        return ls_error_set(err, LS_ERR_DATA, "%s: resampling groups needs at least 2 groups", s->name);
    if (ndraws == 0)
        return 0;
    prepared_data d;
    int status = prepare_data(s, &d, err);
    if (status != 0)
        return status;
    problem pb;
    problem_init(&pb, full->law.kind, &d, fp);
    pb.held = full->law;
    memcpy(pb.tied, full->tied, sizeof pb.tied);
    problem_free_only(&pb, full->fixed);
    double u_full[LS_LAW_NPARAMS];
    for (size_t k = 0; k < pb.nfree; k++)
        u_full[k] = ls_law_param_to_fitted(pb.free_params[k], full->law.p[pb.free_params[k]]);

    unsigned char loose[LS_LAW_NPARAMS] = {0};
    for (size_t k = 0; k < pb.nfree; k++) {
        ls_law_param j = pb.free_params[k];
        double value = full->law.p[j];
        double dp_du = ls_law_param_natural_per_fitted(j, value);
        loose[k] = !(full->stderr_of[j] / fabs(dp_du) <= 1.0);
    }
    bootstrap_job job = {&pb, fp, s, u_full, loose, perturbed, by_group, NULL, NULL};
    job.draws = malloc(ndraws * LS_LAW_NPARAMS * sizeof *job.draws);
    job.ok = calloc(ndraws, 1);
    double *column = malloc(ndraws * sizeof *column);
    if (!job.draws || !job.ok || !column)
        status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    if (status == 0) {
        ls_parallel_job pj = {ndraws, fp->threads, &job, bootstrap_begin, bootstrap_end, bootstrap_item,
                              fp->progress ? bootstrap_progress : NULL};
        if (ls_parallel_for(&pj) != 0)
            status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory for the bootstrap");
    }
    if (status == 0) {
        /* Keep the converged draws inside the domain, in draw order. */
        size_t kept = 0, outside = 0;
        for (size_t i = 0; i < ndraws; i++) {
            if (job.ok[i] >= 2) {
                out->outside_of[job.ok[i] - 2]++;
                outside++;
            }
            if (job.ok[i] != 1)
                continue;
            memmove(job.draws + kept * LS_LAW_NPARAMS, job.draws + i * LS_LAW_NPARAMS, LS_LAW_NPARAMS * sizeof *job.draws);
            kept++;
        }
        out->ndraws = kept;
        out->outside = outside;
        out->failed = ndraws - kept - outside;
        out->draws = job.draws;
        job.draws = NULL;
        double tail = (1.0 - level) / 2.0;
        for (size_t k = 0; k < pb.nfree && kept >= LS_FIT_MIN_INTERVAL_DRAWS; k++) {
            ls_law_param j = pb.free_params[k];
            for (size_t i = 0; i < kept; i++)
                column[i] = out->draws[i * LS_LAW_NPARAMS + j];
            gsl_sort(column, 1, kept);
            out->ci_low[j] = gsl_stats_quantile_from_sorted_data(column, 1, kept, tail);
            out->ci_high[j] = gsl_stats_quantile_from_sorted_data(column, 1, kept, 1.0 - tail);
        }
        for (int j = 0; j < LS_LAW_NPARAMS && kept > 0; j++)
            if (pb.tied[j]) {
                out->ci_low[j] = out->ci_low[pb.tied[j] - 1];
                out->ci_high[j] = out->ci_high[pb.tied[j] - 1];
            }
    }
    free(job.draws);
    free(job.ok);
    free(column);
    prepared_data_free(&d);
    return status;
}

/* ---- profile intervals ---------------------------------------------------------------- */

typedef struct profile_state {
    problem held;           /* the full problem less parameter j, which is held */
    solver sv;
    ls_law_param j;
    double f_min, scale;    /* deviance = scale (F - f_min) */
    double others[PMAX];    /* the other coordinates at the last point (continuation) */
    size_t refits;
} profile_state;

/* The objective at u, the kernel's copies of the rows loaded first. */
static double objective_at(solver *s, const double *u)
{
    if (s->kernel)
        kernel_load_rows(s);
    if (s->mapped)
        mapped_load_rows(s);
    return trial_at(s, u);
}

/* The scaled deviance at u_j = x, refitting the others from the last
 * point's; +inf where the law cannot be evaluated or the refit fails. */
static double profile_deviance(profile_state *ps, double x)
{
    ls_law_param j = ps->j;
    ls_error scratch;
    double value = ls_law_param_from_fitted(j, x);
    if (ls_law_param_check(j, value, &scratch) != 0)
        return INFINITY;
    ps->held.held.p[j] = value;
    ps->refits++;
    double F;
    if (ps->held.nfree == 0) {
        F = objective_at(&ps->sv, ps->others);
    } else {
        start_result res;
        solve_from(&ps->sv, ps->others, &res, 1);
        if (!res.converged || !isfinite(res.objective))
            return INFINITY;
        memcpy(ps->others, res.u, ps->held.nfree * sizeof *res.u);
        F = res.objective;
    }
    return ps->scale * fmax(F - ps->f_min, 0.0);
}

/* One end of the interval: from the optimum u_hat along `dir`, in steps of
 * se that double, until the deviance passes q; then the crossing of
 * sqrt(deviance) (nearly linear in u near a regular optimum) by regula
 * falsi.  Sets *end and returns 1 when it was found, 0 when the profile
 * stayed below q out to LS_FIT_PROFILE_REACH standard errors or to where
 * the law cannot be evaluated (*end: the last point inside). */
static int profile_side(profile_state *ps, const double *others0, double u_hat, double se, double dir, double q,
                        double *end)
{
    memcpy(ps->others, others0, ps->held.nfree * sizeof *others0);
    double in = u_hat, din = 0.0, step = 0.5 * se;
    double in_others[PMAX];
    memcpy(in_others, others0, ps->held.nfree * sizeof *others0);
    for (;;) {
        double x = u_hat + dir * step;
        double d = profile_deviance(ps, x);
        if (!isfinite(d)) {
            *end = in;
            return 0;
        }
        if (d >= q) {
            double out = x, dout = d;
            for (int it = 0; it < 40 && fabs(out - in) > 1e-6 * se; it++) {
                double a = sqrt(din), b = sqrt(dout), t = (sqrt(q) - a) / (b - a);
                t = fmin(fmax(t, 0.05), 0.95); /* keep the bracket shrinking */
                double mid = in + t * (out - in);
                memcpy(ps->others, in_others, ps->held.nfree * sizeof *in_others);
                double dm = profile_deviance(ps, mid);
                if (!isfinite(dm) || dm >= q) {
                    out = mid;
                    dout = isfinite(dm) ? dm : dout;
                } else {
                    in = mid;
                    din = dm;
                    memcpy(in_others, ps->others, ps->held.nfree * sizeof *in_others);
                }
            }
            *end = in + (out - in) * (sqrt(q) - sqrt(din)) / (sqrt(dout) - sqrt(din));
            return 1;
        }
        in = x;
        din = d;
        memcpy(in_others, ps->others, ps->held.nfree * sizeof *in_others);
        if (step >= LS_FIT_PROFILE_REACH * se) {
            *end = in;
            return 0;
        }
        step *= 2.0;
    }
}

int ls_fit_profile_interval(const ls_sweep *s, const ls_fit_result *r, const ls_fit_parameters *fp, ls_law_param j,
                            double level, ls_fit_profile *out, ls_error *err)
{
    memset(out, 0, sizeof *out);
    out->param = j;
    out->level = level;
    out->low = out->high = out->calibration = NAN;
    if (!(level > 0 && level < 1))
        return ls_error_set(err, LS_ERR_USAGE, "the interval level must be between 0 and 1 (got %g)", level);
    if ((unsigned)j >= LS_LAW_NPARAMS || !ls_law_uses_param(r->law.kind, j))
        return ls_error_set(err, LS_ERR_USAGE, "the law has no parameter %s",
                            (unsigned)j < LS_LAW_NPARAMS ? ls_law_param_name(j) : "of that number");
    if (r->fixed[j] || r->tied[j])
        return ls_error_set(err, LS_ERR_USAGE, "%s was not fitted (%s): it has no interval", ls_law_param_name(j),
                            r->fixed[j] ? "held" : "tied");
    prepared_data d;
    int status = prepare_data(s, &d, err);
    if (status != 0)
        return status;
    problem pb;
    problem_init(&pb, r->law.kind, &d, fp);
    pb.held = r->law;
    memcpy(pb.tied, r->tied, sizeof pb.tied);
    problem_free_only(&pb, r->fixed);
    size_t p = pb.nfree, k = 0;
    while (k < p && pb.free_params[k] != j)
        k++;
    double u_full[PMAX], se[LS_LAW_NPARAMS], cov[LS_LAW_NPARAMS * LS_LAW_NPARAMS], hinv[PMAX * PMAX];
    for (size_t m = 0; m < p; m++)
        u_full[m] = ls_law_param_to_fitted(pb.free_params[m], r->law.p[pb.free_params[m]]);
    for (size_t m = 0; m < PMAX * PMAX; m++)
        hinv[m] = NAN;
    standard_errors(&pb, fp, u_full, &r->law, se, cov, hinv);
    double v = cov[j * LS_LAW_NPARAMS + j], h = k < p ? hinv[k * p + k] : NAN;
    if (!(v > 0) || !(h > 0)) {
        prepared_data_free(&d);
        return ls_error_set(err, LS_ERR_NOCONV, "%s has no standard error: the runs cannot tell the parameters apart",
                            ls_law_param_name(j));
    }
    /* The calibration: near the optimum F_prof - F_min ~ (u - u_hat)^2 /
     * (2 [H^-1]_jj) with H the objective's curvature, so scaled by
     * 2 [H^-1]_jj / V_jj the deviance is (u - u_hat)^2 / V_jj there, chi^2
     * with one degree of freedom by the sandwich's variance; away from the
     * optimum it follows the objective. */
    profile_state ps;
    memset(&ps, 0, sizeof ps);
    ps.held = pb;
    ps.j = j;
    ps.held.nfree = 0;
    double others0[PMAX];
    for (size_t m = 0; m < p; m++)
        if (m != k) {
            others0[ps.held.nfree] = u_full[m];
            ps.held.free_params[ps.held.nfree++] = pb.free_params[m];
        }
    ps.scale = 2.0 * h / v;
    out->calibration = ps.scale;
    if (solver_init(&ps.sv, &ps.held, fp) != 0) {
        prepared_data_free(&d);
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    }
    {
        solver full;
        if (solver_init(&full, &pb, fp) != 0) {
            solver_free(&ps.sv);
            prepared_data_free(&d);
            return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        }
        ps.f_min = objective_at(&full, u_full);
        solver_free(&full);
    }
    double z = gsl_cdf_ugaussian_Pinv(0.5 + level / 2.0), q = z * z, u_hat = u_full[k], lo, hi;
    out->closed_low = profile_side(&ps, others0, u_hat, sqrt(v), -1.0, q, &lo);
    out->closed_high = profile_side(&ps, others0, u_hat, sqrt(v), 1.0, q, &hi);
    out->low = ls_law_param_from_fitted(j, lo);
    out->high = ls_law_param_from_fitted(j, hi);
    out->refits = ps.refits;
    solver_free(&ps.sv);
    prepared_data_free(&d);
    return 0;
}
