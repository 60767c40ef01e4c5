/*
 * loopscale/arch.h — the architecture template: from (N_act, E, R) to
 * N_total and N_loop (docs/solver.md, docs/formats.md#templates).
 *
 * Every template comes down to four shares of N_act:
 *     N_total = N_act (1 + fixed + routed (E / k - 1) + per_loop (R - 1))
 *     N_loop  = N_act loop
 * routed is the share of N_act in the top_k routed experts of the layers
 * whose expert count is the E being chosen, fixed what layers with an expert
 * count of their own store beyond what they use, per_loop what each further
 * loop stores again (Foil's per-loop attention) and loop the looped block's
 * share.  A template gives them in one of two forms:
 *   - as shares ("attention_share", "routed_share", "loop_share", ...),
 *     the form of the paper's middle-cycle looping, the default: attention
 *     1/3 of an active layer and the expert FFN 2/3 (experts the size of the
 *     dense FFN, top-1 routing) in every layer; 2 prelude and 2 coda layers
 *     unshared around a 12-layer looped block, so routed = 2/3, loop = 0.75
 *     and N_total = N_act (1 + (2/3)(E - 1));
 *   - as a model ("d_model", "d_ff", the layers of each stage, heads,
 *     experts, MLP kind, injection...: the keys of loopscale/shape.h), whose
 *     shares are counted with `loopscale shape`'s accounting: the parts that
 *     grow with the width squared (the routers and norms, which grow with the
 *     width alone, are left out of the shares: their share falls as the model
 *     grows), so that the template scales the model to any N_act.
 * A template file is JSON ("loopscale-template/1"); shape files and the
 * output of `loopscale shape --format json` read as templates too.
 *
 * A law fitted by `fit` records the architecture of its runs (ls_arch_record,
 * a law file's "architecture"): the template that reproduces their N_total
 * and N_loop, how closely, and each configuration's ratios, so that solve
 * answers for the runs' architecture and can say when a template given to it
 * differs (ls_arch_compare).
 *
 * Thread safety: an ls_arch_template is plain data; reading one from many
 * threads at once is safe, and the functions keep no state of their own.
 */
#ifndef LOOPSCALE_ARCH_H
#define LOOPSCALE_ARCH_H

#include <stddef.h>

#include "loopscale/error.h"
#include "loopscale/law.h"
#include "loopscale/shape.h"
#include "loopscale/sweep.h"
#include "loopscale/export.h"

LS_API_BEGIN

#define LS_ARCH_TEMPLATE_FORMAT "loopscale-template/1"

typedef struct ls_arch_template {
    /* The width calibration of the FLOP conventions (law.h): the share of
     * an active layer's parameters in 4 d^2 of attention. */
    double attention_share;
    int top_k;              /* experts chosen per token */
    int prelude_layers;     /* unshared layers before the looped block */
    int loop_layers;        /* layers in the looped block */
    int coda_layers;        /* unshared layers after it */
    /* How training compute is counted (law.h, docs/flops.md), and what the
     * conventions beyond 6nd need: the context length n_ctx, the
     * vocabulary V and the width d (0: not given; a width of 0 is read off
     * N_act and attention_share). */
    ls_law_flops_kind flops_convention;
    double context, vocab, d_model;
    /* The shares (above). */
    double routed_share, fixed_share, per_loop_share, loop_share;
    /* The model the shares were counted from (has_shape), as the file gave
     * it (fields it left out LS_SHAPE_UNSET). */
    int has_shape;
    ls_shape_spec shape;
    /* Each stage's key/value width per unit of model width (prelude, loop
     * block, coda; ls_shape_stage): kv_heads x head_dim / d_model of the
     * model (has_shape), else 1: a template of shares gives no heads, and
     * its layers are taken as multi-head attention, K and V each d wide. */
    double kv_ratio[LS_SHAPE_NSTAGES];
    char name[128];   /* "name": what the template describes ("" when not given) */
    char source[512]; /* "source": where its numbers come from ("" when not given) */
} ls_arch_template;

void ls_arch_template_default(ls_arch_template *t);
/* Read a template file over t (the defaults, usually); LS_ERR_NOINPUT or
 * LS_ERR_DATA.  Unknown keys are refused. */
int ls_arch_template_read(const char *path, ls_arch_template *t, ls_error *err) LS_MUST_CHECK;
/* The same from text in memory; path names it in messages. */
int ls_arch_template_parse(const char *text, size_t len, const char *path, ls_arch_template *t,
                           ls_error *err) LS_MUST_CHECK;
/* The template as JSON (malloc'd), with its shares; it reads back the same. */
char *ls_arch_template_to_json(const ls_arch_template *t, ls_error *err) LS_MUST_CHECK;
/* "looped-nanochat S12 (top-1, routed share 0, loop share 0.5102)": what
 * the template is, in a line, for messages. */
void ls_arch_template_describe(const ls_arch_template *t, char *buf, size_t size);

/* N_loop / N_act. */
double ls_arch_loop_fraction(const ls_arch_template *t);
/* N_total at one loop, and at R loops; exactly n_act when the template
 * stores nothing beyond what a token uses (E = top_k, no fixed share). */
double ls_arch_n_total(const ls_arch_template *t, double n_act, double E);
double ls_arch_n_total_at(const ls_arch_template *t, double n_act, double E, double R);
double ls_arch_n_loop(const ls_arch_template *t, double n_act);
/* The template's FLOP convention, with its layers, width and shares. */
void ls_arch_flops(const ls_arch_template *t, ls_law_flops *out);
/* Set the template's convention from a law's recorded one (layers and
 * shares are left alone; context, vocab and d_model are taken). */
void ls_arch_set_flops(ls_arch_template *t, const ls_law_flops *c);
/* The tokens F buys at x, D = F / (6 x forward multiply-adds per token),
 * and the training FLOPs of x, under the template's convention. */
double ls_arch_tokens_for_flops(const ls_arch_template *t, const ls_law_point *x, double flops);
double ls_arch_training_flops(const ls_arch_template *t, const ls_law_point *x);
double ls_arch_inference_flops(const ls_arch_template *t, const ls_law_point *x);
/* The key and value elements one token of context keeps in the KV cache
 * at R loops: every attention layer a token runs through keeps its own K
 * and V, kv_ratio x d wide each, so 2 d (kv_ratio[prelude] prelude_layers
 * + R kv_ratio[loop] loop_layers + kv_ratio[coda] coda_layers), with the
 * width d of the FLOP conventions (d_model, or read off N_act:
 * ls_law_flops_width).  Tied and per-loop attention keep the same cache:
 * the weights are shared or not, each pass's keys and values are its own. */
double ls_arch_kv_per_token(const ls_arch_template *t, double n_act, double R);
/* The law point of a configuration. */
ls_law_point ls_arch_point(const ls_arch_template *t, double n_act, double E, double R, double tokens);

/* ---- the architecture of a law's runs ---------------------------------------- */

/* Templates and runs whose N_total / N_act or N_loop / N_act differ by more
 * than this (relative) are different architectures. */
#define LS_ARCH_TOLERANCE 0.02

/* The runs of one configuration (E, R, k): how many, and the range of
 * their N_total / N_act and N_loop / N_act (NaN when none gives N_loop). */
typedef struct ls_arch_config {
    double E, R, k;
    size_t runs;
    double total_ratio[2], loop_ratio[2];
} ls_arch_config;

/* The shares a record's runs could not tell apart, taken from the default
 * template: routed when every run has E = k, fixed when the runs have one E,
 * per_loop when they have one R, loop when none gives N_loop. */
enum { LS_ARCH_ASSUMED_ROUTED = 1, LS_ARCH_ASSUMED_FIXED = 2, LS_ARCH_ASSUMED_PER_LOOP = 4, LS_ARCH_ASSUMED_LOOP = 8 };

typedef enum {
    LS_ARCH_FROM_TEMPLATE, /* "template": the template fit was given reproduces the runs */
    LS_ARCH_FROM_DEFAULT,  /* "default": the default template reproduces them (to 1e-6) */
    LS_ARCH_FROM_RUNS      /* "runs": shares fitted to the runs by least squares */
} ls_arch_source;

typedef struct ls_arch_record {
    ls_arch_template tmpl;
    ls_arch_source source;
    double residual_total, residual_loop; /* the largest relative difference of the template's
                                           * N_total and N_loop from the runs' (NaN: no run gives one) */
    unsigned assumed;                     /* LS_ARCH_ASSUMED_* */
    size_t nconfigs;
    ls_arch_config *configs;              /* malloc'd; ls_arch_record_free */
} ls_arch_record;

/* "template", "default", "runs"; and back (-1: unknown). */
const char *ls_arch_source_name(ls_arch_source source);
int ls_arch_source_from_name(const char *name);

/* The architecture of the runs of s: given (the template the fit was given,
 * or NULL) when it reproduces every run within LS_ARCH_TOLERANCE, else the
 * default template when it reproduces them to 1e-6 (a sweep `simulate` drew
 * through it), else the shares that fit the runs best (least squares on
 * N_total / N_act, the mean of N_loop / N_act).  0, or LS_ERR_INTERNAL. */
int ls_arch_record_runs(const ls_sweep *s, const ls_arch_template *given, ls_arch_record *out,
                        ls_error *err) LS_MUST_CHECK;
void ls_arch_record_free(ls_arch_record *r);
/* A deep copy (configs malloc'd); 0 or LS_ERR_INTERNAL. */
int ls_arch_record_copy(const ls_arch_record *from, ls_arch_record *to, ls_error *err) LS_MUST_CHECK;

/* How far t is from the runs of r at their configurations: the largest
 * relative difference of t's N_total / N_act from a configuration's range,
 * and of its N_loop / N_act, with the configuration where each is largest
 * (NULL when r has none) and t's ratio there. */
typedef struct ls_arch_difference {
    double total, loop;
    const ls_arch_config *total_at, *loop_at;
    double total_ratio, loop_ratio;
} ls_arch_difference;
void ls_arch_compare(const ls_arch_template *t, const ls_arch_record *r, ls_arch_difference *out);

LS_API_END

#endif
