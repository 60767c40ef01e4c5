/* Shape accounting against counts worked out by hand and against published
 * parameter counts (TinyLlama-1.1B, Mixtral-8x7B, Foil's 553.7M / 490.8M),
 * the flattening invariants, and the checks on shapes and shape files. */
#include <ctype.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "jsonw_internal.h"
#include "loopscale/shape.h"
#include "shape_internal.h"
#include "tmpfile.h"

static ls_shape_counts count(ls_shape_spec *s)
{
    ls_error err;
    ls_shape_counts c;
    if (ls_shape_resolve(s, &err) != 0 || ls_shape_count_params(s, &c, &err) != 0)
        fail_msg("%s", err.message);
    return c;
}

/* Foil's models: d 1024, experts 1536 wide (3 d d_expert = 4,718,592), top-2,
 * vocabulary 49,152, untied embeddings, a prelude and a coda layer of 8
 * experts each around the looped block. */
static ls_shape_spec foil(long E, long D, long L, long attention)
{
    ls_shape_spec s;
    ls_shape_spec_unset(&s);
    s.d_model = 1024;
    s.d_expert = 1536;
    s.top_k = 2;
    s.vocab = 49152;
    s.experts = E;
    s.layers = D;
    s.loops = L;
    s.head_layers = s.tail_layers = 1;
    s.head_experts = 8;
    s.attention = attention;
    return s;
}

static void foil_totals_match_the_paper(void **state)
{
    (void)state;
    /* Untied: 16 attention sets of 4 d^2 = 4,194,304 (67.1M) + 2 for the
     * prelude and coda; 64 + 16 experts; routers (64 + 16) d; embedding and
     * LM head 2 x 49,152 x 1024:
     *   18 x 4,194,304 + 80 x 4,718,592 + 80 x 1024 + 100,663,296 = 553,730,048 */
    ls_shape_spec s = foil(8, 8, 2, LS_SHAPE_ATTENTION_PER_LOOP);
    ls_shape_counts c = count(&s);
    assert_int_equal(c.total.stored, 553730048);
    assert_int_equal(c.block[LS_SHAPE_ATTN].stored, 67108864);
    assert_int_equal(c.attention_set, 4194304);
    assert_int_equal(c.expert, 4718592);
    s = foil(64, 1, 16, LS_SHAPE_ATTENTION_PER_LOOP);
    assert_int_equal(count(&s).total.stored, 553730048);
    /* Tied Foil-1 keeps 1 of the 16 sets: 553,730,048 - 15 x 4,194,304. */
    s = foil(64, 1, 16, LS_SHAPE_ATTENTION_TIED);
    c = count(&s);
    assert_int_equal(c.total.stored, 490815488);
    /* Foil's identities for (64, 1, 16): E_real 64, E_comp 32, D_eff 16,
     * E_eq 1024, routes C(64,2)^16 = 2016^16. */
    assert_int_equal(c.e_real, 64);
    assert_int_equal(c.e_comp, 32);
    assert_int_equal(c.d_eff, 16);
    assert_int_equal(c.e_eq, 1024);
    assert_true(fabs(c.log10_routes - 16 * log10(2016.0)) < 1e-12);
    /* One pass of the block: attention, 2 experts (= the 3072-wide FFN),
     * the router: 4,194,304 + 9,437,184 + 65,536. Prelude and coda layers:
     * 4,194,304 + 9,437,184 + 8,192 each. */
    assert_int_equal(c.n_loop, 13697024);
    assert_int_equal(c.non_embedding.once, 13697024 + 2 * 13639680);
    assert_int_equal(c.non_embedding.all, c.non_embedding.once + 15 * c.n_loop);
    assert_int_equal(c.non_embedding.stored, 553730048 - 15 * 4194304 - 2 * 50331648);
}

static void tinyllama_count_matches_its_published_1100048384(void **state)
{
    (void)state;
    /* Dense, grouped-query attention (32 heads, 4 key/value heads of 64),
     * RMSNorm gains, untied embeddings: 22 x (2048 x 64 x (64 + 8) + 3 x
     * 2048 x 5632 + 2 x 2048) + 2048 + 2 x 32000 x 2048. */
    ls_shape_spec s;
    ls_shape_spec_unset(&s);
    s.d_model = 2048;
    s.d_ff = 5632;
    s.vocab = 32000;
    s.layers = 22;
    s.heads = 32;
    s.kv_heads = 4;
    s.norm_params = 1;
    ls_shape_counts c = count(&s);
    assert_int_equal(s.head_dim, 64);
    assert_int_equal(c.total.stored, 1100048384);
    assert_int_equal(c.non_embedding.once, c.non_embedding.stored); /* dense: everything active */
    assert_int_equal(c.n_loop, c.non_embedding.once - 2048);         /* all but the final norm */
}

static void mixtral_count_matches_its_published_46702792704(void **state)
{
    (void)state;
    /* 32 layers of 8 experts 14336 wide, top-2, attention 4096 x 128 x (64 +
     * 16), routers 4096 x 8, RMSNorm gains, untied 32000 x 4096 embeddings. */
    ls_shape_spec s;
    ls_shape_spec_unset(&s);
    s.d_model = 4096;
    s.d_expert = 14336;
    s.top_k = 2;
    s.experts = 8;
    s.vocab = 32000;
    s.layers = 32;
    s.heads = 32;
    s.kv_heads = 8;
    s.norm_params = 1;
    ls_shape_counts c = count(&s);
    assert_int_equal(c.total.stored, 46702792704);
    /* active: 32 x (41,943,040 + 2 x 176,160,768 + 32,768 + 8,192) + 4,096,
     * and the LM head; with the embedding, Mistral's "12.9B active" */
    assert_int_equal(c.non_embedding.once, 12617781248);
    assert_int_equal(c.total.all, 12617781248 + 131072000);
    assert_int_equal(c.total.all + c.embedding.stored, 12879925248);
}

static void a_small_odd_shape_counted_by_hand(void **state)
{
    (void)state;
    /* d 96, d_ff 384, top-2 (experts 192 wide), E 6, D 3, L 5, per-loop
     * attention with 6 heads of 16 and 2 key/value heads, a dense prelude of
     * 2 layers, a coda of 1 layer with 4 experts, tied embeddings of 1000,
     * norms with gains, context 128.
     *   attention set  96 x 16 x (12 + 4)            = 24,576
     *   expert         3 x 96 x 192                  = 55,296
     *   dense FFN      3 x 96 x 384                  = 110,592
     *   block attention  15 sets 368,640; once 3 sets 73,728; all 368,640
     *   block experts    18 x 55,296 = 995,328; once 3 x 110,592 = 331,776; all 1,658,880
     *   block routers    3 x 96 x 6 = 1,728; all 5 x 1,728 = 8,640
     *   block norms      (15 + 3) x 96 = 1,728; once 6 x 96 = 576; all 2,880
     *   prelude          2 x (24,576 + 110,592 + 192) = 270,720
     *   coda             24,576 + 221,184 stored (110,592 active) + 384 + 192
     *   final norm 96; embedding 96,000; LM head tied (96,000 active)
     * N_total 1,884,576, N_act 814,368, N_loop 407,808, N_unroll 2,445,600. */
    ls_shape_spec s;
    ls_shape_spec_unset(&s);
    s.d_model = 96;
    s.d_ff = 384;
    s.top_k = 2;
    s.experts = 6;
    s.layers = 3;
    s.loops = 5;
    s.attention = LS_SHAPE_ATTENTION_PER_LOOP;
    s.heads = 6;
    s.kv_heads = 2;
    s.head_layers = 2;
    s.tail_layers = 1;
    s.head_experts = 1;
    s.tail_experts = 4;
    s.embeddings = LS_SHAPE_EMBEDDINGS_TIED;
    s.vocab = 1000;
    s.norm_params = 1;
    s.context = 128;
    ls_shape_counts c = count(&s);
    assert_int_equal(s.d_expert, 192);
    assert_int_equal(c.attention_set, 24576);
    assert_int_equal(c.expert, 55296);
    assert_int_equal(c.head_expert, 110592); /* dense */
    assert_int_equal(c.tail_expert, 55296);
    const uint64_t block[LS_SHAPE_NKINDS][3] = {
        {368640, 73728, 368640}, {995328, 331776, 1658880}, {1728, 1728, 8640}, {1728, 576, 2880}};
    for (int k = 0; k < LS_SHAPE_NKINDS; k++) {
        assert_int_equal(c.block[k].stored, block[k][0]);
        assert_int_equal(c.block[k].once, block[k][1]);
        assert_int_equal(c.block[k].all, block[k][2]);
    }
    assert_int_equal(c.head[LS_SHAPE_FFN].stored, 221184);
    assert_int_equal(c.head[LS_SHAPE_ROUTER].stored, 0);
    assert_int_equal(c.tail[LS_SHAPE_FFN].stored, 221184);
    assert_int_equal(c.tail[LS_SHAPE_FFN].once, 110592);
    assert_int_equal(c.tail[LS_SHAPE_ROUTER].stored, 384);
    assert_int_equal(c.non_embedding.stored, 1884576);
    assert_int_equal(c.non_embedding.once, 814368);
    assert_int_equal(c.n_loop, 407808);
    assert_int_equal(c.non_embedding.all, 2445600);
    assert_int_equal(c.lm_head.stored, 0);
    assert_int_equal(c.total.stored, 1980576);
    assert_int_equal(c.total.all, 2541600);
    /* FLOPs: 2 x 2,541,600, and 4 x 128 x 96 = 49,152 per attention layer run,
     * 15 + 2 + 1 runs. */
    assert_int_equal(c.flops_matmul, 5083200);
    assert_int_equal(c.flops_attention, 884736);
    assert_int_equal(c.flops_total, 5967936);
    assert_int_equal(c.flops_prelude, 639744);
    assert_int_equal(c.flops_loop, 963072);
    assert_int_equal(c.flops_coda, 512832);
    assert_int_equal(c.flops_prelude + 5 * c.flops_loop + c.flops_coda, c.flops_total);
    assert_true(fabs(c.log10_routes - 15 * log10(15.0)) < 1e-12);
}

/* log10 of the number of formal routes, D L log10 C(E, k), for expert counts
 * beyond GSL's lnchoose (2^32), with a small k and with a k large enough to
 * take lgamma, against the product formula. */
static void route_counts_for_any_expert_count(void **state)
{
    (void)state;
    ls_shape_spec s = foil(10000000000L, 1, 1, LS_SHAPE_ATTENTION_TIED);
    s.head_layers = s.tail_layers = 0;
    ls_shape_counts c = count(&s);
    /* C(1e10, 2) = 1e10 (1e10 - 1) / 2 = 49,999,999,995,000,000,000 */
    assert_true(fabs(c.log10_routes - log10(4.9999999995e19)) < 1e-12);

    s = foil(5000000000L, 2, 1, LS_SHAPE_ATTENTION_TIED);
    s.head_layers = s.tail_layers = 0;
    s.top_k = s.head_experts = 1500;
    s.d_expert = 2; /* d_ff = 3000 */
    c = count(&s);
    /* lgamma's cancellation costs digits: ln C is about 2.4e4 from terms of
     * 1.1e11, so relative 1e-8 */
    double ln = 0;
    for (int i = 0; i < 1500; i++)
        ln += log((5e9 - i) / (1500.0 - i));
    assert_true(fabs(c.log10_routes - 2 * ln / log(10.0)) < 1e-8 * c.log10_routes);
}

static void flattening_keeps_the_budget_and_doubles_e_eq(void **state)
{
    (void)state;
    ls_shape_spec base = foil(8, 8, 2, LS_SHAPE_ATTENTION_PER_LOOP);
    ls_shape_counts c0 = count(&base);
    ls_error err;
    for (int step = 1; step <= 3; step++) {
        ls_shape_spec f;
        assert_int_equal(ls_shape_flatten(&base, step, &f, &err), 0);
        assert_int_equal(f.experts, 8 << step);
        assert_int_equal(f.layers, 8 >> step);
        assert_int_equal(f.loops, 2 << step);
        assert_int_equal(f.head_experts, 8); /* the prelude is not flattened */
        ls_shape_counts c = count(&f);
        assert_int_equal(c.e_real, c0.e_real);
        assert_int_equal(c.e_comp, c0.e_comp);
        assert_int_equal(c.d_eff, c0.d_eff);
        assert_int_equal(c.e_eq, c0.e_eq << step);
        assert_int_equal(c.total.stored, c0.total.stored); /* per-loop attention: nothing lost */
        /* Compute per token changes only by the routers: D L d E doubles. */
        assert_int_equal(c.non_embedding.all - c.block[LS_SHAPE_ROUTER].all,
                         c0.non_embedding.all - c0.block[LS_SHAPE_ROUTER].all);
        assert_int_equal(c.block[LS_SHAPE_ROUTER].all, c0.block[LS_SHAPE_ROUTER].all << step);
    }
    assert_int_equal(ls_shape_flatten(&base, 4, &(ls_shape_spec){0}, &err), LS_ERR_USAGE);
    assert_string_equal(err.message, "flattening 4 steps: D = 8 layers cannot be halved 4 times");
}

static void bad_shapes_are_refused_by_name(void **state)
{
    (void)state;
    static const struct {
        const char *field;
        long value;
        const char *message;
    } cases[] = {
        {"d_ff", 3073, "d_ff = 3073 is not a multiple of top_k = 2 (experts are d_ff / top_k wide; or give d_expert)"},
        {"experts", 1, "experts = 1 is less than top_k = 2"},
        {"head_experts", 1, NULL}, /* a dense prelude is fine */
        {"tail_experts", 0, "coda_experts = 0 is outside [1, 1000000000000]"},
        {"heads", 7, "heads = 7 does not divide d_model = 1024; give head_dim"},
        {"kv_heads", 3, "kv_heads and head_dim need heads"},
        {"d_model", LS_SHAPE_UNSET, "d_model is required"},
        {"d_expert", 1000, "d_ff = 3072 and d_expert = 1000 disagree: d_ff must be top_k x d_expert"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        ls_shape_spec s;
        ls_shape_spec_unset(&s);
        s.d_model = 1024;
        s.d_ff = 3072;
        s.top_k = 2;
        s.experts = 8;
        s.vocab = 100;
        s.layers = 2;
        long *target = strcmp(cases[i].field, "d_ff") == 0           ? &s.d_ff
                       : strcmp(cases[i].field, "experts") == 0      ? &s.experts
                       : strcmp(cases[i].field, "head_experts") == 0 ? &s.head_experts
                       : strcmp(cases[i].field, "tail_experts") == 0 ? &s.tail_experts
                       : strcmp(cases[i].field, "heads") == 0        ? &s.heads
                       : strcmp(cases[i].field, "kv_heads") == 0     ? &s.kv_heads
                       : strcmp(cases[i].field, "d_model") == 0      ? &s.d_model
                                                                     : &s.d_expert;
        *target = cases[i].value;
        ls_error err;
        int status = ls_shape_resolve(&s, &err);
        if (!cases[i].message) {
            assert_int_equal(status, 0);
            continue;
        }
        assert_int_equal(status, LS_ERR_USAGE);
        assert_string_equal(err.message, cases[i].message);
    }
    ls_shape_spec s;
    ls_shape_spec_unset(&s);
    s.d_model = 1024;
    s.d_ff = 3072;
    s.vocab = 100;
    s.layers = 2;
    s.heads = 16;
    s.kv_heads = 3;
    ls_error err;
    assert_int_equal(ls_shape_resolve(&s, &err), LS_ERR_USAGE);
    assert_string_equal(err.message, "heads = 16 is not a multiple of kv_heads = 3");
}

static void shape_files_read_back_what_is_written(void **state)
{
    (void)state;
    ls_shape_spec s = foil(16, 4, 4, LS_SHAPE_ATTENTION_PER_LOOP);
    s.norm_params = 1;
    s.context = 4096;
    ls_error err;
    assert_int_equal(ls_shape_resolve(&s, &err), 0);
    jsonw w;
    ls_jsonw_init(&w);
    ls_jsonw_object_begin(&w, NULL);
    ls_shape_spec_write_json(&w, "shape", &s);
    ls_jsonw_number(&w, "n_unroll", 1.5); /* another member of shape's output, read past */
    ls_jsonw_object_end(&w);
    char *text = ls_jsonw_finish(&w, &err);
    assert_non_null(text);
    const char *path = write_temp_text(text, 0);
    free(text);
    ls_shape_spec back;
    ls_shape_spec_unset(&back);
    assert_int_equal(ls_shape_spec_read(path, &back, &err), 0);
    unlink(path);
    assert_int_equal(ls_shape_resolve(&back, &err), 0); /* what only says a default is left out */
    assert_memory_equal(&back, &s, sizeof s);

    path = write_temp_text("{\"d_model\": 512, \"d_ff\": 2048, \"vocab\": 50000, \"layers\": 6, \"loops\": 3,"
                           " \"attention\": \"per-loop\", \"embeddings\": \"tied\"}",
                           0);
    ls_shape_spec_unset(&back);
    assert_int_equal(ls_shape_spec_read(path, &back, &err), 0);
    unlink(path);
    assert_int_equal(back.d_model, 512);
    assert_int_equal(back.attention, LS_SHAPE_ATTENTION_PER_LOOP);
    assert_int_equal(back.embeddings, LS_SHAPE_EMBEDDINGS_TIED);
    assert_int_equal(back.experts, LS_SHAPE_UNSET);
    /* options merged over the file win */
    ls_shape_spec over;
    ls_shape_spec_unset(&over);
    over.loops = 7;
    ls_shape_spec_merge(&back, &over);
    assert_int_equal(back.loops, 7);
    assert_int_equal(back.layers, 6);

    static const struct {
        const char *text, *message;
    } bad[] = {
        {"{\"d_model\": 512, \"dmodel\": 3}", "1:18: unknown key 'dmodel' (docs/formats.md lists a template's keys)"},
        {"{\"d_model\": 51.5}", "1:2: d_model: 51.5 is not an integer from 1 to 1000000000000"},
        {"{\"head_layers\": -1}", "1:2: head_layers: -1 is not an integer from 0 to 1000000000000"},
        {"{\"layers\": \"6\"}", "1:2: layers: expected an integer of at least 1"},
        {"{\"attention\": \"untied\"}", "1:2: attention: expected \"tied\" or \"per-loop\""},
        {"{\"norm_params\": 1}", "1:2: norm_params: expected true or false"},
        {"{\"format\": \"loopscale-law/1\"}",
         "1:2: format: expected \"loopscale-template/1\" (or \"loopscale-shape/1\")"},
        {"{\"layers\": 4, \"loop_layers\": 4}", "1:15: loop_layers: the same as 'layers', given too; give one"},
        {"{\"mlp\": \"geglu\"}", "1:2: mlp: expected \"swiglu\", \"gelu\" or \"relu2\""},
        {"{\"routed_share\": 0.5}",
         "1:2: routed_share: a template's share, which no shape has (a shape gives d_ff or d_expert and is counted)"},
        {"[1, 2]", "expected a JSON object at the top"},
        {"{\"d_model\": 512,}", "1:17: not valid JSON"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        path = write_temp_text(bad[i].text, 0);
        assert_int_equal(ls_shape_spec_read(path, &back, &err), LS_ERR_DATA);
        const char *colon = strchr(err.message, ':');
        if (strcmp(colon + (isdigit((unsigned char)bad[i].message[0]) ? 1 : 2), bad[i].message) != 0)
            fail_msg("got '%s', want '%s'", err.message, bad[i].message);
        unlink(path);
    }
    assert_int_equal(ls_shape_spec_read("/nonexistent/shape.json", &back, &err), LS_ERR_NOINPUT);
}


/* looped nanochat's sweep (dev/LoopedLOG.md of kschwethelm/looped_nanochat):
 * width 64 x size, heads of 128, 2 + 4 + 2 sandwich-norm layers of
 * attention 4 d^2 and a ReLU^2 MLP 2 d 4d, the input adapter 2 d^2, norms
 * after the embedding, after each recurrence and before the head, and
 * untied embeddings of 65,536: 2 V d + 98 d^2 + (8 x 4 + 3) d, the logged
 * 92,816,896 to 328,380,160. */
static void looped_nanochat_counts_match_its_log(void **state)
{
    (void)state;
    static const struct {
        long size;
        uint64_t logged;
    } runs[] = {{8, 92816896},   {10, 124049280}, {12, 158492928}, {14, 196147840},
                {16, 237014016}, {18, 281091456}, {20, 328380160}};
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
        ls_shape_spec s;
        ls_shape_spec_unset(&s);
        long d = 64 * runs[i].size;
        s.d_model = d;
        s.heads = d / 128;
        s.d_ff = 4 * d;
        s.mlp = LS_SHAPE_MLP_RELU2;
        s.vocab = 65536;
        s.head_layers = s.tail_layers = 2;
        s.layers = 4;
        s.loops = 4;
        s.norm_params = LS_SHAPE_NORMS_SANDWICH;
        s.embedding_norm = s.loop_norm = 1;
        s.injection = LS_SHAPE_INJECTION_CONCAT;
        ls_shape_counts c = count(&s);
        uint64_t D = (uint64_t)d;
        assert_int_equal(c.total.stored, runs[i].logged);
        assert_int_equal(c.total.stored, 2 * 65536 * D + 98 * D * D + 35 * D);
        /* One pass of the loop: 4 layers, the adapter, the loop's norm. */
        assert_int_equal(c.n_loop, 4 * (12 * D * D + 4 * D) + 2 * D * D + D);
        assert_int_equal(c.block[LS_SHAPE_INJECT].all, 4 * 2 * D * D);
        assert_int_equal(c.stage_kv_width[LS_SHAPE_LOOP], D);
    }
}

/* Huginn-0125 (Geiping et al., 2025): width 5280, 55 heads of 96, SwiGLU
 * 17920, 2 + 4 + 2 sandwich layers, the adapter, a final norm, 65,536
 * tied: 8 (4 d^2 + 3 d 17920 + 4 d) + 2 d^2 + d + V d, "3.5B". */
static void huginn_count_by_hand(void **state)
{
    (void)state;
    ls_shape_spec s;
    ls_shape_spec_unset(&s);
    s.d_model = 5280;
    s.heads = 55;
    s.head_dim = 96;
    s.d_ff = 17920;
    s.vocab = 65536;
    s.embeddings = LS_SHAPE_EMBEDDINGS_TIED;
    s.head_layers = s.tail_layers = 2;
    s.layers = 4;
    s.loops = 32;
    s.norm_params = LS_SHAPE_NORMS_SANDWICH;
    s.injection = LS_SHAPE_INJECTION_CONCAT;
    ls_shape_counts c = count(&s);
    const uint64_t d = 5280;
    assert_int_equal(c.total.stored, 8 * (4 * d * d + 3 * d * 17920 + 4 * d) + 2 * d * d + d + 65536 * d);
    assert_int_equal(c.total.stored, 3564892320);
    /* 32 recurrences: the prelude and coda once, the block 32 times. */
    assert_int_equal(c.non_embedding.all, c.non_embedding.once + 31 * c.n_loop);
}

/* The MLP kinds, shared experts, MoE in some of the block's layers, and a
 * stage's own attention, against hand counts: d 64, d_ff 256, top-2 of 8
 * experts 128 wide, one shared expert, 3 block layers of which 2 MoE, a
 * prelude of 1 dense layer with 2 heads of 32 and 1 key/value head. */
static void mlp_kinds_shared_experts_and_stage_attention(void **state)
{
    (void)state;
    ls_shape_spec s;
    ls_shape_spec_unset(&s);
    s.d_model = 64;
    s.d_ff = 256;
    s.top_k = 2;
    s.experts = 8;
    s.shared_experts = 1;
    s.layers = 3;
    s.moe_layers = 2;
    s.head_layers = 1;
    s.head_experts = 1;
    s.stage_heads[LS_SHAPE_PRELUDE] = 2;
    s.stage_kv_heads[LS_SHAPE_PRELUDE] = 1;
    s.vocab = 10;
    s.context = 100;
    for (long mlp = LS_SHAPE_MLP_SWIGLU; mlp <= LS_SHAPE_MLP_RELU2; mlp++) {
        ls_shape_spec t = s;
        t.mlp = mlp;
        ls_shape_counts c = count(&t);
        uint64_t m = mlp == LS_SHAPE_MLP_SWIGLU ? 3 : 2;
        uint64_t expert = m * 64 * 128, dense = m * 64 * 256;
        /* block: 2 MoE layers store 8 + 1 experts and use 2 + 1; 1 dense */
        assert_int_equal(c.block[LS_SHAPE_FFN].stored, 2 * 9 * expert + dense);
        assert_int_equal(c.block[LS_SHAPE_FFN].once, 2 * 3 * expert + dense);
        assert_int_equal(c.block[LS_SHAPE_ROUTER].stored, 2 * 64 * 8);
        /* the prelude: d h (2 x 2 + 2 x 1) with h = 32, and its dense FFN */
        assert_int_equal(c.head[LS_SHAPE_ATTN].stored, 64 * 32 * 6);
        assert_int_equal(c.head[LS_SHAPE_FFN].stored, dense);
        assert_int_equal(c.stage_kv_width[LS_SHAPE_PRELUDE], 32);
        assert_int_equal(c.stage_q_width[LS_SHAPE_PRELUDE], 64);
        assert_int_equal(c.block[LS_SHAPE_ATTN].stored, 3 * 4 * 64 * 64);
    }
    /* A stage's heads that do not fit are refused by its name. */
    s.stage_heads[LS_SHAPE_CODA] = 3;
    s.tail_layers = 1;
    ls_error err;
    assert_int_equal(ls_shape_resolve(&s, &err), LS_ERR_USAGE);
    assert_string_equal(err.message, "coda_heads = 3 does not divide d_model = 64; give coda_head_dim");
    ls_shape_spec f;
    s.stage_heads[LS_SHAPE_CODA] = LS_SHAPE_UNSET;
    assert_int_equal(ls_shape_resolve(&s, &err), 0);
    s.layers = 4;
    s.moe_layers = 3;
    assert_int_equal(ls_shape_flatten(&s, 1, &f, &err), LS_ERR_USAGE);
    assert_string_equal(err.message, "flattening 1 step: moe_layers = 3 cannot be halved 1 time");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(foil_totals_match_the_paper),
        cmocka_unit_test(tinyllama_count_matches_its_published_1100048384),
        cmocka_unit_test(mixtral_count_matches_its_published_46702792704),
        cmocka_unit_test(a_small_odd_shape_counted_by_hand),
        cmocka_unit_test(route_counts_for_any_expert_count),
        cmocka_unit_test(flattening_keeps_the_budget_and_doubles_e_eq),
        cmocka_unit_test(bad_shapes_are_refused_by_name),
        cmocka_unit_test(shape_files_read_back_what_is_written),
        cmocka_unit_test(looped_nanochat_counts_match_its_log),
        cmocka_unit_test(huginn_count_by_hand),
        cmocka_unit_test(mlp_kinds_shared_experts_and_stage_attention),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
