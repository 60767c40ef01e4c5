/*
 * loopscale/bindings.h — flat entry points for other languages.
 *
 * The structs of fit.h, holdout.h and solve.h are convenient in C and
 * awkward through a foreign-function interface (ctypes, cffi).  These
 * functions take plain strings, numbers and arrays, run the same library
 * calls the loopscale program makes, and return their results as the SAME
 * JSON documents the program writes: a law file for a fit, `holdout
 * --format json` for a held-out evaluation, `solve --format json` for the
 * solver.  A binding's numbers are then the program's by construction.
 * The Python package (python/loopscale) is built on them.
 *
 * Sweeps are read from files with the program's column renames ("new=old")
 * and filters ("COLUMN OP NUMBER").  Strings returned are malloc'd and
 * freed with ls_bind_free(); on failure NULL is returned and err holds the
 * library's one-line message and code.
 *
 * Thread safety: no global state; calls may run at once from several
 * threads, each with its own ls_error.
 */
#ifndef LOOPSCALE_BINDINGS_H
#define LOOPSCALE_BINDINGS_H

#include <stddef.h>

#include "loopscale/error.h"
#include "loopscale/export.h"

LS_API_BEGIN

/* The sweep files and how to read them. */
typedef struct ls_bind_sweep {
    const char *const *paths;
    size_t npaths;
    const char *const *maps;   /* "new=old" */
    size_t nmaps;
    const char *const *wheres; /* "COLUMN OP NUMBER" */
    size_t nwheres;
} ls_bind_sweep;

/* The fit's settings, as the program's options: loss "huber" or "mse";
 * huber_delta (NaN: 1e-3); space "log" or "linear"; grid "chinchilla" or
 * NULL (Sobol starts); starts (0: 32); seed; threads (0: one per core);
 * fixed: LS_LAW_NPARAMS values, NaN for the parameters left free (NULL: none);
 * bootstrap draws (0: none), with bootstrap_starts perturbed starts each,
 * resampling whole groups of `group` (a column, or NULL) and intervals at
 * `level` (NaN: 0.95). */
typedef struct ls_bind_fit_options {
    const char *loss;
    double huber_delta;
    const char *space;
    const char *grid;
    size_t starts;
    unsigned long seed;
    int threads;
    const double *fixed;
    size_t bootstrap;
    size_t bootstrap_starts;
    const char *group;
    double level;
} ls_bind_fit_options;

/* Read the sweep with every check a fit makes (files, cells, renames,
 * filters) and give its number of runs: 0, or an LS_ERR_* code with err
 * naming file, line, column and value. */
int ls_bind_sweep_check(const ls_bind_sweep *sw, size_t *nruns, ls_error *err) LS_MUST_CHECK;

/* Fit `law` ("moe:bounded-sparse") and return the law file, as
 * `loopscale fit --format json` writes it.  As the program, a fit with no
 * more runs than free parameters is an LS_ERR_DATA error, and a fit whose
 * best start did not converge, or whose sweep cannot tell the parameters
 * apart (singular Jacobian), is an LS_ERR_NOCONV error: no law. */
char *ls_bind_fit(const char *law, const ls_bind_sweep *sw, const ls_bind_fit_options *o, const char *command,
                  ls_error *err) LS_MUST_CHECK;
/* ls_bind_fit, also giving (when `warnings` is not NULL) the program's
 * warnings about parameters held at their neutral values: one line each,
 * "theta is held at 0: no looped run (R > 1) has m < 1\n", in a string
 * to free with ls_bind_free, or NULL when there are none.  The warnings
 * are set whether or not the fit then succeeds. */
char *ls_bind_fit2(const char *law, const ls_bind_sweep *sw, const ls_bind_fit_options *o, const char *command,
                   char **warnings, ls_error *err) LS_MUST_CHECK;

/* Held-out evaluation of `nlaws` laws along the axes named in `axes`
 * ("R,N,D,E" or a subset; NULL for all four) or along a custom split (test
 * runs: every condition of split[] holds); the result as `loopscale holdout
 * --format json` prints it. */
char *ls_bind_holdout(const char *const *laws, size_t nlaws, const char *axes, const char *const *split,
                      size_t nsplit, const ls_bind_sweep *sw, const ls_bind_fit_options *o,
                      ls_error *err) LS_MUST_CHECK;

/* Solve for (R*, E*, N_act*, D*) under the law file `law_json` (NULL: the
 * default law), as `loopscale solve --format json`: mem_bytes +inf for no
 * limit; R and E the candidates (NULL: 1..16 and 1,2,4,...,64); ladder NULL
 * for a continuous N_act; eps NaN for the law's fit RMSE; uncertainty
 * re-solves under every bootstrap draw (intervals at level) on `threads`
 * threads (0: one per core); with_candidates lists every (E, R). */
char *ls_bind_solve(const char *law_json, double flops, double mem_bytes, double bits, const double *R, size_t nR,
                    const double *E, size_t nE, const double *ladder, size_t nladder, double eps, int uncertainty,
                    double level, int threads, int with_candidates, ls_error *err) LS_MUST_CHECK;

/* The loss `law_json` predicts at n configurations given as arrays: n_act
 * and tokens required; n_total (NULL: n_act), n_loop (NULL: unknown, which
 * is an error when R > 1), R, E, k (NULL: 1).  Each configuration is checked
 * as a sweep row is; a bad one is an LS_ERR_DATA error naming its index. */
int ls_bind_predict(const char *law_json, size_t n, const double *n_act, const double *n_total,
                    const double *n_loop, const double *R, const double *E, const double *k, const double *tokens,
                    double *loss, ls_error *err) LS_MUST_CHECK;

/* Check a law file's text and return it as the program writes it
 * (normalised, every number at full precision). */
char *ls_bind_law_normalise(const char *law_json, ls_error *err) LS_MUST_CHECK;

/* The default law compiled into the library, as a law file. */
char *ls_bind_default_law(ls_error *err) LS_MUST_CHECK;

/* Write len bytes to path atomically (a temporary file renamed into place,
 * so a failed write leaves no half-written file and destroys no old one). */
int ls_bind_write_file(const char *path, const void *data, size_t len, ls_error *err) LS_MUST_CHECK;

void ls_bind_free(void *p);

LS_API_END

#endif
