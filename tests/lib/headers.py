#!/usr/bin/python3
"""Every name an installed header declares carries the library's prefix, so
that a C program can include loopscale's headers beside anything:

    tests/lib/headers.py include/loopscale [BUILD/include/loopscale]

Checks the macros (#define NAME), the type names (typedef ... NAME;, struct,
union and enum tags), the enum constants and the functions declared (NAME(
at file scope, outside comments and strings).  The prefixes are ls_, LS_,
loopscale_ and LOOPSCALE_ (the version macros and the include guards)."""
import os
import re
import sys

PREFIX = re.compile(r"^(ls_|LS_|loopscale_|LOOPSCALE_)")
COMMENTS = re.compile(r"/\*.*?\*/|//[^\n]*", re.S)
STRINGS = re.compile(r'"(?:\\.|[^"\\])*"')


def strip_braces(text):
    """text with every {...} body emptied (nested ones too)."""
    out, depth = [], 0
    for ch in text:
        if ch == "{":
            if depth == 0:
                out.append("{")
            depth += 1
        elif ch == "}":
            depth -= 1
            if depth == 0:
                out.append("}")
        elif depth == 0:
            out.append(ch)
    return "".join(out)


def names(text):
    """(kind, name) of everything the header text declares."""
    text = STRINGS.sub('""', COMMENTS.sub(" ", text))
    for m in re.finditer(r"^\s*#\s*define\s+(\w+)", text, re.M):
        yield "macro", m.group(1)
    body = re.sub(r"^\s*#.*$", "", text, flags=re.M)
    for m in re.finditer(r"\benum\b[^{;]*\{([^}]*)\}", body):
        for item in m.group(1).split(","):
            name = item.strip().split("=")[0].strip()
            if name:
                yield "enum constant", name
    flat = strip_braces(body)
    for m in re.finditer(r"\b(?:struct|union|enum)\s+(\w+)", flat):
        yield "tag", m.group(1)
    for decl in flat.split(";"):
        decl = decl.strip()
        if decl.startswith("typedef"):
            fp = re.search(r"\(\s*\*\s*(\w+)\s*\)", decl)
            ids = re.findall(r"\w+", decl)
            yield "type", fp.group(1) if fp else ids[-1]
            continue
        # A function: the identifier just before the first '(' that does not
        # open a function pointer '(*'.
        m = re.search(r"(\w+)\s*\((?!\s*\*)", decl)
        if m and m.group(1) not in ("__attribute__", "_Pragma"):
            yield "function", m.group(1)


def main():
    bad = 0
    count = 0
    for d in sys.argv[1:]:
        for f in sorted(os.listdir(d)):
            if not f.endswith(".h"):
                continue
            for kind, name in names(open(os.path.join(d, f)).read()):
                count += 1
                if not PREFIX.match(name):
                    print(f"FAIL: {f}: {kind} '{name}' lacks the ls_/LS_/loopscale_ prefix")
                    bad += 1
    print(f"headers: {count} names, {bad} without the prefix")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
