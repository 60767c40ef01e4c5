"""Every command of the library as a Python function, made at import from
the library's registry and option table (loopscale/command.h): the options
are keyword arguments, converted to the program's text syntax and nothing
else; the library checks them, applies its defaults, runs the command and
says what to warn about.
"""
import ctypes
import html
import inspect
import io
import json
import logging
import os
import re
import reprlib
import sys
import textwrap
import warnings

import numpy as np

from . import _lib, _warnings
from ._lib import UsageError, lib
from ._law import Law, path_bytes
from ._private import Private, Table

log = logging.getLogger("loopscale")


# ---- the option table ------------------------------------------------------------------

class OptionInfo:
    """One option of one command as the library shows it (ls_option)."""

    def __init__(self, o):
        text = lambda b: b.decode() if b is not None else None
        self.name = text(o.name)
        self.keyword = self.name.replace("-", "_")
        self.type = o.type
        self.repeatable = bool(o.flags & _lib.OPTION_REPEATABLE)
        self.metavar = text(o.metavar)
        self.choices = text(o.choices)
        self.default_text = text(o.default_text)
        self.default_doc = text(o.default_doc)
        self.help = text(o.help)
        self.heading = text(o.heading)


def command_names():
    return [lib.ls_command_name(i).decode() for i in range(lib.ls_command_count())]


def command_options(command):
    out, o, i = [], _lib.Option(), 0
    while lib.ls_command_option(command.encode(), i, ctypes.byref(o)):
        out.append(OptionInfo(o))
        i += 1
    return out


OPTIONS = {name: {o.keyword: o for o in command_options(name)} for name in command_names()}


def _reader_options():
    """The sweep reader's options: those every command that reads SWEEP files
    takes, less those every command takes (--quiet)."""
    helps = {name: _help(name) for name in OPTIONS}
    readers = [name for name in OPTIONS if "SWEEP" in helps[name].split("\n\n", 1)[0]]
    common = set.intersection(*(set(OPTIONS[name]) for name in readers))
    everywhere = set.intersection(*(set(v) for v in OPTIONS.values()))
    return [k for k in OPTIONS[readers[0]] if k in common - everywhere]


def _help(command):
    return _lib.take_string(lib.ls_command_help(command.encode()))


# ---- values in the program's syntax ----------------------------------------------------------

def _scalar(value):
    """One value as the program's text: bool as true/false, int exact, float
    in its shortest round-trip form, a path as its bytes."""
    if isinstance(value, (bool, np.bool_)):
        return b"true" if value else b"false"
    if isinstance(value, (int, np.integer)):
        return str(int(value)).encode()
    if isinstance(value, (float, np.floating)):
        return repr(float(value)).encode()
    if isinstance(value, bytes):
        return value
    if isinstance(value, os.PathLike):
        value = os.fspath(value)
        if isinstance(value, bytes):
            return value
    if not isinstance(value, str):
        value = str(value)
    try:
        return value.encode("utf-8", "surrogateescape")
    except UnicodeError:
        raise UsageError("%r is not text the library can take (it holds a lone surrogate)" % (value,)) from None


def _is_sequence(value):
    return isinstance(value, (list, tuple, range, np.ndarray)) or (
        hasattr(value, "__iter__") and hasattr(value, "__len__") and not isinstance(value, (str, bytes, dict))
        and not isinstance(value, os.PathLike) and not hasattr(value, "columns"))


def _joined(values):
    """A list as the program's comma-separated list."""
    if isinstance(values, np.ndarray):
        values = values.ravel().tolist()
    return b",".join(_scalar(v) for v in values)


def _texts(option, value, private):
    """The values to set for one option: a list of bytes, or [None] for a
    switch that is on."""
    if option.type == _lib.OPTION_SWITCH and isinstance(value, (bool, np.bool_)):
        return [None] if value else [b"false"]
    if option.type == _lib.OPTION_OUTPUT and not isinstance(value, (str, bytes, os.PathLike)):
        raise UsageError("%s: give a path (str, bytes or os.PathLike), not %s %r"
                         % (option.keyword, type(value).__name__, value))
    if option.type == _lib.OPTION_INPUT:
        if isinstance(value, (bool, int, float, np.number)):
            raise UsageError("%s: give a file (a path, or a dict for a JSON document), not %s %r"
                             % (option.keyword, type(value).__name__, value))
        return [_input_path(value, private)]
    if option.repeatable:
        if isinstance(value, dict):
            return [_scalar(k) + b"=" + _scalar(v) for k, v in value.items()]
        if _is_sequence(value):
            return [_scalar(v) for v in value]
        return [_scalar(value)]
    if _is_sequence(value):
        return [_joined(value)]
    return [_scalar(value)]


def _input_path(value, private):
    """A file a command reads: a path, a Law (its file, or a private copy), a
    fit's result (its law), a Sweep of one file or of a table."""
    if isinstance(value, FitResult):
        value = value.law
    if isinstance(value, Law):
        return value._input(private)
    if isinstance(value, Sweep):
        paths = value._paths(private)
        if len(paths) == 1 and not value.options:
            return paths[0]
        raise UsageError("a Sweep of %d files, or with reader options, given where one file is read" % len(paths))
    if isinstance(value, dict):
        # A JSON document given as a dict (a template, a profile): the
        # library reads it from a private file, named "<dict>" in messages.
        return private.add(json.dumps(value).encode(), "<dict>").encode()
    return _scalar(value)


# ---- sweeps ----------------------------------------------------------------------------

class Sweep:
    """Training runs: one or more sweep files (CSV or JSON Lines, plain or gzip),
    or a pandas DataFrame or a dict of equal-length columns, with the sweep
    reader's options (map, where, profile, run, step, last, skip_invalid,
    loss_unit, bytes_per_token, group_tol), in the program's syntax
    (map={"n_act": "Model Size"} or ["n_act=Model Size"], where="R<=8").

    A Sweep is read by each command given it, with the options set on that
    command's request; the options are checked when the Sweep is made.  A
    DataFrame or dict goes to the library as CSV text, every float in its
    shortest round-trip form, through a private in-memory file: errors name
    its rows by index label ("<DataFrame> row 'b': column 'loss': ...")."""

    def __init__(self, source, **options):
        if isinstance(source, Sweep):
            options = {**source.options, **options}
            self._table, self._files = source._table, source._files
        elif isinstance(source, (str, bytes, os.PathLike)):
            self._table, self._files = None, [path_bytes(source, "Sweep")]
        elif isinstance(source, dict) or (hasattr(source, "columns") and hasattr(source, "index")):
            self._table, self._files = Table(source), []
        elif _is_sequence(source):
            self._table, self._files = None, [path_bytes(p, "Sweep") for p in source]
        else:
            raise UsageError("Sweep: give a path, a list of paths, a DataFrame or a dict of columns, not %s"
                             % type(source).__name__)
        if self._table is None and not self._files:
            raise UsageError("Sweep: give at least one sweep file")
        # The options, checked now by the library on a request that is never run.
        self.options = {k: v for k, v in options.items() if v is not None}
        check = _Request("fit", Private())
        try:
            check.set_options(self.options, READER_OPTIONS_SET, "Sweep")
        finally:
            check.free()

    def _paths(self, private):
        if self._table is not None:
            return [private.add(self._table.data, self._table.kind, self._table).encode()]
        return list(self._files)

    def __repr__(self):
        if self._table is not None:
            what = repr(self._table)
        else:
            shown = [f.decode("utf-8", "replace") for f in self._files]
            what = repr(shown[0]) if len(shown) == 1 else repr(shown)
        return "Sweep(%s)" % ", ".join([what] + ["%s=%r" % kv for kv in self.options.items()])


# ---- running a request --------------------------------------------------------------------

class _Request:
    """A library request being filled; freed with free()."""

    def __init__(self, command, private):
        err = _lib.Error()
        self.command = command
        self.private = private
        self.handle = lib.ls_request_new(command.encode(), _lib.FRONT_END_KEYWORDS, ctypes.byref(err))
        if not self.handle:
            raise _lib.error(err)

    def free(self):
        if self.handle:
            lib.ls_request_free(self.handle)
            self.handle = None

    def __del__(self):
        self.free()

    def set(self, keyword, value):
        err = _lib.Error()
        option = OPTIONS[self.command].get(keyword)
        if option is None:  # the library names it: "unknown option 'x'"
            texts = [_scalar(value)]
        else:
            texts = _texts(option, value, self.private)
        for text in texts:
            if lib.ls_request_set_n(self.handle, keyword.encode(), text, len(text) if text is not None else 0,
                                    ctypes.byref(err)) != 0:
                raise _lib.error(err, rename=self.private.rename)

    def set_options(self, options, allowed=None, who=None):
        for keyword, value in options.items():
            if value is None:
                continue
            if allowed is not None and keyword not in allowed:
                raise UsageError("%s: unknown option '%s' (a Sweep takes the sweep reader's: %s)"
                                 % (who, keyword, ", ".join(sorted(allowed))))
            self.set(keyword, value)

    def add_operand(self, path):
        err = _lib.Error()
        if lib.ls_request_add_operand(self.handle, path, len(path), ctypes.byref(err)) != 0:
            raise _lib.error(err, rename=self.private.rename)


def _invocation(command, operands, options):
    r = reprlib.Repr()
    r.maxstring, r.maxother, r.maxlist = 200, 200, 20
    parts = [r.repr(o) for o in operands] + ["%s=%s" % (k, r.repr(v)) for k, v in options.items()]
    script = sys.argv[0] if sys.argv and sys.argv[0] else "interactive"
    return "python: loopscale.%s(%s) (%s)" % (command, ", ".join(parts), script)


def _operands(operands, private):
    """The operand paths, and the reader options of the Sweeps among them
    (one set for the call: the library reads every file with it)."""
    paths, sweep_options = [], None
    pending = list(operands)
    while pending:
        operand = pending.pop(0)
        if isinstance(operand, dict) or hasattr(operand, "columns"):
            operand = Sweep(operand)
        if isinstance(operand, Sweep):
            if sweep_options is not None and operand.options != sweep_options:
                raise UsageError("the Sweeps of one call are read with one set of reader options: %r and %r differ"
                                 % (sweep_options, operand.options))
            sweep_options = operand.options
            paths += operand._paths(private)
        elif not isinstance(operand, (str, bytes, os.PathLike)) and _is_sequence(operand):
            pending[:0] = list(operand)
        elif isinstance(operand, (str, bytes, os.PathLike)):
            paths.append(_scalar(operand))
        else:
            raise UsageError("a sweep is a path (str, bytes or os.PathLike), a Sweep, a DataFrame or a dict of "
                             "columns, not %s %r" % (type(operand).__name__, operand))
    return paths, sweep_options


# Commands whose JSON document is made only with --format json (predict over
# a sweep streams its rows); the package asks for it when the caller chose no
# format, so that .json and to_frame() have the data.
_JSON_ONLY = {"predict"}


def run(command, operands, options, emit=None):
    """Run a command: (result, exception or None).  emit(result) is called
    once the command has run and before any file is written, so that a
    warning filter that raises stops the writing."""
    private = Private()
    req = None
    try:
        req = _Request(command, private)
        paths, sweep_options = _operands(operands, private)
        if sweep_options:
            req.set_options(sweep_options)
        req.set_options(options)
        forced_json = command in _JSON_ONLY and bool(paths) and options.get("format") is None
        if forced_json:
            req.set("format", "json")
        for path in paths:
            req.add_operand(path)
        err = _lib.Error()
        invocation = _invocation(command, operands, options)
        if lib.ls_request_set_invocation(req.handle, invocation.encode("utf-8", "replace"), ctypes.byref(err)) != 0:
            raise _lib.error(err)
        res = ctypes.c_void_p()
        status = lib.ls_command_run(req.handle, ctypes.byref(res), ctypes.byref(err))
        if not res:
            raise _lib.error(err)
        try:
            result = _collect(command, res, private, options, forced_json)
            result.invocation = invocation
            failure = _lib.error(err, result, private.rename) if status != 0 else None
            if emit is not None:
                emit(result)
            if status == 0 and lib.ls_result_output_count(res) > 0:
                if lib.ls_result_commit(res, ctypes.byref(err)) != 0:
                    failure = _lib.error(err, result, private.rename)
                else:
                    result.outputs = [lib.ls_result_output_path(res, i).decode("utf-8", "surrogateescape")
                                      for i in range(lib.ls_result_output_count(res))]
                    result._committed(options)
        finally:
            lib.ls_result_free(res)
        if not options.get("quiet"):
            for note in result.notes:
                log.info("%s: %s", command, note)
        return result, failure
    finally:
        if req is not None:
            req.free()
        private.close()


def _collect(command, res, private, options, forced_json):
    fmt = options.get("format")
    escape = "html" if fmt == "html" else "json" if fmt == "json" or forced_json else None
    text = ctypes.string_at(lib.ls_result_text(res)).decode("utf-8", "replace")
    document = lib.ls_result_json(res)
    document = json.loads(private.rename(ctypes.string_at(document).decode("utf-8", "replace"), "json")) \
        if document else None
    notes, found = [], []
    note, warning = ctypes.c_char_p(), ctypes.POINTER(_lib.Warning_)()
    for i in range(lib.ls_result_message_count(res)):
        lib.ls_result_message(res, i, ctypes.byref(note), ctypes.byref(warning))
        if note.value is not None:
            notes.append(private.rename(note.value.decode("utf-8", "replace")))
        else:
            w = warning.contents
            found.append(_warnings.make(_lib.warning_code_name(w.code),
                                        private.rename(w.subject.decode("utf-8", "replace")),
                                        private.rename(w.message.decode("utf-8", "replace"))))
    cls = FitResult if command == "fit" else Result
    return cls(command, private.rename(text, escape), document, found, notes, forced_json)


# ---- results ------------------------------------------------------------------------------

class Result:
    """What a command returns: `text` (what the program prints on standard
    output, in the format asked for), `json` (the command's JSON document,
    parsed: what `loopscale COMMAND --format json` prints; None for a command
    without one), `warnings` (code, subject, message; also given to
    warnings.warn), `notes` (information lines; also logged at INFO on the
    "loopscale" logger), `outputs` (the files written) and `invocation` (the
    call, as files written record it).  to_frame() gives a pandas DataFrame
    where the result is a table."""

    def __init__(self, command, text, document, warnings_, notes, forced_json=False):
        self.command = command
        self.text = text
        self.json = document
        self.warnings = [(w.code, w.subject, str(w)) for w in warnings_]
        self._warnings = warnings_
        self.notes = notes
        self.outputs = []
        self.invocation = None
        self._forced_json = forced_json

    def _committed(self, options):
        """Called once the files are written."""

    def to_frame(self):
        """The result's table as a pandas DataFrame (holdout, frontier, isoflop,
        isofit, predict, route, exit, shape, simulate, solve's candidates)."""
        maker = _FRAMES.get(self.command)
        if maker is None:
            raise TypeError("loopscale %s has no table to make a DataFrame of" % self.command)
        import pandas as pd
        return maker(pd, self)

    def __repr__(self):
        if self._forced_json and self.json is not None:
            try:  # the rows the document holds, not the document
                return repr(self.to_frame())
            except ImportError:
                pass
        if self.text:
            return self.text.rstrip("\n")
        if self.outputs:
            return "loopscale %s: wrote %s" % (self.command, ", ".join(self.outputs))
        return "<loopscale %s result>" % self.command

    def _repr_html_(self):
        return "<pre>%s</pre>" % html.escape(repr(self))


class FitResult(Result):
    """A fit: its table (`text`), its law file (`json`), and the Law it made
    (`law`; `laws` with one per group for by=)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.laws = []
        if self.json is not None:
            grouped = self.json.get("format", "").startswith("loopscale-fit-groups")
            self.laws = [Law(json.dumps(d), "<law>") for d in (self.json["laws"] if grouped else [self.json])]
            for law in self.laws:  # its data's paths are relative to where the fit ran
                law._base = os.getcwd()

    @property
    def law(self):
        if len(self.laws) != 1:
            raise ValueError("this fit made %d laws (one per group): see .laws" % len(self.laws))
        return self.laws[0]

    def _committed(self, options):
        # A law written to a file is that file's from now on: a command given
        # it reads the file (while unchanged), and the guard protects it.
        output = options.get("output")
        path = _scalar(output) if output is not None else b"-"  # the name the library wrote
        if len(self.laws) == 1 and path != b"-":
            self.laws[0]._is_file(path)


def _frame_holdout(pd, r):
    rows = []
    for law in r.json["laws"]:
        rows.append({"law": law["law"], "axis": "in-sample", "test": "", "train_runs": r.json["n"], "test_runs": 0,
                     "rmse": law["in_sample_rmse"], "converged": law["converged"]})
        for h in law["heldout"]:
            rows.append({"law": law["law"], "axis": h["axis"], "test": h["test"], "train_runs": h["train_runs"],
                         "test_runs": h["test_runs"], "rmse": h["rmse"], "converged": h["converged"]})
    return pd.DataFrame(rows)


def _frame_isoflop(pd, r):
    return pd.DataFrame([{"flops": p["flops"], "E": p["E"], "R": p["R"], **p["minimum"]} for p in r.json["profiles"]])


def _frame_predict(pd, r):
    if r.json is None:
        raise TypeError("predict over a sweep keeps its rows only as JSON: leave format unset for to_frame()")
    if "rows" in r.json:
        return pd.DataFrame(r.json["rows"])
    return pd.DataFrame([{k: v for k, v in r.json.items() if k != "format"}])


def _frame_route(pd, r):
    rows = []
    for layer in r.json["per_layer"]:
        base = {k: v for k, v in layer.items() if k != "per_loop"}
        for loop in layer.get("per_loop", []):
            rows.append({"layer": layer["layer"], **loop})
        rows.append({"layer": base.pop("layer"), "loop": "all", **base})
    return pd.DataFrame(rows)


def _frame_solve(pd, r):
    if "candidates" in r.json:
        return pd.DataFrame(r.json["candidates"])
    keys = [k for k in ("chosen", "lowest_loss", "unconstrained") if k in r.json]
    return pd.DataFrame([r.json[k] for k in keys], index=keys)


def _frame_simulate(pd, r):
    if not r.text:
        raise TypeError("simulate wrote its runs to %s: read them from there" % ", ".join(r.outputs))
    return pd.read_csv(io.StringIO(r.text), float_precision="round_trip")


_FRAMES = {
    "holdout": _frame_holdout,
    "frontier": lambda pd, r: pd.DataFrame(r.json["frontier"]),
    "isoflop": _frame_isoflop,
    "isofit": lambda pd, r: pd.DataFrame(r.json["budgets"]),
    "predict": _frame_predict,
    "route": _frame_route,
    "exit": lambda pd, r: pd.DataFrame(r.json["sweep"], columns=r.json["columns"]),
    "shape": lambda pd, r: pd.DataFrame(r.json["params"]),
    "solve": _frame_solve,
    "simulate": _frame_simulate,
}


# ---- the functions ---------------------------------------------------------------------------

class _Default:
    """A default as the signature shows it: the table's text."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


def _shown_default(o):
    if o.type == _lib.OPTION_SWITCH:
        return False
    if o.default_doc:
        return _Default("<%s>" % o.default_doc)
    if o.default_text is None or o.default_text == "":
        return None
    if o.type in (_lib.OPTION_INTEGER, _lib.OPTION_NUMBER, _lib.OPTION_LEVEL):
        for number in (int, float):
            try:
                return number(o.default_text)
            except ValueError:
                pass
    return o.default_text


def _description(help_text, first_heading):
    """The paragraphs of `loopscale CMD --help` between the usage and the
    options (and the first option's heading, when it has one)."""
    lines = help_text.split("\n")
    i = 0
    while i < len(lines) and lines[i].strip():  # the usage
        i += 1
    out = []
    for line in lines[i + 1:]:
        if re.match(r"^(  -\w, |      )--\w", line):
            break
        out.append(line)
    heading = first_heading.strip("\n").split("\n") if first_heading else []
    if heading and out[-len(heading):] == heading:
        del out[-len(heading):]
    return "\n".join(out).strip("\n")


def _operand_name(help_text):
    usage = help_text.split("\n", 1)[0]
    for word in ("SWEEP", "LOGITS", "FILE"):
        if re.search(r"\b%s\b" % word, usage):
            return {"SWEEP": "sweeps", "LOGITS": "logits", "FILE": "files"}[word]
    return "operands"


def _docstring(command, summary, help_text, options):
    first = next(iter(options.values()), None)
    about = ("`loopscale %s` run by the library: operands are positional (paths, Sweeps), options keyword "
             "arguments in the program's syntax (docs/python.md).  Returns a Result (.text, .json, .warnings, "
             ".notes, to_frame()); a failure raises the LoopscaleError of its exit status." % command)
    parts = [summary[0].upper() + summary[1:] + ".", "", _description(help_text, first and first.heading), "",
             textwrap.fill(about, 79), "",
             "Options", "-------"]
    for o in options.values():
        default = o.default_doc or o.default_text
        kind = o.choices if o.type == _lib.OPTION_CHOICE and o.choices else o.metavar or "switch"
        if o.type == _lib.OPTION_SWITCH:
            kind = "bool"
        head = "%s : %s" % (o.keyword, kind)
        if default:
            head += " (default: %s)" % default
        if o.repeatable:
            head += ", repeatable: a list or dict gives several"
        parts.append(head)
        parts.append(textwrap.fill(o.help, 79, initial_indent="    ", subsequent_indent="    "))
    return "\n".join(parts)


def _make(command, index):
    summary = lib.ls_command_summary(index).decode()
    help_text = _help(command)
    options = OPTIONS[command]

    def function(*operands, **options):
        def emit(result):
            # The caller's line: emit, run, this function, the caller.
            for w in result._warnings:
                warnings.warn(w, stacklevel=4)

        result, failure = run(command, operands, options, emit)
        if failure is not None:
            raise failure
        return result

    function.__name__ = function.__qualname__ = command
    function.__module__ = "loopscale"
    params = [inspect.Parameter(_operand_name(help_text), inspect.Parameter.VAR_POSITIONAL)]
    params += [inspect.Parameter(o.keyword, inspect.Parameter.KEYWORD_ONLY, default=_shown_default(o))
               for o in options.values()]
    function.__signature__ = inspect.Signature(params)
    function.__doc__ = _docstring(command, summary, help_text, options)
    return function


READER_OPTIONS = _reader_options()
READER_OPTIONS_SET = set(READER_OPTIONS)
Sweep.__init__.__signature__ = inspect.Signature(
    [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD),
     inspect.Parameter("source", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    + [inspect.Parameter(k, inspect.Parameter.KEYWORD_ONLY, default=_shown_default(OPTIONS["fit"][k]))
       for k in READER_OPTIONS])

COMMANDS = {name: _make(name, i) for i, name in enumerate(command_names())}
