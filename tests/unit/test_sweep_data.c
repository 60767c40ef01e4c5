/* The sweep reader on a real export with both column traps: Muennighoff et
 * al.'s data-constrained runs ("Scaling Data-Constrained Language Models",
 * 2023) as IBM ColPret collected them, whose file has its own `epochs`
 * column and a `tokens_per_epoch` column holding one placeholder value
 * (1.5e9) for all 229 runs.  Its SOURCE.md counts 33 runs with epochs = 1.
 * Skipped (77) when the shared data is absent. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "loopscale/sweep.h"
#include "loopscale/warning.h"

/* Under $SHARED when set (as the CLI tests take it), else ../shared beside
 * the source tree. */
#define DATABLATIONS_FILE "/data/external/datablations-colpret/datablations_contour_losses.csv"
static char DATABLATIONS[4096];

static const char *const MAPS[] = {"n_act=num_params", "tokens=token_num", "loss=openLM_loss"};

/* --where 'epochs=1' compares the file's own epochs column (33 runs), not
 * D / U with the placeholder U (13 runs: those with D = 1.5e9 only). */
static void a_filter_on_epochs_reads_the_files_column(void **state)
{
    (void)state;
    const char *paths[] = {DATABLATIONS};
    const char *wheres[] = {"epochs=1"};
    ls_sweep_options o = {.maps = MAPS, .nmaps = 3, .wheres = wheres, .nwheres = 1, .require_loss = 1};
    ls_error err;
    ls_sweep *s = ls_sweep_read(paths, 1, &o, &err);
    assert_non_null(s);
    assert_int_equal(s->n, 33);
    ls_sweep_free(s);
    /* The derived one, once the file's column is renamed out of the way. */
    const char *maps[] = {"n_act=num_params", "tokens=token_num", "loss=openLM_loss", "file_epochs=epochs"};
    const char *both[] = {"epochs=1", "file_epochs>0"};
    ls_sweep_options d = {.maps = maps, .nmaps = 4, .wheres = both, .nwheres = 2, .require_loss = 1};
    s = ls_sweep_read(paths, 1, &d, &err);
    assert_non_null(s);
    for (size_t i = 0; i < s->n; i++)
        assert_true(s->rows[i].tokens == s->rows[i].unique_tokens);
    assert_int_equal(s->n, 13);
    ls_sweep_free(s);
}

/* The placeholder is named: unread by a dense law, constant under the
 * data-constrained one. */
static void the_placeholder_column_is_named(void **state)
{
    (void)state;
    const char *paths[] = {DATABLATIONS};
    ls_sweep_options o = {.maps = MAPS, .nmaps = 3, .require_loss = 1};
    ls_error err;
    ls_sweep *s = ls_sweep_read(paths, 1, &o, &err);
    assert_non_null(s);
    assert_int_equal(s->n, 229);
    ls_warnings w = {0};
    assert_int_equal(ls_sweep_column_warnings(s, (ls_law_kind){LS_LAW_BASE_DATA_CONSTRAINED, LS_LAW_MAPPING_NONE}, &w),
                     0);
    assert_int_equal(w.n, 1);
    assert_string_equal(w.v[0].subject, "tokens_per_epoch");
    assert_non_null(strstr(w.v[0].message, "holds 1500000000 for every one of the 229 runs"));
    ls_warnings_free(&w);
    memset(&w, 0, sizeof w);
    assert_int_equal(ls_sweep_column_warnings(s, (ls_law_kind){LS_LAW_BASE_DENSE, LS_LAW_MAPPING_NONE}, &w), 0);
    assert_int_equal(w.n, 1);
    assert_non_null(strstr(w.v[0].message, "is not read by the law dense"));
    ls_warnings_free(&w);
    ls_sweep_free(s);
}

int main(void)
{
    const char *shared = getenv("SHARED");
    snprintf(DATABLATIONS, sizeof DATABLATIONS, "%s" DATABLATIONS_FILE,
             shared && *shared ? shared : PROJECT_DATA_DIR "/../../shared");
    if (access(DATABLATIONS, R_OK) != 0) {
        printf("skipped: %s is absent\n", DATABLATIONS);
        return 77;
    }
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(a_filter_on_epochs_reads_the_files_column),
        cmocka_unit_test(the_placeholder_column_is_named),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
