#!/bin/sh
# Epoch AI's replication of Chinchilla's approach 3 (Besiroglu et al. 2024),
# with loopscale: the 240 runs digitised from Hoffmann et al.'s figure, the
# law L = A N^-alpha + B D^-beta + c, the summed Huber(1e-3) objective on log
# loss, Chinchilla's 4,500-point grid of starts, and a 4,000-draw bootstrap.
#
#     examples/chinchilla.sh PATH/TO/svg_extracted_data.csv [DRAWS]
#
# The data is Epoch's (github.com/epoch-research/analyzing-chinchilla,
# data/svg_extracted_data.csv); it is not shipped with loopscale.  Epoch's
# optimum: objective 0.00101827, A 477.84, B 2143.9, c 1.8172, alpha 0.34731,
# beta 0.36718; bootstrap 95% intervals alpha (0.317, 0.373), beta
# (0.331, 0.415), c (1.769, 1.871).
set -eu
csv=${1:?usage: examples/chinchilla.sh svg_extracted_data.csv [DRAWS]}
draws=${2:-4000}
loopscale=${LOOPSCALE:-loopscale}

# Epoch drops the five highest losses: keep loss < the fifth highest.
threshold=$(awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "loss") col = i; next }
                     { print $col }' "$csv" | sort -g | tail -n 5 | head -n 1)

# The file has model size and training FLOP; tokens are FLOP / (6 N).
exec "$loopscale" fit --law dense --grid chinchilla --bootstrap "$draws" \
    --map 'n_act=Model Size' --map 'flops=Training FLOP' --where "loss<$threshold" "$csv"
