/*
 * command_internal.h — what the commands' entry points share: the option
 * identifiers and table, the request's parsed values, the result they fill.
 *
 * Each command is a `cmd_def` (command.c): its name, summary, usage and
 * description, the options it takes (in help order, each with a help text or
 * default of its own where the command means something particular by it),
 * the output formats it prints and its entry point, a function
 *
 *     int cmd_NAME(const ls_request *req, ls_result *res, ls_error *err);
 *
 * in src/lib/commands/NAME.c.  An entry point reads its options through the
 * req_* getters (absent options read as their default), adds notes and
 * warnings to the result, appends what standard output shows with
 * res_printf / the table printer, sets the JSON document and hands the files
 * it writes to res_output().  It prints nothing and writes no file.
 */
#ifndef LOOPSCALE_COMMAND_INTERNAL_H
#define LOOPSCALE_COMMAND_INTERNAL_H

#include <stdarg.h>
#include <stddef.h>

#include "loopscale/command.h"
#include "loopscale/error.h"
#include "loopscale/law.h"
#include "loopscale/holdout.h"
#include "loopscale/warning.h"
#include "textout_internal.h"

/* Every option of every command, one row each in options.c's table. */
typedef enum {
    /* what every command takes */
    O_QUIET,
    /* the sweep reader */
    O_MAP, O_WHERE, O_SKIP_INVALID, O_LOSS_UNIT, O_BYTES_PER_TOKEN, O_GROUP_TOL, O_RUN, O_STEP, O_LAST, O_PROFILE,
    /* the fit */
    O_LOSS, O_HUBER_DELTA, O_SPACE, O_GRID, O_STARTS, O_SEED, O_THREADS, O_FIX, O_TIE, O_FIX_FROM, O_BOOTSTRAP,
    O_GROUP, O_BOOTSTRAP_STARTS, O_CI, O_CI_METHOD, O_SCALE, O_MAX_ITERATIONS, O_BY, O_SEARCH,
    O_MLP, O_SHARED_EXPERTS, O_MOE_LAYERS, O_INJECTION, O_NORMS, O_EMBEDDING_NORM, O_LOOP_NORM,
    /* serving: the KV cache, lifetime inference, quantised weights (solve, frontier, plan, report) */
    O_SERVE_CONTEXT, O_BATCH, O_KV_BITS, O_ACTIVATION_MEMORY, O_INFERENCE_TOKENS, O_TARGET_LOSS, O_QUANTISATION,
    O_BITS_COLUMN,
    /* laws */
    O_LAW_FILE, O_LAW_KIND, O_LAWS, O_FORCE, O_AXES, O_SPLIT,
    /* budgets and the solver */
    O_FLOPS, O_FLOPS_LIST, O_MEM, O_BITS, O_TEMPLATE, O_PRINT_TEMPLATE, O_FLOPS_CONVENTION, O_R_LIST, O_E_LIST,
    O_N_ACT_LIST, O_EPS, O_TABLE, O_UNCERTAINTY, O_POINTS,
    /* isofit */
    O_METHOD, O_KEEP, O_MIN_RUNS, O_NOISE_DRAWS, O_NOISE_SD,
    /* plan */
    O_BUDGET, O_GPU_HOURS, O_FLOP_RATE, O_TARGET, O_TOKENS_LIST, O_CANDIDATES, O_HAVE, O_NOISE, O_DRAWS,
    O_PRIOR_SD, O_VALIDATE, O_TRUTH, O_BASELINE_FLOPS,
    /* predict: one configuration */
    O_N_ACT, O_N_TOTAL, O_N_LOOP, O_R, O_E, O_K, O_TOKENS, O_UNIQUE_TOKENS,
    /* shape */
    O_SHAPE, O_D_MODEL, O_D_FF, O_D_EXPERT, O_TOP_K, O_VOCAB, O_EXPERTS, O_LAYERS, O_LOOPS, O_HEAD_LAYERS,
    O_TAIL_LAYERS, O_HEAD_EXPERTS, O_TAIL_EXPERTS, O_ATTENTION, O_EMBEDDINGS, O_HEADS, O_KV_HEADS, O_HEAD_DIM,
    O_NORM_PARAMS, O_CONTEXT, O_FLATTEN, O_MUP_BASE_WIDTH,
    /* route, exit */
    O_PER_LOOP, O_PRELUDE, O_LOOP, O_CODA, O_THRESHOLDS, O_AT, O_ROWS,
    /* output */
    O_FORMAT, O_OUTPUT, O_PLOT, O_PLOT_RHO, O_PLOT_SIZE, O_PLOT_FONT_SIZE, O_PLOT_TITLE, O_PLOT_NO_TITLE,
    O_PLOT_STYLE, O_PLOT_CAPTION, O_DPI,
    O_NOPTIONS
} opt_id;

extern const ls_option OPTION_TABLE[O_NOPTIONS];

/* One entry of a command's option list: the option, and what this command
 * says of it where that differs from the table's row. */
typedef struct cmd_option {
    opt_id id;
    const char *help;         /* NULL: the row's */
    const char *default_text; /* NULL: the row's */
    const char *default_doc;  /* NULL: the row's; "": none shown (the command requires the option) */
    const char *heading;      /* a line before it in the help, or NULL */
} cmd_option;

typedef int (*cmd_fn)(const ls_request *req, ls_result *res, ls_error *err);

/* The output formats, as --format names them. */
typedef enum { FMT_TABLE, FMT_CSV, FMT_TSV, FMT_JSON, FMT_MD, FMT_HTML, FMT_NFORMATS } fmt_kind;

typedef struct cmd_def {
    const char *name;
    const char *summary;
    const char *usage;       /* after "Usage: loopscale NAME " (lines joined by \n) */
    const char *description; /* paragraphs separated by blank lines, unwrapped */
    /* What the operands are, for messages: the forms they take separated by
     * '|', each a list of words, a last word ending in "..." standing for
     * any number of them ("SWEEP...", "CSV|ENTROPY.npy NLL.npy"); NULL for
     * none. */
    const char *operands;
    size_t min_operands, max_operands;
    const char *formats;     /* what --format takes, "table|json"; the first is the default; NULL: no --format */
    const char *epilogue;    /* after the options (exit status notes), or NULL */
    const char *stdout_label; /* what the command prints on standard output ("the table"), or NULL */
    int streams;             /* its standard output may be large and is made as it goes (a front end
                              * that can should give a writer: ls_request_set_writer) */
    const cmd_option *options; /* ended by an entry with id O_NOPTIONS */
    cmd_fn run;
} cmd_def;

const cmd_def *cmd_find(const char *name);
/* How messages name operand i of n (i < n): word i of the first form of
 * def->operands that takes n operands, "..." left off ("SWEEP", "NLL.npy");
 * "FILE" when the command names none. */
void cmd_operand_label(const cmd_def *def, size_t i, size_t n, char *buf, size_t size);
/* The name of the format a command prints by default ("table"). */
const char *cmd_default_format(const cmd_def *def);
/* The entry of `id` in def's option list, or NULL when def does not take it. */
const cmd_option *cmd_option_of(const cmd_def *def, opt_id id);

/* ---- a request's values --------------------------------------------------- */

typedef struct req_value {
    unsigned given;    /* how many times set */
    char *text;        /* the last text given (single-valued options) */
    char **items;      /* each text given (repeatable options) */
    size_t nitems, cap;
    double number;     /* NUMBER, COUNT, FLOPS, BYTES, INTEGER, LEVEL; SIZE: width */
    double number2;    /* SIZE: height */
    double *list;      /* LIST, FLOPS_LIST */
    size_t n;
    ls_law_kind *laws; /* LAW (one), LAWS */
    ls_holdout_axis axes[4];
} req_value;

struct ls_request {
    const cmd_def *def;
    ls_front_end front_end;
    req_value v[O_NOPTIONS];
    char flags[O_NOPTIONS][24]; /* each option as messages name it: "--n-act" or "n_act" */
    char **operands;
    size_t noperands, cap;
    char *invocation;
    ls_progress_fn progress;
    void *progress_context;
    int stdout_fd, stderr_fd;
    ls_write_fn writer;
    void *writer_context;
};

/* text (a message) with every "--NAME" of the option table spelled as the
 * request's front end names it, in place. */
void req_respell(const ls_request *r, char *text);
/* How messages name the option: "--mem" or "mem". */
const char *req_flag(const ls_request *r, opt_id id);
int req_given(const ls_request *r, opt_id id);
/* The option's value, or its default (the command's, else the table's)
 * when absent; NaN / 0 / NULL when it has none. */
double req_number(const ls_request *r, opt_id id);
long req_integer(const ls_request *r, opt_id id);
const char *req_text(const ls_request *r, opt_id id);
const double *req_list(const ls_request *r, opt_id id, size_t *n);
const char *const *req_items(const ls_request *r, opt_id id, size_t *n);
/* LAW: the law given or the default's; LAWS: the list (NULL, 0 when absent). */
ls_law_kind req_law(const ls_request *r, opt_id id);
const ls_law_kind *req_laws(const ls_request *r, opt_id id, size_t *n);
size_t req_axes(const ls_request *r, opt_id id, ls_holdout_axis axes[4]);
/* The index of --format's value in fmt_kind. */
fmt_kind req_format(const ls_request *r);
/* A usage error naming the option ("--ci has no effect without
 * --uncertainty" reads req_flag for both). */
int req_usage(const ls_request *r, ls_error *err, const char *fmt, ...) LS_PRINTF(3, 4);
/* The number of threads a computation uses: --threads, else one per core. */
int req_threads(const ls_request *r);

/* Parse `text` (len bytes) as the value of option id into v; 0 or a usage
 * error naming the option as `flag` spells it (options.c). */
int opt_parse(const ls_option *o, const char *flag, const char *text, size_t len, req_value *v, ls_error *err);
/* The default of option id for def (the command's, else the row's). */
const char *opt_default(const cmd_def *def, opt_id id);

/* ---- the result being made ---------------------------------------------- */

typedef struct pending_output {
    char *option; /* "--plot" */
    char *path;
    unsigned char *data;
    size_t len;
} pending_output;

struct ls_result {
    const ls_request *req;
    strbuf text;      /* standard output */
    char *json;
    ls_warnings warnings;
    char **notes;
    size_t nnotes, notes_cap;
    /* Notes and warnings in the order they were made: a warning as
     * index + 1, a note as -(index + 1). */
    long *order;
    size_t norder, order_cap;
    pending_output *outputs;
    size_t noutputs, outputs_cap;
    int stderr_blocked;
    int failed_memory; /* a note or warning could not be kept */
};

int res_note(ls_result *res, const char *fmt, ...) LS_PRINTF(2, 3);
int res_warn(ls_result *res, ls_warning_code code, const char *subject, const char *fmt, ...) LS_PRINTF(4, 5);
/* Append formatted text to standard output. */
int res_printf(ls_result *res, const char *fmt, ...) LS_PRINTF(2, 3);
/* Standard output through the front end's writer when it gave one, else
 * kept in the result. */
int res_write(ls_result *res, const char *data, size_t len);
/* The command's JSON document (the result takes text). */
void res_set_json(ls_result *res, char *text);
/* A file to write at commit: data (len bytes) is taken over.  The option
 * names it in messages. */
int res_output(ls_result *res, opt_id option, const char *path, unsigned char *data, size_t len, ls_error *err);
/* The progress callback of the request, or NULL. */
void res_progress(const ls_result *res, const char *what, size_t done, size_t total);

/* "out of memory" */
int res_oom(ls_error *err);

/* ---- the file guard (guard.c) ------------------------------------------------ */

/* Check every file the request reads and writes before any work: no output
 * may replace an input under any name (links, ./, relative paths, /dev/fd),
 * two outputs may not be one file, one stream may not be read twice; an
 * output in a missing or unwritable directory fails up front (73). */
int guard_check(const ls_request *req, ls_result *res, ls_error *err);
/* The same with the outputs a command derives from its options (one file
 * per group: paths[i] named by options[i]) in place of the options' own. */
int guard_check_outputs(const ls_request *req, ls_result *res, const opt_id *options, const char *const *paths,
                        size_t n, ls_error *err);
/* Write outputs, all or none. */
int guard_commit(pending_output *outputs, size_t n, ls_error *err);

#endif
