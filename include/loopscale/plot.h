/*
 * loopscale/plot.h — the pictures researchers draw by hand, as SVG, PDF or
 * PNG figures (drawn with cairo and pango, written as ls_figure says).
 *
 * A figure draws numbers it is given and computes none: the results come
 * from the library's computations (fit, holdout, solve, isoflop, isofit,
 * frontier) and the curves and bands a figure draws beside them from their
 * own functions (ls_fit_curves_run, ls_solve_curves_run,
 * ls_solve_isoflop_run with ls_solve_isoflop_bands_run and
 * ls_solve_isoflop_frontier, ls_solve_rho_eff_run, ls_isofit_curves_run),
 * which a caller runs only when it draws.  The law file gives what a figure
 * says about the law: its kind, the ranges it was fitted on (what lies
 * beyond them is marked as extrapolated) and how many bootstrap draws it
 * holds.
 *
 * Each function returns the file's bytes as a malloc'd buffer (*len bytes)
 * for the caller to write and free; on failure it returns NULL with an
 * error (LS_ERR_INTERNAL, out of memory; LS_ERR_DATA when there is nothing
 * to draw; LS_ERR_USAGE when the requested figure size leaves no room).
 *
 *   ls_plot_fit       observed and fitted loss against R, a panel for each E
 *                     (rows) and N_act (columns), a colour for each token
 *                     budget; against D when no run is looped
 *   ls_plot_holdout   predicted against observed loss of the held-out runs, a
 *                     panel for each law, a colour for each held-out axis
 *   ls_plot_isoflop   loss against N_act at fixed compute, with the minima
 *   ls_plot_solve     loss of the best N_act against R for each E under the
 *                     budget; losses no configuration reaches are shaded
 *   ls_plot_rho_eff   the effective-parameter multiplier rho_eff(R) = N_eff /
 *                     N_act for several E, with its ceilings (the Loop Scaling
 *                     Laws paper's figure 1c)
 *   ls_plot_isofit    IsoFLOP minima and their power laws (Chinchilla's figure 3)
 *   ls_plot_frontier  the compute-optimal frontier of a plain model, or
 *   ls_plot_frontier_solve  of the configuration solve chooses, against F
 *
 * Thread safety: no global state; each function builds and writes its own
 * figure, so plots may be drawn from several threads at once.
 */
#ifndef LOOPSCALE_PLOT_H
#define LOOPSCALE_PLOT_H

#include <stddef.h>

#include "loopscale/arch.h"
#include "loopscale/error.h"
#include "loopscale/fit.h"
#include "loopscale/frontier.h"
#include "loopscale/holdout.h"
#include "loopscale/isofit.h"
#include "loopscale/law.h"
#include "loopscale/lawfile.h"
#include "loopscale/solve.h"
#include "loopscale/sweep.h"
#include "loopscale/export.h"

LS_API_BEGIN

/* The file formats, chosen by the output file's name. */
typedef enum { LS_FIGURE_SVG, LS_FIGURE_PDF, LS_FIGURE_PNG } ls_figure_format;
/* light: for screens and slides, with grid lines; print: for papers, no
 * grid lines, ticks inside the frame, heavier lines. */
typedef enum { LS_FIGURE_LIGHT, LS_FIGURE_PRINT } ls_figure_look;

/* How a chart is written.  Sizes in points (1/72 inch). */
typedef struct ls_figure {
    ls_figure_format format;
    double width_pt, height_pt; /* the whole figure; 0: the chart's own size */
    double font_pt;             /* text size of labels (default 9) */
    double dpi;                 /* PNG resolution (default 150) */
    ls_figure_look look;
    const char *title;          /* plain text replacing the chart's title; NULL keeps it */
    int no_title;               /* draw no title at all */
    int caption;                /* draw the notes under the panels (by default they go to metadata only) */
    const char *provenance;     /* plain text for the file's metadata (command line, version) */
} ls_figure;

/* The defaults: SVG, natural size, 9 pt text, 150 dpi, light look. */
ls_figure ls_figure_default(void);
/* The format for a file name's extension (.svg, .pdf, .png, in any case);
 * LS_ERR_USAGE for any other. */
int ls_figure_format_of_path(const char *path, ls_figure_format *out, ls_error *err) LS_MUST_CHECK;


/* 0 when a figure of o's size (if it has one) and text size has room for
 * at least one panel, else LS_ERR_USAGE with a message: a check to make
 * before any work or output. */
int ls_figure_check_size(const ls_figure *o, ls_error *err) LS_MUST_CHECK;

/* How finely the figures sample what they draw, and how many of a law's
 * bootstrap draws their bands use: what a caller passes to the functions
 * that compute a figure's curves. */
#define LS_PLOT_FIT_POINTS 48       /* per series of ls_fit_curves_run */
#define LS_PLOT_ISOFLOP_POINTS 60   /* per profile, at least (a smooth curve) */
#define LS_PLOT_FRONTIER_BUDGETS 41 /* of ls_solve_isoflop_frontier, F / 3 to 3 F over the budgets drawn */
#define LS_PLOT_ISOFIT_POINTS 64    /* per budget of ls_isofit_curves_run */
#define LS_PLOT_RHO_POINTS 121      /* of ls_solve_rho_eff_run */
/* A law's draws a band uses: none when it holds fewer than 20 (too few for
 * a 95% band), else at most LS_PLOT_BAND_DRAWS; the solve figure's bands,
 * each point a solve under every draw, at most LS_PLOT_SOLVE_BAND_DRAWS. */
#define LS_PLOT_BAND_DRAWS 200
#define LS_PLOT_SOLVE_BAND_DRAWS 50
size_t ls_plot_band_draws(const ls_lawfile *lf, size_t most);

/* The runs a figure draws as markers (fit, holdout): all of a sweep of up
 * to LS_PLOT_MAX_RUNS; of a larger one, every k-th run in the sweep's order
 * (k = ceil(n / LS_PLOT_MAX_RUNS)) and, so that no outlier is hidden, the
 * LS_PLOT_FARTHEST_RUNS farthest from the law (per held-out law in the
 * holdout figure); the figure's note says so, and the RMSEs stay over every
 * run.  This bounds a figure's size (a marker is about 0.8 kB of SVG) and
 * the memory of drawing it whatever the sweep. */
#define LS_PLOT_MAX_RUNS 2000
#define LS_PLOT_FARTHEST_RUNS 50
/* k for a sweep of n runs: 1 when every run is drawn. */
size_t ls_plot_run_stride(size_t n);
/* What says which runs are drawn ("every 100th of the 200000 runs ..."),
 * farthest naming what the distance is from ("the law"); "" when every run
 * is drawn. */
void ls_plot_runs_drawn_text(char *buf, size_t size, size_t n, const char *farthest);

/* c = ls_fit_curves_run(s, &lf->law, ...): the runs, the law along their
 * series and its bands; the fit's RMSE (a note) from the law file; a
 * residual panel under the others shows observed minus fitted loss of every
 * run. */
unsigned char *ls_plot_fit(const ls_sweep *s, const ls_lawfile *lf, const ls_fit_curves *c, const ls_figure *o,
                           size_t *len, ls_error *err) LS_MUST_CHECK;

/* r = ls_holdout_run(s, ...), with its predictions. */
unsigned char *ls_plot_holdout(const ls_sweep *s, const ls_holdout_result *r, const ls_figure *o, size_t *len,
                               ls_error *err) LS_MUST_CHECK;

/* profiles: ls_solve_isoflop_run with points (LS_PLOT_ISOFLOP_POINTS or
 * more) and the law file's ranges; bands: theirs over the law's draws (NULL
 * or no draws: no band); frontier: ls_solve_isoflop_frontier over the same
 * E and R (NULL: none drawn).  With the law file's fit ranges, N_act beyond
 * them shaded. */
unsigned char *ls_plot_isoflop(const ls_lawfile *lf, const ls_arch_template *t,
                               const ls_solve_isoflop_result *profiles, const ls_solve_isoflop_bands *bands,
                               const ls_solve_isoflop_result *frontier, const ls_figure *o, size_t *len,
                               ls_error *err) LS_MUST_CHECK;

/* r is ls_solve_run's answer to (b, so), c = ls_solve_curves_run's for the
 * same problem; every (E, R) of so is drawn, with c's bands when it has
 * them; with the law file's fit ranges, R beyond them shaded and E beyond
 * them dashed. */
unsigned char *ls_plot_solve(const ls_lawfile *lf, const ls_arch_template *t, const ls_solve_budget *b,
                             const ls_solve_options *so, const ls_solve_result *r, const ls_solve_curves *c,
                             const ls_figure *o, size_t *len, ls_error *err) LS_MUST_CHECK;

/* rho = ls_solve_rho_eff_run(&lf->law, ...): one curve for each E, with
 * its ceiling. */
unsigned char *ls_plot_rho_eff(const ls_lawfile *lf, const ls_solve_rho_eff *rho, const ls_figure *o, size_t *len,
                               ls_error *err) LS_MUST_CHECK;

/* Chinchilla's figure 3 for r = ls_isofit_run(s, o) and
 * c = ls_isofit_curves_run(s, o, r, ...): on the left the loss against
 * N_act (log) of every budget's runs, one colour a budget, with approach
 * 2's parabola (or Akima's interpolant) through them and the optimum marked
 * (budgets left out of the power law grey, their reason in the legend); on
 * the right N_opt and D_opt = F / (6 N_opt) of the budgets used against F
 * (log-log), with the fitted power laws and, after a bootstrap, N_opt's
 * intervals. */
unsigned char *ls_plot_isofit(const ls_sweep *s, const ls_isofit_options *o, const ls_isofit_result *r,
                              const ls_isofit_curves *c, const ls_figure *out, size_t *len,
                              ls_error *err) LS_MUST_CHECK;

/* The frontier of ls_frontier_run: N_opt and D_opt against F (log-log) on
 * the left, the loss at the optimum against F on the right; the notes name
 * the law and the plain model.  outside[i] (NULL: none known): budget i's
 * optimum leaves the ranges the law was fitted on (bits 1u <<
 * LS_LAW_RANGE_*), marked hollow and dashed as an extrapolation.  The title
 * states the exponent, and [low, high], its interval at `level` as the
 * law's fit gave it (NaN: none), beside it. */
unsigned char *ls_plot_frontier(const ls_law *l, const ls_frontier_point *points, const unsigned *outside, size_t n,
                                double exponent, double low, double high, double level, const ls_figure *o,
                                size_t *len, ls_error *err) LS_MUST_CHECK;

/* The frontier of ls_frontier_run_solve, its points in increasing F: N_act
 * and D against F (log-log) on the left, R* and E* against F on the right
 * (as steps, with a tick at each value taken); the points' `outside`
 * marked as above; the notes give the law, the candidates and epsilon of
 * so and the memory budget, as passed to ls_frontier_run_solve. */
unsigned char *ls_plot_frontier_solve(const ls_law *l, const ls_frontier_solve_point *points, size_t n,
                                      const ls_solve_options *so, double mem_bytes, double bits,
                                      const ls_figure *o, size_t *len, ls_error *err) LS_MUST_CHECK;

LS_API_END

#endif
