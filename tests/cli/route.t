Router health from logits.  NumPy files are written here with Python's
struct module (no NumPy needed): npy.py FILE DESCR SHAPE VALUES writes a
version 1.0 .npy file whose VALUES are a Python expression.

  $ cat > npy.py <<'PY'
  > import struct, sys
  > path, descr, shape, values = sys.argv[1], sys.argv[2], eval(sys.argv[3]), eval(sys.argv[4])
  > order = sys.argv[5] if len(sys.argv) > 5 else 'False'
  > header = "{'descr': '%s', 'fortran_order': %s, 'shape': %r, }" % (descr, order, shape)
  > header += ' ' * (117 - len(header)) + '\n'
  > fmt = {'f2': 'e', 'f4': 'f', 'f8': 'd', 'i4': 'i'}[descr[1:]]
  > data = struct.pack(('>' if descr[0] == '>' else '<') + fmt * len(values), *values)
  > open(path, 'wb').write(b'\x93NUMPY\x01\x00' + struct.pack('<H', len(header)) + header.encode() + data)
  > PY

Two tokens, two loops, one layer, four experts, top-1, worked by hand:
token 0 picks expert 0 then 1, token 1 expert 2 twice.  Loop 1 loads
(1/2, 0, 1/2, 0) give B2 = (1/4) / (1/2) = 0.5; pooled (1/4, 1/4, 1/2, 0)
give (1/4) / (3/8) = 0.6667.  MMR: the gaps between the largest and the
2nd largest logit are 1 and 4 at loop 1 (e^2.5 = 12.1825), 2.5 and 3 at
loop 2 (e^2.75 = 15.6426), e^2.625 = 13.8046 pooled.  Token 0 touches two
experts and switches to a disjoint set, token 1 neither: 1.5, 0.5, 0.5.

  $ cat > hand.csv <<'CSV'
  > token,loop,layer,z0,z1,z2,z3
  > 0,1,1,2,0,1,-1
  > 0,2,1,0,3,0.5,0
  > 1,1,1,0,0,5,1
  > 1,2,1,0,0,5,2
  > CSV
  $ loopscale route --top-k 1 --per-loop hand.csv
  hand.csv: 2 tokens x 2 loops x 1 layer x 4 experts (CSV), top-1
  
  layer  loop      B2      MMR  distinct  disjoint  switched  ties
      1  1     0.5000  12.1825     1.000         -         -     0
      1  2     0.5000  15.6426     1.500    0.5000    0.5000     0
      1  all   0.6667  13.8046     1.500    0.5000    0.5000     0
  $ loopscale route -k 1 --format csv hand.csv
  layer,loop,B2,MMR,distinct,disjoint,switched,ties
  1,all,0.6666666666666666,13.804574186067095,1.5,0.5,0.5,0
  $ loopscale route -k 1 --per-loop --format tsv hand.csv
  layer\tloop\tB2\tMMR\tdistinct\tdisjoint\tswitched\tties (esc)
  1\t1\t0.5\t12.182493960703473\t1\t\t\t0 (esc)
  1\t2\t0.5\t15.642631884188171\t1.5\t0.5\t0.5\t0 (esc)
  1\tall\t0.6666666666666666\t13.804574186067095\t1.5\t0.5\t0.5\t0 (esc)
  $ loopscale route -k 1 --format md hand.csv
  hand.csv: 2 tokens x 2 loops x 1 layer x 4 experts (CSV), top-1
  
  | layer | loop |     B2 |     MMR | distinct | disjoint | switched | ties |
  |------:|------|-------:|--------:|---------:|---------:|---------:|-----:|
  |     1 | all  | 0.6667 | 13.8046 |    1.500 |   0.5000 |   0.5000 |    0 |
  $ gzip -c hand.csv | loopscale route -k 1 --format json -
  {
    "format": "loopscale-route/1",
    "input": "standard input",
    "source": "CSV",
    "tokens": 2,
    "loops": 2,
    "layers": 1,
    "experts": 4,
    "top_k": 1,
    "per_layer": [
      {
        "layer": 1,
        "b2": 0.6666666666666666,
        "mmr": 13.804574186067095,
        "distinct": 1.5,
        "disjoint": 0.5,
        "switched": 0.5,
        "decisions": 4,
        "ties": 0
      }
    ]
  }

The same logits as a float32 .npy array give the same answer:

  $ python3 npy.py hand.npy '<f4' '(2, 2, 1, 4)' '[2,0,1,-1, 0,3,0.5,0, 0,0,5,1, 0,0,5,2]'
  $ loopscale route -k 1 --format csv hand.npy
  layer,loop,B2,MMR,distinct,disjoint,switched,ties
  1,all,0.6666666666666666,13.804574186067095,1.5,0.5,0.5,0

A router without preference (every logit equal) has B2 = 1 and MMR = 1 at
any E; each tie is split evenly for B2 (the expected load under a random
tie-break) and counted.  float16, 3 tokens x 2 loops x 2 layers x 6 experts:

  $ python3 npy.py flat.npy '<f2' '(3, 2, 2, 6)' '[0.5] * 72'
  $ loopscale route -k 2 flat.npy
  flat.npy: 3 tokens x 2 loops x 2 layers x 6 experts (float16 .npy), top-2
  
  layer  loop      B2     MMR  distinct  disjoint  switched  ties
  1      all   1.0000  1.0000     2.000    0.0000    0.0000     6
  2      all   1.0000  1.0000     2.000    0.0000    0.0000     6
  all    all   1.0000  1.0000     4.000    0.0000    0.0000    12
  
  12 of 12 router decisions had a tie at the top-k boundary (split evenly for B2,
  the lower expert index for the sets).
  
  The 'all' layer row pools every layer: B2 over the layers x experts loads, distinct
  summed over layers (experts are per layer).

A collapsed router, always experts 3 and 5 of 8, has B2 = k/E = 0.25; its
MMR is e^(4.5 - 0.25) = 70.1054:

  $ python3 npy.py collapsed.npy '<f4' '(5, 3, 1, 8)' '[0.25, -1, 0.25, 4.5, 0.25, 3.25, -2, 0.25] * 15'
  $ loopscale route -k 2 collapsed.npy
  collapsed.npy: 5 tokens x 3 loops x 1 layer x 8 experts (float32 .npy), top-2
  
  layer  loop      B2      MMR  distinct  disjoint  switched  ties
      1  all   0.2500  70.1054     2.000    0.0000    0.0000     0

Bad input, each refused with a one-line message and status 65:

  $ python3 npy.py big.npy '>f4' '(2, 2, 1, 4)' '[0.0] * 16'
  $ loopscale route -k 1 big.npy
  loopscale route: big.npy: .npy header: dtype '>f4' is big-endian; save it as '<f4' (a.astype('<f4'))
  [65]
  $ python3 npy.py int.npy '<i4' '(2, 2, 1, 4)' '[0] * 16'
  $ loopscale route -k 1 int.npy
  loopscale route: int.npy: .npy header: dtype '<i4' is not float16, float32 or float64 ('<f2', '<f4', '<f8')
  [65]
  $ python3 npy.py fortran.npy '<f4' '(2, 2, 1, 4)' '[0.0] * 16' True
  $ loopscale route -k 1 fortran.npy
  loopscale route: fortran.npy: .npy header: the array is in Fortran order; save it in C order (np.ascontiguousarray(a))
  [65]
  $ python3 npy.py short.npy '<f4' '(3, 2, 1, 4)' '[0.0] * 16'
  $ loopscale route -k 1 short.npy
  loopscale route: short.npy: file is 192 bytes, but the header says 224 (128-byte header + shape (3, 2, 1, 4) of 4-byte '<f4')
  [65]
  $ python3 npy.py flat3.npy '<f4' '(2, 2, 4)' '[0.0] * 16'
  $ loopscale route -k 1 flat3.npy
  loopscale route: flat3.npy: shape (2, 2, 4) is not [tokens, loops, layers, experts]
  [65]
  $ python3 npy.py nan.npy '<f2' '(2, 2, 1, 4)' '[0.0] * 13 + [float("nan")] + [0.0] * 2'
  $ loopscale route -k 1 nan.npy
  loopscale route: nan.npy: logit [1, 1, 0, 1] (token 1, loop 2, layer 1, expert 1) is NaN
  [65]
  $ printf '\x93NUMPY\x04\x00\x76\x00' > v4.npy
  $ loopscale route -k 1 v4.npy
  loopscale route: v4.npy: .npy format version 4.0 is not 1.0, 2.0 or 3.0
  [65]
  $ gzip -c hand.npy > hand.npy.gz
  $ loopscale route -k 1 hand.npy.gz
  loopscale route: hand.npy.gz: gzip-compressed; a .npy file must be uncompressed
  [65]
  $ printf 'token,loop,layer,z0,z1\n0,1,1,0,1\n0,2,1,1,0\n1,1,1,0,1\n1,3,1,1,0\n' > range.csv
  $ loopscale route -k 1 range.csv
  loopscale route: range.csv:5: column 'loop': 3 is out of range 1..2 (as in the first token)
  [65]
  $ printf 'token,loop,layer,z0,z1\n0,0,1,0,1\n' > zero.csv
  $ loopscale route -k 1 zero.csv
  loopscale route: zero.csv:2: column 'loop': '0' is out of range: loops are counted from 1
  [65]
  $ printf 'token,loop,layer,z0,z1\n0,1,1,0,NaN\n' > nan.csv
  $ loopscale route -k 1 nan.csv
  loopscale route: nan.csv:2: column 'z1': 'NaN' is not a finite number
  [65]
  $ printf 'token,loop,layer,z0,z1\n0,1,1,0,1\n0,2,1,1,0\n1,2,1,0,1\n' > missing.csv
  $ loopscale route -k 1 missing.csv
  loopscale route: missing.csv:4: token 1 has no row for loop 1, layer 1
  [65]

Usage errors (64) and a missing file (66):

  $ loopscale route hand.csv
  loopscale route: give --top-k K, the experts each router decision chooses
  Try 'loopscale route --help'.
  [64]
  $ loopscale route -k 5 hand.npy
  loopscale route: top-k 5 is more than the 4 experts of hand.npy
  Try 'loopscale route --help'.
  [64]
  $ loopscale route -k 1
  loopscale route: give a LOGITS file (.npy or CSV)
  Try 'loopscale route --help'.
  [64]
  $ loopscale route -k 1 nowhere.npy
  loopscale route: nowhere.npy: cannot open: No such file or directory
  [66]
