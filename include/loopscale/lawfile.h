/*
 * loopscale/lawfile.h — law files (JSON, "loopscale-law/1").
 *
 * A law file carries a law and, when `fit` wrote it, how it was obtained:
 * which parameters were fixed, standard errors or bootstrap intervals, the
 * bootstrap draws themselves, the fit's statistics and its provenance.  Only
 * `format`, `law` and `params` are required, so a published law can be typed
 * in by hand.  Numbers are written as the shortest text that reads back to
 * the same double, so a file round-trips bit for bit; a NaN or infinity is
 * never written.  Unknown keys are ignored; a missing or mistyped key, a
 * value outside its domain (docs/formats.md lists the rules), a repeated key
 * or text after the document is an LS_ERR_DATA error that names it.
 *
 * ls_lawfile_new(), ls_lawfile_read() and ls_lawfile_from_fit() return a
 * lawfile the caller frees with ls_lawfile_free(); every pointer inside
 * belongs to it.
 *
 * Thread safety: no global state; a lawfile may be read from several
 * threads at once and changed by one at a time.  ls_lawfile_default() parses
 * a new copy at each call.
 */
#ifndef LOOPSCALE_LAWFILE_H
#define LOOPSCALE_LAWFILE_H

#include <stddef.h>

#include "loopscale/arch.h"
#include "loopscale/error.h"
#include "loopscale/fit.h"
#include "loopscale/law.h"
#include "loopscale/sweep.h"
#include "loopscale/warning.h"
#include "loopscale/export.h"

LS_API_BEGIN

#define LS_LAWFILE_FORMAT "loopscale-law/1"

typedef struct ls_lawfile_data {
    char *path;
    char sha256[65]; /* lower-case hex */
} ls_lawfile_data;

typedef struct ls_lawfile_fit {
    char loss[16];   /* "huber" or "mse" */
    char space[16];  /* "log" or "linear" */
    char method[160]; /* solver and options, for provenance */
    double objective, delta, rmse;
    size_t n, starts, starts_at_best;
    unsigned long seed;
    int converged;
    size_t ndata;
    ls_lawfile_data *data;
    size_t nfilters;
    char **filters; /* --where and --map as given, and the reader's other options */
    size_t nskipped; /* rows --skip-invalid dropped ("skipped", written when nonzero) */
    size_t nskipped_lines;
    long skipped_lines[LS_SWEEP_SKIPS_SHOWN]; /* the first few */
    /* Runs --last left out because their last checkpoint was dropped
     * ("last_dropped", written when nonzero): how many, the first one and
     * the line of its last checkpoint. */
    size_t nlast_dropped;
    char last_dropped_run[64];
    long last_dropped_line;
    int has_ranges; /* the range of each quantity in the fitted runs */
    double n_act_range[2], tokens_range[2], r_range[2], e_range[2];
    int has_flops_range; /* fit.ranges.flops: law files before it lack it */
    double flops_range[2];
    /* How training FLOPs were counted (fit.flops_convention, written only
     * when not 6nd; absent: 6nd).  The flops range and any flops column
     * read were counted so, and solve and predict on the law default to it. */
    ls_law_flops flops;
    /* The compute-optimal exponent a = beta / (alpha + beta) and its
     * interval as fit gave them (fit.optimum, written when the law has a
     * closed-form optimum and a has an interval): from optimum_draws
     * bootstrap draws, or from the standard errors when 0; held_from names
     * the law file a's exponents were all held from (--fix-from), whose
     * interval it is ("" otherwise).  Commands that state a (frontier)
     * state its interval with it. */
    int has_optimum;
    double optimum_a, optimum_low, optimum_high, optimum_level;
    size_t optimum_draws;
    char *optimum_held_from;
} ls_lawfile_fit;

typedef struct ls_lawfile {
    ls_law law;
    unsigned char fixed[LS_LAW_NPARAMS]; /* held fixed by the fit */
    unsigned char tied[LS_LAW_NPARAMS];  /* tied[j] = i + 1: fitted equal to parameter i ("tied") */
    int has_stderr;
    double stderr_of[LS_LAW_NPARAMS];    /* from the Jacobian (free parameters) */
    int has_ci;
    double ci_level;
    double ci_low[LS_LAW_NPARAMS], ci_high[LS_LAW_NPARAMS];
    size_t ndraws;
    double *draws; /* ndraws x LS_LAW_NPARAMS natural values, row-major */
    char *bootstrap_group; /* column resampled as groups, or NULL */
    int has_fit;
    ls_lawfile_fit fit;
    char *version;
    char *command;
    /* A fit's verdict (ls_fit_verdict), written as the array "warnings" of
     * {"code", "subject", "message"} objects and read back; a file written
     * before holds one-line strings there, read with the code their text
     * implies (held: unidentified-parameter; "ran to its bound":
     * parameter-at-bound; "above the lowest observed loss": fit-quality;
     * otherwise undetermined-parameter) and the parameter they name. */
    ls_warnings warnings;
    /* The architecture of the runs ("architecture", written by fit; absent
     * from older files, the Chinchilla form and laws typed in by hand):
     * the template solve and its kin answer for unless given another. */
    int has_architecture;
    ls_arch_record architecture;
    /* The penalty of quantising the weights after training ("quantisation",
     * Kumar et al.'s form, law.h): fitted on runs evaluated at several
     * weight precisions, or added by hand; absent from most files.  runs
     * and rmse say what it was fitted on (0 and NaN: not said). */
    int has_quant;
    ls_law_quant quant;
    size_t quant_runs;
    double quant_rmse;
} ls_lawfile;

/* The form the "quantisation" member names: Kumar et al. 2024's post-training
 * quantisation degradation (law.h). */
#define LS_LAWFILE_QUANT_FORM "kumar2024-ptq"

/* The "quantisation" member of the JSON file at path (a law file, or a
 * file holding only that member), checked.  LS_ERR_NOINPUT, or
 * LS_ERR_DATA naming the file and key. */
int ls_lawfile_quant_read(const char *path, ls_law_quant *out, ls_error *err) LS_MUST_CHECK;

ls_lawfile *ls_lawfile_new(const ls_law *l);
void ls_lawfile_free(ls_lawfile *lf);

/* Where a fit's runs came from, as the caller was given them.  Every
 * pointer is borrowed: ls_lawfile_from_fit copies what it keeps. */
typedef struct ls_lawfile_provenance {
    const char *const *data_paths; /* the sweep files read, as given to ls_sweep_read ("-": standard input) */
    size_t ndata;
    const char *const *maps;       /* column renames "new=old", as in sweep_options */
    size_t nmaps;
    const char *const *wheres;     /* row filters "COLUMN OP VALUE", as in sweep_options */
    size_t nwheres;
    const char *bootstrap_group;   /* column resampled as whole groups, or NULL */
    const char *command;           /* the command line, or NULL */
    const char *const *options;    /* the reader's other options, "--skip-invalid", "--loss-unit bits" */
    size_t noptions;
    const ls_law_flops *flops;        /* the FLOP convention the sweep was read under (NULL: 6nd) */
    const ls_arch_template *tmpl;     /* the template the fit was given (NULL: none): recorded as the
                                       * runs' architecture when it reproduces them (ls_arch_record_runs) */
} ls_lawfile_provenance;

/* The law file of a fit: the law, fixed parameters and standard errors from
 * r; intervals and draws from b (NULL, or no draws, for none); the
 * objective's settings from p; the range of N_act, D, R and E over the
 * fitted runs s (so that solve can say when it extrapolates) and their
 * architecture (ls_arch_record_runs); the SHA-256 of
 * each data file, the renames and filters (written "--map new=old" and
 * "--where COND", the law file's notation), the library version and the
 * command line.
 * The checksums are those of the bytes s was read from (s must be read with
 * sweep_options.checksum), so a pipe or standard input has one too and no
 * file is read again.  Errors: LS_ERR_USAGE when s has no checksum for a
 * file of prov, LS_ERR_INTERNAL when out of memory. */
ls_lawfile *ls_lawfile_from_fit(const ls_fit_result *r, const ls_fit_parameters *p, const ls_fit_bootstrap *b, const ls_sweep *s,
                             const ls_lawfile_provenance *prov, ls_error *err) LS_MUST_CHECK;

/* A law fitted with some of its parameters held at another law's values
 * (fit --fix-from FILE, the second stage of a two-stage fit) is no surer of
 * them than that law was: carry into lf what from's fit said of them.
 * held[j] is set for each parameter held from `from`; from_name names it.
 *   - from's warnings about a held parameter, and about the compute-optimal
 *     exponent a when one of a's exponents is held, are appended to lf's,
 *     each as "held from NAME: MESSAGE" with its code and subject (and to
 *     `added`, when not NULL);
 *   - the ranges that bound extrapolation are narrowed to from's for the
 *     quantities the held parameters were fitted along: N_act, D and F for
 *     the base's terms, E for the MoE terms, R for the loop mapping's (from's
 *     own range where the two do not overlap).  A parameter from held too
 *     (fixed or unidentified there) was fitted along nothing;
 *   - when every exponent of a is held, a's interval is from's, recorded
 *     with optimum_held_from = from_name.
 * 0, or LS_ERR_INTERNAL when out of memory. */
int ls_lawfile_hold_from(ls_lawfile *lf, const ls_lawfile *from, const char *from_name,
                         const unsigned char held[LS_LAW_NPARAMS], ls_warnings *added, ls_error *err) LS_MUST_CHECK;

/* Read and check a law file; name is used in messages. */
ls_lawfile *ls_lawfile_read(const char *path, ls_error *err) LS_MUST_CHECK;
ls_lawfile *ls_lawfile_parse(const char *text, size_t len, const char *name, ls_error *err) LS_MUST_CHECK;

/* The JSON text (malloc'd, NUL-terminated), or NULL with an error. */
char *ls_lawfile_to_json(const ls_lawfile *lf, ls_error *err) LS_MUST_CHECK;
/* Write atomically (temporary file, then rename). */
int ls_lawfile_write(const ls_lawfile *lf, const char *path, ls_error *err) LS_MUST_CHECK;

/* Write the law file to path (path_len bytes) as ls_lawfile_write does
 * (atomically; gzip when the name ends in .gz), for a front end that holds
 * a law and lets its user name the file: refused (LS_ERR_USAGE) when the
 * path is empty or holds a NUL byte, or when it names, under any name
 * (links, "./", hard links), one of inputs[0..ninputs) or a data file the
 * law records it was fitted on, taken both as recorded (relative to the
 * current directory) and relative to the directory of law_source, the file
 * the law was read from (NULL: none).  A path that cannot be created is
 * LS_ERR_CANTCREAT before anything is written. */
int ls_lawfile_save(const ls_lawfile *lf, const char *path, size_t path_len, const char *law_source,
                    const char *const *inputs, size_t ninputs, ls_error *err) LS_MUST_CHECK;

/* Why the fit a law file records is not a fit, or NULL when it is (or the
 * file records none): its best solve did not converge, it has no standard
 * errors, or a free parameter has none (the sweep could not tell the
 * parameters apart).  fit writes no such file; one edited by hand or from
 * an older version may say so.  The text is a constant or written to buf. */
const char *ls_lawfile_not_a_fit(const ls_lawfile *lf, char *buf, size_t size);

/* A law whose fit is not a fit (ls_lawfile_not_a_fit) is refused,
 * LS_ERR_DATA "NAME: WHY, so its parameters are not a law (FORCE to use
 * them anyway)", unless force is set: then 0 and an LS_WARNING_LAW warning
 * "NAME: WHY; used anyway (FORCE)" appended to w.  name names the law
 * (its file), force_flag the option that forces ("--force"). */
int ls_lawfile_check_fit(const ls_lawfile *lf, const char *name, int force, const char *force_flag,
                         ls_warnings *w, ls_error *err) LS_MUST_CHECK;

/* The default law compiled into the library: moe:bounded-sparse fitted on
 * the shipped sweep data/sweeps/looped-moe.csv.gz, with bootstrap draws
 * (data/laws/README.md says how it is regenerated). */
ls_lawfile *ls_lawfile_default(ls_error *err) LS_MUST_CHECK;
#define LS_LAWFILE_DEFAULT_DESCRIPTION "moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz"

/* The ranges of N_act, D, R, E and F the law was fitted on (all unknown
 * when the file records none), with the convention F was counted under,
 * for ls_law_ranges_outside(). */
void ls_lawfile_ranges(const ls_lawfile *lf, ls_law_ranges *out);

/* Draw i as a law. */
void ls_lawfile_draw(const ls_lawfile *lf, size_t i, ls_law *out);

LS_API_END

#endif
