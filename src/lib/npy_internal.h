/*
 * npy_internal.h — streaming reader for NumPy .npy arrays of floats.
 *
 * `route` and `exit` read arrays of half a gigabyte and more, so the data is
 * never loaded whole: ls_npy_open() reads and checks the header, and
 * ls_npy_read() hands out the next elements, converted to double, through one
 * fixed buffer.  The header is parsed as the format defines it (the magic
 * string, versions 1.0, 2.0 and 3.0, a dict with exactly 'descr',
 * 'fortran_order' and 'shape'), not guessed at: big-endian data, Fortran
 * order, dtypes other than little-endian float16, float32 and float64, and a
 * file whose size does not match its shape are all LS_ERR_DATA errors that
 * name the file.  Values are decoded byte by byte, so the reader does not
 * depend on the host's byte order; float16 is widened by hand, subnormals,
 * infinities and NaN included.  Non-finite values are passed through: what
 * they mean is the caller's business.
 *
 * ls_npy_open() returns a reader the caller frees with ls_npy_close().
 */
#ifndef LOOPSCALE_NPY_INTERNAL_H
#define LOOPSCALE_NPY_INTERNAL_H

#include <stddef.h>
#include <stdint.h>

#include "loopscale/error.h"

#define NPY_MAX_DIMS 32 /* NumPy's own limit */

typedef enum { NPY_FLOAT16, NPY_FLOAT32, NPY_FLOAT64 } npy_dtype;

typedef struct npy_header {
    int major, minor;         /* format version */
    char descr[8];            /* "<f2", "<f4" or "<f8" */
    npy_dtype dtype;
    size_t item_bytes;        /* 2, 4 or 8 */
    int ndim;
    size_t shape[NPY_MAX_DIMS];
    size_t count;             /* elements: the product of shape */
    size_t data_offset;       /* bytes before the data */
} npy_header;

typedef struct npy_reader npy_reader;

/* Open path ("-": standard input) and check its header (and, for a regular
 * file, its size).
 * Errors: LS_ERR_NOINPUT, LS_ERR_DATA. */
npy_reader *ls_npy_open(const char *path, ls_error *err);
/* ls_npy_open() from an input already opened (input_internal.h): the
 * reader takes its fd and name (on failure too) and starts with the bytes
 * already read. */
struct ls_input;
npy_reader *ls_npy_open_input(struct ls_input *in, ls_error *err);
const npy_header *ls_npy_header_of(const npy_reader *r);
const char *ls_npy_name(const npy_reader *r);

/* The next n elements, in C order, as doubles.  A file that ends early is
 * LS_ERR_DATA, a failed read LS_ERR_IO. */
int ls_npy_read(npy_reader *r, double *out, size_t n, ls_error *err) LS_MUST_CHECK;

/* After the last element: data beyond the shape is LS_ERR_DATA (checked up
 * front for regular files; this catches it on pipes). */
int ls_npy_expect_end(npy_reader *r, ls_error *err) LS_MUST_CHECK;

void ls_npy_close(npy_reader *r);

/* What a file starts with: the .npy magic string, gzip-compressed data
 * that starts with it (a .npy file compressed, which cannot be streamed
 * with a known size), or anything else (unreadable files included).  It
 * opens and reads the path, so it is for regular files only: route and exit
 * tell the format from the stream's own first bytes instead, so that a
 * FIFO, a process substitution or standard input is read once. */
typedef enum { NPY_SNIFF_OTHER, NPY_SNIFF_NPY, NPY_SNIFF_GZIP_NPY } npy_sniff_result;
npy_sniff_result ls_npy_sniff(const char *path);

/* "(255500, 16, 1, 64)" into buf; returns buf. */
char *ls_npy_shape_text(const npy_header *h, char *buf, size_t size);

/* IEEE 754 binary16 bits to float, exactly (every half is a float). */
float ls_npy_half_to_float(uint16_t bits);

#endif
