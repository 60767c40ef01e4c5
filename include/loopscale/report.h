/*
 * loopscale/report.h — a one-page HTML report of a sweep (docs/report.md):
 * the fit of a law (parameters, standard errors, bootstrap intervals, the
 * largest residuals), the comparison of laws on held-out runs, the
 * compute-optimal configuration for each budget, and the figures of
 * loopscale/plot.h.  The page is self-contained: the figures are SVG files
 * carried inline as data: URIs, the style sheet is in the page, there is no
 * script, and a Content-Security-Policy forbids any fetch, so it opens the
 * same offline, in a mail attachment or years later.
 *
 * The report only presents: the caller computes every result with the
 * library's own functions (ls_fit_run, ls_fit_run_bootstrap,
 * ls_lawfile_from_fit, ls_holdout_run, ls_solve_run), as the commands `fit`,
 * `holdout` and `solve` do, and what the figures draw beside them with
 * ls_report_figures_run, and hands them over in a ls_report_input.  Every
 * string that comes from input (file names, column names in filters, split
 * conditions) is HTML-escaped.
 *
 * ls_report_html() returns the page as a malloc'd NUL-terminated string the
 * caller writes (atomically, through outfile.h) and frees.
 *
 * Thread safety: no global state; the inputs are only read.
 */
#ifndef LOOPSCALE_REPORT_H
#define LOOPSCALE_REPORT_H

#include <stddef.h>

#include "loopscale/arch.h"
#include "loopscale/plot.h"
#include "loopscale/error.h"
#include "loopscale/fit.h"
#include "loopscale/holdout.h"
#include "loopscale/lawfile.h"
#include "loopscale/solve.h"
#include "loopscale/sweep.h"
#include "loopscale/export.h"

LS_API_BEGIN

/* A held-out axis that predicts fewer runs than this is flagged, on the
 * page and by the CLI: its RMSE is one or two residuals, not a comparison. */
#define LS_REPORT_FEW_HELD_OUT 3

typedef struct ls_report_input {
    const ls_sweep *sweep;              /* the runs fitted */
    const char *const *sweep_paths;  /* the files as given (row.file indexes them) */
    size_t nsweep_paths;
    const ls_fit_result *fit;           /* the fit of the reported law */
    const ls_lawfile *law;              /* the same fit as a law file: intervals, draws, ranges, provenance */
    const ls_holdout_result *holdout;   /* NULL: no comparison */
    const ls_arch_template *tmpl;       /* for the budgets */
    const ls_solve_options *solve;      /* the candidates (E, R) and epsilon of every budget */
    const ls_solve_budget *budgets;     /* nbudgets of them, each with ls_solve_run's answer */
    const ls_solve_result *solves;
    size_t nbudgets;
    const ls_figure *figure;      /* size, text, style of the figures (drawn as SVG) */
    size_t residual_rows;            /* the runs listed with the largest residuals (e.g. 8) */
    const struct ls_report_figures *figures; /* what the figures draw beside the results; NULL: no figures */
} ls_report_input;

/* What the report's figures draw beside the results (plot.h), computed by
 * ls_report_figures_run from an input's results: the fitted law along the
 * sweep's series with its bands, each budget's curves and bands, and the
 * IsoFLOP profiles of the chosen configurations (every budget with a
 * choice; the chosen E, and R = 1 with the chosen R) with their bands and
 * frontier, all without a memory limit.  Bands use the law file's draws
 * (LS_PLOT_BAND_DRAWS of them, LS_PLOT_SOLVE_BAND_DRAWS for a budget's). */
typedef struct ls_report_figures {
    ls_fit_curves fit;
    ls_solve_curves *solves;           /* one per budget (empty where the budget has no choice) */
    size_t nsolves;
    ls_solve_isoflop_result isoflop;   /* ncurves 0: no budget has a choice */
    ls_solve_isoflop_bands isoflop_bands;
    ls_solve_isoflop_result isoflop_frontier;
} ls_report_figures;

/* in's figures (in->figures is not read), solved on up to `threads`
 * threads (0: one per core).  Errors: those of the functions it calls. */
int ls_report_figures_run(const ls_report_input *in, int threads, ls_report_figures *out,
                          ls_error *err) LS_MUST_CHECK;
void ls_report_figures_free(ls_report_figures *f);

/* The page, or NULL with an error: LS_ERR_INTERNAL when out of memory,
 * LS_ERR_USAGE when the figure size leaves no room for a plot's panels,
 * LS_ERR_DATA when an input is inconsistent (no runs, a solve without
 * candidates). */
char *ls_report_html(const ls_report_input *in, ls_error *err) LS_MUST_CHECK;

/* The candidates a report solves over, from what the sweep measured: R =
 * 1, 2, ..., the largest R of its runs; E = the distinct E of its runs, in
 * increasing order.  *R and *E are malloc'd; LS_ERR_INTERNAL when out of
 * memory, LS_ERR_DATA for an empty sweep. */
int ls_report_solve_candidates(const ls_sweep *s, double **R, size_t *nR, double **E, size_t *nE,
                               ls_error *err) LS_MUST_CHECK;


LS_API_END

#endif
