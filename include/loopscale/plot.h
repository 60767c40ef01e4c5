/*
 * loopscale/plot.h — the pictures researchers draw by hand, as SVG figures
 * (drawn by loopscale/svg.h).  Each function computes what it shows with the
 * library's own functions (ls_law_loss, ls_law_rho_eff, ls_solve_candidate_at,
 * ls_solve_isoflop_profile, the results of fit and holdout) and returns the SVG
 * document as a malloc'd string for the caller to write and free; on failure
 * it returns NULL with an error (only LS_ERR_INTERNAL, out of memory, or
 * LS_ERR_DATA when there is nothing to draw).
 *
 *   ls_plot_fit       observed and fitted loss against R, a panel for each E
 *                  (rows) and N_act (columns), a colour for each token
 *                  budget; against D when no run is looped
 *   ls_plot_holdout   predicted against observed loss of the held-out runs, a
 *                  panel for each law, a colour for each held-out axis
 *   ls_plot_isoflop   loss against N_act at fixed compute, with the minima
 *   ls_plot_solve     loss of the best N_act against R for each E under the
 *                  budget; losses no configuration reaches are shaded
 *   ls_plot_rho_eff   the effective-parameter multiplier rho_eff(R) = N_eff /
 *                  N_act for several E, with its ceilings (the Loop Scaling
 *                  Laws paper's figure 1c)
 *
 * Thread safety: no global state; each function builds and writes its own
 * figure, so plots may be drawn from several threads at once.
 */
#ifndef LOOPSCALE_PLOT_H
#define LOOPSCALE_PLOT_H

#include <stddef.h>

#include "loopscale/arch.h"
#include "loopscale/error.h"
#include "loopscale/holdout.h"
#include "loopscale/law.h"
#include "loopscale/solve.h"
#include "loopscale/sweep.h"
#include "loopscale/export.h"

LS_API_BEGIN

/* `rmse` (loss units) and `name` (the sweep's files) go in the caption;
 * rmse may be NaN. */
char *ls_plot_fit(const sweep *s, const law *l, double rmse, ls_error *err) LS_MUST_CHECK;

char *ls_plot_holdout(const sweep *s, const holdout_result *r, ls_error *err) LS_MUST_CHECK;

typedef struct plot_isoflop_spec {
    const double *flops; /* compute budgets */
    size_t nflops;
    const double *E, *R; /* the (E, R) pairs are every combination */
    size_t nE, nR;
    size_t points;       /* per curve, from N_opt / 30 to 30 N_opt (at least 2) */
} plot_isoflop_spec;

char *ls_plot_isoflop(const law *l, const arch_template *t, const plot_isoflop_spec *spec, ls_error *err) LS_MUST_CHECK;

/* r is ls_solve_run's answer to (b, o); every (E, R) of o is drawn. */
char *ls_plot_solve(const law *l, const arch_template *t, const solve_budget *b, const solve_options *o,
                 const solve_result *r, ls_error *err) LS_MUST_CHECK;

/* rho_eff(R) for R from 1 to r_max (> 1), one curve for each E, with
 * m = N_act / N_total and N_loop / N_act from the template. */
char *ls_plot_rho_eff(const law *l, const arch_template *t, const double *E, size_t nE, double r_max,
                   ls_error *err) LS_MUST_CHECK;

LS_API_END

#endif
