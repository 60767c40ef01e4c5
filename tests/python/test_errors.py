"""The program's own error cases through Python: every failing command of
tests/cli/errors-*.t and sweep-errors.t whose arguments map to a call
(no pipe, no redirection but > /dev/null, no standard input, each
single-valued option once) is run as loopscale.COMMAND(*operands,
**options) in the state the test file has built at that point, and must
raise the exception of the same exit status with the same message, option
names spelt as keywords (--n-act is n_act).

Each .t file is replayed in one bash, as cram runs it, in a scratch
directory: its other commands (files written with cat, fits, ...) run
there unchanged, so the Python call sees exactly the files the program saw."""
import ctypes
import glob
import os
import re
import subprocess
import warnings

import pytest

import loopscale
from conftest import BIN, ROOT, SHARED, keyword_spelling

FILES = sorted(glob.glob(os.path.join(ROOT, "tests", "cli", "errors-*.t")) +
               [os.path.join(ROOT, "tests", "cli", "sweep-errors.t")])


def steps(path):
    """(command lines, expected exit status) of each command of a cram file."""
    out = []
    for raw in open(path, encoding="utf-8"):
        line = raw.rstrip("\n")
        if line.startswith("  $ "):
            out.append([[line[4:]], 0])
        elif line.startswith("  > ") and out and len(out[-1][0]) >= 1:
            out[-1][0].append(line[4:])
        elif out and re.fullmatch(r"  \[(\d+)\]", line):
            out[-1][1] = int(line[3:-1])
    return [("\n".join(lines), status) for lines, status in out]


class Shell:
    """One bash, fed a command at a time, as cram does."""

    SENTINEL = "__LOOPSCALE_STEP_DONE__"

    def __init__(self, cwd):
        env = dict(os.environ, ROOT=ROOT, SHARED=SHARED, LOOPSCALE_BIN=BIN,
                   PATH=os.path.join(ROOT, "tests", "cli", "bin") + ":/usr/bin:/bin")
        self.p = subprocess.Popen(["/bin/bash", "--norc", "--noprofile"], cwd=cwd, env=env, text=True,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

    def run(self, command):
        self.p.stdin.write(command + "\necho; echo %s\n" % self.SENTINEL)
        self.p.stdin.flush()
        lines = []
        for line in self.p.stdout:
            if line.rstrip("\n") == self.SENTINEL:
                break
            lines.append(line)
        return "".join(lines)

    def words(self, text):
        """The words bash makes of text (quotes removed, variables expanded)."""
        out = self.run("printf '%%s\\0' %s" % text)
        return out.rstrip("\n").split("\0")[:-1]

    def close(self):
        self.p.stdin.close()
        self.p.wait()


def option_table(command):
    """name -> (short, takes a value, repeatable) from the package's table."""
    from loopscale import _lib
    table, o, i = {}, _lib.Option(), 0
    while _lib.lib.ls_command_option(command.encode(), i, ctypes.byref(o)):
        table[o.name.decode()] = (o.short_name.decode() if o.short_name != b"\0" else None,
                                  o.type != _lib.OPTION_SWITCH, bool(o.flags & _lib.OPTION_REPEATABLE))
        i += 1
    return table


def to_call(command, args):
    """(operands, options) of the argv args, or None when they do not map to
    one call (an option given twice, bundled short options, a missing value,
    --help, standard input)."""
    table = option_table(command)
    shorts = {s: n for n, (s, _, _) in table.items() if s}
    operands, options = [], {}
    i = 0
    while i < len(args):
        a = args[i]
        i += 1
        if a == "--":
            operands += args[i:]
            break
        name = value = None
        if a.startswith("--") and len(a) > 2:
            name, eq, value = a[2:].partition("=")
            value = value if eq else None
            if name not in table:
                if value is not None or name == "help":
                    return None
                options[name.replace("-", "_")] = True  # the library names it
                continue
        elif a.startswith("-") and len(a) > 1:
            name = shorts.get(a[1])
            if name is None:
                return None
            value = a[2:] or None
            if not table[name][1] and value is not None:
                return None  # bundled switches
        else:
            operands.append(a)
            continue
        _, takes, repeatable = table[name]
        if takes and value is None:
            if i >= len(args):
                return None
            value, i = args[i], i + 1
        if not takes:
            if value is not None:
                return None
            value = True
        key = name.replace("-", "_")
        if repeatable:
            options.setdefault(key, []).append(value)
        elif key in options:
            return None
        else:
            options[key] = value
    if "-" in operands or "-" in options.values():
        return None
    return operands, options


def cases():
    for path in FILES:
        for index, (command, status) in enumerate(steps(path)):
            if status == 0 or "\n" in command:
                continue
            text = re.sub(r"\s*>\s*/dev/null\s*$", "", command)
            if not text.startswith("loopscale ") or re.search(r"[|<>;&`]|\$\(|\bcd\b", text):
                continue
            yield path, index


CASES = list(cases())


def through_python(words, status, message, cwd):
    """What the package does with the program's failing words, run where and
    when the program ran them: ("skip", why) or (exception or None)."""
    command, args = words[0], words[1:]
    call = to_call(command, args) if command in loopscale.__all__ else None
    if call is None or message is None or status in (0, 2):
        return ("skip", "not one call: %s" % " ".join(words))
    if "not abbreviated" in message or re.match(r"option '[^']*' needs a value", message):
        return ("skip", "the program's argument parser: %s" % message)
    operands, options = call
    here = os.getcwd()
    os.chdir(cwd)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            getattr(loopscale, command)(*operands, **options)
        return (None,)
    except loopscale.LoopscaleError as e:
        return (e,)
    finally:
        os.chdir(here)


@pytest.fixture(scope="module")
def replays(tmp_path_factory):
    """Each file replayed once; at each case, the program's words, exit
    status and message (the last line it printed under its name) and what
    the package did with the same words at the same point."""
    out = {}
    for path in FILES:
        wanted = {i for p, i in CASES if p == path}
        if not wanted:
            continue
        cwd = tmp_path_factory.mktemp(os.path.basename(path)[:-2])
        shell = Shell(cwd)
        try:
            for index, (command, status) in enumerate(steps(path)):
                if index not in wanted:
                    shell.run(command)
                    continue
                text = re.sub(r"\s*>\s*/dev/null\s*$", "", command)
                words = shell.words(text[len("loopscale "):])
                p = subprocess.run([BIN, *words], cwd=cwd, capture_output=True, text=True)
                prefix = "loopscale %s: " % words[0]
                lines = [l[len(prefix):] for l in p.stderr.splitlines() if l.startswith(prefix)]
                message = lines[-1] if lines else None
                out[(path, index)] = (words, p.returncode, message,
                                      through_python(words, p.returncode, message, cwd))
        finally:
            shell.close()
    return out


@pytest.mark.parametrize("path, index", CASES,
                         ids=["%s:%d" % (os.path.basename(p)[:-2], i) for p, i in CASES])
def test_error_case_through_python(replays, path, index):
    words, status, message, outcome = replays[(path, index)]
    if outcome[0] == "skip":
        pytest.skip(outcome[1])
    error = outcome[0]
    assert error is not None, "loopscale.%s did not fail where the program did: %s" % (words[0], message)
    # The package's message is the program's with options spelled as
    # keywords (--group-tol: group_tol), even where a module below the
    # command layer wrote it.
    assert str(error) == keyword_spelling(message)
    assert error.code == status
