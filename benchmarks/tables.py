"""Small helpers the studies' results files and their markdown tables share (study, schedule, embedding).

Examples:
    >>> fmt_seconds(0.0123), fmt_seconds(12.34), fmt_seconds(None)
    ('12.3 ms', '12.3 s', '∞')
    >>> finite_or_none(float("inf")), finite_or_none(2.5), finite_or_none(None)
    (None, 2.5, None)
    >>> load_results({"records": []})
    {'records': []}
"""

from __future__ import annotations

import json
import math
import os
from pathlib import Path

__all__ = ["load_results", "finite_or_none", "fmt_seconds"]


def load_results(results: dict | str | os.PathLike) -> dict:
    """A results file's contents: ``results`` itself when it is already loaded, else the JSON file it names."""
    return results if isinstance(results, dict) else json.loads(Path(results).read_text())


def finite_or_none(value):
    """``value``, or None for an infinite float (JSON has no infinity)."""
    return None if isinstance(value, float) and not math.isfinite(value) else value


def fmt_seconds(seconds: float | None) -> str:
    """Seconds in ms below one second, ``∞`` for None (never)."""
    if seconds is None:
        return "∞"
    return f"{seconds * 1000:.3g} ms" if seconds < 1 else f"{seconds:.3g} s"
