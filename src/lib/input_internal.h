/*
 * input_internal.h — open an input once and look at its first bytes.
 *
 * Readers that must tell formats apart (a .npy array or CSV, gzip or plain)
 * look at the stream's own first bytes, read once and handed on to the
 * reader chosen, never by opening the path a second time: a FIFO, a process
 * substitution (<(...)) or standard input cannot be read twice, and
 * re-opening a FIFO waits for a writer that has already gone.
 */
#ifndef LOOPSCALE_INPUT_INTERNAL_H
#define LOOPSCALE_INPUT_INTERNAL_H

#include <stddef.h>

#include "loopscale/error.h"

#define LS_INPUT_HEAD 16

typedef struct ls_input {
    int fd;        /* owned until handed to a reader; -1 once closed */
    char *name;    /* the path, or "<stdin>" for "-"; malloc'd */
    unsigned char head[LS_INPUT_HEAD];
    size_t head_len; /* fewer than LS_INPUT_HEAD only when the input is that short */
} ls_input;

/* Open path ("-": a duplicate of standard input) and read its first bytes.
 * Errors: LS_ERR_NOINPUT (missing, unreadable, a directory), LS_ERR_IO. */
int ls_input_open(const char *path, ls_input *in, ls_error *err) LS_MUST_CHECK;

/* Close what is still owned (fd, name); safe after a reader took them. */
void ls_input_close(ls_input *in);

/* The head starts with the .npy magic string, or with gzip's. */
int ls_input_is_npy(const ls_input *in);
int ls_input_is_gzip(const ls_input *in);
/* The name of a compression loopscale does not read ("xz", "bzip2", "zstd",
 * "zip", "lz4") when the n bytes at head start with its magic, else NULL:
 * such a file would otherwise be refused as binary or as bad text. */
const char *ls_compression_not_read(const unsigned char *head, size_t n);

#endif
