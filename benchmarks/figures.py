"""The figures of the README and the docs, made from measurements taken when they are made.

``make figures`` (or ``python -m benchmarks.figures figures/``, from the repository root) writes:

* ``solved_5x5.png`` -- the letter "A" solved by annealing;
* ``broken_read.png`` -- an unsolved read of the 10x10 star: broken lines in red,
  cells where row and column variables disagree crossed out;
* ``tuning_heatmap.png`` -- success probability over ``one_hot`` x ``match`` weights
  (:func:`qpicross.experiments.tune.tune`) on the 7x7 smile;
* ``scaling.png`` -- success probability and TTS99 against puzzle size
  (:func:`qpicross.experiments.scaling.plot_scaling`): from the ``make bench`` results in
  ``results/`` where they exist, else measured now on the puzzles shipped in ``instances/``.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from qpicross.experiments.scaling import plot_scaling, scaling_rows

__all__ = ["INSTANCES", "BENCH_RESULTS", "committed_results", "make_figures", "main"]

#: The repository root, and the puzzles shipped with it.
ROOT = Path(__file__).resolve().parents[1]
INSTANCES = ROOT / "instances"


def _instances() -> list:
    from qpicross.puzzle.formats import load_puzzle

    return [load_puzzle(p) for p in sorted(INSTANCES.glob("*.px"))]


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
    from qpicross.experiments.tune import grid_points, parse_grid, plot_tuning, tune
    from qpicross.plot import save_figure
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
BENCH_RESULTS = tuple(ROOT / "results" / f"bench_{name}.json" for name in ("pure", "tournament"))

def committed_results() -> list[Path]:
    """The files of :data:`BENCH_RESULTS` that exist here (written by ``make bench``)."""
    return [path for path in BENCH_RESULTS if path.is_file()]


def _scaling(out: Path, results: Sequence[str] | None, quick: bool) -> Path:
    from qpicross.experiments.result import machine_info
    from qpicross.plot import save_figure

    # One process: parallel jobs would share the CPUs and inflate each other's time per read.
    rows = scaling_rows(results, puzzles=None if results else _instances(), num_reads=100 if quick else 300, time_limit=1.0 if quick else 3.0,
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
    parser = argparse.ArgumentParser(prog="python -m benchmarks.figures", description=__doc__.split("\n\n")[0])
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
