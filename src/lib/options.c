/*
 * options.c — the one table of options, and the parser of their values.
 *
 * Each row says what an option is, whatever command takes it: its type,
 * range, default and help.  The program's getopt tables, its --help, the man
 * page's RANGES, the bash completion and the Python keyword arguments are
 * all made from these rows, so a range or a default cannot drift between
 * commands or front ends.  A command that means something particular by an
 * option (what --plot draws) says so in its own option list (command.c),
 * which may override the help and the default but never the type or range.
 *
 * Value syntax is the program's: counts take SI suffixes (125M, 2.8B with B a
 * billion), FLOPs P and E too, memory sizes bytes (3GB, 3GiB; a bare 3B is
 * ambiguous and refused), lists are comma-separated, FLOP budgets may be a
 * range LO:HI:N evenly spaced in ln F.
 */
#include <ctype.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command_internal.h"
#include "grow_internal.h"
#include "loopscale/holdout.h"
#include "loopscale/law.h"
#include "loopscale/sweep.h"
#include "numtext_internal.h"

#define NO_RANGE NAN, NAN
#define SWITCH(name, help) {name, 0, LS_OPTION_SWITCH, 0, NULL, NO_RANGE, NULL, NULL, NULL, help, NULL, NULL}

/* The largest sensible values of the quantities a sweep and a solve deal
 * in: beyond them an answer is meaningless, and the reader refuses the same
 * values in a cell (loopscale/sweep.h). */
#define MAX_PARAMS LS_SWEEP_MAX_PARAMS
#define MAX_TOKENS LS_SWEEP_MAX_TOKENS
#define MAX_FLOPS LS_SWEEP_MAX_FLOPS
#define MAX_LOOPS LS_SWEEP_MAX_LOOPS
#define MAX_EXPERTS LS_SWEEP_MAX_EXPERTS
/* The most budgets a range LO:HI:N spaces (a frontier of 100,000 budgets
 * takes half a second). */
#define FLOPS_RANGE_MAX 100000

const ls_option OPTION_TABLE[O_NOPTIONS] = {
    [O_QUIET] = {"quiet", 'q', LS_OPTION_SWITCH, 0, NULL, NO_RANGE, NULL, NULL, NULL,
                 "print no information lines on standard error (warnings still are)", NULL, NULL},

    /* ---- the sweep reader ---- */
    [O_PROFILE] = {"profile", 0, LS_OPTION_INPUT, 0, "FILE", NO_RANGE, NULL, NULL, NULL,
                   "read the sweep as the profile FILE says (a JSON file of maps, filters, run and step columns, "
                   "--last, units); options given too add to it, and win over its single values",
                   NULL, NULL},
    [O_MAP] = {"map", 0, LS_OPTION_PAIR, LS_OPTION_REPEATABLE, "NEW=OLD", NO_RANGE, NULL, NULL, NULL,
               "read column OLD as NEW (repeatable), e.g. --map n_act='Model Size'", NULL, NULL},
    [O_WHERE] = {"where", 0, LS_OPTION_CONDITION, LS_OPTION_REPEATABLE, "'COL OP X'", NO_RANGE, NULL, NULL, NULL,
                 "keep rows where COL OP X holds, OP one of < <= = != >= > (repeatable, all must hold), e.g. "
                 "--where 'R<=8'; == != compare text when X is not a number, ~ !~ match a glob (--where "
                 "'State==finished', --where 'run_name~*-long'); COL may be n_unroll, tokens_per_param or epochs "
                 "(tokens / unique_tokens) when the file has no column of that name. Filters run before the "
                 "quantities are checked; an empty or NaN cell passes no numeric condition",
                 NULL, NULL},
    [O_SKIP_INVALID] = SWITCH("skip-invalid", "drop rows with an empty, NaN, non-positive or otherwise invalid "
                                              "quantity, and say how many (default: refuse the sweep)"),
    [O_LOSS_UNIT] = {"loss-unit", 0, LS_OPTION_CHOICE, 0, "UNIT", NO_RANGE, "nats|bits", "nats", NULL,
                     "the loss column is in nats or bits", NULL, NULL},
    [O_BYTES_PER_TOKEN] = {"bytes-per-token", 0, LS_OPTION_NUMBER, 0, "X", 0.01, 1000, NULL, NULL, NULL,
                           "the loss column is per byte (e.g. bits per byte); X bytes a token", NULL, "bytes"},
    [O_GROUP_TOL] = {"group-tol", 0, LS_OPTION_NUMBER, LS_OPTION_OPEN, "X", 0, 0.5, NULL, NULL,
                     "read off the data's own rounding",
                     "values of a quantity within X relative are one tier (plot series, held-out tiers, numeric "
                     "--by and --group columns); between 0 and 0.5",
                     NULL, "a relative tolerance"},
    [O_RUN] = {"run", 0, LS_OPTION_TEXT, 0, "COL", NO_RANGE, NULL, NULL,
               "the first of run, run_name, run_id, name, id in the file", "the run identity column", NULL, NULL},
    [O_STEP] = {"step", 0, LS_OPTION_TEXT, 0, "COL", NO_RANGE, NULL, NULL,
                "the first of step, _step, global_step, trainer/global_step, iter, iteration",
                "the checkpoint step column", NULL, NULL},
    [O_LAST] = SWITCH("last", "keep each run's row with the largest step (its last checkpoint among the rows the "
                              "filters keep)"),

    /* ---- the fit ---- */
    [O_LOSS] = {"loss", 0, LS_OPTION_CHOICE, 0, "huber|mse", NO_RANGE, "huber|mse", "huber", NULL, "objective", NULL, NULL},
    [O_HUBER_DELTA] = {"huber-delta", 0, LS_OPTION_NUMBER, 0, "X", 1e-9, 10, NULL, "1e-3", NULL,
                       "Huber threshold, in log-loss units", NULL, "log-loss units"},
    [O_SPACE] = {"space", 0, LS_OPTION_CHOICE, 0, "log|linear", NO_RANGE, "log|linear", "log", NULL,
                 "residuals ln Lhat - ln L (log) or Lhat - L (linear)", NULL, NULL},
    [O_GRID] = {"grid", 0, LS_OPTION_CHOICE, 0, "chinchilla", NO_RANGE, "chinchilla", NULL, NULL,
                "start the base parameters from Chinchilla's 4,500-point grid", NULL, NULL},
    [O_STARTS] = {"starts", 0, LS_OPTION_INTEGER, 0, "N", 1, 1000000, NULL, "32", NULL,
                  "otherwise from N Sobol points in the same box", NULL, NULL},
    [O_SEED] = {"seed", 0, LS_OPTION_INTEGER, 0, "S", 0, 4294967295.0, NULL, "1", NULL, "random seed", NULL, NULL},
    [O_THREADS] = {"threads", 0, LS_OPTION_INTEGER, 0, "T", 1, 256, NULL, NULL, "one per core",
                   "worker threads (results do not depend on them)", NULL, NULL},
    [O_FIX] = {"fix", 0, LS_OPTION_PAIR, LS_OPTION_REPEATABLE, "NAME=VALUE", NO_RANGE, NULL, NULL, NULL,
               "hold a parameter at VALUE (repeatable, once per parameter); --fix c=0 drops the irreducible term",
               NULL, NULL},
    [O_TIE] = {"tie", 0, LS_OPTION_PAIR, LS_OPTION_REPEATABLE, "NAME=LEADER", NO_RANGE, NULL, NULL, NULL,
               "fit NAME equal to LEADER, two exponents or two coefficients (repeatable), e.g. --tie beta=alpha "
               "(Gadre et al.'s law)",
               NULL, NULL},
    [O_FIX_FROM] = {"fix-from", 0, LS_OPTION_INPUT, 0, "FILE", NO_RANGE, NULL, NULL, NULL,
                    "hold every parameter of law file FILE that this law has (the second stage of a two-stage "
                    "fit: base terms first, then the rest)",
                    NULL, NULL},
    [O_BOOTSTRAP] = {"bootstrap", 0, LS_OPTION_INTEGER, 0, "N", 0, 1000000, NULL, "0", NULL,
                     "refit N resamples of the runs for percentile intervals: 0 (none) or at least 20", NULL, NULL},
    [O_GROUP] = {"group", 0, LS_OPTION_TEXT, 0, "COL", NO_RANGE, NULL, NULL, NULL,
                 "resample whole groups of runs sharing COL's value", NULL, NULL},
    [O_BOOTSTRAP_STARTS] = {"bootstrap-starts", 0, LS_OPTION_INTEGER, 0, "K", 0, 100, NULL, "2", NULL,
                            "refit each draw from the full-data optimum and K perturbed starts (loose parameters "
                            "restart from a grid)",
                            NULL, NULL},
    [O_CI] = {"ci", 0, LS_OPTION_LEVEL, 0, "LEVEL", 0.5, 0.999, NULL, "0.95", NULL, "interval level", NULL, NULL},
    [O_CI_METHOD] = {"ci-method", 0, LS_OPTION_CHOICE, 0, "METHOD", NO_RANGE, "bootstrap|profile|none", NULL,
                     "bootstrap with --bootstrap N, else none",
                     "the parameters' intervals: bootstrap percentiles, or profile likelihood (each parameter held "
                     "along a path and the others refitted; no bootstrap needed), at --ci LEVEL",
                     NULL, NULL},
    [O_SCALE] = {"scale", 0, LS_OPTION_CHOICE, 0, "NAME", NO_RANGE, "levenberg|more|marquardt", "levenberg", NULL,
                 "damping of the IRLS steps", NULL, NULL},
    [O_MAX_ITERATIONS] = {"max-iterations", 0, LS_OPTION_INTEGER, 0, "N", 1, 1000000, NULL, "500", NULL,
                          "iterations of each local solve", NULL, NULL},
    [O_BY] = {"by", 0, LS_OPTION_TEXT, LS_OPTION_REPEATABLE, "COL", NO_RANGE, NULL, NULL, NULL,
              "fit each group of runs sharing COL's value on its own (repeatable: a group per combination); "
              "numbers within --group-tol are one group. One table, a row per group; -o and --plot name a file "
              "per group with {group} in the name (-o 'law-{group}.json'); --format json prints the law files "
              "in one document; all written or none",
              NULL, NULL},

    /* ---- laws ---- */
    [O_LAW_FILE] = {"law", 'l', LS_OPTION_INPUT, 0, "FILE", NO_RANGE, NULL, NULL,
                    "the law compiled in, moe:bounded-sparse fitted on the shipped sweep looped-moe.csv.gz with "
                    "1,000 bootstrap draws",
                    "law file", NULL, NULL},
    [O_LAW_KIND] = {"law", 'l', LS_OPTION_LAW, 0, "LAW", NO_RANGE, NULL, "moe:bounded-sparse", NULL,
                    "law to fit, BASE[:MAPPING]; 'loopscale help laws' lists the bases and mappings", NULL, NULL},
    [O_LAWS] = {"laws", 0, LS_OPTION_LAWS, 0, "LIST", NO_RANGE, NULL, NULL, NULL, "laws, comma-separated", NULL, NULL},
    [O_FORCE] = SWITCH("force", "use a law file whose fit did not converge or could not tell its parameters apart "
                                "(refused otherwise)"),
    [O_AXES] = {"axes", 0, LS_OPTION_AXES, 0, "LIST", NO_RANGE, NULL, "R,N,D,E", NULL,
                "axes to hold out, from R,N,D,E", NULL, NULL},
    [O_SPLIT] = {"split", 0, LS_OPTION_CONDITION, LS_OPTION_REPEATABLE, "'COND'", NO_RANGE, NULL, NULL, NULL,
                 "also hold out the runs where COND holds, e.g. 'R>8' (quantities only; repeatable, all must "
                 "hold)",
                 NULL, NULL},

    /* ---- budgets and the solver ---- */
    [O_FLOPS] = {"flops", 0, LS_OPTION_FLOPS, 0, "F", 1, MAX_FLOPS, NULL, NULL, NULL,
                 "training compute in FLOPs, e.g. 1e21 or 2.8B (a count: k M B/G T P E, B a billion)", NULL, "FLOPs"},
    [O_FLOPS_LIST] = {"flops", 0, LS_OPTION_FLOPS_LIST, 0, "BUDGETS", 1, MAX_FLOPS, NULL, NULL, NULL,
                      "compute budgets: a list F1,F2,... (e.g. 1e20,1e21; 2.8B = 2.8e9) or a range LO:HI:N, N "
                      "budgets evenly spaced in ln F (e.g. 1e18:1e24:13)",
                      NULL, "FLOPs"},
    [O_MEM] = {"mem", 0, LS_OPTION_BYTES, 0, "BYTES", 1, 1e21, NULL, NULL, "no limit",
               "weight memory in bytes, e.g. 3GB, 3GiB, 2.5e9 (k M G T P E or Ki Mi Gi Ti, B optional; a bare 3B "
               "is refused)",
               NULL, "bytes"},
    [O_BITS] = {"bits", 0, LS_OPTION_NUMBER, 0, "B", 1, 64, NULL, "16", NULL, "bits per weight (4 for INT4)", NULL, "bits per weight"},
    [O_TEMPLATE] = {"template", 0, LS_OPTION_INPUT, 0, "FILE", NO_RANGE, NULL, NULL,
                    "the architecture the law records, else the paper's middle-cycle looping",
                    "architecture template (JSON, docs/formats.md#templates; data/templates has examples; "
                    "'loopscale solve --print-template' shows the one in force); warned of when it is not the "
                    "architecture of the runs the law was fitted on",
                    NULL, NULL},
    [O_PRINT_TEMPLATE] = SWITCH("print-template", "print the template in force and exit"),
    [O_FLOPS_CONVENTION] = {"flops-convention", 0, LS_OPTION_CHOICE, 0, "C", NO_RANGE,
                            "6nd|6nd+head|6nd+attn|6nd+attn+head", NULL, "the law's, else the template's",
                            "how training FLOPs are counted (docs/flops.md); attn needs the template's context, "
                            "head its vocab",
                            NULL, NULL},
    [O_SERVE_CONTEXT] = {"context", 0, LS_OPTION_COUNT, 0, "N", 1, 1e9, NULL, NULL, "no KV cache",
                         "tokens of context each served sequence keeps in the KV cache, e.g. 8192: memory "
                         "counts weights + cache + --activation-memory; every attention layer a token runs through, "
                         "each loop's included, keeps its own keys and values",
                         "Serving:", "tokens"},
    [O_BATCH] = {"batch", 0, LS_OPTION_COUNT, 0, "B", 1, 1e9, NULL, "1", NULL,
                 "sequences served at once, each with its own KV cache (with --context)", NULL, NULL},
    [O_KV_BITS] = {"kv-bits", 0, LS_OPTION_NUMBER, 0, "B", 1, 64, NULL, NULL, "--bits",
                   "bits per cached key or value element", NULL, "bits per element"},
    [O_ACTIVATION_MEMORY] = {"activation-memory", 0, LS_OPTION_BYTES, 0, "BYTES", 1, 1e21, NULL, NULL, "none",
                             "memory kept for activations and workspace, out of --mem", NULL, "bytes"},
    [O_INFERENCE_TOKENS] = {"inference-tokens", 0, LS_OPTION_COUNT, 0, "T", 1, 1e20, NULL, NULL, NULL,
                            "tokens the model will serve over its life: choose the configuration of least training "
                            "+ T x inference FLOPs among those within epsilon of the best loss (or reaching "
                            "--target-loss), training on fewer tokens than --flops buys where that is cheaper "
                            "(Sardana et al.)",
                            NULL, "tokens"},
    [O_TARGET_LOSS] = {"target-loss", 0, LS_OPTION_NUMBER, 0, "L", 1e-6, 100, NULL, NULL, NULL,
                       "the loss to reach at least cost: the cheapest training (+ inference with "
                       "--inference-tokens) that reaches L under the memory budget; --flops is then a ceiling",
                       NULL, "nats"},
    [O_QUANTISATION] = {"quantisation", 0, LS_OPTION_INPUT, 0, "FILE", NO_RANGE, NULL, NULL,
                        "the law's own, if it records one",
                        "the post-training quantisation penalty added to the loss below the trained precision "
                        "(Kumar et al.'s form): a law file, or a file with a \"quantisation\" member "
                        "(docs/formats.md#law-files)",
                        NULL, NULL},
    [O_BITS_COLUMN] = {"bits-column", 0, LS_OPTION_TEXT, 0, "COL", NO_RANGE, NULL, NULL, NULL,
                       "the column of the bits each run's weights were evaluated at: runs at 16 bits or more are "
                       "fitted as the law, and those below give the post-training quantisation penalty (each less "
                       "its full-precision run of the same configuration), whose constants in Kumar et al.'s form "
                       "the law file records",
                       NULL, NULL},
    [O_R_LIST] = {"R", 0, LS_OPTION_LIST, LS_OPTION_INTEGRAL, "LIST", 1, MAX_LOOPS, NULL, NULL, NULL,
                  "candidate loop counts", NULL, "loops"},
    [O_E_LIST] = {"E", 0, LS_OPTION_LIST, LS_OPTION_INTEGRAL, "LIST", 1, MAX_EXPERTS, NULL, NULL, NULL,
                  "candidate expert counts", NULL, "experts"},
    [O_N_ACT_LIST] = {"n-act", 0, LS_OPTION_LIST, 0, "LIST", 1, MAX_PARAMS, NULL, NULL, NULL,
                      "active sizes, comma-separated", NULL, "parameters"},
    [O_EPS] = {"eps", 0, LS_OPTION_NUMBER, 0, "X", 0, 10, NULL, NULL, "the law's fit RMSE, 0 if none",
               "tolerance in loss units", NULL, "nats"},
    [O_TABLE] = SWITCH("table", "also print every (E, R) candidate"),
    [O_UNCERTAINTY] = SWITCH("uncertainty", "re-solve under each bootstrap draw of the law: how often each (R*, E*) "
                                            "wins, intervals for N_act*, D* and the loss (the law needs at least "
                                            "20 draws)"),
    [O_POINTS] = {"points", 0, LS_OPTION_INTEGER, 0, "N", 2, 100000, NULL, "25", NULL,
                  "profile points per curve, from N*/30 to 30 N*", NULL, NULL},

    /* ---- isofit ---- */
    [O_METHOD] = {"method", 0, LS_OPTION_CHOICE, 0, "NAME", NO_RANGE, "parabola|minimum|akima", "parabola", NULL,
                  "each budget's optimum: the vertex of a parabola in ln N_act (Chinchilla's approach 2), its "
                  "lowest-loss run (approach 1), or the minimum of Akima's interpolant of ln L in ln N_act (Porian "
                  "et al.)",
                  NULL, NULL},
    [O_KEEP] = {"keep", 0, LS_OPTION_NUMBER, 0, "K", 1, 1e6, NULL, NULL, "all",
                "keep only the runs with N_act within a factor K of the budget's first optimum, then refit "
                "(Porian et al.'s filter)",
                NULL, NULL},
    [O_MIN_RUNS] = {"min-runs", 0, LS_OPTION_INTEGER, 0, "N", 1, 1000000, NULL, "3", NULL,
                    "runs a budget needs (a parabola needs 3 whatever N says)", NULL, NULL},

    [O_NOISE_DRAWS] = {"noise-draws", 0, LS_OPTION_INTEGER, 0, "N", 0, 1000000, NULL, "0", NULL,
                       "refit N copies of the runs with N(0, SD^2) added to every loss (Porian et al.): each budget's "
                       "optimum becomes the median of its copies', with percentile intervals; 0 (none) or at least "
                       "20; needs --noise-sd; not with --bootstrap",
                       NULL, NULL},
    [O_NOISE_SD] = {"noise-sd", 0, LS_OPTION_NUMBER, 0, "SD", 1e-9, 10, NULL, NULL, NULL,
                    "standard deviation of a run's final loss between seeds, in loss units; Porian et al. use 0.002 "
                    "(RefinedWeb) and 0.01 (OpenWebText2)",
                    NULL, "loss units"},

    /* ---- plan ---- */
    [O_BUDGET] = {"budget", 0, LS_OPTION_FLOPS, 0, "FLOPS", 1, MAX_FLOPS, NULL, NULL, NULL,
                  "training compute for the new runs, e.g. 5e21 (sum of 6 N_unroll D)", NULL, "FLOPs"},
    [O_GPU_HOURS] = {"gpu-hours", 0, LS_OPTION_NUMBER, 0, "H", 1e-3, 1e12, NULL, NULL, NULL,
                     "the same as GPU-hours, with --flop-rate: FLOPS = H * 3600 * RATE", NULL, "GPU hours"},
    [O_FLOP_RATE] = {"flop-rate", 0, LS_OPTION_FLOPS, 0, "RATE", 1, 1e21, NULL, NULL, NULL,
                     "FLOP/s one GPU sustains in training, e.g. 4e14", NULL, "FLOP/s"},
    [O_TARGET] = {"target", 0, LS_OPTION_TEXT, 0, "T", NO_RANGE, NULL, "decision", NULL,
                  "what the runs should pin down: 'decision', or 'params:NAME,...' to minimise the summed variance "
                  "of those parameters (natural units, e.g. params:alpha,beta); --flops is then needed only for "
                  "--validate to check the decision too",
                  NULL, NULL},
    [O_TOKENS_LIST] = {"tokens", 0, LS_OPTION_LIST, 0, "LIST", 1, MAX_TOKENS, NULL, NULL, NULL,
                       "training token counts, comma-separated", NULL, "tokens"},
    [O_CANDIDATES] = {"candidates", 0, LS_OPTION_INPUT, 0, "FILE", NO_RANGE, NULL, NULL, NULL,
                      "the candidates from a CSV of configurations instead of the four lists (columns n_act, tokens "
                      "or flops, R, E, as in a sweep; n_total, n_loop and k from the template when absent); the "
                      "decision is over its R and E values",
                      NULL, NULL},
    [O_HAVE] = {"have", 0, LS_OPTION_INPUT, 0, "SWEEP", NO_RANGE, NULL, NULL, NULL,
                "runs already trained: counted first, never chosen again", NULL, NULL},
    [O_NOISE] = {"noise", 0, LS_OPTION_NUMBER, 0, "SIGMA", 0, 1, NULL, NULL, NULL,
                 "spread of ln(loss) about the law (log-normal sigma)", NULL, "the log-normal sigma"},
    [O_DRAWS] = {"draws", 0, LS_OPTION_INTEGER, 0, "N", 1, 100000, NULL, "100", NULL,
                 "bootstrap draws of the prior to average over", NULL, NULL},
    [O_PRIOR_SD] = {"prior-sd", 0, LS_OPTION_NUMBER, 0, "X", 1e-6, 10, NULL, "1", NULL,
                    "weak prior on each fitted coordinate", NULL, "a prior's standard deviation"},
    [O_VALIDATE] = {"validate", 0, LS_OPTION_INTEGER, 0, "K", 1, 100000, NULL, NULL, NULL,
                    "draw K noisy sweeps from the truth for the planned design and for two baselines of the "
                    "baseline's compute: the candidates thinned uniformly, and a Chinchilla-style IsoFLOP design "
                    "(3 budgets x 8 sizes around the prior's optimum, for every R and E); fit each with the prior's "
                    "law, and compare how often the decision is right (R*, E* and N_act* within 10%) and the loss "
                    "regret",
                    "Validation by simulation:", NULL},
    [O_TRUTH] = {"truth", 0, LS_OPTION_INPUT, 0, "FILE", NO_RANGE, NULL, NULL, "the prior",
                 "the law the sweeps are drawn from", NULL, NULL},
    [O_SEARCH] = {"search", 0, LS_OPTION_INTEGER, 0, "K", 0, 100000, NULL, "32", NULL,
                  "judge the starting designs (c-optimal, IsoFLOP, mixtures) and local moves by K simulated sweeps "
                  "each, drawn from the prior's bootstrap draws, fitted and solved; the plan is the design with the "
                  "most right decisions (0: no simulation: the c-optimal design if it can be fitted, else the fittable "
                  "mixture with the least IsoFLOP share)",
                  NULL, NULL},
    [O_BASELINE_FLOPS] = {"baseline-flops", 0, LS_OPTION_FLOPS, 0, "F", 1, MAX_FLOPS, NULL, NULL, "the plan's",
                          "compute of each baseline", NULL, "FLOPs"},

    /* ---- one configuration ---- */
    [O_N_ACT] = {"n-act", 0, LS_OPTION_COUNT, 0, "N", 1, MAX_PARAMS, NULL, NULL, NULL, "active non-embedding parameters",
                 "One configuration (counts may end in k, M, B or G, T: 125M, 2.8B, 1.5T):", "parameters"},
    [O_N_TOTAL] = {"n-total", 0, LS_OPTION_COUNT, 0, "N", 1, MAX_PARAMS, NULL, NULL, "n-act", "all stored parameters",
                   NULL, "parameters"},
    [O_N_LOOP] = {"n-loop", 0, LS_OPTION_COUNT, 0, "N", 1, MAX_PARAMS, NULL, NULL, NULL,
                  "active parameters in the looped block (needed when R > 1)", NULL, "parameters"},
    [O_R] = {"R", 0, LS_OPTION_NUMBER, LS_OPTION_INTEGRAL, "R", 1, MAX_LOOPS, NULL, "1", NULL, "loop count", NULL, "loops"},
    [O_E] = {"E", 0, LS_OPTION_NUMBER, LS_OPTION_INTEGRAL, "E", 1, MAX_EXPERTS, NULL, "1", NULL,
             "routed experts per MoE layer", NULL, "experts"},
    [O_K] = {"k", 0, LS_OPTION_NUMBER, LS_OPTION_INTEGRAL, "K", 1, MAX_EXPERTS, NULL, "1", NULL,
             "experts chosen per token", NULL, "experts per token"},
    [O_TOKENS] = {"tokens", 0, LS_OPTION_COUNT, 0, "D", 1, MAX_TOKENS, NULL, NULL, NULL, "training tokens", NULL, "tokens"},
    [O_UNIQUE_TOKENS] = {"unique-tokens", 0, LS_OPTION_COUNT, 0, "U", 1, MAX_TOKENS, NULL, NULL, "unlimited",
                         "unique tokens the D tokens repeat (read by the data-constrained law; refused by the "
                         "others)",
                         NULL, "tokens"},

    /* ---- shape ---- */
    [O_SHAPE] = {"shape", 0, LS_OPTION_INPUT, 0, "FILE", NO_RANGE, NULL, NULL, NULL,
                 "a template that describes a model (JSON, docs/formats.md#templates; data/templates has the "
                 "paper's, Foil's, Huginn's and looped nanochat's), its keys these settings ('_' for '-', e.g. "
                 "d_model, \"attention\": \"per-loop\"); --format json output reads back too",
                 "Shape (options override a --shape file):", NULL},
    [O_D_MODEL] = {"d-model", 0, LS_OPTION_INTEGER, 0, "D", 1, 1e12, NULL, NULL, NULL, "model width (required)", NULL, NULL},
    [O_D_FF] = {"d-ff", 0, LS_OPTION_INTEGER, 0, "F", 1, 1e12, NULL, NULL, NULL,
                "FFN width of a dense layer; each expert is F / k wide", NULL, NULL},
    [O_D_EXPERT] = {"d-expert", 0, LS_OPTION_INTEGER, 0, "W", 1, 1e12, NULL, NULL, NULL,
                    "or the expert width itself (F = k W); one of the two is required", NULL, NULL},
    [O_TOP_K] = {"top-k", 'k', LS_OPTION_INTEGER, 0, "K", 1, 1000000, NULL, NULL, NULL, "experts per token", NULL, NULL},
    [O_VOCAB] = {"vocab", 0, LS_OPTION_INTEGER, 0, "V", 1, 1e12, NULL, NULL, NULL, "vocabulary size (required)", NULL, NULL},
    [O_EXPERTS] = {"experts", 0, LS_OPTION_INTEGER, 0, "E", 1, 1e12, NULL, "1", NULL,
                   "routed experts per block layer (1: dense)", NULL, NULL},
    [O_LAYERS] = {"layers", 0, LS_OPTION_INTEGER, 0, "D", 1, 1e12, NULL, NULL, NULL,
                  "layers in the looped block (required)", NULL, NULL},
    [O_LOOPS] = {"loops", 0, LS_OPTION_INTEGER, 0, "L", 1, 1e12, NULL, "1", NULL, "times the block runs", NULL, NULL},
    [O_HEAD_LAYERS] = {"head-layers", 0, LS_OPTION_INTEGER, 0, "H", 0, 1e12, NULL, "0", NULL, "prelude layers, run once",
                       NULL, NULL},
    [O_TAIL_LAYERS] = {"tail-layers", 0, LS_OPTION_INTEGER, 0, "T", 0, 1e12, NULL, "0", NULL, "coda layers, run once",
                       NULL, NULL},
    [O_HEAD_EXPERTS] = {"head-experts", 0, LS_OPTION_INTEGER, 0, "N", 1, 1e12, NULL, NULL, "E",
                        "experts per prelude layer, 1 for a dense FFN", NULL, NULL},
    [O_TAIL_EXPERTS] = {"tail-experts", 0, LS_OPTION_INTEGER, 0, "N", 1, 1e12, NULL, NULL, "as --head-experts",
                        "experts per coda layer", NULL, NULL},
    [O_ATTENTION] = {"attention", 0, LS_OPTION_CHOICE, 0, "MODE", NO_RANGE, "tied|per-loop", "tied", NULL,
                     "tied: D attention sets shared by every loop; per-loop: D L sets, one per loop (Foil's untied "
                     "attention)",
                     NULL, NULL},
    [O_EMBEDDINGS] = {"embeddings", 0, LS_OPTION_CHOICE, 0, "MODE", NO_RANGE, "untied|tied", "untied", NULL,
                      "untied: embedding and LM head, vocab x d each; tied: once", NULL, NULL},
    [O_HEADS] = {"heads", 0, LS_OPTION_INTEGER, 0, "N", 1, 1e12, NULL, NULL, NULL,
                 "grouped-query attention: N query heads, G key/value heads of size h, d h (2 N + 2 G) "
                 "parameters a set (without --heads, 4 d^2)",
                 NULL, NULL},
    [O_KV_HEADS] = {"kv-heads", 0, LS_OPTION_INTEGER, 0, "G", 1, 1e12, NULL, NULL, "G = N", "key/value heads", NULL, NULL},
    [O_HEAD_DIM] = {"head-dim", 0, LS_OPTION_INTEGER, 0, "h", 1, 1e12, NULL, NULL, "h = d / N", "head size", NULL, NULL},
    [O_NORM_PARAMS] = SWITCH("norm-params", "count RMSNorm gains: d before every attention set and FFN, and a final "
                                            "one (--norms pre; default: norms without parameters)"),
    [O_NORMS] = {"norms", 0, LS_OPTION_CHOICE, 0, "KIND", NO_RANGE, "none|pre|sandwich", NULL, "none",
                 "RMSNorm gains of d: pre, before every attention set and MLP; sandwich, before and after each "
                 "(Huginn's); both with a final one (--norm-params is pre)",
                 NULL, NULL},
    [O_EMBEDDING_NORM] = SWITCH("embedding-norm", "also a norm of d after the embedding, run once (looped "
                                                  "nanochat's)"),
    [O_LOOP_NORM] = SWITCH("loop-norm", "also a norm of d at the end of every loop (looped nanochat's)"),
    [O_MLP] = {"mlp", 0, LS_OPTION_CHOICE, 0, "KIND", NO_RANGE, "swiglu|gelu|relu2", "swiglu", NULL,
               "the MLP of every layer and expert: swiglu, gated, 3 d w parameters; gelu or relu2, 2 d w",
               NULL, NULL},
    [O_SHARED_EXPERTS] = {"shared-experts", 0, LS_OPTION_INTEGER, 0, "S", 0, 1e12, NULL, "0", NULL,
                          "experts every token uses, besides its top-k, in each layer with experts (d_expert wide)",
                          NULL, NULL},
    [O_MOE_LAYERS] = {"moe-layers", 0, LS_OPTION_INTEGER, 0, "M", 0, 1e12, NULL, NULL, "all D",
                      "layers of the looped block with experts; the others have the dense FFN", NULL, NULL},
    [O_INJECTION] = {"injection", 0, LS_OPTION_CHOICE, 0, "KIND", NO_RANGE, "none|concat|add", "none", NULL,
                     "how the embedded input enters every loop: concat, concatenated to the state and projected "
                     "back (Huginn's adapter, 2 d^2 in the block); add, added (no parameters)",
                     NULL, NULL},
    [O_CONTEXT] = {"context", 0, LS_OPTION_INTEGER, 0, "N", 0, 1e12, NULL, NULL, NULL,
                   "attention-score FLOPs for a token attending to N positions: 4 N heads h per attention layer "
                   "run (0: left out)",
                   NULL, NULL},
    [O_FLATTEN] = {"flatten", 0, LS_OPTION_INTEGER, 0, "K", 1, 30, NULL, NULL, NULL,
                   "also the ladder (E, D, L) -> (2E, D/2, 2L), K steps, with tied and per-loop attention side by "
                   "side",
                   "Output:", NULL},
    [O_MUP_BASE_WIDTH] = {"mup-base-width", 0, LS_OPTION_NUMBER, 0, "W", 1, 1e9, NULL, NULL, NULL,
                          "muP multipliers for a base model of width W: init variance and learning rate of hidden "
                          "and output weights x W / d",
                          NULL, "dimensions"},

    /* ---- route, exit ---- */
    [O_PER_LOOP] = SWITCH("per-loop", "also a row for every loop"),
    [O_PRELUDE] = {"prelude", 0, LS_OPTION_NUMBER, 0, "P", 0, 1e6, NULL, "0", NULL, "what runs before the loops", NULL, "loop-block costs"},
    [O_LOOP] = {"loop", 0, LS_OPTION_NUMBER, 0, "B", 1e-6, 1e6, NULL, "1", NULL, "one loop", NULL, "relative cost"},
    [O_CODA] = {"coda", 0, LS_OPTION_NUMBER, 0, "C", 0, 1e6, NULL, "0", NULL,
                "what runs after the exit: the tail layers and the LM head", NULL, "loop-block costs"},
    [O_THRESHOLDS] = {"thresholds", 0, LS_OPTION_LIST, 0, "LIST", 0, 100, NULL, NULL,
                      "every float with 10 significant bits, about 0.1% apart, where an exit moves",
                      "the entropy thresholds to evaluate", "Sweep:", "nats"},
    [O_AT] = {"at", 0, LS_OPTION_LIST, 0, "LIST", 0, 100, NULL, "5,10,20,30", NULL,
              "savings in percent to give the perplexity at", NULL, "percent"},
    [O_ROWS] = {"rows", 0, LS_OPTION_INTEGER, 0, "N", 2, 1000000, NULL, "20", NULL,
                "thresholds shown in the table, spread over the savings (--format csv gives every one)", NULL, NULL},

    /* ---- output ---- */
    [O_FORMAT] = {"format", 0, LS_OPTION_CHOICE, 0, "FMT", NO_RANGE, "table|csv|tsv|json|md|html", NULL, NULL,
                  "what standard output shows", NULL, NULL},
    [O_OUTPUT] = {"output", 'o', LS_OPTION_OUTPUT, 0, "FILE", NO_RANGE, NULL, NULL, NULL, "output file", NULL, NULL},
    [O_PLOT] = {"plot", 0, LS_OPTION_OUTPUT, 0, "FILE", NO_RANGE, NULL, NULL, NULL, "draw the figure", NULL, NULL},
    [O_PLOT_RHO] = {"plot-rho", 0, LS_OPTION_OUTPUT, 0, "FILE", NO_RANGE, NULL, NULL, NULL,
                    "draw rho_eff(R) = N_eff / N_act for each E, with its ceilings (the paper's figure 1c)", NULL, NULL},
    [O_PLOT_SIZE] = {"plot-size", 0, LS_OPTION_SIZE, 0, "WxH", 1, 100, NULL, NULL, "the plot's own",
                     "the whole figure's size in inches, or cm with a cm suffix, e.g. --plot-size 6.5x4 or "
                     "--plot-size 16x10cm; 1 to 100 inches each way",
                     "Plots are SVG, PDF or PNG, as the file name ends (.svg, .pdf, .png):", NULL},
    [O_PLOT_FONT_SIZE] = {"plot-font-size", 0, LS_OPTION_NUMBER, 0, "PT", 4, 40, NULL, "9", NULL, "text size in points",
                          NULL, "points"},
    [O_PLOT_TITLE] = {"plot-title", 0, LS_OPTION_TEXT, 0, "TEXT", NO_RANGE, NULL, NULL, NULL,
                      "the figure's title instead of the plot's own", NULL, NULL},
    [O_PLOT_NO_TITLE] = SWITCH("plot-no-title", "no title (a paper's caption says it)"),
    [O_PLOT_STYLE] = {"plot-style", 0, LS_OPTION_CHOICE, 0, "STYLE", NO_RANGE, "light|print", "light", NULL,
                      "light (grid lines, for screens) or print (no grid, ticks inside, heavier lines)", NULL, NULL},
    [O_PLOT_CAPTION] = SWITCH("plot-caption", "write the notes (what is held fixed, the RMSE) under the panels; they "
                                              "always go in the file's metadata"),
    [O_DPI] = {"dpi", 0, LS_OPTION_NUMBER, 0, "N", 30, 1200, NULL, "150", NULL, "PNG resolution in dots per inch", NULL, "dots per inch"},
};

/* ---- parsing values ---------------------------------------------------------- */

static int value_error(const char *flag, const char *text, size_t len, numtext_status st, ls_error *err)
{
    return ls_error_set(err, LS_ERR_USAGE, "%s: '%.*s' %s", flag, (int)len, text, ls_numtext_reason(st));
}

/* The option's range, checked after its own checks (a number, positive):
 * a finite value far outside what the option can mean (--E 1e21, --mem
 * 1e308, --noise 300) would not fail but give a meaningless answer. */
static int check_range(const ls_option *o, const char *flag, const char *text, size_t len, double value,
                       ls_error *err)
{
    if (isnan(o->min))
        return 0;
    int integral = (o->flags & LS_OPTION_INTEGRAL) || o->type == LS_OPTION_INTEGER;
    int open = (o->flags & LS_OPTION_OPEN) != 0;
    int inside = open ? value > o->min && value < o->max : value >= o->min && value <= o->max;
    if (inside && (!integral || value == floor(value)))
        return 0;
    char unit[64] = "";
    if (o->unit)
        snprintf(unit, sizeof unit, " (%s)", o->unit);
    if (inside)
        return ls_error_set(err, LS_ERR_USAGE, "%s: '%.*s' is not an integer%s", flag, (int)len, text, unit);
    if (open)
        return ls_error_set(err, LS_ERR_USAGE, "%s: '%.*s' is not between %g and %g%s", flag, (int)len, text, o->min,
                            o->max, unit);
    return ls_error_set(err, LS_ERR_USAGE, "%s: '%.*s' is outside its range: %s %g to %g%s", flag, (int)len, text,
                        integral ? "an integer from" : "from", o->min, o->max, unit);
}

/* Two unit systems, kept apart because they disagree on B.  A count of
 * FLOPs, tokens or parameters takes the SI suffixes logs write, k M B/G T,
 * and P E for FLOP budgets: B is a billion.  A memory size takes bytes: k M
 * G T P E (powers of 1000) or Ki Mi Gi Ti (powers of 1024), each with an
 * optional B: B is a byte.  So 2.8B given for FLOPs is 2.8e9, 3GB given for
 * FLOPs is refused as a size, and 3B given for memory is refused as
 * ambiguous (3 bytes, or 3 billion?). */
typedef enum { FLOPS_OK, FLOPS_BAD, FLOPS_IS_BYTES } flops_text;

static flops_text parse_flops_text(const char *text, size_t len, int with_pe, double *out, numtext_status *st)
{
    *st = ls_numtext_parse_count(text, len, out);
    if (*st == NUMTEXT_OK)
        return FLOPS_OK;
    while (len && isspace((unsigned char)*text))
        text++, len--;
    while (len && isspace((unsigned char)text[len - 1]))
        len--;
    char last = len ? text[len - 1] : '\0';
    if (with_pe && len >= 2 && (last == 'P' || last == 'p' || last == 'E')) {
        double value = 0;
        numtext_status head = ls_numtext_parse_double(text, len - 1, &value);
        if (head == NUMTEXT_OK && isfinite(value * (last == 'E' ? 1e18 : 1e15))) {
            *out = value * (last == 'E' ? 1e18 : 1e15);
            *st = NUMTEXT_OK;
            return FLOPS_OK;
        }
        if (head == NUMTEXT_OK) {
            *st = NUMTEXT_RANGE;
            return FLOPS_BAD;
        }
    }
    double bytes = 0;
    if (ls_numtext_parse_scaled(text, len, &bytes) == NUMTEXT_OK)
        return FLOPS_IS_BYTES;
    return FLOPS_BAD;
}

static int count_error(const char *flag, const char *text, size_t len, flops_text kind, numtext_status st,
                       int flops, ls_error *err)
{
    if (kind == FLOPS_IS_BYTES)
        return ls_error_set(err, LS_ERR_USAGE, "%s: '%.*s' is a size in bytes; a count %stakes k, M, B or G, T, P, E "
                            "(2.8B is 2.8e9)", flag, (int)len, text, flops ? "of FLOPs " : "");
    return value_error(flag, text, len, st, err);
}

/* A positive number below DBL_MIN reads as a range error; say why. */
static int tiny_error(const char *flag, const char *text, size_t len, ls_error *err)
{
    char copy[64];
    if (len >= sizeof copy)
        return 0;
    memcpy(copy, text, len);
    copy[len] = '\0';
    double tiny = strtod(copy, NULL);
    if (tiny > 0 && tiny < DBL_MIN)
        return ls_error_set(err, LS_ERR_USAGE, "%s: '%.*s' is below the smallest normal double (%g); subnormal "
                            "values lose precision and are refused", flag, (int)len, text, DBL_MIN);
    return 0;
}

/* One number of a LIST or FLOPS_LIST item, or of a single-valued numeric
 * option: its own syntax, then positive where the type needs it, then the
 * range. */
static int parse_number(const ls_option *o, const char *flag, const char *text, size_t len, double *out,
                        ls_error *err)
{
    numtext_status st;
    flops_text kind = FLOPS_OK;
    switch (o->type) {
    case LS_OPTION_FLOPS:
    case LS_OPTION_FLOPS_LIST: kind = parse_flops_text(text, len, 1, out, &st); break;
    case LS_OPTION_COUNT:
        kind = parse_flops_text(text, len, 0, out, &st);
        if (kind == FLOPS_BAD)
            kind = ls_numtext_parse_double(text, len, out) == NUMTEXT_OK ? FLOPS_OK : FLOPS_BAD;
        break;
    case LS_OPTION_BYTES: {
        size_t n = len;
        while (n && isspace((unsigned char)text[n - 1]))
            n--;
        /* A B straight after the digits: a byte here, a billion in a count. */
        if (n >= 2 && (text[n - 1] == 'B' || text[n - 1] == 'b') &&
            (isdigit((unsigned char)text[n - 2]) || text[n - 2] == '.' || text[n - 2] == ' '))
            return ls_error_set(err, LS_ERR_USAGE, "%s: '%.*s' is ambiguous: B is a byte in a size but a billion in a "
                                "count; write 3GB for 3e9 bytes, or the number alone for bytes", flag, (int)len,
                                text);
        st = ls_numtext_parse_scaled(text, len, out);
        kind = st == NUMTEXT_OK ? FLOPS_OK : FLOPS_BAD;
        break;
    }
    case LS_OPTION_INTEGER: {
        long v = 0;
        st = ls_numtext_parse_long(text, len, &v);
        if (st != NUMTEXT_OK)
            return value_error(flag, text, len, st, err);
        if ((double)v < o->min || (double)v > o->max)
            return ls_error_set(err, LS_ERR_USAGE, "%s: '%.*s' is outside [%.0f, %.0f]", flag, (int)len, text, o->min,
                                o->max);
        *out = (double)v;
        return 0;
    }
    default:
        st = ls_numtext_parse_double(text, len, out);
        kind = st == NUMTEXT_OK ? FLOPS_OK : FLOPS_BAD;
        break;
    }
    if (kind != FLOPS_OK) {
        if (kind == FLOPS_BAD && st == NUMTEXT_RANGE && tiny_error(flag, text, len, err))
            return err->code;
        return count_error(flag, text, len, kind, st, o->type == LS_OPTION_FLOPS || o->type == LS_OPTION_FLOPS_LIST,
                           err);
    }
    int positive = o->type == LS_OPTION_FLOPS || o->type == LS_OPTION_FLOPS_LIST || o->type == LS_OPTION_BYTES ||
                   o->type == LS_OPTION_COUNT || o->type == LS_OPTION_LIST ||
                   (o->type == LS_OPTION_NUMBER && o->min > 0);
    if (positive && !(*out > 0))
        return ls_error_set(err, LS_ERR_USAGE, "%s: '%.*s' must be %s", flag, (int)len, text,
                            o->type == LS_OPTION_LIST || o->type == LS_OPTION_FLOPS_LIST ? "a positive number"
                                                                                         : "positive");
    return check_range(o, flag, text, len, *out, err);
}

/* LO:HI:N — N budgets evenly spaced in ln F from LO to HI. */
static int parse_flops_range(const ls_option *o, const char *flag, const char *text, size_t len, req_value *v,
                             ls_error *err)
{
    const char *c1 = memchr(text, ':', len);
    const char *c2 = c1 ? memchr(c1 + 1, ':', len - (size_t)(c1 + 1 - text)) : NULL;
    if (!c1 || !c2 || memchr(c2 + 1, ':', len - (size_t)(c2 + 1 - text)))
        return ls_error_set(err, LS_ERR_USAGE, "%s: '%.*s' is not a range LO:HI:N (e.g. 1e18:1e24:13)", flag, (int)len,
                            text);
    double lo, hi;
    long n = 0;
    if (parse_number(o, flag, text, (size_t)(c1 - text), &lo, err) != 0 ||
        parse_number(o, flag, c1 + 1, (size_t)(c2 - c1 - 1), &hi, err) != 0)
        return err->code;
    size_t nlen = len - (size_t)(c2 + 1 - text);
    if (ls_numtext_parse_long(c2 + 1, nlen, &n) != NUMTEXT_OK || n < 2 || n > FLOPS_RANGE_MAX)
        return ls_error_set(err, LS_ERR_USAGE, "%s: '%.*s': the count N is not a whole number from 2 to %d", flag,
                            (int)len, text, FLOPS_RANGE_MAX);
    if (!(hi > lo))
        return ls_error_set(err, LS_ERR_USAGE, "%s: '%.*s': HI must be greater than LO", flag, (int)len, text);
    double *list = malloc((size_t)n * sizeof *list);
    if (!list)
        return res_oom(err);
    for (long i = 0; i < n; i++) {
        /* To 13 significant digits (exp and log lose up to 1e-14 here), so
         * that 1e18:1e24:13 gives 1e21 and not 9.999999999999983e+20; the
         * ends exactly as given. */
        char digits[32];
        snprintf(digits, sizeof digits, "%.13g", exp(log(lo) + (log(hi) - log(lo)) * (double)i / (double)(n - 1)));
        list[i] = i == 0 ? lo : i == n - 1 ? hi : strtod(digits, NULL);
        if (i > 0 && !(list[i] > list[i - 1])) {
            free(list);
            return ls_error_set(err, LS_ERR_USAGE, "%s: '%.*s': the range is finer than 13 significant digits tell "
                                "apart (two budgets round to one)", flag, (int)len, text);
        }
    }
    free(v->list);
    v->list = list;
    v->n = (size_t)n;
    return 0;
}

static int parse_list(const ls_option *o, const char *flag, const char *text, size_t len, req_value *v,
                      ls_error *err)
{
    if (o->type == LS_OPTION_FLOPS_LIST && memchr(text, ':', len))
        return parse_flops_range(o, flag, text, len, v, err);
    size_t count = 1;
    for (size_t i = 0; i < len; i++)
        count += text[i] == ',';
    double *list = malloc(count * sizeof *list);
    if (!list)
        return res_oom(err);
    const char *p = text, *end = text + len;
    for (size_t i = 0; i < count; i++) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        size_t n = comma ? (size_t)(comma - p) : (size_t)(end - p);
        int status = parse_number(o, flag, p, n, &list[i], err);
        for (size_t j = 0; status == 0 && j < i; j++)
            if (list[j] == list[i])
                status = ls_error_set(err, LS_ERR_USAGE, "%s: '%.*s' given twice", flag, (int)n, p);
        if (status != 0) {
            free(list);
            return status;
        }
        p = comma ? comma + 1 : end;
    }
    free(v->list);
    v->list = list;
    v->n = count;
    return 0;
}

static int parse_choice(const ls_option *o, const char *flag, const char *text, size_t len, ls_error *err)
{
    size_t count = 0;
    for (const char *c = o->choices; *c; count++) {
        size_t n = strcspn(c, "|");
        if (n == len && strncmp(c, text, len) == 0)
            return 0;
        c += n + (c[n] == '|');
    }
    /* "is not chinchilla", "is not huber or mse", "is not one of table, csv, json" */
    char list[160] = "";
    size_t k = 0;
    for (const char *c = o->choices; *c; k++) {
        size_t n = strcspn(c, "|"), used = strlen(list);
        snprintf(list + used, sizeof list - used, "%s%.*s", k == 0 ? "" : count == 2 ? " or " : ", ", (int)n, c);
        c += n + (c[n] == '|');
    }
    return ls_error_set(err, LS_ERR_USAGE, "%s: '%.*s' is not %s%s", flag, (int)len, text, count > 2 ? "one of " : "",
                        list);
}

static int parse_laws(const char *flag, const char *text, size_t len, req_value *v, ls_error *err)
{
    if (len == 0)
        return ls_error_set(err, LS_ERR_USAGE, "%s: no law given", flag);
    size_t count = 1;
    for (size_t i = 0; i < len; i++)
        count += text[i] == ',';
    ls_law_kind *laws = calloc(count, sizeof *laws);
    if (!laws)
        return res_oom(err);
    const char *p = text, *end = text + len;
    for (size_t k = 0; k < count; k++) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        size_t n = comma ? (size_t)(comma - p) : (size_t)(end - p);
        char item[96];
        int status = 0;
        ls_error why;
        if (n == 0)
            status = ls_error_set(err, LS_ERR_USAGE, "%s: empty item in '%.*s'", flag, (int)len, text);
        else if (n >= sizeof item)
            status = ls_error_set(err, LS_ERR_USAGE, "%s: '%.40s...' is not a law", flag, p);
        else {
            memcpy(item, p, n);
            item[n] = '\0';
            if (ls_law_kind_parse(item, &laws[k], &why) != 0)
                status = ls_error_set(err, LS_ERR_USAGE, "%s: %s", flag, why.message);
        }
        for (size_t j = 0; status == 0 && j < k; j++)
            if (laws[j].base == laws[k].base && laws[j].mapping == laws[k].mapping)
                status = ls_error_set(err, LS_ERR_USAGE, "%s: '%s' given twice", flag, item);
        if (status != 0) {
            free(laws);
            return status;
        }
        p = comma ? comma + 1 : end;
    }
    free(v->laws);
    v->laws = laws;
    v->n = count;
    return 0;
}

static int parse_axes(const char *flag, const char *text, size_t len, req_value *v, ls_error *err)
{
    if (len == 0)
        return ls_error_set(err, LS_ERR_USAGE, "%s: no axis given", flag);
    size_t k = 0;
    const char *p = text, *end = text + len;
    while (p <= end) {
        const char *comma = memchr(p, ',', (size_t)(end - p));
        size_t n = comma ? (size_t)(comma - p) : (size_t)(end - p);
        char item[8];
        if (n == 0)
            return ls_error_set(err, LS_ERR_USAGE, "%s: empty item in '%.*s'", flag, (int)len, text);
        int a = -1;
        if (n < sizeof item) {
            memcpy(item, p, n);
            item[n] = '\0';
            a = ls_holdout_axis_from_name(item);
        }
        if (a < 0)
            return ls_error_set(err, LS_ERR_USAGE, "%s: '%.*s' is not one of R, N, D, E", flag, (int)n, p);
        for (size_t j = 0; j < k; j++)
            if (v->axes[j] == (ls_holdout_axis)a)
                return ls_error_set(err, LS_ERR_USAGE, "%s: '%.*s' given twice", flag, (int)n, p);
        v->axes[k++] = (ls_holdout_axis)a;
        if (!comma)
            break;
        p = comma + 1;
    }
    v->n = k;
    return 0;
}

/* WxH in inches, or with an in or cm suffix; stored in points. */
static int parse_size(const ls_option *o, const char *flag, const char *text, size_t len, req_value *v,
                      ls_error *err)
{
    size_t n = len;
    while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == '\t'))
        n--; /* trailing blanks, as every number option allows */
    const char *x = memchr(text, 'x', n);
    if (!x)
        x = memchr(text, 'X', n);
    double unit = 72.0; /* points per inch */
    if (n > 2 && strncmp(text + n - 2, "cm", 2) == 0) {
        unit = 72.0 / 2.54;
        n -= 2;
    } else if (n > 2 && strncmp(text + n - 2, "in", 2) == 0) {
        n -= 2;
    }
    if (!x || x >= text + n || x == text || x + 1 == text + n)
        return ls_error_set(err, LS_ERR_USAGE, "%s: '%.*s' is not WIDTHxHEIGHT, e.g. 6.5x4 or 16x10cm", flag,
                            (int)len, text);
    ls_option number = *o;
    number.type = LS_OPTION_NUMBER;
    number.min = number.max = NAN; /* the range is checked in inches below */
    double w, h;
    if (parse_number(&number, flag, text, (size_t)(x - text), &w, err) != 0 ||
        parse_number(&number, flag, x + 1, (size_t)(text + n - x - 1), &h, err) != 0)
        return err->code;
    if (!(w > 0 && h > 0))
        return ls_error_set(err, LS_ERR_USAGE, "%s: '%.*s' must be positive", flag, (int)len, text);
    if (w * unit < 72 * o->min || h * unit < 72 * o->min || w * unit > 72 * o->max || h * unit > 72 * o->max)
        return ls_error_set(err, LS_ERR_USAGE, "%s: '%.*s' must be between %g and %g inches each way", flag, (int)len,
                            text, o->min, o->max);
    v->number = w * unit;
    v->number2 = h * unit;
    return 0;
}

int opt_parse(const ls_option *o, const char *flag, const char *text, size_t len, req_value *v, ls_error *err)
{
    switch (o->type) {
    case LS_OPTION_SWITCH: return 0;
    case LS_OPTION_TEXT:
    case LS_OPTION_INPUT:
    case LS_OPTION_OUTPUT:
    case LS_OPTION_PAIR:
    case LS_OPTION_CONDITION: return 0; /* checked where they are used: a file, a column, a parameter */
    case LS_OPTION_CHOICE: return parse_choice(o, flag, text, len, err);
    case LS_OPTION_LIST:
    case LS_OPTION_FLOPS_LIST: return parse_list(o, flag, text, len, v, err);
    case LS_OPTION_LAW:
    case LS_OPTION_LAWS: {
        int status = parse_laws(flag, text, len, v, err);
        if (status == 0 && o->type == LS_OPTION_LAW && v->n != 1)
            return ls_error_set(err, LS_ERR_USAGE, "%s: '%.*s': give one law", flag, (int)len, text);
        return status;
    }
    case LS_OPTION_AXES: return parse_axes(flag, text, len, v, err);
    case LS_OPTION_SIZE: return parse_size(o, flag, text, len, v, err);
    case LS_OPTION_LEVEL: {
        ls_option number = *o;
        number.type = LS_OPTION_NUMBER;
        number.min = number.max = NAN;
        if (parse_number(&number, flag, text, len, &v->number, err) != 0)
            return err->code;
        if (!(v->number >= o->min && v->number <= o->max))
            return ls_error_set(err, LS_ERR_USAGE, "%s: '%.*s' is not a usable level: give one from %g to %g (0.95 is "
                                "a 95%% interval)", flag, (int)len, text, o->min, o->max);
        return 0;
    }
    default: return parse_number(o, flag, text, len, &v->number, err);
    }
}
