/*
 * loopscale/route.h — router health from router logits (docs/calculators.md;
 * after How to Loop MoE: Flatten the Experts, Untie the Attention, and Sparse
 * Layers are Critical to Scaling Looped Language Models).
 *
 * Logits z[token][loop][layer][expert] are streamed one token at a time, so
 * memory depends on the shape of one token, not on the number of tokens.
 * For every layer, pooled over loops, and for every (layer, loop):
 *   B2       (1/E) / sum_i q_i^2, q_i the share of top-k assignments that
 *            expert i receives: 1 when the load is even, k/E when it all goes
 *            to k fixed experts (Jain's fairness index, Foil);
 *   MMR      exp(mean z_(1) - mean z_(j)), z_(m) the m-th largest logit of a
 *            decision and j = ceil(E/2), the median-ranked expert: 1 for a
 *            router with no preference, at any E (Foil);
 *   distinct experts a token's top-k sets cover over loops 1..l (over all
 *            loops for the pooled row);
 *   disjoint share of tokens whose top-k sets at two consecutive loops have
 *            no expert in common (Sparse Layers), and
 *   switched share whose sets differ at all — both over the pairs
 *            (l-1, l), undefined (NaN) at loop 1 and for a single loop.
 * A tie at the top-k boundary (the k-th and (k+1)-th largest logits equal) is
 * split evenly for B2, which is the expected load under random tie-breaking
 * (so all-equal logits give B2 = 1), and broken towards the lower expert
 * index for the set metrics; ties are counted and reported.
 *
 * ls_route_read() returns a report the caller frees with ls_route_report_free().
 *
 * Thread safety: no global state; a report may be read from several threads
 * at once.
 */
#ifndef LOOPSCALE_ROUTE_H
#define LOOPSCALE_ROUTE_H

#include <stddef.h>
#include <stdint.h>

#include "loopscale/error.h"
#include "loopscale/export.h"

LS_API_BEGIN

typedef struct ls_route_metrics {
    double b2, mmr, distinct, disjoint, switched;
    uint64_t decisions; /* router decisions (token, loop, layer) pooled here */
    uint64_t ties;      /* of which had a tie at the top-k boundary */
} ls_route_metrics;

typedef struct ls_route_report {
    size_t tokens, loops, layers, experts, top_k;
    char source[32];          /* "float16 .npy", "CSV", ... */
    ls_route_metrics *per_loop;  /* [layer * loops + loop] */
    ls_route_metrics *per_layer; /* [layer], loops pooled */
    ls_route_metrics all;        /* layers and loops pooled: B2 over the layers x
                               * experts pool, distinct summed over layers */
} ls_route_report;

/* The streaming accumulator, for callers that hold logits in memory. */
typedef struct ls_route_acc ls_route_acc;
ls_route_acc *ls_route_acc_new(size_t loops, size_t layers, size_t experts, size_t top_k, ls_error *err);
/* One token's logits, [loop][layer][expert] in C order, all finite. */
void ls_route_acc_add(ls_route_acc *a, const double *logits);
ls_route_report *ls_route_acc_report(const ls_route_acc *a, ls_error *err);
void ls_route_acc_free(ls_route_acc *a);

/* Read logits from a .npy file ([tokens, loops, layers, experts], float16,
 * float32 or float64; recognised by its magic string) or a CSV file
 * `token,loop,layer,z0,...,z{E-1}` (plain, gzip or "-"; loops and layers
 * counted from 1) and report on them.  A non-finite logit is an LS_ERR_DATA
 * error naming the file and the position; a top_k above E is LS_ERR_USAGE. */
ls_route_report *ls_route_read(const char *path, size_t top_k, ls_error *err);

void ls_route_report_free(ls_route_report *r);

LS_API_END

#endif
