/*
 * guard.c — no output may replace an input: every file a request reads and
 * writes checked before any work, and the outputs written all or none.
 *
 * Files are compared by identity — the device and inode of what exists
 * (fstat of the descriptor for "-"), the resolved directory and name of what
 * does not — so `x`, `./x`, `d/../x`, /dev/fd/N, symbolic and hard links are
 * one file.  The check refuses (LS_ERR_USAGE) an output that is an input,
 * two outputs that are one file, two outputs on standard output, one stream
 * read twice, an empty output name and one too long to take the temporary
 * suffix; an output in a missing or unwritable directory, or that is a
 * directory, fails up front with LS_ERR_CANTCREAT.  Standard output and
 * error, when the front end prints there, count too: a table printed onto
 * the sweep it was computed from would destroy it, and so would an error
 * message appended to it.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/vfs.h>
#endif

#include "command_internal.h"
#include "grow_internal.h"
#include "guard_internal.h"
#include "outfile_internal.h"

typedef struct guard_file {
    const char *option, *path;
    int output;
} guard_file;

/* What a path names: the device and inode of a file that exists (the
 * descriptor's for "-"), otherwise the resolved directory and last
 * component. */
typedef struct file_id {
    int exists, is_stdin;
    struct stat st;
    char *resolved; /* malloc'd, when !exists */
    int dir_errno;  /* why the directory could not be resolved */
} file_id;

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

static int same_inode(const file_id *a, const struct stat *st)
{
    return a->exists && a->st.st_dev == st->st_dev && a->st.st_ino == st->st_ino;
}

/* An output that goes to standard output: "-", or the regular file that
 * standard output was redirected to, under any name (/dev/stdout). */
static int on_stdout(const guard_file *f, const file_id *id, const struct stat *out_st)
{
    if (strcmp(f->path, "-") == 0)
        return 1;
    return out_st && same_inode(id, out_st);
}

static const char *shown(const guard_file *f)
{
    return strcmp(f->path, "-") == 0 ? "- (standard input)" : f->path;
}

/* target: where the output is written, f->path resolved through links. */
static int check_output_name(const guard_file *f, const char *target, const file_id *id, ls_error *err)
{
    if (strcmp(f->path, "-") == 0)
        return 0;
    if (id->exists && S_ISDIR(id->st.st_mode))
        return ls_error_set(err, LS_ERR_CANTCREAT, "%s: is a directory", f->path);
    if (id->exists && !S_ISREG(id->st.st_mode))
        return 0; /* written in place */
    /* Written through "NAME.tmp.XXXXXX" beside it (outfile_internal.h). */
    size_t suffix = sizeof ".tmp.XXXXXX" - 1;
    const char *slash = strrchr(target, '/');
    size_t base = strlen(slash ? slash + 1 : target);
    for (const char *c = target; *c;) { /* every directory on the way */
        size_t len = strcspn(c, "/");
        if (c[len] == '/' && len > NAME_MAX)
            return ls_error_set(err, LS_ERR_USAGE, "%s: '%.40s...' has a directory name of %zu bytes (at most %d)",
                                f->option, f->path, len, NAME_MAX);
        c += len + (c[len] == '/');
    }
    if (base + suffix > NAME_MAX)
        return ls_error_set(err, LS_ERR_USAGE, "%s: '%.40s...' has a file name of %zu bytes (at most %d with the "
                            "temporary suffix)", f->option, f->path, base, (int)(NAME_MAX - suffix));
    if (strlen(target) + suffix >= PATH_MAX)
        return ls_error_set(err, LS_ERR_USAGE, "%s: '%.40s...' is too long a path (%zu bytes; at most %d with the "
                            "temporary suffix)", f->option, f->path, strlen(target), (int)(PATH_MAX - 1 - suffix));
    if (!id->exists && !id->resolved) {
        if (strcmp(target, f->path) != 0)
            return ls_error_set(err, LS_ERR_CANTCREAT, "%s: cannot create %s, the file the link names: %s", f->path,
                                target, strerror(id->dir_errno));
        return ls_error_set(err, LS_ERR_CANTCREAT, "%s: cannot create: %s", f->path, strerror(id->dir_errno));
    }
    /* The temporary file is made in the destination's directory, and
     * renamed over a file the user may write (a read-only or immutable file
     * is not silently replaced). */
    char *dir = strdup(target);
    if (!dir)
        return res_oom(err);
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
    int status = 0;
#ifdef __linux__
    /* /proc and /sys take no new files, whatever access() says to root. */
    struct statfs fs;
    const long proc_magic = 0x9fa0, sysfs_magic = 0x62656572; /* linux/magic.h */
    if (!denied && statfs(d, &fs) == 0 && ((long)fs.f_type == proc_magic || (long)fs.f_type == sysfs_magic))
        status = ls_error_set(err, LS_ERR_CANTCREAT, "%s: cannot create a file in its directory: %s is a kernel file "
                              "system (%s)", f->path, d, (long)fs.f_type == proc_magic ? "proc" : "sysfs");
#endif
    if (status == 0 && read_only)
        status = ls_error_set(err, LS_ERR_CANTCREAT, "%s: cannot replace: read-only for everyone (chmod u+w it to "
                              "allow that)", f->path);
    else if (status == 0 && denied)
        status = ls_error_set(err, LS_ERR_CANTCREAT, "%s: %s: %s", f->path, what, strerror(saved));
    free(dir);
    return status;
}

/* The two files a and b (i after j in the list) may not be what they are. */
static int check_pair(const guard_file *a, const file_id *ia, const guard_file *b, const file_id *ib,
                      const struct stat *out_st, const struct stat *in_st, ls_result *res, ls_error *err)
{
    if (a->output && b->output) {
        if (on_stdout(a, ia, out_st) && on_stdout(b, ib, out_st)) {
            int ap = strchr(a->option, ' ') != NULL, bp = strchr(b->option, ' ') != NULL; /* a phrase */
            return ls_error_set(err, LS_ERR_USAGE, "%s%s%s and %s%s%s both write to standard output", b->option,
                                bp ? "" : " ", bp ? "" : b->path, a->option, ap ? "" : " ", ap ? "" : a->path);
        }
        if (same_file(ia, ib))
            return ls_error_set(err, LS_ERR_USAGE, "%s %s and %s %s name the same file", b->option, b->path, a->option,
                                a->path);
        return 0;
    }
    if (a->output || b->output) {
        const guard_file *in = a->output ? b : a, *out = a->output ? a : b;
        /* A FIFO is written in place, not replaced, but writing the stream
         * the command reads would wait on itself. */
        int same_fifo = ia->exists && ib->exists && S_ISFIFO(ia->st.st_mode) && same_inode(ia, &ib->st);
        if (same_file(ia, ib))
            return ls_error_set(err, LS_ERR_USAGE, "%s %s would replace the input %s %s", out->option, out->path,
                                in->option, shown(in));
        if (same_fifo)
            return ls_error_set(err, LS_ERR_USAGE, "%s %s writes into the FIFO read as the input %s %s", out->option,
                                out->path, in->option, shown(in));
        return 0;
    }
    if (strcmp(a->option, b->option) == 0) {
        /* One option naming one stream twice, a pipe as much as a file (-
         * and /dev/stdin): the second read would find it empty, and a file
         * read twice would count each run twice. */
        int same_stream = ia->exists && ib->exists && same_inode(ia, &ib->st);
        if (ia->is_stdin && ib->is_stdin)
            return ls_error_set(err, LS_ERR_USAGE, "%s: standard input (-) is named twice", a->option);
        if (same_stream || same_file(ia, ib))
            return ls_error_set(err, LS_ERR_USAGE, "%s: %s and %s are the same file; each run would count twice",
                                a->option, shown(b), shown(a));
        return 0;
    }
    /* Two roles: a regular file may be read for both (it is opened twice,
     * each read from its start), but standard input, or any one stream, is
     * consumed by the first read and would leave the second one empty. */
    int ai = ia->is_stdin || (in_st && same_inode(ia, in_st));
    int bi = ib->is_stdin || (in_st && same_inode(ib, in_st));
    int same_stream = ia->exists && ib->exists && !S_ISREG(ia->st.st_mode) && !S_ISCHR(ia->st.st_mode) &&
                      same_inode(ia, &ib->st);
    if (ai && bi)
        return ls_error_set(err, LS_ERR_USAGE, "standard input is named twice (%s and %s)", b->option, a->option);
    if (same_stream)
        return ls_error_set(err, LS_ERR_USAGE, "%s %s and %s %s are one stream, which can be read once", b->option,
                            b->path, a->option, a->path);
    if (same_file(ia, ib))
        res_warn(res, LS_WARNING_DATA, a->path, "%s and %s are the same file, %s", b->option, a->option, shown(a));
    return 0;
}

static int check_files(const guard_file *files, size_t n, const ls_request *req, ls_result *res, ls_error *err)
{
    file_id *ids = calloc(n + 1, sizeof *ids);
    char **targets = calloc(n + 1, sizeof *targets);
    if (!ids || !targets) {
        free(ids);
        free(targets);
        return res_oom(err);
    }
    int status = 0;
    for (size_t i = 0; i < n; i++) {
        const char *path = files[i].path;
        if (files[i].output && status == 0) {
            errno = 0;
            targets[i] = ls_outfile_resolve(path);
            if (!targets[i]) {
                if (errno == ELOOP)
                    status = ls_error_set(err, LS_ERR_CANTCREAT, "%s: cannot create: a symbolic link that loops", path);
                else
                    status = ls_error_set(err, errno == ENOMEM ? LS_ERR_INTERNAL : LS_ERR_CANTCREAT,
                                          "%s: cannot create: %s", path, strerror(errno));
            }
        }
        file_id_get(targets[i] ? targets[i] : path, files[i].output, &ids[i]);
    }
    struct stat in_st, err_st, out_st;
    int stdin_ok = fstat(STDIN_FILENO, &in_st) == 0;
    int stderr_regular = req->stderr_fd >= 0 && fstat(req->stderr_fd, &err_st) == 0 && S_ISREG(err_st.st_mode);
    int stdout_regular = req->stdout_fd >= 0 && fstat(req->stdout_fd, &out_st) == 0 && S_ISREG(out_st.st_mode);
    for (size_t i = 0; status == 0 && i < n; i++) {
        const guard_file *a = &files[i];
        if (a->output)
            status = check_output_name(a, targets[i] ? targets[i] : a->path, &ids[i], err);
        else if (stderr_regular && same_inode(&ids[i], &err_st)) {
            /* Nothing may be written to standard error, not even this
             * message: the front end is told to stay silent. */
            res->stderr_blocked = 1;
            status = ls_error_set(err, LS_ERR_USAGE, "standard error is the input %s %s", a->option, shown(a));
        } else if (stdout_regular && same_inode(&ids[i], &out_st))
            status = ls_error_set(err, LS_ERR_USAGE, "standard output is the input %s %s%s", a->option, shown(a),
                                  ids[i].st.st_size == 0 ? " (already emptied by the shell: > truncates the file "
                                                           "before the command starts; >> would not)"
                                                         : "");
        for (size_t j = 0; status == 0 && j < i; j++)
            status = check_pair(a, &ids[i], &files[j], &ids[j], stdout_regular ? &out_st : NULL,
                                stdin_ok ? &in_st : NULL, res, err);
    }
    for (size_t i = 0; i < n; i++) {
        free(ids[i].resolved);
        free(targets[i]);
    }
    free(ids);
    free(targets);
    return status;
}

int guard_check_output(const char *what, const char *path, const char *const *inputs, const char *const *roles,
                       size_t n, ls_error *err)
{
    guard_file out = {what, path, 1};
    errno = 0;
    char *target = ls_outfile_resolve(path);
    if (!target) {
        if (errno == ELOOP)
            return ls_error_set(err, LS_ERR_CANTCREAT, "%s: cannot create: a symbolic link that loops", path);
        return ls_error_set(err, errno == ENOMEM ? LS_ERR_INTERNAL : LS_ERR_CANTCREAT, "%s: cannot create: %s", path,
                            strerror(errno));
    }
    file_id oid;
    file_id_get(target, 1, &oid);
    int status = check_output_name(&out, target, &oid, err);
    for (size_t i = 0; status == 0 && i < n; i++) {
        if (strcmp(inputs[i], "-") == 0)
            continue;
        file_id iid;
        file_id_get(inputs[i], 0, &iid);
        if (same_file(&oid, &iid))
            status = ls_error_set(err, LS_ERR_USAGE, "%s would replace the input %s (%s)", path, inputs[i], roles[i]);
        free(iid.resolved);
    }
    free(oid.resolved);
    free(target);
    return status;
}

/* Every file of the request; the outputs are the options' own, or, when
 * out_paths is given, those instead (fit --by's files, one per group). */
static int check_request(const ls_request *req, ls_result *res, const opt_id *out_options,
                         const char *const *out_paths, size_t nout, ls_error *err)
{
    const cmd_def *def = req->def;
    guard_file *files = NULL;
    size_t n = 0, cap = 0;
    int status = 0;
#define ADD(opt, p, out)                                                                                             \
    do {                                                                                                             \
        if (ls_grow((void **)&files, &cap, n + 1, sizeof *files) != 0) {                                            \
            free(files);                                                                                             \
            free(labels);                                                                                            \
            return res_oom(err);                                                                                     \
        }                                                                                                            \
        files[n++] = (guard_file){(opt), (p), (out)};                                                                \
    } while (0)
    char(*labels)[32] = calloc(req->noperands + 1, sizeof *labels);
    if (!labels)
        return res_oom(err);
    /* The inputs, options first ("standard input is named twice (--law and
     * SWEEP)"), each operand named by its role ("SWEEP", "ENTROPY.npy"). */
    for (const cmd_option *c = def->options; c->id != O_NOPTIONS; c++)
        if (OPTION_TABLE[c->id].type == LS_OPTION_INPUT && req_given(req, c->id))
            ADD(req_flag(req, c->id), req->v[c->id].text, 0);
    for (size_t i = 0; i < req->noperands; i++) {
        cmd_operand_label(def, i, req->noperands, labels[i], sizeof labels[i]);
        ADD(labels[i], req->operands[i], 0);
    }
    if (req->stdout_fd >= 0 && def->stdout_label)
        ADD(def->formats && req_format(req) == FMT_JSON ? "the JSON document" : def->stdout_label, "-", 1);
    if (out_paths)
        for (size_t i = 0; i < nout; i++)
            ADD(req_flag(req, out_options[i]), out_paths[i], 1);
    else
        for (const cmd_option *c = def->options; c->id != O_NOPTIONS; c++)
            if (OPTION_TABLE[c->id].type == LS_OPTION_OUTPUT && req_given(req, c->id))
                ADD(req_flag(req, c->id), req->v[c->id].text, 1);
#undef ADD
    status = check_files(files, n, req, res, err);
    free(files);
    free(labels);
    return status;
}

int guard_check(const ls_request *req, ls_result *res, ls_error *err)
{
    return check_request(req, res, NULL, NULL, 0, err);
}

int guard_check_outputs(const ls_request *req, ls_result *res, const opt_id *options, const char *const *paths,
                        size_t n, ls_error *err)
{
    return check_request(req, res, options, paths, n, err);
}

int guard_commit(pending_output *outputs, size_t n, ls_error *err)
{
    if (n == 0)
        return 0;
    if (n > LS_OUTFILE_MAX_OPEN)
        return ls_error_set(err, LS_ERR_INTERNAL, "too many output files (%zu; at most %d)", n, LS_OUTFILE_MAX_OPEN);
    outfile *out[LS_OUTFILE_MAX_OPEN] = {0};
    int status = 0;
    for (size_t i = 0; status == 0 && i < n; i++) {
        if (!(out[i] = ls_outfile_open(outputs[i].path, ls_outfile_wants_gzip(outputs[i].path), err)))
            status = err->code;
        else if (ls_outfile_write(out[i], outputs[i].data, outputs[i].len, err) == 0)
            status = ls_outfile_flush(out[i], err);
        else
            status = err->code;
    }
    /* Every file is written and synced; only the renames remain, all or
     * none of them. */
    if (status == 0)
        status = ls_outfile_commit_all(out, n, err);
    for (size_t i = 0; i < n; i++)
        if (out[i])
            ls_outfile_abort(out[i]);
    return status;
}

void ls_remove_temporaries(void)
{
    ls_outfile_remove_temporaries();
}
