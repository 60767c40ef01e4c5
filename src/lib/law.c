#include "loopscale/law.h"

#include "law_internal.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "numtext_internal.h"

/* ---- the bases and mappings: one descriptor each ---------------------- */

#define BIT(p) (1u << (p))

typedef struct base_info {
    const char *name;
    const char *formula;
    unsigned params; /* the parameters of the base, as bits 1 << ls_law_param */
} base_info;

static const base_info BASES[LS_LAW_NBASES] = {
    [LS_LAW_BASE_DENSE] = {"dense", "L = A N_eff^-alpha + B D^-beta + c",
                        BIT(LS_LAW_P_A) | BIT(LS_LAW_P_ALPHA) | BIT(LS_LAW_P_B) | BIT(LS_LAW_P_BETA) | BIT(LS_LAW_P_C)},
    [LS_LAW_BASE_MOE] = {"moe", "L = A Ehat^delta N_eff^-(alpha + gamma ln Ehat) + B Ehat^omega D^-(beta + zeta ln Ehat) + c",
                      BIT(LS_LAW_P_A) | BIT(LS_LAW_P_ALPHA) | BIT(LS_LAW_P_B) | BIT(LS_LAW_P_BETA) | BIT(LS_LAW_P_C) |
                          BIT(LS_LAW_P_DELTA) | BIT(LS_LAW_P_GAMMA) | BIT(LS_LAW_P_OMEGA) | BIT(LS_LAW_P_ZETA) |
                          BIT(LS_LAW_P_E_START) | BIT(LS_LAW_P_E_MAX)},
    /* Kaplan et al. 2020, "Scaling Laws for Neural Language Models", eq. (1.5):
     * no irreducible term, and the data term enters through the power
     * alpha_D of a sum. */
    [LS_LAW_BASE_KAPLAN] = {"kaplan", "L = ((N_c / N_eff)^(alpha_N / alpha_D) + D_c / D)^alpha_D",
                         BIT(LS_LAW_P_N_C) | BIT(LS_LAW_P_ALPHA_N) | BIT(LS_LAW_P_D_C) | BIT(LS_LAW_P_ALPHA_D)},
    /* Muennighoff et al. 2023, "Scaling Data-Constrained Language Models":
     * Chinchilla's form on the effective parameters N' and tokens D' that
     * repeated data is worth (ls_law_data_constrained_effective). */
    [LS_LAW_BASE_DATA_CONSTRAINED] = {"data-constrained", "L = A N'^-alpha + B D'^-beta + c (N', D': repeated data, U)",
                                   BIT(LS_LAW_P_A) | BIT(LS_LAW_P_ALPHA) | BIT(LS_LAW_P_B) | BIT(LS_LAW_P_BETA) |
                                       BIT(LS_LAW_P_C) | BIT(LS_LAW_P_R_D_STAR) | BIT(LS_LAW_P_R_N_STAR)},
};
#define NBASES LS_LAW_NBASES

static void gain_linear(const ls_law *l, const ls_law_point *x, double y, double ln_m, double scale, law_gain *g,
                        int want_derivatives);
static void gain_power(const ls_law *l, const ls_law_point *x, double y, double ln_m, double scale, law_gain *g,
                       int want_derivatives);
static void gain_bounded(const ls_law *l, const ls_law_point *x, double y, double ln_m, double scale, law_gain *g,
                         int want_derivatives);
static void gain_hyperbolic(const ls_law *l, const ls_law_point *x, double y, double ln_m, double scale, law_gain *g,
                            int want_derivatives);
static void gain_log(const ls_law *l, const ls_law_point *x, double y, double ln_m, double scale, law_gain *g,
                     int want_derivatives);

/* Every loop mapping, in ls_law_mapping order.  Adding one is a row here, its
 * gain function below and its tests (docs/design.md has the checklist). */
static const law_mapping_info MAPPINGS[LS_LAW_NMAPPINGS] = {
    [LS_LAW_MAPPING_NONE] = {"none", "N_eff = N_act", 0, 0, LS_LAW_CEILING_ONE, NULL},
    [LS_LAW_MAPPING_LINEAR] = {"linear", "N_eff = N_act + (R-1) N_loop", 0, 0, LS_LAW_CEILING_UNBOUNDED, gain_linear},
    [LS_LAW_MAPPING_POWER] = {"power", "N_eff = N_act + (R^phi - 1) N_loop", BIT(LS_LAW_P_PHI), 0, LS_LAW_CEILING_UNBOUNDED,
                           gain_power},
    [LS_LAW_MAPPING_BOUNDED] = {"bounded", "N_eff = N_act + kappa1 N_loop (1 - exp(-(R-1)/kappa2))",
                             BIT(LS_LAW_P_KAPPA1) | BIT(LS_LAW_P_KAPPA2), 0, LS_LAW_CEILING_KAPPA1, gain_bounded},
    [LS_LAW_MAPPING_BOUNDED_SPARSE] = {"bounded-sparse",
                                    "N_eff = N_act + kappa1 m^-theta N_loop (1 - exp(-(R-1)/(kappa2 m^-theta)))",
                                    BIT(LS_LAW_P_KAPPA1) | BIT(LS_LAW_P_KAPPA2) | BIT(LS_LAW_P_THETA), 1,
                                    LS_LAW_CEILING_KAPPA1, gain_bounded},
    [LS_LAW_MAPPING_HYPERBOLIC] = {"hyperbolic",
                                "N_eff = N_act + kappa1 m^-theta N_loop (R-1) / (R-1 + kappa2 m^-theta)",
                                BIT(LS_LAW_P_KAPPA1) | BIT(LS_LAW_P_KAPPA2) | BIT(LS_LAW_P_THETA), 1, LS_LAW_CEILING_KAPPA1,
                                gain_hyperbolic},
    [LS_LAW_MAPPING_LOG] = {"log", "N_eff = N_act + kappa1 N_loop ln R", BIT(LS_LAW_P_KAPPA1), 0, LS_LAW_CEILING_UNBOUNDED,
                         gain_log},
};

static const char *const PARAM_NAMES[LS_LAW_NPARAMS] = {"A",     "alpha",   "B",     "beta", "c",
                                                      "delta", "gamma",   "omega", "zeta", "E_start",
                                                      "E_max", "N_c",     "alpha_N", "D_c",  "alpha_D",
                                                      "R_D_star", "R_N_star",
                                                      "phi",   "kappa1",  "kappa2",  "theta"};

/* Each parameter's domain: what a law file, --fix or a binding may give it,
 * the same for every kind.  Scales (A, B, c, E_start, kappa1, kappa2) are
 * positive and normal: a subnormal scale has lost its precision, and its
 * logarithm, which the fitter works in, is off.  Exponents are written
 * positive (Chinchilla's convention), so alpha or beta at or below 0 is a
 * law whose loss does not fall with size, most often one typed in with the
 * Loop Scaling Laws paper's signs; 5 is far beyond any published fit
 * (Chinchilla's alpha is 0.34, Kaplan et al.'s 0.076) and makes N^-alpha
 * underflow at the sizes loopscale works with.  The MoE exponents may have
 * either sign and the same bound; phi and theta, which raise R and m to a
 * power, too. */
typedef struct param_domain {
    double lo, hi;
    int lo_open; /* lo itself is outside */
} param_domain;
#define DOMAIN_SCALE {DBL_MIN, DBL_MAX, 0}
#define DOMAIN_EXPONENT_BOUND 5.0
static const param_domain PARAM_DOMAINS[LS_LAW_NPARAMS] = {
    [LS_LAW_P_A] = DOMAIN_SCALE,
    [LS_LAW_P_ALPHA] = {0, DOMAIN_EXPONENT_BOUND, 1},
    [LS_LAW_P_B] = DOMAIN_SCALE,
    [LS_LAW_P_BETA] = {0, DOMAIN_EXPONENT_BOUND, 1},
    [LS_LAW_P_C] = {0, DBL_MAX, 0}, /* c = 0: a law without an irreducible term (--fix c=0) */
    [LS_LAW_P_DELTA] = {-DOMAIN_EXPONENT_BOUND, DOMAIN_EXPONENT_BOUND, 0},
    [LS_LAW_P_GAMMA] = {-DOMAIN_EXPONENT_BOUND, DOMAIN_EXPONENT_BOUND, 0},
    [LS_LAW_P_OMEGA] = {-DOMAIN_EXPONENT_BOUND, DOMAIN_EXPONENT_BOUND, 0},
    [LS_LAW_P_ZETA] = {-DOMAIN_EXPONENT_BOUND, DOMAIN_EXPONENT_BOUND, 0},
    [LS_LAW_P_E_START] = DOMAIN_SCALE,
    [LS_LAW_P_E_MAX] = {1, DBL_MAX, 1},
    [LS_LAW_P_N_C] = DOMAIN_SCALE,
    [LS_LAW_P_ALPHA_N] = {0, DOMAIN_EXPONENT_BOUND, 1},
    [LS_LAW_P_D_C] = DOMAIN_SCALE,
    [LS_LAW_P_ALPHA_D] = {0, DOMAIN_EXPONENT_BOUND, 1},
    [LS_LAW_P_R_D_STAR] = DOMAIN_SCALE,
    [LS_LAW_P_R_N_STAR] = DOMAIN_SCALE,
    [LS_LAW_P_PHI] = {0, DOMAIN_EXPONENT_BOUND, 1},
    [LS_LAW_P_KAPPA1] = DOMAIN_SCALE,
    [LS_LAW_P_KAPPA2] = DOMAIN_SCALE,
    [LS_LAW_P_THETA] = {0, DOMAIN_EXPONENT_BOUND, 0},
};

const law_mapping_info *ls_law_mapping_info(ls_law_mapping mapping) { return &MAPPINGS[mapping]; }

const char *ls_law_base_name(ls_law_base base) { return BASES[base].name; }
const char *ls_law_base_formula(ls_law_base base) { return BASES[base].formula; }
const char *ls_law_mapping_name(ls_law_mapping mapping) { return MAPPINGS[mapping].name; }
const char *ls_law_mapping_formula(ls_law_mapping mapping) { return MAPPINGS[mapping].formula; }
int ls_law_mapping_is_sparse(ls_law_mapping mapping) { return MAPPINGS[mapping].sparse; }
ls_law_ceiling ls_law_mapping_ceiling(ls_law_mapping mapping) { return MAPPINGS[mapping].ceiling; }
const char *ls_law_param_name(ls_law_param param) { return PARAM_NAMES[param]; }

int ls_law_base_from_name(const char *name)
{
    for (size_t i = 0; i < NBASES; i++)
        if (strcmp(name, BASES[i].name) == 0)
            return (int)i;
    return -1;
}

int ls_law_mapping_from_name(const char *name)
{
    for (int i = 0; i < LS_LAW_NMAPPINGS; i++)
        if (strcmp(name, MAPPINGS[i].name) == 0)
            return i;
    return -1;
}

char *ls_law_kind_format(ls_law_kind kind, char *buf, size_t size)
{
    if (kind.mapping == LS_LAW_MAPPING_NONE)
        snprintf(buf, size, "%s", ls_law_base_name(kind.base));
    else
        snprintf(buf, size, "%s:%s", ls_law_base_name(kind.base), ls_law_mapping_name(kind.mapping));
    return buf;
}

/* "a, b or c" from n names into buf. */
static void list_names(char *buf, size_t size, size_t n, const char *(*name_of)(int))
{
    size_t len = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < n && len < size; i++) {
        const char *sep = i == 0 ? "" : i + 1 == n ? " or " : ", ";
        int w = snprintf(buf + len, size - len, "%s%s", sep, name_of((int)i));
        len += w > 0 ? (size_t)w : 0;
    }
}

static const char *base_name_of(int i) { return BASES[i].name; }
static const char *mapping_name_of(int i) { return MAPPINGS[i].name; }

int ls_law_kind_parse(const char *text, ls_law_kind *out, ls_error *err)
{
    const char *colon = strchr(text, ':');
    size_t base_len = colon ? (size_t)(colon - text) : strlen(text);
    int base = -1;
    for (size_t i = 0; i < NBASES; i++)
        if (strlen(BASES[i].name) == base_len && strncmp(text, BASES[i].name, base_len) == 0)
            base = (int)i;
    int mapping = colon ? ls_law_mapping_from_name(colon + 1) : LS_LAW_MAPPING_NONE;
    if (base < 0 || mapping < 0) {
        char bases[64], mappings[256];
        list_names(bases, sizeof bases, NBASES, base_name_of);
        list_names(mappings, sizeof mappings, LS_LAW_NMAPPINGS, mapping_name_of);
        return ls_error_set(err, LS_ERR_USAGE, "unknown law '%s' (BASE[:MAPPING] with BASE %s and MAPPING %s)", text,
                            bases, mappings);
    }
    out->base = (ls_law_base)base;
    out->mapping = (ls_law_mapping)mapping;
    return 0;
}

int ls_law_param_from_name(const char *name)
{
    for (int i = 0; i < LS_LAW_NPARAMS; i++)
        if (strcmp(name, PARAM_NAMES[i]) == 0)
            return i;
    return -1;
}

int ls_law_uses_param(ls_law_kind kind, ls_law_param param)
{
    return ((BASES[kind.base].params | MAPPINGS[kind.mapping].params) >> param) & 1u;
}

size_t ls_law_params_of(ls_law_kind kind, ls_law_param out[LS_LAW_NPARAMS])
{
    size_t n = 0;
    for (int j = 0; j < LS_LAW_NPARAMS; j++)
        if (ls_law_uses_param(kind, (ls_law_param)j))
            out[n++] = (ls_law_param)j;
    return n;
}

double ls_law_param_neutral(ls_law_param param)
{
    static const double neutral[LS_LAW_NPARAMS] = {
        [LS_LAW_P_A] = 1, [LS_LAW_P_ALPHA] = 0, [LS_LAW_P_B] = 1, [LS_LAW_P_BETA] = 0, [LS_LAW_P_C] = 1,
        [LS_LAW_P_DELTA] = 0, [LS_LAW_P_GAMMA] = 0, [LS_LAW_P_OMEGA] = 0, [LS_LAW_P_ZETA] = 0,
        [LS_LAW_P_E_START] = 1, [LS_LAW_P_E_MAX] = 1e6,
        [LS_LAW_P_N_C] = 1, [LS_LAW_P_ALPHA_N] = 1, [LS_LAW_P_D_C] = 1, [LS_LAW_P_ALPHA_D] = 1,
        [LS_LAW_P_R_D_STAR] = 1e6, [LS_LAW_P_R_N_STAR] = 1e6, [LS_LAW_P_PHI] = 1,
        [LS_LAW_P_KAPPA1] = 1, [LS_LAW_P_KAPPA2] = 1, [LS_LAW_P_THETA] = 0};
    return neutral[param];
}

ls_law_transform ls_law_param_transform(ls_law_param param)
{
    switch (param) {
    case LS_LAW_P_ALPHA: case LS_LAW_P_BETA: case LS_LAW_P_DELTA: case LS_LAW_P_GAMMA: case LS_LAW_P_OMEGA: case LS_LAW_P_ZETA:
        return LS_LAW_TRANSFORM_IDENTITY;
    case LS_LAW_P_E_MAX:
        return LS_LAW_TRANSFORM_LOG_MINUS_1;
    default:
        return LS_LAW_TRANSFORM_LOG;
    }
}

double ls_law_param_to_fitted(ls_law_param param, double natural)
{
    switch (ls_law_param_transform(param)) {
    case LS_LAW_TRANSFORM_LOG: return log(natural);
    case LS_LAW_TRANSFORM_LOG_MINUS_1: return log(natural - 1.0);
    default: return natural;
    }
}

double ls_law_param_from_fitted(ls_law_param param, double fitted)
{
    switch (ls_law_param_transform(param)) {
    case LS_LAW_TRANSFORM_LOG: return exp(fitted);
    case LS_LAW_TRANSFORM_LOG_MINUS_1: return 1.0 + exp(fitted);
    default: return fitted;
    }
}

double ls_law_param_natural_per_fitted(ls_law_param param, double natural)
{
    switch (ls_law_param_transform(param)) {
    case LS_LAW_TRANSFORM_LOG: return natural;
    case LS_LAW_TRANSFORM_LOG_MINUS_1: return natural - 1.0;
    default: return 1.0;
    }
}

void ls_law_param_domain(ls_law_param param, double *lo, double *hi)
{
    *lo = PARAM_DOMAINS[param].lo;
    *hi = PARAM_DOMAINS[param].hi;
}

int ls_law_param_check(ls_law_param param, double value, ls_error *err)
{
    const char *name = ls_law_param_name(param);
    const param_domain *d = &PARAM_DOMAINS[param];
    if (!isfinite(value))
        return ls_error_set(err, LS_ERR_DATA, "parameter %s must be a finite number", name);
    char text[NUMTEXT_DOUBLE_MAX];
    ls_numtext_format_double(text, value);
    if (d->lo == DBL_MIN && d->hi == DBL_MAX) {
        if (!(value > 0.0))
            return ls_error_set(err, LS_ERR_DATA, "parameter %s = %s must be positive", name, text);
        if (value < DBL_MIN)
            return ls_error_set(err, LS_ERR_DATA,
                                "parameter %s = %.3g is below the smallest normal double (2.2250738585072014e-308); "
                                "a subnormal value has lost its precision", name, value);
        return 0;
    }
    if (value > 0.0 && value < DBL_MIN && d->hi == DBL_MAX) /* c, which may be 0 but not subnormal */
        return ls_error_set(err, LS_ERR_DATA,
                            "parameter %s = %.3g is below the smallest normal double (2.2250738585072014e-308); "
                            "a subnormal value has lost its precision", name, value);
    if (value < d->lo || (d->lo_open && value == d->lo) || value > d->hi) {
        char lo[NUMTEXT_DOUBLE_MAX], hi[NUMTEXT_DOUBLE_MAX];
        ls_numtext_format_double(lo, d->lo);
        if (d->hi == DBL_MAX)
            snprintf(hi, sizeof hi, "inf");
        else
            ls_numtext_format_double(hi, d->hi);
        return ls_error_set(err, LS_ERR_DATA, "parameter %s = %s is outside its domain %s%s, %s%s", name, text,
                            d->lo_open ? "(" : "[", lo, hi, d->hi == DBL_MAX ? ")" : "]");
    }
    return 0;
}

int ls_law_check_params(const ls_law *l, ls_law_param *which, ls_error *err)
{
    ls_law_param used[LS_LAW_NPARAMS];
    size_t n = ls_law_params_of(l->kind, used);
    for (size_t i = 0; i < n; i++)
        if (ls_law_param_check(used[i], l->p[used[i]], err) != 0) {
            if (which)
                *which = used[i];
            return LS_ERR_DATA;
        }
    if (l->kind.base == LS_LAW_BASE_MOE && !(l->p[LS_LAW_P_E_START] < l->p[LS_LAW_P_E_MAX])) {
        if (which)
            *which = LS_LAW_P_E_MAX;
        return ls_error_set(err, LS_ERR_DATA, "E_start = %g must be less than E_max = %g", l->p[LS_LAW_P_E_START],
                            l->p[LS_LAW_P_E_MAX]);
    }
    return 0;
}

void ls_law_init(ls_law *l, ls_law_kind kind)
{
    l->kind = kind;
    for (int j = 0; j < LS_LAW_NPARAMS; j++)
        l->p[j] = ls_law_param_neutral((ls_law_param)j);
}

/* ---------------------------------------------------------------------- */

double ls_law_ehat(double E, double e_start, double e_max)
{
    if (E == 1.0)
        return e_start; /* exact, so that moe reduces to dense at E = 1 */
    double s = 1.0 / e_start - 1.0 / e_max;
    double q = E - 1.0 + 1.0 / s;
    return 1.0 / (1.0 / q + 1.0 / e_max);
}

/* d Ehat / d E_max and d Ehat / d E_start, from Ehat = 1/r with
 * r = 1/q + 1/E_max, q = E - 1 + 1/s, s = 1/E_start - 1/E_max. */
void ls_law_ehat_derivatives(double E, double e_start, double e_max, double ehat, double *d_emax, double *d_estart)
{
    if (E == 1.0) {
        *d_emax = 0.0;
        *d_estart = 1.0;
        return;
    }
    double s = 1.0 / e_start - 1.0 / e_max;
    double q = E - 1.0 + 1.0 / s;
    double qs = q * s;
    double e2 = ehat * ehat;
    *d_emax = e2 / (e_max * e_max) * (1.0 - 1.0 / (qs * qs));
    *d_estart = e2 / (qs * e_start * qs * e_start);
}

double ls_law_n_unroll(const ls_law_point *x)
{
    if (x->R == 1.0)
        return x->n_act;
    return x->n_act + (x->R - 1.0) * x->n_loop;
}

double ls_law_training_flops(const ls_law_point *x) { return 6.0 * ls_law_n_unroll(x) * x->D; }

double ls_law_tokens_for_flops(const ls_law_point *x, double flops) { return flops / (6.0 * ls_law_n_unroll(x)); }

const char *ls_law_flops_name(ls_law_flops_kind kind)
{
    static const char *const names[LS_LAW_NFLOPS] = {"6nd", "6nd+head", "6nd+attn", "6nd+attn+head"};
    return kind >= 0 && kind < LS_LAW_NFLOPS ? names[kind] : "?";
}

const char *ls_law_flops_formula(ls_law_flops_kind kind)
{
    static const char *const formulas[LS_LAW_NFLOPS] = {
        "F / (6 N_unroll)", "F / (6 (N_unroll + d V))", "F / (6 (N_unroll + n_layers n_ctx d))",
        "F / (6 (N_unroll + n_layers n_ctx d + d V))"};
    return kind >= 0 && kind < LS_LAW_NFLOPS ? formulas[kind] : "?";
}

int ls_law_flops_from_name(const char *name)
{
    for (int k = 0; k < LS_LAW_NFLOPS; k++)
        if (strcmp(name, ls_law_flops_name((ls_law_flops_kind)k)) == 0)
            return k;
    return -1;
}

void ls_law_flops_default(ls_law_flops *c)
{
    *c = (ls_law_flops){LS_LAW_FLOPS_6ND, 0.0, 0.0, 0.0, 1.0 / 3.0, 2, 12, 2};
}

static int flops_has_attn(const ls_law_flops *c)
{
    return c && (c->kind == LS_LAW_FLOPS_6ND_ATTN || c->kind == LS_LAW_FLOPS_6ND_ATTN_HEAD);
}

static int flops_has_head(const ls_law_flops *c)
{
    return c && (c->kind == LS_LAW_FLOPS_6ND_HEAD || c->kind == LS_LAW_FLOPS_6ND_ATTN_HEAD);
}

int ls_law_flops_check(const ls_law_flops *c, ls_error *err)
{
    if (!c || c->kind == LS_LAW_FLOPS_6ND)
        return 0;
    const char *name = ls_law_flops_name(c->kind);
    if (c->kind < 0 || c->kind >= LS_LAW_NFLOPS)
        return ls_error_set(err, LS_ERR_USAGE, "unknown FLOP convention %d", (int)c->kind);
    if (flops_has_attn(c) && !(c->context > 0 && isfinite(c->context)))
        return ls_error_set(err, LS_ERR_USAGE,
                            "FLOP convention %s counts attention over the context: the template needs \"context\"",
                            name);
    if (flops_has_head(c) && !(c->vocab > 0 && isfinite(c->vocab)))
        return ls_error_set(err, LS_ERR_USAGE,
                            "FLOP convention %s counts the LM head: the template needs \"vocab\"", name);
    if (!(c->d_model > 0) && !(c->attention_share > 0))
        return ls_error_set(err, LS_ERR_USAGE,
                            "FLOP convention %s needs the width: the template needs \"d_model\" or an "
                            "attention_share above 0", name);
    if (c->prelude_layers < 0 || c->loop_layers < 1 || c->coda_layers < 0)
        return ls_error_set(err, LS_ERR_USAGE, "FLOP convention %s: the layer counts must be non-negative", name);
    if (c->prelude_layers > 1000000 || c->loop_layers > 1000000 || c->coda_layers > 1000000)
        return ls_error_set(err, LS_ERR_USAGE, "FLOP convention %s: more than 1000000 layers in a stage", name);
    return 0;
}

double ls_law_flops_width(const ls_law_flops *c, const ls_law_point *x)
{
    if (c->d_model > 0)
        return c->d_model;
    double layers = (double)c->prelude_layers + c->loop_layers + c->coda_layers;
    return sqrt(c->attention_share * x->n_act / (4.0 * layers));
}

double ls_law_flops_per_token_params(const ls_law_flops *c, const ls_law_point *x)
{
    double n = ls_law_n_unroll(x);
    if (!c || c->kind == LS_LAW_FLOPS_6ND)
        return n;
    double d = ls_law_flops_width(c, x);
    if (flops_has_attn(c)) {
        /* Kaplan et al. 2020, table 1: 2 n_layer n_ctx d_attn forward FLOPs
         * per token for the attention scores (QK^T and the weighted sum of
         * V over a causal context, n_ctx / 2 positions on average), with
         * d_attn = d; n_layer counts the loops unrolled. */
        double layers = (double)c->prelude_layers + x->R * c->loop_layers + c->coda_layers;
        n += layers * c->context * d;
    }
    if (flops_has_head(c))
        n += d * c->vocab; /* the logits: a d x V matrix for every token */
    return n;
}

double ls_law_training_flops_as(const ls_law_flops *c, const ls_law_point *x)
{
    if (!c || c->kind == LS_LAW_FLOPS_6ND)
        return ls_law_training_flops(x);
    return 6.0 * ls_law_flops_per_token_params(c, x) * x->D;
}

double ls_law_tokens_for_flops_as(const ls_law_flops *c, const ls_law_point *x, double flops)
{
    if (!c || c->kind == LS_LAW_FLOPS_6ND)
        return ls_law_tokens_for_flops(x, flops);
    return flops / (6.0 * ls_law_flops_per_token_params(c, x));
}

double ls_law_inference_flops_as(const ls_law_flops *c, const ls_law_point *x)
{
    return 2.0 * ls_law_flops_per_token_params(c, x);
}

const char *ls_law_range_name(ls_law_range q)
{
    static const char *const names[LS_LAW_NRANGES] = {"N_act", "D", "R", "E", "F"};
    return q >= 0 && q < LS_LAW_NRANGES ? names[q] : "?";
}

double ls_law_range_value(const ls_law_point *x, ls_law_range q)
{
    switch (q) {
    case LS_LAW_RANGE_N_ACT: return x->n_act;
    case LS_LAW_RANGE_TOKENS: return x->D;
    case LS_LAW_RANGE_R: return x->R;
    case LS_LAW_RANGE_E: return x->E;
    case LS_LAW_RANGE_FLOPS: return ls_law_training_flops(x);
    default: return NAN;
    }
}

#define RANGE_SLACK 1e-9

unsigned ls_law_ranges_outside(const ls_law_ranges *ranges, const ls_law_point *x)
{
    unsigned out = 0;
    if (!ranges)
        return 0;
    for (int q = 0; q < LS_LAW_NRANGES; q++) {
        if (!ranges->known[q])
            continue;
        double v = q == LS_LAW_RANGE_FLOPS ? ls_law_training_flops_as(&ranges->flops, x)
                                        : ls_law_range_value(x, (ls_law_range)q);
        /* A NaN is outside every range. */
        if (!(v >= ranges->lo[q] * (1 - RANGE_SLACK) && v <= ranges->hi[q] * (1 + RANGE_SLACK)))
            out |= 1u << q;
    }
    return out;
}

/* Second derivative between mapping parameters j and k, both entries. */
static inline void set_d2(law_gain *g, ls_law_param j, ls_law_param k, double v)
{
    g->d2[j - LAW_P_FIRST_MAPPING][k - LAW_P_FIRST_MAPPING] = v;
    g->d2[k - LAW_P_FIRST_MAPPING][j - LAW_P_FIRST_MAPPING] = v;
}

/* ---- the loop gain N_eff - N_act of each mapping ----------------------
 * Each gain function sees y = R - 1 > 0 (R = 1 never reaches it: N_eff =
 * N_act exactly under every mapping), ln m and scale = m^-theta (1 for the
 * mappings that are not sparsity-conditional), and sets g->value and, when
 * asked, g->d[j] = d value / d p_j for each of its parameters j. */

/* Parcae: (R-1) N_loop. */
static void gain_linear(const ls_law *l, const ls_law_point *x, double y, double ln_m, double scale, law_gain *g,
                        int want_derivatives)
{
    (void)l, (void)ln_m, (void)scale, (void)want_derivatives;
    g->value = y * x->n_loop;
}

/* Iso-Depth: (R^phi - 1) N_loop. */
static void gain_power(const ls_law *l, const ls_law_point *x, double y, double ln_m, double scale, law_gain *g,
                       int want_derivatives)
{
    (void)y, (void)ln_m, (void)scale;
    double nl = x->n_loop, phi = l->p[LS_LAW_P_PHI], ln_r = log(x->R);
    g->value = expm1(phi * ln_r) * nl;
    if (want_derivatives)
        g->d[LS_LAW_P_PHI] = exp(phi * ln_r) * ln_r * nl;
    if (want_derivatives > 1)
        set_d2(g, LS_LAW_P_PHI, LS_LAW_P_PHI, g->d[LS_LAW_P_PHI] * ln_r);
}

/* bounded and bounded-sparse: kappa1 s N_loop (1 - exp(-(R-1)/(kappa2 s)))
 * with s = m^-theta; with theta = 0 (or m = 1) s is exactly 1 and this is
 * the dense bounded mapping.  The gain and its derivatives need s times
 * factors that vanish as s grows: s sat, s z e, s (sat - z e) and s (e z^2
 * + z e - sat), with z = y / (kappa2 s) and sat = 1 - e^-z.  Where z <
 * LAW_BOUNDED_SERIES_Z (s huge or infinite, or kappa2 huge) they are y /
 * kappa2 times their series in z, since s z = y / kappa2; elsewhere s is
 * finite and each product is at most s.  So an overflowing m^-theta, kappa2
 * s or z gives the linear gain kappa1 N_loop y / kappa2 and its
 * derivatives, not 0, inf or NaN. */
static void gain_bounded(const ls_law *l, const ls_law_point *x, double y, double ln_m, double scale, law_gain *g,
                         int want_derivatives)
{
    double nl = x->n_loop, k1 = l->p[LS_LAW_P_KAPPA1], k2 = l->p[LS_LAW_P_KAPPA2];
    double z = y / (k2 * scale);
    /* e = exp(-z) and sat = 1 - e, through expm1 where 1 - e would cancel
     * (z small); exp is the faster call elsewhere. */
    double e, sat;
    if (z < 0.5) {
        double em = expm1(-z);
        e = 1.0 + em;
        sat = -em;
    } else {
        e = exp(-z);
        sat = 1.0 - e;
    }
    double s_sat, s_ze, s_d1, s_d2; /* s sat, s z e, s (sat - z e), s (e z^2 + z e - sat) */
    if (z < LAW_BOUNDED_SERIES_Z) {
        double yk = y / k2;
        s_sat = yk * (1.0 - z * (0.5 - z / 6.0));
        s_ze = yk * e;
        s_d1 = yk * z * (0.5 - z / 3.0);
        s_d2 = yk * z * (0.5 - 2.0 * z / 3.0);
    } else {
        double ze = e == 0.0 ? 0.0 : z * e; /* z = inf: e = 0 */
        double zze = ze == 0.0 ? 0.0 : ze * z;
        s_sat = scale * sat;
        s_ze = scale * ze;
        s_d1 = scale * (sat - ze);
        s_d2 = scale * (zze + ze - sat);
    }
    /* The value as it always was, k1 s N_loop sat, where z is not small and
     * that is finite (the shipped sweeps were simulated with it, bit for
     * bit); else kappa1 times s sat first: with kappa1 and kappa2 both huge
     * their ratio is what counts. */
    g->value = z >= LAW_BOUNDED_SERIES_Z ? k1 * scale * nl * sat : NAN;
    if (!isfinite(g->value))
        g->value = nl * (k1 * s_sat);
    if (want_derivatives) {
        g->d[LS_LAW_P_KAPPA1] = nl * s_sat;
        g->d[LS_LAW_P_KAPPA2] = -nl * (k1 * s_ze) / k2;
        if (MAPPINGS[l->kind.mapping].sparse)
            g->d[LS_LAW_P_THETA] = -ln_m * nl * (k1 * s_d1);
    }
    if (want_derivatives > 1) {
        /* dz/dkappa2 = -z/kappa2; ds/dtheta = -s ln m, dz/dtheta = z ln m. */
        double s_zze = s_ze == 0.0 ? 0.0 : s_ze * z; /* s z^2 e */
        set_d2(g, LS_LAW_P_KAPPA1, LS_LAW_P_KAPPA2, -nl * s_ze / k2);
        set_d2(g, LS_LAW_P_KAPPA2, LS_LAW_P_KAPPA2, -nl * ((k1 * (s_zze - 2.0 * s_ze)) / k2) / k2);
        if (MAPPINGS[l->kind.mapping].sparse) {
            set_d2(g, LS_LAW_P_KAPPA1, LS_LAW_P_THETA, -ln_m * nl * s_d1);
            set_d2(g, LS_LAW_P_KAPPA2, LS_LAW_P_THETA, nl * ln_m * (k1 * s_zze) / k2);
            set_d2(g, LS_LAW_P_THETA, LS_LAW_P_THETA, -ln_m * ln_m * nl * (k1 * s_d2));
        }
    }
}

/* kappa1 s N_loop (R-1) / (R-1 + kappa2 s), s = m^-theta, in y / s (which
 * vanishes as s grows; s >= 1): with den = kappa2 + y / s, s frac = y / den,
 * s / (y + h) = 1 / den and y / (y + h) = (y / s) / den, none of which
 * overflows when s does. */
static void gain_hyperbolic(const ls_law *l, const ls_law_point *x, double y, double ln_m, double scale, law_gain *g,
                            int want_derivatives)
{
    double nl = x->n_loop, k1 = l->p[LS_LAW_P_KAPPA1], k2 = l->p[LS_LAW_P_KAPPA2];
    double ys = y / scale, den = k2 + ys;
    double s_frac = y / den, s_q = 1.0 / den, y_q = ys / den;
    double k_frac = k1 * s_frac; /* first, as for bounded */
    /* The value as it always was where kappa2 s is finite (as for bounded). */
    double h = k2 * scale;
    g->value = isfinite(h) ? k1 * scale * nl * (y / (y + h)) : NAN;
    if (!isfinite(g->value))
        g->value = nl * k_frac;
    if (want_derivatives) {
        g->d[LS_LAW_P_KAPPA1] = nl * s_frac;
        g->d[LS_LAW_P_KAPPA2] = -nl * k_frac * s_q;
        g->d[LS_LAW_P_THETA] = -ln_m * nl * k_frac * y_q;
    }
    if (want_derivatives > 1) {
        /* -s^2 nl y / q^2 and so on with q = y + h, in s/q and y/q. */
        set_d2(g, LS_LAW_P_KAPPA1, LS_LAW_P_KAPPA2, -nl * s_frac * s_q);
        set_d2(g, LS_LAW_P_KAPPA1, LS_LAW_P_THETA, -ln_m * nl * s_frac * y_q);
        set_d2(g, LS_LAW_P_KAPPA2, LS_LAW_P_KAPPA2, 2.0 * nl * k_frac * s_q * s_q);
        set_d2(g, LS_LAW_P_KAPPA2, LS_LAW_P_THETA, 2.0 * nl * ln_m * k_frac * s_q * y_q);
        set_d2(g, LS_LAW_P_THETA, LS_LAW_P_THETA, ln_m * ln_m * nl * k_frac * y_q * (ys - k2) / den);
    }
}

/* kappa1 N_loop ln R: each doubling of the loops adds the same kappa1 N_loop
 * ln 2, without bound.  ln R through log1p(R - 1), exact for R near 1.
 * Linear in kappa1: no second derivative. */
static void gain_log(const ls_law *l, const ls_law_point *x, double y, double ln_m, double scale, law_gain *g,
                     int want_derivatives)
{
    (void)ln_m, (void)scale;
    double per_kappa1 = x->n_loop * log1p(y);
    g->value = l->p[LS_LAW_P_KAPPA1] * per_kappa1;
    if (want_derivatives)
        g->d[LS_LAW_P_KAPPA1] = per_kappa1;
}

void ls_law_gain(const ls_law *l, const ls_law_point *x, double ln_m, double scale, law_gain *g, int want_derivatives)
{
    const law_mapping_info *info = &MAPPINGS[l->kind.mapping];
    g->value = 0.0;
    if (want_derivatives)
        for (int j = LAW_P_FIRST_MAPPING; j < LS_LAW_NPARAMS; j++)
            g->d[j] = 0.0;
    if (want_derivatives > 1)
        memset(g->d2, 0, sizeof g->d2);
    double y = x->R - 1.0;
    if (y == 0.0 || !info->gain)
        return; /* R = 1: N_eff = N_act exactly under every mapping */
    info->gain(l, x, y, ln_m, scale, g, want_derivatives);
}

double ls_law_ln_active_ratio(const ls_law_point *x)
{
    if (x->n_total == x->n_act)
        return 0.0;
    /* A ratio below the normal range has lost digits or become 0. */
    double m = x->n_act / x->n_total;
    return m >= DBL_MIN ? log(m) : log(x->n_act) - log(x->n_total);
}

double ls_law_sparsity_scale(const ls_law *l, double ln_m)
{
    if (!MAPPINGS[l->kind.mapping].sparse || ln_m == 0.0 || l->p[LS_LAW_P_THETA] == 0.0)
        return 1.0;
    return exp(-l->p[LS_LAW_P_THETA] * ln_m);
}

double ls_law_n_eff(const ls_law *l, const ls_law_point *x)
{
    law_gain g;
    double ln_m = ls_law_ln_active_ratio(x);
    ls_law_gain(l, x, ln_m, ls_law_sparsity_scale(l, ln_m), &g, 0);
    return x->n_act + g.value;
}

double ls_law_rho_eff(const ls_law *l, const ls_law_point *x) { return ls_law_n_eff(l, x) / x->n_act; }

double ls_law_rho_eff_ceiling(const ls_law *l, const ls_law_point *x)
{
    switch (MAPPINGS[l->kind.mapping].ceiling) {
    case LS_LAW_CEILING_ONE:
        return 1.0;
    case LS_LAW_CEILING_UNBOUNDED:
        return INFINITY;
    case LS_LAW_CEILING_KAPPA1:
        break;
    }
    /* kappa1 m^-theta N_loop / N_act; m^-theta is exactly 1 for a mapping
     * that is not sparsity-conditional. */
    double k1 = l->p[LS_LAW_P_KAPPA1], ratio = x->n_loop / x->n_act;
    return 1.0 + k1 * ls_law_sparsity_scale(l, ls_law_ln_active_ratio(x)) * ratio;
}

/* ---------------------------------------------------------------------- */

void ls_law_row_init(ls_law_row *row, const ls_law_point *x)
{
    row->x = *x;
    row->ln_n_act = log(x->n_act);
    row->ln_d = log(x->D);
    row->ln_m = ls_law_ln_active_ratio(x);
}

void ls_law_prepare(ls_law_prepared *prep, const ls_law *l)
{
    prep->l = *l;
    prep->ln_a = log(l->p[LS_LAW_P_A]);
    prep->ln_b = log(l->p[LS_LAW_P_B]);
    prep->ln_c = log(l->p[LS_LAW_P_C]);
    prep->ln_n_c = log(l->p[LS_LAW_P_N_C]);
    prep->ln_d_c = log(l->p[LS_LAW_P_D_C]);
    prep->last_e = NAN; /* no row seen yet: NaN equals nothing */
    prep->last_ln_m = NAN;
}

/* ln(e^t1 + e^t2 + e^t3), shifted by the largest term (whose exp is 1) so
 * that nothing overflows; share, unless NULL, gets each term's share of the
 * sum, which is the gradient of the result with respect to (t1, t2, t3).
 * Scalars, not loops over arrays: the fit spends most of its time here. */
static inline double log_sum_exp3(double t1, double t2, double t3, double share[3])
{
    double top = t1 > t2 ? t1 : t2;
    top = t3 > top ? t3 : top;
    double w1 = t1 == top ? 1.0 : exp(t1 - top);
    double w2 = t2 == top ? 1.0 : exp(t2 - top);
    double w3 = t3 == top ? 1.0 : exp(t3 - top);
    double sum = w1 + w2 + w3;
    if (share) {
        double inv = 1.0 / sum;
        share[0] = w1 * inv;
        share[1] = w2 * inv;
        share[2] = w3 * inv;
    }
    return top + log(sum);
}

/* A dense law at a run it does not loop (every run when the mapping is
 * none): the general code below with N_eff = N_act, Ehat = 1 and no MoE or
 * mapping terms, the same operations in the same order, without its
 * branches and bookkeeping.  The fit spends most of its time here. */
static double plain_dense_log_loss_grad(const ls_law_prepared *prep, const ls_law_row *row, double grad[LS_LAW_NPARAMS])
{
    const double *p = prep->l.p;
    double w[3];
    double ln_loss = log_sum_exp3(prep->ln_a - p[LS_LAW_P_ALPHA] * row->ln_n_act,
                                  prep->ln_b - p[LS_LAW_P_BETA] * row->ln_d, prep->ln_c, grad ? w : NULL);
    if (!grad)
        return ln_loss;
    grad[LS_LAW_P_A] = w[0];
    grad[LS_LAW_P_ALPHA] = -w[0] * row->ln_n_act;
    grad[LS_LAW_P_B] = w[1];
    grad[LS_LAW_P_BETA] = -w[1] * row->ln_d;
    grad[LS_LAW_P_C] = w[2];
    for (int j = LS_LAW_P_C + 1; j < LS_LAW_NPARAMS; j++)
        grad[j] = 0.0;
    return ln_loss;
}

/* The chain from N_eff to the mapping parameters: grad[j] = d ln L / d u_j
 * from d ln L / d N_eff and the gain's d N_eff / d p_j (d p / d u = p: all
 * of them are log-transformed). */
static void mapping_chain(const ls_law *l, const law_gain *g, double d_n_eff, double grad[LS_LAW_NPARAMS])
{
    unsigned params = MAPPINGS[l->kind.mapping].params;
    for (int j = LAW_P_FIRST_MAPPING; j < LS_LAW_NPARAMS; j++)
        if ((params >> j) & 1u)
            grad[j] = d_n_eff * g->d[j] * ls_law_param_natural_per_fitted((ls_law_param)j, l->p[j]);
}

/* Kaplan et al.'s form, with q = alpha_N / alpha_D:
 *   ln L = alpha_D ln(e^t1 + e^t2),  t1 = q (ln N_c - ln N_eff),  t2 = ln D_c - ln D.
 * With w1, w2 the shares of the two terms and S = ln(e^t1 + e^t2):
 *   d ln L / d ln N_c = alpha_N w1,  d ln L / d ln D_c = alpha_D w2,
 *   d ln L / d ln alpha_N = alpha_N w1 (ln N_c - ln N_eff),
 *   d ln L / d ln alpha_D = alpha_D (S - w1 t1),  d ln L / d ln N_eff = -alpha_N w1. */
static double kaplan_log_loss_grad(const ls_law_prepared *prep, const ls_law_row *row, const law_gain *g,
                                   double n_eff, double ln_n_eff, int looped, double grad[LS_LAW_NPARAMS])
{
    const ls_law *l = &prep->l;
    const double *p = l->p;
    double a_n = p[LS_LAW_P_ALPHA_N], a_d = p[LS_LAW_P_ALPHA_D];
    double gap = prep->ln_n_c - ln_n_eff;
    double t1 = a_n / a_d * gap, t2 = prep->ln_d_c - row->ln_d;
    double top = t1 > t2 ? t1 : t2;
    double e1 = exp(t1 - top), e2 = exp(t2 - top), sum = e1 + e2;
    double lse = top + log(sum);
    double ln_loss = a_d * lse;
    if (!grad)
        return ln_loss;
    double w1 = e1 / sum, w2 = e2 / sum;
    for (int j = 0; j < LS_LAW_NPARAMS; j++)
        grad[j] = 0.0;
    grad[LS_LAW_P_N_C] = a_n * w1;
    grad[LS_LAW_P_ALPHA_N] = a_n * w1 * gap;
    grad[LS_LAW_P_D_C] = a_d * w2;
    grad[LS_LAW_P_ALPHA_D] = a_d * (lse - w1 * t1);
    if (looped)
        mapping_chain(l, g, -a_n * w1 / n_eff, grad);
    return ln_loss;
}

/* The decaying value of repetition: f = 1 + s (1 - exp(-r / s)) for r
 * repetitions beyond the first pass and half-life-like constant s, so that
 * the effective count is U f; *d_ln_s = d ln f / d ln s, *d_r = d f / d r. */
static double repetition_factor(double r, double s, double *d_ln_s, double *d_r)
{
    double sat = -expm1(-r / s), e = 1.0 - sat;
    double f = 1.0 + s * sat;
    *d_ln_s = s * (sat - r / s * e) / f;
    *d_r = e;
    return f;
}

/* ln M = ln D_to_N(U) = (beta ln U + K) / alpha, K = ln(alpha A / (beta B));
 * 0 when it has no meaning (alpha or beta not positive, U unlimited). */
static int data_to_params_log(const double *p, double ln_a, double ln_b, double ln_u, double *ln_m, double *k)
{
    double alpha = p[LS_LAW_P_ALPHA], beta = p[LS_LAW_P_BETA];
    if (!(alpha > 0.0) || !(beta > 0.0))
        return 0;
    *k = log(alpha) + ln_a - log(beta) - ln_b;
    *ln_m = (beta * ln_u + *k) / alpha;
    return 1;
}

static int unique_tokens_given(const ls_law_point *x) { return x->U > 0.0 && isfinite(x->U); }

/* The data-constrained law, from ln N_eff.  With M = D_to_N(U) (when it is
 * below N_eff; else N' = N_eff) and f_N, f_D the repetition factors:
 *   t1 = ln A - alpha ln N',  ln N' = ln M + ln f_N(N_eff/M - 1)
 *   t2 = ln B - beta ln D',   ln D' = ln U_D + ln f_D(D/U_D - 1)
 * ln M depends on a = ln A, b = ln B, alpha and beta:
 *   d ln M/d a = 1/alpha, d ln M/d b = -1/alpha,
 *   d ln M/d alpha = (1 - K - beta ln U)/alpha^2, d ln M/d beta = (ln U - 1/beta)/alpha,
 * and d ln N'/d ln M = 1 - (N_eff/M) f_N'(r) / f_N. */
static double data_constrained_log_loss_grad(const ls_law_prepared *prep, const ls_law_row *row, const law_gain *g,
                                             double n_eff, double ln_n_eff, int looped, double grad[LS_LAW_NPARAMS])
{
    const ls_law *l = &prep->l;
    const double *p = l->p;
    const ls_law_point *x = &row->x;
    double alpha = p[LS_LAW_P_ALPHA], beta = p[LS_LAW_P_BETA];
    double ln_dp = row->ln_d, dd_s = 0.0;
    double ln_np = ln_n_eff, dn_s = 0.0, dn_m = 0.0, dn_n = 1.0, ln_u = 0.0, k = 0.0;
    if (unique_tokens_given(x)) {
        ln_u = log(x->U);
        if (x->D > x->U) {
            double d_r;
            double f = repetition_factor(x->D / x->U - 1.0, p[LS_LAW_P_R_D_STAR], &dd_s, &d_r);
            ln_dp = ln_u + log(f);
        }
        double ln_m;
        if (data_to_params_log(p, prep->ln_a, prep->ln_b, ln_u, &ln_m, &k) && ln_m < ln_n_eff) {
            double ratio = exp(ln_n_eff - ln_m), d_r;
            double f = repetition_factor(expm1(ln_n_eff - ln_m), p[LS_LAW_P_R_N_STAR], &dn_s, &d_r);
            ln_np = ln_m + log(f);
            dn_n = ratio * d_r / f; /* d ln N' / d ln N_eff */
            dn_m = 1.0 - dn_n;      /* d ln N' / d ln M */
        }
    }
    double w[3];
    double ln_loss = log_sum_exp3(prep->ln_a - alpha * ln_np, prep->ln_b - beta * ln_dp, prep->ln_c, grad ? w : NULL);
    if (!grad)
        return ln_loss;
    for (int j = 0; j < LS_LAW_NPARAMS; j++)
        grad[j] = 0.0;
    double w1 = w[0], w2 = w[1];
    grad[LS_LAW_P_A] = w1 * (1.0 - dn_m);
    grad[LS_LAW_P_B] = w2 + w1 * dn_m;
    grad[LS_LAW_P_C] = w[2];
    grad[LS_LAW_P_ALPHA] = -w1 * (ln_np + (dn_m != 0.0 ? dn_m * (1.0 - k - beta * ln_u) / alpha : 0.0));
    grad[LS_LAW_P_BETA] = -w2 * ln_dp - (dn_m != 0.0 ? w1 * dn_m * (ln_u - 1.0 / beta) : 0.0);
    grad[LS_LAW_P_R_N_STAR] = -w1 * alpha * dn_s;
    grad[LS_LAW_P_R_D_STAR] = -w2 * beta * dd_s;
    if (looped)
        mapping_chain(l, g, -w1 * alpha * dn_n / n_eff, grad);
    return ln_loss;
}

void ls_law_data_constrained_effective(const ls_law *l, const ls_law_point *x, double *n_prime, double *d_prime)
{
    double n = ls_law_n_eff(l, x);
    *n_prime = n;
    *d_prime = x->D;
    if (!unique_tokens_given(x))
        return;
    const double *p = l->p;
    double d_ln_s, d_r, ln_u = log(x->U), ln_m, k;
    if (x->D > x->U)
        *d_prime = x->U * repetition_factor(x->D / x->U - 1.0, p[LS_LAW_P_R_D_STAR], &d_ln_s, &d_r);
    if (data_to_params_log(p, log(p[LS_LAW_P_A]), log(p[LS_LAW_P_B]), ln_u, &ln_m, &k) && ln_m < log(n)) {
        double m = exp(ln_m);
        *n_prime = m * repetition_factor(expm1(log(n) - ln_m), p[LS_LAW_P_R_N_STAR], &d_ln_s, &d_r);
    }
}

double ls_law_row_log_loss_grad(ls_law_prepared *prep, const ls_law_row *row, double grad[LS_LAW_NPARAMS])
{
    const ls_law *l = &prep->l;
    const double *p = l->p;
    const ls_law_point *x = &row->x;
    int moe = l->kind.base == LS_LAW_BASE_MOE;
    int kaplan = l->kind.base == LS_LAW_BASE_KAPLAN;
    int constrained = l->kind.base == LS_LAW_BASE_DATA_CONSTRAINED && unique_tokens_given(x);

    int looped = x->R != 1.0 && MAPPINGS[l->kind.mapping].gain != NULL;
    if (!moe && !kaplan && !constrained && !looped)
        return plain_dense_log_loss_grad(prep, row, grad);
    law_gain g;
    g.value = 0.0;
    if (looped) {
        if (row->ln_m != prep->last_ln_m) {
            prep->last_ln_m = row->ln_m;
            prep->sparsity_scale = ls_law_sparsity_scale(l, row->ln_m);
        }
        ls_law_gain(l, x, row->ln_m, prep->sparsity_scale, &g, grad != NULL);
    }
    double n_eff = x->n_act + g.value;
    double ln_n_eff = looped ? log(n_eff) : row->ln_n_act;
    if (kaplan)
        return kaplan_log_loss_grad(prep, row, &g, n_eff, ln_n_eff, looped, grad);
    if (constrained)
        return data_constrained_log_loss_grad(prep, row, &g, n_eff, ln_n_eff, looped, grad);

    /* ln Ehat is 0 for dense laws and at E = 1 (E_start = 1), and the MoE
     * terms are then skipped, so moe at E = 1 gives dense bit for bit. */
    if (moe && x->E != prep->last_e) {
        prep->last_e = x->E;
        prep->ehat = ls_law_ehat(x->E, p[LS_LAW_P_E_START], p[LS_LAW_P_E_MAX]);
        prep->ln_ehat = prep->ehat == 1.0 ? 0.0 : log(prep->ehat);
        ls_law_ehat_derivatives(x->E, p[LS_LAW_P_E_START], p[LS_LAW_P_E_MAX], prep->ehat, &prep->d_ehat_d_emax,
                         &prep->d_ehat_d_estart);
    }
    double ehat = moe ? prep->ehat : 1.0;
    double ln_e = moe ? prep->ln_ehat : 0.0;

    double exponent_n = p[LS_LAW_P_ALPHA], exponent_d = p[LS_LAW_P_BETA];
    double t1 = prep->ln_a, t2 = prep->ln_b, t3 = prep->ln_c;
    if (ln_e != 0.0) {
        exponent_n += p[LS_LAW_P_GAMMA] * ln_e;
        exponent_d += p[LS_LAW_P_ZETA] * ln_e;
        t1 += p[LS_LAW_P_DELTA] * ln_e;
        t2 += p[LS_LAW_P_OMEGA] * ln_e;
    }
    t1 -= exponent_n * ln_n_eff;
    t2 -= exponent_d * row->ln_d;

    double w[3]; /* each term's share of the loss */
    double ln_loss = log_sum_exp3(t1, t2, t3, grad ? w : NULL);
    if (!grad)
        return ln_loss;
    double w1 = w[0], w2 = w[1], w3 = w[2];
    for (int j = 0; j < LS_LAW_NPARAMS; j++)
        grad[j] = 0.0;
    /* A first term that has vanished (w1 = 0) adds nothing to any
     * derivative, also where ln N_eff is infinite (a gain that overflowed):
     * not 0 * inf. */
    if (w1 == 0.0)
        ln_n_eff = 0.0;
    grad[LS_LAW_P_A] = w1;
    grad[LS_LAW_P_ALPHA] = -w1 * ln_n_eff;
    grad[LS_LAW_P_B] = w2;
    grad[LS_LAW_P_BETA] = -w2 * row->ln_d;
    grad[LS_LAW_P_C] = w3;
    if (moe) {
        grad[LS_LAW_P_DELTA] = w1 * ln_e;
        grad[LS_LAW_P_GAMMA] = -w1 * ln_e * ln_n_eff;
        grad[LS_LAW_P_OMEGA] = w2 * ln_e;
        grad[LS_LAW_P_ZETA] = -w2 * ln_e * row->ln_d;
        double d_ln_ehat = (w1 * (p[LS_LAW_P_DELTA] - p[LS_LAW_P_GAMMA] * ln_n_eff) +
                            w2 * (p[LS_LAW_P_OMEGA] - p[LS_LAW_P_ZETA] * row->ln_d)) / ehat;
        grad[LS_LAW_P_E_MAX] = d_ln_ehat * prep->d_ehat_d_emax * (p[LS_LAW_P_E_MAX] - 1.0); /* u = ln(E_max - 1) */
        grad[LS_LAW_P_E_START] = d_ln_ehat * prep->d_ehat_d_estart * p[LS_LAW_P_E_START];    /* u = ln E_start */
    }
    if (looped && w1 != 0.0)
        mapping_chain(l, &g, -w1 * exponent_n / n_eff, grad);
    return ln_loss;
}

double ls_law_log_loss_grad(const ls_law *l, const ls_law_point *x, double grad[LS_LAW_NPARAMS])
{
    ls_law_row row;
    ls_law_prepared prep;
    ls_law_row_init(&row, x);
    ls_law_prepare(&prep, l);
    return ls_law_row_log_loss_grad(&prep, &row, grad);
}

double ls_law_loss(const ls_law *l, const ls_law_point *x) { return exp(ls_law_log_loss_grad(l, x, NULL)); }

int ls_law_compute_optimal(const ls_law *l, double flops, double *n_opt, double *d_opt, double *exponent,
                           ls_error *err)
{
    const double *p = l->p;
    if (!(flops > 0.0) || !isfinite(flops))
        return ls_error_set(err, LS_ERR_USAGE, "a training budget must be a positive number of FLOPs, not %g", flops);
    /* Along the budget N D = k for a plain model; k = F/6, through the one
     * place that converts FLOPs to tokens. */
    const ls_law_point unit = {1.0, 1.0, 0.0, 1.0, 1.0, 1.0, 0.0};
    double ln_k = log(ls_law_tokens_for_flops(&unit, flops));
    double a, ln_n;
    switch (l->kind.base) {
    case LS_LAW_BASE_DENSE:
    case LS_LAW_BASE_MOE:
    case LS_LAW_BASE_DATA_CONSTRAINED: { /* unlimited unique data: N' = N, D' = D */
        /* d/dN (A N^-alpha + B (k/N)^-beta) = 0:  N^(alpha+beta) = alpha A k^beta / (beta B). */
        double alpha = p[LS_LAW_P_ALPHA], beta = p[LS_LAW_P_BETA];
        if (!(alpha > 0.0) || !(beta > 0.0))
            return ls_error_set(err, LS_ERR_DATA,
                                "no compute-optimal size: the loss falls without bound along a budget unless "
                                "alpha > 0 and beta > 0 (alpha = %g, beta = %g)", alpha, beta);
        a = beta / (alpha + beta);
        ln_n = (log(alpha * p[LS_LAW_P_A] / (beta * p[LS_LAW_P_B])) + beta * ln_k) / (alpha + beta);
        break;
    }
    case LS_LAW_BASE_KAPLAN: {
        /* d/dN ((N_c/N)^q + D_c N / k) = 0:  N^(1+q) = q N_c^q k / D_c. */
        double q = p[LS_LAW_P_ALPHA_N] / p[LS_LAW_P_ALPHA_D];
        a = 1.0 / (1.0 + q);
        ln_n = a * (log(q) + q * log(p[LS_LAW_P_N_C]) + ln_k - log(p[LS_LAW_P_D_C]));
        break;
    }
    default:
        return ls_error_set(err, LS_ERR_USAGE, "the %s law has no closed-form compute-optimal allocation",
                            ls_law_base_name(l->kind.base));
    }
    double n = exp(ln_n);
    ls_law_point x = {n, n, 0.0, 1.0, 1.0, 1.0, 0.0};
    double d = ls_law_tokens_for_flops(&x, flops);
    if (!(n >= DBL_MIN) || !isfinite(n) || !(d >= DBL_MIN) || !isfinite(d))
        return ls_error_set(err, LS_ERR_DATA,
                            "the compute-optimal size for %g FLOPs, N = %g, is outside double precision", flops, n);
    *n_opt = n;
    *d_opt = d;
    if (exponent)
        *exponent = a;
    return 0;
}

/* ---- the loss of quantised weights ------------------------------------------------- */

double ls_law_quant_penalty(const ls_law_quant *q, double n_total, double tokens, double bits)
{
    if (!q || !(bits < q->trained_bits))
        return 0.0;
    /* Kumar et al. 2024, "Scaling Laws for Precision", the post-training
     * quantisation degradation: C_T D^gamma_D N^-gamma_N e^(-P / gamma_post). */
    return q->c_t * exp(q->gamma_d * log(tokens) - q->gamma_n * log(n_total) - bits / q->gamma_post);
}

int ls_law_quant_check(const ls_law_quant *q, ls_error *err)
{
    /* Kumar et al.'s fits put C_T near 0.1 and the exponents near 0.5; the
     * bounds are wide of that but refuse a penalty that could only be a
     * typing error (or a fit the runs do not support): one growing with N
     * or falling with D, one of 1e308, or a subnormal number. */
    if (!(q->c_t >= DBL_MIN && q->c_t <= 1e6))
        return ls_error_set(err, LS_ERR_DATA, "C_T = %g: must be a positive number up to 1e6", q->c_t);
    if (!(q->gamma_d >= 0 && q->gamma_d <= 10))
        return ls_error_set(err, LS_ERR_DATA, "gamma_D = %g: must be from 0 to 10 (the penalty grows with tokens)",
                            q->gamma_d);
    if (!(q->gamma_n >= 0 && q->gamma_n <= 10))
        return ls_error_set(err, LS_ERR_DATA, "gamma_N = %g: must be from 0 to 10 (the penalty falls with size)",
                            q->gamma_n);
    if (!(q->gamma_post >= 1e-3 && q->gamma_post <= 1e3))
        return ls_error_set(err, LS_ERR_DATA, "gamma_post = %g: must be from 0.001 to 1000 bits", q->gamma_post);
    if (!(q->trained_bits >= 1 && q->trained_bits <= 64))
        return ls_error_set(err, LS_ERR_DATA, "trained_bits = %g: must be from 1 to 64", q->trained_bits);
    return 0;
}

/* The columns of the least-squares problem vary: the spread of v around
 * its mean, relative to its size. */
static int varies(const double *v, size_t n)
{
    double lo = v[0], hi = v[0];
    for (size_t i = 1; i < n; i++)
        lo = fmin(lo, v[i]), hi = fmax(hi, v[i]);
    return hi - lo > 1e-9 * fmax(fabs(hi), fabs(lo));
}

int ls_law_quant_fit(const double *n_total, const double *tokens, const double *bits, const double *delta, size_t n,
                     double trained_bits, ls_law_quant *out, double *rmse, ls_error *err)
{
    if (n < 5)
        return ls_error_set(err, LS_ERR_DATA, "%zu quantised runs: the penalty's 4 constants need at least 5", n);
    for (size_t i = 0; i < n; i++)
        if (!(delta[i] > 0) || !isfinite(delta[i]) || !(n_total[i] > 0) || !(tokens[i] > 0) || !isfinite(bits[i]))
            return ls_error_set(err, LS_ERR_DATA, "quantised run %zu: a penalty of %g (N_total %g, D %g, %g bits): "
                                "a penalty must be a positive loss", i + 1, delta[i], n_total[i], tokens[i], bits[i]);
    if (!varies(bits, n) || !varies(tokens, n) || !varies(n_total, n))
        return ls_error_set(err, LS_ERR_DATA, "the quantised runs hold %s fixed: the penalty's constants cannot be "
                            "told apart (runs at several bit widths, token counts and sizes are needed)",
                            !varies(bits, n) ? "the bits" : !varies(tokens, n) ? "the tokens" : "N_total");
    /* Centred columns (1, ln D, -ln N, -P) keep the normal equations well
     * conditioned; the intercept follows from the means. */
    double mean[4] = {0, 0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        mean[0] += log(delta[i]) / (double)n;
        mean[1] += log(tokens[i]) / (double)n;
        mean[2] += -log(n_total[i]) / (double)n;
        mean[3] += -bits[i] / (double)n;
    }
    double m[3][4] = {{0}}; /* the 3 x 3 normal equations and their right-hand side */
    for (size_t i = 0; i < n; i++) {
        double x[3] = {log(tokens[i]) - mean[1], -log(n_total[i]) - mean[2], -bits[i] - mean[3]};
        double y = log(delta[i]) - mean[0];
        for (int r = 0; r < 3; r++) {
            for (int c = 0; c < 3; c++)
                m[r][c] += x[r] * x[c];
            m[r][3] += x[r] * y;
        }
    }
    /* Gaussian elimination with partial pivoting. */
    for (int k = 0; k < 3; k++) {
        int p = k;
        for (int r = k + 1; r < 3; r++)
            if (fabs(m[r][k]) > fabs(m[p][k]))
                p = r;
        if (!(fabs(m[p][k]) > 1e-12 * (fabs(m[0][0]) + fabs(m[1][1]) + fabs(m[2][2]))))
            return ls_error_set(err, LS_ERR_DATA, "the quantised runs' bits, tokens and sizes move together: the "
                                "penalty's constants cannot be told apart");
        for (int c = 0; c < 4; c++) {
            double tmp = m[k][c];
            m[k][c] = m[p][c];
            m[p][c] = tmp;
        }
        for (int r = k + 1; r < 3; r++) {
            double f = m[r][k] / m[k][k];
            for (int c = k; c < 4; c++)
                m[r][c] -= f * m[k][c];
        }
    }
    double beta[3];
    for (int k = 2; k >= 0; k--) {
        double v = m[k][3];
        for (int c = k + 1; c < 3; c++)
            v -= m[k][c] * beta[c];
        beta[k] = v / m[k][k];
    }
    if (!(beta[2] > 0))
        return ls_error_set(err, LS_ERR_DATA, "the measured penalty does not fall with the bits (the fit's 1/gamma_post "
                            "is %g): not Kumar et al.'s form", beta[2]);
    double ln_c = mean[0] - beta[0] * mean[1] - beta[1] * mean[2] - beta[2] * mean[3];
    double lo = bits[0], hi = bits[0];
    for (size_t i = 1; i < n; i++)
        lo = fmin(lo, bits[i]), hi = fmax(hi, bits[i]);
    *out = (ls_law_quant){.c_t = exp(ln_c), .gamma_d = beta[0], .gamma_n = beta[1], .gamma_post = 1.0 / beta[2],
                          .trained_bits = trained_bits, .bits_lo = lo, .bits_hi = hi};
    double ss = 0;
    for (size_t i = 0; i < n; i++) {
        double r = out->c_t * exp(out->gamma_d * log(tokens[i]) - out->gamma_n * log(n_total[i]) -
                                  bits[i] / out->gamma_post) - delta[i];
        ss += r * r;
    }
    *rmse = sqrt(ss / (double)n);
    return ls_law_quant_check(out, err);
}
