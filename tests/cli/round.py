#!/usr/bin/python3
"""Copy standard input to standard output with every decimal number rounded
to 6 significant digits, so that CLI tests pin values, not the last bits a
particular libm gives them."""
import re
import sys

NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+)(?![\w.])")
for line in sys.stdin:
    sys.stdout.write(NUMBER.sub(lambda m: f"{float(m.group(0)):.6g}", line))
