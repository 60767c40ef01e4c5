/*
 * loopscale/law.h — the loss laws (docs/laws.md): a base and a loop mapping.
 *
 *   dense: L = A N_eff^-alpha + B D^-beta + c
 *   moe:   L = A Ehat^delta N_eff^-(alpha + gamma ln Ehat)
 *            + B Ehat^omega D^-(beta + zeta ln Ehat) + c
 *
 *   kaplan: L = ((N_c / N_eff)^(alpha_N / alpha_D) + D_c / D)^alpha_D
 *   data-constrained: L = A N'^-alpha + B D'^-beta + c, with N' and D' the
 *            effective parameters and tokens when U unique tokens are
 *            repeated (ls_law_data_constrained_effective)
 *
 * N_eff comes from the mapping (none, linear, power, bounded, bounded-sparse,
 * hyperbolic, log) of R, m = N_act/N_total and N_loop.  N_eff is what the loss
 * sees; N_unroll = N_act + (R-1) N_loop is what compute is charged on.
 *
 * The loss is evaluated in log space as a log-sum-exp of its three terms, and
 * its gradient is taken with respect to the *fitted* coordinates u of the
 * parameters: u = ln p for positive parameters, u = ln(p - 1) for E_max, and
 * u = p for exponents that may take either sign.  Everything here is pure
 * computation on caller-owned structs; nothing allocates.
 *
 * Thread safety: pure functions of their arguments; any number of threads
 * may evaluate one law at once.  A ls_law_prepared caches values for the last
 * point seen, so each thread needs its own.
 */
#ifndef LOOPSCALE_LAW_H
#define LOOPSCALE_LAW_H

#include <stddef.h>

#include "loopscale/error.h"
#include "loopscale/export.h"

LS_API_BEGIN

typedef enum {
    LS_LAW_BASE_DENSE,  /* Chinchilla: A N_eff^-alpha + B D^-beta + c */
    LS_LAW_BASE_MOE,    /* dense with Clark et al.'s expert terms */
    LS_LAW_BASE_KAPLAN, /* Kaplan et al.: ((N_c/N_eff)^(alpha_N/alpha_D) + D_c/D)^alpha_D */
    LS_LAW_BASE_DATA_CONSTRAINED, /* Muennighoff et al.: A N'^-alpha + B D'^-beta + c */
    LS_LAW_NBASES
} ls_law_base;

typedef enum {
    LS_LAW_MAPPING_NONE,
    LS_LAW_MAPPING_LINEAR,         /* Parcae: N_act + (R-1) N_loop */
    LS_LAW_MAPPING_POWER,          /* Iso-Depth: N_act + (R^phi - 1) N_loop */
    LS_LAW_MAPPING_BOUNDED,        /* N_act + kappa1 N_loop (1 - exp(-(R-1)/kappa2)) */
    LS_LAW_MAPPING_BOUNDED_SPARSE, /* bounded, kappa_j -> kappa_j m^-theta */
    LS_LAW_MAPPING_HYPERBOLIC,     /* N_act + kappa1 m^-theta N_loop (R-1)/(R-1 + kappa2 m^-theta) */
    LS_LAW_MAPPING_LOG,            /* N_act + kappa1 N_loop ln R */
    LS_LAW_NMAPPINGS
} ls_law_mapping;

/* Parameters, in the order files and tables list them. */
typedef enum {
    LS_LAW_P_A,
    LS_LAW_P_ALPHA,
    LS_LAW_P_B,
    LS_LAW_P_BETA,
    LS_LAW_P_C,
    LS_LAW_P_DELTA,
    LS_LAW_P_GAMMA,
    LS_LAW_P_OMEGA,
    LS_LAW_P_ZETA,
    LS_LAW_P_E_START,
    LS_LAW_P_E_MAX,
    LS_LAW_P_N_C,     /* kaplan */
    LS_LAW_P_ALPHA_N, /* kaplan */
    LS_LAW_P_D_C,     /* kaplan */
    LS_LAW_P_ALPHA_D, /* kaplan */
    LS_LAW_P_R_D_STAR, /* data-constrained */
    LS_LAW_P_R_N_STAR, /* data-constrained */
    LS_LAW_P_PHI,
    LS_LAW_P_KAPPA1,
    LS_LAW_P_KAPPA2,
    LS_LAW_P_THETA,
    LS_LAW_NPARAMS
} ls_law_param;

typedef enum {
    LS_LAW_TRANSFORM_IDENTITY,    /* u = p */
    LS_LAW_TRANSFORM_LOG,         /* u = ln p, p > 0 */
    LS_LAW_TRANSFORM_LOG_MINUS_1  /* u = ln(p - 1), p > 1 */
} ls_law_transform;

typedef struct ls_law_kind {
    ls_law_base base;
    ls_law_mapping mapping;
} ls_law_kind;

/* A law: its kind and the natural value of every parameter.  Parameters the
 * kind does not use hold their neutral value (ls_law_param_neutral). */
typedef struct ls_law {
    ls_law_kind kind;
    double p[LS_LAW_NPARAMS];
} ls_law;

/* One configuration the law is evaluated at.  U is the number of unique
 * tokens the D training tokens were drawn from (the data-constrained law
 * reads it); 0 means unlimited (every token fresh), and is what a point
 * written as {n_act, n_total, n_loop, R, E, D} gets. */
typedef struct ls_law_point {
    double n_act, n_total, n_loop, R, E, D;
    double U;
} ls_law_point;

/* --- names ----------------------------------------------------------- */

/* How rho_eff = N_eff / N_act behaves as R -> inf under a mapping. */
typedef enum {
    LS_LAW_CEILING_ONE,       /* no loop gain: rho_eff = 1 (none) */
    LS_LAW_CEILING_UNBOUNDED, /* grows without bound (linear, power, log) */
    LS_LAW_CEILING_KAPPA1     /* saturates at 1 + kappa1 m^-theta N_loop / N_act (bounded family) */
} ls_law_ceiling;

const char *ls_law_base_name(ls_law_base base);
const char *ls_law_mapping_name(ls_law_mapping mapping);
const char *ls_law_param_name(ls_law_param param);
/* The formula of a base ("L = ...") and of a mapping ("N_eff = ..."). */
const char *ls_law_base_formula(ls_law_base base);
const char *ls_law_mapping_formula(ls_law_mapping mapping);
/* The base or mapping called `name` (exact spelling), or -1. */
int ls_law_base_from_name(const char *name);
int ls_law_mapping_from_name(const char *name);
/* 1 for the sparsity-conditional mappings (kappa_j -> kappa_j m^-theta),
 * which equal their dense counterpart on a sweep where every run has m = 1. */
int ls_law_mapping_is_sparse(ls_law_mapping mapping);
ls_law_ceiling ls_law_mapping_ceiling(ls_law_mapping mapping);
/* "moe:bounded-sparse" into buf; returns buf. */
char *ls_law_kind_format(ls_law_kind kind, char *buf, size_t size);
/* Parse "BASE" or "BASE:MAPPING" ("dense" means dense:none). */
int ls_law_kind_parse(const char *text, ls_law_kind *out, ls_error *err) LS_MUST_CHECK;
/* The parameter called `name` (exact spelling), or -1. */
int ls_law_param_from_name(const char *name);

/* --- parameters ------------------------------------------------------ */

int ls_law_uses_param(ls_law_kind kind, ls_law_param param);
/* Number of parameters the kind uses, and their list in file order. */
size_t ls_law_params_of(ls_law_kind kind, ls_law_param out[LS_LAW_NPARAMS]);
/* The value that switches a parameter's effect off (0 for the MoE exponents
 * and theta, 1 for E_start and phi, 1e6 for E_max: Ehat ~ E). */
double ls_law_param_neutral(ls_law_param param);
ls_law_transform ls_law_param_transform(ls_law_param param);
double ls_law_param_to_fitted(ls_law_param param, double natural);
double ls_law_param_from_fitted(ls_law_param param, double fitted);
/* d p / d u at the natural value p: p for log-transformed parameters,
 * p - 1 for E_max, 1 otherwise (turns errors in u into errors in p). */
double ls_law_param_natural_per_fitted(ls_law_param param, double natural);
/* 0 when value is inside the parameter's domain, else an LS_ERR_DATA error
 * saying which bound it breaks ("must be positive"). */
int ls_law_param_check(ls_law_param param, double value, ls_error *err) LS_MUST_CHECK;
/* 0 when every parameter the law's kind uses is inside its domain and, for
 * the MoE base, E_start < E_max: what a law file must hold to be read back.
 * Else an LS_ERR_DATA error naming the first parameter that is not, and
 * *which (unless NULL) gets it. */
int ls_law_check_params(const ls_law *l, ls_law_param *which, ls_error *err) LS_MUST_CHECK;

/* A law of the given kind with every parameter at its neutral value
 * (A = B = c = 1, alpha = beta = 0.3, kappa1 = kappa2 = 1). */
void ls_law_init(ls_law *l, ls_law_kind kind);

/* --- quantities ------------------------------------------------------ */

/* Clark et al. (2022): 1/Ehat = 1/(E - 1 + (1/E_start - 1/E_max)^-1) + 1/E_max,
 * so Ehat(1) = E_start exactly. */
double ls_law_ehat(double E, double e_start, double e_max);
double ls_law_n_unroll(const ls_law_point *x);
/* Training FLOPs F = 6 N_unroll D (forward and backward passes over the
 * unrolled depth), and the tokens a budget of F buys, D = F / (6 N_unroll).
 * Every conversion between FLOPs and tokens goes through these two. */
double ls_law_training_flops(const ls_law_point *x);
double ls_law_tokens_for_flops(const ls_law_point *x, double flops);

/* --- FLOP conventions (docs/flops.md) ----------------------------------
 * Logs count training compute differently, and the tokens D a FLOPs column
 * stands for depend on how it was counted.  Every convention charges a
 * token 6 x (forward multiply-adds per token) in training and 2 x in
 * inference; what differs is what a forward pass is taken to multiply:
 *   6nd            N_unroll                     Kaplan et al. 2020's C = 6ND
 *   6nd+head       + d V                        the LM head (logits), as
 *                                               Hoffmann et al. 2022 app. F
 *   6nd+attn       + n_layers n_ctx d           attention scores, Kaplan et
 *                                               al.'s 2 n_layer n_ctx d_attn
 *   6nd+attn+head  both                         Porian et al. 2024's count
 * with n_layers the layers a token runs through (prelude + R x loop + coda),
 * n_ctx the context length, d the width and V the vocabulary.  A width of 0
 * is read off N_act: every layer holds N_act / n_all active parameters, of
 * which attention_share are the 4 d^2 of attention, so
 * d = sqrt(attention_share N_act / (4 n_all)), n_all = prelude + loop + coda. */
typedef enum {
    LS_LAW_FLOPS_6ND,
    LS_LAW_FLOPS_6ND_HEAD,
    LS_LAW_FLOPS_6ND_ATTN,
    LS_LAW_FLOPS_6ND_ATTN_HEAD,
    LS_LAW_NFLOPS
} ls_law_flops_kind;

typedef struct ls_law_flops {
    ls_law_flops_kind kind;
    double context;         /* n_ctx (needed with attn) */
    double vocab;           /* V (needed with head) */
    double d_model;         /* width; 0: from N_act and the shares below */
    double attention_share; /* share of an active layer's parameters in attention */
    int prelude_layers, loop_layers, coda_layers;
} ls_law_flops;

/* "6nd", "6nd+head", "6nd+attn", "6nd+attn+head"; and back (-1: unknown). */
const char *ls_law_flops_name(ls_law_flops_kind kind);
int ls_law_flops_from_name(const char *name);
/* The tokens a budget F buys, as a formula: "F / (6 N_unroll)",
 * "F / (6 (N_unroll + n_layers n_ctx d + d V))", ... */
const char *ls_law_flops_formula(ls_law_flops_kind kind);
/* 6nd, with the default template's layers (2 + 12 + 2, attention 1/3). */
void ls_law_flops_default(ls_law_flops *c);
/* 0, or an LS_ERR_USAGE error saying what the convention lacks (context
 * with attn, vocab with head, a width or an attention share with either). */
int ls_law_flops_check(const ls_law_flops *c, ls_error *err) LS_MUST_CHECK;
/* The width d at x (d_model, or the one read off N_act). */
double ls_law_flops_width(const ls_law_flops *c, const ls_law_point *x);
/* Forward multiply-adds per token: N_unroll plus the convention's extras
 * (c NULL: 6nd, N_unroll). */
double ls_law_flops_per_token_params(const ls_law_flops *c, const ls_law_point *x);
/* Training FLOPs 6 x that x D, the tokens a budget buys, and the inference
 * FLOPs of a token, 2 x that.  c NULL: 6nd, the same as above. */
double ls_law_training_flops_as(const ls_law_flops *c, const ls_law_point *x);
double ls_law_tokens_for_flops_as(const ls_law_flops *c, const ls_law_point *x, double flops);
double ls_law_inference_flops_as(const ls_law_flops *c, const ls_law_point *x);
double ls_law_n_eff(const ls_law *l, const ls_law_point *x);

/* --- the loss of quantised weights ---------------------------------------
 * Kumar et al. 2024 ("Scaling Laws for Precision"): quantising the weights
 * of a model trained in high precision to P bits after training adds
 *     delta_PTQ(N, D, P) = C_T (D^gamma_D / N^gamma_N) exp(-P / gamma_post)
 * to its loss: more so the more tokens per parameter it was trained on.
 * N is the model's stored parameters (N_total: what is quantised).  No
 * penalty at or above trained_bits (the runs' own precision). */
/* The precision runs are trained and evaluated at unless a sweep says
 * otherwise: below it weights are quantised (fit --bits-column, solve's
 * warning of --bits without a penalty). */
#define LS_LAW_QUANT_FULL_BITS 16
typedef struct ls_law_quant {
    double c_t, gamma_d, gamma_n, gamma_post;
    double trained_bits;
    /* The bit widths it was fitted on (a fit's record; 0, 0: not known):
     * below or above them, the penalty is its form's extrapolation. */
    double bits_lo, bits_hi;
} ls_law_quant;
double ls_law_quant_penalty(const ls_law_quant *q, double n_total, double tokens, double bits);
/* Kumar et al.'s constants from n measured penalties delta[i] > 0 (the
 * loss of run i with its weights quantised to bits[i], less the loss of
 * the same run unquantised), by least squares on
 *     ln delta = ln C_T + gamma_D ln D - gamma_N ln N_total - P / gamma_post,
 * linear in (ln C_T, gamma_D, gamma_N, 1 / gamma_post).  *rmse is the RMS of
 * the fitted penalty less the measured one (loss units).  Errors
 * (LS_ERR_DATA): fewer than 5 penalties, a delta not positive, the runs not
 * varying in bits, tokens or N_total (the constants cannot be told apart),
 * or a fit whose penalty does not fall with the bits (1 / gamma_post <= 0). */
int ls_law_quant_fit(const double *n_total, const double *tokens, const double *bits, const double *delta, size_t n,
                     double trained_bits, ls_law_quant *out, double *rmse, ls_error *err) LS_MUST_CHECK;
/* 0, or LS_ERR_DATA naming the constant out of its domain (C_T, gamma_post
 * positive, exponents finite, trained_bits in [1, 64]). */
int ls_law_quant_check(const ls_law_quant *q, ls_error *err) LS_MUST_CHECK;

/* --- where a law was fitted --------------------------------------------
 * A fitted law is only vouched for inside the ranges of the runs it was
 * fitted on; a prediction outside them (more tokens, more experts, a larger
 * budget) is an extrapolation.  ls_law_ranges holds the range of active size
 * N_act, tokens D, loops R, experts E and training FLOPs F over the fitted
 * runs (a law file's fit.ranges); a quantity whose range is not known is
 * never reported outside it. */
typedef enum {
    LS_LAW_RANGE_N_ACT,
    LS_LAW_RANGE_TOKENS,
    LS_LAW_RANGE_R,
    LS_LAW_RANGE_E,
    LS_LAW_RANGE_FLOPS,
    LS_LAW_NRANGES
} ls_law_range;

typedef struct ls_law_ranges {
    int known[LS_LAW_NRANGES];
    double lo[LS_LAW_NRANGES], hi[LS_LAW_NRANGES];
    ls_law_flops flops; /* how F was counted (zeroed: 6nd) */
} ls_law_ranges;

/* The quantity's symbol as output writes it: "N_act", "D", "R", "E", "F". */
const char *ls_law_range_name(ls_law_range q);
/* The quantities of x outside the known ranges, as bits 1u << LAW_RANGE_*
 * (0: x is inside everything known; ranges NULL: 0).  F is
 * ls_law_training_flops_as(&ranges->flops, x).  A relative slack of 1e-9
 * keeps a value equal to a bound, after rounding, inside. */
unsigned ls_law_ranges_outside(const ls_law_ranges *ranges, const ls_law_point *x);
/* The value of quantity q at x (F from ls_law_training_flops). */
double ls_law_range_value(const ls_law_point *x, ls_law_range q);
/* rho_eff = N_eff / N_act, and its ceiling as R -> inf, as the mapping's
 * ls_law_ceiling says: 1 + kappa1 m^-theta N_loop / N_act for the bounded
 * family (m^-theta = 1 when not sparse), infinity for linear, power and
 * log, 1 for none. */
double ls_law_rho_eff(const ls_law *l, const ls_law_point *x);
double ls_law_rho_eff_ceiling(const ls_law *l, const ls_law_point *x);

double ls_law_loss(const ls_law *l, const ls_law_point *x);

/* The data-constrained law's effective sizes (Muennighoff et al. 2023,
 * "Scaling Data-Constrained Language Models"), at N = N_eff and the point's
 * D and U (U = 0: unlimited, N' = N and D' = D):
 *   U_D = min(D, U), R_D = D / U_D - 1,  D' = U_D + U_D R_D* (1 - exp(-R_D / R_D*))
 *   U_N = min(N, D_to_N(U)), R_N = N / U_N - 1,  N' = U_N + U_N R_N* (1 - exp(-R_N / R_N*))
 *   D_to_N(x) = (x G)^(beta/alpha) G,  G = (alpha A / (beta B))^(1/(alpha+beta))
 * (D_to_N is the compute-optimal size for x tokens, so U_N is the size worth
 * training on the unique data; with alpha or beta not positive it has no
 * meaning and U_N = N).  Any base may be asked; only data-constrained uses
 * them in its loss. */
void ls_law_data_constrained_effective(const ls_law *l, const ls_law_point *x, double *n_prime, double *d_prime);

/* The compute-optimal allocation of a training budget of `flops` to a plain
 * model (R = 1, E = 1: every N_unroll = N_eff = N_act), in closed form, for
 * the bases that have one: dense (and moe, which is dense at E = 1), with
 *   N_opt = G (F/6)^a, a = beta / (alpha + beta), G = (alpha A / (beta B))^(1/(alpha + beta))
 * (Hoffmann et al. 2022, "Training Compute-Optimal Large Language Models"),
 * and kaplan, with
 *   N_opt = (q N_c^q (F/6) / D_c)^a, q = alpha_N / alpha_D, a = 1 / (1 + q) = alpha_D / (alpha_N + alpha_D)
 * (the minimum of (N_c/N)^q + D_c N / (F/6), whose power alpha_D is L).
 * D_opt = F / (6 N_opt).  Sets *n_opt, *d_opt and, unless NULL, *exponent
 * = a (N_opt grows as F^a, D_opt as F^(1-a)).  Returns 0; LS_ERR_USAGE for
 * a budget that is not a positive number; LS_ERR_DATA when the law's
 * exponents make the loss fall without bound along the budget (alpha or
 * beta not positive) or the optimum is outside double precision. */
int ls_law_compute_optimal(const ls_law *l, double flops, double *n_opt, double *d_opt, double *exponent,
                           ls_error *err) LS_MUST_CHECK;
/* ln L, and (when grad is not NULL) d ln L / d u_j for every parameter j in
 * fitted coordinates; entries of parameters the kind does not use are 0. */
double ls_law_log_loss_grad(const ls_law *l, const ls_law_point *x, double grad[LS_LAW_NPARAMS]);

/* --- the same, split for loops over many points (fitting) --------------
 * ls_law_row holds what depends on the point only, ls_law_prepared what depends on
 * the parameters only, so the inner loop does no repeated logarithms.  A
 * ls_law_prepared also remembers the values that depend on E and on m for the
 * last row it saw, since a sweep's runs share a handful of each; it is
 * therefore written to by ls_law_row_log_loss_grad and belongs to one thread. */
typedef struct ls_law_row {
    ls_law_point x;
    double ln_n_act, ln_d, ln_m; /* ln m = ln(N_act / N_total) */
} ls_law_row;

typedef struct ls_law_prepared {
    ls_law l;
    double ln_a, ln_b, ln_c;
    double ln_n_c, ln_d_c; /* kaplan */
    /* for the last E seen: Ehat, ln Ehat, d Ehat / d E_max, d Ehat / d E_start */
    double last_e, ehat, ln_ehat, d_ehat_d_emax, d_ehat_d_estart;
    /* for the last ln m seen: the sparsity scale m^-theta */
    double last_ln_m, sparsity_scale;
} ls_law_prepared;

void ls_law_row_init(ls_law_row *row, const ls_law_point *x);
void ls_law_prepare(ls_law_prepared *prep, const ls_law *l);
double ls_law_row_log_loss_grad(ls_law_prepared *prep, const ls_law_row *row, double grad[LS_LAW_NPARAMS]);

/* ln L, its gradient (as ls_law_row_log_loss_grad) and, when hess is not
 * NULL, its Hessian with respect to the fitted coordinates (LS_LAW_NPARAMS x
 * LS_LAW_NPARAMS, row-major, symmetric; rows and columns of parameters the kind
 * does not use are 0), analytic for every base and mapping (law_hessian.c).
 * prep is only read. */
double ls_law_row_log_loss_hessian(const ls_law_prepared *prep, const ls_law_row *row, double grad[LS_LAW_NPARAMS],
                                   double hess[LS_LAW_NPARAMS * LS_LAW_NPARAMS]);
double ls_law_log_loss_hessian(const ls_law *l, const ls_law_point *x, double grad[LS_LAW_NPARAMS],
                               double hess[LS_LAW_NPARAMS * LS_LAW_NPARAMS]);
LS_API_END

#endif
