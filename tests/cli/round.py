#!/usr/bin/python3
"""Copy standard input to standard output with every decimal number rounded
to DIGITS significant digits (default 6), so that CLI tests pin values, not
the last bits a particular libm or stopping point gives them.
    round.py [DIGITS]"""
import re
import sys

digits = int(sys.argv[1]) if len(sys.argv) > 1 else 6
NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+)(?![\w.])")
for line in sys.stdin:
    sys.stdout.write(NUMBER.sub(lambda m: f"{float(m.group(0)):.{digits}g}", line))
