"""Laws: the content of a law file, held by the library (an ls_lawfile)."""
import ctypes
import html
import json
import os
import warnings
import weakref

import numpy as np

from . import _lib, _warnings
from ._lib import UsageError, lib


def path_bytes(path, what):
    """A path (str, bytes or os.PathLike) as the bytes the system takes;
    UsageError for anything else or a name the system cannot take."""
    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    if isinstance(path, bytes):
        return path
    if not isinstance(path, str):
        raise UsageError("%s: give a file name (str, bytes or os.PathLike), not %s" % (what, type(path).__name__))
    try:
        return path.encode("utf-8", "surrogateescape")
    except UnicodeError:
        raise UsageError("%s: %r is not a name the system can take (it holds a lone surrogate)" % (what, path)) \
            from None


def _shown(path):
    return path.decode("utf-8", "replace") if isinstance(path, bytes) else path


class Law:
    """A law and, when it was fitted, how: the content of a law file.

    Attributes (read from the library's law file document): kind
    ("moe:bounded-sparse"), params (dict), fixed (names held fixed), stderr
    (dict, or None), ci (dict name -> (low, high), at ci_level; or None),
    draws (bootstrap draws: an array of shape (n, len(draw_names)), or None),
    fit (the fit's statistics and provenance, or None), rmse, warnings (the
    fit's verdict recorded in the file: code, subject, message), document
    (the whole file as a dict) and name (what messages call it: the path it
    was read from, "the default law", "<law>").

    Law(text) parses the text of a law file; read_law(path) reads one;
    fit(...).law is the law a fit made."""

    def __init__(self, text, name="<law>"):
        if isinstance(text, str):
            data = text.encode("utf-8", "surrogateescape")
        elif isinstance(text, bytes):
            data = text
        else:
            raise UsageError("Law: give the text of a law file (str), not %s; read_law(path) reads a file"
                             % type(text).__name__)
        err = _lib.Error()
        handle = lib.ls_lawfile_parse(data, len(data), str(name).encode("utf-8", "replace"), ctypes.byref(err))
        if not handle:
            raise _lib.error(err)
        self._adopt(handle, str(name))

    @classmethod
    def _from_handle(cls, handle, name):
        law = cls.__new__(cls)
        law._adopt(handle, name)
        return law

    def _adopt(self, handle, name):
        self._handle = handle
        self._finalizer = weakref.finalize(self, lib.ls_lawfile_free, handle)
        self.name = name
        self._file = None
        self._base = None  # for a law fitted here: the directory its recorded data paths are relative to
        err = _lib.Error()
        text = lib.ls_lawfile_to_json(handle, ctypes.byref(err))
        if not text:
            raise _lib.error(err)
        self.text = _lib.take_string(text)
        d = json.loads(self.text)
        self.document = d
        self.kind = d["law"]["base"] + ":" + d["law"]["mapping"]
        self.params = dict(d["params"])
        self.fixed = list(d.get("fixed", []))
        self.stderr = d.get("stderr")
        ci = d.get("ci")
        self.ci = {k: tuple(v) for k, v in ci.items() if k != "level"} if ci else None
        self.ci_level = ci.get("level") if ci else None
        boot = d.get("bootstrap") or {}
        self.draws = np.array(boot["draws"], dtype=float) if boot.get("draws") else None
        self.draw_names = list(boot["params"]) if boot.get("draws") else None
        self.fit = d.get("fit")
        self.warnings = [(w["code"], w["subject"], w["message"]) for w in d.get("warnings", [])]

    @property
    def rmse(self):
        return self.fit["rmse"] if self.fit else None

    def to_json(self):
        """The law file's text, as the program writes it."""
        return self.text

    def not_a_fit(self):
        """Why the fit this law records is not a fit (it did not converge, or
        the sweep could not tell its parameters apart), or None.  fit() makes
        no such law; a file edited by hand or from an older version may be
        one.  predict and the commands then refuse it unless force=True."""
        buf = ctypes.create_string_buffer(256)
        why = lib.ls_lawfile_not_a_fit(self._handle, buf, len(buf))
        return why.decode() if why else None

    def save(self, path, inputs=()):
        """Write the law file to path, as the program's -o does: atomically
        (a temporary file beside it, then a rename), gzip when the name ends
        in .gz.  The library refuses (UsageError, 64) an empty name, a name
        holding a NUL byte, and a path that is, under any name, one of
        `inputs` or a data file the law was fitted on (as recorded, and
        beside the law file it was read from); CantCreateError (73) when the
        file cannot be created."""
        target = path_bytes(path, "Law.save")
        if isinstance(inputs, (str, bytes, os.PathLike)):
            inputs = [inputs]
        names = [path_bytes(p, "Law.save: inputs") for p in inputs]
        array = (ctypes.c_char_p * max(len(names), 1))(*names)
        # The recorded data paths are relative to the law file's directory,
        # or for a law fitted in this process to where the fit ran.
        if self._file:
            source = os.fsencode(self._file[1])
        elif self._base:
            source = os.fsencode(os.path.join(self._base, "<fitted law>"))
        else:
            source = None
        err = _lib.Error()
        if lib.ls_lawfile_save(self._handle, target, len(target), source, array, len(names), ctypes.byref(err)) != 0:
            raise _lib.error(err)

    def _check_fit(self, force):
        """The library's verdict on using this law: an exception, or a warning
        when forced (returned, for the caller to warn at its caller)."""
        w = _lib.Warnings()
        err = _lib.Error()
        status = lib.ls_lawfile_check_fit(self._handle, self.name.encode("utf-8", "replace"), int(bool(force)),
                                          b"force=True", ctypes.byref(w), ctypes.byref(err))
        found = [_warnings.make(_lib.warning_code_name(w.v[i].code), w.v[i].subject.decode("utf-8", "replace"),
                                w.v[i].message.decode("utf-8", "replace")) for i in range(w.n)]
        lib.ls_warnings_free(ctypes.byref(w))
        if status != 0:
            raise _lib.error(err)
        return found

    def predict(self, n_act, tokens, R=None, E=None, n_total=None, n_loop=None, k=None, unique_tokens=None,
                force=False):
        """The loss (nats per token) the law predicts at each configuration.
        Arguments are numbers or arrays, broadcast together (numpy's rules);
        those not given take a sweep's defaults (n_total = n_act; R, E, k = 1;
        n_loop is needed wherever R > 1).  Each configuration is checked by
        the library as a sweep's row is, and the first bad one is a DataError
        naming its index in the flattened broadcast.  Returns a float for
        scalar arguments, else an array of the broadcast shape.  A law whose
        recorded fit is not a fit (not_a_fit()) raises DataError unless
        force=True, which warns (LawWarning) instead."""
        for w in self._check_fit(force):
            warnings.warn(w, stacklevel=2)
        given = {"n_act": n_act, "n_total": n_total, "n_loop": n_loop, "R": R, "E": E, "k": k, "tokens": tokens,
                 "unique_tokens": unique_tokens}
        if n_act is None or tokens is None:
            raise UsageError("Law.predict: give n_act and tokens")
        arrays = {}
        for name, value in given.items():
            if value is None:
                continue
            try:
                arrays[name] = np.asarray(value, dtype=float)
            except (TypeError, ValueError):
                raise UsageError("Law.predict: %s: %s is not a number or an array of numbers"
                                 % (name, _short(value))) from None
        try:
            views = dict(zip(arrays, np.broadcast_arrays(*arrays.values())))
        except ValueError as e:
            raise UsageError("Law.predict: the arguments do not broadcast together (%s)" % e) from None
        shape = views["n_act"].shape
        size = int(np.prod(shape, dtype=np.int64))
        out = np.empty(size)
        # In chunks, so that a scalar broadcast against a large array is
        # never copied to its full size.
        chunk = 1 << 16
        err = _lib.Error()
        for start in range(0, size, chunk):
            stop = min(size, start + chunk)
            pieces = {name: np.ascontiguousarray(v.flat[start:stop], dtype=float) for name, v in views.items()}
            columns = _lib.PredictColumns(**{name: p.ctypes.data_as(_lib._dp) for name, p in pieces.items()})
            # An ls_lawfile begins with its ls_law (lawfile.h): the handle is the law.
            if lib.ls_predict_points(self._handle, stop - start, ctypes.byref(columns),
                                     out[start:stop].ctypes.data_as(_lib._dp), ctypes.byref(err)) != 0:
                raise _lib.error(err, rename=lambda m: _offset_index(m, start))
        return float(out[0]) if shape == () else out.reshape(shape)

    def _is_file(self, path):
        """The law is the content of the file path (bytes) names, as of now:
        a command given this Law reads that file while it is unchanged, so
        that the command's guard protects it as the program's does, and save
        knows where the law's recorded data files lie."""
        self.name = os.fsdecode(path)
        absolute = os.path.abspath(path)
        self._file = (path, absolute, os.getcwd(), _identity(absolute))

    def _input(self, private):
        """The path a command reads this law from: its file when unchanged,
        named as the caller named it where that still holds; else a private
        copy of its text."""
        if self._file:
            given, absolute, cwd, identity = self._file
            if _identity(absolute) == identity:
                return given if os.getcwd() == cwd else absolute
        return private.add(self.text.encode("utf-8", "surrogateescape"), self.name).encode()

    def __repr__(self):
        values = ", ".join("%s=%.6g" % (k, v) for k, v in self.params.items())
        return "Law(%s: %s)" % (self.kind, values)

    def _repr_html_(self):
        return "<pre>%s</pre>" % html.escape(repr(self))


def _short(value):
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _offset_index(message, start):
    """The library numbers the configurations of a chunk from 0."""
    prefix = "configuration "
    if start and message.startswith(prefix):
        digits = message[len(prefix):].split(":", 1)
        if digits[0].isdigit():
            return "%s%d:%s" % (prefix, int(digits[0]) + start, digits[1])
    return message


def _identity(path):
    try:
        st = os.stat(path)
    except (OSError, ValueError):
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def read_law(path):
    """Read a law file (plain or gzip) through the library, with its checks
    and its 16 MiB limit: NoInputError (66) for a missing or unreadable path,
    DataError (65) naming the file for content that is not a law file."""
    name = path_bytes(path, "read_law")
    if b"\0" in name:
        raise UsageError("'%s...': the file name holds a NUL byte" % _shown(name.split(b"\0")[0]))
    if not name:
        raise UsageError("read_law: the file name is empty")
    err = _lib.Error()
    handle = lib.ls_lawfile_read(name, ctypes.byref(err))
    if not handle:
        raise _lib.error(err)
    law = Law._from_handle(handle, "<stdin>")
    if name != b"-":
        law._is_file(name)
    return law


def default_law():
    """The law compiled into the library (moe:bounded-sparse fitted on the
    shipped sweep, with bootstrap draws): what the commands use when given
    no law."""
    err = _lib.Error()
    handle = lib.ls_lawfile_default(ctypes.byref(err))
    if not handle:
        raise _lib.error(err)
    return Law._from_handle(handle, "the default law")
