/*
 * loopscale/arch.h — the architecture template: from (N_act, E) to N_total
 * and N_loop (docs/solver.md).
 *
 * Default, after the paper's middle-cycle looping: attention is 1/3 of an
 * active layer's parameters and the expert FFN 2/3 (experts the size of the
 * dense FFN, top-1 routing); 2 prelude and 2 coda layers unshared around a
 * 12-layer looped block, so N_loop / N_act = 12/16 = 0.75.  With a the
 * attention share, the k active experts hold 1 - a of an active layer and
 * the E stored ones E/k times that, so
 *     N_total = N_act (a + (1 - a) E / k),   N_loop = N_act L_loop / L_all,
 * which is N_act (1 + (2/3)(E - 1)) by default.
 * A JSON template file ("loopscale-template/1") overrides any field.
 *
 * Thread safety: an ls_arch_template is plain data; reading one from many
 * threads at once is safe, and the functions keep no state of their own.
 */
#ifndef LOOPSCALE_ARCH_H
#define LOOPSCALE_ARCH_H

#include "loopscale/error.h"
#include "loopscale/law.h"
#include "loopscale/export.h"

LS_API_BEGIN

#define LS_ARCH_TEMPLATE_FORMAT "loopscale-template/1"

typedef struct ls_arch_template {
    double attention_share; /* share of an active layer's parameters in attention */
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
} ls_arch_template;

void ls_arch_template_default(ls_arch_template *t);
/* Read a template file over the defaults; LS_ERR_NOINPUT or LS_ERR_DATA. */
int ls_arch_template_read(const char *path, ls_arch_template *t, ls_error *err) LS_MUST_CHECK;
/* The same from text in memory; path names it in messages. */
int ls_arch_template_parse(const char *text, size_t len, const char *path, ls_arch_template *t,
                           ls_error *err) LS_MUST_CHECK;
/* The template as JSON (malloc'd), with the derived loop fraction. */
char *ls_arch_template_to_json(const ls_arch_template *t, ls_error *err) LS_MUST_CHECK;

double ls_arch_loop_fraction(const ls_arch_template *t);
double ls_arch_n_total(const ls_arch_template *t, double n_act, double E);
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
/* The law point of a configuration. */
ls_law_point ls_arch_point(const ls_arch_template *t, double n_act, double E, double R, double tokens);

LS_API_END

#endif
