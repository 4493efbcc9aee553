"""Restate results files with the censored estimator, from their stored per-read times (no re-run).

Files written before :func:`~qpicross.experiments.survival.survival_tts` counted a read cut short by the
time budget as a miss at every cutoff. Every ``time-to-target`` row stores each read's time to target
and the run's sampling time, which is all the censored estimate needs
(:func:`~qpicross.experiments.survival.read_durations`): :func:`restate_row` recomputes it, keeping the
old figure as ``tts99_naive_s`` (checked against the stored one, so a file whose figures do not follow
from its own times is refused), and :func:`restate_file` rewrites a file in place, its summaries
included, and notes the restatement in its ``meta``. Rows are also given ``threads`` (read from their
options) so every table can show core-seconds. Running it again changes nothing.

Command line: ``python -m benchmarks.restate results/*.json`` (``make restate``).

Examples:
    >>> row = {"tts_method": "time-to-target", "num_variables": 10, "presolve_s": 0.0, "sample_s": 60.2,
    ...        "time_to_target_s": [29.6, 9.5, "inf"], "tts99_s": 107.9475, "options": "threads=2"}
    >>> new = restate_row(row, tolerance=1e-3)
    >>> new["tts99_s"], round(new["tts99_naive_s"], 1), new["read_s"][2], new["threads"], new["few_events"]
    (29.6, 107.9, 21.1, 2, True)
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from qpicross.exceptions import ParameterError
from qpicross.experiments.bench import summarize
from qpicross.experiments.result import TTS_ESTIMATOR, BenchResult
from qpicross.experiments.tts import time_to_target_tts
from qpicross.experiments.survival import BOOTSTRAP_RESAMPLES, MIN_EVENTS, read_durations, survival_tts

__all__ = ["restate_row", "restate_file", "threads_of", "has_moved", "main"]

#: Samplers whose reads run on a GPU: no core count (``threads`` is ``None``).
GPU_SAMPLERS = ("gpu-shift", "shift-batched")


def _number(value) -> float:
    if value in (None, "", "inf"):
        return math.inf
    if value == "nan":
        return math.nan
    return float(value)


def _json_float(value: float):
    return ("inf" if value > 0 else "-inf") if isinstance(value, float) and math.isinf(value) else value


def threads_of(row: dict) -> int | None:
    """Cores a row's reads ran on: ``threads=N`` of its options, else 1; ``None`` for a GPU sampler.

    >>> threads_of({"options": "num_replicas=2,threads=2"}), threads_of({"options": ""}), threads_of({"sampler": "gpu-shift"})
    (2, 1, None)
    """
    if row.get("sampler") in GPU_SAMPLERS or row.get("tts_method") == "parallel-time-to-target":
        return None
    for part in str(row.get("options") or "").split(","):
        key, _, value = part.partition("=")
        if key == "threads" and value.isdigit():
            return int(value)
    return 1


def restate_row(row: dict, *, tolerance: float = 1e-9) -> dict:
    """A copy of a results row whose time-to-target figures treat reads cut short as censored.

    Rows of other methods (fixed-length reads, the GPU's parallel reads: every read ran the whole call,
    so none is censored before a hit) only gain ``threads``.

    Raises:
        ValueError: The stored TTS99 of a row not yet restated is not the one its times give (beyond
            ``tolerance``, relative): the file's figures do not come from its stored times.
    """
    new = dict(row)
    if "threads" not in new:
        new["threads"] = threads_of(row)
    times_stored = row.get("time_to_target_s")
    if row.get("tts_method") != "time-to-target" or not times_stored or not int(row.get("num_variables") or 0):
        return new
    times = np.array([_number(t) for t in times_stored], float)
    presolve_s = float(row.get("presolve_s") or 0.0)
    naive = time_to_target_tts(times)
    naive_tts = presolve_s + naive.tts99_s
    stored = _number(row.get("tts99_naive_s") if row.get("tts_estimator") else row.get("tts99_s"))
    same = (math.isinf(stored) and math.isinf(naive_tts)) or abs(stored - naive_tts) <= tolerance * max(1.0, abs(stored))
    if not same:
        raise ParameterError(f"{row.get('puzzle')} ({row.get('config')}): stored TTS99 {stored} is not the {naive_tts} "
                             f"its per-read times give")
    durations = row.get("read_s")
    durations = (np.array([_number(t) for t in durations], float) if durations
                 else read_durations(times, float(row["sample_s"])))
    ttt = survival_tts(times, durations)
    new.update(
        tts99_s=presolve_s + ttt.tts99_s, tts99_low_s=presolve_s + ttt.tts99_low_s,
        tts99_high_s=presolve_s + ttt.tts99_high_s, cutoff_s=ttt.cutoff_s, p_at_cutoff=ttt.p_at_cutoff,
        ttt_median_s=ttt.median_s, ttt_p99_s=ttt.p99_s, read_s=durations.tolist(), tts_estimator=TTS_ESTIMATOR,
        events_at_cutoff=ttt.events_at_cutoff, few_events=ttt.few_events, tts99_naive_s=naive_tts,
    )
    base = _number(row.get("baseline_tts99_s")) if row.get("baseline_tts99_s") is not None else None
    if base is not None:
        new["speedup_vs_baseline"] = base / new["tts99_s"] if math.isfinite(base) and new["tts99_s"] > 0 else None
    for key in ("tts99_s", "tts99_low_s", "tts99_high_s", "cutoff_s", "ttt_median_s", "ttt_p99_s",
                "tts99_naive_s"):
        new[key] = _json_float(new[key])
    new["read_s"] = [_json_float(t) for t in new["read_s"]]
    return new


def has_moved(before: float, after: float, rel: float = 1e-6) -> bool:
    """Whether a figure changed beyond rounding (the Kaplan-Meier product and a count differ in the last digits).

    >>> has_moved(35.09041867740143, 35.090418677401416), has_moved(348.25, 52.42), has_moved(math.inf, math.inf)
    (False, True, False)
    """
    if math.isinf(before) or math.isinf(after):
        return before != after
    return abs(before - after) > rel * max(abs(before), abs(after))


def _result(row: dict) -> BenchResult:
    """A :class:`BenchResult` from a JSON row (for :func:`summarize`)."""
    names = {f.name for f in dataclasses.fields(BenchResult)}
    values = {k: (_number(v) if v in ("inf", "nan") else v) for k, v in row.items() if k in names}
    return BenchResult(**values)


def restate_file(path: str | Path) -> int:
    """Restate every row of one ``qpicross bench --json`` file in place; returns the rows whose TTS99 moved.

    Files without bench rows (``kernels.json``, ``study.json``) are left as they are.
    """
    path = Path(path)
    data = json.loads(path.read_text())
    rows = data.get("results")
    if not rows or not any("tts99_s" in r for r in rows):
        return 0
    new_rows = [restate_row(r) for r in rows]
    moved = sum(has_moved(_number(a["tts99_s"]), _number(b["tts99_s"])) for a, b in zip(rows, new_rows))
    results = [_result(r) for r in new_rows]

    def finite(summary):
        return {name: {k: _json_float(v) for k, v in entry.items()} for name, entry in summary.items()}

    data["results"] = new_rows
    if "summary" in data:
        data["summary"] = finite(summarize(results))
    if "summary_by_source" in data:
        data["summary_by_source"] = finite(summarize(results, by_source=True))
    meta = data.setdefault("meta", {})
    if "restated" not in meta:  # the first restatement's date stays: later runs change nothing
        meta["restated"] = {
            "estimator": TTS_ESTIMATOR, "by": "python -m benchmarks.restate",
            "bootstrap_resamples": BOOTSTRAP_RESAMPLES, "min_events": MIN_EVENTS,
            "time_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        }
    path.write_text(json.dumps(data, indent=1) + "\n")
    return moved


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m benchmarks.restate FILE.json...``: restate each file in place."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.restate",
                                     description="Restate results files with the censored (Kaplan-Meier) TTS99.")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args(argv)
    for name in args.files:
        moved = restate_file(name)
        print(f"{name}: {moved} TTS99 moved")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
