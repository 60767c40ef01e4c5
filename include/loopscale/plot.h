/*
 * loopscale/plot.h — the pictures researchers draw by hand, as SVG, PDF or
 * PNG figures (drawn with cairo and pango, written as ls_figure says).
 * Each function computes what it shows with the library's own functions
 * (ls_law_loss, ls_law_rho_eff, ls_solve_candidate_at,
 * ls_solve_isoflop_profile, the results of fit and holdout) and returns the
 * file's bytes as a malloc'd buffer (*len bytes) for the caller to write and
 * free; on failure it returns NULL with an error (LS_ERR_INTERNAL, out of
 * memory; LS_ERR_DATA when there is nothing to draw; LS_ERR_USAGE when the
 * requested figure size leaves no room).
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


/* The law, its fit's RMSE (a note), its bootstrap draws (95% bands, with
 * 20 draws or more) come from the law file; a residual panel under the
 * others shows observed minus fitted loss of every run. */
unsigned char *ls_plot_fit(const ls_sweep *s, const ls_lawfile *lf, const ls_figure *o, size_t *len,
                           ls_error *err) LS_MUST_CHECK;

/* How many of the law's bootstrap draws the plots' 95% bands use: 0 when
 * it has fewer than 20 (no band; the solve and isoflop plots say so in
 * their notes). */
size_t ls_plot_band_draws(const ls_lawfile *lf);

unsigned char *ls_plot_holdout(const ls_sweep *s, const ls_holdout_result *r, const ls_figure *o, size_t *len,
                               ls_error *err) LS_MUST_CHECK;

typedef struct ls_plot_isoflop_spec {
    const double *flops; /* compute budgets */
    size_t nflops;
    const double *E, *R; /* the (E, R) pairs are every combination */
    size_t nE, nR;
    size_t points;       /* per curve, from N_opt / 30 to 30 N_opt (at least 2) */
} ls_plot_isoflop_spec;

/* With the law file's bootstrap draws, a 95% band around each profile; with
 * its fit ranges, N_act beyond them shaded. */
unsigned char *ls_plot_isoflop(const ls_lawfile *lf, const ls_arch_template *t, const ls_plot_isoflop_spec *spec,
                               const ls_figure *o, size_t *len, ls_error *err) LS_MUST_CHECK;

/* r is ls_solve_run's answer to (b, o); every (E, R) of o is drawn. */
/* With the law file's draws, a 95% band of each E's best loss (under up to
 * 50 draws, each a solve); with its fit ranges, R beyond them shaded and E
 * beyond them dashed. */
unsigned char *ls_plot_solve(const ls_lawfile *lf, const ls_arch_template *t, const ls_solve_budget *b, const ls_solve_options *so,
                             const ls_solve_result *r, const ls_figure *o, size_t *len, ls_error *err) LS_MUST_CHECK;

/* rho_eff(R) for R from 1 to r_max (> 1), one curve for each E, with
 * m = N_act / N_total and N_loop / N_act from the template. */
unsigned char *ls_plot_rho_eff(const ls_lawfile *lf, const ls_arch_template *t, const double *E, size_t nE, double r_max,
                               const ls_figure *o, size_t *len, ls_error *err) LS_MUST_CHECK;

LS_API_END

#endif
