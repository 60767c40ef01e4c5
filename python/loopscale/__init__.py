"""loopscale: scaling laws for looped Mixture-of-Experts language models.

The Python face of libloopscale (docs/python.md).  Every command of the
loopscale program is a function here, run by the library's command layer:

    import loopscale
    fitted = loopscale.fit("data/sweeps/looped-moe.csv.gz", output="law.json")
    answer = loopscale.solve(law="law.json", flops=1e22, mem="3GB", bits=4, E=[1, 2, 4, 8, 16])
    answer.json["chosen"]["R"], fitted.law.predict(n_act=1e9, tokens=2e10)

Options are keyword arguments in the program's syntax (`--n-act` is
`n_act=`); the library checks them and applies its defaults, so a call
computes, refuses and warns exactly as the program does.  Warnings reach
Python through warnings.warn with a category per code (ExtrapolationWarning,
...); information lines go to the "loopscale" logger.
"""
from . import _lib
from ._commands import COMMANDS as _COMMANDS, Result, FitResult, Sweep
from ._law import Law, read_law, default_law
from ._lib import (LoopscaleError, UsageError, DataError, NoInputError, CantCreateError, IOFailure, InternalError,
                   NotConvergedError)
from ._warnings import (LoopscaleWarning, ExtrapolationWarning, SearchEdgeWarning, UnidentifiedParameterWarning,
                        UndeterminedParameterWarning, ParameterAtBoundWarning, FitQualityWarning, DataWarning,
                        DecisionWarning, LawWarning, ArchitectureWarning, ServingWarning, DesignWarning)

__version__ = _lib.lib.ls_version().decode()

globals().update(_COMMANDS)


def version():
    """The version of the libloopscale loaded (also __version__)."""
    return __version__


__all__ = sorted(_COMMANDS) + [
    "Sweep", "Law", "Result", "FitResult", "read_law", "default_law", "version",
    "LoopscaleError", "UsageError", "DataError", "NoInputError", "CantCreateError", "IOFailure", "InternalError",
    "NotConvergedError",
    "LoopscaleWarning", "ExtrapolationWarning", "SearchEdgeWarning", "UnidentifiedParameterWarning",
    "UndeterminedParameterWarning", "ParameterAtBoundWarning", "FitQualityWarning", "DataWarning",
    "DecisionWarning", "LawWarning", "ArchitectureWarning", "ServingWarning", "DesignWarning"]


def __dir__():
    return __all__ + ["__version__"]
