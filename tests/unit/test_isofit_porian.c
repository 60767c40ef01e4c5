/* Porian et al. (2024), "Resolving Discrepancies in Compute-Optimal Scaling
 * of Language Models": the exponent a of N_opt = G F^a that they publish
 * for each of their 15 configurations, against ls_isofit_run with the
 * akima method on their IsoFLOP points (../shared/data/external/
 * porian-resolving, or $SHARED/data/external/porian-resolving when the
 * environment sets SHARED; SOURCE.md there describes the files).
 *
 *   test_isofit_porian [--markdown]
 *
 * Checks, for every configuration: the default akima method (no noised
 * copies) within 0.01 of their exponent and on as many budgets as they
 * used; with their noised copies (1000, noise 0.002 on RefinedWeb and 0.01
 * on OpenWebText2, as their configs.py sets) within 0.01 too, each
 * budget's median optimum within 5% of theirs, and their exponent inside
 * both 95% intervals (of the copies, and the least-squares one).
 * Prints a line per configuration, or with --markdown the tables
 * docs/fitting.md shows (and one configuration budget by budget); exits 1
 * when a check fails, 77 (skipped) when the data is absent. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "loopscale/isofit.h"

#ifndef PORIAN_DIR
#error "PORIAN_DIR: the directory of Porian et al.'s derived CSVs"
#endif

static char dir[4096] = PORIAN_DIR;

static FILE *open_data(const char *name)
{
    char path[4200];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return fopen(path, "r");
}

enum { NCONFIG_MAX = 32, NKEY = 7, FIELD = 64, NBUDGET_MAX = 32 };

/* The configuration --markdown shows budget by budget. */
#define DETAIL "summary_df/rw/tuned/short/const/standard/val"

/* source_file, dataset, hparams, warmup, decay, param_count, val */
static const char *const KEYS[NKEY] = {"source_file", "dataset", "hparams", "warmup", "decay", "param_count", "val"};

typedef struct config {
    char key[NKEY][FIELD];
    double a;               /* their 'basic' n_exponent */
    size_t nbudgets;        /* their budgets with an optimum */
    double flops[NBUDGET_MAX], n_star[NBUDGET_MAX]; /* their optima (NaN: none) */
    size_t nrows;
} config;

/* Splits a CSV line without quoted fields into at most max fields. */
static size_t split(char *line, char **field, size_t max)
{
    size_t n = 0;
    line[strcspn(line, "\r\n")] = '\0';
    for (char *p = line; n < max;) {
        field[n++] = p;
        p = strchr(p, ',');
        if (!p)
            break;
        *p++ = '\0';
    }
    return n;
}

static int same_key(const config *c, char **field)
{
    for (int k = 0; k < NKEY; k++)
        if (strcmp(c->key[k], field[k]) != 0)
            return 0;
    return 1;
}

/* The configurations of the 'basic' rows of porian_power_law_fits.csv and
 * their optima from porian_isoflop_optima.csv.  Returns how many, 0 when a
 * file cannot be read. */
static size_t read_configs(config *cfg)
{
    char line[4096], *field[32];
    FILE *f = open_data("porian_power_law_fits.csv");
    size_t n = 0;
    if (!f)
        return 0;
    if (!fgets(line, sizeof line, f)) {
        fclose(f);
        return 0;
    }
    while (fgets(line, sizeof line, f) && n < NCONFIG_MAX) {
        if (split(line, field, 32) < 9 || strcmp(field[7], "basic") != 0)
            continue;
        memset(&cfg[n], 0, sizeof cfg[n]);
        for (int k = 0; k < NKEY; k++)
            snprintf(cfg[n].key[k], FIELD, "%s", field[k]);
        cfg[n].a = strtod(field[8], NULL);
        n++;
    }
    fclose(f);
    f = open_data("porian_isoflop_optima.csv");
    if (!f || !fgets(line, sizeof line, f)) {
        if (f)
            fclose(f);
        return 0;
    }
    while (fgets(line, sizeof line, f)) {
        if (split(line, field, 32) < 9)
            continue;
        for (size_t c = 0; c < n; c++)
            if (same_key(&cfg[c], field) && cfg[c].nrows < NBUDGET_MAX) {
                cfg[c].flops[cfg[c].nrows] = strtod(field[7], NULL);
                cfg[c].n_star[cfg[c].nrows++] = field[8][0] ? strtod(field[8], NULL) : NAN;
                cfg[c].nbudgets += field[8][0] != '\0';
            }
    }
    fclose(f);
    return n;
}

static ls_sweep *read_points(const config *c, ls_error *err)
{
    char where[NKEY][FIELD + 32];
    const char *wheres[NKEY], *maps[] = {"n_act=n", "tokens=t"};
    for (int k = 0; k < NKEY; k++) {
        snprintf(where[k], sizeof where[k], "%s=='%s'", KEYS[k], c->key[k]);
        wheres[k] = where[k];
    }
    char path[4200];
    snprintf(path, sizeof path, "%s/porian_isoflop_points.csv", dir);
    const char *paths[] = {path};
    ls_sweep_options o = {.maps = maps, .nmaps = 2, .wheres = wheres, .nwheres = NKEY, .require_loss = 1};
    return ls_sweep_read(paths, 1, &o, err);
}

/* Their noise (configs.py's SEED_ARGS): noise_low, since every loss of
 * theirs lies below e^3, where their schedule holds it. */
static double their_noise(const config *c) { return strcmp(c->key[1], "owt2") == 0 ? 0.01 : 0.002; }

int main(int argc, char **argv)
{
    int markdown = argc > 1 && strcmp(argv[1], "--markdown") == 0;
    const char *shared = getenv("SHARED");
    if (shared && *shared)
        snprintf(dir, sizeof dir, "%s/data/external/porian-resolving", shared);
    FILE *probe = open_data("porian_isoflop_points.csv");
    if (!probe) {
        printf("SKIP: %s/porian_isoflop_points.csv is absent\n", dir);
        return 77;
    }
    fclose(probe);
    static config cfg[NCONFIG_MAX];
    size_t ncfg = read_configs(cfg);
    if (ncfg != 15) {
        printf("FAIL: %zu configurations with a 'basic' fit, not 15\n", ncfg);
        return 1;
    }
    int failures = 0;
    double worst = 0, worst_noised = 0, worst_budget = 0;
    static char detail[8192];
    if (markdown) {
        printf("| configuration | Porian et al. a (budgets) | akima a (budgets) | difference | akima, noised copies: "
               "a (budgets) | its 95%% interval | 95%% least-squares interval |\n");
        printf("|---|--:|--:|--:|--:|--:|--:|\n");
    }
    for (size_t c = 0; c < ncfg; c++) {
        ls_error err;
        ls_sweep *s = read_points(&cfg[c], &err);
        if (!s) {
            printf("FAIL: %s\n", err.message);
            return 1;
        }
        ls_isofit_options o;
        ls_isofit_default_options(&o);
        o.method = LS_ISOFIT_AKIMA;
        ls_isofit_result r, rn;
        if (ls_isofit_run(s, &o, &r, &err) != 0) {
            printf("FAIL: %s\n", err.message);
            return 1;
        }
        o.noise_draws = 1000;
        o.noise_sd = their_noise(&cfg[c]);
        o.seed = 42;
        if (ls_isofit_run(s, &o, &rn, &err) != 0) {
            printf("FAIL: %s\n", err.message);
            return 1;
        }
        char name[512];
        snprintf(name, sizeof name, "%s/%s/%s/%s/%s/%s/%s", cfg[c].key[0], cfg[c].key[1], cfg[c].key[2],
                 cfg[c].key[3], cfg[c].key[4], cfg[c].key[5], cfg[c].key[6]);
        char *dot = strstr(name, ".pickle.xz");
        if (dot)
            memmove(dot, dot + 10, strlen(dot + 10) + 1);
        double d = r.a - cfg[c].a, dn = rn.a - cfg[c].a;
        worst = fmax(worst, fabs(d));
        worst_noised = fmax(worst_noised, fabs(dn));
        int held = cfg[c].a >= rn.a_lo && cfg[c].a <= rn.a_hi && cfg[c].a >= r.a_ls_lo && cfg[c].a <= r.a_ls_hi;
        int ok = fabs(d) <= 0.01 && r.nused == cfg[c].nbudgets && fabs(dn) <= 0.01 && rn.nused == cfg[c].nbudgets &&
                 rn.ndraws >= 500 && held;
        failures += !ok;
        if (markdown)
            printf("| `%s` | %.4f (%zu) | %.4f (%zu) | %+.4f | %.4f (%zu) | [%.4f, %.4f] | [%.4f, %.4f] |\n", name,
                   cfg[c].a, cfg[c].nbudgets, r.a, r.nused, d, rn.a, rn.nused, rn.a_lo, rn.a_hi, r.a_ls_lo,
                   r.a_ls_hi);
        else
            printf("%s %-52s Porian %.4f (%zu)  akima %.4f (%zu) %+.4f  noised %.4f (%zu) [%.4f, %.4f]  "
                   "least squares [%.4f, %.4f]\n", ok ? "ok " : "BAD", name, cfg[c].a, cfg[c].nbudgets, r.a, r.nused,
                   d, rn.a, rn.nused, rn.a_lo, rn.a_hi, r.a_ls_lo, r.a_ls_hi);
        /* Budget by budget, the median of the noised copies against their
         * optimum (which is such a median, on a grid 1/25 of the spacing
         * of the sizes: within 5%); one configuration as a table. */
        int show = markdown && strcmp(name, DETAIL) == 0;
        if (show)
            snprintf(detail, sizeof detail, "| F | Porian et al. n* | akima N_opt | ratio | akima, noised copies: "
                     "N_opt | ratio | its 95%% interval |\n|--:|--:|--:|--:|--:|--:|--:|\n");
        for (size_t b = 0; b < rn.nbudgets; b++)
            for (size_t j = 0; j < cfg[c].nrows; j++) {
                if (!(fabs(cfg[c].flops[j] / rn.budgets[b].flops - 1) < 1e-9 && isfinite(cfg[c].n_star[j])))
                    continue;
                const ls_isofit_budget *bu = &r.budgets[b], *bn = &rn.budgets[b];
                double q = bn->n_opt / cfg[c].n_star[j];
                worst_budget = fmax(worst_budget, fabs(log(q)));
                if (!(fabs(log(q)) < 0.05)) {
                    printf("BAD %s: F = %g: N_opt %.4g from the noised copies, theirs %.4g\n", name, bn->flops,
                           bn->n_opt, cfg[c].n_star[j]);
                    failures++;
                }
                size_t len = strlen(detail);
                if (show)
                    snprintf(detail + len, sizeof detail - len,
                             "| %.3g | %.4g | %.4g | %.3f | %.4g | %.3f | [%.4g, %.4g] |\n", bn->flops,
                             cfg[c].n_star[j], bu->n_opt, bu->n_opt / cfg[c].n_star[j], bn->n_opt, q, bn->n_lo,
                             bn->n_hi);
            }
        ls_isofit_result_free(&r);
        ls_isofit_result_free(&rn);
        ls_sweep_free(s);
    }
    printf("%slargest difference in a: %.4f (akima), %.4f (with noised copies); in a budget's N_opt (noised "
           "copies): %.1f%%\n", markdown ? "\n" : "", worst, worst_noised, 100 * (exp(worst_budget) - 1));
    if (markdown)
        printf("\n`%s`:\n\n%s", DETAIL, detail);
    return failures ? 1 : 0;
}
