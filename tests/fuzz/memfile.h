/*
 * memfile.h — the fuzzers' input as a file, for readers that take a path:
 * a memfd holding the bytes, named by /proc/self/fd/N.  One memfd is made
 * per process and rewritten for each input, so no file is left behind.
 */
#ifndef LOOPSCALE_FUZZ_MEMFILE_H
#define LOOPSCALE_FUZZ_MEMFILE_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

static int memfile_fd = -1;
static char memfile_path[64];

/* Put data[0..size) in the memfd and return its path. */
static const char *memfile_set(const uint8_t *data, size_t size)
{
    if (memfile_fd < 0) {
        memfile_fd = memfd_create("loopscale-fuzz", 0);
        if (memfile_fd < 0) {
            perror("memfd_create");
            abort();
        }
        snprintf(memfile_path, sizeof memfile_path, "/proc/self/fd/%d", memfile_fd);
    }
    if (ftruncate(memfile_fd, 0) != 0 || pwrite(memfile_fd, data, size, 0) != (ssize_t)size) {
        perror("memfile");
        abort();
    }
    return memfile_path;
}

#endif
