/*
 * loopscale/command.h — one entry point for every command, and the one table
 * of their options.
 *
 * Everything the loopscale program can do is a command of the library: a
 * request names the command and carries its options by name, with the
 * program's own value syntax ("3GB", "1e19:1e23:9", "1,2,4"); the library
 * checks each value against the option table (type, range, and the options
 * it cannot stand beside), applies the documented defaults, runs the
 * computation and returns a result.  The result carries what the program
 * would print on standard output (in the requested --format), the command's
 * JSON document, the notes and warnings (loopscale/warning.h) the user
 * should see, and the files the command writes, which are written only by
 * ls_result_commit(): all of them or none, never over an input.
 *
 * So every front end decides nothing: the program (src/cli) parses argv into
 * a request, runs it and prints; the Python package sets its keyword
 * arguments the same way; a C host can do either.  A default, a range, a
 * warning or a refusal lives here once.
 *
 * Option names are the long names of the program without the dashes
 * ("flops", "n-act", "plot-size"); ls_request_set() also takes them with
 * underscores ("n_act"), as keyword arguments spell them.  A switch takes
 * NULL (or "true"/"false").  A repeatable option (--map, --where, --fix) adds
 * one value per call.  Operands (sweep files, logits) are added in order.
 *
 * Ownership: a request and a result are freed with their _free functions;
 * every string a result returns belongs to it.  Thread safety: no global
 * state; requests and results may be used from several threads, each
 * object by one thread at a time.
 */
#ifndef LOOPSCALE_COMMAND_H
#define LOOPSCALE_COMMAND_H

#include <stddef.h>

#include "loopscale/error.h"
#include "loopscale/export.h"
#include "loopscale/warning.h"

LS_API_BEGIN

/* ---- the commands and their options ------------------------------------ */

typedef enum {
    LS_OPTION_SWITCH,   /* no value */
    LS_OPTION_TEXT,     /* free text: a column name, a title */
    LS_OPTION_CHOICE,   /* one of `choices` ("huber|mse") */
    LS_OPTION_INPUT,    /* a file read ("-": standard input where allowed) */
    LS_OPTION_OUTPUT,   /* a file written ("-": standard output where allowed) */
    LS_OPTION_INTEGER,  /* a whole number in [min, max] */
    LS_OPTION_NUMBER,   /* a real number in [min, max] */
    LS_OPTION_COUNT,    /* a count with an SI suffix: 125M, 2.8B (B a billion) */
    LS_OPTION_FLOPS,    /* a count of FLOPs: k M B/G T P E */
    LS_OPTION_BYTES,    /* a memory size: 3GB, 3GiB, 2.5e9 */
    LS_OPTION_LIST,     /* comma-separated numbers, each in [min, max], none twice */
    LS_OPTION_FLOPS_LIST, /* FLOP budgets: a list F1,F2,... or a range LO:HI:N */
    LS_OPTION_LAW,      /* a law: BASE[:MAPPING] */
    LS_OPTION_LAWS,     /* comma-separated laws */
    LS_OPTION_AXES,     /* held-out axes from R,N,D,E */
    LS_OPTION_PAIR,     /* NAME=VALUE (--map, --fix, --tie) */
    LS_OPTION_CONDITION,/* a filter 'COL OP X' (--where, --split) */
    LS_OPTION_SIZE,     /* a figure size WxH, inches or cm */
    LS_OPTION_LEVEL     /* an interval level from 0.5 to 0.999 */
} ls_option_type;

#define LS_OPTION_REPEATABLE 1u /* may be given several times, each adding a value */
#define LS_OPTION_INTEGRAL 2u   /* numbers must be whole (loop and expert counts) */
#define LS_OPTION_STDIO 4u      /* "-" names standard input (an input) or output (an output) */
#define LS_OPTION_OPEN 8u       /* the range (min, max) excludes both ends */

/* One option of one command, as its help, the man page and the Python
 * keyword arguments show it.  min and max are NaN where the type has no
 * numeric range; default_text is NULL when the option has no default (it
 * is required, or off), and default_doc says in words what an absent
 * option means when the default is computed ("the law's fit RMSE"). */
typedef struct ls_option {
    const char *name;       /* "flops" */
    char short_name;        /* 'l', or 0 */
    ls_option_type type;
    unsigned flags;
    const char *metavar;    /* "F", "LIST", "FILE" */
    double min, max;
    const char *choices;    /* "huber|mse" for a choice, else NULL */
    const char *default_text;
    const char *default_doc;
    const char *help;       /* one paragraph, unwrapped */
    const char *heading;    /* a line the help prints before this option, or NULL */
    const char *unit;       /* what a number counts ("loops", "bytes"), for messages; or NULL */
} ls_option;

/* The commands, in the order help lists them. */
size_t ls_command_count(void);
const char *ls_command_name(size_t i);
const char *ls_command_summary(size_t i);
/* The i-th option of a command, in help order, as the command shows it
 * (its own help and default where it has them) into *out: 1, or 0 past the
 * end or for an unknown command.  The strings are the library's. */
int ls_command_option(const char *command, size_t i, ls_option *out);
/* 1 when the command's standard output may be large and is made as it
 * goes (predict, simulate): a front end that prints it should give a writer
 * (ls_request_set_writer) rather than hold it. */
int ls_command_streams(const char *command);
/* The command's help as `loopscale COMMAND --help` prints it (malloc'd), or
 * NULL for an unknown command. */
char *ls_command_help(const char *command);
/* Every numeric option's range, one line each, as the man page's RANGES
 * section lists them (malloc'd; troff when troff_style is non-zero). */
char *ls_command_ranges(int troff_style);
/* Every command's section of the man page (usage, description, options),
 * in troff, made from the same table as the help (malloc'd). */
char *ls_command_man(void);

/* ---- requests ------------------------------------------------------------ */

typedef struct ls_request ls_request;

/* How messages spell an option: "--mem" for the program, "mem" for a
 * keyword argument. */
typedef enum { LS_FRONT_END_CLI, LS_FRONT_END_KEYWORDS } ls_front_end;

/* Progress of long work (starts, bootstrap draws, simulated sweeps): `what`
 * names the stage ("starts"); done of total.  Called from the thread that
 * runs the command. */
typedef void (*ls_progress_fn)(void *context, const char *what, size_t done, size_t total);

/* A request for `command` with every option at its default; NULL with an
 * LS_ERR_USAGE error for an unknown command. */
ls_request *ls_request_new(const char *command, ls_front_end front_end, ls_error *err) LS_MUST_CHECK;
void ls_request_free(ls_request *r);

/* Set an option from its text, checked against the table (LS_ERR_USAGE with
 * the program's message otherwise).  value is NULL for a switch.  An option
 * that takes one value refuses a second ("--flops given twice"). */
int ls_request_set(ls_request *r, const char *option, const char *value, ls_error *err) LS_MUST_CHECK;
/* The same with the value's length given: a value holding a NUL byte (a
 * path cut short by a C string) is refused rather than truncated. */
int ls_request_set_n(ls_request *r, const char *option, const char *value, size_t len, ls_error *err) LS_MUST_CHECK;
/* Add an operand (a sweep file, a logits file; "-" for standard input). */
int ls_request_add_operand(ls_request *r, const char *value, size_t len, ls_error *err) LS_MUST_CHECK;
/* The command line (or call) recorded as the provenance of files written. */
int ls_request_set_invocation(ls_request *r, const char *text, ls_error *err) LS_MUST_CHECK;
void ls_request_set_progress(ls_request *r, ls_progress_fn fn, void *context);
/* The descriptors the front end prints the result's text and its messages
 * on (-1: none, as in a notebook).  The library refuses a request whose
 * output, or whose standard output or error, is one of its inputs. */
void ls_request_set_streams(ls_request *r, int stdout_fd, int stderr_fd);
/* A front end that prints the result's text as it is made (a large
 * prediction) gives a writer; the result's text then stays empty. */
typedef int (*ls_write_fn)(void *context, const char *data, size_t len);
void ls_request_set_writer(ls_request *r, ls_write_fn fn, void *context);

/* ---- results ------------------------------------------------------------- */

typedef struct ls_result ls_result;

/* Run the request.  *out receives the result (NULL only when memory ran
 * out), which carries the notes and warnings made before a failure too; the
 * return value is 0 or the failure's LS_ERR_* code with err's message.
 * Nothing is written to any file until ls_result_commit(). */
int ls_command_run(const ls_request *r, ls_result **out, ls_error *err) LS_MUST_CHECK;

/* What the program prints on standard output, in the requested format ("" for
 * none); the command's JSON document (NULL for a command without one). */
const char *ls_result_text(const ls_result *res);
const char *ls_result_json(const ls_result *res);
size_t ls_result_warning_count(const ls_result *res);
const ls_warning *ls_result_warning(const ls_result *res, size_t i);
/* Information lines ("using the default law ..."): not warnings, silenced
 * by --quiet. */
size_t ls_result_note_count(const ls_result *res);
const char *ls_result_note(const ls_result *res, size_t i);
/* The notes and warnings together, in the order they were made: for
 * message i, either *note or *warning is set (the other NULL). */
size_t ls_result_message_count(const ls_result *res);
void ls_result_message(const ls_result *res, size_t i, const char **note, const ls_warning **warning);
/* 1 when standard error is an input of the request: the front end must
 * write nothing to it (the failure is in the return status only). */
int ls_result_stderr_blocked(const ls_result *res);
/* The files the command writes (paths as given). */
size_t ls_result_output_count(const ls_result *res);
const char *ls_result_output_path(const ls_result *res, size_t i);
/* Write every output file, all or none (each to a temporary file beside
 * its destination, synced, then renamed); 0 or an LS_ERR_* code. */
int ls_result_commit(ls_result *res, ls_error *err) LS_MUST_CHECK;
void ls_result_free(ls_result *res);

/* Remove the temporary file of every output being committed (the
 * destinations are untouched).  Async-signal-safe: a host's handler of a
 * fatal signal calls it before dying, so no "NAME.tmp.XXXXXX" is left. */
void ls_remove_temporaries(void);

LS_API_END

#endif
