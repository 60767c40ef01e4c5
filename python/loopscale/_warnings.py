"""Warning categories, one per stable code of loopscale/warning.h.

A command's warnings reach Python through warnings.warn, each as an instance
of the category of its code, so the standard filters apply:

    warnings.simplefilter("error", loopscale.ExtrapolationWarning)

turns every extrapolation into an exception.  A code this package does not
know yet (a newer library) is a plain LoopscaleWarning.
"""


class LoopscaleWarning(UserWarning):
    """A warning from libloopscale: `code` is its stable code ("extrapolation"),
    `subject` what it is about (a parameter, a column, a configuration; "" for
    the whole result)."""

    code = None

    def __init__(self, message, subject="", code=None):
        super().__init__(message)
        self.subject = subject
        if code is not None:
            self.code = code


class ExtrapolationWarning(LoopscaleWarning):
    """A value outside the ranges the law was fitted on."""
    code = "extrapolation"


class SearchEdgeWarning(LoopscaleWarning):
    """An answer at an end of its candidate list or search range."""
    code = "search-edge"


class UnidentifiedParameterWarning(LoopscaleWarning):
    """The runs cannot identify a parameter; it is held at its neutral value."""
    code = "unidentified-parameter"


class UndeterminedParameterWarning(LoopscaleWarning):
    """A parameter the runs determine only loosely."""
    code = "undetermined-parameter"


class ParameterAtBoundWarning(LoopscaleWarning):
    """A parameter at the edge of its domain."""
    code = "parameter-at-bound"


class FitQualityWarning(LoopscaleWarning):
    """Residuals too large or trending, too few points."""
    code = "fit-quality"


class DataWarning(LoopscaleWarning):
    """How the runs were read: a column, skipped rows, checkpoints."""
    code = "data"


class DecisionWarning(LoopscaleWarning):
    """A choice the tolerance or the uncertainty does not decide."""
    code = "decision"


class LawWarning(LoopscaleWarning):
    """A law used although its fit is not to be trusted."""
    code = "law"


class ArchitectureWarning(LoopscaleWarning):
    """A template that does not match the sweep's models."""
    code = "architecture"


class ServingWarning(LoopscaleWarning):
    """An assumption about deployment (quantisation, cache)."""
    code = "serving"


class DesignWarning(LoopscaleWarning):
    """A planned sweep that falls short of what it is for."""
    code = "design"


CATEGORIES = {c.code: c for c in (ExtrapolationWarning, SearchEdgeWarning, UnidentifiedParameterWarning,
                                  UndeterminedParameterWarning, ParameterAtBoundWarning, FitQualityWarning,
                                  DataWarning, DecisionWarning, LawWarning, ArchitectureWarning, ServingWarning,
                                  DesignWarning)}


def make(code, subject, message):
    """The warning instance for a library warning of `code` (a name)."""
    category = CATEGORIES.get(code, LoopscaleWarning)
    return category(message, subject, code)
