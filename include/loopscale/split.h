/*
 * loopscale/split.h — the runs of a sweep split into groups by the values of
 * one or more columns, each group to be fitted on its own (fit --by).
 *
 * The sweep must have been read with sweep_options.by_columns, which keeps
 * each run's cells of those columns.  A column whose every cell is a
 * positive number (counts as logs write them: 125M, 2.8B) is grouped as a
 * quantity is, within a relative tolerance (loopscale/group.h: the sweep's
 * group_tol, or the values' own rounding), and labelled with the shortest
 * decimal number inside its tier; any other column is grouped by its text,
 * exactly as a filter compares it.  With several columns a group is
 * one combination of their values that some run has.  Groups are numbered
 * in the order of their values: numbers increasing, text in byte order, the
 * first column first.
 *
 * ls_sweep_split() fills a ls_sweep_groups the caller frees with
 * ls_sweep_split_free() (which accepts a zeroed one); ls_sweep_split_subset()
 * returns a sweep the caller frees with ls_sweep_free().
 *
 * Thread safety: no global state; a split is read-only once made.
 */
#ifndef LOOPSCALE_SPLIT_H
#define LOOPSCALE_SPLIT_H

#include <stddef.h>

#include "loopscale/error.h"
#include "loopscale/export.h"
#include "loopscale/sweep.h"

LS_API_BEGIN

typedef struct ls_sweep_groups {
    size_t ngroups;
    size_t ncolumns;      /* the sweep's nby */
    size_t *group_of_row; /* the group of each run of the sweep */
    size_t *count;        /* runs in each group */
    int *numeric;         /* per column: 1 when grouped as numbers, with a tolerance */
    char **value;         /* group g's value of column c at [g * ncolumns + c] */
    /* The --where conditions that select group g's runs from the sweep:
     * column c gives "COL==TEXT" (TEXT quoted when it has blanks around it,
 * starts with a quote or reads as a number), or "COL>=LO" and "COL<=HI" (its tier's
     * smallest and largest members, written to read back exactly), at
     * [(g * ncolumns + c) * 2] and [... + 1] (NULL for a text column). */
    char **condition;
} ls_sweep_groups;

/* Split the runs of s (read with by_columns).  Errors: LS_ERR_USAGE when s
 * was read without by_columns, LS_ERR_INTERNAL when out of memory. */
int ls_sweep_split(const ls_sweep *s, ls_sweep_groups *out, ls_error *err) LS_MUST_CHECK;

/* The runs of group g as a sweep of their own, with the file names and
 * checksums of s (so a law file can record where they came from) and the
 * bootstrap groups of options.group_column renumbered 0, 1, ... among them.
 * Its by-column cells are not kept. */
ls_sweep *ls_sweep_split_subset(const ls_sweep *s, const ls_sweep_groups *split, size_t g, ls_error *err) LS_MUST_CHECK;

void ls_sweep_split_free(ls_sweep_groups *split);

LS_API_END

#endif
