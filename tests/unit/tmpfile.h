/* Test helper: write bytes to a fresh temporary file and return its path. */
#ifndef LOOPSCALE_TEST_TMPFILE_H
#define LOOPSCALE_TEST_TMPFILE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>

/* Returns a static path that stays valid until the next call. */
static inline const char *write_temp(const void *data, size_t len, int gzip)
{
    static char path[64];
    snprintf(path, sizeof path, "/tmp/loopscale-test-XXXXXX");
    int fd = mkstemp(path);
    if (fd < 0)
        return NULL;
    if (gzip) {
        gzFile gz = gzdopen(fd, "wb");
        gzwrite(gz, data, (unsigned)len);
        gzclose(gz);
    } else {
        if (write(fd, data, len) != (ssize_t)len) {
            close(fd);
            return NULL;
        }
        close(fd);
    }
    return path;
}

static inline const char *write_temp_text(const char *text, int gzip) { return write_temp(text, strlen(text), gzip); }

#endif
