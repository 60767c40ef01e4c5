"""What the Python tests share: where the program and the data are, running
the program, and comparing its words with the package's.

Run by ctest (test `python`), which sets LOOPSCALE_LIBRARY, LOOPSCALE_BIN,
PYTHONPATH and SHARED."""
import json
import os
import re
import subprocess

import pytest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
BIN = os.environ.get("LOOPSCALE_BIN", os.path.join(ROOT, "build", "loopscale"))
SHARED = os.environ.get("SHARED", os.path.join(ROOT, "..", "shared"))
MOE = os.path.join(ROOT, "data", "sweeps", "looped-moe.csv.gz")
DENSE = os.path.join(ROOT, "data", "sweeps", "looped-dense.csv.gz")
TRUTH = os.path.join(ROOT, "data", "truth", "moe-bounded-sparse.json")


class Run:
    def __init__(self, p):
        self.stdout, self.stderr, self.status = p.stdout, p.stderr, p.returncode

    @property
    def json(self):
        return json.loads(self.stdout)

    def messages(self, command):
        """The lines the program wrote to standard error, without its
        "loopscale COMMAND: " prefix."""
        prefix = "loopscale %s: " % command
        return [line[len(prefix):] for line in self.stderr.splitlines() if line.startswith(prefix)]

    def warnings(self, command):
        return [m[len("warning: "):] for m in self.messages(command) if m.startswith("warning: ")]


def cli(*args, cwd=None, check=True):
    """The program's standard output, error and exit status."""
    p = subprocess.run([BIN, *map(str, args)], capture_output=True, text=True, cwd=cwd)
    if check and p.returncode != 0:
        raise AssertionError("loopscale %s failed (%d): %s" % (" ".join(map(str, args)), p.returncode, p.stderr))
    return Run(p)


def keyword_spelling(text):
    """The program's option names as keyword arguments spell them: messages
    and tables name options as the front end does (--n-act, n_act)."""
    return re.sub(r"(?<![\w-])--([A-Za-z][\w-]*)", lambda m: m.group(1).replace("-", "_"), text)


@pytest.fixture
def in_tmp(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def pytest_sessionfinish(session, exitstatus):
    """A run that passed but skipped tests for want of ../shared's data
    exits 77, which CTest reports as Skipped rather than Passed, so that a CI
    run that should have had the data fails (scripts/test).  (Other skips,
    an error case no single call can express, are pytest's own report.)"""
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = reporter.stats.get("skipped", []) if reporter is not None else []
    if exitstatus == 0 and any("../shared" in str(r.longrepr) for r in skipped):
        session.exitstatus = 77
