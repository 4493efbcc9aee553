r"""Benchmarks: success probability and time-to-solution of annealing runs.

For each puzzle and each :class:`~qpicross.pipeline.config.SolverConfig` the
harness runs :func:`qpicross.pipeline.run.run` -- exactly what ``qpicross
anneal`` does with that configuration -- and reports:

* the size of the model (variables, couplers) and its build time;
* the time per read :math:`t_{read}` (sampling wall time / reads);
* the success probability :math:`p` with a Wilson 95 % score interval, where a
  read succeeds only when it is a ground state of the model (energy 0) **and**
  its board passes the independent :func:`~qpicross.puzzle.check`; reads with a
  valid row board that are not ground states are counted apart;
* the time to solution with 99 % confidence (:mod:`qpicross.experiments.tts`):

  - samplers whose reads all run the same length (``tts_method="fixed"``):
    :math:`TTS_{99} = t_{read}\,\max(1, \ln(1 - 0.99)/\ln(1 - p))`;
  - samplers that stop a read when it reaches the ground state and report
    each read's time to target (``tts_method="time-to-target"``): the optimum
    over the cutoff :math:`\tau` of :math:`\tau \ln(0.01)/\ln(1-p(\tau))`
    (Rønnow et al. 2014; optimal annealing time as in Albash & Lidar 2018), with
    the optimal cutoff, :math:`p(\tau^*)`, and the median and 99th percentile
    of the time to target. A read that stopped before it reached the target (the time
    budget ran out) is right-censored at its run time, not a miss at every cutoff:
    :math:`p(\tau)` is the Kaplan--Meier estimate and the interval a bootstrap over reads
    (:func:`~qpicross.experiments.survival.survival_tts`); ``few_events`` flags a cutoff resting on
    fewer than :data:`~qpicross.experiments.survival.MIN_EVENTS` reads, ``tts99_naive_s`` keeps the
    figure that counted censored reads as misses;

  infinite when no read succeeds, plus the presolve time when the configuration presolves;
* the best energy and the distribution of residual energies (the energy of a
  read above the ground-state energy, which is 0 for this formulation).

:data:`BASELINE` reproduces the published formulation exactly (every start of
the published notebook, all weights 1, dwave-samplers SA with its defaults);
:func:`run_bench` runs it alongside the other configurations so every TTS is
also reported as a ratio against the baseline measured in the same run.

Examples:
    >>> from qpicross import Puzzle
    >>> p = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]], name="A")
    >>> r = bench_puzzle(p, SolverConfig(sampler="sa", num_sweeps=200, num_reads=20, seed=1))
    >>> r.num_reads, 0 < r.p <= 1, r.tts99_s >= r.t_read_s, r.tts_method
    (20, True, True, 'fixed')
"""

from __future__ import annotations

import csv
import dataclasses
import json
import math
import os
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

import dimod
import numpy as np

from qpicross.exceptions import ParameterError
from qpicross.experiments.batch import bench_batch
from qpicross.experiments.result import (CSV_FIELDS, BenchResult, _options_text, _weights_text, csv_cell, machine_info,
                                         read_cell, result_from_run)
from qpicross.samplers.workers import check_workers, run_tasks
from qpicross.samplers.registry import is_batched
from qpicross.pipeline.config import SolverConfig
from qpicross.pipeline.run import run
from qpicross.puzzle import Puzzle
from qpicross.puzzle.formats import expand_puzzle_specs
from qpicross.samplers import get_sampler, takes_threads

__all__ = [
    "BenchResult",
    "BASELINE",
    "bench_puzzle",
    "result_from_run",
    "run_bench",
    "expand_specs",
    "write_csv",
    "write_json",
    "read_results",
    "plot_results",
    "summarize",
    "machine_info",
    "warm_up",
    "CSV_FIELDS",
]

#: The published formulation, exactly: all starts, weights 1, SA defaults.
BASELINE = SolverConfig(sampler="sa", bounds="published", name="baseline")


def bench_puzzle(
    puzzle: Puzzle,
    config: SolverConfig,
    *,
    num_reads: int | None = None,
    time_limit: float | None = None,
    seed: int | None = None,
    source: str = "",
) -> BenchResult:
    """Measure one configuration on one puzzle: :func:`~qpicross.pipeline.run.run`, then the statistics.

    Args:
        puzzle: The puzzle.
        config: What to run (its reads, sweeps, seed and time budget included).
        num_reads: Override ``config.num_reads``.
        time_limit: Override ``config.time_limit``.
        seed: Override ``config.seed``.
        source: Where the puzzle came from (file), for the tables.

    Raises:
        KeyboardInterrupt: When Ctrl-C stopped the sampler inside a read (samplers that stop their
            read return what they have): a measurement cut short is not a result.
    """
    _check_configs([config])
    changes = {k: v for k, v in {"num_reads": num_reads, "time_limit": time_limit, "seed": seed}.items()
               if v is not None}
    config = config.replace(**changes)
    warm_up(config)
    result = run(puzzle, config)
    if result.interrupted:
        raise KeyboardInterrupt
    return result_from_run(result, source)


_WARM: set[str] = set()


def warm_up(config: SolverConfig) -> None:
    """Run the sampler (and line logic) once on a tiny model, so compilation is not timed as sampling; a structured
    annealer (one that takes a ``layout``) also solves a 5×5 puzzle with ``config``, which compiles (or loads from
    numba's cache) the board and profile chains a Picross model runs, where the tiny model runs only the joint one."""
    if config.presolve and "presolve" not in _WARM:
        from qpicross.classical.logic import propagate

        propagate(Puzzle([[1], [1]], [[1], [1]]))
        _WARM.add("presolve")
    name = config.sampler
    if not isinstance(name, str) or name in _WARM:
        return
    tiny = dimod.BinaryQuadraticModel({"a": 1.0, "b": -1.0}, {("a", "b"): 2.0}, 0.0, dimod.BINARY)
    sampler = get_sampler(name)
    params = {k: v for k, v in {"num_reads": 1, "num_sweeps": 2, "seed": 0, "groups": []}.items()
              if k in sampler.parameters}  # groups=[]: the tiny model has none, and structured samplers need not say so
    try:
        warm = sampler.sample(tiny, **params)
    except Exception:  # a sampler that cannot run here reports it in the real run, with its message
        return
    if warm.info.get("interrupted"):  # Ctrl-C while it compiled: the sampler kept it, the bench must stop
        raise KeyboardInterrupt
    if "layout" in sampler.parameters:
        from qpicross.pipeline.run import run

        letter = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]], name="warm-up")
        if run(letter, config.replace(num_reads=1)).interrupted:
            raise KeyboardInterrupt
    _WARM.add(name)


def expand_specs(specs: Iterable[str], format: str | None = None) -> list[tuple[str, Puzzle]]:
    """Puzzles named on a command line, as ``(source, puzzle)`` pairs.

    Directories, multi-puzzle files and ``FILE#a-b`` ranges are expanded by
    :func:`qpicross.puzzle.formats.expand_puzzle_specs`; ``source`` is the spec
    each puzzle came from.
    """
    out = []
    for spec in specs:  # one at a time, so each puzzle knows the spec it came from
        for item in expand_puzzle_specs([spec], format=format):
            if isinstance(item, Puzzle):
                out.append((str(spec), item))
            else:
                source, puzzle = item
                out.append((str(source), puzzle))
    return out


def _bench_task(shared, task) -> BenchResult:
    source, puzzle, config = task
    return bench_puzzle(puzzle, config, source=source)


def run_bench(
    puzzles: Sequence[Puzzle | tuple[str, Puzzle]],
    configs: Sequence[SolverConfig],
    *,
    num_reads: int | None = None,
    time_limit: float | None = None,
    seed: int | None = 0,
    workers: int = 1,
    scheduler=None,
    baseline: bool = False,
    progress: Callable[[int, int, BenchResult], None] | None = None,
    check_sizes: bool = True,
) -> list[BenchResult]:
    """Benchmark every configuration on every puzzle, locally or on a Dask cluster.

    Args:
        puzzles: Puzzles, or ``(source, puzzle)`` pairs.
        configs: Configurations to run on each puzzle.
        num_reads: Reads per puzzle and configuration (overrides the configurations').
        time_limit: Seconds of sampling per puzzle and configuration (overrides theirs).
        seed: Base seed; each job gets its own seed derived from it (``None``: unseeded).
        workers: Local processes (1: in this process).
        scheduler: A Dask scheduler address or client (:func:`~qpicross.samplers.workers.run_tasks`).
        baseline: Also run :data:`BASELINE` and fill ``baseline_tts99_s`` and
            ``speedup_vs_baseline`` (``baseline TTS / TTS``; ``None`` where the
            baseline never solved the puzzle, so no ratio exists).
        progress: Called as ``progress(done, total, result)`` after each job.
        check_sizes: Run every job's size guard (:func:`~qpicross.pipeline.run.check_run_size`,
            the memory shared by ``workers``) before the first job starts.

    A configuration whose sampler is batched (``shift-batched``) samples all the
    puzzles in one call, in this process (:mod:`qpicross.experiments.batch`).

    Returns:
        One result per puzzle and configuration, in input order. A job that
        raised is reported with its message in ``error``.

    Raises:
        ModelTooLargeError: (a ``ValueError``) If a job's model is above the size guard.
        KeyboardInterrupt: On Ctrl-C; what had finished was passed to ``progress``.
    """
    pairs = [item if isinstance(item, tuple) else ("", item) for item in puzzles]
    configs = list(configs)
    _check_configs(configs)
    check_workers(workers)
    if baseline and all(c.label != BASELINE.label for c in configs):
        configs = [BASELINE] + configs
    overrides = {k: v for k, v in {"num_reads": num_reads, "time_limit": time_limit}.items() if v is not None}
    # 31-bit seeds: dwave-samplers SA refuses seeds >= 2**31 (though its message says 2**32)
    seeds = np.random.SeedSequence(seed).generate_state(len(pairs) * len(configs)) >> 1 if seed is not None else None
    configs = [_share_cores(config, 1 if scheduler is not None else workers) for config in configs]
    tasks = []
    for i, (source, puzzle) in enumerate(pairs):
        for j, config in enumerate(configs):
            n = i * len(configs) + j
            job_seed = int(seeds[n]) if seeds is not None else config.seed
            tasks.append((source, puzzle, config.replace(seed=job_seed, **overrides)))
    if check_sizes:  # every job's size guard before the first job runs, each worker with its share
        from qpicross.pipeline.run import check_run_size

        for source, puzzle, config in tasks:
            try:
                check_run_size(puzzle, config, share=1 if scheduler is not None else workers)
            except ValueError as exc:
                if source:  # name the file: the puzzle's own name may not
                    exc.args = (f"{source}: {exc}",)
                raise
    results: list[BenchResult | None] = [None] * len(tasks)

    def record(index: int, ok: bool, outcome) -> None:
        if not ok:
            source, puzzle, config = tasks[index]
            outcome = _failed(puzzle, config, source, outcome)
        results[index] = outcome
        if progress is not None:
            progress(sum(r is not None for r in results), len(tasks), outcome)

    # Batched samplers (shift-batched) get all the puzzles of their configuration in one call.
    batched = {j for j, config in enumerate(configs) if is_batched(config.sampler)}
    for j in sorted(batched):
        _run_batch([n for n in range(len(tasks)) if n % len(configs) == j], tasks, record)
    rest = [n for n in range(len(tasks)) if n % len(configs) not in batched]
    run_tasks(_bench_task, [tasks[n] for n in rest], on_result=lambda i, ok, value: record(rest[i], ok, value),
              workers=workers, scheduler=scheduler)
    out = [r for r in results if r is not None]
    if baseline:
        _fill_ratios(out)
    return out


def _check_configs(configs: Sequence) -> None:
    """Refuse anything but :class:`SolverConfig` (a sampler's name given where a configuration goes)."""
    for config in configs:
        if not isinstance(config, SolverConfig):
            raise ParameterError(f"config must be a SolverConfig, got {type(config).__name__}"
                                 + (f"; for a sampler's name use SolverConfig(sampler={config!r})"
                                    if isinstance(config, str) else ""))


def _share_cores(config: SolverConfig, workers: int) -> SolverConfig:
    """A threaded sampler's ``threads`` (:func:`~qpicross.samplers.registry.takes_threads`), unless the
    configuration names it: the CPUs shared by the workers.

    >>> _share_cores(SolverConfig(options={"threads": 3}), 2).sampler_options["threads"]
    3
    >>> _share_cores(SolverConfig(sampler="sa"), 2).sampler_options
    {}
    """
    if "threads" in config.sampler_options or not takes_threads(config.sampler):
        return config
    from qpicross.samplers.blockshift.sampler import default_threads

    return config.replace(options={**config.sampler_options, "threads": max(1, default_threads() // workers)})


def _run_batch(indices: list[int], tasks: list, record: Callable[[int, bool, object], None]) -> None:

    try:
        outcomes = [(True, r) for r in bench_batch([tasks[n] for n in indices])]
    except Exception as exc:  # e.g. no CUDA GPU: every puzzle of the batch reports it
        outcomes = [(False, f"{type(exc).__name__}: {exc}")] * len(indices)
    for n, (ok, outcome) in zip(indices, outcomes):
        record(n, ok, outcome)


def _failed(puzzle: Puzzle, config: SolverConfig, source: str, message: str) -> BenchResult:
    nan = math.nan
    return BenchResult(
        puzzle.name, source, puzzle.num_rows, puzzle.num_cols, config.label, config.sampler_name, config.num_sweeps,
        config.bounds, _weights_text(config), config.presolve, _options_text(config), 0, 0, 0, 0.0, 0.0, 0, 0,
        0.0, nan, 0.0, 0.0, 1.0, math.inf, math.inf, math.inf, nan, nan, nan, {}, False, error=message,
        encoding=config.encoding, seed=config.seed,
    )


def _fill_ratios(results: list[BenchResult]) -> None:
    base = {(r.source, r.puzzle): r.tts99_s for r in results if r.config == BASELINE.label}
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

    >>> rs = [_failed(Puzzle([[1]], [[1]], name="x"), SolverConfig(name="c"), "", "boom")]
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
    """One row per result; infinite TTS is written as ``inf``; the histogram as JSON.

    Text cells (a puzzle's name, a label, an error) go through
    :func:`~qpicross.experiments.result.csv_cell`: a spreadsheet never runs one as a formula.
    """
    with open(path, "w", newline="") as handle:
        writer = csv.DictWriter(handle, fieldnames=CSV_FIELDS)
        writer.writeheader()
        for r in results:
            row = dataclasses.asdict(r)
            row["residual_histogram"] = json.dumps(row["residual_histogram"])
            for key in ("time_to_target_s", "read_s"):
                if row[key] is not None:
                    row[key] = json.dumps([t if math.isfinite(t) else "inf" for t in row[key]])
            writer.writerow({key: csv_cell(value) for key, value in row.items()})  # names and labels as text


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
            rows = [{key: read_cell(value) for key, value in row.items()} for row in csv.DictReader(handle)]
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
        median = np.median(tts)
        median_text = f"{median:.3g} s" if np.isfinite(median) else "∞ (most never solved)"
        ax.step(tts[finite], share[finite], where="post",
                label=f"{name}: {finite.sum()}/{len(tts)} solved, median TTS99 {median_text}")
    ax.set_xscale("log")
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("TTS99 (s, log scale)")
    ax.set_ylabel("share of puzzles with TTS99 <= t")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="upper center", bbox_to_anchor=(0.5, -0.14))  # below the axes: covers no curve
    ax.set_title(f"Time to solution (99 %) over {len({(r.source, r.puzzle) for r in results})} puzzles")
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=120)
    return fig
