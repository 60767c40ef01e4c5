/*
 * loopscale/error.h — how the library reports failure.
 *
 * Every library function that can fail returns 0 on success or one of the
 * negative LS_ERR_* codes below, and writes a one-line message (no program
 * name, no newline) into a caller-owned ls_error, which must not be NULL.  Constructors return NULL
 * and fill the ls_error the same way.  The CLI turns a code into the exit
 * status documented in the man page with ls_exit_status().
 *
 * Thread safety: an ls_error belongs to one call at a time; give each
 * thread its own.  GSL's error handler is process-global and the library
 * never changes it: it checks the status of every GSL call itself (see
 * docs/library.md).  GSL calls the handler before returning some statuses
 * (an allocation that fails, for one); under GSL's default handler that
 * aborts, so a host that prefers codes calls gsl_set_error_handler_off()
 * once, as the loopscale program does.
 */
#ifndef LOOPSCALE_ERROR_H
#define LOOPSCALE_ERROR_H

#include <stddef.h>
#include "loopscale/export.h"

LS_API_BEGIN

#if defined(__GNUC__)
#define LS_MUST_CHECK __attribute__((warn_unused_result))
#define LS_PRINTF(fmt, args) __attribute__((format(printf, fmt, args)))
#else
#define LS_MUST_CHECK
#define LS_PRINTF(fmt, args)
#endif

enum {
    LS_OK = 0,
    LS_ERR_USAGE = -1,    /* bad option or argument           -> exit 64 */
    LS_ERR_DATA = -2,     /* bad input data                   -> exit 65 */
    LS_ERR_NOINPUT = -3,  /* input missing or unreadable      -> exit 66 */
    LS_ERR_CANTCREAT = -4,/* output file cannot be created    -> exit 73 */
    LS_ERR_IO = -5,       /* read or write failed midway      -> exit 74 */
    LS_ERR_INTERNAL = -6, /* out of memory, solver failure    -> exit 70 */
    LS_ERR_NOCONV = -7    /* a fit did not converge           -> exit 3  */
};

#define LS_ERROR_MESSAGE_MAX 1024

typedef struct ls_error {
    int code;                          /* one of LS_ERR_*, or LS_OK */
    char message[LS_ERROR_MESSAGE_MAX];
} ls_error;

/* Record an error (when err is not NULL) and return code, so callers can
 * write `return ls_error_set(err, LS_ERR_DATA, "...", ...);`. */
int ls_error_set(ls_error *err, int code, const char *fmt, ...) LS_PRINTF(3, 4);

/* Put `prefix: ` in front of an existing message, for context added on the
 * way up (a file name, a key path). Returns err->code. */
int ls_error_prefix(ls_error *err, const char *fmt, ...) LS_PRINTF(2, 3);

void ls_error_clear(ls_error *err);

/* The process exit status for an LS_ERR_* code (sysexits.h values). */
int ls_exit_status(int code);

LS_API_END

#endif
