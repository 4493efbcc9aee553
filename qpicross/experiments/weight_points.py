"""The points of a penalty-weight sweep: ranges parsed from text, their grid or a random set in the box.

:func:`~qpicross.experiments.tune.tune` runs a sweep over the points made here (``qpicross tune --grid``,
``--random``).

Examples:
    >>> ranges = parse_grid("one_hot=1:4:3, match=2")
    >>> [(w.one_hot, w.match) for w in grid_points(ranges)]
    [(1.0, 2.0), (2.5, 2.0), (4.0, 2.0)]
    >>> len(random_points(ranges, 5, seed=1))
    5
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Sequence

import numpy as np

from qpicross.exceptions import ParameterError
from qpicross.model.weights import TERMS, PenaltyWeights

__all__ = ["WeightRange", "parse_grid", "grid_points", "random_points", "MAX_POINTS"]

#: Most points a sweep may have (grid or random): far more than any sweep runs in a day, it stops
#: a typo (``match=1:2:100000000``) from building a list of a hundred million points.
MAX_POINTS = 100_000


@dataclasses.dataclass(frozen=True)
class WeightRange:
    """The values one penalty weight takes in a sweep: ``num`` values from ``low`` to ``high``.

    Examples:
        >>> WeightRange("match", 1, 4, 4).values().tolist()
        [1.0, 2.0, 3.0, 4.0]
        >>> WeightRange("match", 0.5, 4, 4).values(log=True).tolist()
        [0.5, 1.0, 2.0, 4.0]
    """

    name: str
    low: float
    high: float
    num: int = 1

    def __post_init__(self):
        if self.name not in TERMS:
            raise ParameterError(f"unknown weight {self.name!r}; known: {', '.join(TERMS)}")
        if not (math.isfinite(self.low) and math.isfinite(self.high)) or self.low < 0 or self.high < self.low:
            raise ParameterError(f"{self.name}: need 0 <= LOW <= HIGH, got {self.low:g}:{self.high:g}")
        if self.num > MAX_POINTS:
            raise ParameterError(f"{self.name}: {self.num:,} values, above the limit of {MAX_POINTS:,} points")
        if self.num < 1 or (self.num == 1 and self.low != self.high):
            raise ParameterError(
                f"{self.name}: need N >= 2 values between {self.low:g} and {self.high:g}, got {self.num}"
            )

    def values(self, log: bool = False) -> np.ndarray:
        """Evenly spaced values (geometrically spaced when ``log``)."""
        if self.num == 1:
            return np.array([self.low])
        if log:
            self._check_log()
            return np.geomspace(self.low, self.high, self.num)
        return np.linspace(self.low, self.high, self.num)

    def draw(self, rng: np.random.Generator, size: int, log: bool = False) -> np.ndarray:
        """Uniform (log-uniform when ``log``) random values in ``[low, high]``."""
        if log:
            self._check_log()
            return np.exp(rng.uniform(math.log(self.low), math.log(self.high), size))
        return rng.uniform(self.low, self.high, size)

    def _check_log(self) -> None:
        if self.low <= 0:
            raise ParameterError(f"{self.name}: a log scale needs LOW > 0, got {self.low:g}")


def parse_grid(text: str) -> list[WeightRange]:
    """Parse ``name=LOW:HIGH:N,...`` (``name=VALUE`` fixes a weight).

    Weights not named keep their default of 1.

    Raises:
        ValueError: On an unknown name, a repeated name, or a malformed range.

    Examples:
        >>> for r in parse_grid("one_hot=0.5:4:8, match=2"):
        ...     print(r)
        WeightRange(name='one_hot', low=0.5, high=4.0, num=8)
        WeightRange(name='match', low=2.0, high=2.0, num=1)
    """
    ranges: list[WeightRange] = []
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, sep, spec = (s.strip() for s in item.partition("="))
        if not sep or not spec:
            raise ParameterError(f"bad range {item!r}: expected NAME=LOW:HIGH:N or NAME=VALUE")
        if any(r.name == name for r in ranges):
            raise ParameterError(f"weight {name!r} is given twice")
        parts = spec.split(":")
        try:
            if len(parts) == 1:
                ranges.append(WeightRange(name, float(parts[0]), float(parts[0]), 1))
            elif len(parts) == 3:
                ranges.append(WeightRange(name, float(parts[0]), float(parts[1]), int(parts[2])))
            else:
                raise ParameterError(f"bad range {item!r}: expected NAME=LOW:HIGH:N or NAME=VALUE")
        except ValueError as exc:
            if "could not convert" in str(exc) or "invalid literal" in str(exc):
                message = f"bad range {item!r}: LOW and HIGH must be numbers and N an integer"
                raise ParameterError(message) from None
            raise
    if not ranges:
        raise ParameterError("empty grid: give at least one NAME=LOW:HIGH:N")
    return ranges


def grid_points(
    ranges: Sequence[WeightRange], *, log: bool = False, base: PenaltyWeights | None = None
) -> list[PenaltyWeights]:
    """Every combination of the ranges' values (the last range varies fastest).

    Args:
        ranges: From :func:`parse_grid`.
        log: Space values geometrically.
        base: Weights of the terms no range names (all 1 by default).
    """
    count = math.prod(r.num for r in ranges)
    if count > MAX_POINTS:
        raise ParameterError(f"{count:,} grid points, above the limit of {MAX_POINTS:,}; use fewer or --random N")
    base = base or PenaltyWeights()
    axes = [r.values(log) for r in ranges]
    return [
        dataclasses.replace(base, **{r.name: float(v) for r, v in zip(ranges, combo)})
        for combo in itertools.product(*axes)
    ]


def random_points(
    ranges: Sequence[WeightRange],
    n: int,
    *,
    log: bool = False,
    seed: int | None = None,
    base: PenaltyWeights | None = None,
) -> list[PenaltyWeights]:
    """``n`` points drawn uniformly (log-uniformly when ``log``) in the box the ranges span.

    Examples:
        >>> pts = random_points(parse_grid("one_hot=0.5:4:2,match=1"), 3, seed=1)
        >>> len(pts), all(0.5 <= w.one_hot <= 4 and w.match == 1 for w in pts)
        (3, True)
    """
    if not 1 <= n <= MAX_POINTS:
        raise ParameterError(f"need between 1 and {MAX_POINTS:,} random points, got {n}")
    base = base or PenaltyWeights()
    rng = np.random.default_rng(seed)
    columns = {r.name: (r.draw(rng, n, log) if r.num > 1 else np.full(n, r.low)) for r in ranges}
    return [dataclasses.replace(base, **{k: float(v[i]) for k, v in columns.items()}) for i in range(n)]
