/*
 * law_second_internal.h — ln Lhat's second-order structure for one run, in
 * the compact form the fitter accumulates (law_hessian.c).
 *
 * ln Lhat = lse(t1, t2, t3); with w_k the shares and a_k = grad t_k,
 *   grad ln Lhat = sum_k w_k a_k,
 *   Hess ln Lhat = sum_k w_k a_k a_k' - grad grad' + T,  T = sum_k w_k Hess t_k.
 * Each a_k is listed by its non-zero entries; T by its entries (i, j),
 * i <= j, each unordered pair once.
 */
#ifndef LOOPSCALE_LAW_SECOND_INTERNAL_H
#define LOOPSCALE_LAW_SECOND_INTERNAL_H

#include "loopscale/law.h"

#define LS_LAW_SECOND_MAX_T 48

typedef struct ls_law_second {
    double ln_loss;
    double w[3];
    int na[3];
    ls_law_param ia[3][LS_LAW_NPARAMS];
    double a[3][LS_LAW_NPARAMS]; /* a[k][m] belongs to parameter ia[k][m] */
    int nt;
    ls_law_param ti[LS_LAW_SECOND_MAX_T], tj[LS_LAW_SECOND_MAX_T];
    double tv[LS_LAW_SECOND_MAX_T];
} ls_law_second;

void ls_law_row_second(const ls_law_prepared *prep, const ls_law_row *row, ls_law_second *out);

/* Whether ls_law_row_second covers the kind (every base and mapping it
 * knows); the fitter fits other kinds with first-order models only. */
int ls_law_has_second(ls_law_kind kind);

#endif
