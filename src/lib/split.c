/* The runs of a sweep split into groups by columns' values (loopscale/split.h). */
#include "loopscale/split.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loopscale/group.h"
#include "numtext_internal.h"

/* Row r's cell of by-column c, as read (a filter compares the cell's text
 * as it is, so a group's text is too), and its length. */
static const char *by_cell(const ls_sweep *s, size_t r, size_t c, size_t *len)
{
    const char *p = s->by_text + s->by_of_row[r];
    for (size_t i = 0; i < c; i++)
        p += strlen(p) + 1;
    *len = strlen(p);
    return p;
}

/* "COL==TEXT", quoted as a filter needs it to compare exactly this text:
 * when TEXT has blanks around it, starts with a quote, or reads as a
 * number (a filter would compare it as one). */
static char *text_condition(const char *column, const char *value)
{
    size_t len = strlen(value);
    double x;
    int quote = len == 0 || isspace((unsigned char)value[0]) || isspace((unsigned char)value[len - 1]) ||
                value[0] == '\'' || value[0] == '"' || ls_numtext_parse_count(value, len, &x) == NUMTEXT_OK;
    char q = strchr(value, '\'') ? '"' : '\'';
    size_t n = strlen(column) + len + 5;
    char *t = malloc(n);
    if (t && quote)
        snprintf(t, n, "%s==%c%s%c", column, q, value, q);
    else if (t)
        snprintf(t, n, "%s==%s", column, value);
    return t;
}

typedef struct text_key {
    const char *p;
    size_t len;
    size_t row;
} text_key;

static int compare_text_keys(const void *a, const void *b)
{
    const text_key *x = a, *y = b;
    size_t n = x->len < y->len ? x->len : y->len;
    int c = memcmp(x->p, y->p, n);
    if (c)
        return c;
    if (x->len != y->len)
        return x->len < y->len ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

/* A row and its tuple of per-column ids, sorted by the tuple (then by row,
 * for a stable order). */
typedef struct tuple_row {
    const size_t *ids;
    size_t ncolumns;
    size_t row;
} tuple_row;

static int compare_tuples(const void *a, const void *b)
{
    const tuple_row *x = a, *y = b;
    for (size_t c = 0; c < x->ncolumns; c++)
        if (x->ids[c] != y->ids[c])
            return x->ids[c] < y->ids[c] ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

static char *text_dup(const char *p, size_t len)
{
    char *t = malloc(len + 1);
    if (t) {
        memcpy(t, p, len);
        t[len] = '\0';
    }
    return t;
}

static char *condition_text(const char *column, const char *op, const char *value)
{
    size_t n = strlen(column) + strlen(op) + strlen(value) + 1;
    char *t = malloc(n);
    if (t)
        snprintf(t, n, "%s%s%s", column, op, value);
    return t;
}

/* Column c of every row: its id (groups in increasing order) into ids[r *
 * nc + c]; the label and conditions of each id into the malloc'd arrays
 * *labels and *conds (two per id); the number of ids into *nids. */
static int split_column(const ls_sweep *s, size_t c, size_t nc, size_t *ids, char ***labels, char ***conds,
                        size_t *nids, int *numeric, ls_error *err)
{
    size_t n = s->n;
    double *v = malloc((n ? n : 1) * sizeof *v);
    size_t *group = malloc((n ? n : 1) * sizeof *group);
    text_key *keys = NULL;
    ls_grouping g = {0};
    int status = 0;
    if (!v || !group)
        status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    *numeric = status == 0;
    for (size_t r = 0; status == 0 && r < n && *numeric; r++) {
        size_t len;
        const char *p = by_cell(s, r, c, &len);
        *numeric = ls_numtext_parse_count(p, len, &v[r]) == NUMTEXT_OK && v[r] > 0;
    }
    const char *column = s->by_names[c];
    if (status == 0 && *numeric) {
        status = ls_sweep_group(s, v, n, group, &g, err);
        if (status == 0 && (!(*labels = calloc(g.n, sizeof **labels)) || !(*conds = calloc(2 * g.n, sizeof **conds))))
            status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        *nids = *labels && *conds ? g.n : 0;
        for (size_t k = 0; status == 0 && k < g.n; k++) {
            char a[NUMTEXT_DOUBLE_MAX], lo[NUMTEXT_DOUBLE_MAX], hi[NUMTEXT_DOUBLE_MAX];
            ls_numtext_format_double(a, g.label[k]);
            ls_numtext_format_double(lo, g.lo[k]);
            ls_numtext_format_double(hi, g.hi[k]);
            if (!((*labels)[k] = text_dup(a, strlen(a))) || !((*conds)[2 * k] = condition_text(column, ">=", lo)) ||
                !((*conds)[2 * k + 1] = condition_text(column, "<=", hi)))
                status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        }
        for (size_t r = 0; status == 0 && r < n; r++)
            ids[r * nc + c] = group[r];
    } else if (status == 0) {
        if (!(keys = malloc((n ? n : 1) * sizeof *keys)))
            status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        for (size_t r = 0; status == 0 && r < n; r++) {
            keys[r].p = by_cell(s, r, c, &keys[r].len);
            keys[r].row = r;
        }
        if (status == 0)
            qsort(keys, n, sizeof *keys, compare_text_keys);
        size_t id = 0;
        for (size_t i = 0; status == 0 && i < n; i++) {
            if (i > 0 && (keys[i].len != keys[i - 1].len || memcmp(keys[i].p, keys[i - 1].p, keys[i].len) != 0))
                id++;
            ids[keys[i].row * nc + c] = id;
        }
        size_t count = n ? id + 1 : 0;
        if (status == 0 && (!(*labels = calloc(count + 1, sizeof **labels)) ||
                            !(*conds = calloc(2 * count + 1, sizeof **conds))))
            status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        *nids = status == 0 ? count : 0;
        for (size_t i = 0, k = 0; status == 0 && i < n; i++) {
            if (i > 0 && ids[keys[i].row * nc + c] == ids[keys[i - 1].row * nc + c])
                continue;
            if (!((*labels)[k] = text_dup(keys[i].p, keys[i].len)) ||
                !((*conds)[2 * k] = text_condition(column, (*labels)[k])))
                status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
            k++;
        }
    }
    ls_grouping_free(&g);
    free(keys);
    free(group);
    free(v);
    return status;
}

int ls_sweep_split(const ls_sweep *s, ls_sweep_groups *out, ls_error *err)
{
    memset(out, 0, sizeof *out);
    if (s->nby == 0 || (s->n && !s->by_of_row))
        return ls_error_set(err, LS_ERR_USAGE, "the sweep was read without columns to split it by");
    size_t nc = s->nby, n = s->n;
    size_t *ids = malloc((n ? n : 1) * nc * sizeof *ids);
    tuple_row *order = malloc((n ? n : 1) * sizeof *order);
    char ***labels = calloc(nc, sizeof *labels);
    char ***conds = calloc(nc, sizeof *conds);
    size_t *nids = calloc(nc, sizeof *nids);
    out->ncolumns = nc;
    out->numeric = calloc(nc, sizeof *out->numeric);
    out->group_of_row = malloc((n ? n : 1) * sizeof *out->group_of_row);
    int status = 0;
    if (!ids || !order || !labels || !conds || !nids || !out->numeric || !out->group_of_row)
        status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    for (size_t c = 0; status == 0 && c < nc; c++)
        status = split_column(s, c, nc, ids, &labels[c], &conds[c], &nids[c], &out->numeric[c], err);
    /* Groups: the distinct tuples of ids, in their order. */
    if (status == 0) {
        for (size_t r = 0; r < n; r++)
            order[r] = (tuple_row){ids + r * nc, nc, r};
        qsort(order, n, sizeof *order, compare_tuples);
        size_t ng = 0;
        for (size_t i = 0; i < n; i++) {
            if (i == 0 || memcmp(order[i].ids, order[i - 1].ids, nc * sizeof *ids) != 0)
                ng++;
            out->group_of_row[order[i].row] = ng - 1;
        }
        out->ngroups = ng;
        out->count = calloc(ng ? ng : 1, sizeof *out->count);
        out->value = calloc((ng ? ng : 1) * nc, sizeof *out->value);
        out->condition = calloc((ng ? ng : 1) * nc * 2, sizeof *out->condition);
        if (!out->count || !out->value || !out->condition)
            status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        for (size_t i = 0; status == 0 && i < n; i++) {
            size_t g = out->group_of_row[order[i].row];
            out->count[g]++;
            if (out->count[g] > 1)
                continue;
            for (size_t c = 0; status == 0 && c < nc; c++) {
                size_t id = order[i].ids[c];
                char *cond_hi = conds[c][2 * id + 1];
                if (!(out->value[g * nc + c] = strdup(labels[c][id])) ||
                    !(out->condition[(g * nc + c) * 2] = strdup(conds[c][2 * id])) ||
                    (cond_hi && !(out->condition[(g * nc + c) * 2 + 1] = strdup(cond_hi))))
                    status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
            }
        }
    }
    for (size_t c = 0; c < nc && labels && conds && nids; c++) {
        for (size_t k = 0; k < nids[c]; k++) {
            if (labels[c])
                free(labels[c][k]);
            if (conds[c]) {
                free(conds[c][2 * k]);
                free(conds[c][2 * k + 1]);
            }
        }
        free(labels[c]);
        free(conds[c]);
    }
    free(labels);
    free(conds);
    free(nids);
    free(order);
    free(ids);
    if (status != 0)
        ls_sweep_split_free(out);
    return status;
}

ls_sweep *ls_sweep_split_subset(const ls_sweep *s, const ls_sweep_groups *split, size_t g, ls_error *err)
{
    unsigned char *keep = calloc(s->n ? s->n : 1, 1);
    if (!keep) {
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        return NULL;
    }
    for (size_t r = 0; r < s->n; r++)
        keep[r] = split->group_of_row[r] == g;
    ls_sweep *out = ls_sweep_subset(s, keep, err);
    free(keep);
    if (!out)
        return NULL;
    out->nfiles = s->nfiles;
    out->sha256 = calloc(s->nfiles ? s->nfiles : 1, sizeof *out->sha256);
    size_t *renumber = calloc(s->ngroups ? s->ngroups : 1, sizeof *renumber);
    if (!out->sha256 || !renumber) {
        free(renumber);
        ls_sweep_free(out);
        ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        return NULL;
    }
    if (s->sha256)
        memcpy(out->sha256, s->sha256, s->nfiles * sizeof *out->sha256);
    /* Bootstrap groups present among these runs, renumbered densely in their
     * first-seen order (a draw picks among these only). */
    if (s->ngroups) {
        size_t next = 0;
        for (size_t r = 0; r < out->n; r++) {
            size_t gid = out->rows[r].group;
            if (gid < s->ngroups && renumber[gid] == 0)
                renumber[gid] = ++next;
            out->rows[r].group = gid < s->ngroups ? renumber[gid] - 1 : 0;
        }
        out->ngroups = next;
    }
    free(renumber);
    return out;
}

void ls_sweep_split_free(ls_sweep_groups *split)
{
    if (!split)
        return;
    for (size_t i = 0; split->value && i < split->ngroups * split->ncolumns; i++)
        free(split->value[i]);
    for (size_t i = 0; split->condition && i < split->ngroups * split->ncolumns * 2; i++)
        free(split->condition[i]);
    free(split->value);
    free(split->condition);
    free(split->count);
    free(split->numeric);
    free(split->group_of_row);
    memset(split, 0, sizeof *split);
}
