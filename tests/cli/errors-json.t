JSON documents (law files, templates, shape files) are read as RFC 8259 has
them, and nothing is read as something else: a NUL escape would cut a string
short, raw control characters and malformed UTF-8 are not JSON, a number too
small or too large for a double would read as 0 or be lost, nesting is
bounded, documents are capped at 16 MiB (law files) and 1 MiB (templates,
shape files), and a template key that loopscale does not know is an error
(law files, written by programs, ignore unknown keys so that a later
version's files still read).  Each is refused with 65, at its line and
column, quoting the text.

  $ TRUTH=$ROOT/data/truth/moe-bounded-sparse.json
  $ tpl() { printf '%s' "$1" > t.json; loopscale solve --template t.json --flops 1e21 > /dev/null; }
  $ pred() { loopscale predict --law "$1" --n-act 1e9 --tokens 1e11; }

Templates: unknown keys, and values quoted in the message:

  $ tpl '{"top-k": 4, "loop-layers": 6}'
  loopscale solve: t.json:1:2: unknown key 'top-k' (docs/formats.md lists a template's keys)
  [65]
  $ tpl '{"prelude_layers": 1e20}'
  loopscale solve: t.json:1:2: prelude_layers: 1e+20 is not an integer from 0 to 1000000000000
  [65]
  $ tpl '{"top_k": 2.5}'
  loopscale solve: t.json:1:2: top_k: 2.5 is not an integer from 1 to 1000000000000
  [65]
  $ tpl '{"attention_share": 1.5}'
  loopscale solve: t.json:1:2: attention_share: 1.5 is not a number in [0, 1)
  [65]

A key that is read but derived (loop_fraction, which --print-template
writes for people) must agree with what it is derived from, and a shape
field beside the "shape" object of shape --format json output (where only
the object is read) is refused rather than ignored:

  $ tpl '{"prelude_layers": 2, "loop_layers": 12, "coda_layers": 2, "loop_fraction": 0.5}'
  loopscale solve: t.json:1:60: loop_fraction: 0.5 disagrees with the layer counts (12 of 16 layers loop: 0.75); it is derived from them, so change the counts or remove it
  [65]
  $ tpl '{"loop_fraction": -0.2}'
  loopscale solve: t.json:1:2: loop_fraction: -0.20000000000000001 disagrees with the layer counts (12 of 16 layers loop: 0.75); it is derived from them, so change the counts or remove it
  [65]
  $ tpl '{"loop_fraction": "most"}'
  loopscale solve: t.json:1:2: loop_fraction: expected a number
  [65]
  $ tpl '{"loop_layers": 4, "loop_fraction": 0.5}' 2> /dev/null
  $ printf '{"shape": {"d_model": 512, "d_ff": 2048, "vocab": 1000, "layers": 2}, "loops": 4}' > sh.json
  $ loopscale shape --shape sh.json
  loopscale shape: sh.json:1:71: loops: outside the "shape" object, which is what is read; move it inside
  [65]
  $ printf '{"shape": {"d_model": 512, "d_ff": 2048, "vocab": 1000, "layers": 2}, "params": []}' > sh.json
  $ loopscale shape --shape sh.json | head -1
  Shape (E, D, L) = (1, 2, 1), top-1, d_model 512, d_ff 2048, vocab 1000
  $ printf '{"shape": {"d_model": 512, "d_ff": 2048, "vocab": 1000, "layers": 2}, "parameters": {}}' > sh.json
  $ loopscale shape --shape sh.json
  loopscale shape: sh.json:1:71: unknown key 'parameters' beside the "shape" object (only that object and the other members of `loopscale shape --format json` may stand there)
  [65]

Strings: a NUL escape, a raw tab, malformed UTF-8 (in values and keys):

  $ sed 's/"base": "moe"/"base": "moe\\u0000evil"/' $TRUTH > nul.json
  $ pred nul.json
  loopscale predict: nul.json:4:17: NUL character in string (\u0000)
  [65]
  $ sed 's|"format": "loopscale-law/1"|"format": "loopscale-law/1\\u0000x"|' $TRUTH > fmt.json
  $ pred fmt.json
  loopscale predict: fmt.json:2:29: NUL character in string (\u0000)
  [65]
  $ tpl '{"A\u0000x": 1, "A": 2}'
  loopscale solve: t.json:1:4: NUL character in string (\u0000)
  [65]
  $ tpl "$(printf '{"format": "a\tb"}')"
  loopscale solve: t.json:1:14: control character 0x09 in string (write it as \u0009)
  [65]
  $ tpl "$(printf '{"format": "\xc3\x28"}')"
  loopscale solve: t.json:1:13: invalid UTF-8 (byte 0xC3) in string
  [65]
  $ tpl "$(printf '{"\xed\xa0\x80": 1}')"
  loopscale solve: t.json:1:3: invalid UTF-8 (byte 0xED) in string
  [65]

Numbers that a double cannot hold, quoted as written:

  $ sed 's/"A": [0-9.e+]*/"A": 1e-400/' $TRUTH > tiny.json
  $ pred tiny.json
  loopscale predict: tiny.json:8:10: '1e-400' is outside double precision
  [65]
  $ tpl '{"top_k": 1e999}'
  loopscale solve: t.json:1:11: '1e999' is outside double precision
  [65]

Depth and size:

  $ python3 -c 'print("[" * 100000 + "]" * 100000)' > deep.json
  $ pred deep.json
  loopscale predict: deep.json:1:513: nested too deeply (more than 512 levels)
  [65]
  $ { cat $TRUTH; head -c 17000000 /dev/zero | tr '\0' ' '; } > big.json
  $ pred big.json
  loopscale predict: big.json: too large for a law file (more than 16 MiB)
  [65]

A JSON document spread over lines (a law file given as runs) is named for
what it is, not "not valid JSON":

  $ printf '{\n  "n_act": 1e8,\n  "tokens": 1e10,\n  "loss": 3.1\n}\n' > pretty.json
  $ loopscale predict --law $ROOT/data/truth/moe-bounded-sparse.json pretty.json
  loopscale predict: pretty.json:1:1: an object that does not end on its line; JSON Lines has one whole object per line (a run), not a JSON document spread over lines
  [65]
