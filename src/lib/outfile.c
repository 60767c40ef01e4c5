#include "outfile_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

struct outfile {
    char *path;     /* destination */
    char *tmp_path; /* NULL when writing in place */
    FILE *fp;       /* plain output */
    gzFile gz;      /* gzip output */
    int gz_fd;      /* gzip output: our own descriptor of the file, to sync it after gzclose; else -1 */
    int is_stdout;
    int slot;       /* index in live[] of tmp_path, or -1 */
    int failed;     /* a write already failed: commit must not rename */
    int saved_errno;
};

/* The temporary files of open outputs, for a signal handler: fixed storage
 * (no malloc), each slot's path written before it is marked in use and
 * unmarked only after the file was renamed or unlinked.  A handler that runs
 * between the rename and the unmarking unlinks a name that no longer exists,
 * which does nothing. */
static struct {
    volatile sig_atomic_t used;
    char path[PATH_MAX];
} live[LS_OUTFILE_MAX_OPEN];

static int live_free_slot(void)
{
    for (int i = 0; i < LS_OUTFILE_MAX_OPEN; i++)
        if (!live[i].used)
            return i;
    return -1;
}

/* mkstemp() with the file registered in live[] before any signal can come
 * (all blocked meanwhile in this thread, the one that writes outputs). */
static int make_temporary(outfile *out, size_t n, ls_error *err)
{
    if (n > PATH_MAX) {
        errno = ENAMETOOLONG;
        return -1;
    }
    sigset_t block, old;
    sigfillset(&block); /* whichever signals the program handles */
    pthread_sigmask(SIG_BLOCK, &block, &old);
    int slot = live_free_slot(), fd = -1;
    if (slot < 0)
        ls_error_set(err, LS_ERR_INTERNAL, "%s: more than %d output files open at once", out->path,
                     LS_OUTFILE_MAX_OPEN);
    else if ((fd = mkstemp(out->tmp_path)) >= 0) {
        memcpy(live[slot].path, out->tmp_path, n);
        live[slot].used = 1;
        out->slot = slot;
    }
    int saved = errno;
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    errno = saved;
    return slot < 0 ? -2 : fd;
}

void ls_outfile_remove_temporaries(void)
{
    for (int i = 0; i < LS_OUTFILE_MAX_OPEN; i++)
        if (live[i].used)
            unlink(live[i].path); /* async-signal-safe */
}

int ls_outfile_wants_gzip(const char *path)
{
    size_t n = strlen(path);
    return n > 3 && strcasecmp(path + n - 3, ".gz") == 0;
}

static void outfile_release(outfile *out)
{
    if (out->slot >= 0)
        live[out->slot].used = 0;
    free(out->path);
    free(out->tmp_path);
    free(out);
}

/* One hop along a symbolic link: the path link's target names, relative
 * targets taken from link's directory, into next[PATH_MAX]. */
static int follow_link(const char *link, char *next)
{
    char target[PATH_MAX];
    ssize_t n = readlink(link, target, sizeof target - 1);
    if (n < 0)
        return -1;
    target[n] = '\0';
    const char *slash = strrchr(link, '/');
    size_t dirlen = target[0] == '/' || !slash ? 0 : (size_t)(slash - link) + 1;
    if (dirlen + (size_t)n >= PATH_MAX) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memmove(next, link, dirlen);
    memcpy(next + dirlen, target, (size_t)n + 1);
    return 0;
}

char *ls_outfile_resolve(const char *path)
{
    /* A file that exists: a device, FIFO or socket is written in place
     * under its own name (/dev/stdout on a pipe); a regular file through
     * realpath(), which also knows /proc's links (/dev/stdout on a file). */
    struct stat st, own;
    if (strcmp(path, "-") != 0 && stat(path, &st) == 0) {
        int link = lstat(path, &own) == 0 && S_ISLNK(own.st_mode);
        char *real = link && S_ISREG(st.st_mode) ? realpath(path, NULL) : NULL;
        return real ? real : strdup(path);
    }
    /* Otherwise follow the links by hand: the last one names a file yet to
     * be made. */
    char *cur = strdup(path);
    if (!cur || strcmp(path, "-") == 0)
        return cur;
    for (int hops = 0;; hops++) {
        struct stat lst;
        if (lstat(cur, &lst) != 0 || !S_ISLNK(lst.st_mode))
            return cur; /* the file, or the name a new file gets */
        if (hops == 40) { /* as the kernel's limit on links in a path */
            free(cur);
            errno = ELOOP;
            return NULL;
        }
        char next[PATH_MAX];
        if (follow_link(cur, next) != 0) {
            int e = errno;
            free(cur);
            errno = e;
            return NULL;
        }
        free(cur);
        cur = strdup(next);
        if (!cur)
            return NULL;
    }
}

/* The descriptor a name stands for: /dev/stdout, /dev/stderr, /dev/fd/N,
 * /proc/self/fd/N or /proc/PID/fd/N of this process, directly or through
 * links; -1 for any other name. */
static int named_descriptor(const char *path)
{
    char cur[PATH_MAX];
    if (snprintf(cur, sizeof cur, "%s", path) >= (int)sizeof cur)
        return -1;
    for (int hops = 0; hops < 40; hops++) {
        int fd = -1, pid = -1, used = 0;
        if (strcmp(cur, "/dev/stdout") == 0)
            return STDOUT_FILENO;
        if (strcmp(cur, "/dev/stderr") == 0)
            return STDERR_FILENO;
        if ((sscanf(cur, "/dev/fd/%d%n", &fd, &used) == 1 || sscanf(cur, "/proc/self/fd/%d%n", &fd, &used) == 1) &&
            cur[used] == '\0')
            return fd;
        if (sscanf(cur, "/proc/%d/fd/%d%n", &pid, &fd, &used) == 2 && cur[used] == '\0' && pid == (int)getpid())
            return fd;
        char next[PATH_MAX];
        if (follow_link(cur, next) != 0)
            return -1;
        memcpy(cur, next, strlen(next) + 1);
    }
    return -1;
}

/* fd, when it is open for writing on the regular file st describes; else -1. */
static int writable_descriptor_of(int fd, const struct stat *st)
{
    struct stat fs;
    int flags = fd >= 0 ? fcntl(fd, F_GETFL) : -1;
    if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY || fstat(fd, &fs) != 0)
        return -1;
    return fs.st_dev == st->st_dev && fs.st_ino == st->st_ino ? fd : -1;
}

outfile *ls_outfile_open(const char *path, int gzip, ls_error *err)
{
    /* A symbolic link is written through, to the file it names (even one
     * yet to be made): the temporary file goes beside that file and is
     * renamed over it, so the link stays a link (renaming over the link
     * itself would replace /dev/stdout, or a link into another directory,
     * with a plain file). */
    const char *original = path;
    outfile *out = calloc(1, sizeof *out);
    errno = 0;
    if (out)
        out->path = ls_outfile_resolve(path);
    if (!out || !out->path) {
        int e = out && errno != ENOMEM ? errno : 0;
        free(out);
        if (e)
            ls_error_set(err, LS_ERR_CANTCREAT, "%s: cannot create: %s", path, strerror(e));
        else
            ls_error_set(err, LS_ERR_INTERNAL, "%s: out of memory", path);
        return NULL;
    }
    path = out->path;
    out->slot = -1;
    int fd = -1;
    struct stat st, own;
    int exists = stat(path, &st) == 0;
    /* A descriptor named as the output (-o /dev/fd/7 7>> log, a link to
     * /proc/self/fd/N), or standard output's file by any name (-o
     * /dev/stdout >> log, -o log > log): written through that descriptor,
     * so that an append appends and nothing replaces the file the shell
     * opened. */
    int through_fd = -1;
    if (exists && S_ISREG(st.st_mode)) {
        through_fd = writable_descriptor_of(named_descriptor(original), &st);
        if (through_fd < 0)
            through_fd = writable_descriptor_of(STDOUT_FILENO, &st);
    }
    int is_stdout_file = through_fd == STDOUT_FILENO;
    /* A link ls_outfile_resolve could not resolve (/dev/stdout to a deleted
     * file) is written through, never renamed over: that would replace the
     * link itself. */
    int unresolved_link = exists && lstat(path, &own) == 0 && S_ISLNK(own.st_mode);
    if (strcmp(path, "-") == 0 || is_stdout_file) {
        out->is_stdout = 1;
        fflush(stdout);
        fd = dup(STDOUT_FILENO);
    } else if (through_fd >= 0) {
        fd = dup(through_fd);
    } else if (exists && (!S_ISREG(st.st_mode) || unresolved_link)) {
        if (S_ISDIR(st.st_mode)) {
            ls_error_set(err, LS_ERR_CANTCREAT, "%s: is a directory", path);
            outfile_release(out);
            return NULL;
        }
        fd = open(path, S_ISREG(st.st_mode) ? O_WRONLY | O_TRUNC : O_WRONLY);
    } else {
        size_t n = strlen(path) + sizeof ".tmp.XXXXXX";
        out->tmp_path = malloc(n);
        if (out->tmp_path) {
            snprintf(out->tmp_path, n, "%s.tmp.XXXXXX", path);
            if ((fd = make_temporary(out, n, err)) == -2) {
                outfile_release(out);
                return NULL;
            }
        }
        if (fd >= 0) {
            /* mkstemp makes the file 0600; give it the mode a plain create
             * would have, or the mode of the file it replaces. */
            mode_t mode = 0666;
            if (stat(path, &st) == 0) {
                mode = st.st_mode & 07777;
                /* Keep the replaced file's owner where we may (as root);
                 * elsewhere the file is the writer's, as any editor's. */
                if (fchown(fd, st.st_uid, st.st_gid) != 0)
                    (void)fchown(fd, (uid_t)-1, st.st_gid);
            }
            else {
                mode_t mask = umask(0);
                umask(mask);
                mode &= ~mask;
            }
            (void)fchmod(fd, mode); /* not fatal: the data is what matters */
        }
    }
    if (fd < 0) {
        if (out->is_stdout) /* closed: a write error, as cli_finish would say */
            ls_error_set(err, LS_ERR_IO, "<stdout>: write error: %s", strerror(errno));
        else
            ls_error_set(err, LS_ERR_CANTCREAT, "%s: cannot create%s: %s", path,
                         out->tmp_path ? " a temporary file beside it" : "", strerror(errno));
        outfile_release(out);
        return NULL;
    }
    out->gz_fd = -1;
    if (gzip) {
        /* gzclose closes the descriptor it was given: sync through a copy. */
        out->gz_fd = out->tmp_path ? dup(fd) : -1;
        out->gz = gzdopen(fd, "wb6");
    } else
        out->fp = fdopen(fd, "wb");
    if (!out->gz && !out->fp) {
        close(fd);
        if (out->gz_fd >= 0)
            close(out->gz_fd);
        if (out->tmp_path)
            unlink(out->tmp_path);
        ls_error_set(err, LS_ERR_INTERNAL, "%s: out of memory", path);
        outfile_release(out);
        return NULL;
    }
    return out;
}

static int write_failed(outfile *out, ls_error *err)
{
    out->failed = 1;
    int e = errno ? errno : EIO;
    return ls_error_set(err, LS_ERR_IO, "%s: write error: %s", out->is_stdout ? "<stdout>" : out->path,
                        strerror(e));
}

int ls_outfile_write(outfile *out, const void *data, size_t len, ls_error *err)
{
    if (len == 0)
        return 0;
    errno = 0;
    if (out->gz) {
        /* gzwrite takes an unsigned length; write in pieces. */
        const char *p = data;
        while (len > 0) {
            unsigned piece = len > (1u << 30) ? (1u << 30) : (unsigned)len;
            if (gzwrite(out->gz, p, piece) != (int)piece)
                return write_failed(out, err);
            p += piece;
            len -= piece;
        }
        return 0;
    }
    if (fwrite(data, 1, len, out->fp) != len)
        return write_failed(out, err);
    return 0;
}

int ls_outfile_printf(outfile *out, ls_error *err, const char *fmt, ...)
{
    char small[512];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0)
        return ls_error_set(err, LS_ERR_INTERNAL, "formatting failed");
    if ((size_t)n < sizeof small)
        return ls_outfile_write(out, small, (size_t)n, err);
    char *big = malloc((size_t)n + 1);
    if (!big)
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    va_start(ap, fmt);
    vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    int status = ls_outfile_write(out, big, (size_t)n, err);
    free(big);
    return status;
}

int ls_outfile_flush(outfile *out, ls_error *err)
{
    if (out->failed)
        return LS_ERR_IO;
    if (out->gz)
        return 0;
    errno = 0;
    int bad = fflush(out->fp) != 0 || ferror(out->fp);
    if (!bad && !out->is_stdout && out->tmp_path && fsync(fileno(out->fp)) != 0 && errno != EINVAL)
        bad = 1;
    return bad ? write_failed(out, err) : 0;
}

/* Flush, sync and close the file, leaving the rename to the caller. */
static int close_for_rename(outfile *out, ls_error *err)
{
    int status = out->failed ? LS_ERR_IO : 0;
    errno = 0;
    if (out->gz) {
        if (gzclose(out->gz) != Z_OK && status == 0)
            status = write_failed(out, err);
        if (out->gz_fd >= 0) {
            if (status == 0 && fsync(out->gz_fd) != 0 && errno != EINVAL)
                status = write_failed(out, err);
            close(out->gz_fd);
            out->gz_fd = -1;
        }
    } else {
        int bad = fflush(out->fp) != 0 || ferror(out->fp);
        if (!bad && !out->is_stdout && out->tmp_path && fsync(fileno(out->fp)) != 0 && errno != EINVAL)
            bad = 1;
        if (fclose(out->fp) != 0)
            bad = 1;
        if (bad && status == 0)
            status = write_failed(out, err);
    }
    out->gz = NULL;
    out->fp = NULL;
    return status;
}

static int replace_destination(outfile *out, ls_error *err)
{
    if (out->tmp_path && rename(out->tmp_path, out->path) != 0)
        return ls_error_set(err, LS_ERR_IO, "%s: cannot replace: %s", out->path, strerror(errno));
    return 0;
}

/* Free the handle, removing its temporary file if it was not renamed. */
static void finish(outfile *out, int renamed)
{
    if (out->tmp_path && !renamed)
        unlink(out->tmp_path);
    outfile_release(out);
}

int ls_outfile_commit(outfile *out, ls_error *err)
{
    int status = close_for_rename(out, err);
    if (status == 0)
        status = replace_destination(out, err);
    finish(out, status == 0);
    return status;
}

int ls_outfile_commit_all(outfile **outs, size_t n, ls_error *err)
{
    ls_error ignored;
    int status = 0;
    for (size_t i = 0; i < n; i++)
        if (outs[i]) {
            int s = close_for_rename(outs[i], status == 0 ? err : &ignored);
            status = status == 0 ? s : status;
        }
    /* A signal between two renames would leave some destinations replaced
     * and others not, or a kept link behind: hold signals from the first
     * link until every rename, undoing and unlinking is done (a signal then
     * finds the outputs all old or all new, and nothing left over). */
    sigset_t block, old;
    sigfillset(&block);
    pthread_sigmask(SIG_BLOCK, &block, &old);
    /* Each destination that exists is kept under a second name (a hard
     * link: no copy) until every rename has succeeded, so that a rename
     * that fails can put the earlier destinations back.  Where the file
     * system has no hard links, that file cannot be put back. */
    char **kept = calloc(n ? n : 1, sizeof *kept);
    int *existed = calloc(n ? n : 1, sizeof *existed);
    if (status == 0 && (!kept || !existed))
        status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    for (size_t i = 0; status == 0 && i < n; i++) {
        struct stat st;
        if (!outs[i] || !outs[i]->tmp_path || lstat(outs[i]->path, &st) != 0)
            continue;
        existed[i] = 1;
        size_t size = strlen(outs[i]->tmp_path) + sizeof ".old";
        kept[i] = malloc(size);
        if (!kept[i]) {
            status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
            break;
        }
        snprintf(kept[i], size, "%s.old", outs[i]->tmp_path);
        if (link(outs[i]->path, kept[i]) != 0) {
            free(kept[i]);
            kept[i] = NULL;
        }
    }
    size_t renamed = 0;
    for (; status == 0 && renamed < n; renamed++)
        if (outs[renamed] && replace_destination(outs[renamed], err) != 0) {
            status = err->code;
            break;
        }
    if (status != 0)
        for (size_t j = 0; j < renamed; j++) {
            if (!outs[j] || !outs[j]->tmp_path)
                continue;
            if (kept[j] && rename(kept[j], outs[j]->path) == 0) {
                free(kept[j]);
                kept[j] = NULL;
            } else if (!existed[j]) {
                unlink(outs[j]->path);
            }
        }
    for (size_t i = 0; i < n; i++) {
        if (kept && kept[i]) {
            unlink(kept[i]);
            free(kept[i]);
        }
        if (outs[i])
            finish(outs[i], status == 0 || i < renamed);
        outs[i] = NULL;
    }
    free(kept);
    free(existed);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    return status;
}

void ls_outfile_abort(outfile *out)
{
    if (!out)
        return;
    if (out->gz)
        gzclose(out->gz);
    if (out->gz_fd >= 0)
        close(out->gz_fd);
    if (out->fp)
        fclose(out->fp);
    finish(out, 0);
}
