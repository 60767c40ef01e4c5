/* The .npy reader: float16 widening against a formula written out
 * independently, headers of every version read, and every malformed header
 * or size refused with a message that says what is wrong. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "npy_internal.h"
#include "tmpfile.h"

/* binary16 by its definition: (-1)^s 2^(e-15) (1 + m/1024), subnormals
 * 2^-14 (m/1024), e = 31 infinity or NaN. */
static double half_reference(uint16_t h)
{
    int s = h >> 15, e = (h >> 10) & 31, m = h & 1023;
    double v;
    if (e == 31)
        v = m ? NAN : INFINITY;
    else if (e == 0)
        v = ldexp((double)m, -24);
    else
        v = ldexp(1024.0 + m, e - 25);
    return s ? -v : v;
}

static void half_to_float_matches_the_definition_for_all_65536_values(void **state)
{
    (void)state;
    for (uint32_t h = 0; h < 65536; h++) {
        float got = ls_npy_half_to_float((uint16_t)h);
        double want = half_reference((uint16_t)h);
        if (isnan(want)) {
            assert_true(isnan(got));
        } else {
            assert_true((double)got == want);
            assert_int_equal(signbit(got) != 0, (h >> 15) != 0); /* -0.0 keeps its sign */
        }
    }
    assert_true(ls_npy_half_to_float(0x3c00) == 1.0f);
    assert_true(ls_npy_half_to_float(0xc000) == -2.0f);
    assert_true(ls_npy_half_to_float(0x7bff) == 65504.0f);
    assert_true(ls_npy_half_to_float(0x0001) == 0x1p-24f);  /* smallest subnormal */
    assert_true(ls_npy_half_to_float(0x03ff) == 0x1.ff8p-15f); /* largest subnormal */
    assert_true(ls_npy_half_to_float(0x0400) == 0x1p-14f);  /* smallest normal */
    assert_true(isinf(ls_npy_half_to_float(0xfc00)) && ls_npy_half_to_float(0xfc00) < 0);
}

/* A .npy file: magic, version, header padded with spaces to a multiple of
 * 64 bytes (128 at least) and ending in a newline, then data. */
static size_t make_npy(unsigned char *out, int major, const char *dict, const void *data, size_t data_len)
{
    size_t prefix = major == 1 ? 10 : 12;
    size_t len = strlen(dict);
    size_t total = ((prefix + len + 1 + 63) / 64) * 64;
    size_t header_len = (total < 128 ? 128 : total) - prefix; /* 128 at least: sizes in messages stay put */
    memcpy(out, "\x93NUMPY", 6);
    out[6] = (unsigned char)major;
    out[7] = 0;
    out[8] = (unsigned char)(header_len & 0xff);
    out[9] = (unsigned char)(header_len >> 8);
    if (major > 1)
        out[10] = out[11] = 0;
    memcpy(out + prefix, dict, len);
    memset(out + prefix + len, ' ', header_len - len - 1);
    out[prefix + header_len - 1] = '\n';
    if (data_len > 0) /* data may be NULL then */
        memcpy(out + prefix + header_len, data, data_len);
    return prefix + header_len + data_len;
}

static const char *write_npy(int major, const char *dict, const void *data, size_t data_len)
{
    static unsigned char buf[1 << 12];
    size_t n = make_npy(buf, major, dict, data, data_len);
    return write_temp(buf, n, 0);
}

static void reads_every_version_and_float_width(void **state)
{
    (void)state;
    const float f4[6] = {1.5f, -2.25f, 3.0e-3f, 0.0f, 65504.0f, -7.0f};
    const double f8[6] = {1.5, -2.25, 3.0e-3, 0.0, 1e300, -7.0};
    const uint16_t f2[6] = {0x3e00, 0xc080, 0x0001, 0x8000, 0x7bff, 0xc700}; /* 1.5 -2.25 2^-24 -0 65504 -7 */
    const struct {
        int major;
        const char *dict;
        const void *data;
        size_t bytes;
        double want[6];
    } cases[] = {
        {1, "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }", f4, sizeof f4,
         {1.5, -2.25, (double)3.0e-3f, 0, 65504, -7}},
        {2, "{'descr': '<f8', 'fortran_order': False, 'shape': (6,), }", f8, sizeof f8, {1.5, -2.25, 3.0e-3, 0, 1e300, -7}},
        {3, "{\"shape\": (3L, 2L), \"fortran_order\": False, \"descr\": \"<f2\"}", f2, sizeof f2,
         {1.5, -2.25, 0x1p-24, 0, 65504, -7}},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        const char *path = write_npy(cases[c].major, cases[c].dict, cases[c].data, cases[c].bytes);
        ls_error err;
        npy_reader *r = ls_npy_open(path, &err);
        assert_non_null(r);
        const npy_header *h = ls_npy_header_of(r);
        assert_int_equal(h->major, cases[c].major);
        assert_int_equal(h->count, 6);
        double got[6];
        assert_int_equal(ls_npy_read(r, got, 2, &err), 0);
        assert_int_equal(ls_npy_read(r, got + 2, 4, &err), 0);
        for (int i = 0; i < 6; i++)
            assert_true(got[i] == cases[c].want[i]);
        assert_int_equal(ls_npy_expect_end(r, &err), 0);
        ls_npy_close(r);
        unlink(path);
    }
    char text[64];
    npy_header h = {.ndim = 4, .shape = {255500, 16, 1, 64}};
    assert_string_equal(ls_npy_shape_text(&h, text, sizeof text), "(255500, 16, 1, 64)");
    h.ndim = 1;
    assert_string_equal(ls_npy_shape_text(&h, text, sizeof text), "(255500,)");
}

static void reads_across_its_buffer_in_any_chunk_size(void **state)
{
    (void)state;
    /* 700,000 float16 values (1.4 MB) straddle the 1 MiB read buffer; the
     * value of element i is (i mod 2048) as an exact half. */
    size_t n = 700000;
    uint16_t *data = malloc(n * sizeof *data);
    assert_non_null(data);
    for (size_t i = 0; i < n; i++) {
        float want = (float)(i % 2048);
        /* encode: integers below 2048 are exact halves */
        uint16_t bits = 0;
        if (want != 0) {
            int e;
            double m = frexp(want, &e); /* want = m 2^e, m in [0.5, 1) */
            bits = (uint16_t)((e - 1 + 15) << 10 | (int)((m * 2 - 1) * 1024));
        }
        data[i] = bits;
    }
    unsigned char header[128];
    size_t hl = make_npy(header, 1, "{'descr': '<f2', 'fortran_order': False, 'shape': (700000,), }", NULL, 0);
    unsigned char *file = malloc(hl + n * 2);
    memcpy(file, header, hl);
    memcpy(file + hl, data, n * 2);
    const char *path = write_temp(file, hl + n * 2, 0);
    free(file);
    free(data);
    ls_error err;
    npy_reader *r = ls_npy_open(path, &err);
    assert_non_null(r);
    double chunk[1000];
    size_t at = 0, sizes[] = {1, 999, 7, 1000, 333};
    for (size_t k = 0; at < n; k++) {
        size_t take = sizes[k % 5] < n - at ? sizes[k % 5] : n - at;
        assert_int_equal(ls_npy_read(r, chunk, take, &err), 0);
        for (size_t i = 0; i < take; i++)
            assert_true(chunk[i] == (double)((at + i) % 2048));
        at += take;
    }
    assert_int_equal(ls_npy_expect_end(r, &err), 0);
    ls_npy_close(r);
    unlink(path);
}

static void refuse(const char *path, const char *message)
{
    ls_error err;
    npy_reader *r = ls_npy_open(path, &err);
    assert_null(r);
    assert_int_equal(err.code, LS_ERR_DATA);
    const char *colon = strchr(err.message, ':'); /* after the file name */
    assert_non_null(colon);
    if (strcmp(colon + 2, message) != 0)
        fail_msg("got '%s', want '%s'", colon + 2, message);
    unlink(path);
}

static void bad_headers_are_refused_with_a_reason(void **state)
{
    (void)state;
    const float four[4] = {1, 2, 3, 4};
    static const struct {
        const char *dict;
        const char *message;
    } cases[] = {
        {"{'descr': '>f4', 'fortran_order': False, 'shape': (4,), }",
         ".npy header: dtype '>f4' is big-endian; save it as '<f4' (a.astype('<f4'))"},
        {"{'descr': '<i4', 'fortran_order': False, 'shape': (4,), }",
         ".npy header: dtype '<i4' is not float16, float32 or float64 ('<f2', '<f4', '<f8')"},
        {"{'descr': '|f2', 'fortran_order': False, 'shape': (8,), }",
         ".npy header: dtype '|f2' has no valid byte order; expected '<f2'"},
        {"{'descr': '<f4', 'fortran_order': True, 'shape': (2, 2), }",
         ".npy header: the array is in Fortran order; save it in C order (np.ascontiguousarray(a))"},
        {"{'descr': '<f4', 'shape': (4,), }", ".npy header: missing key 'fortran_order'"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (4,), 'extra': 1}", ".npy header: unexpected key 'extra'"},
        {"{'descr': '<f4', 'descr': '<f4', 'fortran_order': False, 'shape': (4,)}",
         ".npy header: key 'descr' appears twice"},
        {"{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (4,)}",
         ".npy header: a structured dtype is not an array of floats"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (4, -1)}",
         ".npy header: expected a non-negative integer in 'shape' at byte 54 of the header"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': [4]}",
         ".npy header: expected a tuple for 'shape' at byte 50 of the header"},
        {"{'descr': '<f4', 'fortran_order': maybe, 'shape': (4,)}",
         ".npy header: expected True or False at byte 34 of the header"},
        {"{'descr': '<f4' 'fortran_order': False, 'shape': (4,)}",
         ".npy header: expected ',' or '}' at byte 16 of the header"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (4,)} x",
         ".npy header: text after the closing '}' at byte 56 of the header"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (3,), }",
         "file is 144 bytes, but the header says 140 (128-byte header + shape (3,) of 4-byte '<f4')"},
        {"{'descr': '<f4', 'fortran_order': False, 'shape': (2, 3), }",
         "file is 144 bytes, but the header says 152 (128-byte header + shape (2, 3) of 4-byte '<f4')"},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        unsigned char buf[256];
        size_t n = make_npy(buf, 1, cases[c].dict, four, sizeof four);
        assert_int_equal(n, 144); /* 128 bytes of header, 16 of data */
        refuse(write_temp(buf, n, 0), cases[c].message);
    }
    unsigned char buf[256];
    size_t n = make_npy(buf, 1, "{'descr': '<f4', 'fortran_order': False, 'shape': (4,), }", four, sizeof four);
    buf[6] = 4;
    refuse(write_temp(buf, n, 0), ".npy format version 4.0 is not 1.0, 2.0 or 3.0");
    buf[6] = 1;
    refuse(write_temp(buf, 9, 0), ".npy header cut short");
    refuse(write_temp(buf, 60, 0), ".npy header cut short");
    refuse(write_temp_text("token,loop\n", 0), "not a .npy file (no \\x93NUMPY magic string)");
    refuse(write_temp(buf, n, 1), "gzip-compressed; a .npy file must be uncompressed");
    refuse(write_temp("PK\x03\x04rest", 8, 0), "a zip archive (.npz?); extract the .npy array first");
    buf[8] = 0x11, buf[9] = 0x27; /* header length 10001 */
    refuse(write_temp(buf, n, 0), ".npy header of 10001 bytes is longer than 10000");
}

static void missing_files_and_sniffing(void **state)
{
    (void)state;
    ls_error err;
    assert_null(ls_npy_open("/nonexistent/x.npy", &err));
    assert_int_equal(err.code, LS_ERR_NOINPUT);
    assert_null(ls_npy_open("/tmp", &err));
    assert_int_equal(err.code, LS_ERR_NOINPUT);
    const float one = 1;
    const char *path = write_npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }", &one, sizeof one);
    assert_int_equal(ls_npy_sniff(path), NPY_SNIFF_NPY);
    npy_reader *r = ls_npy_open(path, &err);
    assert_non_null(r);
    assert_int_equal(ls_npy_header_of(r)->ndim, 0);
    assert_int_equal(ls_npy_header_of(r)->count, 1); /* a 0-d array holds one value */
    ls_npy_close(r);
    unlink(path);
    path = write_npy(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (), }", &one, sizeof one);
    unsigned char bytes[256];
    FILE *fp = fopen(path, "rb");
    size_t n = fread(bytes, 1, sizeof bytes, fp);
    fclose(fp);
    unlink(path);
    path = write_temp(bytes, n, 1);
    assert_int_equal(ls_npy_sniff(path), NPY_SNIFF_GZIP_NPY);
    unlink(path);
    path = write_temp_text("z0\n1\n", 1);
    assert_int_equal(ls_npy_sniff(path), NPY_SNIFF_OTHER);
    unlink(path);
    assert_int_equal(ls_npy_sniff("-"), NPY_SNIFF_OTHER);
    assert_int_equal(ls_npy_sniff("/nonexistent/x.npy"), NPY_SNIFF_OTHER);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(half_to_float_matches_the_definition_for_all_65536_values),
        cmocka_unit_test(reads_every_version_and_float_width),
        cmocka_unit_test(reads_across_its_buffer_in_any_chunk_size),
        cmocka_unit_test(bad_headers_are_refused_with_a_reason),
        cmocka_unit_test(missing_files_and_sniffing),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
