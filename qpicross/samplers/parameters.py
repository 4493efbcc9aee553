"""Every registered sampler's parameters with a declared type and range, checked before any work.

dimod's ``Sampler.parameters`` names the keyword arguments a sampler takes; this module says what
each may hold. :data:`PARAMETERS` maps a registry name to ``{parameter: Parameter}``, and
:func:`check_sampler_options` checks a run's options against it before anything is built, so a bad
value (``line_moves="garbage"``, ``trotter=0``, ``timeout=-1``) is one line naming the parameter
instead of a traceback from inside a library, a crash or a run that never ends. Counts and times
have upper bounds as well as lower ones: every run is bounded before it starts.

Some parameters are not the user's to set as options: the ones with their own setting
(``seed``, ``num_reads``, ``time_limit``...: :data:`OWN_SETTINGS`), the puzzle's structure the
pipeline passes (``lines``, ``groups``, ``paints``, ``layout``, ``known``, ``formulation``) and Python objects
(``interrupt_function``, ``initial_states``), which only the Python API can give.

Examples:
    >>> check_sampler_options("shift", {"line_moves": 0.5, "schedule": "fixed"})
    >>> check_sampler_options("shift", {"line_moves": "garbage"})
    Traceback (most recent call last):
    ...
    qpicross.exceptions.ParameterError: line_moves must be a number in [0, 1], got 'garbage'
    >>> check_sampler_options("openjij-sqa", {"trotter": 0})
    Traceback (most recent call last):
    ...
    qpicross.exceptions.ParameterError: trotter must be an integer in [2, 1,024], got 0
    >>> check_sampler_options("tabu", {"seed": 1})
    Traceback (most recent call last):
    ...
    qpicross.exceptions.ParameterError: seed is set by the configuration's seed, not as a sampler option
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import dimod
import numpy as np

from qpicross.exceptions import ParameterError
from qpicross.names import MAX_READS

__all__ = ["Parameter", "PARAMETERS", "check_beta_range", "check_shift_arguments", "check_shift_values", "BYTES_PER_READ", "OWN_SETTINGS", "STRUCTURE", "check_sampler_options", "check_parameter",
           "declared", "integer", "number", "finite", "flag", "choice", "choices", "text", "mapping", "python_object",
           "numbers_list"]

#: Most of any count a sampler option holds (replicas, iterations, restarts): far beyond use.
MAX_COUNT = 1_000_000
#: Most sweeps (as :data:`qpicross.pipeline.config.MAX_SWEEPS`).
MAX_SWEEPS = 10_000_000_000
#: Most seconds a sampler's own time limit may be set to (a week).
MAX_SECONDS = 7 * 24 * 3600.0
#: Largest inverse temperature, transverse field or energy scale an option may hold.
MAX_SCALE = 1e6
#: The block-shift sampler's population bounds (``qpicross.samplers.blockshift.sampler``; a test keeps them equal).
MAX_POPULATION = 100_000
MAX_POPULATION_STEPS = 100_000


@dataclasses.dataclass(frozen=True)
class Parameter:
    """What one sampler parameter may hold.

    Attributes:
        what: The accepted values in words (``"an integer in [1, 256]"``), for the error message.
        test: Whether a value is accepted.
        settable: ``None`` when an option may set it; else why not (one clause, e.g. "is set by --seed").
        none: ``None`` is accepted too (the sampler's default).
        python_only: A Python object (a function, an array) that text cannot give.
    """

    what: str
    test: Callable[[Any], bool]
    settable: str | None = None
    none: bool = False
    python_only: bool = False

    def check(self, name: str, value: Any) -> None:
        """Raise ``ValueError`` (one line naming ``name``) unless ``value`` is accepted.

        >>> integer(1, 256).check("threads", 0)
        Traceback (most recent call last):
        ...
        qpicross.exceptions.ParameterError: threads must be an integer in [1, 256], got 0
        """
        if self.settable is not None:
            raise ParameterError(f"{name} {self.settable}")
        if value is None and self.none:
            return
        try:
            ok = bool(self.test(value))
        except (TypeError, ValueError, OverflowError):
            ok = False
        if not ok:
            raise ParameterError(f"{name} must be {self.what}, got {_shown(value)}")


def _shown(value: Any) -> str:
    """A value in an error message: its repr, cut to 60 characters."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_int(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _is_real(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value)


def integer(low: int, high: int, *, none: bool = False) -> Parameter:
    """A whole number in ``[low, high]``.

    >>> integer(2, 1024).test(4), integer(2, 1024).test(4.0), integer(2, 1024).test(True)
    (True, False, False)
    """
    return Parameter(f"an integer in [{low:,}, {high:,}]", lambda v: _is_int(v) and low <= v <= high, none=none)


def number(low: float, high: float, *, above: bool = False, none: bool = False) -> Parameter:
    """A finite number in ``[low, high]`` (``above``: strictly above ``low``).

    >>> number(0, 1).test(0.5), number(0, 1, above=True).test(0), number(0, 1).test("0.5")
    (True, False, False)
    """
    bracket = "(" if above else "["
    return Parameter(f"a number in {bracket}{low:g}, {high:g}]",
                     lambda v: _is_real(v) and (v > low if above else v >= low) and v <= high, none=none)


def finite(*, none: bool = False) -> Parameter:
    """Any finite number (an energy)."""
    return Parameter("a finite number", _is_real, none=none)


def flag(*, none: bool = False) -> Parameter:
    """``True`` or ``False``."""
    return Parameter("True or False" + (" or None" if none else ""), lambda v: isinstance(v, bool), none=none)


def choice(*values: str, none: bool = False) -> Parameter:
    """One of ``values``."""
    return Parameter("one of " + ", ".join(map(repr, values)), lambda v: isinstance(v, str) and v in values,
                     none=none)


def choices(*values: str) -> Parameter:
    """A non-empty list (or tuple) of ``values``, at most 256 long."""
    return Parameter("a list of " + ", ".join(map(repr, values)),
                     lambda v: isinstance(v, (list, tuple)) and 0 < len(v) <= 256
                     and all(isinstance(x, str) and x in values for x in v))


def numbers_list(low: float, high: float, *, longest: int = 1_000_000) -> Parameter:
    """A non-empty list of finite numbers in ``[low, high]`` (a schedule)."""
    return Parameter(f"a list of numbers in [{low:g}, {high:g}]",
                     lambda v: isinstance(v, (list, tuple)) and 0 < len(v) <= longest
                     and all(_is_real(x) and low <= x <= high for x in v))


def text(longest: int = 200, *, none: bool = False) -> Parameter:
    """A string of at most ``longest`` characters."""
    return Parameter(f"text of at most {longest:,} characters", lambda v: isinstance(v, str) and len(v) <= longest,
                     none=none)


def mapping() -> Parameter:
    """A dict (keyword arguments for a library call)."""
    return Parameter("a dict", lambda v: isinstance(v, Mapping))


def python_object(what: str) -> Parameter:
    """A Python object (a function, an array): accepted from the Python API, not from text.

    :func:`check_sampler_options` with ``from_text=True`` refuses it.
    """
    return Parameter(what, lambda v: not isinstance(v, (str, numbers.Number)) and v is not None, python_only=True)


#: Parameters with a setting of their own: ``{parameter: (SolverConfig field or None, command-line flag)}``.
#: Those with a field are never options (:func:`qpicross.samplers.sample` passes them itself); those
#: without one are options in Python (``options={"beta_range": (1, 5)}``) that the command line sets
#: with their flag, not with ``--option``.
OWN_SETTINGS: dict[str, tuple[str | None, str]] = {
    "num_reads": ("num_reads", "--reads"),
    "num_sweeps": ("num_sweeps", "--sweeps"),
    "seed": ("seed", "--seed"),
    "time_limit": ("time_limit", "--time-limit"),
    "progress": ("progress", "the command (its progress bar)"),
    "early_stop": ("early_stop", "--early-stop"),
    "chunks": ("num_reads", "the command (from --reads)"),
    "beta_range": (None, "--beta-range"),
    "chain_strength": (None, "--chain-strength"),
    "profile": (None, "--profile"),
    "token": (None, "--token-file"),
}

#: The puzzle's structure, passed by the pipeline from the formulation (never an option's to set).
STRUCTURE = ("lines", "groups", "paints", "layout", "known", "formulation")

#: What the parameters with a flag of their own may hold, for every sampler that takes them.
_FLAGGED = {
    "chain_strength": number(0, MAX_SCALE, above=True, none=True),
    "profile": text(none=True),
    "token": text(10_000, none=True),
}

_SHIFT_COMMON = {
    "num_replicas": integer(1, 4096, none=True),
    "shift_probability": number(0, 1),
    "line_moves": number(0, 1),
    "target_energy": finite(none=True),
    "return_state": choice("best", "last"),
}

#: Sampler registry name -> its parameters (the keys of its ``parameters``), each with what it may hold.
PARAMETERS: dict[str, dict[str, Parameter]] = {
    "shift": {
        **_SHIFT_COMMON,
        "block_moves": flag(none=True),
        "schedule": choice("auto", "fixed", "luby", "population"),
        "restart_sweeps": integer(1, MAX_SWEEPS, none=True),
        "threads": integer(1, 256),
        "stream_plans": choice("mixed", "same", "long"),
        "chain": choice("auto", "profile", "joint"),
        "stream_chains": choices("auto", "profile", "joint"),
        "profile_lines": choice("rows", "columns", "alternate"),
        "population": integer(1, MAX_POPULATION),
        "population_steps": integer(1, MAX_POPULATION_STEPS),
        "scheduler": text(none=True),  # local:N or an address: the sampler parses it (blockshift.cluster)
    },
    "shift-batched": {
        **_SHIFT_COMMON,
        "backend": choice("cuda", "cpu"),
        "sweeps_per_launch": integer(1, MAX_COUNT),
        "threads_per_block": integer(1, 1024),  # CUDA's most threads per block
        "chain": choice("auto", "profile", "joint"),
        "restart_sweeps": integer(1, MAX_SWEEPS),
    },
    "sa": {
        "num_sweeps_per_beta": integer(1, MAX_COUNT),
        "beta_schedule_type": choice("linear", "geometric", "custom"),
        "beta_schedule": numbers_list(0, MAX_SCALE),
        "interrupt_function": python_object("a function of no arguments"),
        "initial_states": python_object("samples (an array or SampleSet)"),
        "initial_states_generator": choice("none", "tile", "random"),
        "randomize_order": flag(),
        "proposal_acceptance_criteria": choice("Metropolis", "Gibbs"),
    },
    "tabu": {
        "initial_states": python_object("samples (an array or SampleSet)"),
        "initial_states_generator": choice("none", "tile", "random"),
        "tenure": integer(0, MAX_COUNT, none=True),
        "timeout": integer(1, 600_000),  # milliseconds per read: at most the ten minutes of anneal's own cap
        "num_restarts": integer(0, MAX_COUNT),
        "energy_threshold": finite(none=True),
        "coefficient_z_first": integer(0, MAX_COUNT, none=True),
        "coefficient_z_restart": integer(0, MAX_COUNT, none=True),
        "lower_bound_z": integer(0, MAX_COUNT, none=True),
    },
    "openjij-sa": {
        "updater": choice("single spin flip", "swendsen wang"),
        "sparse": flag(),
        "beta_min": number(0, MAX_SCALE, above=True),
        "beta_max": number(0, MAX_SCALE, above=True),
    },
    "openjij-sqa": {
        "updater": choice("single spin flip"),
        "sparse": flag(),
        "beta": number(0, MAX_SCALE, above=True),
        "gamma": number(0, MAX_SCALE, above=True),
        "trotter": integer(2, 1024),  # 0 crashes OpenJij's kernel; 1 is no quantum annealing
    },
    "sb": {
        "mode": choice("ballistic", "discrete"),
        "heated": flag(),
        "early_stopping": flag(),
        "timeout": number(0, MAX_SECONDS, above=True, none=True),
        "dtype": choice("float32", "float64"),
    },
    "pt": {
        "num_replicas": integer(1, 1000),
        "max_iter": integer(1, MAX_COUNT, none=True),
        "max_time": number(0, MAX_SECONDS, above=True, none=True),
        "convergence": integer(1, MAX_COUNT),
    },
    "pa": {
        "population": integer(1, 10_000),  # a Python object per member: 100 000 ran for minutes on a 5x5
        "num_iter": integer(1, MAX_COUNT),
    },
    "exact": {},
    "qpu": {
        "embedding_parameters": mapping(),
        "annealing_time": number(0, 2000, above=True),  # microseconds; the QPU's own bound is lower
        "label": text(),
    },
    "hybrid": {"label": text()},
    "hybrid-cqm": {"matching": choice("objective", "constraints"), "label": text()},
    "amplify": {},
}
PARAMETERS["shift-batched-cpu"] = PARAMETERS["shift-batched"]
PARAMETERS["sa+descent"] = PARAMETERS["sa"]
PARAMETERS["sb+descent"] = PARAMETERS["sb"]


def check_beta_range(beta_range: Any, name: str = "beta_range") -> tuple[float, float]:
    """``(hot, cold)`` inverse temperatures as floats, or the typed error naming ``name`` (``--beta-range`` on the
    command line, which shows the value as it was typed).

    >>> check_beta_range((1, 5))
    (1.0, 5.0)
    >>> check_beta_range((5.0, 1.0), "--beta-range")
    Traceback (most recent call last):
    ...
    qpicross.exceptions.ParameterError: --beta-range wants finite hot <= cold (0 <= hot, 0 < cold), got 5,1
    """
    if isinstance(beta_range, (str, bytes)) or not isinstance(beta_range, Sequence) or len(beta_range) != 2 \
            or not all(_is_real(b) for b in beta_range):
        raise ParameterError(f"{name} wants two numbers (hot, cold), got {beta_range!r}")
    hot, cold = (float(b) for b in beta_range)
    shown = f"{hot:g},{cold:g}" if name.startswith("--") else repr(beta_range)
    if not (math.isfinite(hot) and math.isfinite(cold) and 0 <= hot <= cold and cold > 0):
        raise ParameterError(f"{name} wants finite hot <= cold (0 <= hot, 0 < cold), got {shown}")
    return hot, cold


def check_parameter(sampler: str, name: str, value: Any, *, from_text: bool = False) -> bool:
    """Check one option of a sampler (see :func:`check_sampler_options`).

    Returns:
        Whether ``name`` is declared (for ``sampler``, or for every sampler), so its value was checked.
    """
    if name in OWN_SETTINGS:
        field, flag_name = OWN_SETTINGS[name]
        if from_text:
            raise ParameterError(f"{name} is set by {flag_name}, not by --option")
        if field is not None:
            raise ParameterError(f"{name} is set by the configuration's {field}, not as a sampler option")
    if name in STRUCTURE:
        raise ParameterError(f"{name} is the puzzle's structure, which the pipeline passes from the formulation; "
                             f"it is not an option")
    spec = _FLAGGED.get(name) or PARAMETERS.get(sampler, {}).get(name)
    if spec is None:
        return False  # a parameter this module does not know: the sampler's own checks apply
    if from_text and spec.python_only:
        raise ParameterError(f"{name} takes {spec.what}: set it through the Python API, not on the command line")
    spec.check(name, value)
    return True


def check_sampler_options(sampler: str, options: Mapping[str, Any], *, from_text: bool = False) -> None:
    """Check a registered sampler's options against :data:`PARAMETERS`, before any work.

    Unknown samplers (registered by another package) and parameters not declared here pass:
    their sampler checks them.

    Args:
        sampler: The registry name.
        options: ``{parameter: value}``.
        from_text: The options came from text (``--option KEY=VALUE``): name the command-line flag of a
            parameter that has one, and refuse Python objects.

    Raises:
        ValueError: One line naming the first bad option.
    """
    for name, value in options.items():
        check_parameter(sampler, name, value, from_text=from_text)


def declared(sampler: str) -> Sequence[str]:
    """The parameters declared for a registered sampler (empty for one not in :data:`PARAMETERS`)."""
    return tuple(PARAMETERS.get(sampler, {}))


#: Bytes a read holds besides its sample of one byte a variable: its seed, sweeps, times to target and duration.
BYTES_PER_READ = 40


def check_shift_arguments(bqm, *, num_reads, num_sweeps, num_replicas, shift_probability, line_moves, beta_range,
                          lines, groups, paints) -> None:
    """The type and range of every argument of the block-shift sampler that a read's arrays depend on, before
    anything is allocated: one :class:`~qpicross.exceptions.ParameterError` naming the first bad one (the other
    parameters are checked by their values in
    :meth:`~qpicross.samplers.blockshift.sampler.BlockShiftSampler.sample`)."""
    if not isinstance(bqm, dimod.BinaryQuadraticModel):
        raise ParameterError(f"bqm must be a dimod.BinaryQuadraticModel, got {type(bqm).__name__}")
    integer(1, MAX_READS).check("num_reads", num_reads)
    integer(0, MAX_SWEEPS, none=True).check("num_sweeps", num_sweeps)
    for name, value in (("num_replicas", num_replicas), ("shift_probability", shift_probability),
                        ("line_moves", line_moves)):
        PARAMETERS["shift"][name].check(name, value)
    if beta_range is not None:
        try:
            hot, cold = (float(b) for b in beta_range)
        except (TypeError, ValueError):
            raise ParameterError(f"beta_range must be two numbers (hot, cold), got {beta_range!r}") from None
        if not (math.isfinite(hot) and math.isfinite(cold)):
            raise ParameterError(f"beta_range must be finite, got {beta_range!r}")
    for name, value in (("lines", lines), ("groups", groups)):
        if value is not None and (isinstance(value, (str, bytes, Mapping)) or not hasattr(value, "__iter__")):
            raise ParameterError(f"{name} must be a list of lists of variables, got {type(value).__name__}")
    if paints is None:
        return
    if not isinstance(paints, Mapping):
        raise ParameterError(f"paints must map each variable to (axis, line, start, length), got "
                             f"{type(paints).__name__}")
    for variable, segment in paints.items():
        if not (isinstance(segment, (tuple, list)) and len(segment) == 4
                and all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in segment)
                and segment[0] in (0, 1) and segment[1] >= 0 and segment[2] >= 0 and segment[3] >= 1):
            raise ParameterError(f"paints[{variable!r}] must be (axis 0 or 1, line >= 0, start >= 0, length >= 1), "
                                 f"got {segment!r}")


def check_shift_values(*, num_reads, num_sweeps, num_replicas, restart_sweeps, shift_probability, line_moves,
                       block_moves, seed, return_state, threads, chain, stream_chains, profile_lines, stream_plans,
                       population, population_steps) -> None:
    """The values of the block-shift sampler's run settings, once its defaults are filled in (``num_sweeps``,
    ``num_replicas``, ``restart_sweeps``, ``block_moves`` none of them None): one
    :class:`~qpicross.exceptions.ParameterError` naming the first bad one.

    >>> settings = dict(num_reads=1, num_sweeps=100, num_replicas=4, restart_sweeps=8000, shift_probability=0.5,
    ...                 line_moves=1.0, block_moves=False, seed=0, return_state="best", threads=1, chain="auto",
    ...                 stream_chains=None, profile_lines="rows", stream_plans="mixed", population=250,
    ...                 population_steps=100)
    >>> check_shift_values(**settings)
    >>> check_shift_values(**{**settings, "chain": "row"})
    Traceback (most recent call last):
        ...
    qpicross.exceptions.ParameterError: chain must be 'auto', 'profile' or 'joint', got 'row'
    """
    for name, value, top in (("population", population, MAX_POPULATION),
                             ("population_steps", population_steps, MAX_POPULATION_STEPS)):
        if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or not 1 <= value <= top:
            raise ParameterError(f"{name} must be an integer from 1 to {top}, got {value!r}")
    if restart_sweeps < 1:
        raise ParameterError(f"restart_sweeps must be positive, got {restart_sweeps}")
    if num_reads < 1 or num_sweeps < 0 or num_replicas < 1:
        raise ParameterError("num_reads and num_replicas must be positive and num_sweeps non-negative")
    if not 0 <= shift_probability <= 1:
        raise ParameterError(f"shift_probability must be in [0, 1], got {shift_probability}")
    if not 0 <= line_moves <= 1:
        raise ParameterError(f"line_moves must be in [0, 1], got {line_moves}")
    if not isinstance(block_moves, (bool, np.bool_)):
        raise ParameterError(f"block_moves must be True, False or None, got {block_moves!r}")
    if not block_moves and line_moves == 0:
        raise ParameterError("block_moves=False needs line_moves > 0: nothing else moves a block")
    if seed is not None and not (isinstance(seed, (int, np.integer)) and 0 <= seed < 2**32):
        raise ParameterError(f"seed must be an integer in [0, 2**32), got {seed!r}")
    if return_state not in ("best", "last"):
        raise ParameterError(f"return_state must be 'best' or 'last', got {return_state!r}")
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or not 1 <= threads <= 256:
        raise ParameterError(f"threads must be an integer from 1 to 256, got {threads!r}")
    known = ("auto", "profile", "joint")
    if stream_chains is None and chain not in known:
        raise ParameterError(f"chain must be 'auto', 'profile' or 'joint', got {chain!r}")
    if stream_chains is not None and (not isinstance(stream_chains, (list, tuple)) or not stream_chains
                                      or any(c not in known for c in stream_chains)):
        raise ParameterError(f"stream_chains must be a list of 'auto', 'profile' or 'joint', got {stream_chains!r}")
    if profile_lines not in ("rows", "columns", "alternate"):
        raise ParameterError(f"profile_lines must be 'rows', 'columns' or 'alternate', got {profile_lines!r}")
    if stream_plans not in ("mixed", "same", "long"):
        raise ParameterError(f"stream_plans must be 'mixed', 'same' or 'long', got {stream_plans!r}")
