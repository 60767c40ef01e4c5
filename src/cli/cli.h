/*
 * cli.h — the loopscale program: a front end over the library's commands
 * (loopscale/command.h).  It parses argv into a request, runs it, prints the
 * result and its messages, and exits with the documented status; every
 * option, default, warning and refusal is the library's.
 */
#ifndef LOOPSCALE_CLI_H
#define LOOPSCALE_CLI_H

#include "loopscale/error.h"

/* Remember the whole command line, for messages and provenance. */
void cli_set_invocation(int argc, char **argv);
/* "loopscale fit --law dense sweep.csv", shell-quoted; owned by cli. */
const char *cli_command_line(void);

/* "loopscale CMD: message" on stderr (stdout flushed first); cli_warn adds
 * "warning: ".  Whatever user text a message echoes is quoted to one
 * printable line. */
void cli_error(const char *command, const char *fmt, ...) LS_PRINTF(2, 3);
void cli_warn(const char *command, const char *fmt, ...) LS_PRINTF(2, 3);
void cli_note(const char *command, const char *fmt, ...) LS_PRINTF(2, 3);
/* Print a library error (and, for a usage error, the "Try" line) and
 * return its exit status. */
int cli_fail(const char *command, const ls_error *err);
/* Print a usage error and the "Try" line; returns 64. */
int cli_usage_error(const char *command, const char *fmt, ...) LS_PRINTF(2, 3);

/* Run a command of the library on argv: the options parsed into a request,
 * the request run, its notes and warnings printed on standard error, its
 * text on standard output, its files committed; the exit status. */
int cli_run(const char *command, int argc, char **argv);

/* "write error on standard output" and its exit status (74). */
int cli_stdout_failed(const char *command, int errnum);
/* Flush and close stdout; a failed write of the results is a failure (74). */
int cli_finish(const char *command, int status);

#endif
