/*
 * cli.c — what the program says and how it ends: its messages on standard
 * error, the command line it records, and a failed write of its results.
 */
#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "text_internal.h"

/* ---- messages ------------------------------------------------------------ */

static char *invocation;

static void free_invocation(void) { free(invocation); }

static int needs_quotes(const char *s)
{
    if (*s == '\0')
        return 1;
    for (; *s; s++)
        if (!(isalnum((unsigned char)*s) || strchr("-_./=:,+@%", *s)))
            return 1;
    return 0;
}

void cli_set_invocation(int argc, char **argv)
{
    size_t len = sizeof "loopscale";
    for (int i = 1; i < argc; i++)
        len += 4 * strlen(argv[i]) + 3;
    if (!invocation)
        atexit(free_invocation);
    free(invocation);
    invocation = malloc(len);
    if (!invocation)
        return;
    char *p = invocation;
    memcpy(p, "loopscale", 9);
    p += 9;
    for (int i = 1; i < argc; i++) {
        const char *arg = argv[i];
        *p++ = ' ';
        int quote = needs_quotes(arg);
        if (quote)
            *p++ = '\'';
        for (const char *s = arg; *s; s++) {
            if (*s == '\'') { /* 'it'\''s' */
                memcpy(p, "'\\''", 4);
                p += 4;
            } else {
                *p++ = *s;
            }
        }
        if (quote)
            *p++ = '\'';
    }
    *p = '\0';
}

const char *cli_command_line(void) { return invocation ? invocation : "loopscale"; }

static void vmessage(const char *command, const char *kind, const char *fmt, va_list ap) LS_PRINTF(3, 0);

static void vmessage(const char *command, const char *kind, const char *fmt, va_list ap)
{
    fflush(stdout);
    /* Whatever user text the message echoes (a file name, a cell, an option's
     * value) is quoted so that the message stays one printable line. */
    char raw[2 * LS_ERROR_MESSAGE_MAX], quoted[4 * LS_ERROR_MESSAGE_MAX];
    vsnprintf(raw, sizeof raw, fmt, ap);
    ls_text_quote(quoted, sizeof quoted, raw);
    fprintf(stderr, "loopscale%s%s: %s%s\n", command ? " " : "", command ? command : "", kind, quoted);
}

void cli_error(const char *command, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(command, "", fmt, ap);
    va_end(ap);
}

void cli_note(const char *command, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(command, "", fmt, ap);
    va_end(ap);
}

void cli_warn(const char *command, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(command, "warning: ", fmt, ap);
    va_end(ap);
}

/* "Try 'loopscale fit --help'.": the command's own name, without what a
 * per-group message adds to it ("fit: g=a"). */
static void try_help(const char *command)
{
    fprintf(stderr, "Try 'loopscale %.*s --help'.\n", (int)strcspn(command, ": "), command);
}

int cli_fail(const char *command, const ls_error *err)
{
    cli_error(command, "%s", err->message);
    if (err->code == LS_ERR_USAGE)
        try_help(command);
    return ls_exit_status(err->code);
}

int cli_usage_error(const char *command, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vmessage(command, "", fmt, ap);
    va_end(ap);
    try_help(command);
    return ls_exit_status(LS_ERR_USAGE);
}


int cli_stdout_failed(const char *command, int errnum)
{
    fprintf(stderr, "loopscale%s%s: write error on standard output: %s\n", command ? " " : "",
            command ? command : "", strerror(errnum ? errnum : EIO));
    return ls_exit_status(LS_ERR_IO);
}

int cli_finish(const char *command, int status)
{
    /* Results that never reached their reader are a failure (jq, datamash). */
    int bad = fflush(stdout) != 0 || ferror(stdout);
    int saved = errno;
    if (fclose(stdout) != 0 && !bad) {
        bad = 1;
        saved = errno;
    }
    /* A run that already failed has said why (a closed standard output
     * included); a second line would only repeat it. */
    if (bad && status == 0)
        return cli_stdout_failed(command, saved);
    return status;
}
