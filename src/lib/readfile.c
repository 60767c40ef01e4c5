#include "readfile_internal.h"
#include "input_internal.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

const char *ls_input_name(const char *path) { return strcmp(path, "-") == 0 ? "<stdin>" : path; }

/* Inflate the gzip stream data[0..n) (members one after another) into a
 * malloc'd buffer with room for a NUL, at most max_bytes long. */
static int gunzip(const char *data, size_t n, size_t max_bytes, const char *what, const char *path, char **out,
                  size_t *out_len, ls_error *err)
{
    z_stream zs;
    memset(&zs, 0, sizeof zs);
    if (inflateInit2(&zs, 16 + MAX_WBITS) != Z_OK)
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    size_t cap = 4 * n + 4096, len = 0;
    char *buf = malloc(cap + 1);
    int status = buf ? 0 : ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    zs.next_in = (Bytef *)(uintptr_t)data;
    zs.avail_in = (uInt)n;
    while (status == 0) {
        if (len == cap) {
            if (len > max_bytes) {
                status = ls_error_set(err, LS_ERR_DATA, "%s: too large for a %s (more than %zu MiB once inflated)",
                                      path, what, max_bytes >> 20);
                break;
            }
            char *p = realloc(buf, 2 * cap + 1);
            if (!p) {
                status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
                break;
            }
            buf = p;
            cap *= 2;
        }
        zs.next_out = (Bytef *)buf + len;
        zs.avail_out = (uInt)(cap - len);
        int rc = inflate(&zs, Z_NO_FLUSH);
        len = cap - zs.avail_out;
        if (rc == Z_STREAM_END) {
            if (zs.avail_in == 0)
                break;
            inflateReset(&zs); /* another member follows */
        } else if (rc == Z_BUF_ERROR && zs.avail_in == 0) {
            status = ls_error_set(err, LS_ERR_DATA, "%s: gzip data cut short", path);
        } else if (rc != Z_OK && rc != Z_BUF_ERROR) {
            status = ls_error_set(err, LS_ERR_DATA, "%s: damaged gzip data (%s)", path, zs.msg ? zs.msg : "bad data");
        }
    }
    inflateEnd(&zs);
    if (status == 0 && len > max_bytes)
        status = ls_error_set(err, LS_ERR_DATA, "%s: too large for a %s (more than %zu MiB once inflated)", path,
                              what, max_bytes >> 20);
    if (status != 0) {
        free(buf);
        return status;
    }
    *out = buf;
    *out_len = len;
    return 0;
}

int ls_read_small_file(const char *path, size_t max_bytes, const char *what, char **text, size_t *len,
                    ls_error *err)
{
    /* "-" is standard input (read through a duplicate, so that closing it
     * leaves the process's own descriptor alone). */
    int from_stdin = strcmp(path, "-") == 0;
    int fd = from_stdin ? dup(STDIN_FILENO) : -1;
    FILE *fp = from_stdin ? (fd >= 0 ? fdopen(fd, "rb") : NULL) : fopen(path, "rb");
    path = ls_input_name(path);
    if (!fp) {
        if (fd >= 0)
            close(fd);
        return ls_error_set(err, LS_ERR_NOINPUT, "%s: cannot open: %s", path, strerror(errno));
    }
    struct stat st;
    if (fstat(fileno(fp), &st) == 0 && S_ISDIR(st.st_mode)) {
        fclose(fp);
        return ls_error_set(err, LS_ERR_NOINPUT, "%s: is a directory", path);
    }
    size_t cap = 4096, n = 0;
    char *buf = malloc(cap + 1);
    int status = buf ? 0 : ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    while (status == 0) {
        size_t got = fread(buf + n, 1, cap - n, fp);
        n += got;
        if (got == 0)
            break;
        if (n > max_bytes) {
            status = ls_error_set(err, LS_ERR_DATA, "%s: too large for a %s (more than %zu MiB)", path, what,
                                  max_bytes >> 20);
        } else if (n == cap) {
            char *p = realloc(buf, 2 * cap + 1);
            if (!p)
                status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
            else {
                buf = p;
                cap *= 2;
            }
        }
    }
    if (status == 0 && ferror(fp))
        status = ls_error_set(err, LS_ERR_NOINPUT, "%s: cannot read: %s", path, strerror(errno));
    fclose(fp);
    if (status != 0) {
        free(buf);
        return status;
    }
    const char *compression = ls_compression_not_read((const unsigned char *)buf, n);
    if (compression) {
        free(buf);
        return ls_error_set(err, LS_ERR_DATA, "%s: %s-compressed; a %s is read plain or gzip-compressed", path,
                            compression, what);
    }
    if (n >= 2 && (unsigned char)buf[0] == 0x1f && (unsigned char)buf[1] == 0x8b) {
        /* gzip, recognised by its magic bytes as sweeps are (law.json.gz). */
        char *plain = NULL;
        size_t plain_len = 0;
        status = gunzip(buf, n, max_bytes, what, path, &plain, &plain_len, err);
        free(buf);
        if (status != 0)
            return status;
        buf = plain;
        n = plain_len;
    }
    buf[n] = '\0';
    *text = buf;
    *len = n;
    return 0;
}

/* The 1-based line and column of text[offset]. */
static void position_of(const char *text, size_t offset, long *line, long *column)
{
    *line = 1;
    *column = 1;
    for (size_t i = 0; i < offset; i++) {
        if (text[i] == '\n') {
            ++*line;
            *column = 1;
        } else {
            ++*column;
        }
    }
}

static int compare_keys(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* Append ".key" or "[i]" to the path in buf (truncating a very long path:
 * it only names the place in a message). */
static size_t path_push(char *buf, size_t size, size_t len, const cJSON *parent, const cJSON *item, size_t index)
{
    int n = cJSON_IsObject(parent) ? snprintf(buf + len, size - len, "%s%s", len ? "." : "", item->string)
                                   : snprintf(buf + len, size - len, "[%zu]", index);
    if (n < 0 || (size_t)n >= size - len)
        return size - 1;
    return len + (size_t)n;
}

/* JSON allows an object to repeat a key, and cJSON then answers every lookup
 * with the first one, so `"A": 400, ..., "A": 5000` would silently mean 400.
 * Every object of the document is checked (keys sorted, so a large object
 * costs n log n); the first repeated key is named by its path. */
static size_t find_key(const char *text, size_t len, size_t from, const char *name, size_t name_len);
static size_t locate_path(const char *text, size_t len, const char *p, size_t path_len, int skip_last);

typedef struct duplicate_key {
    char parent[256]; /* path of the object holding it ("" for the top) */
    char key[256];
} duplicate_key;
static void locate_duplicate(ls_error *err, const char *name, const char *text, size_t len, const duplicate_key *dup);

static int find_duplicate_key(const cJSON *node, char *path, size_t size, size_t len, int depth, ls_error *err,
                              const char *name, duplicate_key *dup)
{
    if (!cJSON_IsObject(node) && !cJSON_IsArray(node))
        return 0;
    if (depth > 1000) /* cJSON's own nesting limit is lower */
        return 0;
    if (cJSON_IsObject(node)) {
        size_t n = 0;
        for (const cJSON *c = node->child; c; c = c->next)
            n++;
        if (n > 1) {
            const char **keys = malloc(n * sizeof *keys);
            if (!keys)
                return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
            size_t i = 0;
            for (const cJSON *c = node->child; c; c = c->next)
                keys[i++] = c->string ? c->string : "";
            qsort(keys, n, sizeof *keys, compare_keys);
            const char *repeated = NULL;
            for (i = 1; i < n && !repeated; i++)
                if (strcmp(keys[i - 1], keys[i]) == 0)
                    repeated = keys[i];
            int status = 0;
            if (repeated) {
                status = ls_error_set(err, LS_ERR_DATA, "%s: key '%s%s%s' appears twice", name, path, len ? "." : "",
                                      repeated);
                snprintf(dup->parent, sizeof dup->parent, "%s", path);
                snprintf(dup->key, sizeof dup->key, "%s", repeated);
            }
            free(keys);
            if (status != 0)
                return status;
        }
    }
    size_t index = 0;
    for (const cJSON *c = node->child; c; c = c->next, index++) {
        size_t sub = path_push(path, size, len, node, c, index);
        int status = find_duplicate_key(c, path, size, sub, depth + 1, err, name, dup);
        path[len] = '\0';
        if (status != 0)
            return status;
    }
    return 0;
}

/* The length of the UTF-8 sequence at p (at most n bytes), or 0 when it is
 * not well-formed (RFC 3629: no overlong forms, no surrogates, at most
 * U+10FFFF). */
static size_t utf8_length(const unsigned char *p, size_t n)
{
    unsigned c = p[0];
    size_t k = c < 0x80 ? 1 : c >= 0xC2 && c <= 0xDF ? 2 : c >= 0xE0 && c <= 0xEF ? 3 : c >= 0xF0 && c <= 0xF4 ? 4 : 0;
    if (k == 0 || k > n)
        return 0;
    for (size_t i = 1; i < k; i++)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    if ((c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] > 0x9F) || (c == 0xF0 && p[1] < 0x90) ||
        (c == 0xF4 && p[1] > 0x8F))
        return 0;
    return k;
}

/* What cJSON lets through and RFC 8259 does not, or what it would read as
 * something else: raw control characters and malformed UTF-8 inside
 * strings, a \u0000 escape (cJSON's strings end at the first NUL, so
 * "dense\u0000evil" would read as "dense"), nesting deeper than
 * LS_JSON_MAX_DEPTH, and a number that is not zero but rounds to zero or
 * overflows a double (1e-400 would read as 0).  Each is an LS_ERR_DATA error
 * at its line and column, quoting the text. */
#define LS_JSON_MAX_DEPTH 512
/* cJSON spends 64 bytes on each value, so a document of one-digit numbers
 * ("[0,0,0,...") costs 32 times its size: a 16 MiB law file, 650 MB.  A
 * value takes at least 8 bytes of text on average in any document loopscale
 * writes (a fitted number is written to 15 to 17 digits), so more than one
 * value per 8 bytes (and 4096) is refused before the tree is built, which
 * bounds it to 8 times the text. */
#define LS_JSON_BYTES_PER_VALUE 8
static int scan_json_text(const char *text, size_t len, const char *name, ls_error *err)
{
    const unsigned char *t = (const unsigned char *)text;
    int depth = 0, in_string = 0;
    long line, column;
    size_t values = 0, max_values = len / LS_JSON_BYTES_PER_VALUE + 4096;
    for (size_t i = 0; i < len; i++) {
        unsigned c = t[i];
        if (in_string) {
            if (c == '"') {
                in_string = 0;
            } else if (c == '\\') {
                if (i + 5 < len && t[i + 1] == 'u' && memcmp(text + i + 2, "0000", 4) == 0) {
                    position_of(text, i, &line, &column);
                    return ls_error_set(err, LS_ERR_DATA, "%s:%ld:%ld: NUL character in string (\\u0000)", name, line,
                                        column);
                }
                i++;
            } else if (c < 0x20) {
                position_of(text, i, &line, &column);
                return ls_error_set(err, LS_ERR_DATA,
                                    "%s:%ld:%ld: control character 0x%02X in string (write it as \\u%04X)", name,
                                    line, column, c, c);
            } else if (c >= 0x80) {
                size_t k = utf8_length(t + i, len - i);
                if (k == 0) {
                    position_of(text, i, &line, &column);
                    return ls_error_set(err, LS_ERR_DATA, "%s:%ld:%ld: invalid UTF-8 (byte 0x%02X) in string", name,
                                        line, column, c);
                }
                i += k - 1;
            }
        } else if ((c == '"' || c == ',' || c == '[' || c == '{') && ++values > max_values) {
            position_of(text, i, &line, &column);
            return ls_error_set(err, LS_ERR_DATA, "%s:%ld:%ld: more than %zu values in %zu bytes: a document "
                                "loopscale reads holds at most one value per %d bytes", name, line, column,
                                max_values, len, LS_JSON_BYTES_PER_VALUE);
        } else if (c == '"') {
            in_string = 1;
        } else if (c == '[' || c == '{') {
            if (++depth > LS_JSON_MAX_DEPTH) {
                position_of(text, i, &line, &column);
                return ls_error_set(err, LS_ERR_DATA, "%s:%ld:%ld: nested too deeply (more than %d levels)", name,
                                    line, column, LS_JSON_MAX_DEPTH);
            }
        } else if (c == ']' || c == '}') {
            depth--;
        } else if (c == '-' || (c >= '0' && c <= '9')) {
            size_t j = i;
            int nonzero = 0, exponent = 0;
            while (j < len && t[j] && strchr("+-.eE0123456789", t[j])) {
                if (t[j] == 'e' || t[j] == 'E')
                    exponent = 1;
                else if (!exponent && t[j] >= '1' && t[j] <= '9')
                    nonzero = 1;
                j++;
            }
            char number[64];
            if (j - i < sizeof number) {
                memcpy(number, text + i, j - i);
                number[j - i] = '\0';
                errno = 0;
                double v = strtod(number, NULL);
                if (!isfinite(v) || (nonzero && v == 0)) {
                    position_of(text, i, &line, &column);
                    return ls_error_set(err, LS_ERR_DATA, "%s:%ld:%ld: '%s' is outside double precision", name, line,
                                        column, number);
                }
            }
            i = j - 1;
        }
    }
    return 0;
}

cJSON *ls_parse_json_text(const char *text, size_t len, const char *name, ls_error *err)
{
    /* Nothing at all is most often a failed command's output captured in
     * a file (fit ... > law.json), not a syntax error. */
    size_t blank = 0; /* text need not end in a NUL: count within len */
    while (blank < len && (text[blank] == ' ' || text[blank] == '\t' || text[blank] == '\r' || text[blank] == '\n'))
        blank++;
    if (blank == len) {
        ls_error_set(err, LS_ERR_DATA, "%s: empty (no JSON document)", name);
        return NULL;
    }
    if (scan_json_text(text, len, name, err) != 0)
        return NULL;
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    long line, column;
    if (!root) {
        size_t offset = end && end >= text && (size_t)(end - text) <= len ? (size_t)(end - text) : len;
        position_of(text, offset, &line, &column);
        /* Python's json module writes NaN and Infinity unless told not to:
         * the commonest way a dashboard export is not JSON. */
        static const char *const python_words[] = {"NaN", "Infinity", "-Infinity"};
        for (size_t k = 0; k < sizeof python_words / sizeof *python_words; k++) {
            size_t n = strlen(python_words[k]);
            if (len - offset >= n && memcmp(text + offset, python_words[k], n) == 0) {
                ls_error_set(err, LS_ERR_DATA,
                             "%s:%ld:%ld: '%s' is not JSON (Python's json writes it unless allow_nan=False); "
                             "JSON writes a missing value as null", name, line, column, python_words[k]);
                return NULL;
            }
        }
        ls_error_set(err, LS_ERR_DATA, "%s:%ld:%ld: not valid JSON", name, line, column);
        return NULL;
    }
    /* One document and nothing after it but white space: `{...} xyz` or two
     * objects in a row is a damaged file, not the first object. */
    size_t offset = end && end >= text && (size_t)(end - text) <= len ? (size_t)(end - text) : len;
    while (offset < len && (text[offset] == ' ' || text[offset] == '\t' || text[offset] == '\n' ||
                            text[offset] == '\r'))
        offset++;
    if (offset < len) {
        position_of(text, offset, &line, &column);
        cJSON_Delete(root);
        ls_error_set(err, LS_ERR_DATA, "%s:%ld:%ld: text after the end of the JSON document", name, line, column);
        return NULL;
    }
    char path[256] = "";
    duplicate_key dup = {"", ""};
    if (find_duplicate_key(root, path, sizeof path, 0, 0, err, name, &dup) != 0) {
        if (err->code == LS_ERR_DATA)
            locate_duplicate(err, name, text, len, &dup);
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

/* ---- where in the text a key is ---------------------------------------------- */

/* The offset of the key `name` ("name" followed by a colon) at or after
 * from, or len when there is none. */
static size_t find_key(const char *text, size_t len, size_t from, const char *name, size_t name_len)
{
    for (size_t i = from; i + name_len + 2 <= len; i++) {
        if (text[i] != '"' || memcmp(text + i + 1, name, name_len) != 0 || text[i + 1 + name_len] != '"')
            continue;
        size_t j = i + name_len + 2;
        while (j < len && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r' || text[j] == '\n'))
            j++;
        if (j < len && text[j] == ':')
            return i;
    }
    return len;
}

/* The offset of the key at the end of a path (a.b[2].c), or len when it
 * is not found.  Each component is searched after the previous one's key;
 * an index ([3]) and, with skip_last, the last component are left to their
 * parent's position. */
static size_t locate_path(const char *text, size_t len, const char *p, size_t path_len, int skip_last)
{
    size_t at = 0, found = len;
    const char *c = p, *end = p + path_len;
    while (c < end) {
        size_t n = strcspn(c, ".[");
        if (c + n > end)
            n = (size_t)(end - c);
        int last = c + n >= end || (c[n] == '[' && c + n + strcspn(c + n, ".") >= end);
        if (n > 0 && !(skip_last && last)) {
            size_t k = find_key(text, len, at, c, n);
            if (k == len)
                return len;
            found = at = k;
        }
        c += n;
        while (c < end && *c != '.')
            c++; /* over an index */
        if (c < end)
            c++;
    }
    return found;
}

/* The end of the JSON string starting at text[i] == '"' (the offset after
 * its closing quote), or len. */
static size_t string_end(const char *text, size_t len, size_t i)
{
    for (i++; i < len; i++) {
        if (text[i] == '\\')
            i++;
        else if (text[i] == '"')
            return i + 1;
    }
    return len;
}

/* The second occurrence of a key in the object where the key starting at
 * `first` is: the next member of that object (not of one nested in it)
 * with the same name, or len. */
static size_t second_key(const char *text, size_t len, size_t first, const char *key)
{
    size_t key_len = strlen(key);
    int depth = 0;
    size_t i = string_end(text, len, first);
    while (i < len) {
        char ch = text[i];
        if (ch == '"') {
            size_t e = string_end(text, len, i);
            if (depth == 0 && e - i == key_len + 2 && memcmp(text + i + 1, key, key_len) == 0) {
                size_t j = e;
                while (j < len && (text[j] == ' ' || text[j] == '\t' || text[j] == '\r' || text[j] == '\n'))
                    j++;
                if (j < len && text[j] == ':')
                    return i;
            }
            i = e;
            continue;
        }
        if (ch == '{' || ch == '[')
            depth++;
        else if (ch == '}' || ch == ']') {
            if (depth == 0)
                return len;
            depth--;
        }
        i++;
    }
    return len;
}

/* "NAME: key 'P' appears twice" becomes "NAME:LINE:COL: ...", at the
 * second occurrence, the one cJSON would have ignored. */
static void locate_duplicate(ls_error *err, const char *name, const char *text, size_t len, const duplicate_key *dup)
{
    size_t parent = dup->parent[0] ? locate_path(text, len, dup->parent, strlen(dup->parent), 0) : 0;
    if (parent == len)
        return;
    size_t first = find_key(text, len, parent, dup->key, strlen(dup->key));
    if (first == len)
        return;
    size_t second = second_key(text, len, first, dup->key);
    if (second == len)
        return;
    size_t name_len = strlen(name);
    if (strncmp(err->message, name, name_len) != 0 || strncmp(err->message + name_len, ": ", 2) != 0)
        return;
    long line, column;
    position_of(text, second, &line, &column);
    char rest[sizeof err->message];
    snprintf(rest, sizeof rest, "%s", err->message + name_len);
    snprintf(err->message, sizeof err->message, "%s:%ld:%ld%s", name, line, column, rest);
}

void ls_json_error_locate(ls_error *err, const char *name, const char *text, size_t len)
{
    /* The message is "NAME: PATH: what" or "NAME: missing key 'PATH'". */
    size_t name_len = strlen(name);
    const char *m = err->message;
    if (err->code != LS_ERR_DATA || strncmp(m, name, name_len) != 0 || strncmp(m + name_len, ": ", 2) != 0)
        return;
    const char *p = m + name_len + 2;
    int missing = strncmp(p, "missing key '", 13) == 0, unknown = strncmp(p, "unknown key '", 13) == 0;
    if (missing || unknown)
        p += 13;
    size_t path_len = strspn(p, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.[]-");
    int quoted = missing || unknown;
    if (path_len == 0 || (!quoted && strncmp(p + path_len, ": ", 2) != 0) || (quoted && p[path_len] != '\''))
        return;
    size_t found = locate_path(text, len, p, path_len, missing);
    if (found == len)
        return;
    long line, column;
    position_of(text, found, &line, &column);
    char rest[sizeof err->message];
    snprintf(rest, sizeof rest, "%s", m + name_len);
    snprintf(err->message, sizeof err->message, "%s:%ld:%ld%s", name, line, column, rest);
}


void ls_json_key_origin(const char *text, size_t len, const char *name, const char *parent, const char *key,
                        char *out, size_t size)
{
    size_t at = 0, found = len;
    if (parent && (at = find_key(text, len, 0, parent, strlen(parent))) < len)
        found = at;
    if ((!parent || at < len) && key) {
        size_t k = find_key(text, len, parent ? at + 1 : 0, key, strlen(key));
        if (k < len)
            found = k;
    }
    if (found == len) {
        snprintf(out, size, "%s", name);
        return;
    }
    long line, column;
    position_of(text, found, &line, &column);
    snprintf(out, size, "%s:%ld:%ld", name, line, column);
}
