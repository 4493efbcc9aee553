r"""Benchmarks: success probability and time-to-solution of annealing runs.

For each puzzle and each :class:`BenchConfig` (sampler, sweeps, formulation,
presolve) the harness draws reads, checks every read with the independent
:func:`~qpicross.puzzle.check`, and reports:

* the size of the model (variables, couplers) and its build time;
* the time per read :math:`t_{read}` (sampling wall time / reads);
* the success probability :math:`p` with a Wilson 95 % score interval;
* the time to solution with 99 % confidence,

  .. math:: TTS_{99} = t_{read}\,\frac{\ln(1 - 0.99)}{\ln(1 - p)}

  (:math:`t_{read}` when :math:`p = 1`, **infinite** when no read succeeds),
  plus the presolve time when the configuration presolves;
* the best energy and the distribution of residual energies (the energy of a
  read above the ground-state energy, which is 0 for this formulation).

:data:`BASELINE` reproduces the published formulation exactly (every start of
the published notebook, all weights 1, dwave-samplers SA with its defaults);
:func:`run_bench` runs it alongside the other configurations so every TTS is
also reported as a ratio against the baseline measured in the same run.

Examples:
    >>> round(tts99(0.002, 0.5), 5)
    0.01329
    >>> tts99(0.002, 1.0), tts99(0.002, 0.0)
    (0.002, inf)
    >>> [round(v, 4) for v in wilson_interval(5, 10)]
    [0.2366, 0.7634]
"""

from __future__ import annotations

import concurrent.futures
import csv
import dataclasses
import json
import math
import os
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import dimod
import numpy as np

from .decode import evaluate_samples
from .formats import load_puzzle
from .formulation import PenaltyWeights, build_formulation
from .puzzle import Puzzle
from .samplers import get_sampler, sample

__all__ = [
    "BenchConfig",
    "BenchResult",
    "BASELINE",
    "tts99",
    "wilson_interval",
    "bench_puzzle",
    "run_bench",
    "expand_specs",
    "write_csv",
    "write_json",
    "read_results",
    "plot_results",
    "summarize",
    "CSV_FIELDS",
]

#: Two-sided 95 % standard normal quantile.
Z95 = 1.959963984540054


def tts99(t_read: float, p: float, target: float = 0.99) -> float:
    r"""Time to reach a solution with probability ``target``.

    :math:`t_{read}\,\ln(1-\text{target})/\ln(1-p)`, but never less than one
    read: ``t_read`` when ``p >= target`` (one read suffices), and ``inf`` when
    ``p = 0`` (no read ever succeeded).

    >>> round(tts99(1.0, 0.01), 2)
    458.21
    """
    if not 0 <= p <= 1:
        raise ValueError(f"p must be in [0, 1], got {p}")
    if p == 0:
        return math.inf
    if p == 1:
        return float(t_read)
    return float(t_read * max(1.0, math.log1p(-target) / math.log1p(-p)))


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    r"""Wilson score interval for a binomial proportion.

    .. math:: \frac{\hat p + z^2/2n \pm z\sqrt{\hat p(1-\hat p)/n + z^2/4n^2}}{1 + z^2/n}

    >>> [round(v, 4) for v in wilson_interval(0, 100)]
    [0.0, 0.037]
    """
    if trials <= 0:
        return (0.0, 1.0)
    if not 0 <= successes <= trials:
        raise ValueError(f"successes must be in [0, {trials}], got {successes}")
    n = trials
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    low = 0.0 if successes == 0 else max(0.0, centre - half)
    high = 1.0 if successes == n else min(1.0, centre + half)
    return (low, high)


@dataclasses.dataclass(frozen=True)
class BenchConfig:
    """One way of solving: formulation, presolve and sampler settings.

    Attributes:
        name: Label in tables (``"baseline"``, ``"shift"``, ...).
        sampler: Registry name of the sampler.
        num_sweeps: Sweeps per read (``None``: the sampler's default).
        bounds: ``"stacking"`` or ``"published"`` (see :func:`~qpicross.formulation.build_formulation`).
        weights: Penalty weights.
        presolve: Settle cells by line logic first (:func:`qpicross.logic.propagate`).
        options: Extra sampler keyword arguments as ``(name, value)`` pairs.
        encoding: ``"one_hot"`` (the formulation's start variables) or
            ``"domain_wall"`` (:mod:`qpicross.domain_wall`; samples are mapped back
            to start variables before they are judged).
    """

    name: str
    sampler: str = "sa"
    num_sweeps: int | None = None
    bounds: str = "stacking"
    weights: PenaltyWeights = PenaltyWeights()
    presolve: bool = False
    options: tuple[tuple[str, object], ...] = ()
    encoding: str = "one_hot"


#: The published formulation, exactly: all starts, weights 1, SA defaults.
BASELINE = BenchConfig("baseline", sampler="sa", num_sweeps=None, bounds="published", weights=PenaltyWeights())


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

    @property
    def solved(self) -> bool:
        return self.num_solved > 0

    def to_dict(self) -> dict:
        d = dataclasses.asdict(self)
        for key, value in d.items():  # JSON has no infinity: write it as the string "inf"
            if isinstance(value, float) and not math.isfinite(value):
                d[key] = "inf" if value > 0 else "nan"
        return d


#: Columns of the CSV output (the residual histogram is JSON-encoded in its cell).
CSV_FIELDS = [f.name for f in dataclasses.fields(BenchResult)]


def _weights_text(weights: PenaltyWeights) -> str:
    return ",".join(f"{k}={v:g}" for k, v in weights.as_dict().items())


def _options_text(options: tuple[tuple[str, object], ...]) -> str:
    return ",".join(f"{k}={v!r}".replace(" ", "") for k, v in options)


def _presolve(puzzle: Puzzle) -> np.ndarray:
    """Cells settled by line logic (1 filled, 0 empty, -1 unknown)."""
    try:
        from .logic import propagate
    except ImportError:  # pragma: no cover - depends on the presolve module being present
        raise ValueError("presolve needs qpicross.logic.propagate, which this installation lacks") from None
    result = propagate(puzzle)
    known = getattr(result, "known", getattr(result, "board", result))
    return np.asarray(known)


def bench_puzzle(
    puzzle: Puzzle,
    config: BenchConfig,
    *,
    num_reads: int = 100,
    time_budget: float | None = None,
    seed: int | None = None,
    source: str = "",
) -> BenchResult:
    """Measure one configuration on one puzzle.

    Without ``time_budget`` all reads are drawn in one call. With it (seconds
    of sampling), one read is drawn first to time it, then chunks of as many
    reads as the remaining budget allows; the run stops once the budget is
    spent (after at least one read), and
    ``p`` is computed over the reads actually drawn.

    Args:
        puzzle: The puzzle.
        config: What to run.
        num_reads: Reads to draw (at most).
        time_budget: Stop drawing reads after this many seconds of sampling.
        seed: Random seed (each chunk gets a seed derived from it).
        source: Where the puzzle came from (file), for the tables.

    Examples:
        >>> from qpicross import Puzzle
        >>> p = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]], name="A")
        >>> r = bench_puzzle(p, BenchConfig("sa", num_sweeps=200), num_reads=20, seed=1)
        >>> r.num_reads, 0 < r.p <= 1, r.tts99_s >= r.t_read_s
        (20, True, True)
    """
    if config.presolve and "presolve" not in _WARM:  # compile line logic's kernels before timing
        _presolve(Puzzle([[1], [1]], [[1], [1]]))
        _WARM.add("presolve")
    t0 = time.perf_counter()
    known = _presolve(puzzle) if config.presolve else None
    t1 = time.perf_counter()
    formulation = build_formulation(puzzle, bounds=config.bounds, known=known)
    bqm = formulation.bqm(config.weights)
    sampled = bqm
    if config.encoding == "domain_wall":
        from .domain_wall import domain_wall_bqm, to_one_hot_sampleset

        wall_model = domain_wall_bqm(formulation, config.weights)
        sampled = wall_model.bqm
    elif config.encoding != "one_hot":
        raise ValueError(f"unknown encoding {config.encoding!r}; use one_hot or domain_wall")
    t2 = time.perf_counter()
    options = dict(config.options)

    # With a budget: one read first to time it, then chunks sized to what the budget has left
    # (one call per chunk, so the sampler's fixed cost per call is shared by the chunk's reads).
    chunk = 1 if time_budget else num_reads
    seeds = np.random.SeedSequence(seed).spawn(num_reads) if seed is not None else None
    parts: list[dimod.SampleSet] = []
    drawn = 0
    sample_s = 0.0
    stopped = False
    if bqm.num_variables == 0:  # presolve settled every cell: one trivial read
        parts.append(dimod.SampleSet.from_samples([{}], dimod.BINARY, energy=[bqm.offset]))
        drawn = num_reads = 1
    _warm_up(config.sampler)
    while drawn < num_reads:
        size = min(chunk, num_reads - drawn)
        chunk_seed = int(seeds[drawn].generate_state(1)[0] >> 1) if seeds is not None else None
        s0 = time.perf_counter()
        parts.append(
            sample(sampled, config.sampler, num_reads=size, num_sweeps=config.num_sweeps, seed=chunk_seed,
                   chunks=1, **options)
        )
        sample_s += time.perf_counter() - s0
        drawn += size
        if time_budget is not None and sample_s >= time_budget and drawn < num_reads:
            stopped = True
            break
        if time_budget is not None:
            per_read = sample_s / drawn
            chunk = max(1, int((time_budget - sample_s) / per_read) if per_read > 0 else num_reads)
    sampleset = parts[0] if len(parts) == 1 else dimod.concatenate(parts)
    if sampled is not bqm and sampled.num_variables:
        sampleset = to_one_hot_sampleset(wall_model, sampleset, bqm)
    evaluation = evaluate_samples(formulation, sampleset)

    reads = evaluation.num_reads
    solved = int(evaluation.num_occurrences[evaluation.solved].sum())
    p = solved / reads
    low, high = wilson_interval(solved, reads)
    t_read = sample_s / reads if bqm.num_variables else 0.0
    presolve_s = t1 - t0
    residual = np.repeat(evaluation.energy, evaluation.num_occurrences)  # ground energy is 0
    histogram = Counter(f"{e:g}" for e in np.round(residual, 6))
    return BenchResult(
        puzzle=puzzle.name,
        source=source,
        rows=puzzle.num_rows,
        cols=puzzle.num_cols,
        config=config.name,
        sampler=config.sampler,
        num_sweeps=config.num_sweeps,
        bounds=config.bounds,
        weights=_weights_text(config.weights),
        presolve=config.presolve,
        options=_options_text(config.options),
        num_variables=sampled.num_variables,
        num_couplers=sampled.num_interactions,
        num_fixed=len(formulation.fixed_labels),
        presolve_s=presolve_s,
        build_s=t2 - t1,
        num_reads=reads,
        num_solved=solved,
        sample_s=sample_s,
        t_read_s=t_read,
        p=p,
        p_low=low,
        p_high=high,
        # a higher p gives a lower TTS: the interval's ends swap
        tts99_s=presolve_s + tts99(t_read, p),
        tts99_low_s=presolve_s + tts99(t_read, high),
        tts99_high_s=presolve_s + tts99(t_read, low),
        best_energy=float(evaluation.energy.min()),
        residual_mean=float(residual.mean()),
        residual_median=float(np.median(residual)),
        residual_histogram=dict(sorted(histogram.items(), key=lambda kv: float(kv[0]))),
        stopped_by_budget=stopped,
    )


_WARM: set[str] = set()


def _warm_up(name: str) -> None:
    """Run a sampler once on a tiny model so compilation is not timed as sampling."""
    if name in _WARM:
        return
    tiny = dimod.BinaryQuadraticModel({"a": 1.0, "b": -1.0}, {("a", "b"): 2.0}, 0.0, dimod.BINARY)
    sampler = get_sampler(name)
    params = {k: v for k, v in {"num_reads": 1, "num_sweeps": 2, "seed": 0}.items() if k in sampler.parameters}
    sampler.sample(tiny, **params)
    _WARM.add(name)


def expand_specs(specs: Iterable[str], format: str | None = None) -> list[tuple[str, Puzzle]]:
    """Puzzles named on a command line, as ``(source, puzzle)`` pairs.

    Uses :func:`qpicross.formats.expand_puzzle_specs` when available
    (directories, multi-puzzle files, ``FILE#a-b`` ranges); otherwise accepts
    ``.px`` files and directories of ``.px`` files (sorted by name).

    Raises:
        ValueError: For a path that does not exist.
    """
    specs = list(specs)
    try:
        from .formats import expand_puzzle_specs
    except ImportError:
        expand_puzzle_specs = None
    if expand_puzzle_specs is not None:
        out = []
        for spec in specs:  # one at a time, so each puzzle knows the spec it came from
            for item in expand_puzzle_specs([spec], format=format):
                if isinstance(item, Puzzle):
                    out.append((str(spec), item))
                else:
                    source, puzzle = item
                    out.append((str(source), puzzle))
        return out
    out = []
    for spec in specs:
        path = Path(spec)
        if path.is_dir():
            files = sorted(p for p in path.iterdir() if p.suffix == ".px")
            out.extend((str(f), load_puzzle(f, format=format)) for f in files)
        elif path.exists():
            out.append((str(path), load_puzzle(path, format=format)))
        else:
            raise ValueError(f"{spec}: no such file or directory")
    return out


def _job(args):
    index, source, puzzle, config, num_reads, time_budget, seed = args
    try:
        return index, bench_puzzle(puzzle, config, num_reads=num_reads, time_budget=time_budget, seed=seed,
                                   source=source)
    except Exception as exc:  # one failing job must not lose the others' results
        return index, f"{type(exc).__name__}: {exc}"


def run_bench(
    puzzles: Sequence[Puzzle | tuple[str, Puzzle]],
    configs: Sequence[BenchConfig],
    *,
    num_reads: int = 100,
    time_budget: float | None = None,
    seed: int | None = 0,
    workers: int = 1,
    baseline: bool = False,
    progress: Callable[[int, int, BenchResult | str], None] | None = None,
) -> list[BenchResult]:
    """Benchmark every configuration on every puzzle (in parallel processes).

    Args:
        puzzles: Puzzles, or ``(source, puzzle)`` pairs.
        configs: Configurations to run on each puzzle.
        num_reads: Reads per puzzle and configuration (at most).
        time_budget: Seconds of sampling per puzzle and configuration.
        seed: Base seed; each job gets its own seed derived from it.
        workers: Processes to run jobs in (1: in this process).
        baseline: Also run :data:`BASELINE` and fill ``baseline_tts99_s`` and
            ``speedup_vs_baseline`` (``baseline TTS / TTS``; ``None`` where the
            baseline never solved the puzzle, so no ratio exists).
        progress: Called as ``progress(done, total, result)`` after each job.

    Returns:
        One result per puzzle and configuration, in input order. A job that
        raised is reported with its message in ``error``.
    """
    pairs = [item if isinstance(item, tuple) else ("", item) for item in puzzles]
    configs = list(configs)
    if baseline and BASELINE not in configs:
        configs = [BASELINE] + configs
    seeds = np.random.SeedSequence(seed).generate_state(len(pairs) * len(configs)) if seed is not None else None
    jobs = []
    for i, (source, puzzle) in enumerate(pairs):
        for j, config in enumerate(configs):
            n = i * len(configs) + j
            jobs.append((n, source, puzzle, config, num_reads, time_budget,
                         int(seeds[n]) if seeds is not None else None))
    results: list[BenchResult | None] = [None] * len(jobs)

    def record(index, outcome):
        if isinstance(outcome, str):
            _, source, puzzle, config, *_ = jobs[index]
            outcome = _failed(puzzle, config, source, outcome)
        results[index] = outcome
        if progress is not None:
            progress(sum(r is not None for r in results), len(jobs), outcome)

    if workers <= 1 or len(jobs) == 1:
        for job in jobs:
            record(*_job(job))
    else:
        with concurrent.futures.ProcessPoolExecutor(max_workers=workers) as pool:
            for future in concurrent.futures.as_completed([pool.submit(_job, job) for job in jobs]):
                record(*future.result())
    out = [r for r in results if r is not None]
    if baseline:
        _fill_ratios(out)
    return out


def _failed(puzzle: Puzzle, config: BenchConfig, source: str, message: str) -> BenchResult:
    nan = math.nan
    return BenchResult(
        puzzle.name, source, puzzle.num_rows, puzzle.num_cols, config.name, config.sampler, config.num_sweeps,
        config.bounds, _weights_text(config.weights), config.presolve, _options_text(config.options), 0, 0, 0, 0.0, 0.0, 0, 0, 0.0, nan,
        0.0, 0.0, 1.0, math.inf, math.inf, math.inf, nan, nan, nan, {}, False, error=message,
    )


def _fill_ratios(results: list[BenchResult]) -> None:
    base = {(r.source, r.puzzle): r.tts99_s for r in results if r.config == BASELINE.name}
    for r in results:
        b = base.get((r.source, r.puzzle))
        if b is None:
            continue
        r.baseline_tts99_s = b
        r.speedup_vs_baseline = b / r.tts99_s if math.isfinite(b) and r.tts99_s > 0 else None


def summarize(results: Sequence[BenchResult], by_source: bool = False) -> dict[str, dict]:
    """Per configuration: puzzles, how many were solved, median and worst TTS99, speedups.

    Unsolved puzzles count as infinite TTS (so a median or worst can be ``inf``).
    With ``by_source`` the keys are ``"config source"`` (one entry per puzzle
    spec of the command line, e.g. one per tournament file).

    >>> rs = [_failed(Puzzle([[1]], [[1]], name="x"), BenchConfig("c"), "", "boom")]
    >>> summarize(rs)["c"]["solved"], summarize(rs)["c"]["worst_tts99_s"]
    (0, inf)
    """
    out: dict[str, dict] = {}
    key = (lambda r: f"{r.config} {r.source}") if by_source else (lambda r: r.config)
    for name in dict.fromkeys(key(r) for r in results):
        rs = [r for r in results if key(r) == name]
        tts = np.array([r.tts99_s for r in rs], float)
        ratios = [r.speedup_vs_baseline for r in rs if r.speedup_vs_baseline is not None]
        out[name] = {
            "puzzles": len(rs),
            "solved": sum(r.solved for r in rs),
            "median_tts99_s": float(np.median(tts)),
            "worst_tts99_s": float(tts.max()),
            "worst_puzzle": rs[int(np.argmax(tts))].puzzle,
            "min_speedup_vs_baseline": min(ratios) if ratios else None,
            "puzzles_with_baseline_solved": len(ratios),
        }
    return out


def write_csv(results: Sequence[BenchResult], path: str | os.PathLike) -> None:
    """One row per result; infinite TTS is written as ``inf``; the histogram as JSON."""
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=CSV_FIELDS)
        writer.writeheader()
        for r in results:
            row = dataclasses.asdict(r)
            row["residual_histogram"] = json.dumps(row["residual_histogram"])
            writer.writerow(row)


def write_json(results: Sequence[BenchResult], path: str | os.PathLike | None = None, meta: dict | None = None) -> str:
    """Results (and ``meta``, e.g. the machine) as JSON; written to ``path`` if given."""
    def finite(summary):
        return {name: {k: ("inf" if isinstance(v, float) and math.isinf(v) else v) for k, v in row.items()}
                for name, row in summary.items()}

    text = json.dumps({"meta": meta or machine_info(), "summary": finite(summarize(results)),
                       "summary_by_source": finite(summarize(results, by_source=True)),
                       "results": [r.to_dict() for r in results]}, indent=1)
    if path is not None:
        Path(path).write_text(text + "\n")
    return text


def read_results(path: str | os.PathLike) -> list[dict]:
    """Rows of a CSV or JSON results file, with numbers (and ``inf``) parsed back."""
    path = Path(path)
    if path.suffix == ".json":
        rows = json.loads(path.read_text())["results"]
    else:
        with open(path, newline="") as handle:
            rows = list(csv.DictReader(handle))
    numeric = {f.name for f in dataclasses.fields(BenchResult) if f.type in ("int", "float", "float | None",
                                                                            "int | None")}
    for row in rows:
        for key in numeric & row.keys():
            value = row[key]
            if value in ("", None):
                row[key] = None
            elif isinstance(value, str):
                row[key] = float(value)
        if isinstance(row.get("residual_histogram"), str):
            row["residual_histogram"] = json.loads(row["residual_histogram"])
    return rows


def _git_commit() -> str | None:
    """The checked-out commit of the source tree, when it is a git work tree."""
    import subprocess

    try:
        out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=Path(__file__).resolve().parent,
                             capture_output=True, text=True, timeout=5)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def machine_info() -> dict:
    """Where the measurement ran: CPU count, source commit, load average, Python, time."""
    try:
        load = os.getloadavg()
    except OSError:  # pragma: no cover
        load = (math.nan,) * 3
    return {
        "cpus": os.cpu_count(),
        "commit": _git_commit(),
        "load_average": [round(v, 2) for v in load],
        "python": sys.version.split()[0],
        "platform": sys.platform,
        "time_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
    }


def plot_results(results: Sequence[BenchResult], path: str | os.PathLike | None = None):
    """TTS99 per puzzle and configuration (log scale; unsolved runs drawn as ✕ at the top).

    Returns the figure; saves it when ``path`` is given.
    """
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    puzzles = list(dict.fromkeys((r.source, r.puzzle) for r in results))
    configs = list(dict.fromkeys(r.config for r in results))
    if len(puzzles) > 40:
        return _plot_solved_within(results, configs, path, plt)
    finite = [r.tts99_s for r in results if math.isfinite(r.tts99_s) and r.tts99_s > 0]
    top = max(finite) * 10 if finite else 1.0
    fig, ax = plt.subplots(figsize=(max(6, 0.35 * len(puzzles) + 3), 4.5))
    width = 0.8 / max(len(configs), 1)
    for c, name in enumerate(configs):
        xs, ys, fails = [], [], []
        for x, key in enumerate(puzzles):
            r = next((r for r in results if (r.source, r.puzzle) == key and r.config == name), None)
            if r is None:
                continue
            pos = x + (c - (len(configs) - 1) / 2) * width
            if math.isfinite(r.tts99_s) and r.tts99_s > 0:
                xs.append(pos)
                ys.append(r.tts99_s)
            else:
                fails.append(pos)
        bars = ax.bar(xs, ys, width=width, label=name)
        if fails:
            ax.scatter(fails, [top] * len(fails), marker="x", color=bars.patches[0].get_facecolor()
                       if bars.patches else "k", zorder=3)
    ax.set_yscale("log")
    ax.set_xticks(range(len(puzzles)))
    ax.set_xticklabels([p for _, p in puzzles], rotation=60, ha="right", fontsize=8)
    ax.set_ylabel("TTS99 (s, log scale); x = never solved")
    ax.legend(fontsize=8)
    ax.set_title("Time to solution (99 %) per puzzle")
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=120)
    return fig


def _plot_solved_within(results, configs, path, plt):
    """Many puzzles: the share of puzzles whose TTS99 is at most t, per configuration."""
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    for name in configs:
        tts = np.sort([r.tts99_s for r in results if r.config == name])
        share = np.arange(1, len(tts) + 1) / len(tts)
        finite = np.isfinite(tts)
        ax.step(tts[finite], share[finite], where="post",
                label=f"{name}: {finite.sum()}/{len(tts)} solved, median {np.median(tts):.3g} s")
    ax.set_xscale("log")
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("TTS99 (s, log scale)")
    ax.set_ylabel("share of puzzles with TTS99 <= t")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="lower right")
    ax.set_title(f"Time to solution (99 %) over {len({(r.source, r.puzzle) for r in results})} puzzles")
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=120)
    return fig
