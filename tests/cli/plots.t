Every plot is an SVG file that a real renderer (rsvg-convert) draws and an
XML parser accepts; a run that fails leaves no plot behind.

  $ render() { xmllint --noout "$1" && rsvg-convert -o "${1%.svg}.png" "$1" && test -s "${1%.svg}.png" && echo "$1 renders"; }
  $ loopscale fit --plot fit.svg -o law.json --where 'E<=4' "$ROOT/data/sweeps/looped-moe.csv.gz" > /dev/null
  $ render fit.svg
  fit.svg renders
  $ grep -c 'class="panel"' fit.svg
  9
  $ loopscale fit --plot dense.svg "$ROOT/data/sweeps/looped-dense.csv.gz" --law dense --where 'R=1' > /dev/null 2>&1
  $ render dense.svg
  dense.svg renders
  $ grep -o '>D (tokens)<' dense.svg | head -1
  >D (tokens)<
  $ loopscale holdout --laws moe:bounded,moe:bounded-sparse --axes R,E --plot holdout.svg "$ROOT/data/sweeps/looped-moe.csv.gz" > /dev/null
  $ render holdout.svg
  holdout.svg renders
  $ grep -o '>[a-z:-]*</text>' holdout.svg | grep moe
  >moe:bounded</text>
  >moe:bounded-sparse</text>
  $ loopscale isoflop --law law.json --flops 1e20,1e21,1e22 --E 1,8 --R 1,4 --plot isoflop.svg > /dev/null
  $ render isoflop.svg
  isoflop.svg renders
  $ loopscale solve --law law.json --flops 1e22 --mem 3GB --bits 4 --E 1,2,4 --plot solve.svg --plot-rho rho.svg > /dev/null
  $ render solve.svg
  solve.svg renders
  $ render rho.svg
  rho.svg renders
  $ grep -o 'chosen: R\* = [0-9]*, E\* = [0-9]*' solve.svg
  chosen: R* = 1, E* = 4

A failed run writes no plot and leaves an existing one as it was.

  $ printf 'n_act,tokens,loss\n1e8,x,2.5\n' > bad.csv
  $ loopscale fit --plot new.svg bad.csv
  loopscale fit: bad.csv:2: column 'tokens': 'x' is not a number
  [65]
  $ ls new.svg
  ls: cannot access 'new.svg': No such file or directory
  [2]
  $ cp solve.svg before.svg
  $ loopscale solve --law law.json --flops 1e22 --mem 1kB --plot solve.svg
  loopscale solve: no candidate fits in 1000 bytes at 16 bits per weight
  [65]
  $ cmp solve.svg before.svg
  $ loopscale solve --law law.json --flops 1e22 --mem 3GB --E 1,2,4 --plot /nonexistent/dir/solve.svg > /dev/null
  loopscale solve: /nonexistent/dir/solve.svg: cannot create: No such file or directory
  [73]
  $ ls *.tmp* 2>/dev/null
  [2]
