/* Router health on logits whose answers are worked out by hand: the
 * no-preference router (B2 = 1, MMR = 1), a collapsed router (B2 = k/E), a
 * two-token example, ties, odd E; the .npy and CSV readers agree with the
 * accumulator and refuse bad input by file and position. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "loopscale/route.h"
#include "checks.h"
#include "tmpfile.h"

static ls_route_report *run(size_t N, size_t L, size_t D, size_t E, size_t k, const double *z)
{
    ls_error err;
    ls_route_acc *a = ls_route_acc_new(L, D, E, k, &err);
    assert_non_null(a);
    for (size_t t = 0; t < N; t++)
        ls_route_acc_add(a, z + t * L * D * E);
    ls_route_report *r = ls_route_acc_report(a, &err);
    ls_route_acc_free(a);
    assert_non_null(r);
    return r;
}

static void no_preference_router_has_b2_one_and_mmr_one(void **state)
{
    (void)state;
    /* Every logit equal: each expert expects k/E of every decision. */
    enum { N = 5, L = 3, D = 2, E = 8, K = 2 };
    static double z[N * L * D * E]; /* zeros */
    ls_route_report *r = run(N, L, D, E, K, z);
    for (size_t d = 0; d < D; d++) {
        close_to(r->per_layer[d].b2, 1);
        close_to(r->per_layer[d].mmr, 1);
        assert_int_equal(r->per_layer[d].ties, N * L);
        for (size_t l = 0; l < L; l++) {
            close_to(r->per_loop[d * L + l].b2, 1);
            close_to(r->per_loop[d * L + l].mmr, 1);
        }
    }
    /* The sets break ties towards expert 0, so they never change. */
    close_to(r->per_layer[0].distinct, 2);
    close_to(r->per_layer[0].switched, 0);
    close_to(r->all.b2, 1);
    ls_route_report_free(r);
}

static void collapsed_router_has_b2_k_over_e(void **state)
{
    (void)state;
    /* Every decision prefers experts 3 and 5: loads (0,0,0,1,0,1,0,0)/2,
     * B2 = (1/8) / (2 x 1/4) = 2/8.  z_(1) = 4.5 and the 4th largest is 0.25,
     * so MMR = e^4.25. */
    enum { N = 7, L = 2, D = 1, E = 8, K = 2 };
    double z[N * L * D * E];
    for (size_t i = 0; i < N * L * D; i++) {
        const double row[E] = {0.25, -1, 0.25, 4.5, 0.25, 3.25, -2, 0.25};
        memcpy(z + i * E, row, sizeof row);
    }
    ls_route_report *r = run(N, L, D, E, K, z);
    close_to(r->per_layer[0].b2, 0.25);
    close_to(r->per_loop[0].b2, 0.25);
    close_to(r->per_layer[0].mmr, exp(4.25));
    close_to(r->per_layer[0].distinct, 2);
    close_to(r->per_layer[0].disjoint, 0);
    close_to(r->per_layer[0].switched, 0);
    assert_int_equal(r->per_layer[0].ties, 0);
    assert_true(isnan(r->per_loop[0].disjoint)); /* loop 1 has no loop before it */
    ls_route_report_free(r);
}

static void two_tokens_two_loops_worked_by_hand(void **state)
{
    (void)state;
    /* E 4, top-1, j = 2.
     *   token 0  loop 1  (2, 0, 1, -1)    -> {0}, z1 - z2 = 1
     *            loop 2  (0, 3, 0.5, 0)   -> {1}, 2.5
     *   token 1  loop 1  (0, 0, 5, 1)     -> {2}, 4
     *            loop 2  (0, 0, 5, 2)     -> {2}, 3
     * loop 1: shares (1/2, 0, 1/2, 0), B2 = (1/4)/(1/2) = 1/2, MMR e^((1+4)/2)
     * loop 2: shares (0, 1/2, 1/2, 0), B2 = 1/2, MMR e^((2.5+3)/2)
     * pooled: shares (1/4, 1/4, 1/2, 0), B2 = (1/4)/(3/8) = 2/3, MMR e^(10.5/4)
     * distinct through loop 2: token 0 two experts, token 1 one: 1.5
     * disjoint and switched: token 0 only, 1/2. */
    const double z[] = {2, 0, 1, -1, 0, 3, 0.5, 0, 0, 0, 5, 1, 0, 0, 5, 2};
    ls_route_report *r = run(2, 2, 1, 4, 1, z);
    close_to(r->per_loop[0].b2, 0.5);
    close_to(r->per_loop[1].b2, 0.5);
    close_to(r->per_layer[0].b2, 2.0 / 3.0);
    close_to(r->per_loop[0].mmr, exp(2.5));
    close_to(r->per_loop[1].mmr, exp(2.75));
    close_to(r->per_layer[0].mmr, exp(2.625));
    close_to(r->per_loop[0].distinct, 1);
    close_to(r->per_loop[1].distinct, 1.5);
    close_to(r->per_layer[0].distinct, 1.5);
    close_to(r->per_loop[1].disjoint, 0.5);
    close_to(r->per_loop[1].switched, 0.5);
    close_to(r->per_layer[0].disjoint, 0.5);
    assert_int_equal(r->per_layer[0].decisions, 4);
    ls_route_report_free(r);
}

static void ties_split_the_load_and_odd_e_takes_the_median(void **state)
{
    (void)state;
    /* E 5, top-2: (1, 1, 1, 0, -3) ties three ways for two places, each 2/3:
     * shares (2/9, 2/9, 2/9, 0, 0)... over one decision (2/3, 2/3, 2/3, 0, 0)/2,
     * B2 = (1/5) / (3 x 1/9) = 3/5.  j = ceil(5/2) = 3: z_(3) = 1, MMR = 1.
     * Second token (5, 4, 3, 2, 1): no tie, z_(1) - z_(3) = 2. */
    const double z[] = {1, 1, 1, 0, -3, 5, 4, 3, 2, 1};
    ls_route_report *r = run(1, 1, 1, 5, 2, z);
    close_to(r->per_layer[0].b2, 0.6);
    close_to(r->per_layer[0].mmr, 1);
    assert_int_equal(r->per_layer[0].ties, 1);
    assert_true(isnan(r->per_layer[0].switched)); /* a single loop */
    ls_route_report_free(r);
    r = run(1, 1, 1, 5, 2, z + 5);
    close_to(r->per_layer[0].mmr, exp(2));
    assert_int_equal(r->per_layer[0].ties, 0);
    ls_route_report_free(r);
}

static void layers_pool_into_the_all_row(void **state)
{
    (void)state;
    /* Two layers, E 4, top-2, two loops, one token.
     *   layer 1: loop 1 (4, 3, 0, 0) -> {0,1};  loop 2 (0, 0, 4, 3) -> {2,3}: disjoint
     *   layer 2: loop 1 (4, 3, 0, 0) -> {0,1};  loop 2 (0, 4, 3, 0) -> {1,2}: switched
     * distinct: 4 and 3, 7 in all (Foil's U_t); disjoint 1/2 and switched 1
     * over the two (layer, loop pair)s.  All-layer B2 over the 8 (layer,
     * expert) loads (1,1,1,1, 1,2,1,0): sum 8, squares 10, 64 / (8 x 10). */
    const double z[] = {4, 3, 0, 0, 4, 3, 0, 0, 0, 0, 4, 3, 0, 4, 3, 0};
    ls_route_report *r = run(1, 2, 2, 4, 2, z);
    close_to(r->per_layer[0].distinct, 4);
    close_to(r->per_layer[1].distinct, 3);
    close_to(r->all.distinct, 7);
    close_to(r->per_layer[0].disjoint, 1);
    close_to(r->per_layer[1].disjoint, 0);
    close_to(r->all.disjoint, 0.5);
    close_to(r->all.switched, 1);
    close_to(r->all.b2, 0.8);
    close_to(r->per_layer[0].b2, 1);
    close_to(r->per_layer[1].b2, 16.0 / (4 * 6));
    ls_route_report_free(r);
}

/* ---- files ---------------------------------------------------------------- */

/* A float32 .npy file of the given 4-D shape. */
static const char *write_npy4(const size_t shape[4], const float *data)
{
    char dict[128];
    int len = snprintf(dict, sizeof dict, "{'descr': '<f4', 'fortran_order': False, 'shape': (%zu, %zu, %zu, %zu), }",
                       shape[0], shape[1], shape[2], shape[3]);
    size_t header = 128 - 10;
    size_t count = shape[0] * shape[1] * shape[2] * shape[3];
    unsigned char *buf = calloc(1, 128 + count * 4);
    memcpy(buf, "\x93NUMPY\x01\x00", 8);
    buf[8] = (unsigned char)header;
    buf[9] = 0;
    memcpy(buf + 10, dict, (size_t)len);
    memset(buf + 10 + len, ' ', header - (size_t)len - 1);
    buf[127] = '\n';
    memcpy(buf + 128, data, count * 4);
    const char *path = write_temp(buf, 128 + count * 4, 0);
    free(buf);
    return path;
}

static void files_agree_with_the_accumulator(void **state)
{
    (void)state;
    const double z[] = {2, 0, 1, -1, 0, 3, 0.5, 0, 0, 0, 5, 1, 0, 0, 5, 2};
    float zf[16];
    for (int i = 0; i < 16; i++)
        zf[i] = (float)z[i];
    ls_route_report *want = run(2, 2, 1, 4, 1, z);
    ls_error err;
    const size_t shape[4] = {2, 2, 1, 4};
    const char *path = write_npy4(shape, zf);
    ls_route_report *got = ls_route_read(path, 1, &err);
    unlink(path);
    assert_non_null(got);
    assert_string_equal(got->source, "float32 .npy");
    assert_memory_equal(got->per_loop, want->per_loop, 2 * sizeof *got->per_loop);
    ls_route_report_free(got);
    /* CSV, rows in any order within a token, gzip, token ids not from 0 */
    path = write_temp_text("token,loop,layer,z0,z1,z2,z3\n"
                           "7,2,1,0,3,0.5,0\n"
                           "7,1,1,2,0,1,-1\n"
                           "9,1,1,0,0,5,1\n"
                           "9,2,1,0,0,5,2\n",
                           1);
    got = ls_route_read(path, 1, &err);
    unlink(path);
    assert_non_null(got);
    assert_string_equal(got->source, "CSV");
    assert_int_equal(got->tokens, 2);
    assert_memory_equal(got->per_loop, want->per_loop, 2 * sizeof *got->per_loop);
    ls_route_report_free(got);
    ls_route_report_free(want);
}

static void refuse(const char *path, size_t k, int code, const char *message)
{
    ls_error err;
    ls_route_report *r = ls_route_read(path, k, &err);
    unlink(path);
    assert_null(r);
    assert_int_equal(err.code, code);
    assert_message(err.message, message, path);
}

static void bad_logits_are_refused_by_position(void **state)
{
    (void)state;
    const size_t shape[4] = {2, 2, 1, 4};
    float zf[16] = {0};
    zf[13] = NAN; /* token 1, loop 2 (index 1), layer 1, expert 1 */
    refuse(write_npy4(shape, zf), 1, LS_ERR_DATA, "@: logit [1, 1, 0, 1] (token 1, loop 2, layer 1, expert 1) is NaN");
    zf[13] = INFINITY;
    refuse(write_npy4(shape, zf), 1, LS_ERR_DATA, "@: logit [1, 1, 0, 1] (token 1, loop 2, layer 1, expert 1) is infinite");
    zf[13] = 0;
    refuse(write_npy4(shape, zf), 5, LS_ERR_USAGE, "top-k 5 is more than the 4 experts of @");
    const size_t three[4] = {2, 2, 0, 4};
    refuse(write_npy4(three, zf), 1, LS_ERR_DATA,
           "@: shape (2, 2, 0, 4) is not [tokens, loops, layers, experts] with every extent at least 1");
    static const struct {
        const char *csv, *message;
    } cases[] = {
        {"token,loop,layer,z0,z1\n0,1,1,nan,1\n", "@:2: column 'z0': 'nan' is not a finite number"},
        {"token,loop,layer,z0,z1\n0,0,1,0,1\n", "@:2: column 'loop': '0' is out of range: loops are counted from 1"},
        {"token,loop,layer,z0,z1\n0,1,1,0,1\n0,2,1,0,1\n1,3,1,0,1\n",
         "@:4: column 'loop': 3 is out of range 1..2 (as in the first token)"},
        {"token,loop,layer,z0,z1\n0,1,1,0,1\n0,2,1,0,1\n1,2,1,0,1\n", "@:4: token 1 has no row for loop 1, layer 1"},
        {"token,loop,layer,z0,z1\n0,1,1,0,1\n0,3,1,0,1\n", "@:3: token 0 has no row for loop 2, layer 1"},
        {"token,loop,layer,z0,z1\n0,1,1,0,1\n0,1,1,0,1\n", "@:3: token 0 has loop 1, layer 1 twice (also on line 2)"},
        {"token,loop,layer,z0,z1\n5,1,1,0,1\n4,1,1,0,1\n",
         "@:3: token 4 comes after token 5 (rows must be grouped by token, tokens increasing)"},
        {"token,loop,layer,z0,z1\n5,1,1,0\n", "@:2: 4 fields, but the header has 5"},
        {"token,loop,layer,z0,z2\n", "@:1: column 5 is 'z2' where 'z1' belongs; the header must be token,loop,layer,z0,z1,..."},
        {"token,layer,loop,z0\n", "@:1: column 2 is 'layer' where 'loop' belongs; the header must be token,loop,layer,z0,z1,..."},
        {"token,loop,layer\n", "@:1: 3 columns; the header must be token,loop,layer,z0,z1,..."},
        {"token,loop,layer,z0\n", "@: no rows after the header"},
        {"", "@: empty file (no header row)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        refuse(write_temp_text(cases[i].csv, 0), 1, LS_ERR_DATA, cases[i].message);
    ls_error err;
    assert_null(ls_route_read("/nonexistent/logits.csv", 1, &err));
    assert_int_equal(err.code, LS_ERR_NOINPUT);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(no_preference_router_has_b2_one_and_mmr_one),
        cmocka_unit_test(collapsed_router_has_b2_k_over_e),
        cmocka_unit_test(two_tokens_two_loops_worked_by_hand),
        cmocka_unit_test(ties_split_the_load_and_odd_e_takes_the_median),
        cmocka_unit_test(layers_pool_into_the_all_row),
        cmocka_unit_test(files_agree_with_the_accumulator),
        cmocka_unit_test(bad_logits_are_refused_by_position),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
