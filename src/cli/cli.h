/*
 * cli.h — what every subcommand shares: option values, messages, output
 * formats, tables.  The CLI only parses options, calls the library and
 * prints; anything computed lives in libloopscale.
 */
#ifndef LOOPSCALE_CLI_H
#define LOOPSCALE_CLI_H

#include <getopt.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>

#include "loopscale/arch.h"
#include "chart_internal.h"
#include "loopscale/error.h"
#include "loopscale/fit.h"
#include "loopscale/holdout.h"
#include "jsonw_internal.h"
#include "loopscale/law.h"
#include "loopscale/lawfile.h"
#include "outfile_internal.h"
#include "loopscale/solve.h"
#include "loopscale/sweep.h"

/* Long-only options are numbered from CHAR_MAX + 1; the shared ones come
 * first and each command numbers its own from OPT_COMMAND_FIRST. */
enum {
    OPT_MAP = CHAR_MAX + 1,
    OPT_WHERE,
    OPT_FORMAT,
    OPT_THREADS,
    OPT_SEED,
    OPT_LAW,
    OPT_TEMPLATE,
    OPT_LOSS,
    OPT_HUBER_DELTA,
    OPT_SPACE,
    OPT_GRID,
    OPT_STARTS,
    OPT_PLOT_SIZE,
    OPT_PLOT_FONT_SIZE,
    OPT_PLOT_TITLE,
    OPT_PLOT_NO_TITLE,
    OPT_PLOT_STYLE,
    OPT_PLOT_CAPTION,
    OPT_DPI,
    OPT_FORCE,
    OPT_SKIP_INVALID,
    OPT_LOSS_UNIT,
    OPT_BYTES_PER_TOKEN,
    OPT_GROUP_TOL,
    OPT_RUN,
    OPT_STEP,
    OPT_LAST,
    OPT_PROFILE,
    OPT_FLOPS_CONVENTION,
    OPT_COMMAND_FIRST
};

#define CLI_HELP_OPTION {"help", no_argument, NULL, 'h'}
#define CLI_SWEEP_OPTIONS                                                                                        \
    {"map", required_argument, NULL, OPT_MAP}, {"where", required_argument, NULL, OPT_WHERE},                 \
        {"skip-invalid", no_argument, NULL, OPT_SKIP_INVALID},                                                   \
        {"loss-unit", required_argument, NULL, OPT_LOSS_UNIT},                                                   \
        {"group-tol", required_argument, NULL, OPT_GROUP_TOL},                                                   \
        {"run", required_argument, NULL, OPT_RUN}, {"step", required_argument, NULL, OPT_STEP},                  \
        {"last", no_argument, NULL, OPT_LAST}, {"profile", required_argument, NULL, OPT_PROFILE},                \
    {                                                                                                            \
        "bytes-per-token", required_argument, NULL, OPT_BYTES_PER_TOKEN                                          \
    }
/* The options of the fit itself, which fit and holdout share. */
#define CLI_FIT_OPTIONS                                                                                          \
    {"loss", required_argument, NULL, OPT_LOSS}, {"huber-delta", required_argument, NULL, OPT_HUBER_DELTA},      \
    {"space", required_argument, NULL, OPT_SPACE}, {"grid", required_argument, NULL, OPT_GRID},                 \
    {"starts", required_argument, NULL, OPT_STARTS}, {"seed", required_argument, NULL, OPT_SEED},               \
    {"threads", required_argument, NULL, OPT_THREADS}
/* How every plotting command draws its figures (cli_plot.c). */
#define CLI_PLOT_OPTIONS                                                                                         \
    {"plot-size", required_argument, NULL, OPT_PLOT_SIZE},                                                       \
        {"plot-font-size", required_argument, NULL, OPT_PLOT_FONT_SIZE},                                         \
        {"plot-title", required_argument, NULL, OPT_PLOT_TITLE},                                                 \
        {"plot-no-title", no_argument, NULL, OPT_PLOT_NO_TITLE},                                                 \
        {"plot-style", required_argument, NULL, OPT_PLOT_STYLE},                                                 \
        {"plot-caption", no_argument, NULL, OPT_PLOT_CAPTION}, { "dpi", required_argument, NULL, OPT_DPI }
#define CLI_PLOT_HELP                                                                                            \
    "  Plots are SVG, PDF or PNG, as the file name ends (.svg, .pdf, .png):\n"                                 \
    "      --plot-size WxH     the whole figure's size in inches, or cm with a cm suffix, e.g.\n"              \
    "                          --plot-size 6.5x4 or --plot-size 16x10cm (default: the plot's own)\n"          \
    "      --plot-font-size PT text size in points (default 9)\n"                                               \
    "      --plot-title TEXT   the figure's title instead of the plot's own\n"                                 \
    "      --plot-no-title     no title (a paper's caption says it)\n"                                         \
    "      --plot-style STYLE  light (grid lines, for screens; the default) or print (no grid,\n"             \
    "                          ticks inside, heavier lines)\n"                                                  \
    "      --plot-caption      write the notes (what is held fixed, the RMSE) under the panels;\n"            \
    "                          they always go in the file's metadata\n"                                        \
    "      --dpi N             PNG resolution in dots per inch (default 150)\n"
#define CLI_SWEEP_HELP                                                                                           \
    "      --profile FILE      read the sweep as the profile FILE says (a JSON file of maps,\n"     \
    "                          filters, run and step columns, --last, units); options given\n"     \
    "                          too add to it, and win over its single values\n"                   \
    "      --map NEW=OLD       read column OLD as NEW (repeatable), e.g. --map n_act='Model Size'\n"              \
    "      --where 'COL OP X'  keep rows where COL OP X holds, OP one of < <= = != >= > (repeatable,\n"           \
    "                          all must hold), e.g. --where 'R<=8'; == != compare text when X is\n"            \
    "                          not a number, ~ !~ match a glob (--where 'State==finished',\n"             \
    "                          --where 'run_name~*-long'); COL may be n_unroll, tokens_per_param\n"     \
    "                          or epochs (tokens / unique_tokens).\n"                                      \
    "                          Filters run before the quantities are checked; an empty or NaN cell\n"    \
    "                          passes no numeric condition\n"                                              \
    "      --skip-invalid      drop rows with an empty, NaN, non-positive or otherwise invalid\n"          \
    "                          quantity, and say how many (default: refuse the sweep)\n"                  \
    "      --loss-unit UNIT    the loss column is in nats (default) or bits\n"                             \
    "      --bytes-per-token X the loss column is per byte (e.g. bits per byte); X bytes a token\n"      \
    "      --group-tol X       values of a quantity within X relative are one tier (plot series,\n"     \
    "                          held-out tiers, numeric --by and --group columns); default: read\n"   \
    "                          off the data's own rounding\n"                                        \
    "      --run COL           the run identity column (default: the first of run, run_name,\n"      \
    "                          run_id, name, id in the file)\n"                                        \
    "      --step COL          the checkpoint step column (default: the first of step, _step,\n"     \
    "                          global_step, trainer/global_step, iter, iteration)\n"                \
    "      --last              keep each run's row with the largest step (its last checkpoint\n"    \
    "                          among the rows the filters keep)\n"

typedef int (*cli_command_fn)(int argc, char **argv);

/* ---- messages -------------------------------------------------------- */

/* Remember the whole command line, for messages and provenance. */
void cli_set_invocation(int argc, char **argv);
/* "loopscale fit --law dense sweep.csv", shell-quoted; owned by cli. */
const char *cli_command_line(void);

/* "loopscale CMD: message" on stderr (stdout flushed first). */
void cli_error(const char *command, const char *fmt, ...) LS_PRINTF(2, 3);
void cli_warn(const char *command, const char *fmt, ...) LS_PRINTF(2, 3);
/* An informational line on stderr, "loopscale CMD: message". */
void cli_note(const char *command, const char *fmt, ...) LS_PRINTF(2, 3);
/* Print a library error and return its exit status. */
int cli_fail(const char *command, const ls_error *err);
/* Finish w and print its document on standard output; 0, or the status of
 * its error (running out of memory). */
int cli_print_json(const char *command, jsonw *w);
/* Print a usage error and the "Try" line; returns 64. */
int cli_usage_error(const char *command, const char *fmt, ...) LS_PRINTF(2, 3);
/* getopt_long() that refuses an option given twice.  An option that takes a
 * value is single-valued unless its value is in `repeatable` (a list ended
 * by 0; NULL for none) or it is --map or --where, which every command lets
 * repeat: a second occurrence returns CLI_OPT_TWICE instead of taking the
 * last value silently, and cli_option_error() names the option and both
 * values.  Options without a value (--force, --help) may repeat, since
 * giving them twice changes nothing. */
#define CLI_OPT_TWICE (-2)
#define CLI_OPT_ABBREVIATED (-3) /* a prefix of a long option name: refused */
#define CLI_OPT_MAX 512
int cli_getopt(int argc, char **argv, const char *optstring, const struct option *longopts, int *longindex,
               const int *repeatable);
/* Turn cli_getopt's '?', ':' or CLI_OPT_TWICE into a usage error; returns 64. */
int cli_option_error(const char *command, int opt, char **argv);
/* Print usage text to stdout; returns 0. */
int cli_help(const char *text);
/* Write text to path through outfile.h (a temporary file renamed into
 * place, so a failed run leaves no half-written file); returns 0 or the
 * exit status after printing the error. */
int cli_write_file(const char *command, const char *path, const char *text);
/* ---- files: no output may replace an input ------------------------------ */

/* Every command names each file it will read and each file it will write,
 * with the option that named it ("SWEEP" for an operand), then calls
 * cli_files_check() once, before any work.  The check compares by file
 * identity — device and inode of what exists (fstat(0) for "-", standard
 * input), the resolved directory and name of what does not — so `x`, `./x`,
 * `d/../x`, symlinks and hard links are one file, and refuses with a usage
 * error (64) an output that is an input, two outputs that are one file, two
 * outputs on standard output, one input named twice under one option (`fit S
 * S` would count each run twice), an empty output name, and one too long to
 * take the temporary suffix; an output in a missing or unwritable directory,
 * or that is a directory, fails up front with 73.  cli_write_files()
 * refuses (70) a path that was not checked, so a command
 * that forgets to name an output fails its first test rather than a user's
 * data.  A NULL path is skipped.  A command that prints its results on
 * standard output names that too, as an output "-" whose option is a phrase
 * ("the table"), so that `-o -` cannot mix a file into them. */
void cli_file_input(const char *option, const char *path);
void cli_file_output(const char *option, const char *path);
int cli_files_check(const char *command);
/* Write up to LS_OUTFILE_MAX_OPEN files checked by cli_files_check() (a
 * NULL path is skipped), all or none: each is written and synced to its
 * temporary file before the first is renamed, and none is written when
 * standard output has already failed. */
int cli_write_files(const char *command, size_t n, const char *const *paths, const char *const *texts);
/* The same for data of given lengths (plots are binary). */
int cli_write_data(const char *command, size_t n, const char *const *paths, const void *const *data,
                   const size_t *lens);
/* "write error on standard output" and its exit status (74). */
int cli_stdout_failed(const char *command, int errnum);
/* Run a command of the library (loopscale/command.h) on argv: the options
 * parsed into a request, the request run, its notes and warnings printed on
 * standard error, its text on standard output, its files committed.
 * streaming: the text is written as the command makes it. */
int cli_run(const char *command, int argc, char **argv, int streaming);
/* Flush and close stdout; a failed write of the results is a failure (74). */
int cli_finish(const char *command, int status);

/* ---- option values ---------------------------------------------------- */

int cli_parse_double(const char *command, const char *option, const char *arg, double *out);
int cli_parse_positive(const char *command, const char *option, const char *arg, double *out);
/* A memory size in bytes: k M G T P E or Ki Mi Gi Ti, each with an optional
 * B (3GB, 3GiB, 3G); a B straight after the number (3B: 3 bytes, or 3
 * billion?) is refused as ambiguous.  Must be positive. */
int cli_parse_bytes(const char *command, const char *option, const char *arg, double *out);
int cli_parse_long(const char *command, const char *option, const char *arg, long min, long max, long *out);
/* --ci: an interval's level, a fraction from 0.5 to 0.999 (a level outside (0, 1) is
 * refused as such; 1e-300 would print a "1e-298% interval" of one draw). */
int cli_parse_level(const char *command, const char *arg, double *out);
int cli_parse_seed(const char *command, const char *arg, unsigned long *out);
/* A comma-separated list of positive numbers; *values is malloc'd. */
int cli_parse_list(const char *command, const char *option, const char *arg, double **values, size_t *n);
/* The same for FLOP budgets: k M B/G T P E suffixes, B a billion; a size
 * in bytes (3GB, 3GiB) is refused saying so. */
int cli_parse_flops_list(const char *command, const char *option, const char *arg, double **values, size_t *n);

typedef enum { CLI_FORMAT_TABLE, CLI_FORMAT_CSV, CLI_FORMAT_JSON, CLI_FORMAT_MD } cli_format;
/* Parse --format; `allowed` is a bit mask of 1 << cli_format. */
int cli_parse_format(const char *command, const char *arg, unsigned allowed, cli_format *out);

typedef struct cli_strings {
    const char **v;
    size_t n, cap;
} cli_strings;
/* Returns 0, or 70 when out of memory. */
int cli_strings_push(cli_strings *list, const char *s);
void cli_strings_free(cli_strings *list);

/* --map, --where and the other options of the sweep reader. */
typedef struct cli_sweep_args {
    cli_strings maps, wheres;
    cli_strings map_origins, where_origins; /* one per map and where: the profile's place, or NULL */
    int skip_invalid;
    int loss_in_bits;
    double bytes_per_token;
    double group_tol;
    const char *run, *step;
    int last;
    int loss_unit_given;
    struct ls_profile *profile; /* --profile, or NULL */
    cli_strings given; /* the reader's other options as given ("--loss-unit bits"), for
                        * provenance; each string malloc'd */
} cli_sweep_args;
/* Handle one of CLI_FIT_OPTIONS into params; returns 1 when opt was one of
 * them, with *status 0 or a usage error's exit status. */
int cli_fit_option(const char *command, int opt, const char *arg, ls_fit_parameters *params, int *status);
/* --fix NAME=VALUE and --tie NAME=LEADER, for a parameter used by one of
 * the laws; given[] records the --fix already seen per parameter (a second
 * one is refused).  Parse every --fix before any --tie. */
int cli_parse_fix(const char *cmd, const char *text, const ls_law_kind *kinds, size_t nkinds, ls_fit_parameters *p,
                  const char *given[LS_LAW_NPARAMS]);
int cli_parse_tie(const char *cmd, const char *text, const ls_law_kind *kinds, size_t nkinds, ls_fit_parameters *p);

/* What fit and report say of a fit ls_fit_run returned.  cli_fit_usable:
 * a fit with no residual to judge it by (runs <= free parameters) is
 * refused (65), and so is a sweep that cannot determine the law
 * (ls_fit_data_check; the message ends in not_written); the parameters
 * held at their neutral values are warned of, one line per reason; returns
 * 0 or the exit status.  cli_fit_verdict: a best solve that did not
 * converge, or a fit that cannot tell its parameters apart (determined =
 * ls_fit_determined), is refused (3), the message ending in not_converged
 * or undetermined (what was not written); returns 0 or 3.  cli_not_written:
 * what a failed run says it left, `what` ("no law file written") with
 * "(PATH keeps its old content)" when path names an existing file. */
void cli_not_written(char *buf, size_t size, const char *what, const char *path);
int cli_fit_usable(const char *command, const ls_sweep *s, ls_law_kind kind, const ls_fit_parameters *p, const ls_fit_result *r,
                   const char *not_written);
int cli_fit_verdict(const char *command, const ls_sweep *s, const ls_fit_result *r, int determined,
                    const char *not_converged, const char *undetermined);
/* 1 when every parameter of the fitted law is inside its domain (law.c);
 * a fit that ends outside (a loss rising with size: alpha < 0) is not a law,
 * since no command would read the file it wrote, and cli_fit_verdict
 * refuses it (3) with err's message. */
int cli_fit_in_domain(const ls_fit_result *r, ls_error *err);

/* The figure options, with the command line as the plots' provenance. */
ls_figure cli_plot_defaults(void);
/* Handle one of CLI_PLOT_OPTIONS into out; returns 1 when opt was one of
 * them, with *status 0 or a usage error's exit status. */
int cli_plot_option(const char *command, int opt, const char *arg, ls_figure *out, int *status);
/* The format of a plot file from its name (option names it in the
 * message); 0, or a usage error's exit status for an unknown extension.
 * NULL path: nothing to check. */
int cli_plot_format(const char *command, const char *option, const char *path, ls_figure *out);

/* After cli_plot_format: a figure option given without a plot to apply it
 * to ("--plot-size has no effect without --plot"), or --dpi without a PNG
 * among the plots, is a usage error (64).  plots[i] (NULL when not given)
 * is drawn as figures[i]; plot_options names them for the message ("--plot
 * or --plot-rho"); nplots 0 for a command whose figures are never PNG
 * (then only --dpi is checked, against plot_options). */
int cli_plot_options_check(const char *command, size_t nplots, const char *const *plots, const ls_figure *const *figures,
                           const char *plot_options);

/* Handle one of CLI_SWEEP_OPTIONS into args; returns 1 when opt was one of
 * them, with *status 0 or a usage error's exit status. */
int cli_sweep_option(const char *command, cli_sweep_args *args, int opt, const char *arg, int *status);
/* What fit and holdout say about a sweep's checkpoints: how many earlier
 * steps --last dropped, or a warning when runs have several rows and no
 * choice was made (each row is then fitted as a run). */
void cli_sweep_report_checkpoints(const char *command, const ls_sweep *s, const cli_sweep_args *args);
/* A note on standard error for the rows --skip-invalid dropped, if any. */
void cli_sweep_report_skips(const char *command, const char *name, const ls_sweep_skips *skipped);
/* A number with an optional SI suffix (125M, 2.8B, 1.5T, 3k); B is a billion. */
int cli_parse_count(const char *command, const char *option, const char *arg, double *out);

/* x with `decimals` digits after the point (a loss: "2.0982") while it is
 * below 1e6 in size, else with decimals + 1 significant digits ("8.3185e+299"),
 * so that a huge value from an extreme law never prints as hundreds of
 * digits; returns buf. */
const char *cli_fixed(char *buf, size_t size, double x, int decimals);
#define CLI_FIXED_MAX 1e6
/* The most runs fit and holdout hold in memory: LOOPSCALE_MAX_ROWS (0: no
 * limit), by default CLI_MAX_ROWS_DEFAULT; more is a status 65 error. */
#define CLI_MAX_ROWS_DEFAULT ((size_t)10000000)
size_t cli_max_rows(void);
ls_sweep_options cli_sweep_options(const char *command, const cli_sweep_args *args);
void cli_sweep_args_free(cli_sweep_args *args);

/* ---- laws -------------------------------------------------------------- */

/* Read --law FILE, or with path NULL the default law embedded in the
 * binary, with a note saying so.  A file recording a fit that did not
 * converge, or whose parameters the sweep could not tell apart, is refused
 * (65) unless force is set (then a warning). */
ls_lawfile *cli_read_law(const char *command, const char *path, int force, int *status);
#define CLI_FORCE_HELP                                                                                           \
    "      --force             use a law file whose fit did not converge or could not tell its\n"             \
    "                          parameters apart (refused otherwise)\n"

/* --laws LIST: comma-separated laws, none empty or given twice; *laws is
 * malloc'd (a previous list is freed).  --axes LIST: from R, N, D, E, none
 * empty or given twice, into axes (room for 4).  0 or a usage error's exit
 * status. */
int cli_parse_laws(const char *command, const char *arg, ls_law_kind **laws, size_t *n);
int cli_parse_axes(const char *command, const char *arg, ls_holdout_axis *axes, size_t *n);

/* ---- tables -------------------------------------------------------------- */

/* A table of text cells printed aligned (numbers to the right), as
 * markdown, or as CSV. */
typedef struct cli_table cli_table;
cli_table *cli_table_new(size_t ncols, const char *const *headers);
/* Append a row of ncols cells (copied); returns 0 or -1 when out of memory. */
int cli_table_add(cli_table *t, const char *const *cells);
void cli_table_print(const cli_table *t, FILE *fp, cli_format format);
void cli_table_free(cli_table *t);

/* Quote a CSV field when it needs it. */
void cli_csv_field(FILE *fp, const char *s, size_t len);

/* ---- FLOP conventions (docs/flops.md) ------------------------------------ */

#define CLI_FLOPS_OPTION {"flops-convention", required_argument, NULL, OPT_FLOPS_CONVENTION}
#define CLI_FLOPS_HELP                                                                                           \
    "      --flops-convention C  how training FLOPs are counted: 6nd (the default), 6nd+head,\n"          \
    "                          6nd+attn or 6nd+attn+head (docs/flops.md); attn needs the template's\n" \
    "                          context, head its vocab\n"
/* --flops-convention NAME into *kind; 0, or a usage error's exit status. */
int cli_parse_flops_convention(const char *command, const char *arg, ls_law_flops_kind *kind);
/* 0 when the template's convention has what it needs (ls_law_flops_check),
 * else a usage error's exit status with the message. */
int cli_check_flops(const char *command, const ls_arch_template *t);
/* For the commands that read sweeps (fit, holdout, report): t read from
 * template_path (NULL: the default template), its convention replaced by
 * --flops-convention when given, checked, and copied to out; 0 or an exit
 * status. */
int cli_sweep_flops(const char *command, const char *template_path, int given, ls_law_flops_kind kind, ls_arch_template *t,
                    ls_law_flops *out);
#define CLI_SWEEP_FLOPS_HELP                                                                                     \
    CLI_FLOPS_HELP                                                                                               \
    "      --template FILE     architecture template (JSON) giving the context, vocab and layers\n"            \
    "                          that --flops-convention counts a flops column with\n"

#endif
