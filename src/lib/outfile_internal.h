/*
 * outfile_internal.h — output files that are never left half-written.
 *
 * ls_outfile_open() writes into a temporary file beside the destination;
 * ls_outfile_commit() flushes, closes and renames it over the destination, so a
 * run that fails part-way (or is killed) leaves an existing file untouched.
 * "-" is standard output, and a destination that exists but is not a regular
 * file (/dev/null, a FIFO) is written in place.  With gzip set the bytes are
 * compressed.  Both ls_outfile_commit() and ls_outfile_abort() free the handle.
 *
 * Thread safety: an outfile belongs to one thread at a time.
 */
#ifndef LOOPSCALE_OUTFILE_INTERNAL_H
#define LOOPSCALE_OUTFILE_INTERNAL_H

#include <stddef.h>

#include "loopscale/error.h"


typedef struct outfile outfile;

/* Errors: LS_ERR_CANTCREAT when the temporary file cannot be created. */
outfile *ls_outfile_open(const char *path, int gzip, ls_error *err);
int ls_outfile_write(outfile *out, const void *data, size_t len, ls_error *err) LS_MUST_CHECK;
int ls_outfile_printf(outfile *out, ls_error *err, const char *fmt, ...) LS_PRINTF(3, 4) LS_MUST_CHECK;
/* Push everything written so far to the file and sync it, without renaming,
 * so that a caller writing several files can find a full disk in any of
 * them before it replaces the first (plain output; a gzip stream is only
 * complete when committed).  Errors: LS_ERR_IO. */
int ls_outfile_flush(outfile *out, ls_error *err) LS_MUST_CHECK;
/* Errors: LS_ERR_IO for a failed write, flush or rename. */
int ls_outfile_commit(outfile *out, ls_error *err) LS_MUST_CHECK;
/* Commit the n outputs (NULL entries skipped) as one: all of them replace
 * their destinations, or, when any write, sync or rename fails, none does
 * (destinations renamed before the failure are put back from hard links
 * kept meanwhile; on a file system without hard links a destination renamed
 * before the failure cannot be).  Frees every handle.  Errors: LS_ERR_IO. */
int ls_outfile_commit_all(outfile **outs, size_t n, ls_error *err) LS_MUST_CHECK;
void ls_outfile_abort(outfile *out);

/* Unlink every temporary file of an output still open (neither committed
 * nor aborted).  Async-signal-safe: the paths live in a fixed table, so a
 * program's handler of a fatal signal may call it before dying and
 * leave no "NAME.tmp.XXXXXX" behind; the destinations are untouched.  At
 * most LS_OUTFILE_MAX_OPEN outputs may be open at once (LS_ERR_INTERNAL
 * beyond). */
#define LS_OUTFILE_MAX_OPEN 32
void ls_outfile_remove_temporaries(void);

/* The file an output named path is written to: path itself, or the end of
 * the chain of symbolic links it starts (a link whose target does not
 * exist yet included: the target is created).  malloc'd; NULL with errno
 * set (ELOOP for a link loop, ENOMEM).  "-" is returned as is. */
char *ls_outfile_resolve(const char *path);

/* 1 when path names a gzip output (ends in ".gz", in any case). */
int ls_outfile_wants_gzip(const char *path);


#endif
