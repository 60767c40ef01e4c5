/* Law files: bit-exact round trips, hand-written minimal files, and an
 * error naming the key for everything malformed. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <sys/stat.h>
#include <unistd.h>

#include "loopscale/lawfile.h"
#include "tmpfile.h"

static double random_double(void)
{
    /* Non-round values across many magnitudes. */
    double mantissa = (double)rand() / RAND_MAX + 1e-3;
    return mantissa * pow(10.0, (double)(rand() % 21 - 10));
}

/* A non-round exponent inside the domain of alpha, beta, phi and theta,
 * (0, 5]. */
static double random_exponent(void) { return 4.8 * ((double)rand() / RAND_MAX) + 1e-3; }

static void every_double_round_trips_bit_for_bit(void **state)
{
    (void)state;
    srand(2385);
    ls_law l;
    ls_law_init(&l, (ls_law_kind){LS_LAW_BASE_MOE, LS_LAW_MAPPING_BOUNDED_SPARSE});
    ls_law_param used[LS_LAW_NPARAMS];
    size_t nused = ls_law_params_of(l.kind, used);
    for (int trial = 0; trial < 200; trial++) {
        ls_lawfile *lf = ls_lawfile_new(&l);
        for (size_t i = 0; i < nused; i++)
            lf->law.p[used[i]] = random_double();
        lf->law.p[LS_LAW_P_E_START] = 1;
        lf->law.p[LS_LAW_P_E_MAX] += 1;
        const ls_law_param exponents[] = {LS_LAW_P_ALPHA, LS_LAW_P_BETA, LS_LAW_P_GAMMA, LS_LAW_P_OMEGA, LS_LAW_P_ZETA, LS_LAW_P_THETA};
        for (size_t i = 0; i < sizeof exponents / sizeof exponents[0]; i++)
            lf->law.p[exponents[i]] = random_exponent();
        lf->law.p[LS_LAW_P_DELTA] = -random_exponent();
        lf->fixed[LS_LAW_P_E_START] = 1;
        lf->has_stderr = 1;
        lf->has_ci = 1;
        lf->ci_level = 0.95;
        for (int j = 0; j < LS_LAW_NPARAMS; j++) /* entries of unused parameters are NaN */
            lf->stderr_of[j] = lf->ci_low[j] = lf->ci_high[j] = NAN;
        for (size_t i = 0; i < nused; i++) {
            lf->stderr_of[used[i]] = random_double();
            lf->ci_low[used[i]] = lf->law.p[used[i]] - random_double();
            lf->ci_high[used[i]] = lf->law.p[used[i]] + random_double();
        }
        lf->ndraws = 3;
        lf->draws = malloc(3 * LS_LAW_NPARAMS * sizeof *lf->draws);
        for (int d = 0; d < 3; d++) {
            memcpy(lf->draws + d * LS_LAW_NPARAMS, lf->law.p, sizeof lf->law.p);
            for (size_t i = 0; i < nused; i++)
                lf->draws[d * LS_LAW_NPARAMS + used[i]] *= 1 + 0.01 * d;
        }
        lf->has_fit = 1;
        snprintf(lf->fit.loss, sizeof lf->fit.loss, "huber");
        snprintf(lf->fit.space, sizeof lf->fit.space, "log");
        lf->fit.objective = random_double();
        lf->fit.delta = 1e-3;
        lf->fit.rmse = random_double();
        lf->fit.n = 525;
        lf->fit.starts = 4500;
        lf->fit.starts_at_best = 4321;
        lf->command = strdup("loopscale fit 'a \"quoted\" name'");
        ls_error err;
        char *text = ls_lawfile_to_json(lf, &err);
        assert_non_null(text);
        ls_lawfile *back = ls_lawfile_parse(text, strlen(text), "mem", &err);
        if (!back)
            fail_msg("%s\n%s", err.message, text);
        assert_memory_equal(back->law.p, lf->law.p, sizeof lf->law.p);
        assert_memory_equal(back->stderr_of, lf->stderr_of, sizeof lf->stderr_of);
        assert_memory_equal(back->ci_low, lf->ci_low, sizeof lf->ci_low);
        assert_memory_equal(back->ci_high, lf->ci_high, sizeof lf->ci_high);
        assert_memory_equal(back->draws, lf->draws, 3 * LS_LAW_NPARAMS * sizeof *lf->draws);
        assert_memory_equal(back->fixed, lf->fixed, sizeof lf->fixed);
        assert_true(back->fit.objective == lf->fit.objective && back->fit.rmse == lf->fit.rmse);
        assert_int_equal(back->fit.starts_at_best, 4321);
        assert_string_equal(back->command, lf->command);
        /* Written again, the text is identical. */
        char *again = ls_lawfile_to_json(back, &err);
        assert_string_equal(again, text);
        free(text);
        free(again);
        ls_lawfile_free(back);
        ls_lawfile_free(lf);
    }
}

static const char MINIMAL[] = "{\"format\": \"loopscale-law/1\", \"law\": {\"base\": \"dense\", \"mapping\": \"none\"},"
                              " \"params\": {\"A\": 406.4, \"alpha\": 0.34, \"B\": 410.7, \"beta\": 0.28,"
                              " \"c\": 1.69}, \"note\": \"unknown keys are ignored\"}";

static void a_hand_written_minimal_file_is_valid(void **state)
{
    (void)state;
    ls_error err;
    ls_lawfile *lf = ls_lawfile_parse(MINIMAL, strlen(MINIMAL), "chinchilla.json", &err);
    assert_non_null(lf);
    assert_true(lf->law.p[LS_LAW_P_B] == 410.7);
    assert_false(lf->has_fit);
    assert_int_equal(lf->ndraws, 0);
    ls_lawfile_free(lf);
    const char *path = write_temp_text(MINIMAL, 0);
    lf = ls_lawfile_read(path, &err);
    unlink(path);
    assert_non_null(lf);
    ls_lawfile_free(lf);
}

/* Replace `from` with `to` in MINIMAL and expect the error `want`. */
static void expect_error(const char *from, const char *to, const char *want)
{
    char text[1024];
    const char *at = strstr(MINIMAL, from);
    assert_non_null(at);
    snprintf(text, sizeof text, "%.*s%s%s", (int)(at - MINIMAL), MINIMAL, to, at + strlen(from));
    ls_error err;
    ls_lawfile *lf = ls_lawfile_parse(text, strlen(text), "law.json", &err);
    assert_null(lf);
    assert_int_equal(err.code, LS_ERR_DATA);
    assert_string_equal(err.message, want);
}

static void malformed_files_name_the_key(void **state)
{
    (void)state;
    expect_error("\"loopscale-law/1\"", "\"loopscale-law/2\"", "law.json:1:2: format: 'loopscale-law/2' is not loopscale-law/1");
    expect_error("\"format\"", "\"formats\"", "law.json: missing key 'format'");
    expect_error("\"none\"", "\"bounded-sprase\"", "law.json:1:31: law: unknown law 'dense:bounded-sprase'");
    expect_error("\"alpha\": 0.34, ", "", "law.json:1:76: missing key 'params.alpha'");
    expect_error("0.34", "\"0.34\"", "law.json:1:99: params.alpha: expected a number");
    expect_error("0.34", "1e999", "law.json:1:108: '1e999' is outside double precision");
    expect_error("406.4", "-406.4", "law.json:1:87: params.A: parameter A = -406.4 must be positive");
    expect_error("\"c\": 1.69", "\"c\": 1.69, \"theta\": 0.3", "law.json:1:151: params.theta: not a parameter of dense:none");
    expect_error("\"params\"", "\"params\": 3, \"x\"", "law.json:1:76: params: expected an object");
    expect_error("{\"base\"", "{\"bass\"", "law.json:1:31: missing key 'law.base'");
    expect_error("0.34,", "0.34,,", "law.json:1:114: not valid JSON");
}

static void a_moe_law_may_leave_e_start_at_one(void **state)
{
    (void)state;
    const char *text = "{\"format\":\"loopscale-law/1\",\"law\":{\"base\":\"moe\",\"mapping\":\"bounded\"},"
                       "\"params\":{\"A\":1,\"alpha\":0.3,\"B\":1,\"beta\":0.3,\"c\":1,\"delta\":0,\"gamma\":0,"
                       "\"omega\":0,\"zeta\":0,\"E_max\":100,\"kappa1\":1,\"kappa2\":2}}";
    ls_error err;
    ls_lawfile *lf = ls_lawfile_parse(text, strlen(text), "m.json", &err);
    assert_non_null(lf);
    assert_true(lf->law.p[LS_LAW_P_E_START] == 1);
    ls_lawfile_free(lf);
}

static void writing_replaces_the_file_atomically(void **state)
{
    (void)state;
    ls_error err;
    ls_lawfile *lf = ls_lawfile_parse(MINIMAL, strlen(MINIMAL), "m", &err);
    assert_non_null(lf);
    char path[64];
    snprintf(path, sizeof path, "%s", write_temp_text("old contents", 0));
    assert_int_equal(ls_lawfile_write(lf, path, &err), 0);
    ls_lawfile *back = ls_lawfile_read(path, &err);
    assert_non_null(back);
    assert_true(back->law.p[LS_LAW_P_A] == 406.4);
    ls_lawfile_free(back);
    /* A law that cannot be written leaves the old file alone. */
    lf->law.p[LS_LAW_P_A] = NAN;
    assert_int_not_equal(ls_lawfile_write(lf, path, &err), 0);
    back = ls_lawfile_read(path, &err);
    assert_non_null(back);
    assert_true(back->law.p[LS_LAW_P_A] == 406.4);
    ls_lawfile_free(back);
    ls_lawfile_free(lf);
    unlink(path);
}

/* A fit's law file carries the fit, the ranges of the fitted runs, the
 * data's checksum (hashlib's SHA-256 of the same bytes), the filters and
 * the command line, and reads back as written. */
static const char TINY_SWEEP[] = "n_act,tokens,R,n_loop,E,n_total,loss\n"
                                 "3.17e8,1.13e11,1,2.385e8,1,3.17e8,2.871\n"
                                 "6.23e8,2.71e11,4,4.671e8,1,6.23e8,2.512\n"
                                 "2.93e8,3.37e11,1,2.197e8,8,1.4627e9,2.603\n"
                                 "9.71e8,4.19e10,6,7.283e8,16,1.0357e10,2.415\n";

static void a_fit_becomes_a_law_file_with_its_provenance(void **state)
{
    (void)state;
    ls_error err;
    char path[64];
    snprintf(path, sizeof path, "%s", write_temp_text(TINY_SWEEP, 0));
    const char *paths[] = {path};
    ls_sweep_options so = {0};
    so.require_loss = 1;
    so.checksum = 1;
    ls_sweep *s = ls_sweep_read(paths, 1, &so, &err);
    assert_non_null(s);

    ls_fit_parameters fp;
    ls_fit_default_parameters(&fp);
    fp.seed = 2385;
    ls_fit_result r;
    memset(&r, 0, sizeof r);
    ls_law_init(&r.law, (ls_law_kind){LS_LAW_BASE_MOE, LS_LAW_MAPPING_BOUNDED});
    r.law.p[LS_LAW_P_A] = 406.4;
    r.law.p[LS_LAW_P_ALPHA] = 0.3392;
    r.law.p[LS_LAW_P_BETA] = 0.2849;
    r.law.p[LS_LAW_P_E_MAX] = 287.3;
    for (int j = 0; j < LS_LAW_NPARAMS; j++)
        r.stderr_of[j] = NAN;
    r.stderr_of[LS_LAW_P_A] = 12.5;
    r.fixed[LS_LAW_P_E_START] = 1;
    r.objective = 3.25e-7;
    r.rmse = 0.0123;
    r.n = s->n;
    r.starts = 96;
    r.starts_at_best = 17;
    r.converged = 1;
    snprintf(r.method, sizeof r.method, "trust-region/levenberg");
    ls_fit_bootstrap b = {0};
    double draws[2 * LS_LAW_NPARAMS];
    for (int d = 0; d < 2; d++)
        memcpy(draws + d * LS_LAW_NPARAMS, r.law.p, sizeof r.law.p);
    draws[LS_LAW_NPARAMS + LS_LAW_P_A] = 411.9;
    b.ndraws = 2;
    b.draws = draws;
    b.level = 0.9;
    for (int j = 0; j < LS_LAW_NPARAMS; j++)
        b.ci_low[j] = b.ci_high[j] = NAN;
    b.ci_low[LS_LAW_P_A] = 406.4;
    b.ci_high[LS_LAW_P_A] = 411.9;

    const char *maps[] = {"N=params"}, *wheres[] = {"R<=8"};
    ls_lawfile_provenance prov = {paths, 1, maps, 1, wheres, 1, "family", "loopscale fit tiny.csv", NULL, 0, NULL, NULL};
    ls_lawfile *lf = ls_lawfile_from_fit(&r, &fp, &b, s, &prov, &err);
    assert_non_null(lf);
    char *text = ls_lawfile_to_json(lf, &err);
    assert_non_null(text);
    ls_lawfile *back = ls_lawfile_parse(text, strlen(text), "back", &err);
    assert_non_null(back);
    const ls_lawfile *got[] = {lf, back};
    for (int k = 0; k < 2; k++) {
        const ls_lawfile *g = got[k];
        assert_int_equal(g->law.kind.mapping, LS_LAW_MAPPING_BOUNDED);
        assert_true(g->law.p[LS_LAW_P_A] == 406.4 && g->stderr_of[LS_LAW_P_A] == 12.5);
        assert_true(g->fixed[LS_LAW_P_E_START]);
        assert_string_equal(g->fit.loss, "huber");
        assert_string_equal(g->fit.space, "log");
        assert_string_equal(g->fit.method, "trust-region/levenberg");
        assert_true(g->fit.objective == 3.25e-7 && g->fit.rmse == 0.0123 && g->fit.delta == 1e-3);
        assert_int_equal(g->fit.n, 4);
        assert_int_equal(g->fit.starts_at_best, 17);
        assert_int_equal(g->fit.seed, 2385);
        assert_true(g->fit.has_ranges);
        assert_true(g->fit.n_act_range[0] == 2.93e8 && g->fit.n_act_range[1] == 9.71e8);
        assert_true(g->fit.tokens_range[0] == 4.19e10 && g->fit.tokens_range[1] == 3.37e11);
        assert_true(g->fit.r_range[0] == 1 && g->fit.r_range[1] == 6);
        assert_true(g->fit.e_range[0] == 1 && g->fit.e_range[1] == 16);
        /* F = 6 (N_act + (R - 1) N_loop) D by hand: 6 x 3.17e8 x 1.13e11
         * is the least, 6 x (6.23e8 + 3 x 4.671e8) x 2.71e11 the most. */
        assert_true(g->fit.has_flops_range);
        assert_true(fabs(g->fit.flops_range[0] / 2.14926e20 - 1) < 1e-12);
        assert_true(fabs(g->fit.flops_range[1] / 3.2915118e21 - 1) < 1e-12);
        ls_law_ranges rg;
        ls_lawfile_ranges(g, &rg);
        assert_true(rg.known[LS_LAW_RANGE_FLOPS] && rg.hi[LS_LAW_RANGE_E] == 16 && rg.lo[LS_LAW_RANGE_TOKENS] == 4.19e10);
        assert_int_equal(g->fit.ndata, 1);
        assert_string_equal(g->fit.data[0].path, path);
        assert_string_equal(g->fit.data[0].sha256, "84c0dbbbf569613bbb08bf16a614b0c36121cdd38fdcf5d0b718ee4eb2f96542");
        assert_int_equal(g->fit.nfilters, 2);
        assert_string_equal(g->fit.filters[0], "--map N=params");
        assert_string_equal(g->fit.filters[1], "--where R<=8");
        assert_true(g->has_ci && g->ci_level == 0.9 && g->ndraws == 2);
        assert_true(g->draws[LS_LAW_NPARAMS + LS_LAW_P_A] == 411.9);
        assert_string_equal(g->bootstrap_group, "family");
        assert_string_equal(g->command, "loopscale fit tiny.csv");
        assert_true(g->version && g->version[0] >= '0' && g->version[0] <= '9');
    }
    free(text);
    ls_lawfile_free(back);
    ls_lawfile_free(lf);

    /* Read under another FLOP convention, the fit records it, counts its
     * flops range under it and reads it back; a bad name is refused.  The
     * largest run by hand: N_act 6.23e8, R = 4 (52 layers run), width
     * sqrt(6.23e8 / 3 / 64) read off N_act, context 2048, vocabulary 32000. */
    ls_law_flops conv;
    ls_law_flops_default(&conv);
    conv.kind = LS_LAW_FLOPS_6ND_ATTN_HEAD;
    conv.context = 2048;
    conv.vocab = 32000;
    ls_lawfile_provenance prov_conv = prov;
    prov_conv.flops = &conv;
    lf = ls_lawfile_from_fit(&r, &fp, NULL, s, &prov_conv, &err);
    assert_non_null(lf);
    text = ls_lawfile_to_json(lf, &err);
    assert_non_null(text);
    back = ls_lawfile_parse(text, strlen(text), "back", &err);
    assert_non_null(back);
    assert_int_equal(back->fit.flops.kind, LS_LAW_FLOPS_6ND_ATTN_HEAD);
    assert_true(back->fit.flops.context == 2048 && back->fit.flops.vocab == 32000 && back->fit.flops.d_model == 0);
    assert_true(back->fit.flops.prelude_layers == 2 && back->fit.flops.loop_layers == 12);
    double d = sqrt(6.23e8 / 3.0 / 64.0);
    double hi = 6 * (6.23e8 + 3 * 4.671e8 + 52 * 2048 * d + 32000 * d) * 2.71e11;
    assert_true(fabs(back->fit.flops_range[1] / hi - 1) < 1e-12);
    ls_law_ranges rg;
    ls_lawfile_ranges(back, &rg);
    assert_int_equal(rg.flops.kind, LS_LAW_FLOPS_6ND_ATTN_HEAD);
    ls_lawfile_free(back);
    char *name = strstr(text, "\"6nd+attn+head\"");
    assert_non_null(name);
    memcpy(name + 1, "6nd+attn+hXad", 13);
    assert_null(ls_lawfile_parse(text, strlen(text), "law.json", &err));
    assert_int_equal(err.code, LS_ERR_DATA);
    assert_non_null(strstr(err.message, "fit.flops_convention.name: expected \"6nd\""));
    free(text);
    ls_lawfile_free(lf);

    /* The checksum is of the bytes read: the file may go (or change)
     * afterwards.  A sweep read without checksums gives no law file. */
    unlink(path);
    lf = ls_lawfile_from_fit(&r, &fp, NULL, s, &prov, &err);
    assert_non_null(lf);
    assert_string_equal(lf->fit.data[0].sha256, "84c0dbbbf569613bbb08bf16a614b0c36121cdd38fdcf5d0b718ee4eb2f96542");
    assert_false(lf->has_ci);
    ls_lawfile_free(lf);
    s->sha256[0][0] = '\0';
    assert_null(ls_lawfile_from_fit(&r, &fp, NULL, s, &prov, &err));
    assert_int_equal(err.code, LS_ERR_USAGE);
    assert_non_null(strstr(err.message, path));
    ls_sweep_free(s);
}

/* Warnings: objects {code, subject, message}; a file written before holds
 * strings, read with the code their text implies and the parameter named. */
static void warnings_are_read_back_old_and_new(void **state)
{
    (void)state;
    const char *text =
        "{\"format\": \"loopscale-law/1\", \"law\": {\"base\": \"dense\", \"mapping\": \"none\"},"
        " \"params\": {\"A\": 406.4, \"alpha\": 0.34, \"B\": 410.7, \"beta\": 0.28, \"c\": 1.69},"
        " \"warnings\": [\"c = 1.26e-09 ran to its bound 0 (standard error 2.6): the runs show no irreducible loss\","
        " \"c = 3.131 is above the lowest observed loss, 3.097 (line 121): the law cannot reach that run\","
        " \"delta, gamma are held at 0, 0: no run has E > 1\","
        " \"E_max = 4.28e+14 is not determined by the runs: its standard error, 5.2e+27, is 1.2e+13 times its value\","
        " {\"code\": \"fit-quality\", \"subject\": \"R\", \"message\": \"the residuals trend along R\"}]}";
    ls_error err;
    ls_lawfile *lf = ls_lawfile_parse(text, strlen(text), "law.json", &err);
    assert_non_null(lf);
    assert_int_equal(lf->warnings.n, 5);
    const ls_warning_code codes[] = {LS_WARNING_AT_BOUND, LS_WARNING_FIT_QUALITY, LS_WARNING_UNIDENTIFIED,
                                     LS_WARNING_UNDETERMINED, LS_WARNING_FIT_QUALITY};
    const char *subjects[] = {"c", "c", "delta, gamma", "E_max", "R"};
    for (int i = 0; i < 5; i++) {
        assert_int_equal(lf->warnings.v[i].code, codes[i]);
        assert_string_equal(lf->warnings.v[i].subject, subjects[i]);
    }
    assert_string_equal(lf->warnings.v[4].message, "the residuals trend along R");
    ls_lawfile_free(lf);
    const char *bad = "{\"format\": \"loopscale-law/1\", \"law\": {\"base\": \"dense\", \"mapping\": \"none\"},"
                      " \"params\": {\"A\": 406.4, \"alpha\": 0.34, \"B\": 410.7, \"beta\": 0.28, \"c\": 1.69},"
                      " \"warnings\": [{\"code\": \"worry\", \"subject\": \"\", \"message\": \"x\"}]}";
    assert_null(ls_lawfile_parse(bad, strlen(bad), "law.json", &err));
    assert_non_null(strstr(err.message, "warnings[0]"));
}

/* ls_lawfile_save refuses what would lose data, under any name: the law's
 * own data files, as recorded and beside the law file it was read from;
 * the caller's inputs; empty names and names cut by a NUL.  It writes gzip
 * when the name ends in .gz, and reads back bit for bit. */
static void saving_never_replaces_an_input(void **state)
{
    (void)state;
    ls_error err;
    ls_lawfile *lf = ls_lawfile_read(PROJECT_DATA_DIR "/laws/default.json", &err);
    assert_non_null(lf);
    assert_string_equal(lf->fit.data[0].path, "data/sweeps/looped-moe.csv.gz");
    char dir[] = "/tmp/loopscale-save-XXXXXX", path[256], source[256], link_name[256], cwd[4096];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/data", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/data/sweeps", dir);
    assert_int_equal(mkdir(path, 0700), 0);
    snprintf(path, sizeof path, "%s/data/sweeps/looped-moe.csv.gz", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("keep", f);
    fclose(f);
    snprintf(link_name, sizeof link_name, "%s/hard.csv.gz", dir);
    assert_int_equal(link(path, link_name), 0);
    /* The law was read from DIR/law.json: its data is DIR/data/sweeps/... */
    snprintf(source, sizeof source, "%s/law.json", dir);
    assert_int_equal(ls_lawfile_save(lf, path, strlen(path), source, NULL, 0, &err), LS_ERR_USAGE);
    assert_non_null(strstr(err.message, "would replace the input"));
    assert_int_equal(ls_lawfile_save(lf, link_name, strlen(link_name), source, NULL, 0, &err), LS_ERR_USAGE);
    /* Read from elsewhere, the law's data is found relative to the current
     * directory, as recorded. */
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(dir), 0);
    assert_int_equal(ls_lawfile_save(lf, "data/sweeps/looped-moe.csv.gz", 29, NULL, NULL, 0, &err), LS_ERR_USAGE);
    assert_int_equal(ls_lawfile_save(lf, "./data/sweeps/looped-moe.csv.gz", 31, "/elsewhere/law.json", NULL, 0, &err),
                     LS_ERR_USAGE);
    assert_int_equal(chdir(cwd), 0);
    /* Any input the caller names. */
    const char *inputs[] = {link_name};
    char other[256];
    snprintf(other, sizeof other, "%s/./hard.csv.gz", dir);
    assert_int_equal(ls_lawfile_save(lf, other, strlen(other), NULL, inputs, 1, &err), LS_ERR_USAGE);
    /* A NUL byte would cut the name short: "s.csv\0.json" is s.csv. */
    char cut[300];
    int n = snprintf(cut, sizeof cut, "%s%c.json", path, '\0');
    assert_int_equal(ls_lawfile_save(lf, cut, (size_t)n, NULL, NULL, 0, &err), LS_ERR_USAGE);
    assert_non_null(strstr(err.message, "NUL"));
    assert_int_equal(ls_lawfile_save(lf, "", 0, NULL, NULL, 0, &err), LS_ERR_USAGE);
    f = fopen(path, "r");
    char back[8] = "";
    assert_non_null(fgets(back, sizeof back, f));
    fclose(f);
    assert_string_equal(back, "keep");
    /* A directory that does not exist: cannot create. */
    snprintf(other, sizeof other, "%s/missing/law.json", dir);
    assert_int_equal(ls_lawfile_save(lf, other, strlen(other), NULL, NULL, 0, &err), LS_ERR_CANTCREAT);
    /* gzip by name, read back by magic. */
    snprintf(other, sizeof other, "%s/law.json.gz", dir);
    assert_int_equal(ls_lawfile_save(lf, other, strlen(other), source, NULL, 0, &err), 0);
    f = fopen(other, "rb");
    unsigned char magic[2] = {0, 0};
    assert_int_equal(fread(magic, 1, 2, f), 2);
    fclose(f);
    assert_true(magic[0] == 0x1f && magic[1] == 0x8b);
    ls_lawfile *again = ls_lawfile_read(other, &err);
    assert_non_null(again);
    assert_memory_equal(again->law.p, lf->law.p, sizeof lf->law.p);
    assert_int_equal(again->ndraws, lf->ndraws);
    ls_lawfile_free(again);
    unlink(other);
    unlink(link_name);
    unlink(path);
    snprintf(path, sizeof path, "%s/data/sweeps", dir);
    rmdir(path);
    snprintf(path, sizeof path, "%s/data", dir);
    rmdir(path);
    rmdir(dir);
    ls_lawfile_free(lf);
}

/* A law whose recorded fit is not one is refused, or used with a warning
 * when forced. */
static void a_fit_that_is_not_one_needs_force(void **state)
{
    (void)state;
    ls_error err;
    ls_lawfile *lf = ls_lawfile_default(&err);
    assert_non_null(lf);
    char buf[256];
    assert_null(ls_lawfile_not_a_fit(lf, buf, sizeof buf));
    ls_warnings w = {0};
    assert_int_equal(ls_lawfile_check_fit(lf, "law.json", 0, "--force", &w, &err), 0);
    lf->stderr_of[LS_LAW_P_ALPHA] = NAN;
    assert_string_equal(ls_lawfile_not_a_fit(lf, buf, sizeof buf),
                        "the fit it records cannot tell its parameters apart (no standard error for alpha)");
    lf->fit.converged = 0;
    assert_string_equal(ls_lawfile_not_a_fit(lf, buf, sizeof buf), "the fit it records did not converge");
    assert_int_equal(ls_lawfile_check_fit(lf, "law.json", 0, "--force", &w, &err), LS_ERR_DATA);
    assert_string_equal(err.message, "law.json: the fit it records did not converge, so its parameters are not a law "
                                     "(--force to use them anyway)");
    assert_int_equal(w.n, 0);
    assert_int_equal(ls_lawfile_check_fit(lf, "law.json", 1, "force=True", &w, &err), 0);
    assert_int_equal(w.n, 1);
    assert_int_equal(w.v[0].code, LS_WARNING_LAW);
    assert_string_equal(w.v[0].message, "law.json: the fit it records did not converge; used anyway (force=True)");
    ls_warnings_free(&w);
    ls_lawfile_free(lf);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_double_round_trips_bit_for_bit),
        cmocka_unit_test(warnings_are_read_back_old_and_new),
        cmocka_unit_test(a_hand_written_minimal_file_is_valid),
        cmocka_unit_test(malformed_files_name_the_key),
        cmocka_unit_test(a_moe_law_may_leave_e_start_at_one),
        cmocka_unit_test(writing_replaces_the_file_atomically),
        cmocka_unit_test(a_fit_becomes_a_law_file_with_its_provenance),
        cmocka_unit_test(saving_never_replaces_an_input),
        cmocka_unit_test(a_fit_that_is_not_one_needs_force),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
