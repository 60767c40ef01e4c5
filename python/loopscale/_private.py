"""Data the caller holds in memory (a DataFrame of runs, a Law) handed to
the library as files it can open: an anonymous in-memory file
(memfd_create), named /dev/fd/N, that no other process sees and that
vanishes when closed, so nothing is left on disk and no temporary path
exists.  The library names such a file by that path in its messages and
documents; `Private.rename` turns the path back into what the caller knows
("<DataFrame> row 'b'", the law's name).
"""
import bisect
import html
import io
import json
import os
import re
import tempfile

import numpy as np


def _anonymous_file(data):
    """An open descriptor of an unnamed file holding data, read from its start."""
    if hasattr(os, "memfd_create"):
        fd = os.memfd_create("loopscale")
    else:  # an unlinked temporary file: no name either
        with tempfile.TemporaryFile() as f:
            fd = os.dup(f.fileno())
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


def _label_text(label):
    label = label.item() if isinstance(label, np.generic) else label
    return repr(label)


class Private:
    """The private files of one call; closed (and gone) with close()."""

    def __init__(self):
        self._files = []  # (path, name, table or None)
        self._fds = []

    def add(self, data, name, table=None):
        """The path of a new private file holding data (bytes), named `name`
        in messages; table (a Table) maps its lines to rows."""
        fd = _anonymous_file(data)
        self._fds.append(fd)
        path = "/dev/fd/%d" % fd
        self._files.append((path, name, table))
        return path

    def close(self):
        for fd in self._fds:
            os.close(fd)
        self._fds = []

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def rename(self, text, escape=None):
        """text with every private path named as the caller knows it:
        PATH:LINE of a table as "<DataFrame> row LABEL"; escape ("json",
        "html" or None) says how the names are written into text."""
        if not self._files or not text:
            return text
        for path, name, table in self._files:
            pattern = re.escape(path) + (r"(?::(\d+)(?::\d+)?)?" if table else "") + r"(?!\d)"

            def replace(m, name=name, table=table):
                shown = name
                if table is not None and m.group(1):
                    shown = table.place(int(m.group(1)))
                if escape == "json":
                    return json.dumps(shown)[1:-1]
                if escape == "html":
                    return html.escape(shown)
                return shown

            text = re.sub(pattern, replace, text)
        return text


def _cell(x):
    """A value as the CSV text the library reads back exactly."""
    if x is None:
        return ""
    if isinstance(x, (bool, np.bool_)):
        return str(bool(x))
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    if isinstance(x, (float, np.floating)):
        return repr(float(x))  # the shortest text that reads back to the same double
    return str(x)


def _csv_line(cells):
    """One CSV record, a cell quoted when the reader would otherwise take it
    apart: a comma, quote or line break in it, or a '#' first (a line that
    starts with one is a comment, and the row would be lost)."""
    def field(c):
        if c[:1] == "#" or any(ch in c for ch in ',"\r\n'):
            return '"' + c.replace('"', '""') + '"'
        return c
    return ",".join(field(c) for c in cells) + "\n"


class Table:
    """Columns of runs as CSV text, remembering where each row starts so that
    the library's "FILE:LINE" becomes "<DataFrame> row LABEL" even when a
    text cell holds line breaks."""

    def __init__(self, source):
        if hasattr(source, "columns") and hasattr(source, "index"):  # a pandas DataFrame
            self.kind = "<DataFrame>"
            names = [str(c) for c in source.columns]
            columns = [source[c].to_numpy() for c in source.columns]
            self.labels = list(source.index)
        else:
            self.kind = "<dict>"
            names = [str(k) for k in source]
            columns = [np.asarray(v) for v in source.values()]
            columns = [c.reshape(1) if c.ndim == 0 else c for c in columns]
            lengths = sorted({len(c) for c in columns})
            if len(lengths) > 1:
                from ._lib import UsageError
                raise UsageError("Sweep: the columns have different lengths: %s" % ", ".join(map(str, lengths)))
            self.labels = list(range(lengths[0] if lengths else 0))
        self.nrows, self.ncolumns = len(self.labels), len(names)
        out = io.StringIO()
        out.write(_csv_line(names))
        line = 1 + sum(n.count("\n") for n in names)
        self.starts = []  # the line each row starts on (1-based)
        for row in zip(*columns):
            cells = [_cell(x) for x in row]
            self.starts.append(line + 1)
            out.write(_csv_line(cells))
            line += 1 + sum(c.count("\n") for c in cells)
        self.data = out.getvalue().encode("utf-8", "surrogateescape")

    def place(self, line):
        """Where line of the CSV text is, as the caller knows the table."""
        i = bisect.bisect_right(self.starts, line) - 1
        if i < 0:
            return "%s header" % self.kind
        return "%s row %s" % (self.kind, _label_text(self.labels[i]))

    def __repr__(self):
        return "<%s: %d rows x %d columns>" % (self.kind[1:-1], self.nrows, self.ncolumns)
