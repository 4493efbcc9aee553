"""Penalty weights: one non-negative weight per term of the Picross QUBO.

:data:`TERMS` names the terms in the order they are built and reported (see
:mod:`qpicross.model.formulation` for what each one penalises); :class:`PenaltyWeights`
holds one weight each and parses the ``name=value,...`` text the CLI and configs take.

Examples:
    >>> PenaltyWeights.parse("order=0.5").as_dict()
    {'one_hot': 1.0, 'at_most_one': 1.0, 'order': 0.5, 'match': 1.0}
    >>> TERMS
    ('one_hot', 'at_most_one', 'order', 'match')
"""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Mapping

import numpy as np

from qpicross.exceptions import ParameterError

__all__ = ["TERMS", "PenaltyWeights"]

#: The penalty terms, in the order they are built and reported.
TERMS = ("one_hot", "at_most_one", "order", "match")


@dataclasses.dataclass(frozen=True)
class PenaltyWeights:
    """One weight per penalty term (see :data:`TERMS`).

    Examples:
        >>> PenaltyWeights.parse("one_hot=2,match=0.5")
        PenaltyWeights(one_hot=2.0, at_most_one=1.0, order=1.0, match=0.5)
    """

    one_hot: float = 1.0
    at_most_one: float = 1.0
    order: float = 1.0
    match: float = 1.0

    def __post_init__(self):
        for name in TERMS:
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, numbers.Real) or not np.isfinite(value) or value < 0:
                raise ParameterError(f"weight {name}={value!r} must be a finite non-negative number")

    @classmethod
    def parse(cls, text: str) -> PenaltyWeights:
        """Parse ``name=value,...`` (missing names keep their default of 1).

        >>> PenaltyWeights.parse("match=2, order=0.5").as_dict()["match"]
        2.0
        >>> PenaltyWeights.parse("match=1,,order=2")
        Traceback (most recent call last):
        ...
        qpicross.exceptions.ParameterError: empty item between commas in 'match=1,,order=2'

        Raises:
            ValueError: On an unknown, repeated or empty name or a value that is not a number.
        """
        if not isinstance(text, str):
            raise ParameterError(f"weights text must be a str such as 'match=2,order=1', got {type(text).__name__}")
        values: dict[str, float] = {}
        if not text.strip():
            return cls()
        for item in (part.strip() for part in text.split(",")):
            if not item:
                raise ParameterError(f"empty item between commas in {text!r}")
            name, sep, value = item.partition("=")
            name = name.strip()
            if not sep or name not in TERMS:
                raise ParameterError(f"bad weight {item!r}: expected NAME=VALUE with NAME in {', '.join(TERMS)}")
            if name in values:
                raise ParameterError(f"weight {name} is given twice in {text!r}")
            try:
                values[name] = float(value)
            except ValueError:
                raise ParameterError(f"bad weight {item!r}: {value!r} is not a number") from None
        return cls(**values)

    @classmethod
    def of(cls, weights: PenaltyWeights | Mapping[str, float] | None) -> PenaltyWeights:
        """Weights as given to a function: :class:`PenaltyWeights`, a mapping of term names to weights (the
        others 1), or None (all 1).

        >>> PenaltyWeights.of({"match": 2.5})
        PenaltyWeights(one_hot=1.0, at_most_one=1.0, order=1.0, match=2.5)
        >>> PenaltyWeights.of("match=2")
        Traceback (most recent call last):
        ...
        qpicross.exceptions.ParameterError: weights must be PenaltyWeights or a mapping of term names to numbers, \
got str (PenaltyWeights.parse reads 'name=value,...')
        """
        if weights is None:
            return cls()
        if isinstance(weights, Mapping):
            unknown = [name for name in weights if name not in TERMS]
            if unknown:
                raise ParameterError(f"weights name no term {unknown[0]!r}; the terms: {', '.join(TERMS)}")
            return cls(**weights)
        if not isinstance(weights, PenaltyWeights):
            raise ParameterError(f"weights must be PenaltyWeights or a mapping of term names to numbers, got "
                                 f"{type(weights).__name__}" + (" (PenaltyWeights.parse reads 'name=value,...')"
                                                                if isinstance(weights, str) else ""))
        return weights

    def as_dict(self) -> dict[str, float]:
        return dataclasses.asdict(self)

    @property
    def smallest(self) -> float:
        """The smallest weight: the least energy any infeasible assignment can have."""
        return min(self.as_dict().values())
