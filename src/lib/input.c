#include "input_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int ls_input_open(const char *path, ls_input *in, ls_error *err)
{
    in->fd = -1;
    in->name = NULL;
    in->head_len = 0;
    int from_stdin = strcmp(path, "-") == 0;
    const char *name = from_stdin ? "<stdin>" : path;
    int fd = from_stdin ? dup(STDIN_FILENO) : open(path, O_RDONLY);
    if (fd < 0)
        return ls_error_set(err, LS_ERR_NOINPUT, "%s: cannot open: %s", name, strerror(errno));
    struct stat st;
    if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
        close(fd);
        return ls_error_set(err, LS_ERR_NOINPUT, "%s: is a directory", name);
    }
    in->fd = fd;
    if (!(in->name = strdup(name))) {
        ls_input_close(in);
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    }
    /* A pipe hands out what has been written so far: read until the head
     * is full or the input ends. */
    while (in->head_len < LS_INPUT_HEAD) {
        ssize_t n = read(fd, in->head + in->head_len, LS_INPUT_HEAD - in->head_len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0) {
            int status = ls_error_set(err, LS_ERR_IO, "%s: read error: %s", name, strerror(errno));
            ls_input_close(in);
            return status;
        }
        if (n == 0)
            break;
        in->head_len += (size_t)n;
    }
    return 0;
}

void ls_input_close(ls_input *in)
{
    if (in->fd >= 0)
        close(in->fd);
    in->fd = -1;
    free(in->name);
    in->name = NULL;
}

int ls_input_is_npy(const ls_input *in) { return in->head_len >= 6 && memcmp(in->head, "\x93NUMPY", 6) == 0; }

int ls_input_is_gzip(const ls_input *in) { return in->head_len >= 2 && in->head[0] == 0x1f && in->head[1] == 0x8b; }

const char *ls_compression_not_read(const unsigned char *head, size_t n)
{
    static const struct {
        const char *name;
        unsigned char magic[6];
        size_t len;
    } formats[] = {
        {"xz", {0xfd, '7', 'z', 'X', 'Z', 0x00}, 6},
        {"bzip2", {'B', 'Z', 'h'}, 3},
        {"zstd", {0x28, 0xb5, 0x2f, 0xfd}, 4},
        {"zip", {'P', 'K', 0x03, 0x04}, 4},
        {"lz4", {0x04, 0x22, 0x4d, 0x18}, 4},
    };
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
        if (n >= formats[i].len && memcmp(head, formats[i].magic, formats[i].len) == 0)
            return formats[i].name;
    return NULL;
}
