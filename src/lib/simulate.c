#include "simulate_internal.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>

#include "numtext_internal.h"
#include "textout_internal.h"
#include "loopscale/sweep.h"

int ls_simulate_check(const ls_arch_template *t, const ls_simulate_grid *grid, ls_error *err)
{
    const struct {
        const char *name;
        const double *v;
        size_t n;
    } axes[] = {{"n_act", grid->n_act, grid->n_n_act},
                {"tokens", grid->tokens, grid->n_tokens},
                {"E", grid->E, grid->n_E},
                {"R", grid->R, grid->n_R}};
    for (size_t a = 0; a < 4; a++) {
        if (axes[a].n == 0)
            return ls_error_set(err, LS_ERR_USAGE, "%s: no values", axes[a].name);
        for (size_t i = 0; i < axes[a].n; i++) {
            double v = axes[a].v[i];
            if (!(v > 0) || !isfinite(v))
                return ls_error_set(err, LS_ERR_USAGE, "%s: %g must be positive", axes[a].name, v);
            if (a >= 2 && v != floor(v))
                return ls_error_set(err, LS_ERR_USAGE, "%s: %g is not an integer", axes[a].name, v);
            if (a == 2 && v < t->top_k)
                return ls_error_set(err, LS_ERR_USAGE, "E: %g is less than the template's top_k (%d)", v,
                                    t->top_k);
        }
    }
    return 0;
}

/* A run must read back as a sweep row: no value overflowed or underflowed,
 * and none was rounded out of its range (n_act 0.4 rounds n_total to 0). */
static int check_run(const ls_law_point *x, int top_k, double flops, double law_loss, double loss, double sigma,
                     ls_error *err)
{
    ls_sweep_row row = {.n_act = x->n_act, .n_total = x->n_total, .n_loop = x->n_loop, .R = x->R, .E = x->E,
                     .k = top_k, .tokens = x->D, .loss = loss};
    const char *names[] = {"flops", "loss"};
    const double values[] = {flops, loss};
    char what[160] = "";
    int law_at_fault = 0; /* a finite run the law gives no finite loss: bad data, not a bad option */
    for (int i = 0; i < 2 && !what[0]; i++)
        if (!(isfinite(values[i]) && values[i] > 0)) {
            snprintf(what, sizeof what, "%s is %g, outside the range of double precision", names[i], values[i]);
            law_at_fault = i == 1;
        }
    ls_sweep_quantity which;
    char reason[128];
    if (!what[0] && ls_sweep_row_check(&row, &which, reason, sizeof reason)) {
        const double value[] = {row.n_act, row.n_total, row.n_loop, row.R, row.E, row.k, row.tokens, flops, loss};
        snprintf(what, sizeof what, "%s %g %s", ls_sweep_quantity_name(which), value[which], reason);
    }
    if (!what[0])
        return 0;
    if (law_at_fault && isfinite(law_loss) && law_loss > 0)
        return ls_error_set(err, LS_ERR_USAGE,
                            "noise of sigma %g (of ln loss) turns the law's loss %g of the run n_act = %g, tokens = %g, "
                            "E = %g, R = %g into %g, outside the range of double precision: a sigma of a few percent "
                            "(0.01 to 0.05) is what training runs show",
                            sigma, law_loss, x->n_act, x->D, x->E, x->R, loss);
    if (law_at_fault)
        return ls_error_set(err, LS_ERR_DATA,
                            "the law gives the run n_act = %g, tokens = %g, E = %g, R = %g a loss of %g, outside the "
                            "range of double precision",
                            x->n_act, x->D, x->E, x->R, loss);
    return ls_error_set(err, LS_ERR_USAGE, "the run n_act = %g, tokens = %g, E = %g, R = %g: %s", x->n_act, x->D,
                        x->E, x->R, what);
}

/* Hand what buf holds to the sink when it reaches `at` bytes (0: all). */
static int drain(strbuf *buf, size_t at, simulate_sink sink, void *context, ls_error *err)
{
    if (strbuf_failed(buf))
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    if (buf->len == 0 || buf->len < at)
        return 0;
    int status = sink(context, buf->buf, buf->len, err);
    buf->len = 0;
    return status;
}

#define SIMULATE_CHUNK 65536

int ls_simulate_emit(const ls_law *truth, const ls_arch_template *t, const ls_simulate_grid *grid,
                     const ls_simulate_options *options, simulate_sink sink, void *context, ls_error *err)
{
    int status = ls_simulate_check(t, grid, err);
    if (status != 0)
        return status;
    gsl_rng *rng = gsl_rng_alloc(gsl_rng_mt19937);
    if (!rng)
        return ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    strbuf buf = {0};
    /* Two passes over the same random stream: the first checks every run,
     * so that a bad one is refused before anything is written (standard
     * output cannot be taken back); the second writes. */
    for (int pass = 0; pass < 2 && status == 0; pass++) {
        gsl_rng_set(rng, options->seed);
        if (pass == 1)
            strbuf_puts(&buf, "n_act,n_total,n_loop,R,E,k,tokens,flops,loss\n");
        for (size_t a = 0; a < grid->n_n_act && status == 0; a++)
            for (size_t d = 0; d < grid->n_tokens && status == 0; d++)
                for (size_t e = 0; e < grid->n_E && status == 0; e++)
                    for (size_t r = 0; r < grid->n_R && status == 0; r++) {
                        ls_law_point x = ls_arch_point(t, grid->n_act[a], grid->E[e], grid->R[r], grid->tokens[d]);
                        /* Parameter counts are whole numbers. */
                        x.n_total = nearbyint(x.n_total);
                        x.n_loop = nearbyint(x.n_loop);
                        double loss = ls_law_loss(truth, &x), law_loss = loss;
                        if (options->noise_sigma > 0)
                            loss *= exp(gsl_ran_gaussian_ziggurat(rng, options->noise_sigma));
                        double flops = ls_arch_training_flops(t, &x);
                        if (pass == 0) {
                            status = check_run(&x, t->top_k, flops, law_loss, loss, options->noise_sigma, err);
                            continue;
                        }
                        char v[8][NUMTEXT_DOUBLE_MAX];
                        strbuf_printf(&buf, "%s,%s,%s,%s,%s,%d,%s,%s,%s\n", ls_numtext_format_double(v[0], x.n_act),
                                      ls_numtext_format_double(v[1], x.n_total),
                                      ls_numtext_format_double(v[2], x.n_loop), ls_numtext_format_double(v[3], x.R),
                                      ls_numtext_format_double(v[4], x.E), t->top_k,
                                      ls_numtext_format_double(v[5], x.D), ls_numtext_format_double(v[6], flops),
                                      ls_numtext_format_double(v[7], loss));
                        status = drain(&buf, SIMULATE_CHUNK, sink, context, err);
                    }
    }
    if (status == 0)
        status = drain(&buf, 0, sink, context, err);
    strbuf_free(&buf);
    gsl_rng_free(rng);
    return status;
}
