#include "loopscale/holdout.h"

#include "loopscale/predict.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const AXIS_NAMES[] = {"R", "N", "D", "E", "split"};

const char *ls_holdout_axis_name(ls_holdout_axis axis) { return AXIS_NAMES[axis]; }

int ls_holdout_axis_from_name(const char *name)
{
    for (int a = 0; a < LS_HOLDOUT_AXIS_CUSTOM; a++)
        if (strcasecmp(name, AXIS_NAMES[a]) == 0)
            return a;
    return -1;
}

static double axis_value(const ls_sweep_row *r, ls_holdout_axis axis)
{
    switch (axis) {
    case LS_HOLDOUT_AXIS_R: return r->R;
    case LS_HOLDOUT_AXIS_N: return r->n_act;
    case LS_HOLDOUT_AXIS_D: return r->tokens;
    default: return r->E;
    }
}

size_t ls_holdout_default_laws(const ls_sweep *s, ls_law_kind laws[4], int *sparse_left_out)
{
    int moe = 0, sparse = 0;
    for (size_t i = 0; i < s->n; i++) {
        moe |= s->rows[i].E > 1;
        sparse |= s->rows[i].n_total > s->rows[i].n_act;
    }
    ls_law_base base = moe ? LS_LAW_BASE_MOE : LS_LAW_BASE_DENSE;
    static const ls_law_mapping mappings[] = {LS_LAW_MAPPING_LINEAR, LS_LAW_MAPPING_POWER, LS_LAW_MAPPING_BOUNDED,
                                           LS_LAW_MAPPING_BOUNDED_SPARSE};
    size_t n = 0;
    for (size_t m = 0; m < 4; m++)
        if (sparse || !ls_law_mapping_is_sparse(mappings[m]))
            laws[n++] = (ls_law_kind){base, mappings[m]};
    if (sparse_left_out)
        *sparse_left_out = !sparse;
    return n;
}

void ls_holdout_result_free(ls_holdout_result *r)
{
    if (!r)
        return;
    free(r->laws);
    free(r->columns);
    free(r->cells);
    free(r->in_sample_rmse);
    free(r->aic);
    free(r->bic);
    free(r->nfree);
    free(r->in_sample_converged);
    free(r->test);
    free(r->predicted);
    memset(r, 0, sizeof *r);
}


/* The RMSE in loss units of a law over the held-out rows of s (test[i]),
 * its predictions of them into predicted[i]. */
static double rmse_held_out(const ls_sweep *s, const ls_law *l, const unsigned char *test, double *predicted)
{
    ls_predict_acc acc;
    ls_predict_acc_init(&acc);
    for (size_t i = 0; i < s->n; i++) {
        if (!test[i])
            continue;
        ls_law_point x = ls_sweep_row_point(&s->rows[i]);
        predicted[i] = ls_law_loss(l, &x);
        ls_predict_acc_add(&acc, s->rows[i].loss, predicted[i]);
    }
    return ls_predict_acc_value(&acc);
}

/* The test runs of each column: the largest value of the axis, or the
 * custom split's conditions. */
static int make_columns(const ls_sweep *s, const ls_holdout_spec *spec, ls_holdout_result *out, unsigned char *masks,
                        ls_error *err)
{
    size_t c = 0;
    for (size_t a = 0; a < spec->naxes; a++, c++) {
        ls_holdout_column *col = &out->columns[c];
        unsigned char *test = masks + c * s->n;
        col->axis = spec->axes[a];
        /* The top tier, grouped tolerantly: tokens derived from rounded
         * FLOPs scatter one tier over nearby values, all of which are held
         * out together (loopscale/group.h). */
        double *v = malloc((s->n ? s->n : 1) * sizeof *v);
        size_t *group = malloc((s->n ? s->n : 1) * sizeof *group);
        ls_grouping g;
        int status = v && group ? 0 : ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
        for (size_t i = 0; status == 0 && i < s->n; i++)
            v[i] = axis_value(&s->rows[i], col->axis);
        if (status == 0)
            status = ls_sweep_group(s, v, s->n, group, &g, err);
        if (status != 0) {
            free(v);
            free(group);
            return status;
        }
        for (size_t i = 0; i < s->n; i++) {
            test[i] = g.n > 0 && group[i] == g.n - 1;
            col->ntest += test[i];
        }
        col->ntrain = s->n - col->ntest;
        col->skipped = col->ntrain == 0;
        /* The group's label at four significant digits: "N=1.618e+10", not
         * a digitised run's "N=1.61833e+10". */
        snprintf(col->label, sizeof col->label, "%s=%.4g", ls_holdout_axis_name(col->axis),
                 g.n ? g.label[g.n - 1] : NAN);
        ls_grouping_free(&g);
        free(v);
        free(group);
    }
    if (spec->nsplit > 0) {
        ls_holdout_column *col = &out->columns[c];
        unsigned char *test = masks + c * s->n;
        col->axis = LS_HOLDOUT_AXIS_CUSTOM;
        int status = ls_sweep_select(s, spec->split, spec->nsplit, test, err);
        if (status != 0)
            return ls_error_prefix(err, "split");
        for (size_t i = 0; i < s->n; i++)
            col->ntest += test[i];
        col->ntrain = s->n - col->ntest;
        col->skipped = col->ntest == 0 || col->ntrain == 0;
        size_t len = 0;
        for (size_t k = 0; k < spec->nsplit && len < sizeof col->label; k++)
            len += (size_t)snprintf(col->label + len, sizeof col->label - len, "%s%s", k ? " & " : "",
                                    spec->split[k]);
    }
    return 0;
}

int ls_holdout_run(const ls_sweep *s, const ls_holdout_spec *spec, const ls_fit_parameters *p, ls_holdout_result *out,
                ls_error *err)
{
    memset(out, 0, sizeof *out);
    size_t nl = spec->nlaws, nc = spec->naxes + (spec->nsplit > 0);
    out->nlaws = nl;
    out->ncolumns = nc;
    out->n = s->n;
    out->laws = calloc(nl, sizeof *out->laws);
    out->columns = calloc(nc ? nc : 1, sizeof *out->columns);
    out->cells = calloc(nl * (nc ? nc : 1), sizeof *out->cells);
    out->in_sample_rmse = calloc(nl, sizeof(double));
    out->aic = calloc(nl, sizeof(double));
    out->bic = calloc(nl, sizeof(double));
    out->nfree = calloc(nl, sizeof(size_t));
    out->in_sample_converged = calloc(nl, sizeof(int));
    size_t npredicted = nl * nc * s->n;
    out->predicted = malloc((npredicted > 0 ? npredicted : 1) * sizeof *out->predicted);
    unsigned char *masks = calloc((nc ? nc : 1) * s->n, 1);
    unsigned char *train = malloc(s->n ? s->n : 1);
    int status = 0;
    if (!out->laws || !out->columns || !out->cells || !out->in_sample_rmse || !out->aic || !out->bic ||
        !out->nfree || !out->in_sample_converged || !out->predicted || !masks || !train)
        status = ls_error_set(err, LS_ERR_INTERNAL, "out of memory");
    for (size_t i = 0; status == 0 && i < npredicted; i++)
        out->predicted[i] = NAN;
    if (status == 0)
        status = make_columns(s, spec, out, masks, err);

    for (size_t l = 0; status == 0 && l < nl; l++) {
        out->laws[l] = spec->laws[l];
        ls_fit_result r;
        status = ls_fit_run(s, spec->laws[l], p, &r, err);
        if (status != 0)
            break;
        out->in_sample_converged[l] = r.converged;
        out->in_sample_rmse[l] = r.rmse;
        out->nfree[l] = r.nfree;
        /* AIC and BIC as for Gaussian residuals in the space the fit used. */
        double rss = 0.0;
        for (size_t i = 0; i < s->n; i++) {
            ls_law_point x = ls_sweep_row_point(&s->rows[i]);
            double pred = ls_law_loss(&r.law, &x);
            double res = p->space == LS_FIT_SPACE_LOG ? log(pred) - log(s->rows[i].loss) : pred - s->rows[i].loss;
            rss += res * res;
        }
        double n = (double)s->n, k = (double)r.nfree;
        out->aic[l] = n * log(rss / n) + 2.0 * k;
        out->bic[l] = n * log(rss / n) + k * log(n);

        for (size_t c = 0; status == 0 && c < nc; c++) {
            ls_holdout_cell *cell = &out->cells[l * nc + c];
            cell->rmse = NAN;
            if (out->columns[c].skipped)
                continue;
            const unsigned char *test = masks + c * s->n;
            for (size_t i = 0; i < s->n; i++)
                train[i] = !test[i];
            ls_sweep *part = ls_sweep_subset(s, train, err);
            if (!part) {
                status = err->code;
                break;
            }
            ls_fit_result rt;
            ls_error fit_err;
            /* A training set too small for the law leaves its cell empty. */
            if (ls_fit_run(part, spec->laws[l], p, &rt, &fit_err) == 0) {
                /* A training set that cannot tell the parameters apart
                 * (one token count left) predicts from an arbitrary fit. */
                cell->converged = rt.converged && ls_fit_determined(&rt);
                cell->fitted = rt.law;
                cell->rmse = rmse_held_out(s, &rt.law, test, out->predicted + (l * nc + c) * s->n);
            } else if (fit_err.code != LS_ERR_DATA) {
                *err = fit_err;
                status = fit_err.code;
            }
            ls_sweep_free(part);
        }
    }
    out->test = masks; /* kept for the plot of predictions against observations */
    free(train);
    if (status != 0)
        ls_holdout_result_free(out);
    return status;
}
