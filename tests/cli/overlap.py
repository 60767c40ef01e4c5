"""Words that overlap on a page: pdftotext -bbox output on standard input,
every word's box against every other's (more than half a point both ways).
Prints the count and the first three pairs; used by the figures' tests."""
import re
import sys

words = [(float(a), float(b), float(c), float(d), w) for a, b, c, d, w in
         re.findall(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)</word>',
                    sys.stdin.read())]
bad = [(w, W) for i, (x0, y0, x1, y1, w) in enumerate(words) for X0, Y0, X1, Y1, W in words[i + 1:]
       if min(x1, X1) - max(x0, X0) > 0.5 and min(y1, Y1) - max(y0, Y0) > 0.5]
print(len(bad), 'overlapping words', *bad[:3])
