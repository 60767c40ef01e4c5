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

#include "loopscale/outfile.h"

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
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
