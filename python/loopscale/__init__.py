"""loopscale: scaling laws for looped Mixture-of-Experts language models.

A thin layer over the C library libloopscale (docs/python.md).  Every number
comes from the library, and results cross over as the same JSON documents the
loopscale program writes (law files, `holdout --format json`, `solve --format
json`), so a notebook gets the program's numbers by construction.

    import loopscale
    sweep = loopscale.Sweep("data/sweeps/looped-moe.csv.gz")
    law = loopscale.fit(sweep, "moe:bounded-sparse")
    law.params["alpha"], law.predict(n_act=1e9, tokens=2e10, R=4, E=8, n_total=6.3e9, n_loop=7.5e8)
"""
import csv
import ctypes
import json
import math
import os
import sys
import tempfile
import warnings

import numpy as np

from . import _lib
from ._lib import (LoopscaleError, UsageError, DataError, NoInputError, CantCreateError, IOFailure,
                   InternalError, NotConvergedError)

__all__ = ["Sweep", "Law", "fit", "holdout", "holdout_frame", "solve", "read_law", "default_law", "version",
           "PARAM_NAMES", "LoopscaleError", "UsageError", "DataError", "NoInputError", "CantCreateError",
           "IOFailure", "InternalError", "NotConvergedError"]

# The law parameters in the library's order (law.h's law_param).
PARAM_NAMES = ("A", "alpha", "B", "beta", "c", "delta", "gamma", "omega", "zeta", "E_start", "E_max",
               "N_c", "alpha_N", "D_c", "alpha_D", "R_D_star", "R_N_star", "phi",
               "kappa1", "kappa2", "theta")
assert len(PARAM_NAMES) == _lib.LAW_NPARAMS


def version():
    """The version of the libloopscale loaded."""
    return _lib.lib.ls_version().decode()


def _as_list(value):
    if value is None:
        return []
    if isinstance(value, (str, bytes)):
        return [value]
    if isinstance(value, dict):
        return ["%s=%s" % (new, old) for new, old in value.items()]
    return list(value)


class Sweep:
    """Training runs to fit: one or more CSV files (plain or gzip), or a pandas
    DataFrame or a dict of equal-length columns.

    `map` renames columns as the program's --map does ({"n_act": "Model Size"} or
    ["n_act=Model Size"]); `where` keeps the rows that satisfy every condition,
    as --where ("R<=8").  The files are read and checked by the library
    when the Sweep is made (a missing file raises NoInputError, a bad cell
    DataError naming file, line, column and value; `n` is the number of
    runs), and read again by each fit.  A DataFrame or dict is
    written (every number at full precision) to a temporary CSV file that
    lives as long as the Sweep."""

    def __init__(self, source, map=None, where=None):
        self.maps = [str(m) for m in _as_list(map)]
        self._labels = None
        self.wheres = [str(w) for w in _as_list(where)]
        self._tmp = None
        if isinstance(source, (str, bytes, os.PathLike)):
            self.paths = [os.fsdecode(source)]
        elif isinstance(source, dict) or hasattr(source, "to_dict") and hasattr(source, "columns"):
            self.paths = [self._write_table(source)]
        else:
            try:
                self.paths = [os.fsdecode(p) for p in source]
            except TypeError:
                raise UsageError("Sweep: give a path, a list of paths, a DataFrame or a dict of columns, not %s"
                                 % type(source).__name__) from None
        if not self.paths:
            raise UsageError("give at least one sweep file")
        # One file named twice (under any name) would count each run twice.
        seen = {}
        for p in self.paths:
            ident = _file_id(p)
            if ident is not None and ident in seen:
                raise UsageError("%s and %s are the same file; each run would count twice" % (seen[ident], p))
            if ident is not None:
                seen[ident] = p
        # Read now, with the program's checks, so that a missing file or a
        # bad cell is an error here rather than at the first fit.
        s, keep = self._struct()
        err = _lib._Error()
        n = ctypes.c_size_t()
        if _lib.lib.ls_bind_sweep_check(ctypes.byref(s), ctypes.byref(n), ctypes.byref(err)) != 0:
            self._raise(err)
        self.n = n.value

    def _write_table(self, table):
        if hasattr(table, "columns") and hasattr(table, "to_dict"):  # a pandas DataFrame
            columns = {str(c): np.asarray(table[c]) for c in table.columns}
            self._labels = list(table.index)
        else:
            columns = {str(k): np.asarray(v) for k, v in table.items()}
        lengths = {len(v) for v in columns.values()}
        if len(lengths) != 1:
            raise UsageError("the columns have different lengths: %s" % sorted(lengths))
        self._tmp = tempfile.TemporaryDirectory(prefix="loopscale-")
        path = os.path.join(self._tmp.name, "table.csv")

        def text(x):
            if isinstance(x, (float, np.floating)):
                return repr(float(x))
            return str(x)

        with open(path, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(list(columns))
            for row in zip(*columns.values()):
                w.writerow([text(x) for x in row])
        return path

    def _raise(self, err):
        """Raise the library's error, naming the table's row (its index
        label, or 0-based position for a dict) instead of the temporary
        file's line when the runs came from a DataFrame or dict."""
        try:
            _lib.raise_error(err)
        except LoopscaleError as e:
            message = str(e)
            if self._tmp is not None and message.startswith(self.paths[0]):
                rest = message[len(self.paths[0]):]
                import re
                m = re.match(r":(\d+)(?::\d+)?(.*)", rest, re.S)
                where = "<DataFrame>" if self._labels is not None else "<dict>"
                if m and int(m.group(1)) >= 2:
                    row = int(m.group(1)) - 2
                    label = self._labels[row] if self._labels is not None and row < len(self._labels) else row
                    message = "%s row %r%s" % (where, label, m.group(2))
                else:
                    message = where + rest
                raise type(e)(message, e.code) from None
            raise

    def _struct(self):
        keep = []
        paths, npaths = _lib.strings(self.paths)
        maps, nmaps = _lib.strings(self.maps)
        wheres, nwheres = _lib.strings(self.wheres)
        keep += [paths, maps, wheres]
        s = _lib._Sweep(paths, npaths, maps, nmaps, wheres, nwheres)
        return s, keep

    def __repr__(self):
        return "Sweep(%r, map=%r, where=%r)" % (self.paths, self.maps, self.wheres)


def _show(value):
    return repr(value) if isinstance(value, str) else "'%s'" % (value,)


def _integer(name, value, lo, hi):
    """An integer argument in [lo, hi], with the program's wording."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)):
        if isinstance(value, (float, np.floating)) and math.isfinite(value) and float(value).is_integer():
            value = int(value)
        else:
            raise UsageError("%s: %s is not an integer" % (name, _show(value)))
    if not lo <= value <= hi:
        raise UsageError("%s: '%d' is outside [%d, %d]" % (name, value, lo, hi))
    return int(value)


def _real(name, value):
    """A finite real argument, with the program's wording."""
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise UsageError("%s: %s is not a number" % (name, _show(value)))
    value = float(value)
    if not math.isfinite(value):
        raise UsageError("%s: '%r' is not a finite number" % (name, value))
    return value


def _choice(name, value):
    if value is not None and not isinstance(value, str):
        raise UsageError("%s: %s is not a string" % (name, _show(value)))
    return value.encode() if value else None


def _fit_options(loss="huber", huber_delta=None, space="log", grid=None, starts=None, seed=1, threads=0,
                 fix=None, bootstrap=0, bootstrap_starts=2, group=None, level=0.95):
    fixed = (ctypes.c_double * _lib.LAW_NPARAMS)(*([math.nan] * _lib.LAW_NPARAMS))
    if fix is not None and not isinstance(fix, dict):
        raise UsageError("fix: give a dict of parameter name -> value, not %s" % type(fix).__name__)
    for name, value in (fix or {}).items():
        if name not in PARAM_NAMES:
            raise UsageError("cannot fix %s: there is no such parameter (%s)" % (name, " ".join(PARAM_NAMES)))
        fixed[PARAM_NAMES.index(name)] = _real("fix", value)
    if huber_delta is not None:
        huber_delta = _real("huber_delta", huber_delta)
        if not huber_delta > 0:
            raise UsageError("huber_delta: '%r' must be positive" % huber_delta)
    level = _real("level", level)
    if not 0 < level < 1:
        raise UsageError("level: '%r' must be between 0 and 1" % level)
    o = _lib._FitOptions(
        _choice("loss", loss), math.nan if huber_delta is None else huber_delta,
        _choice("space", space), _choice("grid", grid),
        0 if starts is None else _integer("starts", starts, 1, 1000000), _integer("seed", seed, 0, 4294967295),
        _integer("threads", threads, 0, 256), fixed, _integer("bootstrap", bootstrap, 0, 10000000),
        _integer("bootstrap_starts", bootstrap_starts, 0, 100), _choice("group", group), level)
    return o, fixed


def _sweep_of(sweep):
    return sweep if isinstance(sweep, Sweep) else Sweep(sweep)


def _command(what):
    return "python: loopscale.%s (%s)" % (what, " ".join(sys.argv) if sys.argv and sys.argv[0] else "interactive")


class Law:
    """A law and, when it was fitted, how: the content of a law file.

    Attributes: kind ("moe:bounded-sparse"), params (dict of the law's
    parameters), fixed (names held fixed), stderr (dict, or None), ci (dict name
    -> (low, high) with ci_level, or None), draws (bootstrap draws, an array of
    shape (n, len(draw_names)) whose column j is parameter draw_names[j], or
    None), fit (the fit's statistics and provenance, or None), and document
    (the law file as a dict)."""

    def __init__(self, text, source="law"):
        if not isinstance(text, str):
            raise UsageError("Law: give the text of a law file (a str), not %s; read_law(path) reads a file"
                             % type(text).__name__)
        self.source = source
        err = _lib._Error()
        try:
            self.text = _lib.take_string(_lib.lib.ls_bind_law_normalise(text.encode("utf-8", "surrogateescape"),
                                                                        ctypes.byref(err)), err)
        except LoopscaleError as e:
            # The library calls the document "law"; name the file it came from.
            message = str(e)
            if source != "law" and message.startswith("law"):
                message = source + message[3:]
            raise type(e)(message, e.code) from None
        d = json.loads(self.text)
        self.document = d
        law = d["law"]
        self.kind = law["base"] + ":" + law["mapping"]
        self.params = dict(d["params"])
        self.names = list(self.params)
        self.fixed = list(d.get("fixed", []))
        self.stderr = d.get("stderr")
        ci = d.get("ci")
        self.ci = {k: tuple(v) for k, v in ci.items() if k != "level"} if ci else None
        self.ci_level = ci.get("level") if ci else None
        boot = d.get("bootstrap")
        self.draws = np.array(boot["draws"], dtype=float) if boot and boot.get("draws") else None
        self.draw_names = list(boot["params"]) if boot and boot.get("draws") else None
        self.fit = d.get("fit")
        # The files the law was fitted to: as the Sweep named them when fitted
        # here, else as the law file records them (relative to the directory
        # the fit ran in, which is usually the current one).
        self._data_paths = [e["file"] for e in (self.fit or {}).get("data", []) if isinstance(e, dict)
                            and isinstance(e.get("file"), str)]

    def not_a_fit(self):
        """Why the fit this law records is not a fit, or None: its best start
        did not converge, or a free parameter has no standard error (the
        sweep could not tell the parameters apart).  fit() returns neither;
        a law file edited by hand or from an older version may say so."""
        if not self.fit:
            return None
        if not self.fit.get("converged", True):
            return "the fit it records did not converge"
        if self.stderr is None:
            return None
        names = [n for n in self.params if n not in self.fixed and not _finite(self.stderr.get(n))]
        if not names:
            return None
        return "the fit it records cannot tell its parameters apart (no standard error for %s)" % ", ".join(names)

    def _check_usable(self, force, what):
        why = self.not_a_fit()
        if why is None:
            return
        if force:
            warnings.warn("%s: %s; used anyway (force=True)" % (self.source, why), stacklevel=3)
        else:
            raise DataError("%s: %s, so its parameters are not a law (force=True to use them anyway)"
                            % (self.source, why))

    @property
    def rmse(self):
        return self.fit["rmse"] if self.fit else None

    def to_json(self):
        """The law file's text, as the program writes it."""
        return self.text

    def save(self, path, inputs=()):
        """Write the law file through the library's output files, as the
        program does: a temporary file beside `path`, then a rename, so an
        interrupted save leaves the old file whole; a file replaced keeps its
        permissions and a new one gets the umask's.  Refuses (UsageError) to
        write onto the law's own data files or onto any file in `inputs`,
        under any name (same device and inode, symbolic links followed)."""
        if not isinstance(path, (str, bytes, os.PathLike)):
            raise UsageError("Law.save: the path must be a string or path, not %s" % type(path).__name__)
        shown = os.fsdecode(path)
        if shown == "":
            raise CantCreateError("'': cannot create: No such file or directory")
        target = _file_id(path)
        if target is not None:
            for name in list(self._data_paths) + [os.fsdecode(p) for p in _as_list(inputs)]:
                if _file_id(name) == target:
                    raise UsageError("%s would replace the input %s" % (shown, name))
        err = _lib._Error()
        data = self.text.encode()
        if _lib.lib.ls_bind_write_file(_encode_path(path), data, len(data), ctypes.byref(err)) != 0:
            _lib.raise_error(err)

    def predict(self, n_act, tokens, R=1, E=1, n_total=None, n_loop=None, k=1, force=False):
        """The predicted loss (nats per token) at each configuration; arguments
        are numbers or numpy arrays, broadcast together.  n_total defaults to
        n_act (dense), n_loop is needed wherever R > 1.  Returns a float for
        scalar input, else an array of the broadcast shape.  A law whose fit
        is not a fit (not_a_fit()) raises DataError unless force=True."""
        self._check_usable(force, "predict")
        given = {"n_act": n_act, "tokens": tokens, "R": R, "E": E, "k": k,
                 "n_total": n_act if n_total is None else n_total,
                 "n_loop": np.nan if n_loop is None else n_loop}
        arrays = np.broadcast_arrays(*[np.asarray(v, dtype=float) for v in given.values()])
        shape = arrays[0].shape
        flat = {name: np.ascontiguousarray(a.ravel(), dtype=float) for name, a in zip(given, arrays)}
        out = np.empty(flat["n_act"].size)
        ptr = lambda a: a.ctypes.data_as(ctypes.POINTER(ctypes.c_double))
        err = _lib._Error()
        if _lib.lib.ls_bind_predict(self.text.encode(), out.size, ptr(flat["n_act"]), ptr(flat["n_total"]),
                                    ptr(flat["n_loop"]), ptr(flat["R"]), ptr(flat["E"]), ptr(flat["k"]),
                                    ptr(flat["tokens"]), ptr(out), ctypes.byref(err)) != 0:
            _lib.raise_error(err)
        return float(out[0]) if shape == () else out.reshape(shape)

    def __repr__(self):
        values = ", ".join("%s=%.6g" % (k, v) for k, v in self.params.items())
        return "Law(%s: %s)" % (self.kind, values)


def _finite(x):
    return isinstance(x, (int, float)) and math.isfinite(x)


def _encode_path(path):
    """A path as the bytes the operating system takes (UsageError for a name
    that has none, such as a lone surrogate)."""
    try:
        return os.fsencode(path)
    except (UnicodeError, TypeError) as e:
        raise UsageError("%r is not a usable file name: %s" % (path, e)) from None


def _file_id(path):
    """(device, inode) of an existing regular file, following links; else None."""
    try:
        st = os.stat(path)
    except (OSError, ValueError, UnicodeError):
        return None
    import stat as _stat
    return (st.st_dev, st.st_ino) if _stat.S_ISREG(st.st_mode) else None


def read_law(path):
    """Read a law file written by the program or by Law.save().  A missing,
    unreadable or directory path is NoInputError (66); a file that is not a
    law file (not UTF-8, not JSON, a bad field) is DataError (65) naming it."""
    if not isinstance(path, (str, bytes, os.PathLike)):
        raise UsageError("read_law: the path must be a string or path, not %s" % type(path).__name__)
    shown = os.fsdecode(path)
    _encode_path(path)
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        raise NoInputError("%s: %s" % (shown, e.strerror or e)) from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise DataError("%s: not a law file: byte %d is not UTF-8 text" % (shown, e.start + 1)) from None
    path = shown
    return Law(text, source=os.fsdecode(path))


def default_law():
    """The law compiled into the library (moe:bounded-sparse fitted on the
    shipped sweep, with bootstrap draws): what solve() uses when given none."""
    err = _lib._Error()
    return Law(_lib.take_string(_lib.lib.ls_bind_default_law(ctypes.byref(err)), err))


def fit(sweep, law="moe:bounded-sparse", *, bootstrap=0, group=None, level=0.95, bootstrap_starts=2,
        loss="huber", huber_delta=None, space="log", grid=None, starts=None, seed=1, threads=0, fix=None):
    """Fit `law` to the sweep (a Sweep, or a path): the program's `loopscale fit`,
    with the same options (bootstrap=N for percentile intervals, group= to
    resample whole groups, grid="chinchilla" for Chinchilla's 4,500 starts,
    fix={"theta": 0} to hold parameters).  Returns a Law."""
    sw = _sweep_of(sweep)
    s, keep = sw._struct()
    o, fixed = _fit_options(loss, huber_delta, space, grid, starts, seed, threads, fix, bootstrap,
                            bootstrap_starts, group, level)
    err = _lib._Error()
    notes = ctypes.c_void_p()
    out = _lib.lib.ls_bind_fit2(law.encode(), ctypes.byref(s), ctypes.byref(o), _command("fit").encode(),
                                ctypes.byref(notes), ctypes.byref(err))
    if notes.value:
        lines = ctypes.string_at(notes.value).decode("utf-8", "replace").splitlines()
        _lib.lib.ls_bind_free(notes)
        for line in lines:
            warnings.warn(line, stacklevel=2)
    if not out:
        sw._raise(err)
    text = _lib.take_string(out, err)
    if sw._tmp is not None:
        # The temporary CSV file is gone once the Sweep is: record the table
        # instead (the sha256 stays that of the CSV text fitted).
        doc = json.loads(text)
        for entry in doc.get("fit", {}).get("data", []):
            if entry.get("file") == sw.paths[0]:
                entry["file"] = "<DataFrame>" if sw._labels is not None else "<dict>"
        text = json.dumps(doc)
    result = Law(text)
    result._data_paths = [p for p in sw.paths if sw._tmp is None] + \
        [p for p in result._data_paths if p not in sw.paths and not p.startswith("<")]
    return result


def holdout(sweep, laws, *, axes="R,N,D,E", split=None, loss="huber", huber_delta=None, space="log", grid=None,
            starts=None, seed=1, threads=0):
    """Which law predicts unseen runs best: for each axis, fit every law on the
    runs below the axis's largest value and predict those at it; split=["R>8"]
    also holds out the runs that satisfy every condition.  Returns the
    dict `loopscale holdout --format json` prints; holdout_frame() turns it
    into a pandas DataFrame."""
    sw = _sweep_of(sweep)
    s, keep = sw._struct()
    names, nlaws = _lib.strings(_as_list(laws))
    conditions, nsplit = _lib.strings(_as_list(split))
    o, fixed = _fit_options(loss, huber_delta, space, grid, starts, seed, threads)
    err = _lib._Error()
    text = _lib.take_string(_lib.lib.ls_bind_holdout(names, nlaws, axes.encode() if axes else None,
                                                     conditions if nsplit else None, nsplit, ctypes.byref(s),
                                                     ctypes.byref(o), ctypes.byref(err)), err)
    return json.loads(text)


def holdout_frame(result):
    """A holdout() result as a pandas DataFrame: one row per law and held-out
    column (axis "in-sample" for the in-sample fit)."""
    import pandas as pd
    rows = []
    for law in result["laws"]:
        rows.append({"law": law["law"], "axis": "in-sample", "test": "", "train_runs": result["n"],
                     "test_runs": 0, "rmse": law["in_sample_rmse"], "converged": law["converged"]})
        for h in law["heldout"]:
            rows.append({"law": law["law"], "axis": h["axis"], "test": h["test"], "train_runs": h["train_runs"],
                         "test_runs": h["test_runs"], "rmse": h["rmse"], "converged": h["converged"]})
    return pd.DataFrame(rows)


def solve(law=None, *, flops, mem=math.inf, bits=16, R=None, E=None, n_act=None, eps=None, uncertainty=False,
          level=0.95, threads=0, candidates=False, force=False):
    """The R*, E*, N_act* and D* that `flops` of training compute and `mem` bytes
    of weights (at `bits` per weight) should buy under `law` (a Law, a law-file
    path, or None for the default law): `loopscale solve --format json` as a
    dict (chosen, lowest_loss, unconstrained, and uncertainty with
    uncertainty=True).  A law whose fit is not a fit (Law.not_a_fit())
    raises DataError unless force=True (then a warning)."""
    if isinstance(law, (str, os.PathLike)):
        law = read_law(law)
    if law is not None:
        law._check_usable(force, "solve")
    text = law.text.encode() if law is not None else None

    def array(values):
        if values is None:
            return None, 0
        a = np.ascontiguousarray(np.atleast_1d(np.asarray(values, dtype=float)))
        return a, a.size

    Ra, nR = array(R)
    Ea, nE = array(E)
    La, nL = array(n_act)
    ptr = lambda a: a.ctypes.data_as(ctypes.POINTER(ctypes.c_double)) if a is not None else None
    err = _lib._Error()
    out = _lib.lib.ls_bind_solve(text, float(flops), float(mem), float(bits), ptr(Ra), nR, ptr(Ea), nE, ptr(La),
                                 nL, math.nan if eps is None else float(eps), int(bool(uncertainty)), float(level),
                                 int(threads), int(bool(candidates)), ctypes.byref(err))
    return json.loads(_lib.take_string(out, err))
