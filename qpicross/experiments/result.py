"""What a results file holds: a row per run (:class:`BenchResult`), its CSV cells, and the file's ``meta``.

* :class:`BenchResult` is what a benchmark measures of one run, made from the run by :func:`result_from_run`;
  :mod:`qpicross.experiments.bench` (one puzzle at a time) and :mod:`qpicross.experiments.batch` (batched
  samplers, many puzzles in one call) both build their rows with it.
* :func:`csv_cell` writes a text cell that a spreadsheet opens as text (:data:`CSV_FIELDS` are the columns),
  :func:`read_cell` reads it back.
* :func:`machine_info` is the ``meta`` every results file records: the machine, its load average, the commit,
  and which code wrote it (:func:`provenance`: the package version and :func:`code_hash`, a SHA-256 over
  everything that can change a figure: every module of the package, the repository's tooling that computes or
  restates statistics, and the versions of the libraries that sample and compute; ``code_hashed`` says which,
  :func:`hashed_inputs`). The repository's ``make stale-results`` compares the recorded hash with the tree's.

Examples:
    >>> meta = machine_info()
    >>> meta["code_hash"] == code_hash() and len(meta["code_hash"]) == 64, meta["code_hashed"] == hashed_inputs()
    (True, True)
    >>> [x.partition("=")[0] for x in meta["code_hashed"][2:]]
    ['dimod', 'dwave-samplers', 'numba', 'numpy', 'scipy']
"""

from __future__ import annotations

import dataclasses
import hashlib
import math
import os
import re
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import numpy as np

from qpicross.experiments.tts import time_to_target_tts, tts99, wilson_interval
from qpicross.experiments.survival import read_durations, survival_tts
from qpicross.pipeline.config import SolverConfig
from qpicross.pipeline.run import AnnealResult

__all__ = ["BenchResult", "result_from_run", "CSV_FIELDS", "TTS_ESTIMATOR", "csv_cell", "read_cell", "FORMULA_STARTS",
           "machine_info", "load_average", "provenance", "code_hash", "hashed_inputs", "HASHED", "HASHED_LIBRARIES", "OLD_HASHED"]

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


PACKAGE = Path(__file__).resolve().parents[1]
#: The modules :func:`code_hash` covers, as globs relative to the folder that holds the package: every module of
#: the package, and the repository's tooling that computes or restates statistics (``benchmarks/*.py``: only when
#: the package runs from a source checkout, a folder with a ``pyproject.toml``; an installed wheel has none).
HASHED = ("qpicross/**/*.py", "benchmarks/*.py")
#: The libraries whose versions :func:`code_hash` covers: they draw the samples, time them, or compute statistics.
HASHED_LIBRARIES = ("dimod", "dwave-samplers", "numba", "numpy", "scipy")
#: What results files written before the hash covered the whole code record as ``code_hashed``: the sampler
#: modules only (``make stale-results`` says "hashed the old way").
OLD_HASHED = ("samplers/**/*.py",)


def _hashed_files(package: Path) -> dict[str, list[Path]]:
    """Glob of :data:`HASHED` -> the files it finds beside ``package`` (the tooling's only in a source checkout)."""
    root = package.parent
    found = {}
    for pattern in HASHED:
        if pattern.startswith("qpicross/"):
            files = package.glob(pattern.partition("/")[2])
        elif (root / "pyproject.toml").is_file():
            files = root.glob(pattern)
        else:
            continue
        found[pattern] = sorted(f for f in files if f.is_file())
    return found


def _library_versions() -> list[str]:
    """``name==version`` of each of :data:`HASHED_LIBRARIES` installed (``name absent`` for one that is not)."""
    from importlib.metadata import PackageNotFoundError, version

    out = []
    for name in HASHED_LIBRARIES:
        try:
            out.append(f"{name}=={version(name)}")
        except PackageNotFoundError:
            out.append(f"{name} absent")
    return out


def hashed_inputs(package: str | Path | None = None) -> list[str]:
    """What :func:`code_hash` covers, as a results file records it (``code_hashed``): the globs of :data:`HASHED`
    it read (``benchmarks/*.py`` only from a source checkout) and each library's version.

    >>> [x for x in hashed_inputs() if not x.startswith(HASHED_LIBRARIES)]
    ['qpicross/**/*.py', 'benchmarks/*.py']
    """
    package = PACKAGE if package is None else Path(package)
    return [*_hashed_files(package), *_library_versions()]


def code_hash(package: str | Path | None = None) -> str:
    """SHA-256 (hex) of everything that can change a figure: each module of :data:`HASHED` by its path and its
    bytes, and the versions of :data:`HASHED_LIBRARIES` (:func:`hashed_inputs` says which).

    Args:
        package: The package folder (default: this ``qpicross``); its parent's ``benchmarks/*.py`` is read too when
            the parent is a source checkout.
    """
    package = PACKAGE if package is None else Path(package)
    digest = hashlib.sha256()
    for pattern, files in _hashed_files(package).items():
        base = package if pattern.startswith("qpicross/") else package.parent
        prefix = "qpicross/" if base is package else ""
        for f in files:
            rel = (prefix + f.relative_to(base).as_posix()).encode()
            digest.update(len(rel).to_bytes(4, "big") + rel)
            data = f.read_bytes()
            digest.update(len(data).to_bytes(8, "big") + data)
    for line in _library_versions():
        digest.update(len(line).to_bytes(4, "big") + line.encode())
    return digest.hexdigest()


def provenance() -> dict:
    """What a results file's ``meta`` records of the code that wrote it: the version, :func:`code_hash` and what it
    covered (``code_hashed``: :func:`hashed_inputs`)."""
    from qpicross import __version__

    return {"version": __version__, "code_hash": code_hash(), "code_hashed": hashed_inputs()}


def _git_commit() -> str | None:
    """The checked-out commit of the source tree, when it is a git work tree."""
    import subprocess

    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=Path(__file__).resolve().parent,
                             capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


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
    ``taskset``), source commit, :func:`load_average` (at the start: a run adds
    ``load_average_after`` when it ends, as ``qpicross bench`` and the studies do), Python, time, and which code
    (:func:`provenance`: the package version, the whole code's hash and what it covered)."""
    return {
        "cpus": os.cpu_count(),
        "cpus_allowed": _cpus_allowed(),
        "commit": _git_commit(),
        "load_average": load_average(),
        "python": sys.version.split()[0],
        "platform": sys.platform,
        "time_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        **provenance(),
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
