"""The README's figures, made from measurements taken when they are made.

``make figures`` (or ``python -m qpicross.experiments.figures figures/``) writes:

* ``solved_5x5.png`` -- the letter "A" solved by annealing;
* ``broken_read.png`` -- an unsolved read of the 10x10 star: broken lines in red,
  cells where row and column variables disagree crossed out;
* ``tuning_heatmap.png`` -- success probability over ``one_hot`` x ``match`` weights
  (:func:`qpicross.experiments.tune.tune`) on the 7x7 smile;
* ``scaling.png`` -- success probability and TTS99 against puzzle size
  (:func:`plot_scaling`): from the ``make bench`` results in ``results/`` where
  they exist, else measured now on the puzzles shipped in ``instances/`` for
  the baseline, plain SA on the package's formulation, and the package's best
  sampler without and with presolve.

Nothing here runs at import; matplotlib is imported by the functions that draw.

Examples:
    >>> rows = [
    ...     {"puzzle": "a", "config": "baseline", "rows": 5, "cols": 5, "num_variables": 60,
    ...      "p": 0.5, "p_low": 0.4, "p_high": 0.6, "tts99_s": 0.02},
    ...     {"puzzle": "b", "config": "baseline", "rows": 10, "cols": 10, "num_variables": 200,
    ...      "p": 0.0, "p_low": 0.0, "p_high": 0.04, "tts99_s": float("inf")},
    ... ]
    >>> fig = plot_scaling(rows)
    >>> [ax.get_xlabel() for ax in fig.axes]
    ['cells (rows x columns)', 'cells (rows x columns)']
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

__all__ = ["INSTANCES", "BENCH_RESULTS", "BEST_SHIFT", "committed_results", "scaling_configs", "scaling_rows",
           "plot_scaling", "make_figures", "main"]

#: The puzzles shipped with the repository.
INSTANCES = Path(__file__).resolve().parents[2] / "instances"


def _solved_5x5(out: Path) -> Path:
    from qpicross.pipeline.run import anneal
    from qpicross.puzzle.formats import load_puzzle
    from qpicross.plot import plot_puzzle, save_figure

    puzzle = load_puzzle(INSTANCES / "5x5.px")
    result = anneal(puzzle, num_reads=100, seed=1)
    title = (f'The letter "A" (5x5): solved, p = {result.success_probability:.2f} '
             f"over {result.num_reads} reads")
    path = out / "solved_5x5.png"
    save_figure(plot_puzzle(puzzle, result.board, title=title, cell_size=0.45), path)
    return path


def _broken_read(out: Path) -> Path:
    from qpicross.pipeline.run import anneal
    from qpicross.puzzle.formats import load_puzzle
    from qpicross.plot import plot_puzzle, save_figure

    puzzle = load_puzzle(INSTANCES / "star10.px")
    result = anneal(puzzle, sampler="sa", num_reads=100, seed=1)  # plain SA: broken lines to show
    read = result.best  # a solved read if any; plain SA rarely solves the star
    disagree = [tuple(int(v) for v in cell) for cell in np.argwhere(read.board != read.col_board)]
    status = "solved" if read.solved else f"{len(read.broken_lines)} broken lines"
    title = (f"{puzzle.name} (10x10), plain SA, best of {result.num_reads} reads: energy {result.energy:g},\n"
             f"{status}; x = rows and columns disagree")
    path = out / "broken_read.png"
    save_figure(plot_puzzle(puzzle, read.board, broken=read.broken_lines, marked=disagree, title=title,
                            cell_size=0.42), path)
    return path


def _tuning(out: Path, workers: int, quick: bool) -> Path:
    from qpicross.puzzle.formats import load_puzzle
    from qpicross.plot import save_figure
    from qpicross.experiments.tune import grid_points, parse_grid, plot_tuning, tune
    from qpicross.pipeline.config import SolverConfig

    puzzle = load_puzzle(INSTANCES / "smile7.px")
    points = grid_points(parse_grid("one_hot=0.25:4:5,match=0.25:4:5"), log=True)
    result = tune(puzzle, points, config=SolverConfig(sampler="sa"), num_reads=50 if quick else 100,
                  seeds=1 if quick else 2, seed=0, workers=workers)  # weights matter to plain SA
    reads = result.records[0]["num_reads"]
    fig = plot_tuning(result, title=f"{puzzle.name} (7x7): success probability, {reads} reads per point")
    path = out / "tuning_heatmap.png"
    save_figure(fig, path)
    return path


#: Where ``make bench-pure`` and ``make bench-tournament`` write their results (pure annealing, default
#: settings, the baseline in the same run). The JSON files are committed; the targets rewrite them.
BENCH_RESULTS = tuple(INSTANCES.parent / "results" / f"bench_{name}.json" for name in ("pure", "tournament"))

#: The package's default sampler settings, as ``make bench`` runs them (each read stops at energy 0).
BEST_SHIFT = {"sampler": "shift"}


def committed_results() -> list[Path]:
    """The files of :data:`BENCH_RESULTS` that exist here (written by ``make bench``)."""
    return [path for path in BENCH_RESULTS if path.is_file()]


def scaling_configs() -> list:
    """What the scaling plot compares when it measures: the published baseline, plain SA on the
    package's formulation, and the package's best sampler (``shift``,
    :class:`~qpicross.samplers.blockshift.sampler.BlockShiftSampler`, stopping a read at energy 0) without and
    with line-logic presolve."""
    from qpicross.experiments.bench import BASELINE
    from qpicross.pipeline.config import SolverConfig

    return [BASELINE, SolverConfig(sampler="sa", name="stacking (SA)"), SolverConfig(name="shift", **BEST_SHIFT),
            SolverConfig(name="shift + presolve", presolve=True, **BEST_SHIFT)]


def scaling_rows(
    results: str | os.PathLike | Sequence[str | os.PathLike] | None = None,
    *,
    num_reads: int = 100,
    time_budget: float = 1.0,
    workers: int = 1,
) -> list[dict]:
    """Rows for :func:`plot_scaling`: read from results files, or measured on ``instances/``.

    Args:
        results: One or more files written by ``qpicross bench --json FILE`` (or
            ``--csv``). When None, the shipped puzzles are benchmarked now with
            :func:`scaling_configs`.
        num_reads: Reads per puzzle and configuration (when measuring).
        time_budget: Seconds of sampling per puzzle and configuration (when measuring).
        workers: Processes (when measuring).

    Returns:
        One dict per puzzle and configuration, with infinite TTS99 as ``inf``;
        a configuration that presolved is named ``... + presolve``.
    """
    from qpicross.experiments.bench import read_results, run_bench

    if results is not None:
        paths = [results] if isinstance(results, (str, os.PathLike)) else list(results)
        rows = [row for path in paths for row in read_results(path)]
    else:
        from qpicross.puzzle.formats import load_puzzle
        from qpicross.classical.logic import propagate

        puzzles = sorted((load_puzzle(p) for p in INSTANCES.glob("*.px")),
                         key=lambda p: p.num_rows * p.num_cols)
        propagate(puzzles[0])  # compile the line solver once: no puzzle's presolve time includes it
        results_now = run_bench(puzzles, scaling_configs(), num_reads=num_reads, time_budget=time_budget,
                                seed=0, workers=workers, baseline=True)
        rows = [r.to_dict() for r in results_now]
    for row in rows:
        for key in ("tts99_s", "tts99_low_s", "tts99_high_s"):
            if key in row:
                row[key] = math.inf if row[key] in (None, "", "inf") else float(row[key])
        if str(row.get("presolve")).lower() in ("true", "1") and "presolve" not in row["config"]:
            row["config"] = f"{row['config']} + presolve"
    return rows


def _settled_by_logic(row: dict) -> bool:
    """Presolve left nothing to anneal (one trivial read)."""
    return str(row.get("presolve")).lower() in ("true", "1") and int(float(row["num_variables"])) == 0


def plot_scaling(rows: Sequence[dict], title: str | None = None):
    """Success probability (Wilson 95 %) and TTS99 against puzzle size, one line per configuration.

    With one puzzle per size, each configuration is a line through its puzzles.
    With several puzzles of a size (a benchmark collection), every puzzle is a
    faint marker and the line goes through the median per size.
    Runs that never solved the puzzle are drawn as ``x`` on a dotted line above
    every finite TTS99; puzzles that line logic settled entirely (no variable
    left to anneal) are hollow markers without an interval. Runs that raised
    (an ``error`` in their row) are left out.

    Returns:
        The :class:`matplotlib.figure.Figure`.
    """
    from matplotlib.figure import Figure

    rows = [r for r in rows if not r.get("error")]  # a run that raised measured nothing
    configs = list(dict.fromkeys(r["config"] for r in rows))
    markers = dict(zip(configs, "osD^v<>p"))
    all_tts = [float(r["tts99_s"]) for r in rows]
    finite = [t for t in all_tts if math.isfinite(t) and t > 0]
    ceiling = max(finite) * 5 if finite else 1.0
    fig = Figure(figsize=(10, 3.9), layout="constrained")
    ax_p, ax_t = fig.subplots(1, 2)
    size = lambda r: int(r["rows"]) * int(r["cols"])  # noqa: E731
    crowded = any(sum(1 for r in rows if r["config"] == c and size(r) == s) > 1
                  for c in configs for s in {size(r) for r in rows})
    for i, name in enumerate(configs):
        mine = sorted((r for r in rows if r["config"] == name), key=size)
        dodge = 1 + 0.03 * (i - (len(configs) - 1) / 2)
        cells = np.array([size(r) for r in mine], dtype=float) * dodge
        p = np.array([float(r["p"]) for r in mine])
        tts = np.array([float(r["tts99_s"]) for r in mine])
        solved = np.isfinite(tts)
        by_logic = np.array([_settled_by_logic(r) for r in mine], dtype=bool)
        if crowded:
            sizes = np.unique(cells)
            median_p = [float(np.median(p[cells == c])) for c in sizes]
            # The median TTS99 counts never-solved runs as infinite: no line where over half failed.
            median_t = [float(np.median(tts[cells == c])) for c in sizes]
            line, = ax_p.plot(sizes, median_p, marker=markers[name], label=f"{name} (median)")
            colour = line.get_color()
            ax_p.scatter(cells, p, marker=markers[name], s=12, color=colour, alpha=0.25, lw=0)
            finite_median = np.isfinite(median_t)
            ax_t.plot(sizes[finite_median], np.array(median_t)[finite_median], marker=markers[name],
                      color=colour)
            ax_t.scatter(cells[solved], tts[solved], marker=markers[name], s=12, color=colour, alpha=0.25,
                         lw=0)
        else:
            low = p - np.array([float(r["p_low"]) for r in mine])
            high = np.array([float(r["p_high"]) for r in mine]) - p
            low[by_logic] = high[by_logic] = 0
            bars = ax_p.errorbar(cells, p, yerr=[low, high], marker=markers[name], capsize=3, label=name)
            colour = bars.lines[0].get_color()
            ax_t.plot(cells[solved], tts[solved], marker=markers[name], color=colour, label=name)
            for ax, values, keep in ((ax_p, p, by_logic), (ax_t, tts, by_logic & solved)):
                ax.scatter(cells[keep], values[keep], marker=markers[name], s=90, facecolors="white",
                           edgecolors=colour, zorder=3)
        ax_t.scatter(cells[~solved], np.full(int((~solved).sum()), ceiling), marker="x", s=60, color=colour)
    if not crowded and any(_settled_by_logic(r) for r in rows):
        ax_p.scatter([], [], marker="o", facecolors="white", edgecolors="#555555",
                     label="settled by logic alone")
    all_sizes = sorted({size(r) for r in rows})
    gap = 1.25 if len(all_sizes) <= 6 else 1.45  # label the sizes, skipping any too close to the last label
    ticks: list[int] = []
    for s in all_sizes:
        if not ticks or s >= gap * ticks[-1]:
            ticks.append(s)
    for ax in (ax_p, ax_t):
        ax.set_xscale("log")
        ax.set_xticks(ticks, [str(s) for s in ticks], fontsize=8 if len(ticks) > 6 else 10)
        ax.minorticks_off()
        ax.set_xlabel("cells (rows x columns)")
    ax_p.set_ylim(-0.03, 1.03)
    ax_p.set_ylabel("success probability per read" + ("" if crowded else " (95 % Wilson)"))
    ax_p.legend(fontsize=8)
    ax_t.set_yscale("log")
    ax_t.axhline(ceiling, color="#999999", lw=0.8, ls=":")
    ax_t.set_ylabel("TTS99 (s); x on dotted line = never solved")
    if title:
        fig.suptitle(title, fontsize=11)
    return fig


def _scaling(out: Path, results: Sequence[str] | None, quick: bool) -> Path:
    from qpicross.experiments.bench import machine_info
    from qpicross.plot import save_figure

    # One process: parallel jobs would share the CPUs and inflate each other's time per read.
    rows = scaling_rows(results, num_reads=100 if quick else 300, time_budget=1.0 if quick else 3.0,
                        workers=1)
    if results:
        import json

        stamps = []
        for r in results:
            meta = json.loads(Path(r).read_text()).get("meta", {}) if str(r).endswith(".json") else {}
            stamps.append(f"{Path(r).name}" + (f" ({meta['time_utc'][:10]}, {meta['cpus']} CPUs)"
                                               if "time_utc" in meta and "cpus" in meta else ""))
        title = "Scaling, from make bench: " + ", ".join(stamps)
    else:
        info = machine_info()
        reads = max(int(r["num_reads"]) for r in rows)
        title = (f"Scaling on the shipped puzzles: up to {reads} reads per point, "
                 f"{info['cpus']} CPUs, {info['time_utc'][:10]}")
    path = out / "scaling.png"
    save_figure(plot_scaling(rows, title=title), path)
    return path


def make_figures(
    out_dir: str | os.PathLike = "figures",
    *,
    results: Sequence[str | os.PathLike] | None = None,
    workers: int = 2,
    quick: bool = False,
) -> list[Path]:
    """Regenerate every figure into ``out_dir``; returns the paths written.

    Args:
        out_dir: Folder for the PNGs (created if missing).
        results: ``qpicross bench`` results files for the scaling plot; default: those of
            :data:`BENCH_RESULTS` that exist, else the shipped puzzles are measured now.
        workers: Processes for the tuning sweep (the scaling benchmark runs in one, for fair timings).
        quick: Fewer reads (for a smoke test); the README's figures use the default.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    if results is None:
        results = committed_results() or None
    return [
        _solved_5x5(out),
        _broken_read(out),
        _tuning(out, workers, quick),
        _scaling(out, [str(r) for r in results] if results else None, quick),
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m qpicross.experiments.figures", description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir", nargs="?", default="figures",
                        help="folder for the PNGs (default figures/)")
    parser.add_argument("--results", nargs="+", default=None, metavar="FILE",
                        help="qpicross bench --json/--csv files for the scaling plot (default: "
                             "results/bench_*.json if present, else measure the shipped puzzles)")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--quick", action="store_true", help="fewer reads, for a smoke test")
    args = parser.parse_args(argv)
    for path in make_figures(args.out_dir, results=args.results, workers=args.workers, quick=args.quick):
        print(path)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
