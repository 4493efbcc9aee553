"""One solver configuration, shared by ``anneal``, ``bench`` and ``tune`` (Python and command line).

A :class:`SolverConfig` says *how* to solve: which sampler, which encoding of
the model, which penalty weights and variable bounds, whether line logic
presolves first, how many reads, how many sweeps, which seed, how long at most,
and any other sampler parameter (``options``). :func:`qpicross.anneal`,
:func:`qpicross.experiments.bench.bench_puzzle` and the tuning sweeps all take
one, so what ``qpicross bench`` measures for a configuration is exactly what
``qpicross anneal`` does with it.

Examples:
    >>> config = SolverConfig(sampler="shift", num_sweeps=5000, options={"target_energy": 0})
    >>> config.label, dict(config.options)
    ('shift', {'target_energy': 0})
    >>> config.replace(presolve=True).label
    'shift+presolve'
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Mapping
from typing import Any, Literal

import dimod
import numpy as np

from qpicross.exceptions import ParameterError
from qpicross.model.weights import PenaltyWeights
from qpicross.names import ENCODINGS, MAX_READS

__all__ = ["SolverConfig", "ENCODINGS", "Encoding", "MAX_READS", "MAX_SWEEPS"]

Encoding = Literal["one_hot", "domain_wall", "thermometer"]
#: Sampler options that hold credentials: redacted in :meth:`SolverConfig.to_dict` and ``repr``.
SECRET_OPTIONS = frozenset({"token"})
MAX_SWEEPS = 10_000_000_000


@dataclasses.dataclass(frozen=True)
class SolverConfig:
    """How to solve a puzzle: model, sampler and run settings.

    Attributes:
        sampler: A registry name (:data:`qpicross.samplers.SAMPLERS`) or any :class:`dimod.Sampler`.
        encoding: ``"one_hot"`` (the formulation's start variables),
            ``"domain_wall"`` (:mod:`qpicross.model.domain_wall`) or ``"thermometer"``
            (:mod:`qpicross.model.thermometer`); samples are mapped back to start
            variables before they are judged.
        weights: Penalty weights: :class:`~qpicross.model.weights.PenaltyWeights`, or a mapping of term names to
            weights (``{"match": 2}``; the others 1).
        bounds: ``"stacking"`` or ``"published"`` variable pruning
            (:func:`~qpicross.model.formulation.build_formulation`).
        presolve: Fix what line logic settles before sampling
            (:class:`~qpicross.classical.presolve.PresolveComposite` for one-hot; the thermometer
            model is built without the starts logic rules out, its settled blocks constants:
            :func:`~qpicross.classical.presolve.presolve_formulation`).
        num_reads: Reads to draw (at most, with ``time_limit`` or ``early_stop="puzzle"``).
        num_sweeps: Sweeps per read (``None``: the sampler's default).
        seed: Random seed; the same seed gives the same samples (without a time limit).
        time_limit: Seconds of sampling after which no further chunk of reads is started (samplers that
            take ``time_limit`` also stop the running read; :mod:`qpicross.samplers.control`).
        options: Other sampler parameters, e.g. ``beta_range``, ``num_replicas``,
            ``target_energy`` (a mapping, stored as sorted pairs).
        name: Label in tables (default :attr:`label`).
        early_stop: What a read that reaches the ground state (energy 0, the ``target_energy``)
            stops besides itself (:data:`~qpicross.samplers.control.EARLY_STOP`): ``"puzzle"``, the
            run: reads are drawn one at a time and no further read starts, "find me a solution"
            rather than "measure the success probability" (``num_reads`` is then a cap);
            ``"read"`` or ``"none"`` for samplers that take them (the batched ones); None: the
            sampler's default.
    """

    sampler: str | dimod.Sampler = "shift"
    encoding: Encoding = "one_hot"
    weights: PenaltyWeights = PenaltyWeights()
    bounds: str = "stacking"
    presolve: bool = False
    num_reads: int = 100
    num_sweeps: int | None = None
    seed: int | None = None
    time_limit: float | None = None
    options: tuple[tuple[str, Any], ...] | Mapping[str, Any] = ()
    name: str | None = None
    early_stop: str | None = None

    def __post_init__(self) -> None:
        object.__setattr__(self, "options", _option_pairs(self.options))
        object.__setattr__(self, "weights", PenaltyWeights.of(self.weights))

    @property
    def sampler_name(self) -> str:
        """The sampler's registry name, or its class name for an instance."""
        return self.sampler if isinstance(self.sampler, str) else type(self.sampler).__name__

    @property
    def label(self) -> str:
        """The name in tables: ``name`` if given, else the sampler's name (``+presolve`` when presolving)."""
        if self.name:
            return self.name
        return self.sampler_name + ("+presolve" if self.presolve else "")

    @property
    def sampler_options(self) -> dict[str, Any]:
        return dict(self.options)

    def replace(self, **changes) -> SolverConfig:
        """A copy with some fields changed (:func:`dataclasses.replace`).

        >>> SolverConfig().replace(reads=5)
        Traceback (most recent call last):
        ...
        qpicross.exceptions.ParameterError: SolverConfig has no field 'reads'; its fields: sampler, encoding, \
weights, bounds, presolve, num_reads, num_sweeps, seed, time_limit, options, name, early_stop
        """
        fields = [f.name for f in dataclasses.fields(self)]
        unknown = [name for name in changes if name not in fields]
        if unknown:
            raise ParameterError(f"SolverConfig has no field {unknown[0]!r}; its fields: {', '.join(fields)}")
        return dataclasses.replace(self, **changes)

    def validate(self) -> SolverConfig:
        """Check every field before any work; returns ``self``.

        Raises:
            ParameterError: With one line naming the bad field (a sampler name the registry lacks included).

        >>> SolverConfig(sampler="nope").validate()
        Traceback (most recent call last):
        ...
        qpicross.exceptions.ParameterError: unknown sampler 'nope'; known: sa, tabu, shift, ...
        """
        if not isinstance(self.sampler, (str, dimod.Sampler)):
            raise ParameterError(f"sampler must be a name or a dimod.Sampler, got {type(self.sampler).__name__}")
        if isinstance(self.sampler, str):
            from qpicross.samplers.registry import SAMPLERS

            if self.sampler not in SAMPLERS:
                raise ParameterError(f"unknown sampler {self.sampler!r}; known: {', '.join(SAMPLERS)}")
        if not isinstance(self.presolve, (bool, np.bool_)):
            raise ParameterError(f"presolve must be True or False, got {self.presolve!r}")
        if self.name is not None and not isinstance(self.name, str):
            raise ParameterError(f"name must be a text or None, got {type(self.name).__name__}")
        if self.encoding not in ENCODINGS:
            raise ParameterError(f"unknown encoding {self.encoding!r}; use one of {', '.join(ENCODINGS)}")
        if self.encoding == "domain_wall" and self.presolve:
            raise ParameterError("presolve works on the one-hot and thermometer encodings only; drop presolve or "
                                 "use one_hot or thermometer")
        if self.bounds not in ("stacking", "published"):
            raise ParameterError(f"bounds must be 'stacking' or 'published', got {self.bounds!r}")
        _check_int("num_reads", self.num_reads, 1, MAX_READS)
        if self.num_sweeps is not None:
            _check_int("num_sweeps", self.num_sweeps, 1, MAX_SWEEPS)
        if self.seed is not None:
            _check_int("seed", self.seed, 0, 2**32 - 1)
        if self.time_limit is not None and not (
            isinstance(self.time_limit, (int, float)) and math.isfinite(self.time_limit) and self.time_limit > 0
        ):
            raise ParameterError(f"time_limit must be a positive number of seconds, got {self.time_limit!r}")
        from qpicross.samplers.control import check_early_stop

        check_early_stop(self.early_stop)
        for name, value in self.weights.as_dict().items():
            if not math.isfinite(value) or value < 0:
                raise ParameterError(f"weight {name} must be a finite number >= 0, got {value}")
        from qpicross.samplers.parameters import check_beta_range, check_parameter

        for key, value in self.options:
            if not check_parameter(self.sampler_name, key, value):  # declared ones are checked by their spec
                _check_option(key, value)
        beta_range = self.sampler_options.get("beta_range")
        if beta_range is not None:
            check_beta_range(beta_range)
        return self

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready settings (the sampler by name)."""
        return {
            "label": self.label,
            "sampler": self.sampler_name,
            "encoding": self.encoding,
            "weights": self.weights.as_dict(),
            "bounds": self.bounds,
            "presolve": self.presolve,
            "num_reads": self.num_reads,
            "num_sweeps": self.num_sweeps,
            "seed": self.seed,
            "time_limit": self.time_limit,
            "early_stop": self.early_stop,
            "options": {k: (list(v) if isinstance(v, tuple) else v) for k, v in self._shown_options()},
        }

    def _shown_options(self) -> list[tuple[str, Any]]:
        """The options with credentials redacted: a token is never printed or written."""
        return [(k, "<redacted>" if k in SECRET_OPTIONS else v) for k, v in self.options]

    def __repr__(self) -> str:
        fields = ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in dataclasses.fields(self)
                           if f.name != "options")
        return f"SolverConfig({fields}, options={tuple(self._shown_options())!r})"


#: Most of any ``num_*`` sampler option (replicas, iterations, solutions): like reads, far beyond use.
MAX_COUNT_OPTION = 1_000_000
#: Endings of sampler option names whose value is a number (``target_energy``, ``shift_probability``).
_NUMBER_OPTIONS = ("_energy", "_probability", "_strength", "_time", "_limit", "_temperature", "_rate")


def _check_option(key: str, value) -> None:
    """A sampler option's value, by the name's convention: ``num_*`` a count, ``*_energy`` etc. a number."""
    if key.startswith("num_"):
        _check_int(key, value, 1, MAX_COUNT_OPTION)
    elif key.endswith(_NUMBER_OPTIONS) and (isinstance(value, bool) or not isinstance(value, numbers.Real)
                                            or not math.isfinite(value)):
        raise ParameterError(f"{key} must be a finite number, got {value!r}")
    elif key.endswith("_probability") and not 0 <= value <= 1:
        raise ParameterError(f"{key} must be between 0 and 1, got {value!r}")


def _option_pairs(options) -> tuple[tuple[str, Any], ...]:
    """Sampler options, a mapping or ``(name, value)`` pairs, as sorted pairs."""
    pairs = options.items() if isinstance(options, Mapping) else options
    try:
        return tuple(sorted((str(k), v) for k, v in pairs))
    except (TypeError, ValueError):
        raise ParameterError(f"options must be a mapping of sampler parameter names to values, got "
                             f"{type(options).__name__}") from None


def _check_int(name: str, value, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or not low <= value <= high:
        raise ParameterError(f"{name} must be an integer in [{low}, {high:,}], got {value!r}")
