/* Splitting a sweep's runs by columns' values (loopscale/split.h): text
 * columns group exactly, numeric ones within a tolerance, several columns by
 * combination; each group's conditions select exactly its runs, and a
 * group's sweep keeps the checksums and renumbers bootstrap groups. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "loopscale/split.h"
#include "tmpfile.h"

/* Three runs of arm "b" (lr rounded in its 6th digit), two of arm "a", one
 * of " a " (a filter compares text as it is: another arm). */
static const char CSV[] = "arm,lr,seed,n_act,tokens,loss\n"
                          "b,2.99999e-4,1,1e8,1e10,3.1\n"
                          "a,1e-3,1,1e8,1e10,3.0\n"
                          "b,3.00001e-4,2,3e8,1e10,2.9\n"
                          " a ,1e-3,2,3e8,1e10,2.8\n"
                          "b,3.000005e-4,1,1e9,1e10,2.7\n"
                          "a,3.000005e-4,1,1e9,1e10,2.6\n";

static ls_sweep *read_by(const char *path, const char *const *by, size_t nby, const char *group, ls_error *err)
{
    ls_sweep_options o = {0};
    o.by_columns = by;
    o.nby = nby;
    o.group_column = group;
    o.checksum = 1;
    return ls_sweep_read(&path, 1, &o, err);
}

static void text_column_groups_exactly_in_byte_order(void **state)
{
    (void)state;
    const char *path = write_temp_text(CSV, 0);
    const char *by[] = {"arm"};
    ls_error err = {0};
    ls_sweep *s = read_by(path, by, 1, NULL, &err);
    assert_non_null(s);
    ls_sweep_groups sp;
    assert_int_equal(ls_sweep_split(s, &sp, &err), 0);
    assert_int_equal(sp.ngroups, 3);
    assert_int_equal(sp.numeric[0], 0);
    assert_string_equal(sp.value[0], " a ");
    assert_string_equal(sp.value[1], "a");
    assert_string_equal(sp.value[2], "b");
    assert_int_equal(sp.count[0], 1);
    assert_int_equal(sp.count[1], 2);
    assert_int_equal(sp.count[2], 3);
    size_t expected[] = {2, 1, 2, 0, 2, 1};
    for (size_t r = 0; r < 6; r++)
        assert_int_equal(sp.group_of_row[r], expected[r]);
    /* Blanks around a value are kept by quoting it. */
    assert_string_equal(sp.condition[0], "arm==' a '");
    assert_null(sp.condition[1]);
    assert_string_equal(sp.condition[2], "arm==a");
    ls_sweep_split_free(&sp);
    ls_sweep_free(s);
    unlink(path);
}

static void numeric_column_groups_within_tolerance(void **state)
{
    (void)state;
    const char *path = write_temp_text(CSV, 0);
    const char *by[] = {"lr"};
    ls_error err = {0};
    ls_sweep *s = read_by(path, by, 1, NULL, &err);
    assert_non_null(s);
    ls_sweep_groups sp;
    assert_int_equal(ls_sweep_split(s, &sp, &err), 0);
    assert_int_equal(sp.numeric[0], 1);
    assert_int_equal(sp.ngroups, 2);
    assert_string_equal(sp.value[0], "0.0003");
    assert_string_equal(sp.value[1], "0.001");
    assert_int_equal(sp.count[0], 4);
    /* The tier's smallest and largest members, exactly. */
    assert_string_equal(sp.condition[0], "lr>=0.000299999");
    assert_string_equal(sp.condition[1], "lr<=0.000300001");
    ls_sweep_split_free(&sp);
    ls_sweep_free(s);

    /* A tolerance below the rounding keeps the three lr values apart. */
    ls_sweep_options o = {0};
    o.by_columns = by;
    o.nby = 1;
    o.group_tol = 1e-9;
    s = ls_sweep_read(&path, 1, &o, &err);
    assert_non_null(s);
    assert_int_equal(ls_sweep_split(s, &sp, &err), 0);
    assert_int_equal(sp.ngroups, 4);
    ls_sweep_split_free(&sp);
    ls_sweep_free(s);
    unlink(path);
}

static void several_columns_group_by_combination(void **state)
{
    (void)state;
    const char *path = write_temp_text(CSV, 0);
    const char *by[] = {"arm", "lr"};
    ls_error err = {0};
    ls_sweep *s = read_by(path, by, 2, NULL, &err);
    assert_non_null(s);
    ls_sweep_groups sp;
    assert_int_equal(ls_sweep_split(s, &sp, &err), 0);
    /* ( a , 0.001), (a, 0.0003), (a, 0.001), (b, 0.0003): the combinations
     * some run has. */
    assert_int_equal(sp.ngroups, 4);
    assert_int_equal(sp.ncolumns, 2);
    const char *values[][2] = {{" a ", "0.001"}, {"a", "0.0003"}, {"a", "0.001"}, {"b", "0.0003"}};
    size_t counts[] = {1, 1, 1, 3};
    for (size_t g = 0; g < 4; g++) {
        assert_string_equal(sp.value[g * 2], values[g][0]);
        assert_string_equal(sp.value[g * 2 + 1], values[g][1]);
        assert_int_equal(sp.count[g], counts[g]);
    }
    ls_sweep_split_free(&sp);
    ls_sweep_free(s);
    unlink(path);
}

/* The conditions of each group, given to the reader as filters, select
 * exactly that group's runs. */
static void conditions_select_the_group(void **state)
{
    (void)state;
    const char *path = write_temp_text(CSV, 0);
    const char *by[] = {"arm", "lr"};
    ls_error err = {0};
    ls_sweep *s = read_by(path, by, 2, NULL, &err);
    assert_non_null(s);
    ls_sweep_groups sp;
    assert_int_equal(ls_sweep_split(s, &sp, &err), 0);
    for (size_t g = 0; g < sp.ngroups; g++) {
        const char *wheres[4];
        size_t nw = 0;
        for (size_t k = 0; k < 4; k++)
            if (sp.condition[g * 4 + k])
                wheres[nw++] = sp.condition[g * 4 + k];
        ls_sweep_options o = {0};
        o.wheres = wheres;
        o.nwheres = nw;
        ls_sweep *t = ls_sweep_read(&path, 1, &o, &err);
        assert_non_null(t);
        assert_int_equal(t->n, sp.count[g]);
        size_t k = 0;
        for (size_t r = 0; r < s->n; r++)
            if (sp.group_of_row[r] == g)
                assert_int_equal(t->rows[k++].line, s->rows[r].line);
        ls_sweep_free(t);
    }
    ls_sweep_split_free(&sp);
    ls_sweep_free(s);
    unlink(path);
}

static void subset_keeps_checksums_and_renumbers_groups(void **state)
{
    (void)state;
    const char *path = write_temp_text(CSV, 0);
    const char *by[] = {"arm"};
    ls_error err = {0};
    ls_sweep *s = read_by(path, by, 1, "n_act", &err);
    assert_non_null(s);
    assert_int_equal(s->ngroups, 3);
    ls_sweep_groups sp;
    assert_int_equal(ls_sweep_split(s, &sp, &err), 0);
    ls_sweep *b = ls_sweep_split_subset(s, &sp, 2, &err);
    assert_non_null(b);
    assert_int_equal(b->n, 3);
    assert_int_equal(b->nfiles, 1);
    assert_string_equal(b->sha256[0], s->sha256[0]);
    assert_int_equal(strlen(b->sha256[0]), 64);
    /* Arm b's three runs have three sizes: bootstrap groups 0, 1, 2. */
    assert_int_equal(b->ngroups, 3);
    for (size_t r = 0; r < b->n; r++)
        assert_int_equal(b->rows[r].group, r);
    ls_sweep_free(b);
    ls_sweep_split_free(&sp);
    ls_sweep_free(s);
    unlink(path);
}

static void empty_cell_and_missing_column_are_refused(void **state)
{
    (void)state;
    const char *path = write_temp_text("arm,n_act,tokens,loss\nb,1e8,1e10,3\n,3e8,1e10,2.9\n", 0);
    const char *by[] = {"arm"};
    ls_error err = {0};
    assert_null(read_by(path, by, 1, NULL, &err));
    assert_int_equal(err.code, LS_ERR_DATA);
    assert_non_null(strstr(err.message, ":3: column 'arm': '' is empty"));
    const char *missing[] = {"config"};
    assert_null(read_by(path, missing, 1, NULL, &err));
    assert_int_equal(err.code, LS_ERR_USAGE);
    unlink(path);
    /* A sweep read without by_columns cannot be split. */
    path = write_temp_text(CSV, 0);
    ls_sweep *s = read_by(path, NULL, 0, NULL, &err);
    assert_non_null(s);
    ls_sweep_groups sp;
    assert_int_equal(ls_sweep_split(s, &sp, &err), LS_ERR_USAGE);
    ls_sweep_split_free(&sp);
    ls_sweep_free(s);
    unlink(path);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(text_column_groups_exactly_in_byte_order),
        cmocka_unit_test(numeric_column_groups_within_tolerance),
        cmocka_unit_test(several_columns_group_by_combination),
        cmocka_unit_test(conditions_select_the_group),
        cmocka_unit_test(subset_keeps_checksums_and_renumbers_groups),
        cmocka_unit_test(empty_cell_and_missing_column_are_refused),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
