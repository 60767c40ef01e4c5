#!/usr/bin/python3
"""Compare two CSV tables cell by cell: text exactly, numbers to a relative
tolerance.   compare-tables.py EXPECTED ACTUAL [RTOL]   (default 1e-6)
Prints 'same' or each difference, and exits 1 on a difference."""
import csv
import sys


def number(text):
    try:
        return float(text)
    except ValueError:
        return None


expected = list(csv.reader(open(sys.argv[1])))
actual = list(csv.reader(open(sys.argv[2])))
rtol = float(sys.argv[3]) if len(sys.argv) > 3 else 1e-6
differences = []
if len(expected) != len(actual):
    differences.append(f"{len(actual)} rows, expected {len(expected)}")
for i, (want_row, got_row) in enumerate(zip(expected, actual)):
    if len(want_row) != len(got_row):
        differences.append(f"row {i + 1}: {len(got_row)} cells, expected {len(want_row)}")
        continue
    for j, (want, got) in enumerate(zip(want_row, got_row)):
        a, b = number(want), number(got)
        if a is not None and b is not None:
            if abs(a - b) > rtol * max(abs(a), abs(b)):
                differences.append(f"row {i + 1} ({want_row[0]}), column {expected[0][j]}: {got}, expected {want}")
        elif want != got:
            differences.append(f"row {i + 1}, column {j + 1}: '{got}', expected '{want}'")
for d in differences:
    print(d)
print("same" if not differences else f"{len(differences)} differences (relative tolerance {rtol})")
sys.exit(1 if differences else 0)
