/*
 * guard_internal.h — the file guard's identity check for writers outside
 * the command layer (a law file saved from a front end's law).
 *
 * The commands check every file of a request at once (guard_check in
 * command_internal.h); a library function that writes one file on a caller's
 * behalf checks it the same way here: files compared by identity (device
 * and inode of what exists, resolved directory and name of what does not;
 * links, "./", relative paths and /dev/fd are one file).
 */
#ifndef LOOPSCALE_GUARD_INTERNAL_H
#define LOOPSCALE_GUARD_INTERNAL_H

#include <stddef.h>

#include "loopscale/error.h"

/* May `path` (named `what` in messages about its name: "law file") be
 * written?  LS_ERR_USAGE when it is one of inputs[0..n) under any name
 * ("PATH would replace the input INPUT (ROLE)", roles[i] saying what input
 * i is), or its name is too long to take the temporary suffix;
 * LS_ERR_CANTCREAT when it cannot be created (a directory, a missing or
 * unwritable directory, a read-only file), as a command's output.  An
 * input "-" (standard input) is not a file and is skipped. */
int guard_check_output(const char *what, const char *path, const char *const *inputs, const char *const *roles,
                       size_t n, ls_error *err);

#endif
