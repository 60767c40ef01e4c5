/*
 * bench/fit_gsl_driver.c — the Chinchilla grid fit of bench_fit_chinchilla
 * (Epoch AI's 240 points, the 4,500-start grid) solved by GSL's own
 * nonlinear least-squares driver instead of fit.c's plain loop, with fit.c's
 * hybrid step as a custom trust-region subproblem.  A measurement, not a
 * design: docs/fitting.md ("Why not GSL's driver") and docs/performance.md
 * compare the two.  Prints one JSON line like bench_fit_chinchilla's.
 *
 *     bench_fit_gsl_driver PATH/TO/svg_extracted_data.csv [THREADS] [--ftol]
 *
 * The driver is gsl_multilarge_nlinear (trust region, Levenberg scaling,
 * its Cholesky solver selected only so that it hands the model matrix to
 * the subproblem).  It minimises 1/2 ||f||^2 with the square-root residual
 * f_i = sign(r_i) sqrt(2 w_i huber(r_i)), so 1/2 ||f||^2 is fit.c's
 * objective F and J_f' f its gradient g.  The residual callback runs the
 * kernel's trial pass; the Jacobian callback returns g and, as "J'J",
 * IRLS's model M from the kernel's sums at that point.  The subproblem
 * (hybrid_trs below) takes Newton's step on the exact Hessian H when H is
 * positive definite and no coordinate moves more than 1, once per point,
 * else the Levenberg-Marquardt step (M + mu I) s = -g with the driver's mu.
 * Each start first revives its dead terms as fit.c's starts do
 * (revive_start below, fit.c's revive_dead_terms), so that both begin
 * their steps from the same points; the driver's damping is its own.
 *
 * GSL 2.7's driver stops on xtol and gtol only (its ftol test is compiled
 * out).  With --ftol the starts instead run through
 * gsl_multilarge_nlinear_iterate and also stop, as fit.c's do, after two
 * steps in a row that lower F by less than ftol relative; the best start is
 * then polished by the driver to xtol/gtol.
 */
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <gsl/gsl_errno.h>
#include <gsl/gsl_multilarge_nlinear.h>

#include "chinchilla_bench.h"
#include "fit_kernel_internal.h"
#include "loopscale/law.h"
#include "loopscale/sweep.h"

/* fit.c's defaults (ls_fit_default_parameters), its Newton radius, and a
 * maximum of 200 steps per start. */
#define XTOL 1e-10
#define GTOL 1e-12
#define FTOL 1e-10
#define HUBER_DELTA 1e-3
#define BEST_RTOL 1e-6
#define NEWTON_RADIUS 1.0
#define MAX_STEPS 200
#define NPAR 5

/* ---- the data ---------------------------------------------------------------------- */

/* The runs as the kernel reads them (fit.c's kernel_load_rows). */
typedef struct runs {
    size_t n;
    double *ln_n, *ln_d, *target, *weight, *inv_weight;
} runs;

static int runs_from_sweep(const ls_sweep *s, runs *out)
{
    size_t n = s->n;
    double *all = malloc(5 * n * sizeof *all);
    if (!all)
        return -1;
    *out = (runs){.n = n,
                  .ln_n = all,
                  .ln_d = all + n,
                  .target = all + 2 * n,
                  .weight = all + 3 * n,
                  .inv_weight = all + 4 * n};
    for (size_t i = 0; i < n; i++) {
        ls_law_point x = ls_sweep_row_point(&s->rows[i]);
        ls_law_row row;
        ls_law_row_init(&row, &x);
        out->ln_n[i] = row.ln_n_act;
        out->ln_d[i] = row.ln_d;
        out->target[i] = log(s->rows[i].loss);
        out->weight[i] = 1.0;
        out->inv_weight[i] = 1.0;
    }
    return 0;
}

/* ---- the starts: fit.c's Chinchilla grid ------------------------------------------ */

/* In fitted coordinates u = (ln A, alpha, ln B, beta, ln c), in Epoch's
 * nesting (the last axis fastest), as fit.c's base_starts lays them out. */
static const double GRID_AB[] = {0, 5, 10, 15, 20, 25};
static const double GRID_ALPHA_BETA[] = {0, 0.5, 1, 1.5, 2};
static const double GRID_E[] = {-1, -0.5, 0, 0.5, 1};

static size_t grid_starts(double **out)
{
    const double *axis[NPAR] = {GRID_AB, GRID_ALPHA_BETA, GRID_AB, GRID_ALPHA_BETA, GRID_E};
    const size_t len[NPAR] = {6, 5, 6, 5, 5};
    size_t n = 1;
    for (int k = 0; k < NPAR; k++)
        n *= len[k];
    double *u = malloc(n * NPAR * sizeof *u);
    if (!u)
        return 0;
    for (size_t i = 0; i < n; i++) {
        size_t rest = i;
        for (int k = NPAR; k-- > 0;) {
            u[i * NPAR + k] = axis[k][rest % len[k]];
            rest /= len[k];
        }
    }
    *out = u;
    return n;
}

/* ---- the problem as GSL sees it ---------------------------------------------------- */

/* One thread's problem: the kernel's rows and the models at the point of
 * the last trial pass, formed once per point. */
typedef struct problem {
    const ls_kernel *kernel;
    ls_dense_rows rows;
    const double *inv_weight; /* 1 / w_i */
    double x[NPAR];  /* the point of the last trial pass */
    double F;        /* the objective there (+inf: not evaluable) */
    int have_models; /* g, M, H below are at x */
    double g[NPAR], M[NPAR * NPAR], H[NPAR * NPAR];
    struct hybrid_state *trs; /* its subproblem's state (Newton's steps counted there) */
} problem;

/* theta as fit.c forms it from u (through the law's natural parameters,
 * so the kernel sees the same bits). */
static int theta_of(const double *u, double theta[NPAR])
{
    double a = exp(u[0]), b = exp(u[2]), c = exp(u[4]);
    if (!isfinite(a) || !isfinite(b) || !isfinite(c) || !isfinite(u[1]) || !isfinite(u[3]))
        return -1;
    theta[0] = log(a);
    theta[1] = u[1];
    theta[2] = log(b);
    theta[3] = u[3];
    theta[4] = log(c);
    return 0;
}

static void trial_at(problem *pb, const double *u)
{
    double theta[NPAR];
    memcpy(pb->x, u, sizeof pb->x);
    pb->have_models = 0;
    pb->F = INFINITY;
    if (theta_of(u, theta) == 0) {
        double F = pb->kernel->trial(&pb->rows, theta, HUBER_DELTA, 1.0);
        pb->F = isfinite(F) ? F : INFINITY;
    }
}

/* The models at u: the kernel's sums when u was the last point tried
 * (the driver evaluates f at every point it moves to), else a new pass. */
static int models_at(problem *pb, const double *u)
{
    if (memcmp(pb->x, u, sizeof pb->x) != 0)
        trial_at(pb, u);
    if (!isfinite(pb->F))
        return -1;
    if (!pb->have_models) {
        pb->kernel->sums(&pb->rows, pb->g, pb->M, pb->H);
        pb->have_models = 1;
    }
    return 0;
}

/* fit.c's revive_dead_terms (DEAD_SHARE 1e-2, REVIVE_SHARE 0.5): a term
 * whose largest share is below 1e-2 and whose slope along its amplitude is
 * negative is raised by the shift that gives its largest share 0.5, halved
 * down to 1 until F falls.  u[0], u[2] and u[4] are ln A, ln B and ln c.
 * (fit.c's level move, for losses on another scale, never applies to these
 * points in nats.) */
static void revive_start(problem *pb, double u[NPAR])
{
    trial_at(pb, u);
    size_t n = pb->rows.n;
    for (size_t term = 0; term < 3 && isfinite(pb->F); term++) {
        const double *share = ls_dense_share(&pb->rows, term), *psi = ls_dense_weighted_psi(&pb->rows);
        double largest = 0.0, slope = 0.0, F = pb->F, trial[NPAR];
        for (size_t i = 0; i < n; i++) {
            largest = share[i] > largest ? share[i] : largest;
            slope += psi[i] * share[i];
        }
        if (!(largest < 1e-2) || !(slope < 0.0))
            continue;
        memcpy(trial, u, sizeof trial);
        double t = largest > 0.0 ? fmin(log(0.5 / largest), 700.0) : 700.0;
        for (; t >= 1.0; t *= 0.5) {
            trial[2 * term] = u[2 * term] + t;
            trial_at(pb, trial);
            if (pb->F < F) {
                u[2 * term] = trial[2 * term];
                break;
            }
        }
        if (t < 1.0)
            trial_at(pb, u);
    }
}

static void vector_to(const gsl_vector *v, double *out)
{
    for (size_t k = 0; k < v->size; k++)
        out[k] = gsl_vector_get(v, k);
}

/* f_i = sign(r_i) sqrt(2 w_i huber(r_i)).  The trial pass keeps, per run,
 * P = w psi(r) and C1 = w (psi(r)/r - psi(r)), from which huber(r) comes
 * back without another exp or log pass: psi^2 / 2 inside Huber's quadratic
 * branch (|P| < w delta), delta (|r| - delta / 2) outside it, where |r| =
 * w delta / (C1 + P).  Branch-free, one division and one square root per
 * run, so that the loop vectorises (the file is built with the kernel's
 * flags): this pass is work the driver needs and the plain loop does not,
 * and it should cost no more than it must. */
static int residual_f(const gsl_vector *x, void *params, gsl_vector *f)
{
    problem *pb = params;
    double u[NPAR];
    vector_to(x, u);
    trial_at(pb, u);
    size_t n = pb->rows.n;
    if (!isfinite(pb->F) || f->stride != 1) {
        /* Not evaluable: a residual so large the driver rejects the step
         * (an infinite one would make its reduction ratio NaN, accepted). */
        gsl_vector_set_zero(f);
        gsl_vector_set(f, 0, 1e150);
        return isfinite(pb->F) ? GSL_EBADLEN : GSL_SUCCESS;
    }
    const double *restrict P = pb->rows.scratch + 3 * n, *restrict C1 = P + n;
    const double *restrict wt = pb->rows.weight, *restrict inv_w = pb->inv_weight;
    double *restrict out = f->data;
#pragma omp simd
    for (size_t i = 0; i < n; i++) {
        double w = wt[i], p = P[i];
        double outside = 2.0 * w * HUBER_DELTA * (w * HUBER_DELTA / (C1[i] + p) - 0.5 * HUBER_DELTA);
        double twice_wh = fabs(p) < w * HUBER_DELTA ? p * p * inv_w[i] : outside;
        out[i] = copysign(sqrt(twice_wh), p);
    }
    return GSL_SUCCESS;
}

/* The driver asks only for J' f (u = f, after f at x) and "J'J": g and M. */
static int jacobian_df(CBLAS_TRANSPOSE_t trans, const gsl_vector *x, const gsl_vector *u, void *params,
                       gsl_vector *v, gsl_matrix *JTJ)
{
    problem *pb = params;
    (void)u;
    if (trans != CblasTrans)
        return GSL_EINVAL;
    double at[NPAR];
    vector_to(x, at);
    if (models_at(pb, at) != 0)
        return GSL_EDOM;
    for (size_t a = 0; v && a < NPAR; a++)
        gsl_vector_set(v, a, pb->g[a]);
    for (size_t a = 0; JTJ && a < NPAR; a++)
        for (size_t b = 0; b < NPAR; b++)
            gsl_matrix_set(JTJ, a, b, pb->M[a * NPAR + b]);
    return GSL_SUCCESS;
}

/* ---- the subproblem: fit.c's hybrid step ------------------------------------------- */

/* Solve (A + lambda I) x = -g by Cholesky; -1 when not positive definite. */
static int cholesky_step(const double *A, double lambda, const double *g, double *x)
{
    double L[NPAR * NPAR] = {0}, y[NPAR];
    for (int a = 0; a < NPAR; a++)
        for (int b = 0; b <= a; b++) {
            double v = A[a * NPAR + b] + (a == b ? lambda : 0.0);
            for (int k = 0; k < b; k++)
                v -= L[a * NPAR + k] * L[b * NPAR + k];
            if (a != b) {
                L[a * NPAR + b] = v / L[b * NPAR + b];
            } else if (v > 0.0 && isfinite(v)) {
                L[a * NPAR + a] = sqrt(v);
            } else {
                return -1;
            }
        }
    for (int a = 0; a < NPAR; a++) {
        double v = -g[a];
        for (int k = 0; k < a; k++)
            v -= L[a * NPAR + k] * y[k];
        y[a] = v / L[a * NPAR + a];
    }
    for (int a = NPAR; a-- > 0;) {
        double v = y[a];
        for (int k = a + 1; k < NPAR; k++)
            v -= L[k * NPAR + a] * x[k];
        x[a] = v / L[a * NPAR + a];
    }
    return 0;
}

/* -(g's + s'As/2): the decrease the quadratic model A predicts for s. */
static double predicted_decrease(const double *A, const double *g, const double *s)
{
    double lin = 0.0, quad = 0.0;
    for (int a = 0; a < NPAR; a++) {
        double row = 0.0;
        for (int b = 0; b < NPAR; b++)
            row += A[a * NPAR + b] * s[b];
        lin += g[a] * s[a];
        quad += s[a] * row;
    }
    return -(lin + 0.5 * quad);
}

/* The subproblem's state: the models at the driver's current point
 * (copied in preloop: the problem's own copy moves on to each trial
 * point), whether Newton's step was tried there (once rejected, the next
 * try is damped) and whether the last step was Newton's, so that the
 * predicted decrease is that of the model the step used. */
typedef struct hybrid_state {
    problem *pb;
    double F, g[NPAR], M[NPAR * NPAR], H[NPAR * NPAR];
    int started, newton_tried, last_newton;
    size_t newton_steps;
} hybrid_state;

/* The driver's trs has no user pointer: each thread's problem reaches its
 * subproblem through this thread-local slot, set before the workspace's
 * alloc. */
static _Thread_local problem *current_problem;

static void *hybrid_alloc(const void *params, const size_t n, const size_t p)
{
    (void)params;
    (void)n;
    if (p != NPAR)
        return NULL;
    hybrid_state *st = calloc(1, sizeof *st);
    if (st) {
        st->pb = current_problem;
        current_problem->trs = st;
    }
    return st;
}

static int hybrid_init(const void *vtrust, void *vstate)
{
    (void)vtrust;
    hybrid_state *st = vstate;
    st->started = 0;
    st->last_newton = 0;
    st->newton_steps = 0;
    return GSL_SUCCESS;
}

static int hybrid_preloop(const void *vtrust, void *vstate)
{
    const gsl_multilarge_nlinear_trust_state *ts = vtrust;
    hybrid_state *st = vstate;
    problem *pb = st->pb;
    double u[NPAR];
    vector_to(ts->x, u);
    /* The previous iteration ended on an accepted step: count Newton's. */
    st->newton_steps += st->started && st->last_newton;
    st->started = 1;
    st->newton_tried = 0;
    st->last_newton = 0;
    if (models_at(pb, u) != 0)
        return GSL_EDOM;
    st->F = pb->F;
    memcpy(st->g, pb->g, sizeof st->g);
    memcpy(st->M, pb->M, sizeof st->M);
    memcpy(st->H, pb->H, sizeof st->H);
    return GSL_SUCCESS;
}

static int hybrid_step(const void *vtrust, const double delta, gsl_vector *dx, void *vstate)
{
    const gsl_multilarge_nlinear_trust_state *ts = vtrust;
    hybrid_state *st = vstate;
    double s[NPAR];
    (void)delta; /* the damping mu, not the radius, bounds the step */
    st->last_newton = 0;
    if (!st->newton_tried) {
        st->newton_tried = 1;
        if (cholesky_step(st->H, 0.0, st->g, s) == 0) {
            int plausible = 1;
            for (int k = 0; k < NPAR; k++)
                plausible &= fabs(s[k]) <= NEWTON_RADIUS;
            st->last_newton = plausible;
        }
    }
    /* Levenberg scaling: D = I, so (M + mu I) s = -g. */
    if (!st->last_newton && cholesky_step(st->M, *ts->mu, st->g, s) != 0)
        return GSL_EDOM;
    for (int k = 0; k < NPAR; k++)
        gsl_vector_set(dx, k, s[k]);
    return GSL_SUCCESS;
}

/* The driver's rho divides 1 - ||f+||^2 / ||f||^2 = (F - F+) / F by this:
 * the decrease of F that the step's model (H for Newton's step, M for the
 * damped one, as fit.c) predicts, relative to F. */
static int hybrid_preduction(const void *vtrust, const gsl_vector *dx, double *pred, void *vstate)
{
    (void)vtrust;
    const hybrid_state *st = vstate;
    double s[NPAR];
    vector_to(dx, s);
    *pred = predicted_decrease(st->last_newton ? st->H : st->M, st->g, s) / st->F;
    return GSL_SUCCESS;
}

static void hybrid_free(void *vstate) { free(vstate); }

static const gsl_multilarge_nlinear_trs hybrid_trs = {
    .name = "hybrid irls-lm + newton",
    .alloc = hybrid_alloc,
    .init = hybrid_init,
    .preloop = hybrid_preloop,
    .step = hybrid_step,
    .preduction = hybrid_preduction,
    .free = hybrid_free,
};

/* ---- the starts, on each thread ---------------------------------------------------- */

typedef struct start_result {
    double F, u[NPAR];
    size_t steps, newton_steps;
} start_result;

typedef struct job {
    const runs *data;
    const double *starts;
    size_t nstarts;
    int ftol_rule;     /* --ftol: stop starts on fit.c's two quiet steps */
    atomic_size_t next; /* the next start not yet taken */
    start_result *results;
    size_t fevals, dfevals; /* summed by the threads at their end */
    pthread_mutex_t lock;
} job;

/* One thread's solver: its problem (rows and kernel scratch) and a GSL
 * workspace whose subproblem is bound to that problem. */
typedef struct solver {
    problem pb;
    gsl_multilarge_nlinear_fdf fdf;
    gsl_multilarge_nlinear_workspace *w;
    double *scratch;
} solver;

static int solver_init(solver *sv, const runs *data)
{
    memset(sv, 0, sizeof *sv);
    sv->scratch = malloc(LS_DENSE_SCRATCH * data->n * sizeof *sv->scratch);
    if (!sv->scratch)
        return -1;
    sv->pb = (problem){.kernel = ls_fit_kernel(),
                       .rows = {.n = data->n,
                                .ln_n = data->ln_n,
                                .ln_d = data->ln_d,
                                .target = data->target,
                                .weight = data->weight,
                                .scratch = sv->scratch},
                       .inv_weight = data->inv_weight,
                       .F = INFINITY};
    sv->fdf = (gsl_multilarge_nlinear_fdf){
        .f = residual_f, .df = jacobian_df, .fvv = NULL, .n = data->n, .p = NPAR, .params = &sv->pb};
    gsl_multilarge_nlinear_parameters params = gsl_multilarge_nlinear_default_parameters();
    params.trs = &hybrid_trs;
    params.scale = gsl_multilarge_nlinear_scale_levenberg;
    params.solver = gsl_multilarge_nlinear_solver_cholesky; /* so the driver keeps "J'J" */
    current_problem = &sv->pb;
    sv->w = gsl_multilarge_nlinear_alloc(gsl_multilarge_nlinear_trust, &params, data->n, NPAR);
    return sv->w ? 0 : -1;
}

static void solver_free(solver *sv)
{
    gsl_multilarge_nlinear_free(sv->w);
    free(sv->scratch);
}

static double half_norm2(const gsl_vector *f)
{
    double norm = gsl_blas_dnrm2(f);
    return 0.5 * norm * norm;
}

/* One start: GSL's driver, or (ftol_rule) its iterate and test with fit.c's
 * rule of two quiet steps added.  F is the kernel's objective at the end. */
static void solve_start(solver *sv, const double *grid_u0, int ftol_rule, start_result *res)
{
    double u0[NPAR];
    memcpy(u0, grid_u0, sizeof u0);
    revive_start(&sv->pb, u0);
    gsl_vector_const_view x0 = gsl_vector_const_view_array(u0, NPAR);
    gsl_multilarge_nlinear_workspace *w = sv->w;
    res->F = INFINITY;
    res->steps = res->newton_steps = 0;
    memcpy(res->u, u0, sizeof res->u);
    if (gsl_multilarge_nlinear_init(&x0.vector, &sv->fdf, w) != GSL_SUCCESS)
        return;
    int status, info;
    if (!ftol_rule) {
        status = gsl_multilarge_nlinear_driver(MAX_STEPS, XTOL, GTOL, FTOL, NULL, NULL, &info, w);
    } else {
        size_t quiet = 0;
        double F = half_norm2(w->f);
        do {
            status = gsl_multilarge_nlinear_iterate(w);
            if (status != GSL_SUCCESS && !(status == GSL_ENOPROG && w->niter > 1))
                break;
            double Ft = half_norm2(w->f);
            quiet = F - Ft <= FTOL * Ft ? quiet + 1 : 0;
            F = Ft;
            status = gsl_multilarge_nlinear_test(XTOL, GTOL, FTOL, &info, w);
        } while (status == GSL_CONTINUE && quiet < 2 && w->niter < MAX_STEPS);
    }
    vector_to(w->x, res->u);
    res->steps = w->niter;
    /* The last step was accepted when the driver ends at the last point
     * tried; the subproblem counted every accepted Newton step before it. */
    int ends_at_trial = memcmp(sv->pb.x, res->u, sizeof res->u) == 0;
    res->newton_steps = sv->pb.trs->newton_steps + (ends_at_trial && sv->pb.trs->last_newton);
    if (!ends_at_trial)
        trial_at(&sv->pb, res->u);
    res->F = sv->pb.F;
}

static void *run_thread(void *arg)
{
    job *jb = arg;
    solver sv;
    if (solver_init(&sv, jb->data) != 0) {
        solver_free(&sv);
        return arg; /* not NULL: failed */
    }
    size_t fevals = 0, dfevals = 0;
    for (;;) {
        size_t i = atomic_fetch_add(&jb->next, 1);
        if (i >= jb->nstarts)
            break;
        solve_start(&sv, jb->starts + i * NPAR, jb->ftol_rule, &jb->results[i]);
        fevals += sv.fdf.nevalf;
        dfevals += sv.fdf.nevaldf2;
    }
    pthread_mutex_lock(&jb->lock);
    jb->fevals += fevals;
    jb->dfevals += dfevals;
    pthread_mutex_unlock(&jb->lock);
    solver_free(&sv);
    return NULL;
}

static int run_starts(job *jb, int threads)
{
    pthread_t tid[2];
    int spawned = 0, failed = 0;
    for (; spawned < threads - 1; spawned++)
        if (pthread_create(&tid[spawned], NULL, run_thread, jb) != 0)
            break;
    failed |= run_thread(jb) != NULL;
    for (int t = 0; t < spawned; t++) {
        void *ret;
        pthread_join(tid[t], &ret);
        failed |= ret != NULL;
    }
    return failed ? -1 : 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s svg_extracted_data.csv [THREADS] [--ftol]\n", argv[0]);
        return 64;
    }
    int threads = 1, ftol_rule = 0;
    for (int a = 2; a < argc; a++) {
        if (strcmp(argv[a], "--ftol") == 0) {
            ftol_rule = 1;
            continue;
        }
        char *end;
        long t = strtol(argv[a], &end, 10);
        if (end == argv[a] || *end || t < 1 || t > 2) {
            fprintf(stderr, "%s: THREADS: '%s' is not 1 or 2\n", argv[0], argv[a]);
            return 64;
        }
        threads = (int)t;
    }
    gsl_set_error_handler_off();
    ls_sweep *s = read_chinchilla_points(argv[1]);
    runs data;
    double *starts = NULL;
    size_t nstarts = 0;
    if (!s || runs_from_sweep(s, &data) != 0 || (nstarts = grid_starts(&starts)) == 0) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    job jb = {.data = &data, .starts = starts, .nstarts = nstarts, .ftol_rule = ftol_rule};
    jb.results = calloc(nstarts, sizeof *jb.results);
    atomic_init(&jb.next, 0);
    pthread_mutex_init(&jb.lock, NULL);

    double t0 = now(), c0 = cpu_now();
    if (!jb.results || run_starts(&jb, threads) != 0) {
        fprintf(stderr, "out of memory for the solver workspaces\n");
        return 1;
    }
    start_result *best = &jb.results[0];
    size_t steps = 0, newton = 0;
    for (size_t i = 0; i < nstarts; i++) {
        steps += jb.results[i].steps;
        newton += jb.results[i].newton_steps;
        if (jb.results[i].F < best->F)
            best = &jb.results[i];
    }
    /* Polish the best start with the driver to xtol/gtol (fit.c's polish;
     * from a start the driver already ran to them, one more test). */
    solver sv;
    start_result polished;
    if (solver_init(&sv, &data) != 0) {
        fprintf(stderr, "out of memory\n");
        return 1;
    }
    solve_start(&sv, best->u, 0, &polished);
    solver_free(&sv);
    start_result top = polished.F <= best->F ? polished : *best;
    size_t at_best = 0;
    for (size_t i = 0; i < nstarts; i++)
        at_best += jb.results[i].F <= top.F + BEST_RTOL * fabs(top.F);
    double t_fit = now() - t0, c_fit = cpu_now() - c0;

    printf("{\"tool\": \"loopscale-gsl-driver\", \"stop\": \"%s\", \"threads\": %d, \"runs\": %zu, \"starts\": %zu, "
           "\"seconds\": %.4f, \"cpu_seconds\": %.4f, \"steps_per_start\": %.2f, \"newton_per_start\": %.2f, "
           "\"f_evals_per_start\": %.2f, \"df_evals_per_start\": %.2f, \"objective\": %.16g, "
           "\"starts_at_best\": %zu, \"A\": %.8g, \"B\": %.8g, \"c\": %.8g, \"alpha\": %.8g, \"beta\": %.8g}\n",
           ftol_rule ? "xtol, gtol, two ftol steps" : "driver: xtol, gtol", threads, data.n, nstarts, t_fit, c_fit,
           (double)steps / (double)nstarts, (double)newton / (double)nstarts, (double)jb.fevals / (double)nstarts,
           (double)jb.dfevals / (double)nstarts, top.F, at_best, exp(top.u[0]), exp(top.u[2]), exp(top.u[4]), top.u[1],
           top.u[3]);
    pthread_mutex_destroy(&jb.lock);
    free(jb.results);
    free(starts);
    free(data.ln_n);
    ls_sweep_free(s);
    return 0;
}
