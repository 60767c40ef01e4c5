#!/usr/bin/python3
"""Print, for every fitted parameter of a law file, whether the truth's value
lies inside its bootstrap interval:  inside.py FIT.json TRUTH.json"""
import json
import sys

fit = json.load(open(sys.argv[1]))
truth = json.load(open(sys.argv[2]))["params"]
for name, interval in fit["ci"].items():
    if name == "level":
        continue
    low, high = interval
    verdict = "inside" if low <= truth[name] <= high else "OUTSIDE"
    print(f"{name} {truth[name]:g} {verdict}")
