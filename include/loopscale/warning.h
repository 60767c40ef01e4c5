/*
 * loopscale/warning.h — what a result says the user should know, as data.
 *
 * A warning is part of a command's result, not a line printed by whoever
 * computed it: the library decides that an answer extrapolates, that a
 * parameter is undetermined or that a choice sits at the end of its search
 * range, and every front end hands the same list on in its own way (the
 * program prints "loopscale solve: warning: MESSAGE", the Python package
 * calls warnings.warn with a category per code, a C host does as it likes).
 *
 * Each warning has a stable code (the kind of thing it says, which programs
 * may test), a subject (what it is about: a parameter "alpha", a column
 * "epochs", a configuration "chosen"; "" when it is about the whole result)
 * and a one-line message.  The codes are never renumbered or renamed; new
 * ones are added before LS_WARNING_NCODES.
 *
 * An ls_warnings list owns its strings; ls_warnings_free() releases them.
 * Thread safety: a list belongs to one thread at a time.
 */
#ifndef LOOPSCALE_WARNING_H
#define LOOPSCALE_WARNING_H

#include <stddef.h>

#include "loopscale/error.h"
#include "loopscale/export.h"

LS_API_BEGIN

typedef enum {
    LS_WARNING_EXTRAPOLATION,  /* "extrapolation": a value outside the ranges the law was fitted on */
    LS_WARNING_SEARCH_EDGE,    /* "search-edge": an answer at an end of its candidate list or search range */
    LS_WARNING_UNIDENTIFIED,   /* "unidentified-parameter": the runs cannot identify a parameter; it is held */
    LS_WARNING_UNDETERMINED,   /* "undetermined-parameter": a parameter the runs determine only loosely */
    LS_WARNING_AT_BOUND,       /* "parameter-at-bound": a parameter at the edge of its domain */
    LS_WARNING_FIT_QUALITY,    /* "fit-quality": residuals too large or trending, too few points */
    LS_WARNING_DATA,           /* "data": how the runs were read (a column, skipped rows, checkpoints) */
    LS_WARNING_DECISION,       /* "decision": a choice the tolerance or the uncertainty does not decide */
    LS_WARNING_LAW,            /* "law": a law used although its fit is not to be trusted */
    LS_WARNING_ARCHITECTURE,   /* "architecture": a template that does not match the sweep's models */
    LS_WARNING_SERVING,        /* "serving": an assumption about deployment (quantisation, cache) */
    LS_WARNING_DESIGN,         /* "design": a planned sweep that falls short of what it is for */
    LS_WARNING_NCODES
} ls_warning_code;

typedef struct ls_warning {
    ls_warning_code code;
    char *subject; /* never NULL; "" for the whole result */
    char *message; /* one line, no newline, no program name */
} ls_warning;

typedef struct ls_warnings {
    ls_warning *v;
    size_t n, cap;
} ls_warnings;

/* "extrapolation", "search-edge", ...; NULL for a code out of range. */
const char *ls_warning_code_name(ls_warning_code code);
/* The code of a name; -1 when there is none. */
int ls_warning_code_parse(const char *name);

/* Append a warning; the message is formatted and quoted to one printable
 * line.  A message equal to one already in the list (same code, subject and
 * text) is not added twice.  0, or LS_ERR_INTERNAL when out of memory. */
int ls_warnings_add(ls_warnings *w, ls_warning_code code, const char *subject, const char *fmt, ...)
    LS_PRINTF(4, 5) LS_MUST_CHECK;
/* Append every warning of from (copied). */
int ls_warnings_extend(ls_warnings *w, const ls_warnings *from) LS_MUST_CHECK;
void ls_warnings_free(ls_warnings *w);

LS_API_END

#endif
