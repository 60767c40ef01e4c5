"""Loading libloopscale and declaring the entry points the package calls:
the command layer (loopscale/command.h), law files (lawfile.h) and
vectorised prediction (predict.h).

The library is found, in order: the path in the LOOPSCALE_LIBRARY environment
variable; the one `cmake --install` recorded beside this package (_location.py);
a libloopscale.so.0 next to this file; the system's (ctypes.util.find_library).
"""
import ctypes
import ctypes.util
import os


class LoopscaleError(Exception):
    """An error reported by libloopscale, with the message the loopscale
    program prints.  `code` (and its alias `exit_status`) is the status the
    program exits with for it (64 usage, 65 data, 66 no input, 73 cannot
    create, 74 I/O, 70 internal, 3 a fit that yields no law); `library_code` the
    library's LS_ERR_* value; `result` the partial result of the command that
    failed (what it printed before failing, its notes and warnings), or None."""

    code = exit_status = library_code = None

    def __init__(self, message, result=None):
        super().__init__(message)
        self.result = result


class UsageError(LoopscaleError, ValueError):
    """A bad argument (the program's exit status 64)."""
    code = exit_status = 64
    library_code = -1


class DataError(LoopscaleError, ValueError):
    """Bad input data: the message names the file, line, column and value (65)."""
    code = exit_status = 65
    library_code = -2


class NoInputError(LoopscaleError, FileNotFoundError):
    """An input file is missing or unreadable (66)."""
    code = exit_status = 66
    library_code = -3


class CantCreateError(LoopscaleError, OSError):
    """An output file cannot be created (73)."""
    code = exit_status = 73
    library_code = -4


class IOFailure(LoopscaleError, OSError):
    """A read or write failed midway (74)."""
    code = exit_status = 74
    library_code = -5


class InternalError(LoopscaleError, RuntimeError):
    """Out of memory or a solver failure (70)."""
    code = exit_status = 70
    library_code = -6


class NotConvergedError(LoopscaleError, RuntimeError):
    """A fit that yields no law (3): its best start did not converge, or its
    runs cannot determine its parameters (a singular Jacobian, data that
    cannot tell them apart, a best fit outside the law's domain)."""
    code = exit_status = 3
    library_code = -7


_ERRORS = {c.library_code: c for c in (UsageError, DataError, NoInputError, CantCreateError, IOFailure,
                                       InternalError, NotConvergedError)}


def error_class(library_code):
    return _ERRORS.get(library_code, LoopscaleError)


class Error(ctypes.Structure):
    """ls_error (loopscale/error.h)."""
    _fields_ = [("code", ctypes.c_int), ("message", ctypes.c_char * 1024)]

    def text(self):
        return self.message.decode("utf-8", "replace")


class Option(ctypes.Structure):
    """ls_option (loopscale/command.h)."""
    _fields_ = [("name", ctypes.c_char_p), ("short_name", ctypes.c_char), ("type", ctypes.c_int),
                ("flags", ctypes.c_uint), ("metavar", ctypes.c_char_p), ("min", ctypes.c_double),
                ("max", ctypes.c_double), ("choices", ctypes.c_char_p), ("default_text", ctypes.c_char_p),
                ("default_doc", ctypes.c_char_p), ("help", ctypes.c_char_p), ("heading", ctypes.c_char_p),
                ("unit", ctypes.c_char_p)]


# ls_option_type and the option flags (loopscale/command.h).
(OPTION_SWITCH, OPTION_TEXT, OPTION_CHOICE, OPTION_INPUT, OPTION_OUTPUT, OPTION_INTEGER, OPTION_NUMBER, OPTION_COUNT,
 OPTION_FLOPS, OPTION_BYTES, OPTION_LIST, OPTION_FLOPS_LIST, OPTION_LAW, OPTION_LAWS, OPTION_AXES, OPTION_PAIR,
 OPTION_CONDITION, OPTION_SIZE, OPTION_LEVEL) = range(19)
OPTION_REPEATABLE = 1
FRONT_END_KEYWORDS = 1  # ls_front_end: LS_FRONT_END_KEYWORDS


class Warning_(ctypes.Structure):
    """ls_warning (loopscale/warning.h)."""
    _fields_ = [("code", ctypes.c_int), ("subject", ctypes.c_char_p), ("message", ctypes.c_char_p)]


class Warnings(ctypes.Structure):
    """ls_warnings (loopscale/warning.h)."""
    _fields_ = [("v", ctypes.POINTER(Warning_)), ("n", ctypes.c_size_t), ("cap", ctypes.c_size_t)]


_dp = ctypes.POINTER(ctypes.c_double)


class PredictColumns(ctypes.Structure):
    """ls_predict_columns (loopscale/predict.h)."""
    _fields_ = [(name, _dp) for name in ("n_act", "n_total", "n_loop", "R", "E", "k", "tokens", "unique_tokens")]


def _candidates():
    env = os.environ.get("LOOPSCALE_LIBRARY")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    try:
        from . import _location
        yield os.path.normpath(os.path.join(here, _location.LIBRARY))
    except ImportError:
        pass
    yield os.path.join(here, "libloopscale.so.0")
    found = ctypes.util.find_library("loopscale")
    if found:
        yield found
    yield "libloopscale.so.0"


def _load():
    tried = []
    for path in _candidates():
        if os.sep in path and not os.path.exists(path):
            tried.append(path + " (absent)")
            continue
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
    raise ImportError("loopscale: cannot load libloopscale.so.0; set LOOPSCALE_LIBRARY to its path. Tried: "
                      + "; ".join(tried))


lib = _load()
libc = ctypes.CDLL(None)  # free() for the library's malloc'd strings


def _declare(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)


_P = ctypes.POINTER
_vp, _cp, _sz, _int = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_size_t, ctypes.c_int
libc.free.restype = None
libc.free.argtypes = [_vp]
_declare("ls_version", _cp)
_declare("ls_command_count", _sz)
_declare("ls_command_name", _cp, _sz)
_declare("ls_command_summary", _cp, _sz)
_declare("ls_command_option", _int, _cp, _sz, _P(Option))
_declare("ls_command_help", _vp, _cp)
_declare("ls_warning_code_name", _cp, _int)
_declare("ls_request_new", _vp, _cp, _int, _P(Error))
_declare("ls_request_free", None, _vp)
_declare("ls_request_set_n", _int, _vp, _cp, _cp, _sz, _P(Error))
_declare("ls_request_add_operand", _int, _vp, _cp, _sz, _P(Error))
_declare("ls_request_set_invocation", _int, _vp, _cp, _P(Error))
_declare("ls_command_run", _int, _vp, _P(_vp), _P(Error))
_declare("ls_result_text", _vp, _vp)
_declare("ls_result_json", _vp, _vp)
_declare("ls_result_message_count", _sz, _vp)
_declare("ls_result_message", None, _vp, _sz, _P(_cp), _P(_P(Warning_)))
_declare("ls_result_output_count", _sz, _vp)
_declare("ls_result_output_path", _cp, _vp, _sz)
_declare("ls_result_commit", _int, _vp, _P(Error))
_declare("ls_result_free", None, _vp)
_declare("ls_lawfile_read", _vp, _cp, _P(Error))
_declare("ls_lawfile_parse", _vp, _cp, _sz, _cp, _P(Error))
_declare("ls_lawfile_default", _vp, _P(Error))
_declare("ls_lawfile_free", None, _vp)
_declare("ls_lawfile_to_json", _vp, _vp, _P(Error))
_declare("ls_lawfile_save", _int, _vp, _cp, _sz, _cp, _P(_cp), _sz, _P(Error))
_declare("ls_lawfile_not_a_fit", _cp, _vp, _cp, _sz)
_declare("ls_lawfile_check_fit", _int, _vp, _cp, _int, _cp, _P(Warnings), _P(Error))
_declare("ls_warnings_free", None, _P(Warnings))
_declare("ls_predict_points", _int, _vp, _sz, _P(PredictColumns), _dp, _P(Error))


def error(err, result=None, rename=None):
    """The exception for a filled ls_error (its message passed through
    rename, which names private files as the caller knows them)."""
    message = err.text()
    if rename is not None:
        message = rename(message)
    return error_class(err.code)(message, result)


def take_string(pointer):
    """The malloc'd NUL-terminated string at pointer, freed."""
    try:
        return ctypes.string_at(pointer).decode("utf-8", "replace")
    finally:
        libc.free(pointer)


def warning_code_name(code):
    name = lib.ls_warning_code_name(code)
    return name.decode() if name else None
