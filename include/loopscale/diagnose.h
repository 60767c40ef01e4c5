/*
 * loopscale/diagnose.h — fits that converged but should not be taken as
 * they stand.  A fit can meet the solver's convergence test and still
 * report a parameter that the runs do not determine: the irreducible loss c
 * run down to its bound 0 with a standard error far above its value, c
 * above the lowest loss observed (the law cannot reach that run), or a
 * parameter whose interval is unbounded (E_max = 4.7e9 with a standard
 * error of 1.5e17).  These functions name them, one line each.
 *
 * Each returns a malloc'd text of lines, each ending in a newline, that
 * the caller frees; an empty string when there is nothing to say, NULL
 * only when memory runs out.
 *
 * Thread safety: pure functions of their arguments.
 */
#ifndef LOOPSCALE_DIAGNOSE_H
#define LOOPSCALE_DIAGNOSE_H

#include "loopscale/export.h"
#include "loopscale/fit.h"
#include "loopscale/holdout.h"
#include "loopscale/sweep.h"

LS_API_BEGIN

/* How far a standard error may exceed its parameter's value (for a
 * parameter that may take either sign: the larger of its value and 1)
 * before the interval is called unbounded. */
#define LS_DIAGNOSE_UNBOUNDED_RATIO 10.0
/* c below this fraction of the lowest observed loss is at its bound 0. */
#define LS_DIAGNOSE_C_AT_ZERO 1e-3

/* The warnings about a fit of the runs s (b: its bootstrap, or NULL):
 *   "c = 1.26e-09 ran to its bound 0 (standard error 2.6): ..."
 *   "c = 3.13 is above the lowest observed loss, 3.097 (file:line): ..."
 *   "E_max = 4.7e+09 is not determined by the runs: standard error 1.5e+17 ..."
 * with bootstrap intervals, a positive parameter whose interval spans more
 * than a factor 1e3 is reported as unbounded too. */
char *ls_fit_diagnose(const ls_sweep *s, const ls_fit_result *r, const ls_fit_bootstrap *b);

/* The warnings about a held-out evaluation: an axis (or split) that holds
 * out a single run, whose RMSE is then one residual. */
char *ls_holdout_diagnose(const ls_holdout_result *r);

LS_API_END

#endif
