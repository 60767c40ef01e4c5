/*
 * loopscale/sweep.h — reading the results of a training sweep.
 *
 * A sweep is a CSV file with a header row, or JSON Lines (one object a run),
 * plain or gzip (recognised by its magic bytes; "-" for standard input).
 * Columns are matched to the quantities of docs/formats.md case-insensitively,
 * with their aliases; `--map new=old` renames a column; `--where` filters
 * rows.  Every cell a quantity needs is checked against the one set of limits
 * the options that give a quantity share (ls_sweep_quantity_limits), and any
 * problem is an LS_ERR_DATA error that names the file, the line, the column
 * and the offending text.  Nothing is guessed.
 *
 * ls_sweep_read() returns a sweep the caller owns and frees with ls_sweep_free().
 * ls_sweep_stream() hands each row to a callback instead and holds none, so
 * that a sweep of any length is read in constant memory (predict does);
 * ls_sweep_read() is built on the same reader and stores the rows.  Either
 * holds one record at a time, at most 16 MiB of text, in every format (JSON
 * Lines is read twice, a line at a time: a pipe's bytes are kept meanwhile
 * in a temporary file); ls_sweep_read's rows cost about 104 bytes each.
 *
 * Thread safety: a sweep is read-only once ls_sweep_read() returns it: any
 * number of threads may read it at once (the fits do).
 */
#ifndef LOOPSCALE_SWEEP_H
#define LOOPSCALE_SWEEP_H

#include <stddef.h>

#include "loopscale/error.h"
#include "loopscale/group.h"
#include "loopscale/law.h"
#include "loopscale/export.h"
#include "loopscale/warning.h"

LS_API_BEGIN

typedef enum {
    LS_SWEEP_N_ACT,
    LS_SWEEP_N_TOTAL,
    LS_SWEEP_N_LOOP,
    LS_SWEEP_R,
    LS_SWEEP_E,
    LS_SWEEP_K,
    LS_SWEEP_TOKENS,
    LS_SWEEP_FLOPS,
    LS_SWEEP_LOSS,
    LS_SWEEP_UNIQUE_TOKENS,
    LS_SWEEP_NQUANTITIES
} ls_sweep_quantity;

/* Canonical column name of a quantity ("n_act", "R", "tokens", ...). */
const char *ls_sweep_quantity_name(ls_sweep_quantity q);

/* The quantity a column name stands for (canonical or alias, any case), or
 * -1 when it is not one. */
int ls_sweep_quantity_from_name(const char *name, size_t len);

/* The values a quantity may take: the one rule for a sweep's cells and for
 * every option that gives one (predict --R, solve --E, plan --tokens...), so
 * that a configuration one command accepts no other refuses.  A value is in
 * range when min <= value <= max (min < value with min_excluded), a whole
 * number where integer is set.  Only the counts that logs write large take
 * an SI suffix (suffixes: k 1e3, M 1e6, B or G 1e9, T 1e12): the sizes, the
 * tokens and the FLOPs; R, E, k and the loss are plain numbers, so that a
 * loss of 2.5k is refused rather than read as 2,500 nats.  unit says what
 * the quantity counts ("parameters", "loops"), for messages.
 *
 *   quantity        range               integer  suffixes
 *   n_act, n_total  1 to 1e20           no       yes
 *   n_loop          1 to 1e20 (or 0 at R = 1: no loop block)
 *   R               1 to 10000          yes      no
 *   E, k            1 to 1e6            yes      no
 *   tokens, U       1 to 1e20           no       yes
 *   flops           1 to 1e40           no       yes
 *   loss            above 0             no       no
 */
/* The largest sensible values, which the reader and the options that give
 * these quantities (--n-act, --R, --E, --flops, ...) share. */
#define LS_SWEEP_MAX_PARAMS 1e20
#define LS_SWEEP_MAX_TOKENS 1e20
#define LS_SWEEP_MAX_FLOPS 1e40
#define LS_SWEEP_MAX_LOOPS 1e4
#define LS_SWEEP_MAX_EXPERTS 1e6

typedef struct ls_sweep_limits {
    double min, max;
    int min_excluded;
    int integer;
    int suffixes;
    const char *unit;
} ls_sweep_limits;

const ls_sweep_limits *ls_sweep_quantity_limits(ls_sweep_quantity q);

/* Check one value of quantity q against its limits (a finite number is
 * assumed: parsing refuses the rest).  Returns 0 when it is in range, else
 * 1 with a reason to follow the value in a message: "is not an integer",
 * "must be positive", "must be at least 1", or "is outside its range: an
 * integer from 1 to 10000 (loops)". */
int ls_sweep_quantity_check(ls_sweep_quantity q, double value, char *reason, size_t size);

/* Parse text[0..len) as a value of quantity q: a plain number, with an SI
 * suffix where q takes one.  Returns 0 with *value set, else 1 with a reason
 * to follow the quoted text ("is not a number", "is empty", "has a unit
 * suffix; R is a plain number ..."); the range is not checked here. */
int ls_sweep_quantity_parse(ls_sweep_quantity q, const char *text, size_t len, double *value, char *reason,
                            size_t size);

/* The words of the reader's LS_WARNING_DATA warning that names a column
 * counting parameters without the embeddings beside the alias n_act was read
 * from ('params' beside 'params_no_embed'), so that a front end may show it
 * as a note. */
#define LS_SWEEP_NON_EMBEDDING_NOTE "looks like the count without embeddings"

typedef struct ls_sweep_options {
    const char *const *maps;   /* "new=old" renames */
    size_t nmaps;
    const char *const *wheres; /* "COLUMN OP VALUE", all must hold (docs/formats.md#filters);
                                * tested on the cells before the row's quantities are read */
    size_t nwheres;
    int skip_invalid;          /* drop (and count) rows whose quantities are invalid instead
                                * of failing with LS_ERR_DATA */
    int loss_in_bits;          /* the loss column is in bits (else nats) */
    double bytes_per_token;    /* > 0: the loss column is per byte; this many bytes a token */
    const char *run_column;    /* the run identity column; NULL: the first of run, run_name,
                                * run_id, name, id that the file has (if any) */
    const char *step_column;   /* the checkpoint step column; NULL: the first of step, _step,
                                * global_step, trainer/global_step, iter, iteration */
    int last;                  /* keep only each run's row with the largest step (with
                                * ls_sweep_stream, the file is then read whole first) */
    double group_tol;          /* relative tolerance within which values of a quantity are one
                                * group (plot series, held-out tiers); 0: read off the data
                                * (ls_group_auto_tolerance).  Kept in the sweep read. */
    int require_loss;          /* the loss column must be present */
    int keep_text;             /* keep each row's cells (for echoing rows) */
    const char *group_column;  /* number rows by the distinct values of this column */
    const char *const *by_columns; /* keep each row's cells of these columns (non-empty), for
                                    * splitting the runs into groups (loopscale/split.h) */
    size_t nby;
    size_t max_rows;           /* ls_sweep_read: more rows kept than this is an
                                * LS_ERR_DATA error (0: no limit) */
    int checksum;              /* fill sweep.sha256 (fit's provenance) */
    const ls_law_flops *flops;    /* how a flops column was counted, for the tokens it stands
                                * for (NULL: 6nd, D = F / (6 N_unroll)); law.h */
    /* Where options that came from a sweep profile were written, as
     * "FILE:LINE:COLUMN" (NULL, or a NULL entry: given on the command
     * line).  An error about such an option is LS_ERR_DATA and starts with
     * its origin; about a command-line option, LS_ERR_USAGE. */
    const char *const *map_origins;   /* nmaps entries */
    const char *const *where_origins; /* nwheres entries */
    const char *run_origin, *step_origin;
    /* The older way, kept until the command layer takes warnings: when
     * options.warnings (below) is NULL, its first two kinds of note are
     * handed to warn (if set) as text instead. */
    void (*warn)(void *context, const char *message);
    void *warn_context;
    /* Configurations rather than runs (plan's candidates): when set, the
     * columns n_total, n_loop and k the file lacks come from this
     * architecture template (N_total and N_loop rounded to whole
     * parameters) instead of their defaults. */
    const struct ls_arch_template *shape;
    /* A sweep may give, instead of n_act, n_total and n_loop, each run's
     * configuration: columns named as a template's keys (d_model, d_ff,
     * loop_layers, heads, mlp, ...; docs/formats.md#configuration-columns),
     * counted as loopscale shape counts them (E, k and R are the runs').
     * What no column gives comes from this shape (NULL: nothing; a
     * template's model), and the vocabulary is not needed. */
    const struct ls_shape_spec *config_base;
    /* A sentence appended (after "; ") to the error about a flops column
     * whose tokens disagree with the tokens column, or NULL: a command that
     * takes no --flops-convention says what to do instead. */
    const char *flops_hint;
    /* What the user should know about how the sweep was read, as
     * LS_WARNING_DATA warnings appended here (NULL: see warn above): a
     * column whose name is a slip from a quantity that has none (n_totl
     * beside no n_total), which takes its default instead (subject: that
     * column); with options.last and ls_sweep_stream, the runs left out
     * (subject: the run column); and with options.law, what
     * ls_sweep_column_warnings says of the columns. */
    ls_warnings *warnings;
    /* The law the rows are read for (NULL: none): with warnings set, the
     * columns it does not read and those that hold one value for every run
     * are named (ls_sweep_column_warnings), for streamed rows too. */
    const ls_law_kind *law;
    /* Keep each row's value of every column no quantity is read from
     * (sweep.factors), for telling the runs of several experiments apart
     * (ls_fit_verdict).  Not for streamed rows. */
    int factors;
} ls_sweep_options;

/* The rows skip_invalid dropped: how many, the first few (line in file
 * number `file`), and the first one's message. */
#define LS_SWEEP_SKIPS_SHOWN 5
typedef struct ls_sweep_skips {
    size_t n;
    long line[LS_SWEEP_SKIPS_SHOWN];
    int file[LS_SWEEP_SKIPS_SHOWN];
    char first[LS_ERROR_MESSAGE_MAX];
} ls_sweep_skips;

/* "6 invalid rows skipped (lines 14, 27, 40, 53, 66, ...); the first: MESSAGE"
 * into buf; empty when none were. */
void ls_sweep_skips_describe(const ls_sweep_skips *k, char *buf, size_t size);

/* "3 runs left out: their last checkpoint was dropped (invalid or
 * filtered); first: 'r1' at line 40" into buf (sweep.last_dropped_*);
 * empty when none were. */
struct ls_sweep;
void ls_sweep_last_dropped_describe(const struct ls_sweep *s, char *buf, size_t size);

/* A cell of a row as read: {pointer, length}, unquoted, not NUL-terminated. */
typedef struct ls_sweep_text_cell {
    const char *ptr;
    size_t len;
} ls_sweep_text_cell;

/* One run, with defaults applied: n_total = n_act, R = E = k = 1 when their
 * columns are absent; n_loop is NaN when unknown (only allowed at R = 1) and
 * loss is NaN when the sweep has no loss column. tokens is derived from
 * flops when only flops is given: D = flops / (6 N_unroll) under 6nd, and
 * ls_law_tokens_for_flops_as(options.flops) in general.  When both are
 * given, each row's tokens must agree with the tokens its flops imply
 * (ls_law_tokens_for_flops_as) within LS_SWEEP_FLOPS_TOKENS_RTOL, relative to
 * the larger; otherwise the row is an LS_ERR_DATA error naming both cells.
 * unique_tokens (U: the unique tokens the run's data was drawn from, read
 * by the data-constrained law) is NaN (or 0, as a struct initialised
 * without it has) when not given: unlimited. */
#define LS_SWEEP_FLOPS_TOKENS_RTOL 1e-4
typedef struct ls_sweep_row {
    double n_act, n_total, n_loop, R, E, k, tokens, loss;
    double unique_tokens;
    long line;    /* line of the row in its file */
    int file;     /* index into the paths given to ls_sweep_read */
    size_t group; /* group id when options.group_column is set, else 0 */
    size_t text;  /* offset of the row's cells in the text store (keep_text) */
} ls_sweep_row;

/* A column no quantity is read from (dataset, seed, lr, a run's name), as a
 * possible setting of the experiment: each row's value as an index into its
 * distinct values (trimmed text, in first-seen order; "" for a row of a file
 * without the column).  A column of more than LS_SWEEP_FACTOR_VALUES
 * distinct values has nvalues = 0 and no values: too many to be settings.
 * At most LS_SWEEP_MAX_FACTORS columns are kept, the first in the files. */
#define LS_SWEEP_FACTOR_VALUES 255
#define LS_SWEEP_MAX_FACTORS 64
typedef struct ls_sweep_factor {
    char *name;
    size_t nvalues;
    char **values;
    unsigned char *of_row; /* one a row */
} ls_sweep_factor;

typedef struct ls_sweep {
    size_t n;
    ls_sweep_row *rows;
    int has_loss;
    size_t ngroups;
    /* With keep_text: the header and cells of each row, as NUL-separated
     * unquoted fields; only for single-file sweeps. */
    size_t ncolumns;
    char **column_names;
    char *text;
    size_t text_len;
    char *name; /* the file name(s), for messages and provenance */
    ls_sweep_skips skipped; /* rows dropped by skip_invalid */
    double group_tol;    /* options.group_tol: 0, automatic */
    /* Checkpoints: runs (by the run column) with more than one row kept,
     * and the rows options.last dropped (each run's earlier steps). */
    size_t runs_with_several_rows;
    size_t rows_of_those_runs;
    size_t earlier_steps_dropped;
    /* With options.last: the runs left out whole because their final
     * checkpoint (largest step among the rows the --where filters on text
     * kept) was dropped as invalid or by a filter on a quantity, or had a
     * step that is not a number; their rows kept otherwise, and the first
     * such run (in file order of its final row) with that row's line. */
    size_t last_dropped_runs;
    size_t last_dropped_rows;
    char last_dropped_first[64];
    long last_dropped_line;
    int last_dropped_file;
    char *run_column;    /* the run column used (NULL: none) */
    size_t filtered_out; /* rows the filters (options.wheres) dropped */
    size_t nfiles;
    char (*sha256)[65]; /* with options.checksum: of each file's bytes as read
                         * (standard input too), for provenance; else "" */
    /* With options.by_columns: their names as given, and each row's cells
     * (nby NUL-terminated strings from by_text + by_of_row[row]). */
    size_t nby;
    char **by_names;
    char *by_text;
    size_t by_text_len;
    size_t *by_of_row;
    /* The column each quantity was read from, as the file names it (the
     * first file's name when several files have one); NULL: no column. */
    char *quantity_column[LS_SWEEP_NQUANTITIES];
    /* When n_act, n_total and n_loop were counted from configuration
     * columns: which, as "d_model ('config/n_embd'), loop_layers (...)"
     * (the first file's; "" when none: options.config_base alone); else
     * NULL. */
    char *counted_from;
    /* With options.factors: the columns no quantity is read from. */
    size_t nfactors;
    ls_sweep_factor *factors;
} ls_sweep;

/* What a law of kind `kind` fitted to, or predicting, s should say about the
 * sweep's quantity columns: one LS_WARNING_DATA warning (subject: the
 * column's name in the file) for each column the law does not read (k
 * always; E outside the moe base; n_total outside the sparse mappings;
 * R and n_loop under the mapping none, unless the tokens come from a flops
 * column through N_unroll; unique tokens outside the data-constrained base),
 * and for each column it reads that should differ from run to run but holds
 * one value in every one of two or more runs (unique tokens, each run's
 * data; n_total and n_loop while n_act varies), as a placeholder would.
 * Columns whose spread the fit checks itself (n_act, tokens, loss) or that
 * a sweep may hold fixed by design (flops in an IsoFLOP sweep, R, E or k)
 * are not named for it.  0, or LS_ERR_INTERNAL when out of memory. */
int ls_sweep_column_warnings(const ls_sweep *s, ls_law_kind kind, ls_warnings *w) LS_MUST_CHECK;

/* Group the n values v of a quantity of s (finite, positive) as loopscale/group.h
 * does, with s->group_tol or, when it is 0, the values' own tolerance. */
int ls_sweep_group(const ls_sweep *s, const double *v, size_t n, size_t *group, ls_grouping *out,
                   ls_error *err) LS_MUST_CHECK;

ls_sweep *ls_sweep_read(const char *const *paths, size_t npaths, const ls_sweep_options *options,
                  ls_error *err) LS_MUST_CHECK;
void ls_sweep_free(ls_sweep *s);

/* Streaming: on_header (may be NULL) is called after each file's header
 * with its column names, trimmed, and whether it has a loss column; on_row
 * with every row that passes the filters, checked as ls_sweep_read checks
 * it, and its cells (valid during the call only).  A callback returns 0,
 * or an LS_ERR_* code (with err set) that stops the reading and is
 * returned.  group_column and keep_text do not apply (they need every row);
 * *nrows is the number of rows handed out.  Memory does not grow with the
 * number of rows. */
typedef struct ls_sweep_handler {
    int (*on_header)(void *ctx, const char *file, const char *const *names, size_t ncolumns, int has_loss,
                     ls_error *err);
    int (*on_row)(void *ctx, const ls_sweep_row *row, const ls_sweep_text_cell *cells, size_t ncells, ls_error *err);
    void *ctx;
    ls_sweep_skips *skipped; /* receives the rows skip_invalid dropped (may be NULL) */
} ls_sweep_handler;
int ls_sweep_stream(const char *const *paths, size_t npaths, const ls_sweep_options *options,
                    const ls_sweep_handler *stream, size_t *nrows, ls_error *err) LS_MUST_CHECK;

/* The configuration a run stands for, as the law sees it (an unknown
 * N_loop, allowed only at R = 1, where no mapping reads it, becomes 0). */
ls_law_point ls_sweep_row_point(const ls_sweep_row *row);
/* The row's value of quantity q (flops: its training FLOPs under 6nd). */
double ls_sweep_row_value(const ls_sweep_row *row, ls_sweep_quantity q);

/* Check one run against the rules of docs/formats.md (positive sizes and loss,
 * integer R, E, k >= 1, E >= k, N_act <= N_total, N_loop <= N_act, N_loop
 * known and positive when R > 1).  NaN tokens or loss mean "not given" and
 * pass.  Returns 0 when the row is valid, else 1 with the quantity at fault
 * and a reason to follow its value in a message ("must be positive"). */
int ls_sweep_row_check(const ls_sweep_row *row, ls_sweep_quantity *which, char *reason, size_t size);

/* Mark the rows that satisfy every condition "QUANTITY OP NUMBER" (as for
 * --where, but only on the quantities (docs/laws.md): n_act, R, tokens, ...).
 * Errors: LS_ERR_USAGE for a malformed condition or another column. */
int ls_sweep_select(const ls_sweep *s, const char *const *conditions, size_t n, unsigned char *selected,
                 ls_error *err) LS_MUST_CHECK;

/* A new sweep holding the rows with keep[i] set (without their text). */
ls_sweep *ls_sweep_subset(const ls_sweep *s, const unsigned char *keep, ls_error *err) LS_MUST_CHECK;

/* Cell `column` of row `row` (keep_text only); returns its length in *len. */
const char *ls_sweep_cell(const ls_sweep *s, size_t row, size_t column, size_t *len);

LS_API_END

#endif
