Epoch AI's replication of Chinchilla's approach 3, reproduced from the
real data (../shared, present in CI; skipped when it is not).

  $ CSV=$SHARED/data/external/epoch-chinchilla/svg_extracted_data.csv
  $ [ -f "$CSV" ] || exit 80

Epoch's optimum: objective 0.00101827, A 477.84, B 2143.9, c 1.8172,
alpha 0.34731, beta 0.36718; 95% intervals alpha (0.317, 0.373), beta
(0.331, 0.415), c (1.769, 1.871).

  $ LOOPSCALE=loopscale $ROOT/examples/chinchilla.sh $CSV > fit.txt
  $ grep -E '^(law|runs|objective|converged|bootstrap) ' fit.txt | sed 's| (.*/| (|'
  law        dense
  runs       240 (svg_extracted_data.csv)
  objective  0.00101827402  (sum of Huber(ln Lhat - ln L), delta 0.001)
  converged  yes \(\d+ iterations\) (re)
  bootstrap  4000 draws, 0 did not converge
  $ grep -E '^starts ' fit.txt
  starts     4500, 44\d\d reached the best objective \(within 1e-06 relative\), 4500 converged (re)
  $ sed -n '/^parameter/,/^c /p' fit.txt
  parameter     value    stderr*  95% interval
  A           477.826    92.8359  [285.568, 723.578]
  alpha      0.347311  0.0112938  [0.316579, 0.371651]
  B           2143.42    438.698  [1045.98, 6034.77]
  beta       0.367172  0.0101367  [0.331838, 0.417237]
  c           1.81722  0.0174293  [1.7703, 1.86875]
