/*
 * run.c — every command, the one way: argv into a library request, the
 * request run, the result printed.
 *
 * The options are the library's (loopscale/command.h): getopt_long's table
 * is made from them, each value is handed to ls_request_set() as the user
 * wrote it, and the library checks it.  This file decides nothing about a
 * command; it turns argv into a request and a result into standard output,
 * standard error, files and an exit status.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "loopscale/command.h"

/* ---- progress on a terminal ------------------------------------------------------ */

typedef struct progress_state {
    const char *command;
    double last;
    int shown;
} progress_state;

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void show_progress(void *context, const char *what, size_t done, size_t total)
{
    progress_state *ps = context;
    double t = now_seconds();
    if (done < total && t - ps->last < 0.2)
        return;
    ps->last = t;
    ps->shown = 1;
    fprintf(stderr, "\rloopscale %s: %s %zu/%zu", ps->command, what, done, total);
    fflush(stderr);
}

static void end_progress(progress_state *ps)
{
    if (ps->shown)
        fputs("\r\033[K", stderr);
    ps->shown = 0;
}

/* ---- argv into a request ------------------------------------------------------------ */

/* Every option of the command, for getopt_long; `values[i]` is the option's
 * long name, read back by index. */
typedef struct option_set {
    struct option *longopts;
    char shortopts[64];
    size_t n;
} option_set;

static int option_set_make(const char *command, option_set *set)
{
    size_t n = 0;
    ls_option o;
    while (ls_command_option(command, n, &o))
        n++;
    set->longopts = calloc(n + 2, sizeof *set->longopts);
    if (!set->longopts)
        return -1;
    size_t k = 0, s = 0;
    set->shortopts[s++] = ':';
    set->shortopts[s++] = 'h';
    for (size_t i = 0; i < n; i++) {
        ls_command_option(command, i, &o);
        int has_arg = o.type == LS_OPTION_SWITCH ? no_argument : required_argument;
        set->longopts[k++] = (struct option){o.name, has_arg, NULL, (int)(CHAR_MAX + 1 + i)};
        if (o.short_name && s + 3 < sizeof set->shortopts) {
            set->shortopts[s++] = o.short_name;
            if (has_arg == required_argument)
                set->shortopts[s++] = ':';
        }
    }
    set->longopts[k++] = (struct option){"help", no_argument, NULL, 'h'};
    set->shortopts[s] = '\0';
    set->n = n;
    return 0;
}

/* The long name of the option getopt_long returned. */
static const char *option_name(const char *command, const option_set *set, int opt)
{
    if (opt > CHAR_MAX && (size_t)(opt - CHAR_MAX - 1) < set->n)
        return set->longopts[opt - CHAR_MAX - 1].name;
    ls_option o;
    for (size_t i = 0; ls_command_option(command, i, &o); i++)
        if (o.short_name == opt)
            return o.name;
    return NULL;
}

/* Print the library's error for a command (and the Try line for a usage
 * error); returns the exit status. */
static int fail(const char *command, const ls_error *err)
{
    return cli_fail(command, err);
}

/* Parse argv into req; 0, -1 for --help, or an exit status. */
static int parse(const char *command, int argc, char **argv, ls_request *req)
{
    option_set set;
    if (option_set_make(command, &set) != 0) {
        cli_error(command, "out of memory");
        return 70;
    }
    int status = 0, opt, index;
    ls_error err;
    opterr = 0;
    optind = 1;
    while (status == 0 && (index = -1, opt = getopt_long(argc, argv, set.shortopts, set.longopts, &index)) != -1) {
        /* getopt_long takes any unambiguous prefix (--by for
         * --bytes-per-token, --las for --last): a slip would change what a
         * command computes, so names are taken whole only. */
        if (index >= 0 && opt != '?' && opt != ':') {
            const char *token = optarg && optind >= 2 && optarg == argv[optind - 1] ? argv[optind - 2]
                                                                                    : argv[optind - 1];
            size_t len = strcspn(token + 2, "=");
            if (strncmp(token, "--", 2) == 0 &&
                (len != strlen(set.longopts[index].name) || strncmp(token + 2, set.longopts[index].name, len) != 0)) {
                status = cli_usage_error(command, "unknown option '%.*s' (option names are not abbreviated: --%s?)",
                                         (int)strcspn(token, "="), token, set.longopts[index].name);
                break;
            }
        }
        if (opt == 'h') {
            status = -1;
            break;
        }
        if (opt == ':' || opt == '?') {
            const char *arg = argv[optind - 1];
            if (opt == ':')
                status = cli_usage_error(command, "option '%s' needs a value", arg);
            else if (optopt && !(arg[0] == '-' && arg[1] == '-'))
                status = cli_usage_error(command, "unknown option '-%c'", optopt);
            else
                status = cli_usage_error(command, "unknown option '%s'", arg);
            break;
        }
        const char *name = option_name(command, &set, opt);
        if (!name || ls_request_set(req, name, optarg, &err) != 0)
            status = name ? fail(command, &err) : cli_usage_error(command, "unknown option '-%c'", opt);
    }
    for (int i = optind; status == 0 && i < argc; i++)
        if (ls_request_add_operand(req, argv[i], strlen(argv[i]), &err) != 0)
            status = fail(command, &err);
    free(set.longopts);
    return status;
}

/* ---- the result out ---------------------------------------------------------------- */

static int write_stdout(void *context, const char *data, size_t len)
{
    (void)context;
    return fwrite(data, 1, len, stdout) == len ? 0 : LS_ERR_IO;
}

static void print_messages(const char *command, const ls_result *res, int quiet)
{
    for (size_t i = 0; i < ls_result_message_count(res); i++) {
        const char *note;
        const ls_warning *w;
        ls_result_message(res, i, &note, &w);
        if (w)
            cli_warn(command, "%s", w->message);
        else if (!quiet)
            cli_note(command, "%s", note);
    }
}

int cli_run(const char *command, int argc, char **argv)
{
    ls_error err;
    ls_request *req = ls_request_new(command, LS_FRONT_END_CLI, &err);
    if (!req)
        return fail(command, &err);
    int status = parse(command, argc, argv, req);
    if (status == -1) {
        char *help = ls_command_help(command);
        if (help)
            fputs(help, stdout);
        free(help);
        ls_request_free(req);
        return help ? 0 : 70;
    }
    if (status != 0) {
        ls_request_free(req);
        return status;
    }
    int quiet = 0;
    for (int i = 1; i < argc && strcmp(argv[i], "--") != 0; i++)
        quiet |= strcmp(argv[i], "-q") == 0 || strcmp(argv[i], "--quiet") == 0;
    if (ls_request_set_invocation(req, cli_command_line(), &err) != 0) {
        ls_request_free(req);
        return fail(command, &err);
    }
    ls_request_set_streams(req, STDOUT_FILENO, STDERR_FILENO);
    /* A large output (predict, simulate) is printed as it is made. */
    if (ls_command_streams(command))
        ls_request_set_writer(req, write_stdout, NULL);
    progress_state ps = {command, 0, 0};
    if (isatty(STDERR_FILENO))
        ls_request_set_progress(req, show_progress, &ps);
    ls_result *res = NULL;
    int code = ls_command_run(req, &res, &err);
    end_progress(&ps);
    if (!res) {
        ls_request_free(req);
        return fail(command, &err);
    }
    int silent = ls_result_stderr_blocked(res);
    if (!silent)
        print_messages(command, res, quiet);
    if (code != 0) {
        /* What was printed before the failure (a fit's table, "converged
         * NO") is shown; no file is written. */
        if (!silent)
            fputs(ls_result_text(res), stdout);
        status = silent ? ls_exit_status(code) : fail(command, &err);
    }
    else {
        fputs(ls_result_text(res), stdout);
        /* Results already printed but lost (a full disk behind standard
         * output) fail the run before any file is replaced. */
        if (fflush(stdout) != 0 || ferror(stdout))
            status = cli_stdout_failed(command, errno);
        else if (ls_result_commit(res, &err) != 0)
            status = fail(command, &err);
    }
    ls_result_free(res);
    ls_request_free(req);
    return status;
}
