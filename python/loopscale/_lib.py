"""Loading libloopscale and calling its flat entry points (loopscale/bindings.h).

The library is found, in order: the path in the LOOPSCALE_LIBRARY environment
variable; the one `cmake --install` recorded beside this package (_location.py);
a libloopscale.so.0 next to this file; the system's (ctypes.util.find_library).
"""
import ctypes
import ctypes.util
import os

LAW_NPARAMS = 21


class LoopscaleError(Exception):
    """An error reported by libloopscale; `code` is the library's LS_ERR_* value
    and `exit_status` the status the loopscale program exits with for it."""

    code = None
    exit_status = None

    def __init__(self, message, code=None):
        super().__init__(message)
        if code is not None:
            self.code = code


class UsageError(LoopscaleError, ValueError):
    """A bad argument (the program's exit status 64)."""
    code, exit_status = -1, 64


class DataError(LoopscaleError, ValueError):
    """Bad input data: the message names the file, line, column and value (65)."""
    code, exit_status = -2, 65


class NoInputError(LoopscaleError, FileNotFoundError):
    """An input file is missing or unreadable (66)."""
    code, exit_status = -3, 66


class CantCreateError(LoopscaleError, OSError):
    """An output file cannot be created (73)."""
    code, exit_status = -4, 73


class IOFailure(LoopscaleError, OSError):
    """A read or write failed midway (74)."""
    code, exit_status = -5, 74


class InternalError(LoopscaleError, RuntimeError):
    """Out of memory or a solver failure (70)."""
    code, exit_status = -6, 70


class NotConvergedError(LoopscaleError, RuntimeError):
    """A fit did not converge (3)."""
    code, exit_status = -7, 3


_ERRORS = {c.code: c for c in (UsageError, DataError, NoInputError, CantCreateError, IOFailure,
                               InternalError, NotConvergedError)}


class _Error(ctypes.Structure):
    _fields_ = [("code", ctypes.c_int), ("message", ctypes.c_char * 1024)]


class _Sweep(ctypes.Structure):
    _fields_ = [("paths", ctypes.POINTER(ctypes.c_char_p)), ("npaths", ctypes.c_size_t),
                ("maps", ctypes.POINTER(ctypes.c_char_p)), ("nmaps", ctypes.c_size_t),
                ("wheres", ctypes.POINTER(ctypes.c_char_p)), ("nwheres", ctypes.c_size_t)]


class _FitOptions(ctypes.Structure):
    _fields_ = [("loss", ctypes.c_char_p), ("huber_delta", ctypes.c_double), ("space", ctypes.c_char_p),
                ("grid", ctypes.c_char_p), ("starts", ctypes.c_size_t), ("seed", ctypes.c_ulong),
                ("threads", ctypes.c_int), ("fixed", ctypes.POINTER(ctypes.c_double)),
                ("bootstrap", ctypes.c_size_t), ("bootstrap_starts", ctypes.c_size_t),
                ("group", ctypes.c_char_p), ("level", ctypes.c_double)]


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
_P = ctypes.POINTER
_d = ctypes.c_double
_dp = _P(ctypes.c_double)
lib.ls_version.restype = ctypes.c_char_p
lib.ls_version.argtypes = []
lib.ls_bind_free.argtypes = [ctypes.c_void_p]
lib.ls_bind_fit.restype = ctypes.c_void_p
lib.ls_bind_fit.argtypes = [ctypes.c_char_p, _P(_Sweep), _P(_FitOptions), ctypes.c_char_p, _P(_Error)]
lib.ls_bind_fit2.restype = ctypes.c_void_p
lib.ls_bind_fit2.argtypes = [ctypes.c_char_p, _P(_Sweep), _P(_FitOptions), ctypes.c_char_p,
                             _P(ctypes.c_void_p), _P(_Error)]
lib.ls_bind_sweep_check.restype = ctypes.c_int
lib.ls_bind_sweep_check.argtypes = [_P(_Sweep), _P(ctypes.c_size_t), _P(_Error)]
lib.ls_bind_holdout.restype = ctypes.c_void_p
lib.ls_bind_holdout.argtypes = [_P(ctypes.c_char_p), ctypes.c_size_t, ctypes.c_char_p, _P(ctypes.c_char_p),
                                ctypes.c_size_t, _P(_Sweep), _P(_FitOptions), _P(_Error)]
lib.ls_bind_solve.restype = ctypes.c_void_p
lib.ls_bind_solve.argtypes = [ctypes.c_char_p, _d, _d, _d, _dp, ctypes.c_size_t, _dp, ctypes.c_size_t, _dp,
                              ctypes.c_size_t, _d, ctypes.c_int, _d, ctypes.c_int, ctypes.c_int, _P(_Error)]
lib.ls_bind_predict.restype = ctypes.c_int
lib.ls_bind_predict.argtypes = [ctypes.c_char_p, ctypes.c_size_t, _dp, _dp, _dp, _dp, _dp, _dp, _dp, _dp,
                                _P(_Error)]
lib.ls_bind_law_normalise.restype = ctypes.c_void_p
lib.ls_bind_law_normalise.argtypes = [ctypes.c_char_p, _P(_Error)]
lib.ls_bind_default_law.restype = ctypes.c_void_p
lib.ls_bind_default_law.argtypes = [_P(_Error)]
lib.ls_bind_write_file.restype = ctypes.c_int
lib.ls_bind_write_file.argtypes = [ctypes.c_char_p, ctypes.c_char_p, ctypes.c_size_t, _P(_Error)]


def raise_error(err):
    message = err.message.decode("utf-8", "replace")
    raise _ERRORS.get(err.code, LoopscaleError)(message, err.code)


def take_string(pointer, err):
    """The malloc'd string a binding returned, freed; or raise its error."""
    if not pointer:
        raise_error(err)
    try:
        return ctypes.string_at(pointer).decode("utf-8")
    finally:
        lib.ls_bind_free(pointer)


def _encode(v):
    try:
        return v.encode("utf-8", "surrogateescape") if isinstance(v, str) else bytes(v)
    except (UnicodeError, TypeError):
        raise UsageError("%r is not a usable string (not text the system can take)" % (v,)) from None


def strings(values):
    values = [_encode(v) for v in values]
    array = (ctypes.c_char_p * max(len(values), 1))(*values)
    return array, len(values)
