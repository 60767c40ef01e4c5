/*
 * main.c — the loopscale dispatcher.  One table names every subcommand, its
 * function and its one-line summary, so `loopscale --help` and dispatch
 * cannot drift apart (samtools' bamtk.c, done as a table).
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <gsl/gsl_errno.h>

#include "cli.h"
#include "loopscale/command.h"
#include "loopscale/law.h"
#include "outfile_internal.h"

/* The commands are the library's (loopscale/command.h): its registry names
 * them, gives their summaries and their options; this program only runs
 * them. */
static int known_command(const char *name)
{
    for (size_t i = 0; i < ls_command_count(); i++)
        if (strcmp(ls_command_name(i), name) == 0)
            return 1;
    return 0;
}

static int print_usage(FILE *fp)
{
    fprintf(fp, "Usage: loopscale COMMAND [OPTIONS] [FILES]\n\n"
                "Scaling laws for looped Mixture-of-Experts models: fit laws to a training\n"
                "sweep, compare them on held-out runs, and solve for the configuration a\n"
                "compute and memory budget should buy.\n\nCommands:\n");
    for (size_t i = 0; i < ls_command_count(); i++)
        fprintf(fp, "  %-10s %s\n", ls_command_name(i), ls_command_summary(i));
    fprintf(fp, "\n'loopscale help COMMAND' or 'loopscale COMMAND --help' shows a command's\n"
                "options; 'loopscale help laws' lists the laws; 'loopscale --version' prints\n"
                "the version.  Exit status: 0 success, 64 usage error, 65 bad input data,\n"
                "66 input missing, 73 cannot create output, 74 I/O error, 70 internal error,\n"
                "3 a fit that yields no law (it did not converge, or its runs cannot determine\n"
                "its parameters).\n");
    return 0;
}

/* The length of the word at p: to the next space outside parentheses. */
static size_t hanging_word(const char *p)
{
    size_t word = 0;
    for (int depth = 0; p[word] && (depth > 0 || p[word] != ' '); word++)
        depth += (p[word] == '(') - (p[word] == ')');
    return word;
}

/* text from column 20 (the first line's start already written), wrapped
 * to 80 columns at spaces outside parentheses, an operator kept with what
 * follows it; continuation lines start at column 20 + hang. */
static void print_hanging(const char *text, int hang)
{
    int col = 20;
    for (const char *p = text; *p;) {
        size_t word = hanging_word(p), need = word;
        /* An operator starts a term, "+ B Ehat^omega D^-(...)", which
         * goes to the next line whole when it fits there. */
        if (word == 1 && (p[0] == '+' || p[0] == '/') && p[1] == ' ') {
            const char *end = p + 2;
            while (*end && !((*end == '+' || *end == '/') && end[1] == ' ')) {
                end += hanging_word(end);
                end += strspn(end, " ");
            }
            size_t term = (size_t)(end - p) - (end > p && end[-1] == ' ');
            need = 20 + hang + (int)term <= 80 ? term : word + 1 + hanging_word(p + 2);
        }
        if (col > 20 && col + 1 + (int)need > 80) {
            printf("\n%*s", 20 + hang, "");
            col = 20 + hang;
        } else if (col > 20) {
            putchar(' ');
            col++;
        }
        printf("%.*s", (int)word, p);
        col += (int)word;
        p += word;
        p += strspn(p, " ");
    }
    putchar('\n');
}

/* The parameters of `kind` that `without` (unless NULL) lacks, as an
 * indented line. */
static void print_params(ls_law_kind kind, const ls_law_kind *without)
{
    ls_law_param list[LS_LAW_NPARAMS];
    size_t n = ls_law_params_of(kind, list), shown = 0;
    char text[512] = "parameters";
    for (size_t i = 0; i < n; i++)
        if (!without || !ls_law_uses_param(*without, list[i])) {
            size_t used = strlen(text);
            snprintf(text + used, sizeof text - used, "%s%s", shown++ ? ", " : " ", ls_law_param_name(list[i]));
        }
    if (shown) {
        printf("%20s", "");
        print_hanging(text, 11);
    }
}

/* 'loopscale help laws': every base and mapping the library knows, with its
 * formula and parameters, from the library's own tables (the bash completion
 * reads the names from here). */
static int print_laws(void)
{
    printf("A law is BASE[:MAPPING]; BASE alone means BASE:none.\n\nBases:\n");
    for (int b = 0; b < LS_LAW_NBASES; b++) {
        printf("  %-17s ", ls_law_base_name((ls_law_base)b));
        print_hanging(ls_law_base_formula((ls_law_base)b), 4);
        print_params((ls_law_kind){(ls_law_base)b, LS_LAW_MAPPING_NONE}, NULL);
    }
    printf("\nMappings (m = N_act/N_total):\n");
    for (int m = 0; m < LS_LAW_NMAPPINGS; m++) {
        printf("  %-17s ", ls_law_mapping_name((ls_law_mapping)m));
        print_hanging(ls_law_mapping_formula((ls_law_mapping)m), 8);
        print_params((ls_law_kind){LS_LAW_BASE_DENSE, (ls_law_mapping)m}, &(ls_law_kind){LS_LAW_BASE_DENSE, LS_LAW_MAPPING_NONE});
    }
    printf("\n'loopscale fit --law moe:bounded-sparse' fits one.\n");
    return 0;
}

/* 'loopscale help man': the OPTIONS and RANGES sections of the man page, in
 * troff, from the library's option table (scripts/make-man splices them into
 * docs/man/loopscale.1). */
static int print_man(void)
{
    char *options = ls_command_man(), *ranges = ls_command_ranges(1);
    if (options && ranges)
        printf("%s.\\\" RANGES\n%s", options, ranges);
    free(options);
    free(ranges);
    return options && ranges ? 0 : 70;
}

/* Every catchable signal whose default action ends the process, apart from
 * the faults a bug raises (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP,
 * SIGSYS: the process state is not to be trusted, and the core dump is what
 * matters).  SIGPIPE is among them: `loopscale ... | head` while an -o file
 * is being written must not leave its temporary file behind.  SIGXFSZ is
 * not: it is ignored, so that a write beyond the file-size limit fails with
 * EFBIG and is reported as a write error (74) with the temporary removed. */
static const int FATAL_SIGNALS[] = {SIGINT,  SIGTERM,   SIGHUP,  SIGQUIT, SIGPIPE, SIGALRM,
                                    SIGUSR1, SIGUSR2,   SIGXCPU, SIGVTALRM, SIGPROF,
#ifdef SIGPOLL
                                    SIGPOLL,
#endif
#ifdef SIGSTKFLT
                                    SIGSTKFLT,
#endif
#ifdef SIGPWR
                                    SIGPWR,
#endif
};

/* A fatal signal: remove the temporary file of every output being written
 * (the destinations are untouched), then die by the same signal with its
 * default action, so that the parent sees the signal (a shell reports 128 +
 * its number, SIGQUIT and SIGXCPU still dump core).  Only async-signal-safe
 * calls; the signal is blocked while the handler runs, so the raise() is
 * delivered when it is unblocked. */
static void on_signal(int sig)
{
    ls_outfile_remove_temporaries();
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    raise(sig);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, sig);
    sigprocmask(SIG_UNBLOCK, &set, NULL);
    _exit(128 + sig); /* not reached */
}

static void catch_signals(void)
{
    for (size_t i = 0; i < sizeof FATAL_SIGNALS / sizeof *FATAL_SIGNALS; i++) {
        struct sigaction sa, old;
        memset(&sa, 0, sizeof sa);
        sa.sa_handler = on_signal;
        sigfillset(&sa.sa_mask);
        /* A signal ignored by whoever started us (nohup, a background job
         * of a non-interactive shell) stays ignored. */
        if (sigaction(FATAL_SIGNALS[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN)
            continue;
        sigaction(FATAL_SIGNALS[i], &sa, NULL);
    }
    signal(SIGXFSZ, SIG_IGN);
}

int main(int argc, char **argv)
{
    gsl_set_error_handler_off(); /* every GSL status is checked by the caller */
    catch_signals();
    cli_set_invocation(argc, argv);
    if (argc < 2) {
        print_usage(stderr);
        return cli_finish(NULL, 64);
    }
    const char *name = argv[1];
    /* --help, --version and help [COMMAND] take nothing more: an extra word
     * was meant for something and would be silently dropped. */
    int is_help = strcmp(name, "help") == 0;
    int is_meta = is_help || strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0 ||
                  strcmp(name, "--version") == 0 || strcmp(name, "version") == 0;
    if (is_meta && argc > (is_help ? 3 : 2)) {
        cli_error(NULL, "%s: unexpected argument '%s'", name, argv[is_help ? 3 : 2]);
        fprintf(stderr, "Try 'loopscale --help'.\n");
        return cli_finish(NULL, 64);
    }
    if (strcmp(name, "--help") == 0 || strcmp(name, "-h") == 0)
        return cli_finish(NULL, print_usage(stdout));
    if (strcmp(name, "--version") == 0 || strcmp(name, "version") == 0) {
        printf("loopscale %s\n", LOOPSCALE_VERSION);
        return cli_finish(NULL, 0);
    }
    if (is_help) {
        if (argc < 3)
            return cli_finish(NULL, print_usage(stdout));
        if (strcmp(argv[2], "laws") == 0)
            return cli_finish(NULL, print_laws());
        if (strcmp(argv[2], "man") == 0) /* the man page's generated sections: scripts/make-man */
            return cli_finish(NULL, print_man());
        if (strcmp(argv[2], "help") == 0) /* help on help is the usage */
            return cli_finish(NULL, print_usage(stdout));
        if (!known_command(argv[2])) {
            cli_error(NULL, "unknown command '%s'", argv[2]);
            fprintf(stderr, "Try 'loopscale --help'.\n");
            return cli_finish(NULL, 64);
        }
        static char help_flag[] = "--help";
        char *help_argv[] = {argv[2], help_flag, NULL};
        return cli_finish(argv[2], cli_run(argv[2], 2, help_argv));
    }
    if (!known_command(name)) {
        cli_error(NULL, "unknown command '%s'", name);
        fprintf(stderr, "Try 'loopscale --help'.\n");
        return cli_finish(NULL, 64);
    }
    /* COMMAND --help takes nothing more, as 'help COMMAND' does: a word
     * beside it was meant for something and would be silently dropped
     * (-h and --help may repeat, which changes nothing). */
    int asks_help = 0;
    const char *extra = NULL;
    for (int i = 2; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (strcmp(argv[i], "-h") == 0 || strcmp(argv[i], "--help") == 0)
            asks_help = 1;
        else if (!extra)
            extra = argv[i];
    }
    if (asks_help && extra) {
        cli_error(name, "--help: unexpected argument '%s'", extra);
        fprintf(stderr, "Try 'loopscale %s --help'.\n", name);
        return cli_finish(name, 64);
    }
    return cli_finish(name, cli_run(name, argc - 1, argv + 1));
}
