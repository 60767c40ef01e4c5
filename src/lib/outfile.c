#include "loopscale/outfile.h"

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
        char target[PATH_MAX];
        ssize_t n = readlink(cur, target, sizeof target - 1);
        if (n < 0) {
            int e = errno;
            free(cur);
            errno = e;
            return NULL;
        }
        target[n] = '\0';
        const char *slash = strrchr(cur, '/');
        size_t dirlen = target[0] == '/' || !slash ? 0 : (size_t)(slash - cur) + 1;
        char *next = malloc(dirlen + (size_t)n + 1);
        if (!next) {
            free(cur);
            errno = ENOMEM;
            return NULL;
        }
        memcpy(next, cur, dirlen);
        memcpy(next + dirlen, target, (size_t)n + 1);
        free(cur);
        cur = next;
    }
}

outfile *ls_outfile_open(const char *path, int gzip, ls_error *err)
{
    /* A symbolic link is written through, to the file it names (even one
     * yet to be made): the temporary file goes beside that file and is
     * renamed over it, so the link stays a link (renaming over the link
     * itself would replace /dev/stdout, or a link into another directory,
     * with a plain file). */
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
    struct stat st;
    if (strcmp(path, "-") == 0) {
        out->is_stdout = 1;
        fflush(stdout);
        fd = dup(STDOUT_FILENO);
    } else if (stat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
        if (S_ISDIR(st.st_mode)) {
            ls_error_set(err, LS_ERR_CANTCREAT, "%s: is a directory", path);
            outfile_release(out);
            return NULL;
        }
        fd = open(path, O_WRONLY);
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
            if (stat(path, &st) == 0)
                mode = st.st_mode & 07777;
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
    if (gzip)
        out->gz = gzdopen(fd, "wb6");
    else
        out->fp = fdopen(fd, "wb");
    if (!out->gz && !out->fp) {
        close(fd);
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

int ls_outfile_commit(outfile *out, ls_error *err)
{
    int status = out->failed ? LS_ERR_IO : 0;
    errno = 0;
    if (out->gz) {
        if (gzclose(out->gz) != Z_OK && status == 0)
            status = write_failed(out, err);
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
    if (out->tmp_path) {
        if (status == 0 && rename(out->tmp_path, out->path) != 0)
            status = ls_error_set(err, LS_ERR_IO, "%s: cannot replace: %s", out->path, strerror(errno));
        if (status != 0)
            unlink(out->tmp_path);
    }
    outfile_release(out);
    return status;
}

void ls_outfile_abort(outfile *out)
{
    if (!out)
        return;
    if (out->gz)
        gzclose(out->gz);
    if (out->fp)
        fclose(out->fp);
    if (out->tmp_path)
        unlink(out->tmp_path);
    outfile_release(out);
}
