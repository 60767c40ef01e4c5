#!/usr/bin/python3
"""Point every output of every command at each of its inputs, and at its other
outputs, under every spelling of one file, and check that each run is refused
with status 64 before anything is written.

    clobber.py            (in an empty directory; loopscale on PATH)

Commands come from `loopscale --help` and their output options from each
command's --help (every option taking FILE that is not a known input), so a
command or output option added later without a case here makes this fail.
Prints one line per command, and one line per case that went wrong."""
import filecmp
import os
import re
import shutil
import subprocess
import sys

# Options taking FILE that name an input; any other FILE option is an output.
INPUT_OPTIONS = {"--law", "--template", "--shape", "--truth", "--profile", "--candidates", "--fix-from",
                 "--quantisation"}

# For each command, arguments that make a run succeed, with the inputs they
# read as (label, file, how it is named: an option or None for an operand).
BASE = {
    "fit": (["--law", "dense"], [("SWEEP", "small.csv", None)]),
    "frontier": (["--flops", "1e21"], [("--law", "t.json", "--law")]),
    "holdout": (["--laws", "dense", "--axes", "N"], [("SWEEP", "small.csv", None)]),
    "isofit": ([], [("SWEEP", "iso.csv", None)]),
    "isoflop": (["--flops", "1e21"], [("--law", "t.json", "--law"), ("--template", "tp.json", "--template")]),
    "plan": (["--flops", "1e22", "--budget", "5e20", "--noise", "0.002", "--n-act", "1e8,3e8,1e9", "--tokens",
              "1e10,3e10,1e11", "--E", "1,4,16", "--R", "1,2,4", "--search", "0"],
             [("--law", "t.json", "--law"), ("--template", "tp.json", "--template"), ("--have", "small.csv", "--have")]),
    "predict": ([], [("--law", "t.json", "--law"), ("SWEEP", "small.csv", None)]),
    "report": (["--laws", "dense", "--axes", "N"], [("SWEEP", "small.csv", None)]),
    "simulate": (["--n-act", "3e8", "--tokens", "1e11"],
                 [("--law", "t.json", "--law"), ("--template", "tp.json", "--template")]),
    "solve": (["--flops", "1e21"], [("--law", "t.json", "--law"), ("--template", "tp.json", "--template")]),
    "shape": ([], [("--shape", "shape.json", "--shape")]),
    "route": (["-k", "1"], [("LOGITS", "logits.csv", None)]),
    "exit": ([], [("--shape", "shape.json", "--shape"), ("CSV", "e.csv", None)]),
}
# Commands that read their operand from standard input when it is "-".
STDIN_OPERAND = {"fit", "holdout", "isofit", "predict", "report", "route", "exit"}

failures = 0


def run(args, stdin=None, stdout=subprocess.DEVNULL):
    return subprocess.run(["loopscale"] + args, stdin=stdin, stdout=stdout, stderr=subprocess.PIPE).returncode


def fail(message):
    global failures
    failures += 1
    print("FAIL " + message)


def commands():
    text = subprocess.run(["loopscale", "--help"], capture_output=True, text=True).stdout
    block = text.split("Commands:\n", 1)[1].split("\n\n", 1)[0]
    return [line.split()[0] for line in block.splitlines() if line.strip()]


def output_options(command):
    text = subprocess.run(["loopscale", command, "--help"], capture_output=True, text=True).stdout
    found = re.findall(r"^\s+(?:-\w, )?(--[\w-]+) FILE\b", text, re.M)
    return [o for o in found if o not in INPUT_OPTIONS]


def invocation(command, inputs, extra):
    args, operands = [command] + BASE[command][0], []
    for _, path, option in inputs:
        if option:
            args += [option, path]
        else:
            operands.append(path)
    return args + extra + operands


def spellings(path):
    """The same file named five ways: itself, ./, d/../, a symlink, a hard link."""
    for name in ("sym-" + path, "hard-" + path):
        if os.path.lexists(name):
            os.remove(name)
    os.symlink(path, "sym-" + path)
    os.link(path, "hard-" + path)
    return [path, "./" + path, "d/../" + path, "sym-" + path, "hard-" + path]


def leftovers():
    return sorted(f for f in os.listdir(".") if ".tmp." in f)


def refused(label, args, keep, stdin=None, stdout=subprocess.DEVNULL, gone=()):
    """args must exit 64, leave each file in keep as its copy, create none of gone."""
    copies = {path: path + ".orig" for path in keep}
    for path, copy in copies.items():
        shutil.copyfile(path, copy)
    status = run(args, stdin=stdin, stdout=stdout)
    if status != 64:
        fail("%s: status %d, not 64: loopscale %s" % (label, status, " ".join(args)))
    for path, copy in copies.items():
        if not filecmp.cmp(path, copy, shallow=False):
            fail("%s: %s was changed by loopscale %s" % (label, path, " ".join(args)))
            shutil.copyfile(copy, path)
        os.remove(copy)
    for path in gone:
        if os.path.exists(path):
            fail("%s: %s was written by loopscale %s" % (label, path, " ".join(args)))
            os.remove(path)
    if leftovers():
        fail("%s: temporary files left: %s" % (label, leftovers()))
    return 1


def main():
    global failures
    os.mkdir("d")
    subprocess.run(["loopscale", "simulate", "--law", os.environ["TRUTH"], "--n-act", "1e8,3e8,1e9",
                    "--tokens", "1e10,3e10,1e11", "--R", "1,2", "--noise", "0.01", "-o", "small.csv"], check=True)
    subprocess.run(["loopscale", "simulate", "--law", os.environ["TRUTH"], "--n-act", "2.5e7,5e7,1e8,2e8,4e8",
                    "--tokens", "2.5e9,5e9,1e10,2e10,4e10", "-o", "iso.csv"], check=True)
    shutil.copyfile(os.environ["TRUTH"], "t.json")
    with open("tp.json", "w") as f:
        subprocess.run(["loopscale", "solve", "--print-template"], stdout=f, check=True)
    with open("shape.json", "w") as f:
        subprocess.run(["loopscale", "shape", "--d-model", "512", "--d-ff", "2048", "--vocab", "32000",
                        "--layers", "4", "--loops", "2", "--format", "json"], stdout=f, check=True)
    with open("logits.csv", "w") as f:
        f.write("token,loop,layer,z0,z1,z2,z3\n0,1,1,2,0,1,-1\n0,2,1,0,3,0.5,0\n1,1,1,0,0,5,1\n1,2,1,0,0,5,2\n")
    with open("e.csv", "w") as f:
        f.write("token,loop,entropy,nll\n0,1,2,3\n0,2,1,2\n1,1,0.25,1.5\n1,2,3,4\n")

    for command in commands():
        if command not in BASE:
            fail("%s: no base invocation in clobber.py" % command)
            continue
        inputs = BASE[command][1]
        outputs = output_options(command)
        cases = 0
        # The base run succeeds with every output on a fresh file, so that
        # a 64 below is the clash and nothing else.
        # (A plot's name says its format, so a plot's fresh file ends in .svg;
        # a report is HTML.)
        extra, fresh = [], []
        for i, option in enumerate(outputs):
            fresh.append("fresh%d%s" % (i, ".svg" if option.startswith("--plot") else
                                          ".html" if command == "report" else ".out"))
            extra += [option, fresh[-1]]
        status = run(invocation(command, inputs, extra))
        if status != 0:
            fail("%s: the base run exits %d: loopscale %s" % (command, status,
                                                               " ".join(invocation(command, inputs, extra))))
        for name in fresh:
            os.remove(name)
        # Each output on each input, five spellings.
        for option in outputs:
            for label, path, _ in inputs:
                for name in spellings(path):
                    cases += refused("%s %s on %s" % (command, option, label),
                                     invocation(command, inputs, [option, name]), [path])
            # An operand read from standard input.
            if command in STDIN_OPERAND:
                stdin_inputs = [(l, "-" if not o else p, o) for l, p, o in inputs]
                operand = next(p for _, p, o in inputs if not o)
                for name in spellings(operand):
                    with open(operand, "rb") as f:
                        cases += refused("%s %s on standard input" % (command, option),
                                         invocation(command, stdin_inputs, [option, name]), [operand], stdin=f)
        # Each pair of outputs on one file, new or existing.
        for i, a in enumerate(outputs):
            for b in outputs[i + 1:]:
                for name in ["new.out", "./new.out", "d/../new.out"]:
                    cases += refused("%s %s and %s" % (command, a, b),
                                     invocation(command, inputs, [a, "new.out", b, name]), [], gone=["new.out"])
                with open("old.out", "w") as f:
                    f.write("precious\n")
                for name in spellings("old.out"):
                    cases += refused("%s %s and %s" % (command, a, b),
                                     invocation(command, inputs, [a, "old.out", b, name]), ["old.out"])
        # Standard output appended to each input (>> does not truncate it).
        for label, path, _ in inputs:
            with open(path, "ab") as out:
                cases += refused("%s standard output on %s" % (command, label), invocation(command, inputs, []),
                                 [path], stdout=out)
        print("%s: %d output option%s, %d refused runs" % (command, len(outputs), "" if len(outputs) == 1 else "s",
                                                          cases))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
