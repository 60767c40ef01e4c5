/*
 * commands_internal.h — the commands' definitions, and what their entry
 * points share: reading the law and the template, the solver's candidates,
 * the figures' options, the notes and warnings several commands give.
 */
#ifndef LOOPSCALE_COMMANDS_INTERNAL_H
#define LOOPSCALE_COMMANDS_INTERNAL_H

#include "command_internal.h"
#include "jsonw_internal.h"
#include "loopscale/arch.h"
#include "loopscale/fit.h"
#include "loopscale/lawfile.h"
#include "loopscale/plot.h"
#include "loopscale/solve.h"
#include "loopscale/sweep.h"

extern const cmd_def CMD_FIT, CMD_FRONTIER, CMD_HOLDOUT, CMD_ISOFLOP, CMD_ISOFIT, CMD_PLAN, CMD_PREDICT,
    CMD_SIMULATE, CMD_SOLVE, CMD_REPORT, CMD_SHAPE, CMD_ROUTE, CMD_EXIT;

/* The entries every command's option list ends with, in help order. */
#define CMD_END {O_NOPTIONS, NULL, NULL, NULL, NULL}
#define CMD_OPT(id) {id, NULL, NULL, NULL, NULL}
#define CMD_OPT_HELP(id, help) {id, help, NULL, NULL, NULL}
/* The figure options, after a command's --plot. */
#define CMD_PLOT_OPTIONS                                                                                           \
    CMD_OPT(O_PLOT_SIZE), CMD_OPT(O_PLOT_FONT_SIZE), CMD_OPT(O_PLOT_TITLE), CMD_OPT(O_PLOT_NO_TITLE),             \
        CMD_OPT(O_PLOT_STYLE), CMD_OPT(O_PLOT_CAPTION), CMD_OPT(O_DPI)
/* The sweep reader's options. */
#define CMD_SWEEP_OPTIONS                                                                                          \
    CMD_OPT(O_PROFILE), CMD_OPT(O_MAP), CMD_OPT(O_WHERE), CMD_OPT(O_SKIP_INVALID), CMD_OPT(O_LOSS_UNIT),          \
        CMD_OPT(O_BYTES_PER_TOKEN), CMD_OPT(O_GROUP_TOL), CMD_OPT(O_RUN), CMD_OPT(O_STEP), CMD_OPT(O_LAST)

/* ---- sweeps ------------------------------------------------------------------------ */

/* The most runs a command holds in memory from a sweep it reads: the
 * environment's LOOPSCALE_MAX_ROWS (0: no limit), by default CMD_MAX_ROWS;
 * a value that is not a count is warned of and the default used. */
#define CMD_MAX_ROWS ((size_t)10000000)
size_t cmd_max_rows(ls_result *res);

/* ---- laws and templates ---------------------------------------------------------- */

/* --law FILE, or the default law compiled in (with a note).  A file whose
 * fit did not converge or could not tell its parameters apart is refused
 * (LS_ERR_DATA) unless --force (then a warning).  NULL on failure. */
ls_lawfile *cmd_read_law(const ls_request *req, ls_result *res, opt_id option, ls_error *err);
/* The template: --template or the default.  0 or LS_ERR_*. */
int cmd_template_read(const ls_request *req, ls_arch_template *t, ls_error *err);
/* Count FLOPs as --flops-convention says, else as the law's fit counted
 * them (lf may be NULL), else as the template does; checked (a convention
 * needs its context or vocab).  0 or LS_ERR_USAGE. */
int cmd_template_flops(const ls_request *req, const ls_lawfile *lf, ls_arch_template *t, ls_error *err);

/* ---- the solver's options ---------------------------------------------------------- */

/* Room for the default candidate lists; it must outlive the options. */
typedef struct cmd_candidates {
    double R[LS_SOLVE_DEFAULT_NR], E[LS_SOLVE_DEFAULT_NE], top_k_e;
} cmd_candidates;
/* so->R and so->E: --R and --E when given, else the defaults cut at the
 * law's fitted ranges (so->ranges, set by the caller), E below the
 * template's top_k left out with a note. */
void cmd_candidates_of(const ls_request *req, ls_result *res, const ls_arch_template *t, cmd_candidates *room,
                       ls_solve_options *so);
/* The epsilon in force: --eps, else the law's fit RMSE, else 0 with a note. */
double cmd_eps(const ls_request *req, ls_result *res, const ls_lawfile *lf);
/* The solver's budget from --flops, --mem and --bits. */
ls_solve_budget cmd_budget(const ls_request *req);
/* What an answer at an end of the search says: "N_act = 1000 at the floor
 * of the search (1e3)", "E = 64, the largest searched" (empty when it is
 * inside on every searched quantity); and the hint for ls_solve_at_edge's
 * bits ("a value beyond may be better: widen --E"). */
void cmd_edge_text(char *buf, size_t size, const ls_solve_options *so, const ls_solve_candidate *c);
void cmd_edge_hint(char *buf, size_t size, const ls_request *req, unsigned bits);
/* A warning for each configuration of a solve at an end of its search
 * range (configurations with the same text share it), and for each one
 * outside the ranges the law was fitted on. */
void cmd_warn_solve(const ls_request *req, ls_result *res, const ls_solve_options *so, const ls_solve_result *r);
/* A JSON member "outside": the names of the quantities in bits (1u <<
 * LS_LAW_RANGE_*), ["N_act", "D"], as a value beyond the fitted ranges is
 * listed in every command's document. */
void cmd_json_outside(jsonw *w, unsigned bits);
/* "* outside the range the law was fitted on: N_act 1e+08 to 1e+09, ..."
 * under a table with starred values (nothing when none are). */
void cmd_ranges_note(strbuf *out, const ls_law_ranges *ranges, unsigned outside);

/* ---- figures ---------------------------------------------------------------------- */

/* The figure options (--plot-size, ...) with the format plot_path's name
 * asks for; a size that leaves no room, a PNG too large or an unknown
 * extension refused up front.  plot_path NULL: only the options. */
int cmd_figure(const ls_request *req, opt_id plot, ls_figure *out, ls_error *err);
/* A figure option given without a plot to apply it to, or --dpi without a
 * PNG among the plots, is a usage error.  plots[i] are the command's plot
 * options, figures[i] their figures. */
int cmd_figure_options_check(const ls_request *req, size_t n, const opt_id *plots, const ls_figure *const *figures,
                             ls_error *err);

#endif
