#!/usr/bin/python3
"""Run the examples in README.md and docs/*.md, so that the docs cannot rot.

    tests/docs/run-examples.py LOOPSCALE_BINARY ROOT [FILE.md ...]

A fenced block is an example to run when the line just before its opening
fence is one of these HTML comments (invisible when the page is rendered):

    <!-- doc-test -->            run it; a ```console block's output must match
    <!-- doc-test: run-only -->  run it and check that it succeeds, but do not
                                 compare the output (timings, progress)

```sh blocks are run as one bash script (set -e) and must succeed.
```console blocks hold commands after '$ ' (a line ending in '\\' continues
on the next) and the standard output each prints; the output is compared
line by line with every number rounded to 6 significant digits (as
tests/cli/round.py does) and trailing spaces ignored.  A line '...' in the
expected output stands for any number of lines.  Standard error is not
compared; a command that fails (non-zero exit) fails the test unless the
block shows its status on a last line '[N]', as cram does.  A page shows its
input files with '$ cat NAME': when NAME does not exist yet, it is first
written with the lines the page shows, so the page is its own test data.

```pycon blocks are Python sessions ('>>> ' and '... ' prompts, then the
output), run with Python's doctest (ELLIPSIS on, so a traceback's middle may
be '...'); the pycon blocks of one page run in order in one interpreter, as
a notebook's cells do.  They need the Python package: LOOPSCALE_LIBRARY
names the shared library and PYTHONPATH the package (ctest sets both); when
LOOPSCALE_LIBRARY is unset (a sanitizer build), they are skipped.

The blocks of one file run in order in one temporary directory, so a later
block can use what an earlier one wrote (the tutorial's law.json).  In it,
`loopscale` and `build/loopscale` are the binary under test, `data/` and `examples/` are the
repository's, and `scripts/install-deps`, `scripts/build` and
`scripts/test` do nothing (CI runs the real ones on every submission).
"""
import os
import re
import subprocess
import sys
import tempfile

NUMBER = re.compile(r"(?<![\w.])[-+]?(?:\d+\.\d*(?:[eE][-+]?\d+)?|\d+[eE][-+]?\d+)(?![\w.])")
MARK = re.compile(r"^<!--\s*doc-test(?::\s*([\w-]+))?\s*-->\s*$")
FENCE = re.compile(r"^```(\w*)")


def rounded(line):
    line = NUMBER.sub(lambda m: f"{float(m.group(0)):.6g}", line)
    return line.rstrip()


def blocks(path):
    """(line number, language, mode, lines) of every marked block."""
    lines = open(path, encoding="utf-8").read().split("\n")
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        lang, start = m.group(1), i
        j = i + 1
        while j < len(lines) and not lines[j].startswith("```"):
            j += 1
        mark = MARK.match(lines[start - 1]) if start > 0 else None
        if mark:
            yield start + 1, lang, mark.group(1) or "compare", lines[start + 1:j]
        i = j + 1


def console_steps(body):
    """[(command, expected output lines, expected status, (first, end) of the output in body)]"""
    steps = []
    k = 0
    while k < len(body):
        if not body[k].startswith("$ "):
            k += 1
            continue
        cmd = [body[k][2:]]
        while cmd[-1].endswith("\\") and k + 1 < len(body):
            k += 1
            cmd.append(body[k])
        k += 1
        out = []
        first = k
        while k < len(body) and not body[k].startswith("$ "):
            out.append(body[k])
            k += 1
        while out and out[-1] == "":
            out.pop()
        status = 0
        if out and re.fullmatch(r"\[\d+\]", out[-1]):
            status = int(out[-1][1:-1])
            out.pop()
        steps.append(("\n".join(cmd), out, status, (first, first + len(out))))
    return steps


def matches(expected, got):
    """expected lines (with '...' lines) against got lines, both rounded."""
    exp = [rounded(x) for x in expected]
    act = [rounded(x) for x in got]

    def walk(i, j):
        if i == len(exp):
            return j == len(act)
        if exp[i] == "...":
            return any(walk(i + 1, jj) for jj in range(j, len(act) + 1))
        return j < len(act) and exp[i] == act[j] and walk(i + 1, j + 1)

    return walk(0, 0)


def sandbox(binary, root):
    d = tempfile.mkdtemp(prefix="loopscale-docs-")
    os.makedirs(os.path.join(d, "build"))
    os.makedirs(os.path.join(d, "bin"))
    os.makedirs(os.path.join(d, "scripts"))
    os.symlink(binary, os.path.join(d, "build", "loopscale"))
    os.symlink(binary, os.path.join(d, "bin", "loopscale"))
    os.symlink(os.path.join(root, "data"), os.path.join(d, "data"))
    os.symlink(os.path.join(root, "examples"), os.path.join(d, "examples"))
    for name in ("install-deps", "build", "test"):
        p = os.path.join(d, "scripts", name)
        with open(p, "w") as f:
            f.write("#!/bin/sh\n# stands in for the real script while the docs are tested\nexit 0\n")
        os.chmod(p, 0o755)
    return d


def run(script, cwd):
    env = dict(os.environ, PATH=os.path.join(cwd, "bin") + ":/usr/bin:/bin", LC_ALL="C.UTF-8")
    return subprocess.run(["bash", "-c", script], cwd=cwd, env=env, capture_output=True, text=True)


PYCON_RUNNER = """
import doctest, sys
text = sys.stdin.read()
test = doctest.DocTestParser().get_doctest(text, {}, sys.argv[1], sys.argv[1], 0)
runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
runner.run(test)
print("pycon %d %d" % (runner.failures, runner.tries))
"""


def run_pycon(cells, cwd, where):
    """Run a page's pycon blocks as one doctest session: (passed, failed)."""
    text = ""
    for lineno, body in cells:
        # Blank lines keep doctest's line numbers those of the page.
        text += "\n" * max(0, lineno - text.count("\n")) + "\n".join(body) + "\n"
    env = dict(os.environ, LC_ALL="C.UTF-8")
    r = subprocess.run(["/usr/bin/python3", "-c", PYCON_RUNNER, where], input=text, cwd=cwd, env=env,
                       capture_output=True, text=True)
    m = re.search(r"^pycon (\d+) (\d+)$", r.stdout, re.M)
    if r.returncode != 0 or not m:
        print(f"FAIL {where}: the Python session failed\n{r.stdout}{r.stderr}")
        return 0, 1
    failures, tries = int(m.group(1)), int(m.group(2))
    if failures:
        print(f"FAIL {where}: {failures} of {tries} Python examples\n{r.stdout}")
    return tries - failures, failures


def main():
    binary = os.path.abspath(sys.argv[1])
    root = os.path.abspath(sys.argv[2])
    files = sys.argv[3:] or [os.path.join(root, "README.md"), os.path.join(root, "data", "README.md"),
                             os.path.join(root, "data", "laws", "README.md")] + sorted(
        os.path.join(root, "docs", f) for f in os.listdir(os.path.join(root, "docs")) if f.endswith(".md"))
    passed = failed = 0
    # LOOPSCALE_DOCS_UPDATE=1: after an intended change of what the program
    # prints, write each console block's actual output into the page (a block
    # with '...' lines is left for a person); read `git diff docs` after.
    update = os.environ.get("LOOPSCALE_DOCS_UPDATE") == "1"
    for path in files:
        page = open(path, encoding="utf-8").read().split("\n")
        edits = []
        name = os.path.relpath(path, root)
        cwd = None
        cells = []
        for lineno, lang, mode, body in blocks(path):
            if cwd is None:
                cwd = sandbox(binary, root)
            where = f"{name}:{lineno}"
            if lang == "sh":
                r = run("set -e\n" + "\n".join(body), cwd)
                if r.returncode != 0:
                    print(f"FAIL {where}: exit {r.returncode}\n{r.stderr}")
                    failed += 1
                else:
                    passed += 1
                continue
            if lang == "pycon":
                cells.append((lineno, body))
                continue
            if lang != "console":
                print(f"FAIL {where}: a doc-test block must be sh, console or pycon, not '{lang}'")
                failed += 1
                continue
            for cmd, expected, status, (first, end) in console_steps(body):
                shown = re.fullmatch(r"cat ([\w.-]+)", cmd)
                if shown and not os.path.exists(os.path.join(cwd, shown.group(1))):
                    with open(os.path.join(cwd, shown.group(1)), "w") as f:
                        f.write("\n".join(expected) + "\n")
                r = run(cmd, cwd)
                got = r.stdout.rstrip("\n").split("\n") if r.stdout.strip() else []
                if r.returncode != status:
                    print(f"FAIL {where}: '{cmd}' exited {r.returncode}, the page says {status}\n{r.stderr}")
                    failed += 1
                elif mode == "compare" and not matches(expected, got):
                    if update and "..." not in expected:
                        edits.append((lineno + first, lineno + end, got + ([f"[{status}]"] if status else [])))
                        continue
                    print(f"FAIL {where}: '{cmd}' printed\n" + "\n".join(got) +
                          "\n--- where the page shows\n" + "\n".join(expected))
                    failed += 1
                else:
                    passed += 1
        if cells and not os.environ.get("LOOPSCALE_LIBRARY"):
            print(f"skip {name}: {len(cells)} Python blocks (LOOPSCALE_LIBRARY is unset)")
        elif cells:
            p, f = run_pycon(cells, cwd, name)
            passed += p
            failed += f
        if cwd:
            subprocess.run(["rm", "-rf", cwd])
        for a, b, lines in sorted(edits, reverse=True):
            page[a:b + (1 if page[b:b + 1] and re.fullmatch(r"\[\d+\]", page[b]) else 0)] = lines
        if edits:
            open(path, "w", encoding="utf-8").write("\n".join(page))
            print(f"updated {name}: {len(edits)} outputs")
    print(f"doc examples: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
