/*
 * fit — fit a law to one or more sweeps: a multi-start second-order solve of
 * Chinchilla's Huber objective, bootstrap intervals, law file
 * (docs/fitting.md); with --by, a fit for each group of runs.
 */
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <strings.h>
#include <time.h>

#include "commands/commands_internal.h"
#include "loopscale/diagnose.h"
#include "loopscale/split.h"
#include "numtext_internal.h"
#include "outfile_internal.h"

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void format_value(char *buf, size_t size, double x)
{
    if (isnan(x))
        snprintf(buf, size, "-");
    else
        snprintf(buf, size, "%.6g", x);
}

/* The fit being made, and what the command was asked for. */
typedef struct fit_job {
    const ls_request *req;
    ls_result *res;
    ls_law_kind kind;
    ls_fit_parameters params;
    cmd_fit_progress progress;
    cmd_sweep sweep;
    ls_law_flops flops; /* how a flops column was counted; recorded in the law file */
    const ls_arch_template *tmpl; /* --template, recorded as the runs' architecture when it fits them (or NULL) */
    size_t bootstrap, bootstrap_starts;
    const char *group; /* --group */
    double ci;
    fmt_kind format;
    const char *output, *plot;
    ls_figure figure;
    /* --bits-column: the quantisation penalty fitted on the runs below 16 bits. */
    int has_quant;
    ls_law_quant quant;
    size_t quant_runs;
    double quant_rmse;
    cmd_held_from held; /* --fix-from's law and the parameters held at its values */
} fit_job;

/* ---- the quantisation penalty (--bits-column) ------------------------------------ */

/* The weights' precision of a full-precision run: at or above it, a run is
 * fitted as the law; below it, it measures the penalty. */
#define FULL_PRECISION_BITS LS_LAW_QUANT_FULL_BITS

typedef struct bits_row {
    ls_sweep_row row;
    double bits;
} bits_row;

typedef struct bits_reader {
    const char *const *paths;
    const char *column;
    size_t index;
    int found;
    bits_row *rows;
    size_t n, cap;
} bits_reader;

static int bits_header(void *ctx, const char *file, const char *const *names, size_t ncolumns, int has_loss,
                       ls_error *err)
{
    (void)has_loss;
    bits_reader *br = ctx;
    for (size_t i = 0; i < ncolumns; i++)
        if (strcasecmp(names[i], br->column) == 0) {
            br->index = i;
            br->found = 1;
            return 0;
        }
    return ls_error_set(err, LS_ERR_DATA, "%s: no column '%s' (the bits of the runs' weights)", file, br->column);
}

static int bits_on_row(void *ctx, const ls_sweep_row *row, const ls_sweep_text_cell *cells, size_t ncells,
                       ls_error *err)
{
    bits_reader *br = ctx;
    double v = NAN;
    char text[64];
    size_t len = br->index < ncells ? cells[br->index].len : 0;
    if (len > 0 && len < sizeof text) {
        memcpy(text, cells[br->index].ptr, len);
        text[len] = '\0';
        char *end;
        v = strtod(text, &end);
        if (*end != '\0')
            v = NAN;
    }
    if (!(v >= 1 && v <= 64))
        return ls_error_set(err, LS_ERR_DATA, "%s:%ld: column '%s': '%.*s' is not a number of bits from 1 to 64",
                            cmd_input_name(br->paths[row->file]), row->line, br->column, (int)(len < 40 ? len : 40),
                            len ? cells[br->index].ptr : "");
    if (br->n == br->cap) {
        size_t cap = br->cap ? 2 * br->cap : 256;
        bits_row *grown = realloc(br->rows, cap * sizeof *grown);
        if (!grown)
            return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        br->rows = grown;
        br->cap = cap;
    }
    br->rows[br->n++] = (bits_row){*row, v};
    return 0;
}

/* The configuration a penalty is measured at; NaN N_loop equals NaN. */
static int same_run(const ls_sweep_row *a, const ls_sweep_row *b)
{
    const double x[] = {a->n_act, a->n_total, a->R, a->E, a->k, a->tokens};
    const double y[] = {b->n_act, b->n_total, b->R, b->E, b->k, b->tokens};
    for (size_t i = 0; i < 6; i++)
        if (fabs(x[i] - y[i]) > 1e-9 * fabs(x[i]))
            return 0;
    return (isnan(a->n_loop) && isnan(b->n_loop)) || fabs(a->n_loop - b->n_loop) <= 1e-9 * fabs(a->n_loop);
}

static int by_n_act(const void *a, const void *b)
{
    double x = (*(const bits_row *const *)a)->row.n_act, y = (*(const bits_row *const *)b)->row.n_act;
    return (x > y) - (x < y);
}

/* Read the sweep again with its bits column, measure each quantised run's
 * penalty against the full-precision run of its configuration, and fit
 * Kumar et al.'s constants (ls_law_quant_fit). */
static int fit_quantisation(fit_job *j, const ls_sweep_options *options, const char *column, ls_error *err)
{
    const ls_request *req = j->req;
    bits_reader br = {.paths = (const char *const *)req->operands, .column = column};
    ls_sweep_options so = *options;
    so.require_loss = 1;
    so.warnings = NULL; /* said once, by the law's read */
    so.law = NULL;
    ls_sweep_handler h = {bits_header, bits_on_row, &br, NULL};
    size_t nrows = 0;
    int status = ls_sweep_stream((const char *const *)req->operands, req->noperands, &so, &h, &nrows, err);
    double *v = status == 0 ? malloc(4 * (br.n ? br.n : 1) * sizeof *v) : NULL;
    if (status == 0 && !v)
        status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    /* The full-precision runs by N_act, so that each quantised run finds
     * its configuration's among the few of its size (n log n, not n^2). */
    const bits_row **fulls = status == 0 ? malloc((br.n ? br.n : 1) * sizeof *fulls) : NULL;
    size_t nfull = 0;
    if (status == 0 && !fulls)
        status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    for (size_t i = 0; status == 0 && i < br.n; i++)
        if (br.rows[i].bits >= FULL_PRECISION_BITS)
            fulls[nfull++] = &br.rows[i];
    if (status == 0)
        qsort(fulls, nfull, sizeof *fulls, by_n_act);
    size_t m = 0, no_penalty = 0, repeated = 0;
    for (size_t i = 0; status == 0 && i < br.n; i++) {
        const bits_row *low = &br.rows[i];
        if (!(low->bits < FULL_PRECISION_BITS))
            continue;
        /* The first full-precision run at least (1 - 1e-9) N_act; repeats
         * of the configuration count with their mean loss. */
        size_t a = 0, b = nfull;
        while (a < b) {
            size_t mid = a + (b - a) / 2;
            if (fulls[mid]->row.n_act < low->row.n_act * (1 - 1e-9))
                a = mid + 1;
            else
                b = mid;
        }
        double full_loss = 0;
        size_t nsame = 0;
        for (size_t k = a; k < nfull && fulls[k]->row.n_act <= low->row.n_act * (1 + 1e-9); k++)
            if (same_run(&fulls[k]->row, &low->row)) {
                full_loss += fulls[k]->row.loss;
                nsame++;
            }
        repeated += nsame > 1;
        if (!nsame) {
            status = ls_error_set(err, LS_ERR_DATA, "%s:%ld: a run at %g bits with no run of its configuration "
                                  "at %d bits or more to measure its penalty against",
                                  cmd_input_name(br.paths[low->row.file]), low->row.line, low->bits,
                                  FULL_PRECISION_BITS);
            break;
        }
        double delta = low->row.loss - full_loss / (double)nsame;
        if (!(delta > 0)) {
            no_penalty++;
            continue;
        }
        v[m] = low->row.n_total, v[br.n + m] = low->row.tokens, v[2 * br.n + m] = low->bits, v[3 * br.n + m] = delta;
        m++;
    }
    if (status == 0 && repeated)
        res_note(j->res, "%zu quantised run%s measured against the mean loss of %s configuration's repeated "
                 "full-precision runs", repeated, repeated == 1 ? "" : "s", repeated == 1 ? "its" : "their");
    if (status == 0 && no_penalty)
        res_warn(j->res, LS_WARNING_DATA, column, "%zu quantised run%s lost nothing against the full-precision run "
                 "(a loss at or below it, noise): left out of the penalty's fit", no_penalty,
                 no_penalty == 1 ? "" : "s");
    if (status == 0 && ls_law_quant_fit(v, v + br.n, v + 2 * br.n, v + 3 * br.n, m, FULL_PRECISION_BITS, &j->quant,
                                        &j->quant_rmse, err) != 0) {
        ls_error_prefix(err, "%s", req_flag(req, O_BITS_COLUMN));
        status = err->code;
    }
    if (status == 0) {
        j->has_quant = 1;
        j->quant_runs = m;
    }
    free(v);
    free(fulls);
    free(br.rows);
    return status;
}

/* The compute-optimal exponent a of the fitted law (N_opt ~ F^a, D_opt ~
 * F^(1-a); `loopscale frontier` gives the whole frontier) and its interval
 * (ls_fit_optimum_exponent); nothing when the law has no closed form or the
 * exponents admit no optimum. */
static void print_optimum_exponent(strbuf *out, const fit_job *j, const ls_fit_result *r, const ls_fit_bootstrap *b,
                                   const ls_lawfile *lf)
{
    ls_fit_exponent e;
    ls_error err;
    if (ls_fit_optimum_exponent(r, b, j->ci, &e, &err) != 0)
        return;
    const char *how =
        r->law.kind.base == LS_LAW_BASE_KAPLAN ? "alpha_D / (alpha_N + alpha_D)" : "beta / (alpha + beta)";
    /* The closed form counts F as 6 N D whatever the sweep's FLOPs were
     * counted as; said, because frontier refuses such a law for that reason. */
    strbuf_printf(out, "optimum    N_opt ~ F^%.4f, D_opt ~ F^%.4f (a = %s%s)\n", e.a, 1.0 - e.a, how,
                  j->flops.kind != LS_LAW_FLOPS_6ND ? "; F counted as 6 N D, not as the sweep's FLOPs" : "");
    /* With both exponents held this fit says nothing of a: the interval is
     * that of the law they were held from, when it recorded one. */
    int kaplan = r->law.kind.base == LS_LAW_BASE_KAPLAN;
    ls_law_param x = kaplan ? LS_LAW_P_ALPHA_N : LS_LAW_P_ALPHA, y = kaplan ? LS_LAW_P_ALPHA_D : LS_LAW_P_BETA;
    char text[PATH_MAX + 96];
    const char *held_from = NULL;
    ls_fit_exponent recorded;
    if (!isnan(e.low))
        cmd_exponent_text(text, sizeof text, &e, NULL);
    else if (lf && cmd_law_exponent(lf, e.a, &recorded, &held_from))
        cmd_exponent_text(text, sizeof text, &recorded, held_from);
    else if (r->fixed[x] && r->fixed[y])
        snprintf(text, sizeof text, "a has no interval: its exponents are held%s%s",
                 j->held.held[x] && j->held.held[y] ? " from " : "", j->held.held[x] && j->held.held[y] ? j->held.name : "");
    else
        return;
    strbuf_printf(out, "           %s\n", text);
}

static void print_table(strbuf *out, const fit_job *j, const ls_sweep *s, const ls_fit_result *r,
                        const ls_fit_bootstrap *b, const ls_fit_profile *profiles, const ls_lawfile *lf, double seconds,
                        int threads)
{
    char kind_text[64];
    ls_law_kind_format(r->law.kind, kind_text, sizeof kind_text);
    strbuf_printf(out, "law        %s\n", kind_text);
    strbuf_printf(out, "runs       %zu (%s)\n", r->n, strcmp(s->name, "-") == 0 ? "standard input" : s->name);
    if (j->flops.kind != LS_LAW_FLOPS_6ND) /* what a flops column was read as, and the law file records */
        strbuf_printf(out, "FLOPs      counted as %s: D = %s\n", ls_law_flops_name(j->flops.kind),
                      ls_law_flops_formula(j->flops.kind));
    const char *space = j->params.space == LS_FIT_SPACE_LOG ? "ln Lhat - ln L" : "Lhat - L";
    if (j->params.loss == LS_FIT_LOSS_HUBER)
        strbuf_printf(out, "objective  %.9g  (sum of Huber(%s), delta %g)\n", r->objective, space,
                      j->params.huber_delta);
    else
        strbuf_printf(out, "objective  %.9g  (sum of (%s)^2)\n", r->objective, space);
    strbuf_printf(out, "RMSE       %.6g (loss units)\n", r->rmse);
    strbuf_printf(out, "starts     %zu, %zu reached the best objective (within %g relative), %zu converged\n",
                  r->starts, r->starts_at_best, j->params.best_rtol, r->starts_converged);
    if (r->stage_one_starts)
        strbuf_printf(out, "           after %zu stage-one starts on the base parameters\n", r->stage_one_starts);
    strbuf_printf(out, "converged  %s (%zu iteration%s)\n", r->converged ? "yes" : "NO", r->iterations,
                  r->iterations == 1 ? "" : "s");
    strbuf_printf(out, "time       %.3f s, %d thread%s\n", seconds, threads, threads == 1 ? "" : "s");
    if (b && b->ndraws + b->failed + b->outside > 0) {
        strbuf_printf(out, "bootstrap  %zu draws%s%s, %zu did not converge", b->ndraws + b->failed + b->outside,
                      j->group ? " of groups by " : "", j->group ? j->group : "", b->failed);
        if (b->outside)
            strbuf_printf(out, ", %zu ended outside the law's domain", b->outside);
        strbuf_puts(out, "\n");
    }
    print_optimum_exponent(out, j, r, b, lf);
    strbuf_puts(out, "\n");

    int with_ci = (b && b->ndraws >= LS_FIT_MIN_INTERVAL_DRAWS) || profiles;
    char ci_header[48];
    snprintf(ci_header, sizeof ci_header, "%g%% %sinterval", 100 * j->ci, profiles ? "profile " : "");
    const char *headers[] = {"parameter", "value", "stderr*", with_ci ? ci_header : "", ""};
    text_table *t = text_table_new(with_ci ? 4 : 3, headers);
    ls_law_param list[LS_LAW_NPARAMS];
    size_t np = ls_law_params_of(r->law.kind, list);
    for (size_t i = 0; t && i < np; i++) {
        ls_law_param p = list[i];
        char value[32], se[PATH_MAX + 16], ci[64];
        format_value(value, sizeof value, r->law.p[p]);
        if (r->unidentified[p])
            snprintf(se, sizeof se, "held (unidentified)");
        else if (j->held.held[p])
            snprintf(se, sizeof se, "held from %s", j->held.name);
        else if (r->fixed[p])
            snprintf(se, sizeof se, "held");
        else if (r->tied[p])
            snprintf(se, sizeof se, "= %s", ls_law_param_name((ls_law_param)(r->tied[p] - 1)));
        else
            format_value(se, sizeof se, r->stderr_of[p]);
        if (profiles && !isnan(profiles[p].low)) {
            char lo[32] = "open", hi[32] = "open";
            if (profiles[p].closed_low)
                snprintf(lo, sizeof lo, "%.6g", profiles[p].low);
            if (profiles[p].closed_high)
                snprintf(hi, sizeof hi, "%.6g", profiles[p].high);
            snprintf(ci, sizeof ci, "[%s, %s]", lo, hi);
        } else if (!profiles && with_ci && !r->fixed[p] && !isnan(b->ci_low[p]))
            snprintf(ci, sizeof ci, "[%.6g, %.6g]", b->ci_low[p], b->ci_high[p]);
        else
            snprintf(ci, sizeof ci, "-");
        const char *cells[] = {ls_law_param_name(p), value, se, ci};
        if (text_table_add(t, cells) != 0) {
            text_table_free(t);
            t = NULL;
        }
    }
    if (!t) {
        out->failed = 1;
        return;
    }
    text_table_print(t, out, TABLE_ALIGNED);
    text_table_free(t);
    strbuf_printf(out, "\n* standard errors from the M-estimator's sandwich covariance (normal approximation on\n"
                       "  ln A, ln B, ln c and the exponents)%s\n",
                  with_ci ? "" : "; --bootstrap N or --ci-method profile give\n  intervals that need not be symmetric");
}

/* A warning about a fit, in a --by group's name when there is one (group
 * NULL: the only fit): "dataset=rpj: MESSAGE", subject "dataset=rpj: alpha". */
static int group_warn(ls_result *res, const char *group, const ls_warning *w)
{
    if (!group)
        return res_warn(res, w->code, w->subject, "%s", w->message);
    char subject[640];
    snprintf(subject, sizeof subject, "%s%s%s", group, w->subject[0] ? ": " : "", w->subject);
    return res_warn(res, w->code, subject, "%s: %s", group, w->message);
}

/* The verdict on a fit (ls_fit_verdict): every warning it deserves; group
 * as group_warn's. */
static int warn_verdict(fit_job *j, const ls_sweep *s, const ls_fit_result *r, const ls_fit_bootstrap *b,
                        const char *group, ls_error *err)
{
    ls_warnings w = {0};
    int status = ls_fit_verdict(s, r, b, &j->params, &w, err);
    for (size_t i = 0; status == 0 && i < w.n; i++)
        status = group_warn(j->res, group, &w.v[i]);
    ls_warnings_free(&w);
    return status;
}

/* The law file of a fit, with what the law --fix-from held parameters from
 * said of them carried over (ls_lawfile_hold_from) and warned of again;
 * group (or NULL) names the --by group in those warnings. */
static ls_lawfile *make_lawfile(const fit_job *j, const ls_sweep *s, const ls_fit_result *r,
                                const ls_fit_bootstrap *b, const char *const *wheres, size_t nwheres,
                                const char *group, ls_error *err)
{
    const ls_request *req = j->req;
    ls_lawfile_provenance prov = {(const char *const *)req->operands, req->noperands, j->sweep.maps,
                                  j->sweep.nmaps, wheres, nwheres, j->group,
                                  req->invocation ? req->invocation : "loopscale fit", j->sweep.given,
                                  j->sweep.ngiven, &j->flops, j->tmpl};
    ls_lawfile *lf = ls_lawfile_from_fit(r, &j->params, b, s, &prov, err);
    ls_warnings added = {0};
    if (lf && j->held.lf && ls_lawfile_hold_from(lf, j->held.lf, j->held.name, j->held.held, &added, err) != 0) {
        ls_lawfile_free(lf);
        lf = NULL;
    }
    for (size_t i = 0; lf && i < added.n; i++)
        group_warn(j->res, group, &added.v[i]);
    ls_warnings_free(&added);
    return lf;
}

/* Whether the fit may be used (ls_fit_usable): 0; or a refusal that comes
 * before anything is shown (too few runs, data that cannot determine the
 * law), *early set; or one shown after the fit's table (it did not converge,
 * cannot tell its parameters apart, ends outside the law's domain).  The
 * message ends in what was not written: early_text or late_text. */
static int judge(const ls_sweep *s, const fit_job *j, const ls_fit_result *r, const char *early_text,
                 const char *late_text, int *early, ls_error *err)
{
    *early = 0;
    if (ls_fit_usable(s, j->kind, &j->params, r, err) == 0)
        return 0;
    int code = err->code;
    ls_error scratch;
    *early = code == LS_ERR_DATA || ls_fit_data_check(s, j->kind, &j->params, &scratch) != 0;
    char why[LS_ERROR_MESSAGE_MAX];
    snprintf(why, sizeof why, "%s", err->message);
    return ls_error_set(err, code, "%s; %s", why, *early ? early_text : late_text);
}

/* ---- --by: a fit for each group of runs ---------------------------------------- */

#define GROUP_PLACEHOLDER "{group}"
/* The most bytes of a file name a group's values take (a name must fit NAME_MAX). */
#define GROUP_NAME_MAX 160

/* With --by, each output's name must say where a group's value goes; without
 * it, {group} stands for nothing. */
static int check_group_pattern(const ls_request *req, opt_id option, int by, ls_error *err)
{
    const char *path = req_text(req, option);
    if (!path)
        return 0;
    int has = strstr(path, GROUP_PLACEHOLDER) != NULL;
    const char *flag = req_flag(req, option);
    if (by && !has)
        return ls_error_set(err, LS_ERR_USAGE, "%s '%s': with %s each group has a file of its own: put {group} in the "
                            "name, e.g. %s '%s'", flag, path, req_flag(req, O_BY), flag,
                            option == O_OUTPUT ? "law-{group}.json" : "fit-{group}.svg");
    if (!by && has)
        return ls_error_set(err, LS_ERR_USAGE, "%s '%s': {group} stands for a group's value, and runs are split into "
                            "groups only with %s COL", flag, path, req_flag(req, O_BY));
    return 0;
}

/* A group's values as a file name part: values joined by '-', each byte not
 * a letter, digit, '.', '_', '+' or '-' written as '_' (so "rw/base" is
 * "rw_base"), at most GROUP_NAME_MAX bytes. */
static void group_file_part(const ls_sweep_groups *sp, size_t g, char *buf, size_t size)
{
    size_t used = 0, limit = size - 1 < GROUP_NAME_MAX ? size - 1 : GROUP_NAME_MAX;
    for (size_t c = 0; c < sp->ncolumns; c++) {
        if (c > 0 && used < limit)
            buf[used++] = '-';
        for (const char *v = sp->value[g * sp->ncolumns + c]; *v && used < limit; v++) {
            unsigned char ch = (unsigned char)*v;
            buf[used++] =
                (ch < 128 && isalnum(ch)) || ch == '.' || ch == '_' || ch == '+' || ch == '-' ? (char)ch : '_';
        }
    }
    buf[used] = '\0';
}

/* pattern with every {group} replaced by part; malloc'd (NULL pattern: NULL). */
static char *expand_pattern(const char *pattern, const char *part, int *oom)
{
    if (!pattern)
        return NULL;
    size_t n = 1, plen = strlen(GROUP_PLACEHOLDER);
    for (const char *p = pattern; *p;)
        if (strncmp(p, GROUP_PLACEHOLDER, plen) == 0)
            n += strlen(part), p += plen;
        else
            n++, p++;
    char *out = malloc(n), *q = out;
    if (!out) {
        *oom = 1;
        return NULL;
    }
    for (const char *p = pattern; *p;)
        if (strncmp(p, GROUP_PLACEHOLDER, plen) == 0) {
            size_t k = strlen(part);
            memcpy(q, part, k);
            q += k;
            p += plen;
        } else
            *q++ = *p++;
    *q = '\0';
    return out;
}

typedef struct group_fit {
    ls_sweep *runs;
    ls_fit_result result;
    ls_fit_bootstrap boot;
    ls_error refusal; /* why the group's fit may not be used; code LS_OK when it may */
    int usable;
    ls_lawfile *lf;
    char *law_path, *plot_path;
    char *law_text;
    unsigned char *figure;
    size_t figure_len;
    char name[480]; /* "dataset=rw, decay=const": what messages about this group say */
} group_fit;

static void print_by_table(strbuf *out, const fit_job *j, const ls_sweep *s, const ls_sweep_groups *sp,
                           const group_fit *gf)
{
    char kind_text[64];
    ls_law_kind_format(j->kind, kind_text, sizeof kind_text);
    strbuf_printf(out, "law        %s\n", kind_text);
    strbuf_printf(out, "runs       %zu in %zu group%s by ", s->n, sp->ngroups, sp->ngroups == 1 ? "" : "s");
    for (size_t c = 0; c < sp->ncolumns; c++)
        strbuf_printf(out, "%s%s", c ? ", " : "", s->by_names[c]);
    strbuf_printf(out, " (%s)\n", strcmp(s->name, "-") == 0 ? "standard input" : s->name);
    const char *space = j->params.space == LS_FIT_SPACE_LOG ? "ln Lhat - ln L" : "Lhat - L";
    if (j->params.loss == LS_FIT_LOSS_HUBER)
        strbuf_printf(out, "objective  sum of Huber(%s), delta %g, for each group\n\n", space, j->params.huber_delta);
    else
        strbuf_printf(out, "objective  sum of (%s)^2, for each group\n\n", space);
    ls_law_param list[LS_LAW_NPARAMS];
    size_t np = ls_law_params_of(j->kind, list);
    size_t ncols = sp->ncolumns + np + 4;
    const char **headers = calloc(ncols, sizeof *headers);
    const char **cells = calloc(ncols, sizeof *cells);
    char(*buf)[32] = calloc(ncols, sizeof *buf);
    text_table *t = NULL;
    if (headers && cells && buf) {
        size_t k = 0;
        for (size_t c = 0; c < sp->ncolumns; c++)
            headers[k++] = s->by_names[c];
        headers[k++] = "runs";
        for (size_t i = 0; i < np; i++)
            headers[k++] = ls_law_param_name(list[i]);
        headers[k++] = "RMSE";
        headers[k++] = "objective";
        headers[k++] = "converged";
        t = text_table_new(ncols, headers);
    }
    for (size_t g = 0; t && g < sp->ngroups; g++) {
        const ls_fit_result *r = &gf[g].result;
        size_t k = 0;
        for (size_t c = 0; c < sp->ncolumns; c++)
            cells[k++] = sp->value[g * sp->ncolumns + c];
        snprintf(buf[k], sizeof buf[k], "%zu", r->n);
        cells[k] = buf[k], k++;
        for (size_t i = 0; i < np; i++) {
            format_value(buf[k], sizeof buf[k], r->law.p[list[i]]);
            if (r->fixed[list[i]] || r->unidentified[list[i]])
                snprintf(buf[k] + strlen(buf[k]), sizeof buf[k] - strlen(buf[k]), " (held)");
            cells[k] = buf[k], k++;
        }
        snprintf(buf[k], sizeof buf[k], "%.6g", r->rmse);
        cells[k] = buf[k], k++;
        snprintf(buf[k], sizeof buf[k], "%.6g", r->objective);
        cells[k] = buf[k], k++;
        cells[k++] = !r->converged ? "NO" : !gf[g].usable ? "undetermined" : "yes";
        if (text_table_add(t, cells) != 0) {
            text_table_free(t);
            t = NULL;
        }
    }
    free(headers);
    free(cells);
    free(buf);
    if (!t) {
        out->failed = 1;
        return;
    }
    text_table_print(t, out, TABLE_ALIGNED);
    text_table_free(t);
    strbuf_printf(out, "\nRMSE in loss units; each group's law file records its runs as filters (%s).\n",
                  req_flag(j->req, O_WHERE));
}

/* "NAME: message" about a group. */
static int group_error(ls_error *err, const group_fit *f)
{
    return ls_error_prefix(err, "%s", f->name);
}

/* The law files of the groups as one JSON document. */
static char *by_document(const group_fit *gf, size_t ng)
{
    strbuf b = {0};
    strbuf_puts(&b, "{\n  \"format\": \"loopscale-fit-groups/1\",\n  \"laws\": [\n");
    for (size_t g = 0; g < ng; g++) {
        size_t len = strlen(gf[g].law_text);
        while (len && gf[g].law_text[len - 1] == '\n')
            len--;
        strbuf_append(&b, gf[g].law_text, len);
        strbuf_puts(&b, g + 1 < ng ? ",\n" : "\n");
    }
    strbuf_puts(&b, "  ]\n}\n");
    return strbuf_take(&b);
}

/* fit --by: split the runs, fit each group as fit fits a sweep, print one
 * table, and write every group's law file and plot, or none. */
static int fit_by(fit_job *j, const ls_sweep *s, ls_error *err)
{
    const ls_request *req = j->req;
    ls_result *res = j->res;
    ls_sweep_groups sp;
    if (ls_sweep_split(s, &sp, err) != 0)
        return err->code;
    size_t ng = sp.ngroups;
    size_t nfiles = (j->output ? ng : 0) + (j->plot ? ng : 0);
    int status = 0;
    if (nfiles > LS_OUTFILE_MAX_OPEN)
        status = ls_error_set(err, LS_ERR_USAGE, "%s: %zu groups make %zu files to write at once, more than %d "
                              "(select fewer runs with %s, or print the laws with %s json)", req_flag(req, O_BY), ng,
                              nfiles, LS_OUTFILE_MAX_OPEN, req_flag(req, O_WHERE), req_flag(req, O_FORMAT));
    group_fit *gf = status ? NULL : calloc(ng, sizeof *gf);
    if (status == 0 && !gf)
        status = res_oom(err);
    int oom = 0;
    for (size_t g = 0; status == 0 && g < ng; g++) {
        char part[GROUP_NAME_MAX + 1];
        group_file_part(&sp, g, part, sizeof part);
        gf[g].law_path = expand_pattern(j->output, part, &oom);
        gf[g].plot_path = expand_pattern(j->plot, part, &oom);
        size_t used = 0;
        for (size_t c = 0; c < sp.ncolumns && used < sizeof gf[g].name; c++)
            used += (size_t)snprintf(gf[g].name + used, sizeof gf[g].name - used, "%s%s=%s", c ? ", " : "",
                                     s->by_names[c], sp.value[g * sp.ncolumns + c]);
    }
    if (status == 0 && oom)
        status = res_oom(err);
    /* Each group's files are checked against the inputs and one another
     * (two groups whose names sanitise alike would share a file) before any
     * fit. */
    for (size_t g = 0; status == 0 && j->output && g < ng; g++)
        for (size_t h = g + 1; status == 0 && h < ng; h++)
            if (strcmp(gf[g].law_path, gf[h].law_path) == 0)
                status = ls_error_set(err, LS_ERR_USAGE, "%s: groups '%s' and '%s' would both write %s (file names "
                                      "keep letters, digits and . _ + - only)", req_flag(req, O_BY), gf[g].name,
                                      gf[h].name, gf[g].law_path);
    if (status == 0 && nfiles) {
        const char **paths = calloc(nfiles, sizeof *paths);
        opt_id *options = calloc(nfiles, sizeof *options);
        size_t k = 0;
        if (!paths || !options)
            status = res_oom(err);
        for (size_t g = 0; status == 0 && g < ng; g++) {
            if (gf[g].law_path)
                options[k] = O_OUTPUT, paths[k++] = gf[g].law_path;
            if (gf[g].plot_path)
                options[k] = O_PLOT, paths[k++] = gf[g].plot_path;
        }
        if (status == 0)
            status = guard_check_outputs(req, res, options, paths, k, err);
        free(paths);
        free(options);
    }
    const char *not_written = j->output || j->plot ? "no file written for any group"
                              : j->format == FMT_JSON ? "no law written"
                                                      : "no fit printed";
    for (size_t g = 0; status == 0 && g < ng; g++) {
        group_fit *f = &gf[g];
        int early = 0;
        if (!(f->runs = ls_sweep_split_subset(s, &sp, g, err)) ||
            ls_fit_run(f->runs, j->kind, &j->params, &f->result, err) != 0 ||
            (judge(f->runs, j, &f->result, not_written, not_written, &early, &f->refusal) != 0 && early)) {
            if (early)
                *err = f->refusal;
            status = group_error(err, f);
            break;
        }
        f->usable = f->refusal.code == LS_OK;
        if (f->usable && j->bootstrap > 0 &&
            ls_fit_run_bootstrap(f->runs, &f->result, &j->params, j->bootstrap, j->bootstrap_starts,
                                 j->group != NULL, j->ci, &f->boot, err) != 0)
            status = group_error(err, f);
        if (status == 0 && f->usable)
            status = warn_verdict(j, f->runs, &f->result, &f->boot, f->name, err);
    }
    int all_fits = 1;
    for (size_t g = 0; status == 0 && g < ng; g++)
        all_fits = all_fits && gf[g].usable;
    /* Each group's law file records the filters that select its runs. */
    const char **wheres = NULL;
    if (status == 0 && all_fits && !(wheres = calloc(j->sweep.nwheres + 2 * sp.ncolumns + 1, sizeof *wheres)))
        status = res_oom(err);
    for (size_t g = 0; wheres && status == 0 && g < ng; g++) {
        size_t nw = 0;
        for (size_t i = 0; i < j->sweep.nwheres; i++)
            wheres[nw++] = j->sweep.wheres[i];
        for (size_t k = 0; k < 2 * sp.ncolumns; k++)
            if (sp.condition[g * sp.ncolumns * 2 + k])
                wheres[nw++] = sp.condition[g * sp.ncolumns * 2 + k];
        group_fit *f = &gf[g];
        if (!(f->lf = make_lawfile(j, f->runs, &f->result, &f->boot, wheres, nw, f->name, err)) ||
            !(f->law_text = ls_lawfile_to_json(f->lf, err)) ||
            (j->plot && !(f->figure = cmd_plot_fit(f->runs, f->lf, &j->figure, &f->figure_len, err))))
            status = group_error(err, f);
        else if (j->plot)
            cmd_note_runs_drawn(j->req, j->res, f->runs->n, "the law");
    }
    free(wheres);
    if (status == 0 && all_fits) {
        char *doc = by_document(gf, ng);
        if (!doc)
            status = res_oom(err);
        else {
            if (j->format == FMT_JSON)
                res_printf(res, "%s", doc);
            res_set_json(res, doc);
        }
    }
    if (status == 0 && j->format != FMT_JSON) {
        strbuf out = {0};
        print_by_table(&out, j, s, &sp, gf);
        if (strbuf_failed(&out))
            status = res_oom(err);
        else
            res_write(res, out.buf, out.len);
        strbuf_free(&out);
    }
    /* Every group that is not a fit is named; none of the files is written. */
    for (size_t g = 0; status == 0 && g < ng; g++)
        if (!gf[g].usable) {
            for (size_t h = g + 1; h < ng; h++)
                if (!gf[h].usable)
                    res_warn(res, LS_WARNING_FIT_QUALITY, gf[h].name, "%s: %s", gf[h].name, gf[h].refusal.message);
            *err = gf[g].refusal;
            status = group_error(err, &gf[g]);
        }
    for (size_t g = 0; status == 0 && g < ng; g++) {
        if (j->output) {
            size_t len = strlen(gf[g].law_text);
            status = res_output(res, O_OUTPUT, gf[g].law_path, (unsigned char *)gf[g].law_text, len, err);
            gf[g].law_text = NULL;
        }
        if (status == 0 && j->plot) {
            status = res_output(res, O_PLOT, gf[g].plot_path, gf[g].figure, gf[g].figure_len, err);
            gf[g].figure = NULL;
        }
    }
    for (size_t g = 0; gf && g < ng; g++) {
        ls_fit_bootstrap_free(&gf[g].boot);
        ls_lawfile_free(gf[g].lf);
        ls_sweep_free(gf[g].runs);
        free(gf[g].law_path);
        free(gf[g].plot_path);
        free(gf[g].law_text);
        free(gf[g].figure);
    }
    free(gf);
    ls_sweep_split_free(&sp);
    return status;
}

/* ---- one fit -------------------------------------------------------------------- */

/* --ci-method profile: an interval for every free parameter (NULL with
 * none asked for; on failure NULL and *status set). */
static ls_fit_profile *profile_intervals(fit_job *j, const ls_sweep *s, const ls_fit_result *r, int *status,
                                         ls_error *err)
{
    const char *method = req_text(j->req, O_CI_METHOD);
    if (!method || strcmp(method, "profile") != 0)
        return NULL;
    ls_fit_profile *pr = calloc(LS_LAW_NPARAMS, sizeof *pr);
    if (!pr) {
        *status = res_oom(err);
        return NULL;
    }
    ls_law_param list[LS_LAW_NPARAMS];
    size_t np = ls_law_params_of(r->law.kind, list);
    for (int p = 0; p < LS_LAW_NPARAMS; p++)
        pr[p].low = pr[p].high = NAN;
    for (size_t i = 0; i < np; i++) {
        ls_law_param p = list[i];
        if (r->fixed[p] || r->tied[p] || r->unidentified[p])
            continue;
        res_progress(j->res, "profile intervals", i, np);
        if ((*status = ls_fit_profile_interval(s, r, &j->params, p, j->ci, &pr[p], err)) != 0) {
            free(pr);
            return NULL;
        }
    }
    return pr;
}

/* What the law file will record of the runs' architecture that the user
 * should know now: that --template does not reproduce them, or that no
 * single template does.  0 or LS_ERR_INTERNAL. */
static int warn_architecture(const fit_job *j, const ls_sweep *s, ls_error *err)
{
    ls_arch_record r;
    if (ls_arch_record_runs(s, j->tmpl, &r, err) != 0)
        return err->code;
    double total = r.residual_total, loop = isnan(r.residual_loop) ? 0 : r.residual_loop;
    char what[256];
    ls_arch_template_describe(&r.tmpl, what, sizeof what);
    const char *path = req_text(j->req, O_TEMPLATE);
    if (j->tmpl && r.source != LS_ARCH_FROM_TEMPLATE)
        res_warn(j->res, LS_WARNING_ARCHITECTURE, path ? path : "template",
                 "%s does not reproduce the runs' N_total and N_loop within %g%%: the law records the shares fitted "
                 "to them (%s)", path ? path : "the profile's template", 100 * LS_ARCH_TOLERANCE, what);
    if (total > LS_ARCH_TOLERANCE || loop > LS_ARCH_TOLERANCE)
        res_warn(j->res, LS_WARNING_ARCHITECTURE, s->name,
                 "%s: no single template reproduces the runs' N_total/N_act (up to %.3g%% from the best fit) and "
                 "N_loop/N_act (%.3g%%): the law records each configuration's, and solve answers for the best fit "
                 "(%s)", s->name, 100 * total, 100 * loop, what);
    ls_arch_record_free(&r);
    return 0;
}

static int fit_one(fit_job *j, const ls_sweep *s, ls_error *err)
{
    const ls_request *req = j->req;
    ls_result *res = j->res;
    ls_fit_result result;
    ls_fit_bootstrap boot;
    memset(&result, 0, sizeof result);
    memset(&boot, 0, sizeof boot);
    ls_lawfile *lf = NULL;
    ls_fit_profile *profiles = NULL;
    unsigned char *figure = NULL;
    size_t figure_len = 0;
    char *law_text = NULL;
    double t0 = now_seconds();
    int status = warn_architecture(j, s, err);
    if (status == 0)
        status = ls_fit_run(s, j->kind, &j->params, &result, err);
    if (status != 0)
        goto done;
    /* A failed fit leaves an old law file in place: say so, since the next
     * command would read it. */
    char not_written[PATH_MAX + 64];
    cmd_not_written(not_written, sizeof not_written, "no law file written", j->output);
    int early;
    ls_error refusal;
    const char *nothing = j->output ? not_written : j->format == FMT_JSON ? "no law written" : NULL;
    int refused = judge(s, j, &result, nothing ? nothing : "no fit printed", nothing ? nothing : "its numbers are not a fit",
                        &early, &refusal);
    if (refused && early) {
        *err = refusal;
        status = refused;
        goto done;
    }
    if (!refused && j->bootstrap > 0) {
        j->progress.what = "bootstrap draws";
        status = ls_fit_run_bootstrap(s, &result, &j->params, j->bootstrap, j->bootstrap_starts, j->group != NULL,
                                      j->ci, &boot, err);
        if (status == 0 && boot.ndraws < LS_FIT_MIN_INTERVAL_DRAWS)
            res_warn(res, LS_WARNING_UNDETERMINED, "", "only %zu of %zu bootstrap draws converged inside the law's "
                     "domain, too few for intervals (at least %d): none given", boot.ndraws, j->bootstrap,
                     LS_FIT_MIN_INTERVAL_DRAWS);
    }
    if (status == 0 && !refused)
        profiles = profile_intervals(j, s, &result, &status, err);
    double seconds = now_seconds() - t0;
    /* The verdict is about a law; a fit that is not one is refused below. */
    if (status == 0 && !refused)
        status = warn_verdict(j, s, &result, &boot, NULL, err);
    /* A fit that is not a law is written nowhere, to a file or to standard
     * output; a law is the result's JSON document whatever is printed. */
    if (status == 0 && !refused &&
        !(lf = make_lawfile(j, s, &result, &boot, j->sweep.wheres, j->sweep.nwheres, NULL, err)))
        status = err->code;
    if (status == 0 && lf && j->has_quant) {
        lf->has_quant = 1;
        lf->quant = j->quant;
        lf->quant_runs = j->quant_runs;
        lf->quant_rmse = j->quant_rmse;
    }
    /* The figure is drawn before anything is printed, so that a figure that
     * cannot be drawn leaves no half of the output. */
    if (status == 0 && lf && j->plot && !(figure = cmd_plot_fit(s, lf, &j->figure, &figure_len, err)))
        status = err->code;
    if (status == 0 && figure)
        cmd_note_runs_drawn(j->req, j->res, s->n, "the law");
    if (status == 0 && lf && !(law_text = ls_lawfile_to_json(lf, err)))
        status = err->code;
    if (status == 0 && j->format == FMT_JSON && !refused)
        res_printf(res, "%s", law_text);
    else if (status == 0 && j->format != FMT_JSON) {
        strbuf out = {0};
        print_table(&out, j, s, &result, &boot, profiles, lf, seconds,
                    j->params.threads > 0 ? j->params.threads : req_threads(req));
        if (j->has_quant)
            strbuf_printf(&out, "\nquantisation penalty (Kumar et al.'s post-training form, below %d bits):\n"
                          "  C_T %.6g  gamma_D %.6g  gamma_N %.6g  gamma_post %.6g  (%zu quantised runs, RMSE %.4g)\n",
                          FULL_PRECISION_BITS, j->quant.c_t, j->quant.gamma_d, j->quant.gamma_n, j->quant.gamma_post,
                          j->quant_runs, j->quant_rmse);
        status = strbuf_failed(&out) ? res_oom(err) : res_write(res, out.buf, out.len);
        strbuf_free(&out);
    }
    if (status == 0 && refused) {
        *err = refusal;
        status = refused;
    }
    /* The law file and the plot are replaced together or not at all. */
    if (status == 0 && law_text && !(res->json = strdup(law_text)))
        status = res_oom(err);
    if (status == 0 && j->output) {
        status = res_output(res, O_OUTPUT, j->output, (unsigned char *)law_text, strlen(law_text), err);
        law_text = NULL;
    }
    if (status == 0 && j->plot) {
        status = res_output(res, O_PLOT, j->plot, figure, figure_len, err);
        figure = NULL;
    }
done:
    free(law_text);
    free(figure);
    free(profiles);
    ls_lawfile_free(lf);
    ls_fit_bootstrap_free(&boot);
    return status;
}

/* fit's checks, its sweep and its fits, with the parameters set up. */
static int run_fit(fit_job *j, const char *const *by, size_t nby, ls_error *err)
{
    const ls_request *req = j->req;
    ls_result *res = j->res;
    int status = 0;
    if (req->noperands == 0)
        return req_usage(req, err, "give at least one SWEEP file");
    if (j->bootstrap > 0 && j->bootstrap < LS_FIT_MIN_INTERVAL_DRAWS)
        return req_usage(req, err, "%s: '%s' is too few draws for an interval: at least %d (or 0 for none)",
                         req_flag(req, O_BOOTSTRAP), req_text(req, O_BOOTSTRAP), LS_FIT_MIN_INTERVAL_DRAWS);
    if (j->group && j->bootstrap == 0)
        return req_usage(req, err, "%s needs %s N", req_flag(req, O_GROUP), req_flag(req, O_BOOTSTRAP));
    for (size_t i = 0; i < nby; i++)
        if (by[i][strspn(by[i], " \t")] == '\0')
            return req_usage(req, err, "%s '%s': name a column", req_flag(req, O_BY), by[i]);
    if (check_group_pattern(req, O_OUTPUT, nby > 0, err) != 0 || check_group_pattern(req, O_PLOT, nby > 0, err) != 0)
        return err->code;
    /* Options that only the bootstrap reads, as given: refused without it. */
    const char *method = req_text(req, O_CI_METHOD);
    if (method && strcmp(method, "bootstrap") == 0 && j->bootstrap == 0)
        return req_usage(req, err, "%s bootstrap needs %s N", req_flag(req, O_CI_METHOD), req_flag(req, O_BOOTSTRAP));
    if (method && strcmp(method, "profile") == 0 && nby > 0)
        return req_usage(req, err, "%s profile: not with %s (one fit at a time)", req_flag(req, O_CI_METHOD),
                         req_flag(req, O_BY));
    if (req_given(req, O_CI) && !j->bootstrap && !(method && strcmp(method, "profile") == 0))
        return req_usage(req, err, "%s has no effect without %s N or %s profile", req_flag(req, O_CI),
                         req_flag(req, O_BOOTSTRAP), req_flag(req, O_CI_METHOD));
    static const opt_id bootstrap_only[] = {O_SEED, O_BOOTSTRAP_STARTS};
    for (size_t i = 0; j->bootstrap == 0 && i < sizeof bootstrap_only / sizeof *bootstrap_only; i++)
        if (req_given(req, bootstrap_only[i]))
            return req_usage(req, err, "%s has no effect without %s N", req_flag(req, bootstrap_only[i]),
                             req_flag(req, O_BOOTSTRAP));
    if (cmd_figure(req, O_PLOT, &j->figure, err) != 0)
        return err->code;
    /* The convention a flops column is read under: the template's, or the
     * option's over it. */
    ls_arch_template tmpl;
    if (cmd_sweep_flops(req, &tmpl, &j->flops, err) != 0)
        return err->code;
    static const opt_id plots[] = {O_PLOT};
    const ls_figure *figures[] = {&j->figure};
    if (cmd_figure_options_check(req, 1, plots, figures, err) != 0)
        return err->code;
    if ((status = cmd_sweep_setup(req, res, &j->sweep, err)) != 0)
        return status;
    j->tmpl = req_given(req, O_TEMPLATE) ? &tmpl : j->sweep.config_template;
    ls_sweep_options so = j->sweep.options;
    /* --bits-column: the law is fitted on the full-precision runs, the
     * filter recorded with the others; the penalty on the rest. */
    const char *bits_column = req_text(req, O_BITS_COLUMN);
    const char **wheres = NULL, **origins = NULL;
    const char **user_wheres = j->sweep.wheres, **user_origins = j->sweep.where_origins;
    size_t user_nwheres = j->sweep.nwheres;
    char full[128];
    if (bits_column && nby > 0)
        status = req_usage(req, err, "%s: not with %s (one law at a time)", req_flag(req, O_BITS_COLUMN),
                           req_flag(req, O_BY));
    /* The penalty's runs are a second read of the sweep, which a stream
     * cannot give. */
    for (size_t i = 0; status == 0 && bits_column && i < req->noperands; i++) {
        struct stat st;
        const char *path = req->operands[i];
        if (strcmp(path, "-") == 0 || (stat(path, &st) == 0 && !S_ISREG(st.st_mode)))
            status = req_usage(req, err, "%s reads the sweep twice (the law's runs, then the penalty's): %s%s%s "
                               "can be read once; give a file", req_flag(req, O_BITS_COLUMN),
                               strcmp(path, "-") == 0 ? "standard input" : "'", strcmp(path, "-") == 0 ? "" : path,
                               strcmp(path, "-") == 0 ? "" : "', a stream,");
    }
    if (status == 0 && bits_column) {
        int len = snprintf(full, sizeof full, "%s>=%d", bits_column, FULL_PRECISION_BITS);
        wheres = calloc(user_nwheres + 1, sizeof *wheres);
        origins = calloc(user_nwheres + 1, sizeof *origins);
        if (len < 0 || (size_t)len >= sizeof full)
            status = req_usage(req, err, "%s: '%s' is too long a column name", req_flag(req, O_BITS_COLUMN),
                               bits_column);
        else if (!wheres || !origins)
            status = res_oom(err);
        else
            status = fit_quantisation(j, &so, bits_column, err);
    }
    if (status == 0 && bits_column) {
        for (size_t i = 0; i < user_nwheres; i++)
            wheres[i] = user_wheres[i], origins[i] = user_origins ? user_origins[i] : NULL;
        wheres[user_nwheres] = full;
        so.wheres = j->sweep.wheres = wheres;
        so.where_origins = j->sweep.where_origins = origins;
        so.nwheres = j->sweep.nwheres = user_nwheres + 1;
    }
    if (status != 0) {
        free(wheres);
        free(origins);
        cmd_sweep_free(&j->sweep);
        return status;
    }
    so.require_loss = 1;
    so.group_column = j->group;
    so.checksum = 1; /* the law file records what was fitted */
    so.by_columns = by;
    so.nby = nby;
    so.flops = &j->flops;
    so.law = &j->kind; /* the columns the law does not read are named */
    so.factors = 1;    /* the verdict tells runs of several experiments apart */
    ls_sweep *s = ls_sweep_read((const char *const *)req->operands, req->noperands, &so, err);
    if (!s)
        status = err->code;
    else {
        cmd_sweep_report(req, res, &j->sweep, s);
        status = nby > 0 ? fit_by(j, s, err) : fit_one(j, s, err);
    }
    ls_sweep_free(s);
    if (bits_column) { /* the reader's arrays are its own to free */
        j->sweep.wheres = user_wheres;
        j->sweep.where_origins = user_origins;
        j->sweep.nwheres = user_nwheres;
    }
    free(wheres);
    free(origins);
    cmd_sweep_free(&j->sweep);
    return status;
}

static int run(const ls_request *req, ls_result *res, ls_error *err)
{
    fit_job j;
    memset(&j, 0, sizeof j);
    j.req = req;
    j.res = res;
    j.kind = req_law(req, O_LAW_KIND);
    j.bootstrap = (size_t)req_integer(req, O_BOOTSTRAP);
    j.bootstrap_starts = (size_t)req_integer(req, O_BOOTSTRAP_STARTS);
    j.group = req_text(req, O_GROUP);
    j.ci = req_number(req, O_CI);
    j.format = req_format(req);
    j.output = req_text(req, O_OUTPUT);
    j.plot = req_text(req, O_PLOT);
    size_t nby;
    const char *const *by = req_items(req, O_BY, &nby);
    int status = cmd_fit_parameters(req, res, &j.kind, 1, &j.params, &j.progress, &j.held, err);
    if (status == 0)
        status = run_fit(&j, by, nby, err);
    cmd_held_from_free(&j.held);
    return status;
}

static const cmd_option OPTIONS[] = {
    {O_LAW_KIND, "law to fit, BASE[:MAPPING]; 'loopscale help laws' lists the bases and mappings. Parameters the "
                 "sweep cannot identify are held at their neutral values, with a warning. A fit that converges but "
                 "that its runs do not support (c at 0 or above the lowest loss, a parameter or the exponent a "
                 "poorly determined, residuals that trend, runs of different experiments) is kept and warned of, and "
                 "its law file records the warnings, which every command that uses the law repeats "
                 "(docs/fitting.md)",
     NULL, NULL, NULL},
    CMD_OPT(O_LOSS),
    CMD_OPT(O_HUBER_DELTA),
    CMD_OPT(O_SPACE),
    CMD_OPT(O_GRID),
    CMD_OPT(O_STARTS),
    CMD_OPT(O_FIX),
    CMD_OPT(O_FIX_FROM),
    CMD_OPT(O_TIE),
    CMD_OPT(O_BOOTSTRAP),
    CMD_OPT(O_GROUP),
    CMD_OPT(O_BOOTSTRAP_STARTS),
    CMD_OPT(O_CI_METHOD),
    CMD_OPT_HELP(O_CI, "interval level of the bootstrap or profile intervals"),
    CMD_OPT_HELP(O_SEED, "bootstrap random seed"),
    CMD_OPT(O_THREADS),
    CMD_OPT(O_SCALE),
    CMD_OPT(O_MAX_ITERATIONS),
    CMD_OPT_HELP(O_FORMAT, "table, or json: the law file on standard output (nothing when the fit fails)"),
    CMD_OPT_HELP(O_OUTPUT, "write the law file (JSON; .gz for gzip); not written when the fit fails"),
    CMD_OPT_HELP(O_FLOPS_CONVENTION, "how a flops column was counted (docs/flops.md); attn needs the template's "
                                     "context, head its vocab"),
    {O_TEMPLATE, "architecture template (JSON) of the runs' models: what configuration columns leave out when the "
                 "counts are counted from them, the architecture checked against the runs and recorded with the law, "
                 "and the context, vocab and layers --flops-convention counts a flops column with",
     NULL, "", NULL},
    CMD_OPT_HELP(O_PLOT, "draw the observed and fitted loss against R for each E and N_act; not written when the fit "
                         "fails"),
    CMD_OPT(O_BY),
    CMD_OPT(O_BITS_COLUMN),
    CMD_SWEEP_OPTIONS,
    CMD_PLOT_OPTIONS,
    CMD_OPT(O_QUIET),
    CMD_END,
};

const cmd_def CMD_FIT = {
    .name = "fit",
    .summary = "fit a loss law to sweeps: multi-start Huber fit, intervals",
    .usage = "[--law BASE:MAPPING] [OPTIONS] SWEEP... [-o LAW.json]",
    .description =
        "Fit a loss law to the runs of one or more sweeps (CSV or JSON Lines, plain or gzip; '-' for standard "
        "input). The objective is Chinchilla's approach 3: the sum over runs of Huber(ln Lhat - ln L), solved from "
        "many starting points with analytic derivatives: damped IRLS steps far from the optimum, Newton's steps "
        "near it (for looped and MoE laws the starts take IRLS steps and only the best start's polish Newton's).",
    .operands = "SWEEP...",
    .min_operands = 1,
    .max_operands = (size_t)-1,
    .formats = "table|json",
    .stdout_label = "the table",
    .epilogue = "Exit status 3 when the fit yields no law: its best start did not converge, or its runs cannot "
                "determine its parameters (a singular Jacobian, data that cannot tell them apart, a best fit outside "
                "the law's domain); nothing is written.",
    .options = OPTIONS,
    .run = run,
};
