/* JSON Lines as CSV records (jsonl_internal.h).
 *
 * Each line is parsed here, by a small recursive-descent parser that writes
 * the flattened cells as it goes, rather than by building a cJSON tree: a
 * tree costs about 64 bytes a value, so a 16 MiB line of "0," would take
 * half a gigabyte, where the cells take at most a few times the line. */
#include "jsonl_internal.h"

#include <ctype.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "grow_internal.h"
#include "numtext_internal.h"
#include "text_internal.h"

#define JSONL_IN ((size_t)1 << 16) /* bytes asked of the source at a time */
#define JSONL_PATH_MAX 1024        /* a flattened key, with its NUL */
#define JSONL_DEPTH_MAX 512        /* objects within objects, as readfile.c allows */

/* A key path seen on some line (a.b.c), a column once it has held a value.
 * record and parent say where it last appeared, so that a key repeated
 * within one object is found without keeping each object's keys. */
typedef struct path_entry {
    size_t name, len; /* the name: names + name, NUL-terminated */
    size_t column;    /* SIZE_MAX: only ever an object */
    size_t record;    /* the record it last appeared in (0: none) */
    size_t parent;    /* the object it appeared in there, numbered within that record */
} path_entry;

struct jsonl_reader {
    jsonl_source src;
    char *name;
    int second; /* the second reading: the columns are known */
    /* Bytes from the source, in[in_pos..in_len) not yet used. */
    char *in;
    size_t in_len, in_pos;
    int in_eof;
    long line; /* line of the next byte */
    /* The current line, NUL-terminated. */
    char *text;
    size_t text_len, text_cap;
    /* Key paths: their names, entries, a hash table of entry + 1 (0:
     * empty, nslots a power of two at least twice npaths), and the
     * entry of each column. */
    char *names;
    size_t names_len, names_cap;
    path_entry *paths;
    size_t npaths, paths_cap;
    size_t *slots;
    size_t nslots;
    size_t *columns;
    size_t ncolumns, columns_cap;
    /* The current record: its number (counted over both readings), the
     * objects in it so far, and its cells as offsets into cells. */
    size_t record;
    size_t objects;
    char *cells;
    size_t cells_len, cells_cap;
    size_t *start, *cell_len; /* per column; start SIZE_MAX: absent */
    csv_field *fields;
    size_t start_cap, cell_len_cap, fields_cap;
    char *scratch; /* a key, a number's text */
    size_t scratch_len, scratch_cap;
    char path[JSONL_PATH_MAX];
    int header_given;
    long first_line;     /* of the first object */
    char first_text[48]; /* its start, for a message */
};

int ls_jsonl_name(const char *path)
{
    static const char *const ends[] = {".jsonl", ".ndjson", ".jsonl.gz", ".ndjson.gz"};
    size_t n = strlen(path);
    for (size_t i = 0; i < sizeof ends / sizeof *ends; i++) {
        size_t k = strlen(ends[i]);
        if (n > k && strcasecmp(path + n - k, ends[i]) == 0)
            return 1;
    }
    return 0;
}

/* ---- one line ----------------------------------------------------------- */

typedef struct parse {
    jsonl_reader *r;
    const char *t; /* the line, NUL-terminated */
    size_t n, i;   /* its length, and the position */
    long line;
    ls_error *err;
} parse;

static int fail(const parse *p, size_t at, const char *fmt, ...) LS_PRINTF(3, 4);

/* "FILE:LINE:COLUMN: what", the column counted in bytes from 1. */
static int fail(const parse *p, size_t at, const char *fmt, ...)
{
    char what[LS_ERROR_MESSAGE_MAX];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return ls_error_set(p->err, LS_ERR_DATA, "%s:%ld:%zu: %s", p->r->name, p->line, at + 1, what);
}

static int syntax_error(const parse *p, size_t at)
{
    /* Python's json module writes NaN and Infinity unless told not to: the
     * commonest way a dashboard export is not JSON. */
    static const char *const python_words[] = {"NaN", "Infinity", "-Infinity"};
    for (size_t k = 0; k < sizeof python_words / sizeof *python_words; k++) {
        size_t len = strlen(python_words[k]);
        if (p->n - at >= len && memcmp(p->t + at, python_words[k], len) == 0)
            return fail(p, at, "'%s' is not JSON (Python's json writes it unless allow_nan=False); JSON writes a "
                        "missing value as null", python_words[k]);
    }
    return fail(p, at, "not valid JSON");
}

static int out_of_memory(const parse *p) { return ls_error_set(p->err, LS_ERR_INTERNAL, "out of memory"); }

static void skip_blanks(parse *p)
{
    while (p->i < p->n && (p->t[p->i] == ' ' || p->t[p->i] == '\t' || p->t[p->i] == '\r' || p->t[p->i] == '\n'))
        p->i++;
}

static int hex4(const char *s, unsigned *out)
{
    unsigned v = 0;
    for (int k = 0; k < 4; k++) {
        char c = s[k];
        unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0')
                     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
                     : c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) : 16u;
        if (d == 16)
            return -1;
        v = v * 16 + d;
    }
    *out = v;
    return 0;
}

/* The string at p->i (a '"'), decoded, appended to *buf (*len bytes used
 * of *cap).  Decoded text is never longer than its JSON, so room for the
 * rest of the line is enough. */
static int parse_string(parse *p, char **buf, size_t *len, size_t *cap)
{
    if (ls_grow((void **)buf, cap, *len + (p->n - p->i) + 1, 1) != 0)
        return out_of_memory(p);
    char *o = *buf + *len;
    const unsigned char *t = (const unsigned char *)p->t;
    size_t i = p->i + 1;
    for (;;) {
        if (i >= p->n)
            return syntax_error(p, i);
        unsigned c = t[i];
        if (c == '"')
            break;
        if (c < 0x20)
            return fail(p, i, "control character 0x%02X in string (write it as \\u%04X)", c, c);
        if (c >= 0x80) {
            int k = ls_utf8_sequence(t + i);
            if (k <= 0)
                return fail(p, i, "invalid UTF-8 (byte 0x%02X) in string", c);
            memcpy(o, t + i, (size_t)k);
            o += k;
            i += (size_t)k;
            continue;
        }
        if (c != '\\') {
            *o++ = (char)c;
            i++;
            continue;
        }
        static const char escapes[] = "\"\\/bfnrt", meaning[] = "\"\\/\b\f\n\r\t";
        const char *e = i + 1 < p->n && t[i + 1] ? strchr(escapes, t[i + 1]) : NULL;
        if (e) {
            *o++ = meaning[e - escapes];
            i += 2;
            continue;
        }
        unsigned cp, low;
        if (i + 5 >= p->n || t[i + 1] != 'u' || hex4(p->t + i + 2, &cp) != 0)
            return syntax_error(p, i);
        if (cp == 0) /* a NUL would end the cell early: "dense\u0000evil" read as "dense" */
            return fail(p, i, "NUL character in string (\\u0000)");
        size_t used = 6;
        if (cp >= 0xDC00 && cp <= 0xDFFF)
            return syntax_error(p, i);
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (i + 11 >= p->n || t[i + 6] != '\\' || t[i + 7] != 'u' || hex4(p->t + i + 8, &low) != 0 ||
                low < 0xDC00 || low > 0xDFFF)
                return syntax_error(p, i);
            cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            used = 12;
        }
        if (cp < 0x80) {
            *o++ = (char)cp;
        } else if (cp < 0x800) {
            *o++ = (char)(0xC0 | cp >> 6);
            *o++ = (char)(0x80 | (cp & 0x3F));
        } else if (cp < 0x10000) {
            *o++ = (char)(0xE0 | cp >> 12);
            *o++ = (char)(0x80 | (cp >> 6 & 0x3F));
            *o++ = (char)(0x80 | (cp & 0x3F));
        } else {
            *o++ = (char)(0xF0 | cp >> 18);
            *o++ = (char)(0x80 | (cp >> 12 & 0x3F));
            *o++ = (char)(0x80 | (cp >> 6 & 0x3F));
            *o++ = (char)(0x80 | (cp & 0x3F));
        }
        i += used;
    }
    *len = (size_t)(o - *buf);
    (*buf)[*len] = '\0';
    p->i = i + 1;
    return 0;
}

static int is_digit(char c) { return c >= '0' && c <= '9'; }

/* A number as RFC 8259 writes it, to a double: one that is not zero but
 * rounds to zero, or overflows, is an error (1e-400 would read as 0). */
static int parse_number(parse *p, double *value)
{
    jsonl_reader *r = p->r;
    const char *t = p->t;
    size_t at = p->i, j = at;
    int nonzero = 0;
    if (t[j] == '-')
        j++;
    if (t[j] == '0')
        j++;
    else if (t[j] >= '1' && t[j] <= '9') {
        nonzero = 1;
        while (is_digit(t[j]))
            j++;
    } else
        return syntax_error(p, at);
    if (t[j] == '.') {
        if (!is_digit(t[++j]))
            return syntax_error(p, j);
        for (; is_digit(t[j]); j++)
            nonzero |= t[j] != '0';
    }
    if (t[j] == 'e' || t[j] == 'E') {
        j++;
        if (t[j] == '+' || t[j] == '-')
            j++;
        if (!is_digit(t[j]))
            return syntax_error(p, j);
        while (is_digit(t[j]))
            j++;
    }
    if (ls_grow((void **)&r->scratch, &r->scratch_cap, j - at + 1, 1) != 0)
        return out_of_memory(p);
    memcpy(r->scratch, t + at, j - at);
    r->scratch[j - at] = '\0';
    *value = strtod(r->scratch, NULL);
    if (!isfinite(*value) || (nonzero && *value == 0))
        return fail(p, at, "'%.60s%s' is outside double precision", r->scratch, j - at > 60 ? "..." : "");
    p->i = j;
    return 0;
}

static int append_cell_text(parse *p, const char *s, size_t n)
{
    jsonl_reader *r = p->r;
    if (ls_grow((void **)&r->cells, &r->cells_cap, r->cells_len + n + 1, 1) != 0)
        return out_of_memory(p);
    memcpy(r->cells + r->cells_len, s, n);
    r->cells_len += n;
    return 0;
}

/* A number, string, true, false or null at p->i, its text appended to the
 * cells (nothing for null). */
static int parse_scalar(parse *p)
{
    jsonl_reader *r = p->r;
    char c = p->t[p->i];
    if (c == '"')
        return parse_string(p, &r->cells, &r->cells_len, &r->cells_cap);
    if (c == '-' || is_digit(c)) {
        double v = 0;
        char num[NUMTEXT_DOUBLE_MAX];
        int status = parse_number(p, &v);
        if (status || !p->r->second) /* the first reading only checks the line */
            return status;
        ls_numtext_format_double(num, v);
        return append_cell_text(p, num, strlen(num));
    }
    static const char *const words[] = {"true", "false", "null"};
    for (int k = 0; k < 3; k++) {
        size_t len = strlen(words[k]);
        if (p->n - p->i >= len && memcmp(p->t + p->i, words[k], len) == 0) {
            p->i += len;
            return k < 2 ? append_cell_text(p, words[k], len) : 0;
        }
    }
    return syntax_error(p, p->i);
}

static size_t path_hash(const char *s, size_t n) /* FNV-1a */
{
    uint64_t h = 1469598103934665603u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ (unsigned char)s[i]) * 1099511628211u;
    return (size_t)h;
}

/* The slot of a path: where it is, or the empty slot where it would go. */
static size_t path_slot(const jsonl_reader *r, const char *s, size_t n)
{
    size_t mask = r->nslots - 1, i = path_hash(s, n) & mask;
    for (; r->slots[i]; i = (i + 1) & mask) {
        const path_entry *e = &r->paths[r->slots[i] - 1];
        if (e->len == n && memcmp(r->names + e->name, s, n) == 0)
            break;
    }
    return i;
}

/* A key on the second reading that the first did not see as such: the
 * input is not what it was. */
static int changed(const parse *p, size_t key_at)
{
    return fail(p, key_at, "key '%s' was not in the file when it was first read (it changed while being read)",
                p->r->path);
}

/* The entry of r->path (len bytes), added on the first reading when new. */
static int path_entry_of(parse *p, size_t len, size_t key_at, size_t *entry)
{
    jsonl_reader *r = p->r;
    size_t slot = r->nslots ? path_slot(r, r->path, len) : 0;
    if (r->nslots && r->slots[slot]) {
        *entry = r->slots[slot] - 1;
        return 0;
    }
    if (r->second)
        return changed(p, key_at);
    if (r->npaths == JSONL_COLUMNS_MAX)
        return fail(p, key_at, "key '%s': more than %zu distinct keys (nested ones included); a run table has far "
                    "fewer", r->path, JSONL_COLUMNS_MAX);
    if (r->names_len + len + 1 > LS_CSV_RECORD_MAX)
        return fail(p, key_at, "key '%s': the keys' names come to more than %zu MiB, the limit for a header",
                    r->path, LS_CSV_RECORD_MAX >> 20);
    if (2 * (r->npaths + 1) > r->nslots) {
        size_t n = r->nslots ? 2 * r->nslots : 64;
        size_t *slots = calloc(n, sizeof *slots);
        if (!slots)
            return out_of_memory(p);
        free(r->slots);
        r->slots = slots;
        r->nslots = n;
        for (size_t k = 0; k < r->npaths; k++)
            r->slots[path_slot(r, r->names + r->paths[k].name, r->paths[k].len)] = k + 1;
        slot = path_slot(r, r->path, len);
    }
    if (ls_grow((void **)&r->paths, &r->paths_cap, r->npaths + 1, sizeof *r->paths) != 0 ||
        ls_grow((void **)&r->names, &r->names_cap, r->names_len + len + 1, 1) != 0)
        return out_of_memory(p);
    memcpy(r->names + r->names_len, r->path, len + 1);
    r->paths[r->npaths] = (path_entry){r->names_len, len, SIZE_MAX, 0, 0};
    r->names_len += len + 1;
    r->slots[slot] = r->npaths + 1;
    *entry = r->npaths++;
    return 0;
}

/* A key of object `parent` whose path is r->path: the same key twice in
 * one object is an error (JSON parsers keep one of the two, silently). */
static int note_key(parse *p, size_t len, size_t parent, size_t key_at, size_t *entry)
{
    jsonl_reader *r = p->r;
    int status = path_entry_of(p, len, key_at, entry);
    if (status)
        return status;
    path_entry *e = &r->paths[*entry];
    if (e->record == r->record && e->parent == parent)
        return fail(p, key_at, "key '%s' appears twice", r->path);
    e->record = r->record;
    e->parent = parent;
    return 0;
}

/* The value of the key whose path is r->path: a scalar, or an array of
 * scalars, joined by ','. */
static int parse_leaf(parse *p, size_t len, size_t parent, size_t key_at)
{
    jsonl_reader *r = p->r;
    size_t entry;
    int status = note_key(p, len, parent, key_at, &entry);
    if (status)
        return status;
    size_t k = r->paths[entry].column;
    if (k == SIZE_MAX && r->second) /* only ever an object on the first reading */
        return changed(p, key_at);
    if (k == SIZE_MAX) { /* a new column */
        k = r->ncolumns;
        if (ls_grow((void **)&r->columns, &r->columns_cap, k + 1, sizeof *r->columns) != 0 ||
            ls_grow((void **)&r->start, &r->start_cap, k + 1, sizeof *r->start) != 0 ||
            ls_grow((void **)&r->cell_len, &r->cell_len_cap, k + 1, sizeof *r->cell_len) != 0 ||
            ls_grow((void **)&r->fields, &r->fields_cap, k + 1, sizeof *r->fields) != 0)
            return out_of_memory(p);
        r->columns[k] = entry;
        r->start[k] = SIZE_MAX;
        r->paths[entry].column = k;
        r->ncolumns++;
    }
    /* Two keys of the line that flatten to one name ("a.b" beside
     * {"a": {"b": ...}}) would give one column two values. */
    if (r->start[k] != SIZE_MAX)
        return fail(p, key_at, "key '%s' appears twice once nested keys are joined with '.'", r->path);
    r->start[k] = r->cells_len;
    if (p->t[p->i] != '[') {
        status = parse_scalar(p);
    } else {
        p->i++;
        skip_blanks(p);
        int first = 1;
        while (status == 0 && !(first && p->t[p->i] == ']')) {
            skip_blanks(p);
            if (p->t[p->i] == '{' || p->t[p->i] == '[')
                return fail(p, key_at, "key '%s': an array holding objects or arrays (a cell takes a number, a "
                            "string, or an array of them)", r->path);
            if (!first && (status = append_cell_text(p, ",", 1)) != 0)
                break;
            first = 0;
            if ((status = parse_scalar(p)) != 0)
                break;
            skip_blanks(p);
            if (p->t[p->i] == ']')
                break;
            if (p->t[p->i] != ',')
                return syntax_error(p, p->i);
            p->i++;
        }
        p->i++; /* the ']' */
    }
    if (status)
        return status;
    r->cell_len[k] = r->cells_len - r->start[k];
    if ((status = append_cell_text(p, "", 0)) != 0)
        return status;
    r->cells[r->cells_len++] = '\0';
    return 0;
}

/* The members of the object at p->i (a '{'), numbered id, whose path is
 * r->path[0..plen) (depth 1: the line's own object). */
static int parse_object(parse *p, size_t plen, size_t id, int depth)
{
    jsonl_reader *r = p->r;
    p->i++;
    skip_blanks(p);
    if (p->t[p->i] == '}') {
        p->i++;
        return 0;
    }
    for (;;) {
        skip_blanks(p);
        if (p->t[p->i] != '"')
            return syntax_error(p, p->i);
        size_t key_at = p->i;
        r->scratch_len = 0;
        int status = parse_string(p, &r->scratch, &r->scratch_len, &r->scratch_cap);
        if (status)
            return status;
        size_t len = plen + (depth > 1) + r->scratch_len;
        if (len >= JSONL_PATH_MAX)
            return fail(p, key_at, "key path longer than %d bytes", JSONL_PATH_MAX - 1);
        if (depth > 1)
            r->path[plen] = '.';
        memcpy(r->path + len - r->scratch_len, r->scratch, r->scratch_len + 1);
        skip_blanks(p);
        if (p->t[p->i] != ':')
            return syntax_error(p, p->i);
        p->i++;
        skip_blanks(p);
        if (p->t[p->i] == '{') {
            size_t entry;
            if (depth >= JSONL_DEPTH_MAX)
                return fail(p, p->i, "nested too deeply (more than %d levels)", JSONL_DEPTH_MAX);
            if ((status = note_key(p, len, id, key_at, &entry)) == 0)
                status = parse_object(p, len, ++r->objects, depth + 1);
        } else {
            status = parse_leaf(p, len, id, key_at);
        }
        if (status)
            return status;
        r->path[plen] = '\0';
        skip_blanks(p);
        if (p->t[p->i] == '}') {
            p->i++;
            return 0;
        }
        if (p->t[p->i] != ',')
            return syntax_error(p, p->i);
        p->i++;
    }
}

/* Parse r->text, the line at `line`, into the record's cells (and, on the
 * first reading, new columns). */
static int parse_line(jsonl_reader *r, long line, ls_error *err)
{
    parse p = {r, r->text, r->text_len, 0, line, err};
    r->record++;
    r->objects = 1;
    r->cells_len = 0;
    for (size_t k = 0; k < r->ncolumns; k++)
        r->start[k] = SIZE_MAX;
    r->path[0] = '\0';
    skip_blanks(&p);
    size_t at = p.i;
    int status;
    if (p.t[at] == '{') {
        status = parse_object(&p, 0, 1, 1);
        size_t last = p.n;
        while (last > at && isspace((unsigned char)p.t[last - 1]))
            last--;
        /* The line ended inside the object: "{" alone, a document spread
         * over lines (a law file, say). */
        if (status == LS_ERR_DATA && p.i >= last)
            return fail(&p, at, "an object that does not end on its line; JSON Lines has one whole object per line "
                        "(a run), not a JSON document spread over lines");
    } else if (p.t[at] == '[') {
        return fail(&p, at, "an array, not an object; JSON Lines has one object per line (a run)");
    } else {
        status = parse_scalar(&p);
        skip_blanks(&p);
        if (status == 0 && p.i == p.n)
            return fail(&p, at, "not an object; JSON Lines has one object per line (a run)");
    }
    skip_blanks(&p);
    if (status == 0 && p.i < p.n)
        status = fail(&p, p.i, "text after the end of the JSON document");
    return status;
}

/* ---- lines from the source --------------------------------------------- */

/* The next line that is not blank into r->text (without its line end):
 * 1 with *line set, 0 at the end of the input, or an error. */
static int next_line(jsonl_reader *r, long *line, ls_error *err)
{
    for (;;) {
        long at = r->line;
        int any = 0;
        r->text_len = 0;
        for (;;) {
            if (r->in_pos == r->in_len) {
                size_t n = 0;
                int status = r->in_eof ? 0 : r->src.read(r->src.ctx, r->in, JSONL_IN, &n, err);
                if (status)
                    return status;
                r->in_pos = 0;
                r->in_len = n;
                if (n == 0) {
                    r->in_eof = 1;
                    break;
                }
            }
            const char *s = r->in + r->in_pos;
            size_t avail = r->in_len - r->in_pos;
            const char *nl = memchr(s, '\n', avail);
            size_t take = nl ? (size_t)(nl - s) : avail;
            any = 1;
            if (r->text_len + take > LS_CSV_RECORD_MAX) {
                const char *head = r->text_len ? r->text : s;
                size_t shown = r->text_len ? r->text_len : take;
                return ls_error_set(err, LS_ERR_DATA, "%s:%ld:1: line longer than %zu MiB, the limit for one "
                                    "record: '%.*s...'", r->name, at, LS_CSV_RECORD_MAX >> 20,
                                    (int)(shown < 40 ? shown : 40), head);
            }
            if (ls_grow((void **)&r->text, &r->text_cap, r->text_len + take + 1, 1) != 0)
                return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
            memcpy(r->text + r->text_len, s, take);
            r->text_len += take;
            r->in_pos += take + (nl != NULL);
            if (nl) {
                r->line++;
                break;
            }
        }
        if (!any)
            return 0;
        while (r->text_len && r->text[r->text_len - 1] == '\r')
            r->text_len--;
        r->text[r->text_len] = '\0';
        const char *nul = memchr(r->text, '\0', r->text_len);
        if (nul)
            return ls_error_set(err, LS_ERR_DATA, "%s:%ld:%zu: binary data (a NUL byte); not JSON Lines", r->name, at,
                                (size_t)(nul - r->text) + 1);
        size_t i = 0;
        while (i < r->text_len && (r->text[i] == ' ' || r->text[i] == '\t' || r->text[i] == '\r'))
            i++;
        if (i == r->text_len)
            continue;
        *line = at;
        return 1;
    }
}

jsonl_reader *ls_jsonl_open(const jsonl_source *src, const char *name, size_t max_records, size_t before,
                            ls_error *err)
{
    jsonl_reader *r = calloc(1, sizeof *r);
    if (!r || !(r->name = strdup(name)) || !(r->in = malloc(JSONL_IN))) {
        ls_jsonl_close(r);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        return NULL;
    }
    r->src = *src;
    r->line = 1;
    size_t nrecords = 0;
    long line;
    int status;
    while ((status = next_line(r, &line, err)) == 1) {
        if (max_records && before + nrecords >= max_records) {
            /* Every line is read before the first record is handed out (its
             * columns must be known), so the limit counts lines here. */
            status = ls_error_set(err, LS_ERR_DATA, "%s:%ld: more than %zu rows, the limit for a sweep held in "
                                  "memory", r->name, line, max_records);
            break;
        }
        if (nrecords++ == 0) {
            r->first_line = line;
            snprintf(r->first_text, sizeof r->first_text, "%.*s%s", (int)(sizeof r->first_text - 4), r->text,
                     r->text_len > sizeof r->first_text - 4 ? "..." : "");
        }
        if ((status = parse_line(r, line, err)) != 0)
            break;
    }
    if (status == 0 && nrecords == 0)
        status = ls_error_set(err, LS_ERR_DATA, "%s: empty file (no JSON object)", r->name);
    else if (status == 0 && r->ncolumns == 0)
        status = ls_error_set(err, LS_ERR_DATA, "%s:%ld:1: '%s' has no key with a value, and neither has any of the "
                              "other %zu lines: no column to read", r->name, r->first_line, r->first_text,
                              nrecords - 1);
    if (status == 0)
        status = r->src.rewind(r->src.ctx, err);
    if (status != 0) {
        ls_jsonl_close(r);
        return NULL;
    }
    r->second = 1;
    r->in_pos = r->in_len = 0;
    r->in_eof = 0;
    r->line = 1;
    return r;
}

int ls_jsonl_next(jsonl_reader *r, const csv_field **fields, size_t *nfields, long *line, ls_error *err)
{
    if (!r->header_given) {
        r->header_given = 1;
        for (size_t k = 0; k < r->ncolumns; k++) {
            const path_entry *e = &r->paths[r->columns[k]];
            r->fields[k] = (csv_field){r->names + e->name, e->len};
        }
        *fields = r->fields;
        *nfields = r->ncolumns;
        *line = r->first_line;
        return 1;
    }
    long at;
    int status = next_line(r, &at, err);
    if (status <= 0)
        return status;
    if ((status = parse_line(r, at, err)) != 0)
        return status;
    for (size_t k = 0; k < r->ncolumns; k++)
        r->fields[k] = r->start[k] == SIZE_MAX ? (csv_field){"", 0}
                                               : (csv_field){r->cells + r->start[k], r->cell_len[k]};
    *fields = r->fields;
    *nfields = r->ncolumns;
    *line = at;
    return 1;
}

void ls_jsonl_close(jsonl_reader *r)
{
    if (!r)
        return;
    free(r->name);
    free(r->in);
    free(r->text);
    free(r->names);
    free(r->paths);
    free(r->slots);
    free(r->columns);
    free(r->cells);
    free(r->start);
    free(r->cell_len);
    free(r->fields);
    free(r->scratch);
    free(r);
}
