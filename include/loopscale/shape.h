/*
 * loopscale/shape.h — parameter and FLOP accounting of a looped MoE
 * (docs/calculators.md; after Foil: How to Loop MoE: Flatten the Experts,
 * Untie the Attention).
 *
 * A shape is a looped block of D layers, each with E routed experts of which
 * a token uses top_k, run L times; around it, head (prelude) and tail (coda)
 * layers that run once, with their own expert counts; embeddings and an LM
 * head.  Attention in the block is tied (D sets shared by every loop, the
 * classic looped transformer) or per-loop (D L sets, Foil's "untied"
 * attention: experts and routers stay shared).
 *
 * Conventions, all exact integer counts:
 *   attention set   4 d^2 without biases, or d h (2 heads + 2 kv_heads) for
 *                   grouped-query attention with heads of size h (each
 *                   stage may have its own heads, kv_heads and head_dim)
 *   MLP             gated (SwiGLU: 3 d w) or not (GELU, ReLU^2: 2 d w)
 *   expert          an MLP of width d_expert = d_ff / top_k, so that top_k
 *                   experts cost what a dense FFN of width d_ff does; a
 *                   layer with one expert is that dense FFN; shared experts
 *                   (always active) are d_expert wide too; of the block's D
 *                   layers, moe_layers have experts and the rest a dense FFN
 *   router          d E per layer with E > 1 (every token computes all E
 *                   logits, so a router is active whole)
 *   injection       concat: the embedded input concatenated to the state
 *                   and projected back on every loop (Huginn's adapter),
 *                   2 d^2 in the block; add: no parameters
 *   norms           RMSNorm gain vectors of d: pre (before every attention
 *                   set and every MLP) or sandwich (before and after each),
 *                   and a final one; optionally one after the embedding
 *                   (prelude) and one at the end of every loop (block)
 *   embeddings      vocab x d, and the LM head vocab x d again unless tied
 * "Active" counts the parameters that do multiply-adds for a token: the
 * embedding lookup does none, the LM head's product always happens.  The
 * sweep quantities (docs/laws.md) follow: N_total and N_act are non-embedding,
 * N_act runs the block once, N_loop is the block's share of that, and
 * N_unroll = N_act + (L - 1) N_loop is what a token costs.
 *
 * Nothing here allocates; every struct belongs to the caller.
 *
 * Thread safety: pure functions of caller-owned structs; safe from any
 * thread.
 */
#ifndef LOOPSCALE_SHAPE_H
#define LOOPSCALE_SHAPE_H

#include <stdint.h>

#include "loopscale/error.h"
#include "loopscale/law.h"
#include "loopscale/export.h"

LS_API_BEGIN

#define LS_SHAPE_FORMAT "loopscale-shape/1"
#define LS_SHAPE_UNSET (-1L)

typedef enum { LS_SHAPE_ATTENTION_TIED, LS_SHAPE_ATTENTION_PER_LOOP } ls_shape_attention;
typedef enum { LS_SHAPE_EMBEDDINGS_UNTIED, LS_SHAPE_EMBEDDINGS_TIED } ls_shape_embeddings;
typedef enum { LS_SHAPE_MLP_SWIGLU, LS_SHAPE_MLP_GELU, LS_SHAPE_MLP_RELU2 } ls_shape_mlp;
typedef enum { LS_SHAPE_INJECTION_NONE, LS_SHAPE_INJECTION_CONCAT, LS_SHAPE_INJECTION_ADD } ls_shape_injection;
typedef enum { LS_SHAPE_NORMS_NONE, LS_SHAPE_NORMS_PRE, LS_SHAPE_NORMS_SANDWICH } ls_shape_norms;
/* The stages, for what each may have of its own. */
typedef enum { LS_SHAPE_PRELUDE, LS_SHAPE_LOOP, LS_SHAPE_CODA, LS_SHAPE_NSTAGES } ls_shape_stage;

/* Every field is LS_SHAPE_UNSET until given; ls_shape_resolve() fills defaults. */
typedef struct ls_shape_spec {
    long d_model;
    long d_ff;     /* width of the dense FFN an expert layer replaces */
    long d_expert; /* or the expert width itself: d_ff = top_k d_expert */
    long top_k;    /* default 1 */
    long vocab;
    long experts;  /* E, per block layer; default 1 (dense) */
    long layers;   /* D, in the block */
    long loops;    /* L; default 1 */
    long head_layers, tail_layers;   /* default 0 */
    long head_experts, tail_experts; /* default E, and head_experts */
    long heads, kv_heads, head_dim;  /* optional attention geometry */
    long context;    /* positions attended to, for attention FLOPs; default 0 */
    long attention;  /* ls_shape_attention; default tied */
    long embeddings; /* ls_shape_embeddings; default untied */
    long norm_params; /* ls_shape_norms; default none (1 is pre, as the switch --norm-params was) */
    long mlp;        /* ls_shape_mlp; default SwiGLU */
    long shared_experts; /* per layer with experts; default 0 */
    long moe_layers; /* block layers with experts; default all D */
    long injection;  /* ls_shape_injection; default none */
    long embedding_norm, loop_norm; /* 0 or 1; default 0 */
    /* A stage's own attention geometry (default: the model's above); after
     * ls_shape_resolve, each stage's in effect (heads LS_SHAPE_UNSET: 4 d^2
     * attention of d-wide heads). */
    long stage_heads[LS_SHAPE_NSTAGES], stage_kv_heads[LS_SHAPE_NSTAGES], stage_head_dim[LS_SHAPE_NSTAGES];
} ls_shape_spec;

void ls_shape_spec_unset(ls_shape_spec *s);
/* Fields set in `over` replace those of `base`. */
void ls_shape_spec_merge(ls_shape_spec *base, const ls_shape_spec *over);

/* Read a shape file over s: a template file (loopscale/arch.h,
 * docs/formats.md lists its keys; a template's shares are no shape and are
 * refused), or the output of `loopscale shape --format json`, whose "shape"
 * member is read.  Unknown keys are refused.  LS_ERR_NOINPUT or LS_ERR_DATA. */
int ls_shape_spec_read(const char *path, ls_shape_spec *s, ls_error *err) LS_MUST_CHECK;
/* The same from text in memory; path names it in messages. */
int ls_shape_spec_parse(const char *text, size_t len, const char *path, ls_shape_spec *s, ls_error *err) LS_MUST_CHECK;


/* Fill defaults and check the shape; LS_ERR_USAGE names the field at fault
 * ("experts = 1 is less than top_k = 2"). */
int ls_shape_resolve(ls_shape_spec *s, ls_error *err) LS_MUST_CHECK;
/* A model with its experts settled (shape's options, a run's configuration
 * columns): shared experts need routed ones beside them, in a stage that
 * has experts; else LS_ERR_USAGE.  A template, whose experts a command
 * sets later, is not checked. */
int ls_shape_check_shared(const ls_shape_spec *s, ls_error *err) LS_MUST_CHECK;

/* (E, D, L) -> (2^steps E, D / 2^steps, 2^steps L), head and tail kept;
 * s must be resolved.  LS_ERR_USAGE when D does not halve so often. */
int ls_shape_flatten(const ls_shape_spec *s, int steps, ls_shape_spec *out, ls_error *err) LS_MUST_CHECK;

/* Parameters of one part: stored, active with the block run once, and
 * active over the whole forward pass (the block run L times). */
typedef struct ls_shape_count {
    uint64_t stored, once, all;
} ls_shape_count;

typedef enum {
    LS_SHAPE_ATTN,
    LS_SHAPE_FFN,
    LS_SHAPE_ROUTER,
    LS_SHAPE_NORM,
    LS_SHAPE_INJECT, /* the input injection's adapter (block only) */
    LS_SHAPE_NKINDS
} ls_shape_kind;

typedef struct ls_shape_counts {
    /* the accounting identities of Foil, for the block */
    uint64_t e_real, e_comp, d_eff, e_eq;
    double log10_routes; /* log10 of C(E, top_k)^(D L), the formal routes */
    /* sizes of the pieces */
    uint64_t attention_set, expert, head_expert, tail_expert;
    uint64_t q_width;        /* heads x head_dim (d by default), in the block */
    uint64_t attention_sets; /* stored in the block: D, or D L per loop */
    /* Each stage's attention (ls_shape_stage): the parameters of a set, the
     * query width and the key/value width, kv_heads x head_dim (a token's
     * KV cache holds 2 kv_width values per attention layer run). */
    uint64_t stage_attention_set[LS_SHAPE_NSTAGES], stage_q_width[LS_SHAPE_NSTAGES],
        stage_kv_width[LS_SHAPE_NSTAGES];
    /* parts */
    ls_shape_count block[LS_SHAPE_NKINDS], head[LS_SHAPE_NKINDS], tail[LS_SHAPE_NKINDS];
    ls_shape_count final_norm, embedding, lm_head;
    /* sums: non_embedding is (N_total, N_act, N_unroll); total adds the
     * embedding and LM head */
    ls_shape_count non_embedding, total;
    uint64_t n_loop;
    /* FLOPs per token: 2 per multiply-add of every active parameter over the
     * whole pass (lm_head included), plus attention scores: QK^T and the
     * weighted sum of V, 4 context q_width per attention layer run */
    uint64_t flops_matmul, flops_attention, flops_total;
    /* the same split for early exit: prelude (head layers), one pass of the
     * block, coda (tail layers, final norm, LM head); prelude + L loop +
     * coda = flops_total */
    uint64_t flops_prelude, flops_loop, flops_coda;
} ls_shape_counts;

/* Count a resolved shape.  LS_ERR_USAGE when a count overflows 64 bits. */
int ls_shape_count_params(const ls_shape_spec *s, ls_shape_counts *c, ls_error *err) LS_MUST_CHECK;

/* The sweep row of a counted shape as a law point (non-embedding N_act,
 * N_total and N_loop, R = L, E; no tokens), and the FLOP convention `kind`
 * with the shape's own layers (head, block, tail), width, context and
 * vocabulary, so that ls_law_inference_flops_as() gives what solve and
 * predict charge a token of this shape under that convention. */
ls_law_point ls_shape_point(const ls_shape_spec *s, const ls_shape_counts *c);
void ls_shape_flops(const ls_shape_spec *s, ls_law_flops_kind kind, ls_law_flops *out);

/* The value the string fields take in files and messages, and back (-1:
 * not one of them). */
const char *ls_shape_attention_name(long attention);
const char *ls_shape_embeddings_name(long embeddings);
const char *ls_shape_mlp_name(long mlp);
const char *ls_shape_injection_name(long injection);
const char *ls_shape_norms_name(long norms);
long ls_shape_choice_parse(const char *key, const char *value);

LS_API_END

#endif
