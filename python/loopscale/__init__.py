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

import numpy as np

from . import _lib
from ._lib import (LoopscaleError, UsageError, DataError, NoInputError, CantCreateError, IOFailure,
                   InternalError, NotConvergedError)

__all__ = ["Sweep", "Law", "fit", "holdout", "holdout_frame", "solve", "read_law", "default_law", "version",
           "PARAM_NAMES", "LoopscaleError", "UsageError", "DataError", "NoInputError", "CantCreateError",
           "IOFailure", "InternalError", "NotConvergedError"]

# The law parameters in the library's order (law.h's law_param).
PARAM_NAMES = ("A", "alpha", "B", "beta", "c", "delta", "gamma", "omega", "zeta", "E_start", "E_max", "phi",
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
    as --where ("R<=8").  The files are read by the library each time a fit
    needs them, with the same checks as the program: a bad cell raises
    DataError naming file, line, column and value.  A DataFrame or dict is
    written (every number at full precision) to a temporary CSV file that
    lives as long as the Sweep."""

    def __init__(self, source, map=None, where=None):
        self.maps = [str(m) for m in _as_list(map)]
        self.wheres = [str(w) for w in _as_list(where)]
        self._tmp = None
        if isinstance(source, (str, os.PathLike)):
            self.paths = [os.fspath(source)]
        elif isinstance(source, dict) or hasattr(source, "to_dict") and hasattr(source, "columns"):
            self.paths = [self._write_table(source)]
        else:
            self.paths = [os.fspath(p) for p in source]
        if not self.paths:
            raise UsageError("give at least one sweep file")

    def _write_table(self, table):
        if hasattr(table, "columns") and hasattr(table, "to_dict"):  # a pandas DataFrame
            columns = {str(c): np.asarray(table[c]) for c in table.columns}
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


def _fit_options(loss="huber", huber_delta=None, space="log", grid=None, starts=None, seed=1, threads=0,
                 fix=None, bootstrap=0, bootstrap_starts=2, group=None, level=0.95):
    fixed = (ctypes.c_double * _lib.LAW_NPARAMS)(*([math.nan] * _lib.LAW_NPARAMS))
    for name, value in (fix or {}).items():
        if name not in PARAM_NAMES:
            raise UsageError("cannot fix %s: there is no such parameter (%s)" % (name, " ".join(PARAM_NAMES)))
        fixed[PARAM_NAMES.index(name)] = float(value)
    o = _lib._FitOptions(
        loss.encode() if loss else None, math.nan if huber_delta is None else float(huber_delta),
        space.encode() if space else None, grid.encode() if grid else None, int(starts or 0), int(seed),
        int(threads), fixed, int(bootstrap), int(bootstrap_starts), group.encode() if group else None,
        float(level))
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

    def __init__(self, text):
        err = _lib._Error()
        self.text = _lib.take_string(_lib.lib.ls_bind_law_normalise(text.encode(), ctypes.byref(err)), err)
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

    @property
    def rmse(self):
        return self.fit["rmse"] if self.fit else None

    def to_json(self):
        """The law file's text, as the program writes it."""
        return self.text

    def save(self, path):
        """Write the law file (replaced atomically: a temporary file, then rename)."""
        directory = os.path.dirname(os.path.abspath(path))
        fd, tmp = tempfile.mkstemp(prefix=".loopscale-", dir=directory)
        try:
            with os.fdopen(fd, "w") as f:
                f.write(self.text)
            os.replace(tmp, path)
        except BaseException:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise

    def predict(self, n_act, tokens, R=1, E=1, n_total=None, n_loop=None, k=1):
        """The predicted loss (nats per token) at each configuration; arguments
        are numbers or numpy arrays, broadcast together.  n_total defaults to
        n_act (dense), n_loop is needed wherever R > 1.  Returns a float for
        scalar input, else an array of the broadcast shape."""
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


def read_law(path):
    """Read a law file written by the program or by Law.save()."""
    try:
        with open(path) as f:
            text = f.read()
    except FileNotFoundError as e:
        raise NoInputError("%s: %s" % (path, e.strerror)) from None
    return Law(text)


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
    text = _lib.take_string(_lib.lib.ls_bind_fit(law.encode(), ctypes.byref(s), ctypes.byref(o),
                                                 _command("fit").encode(), ctypes.byref(err)), err)
    return Law(text)


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
          level=0.95, threads=0, candidates=False):
    """The R*, E*, N_act* and D* that `flops` of training compute and `mem` bytes
    of weights (at `bits` per weight) should buy under `law` (a Law, a law-file
    path, or None for the default law): `loopscale solve --format json` as a
    dict (chosen, lowest_loss, unconstrained, and uncertainty with
    uncertainty=True)."""
    if isinstance(law, (str, os.PathLike)):
        law = read_law(law)
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
