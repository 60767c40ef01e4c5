/* Output files: the temporary file of an open output is what a signal
 * handler removes, and only that; the table of open outputs is bounded and
 * frees its slots when an output is committed or aborted. */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "outfile_internal.h"

static char dir[64];

static int setup(void **state)
{
    (void)state;
    snprintf(dir, sizeof dir, "/tmp/loopscale-outfile-XXXXXX");
    return mkdtemp(dir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    DIR *d = opendir(dir);
    struct dirent *e;
    char path[512];
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.') {
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        }
    if (d)
        closedir(d);
    return rmdir(dir);
}

/* Files in dir whose name contains ".tmp.". */
static int temporaries(void)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    while (d && (e = readdir(d)))
        n += strstr(e->d_name, ".tmp.") != NULL;
    if (d)
        closedir(d);
    return n;
}

static void write_text(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    assert_non_null(fp);
    fputs(text, fp);
    fclose(fp);
}

static void removing_temporaries_unlinks_open_outputs_and_keeps_destinations(void **state)
{
    (void)state;
    char a[128], b[128];
    snprintf(a, sizeof a, "%s/a.csv", dir);
    snprintf(b, sizeof b, "%s/b.csv.gz", dir);
    write_text(a, "precious\n");
    ls_error err;
    outfile *oa = ls_outfile_open(a, 0, &err), *ob = ls_outfile_open(b, 1, &err);
    assert_non_null(oa);
    assert_non_null(ob);
    assert_int_equal(ls_outfile_write(oa, "new\n", 4, &err), 0);
    assert_int_equal(ls_outfile_flush(oa, &err), 0);
    assert_int_equal(temporaries(), 2);
    ls_outfile_remove_temporaries();
    assert_int_equal(temporaries(), 0);
    struct stat st;
    assert_int_equal(stat(a, &st), 0);
    assert_int_equal(st.st_size, 9); /* "precious\n", not replaced */
    assert_int_not_equal(stat(b, &st), 0); /* never created */
    ls_outfile_abort(oa);
    ls_outfile_abort(ob);
}

static void committed_outputs_are_not_removed(void **state)
{
    (void)state;
    char a[128];
    snprintf(a, sizeof a, "%s/done.csv", dir);
    ls_error err;
    outfile *o = ls_outfile_open(a, 0, &err);
    assert_non_null(o);
    assert_int_equal(ls_outfile_write(o, "x\n", 2, &err), 0);
    assert_int_equal(ls_outfile_commit(o, &err), 0);
    ls_outfile_remove_temporaries();
    struct stat st;
    assert_int_equal(stat(a, &st), 0);
    assert_int_equal(st.st_size, 2);
}

static long file_size(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 ? (long)st.st_size : -1;
}

/* Three outputs committed as one, the third of which cannot be renamed (its
 * destination became a non-empty directory meanwhile): the first two keep
 * their old content, or do not appear, and no temporary or kept file stays. */
static void outputs_committed_together_replace_all_or_none(void **state)
{
    (void)state;
    char a[128], b[128], c[128], inside[160];
    snprintf(a, sizeof a, "%s/law.json", dir);
    snprintf(b, sizeof b, "%s/new.svg.gz", dir);
    snprintf(c, sizeof c, "%s/plot.svg", dir);
    snprintf(inside, sizeof inside, "%s/keep", c);
    write_text(a, "old law\n");
    ls_error err;
    outfile *outs[3] = {ls_outfile_open(a, 0, &err), ls_outfile_open(b, 1, &err), ls_outfile_open(c, 0, &err)};
    for (int i = 0; i < 3; i++) {
        assert_non_null(outs[i]);
        assert_int_equal(ls_outfile_write(outs[i], "replacement\n", 12, &err), 0);
    }
    assert_int_equal(mkdir(c, 0700), 0);
    write_text(inside, "x");
    assert_int_equal(ls_outfile_commit_all(outs, 3, &err), LS_ERR_IO);
    assert_non_null(strstr(err.message, "plot.svg: cannot replace"));
    assert_int_equal(file_size(a), 8); /* "old law\n" */
    assert_int_equal(file_size(b), -1);
    assert_int_equal(temporaries(), 0);
    unlink(inside);
    rmdir(c);
    /* The same outputs with nothing in the way: all three replaced, the
     * gzip one a complete stream. */
    outfile *again[3] = {ls_outfile_open(a, 0, &err), ls_outfile_open(b, 1, &err), ls_outfile_open(c, 0, &err)};
    for (int i = 0; i < 3; i++)
        assert_int_equal(ls_outfile_write(again[i], "replacement\n", 12, &err), 0);
    assert_int_equal(ls_outfile_commit_all(again, 3, &err), 0);
    assert_int_equal(file_size(a), 12);
    assert_int_equal(file_size(c), 12);
    assert_true(file_size(b) > 18); /* gzip header and trailer */
    assert_int_equal(temporaries(), 0);
    for (int i = 0; i < 3; i++)
        assert_null(again[i]);
}

static void open_outputs_are_bounded_and_their_slots_reused(void **state)
{
    (void)state;
    outfile *open[LS_OUTFILE_MAX_OPEN];
    char path[128];
    ls_error err;
    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < LS_OUTFILE_MAX_OPEN; i++) {
            snprintf(path, sizeof path, "%s/f%d", dir, i);
            open[i] = ls_outfile_open(path, 0, &err);
            assert_non_null(open[i]);
        }
        snprintf(path, sizeof path, "%s/one-more", dir);
        assert_null(ls_outfile_open(path, 0, &err));
        assert_int_equal(err.code, LS_ERR_INTERNAL);
        for (int i = 0; i < LS_OUTFILE_MAX_OPEN; i++)
            if (round == 0)
                ls_outfile_abort(open[i]);
            else
                assert_int_equal(ls_outfile_commit(open[i], &err), 0);
        assert_int_equal(temporaries(), 0);
    }
    /* Outputs written in place take no slot. */
    outfile *null_out = ls_outfile_open("/dev/null", 0, &err);
    assert_non_null(null_out);
    ls_outfile_abort(null_out);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test_setup_teardown(removing_temporaries_unlinks_open_outputs_and_keeps_destinations, setup,
                                        teardown),
        cmocka_unit_test_setup_teardown(committed_outputs_are_not_removed, setup, teardown),
        cmocka_unit_test_setup_teardown(open_outputs_are_bounded_and_their_slots_reused, setup, teardown),
        cmocka_unit_test_setup_teardown(outputs_committed_together_replace_all_or_none, setup, teardown),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
