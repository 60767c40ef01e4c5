#include "npy_internal.h"
#include "input_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

/* The format: https://numpy.org/doc/stable/reference/generated/numpy.lib.format.html
 * "\x93NUMPY", one byte major and one byte minor version, the header length
 * (2 bytes little-endian in 1.0, 4 bytes in 2.0 and 3.0), then the header: a
 * Python dict literal padded with spaces and ending in a newline. */
static const unsigned char NPY_MAGIC[6] = {0x93, 'N', 'U', 'M', 'P', 'Y'};

/* NumPy itself refuses headers above 10000 bytes unless told otherwise; an
 * array of floats needs a fraction of that. */
#define NPY_HEADER_MAX 10000
#define NPY_BUFFER_BYTES ((size_t)1 << 20)

struct npy_reader {
    int fd;
    char *name;
    npy_header h;
    unsigned char *buf;
    size_t buf_len, buf_pos;
    size_t consumed; /* elements handed out */
};

float ls_npy_half_to_float(uint16_t h)
{
    uint32_t sign = (uint32_t)(h >> 15) << 31;
    uint32_t exponent = (h >> 10) & 0x1fu;
    uint32_t mantissa = h & 0x3ffu;
    uint32_t bits;
    if (exponent == 0x1f) { /* infinity, or NaN with its payload kept */
        bits = sign | 0x7f800000u | (mantissa << 13);
    } else if (exponent != 0) { /* normal: rebias the exponent from 15 to 127 */
        bits = sign | ((exponent + 112u) << 23) | (mantissa << 13);
    } else if (mantissa == 0) { /* signed zero */
        bits = sign;
    } else {
        /* Subnormal half, mantissa x 2^-24: normalise so the leading one
         * moves to bit 10; each shift lowers the exponent by one from the
         * smallest normal half's 2^-14 (float exponent field 113). */
        uint32_t shift = 0;
        while (!(mantissa & 0x400u)) {
            mantissa <<= 1;
            shift++;
        }
        bits = sign | ((113u - shift) << 23) | ((mantissa & 0x3ffu) << 13);
    }
    float f;
    memcpy(&f, &bits, sizeof f);
    return f;
}

char *ls_npy_shape_text(const npy_header *h, char *buf, size_t size)
{
    size_t used = 0;
    used += (size_t)snprintf(buf, size, "(");
    for (int i = 0; i < h->ndim && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%zu", i ? ", " : "", h->shape[i]);
    if (used < size)
        snprintf(buf + used, size - used, h->ndim == 1 ? ",)" : ")");
    return buf;
}

/* ---- the header dict ------------------------------------------------------ */

typedef struct header_parser {
    const char *s;
    size_t len, pos;
    const char *name;
    ls_error *err;
} header_parser;

static int header_error(header_parser *p, const char *what)
{
    return ls_error_set(p->err, LS_ERR_DATA, "%s: .npy header: %s at byte %zu of the header", p->name, what, p->pos);
}

static void skip_blanks(header_parser *p)
{
    while (p->pos < p->len && (p->s[p->pos] == ' ' || p->s[p->pos] == '\t' || p->s[p->pos] == '\n' ||
                               p->s[p->pos] == '\r'))
        p->pos++;
}

static int expect_char(header_parser *p, char ch, const char *what)
{
    skip_blanks(p);
    if (p->pos >= p->len || p->s[p->pos] != ch)
        return header_error(p, what);
    p->pos++;
    return 0;
}

/* A Python string literal in single or double quotes, without escapes
 * (NumPy writes none in the keys and dtypes it reads back). */
static int parse_string(header_parser *p, char *out, size_t size)
{
    skip_blanks(p);
    if (p->pos >= p->len || (p->s[p->pos] != '\'' && p->s[p->pos] != '"'))
        return header_error(p, "expected a quoted string");
    char quote = p->s[p->pos++];
    size_t start = p->pos;
    while (p->pos < p->len && p->s[p->pos] != quote) {
        if (p->s[p->pos] == '\\' || p->s[p->pos] == '\n')
            return header_error(p, "unexpected character in a string");
        p->pos++;
    }
    if (p->pos >= p->len)
        return header_error(p, "unterminated string");
    size_t n = p->pos - start;
    p->pos++;
    if (n >= size)
        return ls_error_set(p->err, LS_ERR_DATA, "%s: .npy header: string '%.*s' is too long", p->name, (int)n,
                            p->s + start);
    memcpy(out, p->s + start, n);
    out[n] = '\0';
    return 0;
}

static int parse_bool(header_parser *p, int *out)
{
    skip_blanks(p);
    if (p->len - p->pos >= 4 && memcmp(p->s + p->pos, "True", 4) == 0) {
        p->pos += 4;
        *out = 1;
        return 0;
    }
    if (p->len - p->pos >= 5 && memcmp(p->s + p->pos, "False", 5) == 0) {
        p->pos += 5;
        *out = 0;
        return 0;
    }
    return header_error(p, "expected True or False");
}

/* A tuple of non-negative integers: (), (5,), (3, 4) — with Python 2's
 * optional L suffix, which old files carry. */
static int parse_shape(header_parser *p, npy_header *h)
{
    int status = expect_char(p, '(', "expected a tuple for 'shape'");
    if (status != 0)
        return status;
    h->ndim = 0;
    for (;;) {
        skip_blanks(p);
        if (p->pos < p->len && p->s[p->pos] == ')') {
            p->pos++;
            return 0;
        }
        if (p->pos >= p->len || p->s[p->pos] < '0' || p->s[p->pos] > '9')
            return header_error(p, "expected a non-negative integer in 'shape'");
        size_t value = 0;
        while (p->pos < p->len && p->s[p->pos] >= '0' && p->s[p->pos] <= '9') {
            size_t digit = (size_t)(p->s[p->pos] - '0');
            if (value > (SIZE_MAX - digit) / 10)
                return header_error(p, "dimension too large in 'shape'");
            value = value * 10 + digit;
            p->pos++;
        }
        if (p->pos < p->len && p->s[p->pos] == 'L')
            p->pos++;
        if (h->ndim == NPY_MAX_DIMS)
            return header_error(p, "more than 32 dimensions in 'shape'");
        h->shape[h->ndim++] = value;
        skip_blanks(p);
        if (p->pos < p->len && p->s[p->pos] == ',')
            p->pos++;
        else if (p->pos >= p->len || p->s[p->pos] != ')')
            return header_error(p, "expected ',' or ')' in 'shape'");
    }
}

static int check_descr(header_parser *p, npy_header *h)
{
    const char *d = h->descr;
    char order = d[0] && strchr("<>|=", d[0]) ? d[0] : '\0';
    const char *code = order ? d + 1 : d;
    static const struct {
        const char *code;
        npy_dtype dtype;
        size_t bytes;
    } floats[] = {{"f2", NPY_FLOAT16, 2}, {"f4", NPY_FLOAT32, 4}, {"f8", NPY_FLOAT64, 8}};
    for (size_t i = 0; i < sizeof floats / sizeof *floats; i++) {
        if (strcmp(code, floats[i].code) != 0)
            continue;
        if (order == '<') {
            h->dtype = floats[i].dtype;
            h->item_bytes = floats[i].bytes;
            return 0;
        }
        if (order == '>')
            return ls_error_set(p->err, LS_ERR_DATA,
                                "%s: .npy header: dtype '%s' is big-endian; save it as '<%s' (a.astype('<%s'))",
                                p->name, d, floats[i].code, floats[i].code);
        /* '|' means "byte order not applicable", which is only true of
         * one-byte types; '=' (native) is never written by NumPy. */
        return ls_error_set(p->err, LS_ERR_DATA, "%s: .npy header: dtype '%s' has no valid byte order; expected '<%s'",
                            p->name, d, floats[i].code);
    }
    return ls_error_set(p->err, LS_ERR_DATA,
                        "%s: .npy header: dtype '%s' is not float16, float32 or float64 ('<f2', '<f4', '<f8')",
                        p->name, d);
}

static int parse_header_dict(const char *text, size_t len, const char *name, npy_header *h, ls_error *err)
{
    header_parser p = {text, len, 0, name, err};
    int status = expect_char(&p, '{', "expected '{'");
    int seen_descr = 0, seen_order = 0, seen_shape = 0, fortran = 0;
    while (status == 0) {
        skip_blanks(&p);
        if (p.pos < p.len && p.s[p.pos] == '}') {
            p.pos++;
            break;
        }
        char key[32];
        status = parse_string(&p, key, sizeof key);
        if (status == 0)
            status = expect_char(&p, ':', "expected ':'");
        if (status != 0)
            break;
        int *seen = NULL;
        if (strcmp(key, "descr") == 0) {
            seen = &seen_descr;
            skip_blanks(&p);
            if (p.pos < p.len && p.s[p.pos] == '[')
                status = ls_error_set(err, LS_ERR_DATA, "%s: .npy header: a structured dtype is not an array of floats",
                                      name);
            else
                status = parse_string(&p, h->descr, sizeof h->descr);
        } else if (strcmp(key, "fortran_order") == 0) {
            seen = &seen_order;
            status = parse_bool(&p, &fortran);
        } else if (strcmp(key, "shape") == 0) {
            seen = &seen_shape;
            status = parse_shape(&p, h);
        } else {
            status = ls_error_set(err, LS_ERR_DATA, "%s: .npy header: unexpected key '%s'", name, key);
        }
        if (status == 0 && (*seen)++)
            status = ls_error_set(err, LS_ERR_DATA, "%s: .npy header: key '%s' appears twice", name, key);
        if (status != 0)
            break;
        skip_blanks(&p);
        if (p.pos < p.len && p.s[p.pos] == ',')
            p.pos++;
        else if (p.pos >= p.len || p.s[p.pos] != '}')
            status = header_error(&p, "expected ',' or '}'");
    }
    if (status != 0)
        return status;
    skip_blanks(&p);
    if (p.pos != p.len)
        return header_error(&p, "text after the closing '}'");
    if (!seen_descr || !seen_order || !seen_shape)
        return ls_error_set(err, LS_ERR_DATA, "%s: .npy header: missing key '%s'", name,
                            !seen_descr ? "descr" : !seen_order ? "fortran_order" : "shape");
    status = check_descr(&p, h);
    if (status != 0)
        return status;
    if (fortran)
        return ls_error_set(err, LS_ERR_DATA,
                            "%s: .npy header: the array is in Fortran order; save it in C order "
                            "(np.ascontiguousarray(a))",
                            name);
    h->count = 1;
    for (int i = 0; i < h->ndim; i++) {
        if (h->shape[i] != 0 && h->count > SIZE_MAX / h->item_bytes / h->shape[i])
            return ls_error_set(err, LS_ERR_DATA, "%s: .npy header: the shape is too large", name);
        h->count *= h->shape[i];
    }
    return 0;
}

/* ---- reading ---------------------------------------------------------------- */

static int read_fully(int fd, unsigned char *buf, size_t n, size_t *got)
{
    *got = 0;
    while (*got < n) {
        ssize_t r = read(fd, buf + *got, n - *got);
        if (r < 0) {
            if (errno == EINTR)
                continue;
            return -1;
        }
        if (r == 0)
            break;
        *got += (size_t)r;
    }
    return 0;
}

npy_sniff_result ls_npy_sniff(const char *path)
{
    if (strcmp(path, "-") == 0)
        return NPY_SNIFF_OTHER;
    gzFile gz = gzopen(path, "rb"); /* reads plain files unchanged */
    if (!gz)
        return NPY_SNIFF_OTHER;
    unsigned char magic[sizeof NPY_MAGIC];
    int got = gzread(gz, magic, (unsigned)sizeof magic);
    int compressed = !gzdirect(gz);
    gzclose(gz);
    if (got != (int)sizeof magic || memcmp(magic, NPY_MAGIC, sizeof magic) != 0)
        return NPY_SNIFF_OTHER;
    return compressed ? NPY_SNIFF_GZIP_NPY : NPY_SNIFF_NPY;
}

/* n bytes from what is buffered (the bytes read to tell the format), then
 * from the file. */
static int take(npy_reader *r, unsigned char *dst, size_t n, size_t *got)
{
    size_t buffered = r->buf_len - r->buf_pos;
    size_t from_buf = buffered < n ? buffered : n;
    memcpy(dst, r->buf + r->buf_pos, from_buf);
    r->buf_pos += from_buf;
    size_t more = 0;
    int status = from_buf < n ? read_fully(r->fd, dst + from_buf, n - from_buf, &more) : 0;
    *got = from_buf + more;
    return status;
}

static int read_header(npy_reader *r, ls_error *err)
{
    unsigned char pre[12];
    size_t got = 0;
    if (take(r, pre, 10, &got) != 0)
        return ls_error_set(err, LS_ERR_NOINPUT, "%s: cannot read: %s", r->name, strerror(errno));
    if (got < 6 || memcmp(pre, NPY_MAGIC, 6) != 0) {
        if (got >= 2 && pre[0] == 0x1f && pre[1] == 0x8b)
            return ls_error_set(err, LS_ERR_DATA, "%s: gzip-compressed; a .npy file must be uncompressed", r->name);
        if (got >= 4 && memcmp(pre, "PK\x03\x04", 4) == 0)
            return ls_error_set(err, LS_ERR_DATA, "%s: a zip archive (.npz?); extract the .npy array first", r->name);
        return ls_error_set(err, LS_ERR_DATA, "%s: not a .npy file (no \\x93NUMPY magic string)", r->name);
    }
    if (got < 10)
        return ls_error_set(err, LS_ERR_DATA, "%s: .npy header cut short", r->name);
    r->h.major = pre[6];
    r->h.minor = pre[7];
    if (!((r->h.major == 1 || r->h.major == 2 || r->h.major == 3) && r->h.minor == 0))
        return ls_error_set(err, LS_ERR_DATA, "%s: .npy format version %d.%d is not 1.0, 2.0 or 3.0", r->name,
                            r->h.major, r->h.minor);
    size_t header_len = (size_t)pre[8] | (size_t)pre[9] << 8;
    size_t prefix = 10;
    if (r->h.major >= 2) {
        size_t more = 0;
        if (take(r, pre + 10, 2, &more) != 0 || more < 2)
            return ls_error_set(err, LS_ERR_DATA, "%s: .npy header cut short", r->name);
        header_len |= (size_t)pre[10] << 16 | (size_t)pre[11] << 24;
        prefix = 12;
    }
    if (header_len > NPY_HEADER_MAX)
        return ls_error_set(err, LS_ERR_DATA, "%s: .npy header of %zu bytes is longer than %d", r->name, header_len,
                            NPY_HEADER_MAX);
    char *text = malloc(header_len + 1);
    if (!text)
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    int status = 0;
    if (take(r, (unsigned char *)text, header_len, &got) != 0)
        status = ls_error_set(err, LS_ERR_NOINPUT, "%s: cannot read: %s", r->name, strerror(errno));
    else if (got < header_len)
        status = ls_error_set(err, LS_ERR_DATA, "%s: .npy header cut short", r->name);
    else
        status = parse_header_dict(text, header_len, r->name, &r->h, err);
    free(text);
    r->h.data_offset = prefix + header_len;
    return status;
}

static int check_size(npy_reader *r, ls_error *err)
{
    struct stat st;
    if (fstat(r->fd, &st) != 0 || !S_ISREG(st.st_mode))
        return 0; /* a pipe: ls_npy_read and ls_npy_expect_end check as they go */
    size_t data_bytes = r->h.count * r->h.item_bytes;
    if (data_bytes > SIZE_MAX - r->h.data_offset || (size_t)st.st_size != r->h.data_offset + data_bytes) {
        char shape[NPY_MAX_DIMS * 22 + 4];
        return ls_error_set(err, LS_ERR_DATA,
                            "%s: file is %lld bytes, but the header says %zu (%zu-byte header + shape %s of "
                            "%zu-byte '%s')",
                            r->name, (long long)st.st_size, r->h.data_offset + data_bytes, r->h.data_offset,
                            ls_npy_shape_text(&r->h, shape, sizeof shape), r->h.item_bytes, r->h.descr);
    }
    return 0;
}

npy_reader *ls_npy_open(const char *path, ls_error *err)
{
    ls_input in;
    if (ls_input_open(path, &in, err) != 0)
        return NULL;
    return ls_npy_open_input(&in, err);
}

npy_reader *ls_npy_open_input(ls_input *in, ls_error *err)
{
    npy_reader *r = calloc(1, sizeof *r);
    if (!r || !(r->buf = malloc(NPY_BUFFER_BYTES))) {
        free(r);
        ls_input_close(in);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        return NULL;
    }
    r->fd = in->fd;
    r->name = in->name;
    in->fd = -1;
    in->name = NULL;
    memcpy(r->buf, in->head, in->head_len);
    r->buf_len = in->head_len;
    if (read_header(r, err) != 0 || check_size(r, err) != 0) {
        ls_npy_close(r);
        return NULL;
    }
    return r;
}

const npy_header *ls_npy_header_of(const npy_reader *r) { return &r->h; }
const char *ls_npy_name(const npy_reader *r) { return r->name; }

/* Keep the unread tail and fill the rest of the buffer. Returns the bytes
 * now available, or -1 with errno set. */
static ssize_t refill(npy_reader *r)
{
    size_t tail = r->buf_len - r->buf_pos;
    memmove(r->buf, r->buf + r->buf_pos, tail);
    r->buf_pos = 0;
    r->buf_len = tail;
    size_t got = 0;
    if (read_fully(r->fd, r->buf + tail, NPY_BUFFER_BYTES - tail, &got) != 0)
        return -1;
    r->buf_len += got;
    return (ssize_t)r->buf_len;
}

/* Little-endian bytes to doubles, one loop per type so that the switch is
 * taken once per buffer rather than once per element. */
static void decode(const unsigned char *p, npy_dtype dtype, double *out, size_t n)
{
    switch (dtype) {
    case NPY_FLOAT16:
        for (size_t i = 0; i < n; i++, p += 2)
            out[i] = ls_npy_half_to_float((uint16_t)(p[0] | p[1] << 8));
        break;
    case NPY_FLOAT32:
        for (size_t i = 0; i < n; i++, p += 4) {
            uint32_t bits = (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
            float f;
            memcpy(&f, &bits, sizeof f);
            out[i] = f;
        }
        break;
    case NPY_FLOAT64:
        for (size_t i = 0; i < n; i++, p += 8) {
            uint64_t bits = 0;
            for (int b = 7; b >= 0; b--)
                bits = bits << 8 | p[b];
            double d;
            memcpy(&d, &bits, sizeof d);
            out[i] = d;
        }
        break;
    }
}

int ls_npy_read(npy_reader *r, double *out, size_t n, ls_error *err)
{
    if (n > r->h.count - r->consumed)
        return ls_error_set(err, LS_ERR_INTERNAL, "%s: read past the end of the array", r->name);
    size_t bytes = r->h.item_bytes;
    npy_dtype dtype = r->h.dtype;
    while (n > 0) {
        size_t available = (r->buf_len - r->buf_pos) / bytes;
        if (available == 0) {
            ssize_t have = refill(r);
            if (have < 0)
                return ls_error_set(err, LS_ERR_IO, "%s: read error: %s", r->name, strerror(errno));
            available = (size_t)have / bytes;
            if (available == 0)
                return ls_error_set(err, LS_ERR_DATA, "%s: the data ends after %zu of %zu elements", r->name,
                                    r->consumed, r->h.count);
        }
        size_t take = available < n ? available : n;
        decode(r->buf + r->buf_pos, dtype, out, take);
        r->buf_pos += take * bytes;
        r->consumed += take;
        out += take;
        n -= take;
    }
    return 0;
}

int ls_npy_expect_end(npy_reader *r, ls_error *err)
{
    if (r->consumed != r->h.count)
        return ls_error_set(err, LS_ERR_INTERNAL, "%s: %zu of %zu elements read", r->name, r->consumed, r->h.count);
    if (r->buf_pos < r->buf_len)
        return ls_error_set(err, LS_ERR_DATA, "%s: data beyond the %zu elements of the shape", r->name, r->h.count);
    unsigned char byte;
    size_t got = 0;
    if (read_fully(r->fd, &byte, 1, &got) != 0)
        return ls_error_set(err, LS_ERR_IO, "%s: read error: %s", r->name, strerror(errno));
    if (got != 0)
        return ls_error_set(err, LS_ERR_DATA, "%s: data beyond the %zu elements of the shape", r->name, r->h.count);
    return 0;
}

void ls_npy_close(npy_reader *r)
{
    if (!r)
        return;
    close(r->fd);
    free(r->name);
    free(r->buf);
    free(r);
}
