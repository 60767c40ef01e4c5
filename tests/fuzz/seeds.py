#!/usr/bin/python3
"""Seed corpora for the fuzzers, made from the test data so that nothing
large is committed:

    python3 tests/fuzz/seeds.py ROOT OUTDIR

writes OUTDIR/sweep, OUTDIR/lawfile, OUTDIR/npy, OUTDIR/numtext,
OUTDIR/tokens and OUTDIR/documents, one file per seed.  Sweep seeds start with the byte
fuzz_sweep reads its options from; numtext and tokens seeds with the byte
that picks the parser."""
import gzip
import json
import os
import re
import struct
import sys


def printf_bytes(text):
    """The bytes printf(1) makes of a format without conversions."""
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            n = text[i + 1]
            simple = {"n": 10, "r": 13, "t": 9, "\\": 92, "'": 39, '"': 34}
            if n in simple:
                out.append(simple[n])
                i += 2
                continue
            m = re.match(r"x([0-9a-fA-F]{1,2})", text[i + 1:])
            if m:
                out.append(int(m.group(1), 16))
                i += 1 + len(m.group(0))
                continue
            m = re.match(r"[0-7]{1,3}", text[i + 1:])
            if m:
                out.append(int(m.group(0), 8) & 255)
                i += 1 + len(m.group(0))
                continue
        out.extend(c.encode())
        i += 1
    return bytes(out)


def npy(descr, shape, values, version=(1, 0), fortran=False):
    header = "{'descr': '%s', 'fortran_order': %s, 'shape': %s, }" % (
        descr, "True" if fortran else "False", "(%s,)" % shape[0] if len(shape) == 1 else "(%s)" % ", ".join(map(str, shape)))
    prefix = 10 if version[0] == 1 else 12
    pad = 64 - (prefix + len(header) + 1) % 64
    header = header + " " * pad + "\n"
    head = b"\x93NUMPY" + bytes(version)
    head += struct.pack("<H", len(header)) if version[0] == 1 else struct.pack("<I", len(header))
    fmt = {"<f2": "e", "<f4": "f", "<f8": "d", ">f4": "f"}[descr]
    order = ">" if descr.startswith(">") else "<"
    return head + header.encode("latin-1") + struct.pack(order + fmt * len(values), *values)


def main():
    root, outdir = sys.argv[1], sys.argv[2]
    seeds = {"sweep": [], "lawfile": [], "npy": [], "numtext": [], "tokens": [], "documents": []}

    # Sweeps: the shipped ones cut to 40 runs, plain and gzip, and every
    # inline file of the sweep error tests.
    for name in ["looped-dense", "looped-moe", "looped-moe-hyperbolic"]:
        with gzip.open(os.path.join(root, "data", "sweeps", name + ".csv.gz"), "rb") as f:
            head = b"".join(f.readlines()[:41])
        seeds["sweep"] += [b"\x00" + head, b"\x2b" + gzip.compress(head, mtime=0), b"\x6e" + head]
    for name in sorted(os.listdir(os.path.join(root, "tests", "data", "holdout"))):
        if name.endswith(".csv"):
            seeds["sweep"].append(b"\x01" + open(os.path.join(root, "tests", "data", "holdout", name), "rb").read())
    for t in ["sweep-errors.t", "errors-sweep.t", "predict.t"]:
        text = open(os.path.join(root, "tests", "cli", t), encoding="utf-8").read()
        for m in re.finditer(r"(?:check|printf) '([^']*)'", text):
            seeds["sweep"].append(b"\x02" + printf_bytes(m.group(1)))
    seeds["sweep"].append(b"\x2c" + b"n_act,tokens,loss,seed,R,n_loop\n3e8,1e11,2.5,1,2,2e8\n6e8,1e11,2.4,2,1,\n")

    # Law files: the truths, the default law with three of its draws, a
    # hand-typed one, and templates and shape files (JSON all the same).
    for name in sorted(os.listdir(os.path.join(root, "data", "truth"))):
        seeds["lawfile"].append(open(os.path.join(root, "data", "truth", name), "rb").read())
    default = json.load(open(os.path.join(root, "data", "laws", "default.json")))
    if "bootstrap" in default:
        default["bootstrap"]["draws"] = default["bootstrap"]["draws"][:3]
        default["bootstrap"]["n"] = 3
    seeds["lawfile"].append(json.dumps(default, indent=1).encode())
    seeds["lawfile"].append(b'{"format": "loopscale-law/1", "law": {"base": "dense", "mapping": "none"}, '
                            b'"params": {"A": 406.4, "alpha": 0.34, "B": 410.7, "beta": 0.28, "c": 1.69}}')
    seeds["lawfile"].append(b'{"format": "loopscale-template/1", "attention_share": 0.3333, "top_k": 2}')

    # Documents for their semantic checks (first byte 0: law, 1: template,
    # 2: shape): the law seeds, the shipped template and shape examples of
    # the tests, and ones with a repeated key or a second document.
    seeds["documents"] += [b"\x00" + d for d in seeds["lawfile"]]
    seeds["documents"] += [
        b'\x01{"format": "loopscale-template/1", "attention_share": 0.3333, "top_k": 2, "prelude_layers": 2, '
        b'"loop_layers": 12, "coda_layers": 2}',
        b'\x01{"top_k": 1, "top_k": 2}',
        b'\x02{"format": "loopscale-shape/1", "d_model": 2048, "d_ff": 8192, "top_k": 2, "vocab": 50304, '
        b'"experts": 8, "layers": 4, "loops": 3, "head_layers": 1, "tail_layers": 1, "attention": "per-loop", '
        b'"embeddings": "tied", "norm_params": true, "heads": 16, "kv_heads": 4, "head_dim": 128, "context": 4096}',
        b'\x02{"shape": {"d_model": 512, "vocab": 1000, "layers": 2, "d_ff": 2048}}',
        b'\x02{"d_model": 512} {"d_model": 1024}',
        b'\x00{"format": "loopscale-law/1", "law": {"base": "dense", "mapping": "none"}, '
        b'"params": {"A": 406.4, "alpha": 0.34, "B": 410.7, "beta": 0.28, "c": 1.69, "A": 5000}}',
    ]

    # .npy arrays: each dtype and version, a 4-d router array, broken ones.
    seeds["npy"] += [
        npy("<f4", (2, 2, 1, 4), [float(i) / 3 for i in range(16)]),
        npy("<f2", (3, 3), [0.5, 1, 2, 0, -1, 65504, 1e-7, 3, 4]),
        npy("<f8", (5,), [1.5, -2.25, 0, 1e300, 1e-300]),
        npy("<f4", (2, 3), [1, 2, 3, 4, 5, 6], version=(2, 0)),
        npy("<f8", (1, 1), [7], version=(3, 0)),
        npy("<f4", (0, 4), []),
        npy(">f4", (2,), [1, 2]),
        npy("<f4", (2, 2), [1, 2, 3, 4], fortran=True),
        npy("<f4", (3, 2), [1, 2, 3, 4])[:-3],
    ]

    # Option values and cells: numbers, sizes, law names, --where conditions.
    for text in ["1e9", "3e8", " 7 ", "-0", "2.5", "1e-320", "1e308", "1e999", "0x10", "nan", "inf", "12", "1.5e3",
                 "9223372036854775807", "-9223372036854775808", "3GB", "2.5GiB", "5e20", "1kB", "4TiB", "3E", "7 MB"]:
        for selector in range(3):
            seeds["numtext"].append(bytes([selector]) + text.encode())
    for text in ["dense", "moe:bounded-sparse", "dense:power", "moe:", ":linear", "moe:hyperbolic"]:
        seeds["numtext"].append(b"\x03" + text.encode())
    for text in ["R<=8", "n_act >= 1e9", "E!=1", "tokens=1e11", "loss<3", "flops>1e20", "k==1", "R<", "lr<1"]:
        seeds["numtext"].append(b"\x04" + text.encode())

    # Router logits and early-exit tables: the inline files of route.t and
    # exit.t (odd first byte: route, even: exit), and a 4-d logits array.
    for t, selector in [("route.t", 1), ("exit.t", 0)]:
        text = open(os.path.join(root, "tests", "cli", t), encoding="utf-8").read()
        for m in re.finditer(r"printf '([^']*)'", text):
            seeds["tokens"].append(bytes([selector]) + printf_bytes(m.group(1)))
    seeds["tokens"].append(b"\x03" + npy("<f4", (2, 2, 1, 4), [float(i % 5) for i in range(16)]))
    seeds["tokens"].append(b"\x05" + npy("<f2", (3, 2, 2, 4), [float(i % 7) / 2 for i in range(48)]))

    for kind, items in seeds.items():
        d = os.path.join(outdir, kind)
        os.makedirs(d, exist_ok=True)
        for i, data in enumerate(items):
            with open(os.path.join(d, "seed-%03d" % i), "wb") as f:
                f.write(data)


if __name__ == "__main__":
    main()
