Help goes to standard output with status 0; usage errors to standard error with 64.

  $ loopscale --version
  loopscale 0.1.0
  $ loopscale --help
  Usage: loopscale COMMAND [OPTIONS] [FILES]
  
  Scaling laws for looped Mixture-of-Experts models: fit laws to a training
  sweep, compare them on held-out runs, and solve for the configuration a
  compute and memory budget should buy.
  
  Commands:
    fit        fit a loss law to sweeps: multi-start Huber fit, intervals
    holdout    compare laws on held-out runs along R, N, D and E: RMSE, AIC, BIC
    isofit     compute-optimal exponents from the IsoFLOP minima of runs
    frontier   the compute-optimal frontier of a law: N_opt, D_opt, loss against F
    isoflop    IsoFLOP profiles: loss against N_act at fixed compute, and minima
    plan       which runs to train next, designed for a deployment decision
    simulate   draw a synthetic sweep from a law, with noise, through a template
    predict    predict the loss of a sweep's runs, or of one configuration
    solve      the loops, experts, size and tokens a compute and memory limit buys
    report     one self-contained HTML page on a sweep: fits, held-out, budgets
    shape      parameter and FLOP accounting of a looped MoE shape
    route      router health from logits: balance, confidence, expert switching
    exit       entropy-threshold early exit: FLOPs saved against perplexity
  
  'loopscale help COMMAND' or 'loopscale COMMAND --help' shows a command's
  options; 'loopscale help laws' lists the laws; 'loopscale --version' prints
  the version.  Exit status: 0 success, 64 usage error, 65 bad input data,
  66 input missing, 73 cannot create output, 74 I/O error, 70 internal error,
  3 a fit that yields no law (it did not converge, or its runs cannot determine
  its parameters).
  $ loopscale help predict | head -3
  Usage: loopscale predict --law FILE [OPTIONS] SWEEP
         loopscale predict --law FILE --n-act N [--n-total N] [--n-loop N] [--R R]
                           [--E E] [--k K] (--tokens D | --flops F)
  $ loopscale predict --help | head -1
  Usage: loopscale predict --law FILE [OPTIONS] SWEEP
  $ loopscale
  Usage: loopscale COMMAND [OPTIONS] [FILES]
  
  Scaling laws for looped Mixture-of-Experts models: fit laws to a training
  sweep, compare them on held-out runs, and solve for the configuration a
  compute and memory budget should buy.
  
  Commands:
    fit        fit a loss law to sweeps: multi-start Huber fit, intervals
    holdout    compare laws on held-out runs along R, N, D and E: RMSE, AIC, BIC
    isofit     compute-optimal exponents from the IsoFLOP minima of runs
    frontier   the compute-optimal frontier of a law: N_opt, D_opt, loss against F
    isoflop    IsoFLOP profiles: loss against N_act at fixed compute, and minima
    plan       which runs to train next, designed for a deployment decision
    simulate   draw a synthetic sweep from a law, with noise, through a template
    predict    predict the loss of a sweep's runs, or of one configuration
    solve      the loops, experts, size and tokens a compute and memory limit buys
    report     one self-contained HTML page on a sweep: fits, held-out, budgets
    shape      parameter and FLOP accounting of a looped MoE shape
    route      router health from logits: balance, confidence, expert switching
    exit       entropy-threshold early exit: FLOPs saved against perplexity
  
  'loopscale help COMMAND' or 'loopscale COMMAND --help' shows a command's
  options; 'loopscale help laws' lists the laws; 'loopscale --version' prints
  the version.  Exit status: 0 success, 64 usage error, 65 bad input data,
  66 input missing, 73 cannot create output, 74 I/O error, 70 internal error,
  3 a fit that yields no law (it did not converge, or its runs cannot determine
  its parameters).
  [64]
  $ loopscale frobnicate
  loopscale: unknown command 'frobnicate'
  Try 'loopscale --help'.
  [64]
  $ loopscale help frobnicate
  loopscale: unknown command 'frobnicate'
  Try 'loopscale --help'.
  [64]
  $ loopscale predict --bogus
  loopscale predict: unknown option '--bogus'
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict -x
  loopscale predict: unknown option '-x'
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --law
  loopscale predict: option '--law' needs a value
  Try 'loopscale predict --help'.
  [64]
  $ loopscale predict --format xml --law x.json s.csv
  loopscale predict: --format: 'xml' is not one of table, csv, tsv, json
  Try 'loopscale predict --help'.
  [64]

A failed write of the results is a failure (74):

  $ loopscale --help > /dev/full
  loopscale: write error on standard output: No space left on device
  [74]

'help laws' lists every base and mapping with its formula and parameters:

  $ loopscale help laws
  A law is BASE[:MAPPING]; BASE alone means BASE:none.
  
  Bases:
    dense             L = A N_eff^-alpha + B D^-beta + c
                      parameters A, alpha, B, beta, c
    moe               L = A Ehat^delta N_eff^-(alpha + gamma ln Ehat)
                          + B Ehat^omega D^-(beta + zeta ln Ehat) + c
                      parameters A, alpha, B, beta, c, delta, gamma, omega, zeta,
                                 E_start, E_max
    kaplan            L = ((N_c / N_eff)^(alpha_N / alpha_D) + D_c / D)^alpha_D
                      parameters N_c, alpha_N, D_c, alpha_D
    data-constrained  L = A N'^-alpha + B D'^-beta + c (N', D': repeated data, U)
                      parameters A, alpha, B, beta, c, R_D_star, R_N_star
  
  Mappings (m = N_act/N_total):
    none              N_eff = N_act
    linear            N_eff = N_act + (R-1) N_loop
    power             N_eff = N_act + (R^phi - 1) N_loop
                      parameters phi
    bounded           N_eff = N_act + kappa1 N_loop (1 - exp(-(R-1)/kappa2))
                      parameters kappa1, kappa2
    bounded-sparse    N_eff = N_act + kappa1 m^-theta N_loop
                              (1 - exp(-(R-1)/(kappa2 m^-theta)))
                      parameters kappa1, kappa2, theta
    hyperbolic        N_eff = N_act + kappa1 m^-theta N_loop (R-1)
                              / (R-1 + kappa2 m^-theta)
                      parameters kappa1, kappa2, theta
    log               N_eff = N_act + kappa1 N_loop ln R
                      parameters kappa1
  
  'loopscale fit --law moe:bounded-sparse' fits one.

Every line of help fits an 80-column terminal: the overview, the laws and
each command's help (a command added later is covered by the loop):

  $ for c in $(loopscale --help | awk '/^Commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }'); do
  >   loopscale $c --help | awk -v c=$c 'length($0) > 80 { print c ": " $0 }'
  > done
  $ (loopscale --help; loopscale help laws) | awk 'length($0) > 80'
