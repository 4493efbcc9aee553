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

__all__ = ["load_results", "finite_or_none", "fmt_seconds", "measured_by"]


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


def measured_by(paths) -> str:
    """The line under a generated table: the commit each of its results files was measured at (files that agree
    grouped). It reads the files only, so a page changes only when its results do; whether today's code draws the
    same samples is for ``make stale-results`` to say.

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.json").write_text(json.dumps({"meta": {"commit": "abc1234", "dirty": False}}))
    >>> print(measured_by([folder / "a.json"]))
    *Measured at:* commit abc1234 (a.json). Whether today's code draws the same samples: `make stale-results`.
    """
    groups: dict[str, list[str]] = {}
    for path in paths:
        path = Path(path)
        meta = json.loads(path.read_text()).get("meta") or {}
        key = f"commit {meta.get('commit') or '?'}" + (" with uncommitted changes" if meta.get("dirty") else "")
        groups.setdefault(key, []).append(path.name)
    measured = "; ".join(f"{key} ({', '.join(names)})" for key, names in groups.items())
    return f"*Measured at:* {measured}. Whether today's code draws the same samples: `make stale-results`."
