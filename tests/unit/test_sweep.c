/* The sweep reader at the API: aliases, defaults, renames, filters, FLOPs,
 * groups, echoed cells and several files; the limits a value of each
 * quantity has, in a cell and in an option alike; the warnings about the
 * columns.  Every error message is pinned in the CLI tests
 * (tests/cli/sweep-errors.t). */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "loopscale/shape.h"
#include "loopscale/sweep.h"
#include "loopscale/warning.h"
#include "tmpfile.h"

static ls_sweep *read_text(const char *text, const ls_sweep_options *o, ls_error *err)
{
    char path[64];
    snprintf(path, sizeof path, "%s", write_temp_text(text, 0));
    const char *paths[] = {path};
    ls_sweep *s = ls_sweep_read(paths, 1, o, err);
    unlink(path);
    return s;
}

static void aliases_match_in_any_case_and_defaults_apply(void **state)
{
    (void)state;
    ls_error err;
    ls_sweep *s = read_text("PARAMS,d,Loss,Experts,note\n3e8,1e11,2.5,4,x\n", NULL, &err);
    assert_non_null(s);
    assert_int_equal(s->n, 1);
    ls_sweep_row r = s->rows[0];
    assert_true(r.n_act == 3e8 && r.tokens == 1e11 && r.loss == 2.5 && r.E == 4);
    assert_true(r.n_total == 3e8 && r.R == 1 && r.k == 1 && isnan(r.n_loop));
    assert_int_equal(r.line, 2);
    assert_true(s->has_loss);
    ls_sweep_free(s);
}

static void map_renames_and_tokens_come_from_flops(void **state)
{
    (void)state;
    ls_error err;
    const char *maps[] = {"n_act=Model Size", "flops=Training FLOP"};
    ls_sweep_options o = {.maps = maps, .nmaps = 2, .require_loss = 1};
    ls_sweep *s = read_text("Model Size,Training FLOP,loss\n2.385e8,1.431e19,3.1\n", &o, &err);
    assert_non_null(s);
    assert_true(fabs(s->rows[0].tokens - 1.431e19 / (6 * 2.385e8)) < 1e-3);
    ls_sweep_free(s);
    /* Looped runs are charged on N_unroll = N_act + (R-1) N_loop. */
    s = read_text("n_act,n_loop,R,flops,loss\n1e9,7.5e8,3,1.5e21,2.9\n", NULL, &err);
    assert_non_null(s);
    assert_true(fabs(s->rows[0].tokens - 1.5e21 / (6 * 2.5e9)) < 1e-3);
    ls_sweep_free(s);
}

/* Tokens and FLOPs side by side must agree through F = 6 N_unroll D: a
 * looped run (N_unroll = 1e9 + 2 x 7.5e8 = 2.5e9, D = 1e11, so F = 1.5e21
 * written out by hand) passes just inside the relative tolerance and is
 * refused just outside it, on either side. */
static void tokens_and_flops_must_agree_within_the_tolerance(void **state)
{
    (void)state;
    ls_error err;
    char text[160];
    const double inside = 0.9 * LS_SWEEP_FLOPS_TOKENS_RTOL, outside = 1.1 * LS_SWEEP_FLOPS_TOKENS_RTOL;
    for (int sign = -1; sign <= 1; sign += 2) {
        snprintf(text, sizeof text, "n_act,n_loop,R,tokens,flops,loss\n1e9,7.5e8,3,1e11,%.17g,2.9\n",
                 1.5e21 * (1 + sign * inside));
        ls_sweep *s = read_text(text, NULL, &err);
        assert_non_null(s);
        assert_true(s->rows[0].tokens == 1e11); /* the tokens column is what is used */
        ls_sweep_free(s);
        snprintf(text, sizeof text, "n_act,n_loop,R,tokens,flops,loss\n1e9,7.5e8,3,1e11,%.17g,2.9\n",
                 1.5e21 * (1 + sign * outside));
        assert_null(read_text(text, NULL, &err));
        assert_int_equal(err.code, LS_ERR_DATA);
        assert_non_null(strstr(err.message, ":2: column 'flops': "));
    }
    /* Charging the loops once (F = 6 N_act D) is the mistake this catches. */
    assert_null(read_text("n_act,n_loop,R,tokens,flops,loss\n1e9,7.5e8,3,1e11,6e20,2.9\n", NULL, &err));
}

static void where_filters_are_anded_over_quantities_and_other_columns(void **state)
{
    (void)state;
    ls_error err;
    const char *text = "n_act,n_loop,R,E,tokens,loss,lr\n"
                       "1e8,7e7,1,1,1e10,3.0,0.001\n"
                       "1e8,7e7,8,1,1e10,2.9,0.002\n"
                       "1e8,7e7,16,2,1e10,2.8,0.001\n"
                       "1e8,7e7,4,2,1e10,2.85,0.003\n";
    const char *wheres[] = {"R<=8", "lr != 0.002"};
    ls_sweep_options o = {.wheres = wheres, .nwheres = 2};
    ls_sweep *s = read_text(text, &o, &err);
    assert_non_null(s);
    assert_int_equal(s->n, 2);
    assert_true(s->rows[0].R == 1 && s->rows[1].R == 4);
    assert_int_equal(s->rows[1].line, 5);
    ls_sweep_free(s);
    const char *none[] = {"E > 4"};
    o.wheres = none;
    o.nwheres = 1;
    assert_null(read_text(text, &o, &err));
    assert_int_equal(err.code, LS_ERR_DATA);
    const char *bad[] = {"R < four"};
    o.wheres = bad;
    assert_null(read_text(text, &o, &err));
    assert_int_equal(err.code, LS_ERR_USAGE);
}

static void groups_and_echoed_cells(void **state)
{
    (void)state;
    ls_error err;
    ls_sweep_options o = {.keep_text = 1, .group_column = "run"};
    ls_sweep *s = read_text("run,N,D,loss\nb,1e8,1e10,3\na,2e8,1e10,2.9\nb,3e8,1e10,2.8\n", &o, &err);
    assert_non_null(s);
    assert_int_equal(s->ngroups, 2);
    assert_int_equal(s->rows[0].group, 1);
    assert_int_equal(s->rows[1].group, 0);
    assert_int_equal(s->rows[2].group, 1);
    assert_int_equal(s->ncolumns, 4);
    assert_string_equal(s->column_names[1], "N");
    size_t len;
    assert_string_equal(ls_sweep_cell(s, 2, 0, &len), "b");
    assert_string_equal(ls_sweep_cell(s, 1, 3, &len), "2.9");
    ls_sweep_free(s);
}

static void several_files_concatenate(void **state)
{
    (void)state;
    ls_error err;
    char a[64], b[64];
    snprintf(a, sizeof a, "%s", write_temp_text("N,D,loss\n1e8,1e10,3\n", 0));
    snprintf(b, sizeof b, "%s", write_temp_text("tokens,loss,n_act\n2e10,2.9,1e8\n", 1));
    const char *paths[] = {a, b};
    ls_sweep *s = ls_sweep_read(paths, 2, NULL, &err);
    assert_non_null(s);
    assert_int_equal(s->n, 2);
    assert_int_equal(s->rows[1].file, 1);
    assert_true(s->rows[1].tokens == 2e10);
    ls_sweep_free(s);
    unlink(a);
    unlink(b);
}

static void row_check_names_the_quantity_at_fault(void **state)
{
    (void)state;
    ls_sweep_row ok = {1e9, 2e9, 7e8, 4, 8, 2, 1e11, 2.5, NAN, 0, 0, 0, 0};
    ls_sweep_quantity which;
    char reason[128];
    assert_int_equal(ls_sweep_row_check(&ok, &which, reason, sizeof reason), 0);
    ls_sweep_row r = ok;
    r.n_loop = 2e9;
    assert_int_equal(ls_sweep_row_check(&r, &which, reason, sizeof reason), 1);
    assert_int_equal(which, LS_SWEEP_N_LOOP);
    assert_string_equal(reason, "is greater than n_act (1000000000)");
    r = ok;
    r.E = 1;
    assert_int_equal(ls_sweep_row_check(&r, &which, reason, sizeof reason), 1);
    assert_int_equal(which, LS_SWEEP_E);
    r = ok;
    r.n_loop = NAN;
    assert_int_equal(ls_sweep_row_check(&r, &which, reason, sizeof reason), 1);
    assert_int_equal(which, LS_SWEEP_N_LOOP);
    r.R = 1;
    assert_int_equal(ls_sweep_row_check(&r, &which, reason, sizeof reason), 0);
}

static void a_million_rows_read_in_one_pass(void **state)
{
    (void)state;
    size_t rows = 1000000;
    size_t cap = rows * 48 + 64;
    char *text = malloc(cap);
    size_t n = (size_t)snprintf(text, cap, "n_act,n_loop,R,E,tokens,loss\n");
    for (size_t i = 0; i < rows; i++)
        n += (size_t)snprintf(text + n, cap - n, "%zu,%zu,%zu,1,1e11,%.6f\n", 100000000 + i, 50000000 + i,
                              1 + i % 16, 2.5 + (double)(i % 1000) * 1e-4);
    const char *path = write_temp(text, n, 1);
    free(text);
    ls_error err;
    const char *paths[] = {path};
    ls_sweep *s = ls_sweep_read(paths, 1, NULL, &err);
    unlink(path);
    assert_non_null(s);
    assert_int_equal(s->n, rows);
    assert_true(s->rows[rows - 1].R == 16);
    ls_sweep_free(s);
}


/* The ranges are the command-line options' (1e20 parameters and tokens,
 * 1e40 FLOPs, 10000 loops, a million experts), both ends included. */
static void each_quantity_has_one_range(void **state)
{
    (void)state;
    char reason[128];
    const ls_sweep_limits *R = ls_sweep_quantity_limits(LS_SWEEP_R);
    assert_true(R->min == 1 && R->max == 1e4 && R->integer && !R->suffixes);
    assert_true(ls_sweep_quantity_limits(LS_SWEEP_FLOPS)->max == 1e40);
    assert_true(ls_sweep_quantity_limits(LS_SWEEP_N_ACT)->suffixes);
    assert_false(ls_sweep_quantity_limits(LS_SWEEP_LOSS)->suffixes);
    assert_null(ls_sweep_quantity_limits(LS_SWEEP_NQUANTITIES));
    static const struct {
        ls_sweep_quantity q;
        double value;
        const char *reason; /* NULL: in range */
    } cases[] = {
        {LS_SWEEP_R, 1e4, NULL},
        {LS_SWEEP_R, 10001, "is outside its range: an integer from 1 to 10000 (loops)"},
        {LS_SWEEP_R, 2.5, "is not an integer"},
        {LS_SWEEP_R, 0, "must be at least 1"},
        {LS_SWEEP_E, 1e6, NULL},
        {LS_SWEEP_E, 1e6 + 1, "is outside its range: an integer from 1 to 1e+06 (experts)"},
        {LS_SWEEP_K, 3, NULL},
        {LS_SWEEP_N_ACT, 1e20, NULL},
        {LS_SWEEP_N_ACT, 1.0000001e20, "is outside its range: from 1 to 1e+20 (parameters)"},
        {LS_SWEEP_N_ACT, 0.5, "is outside its range: from 1 to 1e+20 (parameters)"},
        {LS_SWEEP_N_ACT, -3, "must be positive"},
        {LS_SWEEP_N_ACT, NAN, "must be positive"},
        {LS_SWEEP_TOKENS, 2.5e21, "is outside its range: from 1 to 1e+20 (tokens)"},
        {LS_SWEEP_FLOPS, 3.7e39, NULL},
        {LS_SWEEP_LOSS, 1e-300, NULL},
        {LS_SWEEP_LOSS, 0, "must be positive"},
        {LS_SWEEP_UNIQUE_TOKENS, 0.25, "is outside its range: from 1 to 1e+20 (tokens)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int bad = ls_sweep_quantity_check(cases[i].q, cases[i].value, reason, sizeof reason);
        assert_int_equal(bad, cases[i].reason != NULL);
        if (bad)
            assert_string_equal(reason, cases[i].reason);
    }
}

/* A value refused as an option is refused in a cell, and in a row built
 * from options (what predict checks), with the same reason. */
static void a_cell_outside_its_range_is_refused_as_the_option_is(void **state)
{
    (void)state;
    ls_error err;
    assert_null(read_text("n_act,n_loop,R,tokens,loss\n3e8,2.25e8,20000,1e11,2.5\n", NULL, &err));
    assert_int_equal(err.code, LS_ERR_DATA);
    assert_non_null(
        strstr(err.message, ":2: column 'R': '20000' is outside its range: an integer from 1 to 10000 (loops)"));
    ls_sweep_row row = {3e8, 3e8, 2.25e8, 20000, 1, 1, 1e11, 2.5, NAN, 0, 0, 0, 0};
    ls_sweep_quantity which;
    char reason[128];
    assert_int_equal(ls_sweep_row_check(&row, &which, reason, sizeof reason), 1);
    assert_int_equal(which, LS_SWEEP_R);
    assert_string_equal(reason, "is outside its range: an integer from 1 to 10000 (loops)");
    assert_null(read_text("n_act,tokens,loss\n3e8,4.2e20,2.5\n", NULL, &err));
    assert_non_null(strstr(err.message, "column 'tokens': '4.2e20' is outside its range: from 1 to 1e+20 (tokens)"));
    assert_null(read_text("n_act,E,tokens,loss\n3e8,2000000,1e11,2.5\n", NULL, &err));
    assert_non_null(strstr(err.message, "column 'E': '2000000' is outside its range"));
    /* Tokens derived from FLOPs keep to the tokens' range: 1e40 / (6 x 1e8). */
    assert_null(read_text("n_act,flops,loss\n1e8,1e40,2.5\n", NULL, &err));
    assert_non_null(strstr(err.message, "column 'flops': '1e40' gives tokens D = F / (6 N_unroll) = 1.66667e+31, "
                                        "which is outside its range: from 1 to 1e+20 (tokens)"));
    assert_null(read_text("n_act,flops,loss\n1e8,2e40,2.5\n", NULL, &err));
    assert_non_null(strstr(err.message, "column 'flops': '2e40' is outside its range: from 1 to 1e+40 (FLOPs)"));
    /* At the ends of the ranges a row is read. */
    ls_sweep *s = read_text("n_act,n_loop,R,E,k,tokens,loss\n1e20,1,10000,1000000,1000000,1e20,2.5\n", NULL, &err);
    assert_non_null(s);
    ls_sweep_free(s);
}

/* k, M, B, T are for counts that logs write large (sizes, tokens, FLOPs):
 * a loss of 2.5k is refused, not read as 2500 nats; so is R = 2k, in a cell,
 * in a filter and through ls_sweep_quantity_parse. */
static void unit_suffixes_only_where_a_count_takes_them(void **state)
{
    (void)state;
    ls_error err;
    ls_sweep *s = read_text("n_act,n_total,tokens,flops,U,loss\n125M,2.8B,0.5T,3.75e20,4B,2.5\n", NULL, &err);
    assert_non_null(s);
    assert_true(s->rows[0].n_act == 1.25e8 && s->rows[0].n_total == 2.8e9 && s->rows[0].tokens == 5e11);
    assert_true(s->rows[0].unique_tokens == 4e9);
    ls_sweep_free(s);
    assert_null(read_text("n_act,tokens,loss\n125M,1e11,2.5k\n", NULL, &err));
    assert_int_equal(err.code, LS_ERR_DATA);
    assert_non_null(strstr(err.message, ":2: column 'loss': '2.5k' has a unit suffix, and loss is a plain number "
                                        "(k, M, B, T are for sizes, tokens and FLOPs)"));
    assert_null(read_text("n_act,n_loop,R,tokens,loss\n125M,1e8,2k,1e11,2.5\n", NULL, &err));
    assert_non_null(strstr(err.message, "column 'R': '2k' has a unit suffix, and R is a plain number"));
    const char *wheres[] = {"loss<2.5k"};
    ls_sweep_options o = {.wheres = wheres, .nwheres = 1};
    assert_null(read_text("n_act,tokens,loss\n125M,1e11,2.5\n", &o, &err));
    assert_int_equal(err.code, LS_ERR_USAGE);
    assert_string_equal(err.message, "filter 'loss<2.5k': the value has a unit suffix, and loss is a plain number "
                                     "(k, M, B, T are for sizes, tokens and FLOPs)");
    wheres[0] = "n_act>=100M"; /* a size takes one */
    s = read_text("n_act,tokens,loss\n125M,1e11,2.5\n", &o, &err);
    assert_non_null(s);
    unsigned char selected[1];
    const char *bad[] = {"E>=1k"};
    assert_int_equal(ls_sweep_select(s, bad, 1, selected, &err), LS_ERR_USAGE);
    assert_non_null(strstr(err.message, "E is a plain number"));
    ls_sweep_free(s);
    double v;
    char reason[160];
    assert_int_equal(ls_sweep_quantity_parse(LS_SWEEP_TOKENS, "2.8B", 4, &v, reason, sizeof reason), 0);
    assert_true(v == 2.8e9);
    assert_int_equal(ls_sweep_quantity_parse(LS_SWEEP_K, "2k", 2, &v, reason, sizeof reason), 1);
    assert_non_null(strstr(reason, "has a unit suffix, and k is a plain number"));
    assert_int_equal(ls_sweep_quantity_parse(LS_SWEEP_LOSS, "2.x", 3, &v, reason, sizeof reason), 1);
    assert_string_equal(reason, "is not a number");
}

/* n_unroll, tokens_per_param and epochs are derived only when the file has
 * no column of that name: a file's own epochs column is what a filter on
 * epochs compares. */
static void derived_names_never_shadow_a_column(void **state)
{
    (void)state;
    /* Each row's epochs cell differs from its D / U (1.5e9 is a placeholder). */
    const char *text = "n_act,tokens,tokens_per_epoch,epochs,n_unroll,loss\n"
                       "1e8,3e9,1.5e9,1,7,3.1\n"
                       "1e8,6e9,1.5e9,3,7,3.0\n"
                       "2e8,1.5e9,1.5e9,2,9,2.9\n";
    const char *wheres[] = {"epochs=1"};
    ls_sweep_options o = {.wheres = wheres, .nwheres = 1};
    ls_error err;
    ls_sweep *s = read_text(text, &o, &err);
    assert_non_null(s);
    assert_int_equal(s->n, 1);
    assert_true(s->rows[0].tokens == 3e9); /* D / U = 2 there: derived, it would have kept line 4 */
    ls_sweep_free(s);
    wheres[0] = "n_unroll>8";
    s = read_text(text, &o, &err);
    assert_non_null(s);
    assert_int_equal(s->n, 1);
    assert_int_equal(s->rows[0].line, 4);
    ls_sweep_free(s);
    /* Without such a column, the derived value. */
    wheres[0] = "epochs=1";
    s = read_text("n_act,tokens,U,loss\n1e8,3e9,1.5e9,3.1\n2e8,1.5e9,1.5e9,2.9\n", &o, &err);
    assert_non_null(s);
    assert_int_equal(s->n, 1);
    assert_int_equal(s->rows[0].line, 3);
    ls_sweep_free(s);
}

static int ignore_row(void *ctx, const ls_sweep_row *row, const ls_sweep_text_cell *cells, size_t ncells, ls_error *e)
{
    (void)ctx, (void)row, (void)cells, (void)ncells, (void)e;
    return 0;
}

/* The message of the warning about subject ("" when there is none; all are
 * LS_WARNING_DATA). */
static const char *warning_about(const ls_warnings *w, const char *subject)
{
    for (size_t i = 0; i < w->n; i++)
        if (strcmp(w->v[i].subject, subject) == 0)
            return w->v[i].code == LS_WARNING_DATA ? w->v[i].message : "(not a data warning)";
    return "";
}

/* The columns a law does not read are each named once, and a per-run
 * column that holds one value for every run (a placeholder) is named under
 * a law that reads it; the same from a stream as from a sweep held. */
static void column_warnings_name_unread_and_constant_columns(void **state)
{
    (void)state;
    const char *text = "n_act,n_total,experts,top_k,tokens,tokens_per_epoch,loss\n"
                       "1e8,1e8,1,1,1e10,1.5e9,3.1\n"
                       "3e8,6e8,4,1,3e10,1.5e9,2.8\n"
                       "1e9,3e9,8,2,1e11,1.5e9,2.5\n";
    ls_error err;
    ls_sweep *s = read_text(text, NULL, &err);
    assert_non_null(s);
    assert_string_equal(s->quantity_column[LS_SWEEP_UNIQUE_TOKENS], "tokens_per_epoch");
    assert_null(s->quantity_column[LS_SWEEP_R]);
    ls_warnings w = {0};
    assert_int_equal(ls_sweep_column_warnings(s, (ls_law_kind){LS_LAW_BASE_DENSE, LS_LAW_MAPPING_NONE}, &w), 0);
    assert_int_equal(w.n, 4); /* n_total, experts, top_k, tokens_per_epoch */
    assert_string_equal(warning_about(&w, "tokens_per_epoch"),
                        "column 'tokens_per_epoch' (unique_tokens) is not read by the law dense: only the "
                        "data-constrained base reads unique tokens");
    assert_non_null(strstr(warning_about(&w, "top_k"), "no law reads k"));
    ls_warnings_free(&w);
    memset(&w, 0, sizeof w);
    ls_law_kind dc = {LS_LAW_BASE_DATA_CONSTRAINED, LS_LAW_MAPPING_NONE};
    assert_int_equal(ls_sweep_column_warnings(s, dc, &w), 0);
    assert_string_equal(warning_about(&w, "tokens_per_epoch"),
                        "column 'tokens_per_epoch' (unique_tokens) holds 1500000000 for every one of the 3 runs; if "
                        "that is not each run's own value (a placeholder), give the right column with --map "
                        "unique_tokens=COLUMN, or set this one aside with --map unread=tokens_per_epoch");
    assert_int_equal(w.n, 4);
    ls_warnings_free(&w);
    memset(&w, 0, sizeof w);
    /* moe:bounded-sparse reads n_total (m) and E; R and n_loop have no column. */
    assert_int_equal(ls_sweep_column_warnings(s, (ls_law_kind){LS_LAW_BASE_MOE, LS_LAW_MAPPING_BOUNDED_SPARSE}, &w), 0);
    assert_int_equal(w.n, 2);
    assert_string_not_equal(warning_about(&w, "top_k"), "");
    assert_string_not_equal(warning_about(&w, "tokens_per_epoch"), "");
    ls_warnings_free(&w);
    ls_sweep_free(s);

    /* Through the reader, held and streamed. */
    ls_warnings held = {0}, streamed = {0};
    ls_sweep_options o = {.law = &dc, .warnings = &held};
    s = read_text(text, &o, &err);
    assert_non_null(s);
    ls_sweep_free(s);
    char path[64];
    snprintf(path, sizeof path, "%s", write_temp_text(text, 0));
    const char *paths[] = {path};
    o.warnings = &streamed;
    ls_sweep_handler h = {.on_row = ignore_row};
    size_t nrows = 0;
    assert_int_equal(ls_sweep_stream(paths, 1, &o, &h, &nrows, &err), 0);
    unlink(path);
    assert_int_equal(nrows, 3);
    assert_int_equal(held.n, streamed.n);
    for (size_t i = 0; i < held.n; i++)
        assert_string_equal(held.v[i].message, streamed.v[i].message);
    ls_warnings_free(&held);
    ls_warnings_free(&streamed);

    /* A placeholder can be set aside: the runs' data is then unlimited. */
    const char *maps[] = {"unread=tokens_per_epoch"};
    ls_sweep_options aside = {.maps = maps, .nmaps = 1};
    s = read_text(text, &aside, &err);
    assert_non_null(s);
    assert_null(s->quantity_column[LS_SWEEP_UNIQUE_TOKENS]);
    assert_true(isnan(s->rows[0].unique_tokens));
    ls_sweep_free(s);
}


/* A column one slip from a quantity that has none is a warning with the
 * column as its subject, in the list when one is given. */
static void a_slip_of_a_name_is_a_warning_about_that_column(void **state)
{
    (void)state;
    ls_warnings w = {0};
    ls_sweep_options o = {.warnings = &w};
    ls_error err;
    ls_sweep *s = read_text("n_act,n_totl,tokens,loss\n1e8,2e8,1e10,3.1\n", &o, &err);
    assert_non_null(s);
    assert_int_equal(w.n, 1);
    assert_int_equal(w.v[0].code, LS_WARNING_DATA);
    assert_string_equal(w.v[0].subject, "n_totl");
    assert_non_null(strstr(w.v[0].message, "no column gives n_total, so n_total = n_act (dense); column 'n_totl' is "
                                           "not read: if it is n_total, --map n_total=n_totl"));
    ls_warnings_free(&w);
    ls_sweep_free(s);
}

/* The row limit counts the rows of every file read as one sweep; JSON
 * Lines counts its lines on the reading that collects its columns. */
static void the_row_limit_counts_every_file(void **state)
{
    (void)state;
    static const char *const texts[2][2] = {
        {"n_act,tokens,loss\n1e8,1e10,3.1\n2e8,1e10,3.0\n", "n_act,tokens,loss\n3e8,1e10,2.9\n4e8,1e10,2.8\n"},
        {"{\"n_act\": 1e8, \"tokens\": 1e10, \"loss\": 3.1}\n{\"n_act\": 2e8, \"tokens\": 1e10, \"loss\": 3.0}\n",
         "{\"n_act\": 3e8, \"tokens\": 1e10, \"loss\": 2.9}\n{\"n_act\": 4e8, \"tokens\": 1e10, \"loss\": 2.8}\n"}};
    static const long second_line[2] = {3, 2}; /* CSV: the second row is on line 3 */
    for (int jsonl = 0; jsonl < 2; jsonl++) {
        char a[64], b[64];
        snprintf(a, sizeof a, "%s", write_temp_text(texts[jsonl][0], 0));
        snprintf(b, sizeof b, "%s", write_temp_text(texts[jsonl][1], 0));
        const char *paths[] = {a, b};
        ls_sweep_options o = {.max_rows = 3};
        ls_error err;
        assert_null(ls_sweep_read(paths, 2, &o, &err));
        char want[160];
        snprintf(want, sizeof want, "%s:%ld: more than 3 rows, the limit for a sweep held in memory", b,
                 second_line[jsonl]);
        assert_string_equal(err.message, want);
        o.max_rows = 4;
        ls_sweep *s = ls_sweep_read(paths, 2, &o, &err);
        assert_non_null(s);
        assert_int_equal(s->n, 4);
        ls_sweep_free(s);
        unlink(a);
        unlink(b);
    }
}


/* Configuration columns: each run counted as shape counts its model, the
 * base completing what the columns leave out, widths scaled with d_model. */
static void configuration_columns_count_as_shape_does(void **state)
{
    (void)state;
    ls_shape_spec base;
    ls_shape_spec_unset(&base);
    base.d_model = 768;
    base.d_ff = 3072;
    base.mlp = LS_SHAPE_MLP_RELU2;
    base.heads = 6;
    base.head_layers = base.tail_layers = 2;
    base.head_experts = base.tail_experts = 1;
    base.norm_params = LS_SHAPE_NORMS_SANDWICH;
    base.injection = LS_SHAPE_INJECTION_CONCAT;
    ls_sweep_options o = {0};
    o.config_base = &base;
    ls_error err;
    ls_sweep *s = read_text("n_embd,n_head,n_layer,E,loops,tokens,loss\n"
                            "512,4,4,1,1,1e10,3\n640,5,6,8,3,1e10,2.9\n",
                            &o, &err);
    if (!s)
        fail_msg("%s", err.message);
    assert_int_equal(s->n, 2);
    assert_string_equal(s->counted_from, "d_model ('n_embd'), loop_layers ('n_layer'), heads ('n_head')");
    for (size_t i = 0; i < 2; i++) {
        ls_shape_spec t = base;
        t.d_model = i ? 640 : 512;
        t.d_ff = 4 * t.d_model;
        t.heads = i ? 5 : 4;
        t.layers = i ? 6 : 4;
        t.experts = i ? 8 : 1;
        t.loops = i ? 3 : 1;
        t.vocab = 1;
        ls_shape_counts c;
        assert_int_equal(ls_shape_resolve(&t, &err), 0);
        assert_int_equal(ls_shape_count_params(&t, &c, &err), 0);
        assert_true(s->rows[i].n_act == (double)c.non_embedding.once);
        assert_true(s->rows[i].n_total == (double)c.non_embedding.stored);
        assert_true(s->rows[i].n_loop == (double)c.n_loop);
        assert_true(s->rows[i].E == t.experts && s->rows[i].R == t.loops);
    }
    ls_sweep_free(s);
    /* Without a base, every field the count needs is a column. */
    s = read_text("d_model,d_ff,layers,tokens,loss\n256,1024,2,1e9,3\n", NULL, &err);
    if (!s)
        fail_msg("%s", err.message);
    assert_true(s->rows[0].n_act == 2.0 * (4 * 256 * 256 + 3 * 256 * 1024));
    ls_sweep_free(s);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(configuration_columns_count_as_shape_does),
        cmocka_unit_test(aliases_match_in_any_case_and_defaults_apply),
        cmocka_unit_test(map_renames_and_tokens_come_from_flops),
        cmocka_unit_test(tokens_and_flops_must_agree_within_the_tolerance),
        cmocka_unit_test(where_filters_are_anded_over_quantities_and_other_columns),
        cmocka_unit_test(groups_and_echoed_cells),
        cmocka_unit_test(several_files_concatenate),
        cmocka_unit_test(row_check_names_the_quantity_at_fault),
        cmocka_unit_test(a_million_rows_read_in_one_pass),
        cmocka_unit_test(each_quantity_has_one_range),
        cmocka_unit_test(a_cell_outside_its_range_is_refused_as_the_option_is),
        cmocka_unit_test(unit_suffixes_only_where_a_count_takes_them),
        cmocka_unit_test(derived_names_never_shadow_a_column),
        cmocka_unit_test(column_warnings_name_unread_and_constant_columns),
        cmocka_unit_test(a_slip_of_a_name_is_a_warning_about_that_column),
        cmocka_unit_test(the_row_limit_counts_every_file),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
