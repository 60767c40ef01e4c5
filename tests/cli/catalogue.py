#!/usr/bin/python3
"""Write docs/errors.md, the catalogue of bad inputs, from the CLI tests that
pin them (tests/cli/sweep-errors.t and tests/cli/errors-*.t):

    python3 tests/cli/catalogue.py [ROOT] > docs/errors.md

Each test file becomes a section: its opening paragraph, the definitions it
makes (variables and shell functions), then one table per paragraph of the
file with every case: the input (the command, with the commands since the
previous case that prepared its files), the message it prints and its exit
status.  errors-doc.t fails when docs/errors.md differs from what this
writes, so the catalogue cannot drift from what the tests check."""
import glob
import os
import re
import sys

TITLES = {
    "sweep-errors": "Sweep files: cells, columns and rows",
    "errors-sweep": "Sweep files: shape, bytes, size",
    "errors-law": "Law files and templates",
    "errors-options": "Options",
    "errors-numeric": "Numerical faults",
    "errors-output": "Output: nothing lost",
    "errors-clobber": "Outputs that would replace an input",
    "errors-notfit": "Fits that are not a law",
    "errors-messages": "Messages that named the wrong problem",
    "errors-neighbours": "Neighbours: outputs, streams, law files, units, templates",
    "errors-permissions": "Permissions",
    "errors-documents": "Law, template and shape documents: strict reading",
    "errors-paths": "Output paths: links, kernel files, long names, standard error",
    "errors-stdin": "Standard input and streams named twice",
    "errors-json": "JSON documents: strings, numbers, depth, size, unknown template keys",
    "errors-numbers": "Numbers: unrepresentable results, unit suffixes",
    "errors-wording": "Messages: top-k against experts, subnormal values",
    "errors-ingest": "Training-log exports: filters, invalid rows, units, suffixes",
    "errors-plan": "Planning a sweep",
    "errors-report": "Reports: options, the page's name, fits that are not a law",
    "errors-flops": "FLOP conventions: names, what a convention needs, sweeps counted another way",
    "errors-laws": "Published laws and methods: unique tokens, budgets, frontiers",
    "errors-architecture": "Templates that describe models, architectures in law files, configuration columns",
    "errors-text": "User text: UTF-8 in law files and plots, controls in messages",
}
ORDER = list(TITLES)
MAX_OUTPUT_LINES = 6


def parse(path):
    """Paragraphs of commentary, each with the commands after it:
    [(text, [(command_lines, output_lines, status)])]."""
    blocks = [["", []]]
    command = None
    for raw in open(path, encoding="utf-8"):
        line = raw.rstrip("\n")
        if line.startswith("  $ "):
            command = [[line[4:]], [], 0]
            blocks[-1][1].append(command)
        elif line.startswith("  > ") and command is not None and not command[1]:
            command[0].append(line[4:])
        elif line.startswith("  ") and command is not None:
            status = re.fullmatch(r"  \[(\d+)\]", line)
            if status:
                command[2] = int(status.group(1))
            else:
                command[1].append(line[2:])
        elif line.strip() == "":
            continue
        else:
            command = None
            if blocks[-1][1]:
                blocks.append(["", []])
            blocks[-1][0] += (" " if blocks[-1][0] else "") + line.strip()
    return blocks


def is_definition(cmd):
    """Variables, shell functions and the conditional set-up of a file."""
    first = cmd[0]
    if first.startswith("if "):
        return True
    return len(cmd) == 1 and (re.match(r"^[A-Za-z_]+=", first) or re.match(r"^\w+\(\) \{", first))


def clean_output(line):
    if line.endswith(" (re)"):  # a cram regular expression: show its shape
        line = line[:-5].replace(r"\d+", "N").replace("\\", "")
    return line


def code(text):
    text = text.replace("|", "\\|")
    fence = "``" if "`" in text else "`"
    pad = " " if "`" in text else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..")
    files = {os.path.basename(p)[:-2]: p for p in glob.glob(os.path.join(root, "tests", "cli", "*.t"))}
    names = [n for n in ORDER if n in files] + sorted(n for n in files if n.startswith("errors-") and n not in ORDER
                                                      and n != "errors-doc")
    out = []
    w = out.append
    total = 0
    sections = []
    for name in names:
        blocks = parse(files[name])
        intro = blocks[0][0]
        definitions = [line for b in blocks for c in b[1] if is_definition(c[0]) and not c[1] and c[2] == 0
                       for line in c[0]]
        tables = []
        pending = []
        for text, commands in blocks:
            rows = []
            for cmd, output, status in commands:
                if is_definition(cmd) and not output and status == 0:
                    continue
                if not output and status == 0:
                    pending.extend(cmd)  # prepares the files of the next case
                    continue
                shown = [clean_output(o) for o in output]
                if len(shown) > MAX_OUTPUT_LINES:
                    shown = shown[:MAX_OUTPUT_LINES - 1] + ["..."]
                rows.append((pending + cmd, shown, status))
                pending = []
            if rows:
                tables.append((text if text != intro else "", rows))
        count = sum(len(r) for _, r in tables)
        total += count
        sections.append((name, intro, definitions, tables, count))

    w("# Bad inputs and what loopscale says")
    w("")
    w("<!-- Generated by tests/cli/catalogue.py from the CLI tests; do not edit by hand. -->")
    w("")
    w("Every bad input loopscale is tested against, with the one line it prints and its exit")
    w(f"status: {total} cases, each pinned by a CLI test (`tests/cli/sweep-errors.t` and")
    w("`tests/cli/errors-*.t`), from which this page is generated (`python3 tests/cli/catalogue.py >")
    w("docs/errors.md`); `errors-doc.t` fails when the two disagree.  Messages go to standard")
    w("error as `loopscale COMMAND: message`; usage errors add a line `Try 'loopscale COMMAND --help'.`")
    w("")
    w("| status | meaning |")
    w("|---:|---|")
    for status, meaning in [(0, "success"), (3, "a fit that yields no law: it did not converge, or its runs cannot "
                             "determine its parameters (a singular Jacobian, a law outside its domain); nothing written"), (64, "usage error: an option or argument"),
                            (65, "bad input data: a sweep, a law file, a template; or no answer exists"),
                            (66, "an input file missing or unreadable"), (70, "internal error"),
                            (73, "an output file cannot be created"),
                            (74, "a write failed: a full disk, a closed standard output")]:
        w(f"| {status} | {meaning} |")
    w("")
    for name, intro, definitions, tables, count in sections:
        w(f"- [{TITLES.get(name, name)}](#{anchor(TITLES.get(name, name))}): {count} cases (`tests/cli/{name}.t`)")
    w("")
    for name, intro, definitions, tables, count in sections:
        w(f"## {TITLES.get(name, name)}")
        w("")
        w(f"From `tests/cli/{name}.t`. {intro}")
        w("")
        if definitions:
            w("The inputs below use these definitions (`$ROOT` is the source tree):")
            w("")
            w("```sh")
            for d in definitions:
                w(d)
            w("```")
            w("")
        for text, rows in tables:
            if text:
                w(text)
                w("")
            w("| input | message | status |")
            w("|---|---|---:|")
            for cmd, shown, status in rows:
                cell_in = "<br>".join(code(c) for c in cmd)
                cell_out = "<br>".join(code(o) for o in shown if o != "") or "(nothing)"
                w(f"| {cell_in} | {cell_out} | {status} |")
            w("")
    sys.stdout.write("\n".join(out))


def anchor(title):
    return re.sub(r"[^a-z0-9 -]", "", title.lower()).replace(" ", "-")


if __name__ == "__main__":
    main()
