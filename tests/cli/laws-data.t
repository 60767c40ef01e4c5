The published laws and methods on real data (../shared, present in CI;
skipped when it is not).

  $ CSV=$SHARED/data/external/epoch-chinchilla/svg_extracted_data.csv
  $ [ -f "$CSV" ] || exit 80

fit prints the exponents of the law it fitted: Epoch AI's Chinchilla
points give a = beta / (alpha + beta) = 0.36717 / (0.34731 + 0.36717).

  $ loopscale fit --law dense --map 'n_act=Model Size' --map 'flops=Training FLOP' --where 'loss<3.4469' $CSV | grep optimum
  optimum    N_opt ~ F^0.5139, D_opt ~ F^0.4861 (a = beta / (alpha + beta))
