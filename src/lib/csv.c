#include "csv_internal.h"
#include "grow_internal.h"
#include "input_internal.h"
#include "jsonl_internal.h"
#include "sha256_internal.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#define CSV_CHUNK ((size_t)1 << 16)

typedef enum {
    AT_RECORD_START,
    AT_FIELD_START,
    IN_UNQUOTED,
    IN_QUOTED,
    AFTER_QUOTE, /* a quote inside a quoted field: "" or the closing one */
    IN_COMMENT
} csv_state;

/* Raw bytes are read in pieces of this size. */
#define CSV_IN ((size_t)1 << 17)

typedef enum { INPUT_UNKNOWN, INPUT_PLAIN, INPUT_GZIP } input_kind;

/* How lines end, decided by the first line end outside quotes: LF or CRLF
 * (where a lone CR is a fault), or CR alone (classic Mac OS files, where CR,
 * LF and CRLF all end a line). */
typedef enum { ENDS_UNKNOWN, ENDS_LF, ENDS_CR } line_ends;

struct csv_reader {
    int fd;
    input_kind kind;  /* decided by the first two bytes */
    unsigned char *in; /* raw bytes read, in[in_pos..in_len) not yet used */
    size_t in_len, in_pos;
    int in_eof;       /* read() has returned 0 */
    z_stream zs;
    int zs_ready;     /* inflateInit2 done */
    int member_done;  /* the last gzip member ended; another may follow */
    char *name;
    unsigned char *chunk;
    size_t chunk_len, chunk_pos;
    int at_file_start;
    long line;        /* physical line of the next byte */
    long record_line; /* line on which the current record began */
    char *record;     /* unquoted text of the current record */
    size_t record_len, record_cap;
    size_t *bounds; /* start and end offset of each field in record */
    size_t nbounds, bounds_cap;
    csv_field *fields;
    size_t fields_cap;
    int last_field_quoted;
    line_ends ends;
    int cr_pending; /* a CR outside quotes, whose next byte decides what it is */
    int hashing;    /* ls_csv_keep_checksum() was called */
    sha256 hash;    /* of every byte read, as stored: the checksum a law file records */
    int format_known;     /* CSV or JSON Lines decided (at the first record) */
    int jsonl_by_name;    /* the name ends in .jsonl or .ndjson (.gz) */
    jsonl_reader *jsonl;  /* JSON Lines: its records instead */
    size_t max_records, records_before; /* ls_csv_limit_records() */
    /* JSON Lines is read twice (jsonl_internal.h).  The state of the
     * reading when the format was decided is kept here, and the second
     * reading starts from it: the decoded bytes not yet used, the raw bytes
     * not yet decoded, the inflate state, and where the input then stood:
     * an offset in a file, which is sought back to, or the start of a
     * temporary file that keeps every raw byte a pipe gives after it. */
    struct {
        unsigned char *chunk, *raw;
        size_t chunk_len, raw_len;
        z_stream zs;
        int zs_saved, member_done, in_eof;
        off_t offset;
        int spill; /* the temporary file's descriptor, or -1: the input is sought */
    } replay;
};

csv_reader *ls_csv_open(const char *path, ls_error *err)
{
    ls_input in;
    if (ls_input_open(path, &in, err) != 0)
        return NULL;
    return ls_csv_open_input(&in, err);
}

csv_reader *ls_csv_open_input(struct ls_input *in, ls_error *err)
{
    csv_reader *reader = calloc(1, sizeof *reader);
    if (reader) {
        reader->fd = in->fd;
        reader->name = in->name;
        in->fd = -1;
        in->name = NULL;
    }
    if (!reader || !(reader->chunk = malloc(CSV_CHUNK)) || !(reader->in = malloc(CSV_IN))) {
        ls_csv_close(reader);
        ls_input_close(in);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        return NULL;
    }
    const char *compression = ls_compression_not_read(in->head, in->head_len);
    if (compression) {
        int zip = strcmp(compression, "zip") == 0;
        ls_error_set(err, LS_ERR_DATA, "%s: %s-compressed; loopscale reads CSV plain or gzip-compressed "
                     "(decompress it first, or pipe it in: %s%s FILE | loopscale ... -)", reader->name,
                     compression, zip ? "unzip -p" : compression, zip ? "" : " -dc");
        ls_csv_close(reader);
        return NULL;
    }
    if (in->head_len >= 2 && ((in->head[0] == 0xff && in->head[1] == 0xfe) || (in->head[0] == 0xfe && in->head[1] == 0xff))) {
        ls_error_set(err, LS_ERR_DATA, "%s: UTF-16 text (byte-order mark %02X %02X); loopscale reads UTF-8 "
                     "(save it as UTF-8 CSV, or iconv -f UTF-16 -t UTF-8 FILE)", reader->name, in->head[0], in->head[1]);
        ls_csv_close(reader);
        return NULL;
    }
    /* The bytes already read to tell the format are the first ones. */
    memcpy(reader->in, in->head, in->head_len);
    reader->in_len = in->head_len;
    reader->jsonl_by_name = ls_jsonl_name(reader->name);
    reader->line = 1;
    reader->at_file_start = 1;
    reader->replay.spill = -1;
    return reader;
}

void ls_csv_close(csv_reader *reader)
{
    if (!reader)
        return;
    if (reader->zs_ready)
        inflateEnd(&reader->zs);
    if (reader->fd >= 0)
        close(reader->fd);
    ls_jsonl_close(reader->jsonl);
    if (reader->replay.zs_saved)
        inflateEnd(&reader->replay.zs);
    if (reader->replay.spill >= 0)
        close(reader->replay.spill);
    free(reader->replay.chunk);
    free(reader->replay.raw);
    free(reader->in);
    free(reader->name);
    free(reader->chunk);
    free(reader->record);
    free(reader->bounds);
    free(reader->fields);
    free(reader);
}

long ls_csv_line(const csv_reader *reader) { return reader->record_line; }

void ls_csv_limit_records(csv_reader *reader, size_t max, size_t before)
{
    reader->max_records = max;
    reader->records_before = before;
}

void ls_csv_keep_checksum(csv_reader *reader)
{
    /* Before the first record only the head is in the buffer: the bytes
     * the input was opened with. */
    ls_sha256_init(&reader->hash);
    ls_sha256_update(&reader->hash, reader->in, reader->in_len);
    reader->hashing = 1;
}

void ls_csv_sha256(csv_reader *reader, char hex[65])
{
    sha256 copy = reader->hash;
    ls_sha256_hex(&copy, hex);
}
const char *ls_csv_name(const csv_reader *reader) { return reader->name; }

int ls_csv_field_equals(csv_field field, const char *name)
{
    size_t n = strlen(name);
    if (n != field.len)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (tolower((unsigned char)field.ptr[i]) != tolower((unsigned char)name[i]))
            return 0;
    return 1;
}

static int write_all(int fd, const unsigned char *p, size_t n)
{
    while (n > 0) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w < 0)
            return -1;
        p += w;
        n -= (size_t)w;
    }
    return 0;
}

/* More raw bytes: keep the unused ones at the front of the buffer and read
 * after them.  Returns 0, or LS_ERR_IO. */
static int read_more(csv_reader *reader, ls_error *err)
{
    size_t left = reader->in_len - reader->in_pos;
    memmove(reader->in, reader->in + reader->in_pos, left);
    reader->in_pos = 0;
    reader->in_len = left;
    for (;;) {
        ssize_t n = read(reader->fd, reader->in + left, CSV_IN - left);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            return ls_error_set(err, LS_ERR_IO, "%s: read error: %s", reader->name, strerror(errno));
        if (reader->hashing)
            ls_sha256_update(&reader->hash, reader->in + left, (size_t)n);
        if (reader->replay.spill >= 0 && n > 0 && write_all(reader->replay.spill, reader->in + left, (size_t)n) != 0)
            return ls_error_set(err, LS_ERR_IO, "%s: cannot keep a copy of the input for its second reading "
                                "(JSON Lines from a pipe): %s", reader->name, strerror(errno));
        reader->in_len += (size_t)n;
        reader->in_eof = n == 0;
        return 0;
    }
}

/* At least `want` unused raw bytes, unless the input ends first. */
static int ensure_bytes(csv_reader *reader, size_t want, ls_error *err)
{
    while (reader->in_len - reader->in_pos < want && !reader->in_eof) {
        int status = read_more(reader, err);
        if (status != 0)
            return status;
    }
    return 0;
}

static int gzip_error(csv_reader *reader, const char *reason, ls_error *err)
{
    return ls_error_set(err, LS_ERR_DATA, "%s: corrupt or truncated gzip data (%s)", reader->name, reason);
}

/* Decode up to CSV_CHUNK bytes into chunk; *n = 0 at the end.  gzip is
 * recognised by its magic bytes and inflated here rather than by gzread,
 * which stops silently at whatever follows a gzip member that is not
 * another one: rows appended in plain text to a .csv.gz file would be lost
 * without a word.  Concatenated members (RFC 1952) are read in turn. */
static int decode(csv_reader *reader, unsigned char *dst, size_t cap, size_t *n, ls_error *err)
{
    *n = 0;
    int status = 0;
    if (reader->kind == INPUT_UNKNOWN) {
        if ((status = ensure_bytes(reader, 2, err)) != 0)
            return status;
        const unsigned char *p = reader->in + reader->in_pos;
        reader->kind = reader->in_len - reader->in_pos >= 2 && p[0] == 0x1f && p[1] == 0x8b ? INPUT_GZIP : INPUT_PLAIN;
        if (reader->kind == INPUT_GZIP) {
            if (inflateInit2(&reader->zs, 15 + 16) != Z_OK)
                return ls_error_set(err, LS_ERR_INTERNAL, "%s: out of memory", reader->name);
            reader->zs_ready = 1;
        }
    }
    if (reader->kind == INPUT_PLAIN) {
        if (reader->in_pos == reader->in_len && (status = ensure_bytes(reader, 1, err)) != 0)
            return status;
        size_t take = reader->in_len - reader->in_pos;
        take = take < cap ? take : cap;
        memcpy(dst, reader->in + reader->in_pos, take);
        reader->in_pos += take;
        *n = take;
        return 0;
    }
    z_stream *zs = &reader->zs;
    zs->next_out = dst;
    zs->avail_out = (uInt)cap;
    while (zs->avail_out == cap) {
        if (reader->member_done) {
            /* The end of the input, another member, or data that is not
             * gzip after the stream. */
            if ((status = ensure_bytes(reader, 2, err)) != 0)
                return status;
            size_t left = reader->in_len - reader->in_pos;
            if (left == 0)
                break;
            const unsigned char *p = reader->in + reader->in_pos;
            if (left < 2 || p[0] != 0x1f || p[1] != 0x8b)
                return ls_error_set(err, LS_ERR_DATA, "%s: data after the end of the gzip stream", reader->name);
            if (inflateReset(zs) != Z_OK)
                return ls_error_set(err, LS_ERR_INTERNAL, "%s: inflateReset failed", reader->name);
            reader->member_done = 0;
        }
        if (reader->in_pos == reader->in_len) {
            if (reader->in_eof)
                return gzip_error(reader, "unexpected end of file", err);
            if ((status = read_more(reader, err)) != 0)
                return status;
            continue;
        }
        zs->next_in = reader->in + reader->in_pos;
        zs->avail_in = (uInt)(reader->in_len - reader->in_pos);
        int z = inflate(zs, Z_NO_FLUSH);
        size_t used = (size_t)(zs->next_in - reader->in) - reader->in_pos;
        reader->in_pos += used;
        if (z == Z_BUF_ERROR && used == 0 && zs->avail_out == cap)
            return gzip_error(reader, "inflate made no progress", err); /* never, by zlib's contract */
        if (z == Z_STREAM_END)
            reader->member_done = 1;
        else if (z == Z_MEM_ERROR)
            return ls_error_set(err, LS_ERR_INTERNAL, "%s: out of memory", reader->name);
        else if (z != Z_OK && z != Z_BUF_ERROR)
            return gzip_error(reader, zs->msg ? zs->msg : "inflate failed", err);
    }
    *n = cap - zs->avail_out;
    return 0;
}

/* Returns 1 when bytes are available, 0 at the end, or an error code. */
static int refill(csv_reader *reader, ls_error *err)
{
    size_t n = 0;
    int status = decode(reader, reader->chunk, CSV_CHUNK, &n, err);
    if (status != 0)
        return status;
    if (n == 0)
        return 0;
    reader->chunk_len = n;
    reader->chunk_pos = 0;
    if (reader->at_file_start) {
        reader->at_file_start = 0;
        static const unsigned char bom[3] = {0xEF, 0xBB, 0xBF};
        /* A pipe may deliver the byte-order mark a byte at a time: read on
         * while what came so far is the start of one. */
        while (reader->chunk_len < 3 && memcmp(reader->chunk, bom, reader->chunk_len) == 0) {
            if ((status = decode(reader, reader->chunk + reader->chunk_len, CSV_CHUNK - reader->chunk_len, &n,
                                 err)) != 0)
                return status;
            if (n == 0)
                break;
            reader->chunk_len += n;
        }
        if (reader->chunk_len >= 3 && memcmp(reader->chunk, bom, 3) == 0)
            reader->chunk_pos = 3;
        if (reader->chunk_len >= 6 && memcmp(reader->chunk, "\x93NUMPY", 6) == 0)
            return ls_error_set(err, LS_ERR_DATA, "%s: %s", reader->name,
                                reader->kind == INPUT_GZIP ? "gzip-compressed; a .npy file must be uncompressed"
                                                           : "a NumPy .npy array, not a CSV file");
        /* A binary file (an image, a spreadsheet saved as UTF-16) would
         * otherwise be refused for whatever its first line lacks, "no column
         * 'n_act'"; a NUL byte near the start says what it is. */
        const unsigned char *nul = memchr(reader->chunk, '\0', reader->chunk_len);
        if (nul) {
            long line = 1;
            for (const unsigned char *p = reader->chunk; p < nul; p++)
                line += *p == '\n';
            return ls_error_set(err, LS_ERR_DATA, "%s:%ld: binary data (a NUL byte); not a CSV file", reader->name,
                                line);
        }
    }
    return 1;
}

static int append_byte(csv_reader *reader, unsigned char byte, ls_error *err)
{
    if (reader->record_len + 1 > LS_CSV_RECORD_MAX)
        return ls_error_set(err, LS_ERR_DATA, "%s:%ld: record longer than %zu MiB", reader->name,
                            reader->record_line, LS_CSV_RECORD_MAX >> 20);
    if (ls_grow((void **)&reader->record, &reader->record_cap, reader->record_len + 1, 1) != 0)
        return ls_error_set(err, LS_ERR_INTERNAL, "%s: out of memory", reader->name);
    reader->record[reader->record_len++] = (char)byte;
    return 0;
}

static int begin_field(csv_reader *reader, ls_error *err)
{
    if (ls_grow((void **)&reader->bounds, &reader->bounds_cap, reader->nbounds + 2, sizeof *reader->bounds) != 0)
        return ls_error_set(err, LS_ERR_INTERNAL, "%s: out of memory", reader->name);
    reader->bounds[reader->nbounds++] = reader->record_len;
    reader->bounds[reader->nbounds++] = reader->record_len;
    reader->last_field_quoted = 0;
    return 0;
}

static void end_field(csv_reader *reader) { reader->bounds[reader->nbounds - 1] = reader->record_len; }

/* A record made of one blank, unquoted field is a blank line. */
static int record_is_blank(const csv_reader *reader)
{
    if (reader->nbounds != 2 || reader->last_field_quoted)
        return 0;
    for (size_t i = reader->bounds[0]; i < reader->bounds[1]; i++)
        if (!isspace((unsigned char)reader->record[i]))
            return 0;
    return 1;
}

static int finish_record(csv_reader *reader, const csv_field **fields, size_t *nfields, ls_error *err)
{
    size_t n = reader->nbounds / 2;
    if (ls_grow((void **)&reader->fields, &reader->fields_cap, n, sizeof *reader->fields) != 0)
        return ls_error_set(err, LS_ERR_INTERNAL, "%s: out of memory", reader->name);
    /* A record of empty fields (",,") has put no byte in the buffer yet,
     * which may still be NULL: its fields point at an empty string. */
    const char *base = reader->record ? reader->record : "";
    for (size_t i = 0; i < n; i++) {
        reader->fields[i].ptr = base + reader->bounds[2 * i];
        reader->fields[i].len = reader->bounds[2 * i + 1] - reader->bounds[2 * i];
    }
    *fields = reader->fields;
    *nfields = n;
    return 1;
}

/* The JSON Lines reader's bytes: the decoded chunk's rest, then on. */
static int jsonl_read(void *ctx, char *dst, size_t cap, size_t *n, ls_error *err)
{
    csv_reader *reader = ctx;
    if (reader->chunk_pos < reader->chunk_len) {
        size_t take = reader->chunk_len - reader->chunk_pos;
        take = take < cap ? take : cap;
        memcpy(dst, reader->chunk + reader->chunk_pos, take);
        reader->chunk_pos += take;
        *n = take;
        return 0;
    }
    return decode(reader, (unsigned char *)dst, cap, n, err);
}

/* Back to where the format was decided (reader->replay), for the JSON
 * Lines reader's second reading. */
static int jsonl_rewind(void *ctx, ls_error *err)
{
    csv_reader *reader = ctx;
    if (reader->replay.spill >= 0) {
        close(reader->fd);
        reader->fd = reader->replay.spill;
        reader->replay.spill = -1;
        if (lseek(reader->fd, 0, SEEK_SET) != 0)
            return ls_error_set(err, LS_ERR_IO, "%s: cannot read the input's copy again: %s", reader->name,
                                strerror(errno));
    } else if (lseek(reader->fd, reader->replay.offset, SEEK_SET) != reader->replay.offset) {
        return ls_error_set(err, LS_ERR_IO, "%s: cannot go back to its start for the second reading: %s",
                            reader->name, strerror(errno));
    }
    memcpy(reader->in, reader->replay.raw, reader->replay.raw_len);
    reader->in_pos = 0;
    reader->in_len = reader->replay.raw_len;
    reader->in_eof = reader->replay.in_eof;
    reader->member_done = reader->replay.member_done;
    if (reader->replay.zs_saved) {
        inflateEnd(&reader->zs);
        if (inflateCopy(&reader->zs, &reader->replay.zs) != Z_OK) {
            reader->zs_ready = 0;
            return ls_error_set(err, LS_ERR_INTERNAL, "%s: out of memory", reader->name);
        }
    }
    memcpy(reader->chunk, reader->replay.chunk, reader->replay.chunk_len);
    reader->chunk_pos = 0;
    reader->chunk_len = reader->replay.chunk_len;
    reader->hashing = 0; /* every byte was hashed on the first reading */
    return 0;
}

/* Keep the reading's state for jsonl_rewind: see struct csv_reader. */
static int keep_replay_point(csv_reader *reader, ls_error *err)
{
    size_t chunk_len = reader->chunk_len - reader->chunk_pos, raw_len = reader->in_len - reader->in_pos;
    reader->replay.chunk = malloc(chunk_len ? chunk_len : 1);
    reader->replay.raw = malloc(raw_len ? raw_len : 1);
    if (!reader->replay.chunk || !reader->replay.raw)
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    memcpy(reader->replay.chunk, reader->chunk + reader->chunk_pos, chunk_len);
    memcpy(reader->replay.raw, reader->in + reader->in_pos, raw_len);
    reader->replay.chunk_len = chunk_len;
    reader->replay.raw_len = raw_len;
    reader->replay.in_eof = reader->in_eof;
    reader->replay.member_done = reader->member_done;
    if (reader->zs_ready) {
        if (inflateCopy(&reader->replay.zs, &reader->zs) != Z_OK)
            return ls_error_set(err, LS_ERR_INTERNAL, "%s: out of memory", reader->name);
        reader->replay.zs_saved = 1;
    }
    struct stat st;
    if (fstat(reader->fd, &st) == 0 && S_ISREG(st.st_mode) &&
        (reader->replay.offset = lseek(reader->fd, 0, SEEK_CUR)) >= 0)
        return 0;
    /* A pipe, a FIFO, a terminal: what it gives from here on is copied to
     * a temporary file as it is read (compressed as it comes), removed at
     * once so that nothing is left behind. */
    const char *dir = getenv("TMPDIR");
    char path[4096];
    snprintf(path, sizeof path, "%s/loopscale-jsonl-XXXXXX", dir && *dir ? dir : "/tmp");
    int fd = mkstemp(path);
    if (fd < 0)
        return ls_error_set(err, LS_ERR_IO, "%s: cannot create a temporary file for the input's second reading "
                            "(JSON Lines from a pipe) in %s: %s", reader->name, dir && *dir ? dir : "/tmp",
                            strerror(errno));
    unlink(path);
    reader->replay.spill = fd;
    return 0;
}

/* CSV or JSON Lines: JSON Lines by the name (.jsonl, .ndjson, either .gz),
 * or when the first byte that is not white space (after a byte-order mark,
 * and inflated) is '{', which no CSV header starts with.  JSON Lines is
 * streamed twice (jsonl_internal.h): once for its columns, then for its
 * records. */
static int decide_format(csv_reader *reader, ls_error *err)
{
    reader->format_known = 1;
    if (reader->chunk_pos == reader->chunk_len) {
        int status = refill(reader, err);
        if (status <= 0)
            return status;
    }
    size_t i = reader->chunk_pos;
    while (i < reader->chunk_len && isspace(reader->chunk[i]))
        i++;
    int brace = i < reader->chunk_len && reader->chunk[i] == '{';
    if (i < reader->chunk_len && reader->chunk[i] == '[' && !reader->jsonl_by_name)
        return ls_error_set(err, LS_ERR_DATA,
                            "%s: a JSON array; loopscale reads CSV or JSON Lines, one object a line (convert it "
                            "with jq -c '.[]' FILE)", reader->name);
    if (!brace && !reader->jsonl_by_name)
        return 0;
    int status = keep_replay_point(reader, err);
    if (status != 0)
        return status;
    jsonl_source src = {jsonl_read, jsonl_rewind, reader};
    reader->jsonl = ls_jsonl_open(&src, reader->name, reader->max_records, reader->records_before, err);
    return reader->jsonl ? 0 : err->code;
}

int ls_csv_next(csv_reader *reader, const csv_field **fields, size_t *nfields, ls_error *err)
{
    if (!reader->format_known) {
        int status = decide_format(reader, err);
        if (status < 0)
            return status;
    }
    if (reader->jsonl)
        return ls_jsonl_next(reader->jsonl, fields, nfields, &reader->record_line, err);
    csv_state state = AT_RECORD_START;
    reader->record_len = 0;
    reader->nbounds = 0;
    reader->record_line = reader->line;
    for (;;) {
        unsigned char byte;
        if (reader->chunk_pos == reader->chunk_len) {
            int status = refill(reader, err);
            if (status < 0)
                return status;
            if (status == 0) {
                if (!reader->cr_pending)
                    break;
                /* The input ends with a CR: a line end. */
                reader->chunk_len = reader->chunk_pos = 0;
            }
        }
        if (reader->cr_pending) {
            /* What follows a CR outside quotes: LF (CRLF, one line end), or
             * anything else (a lone CR: a line end in a CR file, a fault in
             * an LF one, where it would otherwise join "2.\r5" into 2.5). */
            reader->cr_pending = 0;
            int at_end = reader->chunk_pos == reader->chunk_len;
            int lone = at_end || reader->chunk[reader->chunk_pos] != '\n';
            if (lone && reader->ends == ENDS_UNKNOWN)
                reader->ends = ENDS_CR;
            if (lone && reader->ends == ENDS_LF && state == IN_COMMENT)
                continue; /* a comment may hold anything */
            if (lone && reader->ends == ENDS_LF && !at_end)
                return ls_error_set(err, LS_ERR_DATA,
                                    "%s:%ld: a carriage return (\\r) not followed by a line feed, inside a line "
                                    "that ends with LF (quote a field that holds one)",
                                    reader->name, reader->line);
            if (!lone)
                reader->chunk_pos++;
            byte = '\n';
        } else {
            byte = reader->chunk[reader->chunk_pos++];
            if (byte == '\r' && state != IN_QUOTED) {
                reader->cr_pending = 1;
                continue;
            }
        }
        int status = 0;
        if (byte == '\0')
            return ls_error_set(err, LS_ERR_DATA, "%s:%ld: binary data (a NUL byte); not a CSV file",
                                reader->name, reader->line);
        if (byte == '\n' && state != IN_QUOTED && reader->ends == ENDS_UNKNOWN)
            reader->ends = ENDS_LF;
        switch (state) {
        case AT_RECORD_START:
            reader->record_line = reader->line;
            if (byte == '#') {
                state = IN_COMMENT;
                break;
            }
            if (byte == '\n') {
                reader->line++;
                break;
            }
            status = begin_field(reader, err);
            state = AT_FIELD_START;
            __attribute__((fallthrough));
        case AT_FIELD_START:
            if (status != 0)
                return status;
            if (byte == '"') {
                reader->last_field_quoted = 1;
                state = IN_QUOTED;
                break;
            }
            state = IN_UNQUOTED;
            __attribute__((fallthrough));
        case IN_UNQUOTED:
            if (byte == ',') {
                end_field(reader);
                status = begin_field(reader, err);
                state = AT_FIELD_START;
            } else if (byte == '\n') {
                end_field(reader);
                reader->line++;
                if (record_is_blank(reader)) {
                    reader->record_len = 0;
                    reader->nbounds = 0;
                    state = AT_RECORD_START;
                    break;
                }
                return finish_record(reader, fields, nfields, err);
            } else if (byte == '"') {
                return ls_error_set(err, LS_ERR_DATA,
                                    "%s:%ld: field %zu: a quote inside an unquoted field (quote the whole field)",
                                    reader->name, reader->line, reader->nbounds / 2);
            } else {
                status = append_byte(reader, byte, err);
            }
            break;
        case IN_QUOTED:
            if (byte == '"')
                state = AFTER_QUOTE;
            else {
                if (byte == '\n')
                    reader->line++;
                status = append_byte(reader, byte, err);
            }
            break;
        case AFTER_QUOTE:
            if (byte == '"') {
                status = append_byte(reader, byte, err);
                state = IN_QUOTED;
            } else if (byte == ',') {
                end_field(reader);
                status = begin_field(reader, err);
                state = AT_FIELD_START;
            } else if (byte == '\n') {
                end_field(reader);
                reader->line++;
                return finish_record(reader, fields, nfields, err);
            } else {
                return ls_error_set(err, LS_ERR_DATA, "%s:%ld: field %zu: text after the closing quote",
                                    reader->name, reader->line, reader->nbounds / 2);
            }
            break;
        case IN_COMMENT:
            if (byte == '\n') {
                reader->line++;
                state = AT_RECORD_START;
            }
            break;
        }
        if (status != 0)
            return status;
    }
    /* End of input. */
    switch (state) {
    case AT_RECORD_START:
    case IN_COMMENT:
        return 0;
    case IN_QUOTED:
        return ls_error_set(err, LS_ERR_DATA, "%s:%ld: field %zu: unterminated quoted field", reader->name,
                            reader->record_line, reader->nbounds / 2);
    default:
        end_field(reader);
        if (record_is_blank(reader))
            return 0;
        return finish_record(reader, fields, nfields, err);
    }
}
