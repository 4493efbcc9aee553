"""What a results file holds: a row per run (:class:`BenchResult`), its CSV cells, and the file's ``meta``.

* :class:`BenchResult` is what a benchmark measures of one run, made from the run by :func:`result_from_run`;
  :mod:`qpicross.experiments.bench` (one puzzle at a time) and :mod:`qpicross.experiments.batch` (batched
  samplers, many puzzles in one call) both build their rows with it.
* :func:`csv_cell` writes a text cell that a spreadsheet opens as text (:data:`CSV_FIELDS` are the columns),
  :func:`read_cell` reads it back.
* :func:`machine_info` is the ``meta`` every results file records: the machine, its load average, the package's
  version and those of the libraries that draw and time the samples (:func:`library_versions`).

Examples:
    >>> meta = machine_info()
    >>> sorted(meta["libraries"])
    ['dimod', 'dwave-samplers', 'numba', 'numpy', 'scipy']
"""

from __future__ import annotations

import dataclasses
import math
import os
import re
import sys
import time
from collections import Counter
from typing import Any

import numpy as np

from qpicross.experiments.tts import time_to_target_tts, tts99, wilson_interval
from qpicross.experiments.survival import read_durations, survival_tts
from qpicross.pipeline.config import SolverConfig
from qpicross.pipeline.run import AnnealResult

__all__ = ["BenchResult", "result_from_run", "CSV_FIELDS", "TTS_ESTIMATOR", "csv_cell", "read_cell", "FORMULA_STARTS",
           "machine_info", "load_average", "library_versions", "LIBRARIES"]

#: What ``tts_estimator`` says of time-to-target rows: reads cut short are censored.
TTS_ESTIMATOR = "kaplan-meier"

@dataclasses.dataclass
class BenchResult:
    """The measurements of one configuration on one puzzle (see the module docstring)."""

    puzzle: str
    source: str
    rows: int
    cols: int
    config: str
    sampler: str
    num_sweeps: int | None
    bounds: str
    weights: str
    presolve: bool
    options: str
    num_variables: int
    num_couplers: int
    num_fixed: int
    presolve_s: float
    build_s: float
    num_reads: int
    num_solved: int
    sample_s: float
    t_read_s: float
    p: float
    p_low: float
    p_high: float
    tts99_s: float
    tts99_low_s: float
    tts99_high_s: float
    best_energy: float
    residual_mean: float
    residual_median: float
    residual_histogram: dict[str, int]
    stopped_by_budget: bool
    baseline_tts99_s: float | None = None
    speedup_vs_baseline: float | None = None
    error: str = ""
    #: Reads whose row board passes the check although they are not ground states (never successes).
    num_valid_board_only: int = 0
    encoding: str = "one_hot"
    #: ``"fixed"`` (every read runs its full length) or ``"time-to-target"`` (optimal cutoff).
    tts_method: str = "fixed"
    #: Time to target (early-stopping samplers): optimal cutoff, p there, median, 99th percentile, mean.
    cutoff_s: float | None = None
    p_at_cutoff: float | None = None
    ttt_median_s: float | None = None
    ttt_p99_s: float | None = None
    ttt_mean_s: float | None = None
    #: Per read, in the order drawn: seconds to the first ground state (inf: never), when the sampler says.
    time_to_target_s: list[float] | None = None
    seed: int | None = None
    #: Batched samplers (qpicross.experiments.batch): wall seconds of the one call that sampled every puzzle.
    batch_wall_s: float | None = None
    #: Cores each read ran on (``None``: a GPU); where ``core_s`` is missing, core-seconds are ``threads`` × wall.
    threads: int | None = 1
    #: Per read, how long it ran (its time to target, or for a read that never reached it, the time it
    #: is censored at: :func:`~qpicross.experiments.survival.read_durations`).
    read_s: list[float] | None = None
    #: ``"kaplan-meier"``: the time-to-target figures treat reads cut short as censored
    #: (:func:`~qpicross.experiments.survival.survival_tts`); empty for the other methods.
    tts_estimator: str = ""
    #: Reads that reached the target by the optimal cutoff, and whether that is under ``MIN_EVENTS``.
    events_at_cutoff: int | None = None
    few_events: bool | None = None
    #: The TTS99 that counted every read cut short as a miss at every cutoff (the estimator before).
    tts99_naive_s: float | None = None
    #: Per read, its measured CPU seconds (every stream's together), when the sampler timed them (the block-shift
    #: sampler does): core-seconds are wall seconds × ``sum(core_s) / sum(read_s)``; ``None``: not measured.
    core_s: list[float] | None = None

    @property
    def solved(self) -> bool:
        return self.num_solved > 0

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        for key, value in d.items():  # JSON has no infinity: write it as the string "inf"
            if isinstance(value, float) and not math.isfinite(value):
                d[key] = "inf" if value > 0 else "nan"
        if d["time_to_target_s"] is not None:
            d["time_to_target_s"] = [t if math.isfinite(t) else "inf" for t in d["time_to_target_s"]]
        return d


#: Columns of the CSV output (the residual histogram and per-read times are JSON-encoded in their cells).
CSV_FIELDS = [f.name for f in dataclasses.fields(BenchResult)]


#: First characters that make a spreadsheet read a cell as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

#: Control characters (C0 but tab, C1, DEL), lone surrogates, line and paragraph separators, bidirectional
#: controls: escaped in a cell.
_UNSAFE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def csv_cell(value: Any) -> Any:
    r"""A value as it goes into a CSV cell: text a spreadsheet opens as text, anything else as is.

    A puzzle's name comes from its file and a label from the command line; written verbatim,
    ``=HYPERLINK(...)`` or ``@SUM(...)`` would run as a formula when the file is opened in a spreadsheet
    (CSV injection), and an escape or bidirectional-override character would reorder or hide what is
    shown. As OWASP's CSV injection advice says, a cell starting with one of :data:`FORMULA_STARTS` gets a
    leading ``'`` (which spreadsheets take as "text", and do not show), and control characters are written
    as backslash escapes.

    Examples:
        >>> csv_cell("=HYPERLINK(\"http://x\")"), csv_cell("-5x5"), csv_cell("star10"), csv_cell(-1.5)
        ('\'=HYPERLINK("http://x")', "'-5x5", 'star10', -1.5)
        >>> csv_cell("evil\x1b[31m\u202e")
        'evil\\x1b[31m\\u202e'
    """
    if not isinstance(value, str):
        return value
    text = _UNSAFE.sub(lambda m: m.group().encode("unicode_escape", "backslashreplace").decode("ascii"), value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def read_cell(value: Any) -> Any:
    """A cell read back: the ``'`` that :func:`csv_cell` put before a formula character taken off.

    >>> read_cell(csv_cell("@SUM(A1)")), read_cell("'quoted")
    ('@SUM(A1)', "'quoted")
    """
    if isinstance(value, str) and value.startswith("'") and value[1:2] and value[1:2] in FORMULA_STARTS:
        return value[1:]
    return value


#: The libraries that draw the samples, time them, or compute the statistics: their versions go in every ``meta``.
LIBRARIES = ("dimod", "dwave-samplers", "numba", "numpy", "scipy")


def library_versions() -> dict[str, str | None]:
    """Version of each of :data:`LIBRARIES` installed (None for one that is not).

    >>> sorted(library_versions()) == sorted(LIBRARIES)
    True
    """
    from importlib.metadata import PackageNotFoundError, version

    out: dict[str, str | None] = {}
    for name in LIBRARIES:
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            out[name] = None
    return out


def load_average() -> list[float]:
    """The machine's load average over 1, 5 and 15 minutes (NaN where the platform has none)."""
    try:
        load = os.getloadavg()
    except OSError:  # pragma: no cover
        load = (math.nan,) * 3
    return [round(v, 2) for v in load]


def _cpus_allowed() -> list[int] | None:
    """The CPUs this process may run on (``taskset``), None where the system does not say."""
    try:
        return sorted(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return None


def machine_info() -> dict:
    """Where the measurement ran: CPU count and the CPUs this process may use (``cpus_allowed``: fewer under
    ``taskset``), :func:`load_average` (at the start: a run adds ``load_average_after`` when it ends, as
    ``qpicross bench`` and the studies do), Python, time, the package's version and :func:`library_versions`.
    The repository's benchmarks add the commit and the samples fingerprints (``benchmarks/provenance.py``)."""
    from qpicross import __version__

    return {
        "cpus": os.cpu_count(),
        "cpus_allowed": _cpus_allowed(),
        "load_average": load_average(),
        "python": sys.version.split()[0],
        "platform": sys.platform,
        "time_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "version": __version__,
        "libraries": library_versions(),
    }


def _weights_text(config: SolverConfig) -> str:
    return ",".join(f"{k}={v:g}" for k, v in config.weights.as_dict().items())


def _options_text(config: SolverConfig) -> str:
    return ",".join(f"{k}={v!r}".replace(" ", "") for k, v in config.to_dict()["options"].items())


def result_from_run(result: AnnealResult, source: str = "") -> BenchResult:
    """The benchmark's measurements of one :func:`~qpicross.pipeline.run.run`."""
    config, evaluation, info = result.config, result.evaluation, result.sampleset.info
    presolve_s = result.timing.get("presolve_s", 0.0)
    sample_s = max(result.timing["sample_s"] - presolve_s, 0.0)
    annealed = result.num_annealed_variables
    reads = evaluation.num_reads
    solved = evaluation.num_solved
    p = solved / reads
    low, high = wilson_interval(solved, reads)
    t_read = sample_s / reads if annealed else 0.0
    residual = np.repeat(evaluation.energy, evaluation.num_occurrences)  # ground energy is 0
    histogram = Counter(f"{e:g}" for e in np.round(residual, 6))
    extra: dict = {}
    if "core_s" in info and "read_s" in info and annealed:  # measured CPU seconds, read by read
        extra["core_s"] = [float(c) for c in info["core_s"]]
    if "time_to_target_s" in info and annealed:
        # Early stopping: a read's time to target counts only if the read succeeded by our definition;
        # a read that did not is censored at its run time (survival data, Kaplan-Meier), not a miss forever.
        times = np.asarray(info["time_to_target_s"], float)
        times = np.where(evaluation.read_solved, times, np.inf)
        if "read_s" in info:  # the sampler timed each read: exact censoring times
            durations = np.maximum(np.asarray(info["read_s"], float), np.where(np.isfinite(times), times, 0.0))
        else:
            durations = read_durations(times, sample_s, parallel=bool(info.get("parallel_reads")))
        ttt = survival_tts(times, durations)
        naive = time_to_target_tts(times)
        tts, tts_low, tts_high = ttt.tts99_s, ttt.tts99_low_s, ttt.tts99_high_s
        extra.update(tts_method="time-to-target", cutoff_s=ttt.cutoff_s, p_at_cutoff=ttt.p_at_cutoff,
                     ttt_median_s=ttt.median_s, ttt_p99_s=ttt.p99_s, ttt_mean_s=naive.mean_s,
                     time_to_target_s=times.tolist(), read_s=durations.tolist(),
                     tts_estimator=TTS_ESTIMATOR, events_at_cutoff=ttt.events_at_cutoff,
                     few_events=ttt.few_events, tts99_naive_s=presolve_s + naive.tts99_s)
    else:
        # a higher p gives a lower TTS: the interval's ends swap
        tts, tts_low, tts_high = tts99(t_read, p), tts99(t_read, high), tts99(t_read, low)
    return BenchResult(
        puzzle=result.puzzle.name,
        source=source,
        rows=result.puzzle.num_rows,
        cols=result.puzzle.num_cols,
        config=config.label,
        sampler=config.sampler_name,
        num_sweeps=config.num_sweeps,
        bounds=config.bounds,
        weights=_weights_text(config),
        presolve=config.presolve,
        options=_options_text(config),
        num_variables=annealed,
        num_couplers=result.num_annealed_interactions,
        num_fixed=len(result.formulation.fixed_labels) + (
            result.presolve["variables_before"] - annealed if result.presolve else 0),
        presolve_s=presolve_s,
        build_s=result.timing["build_s"],
        num_reads=reads,
        num_solved=solved,
        sample_s=sample_s,
        t_read_s=t_read,
        p=p,
        p_low=low,
        p_high=high,
        tts99_s=presolve_s + tts,
        tts99_low_s=presolve_s + tts_low,
        tts99_high_s=presolve_s + tts_high,
        best_energy=float(evaluation.energy.min()),
        residual_mean=float(residual.mean()),
        residual_median=float(np.median(residual)),
        residual_histogram=dict(sorted(histogram.items(), key=lambda kv: float(kv[0]))),
        stopped_by_budget=result.stopped_by_budget,
        num_valid_board_only=evaluation.num_valid_board_only,
        encoding=config.encoding,
        seed=config.seed,
        threads=_threads(config, info),
        **extra,
    )


def _threads(config: SolverConfig, info: dict) -> int | None:
    """Cores a read ran on: the sampler's ``threads`` (1 for a single-threaded sampler; the batched CPU backend:
    the cores its reads shared); ``None`` on a GPU."""
    if info.get("backend") not in (None, "cpu") or (info.get("parallel_reads") and "threads" not in info):
        return None
    return int(info.get("threads", config.sampler_options.get("threads", 1)))
