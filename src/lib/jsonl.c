/* JSON Lines as CSV records (jsonl_internal.h). */
#include "jsonl_internal.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <cjson/cJSON.h>

#include "grow_internal.h"
#include "numtext_internal.h"
#include "readfile_internal.h"

struct jsonl_reader {
    char *text;
    size_t len, pos;
    long line; /* line of text[pos] */
    char *name;
    char **keys; /* columns, in order of first appearance */
    size_t nkeys, keys_cap;
    /* key -> column: open addressing, linear probing; each slot holds a
     * column + 1 (0: empty); nslots a power of two, at least twice nkeys. */
    size_t *slots;
    size_t nslots;
    int header_given;
    /* The current record: cells as offsets into buf, NUL-terminated. */
    char *buf;
    size_t buf_len, buf_cap;
    size_t *start, *cell_len; /* per column; start SIZE_MAX: absent */
    csv_field *fields;
    size_t start_cap, cell_len_cap, fields_cap;
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

/* Parse one line (text[0..len), at line `line`) as a JSON object, with
 * readfile's strict checks; their "NAME:1:COL:" becomes "FILE:LINE:COL:". */
static cJSON *parse_line(const jsonl_reader *r, const char *text, size_t len, long line, ls_error *err)
{
    /* A name no file has, printable (messages quote control characters). */
    static const char mark[] = "<jsonl line>";
    const size_t n = sizeof mark - 1;
    cJSON *root = ls_parse_json_text(text, len, mark, err);
    if (!root) {
        char rest[LS_ERROR_MESSAGE_MAX];
        const char *m = err->message;
        if (strncmp(m, mark, n) == 0 && strncmp(m + n, ":1:", 3) == 0)
            snprintf(rest, sizeof rest, "%s", m + n + 3);
        else if (strncmp(m, mark, n) == 0 && m[n] == ':')
            snprintf(rest, sizeof rest, "%s", m + n + 1);
        else
            snprintf(rest, sizeof rest, " %s", m);
        int code = err->code;
        ls_error_set(err, code, "%s:%ld:%s", r->name, line, rest);
        return NULL;
    }
    if (!cJSON_IsObject(root)) {
        size_t col = 1;
        while (col <= len && isspace((unsigned char)text[col - 1]))
            col++;
        cJSON_Delete(root);
        ls_error_set(err, LS_ERR_DATA, "%s:%ld:%zu: %s; JSON Lines has one object per line (a run)", r->name, line,
                     col, text[col - 1] == '[' ? "an array, not an object" : "not an object");
        return NULL;
    }
    return root;
}

/* Column of key `key` (its last component) in the line, for messages: the
 * first place its quoted text appears, else 1. */
static size_t column_of_key(const char *text, size_t len, const char *key)
{
    const char *dot = strrchr(key, '.');
    const char *last = dot ? dot + 1 : key;
    size_t k = strlen(last);
    for (size_t i = 0; i + k + 2 <= len; i++)
        if (text[i] == '"' && memcmp(text + i + 1, last, k) == 0 && text[i + k + 1] == '"')
            return i + 1;
    return 1;
}

typedef struct walk {
    jsonl_reader *r;
    const char *line_text;
    size_t line_len;
    long line;
    int fill; /* 0: collect the keys; 1: fill the record's cells */
    char path[1024];
    ls_error *err;
} walk;

static size_t key_hash(const char *key) /* FNV-1a */
{
    uint64_t h = 1469598103934665603u;
    for (const unsigned char *p = (const unsigned char *)key; *p; p++)
        h = (h ^ *p) * 1099511628211u;
    return (size_t)h;
}

/* The slot of key: where it is, or the empty slot where it would go. */
static size_t key_slot(const jsonl_reader *r, const char *key)
{
    size_t mask = r->nslots - 1, i = key_hash(key) & mask;
    while (r->slots[i] && strcmp(r->keys[r->slots[i] - 1], key) != 0)
        i = (i + 1) & mask;
    return i;
}

static long key_index(const jsonl_reader *r, const char *key)
{
    if (r->nslots == 0)
        return -1;
    size_t slot = r->slots[key_slot(r, key)];
    return slot ? (long)slot - 1 : -1;
}

/* Add key (not yet a column) as the last column. */
static int key_add(jsonl_reader *r, const char *key, ls_error *err)
{
    if (2 * (r->nkeys + 1) > r->nslots) {
        size_t n = r->nslots ? 2 * r->nslots : 64;
        size_t *slots = calloc(n, sizeof *slots);
        if (!slots)
            return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        free(r->slots);
        r->slots = slots;
        r->nslots = n;
        for (size_t i = 0; i < r->nkeys; i++)
            r->slots[key_slot(r, r->keys[i])] = i + 1;
    }
    if (ls_grow((void **)&r->keys, &r->keys_cap, r->nkeys + 1, sizeof *r->keys) != 0 ||
        !(r->keys[r->nkeys] = strdup(key)))
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    r->slots[key_slot(r, key)] = r->nkeys + 1;
    r->nkeys++;
    return 0;
}

static int append_text(jsonl_reader *r, const char *s, size_t n, ls_error *err)
{
    if (ls_grow((void **)&r->buf, &r->buf_cap, r->buf_len + n + 1, 1) != 0)
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    memcpy(r->buf + r->buf_len, s, n);
    r->buf_len += n;
    r->buf[r->buf_len] = '\0';
    return 0;
}

/* A scalar's text appended to the record buffer. */
static int append_scalar(walk *w, const cJSON *item, int *ok)
{
    char num[NUMTEXT_DOUBLE_MAX];
    *ok = 1;
    if (cJSON_IsNumber(item)) {
        ls_numtext_format_double(num, item->valuedouble);
        return append_text(w->r, num, strlen(num), w->err);
    }
    if (cJSON_IsString(item))
        return append_text(w->r, item->valuestring, strlen(item->valuestring), w->err);
    if (cJSON_IsBool(item))
        return cJSON_IsTrue(item) ? append_text(w->r, "true", 4, w->err) : append_text(w->r, "false", 5, w->err);
    if (cJSON_IsNull(item))
        return 0;
    *ok = 0;
    return 0;
}

static int visit(walk *w, const cJSON *obj, size_t plen)
{
    jsonl_reader *r = w->r;
    for (const cJSON *c = obj->child; c; c = c->next) {
        size_t klen = strlen(c->string);
        if (plen + klen + 2 > sizeof w->path)
            return ls_error_set(w->err, LS_ERR_DATA, "%s:%ld:%zu: key path longer than %zu bytes", r->name, w->line,
                                column_of_key(w->line_text, w->line_len, c->string), sizeof w->path - 1);
        size_t n = plen;
        if (plen)
            w->path[n++] = '.';
        memcpy(w->path + n, c->string, klen + 1);
        n += klen;
        if (cJSON_IsObject(c)) {
            int status = visit(w, c, n);
            if (status)
                return status;
            w->path[plen] = '\0';
            continue;
        }
        long k = key_index(r, w->path);
        if (!w->fill) {
            if (k < 0) {
                int status = key_add(r, w->path, w->err);
                if (status)
                    return status;
            }
        } else {
            /* Two keys of the object that flatten to one name ("a.b" beside
             * {"a": {"b": ...}}) would give one column two values. */
            if (r->start[k] != (size_t)-1)
                return ls_error_set(w->err, LS_ERR_DATA,
                                    "%s:%ld:%zu: key '%s' appears twice once nested keys are joined with '.'",
                                    r->name, w->line, column_of_key(w->line_text, w->line_len, c->string), w->path);
            r->start[k] = r->buf_len;
            int ok = 1, status = 0;
            if (cJSON_IsArray(c)) {
                for (const cJSON *e = c->child; e && ok && status == 0; e = e->next) {
                    if (e != c->child)
                        status = append_text(r, ",", 1, w->err);
                    if (status == 0)
                        status = append_scalar(w, e, &ok);
                }
            } else {
                status = append_scalar(w, c, &ok);
            }
            if (status)
                return status;
            if (!ok)
                return ls_error_set(w->err, LS_ERR_DATA,
                                    "%s:%ld:%zu: key '%s': an array holding objects or arrays (a cell takes a "
                                    "number, a string, or an array of them)",
                                    r->name, w->line, column_of_key(w->line_text, w->line_len, c->string), w->path);
            r->cell_len[k] = r->buf_len - r->start[k];
            if (append_text(r, "", 0, w->err) != 0)
                return LS_ERR_INTERNAL;
            r->buf_len++; /* keep the NUL between cells */
        }
        w->path[plen] = '\0';
    }
    return 0;
}

/* The next non-blank line from pos: its text and line number; 0 at the end. */
static int next_line(jsonl_reader *r, const char **text, size_t *len, long *line)
{
    while (r->pos < r->len) {
        const char *p = r->text + r->pos;
        const char *nl = memchr(p, '\n', r->len - r->pos);
        size_t n = nl ? (size_t)(nl - p) : r->len - r->pos;
        r->pos += n + (nl != NULL);
        long at = r->line++;
        size_t m = n;
        while (m && (p[m - 1] == '\r'))
            m--;
        size_t i = 0;
        while (i < m && isspace((unsigned char)p[i]))
            i++;
        if (i == m)
            continue;
        *text = p;
        *len = m;
        *line = at;
        return 1;
    }
    return 0;
}

jsonl_reader *ls_jsonl_open(char *text, size_t len, const char *name, ls_error *err)
{
    jsonl_reader *r = calloc(1, sizeof *r);
    if (!r || !(r->name = strdup(name))) {
        free(text);
        free(r);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        return NULL;
    }
    r->text = text;
    r->len = len;
    r->line = 1;
    const char *t;
    size_t n;
    long line;
    walk w = {.r = r, .err = err};
    while (next_line(r, &t, &n, &line)) {
        cJSON *root = parse_line(r, t, n, line, err);
        if (!root) {
            ls_jsonl_close(r);
            return NULL;
        }
        w.line_text = t;
        w.line_len = n;
        w.line = line;
        w.path[0] = '\0';
        w.fill = 0;
        int status = visit(&w, root, 0);
        /* The line's cells too, so that a key repeated once flattened or an
         * array of objects is found here, before the header is used. */
        if (status == 0 && (ls_grow((void **)&r->start, &r->start_cap, r->nkeys + 1, sizeof *r->start) != 0 ||
                            ls_grow((void **)&r->cell_len, &r->cell_len_cap, r->nkeys + 1, sizeof *r->cell_len) != 0 ||
                            ls_grow((void **)&r->fields, &r->fields_cap, r->nkeys + 1, sizeof *r->fields) != 0))
            status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        if (status == 0) {
            for (size_t i = 0; i < r->nkeys; i++)
                r->start[i] = (size_t)-1;
            r->buf_len = 0;
            w.fill = 1;
            w.path[0] = '\0';
            status = visit(&w, root, 0);
        }
        cJSON_Delete(root);
        if (status) {
            ls_jsonl_close(r);
            return NULL;
        }
    }
    r->pos = 0;
    r->line = 1;
    return r;
}

int ls_jsonl_next(jsonl_reader *r, const csv_field **fields, size_t *nfields, long *line, ls_error *err)
{
    const char *t;
    size_t n;
    long at;
    if (!r->header_given) {
        r->header_given = 1;
        if (r->nkeys == 0)
            return 0; /* no object: an empty file */
        /* The header: the line of the first object. */
        size_t save_pos = r->pos;
        long save_line = r->line;
        *line = next_line(r, &t, &n, &at) ? at : 1;
        r->pos = save_pos;
        r->line = save_line;
        for (size_t i = 0; i < r->nkeys; i++)
            r->fields[i] = (csv_field){r->keys[i], strlen(r->keys[i])};
        *fields = r->fields;
        *nfields = r->nkeys;
        return 1;
    }
    if (!next_line(r, &t, &n, &at))
        return 0;
    cJSON *root = parse_line(r, t, n, at, err);
    if (!root)
        return err->code;
    for (size_t i = 0; i < r->nkeys; i++)
        r->start[i] = (size_t)-1;
    r->buf_len = 0;
    walk w = {.r = r, .line_text = t, .line_len = n, .line = at, .fill = 1, .err = err};
    int status = visit(&w, root, 0);
    cJSON_Delete(root);
    if (status)
        return status;
    for (size_t i = 0; i < r->nkeys; i++)
        r->fields[i] = r->start[i] == (size_t)-1 ? (csv_field){"", 0} : (csv_field){r->buf + r->start[i], r->cell_len[i]};
    *fields = r->fields;
    *nfields = r->nkeys;
    *line = at;
    return 1;
}

void ls_jsonl_close(jsonl_reader *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->nkeys; i++)
        free(r->keys[i]);
    free(r->keys);
    free(r->slots);
    free(r->text);
    free(r->name);
    free(r->buf);
    free(r->start);
    free(r->cell_len);
    free(r->fields);
    free(r);
}
