#include "tokcsv_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "csv_internal.h"
#include "numtext_internal.h"

/* Bounds that keep one token's block small whatever the file says. */
#define TOKCSV_INDEX_LIMIT 65536L
#define TOKCSV_CELLS_LIMIT ((size_t)1 << 24)

typedef struct pending_row {
    long token, line;
    size_t idx[TOKCSV_MAX_INDEX]; /* from 0 */
} pending_row;

struct tokcsv {
    csv_reader *csv;
    tokcsv_layout layout;
    size_t nvalues, nfields;
    char header[160]; /* the header the layout needs, for messages */
    int dims_known;
    size_t dims[TOKCSV_MAX_INDEX];
    size_t ncells;
    double *block;
    long *cell_line; /* line that gave each cell of the current token, 0 if none */
    int has_pending, seen_rows;
    pending_row pending;
    double *pending_values;
    /* The first token, held row by row until its extents are known. */
    pending_row *first;
    double *first_values;
    size_t nfirst, first_cap;
};

static const char *value_name(const tokcsv *t, size_t v, char *buf, size_t size)
{
    if (t->layout.value_names)
        return t->layout.value_names[v];
    snprintf(buf, size, "%s%zu", t->layout.value_prefix, v);
    return buf;
}

static void describe_header(tokcsv *t)
{
    size_t used = (size_t)snprintf(t->header, sizeof t->header, "token");
    for (size_t i = 0; i < t->layout.nindex && used < sizeof t->header; i++)
        used += (size_t)snprintf(t->header + used, sizeof t->header - used, ",%s", t->layout.index_names[i]);
    if (used >= sizeof t->header)
        return;
    if (t->layout.value_names) {
        for (size_t v = 0; v < t->layout.nvalues && used < sizeof t->header; v++)
            used += (size_t)snprintf(t->header + used, sizeof t->header - used, ",%s", t->layout.value_names[v]);
    } else {
        snprintf(t->header + used, sizeof t->header - used, ",%s0,%s1,...", t->layout.value_prefix,
                 t->layout.value_prefix);
    }
}

static int check_header(tokcsv *t, ls_error *err)
{
    const csv_field *f;
    size_t n;
    int status = ls_csv_next(t->csv, &f, &n, err);
    if (status < 0)
        return status;
    if (status == 0)
        return ls_error_set(err, LS_ERR_DATA, "%s: empty file (no header row)", ls_csv_name(t->csv));
    long line = ls_csv_line(t->csv);
    size_t fixed = 1 + t->layout.nindex;
    size_t want = t->layout.value_names ? fixed + t->layout.nvalues : 0;
    if (n < fixed + 1 || (want && n != want))
        return ls_error_set(err, LS_ERR_DATA, "%s:%ld: %zu columns; the header must be %s", ls_csv_name(t->csv), line, n,
                            t->header);
    t->nfields = n;
    t->nvalues = n - fixed;
    for (size_t j = 0; j < n; j++) {
        char buf[32];
        const char *name = j == 0 ? "token" : j < fixed ? t->layout.index_names[j - 1] : value_name(t, j - fixed, buf, sizeof buf);
        if (!ls_csv_field_equals(f[j], name))
            return ls_error_set(err, LS_ERR_DATA, "%s:%ld: column %zu is '%.*s' where '%s' belongs; the header must be %s",
                                ls_csv_name(t->csv), line, j + 1, (int)f[j].len, f[j].ptr, name, t->header);
    }
    return 0;
}

tokcsv *ls_tokcsv_open(const char *path, const tokcsv_layout *layout, ls_error *err)
{
    ls_input in;
    if (ls_input_open(path, &in, err) != 0)
        return NULL;
    return ls_tokcsv_open_input(&in, layout, err);
}

tokcsv *ls_tokcsv_open_input(ls_input *in, const tokcsv_layout *layout, ls_error *err)
{
    if (layout->nindex > TOKCSV_MAX_INDEX) {
        ls_input_close(in);
        ls_error_set(err, LS_ERR_INTERNAL, "tokcsv: too many index columns");
        return NULL;
    }
    tokcsv *t = calloc(1, sizeof *t);
    if (!t) {
        ls_input_close(in);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        return NULL;
    }
    t->layout = *layout;
    describe_header(t);
    t->csv = ls_csv_open_input(in, err);
    if (!t->csv || check_header(t, err) != 0) {
        ls_tokcsv_close(t);
        return NULL;
    }
    t->pending_values = malloc(t->nvalues * sizeof *t->pending_values);
    if (!t->pending_values) {
        ls_tokcsv_close(t);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        return NULL;
    }
    return t;
}

void ls_tokcsv_close(tokcsv *t)
{
    if (!t)
        return;
    ls_csv_close(t->csv);
    free(t->block);
    free(t->cell_line);
    free(t->pending_values);
    free(t->first);
    free(t->first_values);
    free(t);
}

size_t ls_tokcsv_nvalues(const tokcsv *t) { return t->nvalues; }
const size_t *ls_tokcsv_dims(const tokcsv *t) { return t->dims; }
const char *ls_tokcsv_name(const tokcsv *t) { return ls_csv_name(t->csv); }

static int field_error(const tokcsv *t, long line, const char *column, csv_field f, const char *reason, ls_error *err)
{
    return ls_error_set(err, LS_ERR_DATA, "%s:%ld: column '%s': '%.*s' %s", ls_csv_name(t->csv), line, column,
                        (int)f.len, f.ptr, reason);
}

/* An integer field: plain digits are read here (token and loop numbers
 * fill most of a large file, and strtod is slow), anything else through
 * numtext, which also gives the reason for a refusal. */
static numtext_status parse_index(csv_field f, long *out)
{
    if (f.len > 0 && f.len < 19) {
        long v = 0;
        size_t i = 0;
        while (i < f.len && f.ptr[i] >= '0' && f.ptr[i] <= '9')
            v = v * 10 + (f.ptr[i++] - '0');
        if (i == f.len) {
            *out = v;
            return NUMTEXT_OK;
        }
    }
    return ls_numtext_parse_long(f.ptr, f.len, out);
}

/* Read and check the next row into t->pending. 1, 0 at the end, or error. */
static int read_row(tokcsv *t, ls_error *err)
{
    const csv_field *f;
    size_t n;
    int status = ls_csv_next(t->csv, &f, &n, err);
    if (status <= 0)
        return status;
    pending_row *p = &t->pending;
    p->line = ls_csv_line(t->csv);
    if (n != t->nfields)
        return ls_error_set(err, LS_ERR_DATA, "%s:%ld: %zu fields, but the header has %zu", ls_csv_name(t->csv), p->line,
                            n, t->nfields);
    numtext_status st = parse_index(f[0], &p->token);
    if (st != NUMTEXT_OK)
        return field_error(t, p->line, "token", f[0], ls_numtext_reason(st), err);
    if (p->token < 0)
        return field_error(t, p->line, "token", f[0], "must not be negative", err);
    for (size_t i = 0; i < t->layout.nindex; i++) {
        const char *name = t->layout.index_names[i];
        long v = 0;
        st = parse_index(f[1 + i], &v);
        if (st != NUMTEXT_OK)
            return field_error(t, p->line, name, f[1 + i], ls_numtext_reason(st), err);
        if (v < 1 || v > TOKCSV_INDEX_LIMIT) {
            char reason[96];
            if (v < 1)
                snprintf(reason, sizeof reason, "is out of range: %ss are counted from 1", name);
            else
                snprintf(reason, sizeof reason, "is out of range 1..%ld", TOKCSV_INDEX_LIMIT);
            return field_error(t, p->line, name, f[1 + i], reason, err);
        }
        p->idx[i] = (size_t)(v - 1);
    }
    size_t first_value = 1 + t->layout.nindex;
    for (size_t v = 0; v < t->nvalues; v++) {
        csv_field cell = f[first_value + v];
        char buf[32];
        st = ls_numtext_parse_double(cell.ptr, cell.len, &t->pending_values[v]);
        if (st != NUMTEXT_OK)
            return field_error(t, p->line, value_name(t, v, buf, sizeof buf), cell, ls_numtext_reason(st), err);
        if (t->layout.nonnegative && t->pending_values[v] < 0)
            return field_error(t, p->line, value_name(t, v, buf, sizeof buf), cell, "must not be negative", err);
    }
    t->seen_rows = 1;
    return 1;
}

static void position_text(const tokcsv *t, const size_t *idx, char *buf, size_t size)
{
    size_t used = 0;
    for (size_t i = 0; i < t->layout.nindex && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%s %zu", i ? ", " : "", t->layout.index_names[i],
                                 idx[i] + 1);
}

/* Store one row of the current token in the block. */
static int place(tokcsv *t, const pending_row *row, const double *values, ls_error *err)
{
    size_t cell = 0;
    for (size_t i = 0; i < t->layout.nindex; i++) {
        if (row->idx[i] >= t->dims[i])
            return ls_error_set(err, LS_ERR_DATA, "%s:%ld: column '%s': %zu is out of range 1..%zu (as in the first token)",
                                ls_csv_name(t->csv), row->line, t->layout.index_names[i], row->idx[i] + 1, t->dims[i]);
        cell = cell * t->dims[i] + row->idx[i];
    }
    if (t->cell_line[cell] != 0) {
        char pos[96];
        position_text(t, row->idx, pos, sizeof pos);
        return ls_error_set(err, LS_ERR_DATA, "%s:%ld: token %ld has %s twice (also on line %ld)", ls_csv_name(t->csv),
                            row->line, row->token, pos, t->cell_line[cell]);
    }
    t->cell_line[cell] = row->line;
    memcpy(t->block + cell * t->nvalues, values, t->nvalues * sizeof *values);
    return 0;
}

static int check_complete(const tokcsv *t, long token, long last_line, ls_error *err)
{
    for (size_t cell = 0; cell < t->ncells; cell++) {
        if (t->cell_line[cell] != 0)
            continue;
        size_t idx[TOKCSV_MAX_INDEX], rest = cell;
        for (size_t i = t->layout.nindex; i-- > 0;) {
            idx[i] = rest % t->dims[i];
            rest /= t->dims[i];
        }
        char pos[96];
        position_text(t, idx, pos, sizeof pos);
        return ls_error_set(err, LS_ERR_DATA, "%s:%ld: token %ld has no row for %s", ls_csv_name(t->csv), last_line, token,
                            pos);
    }
    return 0;
}

static int keep_first(tokcsv *t, ls_error *err)
{
    if (t->nfirst == t->first_cap) {
        size_t cap = t->first_cap ? 2 * t->first_cap : 64;
        if (cap > TOKCSV_CELLS_LIMIT)
            return ls_error_set(err, LS_ERR_DATA, "%s:%ld: token %ld has more than %zu rows", ls_csv_name(t->csv),
                                t->pending.line, t->pending.token, TOKCSV_CELLS_LIMIT);
        pending_row *rows = realloc(t->first, cap * sizeof *rows);
        if (rows)
            t->first = rows;
        double *values = rows ? realloc(t->first_values, cap * t->nvalues * sizeof *values) : NULL;
        if (!values)
            return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        t->first_values = values;
        t->first_cap = cap;
    }
    t->first[t->nfirst] = t->pending;
    memcpy(t->first_values + t->nfirst * t->nvalues, t->pending_values, t->nvalues * sizeof *t->pending_values);
    t->nfirst++;
    return 0;
}

/* The first token's extents are the largest index of each column. */
static int fix_dims(tokcsv *t, ls_error *err)
{
    t->ncells = 1;
    for (size_t i = 0; i < t->layout.nindex; i++) {
        t->dims[i] = 0;
        for (size_t r = 0; r < t->nfirst; r++)
            if (t->first[r].idx[i] + 1 > t->dims[i])
                t->dims[i] = t->first[r].idx[i] + 1;
        t->ncells *= t->dims[i];
        if (t->ncells > TOKCSV_CELLS_LIMIT)
            return ls_error_set(err, LS_ERR_DATA, "%s: the first token spans more than %zu positions", ls_csv_name(t->csv),
                                TOKCSV_CELLS_LIMIT);
    }
    t->block = malloc(t->ncells * t->nvalues * sizeof *t->block);
    t->cell_line = calloc(t->ncells, sizeof *t->cell_line);
    if (!t->block || !t->cell_line)
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    t->dims_known = 1;
    for (size_t r = 0; r < t->nfirst; r++) {
        int status = place(t, &t->first[r], t->first_values + r * t->nvalues, err);
        if (status != 0)
            return status;
    }
    free(t->first);
    free(t->first_values);
    t->first = NULL;
    t->first_values = NULL;
    return 0;
}

int ls_tokcsv_next(tokcsv *t, long *token, const double **block, ls_error *err)
{
    if (!t->has_pending) {
        int status = read_row(t, err);
        if (status < 0)
            return status;
        if (status == 0) {
            if (!t->seen_rows)
                return ls_error_set(err, LS_ERR_DATA, "%s: no rows after the header", ls_csv_name(t->csv));
            return 0;
        }
        t->has_pending = 1;
    }
    long current = t->pending.token, last_line = t->pending.line;
    int first_token = !t->dims_known;
    if (!first_token)
        memset(t->cell_line, 0, t->ncells * sizeof *t->cell_line);
    for (;;) {
        int status = first_token ? keep_first(t, err) : place(t, &t->pending, t->pending_values, err);
        if (status != 0)
            return status;
        last_line = t->pending.line;
        status = read_row(t, err);
        if (status < 0)
            return status;
        if (status == 0) {
            t->has_pending = 0;
            break;
        }
        if (t->pending.token < current)
            return ls_error_set(err, LS_ERR_DATA,
                                "%s:%ld: token %ld comes after token %ld (rows must be grouped by token, tokens "
                                "increasing)",
                                ls_csv_name(t->csv), t->pending.line, t->pending.token, current);
        if (t->pending.token != current)
            break;
    }
    if (first_token) {
        int status = fix_dims(t, err);
        if (status != 0)
            return status;
    }
    int status = check_complete(t, current, last_line, err);
    if (status != 0)
        return status;
    *token = current;
    *block = t->block;
    return 1;
}
