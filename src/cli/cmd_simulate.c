/*
 * loopscale simulate — draw a synthetic sweep from a known law.
 */
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "commands.h"
#include "loopscale/arch.h"
#include "outfile_internal.h"
#include "simulate_internal.h"

static const char USAGE[] =
    "Usage: loopscale simulate --law FILE --n-act LIST --tokens LIST [OPTIONS]\n"
    "\n"
    "Draw a sweep from a law (the truth): one run for every combination of N_act, tokens, E\n"
    "and R, mapped through the architecture template to N_total and N_loop, with loss =\n"
    "L_truth * exp(SIGMA z), z standard normal.  Writes CSV (gzip when FILE ends in .gz, in any case).\n"
    "Columns: n_act,n_total,n_loop,R,E,k,tokens,flops,loss.\n"
    "\n"
    "  -l, --law FILE          the truth (law file)\n"
    "      --n-act LIST        active parameters, comma-separated (e.g. 3e8,6e8,1e9)\n"
    "      --tokens LIST       training tokens\n"
    "      --E LIST            experts (default 1)\n"
    "      --R LIST            loop counts (default 1)\n"
    "      --template FILE     architecture template (JSON; default: the paper's middle-cycle\n"
    "                          looping, see 'loopscale solve --print-template')\n"
    CLI_FLOPS_HELP
    "                          for the flops column (default: the law's, else the template's)\n"
    "      --noise SIGMA       log-normal noise on the loss (default 0)\n"
    "      --seed S            random seed (default 1)\n"
    CLI_FORCE_HELP
    "  -o, --output FILE       output file (default: standard output)\n"
    "  -h, --help              show this help\n";

enum { OPT_N_ACT = OPT_COMMAND_FIRST, OPT_TOKENS, OPT_E, OPT_R, OPT_NOISE };

int cmd_simulate(int argc, char **argv)
{
    const char *cmd = "simulate";
    static const struct option longopts[] = {
        CLI_HELP_OPTION,
        {"law", required_argument, NULL, 'l'},
        {"force", no_argument, NULL, OPT_FORCE},
        {"n-act", required_argument, NULL, OPT_N_ACT},
        {"tokens", required_argument, NULL, OPT_TOKENS},
        {"E", required_argument, NULL, OPT_E},
        {"R", required_argument, NULL, OPT_R},
        {"template", required_argument, NULL, OPT_TEMPLATE},
        CLI_FLOPS_OPTION,
        {"noise", required_argument, NULL, OPT_NOISE},
        {"seed", required_argument, NULL, OPT_SEED},
        {"output", required_argument, NULL, 'o'},
        {NULL, 0, NULL, 0}};
    const char *law_path = NULL, *template_path = NULL, *output = "-";
    double one = 1.0, default_e = 1.0;
    double *n_act = NULL, *tokens = NULL, *E = NULL, *R = NULL;
    ls_simulate_grid grid = {NULL, 0, NULL, 0, &default_e, 1, &one, 1};
    ls_simulate_options so = {0.0, 1};
    int status = 0, opt, force = 0, flops_given = 0, seed_given = 0;
    ls_law_flops_kind flops_kind = LS_LAW_FLOPS_6ND;
    opterr = 0;
    while (status == 0 && (opt = cli_getopt(argc, argv, ":hl:o:", longopts, NULL, NULL)) != -1) {
        switch (opt) {
        case 'h': status = -1; break;
        case 'l': law_path = optarg; break;
        case OPT_FORCE: force = 1; break;
        case 'o': output = optarg; break;
        case OPT_N_ACT: status = cli_parse_sizes(cmd, "--n-act", optarg, &n_act, &grid.n_n_act); break;
        case OPT_TOKENS: status = cli_parse_list(cmd, "--tokens", optarg, &tokens, &grid.n_tokens); break;
        case OPT_E: status = cli_parse_list(cmd, "--E", optarg, &E, &grid.n_E); break;
        case OPT_R: status = cli_parse_list(cmd, "--R", optarg, &R, &grid.n_R); break;
        case OPT_TEMPLATE: template_path = optarg; break;
        case OPT_FLOPS_CONVENTION:
            status = cli_parse_flops_convention(cmd, optarg, &flops_kind);
            flops_given = 1;
            break;
        case OPT_NOISE:
            status = cli_parse_double(cmd, "--noise", optarg, &so.noise_sigma);
            if (status == 0 && so.noise_sigma < 0)
                status = cli_usage_error(cmd, "--noise: '%s' must not be negative", optarg);
            break;
        case OPT_SEED:
            seed_given = 1;
            status = cli_parse_seed(cmd, optarg, &so.seed);
            break;
        default: status = cli_option_error(cmd, opt, argv); break;
        }
    }
    grid.n_act = n_act;
    grid.tokens = tokens;
    if (E)
        grid.E = E;
    if (R)
        grid.R = R;
    ls_lawfile *lf = NULL;
    ls_arch_template tmpl;
    ls_arch_template_default(&tmpl);
    ls_error err;
    if (status == -1) {
        free(n_act);
        free(tokens);
        free(E);
        free(R);
        return cli_help(USAGE);
    }
    if (status == 0 && seed_given && !(so.noise_sigma > 0))
        status = cli_usage_error(cmd, "--seed has no effect without --noise SIGMA (above 0)");
    if (status == 0) {
        if (!law_path)
            status = cli_usage_error(cmd, "give the truth with --law FILE");
        else if (!n_act || !tokens)
            status = cli_usage_error(cmd, "give --n-act and --tokens");
        else if (optind < argc)
            status = cli_usage_error(cmd, "unexpected argument '%s'", argv[optind]);
    }
    if (status == 0) {
        cli_file_input("--law", law_path);
        cli_file_input("--template", template_path);
        cli_file_output("-o", output);
        status = cli_files_check(cmd);
    }
    if (status == 0 && template_path && ls_arch_template_read(template_path, &tmpl, &err) != 0)
        status = cli_fail(cmd, &err);
    if (status == 0 && !E && tmpl.top_k > 1) { /* the default E = 1 cannot route to top_k experts */
        default_e = tmpl.top_k;
        cli_note(cmd, "the template routes to top_k = %d experts: the default --E is %d", tmpl.top_k, tmpl.top_k);
    }
    if (status == 0 && ls_simulate_check(&tmpl, &grid, &err) != 0)
        status = cli_fail(cmd, &err);
    if (status == 0)
        lf = cli_read_law(cmd, law_path, force, &status);
    if (status == 0)
        status = cli_apply_flops(cmd, &tmpl, lf, flops_given, flops_kind);
    if (status == 0) {
        outfile *out = cli_output_open(cmd, output, &status);
        if (!out)
            ;
        else if (ls_simulate_write(&lf->law, &tmpl, &grid, &so, out, &err) != 0) {
            ls_outfile_abort(out);
            status = cli_fail(cmd, &err);
        } else if (ls_outfile_commit(out, &err) != 0)
            status = cli_fail(cmd, &err);
    }
    ls_lawfile_free(lf);
    free(n_act);
    free(tokens);
    free(E);
    free(R);
    return status;
}
