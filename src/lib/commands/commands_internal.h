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
#include "loopscale/diagnose.h"
#include "loopscale/isofit.h"
#include "loopscale/lawfile.h"
#include "loopscale/plot.h"
#include "loopscale/profile.h"
#include "loopscale/shape.h"
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
/* The serving side of solve, frontier, plan and report (cmd_serving). */
#define CMD_SERVING_OPTIONS                                                                                        \
    CMD_OPT(O_SERVE_CONTEXT), CMD_OPT(O_BATCH), CMD_OPT(O_KV_BITS), CMD_OPT(O_ACTIVATION_MEMORY),                 \
        CMD_OPT(O_INFERENCE_TOKENS), CMD_OPT(O_QUANTISATION)
/* The sweep reader's options. */
#define CMD_SWEEP_OPTIONS                                                                                          \
    CMD_OPT(O_PROFILE), CMD_OPT(O_MAP), CMD_OPT(O_WHERE), CMD_OPT(O_SKIP_INVALID), CMD_OPT(O_LOSS_UNIT),          \
        CMD_OPT(O_BYTES_PER_TOKEN), CMD_OPT(O_GROUP_TOL), CMD_OPT(O_RUN), CMD_OPT(O_STEP), CMD_OPT(O_LAST)

/* ---- output ------------------------------------------------------------------------ */

/* How tables and documents name an input: "standard input" for "-". */
const char *cmd_input_name(const char *path);
/* The command's JSON document from w (finished here), also printed when
 * --format json asks for it.  0 or LS_ERR_*. */
int cmd_json(const ls_request *req, ls_result *res, jsonw *w, ls_error *err);
/* "N_act = 1e+16 (fitted 1e+08 to 1e+09), D = ..." for the quantities of x
 * in bits (ls_law_ranges_outside), into buf. */
void cmd_outside_text(char *buf, size_t size, const ls_law_ranges *ranges, const ls_law_point *x, unsigned bits);
/* The member "warnings": [{code, subject, message}, ...] of a document. */
void cmd_json_warnings(jsonw *w, const ls_warnings *warnings);
/* The text in out onto standard output; out is emptied either way.  0 or
 * LS_ERR_*. */
int cmd_print(ls_result *res, strbuf *out, ls_error *err);

/* ---- shapes ------------------------------------------------------------------------ */

/* The shape a request describes, resolved and counted: its --shape file
 * with every shape option given set over it (options absent from the
 * command's list are never given).  A fault while a file is read is the
 * file's: bad data (LS_ERR_DATA), named.  0 or LS_ERR_*. */
int cmd_shape_of(const ls_request *req, ls_shape_spec *s, ls_shape_counts *c, ls_error *err);

/* ---- laws and templates ---------------------------------------------------------- */

/* --law FILE, or the default law compiled in (with a note).  A file whose
 * fit did not converge or could not tell its parameters apart is refused
 * (LS_ERR_DATA) unless --force (then a warning).  NULL on failure. */
ls_lawfile *cmd_read_law(const ls_request *req, ls_result *res, opt_id option, ls_error *err);
/* The interval of the compute-optimal exponent a that lf's fit recorded
 * (ls_lawfile_fit.optimum_*), when a is this law's own a (to 1e-9): 1 with
 * *out filled, else 0. */
int cmd_law_exponent(const ls_lawfile *lf, double a, ls_fit_exponent *out, const char **held_from);
/* "a in [0.1004, 0.3890] (95%, from the standard errors)", "(95% of 200
 * draws)" or "(95%, held from base.json)" into buf. */
void cmd_exponent_text(char *buf, size_t size, const ls_fit_exponent *e, const char *held_from);
/* The template: --template or the default.  0 or LS_ERR_*. */
int cmd_template_read(const ls_request *req, ls_arch_template *t, ls_error *err);
/* The template a law's answers are for (solve, frontier, plan, isoflop,
 * report, simulate), t as cmd_template_read left it: --template, warned of
 * (LS_WARNING_ARCHITECTURE) when it differs from the architecture the law
 * records by more than LS_ARCH_TOLERANCE at its runs' configurations; else
 * the law's own (warned of when no single template reproduces its runs);
 * else, for a law that records none, the default, with a note.  law_name
 * names the law in messages. */
void cmd_template_for_law(const ls_request *req, ls_result *res, const ls_lawfile *lf, const char *law_name,
                          ls_arch_template *t);
/* The name of the law --law (or option) gave, for messages: its path, or
 * "the default law". */
const char *cmd_law_name(const ls_request *req, opt_id option);
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
/* The solver's budget from --flops, --mem and --bits, and the serving
 * options: --context, --batch, --kv-bits, --activation-memory,
 * --inference-tokens, --target-loss (those absent from a command's list
 * are never given). */
ls_solve_budget cmd_budget(const ls_request *req);
/* Room for the quantisation penalty in force and where it came from. */
typedef struct cmd_quant {
    ls_law_quant quant;
    char source[512];
} cmd_quant;
/* The serving side of a solve, once per command: the options' checks
 * (--batch and --kv-bits need --context, --activation-memory --mem, a
 * cheapest configuration no --n-act ladder), the quantisation penalty in
 * force (--quantisation FILE, else the law's; so->quant), and what is
 * said of them: the KV cache of a template without heads (a note), the
 * penalty in the loss (a note), bits below 16 with no penalty (an
 * LS_WARNING_SERVING warning).  0 or LS_ERR_*. */
int cmd_serving(const ls_request *req, ls_result *res, const ls_lawfile *lf, const ls_arch_template *t,
                const ls_solve_budget *b, ls_solve_options *so, cmd_quant *room, ls_error *err);
/* cmd_serving's checks of the options alone, for a command to make before
 * any work.  0 or LS_ERR_USAGE. */
int cmd_serving_check(const ls_request *req, ls_error *err);
/* What an answer at an end of the search says: "N_act = 1000 at the floor
 * of the search (1e3)", "E = 64, the largest searched" (empty when it is
 * inside on every searched quantity); and the hint for ls_solve_at_edge's
 * bits ("a value beyond may be better: widen --E"). */
void cmd_edge_text(char *buf, size_t size, const ls_solve_options *so, const ls_solve_candidate *c);
void cmd_edge_hint(char *buf, size_t size, const ls_request *req, const ls_solve_options *so,
                   const ls_solve_candidate *c);
/* A warning for each configuration of a solve at an end of its search
 * range (configurations with the same text share it), and for each one
 * outside the ranges the law was fitted on; context (or NULL) starts each
 * ("budget 1e+22 FLOPs"). */
void cmd_warn_solve(const ls_request *req, ls_result *res, const ls_solve_options *so, const ls_solve_result *r,
                    const char *context);
/* A JSON member "outside": the names of the quantities in bits (1u <<
 * LS_LAW_RANGE_*), ["N_act", "D"], as a value beyond the fitted ranges is
 * listed in every command's document. */
void cmd_json_outside(jsonw *w, unsigned bits);
/* "* outside the range the law was fitted on: N_act 1e+08 to 1e+09, ..."
 * under a table with starred values (nothing when none are). */
void cmd_ranges_note(strbuf *out, const ls_law_ranges *ranges, unsigned outside);

/* ---- sweeps and fits (sweepfit.c) --------------------------------------------------- */

/* The sweep reader's options from the request: --map, --where and the rest,
 * merged with a --profile's (options given win over its single values). */
typedef struct cmd_sweep {
    ls_sweep_options options;
    ls_profile *profile;
    const char **maps, **wheres, **map_origins, **where_origins;
    size_t nmaps, maps_cap, nwheres, wheres_cap, norigins_m, origins_m_cap, norigins_w, origins_w_cap;
    const char **given; /* "--loss-unit bits": the reader's other options, for provenance (malloc'd) */
    size_t ngiven, given_cap;
    ls_warnings warnings; /* what the reader says of the sweep (options.warnings points here) */
    /* The model configuration columns complete: --template's, else the
     * profile's "template" (NULL: none, or a template of shares). */
    ls_arch_template tmpl;
    const ls_arch_template *config_template;
} cmd_sweep;
int cmd_sweep_setup(const ls_request *req, ls_result *res, cmd_sweep *cs, ls_error *err);
void cmd_sweep_free(cmd_sweep *cs);
/* The most runs a command holds in memory: LOOPSCALE_MAX_ROWS (0: no
 * limit), by default CMD_MAX_ROWS_DEFAULT; more is an LS_ERR_DATA error. */
#define CMD_MAX_ROWS_DEFAULT ((size_t)10000000)
size_t cmd_max_rows(ls_result *res);
/* The reader's column warnings (ls_sweep_column_warnings): the columns the
 * law does not read as one note, the others as warnings; frees them. */
void cmd_column_warnings(ls_result *res, ls_warnings *columns);
/* What a sweep read says: the reader's warnings (columns, slips, and with
 * options.law set the columns the law does not read), the rows
 * --skip-invalid dropped, and its checkpoints (how many earlier steps
 * --last dropped, or a warning when runs have several rows and no choice
 * was made).  s may be NULL after a streamed read. */
void cmd_sweep_report(const ls_request *req, ls_result *res, cmd_sweep *cs, const ls_sweep *s);
/* For the commands that read a flops column: the template (--template, the
 * default) and the convention it is read under (--flops-convention). */
int cmd_sweep_flops(const ls_request *req, ls_arch_template *t, ls_law_flops *out, ls_error *err);

/* Progress of a fit, named for the front end ("starts", "bootstrap draws"). */
typedef struct cmd_fit_progress {
    ls_result *res;
    const char *what;
} cmd_fit_progress;
/* --fix-from FILE: its law, kept for what the fit carries over from it
 * (ls_lawfile_hold_from), and the parameters held at its values. */
typedef struct cmd_held_from {
    ls_lawfile *lf;   /* NULL without --fix-from; freed by cmd_held_from_free */
    const char *name; /* its file, as given */
    unsigned char held[LS_LAW_NPARAMS];
} cmd_held_from;
void cmd_held_from_free(cmd_held_from *h);
/* The fit's parameters from --loss, --huber-delta, --space, --grid,
 * --starts, --seed, --threads, --scale, --max-iterations, --fix-from, --fix
 * and --tie, checked against the laws that will be fitted.  progress (may be
 * NULL) reports the fit's progress through the request's callback; held
 * (may be NULL) keeps --fix-from's law. */
int cmd_fit_parameters(const ls_request *req, ls_result *res, const ls_law_kind *kinds, size_t nkinds,
                       ls_fit_parameters *p, cmd_fit_progress *progress, cmd_held_from *held, ls_error *err);
/* What a failed run says it left: `what` ("no law file written"), with "(PATH
 * keeps its old content)" when path names an existing file. */
void cmd_not_written(char *buf, size_t size, const char *what, const char *path);
/* A fit with no residual to judge it by (runs <= free parameters) is
 * refused (LS_ERR_DATA), and so is a sweep that cannot determine the law
 * (the message ends in not_written); the parameters held at their neutral
 * values are warned of, one warning per reason. */
int cmd_fit_usable(const ls_request *req, ls_result *res, const ls_sweep *s, ls_law_kind kind,
                   const ls_fit_parameters *p, const ls_fit_result *r, const char *not_written, ls_error *err);
/* 1 when every parameter of the fitted law is inside its domain. */
int cmd_fit_in_domain(const ls_fit_result *r, ls_error *err);
/* A best solve that did not converge, a fit that cannot tell its parameters
 * apart (determined = ls_fit_determined) or that ends outside the law's
 * domain is refused (LS_ERR_NOCONV), the message ending in not_converged or
 * undetermined. */
int cmd_fit_verdict(const ls_request *req, const ls_sweep *s, const ls_fit_result *r, int determined,
                    const char *not_converged, const char *undetermined, ls_error *err);

/* ---- figures ---------------------------------------------------------------------- */

/* The figure options (--plot-size, ...) with the format plot_path's name
 * asks for; a size that leaves no room, a PNG too large or an unknown
 * extension refused up front.  plot_path NULL: only the options. */
int cmd_figure(const ls_request *req, opt_id plot, ls_figure *out, ls_error *err);
/* The first ls_plot_band_draws(lf, most) bootstrap draws of the law as
 * laws (*draws malloc'd, NULL with *n = 0 when the bands have none), for
 * the functions that compute a figure's bands. */
int cmd_band_draws(const ls_lawfile *lf, size_t most, ls_law **draws, size_t *n, ls_error *err);
/* The figures of fit, isofit, solve (--plot, --plot-rho) and isoflop: what each draws
 * computed (the curves and bands of plot.h's callers; the solve bands on
 * the request's threads), then drawn.  The file's bytes, or NULL with an
 * error. */
/* The note of a figure that draws some of a sweep's n runs (plot.h). */
void cmd_note_runs_drawn(const ls_request *req, ls_result *res, size_t n, const char *farthest);
unsigned char *cmd_plot_fit(const ls_sweep *s, const ls_lawfile *lf, const ls_figure *figure, size_t *len,
                            ls_error *err);
unsigned char *cmd_plot_isofit(const ls_sweep *s, const ls_isofit_options *o, const ls_isofit_result *r,
                               const ls_figure *figure, size_t *len, ls_error *err);
unsigned char *cmd_plot_solve(const ls_request *req, const ls_lawfile *lf, const ls_arch_template *t,
                              const ls_solve_budget *b, const ls_solve_options *so, const ls_solve_result *r,
                              const ls_figure *figure, size_t *len, ls_error *err);
unsigned char *cmd_plot_rho_eff(const ls_lawfile *lf, const ls_arch_template *t, const double *E, size_t nE,
                                double r_max, const ls_figure *figure, size_t *len, ls_error *err);
/* points: the table's per profile (a smooth curve has LS_PLOT_ISOFLOP_POINTS at least). */
unsigned char *cmd_plot_isoflop(const ls_lawfile *lf, const ls_arch_template *t, const double *flops, size_t nflops,
                                const double *E, size_t nE, const double *R, size_t nR, size_t points,
                                const ls_figure *figure, size_t *len, ls_error *err);
/* A figure option given without a plot to apply it to, or --dpi without a
 * PNG among the plots, is a usage error.  plots[i] are the command's plot
 * options, figures[i] their figures. */
int cmd_figure_options_check(const ls_request *req, size_t n, const opt_id *plots, const ls_figure *const *figures,
                             ls_error *err);

#endif
