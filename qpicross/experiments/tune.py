"""Penalty-weight sweeps: success probability and TTS99 over a grid (or random set) of weights.

The formulation's combinatorics are built **once** (:func:`~qpicross.model.formulation.build_formulation`);
each point of the sweep only re-weights the per-term arrays with
:meth:`~qpicross.model.formulation.PicrossFormulation.bqm`, samples, and checks every
read with the independent verifier. Every (puzzle, point, seed) run is
independent, so the sweep runs in local processes (``workers``) or on a Dask
cluster (``scheduler``, an address such as ``tcp://host:8786`` or a
:class:`distributed.Client`). Given several puzzles, each point is also
summarised over all of them (how many it solves, mean success probability,
geometric-mean TTS99), to find weights that suit a whole collection.

Each point reports the pooled success probability over all its reads with a
Wilson 95 % interval and TTS99 (the definitions of :mod:`qpicross.experiments.bench`). All points use the
same seeds (common random numbers), so differences between points come from
the weights rather than from luck of the draw.

Examples:
    >>> from qpicross import Puzzle
    >>> p = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]], name="A")
    >>> points = grid_points(parse_grid("one_hot=1:2:2"))
    >>> [w.one_hot for w in points]
    [1.0, 2.0]
    >>> result = tune(p, points, num_reads=20, seeds=2, workers=1)
    >>> len(result.records), result.records[0]["num_reads"]
    (2, 40)
    >>> 0.0 <= result.best["p_low"] <= result.best["success_probability"] <= result.best["p_high"]
    True
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Sequence

import numpy as np

from qpicross.exceptions import ParameterError
from qpicross.samplers.workers import check_workers, default_workers, run_tasks
from qpicross.experiments.tts import tts99, wilson_interval
from qpicross.experiments.weight_points import MAX_POINTS, WeightRange, grid_points, parse_grid, random_points
from qpicross.model.formulation import TERMS, PenaltyWeights, PicrossFormulation, build_formulation
from qpicross.pipeline.config import SolverConfig
from qpicross.model.size import FORMULATION_BYTES_PER_COUPLER
from qpicross.pipeline.run import check_run_size, run
from qpicross.puzzle import Puzzle

__all__ = [
    "plot_tuning",
    "WeightRange",
    "parse_grid",
    "grid_points",
    "random_points",
    "run_point",
    "summarize",
    "summarize_points",
    "TuneResult",
    "TuneInterrupted",
    "tune",
    "MAX_POINTS",
]

def run_point(formulation: PicrossFormulation, weights: PenaltyWeights, config: SolverConfig) -> dict:
    """One run at one point: :func:`~qpicross.pipeline.run.run` of the built formulation with these weights.

    Returns:
        ``{"successes", "num_reads", "sample_s", "min_energy"}`` (successes: ground states
        whose board passes the independent check).

    Raises:
        KeyboardInterrupt: When Ctrl-C stopped the sampler inside a read (samplers that stop their
            read return what they have): a point measured on part of its reads is not a result.
    """
    result = run(formulation, config.replace(weights=weights))
    if result.interrupted:
        raise KeyboardInterrupt
    return {
        "successes": result.evaluation.num_solved,
        "num_reads": result.evaluation.num_reads,
        "sample_s": float(result.timing["sample_s"]),
        "min_energy": float(result.evaluation.energy.min()),
    }


def summarize(
    points: Sequence[PenaltyWeights], runs: Sequence[dict], seeds: int, names: Sequence[str] = ("",)
) -> list[dict]:
    """Pool the runs of each (puzzle, point) that finished all ``seeds`` runs into one record.

    Args:
        points: The sweep's points.
        runs: Results of :func:`run_point`, each with a ``"point"`` index added
            (and a ``"puzzle"`` index when several puzzles are swept).
        seeds: Runs per point; points with fewer finished runs are left out.
        names: The puzzles' names, by index.

    Returns:
        One record per finished (puzzle, point), puzzle by puzzle in point
        order: ``puzzle`` (its name), ``point``, the four weights,
        ``num_reads``, ``successes``, ``success_probability`` with its Wilson
        95 % interval ``p_low``/``p_high``, ``time_per_read_s``, ``tts99_s``
        and its interval ``tts99_low_s``/``tts99_high_s`` (``inf`` when no read
        succeeded), and ``min_energy``.
    """
    by_point: dict[tuple[int, int], list[dict]] = {}
    for one_run in runs:
        by_point.setdefault((one_run.get("puzzle", 0), one_run["point"]), []).append(one_run)
    records = []
    for puzzle, index in sorted(by_point):
        point_runs = by_point[(puzzle, index)]
        if len(point_runs) < seeds:
            continue
        reads = sum(r["num_reads"] for r in point_runs)
        successes = sum(r["successes"] for r in point_runs)
        t_read = sum(r["sample_s"] for r in point_runs) / reads
        p = successes / reads
        low, high = wilson_interval(successes, reads)
        records.append({
            "puzzle": names[puzzle],
            "point": index,
            **points[index].as_dict(),
            "seeds": len(point_runs),
            "num_reads": reads,
            "successes": successes,
            "success_probability": p,
            "p_low": low,
            "p_high": high,
            "time_per_read_s": t_read,
            "tts99_s": tts99(t_read, p),
            "tts99_low_s": tts99(t_read, high),
            "tts99_high_s": tts99(t_read, low),
            "min_energy": min(r["min_energy"] for r in point_runs),
        })
    return records


def summarize_points(records: Sequence[dict], names: Sequence[str]) -> list[dict]:
    """Each point over every puzzle (points not finished on all of them are left out).

    Returns:
        Per point: ``point``, the four weights, ``puzzles``, ``puzzles_solved``
        (puzzles with at least one solved read), ``success_probability`` (the
        mean over puzzles), ``min_success_probability``, ``tts99_s`` (geometric
        mean over puzzles; ``inf`` if any puzzle was never solved) and
        ``max_tts99_s``.

    Examples:
        >>> recs = [{"puzzle": n, "point": 0, **PenaltyWeights().as_dict(), "num_reads": 10,
        ...          "success_probability": p, "tts99_s": t}
        ...         for n, p, t in (("a", 0.5, 0.1), ("b", 1.0, 0.4))]
        >>> s = summarize_points(recs, ["a", "b"])[0]
        >>> s["puzzles_solved"], s["success_probability"], round(s["tts99_s"], 3)
        (2, 0.75, 0.2)
    """
    by_point: dict[int, list[dict]] = {}
    for record in records:
        by_point.setdefault(record["point"], []).append(record)
    summary = []
    for index in sorted(by_point):
        mine = by_point[index]
        if len(mine) < len(names):
            continue
        p = np.array([r["success_probability"] for r in mine])
        tts = np.array([r["tts99_s"] for r in mine])
        summary.append({
            "point": index,
            **{name: mine[0][name] for name in TERMS},
            "puzzles": len(mine),
            "puzzles_solved": int((p > 0).sum()),
            "num_reads": mine[0]["num_reads"],
            "success_probability": float(p.mean()),
            "min_success_probability": float(p.min()),
            "tts99_s": float(np.exp(np.log(tts).mean())) if np.isfinite(tts).all() else math.inf,
            "max_tts99_s": float(tts.max()),
        })
    return summary


def _best(records: Sequence[dict]) -> dict | None:
    """Most puzzles solved, then highest success probability, lower TTS99, earlier point."""
    if not records:
        return None
    return min(records, key=lambda r: (-r.get("puzzles_solved", 0), -r["success_probability"], r["tts99_s"],
                                       r["point"]))


@dataclasses.dataclass
class TuneResult:
    """A sweep's results.

    Attributes:
        puzzle: The puzzle's name (the names joined by ", " for several puzzles).
        points: Every point of the sweep (finished or not).
        records: One pooled record per finished (puzzle, point) (see :func:`summarize`).
        runs: Every finished (puzzle, point, seed) run.
        seeds: Runs per point.
        interrupted: True when the sweep was stopped before every point finished.
        elapsed_s: Wall time of the sweep.
        num_variables: Variables of the swept models in all (after presolve, if any).
        puzzles: The puzzles' names.
    """

    puzzle: str
    points: list[PenaltyWeights]
    records: list[dict]
    runs: list[dict]
    seeds: int
    interrupted: bool = False
    elapsed_s: float = 0.0
    num_variables: int = 0
    puzzles: list[str] = dataclasses.field(default_factory=list)

    @property
    def summary(self) -> list[dict]:
        """One row per point: the records themselves for one puzzle, else :func:`summarize_points`."""
        if len(self.puzzles) <= 1:
            return self.records
        return summarize_points(self.records, self.puzzles)

    @property
    def best(self) -> dict | None:
        """The best row of :attr:`summary` (None when no point finished).

        For one puzzle: the highest success probability, ties to the lower TTS99.
        For several: the most puzzles solved, then the highest mean success probability.
        """
        return _best(self.summary)

    @property
    def varied(self) -> list[str]:
        """The weights that take more than one value in the sweep, in term order."""
        return [name for name in TERMS if len({getattr(p, name) for p in self.points}) > 1]

    def to_frame(self):
        """The records as a :class:`pandas.DataFrame` (needs the ``tune`` extra)."""
        import pandas as pd

        return pd.DataFrame.from_records(self.records, columns=_COLUMNS)

    def to_dict(self) -> dict:
        """JSON-ready (infinite TTS99 becomes ``None``)."""
        def clean(record: dict) -> dict:
            return {k: (None if isinstance(v, float) and math.isinf(v) else v) for k, v in record.items()}

        multi = len(self.puzzles) > 1
        return {
            "puzzle": self.puzzle,
            **({"puzzles": list(self.puzzles), "summary": [clean(r) for r in self.summary]} if multi else {}),
            "num_variables": self.num_variables,
            "num_points": len(self.points),
            "finished_points": len(self.summary),
            "seeds": self.seeds,
            "interrupted": self.interrupted,
            "elapsed_s": self.elapsed_s,
            "best": clean(self.best) if self.best else None,
            "points": [clean(r) for r in self.records],
        }


_COLUMNS = ["puzzle", "point", *TERMS, "seeds", "num_reads", "successes", "success_probability", "p_low",
            "p_high", "time_per_read_s", "tts99_s", "tts99_low_s", "tts99_high_s", "min_energy"]


class TuneInterrupted(KeyboardInterrupt):
    """Ctrl-C during :func:`tune`; ``.result`` holds every point that had finished."""

    def __init__(self, result: TuneResult):
        super().__init__(f"interrupted after {len(result.records)} of {len(result.points)} points")
        self.result = result


# -- running the (point, seed) tasks ------------------------------------------------


def _seed_values(seed: int | None, seeds: int) -> list[int]:
    return [int(s.generate_state(1)[0] >> 1) for s in np.random.SeedSequence(seed).spawn(seeds)]


def _tune_task(formulations: Sequence[PicrossFormulation], task) -> dict:
    puzzle_index, weights, config = task
    return run_point(formulations[puzzle_index], weights, config)


def tune(
    puzzle: Puzzle | PicrossFormulation | Sequence[Puzzle | PicrossFormulation],
    points: Sequence[PenaltyWeights],
    *,
    config: SolverConfig | None = None,
    seeds: int = 1,
    seed: int | None = 0,
    num_reads: int | None = None,
    num_sweeps: int | None = None,
    sampler: str | None = None,
    beta_range: tuple[float, float] | None = None,
    bounds: str | None = None,
    known: np.ndarray | None = None,
    presolve: bool | None = None,
    workers: int | None = None,
    scheduler=None,
    progress: Callable[[int, int], None] | None = None,
) -> TuneResult:
    """Measure success probability and TTS99 at every point of a penalty-weight sweep.

    Every run is :func:`qpicross.pipeline.run.run` with ``config`` and the
    point's weights: the same run ``qpicross anneal`` makes.

    Args:
        puzzle: The puzzle (built once here), or an already built formulation;
            or a sequence of them, to sweep the same points on each.
        points: Weights to try, e.g. from :func:`grid_points` or :func:`random_points`.
        config: Everything but the weights and the seed (default :class:`SolverConfig()`).
        seeds: Independent runs per point; their reads are pooled.
        seed: Master seed the per-run seeds derive from (the same for every point).
        num_reads, num_sweeps, sampler, bounds, presolve: Override those fields of ``config``.
        beta_range: Sets the ``beta_range`` sampler option.
        known: Settled cells when ``puzzle`` is one :class:`Puzzle` (pruned before building).
        workers: Local processes; ``1`` runs in this process; default: every CPU.
            Ignored when ``scheduler`` is given.
        scheduler: A Dask scheduler address or a :class:`distributed.Client`
            (needs the ``tune`` extra); each formulation is sent to every worker once.
        progress: Called as ``progress(runs_done, runs_total)``.

    Returns:
        The :class:`TuneResult`.

    Raises:
        TuneInterrupted: On Ctrl-C; its ``result`` holds the finished points.
    """
    config = config or SolverConfig()
    changes = {k: v for k, v in {"num_reads": num_reads, "num_sweeps": num_sweeps, "sampler": sampler,
                                 "bounds": bounds, "presolve": presolve}.items() if v is not None}
    if beta_range is not None:
        changes["options"] = {**config.sampler_options, "beta_range": tuple(beta_range)}
    config = config.replace(**changes).validate()
    if not points:
        raise ParameterError("no points to try")
    bad = next((p for p in points if not isinstance(p, PenaltyWeights)), None)
    if bad is not None:
        raise ParameterError(f"points must be PenaltyWeights (grid_points, random_points), got {type(bad).__name__}")
    if isinstance(seeds, bool) or not isinstance(seeds, int) or seeds < 1:
        raise ParameterError(f"need seeds >= 1, got {seeds!r}")
    check_workers(workers, none=True)
    many = puzzle if isinstance(puzzle, (list, tuple)) else [puzzle]
    if not many:
        raise ParameterError("no puzzles to sweep")
    if known is not None and len(many) > 1:
        raise ParameterError("known cells describe one puzzle; pass presolve=True for several")
    workers = workers or default_workers()
    share = 1 if scheduler is not None else workers
    # the size guard of every puzzle before any is built, each worker with its share; then again with the
    # formulations every process holds (the parent builds them all, each worker gets them all)
    estimates = [check_run_size(item, config, known=known, share=share) for item in many if isinstance(item, Puzzle)]
    if len(many) > 1 or share > 1:
        resident = sum(e["num_couplers"] for e in estimates) * FORMULATION_BYTES_PER_COUPLER
        for item in many:
            if isinstance(item, Puzzle):
                check_run_size(item, config, known=known, share=share, resident=resident)
    formulations = [_formulation(item, config.bounds, known) for item in many]
    names = [f.puzzle.name for f in formulations]
    num_variables = sum(_variables_swept(f, config.presolve) for f in formulations)
    # Point by point (all puzzles and seeds of a point together), so an interrupted sweep keeps whole points.
    index_of = [(f, i, s) for i, _ in enumerate(points) for f in range(len(formulations))
                for s in _seed_values(seed, seeds)]
    tasks = [(f, points[i], config.replace(seed=s)) for f, i, s in index_of]
    runs: list[dict] = []
    start = time.perf_counter()

    def finish(interrupted: bool) -> TuneResult:
        return TuneResult(", ".join(names), list(points), summarize(points, runs, seeds, names), runs, seeds,
                          interrupted, time.perf_counter() - start, num_variables, names)

    def record(index: int, ok: bool, value) -> None:
        if not ok:
            raise ParameterError(value)
        f, point, run_seed = index_of[index]
        runs.append({"puzzle": f, "point": point, "seed": run_seed, **value})
        if progress is not None:
            progress(len(runs), len(tasks))

    try:
        run_tasks(_tune_task, tasks, on_result=record, shared=formulations,
                  workers=workers, scheduler=scheduler)
    except KeyboardInterrupt:
        raise TuneInterrupted(finish(True)) from None
    return finish(False)


def _variables_swept(formulation: PicrossFormulation, presolve: bool) -> int:
    """The variables a run anneals: all of them, or what line logic leaves (refused when it leaves none)."""
    if not presolve:
        return formulation.num_variables
    from qpicross.classical.presolve import presolve as run_presolve

    left = formulation.num_variables - len(run_presolve(formulation).fixed)
    if left == 0:
        raise ParameterError(f"{formulation.puzzle.name}: line logic settles every cell: there are no weights to tune")
    return left


def _formulation(item, bounds, known) -> PicrossFormulation:
    formulation = item if isinstance(item, PicrossFormulation) else build_formulation(item, bounds=bounds,
                                                                                        known=known)
    if formulation.num_variables == 0:
        raise ParameterError(f"{formulation.puzzle.name}: the model has no free variables: there are no weights "
                             "to tune")
    return formulation


def plot_tuning(result: TuneResult, x: str | None = None, y: str | None = None, *, title: str | None = None):
    """Success probability over two weights (a heat map for a grid, a scatter otherwise).

    With one varied weight, success probability against it with its Wilson interval.
    For a sweep over several puzzles, the mean success probability over them.

    Args:
        result: A finished (or interrupted) sweep.
        x, y: The weights on the axes; default: the first two varied ones.
        title: Defaults to the puzzle's name and the reads per point.

    Returns:
        The :class:`matplotlib.figure.Figure`.
    """
    from matplotlib.figure import Figure

    varied = result.varied
    x = x or (varied[0] if varied else "one_hot")
    y = y if y is not None else next((v for v in varied if v != x), None)
    records = result.summary
    reads = records[0]["num_reads"] if records else 0
    many = len(result.puzzles) > 1
    label = "mean success probability" if many else "success probability"
    if title is None:
        where = f"{len(result.puzzles)} puzzles" if many else result.puzzle
        title = f"{where}: {label} ({reads} reads per {'puzzle and ' if many else ''}point)"
    fig = Figure(figsize=(5.6, 4.4) if y else (5.6, 3.6), layout="constrained")
    ax = fig.add_subplot()
    ax.set_title(title, fontsize=10)
    if not records:
        ax.text(0.5, 0.5, "no finished point", ha="center", va="center", transform=ax.transAxes)
        return fig
    p = np.array([r["success_probability"] for r in records])
    xs = np.array([r[x] for r in records])
    if y is None and many:
        order = np.argsort(xs)
        ax.plot(xs[order], p[order], marker="o")
        ax.set_xlabel(f"{x} weight")
        ax.set_ylabel(label)
        ax.set_ylim(-0.02, 1.02)
        return fig
    if y is None:
        order = np.argsort(xs)
        low = p - np.array([r["p_low"] for r in records])
        high = np.array([r["p_high"] for r in records]) - p
        ax.errorbar(xs[order], p[order], yerr=[low[order], high[order]], marker="o", capsize=3)
        ax.set_xlabel(f"{x} weight")
        ax.set_ylabel("success probability (95 % Wilson)")
        ax.set_ylim(-0.02, 1.02)
        return fig
    ys = np.array([r[y] for r in records])
    ux, uy = np.unique(xs), np.unique(ys)
    solved = bool(p.max() > 0)
    if not solved:  # no best point to mark: say so on the figure
        ax.text(0.5, 0.5, "no point solved the puzzle", ha="center", va="center", transform=ax.transAxes,
                fontsize=9, color="#d62728", zorder=5, bbox={"facecolor": "white", "alpha": 0.85, "edgecolor": "none"})
    if len(ux) * len(uy) <= 2 * len(records):
        # A grid: average over any other varied weight, one cell per (x, y).
        grid = np.full((len(uy), len(ux)), np.nan)
        for i, vy in enumerate(uy):
            for j, vx in enumerate(ux):
                here = (xs == vx) & (ys == vy)
                if here.any():
                    grid[i, j] = p[here].mean()
        top = float(np.nanmax(grid)) if solved else 1.0  # nothing solved: the full scale, not one of 1e-9
        image = ax.imshow(grid, origin="lower", cmap="viridis", vmin=0, vmax=top, aspect="auto")
        ax.set_xticks(range(len(ux)), [f"{v:.3g}" for v in ux], fontsize=8)
        ax.set_yticks(range(len(uy)), [f"{v:.3g}" for v in uy], fontsize=8)
        best = result.best
        if best is not None and solved:
            ax.plot(np.flatnonzero(ux == best[x])[0], np.flatnonzero(uy == best[y])[0], marker="*",
                    color="#d62728", markersize=14, markeredgecolor="white", linestyle="none", label="best")
            ax.legend(loc="upper right", fontsize=8, framealpha=0.8)
    else:
        image = ax.scatter(xs, ys, c=p, cmap="viridis", vmin=0, vmax=float(p.max()) if solved else 1.0, s=40,
                           edgecolors="#444444", linewidths=0.4)
        best = result.best
        if solved:
            ax.plot(best[x], best[y], marker="o", markersize=13, markerfacecolor="none",
                    markeredgecolor="#d62728", markeredgewidth=2, linestyle="none", label="best")
            ax.legend(loc="best", fontsize=8, framealpha=0.8)
        from matplotlib.ticker import FuncFormatter, LogLocator, NullFormatter

        for values, axis, set_scale in ((xs, ax.xaxis, ax.set_xscale), (ys, ax.yaxis, ax.set_yscale)):
            if values.min() > 0 and values.max() / values.min() >= 8:  # a wide (e.g. --log) range
                set_scale("log")
                axis.set_major_locator(LogLocator(base=10, subs=(1.0, 2.0, 5.0)))
                axis.set_major_formatter(FuncFormatter(lambda v, _: f"{v:g}"))
                axis.set_minor_formatter(NullFormatter())
    fig.colorbar(image, ax=ax, label=label)
    ax.set_xlabel(f"{x} weight")
    ax.set_ylabel(f"{y} weight")
    return fig
