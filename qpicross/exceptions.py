"""Every error qpicross raises on purpose, in one place, under one base class.

Catch :class:`QpicrossError` to handle any of them; each is also the built-in
(or dimod) exception a caller would expect, so existing ``except ValueError``
code keeps working. The command line turns each into one line and exit status 2.

Examples:
    >>> from qpicross import Puzzle
    >>> try:
    ...     Puzzle([[3]], [[1]])
    ... except QpicrossError as e:
    ...     print(type(e).__name__)
    PuzzleFormatError
    >>> import dimod
    >>> from qpicross.exceptions import ModelTooLargeError  # made on first use (below)
    >>> issubclass(ModelTooLargeError, dimod.exceptions.BinaryQuadraticModelSizeError)
    True

:class:`ModelTooLargeError` and :class:`ModelStructureError` subclass dimod exceptions, so they are made on
first use (PEP 562): importing this module (the command line does, before it parses its arguments) imports no
dimod. Anything else that escapes qpicross is a bug, and the command line says so (exit status 70).
"""

from __future__ import annotations

__all__ = ["QpicrossError", "PuzzleFormatError", "UnreadableFileError", "ParameterError",  # noqa: F822 (__getattr__)
           "ModelTooLargeError", "ModelStructureError", "SamplerUnavailableError", "SolverUnavailableError",
           "Contradiction", "UsageError", "import_extra"]


class QpicrossError(Exception):
    """The base class of every error qpicross raises on purpose."""


class PuzzleFormatError(QpicrossError, ValueError):
    """A puzzle file or clue set that cannot be a puzzle.

    The message names the file and line where known, so that the command line
    can print it as a single line.

    Args:
        message: What was wrong and what was expected.
        path: The file being read, if any.
        line: The 1-based line number in that file, if known.
    """

    def __init__(self, message: str, path: str | None = None, line: int | None = None):
        self.path = path
        self.line = line
        self.reason = message
        where = ""
        if path is not None:
            where = f"{path}:{line}: " if line is not None else f"{path}: "
        super().__init__(where + message)


class UnreadableFileError(QpicrossError, ValueError):
    """A file that is refused or cannot be read; the message says why (never the content)."""


class ParameterError(QpicrossError, ValueError):
    """A parameter outside what it accepts (a sampler's, a schedule's, a weight's): the caller's mistake, named
    in the message.

    >>> from qpicross.samplers.blockshift import BlockShiftSampler
    >>> import dimod
    >>> try:
    ...     BlockShiftSampler().sample(dimod.BQM({"a": 1}, {}, 0, "BINARY"), groups=[], num_reads=0)
    ... except ParameterError as e:
    ...     print(e)
    num_reads must be an integer in [1, 10,000,000], got 0
    """


def _model_too_large_error() -> type:
    import dimod.exceptions

    class ModelTooLargeError(QpicrossError, dimod.exceptions.BinaryQuadraticModelSizeError):
        """A model or a solver run whose estimated size is above the limit (a dimod size error and a ``ValueError``).

        :func:`qpicross.model.size.check_size` raises it; ``estimate`` is its size estimate (a dict) and
        ``limit`` the ceiling that was exceeded.
        """

        def __init__(self, message: str, estimate: dict | None = None, limit: int | None = None):
            self.estimate = estimate or {}
            self.limit = limit
            super().__init__(message)

    ModelTooLargeError.__module__, ModelTooLargeError.__qualname__ = __name__, "ModelTooLargeError"
    return ModelTooLargeError


def _model_structure_error() -> type:
    import dimod.exceptions

    class ModelStructureError(QpicrossError, dimod.exceptions.BinaryQuadraticModelStructureError):
        """A model whose structure does not fit what was asked of it: a group naming a variable the BQM lacks,
        a variable in two groups, a chain that needs a Picross model given another (a dimod structure error and a
        ``ValueError``)."""

    ModelStructureError.__module__, ModelStructureError.__qualname__ = __name__, "ModelStructureError"
    return ModelStructureError


_LAZY = {"ModelTooLargeError": _model_too_large_error, "ModelStructureError": _model_structure_error}


def __getattr__(name: str):
    if name in _LAZY:  # made once, on first use: it needs dimod
        globals()[name] = _LAZY[name]()
        return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


class SamplerUnavailableError(QpicrossError, RuntimeError):
    """A registered sampler that cannot run here (missing extra, no credentials, no GPU...)."""


def import_extra(module: str, extra: str, what: str = "this sampler"):
    """Import ``module``, which the ``extra`` of qpicross installs, or say in one line what to install.

    Raises:
        SamplerUnavailableError: Without the module: ``WHAT needs the 'EXTRA' extra: pip install ...``.

    Examples:
        >>> import_extra("numpy", "core").__name__
        'numpy'
        >>> import_extra("no_such_module", "cloud", "qpu")
        Traceback (most recent call last):
            ...
        qpicross.exceptions.SamplerUnavailableError: qpu needs the 'cloud' extra: pip install 'qpicross[cloud]'
    """
    try:
        return __import__(module, fromlist=["_"])
    except ImportError:
        raise SamplerUnavailableError(f"{what} needs the '{extra}' extra: pip install 'qpicross[{extra}]'") from None


class SolverUnavailableError(QpicrossError, ImportError):
    """An exact solver whose package is not installed; the message says which extra installs it."""


class Contradiction(QpicrossError, ValueError):
    """No placement of a clue fits the known cells of a line (or of a puzzle): the clues have no solution."""


class UsageError(QpicrossError, ValueError):
    """A mistake in the command line's arguments (exit code 2)."""
