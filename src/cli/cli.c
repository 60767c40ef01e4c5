#include "cli.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#ifdef __linux__
#include <sys/vfs.h>
#endif
#include <unistd.h>

#include "numtext_internal.h"
#include "text_internal.h"
#include "outfile_internal.h"
#include "jsonw_internal.h"
#include "loopscale/profile.h"

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

/* ---- options given twice ------------------------------------------------------ */

/* The option that cli_getopt() last found given twice, and its two values. */
static struct {
    char **argv;                 /* the command line being parsed */
    const char *value[CLI_OPT_MAX];
    const char *name;            /* "--law" */
    char short_name;             /* 'l', or 0 */
    const char *first, *second;  /* its values, in order */
    const char *abbreviated;     /* a long option's prefix given for it: "--las" */
    const char *whole;           /* that option's name: "last" */
} twice;

static const struct option *long_option_of(const struct option *longopts, int opt)
{
    for (const struct option *o = longopts; o && o->name; o++)
        if (o->val == opt && !o->flag)
            return o;
    return NULL;
}

static int takes_value(const char *optstring, const struct option *lo, int opt)
{
    if (lo)
        return lo->has_arg != no_argument;
    const char *c = opt > 0 && opt <= CHAR_MAX && opt != ':' ? strchr(optstring, opt) : NULL;
    return c && c[1] == ':';
}

int cli_getopt(int argc, char **argv, const char *optstring, const struct option *longopts, int *longindex,
               const int *repeatable)
{
    if (twice.argv != argv) {
        memset(&twice, 0, sizeof twice);
        twice.argv = argv;
    }
    int index = -1;
    int opt = getopt_long(argc, argv, optstring, longopts, &index);
    if (longindex)
        *longindex = index;
    /* getopt_long takes any unambiguous prefix (--by for --bytes-per-token
     * where there is no --by, --las for --last): a slip would change what a
     * command computes, so names are taken whole only. */
    if (index >= 0 && opt != '?' && opt != ':') {
        const char *token = optarg && optind >= 2 && optarg == argv[optind - 1] ? argv[optind - 2] : argv[optind - 1];
        size_t len = strcspn(token + 2, "=");
        if (strncmp(token, "--", 2) == 0 &&
            (len != strlen(longopts[index].name) || strncmp(token + 2, longopts[index].name, len) != 0)) {
            twice.abbreviated = token;
            twice.whole = longopts[index].name;
            return CLI_OPT_ABBREVIATED;
        }
    }
    if (opt < 0 || opt >= CLI_OPT_MAX || opt == '?' || opt == ':' || opt == OPT_MAP || opt == OPT_WHERE)
        return opt;
    for (const int *r = repeatable; r && *r; r++)
        if (*r == opt)
            return opt;
    const struct option *lo = long_option_of(longopts, opt);
    if (!takes_value(optstring, lo, opt))
        return opt;
    if (!twice.value[opt]) {
        twice.value[opt] = optarg;
        return opt;
    }
    twice.name = lo ? lo->name : NULL;
    twice.short_name = opt <= CHAR_MAX && strchr(optstring, opt) ? (char)opt : 0;
    twice.first = twice.value[opt];
    twice.second = optarg;
    return CLI_OPT_TWICE;
}

int cli_option_error(const char *command, int opt, char **argv)
{
    if (opt == CLI_OPT_ABBREVIATED) {
        size_t len = strcspn(twice.abbreviated, "=");
        return cli_usage_error(command, "unknown option '%.*s' (option names are not abbreviated: --%s?)", (int)len,
                               twice.abbreviated, twice.whole);
    }
    if (opt == CLI_OPT_TWICE) {
        char name[64];
        if (twice.name && twice.short_name)
            snprintf(name, sizeof name, "--%s (-%c)", twice.name, twice.short_name);
        else if (twice.name)
            snprintf(name, sizeof name, "--%s", twice.name);
        else
            snprintf(name, sizeof name, "-%c", twice.short_name);
        return cli_usage_error(command, "%s given twice ('%s', then '%s'): it takes one value", name,
                               twice.first, twice.second);
    }
    const char *arg = argv[optind - 1];
    if (opt == ':')
        return cli_usage_error(command, "option '%s' needs a value", arg);
    if (optopt && !(arg[0] == '-' && arg[1] == '-'))
        return cli_usage_error(command, "unknown option '-%c'", optopt);
    return cli_usage_error(command, "unknown option '%s'", arg);
}

int cli_help(const char *text)
{
    fputs(text, stdout);
    return 0;
}

/* ---- files: no output may replace an input ------------------------------ */

typedef struct cli_file {
    const char *option, *path;
    int output;
} cli_file;

static struct {
    cli_file *v;
    size_t n, cap;
    int out_of_memory;
    int checked;
} files;

static void free_files(void) { free(files.v); }

static void add_file(const char *option, const char *path, int output)
{
    if (!path)
        return;
    if (files.n == files.cap) {
        size_t cap = files.cap ? 2 * files.cap : 16;
        cli_file *v = realloc(files.v, cap * sizeof *v);
        if (!v) {
            files.out_of_memory = 1;
            return;
        }
        if (!files.v)
            atexit(free_files);
        files.v = v;
        files.cap = cap;
    }
    files.v[files.n++] = (cli_file){option, path, output};
    files.checked = 0;
}

void cli_file_input(const char *option, const char *path) { add_file(option, path, 0); }
void cli_file_output(const char *option, const char *path) { add_file(option, path, 1); }

/* What a path names: the device and inode of a file that exists (standard
 * input's for "-"), otherwise the resolved directory and last component. */
typedef struct file_id {
    int exists, is_stdin;
    struct stat st;
    char *resolved; /* malloc'd, when !exists */
    int dir_errno;  /* why the directory could not be resolved */
} file_id;

static void file_id_free(file_id *id) { free(id->resolved); }

static void file_id_get(const char *path, int output, file_id *id)
{
    memset(id, 0, sizeof *id);
    if (strcmp(path, "-") == 0) {
        id->is_stdin = !output;
        id->exists = !output && fstat(STDIN_FILENO, &id->st) == 0;
        return;
    }
    if (stat(path, &id->st) == 0) {
        id->exists = 1;
        return;
    }
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    size_t dirlen = slash ? (size_t)(slash - path) : 0;
    char *dir = malloc(dirlen + 2);
    if (!dir) {
        id->dir_errno = ENOMEM;
        return;
    }
    if (!slash)
        memcpy(dir, ".", 2);
    else if (dirlen == 0)
        memcpy(dir, "/", 2);
    else {
        memcpy(dir, path, dirlen);
        dir[dirlen] = '\0';
    }
    char *real = realpath(dir, NULL);
    struct stat dir_st;
    if (!real)
        id->dir_errno = errno;
    else if (stat(real, &dir_st) != 0 || !S_ISDIR(dir_st.st_mode))
        id->dir_errno = ENOTDIR;
    else {
        size_t n = strlen(real) + strlen(base) + 2;
        id->resolved = malloc(n);
        if (id->resolved)
            snprintf(id->resolved, n, "%s/%s", real, base);
        else
            id->dir_errno = ENOMEM;
    }
    free(real);
    free(dir);
}

/* Regular files (and files yet to be made) can be replaced; /dev/null or a
 * FIFO named twice is written in place and harms nothing. */
static int same_file(const file_id *a, const file_id *b)
{
    if (a->exists && b->exists)
        return S_ISREG(a->st.st_mode) && a->st.st_dev == b->st.st_dev && a->st.st_ino == b->st.st_ino;
    return !a->exists && !b->exists && a->resolved && b->resolved && strcmp(a->resolved, b->resolved) == 0;
}

/* An output that goes to standard output: "-", or the regular file that
 * standard output was redirected to, under any name (/dev/stdout). */
static int on_stdout(const cli_file *f, const file_id *id, const struct stat *out_st)
{
    if (strcmp(f->path, "-") == 0)
        return 1;
    return out_st && id->exists && id->st.st_dev == out_st->st_dev && id->st.st_ino == out_st->st_ino;
}

static const char *shown(const cli_file *f) { return strcmp(f->path, "-") == 0 ? "- (standard input)" : f->path; }

/* target: where the output is written, f->path resolved through links. */
static int check_output_name(const char *command, const cli_file *f, const char *target, const file_id *id)
{
    if (f->path[0] == '\0')
        return cli_usage_error(command, "%s: the file name is empty", f->option);
    if (strcmp(f->path, "-") == 0)
        return 0;
    if (id->exists && S_ISDIR(id->st.st_mode)) {
        cli_error(command, "%s: is a directory", f->path);
        return ls_exit_status(LS_ERR_CANTCREAT);
    }
    if (id->exists && !S_ISREG(id->st.st_mode))
        return 0; /* written in place */
    /* Written through "NAME.tmp.XXXXXX" beside it (outfile.h). */
    size_t suffix = sizeof ".tmp.XXXXXX" - 1;
    const char *slash = strrchr(target, '/');
    size_t base = strlen(slash ? slash + 1 : target);
    for (const char *c = target; *c;) { /* every directory on the way */
        size_t len = strcspn(c, "/");
        if (c[len] == '/' && len > NAME_MAX)
            return cli_usage_error(command, "%s: '%.40s...' has a directory name of %zu bytes (at most %d)",
                                   f->option, f->path, len, NAME_MAX);
        c += len + (c[len] == '/');
    }
    if (base + suffix > NAME_MAX)
        return cli_usage_error(command, "%s: '%.40s...' has a file name of %zu bytes (at most %d with the "
                               "temporary suffix)", f->option, f->path, base, (int)(NAME_MAX - suffix));
    if (strlen(target) + suffix >= PATH_MAX)
        return cli_usage_error(command, "%s: '%.40s...' is too long a path (%zu bytes; at most %d with the "
                               "temporary suffix)", f->option, f->path, strlen(target), (int)(PATH_MAX - 1 - suffix));
    if (!id->exists && !id->resolved) {
        if (strcmp(target, f->path) != 0)
            cli_error(command, "%s: cannot create %s, the file the link names: %s", f->path, target,
                      strerror(id->dir_errno));
        else
            cli_error(command, "%s: cannot create: %s", f->path, strerror(id->dir_errno));
        return ls_exit_status(LS_ERR_CANTCREAT);
    }
    /* The temporary file is made in the destination's directory, and
     * renamed over a file the user may write (a read-only or immutable file
     * is not silently replaced). */
    char *dir = strdup(target);
    if (!dir) {
        cli_error(command, "out of memory");
        return ls_exit_status(LS_ERR_INTERNAL);
    }
    char *cut = strrchr(dir, '/');
    const char *d = !cut ? "." : cut == dir ? "/" : (*cut = '\0', dir);
    int denied = access(d, W_OK | X_OK) != 0;
    int saved = errno;
    const char *what = "cannot create a file in its directory";
    if (!denied && id->exists && access(target, W_OK) != 0) {
        denied = 1;
        saved = errno;
        what = "cannot replace";
    }
    /* Root may write anything, but a file nobody may write (chmod 444) was
     * made read-only to be kept. */
    int read_only = !denied && id->exists && (id->st.st_mode & 0222) == 0;
#ifdef __linux__
    /* /proc and /sys take no new files, whatever access() says to root. */
    struct statfs fs;
    const long proc_magic = 0x9fa0, sysfs_magic = 0x62656572; /* linux/magic.h */
    if (!denied && statfs(d, &fs) == 0 && ((long)fs.f_type == proc_magic || (long)fs.f_type == sysfs_magic)) {
        cli_error(command, "%s: cannot create a file in its directory: %s is a kernel file system (%s)", f->path, d,
                  (long)fs.f_type == proc_magic ? "proc" : "sysfs");
        free(dir);
        return ls_exit_status(LS_ERR_CANTCREAT);
    }
#endif
    if (read_only) {
        cli_error(command, "%s: cannot replace: read-only for everyone (chmod u+w it to allow that)", f->path);
        free(dir);
        return ls_exit_status(LS_ERR_CANTCREAT);
    }
    if (denied)
        cli_error(command, "%s: %s: %s", f->path, what, strerror(saved));
    free(dir);
    return denied ? ls_exit_status(LS_ERR_CANTCREAT) : 0;
}

int cli_files_check(const char *command)
{
    if (files.out_of_memory) {
        cli_error(command, "out of memory");
        return ls_exit_status(LS_ERR_INTERNAL);
    }
    file_id *ids = calloc(files.n + 1, sizeof *ids);
    if (!ids) {
        cli_error(command, "out of memory");
        return ls_exit_status(LS_ERR_INTERNAL);
    }
    char **targets = calloc(files.n + 1, sizeof *targets);
    if (!targets) {
        free(ids);
        cli_error(command, "out of memory");
        return ls_exit_status(LS_ERR_INTERNAL);
    }
    int status = 0;
    for (size_t i = 0; i < files.n; i++) {
        const char *path = files.v[i].path;
        if (files.v[i].output && status == 0 && path[0] != '\0') {
            errno = 0;
            targets[i] = ls_outfile_resolve(path);
            if (!targets[i]) {
                if (errno == ELOOP)
                    cli_error(command, "%s: cannot create: a symbolic link that loops", path);
                else
                    cli_error(command, "%s: cannot create: %s", path, strerror(errno));
                status = ls_exit_status(errno == ENOMEM ? LS_ERR_INTERNAL : LS_ERR_CANTCREAT);
            }
        }
        file_id_get(targets[i] ? targets[i] : path, files.v[i].output, &ids[i]);
    }
    struct stat in_st, err_st;
    int stdin_ok = fstat(STDIN_FILENO, &in_st) == 0;
    int stderr_regular = fstat(STDERR_FILENO, &err_st) == 0 && S_ISREG(err_st.st_mode);
    struct stat out_st;
    int stdout_regular = fstat(STDOUT_FILENO, &out_st) == 0 && S_ISREG(out_st.st_mode);
    for (size_t i = 0; status == 0 && i < files.n; i++) {
        const cli_file *a = &files.v[i];
        if (a->output)
            status = check_output_name(command, a, targets[i] ? targets[i] : a->path, &ids[i]);
        else if (a->path[0] == '\0')
            status = cli_usage_error(command, "%s: the file name is empty", a->option);
        else if (stderr_regular && ids[i].exists && ids[i].st.st_dev == err_st.st_dev &&
                 ids[i].st.st_ino == err_st.st_ino)
            status = cli_usage_error(command, "standard error is the input %s %s", a->option, shown(a));
        else if (stdout_regular && ids[i].exists && ids[i].st.st_dev == out_st.st_dev &&
                 ids[i].st.st_ino == out_st.st_ino)
            status = cli_usage_error(command, "standard output is the input %s %s%s", a->option, shown(a),
                                     ids[i].st.st_size == 0 ? " (already emptied by the shell: > truncates the file "
                                                              "before the command starts; >> would not)"
                                                            : "");
        for (size_t j = 0; status == 0 && j < i; j++) {
            const cli_file *b = &files.v[j];
            if (a->output && b->output) {
                if (on_stdout(a, &ids[i], stdout_regular ? &out_st : NULL) &&
                    on_stdout(b, &ids[j], stdout_regular ? &out_st : NULL))
                    status = cli_usage_error(command, "%s%s%s and %s%s%s both write to standard output", b->option,
                                             strchr(b->option, ' ') ? "" : " ", strchr(b->option, ' ') ? "" : b->path,
                                             a->option, strchr(a->option, ' ') ? "" : " ",
                                             strchr(a->option, ' ') ? "" : a->path);
                else if (same_file(&ids[i], &ids[j]))
                    status = cli_usage_error(command, "%s %s and %s %s name the same file", b->option, b->path,
                                             a->option, a->path);
            } else if (a->output || b->output) {
                const cli_file *in = a->output ? b : a, *out = a->output ? a : b;
                /* A FIFO is written in place, not replaced, but writing the
                 * stream the command reads would wait on itself. */
                int same_fifo = ids[i].exists && ids[j].exists && S_ISFIFO(ids[i].st.st_mode) &&
                                ids[i].st.st_dev == ids[j].st.st_dev && ids[i].st.st_ino == ids[j].st.st_ino;
                if (same_file(&ids[i], &ids[j]))
                    status = cli_usage_error(command, "%s %s would replace the input %s %s", out->option, out->path,
                                             in->option, shown(in));
                else if (same_fifo)
                    status = cli_usage_error(command, "%s %s writes into the FIFO read as the input %s %s",
                                             out->option, out->path, in->option, shown(in));
            } else if (strcmp(a->option, b->option) != 0) {
                /* Two roles: a regular file may be read for both (it is
                 * opened twice, each read from its start), but standard
                 * input, or any one stream, is consumed by the first read
                 * and would leave the second one empty. */
                int ai = ids[i].is_stdin || (stdin_ok && ids[i].exists && ids[i].st.st_dev == in_st.st_dev &&
                                             ids[i].st.st_ino == in_st.st_ino);
                int bi = ids[j].is_stdin || (stdin_ok && ids[j].exists && ids[j].st.st_dev == in_st.st_dev &&
                                             ids[j].st.st_ino == in_st.st_ino);
                int same_stream = ids[i].exists && ids[j].exists && !S_ISREG(ids[i].st.st_mode) &&
                                  !S_ISCHR(ids[i].st.st_mode) && ids[i].st.st_dev == ids[j].st.st_dev &&
                                  ids[i].st.st_ino == ids[j].st.st_ino;
                if (ai && bi)
                    status = cli_usage_error(command, "standard input is named twice (%s and %s)", b->option,
                                             a->option);
                else if (same_stream)
                    status = cli_usage_error(command, "%s %s and %s %s are one stream, which can be read once",
                                             b->option, b->path, a->option, a->path);
                else if (same_file(&ids[i], &ids[j]))
                    cli_warn(command, "%s and %s are the same file, %s", b->option, a->option, shown(a));
            } else {
                /* One stream read twice, a pipe as much as a file (- and
                 * /dev/stdin): the second read would find it empty. */
                int same_stream = ids[i].exists && ids[j].exists && ids[i].st.st_dev == ids[j].st.st_dev &&
                                  ids[i].st.st_ino == ids[j].st.st_ino;
                if (ids[i].is_stdin && ids[j].is_stdin)
                    status = cli_usage_error(command, "%s: standard input (-) is named twice", a->option);
                else if (same_stream || same_file(&ids[i], &ids[j]))
                    status = cli_usage_error(command, "%s: %s and %s are the same file; each run would count twice",
                                             a->option, shown(b), shown(a));
            }
        }
    }
    for (size_t i = 0; i < files.n; i++) {
        file_id_free(&ids[i]);
        free(targets[i]);
    }
    free(ids);
    free(targets);
    files.checked = status == 0;
    return status;
}

/* An output path was named to cli_files_check(), and the check passed. */
static int output_checked(const char *path)
{
    if (!files.checked)
        return 0;
    for (size_t i = 0; i < files.n; i++)
        if (files.v[i].output && files.v[i].path == path)
            return 1;
    for (size_t i = 0; i < files.n; i++)
        if (files.v[i].output && strcmp(files.v[i].path, path) == 0)
            return 1;
    return 0;
}

int cli_stdout_failed(const char *command, int errnum)
{
    fprintf(stderr, "loopscale%s%s: write error on standard output: %s\n", command ? " " : "",
            command ? command : "", strerror(errnum ? errnum : EIO));
    return ls_exit_status(LS_ERR_IO);
}

int cli_write_files(const char *command, size_t n, const char *const *paths, const char *const *texts)
{
    size_t lens[8] = {0};
    for (size_t i = 0; i < n && i < 8; i++)
        lens[i] = texts[i] ? strlen(texts[i]) : 0;
    return cli_write_data(command, n, paths, (const void *const *)texts, lens);
}

int cli_write_data(const char *command, size_t n, const char *const *paths, const void *const *data,
                   const size_t *lens)
{
    /* Results already printed but lost (a full disk behind standard output)
     * fail the run before any file is replaced. */
    if (fflush(stdout) != 0 || ferror(stdout))
        return cli_stdout_failed(command, errno);
    /* Two outputs naming one file, or an output naming an input, were
     * refused by cli_files_check() before any work. */
    for (size_t i = 0; i < n; i++)
        if (paths[i] && !output_checked(paths[i])) {
            cli_error(command, "internal error: output %s was not checked against the inputs", paths[i]);
            return ls_exit_status(LS_ERR_INTERNAL);
        }
    ls_error err;
    outfile **out = calloc(n ? n : 1, sizeof *out);
    int status = !out                      ? ls_error_set(&err, LS_ERR_INTERNAL, "out of memory")
                 : n <= LS_OUTFILE_MAX_OPEN ? 0
                                            : ls_error_set(&err, LS_ERR_INTERNAL, "too many output files");
    for (size_t i = 0; status == 0 && i < n; i++) {
        if (!paths[i])
            continue;
        if (!(out[i] = ls_outfile_open(paths[i], ls_outfile_wants_gzip(paths[i]), &err)))
            status = err.code;
        else if (ls_outfile_write(out[i], data[i], lens[i], &err) == 0)
            status = ls_outfile_flush(out[i], &err);
        else
            status = err.code;
    }
    /* Every file is written and synced; only the renames remain, all or
     * none of them. */
    if (status == 0)
        status = ls_outfile_commit_all(out, n, &err);
    for (size_t i = 0; out && i < n; i++)
        if (out[i])
            ls_outfile_abort(out[i]);
    free(out);
    return status == 0 ? 0 : cli_fail(command, &err);
}

int cli_write_file(const char *command, const char *path, const char *text)
{
    return cli_write_files(command, 1, &path, &text);
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

/* ---- option values --------------------------------------------------------- */

static int value_error(const char *command, const char *option, const char *arg, numtext_status st)
{
    return cli_usage_error(command, "%s: '%s' %s", option, arg, ls_numtext_reason(st));
}

/* Every numeric option's sane range, in one table: a finite value far
 * outside what the option can mean (--E 1e21, --mem 1e308, --noise 300,
 * --tokens 0.5) would not fail but give a meaningless answer, or print one
 * ("N_total <= inf").  The parsers below check each value they read against
 * the row of its option (after their own checks: a number, positive), and
 * refuse one outside with 64, naming the option, the value and the range.
 * Counts that options take as integers (--starts, --threads, --bootstrap,
 * shape's sizes) have their ranges where they are parsed, with
 * cli_parse_long, and so do --plot-size (1 to 100 inches each way, in
 * either unit) and --group-tol (between 0 and 0.5, both excluded).  The man page lists these ranges (RANGES). */
typedef struct cli_range {
    const char *option;
    double min, max;
    int integer;
    const char *what;
} cli_range;

static const cli_range RANGES[] = {
    {"--n-act", 1, 1e20, 0, "parameters"},
    {"--n-total", 1, 1e20, 0, "parameters"},
    {"--n-loop", 1, 1e20, 0, "parameters"},
    {"--tokens", 1, 1e20, 0, "tokens"},
    {"--flops", 1, 1e40, 0, "FLOPs"},
    {"--budget", 1, 1e40, 0, "FLOPs"},
    {"--baseline-flops", 1, 1e40, 0, "FLOPs"},
    {"--flop-rate", 1, 1e21, 0, "FLOP/s"},
    {"--gpu-hours", 1e-3, 1e12, 0, "GPU hours"},
    {"--mem", 1, 1e21, 0, "bytes"},
    {"--E", 1, 1e6, 1, "experts"},
    {"--R", 1, 1e4, 1, "loops"},
    {"--k", 1, 1e6, 1, "experts per token"},
    {"--bits", 1, 64, 0, "bits per weight"},
    {"--noise", 0, 1, 0, "the log-normal sigma"},
    {"--prior-sd", 1e-6, 10, 0, "a prior's standard deviation"},
    {"--eps", 0, 10, 0, "nats"},
    {"--huber-delta", 1e-9, 10, 0, "log-loss units"},
    {"--bytes-per-token", 0.01, 1000, 0, "bytes"},
    {"--plot-font-size", 4, 40, 0, "points"},
    {"--dpi", 30, 1200, 0, "dots per inch"},
    {"--prelude", 0, 1e6, 0, "loop-block costs"},
    {"--coda", 0, 1e6, 0, "loop-block costs"},
    {"--loop", 1e-6, 1e6, 0, "relative cost"},
    {"--thresholds", 0, 100, 0, "nats"},
    {"--mup-base-width", 1, 1e9, 0, "dimensions"},
};

/* The range of option, or NULL. */
static const cli_range *range_of(const char *option)
{
    for (size_t i = 0; i < sizeof RANGES / sizeof RANGES[0]; i++)
        if (strcmp(RANGES[i].option, option) == 0)
            return &RANGES[i];
    return NULL;
}

/* 0 when value (the text given, len bytes) is inside option's range. */
static int check_range(const char *command, const char *option, const char *text, size_t len, double value)
{
    const cli_range *r = range_of(option);
    if (!r || ((value >= r->min && value <= r->max) && (!r->integer || value == floor(value))))
        return 0;
    if (value >= r->min && value <= r->max)
        return cli_usage_error(command, "%s: '%.*s' is not an integer (%s)", option, (int)len, text, r->what);
    return cli_usage_error(command, "%s: '%.*s' is outside its range: %s %g to %g (%s)", option, (int)len, text,
                           r->integer ? "an integer from" : "from", r->min, r->max, r->what);
}

static int parse_double_only(const char *command, const char *option, const char *arg, double *out)
{
    numtext_status st = ls_numtext_parse_double(arg, strlen(arg), out);
    return st == NUMTEXT_OK ? 0 : value_error(command, option, arg, st);
}

int cli_parse_double(const char *command, const char *option, const char *arg, double *out)
{
    int status = parse_double_only(command, option, arg, out);
    return status == 0 ? check_range(command, option, arg, strlen(arg), *out) : status;
}

int cli_parse_positive(const char *command, const char *option, const char *arg, double *out)
{
    int status = parse_double_only(command, option, arg, out);
    if (status == 0 && !(*out > 0))
        return cli_usage_error(command, "%s: '%s' must be positive", option, arg);
    return status == 0 ? check_range(command, option, arg, strlen(arg), *out) : status;
}

/* Two unit systems, kept apart because they disagree on B.  A count of
 * FLOPs, tokens or parameters takes the SI suffixes logs write, k M B/G T,
 * and P E for FLOP budgets: B is a billion.  A memory size takes bytes: k M
 * G T P E (powers of 1000) or Ki Mi Gi Ti (powers of 1024), each with an
 * optional B: B is a byte.  So 2.8B given for FLOPs is 2.8e9, 3GB given for
 * FLOPs is refused as a size, and 3B given for memory is refused as
 * ambiguous (3 bytes, or 3 billion?). */
typedef enum { FLOPS_OK, FLOPS_BAD, FLOPS_IS_BYTES } flops_text;

static flops_text parse_flops_text(const char *text, size_t len, double *out, numtext_status *st)
{
    *st = ls_numtext_parse_count(text, len, out);
    if (*st == NUMTEXT_OK)
        return FLOPS_OK;
    while (len && isspace((unsigned char)*text))
        text++, len--;
    while (len && isspace((unsigned char)text[len - 1]))
        len--;
    char last = len ? text[len - 1] : '\0';
    if (len >= 2 && (last == 'P' || last == 'p' || last == 'E')) {
        double value = 0;
        numtext_status head = ls_numtext_parse_double(text, len - 1, &value);
        if (head == NUMTEXT_OK && isfinite(value * (last == 'E' ? 1e18 : 1e15))) {
            *out = value * (last == 'E' ? 1e18 : 1e15);
            *st = NUMTEXT_OK;
            return FLOPS_OK;
        }
        if (head == NUMTEXT_OK) {
            *st = NUMTEXT_RANGE;
            return FLOPS_BAD;
        }
    }
    double bytes = 0;
    if (ls_numtext_parse_scaled(text, len, &bytes) == NUMTEXT_OK)
        return FLOPS_IS_BYTES;
    return FLOPS_BAD;
}

static int flops_error(const char *command, const char *option, const char *text, size_t len, flops_text kind,
                       numtext_status st)
{
    if (kind == FLOPS_IS_BYTES)
        return cli_usage_error(command, "%s: '%.*s' is a size in bytes; a count of FLOPs takes k, M, B or G, T, P, "
                               "E (2.8B is 2.8e9)", option, (int)len, text);
    return cli_usage_error(command, "%s: '%.*s' %s", option, (int)len, text, ls_numtext_reason(st));
}

int cli_parse_bytes(const char *command, const char *option, const char *arg, double *out)
{
    size_t len = strlen(arg);
    while (len && isspace((unsigned char)arg[len - 1]))
        len--;
    /* A B straight after the digits: a byte here, a billion in a count. */
    if (len >= 2 && (arg[len - 1] == 'B' || arg[len - 1] == 'b') &&
        (isdigit((unsigned char)arg[len - 2]) || arg[len - 2] == '.' || arg[len - 2] == ' '))
        return cli_usage_error(command, "%s: '%s' is ambiguous: B is a byte in a size but a billion in a count; "
                               "write 3GB for 3e9 bytes, or the number alone for bytes", option, arg);
    numtext_status st = ls_numtext_parse_scaled(arg, strlen(arg), out);
    if (st != NUMTEXT_OK)
        return value_error(command, option, arg, st);
    if (!(*out > 0))
        return cli_usage_error(command, "%s: '%s' must be positive", option, arg);
    return check_range(command, option, arg, strlen(arg), *out);
}

int cli_parse_long(const char *command, const char *option, const char *arg, long min, long max, long *out)
{
    numtext_status st = ls_numtext_parse_long(arg, strlen(arg), out);
    if (st != NUMTEXT_OK)
        return value_error(command, option, arg, st);
    if (*out < min || *out > max)
        return cli_usage_error(command, "%s: '%s' is outside [%ld, %ld]", option, arg, min, max);
    return 0;
}

int cli_parse_seed(const char *command, const char *arg, unsigned long *out)
{
    long v = 0;
    int status = cli_parse_long(command, "--seed", arg, 0, 4294967295L, &v);
    *out = (unsigned long)v;
    return status;
}

static int parse_list(const char *command, const char *option, const char *arg, double **values, size_t *n,
                      int flops)
{
    size_t count = 1;
    for (const char *p = arg; *p; p++)
        count += *p == ',';
    double *v = malloc(count * sizeof *v);
    if (!v) {
        cli_error(command, "out of memory");
        return ls_exit_status(LS_ERR_INTERNAL);
    }
    const char *p = arg;
    for (size_t i = 0; i < count; i++) {
        const char *comma = strchr(p, ',');
        size_t len = comma ? (size_t)(comma - p) : strlen(p);
        numtext_status st = NUMTEXT_OK;
        if (!flops)
            st = ls_numtext_parse_double(p, len, &v[i]);
        else {
            flops_text kind = parse_flops_text(p, len, &v[i], &st);
            if (kind == FLOPS_IS_BYTES || (kind == FLOPS_BAD && st != NUMTEXT_RANGE)) {
                free(v);
                return flops_error(command, option, p, len, kind, st);
            }
        }
        if (st == NUMTEXT_OK && !(v[i] > 0)) {
            free(v);
            return cli_usage_error(command, "%s: '%.*s' must be a positive number", option, (int)len, p);
        }
        if (st != NUMTEXT_OK) {
            free(v);
            char copy[64];
            double tiny = 0;
            if (st == NUMTEXT_RANGE && len < sizeof copy) { /* positive, but below DBL_MIN? */
                memcpy(copy, p, len);
                copy[len] = '\0';
                tiny = strtod(copy, NULL);
            }
            if (st == NUMTEXT_RANGE && tiny > 0 && tiny < DBL_MIN)
                return cli_usage_error(command, "%s: '%.*s' is below the smallest normal double (%g); subnormal "
                                       "values lose precision and are refused", option, (int)len, p, DBL_MIN);
            return cli_usage_error(command, "%s: '%.*s' %s", option, (int)len, p, ls_numtext_reason(st));
        }
        for (size_t j = 0; j < i; j++)
            if (v[j] == v[i]) {
                free(v);
                return cli_usage_error(command, "%s: '%.*s' given twice", option, (int)len, p);
            }
        int status = check_range(command, option, p, len, v[i]);
        if (status != 0) {
            free(v);
            return status;
        }
        p = comma ? comma + 1 : p + len;
    }
    free(*values);
    *values = v;
    *n = count;
    return 0;
}

int cli_parse_level(const char *command, const char *arg, double *out)
{
    int status = cli_parse_double(command, "--ci", arg, out);
    if (status == 0 && !(*out >= 0.5 && *out <= 0.999))
        status = cli_usage_error(command, "--ci: '%s' is not a usable level: give one from 0.5 to 0.999 (0.95 is a "
                                 "95%% interval)", arg);
    return status;
}

int cli_parse_list(const char *command, const char *option, const char *arg, double **values, size_t *n)
{
    return parse_list(command, option, arg, values, n, 0);
}

int cli_parse_flops_list(const char *command, const char *option, const char *arg, double **values, size_t *n)
{
    return parse_list(command, option, arg, values, n, 1);
}

int cli_parse_format(const char *command, const char *arg, unsigned allowed, cli_format *out)
{
    static const char *const names[] = {"table", "csv", "json", "md"};
    char choices[64] = "";
    for (int f = 0; f < 4; f++) {
        if (!(allowed & (1u << f)))
            continue;
        if (strcmp(arg, names[f]) == 0) {
            *out = (cli_format)f;
            return 0;
        }
        if (choices[0])
            strcat(choices, ", ");
        strcat(choices, names[f]);
    }
    return cli_usage_error(command, "--format: '%s' is not one of %s", arg, choices);
}

int cli_strings_push(cli_strings *list, const char *s)
{
    if (list->n == list->cap) {
        size_t cap = list->cap ? 2 * list->cap : 8;
        const char **v = realloc(list->v, cap * sizeof *v);
        if (!v)
            return ls_exit_status(LS_ERR_INTERNAL);
        list->v = v;
        list->cap = cap;
    }
    list->v[list->n++] = s;
    return 0;
}

void cli_strings_free(cli_strings *list)
{
    free(list->v);
    memset(list, 0, sizeof *list);
}

int cli_fit_option(const char *command, int opt, const char *arg, ls_fit_parameters *params, int *status)
{
    long value = 0;
    switch (opt) {
    case OPT_LOSS:
        if (strcmp(arg, "huber") == 0 || strcmp(arg, "mse") == 0)
            params->loss = arg[0] == 'h' ? LS_FIT_LOSS_HUBER : LS_FIT_LOSS_MSE;
        else
            *status = cli_usage_error(command, "--loss: '%s' is not huber or mse", arg);
        return 1;
    case OPT_HUBER_DELTA: *status = cli_parse_positive(command, "--huber-delta", arg, &params->huber_delta); return 1;
    case OPT_SPACE:
        if (strcmp(arg, "log") == 0 || strcmp(arg, "linear") == 0)
            params->space = arg[1] == 'o' ? LS_FIT_SPACE_LOG : LS_FIT_SPACE_LINEAR;
        else
            *status = cli_usage_error(command, "--space: '%s' is not log or linear", arg);
        return 1;
    case OPT_GRID:
        if (strcmp(arg, "chinchilla") == 0)
            params->grid_chinchilla = 1;
        else
            *status = cli_usage_error(command, "--grid: '%s' is not chinchilla", arg);
        return 1;
    case OPT_STARTS:
        *status = cli_parse_long(command, "--starts", arg, 1, 1000000, &value);
        params->starts = (size_t)value;
        return 1;
    case OPT_SEED: *status = cli_parse_seed(command, arg, &params->seed); return 1;
    case OPT_THREADS:
        *status = cli_parse_long(command, "--threads", arg, 1, 256, &value);
        params->threads = (int)value;
        return 1;
    default: return 0;
    }
}

/* Keep "--option value" for the law file's provenance. */
static int remember_option(cli_sweep_args *args, const char *option, const char *arg)
{
    char text[512];
    snprintf(text, sizeof text, "%s%s%s", option, arg ? " " : "", arg ? arg : "");
    char *copy = strdup(text);
    if (!copy || cli_strings_push(&args->given, copy) != 0) {
        free(copy);
        return -1;
    }
    return 0;
}

int cli_sweep_option(const char *command, cli_sweep_args *args, int opt, const char *arg, int *status)
{
    int oom = 0;
    switch (opt) {
    case OPT_MAP: oom = cli_strings_push(&args->maps, arg) || cli_strings_push(&args->map_origins, NULL); break;
    case OPT_WHERE:
        oom = cli_strings_push(&args->wheres, arg) || cli_strings_push(&args->where_origins, NULL);
        break;
    case OPT_SKIP_INVALID:
        if (!args->skip_invalid)
            oom = remember_option(args, "--skip-invalid", NULL);
        args->skip_invalid = 1;
        break;
    case OPT_LOSS_UNIT:
        if (strcmp(arg, "nats") != 0 && strcmp(arg, "bits") != 0) {
            *status = cli_usage_error(command, "--loss-unit: '%s' is not nats or bits", arg);
            return 1;
        }
        args->loss_in_bits = strcmp(arg, "bits") == 0;
        args->loss_unit_given = 1;
        oom = remember_option(args, "--loss-unit", arg);
        break;
    case OPT_BYTES_PER_TOKEN:
        if ((*status = cli_parse_positive(command, "--bytes-per-token", arg, &args->bytes_per_token)) != 0)
            return 1;
        oom = remember_option(args, "--bytes-per-token", arg);
        break;
    case OPT_RUN:
        args->run = arg;
        oom = remember_option(args, "--run", arg);
        break;
    case OPT_STEP:
        args->step = arg;
        oom = remember_option(args, "--step", arg);
        break;
    case OPT_LAST:
        if (!args->last)
            oom = remember_option(args, "--last", NULL);
        args->last = 1;
        break;
    case OPT_PROFILE: {
        if (args->profile) {
            *status = cli_usage_error(command, "--profile: give one profile");
            return 1;
        }
        ls_error err;
        if (!(args->profile = ls_profile_read(arg, &err))) {
            *status = cli_fail(command, &err);
            return 1;
        }
        cli_file_input("--profile", arg);
        const ls_profile *p = args->profile;
        oom = remember_option(args, "--profile", arg);
        for (size_t i = 0; i < p->nmaps && !oom; i++)
            oom = cli_strings_push(&args->maps, p->maps[i]) || cli_strings_push(&args->map_origins, p->map_origins[i]);
        for (size_t i = 0; i < p->nwheres && !oom; i++)
            oom = cli_strings_push(&args->wheres, p->wheres[i]) ||
                  cli_strings_push(&args->where_origins, p->where_origins[i]);
        /* Single values given as options win, before or after --profile. */
        if (p->run && !args->run && !(oom = remember_option(args, "--run", p->run)))
            args->run = p->run;
        if (p->step && !args->step && !oom && !(oom = remember_option(args, "--step", p->step)))
            args->step = p->step;
        if (p->last && !args->last && !oom)
            oom = remember_option(args, "--last", NULL);
        if (p->skip_invalid && !args->skip_invalid && !oom)
            oom = remember_option(args, "--skip-invalid", NULL);
        args->last |= p->last;
        args->skip_invalid |= p->skip_invalid;
        if (!args->loss_unit_given)
            args->loss_in_bits = p->loss_in_bits;
        if (p->bytes_per_token > 0 && !(args->bytes_per_token > 0))
            args->bytes_per_token = p->bytes_per_token;
        if (p->group_tol > 0 && !(args->group_tol > 0))
            args->group_tol = p->group_tol;
        break;
    }
    case OPT_GROUP_TOL:
        if ((*status = cli_parse_double(command, "--group-tol", arg, &args->group_tol)) != 0)
            return 1;
        if (!(args->group_tol > 0 && args->group_tol < 0.5)) {
            *status = cli_usage_error(command, "--group-tol: '%s' is not between 0 and 0.5 (a relative tolerance)", arg);
            return 1;
        }
        oom = remember_option(args, "--group-tol", arg);
        break;
    default: return 0;
    }
    *status = oom ? ls_exit_status(LS_ERR_INTERNAL) : 0;
    return 1;
}

void cli_sweep_report_checkpoints(const char *command, const ls_sweep *s, const cli_sweep_args *args)
{
    char dropped[LS_ERROR_MESSAGE_MAX];
    ls_sweep_last_dropped_describe(s, dropped, sizeof dropped);
    if (dropped[0])
        cli_warn(command, "%s: %s", s->name, dropped);
    if (args->last && s->earlier_steps_dropped > 0)
        cli_note(command, "%s: kept the last step of each run ('%s'): %zu earlier checkpoints left out", s->name,
                 s->run_column ? s->run_column : "?", s->earlier_steps_dropped);
    else if (!args->last && s->runs_with_several_rows > 0)
        cli_warn(command, "%s: %zu %s ('%s') %s several rows each (%zu rows): each row is fitted as a run; "
                 "--last keeps each run's last checkpoint, --where can pick a step", s->name,
                 s->runs_with_several_rows, ls_plural((double)s->runs_with_several_rows, "run", "runs"),
                 s->run_column ? s->run_column : "?", ls_plural((double)s->runs_with_several_rows, "has", "have"),
                 s->rows_of_those_runs);
}

void cli_sweep_report_skips(const char *command, const char *name, const ls_sweep_skips *skipped)
{
    char text[2 * LS_ERROR_MESSAGE_MAX];
    ls_sweep_skips_describe(skipped, text, sizeof text);
    if (text[0])
        cli_warn(command, "%s: %s", name, text);
}

const char *cli_fixed(char *buf, size_t size, double x, int decimals)
{
    if (fabs(x) < CLI_FIXED_MAX)
        snprintf(buf, size, "%.*f", decimals, x);
    else
        snprintf(buf, size, "%.*g", decimals + 1, x);
    return buf;
}

int cli_parse_count(const char *command, const char *option, const char *arg, double *out)
{
    numtext_status st = ls_numtext_parse_count(arg, strlen(arg), out);
    if (st == NUMTEXT_OK)
        return check_range(command, option, arg, strlen(arg), *out);
    /* 25GB for tokens or parameters: a size, said as FLOPs say it. */
    double ignored;
    numtext_status bytes_st;
    if (parse_flops_text(arg, strlen(arg), &ignored, &bytes_st) == FLOPS_IS_BYTES)
        return cli_usage_error(command, "%s: '%s' is a size in bytes; a count takes k, M, B or G, T, P, E (2.8B is "
                               "2.8e9)", option, arg);
    return value_error(command, option, arg, st);
}

size_t cli_max_rows(void)
{
    /* fit and holdout hold every run in memory (about 320 bytes a run at
     * one thread, docs/performance.md); predict streams and needs no limit. */
    const char *text = getenv("LOOPSCALE_MAX_ROWS");
    long value = 0;
    if (!text || !*text)
        return CLI_MAX_ROWS_DEFAULT;
    if (ls_numtext_parse_long(text, strlen(text), &value) != NUMTEXT_OK || value < 0) {
        cli_warn(NULL, "LOOPSCALE_MAX_ROWS='%s' is not a count of rows; using %zu", text, (size_t)CLI_MAX_ROWS_DEFAULT);
        return CLI_MAX_ROWS_DEFAULT;
    }
    return (size_t)value; /* 0: no limit */
}

static void sweep_note(void *command, const char *message) { cli_warn(command, "%s", message); }

ls_sweep_options cli_sweep_options(const char *command, const cli_sweep_args *args)
{
    ls_sweep_options o = {0};
    o.warn = sweep_note;
    o.warn_context = (void *)(uintptr_t)command; /* only read back as const char * */
    o.maps = args->maps.v;
    o.nmaps = args->maps.n;
    o.wheres = args->wheres.v;
    o.nwheres = args->wheres.n;
    o.map_origins = args->map_origins.v;
    o.where_origins = args->where_origins.v;
    if (args->profile && args->run == args->profile->run)
        o.run_origin = args->profile->run_origin;
    if (args->profile && args->step == args->profile->step)
        o.step_origin = args->profile->step_origin;
    o.skip_invalid = args->skip_invalid;
    o.loss_in_bits = args->loss_in_bits;
    o.bytes_per_token = args->bytes_per_token;
    o.group_tol = args->group_tol;
    o.run_column = args->run;
    o.step_column = args->step;
    o.last = args->last;
    o.max_rows = cli_max_rows();
    return o;
}

void cli_sweep_args_free(cli_sweep_args *args)
{
    cli_strings_free(&args->maps);
    cli_strings_free(&args->wheres);
    cli_strings_free(&args->map_origins);
    cli_strings_free(&args->where_origins);
    for (size_t i = 0; i < args->given.n; i++) {
        char *owned; /* strdup'd by remember_option */
        memcpy(&owned, &args->given.v[i], sizeof owned);
        free(owned);
    }
    cli_strings_free(&args->given);
    ls_profile_free(args->profile);
    args->profile = NULL;
}

/* Why the fit a law file records is not a fit, or NULL: the best solve did
 * not converge, or a free parameter has no standard error (the Jacobian was
 * singular: the sweep could not tell the parameters apart).  fit writes
 * neither; a file from an older version or edited by hand may say so. */
static const char *not_a_fit(const ls_lawfile *lf, char *buf, size_t size)
{
    if (!lf->has_fit)
        return NULL;
    if (!lf->fit.converged)
        return "the fit it records did not converge";
    if (!lf->has_stderr) /* fit always writes them: without, nothing says the fit was determined */
        return "the fit it records has no standard errors";
    ls_law_param list[LS_LAW_NPARAMS];
    size_t np = ls_law_params_of(lf->law.kind, list), used = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < np; i++)
        if (!lf->fixed[list[i]] && !isfinite(lf->stderr_of[list[i]]) && used + 16 < size)
            used += (size_t)snprintf(buf + used, size - used, "%s%s", used ? ", " : "", ls_law_param_name(list[i]));
    if (!used)
        return NULL;
    char names[128];
    snprintf(names, sizeof names, "%s", buf);
    snprintf(buf, size, "the fit it records cannot tell its parameters apart (no standard error for %s)", names);
    return buf;
}

ls_lawfile *cli_read_law(const char *command, const char *path, int force, int *status)
{
    ls_error err;
    ls_lawfile *lf = path ? ls_lawfile_read(path, &err) : ls_lawfile_default(&err);
    *status = lf ? 0 : cli_fail(command, &err);
    if (lf && !path)
        cli_note(command, "using the default law (%s); --law FILE for another", LS_LAWFILE_DEFAULT_DESCRIPTION);
    char buf[256];
    const char *why = lf && path ? not_a_fit(lf, buf, sizeof buf) : NULL;
    if (why && force)
        cli_warn(command, "%s: %s; used anyway (--force)", path, why);
    else if (why) {
        cli_error(command, "%s: %s, so its parameters are not a law (--force to use them anyway)", path, why);
        *status = ls_exit_status(LS_ERR_DATA);
        ls_lawfile_free(lf);
        lf = NULL;
    }
    return lf;
}

/* ---- tables ------------------------------------------------------------------- */

struct cli_table {
    size_t ncols, nrows, cap;
    char **cells; /* (nrows + 1) x ncols, headers first */
};

cli_table *cli_table_new(size_t ncols, const char *const *headers)
{
    cli_table *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->ncols = ncols;
    if (cli_table_add(t, headers) != 0) { /* the header is stored as row 0 */
        cli_table_free(t);
        return NULL;
    }
    return t;
}

int cli_table_add(cli_table *t, const char *const *cells)
{
    size_t used = (t->cells ? t->nrows + 1 : 0) * t->ncols;
    if (used + t->ncols > t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 16 * t->ncols;
        while (cap < used + t->ncols)
            cap *= 2;
        char **p = realloc(t->cells, cap * sizeof *p);
        if (!p)
            return -1;
        t->cells = p;
        t->cap = cap;
    }
    for (size_t j = 0; j < t->ncols; j++) {
        t->cells[used + j] = strdup(cells[j] ? cells[j] : "");
        if (!t->cells[used + j]) {
            for (size_t k = 0; k < j; k++)
                free(t->cells[used + k]);
            return -1;
        }
    }
    if (used > 0)
        t->nrows++;
    return 0;
}

static int looks_numeric(const char *s)
{
    double x;
    return *s && (ls_numtext_parse_double(s, strlen(s), &x) == NUMTEXT_OK || strcmp(s, "-") == 0 ||
                  strcmp(s, "inf") == 0);
}

void cli_csv_field(FILE *fp, const char *s, size_t len)
{
    /* s need not be NUL-terminated (streamed cells are slices of a record). */
    int quote = len > 0 && isspace((unsigned char)s[0]);
    for (size_t i = 0; i < len && !quote; i++)
        quote = s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
    if (!quote) {
        fwrite(s, 1, len, fp);
        return;
    }
    fputc('"', fp);
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '"')
            fputc('"', fp);
        fputc(s[i], fp);
    }
    fputc('"', fp);
}

void cli_table_print(const cli_table *t, FILE *fp, cli_format format)
{
    size_t rows = t->nrows + 1;
    if (format == CLI_FORMAT_CSV) {
        for (size_t i = 0; i < rows; i++)
            for (size_t j = 0; j < t->ncols; j++) {
                const char *s = t->cells[i * t->ncols + j];
                cli_csv_field(fp, s, strlen(s));
                fputc(j + 1 < t->ncols ? ',' : '\n', fp);
            }
        return;
    }
    size_t *width = calloc(t->ncols, sizeof *width);
    int *numeric = calloc(t->ncols, sizeof *numeric);
    if (!width || !numeric) {
        free(width);
        free(numeric);
        return;
    }
    for (size_t j = 0; j < t->ncols; j++) {
        numeric[j] = t->nrows > 0;
        for (size_t i = 0; i < rows; i++) {
            const char *s = t->cells[i * t->ncols + j];
            size_t w = strlen(s);
            if (w > width[j])
                width[j] = w;
            if (i > 0 && !looks_numeric(s))
                numeric[j] = 0;
        }
    }
    int md = format == CLI_FORMAT_MD;
    for (size_t i = 0; i < rows; i++) {
        if (md)
            fputs("| ", fp);
        for (size_t j = 0; j < t->ncols; j++) {
            const char *s = t->cells[i * t->ncols + j];
            int w = (int)width[j];
            int last = j + 1 == t->ncols;
            if (numeric[j])
                fprintf(fp, "%*s", w, s);
            else if (last && !md)
                fputs(s, fp);
            else
                fprintf(fp, "%-*s", w, s);
            if (!last)
                fputs(md ? " | " : "  ", fp);
        }
        fputs(md ? " |\n" : "\n", fp);
        if (i == 0 && md) { /* |---|---:| : numbers right-aligned */
            fputs("|", fp);
            for (size_t j = 0; j < t->ncols; j++) {
                for (size_t k = 0; k < width[j] + 1; k++)
                    fputc('-', fp);
                fputs(numeric[j] ? ":|" : "-|", fp);
            }
            fputc('\n', fp);
        }
    }
    free(width);
    free(numeric);
}

void cli_table_free(cli_table *t)
{
    if (!t)
        return;
    size_t used = t->cells ? (t->nrows + 1) * t->ncols : 0;
    for (size_t i = 0; i < used; i++)
        free(t->cells[i]);
    free(t->cells);
    free(t);
}

/* ---- laws and held-out axes ------------------------------------------------------ */

int cli_parse_laws(const char *cmd, const char *arg, ls_law_kind **laws, size_t *n)
{
    if (arg[0] == '\0')
        return cli_usage_error(cmd, "--laws: no law given");
    size_t count = 1;
    for (const char *p = arg; *p; p++)
        count += *p == ',';
    ls_law_kind *v = calloc(count, sizeof *v);
    char *copy = strdup(arg);
    if (!v || !copy) {
        free(v);
        free(copy);
        cli_error(cmd, "out of memory");
        return ls_exit_status(LS_ERR_INTERNAL);
    }
    size_t k = 0;
    int status = 0;
    /* Split on every comma, so that an empty item ('dense,') is refused
     * as the numeric lists refuse one, not skipped. */
    char *tok = copy;
    for (char *next = tok; next && status == 0; tok = next) {
        next = strchr(tok, ',');
        if (next)
            *next++ = '\0';
        ls_error err;
        if (*tok == '\0')
            status = cli_usage_error(cmd, "--laws: empty item in '%s'", arg);
        else if (ls_law_kind_parse(tok, &v[k], &err) != 0)
            status = cli_usage_error(cmd, "--laws: %s", err.message);
        for (size_t j = 0; status == 0 && j < k; j++)
            if (v[j].base == v[k].base && v[j].mapping == v[k].mapping)
                status = cli_usage_error(cmd, "--laws: '%s' given twice", tok);
        k++;
    }
    free(copy);
    if (status != 0) {
        free(v);
        return status;
    }
    free(*laws);
    *laws = v;
    *n = k;
    return 0;
}

int cli_parse_axes(const char *cmd, const char *arg, ls_holdout_axis *axes, size_t *n)
{
    char copy[64];
    snprintf(copy, sizeof copy, "%s", arg);
    size_t k = 0;
    if (arg[0] == '\0')
        return cli_usage_error(cmd, "--axes: no axis given");
    char *tok = copy;
    for (char *next = tok; next; tok = next) {
        next = strchr(tok, ',');
        if (next)
            *next++ = '\0';
        if (*tok == '\0')
            return cli_usage_error(cmd, "--axes: empty item in '%s'", arg);
        int a = ls_holdout_axis_from_name(tok);
        if (a < 0)
            return cli_usage_error(cmd, "--axes: '%s' is not one of R, N, D, E", tok);
        for (size_t j = 0; j < k; j++)
            if (axes[j] == (ls_holdout_axis)a)
                return cli_usage_error(cmd, "--axes: '%s' given twice", tok);
        axes[k++] = (ls_holdout_axis)a;
    }
    if (k == 0)
        return cli_usage_error(cmd, "--axes: no axis given");
    *n = k;
    return 0;
}

/* ---- the verdict on a fit ------------------------------------------------------------ */

int cli_fit_usable(const char *command, const ls_sweep *s, ls_law_kind kind, const ls_fit_parameters *p, const ls_fit_result *r,
                   const char *not_written)
{
    if (r->n <= r->nfree) {
        cli_error(command, "%s: %zu %s for %zu free %s %s no residual to judge the fit by or to "
                  "estimate its errors (add runs, or --fix some)", s->name, r->n, ls_plural((double)r->n, "run", "runs"),
                  r->nfree, ls_plural((double)r->nfree, "parameter", "parameters"),
                  ls_plural((double)r->n, "leaves", "leave"));
        return ls_exit_status(LS_ERR_DATA);
    }
    /* Runs enough in number that still cannot determine the law (all one
     * loss, one size, a loss flat along an axis) give an arbitrary law with
     * finite errors: refused with the reason, as an undetermined fit. */
    ls_error err;
    if (ls_fit_data_check(s, kind, p, &err) != 0) {
        cli_error(command, "%s; %s", err.message, not_written);
        return ls_exit_status(err.code);
    }
    /* One warning per reason: "delta, gamma are held at 0, 0: no run has E > 1". */
    char *lines = ls_fit_unidentified_warnings(r);
    for (char *line = lines, *end; line && (end = strchr(line, '\n')); line = end + 1)
        cli_warn(command, "%.*s", (int)(end - line), line);
    free(lines);
    return 0;
}

void cli_not_written(char *buf, size_t size, const char *what, const char *path)
{
    struct stat st;
    if (path && strcmp(path, "-") != 0 && stat(path, &st) == 0)
        snprintf(buf, size, "%s (%s keeps its old content)", what, path);
    else
        snprintf(buf, size, "%s", what);
}

int cli_fit_in_domain(const ls_fit_result *r, ls_error *err)
{
    ls_error scratch;
    return ls_law_check_params(&r->law, NULL, err ? err : &scratch) == 0;
}

int cli_fit_verdict(const char *command, const ls_sweep *s, const ls_fit_result *r, int determined,
                    const char *not_converged, const char *undetermined)
{
    if (!r->converged) {
        cli_error(command, "the best of %zu starts did not converge (after %zu iteration%s); %s", r->starts,
                  r->iterations, r->iterations == 1 ? "" : "s", not_converged);
        return ls_exit_status(LS_ERR_NOCONV);
    }
    if (!determined) {
        char reason[96];
        ls_fit_undetermined_reason(s, reason, sizeof reason);
        cli_error(command, "the sweep cannot tell the parameters apart%s: the Jacobian at the best fit is singular, "
                  "so its values are one of many equally good fits (--fix some, or add runs); %s", reason,
                  undetermined);
        return ls_exit_status(LS_ERR_NOCONV);
    }
    ls_error err;
    if (!cli_fit_in_domain(r, &err)) {
        cli_error(command, "the best fit is not a law of this form: %s; %s", err.message, undetermined);
        return ls_exit_status(LS_ERR_NOCONV);
    }
    return 0;
}

int cli_parse_flops_convention(const char *command, const char *arg, ls_law_flops_kind *kind)
{
    int k = ls_law_flops_from_name(arg);
    if (k < 0)
        return cli_usage_error(command, "--flops-convention: '%s' is not 6nd, 6nd+head, 6nd+attn or 6nd+attn+head",
                               arg);
    *kind = (ls_law_flops_kind)k;
    return 0;
}

int cli_check_flops(const char *command, const ls_arch_template *t)
{
    ls_law_flops c;
    ls_error err;
    ls_error_clear(&err);
    ls_arch_flops(t, &c);
    if (ls_law_flops_check(&c, &err) != 0)
        return cli_usage_error(command, "%s", err.message);
    return 0;
}

int cli_sweep_flops(const char *command, const char *template_path, int given, ls_law_flops_kind kind, ls_arch_template *t,
                    ls_law_flops *out)
{
    ls_error err;
    ls_arch_template_default(t);
    if (template_path && ls_arch_template_read(template_path, t, &err) != 0)
        return cli_fail(command, &err);
    if (given)
        t->flops_convention = kind;
    int status = cli_check_flops(command, t);
    ls_arch_flops(t, out);
    return status;
}

/* Whether any of the laws uses parameter j. */
static int any_law_uses(const ls_law_kind *kinds, size_t nkinds, ls_law_param j)
{
    for (size_t i = 0; i < nkinds; i++)
        if (ls_law_uses_param(kinds[i], j))
            return 1;
    return 0;
}

static int not_a_parameter(const char *cmd, const char *option, const char *text, const char *name,
                           const ls_law_kind *kinds, size_t nkinds)
{
    char kind_text[64];
    if (nkinds == 1)
        return cli_usage_error(cmd, "%s '%s': %s is not a parameter of %s", option, text, name,
                               ls_law_kind_format(kinds[0], kind_text, sizeof kind_text));
    return cli_usage_error(cmd, "%s '%s': %s is not a parameter of any law given", option, text, name);
}

/* Parse one --fix NAME=VALUE; given[] records the --fix already seen per
 * parameter, so that the same parameter fixed twice is refused rather than
 * taking the last value. */
int cli_parse_fix(const char *cmd, const char *text, const ls_law_kind *kinds, size_t nkinds, ls_fit_parameters *p,
                  const char *given[LS_LAW_NPARAMS])
{
    const char *eq = strchr(text, '=');
    char name[32];
    if (!eq || (size_t)(eq - text) >= sizeof name)
        return cli_usage_error(cmd, "--fix '%s': expected NAME=VALUE", text);
    if (eq == text)
        return cli_usage_error(cmd, "--fix '%s': no parameter name before '=' (expected NAME=VALUE, e.g. alpha=0.34)",
                               text);
    memcpy(name, text, (size_t)(eq - text));
    name[eq - text] = '\0';
    int j = ls_law_param_from_name(name);
    if (j < 0 || !any_law_uses(kinds, nkinds, (ls_law_param)j))
        return not_a_parameter(cmd, "--fix", text, name, kinds, nkinds);
    if (given[j])
        return cli_usage_error(cmd, "--fix %s given twice ('%s', then '%s'): a parameter takes one value", name,
                               given[j], text);
    given[j] = text;
    /* Parsed under the whole option's name, so the message says which
     * parameter the value was for. */
    char option[64];
    snprintf(option, sizeof option, "--fix %s", name);
    double value = 0;
    int status = cli_parse_double(cmd, option, eq + 1, &value);
    if (status != 0)
        return status;
    ls_error err;
    if (ls_law_param_check((ls_law_param)j, value, &err) != 0)
        return cli_usage_error(cmd, "--fix '%s': %s", text, err.message);
    p->fixed[j] = 1;
    p->fixed_value[j] = value;
    return 0;
}

/* Parse one --tie NAME=LEADER into p->tied, checked against the --fix
 * already parsed and the other ties (ls_fit_check_tie) under every law
 * that uses both. */
int cli_parse_tie(const char *cmd, const char *text, const ls_law_kind *kinds, size_t nkinds, ls_fit_parameters *p)
{
    const char *eq = strchr(text, '=');
    char name[32];
    if (!eq || (size_t)(eq - text) >= sizeof name || eq == text || eq[1] == '\0')
        return cli_usage_error(cmd, "--tie '%s': expected NAME=LEADER, two parameter names (e.g. beta=alpha)", text);
    memcpy(name, text, (size_t)(eq - text));
    name[eq - text] = '\0';
    int j = ls_law_param_from_name(name), i = ls_law_param_from_name(eq + 1);
    if (j < 0 || !any_law_uses(kinds, nkinds, (ls_law_param)j))
        return not_a_parameter(cmd, "--tie", text, name, kinds, nkinds);
    if (i < 0 || !any_law_uses(kinds, nkinds, (ls_law_param)i))
        return not_a_parameter(cmd, "--tie", text, eq + 1, kinds, nkinds);
    if (p->tied[j])
        return cli_usage_error(cmd, "--tie '%s': %s is already tied to %s", text, name,
                               ls_law_param_name((ls_law_param)(p->tied[j] - 1)));
    ls_error err;
    for (size_t k = 0; k < nkinds; k++)
        if (ls_law_uses_param(kinds[k], (ls_law_param)j) && ls_law_uses_param(kinds[k], (ls_law_param)i) &&
            ls_fit_check_tie(kinds[k], p, (ls_law_param)j, (ls_law_param)i, &err) != 0)
            return cli_usage_error(cmd, "--tie '%s': %s", text, err.message);
    p->tied[j] = (unsigned char)(i + 1);
    return 0;
}

int cli_print_json(const char *command, jsonw *w)
{
    ls_error err;
    char *text = ls_jsonw_finish(w, &err);
    if (!text)
        return cli_fail(command, &err);
    fputs(text, stdout);
    free(text);
    return 0;
}
